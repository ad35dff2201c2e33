//! The FC ending a task at any point: **Void** (nothing counts, spent
//! Lots and Ego given back) and **Force close** (the result stands).

use super::turn::{Step, Turn};
use crate::app::AppError;
use crate::rules::venus::task::TaskAction;

/// `void` (FC).
pub fn void(t: &Turn<'_>) -> Result<Step, AppError> {
    t.fc_only("void a roll")?;
    Ok(Step::one(TaskAction::Void { actor: t.a }))
}

/// `force` (FC).
pub fn force(t: &Turn<'_>) -> Result<Step, AppError> {
    t.fc_only("force-close a roll")?;
    Ok(Step::one(TaskAction::ForceClose { actor: t.a }))
}
