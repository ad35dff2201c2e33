//! Delivering secret rolls (see [`crate::app::secret`]).
//!
//! A secret command's public messages become private replies to the roller,
//! and a copy of each is posted in the GM channel (a channel message). Both
//! copies carry the same buttons; a click on either goes through the usual
//! session and version check, is answered on the clicked copy, and the other
//! copy is edited to match (the GM copy through the channel API, the
//! roller's private copy through their latest interaction token while it is
//! fresh; a stale copy re-draws itself on its next click). Expired secret
//! sessions get both copies disabled.

use poise::serenity_prelude as serenity;
use serenity::ComponentInteraction;

use super::{caller_of, deliver, render, respond, signal_done, Context, Data, Error};
use crate::app::component::ButtonId;
use crate::app::secret::{self, SecretSession};
use crate::app::{expiry, App, AppResult, Caller, Reply, Response, View};

/// Interaction tokens last 15 minutes; edits stop trusting them after 14.
const TOKEN_FRESH_MS: i64 = 14 * 60_000;

/// The caller of a roll-starting command, acting secretly when `secret` is
/// true. A secret roll needs a GM channel: without one the roller is told
/// so privately and `None` comes back (run nothing then).
pub async fn secret_caller(
    ctx: Context<'_>,
    secret: Option<bool>,
) -> Result<Option<Caller>, Error> {
    let caller = caller_of(ctx)?.secretly(secret.unwrap_or(false));
    match secret::check(&ctx.data().app, &caller).await {
        Ok(_) => Ok(Some(caller)),
        Err(e) => {
            respond(ctx, Err(e)).await?;
            Ok(None)
        }
    }
}

/// Like [`respond`], for an action of `caller`: when the caller acts
/// secretly, its public messages go to them privately and a copy of each
/// is posted in the GM channel. The interaction is answered first: the GM
/// channel's copy never holds up Discord's 3-second deadline.
pub async fn respond_as(ctx: Context<'_>, caller: &Caller, result: AppResult) -> Result<(), Error> {
    let response = match result {
        Ok(r) if caller.secret => r,
        other => return respond(ctx, other).await,
    };
    let app = &ctx.data().app;
    // The game master's tools fold behind one ⚙ button here too: the
    // roller's private copy shows none of them.
    let response = crate::app::gm_panel::fold_response(&app.registry, response);
    // A secret session redrawn in place ([`Reply::Edit`]): both its copies
    // are, after the answer (its own posted message is the roller's copy).
    let (response, edits) = secret_edits(app, caller.guild_id, response).await;
    let gm = secret::check(app, caller).await.ok().flatten();
    let root = super::root_name(ctx);
    let word = app
        .registry
        .by_root(&root)
        .map_or(crate::app::registry::GENERIC_GM, |s| s.gm());
    let (private, copies) = split(response, Some(&secret::roller_note(word)));
    if let (Some(s), poise::Context::Application(a)) = (reply_session(&private), ctx) {
        let token = a.interaction.token.clone();
        remember(app, caller.guild_id, s, move |m| {
            m.token = Some(token);
            m.token_at = Some(crate::storage::now_ms());
        })
        .await;
    }
    let answered = super::send(ctx, Ok(private)).await;
    for (marker, view) in edits {
        edit_copies(ctx.http(), &marker, view).await;
    }
    let note = secret::gm_note(&caller.name, caller.channel_id);
    let mut problems = Vec::new();
    for view in copies {
        let Some(gm) = gm else {
            problems.push("No GM channel is set any more, so the FC got no copy.".to_string());
            break;
        };
        let session = view.session();
        match post(ctx.http(), gm, noted(view, &note)).await {
            Ok(mid) => {
                if let Some(s) = session {
                    remember(app, caller.guild_id, s, |m| {
                        m.gm_channel = Some(gm);
                        m.gm_message = Some(mid);
                    })
                    .await;
                }
            }
            Err(e) => {
                tracing::warn!(error = %e, gm, "could not post a secret roll's copy");
                problems.push(format!(
                    "I could not post the FC's copy in <#{gm}> (do I have access to it?); the roll is in the log."
                ));
            }
        }
    }
    for p in problems {
        let note = render::note_reply(format!("⚠️ {p}"), true);
        if let Err(e) = deliver::retry("secret roll note", || ctx.send(note.clone())).await {
            tracing::warn!(error = %e, "could not tell the roller about the GM copy");
        }
    }
    signal_done(ctx.data(), super::invocation_id(ctx));
    answered
}

