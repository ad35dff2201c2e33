//! Storage: the only module that speaks SQL.
//!
//! Two engines behind one API, through sqlx's `Any` driver: SQLite (the
//! default, one process, one file) and PostgreSQL (`DATABASE_URL=
//! postgres://…`, several processes sharing one server). The SQL is
//! portable (`$1` placeholders, `ON CONFLICT`, `RETURNING`, 64-bit
//! integers read as `i64`, flags as integers); each engine has its own
//! migrations with the same version numbers (`migrations/` for SQLite,
//! `migrations/postgres/`), compiled in and applied at start-up. Discord
//! ids are stored as `i64`. Every user action runs in one write
//! transaction ([`Db::write_in`]), so a crash leaves either all of it or
//! none.
//!
//! SQLite runs in WAL mode with foreign keys on and a busy timeout.
//! Write transactions go through a pool of one connection, so concurrent
//! writers queue in order inside the process instead of sleeping in
//! SQLite's busy handler (1, 2, 5 … 100 ms naps, which made the slowest
//! answers tens of milliseconds late under load); reads have their own
//! connections and run beside the writer (WAL). The writer never
//! checkpoints the write-ahead log itself: a background task does it every
//! second, so no action waits for a checkpoint's fsyncs, and it keeps the
//! log's file bounded on disk ([`checkpointer`]).
//!
//! PostgreSQL has a pool of writers: the write transactions of one guild
//! take turns by a transaction-scoped advisory lock keyed by the guild id,
//! across every process on the server, so racing clicks apply exactly once
//! there too; other guilds' writers run beside them.
//!
//! Module map:
//! - [`sessions`]: the state behind buttons.
//! - [`log`]: the roll log.
//! - [`characters`]: every system's character sheets.
//! - [`settings`]: guild settings and per-channel state.
//! - [`faces`]: every die face thrown, for the fairness statistics.
//! - [`history`]: reading the log for `/history` and its CSV export.
//! - [`departures`]: guilds the bot was removed from, and the deletion of
//!   their data after the grace period.
//! - [`games`]: the games of a server, their channels, game masters and
//!   players (issue 32).
//! - [`erase`]: a member's data: all of it (`/me export`), and its erasure.

pub mod character_history;
pub mod characters;
pub mod departures;
pub mod erase;
pub mod faces;
pub mod games;
pub mod history;
pub mod log;
pub mod named_rolls;
pub mod scratch;
pub mod sessions;
pub mod settings;
pub mod veracity;
pub mod waits;

#[cfg(test)]
mod backend_tests;

use sqlx::any::{AnyConnectOptions, AnyPoolOptions};
use sqlx::sqlite::SqliteConnectOptions;
use sqlx::{Any, AnyConnection, AnyPool, Executor, Transaction};
use std::str::FromStr;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Arc;
use std::time::Duration;

/// A transaction (write or read); commit it or it rolls back when dropped.
/// It runs on sqlx's `Any` driver, so the same portable SQL serves SQLite
/// and PostgreSQL: `&mut **tx` is the connection to run statements on.
/// Beside it, the notes the character history keeps for the transaction
/// ([`character_history::Notes`]), in memory: dropped with it.
///
/// [`Db::glance`] and [`Db::write_one`] give a `Tx` that is no transaction
/// at all: each statement commits by itself (one round trip to the
/// database where `BEGIN`, the statement and `COMMIT` take three). For one
/// statement, or reads that need no common snapshot.
pub struct Tx {
    inner: Inner,
    notes: character_history::Notes,
    settings: settings::Seen,
    /// Which games hold which channels, as read in it.
    games: games::Seen,
    /// The database's count of round trips ([`Db::round_trips`]).
    trips: Arc<AtomicU64>,
    /// The time of the action it serves, by the application's clock
    /// ([`Tx::set_now`]); the wall clock when unset.
    now: Option<i64>,
}

/// What a [`Tx`] runs on.
enum Inner {
    /// A transaction.
    Transaction(Transaction<'static, Any>),
    /// A bare connection: every statement its own transaction.
    Single(sqlx::pool::PoolConnection<Any>),
}

impl Tx {
    /// A `Tx` on `inner`, counting its round trips in `trips` (its
    /// `BEGIN` among them when `inner` is a transaction).
    fn new(inner: Inner, trips: &Arc<AtomicU64>) -> Self {
        if matches!(inner, Inner::Transaction(_)) {
            trips.fetch_add(1, Ordering::Relaxed);
        }
        Self {
            inner,
            notes: character_history::Notes::default(),
            settings: settings::Seen::default(),
            games: games::Seen::default(),
            trips: trips.clone(),
            now: None,
        }
    }

    /// Sets the time (ms since the epoch) of the action this transaction
    /// serves, read from the application's clock, which tests move by
    /// days (a session's expiry is measured on it).
    pub fn set_now(&mut self, at_ms: i64) {
        self.now = Some(at_ms);
    }

