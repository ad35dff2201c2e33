//! The Venus Engine character sheet (spec §2.11) and its validated edits:
//! abilities (VE-1, VE-2), jobs and exp (VE-3, VE1-L*, VE2-L1, VE2-T10),
//! Kismet (VE-6: Lots 0..10 with the overflow rule, Ego), tier (VE2-R1),
//! free-text attributes (VE-7), insights and custom consequences (VE1-S6).
//!
//! Fields are public so the application can read and store the sheet as
//! JSON; change them through the methods, which keep the invariants (call
//! [`VenusSheet::validate`] on a sheet that was edited by other means).
//! [`VenusCtx`] bundles the sheets a check or task reads and changes.

use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;
use std::fmt;
use std::str::FromStr;

use super::rank::Rank;
use super::settings::{Edition, LevelUpRule, LotOverflow, VenusSettings};
use crate::rules::RuleError;

/// The Lots cap (VE-6, VE1-R1).
pub const MAX_LOTS: u32 = 10;
/// The exp that finishes learning a job (VE1-L4, VE2-L1).
pub const LEARNING_EXP: u32 = 16;
/// The highest job level the bot accepts (a sanity cap; pools are capped separately).
pub const MAX_LEVEL: u32 = 100;
/// The longest ability or job name.
pub const MAX_NAME_LEN: usize = 64;
/// The longest free text (insight, consequence).
pub const MAX_TEXT_LEN: usize = 500;
/// The longest note (`/ve sheet note text:`: an attribute entry such as an
/// asset or specialty, an insight, a special consequence), list of
/// relative factors (`factors:`) and so any one factor's name. The options
/// are registered with this maximum (a test holds them together), so what
/// Discord lets through is never refused as too long.
pub const MAX_NOTE_LEN: usize = 200;
/// The most entries in any one list or map on the sheet.
pub const MAX_ENTRIES: usize = 100;

/// A character's tier (VE2-R1): sets the minimum job level and ability rank.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Tier {
    /// Historic: job level ≥ 1, rank ≥ Bronze.
    Historic,
    /// Heroic: job level ≥ 2, rank ≥ Bronze.
    Heroic,
    /// Mythic: job level ≥ 3, rank ≥ Silver.
    Mythic,
    /// Deific: job level ≥ 4, rank ≥ Silver.
    Deific,
}

impl Tier {
    /// The minimum job level: 1/2/3/4. Also the level a learned job reaches in VE2.
    pub fn min_job_level(self) -> u32 {
        match self {
            Tier::Historic => 1,
            Tier::Heroic => 2,
            Tier::Mythic => 3,
            Tier::Deific => 4,
        }
    }

    /// The minimum ability rank: Br/Br/Si/Si.
    pub fn min_rank(self) -> Rank {
        match self {
            Tier::Historic | Tier::Heroic => Rank::Bronze,
            Tier::Mythic | Tier::Deific => Rank::Silver,
        }
    }

    /// The tier's name, capitalised.
    pub fn name(self) -> &'static str {
        match self {
            Tier::Historic => "Historic",
            Tier::Heroic => "Heroic",
            Tier::Mythic => "Mythic",
            Tier::Deific => "Deific",
        }
    }
}

impl fmt::Display for Tier {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

impl FromStr for Tier {
    type Err = RuleError;

    /// Accepts the tier's name, any case.
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        match s.trim().to_ascii_lowercase().as_str() {
            "historic" => Ok(Tier::Historic),
            "heroic" => Ok(Tier::Heroic),
            "mythic" => Ok(Tier::Mythic),
            "deific" => Ok(Tier::Deific),
            other => Err(RuleError::new(format!(
                "`{other}` is not a tier: use historic, heroic, mythic or deific."
            ))),
        }
    }
}

/// An ability: rank and score (VE-1, VE-2).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct Ability {
    /// Bronze to Platinum.
    pub rank: Rank,
    /// 0 to `ve_max_score`.
    pub score: u32,
}

/// A job (VE-3).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Job {
    /// Level: 0 while learning, otherwise 1..=[`MAX_LEVEL`].
    pub level: u32,
    /// The exp counter.
    pub exp: u32,
    /// The 1-2 abilities this job inherits (A-V28).
    pub inherits: Vec<String>,
    /// True while the job is at level 0 being learned (VE1-L1, VE2-L1).
    pub learning: bool,
    /// False while special qualifications are unmet: no exp at all (A-V32).
    pub qualifications_met: bool,
}

impl Job {
    /// Whether this job inherits `ability` (case-insensitive).
    pub fn inherits_ability(&self, ability: &str) -> bool {
        self.inherits.iter().any(|a| same(a, ability))
    }
}

/// The free-text attribute lists (VE-7). The bot stores them but does not interpret them.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default)]
pub struct Attributes {
    /// Assets.
    pub assets: Vec<String>,
    /// Features.
    pub features: Vec<String>,
    /// Merits.
    pub merits: Vec<String>,
    /// Disciplines.
    pub disciplines: Vec<String>,
    /// Specialties (Sp).
    pub specialties: Vec<String>,
    /// Lifepaths.
    pub lifepaths: Vec<String>,
    /// Principles.
    pub principles: Vec<String>,
}

/// Which free-text attribute list an entry belongs to.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum AttributeKind {
    /// Assets.
    Asset,
    /// Features.
    Feature,
    /// Merits.
    Merit,
    /// Disciplines.
    Discipline,
    /// Specialties.
    Specialty,
    /// Lifepaths.
    Lifepath,
    /// Principles.
    Principle,
}

impl Attributes {
    /// The list for `kind`.
    pub fn list(&self, kind: AttributeKind) -> &Vec<String> {
        match kind {
            AttributeKind::Asset => &self.assets,
            AttributeKind::Feature => &self.features,
            AttributeKind::Merit => &self.merits,
            AttributeKind::Discipline => &self.disciplines,
            AttributeKind::Specialty => &self.specialties,
            AttributeKind::Lifepath => &self.lifepaths,
            AttributeKind::Principle => &self.principles,
        }
    }

    fn list_mut(&mut self, kind: AttributeKind) -> &mut Vec<String> {
        match kind {
            AttributeKind::Asset => &mut self.assets,
            AttributeKind::Feature => &mut self.features,
            AttributeKind::Merit => &mut self.merits,
            AttributeKind::Discipline => &mut self.disciplines,
            AttributeKind::Specialty => &mut self.specialties,
            AttributeKind::Lifepath => &mut self.lifepaths,
            AttributeKind::Principle => &mut self.principles,
        }
    }
}

/// An insight: special knowledge usable for one KISS per task (VE1-K4c).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Insight {
    /// Stable id on this sheet.
    pub id: u32,
    /// What the character knows.
    pub text: String,
    /// Peer-approved in advance (an approved insight needs no further approval in a task).
    pub approved: bool,
}

/// Why exp was awarded (or blocked).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum ExpReason {
    /// The task failed (VE1-T8.1, VE2-T9).
    Failure,
    /// The job is being learned (VE1-L3, VE2-L1).
    Learning,
    /// Tertiary T2 "learned something" (VE1-S3).
    LearnedSomething,
    /// The job aided another's task (VE1-T3, VE2-T9).
    AllyAid,
    /// A Lot gained at the cap (VE1-R1, A-V7).
    LotOverflow,
    /// A GM award or edit.
    Manual,
}

