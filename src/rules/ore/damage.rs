//! Damage, Fault dice, Injuries, the End phase, healing and Cyber repair
//! (VV-12..VV-16, A-O12, A-O18..A-O21, A-O23).

use super::events::{Condition, LogoutReason, OreEvent};
use super::sets::{read, Set};
use super::settings::{DefenseMode, FaultCheck, OreSettings, RepairCheck};
use super::sheet::{Damageable, Injury, Losses, OreSheet, Severity, World};
use crate::rules::dice::{d, pool};
use crate::rules::RuleError;
use rand::Rng;
use serde::{Deserialize, Serialize};

/// The most days [`OreSheet::pass_days`] takes at once.
pub const MAX_DAYS: u32 = 10_000;

/// What a Cyber repair check showed (VV-16, A-O21).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct RepairOutcome {
    /// Engineering dice asked for.
    pub requested: u32,
    /// Dice rolled (capped at `vv_max_pool`).
    pub pool: u32,
    /// The faces.
    pub faces: Vec<u32>,
    /// The Cyber value being restored to (current + 1).
    pub target_value: u32,
    /// The best set, if any.
    pub best: Option<Set>,
    /// What the check needed, in words.
    pub needed: String,
    /// Whether it passed (then Cyber rose by 1).
    pub success: bool,
    /// Hours the check takes: one per point of the value restored to.
    pub hours: u32,
}

impl OreSheet {
    /// Takes `amount` damage to a track (VV-12..VV-14).
    ///
    /// Mobs put all damage on their Health (Vitality) track and roll no Fault
    /// dice. With `vv_defense_mode` = subtract, the matching defense is taken
    /// off first; damage reduced to 0 is absorbed (no Fault die). Otherwise one
    /// Fault die is rolled into the cache, and with `vv_fault_check` =
    /// immediate matching Fault dice become Injuries at once.
    ///
    /// Damage beyond the points left counts as damage after reaching 0; at 0
    /// Vitality, that total reaching the maximum kills (A-O20).
    pub fn take_damage<R: Rng + ?Sized>(
        &mut self,
        settings: &OreSettings,
        target: Damageable,
        amount: u32,
        rng: &mut R,
    ) -> Result<Vec<OreEvent>, RuleError> {
        if amount == 0 {
            return Err(RuleError::new("Damage must be at least 1."));
        }
        if self.conditions.dead || self.conditions.deleted {
            return Err(RuleError::new(
                "This entity is already dead or deleted and cannot take more damage.",
            ));
        }
        let track_id = if self.mob_mode {
            Damageable::Vitality
        } else {
            target
        };
        let defense = match settings.defense_mode {
            DefenseMode::Subtract => self.defenses.against(target),
            DefenseMode::Display => 0,
        };
        let taken = amount.saturating_sub(defense);
        let mut events = Vec::new();
        if taken == 0 {
            events.push(OreEvent::DamageAbsorbed {
                target: track_id,
                raw: amount,
                defense,
            });
            return Ok(events);
        }
        let track = self.track_mut(track_id);
        let before = track.current;
        let excess = taken.saturating_sub(before);
        track.current = before.saturating_sub(taken);
        track.overflow_after_zero = track.overflow_after_zero.saturating_add(excess);
        let (current, overflow, max) = (track.current, track.overflow_after_zero, track.max);
        events.push(OreEvent::DamageTaken {
            target: track_id,
            raw: amount,
            defense,
            taken,
            current,
            overflow_after_zero: overflow,
        });
        if before > 0 && current == 0 {
            events.push(OreEvent::ReachedZero { target: track_id });
            self.reach_zero(track_id, &mut events);
        }
        if track_id == Damageable::Vitality && current == 0 && overflow > 0 && overflow >= max {
            self.conditions.dead = true;
            self.combat.incapacitated_pending_end_of_round = false;
            // Killed outright: no "−1 Power until the end of the round".
            self.combat.power_penalty = false;
            events.retain(|e| *e != OreEvent::IncapacitationPending);
            events.push(OreEvent::Incapacitated {
                condition: Condition::Dead,
            });
        }
        if !self.mob_mode {
            let face = d(rng, 10);
            self.fault_dice.push(face);
            events.push(OreEvent::FaultDie { face });
            if settings.fault_check == FaultCheck::Immediate {
                events.extend(self.check_faults());
            }
            let excess = self.cache_excess(settings);
            if excess > 0 {
                events.push(OreEvent::CacheOverflow { excess });
            }
        }
        Ok(events)
    }

