//! A change the house rule `player_edits` governs, as a game declares it
//! (issue 13): what it does before → after, and its outcome in a turn of
//! the game. `systems::table::approval` decides, by the house rule,
//! whether a player's change applies, is announced or waits for the game
//! master's approval; the approval runs it inside its own transaction.
//!
//! What every game's changes share lives here: preparing one (the
//! character resolved and pinned, the change tried on a copy of its sheet
//! by the rules, [`prepare_on_copy`]), its description line, and its
//! application through the pipeline; a game's `governed.rs` says only
//! what each of its changes does ([`Change::try_on`], [`Change::outcome`]).

use std::future::Future;

use rand::rngs::StdRng;
use rand::SeedableRng;
use serde::{de::DeserializeOwned, Serialize};

use super::characters::{self, Access, Pick, Who};
use super::pipeline::{Outcome, Pending, Scope, Turn};
use super::registry::{BoxFuture, Governed};
use super::settings::{self, PlayerEdits};
use super::{rights, Act, App, AppError, AppResult, Caller};
use crate::storage::characters::Character;

/// The sheet of the game whose turn runs change `C`.
type SheetOf<C> = <<C as Change>::Scope as Scope>::Sheet;

/// A change the house rule `player_edits` governs, typed by its system.
///
/// A game says whose character the change is about ([`Change::whose`]),
/// what it does to a copy of its sheet ([`Change::try_on`]) and what its
/// outcome is in a turn of the game ([`Change::outcome`], by the same
/// outcome functions as the command); the shared code prepares it
/// ([`Change::prepare`]) and runs it in an action of its own
/// ([`Change::apply`]) or inside an approval's transaction
/// ([`Change::apply_within`]).
pub trait Change: Serialize + DeserializeOwned + Send + Sync + Sized + 'static {
    /// The game whose turn runs the change (its id names the owner); its
    /// sheet is tried on a copy, compared with the original.
    type Scope: Scope<Sheet: Clone + PartialEq>;

    /// The owning game's id.
    const SYSTEM: &'static str = <Self::Scope as Scope>::ID;

    /// Which of the system's governed changes this is.
    fn governed(&self) -> Governed;

    /// The character the change is about, as asked; [`Change::prepare`]
    /// pins it to exactly the one found (so the game master's approval
    /// reaches the same one).
    fn whose(&mut self) -> Whose<'_>;

    /// Tries the change on `trial.after`, a copy of the sheet, as the
    /// rules check it (a player's request the rules would refuse is
    /// refused now, not after approval), and says what it changes, before
    /// → after, of the character (`willpower 3/7 → 7/7`: the request
    /// reads `Ada's willpower 3/7 → 7/7`); it may pin what else the change
    /// names as the sheet spells it (a job's name).
    fn try_on(&mut self, trial: &mut Trial<'_, Self::Scope>) -> Result<String, AppError>;

    /// Reads what the change would do, as `caller` asks it: pins the
    /// character and says what changes, before → after
    /// ([`prepare_on_copy`]). Changes nothing.
    fn prepare(
        self,
        app: &App,
        caller: &Caller,
    ) -> impl Future<Output = Result<Prepared<Self>, AppError>> + Send {
        prepare_on_copy(self, app, caller)
    }

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
    /// What it does, before → after (`Ada's willpower 3/7 → 7/7`, the name
    /// without markdown).
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

/// The character a change is about, in its fields: a name and a member, as
/// a command gave them ([`Who`] holds both).
pub struct Whose<'a> {
    /// A character name.
    pub character: &'a mut Option<String>,
    /// A member.
    pub player: &'a mut Option<i64>,
}

impl<'a> From<&'a mut Who> for Whose<'a> {
    fn from(w: &'a mut Who) -> Self {
        Whose {
            character: &mut w.character,
            player: &mut w.player,
        }
    }
}

impl Whose<'_> {
    /// A copy to keep.
    pub fn owned(&self) -> Who {
        Who {
            character: self.character.clone(),
            player: *self.player,
        }
    }

    /// The pick it makes.
    fn pick(&self) -> Pick<'_> {
        Pick::new(self.character.as_deref(), *self.player)
    }

    /// Exactly `c`: its name and its owner.
    fn pin(self, c: &Character) {
        *self.character = Some(c.name.clone());
        *self.player = Some(c.owner_id);
    }
}

/// A change tried on a copy of a character's sheet before it is asked for
/// ([`Change::try_on`]).
pub struct Trial<'a, G: Scope> {
    /// Who asks.
    pub caller: &'a Caller,
    /// The guild's `player_edits`.
    pub rule: PlayerEdits,
    /// The game's house rules where the caller acts (a game's own in its
    /// channels, else the server's): those the change itself runs under.
    pub settings: G::Settings,
    /// The character's name.
    pub name: &'a str,
    /// The sheet now.
    pub before: &'a G::Sheet,
    /// The copy the change is tried on.
    pub after: G::Sheet,
    /// A throwaway generator for a change that throws dice: its faces are
    /// never shown, and the table's seeded stream stays untouched.
    pub rng: StdRng,
    /// Whether the change leaves everything as it is, where the copy
    /// cannot tell (`None`: the copy equals the sheet).
    pub unchanged: Option<bool>,
}

/// [`Change::prepare`]: resolves the character the change is about (the
/// caller's own, or anyone's for the game master), pins it, tries the
/// change on a copy of its sheet and says what it does, before → after.
/// Changes nothing.
pub async fn prepare_on_copy<C: Change>(
    mut change: C,
    app: &App,
    caller: &Caller,
) -> Result<Prepared<C>, AppError> {
    let mut tx = app.db.read().await?;
    let guild = settings::guild(&mut tx, caller.guild_id).await?;
    let fc = rights::is_fc_in(&mut tx, caller, &guild).await?;
    let c = characters::resolve::<SheetOf<C>>(
        &mut tx,
        caller,
        fc,
        C::SYSTEM,
        change.whose().pick(),
        Access::Owner,
        <C::Scope as Scope>::HINT,
    )
    .await?;
    let c = <C::Scope as Scope>::check(c)?;
    let mut trial = Trial::<C::Scope> {
        caller,
        rule: guild.player_edits,
        settings: settings::scoped_here(&mut tx, caller, C::SYSTEM).await?,
        name: &c.row.name,
        before: &c.sheet,
        after: c.sheet.clone(),
        rng: StdRng::seed_from_u64(0),
        unchanged: None,
    };
    let what = change.try_on(&mut trial)?;
    let unchanged = trial.unchanged.unwrap_or(trial.after == c.sheet);
    change.whose().pin(&c.row);
    Ok(Prepared {
        change,
        what: format!("{}'s {what}", super::view::clean(&c.row.name)),
        unchanged,
        character: Some(c.row.id),
    })
}

/// Reads `json`, a change as an approval stored it, as a `C`, asserting
/// that it writes back key for key and is about `who`: what a game's test
/// of its stored approvals checks for each shape it ever stored.
#[cfg(test)]
pub fn read_back<C: Change>(json: &str, who: &Who) -> C {
    let stored: serde_json::Value = serde_json::from_str(json).unwrap();
    let mut change: C = serde_json::from_value(stored.clone()).unwrap();
    assert_eq!(serde_json::to_value(&change).unwrap(), stored, "{json}");
    assert_eq!(change.whose().owned(), *who, "{json}");
    change
}
