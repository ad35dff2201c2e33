//! The Veracity character sheet (spec §3.1): the Light and Flesh slot
//! inventories (VR-1..VR-6), Facets (VR-12, VR-13), HP, AP, Breaks, death,
//! the revelation log and the Secrets a character has learned.
//!
//! Rule operations that change several things at once (Stress, Wounds,
//! damage, levelling) live in `stress.rs` and `level.rs`; this file holds the
//! data and the plain item and Facet bookkeeping.

use serde::{Deserialize, Serialize};

use super::event::Event;
use super::item::clean_text;
pub use super::item::{normalize_text, FacetDie, InventoryKind, Item, ItemKind, MAX_ITEM_TEXT};
use super::settings::{ApBasis, VeracitySettings};
use crate::rules::RuleError;

/// The most slots an inventory can have (VR-1).
pub const MAX_SLOTS: u32 = 18;
/// Slots each inventory starts with before the free split (VR-2).
pub const START_SLOTS: u32 = 4;
/// Free slots split at creation (VR-2).
pub const FREE_SLOTS: u32 = 4;
/// Unlocked slots of a new character in total (VR-2, A-R12).
pub const START_TOTAL: u32 = 2 * START_SLOTS + FREE_SLOTS;
/// The most Facets a character can have (VR-13).
pub const MAX_FACETS: usize = 4;
/// Longest Facet phrase, in characters.
pub const MAX_FACET_PHRASE: usize = 100;
/// Largest HP the bot accepts.
pub const MAX_HP: u32 = 1000;
/// The most Secrets a sheet remembers having learned.
pub const MAX_KNOWN_SECRETS: usize = 1000;
/// Longest revelation target or note, in characters.
pub const MAX_NOTE: usize = 500;

/// One unlocked slot: empty or holding one item.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Slot {
    /// Nothing in it.
    Empty,
    /// One item.
    Item(Item),
}

impl Slot {
    /// The item, if any.
    pub fn item(&self) -> Option<&Item> {
        match self {
            Slot::Empty => None,
            Slot::Item(i) => Some(i),
        }
    }

    /// True if it holds an item of this kind.
    pub fn is(&self, kind: ItemKind) -> bool {
        self.item().is_some_and(|i| i.kind == kind)
    }
}

/// What the renderer draws for one of the 18 slot positions.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum GridCell {
    /// Not yet unlocked.
    Locked,
    /// Unlocked and empty.
    Empty,
    /// Holding an item of this kind.
    Filled(ItemKind),
}

/// An item taken out of an inventory, and any moves that closed the gap (A-R2).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Removal {
    /// The slot it was in.
    pub slot: u32,
    /// The item.
    pub item: Item,
    /// (from, to) moves made by compaction; empty without compaction.
    pub moves: Vec<(u32, u32)>,
}

/// One slot inventory (Light or Flesh): `unlocked` slots, numbered 1..=unlocked,
/// each empty or holding an item of a kind that belongs there (VR-1, VR-3, VR-4).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(try_from = "InventoryData")]
pub struct Inventory {
    kind: InventoryKind,
    unlocked: u32,
    slots: Vec<Slot>,
}

/// The serialised form of an [`Inventory`], validated on load.
#[derive(Deserialize)]
struct InventoryData {
    kind: InventoryKind,
    unlocked: u32,
    slots: Vec<Slot>,
}

impl TryFrom<InventoryData> for Inventory {
    type Error = RuleError;

    fn try_from(d: InventoryData) -> Result<Self, RuleError> {
        if d.unlocked > MAX_SLOTS {
            return Err(RuleError::new(format!(
                "{} is above the maximum {MAX_SLOTS}.",
                d.unlocked
            ))
            .at("unlocked"));
        }
        if d.slots.len() != d.unlocked as usize {
            return Err(RuleError::new(format!(
                "A stored inventory has an impossible number of slots ({} listed, {} unlocked).",
                d.slots.len(),
                d.unlocked
            ))
            .at("slots"));
        }
        for (n, s) in d.slots.iter().enumerate() {
            if let Slot::Item(i) = s {
                let at = format!("slots[{n}].item");
                i.validate().map_err(|e| e.at(format!("{at}.text")))?;
                if i.kind.inventory() != d.kind {
                    return Err(RuleError::new(format!(
                        "A stored {} inventory holds {}.",
                        d.kind,
                        i.kind.with_article()
                    ))
                    .at(format!("{at}.kind")));
                }
            }
        }
        Ok(Inventory {
            kind: d.kind,
            unlocked: d.unlocked,
            slots: d.slots,
        })
    }
}

impl Inventory {
    /// An empty inventory with `unlocked` slots (0..=18).
    pub fn new(kind: InventoryKind, unlocked: u32) -> Result<Inventory, RuleError> {
        if unlocked > MAX_SLOTS {
            return Err(RuleError::new(format!(
                "An inventory can have at most {MAX_SLOTS} slots."
            )));
        }
        Ok(Inventory {
            kind,
            unlocked,
            slots: vec![Slot::Empty; unlocked as usize],
        })
    }

