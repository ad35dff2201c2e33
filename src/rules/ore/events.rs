//! [`OreEvent`]: everything that can happen in Virtual Veil, for the roll log.
//!
//! Every procedure (stat rolls, the COMP, damage, healing, repairs) returns
//! these, in the order things happened, so the application can log and show
//! each step (spec §1.3 and §1.4).

use super::sets::{Pattern, Set};
use super::sheet::{CacheRef, Damageable, Severity, Stat};
use serde::{Deserialize, Serialize};

/// A condition that stops an entity acting, or limits it (VV-13, VV-14).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Condition {
    /// Confidence 0: mental break.
    MentalBreak,
    /// Vitality 0.
    VitalityDown,
    /// Cyber 0: no COMP and no supernatural abilities until repaired.
    SupernaturalLost,
    /// A Critical Injury.
    CriticalInjury,
    /// More than 3 Injuries: internal glitch.
    Glitched,
    /// Killed (only black magic heals).
    Dead,
    /// A natively digital entity wiped at 0 Cyber.
    Deleted,
}

impl Condition {
    /// True if the condition stops the entity acting (VV-13). Cyber 0
    /// does not: a living entity is locked out of cosmOS, the COMP and its
    /// supernatural abilities, but fights on.
    pub fn incapacitates(self) -> bool {
        !matches!(self, Condition::SupernaturalLost)
    }
}

/// What a hit came to (VV-12..VV-14), read from its events in order: the
/// first condition that incapacitates or a defense that stopped it all
/// decides; else it landed.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum HitOutcome {
    /// The target is incapacitated by this condition (VV-13).
    Incapacitated(Condition),
    /// A defense stopped all of it: no damage, no Fault die (VV-12).
    Absorbed,
    /// The damage landed.
    Landed {
        /// Cyber 0 locked the target out, who fights on (VV-13).
        locked_out: bool,
        /// The Injury matching Fault dice formed at once (VV-14).
        injury: Option<Severity>,
        /// The Fault die rolled into the cache (VV-14).
        fault: Option<u32>,
    },
}

impl HitOutcome {
    /// The outcome of a hit whose events are `events`.
    pub fn of(events: &[OreEvent]) -> Self {
        let (mut locked_out, mut injury, mut fault) = (false, None, None);
        for ev in events {
            match ev {
                OreEvent::Incapacitated { condition } if !condition.incapacitates() => {
                    locked_out = true;
                }
                OreEvent::Incapacitated { condition } => {
                    return HitOutcome::Incapacitated(*condition)
                }
                OreEvent::DamageAbsorbed { .. } => return HitOutcome::Absorbed,
                OreEvent::FaultDie { face } => fault = Some(*face),
                OreEvent::InjuryFormed { severity, .. } => injury = Some(*severity),
                _ => {}
            }
        }
        HitOutcome::Landed {
            locked_out,
            injury,
            fault,
        }
    }
}

impl OreEvent {
    /// True if the event hurts its entity beyond its tracks: an Injury
    /// formed (VV-14) or a condition that incapacitates (VV-13; Cyber 0's
    /// lock-out, which fights on, does not).
    pub fn hurts(&self) -> bool {
        match self {
            OreEvent::InjuryFormed { .. } => true,
            OreEvent::Incapacitated { condition } => condition.incapacitates(),
            _ => false,
        }
    }
}

/// Why a COMP session ended (VV-8, VV-13, VV-17).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum LogoutReason {
    /// The user logged out or switched the COMP off.
    Manual,
    /// The battery ran out during use.
    BatteryEmpty,
    /// Cyber reached 0.
    CyberZero,
}

