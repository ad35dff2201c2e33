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

/// Applies `actions` in turn with `apply` (one move of a check or a task):
/// the state after them all and every event, in order. All or none: on the
/// first refusal the refusal is returned and `ctx` is as it was.
fn apply_in_turn<S, A, E, R: rand::Rng + ?Sized>(
    mut state: S,
    ctx: &mut VenusCtx,
    actions: impl IntoIterator<Item = A>,
    rng: &mut R,
    apply: impl Fn(S, &mut VenusCtx, A, &mut R) -> Result<(S, Vec<E>), crate::rules::RuleError>,
) -> Result<(S, Vec<E>), crate::rules::RuleError> {
    let mut work = ctx.clone();
    let mut events = Vec::new();
    for action in actions {
        let (next, ev) = apply(state, &mut work, action, rng)?;
        state = next;
        events.extend(ev);
    }
    *ctx = work;
    Ok((state, events))
}

impl CheckState {
    /// Applies several moves in turn, all or none ([`CheckState::apply`]
    /// each): the check after them and their events.
    pub fn apply_all<R: rand::Rng + ?Sized>(
        self,
        ctx: &mut VenusCtx,
        actions: impl IntoIterator<Item = CheckAction>,
        rng: &mut R,
    ) -> Result<(Self, Vec<CheckEvent>), crate::rules::RuleError> {
        apply_in_turn(self, ctx, actions, rng, |s, c, a, r| s.apply(c, a, r))
    }
}

impl TaskState {
    /// Applies several moves in turn, all or none ([`TaskState::apply`]
    /// each): the task after them and their events.
    pub fn apply_all<R: rand::Rng + ?Sized>(
        self,
        ctx: &mut VenusCtx,
        actions: impl IntoIterator<Item = TaskAction>,
        rng: &mut R,
    ) -> Result<(Self, Vec<TaskEvent>), crate::rules::RuleError> {
        apply_in_turn(self, ctx, actions, rng, |s, c, a, r| s.apply(c, a, r))
    }
}
