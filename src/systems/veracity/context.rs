//! Veracity as a game at the table for the action pipeline
//! ([`crate::app::pipeline`]): its scope (settings, sheet), and the running
//! fight it keeps in step with the sheets seated there (a tracker the
//! pipeline redraws whenever an action changes one of them).

use std::future::Future;

use crate::app::pipeline::{Followed, Scope};
use crate::app::{sessions, AppError};
use crate::rules::veracity::tracker::Fight;
use crate::rules::veracity::{Sheet, VeracitySettings};
use crate::storage::sessions::{Session, Status};
use crate::storage::Tx;

use super::combat_buttons::KIND as FIGHT;
use super::{HINT, SYSTEM};

/// Veracity as a game at the table: what the action pipeline needs to
/// know of it here ([`Scope`]), and its contract with the registry
/// ([`crate::systems::game::Game`], implemented in its `mod.rs`).
pub struct Veracity;

impl Scope for Veracity {
    const ID: &'static str = SYSTEM;
    const HINT: &'static str = HINT;
    const TRACKER_KINDS: &'static [&'static str] = &[FIGHT];
    const TURN_KINDS: &'static [&'static str] = &[FIGHT];
    type Settings = VeracitySettings;
    type Sheet = Sheet;

    fn follow<'t>(
        tx: &'t mut Tx,
        tracker: &'t Session,
        changed: &'t [i64],
        notes: &'t [String],
        settings: &'t Self::Settings,
    ) -> impl Future<Output = Result<Option<Followed>, AppError>> + Send + 't {
        follow_fight(tx, tracker, changed, notes, settings)
    }
}

/// The channel's running fight after a change to the sheets of `changed`
/// (issue 28): when one of them is seated there, the fight notes `notes`,
/// takes the saved sheets again (a death puts the seat out) and comes back
/// to be saved and redrawn; `None` when none of them is seated.
async fn follow_fight(
    tx: &mut Tx,
    tracker: &Session,
    changed: &[i64],
    notes: &[String],
    settings: &VeracitySettings,
) -> Result<Option<Followed>, AppError> {
    let mut f: Fight = sessions::load(tracker)?;
    if !changed.iter().any(|c| f.seat_of(*c).is_some()) {
        return Ok(None);
    }
    for line in notes {
        f.note(line.clone());
    }
    super::combat_redraw::sync(tx, tracker.guild_id, &mut f, settings).await?;
    let status = if f.ended {
        Status::Closed
    } else {
        Status::Open
    };
    Ok(Some(Followed {
        state: serde_json::to_string(&f)?,
        status,
    }))
}

/// A Veracity action's turn in the action pipeline.
pub type Turn<'a> = crate::app::pipeline::Turn<'a, Veracity>;

/// What a Veracity action changed, for the action pipeline.
pub type Outcome = crate::app::pipeline::Outcome<Sheet>;
