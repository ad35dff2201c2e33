//! The FC's table controls: who the FC is (`/fc role`), the house rules of
//! every system in one place (`/fc settings show`, `/fc set`), the system
//! each channel plays (`/fc channel-system`) and where secret rolls go
//! (`/fc gm-channel`).
//!
//! Application logic only (no serenity); `commands` holds the thin poise
//! commands. Each change is one turn of the action pipeline (the table's
//! game-less scope, [`Table`]): check the caller's rights, validate the
//! setting, and hand the pipeline its write and its typed log record
//! ([`record`]), which it stores and commits at once. The systems read
//! their settings at every action, so a change applies from the next roll.
//!
//! Module map:
//! - [`catalog`]: every setting name, the scope that owns it, validated
//!   changes and value suggestions.
//! - [`view`]: the overview, the detailed view and the change note.
//! - [`commands`]: the `/fc` slash commands.

pub mod catalog;
pub mod commands;
pub mod record;
pub mod view;

use crate::app::pipeline::{Outcome, Record, Table, Turn};
use crate::app::settings::{self as app_settings, ChannelSettings, GuildSettings};
use crate::app::view::{colour, Embed};
use crate::app::{games, rights, App, AppError, AppResult, Caller, Response, View};
use crate::storage::Tx;
use catalog::Scope;
use record::{Changed, RoleAsked, SettingAsked};

/// The log's system name for table-wide changes (FC role, GM channel,
/// shared settings).
pub const SYSTEM: &str = "guild";
/// The longest setting value `/fc set` takes (custom trait lists are long).
pub const MAX_VALUE_LEN: usize = 1000;

/// An outcome of the table's scope.
type Out = Outcome<serde_json::Value>;

/// Stores the guild's shared settings as `g` with the outcome.
fn save_guild(out: Out, guild: i64, g: GuildSettings) -> Out {
    out.also(move |tx| Box::pin(async move { app_settings::save_guild(tx, guild, &g).await }))
}

/// Stores the caller's channel's settings as `c` with the outcome.
fn save_channel(out: Out, caller: &Caller, c: ChannelSettings) -> Out {
    let (guild, channel) = (caller.guild_id, caller.channel_id);
    out.also(move |tx| {
        Box::pin(async move { app_settings::save_channel(tx, guild, channel, &c).await })
    })
}

/// The log entry of a change to the table's settings, under `system` (the
/// settings scope it changed).
fn logged(
    system: &str,
    action: &str,
    inputs: &impl serde::Serialize,
    changed: &impl serde::Serialize,
) -> Record {
    Record::new(action, inputs, changed).system(system)
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
    let turn = Turn::<Table>::begin(app, caller).await?;
    let mut g = turn.guild.clone();
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
    let answer = Response::message(note(
        "🎭 FC role",
        format!("The FC is now: {}.", view::fc_text(role)),
        true,
    ));
    let log = logged(
        SYSTEM,
        "fc_role",
        &RoleAsked { clear, role },
        &Changed {
            after: role,
            before,
        },
    );
    let out = save_guild(Outcome::answer(answer), caller.guild_id, g).log(log);
    turn.finish(out).await
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
    let mut turn = Turn::<Table>::begin(app, caller).await?;
    rights::require_server_fc(turn.tx(), caller, "choose the GM channel").await?;
    let mut g = turn.guild.clone();
    if channel.is_none() && !clear {
        let text = match g.gm_channel {
            Some(c) => format!("Secret rolls go to <#{c}>."),
            None => "No GM channel is set, so secret rolls are refused. Pick one with `/fc gm-channel channel:#channel`.".into(),
        };
        return Ok(Response::ephemeral(note("🤫 GM channel", text, false)));
    }
    let before = g.gm_channel;
    g.gm_channel = channel;
    let text = match channel {
        Some(c) => format!(
            "Secret rolls now go to <#{c}>: the roller sees theirs privately and a copy lands there. \
             Make sure I can post in it and that players cannot read it."
        ),
        None => "No GM channel any more: secret rolls are refused until one is set.".into(),
    };
    let answer = Response::ephemeral(note("🤫 GM channel", text, true));
    let log = logged(
        SYSTEM,
        "settings",
        &SettingAsked {
            channel: None,
            name: "gm_channel".into(),
            value: channel,
        },
        &Changed {
            after: channel,
            before,
        },
    );
    let out = save_guild(Outcome::answer(answer), caller.guild_id, g).log(log);
    turn.finish(out).await
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
    let mut turn = Turn::<Table>::begin(app, caller).await?;
    rights::require_server_fc(turn.tx(), caller, "choose this channel's system").await?;
    let mut c = app_settings::channel(turn.tx(), caller.guild_id, caller.channel_id).await?;
    let before = c.system.clone();
    c.system = scope.map(str::to_string);
    let server = turn
        .guild
        .system
        .as_deref()
        .map_or("none chosen", |s| reg.display(s));
    let text = match scope {
        Some(s) => format!(
            "This channel now plays **{}** (the server's system: {server}).",
            reg.display(s)
        ),
        None => format!("This channel follows the server's system again: **{server}**."),
    };
    let answer = Response::message(note("📌 Channel system", text, true));
    let log = logged(
        SYSTEM,
        "settings",
        &SettingAsked {
            channel: Some(caller.channel_id),
            name: "channel_system".into(),
            value: scope,
        },
        &Changed {
            after: scope.map(str::to_string),
            before,
        },
    );
    let out = save_channel(Outcome::answer(answer), caller, c).log(log);
    turn.finish(out).await
}

