//! The spotlight at the table (seed 000, "The game progresses in turns"):
//! one tracker per channel, a session of kind [`KIND`] with no timeout
//! whose state is the rules core's [`Spotlight`]. The FC starts it, sets
//! scenes, passes the turn for anyone, seats anyone's character, puts seats
//! on hold (characters not in the scene), removes seats and ends it;
//! players join and leave with the tracker's **Join** and **Leave**, pass
//! on their own turn (**Pass**), and offer to introduce the next scene, which the FC allows (**Allow scene**) or declines. A
//! player who introduces a scene earns Ego if they do not hold it: the FC
//! naming them in `/ve spotlight scene introduced_by:` or allowing their
//! offer is the FC's confirmation the seed asks for.
//!
//! Commands that change the tracker redraw its posted message in place
//! ([`Response::edit`]); its buttons update it ([`Response::update`]).

use super::context::{Outcome, Turn};
use super::record::{SpotlightAt, SpotlightInputs};
use super::spotlight_buttons::SpotlightButton;
use super::spotlight_view::view;
use super::{fc_words, GM, HINT, SYSTEM};
use crate::app::characters::{self, Access, Loaded, Pick};
use crate::app::component::Click;
use crate::app::pipeline::Record;
use crate::app::view::{clean, escape};
use crate::app::{log, sessions, Act, App, AppError, AppResult, Caller, Response, View};
use crate::rules::turns::Seat;
use crate::rules::venus::spotlight::{earns_ego, Passed, SeatData, Spotlight};
use crate::rules::venus::VenusSheet;
use crate::storage::characters::Character;
use crate::storage::sessions::{Session, Status};
use crate::systems::table::encounter;

pub use super::spotlight_view::KIND;

const WHAT: &str = "spotlight";
const START: &str = "`/ve-gm spotlight start`";

/// `/ve spotlight show`: the spotlight posted again at the bottom of the
/// channel ([`encounter::show`]).
pub async fn show(app: &App, caller: &Caller) -> AppResult {
    encounter::show(app, caller, KIND, WHAT, START).await
}
const END: &str = "`/ve-gm spotlight end`";

/// The spotlight running in the caller's channel.
async fn running(turn: &mut Turn<'_>) -> Result<(Session, Spotlight), AppError> {
    let caller = turn.caller().clone();
    let session = encounter::require_running_in(turn.tx(), &caller, KIND, WHAT, START).await?;
    let sp: Spotlight = sessions::load(&session)?;
    Ok((session, sp))
}

/// The caller's active character, which **Join** seats and an unseated
/// player's scene offer names.
async fn active_row(turn: &mut Turn<'_>) -> Result<Character, AppError> {
    let (caller, pick) = (turn.caller().clone(), Pick::new(None, None));
    characters::resolve_row(turn.tx(), &caller, false, SYSTEM, pick, Access::Owner, HINT).await
}

/// Seats the character of `row`, noted on the tracker.
fn join(sp: &mut Spotlight, row: &Character) -> Result<(), AppError> {
    sp.join(&row.name, Some(row.owner_id), Some(row.id))
        .map_err(fc_words)?;
    sp.note(format!("➕ {} joins.", clean(&row.name)));
    Ok(())
}

/// Removes `seat` from the turns, noted on the tracker.
fn leave(sp: &mut Spotlight, seat: &Seat<SeatData>) -> Result<(), AppError> {
    sp.remove(seat.id).map_err(fc_words)?;
    sp.note(format!("➖ {} leaves.", seat.shown()));
    Ok(())
}

/// The log entry `spotlight_<action>`: where the spotlight stands after it.
fn entry(sp: &Spotlight, action: &str, character: Option<i64>) -> Record {
    let at = SpotlightAt {
        scene: sp.scene,
        round: sp.round,
        turn: sp.turns.current_seat().map(|s| s.name.clone()),
    };
    let inputs = SpotlightInputs {
        action: action.to_string(),
    };
    Record::new(&format!("spotlight_{action}"), &inputs, &at)
        .dice(&log::NO_DICE, Vec::new())
        .on_session()
        .character(character)
}

/// The tracker saved with `status` and `action` logged; answered by
/// `answer` from the tracker as saved.
fn stored(
    session: Session,
    sp: &Spotlight,
    status: Status,
    (action, character): (&str, Option<i64>),
    answer: impl FnOnce(View) -> Response + Send + 'static,
) -> Outcome {
    let e = entry(sp, action, character);
    let shown = sp.clone();
    let id = session.id;
    Outcome::new(move |s| answer(view(id, s.version, status, &shown)))
        .save(session, sp, status, None)
        .log(e)
}

