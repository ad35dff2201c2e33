//! Per-guild Venus Engine settings: every `ve_*`, `ve1_*` and `ve2_*` row of
//! spec §6, with the spec's defaults, validated parsing from text (`set`) and a
//! listing for the bot's settings command (`describe`).
//!
//! The shared rows `session_timeout_minutes` and `max_dice_per_roll` belong to
//! the application, not to this struct.

use serde::{Deserialize, Serialize};
use std::fmt;

use super::rank::Rank;
use crate::rules::RuleError;

/// The largest `ve_max_score` and `ve_max_pool` a guild may choose.
pub const MAX_SETTING_DICE: u32 = 100;

/// The largest N accepted by `ve1_levelup_rule = fixed:N`.
pub const MAX_FIXED_LEVELUP: u32 = 1000;

pub use crate::rules::SettingInfo;

/// Which edition of the Venus Engine the guild plays (`ve_edition`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum Edition {
    /// 000, the 1st Playtest Rules (VE1): D6 pools, beats are spent.
    #[serde(rename = "1")]
    One,
    /// 001, the Playsheet (VE2): D10 pools, passes against a threshold.
    #[serde(rename = "2")]
    Two,
}

impl Edition {
    /// The number used in the setting: 1 or 2.
    pub fn number(self) -> u8 {
        match self {
            Edition::One => 1,
            Edition::Two => 2,
        }
    }
}

impl fmt::Display for Edition {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.number())
    }
}

/// What happens to a Lot gained while holding the cap of 10 (`ve_lot_overflow`, A-V7).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum LotOverflow {
    /// A Lot gained at 10 becomes +1 exp in a job of the owner's choice (default).
    ConvertAtCap,
    /// Lots earned beyond 10 in one session become exp (a Lot that would pass
    /// the cap of 10 also becomes exp).
    PerSessionCount,
    /// A Lot gained at 10 is lost.
    Discard,
}

/// How jobs at level 1 or more level up in edition 1 (`ve1_levelup_rule`, A-V5).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum LevelUpRule {
    /// exp ≥ 2 × level: exp becomes 0 and level + 1 (default, borrowed from VE2).
    TwiceLevel,
    /// exp ≥ N: exp becomes 0 and level + 1.
    Fixed(u32),
    /// Never automatic: the GM edits levels by hand.
    Manual,
}

/// Which natural d20 faces pass a VE2 check automatically (`ve2_autopass_ranges`, A-V1).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum AutopassRanges {
    /// The text: Br 20, Si 19-20, Go 18-20, Pl 17-20 (default).
    Text,
    /// The stale table: Br none, Si 20, Go 19-20, Pl 18-20.
    Table,
    /// Per rank (Br, Si, Go, Pl), the lowest auto-passing face (through 20),
    /// or `None` for no automatic pass.
    Custom {
        /// Lowest automatic-pass face per rank, in rank order.
        lowest: [Option<u32>; 4],
    },
}

impl AutopassRanges {
    /// The lowest natural face that passes automatically for `rank`, if any.
    pub fn lowest(&self, rank: Rank) -> Option<u32> {
        let i = rank_index(rank);
        match self {
            AutopassRanges::Text => Some([20, 19, 18, 17][i]),
            AutopassRanges::Table => [None, Some(20), Some(19), Some(18)][i],
            AutopassRanges::Custom { lowest } => lowest[i],
        }
    }
}

/// Whose 10s explode on a magic VE2 task (`ve2_explode_scope`, A-V19).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum ExplodeScope {
    /// Only the roller's dice (and dice the GM flags as magical) (default).
    RollerOnly,
    /// Every die on the table.
    AllDice,
}

/// Per-source KISS limits in VE2 (`ve2_kiss_limits`, A-V22).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum KissLimits {
    /// Edition 1's limits: 1 stunt per character per task, at most 4 specialties (default).
    Edition1,
    /// No numeric limits besides "each die once".
    None,
}

/// When VE2 critical results and margin apply (`ve2_crits`, A-V23).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Crits {
    /// Never.
    Off,
    /// Only on tasks the GM flags (default).
    PerTaskFlag,
    /// On every task.
    Always,
}