    /// The time of the action ([`Tx::set_now`]), else the wall clock
    /// ([`now_ms`]).
    pub fn now_ms(&self) -> i64 {
        self.now.unwrap_or_else(now_ms)
    }

    /// Commits the transaction (nothing to do for [`Db::glance`] and
    /// [`Db::write_one`]: their statements committed as they ran).
    pub async fn commit(self) -> Result<(), StorageError> {
        match self.inner {
            Inner::Transaction(t) => {
                self.trips.fetch_add(1, Ordering::Relaxed);
                let done = t.commit().await;
                mark("db done");
                done
            }
            Inner::Single(_) => Ok(()),
        }
    }

    /// Rolls the transaction back (dropping it does the same, later).
    pub async fn rollback(self) -> Result<(), StorageError> {
        match self.inner {
            Inner::Transaction(t) => {
                self.trips.fetch_add(1, Ordering::Relaxed);
                t.rollback().await
            }
            Inner::Single(_) => Ok(()),
        }
    }
}

impl std::ops::Deref for Tx {
    type Target = AnyConnection;
    fn deref(&self) -> &AnyConnection {
        match &self.inner {
            Inner::Transaction(t) => t,
            Inner::Single(c) => c,
        }
    }
}

/// Every statement runs on `&mut **tx`: each such borrow counts as one
/// round trip ([`Db::round_trips`]).
impl std::ops::DerefMut for Tx {
    fn deref_mut(&mut self) -> &mut AnyConnection {
        self.trips.fetch_add(1, Ordering::Relaxed);
        match &mut self.inner {
            Inner::Transaction(t) => t,
            Inner::Single(c) => c,
        }
    }
}

impl std::fmt::Debug for Tx {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Tx").field("notes", &self.notes).finish()
    }
}

/// A storage failure (never the user's fault).
pub type StorageError = sqlx::Error;

/// Which database engine a [`Db`] talks to.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Backend {
    /// One file, one process (the default): `sqlite://…`.
    Sqlite,
    /// A server shared by several processes: `postgres://…`.
    Postgres,
}

impl Backend {
    /// The backend a database URL names: `postgres://` and `postgresql://`
    /// are PostgreSQL, anything else SQLite.
    pub fn of_url(url: &str) -> Backend {
        let lower = url.trim_start().to_ascii_lowercase();
        if lower.starts_with("postgres://") || lower.starts_with("postgresql://") {
            Backend::Postgres
        } else {
            Backend::Sqlite
        }
    }
}

/// The database handle (cheap to clone).
#[derive(Clone, Debug)]
pub struct Db {
    /// SQLite: one connection, every write transaction one at a time.
    /// PostgreSQL: several; writers of one guild take turns by an
    /// advisory lock ([`Db::write_in`]).
    writer: AnyPool,
    /// Read-only views, several at once.
    reader: AnyPool,
    /// Which engine.
    backend: Backend,
    /// Round trips made through a [`Tx`] ([`Db::round_trips`]).
    trips: Arc<AtomicU64>,
}

/// Registers sqlx's drivers for the `Any` pools (once per process).
fn install_drivers() {
    static ONCE: std::sync::Once = std::sync::Once::new();
    ONCE.call_once(sqlx::any::install_default_drivers);
}

/// The advisory-lock key every PostgreSQL write transaction holds shared
/// and [`Db::write`] holds alone: no guild id (a Discord snowflake, or 0
/// outside a guild) is negative.
const ALL_GUILDS: i64 = i64::MIN;

impl Db {
    /// Opens the database at `url` and applies every pending migration:
    /// `postgres://…` is a PostgreSQL server (see [`Backend::of_url`]),
    /// anything else an SQLite file, created if needed. `max_connections`
    /// counts SQLite's writer connection and its readers (at least one of
    /// each); on PostgreSQL it is the size of the writers' pool and of the
    /// readers' pool each.
    pub async fn open(url: &str, max_connections: u32) -> Result<Self, StorageError> {
        install_drivers();
        match Backend::of_url(url) {
            Backend::Sqlite => {
                Self::open_sqlite(url, max_connections, Some(CHECKPOINT_EVERY)).await
            }
            Backend::Postgres => Self::open_postgres(url, max_connections).await,
        }
    }

