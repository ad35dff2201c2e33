//! [`RuleError`]: why an action is not allowed, in words a player understands.

use serde::{Deserialize, Serialize};
use std::fmt;

/// An illegal action, explained for the player (never a panic).
///
/// `message` is a full sentence shown to the player as-is, for example
/// "You have no Lots left to spend.".
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct RuleError {
    /// The explanation, ready to show.
    pub message: String,
}

impl RuleError {
    /// Builds an error from a player-facing sentence.
    pub fn new(message: impl Into<String>) -> Self {
        Self {
            message: message.into(),
        }
    }
}

impl fmt::Display for RuleError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.message)
    }
}

impl std::error::Error for RuleError {}

/// Returns `Err(RuleError::new(msg))` unless `cond` holds.
pub fn ensure(cond: bool, msg: impl FnOnce() -> String) -> Result<(), RuleError> {
    if cond {
        Ok(())
    } else {
        Err(RuleError::new(msg()))
    }
}
