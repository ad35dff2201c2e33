//! The `character_history` table: the sheet before and after every change
//! of a character, for `/fc undo`.
//!
//! [`record`] is called by [`super::characters::update`] for every saved
//! sheet that changed, so no system writes history itself. The row learns
//! who acted and what it was from the roll-log entry of the same
//! transaction ([`link`], called by [`super::log::append`]): two temporary
//! (per-connection) tables remember the rows and entries of the current
//! write transaction: on SQLite they are created with the writer connection
//! ([`SQLITE_TEMP_TABLES`]) and [`begin`] empties them when a transaction
//! starts; on PostgreSQL they are created with each connection
//! ([`POSTGRES_TEMP_TABLES`]) and emptied by every commit or rollback.

use super::{StorageError, Tx};
use sqlx::Row;

/// One change of a sheet.
#[derive(Debug, Clone, PartialEq)]
pub struct Change {
    /// Row id.
    pub id: i64,
    /// The character.
    pub character_id: i64,
    /// The log entry telling what it was (none when nothing was logged).
    pub log_id: Option<i64>,
    /// Who acted (0 when unknown).
    pub user_id: i64,
    /// The logged action (`stress`, `levelup`, `undo`, …; empty if unknown).
    pub action: String,
    /// The sheet JSON before.
    pub before: String,
    /// The sheet JSON after.
    pub after: String,
    /// The change this one undid (for an undo).
    pub undoes: Option<i64>,
    /// The undo that reverted this change.
    pub undone_by: Option<i64>,
    /// Milliseconds since the epoch.
    pub created_at: i64,
}

/// The per-transaction notes on PostgreSQL: temporary tables of the
/// connection, created once when it opens, emptied at every commit.
pub const POSTGRES_TEMP_TABLES: &[&str] = &[
    "CREATE TEMP TABLE IF NOT EXISTS kismet_tx_history (id BIGINT PRIMARY KEY, character_id BIGINT NOT NULL) ON COMMIT DELETE ROWS",
    "CREATE TEMP TABLE IF NOT EXISTS kismet_tx_log (id BIGINT PRIMARY KEY, character_id BIGINT, user_id BIGINT NOT NULL, action TEXT NOT NULL) ON COMMIT DELETE ROWS",
];

/// The per-transaction notes on SQLite: temporary tables of the writer
/// connection, created once when it opens ([`super::Db`]'s set-up), emptied
/// when each write transaction begins ([`begin`]).
pub const SQLITE_TEMP_TABLES: &[&str] = &[
    "CREATE TEMP TABLE IF NOT EXISTS kismet_tx_history (id INTEGER PRIMARY KEY, character_id INTEGER NOT NULL)",
    "CREATE TEMP TABLE IF NOT EXISTS kismet_tx_log (id INTEGER PRIMARY KEY, character_id INTEGER, user_id INTEGER NOT NULL, action TEXT NOT NULL)",
];

/// Prepares a new SQLite write transaction: empties the notes of the
/// previous one, in one round trip to the connection's thread (both
/// statements in one string).
pub async fn begin(tx: &mut Tx) -> Result<(), StorageError> {
    use sqlx::Executor;
    (&mut **tx)
        .execute("DELETE FROM temp.kismet_tx_history; DELETE FROM temp.kismet_tx_log")
        .await?;
    Ok(())
}

/// Records a change of a character's sheet; links it at once to this
/// transaction's newest log entry about the character, if one was written
/// before. Returns the row id.
pub async fn record(
    tx: &mut Tx,
    guild_id: i64,
    character_id: i64,
    before: &str,
    after: &str,
    now: i64,
) -> Result<i64, StorageError> {
    let id: i64 = sqlx::query(
        "INSERT INTO character_history (guild_id, character_id, before, after, created_at)
         VALUES ($1, $2, $3, $4, $5) RETURNING id",
    )
    .bind(guild_id)
    .bind(character_id)
    .bind(before)
    .bind(after)
    .bind(now)
    .fetch_one(&mut **tx)
    .await?
    .try_get(0)?;
    let earlier = sqlx::query(
        "SELECT id, user_id, action FROM kismet_tx_log
         WHERE character_id = $1 ORDER BY id DESC LIMIT 1",
    )
    .bind(character_id)
    .fetch_optional(&mut **tx)
    .await?;
    match earlier {
        Some(r) => {
            sqlx::query(
                "UPDATE character_history SET log_id = $1, user_id = $2, action = $3 WHERE id = $4",
            )
            .bind(r.try_get::<i64, _>("id")?)
            .bind(r.try_get::<i64, _>("user_id")?)
            .bind(r.try_get::<String, _>("action")?)
            .bind(id)
            .execute(&mut **tx)
            .await?;
        }
        None => {
            sqlx::query("INSERT INTO kismet_tx_history (id, character_id) VALUES ($1, $2)")
                .bind(id)
                .bind(character_id)
                .execute(&mut **tx)
                .await?;
        }
    }
    Ok(id)
}

