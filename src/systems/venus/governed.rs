//! The Venus Engine changes the house rule `player_edits` governs
//! ([`crate::systems::table::approval`]): Lots and Ego are Kismet the FC
//! grants and takes (the seed puts them in the FC's hands), so a player's
//! `/ve sheet set lots:` or `ego:` asks first. A job's level and exp are
//! earned in play (failures, learning, T2, level-ups at the exp bar) and
//! whether its special qualifications are met is for the table to judge,
//! so setting them by hand on a job already on the sheet asks first too
//! (adding a job at character assembly does not). Spending one's own Lots
//! or Ego on a roll, and the exp a task gives, are never governed.

use serde::{Deserialize, Serialize};

use crate::app::change::{Change, Trial, Whose};
use crate::app::characters::{self, Access, Pick};
use crate::app::registry::Governed;
use crate::app::view::clean;
use crate::app::{rights, App, AppError, AppResult, Caller};
use crate::rules::venus::VenusSheet;

use super::context::{Outcome, Turn};
use super::sheets::{self, JobEdits, SetEdits};
use super::{HINT, SYSTEM};

/// Every governed change, in `/help` order.
pub const LIST: &[Governed] = &[
    Governed {
        what: "Kismet: Lots and Ego",
        command: "/ve sheet set lots: ego:",
    },
    Governed {
        what: "a job's level, exp or qualifications, set by hand",
        command: "/ve sheet job level: exp: qualified:",
    },
];

/// One governed Venus Engine change.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "edit", rename_all = "snake_case")]
pub enum Edit {
    /// `/ve sheet set` with `lots:` and/or `ego:`.
    Kismet {
        /// New Lots.
        lots: Option<u32>,
        /// Ego held.
        ego: Option<bool>,
        /// A character name.
        character: Option<String>,
        /// A member.
        player: Option<i64>,
    },
    /// `/ve sheet job` changing the level, exp or qualifications of a job
    /// already on the sheet.
    Job {
        /// The job.
        name: String,
        /// Its new level, exp and qualifications (and inherited
        /// abilities: not governed, carried along), stored beside `name`.
        #[serde(flatten)]
        edits: JobEdits,
        /// A character name.
        character: Option<String>,
        /// A member.
        player: Option<i64>,
    },
}

/// The words of a change's parts (`(changed, "level 1 → 3")`): the ones
/// that change something, or all of them when none does (what the
/// refusal of a change that changes nothing names).
fn changes(parts: Vec<(bool, String)>) -> String {
    let any = parts.iter().any(|(changed, _)| *changed);
    let shown: Vec<String> = parts
        .into_iter()
        .filter(|(changed, _)| *changed || !any)
        .map(|(_, words)| words)
        .collect();
    shown.join(", ")
}

/// `/ve sheet job`: adding a job (character assembly) or changing only what
/// it inherits goes straight through; changing the level, exp or
/// qualifications of a job already on the sheet is governed.
pub async fn job(
    app: &App,
    caller: &Caller,
    name: &str,
    edits: JobEdits,
    character: Option<String>,
    player: Option<i64>,
) -> AppResult {
    let pick = Pick::new(character.as_deref(), player);
    let hand_set = edits.level.is_some() || edits.exp.is_some() || edits.qualified.is_some();
    let exists = if hand_set {
        picked(app, caller, pick).await?.sheet.job(name).is_some()
    } else {
        false
    };
    if !exists {
        return sheets::job(app, caller, name, edits, pick).await;
    }
    let edit = Edit::Job {
        name: name.trim().to_string(),
        edits,
        character,
        player,
    };
    crate::systems::table::approval::govern(app, caller, edit).await
}

/// The character `pick` names, as the caller may edit it (read only).
async fn picked(
    app: &App,
    caller: &Caller,
    pick: Pick<'_>,
) -> Result<characters::Loaded<VenusSheet>, AppError> {
    let mut tx = app.db.read().await?;
    let fc = rights::is_fc(&mut tx, caller).await?;
    characters::resolve(&mut tx, caller, fc, SYSTEM, pick, Access::Owner, HINT).await
}

