//! What a Venus session keeps between clicks (stored as JSON in the
//! `sessions` table, so a roll survives a restart): a check, a task, or a
//! sheet-deletion confirmation.

use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;

use crate::rules::venus::check::{CheckSetup, CheckState, FactorKind};
use crate::rules::venus::{Edition, TaskSetup, TaskState};

/// A member taking part in a roll and the character they play in it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Who {
    /// The Discord user id (the participant id in the rules core).
    pub user: i64,
    /// The character row, `None` for an ad-hoc NPC.
    pub character: Option<i64>,
    /// The character's name (or the NPC's), as typed: for labels, menus,
    /// footers and embed authors, which Discord shows as plain text.
    pub name: String,
}

impl Who {
    /// The name for prose, without markdown: `A*d_a` reads `Ada`.
    pub fn shown(&self) -> String {
        crate::app::view::clean(&self.name)
    }
}

/// One Venus session.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum VeState {
    /// A d20 check.
    Check(Box<CheckSession>),
    /// A dice-pool task.
    Task(Box<TaskSession>),
    /// "Really delete this character?"
    Delete(DeleteSession),
}

/// A check: set up, then rolled, then (maybe) bonus factors.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct CheckSession {
    /// The setup (ability, difficulty, factors, consequence).
    pub setup: CheckSetup,
    /// Whose sheet is rolled.
    pub roller: Who,
    /// The FC who called the roll, if the FC did.
    pub called_by: Option<i64>,
    /// The check once the d20 is thrown.
    pub check: Option<CheckState>,
    /// Cancelled or voided before the d20 was thrown: the word to show.
    pub ended_before_roll: Option<String>,
    /// Sheet changes made by this check (a Lot spent), for display.
    pub changes: Vec<String>,
    /// The last thing that happened, shown in the footer.
    pub note: Option<String>,
    /// The guild's edition when the check was called (shown before the roll).
    #[serde(default)]
    pub edition: Option<Edition>,
    /// The bonus factors the roller may pick from the menu (built from the
    /// sheet when the check falls short).
    #[serde(default)]
    pub menu: Vec<BonusOption>,
}

impl CheckSession {
    /// A check set up for `roller` (called by the FC `called_by`, if the
    /// FC called it) in `edition`, its d20 not thrown yet.
    pub fn new(setup: CheckSetup, roller: Who, called_by: Option<i64>, edition: Edition) -> Self {
        Self {
            setup,
            roller,
            called_by,
            check: None,
            ended_before_roll: None,
            changes: Vec::new(),
            note: None,
            edition: Some(edition),
            menu: Vec::new(),
        }
    }
}

/// One entry of the bonus-factor menu.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct BonusOption {
    /// The select value.
    pub value: String,
    /// The label shown.
    pub label: String,
    /// The factor's kind.
    pub kind: FactorKind,
    /// The factor's name.
    pub name: String,
    /// Its worth: 1 (edition 1: one d6), or +1/+2 (edition 2).
    pub points: u32,
}

/// One entry of the "Pay with a specialty or insight" menu.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct PayOption {
    /// The select value: `sp:<attribute>` or `in:<insight>` (cut to fit).
    pub value: String,
    /// The label shown: the attribute or insight.
    pub label: String,
    /// What it is and whose.
    pub description: String,
}

/// One aid candidate: a member whose active character could aid.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct AidCandidate {
    /// The member.
    pub user: i64,
    /// Their character's name.
    pub name: String,
    /// Eligible jobs (level ≥ 1, inheriting the ability) with their levels.
    pub jobs: Vec<(String, u32)>,
}