    /// Light or Flesh.
    pub fn kind(&self) -> InventoryKind {
        self.kind
    }

    /// How many slots are unlocked (0..=18).
    pub fn unlocked(&self) -> u32 {
        self.unlocked
    }

    /// The unlocked slots, slot 1 first.
    pub fn slots(&self) -> &[Slot] {
        &self.slots
    }

    /// The item in slot `n` (1-based); `None` when empty, locked or out of range.
    pub fn get(&self, n: u32) -> Option<&Item> {
        self.slot_ref(n).and_then(Slot::item)
    }

    fn slot_ref(&self, n: u32) -> Option<&Slot> {
        n.checked_sub(1).and_then(|i| self.slots.get(i as usize))
    }

    /// What slot `n` looks like (anything outside 1..=unlocked is `Locked`).
    pub fn cell(&self, n: u32) -> GridCell {
        match self.slot_ref(n) {
            None => GridCell::Locked,
            Some(Slot::Empty) => GridCell::Empty,
            Some(Slot::Item(i)) => GridCell::Filled(i.kind),
        }
    }

    /// All 18 positions for the renderer, slot 1 first.
    pub fn grid(&self) -> Vec<GridCell> {
        (1..=MAX_SLOTS).map(|n| self.cell(n)).collect()
    }

    /// Number of empty unlocked slots.
    pub fn empty_count(&self) -> u32 {
        self.slots.iter().filter(|s| **s == Slot::Empty).count() as u32
    }

    /// Number of filled slots.
    pub fn filled_count(&self) -> u32 {
        self.unlocked - self.empty_count()
    }

    /// Number of items of this kind.
    pub fn count(&self, kind: ItemKind) -> u32 {
        self.slots.iter().filter(|s| s.is(kind)).count() as u32
    }

    /// Slot numbers holding this kind, lowest first.
    pub fn slots_with(&self, kind: ItemKind) -> Vec<u32> {
        self.numbered()
            .filter(|(_, s)| s.is(kind))
            .map(|(n, _)| n)
            .collect()
    }

    /// Empty slot numbers, lowest first.
    pub fn empty_slots(&self) -> Vec<u32> {
        self.numbered()
            .filter(|(_, s)| **s == Slot::Empty)
            .map(|(n, _)| n)
            .collect()
    }

    /// The lowest empty unlocked slot (VR-3).
    pub fn lowest_empty(&self) -> Option<u32> {
        self.numbered()
            .find(|(_, s)| **s == Slot::Empty)
            .map(|(n, _)| n)
    }

    /// True when at least one slot is unlocked and every one holds `kind`.
    pub fn all_hold(&self, kind: ItemKind) -> bool {
        self.unlocked > 0 && self.slots.iter().all(|s| s.is(kind))
    }

    fn numbered(&self) -> impl Iterator<Item = (u32, &Slot)> {
        self.slots
            .iter()
            .enumerate()
            .map(|(i, s)| (i as u32 + 1, s))
    }

    fn wrong_kind(&self, kind: ItemKind) -> RuleError {
        RuleError::new(format!(
            "{} belongs in the {} inventory, not in {}.",
            capitalised(&kind.with_article()),
            kind.inventory(),
            self.kind
        ))
    }

    /// Puts an item into the lowest empty unlocked slot and returns that slot
    /// (VR-3). Refuses a kind that belongs in the other inventory, or a full inventory.
    pub fn add(&mut self, item: Item) -> Result<u32, RuleError> {
        item.validate()?;
        if item.kind.inventory() != self.kind {
            return Err(self.wrong_kind(item.kind));
        }
        let n = self.lowest_empty().ok_or_else(|| {
            RuleError::new(format!(
                "Your {} inventory has no empty slot for the {}.",
                self.kind, item.kind
            ))
        })?;
        self.slots[(n - 1) as usize] = Slot::Item(item);
        Ok(n)
    }

    fn check_slot(&self, n: u32) -> Result<(), RuleError> {
        if n == 0 || n > MAX_SLOTS {
            Err(RuleError::new(format!(
                "Slots are numbered 1 to {MAX_SLOTS}, not {n}."
            )))
        } else if n > self.unlocked {
            Err(RuleError::new(format!(
                "{} slot {n} is locked: only {} are unlocked.",
                self.kind, self.unlocked
            )))
        } else {
            Ok(())
        }
    }

    /// Removes the item in slot `n`; with `compact`, items above move down (A-R2).
    pub fn remove(&mut self, n: u32, compact: bool) -> Result<Removal, RuleError> {
        self.check_slot(n)?;
        let idx = (n - 1) as usize;
        let Slot::Item(item) = std::mem::replace(&mut self.slots[idx], Slot::Empty) else {
            return Err(RuleError::new(format!(
                "{} slot {n} is already empty.",
                self.kind
            )));
        };
        let moves = if compact { self.compact() } else { Vec::new() };
        Ok(Removal {
            slot: n,
            item,
            moves,
        })
    }