    /// SQLite, with the background [`checkpointer`] every `checkpoint_every`
    /// (`None`: none, for tests that checkpoint by hand).
    async fn open_sqlite(
        url: &str,
        max_connections: u32,
        checkpoint_every: Option<Duration>,
    ) -> Result<Self, StorageError> {
        let typed = SqliteConnectOptions::from_str(url)?;
        if let Some(dir) = typed.get_filename().parent() {
            if !dir.as_os_str().is_empty() {
                std::fs::create_dir_all(dir).map_err(sqlx::Error::Io)?;
            }
        }
        let options = AnyConnectOptions::from_str(&sqlite_create_url(url))?;
        usable(typed.get_filename(), &options).await?;
        // No ping before handing out a connection: SQLite is in-process,
        // and each ping is one more round trip to its thread per action.
        let writer = AnyPoolOptions::new()
            .max_connections(1)
            .test_before_acquire(false)
            .after_release(|conn, _| Box::pin(no_transaction_left(conn)))
            .after_connect(|conn, _| Box::pin(sqlite_setup(conn, true)))
            .connect_with(options.clone())
            .await?;
        sqlx::migrate!("./migrations").run(&writer).await?;
        let reader = AnyPoolOptions::new()
            .max_connections(max_connections.saturating_sub(1).max(1))
            .test_before_acquire(false)
            .after_release(|conn, _| Box::pin(no_transaction_left(conn)))
            .after_connect(|conn, _| Box::pin(sqlite_setup(conn, false)))
            .connect_with(options)
            .await?;
        if let Some(every) = checkpoint_every {
            tokio::spawn(checkpointer(reader.clone(), writer.clone(), every));
        }
        Ok(Self {
            writer,
            reader,
            backend: Backend::Sqlite,
            trips: Arc::default(),
        })
    }

    async fn open_postgres(url: &str, max_connections: u32) -> Result<Self, StorageError> {
        let options = AnyConnectOptions::from_str(url)?;
        let pool = |n: u32| {
            AnyPoolOptions::new()
                .max_connections(n.max(2))
                .after_release(|conn, _| Box::pin(no_transaction_left(conn)))
        };
        let writer = pool(max_connections).connect_with(options.clone()).await?;
        // Several processes may start at once: sqlx takes an advisory lock
        // around the migrations on PostgreSQL.
        sqlx::migrate!("./migrations/postgres").run(&writer).await?;
        let reader = pool(max_connections).connect_with(options).await?;
        Ok(Self {
            writer,
            reader,
            backend: Backend::Postgres,
            trips: Arc::default(),
        })
    }

    /// How many round trips to the database went through a [`Tx`] of this
    /// handle (and its clones) so far: each `BEGIN`, statement, `COMMIT`
    /// and `ROLLBACK`. For tests and the benchmark, which count what an
    /// interaction costs; the background checkpointer is not counted.
    pub fn round_trips(&self) -> u64 {
        self.trips.load(Ordering::Relaxed)
    }

    /// Which engine this database is.
    pub fn backend(&self) -> Backend {
        self.backend
    }

    /// Copies the whole write-ahead log into the database file and
    /// truncates it (waiting for the writer to be free, and for at most
    /// [`TRUNCATE_WAIT`] for readers still in the log). `Ok(true)` when the
    /// log was emptied. Used at shutdown and by the background checkpointer.
    /// PostgreSQL has no such log to empty: `Ok(true)`.
    pub async fn checkpoint_truncate(&self) -> Result<bool, StorageError> {
        match self.backend {
            Backend::Sqlite => on_writer(&self.writer, Checkpoint::Truncate, TRUNCATE_WAIT).await,
            Backend::Postgres => Ok(true),
        }
    }

    /// Starts a write transaction that excludes every other writer of the
    /// database (the storage layer's tests, maintenance).
    ///
    /// SQLite: on the writer connection (waiting, in order, for the one
    /// before to finish). It takes SQLite's write lock at once (`BEGIN
    /// IMMEDIATE`), so it never fails half-way with a lock upgrade error;
    /// another process on the same file is waited for by the busy timeout.
    /// PostgreSQL: it holds the advisory lock that every write transaction
    /// of every process holds shared, so it waits for them all and they
    /// wait for it.
    pub async fn write(&self) -> Result<Tx, StorageError> {
        mark("db wait");
        match self.backend {
            Backend::Sqlite => self.write_sqlite().await,
            Backend::Postgres => {
                let tx = self
                    .writer
                    .begin_with(format!("BEGIN; SELECT pg_advisory_xact_lock({ALL_GUILDS})"))
                    .await?;
                mark("db begun");
                Ok(Tx::new(Inner::Transaction(tx), &self.trips))
            }
        }
    }

    /// Starts a write transaction for an action in one guild (`0` outside a
    /// guild): the way `app::Act` begins.
    ///
    /// SQLite: exactly [`Db::write`] (one writer at a time anyway).
    /// PostgreSQL: the transaction first takes a transaction-scoped
    /// advisory lock keyed by the guild id (and the all-guilds key shared),
    /// so the writers of one guild take turns across every process sharing
    /// the server, as on SQLite, while other guilds' writers run beside
    /// them. Every read after the lock (READ COMMITTED takes a fresh
    /// snapshot per statement) sees what the previous writer of the guild
    /// committed, so a read-check-write of a session or a sheet applies
    /// exactly once however many processes race.
    pub async fn write_in(&self, guild_id: i64) -> Result<Tx, StorageError> {
        mark("db wait");
        match self.backend {
            Backend::Sqlite => self.write_sqlite().await,
            Backend::Postgres => {
                let tx = self
                    .writer
                    .begin_with(format!(
                        "BEGIN; SELECT pg_advisory_xact_lock_shared({ALL_GUILDS}), pg_advisory_xact_lock({guild_id})"
                    ))
                    .await?;
                mark("db begun");
                Ok(Tx::new(Inner::Transaction(tx), &self.trips))
            }
        }
    }

