//! `/game-gm channel add|remove channel:`: the channels a game plays in (a
//! channel, a category, or a forum or channel whose threads belong to it).
//! A channel belongs to one live game at most; a game keeps one channel at
//! least.

use crate::app::games::{self, MAX_CHANNELS};
use crate::app::{Act, App, AppError, AppResult, Caller, Response};
use crate::storage::games as stored;

/// Adds `channel` to the game of the caller's channel.
pub async fn add(app: &App, caller: &Caller, channel: i64) -> AppResult {
    let mut act = Act::begin(app, caller).await?;
    let game = super::live_here(&mut act, caller).await?;
    super::require_manager(&mut act, caller, &game, "add channels to it").await?;
    let there = Caller {
        channel_id: channel,
        parent_id: None,
        ..caller.clone()
    };
    if let Some(other) = games::live_here(&mut act, &there).await? {
        let text = if other.id == game.id {
            format!("<#{channel}> belongs to **{}** already.", game.name)
        } else {
            format!(
                "<#{channel}> belongs to the game **{}**: a channel plays one game at a time.",
                other.name
            )
        };
        return Err(AppError::user(text));
    }
    if stored::channels(&mut act, game.id).await?.len() >= MAX_CHANNELS {
        return Err(AppError::user(format!(
            "**{}** has {MAX_CHANNELS} channels, the most a game may: remove one first (a category counts as one, with every channel in it).",
            game.name
        )));
    }
    stored::add_channel(&mut act, caller.guild_id, game.id, channel).await?;
    let text = format!("<#{channel}> now belongs to **{}**.", game.name);
    super::record(&mut act, caller, "game_channel_add", &text).await?;
    act.commit().await?;
    Ok(Response::message(super::note("Channel added", text)))
}

/// Removes `channel` from the game of the caller's channel.
pub async fn remove(app: &App, caller: &Caller, channel: i64) -> AppResult {
    let mut act = Act::begin(app, caller).await?;
    let game = super::live_here(&mut act, caller).await?;
    super::require_manager(&mut act, caller, &game, "remove its channels").await?;
    let channels = stored::channels(&mut act, game.id).await?;
    if !channels.contains(&channel) {
        return Err(AppError::user(format!(
            "<#{channel}> is not one of **{}**'s channels.",
            game.name
        )));
    }
    if channels.len() == 1 {
        return Err(AppError::user(format!(
            "<#{channel}> is **{}**'s only channel: add another first, or end the game with `/game-gm end`.",
            game.name
        )));
    }
    stored::remove_channel(&mut act, game.id, channel).await?;
    let text = format!("<#{channel}> no longer belongs to **{}**.", game.name);
    super::record(&mut act, caller, "game_channel_remove", &text).await?;
    act.commit().await?;
    Ok(Response::message(super::note("Channel removed", text)))
}
