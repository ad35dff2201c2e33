//! Veracity's buttons and menus as one typed enum (one session kind, `vr`):
//! a sheet's two Rest buttons and the Convention board's "Violated…" menu.
//! The action words are encoded and parsed side by side here, and nowhere
//! else; they are in messages already posted, so they never change.

use super::state::Judgement;
use crate::app::component::Action;
use crate::kit::words::{by_word, word_of};

/// A button or menu on a Veracity message.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum VrButton {
    /// A sheet's "Rest: remove a Stress" (`rest_stress`).
    RestStress,
    /// A sheet's "Rest: remove a Wound" (`rest_wound`).
    RestWound,
    /// The Convention board's "Violated a Convention…" menu (`violate`).
    Violate,
    /// The owner gives up this Flesh slot's item to a pending heart-attack
    /// Wound (`displace:N`).
    Displace(u32),
    /// The referee's judgement of a revelation: shocked and greater than
    /// the last, one slot gained (`rev_shock`); the Secrets are out, but
    /// the NPC is not shocked (`rev_flat`); not greater than the last
    /// revelation (`rev_lesser`).
    Reveal(Judgement),
}

/// Every button but Displace (which carries its slot) with its action word:
/// what [`VrButton`]'s [`Action::parse`] reads back.
pub const WORDS: [(&str, VrButton); 6] = [
    ("rest_stress", VrButton::RestStress),
    ("rest_wound", VrButton::RestWound),
    ("violate", VrButton::Violate),
    ("rev_shock", VrButton::Reveal(Judgement::Shocked)),
    ("rev_flat", VrButton::Reveal(Judgement::NotShocked)),
    ("rev_lesser", VrButton::Reveal(Judgement::NotGreater)),
];

impl Action for VrButton {
    const OF: Option<&'static str> = Some("this message");

    fn encode(&self) -> (&'static str, Option<String>) {
        match self {
            VrButton::Displace(n) => ("displace", Some(n.to_string())),
            plain => (word_of(&WORDS, plain), None),
        }
    }

    fn parse(action: &str, arg: Option<&str>) -> Option<Self> {
        if action == "displace" {
            return arg
                .and_then(|a| a.parse().ok())
                .filter(|n| (1..=crate::rules::veracity::sheet::MAX_SLOTS).contains(n))
                .map(VrButton::Displace);
        }
        // The other words take no argument: as [`Action::encode`] writes them.
        by_word(&WORDS, action)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::app::component::ButtonId;

    #[test]
    fn every_button_round_trips() {
        let all = WORDS.map(|(_, b)| b).into_iter();
        for b in all.chain([VrButton::Displace(3)]) {
            let id = ButtonId::parse(&b.button(super::super::KIND, 36, 1).encode()).unwrap();
            assert_eq!(VrButton::parse(&id.action, id.arg.as_deref()), Some(b));
        }
    }

    #[test]
    fn words_of_buttons_already_posted_still_parse() {
        for word in ["rest_stress", "rest_wound", "violate"] {
            assert!(VrButton::parse(word, None).is_some(), "{word}");
        }
        assert!(VrButton::parse("rest", None).is_none());
    }
}
