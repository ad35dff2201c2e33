//! Storage: the only module that speaks SQL.
//!
//! SQLite through sqlx, in WAL mode with foreign keys on and a busy timeout;
//! the migrations in `migrations/` are compiled in and applied at start-up.
//! Discord ids are stored as `i64`. Every user action runs in one write
//! transaction ([`Db::write`]), so a crash leaves either all of it or none.
//! Write transactions go through a pool of one connection, so concurrent
//! writers queue in order inside the process instead of sleeping in
//! SQLite's busy handler (1, 2, 5 … 100 ms naps, which made the slowest
//! answers tens of milliseconds late under load); reads have their own
//! connections and run beside the writer (WAL). The writer never
//! checkpoints the write-ahead log itself: a background task does it every
//! second, so no action waits for a checkpoint's fsyncs.
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
    /// One connection: every write transaction, one at a time.
    writer: SqlitePool,
    /// Read-only views, several at once.
    reader: SqlitePool,
}

impl Db {
    /// Opens (creating if needed) the database at `url` and applies every
    /// pending migration. `max_connections` counts the writer's connection
    /// and the readers' (at least one of each).
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
        // No ping before handing out a connection: SQLite is in-process,
        // and each ping is one more round trip to its thread per action.
        let writer = SqlitePoolOptions::new()
            .max_connections(1)
            .test_before_acquire(false)
            .connect_with(options.clone().pragma("wal_autocheckpoint", "0"))
            .await?;
        sqlx::migrate!("./migrations").run(&writer).await?;
        let reader = SqlitePoolOptions::new()
            .max_connections(max_connections.saturating_sub(1).max(1))
            .test_before_acquire(false)
            .connect_with(options)
            .await?;
        tokio::spawn(checkpointer(reader.clone(), CHECKPOINT_EVERY));
        Ok(Self { writer, reader })
    }

    /// Starts a write transaction on the writer connection (waiting, in
    /// order, for the one before to finish). It takes SQLite's write lock at
    /// once (`BEGIN IMMEDIATE`), so it never fails half-way with a lock
    /// upgrade error; another process on the same file is waited for by the
    /// busy timeout.
    pub async fn write(&self) -> Result<Tx, StorageError> {
        self.writer.begin_with("BEGIN IMMEDIATE").await
    }

    /// Starts a read-only view (a deferred transaction) on a reader
    /// connection; do not write through it.
    pub async fn read(&self) -> Result<Tx, StorageError> {
        self.reader.begin().await
    }

    /// Runs SQLite's integrity check; `Ok(true)` when the file is sound.
    pub async fn integrity_ok(&self) -> Result<bool, StorageError> {
        let (result,): (String,) = sqlx::query_as("PRAGMA integrity_check")
            .fetch_one(&self.reader)
            .await?;
        Ok(result == "ok")
    }

    /// Closes every connection (checkpointing the WAL).
    pub async fn close(&self) {
        self.reader.close().await;
        self.writer.close().await;
    }
}

/// How often the write-ahead log is copied into the database file.
const CHECKPOINT_EVERY: Duration = Duration::from_secs(1);

/// Checkpoints the write-ahead log every `every` on a reader connection
/// (`PASSIVE`: it never blocks the writer or the readers), until the pool
/// closes. The writer has `wal_autocheckpoint=0`, so this is what keeps the
/// log short; when SQLite checkpointed on commit, the writer stalled for
/// the checkpoint's two fsyncs (5-9 ms) and every action queued behind it,
/// which was the pipeline benchmark's p99. Durability is unchanged in
/// kind: with `synchronous=NORMAL` commits are not synced one by one, and a
/// checkpoint syncs the log first, so it now happens every `every` rather
/// than every 1000 pages.
async fn checkpointer(pool: SqlitePool, every: Duration) {
    let mut tick = tokio::time::interval(every);
    tick.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
    loop {
        tick.tick().await;
        if pool.is_closed() {
            return;
        }
        if let Err(e) = sqlx::query("PRAGMA wal_checkpoint(PASSIVE)")
            .execute(&pool)
            .await
        {
            if pool.is_closed() {
                return;
            }
            tracing::warn!(error = %e, "WAL checkpoint failed");
        }
    }
}

/// Milliseconds since the Unix epoch, the time format of every table.
pub fn now_ms() -> i64 {
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map(|d| d.as_millis() as i64)
        .unwrap_or(0)
}
