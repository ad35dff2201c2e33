//! The Venus Engine's roll-log records, typed: what each action writes in
//! the log's `inputs`, `dice` and `outcome` columns is one serde type, and
//! `/history` reads the same types back ([`super::history`]), so a renamed
//! field is a compile error, not a silently empty line.
//!
//! The JSON is the one earlier versions wrote, key for key. What a reader
//! needs of an older row reads leniently ([`lenient`]): a field whose
//! shape changed since reads as its default instead of losing the row.

use serde::{Deserialize, Deserializer, Serialize};

use crate::rules::venus::check::{CheckEvent, CheckResult, CheckSetup};
use crate::rules::venus::sheet::Tier;
use crate::rules::venus::task::{TaskAction, TaskEvent, TaskOutcome, TaskPhase};
use crate::rules::venus::{Rank, VenusSettings};

/// Reads a field as `T`, or as `T`'s default when the row holds a shape
/// this version no longer reads (an older or damaged row).
pub fn lenient<'de, D, T>(d: D) -> Result<T, D::Error>
where
    D: Deserializer<'de>,
    T: serde::de::DeserializeOwned + Default,
{
    let v = serde_json::Value::deserialize(d)?;
    Ok(serde_json::from_value(v).unwrap_or_default())
}

/// `inputs` of a sheet edit (action `sheet`): which edit, and what it was
/// given (`{"edit": "job", "inputs": {…}}`). Every field reads as its
/// default when a row lacks it, so any row of a known edit reads.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(tag = "edit", content = "inputs", rename_all = "snake_case")]
pub enum SheetEdit {
    /// `/ve sheet create`.
    Create {
        /// The character's name.
        #[serde(default)]
        name: String,
        /// The abilities given at once, as typed.
        #[serde(default)]
        abilities: Option<String>,
    },
    /// `/ve sheet ability`.
    Ability {
        /// The ability, as typed.
        #[serde(default)]
        name: String,
        /// Its rank (always written; `None` only in a row without it).
        #[serde(default)]
        rank: Option<Rank>,
        /// Its score.
        #[serde(default)]
        score: u32,
    },
    /// `/ve sheet job`.
    Job {
        /// The job, as typed.
        #[serde(default)]
        name: String,
        /// What it was given, as typed (beside `name`).
        #[serde(flatten)]
        edits: JobEdits,
    },
    /// `/ve sheet set`.
    Set {
        /// The tier (`null`: unchanged or cleared), Lots and Ego.
        #[serde(flatten)]
        edits: SetEdits,
        /// A new name: old records only (`/ve sheet set` lost its
        /// `rename` to the shared `/ve sheet rename`), `null` now.
        #[serde(default)]
        rename: Option<String>,
    },
    /// `/ve sheet note`.
    Note {
        /// What the note adds to (`Insight`, `Attribute(Traits)`, …).
        #[serde(default)]
        kind: String,
        /// The note.
        #[serde(default)]
        text: String,
    },
    /// `/ve sheet remove`.
    Remove {
        /// What is removed (`Ability`, `Job`, `Note(Insight)`, …).
        #[serde(default)]
        kind: String,
        /// Its name, number or text.
        #[serde(default)]
        name: String,
    },
}

/// The edits of `/ve sheet job`, as the command, a governed change
/// ([`super::governed::Edit::Job`]) and the log keep them.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct JobEdits {
    /// Inherited abilities, comma-separated.
    pub inherits: Option<String>,
    /// Level (0 = learning).
    pub level: Option<u32>,
    /// Exp.
    pub exp: Option<u32>,
    /// Qualifications met.
    pub qualified: Option<bool>,
}

/// The edits of `/ve sheet set`, as the command and the log keep them.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct SetEdits {
    /// `Some(None)` clears the tier.
    pub tier: Option<Option<Tier>>,
    /// New Lots, 0..=10.
    pub lots: Option<u32>,
    /// Ego held.
    pub ego: Option<bool>,
}

impl SheetEdit {
    /// The edit's word (`create`, `job`, …), as `/history` names it.
    pub fn word(&self) -> &'static str {
        match self {
            SheetEdit::Create { .. } => "create",
            SheetEdit::Ability { .. } => "ability",
            SheetEdit::Job { .. } => "job",
            SheetEdit::Set { .. } => "set",
            SheetEdit::Note { .. } => "note",
            SheetEdit::Remove { .. } => "remove",
        }
    }
}

/// `inputs` of `settings` (`/ve-gm fc edition`).
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(default)]
pub struct SettingInputs {
    /// The setting.
    pub name: String,
    /// Its value, as given.
    pub value: String,
}

/// `outcome` of `settings`: the guild's Venus settings before and after.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(default)]
pub struct SettingsChanged {
    /// Before the change.
    pub before: VenusSettings,
    /// After it.
    pub after: VenusSettings,
}

/// `inputs` of `grant` and `take` (`/ve-gm fc grant`, `/ve-gm fc take`); their
/// `outcome` is the sheet's events
/// ([`SheetEvent`](crate::rules::venus::sheet::SheetEvent)s).
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(default)]
pub struct Kismet {
    /// Why, as the FC said.
    pub reason: Option<String>,
}

/// `outcome` of `session` (`/ve-gm fc session`).
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(default)]
pub struct SessionReset {
    /// How many sheets had Lots earned this session to clear.
    pub sheets_reset: u32,
}

