//! Which games' commands a server sees (issue 31 item 1): a server that
//! plays one system should not scroll past four others in its command
//! picker.
//!
//! The shared commands (`/roll`, `/help`, `/fc` …) are registered for every
//! server at once; each game's root (`/ve`, `/vr`, `/st`, `/vv`) is
//! registered per server, for the games it plays ([`roots`]): the server's
//! `system` setting, every channel's `/fc channel-system` and the systems
//! of its running games (issue 32); a server that names no `system` sees
//! every game. The adapter registers them when a server
//! announces itself and when the game master changes what it plays, and
//! keeps a signature of what it last registered there ([`registered`],
//! [`save_registered`]), so a restart re-registers nothing that did not
//! change (Discord limits how often a server's commands may be created).

use super::settings::{self, ChannelSettings};
use super::{App, AppError};
use crate::storage;

/// The settings scope that keeps the signature of a server's registered
/// game commands (deleted with the server's other data).
const SCOPE: &str = "discord:commands";

/// The command roots of the games `guild_id` plays, in the registry's
/// order: those of its `system`, of its channels' systems and of its
/// running games' systems; every
/// playable game's when it names no `system` (a channel without a choice
/// of its own plays anything there).
pub async fn roots(app: &App, guild_id: i64) -> Result<Vec<&'static str>, AppError> {
    let mut tx = app.db.glance().await?;
    let Some(server) = settings::guild(&mut tx, guild_id).await?.system else {
        return Ok(app
            .registry
            .playable()
            .filter_map(|g| g.command_root())
            .collect());
    };
    let mut played = vec![server];
    played.extend(storage::games::live_systems(&mut tx, guild_id).await?);
    for (_, json) in storage::settings::with_prefix(&mut tx, guild_id, "channel:").await? {
        // A channel's row that does not read is a channel without a choice.
        if let Some(system) = serde_json::from_str::<ChannelSettings>(&json)
            .ok()
            .and_then(|c| c.system)
        {
            played.push(system);
        }
    }
    drop(tx);
    Ok(app
        .registry
        .playable()
        .filter(|g| played.iter().any(|p| p == g.id()))
        .filter_map(|g| g.command_root())
        .collect())
}

/// The signature of the game commands last registered in `guild_id`.
pub async fn registered(app: &App, guild_id: i64) -> Result<Option<String>, AppError> {
    let mut tx = app.db.glance().await?;
    let json = storage::settings::get(&mut tx, guild_id, SCOPE).await?;
    Ok(json.and_then(|j| serde_json::from_str::<String>(&j).ok()))
}

/// Keeps `signature` as what is registered in `guild_id` now.
pub async fn save_registered(app: &App, guild_id: i64, signature: &str) -> Result<(), AppError> {
    let json = serde_json::to_string(signature)?;
    let mut tx = app.db.write_one().await?;
    storage::settings::put(&mut tx, guild_id, SCOPE, &json, storage::now_ms()).await?;
    tx.commit().await?;
    Ok(())
}

/// Forgets what is registered in `guild_id` (the bot is back after it was
/// removed, and its commands went with it): the next registration there
/// happens whatever the signature said.
pub async fn forget_registered(app: &App, guild_id: i64) -> Result<(), AppError> {
    let mut tx = app.db.write_one().await?;
    storage::settings::delete(&mut tx, guild_id, SCOPE).await?;
    tx.commit().await?;
    Ok(())
}
