//! Per-guild settings for the Storyteller rules (spec §6, ST rows).
//!
//! [`StorytellerSettings`] holds the typed values with the spec's defaults;
//! [`StorytellerSettings::set`] changes one from text (validated, with an
//! error naming the allowed values) and [`StorytellerSettings::describe`]
//! lists them for the bot's settings view and autocomplete.

use serde::{Deserialize, Serialize};
use std::fmt;

use super::sheet::{clean_name, CustomTrait, TraitAlias, TraitCatalog, TraitKind};
use crate::rules::error::ensure;
use crate::rules::RuleError;

/// The most guild-wide custom traits.
pub const MAX_CUSTOM_TRAITS: usize = 30;
/// The most guild-wide custom aliases.
pub const MAX_CUSTOM_ALIASES: usize = 60;
/// The largest `st_unskilled_knowledge_penalty`.
pub const MAX_KNOWLEDGE_PENALTY: u32 = 8;

/// What a pool of zero dice does (A-S1, ⚙ `st_zero_pool`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum ZeroPool {
    /// No roll: an automatic simple failure that cannot botch (default).
    #[default]
    AutoFail,
    /// Roll one "chance die": only a 10 succeeds, a 1 botches.
    ChanceDie,
}

impl ZeroPool {
    /// The settings value: `auto_fail` or `chance_die`.
    pub fn key(self) -> &'static str {
        match self {
            ZeroPool::AutoFail => "auto_fail",
            ZeroPool::ChanceDie => "chance_die",
        }
    }
}

/// How many bonus dice a 10 adds when specialties are in use (A-S3,
/// ⚙ `st_bonus_dice_per_ten`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum BonusDicePerTen {
    /// One bonus die per specialty in use, per 10 (default).
    #[default]
    PerSpecialty,
    /// One bonus die per 10, however many specialties are in use.
    One,
}

impl BonusDicePerTen {
    /// The settings value: `per_specialty` or `one`.
    pub fn key(self) -> &'static str {
        match self {
            BonusDicePerTen::PerSpecialty => "per_specialty",
            BonusDicePerTen::One => "one",
        }
    }

    /// Bonus dice each 10 adds with `specialties` in use (0 with none).
    pub fn dice_per_ten(self, specialties: u32) -> u32 {
        match (self, specialties) {
            (_, 0) => 0,
            (BonusDicePerTen::One, _) => 1,
            (BonusDicePerTen::PerSpecialty, s) => s,
        }
    }
}

pub use crate::rules::SettingInfo;

/// The Storyteller rows of the settings catalogue (§6), with their defaults.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default)]
pub struct StorytellerSettings {
    /// Difficulty used when the storyteller gives none (ST-3, A-S5): 2..=10, default 6.
    pub st_default_difficulty: u32,
    /// Zero-dice pools (A-S1): default `auto_fail`.
    pub st_zero_pool: ZeroPool,
    /// Cap difficulties pushed above 10 at 10 (A-S2): default off.
    pub st_clamp_difficulty_high: bool,
    /// Bonus dice per 10 with several specialties (A-S3): default `per_specialty`.
    pub st_bonus_dice_per_ten: BonusDicePerTen,
    /// Extra difficulty for a "figure it out" knowledge roll at 0 dots (A-S4): default 1.
    pub st_unskilled_knowledge_penalty: u32,
    /// House rule: an ability may be rolled alone, with no attribute (ST-1
    /// allows an attribute plus an ability, or one or two attributes):
    /// default off.
    pub st_ability_alone: bool,
    /// Guild-wide custom traits (A-S12): default none.
    pub st_custom_traits: Vec<CustomTrait>,
    /// Guild-wide custom aliases (A-S12), on top of the built-in ones: default none.
    pub st_trait_aliases: Vec<TraitAlias>,
}

impl Default for StorytellerSettings {
    fn default() -> Self {
        Self {
            st_default_difficulty: 6,
            st_zero_pool: ZeroPool::AutoFail,
            st_clamp_difficulty_high: false,
            st_bonus_dice_per_ten: BonusDicePerTen::PerSpecialty,
            st_unskilled_knowledge_penalty: 1,
            st_ability_alone: false,
            st_custom_traits: Vec::new(),
            st_trait_aliases: Vec::new(),
        }
    }
}

