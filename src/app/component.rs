//! Buttons and selects: the custom_id format and the global dispatcher.
//!
//! A custom_id reads `kind:session:version:action[:arg]`, with the session
//! id and version in base 36, e.g. `roll:1z:3:reroll`. The kind names the
//! system that owns the session ([`crate::systems`]); the version lets a
//! stale or double click be recognised and answered with the current state
//! instead of being applied twice.

use crate::app::gm_panel::{self, Panel};
use crate::app::Act;
use crate::app::{App, AppError, AppResult, Caller, Reply, Response, View};
use crate::storage::sessions::Status;
use crate::storage::{self, sessions::Session};

pub use super::custom_id::{from_base36, to_base36, Action, ButtonId, Click};

/// Handles any click: finds the session (in the caller's guild only),
/// answers stale clicks with the current state, and hands the rest to the
/// owning system inside one write transaction. The answer goes out through
/// [`super::present`], as a command's does.
pub async fn dispatch(app: &App, caller: &Caller, custom_id: &str, values: &[String]) -> AppResult {
    let id = ButtonId::parse(custom_id).ok_or_else(|| {
        AppError::user(
            "That button is not one I recognise; it may belong to an older version of the bot.",
        )
    })?;
    if values.len() > 25 || values.iter().any(|v| v.len() > 100) {
        return Err(AppError::user("That selection is not valid."));
    }
    let split = gm_panel::split(&id);
    let kind = split.as_ref().map_or(&id.kind, |(_, inner)| &inner.kind);
    super::games::allows_click(app, caller, kind).await?;
    match split {
        Some((what, inner)) => panel_click(app, caller, what, inner, values).await,
        None => dispatch_id(app, caller, &id, values).await,
    }
}

/// A button of the game master's private panel ([`gm_panel`]): opens it,
/// asks to confirm a destructive tool, or runs a tool as the roll's own
/// button would and redraws the roll.
async fn panel_click(
    app: &App,
    caller: &Caller,
    what: Panel,
    inner: ButtonId,
    values: &[String],
) -> AppResult {
    let mut rtx = app.db.read().await?;
    let session = storage::sessions::get(&mut rtx, caller.guild_id, inner.session)
        .await?
        .filter(|s| s.kind == inner.kind)
        .ok_or_else(|| AppError::user("That roll no longer exists (or never did)."))?;
    let current = app.registry.render(app, &session, caller).await?;
    let gm = current
        .gm_word
        .clone()
        .unwrap_or_else(|| app.registry.gm_of_kind(&inner.kind));
    super::rights::require_gm(&mut rtx, caller, &gm, "use these tools").await?;
    drop(rtx);
    let tools = gm_panel::tools(&current);
    let tool = tools
        .iter()
        .find(|b| {
            ButtonId::parse(&b.custom_id)
                .is_some_and(|t| t.action == inner.action && t.arg == inner.arg)
        })
        .cloned();
    let changed = session.version != inner.version || !session.status.is_open();
    let refreshed = |note: &str| Ok(Response::update(gm_panel::panel(&tools, &gm, Some(note))));
    match what {
        Panel::Open => Ok(Response::ephemeral(gm_panel::panel(&tools, &gm, None))),
        Panel::Back => Ok(Response::update(gm_panel::panel(&tools, &gm, None))),
        Panel::Confirm | Panel::Run if changed => {
            refreshed("The roll changed meanwhile; these are its tools now.")
        }
        Panel::Confirm => match &tool {
            Some(t) => Ok(Response::update(gm_panel::confirm(t, &gm))),
            None => refreshed("That tool no longer applies to this roll."),
        },
        Panel::Run => {
            let Some(t) = tool else {
                return refreshed("That tool no longer applies to this roll.");
            };
            let r = dispatch_id(app, caller, &inner, values).await?;
            Ok(gm_panel::after_run(
                r,
                session.id,
                &gm,
                &format!("✅ Done: {}.", t.label),
            ))
        }
    }
}

