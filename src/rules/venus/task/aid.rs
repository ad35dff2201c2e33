//! Task setup (VE-3, VE-5, VE1-T1/T2, VE2-T1/T2), aid offers (VE1-T3,
//! VE2-T3, A-V10, A-V19) and the roll with explosions (VE1-T4, VE2-T4/T5,
//! A-V26, A-V27).

use rand::Rng;
use std::collections::BTreeMap;

use super::{
    may_act_as, need_gm, AidStatus, Ally, CloseKind, EgoMode, RolledDie, TaskDie, TaskEvent,
    TaskPhase, TaskSetup, TaskState, MAX_GENERATED_DICE,
};
use crate::rules::dice::d;
use crate::rules::venus::check::{check_relative_factors, NamedFactor, MAX_FACTORS};
use crate::rules::venus::rank::Rank;
use crate::rules::venus::settings::{Edition, ExplodeScope, VenusSettings};
use crate::rules::venus::sheet::{clean_name, clean_text, same, VenusCtx, VenusSheet};
use crate::rules::{Actor, RuleError};

/// The name of edition 1's automatic learning factor (VE1-T2).
pub const LEARNING_FACTOR: &str = "Learning the ropes";

impl TaskState {
    /// Validates a setup against the roller's sheet and opens the task in
    /// [`TaskPhase::AidOffers`]. Nothing is rolled yet and no sheet changes.
    pub fn new(
        setup: TaskSetup,
        settings: &VenusSettings,
        ctx: &VenusCtx,
    ) -> Result<(Self, Vec<TaskEvent>), RuleError> {
        let edition = settings.ve_edition;
        check_task_starter(&setup)?;
        let sheet = ctx.sheet(setup.roller)?;
        let ability = sheet
            .ability_key(&setup.ability)
            .ok_or_else(|| sheet.no_ability(&setup.ability))?
            .to_string();
        let a = sheet.abilities[&ability];
        let (job, level, learn_inherits) = task_job(sheet, &setup, &ability)?;
        let learning = level == 0;
        let mut factors = check_relative_factors(edition, &setup.factors)?;
        let (difficulty, threshold) = task_threshold(edition, &setup, learning, &mut factors)?;
        check_dice_flags(edition, &setup, settings)?;
        let (pool, pool_capped_from) = task_pool(edition, learning, level, a.score, settings);
        let state = TaskState {
            edition,
            settings: settings.clone(),
            phase: TaskPhase::AidOffers,
            roller: setup.roller,
            npc: setup.npc,
            ability: ability.clone(),
            rank: a.rank,
            score: a.score,
            job: job.clone(),
            job_level: level,
            learning,
            learn_inherits,
            difficulty,
            factors,
            threshold,
            consequence: clean_text("consequence", &setup.consequence)?,
            magic: setup.magic,
            crit_flag: setup.crits,
            pool,
            pool_capped_from,
            allies: Vec::new(),
            dice: Vec::new(),
            generated_dice: 0,
            explosion_capped: false,
            kisses: Vec::new(),
            kiss_round_done: false,
            ego_reroll_pending: false,
            ego_mode: EgoMode::None,
            lots_spent: BTreeMap::new(),
            ego_spent_by: None,
            purchases: Vec::new(),
            overflow_job: None,
            subversion: None,
            outcome: None,
            close_kind: None,
            close_changes: Vec::new(),
        };
        let ev = vec![TaskEvent::Started {
            roller: setup.roller,
            ability,
            job,
            rank: a.rank,
            score: a.score,
            level,
            learning,
            pool,
            pool_capped_from,
            threshold,
        }];
        Ok((state, ev))
    }

    fn need_phase(&self, phase: TaskPhase, what: &str) -> Result<(), RuleError> {
        if self.phase == phase {
            Ok(())
        } else {
            Err(RuleError::new(format!(
                "You cannot {what} at this point of the task."
            )))
        }
    }

