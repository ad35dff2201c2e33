//! A stat roll and its register (VV-1..VV-8, VV-11): an interactive state
//! machine.
//!
//! [`OreRoll::start`] rolls the Called Stat's dice into the register (capped
//! at `vv_max_pool` with a warning, A-O2; −1 die under the Power penalty,
//! A-O19) and the Error Dice of an injured entity beside them (A-O13). Then
//! [`OreRoll::apply`] takes [`RollAction`]s until the register is closed:
//! add cache dice, load register dice into the cache (discarding on overflow,
//! A-O10), change faces (VV-5), spend a die on a Minor action (A-O8), use a
//! set for a Basic action (min width; a wide set split only under
//! `vv_allow_split_sets`, A-O7) or a pattern for a Special action (VV-6),
//! Free actions, and Close. Each die is used once (VV-7).
//!
//! **Combos and Strings (VV-7).** Every set-using action after the first on
//! one register is a Combo or a String: the seed lets "certain triggers"
//! allow them and leaves those triggers to the abilities and the Compiler,
//! so the register lets further sets be used and marks them as follow-ups
//! ([`OreRoll::is_follow_up`]).
//!
//! **Thread Count (VV-17, A-O24).** The seed: "Thread Count: the maximum
//! number of simultaneous processes the COMP can handle. In game terms, this
//! means that this is the maximum number of skills you can utilize at once.
//! By default … set to 1." Our reading: the actions of one register all
//! happen in the same round ("in quick succession within the same round",
//! the register "remains on the board"), so they run at once; a *skill* is a
//! named ability of the sheet, which the bot knows as the sheet's named
//! Special actions ([`RollAction::Special`] with `skill`). So one register
//! may use at most Thread Count **different** named abilities; using the
//! same one again is no new thread. Plain Basic actions (a stat and a set),
//! Minor and Free actions use no skill and are not limited, and the Thread
//! Count never limits dice (A-O24). A Special action typed as a bare
//! pattern (no `skill`) is not counted.

use super::damage::suggested_damage;
use super::events::OreEvent;
use super::sets::{
    match_pattern, modify_face, pick, read, CacheCost, Candidate, Pattern, Reading, Set,
    SetRequirement,
};
use super::settings::{OreSettings, PowerPenalty};
use super::sheet::{CacheDie, CacheRef, CacheSource, OreSheet, SpecialAction, Stat};
use crate::rules::dice::pool;
use crate::rules::{Actor, RuleError};
use rand::Rng;
use serde::{Deserialize, Serialize};

/// The most actions recorded on one register.
pub const MAX_ACTIONS: usize = 100;
/// The longest label an action may carry, in characters.
pub const MAX_LABEL: usize = 200;

/// What to roll.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, Default)]
pub struct RollRequest {
    /// The Called Stat (its value is the pool, VV-1).
    pub stat: Option<Stat>,
    /// An ad-hoc number of dice instead of the stat's value (NPCs, GM rulings).
    pub dice: Option<u32>,
    /// What the roll is for, shown in the log.
    pub label: Option<String>,
}

/// Where the roll is in its life.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum RollPhase {
    /// Actions may be taken with the register.
    Open,
    /// The cache is over its maximum: the owner must discard first (VV-8).
    Overflow,
    /// The register is cleared; nothing more can happen.
    Closed,
}

/// What became of a register die.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case", tag = "status", content = "action")]
pub enum DieStatus {
    /// Not used yet.
    Unused,
    /// Used by the action with this number (position in [`OreRoll::actions`]).
    Used(usize),
    /// Loaded into the cache.
    Loaded,
    /// A cache die whose COMP shut down while it sat in the register: it
    /// went with the cache (VV-8) and no longer counts.
    Lost,
}

/// A face modifier applied to a register die (VV-5), kept for display.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct FaceChange {
    /// The die's register position.
    pub die: usize,
    /// Its face before.
    pub from: u32,
    /// Its face after (clamped or wrapped, A-O6).
    pub to: u32,
    /// The modifier.
    pub delta: i32,
}

/// The largest face modifier, either way (a die has ten faces).
pub const MAX_FACE_DELTA: i32 = 9;

/// One die in the register (spec §5.6).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct RegisterDie {
    /// Its face now (after any modifier), 1-10.
    pub face: u32,
    /// Its face as rolled (or as it came from the cache).
    pub natural: u32,
    /// Where it came from, if it was added from the cache.
    pub from_cache: Option<CacheSource>,
    /// What became of it.
    pub status: DieStatus,
}

impl RegisterDie {
    /// True if it has not been used or loaded.
    pub fn is_unused(&self) -> bool {
        self.status == DieStatus::Unused
    }
}

/// The kinds of action a register supports (VV-6).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum ActionKind {
    /// Uses one set (a dub or better).
    Basic,
    /// Uses dice matching a pattern as one set.
    Special,
    /// Spends one die.
    Minor,
    /// Uses no dice.
    Free,
}

/// One action taken with the register, for display and the log.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct ActionRecord {
    /// What kind of action.
    pub kind: ActionKind,
    /// What it was, if given.
    pub label: Option<String>,
    /// Register positions of the dice used.
    pub dice: Vec<usize>,
    /// Their faces.
    pub faces: Vec<u32>,
    /// The set used (Basic actions).
    pub set: Option<Set>,
    /// The pattern matched (Special actions).
    pub pattern: Option<Pattern>,
    /// The difficulty applied (Basic actions).
    pub requirement: Option<SetRequirement>,
    /// The cache cost applied.
    pub cache_cost: CacheCost,
    /// How many of the dice came from the cache.
    pub cache_dice: u32,
    /// Error Dice shown with this action (A-O13).
    pub error_dice: Vec<u32>,
    /// Damage suggested (A-O17), if the setting suggests any.
    pub suggested_damage: Option<u32>,
    /// The named ability (the sheet's Special action id) it used, counted
    /// against the Thread Count (VV-17).
    #[serde(default)]
    pub skill: Option<u32>,
}

