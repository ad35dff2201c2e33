//! Venus Engine, both editions: 000 (VE1, 1st Playtest) and 001 (VE2, Playsheet).
//!
//! Module map:
//! - [`rank`]: ranks and their dice thresholds.
//! - [`odds`]: exact odds for checks, tasks and KISS re-rolls.

pub mod odds;
pub mod rank;

pub use rank::Rank;