/// Tells this transaction's unlinked changes (of `character_id`, or all
/// of them when the entry names no character) which log entry they belong
/// to, and remembers the entry for changes recorded after it.
pub async fn link(
    tx: &mut Tx,
    log_id: i64,
    character_id: Option<i64>,
    user_id: i64,
    action: &str,
) -> Result<(), StorageError> {
    sqlx::query(
        "UPDATE character_history SET log_id = $1, user_id = $2, action = $3
         WHERE id IN (SELECT id FROM kismet_tx_history WHERE $4 IS NULL OR character_id = $4)",
    )
    .bind(log_id)
    .bind(user_id)
    .bind(action)
    .bind(character_id)
    .execute(&mut **tx)
    .await?;
    sqlx::query("DELETE FROM kismet_tx_history WHERE $1 IS NULL OR character_id = $1")
        .bind(character_id)
        .execute(&mut **tx)
        .await?;
    sqlx::query(
        "INSERT INTO kismet_tx_log (id, character_id, user_id, action) VALUES ($1, $2, $3, $4)",
    )
    .bind(log_id)
    .bind(character_id)
    .bind(user_id)
    .bind(action)
    .execute(&mut **tx)
    .await?;
    Ok(())
}

const COLUMNS: &str =
    "id, character_id, log_id, user_id, action, before, after, undoes, undone_by, created_at";

/// A character's changes, newest first, at most `limit`.
pub async fn recent(
    tx: &mut Tx,
    guild_id: i64,
    character_id: i64,
    limit: i64,
) -> Result<Vec<Change>, StorageError> {
    let rows = sqlx::query(&format!(
        "SELECT {COLUMNS} FROM character_history WHERE guild_id = $1 AND character_id = $2
         ORDER BY id DESC LIMIT $3"
    ))
    .bind(guild_id)
    .bind(character_id)
    .bind(limit)
    .fetch_all(&mut **tx)
    .await?;
    rows.iter().map(from_row).collect()
}

/// One change by id.
pub async fn get(tx: &mut Tx, guild_id: i64, id: i64) -> Result<Option<Change>, StorageError> {
    let row = sqlx::query(&format!(
        "SELECT {COLUMNS} FROM character_history WHERE guild_id = $1 AND id = $2"
    ))
    .bind(guild_id)
    .bind(id)
    .fetch_optional(&mut **tx)
    .await?;
    row.map(|r| from_row(&r)).transpose()
}

/// The newest change of a character that can still be undone: not an undo
/// itself, not undone already.
pub async fn newest_undoable(
    tx: &mut Tx,
    guild_id: i64,
    character_id: i64,
) -> Result<Option<Change>, StorageError> {
    let row = sqlx::query(&format!(
        "SELECT {COLUMNS} FROM character_history WHERE guild_id = $1 AND character_id = $2
         AND undoes IS NULL AND undone_by IS NULL ORDER BY id DESC LIMIT 1"
    ))
    .bind(guild_id)
    .bind(character_id)
    .fetch_optional(&mut **tx)
    .await?;
    row.map(|r| from_row(&r)).transpose()
}

/// The newest row of a character (the one an update just wrote).
pub async fn latest_id(
    tx: &mut Tx,
    guild_id: i64,
    character_id: i64,
) -> Result<Option<i64>, StorageError> {
    let row = sqlx::query(
        "SELECT MAX(id) FROM character_history WHERE guild_id = $1 AND character_id = $2",
    )
    .bind(guild_id)
    .bind(character_id)
    .fetch_one(&mut **tx)
    .await?;
    row.try_get(0)
}

/// Marks `undo` as the undo of `target`, both ways.
pub async fn mark_undo(tx: &mut Tx, undo: i64, target: i64) -> Result<(), StorageError> {
    sqlx::query("UPDATE character_history SET undoes = $1 WHERE id = $2")
        .bind(target)
        .bind(undo)
        .execute(&mut **tx)
        .await?;
    sqlx::query("UPDATE character_history SET undone_by = $1 WHERE id = $2")
        .bind(undo)
        .bind(target)
        .execute(&mut **tx)
        .await?;
    Ok(())
}

fn from_row(r: &sqlx::any::AnyRow) -> Result<Change, StorageError> {
    Ok(Change {
        id: r.try_get("id")?,
        character_id: r.try_get("character_id")?,
        log_id: r.try_get("log_id")?,
        user_id: r.try_get("user_id")?,
        action: r.try_get("action")?,
        before: r.try_get("before")?,
        after: r.try_get("after")?,
        undoes: r.try_get("undoes")?,
        undone_by: r.try_get("undone_by")?,
        created_at: r.try_get("created_at")?,
    })
}
