//! The `/game` slash commands (thin: options in, view out).

use poise::serenity_prelude as serenity;

use super::players::Which;
use crate::app::registry::Registry;
use crate::app::AppError;
use crate::kit::{caller_of, respond, set_choices, subcommand, Context, Data, Error};

/// Every command of the games.
pub fn all() -> Vec<poise::Command<Data, Error>> {
    vec![game(), game_gm()]
}

/// What `/game-gm create system:` offers: the playable systems, in the
/// registry's order.
pub fn system_choices(reg: &Registry) -> Vec<&'static str> {
    reg.playable().map(|s| s.id()).collect()
}

/// Fills the choice list of `/game-gm create system:` from the registry.
pub fn finish(root: &mut poise::Command<Data, Error>, reg: &Registry) {
    if let Some(c) = subcommand(root, &["create"]) {
        let names = system_choices(reg)
            .into_iter()
            .map(|id| reg.display(id).to_string());
        set_choices(c, "system", names);
    }
}

/// The game of this channel: its players, game masters, waits and house rules; Join or Leave
#[poise::command(slash_command, guild_only)]
pub async fn game(
    ctx: Context<'_>,
    #[description = "Join this channel's game (or change your character in it) as this character"]
    #[max_length = 100]
    character: Option<String>,
) -> Result<(), Error> {
    let caller = caller_of(ctx)?;
    let app = &ctx.data().app;
    let r = match character
        .as_deref()
        .map(str::trim)
        .filter(|c| !c.is_empty())
    {
        Some(c) => super::players::join(app, &caller, Which::Here, Some(c)).await,
        None => super::card::card(app, &caller).await,
    };
    respond(ctx, r).await
}

/// Game master: start and run this server's games (channels, game masters, pace, end)
#[poise::command(
    default_member_permissions = "MANAGE_GUILD",
    slash_command,
    guild_only,
    rename = "game-gm",
    subcommands("create", "channel", "gm", "gm_channel", "pace", "end"),
    subcommand_required
)]
pub async fn game_gm(_: Context<'_>) -> Result<(), Error> {
    Ok(())
}

/// Start a game in this channel (server managers and the FC)
#[poise::command(default_member_permissions = "MANAGE_GUILD", slash_command, guild_only)]
pub async fn create(
    ctx: Context<'_>,
    #[description = "Its name (unique on this server)"]
    #[max_length = 50]
    name: String,
    #[description = "The system it plays"] system: u32,
) -> Result<(), Error> {
    let caller = caller_of(ctx)?;
    let app = &ctx.data().app;
    let system = *system_choices(&app.registry)
        .get(system as usize)
        .ok_or_else(|| AppError::user("That is not one of the listed systems."))?;
    let r = super::create::create(app, &caller, &name, system).await;
    // Its system's commands join the server's picker (issue 31 item 1).
    let r = crate::kit::game_commands::after_change(ctx, caller.guild_id, r).await;
    respond(ctx, r).await
}

/// The channels this game plays in
#[poise::command(
    default_member_permissions = "MANAGE_GUILD",
    slash_command,
    guild_only,
    subcommands("channel_add", "channel_remove"),
    subcommand_required
)]
pub async fn channel(_: Context<'_>) -> Result<(), Error> {
    Ok(())
}

/// Add a channel, category or forum to this game (its game masters)
#[poise::command(slash_command, guild_only, rename = "add")]
pub async fn channel_add(
    ctx: Context<'_>,
    #[description = "The channel (a category or forum brings every channel or thread in it)"]
    #[channel_types("Text", "Category", "Forum", "PublicThread", "PrivateThread")]
    channel: serenity::ChannelId,
) -> Result<(), Error> {
    let caller = caller_of(ctx)?;
    let r = super::channel::add(&ctx.data().app, &caller, channel.get() as i64).await;
    respond(ctx, r).await
}

/// Remove a channel from this game (its game masters)
#[poise::command(slash_command, guild_only, rename = "remove")]
pub async fn channel_remove(
    ctx: Context<'_>,
    #[description = "The channel"]
    #[channel_types("Text", "Category", "Forum", "PublicThread", "PrivateThread")]
    channel: serenity::ChannelId,
) -> Result<(), Error> {
    let caller = caller_of(ctx)?;
    let r = super::channel::remove(&ctx.data().app, &caller, channel.get() as i64).await;
    respond(ctx, r).await
}

