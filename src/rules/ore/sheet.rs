//! The Virtual Veil character sheet (spec §5.6): stats, the three damageable
//! tracks, defenses, the COMP, the cache and Fault dice, Injuries, combat
//! values, conditions, the world the entity is in and mob mode.
//!
//! Fields are public so renderers can show them; the setters and the
//! procedures in [`super::comp`], [`super::damage`] and [`super::roll`]
//! keep the invariants (current ≤ max, battery ≤ max, stats ≥ 0).

use crate::rules::RuleError;
use serde::{Deserialize, Serialize};
use std::fmt;

use super::sets::{CacheCost, Pattern};
use super::settings::{ErrorDiceStacking, OreSettings};

/// The largest cache a COMP may have (dice rolled at boot).
pub const MAX_CACHE: u32 = 50;
/// The most a stat may be set to (pools are capped anyway).
pub const MAX_STAT: u32 = 99;
/// The most a track, defense, Thread Count or battery value may be set to.
pub const MAX_VALUE: u32 = 999;
/// The most Error Dice rolled with one action.
pub const MAX_ERROR_DICE: u32 = 50;

/// The twelve stats (VV-1: the Called Stat decides the pool).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Stat {
    /// Body: speed, reaction; Initiative outside cosmOS.
    Agility,
    /// Body: strength and athletics.
    Physique,
    /// Body: coordination; Initiative inside cosmOS.
    Precision,
    /// Body: resilience (also a damage track).
    Vitality,
    /// Mind: computer literacy (also a damage track).
    Cyber,
    /// Mind: fixing and sabotaging technology; Cyber repairs.
    Engineering,
    /// Mind: creativity and improvisation.
    Ingenuity,
    /// Mind: knowledge; Outthink.
    Wit,
    /// Spirit: persuasion.
    Charisma,
    /// Spirit: self-belief (also a damage track).
    Confidence,
    /// Spirit: acting and deception.
    Performance,
    /// Spirit: going unnoticed.
    Stealth,
}

impl Stat {
    /// The track this stat also is (Vitality, Confidence and Cyber, whose
    /// value is the track's maximum, §5.6), if any.
    pub fn track(self) -> Option<Damageable> {
        match self {
            Stat::Vitality => Some(Damageable::Vitality),
            Stat::Confidence => Some(Damageable::Confidence),
            Stat::Cyber => Some(Damageable::Cyber),
            _ => None,
        }
    }

    /// All twelve stats in sheet order.
    pub const ALL: [Stat; 12] = [
        Stat::Agility,
        Stat::Physique,
        Stat::Precision,
        Stat::Vitality,
        Stat::Cyber,
        Stat::Engineering,
        Stat::Ingenuity,
        Stat::Wit,
        Stat::Charisma,
        Stat::Confidence,
        Stat::Performance,
        Stat::Stealth,
    ];

    /// The stat's display name, e.g. "Agility".
    pub fn name(self) -> &'static str {
        match self {
            Stat::Agility => "Agility",
            Stat::Physique => "Physique",
            Stat::Precision => "Precision",
            Stat::Vitality => "Vitality",
            Stat::Cyber => "Cyber",
            Stat::Engineering => "Engineering",
            Stat::Ingenuity => "Ingenuity",
            Stat::Wit => "Wit",
            Stat::Charisma => "Charisma",
            Stat::Confidence => "Confidence",
            Stat::Performance => "Performance",
            Stat::Stealth => "Stealth",
        }
    }

    /// Reads a stat name (case-insensitive).
    pub fn parse(name: &str) -> Result<Stat, RuleError> {
        let n = name.trim().to_ascii_lowercase();
        Stat::ALL
            .iter()
            .copied()
            .find(|s| s.name().to_ascii_lowercase() == n)
            .ok_or_else(|| {
                let names: Vec<&str> = Stat::ALL.iter().map(|s| s.name()).collect();
                RuleError::new(format!(
                    "\"{}\" is not a Virtual Veil stat; the stats are {}.",
                    name.trim(),
                    names.join(", ")
                ))
            })
    }
}

impl fmt::Display for Stat {
    /// The display name.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// The twelve stat values (A-O25: whole numbers ≥ 0, no other limit).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, Default)]
#[serde(default)]
pub struct Stats {
    /// Agility.
    pub agility: u32,
    /// Physique.
    pub physique: u32,
    /// Precision.
    pub precision: u32,
    /// Vitality.
    pub vitality: u32,
    /// Cyber.
    pub cyber: u32,
    /// Engineering.
    pub engineering: u32,
    /// Ingenuity.
    pub ingenuity: u32,
    /// Wit.
    pub wit: u32,
    /// Charisma.
    pub charisma: u32,
    /// Confidence.
    pub confidence: u32,
    /// Performance.
    pub performance: u32,
    /// Stealth.
    pub stealth: u32,
}

impl Stats {
    /// Every stat at `value`.
    pub fn all(value: u32) -> Self {
        let mut s = Stats::default();
        for stat in Stat::ALL {
            *s.slot(stat) = value;
        }
        s
    }

    fn slot(&mut self, stat: Stat) -> &mut u32 {
        match stat {
            Stat::Agility => &mut self.agility,
            Stat::Physique => &mut self.physique,
            Stat::Precision => &mut self.precision,
            Stat::Vitality => &mut self.vitality,
            Stat::Cyber => &mut self.cyber,
            Stat::Engineering => &mut self.engineering,
            Stat::Ingenuity => &mut self.ingenuity,
            Stat::Wit => &mut self.wit,
            Stat::Charisma => &mut self.charisma,
            Stat::Confidence => &mut self.confidence,
            Stat::Performance => &mut self.performance,
            Stat::Stealth => &mut self.stealth,
        }
    }

    /// One stat's value.
    pub fn get(&self, stat: Stat) -> u32 {
        let mut copy = *self;
        *copy.slot(stat)
    }

