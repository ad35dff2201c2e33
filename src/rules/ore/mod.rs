//! Virtual Veil (004): the One-Roll Engine (ORE) rules core, spec §5.
//!
//! Players roll a pool of d10s ("digits") equal to a stat and read it for
//! **sets** of matching faces; the widest, then highest, set wins. A COMP
//! keeps a **cache** of dice between rounds; damage rolls **Fault dice**
//! whose matches become **Injuries**.
//!
//! Module map:
//! - [`sets`]: reading a roll: sets (width × height), loose dice, values
//!   (10 × width + height, "3×7 (37)"), difficulties, face modifiers,
//!   Special-action patterns (VV-2..VV-6).
//! - [`sheet`]: the character sheet: stats, Vitality/Confidence/Cyber
//!   tracks, defenses, COMP, cache, Fault dice, Injuries, world, mob mode (§5.6).
//! - [`settings`]: [`OreSettings`], every `vv_*` setting of §6, and
//!   [`settings::SettingInfo`].
//! - [`events`]: [`OreEvent`], the roll-log events of every procedure.
//! - [`roll`]: [`OreRoll`], the stat roll and its register as a state
//!   machine: cache dice, loading, Minor/Basic/Special/Free actions (VV-1..VV-8).
//! - [`comp`]: booting the COMP (rolling the cache), logout, battery,
//!   discarding on cache overflow (VV-8, VV-17).
//! - [`damage`]: damage, Fault dice, Injuries, the End phase, healing and
//!   Cyber repair (VV-12..VV-16).
//! - [`combat`]: Outthink and Initiative rolls and orders, reactions,
//!   ranges and movement (VV-9..VV-11).
//! - [`tracker`]: the combat tracker as a state machine over the shared
//!   turn order (phases, calls, turns, reactions, the End phase).
//! - [`odds`]: exact odds by counting (the 004 probability table, §7).

pub mod combat;
pub mod comp;
pub mod damage;
pub mod events;
pub mod odds;
pub mod roll;
pub mod sets;
pub mod settings;
pub mod sheet;
#[cfg(test)]
mod tests;
pub mod tracker;

pub use events::OreEvent;
pub use roll::{OreRoll, RollAction};
pub use sets::{Reading, Set};
pub use settings::OreSettings;
pub use sheet::OreSheet;
