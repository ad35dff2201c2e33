//! Bonus factors on a check that fell short: picked in the **Bonus
//! factors** menu, **Clear factors**, and the FC's **Approve factors** (a
//! factor named with `/ve bonus` is one action, built by `press`).

use crate::app::AppError;
use crate::rules::venus::check::CheckAction;
use crate::rules::venus::CheckState;
use crate::rules::Actor;
use crate::systems::venus::state::CheckSession;

/// `bonus`: one factor per value picked in the menu.
pub fn picked(
    st: &CheckSession,
    a: Actor,
    values: &[String],
) -> Result<Vec<CheckAction>, AppError> {
    let mut v = Vec::new();
    for value in values {
        let o = st
            .menu
            .iter()
            .find(|o| &o.value == value)
            .ok_or_else(|| AppError::user("That bonus factor is not on the menu."))?;
        v.push(CheckAction::AddFactor {
            actor: a,
            name: o.name.clone(),
            kind: o.kind,
            value: o.points,
        });
    }
    Ok(v)
}

/// `clear`: removes every claimed factor.
pub fn clear(state: &CheckState, a: Actor) -> Vec<CheckAction> {
    (0..state.bonus_factors.len())
        .map(|_| CheckAction::RemoveFactor { actor: a, index: 0 })
        .collect()
}

/// `approve`: approves every factor awaiting approval (the rules core
/// refuses anyone but the FC).
pub fn approve(state: &CheckState, a: Actor) -> Vec<CheckAction> {
    (0..state.bonus_factors.len())
        .filter(|&i| !state.bonus_factors[i].approved)
        .map(|index| CheckAction::ApproveFactor { actor: a, index })
        .collect()
}
