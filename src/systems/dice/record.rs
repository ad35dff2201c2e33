//! The generic roller's log records: what a `/roll` (or a Reroll) was
//! asked and what came of it, as the `inputs` and `outcome` columns of its
//! log entry. Written by [`super::roll`] and the Reroll button through the
//! action pipeline and read back by the same types for `/history`
//! ([`super::view::history_line`]); the JSON is what earlier versions
//! wrote with `json!`, key for key, so their rows still read.

use serde::{Deserialize, Serialize};

use crate::rules::expr::Roll;

/// A generic roll's log inputs: the expression, in canonical notation.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Asked {
    /// The expression as thrown.
    pub expression: String,
}

/// A generic roll's logged outcome: the total (the first result's), every
/// total of a repeat, and pass/fail against a target. Fields in the order
/// `json!` wrote them (by name).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Rolled {
    /// The first result against its target, when it has one.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub pass: Option<bool>,
    /// How many results of a repeat met their target.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub passes: Option<u64>,
    /// The first result's total.
    pub total: i64,
    /// Every result's total, for a repeat (`6#4d6kh3`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub totals: Option<Vec<i64>>,
}

impl Rolled {
    /// What came of `roll`.
    pub fn of(roll: &Roll) -> Self {
        let first = roll.results.first();
        let repeat = roll.results.len() > 1;
        let pass = first.and_then(|o| o.pass);
        let passes = roll.results.iter().filter(|o| o.pass == Some(true)).count();
        Rolled {
            pass,
            passes: (pass.is_some() && repeat).then(|| u64::try_from(passes).unwrap_or(u64::MAX)),
            total: first.map_or(0, |o| o.total),
            totals: repeat.then(|| roll.results.iter().map(|o| o.total).collect()),
        }
    }

    /// The result as `/history` words it after the expression:
    /// `2d6 + 3 = 11`, `… = 13 · 4 · 20, 2 of 3 pass`.
    pub fn line(&self, expression: &str) -> String {
        let mut s = match &self.totals {
            Some(all) => {
                let totals: Vec<String> = all.iter().map(i64::to_string).collect();
                format!("{expression} = {}", totals.join(" · "))
            }
            None => format!("{expression} = {}", self.total),
        };
        match (self.passes, self.pass) {
            (Some(n), _) => {
                let of = self.totals.as_ref().map_or(0, Vec::len);
                s.push_str(&format!(", {n} of {of} pass"));
            }
            (None, Some(true)) => s.push_str(", pass"),
            (None, Some(false)) => s.push_str(", fail"),
            _ => {}
        }
        s
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::app::log::column;
    use crate::rules::expr::{self, Caps};
    use rand::SeedableRng;

    fn rolled(expression: &str) -> Rolled {
        let e = expr::parse(expression, Caps::default()).unwrap();
        Rolled::of(&e.roll(&mut rand::rngs::StdRng::seed_from_u64(7)).unwrap())
    }

    /// Rows written by earlier versions (with `json!`) read as the typed
    /// record, and today's record writes the same JSON, key for key.
    #[test]
    fn an_older_row_reads_and_the_json_is_unchanged() {
        let old = r#"{"pass":true,"passes":2,"total":13,"totals":[13,4,20]}"#;
        let r: Rolled = column(old).unwrap();
        assert_eq!(r.passes, Some(2));
        assert_eq!(serde_json::to_string(&r).unwrap(), old);
        assert_eq!(
            r.line("3#(1d20) >= 12"),
            "3#(1d20) >= 12 = 13 · 4 · 20, 2 of 3 pass"
        );
        let plain: Rolled = column(r#"{"total":9}"#).unwrap();
        assert_eq!(serde_json::to_string(&plain).unwrap(), r#"{"total":9}"#);
        let asked: Asked = column(r#"{"expression":"3d6"}"#).unwrap();
        assert_eq!(
            serde_json::to_string(&asked).unwrap(),
            r#"{"expression":"3d6"}"#
        );
        // Another kind of row is not a roll.
        assert!(column::<Asked>(r#"{"name":"gm_channel"}"#).is_none());
    }

    #[test]
    fn a_roll_records_its_totals_and_passes() {
        let one = rolled("(1d20) >= 1");
        assert_eq!(
            (one.pass, one.passes, &one.totals),
            (Some(true), None, &None)
        );
        let many = rolled("3#(1d20) >= 1");
        assert_eq!(many.passes, Some(3));
        assert_eq!(many.totals.as_ref().map(Vec::len), Some(3));
        let plain = rolled("2d6");
        assert_eq!((plain.pass, plain.passes, plain.totals), (None, None, None));
    }
}