/// Every setting name `set` accepts.
pub const SETTING_NAMES: [&str; 8] = [
    "st_default_difficulty",
    "st_zero_pool",
    "st_clamp_difficulty_high",
    "st_bonus_dice_per_ten",
    "st_unskilled_knowledge_penalty",
    "st_custom_traits",
    "st_trait_aliases",
    "st_ability_alone",
];

impl StorytellerSettings {
    /// Changes one setting from text. Nothing changes on error.
    ///
    /// Values: `st_default_difficulty` 2..10; `st_zero_pool` auto_fail |
    /// chance_die; `st_clamp_difficulty_high` on | off; `st_bonus_dice_per_ten`
    /// per_specialty | one; `st_unskilled_knowledge_penalty` +N (0..8);
    /// `st_custom_traits` a comma list of `Name:kind` (kind = attribute,
    /// talent, skill or knowledge), or `none`; `st_trait_aliases` a comma
    /// list of `alias=Trait`, or `none`; `st_ability_alone` on | off. Lists
    /// replace the whole list.
    pub fn set(&mut self, name: &str, value: &str) -> Result<(), RuleError> {
        let v = value.trim();
        match name.trim().to_ascii_lowercase().as_str() {
            "st_default_difficulty" => {
                let d = parse_int(v)
                    .filter(|d| (2..=10).contains(d))
                    .ok_or_else(|| {
                        RuleError::new("st_default_difficulty must be a whole number from 2 to 10.")
                    })?;
                self.st_default_difficulty = d;
            }
            "st_zero_pool" => {
                self.st_zero_pool = match v.to_ascii_lowercase().as_str() {
                    "auto_fail" => ZeroPool::AutoFail,
                    "chance_die" => ZeroPool::ChanceDie,
                    _ => {
                        return Err(RuleError::new(
                            "st_zero_pool must be auto_fail or chance_die.",
                        ))
                    }
                }
            }
            "st_clamp_difficulty_high" => {
                self.st_clamp_difficulty_high = parse_on_off(v)
                    .ok_or_else(|| RuleError::new("st_clamp_difficulty_high must be on or off."))?;
            }
            "st_ability_alone" => {
                self.st_ability_alone = parse_on_off(v)
                    .ok_or_else(|| RuleError::new("st_ability_alone must be on or off."))?;
            }
            "st_bonus_dice_per_ten" => {
                self.st_bonus_dice_per_ten = match v.to_ascii_lowercase().as_str() {
                    "per_specialty" => BonusDicePerTen::PerSpecialty,
                    "one" => BonusDicePerTen::One,
                    _ => {
                        return Err(RuleError::new(
                            "st_bonus_dice_per_ten must be per_specialty or one.",
                        ))
                    }
                }
            }
            "st_unskilled_knowledge_penalty" => {
                self.st_unskilled_knowledge_penalty = parse_knowledge_penalty(v)?;
            }
            "st_custom_traits" => self.set_custom_traits(v)?,
            "st_trait_aliases" => self.set_trait_aliases(v)?,
            other => {
                return Err(RuleError::new(format!(
                    "There is no Storyteller setting called `{other}`; the settings are {}.",
                    SETTING_NAMES.join(", ")
                )))
            }
        }
        Ok(())
    }

    /// `st_custom_traits`: the whole list of custom traits, at most
    /// [`MAX_CUSTOM_TRAITS`], that the custom aliases still point into.
    fn set_custom_traits(&mut self, v: &str) -> Result<(), RuleError> {
        let list = parse_custom_traits(v)?;
        ensure(list.len() <= MAX_CUSTOM_TRAITS, || {
            format!("A server can have at most {MAX_CUSTOM_TRAITS} custom traits.")
        })?;
        TraitCatalog::with_custom(&list, &self.st_trait_aliases).map_err(|e| {
            RuleError::new(format!(
                "{} (Custom aliases must keep pointing at existing traits.)",
                e.message
            ))
        })?;
        self.st_custom_traits = list;
        Ok(())
    }

