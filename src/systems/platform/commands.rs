//! Slash commands of the platform features (thin: options in, view out).

use poise::serenity_prelude as serenity;

use super::help::CommandLine;
use super::{
    export, help as help_app, history as history_app, me as me_app, odds as odds_app,
    stats as stats_app,
};
use crate::app::AppError;
use crate::kit::{caller_of, defer, respond, Context, Data, Error};

/// Every command of the platform.
pub fn all() -> Vec<poise::Command<Data, Error>> {
    vec![history(), stats(), odds_app::root(), help(), me()]
}

/// The systems `/history show system:` offers, those with dice to roll
/// (a help topic): (id, name), in registry order.
fn history_systems(reg: &crate::app::Registry) -> Vec<(&'static str, &'static str)> {
    reg.all()
        .filter(|s| !s.help().is_empty())
        .map(|s| (s.id(), s.name()))
        .collect()
}

/// Fills `/help system:` with the registry's help topics, and
/// `/history show system:` with its systems.
pub fn finish(c: &mut poise::Command<Data, Error>, reg: &crate::app::Registry) {
    if c.name == "help" {
        let labels = help_app::topics(reg)
            .into_iter()
            .map(|(_, t)| t.label.to_string());
        crate::kit::set_choices(c, "system", labels);
    }
    if c.name == "history" {
        let names: Vec<String> = history_systems(reg)
            .into_iter()
            .map(|(_, name)| name.to_string())
            .collect();
        for sub in c.subcommands.iter_mut().filter(|s| s.name == "show") {
            crate::kit::set_choices(sub, "system", names.clone());
        }
    }
}

fn member_of(ctx: Context<'_>, user: Option<serenity::User>) -> Option<(i64, String)> {
    user.map(|u| {
        let name = match ctx {
            poise::Context::Application(a) => a
                .interaction
                .data
                .resolved
                .members
                .get(&u.id)
                .and_then(|m| m.nick.clone()),
            poise::Context::Prefix(_) => None,
        }
        .unwrap_or_else(|| u.display_name().to_string());
        (u.id.get() as i64, name)
    })
}

async fn character_names(ctx: Context<'_>, partial: &str) -> serenity::CreateAutocompleteResponse {
    let choices = character_choices(ctx, partial)
        .await
        .into_iter()
        .map(|n| serenity::AutocompleteChoice::new(n.clone(), n))
        .collect();
    serenity::CreateAutocompleteResponse::new().set_choices(choices)
}

async fn character_choices(ctx: Context<'_>, partial: &str) -> Vec<String> {
    let Ok(caller) = caller_of(ctx) else {
        return Vec::new();
    };
    let Ok(mut tx) = ctx.data().app.db.read().await else {
        return Vec::new();
    };
    let names = crate::storage::history::character_names(&mut tx, caller.guild_id, 500)
        .await
        .unwrap_or_default();
    let p = partial.trim().to_lowercase();
    let mut out: Vec<String> = names
        .into_iter()
        .filter(|n| n.to_lowercase().contains(&p))
        .collect();
    out.sort_by_key(|n| !n.to_lowercase().starts_with(&p));
    out.truncate(25);
    out
}

/// The roll log: every roll, reroll, spend and sheet change.
#[poise::command(
    slash_command,
    guild_only,
    subcommands("history_show", "history_export"),
    subcommand_required
)]
pub async fn history(_ctx: Context<'_>) -> Result<(), Error> {
    Ok(())
}

/// Browse the newest log entries of a member (you by default) or a character.
#[poise::command(slash_command, guild_only, rename = "show")]
pub async fn history_show(
    ctx: Context<'_>,
    #[description = "Whose actions (default: yours)"] user: Option<serenity::User>,
    #[description = "Only entries about this character"]
    #[autocomplete = "character_names"]
    #[max_length = 64]
    character: Option<String>,
    #[description = "How many of the newest entries to browse (default 30)"]
    #[min = 1]
    #[max = 300]
    count: Option<u32>,
    #[description = "Only this system's entries"] system: Option<u32>,
) -> Result<(), Error> {
    let caller = caller_of(ctx)?;
    let system = match system {
        Some(i) => Some(
            history_systems(&ctx.data().app.registry)
                .get(i as usize)
                .map(|(id, _)| id.to_string())
                .ok_or_else(|| AppError::user("That is not one of the listed systems."))?,
        ),
        None => None,
    };
    let q = history_app::Query {
        user: member_of(ctx, user),
        character,
        count,
        system,
    };
    respond(ctx, history_app::show(&ctx.data().app, &caller, q).await).await
}

