//! The `sessions` table: the state behind an interactive message's buttons.

use super::{StorageError, Tx};
use sqlx::Row;

/// One session as stored.
#[derive(Debug, Clone, PartialEq)]
pub struct Session {
    /// Primary key; appears (in base 36) in every button's custom_id.
    pub id: i64,
    /// The guild the session belongs to; lookups always filter on it.
    pub guild_id: i64,
    /// Where the message is.
    pub channel_id: i64,
    /// That channel's parent (a thread's channel, a channel's category)
    /// when the session was started; `None` before it was kept.
    pub parent_id: Option<i64>,
    /// Who started it.
    pub owner_id: i64,
    /// Which handler owns it (the custom_id prefix), e.g. `roll`.
    pub kind: String,
    /// Handler-specific state as JSON.
    pub state: String,
    /// Bumped on every change; stale clicks carry an older version.
    pub version: i64,
    /// Whether its buttons still act.
    pub status: Status,
    /// When it expires (ms since epoch), if ever.
    pub expires_at: Option<i64>,
    /// The Discord message showing it, once known.
    pub message_id: Option<i64>,
    /// The latest interaction token that can edit that message.
    pub token: Option<String>,
    /// When that token was issued (tokens last 15 minutes).
    pub token_at: Option<i64>,
    /// Whether it is secret ([`mark_secret`]): read with the row, so
    /// secrecy costs no query of its own.
    pub secret: bool,
}

/// Where a session stands. Stored as text (`open`, `closed`, `voided`,
/// `expired`); an unknown word read back counts as closed.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub enum Status {
    /// Its buttons act.
    #[default]
    Open,
    /// Finished normally.
    Closed,
    /// Voided by the game master.
    Voided,
    /// Left alone past the guild's timeout.
    Expired,
}

impl Status {
    /// The stored word.
    pub fn as_str(self) -> &'static str {
        match self {
            Status::Open => "open",
            Status::Closed => "closed",
            Status::Voided => "voided",
            Status::Expired => "expired",
        }
    }

    /// Reads a stored word (anything unknown is closed).
    pub fn parse(word: &str) -> Status {
        match word {
            "open" => Status::Open,
            "voided" => Status::Voided,
            "expired" => Status::Expired,
            _ => Status::Closed,
        }
    }

    /// Whether the buttons still act.
    pub fn is_open(self) -> bool {
        self == Status::Open
    }
}

impl std::fmt::Display for Status {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.as_str())
    }
}

/// A session about to be stored.
#[derive(Debug, Clone, Copy)]
pub struct NewSession<'a> {
    /// The guild.
    pub guild_id: i64,
    /// The channel.
    pub channel_id: i64,
    /// Its parent, if any.
    pub parent_id: Option<i64>,
    /// Who starts it.
    pub owner_id: i64,
    /// The owning system's kind.
    pub kind: &'a str,
    /// Initial state, JSON.
    pub state: &'a str,
    /// Expiry time, if any.
    pub expires_at: Option<i64>,
    /// Now (ms since epoch).
    pub now: i64,
}

/// Inserts a new session at version 0 and returns its id.
pub async fn insert(tx: &mut Tx, s: NewSession<'_>) -> Result<i64, StorageError> {
    let NewSession {
        guild_id,
        channel_id,
        parent_id,
        owner_id,
        kind,
        state,
        expires_at,
        now,
    } = s;
    let row = sqlx::query(
        "INSERT INTO sessions (guild_id, channel_id, owner_id, kind, state, version, status, created_at, updated_at, expires_at, parent_id)
         VALUES ($1, $2, $3, $4, $5, 0, 'open', $6, $6, $7, $8) RETURNING id",
    )
    .bind(guild_id)
    .bind(channel_id)
    .bind(owner_id)
    .bind(kind)
    .bind(state)
    .bind(now)
    .bind(expires_at)
    .bind(parent_id)
    .fetch_one(&mut **tx)
    .await?;
    row.try_get(0)
}

/// Loads a session of `guild_id` (another guild's session is never found).
pub async fn get(tx: &mut Tx, guild_id: i64, id: i64) -> Result<Option<Session>, StorageError> {
    let row = sqlx::query(
        "SELECT id, guild_id, channel_id, parent_id, owner_id, kind, state, version, status, expires_at, message_id, token, token_at, secret
         FROM sessions WHERE id = $1 AND guild_id = $2",
    )
    .bind(id)
    .bind(guild_id)
    .fetch_optional(&mut **tx)
    .await?;
    row.map(|r| from_row(&r)).transpose()
}

