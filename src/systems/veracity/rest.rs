//! A Veracity sheet's Rest buttons ("remove a Stress", "remove a Wound"):
//! a day relaxing in daylight or of rest with medical care, applied by the
//! rules core to the sheet shown.

use super::render;
use super::state::VrState;
use super::target::{record, settings, sheet_by_id};
use crate::app::characters;
use crate::app::settings as app_settings;
use crate::app::{sessions, Act, App, AppResult, Caller, Response};
use crate::rules::veracity::Action;
use crate::storage::sessions::{Session, Status};

/// Rests `character` (a Stress when `stress`, else a Wound) and redraws
/// the sheet with a note of what happened.
pub async fn apply(
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
