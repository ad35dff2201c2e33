//! Slash commands of the platform features (thin: options in, view out).

use poise::serenity_prelude as serenity;

use super::help::CommandLine;
use super::{
    export, help as help_app, history as history_app, odds as odds_app, stats as stats_app,
};
use crate::app::AppError;
use crate::kit::{caller_of, defer, respond, Context, Data, Error};
use crate::odds_cli::Question;
use crate::rules::venus::Rank;

/// Every command of the platform.
pub fn all() -> Vec<poise::Command<Data, Error>> {
    vec![history(), stats(), odds(), help()]
}

/// Fills `/help system:` with the registry's help topics.
pub fn finish(c: &mut poise::Command<Data, Error>, reg: &crate::app::Registry) {
    if c.name == "help" {
        let labels = help_app::topics(reg)
            .into_iter()
            .map(|(_, t)| t.label.to_string());
        crate::kit::set_choices(c, "system", labels);
    }
}

/// A Venus Engine rank.
#[derive(Debug, Clone, Copy, poise::ChoiceParameter)]
pub enum RankChoice {
    /// Bronze.
    Bronze,
    /// Silver.
    Silver,
    /// Gold.
    Gold,
    /// Platinum.
    Platinum,
}

impl From<RankChoice> for Rank {
    fn from(r: RankChoice) -> Self {
        match r {
            RankChoice::Bronze => Rank::Bronze,
            RankChoice::Silver => Rank::Silver,
            RankChoice::Gold => Rank::Gold,
            RankChoice::Platinum => Rank::Platinum,
        }
    }
}

/// Which automatic-pass ranges a Playsheet check uses.
#[derive(Debug, Clone, Copy, poise::ChoiceParameter)]
pub enum AutopassChoice {
    /// The procedure text: 20 / 19-20 / 18-20 / 17-20.
    #[name = "text"]
    Text,
    /// The Playsheet table: none / 20 / 19-20 / 18-20.
    #[name = "table"]
    Table,
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
) -> Result<(), Error> {
    let caller = caller_of(ctx)?;
    let q = history_app::Query {
        user: member_of(ctx, user),
        character,
        count,
    };
    respond(ctx, history_app::show(&ctx.data().app, &caller, q).await).await
}

/// Download the server's roll log as a CSV file (FC only).
#[poise::command(slash_command, guild_only, rename = "export")]
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

/// Exact odds for any roll, before you roll it.
#[poise::command(
    slash_command,
    guild_only,
    subcommands(
        "odds_ve1_check",
        "odds_ve2_check",
        "odds_ve1_task",
        "odds_ve2_task",
        "odds_veracity_save",
        "odds_st",
        "odds_ore",
        "super::odds_roll::odds_roll"
    ),
    subcommand_required
)]
pub async fn odds(_ctx: Context<'_>) -> Result<(), Error> {
    Ok(())
}

async fn answer(ctx: Context<'_>, q: Question) -> Result<(), Error> {
    caller_of(ctx)?;
    // Exact distributions and the chart may take a while: acknowledge
    // first, and compute off the async workers.
    defer(ctx, false).await?;
    let r = tokio::task::spawn_blocking(move || odds_app::answer(&q))
        .await
        .unwrap_or_else(|e| Err(crate::app::AppError::Internal(format!("odds: {e}"))));
    respond(ctx, r).await
}

/// Venus Engine 1st Playtest check: d20 + score vs target, best bonus d6 when short.
#[poise::command(slash_command, guild_only, rename = "ve1-check")]
pub async fn odds_ve1_check(
    ctx: Context<'_>,
    #[description = "Ability score"]
    #[min = 0]
    #[max = 100]
    score: i32,
    #[description = "Target, 5-29"]
    #[min = 5]
    #[max = 29]
    target: i32,
    #[description = "Rank of the ability"] rank: RankChoice,
    #[description = "Bonus factors, one d6 each (0-4)"]
    #[min = 0]
    #[max = 4]
    bonus_dice: Option<u32>,
) -> Result<(), Error> {
    let q = Question::Ve1Check {
        score,
        target,
        rank: rank.into(),
        bonus_dice: bonus_dice.unwrap_or(0),
    };
    answer(ctx, q).await
}

/// Venus Engine Playsheet check: d20 + score + flat bonus vs target.
#[poise::command(slash_command, guild_only, rename = "ve2-check")]
pub async fn odds_ve2_check(
    ctx: Context<'_>,
    #[description = "Ability score"]
    #[min = 0]
    #[max = 100]
    score: i32,
    #[description = "Target, 5-28"]
    #[min = 5]
    #[max = 28]
    target: i32,
    #[description = "Rank of the ability"] rank: RankChoice,
    #[description = "Flat bonus when short (0-8)"]
    #[min = 0]
    #[max = 8]
    bonus: Option<u32>,
    #[description = "Automatic-pass ranges (default: the procedure text)"] autopass: Option<
        AutopassChoice,
    >,
) -> Result<(), Error> {
    let autopass = match autopass.unwrap_or(AutopassChoice::Text) {
        AutopassChoice::Text => "text",
        AutopassChoice::Table => "table",
    };
    let q = Question::Ve2Check {
        score,
        target,
        rank: rank.into(),
        bonus: bonus.unwrap_or(0),
        autopass: autopass.into(),
    };
    answer(ctx, q).await
}

