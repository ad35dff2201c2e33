//! `/ve sheet …`: create and edits. `list`, `show`, `use`, `rename` and
//! `delete` are the shared table features ([`crate::systems::table`]),
//! grafted here at start-up.

use super::choices::TierChoice;

use super::complete;
use crate::app::characters::Pick;
use crate::kit::{command, Context, Error};
use crate::rules::venus::Rank;
use crate::systems::venus::governed;
use crate::systems::venus::sheets::{self, JobEdits, SetEdits};
use crate::systems::venus::sheets::{NoteKind, RemoveKind};

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

command! {
    /// New character (your active one); abilities:"Finesse Gold 4, Might Si 3" gives all at once
    #[poise::command(slash_command, guild_only)]
    pub async fn create(
        ctx,
        caller,
        #[description = "The character's name"]
        #[max_length = 64]
        name: String,
        #[description = "Tier (edition 2)"] tier: Option<TierChoice>,
        #[description = "Abilities in one line, e.g. \"Finesse Gold 45, Might Si 30\""]
        #[max_length = 3000]
        abilities: Option<String>,
    ) {
        let (tier, abilities) = (tier.and_then(|t| t.0), abilities.as_deref());
        sheets::create(&ctx.data().app, &caller, &name, tier, abilities).await
    }
}

command! {
    /// Set an ability
    #[poise::command(slash_command, guild_only)]
    pub async fn ability(
        ctx,
        caller,
        #[description = "Ability, e.g. Finesse"]
        #[autocomplete = "complete::ability"]
        #[max_length = 64]
        name: String,
        #[description = "Rank"] rank: Rank,
        #[description = "Score"]
        #[min = 0]
        #[max = 100]
        score: u32,
        #[character = "Character (default: active)"] character,
        #[player = "Whose (FC)"] player,
    ) {
        let pick = Pick::new(character.as_deref(), player);
        sheets::ability(&ctx.data().app, &caller, &name, rank, score, pick).await
    }
}

command! {
    /// Add or edit a job
    #[poise::command(slash_command, guild_only)]
    #[allow(clippy::too_many_arguments)]
    pub async fn job(
        ctx,
        caller,
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
        #[character = "Character (default: active)"] character,
        #[player = "Whose (FC)"] player,
    ) {
        // A job's level, exp and qualifications are earned in play: set by hand
        // on a job already on the sheet, they are governed by `player_edits`.
        let edits = JobEdits {
            inherits,
            level,
            exp,
            qualified,
        };
        let app = &ctx.data().app;
        governed::job(app, &caller, &name, edits, character, player).await
    }
}

command! {
    /// Tier, Lots or Ego
    #[poise::command(slash_command, guild_only)]
    pub async fn set(
        ctx,
        caller,
        #[description = "Tier (edition 2)"] tier: Option<TierChoice>,
        #[description = "Lots, 0 to 10"]
        #[min = 0]
        #[max = 10]
        lots: Option<u32>,
        #[description = "Ego held"] ego: Option<bool>,
        #[character = "Character (default: active)"] character,
        #[player = "Whose (FC)"] player,
    ) {
        let app = &ctx.data().app;
        if lots.is_some() || ego.is_some() {
            // Kismet is the FC's to grant: governed by `player_edits`.
            if tier.is_some() {
                Err(crate::app::AppError::user(
                    "Set Lots and Ego in a command of their own (they are the FC's to grant); tier separately.",
                ))
            } else {
                let edit = governed::Edit::Kismet {
                    lots,
                    ego,
                    character: character.clone(),
                    player,
                };
                crate::systems::table::approval::govern(app, &caller, edit).await
            }
        } else {
            let edits = SetEdits {
                tier: tier.map(|t| t.0),
                lots,
                ego,
            };
            let pick = Pick::new(character.as_deref(), player);
            sheets::set(app, &caller, edits, pick).await
        }
    }
}

command! {
    /// Add a note (asset, specialty, insight…)
    #[poise::command(slash_command, guild_only)]
    pub async fn note(
        ctx,
        caller,
        #[description = "What kind of note"] kind: NoteKind,
        #[description = "The text"]
        #[max_length = 200]
        text: String,
        #[character = "Character (default: active)"] character,
        #[player = "Whose (FC)"] player,
    ) {
        let pick = Pick::new(character.as_deref(), player);
        sheets::note(&ctx.data().app, &caller, kind, &text, pick).await
    }
}

command! {
    /// Remove an ability, job or note
    #[poise::command(slash_command, guild_only)]
    pub async fn remove(
        ctx,
        caller,
        #[description = "What to remove"] kind: RemoveKind,
        #[description = "Name, or #number for notes"]
        #[max_length = 200]
        name: String,
        #[character = "Character (default: active)"] character,
        #[player = "Whose (FC)"] player,
    ) {
        let pick = Pick::new(character.as_deref(), player);
        sheets::remove(&ctx.data().app, &caller, kind, &name, pick).await
    }
}
