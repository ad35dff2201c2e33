//! Virtual Veil's roll-log records, typed: what each action writes in the
//! log's `inputs`, `dice` and `outcome` columns is one serde type, written
//! through the action pipeline ([`crate::app::pipeline::Record`]) and read
//! back by the same types ([`crate::app::log::column`]).
//!
//! The JSON is the one earlier versions wrote, key for key (fields in the
//! order `json!` wrote them: by name), and every field has a default, so
//! rows written before a field existed still read. Sheet edits log the
//! sheet after the edit as their outcome, and no dice (`[]`); COMP and
//! damage actions log the rules' events, with the cache or the Fault dice
//! as their dice.

use serde::{Deserialize, Serialize};

use crate::rules::ore::combat::{OrderKind, OrderRoll, TieBreakRecord};
use crate::rules::ore::roll::RegisterDie;
use crate::rules::ore::sets::{CacheCost, SetRequirement};
use crate::rules::ore::sheet::{CacheDie, Damageable, Stat, World};
use crate::rules::ore::tracker::EndOfRound;
use crate::rules::ore::{OreEvent, OreRoll};

/// `inputs` of `/vv sheet create`.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(default)]
pub struct Created {
    /// The new character's name.
    pub name: String,
}

/// `inputs` of `/vv sheet set`: one stat.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(default)]
pub struct StatSet {
    /// The stat.
    pub stat: Option<Stat>,
    /// Its new value.
    pub value: i64,
}

/// `inputs` of `/vv sheet set current:|max:` (once `/vv sheet track`): a track's maximum and current value.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(default)]
pub struct TrackSet {
    /// The new current value, if given.
    pub current: Option<i64>,
    /// The new maximum, if given.
    pub max: Option<i64>,
    /// The track.
    pub track: Option<Damageable>,
}

/// `inputs` of `/vv sheet set defense:` (once `/vv sheet defense`): Defense, Integrity and Resolve as
/// given (a list of three, `null` where not given).
pub type DefensesSet = [Option<i64>; 3];

/// `inputs` of `/vv sheet comp`: the COMP values as given (the command's
/// options too, its Distribution apart).
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(default)]
pub struct CompSet {
    /// A Chip installed.
    pub add_chip: Option<String>,
    /// The battery left.
    pub battery: Option<i64>,
    /// The battery life when full.
    pub battery_max: Option<i64>,
    /// The cache size.
    pub cache_size: Option<i64>,
    /// Plugged in or not.
    pub plugged_in: Option<bool>,
    /// Processing Power.
    pub processing_power: Option<i64>,
    /// A Chip removed.
    pub remove_chip: Option<String>,
    /// The Thread Count.
    pub thread_count: Option<i64>,
}

/// `inputs` of `/vv sheet special`: a Special action recorded or removed
/// (the command's options too).
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(default)]
pub struct SpecialSet {
    /// The name recorded.
    pub add: Option<String>,
    /// Which of its dice come from the cache.
    pub cache: Option<CacheCost>,
    /// Its pattern as typed.
    pub pattern: Option<String>,
    /// The name removed.
    pub remove: Option<String>,
}

/// `inputs` of `/vv sheet status` (the command's options too).
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(default)]
pub struct StatusSet {
    /// The glitch was cleared.
    pub clear_glitch: bool,
    /// Natively digital.
    pub digital: Option<bool>,
    /// Living.
    pub living: Option<bool>,
    /// Mob mode.
    pub mob: Option<bool>,
    /// Where the entity is.
    pub world: Option<World>,
}

/// `inputs` of `/vv boot`, `/vv logout` and `/vv battery`: the action as
/// the code named it (`Boot`, `Logout`, `Battery { used: … }`).
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(default)]
pub struct CompInputs {
    /// The action, in the code's words.
    pub action: String,
}

/// `inputs` of `/vv damage`.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(default)]
pub struct DamageInputs {
    /// The damage dealt.
    pub amount: u32,
    /// The track it went to.
    pub track: Option<Damageable>,
}

/// `inputs` of `/vv heal`.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(default)]
pub struct HealDays {
    /// The days of rest.
    pub days: u32,
    /// Tended by someone.
    pub tended: bool,
}

/// `inputs` of `/vv-gm heal injury`.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(default)]
pub struct HealInjury {
    /// The Injury's number as typed (from 1).
    pub injury: i64,
}

/// `inputs` of `/vv repair`.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(default)]
pub struct RepairInputs {
    /// The dice of the check.
    pub dice: u32,
    /// The Compiler gave the number of dice.
    pub overridden: bool,
    /// Whose Engineering, in words.
    pub pool: String,
}

/// `inputs` of `/vv roll`.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(default)]
pub struct RollInputs {
    /// The ad-hoc dice asked for instead of the stat.
    pub dice: Option<u32>,
    /// The pool as the roll showed it (it says when `dice:` overrode the
    /// stat); none in rows written before it was logged.
    pub pool: Option<String>,
    /// The set the action needs.
    pub requirement: Option<SetRequirement>,
    /// The Called Stat.
    pub stat: Option<Stat>,
}

/// `dice` of a roll: the faces as thrown and the Error Dice.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(default)]
pub struct RollDice {
    /// The Error Dice thrown with it.
    pub error_dice: Vec<u32>,
    /// The pool's natural faces.
    pub faces: Vec<u32>,
}

impl RollDice {
    /// The dice of `roll`.
    pub fn of(roll: &OreRoll) -> Self {
        Self {
            error_dice: roll.error_dice.clone(),
            faces: roll.natural.clone(),
        }
    }
}