    async fn write_sqlite(&self) -> Result<Tx, StorageError> {
        let tx = self.writer.begin_with("BEGIN IMMEDIATE").await?;
        mark("db begun");
        Ok(Tx::new(Inner::Transaction(tx), &self.trips))
    }

    /// Starts a read-only view (a deferred transaction) on a reader
    /// connection; do not write through it.
    pub async fn read(&self) -> Result<Tx, StorageError> {
        Ok(Tx::new(
            Inner::Transaction(self.reader.begin().await?),
            &self.trips,
        ))
    }

    /// A read-only connection whose statements each see the database as it
    /// is when they run (no common snapshot): for an answer's one or two
    /// unrelated lookups, saving `BEGIN` and `ROLLBACK`. Do not write
    /// through it.
    pub async fn glance(&self) -> Result<Tx, StorageError> {
        Ok(Tx::new(
            Inner::Single(self.reader.acquire().await?),
            &self.trips,
        ))
    }

    /// The writer connection for one write statement that commits by
    /// itself, with no transaction around it (one round trip instead of
    /// three). Only for a statement whose effect stands alone: it does not
    /// take the guild's turn among PostgreSQL writers ([`Db::write_in`]),
    /// so it must not act on something read before.
    pub async fn write_one(&self) -> Result<Tx, StorageError> {
        Ok(Tx::new(
            Inner::Single(self.writer.acquire().await?),
            &self.trips,
        ))
    }

    /// Runs SQLite's integrity check; `Ok(true)` when the file is sound.
    /// On PostgreSQL (which checks its own pages) it asks the server to
    /// answer.
    pub async fn integrity_ok(&self) -> Result<bool, StorageError> {
        let sql = match self.backend {
            Backend::Sqlite => "PRAGMA integrity_check",
            Backend::Postgres => "SELECT 'ok'",
        };
        let (result,): (String,) = sqlx::query_as(sql).fetch_one(&self.reader).await?;
        Ok(result == "ok")
    }

    /// Whether [`Db::close`] was called: background work stops then.
    pub fn is_closed(&self) -> bool {
        self.writer.is_closed()
    }

    /// Closes every connection (checkpointing the WAL).
    pub async fn close(&self) {
        self.reader.close().await;
        self.writer.close().await;
    }
}

/// Whether a connection given back to its pool may serve again: not while
/// it still counts a transaction as open, which it would begin every later
/// transaction inside of (sqlx refuses: "attempted to call begin_with at
/// non-zero transaction depth"), so it is closed and the pool opens a
/// fresh one when next asked.
///
/// This happens when SQLite rolls a transaction back by itself: a
/// `COMMIT` or a write that fails with `SQLITE_FULL` (a full disk) or an
/// I/O error ends the transaction inside SQLite, the rollback of the
/// dropped transaction then fails ("no transaction is active"), and sqlx
/// keeps counting it. On the single writer connection, every write after
/// one full disk failed until a restart.
///
/// A dropped transaction's rollback is queued on the connection's worker,
/// so one round trip (a ping) lets it run before the count is trusted.
async fn no_transaction_left(conn: &mut AnyConnection) -> Result<bool, StorageError> {
    use sqlx::Connection;
    if !conn.is_in_transaction() {
        return Ok(true);
    }
    conn.ping().await?;
    if conn.is_in_transaction() {
        tracing::warn!("a database connection was left inside a failed transaction; replacing it");
        return Ok(false);
    }
    Ok(true)
}

/// Rewrites SQLite's `user_version` (which Kismet does not use) with its
/// own value, in the caller's write transaction: a write that changes
/// nothing yet needs the disk (a page appended to the write-ahead log),
/// so a full disk or a read-only file fails it.
async fn rewrite_user_version(conn: &mut AnyConnection) -> Result<(), StorageError> {
    let (version,): (i64,) = sqlx::query_as("PRAGMA user_version")
        .fetch_one(&mut *conn)
        .await?;
    sqlx::query(&format!("PRAGMA user_version = {version}"))
        .execute(&mut *conn)
        .await?;
    Ok(())
}

/// Checks, on one connection of its own, that the SQLite file can serve:
/// it opens, its header and schema read (a garbage or truncated file fails
/// here), and it takes a write (a read-only file, folder or disk, or a full
/// disk, fails here). The pools would instead retry a connection that
/// fails its setup until their 30 s timeout and then say only "pool timed
/// out"; and a read-only file would open and fail every action later. The
/// error names the file, what failed and why ([`unusable`]).
async fn usable(file: &std::path::Path, options: &AnyConnectOptions) -> Result<(), StorageError> {
    use sqlx::{ConnectOptions, Connection};
    let mut conn = options
        .connect()
        .await
        .map_err(|e| unusable(file, "cannot be opened", e))?;
    let checked = async {
        sqlite_setup(&mut conn, true)
            .await
            .map_err(|e| unusable(file, "cannot be opened", e))?;
        sqlx::query("SELECT count(*) FROM sqlite_master")
            .execute(&mut conn)
            .await
            .map_err(|e| unusable(file, "cannot be read", e))?;
        let write = async {
            let mut tx = conn.begin_with("BEGIN IMMEDIATE").await?;
            rewrite_user_version(&mut tx).await?;
            tx.commit().await
        };
        write
            .await
            .map_err(|e| unusable(file, "cannot take a write", e))
    }
    .await;
    let _ = conn.close().await;
    checked
}

