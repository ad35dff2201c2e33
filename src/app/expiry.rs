//! Session expiry: interactive rolls left alone past the guild's timeout are
//! closed, and their message is re-drawn with the buttons disabled.
//!
//! The adapter calls [`sweep`] periodically and edits each returned message
//! ([`sweep_shards`] in a process that runs a range of the bot's gateway
//! shards: it expires only its own guilds' sessions); [`attach`] records
//! which message (and token) shows a session.

use super::view::View;
use super::{App, AppError, Caller};
use crate::app::Act;
use crate::config::ShardRange;
use crate::storage;
use crate::storage::sessions::Status;

/// A session that just expired, with what its message should now show.
#[derive(Debug, Clone)]
pub struct Expired {
    /// The session id.
    pub session: i64,
    /// Its channel.
    pub channel_id: i64,
    /// Its message, if known.
    pub message_id: Option<i64>,
    /// A token that can edit the message, with its issue time.
    pub token: Option<(String, i64)>,
    /// The message's new content (buttons disabled).
    pub view: View,
    /// Where a secret session's two copies are (`None` for other sessions).
    pub secret: Option<super::secret::SecretSession>,
}

/// How old a session's recorded token may get before a click on its
/// message records the click's newer token (tokens last 15 minutes; the
/// sweeper falls back to the channel API after 14).
const TOKEN_REFRESH_MS: i64 = 5 * 60_000;

/// Records that `message_id` shows `session` and `token` can edit it
/// (`None`: no token can, such as a message a deferred click posted as a
/// follow-up, whose token edits the clicked message instead; the channel
/// API edits it).
pub async fn attach(
    app: &App,
    guild_id: i64,
    session: i64,
    message_id: i64,
    token: Option<&str>,
) -> Result<(), AppError> {
    attach_as(app, guild_id, session, message_id, token, Posting::Maybe).await
}

/// Whether the message [`attach`] records may already be on file.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Posting {
    /// A message the action just posted: no session knows it yet, so it is
    /// written without looking first.
    New,
    /// Perhaps known (a click that redrew the message it was on): when it
    /// is, with a fresh enough token, nothing is written.
    Maybe,
}

/// [`attach`], told whether the message is new ([`Posting::New`] saves a
/// read per answer).
pub async fn attach_as(
    app: &App,
    guild_id: i64,
    session: i64,
    message_id: i64,
    token: Option<&str>,
    posting: Posting,
) -> Result<(), AppError> {
    // Already known with a fresh enough token: skip the write (every click
    // on a message would otherwise queue for the write lock once more).
    let now = storage::now_ms();
    let known = if posting == Posting::New {
        None
    } else {
        let mut rtx = app.db.glance().await?;
        storage::sessions::get(&mut rtx, guild_id, session).await?
    };
    if token.is_some()
        && known.is_some_and(|s| {
            s.message_id == Some(message_id)
                && s.token_at.is_some_and(|at| now - at < TOKEN_REFRESH_MS)
        })
    {
        return Ok(());
    }
    // One statement that stands alone (it records where the session is
    // shown, whatever else happened to it): committed as it runs.
    let mut tx = app.db.write_one().await?;
    storage::sessions::attach(
        &mut tx,
        guild_id,
        session,
        message_id,
        token,
        storage::now_ms(),
    )
    .await?;
    tx.commit().await?;
    Ok(())
}

/// Expires every open session past its time (at most `limit` per call) and
/// returns what their messages should show.
pub async fn sweep(app: &App, now: i64, limit: i64) -> Result<Vec<Expired>, AppError> {
    sweep_shards(app, now, limit, None).await
}

/// The most due sessions one sweep of a shard range reads to find its own.
const SHARD_WINDOW: i64 = 5000;

/// [`sweep`] in one process of several sharing the database: with
/// `shards`, only the sessions of guilds those shards own are expired (the
/// other processes expire theirs; a session is edited by the process that
/// gets its guild's clicks). `None`: every guild's.
///
/// The filter runs here, after the read: a sweep reads up to [`SHARD_WINDOW`]
/// due sessions (in order of expiry) and keeps its own, so sessions that
/// other processes are about to expire cannot crowd out this process's.
pub async fn sweep_shards(
    app: &App,
    now: i64,
    limit: i64,
    shards: Option<ShardRange>,
) -> Result<Vec<Expired>, AppError> {
    let due = {
        let mut tx = app.db.read().await?;
        match shards {
            None => storage::sessions::due_for_expiry(&mut tx, now, limit).await?,
            Some(range) => {
                // About `limit` of ours among the others' (ours are roughly
                // `len / count` of all), twice over, within the window.
                let share = i64::from(range.count.div_ceil(range.len()));
                let window = limit
                    .saturating_mul(share)
                    .saturating_mul(2)
                    .clamp(limit, SHARD_WINDOW.max(limit));
                let mut due = storage::sessions::due_for_expiry(&mut tx, now, window).await?;
                due.retain(|s| range.owns(s.guild_id));
                due.truncate(usize::try_from(limit).unwrap_or(0));
                due
            }
        }
    };
    let mut out = Vec::new();
    for s in due {
        let mut tx = Act::housekeeping(app, s.guild_id).await?;
        let Some(version) = storage::sessions::update(
            &mut tx,
            s.id,
            s.version,
            &s.state,
            Status::Expired,
            s.expires_at,
            now,
        )
        .await?
        else {
            continue; // changed meanwhile: it is no longer idle
        };
        let secret = super::secret::of_session(&mut tx, &s).await?;
        tx.commit().await?;
        let session = storage::sessions::Session {
            version,
            status: Status::Expired,
            ..s.clone()
        };
        let owner = Caller {
            guild_id: s.guild_id,
            channel_id: s.channel_id,
            parent_id: s.parent_id,
            user_id: s.owner_id,
            name: String::new(),
            ..Caller::default()
        };
        let view = match app.registry.render(app, &session, &owner).await {
            Ok(v) => super::gm_panel::fold(v.disable_all(), &|k| app.registry.gm_of_kind(k)),
            Err(e) => {
                tracing::warn!(session = s.id, error = %e, "could not render an expired session");
                continue;
            }
        };
        // As short as its channel showed it (`verbosity`).
        let view = super::verbosity::apply_view(app, &owner, view).await;
        out.push(Expired {
            session: s.id,
            channel_id: s.channel_id,
            message_id: s.message_id,
            token: s.token.clone().zip(s.token_at),
            view,
            secret,
        });
    }
    Ok(out)
}