/// One change to a sheet, for the roll log.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum SheetEvent {
    /// Exp was added to a job.
    ExpAwarded {
        /// The job.
        job: String,
        /// How much.
        amount: u32,
        /// Why.
        reason: ExpReason,
        /// The job's exp afterwards (before any level-up).
        exp_now: u32,
    },
    /// Exp was not added because the job's qualifications are unmet (A-V32).
    ExpBlocked {
        /// The job.
        job: String,
        /// How much was lost.
        amount: u32,
        /// Why it would have been awarded.
        reason: ExpReason,
    },
    /// A job at level ≥ 1 levelled up (VE1-L5, VE2-T10).
    LevelUp {
        /// The job.
        job: String,
        /// Level before.
        from: u32,
        /// Level after.
        to: u32,
    },
    /// A job finished learning at 16 exp (VE1-L4, VE2-L1).
    LearningFinished {
        /// The job.
        job: String,
        /// Its new level.
        level: u32,
    },
    /// Edition 2: a job filled its 16-exp learning bar but the sheet has no
    /// tier, so its new level (the tier minimum, VE2-L1) waits for the tier
    /// to be set; setting it finishes the learning.
    LearningAwaitsTier {
        /// The job.
        job: String,
    },
    /// A job was added at level 0 to be learned (VE1-L1, VE2-L1).
    JobStarted {
        /// The job.
        job: String,
    },
    /// A Lot was gained.
    LotGained {
        /// Lots afterwards.
        lots_now: u32,
    },
    /// A Lot over the cap became +1 exp in a job (followed by its `ExpAwarded`/`ExpBlocked`).
    LotOverflowToExp {
        /// The job chosen.
        job: String,
    },
    /// A Lot over the cap was lost (`ve_lot_overflow = discard`).
    LotDiscarded,
    /// A Lot was spent.
    LotSpent {
        /// Lots afterwards.
        lots_now: u32,
    },
    /// A Lot spent earlier was given back (a voided task).
    LotRefunded {
        /// Lots afterwards.
        lots_now: u32,
    },
    /// Ego was gained.
    EgoGained,
    /// Ego was spent.
    EgoSpent,
    /// Ego spent earlier was given back (a voided task).
    EgoRefunded,
}

/// One job's exp bar: progress towards its next level.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct ExpBar {
    /// The job.
    pub job: String,
    /// Its current exp.
    pub exp: u32,
    /// Exp at which it levels up: 16 while learning, 2 × level (or the
    /// `fixed:N` value) otherwise; `None` when levels are manual.
    pub needed: Option<u32>,
}

/// A Venus Engine character sheet (spec §2.11).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct VenusSheet {
    /// The character's name.
    pub name: String,
    /// Tier (VE2-R1); optional in edition 1.
    pub tier: Option<Tier>,
    /// Abilities by name.
    pub abilities: BTreeMap<String, Ability>,
    /// Jobs by name.
    pub jobs: BTreeMap<String, Job>,
    /// Lots, 0..=10.
    pub lots: u32,
    /// Ego held.
    pub ego: bool,
    /// Lots earned this session (used by `ve_lot_overflow = per_session_count`).
    pub lots_earned_this_session: u32,
    /// Free-text attribute lists.
    #[serde(default)]
    pub attributes: Attributes,
    /// Insights.
    #[serde(default)]
    pub insights: Vec<Insight>,
    /// The next insight id to hand out.
    #[serde(default)]
    pub next_insight_id: u32,
    /// Special 1-beat secondary consequences (VE1-S6).
    #[serde(default)]
    pub custom_consequences: Vec<String>,
}

/// The sheets a check or task reads and changes, keyed by participant id
/// (the roller's and each ally's).
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct VenusCtx {
    /// Sheets by participant id.
    pub sheets: BTreeMap<i64, VenusSheet>,
}

impl VenusCtx {
    /// An empty context.
    pub fn new() -> Self {
        Self::default()
    }

    /// Adds or replaces the sheet of participant `id`.
    pub fn insert(&mut self, id: i64, sheet: VenusSheet) {
        self.sheets.insert(id, sheet);
    }

    /// The sheet of participant `id`, or an error saying it is missing.
    pub fn sheet(&self, id: i64) -> Result<&VenusSheet, RuleError> {
        self.sheets.get(&id).ok_or_else(|| {
            RuleError::new(format!("Participant {id} has no Venus character sheet."))
        })
    }

    /// The sheet of participant `id`, mutably, or an error saying it is missing.
    pub fn sheet_mut(&mut self, id: i64) -> Result<&mut VenusSheet, RuleError> {
        self.sheets.get_mut(&id).ok_or_else(|| {
            RuleError::new(format!("Participant {id} has no Venus character sheet."))
        })
    }
}

/// Case-insensitive name equality.
pub(crate) fn same(a: &str, b: &str) -> bool {
    a.trim().to_lowercase() == b.trim().to_lowercase()
}

/// Checks a name: non-empty after trimming, at most [`MAX_NAME_LEN`] characters.
pub(crate) fn clean_name(what: &str, name: &str) -> Result<String, RuleError> {
    let n = name.trim();
    if n.is_empty() {
        return Err(RuleError::new(format!("The {what} needs a name.")));
    }
    if n.chars().count() > MAX_NAME_LEN {
        return Err(RuleError::new(format!(
            "The {what} name is too long (at most {MAX_NAME_LEN} characters)."
        )));
    }
    Ok(n.to_string())
}

/// Checks a note or factor: non-empty after trimming, at most
/// [`MAX_NOTE_LEN`] characters.
pub(crate) fn clean_note(what: &str, text: &str) -> Result<String, RuleError> {
    let t = text.trim();
    if t.is_empty() {
        return Err(RuleError::new(format!("The {what} needs some text.")));
    }
    if t.chars().count() > MAX_NOTE_LEN {
        return Err(RuleError::new(format!(
            "The {what} is too long (at most {MAX_NOTE_LEN} characters)."
        )));
    }
    Ok(t.to_string())
}

/// Checks free text: at most [`MAX_TEXT_LEN`] characters, trimmed.
pub(crate) fn clean_text(what: &str, text: &str) -> Result<String, RuleError> {
    let t = text.trim();
    if t.chars().count() > MAX_TEXT_LEN {
        return Err(RuleError::new(format!(
            "The {what} is too long (at most {MAX_TEXT_LEN} characters)."
        )));
    }
    Ok(t.to_string())
}

fn find_key<'a, V>(map: &'a BTreeMap<String, V>, name: &str) -> Option<&'a String> {
    map.keys().find(|k| same(k, name))
}

/// One ability of a list typed in one line ([`parse_abilities`]).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct AbilityEntry {
    /// The entry as typed (trimmed), for errors.
    pub typed: String,
    /// The ability's name.
    pub name: String,
    /// Its rank.
    pub rank: Rank,
    /// Its score.
    pub score: u32,
}

/// Reads abilities typed in one line (`Finesse Gold 45, Might Si 30`,
/// issue 31): each entry a name, its rank (full or two letters, any case)
/// and its score, by the shared list parser ([`crate::rules::entries`]).
/// The first entry that does not read is named in the error.
pub fn parse_abilities(list: &str) -> Result<Vec<AbilityEntry>, RuleError> {
    crate::rules::entries::parse(list, "Finesse Gold 45")?
        .into_iter()
        .map(|e| {
            let (name, rank) = e
                .name
                .rsplit_once(char::is_whitespace)
                .map(|(n, r)| (n.trim(), r))
                .filter(|(n, _)| !n.is_empty())
                .ok_or_else(|| {
                    RuleError::new(format!(
                        "`{}`: give a rank before the score, like `Finesse Gold 45`.",
                        e.text()
                    ))
                })?;
            let rank: Rank = rank.parse().map_err(|err: RuleError| {
                RuleError::new(format!("`{}`: {}", e.text(), err.message))
            })?;
            Ok(AbilityEntry {
                typed: e.text(),
                name: name.to_string(),
                rank,
                score: e.value,
            })
        })
        .collect()
}

impl VenusSheet {
    /// A new sheet with the guild's starting Lots and Ego (VE1-R3, A-V8).
    pub fn new(name: &str, settings: &VenusSettings) -> Result<Self, RuleError> {
        Ok(Self {
            name: clean_name("character", name)?,
            tier: None,
            abilities: BTreeMap::new(),
            jobs: BTreeMap::new(),
            lots: settings.ve_starting_lots.min(MAX_LOTS),
            ego: settings.ve_starting_ego,
            lots_earned_this_session: 0,
            attributes: Attributes::default(),
            insights: Vec::new(),
            next_insight_id: 1,
            custom_consequences: Vec::new(),
        })
    }

