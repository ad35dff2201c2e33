//! Storyteller's roll-log records, typed: what each action writes in the
//! log's `inputs`, `dice` and `outcome` columns is one serde type, and
//! `/history` reads the same types back ([`super::history`]), so a renamed
//! field is a compile error, not a silently empty line.
//!
//! The JSON is the one earlier versions wrote, key for key, and every
//! field has a default: rows written before a field existed still read.

use serde::{Deserialize, Serialize};

use crate::rules::storyteller::sheet::TraitKind;
use crate::rules::storyteller::{
    AdHocRequest, Event, Outcome, Phase, RollRequest, RollSession, StorytellerSheet,
    WillpowerRequest,
};

/// `inputs` of `/st roll`: the request, whether willpower bought ignoring
/// wounds, and the character.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(default)]
pub struct RollInputs {
    /// The traits, difficulty, threshold and specialties asked for.
    pub request: RollRequest,
    /// Willpower was spent to ignore wound penalties (ST-12).
    pub ignore_wounds: bool,
    /// The character's name when rolled.
    pub character: String,
}

/// `inputs` of `/st pool`: a bare number of dice.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(default)]
pub struct PoolInputs {
    /// The dice, difficulty, threshold and specialties asked for.
    pub request: AdHocRequest,
}

/// `inputs` of `/st willpower`.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(default)]
pub struct WillpowerInputs {
    /// The difficulty, threshold and modifiers asked for.
    pub request: WillpowerRequest,
    /// The character's name when rolled.
    pub character: String,
}

/// `inputs` of `/st rest`: a day of active rest.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(default)]
pub struct RestInputs {
    /// The character's name.
    pub character: String,
    /// Current willpower before the day.
    pub willpower_at_start: u8,
}

/// `inputs` of a willpower choice's click (Spend willpower, Keep, Void).
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(default)]
pub struct ChoiceInputs {
    /// The button's word (`spend`, `keep`, `void`).
    pub button: String,
    /// Pressed by the storyteller.
    pub fc: bool,
}

/// `dice` of a roll: every die as thrown.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(default)]
pub struct Dice {
    /// The pool's dice.
    pub base: Vec<u32>,
    /// Each generation of bonus dice from exploding tens.
    pub bonus: Vec<Vec<u32>>,
    /// The pool hit the dice cap.
    pub cap_hit: bool,
    /// The pool was a single chance die.
    pub chance_die: bool,
}

impl Dice {
    /// The dice of `session`'s roll.
    pub fn of(session: &RollSession) -> Self {
        let r = &session.result;
        Self {
            base: r.base.clone(),
            bonus: r.bonus.clone(),
            cap_hit: r.cap_hit,
            chance_die: r.chance_die,
        }
    }
}

/// `outcome` of a roll or a willpower choice: where the roll stands.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(default)]
pub struct RollOutcome {
    /// The result (ST-6); `None` only in a row no roll wrote.
    pub outcome: Option<Outcome>,
    /// An automatic success was bought with willpower (ST-11).
    pub automatic: bool,
    /// Where the roll stands; `None` only in a row no roll wrote.
    pub phase: Option<Phase>,
    /// Current willpower before the action, when it could change.
    pub willpower_before: Option<u8>,
    /// Current willpower after it.
    pub willpower_after: Option<u8>,
    /// What happened, for the log (spec §1.4).
    pub events: Vec<Event>,
}

impl RollOutcome {
    /// The outcome of `session` after `events`.
    pub fn of(session: &RollSession, events: &[Event]) -> Self {
        Self {
            outcome: Some(session.outcome),
            automatic: session.automatic,
            phase: Some(session.phase),
            willpower_before: session.willpower_before,
            willpower_after: session.willpower_after,
            events: events.to_vec(),
        }
    }
}

/// `outcome` of a day of rest that threw no dice (willpower already at
/// its permanent rating).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct NoRoll {
    /// Always `false`: the mark of this record.
    pub rolled: bool,
    /// What happened.
    #[serde(default)]
    pub events: Vec<Event>,
}

impl NoRoll {
    /// The record of a rest without a roll.
    pub fn new(events: &[Event]) -> Self {
        Self {
            rolled: false,
            events: events.to_vec(),
        }
    }
}

/// A log row's `outcome`, as the Storyteller wrote it.
#[derive(Debug, Clone, PartialEq)]
pub enum Written {
    /// A roll, or a choice on one.
    Roll(RollOutcome),
    /// A day of rest with no roll.
    NoRoll(NoRoll),
}

impl Written {
    /// Reads an `outcome` column; `None` for one no Storyteller roll wrote.
    pub fn read(outcome: &str) -> Option<Self> {
        if let Ok(n) = serde_json::from_str::<NoRoll>(outcome) {
            if !n.rolled {
                return Some(Written::NoRoll(n));
            }
        }
        let o: RollOutcome = serde_json::from_str(outcome).ok()?;
        o.outcome.is_some().then_some(Written::Roll(o))
    }
}

/// `inputs` of an action that takes none (written as `{}`).
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct Empty {}

