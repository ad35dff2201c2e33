//! The spotlight tracker's buttons as one typed enum (session kind
//! [`super::spotlight_view::KIND`]). The action words are in posted buttons:
//! never rename them.

use crate::app::component::Action;

/// A button on the spotlight tracker.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum SpotlightButton {
    /// `pass`: the player whose turn it is (or the FC) passes the turn on.
    Pass,
    /// `confirm`: the FC allows a player's offer to introduce the next
    /// scene.
    Confirm,
    /// `decline`: the FC declines it.
    Decline,
    /// `join`: the clicker seats their active character.
    Join,
    /// `leave`: the clicker's characters leave the order.
    Leave,
}

impl Action for SpotlightButton {
    fn encode(&self) -> (&'static str, Option<String>) {
        (
            match self {
                Self::Pass => "pass",
                Self::Confirm => "confirm",
                Self::Decline => "decline",
                Self::Join => "join",
                Self::Leave => "leave",
            },
            None,
        )
    }

    fn parse(action: &str, arg: Option<&str>) -> Option<Self> {
        if arg.is_some() {
            return None;
        }
        Some(match action {
            "pass" => Self::Pass,
            "confirm" => Self::Confirm,
            "decline" => Self::Decline,
            "join" => Self::Join,
            "leave" => Self::Leave,
            _ => return None,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_words_stay_and_round_trip() {
        let all = [
            ("pass", SpotlightButton::Pass),
            ("confirm", SpotlightButton::Confirm),
            ("decline", SpotlightButton::Decline),
            ("join", SpotlightButton::Join),
            ("leave", SpotlightButton::Leave),
        ];
        for (word, b) in all {
            assert_eq!(b.encode(), (word, None));
            assert_eq!(SpotlightButton::parse(word, None), Some(b));
            assert_eq!(SpotlightButton::parse(word, Some("x")), None);
        }
        assert_eq!(SpotlightButton::parse("end", None), None);
    }
}