    /// Sets one stat; negative values are refused (A-O25), and so are
    /// values above [`MAX_STAT`].
    pub fn set(&mut self, stat: Stat, value: i64) -> Result<(), RuleError> {
        let v = u32::try_from(value).map_err(|_| {
            RuleError::new(format!(
                "{} must be a whole number of 0 or more.",
                stat.name()
            ))
        })?;
        if v > MAX_STAT {
            return Err(RuleError::new(format!(
                "{} can be at most {MAX_STAT} here.",
                stat.name()
            )));
        }
        *self.slot(stat) = v;
        Ok(())
    }
}

/// The three things damage can reduce (VV-12).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Damageable {
    /// Most physical attacks (in mob mode: the single Health track).
    Vitality,
    /// Spirit and mental attacks.
    Confidence,
    /// Digital attacks.
    Cyber,
}

impl Damageable {
    /// All three, in sheet order.
    pub const ALL: [Damageable; 3] = [
        Damageable::Vitality,
        Damageable::Confidence,
        Damageable::Cyber,
    ];

    /// The display name.
    pub fn name(self) -> &'static str {
        match self {
            Damageable::Vitality => "Vitality",
            Damageable::Confidence => "Confidence",
            Damageable::Cyber => "Cyber",
        }
    }

    /// Reads a track name (case-insensitive; "health" means Vitality).
    pub fn parse(name: &str) -> Result<Damageable, RuleError> {
        match name.trim().to_ascii_lowercase().as_str() {
            "vitality" | "health" => Ok(Damageable::Vitality),
            "confidence" => Ok(Damageable::Confidence),
            "cyber" => Ok(Damageable::Cyber),
            _ => Err(RuleError::new(format!(
                "\"{}\" cannot take damage; choose Vitality, Confidence or Cyber.",
                name.trim()
            ))),
        }
    }
}

/// A damageable track: its maximum, its current value, and the damage taken
/// since it reached 0 (VV-13).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, Default)]
pub struct Track {
    /// The maximum.
    pub max: u32,
    /// The current value, 0 to `max`.
    pub current: u32,
    /// Damage taken after the track reached 0 (Vitality: death at ≥ max, A-O20).
    pub overflow_after_zero: u32,
}

impl Track {
    /// A full track.
    pub fn full(max: u32) -> Self {
        Self {
            max,
            current: max,
            overflow_after_zero: 0,
        }
    }
}

/// Defense against physical, digital and psychic attacks (A-O18, A-O25).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default)]
pub struct Defenses {
    /// Physical attacks; 1 at the start.
    pub defense: u32,
    /// Digital attacks; 0 by default.
    pub integrity: u32,
    /// Psychic and spiritual attacks; 0 by default.
    pub resolve: u32,
}

impl Default for Defenses {
    fn default() -> Self {
        Self {
            defense: 1,
            integrity: 0,
            resolve: 0,
        }
    }
}

impl Defenses {
    /// The defense that matches a damage track: Defense for Vitality,
    /// Resolve for Confidence, Integrity for Cyber.
    pub fn against(&self, target: Damageable) -> u32 {
        match target {
            Damageable::Vitality => self.defense,
            Damageable::Confidence => self.resolve,
            Damageable::Cyber => self.integrity,
        }
    }
}

/// The COMP's stats and session (VV-17).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default)]
pub struct Comp {
    /// The Distribution, which decides the features available.
    pub distribution: String,
    /// The most Chips that may be installed.
    pub processing_power: u32,
    /// The installed Chips, by name.
    pub chips: Vec<String>,
    /// The most skills used at once (A-O24: skills, not dice); 1 by default.
    pub thread_count: u32,
    /// Cache size: dice rolled at boot, and the most cache dice kept.
    pub cache_max: u32,
    /// Battery life when full, in the table's unit of time.
    pub battery_max: u32,
    /// Battery life left.
    pub battery_current: u32,
    /// True while plugged in: use does not drain the battery.
    pub plugged_in: bool,
    /// True while the COMP is running (booted, not logged out).
    pub session_active: bool,
    /// How many times a COMP session has ended (logout, empty battery,
    /// Cyber 0): cache dice taken into a register before the latest
    /// shutdown went with it (VV-8).
    pub shutdowns: u32,
}

impl Default for Comp {
    fn default() -> Self {
        Self {
            distribution: String::new(),
            processing_power: 0,
            chips: Vec::new(),
            thread_count: 1,
            cache_max: 0,
            battery_max: 0,
            battery_current: 0,
            plugged_in: false,
            session_active: false,
            shutdowns: 0,
        }
    }
}

/// Where a cache die came from.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum CacheSource {
    /// Rolled when the COMP booted.
    Boot,
    /// Loaded from a register.
    Loaded,
}

/// One die in the data cache.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct CacheDie {
    /// Its face, 1-10.
    pub face: u32,
    /// Where it came from.
    pub source: CacheSource,
}

/// A die that may be discarded on cache overflow: a cache die, or (with
/// `vv_fault_counts_toward_cache`) a Fault die. Numbers are positions, from 0.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case", tag = "kind", content = "index")]
pub enum CacheRef {
    /// Position in [`OreSheet::cache`].
    Cache(usize),
    /// Position in [`OreSheet::fault_dice`].
    Fault(usize),
}

/// How bad an Injury is, from the width of the matching Fault dice (VV-14).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Severity {
    /// A dub: 1 Error Die per action.
    Minor,
    /// A trip: 2 Error Dice per action.
    Moderate,
    /// A quad: 3 Error Dice per action.
    Severe,
    /// Five or more: incapacitation (A-O12).
    Critical,
}

impl Severity {
    /// The severity for a Fault set of `width` dice; `None` below 2.
    pub fn from_width(width: u32) -> Option<Severity> {
        match width {
            0 | 1 => None,
            2 => Some(Severity::Minor),
            3 => Some(Severity::Moderate),
            4 => Some(Severity::Severe),
            _ => Some(Severity::Critical),
        }
    }

    /// Error Dice rolled with each action (Critical incapacitates instead: 0).
    pub fn error_dice(self) -> u32 {
        match self {
            Severity::Minor => 1,
            Severity::Moderate => 2,
            Severity::Severe => 3,
            Severity::Critical => 0,
        }
    }

