//! One serde [`Action`] per sheet operation and [`Sheet::apply`], so the
//! application can store, log and replay sheet changes uniformly. Saves
//! (read-only) and Convention violations (which also touch the channel's list)
//! have their own entry points in `save.rs` and `convention.rs`.

use rand::Rng;
use serde::{Deserialize, Serialize};

use super::amount::Amount;
use super::event::Event;
use super::initiative::ApAction;
use super::level::RevelationInput;
use super::settings::VeracitySettings;
use super::sheet::{FacetDie, InventoryKind, Item, ItemKind, Sheet};
use super::stress::{DamageConditions, DamageMode};
use crate::rules::RuleError;

/// Every change a Veracity sheet can undergo. Facet indexes are 0-based;
/// slot numbers are 1-based.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "op", rename_all = "snake_case")]
pub enum Action {
    /// Add a Secret, Ruse, Evidence or Means ([`Sheet::add_item`]).
    AddItem {
        /// The kind (Stress and Wounds are refused: use their actions).
        kind: ItemKind,
        /// The description.
        text: String,
    },
    /// Remove whatever is in a slot ([`Sheet::remove_item`]).
    RemoveItem {
        /// Which inventory.
        inventory: InventoryKind,
        /// The slot.
        slot: u32,
    },
    /// Remove one item of a kind ([`Sheet::remove_kind`], A-R3).
    RemoveKind {
        /// The kind.
        kind: ItemKind,
        /// The owner's chosen slot, else the highest-numbered.
        slot: Option<u32>,
    },
    /// Remove a held Secret that became "just news" ([`Sheet::remove_secret_text`]).
    RemoveSecretText {
        /// The Secret's text.
        text: String,
    },
    /// Change an item's text ([`Sheet::edit_item`]).
    EditItem {
        /// Which inventory.
        inventory: InventoryKind,
        /// The slot.
        slot: u32,
        /// The new text.
        text: String,
    },
    /// Close gaps in an inventory ([`Sheet::compact`]).
    Compact {
        /// Which inventory.
        inventory: InventoryKind,
    },
    /// Unlock the next slot (GM adjustment, [`Sheet::unlock_slot`]).
    UnlockSlot {
        /// Which inventory.
        inventory: InventoryKind,
    },
    /// Add a Facet ([`Sheet::add_facet`]).
    AddFacet {
        /// The phrase.
        phrase: String,
        /// The die.
        die: FacetDie,
    },
    /// Remove a Facet ([`Sheet::remove_facet`]).
    RemoveFacet {
        /// 0-based index.
        index: usize,
    },
    /// Step a Facet die up or down ([`Sheet::step_facet`]).
    StepFacet {
        /// 0-based index.
        index: usize,
        /// True for a larger die.
        up: bool,
    },
    /// Replace a d4 Facet ([`Sheet::replace_facet`]).
    ReplaceFacet {
        /// 0-based index.
        index: usize,
        /// The new phrase.
        phrase: String,
    },
    /// Set HP ([`Sheet::set_hp`]).
    SetHp {
        /// Current HP.
        current: u32,
        /// Maximum HP.
        max: u32,
    },
    /// End of scene: HP refills ([`Sheet::end_scene`]).
    EndScene,
    /// GM override of the dead flag ([`Sheet::set_dead`]).
    SetDead {
        /// The new value.
        dead: bool,
    },
    /// Stress on the referee's call ([`Sheet::gain_stress`]).
    GainStress {
        /// `N` or `dN`.
        amount: Amount,
    },
    /// Acting against a Facet ([`Sheet::act_against_facet`]).
    ActAgainstFacet {
        /// 0-based index.
        index: usize,
    },
    /// A social attack: the referee's amount ([`Sheet::social_attack`]).
    SocialAttack {
        /// `N` or `dN`.
        amount: Amount,
    },
    /// Shocked by a revealed Secret, +d6 ([`Sheet::shocked_by_secret`]).
    ShockedBySecret,
    /// Fled a social conflict, +1 ([`Sheet::flee_social_conflict`]).
    FleeSocialConflict,
    /// Own compromising Secret revealed ([`Sheet::own_secret_revealed`]).
    OwnSecretRevealed {
        /// The GM waives the Break when no Light slot is empty (A-R9).
        waive_break: bool,
    },
    /// Wounds directly ([`Sheet::add_wounds`]).
    AddWounds {
        /// `N` or dice.
        amount: Amount,
        /// Flesh slots the owner gives up first, if Wounds overflow (A-R4).
        #[serde(default)]
        displace: Vec<u32>,
    },
    /// Damage ([`Sheet::take_damage`]).
    Damage {
        /// `N` or dice.
        amount: Amount,
        /// Auto, to HP, or as Wounds.
        #[serde(default)]
        mode: DamageMode,
        /// Immobilised, unsuspecting, surprise turn.
        #[serde(default)]
        conditions: DamageConditions,
        /// Flesh slots the owner gives up first, if Wounds overflow (A-R4).
        #[serde(default)]
        displace: Vec<u32>,
    },
    /// A day of rest with medical care removes a Wound ([`Sheet::heal_wound`]).
    HealWound {
        /// The owner's chosen slot, else the highest-numbered Wound.
        slot: Option<u32>,
    },
    /// A day relaxing in daylight removes a Stress ([`Sheet::relax_stress`]).
    RelaxStress {
        /// The owner's chosen slot, else the highest-numbered Stress.
        slot: Option<u32>,
    },
    /// Start of the character's turn: AP refills ([`Sheet::start_turn`]).
    StartTurn,
    /// Spend AP ([`Sheet::spend_ap`]).
    SpendAp {
        /// The action taken.
        action: ApAction,
    },
    /// Level up by shocking an NPC ([`Sheet::reveal_to_shock`]).
    RevealToShock(RevelationInput),
    /// Place a pending heart-attack Wound, displacing the owner's choice
    /// ([`Sheet::place_pending_wound`]).
    PlaceWound {
        /// The Flesh slot whose item the Wound displaces.
        slot: u32,
    },
}

