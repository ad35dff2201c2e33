//! Veracity (seed 002): d20 "slot saves" read against the Light and Flesh
//! inventories, Stress and Breaks, Wounds and death, Facets, Conventions and
//! levelling by revealing Secrets (spec §3, VR-1..VR-24, A-R1..A-R15).
//!
//! Module map:
//! - [`item`]: the inventories, item kinds, items and Facet dice the sheet
//!   and its events are made of (VR-1, VR-4, VR-12).
//! - [`sheet`]: the character sheet: inventories, items, slots, Facets, HP, the
//!   revelation log and known Secrets (VR-1..VR-6, VR-12, VR-13).
//! - [`settings`]: [`VeracitySettings`] (the `vr_*` settings) and [`SettingInfo`].
//! - [`save`]: rolling saves and their exact odds (VR-7..VR-11).
//! - [`stress`]: Stress, Breaks, heart attacks, Wounds, damage, recovery,
//!   death (VR-14..VR-20).
//! - [`level`]: levelling up by shocking an NPC with Secrets (VR-24).
//! - [`convention`]: the scene's social Conventions and violations (VR-16).
//! - [`initiative`]: AP, side initiative and fleeing (VR-21..VR-23).
//! - [`tracker`]: the fight: side turns, the surprise turn, AP, fleeing
//!   and who is out, over the shared turn order (VR-21..VR-23).
//! - [`amount`]: `N` / `dN` / `NdM` amounts for Stress, Wounds and damage.
//! - [`event`]: the [`Event`]s every operation returns.
//! - [`action`]: one serde [`Action`] enum and [`Sheet::apply`] covering every
//!   sheet operation, for the application's roll log.
//!
//! Every operation validates first and changes state only when it returns `Ok`.

pub mod action;
pub mod amount;
pub mod convention;
pub mod event;
pub mod initiative;
pub mod item;
pub mod level;
pub mod save;
pub mod settings;
pub mod sheet;
pub mod stress;
pub mod tracker;

#[cfg(test)]
mod tests;

pub use action::Action;
pub use amount::Amount;
pub use event::Event;
pub use settings::{SettingInfo, VeracitySettings};
pub use sheet::{Inventory, InventoryKind, Item, ItemKind, Sheet};
