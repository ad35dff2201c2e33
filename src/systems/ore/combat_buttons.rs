//! The combat tracker's buttons and selects as one typed enum (session kind
//! `vvc`, issue 15). The action words are in posted messages: never rename
//! them.

use crate::app::component::Action;
use crate::kit::words::{by_word, word_of};

/// The session kind of a combat tracker.
pub const KIND: &str = "vvc";

/// A button or select on a Virtual Veil combat tracker.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum CombatButton {
    /// Roll Prediction and Initiative and start round 1 (`begin`, the Compiler).
    Begin,
    /// The Called Stat picked in the Call phase (`call`, a select).
    Call,
    /// The acting combatant ends its turn (`next`).
    Next,
    /// The End phase, then the next round (`round`, the Compiler).
    NextRound,
    /// A combatant picked to react out of turn (`react`, a select).
    React,
    /// End the fight (`end`, the Compiler).
    End,
    /// The presser seats their active character (`join`, issue 31: was
    /// `/vv combat join`).
    Join,
}

/// Every button with its action word (in posted messages: never rename).
pub const WORDS: [(&str, CombatButton); 7] = [
    ("begin", CombatButton::Begin),
    ("call", CombatButton::Call),
    ("next", CombatButton::Next),
    ("round", CombatButton::NextRound),
    ("react", CombatButton::React),
    ("end", CombatButton::End),
    ("join", CombatButton::Join),
];

impl Action for CombatButton {
    fn encode(&self) -> (&'static str, Option<String>) {
        (word_of(&WORDS, self), None)
    }

    fn parse(action: &str, arg: Option<&str>) -> Option<Self> {
        match arg {
            Some(_) => None,
            None => by_word(&WORDS, action),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::app::component::ButtonId;

    #[test]
    fn every_button_round_trips_and_old_words_still_parse() {
        for (_, b) in WORDS {
            let id = ButtonId::parse(&b.button("vvc", 77, 3).encode()).unwrap();
            assert_eq!(CombatButton::parse(&id.action, id.arg.as_deref()), Some(b));
        }
        for w in ["begin", "call", "next", "round", "react", "end"] {
            assert!(CombatButton::parse(w, None).is_some(), "{w}");
        }
        assert_eq!(CombatButton::parse("next", Some("1")), None);
        assert_eq!(CombatButton::parse("close", None), None);
    }
}
