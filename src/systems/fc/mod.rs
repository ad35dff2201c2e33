//! The FC's table controls: who the FC is (`/fc role`), the house rules of
//! every system in one place (`/fc settings show`, `/fc set`), the system
//! each channel plays (`/fc channel-system`) and where secret rolls go
//! (`/fc gm-channel`).
//!
//! Application logic only (no serenity); `commands` holds the thin poise
//! commands. Each change is one write transaction: check the caller's
//! rights, validate and store the setting, log it, commit. The systems read
//! their settings at every action, so a change applies from the next roll.
//!
//! Module map:
//! - [`catalog`]: every setting name, the scope that owns it, validated
//!   changes and value suggestions.
//! - [`view`]: the overview, the detailed view and the change note.
//! - [`commands`]: the `/fc` slash commands.

pub mod catalog;
pub mod commands;
pub mod view;

use serde_json::json;

use crate::app::log::{self, What};
use crate::app::settings::{self as app_settings, ChannelSettings};
use crate::app::view::{colour, Embed};
use crate::app::Act;
use crate::app::{rights, App, AppError, AppResult, Caller, Response, View};
use crate::storage::Tx;
use catalog::Scope;

/// The log's system name for table-wide changes (FC role, GM channel,
/// shared settings).
pub const SYSTEM: &str = "guild";
/// The longest setting value `/fc set` takes (custom trait lists are long).
pub const MAX_VALUE_LEN: usize = 1000;

async fn record(
    tx: &mut Tx,
    caller: &Caller,
    system: &str,
    action: &str,
    inputs: serde_json::Value,
    outcome: serde_json::Value,
) -> Result<(), AppError> {
    log::record(
        tx,
        caller,
        What {
            system,
            action,
            session: None,
            character: None,
        },
        &inputs,
        &json!(null),
        &outcome,
    )
    .await
}

fn note(title: &str, text: String, ok: bool) -> View {
    View::embed(Embed::new(title).description(text).colour(if ok {
        colour::SUCCESS
    } else {
        colour::NEUTRAL
    }))
}

/// `/fc role`: names the FC role (`role`), forgets it (`clear`), or says
/// who the FC is. Only a server manager may change it.
pub async fn role(app: &App, caller: &Caller, role: Option<i64>, clear: bool) -> AppResult {
    if role.is_some() && clear {
        return Err(AppError::user(
            "Give either a `role` or `clear:true`, not both.",
        ));
    }
    let mut tx = Act::begin(app, caller).await?;
    let mut g = app_settings::guild(&mut tx, caller.guild_id).await?;
    if role.is_none() && !clear {
        return Ok(Response::ephemeral(note(
            "🎭 The FC",
            format!(
                "The FC is: {}.\nA server manager names the FC role with `/fc role role:@Role`.",
                view::fc_text(g.fc_role)
            ),
            false,
        )));
    }
    if !caller.manage_guild {
        return Err(AppError::user(
            "Only a server manager (the Manage Server permission) can name the FC role.",
        ));
    }
    let before = g.fc_role;
    g.fc_role = role;
    app_settings::save_guild(&mut tx, caller.guild_id, &g).await?;
    record(
        &mut tx,
        caller,
        SYSTEM,
        "fc_role",
        json!({ "role": role, "clear": clear }),
        json!({ "before": before, "after": role }),
    )
    .await?;
    tx.commit().await?;
    Ok(Response::message(note(
        "🎭 FC role",
        format!("The FC is now: {}.", view::fc_text(role)),
        true,
    )))
}

/// `/fc gm-channel`: where secret rolls go (`channel`), none (`clear`), or
/// which it is now. FC only.
pub async fn gm_channel(
    app: &App,
    caller: &Caller,
    channel: Option<i64>,
    clear: bool,
) -> AppResult {
    if channel.is_some() && clear {
        return Err(AppError::user(
            "Give either a `channel` or `clear:true`, not both.",
        ));
    }
    let mut tx = Act::begin(app, caller).await?;
    rights::require_server_fc(&mut tx, caller, "choose the GM channel").await?;
    let mut g = app_settings::guild(&mut tx, caller.guild_id).await?;
    if channel.is_none() && !clear {
        let text = match g.gm_channel {
            Some(c) => format!("Secret rolls go to <#{c}>."),
            None => "No GM channel is set, so secret rolls are refused. Pick one with `/fc gm-channel channel:#channel`.".into(),
        };
        return Ok(Response::ephemeral(note("🤫 GM channel", text, false)));
    }
    let before = g.gm_channel;
    g.gm_channel = channel;
    app_settings::save_guild(&mut tx, caller.guild_id, &g).await?;
    record(
        &mut tx,
        caller,
        SYSTEM,
        "settings",
        json!({ "name": "gm_channel", "value": channel }),
        json!({ "before": before, "after": channel }),
    )
    .await?;
    tx.commit().await?;
    let text = match channel {
        Some(c) => format!(
            "Secret rolls now go to <#{c}>: the roller sees theirs privately and a copy lands there. \
             Make sure I can post in it and that players cannot read it."
        ),
        None => "No GM channel any more: secret rolls are refused until one is set.".into(),
    };
    Ok(Response::ephemeral(note("🤫 GM channel", text, true)))
}

