//! Veracity's interactive messages, one session kind (`vr`) with two views:
//! a sheet with "Rest" buttons (expires with the guild timeout), and a
//! channel's Convention board with its "Violated…" menu (never expires).

use serde::{Deserialize, Serialize};

use super::conventions;
use super::render;
use super::target::{record, settings, sheet_by_id};
use crate::app::characters;
use crate::app::component::Click;
use crate::app::settings as app_settings;
use crate::app::{sessions, App, AppError, AppResult, Caller, Response, View};
use crate::rules::veracity::{Action, Sheet};
use crate::storage::{self, sessions::Session};
use crate::storage::sessions::Status;
use crate::app::Act;

/// What a Veracity session shows.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "view", rename_all = "snake_case")]
pub enum VrState {
    /// A sheet, by character row id.
    Sheet {
        /// The character's row id.
        character: i64,
    },
    /// The Convention board of a channel.
    Board {
        /// The channel.
        channel: i64,
    },
}

/// A checked click on a Veracity message.
pub async fn click(app: &App, tx: Act, session: Session, click: &Click<'_>) -> AppResult {
    let state: VrState = sessions::load(&session)?;
    match (state, click.id.action.as_str()) {
        (VrState::Sheet { character }, "rest_stress") => {
            rest(app, tx, session, click.caller, character, true).await
        }
        (VrState::Sheet { character }, "rest_wound") => {
            rest(app, tx, session, click.caller, character, false).await
        }
        (VrState::Board { channel }, "violate") => {
            conventions::violate_click(app, tx, session, click, channel).await
        }
        (_, other) => Err(AppError::user(format!(
            "Unknown action `{other}` for this message."
        ))),
    }
}

async fn rest(
    app: &App,
    mut tx: Act,
    session: Session,
    caller: &Caller,
    character: i64,
    stress: bool,
) -> AppResult {
    let mut c = sheet_by_id(&mut tx, caller, character).await?;
    let settings = settings(&mut tx, caller.guild_id).await?;
    let action = if stress {
        Action::RelaxStress { slot: None }
    } else {
        Action::HealWound { slot: None }
    };
    let events = c.sheet.apply(&action, &settings, &mut app.rng.fork())?;
    characters::save(&mut tx, &mut c).await?;
    let timeout = app_settings::guild(&mut tx, caller.guild_id)
        .await?
        .session_timeout_minutes;
    let state = VrState::Sheet { character };
    let version = sessions::save(&mut tx, &session, &state, Status::Open, Some(timeout)).await?;
    record(
        &mut tx,
        caller,
        "rest",
        Some(session.id),
        Some(c.row.id),
        &action,
        &events,
    )
    .await?;
    tx.commit().await?;
    let note = format!(
        "{} ({}): {}",
        if stress {
            "🌞 A day relaxing in daylight"
        } else {
            "🩹 A day of rest with medical care"
        },
        caller.name,
        render::event_lines(&events).join("; ")
    );
    Ok(Response::update(render::sheet_view(
        session.id,
        version,
        true,
        c.name(),
        &c.sheet,
        Some(&note),
    )))
}

/// A Veracity message as it stands now (for stale, expired or closed clicks).
pub async fn render_session(
    app: &App,
    session: &Session,
    _caller: &Caller,
) -> Result<View, AppError> {
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
    }
}
