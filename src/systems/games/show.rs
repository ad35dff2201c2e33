//! The game of the channel at a glance, for the `/game` card
//! ([`super::card`]): its name, system and pace, its channels, its game
//! masters, and its players with their characters in it.

use crate::app::games::{gm_mentions, Game};
use crate::app::view::{colour, limits, Embed};
use crate::app::{App, AppError};
use crate::storage::{characters, games as stored, Tx};

/// `game` as an embed: what it is and who plays it.
pub async fn embed(tx: &mut Tx, app: &App, guild_id: i64, game: &Game) -> Result<Embed, AppError> {
    let channels = stored::channels(tx, game.id).await?;
    let gms = stored::gms(tx, game.id).await?;
    let players = stored::players(tx, game.id).await?;
    let mut lines = Vec::with_capacity(players.len());
    for p in &players {
        let character = match p.character_id {
            Some(id) => characters::get(tx, guild_id, id)
                .await?
                .map(|c| format!("**{}**", crate::app::view::clean(&c.name)))
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
        "nobody yet: **Join** below".to_string()
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
        format!("Game: {}", crate::app::view::escape(&game.name))
    } else {
        format!("Game: {} (ended)", crate::app::view::escape(&game.name))
    };
    let mut embed = Embed::new(title)
        .colour(colour::NEUTRAL)
        .field("System", app.registry.display(&game.system), true)
        .field("Pace", pace, true)
        .field("Channels", channels_text, false);
    if let Some(gm) = game.gm_channel {
        embed = embed.field("GM channel", format!("<#{gm}> (its secret rolls)"), false);
    }
    Ok(embed
        .field("Game masters", gm_mentions(&gms), false)
        .field("Players", players_text, false))
}
