//! The shared look of a result, one scheme for every system: an outcome
//! that starts the title and picks the embed's colour, and dice faces
//! marked so a glance tells a hit from a miss without strike-through or
//! italics (which Discord draws too faintly, or like a dagger).
//!
//! A finished roll's title states its outcome (`✅ Success · 3 successes`,
//! `💥 Botch`, `❌ Failure · 2 of 3 beats`, `⏳ Waiting for Ada`); the
//! author line says who rolled what; the first line of the description
//! shows the dice ([`dice`], grouped by owner with [`owned`]).

use crate::app::view::colour;

/// How to read a result, once for every system (shown by `/help`; the
/// results themselves carry no legend).
pub const LEGEND: &str = "The title says how it went: ✅ success · 🟡 partial · ❌ failure · 💥 botch · ⏳ waiting for someone · 🎲 a plain result. The first line shows the dice: **6** counts · **10**★ counts and does more (explodes, critical) · 3 does not count · 1✗ counts against you · (2) not used. **⚙** opens the game master's tools for that roll, privately.";

/// What a result came to; decides the title's emoji and the colour.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Outcome {
    /// It worked.
    Success,
    /// Some of what was needed, or success at a cost.
    Partial,
    /// It did not work.
    Failure,
    /// It went badly wrong (a botch, a critical failure).
    Botch,
    /// Waiting for someone's choice.
    Pending,
    /// A result with no pass or fail (a total, a set, a list).
    Info,
    /// Closed, voided or expired.
    Closed,
}

impl Outcome {
    /// The embed colour for this outcome.
    pub fn colour(self) -> u32 {
        match self {
            Outcome::Success => colour::SUCCESS,
            Outcome::Partial => colour::PARTIAL,
            Outcome::Failure | Outcome::Botch => colour::FAILURE,
            Outcome::Pending => colour::PENDING,
            Outcome::Info => colour::NEUTRAL,
            Outcome::Closed => colour::CLOSED,
        }
    }

    /// The emoji that starts the title.
    pub fn emoji(self) -> &'static str {
        match self {
            Outcome::Success => "✅",
            Outcome::Partial => "🟡",
            Outcome::Failure => "❌",
            Outcome::Botch => "💥",
            Outcome::Pending => "⏳",
            Outcome::Info => "🎲",
            Outcome::Closed => "⏹️",
        }
    }

    /// A title stating the outcome: `✅ Success · 3 successes`.
    pub fn title(self, text: &str) -> String {
        format!("{} {text}", self.emoji())
    }
}

/// How one die counts in a result.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Mark {
    /// It counts (a success, a beat, a kept die): bold.
    Hit,
    /// It counts and does something more (a 10 that explodes, a
    /// critical): bold with a star.
    Crit,
    /// It does not count: plain.
    Miss,
    /// It counts against the roll (a 1 that cancels, a botch die).
    Bad,
    /// Not used at all (dropped, replaced, ignored): in brackets.
    Dropped,
}

/// One die's face with its mark: `**6**`, `**10**★`, `3`, `1✗`, `(2)`.
pub fn die(face: u32, mark: Mark) -> String {
    match mark {
        Mark::Hit => format!("**{face}**"),
        Mark::Crit => format!("**{face}**★"),
        Mark::Miss => face.to_string(),
        Mark::Bad => format!("{face}✗"),
        Mark::Dropped => format!("({face})"),
    }
}

/// Dice as one line, in the order given: `**6** **5** 3 1✗`. Sort before
/// calling where the order means nothing ([`sorted`]).
pub fn dice(faces: impl IntoIterator<Item = (u32, Mark)>) -> String {
    faces
        .into_iter()
        .map(|(f, m)| die(f, m))
        .collect::<Vec<_>>()
        .join(" ")
}

/// Faces sorted highest first (for pools, where order means nothing).
pub fn sorted(mut faces: Vec<(u32, Mark)>) -> Vec<(u32, Mark)> {
    faces.sort_by_key(|f| std::cmp::Reverse(f.0));
    faces
}

/// Dice lines grouped by owner: `Ada **6** 3 · Bo **5**`; a single
/// unnamed group is shown bare.
pub fn owned(groups: &[(String, String)]) -> String {
    match groups {
        [(name, line)] if name.is_empty() => line.clone(),
        _ => groups
            .iter()
            .map(|(name, line)| format!("{name} {line}"))
            .collect::<Vec<_>>()
            .join(" · "),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn dice_are_marked_without_strike_or_italics() {
        let line = dice(sorted(vec![
            (3, Mark::Miss),
            (10, Mark::Crit),
            (1, Mark::Bad),
            (7, Mark::Hit),
            (2, Mark::Dropped),
        ]));
        assert_eq!(line, "**10**★ **7** 3 (2) 1✗");
        assert!(!line.contains('~') && !line.contains('_'));
    }

    #[test]
    fn titles_and_colours_follow_the_outcome() {
        assert_eq!(
            Outcome::Success.title("Success · 3 successes"),
            "✅ Success · 3 successes"
        );
        assert_eq!(Outcome::Botch.colour(), Outcome::Failure.colour());
        assert_ne!(Outcome::Partial.colour(), Outcome::Success.colour());
        assert_eq!(
            owned(&[
                ("Ada".into(), "**6** 3".into()),
                ("Bo".into(), "**5**".into())
            ]),
            "Ada **6** 3 · Bo **5**"
        );
        assert_eq!(owned(&[(String::new(), "**6**".into())]), "**6**");
    }
}
