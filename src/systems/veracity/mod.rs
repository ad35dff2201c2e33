//! Veracity (002) at the table: Light/Flesh slot sheets, saves, Stress,
//! Breaks, Wounds, Facets, revelations and the channel's Conventions.
//!
//! Every action, command or click, goes through the action pipeline
//! ([`crate::app::pipeline`]): a turn loads the sheet (or the channel's
//! Convention list), the action calls the rules core in
//! [`crate::rules::veracity`] and returns an outcome, and the pipeline
//! saves, logs, commits and redraws (the running fight too, [`context`]).
//! Refusals return before anything is written, so nothing changes.
//!
//! Module map:
//! - [`context`]: Veracity's scope in the action pipeline, and how a
//!   running fight follows the sheets it seats.
//! - [`target`]: whose sheet an action touches, rights, settings, parsing.
//! - [`render`]: slot grids, sheet, change, save and Convention embeds.
//! - [`sheets`]: creating, showing and editing sheets (items, Facets, HP).
//! - [`changes`]: Stress, Wounds, damage, rest, revelations, acting against a Facet.
//! - [`saves`]: the d20 slot save.
//! - [`conventions`]: the channel's Conventions, violations and the end of a scene.
//! - [`history`]: one readable `/history` line per logged action.
//! - [`governed`]: the changes `player_edits` governs (the referee's).
//! - [`session`]: the interactive messages (sheet buttons, the Convention board).
//! - [`state`]: what an interactive message shows (a sheet or a board).
//! - [`buttons`]: every button's action word, typed (encode and parse).
//! - [`rest`]: a sheet's Rest buttons.
//! - [`reveal`]: revelations waiting for the referee's judgement.
//! - [`combat`]: the combat tracker (a `vrc` session): side initiative,
//!   surprise, AP, fleeing, damage in a fight.
//! - [`combat_view`]: how the tracker looks; [`combat_buttons`]: its buttons.
//! - [`commands`]: the thin poise commands.

pub mod buttons;
pub mod changes;
pub mod combat;
pub mod combat_buttons;
pub mod combat_redraw;
pub mod combat_view;
pub mod commands;
pub mod context;
pub mod conventions;
pub mod governed;
pub mod history;
pub mod odds;
pub mod record;
pub mod render;
pub mod rest;
pub mod reveal;
pub mod saves;
pub mod session;
pub mod sheets;
pub mod state;
pub mod system;
pub mod target;

pub use session::{click, render_session as render};

/// The session kind (custom_id prefix) of Veracity messages.
pub const KIND: &str = "vr";
/// The system name in the `characters` table, settings scope and log.
pub const SYSTEM: &str = "veracity";

/// What the rules call the game master: the referee (the seed's game master).
pub const GM: &str = "referee";
/// How to get a sheet, for refusals.
pub const HINT: &str = "create one with `/vr sheet create`.";
