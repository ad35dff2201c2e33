//! `/game-gm channel add|remove channel:`: the channels a game plays in (a
//! channel, a category, or a forum or channel whose threads belong to it).
//! A channel belongs to one live game at most; a game keeps one channel at
//! least.

use super::Turn;
use crate::app::games::{self, MAX_CHANNELS};
use crate::app::{App, AppError, AppResult, Caller};
use crate::storage::games as stored;

/// Adds `channel` to the game of the caller's channel.
pub async fn add(app: &App, caller: &Caller, channel: i64) -> AppResult {
    let mut turn = Turn::begin(app, caller).await?;
    let act = turn.act();
    let game = super::live_here(act, caller).await?;
    super::require_manager(act, caller, &game, "add channels to it").await?;
    let there = Caller {
        channel_id: channel,
        parent_id: None,
        ..caller.clone()
    };
    if let Some(other) = games::live_here(act, &there).await? {
        let text = if other.id == game.id {
            format!(
                "<#{channel}> belongs to {} already.",
                games::bold(&game.name)
            )
        } else {
            format!(
                "<#{channel}> belongs to the game {}: a channel plays one game at a time.",
                games::bold(&other.name)
            )
        };
        return Err(AppError::user(text));
    }
    if stored::channels(act, game.id).await?.len() >= MAX_CHANNELS {
        return Err(AppError::user(format!(
            "{} has {MAX_CHANNELS} channels, the most a game may: remove one first (a category counts as one, with every channel in it).",
            games::bold(&game.name)
        )));
    }
    let text = format!("<#{channel}> now belongs to {}.", games::bold(&game.name));
    let (guild, id) = (caller.guild_id, game.id);
    let out = super::change("game_channel_add", "Channel added", text, move |tx| {
        Box::pin(async move {
            stored::add_channel(tx, guild, id, channel).await?;
            Ok(())
        })
    });
    turn.finish(out).await
}

/// Removes `channel` from the game of the caller's channel.
pub async fn remove(app: &App, caller: &Caller, channel: i64) -> AppResult {
    let mut turn = Turn::begin(app, caller).await?;
    let act = turn.act();
    let game = super::live_here(act, caller).await?;
    super::require_manager(act, caller, &game, "remove its channels").await?;
    let channels = stored::channels(act, game.id).await?;
    if !channels.contains(&channel) {
        return Err(AppError::user(format!(
            "<#{channel}> is not one of {}'s channels.",
            games::bold(&game.name)
        )));
    }
    if channels.len() == 1 {
        return Err(AppError::user(format!(
            "<#{channel}> is {}'s only channel: add another first, or end the game with `/game-gm end`.",
            games::bold(&game.name)
        )));
    }
    let text = format!(
        "<#{channel}> no longer belongs to {}.",
        games::bold(&game.name)
    );
    let id = game.id;
    let out = super::change("game_channel_remove", "Channel removed", text, move |tx| {
        Box::pin(async move {
            stored::remove_channel(tx, id, channel).await?;
            Ok(())
        })
    });
    turn.finish(out).await
}
