//! The save (VR-7..VR-11): d20 + modifier (+ is harder), optionally shifted
//! by one of the saver's Facet dice in their favour, read against a slot of
//! the Light or Flesh inventory. The chance is computed before rolling. The
//! referee may add another character's Facet (VR-12); the dead make no saves.
//! In a fight, the referee's NPCs added with `/vr-gm combat add` save too (the
//! defender always saves).

use crate::app::characters::Pick;

use super::combat::{self, Seated};
use super::context::{Outcome, Turn};
use super::render;
use super::target::{self, facet_index};
use super::GM;
use crate::app::characters::{Access, Loaded};
use crate::app::{App, AppError, AppResult, Caller, Response};
use crate::rules::veracity::save::{FacetBonus, SaveRequest};
use crate::rules::veracity::InventoryKind;
use crate::rules::veracity::Sheet;

/// `/vr save`: rolls a save for the active sheet of `player` (or the caller's).
pub async fn save(
    app: &App,
    caller: &Caller,
    inventory: InventoryKind,
    modifier: i32,
    facet: Option<&str>,
    player: Pick<'_>,
) -> AppResult {
    save_with_help(app, caller, inventory, modifier, facet, player, None).await
}

/// Another character's Facet applied to a save (VR-12: "whenever a save is
/// made (by anyone in the scene) as a consequence of acting on one of your
/// Facets"): whose, and which Facet.
#[derive(Debug, Clone, Copy)]
pub struct OtherFacet<'a> {
    /// The Facet owner's character (their name and/or member).
    pub owner: Pick<'a>,
    /// The Facet, by number or words of its phrase.
    pub facet: &'a str,
}

/// `/vr save` with, for the referee, another character's Facet die: it
/// shifts the total in that Facet owner's favour (added to the saver's
/// total, VR-12). The dead make no saves.
pub async fn save_with_help(
    app: &App,
    caller: &Caller,
    inventory: InventoryKind,
    modifier: i32,
    facet: Option<&str>,
    player: Pick<'_>,
    other: Option<OtherFacet<'_>>,
) -> AppResult {
    let mut turn = Turn::begin(app, caller).await?;
    // A fight's NPC without a sheet saves on its kept sheet (the defender
    // always saves: seed 002), logged with the fight.
    let (name, sheet, character, session) =
        match combat::seated(&mut turn, player, "roll the fight's NPCs' saves").await? {
            Some(Seated::Npc {
                session,
                name,
                sheet,
            }) => (name, sheet, None, Some(session)),
            Some(Seated::Character(c)) => (c.row.name, c.sheet, Some(c.row.id), None),
            None => {
                let c = turn.character(player, Access::Owner).await?;
                (c.row.name, c.sheet, Some(c.row.id), None)
            }
        };
    if sheet.is_dead() {
        return Err(AppError::user(format!(
            "{name} is dead and cannot make saves."
        )));
    }
    let (mut labels, mut facets) = target::own_facet(&sheet, facet)?;
    if let Some(o) = other {
        let (label, bonus) = other_facet(&mut turn, character, o).await?;
        labels.push(label);
        facets.push(bonus);
    }
    let request = SaveRequest {
        inventory,
        modifier,
        facets,
    };
    let result = sheet.save(&request, &turn.settings, &mut turn.rng())?;
    let mut log = target::save_entry("save", &request, &result).session(session);
    if let Some(id) = character {
        log = log.character(id);
    }
    let view = render::save_view(
        &name,
        &format!("{inventory} save"),
        sheet.inventory(inventory),
        &labels,
        &result,
    );
    turn.finish(Outcome::answer(Response::message(view)).log(log))
        .await
}

/// The referee's choice of another character's Facet for a save: its
/// label and bonus (not the saver's own, which is `facet`).
async fn other_facet(
    turn: &mut Turn<'_>,
    saver: Option<i64>,
    o: OtherFacet<'_>,
) -> Result<(String, FacetBonus), AppError> {
    turn.require_gm(GM, "apply another character's Facet to a save")?;
    let owner: Loaded<Sheet> = turn.character(o.owner, Access::Anyone).await?;
    if Some(owner.row.id) == saver {
        return Err(AppError::user(
            "That is the saver's own Facet: give it as `facet`.",
        ));
    }
    let i = facet_index(&owner.sheet, o.facet)?;
    let f = &owner.sheet.facets()[i];
    Ok((
        format!("{} (of {})", f.phrase, owner.name()),
        FacetBonus::other_saving(f.die),
    ))
}
