//! Venus's entries in `/history`: one readable line per logged action
//! (what was done and what came of it), read back from what the check,
//! task and sheet code recorded. The dice are added by the shared line;
//! anything not recognised falls back to the shared summary (`None`).

use super::record::{CheckInputs, CheckOutcome, SheetEdit, TaskOutcomeRecord};
use crate::app::log::column;
use crate::rules::venus::check::{CheckResult, CheckSubject};
use crate::rules::venus::task::{Crit, TaskPhase};
use crate::storage::log::LogEntry;

/// The line for `e`, or `None` to leave it to the shared summary.
pub fn line(e: &LogEntry) -> Option<String> {
    // A row whose inputs are not JSON at all is left to the shared summary.
    column::<serde::de::IgnoredAny>(&e.inputs)?;
    if let Some(word) = e.action.strip_prefix("check_") {
        let inputs: CheckInputs = column(&e.inputs).unwrap_or_default();
        let outcome: CheckOutcome = column(&e.outcome).unwrap_or_default();
        return Some(check_line(word, &inputs, &outcome));
    }
    if let Some(word) = e.action.strip_prefix("task_") {
        let outcome: TaskOutcomeRecord = column(&e.outcome).unwrap_or_default();
        return Some(task_line(word, &outcome));
    }
    if e.action == "sheet" {
        let edit: SheetEdit = column(&e.inputs)?;
        return Some(format!("edit: {}", edit.word()));
    }
    None
}

/// "Wits check: rolled the d20 → ✅ Pass".
fn check_line(word: &str, inputs: &CheckInputs, outcome: &CheckOutcome) -> String {
    let what = match &inputs.setup {
        Some(s) => match &s.subject {
            CheckSubject::Sheet { ability } => format!("{} check", ability.trim()),
            CheckSubject::AdHoc { name, .. } => format!("NPC check {}", name.trim()),
        },
        None => "check".into(),
    };
    let done = check_word(word);
    match outcome.result {
        Some(r) => format!("{what}: {done} → {}", check_result(r)),
        None => format!("{what}: {done}"),
    }
}

/// What a check's action word did.
fn check_word(word: &str) -> &'static str {
    match word {
        "roll" | "npc" => "rolled the d20",
        "bonus" | "named" => "claimed bonus factors",
        "clear" => "cleared the bonus factors",
        "approve" => "approved the bonus factors",
        "resolve" => "took the bonus",
        "fail" => "accepted the failure",
        "cancel" => "cancelled",
        "void" => "voided",
        "force" => "force-closed",
        _ => "acted",
    }
}

/// A check's result in words, with its outcome's emoji.
fn check_result(r: CheckResult) -> &'static str {
    match r {
        CheckResult::AutoFailNatural1 => "💥 Fail (natural 1)",
        CheckResult::AutoPass => "✅ Pass (automatic)",
        CheckResult::Pass => "✅ Pass",
        CheckResult::FailOutOfReach => "❌ Fail (out of reach)",
        CheckResult::PassWithBonus => "✅ Pass with the bonus",
        CheckResult::FailWithBonus => "❌ Fail even with the bonus",
        CheckResult::FailNoBonus => "❌ Fail",
        CheckResult::Cancelled => "cancelled",
        CheckResult::Voided => "voided",
    }
}

/// "declared KISSes" or, once it closed, "finished spending → ❌ Failure ·
/// 1 of 3" (the entry's label already says it is a task).
fn task_line(word: &str, outcome: &TaskOutcomeRecord) -> String {
    let done = task_word(word);
    match (outcome.phase, &outcome.outcome) {
        (Some(TaskPhase::Closed), Some(o)) => {
            let (emoji, what) = match (o.success, o.crit) {
                (true, Some(Crit::Success)) => ("✅", "Critical success"),
                (true, _) => ("✅", "Success"),
                (false, Some(Crit::Failure)) => ("💥", "Critical failure"),
                (false, _) => ("❌", "Failure"),
            };
            format!(
                "{done} → {emoji} {what} · {} of {}",
                o.successes, o.threshold
            )
        }
        _ => done.to_string(),
    }
}

/// What a task's action word did.
fn task_word(word: &str) -> &'static str {
    match word {
        "offer" | "aidjob" => "offered aid",
        "withdraw" => "withdrew aid",
        "accept" => "accepted aid",
        "refuse" => "refused aid",
        "usejob" => "changed job",
        "roll" => "rolled",
        "pick" | "klot" | "kstunt" | "kspec" | "kins" | "kpay" | "kiss" => "declared KISSes",
        "kclear" => "withdrew KISSes",
        "consent" => "answered a KISS consent",
        "egore" | "ego6" | "egoyes" => "spent Ego",
        "egono" => "kept Ego",
        "kroll" => "re-rolled the KISSed dice",
        "kok" => "approved KISSes",
        "kveto" => "vetoed a KISS",
        "buy" | "buyc" | "buys" => "bought consequences",
        "undo" => "refunded a purchase",
        "finish" | "lotjob" => "finished spending",
        "subvert" => "subverted a consequence",
        "nosub" => "let every consequence stand",
        "void" => "voided",
        "force" => "force-closed",
        "ally" => "set an ally's rank or magic",
        _ => "acted",
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_closed_task_reads_as_its_result() {
        let e = LogEntry::sample(
            "task_finish",
            r#"{"actions":[],"values":[]}"#,
            r#"{"events":[],"phase":"closed","outcome":{"success":false,"successes":1,"threshold":3,"declined_primary":false,"margin_percent":null,"crit":null}}"#,
        );
        assert_eq!(line(&e).unwrap(), "finished spending → ❌ Failure · 1 of 3");
        let e = LogEntry::sample(
            "task_kiss",
            r#"{"actions":[],"values":[]}"#,
            r#"{"phase":"kiss_declaration","outcome":null}"#,
        );
        assert_eq!(line(&e).unwrap(), "declared KISSes");
    }

    #[test]
    fn a_sheet_edit_and_unknown_entries() {
        let e = LogEntry::sample("sheet", r#"{"edit":"job","inputs":{}}"#, "{}");
        assert_eq!(line(&e).unwrap(), "edit: job");
        assert_eq!(line(&LogEntry::sample("spotlight_next", "{}", "{}")), None);
        assert_eq!(
            line(&LogEntry::sample("check_roll", "not json", "{}")),
            None
        );
    }

    /// A check row as older versions wrote it (here without a readable
    /// setup) still reads as its result.
    #[test]
    fn an_older_check_row_reads_as_its_result() {
        let e = LogEntry::sample("check_npc", "{}", r#"{"events":[],"result":"pass"}"#);
        assert_eq!(line(&e).unwrap(), "check: rolled the d20 → ✅ Pass");
        let e = LogEntry::sample("check_roll", r#"{"setup":7}"#, r#"{"result":"no_such"}"#);
        assert_eq!(line(&e).unwrap(), "check: rolled the d20");
    }
}