    /// Removes one item of `kind` (A-R3): the owner's `choice` of slot if given
    /// (it must hold that kind), otherwise the highest-numbered one.
    pub fn remove_kind(
        &mut self,
        kind: ItemKind,
        choice: Option<u32>,
        compact: bool,
    ) -> Result<Removal, RuleError> {
        if kind.inventory() != self.kind {
            return Err(self.wrong_kind(kind));
        }
        let n = match choice {
            Some(n) => {
                self.check_slot(n)?;
                if !self.slots[(n - 1) as usize].is(kind) {
                    return Err(RuleError::new(format!(
                        "{} slot {n} does not hold {}.",
                        self.kind,
                        kind.with_article()
                    )));
                }
                n
            }
            None => *self
                .slots_with(kind)
                .last()
                .ok_or_else(|| RuleError::new(format!("You have no {kind} to remove.")))?,
        };
        self.remove(n, compact)
    }

    /// Changes the text of the item in slot `n` and returns the old text.
    pub fn edit_text(&mut self, n: u32, text: &str) -> Result<String, RuleError> {
        self.check_slot(n)?;
        let Slot::Item(item) = &self.slots[(n - 1) as usize] else {
            return Err(RuleError::new(format!("{} slot {n} is empty.", self.kind)));
        };
        let mut new = Item::new(item.kind, text)?;
        new.id = item.id;
        let old = std::mem::replace(&mut self.slots[(n - 1) as usize], Slot::Item(new));
        Ok(old.item().map(|i| i.text.clone()).unwrap_or_default())
    }

    /// Moves every item down to fill gaps, keeping their order (A-R2).
    /// Returns the (from, to) moves.
    pub fn compact(&mut self) -> Vec<(u32, u32)> {
        let mut moves = Vec::new();
        let mut items = Vec::new();
        for (i, s) in self.slots.iter_mut().enumerate() {
            if let Slot::Item(it) = std::mem::replace(s, Slot::Empty) {
                items.push((i as u32 + 1, it));
            }
        }
        for (to_idx, (from, it)) in items.into_iter().enumerate() {
            let to = to_idx as u32 + 1;
            if from != to {
                moves.push((from, to));
            }
            self.slots[to_idx] = Slot::Item(it);
        }
        moves
    }

    /// Unlocks the next slot and returns its number (at most 18).
    pub fn unlock(&mut self) -> Result<u32, RuleError> {
        if self.unlocked >= MAX_SLOTS {
            return Err(RuleError::new(format!(
                "Your {} inventory already has all {MAX_SLOTS} slots.",
                self.kind
            )));
        }
        self.unlocked += 1;
        self.slots.push(Slot::Empty);
        Ok(self.unlocked)
    }

    /// Overwrites slot `n` (which must be unlocked) and returns what was there.
    pub(super) fn put(&mut self, n: u32, item: Item) -> Option<Item> {
        let s = self.slots.get_mut((n.checked_sub(1)?) as usize)?;
        match std::mem::replace(s, Slot::Item(item)) {
            Slot::Empty => None,
            Slot::Item(i) => Some(i),
        }
    }
}

/// A Facet: a short phrase and its die (VR-12).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Facet {
    /// The phrase, e.g. "Cruel" or "Blacksmith".
    pub phrase: String,
    /// Its prominence.
    pub die: FacetDie,
}

impl Facet {
    /// True when the Facet may be replaced by a new phrase: only a d4 Facet
    /// can be (VR-13); a larger one moves a step at a time instead.
    pub fn replaceable(&self) -> bool {
        self.die == FacetDie::D4
    }
}

/// One entry of the revelation log (VR-24).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Revelation {
    /// The shocked NPC.
    pub target: String,
    /// The texts of the Secrets revealed.
    pub secrets: Vec<String>,
    /// The texts of the Evidence shown.
    pub evidence: Vec<String>,
    /// The identities of the Secrets revealed (empty in logs written before
    /// items had identities: those are matched by text).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub secret_ids: Vec<u64>,
    /// The identities of the Evidence shown (as `secret_ids`).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub evidence_ids: Vec<u64>,
    /// The referee's note (for "greater than the last").
    pub note: String,
    /// Which inventory gained a slot.
    pub gained: InventoryKind,
    /// The slot gained.
    pub slot: u32,
}

