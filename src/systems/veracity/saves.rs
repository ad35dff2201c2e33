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

/// `/vr save` (`s`) with, for the referee, another character's Facet die
/// (`other`: the Facet owner's member and the Facet, by number or words of
/// its phrase; both or neither, VR-12: "whenever a save is made (by anyone
/// in the scene) as a consequence of acting on one of your Facets"): it
/// shifts the total in that Facet owner's favour (added to the saver's
/// total). The dead make no saves.
///
/// `on_fail` is what a failure costs when the referee named it with the
/// call (`1`, `d4`): the save fills its own inventory's slots in the same
/// action (issue 31 item 3), Stress into Light (VR-14, a Break when none is
/// free) or Wounds into Flesh (VR-17, death when every slot holds one);
/// where the rules leave a choice (A-R4: which Flesh item a Wound
/// displaces) the owner's buttons come with the answer.
pub async fn save_with_help(
    app: &App,
    caller: &Caller,
    s: target::Save<'_>,
    other: (Option<i64>, Option<&str>),
    on_fail: Option<&str>,
) -> AppResult {
    let other = match other {
        (Some(owner), Some(facet)) => Some((owner, facet)),
        (None, None) => None,
        _ => {
            return Err(AppError::user(
                "Give both `facet_of` (whose Facet) and `their_facet` (which one).",
            ))
        }
    };
    let on_fail = on_fail
        .map(str::trim)
        .filter(|a| !a.is_empty())
        .map(target::amount)
        .transpose()?;
    let mut turn = Turn::begin(app, caller).await?;
    let Saver {
        name,
        sheet,
        session,
        loaded,
    } = saver(&mut turn, s.pick, on_fail.is_some()).await?;
    let character = loaded.as_ref().map(|c| c.row.id);
    target::refuse_dead(&name, &sheet, "make saves")?;
    let (mut labels, mut facets) = target::own_facet(&sheet, s.facet)?;
    if let Some(o) = other {
        let (label, bonus) = other_facet(&mut turn, character, o).await?;
        labels.push(label);
        facets.push(bonus);
    }
    let request = SaveRequest {
        inventory: s.inventory,
        modifier: s.modifier,
        facets,
    };
    let result = sheet.save(&request, &turn.settings, &mut turn.rng())?;
    let log = target::save_entry("save", &request, &result)
        .session(session)
        .character(character);
    let view = render::save_view(
        &name,
        &format!("{} save", s.inventory),
        sheet.inventory(s.inventory),
        &labels,
        &result,
    );
    let failed = result.outcome == crate::rules::veracity::save::Outcome::Failure;
    let out = match (on_fail, loaded) {
        (Some(amount), Some(c)) if failed => filled(&mut turn, c, s.inventory, amount, view)?,
        _ => Outcome::answer(Response::message(view)),
    };
    turn.finish(out.log(log)).await
}

/// Who makes a save: its name and sheet, and either the fight it is an
/// NPC of or the loaded character.
struct Saver {
    /// The saver's name.
    name: String,
    /// The sheet the save is read on.
    sheet: Sheet,
    /// The fight's session, for an NPC's save logged with the fight.
    session: Option<i64>,
    /// The loaded character, whose slots `on_fail` fills.
    loaded: Option<Loaded<Sheet>>,
}

/// Who saves: a fight's NPC without a sheet on its kept sheet (the defender
/// always saves: seed 002), logged with the fight, or a character picked as
/// usual. An NPC has no slots for `on_fail` to fill (`with_cost`).
async fn saver(turn: &mut Turn<'_>, player: Pick<'_>, with_cost: bool) -> Result<Saver, AppError> {
    let loaded = match combat::seated(turn, player, "roll the fight's NPCs' saves").await? {
        Some(Seated::Npc(combat::Npc {
            session,
            name,
            sheet,
            ..
        })) => {
            if with_cost {
                return Err(AppError::user(format!(
                    "`on_fail` fills a character's slots; {} is an NPC of the fight: give its Wounds or Stress after the save.",
                    super::combat_view::clean(&name)
                )));
            }
            return Ok(Saver {
                name,
                sheet,
                session: Some(session.id),
                loaded: None,
            });
        }
        Some(Seated::Character(c)) => c,
        None => turn.character(player, Access::Owner).await?,
    };
    Ok(Saver {
        name: loaded.row.name.clone(),
        sheet: loaded.sheet.clone(),
        session: None,
        loaded: Some(loaded),
    })
}

/// A failed save's cost named with the call, applied to the saver's sheet
/// in the save's own action: `amount` Stress (Light) or Wounds (Flesh),
/// drawn under the save as the change's own embed (or line), logged as
/// `stress`/`wound`. Wounds with no empty Flesh slot wait for the owner's
/// choice of what they displace (A-R4), on buttons of a sheet session, as
/// `/vr wound` leaves them.
fn filled(
    turn: &mut Turn<'_>,
    mut c: Loaded<Sheet>,
    inventory: InventoryKind,
    amount: crate::rules::veracity::Amount,
    mut view: crate::app::View,
) -> Result<Outcome, AppError> {
    let (action, word, what) = super::changes::harm(inventory, amount, Vec::new());
    target::check_dice_cap(turn.max_dice(), &action)?;
    let events = c.sheet.apply(&action, &turn.settings, &mut turn.rng())?;
    let entry = target::entry(word, &action, &events).character(c.row.id);
    // The save's view is its embed alone: the change adds its own embed,
    // or its one line as the text above.
    let change = render::change_view(c.name(), &what, &c.sheet, &events);
    view.content = change.content;
    view.embeds.extend(change.embeds);
    let out = target::answer_change(turn, &c, view);
    Ok(out.sheet(c).log(entry))
}

/// The referee's choice of another character's Facet for a save (the
/// Facet of `owner`'s character, by number or words): its label and bonus
/// (not the saver's own, which is `facet`).
async fn other_facet(
    turn: &mut Turn<'_>,
    saver: Option<i64>,
    (owner, facet): (i64, &str),
) -> Result<(String, FacetBonus), AppError> {
    turn.require_gm(GM, "apply another character's Facet to a save")?;
    let owner: Loaded<Sheet> = turn
        .character(Pick::new(None, Some(owner)), Access::Anyone)
        .await?;
    if Some(owner.row.id) == saver {
        return Err(AppError::user(
            "That is the saver's own Facet: give it as `facet`.",
        ));
    }
    let i = facet_index(&owner.sheet, facet)?;
    let f = &owner.sheet.facets()[i];
    Ok((
        format!("{} (of {})", f.phrase, owner.name()),
        FacetBonus::other_saving(f.die),
    ))
}
