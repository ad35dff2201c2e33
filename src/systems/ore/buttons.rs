//! Virtual Veil's buttons and menus as one typed enum (one session kind,
//! `vv`, for rolls and reports). The action words and their arguments are
//! encoded and parsed side by side here, and nowhere else; they are in
//! messages already posted, so they never change.

use serde::{Deserialize, Serialize};

use crate::app::component::Action;
use crate::app::AppError;
use crate::kit::words::{by_word, word_of};
use crate::rules::ore::roll::AvailableActions;

/// Which select is open under a roll (also the argument of `pick:` and
/// `sel:`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Picker {
    /// Cache dice to add to the register.
    Cache,
    /// Register dice to load into the cache.
    Load,
    /// A die for a Minor action.
    Minor,
    /// A die and a face modifier (VV-5, issue 15): each option is one
    /// unused die and a change, "7 → 8 (+1)".
    Modify,
    /// A named Special action, when they do not fit on the first row of
    /// buttons (only `sel:special`; issue 16).
    Special,
}

/// Every picker with its word in a custom_id (`pick:<word>`,
/// `sel:<word>`).
pub const PICKERS: [(&str, Picker); 5] = [
    ("cache", Picker::Cache),
    ("load", Picker::Load),
    ("minor", Picker::Minor),
    ("modify", Picker::Modify),
    ("special", Picker::Special),
];

impl Picker {
    /// Reads a picker's word.
    pub fn parse(s: &str) -> Option<Self> {
        by_word(&PICKERS, s)
    }

    /// The picker's word in a custom_id.
    pub fn word(self) -> &'static str {
        word_of(&PICKERS, &self)
    }

    /// Whether the roll's actions `avail` leave this picker something to
    /// pick: its button shows and its open select stays. The Special select
    /// is no picker of the control row (it shows with the set buttons).
    pub fn available(self, avail: &AvailableActions) -> bool {
        match self {
            Picker::Cache => avail.add_cache,
            Picker::Load => avail.load,
            Picker::Minor => avail.minor,
            Picker::Modify => avail.modify_face,
            Picker::Special => false,
        }
    }
}

/// A button or select on a Virtual Veil message.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum VvButton {
    /// Open or close one of a roll's selects (`pick:<picker>`).
    Pick(Picker),
    /// Use a set of this height as a Basic action (`basic:<height>`).
    Basic(u32),
    /// Dice picked (or a page turned) in a roll's select (`sel:<picker>`).
    Select(Picker),
    /// The die to discard from an overflowing cache (`discard`), on a roll
    /// or a report.
    Discard,
    /// Close the register (`close`).
    Close,
    /// Use the roller's named Special action with this id (`spec:<id>`,
    /// issue 15).
    Special(u32),
    /// Split a wide set of this height: use the narrowest set the action
    /// accepts and leave the rest for a Combo or a String (`split:<height>`,
    /// `vv_allow_split_sets`, issue 15).
    Split(u32),
}

impl Action for VvButton {
    const OF: Option<&'static str> = Some("a Virtual Veil roll");

    /// Reads a clicked action word and argument on a roll, refusing the
    /// rest with the messages players have always seen.
    fn read(action: &str, arg: Option<&str>) -> Result<Self, AppError> {
        let arg = arg.unwrap_or("");
        let menu = || Picker::parse(arg).ok_or_else(|| AppError::user("Unknown menu."));
        // A set's height or a Special action's id, refused as `what` button.
        let number = |what: &str| {
            arg.parse::<u32>()
                .map_err(|_| AppError::user(format!("That {what} button is not valid.")))
        };
        Ok(match action {
            "pick" => VvButton::Pick(menu()?),
            "basic" => VvButton::Basic(number("set")?),
            "sel" => VvButton::Select(menu()?),
            "discard" => VvButton::Discard,
            "close" => VvButton::Close,
            "spec" => VvButton::Special(number("Special action")?),
            "split" => VvButton::Split(number("split")?),
            other => return Err(Self::unknown(other)),
        })
    }

    fn encode(&self) -> (&'static str, Option<String>) {
        match self {
            VvButton::Pick(p) => ("pick", Some(p.word().to_string())),
            VvButton::Basic(height) => ("basic", Some(height.to_string())),
            VvButton::Select(p) => ("sel", Some(p.word().to_string())),
            VvButton::Discard => ("discard", None),
            VvButton::Close => ("close", None),
            VvButton::Special(id) => ("spec", Some(id.to_string())),
            VvButton::Split(height) => ("split", Some(height.to_string())),
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

    /// One of each shape.
    fn samples() -> Vec<VvButton> {
        let mut v: Vec<VvButton> = PICKERS.map(|(_, p)| VvButton::Pick(p)).to_vec();
        v.extend(PICKERS.map(|(_, p)| VvButton::Select(p)));
        v.extend([1, 9, 10].map(VvButton::Basic));
        v.extend([VvButton::Discard, VvButton::Close]);
        v.extend([0, 7, u32::MAX].map(VvButton::Special));
        v.extend([1, 10].map(VvButton::Split));
        v
    }

    #[test]
    fn each_picker_is_available_with_its_own_action_and_special_never() {
        let one = |p: Picker| {
            let mut avail = AvailableActions::default();
            match p {
                Picker::Cache => avail.add_cache = true,
                Picker::Load => avail.load = true,
                Picker::Minor => avail.minor = true,
                Picker::Modify => avail.modify_face = true,
                Picker::Special => avail.special = true,
            }
            avail
        };
        for (_, p) in PICKERS {
            let open: Vec<Picker> = PICKERS
                .map(|(_, q)| q)
                .into_iter()
                .filter(|q| q.available(&one(p)))
                .collect();
            let expected = if p == Picker::Special {
                vec![]
            } else {
                vec![p]
            };
            assert_eq!(open, expected, "{p:?}");
        }
    }

    #[test]
    fn every_button_round_trips() {
        for b in samples() {
            let id = ButtonId::parse(&b.button(super::super::KIND, 1_000, 20).encode()).unwrap();
            assert_eq!(VvButton::parse(&id.action, id.arg.as_deref()), Some(b));
        }
    }

    #[test]
    fn words_of_buttons_already_posted_still_parse() {
        for (word, arg) in [
            ("pick", Some("cache")),
            ("pick", Some("load")),
            ("pick", Some("minor")),
            ("basic", Some("9")),
            ("sel", Some("cache")),
            ("sel", Some("load")),
            ("sel", Some("minor")),
            ("discard", None),
            ("close", None),
        ] {
            assert!(VvButton::parse(word, arg).is_some(), "{word} {arg:?}");
        }
        assert_eq!(
            VvButton::parse("basic", Some("7")),
            Some(VvButton::Basic(7))
        );
        assert!(VvButton::parse("basic", Some("x")).is_none());
        assert!(VvButton::parse("pick", Some("dice")).is_none());
        assert!(VvButton::parse("explode", None).is_none());
        assert_eq!(
            VvButton::parse("spec", Some("3")),
            Some(VvButton::Special(3))
        );
        assert!(VvButton::parse("spec", None).is_none());
        assert!(VvButton::parse("spec", Some("-1")).is_none());
        assert_eq!(
            VvButton::parse("split", Some("7")),
            Some(VvButton::Split(7))
        );
        assert_eq!(
            VvButton::parse("pick", Some("modify")),
            Some(VvButton::Pick(Picker::Modify))
        );
        assert!(VvButton::parse("split", None).is_none());
    }
}