/// What to do around a click on a secret session's button.
pub struct ClickPlan {
    session: i64,
    guild: i64,
    marker: SecretSession,
    /// The click came from the GM channel (on the FC's copy).
    in_gm: bool,
    /// New messages to copy into the GM channel.
    copies: Vec<View>,
    /// The clicked copy's new look, for the other copy.
    mirror: Option<View>,
}

/// Turns the answer to a click on a secret session into private replies
/// (unless the click came from the GM channel itself) and says what else to
/// do once it is sent; clicks on other sessions pass through unchanged.
pub async fn plan_click(
    app: &App,
    ci: &ComponentInteraction,
    result: AppResult,
) -> (AppResult, Option<ClickPlan>) {
    let (Ok(response), Some(guild)) = (&result, ci.guild_id) else {
        return (result, None);
    };
    let Some(id) = ButtonId::parse(&ci.data.custom_id) else {
        return (result, None);
    };
    let guild = guild.get() as i64;
    let marker = match secret::lookup(app, guild, id.session).await {
        Ok(Some(m)) => m,
        Ok(None) => return (result, None),
        Err(e) => {
            tracing::warn!(error = %e, session = id.session, "could not read a secret marker");
            return (result, None);
        }
    };
    let in_gm = marker.gm_channel == Some(ci.channel_id.get() as i64);
    let mirror = match &response.reply {
        Reply::Update(v) => Some(v.clone()),
        _ => None,
    };
    let (response, copies) = if in_gm {
        (response.clone(), Vec::new())
    } else {
        split(response.clone(), None)
    };
    let plan = ClickPlan {
        session: id.session,
        guild,
        marker,
        in_gm,
        copies,
        mirror,
    };
    (Ok(response), Some(plan))
}

/// After a click on a secret session was answered: mirror the change onto
/// the other copy and post copies of new messages in the GM channel.
pub async fn finish_click(
    ctx: &serenity::Context,
    data: &Data,
    ci: &ComponentInteraction,
    plan: Option<ClickPlan>,
) {
    let Some(plan) = plan else { return };
    let app = &data.app;
    if let Some(view) = plan.mirror {
        if plan.in_gm {
            if let (Some(token), Some(at)) = (&plan.marker.token, plan.marker.token_at) {
                if crate::storage::now_ms() - at < TOKEN_FRESH_MS {
                    edit_by_token(&ctx.http, token, view).await;
                }
            }
        } else {
            if let (Some(ch), Some(mid)) = (plan.marker.gm_channel, plan.marker.gm_message) {
                edit_in_channel(&ctx.http, ch, mid, view).await;
            }
            let token = ci.token.clone();
            remember(app, plan.guild, plan.session, move |m| {
                m.token = Some(token);
                m.token_at = Some(crate::storage::now_ms());
            })
            .await;
        }
    }
    let Some(gm) = plan.marker.gm_channel else {
        return;
    };
    let who = ci
        .member
        .as_ref()
        .map(|m| m.display_name().to_string())
        .unwrap_or_else(|| ci.user.display_name().to_string());
    let note = secret::gm_note(&who, ci.channel_id.get() as i64);
    for view in plan.copies {
        let session = view.session();
        match post(&ctx.http, gm, noted(view, &note)).await {
            Ok(mid) => {
                if let Some(s) = session {
                    remember(app, plan.guild, s, |m| {
                        m.gm_channel = Some(gm);
                        m.gm_message = Some(mid);
                    })
                    .await;
                }
            }
            Err(e) => tracing::warn!(error = %e, gm, "could not post a secret roll's copy"),
        }
    }
}

/// Takes the [`Reply::Edit`]s of secret sessions out of a response, each
/// with its session's copies; other replies stay.
async fn secret_edits(
    app: &App,
    guild: i64,
    response: Response,
) -> (Response, Vec<(SecretSession, View)>) {
    let mut edits = Vec::new();
    let mut followups = Vec::new();
    for f in response.followups {
        let marker = match &f {
            Reply::Edit(v) => match v.session() {
                Some(s) => secret::lookup(app, guild, s).await.ok().flatten(),
                None => None,
            },
            _ => None,
        };
        match (marker, f) {
            (Some(m), Reply::Edit(v)) => edits.push((m, v)),
            (_, f) => followups.push(f),
        }
    }
    let reply = response.reply;
    (Response { reply, followups }, edits)
}

