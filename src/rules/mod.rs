//! The pure rules core: dice, rules, odds and sheet logic for every system.
//!
//! Nothing in here touches Discord, the database or any other I/O.
//! Randomness always comes in as `&mut impl Rng`, so tests seed it.
//!
//! Module map:
//! - [`dice`]: rolling single dice and pools.
//! - [`dist`]: exact discrete distributions (convolution, binomial, tails).
//! - [`error`]: [`RuleError`], the one error type every rule returns.
//! - [`expr`]: generic dice expressions for `/roll`.
//! - [`names`]: the names a refusal lists, closest first.
//! - [`odds`]: what the systems' typed odds questions share ([`odds::OddsError`]).
//! - [`turns`]: the turn order the table's trackers share (seats, whose turn, rounds).
//! - one folder per rule system: [`venus`] (000 and 001), [`veracity`] (002), [`storyteller`] (003), [`ore`] (004, Virtual Veil).

pub mod dice;
pub mod dist;
pub mod entries;
pub mod error;
pub mod expr;
pub mod names;
pub mod odds;
pub mod ore;
pub mod storyteller;
pub mod turns;
pub mod venus;
pub mod veracity;

pub use error::RuleError;

use serde::{Deserialize, Serialize};

/// Who performs an action in a procedure: a participant id (the Discord user
/// id, in the bot) and whether they hold the guild's GM role (the FC).
///
/// The application layer fills this in; rules use it for per-participant
/// limits such as "allies re-roll their own dice only".
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct Actor {
    /// The participant's id.
    pub id: i64,
    /// True when the participant holds the GM role.
    pub gm: bool,
}

/// One house-rule setting as the bot shows it to the FC: its name, current
/// value, the values it accepts and a one-line explanation. Every system's
/// settings struct describes itself with these (spec §6).
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct SettingInfo {
    /// The setting's name, as typed in `set`, e.g. `vv_max_pool`.
    pub name: &'static str,
    /// The current value, in the form `set` accepts.
    pub value: String,
    /// The accepted values, for display and autocompletion (`a | b`, `1-30`).
    pub allowed: &'static str,
    /// What the setting changes, in one sentence.
    pub help: &'static str,
}

/// A system's house rules (spec §6): a typed settings struct that names
/// its settings, describes them and validates a change. The application
/// layer stores it per guild and lists it without knowing the system.
pub trait HouseRules {
    /// Every setting name, in display order.
    const NAMES: &'static [&'static str];
    /// Changes one setting; nothing changes on error.
    fn set(&mut self, name: &str, value: &str) -> Result<(), RuleError>;
    /// Every setting with its current value, in [`HouseRules::NAMES`] order.
    fn describe(&self) -> Vec<SettingInfo>;
    /// Values worth suggesting for a setting whose accepted values are not
    /// a plain list or small range (`None`: read them off `allowed`).
    fn suggest(_name: &str) -> Option<&'static [&'static str]> {
        None
    }
}

/// Implements [`HouseRules`] for a settings struct with inherent `set` and
/// `describe` methods and a `SETTING_NAMES` list beside it.
macro_rules! house_rules {
    ($t:ty, $names:expr $(, $name:literal => [$($v:literal),* $(,)?])* $(,)?) => {
        impl $crate::rules::HouseRules for $t {
            const NAMES: &'static [&'static str] = &$names;
            fn set(&mut self, name: &str, value: &str) -> Result<(), $crate::rules::RuleError> {
                <$t>::set(self, name, value)
            }
            fn describe(&self) -> Vec<$crate::rules::SettingInfo> {
                <$t>::describe(self)
            }
            fn suggest(_name: &str) -> Option<&'static [&'static str]> {
                match _name {
                    $($name => Some(&[$($v),*]),)*
                    _ => None,
                }
            }
        }
    };
}
pub(crate) use house_rules;
