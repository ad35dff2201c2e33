//! Venus Engine, both editions: 000 (VE1, 1st Playtest) and 001 (VE2, Playsheet).
//!
//! Module map:
//! - [`rank`]: ranks and their dice thresholds.
//! - [`odds`]: exact odds for checks, tasks and KISS re-rolls.
//! - [`check`]: checks, both editions (d20, natural rules, bonus factors).
//! - [`settings`]: the guild's Venus settings (spec §6) and their descriptions.
//! - [`sheet`]: the character sheet, exp, level-ups, Lots and Ego, and
//!   [`VenusCtx`], the sheets a procedure reads and changes.
//! - [`spotlight`]: turns, rounds and scenes (who has the spotlight).
//! - [`task`]: tasks, both editions (pools, aid, KISS, Ego, spending beats,
//!   outcome, exp and level-ups).

pub mod check;
pub mod odds;
pub mod rank;
pub mod settings;
pub mod sheet;
pub mod spotlight;
pub mod task;

pub use check::{
    CheckAction, CheckActionKind, CheckEvent, CheckPhase, CheckResult, CheckSetup, CheckState,
};
pub use rank::Rank;
pub use settings::{Edition, SettingInfo, VenusSettings};
pub use sheet::{SheetEvent, Tier, VenusCtx, VenusSheet};
pub use task::{TaskAction, TaskActionKind, TaskEvent, TaskPhase, TaskSetup, TaskState};