/// A Veracity character sheet (§3.1). Fields are private so the invariants
/// hold; stored JSON is validated when loaded.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(try_from = "SheetData")]
pub struct Sheet {
    pub(super) light: Inventory,
    pub(super) flesh: Inventory,
    pub(super) hp_current: u32,
    pub(super) hp_max: u32,
    pub(super) ap_current: u32,
    pub(super) facets: Vec<Facet>,
    pub(super) break_count: u32,
    pub(super) can_level_up: bool,
    pub(super) dead: bool,
    pub(super) revelation_log: Vec<Revelation>,
    pub(super) known_secrets: Vec<String>,
    /// The identity the next new item gets (issue 14).
    #[serde(default, skip_serializing_if = "is_zero")]
    pub(super) next_item_id: u64,
    /// Heart-attack Wounds waiting for the owner to choose what they displace.
    #[serde(default, skip_serializing_if = "is_zero_u32")]
    pub(super) pending_wounds: u32,
}

fn is_zero(n: &u64) -> bool {
    *n == 0
}

fn is_zero_u32(n: &u32) -> bool {
    *n == 0
}

/// The serialised form of a [`Sheet`], validated on load.
#[derive(Deserialize)]
struct SheetData {
    light: Inventory,
    flesh: Inventory,
    hp_current: u32,
    hp_max: u32,
    #[serde(default)]
    ap_current: u32,
    facets: Vec<Facet>,
    break_count: u32,
    can_level_up: bool,
    dead: bool,
    #[serde(default)]
    revelation_log: Vec<Revelation>,
    #[serde(default)]
    known_secrets: Vec<String>,
    #[serde(default)]
    next_item_id: u64,
    #[serde(default)]
    pending_wounds: u32,
}

impl TryFrom<SheetData> for Sheet {
    type Error = RuleError;

    fn try_from(d: SheetData) -> Result<Self, RuleError> {
        check_stored_state(&d)?;
        check_stored_history(&d)?;
        let mut sheet = Sheet {
            light: d.light,
            flesh: d.flesh,
            hp_current: d.hp_current,
            hp_max: d.hp_max,
            ap_current: d.ap_current,
            facets: d.facets,
            break_count: d.break_count,
            can_level_up: d.can_level_up,
            dead: d.dead,
            revelation_log: d.revelation_log,
            known_secrets: d.known_secrets,
            next_item_id: d.next_item_id,
            pending_wounds: d.pending_wounds.min(20),
        };
        // Sheets stored before items had identities get them now.
        sheet.number_items();
        Ok(sheet)
    }
}

/// A stored sheet's refusal: it has `what`, at `field`.
fn stored_bad(what: &str, field: &str) -> RuleError {
    RuleError::new(format!("A stored Veracity sheet has {what}.")).at(field)
}

/// A stored text longer than `max` characters, at `field`.
fn stored_too_long(max: usize, field: String) -> RuleError {
    RuleError::new(format!("Too long: at most {max} characters.")).at(field)
}

/// Checks a stored sheet's state: its inventories in place, HP and AP
/// within bounds, its Facets at most [`MAX_FACETS`] with valid phrases.
fn check_stored_state(d: &SheetData) -> Result<(), RuleError> {
    if d.light.kind != InventoryKind::Light {
        return Err(stored_bad("its inventories swapped", "light.kind"));
    }
    if d.flesh.kind != InventoryKind::Flesh {
        return Err(stored_bad("its inventories swapped", "flesh.kind"));
    }
    if d.hp_max > MAX_HP {
        return Err(stored_bad(
            &format!("HP above the maximum {MAX_HP}"),
            "hp_max",
        ));
    }
    if d.hp_current > d.hp_max {
        return Err(stored_bad("more HP than its maximum", "hp_current"));
    }
    if d.ap_current > 2 * MAX_SLOTS {
        return Err(stored_bad("impossible AP", "ap_current"));
    }
    if d.facets.len() > MAX_FACETS {
        return Err(stored_bad(
            &format!("too many Facets (at most {MAX_FACETS})"),
            "facets",
        ));
    }
    for (i, f) in d.facets.iter().enumerate() {
        check_phrase(&f.phrase).map_err(|e| e.at(format!("facets[{i}].phrase")))?;
    }
    Ok(())
}

