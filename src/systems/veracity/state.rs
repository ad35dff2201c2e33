//! What a Veracity session shows: a sheet or a channel's Convention board.
//! Shared by the actions that post and change them and the click router.

use serde::{Deserialize, Serialize};

use crate::rules::veracity::level::RevelationInput;

/// What a Veracity session shows.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "view", rename_all = "snake_case")]
pub enum VrState {
    /// A sheet, by character row id.
    Sheet {
        /// The character's row id.
        character: i64,
    },
    /// The Convention board of a channel.
    Board {
        /// The channel.
        channel: i64,
    },
    /// A revelation waiting for the referee's judgement (issue 14): shocked,
    /// not shocked, or not greater than the last.
    Reveal {
        /// The revealing character's row id.
        character: i64,
        /// What was revealed, and the slot asked for.
        input: RevelationInput,
        /// Who asked.
        requester: i64,
        /// The referee's answer once given (`shocked`, `not_shocked`,
        /// `not_greater`) and what it did.
        #[serde(default)]
        outcome: Option<String>,
        /// The Secrets' texts when asked (the sheet must still hold them).
        #[serde(default)]
        secrets: Vec<String>,
    },
}
