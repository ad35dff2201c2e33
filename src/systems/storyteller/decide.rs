//! The willpower choice on a Storyteller roll (ST-11): the buttons
//! **Spend willpower**, **Keep** and **Void (storyteller)** ([`RollButton`]). Who may
//! press them, how each becomes a rules-core action, and the answer.

use super::buttons::RollButton;
use super::context::{Outcome, Turn};
use super::record;
use super::roll_view::roll_view;
use super::rolls::{status_of, RollState};
use super::GM;
use crate::app::component::Click;
use crate::app::pipeline::{Record, Shown};
use crate::app::{sessions, Act, App, AppError, AppResult, Response};
use crate::rules::storyteller::Action;
use crate::rules::Actor;
use crate::storage::sessions::Session;

/// A click on a willpower roll: the roll's player (or whoever rolled it,
/// or the storyteller) decides; the rules core applies the choice.
pub async fn click(app: &App, act: Act, session: Session, click: &Click<'_>) -> AppResult {
    let caller = click.caller;
    let mut state: RollState = sessions::load(&session)?;
    let mut turn = Turn::click(app, act, caller).await?;
    if caller.user_id != state.session.owner && caller.user_id != session.owner_id && !turn.fc {
        return Err(AppError::user(format!(
            "Only {}'s player or the {GM} can decide this roll.",
            state.shown()
        )));
    }
    let button = click.action::<RollButton>()?;
    let actor = Actor {
        id: caller.user_id,
        gm: turn.fc,
    };
    let action = match button {
        RollButton::Spend => Action::SpendWillpower { actor },
        RollButton::Keep => Action::Keep { actor },
        RollButton::Void => Action::Void { actor },
    };
    let gone = || AppError::user("The character of this roll no longer exists.");
    let mut ch = match state.character_id {
        Some(id) => turn.character_by_id(id).await?.ok_or_else(gone)?,
        None => return Err(gone()),
    };
    let (next, events) = state
        .session
        .clone()
        .apply(&mut ch.sheet, action, &mut turn.rng())?;
    state.session = next;
    let status = status_of(state.session.phase);
    let offer = state.session.purchase_offer(&ch.sheet);
    let entry = Record::new(
        button.word(),
        &record::ChoiceInputs {
            button: button.word().to_string(),
            fc: turn.fc,
        },
        &record::RollOutcome::of(&state.session, &events),
    )
    .character(ch.row.id)
    .on_session();
    let timeout = turn.timeout();
    let drawn = state.clone();
    let out = Outcome::new(move |s: &Shown| {
        Response::update(roll_view(
            s.id, s.number, s.version, s.status, &drawn, offer,
        ))
    })
    .save(session, &state, status, timeout)
    .sheet(ch)
    .log(entry);
    let out = super::rolls::waiting(out, &state, status);
    turn.finish(out).await
}