/// Deletes a session of `guild_id`; true when there was one.
pub async fn delete(tx: &mut Tx, guild_id: i64, id: i64) -> Result<bool, StorageError> {
    let done = sqlx::query("DELETE FROM sessions WHERE id = $1 AND guild_id = $2")
        .bind(id)
        .bind(guild_id)
        .execute(&mut **tx)
        .await?;
    Ok(done.rows_affected() == 1)
}

/// Replaces the state if the stored version is still `expected_version`,
/// bumping the version. Returns the new version, or `None` when someone else
/// changed the session first (the caller re-reads and re-renders).
pub async fn update(
    tx: &mut Tx,
    id: i64,
    expected_version: i64,
    state: &str,
    status: Status,
    expires_at: Option<i64>,
    now: i64,
) -> Result<Option<i64>, StorageError> {
    let done = sqlx::query(
        "UPDATE sessions SET state = $1, status = $2, version = version + 1, updated_at = $3, expires_at = $4
         WHERE id = $5 AND version = $6",
    )
    .bind(state)
    .bind(status.as_str())
    .bind(now)
    .bind(expires_at)
    .bind(id)
    .bind(expected_version)
    .execute(&mut **tx)
    .await?;
    Ok((done.rows_affected() == 1).then_some(expected_version + 1))
}

/// Records which message shows a session and the token that can edit it.
pub async fn attach(
    tx: &mut Tx,
    guild_id: i64,
    id: i64,
    message_id: i64,
    token: Option<&str>,
    now: i64,
) -> Result<(), StorageError> {
    sqlx::query("UPDATE sessions SET message_id = $1, token = $2, token_at = $3 WHERE id = $4 AND guild_id = $5")
        .bind(message_id)
        .bind(token)
        .bind(token.map(|_| now))
        .bind(id)
        .bind(guild_id)
        .execute(&mut **tx)
        .await?;
    Ok(())
}

/// Moves a session's expiry time (the FC closing the table early, tests).
pub async fn set_expiry(
    tx: &mut Tx,
    guild_id: i64,
    id: i64,
    expires_at: Option<i64>,
) -> Result<(), StorageError> {
    sqlx::query("UPDATE sessions SET expires_at = $1 WHERE id = $2 AND guild_id = $3")
        .bind(expires_at)
        .bind(id)
        .bind(guild_id)
        .execute(&mut **tx)
        .await?;
    Ok(())
}

/// The newest open sessions of `kind` in a channel, newest first (at most
/// `limit`): "the roll in progress here" for commands that act on a roll.
pub async fn latest_open_in_channel(
    tx: &mut Tx,
    guild_id: i64,
    channel_id: i64,
    kind: &str,
    limit: i64,
) -> Result<Vec<Session>, StorageError> {
    let rows = sqlx::query(
        "SELECT id, guild_id, channel_id, parent_id, owner_id, kind, state, version, status, expires_at, message_id, token, token_at, secret
         FROM sessions WHERE guild_id = $1 AND channel_id = $2 AND kind = $3 AND status = 'open'
         ORDER BY id DESC LIMIT $4",
    )
    .bind(guild_id)
    .bind(channel_id)
    .bind(kind)
    .bind(limit)
    .fetch_all(&mut **tx)
    .await?;
    rows.iter().map(from_row).collect()
}

/// The newest open sessions of `kind` in a guild, in any channel, newest
/// first (at most `limit`): the messages that may show a changed state.
pub async fn latest_open_in_guild(
    tx: &mut Tx,
    guild_id: i64,
    kind: &str,
    limit: i64,
) -> Result<Vec<Session>, StorageError> {
    let rows = sqlx::query(
        "SELECT id, guild_id, channel_id, parent_id, owner_id, kind, state, version, status, expires_at, message_id, token, token_at, secret
         FROM sessions WHERE guild_id = $1 AND kind = $2 AND status = 'open'
         ORDER BY id DESC LIMIT $3",
    )
    .bind(guild_id)
    .bind(kind)
    .bind(limit)
    .fetch_all(&mut **tx)
    .await?;
    rows.iter().map(from_row).collect()
}

