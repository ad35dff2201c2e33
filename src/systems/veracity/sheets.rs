//! Sheets: create (4 + 4 + 4 free slots, one d6 Facet), the slot-grid
//! card the shared `/vr sheet show` posts, set HP or unlock a slot (the
//! referee's), and edit items and
//! Facets.

use crate::app::characters::Pick;

use super::context::{Outcome, Turn};
use super::governed::What;
use super::target::{self, apply, entry};
use super::{render, SYSTEM};
use crate::app::change::Change as _;
use crate::app::characters;
use crate::app::view::View;
use crate::app::{App, AppError, AppResult, Caller, Response};
use crate::rules::veracity::sheet::FacetDie;
use crate::rules::veracity::{Action, InventoryKind, ItemKind, Sheet};
use crate::systems::table::approval;

/// What `/vr sheet create` asks for.
pub struct NewSheet<'a> {
    /// The character's name.
    pub name: &'a str,
    /// Unlocked Light slots.
    pub light: u32,
    /// Unlocked Flesh slots.
    pub flesh: u32,
    /// The first Facet (a d6); required for a player character.
    pub facet: Option<&'a str>,
    /// The member who will own it (FC only when not the caller).
    pub player: Option<i64>,
    /// An NPC: any slot counts (FC only).
    pub npc: bool,
}

/// `/vr sheet create`: a new sheet, made the owner's active one.
pub async fn create(app: &App, caller: &Caller, n: NewSheet<'_>) -> AppResult {
    let mut turn = Turn::begin(app, caller).await?;
    let owner = n.player.unwrap_or(caller.user_id);
    if owner != caller.user_id {
        turn.require_gm(super::GM, "create a sheet for another member")?;
    }
    if n.npc {
        turn.require_gm(super::GM, "create an NPC")?;
    }
    let facet = n.facet.map(str::trim).filter(|f| !f.is_empty());
    let sheet = if n.npc {
        let mut s = Sheet::new_npc(n.light, n.flesh)?;
        if let Some(f) = facet {
            s.add_facet(f, FacetDie::D6)?;
        }
        s
    } else {
        let f = facet.ok_or_else(|| {
            AppError::user("A new character starts with one d6 Facet: give it with `facet:`.")
        })?;
        Sheet::new_pc(n.light, n.flesh, f)?
    };
    let c = turn.create(owner, n.name, sheet).await?;
    let created = super::record::Created {
        name: c.row.name.clone(),
        light: n.light,
        flesh: n.flesh,
        facet: facet.map(str::to_string),
        npc: n.npc,
        owner,
    };
    let log = entry("sheet_create", &created, &[]).character(c.row.id);
    let who = if owner == caller.user_id {
        "your".to_string()
    } else {
        format!("<@{owner}>'s")
    };
    let kind = if n.npc { "NPC" } else { "character" };
    let note = format!("✨ New {kind} sheet, now {who} active one.");
    let e = render::sheet_embed(&c.row.name, &c.sheet, Some(&note));
    turn.finish(Outcome::answer(Response::message(View::embed(e))).log(log))
        .await
}

/// What `/vr sheet edit` changes: HP (current and maximum, both given) or
/// one more slot, one change at a time.
pub struct SheetEdit {
    /// Current and maximum HP, as given.
    pub hp: (Option<u32>, Option<u32>),
    /// The inventory that gains a slot outside a revelation.
    pub unlock: Option<InventoryKind>,
}

/// `/vr sheet edit`: sets current and maximum HP (the referee's: VR-19),
/// or unlocks one more slot outside a revelation (the referee's: VR-24);
/// a player's goes through `player_edits`.
pub async fn edit(app: &App, caller: &Caller, e: SheetEdit, player: Pick<'_>) -> AppResult {
    let edit = match (e.hp, e.unlock) {
        ((Some(current), Some(max)), None) => What::Hp { current, max }.of(player),
        ((None, None), Some(inventory)) => What::Unlock { inventory }.of(player),
        ((None, None), None) => {
            return Err(AppError::user(
                "Say what to change: `current` and `max` (HP), or `unlock` (one more slot).",
            ))
        }
        (_, Some(_)) => {
            return Err(AppError::user(
                "One change at a time: HP (`current` and `max`) or `unlock`, not both.",
            ))
        }
        _ => {
            return Err(AppError::user(
                "HP takes both numbers: give `current` and `max`.",
            ))
        }
    };
    approval::govern(app, caller, edit).await
}

/// Parses an item kind, sending Stress and Wounds to their own commands.
pub fn item_kind(text: &str) -> Result<ItemKind, AppError> {
    let kind: ItemKind = text.parse()?;
    match kind {
        ItemKind::Stress => Err(AppError::user(
            "Stress is gained with `/vr stress` (so that a Break can happen), not added as an item.",
        )),
        ItemKind::Wound => Err(AppError::user(
            "Wounds are taken with `/vr wound` or `/vr damage` (so that death is checked), not added as an item.",
        )),
        k => Ok(k),
    }
}

