//! Per-guild settings for Virtual Veil (the `vv_*` rows of spec §6).
//!
//! [`OreSettings`] holds every row with the spec's default, can be changed by
//! name with [`OreSettings::set`] (validated, with an error naming the allowed
//! values) and listed with [`OreSettings::describe`] for the Compiler.

use crate::rules::RuleError;
use serde::{Deserialize, Serialize};

/// The largest `vv_max_pool` the rules core supports (exact odds included).
pub const MAX_SUPPORTED_POOL: u32 = 30;

pub use crate::rules::SettingInfo;

/// Declares a settings enum whose values are single words, with `as_str`,
/// `ALL` and a parser used by [`OreSettings::set`].
macro_rules! word_enum {
    ($(#[$m:meta])* $name:ident { $($(#[$vm:meta])* $var:ident => $word:literal),+ $(,)? }) => {
        $(#[$m])*
        #[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize, Default)]
        #[serde(rename_all = "snake_case")]
        pub enum $name {
            $($(#[$vm])* $var),+
        }

        impl $name {
            /// Every value, in the order the settings list shows them.
            pub const ALL: &'static [$name] = &[$($name::$var),+];

            /// The word the settings use for this value.
            pub fn as_str(self) -> &'static str {
                match self {
                    $($name::$var => $word),+
                }
            }

            /// Reads the word for a value (case-insensitive); `setting` names the
            /// setting in the error message.
            pub fn parse(setting: &str, value: &str) -> Result<Self, RuleError> {
                let v = value.trim().to_ascii_lowercase();
                Self::ALL
                    .iter()
                    .copied()
                    .find(|x| x.as_str() == v)
                    .ok_or_else(|| {
                        let words: Vec<&str> = Self::ALL.iter().map(|x| x.as_str()).collect();
                        RuleError::new(format!(
                            "{setting} must be one of {}, not \"{}\".",
                            words.join(", "),
                            value.trim()
                        ))
                    })
            }
        }
    };
}

word_enum! {
    /// How a face modifier treats results past 1 or 10 (A-O6).
    FaceBounds {
        /// Results stop at 1 and 10 (default).
        #[default]
        Clamp => "clamp",
        /// Results wrap around: 10 + 1 = 1, 1 − 1 = 10.
        Wrap => "wrap",
    }
}

word_enum! {
    /// When matching Fault dice turn into Injuries (A-O12).
    FaultCheck {
        /// At the End phase of the round (default), so trips and quads can form.
        #[default]
        EndOfRound => "end_of_round",
        /// As soon as a Fault die matches another (only dubs can then form).
        Immediate => "immediate",
    }
}

word_enum! {
    /// How Error Dice from several Injuries combine (A-O13).
    ErrorDiceStacking {
        /// The counts add up (default).
        #[default]
        Sum => "sum",
        /// Only the worst Injury counts.
        Max => "max",
    }
}

word_enum! {
    /// How ties in Outthink or Initiative are broken (A-O14).
    TieBreak {
        /// Higher underlying stat first, then a re-roll between those still tied (default).
        #[default]
        StatThenReroll => "stat_then_reroll",
        /// A re-roll between the tied entities.
        Reroll => "reroll",
    }
}

word_enum! {
    /// The direction of the Resolution order (A-O15).
    InitiativeOrder {
        /// Highest Initiative acts first (default).
        #[default]
        Descending => "descending",
        /// Lowest Initiative acts first.
        Ascending => "ascending",
    }
}

word_enum! {
    /// What damage the bot suggests for an attack (A-O17).
    DefaultDamage {
        /// No suggestion: the Compiler or the ability gives the amount (default).
        #[default]
        Manual => "manual",
        /// Suggest the width of the set used.
        Width => "width",
    }
}

word_enum! {
    /// What Defense, Integrity and Resolve do (A-O18).
    DefenseMode {
        /// Shown only; the Compiler applies them (default).
        #[default]
        Display => "display",
        /// Subtract the matching defense from incoming damage (minimum 0).
        Subtract => "subtract",
    }
}

word_enum! {
    /// What the "−1 Power" penalty of a living entity at 0 Vitality does (A-O19).
    PowerPenalty {
        /// One die fewer on that entity's rolls until the end of the round (default).
        #[default]
        MinusOneDie => "minus_one_die",
        /// Shown only.
        Display => "display",
    }
}

word_enum! {
    /// How a Cyber repair check succeeds (A-O21).
    RepairCheck {
        /// A set with height ≥ the value restored to; above 10, set value ≥ 10 + value (default).
        #[default]
        Height => "height",
        /// A set whose value (10 × width + height) is ≥ 10 + the value restored to.
        SetValue => "set_value",
    }
}

/// Every Virtual Veil setting of spec §6, with the spec's defaults.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default)]
pub struct OreSettings {
    /// `vv_max_pool`: the most dice a stat roll may use (A-O2), 1 to [`MAX_SUPPORTED_POOL`].
    pub max_pool: u32,
    /// `vv_face_modifier_bounds`: a face modifier past 1 or 10 clamps or
    /// wraps (A-O6); the roll's "± Modify a die" applies it (VV-5).
    pub face_modifier_bounds: FaceBounds,
    /// `vv_allow_split_sets`: may a wide set be split into smaller sets for
    /// Combos or Strings (A-O7); the roll's "Split" buttons use it.
    pub allow_split_sets: bool,
    /// `vv_cache_consumed_on_use`: is a cache die used up when used (A-O9).
    pub cache_consumed_on_use: bool,
    /// `vv_fault_counts_toward_cache`: do Fault dice count toward the cache maximum (A-O11).
    pub fault_counts_toward_cache: bool,
    /// `vv_fault_check` (A-O12).
    pub fault_check: FaultCheck,
    /// `vv_error_dice_stacking` (A-O13).
    pub error_dice_stacking: ErrorDiceStacking,
    /// `vv_tie_break` (A-O14).
    pub tie_break: TieBreak,
    /// `vv_initiative_order` (A-O15).
    pub initiative_order: InitiativeOrder,
    /// `vv_default_damage` (A-O17).
    pub default_damage: DefaultDamage,
    /// `vv_defense_mode` (A-O18).
    pub defense_mode: DefenseMode,
    /// `vv_power_penalty` (A-O19).
    pub power_penalty: PowerPenalty,
    /// `vv_repair_check` (A-O21).
    pub repair_check: RepairCheck,
}

impl Default for OreSettings {
    fn default() -> Self {
        Self {
            max_pool: 10,
            face_modifier_bounds: FaceBounds::Clamp,
            allow_split_sets: false,
            cache_consumed_on_use: true,
            fault_counts_toward_cache: false,
            fault_check: FaultCheck::EndOfRound,
            error_dice_stacking: ErrorDiceStacking::Sum,
            tie_break: TieBreak::StatThenReroll,
            initiative_order: InitiativeOrder::Descending,
            default_damage: DefaultDamage::Manual,
            defense_mode: DefenseMode::Display,
            power_penalty: PowerPenalty::MinusOneDie,
            repair_check: RepairCheck::Height,
        }
    }
}

/// Each setting's name, accepted values and help text, in the order
/// [`OreSettings::describe`] lists them.
const ABOUT: [(&str, &str, &str); 13] = [
    (
        "vv_max_pool",
        "1-30",
        "The most dice one stat roll may use; bigger pools are capped with a warning.",
    ),
    (
        "vv_face_modifier_bounds",
        "clamp | wrap",
        "What a face modifier past 1 or 10 does: stop at 1 and 10, or wrap around (10 + 1 = 1).",
    ),
    (
        "vv_allow_split_sets",
        "on | off",
        "Whether a wide set may be split into smaller sets (a quad into two dubs) for Combos and Strings.",
    ),
    (
        "vv_cache_consumed_on_use",
        "on | off",
        "Whether a cache die is used up when it is part of an action.",
    ),
    (
        "vv_fault_counts_toward_cache",
        "on | off",
        "Whether Fault dice count toward the cache maximum (and may then be discarded).",
    ),
    (
        "vv_fault_check",
        "end_of_round | immediate",
        "When matching Fault dice become Injuries: at the End phase, or at once.",
    ),
    (
        "vv_error_dice_stacking",
        "sum | max",
        "Whether Error Dice from several Injuries add up or only the worst counts.",
    ),
    (
        "vv_tie_break",
        "stat_then_reroll | reroll",
        "How tied Outthink or Initiative values are ordered.",
    ),
    (
        "vv_initiative_order",
        "descending | ascending",
        "Whether the highest or the lowest Initiative acts first in the Resolution phase.",
    ),
    (
        "vv_default_damage",
        "manual | width",
        "Whether the bot suggests the set's width as an attack's damage.",
    ),
    (
        "vv_defense_mode",
        "display | subtract",
        "Whether Defense, Integrity and Resolve are only shown or subtracted from damage.",
    ),
    (
        "vv_power_penalty",
        "minus_one_die | display",
        "Whether the -1 Power penalty at 0 Vitality removes a die or is only shown.",
    ),
    (
        "vv_repair_check",
        "height | set_value",
        "How a Cyber repair check passes: a set as high as the value, or a set value of 10 + the value.",
    ),
];

/// Every setting name, in the order `describe` lists them.
pub const SETTING_NAMES: [&str; 13] = {
    let mut names = [""; 13];
    let mut k = 0;
    while k < names.len() {
        names[k] = ABOUT[k].0;
        k += 1;
    }
    names
};

fn on_off(b: bool) -> String {
    if b { "on" } else { "off" }.to_string()
}

fn parse_bool(name: &str, value: &str) -> Result<bool, RuleError> {
    match value.trim().to_ascii_lowercase().as_str() {
        "on" | "true" | "yes" | "1" => Ok(true),
        "off" | "false" | "no" | "0" => Ok(false),
        _ => Err(RuleError::new(format!(
            "{name} must be on or off, not \"{}\".",
            value.trim()
        ))),
    }
}

impl OreSettings {
    /// Changes one setting by its name (with or without the `vv_` prefix).
    ///
    /// On error nothing changes; the message names the allowed values.
    pub fn set(&mut self, name: &str, value: &str) -> Result<(), RuleError> {
        let key = name.trim().to_ascii_lowercase();
        let key = key.strip_prefix("vv_").unwrap_or(&key).to_string();
        let full = format!("vv_{key}");
        match key.as_str() {
            "max_pool" => {
                let n: u32 = value.trim().parse().map_err(|_| {
                    RuleError::new(format!(
                        "vv_max_pool must be a whole number from 1 to {MAX_SUPPORTED_POOL}."
                    ))
                })?;
                if !(1..=MAX_SUPPORTED_POOL).contains(&n) {
                    return Err(RuleError::new(format!(
                        "vv_max_pool must be a whole number from 1 to {MAX_SUPPORTED_POOL}."
                    )));
                }
                self.max_pool = n;
            }
            "face_modifier_bounds" => self.face_modifier_bounds = FaceBounds::parse(&full, value)?,
            "allow_split_sets" => self.allow_split_sets = parse_bool(&full, value)?,
            "cache_consumed_on_use" => self.cache_consumed_on_use = parse_bool(&full, value)?,
            "fault_counts_toward_cache" => {
                self.fault_counts_toward_cache = parse_bool(&full, value)?
            }
            "fault_check" => self.fault_check = FaultCheck::parse(&full, value)?,
            "error_dice_stacking" => {
                self.error_dice_stacking = ErrorDiceStacking::parse(&full, value)?
            }
            "tie_break" => self.tie_break = TieBreak::parse(&full, value)?,
            "initiative_order" => self.initiative_order = InitiativeOrder::parse(&full, value)?,
            "default_damage" => self.default_damage = DefaultDamage::parse(&full, value)?,
            "defense_mode" => self.defense_mode = DefenseMode::parse(&full, value)?,
            "power_penalty" => self.power_penalty = PowerPenalty::parse(&full, value)?,
            "repair_check" => self.repair_check = RepairCheck::parse(&full, value)?,
            _ => {
                return Err(RuleError::new(format!(
                    "There is no Virtual Veil setting called \"{}\"; the settings are {}.",
                    name.trim(),
                    SETTING_NAMES.join(", ")
                )))
            }
        }
        Ok(())
    }

    /// The current values, in [`ABOUT`]'s order.
    fn values(&self) -> [String; 13] {
        [
            self.max_pool.to_string(),
            self.face_modifier_bounds.as_str().to_string(),
            on_off(self.allow_split_sets),
            on_off(self.cache_consumed_on_use),
            on_off(self.fault_counts_toward_cache),
            self.fault_check.as_str().to_string(),
            self.error_dice_stacking.as_str().to_string(),
            self.tie_break.as_str().to_string(),
            self.initiative_order.as_str().to_string(),
            self.default_damage.as_str().to_string(),
            self.defense_mode.as_str().to_string(),
            self.power_penalty.as_str().to_string(),
            self.repair_check.as_str().to_string(),
        ]
    }

    /// Lists every setting with its current value, allowed values and help text.
    pub fn describe(&self) -> Vec<SettingInfo> {
        ABOUT
            .iter()
            .zip(self.values())
            .map(|(&(name, allowed, help), value)| SettingInfo {
                name,
                value,
                allowed,
                help,
            })
            .collect()
    }

    /// The current value of one setting, in the words `set` accepts.
    pub fn get(&self, name: &str) -> Option<String> {
        let key = name.trim().to_ascii_lowercase();
        let full = if key.starts_with("vv_") {
            key
        } else {
            format!("vv_{key}")
        };
        self.describe()
            .into_iter()
            .find(|info| info.name == full)
            .map(|info| info.value)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn defaults_follow_section_6() {
        let s = OreSettings::default();
        let expect = [
            ("vv_max_pool", "10"),
            ("vv_face_modifier_bounds", "clamp"),
            ("vv_allow_split_sets", "off"),
            ("vv_cache_consumed_on_use", "on"),
            ("vv_fault_counts_toward_cache", "off"),
            ("vv_fault_check", "end_of_round"),
            ("vv_error_dice_stacking", "sum"),
            ("vv_tie_break", "stat_then_reroll"),
            ("vv_initiative_order", "descending"),
            ("vv_default_damage", "manual"),
            ("vv_defense_mode", "display"),
            ("vv_power_penalty", "minus_one_die"),
            ("vv_repair_check", "height"),
        ];
        let described = s.describe();
        assert_eq!(described.len(), expect.len());
        for ((name, value), info) in expect.iter().zip(&described) {
            assert_eq!(info.name, *name);
            assert_eq!(info.value, *value, "{name}");
        }
        let names: Vec<&str> = described.iter().map(|i| i.name).collect();
        assert_eq!(names, SETTING_NAMES);
    }

    #[test]
    fn every_setting_round_trips_through_set_and_describe() {
        let mut s = OreSettings::default();
        for info in OreSettings::default().describe() {
            // Every allowed word (or the range ends) is accepted and read back.
            let words: Vec<String> = if info.allowed.contains('|') {
                info.allowed
                    .split('|')
                    .map(|w| w.trim().to_string())
                    .collect()
            } else {
                vec!["1".into(), "30".into(), "15".into()]
            };
            for w in words {
                s.set(info.name, &w).unwrap();
                assert_eq!(s.get(info.name).unwrap(), w);
            }
        }
    }

    #[test]
    fn a_o2_max_pool_is_validated() {
        let mut s = OreSettings::default();
        for bad in ["0", "31", "-1", "ten", ""] {
            let err = s.set("vv_max_pool", bad).unwrap_err();
            assert!(err.message.contains("1 to 30"), "{}", err.message);
        }
        assert_eq!(s.max_pool, 10);
        s.set("max_pool", " 15 ").unwrap();
        assert_eq!(s.max_pool, 15);
    }

    #[test]
    fn bad_values_name_the_allowed_ones_and_change_nothing() {
        let mut s = OreSettings::default();
        let err = s.set("vv_fault_check", "sometimes").unwrap_err();
        assert_eq!(
            err.message,
            "vv_fault_check must be one of end_of_round, immediate, not \"sometimes\"."
        );
        let err = s.set("vv_cache_consumed_on_use", "maybe").unwrap_err();
        assert!(err.message.contains("on or off"));
        let err = s.set("vv_colour", "red").unwrap_err();
        assert!(err.message.contains("vv_max_pool"));
        assert_eq!(s, OreSettings::default());
    }

    #[test]
    fn the_settings_no_table_procedure_reaches_are_gone() {
        // vv_diagonal_adjacency was removed until a command reaches it: it
        // is refused, and a guild's stored JSON that still holds it loads,
        // ignoring it.
        let mut s = OreSettings::default();
        let err = s.set("vv_diagonal_adjacency", "on").unwrap_err();
        assert!(err.message.contains("no Virtual Veil setting"));
        let s: OreSettings =
            serde_json::from_str(r#"{"max_pool": 8, "diagonal_adjacency": true}"#).unwrap();
        assert_eq!(s.max_pool, 8);
    }

    #[test]
    fn a_o6_a_o7_face_bounds_and_split_sets_are_back_and_load_from_old_json() {
        // Issue 15: the roll's buttons reach them again. A guild that stored
        // them before they were dropped keeps its choice.
        let s: OreSettings = serde_json::from_str(
            r#"{"max_pool": 8, "face_modifier_bounds": "wrap", "allow_split_sets": true}"#,
        )
        .unwrap();
        assert_eq!(s.face_modifier_bounds, FaceBounds::Wrap);
        assert!(s.allow_split_sets);
        let mut s = OreSettings::default();
        assert_eq!(s.face_modifier_bounds, FaceBounds::Clamp);
        assert!(!s.allow_split_sets);
        s.set("vv_face_modifier_bounds", "WRAP").unwrap();
        s.set("allow_split_sets", "on").unwrap();
        assert_eq!(s.get("vv_face_modifier_bounds").unwrap(), "wrap");
        assert_eq!(s.get("vv_allow_split_sets").unwrap(), "on");
        let err = s.set("vv_face_modifier_bounds", "bounce").unwrap_err();
        assert_eq!(
            err.message,
            "vv_face_modifier_bounds must be one of clamp, wrap, not \"bounce\"."
        );
    }

    #[test]
    fn settings_serialise_and_tolerate_missing_fields() {
        let s: OreSettings = serde_json::from_str(r#"{"max_pool": 12}"#).unwrap();
        assert_eq!(s.max_pool, 12);
        assert_eq!(s.fault_check, FaultCheck::EndOfRound);
        let json = serde_json::to_string(&OreSettings::default()).unwrap();
        let back: OreSettings = serde_json::from_str(&json).unwrap();
        assert_eq!(back, OreSettings::default());
    }
}

crate::rules::house_rules!(OreSettings, SETTING_NAMES);