    /// `st_trait_aliases`: the whole list of custom aliases, at most
    /// [`MAX_CUSTOM_ALIASES`], each pointing at an existing trait.
    fn set_trait_aliases(&mut self, v: &str) -> Result<(), RuleError> {
        let list = parse_aliases(v)?;
        ensure(list.len() <= MAX_CUSTOM_ALIASES, || {
            format!("A server can have at most {MAX_CUSTOM_ALIASES} custom aliases.")
        })?;
        TraitCatalog::with_custom(&self.st_custom_traits, &list)?;
        self.st_trait_aliases = list;
        Ok(())
    }

    /// Every setting with its current value, allowed values and help text.
    pub fn describe(&self) -> Vec<SettingInfo> {
        vec![
            SettingInfo {
                name: "st_default_difficulty",
                value: self.st_default_difficulty.to_string(),
                allowed: "2-10",
                help: "Difficulty used when the storyteller names none, also for willpower rolls (ST-3, A-S5).",
            },
            SettingInfo {
                name: "st_zero_pool",
                value: self.st_zero_pool.key().to_string(),
                allowed: "auto_fail | chance_die",
                help: "A pool of zero dice: automatic simple failure, or one chance die where only a 10 succeeds and a 1 botches (A-S1).",
            },
            SettingInfo {
                name: "st_clamp_difficulty_high",
                value: on_off(self.st_clamp_difficulty_high).to_string(),
                allowed: "on | off",
                help: "When on, difficulties pushed above 10 are capped at 10; when off, they stand and success is impossible (A-S2).",
            },
            SettingInfo {
                name: "st_bonus_dice_per_ten",
                value: self.st_bonus_dice_per_ten.key().to_string(),
                allowed: "per_specialty | one",
                help: "With specialties in use, each 10 adds one bonus die per specialty, or just one (A-S3).",
            },
            SettingInfo {
                name: "st_unskilled_knowledge_penalty",
                value: format!("+{}", self.st_unskilled_knowledge_penalty),
                allowed: "+0 to +8 (difficulty)",
                help: "Extra difficulty when the storyteller lets a character figure out a knowledge they have no dots in (A-S4).",
            },
            SettingInfo {
                name: "st_custom_traits",
                value: list_or_none(
                    self.st_custom_traits
                        .iter()
                        .map(|c| format!("{}:{}", c.name, c.kind.key())),
                ),
                allowed: "Name:attribute|talent|skill|knowledge, ... | none",
                help: "Extra traits for this server, beyond the canonical ones (A-S12).",
            },
            SettingInfo {
                name: "st_trait_aliases",
                value: list_or_none(
                    self.st_trait_aliases
                        .iter()
                        .map(|a| format!("{}={}", a.alias, a.target)),
                ),
                allowed: "alias=Trait, ... | none",
                help: "Extra names for traits, on top of Brawling=Melee, Drive=Driving, Artistry=Crafting and Str/Pre/Ref/Per/Int/Wit (A-S12).",
            },
            SettingInfo {
                name: "st_ability_alone",
                value: on_off(self.st_ability_alone).to_string(),
                allowed: "on | off",
                help: "House rule: when on, an ability may be rolled alone, with no attribute; off, a pool is an attribute plus an ability, or one or two attributes (ST-1).",
            },
        ]
    }

    /// Checks stored values (use after deserialising).
    pub fn validate(&self) -> Result<(), RuleError> {
        ensure((2..=10).contains(&self.st_default_difficulty), || {
            "st_default_difficulty must be from 2 to 10.".to_string()
        })?;
        ensure(
            self.st_unskilled_knowledge_penalty <= MAX_KNOWLEDGE_PENALTY,
            || "st_unskilled_knowledge_penalty is out of range.".to_string(),
        )?;
        ensure(
            self.st_custom_traits.len() <= MAX_CUSTOM_TRAITS
                && self.st_trait_aliases.len() <= MAX_CUSTOM_ALIASES,
            || "There are too many custom traits or aliases.".to_string(),
        )?;
        TraitCatalog::with_custom(&self.st_custom_traits, &self.st_trait_aliases).map(|_| ())
    }

    /// The trait catalog for this guild: canonical traits, built-in aliases,
    /// then the custom traits and aliases. Invalid stored entries (which `set`
    /// never lets in) are skipped rather than failing.
    pub fn catalog(&self) -> TraitCatalog {
        let mut cat = TraitCatalog::canonical();
        for c in &self.st_custom_traits {
            let _ = cat.add_trait(&c.name, c.kind);
        }
        for a in &self.st_trait_aliases {
            let _ = cat.add_alias(&a.alias, &a.target);
        }
        cat
    }

