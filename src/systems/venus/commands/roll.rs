//! `/ve check`, `/ve task` and `/ve bonus`: a player's own rolls.

use super::complete;
use crate::kit::command;
use crate::rules::venus::check::FactorKind;
use crate::systems::venus::calls::{self, RollRequest};

command! {
    /// Start a check (d20) on one of your abilities.
    #[poise::command(slash_command, guild_only)]
    pub async fn check(
        ctx,
        caller,
        #[description = "The ability the FC picked"]
        #[autocomplete = "complete::ability"]
        #[max_length = 64]
        ability: String,
        #[description = "Difficulty: 5/10/15/20 (25 in edition 1), or 1-4 steps"]
        #[min = 1]
        #[max = 25]
        difficulty: u32,
        #[description = "Relative factors, e.g. \"Darkness, Wounds+2\""]
        #[max_length = 200]
        factors: Option<String>,
        #[description = "What failure means"]
        #[max_length = 200]
        consequence: Option<String>,
        #[description = "Which of your characters (default: your active one)"]
        #[autocomplete = "complete::character"]
        #[max_length = 64]
        character: Option<String>,
        #[secret = "Only you and the FC see it"] secret,
    ) {
        let req = RollRequest {
            player: caller.user_id,
            character,
            ability,
            difficulty: Some(difficulty),
            factors,
            consequence,
            ..RollRequest::default()
        };
        calls::start_check(&ctx.data().app, &caller, req).await
    }
}

command! {
    /// Start a task (dice pool) with one of your jobs.
    #[poise::command(slash_command, guild_only)]
    #[allow(clippy::too_many_arguments)]
    pub async fn task(
        ctx,
        caller,
        #[description = "The ability the FC picked"]
        #[autocomplete = "complete::ability"]
        #[max_length = 64]
        ability: String,
        #[description = "The job used (default: your best job for the ability)"]
        #[autocomplete = "complete::job"]
        #[max_length = 64]
        job: Option<String>,
        #[description = "Edition 2: the appropriate difficulty, 1-4"]
        #[min = 1]
        #[max = 4]
        difficulty: Option<u32>,
        #[description = "Relative factors, e.g. \"Darkness, Wounds+2\""]
        #[max_length = 200]
        factors: Option<String>,
        #[description = "What failure means"]
        #[max_length = 200]
        consequence: Option<String>,
        #[description = "To start learning a new job: the abilities it inherits"]
        #[max_length = 140]
        learn: Option<String>,
        #[description = "Which of your characters (default: your active one)"]
        #[autocomplete = "complete::character"]
        #[max_length = 64]
        character: Option<String>,
        #[secret = "Only you and the FC see it"] secret,
    ) {
        let req = RollRequest {
            player: caller.user_id,
            character,
            ability,
            difficulty,
            factors,
            consequence,
            job,
            learn,
            ..RollRequest::default()
        };
        calls::start_task(&ctx.data().app, &caller, req).await
    }
}

command! {
    /// Claim a named bonus factor on your check in progress here.
    #[poise::command(slash_command, guild_only)]
    pub async fn bonus(
        ctx,
        caller,
        #[description = "What helps, e.g. \"The high ground\""]
        #[max_length = 64]
        name: String,
        #[description = "What kind of factor"] kind: FactorKind,
        #[description = "Edition 2: +1, or +2 when multiples apply"]
        #[min = 1]
        #[max = 2]
        value: Option<u32>,
    ) {
        let value = value.unwrap_or(1);
        calls::bonus(&ctx.data().app, &caller, &name, kind, value).await
    }
}
