//! Slash commands of the generic roller (thin: options in, view out).
//!
//! `/roll` keeps its `expression:` and gains `name:` (a saved roll,
//! autocompleted); saving, listing and forgetting are a separate `/rolls`
//! group, because Discord cannot invoke a command that has subcommands:
//! making `/roll` a group would have broken `/roll expression:2d6`.

use poise::serenity_prelude as serenity;

use crate::app::AppError;
use crate::kit::{caller_of, respond, respond_as, secret_caller, Context, Data, Error};

/// Every command of this system.
pub fn all() -> Vec<poise::Command<Data, Error>> {
    vec![roll(), rolls()]
}

async fn ac_saved(ctx: Context<'_>, partial: &str) -> serenity::CreateAutocompleteResponse {
    let Ok(caller) = caller_of(ctx) else {
        return serenity::CreateAutocompleteResponse::new();
    };
    let choices = super::named::choices(&ctx.data().app, &caller, partial)
        .await
        .into_iter()
        .map(|(label, value)| serenity::AutocompleteChoice::new(label, value))
        .collect();
    serenity::CreateAutocompleteResponse::new().set_choices(choices)
}

/// Roll dice: 3d6+2, 4d6kh3, 5d10>=8, 1d20+5>=15, 6#4d6kh3 … (/help system:Generic dice)
#[poise::command(slash_command, guild_only)]
pub async fn roll(
    ctx: Context<'_>,
    #[description = "Dice like 3d6+2, 4d6dl1, 2d10!, 5d10>=8f1, 1d20+5 >= 15, 2*1d8 [fire], 6#4d6kh3"]
    #[max_length = 200]
    expression: Option<String>,
    #[description = "Only you and the FC see it"] secret: Option<bool>,
    #[description = "A roll you saved with /rolls save (instead of an expression)"]
    #[autocomplete = "ac_saved"]
    #[max_length = 100]
    name: Option<String>,
) -> Result<(), Error> {
    let Some(caller) = secret_caller(ctx, secret).await? else {
        return Ok(());
    };
    let app = &ctx.data().app;
    let result = match (expression, name) {
        (Some(e), None) => super::roll(app, &caller, &e).await,
        (None, Some(n)) => super::named::roll(app, &caller, &n).await,
        _ => Err(AppError::user(
            "Give either `expression:` (like `3d6+2`) or `name:` (a roll saved with `/rolls save`).",
        )),
    };
    respond_as(ctx, &caller, result).await
}

/// Your saved rolls: save, list, forget (roll one with /roll name:)
#[poise::command(
    slash_command,
    guild_only,
    subcommands("rolls_save", "rolls_list", "rolls_forget"),
    subcommand_required
)]
pub async fn rolls(_ctx: Context<'_>) -> Result<(), Error> {
    Ok(())
}

/// Save an expression under a name (at most 50 per member here)
#[poise::command(slash_command, guild_only, rename = "save")]
pub async fn rolls_save(
    ctx: Context<'_>,
    #[description = "Its name, e.g. Fireball"]
    #[max_length = 32]
    name: String,
    #[description = "The dice, e.g. 8d6 or 1d20+7 >= 15"]
    #[max_length = 200]
    expression: String,
) -> Result<(), Error> {
    let caller = caller_of(ctx)?;
    let r = super::named::save(&ctx.data().app, &caller, &name, &expression).await;
    respond(ctx, r).await
}

/// List your saved rolls
#[poise::command(slash_command, guild_only, rename = "list")]
pub async fn rolls_list(ctx: Context<'_>) -> Result<(), Error> {
    let caller = caller_of(ctx)?;
    let r = super::named::list(&ctx.data().app, &caller).await;
    respond(ctx, r).await
}

/// Forget a saved roll
#[poise::command(slash_command, guild_only, rename = "forget")]
pub async fn rolls_forget(
    ctx: Context<'_>,
    #[description = "The roll to forget"]
    #[autocomplete = "ac_saved"]
    #[max_length = 100]
    name: String,
) -> Result<(), Error> {
    let caller = caller_of(ctx)?;
    let r = super::named::forget(&ctx.data().app, &caller, &name).await;
    respond(ctx, r).await
}
