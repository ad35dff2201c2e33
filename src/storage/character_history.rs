//! The `character_history` table: the sheet before and after every change
//! of a character, for `/fc undo`.
//!
//! [`record`] is called by [`super::characters::update`] for every saved
//! sheet that changed, so no system writes history itself. The row learns
//! who acted and what it was from the roll-log entry of the same
//! transaction ([`link`], called by [`super::log::append`]). The
//! transaction's [`Notes`] (kept in memory beside it, in [`Tx`]) remember
//! the entries logged and the changes not yet linked, so linking costs no
//! statement unless a sheet was saved before its entry was logged.

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

/// What one write transaction has logged and recorded so far: its
/// character-history rows still waiting for their log entry, and its log
/// entries (newest last). Lives and dies with the transaction ([`Tx`]), so
/// a rollback forgets it with the rows it described.
#[derive(Debug, Default)]
pub struct Notes {
    /// `(history row, character)` of changes not linked to an entry yet.
    unlinked: Vec<(i64, i64)>,
    /// The entries logged.
    logged: Vec<Logged>,
}

/// A log entry of the transaction, as the changes of its character learn it.
#[derive(Debug)]
struct Logged {
    id: i64,
    character_id: Option<i64>,
    user_id: i64,
    action: String,
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
    // The newest entry of this transaction about the character, if any:
    // the change belongs to it.
    let earlier = tx
        .notes
        .logged
        .iter()
        .rev()
        .find(|e| e.character_id == Some(character_id));
    let log_id = earlier.map(|e| e.id);
    let user_id = earlier.map_or(0, |e| e.user_id);
    let action = earlier.map_or(String::new(), |e| e.action.clone());
    let id: i64 = sqlx::query(
        "INSERT INTO character_history (guild_id, character_id, before, after, created_at, log_id, user_id, action)
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8) RETURNING id",
    )
    .bind(guild_id)
    .bind(character_id)
    .bind(before)
    .bind(after)
    .bind(now)
    .bind(log_id)
    .bind(user_id)
    .bind(action)
    .fetch_one(&mut **tx)
    .await?
    .try_get(0)?;
    if log_id.is_none() {
        tx.notes.unlinked.push((id, character_id));
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
    let mut mine = Vec::new();
    tx.notes.unlinked.retain(|&(row, c)| {
        let claimed = character_id.is_none_or(|id| id == c);
        if claimed {
            mine.push(row);
        }
        !claimed
    });
    for row in mine {
        sqlx::query(
            "UPDATE character_history SET log_id = $1, user_id = $2, action = $3 WHERE id = $4",
        )
        .bind(log_id)
        .bind(user_id)
        .bind(action)
        .bind(row)
        .execute(&mut **tx)
        .await?;
    }
    tx.notes.logged.push(Logged {
        id: log_id,
        character_id,
        user_id,
        action: action.to_string(),
    });
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::storage::{log, Db};

    fn entry(character_id: Option<i64>, user_id: i64, action: &str) -> log::LogEntry {
        log::LogEntry {
            guild_id: 1,
            user_id,
            character_id,
            system: "venus".into(),
            action: action.into(),
            ..log::LogEntry::default()
        }
    }

    /// `(log_id, user_id, action)` of a history row.
    async fn told(tx: &mut Tx, id: i64) -> (Option<i64>, i64, String) {
        let c = get(tx, 1, id).await.unwrap().unwrap();
        (c.log_id, c.user_id, c.action)
    }

    #[tokio::test]
    async fn changes_learn_their_entry_in_either_order_and_only_their_characters() {
        let dir = std::env::temp_dir().join(format!("kismet-chist-{}", std::process::id()));
        let db = Db::open(&format!("sqlite://{}", dir.join("h.db").display()), 2)
            .await
            .unwrap();
        let mut tx = db.write().await.unwrap();
        // Saved before the entry: linked when the entry about it comes.
        let a1 = record(&mut tx, 1, 10, "{}", "{\"a\":1}", 5).await.unwrap();
        let b1 = record(&mut tx, 1, 20, "{}", "{\"b\":1}", 5).await.unwrap();
        assert_eq!(told(&mut tx, a1).await, (None, 0, String::new()));
        let la = log::append(&mut tx, &entry(Some(10), 7, "stress"))
            .await
            .unwrap();
        assert_eq!(told(&mut tx, a1).await, (Some(la), 7, "stress".into()));
        // Another character's entry leaves b1 alone …
        assert_eq!(told(&mut tx, b1).await, (None, 0, String::new()));
        // … saved after its entry: linked at once, to the newest about it.
        let a2 = record(&mut tx, 1, 10, "{\"a\":1}", "{\"a\":2}", 6)
            .await
            .unwrap();
        assert_eq!(told(&mut tx, a2).await, (Some(la), 7, "stress".into()));
        let la2 = log::append(&mut tx, &entry(Some(10), 8, "heal"))
            .await
            .unwrap();
        let a3 = record(&mut tx, 1, 10, "{\"a\":2}", "{\"a\":3}", 7)
            .await
            .unwrap();
        assert_eq!(told(&mut tx, a3).await, (Some(la2), 8, "heal".into()));
        // An entry naming no character claims every change still unlinked.
        let lall = log::append(&mut tx, &entry(None, 9, "party"))
            .await
            .unwrap();
        assert_eq!(told(&mut tx, b1).await, (Some(lall), 9, "party".into()));
        assert_eq!(told(&mut tx, a1).await, (Some(la), 7, "stress".into()));
        tx.commit().await.unwrap();

        // The notes do not outlive their transaction: an entry logged in
        // one does not claim a change saved in the next.
        let mut tx = db.write().await.unwrap();
        let a4 = record(&mut tx, 1, 10, "{\"a\":3}", "{\"a\":4}", 8)
            .await
            .unwrap();
        assert_eq!(told(&mut tx, a4).await, (None, 0, String::new()));
        tx.rollback().await.unwrap();
        let mut tx = db.read().await.unwrap();
        assert!(get(&mut tx, 1, a4).await.unwrap().is_none());
        drop(tx);
        db.close().await;
        let _ = std::fs::remove_dir_all(dir);
    }
}
