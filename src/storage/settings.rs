//! The `guild_settings` and `channel_state` tables: JSON blobs by scope/key.

use super::{StorageError, Tx};
use sqlx::Row;

/// The settings rows one [`Tx`] has read or written, so that a scope read
/// twice in an action costs one query, and the scopes an action is likely
/// to read ([`hint`]), read together with the first of them it asks for.
#[derive(Debug, Default)]
pub(crate) struct Seen {
    /// `(guild, scope)` → its JSON as the transaction sees it (`None`: no
    /// row).
    rows: std::collections::HashMap<(i64, String), Option<String>>,
    /// Scopes to read together (at most [`MAX_HINTED`]).
    hinted: Vec<(i64, String)>,
}

/// At most this many scopes are read together.
const MAX_HINTED: usize = 8;

/// Names scopes of `guild_id` that the transaction will likely read (the
/// guild's and the caller's channel's, say): the first [`get`] of any of
/// them reads all of them in one query. Costs nothing when none is read.
pub fn hint(tx: &mut Tx, guild_id: i64, scopes: &[&str]) {
    for scope in scopes {
        let key = (guild_id, (*scope).to_string());
        if tx.settings.hinted.len() < MAX_HINTED && !tx.settings.hinted.contains(&key) {
            tx.settings.hinted.push(key);
        }
    }
}

/// A guild's settings JSON for a scope (`guild`, a system name, or
/// `channel:<id>`). Read once per transaction: later reads, and reads after
/// [`put`], are answered from what the transaction already saw.
pub async fn get(tx: &mut Tx, guild_id: i64, scope: &str) -> Result<Option<String>, StorageError> {
    if let Some(known) = tx.settings.rows.get(&(guild_id, scope.to_string())) {
        return Ok(known.clone());
    }
    // This scope, and the hinted ones of the guild not read yet.
    let mut scopes = vec![scope.to_string()];
    if tx
        .settings
        .hinted
        .iter()
        .any(|(g, s)| *g == guild_id && s == scope)
    {
        for (g, s) in &tx.settings.hinted {
            if *g == guild_id
                && !scopes.contains(s)
                && !tx.settings.rows.contains_key(&(*g, s.clone()))
            {
                scopes.push(s.clone());
            }
        }
    }
    let marks: Vec<String> = (2..scopes.len() + 2).map(|i| format!("${i}")).collect();
    let sql = format!(
        "SELECT scope, settings FROM guild_settings WHERE guild_id = $1 AND scope IN ({})",
        marks.join(", ")
    );
    let mut query = sqlx::query(&sql).bind(guild_id);
    for s in &scopes {
        query = query.bind(s.as_str());
    }
    let rows = query.fetch_all(&mut **tx).await?;
    for s in &scopes {
        tx.settings.rows.insert((guild_id, s.clone()), None);
    }
    for r in rows {
        let found: String = r.try_get(0)?;
        tx.settings
            .rows
            .insert((guild_id, found), Some(r.try_get(1)?));
    }
    Ok(tx
        .settings
        .rows
        .get(&(guild_id, scope.to_string()))
        .cloned()
        .flatten())
}

/// Every scope of a guild whose name starts with `prefix` (no `%` or `_`
/// in it), with its JSON, in scope order: e.g. each channel's settings
/// (`channel:`).
pub async fn with_prefix(
    tx: &mut Tx,
    guild_id: i64,
    prefix: &str,
) -> Result<Vec<(String, String)>, StorageError> {
    let rows = sqlx::query(
        "SELECT scope, settings FROM guild_settings WHERE guild_id = $1 AND scope LIKE $2 ORDER BY scope",
    )
    .bind(guild_id)
    .bind(format!("{prefix}%"))
    .fetch_all(&mut **tx)
    .await?;
    rows.iter()
        .map(|r| Ok((r.try_get(0)?, r.try_get(1)?)))
        .collect()
}

/// Deletes a guild's settings for a scope (nothing when there are none).
pub async fn delete(tx: &mut Tx, guild_id: i64, scope: &str) -> Result<(), StorageError> {
    sqlx::query("DELETE FROM guild_settings WHERE guild_id = $1 AND scope = $2")
        .bind(guild_id)
        .bind(scope)
        .execute(&mut **tx)
        .await?;
    tx.settings.rows.insert((guild_id, scope.to_string()), None);
    Ok(())
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
    tx.settings
        .rows
        .insert((guild_id, scope.to_string()), Some(json.to_string()));
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
