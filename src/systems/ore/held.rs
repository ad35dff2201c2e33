//! The sheet a roll acts on, loaded for one click ([`super::roll::Whose`]):
//! a character row's, or a quick-added NPC's kept in its fight's seat
//! (issue 29 item 5). Loading, reading and saving it are the same calls
//! either way, so a roll's buttons work for both.

use super::by_id;
use super::context::{checked, Outcome};
use super::roll::Whose;
use crate::app::characters::Loaded;
use crate::app::{sessions, AppError};
use crate::rules::ore::tracker::Fight;
use crate::rules::ore::OreSheet;
use crate::storage::sessions::{Session, Status};
use crate::storage::Tx;

/// A roll's sheet as loaded.
pub enum Held {
    /// A character's row.
    Row(Loaded<OreSheet>),
    /// An NPC's sheet in a running fight.
    Seat {
        /// The tracker's session.
        tracker: Session,
        /// The fight.
        fight: Box<Fight>,
        /// The seat.
        seat: u32,
        /// Its sheet (saved back into the seat).
        sheet: OreSheet,
    },
}

impl Held {
    /// Loads `whose` sheet; an NPC's only while its fight runs and it
    /// still sits in it.
    pub async fn load(tx: &mut Tx, guild_id: i64, whose: Whose) -> Result<Held, AppError> {
        match whose {
            Whose::Character(id) => Ok(Held::Row(by_id(tx, guild_id, id).await?)),
            Whose::Seat { tracker, seat } => {
                let gone = || AppError::user("That fight is over, so this register acts no more.");
                let session = crate::storage::sessions::get(tx, guild_id, tracker)
                    .await?
                    .filter(|s| s.kind == super::combat::KIND && s.status == Status::Open)
                    .ok_or_else(gone)?;
                let fight: Fight = sessions::load(&session)?;
                let sheet = fight
                    .turns
                    .seat(seat)
                    .and_then(|s| s.data.npc.clone())
                    .ok_or_else(|| AppError::user("That combatant is no longer in the fight."))?;
                Ok(Held::Seat {
                    tracker: session,
                    fight: Box::new(fight),
                    seat,
                    sheet,
                })
            }
        }
    }

    /// The sheet.
    pub fn sheet(&self) -> &OreSheet {
        match self {
            Held::Row(ch) => &ch.sheet,
            Held::Seat { sheet, .. } => sheet,
        }
    }

    /// The sheet, to change.
    pub fn sheet_mut(&mut self) -> &mut OreSheet {
        match self {
            Held::Row(ch) => &mut ch.sheet,
            Held::Seat { sheet, .. } => sheet,
        }
    }

    /// The character's id, for the log (none for an NPC).
    pub fn character(&self) -> Option<i64> {
        match self {
            Held::Row(ch) => Some(ch.row.id),
            Held::Seat { .. } => None,
        }
    }

    /// Whether only the game master may act on it (an NPC).
    pub fn gm_only(&self) -> bool {
        matches!(self, Held::Seat { .. })
    }

    /// The outcome with the sheet saved: a character's row, or an NPC's
    /// back into its seat with `lines` (what the step did) in the fight's
    /// log, the tracker moved on and redrawn.
    pub fn saved(self, out: Outcome, name: &str, lines: &[String]) -> Result<Outcome, AppError> {
        match self {
            Held::Row(ch) => Ok(out.sheet(checked(ch)?)),
            Held::Seat {
                tracker,
                mut fight,
                seat,
                sheet,
            } => {
                super::combat::npc_moved(&mut fight, seat, &sheet, name, lines)?;
                Ok(out.moved(tracker, &*fight, Status::Open, None))
            }
        }
    }
}