/// One face modifier on one die worth offering
/// ([`OreRoll::modifier_choices`], VV-5).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ModifierChoice {
    /// The die's register position.
    pub die: usize,
    /// Its face now.
    pub from: u32,
    /// Its face after.
    pub to: u32,
    /// The modifier.
    pub delta: i32,
    /// It came from the cache.
    pub from_cache: bool,
    /// The dub it breaks.
    pub breaks: Option<Set>,
    /// The narrower set a wider one leaves behind.
    pub leaves: Option<Set>,
    /// The set it makes (or widens) at its new face.
    pub makes: Option<Set>,
}

/// What a register came to ([`OreRoll::standing`]).
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Standing {
    /// The best set that meets the action's need: a success.
    Met(Set),
    /// No set meets it, but a Special action (by its label, else its
    /// pattern) was used: a success.
    Special(String),
    /// The best set, below the need.
    Short(Set),
    /// No set at all: a failure.
    NoSet,
}

/// Something the roller (or the Compiler) does with the register.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case", tag = "action")]
pub enum RollAction {
    /// Move these cache dice (positions in the sheet's cache) into the register (VV-8).
    AddCache {
        /// Who acts.
        actor: Actor,
        /// Cache positions, from 0.
        cache: Vec<usize>,
    },
    /// Move these unused register dice into the cache (VV-8 "loading").
    Load {
        /// Who acts.
        actor: Actor,
        /// Register positions, from 0.
        dice: Vec<usize>,
    },
    /// Discard a die while the cache is over its maximum; `None` = the
    /// default, the lowest face (A-O10), for timeouts.
    Discard {
        /// Who acts.
        actor: Actor,
        /// Which die, or the default.
        die: Option<CacheRef>,
    },
    /// Change one unused die's face by `delta` (VV-5, ±1 to ±9), clamped or
    /// wrapped as `vv_face_modifier_bounds` says (A-O6).
    ModifyFace {
        /// Who acts.
        actor: Actor,
        /// Register position.
        die: usize,
        /// The modifier, e.g. +1 or −2.
        delta: i32,
    },
    /// A Basic action with the unused dice showing `height` (VV-6).
    /// `width` = how many of them: the whole set, unless
    /// `vv_allow_split_sets` lets a wide set be split into smaller sets
    /// (A-O7).
    Basic {
        /// Who acts.
        actor: Actor,
        /// The set's face.
        height: u32,
        /// How many dice to use; `None` = the whole set.
        width: Option<u32>,
        /// The difficulty (min width, optional min height; VV-3, A-O3).
        requirement: SetRequirement,
        /// Cache dice required in the set.
        cache_cost: CacheCost,
        /// What the action is.
        label: Option<String>,
    },
    /// A Special action needing dice that match `pattern` (VV-6).
    Special {
        /// Who acts.
        actor: Actor,
        /// The dice needed.
        pattern: Pattern,
        /// Cache dice required among them.
        cache_cost: CacheCost,
        /// What the action is.
        label: Option<String>,
        /// The named ability used (the sheet's Special action id), if any:
        /// counted against the COMP's Thread Count (VV-17).
        #[serde(default)]
        skill: Option<u32>,
    },
    /// A Minor action spending one unused die (A-O8); `None` = a sensible
    /// default (the lowest loose die, else the lowest die of the narrowest set).
    Minor {
        /// Who acts.
        actor: Actor,
        /// Register position, or the default.
        die: Option<usize>,
        /// What the action is.
        label: Option<String>,
    },
    /// A Free action (no dice), logged.
    Free {
        /// Who acts.
        actor: Actor,
        /// What the action is.
        label: String,
    },
    /// End the turn and clear the register: unused cache dice (and, when
    /// cache dice are not consumed, used ones) go back to the cache.
    Close {
        /// Who acts.
        actor: Actor,
    },
}

impl RollAction {
    /// The actor of any action.
    pub fn actor(&self) -> Actor {
        match self {
            RollAction::AddCache { actor, .. }
            | RollAction::Load { actor, .. }
            | RollAction::Discard { actor, .. }
            | RollAction::ModifyFace { actor, .. }
            | RollAction::Basic { actor, .. }
            | RollAction::Special { actor, .. }
            | RollAction::Minor { actor, .. }
            | RollAction::Free { actor, .. }
            | RollAction::Close { actor } => *actor,
        }
    }
}

/// What the given actor can do now, so buttons can be shown or hidden.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, Default)]
pub struct AvailableActions {
    /// Cache dice can be added (COMP running, cache not empty).
    pub add_cache: bool,
    /// Register dice can be loaded (COMP running, unused dice).
    pub load: bool,
    /// Unused sets a Basic action can use whole (widest first).
    pub basic: Vec<Set>,
    /// A Special action can be tried (unused dice exist).
    pub special: bool,
    /// A Minor action can spend a die.
    pub minor: bool,
    /// A face can be modified.
    pub modify_face: bool,
    /// A Free action can be logged.
    pub free: bool,
    /// Dice that may be discarded (non-empty only during overflow).
    pub discard: Vec<CacheRef>,
    /// The register can be closed.
    pub close: bool,
}

/// A stat roll with its register (the state stored between button clicks).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct OreRoll {
    /// The roller's participant id (the sheet owner).
    pub owner: i64,
    /// The settings in force when the roll started.
    pub settings: OreSettings,
    /// The Called Stat, if any.
    pub stat: Option<Stat>,
    /// What the roll is for.
    pub label: Option<String>,
    /// The dice asked for (stat value or ad-hoc).
    pub requested: u32,
    /// The dice rolled.
    pub pool: u32,
    /// True if a number of dice replaced the stat's value (an override, the
    /// Compiler's: the roll says so).
    #[serde(default)]
    pub overridden: bool,
    /// True if `vv_max_pool` cut the pool (A-O2).
    pub capped: bool,
    /// The Power penalty mode that applied, if the entity had the penalty (A-O19).
    pub power_penalty: Option<PowerPenalty>,
    /// Warnings shown with the roll.
    pub warnings: Vec<String>,
    /// The faces as first rolled, in order.
    pub natural: Vec<u32>,
    /// The register: rolled dice first, then dice added from the cache.
    pub register: Vec<RegisterDie>,
    /// Error Dice per action for this entity (A-O13).
    pub error_dice_per_action: u32,
    /// Error Dice rolled with the stat roll (they go with the first action).
    pub error_dice: Vec<u32>,
    /// Actions taken, in order.
    pub actions: Vec<ActionRecord>,
    /// Where the roll is.
    pub phase: RollPhase,
    /// True once Close was asked for (an overflow may still need discards).
    pub closing: bool,
    /// The sheet's [`OreSheet::rounds_ended`] when the roll was made: the
    /// register lasts until the next End phase (VV-11).
    #[serde(default)]
    pub round: u32,
    /// The sheet's COMP [`shutdowns`](super::sheet::Comp::shutdowns) when
    /// cache dice were last taken: a shutdown since takes them away (VV-8).
    #[serde(default)]
    pub comp_shutdowns: u32,
    /// The face modifiers applied, in order (VV-5).
    #[serde(default)]
    pub modified: Vec<FaceChange>,
}

