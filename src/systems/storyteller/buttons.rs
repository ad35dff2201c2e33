//! Storyteller's buttons as typed enums, one per session kind: a willpower
//! roll's choice (`st:…:spend|keep|void`) and a sheet card's ST-12 button
//! (`st_sheet:…:ignore`). The action words are listed once per enum
//! ([`crate::kit::words`]), here and nowhere else; they are in messages
//! already posted, so they never change.

use crate::app::component::Action;
use crate::kit::words::{by_word, word_of};

/// A button on a roll waiting for the willpower choice (ST-11).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum RollButton {
    /// Spend 1 willpower for an automatic success (`spend`).
    Spend,
    /// Let the roll stand (`keep`).
    Keep,
    /// The storyteller voids the roll (`void`).
    Void,
}

impl RollButton {
    /// Every button with its action word: what [`RollButton`]'s
    /// [`Action::parse`] reads back.
    pub const WORDS: [(&str, RollButton); 3] = [
        ("spend", RollButton::Spend),
        ("keep", RollButton::Keep),
        ("void", RollButton::Void),
    ];

    /// The action word (also what the roll log records as the button).
    pub fn word(self) -> &'static str {
        word_of(&Self::WORDS, &self)
    }
}

impl Action for RollButton {
    const OF: Option<&'static str> = Some("a Storyteller roll");

    fn encode(&self) -> (&'static str, Option<String>) {
        (self.word(), None)
    }

    fn parse(action: &str, _arg: Option<&str>) -> Option<Self> {
        by_word(&Self::WORDS, action)
    }
}

/// A button on a sheet card.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum SheetButton {
    /// Spend 1 willpower so the next action ignores wounds (`ignore`, ST-12).
    Ignore,
}

impl SheetButton {
    /// Every button with its action word: what [`SheetButton`]'s
    /// [`Action::parse`] reads back.
    pub const WORDS: [(&str, SheetButton); 1] = [("ignore", SheetButton::Ignore)];

    /// The action word (also what the roll log records as the button).
    pub fn word(self) -> &'static str {
        word_of(&Self::WORDS, &self)
    }
}

impl Action for SheetButton {
    const OF: Option<&'static str> = Some("a sheet");

    fn encode(&self) -> (&'static str, Option<String>) {
        (self.word(), None)
    }

    fn parse(action: &str, _arg: Option<&str>) -> Option<Self> {
        by_word(&Self::WORDS, action)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::app::component::ButtonId;
    use crate::systems::storyteller::{KIND, SHEET_KIND};

    fn back<A: Action>(id: ButtonId) -> Option<A> {
        let id = ButtonId::parse(&id.encode())?;
        A::parse(&id.action, id.arg.as_deref())
    }

    #[test]
    fn every_button_round_trips() {
        for (_, b) in RollButton::WORDS {
            assert_eq!(back::<RollButton>(b.button(KIND, 70, 3)), Some(b));
        }
        for (_, b) in SheetButton::WORDS {
            assert_eq!(back::<SheetButton>(b.button(SHEET_KIND, 70, 3)), Some(b));
        }
    }

    #[test]
    fn words_of_buttons_already_posted_still_parse() {
        for word in ["spend", "keep", "void"] {
            assert!(RollButton::parse(word, None).is_some(), "{word}");
        }
        assert!(SheetButton::parse("ignore", None).is_some());
        assert!(RollButton::parse("ignore", None).is_none());
        assert!(SheetButton::parse("spend", None).is_none());
    }
}
