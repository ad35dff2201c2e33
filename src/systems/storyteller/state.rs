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

    /// [`RollState::who`] for prose: the character's name without
    /// markdown (`A*d_a` reads `Ada`), the roller's display name as typed
    /// (`bo_b*` reads `bo_b*`, escaped).
    pub fn shown(&self) -> String {
        match &self.character {
            Some(c) => crate::app::view::clean(c),
            None => crate::app::view::escape(&self.roller),
        }
    }
}

/// What a sheet card's session keeps.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct CardState {
    /// The character shown.
    pub character_id: i64,
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::storyteller::pool::AdHocRequest;
    use crate::rules::storyteller::StorytellerSettings;
    use rand::{rngs::StdRng, SeedableRng};

    /// A bare pool of 3 dice rolled by `bo_b*`, for `character` if any.
    fn state(character: Option<(i64, &str)>) -> RollState {
        let req = AdHocRequest {
            dice: 3,
            difficulty: Some(6),
            threshold: 0,
            specialties: 0,
        };
        let settings = StorytellerSettings::default();
        let mut rng = StdRng::seed_from_u64(1);
        let (session, _) = RollSession::ad_hoc(7, &req, &settings, 100, &mut rng).unwrap();
        RollState::new("bo_b*", character, "3 dice".into(), session, Vec::new())
    }

    #[test]
    fn prose_shows_a_member_as_typed_and_a_character_without_markdown() {
        assert_eq!(state(None).shown(), r"bo\_b\*");
        assert_eq!(state(None).who(), "bo_b*");
        assert_eq!(state(Some((1, "A*d_a"))).shown(), "Ada");
        assert_eq!(state(Some((1, "A*d_a"))).who(), "A*d_a");
    }
}
