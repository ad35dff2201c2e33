//! `/game show`: the game of the channel, publicly: its name, system and
//! pace, its channels, its game masters, and its players with their
//! characters in it.

use crate::app::games::gm_mentions;
use crate::app::view::{colour, limits, Embed};
use crate::app::{App, AppResult, Caller, Response, View};
use crate::storage::{characters, games as stored};

/// Shows the game of the caller's channel.
pub async fn show(app: &App, caller: &Caller) -> AppResult {
    let mut tx = app.db.read().await?;
    let game = crate::app::games::here(&mut tx, caller)
        .await?
        .ok_or_else(|| {
            crate::app::AppError::user(
                "This channel belongs to no game. A server manager or the FC can start one here with `/game-gm create`.",
            )
        })?;
    let channels = stored::channels(&mut tx, game.id).await?;
    let gms = stored::gms(&mut tx, game.id).await?;
    let players = stored::players(&mut tx, game.id).await?;
    let mut lines = Vec::with_capacity(players.len());
    for p in &players {
        let character = match p.character_id {
            Some(id) => characters::get(&mut tx, caller.guild_id, id)
                .await?
                .map(|c| format!("**{}**", c.name))
                .unwrap_or_else(|| "(a deleted character)".into()),
            None => "their active character".into(),
        };
        lines.push(format!("<@{}>: {character}", p.user_id));
    }
    let pace = if game.pace == "post" {
        format!("play by post ({} days)", game.post_days)
    } else {
        "live".into()
    };
    let mut players_text = if lines.is_empty() {
        "nobody yet: `/game join`".to_string()
    } else {
        lines.join("\n")
    };
    crate::app::view::truncate(&mut players_text, limits::FIELD_VALUE);
    let channels_text = channels
        .iter()
        .map(|c| format!("<#{c}>"))
        .collect::<Vec<_>>()
        .join(", ");
    let title = if game.live() {
        format!("Game: {}", game.name)
    } else {
        format!("Game: {} (ended)", game.name)
    };
    let mut embed = Embed::new(title)
        .colour(colour::NEUTRAL)
        .field("System", app.registry.display(&game.system), true)
        .field("Pace", pace, true)
        .field("Channels", channels_text, false);
    if let Some(gm) = game.gm_channel {
        embed = embed.field("GM channel", format!("<#{gm}> (its secret rolls)"), false);
    }
    let embed =
        embed
            .field("Game masters", gm_mentions(&gms), false)
            .field("Players", players_text, false);
    Ok(Response::message(View::embed(embed)))
}
