//! Named rolls: a member saves expressions under names in a guild
//! (`/rolls save|list|forget`, at most [`MAX_NAMED`]) and rolls one with
//! `/roll name:` (autocompleted).

use crate::app::pipeline::{Outcome, Turn};
use crate::app::view::{colour, Embed, View};
use crate::app::{App, AppError, AppResult, Caller, Response};
use crate::rules::expr;
use crate::storage::{self, named_rolls};

/// Most saved rolls per member per guild.
pub const MAX_NAMED: i64 = 50;
/// Longest name, in characters.
pub const MAX_NAME: usize = 32;

fn check_name(name: &str) -> Result<&str, AppError> {
    let name = name.trim();
    let len = name.chars().count();
    if len == 0 || len > MAX_NAME {
        return Err(AppError::user(format!(
            "A roll's name has 1 to {MAX_NAME} characters."
        )));
    }
    if name.contains(['`', '\n', '*', '_', '~', '|']) {
        return Err(AppError::user(
            "A roll's name may not contain backticks, line breaks or `* _ ~ |`.",
        ));
    }
    Ok(name)
}

/// `/rolls save name: expression:`: checks the expression and saves it in
/// its canonical form (replacing a roll of the same name).
pub async fn save(app: &App, caller: &Caller, name: &str, expression: &str) -> AppResult {
    let name = check_name(name)?;
    let e = expr::parse(expression, super::caps(app))?;
    let canonical = e.to_string();
    let mut turn = Turn::<super::Dice>::begin(app, caller).await?;
    let (guild, user) = (caller.guild_id, caller.user_id);
    let existing = named_rolls::get(turn.tx(), guild, user, name).await?;
    if existing.is_none() && named_rolls::count(turn.tx(), guild, user).await? >= MAX_NAMED {
        return Err(AppError::user(format!(
            "You have {MAX_NAMED} saved rolls here, the most: forget one first with `/rolls forget`."
        )));
    }
    let verb = if existing.is_some() {
        "Replaced"
    } else {
        "Saved"
    };
    let answer = Response::ephemeral(View::embed(
        Embed::new(format!("💾 {verb} **{name}**"))
            .description(format!("`{canonical}` — roll it with `/roll name:{name}`."))
            .colour(colour::SUCCESS),
    ));
    let name = name.to_string();
    let out = Outcome::answer(answer).also(move |tx| {
        Box::pin(async move {
            let now = storage::now_ms();
            named_rolls::save(tx, guild, user, &name, &canonical, now).await?;
            Ok(())
        })
    });
    turn.finish(out).await
}

/// `/rolls list`: the caller's saved rolls here.
pub async fn list(app: &App, caller: &Caller) -> AppResult {
    let mut tx = app.db.read().await?;
    let rolls = named_rolls::list(&mut tx, caller.guild_id, caller.user_id).await?;
    drop(tx);
    let description = if rolls.is_empty() {
        "None yet: save one with `/rolls save name:Fireball expression:8d6`.".to_string()
    } else {
        rolls
            .iter()
            .map(|r| format!("**{}**: `{}`", r.name, r.expression))
            .collect::<Vec<_>>()
            .join("\n")
    };
    let mut description = description;
    crate::app::view::truncate(&mut description, crate::app::view::limits::DESCRIPTION);
    Ok(Response::ephemeral(View::embed(
        Embed::new(format!(
            "💾 Your saved rolls ({} of {MAX_NAMED})",
            rolls.len()
        ))
        .description(description)
        .colour(colour::NEUTRAL),
    )))
}

/// `/rolls forget name:`.
pub async fn forget(app: &App, caller: &Caller, name: &str) -> AppResult {
    let mut turn = Turn::<super::Dice>::begin(app, caller).await?;
    let (guild, user) = (caller.guild_id, caller.user_id);
    let shown = name.trim().replace('`', "'");
    if named_rolls::get(turn.tx(), guild, user, name)
        .await?
        .is_none()
    {
        return Err(AppError::user(format!(
            "You have no saved roll named `{shown}`: `/rolls list` shows yours."
        )));
    }
    let answer = Response::ephemeral(View::embed(
        Embed::new(format!("🗑️ Forgot **{shown}**")).colour(colour::NEUTRAL),
    ));
    let name = name.to_string();
    let out = Outcome::answer(answer).also(move |tx| {
        Box::pin(async move {
            named_rolls::forget(tx, guild, user, &name).await?;
            Ok(())
        })
    });
    turn.finish(out).await
}

/// `/roll name:`: rolls a saved expression like `/roll expression:`.
pub async fn roll(app: &App, caller: &Caller, name: &str) -> AppResult {
    let mut tx = app.db.read().await?;
    let found = named_rolls::get(&mut tx, caller.guild_id, caller.user_id, name).await?;
    drop(tx);
    let Some(r) = found else {
        return Err(AppError::user(format!(
            "You have no saved roll named `{}`: `/rolls list` shows yours.",
            name.trim().replace('`', "'")
        )));
    };
    super::roll(app, caller, &r.expression).await
}

/// Autocomplete for `name:`: the caller's rolls whose name contains `partial`.
pub async fn choices(app: &App, caller: &Caller, partial: &str) -> Vec<(String, String)> {
    let Ok(mut tx) = app.db.read().await else {
        return Vec::new();
    };
    let rolls = named_rolls::list(&mut tx, caller.guild_id, caller.user_id)
        .await
        .unwrap_or_default();
    let p = partial.trim().to_lowercase();
    rolls
        .into_iter()
        .filter(|r| r.name.to_lowercase().contains(&p))
        .take(25)
        .map(|r| {
            let mut label = format!("{} — {}", r.name, r.expression);
            crate::app::view::truncate(&mut label, 100);
            (label, r.name)
        })
        .collect()
}
