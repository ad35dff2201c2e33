//! The `guild_settings` and `channel_state` tables: JSON blobs by scope/key.

use super::{StorageError, Tx};
use sqlx::Row;

/// A guild's settings JSON for a scope (`guild`, a system name, or
/// `channel:<id>`).
pub async fn get(tx: &mut Tx, guild_id: i64, scope: &str) -> Result<Option<String>, StorageError> {
    let row = sqlx::query("SELECT settings FROM guild_settings WHERE guild_id = $1 AND scope = $2")
        .bind(guild_id)
        .bind(scope)
        .fetch_optional(&mut **tx)
        .await?;
    row.map(|r| r.try_get(0)).transpose()
}

/// Stores a guild's settings JSON for a scope.
pub async fn put(
    tx: &mut Tx,
    guild_id: i64,
    scope: &str,
    json: &str,
    now: i64,
) -> Result<(), StorageError> {
    sqlx::query(
        "INSERT INTO guild_settings (guild_id, scope, settings, updated_at) VALUES ($1, $2, $3, $4)
         ON CONFLICT (guild_id, scope) DO UPDATE SET settings = excluded.settings, updated_at = excluded.updated_at",
    )
    .bind(guild_id)
    .bind(scope)
    .bind(json)
    .bind(now)
    .execute(&mut **tx)
    .await?;
    Ok(())
}

/// A channel's state value for a key.
pub async fn channel_get(
    tx: &mut Tx,
    guild_id: i64,
    channel_id: i64,
    key: &str,
) -> Result<Option<String>, StorageError> {
    let row = sqlx::query(
        "SELECT value FROM channel_state WHERE guild_id = $1 AND channel_id = $2 AND key = $3",
    )
    .bind(guild_id)
    .bind(channel_id)
    .bind(key)
    .fetch_optional(&mut **tx)
    .await?;
    row.map(|r| r.try_get(0)).transpose()
}

/// Stores a channel's state value for a key.
pub async fn channel_put(
    tx: &mut Tx,
    guild_id: i64,
    channel_id: i64,
    key: &str,
    value: &str,
    now: i64,
) -> Result<(), StorageError> {
    sqlx::query(
        "INSERT INTO channel_state (guild_id, channel_id, key, value, updated_at) VALUES ($1, $2, $3, $4, $5)
         ON CONFLICT (guild_id, channel_id, key) DO UPDATE SET value = excluded.value, updated_at = excluded.updated_at",
    )
    .bind(guild_id)
    .bind(channel_id)
    .bind(key)
    .bind(value)
    .bind(now)
    .execute(&mut **tx)
    .await?;
    Ok(())
}
