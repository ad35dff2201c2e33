//! `/ve settings show` and `/ve settings set`.

use super::complete;
use crate::kit::{caller_of, respond, Context, Error};
use crate::systems::venus::admin;

/// The guild's Venus Engine settings.
#[poise::command(
    slash_command,
    guild_only,
    subcommands("show", "set"),
    subcommand_required
)]
pub async fn settings(_ctx: Context<'_>) -> Result<(), Error> {
    Ok(())
}

/// Show every Venus setting.
#[poise::command(slash_command, guild_only)]
pub async fn show(ctx: Context<'_>) -> Result<(), Error> {
    let caller = caller_of(ctx)?;
    let r = admin::settings_show(&ctx.data().app, &caller).await;
    respond(ctx, r).await
}

/// Change a Venus setting (FC only).
#[poise::command(slash_command, guild_only)]
pub async fn set(
    ctx: Context<'_>,
    #[description = "The setting, e.g. ve_edition"]
    #[autocomplete = "complete::setting"]
    #[max_length = 40]
    name: String,
    #[description = "Its new value"]
    #[max_length = 60]
    value: String,
) -> Result<(), Error> {
    let caller = caller_of(ctx)?;
    let r = admin::settings_set(&ctx.data().app, &caller, &name, &value).await;
    respond(ctx, r).await
}