/// The open sessions of `kind` in a channel with their creation times
/// (ms), newest first (at most `limit`): the rolls a command may choose.
pub async fn open_in_channel_aged(
    tx: &mut Tx,
    guild_id: i64,
    channel_id: i64,
    kind: &str,
    limit: i64,
) -> Result<Vec<(Session, i64)>, StorageError> {
    let rows = sqlx::query(
        "SELECT id, guild_id, channel_id, parent_id, owner_id, kind, state, version, status, expires_at, message_id, token, token_at, secret, created_at
         FROM sessions WHERE guild_id = $1 AND channel_id = $2 AND kind = $3 AND status = 'open'
         ORDER BY id DESC LIMIT $4",
    )
    .bind(guild_id)
    .bind(channel_id)
    .bind(kind)
    .bind(limit)
    .fetch_all(&mut **tx)
    .await?;
    rows.iter()
        .map(|r| Ok((from_row(r)?, r.try_get("created_at")?)))
        .collect()
}

/// Open sessions whose expiry time has passed, oldest first (at most `limit`).
pub async fn due_for_expiry(
    tx: &mut Tx,
    now: i64,
    limit: i64,
) -> Result<Vec<Session>, StorageError> {
    let rows = sqlx::query(
        "SELECT id, guild_id, channel_id, parent_id, owner_id, kind, state, version, status, expires_at, message_id, token, token_at, secret
         FROM sessions WHERE status = 'open' AND expires_at IS NOT NULL AND expires_at <= $1
         ORDER BY expires_at LIMIT $2",
    )
    .bind(now)
    .bind(limit)
    .fetch_all(&mut **tx)
    .await?;
    rows.iter().map(from_row).collect()
}

/// Marks a session of `guild_id` secret (the `secret` column): its clicks
/// are logged secret and its copies delivered privately.
pub async fn mark_secret(tx: &mut Tx, guild_id: i64, id: i64) -> Result<(), StorageError> {
    sqlx::query("UPDATE sessions SET secret = 1 WHERE id = $1 AND guild_id = $2")
        .bind(id)
        .bind(guild_id)
        .execute(&mut **tx)
        .await?;
    Ok(())
}

/// How many sessions of `kind` in `guild_id`, up to `upto_id`, are public
/// (`secret_of` none) or secret ones of the member `secret_of`.
pub async fn count_seen(
    tx: &mut Tx,
    guild_id: i64,
    kind: &str,
    upto_id: i64,
    secret_of: Option<i64>,
) -> Result<i64, StorageError> {
    let base = "SELECT COUNT(*) FROM sessions WHERE guild_id = $1 AND kind = $2 AND id <= $3";
    let row = match secret_of {
        None => {
            sqlx::query(&format!("{base} AND secret = 0"))
                .bind(guild_id)
                .bind(kind)
                .bind(upto_id)
                .fetch_one(&mut **tx)
                .await?
        }
        Some(owner) => {
            sqlx::query(&format!("{base} AND secret <> 0 AND owner_id = $4"))
                .bind(guild_id)
                .bind(kind)
                .bind(upto_id)
                .bind(owner)
                .fetch_one(&mut **tx)
                .await?
        }
    };
    row.try_get(0)
}

/// Whether the session `id` of `guild_id` is secret (false when there is no
/// such session in that guild).
pub async fn is_secret(tx: &mut Tx, guild_id: i64, id: i64) -> Result<bool, StorageError> {
    let row = sqlx::query("SELECT secret FROM sessions WHERE id = $1 AND guild_id = $2")
        .bind(id)
        .bind(guild_id)
        .fetch_optional(&mut **tx)
        .await?;
    match row {
        Some(r) => Ok(r.try_get::<i64, _>("secret")? != 0),
        None => Ok(false),
    }
}

fn from_row(r: &sqlx::any::AnyRow) -> Result<Session, StorageError> {
    Ok(Session {
        id: r.try_get("id")?,
        guild_id: r.try_get("guild_id")?,
        channel_id: r.try_get("channel_id")?,
        parent_id: r.try_get("parent_id")?,
        owner_id: r.try_get("owner_id")?,
        kind: r.try_get("kind")?,
        state: r.try_get("state")?,
        version: r.try_get("version")?,
        status: Status::parse(r.try_get::<&str, _>("status")?),
        expires_at: r.try_get("expires_at")?,
        message_id: r.try_get("message_id")?,
        token: r.try_get("token")?,
        token_at: r.try_get("token_at")?,
        secret: r.try_get::<i64, _>("secret")? != 0,
    })
}