    /// The effects of a track reaching 0 (VV-13).
    fn reach_zero(&mut self, track: Damageable, events: &mut Vec<OreEvent>) {
        match track {
            Damageable::Confidence => {
                self.conditions.mental_break = true;
                events.push(OreEvent::Incapacitated {
                    condition: Condition::MentalBreak,
                });
            }
            Damageable::Cyber => {
                self.conditions.supernatural_lost = true;
                events.push(OreEvent::Incapacitated {
                    condition: Condition::SupernaturalLost,
                });
                if self.comp.session_active {
                    events.push(self.end_session(LogoutReason::CyberZero));
                }
                if self.native_digital {
                    self.conditions.deleted = true;
                    events.push(OreEvent::Incapacitated {
                        condition: Condition::Deleted,
                    });
                }
            }
            Damageable::Vitality => {
                // A living mob (`status living:true`) gets the same delay.
                if self.living {
                    self.combat.incapacitated_pending_end_of_round = true;
                    self.combat.power_penalty = true;
                    events.push(OreEvent::IncapacitationPending);
                } else {
                    self.conditions.vitality_down = true;
                    events.push(OreEvent::Incapacitated {
                        condition: Condition::VitalityDown,
                    });
                }
            }
        }
    }

    /// The groups of matching Fault dice that wait for the End phase's
    /// Fault check to become Injuries (A-O12): none with `vv_fault_check`
    /// = immediate (they formed at once) or for a mob (no Fault dice).
    pub fn pending_faults(&self, settings: &OreSettings) -> Vec<Set> {
        if settings.fault_check != FaultCheck::EndOfRound || self.mob_mode {
            return Vec::new();
        }
        read(&self.fault_dice).sets
    }

    /// Turns every group of matching Fault dice into one Injury and removes
    /// those dice (VV-14, A-O12): width 2 Minor, 3 Moderate, 4 Severe, 5+
    /// Critical (incapacitation). More than 3 unhealed Injuries glitch the
    /// entity (VV-13).
    pub fn check_faults(&mut self) -> Vec<OreEvent> {
        let mut events = Vec::new();
        let reading = read(&self.fault_dice);
        if reading.sets.is_empty() {
            return events;
        }
        for set in &reading.sets {
            let Some(severity) = Severity::from_width(set.width) else {
                continue;
            };
            self.injuries.push(Injury {
                severity,
                healed: false,
                losses: Some(Losses {
                    vitality: self.vitality.current < self.vitality.max,
                    confidence: self.confidence.current < self.confidence.max,
                }),
            });
            events.push(OreEvent::InjuryFormed {
                severity,
                width: set.width,
                face: set.height,
            });
            if severity == Severity::Critical && !self.conditions.critical_injury {
                self.conditions.critical_injury = true;
                events.push(OreEvent::Incapacitated {
                    condition: Condition::CriticalInjury,
                });
            }
        }
        self.fault_dice
            .retain(|f| !reading.sets.iter().any(|s| s.height == *f));
        if self.active_injuries().count() > 3 && !self.conditions.glitched {
            self.conditions.glitched = true;
            events.push(OreEvent::Incapacitated {
                condition: Condition::Glitched,
            });
        }
        events
    }

    /// The End phase for this entity (VV-11): the Fault check (A-O12), a
    /// pending 0-Vitality incapacitation takes effect, the −1 Power penalty
    /// and the Called Stat end. The application clears registers by closing
    /// the rolls: every register rolled before this End phase is cleared
    /// when it is next touched ([`super::OreRoll::apply`]).
    pub fn end_of_round(&mut self, _settings: &OreSettings) -> Vec<OreEvent> {
        let mut events = vec![OreEvent::EndOfRound];
        self.rounds_ended = self.rounds_ended.wrapping_add(1);
        // Checked in both modes: with `immediate` no match is left by now,
        // and a mode change mid-combat is still honoured.
        events.extend(self.check_faults());
        if self.combat.incapacitated_pending_end_of_round {
            self.combat.incapacitated_pending_end_of_round = false;
            if self.vitality.current == 0 && !self.conditions.dead {
                self.conditions.vitality_down = true;
                events.push(OreEvent::Incapacitated {
                    condition: Condition::VitalityDown,
                });
            }
        }
        if self.combat.power_penalty {
            self.combat.power_penalty = false;
            events.push(OreEvent::PowerPenaltyEnded);
        }
        self.combat.called_stat = None;
        events
    }