/// `/fc channel-system`: the system this channel plays (`None`: the
/// server's again). FC only.
pub async fn channel_system(app: &App, caller: &Caller, system: Option<&str>) -> AppResult {
    let reg = &app.registry;
    let scope = match system {
        Some(s) => Some(reg.parse(s).map(|s| s.id()).ok_or_else(|| {
            let names: Vec<&str> = reg.playable().map(|s| s.id()).collect();
            AppError::user(format!("`{s}` is not a system: {}.", names.join(", ")))
        })?),
        None => None,
    };
    let mut tx = Act::begin(app, caller).await?;
    rights::require_server_fc(&mut tx, caller, "choose this channel's system").await?;
    let mut c = app_settings::channel(&mut tx, caller.guild_id, caller.channel_id).await?;
    let before = c.system.clone();
    c.system = scope.map(str::to_string);
    app_settings::save_channel(&mut tx, caller.guild_id, caller.channel_id, &c).await?;
    let guild = app_settings::guild(&mut tx, caller.guild_id).await?.system;
    record(
        &mut tx,
        caller,
        SYSTEM,
        "settings",
        json!({ "name": "channel_system", "channel": caller.channel_id, "value": scope }),
        json!({ "before": before, "after": scope }),
    )
    .await?;
    tx.commit().await?;
    let server = guild.as_deref().map_or("none chosen", |s| reg.display(s));
    let text = match scope {
        Some(s) => format!(
            "This channel now plays **{}** (the server's system: {server}).",
            reg.display(s)
        ),
        None => format!("This channel follows the server's system again: **{server}**."),
    };
    Ok(Response::message(note("📌 Channel system", text, true)))
}

/// `/fc verbosity`: the house rule `verbosity` of the caller's channel
/// (the FC only): full results, or one line per result.
pub async fn verbosity(
    app: &App,
    caller: &Caller,
    level: crate::app::verbosity::Verbosity,
) -> AppResult {
    let mut tx = Act::begin(app, caller).await?;
    rights::require_fc(&mut tx, caller, "choose how much results say here").await?;
    let mut c = app_settings::channel(&mut tx, caller.guild_id, caller.channel_id).await?;
    let before = c.verbosity;
    c.verbosity = level;
    app_settings::save_channel(&mut tx, caller.guild_id, caller.channel_id, &c).await?;
    record(
        &mut tx,
        caller,
        SYSTEM,
        "settings",
        json!({ "name": "verbosity", "channel": caller.channel_id, "value": level.word() }),
        json!({ "before": before.word(), "after": level.word() }),
    )
    .await?;
    tx.commit().await?;
    let text = match level {
        crate::app::verbosity::Verbosity::Compact => {
            "Results in this channel now take one line each (dice and outcome; the buttons stay). `/fc verbosity level:full` shows them whole again."
        }
        crate::app::verbosity::Verbosity::Full => {
            "Results in this channel are shown whole again: dice, derivation and odds."
        }
    };
    Ok(Response::ephemeral(note(
        &format!("📏 Verbosity: {}", level.word()),
        text.to_string(),
        true,
    )))
}

async fn table(tx: &mut Tx, app: &App, caller: &Caller) -> Result<view::Table, AppError> {
    let g = app_settings::guild(tx, caller.guild_id).await?;
    let ChannelSettings { system, .. } =
        app_settings::channel(tx, caller.guild_id, caller.channel_id).await?;
    let name = |s: Option<String>| s.map(|s| app.registry.display(&s).to_string());
    Ok(view::Table {
        fc_role: g.fc_role,
        gm_channel: g.gm_channel,
        channel_system: name(system),
        guild_system: name(g.system),
    })
}

