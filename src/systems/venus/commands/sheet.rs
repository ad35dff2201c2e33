//! `/ve sheet …`: create and edits. `list`, `show`, `use`, `rename` and
//! `delete` are the shared table features ([`crate::systems::table`]),
//! grafted here at start-up.

use super::choices::TierChoice;
use poise::serenity_prelude as serenity;

use super::complete;
use crate::app::characters::Pick;
use crate::kit::{caller_of, respond, Context, Error};
use crate::rules::venus::Rank;
use crate::systems::venus::sheets::{self, JobEdits, SetEdits};
use crate::systems::venus::sheets::{NoteKind, RemoveKind};

fn uid(u: &Option<serenity::User>) -> Option<i64> {
    u.as_ref().map(|u| u.id.get() as i64)
}

/// Venus character sheets.
#[poise::command(
    slash_command,
    guild_only,
    subcommands("create", "ability", "job", "set", "note", "remove"),
    subcommand_required
)]
pub async fn sheet(_ctx: Context<'_>) -> Result<(), Error> {
    Ok(())
}

/// New character (your active one); abilities:"Finesse Gold 4, Might Si 3" gives all at once
#[poise::command(slash_command, guild_only)]
pub async fn create(
    ctx: Context<'_>,
    #[description = "The character's name"]
    #[max_length = 64]
    name: String,
    #[description = "Tier (edition 2)"] tier: Option<TierChoice>,
    #[description = "Abilities in one line, e.g. \"Finesse Gold 45, Might Si 30\""]
    #[max_length = 3000]
    abilities: Option<String>,
) -> Result<(), Error> {
    let caller = caller_of(ctx)?;
    let r = sheets::create_with(
        &ctx.data().app,
        &caller,
        &name,
        tier.and_then(TierChoice::tier),
        abilities.as_deref(),
    )
    .await;
    respond(ctx, r).await
}

/// Set an ability
#[poise::command(slash_command, guild_only)]
pub async fn ability(
    ctx: Context<'_>,
    #[description = "Ability, e.g. Finesse"]
    #[autocomplete = "complete::ability"]
    #[max_length = 64]
    name: String,
    #[description = "Rank"] rank: Rank,
    #[description = "Score"]
    #[min = 0]
    #[max = 100]
    score: u32,
    #[description = "Character (default: active)"]
    #[autocomplete = "crate::kit::complete_character"]
    #[max_length = 64]
    character: Option<String>,
    #[description = "Whose (FC)"] player: Option<serenity::User>,
) -> Result<(), Error> {
    let caller = caller_of(ctx)?;
    let r = sheets::ability(
        &ctx.data().app,
        &caller,
        &name,
        rank,
        score,
        Pick::new(character.as_deref(), uid(&player)),
    )
    .await;
    respond(ctx, r).await
}

/// Add or edit a job
#[poise::command(slash_command, guild_only)]
#[allow(clippy::too_many_arguments)]
pub async fn job(
    ctx: Context<'_>,
    #[description = "Job, e.g. Thief"]
    #[autocomplete = "complete::job"]
    #[max_length = 64]
    name: String,
    #[description = "1-2 inherited abilities, e.g. \"Finesse, Wits\""]
    #[max_length = 140]
    inherits: Option<String>,
    #[description = "Level (0 = learning; new jobs start at 1)"]
    #[min = 0]
    #[max = 100]
    level: Option<u32>,
    #[description = "Exp"]
    #[min = 0]
    #[max = 10000]
    exp: Option<u32>,
    #[description = "Qualifications met (no exp while not)"] qualified: Option<bool>,
    #[description = "Character (default: active)"]
    #[autocomplete = "crate::kit::complete_character"]
    #[max_length = 64]
    character: Option<String>,
    #[description = "Whose (FC)"] player: Option<serenity::User>,
) -> Result<(), Error> {
    let caller = caller_of(ctx)?;
    // A job's level, exp and qualifications are earned in play: set by hand
    // on a job already on the sheet, they are governed by `player_edits`.
    let r = crate::systems::venus::governed::job(
        &ctx.data().app,
        &caller,
        &name,
        JobEdits {
            inherits,
            level,
            exp,
            qualified,
        },
        character,
        uid(&player),
    )
    .await;
    respond(ctx, r).await
}

/// Tier, Lots, Ego or name
#[poise::command(slash_command, guild_only)]
pub async fn set(
    ctx: Context<'_>,
    #[description = "Tier (edition 2)"] tier: Option<TierChoice>,
    #[description = "Lots, 0 to 10"]
    #[min = 0]
    #[max = 10]
    lots: Option<u32>,
    #[description = "Ego held"] ego: Option<bool>,
    #[description = "A new name"]
    #[max_length = 64]
    rename: Option<String>,
    #[description = "Character (default: active)"]
    #[autocomplete = "crate::kit::complete_character"]
    #[max_length = 64]
    character: Option<String>,
    #[description = "Whose (FC)"] player: Option<serenity::User>,
) -> Result<(), Error> {
    let caller = caller_of(ctx)?;
    let app = &ctx.data().app;
    let r = if lots.is_some() || ego.is_some() {
        // Kismet is the FC's to grant: governed by `player_edits`.
        if tier.is_some() || rename.is_some() {
            Err(crate::app::AppError::user(
                "Set Lots and Ego in a command of their own (they are the FC's to grant); tier and name separately.",
            ))
        } else {
            let edit = crate::systems::venus::governed::Edit::Kismet {
                lots,
                ego,
                character: character.clone(),
                player: uid(&player),
            };
            crate::systems::table::approval::govern(app, &caller, edit).await
        }
    } else {
        sheets::set(
            app,
            &caller,
            SetEdits {
                tier: tier.map(TierChoice::tier),
                lots,
                ego,
                rename,
            },
            Pick::new(character.as_deref(), uid(&player)),
        )
        .await
    };
    respond(ctx, r).await
}

/// Add a note (asset, specialty, insight…)
#[poise::command(slash_command, guild_only)]
pub async fn note(
    ctx: Context<'_>,
    #[description = "What kind of note"] kind: NoteKind,
    #[description = "The text"]
    #[max_length = 200]
    text: String,
    #[description = "Character (default: active)"]
    #[autocomplete = "crate::kit::complete_character"]
    #[max_length = 64]
    character: Option<String>,
    #[description = "Whose (FC)"] player: Option<serenity::User>,
) -> Result<(), Error> {
    let caller = caller_of(ctx)?;
    let r = sheets::note(
        &ctx.data().app,
        &caller,
        kind,
        &text,
        Pick::new(character.as_deref(), uid(&player)),
    )
    .await;
    respond(ctx, r).await
}

/// Remove an ability, job or note
#[poise::command(slash_command, guild_only)]
pub async fn remove(
    ctx: Context<'_>,
    #[description = "What to remove"] kind: RemoveKind,
    #[description = "Name, or #number for notes"]
    #[max_length = 200]
    name: String,
    #[description = "Character (default: active)"]
    #[autocomplete = "crate::kit::complete_character"]
    #[max_length = 64]
    character: Option<String>,
    #[description = "Whose (FC)"] player: Option<serenity::User>,
) -> Result<(), Error> {
    let caller = caller_of(ctx)?;
    let r = sheets::remove(
        &ctx.data().app,
        &caller,
        kind,
        &name,
        Pick::new(character.as_deref(), uid(&player)),
    )
    .await;
    respond(ctx, r).await
}