/// Venus Engine 1st Playtest task: chance of each number of beats.
#[poise::command(slash_command, guild_only, rename = "ve1-task")]
pub async fn odds_ve1_task(
    ctx: Context<'_>,
    #[description = "Your d6 (job level, or the score for a job being learned)"]
    #[min = 0]
    #[max = 50]
    dice: u32,
    #[description = "Your rank"] rank: RankChoice,
    #[description = "First ally's rank"] ally1: Option<RankChoice>,
    #[description = "Second ally's rank"] ally2: Option<RankChoice>,
    #[description = "Ego: every 6 strikes two beats"] ego_double_six: Option<bool>,
) -> Result<(), Error> {
    let q = Question::Ve1Task {
        dice,
        rank: rank.into(),
        ally_rank: [ally1, ally2]
            .into_iter()
            .flatten()
            .map(Rank::from)
            .collect(),
        ego_double_six: ego_double_six.unwrap_or(false),
    };
    answer(ctx, q).await
}

/// Venus Engine Playsheet task: chance of each number of passes.
#[allow(clippy::too_many_arguments)]
#[poise::command(slash_command, guild_only, rename = "ve2-task")]
pub async fn odds_ve2_task(
    ctx: Context<'_>,
    #[description = "Your d10 (job level + ability score)"]
    #[min = 0]
    #[max = 50]
    dice: u32,
    #[description = "Your rank"] rank: RankChoice,
    #[description = "First ally's rank"] ally1: Option<RankChoice>,
    #[description = "Second ally's rank"] ally2: Option<RankChoice>,
    #[description = "Third ally's rank"] ally3: Option<RankChoice>,
    #[description = "Your 10s explode (magic or advanced technology)"] explode: Option<bool>,
    #[description = "Ego: every 10 counts as two passes"] ego: Option<bool>,
) -> Result<(), Error> {
    let q = Question::Ve2Task {
        dice,
        rank: rank.into(),
        ally_rank: [ally1, ally2, ally3]
            .into_iter()
            .flatten()
            .map(Rank::from)
            .collect(),
        explode: explode.unwrap_or(false),
        ego: ego.unwrap_or(false),
    };
    answer(ctx, q).await
}

/// Veracity save: d20 + modifier against an inventory.
#[poise::command(slash_command, guild_only, rename = "veracity-save")]
pub async fn odds_veracity_save(
    ctx: Context<'_>,
    #[description = "Unlocked slots (0-18)"]
    #[min = 0]
    #[max = 18]
    unlocked: u32,
    #[description = "Filled slots (the lowest ones)"]
    #[min = 0]
    #[max = 18]
    filled: u32,
    #[description = "Modifier (+ is harder, a tool is -5)"]
    #[min = -100]
    #[max = 100]
    modifier: Option<i32>,
) -> Result<(), Error> {
    let q = Question::VeracitySave {
        unlocked,
        filled,
        modifier: modifier.unwrap_or(0),
    };
    answer(ctx, q).await
}

/// Storyteller pool: success, simple failure or botch.
#[poise::command(slash_command, guild_only, rename = "st")]
pub async fn odds_st(
    ctx: Context<'_>,
    #[description = "Dice in the pool"]
    #[min = 0]
    #[max = 50]
    pool: u32,
    #[description = "Difficulty 2-10 (default: this server's)"]
    #[min = 2]
    #[max = 10]
    difficulty: Option<u32>,
    #[description = "Successes removed first"]
    #[min = 0]
    #[max = 50]
    threshold: Option<u32>,
    #[description = "Specialties in use (0-5)"]
    #[min = 0]
    #[max = 5]
    specialties: Option<u32>,
) -> Result<(), Error> {
    let caller = caller_of(ctx)?;
    defer(ctx, false).await?;
    let result = odds_app::st(
        &ctx.data().app,
        &caller,
        pool,
        difficulty,
        threshold.unwrap_or(0),
        specialties.unwrap_or(0),
    )
    .await;
    respond(ctx, result).await
}

/// Virtual Veil (One-Roll Engine): how wide the widest set will be.
#[poise::command(slash_command, guild_only, rename = "ore")]
pub async fn odds_ore(
    ctx: Context<'_>,
    #[description = "d10s rolled (1-30)"]
    #[min = 1]
    #[max = 30]
    dice: u32,
) -> Result<(), Error> {
    answer(ctx, Question::Ore { dice }).await
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
