//! Stress, Breaks, Wounds, HP damage, recovery and death (spec §3.5,
//! VR-14..VR-20, A-R3..A-R5, A-R9, A-R10, A-R14).
//!
//! Every public operation validates first, rolls second, and changes the
//! sheet only when it returns `Ok`, with the events that describe each step.

use rand::Rng;
use serde::{Deserialize, Serialize};

use super::amount::Amount;
use super::event::{Event, RollPurpose, StressSource, WoundReason};
use super::settings::{VeracitySettings, WoundOverflow};
use super::sheet::{InventoryKind, Item, ItemKind, Sheet, MAX_SLOTS};
use crate::rules::dice::d;
use crate::rules::RuleError;

/// Where damage goes (VR-19, VR-20: `damage <expr> [to HP | as Wounds]`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize, Default)]
#[serde(rename_all = "snake_case")]
pub enum DamageMode {
    /// By the rules: Wounds if any condition holds or HP is 0, else HP (default).
    #[default]
    Auto,
    /// To HP regardless of conditions (the referee's call).
    Hp,
    /// As Wounds directly (traps, falls, the referee's call).
    Wounds,
}

/// The conditions that make damage bypass HP (VR-19, VR-22). HP at 0 is read
/// from the sheet.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize, Default)]
pub struct DamageConditions {
    /// The target is immobilised.
    pub immobilised: bool,
    /// The target is unsuspecting.
    pub unsuspecting: bool,
    /// Dealt on the attacker's side's surprise turn (its first turn).
    pub surprise_turn: bool,
}

fn roll_event<R: Rng + ?Sized>(
    amount: &Amount,
    purpose: RollPurpose,
    rng: &mut R,
    ev: &mut Vec<Event>,
) -> u32 {
    let r = amount.roll(rng);
    if let Amount::Dice { sides, .. } = *amount {
        ev.push(Event::Rolled {
            purpose,
            sides,
            faces: r.faces,
            total: r.total,
        });
    }
    r.total
}

impl Sheet {
    fn compact_if(
        &mut self,
        inventory: InventoryKind,
        settings: &VeracitySettings,
        ev: &mut Vec<Event>,
    ) {
        if settings.vr_compact_on_remove {
            let moves = self.inventory_mut(inventory).compact();
            if !moves.is_empty() {
                ev.push(Event::ItemsMoved { inventory, moves });
            }
        }
    }

    /// Checks a list of Flesh slots the owner offers to lose to Wounds (A-R4):
    /// distinct, unlocked, each holding a non-Wound item.
    pub fn check_displace_choice(&self, displace: &[u32]) -> Result<(), RuleError> {
        if displace.len() > MAX_SLOTS as usize {
            return Err(RuleError::new("Choose at most 18 Flesh slots to give up."));
        }
        for (i, &n) in displace.iter().enumerate() {
            if displace[..i].contains(&n) {
                return Err(RuleError::new(format!(
                    "Flesh slot {n} is listed twice among the items to give up."
                )));
            }
            match self.flesh.get(n) {
                Some(item) if item.kind != ItemKind::Wound => {}
                Some(_) => {
                    return Err(RuleError::new(format!(
                        "Flesh slot {n} already holds a Wound: choose a non-Wound item to give up."
                    )))
                }
                None => {
                    return Err(RuleError::new(format!(
                        "Flesh slot {n} holds no item to give up."
                    )))
                }
            }
        }
        Ok(())
    }

    /// The default item lost to a Wound with no room (A-R4): the
    /// highest-numbered non-Wound Flesh item.
    pub fn default_displacement(&self) -> Option<u32> {
        self.flesh
            .slots()
            .iter()
            .enumerate()
            .rev()
            .find(|(_, s)| s.item().is_some_and(|i| i.kind != ItemKind::Wound))
            .map(|(i, _)| i as u32 + 1)
    }

    /// A heart attack's Wounds (A-R10): into the empty Flesh slots first;
    /// if the rest would displace some but not all of the non-Wound items,
    /// the owner chooses which ([`Sheet::place_pending_wound`]): they wait
    /// as pending Wounds. If they displace every item, there is nothing to
    /// choose (the character dies).
    fn place_heart_attack(
        &mut self,
        wounds: u32,
        settings: &VeracitySettings,
        ev: &mut Vec<Event>,
    ) {
        let empty = self.flesh.empty_count();
        let others = self
            .flesh
            .slots()
            .iter()
            .filter(|s| s.item().is_some_and(|i| i.kind != ItemKind::Wound))
            .count() as u32;
        let over = wounds.saturating_sub(empty);
        if settings.vr_wound_overflow != WoundOverflow::Displace || over == 0 || over >= others {
            self.place_wounds(wounds, &[], settings, ev);
            return;
        }
        self.place_wounds(empty, &[], settings, ev);
        if self.dead {
            return;
        }
        self.pending_wounds = self.pending_wounds.saturating_add(over);
        ev.push(Event::WoundsPending { n: over });
    }

