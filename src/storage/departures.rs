//! The `guild_departures` table (migration 0090) and the deletion of a
//! departed guild's data (issue 33).
//!
//! When the bot is removed from a guild its departure is recorded
//! ([`record`]); when it comes back the record is dropped ([`cancel`]).
//! A guild whose departure is older than the grace period is [`due`], and
//! [`purge`] then deletes every row of every guild-scoped table for it,
//! the departure itself last, in the caller's transaction (one per guild).
//! [`GUILD_TABLES`] names those tables; a test checks it against every
//! `CREATE TABLE` of the migrations, so a new table cannot be forgotten.

use super::{StorageError, Tx};
use sqlx::Row;

/// Every table holding a guild's rows by a `guild_id` column, in the order
/// [`purge`] empties them (`roll_faces`, which hangs off `roll_log`, is
/// emptied first, through its log entries; `guild_departures` last).
pub const GUILD_TABLES: &[&str] = &[
    "character_history",
    "roll_log",
    "characters",
    "sessions",
    "named_rolls",
    "veracity_revealed",
    "channel_state",
    "guild_settings",
    "game_waits",
    "game_players",
    "game_gms",
    "game_channels",
    "games",
];

/// `roll_faces` rows of a guild: those of its log entries.
const FACES_OF_GUILD: &str = "log_id IN (SELECT id FROM roll_log WHERE guild_id = $1)";

/// Records that the bot left `guild_id` at `at` (ms). A departure already
/// recorded keeps its time: the first removal starts the grace period.
pub async fn record(tx: &mut Tx, guild_id: i64, at: i64) -> Result<(), StorageError> {
    sqlx::query(
        "INSERT INTO guild_departures (guild_id, left_at) VALUES ($1, $2)
         ON CONFLICT (guild_id) DO NOTHING",
    )
    .bind(guild_id)
    .bind(at)
    .execute(&mut **tx)
    .await?;
    Ok(())
}

/// Drops the departure of `guild_id` (the bot came back); true if there
/// was one.
pub async fn cancel(tx: &mut Tx, guild_id: i64) -> Result<bool, StorageError> {
    let done = sqlx::query("DELETE FROM guild_departures WHERE guild_id = $1")
        .bind(guild_id)
        .execute(&mut **tx)
        .await?;
    Ok(done.rows_affected() > 0)
}

/// When the bot left `guild_id`, if it is gone.
pub async fn left_at(tx: &mut Tx, guild_id: i64) -> Result<Option<i64>, StorageError> {
    let row = sqlx::query("SELECT left_at FROM guild_departures WHERE guild_id = $1")
        .bind(guild_id)
        .fetch_optional(&mut **tx)
        .await?;
    Ok(row.map(|r| r.get::<i64, _>(0)))
}

/// The guilds the bot left at or before `cutoff` (ms), longest gone
/// first, at most `limit`.
pub async fn due(tx: &mut Tx, cutoff: i64, limit: i64) -> Result<Vec<i64>, StorageError> {
    let rows = sqlx::query(
        "SELECT guild_id FROM guild_departures WHERE left_at <= $1
         ORDER BY left_at, guild_id LIMIT $2",
    )
    .bind(cutoff)
    .bind(limit)
    .fetch_all(&mut **tx)
    .await?;
    Ok(rows.iter().map(|r| r.get::<i64, _>(0)).collect())
}

/// What [`purge`] deleted for one guild: rows per table (no content).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Purged {
    /// The guild.
    pub guild_id: i64,
    /// Rows deleted, per table (every table, zeros included).
    pub rows: Vec<(&'static str, u64)>,
}

impl Purged {
    /// Rows deleted in all.
    pub fn total(&self) -> u64 {
        self.rows.iter().map(|(_, n)| n).sum()
    }

    /// `table=rows` for each table that had rows, for the log.
    pub fn summary(&self) -> String {
        let parts: Vec<String> = self
            .rows
            .iter()
            .filter(|(_, n)| *n > 0)
            .map(|(t, n)| format!("{t}={n}"))
            .collect();
        parts.join(" ")
    }
}

/// Deletes every row of `guild_id` from every guild-scoped table, and its
/// departure, if it is still due (it left at or before `cutoff`): `None`
/// when it is not (the bot came back meanwhile), and nothing is deleted.
/// Run it in a write transaction of the guild's own, and commit.
pub async fn purge(
    tx: &mut Tx,
    guild_id: i64,
    cutoff: i64,
) -> Result<Option<Purged>, StorageError> {
    match left_at(tx, guild_id).await? {
        Some(at) if at <= cutoff => {}
        _ => return Ok(None),
    }
    let mut rows = Vec::with_capacity(GUILD_TABLES.len() + 2);
    let faces = sqlx::query(&format!("DELETE FROM roll_faces WHERE {FACES_OF_GUILD}"))
        .bind(guild_id)
        .execute(&mut **tx)
        .await?;
    rows.push(("roll_faces", faces.rows_affected()));
    for table in GUILD_TABLES {
        let done = sqlx::query(&format!("DELETE FROM {table} WHERE guild_id = $1"))
            .bind(guild_id)
            .execute(&mut **tx)
            .await?;
        rows.push((*table, done.rows_affected()));
    }
    let gone = cancel(tx, guild_id).await?;
    rows.push(("guild_departures", u64::from(gone)));
    Ok(Some(Purged { guild_id, rows }))
}

/// How many rows each guild-scoped table holds for `guild_id`
/// (`roll_faces` through its log entries, and `guild_departures`): what a
/// [`purge`] would delete.
pub async fn held(tx: &mut Tx, guild_id: i64) -> Result<Vec<(&'static str, i64)>, StorageError> {
    let mut out = Vec::with_capacity(GUILD_TABLES.len() + 2);
    let count = |from: &str, filter: &str| format!("SELECT count(*) FROM {from} WHERE {filter}");
    let mut tables: Vec<(&'static str, String)> =
        vec![("roll_faces", count("roll_faces", FACES_OF_GUILD))];
    for table in GUILD_TABLES.iter().copied().chain(["guild_departures"]) {
        tables.push((table, count(table, "guild_id = $1")));
    }
    for (table, sql) in tables {
        let (n,): (i64,) = sqlx::query_as(&sql)
            .bind(guild_id)
            .fetch_one(&mut **tx)
            .await?;
        out.push((table, n));
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::GUILD_TABLES;

    /// Every table the migrations create is purged: [`GUILD_TABLES`], plus
    /// `roll_faces` (through its log entries) and `guild_departures`.
    #[test]
    fn every_table_of_the_migrations_is_purged() {
        let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("migrations");
        let mut created = Vec::new();
        for entry in std::fs::read_dir(&dir).unwrap() {
            let path = entry.unwrap().path();
            if path.extension().is_none_or(|e| e != "sql") {
                continue;
            }
            let text = std::fs::read_to_string(&path).unwrap().to_ascii_lowercase();
            for part in text.split("create table").skip(1) {
                let name = part
                    .trim_start()
                    .trim_start_matches("if not exists")
                    .trim_start()
                    .split(|c: char| !(c.is_ascii_alphanumeric() || c == '_'))
                    .next()
                    .unwrap_or_default()
                    .to_string();
                created.push(name);
            }
        }
        assert!(created.len() >= 10, "{created:?}");
        for table in created {
            assert!(
                GUILD_TABLES.contains(&table.as_str())
                    || table == "roll_faces"
                    || table == "guild_departures",
                "migrations create `{table}`, which a departed guild's purge leaves alone"
            );
        }
    }
}
