//! Whom a play-by-post game waits on (migration 0092, issue 32): the
//! `game_waits` table. A row says that an open session waits on a member
//! ([`GAME_MASTERS`]: the game's game masters) for something, since when;
//! the member was pinged once when it was written. The application's
//! pipeline writes and clears them ([`crate::app::waits`]).

use super::{StorageError, Tx};
use sqlx::Row;

/// The `member_id` of a wait on the game's game masters.
pub const GAME_MASTERS: i64 = 0;

/// A wait as listed: where its session's message is.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Listed {
    /// The session that waits.
    pub session_id: i64,
    /// Whom it waits on ([`GAME_MASTERS`]: the game masters).
    pub member_id: i64,
    /// What for.
    pub what: String,
    /// Since when (ms).
    pub since: i64,
    /// The session's channel.
    pub channel_id: i64,
    /// The session's message, once known.
    pub message_id: Option<i64>,
}

/// Whom session `session_id` is recorded to wait on.
pub async fn members(tx: &mut Tx, session_id: i64) -> Result<Vec<i64>, StorageError> {
    let rows = sqlx::query("SELECT member_id FROM game_waits WHERE session_id = $1")
        .bind(session_id)
        .fetch_all(&mut **tx)
        .await?;
    rows.iter().map(|r| r.try_get(0)).collect()
}

/// Records that session `session_id` of game `game_id` waits on
/// `member_id` for `what` since `since`.
pub async fn add(
    tx: &mut Tx,
    guild_id: i64,
    game_id: i64,
    session_id: i64,
    member_id: i64,
    what: &str,
    since: i64,
) -> Result<(), StorageError> {
    sqlx::query(
        "INSERT INTO game_waits (guild_id, game_id, session_id, member_id, what, since)
         VALUES ($1, $2, $3, $4, $5, $6)
         ON CONFLICT (session_id, member_id) DO NOTHING",
    )
    .bind(guild_id)
    .bind(game_id)
    .bind(session_id)
    .bind(member_id)
    .bind(what)
    .bind(since)
    .execute(&mut **tx)
    .await?;
    Ok(())
}

/// Drops the wait of session `session_id` on `member_id`.
pub async fn remove(tx: &mut Tx, session_id: i64, member_id: i64) -> Result<(), StorageError> {
    sqlx::query("DELETE FROM game_waits WHERE session_id = $1 AND member_id = $2")
        .bind(session_id)
        .bind(member_id)
        .execute(&mut **tx)
        .await?;
    Ok(())
}

/// Drops every wait of session `session_id` (it closed).
pub async fn clear(tx: &mut Tx, session_id: i64) -> Result<(), StorageError> {
    sqlx::query("DELETE FROM game_waits WHERE session_id = $1")
        .bind(session_id)
        .execute(&mut **tx)
        .await?;
    Ok(())
}

/// Drops every wait on member `user_id` in guild `guild_id` (they were
/// forgotten).
pub async fn forget(tx: &mut Tx, guild_id: i64, user_id: i64) -> Result<(), StorageError> {
    sqlx::query("DELETE FROM game_waits WHERE guild_id = $1 AND member_id = $2")
        .bind(guild_id)
        .bind(user_id)
        .execute(&mut **tx)
        .await?;
    Ok(())
}

/// The waits of game `game_id` whose session is still open and not past
/// its time at `now` (ms), oldest first, at most `limit`.
pub async fn open_in(
    tx: &mut Tx,
    guild_id: i64,
    game_id: i64,
    now: i64,
    limit: i64,
) -> Result<Vec<Listed>, StorageError> {
    let rows = sqlx::query(
        "SELECT w.session_id, w.member_id, w.what, w.since, s.channel_id, s.message_id
         FROM game_waits w JOIN sessions s ON s.id = w.session_id
         WHERE w.guild_id = $1 AND w.game_id = $2 AND s.status = 'open'
           AND (s.expires_at IS NULL OR s.expires_at > $3)
         ORDER BY w.since, w.session_id, w.member_id
         LIMIT $4",
    )
    .bind(guild_id)
    .bind(game_id)
    .bind(now)
    .bind(limit)
    .fetch_all(&mut **tx)
    .await?;
    rows.iter()
        .map(|r| {
            Ok(Listed {
                session_id: r.try_get(0)?,
                member_id: r.try_get(1)?,
                what: r.try_get(2)?,
                since: r.try_get(3)?,
                channel_id: r.try_get(4)?,
                message_id: r.try_get(5)?,
            })
        })
        .collect()
}
