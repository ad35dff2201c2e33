//! Veracity's per-guild settings (spec §6, the `vr_*` rows) with the spec's
//! defaults, validated setters and descriptions for the bot's settings menu.

use serde::{Deserialize, Serialize};
use std::fmt;

use crate::rules::RuleError;

/// What a save total landing on a locked slot means (A-R1).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize, Default)]
#[serde(rename_all = "snake_case")]
pub enum LockedSlot {
    /// A locked slot is a failure (default).
    #[default]
    Fail,
    /// A locked slot counts as empty, so a success.
    Success,
}

/// What happens to a Wound that finds no empty Flesh slot (A-R4).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize, Default)]
#[serde(rename_all = "snake_case")]
pub enum WoundOverflow {
    /// The owner loses a non-Wound Flesh item and the Wound takes its slot (default).
    #[default]
    Displace,
    /// The Wound is discarded.
    Discard,
}

impl fmt::Display for LockedSlot {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            LockedSlot::Fail => "fail",
            LockedSlot::Success => "success",
        })
    }
}

impl fmt::Display for WoundOverflow {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            WoundOverflow::Displace => "displace",
            WoundOverflow::Discard => "discard",
        })
    }
}

/// What action points are counted from (A-R8).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize, Default)]
#[serde(rename_all = "snake_case")]
pub enum ApBasis {
    /// AP = unlocked Flesh slots, filled or not (default).
    #[default]
    Unlocked,
    /// AP = empty unlocked Flesh slots.
    Empty,
}

impl fmt::Display for ApBasis {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            ApBasis::Unlocked => "unlocked",
            ApBasis::Empty => "empty",
        })
    }
}

pub use crate::rules::SettingInfo;

/// The Veracity settings of one guild (spec §6). `Default` gives the spec's defaults.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, Default)]
#[serde(default)]
pub struct VeracitySettings {
    /// A-R1: a save total on a locked slot fails (default) or succeeds.
    pub vr_locked_slot: LockedSlot,
    /// A-R2: items above a removed item move down (default off).
    pub vr_compact_on_remove: bool,
    /// A-R4: a Wound with no empty Flesh slot displaces an item (default) or is discarded.
    pub vr_wound_overflow: WoundOverflow,
    /// A-R5: damage beyond the remaining HP becomes Wounds (default off: it is lost).
    pub vr_hp_overflow_to_wounds: bool,
    /// A-R8: AP counts unlocked Flesh slots (default) or empty ones (the
    /// combat tracker, issue 15).
    pub vr_ap_basis: ApBasis,
}

/// The names of every Veracity setting, in display order.
pub const SETTING_NAMES: [&str; 5] = [
    "vr_locked_slot",
    "vr_compact_on_remove",
    "vr_wound_overflow",
    "vr_hp_overflow_to_wounds",
    "vr_ap_basis",
];

fn parse_bool(name: &str, value: &str) -> Result<bool, RuleError> {
    match value.trim().to_ascii_lowercase().as_str() {
        "on" | "true" | "yes" | "1" => Ok(true),
        "off" | "false" | "no" | "0" => Ok(false),
        _ => Err(RuleError::new(format!(
            "`{name}` must be `on` or `off`, not `{}`.",
            value.trim()
        ))),
    }
}

fn on_off(b: bool) -> String {
    if b { "on" } else { "off" }.to_string()
}

impl VeracitySettings {
    /// Changes one setting by name. Names and values are case-insensitive;
    /// booleans accept on/off (also true/false, yes/no, 1/0).
    /// On error nothing changes and the message lists the allowed values.
    pub fn set(&mut self, name: &str, value: &str) -> Result<(), RuleError> {
        let name = name.trim().to_ascii_lowercase();
        let v = value.trim().to_ascii_lowercase();
        match name.as_str() {
            "vr_locked_slot" => {
                self.vr_locked_slot = match v.as_str() {
                    "fail" => LockedSlot::Fail,
                    "success" => LockedSlot::Success,
                    _ => {
                        return Err(RuleError::new(format!(
                            "`vr_locked_slot` must be `fail` or `success`, not `{}`.",
                            value.trim()
                        )))
                    }
                }
            }
            "vr_compact_on_remove" => self.vr_compact_on_remove = parse_bool(&name, value)?,
            "vr_wound_overflow" => {
                self.vr_wound_overflow = match v.as_str() {
                    "displace" => WoundOverflow::Displace,
                    "discard" => WoundOverflow::Discard,
                    _ => {
                        return Err(RuleError::new(format!(
                            "`vr_wound_overflow` must be `displace` or `discard`, not `{}`.",
                            value.trim()
                        )))
                    }
                }
            }
            "vr_hp_overflow_to_wounds" => self.vr_hp_overflow_to_wounds = parse_bool(&name, value)?,
            "vr_ap_basis" => {
                self.vr_ap_basis = match v.as_str() {
                    "unlocked" => ApBasis::Unlocked,
                    "empty" => ApBasis::Empty,
                    _ => {
                        return Err(RuleError::new(format!(
                            "`vr_ap_basis` must be `unlocked` or `empty`, not `{}`.",
                            value.trim()
                        )))
                    }
                }
            }
            _ => {
                return Err(RuleError::new(format!(
                    "There is no Veracity setting called `{}`: use one of {}.",
                    name,
                    SETTING_NAMES.join(", ")
                )))
            }
        }
        Ok(())
    }