    /// Heart-attack Wounds still waiting for the owner's choice of what
    /// they displace.
    pub fn pending_wounds(&self) -> u32 {
        self.pending_wounds
    }

    /// Places one pending Wound (A-R4): into the lowest empty Flesh slot if
    /// one has freed up, otherwise into `slot`, whose non-Wound item the
    /// owner gives up. Checks death after.
    pub fn place_pending_wound(
        &mut self,
        slot: u32,
        settings: &VeracitySettings,
    ) -> Result<Vec<Event>, RuleError> {
        if self.pending_wounds == 0 {
            return Err(RuleError::new("No Wound is waiting to be placed."));
        }
        let mut ev = Vec::new();
        if self.flesh.lowest_empty().is_none() {
            if !self
                .flesh
                .get(slot)
                .is_some_and(|i| i.kind != ItemKind::Wound)
            {
                return Err(RuleError::new(format!(
                    "Flesh slot {slot} holds no item a Wound can displace."
                )));
            }
            self.pending_wounds -= 1;
            self.place_wounds(1, &[slot], settings, &mut ev);
        } else {
            self.pending_wounds -= 1;
            self.place_wounds(1, &[], settings, &mut ev);
        }
        if self.dead {
            self.pending_wounds = 0;
        }
        Ok(ev)
    }

    fn flesh_all_wounds(&self) -> bool {
        self.flesh.unlocked() == 0 || self.flesh.all_hold(ItemKind::Wound)
    }

    /// Adds `n` Wounds one at a time (VR-17, A-R4, A-R10); checks death after
    /// each and stops at death. `displace` must be pre-validated.
    pub(super) fn place_wounds(
        &mut self,
        n: u32,
        displace: &[u32],
        settings: &VeracitySettings,
        ev: &mut Vec<Event>,
    ) {
        let mut choices = displace.iter().copied();
        let mut discarded = 0u32;
        for _ in 0..n {
            if let Some(slot) = self.flesh.lowest_empty() {
                self.flesh.put(slot, Item::wound());
                ev.push(Event::WoundAdded { slot });
            } else if settings.vr_wound_overflow == WoundOverflow::Displace {
                let pick = choices
                    .next()
                    .filter(|&c| self.flesh.get(c).is_some_and(|i| i.kind != ItemKind::Wound))
                    .or_else(|| self.default_displacement());
                if let Some(slot) = pick {
                    if let Some(item) = self.flesh.put(slot, Item::wound()) {
                        ev.push(Event::ItemDisplaced { slot, item });
                    }
                    ev.push(Event::WoundAdded { slot });
                }
            } else {
                discarded += 1;
            }
            if self.flesh_all_wounds() {
                if discarded > 0 {
                    ev.push(Event::WoundsDiscarded { n: discarded });
                }
                self.dead = true;
                ev.push(Event::Died);
                return;
            }
        }
        if discarded > 0 {
            ev.push(Event::WoundsDiscarded { n: discarded });
        }
    }

    /// A Break (VR-15): count it; first → no more levelling; later → heart
    /// attack of d20 Wounds (A-R10, default displacement); then all Stress goes.
    fn break_now<R: Rng + ?Sized>(
        &mut self,
        settings: &VeracitySettings,
        rng: &mut R,
        ev: &mut Vec<Event>,
    ) {
        self.break_count = self.break_count.saturating_add(1);
        ev.push(Event::Broke {
            count: self.break_count,
        });
        if self.break_count == 1 {
            self.can_level_up = false;
            ev.push(Event::LostWillToSeek);
        } else {
            let wounds = d(rng, 20);
            ev.push(Event::Rolled {
                purpose: RollPurpose::HeartAttack,
                sides: 20,
                faces: vec![wounds],
                total: wounds,
            });
            ev.push(Event::HeartAttack { wounds });
            self.place_heart_attack(wounds, settings, ev);
        }
        let slots = self.light.slots_with(ItemKind::Stress);
        for &s in &slots {
            let _ = self.light.remove(s, false);
        }
        ev.push(Event::StressCleared { slots });
        self.compact_if(InventoryKind::Light, settings, ev);
    }

