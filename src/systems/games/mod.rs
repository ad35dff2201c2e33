//! `/game`: many games on one server (issue 32). A game has a name, a
//! system, its channels, its game masters and its players; in its channels
//! its game masters are the game master and its players' characters in it
//! are their active ones (the application layer's [`crate::app::games`]
//! resolves which game an action is in).
//!
//! Application logic only (no serenity), one file per command; `commands`
//! holds the thin poise commands. Each change is one action of the
//! pipeline (`app::pipeline`, the table's scope): check the caller's
//! rights and validate in the turn, then an outcome ([`change`]) stores,
//! logs and answers.
//!
//! Module map:
//! - [`create`]: `/game-gm create`.
//! - [`channel`]: `/game-gm channel add|remove`.
//! - [`gm`]: `/game-gm gm add|remove`.
//! - [`gm_channel`]: `/game-gm gm-channel` (where its secret rolls go).
//! - [`pace`]: `/game-gm pace` (live, or play by post).
//! - [`card`]: `/game`, the private card of the channel's game (or the
//!   server's games) with **Join** / **Leave** for the caller.
//! - [`players`]: joining and leaving (`/game character:`, the card's
//!   buttons).
//! - [`show`]: the game at a glance, on the card.
//! - [`end`]: `/game-gm end`.
//! - [`waiting`]: whom a play-by-post game waits on, on the card.
//! - [`commands`]: the slash commands.
//! - [`system`]: the registration.

pub mod card;
pub mod channel;
pub mod commands;
pub mod create;
pub mod end;
pub mod gm;
pub mod gm_channel;
pub mod pace;
pub mod players;
pub mod show;
pub mod system;
pub mod waiting;

use crate::app::games::{self, Game};
use crate::app::log::{self, Said, NO_DICE};
use crate::app::pipeline::{Outcome, Record, Writing};
use crate::app::view::{colour, Embed};
use crate::app::{Act, AppError, Caller, Response, View};
use crate::storage::Tx;

/// A `/game` command's turn in the action pipeline: the table's own,
/// game-less scope.
pub type Turn<'a> = crate::app::pipeline::Turn<'a, crate::app::pipeline::Table>;

/// The log's system name for changes to a game.
pub const SYSTEM: &str = "game";

/// The game the caller's channel is in, or a refusal saying how to make
/// one.
pub async fn here(act: &mut Act, caller: &Caller) -> Result<Game, AppError> {
    games::here(act, caller).await?.ok_or_else(|| {
        AppError::user(
            "This channel belongs to no game. A server manager or the FC can start one here with `/game-gm create`, or run this in a game's channel.",
        )
    })
}

/// [`here`], refused when the game has ended.
pub async fn live_here(act: &mut Act, caller: &Caller) -> Result<Game, AppError> {
    let game = here(act, caller).await?;
    if !game.live() {
        return Err(ended(&game));
    }
    Ok(game)
}

/// The refusal of a change to `game`, which has ended.
fn ended(game: &Game) -> AppError {
    AppError::user(format!(
        "The game {} has ended: it cannot be changed any more.",
        games::bold(&game.name)
    ))
}

/// Refuses unless the caller manages `game`: one of its game masters, or
/// a server manager; `what` completes "Only … can …".
pub async fn require_manager(
    act: &mut Act,
    caller: &Caller,
    game: &Game,
    what: &str,
) -> Result<(), AppError> {
    let gms = crate::storage::games::gms(act, game.id).await?;
    if games::admits(&gms, caller) {
        return Ok(());
    }
    Err(AppError::user(format!(
        "Only the game masters of {} ({}) or a server manager can {what}.",
        games::bold(&game.name),
        games::gm_mentions(&gms)
    )))
}

/// A change to a game as the action pipeline's outcome: `write` runs in
/// the turn's transaction (a refusal it returns changes nothing), the log
/// tells it in one line `text` under `action`, and the answer is a public
/// note titled `title`.
pub fn change(
    action: &str,
    title: &str,
    text: String,
    write: impl for<'t> FnOnce(&'t mut Tx) -> Writing<'t> + Send + 'static,
) -> Outcome<serde_json::Value> {
    let entry = Record::new(action, &log::NoInputs {}, &Said { text: &text })
        .dice(&NO_DICE, Vec::new())
        .system(SYSTEM);
    Outcome::answer(Response::message(note(title, text)))
        .also(write)
        .log(entry)
}

/// A short note about a game.
pub fn note(title: &str, text: String) -> View {
    View::embed(Embed::new(title).description(text).colour(colour::SUCCESS))
}
