//! The bot process's life: a clean stop on SIGTERM or SIGINT, and the
//! heartbeat that `kismet health` reads.
//!
//! Stopping: the gateway is closed (no new interactions arrive), the
//! interactions in flight are given time to finish, the write-ahead log is
//! checkpointed and the database closed; every step is bounded, so the
//! process exits 0 within [`STOP_BUDGET`] even when Discord cannot be
//! reached. Health: while a gateway shard is connected the bot writes the
//! time into a small file every [`BEAT_EVERY`], and removes it when it
//! stops ([`stop_beating`]); `kismet health` checks that the database
//! answers and takes a write, and that the beat is recent. Where the file
//! is: [`heartbeat_file`] (beside an SQLite database, else in the temporary
//! directory under a name of the process's shards, unless given).
//! Memory: what starting up allocated and freed (the commands' registration
//! above all) goes back to the system once ([`release_freed_memory`]).

use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex, OnceLock};
use std::time::Duration;

use crate::admission::{Gate, Place};
use crate::config::ShardRange;
use crate::storage::{now_ms, Backend, Db};

/// The whole stop, from the signal to exit.
pub const STOP_BUDGET: Duration = Duration::from_secs(10);
/// How long in-flight interactions get to finish.
pub const DRAIN: Duration = Duration::from_secs(5);
/// How often a connected bot writes its heartbeat.
pub const BEAT_EVERY: Duration = Duration::from_secs(2);
/// A heartbeat older than this is unhealthy.
pub const BEAT_STALE: Duration = Duration::from_secs(60);

/// Interactions being answered now (commands and clicks), by interaction
/// id: counting one in or out twice changes nothing, so an interaction
/// refused before it was counted (a failed check) cannot make the count
/// drift. It also holds the bot's admission control ([`InFlight::admit`]):
/// with a cap ([`InFlight::set_cap`]), an interaction holds one of that
/// many places of a [`Gate`] while the application works on it.
#[derive(Clone, Default, Debug)]
pub struct InFlight(Arc<Places>);

#[derive(Default, Debug)]
struct Places {
    /// In flight, with the place each holds (none without a cap, or once
    /// its work is done).
    held: Mutex<HashMap<u64, Option<Place>>>,
    /// The places, once a cap is set.
    gate: OnceLock<Arc<Gate>>,
}

impl InFlight {
    fn held(&self) -> std::sync::MutexGuard<'_, HashMap<u64, Option<Place>>> {
        self.0.held.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// Sets how many interactions the application works on at once (0: no
    /// cap). Only the first call counts.
    pub fn set_cap(&self, cap: usize) {
        if cap > 0 {
            let _ = self.0.gate.set(Gate::new(cap));
        }
    }

    /// Counts interaction `id` in once it has a place, waiting its turn
    /// for at most `wait` ([`Gate::enter`]); false when it got none (it is
    /// not counted then). Already in, or no cap: true at once.
    pub async fn admit(&self, id: u64, wait: Duration) -> bool {
        if self.held().contains_key(&id) {
            return true;
        }
        let place = match self.0.gate.get() {
            None => None,
            Some(gate) => match gate.enter(wait).await {
                Some(p) => Some(p),
                None => return false,
            },
        };
        let mut held = self.held();
        if held.contains_key(&id) {
            // Counted in meanwhile: keep one place only.
            drop(held);
            drop(place);
            return true;
        }
        held.insert(id, place);
        true
    }

    /// Counts interaction `id` in without waiting: it takes a place if one
    /// is free (never more than the cap's places are taken).
    pub fn start(&self, id: u64) {
        self.held()
            .entry(id)
            .or_insert_with(|| self.0.gate.get().and_then(|g| g.try_enter()));
    }

    /// The application is done with interaction `id` (only its answer is
    /// still being sent): its place goes to the next. It still counts as in
    /// flight until [`InFlight::finish`].
    pub fn release(&self, id: u64) {
        let place = self.held().get_mut(&id).and_then(Option::take);
        drop(place);
    }

    /// Interaction `id` answered: it no longer counts, and its place (if
    /// still held) is free (one never counted: nothing happens).
    pub fn finish(&self, id: u64) {
        let place = self.held().remove(&id);
        drop(place);
    }