    /// The display name.
    pub fn name(self) -> &'static str {
        match self {
            Severity::Minor => "Minor",
            Severity::Moderate => "Moderate",
            Severity::Severe => "Severe",
            Severity::Critical => "Critical",
        }
    }
}

/// One Injury (VV-14).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct Injury {
    /// How bad it is.
    pub severity: Severity,
    /// True once healed; healed Injuries roll no Error Dice.
    pub healed: bool,
    /// The losses that came with it: the tracks below their maximum when it
    /// formed. `None` on sheets older than this record: every track.
    #[serde(default)]
    pub losses: Option<Losses>,
}

impl Injury {
    /// Whether this Injury, while unhealed, keeps `t` from healing
    /// naturally without a professional (VV-15).
    ///
    /// Reading of VV-15 ("Vitality and Confidence come back at 1 per day if
    /// the loss came with no Injury"): an Injury blocks only the natural
    /// recovery of the losses that came with it, i.e. of the tracks that
    /// were below their maximum when its Fault dice matched. Losses on
    /// other tracks heal as usual.
    pub fn blocks(&self, t: Damageable) -> bool {
        match (self.losses, t) {
            (None, _) => true,
            (Some(l), Damageable::Vitality) => l.vitality,
            (Some(l), Damageable::Confidence) => l.confidence,
            (Some(_), Damageable::Cyber) => false,
        }
    }
}

/// Which naturally healing tracks had losses when an Injury formed (VV-15).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, Default)]
pub struct Losses {
    /// Vitality was below its maximum.
    pub vitality: bool,
    /// Confidence was below its maximum.
    pub confidence: bool,
}

/// Where the entity is: picks the Initiative stat (VV-10).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize, Default)]
#[serde(rename_all = "snake_case")]
pub enum World {
    /// The physical world (Initiative: Agility).
    #[default]
    Physical,
    /// An area touched by the Veil (Initiative: Agility).
    Veil,
    /// Inside cosmOS (Initiative: Precision).
    #[serde(rename = "cosmos")]
    CosmOS,
}

impl World {
    /// The stat Initiative uses here: Agility, or Precision in cosmOS (VV-10).
    pub fn initiative_stat(self) -> Stat {
        match self {
            World::CosmOS => Stat::Precision,
            World::Physical | World::Veil => Stat::Agility,
        }
    }
}

/// Per-combat values (VV-10, VV-11, VV-13).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, Default)]
#[serde(default)]
pub struct CombatState {
    /// The Outthink value rolled at the start of combat.
    pub outthink: Option<u32>,
    /// The Initiative value rolled at the start of combat.
    pub initiative: Option<u32>,
    /// This round's Called Stat (set by the application at the Call phase).
    pub called_stat: Option<Stat>,
    /// A living entity at 0 Vitality: incapacitated at the end of the round.
    pub incapacitated_pending_end_of_round: bool,
    /// The −1 Power penalty applies until the end of the round (A-O19).
    pub power_penalty: bool,
}

/// Lasting conditions from VV-13 and VV-14.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, Default)]
#[serde(default)]
pub struct Conditions {
    /// Confidence 0: incapacitated by a mental break until healed.
    pub mental_break: bool,
    /// Vitality 0: incapacitated (for the living, from the end of that round).
    pub vitality_down: bool,
    /// Cyber 0: logged out, no supernatural abilities until repaired.
    pub supernatural_lost: bool,
    /// A Critical Injury: incapacitated.
    pub critical_injury: bool,
    /// More than 3 Injuries: incapacitated by an internal glitch; a living
    /// entity recovers only once its COMP is broken (A-O23: not automated).
    pub glitched: bool,
    /// Killed: damage after 0 Vitality reached its maximum (A-O20).
    pub dead: bool,
    /// A natively digital entity at 0 Cyber is deleted.
    pub deleted: bool,
}

impl Conditions {
    /// True if any condition stops the entity acting.
    pub fn incapacitated(&self) -> bool {
        self.mental_break
            || self.vitality_down
            || self.critical_injury
            || self.glitched
            || self.dead
            || self.deleted
    }
}

/// The most Special actions one sheet records.
pub const MAX_SPECIALS: usize = 20;
/// The longest name of a Special action, in characters.
pub const MAX_SPECIAL_NAME: usize = 40;

/// A named Special action the character knows (VV-6): the dice it needs as
/// one set, and which of them must come from the cache.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct SpecialAction {
    /// A number that stays with this action while it is on the sheet and is
    /// never given to another (posted buttons name it).
    pub id: u32,
    /// Its name, e.g. "Overclock".
    pub name: String,
    /// The dice it needs.
    pub pattern: Pattern,
    /// Which of them must come from the cache (VV-6 "cache cost").
    #[serde(default)]
    pub cache_cost: CacheCost,
}

fn no_specials(v: &[SpecialAction]) -> bool {
    v.is_empty()
}

fn is_zero(n: &u32) -> bool {
    *n == 0
}

/// A Virtual Veil character or NPC (spec §5.6).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default)]
pub struct OreSheet {
    /// The twelve stats.
    pub stats: Stats,
    /// Vitality track (the Health track in mob mode).
    pub vitality: Track,
    /// Confidence track.
    pub confidence: Track,
    /// Cyber track.
    pub cyber: Track,
    /// Defense, Integrity, Resolve.
    pub defenses: Defenses,
    /// The COMP.
    pub comp: Comp,
    /// The data cache (lost when the COMP session ends).
    pub cache: Vec<CacheDie>,
    /// Fault dice, kept apart from the cache (A-O11); never used for actions.
    pub fault_dice: Vec<u32>,
    /// Injuries, healed or not.
    pub injuries: Vec<Injury>,
    /// Per-combat values.
    pub combat: CombatState,
    /// Lasting conditions.
    pub conditions: Conditions,
    /// A failed Cyber repair: wait a day before the next check (VV-16).
    pub repair_wait: bool,
    /// Where the entity is.
    pub world: World,
    /// Mob mode: one Health track (Vitality) and no Fault dice (VV-12).
    pub mob_mode: bool,
    /// A living creature (VV-13: 0 Vitality takes effect at the end of the round).
    pub living: bool,
    /// A natively digital entity (VV-13: deleted at 0 Cyber).
    pub native_digital: bool,
    /// How many End phases (and ends of combat) this entity has been
    /// through: a register rolled before the latest one is cleared (VV-11).
    pub rounds_ended: u32,
    /// Named Special actions (VV-6), in the order they were added.
    #[serde(skip_serializing_if = "no_specials")]
    pub specials: Vec<SpecialAction>,
    /// The id the next Special action gets (ids are never reused).
    #[serde(skip_serializing_if = "is_zero")]
    pub next_special: u32,
}

