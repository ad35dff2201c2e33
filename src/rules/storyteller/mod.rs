//! The Storyteller d10 rules (source 003, spec §4): pools of d10s against a
//! difficulty, with thresholds, botches, exploding specialty dice and
//! willpower.
//!
//! Module map:
//! - [`sheet`]: the character sheet (§4.1), canonical traits, aliases and
//!   custom traits with case-insensitive lookup (A-S12).
//! - [`settings`]: the guild's ST settings (§6) and [`SettingInfo`].
//! - [`pool`]: building a roll from traits, difficulty, threshold,
//!   specialties and wounds (§4.2, ST-1 to ST-3, ST-7, ST-8).
//! - [`roll`]: rolling and resolving (§4.3, ST-4 to ST-9, A-S11 cap).
//! - [`willpower`]: roll sessions (the ST-11 purchase state machine), events
//!   and the willpower rules (§4.4, ST-10 to ST-14).
//! - [`odds`]: exact odds (§7) and the bonus-dice distribution (§1.7).

pub mod odds;
pub mod pool;
pub mod roll;
pub mod settings;
pub mod sheet;
pub mod willpower;

#[cfg(test)]
mod tests;

pub use odds::{roll_odds, roll_odds_with, spec_odds, Outcome3};
pub use pool::{AdHocRequest, PoolNote, RollKind, RollRequest, RollSpec, WillpowerRequest};
pub use roll::{roll, FaceCounts, Outcome, RollResult};
pub use settings::{BonusDicePerTen, SettingInfo, StorytellerSettings, ZeroPool};
pub use sheet::{Category, SpecialtyType, StorytellerSheet, TraitCatalog, TraitKind};
pub use willpower::{Action, ActionKind, Event, Phase, RollSession};