/// A change a command made: saved, and the posted tracker redrawn in
/// place with `note` for the caller.
fn changed(
    session: Session,
    sp: &Spotlight,
    action: &str,
    character: Option<i64>,
    note: String,
) -> Outcome {
    stored(session, sp, Status::Open, (action, character), move |v| {
        Response::edit(note, v)
    })
}

/// `/ve-gm spotlight start`: the FC starts the channel's spotlight, setting
/// the first scene when `title` is given.
pub async fn start(app: &App, caller: &Caller, title: Option<&str>) -> AppResult {
    let mut turn = Turn::begin(app, caller).await?;
    turn.require_gm(GM, "start the spotlight")?;
    encounter::refuse_second_in(turn.tx(), caller, KIND, WHAT, END).await?;
    let mut sp = Spotlight::new();
    if let Some(t) = title {
        sp.new_scene(t, None).map_err(fc_words)?;
        sp.note(format!("🎬 The {GM} sets scene 1: {}.", escape(&sp.title)));
    }
    let e = entry(&sp, "start", None);
    let shown = sp.clone();
    let out = Outcome::new(move |s| Response::message(view(s.id, s.version, Status::Open, &shown)))
        .start(KIND, &sp, Status::Open, None)
        .log(e);
    turn.finish(out).await
}

/// What `/ve-gm spotlight seat` makes of a character's seat.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum SeatState {
    /// In the turns: seated if not yet in the order, back from hold if held.
    Seated,
    /// On hold: not in this scene, its turn is skipped.
    Held,
    /// Out of the spotlight's order.
    Removed,
}

/// `/ve-gm spotlight seat`: the FC seats anyone's character (`player`'s,
/// or their own, by name), puts a seat on hold or back in the turns, or
/// removes it. Players join and leave with the tracker's **Join** and
/// **Leave**.
pub async fn seat(
    app: &App,
    caller: &Caller,
    name: &str,
    player: Option<i64>,
    state: SeatState,
) -> AppResult {
    let mut turn = Turn::begin(app, caller).await?;
    turn.require_gm(GM, "seat, hold or remove a character in the spotlight")?;
    let (session, mut sp) = running(&mut turn).await?;
    let seated = sp.turns.by_name(name).cloned();
    let (action, character, line) = match (state, seated) {
        (SeatState::Seated, None) => {
            let pick = Pick::new(Some(name), player);
            let row =
                characters::resolve_row(turn.tx(), caller, true, SYSTEM, pick, Access::Owner, HINT)
                    .await?;
            join(&mut sp, &row)?;
            (
                "join",
                Some(row.id),
                format!("✅ {} joins the spotlight.", clean(&row.name)),
            )
        }
        (_, None) => {
            return Err(AppError::user(format!(
            "No one called {} is in the spotlight's order: seat them first with `state:Seated`.",
            name.trim()
        )))
        }
        (SeatState::Removed, Some(seat)) => {
            leave(&mut sp, &seat)?;
            (
                "remove",
                seat.character,
                format!("✅ {} leaves the spotlight.", seat.shown()),
            )
        }
        (SeatState::Seated | SeatState::Held, Some(seat)) => {
            let held = state == SeatState::Held;
            sp.hold(seat.id, held).map_err(fc_words)?;
            let line = if held {
                format!("⏸ {} is on hold.", seat.shown())
            } else {
                format!("▶ {} is back in the turns.", seat.shown())
            };
            sp.note(line.clone());
            ("hold", seat.character, line)
        }
    };
    turn.finish(changed(session, &sp, action, character, line))
        .await
}

/// Rewards the seat that introduced a scene: Ego on its character's sheet
/// if not held. How it ends the log line, and the sheet to save.
async fn reward(
    turn: &mut Turn<'_>,
    sp: &Spotlight,
    seat: u32,
) -> Result<(String, Option<Loaded<VenusSheet>>), AppError> {
    let name = sp.name_of(seat);
    let Some(id) = sp.turns.seat(seat).and_then(|s| s.character) else {
        return Ok((format!("{name} has no sheet, so no Ego"), None));
    };
    let Some(mut c) = turn.character_by_id(id).await? else {
        return Ok((format!("{name}'s sheet is gone, so no Ego"), None));
    };
    if !earns_ego(c.sheet.ego) {
        return Ok((format!("{name} already holds Ego"), None));
    }
    c.sheet.grant_ego().map_err(fc_words)?;
    Ok((format!("{name} earns Ego"), Some(c)))
}

