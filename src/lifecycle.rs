//! The bot process's life: a clean stop on SIGTERM or SIGINT, and the
//! heartbeat that `kismet health` reads.
//!
//! Stopping: the gateway is closed (no new interactions arrive), the
//! interactions in flight are given time to finish, the write-ahead log is
//! checkpointed and the database closed; every step is bounded, so the
//! process exits 0 within [`STOP_BUDGET`] even when Discord cannot be
//! reached. Health: while a gateway shard is connected the bot writes the
//! time into a small file beside the database every [`BEAT_EVERY`];
//! `kismet health` checks that the database answers and that the beat is
//! recent.

use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Arc;
use std::time::Duration;

use crate::storage::{now_ms, Db};

/// The whole stop, from the signal to exit.
pub const STOP_BUDGET: Duration = Duration::from_secs(10);
/// How long in-flight interactions get to finish.
pub const DRAIN: Duration = Duration::from_secs(5);
/// How often a connected bot writes its heartbeat.
pub const BEAT_EVERY: Duration = Duration::from_secs(2);
/// A heartbeat older than this is unhealthy.
pub const BEAT_STALE: Duration = Duration::from_secs(60);

/// Interactions being answered now (commands and clicks).
#[derive(Clone, Default, Debug)]
pub struct InFlight(Arc<AtomicUsize>);

impl InFlight {
    /// One more interaction started.
    pub fn start(&self) {
        self.0.fetch_add(1, Ordering::SeqCst);
    }

    /// One interaction answered (never below zero).
    pub fn finish(&self) {
        let _ = self
            .0
            .fetch_update(Ordering::SeqCst, Ordering::SeqCst, |n| n.checked_sub(1));
    }

    /// How many are in flight.
    pub fn count(&self) -> usize {
        self.0.load(Ordering::SeqCst)
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

/// Records that the gateway is connected now.
pub fn beat(path: &Path) -> std::io::Result<()> {
    std::fs::write(path, now_ms().to_string())
}

/// Whether the bot is healthy: the database answers, and a heartbeat was
/// written less than [`BEAT_STALE`] ago. The error says what is wrong.
pub async fn health(url: &str) -> Result<(), String> {
    let db = tokio::time::timeout(Duration::from_secs(5), Db::open(url, 2))
        .await
        .map_err(|_| "the database did not answer within 5 s".to_string())?
        .map_err(|e| format!("the database cannot be opened: {e}"))?;
    let ok = db.integrity_ok().await;
    db.close().await;
    if !ok.map_err(|e| format!("the database does not answer: {e}"))? {
        return Err("the database failed its integrity check".into());
    }
    let path = heartbeat_path(url).ok_or("this database keeps no heartbeat file")?;
    let text = std::fs::read_to_string(&path)
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

    #[tokio::test]
    async fn in_flight_work_is_waited_for_within_a_bound() {
        let f = InFlight::default();
        assert!(f.drained(Duration::from_millis(1)).await);
        f.start();
        f.start();
        f.finish();
        assert_eq!(f.count(), 1);
        assert!(!f.drained(Duration::from_millis(50)).await);
        let g = f.clone();
        tokio::spawn(async move {
            tokio::time::sleep(Duration::from_millis(30)).await;
            g.finish();
        });
        assert!(f.drained(Duration::from_secs(5)).await);
        f.finish();
        assert_eq!(f.count(), 0, "never below zero");
    }

    #[tokio::test]
    async fn health_needs_a_database_and_a_recent_beat() {
        let dir = std::env::temp_dir().join(format!("kismet-health-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        let url = format!("sqlite://{}", dir.join("h.db").display());
        let e = health(&url).await.unwrap_err();
        assert!(e.contains("no heartbeat"), "{e}");
        let beat_file = heartbeat_path(&url).unwrap();
        std::fs::write(&beat_file, (now_ms() - 120_000).to_string()).unwrap();
        assert!(health(&url).await.unwrap_err().contains("120 s old"));
        beat(&beat_file).unwrap();
        health(&url).await.unwrap();
        let _ = std::fs::remove_dir_all(&dir);
    }
}