fn check_label(label: &Option<String>) -> Result<Option<String>, RuleError> {
    match label {
        None => Ok(None),
        Some(l) => {
            let t = l.trim();
            if t.chars().count() > MAX_LABEL {
                Err(RuleError::new(format!(
                    "An action's description can be at most {MAX_LABEL} characters."
                )))
            } else if t.is_empty() {
                Ok(None)
            } else {
                Ok(Some(t.to_string()))
            }
        }
    }
}

/// Refuses a roll by an entity that cannot act: dead or deleted, or
/// incapacitated (VV-13; a living entity at 0 Vitality still acts, at −1
/// Power, until the end of that round).
fn ensure_can_roll(sheet: &OreSheet) -> Result<(), RuleError> {
    if sheet.conditions.dead || sheet.conditions.deleted {
        return Err(RuleError::new("A dead or deleted entity cannot roll."));
    }
    if sheet.conditions.incapacitated() {
        return Err(RuleError::new(
            "This entity is incapacitated and cannot act until healed.",
        ));
    }
    Ok(())
}

/// A roll's pool before it is thrown: the dice asked for, capped (A-O2)
/// and less the −1 Power penalty's die (A-O19), with the warnings and
/// events that say so.
struct Pool {
    requested: u32,
    dice: u32,
    capped: bool,
    power_penalty: Option<PowerPenalty>,
    warnings: Vec<String>,
    events: Vec<OreEvent>,
}

impl Pool {
    /// The pool `request` asks of `sheet` under `settings`.
    fn of(
        sheet: &OreSheet,
        settings: &OreSettings,
        request: &RollRequest,
    ) -> Result<Self, RuleError> {
        let requested = match (request.dice, request.stat) {
            (Some(n), _) => n,
            (None, Some(stat)) => sheet.stats.get(stat),
            (None, None) => {
                return Err(RuleError::new("Choose a stat or a number of dice to roll."))
            }
        };
        let cap = settings
            .max_pool
            .clamp(1, super::settings::MAX_SUPPORTED_POOL);
        let mut events = Vec::new();
        let mut warnings = Vec::new();
        let capped = requested > cap;
        let mut dice = requested.min(cap);
        if capped {
            warnings.push(format!(
                "{requested} dice asked for, but a roll uses at most {cap} (vv_max_pool); rolling {cap}."
            ));
            events.push(OreEvent::PoolCapped { requested, cap });
        }
        let power_penalty = sheet.combat.power_penalty.then_some(settings.power_penalty);
        match power_penalty {
            Some(PowerPenalty::MinusOneDie) => {
                dice = dice.saturating_sub(1);
                warnings.push("-1 Power: one die fewer until the end of the round.".into());
                events.push(OreEvent::PowerPenalty { removed_die: true });
            }
            Some(PowerPenalty::Display) => {
                warnings.push("-1 Power penalty in effect (the Compiler applies it).".into());
                events.push(OreEvent::PowerPenalty { removed_die: false });
            }
            None => {}
        }
        Ok(Pool {
            requested,
            dice,
            capped,
            power_penalty,
            warnings,
            events,
        })
    }
}

impl OreRoll {
    /// Rolls the dice for `request` into a new register (VV-1).
    ///
    /// The pool is the stat's value (or `request.dice`), capped at
    /// `vv_max_pool` with a warning (A-O2), then one die fewer while the
    /// entity has the −1 Power penalty and `vv_power_penalty` = minus_one_die
    /// (A-O19). An injured entity's Error Dice are rolled beside the pool and
    /// labelled (A-O13).
    pub fn start<R: Rng + ?Sized>(
        sheet: &OreSheet,
        settings: &OreSettings,
        owner: Actor,
        request: RollRequest,
        rng: &mut R,
    ) -> Result<(Self, Vec<OreEvent>), RuleError> {
        ensure_can_roll(sheet)?;
        let label = check_label(&request.label)?;
        let Pool {
            requested,
            dice,
            capped,
            power_penalty,
            warnings,
            mut events,
        } = Pool::of(sheet, settings, &request)?;
        let faces = pool(rng, dice as usize, 10);
        events.push(OreEvent::Rolled {
            stat: request.stat,
            requested,
            pool: dice,
            faces: faces.clone(),
        });
        let error_dice_per_action = sheet.error_dice_per_action(settings);
        let error_dice = pool(rng, error_dice_per_action as usize, 10);
        if !error_dice.is_empty() {
            events.push(OreEvent::ErrorDice {
                action: None,
                faces: error_dice.clone(),
            });
        }
        for w in &warnings {
            events.push(OreEvent::Warning { message: w.clone() });
        }
        let register = faces
            .iter()
            .map(|&face| RegisterDie {
                face,
                natural: face,
                from_cache: None,
                status: DieStatus::Unused,
            })
            .collect();
        let roll = OreRoll {
            owner: owner.id,
            settings: settings.clone(),
            stat: request.stat,
            label,
            requested,
            pool: dice,
            overridden: request.dice.is_some(),
            capped,
            power_penalty,
            warnings,
            natural: faces,
            register,
            error_dice_per_action,
            error_dice,
            actions: Vec::new(),
            phase: RollPhase::Open,
            closing: false,
            round: sheet.rounds_ended,
            comp_shutdowns: sheet.comp.shutdowns,
            modified: Vec::new(),
        };
        Ok((roll, events))
    }

    /// Where the roll is.
    pub fn phase(&self) -> RollPhase {
        self.phase
    }

    /// True if `actor` may act on this roll (the owner or the GM role).
    pub fn may_act(&self, actor: Actor) -> bool {
        actor.id == self.owner || actor.gm
    }