/// The error of an SQLite file that cannot serve ([`usable`]): the file,
/// what it cannot do and why. SQLite says only "unable to open database
/// file" when the file or its folder cannot be written (the write-ahead
/// log lives beside the file), so the file and the folder are tried too.
fn unusable(file: &std::path::Path, what: &str, cause: StorageError) -> StorageError {
    let mut cause = match &cause {
        sqlx::Error::Database(e) => e.message().to_string(),
        other => other.to_string(),
    };
    if let Err(e) = std::fs::OpenOptions::new().append(true).open(file) {
        if e.kind() != std::io::ErrorKind::NotFound {
            cause.push_str(&format!(" (the file: {e})"));
        }
    } else if let Some(dir) = file.parent() {
        let probe = dir.join(format!(".kismet-probe-{}", std::process::id()));
        match std::fs::File::create(&probe) {
            Ok(_) => {
                let _ = std::fs::remove_file(&probe);
            }
            Err(e) => cause.push_str(&format!(" (its folder: {e})")),
        }
    }
    sqlx::Error::InvalidArgument(format!(
        "the database file {} {what}: {cause}",
        file.display()
    ))
}

/// The SQLite URL with `mode=rwc` (create the file if missing) unless it
/// names a mode itself.
fn sqlite_create_url(url: &str) -> String {
    if url.contains("mode=") {
        url.to_string()
    } else if url.contains('?') {
        format!("{url}&mode=rwc")
    } else {
        format!("{url}?mode=rwc")
    }
}

/// Every SQLite connection: write-ahead log, `synchronous=NORMAL`, foreign
/// keys, the busy timeout; the writer also never checkpoints by itself
/// (the [`checkpointer`] does) and cuts the log's file back to
/// [`JOURNAL_SIZE_LIMIT`] when it restarts.
async fn sqlite_setup(conn: &mut AnyConnection, writer: bool) -> Result<(), StorageError> {
    let mut pragmas = vec![
        "PRAGMA journal_mode = WAL".to_string(),
        "PRAGMA synchronous = NORMAL".to_string(),
        "PRAGMA foreign_keys = ON".to_string(),
        format!("PRAGMA busy_timeout = {}", BUSY_TIMEOUT.as_millis()),
    ];
    if writer {
        pragmas.push("PRAGMA wal_autocheckpoint = 0".into());
        pragmas.push(format!("PRAGMA journal_size_limit = {JOURNAL_SIZE_LIMIT}"));
    }
    for p in pragmas {
        conn.execute(p.as_str()).await?;
    }
    Ok(())
}

/// How often the write-ahead log is copied into the database file.
const CHECKPOINT_EVERY: Duration = Duration::from_secs(1);

/// The size (bytes) SQLite cuts the write-ahead log's file back to when a
/// write starts the log again (SQLite's `journal_size_limit`). Under load
/// the log restarts every [`RESTART_AFTER_PAGES`] and the file is reused,
/// not cut: cutting a file of tens of megabytes held the writer 26–45 ms
/// (issue 30). The file is emptied when the database is idle
/// ([`Checkpoint::Truncate`]).
const JOURNAL_SIZE_LIMIT: i64 = 64 * 1024 * 1024;

/// A log longer than this many pages (32 MiB of 4 KiB pages) after a
/// passive pass is started again by the checkpointer while writes go on
/// ([`Checkpoint::Restart`]): at a steady 200 `/roll`s a second, every
/// four seconds or so.
const RESTART_AFTER_PAGES: i64 = 8_192;

/// What the [`checkpointer`] does on the writer after a passive pass.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Checkpoint {
    /// Nothing: the passive passes keep up.
    Nothing,
    /// `RESTART`: copy what the passive pass left (the few pages written
    /// while it ran) and let the next write start the log from its
    /// beginning; the file keeps its size, to be written over.
    Restart,
    /// `TRUNCATE`: the database was idle for a tick; nothing is left to
    /// copy or sync, and the file is cut to nothing.
    Truncate,
}

/// What the [`checkpointer`] does after a passive pass that found `log`
/// pages in the log and had `copied` of them copied, the pass before
/// having found `last_log`: truncate when the database was idle for a
/// tick (everything copied, and the log just as long: nothing was
/// written, as a write would have lengthened it or restarted it shorter),
/// restart when the log has grown past [`RESTART_AFTER_PAGES`].
fn checkpoint_after(log: i64, copied: i64, last_log: i64) -> Checkpoint {
    if log > 0 && copied == log && log == last_log {
        Checkpoint::Truncate
    } else if log > RESTART_AFTER_PAGES {
        Checkpoint::Restart
    } else {
        Checkpoint::Nothing
    }
}