/// Every Venus Engine row of spec §6, with the spec's defaults.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default)]
pub struct VenusSettings {
    /// `ve_edition`: 1 (000) or 2 (001). Default 2.
    pub ve_edition: Edition,
    /// `ve_require_approval`: hold approval-gated items until the GM approves (VE-8). Default off.
    pub ve_require_approval: bool,
    /// `ve_max_score`: the highest ability score (VE-2). Default 10.
    pub ve_max_score: u32,
    /// `ve_max_pool`: the most dice a roller rolls before allies (A-V27). Default 20.
    pub ve_max_pool: u32,
    /// `ve_track_insights`: insights must come from the sheet's list (VE1-K4c). Default off.
    pub ve_track_insights: bool,
    /// `ve_starting_lots`: Lots on a new sheet (A-V8). Default 10.
    pub ve_starting_lots: u32,
    /// `ve_starting_ego`: Ego on a new sheet (A-V8). Default false.
    pub ve_starting_ego: bool,
    /// `ve_lot_overflow`: what a Lot gained at 10 does (A-V7). Default convert_at_cap.
    pub ve_lot_overflow: LotOverflow,
    /// `ve1_levelup_rule`: edition-1 level-ups from level 1 (A-V5). Default 2×level.
    pub ve1_levelup_rule: LevelUpRule,
    /// `ve1_consequence_repeat`: a consequence may be bought more than once (A-V13). Default off.
    pub ve1_consequence_repeat: bool,
    /// `ve1_explosions`: house rule, edition-1 tasks the GM flags as magic or
    /// advanced technology roll exploding D6s (each 6 strikes and adds a
    /// die), as 000's KISS note allows. Default off (not a core rule).
    pub ve1_explosions: bool,
    /// `ve2_autopass_ranges`: VE2 automatic-pass faces (A-V1). Default text.
    pub ve2_autopass_ranges: AutopassRanges,
    /// `ve2_platinum_ignores_nat1`: Platinum is immune to a natural 1 in VE2 (A-V3). Default off.
    pub ve2_platinum_ignores_nat1: bool,
    /// `ve2_explode_scope`: whose 10s explode (A-V19). Default roller_only.
    pub ve2_explode_scope: ExplodeScope,
    /// `ve2_kiss_when_succeeding`: allow KISSes on a succeeding task that has crits (A-V21). Default off.
    pub ve2_kiss_when_succeeding: bool,
    /// `ve2_kiss_limits`: per-source KISS limits (A-V22). Default edition1.
    pub ve2_kiss_limits: KissLimits,
    /// `ve2_crits`: critical results and margin (A-V23). Default per_task_flag.
    pub ve2_crits: Crits,
    /// `ve2_ally_exp_on_success`: allies mark exp on success too (A-V25). Default off.
    pub ve2_ally_exp_on_success: bool,
}

impl Default for VenusSettings {
    fn default() -> Self {
        Self {
            ve_edition: Edition::Two,
            ve_require_approval: false,
            ve_max_score: 10,
            ve_max_pool: 20,
            ve_track_insights: false,
            ve_starting_lots: 10,
            ve_starting_ego: false,
            ve_lot_overflow: LotOverflow::ConvertAtCap,
            ve1_levelup_rule: LevelUpRule::TwiceLevel,
            ve1_consequence_repeat: false,
            ve1_explosions: false,
            ve2_autopass_ranges: AutopassRanges::Text,
            ve2_platinum_ignores_nat1: false,
            ve2_explode_scope: ExplodeScope::RollerOnly,
            ve2_kiss_when_succeeding: false,
            ve2_kiss_limits: KissLimits::Edition1,
            ve2_crits: Crits::PerTaskFlag,
            ve2_ally_exp_on_success: false,
        }
    }
}