/// Download the server's roll log as a CSV file (FC only).
#[poise::command(
    default_member_permissions = "MANAGE_GUILD",
    slash_command,
    guild_only,
    rename = "export"
)]
pub async fn history_export(
    ctx: Context<'_>,
    #[description = "Only this channel"]
    #[channel_types("Text", "PublicThread", "PrivateThread")]
    channel: Option<serenity::ChannelId>,
    #[description = "Only the last this many days"]
    #[min = 1]
    #[max = 3650]
    days: Option<u32>,
) -> Result<(), Error> {
    let caller = caller_of(ctx)?;
    // Reading and writing out the whole log may take a while.
    defer(ctx, true).await?;
    let q = export::ExportQuery {
        channel_id: channel.map(|c| c.get() as i64),
        days,
    };
    respond(ctx, export::export(&ctx.data().app, &caller, q).await).await
}

/// Your data in this server: download it or erase it
#[poise::command(
    slash_command,
    guild_only,
    subcommands("me_export", "me_forget"),
    subcommand_required
)]
pub async fn me(_ctx: Context<'_>) -> Result<(), Error> {
    Ok(())
}

/// Download everything I hold about you here (private JSON file)
#[poise::command(slash_command, guild_only, rename = "export")]
pub async fn me_export(ctx: Context<'_>) -> Result<(), Error> {
    let caller = caller_of(ctx)?;
    defer(ctx, true).await?;
    respond(ctx, me_app::export(&ctx.data().app, &caller).await).await
}

/// Erase your characters, saved rolls and rolls here (asks first)
#[poise::command(slash_command, guild_only, rename = "forget")]
pub async fn me_forget(ctx: Context<'_>) -> Result<(), Error> {
    let caller = caller_of(ctx)?;
    respond(ctx, me_app::ask(&ctx.data().app, &caller, None).await).await
}

/// How the dice really fell: counts per face against a fair die, with a chart.
#[poise::command(slash_command, guild_only)]
pub async fn stats(
    ctx: Context<'_>,
    #[description = "Whose dice (default: yours)"] user: Option<serenity::User>,
    #[description = "Every die thrown in this server"] server: Option<bool>,
    #[description = "Only dice with this many sides (6 for d6)"]
    #[min = 2]
    #[max = 1000]
    die: Option<u32>,
) -> Result<(), Error> {
    let caller = caller_of(ctx)?;
    // Counting every die and drawing the chart may take a while.
    defer(ctx, false).await?;
    let q = stats_app::StatsQuery {
        user: member_of(ctx, user),
        server: server.unwrap_or(false),
        die,
    };
    respond(ctx, stats_app::stats(&ctx.data().app, &caller, q).await).await
}

/// How each system works, and its commands.
#[poise::command(slash_command, guild_only)]
pub async fn help(
    ctx: Context<'_>,
    #[description = "The system to explain (leave empty for the overview)"] system: Option<u32>,
) -> Result<(), Error> {
    caller_of(ctx)?;
    let mut lines = Vec::new();
    for c in &ctx.framework().options().commands {
        flatten(c, "", &mut lines);
    }
    let reg = &ctx.data().app.registry;
    let topics = help_app::topics(reg);
    let topic = match system {
        Some(i) => Some(
            *topics
                .get(i as usize)
                .ok_or_else(|| AppError::user("That is not one of the listed systems."))?,
        ),
        None => None,
    };
    let result = help_app::help(reg, topic, &lines);
    respond(ctx, result).await
}

fn flatten(c: &poise::Command<Data, Error>, prefix: &str, out: &mut Vec<CommandLine>) {
    if c.slash_action.is_none() && c.subcommands.is_empty() {
        return;
    }
    let usage = if prefix.is_empty() {
        format!("/{}", c.name)
    } else {
        format!("{prefix} {}", c.name)
    };
    if c.subcommands.is_empty() {
        out.push(CommandLine {
            usage,
            description: c.description.as_deref().unwrap_or("").to_string(),
        });
    } else {
        for s in &c.subcommands {
            flatten(s, &usage, out);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_command_help_starts_with_is_registered() {
        let mut lines = Vec::new();
        for c in &crate::systems::commands() {
            flatten(c, "", &mut lines);
        }
        let has = |usage: &str| lines.iter().any(|l| l.usage == usage);
        let reg = crate::systems::registry();
        let roots: Vec<&str> = reg
            .all()
            .filter(|s| s.has_sheets())
            .filter_map(|s| s.command_root())
            .collect();
        assert_eq!(roots.len(), 4);
        for (usage, _) in help_app::START {
            // The command itself: its words before the first option.
            let words: Vec<&str> = usage.split(' ').take_while(|w| !w.contains(':')).collect();
            let command = words.join(" ");
            if command.contains("<system>") {
                for root in &roots {
                    let real = command.replace("<system>", root);
                    assert!(has(&real), "{real} is not registered");
                }
            } else {
                assert!(has(&command), "{command} is not registered");
            }
        }
        // Each topic's "start here" names registered commands only.
        for (_, t) in help_app::topics(&reg) {
            for (usage, _) in t.start {
                let words: Vec<&str> = usage.split(' ').take_while(|w| !w.contains(':')).collect();
                let command = words.join(" ");
                assert!(has(&command), "{}: {command} is not registered", t.label);
            }
        }
    }
}