    /// VR-14 with `n` already known: fill the lowest empty Light slots,
    /// discard the rest; no empty slot → Break.
    fn place_stress<R: Rng + ?Sized>(
        &mut self,
        n: u32,
        settings: &VeracitySettings,
        rng: &mut R,
        ev: &mut Vec<Event>,
    ) {
        if n == 0 {
            return;
        }
        if self.light.empty_count() == 0 {
            self.break_now(settings, rng, ev);
            return;
        }
        let mut slots = Vec::new();
        for _ in 0..n {
            match self.light.lowest_empty() {
                Some(slot) => {
                    self.light.put(slot, Item::stress());
                    slots.push(slot);
                }
                None => break,
            }
        }
        let placed = slots.len() as u32;
        ev.push(Event::StressAdded { slots });
        if n > placed {
            ev.push(Event::StressDiscarded { n: n - placed });
        }
    }

    /// Gains Stress from any source (VR-14, VR-16, A-R14): rolls the amount if
    /// it is dice, then fills the lowest empty Light slots and discards the
    /// rest, or Breaks when no Light slot is empty (VR-15).
    pub fn gain_stress_from<R: Rng + ?Sized>(
        &mut self,
        source: StressSource,
        amount: Amount,
        settings: &VeracitySettings,
        rng: &mut R,
    ) -> Result<Vec<Event>, RuleError> {
        self.ensure_alive()?;
        amount.validate()?;
        if amount == Amount::Flat(0) {
            return Err(RuleError::new("Stress must be at least 1."));
        }
        let purpose = match source {
            StressSource::Facet { .. } => RollPurpose::FacetStress,
            StressSource::ShockedBySecret => RollPurpose::Shock,
            StressSource::Convention { .. } => RollPurpose::Convention,
            _ => RollPurpose::Stress,
        };
        let mut next = self.clone();
        let mut ev = Vec::new();
        let n = roll_event(&amount, purpose, rng, &mut ev);
        ev.push(Event::StressIncoming { source, n });
        next.place_stress(n, settings, rng, &mut ev);
        *self = next;
        Ok(ev)
    }

    /// Gains Stress on the referee's call (social attack, enemies, hostile
    /// environments, manual entry): `+N` or `+dN` (VR-14, VR-16).
    pub fn gain_stress<R: Rng + ?Sized>(
        &mut self,
        amount: Amount,
        settings: &VeracitySettings,
        rng: &mut R,
    ) -> Result<Vec<Event>, RuleError> {
        self.gain_stress_from(StressSource::Referee, amount, settings, rng)
    }

    /// Acting against a Facet: Stress equal to a roll of its die (VR-12, VR-16).
    pub fn act_against_facet<R: Rng + ?Sized>(
        &mut self,
        index: usize,
        settings: &VeracitySettings,
        rng: &mut R,
    ) -> Result<Vec<Event>, RuleError> {
        let f = self.facet(index)?.clone();
        self.gain_stress_from(
            StressSource::Facet {
                index,
                phrase: f.phrase,
            },
            Amount::die(f.die.sides()),
            settings,
            rng,
        )
    }

    /// A social attack, an insult or a threat: Stress of the referee's
    /// amount (VR-16), `+N` or `+dN`.
    pub fn social_attack<R: Rng + ?Sized>(
        &mut self,
        amount: Amount,
        settings: &VeracitySettings,
        rng: &mut R,
    ) -> Result<Vec<Event>, RuleError> {
        self.gain_stress_from(StressSource::SocialAttack, amount, settings, rng)
    }

    /// Shocked by a revealed Secret: +d6 Stress (VR-16).
    pub fn shocked_by_secret<R: Rng + ?Sized>(
        &mut self,
        settings: &VeracitySettings,
        rng: &mut R,
    ) -> Result<Vec<Event>, RuleError> {
        self.gain_stress_from(StressSource::ShockedBySecret, Amount::die(6), settings, rng)
    }

    /// Fleeing a social conflict without the enemy's consent: +1 Stress (VR-16).
    pub fn flee_social_conflict<R: Rng + ?Sized>(
        &mut self,
        settings: &VeracitySettings,
        rng: &mut R,
    ) -> Result<Vec<Event>, RuleError> {
        self.gain_stress_from(
            StressSource::FledSocialConflict,
            Amount::Flat(1),
            settings,
            rng,
        )
    }

    /// One's own compromising Secret revealed (VR-16, A-R9): every empty Light
    /// slot fills with Stress; with none empty, a Break unless the GM waives it.
    pub fn own_secret_revealed<R: Rng + ?Sized>(
        &mut self,
        waive_break: bool,
        settings: &VeracitySettings,
        rng: &mut R,
    ) -> Result<Vec<Event>, RuleError> {
        self.ensure_alive()?;
        let mut next = self.clone();
        let n = next.light.empty_count();
        let mut ev = vec![Event::StressIncoming {
            source: StressSource::OwnSecretRevealed,
            n,
        }];
        if n == 0 && waive_break {
            ev.push(Event::BreakWaived);
        } else if n == 0 {
            next.break_now(settings, rng, &mut ev);
        } else {
            next.place_stress(n, settings, rng, &mut ev);
        }
        *self = next;
        Ok(ev)
    }

