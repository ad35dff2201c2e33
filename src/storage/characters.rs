//! The `characters` table: every system's sheets, as JSON.

use super::{StorageError, Tx};
use sqlx::Row;

/// A stored character.
#[derive(Debug, Clone, PartialEq)]
pub struct Character {
    /// Row id.
    pub id: i64,
    /// Guild.
    pub guild_id: i64,
    /// The player who owns it.
    pub owner_id: i64,
    /// `venus`, `veracity`, `storyteller` or `ore`.
    pub system: String,
    /// Display name.
    pub name: String,
    /// The sheet, JSON owned by the system.
    pub sheet: String,
    /// The owner's active character in this system.
    pub active: bool,
    /// Bumped on every change.
    pub version: i64,
}

const COLUMNS: &str = "id, guild_id, owner_id, system, name, sheet, active, version";

/// The lookup key of a name (case-insensitive).
pub fn name_key(name: &str) -> String {
    name.trim().to_lowercase()
}

/// Inserts a character; `Ok(None)` when the owner already has one of that
/// name in that system.
pub async fn insert(
    tx: &mut Tx,
    guild_id: i64,
    owner_id: i64,
    system: &str,
    name: &str,
    sheet: &str,
    now: i64,
) -> Result<Option<i64>, StorageError> {
    let res = sqlx::query(
        "INSERT INTO characters (guild_id, owner_id, system, name, name_key, sheet, active, version, created_at, updated_at)
         VALUES ($1, $2, $3, $4, $5, $6, 0, 0, $7, $7)
         ON CONFLICT (guild_id, system, owner_id, name_key) DO NOTHING RETURNING id",
    )
    .bind(guild_id)
    .bind(owner_id)
    .bind(system)
    .bind(name.trim())
    .bind(name_key(name))
    .bind(sheet)
    .bind(now)
    .fetch_optional(&mut **tx)
    .await?;
    // No error for a taken name: on PostgreSQL an error would abort the
    // whole transaction.
    res.map(|row| row.try_get(0)).transpose()
}

/// A character of the guild by id.
pub async fn get(tx: &mut Tx, guild_id: i64, id: i64) -> Result<Option<Character>, StorageError> {
    let row = sqlx::query(&format!(
        "SELECT {COLUMNS} FROM characters WHERE id = $1 AND guild_id = $2"
    ))
    .bind(id)
    .bind(guild_id)
    .fetch_optional(&mut **tx)
    .await?;
    row.map(|r| from_row(&r)).transpose()
}

/// The owner's character with this name.
pub async fn by_name(
    tx: &mut Tx,
    guild_id: i64,
    system: &str,
    owner_id: i64,
    name: &str,
) -> Result<Option<Character>, StorageError> {
    let row = sqlx::query(&format!(
        "SELECT {COLUMNS} FROM characters WHERE guild_id = $1 AND system = $2 AND owner_id = $3 AND name_key = $4"
    ))
    .bind(guild_id)
    .bind(system)
    .bind(owner_id)
    .bind(name_key(name))
    .fetch_optional(&mut **tx)
    .await?;
    row.map(|r| from_row(&r)).transpose()
}

/// Characters of the guild and system with this name, any owner.
pub async fn by_name_any_owner(
    tx: &mut Tx,
    guild_id: i64,
    system: &str,
    name: &str,
) -> Result<Vec<Character>, StorageError> {
    let rows = sqlx::query(&format!(
        "SELECT {COLUMNS} FROM characters WHERE guild_id = $1 AND system = $2 AND name_key = $3 ORDER BY id"
    ))
    .bind(guild_id)
    .bind(system)
    .bind(name_key(name))
    .fetch_all(&mut **tx)
    .await?;
    rows.iter().map(from_row).collect()
}

/// The owner's active character in a system.
pub async fn active(
    tx: &mut Tx,
    guild_id: i64,
    system: &str,
    owner_id: i64,
) -> Result<Option<Character>, StorageError> {
    let row = sqlx::query(&format!(
        "SELECT {COLUMNS} FROM characters WHERE guild_id = $1 AND system = $2 AND owner_id = $3 AND active = 1"
    ))
    .bind(guild_id)
    .bind(system)
    .bind(owner_id)
    .fetch_optional(&mut **tx)
    .await?;
    row.map(|r| from_row(&r)).transpose()
}

