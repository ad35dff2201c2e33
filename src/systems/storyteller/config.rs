//! `/st settings show|set`: the guild's Storyteller settings (§6). Anyone
//! may read them; only the storyteller may change one.

use serde_json::json;

use crate::app::log::{self, What};
use crate::app::settings::{save_scoped, scoped};
use crate::app::view::{colour, truncate, Embed};
use crate::app::{rights, App, AppError, AppResult, Caller, Response, View};
use crate::rules::storyteller::settings::SettingInfo;
use crate::rules::storyteller::StorytellerSettings;

use super::context::check_len;
use super::{GM, SYSTEM};
use crate::app::Act;

/// The longest value `/st settings set` takes (custom trait lists are long).
pub const MAX_VALUE_LEN: usize = 1000;

fn settings_embed(title: &str, infos: &[SettingInfo]) -> Embed {
    let mut e = Embed::new(title).colour(colour::NEUTRAL);
    for i in infos {
        let mut value = i.value.clone();
        truncate(&mut value, 600);
        e = e.field(
            i.name,
            format!("**{value}**\n{}\n*Allowed:* {}", i.help, i.allowed),
            false,
        );
    }
    e.footer("The storyteller changes one with /st settings set name:<setting> value:<value>.")
}

/// `/st settings show`: every setting with its value (privately).
pub async fn show(app: &App, caller: &Caller) -> AppResult {
    let mut tx = app.db.read().await?;
    let s: StorytellerSettings = scoped(&mut tx, caller.guild_id, SYSTEM).await?;
    Ok(Response::ephemeral(View::embed(settings_embed(
        "⚙️ Storyteller settings",
        &s.describe(),
    ))))
}

/// `/st settings set`: changes one setting (the storyteller only).
pub async fn set(app: &App, caller: &Caller, name: &str, value: &str) -> AppResult {
    check_len(name, 100, "setting name")?;
    check_len(value, MAX_VALUE_LEN, "value")?;
    let mut tx = Act::begin(app, caller).await?;
    rights::require_gm(&mut tx, caller, GM, "change the Storyteller settings").await?;
    let mut s: StorytellerSettings = scoped(&mut tx, caller.guild_id, SYSTEM).await?;
    let before = s.clone();
    s.set(name, value)?;
    save_scoped(&mut tx, caller.guild_id, SYSTEM, &s).await?;
    let infos = s.describe();
    let changed: Vec<SettingInfo> = infos
        .into_iter()
        .filter(|i| i.name.eq_ignore_ascii_case(name.trim()))
        .collect();
    log::record(
        &mut tx,
        caller,
        What {
            system: SYSTEM,
            action: "settings",
            session: None,
            character: None,
        },
        &json!({ "name": name, "value": value }),
        &json!(null),
        &json!({ "before": before, "after": s }),
    )
    .await?;
    tx.commit().await?;
    let info = changed
        .first()
        .ok_or_else(|| AppError::Internal(format!("setting {name} vanished")))?;
    let mut value = info.value.clone();
    truncate(&mut value, 1500);
    Ok(Response::message(View::embed(
        Embed::new("⚙️ Storyteller setting changed")
            .description(format!(
                "**{}** is now **{value}**.\n{}",
                info.name, info.help
            ))
            .colour(colour::NEUTRAL),
    )))
}
