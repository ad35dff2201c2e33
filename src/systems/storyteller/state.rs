//! What Storyteller's sessions keep: a roll's, shared by the actions that
//! make and change rolls ([`super::rolls`], [`super::decide`]) and the view
//! that draws them ([`super::roll_view`]); a sheet card's
//! ([`super::sheets`]), which also tells the action pipeline which
//! character a posted card shows.

use serde::{Deserialize, Serialize};

use crate::rules::storyteller::{spec_odds, Outcome3, RollSession};

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
    /// A fresh roll's state: `session`, rolled by `roller` for `character`
    /// (its id and name) if any, labelled `label`, with the chances of its
    /// parameters and what happened `before` the dice.
    pub fn new(
        roller: &str,
        character: Option<(i64, &str)>,
        label: String,
        session: RollSession,
        before: Vec<String>,
    ) -> Self {
        RollState {
            roller: roller.to_string(),
            character_id: character.map(|(id, _)| id),
            character: character.map(|(_, name)| name.to_string()),
            label,
            odds: spec_odds(&session.result.spec),
            session,
            before,
        }
    }

    /// The character's name, else the roller's, as typed: for the embed
    /// author, which Discord shows as plain text.
    pub fn who(&self) -> &str {
        self.character.as_deref().unwrap_or(&self.roller)
    }

    /// [`RollState::who`] for prose, without markdown: `A*d_a` reads `Ada`.
    pub fn shown(&self) -> String {
        crate::app::view::clean(self.who())
    }
}

/// What a sheet card's session keeps.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct CardState {
    /// The character shown.
    pub character_id: i64,
}