/// The owner's characters in a system (or all owners' when `owner_id` is
/// `None`), by name, at most `limit`.
pub async fn list(
    tx: &mut Tx,
    guild_id: i64,
    system: &str,
    owner_id: Option<i64>,
    limit: i64,
) -> Result<Vec<Character>, StorageError> {
    let rows = match owner_id {
        Some(o) => {
            sqlx::query(&format!(
                "SELECT {COLUMNS} FROM characters WHERE guild_id = $1 AND system = $2 AND owner_id = $3 ORDER BY name_key LIMIT $4"
            ))
            .bind(guild_id)
            .bind(system)
            .bind(o)
            .bind(limit)
            .fetch_all(&mut **tx)
            .await?
        }
        None => {
            sqlx::query(&format!(
                "SELECT {COLUMNS} FROM characters WHERE guild_id = $1 AND system = $2 ORDER BY name_key LIMIT $3"
            ))
            .bind(guild_id)
            .bind(system)
            .bind(limit)
            .fetch_all(&mut **tx)
            .await?
        }
    };
    rows.iter().map(from_row).collect()
}

/// Makes `id` the owner's only active character in its system.
pub async fn set_active(tx: &mut Tx, c: &Character) -> Result<(), StorageError> {
    sqlx::query(
        "UPDATE characters SET active = 0 WHERE guild_id = $1 AND system = $2 AND owner_id = $3",
    )
    .bind(c.guild_id)
    .bind(&c.system)
    .bind(c.owner_id)
    .execute(&mut **tx)
    .await?;
    sqlx::query("UPDATE characters SET active = 1 WHERE id = $1")
        .bind(c.id)
        .execute(&mut **tx)
        .await?;
    Ok(())
}

/// Replaces a sheet (and name), bumping the version. A changed sheet is
/// recorded in the character's history (before and after, for `/fc undo`).
pub async fn update(tx: &mut Tx, c: &Character, now: i64) -> Result<(), StorageError> {
    let before: Option<String> =
        sqlx::query("SELECT sheet FROM characters WHERE id = $1 AND guild_id = $2")
            .bind(c.id)
            .bind(c.guild_id)
            .fetch_optional(&mut **tx)
            .await?
            .map(|r| r.try_get(0))
            .transpose()?;
    if let Some(before) = before.filter(|b| *b != c.sheet) {
        super::character_history::record(tx, c.guild_id, c.id, &before, &c.sheet, now).await?;
    }
    sqlx::query(
        "UPDATE characters SET sheet = $1, name = $2, name_key = $3, version = version + 1, updated_at = $4
         WHERE id = $5 AND guild_id = $6",
    )
    .bind(&c.sheet)
    .bind(c.name.trim())
    .bind(name_key(&c.name))
    .bind(now)
    .bind(c.id)
    .bind(c.guild_id)
    .execute(&mut **tx)
    .await?;
    Ok(())
}

/// Deletes a character.
pub async fn delete(tx: &mut Tx, guild_id: i64, id: i64) -> Result<bool, StorageError> {
    let done = sqlx::query("DELETE FROM characters WHERE id = $1 AND guild_id = $2")
        .bind(id)
        .bind(guild_id)
        .execute(&mut **tx)
        .await?;
    Ok(done.rows_affected() == 1)
}

/// How many characters are stored in all.
pub async fn count_all(tx: &mut Tx) -> Result<i64, StorageError> {
    let row = sqlx::query("SELECT COUNT(*) FROM characters")
        .fetch_one(&mut **tx)
        .await?;
    row.try_get(0)
}

fn from_row(r: &sqlx::any::AnyRow) -> Result<Character, StorageError> {
    Ok(Character {
        id: r.try_get("id")?,
        guild_id: r.try_get("guild_id")?,
        owner_id: r.try_get("owner_id")?,
        system: r.try_get("system")?,
        name: r.try_get("name")?,
        sheet: r.try_get("sheet")?,
        active: r.try_get::<i64, _>("active")? != 0,
        version: r.try_get("version")?,
    })
}