/// `inputs` of `/vv-gm order`: the kind and the entities as typed.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(default)]
pub struct OrderInputs {
    /// The entities, one item each.
    pub entities: Vec<String>,
    /// Outthink or Initiative.
    pub kind: Option<OrderKind>,
}

/// `outcome` of `/vv-gm order` (its `dice` are the rules' entries).
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(default)]
pub struct OrderOutcome {
    /// Entity ids from best to worst.
    pub ranking: Vec<i64>,
    /// How ties were broken.
    pub ties: Vec<TieBreakRecord>,
}

impl OrderOutcome {
    /// The outcome of `result`.
    pub fn of(result: &OrderRoll) -> Self {
        Self {
            ranking: result.ranking.clone(),
            ties: result.ties.clone(),
        }
    }
}

/// `inputs` of `/vv-gm combat start` and of the tracker's Begin.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(default)]
pub struct CombatStart {
    /// Where the fight is.
    pub world: Option<World>,
}

/// A round: `inputs` of the tracker's Next round (the round that ended),
/// `outcome` of its Begin (the round that begins).
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(default)]
pub struct Round {
    /// The round.
    pub round: u32,
}

/// `inputs` of `/vv-gm combat damage`.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(default)]
pub struct CombatDamage {
    /// The damage dealt.
    pub amount: u32,
    /// The combatant's name.
    pub combatant: String,
    /// The track it went to.
    pub track: Option<Damageable>,
}

/// `inputs` of a combatant's Called Stat roll, started from the tracker.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(default)]
pub struct CalledInputs {
    /// Always true: a called roll.
    pub called: bool,
    /// The combatant's name.
    pub combatant: String,
    /// The pool as the roll showed it.
    pub pool: String,
    /// The Called Stat.
    pub stat: Option<Stat>,
}

/// One seat's End phase, in the `outcome` of the tracker's Next round.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(default)]
pub struct SeatEnd {
    /// What its sheet's End phase did.
    pub events: Vec<OreEvent>,
    /// It is now out of the turns.
    pub out: bool,
    /// The seat.
    pub seat: u32,
}

impl SeatEnd {
    /// The record of `end`.
    pub fn of(end: &EndOfRound) -> Self {
        Self {
            events: end.events.clone(),
            out: end.out,
            seat: end.seat,
        }
    }
}

/// `inputs` of a discard picked on a report: the select's values.
pub type Picked = Vec<String>;

/// `inputs` of a click on a roll: the button's word, its argument and
/// the values picked.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(default)]
pub struct ClickInputs {
    /// The button's action word.
    pub action: String,
    /// Its argument, if any.
    pub arg: Option<String>,
    /// The values picked in a select.
    pub values: Vec<String>,
}

/// `dice` of a click on a roll: the register and the cache after it.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(default)]
pub struct RegisterDice {
    /// The sheet's cache.
    pub cache: Vec<CacheDie>,
    /// The roll's register.
    pub register: Vec<RegisterDie>,
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::app::log::column;
    use serde_json::json;

    /// Each record writes what `json!` wrote before it, byte for byte.
    #[test]
    fn records_keep_the_json_earlier_versions_wrote() {
        let same = |typed: String, old: serde_json::Value| assert_eq!(typed, old.to_string());
        same(
            serde_json::to_string(&TrackSet {
                track: Some(Damageable::Cyber),
                max: Some(4),
                current: None,
            })
            .unwrap(),
            json!({ "track": Damageable::Cyber, "max": Some(4), "current": None::<i64> }),
        );
        same(
            serde_json::to_string(&CompSet {
                cache_size: Some(3),
                add_chip: Some("Lens".into()),
                ..CompSet::default()
            })
            .unwrap(),
            json!({
                "cache_size": Some(3), "battery_max": None::<i64>,
                "battery": None::<i64>, "thread_count": None::<i64>,
                "processing_power": None::<i64>, "plugged_in": None::<bool>,
                "add_chip": Some("Lens"), "remove_chip": None::<String>,
            }),
        );
        same(
            serde_json::to_string(&StatusSet {
                world: Some(World::Veil),
                clear_glitch: true,
                ..StatusSet::default()
            })
            .unwrap(),
            json!({ "world": Some(World::Veil), "mob": None::<bool>, "living": None::<bool>,
                    "digital": None::<bool>, "clear_glitch": true }),
        );
        same(
            serde_json::to_string(&DamageInputs {
                track: Some(Damageable::Vitality),
                amount: 3,
            })
            .unwrap(),
            json!({ "track": Damageable::Vitality, "amount": 3 }),
        );
        same(
            serde_json::to_string::<DefensesSet>(&[Some(2), None, Some(1)]).unwrap(),
            json!([Some(2), None::<i64>, Some(1)]),
        );
    }

    /// A row of an older shape (keys missing) or another action's still
    /// reads, with defaults.
    #[test]
    fn older_rows_read() {
        let s: StatSet = column(r#"{"stat":"wit","value":4}"#).unwrap();
        assert_eq!((s.stat, s.value), (Some(Stat::Wit), 4));
        let r: RepairInputs = column(r#"{"dice":3}"#).unwrap();
        assert_eq!((r.dice, r.overridden, r.pool.as_str()), (3, false, ""));
        let c: CompInputs = column(r#"{"action":"Boot"}"#).unwrap();
        assert_eq!(c.action, "Boot");
        assert_eq!(column::<HealDays>("not json"), None);
    }
}