impl Default for OreSheet {
    fn default() -> Self {
        OreSheet::new(Stats::default())
    }
}

impl OreSheet {
    /// A living character with these stats: Vitality, Confidence and Cyber
    /// tracks full at their stat values, default defenses and an idle COMP.
    pub fn new(stats: Stats) -> Self {
        Self {
            stats,
            vitality: Track::full(stats.vitality),
            confidence: Track::full(stats.confidence),
            cyber: Track::full(stats.cyber),
            defenses: Defenses::default(),
            comp: Comp::default(),
            cache: Vec::new(),
            fault_dice: Vec::new(),
            injuries: Vec::new(),
            combat: CombatState::default(),
            conditions: Conditions::default(),
            repair_wait: false,
            world: World::Physical,
            mob_mode: false,
            living: true,
            native_digital: false,
            rounds_ended: 0,
            specials: Vec::new(),
            next_special: 0,
        }
    }

    /// A mob (VV-12): one Health track of `health`, no Fault dice, not living.
    pub fn mob(stats: Stats, health: u32) -> Self {
        let mut s = OreSheet::new(stats);
        s.vitality = Track::full(health);
        s.mob_mode = true;
        s.living = false;
        s
    }

    /// One track.
    pub fn track(&self, t: Damageable) -> &Track {
        match t {
            Damageable::Vitality => &self.vitality,
            Damageable::Confidence => &self.confidence,
            Damageable::Cyber => &self.cyber,
        }
    }

    /// One track, mutably.
    pub fn track_mut(&mut self, t: Damageable) -> &mut Track {
        match t {
            Damageable::Vitality => &mut self.vitality,
            Damageable::Confidence => &mut self.confidence,
            Damageable::Cyber => &mut self.cyber,
        }
    }

    /// Sets a track's maximum (0 to [`MAX_VALUE`]); the current value is
    /// lowered to fit.
    pub fn set_track_max(&mut self, t: Damageable, max: i64) -> Result<(), RuleError> {
        let max = u32::try_from(max).map_err(|_| {
            RuleError::new(format!(
                "Maximum {} must be a whole number of 0 or more.",
                t.name()
            ))
        })?;
        if max > MAX_VALUE {
            return Err(RuleError::new(format!(
                "A track's maximum can be at most {MAX_VALUE}."
            )));
        }
        let track = self.track_mut(t);
        track.max = max;
        track.current = track.current.min(max);
        Ok(())
    }

    /// Sets a track's current value, 0 to its maximum.
    pub fn set_track_current(&mut self, t: Damageable, current: i64) -> Result<(), RuleError> {
        let max = self.track(t).max;
        let cur = u32::try_from(current)
            .ok()
            .filter(|c| *c <= max)
            .ok_or_else(|| RuleError::new(format!("{} must be from 0 to {max}.", t.name())))?;
        self.track_mut(t).current = cur;
        Ok(())
    }

    /// Sets a track's maximum, then its current value (0 to the new
    /// maximum): either may be left as it is, not both.
    pub fn set_track(
        &mut self,
        t: Damageable,
        max: Option<i64>,
        current: Option<i64>,
    ) -> Result<(), RuleError> {
        if max.is_none() && current.is_none() {
            return Err(RuleError::new(
                "Give a new `max`, a new `current`, or both.",
            ));
        }
        if let Some(m) = max {
            self.set_track_max(t, m)?;
        }
        if let Some(c) = current {
            self.set_track_current(t, c)?;
        }
        Ok(())
    }

    /// Sets the COMP's cache size (0 to [`MAX_CACHE`]).
    pub fn set_cache_max(&mut self, max: i64) -> Result<(), RuleError> {
        let m = u32::try_from(max)
            .ok()
            .filter(|m| *m <= MAX_CACHE)
            .ok_or_else(|| {
                RuleError::new(format!("The cache size must be from 0 to {MAX_CACHE}."))
            })?;
        self.comp.cache_max = m;
        Ok(())
    }

    /// Sets the battery's full life (0 to [`MAX_VALUE`]); the charge left
    /// is lowered to fit.
    pub fn set_battery_max(&mut self, max: i64) -> Result<(), RuleError> {
        if max > i64::from(MAX_VALUE) {
            return Err(RuleError::new(format!(
                "Battery life can be at most {MAX_VALUE}."
            )));
        }
        let m = u32::try_from(max)
            .map_err(|_| RuleError::new("Battery life must be a whole number of 0 or more."))?;
        self.comp.battery_max = m;
        self.comp.battery_current = self.comp.battery_current.min(m);
        Ok(())
    }

    /// Sets the battery's charge, 0 to its full life.
    pub fn set_battery(&mut self, charge: i64) -> Result<(), RuleError> {
        let max = self.comp.battery_max;
        self.comp.battery_current = u32::try_from(charge)
            .ok()
            .filter(|b| *b <= max)
            .ok_or_else(|| {
                RuleError::new(format!(
                    "The battery can hold 0 to {max} (set `battery_max` first)."
                ))
            })?;
        Ok(())
    }

    /// Sets the Thread Count (1 to [`MAX_VALUE`]).
    pub fn set_thread_count(&mut self, n: i64) -> Result<(), RuleError> {
        if n > i64::from(MAX_VALUE) {
            return Err(RuleError::new(format!(
                "The Thread Count can be at most {MAX_VALUE}."
            )));
        }
        let n = u32::try_from(n)
            .ok()
            .filter(|n| *n >= 1)
            .ok_or_else(|| RuleError::new("The Thread Count must be 1 or more."))?;
        self.comp.thread_count = n;
        Ok(())
    }