/// `outcome` of a change that only records its events (`turn`,
/// `recover`, `revive`, `ignore_wounds`, …).
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(default)]
pub struct Events {
    /// What happened.
    pub events: Vec<Event>,
}

/// `outcome` of a sheet edit: what it did, in words (the shared `/history`
/// summary shows it).
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(default)]
pub struct Edited {
    /// The edit in words.
    pub text: String,
}

/// `inputs` of `sheet_create`.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(default)]
pub struct Created {
    /// The character's name.
    pub name: String,
    /// Starting willpower.
    pub willpower: u8,
    /// The owning member.
    pub owner: i64,
}

/// `outcome` of `sheet_create`: the new sheet.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct NewSheet {
    /// The sheet as created.
    pub sheet: StorytellerSheet,
}

/// `inputs` of `sheet_set`: a trait's dots.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(default)]
pub struct TraitSet {
    /// The trait, as typed.
    #[serde(rename = "trait")]
    pub name: String,
    /// Its new dots.
    pub dots: u8,
}

/// `inputs` of `sheet_traits`: a list of traits set at once.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(default)]
pub struct TraitsSet {
    /// The list, as typed (`Wits 3, Alertness 2`).
    pub traits: String,
}

/// `inputs` of `sheet_specialty` and `sheet_specialty_remove`.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(default)]
pub struct SpecialtySet {
    /// The ability it belongs to.
    pub ability: String,
    /// The specialty.
    pub specialty: String,
    /// Marked advanced (or not), if said.
    pub advanced: Option<bool>,
    /// Removed rather than added.
    pub remove: bool,
}

/// `inputs` of `sheet_trait`: a custom trait.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct CustomTrait {
    /// Its name.
    pub name: String,
    /// Attribute, ability kind, …
    pub kind: TraitKind,
    /// Its dots, if set.
    #[serde(default)]
    pub dots: Option<u8>,
}

/// `inputs` of `sheet_willpower`.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(default)]
pub struct WillpowerSet {
    /// New current willpower, if given.
    pub current: Option<u8>,
    /// New permanent willpower, if given.
    pub permanent: Option<u8>,
}

/// `inputs` of `sheet_wounds`.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(default)]
pub struct WoundsSet {
    /// Dice penalty.
    pub dice: u8,
    /// Difficulty penalty.
    pub difficulty: u8,
}

/// `inputs` of `turn` for the whole table.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(default)]
pub struct EveryoneTurn {
    /// Always `true`: every character of the table.
    pub everyone: bool,
}

/// `inputs` of `recover`.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(default)]
pub struct Recovered {
    /// The first dot back for an incapacitated character (ST-13).
    pub first_dot: bool,
}

/// `inputs` of `revive`.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(default)]
pub struct Revived {
    /// The helper's character row.
    pub helper: i64,
    /// The revived character's row.
    pub target: i64,
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The columns are written exactly as before the types existed, so old
    /// and new rows read alike (the export shows the same JSON).
    #[test]
    fn records_keep_the_json_earlier_versions_wrote() {
        let inputs = PoolInputs {
            request: AdHocRequest {
                dice: 6,
                difficulty: Some(7),
                threshold: 0,
                specialties: 0,
            },
        };
        assert_eq!(
            serde_json::to_string(&inputs).unwrap(),
            r#"{"request":{"dice":6,"difficulty":7,"threshold":0,"specialties":0}}"#
        );
        let rest = RestInputs {
            character: "Ash".into(),
            willpower_at_start: 3,
        };
        assert_eq!(
            serde_json::to_string(&rest).unwrap(),
            r#"{"character":"Ash","willpower_at_start":3}"#
        );
        assert_eq!(
            serde_json::to_string(&NoRoll::new(&[])).unwrap(),
            r#"{"rolled":false,"events":[]}"#
        );
        let o = RollOutcome {
            outcome: Some(Outcome::Success { successes: 4 }),
            phase: Some(Phase::Closed),
            ..RollOutcome::default()
        };
        assert_eq!(
            serde_json::to_string(&o).unwrap(),
            r#"{"outcome":{"result":"success","successes":4},"automatic":false,"phase":"closed","willpower_before":null,"willpower_after":null,"events":[]}"#
        );
    }

    /// Rows with fewer keys (older versions) and rows of other actions
    /// read as what they are.
    #[test]
    fn older_and_other_rows_read_as_what_they_are() {
        let old =
            r#"{"outcome":{"result":"botch","botches":2},"automatic":false,"phase":"closed"}"#;
        match Written::read(old) {
            Some(Written::Roll(o)) => {
                assert_eq!(o.outcome, Some(Outcome::Botch { botches: 2 }));
                assert_eq!(o.willpower_before, None);
                assert!(o.events.is_empty());
            }
            other => panic!("{other:?}"),
        }
        assert!(matches!(
            Written::read(r#"{"rolled":false,"events":[]}"#),
            Some(Written::NoRoll(_))
        ));
        assert_eq!(Written::read(r#"{"text":"Wits 3"}"#), None);
        assert_eq!(Written::read("null"), None);
        assert_eq!(Written::read("not json"), None);
    }
}
