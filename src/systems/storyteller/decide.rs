//! The willpower choice on a Storyteller roll (ST-11): the buttons
//! **Spend willpower**, **Keep** and **Void (storyteller)** ([`RollButton`]). Who may
//! press them, how each becomes a rules-core action, and the answer.

use super::buttons::RollButton;
use super::context::Ctx;
use super::record;
use super::roll_view::roll_view;
use super::rolls::{load_character, spend_offer, status_of, RollState};
use super::{GM, SYSTEM};
use crate::app::component::Click;
use crate::app::log::{self, What};
use crate::app::{sessions, Act, App, AppError, AppResult, Response};
use crate::rules::storyteller::Action;
use crate::rules::Actor;
use crate::storage::sessions::Session;

/// A click on a willpower roll: the roll's player (or whoever rolled it,
/// or the storyteller) decides; the rules core applies the choice.
pub async fn click(app: &App, mut tx: Act, session: Session, click: &Click<'_>) -> AppResult {
    let caller = click.caller;
    let mut state: RollState = sessions::load(&session)?;
    let ctx = Ctx::load(&mut tx, caller).await?;
    if caller.user_id != state.session.owner && caller.user_id != session.owner_id && !ctx.fc {
        return Err(AppError::user(format!(
            "Only {}'s player or the {GM} can decide this roll.",
            state.who()
        )));
    }
    let button = RollButton::read(&click.id.action, click.id.arg.as_deref())?;
    let actor = Actor {
        id: caller.user_id,
        gm: ctx.fc,
    };
    let action = match button {
        RollButton::Spend => Action::SpendWillpower { actor },
        RollButton::Keep => Action::Keep { actor },
        RollButton::Void => Action::Void { actor },
    };
    let mut ch = load_character(&mut tx, caller.guild_id, state.character_id)
        .await?
        .ok_or_else(|| AppError::user("The character of this roll no longer exists."))?;
    let (next, events) = state
        .session
        .clone()
        .apply(&mut ch.sheet, action, &mut app.rng.fork())?;
    state.session = next;
    let status = status_of(state.session.phase);
    let version = sessions::save(&mut tx, &session, &state, status, ctx.timeout()).await?;
    let number = crate::app::secret::number(&mut tx, &session).await?;
    crate::app::characters::save(&mut tx, &mut ch).await?;
    log::record(
        &mut tx,
        caller,
        What {
            system: SYSTEM,
            action: button.word(),
            session: Some(session.id),
            character: Some(ch.row.id),
        },
        &record::ChoiceInputs {
            button: button.word().to_string(),
            fc: ctx.fc,
        },
        &(),
        &record::RollOutcome::of(&state.session, &events),
    )
    .await?;
    tx.commit().await?;
    let offer = spend_offer(&state, Some(&ch.sheet));
    Ok(Response::update(roll_view(
        session.id, number, version, status, &state, offer,
    )))
}
