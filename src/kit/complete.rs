//! Autocomplete shared by every system: the `character:` option of any
//! command that names an existing character.

use poise::serenity_prelude as serenity;

use super::{caller_of, root_name, Context};
use crate::app::{characters, rights, settings};

/// Suggests character names for a `character:` option: the caller's own
/// characters, every member's for the FC, in the system whose root the
/// command is under (`/vv …` suggests Virtual Veil characters), or for a
/// command of no system (`/fc undo`) in the channel's system (every
/// system with sheets when the channel plays none).
pub async fn complete_character(
    ctx: Context<'_>,
    partial: &str,
) -> serenity::CreateAutocompleteResponse {
    let mut choices = Vec::new();
    let app = &ctx.data().app;
    let root = root_name(ctx);
    let Ok(caller) = caller_of(ctx) else {
        return serenity::CreateAutocompleteResponse::new();
    };
    // A command of no system (`/fc undo`) means the channel's system.
    let mut here = None;
    let mut fc = false;
    if let Ok(mut tx) = app.db.glance().await {
        fc = rights::is_fc(&mut tx, &caller).await.unwrap_or(false);
        if app.registry.by_root(&root).is_none() {
            here = settings::active_system(&mut tx, &caller)
                .await
                .ok()
                .flatten();
        }
    }
    let systems: Vec<&str> = match app
        .registry
        .by_root(&root)
        .or_else(|| here.as_deref().and_then(|id| app.registry.get(id)))
    {
        Some(system) => vec![system.id()],
        // No system here: every system with sheets.
        None => app
            .registry
            .all()
            .filter(|s| s.has_sheets())
            .map(|s| s.id())
            .collect(),
    };
    let mut names = Vec::new();
    for id in systems {
        names.extend(characters::autocomplete(&app.db, &caller, id, partial, fc).await);
    }
    names.dedup();
    names.truncate(25);
    choices.extend(names.into_iter().map(serenity::AutocompleteChoice::from));
    serenity::CreateAutocompleteResponse::new().set_choices(choices)
}