impl Edit {
    /// An example of each governed change, on the caller's active character.
    /// (The job example names a Thief: the character must have one.)
    pub fn examples() -> Vec<Edit> {
        vec![
            Edit::Kismet {
                lots: Some(1),
                ego: Some(true),
                character: None,
                player: None,
            },
            Edit::Job {
                name: "Thief".into(),
                edits: JobEdits {
                    level: Some(2),
                    exp: Some(1),
                    qualified: Some(true),
                    ..JobEdits::default()
                },
                character: None,
                player: None,
            },
        ]
    }
}

impl Change for Edit {
    type Scope = super::context::Venus;

    fn governed(&self) -> Governed {
        LIST[match self {
            Edit::Kismet { .. } => 0,
            Edit::Job { .. } => 1,
        }]
    }

    fn whose(&mut self) -> Whose<'_> {
        match self {
            Edit::Kismet {
                character, player, ..
            }
            | Edit::Job {
                character, player, ..
            } => Whose { character, player },
        }
    }

    fn try_on(&mut self, t: &mut Trial<'_, super::context::Venus>) -> Result<String, AppError> {
        let (before, after) = (t.before, &mut t.after);
        let mut parts = Vec::new();
        match self {
            Edit::Kismet { lots, ego, .. } => {
                if let Some(l) = *lots {
                    after.set_lots(l)?;
                    parts.push((l != before.lots, format!("Lots {} → {l}", before.lots)));
                }
                if let Some(e) = *ego {
                    after.ego = e;
                    let yn = |b: bool| if b { "held" } else { "none" };
                    parts.push((
                        e != before.ego,
                        format!("Ego {} → {}", yn(before.ego), yn(e)),
                    ));
                }
                Ok(changes(parts))
            }
            Edit::Job { name, edits, .. } => {
                let j = before.job(name).ok_or_else(|| before.no_job(name))?;
                let key = before.job_key(name).unwrap_or(name).to_string();
                if let Some(l) = edits.level {
                    after.set_job_level(&key, l)?;
                    parts.push((l != j.level, format!("level {} → {l}", j.level)));
                }
                if let Some(x) = edits.exp {
                    after.set_job_exp(&key, x)?;
                    parts.push((x != j.exp, format!("exp {} → {x}", j.exp)));
                }
                if let Some(q) = edits.qualified {
                    after.set_qualifications_met(&key, q)?;
                    let yn = |b: bool| if b { "met" } else { "not met" };
                    let was = yn(j.qualifications_met);
                    let changed = q != j.qualifications_met;
                    parts.push((changed, format!("qualifications {was} → {}", yn(q))));
                }
                // What it inherits is carried along, never compared.
                if let Some(i) = &edits.inherits {
                    t.unchanged = Some(false);
                    parts.push((true, format!("inherits {}", clean(i))));
                }
                let what = format!("{key}: {}", changes(parts));
                *name = key;
                Ok(what)
            }
        }
    }

    /// The change's outcome in `turn`, by the same outcome functions as
    /// the commands (`/ve sheet set`, `/ve sheet job`).
    async fn outcome(self, _app: &App, turn: &mut Turn<'_>) -> Result<Outcome, AppError> {
        match self {
            Edit::Kismet {
                lots,
                ego,
                character,
                player,
            } => {
                let edits = SetEdits {
                    lots,
                    ego,
                    ..SetEdits::default()
                };
                let pick = Pick::new(character.as_deref(), player);
                sheets::set_edited(turn, edits, pick).await
            }
            Edit::Job {
                name,
                edits,
                character,
                player,
            } => {
                let pick = Pick::new(character.as_deref(), player);
                sheets::job_edited(turn, &name, edits, pick).await
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A governed job edit is stored as it always was: its edits beside
    /// the job's name, so approvals asked before still read.
    #[test]
    fn a_job_edit_keeps_its_stored_shape() {
        let stored = serde_json::json!({
            "edit": "job", "name": "Thief", "inherits": null, "level": 2,
            "exp": 1, "qualified": true, "character": null, "player": 7
        });
        let edit: Edit = serde_json::from_value(stored.clone()).unwrap();
        let Edit::Job { edits, player, .. } = &edit else {
            panic!("not a job edit: {edit:?}");
        };
        assert_eq!(
            (edits.level, edits.exp, *player),
            (Some(2), Some(1), Some(7))
        );
        assert_eq!(serde_json::to_value(&edit).unwrap(), stored);
    }
}