    fn ally_index(&self, ally: i64) -> Result<usize, RuleError> {
        self.allies
            .iter()
            .position(|a| a.id == ally)
            .ok_or_else(|| RuleError::new("That participant has not offered aid."))
    }

    pub(super) fn offer_aid(
        &mut self,
        ctx: &VenusCtx,
        actor: Actor,
        ally: i64,
        job: &str,
        demand: Option<String>,
        ev: &mut Vec<TaskEvent>,
    ) -> Result<(), RuleError> {
        self.need_phase(TaskPhase::AidOffers, "offer aid")?;
        if !may_act_as(actor, ally) {
            return Err(RuleError::new(
                "Only the ally themselves (or the GM) can offer their die.",
            ));
        }
        if ally == self.roller {
            return Err(RuleError::new("The roller cannot aid their own task."));
        }
        let existing = self.aid_slot(ally)?;
        let (key, rank) = self.aiding_job(ctx, ally, job)?;
        let demand = match demand {
            Some(t) => Some(clean_text("demand", &t)?).filter(|t| !t.is_empty()),
            None => None,
        };
        let entry = Ally {
            id: ally,
            job: key.clone(),
            rank,
            rank_overridden: false,
            status: AidStatus::Offered,
            demand: demand.clone(),
            consented_kiss: false,
            magic: false,
            die_id: None,
        };
        match existing {
            Some(i) => self.allies[i] = entry,
            None => self.allies.push(entry),
        }
        ev.push(TaskEvent::AidOffered {
            ally,
            job: key,
            rank,
            demand,
        });
        Ok(())
    }

    /// Whether the ally may still offer a die: not one already offered
    /// or accepted, and at most 2 (VE1-T3) or 3 (VE2-T3) allies at once.
    /// Returns the index of the ally's earlier, withdrawn or refused offer.
    fn aid_slot(&self, ally: i64) -> Result<Option<usize>, RuleError> {
        let existing = self.allies.iter().position(|a| a.id == ally);
        if existing.is_some_and(|i| self.allies[i].status.standing()) {
            return Err(RuleError::new("That ally has already offered a die."));
        }
        let active = self.standing_allies().count();
        if active >= self.max_allies() {
            return Err(RuleError::new(format!(
                "At most {} allies may aid a task in edition {}.",
                self.max_allies(),
                self.edition
            )));
        }
        Ok(existing)
    }

    /// The ally's job that gives the die: at level 1 or more and inheriting
    /// the task's ability (VE1-T3, VE2-T3). Returns the job's name and the
    /// die's rank, the ally's rank in the GM-chosen ability (A-V10).
    fn aiding_job(
        &self,
        ctx: &VenusCtx,
        ally: i64,
        job: &str,
    ) -> Result<(String, Rank), RuleError> {
        let sheet = ctx.sheet(ally)?;
        let key = sheet.job_key(job).ok_or_else(|| sheet.no_job(job))?;
        let j = &sheet.jobs[key];
        if j.level == 0 || j.learning {
            return Err(RuleError::new(
                "A job still being learned (level 0) cannot aid.",
            ));
        }
        if !j.inherits_ability(&self.ability) {
            return Err(RuleError::new(format!(
                "The job {key} does not inherit {}, so it cannot aid this task.",
                self.ability
            )));
        }
        let rank = sheet
            .ability(&self.ability)
            .map(|a| a.rank)
            .ok_or_else(|| {
                RuleError::new(format!("{} has no {} ability.", sheet.name, self.ability))
            })?;
        Ok((key.to_string(), rank))
    }

