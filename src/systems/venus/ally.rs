//! `/ve-gm fc ally`: the FC's per-ally controls on a task waiting for its dice
//! (spec A-V10, A-V19). An ally's die has the ally's rank in the
//! FC-chosen ability, and "the GM may override per die"; on a magic task
//! only the roller's dice explode under `ve2_explode_scope = roller_only`,
//! and the FC may flag an ally's die as magical too. The rules core applies
//! both ([`TaskAction::OverrideAllyRank`], [`TaskAction::FlagAllyMagic`]);
//! this file finds the task, refuses anyone but the FC, and redraws the
//! task's message in place.

use super::calls::{chosen_roll, redrawn};
use super::context::{actor, Turn};
use super::party::Party;
use super::record::{TaskActions, TaskEvents};
use super::state::VeState;
use super::{fc_words, GM};
use crate::app::pipeline::Record;
use crate::app::{log, App, AppError, AppResult, Caller};
use crate::rules::venus::task::{TaskAction, TaskPhase};
use crate::rules::venus::Rank;
use crate::rules::Actor;

/// What the FC changes on one ally's die.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct AllyDie {
    /// The member whose die it is.
    pub ally: i64,
    /// The rank the die rolls at (A-V10).
    pub rank: Option<Rank>,
    /// Whether the die is magical, so it explodes (A-V19).
    pub magic: Option<bool>,
}

/// The task actions that set an ally's die, and what each says.
fn die_actions(a: Actor, die: AllyDie) -> (Vec<TaskAction>, Vec<String>) {
    let mut actions = Vec::new();
    let mut parts = Vec::new();
    if let Some(rank) = die.rank {
        actions.push(TaskAction::OverrideAllyRank {
            actor: a,
            ally: die.ally,
            rank,
        });
        parts.push(format!("rolls at {rank}"));
    }
    if let Some(magic) = die.magic {
        actions.push(TaskAction::FlagAllyMagic {
            actor: a,
            ally: die.ally,
            magic,
        });
        parts.push(
            if magic {
                "is magical (it explodes)"
            } else {
                "is not magical"
            }
            .to_string(),
        );
    }
    (actions, parts)
}

/// `/ve-gm fc ally`: overrides an ally's rank and/or flags their die as
/// magical on the task `roll` (else the newest waiting for its dice).
pub async fn ally_die(
    app: &App,
    caller: &Caller,
    die: AllyDie,
    roll: Option<super::calls::RollRef>,
) -> AppResult {
    if die.rank.is_none() && die.magic.is_none() {
        return Err(AppError::user(
            "Say what to change: the ally's `rank:` or `magic:`.",
        ));
    }
    let mut turn = Turn::begin(app, caller).await?;
    turn.require_gm(GM, "override an ally's rank or flag their die as magical")?;
    let a = actor(&turn);
    let waiting =
        |s: &VeState| matches!(s, VeState::Task(t) if t.task.phase == TaskPhase::AidOffers);
    let none = "There is no task waiting for its dice in this channel.";
    let (session, VeState::Task(mut t)) =
        chosen_roll(turn.tx(), caller, roll, waiting, none).await?
    else {
        return Err(AppError::Internal("not a task".into()));
    };
    if !t.task.allies.iter().any(|x| x.id == die.ally) {
        return Err(AppError::user(format!(
            "<@{}> has not offered to aid this task.",
            die.ally
        )));
    }
    let mut party = Party::load(turn.tx(), caller.guild_id, t.whos()).await?;
    let (actions, parts) = die_actions(a, die);
    let (task, events) = (t.task.clone())
        .apply_all(&mut party.ctx, actions.clone(), &mut turn.rng())
        .map_err(fc_words)?;
    t.task = task;
    let set = |name: String| format!("The {GM} set {name}'s die: it {}.", parts.join(" and "));
    // The footer shows the name as typed; the answer's prose, without markdown.
    let line = set(t.shown_of(die.ally));
    t.note = Some(set(t.name_of(die.ally)));
    let entry = Record::new(
        "task_ally",
        &TaskActions { actions },
        &TaskEvents { events },
    )
    .dice(&log::NO_DICE, Vec::new())
    .on_session();
    let out = redrawn(&turn, session, VeState::Task(t), line).log(entry);
    turn.finish(out).await
}
