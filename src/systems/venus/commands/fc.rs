//! `/ve-gm fc …`: the FC's controls (call rolls, NPC checks, adjust, grant and
//! take Kismet, edition, new play session, void, force-close, an ally's
//! die).

use poise::serenity_prelude as serenity;

use super::choices::RollKind;
use super::complete;
use crate::kit::{command, Context, Error};
use crate::rules::venus::{Edition, Rank};
use crate::systems::venus::admin::{self, Way};
use crate::systems::venus::ally::{self, AllyDie};
use crate::systems::venus::calls::{self, Adjust, RollRequest};

/// The FC's controls.
#[poise::command(
    default_member_permissions = "MANAGE_GUILD",
    slash_command,
    guild_only,
    subcommands(
        "call", "npc", "adjust", "grant", "take", "edition", "session", "void", "close", "ally"
    ),
    subcommand_required
)]
pub async fn fc(_ctx: Context<'_>) -> Result<(), Error> {
    Ok(())
}

fn uid(u: &serenity::User) -> i64 {
    u.id.get() as i64
}

command! {
    /// Call a check or task for a player.
    #[poise::command(slash_command, guild_only)]
    #[allow(clippy::too_many_arguments)]
    pub async fn call(
        ctx,
        caller,
        #[description = "Who rolls"] player: serenity::User,
        #[description = "Check (d20) or task (dice pool)"] kind: RollKind,
        #[description = "The ability"]
        #[autocomplete = "complete::ability"]
        #[max_length = 64]
        ability: String,
        #[description = "Check: 5/10/15/20(/25) or 1-4 steps. Edition-2 task: 1-4"]
        #[min = 1]
        #[max = 25]
        difficulty: Option<u32>,
        #[description = "Relative factors, e.g. \"Darkness, Wounds+2\""]
        #[max_length = 200]
        factors: Option<String>,
        #[description = "What failure means"]
        #[max_length = 200]
        consequence: Option<String>,
        #[description = "Task: the job (default: the player's best for the ability)"]
        #[autocomplete = "complete::job"]
        #[max_length = 64]
        job: Option<String>,
        #[description = "Task: start learning the job, inheriting these abilities"]
        #[max_length = 140]
        learn: Option<String>,
        #[description = "Task: magic or advanced technology (10s explode; edition 1: 6s, house rule ve1_explosions)"]
        magic: Option<bool>,
        #[description = "Edition-2 task: critical results and margin"] crits: Option<bool>,
        #[description = "Edition-1 task, level-0 job: count \"learning the ropes\" (default true)"]
        ropes: Option<bool>,
    ) {
        let req = RollRequest {
            player: uid(&player),
            character: None,
            ability,
            npc: None,
            difficulty,
            factors,
            consequence,
            job,
            learn,
            magic: magic.unwrap_or(false),
            crits: crits.unwrap_or(false),
            ropes,
        };
        let app = &ctx.data().app;
        match kind {
            RollKind::Check => calls::start_check(app, &caller, req).await,
            RollKind::Task => calls::start_task(app, &caller, req).await,
        }
    }
}

command! {
    /// Roll an NPC check with ad-hoc rank and score.
    #[poise::command(slash_command, guild_only)]
    #[allow(clippy::too_many_arguments)]
    pub async fn npc(
        ctx,
        caller,
        #[description = "Who and what, e.g. \"Guard captain: Wits\""]
        #[max_length = 64]
        name: String,
        #[description = "Rank"] rank: Rank,
        #[description = "Score"]
        #[min = 0]
        #[max = 100]
        score: u32,
        #[description = "Difficulty: 5/10/15/20(/25), or 1-4 steps"]
        #[min = 1]
        #[max = 25]
        difficulty: u32,
        #[description = "Relative factors"]
        #[max_length = 200]
        factors: Option<String>,
        #[description = "What failure means"]
        #[max_length = 200]
        consequence: Option<String>,
        #[secret = "Only you and the FC see it"] secret,
    ) {
        let req = RollRequest {
            player: caller.user_id,
            ability: name,
            npc: Some((rank, score)),
            difficulty: Some(difficulty),
            factors,
            consequence,
            ..RollRequest::default()
        };
        calls::start_check(&ctx.data().app, &caller, req).await
    }
}

command! {
    /// Adjust the roll waiting for its dice in this channel.
    #[poise::command(slash_command, guild_only)]
    #[allow(clippy::too_many_arguments)]
    pub async fn adjust(
        ctx,
        caller,
        #[description = "New difficulty"]
        #[min = 1]
        #[max = 25]
        difficulty: Option<u32>,
        #[description = "New relative factors (replace the old; \"-\" clears them)"]
        #[max_length = 200]
        factors: Option<String>,
        #[description = "New consequence"]
        #[max_length = 200]
        consequence: Option<String>,
        #[description = "New ability"]
        #[autocomplete = "complete::ability"]
        #[max_length = 64]
        ability: Option<String>,
        #[description = "Task: new job"]
        #[autocomplete = "complete::job"]
        #[max_length = 64]
        job: Option<String>,
        #[description = "Task: magic (10s explode; edition 1: 6s, house rule ve1_explosions)"]
        magic: Option<bool>,
        #[description = "Edition-2 task: critical results"] crits: Option<bool>,
        #[description = "Edition-1 task, level-0 job: count \"learning the ropes\""]
        ropes: Option<bool>,
        #[description = "Which roll (default: the newest waiting)"]
        #[autocomplete = "complete::roll"]
        #[max_length = 100]
        roll: Option<String>,
    ) {
        let factors = factors.map(|f| if f.trim() == "-" { String::new() } else { f });
        let adjust = Adjust {
            difficulty,
            factors,
            consequence,
            ability,
            job,
            magic,
            crits,
            ropes,
            roll: calls::parse_roll(roll.as_deref())?,
        };
        calls::adjust(&ctx.data().app, &caller, adjust).await
    }
}