/// Adds a rewarded sheet, if any, to `out`.
fn with_sheet(out: Outcome, c: Option<Loaded<VenusSheet>>) -> Outcome {
    match c {
        Some(c) => out.sheet(c),
        None => out,
    }
}

/// `/ve spotlight scene`: the FC cuts to a new scene (introduced by the
/// seat named in `introduced_by`, who starts its rounds and earns Ego if
/// they do not hold it); a player offers to introduce it, for the FC to
/// allow or decline on the tracker.
pub async fn scene(
    app: &App,
    caller: &Caller,
    title: &str,
    introduced_by: Option<&str>,
) -> AppResult {
    let mut turn = Turn::begin(app, caller).await?;
    let (session, sp) = running(&mut turn).await?;
    let named = match introduced_by.map(str::trim).filter(|n| !n.is_empty()) {
        Some(n) => Some(sp.turns.by_name(n).cloned().ok_or_else(|| {
            AppError::user(format!("No one called {n} is in the spotlight's order."))
        })?),
        None => None,
    };
    let out = if turn.fc {
        gm_scene(&mut turn, session, sp, title, named).await?
    } else {
        offer_scene(&mut turn, session, sp, title, named).await?
    };
    turn.finish(out).await
}

/// The game master sets a scene (introduced by a seat, who earns Ego),
/// declining any player's offer still waiting.
async fn gm_scene(
    turn: &mut Turn<'_>,
    session: Session,
    mut sp: Spotlight,
    title: &str,
    named: Option<Seat<SeatData>>,
) -> Result<Outcome, AppError> {
    // A player's offer still waiting is declined by the FC's own scene
    // (unless the FC names that player as the introducer).
    let declined = sp
        .offer
        .clone()
        .filter(|o| o.seat.is_none() || o.seat != named.as_ref().map(|s| s.id));
    sp.new_scene(title, named.as_ref().map(|s| s.id))
        .map_err(fc_words)?;
    let declined = declined.map(|o| format!("✋ The {GM} declines {}'s scene.", sp.offerer(&o)));
    if let Some(d) = &declined {
        sp.note(d.clone());
    }
    let (line, rewarded) = match &named {
        Some(seat) => {
            let (r, c) = reward(turn, &sp, seat.id).await?;
            let line = format!(
                "🎬 Scene {}: {}, introduced by {} ({r}).",
                sp.scene,
                escape(&sp.title),
                seat.shown()
            );
            (line, c)
        }
        None => (
            format!(
                "🎬 The {GM} sets scene {}: {}.",
                sp.scene,
                escape(&sp.title)
            ),
            None,
        ),
    };
    sp.note(line.clone());
    let character = named.and_then(|s| s.character);
    let note = match declined {
        Some(d) => format!("{d}\n{line}"),
        None => line,
    };
    let out = changed(session, &sp, "scene", character, note);
    Ok(with_sheet(out, rewarded))
}

/// A player offers to introduce the next scene (their seat, or their
/// active character unseated); the game master decides.
async fn offer_scene(
    turn: &mut Turn<'_>,
    session: Session,
    mut sp: Spotlight,
    title: &str,
    named: Option<Seat<SeatData>>,
) -> Result<Outcome, AppError> {
    let caller = turn.caller().clone();
    let mine = sp.turns.owned_by(caller.user_id).next().cloned();
    let (name, character) = match (named, mine) {
        (Some(s), _) if s.owner == Some(caller.user_id) => {
            sp.offer(s.id, title).map_err(fc_words)?;
            (s.shown(), s.character)
        }
        (Some(_), _) => {
            return Err(AppError::user(format!(
            "You can only offer to introduce a scene yourself; the {GM} names who introduces it."
        )))
        }
        (None, Some(s)) => {
            sp.offer(s.id, title).map_err(fc_words)?;
            (s.shown(), s.character)
        }
        // Any player can offer (seed 000), seated or not: with their
        // active character, seated when the FC allows the offer.
        (None, None) => {
            let row = active_row(turn).await?;
            sp.offer_unseated(&row.name, Some(row.owner_id), Some(row.id), title)
                .map_err(fc_words)?;
            (clean(&row.name), Some(row.id))
        }
    };
    sp.note(format!("🙋 {name} offers to introduce the next scene."));
    let note = format!("🙋 Your offer to introduce the next scene waits for the {GM}.");
    Ok(changed(session, &sp, "offer", character, note))
}

