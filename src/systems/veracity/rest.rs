//! A Veracity sheet's Rest buttons ("remove a Stress", "remove a Wound"):
//! a day relaxing in daylight or of rest with medical care, applied by the
//! rules core to the sheet shown.

use super::context::{Outcome, Turn};
use super::render;
use super::state::VrState;
use super::target::{entry, sheet_by_id};
use crate::app::{Act, App, AppResult, Caller, Response};
use crate::rules::veracity::Action;
use crate::storage::sessions::{Session, Status};

/// Rests `character` (a Stress when `stress`, else a Wound) and redraws
/// the sheet with a note of what happened.
pub async fn apply(
    app: &App,
    tx: Act,
    session: Session,
    caller: &Caller,
    character: i64,
    stress: bool,
) -> AppResult {
    let mut turn = Turn::click(app, tx, caller).await?;
    let mut c = sheet_by_id(&mut turn, character).await?;
    let action = if stress {
        Action::RelaxStress { slot: None }
    } else {
        Action::HealWound { slot: None }
    };
    let events = c.sheet.apply(&action, &turn.settings, &mut turn.rng())?;
    let timeout = Some(turn.guild.session_timeout_minutes);
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
    let log = entry("rest", &action, &events)
        .character(c.row.id)
        .on_session();
    let (name, sheet) = (c.name().to_string(), c.sheet.clone());
    let out = Outcome::new(move |s| {
        Response::update(render::sheet_view(
            s.id,
            s.version,
            true,
            &name,
            &sheet,
            Some(&note),
        ))
    })
    .save(
        session,
        &VrState::Sheet { character },
        Status::Open,
        timeout,
    )
    .sheet(c)
    .log(log);
    turn.finish(out).await
}