    /// The default difficulty, forced into 2..=10 in case stored data is odd.
    pub fn default_difficulty(&self) -> u32 {
        self.st_default_difficulty.clamp(2, 10)
    }

    /// The knowledge penalty, forced into 0..=8 in case stored data is odd.
    pub fn knowledge_penalty(&self) -> u32 {
        self.st_unskilled_knowledge_penalty
            .min(MAX_KNOWLEDGE_PENALTY)
    }
}

impl fmt::Display for ZeroPool {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.key())
    }
}

impl fmt::Display for BonusDicePerTen {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.key())
    }
}

/// `st_unskilled_knowledge_penalty`'s value: `+N difficulty` (the sign and
/// the word optional), N from 0 to [`MAX_KNOWLEDGE_PENALTY`].
fn parse_knowledge_penalty(v: &str) -> Result<u32, RuleError> {
    let lower = v.to_ascii_lowercase();
    let number = lower
        .trim_end_matches("difficulty")
        .trim()
        .trim_start_matches('+')
        .trim();
    parse_int(number)
        .filter(|n| *n <= MAX_KNOWLEDGE_PENALTY)
        .ok_or_else(|| {
            RuleError::new(format!(
                "st_unskilled_knowledge_penalty must be +N difficulty, with N from 0 to {MAX_KNOWLEDGE_PENALTY}."
            ))
        })
}

fn parse_int(s: &str) -> Option<u32> {
    if s.is_empty() || s.len() > 3 || !s.chars().all(|c| c.is_ascii_digit()) {
        return None;
    }
    s.parse().ok()
}

fn parse_on_off(s: &str) -> Option<bool> {
    match s.to_ascii_lowercase().as_str() {
        "on" | "true" | "yes" | "1" => Some(true),
        "off" | "false" | "no" | "0" => Some(false),
        _ => None,
    }
}

fn on_off(b: bool) -> &'static str {
    if b {
        "on"
    } else {
        "off"
    }
}

fn is_none_value(s: &str) -> bool {
    matches!(s.to_ascii_lowercase().as_str(), "" | "none" | "-")
}

fn list_or_none(items: impl Iterator<Item = String>) -> String {
    let v: Vec<String> = items.collect();
    if v.is_empty() {
        "none".to_string()
    } else {
        v.join(", ")
    }
}

fn parse_custom_traits(v: &str) -> Result<Vec<CustomTrait>, RuleError> {
    if is_none_value(v) {
        return Ok(Vec::new());
    }
    v.split(',')
        .filter(|item| !item.trim().is_empty())
        .take(MAX_CUSTOM_TRAITS + 1)
        .map(|item| {
            let (name, kind) = item.split_once(':').ok_or_else(|| {
                RuleError::new(format!(
                    "Write each custom trait as Name:kind (kind = attribute, talent, skill or knowledge); `{}` has no kind.",
                    item.trim()
                ))
            })?;
            Ok(CustomTrait {
                name: clean_name(name, false)?,
                kind: TraitKind::parse(kind)?,
            })
        })
        .collect()
}

fn parse_aliases(v: &str) -> Result<Vec<TraitAlias>, RuleError> {
    if is_none_value(v) {
        return Ok(Vec::new());
    }
    v.split(',')
        .filter(|item| !item.trim().is_empty())
        .take(MAX_CUSTOM_ALIASES + 1)
        .map(|item| {
            let (alias, target) = item.split_once('=').ok_or_else(|| {
                RuleError::new(format!(
                    "Write each alias as alias=Trait; `{}` has no `=`.",
                    item.trim()
                ))
            })?;
            Ok(TraitAlias {
                alias: clean_name(alias, false)?,
                target: clean_name(target, false)?,
            })
        })
        .collect()
}

crate::rules::house_rules!(
    StorytellerSettings, SETTING_NAMES,
    "st_unskilled_knowledge_penalty" => ["+0", "+1", "+2", "+3", "+4", "+5", "+6", "+7", "+8"],
    "st_custom_traits" => ["none"],
    "st_trait_aliases" => ["none"],
);
