//! What the table's trackers share at the application edge (issue 15):
//! Virtual Veil's and Veracity's combat and Venus Engine's spotlight each
//! keep one running tracker per channel, a session of the system's own
//! kind with no expiry, whose turn order is a [`Turns`]. This file finds
//! that tracker, refuses a second one, and says who may act on it.

use crate::app::{Act, App, AppError, AppResult, Caller, Response};
use crate::rules::turns::Turns;
use crate::storage::{self, sessions::Session, Tx};

/// The tracker of `kind` running in the caller's channel, if any.
pub async fn running(act: &mut Act, kind: &str) -> Result<Option<Session>, AppError> {
    let caller = act.caller().clone();
    running_in(act, &caller, kind).await
}

/// [`running`] in any transaction (a read, for autocomplete).
pub async fn running_in(
    tx: &mut Tx,
    caller: &Caller,
    kind: &str,
) -> Result<Option<Session>, AppError> {
    Ok(
        storage::sessions::latest_open_in_channel(tx, caller.guild_id, caller.channel_id, kind, 1)
            .await?
            .into_iter()
            .next(),
    )
}

/// A tracker's `show` (issue 31 item 5): the running tracker of `kind` in
/// the caller's channel, posted again at the bottom of the channel, where
/// the table sees it; its older message keeps its text and loses its
/// buttons ([`crate::app::view::View::reposted`]). Anyone at the table may
/// ask; nothing changes. `what` and `start` name the tracker and the
/// command that starts one, for the refusal when none runs.
pub async fn show(app: &App, caller: &Caller, kind: &str, what: &str, start: &str) -> AppResult {
    let session = {
        let mut tx = app.db.glance().await?;
        require_running_in(&mut tx, caller, kind, what, start).await?
    };
    let view = app.registry.render(app, &session, caller).await?;
    Ok(Response::message(view.reposted()))
}

/// The running tracker of `kind`, or a refusal naming the command that
/// starts one (`what`: "fight", `start`: "`/vv-gm combat start`").
pub async fn require_running(
    act: &mut Act,
    kind: &str,
    what: &str,
    start: &str,
) -> Result<Session, AppError> {
    let caller = act.caller().clone();
    require_running_in(act, &caller, kind, what, start).await
}

/// [`require_running`] in any transaction, for `caller` (an action of the
/// pipeline, which reads in its turn's transaction).
pub async fn require_running_in(
    tx: &mut Tx,
    caller: &Caller,
    kind: &str,
    what: &str,
    start: &str,
) -> Result<Session, AppError> {
    running_in(tx, caller, kind).await?.ok_or_else(|| {
        AppError::user(format!(
            "No {what} is running in this channel: start one with {start}."
        ))
    })
}

/// Refuses to start a tracker of `kind` while one runs in the channel
/// (`end`: the command that ends it).
pub async fn refuse_second(
    act: &mut Act,
    kind: &str,
    what: &str,
    end: &str,
) -> Result<(), AppError> {
    let caller = act.caller().clone();
    refuse_second_in(act, &caller, kind, what, end).await
}

/// [`refuse_second`] in any transaction, for `caller`.
pub async fn refuse_second_in(
    tx: &mut Tx,
    caller: &Caller,
    kind: &str,
    what: &str,
    end: &str,
) -> Result<(), AppError> {
    match running_in(tx, caller, kind).await? {
        Some(_) => Err(AppError::user(format!(
            "A {what} is already running in this channel: end it first with {end}."
        ))),
        None => Ok(()),
    }
}

/// Refuses a player acting out of turn: the game master (`gm`, named
/// `gm_word`) may always act, a player only on the turn of a seat they play.
pub fn require_turn<T>(
    turns: &Turns<T>,
    caller: &Caller,
    gm: bool,
    gm_word: &str,
) -> Result<(), AppError> {
    if turns.may_act(caller.user_id, gm) {
        return Ok(());
    }
    Err(AppError::user(match turns.current_seat() {
        Some(s) => format!(
            "It is {}'s turn: only their player or the {gm_word} can act now.",
            crate::app::view::clean(&s.name)
        ),
        None => format!("No one has the turn: the {gm_word} moves the order on."),
    }))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn acting_out_of_turn_is_refused_with_whose_turn_it_is() {
        let mut t: Turns<()> = Turns::new();
        t.add("Ada", Some(10), None, ()).unwrap();
        t.add("Goblin", None, None, ()).unwrap();
        let caller = |id| Caller {
            user_id: id,
            ..Caller::default()
        };
        let msg = require_turn(&t, &caller(10), false, "Compiler")
            .unwrap_err()
            .user_message();
        assert_eq!(msg, "No one has the turn: the Compiler moves the order on.");
        t.next_round().unwrap();
        assert!(require_turn(&t, &caller(10), false, "Compiler").is_ok());
        t.advance();
        let msg = require_turn(&t, &caller(10), false, "Compiler")
            .unwrap_err()
            .user_message();
        assert_eq!(
            msg,
            "It is Goblin's turn: only their player or the Compiler can act now."
        );
        assert!(require_turn(&t, &caller(10), true, "Compiler").is_ok());
    }
}
