//! Storyteller's lines in `/history` ([`crate::app::registry::System::history_line`]):
//! one short line of words per roll or willpower choice, what was rolled
//! and what came of it (`Wits + Alertness → success, 4 successes`,
//! `simple failure · willpower 5 → 4`), never raw data and short enough
//! that `/history` does not cut it off.

use crate::app::log::column;
use crate::rules::storyteller::Phase;
use crate::storage::log::LogEntry;

use super::record::{PoolInputs, RollInputs, RollOutcome, Written};
use super::roll_view::outcome_words;
use super::sheet_view::count;

/// The line for one of Storyteller's log entries, or `None` for an entry
/// the shared summary reads well enough (sheet edits record their text).
pub fn line(entry: &LogEntry) -> Option<String> {
    // What was rolled and at which difficulty; the other rolls' inputs say
    // nothing worth a line.
    let (mut what, difficulty) = match entry.action.as_str() {
        "roll" => {
            let request = column::<RollInputs>(&entry.inputs)?.request;
            (request.traits.join(" + "), request.difficulty)
        }
        "pool" => {
            let request = column::<PoolInputs>(&entry.inputs)?.request;
            (count(request.dice, "die", "dice"), request.difficulty)
        }
        "willpower" | "rest" | "spend" | "keep" | "void" => (String::new(), None),
        _ => return None,
    };
    if let Some(d) = difficulty {
        what.push_str(&format!(" at {d}"));
    }
    let result = match Written::read(&entry.outcome)? {
        Written::NoRoll(_) => {
            "a day of rest, no roll: willpower at its permanent rating".to_string()
        }
        Written::Roll(o) => result(&o)?,
    };
    Some(if what.is_empty() {
        result
    } else {
        format!("{what} → {result}")
    })
}

/// What came of a roll: its outcome in words, `voided`, and a change of
/// willpower.
fn result(o: &RollOutcome) -> Option<String> {
    let mut s = if o.phase == Some(Phase::Voided) {
        "voided by the storyteller".to_string()
    } else {
        outcome_words(o.outcome?, o.automatic)
    };
    if o.phase == Some(Phase::WillpowerChoice) {
        s.push_str(", waiting for the willpower choice");
    }
    if let (Some(b), Some(a)) = (o.willpower_before, o.willpower_after) {
        if a != b {
            s.push_str(&format!(" · willpower {b} → {a}"));
        }
    }
    Some(s)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_roll_reads_as_one_short_line() {
        let e = LogEntry::sample(
            "roll",
            r#"{"request":{"traits":["Wits","Alertness"],"difficulty":null,"threshold":0}}"#,
            r#"{"outcome":{"result":"success","successes":4},"automatic":false,"phase":"closed","willpower_before":null,"willpower_after":null,"events":[]}"#,
        );
        assert_eq!(
            line(&e).as_deref(),
            Some("Wits + Alertness → success, 4 successes")
        );
        let e = LogEntry::sample(
            "spend",
            r#"{"button":"spend"}"#,
            r#"{"outcome":{"result":"success","successes":4},"automatic":true,"phase":"closed","willpower_before":5,"willpower_after":4,"events":[]}"#,
        );
        assert_eq!(
            line(&e).as_deref(),
            Some("automatic success, 4 successes · willpower 5 → 4")
        );
        let e = LogEntry::sample(
            "pool",
            r#"{"request":{"dice":6,"difficulty":7}}"#,
            r#"{"outcome":{"result":"botch","botches":2},"automatic":false,"phase":"closed"}"#,
        );
        assert_eq!(line(&e).as_deref(), Some("6 dice at 7 → botch of size 2"));
        assert_eq!(
            line(&LogEntry::sample("sheet_set", "{}", r#"{"text":"x"}"#)),
            None
        );
    }
}
