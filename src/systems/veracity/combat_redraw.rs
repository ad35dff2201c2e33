//! A running fight kept in step with the sheets it seats: every seat's
//! HP, Wounds and AP copied from its sheet (the dead put out). The fight's
//! own actions ([`super::combat`]) sync before they change it, and the
//! action pipeline syncs it after any action that saves a seated sheet
//! ([`super::context`]'s `Scope::follow`), then redraws it.

use super::combat_view::clean;
use crate::app::AppError;
use crate::rules::veracity::tracker::Fight;
use crate::rules::veracity::{Sheet, VeracitySettings};
use crate::storage::{self, Tx};

/// Copies every seat's HP, Wounds and AP per turn from its sheet and puts
/// the dead out of the order.
pub async fn sync(
    tx: &mut Tx,
    guild: i64,
    f: &mut Fight,
    settings: &VeracitySettings,
) -> Result<(), AppError> {
    for i in 0..f.turns.seats.len() {
        let seat = &f.turns.seats[i];
        let sheet: Option<Sheet> = match (&seat.data.npc, seat.character) {
            (Some(npc), _) => Some(npc.clone()),
            (None, Some(c)) => storage::characters::get(tx, guild, c)
                .await?
                .and_then(|r| serde_json::from_str(&r.sheet).ok()),
            (None, None) => None,
        };
        if let Some(sheet) = sheet {
            f.turns.seats[i].data.sync(&sheet, settings);
        }
    }
    for name in f.out_the_dead() {
        f.note(format!("💀 {} is dead: out of the fight", clean(&name)));
    }
    Ok(())
}
