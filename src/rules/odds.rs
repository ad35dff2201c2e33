//! What every system's odds questions share.
//!
//! Each rules core answers its own odds questions (the ones `/odds` and
//! `kismet odds` ask) with a typed question and a typed answer:
//! [`crate::rules::venus::odds::Ve1CheckQuestion`] → `CheckOdds`,
//! [`crate::rules::storyteller::odds::StQuestion`] → `Outcome3`, … A
//! question outside the range the rules cover is refused with an
//! [`OddsError`], which names the parameter so each front end can word it
//! in its own terms (`--bonus-dice 5` for the CLI, `bonus_dice 5` for a
//! slash command).

use std::fmt;

/// A question the odds refuse: which parameter, the value given, and why.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct OddsError {
    /// The parameter at fault, spelled as the CLI does (`bonus-dice`);
    /// `None` when the value describes itself (`3 allies`).
    pub param: Option<&'static str>,
    /// The value given, as text.
    pub value: String,
    /// Why it is refused.
    pub reason: String,
}

impl OddsError {
    /// A refused parameter: `--param value: reason`.
    pub fn new(param: &'static str, value: impl fmt::Display, reason: impl Into<String>) -> Self {
        Self {
            param: Some(param),
            value: value.to_string(),
            reason: reason.into(),
        }
    }

    /// A refusal whose value says what it is: `value: reason`.
    pub fn plain(value: impl fmt::Display, reason: impl Into<String>) -> Self {
        Self {
            param: None,
            value: value.to_string(),
            reason: reason.into(),
        }
    }

    /// As `kismet odds` words it: `--target 30: edition-1 targets run …`.
    pub fn cli(&self) -> String {
        match self.param {
            Some(p) => format!("--{p} {}: {}", self.value, self.reason),
            None => format!("{}: {}", self.value, self.reason),
        }
    }

    /// As a slash command's options name it: `bonus_dice 5: at most …`.
    pub fn slash(&self) -> String {
        match self.param {
            Some(p) => format!("{} {}: {}", p.replace('-', "_"), self.value, self.reason),
            None => format!("{}: {}", self.value, self.reason),
        }
    }
}

impl fmt::Display for OddsError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.cli())
    }
}

impl std::error::Error for OddsError {}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn each_front_end_names_the_parameter_its_way() {
        let e = OddsError::new("bonus-dice", 5, "at most 4 bonus factors");
        assert_eq!(e.cli(), "--bonus-dice 5: at most 4 bonus factors");
        assert_eq!(e.slash(), "bonus_dice 5: at most 4 bonus factors");
        let e = OddsError::plain("3 allies", "edition 1 allows at most 2");
        assert_eq!(e.cli(), "3 allies: edition 1 allows at most 2");
        assert_eq!(e.slash(), e.cli());
    }
}
