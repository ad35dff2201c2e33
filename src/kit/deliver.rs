//! Getting answers to Discord despite its transient failures.
//!
//! - [`retry`]: a request that failed with a 5xx, a 429 or a dropped
//!   connection is tried again, at most [`MAX_TRIES`] times within
//!   [`BUDGET`] (an interaction must be acknowledged within 3 s). State is
//!   always committed before the answer is sent, so an answer that never
//!   arrives leaves nothing half-applied: the next click on the message
//!   re-renders the current state.
//! - [`defer`]: slow commands (charts, exports) acknowledge the interaction
//!   first ("Kismet is thinking…") and edit the answer in afterwards.
//! - [`send_first`]: sends a command's first answer, as an edit of the
//!   deferred message when the command deferred.
//! - [`answer_with_message`]: an interaction's first answer that also
//!   returns the message it made (`with_response=true`), so a reply whose
//!   buttons start a session costs one request, not two.
//! - [`redraw`] and [`edit_posted`]: edit a message posted earlier (an
//!   expired session's, a tracker a command moved on), by its interaction
//!   token while fresh, else through the channel.
//! - [`DEFER_CLICK_AFTER`]: a click whose answer is not ready by then is
//!   acknowledged first (the adapter's component handler does this).
//!
//! About 429: serenity's own rate limiter honours `Retry-After` (it is on in
//! production, so a 429 is retried there before [`retry`] sees it). With the
//! limiter off (a proxy or the fake Discord as API base) serenity 0.12 drops
//! the header before the error reaches us, so [`retry`] then waits a fixed
//! [`RATE_LIMITED_WAIT`], never more than the budget allows.

use poise::serenity_prelude as serenity;
use std::future::Future;
use std::time::{Duration, Instant};

use super::{Context, Error};

/// At most this many tries of one request.
pub const MAX_TRIES: u32 = 3;
/// Every try of one request starts within this time of the first.
pub const BUDGET: Duration = Duration::from_millis(2500);
/// The waits before the second and third try after a 5xx or a lost
/// connection.
const BACKOFF: [Duration; 2] = [Duration::from_millis(150), Duration::from_millis(450)];
/// The wait after a 429 whose `Retry-After` serenity did not pass on.
pub const RATE_LIMITED_WAIT: Duration = Duration::from_millis(1000);
/// A click not answered by then is acknowledged first (a deferred update)
/// and answered when ready: Discord fails interactions left 3 s unanswered,
/// which a burst of clicks could otherwise cause.
pub const DEFER_CLICK_AFTER: Duration = Duration::from_millis(1500);
/// A slash command not answered by then is acknowledged first (a deferred
/// message, "Kismet is thinking…") by its watchdog ([`watch`]), so slow
/// work never runs into Discord's 3-second deadline.
pub const DEFER_COMMAND_AFTER: Duration = Duration::from_millis(1000);
/// Discord's "Interaction has already been acknowledged".
const ALREADY_ACKNOWLEDGED: isize = 40060;

/// How long to wait before trying again, or `None` when the failure is not
/// transient (a 4xx, a bad body …).
fn transient(e: &serenity::Error, tries: u32) -> Option<Duration> {
    let backoff = BACKOFF[(tries.saturating_sub(1) as usize).min(BACKOFF.len() - 1)];
    match e {
        serenity::Error::Http(serenity::HttpError::UnsuccessfulRequest(r)) => {
            match r.status_code.as_u16() {
                429 => Some(RATE_LIMITED_WAIT),
                500..=599 => Some(backoff),
                _ => None,
            }
        }
        serenity::Error::Http(serenity::HttpError::Request(r))
            if r.is_connect() || r.is_timeout() =>
        {
            Some(backoff)
        }
        _ => None,
    }
}

/// Runs `attempt` until it succeeds, fails for good, or the tries or the
/// time run out; returns the last error then. `what` names the request in
/// the logs.
pub async fn retry<T, F, Fut>(what: &str, mut attempt: F) -> Result<T, serenity::Error>
where
    F: FnMut() -> Fut,
    Fut: Future<Output = Result<T, serenity::Error>>,
{
    let start = Instant::now();
    let mut tries = 0;
    loop {
        tries += 1;
        let error = match attempt().await {
            Ok(v) => {
                if tries > 1 {
                    tracing::info!(what, tries, "delivered after retrying");
                }
                return Ok(v);
            }
            Err(e) => e,
        };
        let Some(wait) = transient(&error, tries) else {
            return Err(error);
        };
        if tries >= MAX_TRIES || start.elapsed() + wait > BUDGET {
            tracing::warn!(what, tries, %error, "Discord kept failing; giving up");
            return Err(error);
        }
        tracing::warn!(what, tries, ?wait, %error, "Discord failed; trying again");
        tokio::time::sleep(wait).await;
    }
}