    /// Ends combat for this entity: clears Outthink, Initiative and round
    /// state (a pending incapacitation takes effect), and when it has reached
    /// a stable place removes all Fault dice (VV-14). The last round's End
    /// phase comes first: matching Fault dice become Injuries (A-O12) before
    /// any are cleared, and the registers of that round end.
    pub fn end_combat(&mut self, stable_place: bool) -> Vec<OreEvent> {
        let mut events = vec![OreEvent::CombatEnded];
        self.rounds_ended = self.rounds_ended.wrapping_add(1);
        events.extend(self.check_faults());
        if self.combat.incapacitated_pending_end_of_round
            && self.vitality.current == 0
            && !self.conditions.dead
        {
            self.conditions.vitality_down = true;
            events.push(OreEvent::Incapacitated {
                condition: Condition::VitalityDown,
            });
        }
        if self.combat.power_penalty {
            events.push(OreEvent::PowerPenaltyEnded);
        }
        self.combat = Default::default();
        if stable_place && !self.fault_dice.is_empty() {
            let faces = std::mem::take(&mut self.fault_dice);
            events.push(OreEvent::FaultDiceCleared { faces });
        }
        events
    }

    /// Natural healing over `days` days (VV-15): Vitality and Confidence
    /// come back 1 per day each. With an unhealed Injury, the days count only
    /// if a professional tended the entity (`tended`). A day passing also ends
    /// the wait after a failed Cyber repair.
    pub fn pass_days(&mut self, days: u32, tended: bool) -> Result<Vec<OreEvent>, RuleError> {
        if days == 0 || days > MAX_DAYS {
            return Err(RuleError::new(format!(
                "The number of days must be from 1 to {MAX_DAYS}."
            )));
        }
        if self.conditions.dead || self.conditions.deleted {
            return Err(RuleError::new(
                "Only black magic can bring back the dead; rest does not.",
            ));
        }
        let mut events = Vec::new();
        let mut blocked = false;
        for t in [Damageable::Vitality, Damageable::Confidence] {
            // Losses that came with an Injury need a professional (VV-15).
            if !tended && self.active_injuries().any(|i| i.blocks(t)) {
                blocked |= self.track(t).current < self.track(t).max;
                continue;
            }
            if let Some(e) = self.heal(t, days) {
                events.push(e);
                self.clear_zero_conditions(t, &mut events);
            }
        }
        if blocked {
            events.push(OreEvent::Warning {
                message: "With an Injury, healing counts only while a professional (doctor, psychologist, priest, witch-doctor, attuned Sprite…) tends the patient (for the losses that came with the Injury).".into(),
            });
        }
        self.repair_wait = false;
        Ok(events)
    }

    /// Raises a track by up to `amount`; returns the Healed event if anything changed.
    fn heal(&mut self, t: Damageable, amount: u32) -> Option<OreEvent> {
        let track = self.track_mut(t);
        let gained = amount.min(track.max.saturating_sub(track.current));
        if gained == 0 {
            return None;
        }
        track.current += gained;
        track.overflow_after_zero = 0;
        Some(OreEvent::Healed {
            target: t,
            amount: gained,
            current: track.current,
        })
    }

    /// Clears the 0-value condition of a track that is above 0 again.
    fn clear_zero_conditions(&mut self, t: Damageable, events: &mut Vec<OreEvent>) {
        if self.track(t).current == 0 {
            return;
        }
        let flag = match t {
            Damageable::Vitality => {
                self.combat.incapacitated_pending_end_of_round = false;
                (&mut self.conditions.vitality_down, Condition::VitalityDown)
            }
            Damageable::Confidence => (&mut self.conditions.mental_break, Condition::MentalBreak),
            Damageable::Cyber => (
                &mut self.conditions.supernatural_lost,
                Condition::SupernaturalLost,
            ),
        };
        if *flag.0 {
            *flag.0 = false;
            events.push(OreEvent::ConditionCleared { condition: flag.1 });
        }
    }