/// How long the truncating checkpoint at shutdown waits for readers still
/// in the log (it holds the writer meanwhile). The background checkpointer
/// never waits for them (see [`checkpointer`]).
pub const TRUNCATE_WAIT: Duration = Duration::from_millis(100);

/// Checkpoints the write-ahead log every `every`, until the pools close.
///
/// First `PASSIVE`, on a reader connection: it copies what it can without
/// blocking the writer or the readers. The writer has
/// `wal_autocheckpoint=0`, so this is what keeps the log short; when SQLite
/// checkpointed on commit, the writer stalled for the checkpoint's two
/// fsyncs (5-9 ms) and every action queued behind it, which was the
/// pipeline benchmark's p99. Durability is unchanged in kind: with
/// `synchronous=NORMAL` commits are not synced one by one, and a checkpoint
/// syncs the log first, so it now happens every `every` rather than every
/// 1000 pages.
///
/// A passive checkpoint never shortens the log, and under sustained writes
/// SQLite never gets to start it again by itself (a write always lands
/// between the checkpoint and the restart). So the checkpointer then takes
/// its turn on the writer connection (queued like any write transaction,
/// so no writer sleeps in SQLite's busy handler), in two cases only
/// ([`checkpoint_after`]): when the database has been idle since the last
/// tick it runs `TRUNCATE` (nothing to copy, no sync, the file is cut to
/// zero); when the log has grown past [`RESTART_AFTER_PAGES`] under
/// sustained writes it runs `RESTART`, which copies only the pages written
/// since the passive pass and leaves the file's size alone. Issue 30
/// measured the alternatives at 200 `/roll`s a second: a `TRUNCATE` of the
/// 64 MiB log held the writer 26–45 ms, and one at 8 MiB every second held
/// it 6–12 ms each time; a `RESTART` holds it 2–3 ms. Neither waits for
/// readers still in the log: under load there always is one, and waiting
/// for them in SQLite's busy handler (naps of 1, 2, 5, 10 … ms) while
/// holding the writer held up every write queued behind it. When a reader
/// is in, every page is still copied, so the next write transaction finds
/// the log fully copied and starts it from the beginning itself.
async fn checkpointer(reader: AnyPool, writer: AnyPool, every: Duration) {
    let mut tick = tokio::time::interval(every);
    tick.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
    let mut last_log = 0;
    loop {
        tick.tick().await;
        if reader.is_closed() || writer.is_closed() {
            return;
        }
        let passive: Result<(i64, i64, i64), _> = sqlx::query_as("PRAGMA wal_checkpoint(PASSIVE)")
            .fetch_one(&reader)
            .await;
        let (log, copied) = match passive {
            Ok((_, log, copied)) => (log, copied),
            Err(e) => {
                if reader.is_closed() {
                    return;
                }
                tracing::warn!(error = %e, "WAL checkpoint failed");
                continue;
            }
        };
        let mode = checkpoint_after(log, copied, last_log);
        last_log = log;
        if mode == Checkpoint::Nothing {
            continue;
        }
        mark("checkpoint");
        let done = on_writer(&writer, mode, Duration::ZERO).await;
        mark("checkpoint done");
        match done {
            Ok(_) => {}
            Err(_) if writer.is_closed() => return,
            Err(e) => tracing::warn!(error = %e, ?mode, "WAL checkpoint on the writer failed"),
        }
    }
}

