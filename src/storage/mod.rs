//! Storage: the only module that speaks SQL.
//!
//! SQLite through sqlx, in WAL mode with foreign keys on and a busy timeout;
//! the migrations in `migrations/` are compiled in and applied at start-up.
//! Discord ids are stored as `i64`. Every user action runs in one write
//! transaction ([`Db::write`]), so a crash leaves either all of it or none.
//! The SQL is kept portable (no SQLite-only syntax in queries) so a
//! PostgreSQL backend can follow.
//!
//! Module map:
//! - [`sessions`]: the state behind buttons.
//! - [`log`]: the roll log.
//! - [`characters`]: every system's character sheets.
//! - [`settings`]: guild settings and per-channel state.
//! - [`faces`]: every die face thrown, for the fairness statistics.
//! - [`history`]: reading the log for `/history` and its CSV export.

pub mod characters;
pub mod faces;
pub mod history;
pub mod log;
pub mod sessions;
pub mod settings;

use sqlx::sqlite::{SqliteConnectOptions, SqliteJournalMode, SqlitePoolOptions, SqliteSynchronous};
use sqlx::{Sqlite, SqlitePool, Transaction};
use std::str::FromStr;
use std::time::Duration;

/// A write transaction; commit it or it rolls back when dropped.
pub type Tx = Transaction<'static, Sqlite>;

/// A storage failure (never the user's fault).
pub type StorageError = sqlx::Error;

/// The database handle (cheap to clone).
#[derive(Clone, Debug)]
pub struct Db {
    pool: SqlitePool,
}

impl Db {
    /// Opens (creating if needed) the database at `url` and applies every
    /// pending migration.
    pub async fn open(url: &str, max_connections: u32) -> Result<Self, StorageError> {
        let options = SqliteConnectOptions::from_str(url)?
            .create_if_missing(true)
            .journal_mode(SqliteJournalMode::Wal)
            .synchronous(SqliteSynchronous::Normal)
            .foreign_keys(true)
            .busy_timeout(Duration::from_secs(10));
        if let Some(dir) = options.get_filename().parent() {
            if !dir.as_os_str().is_empty() {
                std::fs::create_dir_all(dir).map_err(sqlx::Error::Io)?;
            }
        }
        let pool = SqlitePoolOptions::new()
            .max_connections(max_connections.max(1))
            .connect_with(options)
            .await?;
        sqlx::migrate!("./migrations").run(&pool).await?;
        Ok(Self { pool })
    }

    /// Starts a write transaction. On SQLite it takes the write lock at once
    /// (`BEGIN IMMEDIATE`), so concurrent actions queue instead of failing
    /// half-way with a lock upgrade error.
    pub async fn write(&self) -> Result<Tx, StorageError> {
        self.pool.begin_with("BEGIN IMMEDIATE").await
    }

    /// Starts a read-only view (a deferred transaction).
    pub async fn read(&self) -> Result<Tx, StorageError> {
        self.pool.begin().await
    }

    /// Runs SQLite's integrity check; `Ok(true)` when the file is sound.
    pub async fn integrity_ok(&self) -> Result<bool, StorageError> {
        let (result,): (String,) = sqlx::query_as("PRAGMA integrity_check")
            .fetch_one(&self.pool)
            .await?;
        Ok(result == "ok")
    }

    /// Closes every connection (checkpointing the WAL).
    pub async fn close(&self) {
        self.pool.close().await;
    }
}

/// Milliseconds since the Unix epoch, the time format of every table.
pub fn now_ms() -> i64 {
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map(|d| d.as_millis() as i64)
        .unwrap_or(0)
}