/// A roll's own button or menu, parsed.
async fn dispatch_id(app: &App, caller: &Caller, id: &ButtonId, values: &[String]) -> AppResult {
    let id = id.clone();
    // Unknown and stale clicks (double clicks, old messages) are answered
    // from a read ([`readable`]).
    let known = readable(app, caller, &id).await?;
    if known.version != id.version {
        return stale(app, &known, caller).await;
    }
    let mut tx = Act::begin(app, caller).await?;
    let session = storage::sessions::get(&mut tx, caller.guild_id, id.session)
        .await?
        .filter(|s| s.kind == id.kind)
        .ok_or_else(gone)?;
    // Clicks on a secret roll stay secret (logged as such, new sessions marked).
    let secret_caller;
    let caller = if !caller.secret
        && super::secret::of_session(&mut tx, &session)
            .await?
            .is_some()
    {
        secret_caller = caller.clone().secretly(true);
        &secret_caller
    } else {
        caller
    };
    let click = Click {
        id: &id,
        values,
        caller,
    };
    if session.version != id.version {
        // A double click or an old message: show the current state, change nothing.
        drop(tx);
        return stale(app, &session, caller).await;
    }
    // Measured on the application's clock, as the session's expiry was.
    let now = app.clock.now_ms();
    if session.status == Status::Open && session.expires_at.is_some_and(|t| t <= now) {
        return expire(app, tx, &session, caller, now).await;
    }
    if session.status != Status::Open {
        drop(tx);
        let view = app.registry.render(app, &session, caller).await?;
        let note = closed_note(session.status, &app.registry.gm_of_kind(&session.kind))
            .unwrap_or_else(|| "That roll is already finished.".into());
        return Ok(Response::update(view).then(Reply::Ephemeral(View::text(note))));
    }
    app.registry.click(app, tx, session, &click).await
}

/// The clicked session, read without queueing for the write lock, if the
/// caller may see it (unknown and stale clicks are answered from this read:
/// under a burst of clicks most are stale, and versions only grow, so a
/// stale read is final). No transaction around it (one lookup, and the
/// guild's settings only for a secret session).
async fn readable(app: &App, caller: &Caller, id: &ButtonId) -> Result<Session, AppError> {
    let mut rtx = app.db.glance().await?;
    let known = storage::sessions::get(&mut rtx, caller.guild_id, id.session)
        .await?
        .filter(|s| s.kind == id.kind)
        .ok_or_else(gone)?;
    // Who may see the roll is settled before anything about it is
    // shown (its current state for a stale click, a refusal naming its
    // roller): to anyone else a secret roll is one that never was.
    if !super::secret::may_see(&mut rtx, &known, caller).await? {
        return Err(gone());
    }
    Ok(known)
}

/// A click on a roll whose time ran out: it is marked expired now and
/// redrawn so, and the clicker told.
async fn expire(app: &App, mut tx: Act, session: &Session, caller: &Caller, now: i64) -> AppResult {
    let mut expired = session.clone();
    if let Some(v) = storage::sessions::update(
        &mut tx,
        session.id,
        session.version,
        &session.state,
        Status::Expired,
        session.expires_at,
        now,
    )
    .await?
    {
        expired.version = v;
        expired.status = Status::Expired;
    }
    tx.commit().await?;
    let view = app.registry.render(app, &expired, caller).await?;
    Ok(Response::update(view).then(Reply::Ephemeral(View::text(
        "That roll timed out, so its buttons no longer do anything.",
    ))))
}

/// The answer to a click on a roll the caller cannot reach: one that no
/// longer exists, never did, or is another member's secret.
fn gone() -> AppError {
    AppError::user("That roll no longer exists (or never did).")
}

async fn stale(app: &App, session: &Session, caller: &Caller) -> AppResult {
    let view = app.registry.render(app, session, caller).await?;
    let response = Response::update(view);
    // A double click on a button that finished the roll needs no note; a
    // timeout or a void the clicker may not have seen does.
    Ok(match session.status {
        Status::Expired | Status::Voided => {
            match closed_note(session.status, &app.registry.gm_of_kind(&session.kind)) {
                Some(note) => response.then(Reply::Ephemeral(View::text(note))),
                None => response,
            }
        }
        _ => response,
    })
}

/// Why a closed session's buttons do nothing (`gm`: the owning system's
/// word for the game master).
fn closed_note(status: Status, gm: &str) -> Option<String> {
    match status {
        Status::Open => None,
        Status::Expired => {
            Some("That roll timed out, so its buttons no longer do anything.".into())
        }
        Status::Voided => Some(format!("The {gm} voided that roll.")),
        _ => Some("That roll is already finished.".into()),
    }
}
