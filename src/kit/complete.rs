//! Autocomplete shared by every system: the `character:` option of any
//! command that names an existing character.

use poise::serenity_prelude as serenity;

use super::{caller_of, root_name, Context};
use crate::app::{characters, rights};

/// Suggests character names for a `character:` option: the caller's own
/// characters, every member's for the FC, in the system whose root the
/// command is under (`/vv …` suggests Virtual Veil characters).
pub async fn complete_character(
    ctx: Context<'_>,
    partial: &str,
) -> serenity::CreateAutocompleteResponse {
    let mut choices = Vec::new();
    let app = &ctx.data().app;
    let root = root_name(ctx);
    if let (Ok(caller), Some(system)) = (caller_of(ctx), app.registry.by_root(&root)) {
        let fc = match app.db.read().await {
            Ok(mut tx) => rights::is_fc(&mut tx, &caller).await.unwrap_or(false),
            Err(_) => false,
        };
        choices = characters::autocomplete(&app.db, &caller, system.id(), partial, fc)
            .await
            .into_iter()
            .map(serenity::AutocompleteChoice::from)
            .collect();
    }
    serenity::CreateAutocompleteResponse::new().set_choices(choices)
}