    /// Sets the Processing Power (0 to [`MAX_PROCESSING_POWER`]), never
    /// below the Chips installed (VV-17: it is the most Chips).
    pub fn set_processing_power(&mut self, pp: i64) -> Result<(), RuleError> {
        let pp = u32::try_from(pp)
            .ok()
            .filter(|p| *p <= MAX_PROCESSING_POWER)
            .ok_or_else(|| {
                RuleError::new(format!(
                    "Processing Power must be from 0 to {MAX_PROCESSING_POWER}."
                ))
            })?;
        let chips = self.comp.chips.len();
        if (pp as usize) < chips {
            let installed = if chips == 1 {
                "1 Chip is".to_string()
            } else {
                format!("{chips} Chips are")
            };
            return Err(RuleError::new(format!(
                "{installed} installed; remove some before lowering Processing Power to {pp}."
            )));
        }
        self.comp.processing_power = pp;
        Ok(())
    }

    /// Removes the Chip of this name (case-insensitive).
    pub fn remove_chip(&mut self, name: &str) -> Result<(), RuleError> {
        let pos = self
            .comp
            .chips
            .iter()
            .position(|c| c.eq_ignore_ascii_case(name))
            .ok_or_else(|| RuleError::new(format!("No Chip named `{name}` is installed.")))?;
        self.comp.chips.remove(pos);
        Ok(())
    }

    /// Sets a stat ([`Stats::set`]). Vitality, Confidence and Cyber carry
    /// their damage track: a track whose maximum stood at the old value
    /// takes the new one, and a full track stays full (a mob's Health is
    /// set on its own). Returns the old value.
    pub fn set_stat(&mut self, stat: Stat, value: i64) -> Result<u32, RuleError> {
        let old = self.stats.get(stat);
        self.stats.set(stat, value)?;
        let new = self.stats.get(stat);
        let carried = stat
            .track()
            .filter(|_| !(self.mob_mode && stat == Stat::Vitality));
        if let Some(tr) = carried
            .map(|t| self.track_mut(t))
            .filter(|tr| tr.max == old)
        {
            let full = tr.current == tr.max;
            tr.max = new;
            tr.current = if full { new } else { tr.current.min(new) };
        }
        Ok(old)
    }

    /// Sets the defenses given, in Defense, Integrity, Resolve order, each
    /// 0 to [`MAX_VALUE`] (A-O18, A-O25); nothing changes if one is out of
    /// range.
    pub fn set_defenses(&mut self, values: [Option<i64>; 3]) -> Result<(), RuleError> {
        let mut d = self.defenses;
        let slots = [&mut d.defense, &mut d.integrity, &mut d.resolve];
        for (slot, v) in slots.into_iter().zip(values) {
            if let Some(v) = v {
                *slot = u32::try_from(v)
                    .ok()
                    .filter(|v| *v <= MAX_VALUE)
                    .ok_or_else(|| {
                        RuleError::new(format!("Defenses must be from 0 to {MAX_VALUE}."))
                    })?;
            }
        }
        self.defenses = d;
        Ok(())
    }

    /// Turns mob mode on or off (VV-12: a mob skips the Fault system, so a
    /// sheet holding Fault dice clears them first).
    pub fn set_mob(&mut self, mob: bool) -> Result<(), RuleError> {
        if mob && !self.fault_dice.is_empty() {
            return Err(RuleError::new(
                "A mob has no Fault dice; clear them first (the Compiler's `/vv-gm endcombat stable:true`).",
            ));
        }
        self.mob_mode = mob;
        Ok(())
    }

    /// Installs a Chip, refusing more than the Processing Power allows (VV-17).
    pub fn add_chip(&mut self, name: &str) -> Result<(), RuleError> {
        let name = check_chip_name(name)?;
        if self.comp.chips.len() >= self.comp.processing_power as usize {
            return Err(RuleError::new(format!(
                "The COMP's Processing Power allows only {} Chips.",
                self.comp.processing_power
            )));
        }
        self.comp.chips.push(name.to_string());
        Ok(())
    }

    /// The Special action of this name (case-insensitive).
    pub fn special_named(&self, name: &str) -> Option<&SpecialAction> {
        let name = name.trim();
        self.specials
            .iter()
            .find(|s| s.name.eq_ignore_ascii_case(name))
    }

    /// The Special action with this id, if it is still on the sheet.
    pub fn special(&self, id: u32) -> Option<&SpecialAction> {
        self.specials.iter().find(|s| s.id == id)
    }

    /// Records a named Special action (VV-6). Names are 1 to
    /// [`MAX_SPECIAL_NAME`] characters and unique on the sheet (ignoring
    /// case); at most [`MAX_SPECIALS`] are kept. Returns the new action.
    pub fn add_special(
        &mut self,
        name: &str,
        pattern: Pattern,
        cache_cost: CacheCost,
    ) -> Result<&SpecialAction, RuleError> {
        let name = check_special_name(name)?;
        pattern.validate()?;
        if let Some(old) = self.special_named(name) {
            return Err(RuleError::new(format!(
                "There is already a Special action named {}; remove it first.",
                old.name
            )));
        }
        if self.specials.len() >= MAX_SPECIALS {
            return Err(RuleError::new(format!(
                "A sheet keeps at most {MAX_SPECIALS} Special actions."
            )));
        }
        let first_free = self
            .specials
            .iter()
            .map(|s| s.id.saturating_add(1))
            .max()
            .unwrap_or(0);
        let id = self.next_special.max(first_free);
        let next = id
            .checked_add(1)
            .ok_or_else(|| RuleError::new("This sheet has no room for more Special actions."))?;
        self.specials.push(SpecialAction {
            id,
            name: name.to_string(),
            pattern,
            cache_cost,
        });
        self.next_special = next;
        Ok(&self.specials[self.specials.len() - 1])
    }

    /// Removes the Special action of this name (case-insensitive) and
    /// returns it.
    pub fn remove_special(&mut self, name: &str) -> Result<SpecialAction, RuleError> {
        let name = name.trim();
        let pos = self
            .specials
            .iter()
            .position(|s| s.name.eq_ignore_ascii_case(name))
            .ok_or_else(|| RuleError::new(format!("No Special action is named {name}.")))?;
        Ok(self.specials.remove(pos))
    }

