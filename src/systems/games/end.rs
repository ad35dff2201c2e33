//! `/game-gm end`: archives the game of the channel. Nothing rolls in its
//! channels any more (refused, naming the game:
//! [`crate::app::games::allows_here`]); its log and its players' sheets stay
//! readable and exportable, and `/game show` still shows it.

use crate::app::{Act, App, AppResult, Caller, Response};
use crate::storage::games as stored;

/// Ends the game of the caller's channel.
pub async fn end(app: &App, caller: &Caller) -> AppResult {
    let mut act = Act::begin(app, caller).await?;
    let game = super::live_here(&mut act, caller).await?;
    super::require_manager(&mut act, caller, &game, "end it").await?;
    let now = app.clock.now_ms();
    stored::end(&mut act, game.id, now).await?;
    let text = format!(
        "**{}** has ended: nothing is rolled in its channels any more. Its log (`/history`) and sheets stay readable and exportable.",
        game.name
    );
    super::record(&mut act, caller, "game_end", &text).await?;
    act.commit().await?;
    Ok(Response::message(super::note("Game ended", text)))
}
