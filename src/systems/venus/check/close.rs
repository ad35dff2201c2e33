//! Ending a check: **Roll bonus dice**/**Add the bonus**, **Accept
//! failure**, **Cancel**, and the FC's **Void** and **Force close**, before
//! the d20 is thrown or after.

use crate::app::AppError;
use crate::rules::venus::check::CheckAction;
use crate::rules::Actor;
use crate::systems::venus::buttons::CheckButton;
use crate::systems::venus::fc_only;
use crate::systems::venus::state::CheckSession;

/// `cancel`, `void` (FC) and `force` (FC) before the d20 is thrown: the
/// check ends with the word shown.
pub fn before_roll(st: &mut CheckSession, a: Actor, button: &CheckButton) -> Result<(), AppError> {
    let word = match button {
        CheckButton::Void => {
            fc_only(a, "void a roll")?;
            "Voided by the FC"
        }
        CheckButton::Force => {
            fc_only(a, "force-close a roll")?;
            "Closed by the FC before the roll"
        }
        _ => "Cancelled before the roll",
    };
    st.ended_before_roll = Some(word.into());
    Ok(())
}

/// `resolve`: rolls the bonus dice (edition 1) or adds the bonus (edition 2).
pub fn resolve(a: Actor) -> Vec<CheckAction> {
    vec![CheckAction::Resolve { actor: a }]
}

/// `fail`: accepts the failure.
pub fn fail(a: Actor) -> Vec<CheckAction> {
    vec![CheckAction::AcceptFailure { actor: a }]
}

/// `cancel` after the roll.
pub fn cancel(a: Actor) -> Vec<CheckAction> {
    vec![CheckAction::Cancel { actor: a }]
}

/// `void` (FC) after the roll.
pub fn void(a: Actor) -> Result<Vec<CheckAction>, AppError> {
    fc_only(a, "void a roll")?;
    Ok(vec![CheckAction::Void { actor: a }])
}

/// `force` (FC) after the roll.
pub fn force(a: Actor) -> Result<Vec<CheckAction>, AppError> {
    fc_only(a, "force-close a roll")?;
    Ok(vec![CheckAction::ForceClose { actor: a }])
}