/// A task: the rules' state plus what the table UI needs.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct TaskSession {
    /// The setup the task was built from (kept so the FC can adjust it,
    /// or the roller change job, before the roll).
    pub setup: TaskSetup,
    /// The roller.
    pub roller: Who,
    /// Everyone who offered aid (whatever became of the offer).
    pub allies: Vec<Who>,
    /// The FC who called the roll, if the FC did.
    pub called_by: Option<i64>,
    /// The rules' state.
    pub task: TaskState,
    /// Dice picked in the KISS menu and not yet paid for, per member.
    pub drafts: BTreeMap<i64, Vec<u32>>,
    /// Who could aid (refreshed on every click before the roll).
    pub candidates: Vec<AidCandidate>,
    /// The roller's jobs that inherit the ability (name, level), for the
    /// "Use job" menu.
    pub roller_jobs: Vec<(String, u32)>,
    /// Edition 1: the task is closed and the FC may still subvert one
    /// unbought secondary consequence (narrative only).
    #[serde(default)]
    pub subversion_open: bool,
    /// Whether the roller holds Ego (to show the Ego buttons).
    #[serde(default)]
    pub roller_ego: bool,
    /// The roller's special consequences (edition 1), for the spending menu.
    #[serde(default)]
    pub customs: Vec<String>,
    /// Edition 1: the roller's jobs that could take the exp of a T3 Lot
    /// bought while holding 10 Lots (the job used first); empty when no
    /// Lot would overflow into exp.
    #[serde(default)]
    pub overflow_jobs: Vec<String>,
    /// The page of the KISS dice menu shown (pools of more than 25 dice).
    #[serde(default)]
    pub kiss_page: usize,
    /// The "Pay with a specialty or insight" menu: the unused attributes
    /// and insights of whoever has dice picked and not yet paid for
    /// (rebuilt from the sheets on every click of the KISS round).
    #[serde(default)]
    pub pay_menu: Vec<PayOption>,
    /// The page of that menu shown (more than 25 attributes and insights).
    #[serde(default)]
    pub pay_page: usize,
    /// Each participant's unused attributes and insights that could pay
    /// for a KISS (values `sp:<attribute>` and `in:<insight>`), for the
    /// "KISS" menu (rebuilt from the sheets on every click of the round).
    #[serde(default)]
    pub kiss_names: BTreeMap<i64, Vec<PayOption>>,
    /// P(reaching the threshold), computed just before the dice were thrown.
    pub odds_before: Option<f64>,
    /// Every sheet change of the task, as lines to show.
    pub changes: Vec<String>,
    /// The last thing that happened, shown in the footer.
    pub note: Option<String>,
}

impl TaskSession {
    /// A task set up for `roller` (called by the FC `called_by`, if the FC
    /// called it), open for aid offers, its menus not drawn yet.
    pub fn new(setup: TaskSetup, roller: Who, called_by: Option<i64>, task: TaskState) -> Self {
        Self {
            setup,
            roller,
            allies: Vec::new(),
            called_by,
            task,
            drafts: BTreeMap::new(),
            candidates: Vec::new(),
            roller_jobs: Vec::new(),
            subversion_open: false,
            roller_ego: false,
            customs: Vec::new(),
            overflow_jobs: Vec::new(),
            kiss_page: 0,
            pay_menu: Vec::new(),
            pay_page: 0,
            kiss_names: BTreeMap::new(),
            odds_before: None,
            changes: Vec::new(),
            note: None,
        }
    }

    /// The roller and everyone who offered aid.
    pub fn whos(&self) -> Vec<&Who> {
        let mut v = vec![&self.roller];
        v.extend(self.allies.iter());
        v
    }

    /// The participant record of `user` (roller or ally).
    pub fn who(&self, user: i64) -> Option<&Who> {
        if self.roller.user == user {
            return Some(&self.roller);
        }
        self.allies.iter().find(|w| w.user == user)
    }

    /// The name of participant `user` as typed, for labels, menus and
    /// footers (Discord shows them as plain text).
    pub fn name_of(&self, user: i64) -> String {
        self.who(user)
            .map(|w| w.name.clone())
            .unwrap_or_else(|| format!("<@{user}>"))
    }

    /// The name of participant `user` for prose, without markdown
    /// ([`Who::shown`]).
    pub fn shown_of(&self, user: i64) -> String {
        self.who(user)
            .map(Who::shown)
            .unwrap_or_else(|| format!("<@{user}>"))
    }
}

/// A pending deletion of a character.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct DeleteSession {
    /// The character row.
    pub character: i64,
    /// Its name.
    pub name: String,
    /// Its owner.
    pub owner: i64,
    /// `Some(true)` once deleted, `Some(false)` once kept.
    pub done: Option<bool>,
}
