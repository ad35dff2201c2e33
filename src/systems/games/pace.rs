//! `/game-gm pace pace:live|post days:`: a play-by-post game's rolls and
//! prompts wait for their players `days` days (1–30) instead of the
//! server's `session_timeout_minutes`; a live game's wait as the server's.

use super::Turn;
use crate::app::games::{self, MAX_POST_DAYS};
use crate::app::{App, AppError, AppResult, Caller};
use crate::storage::games as stored;

/// How long a post-pace game waits when no `days` are given.
pub const DEFAULT_POST_DAYS: i64 = 7;

/// Sets the pace of the game of the caller's channel: `post` with `days`
/// (1–30), or `live`.
pub async fn pace(app: &App, caller: &Caller, post: bool, days: Option<i64>) -> AppResult {
    if let Some(d) = days {
        if !(1..=MAX_POST_DAYS).contains(&d) {
            return Err(AppError::user(format!(
                "`days` runs from 1 to {MAX_POST_DAYS}."
            )));
        }
    }
    let mut turn = Turn::begin(app, caller).await?;
    let game = super::live_here(turn.act(), caller).await?;
    super::require_manager(turn.act(), caller, &game, "set its pace").await?;
    let days = days.unwrap_or(if game.pace == "post" {
        game.post_days
    } else {
        DEFAULT_POST_DAYS
    });
    let (word, text) = if post {
        (
            "post",
            format!(
                "{} plays by post: its rolls and prompts wait {days} days for their players.",
                games::bold(&game.name)
            ),
        )
    } else {
        (
            "live",
            format!(
                "{} plays live: its rolls and prompts wait as long as the server's `session_timeout_minutes`.",
                games::bold(&game.name)
            ),
        )
    };
    let id = game.id;
    turn.finish(super::change("game_pace", "Pace set", text, move |tx| {
        Box::pin(async move {
            stored::set_pace(tx, id, word, days).await?;
            Ok(())
        })
    }))
    .await
}