    /// Sets the tier (VE2-R1). Breaking the tier minimums is allowed; see
    /// [`VenusSheet::tier_warnings`].
    pub fn set_tier(&mut self, tier: Option<Tier>) {
        self.tier = tier;
    }

    /// The ability named `name` (case-insensitive).
    pub fn ability(&self, name: &str) -> Option<&Ability> {
        find_key(&self.abilities, name).and_then(|k| self.abilities.get(k))
    }

    /// The stored spelling of ability `name` (case-insensitive).
    pub fn ability_key(&self, name: &str) -> Option<&str> {
        find_key(&self.abilities, name).map(String::as_str)
    }

    /// The job named `name` (case-insensitive).
    pub fn job(&self, name: &str) -> Option<&Job> {
        find_key(&self.jobs, name).and_then(|k| self.jobs.get(k))
    }

    /// The stored spelling of job `name` (case-insensitive).
    pub fn job_key(&self, name: &str) -> Option<&str> {
        find_key(&self.jobs, name).map(String::as_str)
    }

    /// The refusal of an ability this sheet does not have: it lists the
    /// abilities it has, the closest to `name` first, and the command that
    /// adds one.
    pub fn no_ability(&self, name: &str) -> RuleError {
        let have =
            crate::rules::names::closest_first(name, self.abilities.keys().map(String::as_str));
        let listed = if have.is_empty() {
            "It has no abilities yet".to_string()
        } else {
            format!("Its abilities: {have}")
        };
        RuleError::new(format!(
            "{} has no ability called {}. {listed}; add one with `/ve sheet ability`.",
            self.name,
            name.trim()
        ))
    }

    /// The refusal of a job this sheet does not have: it lists the jobs it
    /// has, the closest to `name` first, and the command that adds one.
    pub fn no_job(&self, name: &str) -> RuleError {
        let have = crate::rules::names::closest_first(name, self.jobs.keys().map(String::as_str));
        let listed = if have.is_empty() {
            "It has no jobs yet".to_string()
        } else {
            format!("Its jobs: {have}")
        };
        RuleError::new(format!(
            "{} has no job called {}. {listed}; add one with `/ve sheet job`.",
            self.name,
            name.trim()
        ))
    }

    fn job_mut(&mut self, name: &str) -> Result<(String, &mut Job), RuleError> {
        let key = find_key(&self.jobs, name)
            .cloned()
            .ok_or_else(|| self.no_job(name))?;
        let job = self.jobs.get_mut(&key).expect("key just found");
        Ok((key, job))
    }

    /// Sets every ability of a list typed in one line ([`parse_abilities`]),
    /// each checked as [`VenusSheet::set_ability`] checks one and none named
    /// twice: what was set (`Finesse Gold 45`), or why each refused entry
    /// was refused (the sheet is then to be dropped).
    pub fn set_abilities(
        &mut self,
        list: &[AbilityEntry],
        settings: &VenusSettings,
    ) -> Result<Vec<String>, Vec<String>> {
        let (mut given, mut seen, mut bad) = (Vec::new(), Vec::new(), Vec::new());
        for a in list {
            let (typed, ability, rank, score) = (&a.typed, a.name.as_str(), a.rank, a.score);
            let known = self.ability_key(ability).map(str::to_string);
            match known.filter(|k| seen.contains(k)) {
                Some(k) => bad.push(format!("`{typed}`: {k} is already in the list.")),
                None => match self.set_ability(ability, rank, score, settings) {
                    Ok(()) => {
                        let key = self.ability_key(ability).unwrap_or(ability).to_string();
                        given.push(format!("{key} {rank} {score}"));
                        seen.push(key);
                    }
                    Err(e) => bad.push(format!("`{typed}`: {}", e.message)),
                },
            }
        }
        if bad.is_empty() {
            Ok(given)
        } else {
            Err(bad)
        }
    }

    /// Adds an ability or edits an existing one (VE-1, VE-2): the score may
    /// not exceed `ve_max_score`.
    pub fn set_ability(
        &mut self,
        name: &str,
        rank: Rank,
        score: u32,
        settings: &VenusSettings,
    ) -> Result<(), RuleError> {
        let name = clean_name("ability", name)?;
        if score > settings.ve_max_score {
            return Err(RuleError::new(format!(
                "An ability score can be at most {} in this guild.",
                settings.ve_max_score
            )));
        }
        let key = match find_key(&self.abilities, &name) {
            Some(k) => k.clone(),
            None => {
                if self.abilities.len() >= MAX_ENTRIES {
                    return Err(RuleError::new(format!(
                        "A sheet can hold at most {MAX_ENTRIES} abilities."
                    )));
                }
                name
            }
        };
        self.abilities.insert(key, Ability { rank, score });
        Ok(())
    }

    /// Removes an ability; refused while a job inherits it.
    pub fn remove_ability(&mut self, name: &str) -> Result<(), RuleError> {
        let key = find_key(&self.abilities, name)
            .cloned()
            .ok_or_else(|| self.no_ability(name))?;
        if let Some((job, _)) = self.jobs.iter().find(|(_, j)| j.inherits_ability(&key)) {
            return Err(RuleError::new(format!(
                "The job {job} inherits {key}: change or remove that job first."
            )));
        }
        self.abilities.remove(&key);
        Ok(())
    }

    /// Adds a job (VE-3) inheriting 1-2 of the sheet's abilities. Level 0
    /// means it is being learned (VE1-L1, VE2-L1); otherwise 1..=[`MAX_LEVEL`].
    pub fn add_job(
        &mut self,
        name: &str,
        inherits: &[String],
        level: u32,
    ) -> Result<(), RuleError> {
        let name = clean_name("job", name)?;
        if find_key(&self.jobs, &name).is_some() {
            return Err(RuleError::new(format!(
                "{} already has the job {name}.",
                self.name
            )));
        }
        if self.jobs.len() >= MAX_ENTRIES {
            return Err(RuleError::new(format!(
                "A sheet can hold at most {MAX_ENTRIES} jobs."
            )));
        }
        let inherits = self.check_inherits(inherits)?;
        if level > MAX_LEVEL {
            return Err(RuleError::new(format!(
                "A job level can be at most {MAX_LEVEL}."
            )));
        }
        self.jobs.insert(
            name,
            Job {
                level,
                exp: 0,
                inherits,
                learning: level == 0,
                qualifications_met: true,
            },
        );
        Ok(())
    }

    /// Starts learning a job: level 0, exp 0, marked learning (VE1-L1, VE2-L1).
    pub fn start_learning(&mut self, name: &str, inherits: &[String]) -> Result<(), RuleError> {
        self.add_job(name, inherits, 0)
    }

    fn check_inherits(&self, inherits: &[String]) -> Result<Vec<String>, RuleError> {
        if inherits.is_empty() || inherits.len() > 2 {
            return Err(RuleError::new("A job inherits one or two abilities."));
        }
        let mut out: Vec<String> = Vec::new();
        for a in inherits {
            let key = self.ability_key(a).ok_or_else(|| self.no_ability(a))?;
            if out.iter().any(|o| same(o, key)) {
                return Err(RuleError::new(
                    "A job cannot inherit the same ability twice.",
                ));
            }
            out.push(key.to_string());
        }
        Ok(out)
    }

    /// Changes which 1-2 abilities a job inherits.
    pub fn set_job_inherits(&mut self, name: &str, inherits: &[String]) -> Result<(), RuleError> {
        let inherits = self.check_inherits(inherits)?;
        let (_, job) = self.job_mut(name)?;
        job.inherits = inherits;
        Ok(())
    }

    /// GM edit of a job's level. Level 0 puts the job back into learning.
    pub fn set_job_level(&mut self, name: &str, level: u32) -> Result<(), RuleError> {
        if level > MAX_LEVEL {
            return Err(RuleError::new(format!(
                "A job level can be at most {MAX_LEVEL}."
            )));
        }
        let (_, job) = self.job_mut(name)?;
        job.level = level;
        job.learning = level == 0;
        Ok(())
    }