/// Whether an interaction callback failed only because an earlier try went
/// through after all (a 5xx after Discord had processed the request).
pub fn already_acknowledged(e: &serenity::Error) -> bool {
    matches!(
        e,
        serenity::Error::Http(serenity::HttpError::UnsuccessfulRequest(r))
            if r.error.code == ALREADY_ACKNOWLEDGED
    )
}

/// Where a slash command's first answer stands: its watchdog and its
/// answer take turns on this lock, so exactly one of them acknowledges the
/// interaction.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum FirstAnswer {
    /// Nothing sent yet.
    Pending,
    /// The watchdog deferred it (a public "thinking" placeholder).
    Deferred,
    /// The command answered or deferred by itself.
    Sent,
}

/// Every slash command being answered: its first-answer lock.
#[derive(Default)]
pub struct Watches(
    std::sync::Mutex<
        std::collections::HashMap<u64, std::sync::Arc<tokio::sync::Mutex<FirstAnswer>>>,
    >,
);

impl Watches {
    fn get(&self, id: u64) -> Option<std::sync::Arc<tokio::sync::Mutex<FirstAnswer>>> {
        self.0
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .get(&id)
            .cloned()
    }

    /// Forgets a finished interaction.
    pub fn forget(&self, id: u64) {
        self.0.lock().unwrap_or_else(|e| e.into_inner()).remove(&id);
    }
}

/// Starts a slash command's watchdog: unless the command has answered by
/// [`DEFER_COMMAND_AFTER`], it acknowledges the interaction with a deferred
/// message, and the answer is then edited in ([`send_first`]).
pub fn watch(ctx: Context<'_>) {
    let poise::Context::Application(a) = ctx else {
        return;
    };
    if a.interaction_type != poise::CommandInteractionType::Command {
        return;
    }
    let lock = std::sync::Arc::new(tokio::sync::Mutex::new(FirstAnswer::Pending));
    ctx.data()
        .watches
        .0
        .lock()
        .unwrap_or_else(|e| e.into_inner())
        .insert(super::invocation_id(ctx), lock.clone());
    let http = ctx.serenity_context().http.clone();
    let (id, token) = (a.interaction.id, a.interaction.token.clone());
    tokio::spawn(async move {
        tokio::time::sleep(DEFER_COMMAND_AFTER).await;
        let mut state = lock.lock().await;
        if *state != FirstAnswer::Pending {
            return;
        }
        let defer = serenity::CreateInteractionResponse::Defer(
            serenity::CreateInteractionResponseMessage::new(),
        );
        let sent = retry("command deferral", || {
            http.create_interaction_response(id, &token, &defer, Vec::new())
        })
        .await;
        match sent {
            Ok(()) => *state = FirstAnswer::Deferred,
            Err(e) => tracing::warn!(error = %e, "could not defer a slow command"),
        }
    });
}

/// Takes the first-answer turn of a command: marks it sent and returns the
/// guard (held while the answer goes out), noting a watchdog's deferral in
/// the command's invocation data first.
async fn first_turn(ctx: Context<'_>) -> Option<tokio::sync::OwnedMutexGuard<FirstAnswer>> {
    let lock = ctx.data().watches.get(super::invocation_id(ctx))?;
    let mut state = lock.lock_owned().await;
    if *state == FirstAnswer::Deferred {
        if let poise::Context::Application(a) = ctx {
            // poise must send what follows as follow-ups.
            a.has_sent_initial_response
                .store(true, std::sync::atomic::Ordering::SeqCst);
        }
        ctx.set_invocation_data(Deferred { ephemeral: false }).await;
    }
    *state = FirstAnswer::Sent;
    Some(state)
}

/// Remembered in the invocation data of a command that deferred.
struct Deferred {
    /// Whether the deferred answer is only for the caller.
    ephemeral: bool,
}

/// Acknowledges a slow command at once (Discord shows "Kismet is
/// thinking…"); its answer is then edited in by [`super::respond`].
/// `ephemeral` says who will see the answer (an answer of the other kind
/// replaces the placeholder with a follow-up). No-op outside slash
/// commands.
pub async fn defer(ctx: Context<'_>, ephemeral: bool) -> Result<(), Error> {
    let _turn = first_turn(ctx).await;
    if ctx.invocation_data::<Deferred>().await.is_some() {
        // The watchdog was first: the placeholder is already up.
        return Ok(());
    }
    if let poise::Context::Application(a) = ctx {
        retry("defer", || a.defer_response(ephemeral)).await?;
        ctx.set_invocation_data(Deferred { ephemeral }).await;
    }
    Ok(())
}

