//! The buttons of Veracity's combat tracker (session kind `vrc`) as one
//! typed enum: roll initiative, end the turn, spend AP on the common actions,
//! flee, join the fight, and the referee's end of the fight. The action words are in messages already posted: never rename them.

use crate::app::component::Action;
use crate::app::AppError;
use crate::rules::veracity::initiative::ApAction;

/// The session kind of the combat tracker.
pub const KIND: &str = "vrc";

/// A button on the combat tracker.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum CombatButton {
    /// "Roll initiative": the party leader's Light save (`init`).
    Initiative,
    /// "End turn": the turn passes on (`end_turn`).
    EndTurn,
    /// "Attack · 4 AP" and the other priced actions (`act:attack`, …).
    Act(ApAction),
    /// "Flee": the acting combatant's Flesh save (`flee`).
    Flee,
    /// "End the fight": the referee's, behind the ⚙ (`end`).
    End,
    /// "Join the fight": the presser seats their active character among
    /// the players (`join`).
    Join,
}

/// The word of each priced action a button spends AP on.
fn act_word(a: ApAction) -> Option<&'static str> {
    Some(match a {
        ApAction::Attack => "attack",
        ApAction::RevealSecret => "reveal",
        ApAction::PickUpOrDrop => "pickup",
        ApAction::ProneOrStand => "stand",
        ApAction::DrawOrStow => "draw",
        ApAction::Other(_) => return None,
    })
}

impl CombatButton {
    /// Every button: what [`CombatButton::read`] reads back.
    pub const ALL: [CombatButton; 10] = [
        CombatButton::Initiative,
        CombatButton::EndTurn,
        CombatButton::Act(ApAction::Attack),
        CombatButton::Act(ApAction::RevealSecret),
        CombatButton::Act(ApAction::PickUpOrDrop),
        CombatButton::Act(ApAction::ProneOrStand),
        CombatButton::Act(ApAction::DrawOrStow),
        CombatButton::Flee,
        CombatButton::End,
        CombatButton::Join,
    ];

    /// Reads a clicked action word: one of [`CombatButton::ALL`], as
    /// [`Action::encode`] writes it.
    pub fn read(action: &str, arg: Option<&str>) -> Result<Self, AppError> {
        Self::ALL
            .into_iter()
            .find(|b| b.encode() == (action, arg.map(str::to_string)))
            .ok_or_else(|| Self::unknown(action))
    }

    /// The refusal for a word that is not one of the tracker's buttons.
    pub fn unknown(word: &str) -> AppError {
        AppError::user(format!("Unknown action `{word}` for this fight."))
    }
}

impl Action for CombatButton {
    fn encode(&self) -> (&'static str, Option<String>) {
        match self {
            CombatButton::Initiative => ("init", None),
            CombatButton::EndTurn => ("end_turn", None),
            CombatButton::Flee => ("flee", None),
            CombatButton::End => ("end", None),
            CombatButton::Join => ("join", None),
            CombatButton::Act(a) => ("act", act_word(*a).map(str::to_string)),
        }
    }

    fn parse(action: &str, arg: Option<&str>) -> Option<Self> {
        Self::read(action, arg).ok()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::app::component::ButtonId;

    #[test]
    fn every_button_round_trips() {
        for b in CombatButton::ALL {
            let id =
                ButtonId::parse(&b.button(super::super::combat::KIND, 36, 1).encode()).unwrap();
            assert_eq!(CombatButton::parse(&id.action, id.arg.as_deref()), Some(b));
        }
    }

    #[test]
    fn unknown_words_are_refused() {
        assert!(CombatButton::parse("act", Some("dance")).is_none());
        assert!(CombatButton::parse("act", None).is_none());
        assert!(CombatButton::parse("init", Some("x")).is_none());
        assert!(CombatButton::parse("rest_stress", None).is_none());
    }
}