    /// GM edit of a job's exp counter (no level-up is applied).
    pub fn set_job_exp(&mut self, name: &str, exp: u32) -> Result<(), RuleError> {
        if exp > 10_000 {
            return Err(RuleError::new("Exp can be at most 10000."));
        }
        let (_, job) = self.job_mut(name)?;
        job.exp = exp;
        Ok(())
    }

    /// Marks a job's special qualifications as met or not (A-V32).
    pub fn set_qualifications_met(&mut self, name: &str, met: bool) -> Result<(), RuleError> {
        let (_, job) = self.job_mut(name)?;
        job.qualifications_met = met;
        Ok(())
    }

    /// Removes a job.
    pub fn remove_job(&mut self, name: &str) -> Result<(), RuleError> {
        let (key, _) = self.job_mut(name)?;
        self.jobs.remove(&key);
        Ok(())
    }

    /// Jobs that inherit `ability`, with their level (the jobs usable for a
    /// task on it, VE-3, learning ones included).
    pub fn jobs_for(&self, ability: &str) -> Vec<(String, u32)> {
        self.jobs
            .iter()
            .filter(|(_, j)| j.inherits_ability(ability))
            .map(|(k, j)| (k.clone(), j.level))
            .collect()
    }

    /// The jobs that can aid a task on `ability`, with their level: level
    /// 1 or more, not being learned, inheriting it (VE1-T3, VE2-T3).
    pub fn aid_jobs(&self, ability: &str) -> Vec<(String, u32)> {
        self.jobs
            .iter()
            .filter(|(_, j)| j.level >= 1 && !j.learning && j.inherits_ability(ability))
            .map(|(k, j)| (k.clone(), j.level))
            .collect()
    }

    /// The job a task on `ability` uses unless one is named: the highest
    /// level among the jobs that inherit it (VE-3), learning jobs last.
    pub fn best_job(&self, ability: &str) -> Option<&str> {
        self.jobs
            .iter()
            .filter(|(_, j)| j.inherits_ability(ability))
            .max_by_key(|(_, j)| (!j.learning, j.level))
            .map(|(k, _)| k.as_str())
    }

    /// The exp at which `job` next changes level: 16 while learning; from
    /// level 1, 2 × level (VE2-T10, and VE1 `2×level`), N for VE1 `fixed:N`,
    /// `None` for VE1 `manual`.
    pub fn exp_needed(job: &Job, settings: &VenusSettings) -> Option<u32> {
        if job.learning || job.level == 0 {
            return Some(LEARNING_EXP);
        }
        let twice = job.level.saturating_mul(2);
        match settings.ve_edition {
            Edition::Two => Some(twice),
            Edition::One => match settings.ve1_levelup_rule {
                LevelUpRule::TwiceLevel => Some(twice),
                LevelUpRule::Fixed(n) => Some(n),
                LevelUpRule::Manual => None,
            },
        }
    }

    /// The exp bar of every job, in name order.
    pub fn exp_bars(&self, settings: &VenusSettings) -> Vec<ExpBar> {
        self.jobs
            .iter()
            .map(|(k, j)| ExpBar {
                job: k.clone(),
                exp: j.exp,
                needed: Self::exp_needed(j, settings),
            })
            .collect()
    }

    /// Adds exp to a job without checking level-ups (the task close adds
    /// every award first, then levels up, VE1-T8). A job with unmet
    /// qualifications earns nothing (A-V32): the event is `ExpBlocked`.
    pub fn add_exp(
        &mut self,
        job: &str,
        amount: u32,
        reason: ExpReason,
    ) -> Result<SheetEvent, RuleError> {
        let (key, j) = self.job_mut(job)?;
        if !j.qualifications_met {
            return Ok(SheetEvent::ExpBlocked {
                job: key,
                amount,
                reason,
            });
        }
        j.exp = j.exp.saturating_add(amount);
        Ok(SheetEvent::ExpAwarded {
            job: key,
            amount,
            reason,
            exp_now: j.exp,
        })
    }

    /// Applies at most one level change to `job`:
    /// * learning (level 0) with exp ≥ 16: exp 0, learning cleared, level =
    ///   the lower inherited score (VE1-L4, at least 1) or the tier minimum
    ///   (VE2-L1; Historic when no tier is set);
    /// * level ≥ 1 with exp ≥ the bar ([`VenusSheet::exp_needed`]): exp 0,
    ///   level + 1 (VE1-L5, VE2-T10). The 2 × level rule never applies at
    ///   level 0 (A-V6).
    pub fn apply_level_up(
        &mut self,
        job: &str,
        settings: &VenusSettings,
    ) -> Result<Option<SheetEvent>, RuleError> {
        let lower_score = {
            let (_, j) = self.job_mut(job)?;
            let inherits = j.inherits.clone();
            inherits
                .iter()
                .filter_map(|a| self.ability(a).map(|x| x.score))
                .min()
                .unwrap_or(0)
        };
        let tier = self.tier;
        let (key, j) = self.job_mut(job)?;
        let needed = Self::exp_needed(j, settings);
        let Some(needed) = needed else {
            return Ok(None);
        };
        if j.exp < needed {
            return Ok(None);
        }
        if j.learning || j.level == 0 {
            let level = match (settings.ve_edition, tier) {
                (Edition::One, _) => lower_score.clamp(1, MAX_LEVEL),
                (Edition::Two, Some(t)) => t.min_job_level(),
                (Edition::Two, None) => {
                    return Ok(Some(SheetEvent::LearningAwaitsTier { job: key }))
                }
            };
            j.exp = 0;
            j.learning = false;
            j.level = level;
            Ok(Some(SheetEvent::LearningFinished { job: key, level }))
        } else {
            let from = j.level;
            j.exp = 0;
            j.level = j.level.saturating_add(1).min(MAX_LEVEL);
            Ok(Some(SheetEvent::LevelUp {
                job: key,
                from,
                to: j.level,
            }))
        }
    }

    /// Finishes every job whose learning bar is full and that waited for a
    /// tier (edition 2, [`SheetEvent::LearningAwaitsTier`]); call it once
    /// the tier is set.
    pub fn finish_waiting_learning(
        &mut self,
        settings: &VenusSettings,
    ) -> Result<Vec<SheetEvent>, RuleError> {
        let waiting: Vec<String> = self
            .jobs
            .iter()
            .filter(|(_, j)| (j.learning || j.level == 0) && j.exp >= LEARNING_EXP)
            .map(|(k, _)| k.clone())
            .collect();
        let mut events = Vec::new();
        for job in waiting {
            events.extend(self.apply_level_up(&job, settings)?);
        }
        Ok(events)
    }

    /// Adds exp and then applies a level-up if due.
    pub fn award_exp(
        &mut self,
        job: &str,
        amount: u32,
        reason: ExpReason,
        settings: &VenusSettings,
    ) -> Result<Vec<SheetEvent>, RuleError> {
        self.job_mut(job)?;
        let mut events = vec![self.add_exp(job, amount, reason)?];
        events.extend(self.apply_level_up(job, settings)?);
        Ok(events)
    }

    /// Whether `job` can receive overflow exp (exists and qualifications met).
    pub fn can_take_overflow(&self, job: &str) -> bool {
        self.job(job).is_some_and(|j| j.qualifications_met)
    }

    /// How many of `n` Lots granted now would overflow under `settings`.
    pub fn overflow_count(&self, n: u32, settings: &VenusSettings) -> u32 {
        let mut lots = self.lots;
        let mut session = self.lots_earned_this_session;
        let mut over = 0;
        for _ in 0..n {
            session = session.saturating_add(1);
            let converts = match settings.ve_lot_overflow {
                LotOverflow::ConvertAtCap | LotOverflow::Discard => lots >= MAX_LOTS,
                LotOverflow::PerSessionCount => session > MAX_LOTS || lots >= MAX_LOTS,
            };
            if converts {
                over += 1;
            } else {
                lots += 1;
            }
        }
        over
    }

