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
    /// The field of a checked document it is about (`abilities[2].dots`),
    /// when a whole sheet was checked ([`RuleError::at`]); shown before the
    /// message by `Display`, left out of the player-facing `message`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub field: Option<String>,
}

impl RuleError {
    /// Builds an error from a player-facing sentence.
    pub fn new(message: impl Into<String>) -> Self {
        Self {
            message: message.into(),
            field: None,
        }
    }

    /// The same error about the field at `path` (an inner path already set
    /// is kept after it: `abilities[2]` then `dots` gives `abilities[2].dots`).
    pub fn at(mut self, path: impl Into<String>) -> Self {
        let path = path.into();
        self.field = Some(match self.field.take() {
            None => path,
            Some(inner) if inner.starts_with('[') => format!("{path}{inner}"),
            Some(inner) => format!("{path}.{inner}"),
        });
        self
    }
}

impl fmt::Display for RuleError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match &self.field {
            Some(field) => write!(f, "{field}: {}", self.message),
            None => f.write_str(&self.message),
        }
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
