//! The Storyteller changes the house rule `player_edits` governs
//! ([`crate::systems::table::approval`]): the values the seed leaves to the
//! storyteller. Current willpower outside a roll's spend (ST-13/ST-14: lost
//! and regained as the story says), the wound penalty (A-S7: the storyteller
//! assigns it), a day's recovery and the first dot back (ST-13/ST-14), and a
//! revival (ST-13). A player's willpower spend on their own roll is never
//! governed.

use serde::{Deserialize, Serialize};

use crate::app::change::{prepare_on_copy, Change, Prepared, Trial, Whose};
use crate::app::registry::Governed;
use crate::app::view::clean;
use crate::app::{rights, App, AppError, Caller};

use super::context::{self, Outcome, Turn};
use super::sheet_view::{willpower_change, wound_text};
use super::{recovery, sheets};
use super::{HINT, SYSTEM};
use crate::app::characters::{self, Access, Pick};
use crate::rules::storyteller::sheet::Willpower;
use crate::rules::storyteller::willpower::recover;
use crate::rules::storyteller::StorytellerSheet;

/// Every governed change, in `/help` order.
pub const LIST: &[Governed] = &[
    Governed {
        what: "current willpower",
        command: "/st sheet willpower current:",
    },
    Governed {
        what: "the wound penalty",
        command: "/st sheet wounds",
    },
    Governed {
        what: "willpower recovered",
        command: "/st recover",
    },
    Governed {
        what: "a revival",
        command: "/st revive",
    },
];

pub use crate::app::characters::Who;

/// One governed Storyteller change.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "edit", rename_all = "snake_case")]
pub enum Edit {
    /// `/st sheet willpower` with `current:`.
    Willpower {
        /// Current willpower.
        current: u8,
        /// Permanent willpower, if changed too.
        permanent: Option<u8>,
        /// Whose.
        who: Who,
    },
    /// `/st sheet wounds`.
    Wounds {
        /// Dice removed.
        dice: u8,
        /// Difficulty added.
        difficulty: u8,
        /// Whose.
        who: Who,
    },
    /// `/st recover`.
    Recover {
        /// The first dot back at 0.
        first_dot: bool,
        /// Whose.
        who: Who,
    },
    /// `/st revive`.
    Revive {
        /// Who spends the willpower (default: the caller's active character).
        helper: Option<String>,
        /// Whom.
        who: Who,
    },
}

impl Edit {
    /// An example of each governed change, acting on `who` (for tests that
    /// go through the whole list).
    pub fn examples(who: Who) -> Vec<Edit> {
        vec![
            Edit::Willpower {
                current: 1,
                permanent: None,
                who: who.clone(),
            },
            Edit::Wounds {
                dice: 1,
                difficulty: 1,
                who: who.clone(),
            },
            Edit::Recover {
                first_dot: false,
                who: who.clone(),
            },
            Edit::Revive { helper: None, who },
        ]
    }
}

impl Change for Edit {
    type Scope = context::Storyteller;

    fn governed(&self) -> Governed {
        LIST[match self {
            Edit::Willpower { .. } => 0,
            Edit::Wounds { .. } => 1,
            Edit::Recover { .. } => 2,
            Edit::Revive { .. } => 3,
        }]
    }

    fn whose(&mut self) -> Whose<'_> {
        match self {
            Edit::Willpower { who, .. }
            | Edit::Wounds { who, .. }
            | Edit::Recover { who, .. }
            | Edit::Revive { who, .. } => who.into(),
        }
    }

    fn try_on(&mut self, t: &mut Trial<'_, context::Storyteller>) -> Result<String, AppError> {
        let w = t.before.willpower();
        let after = &mut t.after;
        Ok(match self {
            Edit::Willpower {
                current, permanent, ..
            } => {
                if let Some(p) = permanent {
                    after.set_willpower_permanent(*p)?;
                }
                after.set_willpower_current(*current)?;
                format!("willpower {}", willpower_change(w, after.willpower()))
            }
            Edit::Wounds {
                dice, difficulty, ..
            } => {
                after.set_wound_penalty(*dice, *difficulty)?;
                let was = t.before.wound_penalty();
                format!(
                    "wound penalty {} → {}",
                    wound_text(was.dice, was.difficulty),
                    wound_text(*dice, *difficulty)
                )
            }
            Edit::Recover { first_dot, .. } => {
                recover(after, *first_dot)?;
                format!(
                    "willpower {} ({})",
                    willpower_change(w, after.willpower()),
                    if *first_dot {
                        "the first dot back"
                    } else {
                        "a day's recovery"
                    }
                )
            }
            // Prepared on the helper's sheet ([`Change::prepare`] below).
            Edit::Revive { .. } => String::new(),
        })
    }

    /// A revival is prepared on the helper's sheet (the caller's own, whose
    /// willpower it spends; the revived one is anyone's, left as named),
    /// and it changes two characters, so none is offered for undo; every
    /// other change as every game's.
    async fn prepare(self, app: &App, caller: &Caller) -> Result<Prepared<Self>, AppError> {
        let Edit::Revive { helper, who } = self else {
            return prepare_on_copy(self, app, caller).await;
        };
        let mut tx = app.db.read().await?;
        let fc = rights::is_fc(&mut tx, caller).await?;
        let pick = Pick::new(helper.as_deref(), None);
        let h = characters::resolve(&mut tx, caller, fc, SYSTEM, pick, Access::Owner, HINT).await?;
        let h = context::checked(h)?;
        Ok(Prepared {
            what: revive_words(&h.row.name, &h.sheet, &who),
            change: Edit::Revive {
                helper: Some(h.row.name),
                who,
            },
            unchanged: false,
            character: None,
        })
    }

    /// The change's outcome, by the same outcome functions as the commands.
    async fn outcome(self, _app: &App, turn: &mut Turn<'_>) -> Result<Outcome, AppError> {
        Ok(match self {
            Edit::Willpower {
                current,
                permanent,
                who,
            } => sheets::willpower_set(turn, Some(current), permanent, who.pick()).await?,
            Edit::Wounds {
                dice,
                difficulty,
                who,
            } => sheets::wounds_set(turn, dice, difficulty, who.pick()).await?,
            Edit::Recover { first_dot, who } => {
                recovery::recovered(turn, who.pick(), first_dot).await?
            }
            Edit::Revive { helper, who } => {
                recovery::revived(turn, helper.as_deref(), who.pick()).await?
            }
        })
    }
}

/// What a revival does: the helper's willpower spent to revive `who`,
/// both named without markdown.
fn revive_words(helper: &str, sheet: &StorytellerSheet, who: &Who) -> String {
    let name = who.character.as_deref().map_or_else(
        || {
            who.player
                .map_or_else(String::new, |p| format!("<@{p}>'s character"))
        },
        clean,
    );
    let helper = clean(helper);
    let w = sheet.willpower();
    let spent = Willpower {
        current: w.current.saturating_sub(1),
        ..w
    };
    let change = willpower_change(w, spent);
    format!("{helper}: {helper} spends 1 willpower ({change}) to revive {name}")
}