/// Checks a stored sheet's history: the Secrets it knows and its
/// revelations, no longer and no wordier than what made them may be (a
/// target and a note, `check_revelation`; items' texts).
fn check_stored_history(d: &SheetData) -> Result<(), RuleError> {
    if d.known_secrets.len() > MAX_KNOWN_SECRETS {
        return Err(stored_bad("too long a history", "known_secrets"));
    }
    if d.revelation_log.len() > 4 * MAX_SLOTS as usize {
        return Err(stored_bad("too long a history", "revelation_log"));
    }
    let too_long = |text: &str, max: usize| text.chars().count() > max;
    for (i, r) in d.revelation_log.iter().enumerate() {
        for (field, text) in [("target", &r.target), ("note", &r.note)] {
            if too_long(text, MAX_NOTE) {
                return Err(stored_too_long(
                    MAX_NOTE,
                    format!("revelation_log[{i}].{field}"),
                ));
            }
        }
        for (field, list) in [("secrets", &r.secrets), ("evidence", &r.evidence)] {
            if list.len() > 2 * MAX_SLOTS as usize {
                return Err(stored_bad(
                    "too many items in a revelation",
                    &format!("revelation_log[{i}].{field}"),
                ));
            }
            if let Some(j) = list.iter().position(|t| too_long(t, MAX_ITEM_TEXT)) {
                return Err(stored_too_long(
                    MAX_ITEM_TEXT,
                    format!("revelation_log[{i}].{field}[{j}]"),
                ));
            }
        }
    }
    if let Some(i) = d
        .known_secrets
        .iter()
        .position(|t| too_long(t, MAX_ITEM_TEXT))
    {
        return Err(stored_too_long(
            MAX_ITEM_TEXT,
            format!("known_secrets[{i}]"),
        ));
    }
    Ok(())
}

fn check_phrase(phrase: &str) -> Result<String, RuleError> {
    let p = clean_text(phrase, MAX_FACET_PHRASE, "A Facet's phrase")?;
    if p.is_empty() {
        return Err(RuleError::new("A Facet needs a short phrase."));
    }
    Ok(p)
}

impl Sheet {
    /// A new player character (VR-2, VR-13, A-R12): `light` + `flesh` unlocked
    /// slots, each at least 4 and 12 in total (the 4 free slots split as the
    /// player likes), one d6 Facet, 0 HP.
    pub fn new_pc(light: u32, flesh: u32, facet: &str) -> Result<Sheet, RuleError> {
        if light < START_SLOTS
            || flesh < START_SLOTS
            || light.checked_add(flesh) != Some(START_TOTAL)
        {
            return Err(RuleError::new(format!(
                "A new character has {START_SLOTS} Light and {START_SLOTS} Flesh slots plus \
                 {FREE_SLOTS} free ones: choose Light and Flesh of at least {START_SLOTS} each, \
                 {START_TOTAL} in total (you chose {light} and {flesh})."
            )));
        }
        let phrase = check_phrase(facet)?;
        let mut s = Sheet::new_npc(light, flesh)?;
        s.facets.push(Facet {
            phrase,
            die: FacetDie::D6,
        });
        Ok(s)
    }

    /// A non-player character with any slot counts (0..=18 each), no Facets, 0 HP.
    pub fn new_npc(light: u32, flesh: u32) -> Result<Sheet, RuleError> {
        Ok(Sheet {
            light: Inventory::new(InventoryKind::Light, light)?,
            flesh: Inventory::new(InventoryKind::Flesh, flesh)?,
            hp_current: 0,
            hp_max: 0,
            ap_current: 0,
            facets: Vec::new(),
            break_count: 0,
            can_level_up: true,
            dead: false,
            revelation_log: Vec::new(),
            known_secrets: Vec::new(),
            next_item_id: 1,
            pending_wounds: 0,
        })
    }

    /// Gives every item without an identity the next free one (after any
    /// change, and on load for sheets stored before identities existed).
    pub fn number_items(&mut self) {
        let highest = self
            .light
            .slots
            .iter()
            .chain(self.flesh.slots.iter())
            .filter_map(Slot::item)
            .map(|i| i.id)
            .max()
            .unwrap_or(0);
        let mut next = self.next_item_id.max(highest.saturating_add(1)).max(1);
        for slot in self
            .light
            .slots
            .iter_mut()
            .chain(self.flesh.slots.iter_mut())
        {
            if let Slot::Item(i) = slot {
                if i.id == 0 {
                    i.id = next;
                    next = next.saturating_add(1);
                }
            }
        }
        self.next_item_id = next;
    }

    /// The Light (mental) inventory.
    pub fn light(&self) -> &Inventory {
        &self.light
    }

    /// The Flesh (physical) inventory.
    pub fn flesh(&self) -> &Inventory {
        &self.flesh
    }

    /// One inventory by kind.
    pub fn inventory(&self, kind: InventoryKind) -> &Inventory {
        match kind {
            InventoryKind::Light => &self.light,
            InventoryKind::Flesh => &self.flesh,
        }
    }

    pub(super) fn inventory_mut(&mut self, kind: InventoryKind) -> &mut Inventory {
        match kind {
            InventoryKind::Light => &mut self.light,
            InventoryKind::Flesh => &mut self.flesh,
        }
    }

    /// Current HP.
    pub fn hp_current(&self) -> u32 {
        self.hp_current
    }

    /// Maximum HP (from gear and magic, set by the GM).
    pub fn hp_max(&self) -> u32 {
        self.hp_max
    }

    /// AP left this turn.
    pub fn ap_current(&self) -> u32 {
        self.ap_current
    }