/// The names of every setting in this struct, in display order.
pub const SETTING_NAMES: [&str; 18] = [
    "ve_edition",
    "ve_require_approval",
    "ve_max_score",
    "ve_max_pool",
    "ve_track_insights",
    "ve_starting_lots",
    "ve_starting_ego",
    "ve_lot_overflow",
    "ve1_levelup_rule",
    "ve1_consequence_repeat",
    "ve1_explosions",
    "ve2_autopass_ranges",
    "ve2_platinum_ignores_nat1",
    "ve2_explode_scope",
    "ve2_kiss_when_succeeding",
    "ve2_kiss_limits",
    "ve2_crits",
    "ve2_ally_exp_on_success",
];

fn rank_index(rank: Rank) -> usize {
    match rank {
        Rank::Bronze => 0,
        Rank::Silver => 1,
        Rank::Gold => 2,
        Rank::Platinum => 3,
    }
}

fn on_off(b: bool) -> String {
    if b { "on" } else { "off" }.to_string()
}

fn parse_bool(name: &str, value: &str) -> Result<bool, RuleError> {
    match value.trim().to_ascii_lowercase().as_str() {
        "on" | "true" | "yes" | "1" => Ok(true),
        "off" | "false" | "no" | "0" => Ok(false),
        _ => Err(RuleError::new(format!(
            "`{name}` must be on or off, not `{}`.",
            value.trim()
        ))),
    }
}

fn parse_int(name: &str, value: &str, min: u32, max: u32) -> Result<u32, RuleError> {
    match value.trim().parse::<u32>() {
        Ok(n) if (min..=max).contains(&n) => Ok(n),
        _ => Err(RuleError::new(format!(
            "`{name}` must be a whole number from {min} to {max}, not `{}`.",
            value.trim()
        ))),
    }
}

/// One of `options` by its name (any case); the error lists them all,
/// "`name` must be a, b or c, not `value`."
fn choice<T: Copy>(name: &str, value: &str, options: &[(&str, T)]) -> Result<T, RuleError> {
    let v = value.trim();
    if let Some((_, t)) = options.iter().find(|(o, _)| o.eq_ignore_ascii_case(v)) {
        return Ok(*t);
    }
    let names: Vec<&str> = options.iter().map(|(o, _)| *o).collect();
    let list = match names.split_last() {
        Some((last, rest)) if !rest.is_empty() => format!("{} or {last}", rest.join(", ")),
        _ => names.join(""),
    };
    Err(RuleError::new(format!(
        "`{name}` must be {list}, not `{v}`."
    )))
}

/// `ve1_levelup_rule`: 2×level, fixed:N or manual.
fn parse_levelup(lower: &str, v: &str) -> Result<LevelUpRule, RuleError> {
    match lower {
        "2×level" | "2xlevel" | "2*level" | "twice_level" => Ok(LevelUpRule::TwiceLevel),
        "manual" => Ok(LevelUpRule::Manual),
        other => match other.strip_prefix("fixed:") {
            Some(n) => n
                .trim()
                .parse::<u32>()
                .ok()
                .filter(|n| (1..=MAX_FIXED_LEVELUP).contains(n))
                .map(LevelUpRule::Fixed)
                .ok_or_else(|| {
                    RuleError::new(format!(
                        "In `fixed:N`, N must be a whole number from 1 to {MAX_FIXED_LEVELUP}."
                    ))
                }),
            None => Err(RuleError::new(format!(
                "`ve1_levelup_rule` must be 2×level, fixed:N or manual, not `{v}`."
            ))),
        },
    }
}

/// `ve2_autopass_ranges`: text, table or custom:BR,SI,GO,PL.
fn parse_autopass(lower: &str, v: &str) -> Result<AutopassRanges, RuleError> {
    match lower {
        "text" => Ok(AutopassRanges::Text),
        "table" => Ok(AutopassRanges::Table),
        other => match other.strip_prefix("custom:") {
            Some(list) => parse_custom(list),
            None if other == "custom" => Err(custom_error()),
            None => Err(RuleError::new(format!(
                "`ve2_autopass_ranges` must be text, table or custom:BR,SI,GO,PL, not `{v}`."
            ))),
        },
    }
}