/// Discord's answer to an interaction callback made with
/// `with_response=true` (an *interaction callback response*); only the
/// part Kismet reads.
#[derive(serde::Deserialize)]
struct CallbackResponse {
    /// What the callback made: present for a new message (type 4) or an
    /// updated one (type 7), absent for deferrals.
    resource: Option<CallbackResource>,
}

/// The `resource` of a [`CallbackResponse`].
#[derive(serde::Deserialize)]
struct CallbackResource {
    /// The message the callback created or updated.
    message: Option<serenity::Message>,
}

/// Sends an interaction's initial response with `with_response=true` and
/// returns the message it created or updated, from Discord's answer: one
/// request where answering and then reading the message back
/// (`GET …/messages/@original`) took two. serenity 0.12 has no such call,
/// so the request is made through its [`serenity::Http`] with its own route
/// (`Route::InteractionResponse`): the same authorisation, proxy and rate
/// limiter as every other request. `None` when the answer names no message
/// (a deferral, or a Discord that answered 204).
///
/// The response must carry no files: they would need serenity's private
/// attachment numbering (callers with files use
/// [`serenity::CreateInteractionResponse`]'s own `execute` and read the
/// message back).
pub async fn answer_with_message(
    http: &serenity::Http,
    interaction: serenity::InteractionId,
    token: &str,
    response: &serenity::CreateInteractionResponse,
) -> Result<Option<serenity::Message>, serenity::Error> {
    use ::serenity::http::{LightMethod, Request, Route};
    let body = serde_json::to_vec(response)?;
    let request = Request::new(
        Route::InteractionResponse {
            interaction_id: interaction,
            token,
        },
        LightMethod::Post,
    )
    .body(Some(body))
    .params(Some(vec![("with_response", "true".to_string())]));
    let answer = http.request(request).await?;
    if answer.status() == ::serenity::http::StatusCode::NO_CONTENT {
        return Ok(None);
    }
    let bytes = answer.bytes().await?;
    let parsed: CallbackResponse = serde_json::from_slice(&bytes)?;
    Ok(parsed.resource.and_then(|r| r.message))
}

/// [`answer_with_message`] with [`retry`]; a retry that finds the
/// interaction already answered (an earlier try went through) counts as
/// answered, with no message known.
pub async fn answer_with_message_retried(
    http: &serenity::Http,
    interaction: serenity::InteractionId,
    token: &str,
    response: &serenity::CreateInteractionResponse,
    what: &str,
) -> Result<Option<serenity::Message>, serenity::Error> {
    let mut tries = 0;
    let sent = retry(what, || {
        tries += 1;
        answer_with_message(http, interaction, token, response)
    })
    .await;
    match sent {
        Err(e) if tries > 1 && already_acknowledged(&e) => Ok(None),
        other => other,
    }
}

/// Whether [`send_first`] returns the message its answer became.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Want {
    /// No: nothing is returned.
    Nothing,
    /// Yes, and the reply carries no files (learnt from the answer itself).
    Message,
    /// Yes, and the reply carries files (read back after answering: see
    /// [`answer_with_message`]).
    MessageWithFiles,
}

