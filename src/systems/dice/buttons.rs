//! The generic roll's buttons as one typed enum: the action words in a
//! custom_id (`roll:<session>:<version>:<word>`) are encoded and parsed side
//! by side here, and nowhere else.

use crate::app::component::Action;

/// A button on a generic roll.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum DiceButton {
    /// Throw the same expression again in place (`reroll`).
    Reroll,
}

impl DiceButton {
    /// Every button, for tests and listings.
    pub const ALL: [DiceButton; 1] = [DiceButton::Reroll];
}

impl Action for DiceButton {
    const OF: Option<&'static str> = Some("a roll");

    fn encode(&self) -> (&'static str, Option<String>) {
        match self {
            DiceButton::Reroll => ("reroll", None),
        }
    }

    fn parse(action: &str, _arg: Option<&str>) -> Option<Self> {
        (action == "reroll").then_some(DiceButton::Reroll)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_button_round_trips() {
        for b in DiceButton::ALL {
            let (word, arg) = b.encode();
            assert_eq!(DiceButton::parse(word, arg.as_deref()), Some(b));
            let id = b.button(super::super::KIND, 5, 2).encode();
            let back = crate::app::component::ButtonId::parse(&id).unwrap();
            assert_eq!(
                DiceButton::parse(&back.action, back.arg.as_deref()),
                Some(b)
            );
        }
    }

    #[test]
    fn words_of_buttons_already_posted_still_parse() {
        // Every action word the generic roll ever put in a custom_id.
        const POSTED: &[(&str, Option<&str>)] = &[("reroll", None)];
        for &(word, arg) in POSTED {
            assert!(DiceButton::parse(word, arg).is_some(), "{word}");
        }
        assert!(DiceButton::parse("explode", None).is_none());
    }
}