fn custom_error() -> RuleError {
    RuleError::new(
        "Give custom ranges as custom:BR,SI,GO,PL, each `none` or the lowest automatic-pass face \
         from 2 to 20 (for example custom:none,20,19-20,18-20).",
    )
}

fn parse_custom(list: &str) -> Result<AutopassRanges, RuleError> {
    let parts: Vec<&str> = list.split(',').map(str::trim).collect();
    if parts.len() != 4 {
        return Err(custom_error());
    }
    let mut lowest = [None; 4];
    for (slot, part) in lowest.iter_mut().zip(parts) {
        let p = part.to_ascii_lowercase();
        if matches!(p.as_str(), "none" | "na" | "-") {
            continue;
        }
        let first = match p.split_once('-') {
            Some((a, "20")) => a.trim(),
            Some(_) => return Err(custom_error()),
            None => p.as_str(),
        };
        match first.parse::<u32>() {
            Ok(n) if (2..=20).contains(&n) => *slot = Some(n),
            _ => return Err(custom_error()),
        }
    }
    Ok(AutopassRanges::Custom { lowest })
}

fn show_autopass(a: &AutopassRanges) -> String {
    match a {
        AutopassRanges::Text => "text".into(),
        AutopassRanges::Table => "table".into(),
        AutopassRanges::Custom { lowest } => {
            let parts: Vec<String> = lowest
                .iter()
                .map(|l| match l {
                    None => "none".to_string(),
                    Some(20) => "20".to_string(),
                    Some(n) => format!("{n}-20"),
                })
                .collect();
            format!("custom:{}", parts.join(","))
        }
    }
}

fn show_levelup(r: LevelUpRule) -> String {
    match r {
        LevelUpRule::TwiceLevel => "2×level".into(),
        LevelUpRule::Fixed(n) => format!("fixed:{n}"),
        LevelUpRule::Manual => "manual".into(),
    }
}

impl VenusSettings {
    /// The lowest natural d20 face that passes a check automatically for
    /// `rank` in `edition`, if any (VE1-C4, VE2-C4).
    pub fn check_autopass_min(&self, edition: Edition, rank: Rank) -> Option<u32> {
        match edition {
            Edition::One => [None, Some(20), Some(19), Some(19)][rank_index(rank)],
            Edition::Two => self.ve2_autopass_ranges.lowest(rank),
        }
    }

    /// How many of the 20 natural d20 faces pass a check automatically for
    /// `rank` in `edition`. Divided by 20 it is the "natural success chance"
    /// to display, matching the active ranges (A-V4).
    pub fn autopass_faces(&self, edition: Edition, rank: Rank) -> u32 {
        self.check_autopass_min(edition, rank)
            .map_or(0, |m| 21 - m.clamp(1, 20))
    }

    /// Whether a natural 1 fails a check automatically for `rank` in
    /// `edition` (VE1-C3, VE2-C3).
    pub fn nat1_fails(&self, edition: Edition, rank: Rank) -> bool {
        match edition {
            Edition::One => rank != Rank::Platinum,
            Edition::Two => !(self.ve2_platinum_ignores_nat1 && rank == Rank::Platinum),
        }
    }

