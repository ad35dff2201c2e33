//! `/game join [character:]` and `/game leave`: a member joins the game of
//! the channel, with one of their characters of its system as their active
//! character in it (without one, their server-wide active character), or
//! leaves it. A member already in the game who joins again changes their
//! character.

use super::Turn;
use crate::app::{App, AppError, AppResult, Caller};
use crate::storage::{characters, games as stored};

/// Joins the game of the caller's channel, playing `character` (one of
/// theirs, by name) if given.
pub async fn join(app: &App, caller: &Caller, character: Option<&str>) -> AppResult {
    let mut turn = Turn::begin(app, caller).await?;
    let act = turn.act();
    let game = super::live_here(act, caller).await?;
    let system = app.registry.display(&game.system).to_string();
    let picked = match character.map(str::trim).filter(|n| !n.is_empty()) {
        None => None,
        Some(name) => Some(
            characters::by_name(act, caller.guild_id, &game.system, caller.user_id, name)
                .await?
                .ok_or_else(|| {
                    AppError::user(format!(
                        "You have no {system} character named `{name}` on this server: **{}** plays {system}.",
                        game.name
                    ))
                })?,
        ),
    };
    let again = stored::player(act, game.id, caller.user_id)
        .await?
        .is_some();
    let now = app.clock.now_ms();
    let who = match &picked {
        Some(c) => format!("as **{}**", c.name),
        None => format!("with their active {system} character"),
    };
    let text = if again {
        format!("<@{}> now plays **{}** {who}.", caller.user_id, game.name)
    } else {
        format!("<@{}> joined **{}** {who}.", caller.user_id, game.name)
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

/// Leaves the game of the caller's channel.
pub async fn leave(app: &App, caller: &Caller) -> AppResult {
    let mut turn = Turn::begin(app, caller).await?;
    let act = turn.act();
    let game = super::live_here(act, caller).await?;
    if stored::player(act, game.id, caller.user_id)
        .await?
        .is_none()
    {
        return Err(AppError::user(format!(
            "You are not a player of **{}**.",
            game.name
        )));
    }
    let text = format!("<@{}> left **{}**.", caller.user_id, game.name);
    let (id, user) = (game.id, caller.user_id);
    let out = super::change("game_leave", "Player left", text, move |tx| {
        Box::pin(async move {
            stored::leave(tx, id, user).await?;
            Ok(())
        })
    });
    turn.finish(out).await
}