command! {
    /// Grant Lots and/or Ego (debrief, scene introduction).
    #[poise::command(slash_command, guild_only)]
    pub async fn grant(
        ctx,
        caller,
        #[description = "To whom"] player: serenity::User,
        #[description = "Lots to grant"]
        #[min = 0]
        #[max = 10]
        lots: Option<u32>,
        #[description = "Grant Ego"] ego: Option<bool>,
        #[description = "Why (debrief, scene introduction…)"]
        #[max_length = 200]
        reason: Option<String>,
        #[description = "Job that gets the exp when a Lot passes the cap of 10"]
        #[autocomplete = "complete::job"]
        #[max_length = 64]
        job: Option<String>,
    ) {
        let (lots, ego) = (lots.unwrap_or(0), ego.unwrap_or(false));
        let way = Way::Grant { job: job.as_deref() };
        let app = &ctx.data().app;
        admin::kismet(app, &caller, uid(&player), (lots, ego), reason.as_deref(), way).await
    }
}

command! {
    /// Take Lots and/or Ego.
    #[poise::command(slash_command, guild_only)]
    pub async fn take(
        ctx,
        caller,
        #[description = "From whom"] player: serenity::User,
        #[description = "Lots to take"]
        #[min = 0]
        #[max = 10]
        lots: Option<u32>,
        #[description = "Take Ego"] ego: Option<bool>,
        #[description = "Why"]
        #[max_length = 200]
        reason: Option<String>,
    ) {
        let (lots, ego) = (lots.unwrap_or(0), ego.unwrap_or(false));
        let app = &ctx.data().app;
        admin::kismet(app, &caller, uid(&player), (lots, ego), reason.as_deref(), Way::Take).await
    }
}

command! {
    /// Set the guild's Venus Engine edition.
    #[poise::command(slash_command, guild_only)]
    pub async fn edition(
        ctx,
        caller,
        #[description = "1 (1st Playtest) or 2 (Playsheet)"] edition: Edition,
    ) {
        let v = edition.to_string();
        admin::set_edition(&ctx.data().app, &caller, &v).await
    }
}

command! {
    /// Start a new play session (per-session Lot counts start again).
    #[poise::command(slash_command, guild_only)]
    pub async fn session(ctx, caller) {
        admin::new_session(&ctx.data().app, &caller).await
    }
}

command! {
    /// Void a roll in this channel, the newest unless `roll:` says (Lots and Ego spent are given back).
    #[poise::command(slash_command, guild_only)]
    pub async fn void(
        ctx,
        caller,
        #[description = "Which roll (default: the newest)"]
        #[autocomplete = "complete::roll"]
        #[max_length = 100]
        roll: Option<String>,
    ) {
        let roll = calls::parse_roll(roll.as_deref())?;
        calls::end_chosen_roll(&ctx.data().app, &caller, true, roll).await
    }
}

command! {
    /// Force-close a roll in this channel (the newest unless `roll:` says) with what is there.
    #[poise::command(slash_command, guild_only)]
    pub async fn close(
        ctx,
        caller,
        #[description = "Which roll (default: the newest)"]
        #[autocomplete = "complete::roll"]
        #[max_length = 100]
        roll: Option<String>,
    ) {
        let roll = calls::parse_roll(roll.as_deref())?;
        calls::end_chosen_roll(&ctx.data().app, &caller, false, roll).await
    }
}

command! {
    /// Set an ally's die on the task waiting for its dice: its rank (A-V10) or magic flag (A-V19)
    #[poise::command(slash_command, guild_only)]
    pub async fn ally(
        ctx,
        caller,
        #[description = "The ally (a member aiding the task)"] player: serenity::User,
        #[description = "The rank their die rolls at (default: their rank in the task's ability)"]
        rank: Option<Rank>,
        #[description = "Magic task: their die explodes too (ve2_explode_scope roller_only)"]
        magic: Option<bool>,
        #[description = "Which roll (default: the newest waiting)"]
        #[autocomplete = "complete::roll"]
        #[max_length = 100]
        roll: Option<String>,
    ) {
        let roll = calls::parse_roll(roll.as_deref())?;
        let die = AllyDie {
            ally: uid(&player),
            rank,
            magic,
        };
        ally::ally_die(&ctx.data().app, &caller, die, roll).await
    }
}
