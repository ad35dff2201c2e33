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
    let now = storage::now_ms();
    let json = serde_json::to_string(state)?;
    let id = storage::sessions::insert(
        tx,
        storage::sessions::NewSession {
            guild_id: caller.guild_id,
            channel_id: caller.channel_id,
            owner_id: caller.user_id,
            kind,
            state: &json,
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
    let now = storage::now_ms();
    let json = serde_json::to_string(state)?;
    let expires = if status == Status::Open {
        timeout_minutes.map(|m| now + i64::from(m) * 60_000)
    } else {
        s.expires_at
    };
    storage::sessions::update(tx, s.id, s.version, &json, status, expires, now)
        .await?
        .ok_or_else(|| AppError::Internal("session changed under a write lock".into()))
}