/// Passes the turn for `caller`; the log line, which says the FC passed
/// when the FC passes another player's turn.
fn pass_turn(sp: &mut Spotlight, caller: &Caller) -> Result<String, AppError> {
    let passes = match sp.turns.current_seat() {
        Some(s) if s.owner == Some(caller.user_id) => format!("{} passes", s.shown()),
        Some(s) => format!("The {GM} passes {}'s turn", s.shown()),
        None => format!("The {GM} passes"),
    };
    Ok(match sp.pass().map_err(fc_words)? {
        Passed::To(id) => format!("↪ {passes} to {}.", sp.name_of(id)),
        Passed::NewRound { round, seat } => format!(
            "🔁 {passes}: everyone has had a turn. Round {round} begins with {}.",
            sp.name_of(seat)
        ),
    })
}

/// `/ve-gm spotlight end`: the FC ends the spotlight (its buttons go).
pub async fn end(app: &App, caller: &Caller) -> AppResult {
    let mut turn = Turn::begin(app, caller).await?;
    turn.require_gm(GM, "end the spotlight")?;
    let (session, mut sp) = running(&mut turn).await?;
    sp.note(format!("🏁 The {GM} ends the spotlight."));
    let out = stored(session, &sp, Status::Closed, ("end", None), |v| {
        Response::edit("✅ The spotlight ends.", v)
    });
    turn.finish(out).await
}

/// A click on the tracker: **Pass** (the player whose turn it is, or the
/// FC), **Join** (the clicker's active character takes a seat), **Leave**
/// (the clicker's seats go), **Allow scene** and **Decline scene** (the
/// FC).
pub async fn click(app: &App, act: Act, session: Session, click: &Click<'_>) -> AppResult {
    let mut sp: Spotlight = sessions::load(&session)?;
    let button: SpotlightButton = click.action()?;
    let caller = click.caller;
    let mut turn = Turn::click(app, act, caller).await?;
    let mut rewarded = None;
    let (action, character) = match button {
        SpotlightButton::Pass => {
            encounter::require_turn(&sp.turns, caller, turn.fc, GM)?;
            let line = pass_turn(&mut sp, caller)?;
            sp.note(line);
            ("pass", None)
        }
        SpotlightButton::Join => {
            let row = active_row(&mut turn).await?;
            join(&mut sp, &row)?;
            ("join", Some(row.id))
        }
        SpotlightButton::Leave => {
            let mine: Vec<_> = sp.turns.owned_by(caller.user_id).cloned().collect();
            if mine.is_empty() {
                return Err(AppError::user(
                    "You have no character in the spotlight: **Join** seats your active one.",
                ));
            }
            for seat in &mine {
                leave(&mut sp, seat)?;
            }
            ("remove", mine[0].character)
        }
        SpotlightButton::Confirm => {
            turn.require_gm(GM, "allow a player to introduce a scene")?;
            let seat = sp.confirm().map_err(fc_words)?;
            let (r, c) = reward(&mut turn, &sp, seat).await?;
            rewarded = c;
            let name = sp.name_of(seat);
            sp.note(format!(
                "🎬 The {GM} allows it. Scene {}: {}, introduced by {name} ({r}).",
                sp.scene,
                escape(&sp.title)
            ));
            ("confirm", sp.turns.seat(seat).and_then(|s| s.character))
        }
        SpotlightButton::Decline => {
            turn.require_gm(GM, "decline a scene introduction")?;
            let o = sp.decline().map_err(fc_words)?;
            sp.note(format!("✋ The {GM} declines {}'s scene.", sp.offerer(&o)));
            ("decline", None)
        }
    };
    let out = stored(
        session,
        &sp,
        Status::Open,
        (action, character),
        Response::update,
    );
    turn.finish(with_sheet(out, rewarded)).await
}

/// The tracker's message as it stands.
pub fn render(session: &Session) -> Result<View, AppError> {
    let sp: Spotlight = sessions::load(session)?;
    Ok(view(session.id, session.version, session.status, &sp))
}