    /// The stat used for Initiative here: Agility, or Precision in cosmOS (VV-10).
    pub fn initiative_stat(&self) -> Stat {
        self.world.initiative_stat()
    }

    /// Unhealed Injuries, in order.
    pub fn active_injuries(&self) -> impl Iterator<Item = &Injury> {
        self.injuries.iter().filter(|i| !i.healed)
    }

    /// How many Error Dice go with each action (A-O13, `vv_error_dice_stacking`).
    pub fn error_dice_count(&self, settings: &OreSettings) -> u32 {
        let counts = self.active_injuries().map(|i| i.severity.error_dice());
        match settings.error_dice_stacking {
            ErrorDiceStacking::Sum => counts.fold(0u32, |a, b| a.saturating_add(b)),
            ErrorDiceStacking::Max => counts.max().unwrap_or(0),
        }
    }

    /// The Error Dice rolled with each of this entity's actions (A-O13):
    /// [`OreSheet::error_dice_count`], none for a mob, at most
    /// [`MAX_ERROR_DICE`].
    pub fn error_dice_per_action(&self, settings: &OreSettings) -> u32 {
        if self.mob_mode {
            0
        } else {
            self.error_dice_count(settings).min(MAX_ERROR_DICE)
        }
    }

    /// How many dice count toward the cache maximum: the cache, plus the Fault
    /// dice when `vv_fault_counts_toward_cache` is on (A-O11).
    pub fn cache_load(&self, settings: &OreSettings) -> usize {
        let faults = if settings.fault_counts_toward_cache && !self.mob_mode {
            self.fault_dice.len()
        } else {
            0
        };
        self.cache.len().saturating_add(faults)
    }

    /// How many dice must be discarded now (VV-8: at once, owner's choice).
    /// Only a running COMP has a cache to overflow.
    pub fn cache_excess(&self, settings: &OreSettings) -> usize {
        if !self.comp.session_active {
            return 0;
        }
        self.cache_load(settings)
            .saturating_sub(self.comp.cache_max as usize)
    }

    /// The positions of the first `n` cache dice showing `face`, the dice a
    /// pick of `n` × `face` adds to a register (VV-8); `None` when the
    /// cache holds fewer.
    pub fn cache_dice_of(&self, face: u32, n: usize) -> Option<Vec<usize>> {
        let held: Vec<usize> = self
            .cache
            .iter()
            .enumerate()
            .filter(|(_, d)| d.face == face)
            .map(|(i, _)| i)
            .take(n)
            .collect();
        (held.len() == n).then_some(held)
    }

    /// Checks the sheet's invariants (after hand edits, or an imported
    /// sheet): the same checks as the sheet commands, each error naming its
    /// field ([`RuleError::field`], e.g. `comp.cache_max`).
    pub fn validate(&self) -> Result<(), RuleError> {
        self.validate_values()?;
        self.validate_comp()?;
        self.validate_specials()
    }

    /// Its stats, values and tracks within their maximums.
    fn validate_values(&self) -> Result<(), RuleError> {
        for stat in Stat::ALL {
            let v = self.stats.get(stat);
            if v > MAX_STAT {
                return Err(
                    RuleError::new(format!("{v} is above the maximum {MAX_STAT}."))
                        .at(format!("stats.{}", stat.name().to_lowercase())),
                );
            }
        }
        let values = [
            ("vitality.max", self.vitality.max),
            ("confidence.max", self.confidence.max),
            ("cyber.max", self.cyber.max),
            ("defenses.defense", self.defenses.defense),
            ("defenses.integrity", self.defenses.integrity),
            ("defenses.resolve", self.defenses.resolve),
            ("comp.thread_count", self.comp.thread_count),
            ("comp.battery_max", self.comp.battery_max),
        ];
        for (field, v) in values {
            if v > MAX_VALUE {
                return Err(
                    RuleError::new(format!("{v} is above the maximum {MAX_VALUE}.")).at(field),
                );
            }
        }
        for t in Damageable::ALL {
            let tr = self.track(t);
            if tr.current > tr.max {
                return Err(
                    RuleError::new(format!("{} is above its maximum.", t.name()))
                        .at(format!("{}.current", t.name().to_lowercase())),
                );
            }
        }
        Ok(())
    }

    /// Its COMP: the battery, the cache and its dice, the Fault dice,
    /// Processing Power and the Chips it allows.
    fn validate_comp(&self) -> Result<(), RuleError> {
        if self.comp.battery_current > self.comp.battery_max {
            return Err(RuleError::new("The battery is charged above its maximum.")
                .at("comp.battery_current"));
        }
        if self.comp.cache_max > MAX_CACHE {
            return Err(
                RuleError::new(format!("The cache size must be from 0 to {MAX_CACHE}."))
                    .at("comp.cache_max"),
            );
        }
        let bad_die = || RuleError::new("Every cache and Fault die must show 1 to 10.");
        if let Some(i) = self.cache.iter().position(|d| !(1..=10).contains(&d.face)) {
            return Err(bad_die().at(format!("cache[{i}].face")));
        }
        if let Some(i) = self.fault_dice.iter().position(|f| !(1..=10).contains(f)) {
            return Err(bad_die().at(format!("fault_dice[{i}]")));
        }
        if self.comp.processing_power > MAX_PROCESSING_POWER {
            return Err(RuleError::new(format!(
                "Processing Power must be from 0 to {MAX_PROCESSING_POWER}."
            ))
            .at("comp.processing_power"));
        }
        if self.comp.chips.len() > self.comp.processing_power as usize {
            return Err(RuleError::new(format!(
                "The COMP's Processing Power allows only {} Chips ({} here).",
                self.comp.processing_power,
                self.comp.chips.len()
            ))
            .at("comp.chips"));
        }
        for (i, chip) in self.comp.chips.iter().enumerate() {
            check_chip_name(chip).map_err(|e| e.at(format!("comp.chips[{i}]")))?;
        }
        Ok(())
    }

