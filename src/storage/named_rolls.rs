//! The `named_rolls` table (migration 0062): each member's saved dice
//! expressions per guild, for `/roll save:|name:` and the `/rolls` card.

use super::{StorageError, Tx};
use sqlx::Row;

/// One saved roll.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct NamedRoll {
    /// The name as typed.
    pub name: String,
    /// The expression (canonical notation).
    pub expression: String,
}

/// The key a name is stored under: trimmed, lower case.
pub fn key(name: &str) -> String {
    name.trim().to_lowercase()
}

/// How many rolls a member has saved in a guild.
pub async fn count(tx: &mut Tx, guild_id: i64, user_id: i64) -> Result<i64, StorageError> {
    sqlx::query("SELECT COUNT(*) FROM named_rolls WHERE guild_id = $1 AND user_id = $2")
        .bind(guild_id)
        .bind(user_id)
        .fetch_one(&mut **tx)
        .await
        .map(|r| r.get::<i64, _>(0))
}

/// Saves (or replaces) a roll; true when it replaced one.
pub async fn save(
    tx: &mut Tx,
    guild_id: i64,
    user_id: i64,
    name: &str,
    expression: &str,
    now: i64,
) -> Result<bool, StorageError> {
    let existed = get(tx, guild_id, user_id, name).await?.is_some();
    sqlx::query(
        "INSERT INTO named_rolls (guild_id, user_id, name_key, name, expression, updated_at)
         VALUES ($1, $2, $3, $4, $5, $6)
         ON CONFLICT (guild_id, user_id, name_key)
         DO UPDATE SET name = excluded.name, expression = excluded.expression,
                       updated_at = excluded.updated_at",
    )
    .bind(guild_id)
    .bind(user_id)
    .bind(key(name))
    .bind(name.trim())
    .bind(expression)
    .bind(now)
    .execute(&mut **tx)
    .await?;
    Ok(existed)
}

/// One roll by name (any case).
pub async fn get(
    tx: &mut Tx,
    guild_id: i64,
    user_id: i64,
    name: &str,
) -> Result<Option<NamedRoll>, StorageError> {
    let row = sqlx::query(
        "SELECT name, expression FROM named_rolls
         WHERE guild_id = $1 AND user_id = $2 AND name_key = $3",
    )
    .bind(guild_id)
    .bind(user_id)
    .bind(key(name))
    .fetch_optional(&mut **tx)
    .await?;
    Ok(row.map(|r| NamedRoll {
        name: r.get(0),
        expression: r.get(1),
    }))
}

/// Every roll of a member, by name.
pub async fn list(
    tx: &mut Tx,
    guild_id: i64,
    user_id: i64,
) -> Result<Vec<NamedRoll>, StorageError> {
    let rows = sqlx::query(
        "SELECT name, expression FROM named_rolls
         WHERE guild_id = $1 AND user_id = $2 ORDER BY name_key",
    )
    .bind(guild_id)
    .bind(user_id)
    .fetch_all(&mut **tx)
    .await?;
    Ok(rows
        .into_iter()
        .map(|r| NamedRoll {
            name: r.get(0),
            expression: r.get(1),
        })
        .collect())
}

/// Forgets a roll; true when there was one.
pub async fn forget(
    tx: &mut Tx,
    guild_id: i64,
    user_id: i64,
    name: &str,
) -> Result<bool, StorageError> {
    let done = sqlx::query(
        "DELETE FROM named_rolls WHERE guild_id = $1 AND user_id = $2 AND name_key = $3",
    )
    .bind(guild_id)
    .bind(user_id)
    .bind(key(name))
    .execute(&mut **tx)
    .await?;
    Ok(done.rows_affected() > 0)
}
