//! Spending Ego: edition 1's **Ego: re-roll misses** (declared in the KISS
//! round, and withdrawn with the same button) and **Ego: double 6s**;
//! edition 2's **Spend Ego**/**Keep Ego** offer when still short.

use super::turn::{Step, Turn};
use crate::rules::venus::task::TaskAction;

/// `egore`: declares the Ego re-roll, or withdraws it when declared.
pub fn reroll(t: &Turn<'_>) -> Step {
    Step::one(if t.st.task.ego_reroll_pending {
        TaskAction::WithdrawEgoReroll { actor: t.a }
    } else {
        TaskAction::DeclareEgoReroll { actor: t.a }
    })
}

/// `ego6`: every 6 strikes two beats.
pub fn sixes(t: &Turn<'_>) -> Step {
    Step::one(TaskAction::DeclareDoubleSixes { actor: t.a })
}

/// `egoyes` (`spend`) and `egono`: answers the edition-2 Ego offer.
pub fn offer(t: &Turn<'_>, spend: bool) -> Step {
    Step::one(if spend {
        TaskAction::SpendEgo { actor: t.a }
    } else {
        TaskAction::DeclineEgo { actor: t.a }
    })
}
