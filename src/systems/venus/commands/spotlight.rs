//! `/ve spotlight …`: the spotlight tracker (turns passed around the table,
//! rounds and scenes; see [`crate::systems::venus::spotlight`]).

use poise::serenity_prelude as serenity;

use crate::kit::{caller_of, respond, Context, Error};
use crate::systems::venus::spotlight;

/// The spotlight: turns, rounds and scenes.
#[poise::command(
    slash_command,
    guild_only,
    subcommands("start", "join", "remove", "hold", "scene", "pass", "show", "end"),
    subcommand_required
)]
pub async fn spotlight(_ctx: Context<'_>) -> Result<(), Error> {
    Ok(())
}

/// Start the spotlight in this channel (FC)
#[poise::command(default_member_permissions = "MANAGE_GUILD", slash_command, guild_only)]
pub async fn start(
    ctx: Context<'_>,
    #[description = "The first scene's title (or set it later with /ve spotlight scene)"]
    #[max_length = 100]
    scene: Option<String>,
) -> Result<(), Error> {
    let caller = caller_of(ctx)?;
    let r = spotlight::start(&ctx.data().app, &caller, scene.as_deref()).await;
    respond(ctx, r).await
}

/// Join the spotlight with your active character (the FC may seat anyone's)
#[poise::command(slash_command, guild_only)]
pub async fn join(
    ctx: Context<'_>,
    #[description = "Character (default: active)"]
    #[autocomplete = "crate::kit::complete_character"]
    #[max_length = 64]
    character: Option<String>,
    #[description = "Whose (FC)"] player: Option<serenity::User>,
) -> Result<(), Error> {
    let caller = caller_of(ctx)?;
    let player = player.map(|u| u.id.get() as i64);
    let r = spotlight::join(&ctx.data().app, &caller, character.as_deref(), player).await;
    respond(ctx, r).await
}

/// Remove a character from the spotlight (FC; a player may remove their own)
#[poise::command(slash_command, guild_only)]
pub async fn remove(
    ctx: Context<'_>,
    #[description = "The character"]
    #[autocomplete = "crate::kit::complete_character"]
    #[max_length = 64]
    character: String,
) -> Result<(), Error> {
    let caller = caller_of(ctx)?;
    let r = spotlight::remove(&ctx.data().app, &caller, &character).await;
    respond(ctx, r).await
}

/// Put a character on hold: not in this scene, their turn is skipped (FC)
#[poise::command(default_member_permissions = "MANAGE_GUILD", slash_command, guild_only)]
pub async fn hold(
    ctx: Context<'_>,
    #[description = "The character"]
    #[autocomplete = "crate::kit::complete_character"]
    #[max_length = 64]
    character: String,
    #[description = "On hold (default) or back in the turns (false)"] held: Option<bool>,
) -> Result<(), Error> {
    let caller = caller_of(ctx)?;
    let r = spotlight::hold(&ctx.data().app, &caller, &character, held.unwrap_or(true)).await;
    respond(ctx, r).await
}

/// A new scene (FC), or offer to introduce the next scene (a player; the FC allows it)
#[poise::command(slash_command, guild_only)]
pub async fn scene(
    ctx: Context<'_>,
    #[description = "The scene's title"]
    #[max_length = 100]
    title: String,
    #[description = "FC: the character whose player introduced it (earns Ego if not held)"]
    #[autocomplete = "crate::kit::complete_character"]
    #[max_length = 64]
    introduced_by: Option<String>,
) -> Result<(), Error> {
    let caller = caller_of(ctx)?;
    let r = spotlight::scene(&ctx.data().app, &caller, &title, introduced_by.as_deref()).await;
    respond(ctx, r).await
}

/// Pass the turn on (the player whose turn it is, or the FC)
#[poise::command(slash_command, guild_only)]
pub async fn pass(ctx: Context<'_>) -> Result<(), Error> {
    let caller = caller_of(ctx)?;
    let r = spotlight::pass(&ctx.data().app, &caller).await;
    respond(ctx, r).await
}

/// Post the spotlight again at the bottom of the channel
#[poise::command(slash_command, guild_only)]
pub async fn show(ctx: Context<'_>) -> Result<(), Error> {
    let caller = caller_of(ctx)?;
    let r = spotlight::show(&ctx.data().app, &caller).await;
    respond(ctx, r).await
}

/// End the spotlight (FC)
#[poise::command(default_member_permissions = "MANAGE_GUILD", slash_command, guild_only)]
pub async fn end(ctx: Context<'_>) -> Result<(), Error> {
    let caller = caller_of(ctx)?;
    let r = spotlight::end(&ctx.data().app, &caller).await;
    respond(ctx, r).await
}