    /// How many are in flight, counting those still waiting for a place
    /// (a clean stop waits for them too: each is let in or turned away
    /// within [`crate::admission::ADMISSION_WAIT`]).
    pub fn count(&self) -> usize {
        self.held().len() + self.0.gate.get().map_or(0, |g| g.waiting())
    }

    /// Waits until none is in flight, for at most `limit`; true if drained.
    pub async fn drained(&self, limit: Duration) -> bool {
        let deadline = tokio::time::Instant::now() + limit;
        while self.count() > 0 {
            if tokio::time::Instant::now() >= deadline {
                return false;
            }
            tokio::time::sleep(Duration::from_millis(20)).await;
        }
        true
    }
}

/// Waits for SIGTERM (what `docker stop` sends) or SIGINT (Ctrl-C).
pub async fn stop_signal() -> &'static str {
    #[cfg(unix)]
    {
        use tokio::signal::unix::{signal, SignalKind};
        let (Ok(mut term), Ok(mut int)) = (
            signal(SignalKind::terminate()),
            signal(SignalKind::interrupt()),
        ) else {
            let _ = tokio::signal::ctrl_c().await;
            return "SIGINT";
        };
        tokio::select! {
            _ = term.recv() => "SIGTERM",
            _ = int.recv() => "SIGINT",
        }
    }
    #[cfg(not(unix))]
    {
        let _ = tokio::signal::ctrl_c().await;
        "SIGINT"
    }
}

/// The heartbeat file of the database at `url` (beside the SQLite file);
/// `None` for a database without a file.
pub fn heartbeat_path(url: &str) -> Option<PathBuf> {
    let path = url
        .strip_prefix("sqlite://")
        .or_else(|| url.strip_prefix("sqlite:"))?;
    let path = path.split('?').next()?;
    if path.is_empty() || path.contains(":memory:") {
        return None;
    }
    Some(PathBuf::from(format!("{path}.heartbeat")))
}

/// The environment variable naming the heartbeat file, like `--heartbeat`
/// (the option wins when both are given).
pub const HEARTBEAT_VAR: &str = "KISMET_HEARTBEAT";

/// The heartbeat file `kismet run` writes and `kismet health` reads:
/// `explicit` when given (`--heartbeat FILE` or [`HEARTBEAT_VAR`]), else
/// beside an SQLite database file ([`heartbeat_path`]), else (PostgreSQL,
/// an in-memory SQLite) in the temporary directory: `kismet.heartbeat`, or
/// `kismet-shards-FIRST-LAST-of-COUNT.heartbeat` for a process running a
/// range of the shards, so that processes of one host each have their own
/// and `kismet health` given the same shard options reads the right one.
pub fn heartbeat_file(url: &str, explicit: Option<&Path>, shards: Option<ShardRange>) -> PathBuf {
    if let Some(path) = explicit.filter(|p| !p.as_os_str().is_empty()) {
        return path.to_path_buf();
    }
    if let Some(path) = heartbeat_path(url) {
        return path;
    }
    let name = match shards {
        Some(r) => format!(
            "kismet-shards-{}-{}-of-{}.heartbeat",
            r.first, r.last, r.count
        ),
        None => "kismet.heartbeat".to_string(),
    };
    std::env::temp_dir().join(name)
}

/// Records that the gateway is connected now.
pub fn beat(path: &Path) -> std::io::Result<()> {
    std::fs::write(path, now_ms().to_string())
}

/// Removes the heartbeat file at a stop, so that `kismet health` says the
/// bot is not running at once rather than a minute later (a file already
/// gone is fine; another failure is logged).
pub fn stop_beating(path: &Path) {
    match std::fs::remove_file(path) {
        Ok(()) => {}
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => {}
        Err(e) => {
            tracing::warn!(error = %e, path = %path.display(), "could not remove the heartbeat")
        }
    }
}

/// How long `kismet health` waits for the database.
const DB_ANSWER: Duration = Duration::from_secs(5);

