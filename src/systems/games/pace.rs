//! `/game-gm pace pace:live|post days:`: a play-by-post game's rolls and
//! prompts wait for their players `days` days (1–30) instead of the
//! server's `session_timeout_minutes`; a live game's wait as the server's.

use crate::app::games::MAX_POST_DAYS;
use crate::app::{Act, App, AppError, AppResult, Caller, Response};
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
    let mut act = Act::begin(app, caller).await?;
    let game = super::live_here(&mut act, caller).await?;
    super::require_manager(&mut act, caller, &game, "set its pace").await?;
    let days = days.unwrap_or(if game.pace == "post" {
        game.post_days
    } else {
        DEFAULT_POST_DAYS
    });
    let (word, text) = if post {
        (
            "post",
            format!(
                "**{}** plays by post: its rolls and prompts wait {days} days for their players.",
                game.name
            ),
        )
    } else {
        (
            "live",
            format!(
                "**{}** plays live: its rolls and prompts wait as long as the server's `session_timeout_minutes`.",
                game.name
            ),
        )
    };
    stored::set_pace(&mut act, game.id, word, days).await?;
    super::record(&mut act, caller, "game_pace", &text).await?;
    act.commit().await?;
    Ok(Response::message(super::note("Pace set", text)))
}