/// `inputs` of `spotlight_<action>`.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(default)]
pub struct SpotlightInputs {
    /// The action's word (`start`, `join`, `pass`, …).
    pub action: String,
}

/// `outcome` of `spotlight_<action>`: where the spotlight stands.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(default)]
pub struct SpotlightAt {
    /// The scene number (0 before the first).
    pub scene: u32,
    /// The round within the scene.
    pub round: u32,
    /// The seat whose turn it is, by name.
    pub turn: Option<String>,
}

/// `inputs` of `check_<action>`: the check as set up.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(default)]
pub struct CheckInputs {
    /// The setup (`None` only in a row this version cannot read).
    #[serde(deserialize_with = "lenient")]
    pub setup: Option<CheckSetup>,
}

/// `dice` of a check once thrown (`null` before).
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(default)]
pub struct CheckDice {
    /// The natural d20.
    pub d20: u32,
    /// The bonus dice (edition 1's best-of-d6).
    pub bonus_dice: Vec<u32>,
}

/// `outcome` of `check_<action>`.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(default)]
pub struct CheckOutcome {
    /// What happened.
    #[serde(deserialize_with = "lenient")]
    pub events: Vec<CheckEvent>,
    /// The check's result once it has one.
    #[serde(deserialize_with = "lenient")]
    pub result: Option<CheckResult>,
}

/// `inputs` of `task_<action>`: the rules actions a click or command made,
/// and the values picked in a menu.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(default)]
pub struct TaskInputs {
    /// The actions applied.
    #[serde(deserialize_with = "lenient")]
    pub actions: Vec<TaskAction>,
    /// The values picked (empty for a button).
    pub values: Vec<String>,
}

/// `inputs` of `task_ally` (`/ve-gm fc ally`): the actions only.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(default)]
pub struct TaskActions {
    /// The actions applied.
    #[serde(deserialize_with = "lenient")]
    pub actions: Vec<TaskAction>,
}

/// `outcome` of `task_ally`: the events only.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(default)]
pub struct TaskEvents {
    /// What happened.
    #[serde(deserialize_with = "lenient")]
    pub events: Vec<TaskEvent>,
}

/// `outcome` of `task_<action>`: what happened and where the task stands.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(default)]
pub struct TaskOutcomeRecord {
    /// What happened.
    #[serde(deserialize_with = "lenient")]
    pub events: Vec<TaskEvent>,
    /// The task's phase after it (`None` only in a row this version cannot
    /// read).
    #[serde(deserialize_with = "lenient")]
    pub phase: Option<TaskPhase>,
    /// The task's outcome once it closed.
    #[serde(deserialize_with = "lenient")]
    pub outcome: Option<TaskOutcome>,
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The columns are written exactly as before the types existed.
    #[test]
    fn records_keep_the_json_earlier_versions_wrote() {
        let job = SheetEdit::Job {
            name: "Thief".into(),
            edits: JobEdits {
                level: Some(2),
                qualified: Some(true),
                ..JobEdits::default()
            },
        };
        assert_eq!(
            serde_json::to_string(&job).unwrap(),
            r#"{"edit":"job","inputs":{"name":"Thief","inherits":null,"level":2,"exp":null,"qualified":true}}"#
        );
        let set = SheetEdit::Set {
            edits: SetEdits {
                tier: Some(None),
                lots: Some(3),
                ego: None,
            },
            rename: None,
        };
        assert_eq!(
            serde_json::to_string(&set).unwrap(),
            r#"{"edit":"set","inputs":{"tier":null,"lots":3,"ego":null,"rename":null}}"#
        );
        let at = SpotlightAt {
            scene: 1,
            round: 2,
            turn: Some("Ash".into()),
        };
        assert_eq!(
            serde_json::to_string(&at).unwrap(),
            r#"{"scene":1,"round":2,"turn":"Ash"}"#
        );
        assert_eq!(
            serde_json::to_string(&CheckOutcome::default()).unwrap(),
            r#"{"events":[],"result":null}"#
        );
        assert_eq!(
            serde_json::to_string(&SessionReset { sheets_reset: 2 }).unwrap(),
            r#"{"sheets_reset":2}"#
        );
    }

    /// Rows as older versions wrote them read back, and a field whose
    /// shape this version no longer knows reads as its default.
    #[test]
    fn older_rows_read_back() {
        let old = r#"{"edit":"ability","inputs":{"name":"Finesse","rank":"gold","score":45}}"#;
        let e: SheetEdit = serde_json::from_str(old).unwrap();
        assert_eq!(e.word(), "ability");
        let e: SheetEdit = serde_json::from_str(r#"{"edit":"job","inputs":{}}"#).unwrap();
        assert_eq!(e.word(), "job");
        let old = r#"{"events":[{"no_such_event":1}],"phase":"closed","outcome":null}"#;
        let o: TaskOutcomeRecord = serde_json::from_str(old).unwrap();
        assert_eq!(o.phase, Some(TaskPhase::Closed));
        assert!(o.events.is_empty());
        let o: CheckOutcome = serde_json::from_str(r#"{"result":"pass"}"#).unwrap();
        assert_eq!(o.result, Some(CheckResult::Pass));
        let i: CheckInputs = serde_json::from_str(r#"{"setup":{"odd":true}}"#).unwrap();
        assert_eq!(i.setup, None);
    }
}