    /// The task opened again from `setup` (the GM's adjustment before the
    /// roll), keeping the standing aid offers that still fit, with the
    /// roller's answers and the GM's rank override and magic flag of each
    /// ally's die while they still apply (A-V10, A-V19). Refused once the
    /// dice are thrown.
    pub fn rebuilt(
        &self,
        setup: TaskSetup,
        settings: &VenusSettings,
        ctx: &VenusCtx,
    ) -> Result<TaskState, RuleError> {
        if self.phase != TaskPhase::AidOffers {
            return Err(RuleError::new("The dice are already thrown."));
        }
        let roller = Actor {
            id: setup.roller,
            gm: false,
        };
        let gm = Actor {
            id: setup.actor.id,
            gm: true,
        };
        let (mut task, _) = TaskState::new(setup, settings, ctx)?;
        for a in self.standing_allies() {
            let ally = Actor {
                id: a.id,
                gm: false,
            };
            let demand = a.demand.clone();
            if !task.kept(|t, ev| t.offer_aid(ctx, ally, a.id, &a.job, demand, ev)) {
                continue;
            }
            if a.status == AidStatus::Accepted {
                task.kept(|t, ev| t.answer_aid(roller, a.id, true, ev));
            }
            if a.rank_overridden {
                task.kept(|t, ev| t.override_ally_rank(gm, a.id, a.rank, ev));
            }
            if a.magic {
                task.kept(|t, ev| t.flag_ally_magic(gm, a.id, true, ev));
            }
        }
        Ok(task)
    }

    /// Makes `step` on a copy of the task and keeps it if it is allowed;
    /// whether it was.
    fn kept(
        &mut self,
        step: impl FnOnce(&mut Self, &mut Vec<TaskEvent>) -> Result<(), RuleError>,
    ) -> bool {
        let mut next = self.clone();
        let allowed = step(&mut next, &mut Vec::new()).is_ok();
        if allowed {
            *self = next;
        }
        allowed
    }

    pub(super) fn answer_aid(
        &mut self,
        actor: Actor,
        ally: i64,
        accept: bool,
        ev: &mut Vec<TaskEvent>,
    ) -> Result<(), RuleError> {
        self.need_phase(TaskPhase::AidOffers, "answer aid offers")?;
        if !may_act_as(actor, self.roller) {
            return Err(RuleError::new(
                "Only the roller (or the GM) can accept or refuse aid.",
            ));
        }
        let i = self.ally_index(ally)?;
        // An accepted offer may still be refused until the roll (VE1-T3,
        // VE2-T3: the roller may refuse), so an offer the table takes at
        // once is never forced on the roller.
        let open = match self.allies[i].status {
            AidStatus::Offered => true,
            AidStatus::Accepted => !accept,
            _ => false,
        };
        if !open {
            return Err(RuleError::new(
                "That offer has already been answered or withdrawn.",
            ));
        }
        self.allies[i].status = if accept {
            AidStatus::Accepted
        } else {
            AidStatus::Refused
        };
        ev.push(TaskEvent::AidAnswered {
            ally,
            accepted: accept,
        });
        Ok(())
    }

    pub(super) fn withdraw_aid(
        &mut self,
        actor: Actor,
        ally: i64,
        ev: &mut Vec<TaskEvent>,
    ) -> Result<(), RuleError> {
        self.need_phase(TaskPhase::AidOffers, "withdraw aid")?;
        if !may_act_as(actor, ally) {
            return Err(RuleError::new(
                "Only the ally themselves (or the GM) can withdraw their offer.",
            ));
        }
        let i = self.ally_index(ally)?;
        if !matches!(
            self.allies[i].status,
            AidStatus::Offered | AidStatus::Accepted
        ) {
            return Err(RuleError::new("That offer is no longer standing."));
        }
        self.allies[i].status = AidStatus::Withdrawn;
        ev.push(TaskEvent::AidWithdrawn { ally });
        Ok(())
    }

    pub(super) fn override_ally_rank(
        &mut self,
        actor: Actor,
        ally: i64,
        rank: Rank,
        ev: &mut Vec<TaskEvent>,
    ) -> Result<(), RuleError> {
        self.need_phase(TaskPhase::AidOffers, "change an ally's rank")?;
        need_gm(actor)?;
        let i = self.ally_index(ally)?;
        self.allies[i].rank = rank;
        self.allies[i].rank_overridden = true;
        ev.push(TaskEvent::AllyRankOverridden { ally, rank });
        Ok(())
    }