/// This game's game masters
#[poise::command(
    default_member_permissions = "MANAGE_GUILD",
    slash_command,
    guild_only,
    subcommands("gm_add", "gm_remove"),
    subcommand_required
)]
pub async fn gm(_: Context<'_>) -> Result<(), Error> {
    Ok(())
}

/// Make a member or a role game master of this game (its game masters)
#[poise::command(slash_command, guild_only, rename = "add")]
pub async fn gm_add(
    ctx: Context<'_>,
    #[description = "The member"] member: Option<serenity::UserId>,
    #[description = "Or every member with this role"] role: Option<serenity::RoleId>,
) -> Result<(), Error> {
    let caller = caller_of(ctx)?;
    let r = match super::gm::named(member.map(|m| m.get() as i64), role.map(|r| r.get() as i64)) {
        Ok(gm) => super::gm::add(&ctx.data().app, &caller, gm).await,
        Err(e) => Err(e),
    };
    respond(ctx, r).await
}

/// Take a member or a role off this game's game masters (its game masters)
#[poise::command(slash_command, guild_only, rename = "remove")]
pub async fn gm_remove(
    ctx: Context<'_>,
    #[description = "The member"] member: Option<serenity::UserId>,
    #[description = "Or the role"] role: Option<serenity::RoleId>,
) -> Result<(), Error> {
    let caller = caller_of(ctx)?;
    let r = match super::gm::named(member.map(|m| m.get() as i64), role.map(|r| r.get() as i64)) {
        Ok(gm) => super::gm::remove(&ctx.data().app, &caller, gm).await,
        Err(e) => Err(e),
    };
    respond(ctx, r).await
}

/// How this game plays
#[derive(Debug, Clone, Copy, PartialEq, Eq, poise::ChoiceParameter)]
pub enum Pace {
    /// At the table: rolls wait as the server's sessions do.
    #[name = "live"]
    Live,
    /// By post: rolls wait days.
    #[name = "post"]
    Post,
}

/// Where the game's secret rolls go (its game masters)
#[poise::command(
    default_member_permissions = "MANAGE_GUILD",
    slash_command,
    guild_only,
    rename = "gm-channel"
)]
pub async fn gm_channel(
    ctx: Context<'_>,
    #[description = "The game's GM channel for secret rolls"]
    #[channel_types("Text", "PrivateThread", "PublicThread")]
    channel: Option<serenity::ChannelId>,
    #[description = "Back to the server's GM channel"] clear: Option<bool>,
) -> Result<(), Error> {
    let caller = caller_of(ctx)?;
    let r = super::gm_channel::gm_channel(
        &ctx.data().app,
        &caller,
        channel.map(|c| c.get() as i64),
        clear.unwrap_or(false),
    )
    .await;
    respond(ctx, r).await
}

/// Play live, or by post with rolls that wait days (its game masters)
#[poise::command(default_member_permissions = "MANAGE_GUILD", slash_command, guild_only)]
pub async fn pace(
    ctx: Context<'_>,
    #[description = "live, or post (play by post)"] pace: Pace,
    #[description = "By post: how many days a roll waits (1-30, default 7)"]
    #[min = 1]
    #[max = 30]
    days: Option<u32>,
) -> Result<(), Error> {
    let caller = caller_of(ctx)?;
    let r = super::pace::pace(
        &ctx.data().app,
        &caller,
        pace == Pace::Post,
        days.map(i64::from),
    )
    .await;
    respond(ctx, r).await
}

/// End this game: nothing rolls in its channels any more (its game masters)
#[poise::command(default_member_permissions = "MANAGE_GUILD", slash_command, guild_only)]
pub async fn end(ctx: Context<'_>) -> Result<(), Error> {
    let caller = caller_of(ctx)?;
    let r = super::end::end(&ctx.data().app, &caller).await;
    let r = crate::kit::game_commands::after_change(ctx, caller.guild_id, r).await;
    respond(ctx, r).await
}
