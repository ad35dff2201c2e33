//! The Reroll button of a generic roll: the roller (or the FC) throws the
//! same expression again in place.

use super::{log, view, DiceState};
use crate::app::Act;
use crate::app::{App, AppError, AppResult, Caller, Response};
use crate::rules::expr;
use crate::storage;
use crate::storage::sessions::{Session, Status};

/// Rerolls `session`'s expression, saves, logs and shows the new throw.
pub async fn apply(app: &App, mut tx: Act, session: Session, caller: &Caller) -> AppResult {
    let mut state: DiceState = super::load(&session.state)?;
    state.roll = super::throw(app, &expr::parse(&state.expression, super::caps(app))?)?;
    state.rerolls += 1;
    let json = serde_json::to_string(&state)?;
    let now = storage::now_ms();
    let version = storage::sessions::update(
        &mut tx,
        session.id,
        session.version,
        &json,
        Status::Open,
        None,
        now,
    )
    .await?
    .ok_or_else(|| AppError::Internal("session changed under a write lock".into()))?;
    log(&mut tx, caller, session.id, "reroll", &state, now).await?;
    tx.commit().await?;
    Ok(Response::update(view(
        session.id,
        version,
        Status::Open,
        &state,
    )))
}