    pub(super) fn flag_ally_magic(
        &mut self,
        actor: Actor,
        ally: i64,
        magic: bool,
        ev: &mut Vec<TaskEvent>,
    ) -> Result<(), RuleError> {
        self.need_phase(TaskPhase::AidOffers, "flag an ally's die")?;
        need_gm(actor)?;
        if !self.magic {
            return Err(RuleError::new(
                "Only a magic (exploding) task has magical dice.",
            ));
        }
        let i = self.ally_index(ally)?;
        self.allies[i].magic = magic;
        ev.push(TaskEvent::AllyMagicFlagged { ally, magic });
        Ok(())
    }

    /// Whether a die owned by `owner` explodes on its highest face in this
    /// task: a 10 (VE2-T5, A-V19), or an edition-1 6 under the house rule
    /// `ve1_explosions` (same scope).
    pub fn explodes_for(&self, owner: i64) -> bool {
        let allowed = match self.edition {
            Edition::One => self.settings.ve1_explosions,
            Edition::Two => true,
        };
        if !self.magic || !allowed {
            return false;
        }
        owner == self.roller
            || self.settings.ve2_explode_scope == ExplodeScope::AllDice
            || self.allies.iter().any(|a| a.id == owner && a.magic)
    }

    /// The sides of the task's dice: D6 (VE1-T1), D10 (VE2-T1).
    pub fn sides(&self) -> u32 {
        match self.edition {
            Edition::One => 6,
            Edition::Two => 10,
        }
    }

    pub(super) fn add_die<R: Rng + ?Sized>(
        &mut self,
        rng: &mut R,
        owner: i64,
        rank: Rank,
        exploded_from: Option<u32>,
    ) -> u32 {
        let id = self.dice.len() as u32 + 1;
        let face = d(rng, self.sides());
        let explodes = self.explodes_for(owner);
        self.dice.push(TaskDie {
            id,
            owner,
            rank,
            face,
            kissed: false,
            kiss_source: None,
            kissed_by: None,
            exploded_from,
            explodes,
            history: vec![face],
        });
        id
    }

    /// Explodes die `id` if it shows an exploding 10, and the new dice in turn
    /// (VE2-T5: no limit but the safety cap; A-V20: exploded dice are ordinary).
    pub(super) fn explode_from<R: Rng + ?Sized>(
        &mut self,
        rng: &mut R,
        id: u32,
        ev: &mut Vec<TaskEvent>,
    ) {
        let mut current = id;
        loop {
            let Some(die) = self.die(current) else { return };
            if !(die.explodes && die.face == self.sides()) {
                return;
            }
            if self.generated_dice >= MAX_GENERATED_DICE {
                if !self.explosion_capped {
                    self.explosion_capped = true;
                    ev.push(TaskEvent::ExplosionsCapped);
                }
                return;
            }
            let (owner, rank) = (die.owner, die.rank);
            self.generated_dice += 1;
            let new = self.add_die(rng, owner, rank, Some(current));
            let nd = self.die(new).expect("just added");
            ev.push(TaskEvent::Exploded {
                from: current,
                die: RolledDie {
                    id: new,
                    owner,
                    rank,
                    face: nd.face,
                },
            });
            current = new;
        }
    }