    /// The faces of the unused register dice, in register order.
    pub fn unused_faces(&self) -> Vec<u32> {
        self.register
            .iter()
            .filter(|d| d.is_unused())
            .map(|d| d.face)
            .collect()
    }

    /// The sets and loose dice among the unused register dice.
    pub fn reading(&self) -> Reading {
        read(&self.unused_faces())
    }

    /// The reading of the roll as first rolled (for Outthink, Initiative and
    /// display): sets and loose dice of [`OreRoll::natural`].
    pub fn natural_reading(&self) -> Reading {
        read(&self.natural)
    }

    /// The value of the roll as first rolled (VV-4, A-O5).
    pub fn value(&self) -> u32 {
        self.natural_reading().value()
    }

    fn candidates(&self) -> Vec<Candidate> {
        self.register
            .iter()
            .enumerate()
            .filter(|(_, d)| d.is_unused())
            .map(|(index, d)| Candidate {
                index,
                face: d.face,
                from_cache: d.from_cache.is_some(),
            })
            .collect()
    }

    /// The unused register dice a Special action with `pattern` and `cost`
    /// would spend now (VV-6), by register position; `None` if they are not
    /// there. Cache costs count the register dice added from the cache.
    /// [`RollAction::Special`] spends exactly these dice.
    pub fn special_dice(&self, pattern: &Pattern, cost: CacheCost) -> Option<Vec<usize>> {
        match_pattern(&self.candidates(), pattern, cost)
    }

