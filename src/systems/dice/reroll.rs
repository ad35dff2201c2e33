//! The Reroll button of a generic roll: the roller (or the FC) throws the
//! same expression again in place.

use super::{record, view, Dice, DiceState};
use crate::app::pipeline::{Outcome, Turn};
use crate::app::{App, AppResult, Response};
use crate::rules::expr;
use crate::storage::sessions::{Session, Status};

/// Rerolls `session`'s expression; the pipeline saves, logs and shows the
/// new throw.
pub async fn apply(app: &App, turn: Turn<'_, Dice>, session: Session) -> AppResult {
    let mut state: DiceState = super::load(&session.state)?;
    state.roll = super::throw(app, &expr::parse(&state.expression, super::caps(app))?)?;
    state.rerolls += 1;
    let (id, shown) = (session.id, state.clone());
    let out = Outcome::new(move |s| Response::update(view(id, s.version, Status::Open, &shown)))
        .save(session, &state, Status::Open, None)
        .log(record("reroll", &state));
    turn.finish(out).await
}
