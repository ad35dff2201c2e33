//! Veracity's interactive messages, one session kind (`vr`) with two views:
//! a sheet with "Rest" buttons (expires with the guild timeout), and a
//! channel's Convention board with its "Violated…" menu (never expires).

use super::buttons::VrButton;
use super::{changes, conventions, render, rest, reveal};
use crate::app::component::{Action, Click};
use crate::app::Act;
use crate::app::{sessions, App, AppError, AppResult, Caller, View};
use crate::rules::veracity::Sheet;
use crate::storage::sessions::Status;
use crate::storage::{self, sessions::Session};

pub use super::state::VrState;

/// A checked click on a Veracity message.
pub async fn click(app: &App, tx: Act, session: Session, click: &Click<'_>) -> AppResult {
    if session.kind == super::combat::KIND {
        return super::combat::click(app, tx, session, click).await;
    }
    let state: VrState = sessions::load(&session)?;
    let button = VrButton::read(&click.id.action, click.id.arg.as_deref())?;
    match (state, button) {
        (VrState::Sheet { character }, VrButton::RestStress) => {
            rest::apply(app, tx, session, click.caller, character, true).await
        }
        (VrState::Sheet { character }, VrButton::RestWound) => {
            rest::apply(app, tx, session, click.caller, character, false).await
        }
        (VrState::Board { channel }, VrButton::Violate) => {
            conventions::violate_click(app, tx, session, click, channel).await
        }
        (VrState::Sheet { character }, VrButton::Displace(slot)) => {
            changes::displace_click(app, tx, session, click.caller, character, slot).await
        }
        (
            VrState::Reveal { .. },
            b @ (VrButton::RevealShocked | VrButton::RevealNotShocked | VrButton::RevealNotGreater),
        ) => reveal::click(app, tx, session, click, b).await,
        (_, other) => Err(VrButton::unknown(other.encode().0)),
    }
}

/// A Veracity message as it stands now (for stale, expired or closed clicks).
pub async fn render_session(
    app: &App,
    session: &Session,
    _caller: &Caller,
) -> Result<View, AppError> {
    if session.kind == super::combat::KIND {
        return super::combat::tracker_view(session);
    }
    let state: VrState = sessions::load(session)?;
    let mut tx = app.db.read().await?;
    match state {
        VrState::Sheet { character } => {
            let row = storage::characters::get(&mut tx, session.guild_id, character)
                .await?
                .ok_or_else(|| AppError::user("That sheet no longer exists."))?;
            let sheet: Sheet = serde_json::from_str(&row.sheet)?;
            Ok(render::sheet_view(
                session.id,
                session.version,
                session.status == Status::Open,
                &row.name,
                &sheet,
                None,
            ))
        }
        VrState::Board { channel } => {
            conventions::board_view_of(&mut tx, session.guild_id, channel, session).await
        }
        state @ VrState::Reveal { character, .. } => {
            let name = storage::characters::get(&mut tx, session.guild_id, character)
                .await?
                .map_or_else(|| "?".to_string(), |r| r.name);
            Ok(reveal::view(
                session.id,
                session.version,
                session.status == Status::Open,
                &name,
                &state,
            ))
        }
    }
}
