//! What a Veracity session shows: a sheet or a channel's Convention board.
//! Shared by the actions that post and change them and the click router.

use serde::{Deserialize, Serialize};

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
}