/// Whether the bot is healthy: the database at `url` answers, and a
/// heartbeat was written into `beat_file` ([`heartbeat_file`]) less than
/// [`BEAT_STALE`] ago. The error says what is wrong.
///
/// SQLite: the file is opened and its integrity checked. PostgreSQL: one
/// connection asks the server a trivial query ([`crate::storage::ping`]);
/// no pool, no migrations.
pub async fn health(url: &str, beat_file: &Path) -> Result<(), String> {
    match Backend::of_url(url) {
        Backend::Sqlite => sqlite_answers(url).await?,
        Backend::Postgres => tokio::time::timeout(DB_ANSWER, crate::storage::ping(url))
            .await
            .map_err(|_| "the database did not answer within 5 s".to_string())?
            .map_err(|e| format!("the database did not answer: {e}"))?,
    }
    let path = beat_file;
    let text = std::fs::read_to_string(path)
        .map_err(|_| format!("no heartbeat at {} (is the bot connected?)", path.display()))?;
    let at: i64 = text
        .trim()
        .parse()
        .map_err(|_| format!("{} holds no time", path.display()))?;
    let age = now_ms().saturating_sub(at);
    if age > BEAT_STALE.as_millis() as i64 {
        return Err(format!(
            "the gateway's last heartbeat is {} s old",
            age / 1000
        ));
    }
    Ok(())
}

/// Opens the SQLite database (which checks that it takes a write: a full
/// disk or a read-only file is unhealthy although every read still
/// answers) and runs its integrity check.
async fn sqlite_answers(url: &str) -> Result<(), String> {
    let db = tokio::time::timeout(DB_ANSWER, Db::open(url, 2))
        .await
        .map_err(|_| "the database did not answer within 5 s".to_string())?
        .map_err(|e| match e {
            // Names the file and the cause already.
            sqlx::Error::InvalidArgument(e) => e,
            e => format!("the database cannot be opened: {e}"),
        })?;
    let ok = db.integrity_ok().await;
    db.close().await;
    if !ok.map_err(|e| format!("the database does not answer: {e}"))? {
        return Err("the database failed its integrity check".into());
    }
    Ok(())
}