    pub(super) fn roll<R: Rng + ?Sized>(
        &mut self,
        ctx: &mut VenusCtx,
        actor: Actor,
        rng: &mut R,
        ev: &mut Vec<TaskEvent>,
    ) -> Result<(), RuleError> {
        self.need_phase(TaskPhase::AidOffers, "roll")?;
        if !may_act_as(actor, self.roller) {
            return Err(RuleError::new("Only the roller (or the GM) can roll."));
        }
        if self.pending_allies().next().is_some() {
            return Err(RuleError::new(
                "Accept or refuse every aid offer before rolling.",
            ));
        }
        for _ in 0..self.pool {
            self.add_die(rng, self.roller, self.rank, None);
        }
        let allies: Vec<(usize, i64, Rank)> = self
            .allies
            .iter()
            .enumerate()
            .filter(|(_, a)| a.status == AidStatus::Accepted)
            .map(|(i, a)| (i, a.id, a.rank))
            .collect();
        for (i, id, rank) in allies {
            let die = self.add_die(rng, id, rank, None);
            self.allies[i].die_id = Some(die);
        }
        ev.push(TaskEvent::DiceRolled {
            dice: self
                .dice
                .iter()
                .map(|d| RolledDie {
                    id: d.id,
                    owner: d.owner,
                    rank: d.rank,
                    face: d.face,
                })
                .collect(),
        });
        let initial: Vec<u32> = self.dice.iter().map(|d| d.id).collect();
        for id in initial {
            self.explode_from(rng, id, ev);
        }
        self.push_count(ev);
        self.after_roll(ctx, ev)
    }

    pub(super) fn push_count(&self, ev: &mut Vec<TaskEvent>) {
        ev.push(TaskEvent::Count {
            successes: self.successes(),
            threshold: self.threshold,
        });
    }

    /// Where the task goes after the first roll.
    fn after_roll(&mut self, ctx: &mut VenusCtx, ev: &mut Vec<TaskEvent>) -> Result<(), RuleError> {
        if self.dice.is_empty() {
            // A-V26: no dice, no beats or passes, no KISS and no Ego.
            self.kiss_round_done = true;
            return match self.edition {
                Edition::One => {
                    ev.push(TaskEvent::SpendingFinished { beats_lost: 0 });
                    self.phase = TaskPhase::GmSubversion;
                    Ok(())
                }
                Edition::Two => self.close(ctx, CloseKind::Normal, ev),
            };
        }
        match self.edition {
            Edition::One => self.phase = TaskPhase::KissDeclaration,
            Edition::Two => {
                if self.successes() >= self.threshold && !self.kiss_while_succeeding() {
                    ev.push(TaskEvent::EarlySuccess);
                    self.kiss_round_done = true;
                    return self.close(ctx, CloseKind::Normal, ev);
                }
                self.phase = TaskPhase::KissDeclaration;
            }
        }
        Ok(())
    }

    /// VE2: whether KISSes are offered although the task already succeeds
    /// (`ve2_kiss_when_succeeding` on a task whose crits apply, A-V21).
    pub fn kiss_while_succeeding(&self) -> bool {
        self.settings.ve2_kiss_when_succeeding && self.crits_active()
    }
}

/// The job the task uses (VE-3, VE1-T1, VE2-T1): one of the roller's
/// jobs that inherits the ability, or a new job being learned (level 0)
/// with the one or two abilities it inherits, one of them this ability.
/// Returns the job's name, its level and, for a new job, what it inherits.
fn task_job(
    sheet: &VenusSheet,
    setup: &TaskSetup,
    ability: &str,
) -> Result<(String, u32, Option<Vec<String>>), RuleError> {
    match (sheet.job_key(&setup.job), &setup.learn_inherits) {
        (Some(key), None) => {
            let j = &sheet.jobs[key];
            if !j.inherits_ability(ability) {
                return Err(RuleError::new(format!(
                        "The job {key} does not inherit {ability}: use a job that does, or start learning one."
                    )));
            }
            Ok((key.to_string(), j.level, None))
        }
        (Some(key), Some(_)) => Err(RuleError::new(format!(
            "{} already has the job {key}.",
            sheet.name
        ))),
        (None, Some(inherits)) => {
            let name = clean_name("job", &setup.job)?;
            if inherits.is_empty() || inherits.len() > 2 {
                return Err(RuleError::new("A job inherits one or two abilities."));
            }
            let mut keys: Vec<String> = Vec::new();
            for i in inherits {
                let k = sheet.ability_key(i).ok_or_else(|| sheet.no_ability(i))?;
                if keys.iter().any(|x| same(x, k)) {
                    return Err(RuleError::new(
                        "A job cannot inherit the same ability twice.",
                    ));
                }
                keys.push(k.to_string());
            }
            if !keys.iter().any(|k| same(k, ability)) {
                return Err(RuleError::new(format!(
                    "The new job {name} must inherit {ability} to be used for this task."
                )));
            }
            Ok((name, 0, Some(keys)))
        }
        (None, None) => Err(RuleError::new(format!(
            "{} has no job called {}: name the abilities it inherits to start learning it.",
            sheet.name,
            setup.job.trim()
        ))),
    }
}