impl Action {
    /// The amount given with the action: the Stress gained or of a social
    /// attack (VR-14, VR-16), the Wounds taken (VR-17) or the damage
    /// (VR-19). `None` for the others, whose dice the rules fix (a Facet's
    /// die, a shock's d6, a Convention's cost).
    pub fn amount(&self) -> Option<Amount> {
        match self {
            Action::GainStress { amount }
            | Action::SocialAttack { amount }
            | Action::AddWounds { amount, .. }
            | Action::Damage { amount, .. } => Some(*amount),
            _ => None,
        }
    }
}

impl Sheet {
    /// Applies one action. All or nothing: on `Err` the sheet is unchanged.
    pub fn apply<R: Rng + ?Sized>(
        &mut self,
        action: &Action,
        settings: &VeracitySettings,
        rng: &mut R,
    ) -> Result<Vec<Event>, RuleError> {
        let mut next = self.clone();
        let ev = next.dispatch(action, settings, rng)?;
        next.number_items();
        *self = next;
        Ok(ev)
    }

    fn dispatch<R: Rng + ?Sized>(
        &mut self,
        action: &Action,
        settings: &VeracitySettings,
        rng: &mut R,
    ) -> Result<Vec<Event>, RuleError> {
        match action {
            Action::AddItem { kind, text } => self.add_item(Item::new(*kind, text)?),
            Action::RemoveItem { inventory, slot } => self.remove_item(*inventory, *slot, settings),
            Action::RemoveKind { kind, slot } => self.remove_kind(*kind, *slot, settings),
            Action::RemoveSecretText { text } => self.remove_secret_text(text, settings),
            Action::EditItem {
                inventory,
                slot,
                text,
            } => self.edit_item(*inventory, *slot, text),
            Action::Compact { inventory } => Ok(self.compact(*inventory)),
            Action::UnlockSlot { inventory } => self.unlock_slot(*inventory),
            Action::AddFacet { phrase, die } => self.add_facet(phrase, *die),
            Action::RemoveFacet { index } => self.remove_facet(*index),
            Action::StepFacet { index, up } => self.step_facet(*index, *up),
            Action::ReplaceFacet { index, phrase } => self.replace_facet(*index, phrase),
            Action::SetHp { current, max } => self.set_hp(*current, *max),
            Action::EndScene => Ok(self.end_scene()),
            Action::SetDead { dead } => Ok(self.set_dead(*dead)),
            Action::GainStress { amount } => self.gain_stress(*amount, settings, rng),
            Action::ActAgainstFacet { index } => self.act_against_facet(*index, settings, rng),
            Action::SocialAttack { amount } => self.social_attack(*amount, settings, rng),
            Action::ShockedBySecret => self.shocked_by_secret(settings, rng),
            Action::FleeSocialConflict => self.flee_social_conflict(settings, rng),
            Action::OwnSecretRevealed { waive_break } => {
                self.own_secret_revealed(*waive_break, settings, rng)
            }
            Action::AddWounds { amount, displace } => {
                self.add_wounds(*amount, displace, settings, rng)
            }
            Action::Damage {
                amount,
                mode,
                conditions,
                displace,
            } => self.take_damage(*amount, *mode, *conditions, displace, settings, rng),
            Action::HealWound { slot } => self.heal_wound(*slot, settings),
            Action::RelaxStress { slot } => self.relax_stress(*slot, settings),
            Action::StartTurn => Ok(self.start_turn(settings)),
            Action::SpendAp { action } => self.spend_ap(*action),
            Action::RevealToShock(input) => self.reveal_to_shock(input),
            Action::PlaceWound { slot } => self.place_pending_wound(*slot, settings),
        }
    }
}
