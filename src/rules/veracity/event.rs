//! Events: what each Veracity sheet operation did, in order, for the roll log
//! and the renderer.

use serde::{Deserialize, Serialize};

use super::item::{FacetDie, InventoryKind, Item};

/// Why dice were rolled.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum RollPurpose {
    /// A Stress amount (`+dN`).
    Stress,
    /// A Facet die rolled for acting against the Facet (VR-12).
    FacetStress,
    /// The d6 for being shocked by a revealed Secret (VR-16).
    Shock,
    /// The d20 Wounds of a heart attack (VR-15).
    HeartAttack,
    /// A damage amount (VR-19, VR-20).
    Damage,
    /// A number of Wounds.
    Wounds,
    /// A Convention's Stress die (VR-16).
    Convention,
}

/// Where some Stress came from (VR-16).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum StressSource {
    /// The referee's call: a social attack, an enemy, a hostile environment, or a manual entry.
    Referee,
    /// Acting against a Facet (index into the sheet's facets).
    Facet {
        /// Index of the Facet on the sheet.
        index: usize,
        /// The Facet's phrase.
        phrase: String,
    },
    /// Violating a declared Convention.
    Convention {
        /// The Convention's id.
        id: u32,
        /// The Convention's text.
        text: String,
    },
    /// Shocked by a revealed Secret (+d6).
    ShockedBySecret,
    /// A social attack (an insult, a threat): the referee's amount.
    SocialAttack,
    /// Fled a social conflict without the enemy's consent (+1).
    FledSocialConflict,
    /// One's own compromising Secret revealed (fill every empty Light slot, A-R9).
    OwnSecretRevealed,
}

/// Why damage became Wounds instead of lowering HP (VR-19, A-R5).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum WoundReason {
    /// The referee asked for Wounds directly (`as Wounds`).
    Direct,
    /// The target was immobilised.
    Immobilised,
    /// The target was unsuspecting.
    Unsuspecting,
    /// The target was at 0 HP.
    ZeroHp,
    /// Damage on the attacker's surprise turn bypasses HP (VR-22).
    SurpriseTurn,
    /// Damage beyond the remaining HP, with `vr_hp_overflow_to_wounds` on.
    HpOverflow,
}

