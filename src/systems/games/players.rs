//! Joining and leaving a game: `/game character:` joins the game of the
//! channel, and the **Join** / **Leave** buttons (or the select of games
//! to join) of the `/game` card ([`super::card`]) join or leave the game
//! the card shows. A member joins with one of their characters of the
//! game's system as their active character in it (without one, their
//! server-wide active character); a member already in the game who joins
//! again changes their character. Only a live game is joined or left.

use super::Turn;
use crate::app::games::{self, Game};
use crate::app::{Act, App, AppError, AppResult, Caller};
use crate::storage::{characters, games as stored};

/// Which game a join or leave is about.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Which {
    /// The game of the caller's channel.
    Here,
    /// A game of the caller's server, by id (a card's button or select).
    Id(i64),
}

/// The live game `which` names, or a refusal saying why there is none.
async fn live(act: &mut Act, caller: &Caller, which: Which) -> Result<Game, AppError> {
    match which {
        Which::Here => super::live_here(act, caller).await,
        Which::Id(id) => match stored::get(act, caller.guild_id, id).await? {
            Some(g) if g.live() => Ok(g),
            Some(g) => Err(super::ended(&g)),
            None => Err(AppError::user(
                "That game no longer exists: `/game` shows the server's games.",
            )),
        },
    }
}

/// Joins the game `which` names, playing `character` (one of the
/// caller's, by name) if given.
pub async fn join(app: &App, caller: &Caller, which: Which, character: Option<&str>) -> AppResult {
    let mut turn = Turn::begin(app, caller).await?;
    let act = turn.act();
    let game = live(act, caller, which).await?;
    let system = app.registry.display(&game.system).to_string();
    let picked = match character.map(str::trim).filter(|n| !n.is_empty()) {
        None => None,
        Some(name) => Some(
            characters::by_name(act, caller.guild_id, &game.system, caller.user_id, name)
                .await?
                .ok_or_else(|| {
                    AppError::user(format!(
                        "You have no {system} character named `{name}` on this server: {} plays {system}.",
                        games::bold(&game.name)
                    ))
                })?,
        ),
    };
    let again = stored::player(act, game.id, caller.user_id)
        .await?
        .is_some();
    let now = app.clock.now_ms();
    let who = match &picked {
        Some(c) => format!("as **{}**", crate::app::view::clean(&c.name)),
        None => format!("with their active {system} character"),
    };
    let text = if again {
        format!(
            "<@{}> now plays {} {who}.",
            caller.user_id,
            games::bold(&game.name)
        )
    } else {
        format!(
            "<@{}> joined {} {who}.",
            caller.user_id,
            games::bold(&game.name)
        )
    };
    let (guild, id, user) = (caller.guild_id, game.id, caller.user_id);
    let character = picked.as_ref().map(|c| c.id);
    let out = super::change("game_join", "Player joined", text, move |tx| {
        Box::pin(async move {
            stored::join(tx, guild, id, user, character, now).await?;
            Ok(())
        })
    });
    turn.finish(out).await
}

/// Leaves the game `which` names.
pub async fn leave(app: &App, caller: &Caller, which: Which) -> AppResult {
    let mut turn = Turn::begin(app, caller).await?;
    let act = turn.act();
    let game = live(act, caller, which).await?;
    if stored::player(act, game.id, caller.user_id)
        .await?
        .is_none()
    {
        return Err(AppError::user(format!(
            "You are not a player of {}.",
            games::bold(&game.name)
        )));
    }
    let text = format!("<@{}> left {}.", caller.user_id, games::bold(&game.name));
    let (id, user) = (game.id, caller.user_id);
    let out = super::change("game_leave", "Player left", text, move |tx| {
        Box::pin(async move {
            stored::leave(tx, id, user).await?;
            Ok(())
        })
    });
    turn.finish(out).await
}