    /// AP at the start of each turn (VR-21, A-R8): the unlocked Flesh
    /// slots, filled or not, or only the empty ones (`vr_ap_basis`).
    pub fn ap_max(&self, settings: &VeracitySettings) -> u32 {
        match settings.vr_ap_basis {
            ApBasis::Unlocked => self.flesh.unlocked(),
            ApBasis::Empty => self.flesh.empty_count(),
        }
    }

    /// The Facets, in order.
    pub fn facets(&self) -> &[Facet] {
        &self.facets
    }

    /// The Facet named by `text` (VR-12), as a 0-based index: its number
    /// (`1`), its whole phrase, or words that only its phrase holds (any
    /// case); `None` when no Facet matches. A blank name, or a number with
    /// no Facet, is refused.
    pub fn facet_named(&self, text: &str) -> Result<Option<usize>, RuleError> {
        let t = text.trim();
        if t.is_empty() {
            // An empty name is "contained" in every phrase: never a match.
            return Err(RuleError::new(
                "Name a Facet: its number, or words from its phrase.",
            ));
        }
        if let Ok(n) = t.parse::<usize>() {
            if n >= 1 && n <= self.facets.len() {
                return Ok(Some(n - 1));
            }
            return Err(RuleError::new(format!(
                "There is no Facet number {n}: this character has {}.",
                self.facets.len()
            )));
        }
        let key = t.to_lowercase();
        let phrases = || self.facets.iter().map(|f| f.phrase.to_lowercase());
        Ok(phrases().position(|p| p == key).or_else(|| {
            let mut hits = phrases().enumerate().filter(|(_, p)| p.contains(&key));
            match (hits.next(), hits.next()) {
                (Some((i, _)), None) => Some(i),
                _ => None,
            }
        }))
    }

    /// How many times the character has Broken.
    pub fn break_count(&self) -> u32 {
        self.break_count
    }

    /// False after the first Break (VR-15).
    pub fn can_level_up(&self) -> bool {
        self.can_level_up
    }

    /// True once every unlocked Flesh slot held a Wound (VR-17), or the GM said so.
    pub fn is_dead(&self) -> bool {
        self.dead
    }

    /// Every revelation that levelled the character up (VR-24).
    pub fn revelation_log(&self) -> &[Revelation] {
        &self.revelation_log
    }

    /// The normalised texts of every Secret the character ever learned (VR-5).
    pub fn known_secrets(&self) -> &[String] {
        &self.known_secrets
    }

    /// True if the character has already learned this Secret (VR-5).
    pub fn knows_secret(&self, text: &str) -> bool {
        let t = normalize_text(text);
        self.known_secrets.contains(&t)
    }

    /// The Light slot holding this Secret, if the character still holds it.
    pub fn holds_secret(&self, text: &str) -> Option<u32> {
        let t = normalize_text(text);
        self.light
            .numbered()
            .find(|(_, s)| {
                s.item()
                    .is_some_and(|i| i.kind == ItemKind::Secret && normalize_text(&i.text) == t)
            })
            .map(|(n, _)| n)
    }

    pub(super) fn ensure_alive(&self) -> Result<(), RuleError> {
        if self.dead {
            Err(RuleError::new("This character is dead."))
        } else {
            Ok(())
        }
    }

    /// Learns a Secret (VR-5): refused if this character already learned it
    /// (even if it was later removed). The table's agreement is the caller's job.
    pub fn learn_secret(&mut self, text: &str) -> Result<Vec<Event>, RuleError> {
        let item = Item::new(ItemKind::Secret, text)?;
        let norm = normalize_text(&item.text);
        if self.known_secrets.contains(&norm) {
            return Err(RuleError::new(
                "This character has already learned that Secret: a Secret is learned only once.",
            ));
        }
        if self.known_secrets.len() >= MAX_KNOWN_SECRETS {
            return Err(RuleError::new(
                "This character already knows too many Secrets for the bot to track.",
            ));
        }
        let slot = self.light.add(item.clone())?;
        self.known_secrets.push(norm);
        Ok(vec![Event::ItemAdded {
            inventory: InventoryKind::Light,
            slot,
            item,
        }])
    }

    /// Adds a Ruse, Evidence or Means to the lowest empty slot of its inventory
    /// (VR-3, VR-4), or a Secret through [`Sheet::learn_secret`]. Stress and
    /// Wounds are refused here: use [`Sheet::gain_stress`] and
    /// [`Sheet::add_wounds`], which apply Breaks and death.
    pub fn add_item(&mut self, item: Item) -> Result<Vec<Event>, RuleError> {
        match item.kind {
            ItemKind::Secret => self.learn_secret(&item.text),
            ItemKind::Stress => Err(RuleError::new(
                "Stress is gained with the Stress action, so that a Break can happen.",
            )),
            ItemKind::Wound => Err(RuleError::new(
                "Wounds are added with the Wound or damage action, so that death is checked.",
            )),
            kind => {
                let item = Item::new(kind, &item.text)?;
                let inventory = kind.inventory();
                let slot = self.inventory_mut(inventory).add(item.clone())?;
                Ok(vec![Event::ItemAdded {
                    inventory,
                    slot,
                    item,
                }])
            }
        }
    }