    /// The sheet's named Special actions `actor` can use now, each with the
    /// dice it would spend, in the sheet's order: the register is open and
    /// holds the pattern with its cache cost met.
    pub fn offered_specials<'s>(
        &self,
        actor: Actor,
        sheet: &'s OreSheet,
    ) -> Vec<(&'s SpecialAction, Vec<usize>)> {
        if !self.available_actions(actor, sheet).special {
            return Vec::new();
        }
        sheet
            .specials
            .iter()
            .filter_map(|sp| {
                self.special_dice(&sp.pattern, sp.cache_cost)
                    .map(|dice| (sp, dice))
            })
            .collect()
    }

    /// What `actor` can do now, given the roller's sheet.
    pub fn available_actions(&self, actor: Actor, sheet: &OreSheet) -> AvailableActions {
        let mut a = AvailableActions::default();
        if !self.may_act(actor) {
            return a;
        }
        match self.phase {
            RollPhase::Closed => a,
            RollPhase::Overflow => {
                a.discard = sheet.discard_options(&self.settings);
                a
            }
            RollPhase::Open => {
                let any_unused = self.register.iter().any(|d| d.is_unused());
                let room = self.actions.len() < MAX_ACTIONS;
                let running = sheet.comp.session_active;
                a.add_cache = running && !sheet.cache.is_empty();
                a.load = running && any_unused;
                a.basic = if room {
                    self.reading().sets
                } else {
                    Vec::new()
                };
                a.special = room && any_unused;
                a.minor = room && any_unused;
                a.modify_face = any_unused;
                a.free = room;
                a.discard = sheet.discard_options(&self.settings);
                a.close = true;
                a
            }
        }
    }

    /// Takes one action; on error nothing changes (neither the roll nor the sheet).
    ///
    /// `sheet` is the roller's sheet (its cache is spent and filled).
    pub fn apply<R: Rng + ?Sized>(
        mut self,
        sheet: &mut OreSheet,
        action: RollAction,
        rng: &mut R,
    ) -> Result<(Self, Vec<OreEvent>), RuleError> {
        if self.phase == RollPhase::Closed {
            return Err(RuleError::new("This roll is already closed."));
        }
        if !self.may_act(action.actor()) {
            return Err(RuleError::new(
                "Only the roller or the Compiler can act on this roll.",
            ));
        }
        let mut before = self.drop_lost_cache(sheet);
        if self.round_over(sheet) && !self.closing {
            // The End phase cleared this register (VV-11): whatever was
            // asked, it only closes now.
            before.push(OreEvent::RegisterEnded);
            before.extend(self.close(sheet));
            return Ok((self, before));
        }
        if self.phase == RollPhase::Overflow && !matches!(action, RollAction::Discard { .. }) {
            return Err(RuleError::new(
                "Your cache is over its maximum: discard a die first.",
            ));
        }
        let is_set_action = matches!(
            action,
            RollAction::Basic { .. }
                | RollAction::Special { .. }
                | RollAction::Minor { .. }
                | RollAction::Free { .. }
        );
        if is_set_action && self.actions.len() >= MAX_ACTIONS {
            return Err(RuleError::new(format!(
                "A register can take at most {MAX_ACTIONS} actions."
            )));
        }
        let events = match action {
            RollAction::AddCache { cache, .. } => self.add_cache(sheet, &cache)?,
            RollAction::Load { dice, .. } => self.load(sheet, &dice)?,
            RollAction::Discard { die, .. } => self.discard(sheet, die)?,
            RollAction::ModifyFace { die, delta, .. } => self.modify(die, delta)?,
            RollAction::Basic {
                height,
                width,
                requirement,
                cache_cost,
                label,
                ..
            } => self.basic(height, width, requirement, cache_cost, label, rng)?,
            RollAction::Special {
                pattern,
                cache_cost,
                label,
                skill,
                ..
            } => {
                self.check_threads(sheet, skill)?;
                self.special(pattern, cache_cost, label, skill, rng)?
            }
            RollAction::Minor { die, label, .. } => self.minor(die, label, rng)?,
            RollAction::Free { label, .. } => self.free(label)?,
            RollAction::Close { .. } => self.close(sheet),
        };
        before.extend(events);
        Ok((self, before))
    }

    /// The named abilities (skills) this register has used, in first-use
    /// order, without repeats (VV-17).
    pub fn skills_used(&self) -> Vec<u32> {
        let mut out = Vec::new();
        for id in self.actions.iter().filter_map(|a| a.skill) {
            if !out.contains(&id) {
                out.push(id);
            }
        }
        out
    }

    /// Refuses a named ability that would run more different skills on
    /// this register than the COMP's Thread Count (VV-17; see the module
    /// comment for the reading of the seed).
    fn check_threads(&self, sheet: &OreSheet, skill: Option<u32>) -> Result<(), RuleError> {
        let Some(id) = skill else { return Ok(()) };
        let used = self.skills_used();
        let threads = sheet.comp.thread_count.max(1);
        if used.contains(&id) || (used.len() as u64) < u64::from(threads) {
            return Ok(());
        }
        let names: Vec<String> = used
            .iter()
            .map(|u| {
                sheet
                    .special(*u)
                    .map_or_else(|| "another ability".to_string(), |sp| sp.name.clone())
            })
            .collect();
        let this = sheet
            .special(id)
            .map_or_else(|| "this ability".to_string(), |sp| sp.name.clone());
        Err(RuleError::new(format!(
            "Thread Count {threads}: this register already runs {} of {threads} skill{} ({}), so {this} cannot run at once; nothing was spent.",
            used.len(),
            if threads == 1 { "" } else { "s" },
            names.join(", ")
        )))
    }

    /// The dice this roll has generated so far: its pool, its Error Dice
    /// and those every set-using or Minor action after the first rolled
    /// beside it (A-O13); the table bounds it.
    pub fn dice_generated(&self) -> usize {
        let set_actions = self.actions.iter().filter(|a| {
            matches!(
                a.kind,
                ActionKind::Basic | ActionKind::Special | ActionKind::Minor
            )
        });
        let later: usize = set_actions.skip(1).map(|a| a.error_dice.len()).sum();
        self.natural.len() + self.error_dice.len() + later
    }

    /// True if the action numbered `n` is a Combo or a String: a
    /// set-using action (Basic or Special) after an earlier one on the same
    /// register (VV-7).
    pub fn is_follow_up(&self, n: usize) -> bool {
        let uses_set = |a: &ActionRecord| matches!(a.kind, ActionKind::Basic | ActionKind::Special);
        self.actions.get(n).is_some_and(uses_set) && self.actions[..n].iter().any(uses_set)
    }

    /// The split a "Split" button offers for each unused set (VV-7, A-O7):
    /// with `vv_allow_split_sets` on, a set wide enough to give a set of
    /// `width` (at least a dub, and the action's min width) and leave
    /// another set; each as (the set, the width used first).
    pub fn splits(&self, requirement: &SetRequirement) -> Vec<(Set, u32)> {
        if !self.settings.allow_split_sets || self.phase != RollPhase::Open {
            return Vec::new();
        }
        let w = requirement.min_width.max(2);
        self.reading()
            .sets
            .into_iter()
            .filter(|s| s.width >= w.saturating_add(2))
            .filter(|s| {
                requirement.meets(&Set {
                    width: w,
                    height: s.height,
                })
            })
            .map(|s| (s, w))
            .collect()
    }

    /// The sets `actor` can use now for an action that needs `need`: the
    /// whole sets a Basic action takes (VV-3, A-O3: those meeting the
    /// need, widest first), and the wide sets that may be split for it
    /// ([`OreRoll::splits`]); none while no Basic action can be taken.
    pub fn usable_sets(
        &self,
        actor: Actor,
        sheet: &OreSheet,
        need: &SetRequirement,
    ) -> (Vec<Set>, Vec<(Set, u32)>) {
        let basic = self.available_actions(actor, sheet).basic;
        if basic.is_empty() {
            return (Vec::new(), Vec::new());
        }
        let whole = basic.into_iter().filter(|s| need.meets(s)).collect();
        (whole, self.splits(need))
    }

    /// The register's unused dice, in register order, each as (its
    /// position, its face, from the cache): what a Minor action may spend
    /// and loading may move into the cache (VV-8).
    pub fn unused_dice(&self) -> Vec<(usize, u32, bool)> {
        self.register
            .iter()
            .enumerate()
            .filter(|(_, d)| d.is_unused())
            .map(|(i, d)| (i, d.face, d.from_cache.is_some()))
            .collect()
    }

    /// The unused dice worth telling apart: one per face, rolled and
    /// cache dice apart (dice of one face and origin are alike), lowest
    /// face first and a rolled die before a cache die of its face; each as
    /// (its first register position, its face, from the cache).
    pub fn distinct_unused(&self) -> Vec<(usize, u32, bool)> {
        let mut dice: Vec<(usize, u32, bool)> = Vec::new();
        for (i, face, cache) in self.unused_dice() {
            if !dice.iter().any(|&(_, f, c)| f == face && c == cache) {
                dice.push((i, face, cache));
            }
        }
        dice.sort_by_key(|&(i, face, cache)| (face, cache, i));
        dice
    }

    /// The face modifiers worth offering (VV-5): for each unused die (one
    /// per face, rolled and cache dice apart, lowest face first), each
    /// modifier from ±1 to ±`max_delta` that changes its face under
    /// `vv_face_modifier_bounds`, the ±1 ones first, with what it does to
    /// the sets.
    pub fn modifier_choices(&self, max_delta: i32) -> Vec<ModifierChoice> {
        let unused = self.unused_faces();
        let count = |face: u32| unused.iter().filter(|&&f| f == face).count() as u32;
        let dice = self.distinct_unused();
        let mut out = Vec::new();
        for size in 1..=max_delta {
            for &(die, from, from_cache) in &dice {
                for delta in [size, -size] {
                    let to = modify_face(from, delta, self.settings.face_modifier_bounds);
                    if to == from {
                        continue;
                    }
                    let (before, after) = (count(from), count(to).saturating_add(1));
                    let set = |width, height| Set { width, height };
                    out.push(ModifierChoice {
                        die,
                        from,
                        to,
                        delta,
                        from_cache,
                        breaks: (before == 2).then(|| set(2, from)),
                        leaves: (before > 2).then(|| set(before - 1, from)),
                        makes: (after >= 2).then(|| set(after, to)),
                    });
                }
            }
        }
        out
    }

    /// What the register came to against the action's need (VV-3, VV-6):
    /// the widest (then highest) set, used or still unused, that meets it;
    /// else the first named Special action used; else the best set below
    /// the need; else no set at all.
    pub fn standing(&self, need: &SetRequirement) -> Standing {
        let mut sets: Vec<Set> = self.actions.iter().filter_map(|a| a.set).collect();
        sets.extend(self.reading().sets);
        let best = |v: &mut dyn Iterator<Item = Set>| v.max_by_key(|set| (set.width, set.height));
        if let Some(b) = best(&mut sets.iter().copied().filter(|set| need.meets(set))) {
            return Standing::Met(b);
        }
        if let Some(a) = self.actions.iter().find(|a| a.kind == ActionKind::Special) {
            let name = a
                .label
                .clone()
                .or_else(|| a.pattern.as_ref().map(|p| p.to_string()))
                .unwrap_or_default();
            return Standing::Special(name);
        }
        best(&mut sets.into_iter()).map_or(Standing::NoSet, Standing::Short)
    }

    /// True once the roller has been through an End phase (or the end of
    /// combat) since this roll: its register is cleared (VV-11).
    pub fn round_over(&self, sheet: &OreSheet) -> bool {
        self.round != sheet.rounds_ended
    }

    /// Cache dice still unused in the register whose COMP has shut down
    /// since they were taken go with the cache (VV-8): they are marked
    /// [`DieStatus::Lost`] and no longer form sets. Every action does this
    /// first; a logout does it at once to the roller's open registers, and
    /// a register is shown as it stands after it.
    pub fn drop_lost_cache(&mut self, sheet: &OreSheet) -> Vec<OreEvent> {
        let shut = !sheet.comp.session_active || sheet.comp.shutdowns != self.comp_shutdowns;
        let mut faces = Vec::new();
        if shut {
            for d in self.register.iter_mut() {
                if d.from_cache.is_some() && d.is_unused() {
                    d.status = DieStatus::Lost;
                    faces.push(d.natural);
                }
            }
        }
        if sheet.comp.session_active {
            self.comp_shutdowns = sheet.comp.shutdowns;
        }
        if faces.is_empty() {
            Vec::new()
        } else {
            vec![OreEvent::CacheDiceLost { faces }]
        }
    }

    fn distinct_positions(list: &[usize], len: usize, what: &str) -> Result<(), RuleError> {
        if list.is_empty() {
            return Err(RuleError::new(format!("Choose at least one {what}.")));
        }
        for (k, &i) in list.iter().enumerate() {
            if i >= len {
                return Err(RuleError::new(format!(
                    "There is no {what} number {}.",
                    i.saturating_add(1)
                )));
            }
            if list[..k].contains(&i) {
                return Err(RuleError::new(format!("The same {what} was chosen twice.")));
            }
        }
        Ok(())
    }

    fn add_cache(
        &mut self,
        sheet: &mut OreSheet,
        cache: &[usize],
    ) -> Result<Vec<OreEvent>, RuleError> {
        if !sheet.comp.session_active {
            return Err(RuleError::new(
                "Your COMP is not running, so you have no cache dice.",
            ));
        }
        Self::distinct_positions(cache, sheet.cache.len(), "cache die")?;
        let dice: Vec<CacheDie> = cache.iter().map(|&i| sheet.cache[i]).collect();
        let mut sorted = cache.to_vec();
        sorted.sort_unstable_by(|a, b| b.cmp(a));
        for i in sorted {
            sheet.cache.remove(i);
        }
        let start = self.register.len();
        self.register.extend(dice.iter().map(|c| RegisterDie {
            face: c.face,
            natural: c.face,
            from_cache: Some(c.source),
            status: DieStatus::Unused,
        }));
        Ok(vec![OreEvent::CacheAdded {
            faces: dice.iter().map(|c| c.face).collect(),
            positions: (start..self.register.len()).collect(),
        }])
    }

    fn load(&mut self, sheet: &mut OreSheet, dice: &[usize]) -> Result<Vec<OreEvent>, RuleError> {
        if !sheet.comp.session_active {
            return Err(RuleError::new(
                "Loading needs a running COMP to hold the cache.",
            ));
        }
        Self::distinct_positions(dice, self.register.len(), "register die")?;
        if let Some(&i) = dice.iter().find(|&&i| !self.register[i].is_unused()) {
            return Err(RuleError::new(format!(
                "Register die {} has already been used or loaded.",
                i + 1
            )));
        }
        let mut faces = Vec::new();
        for &i in dice {
            let die = &mut self.register[i];
            die.status = DieStatus::Loaded;
            faces.push(die.face);
            sheet.cache.push(CacheDie {
                face: die.face,
                source: die.from_cache.unwrap_or(CacheSource::Loaded),
            });
        }
        let mut events = vec![OreEvent::Loaded {
            faces,
            positions: dice.to_vec(),
        }];
        let excess = sheet.cache_excess(&self.settings);
        if excess > 0 {
            self.phase = RollPhase::Overflow;
            events.push(OreEvent::CacheOverflow { excess });
        }
        Ok(events)
    }

    fn discard(
        &mut self,
        sheet: &mut OreSheet,
        die: Option<CacheRef>,
    ) -> Result<Vec<OreEvent>, RuleError> {
        let mut events = sheet.discard_cache_die(&self.settings, die)?;
        self.phase = RollPhase::Overflow;
        if self.settle_overflow(sheet) {
            events.push(OreEvent::RollClosed);
        }
        Ok(events)
    }

    /// Leaves an overflow once the roller's cache fits again (a discard
    /// here, or one made elsewhere, VV-8): the roll goes back to where it
    /// was, open, or closed when it was closing. True if it closed now.
    pub fn settle_overflow(&mut self, sheet: &OreSheet) -> bool {
        if self.phase != RollPhase::Overflow || sheet.cache_excess(&self.settings) > 0 {
            return false;
        }
        self.phase = if self.closing {
            RollPhase::Closed
        } else {
            RollPhase::Open
        };
        self.closing
    }

    fn modify(&mut self, die: usize, delta: i32) -> Result<Vec<OreEvent>, RuleError> {
        let d = self.register.get_mut(die).ok_or_else(|| {
            RuleError::new(format!(
                "There is no register die number {}.",
                die.saturating_add(1)
            ))
        })?;
        if !d.is_unused() {
            return Err(RuleError::new("Only an unused die's face can be changed."));
        }
        if delta == 0 || !(-MAX_FACE_DELTA..=MAX_FACE_DELTA).contains(&delta) {
            return Err(RuleError::new(format!(
                "A face modifier is from -{MAX_FACE_DELTA} to +{MAX_FACE_DELTA}, and not 0."
            )));
        }
        if self.modified.len() >= MAX_ACTIONS {
            return Err(RuleError::new(format!(
                "A register can take at most {MAX_ACTIONS} face modifiers."
            )));
        }
        let from = d.face;
        // Clamped or wrapped past 1 and 10 (A-O6).
        d.face = modify_face(from, delta, self.settings.face_modifier_bounds);
        self.modified.push(FaceChange {
            die,
            from,
            to: d.face,
            delta,
        });
        Ok(vec![OreEvent::FaceModified {
            position: die,
            from,
            to: d.face,
            delta,
        }])
    }

    /// Error Dice for the next dice-using action (Basic, Special or Minor:
    /// every action, A-O13): the stat roll's own for the first, freshly
    /// rolled ones for each action after it.
    fn error_dice_for_action<R: Rng + ?Sized>(&self, rng: &mut R) -> (Vec<u32>, bool) {
        match self.first_error_dice() {
            Some(first) => (first.to_vec(), false),
            None => (pool(rng, self.error_dice_per_action as usize, 10), true),
        }
    }

    /// The stat roll's own Error Dice while no dice-using action (Basic,
    /// Special or Minor) has taken them yet: the next one does (A-O13).
    /// `None` once one has, or when the roll has none.
    pub fn first_error_dice(&self) -> Option<&[u32]> {
        let taken = self.actions.iter().any(|a| {
            matches!(
                a.kind,
                ActionKind::Basic | ActionKind::Special | ActionKind::Minor
            )
        });
        (!taken && !self.error_dice.is_empty()).then_some(self.error_dice.as_slice())
    }

    fn mark_used(&mut self, dice: &[usize]) -> (Vec<u32>, u32) {
        let n = self.actions.len();
        let mut faces = Vec::with_capacity(dice.len());
        let mut from_cache = 0u32;
        for &i in dice {
            if let Some(d) = self.register.get_mut(i) {
                d.status = DieStatus::Used(n);
                faces.push(d.face);
                if d.from_cache.is_some() {
                    from_cache += 1;
                }
            }
        }
        (faces, from_cache)
    }

    fn consumed_event(&self, dice: &[usize]) -> Option<OreEvent> {
        if !self.settings.cache_consumed_on_use {
            return None;
        }
        let faces: Vec<u32> = dice
            .iter()
            .filter_map(|&i| self.register.get(i))
            .filter(|d| d.from_cache.is_some())
            .map(|d| d.face)
            .collect();
        (!faces.is_empty()).then_some(OreEvent::CacheConsumed { faces })
    }

    fn cost_error(cost: CacheCost) -> &'static str {
        match cost {
            CacheCost::None => "",
            CacheCost::One => " with at least one of them from the cache",
            CacheCost::All => " with all of them from the cache",
        }
    }

    /// The set a Basic action takes: `width` (all of them when left out)
    /// of the register's unused dice showing `height`, at least two, whole
    /// unless the house rule lets a wide set be split (A-O7), meeting the
    /// action's requirement; with the candidates it is picked from.
    fn basic_set(
        &self,
        height: u32,
        width: Option<u32>,
        requirement: &SetRequirement,
    ) -> Result<(Vec<Candidate>, Set), RuleError> {
        if !(1..=10).contains(&height) {
            return Err(RuleError::new("A set's face must be from 1 to 10."));
        }
        let candidates: Vec<Candidate> = self
            .candidates()
            .into_iter()
            .filter(|c| c.face == height)
            .collect();
        let n = candidates.len() as u32;
        if n == 0 {
            return Err(RuleError::new(format!(
                "There are no unused {height}s in the register."
            )));
        }
        let w = width.unwrap_or(n);
        if w > n {
            return Err(RuleError::new(format!(
                "There are only {n} unused {height}s in the register."
            )));
        }
        if w < 2 {
            return Err(RuleError::new(
                "A Basic action needs a set of at least two matching dice.",
            ));
        }
        // A wide set is used whole (A-O7), unless the house rule lets it
        // be split into smaller sets: what is left must still be a set.
        if w < n && !self.settings.allow_split_sets {
            return Err(RuleError::new(format!(
                "Sets cannot be split here: the {n} unused {height}s must be used together."
            )));
        }
        if w < n && n - w < 2 {
            return Err(RuleError::new(format!(
                "A split must leave a set: using {w} of the {n} unused {height}s would leave a single die."
            )));
        }
        let set = Set { width: w, height };
        if !requirement.meets(&set) {
            return Err(RuleError::new(format!(
                "This action needs {}; {set} is not enough.",
                requirement.describe()
            )));
        }
        Ok((candidates, set))
    }

    #[allow(clippy::too_many_arguments)]
    fn basic<R: Rng + ?Sized>(
        &mut self,
        height: u32,
        width: Option<u32>,
        requirement: SetRequirement,
        cost: CacheCost,
        label: Option<String>,
        rng: &mut R,
    ) -> Result<Vec<OreEvent>, RuleError> {
        requirement.validate()?;
        let label = check_label(&label)?;
        let (candidates, set) = self.basic_set(height, width, &requirement)?;
        let faces = vec![height; set.width as usize];
        let dice = pick(&candidates, &faces, cost).ok_or_else(|| {
            RuleError::new(format!(
                "This action needs a set of {height}s{}.",
                Self::cost_error(cost)
            ))
        })?;
        let (error_dice, fresh) = self.error_dice_for_action(rng);
        let consumed = self.consumed_event(&dice);
        let (faces, cache_dice) = self.mark_used(&dice);
        let n_action = self.actions.len();
        let suggested = suggested_damage(&self.settings, &set);
        let mut events = vec![OreEvent::BasicAction {
            action: n_action,
            set,
            positions: dice.clone(),
            cache_dice,
            suggested_damage: suggested,
            label: label.clone(),
        }];
        if fresh && !error_dice.is_empty() {
            events.push(OreEvent::ErrorDice {
                action: Some(n_action),
                faces: error_dice.clone(),
            });
        }
        events.extend(consumed);
        self.actions.push(ActionRecord {
            kind: ActionKind::Basic,
            label,
            dice,
            faces,
            set: Some(set),
            pattern: None,
            requirement: Some(requirement),
            cache_cost: cost,
            cache_dice,
            error_dice,
            suggested_damage: suggested,
            skill: None,
        });
        Ok(events)
    }

    fn special<R: Rng + ?Sized>(
        &mut self,
        pattern: Pattern,
        cost: CacheCost,
        label: Option<String>,
        skill: Option<u32>,
        rng: &mut R,
    ) -> Result<Vec<OreEvent>, RuleError> {
        pattern.validate()?;
        let label = check_label(&label)?;
        let dice = match_pattern(&self.candidates(), &pattern, cost).ok_or_else(|| {
            RuleError::new(format!(
                "The unused dice do not show {pattern}{}.",
                Self::cost_error(cost)
            ))
        })?;
        let (error_dice, fresh) = self.error_dice_for_action(rng);
        let consumed = self.consumed_event(&dice);
        let (faces, cache_dice) = self.mark_used(&dice);
        let n_action = self.actions.len();
        let mut events = vec![OreEvent::SpecialAction {
            action: n_action,
            pattern: pattern.clone(),
            positions: dice.clone(),
            faces: faces.clone(),
            cache_dice,
            label: label.clone(),
        }];
        if fresh && !error_dice.is_empty() {
            events.push(OreEvent::ErrorDice {
                action: Some(n_action),
                faces: error_dice.clone(),
            });
        }
        events.extend(consumed);
        self.actions.push(ActionRecord {
            kind: ActionKind::Special,
            label,
            dice,
            faces,
            set: None,
            pattern: Some(pattern),
            requirement: None,
            cache_cost: cost,
            cache_dice,
            error_dice,
            suggested_damage: None,
            skill,
        });
        Ok(events)
    }

    /// The default die for a Minor action: the lowest loose die, else the
    /// lowest die of the narrowest set (rolled dice before cache dice).
    pub fn default_minor_die(&self) -> Option<usize> {
        let reading = self.reading();
        let width_of = |face: u32| {
            reading
                .sets
                .iter()
                .find(|s| s.height == face)
                .map_or(1, |s| s.width)
        };
        self.candidates()
            .into_iter()
            .min_by_key(|c| (width_of(c.face), c.face, c.from_cache, c.index))
            .map(|c| c.index)
    }

    fn minor<R: Rng + ?Sized>(
        &mut self,
        die: Option<usize>,
        label: Option<String>,
        rng: &mut R,
    ) -> Result<Vec<OreEvent>, RuleError> {
        let label = check_label(&label)?;
        let i = match die {
            Some(i) => {
                let d = self.register.get(i).ok_or_else(|| {
                    RuleError::new(format!(
                        "There is no register die number {}.",
                        i.saturating_add(1)
                    ))
                })?;
                if !d.is_unused() {
                    return Err(RuleError::new(format!(
                        "Register die {} has already been used or loaded.",
                        i + 1
                    )));
                }
                i
            }
            None => self
                .default_minor_die()
                .ok_or_else(|| RuleError::new("There is no unused die left for a Minor action."))?,
        };
        let face = self.register[i].face;
        let broke = self.reading().sets.into_iter().find(|s| s.height == face);
        let consumed = self.consumed_event(&[i]);
        let (error_dice, fresh) = self.error_dice_for_action(rng);
        let (_, cache_dice) = self.mark_used(&[i]);
        let n_action = self.actions.len();
        let mut events = vec![OreEvent::MinorAction {
            action: n_action,
            position: i,
            face,
            broke,
            label: label.clone(),
        }];
        events.extend(consumed);
        if fresh && !error_dice.is_empty() {
            events.push(OreEvent::ErrorDice {
                action: Some(n_action),
                faces: error_dice.clone(),
            });
        }
        self.actions.push(ActionRecord {
            kind: ActionKind::Minor,
            label,
            dice: vec![i],
            faces: vec![face],
            set: None,
            pattern: None,
            requirement: None,
            cache_cost: CacheCost::None,
            cache_dice,
            error_dice,
            suggested_damage: None,
            skill: None,
        });
        Ok(events)
    }

    fn free(&mut self, label: String) -> Result<Vec<OreEvent>, RuleError> {
        let label = check_label(&Some(label))?
            .ok_or_else(|| RuleError::new("Say what the Free action is."))?;
        let n_action = self.actions.len();
        self.actions.push(ActionRecord {
            kind: ActionKind::Free,
            label: Some(label.clone()),
            dice: Vec::new(),
            faces: Vec::new(),
            set: None,
            pattern: None,
            requirement: None,
            cache_cost: CacheCost::None,
            cache_dice: 0,
            error_dice: Vec::new(),
            suggested_damage: None,
            skill: None,
        });
        Ok(vec![OreEvent::FreeAction {
            action: n_action,
            label,
        }])
    }

    /// The cache dice Close puts back (A-O9): those taken from the cache
    /// and still unused, and the used ones too with
    /// `vv_cache_consumed_on_use` off; each with the face it came with
    /// (modifiers last one roll). An expiry would lose them.
    pub fn back_to_cache(&self) -> Vec<CacheDie> {
        let keep_used = !self.settings.cache_consumed_on_use;
        self.register
            .iter()
            .filter_map(|d| {
                let source = d.from_cache?;
                let returns = match d.status {
                    DieStatus::Unused => true,
                    DieStatus::Used(_) => keep_used,
                    DieStatus::Loaded | DieStatus::Lost => false,
                };
                returns.then_some(CacheDie {
                    face: d.natural,
                    source,
                })
            })
            .collect()
    }

    fn close(&mut self, sheet: &mut OreSheet) -> Vec<OreEvent> {
        self.closing = true;
        let back = self.back_to_cache();
        let mut events = Vec::new();
        if !back.is_empty() {
            let faces: Vec<u32> = back.iter().map(|c| c.face).collect();
            if sheet.comp.session_active {
                sheet.cache.extend(back);
                events.push(OreEvent::CacheReturned { faces });
            } else {
                events.push(OreEvent::CacheDiceLost { faces });
            }
        }
        let excess = sheet.cache_excess(&self.settings);
        if excess > 0 {
            self.phase = RollPhase::Overflow;
            events.push(OreEvent::CacheOverflow { excess });
        } else {
            self.phase = RollPhase::Closed;
            events.push(OreEvent::RollClosed);
        }
        events
    }
}