/// One thing that happened to a sheet (or a Convention list), in order.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "event", rename_all = "snake_case")]
pub enum Event {
    /// Dice were rolled: every face and the total.
    Rolled {
        /// What the roll was for.
        purpose: RollPurpose,
        /// Faces per die.
        sides: u32,
        /// Every face, in order.
        faces: Vec<u32>,
        /// Their sum.
        total: u32,
    },
    /// An item was written into a slot.
    ItemAdded {
        /// Which inventory.
        inventory: InventoryKind,
        /// The slot number (1-based).
        slot: u32,
        /// The item.
        item: Item,
    },
    /// An item was removed from a slot.
    ItemRemoved {
        /// Which inventory.
        inventory: InventoryKind,
        /// The slot it was in.
        slot: u32,
        /// The item.
        item: Item,
    },
    /// An item's text was changed.
    ItemEdited {
        /// Which inventory.
        inventory: InventoryKind,
        /// The slot.
        slot: u32,
        /// The old text.
        old: String,
        /// The new text.
        new: String,
    },
    /// Items moved down to close gaps (A-R2): each pair is (from, to).
    ItemsMoved {
        /// Which inventory.
        inventory: InventoryKind,
        /// Every move, (from slot, to slot).
        moves: Vec<(u32, u32)>,
    },
    /// A slot was unlocked.
    SlotUnlocked {
        /// Which inventory.
        inventory: InventoryKind,
        /// The new slot's number.
        slot: u32,
    },
    /// Stress is about to be gained (VR-14): how much and why.
    StressIncoming {
        /// Where it comes from.
        source: StressSource,
        /// How much (for an own Secret revealed: the number of empty Light slots, 0 if none).
        n: u32,
    },
    /// Stress filled these Light slots.
    StressAdded {
        /// Slot numbers, lowest first.
        slots: Vec<u32>,
    },
    /// Stress that did not fit and was discarded (VR-14).
    StressDiscarded {
        /// How many.
        n: u32,
    },
    /// The character Broke (VR-15).
    Broke {
        /// The break count after this Break (1 = first).
        count: u32,
    },
    /// First Break: the character can no longer level up.
    LostWillToSeek,
    /// A later Break: a heart attack adding this many Wounds (rolled d20).
    HeartAttack {
        /// The d20 roll.
        wounds: u32,
    },
    /// All Stress removed after a Break (these Light slots).
    StressCleared {
        /// The slots that held Stress.
        slots: Vec<u32>,
    },
    /// The GM waived the Break of an own compromising Secret revealed with no room (A-R9).
    BreakWaived,
    /// A Wound was written into this Flesh slot.
    WoundAdded {
        /// The slot.
        slot: u32,
    },
    /// A non-Wound Flesh item was lost to make room for a Wound (A-R4).
    ItemDisplaced {
        /// The slot it was in (the Wound takes it).
        slot: u32,
        /// The lost item.
        item: Item,
    },
    /// A heart attack's Wounds that must displace items the owner chooses
    /// (A-R4, A-R10): they wait on the sheet until placed, nothing is lost
    /// before the owner picks.
    WoundsPending {
        /// How many wait.
        n: u32,
    },
    /// Wounds that found no room and were discarded (`vr_wound_overflow = discard`).
    WoundsDiscarded {
        /// How many.
        n: u32,
    },
    /// Every unlocked Flesh slot holds a Wound: the character is dead (VR-17).
    Died,
    /// The GM set the dead flag by hand.
    DeathSet {
        /// The new value.
        dead: bool,
    },
    /// Damage lowered HP.
    HpLost {
        /// Damage absorbed by HP.
        amount: u32,
        /// HP before.
        before: u32,
        /// HP after.
        after: u32,
    },
    /// Damage beyond the remaining HP that was lost (A-R5 default).
    HpExcessLost {
        /// How much.
        n: u32,
    },
    /// Damage became this many Wounds, and why.
    DamageAsWounds {
        /// How many Wounds.
        n: u32,
        /// Every reason that applied.
        reasons: Vec<WoundReason>,
    },
    /// HP changed outside damage (end of scene, GM edit).
    HpSet {
        /// Current HP before.
        before: u32,
        /// Current HP after.
        after: u32,
        /// Maximum HP after.
        max: u32,
    },
    /// AP restored at the start of a turn (VR-21).
    ApRestored {
        /// The AP now available.
        ap: u32,
    },
    /// AP spent.
    ApSpent {
        /// How much.
        n: u32,
        /// What is left.
        left: u32,
    },
    /// A Facet was added.
    FacetAdded {
        /// Its index.
        index: usize,
        /// Its phrase.
        phrase: String,
        /// Its die.
        die: FacetDie,
    },
    /// A Facet was removed.
    FacetRemoved {
        /// Its former index.
        index: usize,
        /// Its phrase.
        phrase: String,
    },
    /// A Facet's die moved one step (VR-13, A-R7).
    FacetStepped {
        /// The Facet's index.
        index: usize,
        /// The old die.
        from: FacetDie,
        /// The new die.
        to: FacetDie,
    },
    /// A d4 Facet was replaced (VR-13).
    FacetReplaced {
        /// The Facet's index.
        index: usize,
        /// The old phrase.
        old: String,
        /// The new phrase.
        new: String,
    },
    /// A revelation shocked an NPC and was logged (VR-24).
    RevelationLogged {
        /// Index in the revelation log.
        index: usize,
        /// The NPC.
        target: String,
    },
    /// A slot gained by levelling up (VR-24).
    LevelledUp {
        /// Which inventory.
        inventory: InventoryKind,
        /// The new slot's number.
        slot: u32,
    },
    /// A Convention was violated (VR-16).
    ConventionViolated {
        /// The Convention's id.
        id: u32,
        /// Who violated it.
        violator: i64,
        /// The Stress it costs.
        stress: u32,
    },
}

impl Event {
    /// A short label of the event's kind (for logs).
    pub fn kind_name(&self) -> &'static str {
        match self {
            Event::Rolled { .. } => "rolled",
            Event::ItemAdded { .. } => "item_added",
            Event::ItemRemoved { .. } => "item_removed",
            Event::ItemEdited { .. } => "item_edited",
            Event::ItemsMoved { .. } => "items_moved",
            Event::SlotUnlocked { .. } => "slot_unlocked",
            Event::StressIncoming { .. } => "stress_incoming",
            Event::StressAdded { .. } => "stress_added",
            Event::StressDiscarded { .. } => "stress_discarded",
            Event::Broke { .. } => "broke",
            Event::LostWillToSeek => "lost_will_to_seek",
            Event::HeartAttack { .. } => "heart_attack",
            Event::StressCleared { .. } => "stress_cleared",
            Event::BreakWaived => "break_waived",
            Event::WoundAdded { .. } => "wound_added",
            Event::ItemDisplaced { .. } => "item_displaced",
            Event::WoundsPending { .. } => "wounds_pending",
            Event::WoundsDiscarded { .. } => "wounds_discarded",
            Event::Died => "died",
            Event::DeathSet { .. } => "death_set",
            Event::HpLost { .. } => "hp_lost",
            Event::HpExcessLost { .. } => "hp_excess_lost",
            Event::DamageAsWounds { .. } => "damage_as_wounds",
            Event::HpSet { .. } => "hp_set",
            Event::ApRestored { .. } => "ap_restored",
            Event::ApSpent { .. } => "ap_spent",
            Event::FacetAdded { .. } => "facet_added",
            Event::FacetRemoved { .. } => "facet_removed",
            Event::FacetStepped { .. } => "facet_stepped",
            Event::FacetReplaced { .. } => "facet_replaced",
            Event::RevelationLogged { .. } => "revelation_logged",
            Event::LevelledUp { .. } => "levelled_up",
            Event::ConventionViolated { .. } => "convention_violated",
        }
    }
}

