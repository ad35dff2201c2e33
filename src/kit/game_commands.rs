//! Registers each server's game commands (issue 31 item 1): the roots of
//! the games it plays ([`crate::app::game_commands::roots`]) and their game
//! masters' roots (`/vr-gm` beside `/vr`), scoped to the server, beside
//! the shared commands registered for every server.
//!
//! The adapter calls [`sync`] when a server announces itself (at each
//! connection) and `/fc set` and `/fc channel-system` call it after a
//! change. It registers only when the roots or their definitions changed
//! since the last registration there (a signature kept in the database),
//! so a restart costs no request per server, and Discord's daily limit on
//! command creations in a server is not spent on repeats.

use super::{Data, Error};
use crate::app::game_commands;
use crate::app::{AppResult, Reply, View};
use poise::serenity_prelude as serenity;

/// Each game's root command and its game master's root as Discord
/// receives them, by the game's root name.
#[derive(Default)]
pub struct GameCommands {
    /// The roots; empty when every command is registered in one server
    /// already (development), which then has them all.
    by_root: Vec<(String, serenity::CreateCommand)>,
    /// One registration at a time per server, so the last to run reads
    /// the latest settings (a server's announcement and a game master's
    /// change may come together).
    busy: std::sync::Mutex<std::collections::HashMap<i64, std::sync::Arc<tokio::sync::Mutex<()>>>>,
}

impl GameCommands {
    /// Splits `commands` (every command as Discord receives it) into the
    /// shared ones, returned, and the games' roots (named by `game_roots`)
    /// with their game masters' roots, kept for per-server registration.
    pub fn split(
        commands: Vec<serenity::CreateCommand>,
        game_roots: &[&str],
    ) -> (Vec<serenity::CreateCommand>, Self) {
        let mut shared = Vec::new();
        let mut by_root = Vec::new();
        for c in commands {
            match name_of(&c) {
                Some(n) if game_roots.contains(&super::game_root_of(&n)) => {
                    by_root.push((super::game_root_of(&n).to_string(), c));
                }
                _ => shared.push(c),
            }
        }
        let busy = Default::default();
        (shared, Self { by_root, busy })
    }

    /// Whether the games' commands are registered per server.
    pub fn per_server(&self) -> bool {
        !self.by_root.is_empty()
    }
}

/// A command's name, as it is sent to Discord.
fn name_of(c: &serenity::CreateCommand) -> Option<String> {
    let json = serde_json::to_value(c).ok()?;
    json.get("name")?.as_str().map(str::to_string)
}

/// Registers in `guild_id` the roots of the games it plays, unless exactly
/// those are registered there already. `Ok(true)` when it registered.
pub async fn sync(data: &Data, http: &serenity::Http, guild_id: i64) -> Result<bool, Error> {
    let games = &data.game_commands;
    if !games.per_server() {
        return Ok(false);
    }
    let turn = games
        .busy
        .lock()
        .unwrap_or_else(|e| e.into_inner())
        .entry(guild_id)
        .or_default()
        .clone();
    let _turn = turn.lock().await;
    let roots = game_commands::roots(&data.app, guild_id).await?;
    let list: Vec<serenity::CreateCommand> = games
        .by_root
        .iter()
        .filter(|(n, _)| roots.contains(&n.as_str()))
        .map(|(_, c)| c.clone())
        .collect();
    let signature = signature(&roots, &list)?;
    if game_commands::registered(&data.app, guild_id)
        .await?
        .as_deref()
        == Some(&signature)
    {
        return Ok(false);
    }
    let guild = serenity::GuildId::new(guild_id.unsigned_abs());
    super::deliver::retry("a server's game commands", || {
        guild.set_commands(http, list.clone())
    })
    .await?;
    game_commands::save_registered(&data.app, guild_id, &signature).await?;
    tracing::info!(guild_id, roots = ?roots, "game commands registered in a server");
    Ok(true)
}

/// After the game master changed a house rule (`/fc set`) or a channel's
/// system (`/fc channel-system`), before the answer goes out: registers
/// the server's game commands anew if what it plays changed (so the next
/// command already finds them), and if Discord refuses, adds a private
/// note for the game master that the setting holds but the command list
/// did not follow yet.
pub async fn after_change(ctx: super::Context<'_>, guild_id: i64, result: AppResult) -> AppResult {
    let mut response = result?;
    if let Err(e) = sync(ctx.data(), ctx.http(), guild_id).await {
        tracing::error!(guild_id, %e, "could not register a server's game commands");
        response
            .followups
            .push(Reply::Ephemeral(View::text(NOT_TAKEN)));
    }
    Ok(response)
}

/// The game master's note when Discord refused a server's new commands.
const NOT_TAKEN: &str = "The setting is saved, but Discord did not take this server's new list of game commands, so the command picker still shows the old one. It is tried again when the bot reconnects, or when you change the setting again.";

/// What is registered: the roots, and a hash of their definitions (64-bit
/// FNV-1a of the JSON Discord receives, stable across builds), so a new
/// version of a command is registered again.
fn signature(roots: &[&str], list: &[serenity::CreateCommand]) -> Result<String, Error> {
    let json = serde_json::to_string(list)?;
    let hash = json.bytes().fold(0xcbf2_9ce4_8422_2325_u64, |h, b| {
        (h ^ u64::from(b)).wrapping_mul(0x0000_0100_0000_01b3)
    });
    Ok(format!("{} {hash:016x}", roots.join(",")))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_games_roots_are_split_from_the_shared_commands() {
        let commands = ["roll", "ve", "ve-gm", "help", "st", "fc"]
            .map(|n| serenity::CreateCommand::new(n).description("d"))
            .to_vec();
        let (shared, games) = GameCommands::split(commands, &["ve", "st", "vr"]);
        let names: Vec<_> = shared.iter().filter_map(name_of).collect();
        assert_eq!(names, ["roll", "help", "fc"]);
        let roots: Vec<_> = games.by_root.iter().map(|(n, _)| n.as_str()).collect();
        assert_eq!(roots, ["ve", "ve", "st"]);
        let named: Vec<_> = games
            .by_root
            .iter()
            .filter_map(|(_, c)| name_of(c))
            .collect();
        assert_eq!(named, ["ve", "ve-gm", "st"]);
        assert!(games.per_server());
        assert!(!GameCommands::default().per_server());
    }

    #[test]
    fn a_signature_changes_with_the_roots_and_their_definitions() {
        let ve = serenity::CreateCommand::new("ve").description("Venus");
        let a = signature(&["ve"], std::slice::from_ref(&ve)).unwrap();
        assert_eq!(a, signature(&["ve"], std::slice::from_ref(&ve)).unwrap());
        assert!(a.starts_with("ve "), "{a}");
        let changed = serenity::CreateCommand::new("ve").description("Venus Engine");
        assert_ne!(a, signature(&["ve"], &[changed]).unwrap());
        assert_ne!(a, signature(&[], &[]).unwrap());
    }
}
