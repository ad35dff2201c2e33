//! A change the house rule `player_edits` governs, as a game declares it
//! (issue 13): what it does before → after, and its outcome in a turn of
//! the game. `systems::table::approval` decides, by the house rule,
//! whether a player's change applies, is announced or waits for the game
//! master's approval; the approval runs it inside its own transaction.

use std::future::Future;

use serde::{de::DeserializeOwned, Serialize};

use super::pipeline::{Outcome, Pending, Scope, Turn};
use super::registry::{BoxFuture, Governed};
use super::{Act, App, AppError, AppResult, Caller};

/// A change the house rule `player_edits` governs, typed by its system.
///
/// A game says what the change does ([`Change::prepare`]) and what its
/// outcome is in a turn of the game ([`Change::outcome`], by the same
/// outcome functions as the command); the pipeline runs it in an action
/// of its own ([`Change::apply`]) or inside an approval's transaction
/// ([`Change::apply_within`]).
pub trait Change: Serialize + DeserializeOwned + Send + Sync + Sized + 'static {
    /// The game whose turn runs the change (its id names the owner).
    type Scope: Scope;

    /// The owning game's id.
    const SYSTEM: &'static str = <Self::Scope as Scope>::ID;

    /// Which of the system's governed changes this is.
    fn governed(&self) -> Governed;

    /// Reads what the change would do, as `caller` asks it: pins the
    /// character (so the game master's approval reaches the same one) and
    /// says what changes, before → after. Changes nothing.
    fn prepare(
        self,
        app: &App,
        caller: &Caller,
    ) -> impl Future<Output = Result<Prepared<Self>, AppError>> + Send;

    /// The change's outcome in `turn`, exactly as the command's.
    fn outcome(
        self,
        app: &App,
        turn: &mut Turn<'_, Self::Scope>,
    ) -> impl Future<Output = Result<Outcome<<Self::Scope as Scope>::Sheet>, AppError>> + Send;

    /// Applies the change as `caller`, in an action of its own.
    fn apply(self, app: &App, caller: &Caller) -> impl Future<Output = AppResult> + Send {
        async move {
            let mut turn = Turn::<Self::Scope>::begin(app, caller).await?;
            let out = self.outcome(app, &mut turn).await?;
            turn.finish(out).await
        }
    }

    /// Applies the change inside `act` (an approval's transaction, as its
    /// caller), by the same code as the command; the approval commits and
    /// draws.
    fn apply_within(
        self,
        app: &App,
        act: &mut Act,
    ) -> impl Future<Output = Result<Pending, AppError>> + Send {
        async move {
            let mut turn = Turn::<Self::Scope>::within(app, act).await?;
            let out = self.outcome(app, &mut turn).await?;
            turn.settle(out).await
        }
    }
}

/// A change ready to be asked for.
#[derive(Debug, Clone)]
pub struct Prepared<C> {
    /// The change, its character pinned.
    pub change: C,
    /// What it does, before → after (`Ada: willpower 3/7 → 7/7`).
    pub what: String,
    /// It would leave everything as it is (`/vv heal days:1` on an unhurt
    /// character): a player's such change is refused, privately, and
    /// nothing is asked or saved.
    pub unchanged: bool,
    /// The character it changes (its row id), whose change the game
    /// master can undo from the announcement under `free`.
    pub character: Option<i64>,
}

/// Applies a stored change of type `C` inside an approval's transaction
/// (the systems' [`System::apply_change_within`]).
///
/// [`System::apply_change_within`]: crate::app::registry::System::apply_change_within
pub fn apply_stored_within<'a, C: Change>(
    app: &'a App,
    act: &'a mut Act,
    change: &'a serde_json::Value,
) -> Option<BoxFuture<'a, Result<Pending, AppError>>> {
    Some(Box::pin(async move {
        let c: C = serde_json::from_value(change.clone())?;
        c.apply_within(app, act).await
    }))
}
