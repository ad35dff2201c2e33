//! What Storyteller's sessions keep: a roll's, shared by the actions that
//! make and change rolls ([`super::rolls`], [`super::decide`]) and the view
//! that draws them ([`super::roll_view`]); a sheet card's
//! ([`super::sheets`]), which also tells the action pipeline which
//! character a posted card shows.

use serde::{Deserialize, Serialize};

use crate::rules::storyteller::{Outcome3, RollSession};

/// What a roll's session keeps: who rolled what, the rules core's session
/// (dice, outcome, willpower choice) and the odds computed before rolling.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct RollState {
    /// The caller's display name.
    pub roller: String,
    /// The character rolled for, if any.
    pub character_id: Option<i64>,
    /// Its name.
    pub character: Option<String>,
    /// What was rolled, e.g. `Wits + Alertness` or `7 dice`.
    pub label: String,
    /// The rules core's session.
    pub session: RollSession,
    /// Chances computed from the fixed parameters, before the dice.
    pub odds: Outcome3,
    /// What happened before the dice (willpower spent on wounds, a day's
    /// recovery), one line each.
    #[serde(default)]
    pub before: Vec<String>,
}

impl RollState {
    /// The character's name, else the roller's.
    pub fn who(&self) -> &str {
        self.character.as_deref().unwrap_or(&self.roller)
    }
}

/// What a sheet card's session keeps.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct CardState {
    /// The character shown.
    pub character_id: i64,
}