    /// Marks an Injury healed (by the Compiler, after a professional's care).
    /// Healing the last Critical Injury clears that incapacitation; the
    /// glitch of more than 3 Injuries stays until the GM clears it (A-O23).
    pub fn heal_injury(&mut self, index: usize) -> Result<Vec<OreEvent>, RuleError> {
        let injury = self
            .injuries
            .get(index)
            .copied()
            .ok_or_else(|| RuleError::new("There is no such Injury."))?;
        if injury.healed {
            return Err(RuleError::new("That Injury is already healed."));
        }
        self.injuries[index].healed = true;
        let mut events = vec![OreEvent::InjuryHealed {
            index,
            severity: injury.severity,
        }];
        if injury.severity == Severity::Critical
            && self.conditions.critical_injury
            && !self
                .active_injuries()
                .any(|i| i.severity == Severity::Critical)
        {
            self.conditions.critical_injury = false;
            events.push(OreEvent::ConditionCleared {
                condition: Condition::CriticalInjury,
            });
        }
        Ok(events)
    }

    /// The chance (0 to 1) that a Cyber repair check (VV-16, A-O21) with
    /// `engineering` dice, capped as [`OreSheet::repair_cyber`] caps them,
    /// restores this sheet's next point of Cyber; `None` when the odds are
    /// out of the core's reach.
    pub fn repair_chance(&self, settings: &OreSettings, engineering: u32) -> Option<f64> {
        let dice = engineering.min(repair_cap(settings));
        let target_value = self.cyber.current.saturating_add(1);
        super::odds::repair_odds(dice, target_value, settings.repair_check).ok()
    }

    /// A Cyber repair check (VV-16, A-O21): anyone's Engineering dice
    /// (`engineering`, capped at `vv_max_pool`) against the value being
    /// restored to, V = current + 1. Passing needs a set of height ≥ V (for
    /// V > 10, or with `vv_repair_check` = set_value: a set value ≥ 10 + V) and
    /// restores 1 point. Only in the physical world; takes V hours; after a
    /// failure, wait a day ([`OreSheet::pass_days`]) before the next try.
    pub fn repair_cyber<R: Rng + ?Sized>(
        &mut self,
        settings: &OreSettings,
        engineering: u32,
        rng: &mut R,
    ) -> Result<(RepairOutcome, Vec<OreEvent>), RuleError> {
        if self.conditions.deleted {
            return Err(RuleError::new("A deleted entity cannot be repaired."));
        }
        if self.world != World::Physical {
            return Err(RuleError::new(
                "Cyber can only be repaired in the physical world, free of the Veil and cosmOS.",
            ));
        }
        if self.cyber.current >= self.cyber.max {
            return Err(RuleError::new("Cyber is already at its maximum."));
        }
        if self.repair_wait {
            return Err(RuleError::new(
                "After a failed repair you must wait a day before trying again.",
            ));
        }
        let target_value = self.cyber.current + 1;
        let cap = repair_cap(settings);
        let dice = engineering.min(cap);
        let mut events = Vec::new();
        if dice < engineering {
            events.push(OreEvent::PoolCapped {
                requested: engineering,
                cap,
            });
        }
        let faces = pool(rng, dice as usize, 10);
        let reading = read(&faces);
        let by_value = settings.repair_check == RepairCheck::SetValue || target_value > 10;
        let needed_value = target_value.saturating_add(10);
        let success = if by_value {
            reading.sets.iter().any(|s| s.value() >= needed_value)
        } else {
            reading.sets.iter().any(|s| s.height >= target_value)
        };
        let needed = if by_value {
            format!("a set worth {needed_value} or more")
        } else {
            format!("a set of height {target_value} or more")
        };
        let outcome = RepairOutcome {
            requested: engineering,
            pool: dice,
            faces: faces.clone(),
            target_value,
            best: reading.best(),
            needed,
            success,
            hours: target_value,
        };
        events.push(OreEvent::RepairCheck {
            pool: dice,
            faces,
            target_value,
            best: reading.best(),
            success,
            hours: target_value,
        });
        if success {
            if let Some(e) = self.heal(Damageable::Cyber, 1) {
                events.push(e);
            }
            self.clear_zero_conditions(Damageable::Cyber, &mut events);
        } else {
            self.repair_wait = true;
        }
        Ok((outcome, events))
    }
}

/// The damage suggested for an attack with `set` (A-O17): its width when
/// `vv_default_damage` = width, else none (the GM or ability decides).
pub fn suggested_damage(settings: &OreSettings, set: &Set) -> Option<u32> {
    match settings.default_damage {
        super::settings::DefaultDamage::Width => Some(set.width),
        super::settings::DefaultDamage::Manual => None,
    }
}

/// The most Engineering dice a repair check rolls: `vv_max_pool`, within
/// what the core supports.
fn repair_cap(settings: &OreSettings) -> u32 {
    settings
        .max_pool
        .clamp(1, super::settings::MAX_SUPPORTED_POOL)
}
