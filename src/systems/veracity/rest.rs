//! A Veracity sheet's buttons: the Rest buttons ("remove a Stress",
//! "remove a Wound": a day relaxing in daylight or of rest with medical
//! care) and "Lose Flesh N" (the owner's choice of what a pending
//! heart-attack Wound displaces), applied by the rules core to the sheet
//! shown and redrawn in place.

use super::context::{Outcome, Turn};
use super::render;
use super::state::VrState;
use super::target::{entry, sheet_by_id};
use crate::app::pipeline::Shown;
use crate::app::{Act, App, AppResult, Caller, Response, View};
use crate::rules::veracity::{Action, Event, Sheet};
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
    let (action, how) = if stress {
        (
            Action::RelaxStress { slot: None },
            "🌞 A day relaxing in daylight",
        )
    } else {
        (
            Action::HealWound { slot: None },
            "🩹 A day of rest with medical care",
        )
    };
    // The member's display name reads as typed in the note.
    let who = crate::app::view::escape(&caller.name);
    let turn = Turn::click(app, tx, caller).await?;
    pressed(
        turn,
        session,
        character,
        action,
        "rest",
        move |s, name, sheet, events| {
            let note = format!("{how} ({who}): {}", render::event_lines(events).join("; "));
            render::sheet_view(s.id, s.version, true, name, sheet, Some(&note))
        },
    )
    .await
}

/// A click on "Lose Flesh N": the owner (or the referee) gives up that
/// item to one pending heart-attack Wound (issue 14, A-R4).
pub async fn displace(
    app: &App,
    tx: Act,
    session: Session,
    caller: &Caller,
    character: i64,
    slot: u32,
) -> AppResult {
    let turn = Turn::click(app, tx, caller).await?;
    let action = Action::PlaceWound { slot };
    pressed(
        turn,
        session,
        character,
        action,
        "place_wound",
        |s, name, sheet, events| {
            let v = render::change_view(name, "gives up a Flesh item to a Wound", sheet, events);
            render::displace_rows(v, s.id, s.version, sheet, true)
        },
    )
    .await
}

/// A press on a sheet's button: `action` applied to `character`'s sheet
/// (logged as `word`, with the session), the message redrawn in place by
/// `draw` from the session written, the sheet's name, the sheet after and
/// what happened.
async fn pressed(
    mut turn: Turn<'_>,
    session: Session,
    character: i64,
    action: Action,
    word: &str,
    draw: impl FnOnce(&Shown, &str, &Sheet, &[Event]) -> View + Send + 'static,
) -> AppResult {
    let mut c = sheet_by_id(&mut turn, character).await?;
    let events = c.sheet.apply(&action, &turn.settings, &mut turn.rng())?;
    let timeout = Some(turn.guild.session_timeout_minutes);
    let log = entry(word, &action, &events)
        .character(c.row.id)
        .on_session();
    let (name, sheet) = (c.name().to_string(), c.sheet.clone());
    let out = Outcome::new(move |s| Response::update(draw(s, &name, &sheet, &events)))
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