/// Sends a command's first answer (with [`retry`]): the initial response,
/// or an edit of the deferred placeholder when the command deferred with
/// the same visibility (a different one deletes the placeholder and follows
/// up). With `want_message`, returns the message the answer became: from
/// the answer itself ([`answer_with_message`]), read back only when Discord
/// did not say (files attached, a retried answer); `None` if it cannot be
/// learnt.
pub async fn send_first(
    ctx: Context<'_>,
    reply: poise::CreateReply,
    ephemeral: bool,
    want: Want,
) -> Result<Option<serenity::Message>, Error> {
    let want_message = want != Want::Nothing;
    let _turn = first_turn(ctx).await;
    let deferred = ctx.invocation_data::<Deferred>().await.map(|d| d.ephemeral);
    if let (Some(deferred_ephemeral), poise::Context::Application(a)) = (deferred, ctx) {
        let http = &ctx.serenity_context().http;
        if deferred_ephemeral == ephemeral {
            let msg = retry("edit of a deferred answer", || {
                let edit = reply
                    .clone()
                    .to_slash_initial_response_edit(serenity::EditInteractionResponse::new());
                a.interaction.edit_response(http, edit)
            })
            .await?;
            return Ok(Some(msg));
        }
        if let Err(e) = retry("delete of a deferred placeholder", || {
            a.interaction.delete_response(http)
        })
        .await
        {
            tracing::warn!(error = %e, "could not remove a deferred placeholder");
        }
    }
    if want == Want::Message {
        if let poise::Context::Application(a) = ctx {
            let initial = a.interaction_type == poise::CommandInteractionType::Command
                && !a
                    .has_sent_initial_response
                    .load(std::sync::atomic::Ordering::SeqCst);
            if initial {
                let http = &ctx.serenity_context().http;
                let message = a
                    .reply_builder(reply)
                    .to_slash_initial_response(serenity::CreateInteractionResponseMessage::new());
                let response = serenity::CreateInteractionResponse::Message(message);
                let (id, token) = (a.interaction.id, &a.interaction.token);
                let shown =
                    answer_with_message_retried(http, id, token, &response, "answer").await?;
                a.has_sent_initial_response
                    .store(true, std::sync::atomic::Ordering::SeqCst);
                if shown.is_some() {
                    return Ok(shown);
                }
                return match a.interaction.get_response(http).await {
                    Ok(m) => Ok(Some(m)),
                    Err(e) => {
                        tracing::warn!(error = %e, "could not read back a reply");
                        Ok(None)
                    }
                };
            }
        }
    }
    let handle = retry("answer", || ctx.send(reply.clone())).await?;
    if !want_message {
        return Ok(None);
    }
    match handle.message().await {
        Ok(m) => Ok(Some(m.into_owned())),
        Err(e) => {
            tracing::warn!(error = %e, "could not read back a reply");
            Ok(None)
        }
    }
}

/// Edits a message posted earlier: by its interaction token while the
/// token is fresh (tokens last 15 minutes), else through the channel API.
/// Returns whether it was edited; failures are logged, never raised (the
/// state is committed, and the next click on the message redraws it).
pub async fn redraw(
    http: &serenity::Http,
    posted: &crate::app::sessions::Posted,
    view: crate::app::view::View,
) -> bool {
    if let Some((token, at)) = &posted.token {
        if crate::storage::now_ms() - at < 14 * 60_000 {
            let edit = super::render::token_edit(view.clone());
            match serenity::Builder::execute(edit, http, token).await {
                Ok(_) => return true,
                Err(err) => tracing::debug!(%err, "token edit failed; trying the channel"),
            }
        }
    }
    let Some(mid) = posted.message_id else {
        return false;
    };
    let edit = super::render::channel_edit(view);
    match serenity::ChannelId::new(posted.channel_id as u64)
        .edit_message(http, serenity::MessageId::new(mid as u64), edit)
        .await
    {
        Ok(_) => true,
        Err(err) => {
            tracing::warn!(%err, message = mid, "could not redraw a message");
            false
        }
    }
}

/// Redraws the message posted for `view`'s session in `guild` (a
/// [`crate::app::Reply::Edit`]); nothing when the session or its message is
/// unknown.
pub async fn edit_posted(
    http: &serenity::Http,
    app: &crate::app::App,
    guild: i64,
    view: crate::app::view::View,
) {
    let Some(session) = view.session() else {
        tracing::warn!("an edit without a session");
        return;
    };
    match crate::app::sessions::posted(app, guild, session).await {
        Ok(Some(posted)) => {
            redraw(http, &posted, view).await;
        }
        Ok(None) => tracing::warn!(session, "an edit of an unknown session"),
        Err(e) => tracing::warn!(error = %e, session, "could not find a session's message"),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::atomic::{AtomicU32, Ordering};

    // Transient failures (5xx, 429) need a real HTTP response to build, so
    // they are tested end to end against the fake Discord (tests/e2e/robust.rs).

    #[tokio::test]
    async fn other_failures_are_not_retried() {
        let calls = AtomicU32::new(0);
        let r: Result<(), _> = retry("test", || async {
            calls.fetch_add(1, Ordering::SeqCst);
            Err(serenity::Error::Other("not transient"))
        })
        .await;
        assert!(r.is_err());
        assert_eq!(calls.load(Ordering::SeqCst), 1);
    }

    #[tokio::test]
    async fn a_success_is_returned_at_once() {
        let calls = AtomicU32::new(0);
        let r = retry("test", || async {
            calls.fetch_add(1, Ordering::SeqCst);
            Ok::<_, serenity::Error>(7)
        })
        .await;
        assert_eq!(r.unwrap(), 7);
        assert_eq!(calls.load(Ordering::SeqCst), 1);
    }
}