    /// Changes one setting from its text form. Unknown names and bad values
    /// return an error naming the allowed values; nothing changes on error.
    pub fn set(&mut self, name: &str, value: &str) -> Result<(), RuleError> {
        let v = value.trim();
        let lower = v.to_ascii_lowercase();
        match name.trim() {
            "ve_edition" => {
                self.ve_edition = choice(name, v, &[("1", Edition::One), ("2", Edition::Two)])?
            }
            "ve_require_approval" => self.ve_require_approval = parse_bool(name, v)?,
            "ve_max_score" => self.ve_max_score = parse_int(name, v, 1, MAX_SETTING_DICE)?,
            "ve_max_pool" => self.ve_max_pool = parse_int(name, v, 1, MAX_SETTING_DICE)?,
            "ve_track_insights" => self.ve_track_insights = parse_bool(name, v)?,
            "ve_starting_lots" => self.ve_starting_lots = parse_int(name, v, 0, 10)?,
            "ve_starting_ego" => self.ve_starting_ego = parse_bool(name, v)?,
            "ve_lot_overflow" => {
                self.ve_lot_overflow = choice(
                    name,
                    v,
                    &[
                        ("convert_at_cap", LotOverflow::ConvertAtCap),
                        ("per_session_count", LotOverflow::PerSessionCount),
                        ("discard", LotOverflow::Discard),
                    ],
                )?
            }
            "ve1_levelup_rule" => self.ve1_levelup_rule = parse_levelup(&lower, v)?,
            "ve1_consequence_repeat" => self.ve1_consequence_repeat = parse_bool(name, v)?,
            "ve1_explosions" => self.ve1_explosions = parse_bool(name, v)?,
            "ve2_autopass_ranges" => self.ve2_autopass_ranges = parse_autopass(&lower, v)?,
            "ve2_platinum_ignores_nat1" => self.ve2_platinum_ignores_nat1 = parse_bool(name, v)?,
            "ve2_explode_scope" => {
                self.ve2_explode_scope = choice(
                    name,
                    v,
                    &[
                        ("roller_only", ExplodeScope::RollerOnly),
                        ("all_dice", ExplodeScope::AllDice),
                    ],
                )?
            }
            "ve2_kiss_when_succeeding" => self.ve2_kiss_when_succeeding = parse_bool(name, v)?,
            "ve2_kiss_limits" => {
                self.ve2_kiss_limits = choice(
                    name,
                    v,
                    &[
                        ("edition1", KissLimits::Edition1),
                        ("none", KissLimits::None),
                    ],
                )?
            }
            "ve2_crits" => {
                self.ve2_crits = choice(
                    name,
                    v,
                    &[
                        ("off", Crits::Off),
                        ("per_task_flag", Crits::PerTaskFlag),
                        ("always", Crits::Always),
                    ],
                )?
            }
            "ve2_ally_exp_on_success" => self.ve2_ally_exp_on_success = parse_bool(name, v)?,
            other => {
                return Err(RuleError::new(format!(
                    "`{other}` is not a Venus Engine setting: use one of {}.",
                    SETTING_NAMES.join(", ")
                )))
            }
        }
        Ok(())
    }