    /// Grants `n` Lots (VE1-R1): each Lot that cannot be held becomes +1 exp
    /// in `overflow_job` (then level-ups apply), or is lost under `discard`.
    /// When a Lot would become exp, `overflow_job` must name a job whose
    /// qualifications are met (A-V7, A-V32).
    pub fn grant_lots(
        &mut self,
        n: u32,
        settings: &VenusSettings,
        overflow_job: Option<&str>,
    ) -> Result<Vec<SheetEvent>, RuleError> {
        if n > MAX_LOTS * 10 {
            return Err(RuleError::new("That is too many Lots to grant at once."));
        }
        let over = self.overflow_count(n, settings);
        let converting = over > 0 && settings.ve_lot_overflow != LotOverflow::Discard;
        let job = if converting {
            let job = overflow_job.ok_or_else(|| {
                RuleError::new(format!(
                    "{} already holds {MAX_LOTS} Lots: choose a job to receive the extra as exp.",
                    self.name
                ))
            })?;
            let Some(key) = self.job_key(job).map(str::to_string) else {
                return Err(self.no_job(job));
            };
            if !self.can_take_overflow(&key) {
                return Err(RuleError::new(format!(
                    "{key} cannot earn exp until its qualifications are met: choose another job."
                )));
            }
            Some(key)
        } else {
            None
        };
        let mut events = Vec::new();
        for _ in 0..n {
            self.lots_earned_this_session = self.lots_earned_this_session.saturating_add(1);
            let converts = match settings.ve_lot_overflow {
                LotOverflow::ConvertAtCap | LotOverflow::Discard => self.lots >= MAX_LOTS,
                LotOverflow::PerSessionCount => {
                    self.lots_earned_this_session > MAX_LOTS || self.lots >= MAX_LOTS
                }
            };
            if !converts {
                self.lots += 1;
                events.push(SheetEvent::LotGained {
                    lots_now: self.lots,
                });
            } else if let Some(job) = &job {
                events.push(SheetEvent::LotOverflowToExp { job: job.clone() });
                events.push(self.add_exp(job, 1, ExpReason::LotOverflow)?);
            } else {
                events.push(SheetEvent::LotDiscarded);
            }
        }
        if let Some(job) = &job {
            events.extend(self.apply_level_up(job, settings)?);
        }
        Ok(events)
    }

    /// Spends `n` Lots; refused when the sheet holds fewer.
    pub fn take_lots(&mut self, n: u32) -> Result<Vec<SheetEvent>, RuleError> {
        if n > self.lots {
            return Err(RuleError::new(if self.lots == 0 {
                format!("{} has no Lots left to spend.", self.name)
            } else {
                format!("{} has only {} Lots, not {n}.", self.name, self.lots)
            }));
        }
        let mut events = Vec::new();
        for _ in 0..n {
            self.lots -= 1;
            events.push(SheetEvent::LotSpent {
                lots_now: self.lots,
            });
        }
        Ok(events)
    }

    /// Gives back `n` Lots spent in a voided task, up to the cap (no overflow).
    pub fn refund_lots(&mut self, n: u32) -> Vec<SheetEvent> {
        let mut events = Vec::new();
        for _ in 0..n {
            if self.lots >= MAX_LOTS {
                break;
            }
            self.lots += 1;
            events.push(SheetEvent::LotRefunded {
                lots_now: self.lots,
            });
        }
        events
    }

    /// Gives back Ego spent in a voided task (nothing if Ego is held again).
    pub fn refund_ego(&mut self) -> Option<SheetEvent> {
        if self.ego {
            return None;
        }
        self.ego = true;
        Some(SheetEvent::EgoRefunded)
    }

    /// GM edit of the Lots counter, 0..=10.
    pub fn set_lots(&mut self, lots: u32) -> Result<(), RuleError> {
        if lots > MAX_LOTS {
            return Err(RuleError::new(format!("Lots run from 0 to {MAX_LOTS}.")));
        }
        self.lots = lots;
        Ok(())
    }

    /// Starts a new play session: clears the per-session Lot count (`per_session_count`).
    pub fn start_session(&mut self) {
        self.lots_earned_this_session = 0;
    }

    /// Grants Ego (VE1-R2); refused when already held.
    pub fn grant_ego(&mut self) -> Result<SheetEvent, RuleError> {
        if self.ego {
            return Err(RuleError::new(format!("{} already holds Ego.", self.name)));
        }
        self.ego = true;
        Ok(SheetEvent::EgoGained)
    }

    /// Spends Ego (VE1-R2); refused when not held.
    pub fn spend_ego(&mut self) -> Result<SheetEvent, RuleError> {
        if !self.ego {
            return Err(RuleError::new(format!("{} does not hold Ego.", self.name)));
        }
        self.ego = false;
        Ok(SheetEvent::EgoSpent)
    }

    /// Adds a free-text attribute entry (VE-7).
    pub fn add_attribute(&mut self, kind: AttributeKind, text: &str) -> Result<(), RuleError> {
        let text = clean_note("attribute", text)?;
        let list = self.attributes.list_mut(kind);
        if list.len() >= MAX_ENTRIES {
            return Err(RuleError::new(format!(
                "A list can hold at most {MAX_ENTRIES} entries."
            )));
        }
        list.push(text);
        Ok(())
    }

    /// Removes the attribute entry at `index` (0-based) from its list.
    pub fn remove_attribute(
        &mut self,
        kind: AttributeKind,
        index: usize,
    ) -> Result<String, RuleError> {
        let list = self.attributes.list_mut(kind);
        if index >= list.len() {
            return Err(RuleError::new("There is no attribute at that position."));
        }
        Ok(list.remove(index))
    }

    /// Adds an insight and returns its id.
    pub fn add_insight(&mut self, text: &str, approved: bool) -> Result<u32, RuleError> {
        let text = clean_text("insight", text)?;
        if text.is_empty() {
            return Err(RuleError::new("An insight needs some text."));
        }
        if self.insights.len() >= MAX_ENTRIES {
            return Err(RuleError::new(format!(
                "A sheet can hold at most {MAX_ENTRIES} insights."
            )));
        }
        if self.insights.iter().any(|i| same(&i.text, &text)) {
            return Err(RuleError::new("That insight is already on the sheet."));
        }
        let id = self.next_insight_id.max(1);
        self.next_insight_id = id.saturating_add(1);
        self.insights.push(Insight { id, text, approved });
        Ok(id)
    }

    /// Marks an insight as Peer-approved (or not).
    pub fn approve_insight(&mut self, id: u32, approved: bool) -> Result<(), RuleError> {
        let i = self
            .insights
            .iter_mut()
            .find(|i| i.id == id)
            .ok_or_else(|| RuleError::new(format!("There is no insight number {id}.")))?;
        i.approved = approved;
        Ok(())
    }

    /// Removes an insight.
    pub fn remove_insight(&mut self, id: u32) -> Result<(), RuleError> {
        let before = self.insights.len();
        self.insights.retain(|i| i.id != id);
        if self.insights.len() == before {
            return Err(RuleError::new(format!("There is no insight number {id}.")));
        }
        Ok(())
    }

    /// The insight whose text is `text` (case-insensitive) or whose id is `text`.
    pub fn find_insight(&self, text: &str) -> Option<&Insight> {
        let t = text.trim();
        let by_id = t.trim_start_matches('#').parse::<u32>().ok();
        self.insights
            .iter()
            .find(|i| Some(i.id) == by_id || same(&i.text, t))
    }

