//! The buttons of Veracity's combat tracker (session kind `vrc`) as one
//! typed enum: roll initiative, end the turn, spend AP on the common actions,
//! flee, join the fight, and the referee's end of the fight. The action words are in messages already posted: never rename them.

use crate::app::component::Action;
use crate::kit::words::{by_word, word_of};
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

/// Every button without an argument, with its action word.
pub const WORDS: [(&str, CombatButton); 5] = [
    ("init", CombatButton::Initiative),
    ("end_turn", CombatButton::EndTurn),
    ("flee", CombatButton::Flee),
    ("end", CombatButton::End),
    ("join", CombatButton::Join),
];

/// The word of each priced action a button spends AP on (`act:WORD`).
pub const ACT_WORDS: [(&str, ApAction); 5] = [
    ("attack", ApAction::Attack),
    ("reveal", ApAction::RevealSecret),
    ("pickup", ApAction::PickUpOrDrop),
    ("stand", ApAction::ProneOrStand),
    ("draw", ApAction::DrawOrStow),
];

impl Action for CombatButton {
    fn encode(&self) -> (&'static str, Option<String>) {
        match self {
            CombatButton::Act(a) => {
                let word = Some(word_of(&ACT_WORDS, a)).filter(|w| !w.is_empty());
                ("act", word.map(str::to_string))
            }
            plain => (word_of(&WORDS, plain), None),
        }
    }

    /// One of [`WORDS`], or `act` with one of [`ACT_WORDS`], as
    /// [`Action::encode`] writes them (a click on anything else gets
    /// [`crate::app::component::Click::action`]'s refusal).
    fn parse(action: &str, arg: Option<&str>) -> Option<Self> {
        match (action, arg) {
            ("act", Some(a)) => by_word(&ACT_WORDS, a).map(CombatButton::Act),
            (word, None) => by_word(&WORDS, word),
            _ => None,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::app::component::ButtonId;

    #[test]
    fn every_button_round_trips() {
        let acts = ACT_WORDS.map(|(_, a)| CombatButton::Act(a));
        for b in WORDS.map(|(_, b)| b).into_iter().chain(acts) {
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