    /// Every setting with its current value, allowed values and help, in
    /// [`SETTING_NAMES`] order.
    pub fn describe(&self) -> Vec<SettingInfo> {
        let info = |name, value: String, allowed, help| SettingInfo {
            name,
            value,
            allowed,
            help,
        };
        vec![
            info("ve_edition", self.ve_edition.to_string(), "1 | 2",
                "Which Venus Engine edition: 1 (1st Playtest, D6 beats) or 2 (Playsheet, D10 passes)."),
            info("ve_require_approval", on_off(self.ve_require_approval), "on | off",
                "Hold bonus factors, insights and specialties until the GM approves them."),
            info("ve_max_score", self.ve_max_score.to_string(), "1-100",
                "The highest ability score a sheet may hold."),
            info("ve_max_pool", self.ve_max_pool.to_string(), "1-100",
                "The most task dice a roller rolls before allies; larger pools are capped."),
            info("ve_track_insights", on_off(self.ve_track_insights), "on | off",
                "Insights used for KISSes must be on the sheet, each once per task."),
            info("ve_starting_lots", self.ve_starting_lots.to_string(), "0-10",
                "Lots a new character starts with."),
            info("ve_starting_ego", on_off(self.ve_starting_ego), "on | off",
                "Whether a new character starts holding Ego."),
            info("ve_lot_overflow", match self.ve_lot_overflow {
                LotOverflow::ConvertAtCap => "convert_at_cap",
                LotOverflow::PerSessionCount => "per_session_count",
                LotOverflow::Discard => "discard",
            }.into(), "convert_at_cap | per_session_count | discard",
                "What a Lot gained beyond the cap of 10 becomes: exp in a chosen job, or nothing."),
            info("ve1_levelup_rule", show_levelup(self.ve1_levelup_rule), "2×level | fixed:N | manual",
                "Edition 1: when a job at level 1+ levels up (its exp bar)."),
            info("ve1_consequence_repeat", on_off(self.ve1_consequence_repeat), "on | off",
                "Edition 1: a secondary or tertiary consequence may be bought more than once per task."),
            info("ve1_explosions", on_off(self.ve1_explosions), "on | off",
                "Edition 1 house rule: tasks the FC flags as magic or advanced technology (`magic:true`) roll exploding D6s: each 6 strikes a beat and adds a die."),
            info("ve2_autopass_ranges", show_autopass(&self.ve2_autopass_ranges),
                "text | table | custom:BR,SI,GO,PL",
                "Edition 2: natural d20 faces that pass a check automatically, per rank."),
            info("ve2_platinum_ignores_nat1", on_off(self.ve2_platinum_ignores_nat1), "on | off",
                "Edition 2: a Platinum ability does not fail on a natural 1."),
            info("ve2_explode_scope", match self.ve2_explode_scope {
                ExplodeScope::RollerOnly => "roller_only",
                ExplodeScope::AllDice => "all_dice",
            }.into(), "roller_only | all_dice",
                "Edition 2: on magic tasks, whose 10s explode."),
            info("ve2_kiss_when_succeeding", on_off(self.ve2_kiss_when_succeeding), "on | off",
                "Edition 2: allow KISSes on a task already succeeding when crits apply to it."),
            info("ve2_kiss_limits", match self.ve2_kiss_limits {
                KissLimits::Edition1 => "edition1",
                KissLimits::None => "none",
            }.into(), "edition1 | none",
                "Edition 2: 1 stunt per character and at most 4 specialties, or no limits."),
            info("ve2_crits", match self.ve2_crits {
                Crits::Off => "off",
                Crits::PerTaskFlag => "per_task_flag",
                Crits::Always => "always",
            }.into(), "off | per_task_flag | always",
                "Edition 2: when critical results and margin are shown."),
            info("ve2_ally_exp_on_success", on_off(self.ve2_ally_exp_on_success), "on | off",
                "Edition 2: allies also mark exp when the task succeeds."),
        ]
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn defaults_match_spec_section_6() {
        let s = VenusSettings::default();
        assert_eq!(s.ve_edition, Edition::Two);
        assert!(!s.ve_require_approval);
        assert_eq!((s.ve_max_score, s.ve_max_pool), (10, 20));
        assert!(!s.ve_track_insights);
        assert_eq!((s.ve_starting_lots, s.ve_starting_ego), (10, false));
        assert_eq!(s.ve_lot_overflow, LotOverflow::ConvertAtCap);
        assert_eq!(s.ve1_levelup_rule, LevelUpRule::TwiceLevel);
        assert!(!s.ve1_consequence_repeat);
        assert_eq!(s.ve2_autopass_ranges, AutopassRanges::Text);
        assert!(!s.ve2_platinum_ignores_nat1);
        assert_eq!(s.ve2_explode_scope, ExplodeScope::RollerOnly);
        assert!(!s.ve2_kiss_when_succeeding);
        assert_eq!(s.ve2_kiss_limits, KissLimits::Edition1);
        assert_eq!(s.ve2_crits, Crits::PerTaskFlag);
        assert!(!s.ve2_ally_exp_on_success);
    }

    #[test]
    fn describe_lists_every_setting_and_round_trips_through_set() {
        let mut s = VenusSettings::default();
        s.set("ve_edition", "1").unwrap();
        s.set("ve1_levelup_rule", "fixed:5").unwrap();
        s.set("ve2_autopass_ranges", "custom:none,20,19-20,18")
            .unwrap();
        s.set("ve_lot_overflow", "discard").unwrap();
        let d = s.describe();
        let names: Vec<&str> = d.iter().map(|i| i.name).collect();
        assert_eq!(names, SETTING_NAMES);
        let mut t = VenusSettings::default();
        for i in &d {
            t.set(i.name, &i.value).unwrap();
        }
        assert_eq!(s, t);
    }

    #[test]
    fn set_rejects_bad_values_with_allowed_values_and_changes_nothing() {
        let mut s = VenusSettings::default();
        let e = s.set("ve_edition", "3").unwrap_err();
        assert!(e.message.contains("1 or 2"));
        assert!(s.set("ve_max_pool", "0").is_err());
        assert!(s.set("ve_max_pool", "101").is_err());
        assert!(s.set("ve_starting_lots", "11").is_err());
        assert!(s.set("ve1_levelup_rule", "fixed:0").is_err());
        assert!(s.set("ve2_autopass_ranges", "custom").is_err());
        assert!(s.set("ve2_autopass_ranges", "custom:1,2,3,4").is_err());
        assert!(s.set("ve2_autopass_ranges", "custom:none,20,19").is_err());
        assert!(s.set("ve2_crits", "sometimes").is_err());
        assert!(s
            .set("nope", "on")
            .unwrap_err()
            .message
            .contains("ve_edition"));
        assert_eq!(s, VenusSettings::default());
    }

    #[test]
    fn a_v1_autopass_ranges_text_table_custom() {
        let mut s = VenusSettings::default();
        let lows = |s: &VenusSettings| Rank::ALL.map(|r| s.check_autopass_min(Edition::Two, r));
        assert_eq!(lows(&s), [Some(20), Some(19), Some(18), Some(17)]);
        s.set("ve2_autopass_ranges", "table").unwrap();
        assert_eq!(lows(&s), [None, Some(20), Some(19), Some(18)]);
        s.set("ve2_autopass_ranges", "custom:20,20,NONE,15-20")
            .unwrap();
        assert_eq!(lows(&s), [Some(20), Some(20), None, Some(15)]);
        let v1 = Rank::ALL.map(|r| s.check_autopass_min(Edition::One, r));
        assert_eq!(v1, [None, Some(20), Some(19), Some(19)]);
    }

    #[test]
    fn a_v4_natural_success_chance_matches_the_active_ranges() {
        let mut s = VenusSettings::default();
        let pct = |s: &VenusSettings, ed| Rank::ALL.map(|r| s.autopass_faces(ed, r) * 5);
        assert_eq!(pct(&s, Edition::Two), [5, 10, 15, 20]);
        s.set("ve2_autopass_ranges", "table").unwrap();
        assert_eq!(pct(&s, Edition::Two), [0, 5, 10, 15]);
        assert_eq!(pct(&s, Edition::One), [0, 5, 10, 10]);
    }

    #[test]
    fn a_v3_platinum_nat1_per_edition() {
        let mut s = VenusSettings::default();
        assert!(!s.nat1_fails(Edition::One, Rank::Platinum));
        assert!(s.nat1_fails(Edition::One, Rank::Gold));
        assert!(s.nat1_fails(Edition::Two, Rank::Platinum));
        s.set("ve2_platinum_ignores_nat1", "on").unwrap();
        assert!(!s.nat1_fails(Edition::Two, Rank::Platinum));
        assert!(s.nat1_fails(Edition::Two, Rank::Gold));
    }

    #[test]
    fn settings_serde_round_trip_and_missing_fields_default() {
        let mut s = VenusSettings::default();
        s.set("ve2_autopass_ranges", "custom:none,20,19,18")
            .unwrap();
        s.set("ve1_levelup_rule", "manual").unwrap();
        let json = serde_json::to_string(&s).unwrap();
        let back: VenusSettings = serde_json::from_str(&json).unwrap();
        assert_eq!(back, s);
        let partial: VenusSettings = serde_json::from_str(r#"{"ve_edition":"1"}"#).unwrap();
        assert_eq!(partial.ve_edition, Edition::One);
        assert_eq!(partial.ve_max_pool, 20);
    }
}

crate::rules::house_rules!(
    VenusSettings, SETTING_NAMES,
    "ve1_levelup_rule" => ["2×level", "manual", "fixed:10"],
    "ve2_autopass_ranges" => ["text", "table", "custom:none,20,19-20,18-20"],
);