    fn removal_events(inventory: InventoryKind, r: Removal) -> Vec<Event> {
        let mut ev = vec![Event::ItemRemoved {
            inventory,
            slot: r.slot,
            item: r.item,
        }];
        if !r.moves.is_empty() {
            ev.push(Event::ItemsMoved {
                inventory,
                moves: r.moves,
            });
        }
        ev
    }

    /// Removes whatever is in a slot (compacting per `vr_compact_on_remove`, A-R2).
    pub fn remove_item(
        &mut self,
        inventory: InventoryKind,
        slot: u32,
        settings: &VeracitySettings,
    ) -> Result<Vec<Event>, RuleError> {
        let r = self
            .inventory_mut(inventory)
            .remove(slot, settings.vr_compact_on_remove)?;
        Ok(Self::removal_events(inventory, r))
    }

    /// Removes one item of a kind (A-R3): the chosen slot, or the highest-numbered one.
    pub fn remove_kind(
        &mut self,
        kind: ItemKind,
        choice: Option<u32>,
        settings: &VeracitySettings,
    ) -> Result<Vec<Event>, RuleError> {
        let inventory = kind.inventory();
        let r = self.inventory_mut(inventory).remove_kind(
            kind,
            choice,
            settings.vr_compact_on_remove,
        )?;
        Ok(Self::removal_events(inventory, r))
    }

    /// Removes a Secret the character holds, by its text: for a Secret that has
    /// become "just news" (VR-5), after the GM confirms. It stays known.
    pub fn remove_secret_text(
        &mut self,
        text: &str,
        settings: &VeracitySettings,
    ) -> Result<Vec<Event>, RuleError> {
        let slot = self
            .holds_secret(text)
            .ok_or_else(|| RuleError::new("This character does not hold that Secret."))?;
        self.remove_item(InventoryKind::Light, slot, settings)
    }

    /// Changes the text of an item.
    pub fn edit_item(
        &mut self,
        inventory: InventoryKind,
        slot: u32,
        text: &str,
    ) -> Result<Vec<Event>, RuleError> {
        let inv = self.inventory(inventory);
        let is_secret = inv.get(slot).is_some_and(|i| i.kind == ItemKind::Secret);
        if is_secret {
            let norm = normalize_text(text);
            let old = inv.get(slot).map(|i| normalize_text(&i.text));
            if old.as_ref() != Some(&norm) {
                if self.known_secrets.contains(&norm) {
                    return Err(RuleError::new(
                        "This character has already learned that Secret: a Secret is learned only once.",
                    ));
                }
                if self.known_secrets.len() >= MAX_KNOWN_SECRETS {
                    return Err(RuleError::new(
                        "This character already knows too many Secrets for the bot to track.",
                    ));
                }
            }
        }
        let old = self.inventory_mut(inventory).edit_text(slot, text)?;
        let new = self
            .inventory(inventory)
            .get(slot)
            .map(|i| i.text.clone())
            .unwrap_or_default();
        if is_secret {
            let norm = normalize_text(&new);
            if !self.known_secrets.contains(&norm) {
                self.known_secrets.push(norm);
            }
        }
        Ok(vec![Event::ItemEdited {
            inventory,
            slot,
            old,
            new,
        }])
    }

    /// Moves items down to close gaps in one inventory (A-R2, on request).
    pub fn compact(&mut self, inventory: InventoryKind) -> Vec<Event> {
        let moves = self.inventory_mut(inventory).compact();
        if moves.is_empty() {
            Vec::new()
        } else {
            vec![Event::ItemsMoved { inventory, moves }]
        }
    }

    /// Unlocks the next slot of an inventory (GM adjustment; levelling uses
    /// [`Sheet::reveal_to_shock`]).
    pub fn unlock_slot(&mut self, inventory: InventoryKind) -> Result<Vec<Event>, RuleError> {
        let slot = self.inventory_mut(inventory).unlock()?;
        Ok(vec![Event::SlotUnlocked { inventory, slot }])
    }

    fn check_facet(&self, index: usize) -> Result<&Facet, RuleError> {
        self.facets.get(index).ok_or_else(|| {
            RuleError::new(format!(
                "There is no Facet number {}: this character has {}.",
                index.saturating_add(1),
                self.facets.len()
            ))
        })
    }

    /// The Stress or the Wound in `inventory`'s slot `slot`: harm that
    /// leaves only the rules' ways, Stress by a day relaxing in daylight or
    /// a Break (VR-18, VR-15), a Wound by a day of rest with medical care
    /// (VR-17), never by simply emptying the slot. `None` for any other
    /// item, an empty slot or no such slot.
    pub fn rest_only(&self, inventory: InventoryKind, slot: u32) -> Option<ItemKind> {
        let kind = self.inventory(inventory).get(slot)?.kind;
        matches!(kind, ItemKind::Stress | ItemKind::Wound).then_some(kind)
    }