/// `/fc verbosity`: the house rule `verbosity` of the caller's channel
/// (the FC only): full results, or one line per result.
pub async fn verbosity(
    app: &App,
    caller: &Caller,
    level: crate::app::verbosity::Verbosity,
) -> AppResult {
    let mut turn = Turn::<Table>::begin(app, caller).await?;
    rights::require_fc(turn.tx(), caller, "choose how much results say here").await?;
    let mut c = app_settings::channel(turn.tx(), caller.guild_id, caller.channel_id).await?;
    let before = c.verbosity;
    c.verbosity = level;
    let text = match level {
        crate::app::verbosity::Verbosity::Compact => {
            "Results in this channel now take one line each (dice and outcome; the buttons stay). `/fc verbosity level:full` shows them whole again."
        }
        crate::app::verbosity::Verbosity::Full => {
            "Results in this channel are shown whole again: dice, derivation and odds."
        }
    };
    let answer = Response::ephemeral(note(
        &format!("📏 Verbosity: {}", level.word()),
        text.to_string(),
        true,
    ));
    let log = logged(
        SYSTEM,
        "settings",
        &SettingAsked {
            channel: Some(caller.channel_id),
            name: "verbosity".into(),
            value: level.word(),
        },
        &Changed {
            after: level.word(),
            before: before.word(),
        },
    );
    let out = save_channel(Outcome::answer(answer), caller, c).log(log);
    turn.finish(out).await
}

async fn table(tx: &mut Tx, app: &App, caller: &Caller) -> Result<view::Table, AppError> {
    let g = app_settings::guild(tx, caller.guild_id).await?;
    let ChannelSettings { system, .. } =
        app_settings::channel(tx, caller.guild_id, caller.channel_id).await?;
    let name = |s: Option<String>| s.map(|s| app.registry.display(&s).to_string());
    // In a live game's channels its system, GM channel and game masters
    // are the table's (issue 32).
    let (game, gm_channel) = match games::live_here(tx, caller).await? {
        Some(game) => {
            let gms = crate::storage::games::gms(tx, game.id).await?;
            let gm_channel = game.gm_channel.or(g.gm_channel);
            let game = view::GameTable {
                system: app.registry.display(&game.system).to_string(),
                gms: games::gm_mentions(&gms),
                name: game.name,
            };
            (Some(game), gm_channel)
        }
        None => (None, g.gm_channel),
    };
    Ok(view::Table {
        fc_role: g.fc_role,
        gm_channel,
        channel_system: name(system),
        guild_system: name(g.system),
        game,
    })
}

/// `/fc settings show`: every scope's settings (or one scope in detail),
/// privately. Anyone may look.
pub async fn show(app: &App, caller: &Caller, scope: Option<Scope>) -> AppResult {
    Ok(Response::ephemeral(
        settings_view(app, caller, scope).await?,
    ))
}

/// The house rules in force where the caller acts: every scope's (or one
/// scope in detail), as `/fc settings show` draws them; `/game` shows them
/// under the game of the channel.
pub async fn settings_view(
    app: &App,
    caller: &Caller,
    scope: Option<Scope>,
) -> Result<View, AppError> {
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
    Ok(view)
}

/// The full name of a setting given without its system's prefix within
/// that system's `settings set` (`fault_check` for `ve_fault_check`), when
/// exactly one of its settings ends so; `None` when `name` is whole (or
/// matches none or several).
fn full_name(reg: &crate::app::Registry, only: Option<Scope>, name: &str) -> Option<String> {
    let Some(Scope::System { id, .. }) = only else {
        return None;
    };
    if catalog::Scope::of(reg, name).is_some() {
        return None;
    }
    let tail = format!("_{}", name.trim().to_ascii_lowercase());
    let names = reg.get(id).and_then(|s| s.house_rules()).map(|c| c.names());
    let names = names.unwrap_or_default();
    let mut hits = names.iter().filter(|n| n.ends_with(&tail));
    match (hits.next(), hits.next()) {
        (Some(one), None) => Some(one.to_string()),
        _ => None,
    }
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
    let mut turn = Turn::<Table>::begin(app, caller).await?;
    let reg = &app.registry;
    let (what, gm) = match only {
        Some(s @ Scope::System { id, .. }) => {
            (format!("change the {} settings", s.title()), reg.gm(id))
        }
        _ => ("change the house rules".to_string(), "FC"),
    };
    rights::require_gm(turn.tx(), caller, gm, &what).await?;
    let full = full_name(reg, only, name);
    let name = full.as_deref().unwrap_or(name);
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
        rights::require_server_fc(turn.tx(), caller, "change the shared house rules").await?;
    }
    let planned = catalog::plan(turn.tx(), reg, caller, name, value).await?;
    let change = planned.change.clone();
    let answer = Response::message(view::changed(
        &caller.name,
        change.scope,
        &change.before,
        &change.after,
    ));
    let log = logged(
        change.scope.key(),
        "settings",
        &SettingAsked {
            channel: None,
            name: change.after.name,
            value,
        },
        &Changed {
            after: change.after.value,
            before: change.before.value,
        },
    );
    let guild = caller.guild_id;
    let out = Outcome::answer(answer)
        .also(move |tx| planned.write(tx, guild))
        .log(log);
    turn.finish(out).await
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
