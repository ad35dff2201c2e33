//! Writing the roll log from any system.

use serde::Serialize;

use super::{AppError, Caller};
use crate::storage::{self, log::LogEntry, Tx};

/// What a log entry is about.
pub struct What<'a> {
    /// The system (`venus`, `veracity`, …).
    pub system: &'a str,
    /// The action (`roll`, `kiss`, `spend`, `sheet`, …).
    pub action: &'a str,
    /// The session, if any.
    pub session: Option<i64>,
    /// The character, if any.
    pub character: Option<i64>,
}

/// Appends one entry in the caller's transaction.
pub async fn record(
    tx: &mut Tx,
    caller: &Caller,
    what: What<'_>,
    inputs: &impl Serialize,
    dice: &impl Serialize,
    outcome: &impl Serialize,
) -> Result<(), AppError> {
    let entry = LogEntry {
        guild_id: caller.guild_id,
        channel_id: caller.channel_id,
        user_id: caller.user_id,
        character_id: what.character,
        session_id: what.session,
        system: what.system.into(),
        action: what.action.into(),
        inputs: serde_json::to_string(inputs)?,
        dice: serde_json::to_string(dice)?,
        outcome: serde_json::to_string(outcome)?,
        created_at: storage::now_ms(),
        ..LogEntry::default()
    };
    storage::log::append(tx, &entry).await?;
    Ok(())
}
