//! `/vv settings show|set`: the `vv_*` settings of spec §6, stored in the
//! guild's `ore` scope. Anyone may look; only the Compiler may change them.

use serde_json::json;

use super::{load_settings, SYSTEM};
use crate::app::view::{colour, Embed, View};
use crate::app::Act;
use crate::app::{log, rights, settings as app_settings, App, AppResult, Caller, Response};
use crate::rules::ore::settings::SETTING_NAMES;

fn embed(settings: &crate::rules::ore::OreSettings, title: &str) -> Embed {
    let mut e = Embed::new(title).colour(colour::NEUTRAL);
    for info in settings.describe() {
        e = e.field(
            format!("{} = {}", info.name, info.value),
            format!("{} ({})", info.help, info.allowed),
            false,
        );
    }
    e.footer("The Compiler changes one with /vv settings set name:<setting> value:<value>.")
}

/// `/vv settings show`.
pub async fn show(app: &App, caller: &Caller) -> AppResult {
    let mut tx = app.db.read().await?;
    let s = load_settings(&mut tx, caller.guild_id).await?;
    Ok(Response::ephemeral(View::embed(embed(
        &s,
        "⚙️ Virtual Veil settings",
    ))))
}

/// `/vv settings set`: one setting (the Compiler only).
pub async fn set(app: &App, caller: &Caller, name: &str, value: &str) -> AppResult {
    let mut tx = Act::begin(app, caller).await?;
    rights::require_gm(
        &mut tx,
        caller,
        super::GM,
        "change the Virtual Veil settings",
    )
    .await?;
    let mut s = load_settings(&mut tx, caller.guild_id).await?;
    let before = s.get(name);
    s.set(name, value)?;
    app_settings::save_scoped(&mut tx, caller.guild_id, SYSTEM, &s).await?;
    let key = name.trim().to_ascii_lowercase();
    let key = if key.starts_with("vv_") {
        key
    } else {
        format!("vv_{key}")
    };
    let after = s.get(&key).unwrap_or_default();
    log::record(
        &mut tx,
        caller,
        log::What {
            system: SYSTEM,
            action: "settings",
            session: None,
            character: None,
        },
        &json!({ "name": key, "value": value }),
        &json!([]),
        &json!({ "before": before, "after": after }),
    )
    .await?;
    tx.commit().await?;
    Ok(Response::message(View::embed(
        Embed::new("⚙️ Virtual Veil setting changed")
            .description(format!(
                "**{key}**: {} → **{after}**",
                before.unwrap_or_else(|| "?".into())
            ))
            .colour(colour::SUCCESS),
    )))
}

/// Setting names containing `partial`, for autocomplete.
pub fn names(partial: &str) -> Vec<String> {
    let p = partial.trim().to_ascii_lowercase();
    SETTING_NAMES
        .iter()
        .filter(|n| n.contains(&p))
        .map(|n| n.to_string())
        .collect()
}
