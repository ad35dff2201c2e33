//! A running fight kept in step with the sheets it seats: every seat's
//! HP, Wounds and AP copied from its sheet (the dead put out), and the
//! tracker redrawn after any action that changes a seated sheet. Below
//! both the fight's own actions ([`super::combat`]) and the sheet actions
//! ([`super::target`], [`super::changes`]) that call it.

use super::combat_buttons::KIND;
use super::combat_view::{self, clean};
use crate::app::{sessions, Act, AppError, Reply, Response, View};
use crate::rules::veracity::tracker::Fight;
use crate::rules::veracity::{Sheet, VeracitySettings};
use crate::storage::{self, sessions::Status, Tx};
use crate::systems::table::encounter;

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

/// Redraws the channel's running fight after a change to `character`'s
/// sheet (issue 28): when the character is seated there, the fight notes
/// `line` (if any), takes the saved sheets again (a death puts the seat out),
/// is saved, and its tracker view comes back for a [`Reply::Edit`]; with no
/// fight here, or the character not in it, `None`. Every Veracity action
/// that changes a sheet a fight shows calls this inside its transaction,
/// after saving the sheet.
pub async fn redraw_seated(
    act: &mut Act,
    character: i64,
    settings: &VeracitySettings,
    line: Option<String>,
) -> Result<Option<View>, AppError> {
    let Some(session) = encounter::running(act, KIND).await? else {
        return Ok(None);
    };
    let mut f: Fight = sessions::load(&session)?;
    if !f.turns.seats.iter().any(|s| s.character == Some(character)) {
        return Ok(None);
    }
    if let Some(line) = line {
        f.note(line);
    }
    let guild = act.guild_id();
    sync(act, guild, &mut f, settings).await?;
    let status = if f.ended {
        Status::Closed
    } else {
        Status::Open
    };
    let version = sessions::save(act, &session, &f, status, None).await?;
    Ok(Some(combat_view::view(session.id, version, !f.ended, &f)))
}

/// `response` followed by the redrawn tracker, if any ([`redraw_seated`]).
pub fn with_redraw(mut response: Response, redraw: Option<View>) -> Response {
    response.followups.extend(redraw.map(Reply::Edit));
    response
}