    /// Every setting with its current value, allowed values and help text.
    pub fn describe(&self) -> Vec<SettingInfo> {
        vec![
            SettingInfo {
                name: "vr_locked_slot",
                value: self.vr_locked_slot.to_string(),
                allowed: "fail | success",
                help: "A save total that lands on a locked slot fails (default) or succeeds (A-R1).",
            },
            SettingInfo {
                name: "vr_compact_on_remove",
                value: on_off(self.vr_compact_on_remove),
                allowed: "on | off",
                help: "When an item is removed, the items above it move down to close the gap (A-R2).",
            },
            SettingInfo {
                name: "vr_wound_overflow",
                value: self.vr_wound_overflow.to_string(),
                allowed: "displace | discard",
                help: "A Wound with no empty Flesh slot replaces a non-Wound item (default) or is discarded (A-R4).",
            },
            SettingInfo {
                name: "vr_hp_overflow_to_wounds",
                value: on_off(self.vr_hp_overflow_to_wounds),
                allowed: "on | off",
                help: "Damage beyond the remaining HP becomes Wounds instead of being lost (A-R5).",
            },
            SettingInfo {
                name: "vr_ap_basis",
                value: self.vr_ap_basis.to_string(),
                allowed: "unlocked | empty",
                help: "AP per combat turn equals the unlocked Flesh slots (default) or only the empty ones (A-R8).",
            },
        ]
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn defaults_match_the_settings_catalogue() {
        let s = VeracitySettings::default();
        assert_eq!(s.vr_locked_slot, LockedSlot::Fail);
        assert!(!s.vr_compact_on_remove);
        assert_eq!(s.vr_wound_overflow, WoundOverflow::Displace);
        assert!(!s.vr_hp_overflow_to_wounds);
        assert_eq!(s.vr_ap_basis, ApBasis::Unlocked);
    }

    #[test]
    fn set_then_describe_round_trips_every_setting() {
        let mut s = VeracitySettings::default();
        s.set("vr_locked_slot", "Success").unwrap();
        s.set("VR_COMPACT_ON_REMOVE", "on").unwrap();
        s.set("vr_wound_overflow", "discard").unwrap();
        s.set("vr_hp_overflow_to_wounds", "yes").unwrap();
        s.set("vr_ap_basis", "Empty").unwrap();
        let d = s.describe();
        assert_eq!(d.len(), SETTING_NAMES.len());
        let mut again = VeracitySettings::default();
        for info in &d {
            again.set(info.name, &info.value).unwrap();
        }
        assert_eq!(again, s);
        assert_eq!(
            d.iter().map(|i| i.name).collect::<Vec<_>>(),
            SETTING_NAMES.to_vec()
        );
    }

    #[test]
    fn bad_values_are_refused_without_change() {
        let mut s = VeracitySettings::default();
        let e = s.set("vr_locked_slot", "maybe").unwrap_err();
        assert!(e.message.contains("`fail` or `success`"));
        assert!(s.set("vr_compact_on_remove", "sometimes").is_err());
        // Back with the combat tracker (issue 15): `full` is no basis.
        assert!(s.set("vr_ap_basis", "full").is_err());
        assert!(s.set("vr_wound_overflow", "").is_err());
        let e = s.set("vr_nope", "on").unwrap_err();
        assert!(e.message.contains("vr_locked_slot"));
        assert_eq!(s, VeracitySettings::default());
    }

    #[test]
    fn serde_fills_missing_fields_with_defaults() {
        // A `vr_ap_basis` stored before it was briefly removed loads again.
        let s: VeracitySettings =
            serde_json::from_str(r#"{"vr_ap_basis":"empty","vr_compact_on_remove":true}"#).unwrap();
        assert!(s.vr_compact_on_remove);
        assert_eq!(s.vr_ap_basis, ApBasis::Empty);
        assert_eq!(s.vr_locked_slot, LockedSlot::Fail);
        let json = serde_json::to_string(&s).unwrap();
        assert_eq!(serde_json::from_str::<VeracitySettings>(&json).unwrap(), s);
    }
}

crate::rules::house_rules!(VeracitySettings, SETTING_NAMES);
