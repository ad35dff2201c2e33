//! Writing the roll log from any system.
//!
//! Every roll, reroll, spend and sheet change is one [`record`] call inside
//! the action's transaction. Rolls also record the **dice faces** they
//! threw with [`record_faces`] (or [`record_rolled`], which does both), so
//! `/stats` can test the dice for fairness:
//!
//! ```ignore
//! let log_id = log::record(&mut tx, caller, what, &inputs, &dice, &outcome).await?;
//! log::record_faces(&mut tx, log_id, &[(10, 7), (10, 1), (10, 10)]).await?;
//! ```
//!
//! What to pass as faces: every die **thrown in this action**, as
//! `(sides, natural face)`: kept and dropped dice, exploded and bonus dice,
//! and the new faces of re-rolled dice. Do not pass dice thrown in an
//! earlier action (a "spend" or "close" step throws none), nor faces after
//! modifiers, nor dice that were not random (a fixed or automatic result).

use serde::Serialize;
use std::collections::BTreeMap;

use super::{AppError, Caller};
use crate::storage::{self, faces::FaceCount, log::LogEntry, Tx};

/// A log record's inputs when the action takes none (`{}`).
#[derive(Debug, Default, Serialize)]
pub struct NoInputs {}

/// A log record's dice when none were rolled (`[]`).
pub const NO_DICE: [u8; 0] = [];

/// An outcome told in one line (`{"text": …}`), as `/history` shows it.
#[derive(Debug, Serialize)]
pub struct Said<'a> {
    /// The line.
    pub text: &'a str,
}

/// What a log entry is about.
pub struct What<'a> {
    /// The system (`venus`, `veracity`, …).
    pub system: &'a str,
    /// The action (`roll`, `kiss`, `spend`, `sheet`, …). Whether the entry
    /// is secret is decided by [`record_id`], not by the name.
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
    record_id(tx, caller, what, inputs, dice, outcome)
        .await
        .map(drop)
}

/// Appends one entry in the caller's transaction and returns its id (for
/// [`record_faces`]). A secret caller's action, and any action on a secret
/// session (whoever acts: the FC adjusting it, a click on it), is logged
/// secret (the log's `secret` column): other players never see it.
pub async fn record_id(
    tx: &mut Tx,
    caller: &Caller,
    what: What<'_>,
    inputs: &impl Serialize,
    dice: &impl Serialize,
    outcome: &impl Serialize,
) -> Result<i64, AppError> {
    let columns = Columns {
        inputs: serde_json::to_string(inputs)?,
        dice: serde_json::to_string(dice)?,
        outcome: serde_json::to_string(outcome)?,
    };
    record_columns(tx, caller, what, columns).await
}

/// A log entry's three JSON columns, already serialised from the action's
/// typed record.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Columns {
    /// What the action was asked (`inputs`).
    pub inputs: String,
    /// The dice it threw (`dice`).
    pub dice: String,
    /// What came of it (`outcome`).
    pub outcome: String,
}

/// [`record_id`] with the columns already serialised (the action pipeline
/// serialises each typed record when the action hands it over).
pub async fn record_columns(
    tx: &mut Tx,
    caller: &Caller,
    what: What<'_>,
    columns: Columns,
) -> Result<i64, AppError> {
    let secret = caller.secret
        || match what.session {
            Some(id) => super::secret::is_secret(tx, caller.guild_id, id).await?,
            None => false,
        };
    record_columns_as(tx, caller, what, columns, secret).await
}

/// [`record_columns`] of an entry whose secrecy the action already knows
/// (its session is one the action just created: secret exactly when its
/// caller acts secretly), so nothing is looked up.
pub async fn record_columns_as(
    tx: &mut Tx,
    caller: &Caller,
    what: What<'_>,
    columns: Columns,
    secret: bool,
) -> Result<i64, AppError> {
    let entry = LogEntry {
        guild_id: caller.guild_id,
        channel_id: caller.channel_id,
        user_id: caller.user_id,
        character_id: what.character,
        session_id: what.session,
        system: what.system.into(),
        action: what.action.into(),
        secret,
        inputs: columns.inputs,
        dice: columns.dice,
        outcome: columns.outcome,
        created_at: storage::now_ms(),
        ..LogEntry::default()
    };
    append(tx, caller, &entry).await
}

/// Appends `entry`, the caller's, in the live game the caller acts in
/// ([`super::games`]; none outside every game), and returns its id. When
/// the action has not asked for its game yet, the insert finds it itself
/// (a `/roll` costs no extra round trip).
pub async fn append(tx: &mut Tx, caller: &Caller, entry: &LogEntry) -> Result<i64, AppError> {
    let channels = super::games::channels_of(caller);
    if let Some(game) = storage::games::seen_live(tx, caller.guild_id, &channels) {
        return Ok(storage::log::append_in(tx, entry, game).await?);
    }
    let parent = channels.get(1).copied().unwrap_or(caller.channel_id);
    Ok(storage::log::append_here(tx, entry, caller.channel_id, parent).await?)
}

/// A log column (`inputs`, `dice` or `outcome`) read back as the type
/// that wrote it; `None` for a row of another kind (another action's, or
/// one no longer readable). Games write their records with [`record`] and
/// read them with this, the same serde type both ways.
pub fn column<T: serde::de::DeserializeOwned>(json: &str) -> Option<T> {
    serde_json::from_str(json).ok()
}

/// Records the dice thrown by the action logged as `log_id`, one
/// `(sides, face)` pair per die, in the same transaction. Order does not
/// matter; an empty slice records nothing. A face outside `1..=sides` (or
/// a die with no sides) is a bug and is refused as an internal error.
pub async fn record_faces(tx: &mut Tx, log_id: i64, faces: &[(u32, u32)]) -> Result<(), AppError> {
    let mut counts: BTreeMap<(u32, u32), u64> = BTreeMap::new();
    for &(sides, face) in faces {
        if sides == 0 || face == 0 || face > sides {
            return Err(AppError::Internal(format!(
                "die face {face} on a d{sides} cannot be logged"
            )));
        }
        *counts.entry((sides, face)).or_insert(0) += 1;
    }
    let rows: Vec<FaceCount> = counts
        .into_iter()
        .map(|((sides, face), n)| FaceCount { sides, face, n })
        .collect();
    storage::faces::append(tx, log_id, &rows).await?;
    Ok(())
}

/// [`record`] and [`record_faces`] in one call, for actions that throw
/// dice; returns the log id.
#[allow(clippy::too_many_arguments)]
pub async fn record_rolled(
    tx: &mut Tx,
    caller: &Caller,
    what: What<'_>,
    inputs: &impl Serialize,
    dice: &impl Serialize,
    outcome: &impl Serialize,
    faces: &[(u32, u32)],
) -> Result<i64, AppError> {
    let id = record_id(tx, caller, what, inputs, dice, outcome).await?;
    record_faces(tx, id, faces).await?;
    Ok(id)
}