/// What a change came to, the most telling thing first ([`Upshot::of`]):
/// what its answer's title and `/history` line say.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Upshot {
    /// Every Flesh slot holds a Wound (VR-17).
    Died,
    /// A Break (VR-15).
    Broke {
        /// The break count after the last Break (1 = first).
        count: u32,
        /// A later Break's heart attack: its Wounds.
        heart_attack: Option<u32>,
    },
    /// Wounds waiting for the owner to choose the Flesh items they displace
    /// (A-R4, A-R10).
    WoundsPending {
        /// How many wait.
        n: u32,
    },
    /// A slot gained by levelling up (VR-24).
    LevelledUp {
        /// Which inventory.
        inventory: InventoryKind,
        /// The new slot's number.
        slot: u32,
    },
    /// Wounds written into these Flesh slots.
    Wounded {
        /// The slots, in order.
        slots: Vec<u32>,
    },
    /// Damage lowered HP.
    HpLost {
        /// Damage absorbed by HP.
        amount: u32,
        /// HP left.
        after: u32,
    },
    /// Stress filled these Light slots (VR-14).
    Stressed {
        /// The slots, lowest first.
        slots: Vec<u32>,
        /// Stress that did not fit and was discarded.
        discarded: Option<u32>,
    },
    /// Stress or Wounds found no room: nothing was kept.
    Discarded,
    /// Damage came to nothing.
    NoDamage,
    /// Dice were rolled or Stress came, and nothing changed.
    NothingChanged,
}

impl Upshot {
    /// What `events` came to: a death, a Break, Wounds waiting for room, a
    /// level up, Wounds, lost HP, Stress, then what was not kept. `None`
    /// for plain bookkeeping (items, Facets, HP set, a rest).
    pub fn of(events: &[Event]) -> Option<Upshot> {
        let first = |f: fn(&Event) -> Option<Upshot>| events.iter().find_map(f);
        let any = |f: fn(&Event) -> bool| events.iter().any(f);
        first(|e| matches!(e, Event::Died).then_some(Upshot::Died))
            .or_else(|| Upshot::broke(events))
            .or_else(|| {
                first(|e| match e {
                    Event::WoundsPending { n } => Some(Upshot::WoundsPending { n: *n }),
                    _ => None,
                })
            })
            .or_else(|| {
                first(|e| match e {
                    Event::LevelledUp { inventory, slot } => Some(Upshot::LevelledUp {
                        inventory: *inventory,
                        slot: *slot,
                    }),
                    _ => None,
                })
            })
            .or_else(|| {
                let slots: Vec<u32> = events
                    .iter()
                    .filter_map(|e| match e {
                        Event::WoundAdded { slot } => Some(*slot),
                        _ => None,
                    })
                    .collect();
                (!slots.is_empty()).then_some(Upshot::Wounded { slots })
            })
            .or_else(|| {
                first(|e| match e {
                    Event::HpLost { amount, after, .. } => Some(Upshot::HpLost {
                        amount: *amount,
                        after: *after,
                    }),
                    _ => None,
                })
            })
            .or_else(|| Upshot::stressed(events))
            .or_else(|| {
                any(|e| {
                    matches!(
                        e,
                        Event::StressDiscarded { .. } | Event::WoundsDiscarded { .. }
                    )
                })
                .then_some(Upshot::Discarded)
            })
            .or_else(|| {
                any(|e| matches!(e, Event::HpExcessLost { .. } | Event::DamageAsWounds { .. }))
                    .then_some(Upshot::NoDamage)
            })
            .or_else(|| {
                any(|e| matches!(e, Event::Rolled { .. } | Event::StressIncoming { .. }))
                    .then_some(Upshot::NothingChanged)
            })
    }

    /// The last Break among `events`, with the heart attack it caused.
    fn broke(events: &[Event]) -> Option<Upshot> {
        let count = events.iter().rev().find_map(|e| match e {
            Event::Broke { count } => Some(*count),
            _ => None,
        })?;
        let heart_attack = events.iter().find_map(|e| match e {
            Event::HeartAttack { wounds } => Some(*wounds),
            _ => None,
        });
        Some(Upshot::Broke {
            count,
            heart_attack,
        })
    }

    /// The Stress added among `events`, with how much was not kept.
    fn stressed(events: &[Event]) -> Option<Upshot> {
        let slots = events.iter().find_map(|e| match e {
            Event::StressAdded { slots } => Some(slots.clone()),
            _ => None,
        })?;
        let discarded = events.iter().find_map(|e| match e {
            Event::StressDiscarded { n } => Some(*n),
            _ => None,
        });
        Some(Upshot::Stressed { slots, discarded })
    }
}
