//! The `veracity_revealed` table (migration 0080): the Secrets revealed in a
//! guild, so that a revealed Secret is "just news" for everyone (Veracity,
//! VR-5, issue 14). Keys are the Secrets' normalised texts.

use super::{StorageError, Tx};
use sqlx::Row;

/// Which of these keys are already revealed in the guild (in the given order).
pub async fn revealed(
    tx: &mut Tx,
    guild_id: i64,
    keys: &[String],
) -> Result<Vec<String>, StorageError> {
    let mut out = Vec::new();
    for k in keys {
        let row = sqlx::query(
            "SELECT secret_key FROM veracity_revealed WHERE guild_id = $1 AND secret_key = $2",
        )
        .bind(guild_id)
        .bind(k)
        .fetch_optional(&mut **tx)
        .await?;
        if let Some(r) = row {
            out.push(r.get::<String, _>(0));
        }
    }
    Ok(out)
}

/// One revealed Secret.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Revealed<'a> {
    /// The normalised text (the key).
    pub key: &'a str,
    /// The text as revealed.
    pub secret: &'a str,
    /// The revealing character's row id.
    pub character_id: i64,
    /// The member who revealed it.
    pub revealed_by: i64,
    /// The NPC it was revealed to.
    pub target: &'a str,
}

/// Records a revealed Secret (the first revelation is kept).
pub async fn record(tx: &mut Tx, guild_id: i64, r: &Revealed<'_>) -> Result<(), StorageError> {
    sqlx::query(
        "INSERT INTO veracity_revealed
           (guild_id, secret_key, secret, character_id, revealed_by, target, revealed_at)
         VALUES ($1, $2, $3, $4, $5, $6, $7)
         ON CONFLICT (guild_id, secret_key) DO NOTHING",
    )
    .bind(guild_id)
    .bind(r.key)
    .bind(r.secret)
    .bind(r.character_id)
    .bind(r.revealed_by)
    .bind(r.target)
    .bind(super::now_ms())
    .execute(&mut **tx)
    .await?;
    Ok(())
}
