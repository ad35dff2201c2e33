//! `/ve spotlight …`: the spotlight tracker (turns passed around the table,
//! rounds and scenes; see [`crate::systems::venus::spotlight`]). Players
//! join, leave and pass with the tracker's own buttons; `scene` and `show`
//! are theirs here, `start`, `seat` and `end` the FC's (under `/ve-gm`).

use poise::serenity_prelude as serenity;

use crate::kit::{caller_of, respond, Context, Error};
use crate::systems::venus::spotlight;

/// The spotlight: turns, rounds and scenes.
#[poise::command(
    slash_command,
    guild_only,
    subcommands("start", "seat", "scene", "show", "end"),
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

/// What becomes of a character's seat.
#[derive(Debug, Clone, Copy, poise::ChoiceParameter)]
pub enum SeatChoice {
    /// In the turns (seated, or back from hold).
    Seated,
    /// On hold: not in this scene, their turn is skipped.
    Held,
    /// Out of the spotlight.
    Removed,
}

/// Seat anyone's character, put it on hold or back in the turns, or remove it (FC)
#[poise::command(default_member_permissions = "MANAGE_GUILD", slash_command, guild_only)]
pub async fn seat(
    ctx: Context<'_>,
    #[description = "The character"]
    #[autocomplete = "crate::kit::complete_character"]
    #[max_length = 64]
    character: String,
    #[description = "Seated (default), on hold, or removed"] state: Option<SeatChoice>,
    #[description = "Whose character, when seating it (default: yours)"] player: Option<
        serenity::User,
    >,
) -> Result<(), Error> {
    let caller = caller_of(ctx)?;
    let state = match state.unwrap_or(SeatChoice::Seated) {
        SeatChoice::Seated => spotlight::SeatState::Seated,
        SeatChoice::Held => spotlight::SeatState::Held,
        SeatChoice::Removed => spotlight::SeatState::Removed,
    };
    let player = player.map(|u| u.id.get() as i64);
    let r = spotlight::seat(&ctx.data().app, &caller, &character, player, state).await;
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