/// Hands the heap memory that is free but still held by the allocator back
/// to the system. Starting up builds and frees a few megabytes (every
/// command's registration body, the migrations' bookkeeping) that glibc's
/// allocator would otherwise keep in its per-thread arenas for the life of
/// the process; the bot calls this once its commands are registered. It
/// changes no data and is a no-op where the allocator is not glibc's.
pub fn release_freed_memory() {
    #[cfg(all(target_os = "linux", target_env = "gnu"))]
    {
        extern "C" {
            /// glibc: releases free memory at the top of the main heap
            /// (keeping `pad` bytes) and the free pages of every arena.
            fn malloc_trim(pad: usize) -> i32;
        }
        // SAFETY: `malloc_trim` takes the allocator's own locks and only
        // gives back pages no allocation uses; it is safe at any time.
        unsafe {
            malloc_trim(0);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn heartbeats_sit_beside_the_database_file() {
        assert_eq!(
            heartbeat_path("sqlite://data/kismet.db"),
            Some(PathBuf::from("data/kismet.db.heartbeat"))
        );
        assert_eq!(
            heartbeat_path("sqlite:///app/data/k.db?mode=rwc"),
            Some(PathBuf::from("/app/data/k.db.heartbeat"))
        );
        assert_eq!(heartbeat_path("sqlite::memory:"), None);
        assert_eq!(heartbeat_path("postgres://x"), None);
    }

    #[test]
    fn the_heartbeat_file_is_chosen_by_option_database_and_shards() {
        let tmp = std::env::temp_dir();
        let pg = "postgres://kismet:pw@db:5432/kismet";
        // PostgreSQL: the temporary directory, named after the shards.
        assert_eq!(heartbeat_file(pg, None, None), tmp.join("kismet.heartbeat"));
        let r = ShardRange::parse("4-7", 8).unwrap();
        assert_eq!(
            heartbeat_file(pg, None, Some(r)),
            tmp.join("kismet-shards-4-7-of-8.heartbeat")
        );
        let other = ShardRange::parse("0-3", 8).unwrap();
        assert_ne!(
            heartbeat_file(pg, None, Some(r)),
            heartbeat_file(pg, None, Some(other)),
            "two processes of one host keep two files"
        );
        assert_eq!(
            heartbeat_file("postgresql://x/y", None, Some(ShardRange::all(1))),
            tmp.join("kismet-shards-0-0-of-1.heartbeat")
        );
        // An in-memory SQLite has no file to sit beside.
        assert_eq!(
            heartbeat_file("sqlite::memory:", None, None),
            tmp.join("kismet.heartbeat")
        );
        // SQLite: beside the file, whatever the shards.
        assert_eq!(
            heartbeat_file("sqlite://data/k.db", None, Some(r)),
            PathBuf::from("data/k.db.heartbeat")
        );
        // An explicit file wins on every database; an empty one is none.
        let mine = Path::new("/run/kismet/beat");
        for url in [pg, "sqlite://data/k.db"] {
            assert_eq!(heartbeat_file(url, Some(mine), Some(r)), mine);
        }
        assert_eq!(
            heartbeat_file(pg, Some(Path::new("")), None),
            tmp.join("kismet.heartbeat")
        );
    }

    #[tokio::test]
    async fn in_flight_work_is_waited_for_within_a_bound() {
        let f = InFlight::default();
        assert!(f.drained(Duration::from_millis(1)).await);
        f.start(1);
        f.start(2);
        f.start(2);
        f.finish(1);
        assert_eq!(f.count(), 1, "an interaction counts once");
        assert!(!f.drained(Duration::from_millis(50)).await);
        let g = f.clone();
        tokio::spawn(async move {
            tokio::time::sleep(Duration::from_millis(30)).await;
            g.finish(2);
        });
        assert!(f.drained(Duration::from_secs(5)).await);
        f.finish(3);
        assert_eq!(f.count(), 0, "finishing one never counted changes nothing");
    }

    #[tokio::test]
    async fn admission_waits_its_turn_for_a_place_and_gives_up_in_time() {
        let wait = Duration::from_millis(50);
        let f = InFlight::default();
        assert!(f.admit(9, wait).await, "no cap: everyone");
        f.finish(9);
        f.set_cap(2);
        f.set_cap(5); // only the first counts
        assert!(f.admit(1, wait).await);
        f.start(2);
        let started = tokio::time::Instant::now();
        assert!(!f.admit(3, wait).await, "a third is turned away at cap 2");
        assert!(started.elapsed() >= wait, "after waiting its turn");
        assert_eq!(f.count(), 2, "a turned-away one is not counted");
        assert!(f.admit(2, wait).await, "one already in stays in");
        f.finish(3);
        assert_eq!(f.count(), 2, "finishing the turned-away one frees nothing");
        // A place freed while one waits goes to it; the one whose work is
        // done still counts as in flight.
        let g = f.clone();
        let waiter = tokio::spawn(async move { g.admit(3, Duration::from_secs(5)).await });
        tokio::time::sleep(Duration::from_millis(20)).await;
        assert_eq!(f.count(), 3, "one waiting for a place counts too");
        f.release(1);
        assert!(waiter.await.unwrap());
        assert_eq!(f.count(), 3);
        f.finish(1);
        // Over the cap by `start` (a check that did not run): no place is
        // made up, and finishing it frees none that others hold.
        f.start(4);
        assert_eq!(f.count(), 3);
        f.finish(4);
        assert!(
            !f.admit(5, wait).await,
            "still full: 2 and 3 hold the places"
        );
        f.finish(2);
        assert!(f.admit(5, wait).await);
    }

    #[tokio::test]
    async fn health_needs_a_database_and_a_recent_beat() {
        let dir = std::env::temp_dir().join(format!("kismet-health-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        let url = format!("sqlite://{}", dir.join("h.db").display());
        let beat_file = heartbeat_file(&url, None, None);
        assert_eq!(beat_file, heartbeat_path(&url).unwrap());
        let e = health(&url, &beat_file).await.unwrap_err();
        assert!(e.contains("no heartbeat"), "{e}");
        std::fs::write(&beat_file, (now_ms() - 120_000).to_string()).unwrap();
        assert!(health(&url, &beat_file)
            .await
            .unwrap_err()
            .contains("120 s old"));
        beat(&beat_file).unwrap();
        health(&url, &beat_file).await.unwrap();
        let _ = std::fs::remove_dir_all(&dir);
    }

    /// While the database cannot write (a full disk), health says so; once
    /// there is room again it is healthy again. Needs the right to mount a
    /// tmpfs (root); skipped, saying so, without it.
    #[tokio::test]
    async fn health_is_unhealthy_while_the_database_cannot_write() {
        let Some(disk) = crate::storage::scratch::SmallDisk::mount("health", 1 << 20) else {
            eprintln!("skipped: cannot mount a tmpfs here (not root)");
            return;
        };
        let url = format!("sqlite://{}", disk.dir().join("h.db").display());
        // The bot's own connections stay open, as they would.
        let bot = Db::open(&url, 2).await.unwrap();
        let beat_file = scratch_beat("full-disk");
        beat(&beat_file).unwrap();
        health(&url, &beat_file).await.unwrap();
        // An empty write-ahead log, so the next write must grow a file: with
        // frames already checkpointed in it, SQLite would write over them
        // and the full disk would go unnoticed until the log must grow
        // (which made this test depend on the background checkpointer's
        // timing).
        assert!(bot.checkpoint_truncate().await.unwrap());
        disk.fill();
        let e = health(&url, &beat_file).await.unwrap_err();
        assert!(e.contains("h.db cannot take a write"), "{e}");
        assert!(e.contains("full"), "{e}");
        disk.free();
        health(&url, &beat_file).await.unwrap();
        bot.close().await;
        drop_beat(&beat_file);
    }

    /// A database file with a damaged page is unhealthy.
    #[tokio::test]
    async fn health_is_unhealthy_when_a_page_is_corrupt() {
        use std::io::{Seek, SeekFrom, Write};
        let beat_file = scratch_beat("corrupt");
        let path = beat_file.with_file_name("c.db");
        let url = format!("sqlite://{}", path.display());
        let db = Db::open(&url, 2).await.unwrap();
        let mut tx = db.write().await.unwrap();
        for n in 0..200 {
            let e = crate::storage::log::LogEntry {
                guild_id: 1,
                user_id: n,
                system: "generic".into(),
                action: "roll".into(),
                outcome: "x".repeat(500),
                ..Default::default()
            };
            crate::storage::log::append(&mut tx, &e).await.unwrap();
        }
        tx.commit().await.unwrap();
        db.close().await;
        beat(&beat_file).unwrap();
        health(&url, &beat_file).await.unwrap();
        // Garbage over the last pages (the log's rows).
        let len = std::fs::metadata(&path).unwrap().len();
        let mut f = std::fs::OpenOptions::new().write(true).open(&path).unwrap();
        f.seek(SeekFrom::Start(len - 3 * 4096)).unwrap();
        f.write_all(&[0xA5; 2 * 4096]).unwrap();
        drop(f);
        let e = health(&url, &beat_file).await.unwrap_err();
        assert!(e.contains("corrupt") || e.contains("integrity"), "{e}");
        drop_beat(&beat_file);
    }

    /// A heartbeat file of this test alone, in a folder of its own (remove
    /// it with [`drop_beat`]).
    fn scratch_beat(tag: &str) -> PathBuf {
        let dir = std::env::temp_dir().join(format!("kismet-beat-{}-{tag}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).unwrap();
        dir.join("kismet.heartbeat")
    }

    fn drop_beat(file: &Path) {
        if let Some(dir) = file.parent() {
            let _ = std::fs::remove_dir_all(dir);
        }
    }

    #[tokio::test]
    async fn health_says_when_postgresql_does_not_answer() {
        let beat_file = scratch_beat("no-server");
        beat(&beat_file).unwrap();
        // Nothing listens on port 1: refused at once.
        let e = health("postgres://kismet@127.0.0.1:1/kismet", &beat_file)
            .await
            .unwrap_err();
        assert!(e.starts_with("the database did not answer"), "{e}");
        drop_beat(&beat_file);
    }

    #[tokio::test]
    async fn health_on_postgresql_needs_the_server_and_a_recent_beat() {
        let Some(url) = crate::storage::scratch::test_postgres() else {
            return;
        };
        let beat_file = scratch_beat("postgres");
        let e = health(&url, &beat_file).await.unwrap_err();
        assert_eq!(
            e,
            format!(
                "no heartbeat at {} (is the bot connected?)",
                beat_file.display()
            )
        );
        std::fs::write(&beat_file, (now_ms() - 90_000).to_string()).unwrap();
        let e = health(&url, &beat_file).await.unwrap_err();
        assert!(e.contains("90 s old"), "{e}");
        beat(&beat_file).unwrap();
        health(&url, &beat_file).await.unwrap();
        drop_beat(&beat_file);
    }
}