    /// Adds a special 1-beat secondary consequence (VE1-S6).
    pub fn add_custom_consequence(&mut self, text: &str) -> Result<(), RuleError> {
        let text = clean_text("consequence", text)?;
        if text.is_empty() {
            return Err(RuleError::new("A consequence needs some text."));
        }
        if self.custom_consequences.len() >= MAX_ENTRIES {
            return Err(RuleError::new(format!(
                "A sheet can hold at most {MAX_ENTRIES} custom consequences."
            )));
        }
        self.custom_consequences.push(text);
        Ok(())
    }

    /// Removes the custom consequence at `index` (0-based).
    pub fn remove_custom_consequence(&mut self, index: usize) -> Result<String, RuleError> {
        if index >= self.custom_consequences.len() {
            return Err(RuleError::new(
                "There is no custom consequence at that position.",
            ));
        }
        Ok(self.custom_consequences.remove(index))
    }

    /// Warnings (never errors) for sheet values below the tier minimums
    /// (VE2-R1): job levels (learning jobs excepted) and ability ranks.
    pub fn tier_warnings(&self) -> Vec<String> {
        let Some(tier) = self.tier else {
            return Vec::new();
        };
        let mut out = Vec::new();
        for (name, j) in &self.jobs {
            if !j.learning && j.level < tier.min_job_level() {
                out.push(format!(
                    "The job {name} is level {}, below the {tier} minimum of {}.",
                    j.level,
                    tier.min_job_level()
                ));
            }
        }
        for (name, a) in &self.abilities {
            if a.rank < tier.min_rank() {
                out.push(format!(
                    "The ability {name} is {}, below the {tier} minimum of {}.",
                    a.rank,
                    tier.min_rank()
                ));
            }
        }
        out
    }

    /// Checks every invariant (for a sheet read from storage, edited by
    /// hand or imported): the same checks as the sheet commands, each error
    /// naming its field ([`RuleError::field`], e.g. `abilities["Wits"].score`).
    pub fn validate(&self, settings: &VenusSettings) -> Result<(), RuleError> {
        clean_name("character", &self.name).map_err(|e| e.at("name"))?;
        if self.lots > MAX_LOTS {
            return Err(
                RuleError::new(format!("{} is above the maximum {MAX_LOTS}.", self.lots))
                    .at("lots"),
            );
        }
        for (field, len) in [
            ("abilities", self.abilities.len()),
            ("jobs", self.jobs.len()),
        ] {
            if len > MAX_ENTRIES {
                return Err(RuleError::new(format!(
                    "A sheet can hold at most {MAX_ENTRIES} abilities and jobs ({len} here)."
                ))
                .at(field));
            }
        }
        for (name, a) in &self.abilities {
            let at = |field: &str| format!("abilities[{name:?}]{field}");
            clean_name("ability", name).map_err(|e| e.at(at("")))?;
            if a.score > settings.ve_max_score {
                return Err(RuleError::new(format!(
                    "The ability {name} has score {}, above the guild's maximum of {}.",
                    a.score, settings.ve_max_score
                ))
                .at(at(".score")));
            }
        }
        self.validate_jobs()?;
        self.validate_lists()
    }

    /// Each job: its name, level, learning flag and the abilities it
    /// inherits (one or two, on the sheet).
    fn validate_jobs(&self) -> Result<(), RuleError> {
        for (name, j) in &self.jobs {
            let at = |field: &str| format!("jobs[{name:?}]{field}");
            clean_name("job", name).map_err(|e| e.at(at("")))?;
            if j.level > MAX_LEVEL {
                return Err(
                    RuleError::new(format!("The job {name} is above level {MAX_LEVEL}."))
                        .at(at(".level")),
                );
            }
            if j.learning != (j.level == 0) {
                return Err(RuleError::new(format!(
                    "The job {name} must be learning exactly when it is at level 0."
                ))
                .at(at(".learning")));
            }
            if j.inherits.is_empty() || j.inherits.len() > 2 {
                return Err(RuleError::new(format!(
                    "The job {name} must inherit one or two abilities."
                ))
                .at(at(".inherits")));
            }
            if let Some(a) = j.inherits.iter().find(|a| self.ability(a).is_none()) {
                return Err(RuleError::new(format!(
                    "The job {name} inherits {a}, which is not on the sheet."
                ))
                .at(at(".inherits")));
            }
        }
        Ok(())
    }