/// One thing that happened, for the roll log.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case", tag = "event")]
pub enum OreEvent {
    /// A stat roll (VV-1): the dice put in the register.
    Rolled {
        /// The Called Stat, if the roll used one.
        stat: Option<Stat>,
        /// The dice the stat (or the ad-hoc request) asked for.
        requested: u32,
        /// The dice actually rolled.
        pool: u32,
        /// Every face, in order.
        faces: Vec<u32>,
    },
    /// The pool was cut to `vv_max_pool` (A-O2).
    PoolCapped {
        /// Dice asked for.
        requested: u32,
        /// The cap.
        cap: u32,
    },
    /// The −1 Power penalty applied (A-O19): a die removed, or shown only.
    PowerPenalty {
        /// True if a die was removed from the pool.
        removed_die: bool,
    },
    /// Error Dice rolled for an injured entity (A-O13); `action` is the
    /// action they go with (`None`: rolled with the stat roll).
    ErrorDice {
        /// The action number in the roll, if any.
        action: Option<usize>,
        /// The faces.
        faces: Vec<u32>,
    },
    /// Cache dice moved into the register (VV-8).
    CacheAdded {
        /// Their faces.
        faces: Vec<u32>,
        /// Their positions in the register.
        positions: Vec<usize>,
    },
    /// Register dice loaded into the cache (VV-8).
    Loaded {
        /// Their faces.
        faces: Vec<u32>,
        /// Their positions in the register.
        positions: Vec<usize>,
    },
    /// The cache is over its maximum: this many dice must be discarded now.
    CacheOverflow {
        /// How many dice over.
        excess: usize,
    },
    /// A die discarded from the cache (or a Fault die, A-O11).
    Discarded {
        /// Which die.
        die: CacheRef,
        /// Its face.
        face: u32,
        /// True if chosen by the default (lowest face, A-O10), not the owner.
        by_default: bool,
    },
    /// A face modifier changed a register die (VV-5).
    FaceModified {
        /// The die's position.
        position: usize,
        /// Face before.
        from: u32,
        /// Face after (clamped or wrapped, A-O6).
        to: u32,
        /// The modifier.
        delta: i32,
    },
    /// A Basic action used a set (VV-6).
    BasicAction {
        /// The action number in the roll.
        action: usize,
        /// The set used.
        set: Set,
        /// Register positions of its dice.
        positions: Vec<usize>,
        /// How many of them came from the cache.
        cache_dice: u32,
        /// Damage suggested (`vv_default_damage` = width, A-O17).
        suggested_damage: Option<u32>,
        /// What the action was, if given.
        label: Option<String>,
    },
    /// A Special action used dice matching a pattern (VV-6).
    SpecialAction {
        /// The action number in the roll.
        action: usize,
        /// The pattern.
        pattern: Pattern,
        /// Register positions of its dice.
        positions: Vec<usize>,
        /// Their faces.
        faces: Vec<u32>,
        /// How many of them came from the cache.
        cache_dice: u32,
        /// What the action was, if given.
        label: Option<String>,
    },
    /// A Minor action spent one die (VV-6, A-O8).
    MinorAction {
        /// The action number in the roll.
        action: usize,
        /// The die's position.
        position: usize,
        /// Its face.
        face: u32,
        /// The set this die belonged to, now narrower or gone.
        broke: Option<Set>,
        /// What the action was, if given.
        label: Option<String>,
    },
    /// A Free action (no dice).
    FreeAction {
        /// The action number in the roll.
        action: usize,
        /// What it was.
        label: String,
    },
    /// Cache dice used up by an action (A-O9).
    CacheConsumed {
        /// Their faces.
        faces: Vec<u32>,
    },
    /// Cache dice put back into the cache when the register closed (unused,
    /// or not consumed per `vv_cache_consumed_on_use`).
    CacheReturned {
        /// Their faces.
        faces: Vec<u32>,
    },
    /// Cache dice that could not go back because the COMP stopped.
    CacheDiceLost {
        /// Their faces.
        faces: Vec<u32>,
    },
    /// The round this register was rolled in has ended (VV-11): the
    /// register is cleared and no action was taken.
    RegisterEnded,
    /// The register was cleared: the roll is over.
    RollClosed,
    /// The COMP booted and rolled its cache (VV-8).
    Booted {
        /// The cache faces.
        faces: Vec<u32>,
    },
    /// The COMP session ended; the cache is lost.
    LoggedOut {
        /// Why.
        reason: LogoutReason,
        /// The cache faces lost.
        cache_lost: Vec<u32>,
    },
    /// Battery used (nothing is drained while plugged in).
    BatteryUsed {
        /// Amount drained.
        amount: u32,
        /// Battery left.
        remaining: u32,
    },
    /// Battery charged (1:1, VV-17).
    BatteryCharged {
        /// Amount added.
        amount: u32,
        /// Battery now.
        current: u32,
    },
    /// Damage reduced a track (VV-12).
    DamageTaken {
        /// The track hit.
        target: Damageable,
        /// The damage dealt.
        raw: u32,
        /// The defense subtracted (A-O18 `subtract`), else 0.
        defense: u32,
        /// The damage taken after the defense.
        taken: u32,
        /// The track now.
        current: u32,
        /// Damage taken after reaching 0, in total.
        overflow_after_zero: u32,
    },
    /// A defense stopped all of an attack: no damage, no Fault die.
    DamageAbsorbed {
        /// The track aimed at.
        target: Damageable,
        /// The damage dealt.
        raw: u32,
        /// The defense.
        defense: u32,
    },
    /// A Fault die rolled into the cache (VV-14).
    FaultDie {
        /// Its face.
        face: u32,
    },
    /// Matching Fault dice became an Injury and were removed (VV-14, A-O12).
    InjuryFormed {
        /// How bad.
        severity: Severity,
        /// The width of the matching Fault set.
        width: u32,
        /// The shared face.
        face: u32,
    },
    /// A track reached 0 (VV-13).
    ReachedZero {
        /// The track.
        target: Damageable,
    },
    /// A living entity at 0 Vitality acts on with −1 Power until the end of
    /// the round, then is incapacitated (VV-13).
    IncapacitationPending,
    /// A condition took hold.
    Incapacitated {
        /// Which.
        condition: Condition,
    },
    /// A condition ended.
    ConditionCleared {
        /// Which.
        condition: Condition,
    },
    /// The End phase ran (VV-11).
    EndOfRound,
    /// The −1 Power penalty ended.
    PowerPenaltyEnded,
    /// Combat ended for this entity.
    CombatEnded,
    /// Fault dice removed (end of combat in a stable place).
    FaultDiceCleared {
        /// Their faces.
        faces: Vec<u32>,
    },
    /// A track healed (VV-15, VV-16).
    Healed {
        /// The track.
        target: Damageable,
        /// Points restored.
        amount: u32,
        /// The track now.
        current: u32,
    },
    /// An Injury was healed.
    InjuryHealed {
        /// Its position in the Injury list.
        index: usize,
        /// Its severity.
        severity: Severity,
    },
    /// A Cyber repair check (VV-16, A-O21).
    RepairCheck {
        /// The Engineering dice rolled.
        pool: u32,
        /// Their faces.
        faces: Vec<u32>,
        /// The Cyber value being restored to.
        target_value: u32,
        /// The best set, if any.
        best: Option<Set>,
        /// Whether it passed.
        success: bool,
        /// Hours the check takes.
        hours: u32,
    },
    /// Something the table should know that changes nothing by itself.
    Warning {
        /// The message.
        message: String,
    },
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn vv_12_to_14_a_hit_comes_to_incapacitation_absorption_or_what_landed() {
        let fault = OreEvent::FaultDie { face: 2 };
        let injury = OreEvent::InjuryFormed {
            severity: Severity::Moderate,
            width: 3,
            face: 2,
        };
        let lock = OreEvent::Incapacitated {
            condition: Condition::SupernaturalLost,
        };
        let down = OreEvent::Incapacitated {
            condition: Condition::VitalityDown,
        };
        let absorbed = OreEvent::DamageAbsorbed {
            target: Damageable::Vitality,
            raw: 2,
            defense: 3,
        };
        assert_eq!(
            HitOutcome::of(&[fault.clone(), injury.clone(), lock.clone()]),
            HitOutcome::Landed {
                locked_out: true,
                injury: Some(Severity::Moderate),
                fault: Some(2),
            }
        );
        assert_eq!(
            HitOutcome::of(&[]),
            HitOutcome::Landed {
                locked_out: false,
                injury: None,
                fault: None,
            }
        );
        // The first deciding event wins; a lock-out does not incapacitate.
        assert_eq!(
            HitOutcome::of(&[lock, fault, down.clone(), absorbed.clone()]),
            HitOutcome::Incapacitated(Condition::VitalityDown)
        );
        assert_eq!(HitOutcome::of(&[absorbed, down]), HitOutcome::Absorbed);
    }
}