/// `/fc settings show`: every scope's settings (or one scope in detail),
/// privately. Anyone may look.
pub async fn show(app: &App, caller: &Caller, scope: Option<Scope>) -> AppResult {
    let reg = &app.registry;
    let mut tx = app.db.read().await?;
    let t = table(&mut tx, app, caller).await?;
    let view = match scope {
        Some(s) => view::detail(&t, s, &catalog::describe(&mut tx, reg, caller, s).await?),
        None => {
            let mut all = Vec::new();
            for s in Scope::all(reg) {
                all.push((s, catalog::describe(&mut tx, reg, caller, s).await?));
            }
            view::overview(&t, &all)
        }
    };
    Ok(Response::ephemeral(view))
}

/// `/fc set` (any scope) and `/<system> settings set` (`only` that
/// system's): changes one setting. FC only; validated by the setting's
/// owner; logged with its value before and after; nothing changes on error.
pub async fn set(
    app: &App,
    caller: &Caller,
    only: Option<Scope>,
    name: &str,
    value: &str,
) -> AppResult {
    if name.chars().count() > 100 {
        return Err(AppError::user("That setting name is too long."));
    }
    if value.chars().count() > MAX_VALUE_LEN {
        return Err(AppError::user(format!(
            "A value can be at most {MAX_VALUE_LEN} characters long."
        )));
    }
    let mut tx = Act::begin(app, caller).await?;
    let reg = &app.registry;
    let (what, gm) = match only {
        Some(s @ Scope::System { id, .. }) => {
            (format!("change the {} settings", s.title()), reg.gm(id))
        }
        _ => ("change the house rules".to_string(), "FC"),
    };
    rights::require_gm(&mut tx, caller, gm, &what).await?;
    // Within one system, its prefix may be left out (`fault_check`).
    let full;
    let name = match only {
        Some(Scope::System { id, .. }) if catalog::Scope::of(reg, name).is_none() => {
            let tail = format!("_{}", name.trim().to_ascii_lowercase());
            let names = reg.get(id).and_then(|s| s.house_rules()).map(|c| c.names());
            let names = names.unwrap_or_default();
            let mut hits = names.iter().filter(|n| n.ends_with(&tail));
            match (hits.next(), hits.next()) {
                (Some(one), None) => {
                    full = one.to_string();
                    full.as_str()
                }
                _ => name,
            }
        }
        _ => name,
    };
    if let Some(only) = only {
        if catalog::Scope::of(reg, name) != Some(only) {
            return Err(AppError::user(format!(
                "There is no {} setting called `{}`. Start typing in `name` to pick one; `/fc set` changes any house rule.",
                only.title(),
                name.trim(),
            )));
        }
    }
    if catalog::Scope::of(reg, name) == Some(Scope::Shared) {
        rights::require_server_fc(&mut tx, caller, "change the shared house rules").await?;
    }
    let change = catalog::set(&mut tx, reg, caller, name, value).await?;
    record(
        &mut tx,
        caller,
        change.scope.key(),
        "settings",
        json!({ "name": change.after.name, "value": value }),
        json!({ "before": change.before.value, "after": change.after.value }),
    )
    .await?;
    tx.commit().await?;
    Ok(Response::message(view::changed(
        &caller.name,
        change.scope,
        &change.before,
        &change.after,
    )))
}

/// Setting names for autocomplete (`only` one scope's, if given).
pub fn name_choices(reg: &crate::app::Registry, only: Option<Scope>, partial: &str) -> Vec<String> {
    catalog::complete_names(reg, partial, usize::MAX)
        .into_iter()
        .filter(|n| only.is_none() || catalog::Scope::of(reg, n) == only)
        .take(25)
        .map(str::to_string)
        .collect()
}

/// Values for autocomplete, as (label, value): the current value first,
/// then the accepted ones containing `partial`.
pub async fn value_choices(
    app: &App,
    caller: &Caller,
    name: &str,
    partial: &str,
) -> Vec<(String, String)> {
    let Ok(mut tx) = app.db.read().await else {
        return Vec::new();
    };
    let Ok(info) = catalog::info(&mut tx, &app.registry, caller, name).await else {
        return Vec::new();
    };
    let p = partial.trim().to_lowercase();
    let mut out = Vec::new();
    let current_fits = info.value.chars().count() <= 100 && !info.value.starts_with("<#");
    if current_fits && info.value.to_lowercase().contains(&p) {
        out.push((format!("{} (current)", info.value), info.value.clone()));
    }
    for v in catalog::suggestions(&app.registry, &info) {
        if v != info.value && v.to_lowercase().contains(&p) {
            out.push((v.clone(), v));
        }
    }
    out.truncate(25);
    out
}

/// The registration: the FC's commands (no sessions of its own), their
/// choice lists filled from the registry.
pub fn entry() -> crate::systems::Entry {
    crate::systems::Entry {
        system: None,
        commands: commands::all,
        finish: Some(commands::finish),
        odds: None,
    }
}