    /// Its Special actions: at most [`MAX_SPECIALS`], each named and with
    /// a valid pattern.
    fn validate_specials(&self) -> Result<(), RuleError> {
        if self.specials.len() > MAX_SPECIALS {
            return Err(RuleError::new(format!(
                "A sheet keeps at most {MAX_SPECIALS} Special actions ({} here).",
                self.specials.len()
            ))
            .at("specials"));
        }
        for (i, sp) in self.specials.iter().enumerate() {
            check_special_name(&sp.name).map_err(|e| e.at(format!("specials[{i}].name")))?;
            sp.pattern
                .validate()
                .map_err(|e| e.at(format!("specials[{i}].pattern")))?;
        }
        Ok(())
    }
}

/// The most Processing Power a COMP may have.
pub const MAX_PROCESSING_POWER: u32 = 100;

/// The longest Chip name.
pub const MAX_CHIP_NAME: usize = 100;

/// A Chip's name, trimmed: 1 to [`MAX_CHIP_NAME`] characters.
fn check_chip_name(name: &str) -> Result<&str, RuleError> {
    let name = name.trim();
    if name.is_empty() || name.chars().count() > MAX_CHIP_NAME {
        return Err(RuleError::new(format!(
            "A Chip needs a name of 1 to {MAX_CHIP_NAME} characters."
        )));
    }
    Ok(name)
}

