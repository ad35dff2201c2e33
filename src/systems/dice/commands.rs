//! Slash commands of the generic roller (thin: options in, view out).
//!
//! `/roll` keeps its `expression:` and gains `name:` (a saved roll,
//! autocompleted) and `save:` (save the expression under a name while
//! rolling it); `/rolls` lists the saved rolls on a private card that
//! rolls or forgets one (a separate command, because Discord cannot invoke
//! a command that has subcommands: making `/roll` a group would have
//! broken `/roll expression:2d6`).

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
    #[description = "A roll you saved with save: (instead of an expression)"]
    #[autocomplete = "ac_saved"]
    #[max_length = 100]
    name: Option<String>,
    #[description = "Also save the expression under this name, e.g. Fireball (/rolls lists yours)"]
    #[max_length = 32]
    save: Option<String>,
) -> Result<(), Error> {
    let Some(caller) = secret_caller(ctx, secret).await? else {
        return Ok(());
    };
    let app = &ctx.data().app;
    let result = match (expression, name, save) {
        (Some(e), None, None) => super::roll(app, &caller, &e).await,
        (Some(e), None, Some(s)) => match super::named::save(app, &caller, &s, &e).await {
            Ok(saved) => super::roll(app, &caller, &e)
                .await
                .map(|r| r.then(saved.reply)),
            Err(err) => Err(err),
        },
        (None, Some(n), None) => super::named::roll(app, &caller, &n).await,
        (None, Some(_), Some(_)) => Err(AppError::user(
            "`save:` saves a new `expression:`; `name:` rolls one already saved. Give `expression:` with `save:`.",
        )),
        _ => Err(AppError::user(
            "Give either `expression:` (like `3d6+2`, with `save:NAME` to keep it) or `name:` (a roll you saved).",
        )),
    };
    respond_as(ctx, &caller, result).await
}

/// Your saved rolls: roll or forget one (save one with /roll expression: save:)
#[poise::command(slash_command, guild_only)]
pub async fn rolls(ctx: Context<'_>) -> Result<(), Error> {
    let caller = caller_of(ctx)?;
    let r = super::named::list(&ctx.data().app, &caller).await;
    respond(ctx, r).await
}
