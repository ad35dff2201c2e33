//! `/game-gm gm-channel channel: clear:`: the game's own GM channel, where
//! secret rolls made in its channels go (issue 32); without one they go
//! to the server's (`/fc gm-channel`).

use super::Turn;
use crate::app::games;
use crate::app::{App, AppError, AppResult, Caller};
use crate::storage::games as stored;

/// Sets (`channel`) or clears (`clear`) the GM channel of the game of the
/// caller's channel.
pub async fn gm_channel(
    app: &App,
    caller: &Caller,
    channel: Option<i64>,
    clear: bool,
) -> AppResult {
    let channel = match (channel, clear) {
        (Some(c), false) => Some(c),
        (None, true) => None,
        _ => return Err(AppError::user(
            "Give either `channel` (the game's GM channel) or `clear:true` (back to the server's).",
        )),
    };
    let mut turn = Turn::begin(app, caller).await?;
    let game = super::live_here(turn.act(), caller).await?;
    super::require_manager(turn.act(), caller, &game, "set its GM channel").await?;
    let text = match channel {
        Some(c) => format!(
            "Secret rolls in {} now go to <#{c}>, for its game masters.",
            games::bold(&game.name)
        ),
        None => format!(
            "Secret rolls in {} go to the server's GM channel again.",
            games::bold(&game.name)
        ),
    };
    let id = game.id;
    turn.finish(super::change(
        "game_gm_channel",
        "GM channel set",
        text,
        move |tx| {
            Box::pin(async move {
                stored::set_gm_channel(tx, id, channel).await?;
                Ok(())
            })
        },
    ))
    .await
}