/// A Special action's name, trimmed: 1 to [`MAX_SPECIAL_NAME`] characters,
/// no control characters.
fn check_special_name(name: &str) -> Result<&str, RuleError> {
    let name = name.trim();
    if name.is_empty()
        || name.chars().count() > MAX_SPECIAL_NAME
        || name.chars().any(char::is_control)
    {
        return Err(RuleError::new(format!(
            "A Special action needs a name of 1 to {MAX_SPECIAL_NAME} characters."
        )));
    }
    Ok(name)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn validate_names_the_field_of_each_broken_check() {
        let good = OreSheet::new(Stats::all(3));
        assert!(good.validate().is_ok());
        let field = |s: &OreSheet| s.validate().unwrap_err().field.unwrap();

        let mut s = good.clone();
        s.stats.wit = MAX_STAT + 1;
        assert_eq!(
            s.validate().unwrap_err().to_string(),
            "stats.wit: 100 is above the maximum 99."
        );

        let mut s = good.clone();
        s.cyber.current = s.cyber.max + 1;
        assert_eq!(field(&s), "cyber.current");

        let mut s = good.clone();
        s.defenses.resolve = MAX_VALUE + 1;
        assert_eq!(field(&s), "defenses.resolve");

        let mut s = good.clone();
        s.comp.cache_max = MAX_CACHE + 1;
        assert_eq!(field(&s), "comp.cache_max");

        let mut s = good.clone();
        s.comp.processing_power = 1;
        s.comp.chips = vec!["Blade".into(), "Gun".into()];
        assert_eq!(field(&s), "comp.chips");

        let mut s = good.clone();
        s.comp.processing_power = 1;
        s.comp.chips = vec!["c".repeat(MAX_CHIP_NAME + 1)];
        assert_eq!(field(&s), "comp.chips[0]");

        let mut s = good.clone();
        s.fault_dice = vec![3, 11];
        assert_eq!(field(&s), "fault_dice[1]");

        let mut s = good;
        s.add_special(
            "Burst",
            Pattern::parse("226").unwrap(),
            CacheCost::default(),
        )
        .unwrap();
        s.specials[0].name = "n".repeat(MAX_SPECIAL_NAME + 1);
        assert_eq!(field(&s), "specials[0].name");
    }

    #[test]
    fn a_o25_new_sheet_defaults_and_non_negative_stats() {
        let mut stats = Stats::all(3);
        stats.set(Stat::Vitality, 5).unwrap();
        assert!(stats.set(Stat::Wit, -1).is_err());
        assert_eq!(stats.get(Stat::Wit), 3);
        stats.set(Stat::Wit, 40).unwrap();
        let s = OreSheet::new(stats);
        assert_eq!(
            s.defenses,
            Defenses {
                defense: 1,
                integrity: 0,
                resolve: 0
            }
        );
        assert_eq!(s.vitality, Track::full(5));
        assert_eq!(s.comp.thread_count, 1);
        assert!(s.living && !s.mob_mode);
        assert!(s.validate().is_ok());
    }

    #[test]
    fn vv_17_comp_stats_are_validated() {
        let mut s = OreSheet::default();
        assert!(s.set_cache_max(51).is_err());
        s.set_cache_max(4).unwrap();
        assert!(s.set_thread_count(0).is_err());
        s.comp.processing_power = 1;
        s.add_chip("Blade").unwrap();
        let err = s.add_chip("Gun").unwrap_err();
        assert_eq!(
            err.message,
            "The COMP's Processing Power allows only 1 Chips."
        );
        s.comp.battery_current = 8;
        s.set_battery_max(5).unwrap();
        assert_eq!(s.comp.battery_current, 5);
    }

    #[test]
    fn vv_17_comp_setters_keep_the_limits_and_the_chips() {
        let mut s = OreSheet::default();
        let msg = |e: RuleError| e.message;
        assert_eq!(
            msg(s.set_thread_count(1000).unwrap_err()),
            "The Thread Count can be at most 999."
        );
        assert_eq!(
            msg(s.set_battery_max(1000).unwrap_err()),
            "Battery life can be at most 999."
        );
        s.set_battery_max(4).unwrap();
        assert_eq!(
            msg(s.set_battery(5).unwrap_err()),
            "The battery can hold 0 to 4 (set `battery_max` first)."
        );
        s.set_battery(3).unwrap();
        assert_eq!(s.comp.battery_current, 3);
        assert_eq!(
            msg(s.set_processing_power(101).unwrap_err()),
            "Processing Power must be from 0 to 100."
        );
        s.set_processing_power(2).unwrap();
        s.add_chip("Blade").unwrap();
        s.add_chip("Gun").unwrap();
        assert_eq!(
            msg(s.set_processing_power(1).unwrap_err()),
            "2 Chips are installed; remove some before lowering Processing Power to 1."
        );
        assert_eq!(
            msg(s.remove_chip("Shield").unwrap_err()),
            "No Chip named `Shield` is installed."
        );
        s.remove_chip("gun").unwrap();
        assert_eq!(s.comp.chips, vec!["Blade".to_string()]);
        assert_eq!(
            msg(s.set_processing_power(0).unwrap_err()),
            "1 Chip is installed; remove some before lowering Processing Power to 0."
        );
        s.set_processing_power(1).unwrap();
        assert_eq!(s.comp.processing_power, 1);
    }

    #[test]
    fn a_o25_stats_carry_their_tracks_and_stay_within_limits() {
        let mut s = OreSheet::new(Stats::all(5));
        assert_eq!(
            s.set_stat(Stat::Wit, 100).unwrap_err().message,
            "Wit can be at most 99 here."
        );
        // A full track follows its stat up and down.
        assert_eq!(s.set_stat(Stat::Vitality, 7).unwrap(), 5);
        assert_eq!(s.vitality, Track::full(7));
        // A wounded one takes the new maximum and keeps its value.
        s.set_track_current(Damageable::Confidence, 2).unwrap();
        s.set_stat(Stat::Confidence, 3).unwrap();
        assert_eq!((s.confidence.current, s.confidence.max), (2, 3));
        // A maximum set apart from the stat stays.
        s.set_track_max(Damageable::Cyber, 9).unwrap();
        s.set_stat(Stat::Cyber, 6).unwrap();
        assert_eq!(s.cyber.max, 9);
        // Other stats have no track; a mob's Health is its own.
        s.set_stat(Stat::Wit, 8).unwrap();
        assert_eq!(s.stats.wit, 8);
        let mut mob = OreSheet::mob(Stats::all(5), 3);
        mob.set_stat(Stat::Vitality, 6).unwrap();
        assert_eq!(mob.vitality, Track::full(3));
    }

    #[test]
    fn vv_12_a_sheet_with_fault_dice_is_no_mob() {
        let mut s = OreSheet::new(Stats::all(3));
        s.fault_dice = vec![4];
        assert_eq!(
            s.set_mob(true).unwrap_err().message,
            "A mob has no Fault dice; clear them first (the Compiler's `/vv-gm endcombat stable:true`)."
        );
        assert!(!s.mob_mode);
        s.fault_dice.clear();
        s.set_mob(true).unwrap();
        assert!(s.mob_mode);
        s.fault_dice = vec![4];
        s.set_mob(false).unwrap();
        assert!(!s.mob_mode);
    }

    #[test]
    fn a_o18_defenses_are_set_one_by_one_within_limits() {
        let mut s = OreSheet::default();
        assert_eq!(
            s.set_defenses([None, Some(1000), None])
                .unwrap_err()
                .message,
            "Defenses must be from 0 to 999."
        );
        assert_eq!(
            s.set_defenses([None, Some(-1), None]).unwrap_err().message,
            "Defenses must be from 0 to 999."
        );
        s.set_defenses([None, Some(2), Some(1)]).unwrap();
        assert_eq!(
            s.defenses,
            Defenses {
                defense: 1,
                integrity: 2,
                resolve: 1
            }
        );
        assert_eq!(
            s.set_track_max(Damageable::Cyber, 1000)
                .unwrap_err()
                .message,
            "A track's maximum can be at most 999."
        );
    }

    #[test]
    fn vv_10_initiative_stat_depends_on_the_world() {
        let mut s = OreSheet::default();
        assert_eq!(s.initiative_stat(), Stat::Agility);
        s.world = World::Veil;
        assert_eq!(s.initiative_stat(), Stat::Agility);
        s.world = World::CosmOS;
        assert_eq!(s.initiative_stat(), Stat::Precision);
    }

    #[test]
    fn names_parse_and_sheet_serialises() {
        assert_eq!(Stat::parse(" wit ").unwrap(), Stat::Wit);
        assert!(Stat::parse("Luck").unwrap_err().message.contains("Agility"));
        assert_eq!(Damageable::parse("Health").unwrap(), Damageable::Vitality);
        let mut s = OreSheet::new(Stats::all(2));
        s.world = World::CosmOS;
        s.cache.push(CacheDie {
            face: 7,
            source: CacheSource::Boot,
        });
        let json = serde_json::to_string(&s).unwrap();
        assert!(json.contains("\"cosmos\""));
        let back: OreSheet = serde_json::from_str(&json).unwrap();
        assert_eq!(back, s);
        let r = serde_json::to_string(&CacheRef::Fault(2)).unwrap();
        assert_eq!(r, r#"{"kind":"fault","index":2}"#);
    }

    #[test]
    fn track_setters_keep_current_within_max() {
        let mut s = OreSheet::new(Stats::all(4));
        s.set_track_max(Damageable::Cyber, 2).unwrap();
        assert_eq!(s.cyber.current, 2);
        assert!(s.set_track_current(Damageable::Cyber, 3).is_err());
        assert!(s.set_track_current(Damageable::Cyber, -1).is_err());
        s.set_track_current(Damageable::Cyber, 1).unwrap();
        assert_eq!(s.cyber.current, 1);
    }

    #[test]
    fn a_track_is_set_max_first_then_current() {
        let mut s = OreSheet::new(Stats::all(4));
        // A current above the old maximum fits the new one.
        s.set_track(Damageable::Vitality, Some(6), Some(6)).unwrap();
        assert_eq!((s.vitality.current, s.vitality.max), (6, 6));
        s.set_track(Damageable::Vitality, Some(3), None).unwrap();
        assert_eq!((s.vitality.current, s.vitality.max), (3, 3));
        s.set_track(Damageable::Vitality, None, Some(1)).unwrap();
        assert_eq!((s.vitality.current, s.vitality.max), (1, 3));
        // Nothing to set, or a current past the new maximum: refused.
        let before = s.clone();
        assert!(s.set_track(Damageable::Vitality, None, None).is_err());
        assert!(s.set_track(Damageable::Vitality, None, Some(4)).is_err());
        assert_eq!(s, before);
    }
}
