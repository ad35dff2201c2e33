//! Autocomplete for `/ve` options: characters, abilities, jobs, settings.

use poise::serenity_prelude as serenity;

use crate::app::{characters, rights};
use crate::kit::suggest::choices;
use crate::kit::{caller_of, Context};
use crate::systems::venus::{calls, sheets, SYSTEM};

fn answer(names: Vec<String>) -> serenity::CreateAutocompleteResponse {
    serenity::CreateAutocompleteResponse::new().set_choices(
        names
            .into_iter()
            .take(25)
            .map(serenity::AutocompleteChoice::from)
            .collect(),
    )
}

/// The caller's Venus characters (the FC: the guild's).
pub async fn character(ctx: Context<'_>, partial: &str) -> serenity::CreateAutocompleteResponse {
    let Ok(caller) = caller_of(ctx) else {
        return answer(Vec::new());
    };
    let app = &ctx.data().app;
    let fc = match app.db.read().await {
        Ok(mut tx) => rights::is_fc(&mut tx, &caller).await.unwrap_or(false),
        Err(_) => false,
    };
    answer(characters::autocomplete(&app.db, &caller, SYSTEM, partial, fc).await)
}

/// Ability names, the caller's active sheet's first.
pub async fn ability(ctx: Context<'_>, partial: &str) -> serenity::CreateAutocompleteResponse {
    let Ok(caller) = caller_of(ctx) else {
        return answer(Vec::new());
    };
    answer(sheets::ability_names(&ctx.data().app, &caller, partial).await)
}

/// Job names, the caller's active sheet's first.
pub async fn job(ctx: Context<'_>, partial: &str) -> serenity::CreateAutocompleteResponse {
    let Ok(caller) = caller_of(ctx) else {
        return answer(Vec::new());
    };
    answer(sheets::job_names(&ctx.data().app, &caller, partial).await)
}

/// The open rolls in this channel for a `roll:` option: who, what, how old.
pub async fn roll(ctx: Context<'_>, partial: &str) -> serenity::CreateAutocompleteResponse {
    let Ok(caller) = caller_of(ctx) else {
        return answer(Vec::new());
    };
    let rolls = calls::open_rolls(&ctx.data().app, &caller, partial).await;
    choices(rolls.into_iter().take(25))
}