    /// The attribute lists, custom consequences and insights: their
    /// lengths and texts.
    fn validate_lists(&self) -> Result<(), RuleError> {
        let lists = [
            ("attributes.assets", &self.attributes.assets),
            ("attributes.features", &self.attributes.features),
            ("attributes.merits", &self.attributes.merits),
            ("attributes.disciplines", &self.attributes.disciplines),
            ("attributes.specialties", &self.attributes.specialties),
            ("attributes.lifepaths", &self.attributes.lifepaths),
            ("attributes.principles", &self.attributes.principles),
            ("custom_consequences", &self.custom_consequences),
        ];
        for (field, list) in lists {
            if list.len() > MAX_ENTRIES {
                return Err(RuleError::new(format!(
                    "A list can hold at most {MAX_ENTRIES} entries ({} here).",
                    list.len()
                ))
                .at(field));
            }
            for (i, text) in list.iter().enumerate() {
                let checked = if field == "custom_consequences" {
                    clean_text("consequence", text)
                } else {
                    clean_note("attribute", text)
                };
                checked.map_err(|e| e.at(format!("{field}[{i}]")))?;
            }
        }
        if self.insights.len() > MAX_ENTRIES {
            return Err(RuleError::new(format!(
                "A sheet can hold at most {MAX_ENTRIES} insights ({} here).",
                self.insights.len()
            ))
            .at("insights"));
        }
        for (i, insight) in self.insights.iter().enumerate() {
            clean_text("insight", &insight.text)
                .map_err(|e| e.at(format!("insights[{i}].text")))?;
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn validate_names_the_field_of_each_broken_check() {
        let set = VenusSettings::default();
        let good = sheet(&set);
        assert!(good.validate(&set).is_ok());
        let field = |s: &VenusSheet| s.validate(&set).unwrap_err().field.unwrap();

        let mut s = good.clone();
        s.lots = MAX_LOTS + 1;
        let e = s.validate(&set).unwrap_err();
        assert_eq!(e.to_string(), "lots: 11 is above the maximum 10.");

        let mut s = good.clone();
        s.abilities.get_mut("Wits").unwrap().score = set.ve_max_score + 1;
        assert_eq!(field(&s), "abilities[\"Wits\"].score");

        let mut s = good.clone();
        s.jobs.get_mut("Thief").unwrap().inherits = vec!["Nothing".into()];
        assert_eq!(field(&s), "jobs[\"Thief\"].inherits");

        let mut s = good.clone();
        s.attributes.assets = vec!["x".repeat(MAX_NOTE_LEN + 1)];
        assert_eq!(field(&s), "attributes.assets[0]");

        let mut s = good.clone();
        s.custom_consequences = vec!["c".into(); MAX_ENTRIES + 1];
        assert_eq!(field(&s), "custom_consequences");

        let mut s = good.clone();
        s.name = String::new();
        assert_eq!(field(&s), "name");

        let mut s = good;
        s.insights.push(Insight {
            id: 1,
            text: "i".repeat(MAX_TEXT_LEN + 1),
            approved: false,
        });
        assert_eq!(field(&s), "insights[0].text");
    }

    fn s1() -> VenusSettings {
        VenusSettings {
            ve_edition: Edition::One,
            ..VenusSettings::default()
        }
    }

    fn sheet(settings: &VenusSettings) -> VenusSheet {
        let mut s = VenusSheet::new("Ada", settings).unwrap();
        s.set_ability("Finesse", Rank::Silver, 4, settings).unwrap();
        s.set_ability("Wits", Rank::Gold, 6, settings).unwrap();
        s.add_job("Thief", &["Finesse".into(), "Wits".into()], 2)
            .unwrap();
        s
    }

    #[test]
    fn ve_2_scores_are_capped_by_ve_max_score() {
        let set = VenusSettings::default();
        let mut s = sheet(&set);
        assert!(s.set_ability("Resolve", Rank::Bronze, 11, &set).is_err());
        s.set_ability("resolve", Rank::Bronze, 10, &set).unwrap();
        s.set_ability("RESOLVE", Rank::Silver, 3, &set).unwrap();
        assert_eq!(s.abilities.len(), 3);
        assert_eq!(
            s.ability("Resolve"),
            Some(&Ability {
                rank: Rank::Silver,
                score: 3
            })
        );
    }

    #[test]
    fn ve_3_jobs_inherit_one_or_two_existing_abilities() {
        let set = VenusSettings::default();
        let mut s = sheet(&set);
        assert!(s.add_job("Spy", &[], 1).is_err());
        assert!(s
            .add_job("Spy", &["Wits".into(), "Finesse".into(), "Wits".into()], 1)
            .is_err());
        assert!(s.add_job("Spy", &["Charm".into()], 1).is_err());
        assert!(s
            .add_job("Spy", &["Wits".into(), "wits".into()], 1)
            .is_err());
        assert!(s.add_job("thief", &["Wits".into()], 1).is_err());
        s.add_job("Spy", &["wits".into()], 1).unwrap();
        assert_eq!(s.job("SPY").unwrap().inherits, vec!["Wits".to_string()]);
        assert_eq!(s.jobs_for("Finesse"), [("Thief".to_string(), 2)]);
        s.start_learning("Acrobat", &["Finesse".into()]).unwrap();
        let learning = ("Acrobat".to_string(), 0);
        assert_eq!(s.jobs_for("finesse"), [learning, ("Thief".into(), 2)]);
        assert!(s.remove_ability("Wits").is_err());
    }

    #[test]
    fn ve_3_a_task_uses_the_highest_job_inheriting_its_ability() {
        let set = VenusSettings::default();
        let mut s = sheet(&set);
        s.start_learning("Acrobat", &["Finesse".into()]).unwrap();
        assert_eq!(s.best_job("finesse"), Some("Thief"));
        s.add_job("Burglar", &["Finesse".into()], 3).unwrap();
        assert_eq!(s.best_job("Finesse"), Some("Burglar"));
        s.remove_job("Burglar").unwrap();
        s.remove_job("Thief").unwrap();
        assert_eq!(s.best_job("Finesse"), Some("Acrobat"));
        assert_eq!(s.best_job("Wits"), None);
    }

    #[test]
    fn ve1_l1_new_job_starts_learning_at_level_0() {
        let set = s1();
        let mut s = sheet(&set);
        s.start_learning("Sailor", &["Finesse".into()]).unwrap();
        let j = s.job("Sailor").unwrap();
        assert_eq!(
            (j.level, j.exp, j.learning, j.qualifications_met),
            (0, 0, true, true)
        );
    }

    #[test]
    fn ve1_l4_learning_finishes_at_16_with_lower_inherited_score() {
        let set = s1();
        let mut s = sheet(&set);
        s.start_learning("Scout", &["Finesse".into(), "Wits".into()])
            .unwrap();
        s.set_job_exp("Scout", 15).unwrap();
        let ev = s.award_exp("Scout", 1, ExpReason::Learning, &set).unwrap();
        assert_eq!(
            ev[1],
            SheetEvent::LearningFinished {
                job: "Scout".into(),
                level: 4
            }
        );
        let j = s.job("Scout").unwrap();
        assert_eq!((j.level, j.exp, j.learning), (4, 0, false));
    }

    #[test]
    fn a_v28_single_inherited_ability_is_used_for_learning_level() {
        let set = s1();
        let mut s = sheet(&set);
        s.start_learning("Sage", &["Wits".into()]).unwrap();
        s.set_job_exp("Sage", 16).unwrap();
        s.apply_level_up("Sage", &set).unwrap();
        assert_eq!(s.job("Sage").unwrap().level, 6);
    }

    #[test]
    fn ve1_l5_levelup_rule_two_times_level_fixed_and_manual() {
        let mut set = s1();
        let mut s = sheet(&set);
        s.set_job_exp("Thief", 3).unwrap();
        assert_eq!(s.apply_level_up("Thief", &set).unwrap(), None);
        let ev = s.award_exp("Thief", 1, ExpReason::Failure, &set).unwrap();
        assert_eq!(
            ev[1],
            SheetEvent::LevelUp {
                job: "Thief".into(),
                from: 2,
                to: 3
            }
        );
        assert_eq!(s.job("Thief").unwrap().exp, 0);
        set.set("ve1_levelup_rule", "fixed:2").unwrap();
        s.award_exp("Thief", 2, ExpReason::Failure, &set).unwrap();
        assert_eq!(s.job("Thief").unwrap().level, 4);
        set.set("ve1_levelup_rule", "manual").unwrap();
        s.award_exp("Thief", 50, ExpReason::Manual, &set).unwrap();
        assert_eq!(
            (s.job("Thief").unwrap().level, s.job("Thief").unwrap().exp),
            (4, 50)
        );
        assert_eq!(s.exp_bars(&set)[0].needed, None);
    }

    #[test]
    fn ve2_t10_level_up_at_twice_level() {
        let set = VenusSettings::default();
        let mut s = sheet(&set);
        s.award_exp("Thief", 3, ExpReason::Failure, &set).unwrap();
        assert_eq!(s.job("Thief").unwrap().level, 2);
        let ev = s.award_exp("Thief", 1, ExpReason::Failure, &set).unwrap();
        assert!(matches!(ev[1], SheetEvent::LevelUp { from: 2, to: 3, .. }));
    }

    #[test]
    fn ve2_l1_learning_finishes_at_tier_minimum() {
        let set = VenusSettings::default();
        let mut s = sheet(&set);
        s.set_tier(Some(Tier::Mythic));
        s.start_learning("Mage", &["Wits".into()]).unwrap();
        s.set_job_exp("Mage", 15).unwrap();
        let ev = s.award_exp("Mage", 1, ExpReason::Learning, &set).unwrap();
        assert_eq!(
            ev[1],
            SheetEvent::LearningFinished {
                job: "Mage".into(),
                level: 3
            }
        );
    }

    #[test]
    fn ve2_l1_learning_without_a_tier_waits_for_the_tier() {
        let set = VenusSettings::default();
        let mut s = sheet(&set);
        s.start_learning("Mage", &["Wits".into()]).unwrap();
        s.set_job_exp("Mage", 15).unwrap();
        let ev = s.award_exp("Mage", 1, ExpReason::Learning, &set).unwrap();
        assert_eq!(ev[1], SheetEvent::LearningAwaitsTier { job: "Mage".into() });
        let j = s.job("Mage").unwrap();
        assert_eq!((j.level, j.exp, j.learning), (0, 16, true));
        s.set_tier(Some(Tier::Heroic));
        assert_eq!(
            s.finish_waiting_learning(&set).unwrap(),
            vec![SheetEvent::LearningFinished {
                job: "Mage".into(),
                level: 2
            }]
        );
        let j = s.job("Mage").unwrap();
        assert_eq!((j.level, j.exp, j.learning), (2, 0, false));
        assert!(s.finish_waiting_learning(&set).unwrap().is_empty());
    }

    #[test]
    fn a_v6_two_times_level_never_applies_at_level_0() {
        let set = VenusSettings::default();
        let mut s = sheet(&set);
        s.start_learning("Mage", &["Wits".into()]).unwrap();
        assert_eq!(s.apply_level_up("Mage", &set).unwrap(), None);
        s.award_exp("Mage", 1, ExpReason::Learning, &set).unwrap();
        assert_eq!(s.job("Mage").unwrap().level, 0);
        assert_eq!(
            s.exp_bars(&set)[0],
            ExpBar {
                job: "Mage".into(),
                exp: 1,
                needed: Some(16)
            }
        );
    }

    #[test]
    fn a_v32_unmet_qualifications_block_all_exp() {
        let set = VenusSettings::default();
        let mut s = sheet(&set);
        s.set_qualifications_met("Thief", false).unwrap();
        let ev = s.award_exp("Thief", 1, ExpReason::Failure, &set).unwrap();
        assert!(matches!(ev[0], SheetEvent::ExpBlocked { amount: 1, .. }));
        assert_eq!(s.job("Thief").unwrap().exp, 0);
        s.lots = 10;
        assert!(s.grant_lots(1, &set, Some("Thief")).is_err());
    }

    #[test]
    fn exp_bars_follow_rules() {
        let set = s1();
        let mut s = sheet(&set);
        s.start_learning("Mage", &["Wits".into()]).unwrap();
        let bars = s.exp_bars(&set);
        assert_eq!(bars[0].needed, Some(16));
        assert_eq!(
            bars[1],
            ExpBar {
                job: "Thief".into(),
                exp: 0,
                needed: Some(4)
            }
        );
    }

    #[test]
    fn ve_6_lots_and_ego() {
        let set = VenusSettings::default();
        let mut s = sheet(&set);
        assert_eq!((s.lots, s.ego), (10, false));
        s.take_lots(10).unwrap();
        let e = s.take_lots(1).unwrap_err();
        assert_eq!(e.message, "Ada has no Lots left to spend.");
        assert!(s.set_lots(11).is_err());
        assert!(s.spend_ego().is_err());
        s.grant_ego().unwrap();
        assert!(s.grant_ego().is_err());
        assert_eq!(s.spend_ego().unwrap(), SheetEvent::EgoSpent);
        assert!(!s.ego);
    }

    #[test]
    fn ve1_r1_lot_overflow_converts_at_cap_into_chosen_job() {
        let set = s1();
        let mut s = sheet(&set);
        s.lots = 9;
        assert!(s.grant_lots(2, &set, None).is_err());
        assert_eq!(s.lots, 9);
        let ev = s.grant_lots(2, &set, Some("thief")).unwrap();
        assert_eq!(
            ev,
            vec![
                SheetEvent::LotGained { lots_now: 10 },
                SheetEvent::LotOverflowToExp {
                    job: "Thief".into()
                },
                SheetEvent::ExpAwarded {
                    job: "Thief".into(),
                    amount: 1,
                    reason: ExpReason::LotOverflow,
                    exp_now: 1
                },
            ]
        );
    }

    #[test]
    fn a_v7_overflow_modes_discard_and_per_session_count() {
        let mut set = s1();
        set.set("ve_lot_overflow", "discard").unwrap();
        let mut s = sheet(&set);
        assert_eq!(
            s.grant_lots(1, &set, None).unwrap(),
            vec![SheetEvent::LotDiscarded]
        );
        set.set("ve_lot_overflow", "per_session_count").unwrap();
        s.lots = 0;
        s.start_session();
        s.grant_lots(10, &set, None).unwrap();
        assert_eq!(s.lots, 10);
        s.lots = 5;
        assert!(s.grant_lots(1, &set, None).is_err());
        let ev = s.grant_lots(1, &set, Some("Thief")).unwrap();
        assert!(matches!(ev[0], SheetEvent::LotOverflowToExp { .. }));
        assert_eq!(s.lots, 5);
        s.start_session();
        s.grant_lots(1, &set, None).unwrap();
        assert_eq!(s.lots, 6);
    }

    #[test]
    fn ve1_r3_and_a_v8_starting_values() {
        let mut set = VenusSettings::default();
        set.set("ve_starting_lots", "3").unwrap();
        set.set("ve_starting_ego", "on").unwrap();
        let s = VenusSheet::new("Bo", &set).unwrap();
        assert_eq!((s.lots, s.ego), (3, true));
    }

    #[test]
    fn ve2_r1_tier_minimums_warn_but_do_not_block() {
        let set = VenusSettings::default();
        let mut s = sheet(&set);
        s.set_tier(Some(Tier::Deific));
        s.set_ability("Finesse", Rank::Bronze, 4, &set).unwrap();
        s.start_learning("Mage", &["Wits".into()]).unwrap();
        let w = s.tier_warnings();
        assert_eq!(w.len(), 2, "{w:?}");
        assert!(w[0].contains("Thief") && w[0].contains("minimum of 4"));
        assert!(w[1].contains("Finesse"));
        s.set_ability("Finesse", Rank::Silver, 1, &set).unwrap();
    }

    #[test]
    fn ve_7_attributes_insights_and_custom_consequences() {
        let set = VenusSettings::default();
        let mut s = sheet(&set);
        s.add_attribute(AttributeKind::Specialty, "Lockpicks")
            .unwrap();
        assert_eq!(
            s.attributes.list(AttributeKind::Specialty),
            &vec!["Lockpicks".to_string()]
        );
        assert!(s.remove_attribute(AttributeKind::Asset, 0).is_err());
        let id = s.add_insight("The guard drinks", false).unwrap();
        assert!(s.add_insight("the guard DRINKS", false).is_err());
        s.approve_insight(id, true).unwrap();
        assert!(s.find_insight("#1").unwrap().approved);
        assert!(s.find_insight("the guard drinks").is_some());
        s.add_custom_consequence("My hat stays on").unwrap();
        assert_eq!(s.remove_custom_consequence(0).unwrap(), "My hat stays on");
        s.validate(&set).unwrap();
    }

    #[test]
    fn validate_catches_hand_edits() {
        let set = VenusSettings::default();
        let mut s = sheet(&set);
        s.lots = 11;
        assert!(s.validate(&set).is_err());
        s.lots = 1;
        s.jobs.get_mut("Thief").unwrap().learning = true;
        assert!(s.validate(&set).is_err());
        let json = serde_json::to_string(&sheet(&set)).unwrap();
        let back: VenusSheet = serde_json::from_str(&json).unwrap();
        assert_eq!(back, sheet(&set));
    }

    #[test]
    fn ve_1_ve_2_abilities_set_in_one_line_each_checked_none_twice() {
        let set = VenusSettings::default();
        let mut s = VenusSheet::new("Ada", &set).unwrap();
        let list = parse_abilities("Finesse Gold 4, Might si 3").unwrap();
        assert_eq!(
            s.set_abilities(&list, &set).unwrap(),
            ["Finesse Gold 4", "Might Silver 3"]
        );
        assert_eq!(
            s.ability("might").map(|a| (a.rank, a.score)),
            Some((Rank::Silver, 3))
        );
        let mut s = VenusSheet::new("Bo", &set).unwrap();
        let list = parse_abilities("Finesse Gold 4, finesse Bronze 2, Wits Gold 99").unwrap();
        let bad = s.set_abilities(&list, &set).unwrap_err();
        assert_eq!(bad.len(), 2);
        assert_eq!(
            bad[0],
            "`finesse Bronze 2`: Finesse is already in the list."
        );
        assert!(bad[1].starts_with("`Wits Gold 99`: "), "{}", bad[1]);
    }

    #[test]
    fn abilities_read_in_one_line_with_exact_errors() {
        let read: Vec<(String, String, Rank, u32)> =
            parse_abilities("Finesse Gold 45, Animal Ken si 3")
                .unwrap()
                .into_iter()
                .map(|a| (a.typed, a.name, a.rank, a.score))
                .collect();
        assert_eq!(
            read,
            vec![
                ("Finesse Gold 45".into(), "Finesse".into(), Rank::Gold, 45),
                (
                    "Animal Ken si 3".into(),
                    "Animal Ken".into(),
                    Rank::Silver,
                    3
                )
            ]
        );
        let err = |l: &str| parse_abilities(l).unwrap_err().message;
        assert_eq!(
            err("Finesse 45"),
            "`Finesse 45`: give a rank before the score, like `Finesse Gold 45`."
        );
        assert_eq!(
            err("Finesse Gold 4, Might Copper 3"),
            "`Might Copper 3`: `copper` is not a rank: use bronze, silver, gold or platinum."
        );
        assert_eq!(
            err("Finesse Gold"),
            "`Finesse Gold`: write a name then a number, like `Finesse Gold 45`."
        );
    }
}