    /// Adds Wounds directly (VR-17): `amount` rolled if dice, added one at a
    /// time into the lowest empty Flesh slot; with no room each displaces an
    /// item (the owner's `displace` choices first, then the highest-numbered
    /// non-Wound item) or is discarded, per `vr_wound_overflow` (A-R4). Death
    /// is checked after each Wound.
    pub fn add_wounds<R: Rng + ?Sized>(
        &mut self,
        amount: Amount,
        displace: &[u32],
        settings: &VeracitySettings,
        rng: &mut R,
    ) -> Result<Vec<Event>, RuleError> {
        self.ensure_alive()?;
        amount.validate()?;
        if amount == Amount::Flat(0) {
            return Err(RuleError::new("Add at least 1 Wound."));
        }
        self.check_displace_choice(displace)?;
        let mut next = self.clone();
        let mut ev = Vec::new();
        let n = roll_event(&amount, RollPurpose::Wounds, rng, &mut ev);
        next.place_wounds(n, displace, settings, &mut ev);
        *self = next;
        Ok(ev)
    }

    /// Damage (VR-19, VR-20, VR-22, A-R5). In `Auto` mode damage becomes that
    /// many Wounds when the target is immobilised, unsuspecting, at 0 HP or hit
    /// on a surprise turn; otherwise it lowers HP, and damage beyond the HP is
    /// lost (or becomes Wounds with `vr_hp_overflow_to_wounds`).
    pub fn take_damage<R: Rng + ?Sized>(
        &mut self,
        amount: Amount,
        mode: DamageMode,
        conditions: DamageConditions,
        displace: &[u32],
        settings: &VeracitySettings,
        rng: &mut R,
    ) -> Result<Vec<Event>, RuleError> {
        self.ensure_alive()?;
        amount.validate()?;
        self.check_displace_choice(displace)?;
        let mut next = self.clone();
        let mut ev = Vec::new();
        let n = roll_event(&amount, RollPurpose::Damage, rng, &mut ev);
        let reasons = match mode {
            DamageMode::Wounds => vec![WoundReason::Direct],
            DamageMode::Hp => Vec::new(),
            DamageMode::Auto => {
                let mut r = Vec::new();
                if conditions.immobilised {
                    r.push(WoundReason::Immobilised);
                }
                if conditions.unsuspecting {
                    r.push(WoundReason::Unsuspecting);
                }
                if conditions.surprise_turn {
                    r.push(WoundReason::SurpriseTurn);
                }
                if next.hp_current == 0 {
                    r.push(WoundReason::ZeroHp);
                }
                r
            }
        };
        if n == 0 {
            *self = next;
            return Ok(ev);
        }
        if !reasons.is_empty() {
            ev.push(Event::DamageAsWounds { n, reasons });
            next.place_wounds(n, displace, settings, &mut ev);
        } else {
            let before = next.hp_current;
            let absorbed = n.min(before);
            next.hp_current = before - absorbed;
            if absorbed > 0 {
                ev.push(Event::HpLost {
                    amount: absorbed,
                    before,
                    after: next.hp_current,
                });
            }
            let excess = n - absorbed;
            if excess > 0 {
                if settings.vr_hp_overflow_to_wounds {
                    ev.push(Event::DamageAsWounds {
                        n: excess,
                        reasons: vec![WoundReason::HpOverflow],
                    });
                    next.place_wounds(excess, displace, settings, &mut ev);
                } else {
                    ev.push(Event::HpExcessLost { n: excess });
                }
            }
        }
        *self = next;
        Ok(ev)
    }

    /// A full day of rest with medical care removes one Wound (VR-17, A-R3):
    /// the owner's chosen slot, or the highest-numbered Wound.
    pub fn heal_wound(
        &mut self,
        choice: Option<u32>,
        settings: &VeracitySettings,
    ) -> Result<Vec<Event>, RuleError> {
        self.ensure_alive()?;
        if self.flesh.count(ItemKind::Wound) == 0 {
            return Err(RuleError::new("You have no Wounds to heal."));
        }
        self.remove_kind(ItemKind::Wound, choice, settings)
    }

    /// A full day relaxing in daylight removes one Stress (VR-18, A-R3):
    /// the owner's chosen slot, or the highest-numbered Stress.
    pub fn relax_stress(
        &mut self,
        choice: Option<u32>,
        settings: &VeracitySettings,
    ) -> Result<Vec<Event>, RuleError> {
        self.ensure_alive()?;
        if self.light.count(ItemKind::Stress) == 0 {
            return Err(RuleError::new("You have no Stress to shed."));
        }
        self.remove_kind(ItemKind::Stress, choice, settings)
    }
}
