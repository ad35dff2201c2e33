//! A server that removed the bot (issue 33): its data is deleted after a
//! grace period (`data.removed_guild_grace_days`, default 30 days), unless
//! the bot is added back first.
//!
//! The adapter reports the bot's removal ([`left`]: Discord's GUILD_DELETE
//! without `unavailable`; an outage is not a removal) and its return
//! ([`returned`]: GUILD_CREATE, which also arrives for every server at each
//! connection), and runs [`sweep`] at start-up and every
//! [`SWEEP_EVERY`], on the application's [`super::Clock`]. A sweep deletes
//! every row of every guild-scoped table of each server whose grace period
//! is over and which Discord confirms the bot is not in ([`Presence`]),
//! one transaction per server, and logs the server's id and the row counts
//! only.

use super::{Act, App, AppError};
use crate::storage;
use crate::storage::departures::Purged;
use std::sync::atomic::Ordering;
use std::time::Duration;

/// How often the adapter sweeps (by the application's clock).
pub const SWEEP_EVERY: Duration = Duration::from_secs(3600);

/// The most servers one sweep reads as due; the rest wait for the next.
const SWEEP_LIMIT: i64 = 500;

/// Records that the bot was removed from `guild_id` now (the first removal
/// counts; the data stays until the grace period is over).
pub async fn left(app: &App, guild_id: i64) -> Result<(), AppError> {
    let at = app.clock.now_ms();
    // One statement that stands alone: committed as it runs.
    let mut tx = app.db.write_one().await?;
    storage::departures::record(&mut tx, guild_id, at).await?;
    tx.commit().await?;
    tracing::info!(
        guild_id,
        grace_days = app.config.data.removed_guild_grace_days,
        "removed from a server: its data will be deleted after the grace period"
    );
    Ok(())
}

/// The bot is in `guild_id` (again): a pending deletion is cancelled.
/// True if there was one. Looks first (a read, beside the writer), as
/// every server announces itself at each connection.
pub async fn returned(app: &App, guild_id: i64) -> Result<bool, AppError> {
    let pending = {
        let mut rtx = app.db.glance().await?;
        storage::departures::left_at(&mut rtx, guild_id).await?
    };
    if pending.is_none() {
        return Ok(false);
    }
    let mut tx = app.db.write_one().await?;
    let cancelled = storage::departures::cancel(&mut tx, guild_id).await?;
    tx.commit().await?;
    if cancelled {
        tracing::info!(
            guild_id,
            "back in a server: the deletion of its data is cancelled"
        );
    }
    Ok(cancelled)
}

/// Whether the bot is in a server, as Discord answers when asked.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Presence {
    /// It is: a departure on file is stale (the GUILD_CREATE that should
    /// have cancelled it was lost, or handled before the GUILD_DELETE).
    Member,
    /// It is not (Discord knows no such server for the bot).
    Gone,
    /// No answer (Discord could not be reached): asked again next sweep.
    Unknown,
}

/// Deletes the data of every server the bot left a grace period or more
/// before `now`, one transaction per server; returns what each lost. Stops
/// between servers when the bot is stopping.
///
/// Before deleting, Discord is asked whether the bot is in the server
/// after all (`presence`, the adapter's question): only a server Discord
/// says it is not in ([`Presence::Gone`]) is deleted; one it is in has its
/// departure dropped, and one with no answer waits for the next sweep.
///
/// Every process sharing the database sweeps every server (a removal is
/// recorded by the process of the server's shard, but any may delete it):
/// the server's transaction checks that its departure is still due, so
/// two processes sweeping at once delete it once, and servers of a process
/// that is down are not left waiting.
pub async fn sweep<F, Fut>(app: &App, now: i64, presence: F) -> Result<Vec<Purged>, AppError>
where
    F: Fn(i64) -> Fut,
    Fut: std::future::Future<Output = Presence>,
{
    // At most a year (`config::GRACE_DAYS`); a longer one deletes nothing.
    let grace = i64::try_from(app.config.data.grace().as_millis()).unwrap_or(i64::MAX);
    let cutoff = now.saturating_sub(grace);
    let due = {
        let mut tx = app.db.read().await?;
        storage::departures::due(&mut tx, cutoff, SWEEP_LIMIT).await?
    };
    let mut out = Vec::new();
    for guild_id in due {
        if app.stopping.load(Ordering::Relaxed) {
            break;
        }
        match presence(guild_id).await {
            Presence::Gone => {}
            Presence::Member => {
                tracing::warn!(
                    guild_id,
                    "a server on file as having removed the bot still has it"
                );
                returned(app, guild_id).await?;
                continue;
            }
            Presence::Unknown => continue,
        }
        let mut act = Act::housekeeping(app, guild_id).await?;
        // Still due inside the guild's transaction (the bot may be back).
        let Some(purged) = storage::departures::purge(&mut act, guild_id, cutoff).await? else {
            continue;
        };
        act.commit().await?;
        tracing::info!(
            guild_id,
            rows = purged.total(),
            tables = %purged.summary(),
            "deleted the data of a server that removed the bot"
        );
        out.push(purged);
    }
    Ok(out)
}