/// Where [`mark`] goes: the pipeline benchmark sets it (builds with the
/// fake Discord only; production has no listener and no cost).
#[cfg(feature = "fake")]
pub static MARK_SINK: std::sync::OnceLock<fn(&'static str)> = std::sync::OnceLock::new();

/// Marks a moment of the database's work for the pipeline benchmark
/// ([`MARK_SINK`], which tells the interactions apart by their tokio task):
/// `db wait` (a write transaction asked for), `db begun` (it holds the
/// writer), `db done` (committed), `checkpoint` and `checkpoint done` (the
/// background truncation holding the writer). Does nothing otherwise.
fn mark(what: &'static str) {
    #[cfg(feature = "fake")]
    if let Some(sink) = MARK_SINK.get() {
        sink(what);
    }
    #[cfg(not(feature = "fake"))]
    let _ = what;
}

/// `PRAGMA wal_checkpoint(TRUNCATE)` or `(RESTART)` on the writer
/// connection, waiting at most `wait` for readers; `Ok(true)` when the
/// log was emptied (or started again).
async fn on_writer(
    writer: &AnyPool,
    mode: Checkpoint,
    wait: Duration,
) -> Result<bool, StorageError> {
    let pragma = match mode {
        Checkpoint::Nothing => return Ok(true),
        Checkpoint::Restart => "PRAGMA wal_checkpoint(RESTART)",
        Checkpoint::Truncate => "PRAGMA wal_checkpoint(TRUNCATE)",
    };
    let mut conn = writer.acquire().await?;
    let wait = wait.as_millis().to_string();
    sqlx::query(&format!("PRAGMA busy_timeout = {wait}"))
        .execute(&mut *conn)
        .await?;
    let result: Result<(i64, i64, i64), _> = sqlx::query_as(pragma).fetch_one(&mut *conn).await;
    let restored = sqlx::query(&format!(
        "PRAGMA busy_timeout = {}",
        BUSY_TIMEOUT.as_millis()
    ))
    .execute(&mut *conn)
    .await;
    let (busy, _, _) = result?;
    restored?;
    Ok(busy == 0)
}

/// How long a writer from another process is waited for.
const BUSY_TIMEOUT: Duration = Duration::from_secs(10);

/// Whether the database server at `url` answers: one connection, one
/// trivial query, closed again; no pool and no migrations (`kismet health`
/// on PostgreSQL).
pub async fn ping(url: &str) -> Result<(), StorageError> {
    use sqlx::Connection;
    install_drivers();
    let mut conn = AnyConnection::connect(url).await?;
    let answered = sqlx::query("SELECT 1").execute(&mut conn).await;
    let _ = conn.close().await;
    answered.map(|_| ())
}

/// Milliseconds since the Unix epoch, the time format of every table.
pub fn now_ms() -> i64 {
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map(|d| d.as_millis() as i64)
        .unwrap_or(0)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn wal_bytes(db: &std::path::Path) -> u64 {
        std::fs::metadata(format!("{}-wal", db.display()))
            .map(|m| m.len())
            .unwrap_or(0)
    }

    /// A full disk fails the writes that do not fit (SQLite then rolls the
    /// transaction back itself) and nothing else: reads answer meanwhile,
    /// and once there is room the next write goes through, instead of every
    /// write failing for ever with "attempted to call begin_with at
    /// non-zero transaction depth". Needs the right to mount a tmpfs (root);
    /// skipped, saying so, without it.
    #[tokio::test]
    async fn a_full_disk_fails_writes_only_while_it_is_full() {
        let Some(disk) = scratch::SmallDisk::mount("full", 1 << 20) else {
            eprintln!("skipped: cannot mount a tmpfs here (not root)");
            return;
        };
        let path = disk.dir().join("full.db");
        install_drivers();
        let db = Db::open_sqlite(&format!("sqlite://{}", path.display()), 4, None)
            .await
            .unwrap();
        let entry = |n: i64| log::LogEntry {
            guild_id: 1,
            user_id: n,
            system: "generic".into(),
            action: "roll".into(),
            outcome: "x".repeat(20_000),
            ..log::LogEntry::default()
        };
        let write = |n: i64| {
            let db = db.clone();
            async move {
                let mut tx = db.write().await?;
                log::append(&mut tx, &entry(n)).await?;
                tx.commit().await
            }
        };
        write(0).await.unwrap();
        disk.fill();
        for n in 1..4 {
            let e = write(n).await.expect_err("the disk is full");
            assert!(e.to_string().contains("full"), "{e}");
            let mut tx = db.read().await.unwrap();
            assert_eq!(log::count(&mut tx, 1).await.unwrap(), 1, "reads answer");
        }
        disk.free();
        write(4)
            .await
            .expect("room again: the next write is stored");
        let mut tx = db.read().await.unwrap();
        assert_eq!(log::count(&mut tx, 1).await.unwrap(), 2);
        drop(tx);
        db.close().await;
    }

    /// The checkpointer truncates when the database was idle for a tick,
    /// starts a long log again under sustained writes, and otherwise
    /// leaves the log to the passive passes.
    #[test]
    fn the_checkpointer_truncates_when_idle_and_restarts_when_long() {
        use Checkpoint::*;
        assert_eq!(checkpoint_after(0, 0, 0), Nothing, "an empty log");
        assert_eq!(
            checkpoint_after(1200, 1200, 0),
            Nothing,
            "written since the last tick"
        );
        assert_eq!(
            checkpoint_after(2400, 2400, 1200),
            Nothing,
            "still being written"
        );
        assert_eq!(
            checkpoint_after(800, 800, 1200),
            Nothing,
            "restarted by a write since the last tick"
        );
        assert_eq!(
            checkpoint_after(2400, 2400, 2400),
            Truncate,
            "idle for a tick"
        );
        assert_eq!(
            checkpoint_after(2400, 2000, 2400),
            Nothing,
            "a reader holds pages back"
        );
        assert_eq!(checkpoint_after(8_193, 100, 8_000), Restart, "too long");
        assert_eq!(checkpoint_after(8_192, 100, 5_000), Nothing, "at the bound");
        assert_eq!(
            checkpoint_after(9_000, 9_000, 9_000),
            Truncate,
            "long, but idle"
        );
    }

    /// A burst of writes with readers alongside (about 24 MB through the
    /// log) leaves at most a short log: the checkpointer cuts the file back
    /// below 4 MB once the burst is over.
    #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
    async fn the_checkpointer_cuts_the_log_back_after_a_burst() {
        let dir = std::env::temp_dir().join(format!("kismet-wal-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        let path = dir.join("wal.db");
        let db = Db::open(&format!("sqlite://{}", path.display()), 4)
            .await
            .unwrap();
        let stop = std::sync::Arc::new(std::sync::atomic::AtomicBool::new(false));
        let readers: Vec<_> = (0..2)
            .map(|_| {
                let (db, stop) = (db.clone(), stop.clone());
                tokio::spawn(async move {
                    while !stop.load(std::sync::atomic::Ordering::Relaxed) {
                        let mut tx = db.read().await.unwrap();
                        log::count(&mut tx, 1).await.unwrap();
                        drop(tx);
                        tokio::task::yield_now().await;
                    }
                })
            })
            .collect();
        let outcome = "x".repeat(2000);
        for batch in 0..120 {
            let mut tx = db.write().await.unwrap();
            for i in 0..100 {
                let e = log::LogEntry {
                    guild_id: 1,
                    user_id: batch * 100 + i,
                    system: "generic".into(),
                    action: "roll".into(),
                    outcome: outcome.clone(),
                    ..log::LogEntry::default()
                };
                log::append(&mut tx, &e).await.unwrap();
            }
            tx.commit().await.unwrap();
        }
        stop.store(true, std::sync::atomic::Ordering::Relaxed);
        for r in readers {
            r.await.unwrap();
        }
        let mut size = wal_bytes(&path);
        for _ in 0..100 {
            if size < 4 << 20 {
                break;
            }
            tokio::time::sleep(Duration::from_millis(100)).await;
            size = wal_bytes(&path);
        }
        assert!(size < 4 << 20, "the log stayed at {size} bytes");
        let mut tx = db.read().await.unwrap();
        assert_eq!(log::count(&mut tx, 1).await.unwrap(), 12_000);
        drop(tx);
        db.close().await;
        let _ = std::fs::remove_dir_all(&dir);
    }

    /// Under sustained writes the checkpointer's pass on the writer
    /// (`RESTART`) leaves the log's file at its size (cutting tens of
    /// megabytes held the writer 26–45 ms, issue 30), does not wait for a
    /// reader in the log (it answers busy at once, having copied every
    /// page), and the next write after the reader starts the log again
    /// from its beginning: the file is written over, not grown.
    #[tokio::test]
    async fn a_restart_under_load_keeps_the_file_and_the_next_write_starts_the_log_again() {
        let dir = std::env::temp_dir().join(format!("kismet-walr-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        let path = dir.join("wal.db");
        install_drivers();
        let db = Db::open_sqlite(&format!("sqlite://{}", path.display()), 4, None)
            .await
            .unwrap();
        let entry = |n: i64| log::LogEntry {
            guild_id: 1,
            user_id: n,
            system: "generic".into(),
            action: "roll".into(),
            outcome: "x".repeat(2000),
            ..log::LogEntry::default()
        };
        for batch in 0..30 {
            let mut tx = db.write().await.unwrap();
            for i in 0..100 {
                log::append(&mut tx, &entry(batch * 100 + i)).await.unwrap();
            }
            tx.commit().await.unwrap();
        }
        let full = wal_bytes(&path);
        assert!(full > 4 << 20, "{full}");
        let frames = |db: &Db| {
            let reader = db.reader.clone();
            async move {
                let (_, log, copied): (i64, i64, i64) =
                    sqlx::query_as("PRAGMA wal_checkpoint(PASSIVE)")
                        .fetch_one(&reader)
                        .await
                        .unwrap();
                (log, copied)
            }
        };
        // A reader inside the log.
        let mut reader = db.read().await.unwrap();
        assert_eq!(log::count(&mut reader, 1).await.unwrap(), 3000);
        assert!(!on_writer(&db.writer, Checkpoint::Restart, Duration::ZERO)
            .await
            .unwrap());
        let (log, copied) = frames(&db).await;
        assert_eq!(copied, log, "every page copied although a reader is in");
        assert_eq!(wal_bytes(&path), full, "the file is not cut under load");
        reader.rollback().await.unwrap();
        let mut tx = db.write().await.unwrap();
        log::append(&mut tx, &entry(3000)).await.unwrap();
        tx.commit().await.unwrap();
        let (log, _) = frames(&db).await;
        assert!(log < 10, "the log started again: {log} pages");
        assert_eq!(wal_bytes(&path), full, "written over, not grown or cut");
        // Idle: the truncation empties the file.
        assert!(on_writer(&db.writer, Checkpoint::Truncate, Duration::ZERO)
            .await
            .unwrap());
        assert_eq!(wal_bytes(&path), 0);
        let mut tx = db.read().await.unwrap();
        assert_eq!(log::count(&mut tx, 1).await.unwrap(), 3001);
        drop(tx);
        db.close().await;
        let _ = std::fs::remove_dir_all(&dir);
    }
}