    /// One Facet by index (0-based).
    pub fn facet(&self, index: usize) -> Result<&Facet, RuleError> {
        self.check_facet(index)
    }

    /// Adds a Facet (VR-13: at most 4; the referee decides when one is earned).
    pub fn add_facet(&mut self, phrase: &str, die: FacetDie) -> Result<Vec<Event>, RuleError> {
        let phrase = check_phrase(phrase)?;
        if self.facets.len() >= MAX_FACETS {
            return Err(RuleError::new(format!(
                "A character can have at most {MAX_FACETS} Facets."
            )));
        }
        if self
            .facets
            .iter()
            .any(|f| normalize_text(&f.phrase) == normalize_text(&phrase))
        {
            return Err(RuleError::new("This character already has that Facet."));
        }
        self.facets.push(Facet {
            phrase: phrase.clone(),
            die,
        });
        Ok(vec![Event::FacetAdded {
            index: self.facets.len() - 1,
            phrase,
            die,
        }])
    }

    /// Removes a Facet (GM adjustment).
    pub fn remove_facet(&mut self, index: usize) -> Result<Vec<Event>, RuleError> {
        self.check_facet(index)?;
        let f = self.facets.remove(index);
        Ok(vec![Event::FacetRemoved {
            index,
            phrase: f.phrase,
        }])
    }

    /// Moves a Facet's die one step after an extreme action (VR-13, A-R7):
    /// `up` = larger. Refused at d12 going up or d4 going down.
    pub fn step_facet(&mut self, index: usize, up: bool) -> Result<Vec<Event>, RuleError> {
        let f = self.check_facet(index)?;
        let from = f.die;
        let to = if up { from.step_up() } else { from.step_down() }.ok_or_else(|| {
            RuleError::new(format!(
                "\"{}\" is already a {from}, the {} Facet die.",
                f.phrase,
                if up { "largest" } else { "smallest" }
            ))
        })?;
        self.facets[index].die = to;
        Ok(vec![Event::FacetStepped { index, from, to }])
    }

    /// Replaces a d4 Facet with a new phrase, keeping the d4 (VR-13).
    pub fn replace_facet(&mut self, index: usize, phrase: &str) -> Result<Vec<Event>, RuleError> {
        let f = self.check_facet(index)?;
        if !f.replaceable() {
            return Err(RuleError::new(format!(
                "Only a d4 Facet can be replaced, and \"{}\" is a {}.",
                f.phrase, f.die
            )));
        }
        let phrase = check_phrase(phrase)?;
        if self
            .facets
            .iter()
            .enumerate()
            .any(|(i, f)| i != index && normalize_text(&f.phrase) == normalize_text(&phrase))
        {
            return Err(RuleError::new("This character already has that Facet."));
        }
        let old = std::mem::replace(&mut self.facets[index].phrase, phrase.clone());
        Ok(vec![Event::FacetReplaced {
            index,
            old,
            new: phrase,
        }])
    }

    /// Sets current and maximum HP (GM: gear and magic, VR-19).
    pub fn set_hp(&mut self, current: u32, max: u32) -> Result<Vec<Event>, RuleError> {
        if max > MAX_HP {
            return Err(RuleError::new(format!("HP can be at most {MAX_HP}.")));
        }
        if current > max {
            return Err(RuleError::new(format!(
                "Current HP ({current}) cannot be above maximum HP ({max})."
            )));
        }
        let before = self.hp_current;
        self.hp_current = current;
        self.hp_max = max;
        Ok(vec![Event::HpSet {
            before,
            after: current,
            max,
        }])
    }

    /// Sets maximum HP; current HP is lowered to it if above.
    pub fn set_hp_max(&mut self, max: u32) -> Result<Vec<Event>, RuleError> {
        self.set_hp(self.hp_current.min(max), max)
    }

    /// End of scene: all HP returns (VR-19).
    pub fn end_scene(&mut self) -> Vec<Event> {
        let before = self.hp_current;
        self.hp_current = self.hp_max;
        vec![Event::HpSet {
            before,
            after: self.hp_max,
            max: self.hp_max,
        }]
    }

    /// GM override of the dead flag (to undo a mistake).
    pub fn set_dead(&mut self, dead: bool) -> Vec<Event> {
        self.dead = dead;
        vec![Event::DeathSet { dead }]
    }
}

/// `text` with its first letter in upper case ("an Evidence" → "An Evidence").
fn capitalised(text: &str) -> String {
    let mut c = text.chars();
    match c.next() {
        Some(first) => first.to_uppercase().chain(c).collect(),
        None => String::new(),
    }
}