/// Redraws both copies of a secret session: the GM channel's through the
/// channel API, the roller's private copy through their latest interaction
/// token while it is fresh (a stale copy re-draws itself on its next click).
async fn edit_copies(http: &serenity::Http, marker: &SecretSession, view: View) {
    if let (Some(ch), Some(mid)) = (marker.gm_channel, marker.gm_message) {
        edit_in_channel(http, ch, mid, view.clone()).await;
    }
    if let (Some(token), Some(at)) = (&marker.token, marker.token_at) {
        if crate::storage::now_ms() - at < TOKEN_FRESH_MS {
            edit_by_token(http, token, view).await;
        }
    }
}

/// Disables the buttons of both copies of an expired secret session (the
/// usual expiry edit handles the message it knows).
pub async fn edit_expired_copies(http: &serenity::Http, e: &expiry::Expired) {
    let Some(marker) = &e.secret else { return };
    if let (Some(ch), Some(mid)) = (marker.gm_channel, marker.gm_message) {
        edit_in_channel(http, ch, mid, e.view.clone()).await;
    }
    if let (Some(token), Some(at)) = (&marker.token, marker.token_at) {
        let fresh = crate::storage::now_ms() - at < TOKEN_FRESH_MS;
        let known = e.token.as_ref().is_some_and(|(t, _)| t == token);
        if fresh && !known {
            edit_by_token(http, token, e.view.clone()).await;
        }
    }
}

/// Splits a response into what the roller sees (public messages made
/// private; the first one noted with `note`, if any) and the views to copy
/// into the GM channel.
fn split(response: Response, note: Option<&str>) -> (Response, Vec<View>) {
    let mut copies = Vec::new();
    let mut noted_once = note.is_none();
    let mut private = |reply: Reply, copies: &mut Vec<View>| match reply {
        Reply::Message(v) => {
            copies.push(v.clone());
            let v = if noted_once {
                v
            } else {
                noted_once = true;
                noted(v, note.unwrap_or_default())
            };
            Reply::Ephemeral(v)
        }
        other => other,
    };
    let reply = private(response.reply, &mut copies);
    let followups = response
        .followups
        .into_iter()
        .map(|f| private(f, &mut copies))
        .collect();
    (Response { reply, followups }, copies)
}

/// The session shown by a response's first reply.
fn reply_session(r: &Response) -> Option<i64> {
    match &r.reply {
        Reply::Message(v) | Reply::Ephemeral(v) | Reply::Update(v) | Reply::Edit(v) => v.session(),
    }
}

/// The view with a line of text above it.
fn noted(mut view: View, note: &str) -> View {
    view.content = Some(match view.content.take() {
        Some(c) if !c.is_empty() => format!("{note}\n{c}"),
        _ => note.to_string(),
    });
    view
}

async fn remember(app: &App, guild: i64, session: i64, change: impl FnOnce(&mut SecretSession)) {
    if let Err(e) = secret::update(app, guild, session, change).await {
        tracing::warn!(error = %e, session, "could not record a secret roll's copies");
    }
}

/// How long the copy in the GM channel may take before the roller is
/// answered anyway (an interaction must be answered within 3 seconds).
const POST_TIMEOUT: std::time::Duration = std::time::Duration::from_millis(1500);

async fn post(http: &serenity::Http, channel: i64, view: View) -> Result<i64, serenity::Error> {
    if channel <= 0 {
        return Err(serenity::Error::Other("no such channel"));
    }
    tokio::time::timeout(POST_TIMEOUT, send(http, channel, view))
        .await
        .unwrap_or(Err(serenity::Error::Other(
            "the GM channel did not answer in time",
        )))
}

async fn send(http: &serenity::Http, channel: i64, view: View) -> Result<i64, serenity::Error> {
    let m = render::channel_message(view);
    let msg = serenity::ChannelId::new(channel as u64)
        .send_message(http, m)
        .await?;
    Ok(msg.id.get() as i64)
}

async fn edit_in_channel(http: &serenity::Http, channel: i64, message: i64, view: View) {
    if channel <= 0 || message <= 0 {
        return;
    }
    let edit = render::channel_edit(view);
    if let Err(e) = serenity::ChannelId::new(channel as u64)
        .edit_message(http, serenity::MessageId::new(message as u64), edit)
        .await
    {
        tracing::warn!(error = %e, channel, message, "could not update a secret roll's GM copy");
    }
}

async fn edit_by_token(http: &serenity::Http, token: &str, view: View) {
    let edit = render::token_edit(view);
    if let Err(e) = serenity::Builder::execute(edit, http, token).await {
        tracing::debug!(error = %e, "could not update a secret roll's private copy");
    }
}