/// `/vr item add`: a Secret, Ruse, Evidence or Means into the lowest empty
/// slot; with `at` (an inventory and a slot) it rewrites the text of the
/// item there instead, which keeps its kind.
pub async fn add_or_edit_item(
    app: &App,
    caller: &Caller,
    kind: Option<&str>,
    text: &str,
    at: (Option<InventoryKind>, Option<u32>),
    player: Pick<'_>,
) -> AppResult {
    let (action, log, headline) = match (at, kind.map(str::trim).filter(|k| !k.is_empty())) {
        ((None, None), Some(kind)) => {
            let kind = item_kind(kind)?;
            let text = target::text(app, "An item's text", text)?;
            let headline = format!("adds {}", render::a_kind(kind));
            (Action::AddItem { kind, text }, "item_add", headline)
        }
        ((None, None), None) => return Err(AppError::user(
            "Give the new item's `kind` (secret, ruse, evidence, means), or `inventory` and `slot` to rewrite an item.",
        )),
        ((Some(inventory), Some(slot)), None) => {
            let text = target::text(app, "An item's text", text)?;
            let headline = format!("rewrites {inventory} slot {slot}");
            (
                Action::EditItem {
                    inventory,
                    slot,
                    text,
                },
                "item_edit",
                headline,
            )
        }
        ((Some(inventory), Some(slot)), Some(_)) => return Err(AppError::user(format!(
            "An item keeps its kind: leave `kind` out to rewrite {inventory} slot {slot}, or empty it with `/vr item remove` and add anew."
        ))),
        _ => return Err(AppError::user(
            "Name the item to rewrite with both `inventory` and `slot`.",
        )),
    };
    apply(app, caller, player, action, log, &headline).await
}

/// `/vr item remove`: empties a slot. Stress and Wounds leave by rest or
/// the referee (VR-17, VR-18): a player's removal of one goes through
/// `player_edits` (free by default), so the referee can still allow it.
pub async fn remove_item(
    app: &App,
    caller: &Caller,
    inventory: InventoryKind,
    slot: u32,
    player: Pick<'_>,
) -> AppResult {
    let governed = {
        let mut tx = app.db.read().await?;
        let c = target::sheet_for(&mut tx, caller, player).await?;
        c.sheet.rest_only(inventory, slot).is_some()
    };
    let edit = What::ItemRemove { inventory, slot }.of(player);
    if governed {
        approval::govern(app, caller, edit).await
    } else {
        edit.apply(app, caller).await
    }
}

/// `/vr facet add`: a new Facet (at most four). Above d6 it is the
/// referee's (VR-13): a player's goes through `player_edits`.
pub async fn add_facet(
    app: &App,
    caller: &Caller,
    phrase: &str,
    die: Option<&str>,
    player: Pick<'_>,
) -> AppResult {
    let die: FacetDie = die.unwrap_or("d6").parse()?;
    let phrase = target::text(app, "A Facet's phrase", phrase)?;
    let edit = What::FacetAdd { phrase, die }.of(player);
    if die > FacetDie::D6 {
        approval::govern(app, caller, edit).await
    } else {
        edit.apply(app, caller).await
    }
}

/// `/vr facet step`: one step up or down, d4..d12 (governed).
pub async fn step_facet(
    app: &App,
    caller: &Caller,
    facet: &str,
    up: bool,
    player: Pick<'_>,
) -> AppResult {
    let edit = What::FacetStep {
        facet: facet.to_string(),
        up,
    }
    .of(player);
    approval::govern(app, caller, edit).await
}

/// `/vr facet remove` (governed).
pub async fn remove_facet(app: &App, caller: &Caller, facet: &str, player: Pick<'_>) -> AppResult {
    let edit = What::FacetRemove {
        facet: facet.to_string(),
    }
    .of(player);
    approval::govern(app, caller, edit).await
}

/// Names of the caller's Facets for autocomplete (`1. Cruel (d6)` → `1`).
pub async fn facet_choices(app: &App, caller: &Caller, partial: &str) -> Vec<(String, String)> {
    let Ok(mut tx) = app.db.read().await else {
        return Vec::new();
    };
    let Ok(c) = characters::active::<Sheet>(&mut tx, caller, SYSTEM, "").await else {
        return Vec::new();
    };
    let p = partial.trim().to_lowercase();
    c.sheet
        .facets()
        .iter()
        .enumerate()
        .filter(|(i, f)| {
            p.is_empty() || f.phrase.to_lowercase().contains(&p) || (i + 1).to_string() == p
        })
        .map(|(i, f)| {
            // Discord refuses a whole answer with a choice name over 100
            // characters: the phrase gives way, the number and die stay.
            let (head, tail) = (format!("{}. ", i + 1), format!(" ({})", f.die));
            let mut phrase = f.phrase.clone();
            let room = 100 - head.chars().count() - tail.chars().count();
            crate::app::view::truncate(&mut phrase, room);
            (format!("{head}{phrase}{tail}"), (i + 1).to_string())
        })
        .collect()
}