/// The appropriate difficulty and the threshold: VE1 starts at 1 with
/// +1 per factor, the learning factor among them for a level-0 job
/// (VE1-T2, VE1-L2); VE2 is the difficulty 1-4 plus the factors (VE2-T2).
fn task_threshold(
    edition: Edition,
    setup: &TaskSetup,
    learning: bool,
    factors: &mut Vec<NamedFactor>,
) -> Result<(u32, u32), RuleError> {
    match edition {
        Edition::One => {
            if setup.difficulty != 1 {
                return Err(RuleError::new(
                    "In edition 1 the threshold always starts at 1.",
                ));
            }
            if learning && !setup.no_learning_factor {
                if factors.len() >= MAX_FACTORS {
                    return Err(RuleError::new(
                        "Learning the ropes is already one of the 4 factors: at most 3 more.",
                    ));
                }
                factors.insert(
                    0,
                    NamedFactor {
                        name: LEARNING_FACTOR.into(),
                        value: 1,
                    },
                );
            }
            Ok((1, 1 + factors.len() as u32))
        }
        Edition::Two => {
            if !(1..=4).contains(&setup.difficulty) {
                return Err(RuleError::new(
                    "The appropriate difficulty must be from 1 to 4.",
                ));
            }
            Ok((
                setup.difficulty,
                setup.difficulty + factors.iter().map(|f| f.value).sum::<u32>(),
            ))
        }
    }
}

/// Refuses the flags edition 1 lacks: exploding dice (VE2-T5) unless the
/// house rule `ve1_explosions` allows them, and critical results (VE2-T11).
fn check_dice_flags(
    edition: Edition,
    setup: &TaskSetup,
    settings: &VenusSettings,
) -> Result<(), RuleError> {
    if edition == Edition::One && setup.magic && !settings.ve1_explosions {
        return Err(RuleError::new(
                "Exploding dice are not part of edition 1's core rules (the house rule `ve1_explosions` allows them).",
            ));
    }
    if edition == Edition::One && setup.crits {
        return Err(RuleError::new("Critical results are an edition 2 rule."));
    }
    Ok(())
}

/// Who may start a task: the roller or the GM, and only for a player
/// character unless the GM overrides for an NPC (VE-5).
fn check_task_starter(setup: &TaskSetup) -> Result<(), RuleError> {
    if !may_act_as(setup.actor, setup.roller) {
        return Err(RuleError::new(
            "Only the roller or the GM can start this task.",
        ));
    }
    if setup.npc && !(setup.gm_override && setup.actor.gm) {
        return Err(RuleError::new(
                "Only player characters perform tasks; an NPC makes a check instead, unless the GM overrides.",
            ));
    }
    Ok(())
}

/// The dice pool: VE1 the job level, or the ability score while the job
/// is learned at level 0 (VE1-T1, VE1-L2); VE2 level + score (VE2-T1).
/// Capped at `ve_max_pool`; returns the pool and the uncapped size when
/// the cap applied.
fn task_pool(
    edition: Edition,
    learning: bool,
    level: u32,
    score: u32,
    settings: &VenusSettings,
) -> (u32, Option<u32>) {
    let raw_pool = match edition {
        Edition::One if learning => score,
        Edition::One => level,
        Edition::Two => level.saturating_add(score),
    };
    let pool = raw_pool.min(settings.ve_max_pool);
    (pool, (raw_pool > pool).then_some(raw_pool))
}
