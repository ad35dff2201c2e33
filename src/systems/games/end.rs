//! `/game-gm end`: archives the game of the channel. Nothing rolls in its
//! channels any more (refused, naming the game:
//! [`crate::app::games::allows_here`]); its log and its players' sheets stay
//! readable and exportable, and `/game` still shows it.

use super::Turn;
use crate::app::games;
use crate::app::{App, AppResult, Caller};
use crate::storage::games as stored;

/// Ends the game of the caller's channel.
pub async fn end(app: &App, caller: &Caller) -> AppResult {
    let mut turn = Turn::begin(app, caller).await?;
    let game = super::live_here(turn.act(), caller).await?;
    super::require_manager(turn.act(), caller, &game, "end it").await?;
    let now = app.clock.now_ms();
    let text = format!(
        "{} has ended: nothing is rolled in its channels any more. Its log (`/history`) and sheets stay readable and exportable.",
        games::bold(&game.name)
    );
    let id = game.id;
    turn.finish(super::change("game_end", "Game ended", text, move |tx| {
        Box::pin(async move {
            stored::end(tx, id, now).await?;
            Ok(())
        })
    }))
    .await
}
