//! Session helpers for systems: create, decode, save (version-checked),
//! with the guild's timeout.

use serde::{de::DeserializeOwned, Serialize};

use super::{AppError, Caller};
use crate::storage::sessions::Status;
use crate::storage::{self, sessions::Session, Tx};

/// Creates an open session owned by the caller, expiring after `timeout_minutes`
/// (none when `None`); returns its id. A secret caller's session is marked
/// secret ([`super::secret`]).
pub async fn create<S: Serialize>(
    tx: &mut Tx,
    caller: &Caller,
    kind: &str,
    state: &S,
    timeout_minutes: Option<u32>,
) -> Result<i64, AppError> {
    create_json(
        tx,
        caller,
        kind,
        &serde_json::to_string(state)?,
        timeout_minutes,
    )
    .await
}

/// [`create`] with the state already serialised.
pub async fn create_json(
    tx: &mut Tx,
    caller: &Caller,
    kind: &str,
    json: &str,
    timeout_minutes: Option<u32>,
) -> Result<i64, AppError> {
    let now = tx.now_ms();
    let id = storage::sessions::insert(
        tx,
        storage::sessions::NewSession {
            guild_id: caller.guild_id,
            channel_id: caller.channel_id,
            parent_id: caller.parent_id,
            owner_id: caller.user_id,
            kind,
            state: json,
            expires_at: timeout_minutes.map(|m| now + i64::from(m) * 60_000),
            now,
        },
    )
    .await?;
    if caller.secret {
        super::secret::mark(tx, caller, id).await?;
    }
    Ok(id)
}

/// Decodes a session's state.
pub fn load<S: DeserializeOwned>(s: &Session) -> Result<S, AppError> {
    Ok(serde_json::from_str(&s.state)?)
}

/// Saves new state with a status (`open`, `closed`, `voided`), pushing the
/// expiry forward by `timeout_minutes` when open; returns the new version.
pub async fn save<S: Serialize>(
    tx: &mut Tx,
    s: &Session,
    state: &S,
    status: Status,
    timeout_minutes: Option<u32>,
) -> Result<i64, AppError> {
    save_json(
        tx,
        s,
        &serde_json::to_string(state)?,
        status,
        timeout_minutes,
    )
    .await
}

/// [`save`] with the state already serialised.
pub async fn save_json(
    tx: &mut Tx,
    s: &Session,
    json: &str,
    status: Status,
    timeout_minutes: Option<u32>,
) -> Result<i64, AppError> {
    let now = tx.now_ms();
    let expires = if status == Status::Open {
        timeout_minutes.map(|m| now + i64::from(m) * 60_000)
    } else {
        s.expires_at
    };
    storage::sessions::update(tx, s.id, s.version, json, status, expires, now)
        .await?
        .ok_or_else(|| AppError::Internal("session changed under a write lock".into()))
}

/// Where a session's message was posted: its channel, its message (once
/// known) and the newest token that can edit it with its issue time.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Posted {
    /// The channel.
    pub channel_id: i64,
    /// The message, once known.
    pub message_id: Option<i64>,
    /// A token that can edit the message, with its issue time (ms).
    pub token: Option<(String, i64)>,
}

/// Where the message of session `id` in `guild_id` is, if the session exists.
pub async fn posted(app: &super::App, guild_id: i64, id: i64) -> Result<Option<Posted>, AppError> {
    let mut tx = app.db.glance().await?;
    let s = storage::sessions::get(&mut tx, guild_id, id).await?;
    Ok(s.map(|s| Posted {
        channel_id: s.channel_id,
        message_id: s.message_id,
        token: s.token.zip(s.token_at),
    }))
}
