//! `/vr settings show` and `/vr settings set` (FC): the guild's `vr_*`
//! rules settings, described and validated by the rules core.

use serde_json::json;

use super::target::{record, settings};
use super::SYSTEM;
use crate::app::settings as app_settings;
use crate::app::view::{colour, Embed, View};
use crate::app::Act;
use crate::app::{rights, App, AppResult, Caller, Response};
use crate::rules::veracity::settings::SETTING_NAMES;
use crate::rules::veracity::VeracitySettings;

fn embed(s: &VeracitySettings, note: Option<&str>) -> Embed {
    let mut e = Embed::new("⚙️ Veracity settings").colour(colour::NEUTRAL);
    for info in s.describe() {
        e = e.field(
            format!("{} = {}", info.name, info.value),
            format!("{}\n*Values: {}*", info.help, info.allowed),
            false,
        );
    }
    if let Some(n) = note {
        e = e.description(n);
    }
    e.footer("The referee changes one with /vr settings set name:<setting> value:<value>.")
}

/// `/vr settings show`.
pub async fn show(app: &App, caller: &Caller) -> AppResult {
    let mut tx = app.db.read().await?;
    let s = settings(&mut tx, caller.guild_id).await?;
    Ok(Response::ephemeral(View::embed(embed(&s, None))))
}

/// `/vr settings set` (FC).
pub async fn set(app: &App, caller: &Caller, name: &str, value: &str) -> AppResult {
    let mut tx = Act::begin(app, caller).await?;
    rights::require_gm(&mut tx, caller, super::GM, "change the Veracity settings").await?;
    let mut s = settings(&mut tx, caller.guild_id).await?;
    s.set(name, value)?;
    app_settings::save_scoped(&mut tx, caller.guild_id, SYSTEM, &s).await?;
    record(
        &mut tx,
        caller,
        "settings_set",
        None,
        None,
        &json!({"name": name, "value": value}),
        &[],
    )
    .await?;
    tx.commit().await?;
    let note = format!(
        "✅ `{}` is now `{}`.",
        name.trim().to_ascii_lowercase(),
        value.trim().to_ascii_lowercase()
    );
    Ok(Response::message(View::embed(embed(&s, Some(&note)))))
}

/// Setting names matching `partial`, for autocomplete.
pub fn names(partial: &str) -> Vec<String> {
    let p = partial.trim().to_lowercase();
    SETTING_NAMES
        .iter()
        .filter(|n| n.contains(&p))
        .map(|n| n.to_string())
        .collect()
}
