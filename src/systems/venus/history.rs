//! Venus's entries in `/history`: one readable line per logged action
//! (what was done and what came of it), read back from what the check,
//! task and sheet code recorded. The dice are added by the shared line;
//! anything not recognised falls back to the shared summary (`None`).

use serde_json::Value;

use crate::rules::venus::check::{CheckResult, CheckSetup, CheckSubject};
use crate::rules::venus::task::{Crit, TaskOutcome, TaskPhase};
use crate::storage::log::LogEntry;

/// The line for `e`, or `None` to leave it to the shared summary.
pub fn line(e: &LogEntry) -> Option<String> {
    let parse = |raw: &str| serde_json::from_str::<Value>(raw).ok();
    let inputs = parse(&e.inputs)?;
    let outcome = parse(&e.outcome).unwrap_or(Value::Null);
    if let Some(word) = e.action.strip_prefix("check_") {
        return Some(check_line(word, &inputs, &outcome));
    }
    if let Some(word) = e.action.strip_prefix("task_") {
        return Some(task_line(word, &outcome));
    }
    if e.action == "sheet" {
        let edit = inputs.get("edit")?.as_str()?;
        return Some(format!("edit: {}", edit.replace('_', " ")));
    }
    None
}

/// "Wits check: rolled the d20 → ✅ Pass".
fn check_line(word: &str, inputs: &Value, outcome: &Value) -> String {
    let what = inputs
        .get("setup")
        .cloned()
        .and_then(|s| serde_json::from_value::<CheckSetup>(s).ok())
        .map(|s| match s.subject {
            CheckSubject::Sheet { ability } => format!("{} check", ability.trim()),
            CheckSubject::AdHoc { name, .. } => format!("NPC check {}", name.trim()),
        })
        .unwrap_or_else(|| "check".into());
    let result = outcome
        .get("result")
        .cloned()
        .and_then(|r| serde_json::from_value::<Option<CheckResult>>(r).ok())
        .flatten();
    let done = check_word(word);
    match result {
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
fn task_line(word: &str, outcome: &Value) -> String {
    let done = task_word(word);
    let phase = outcome
        .get("phase")
        .cloned()
        .and_then(|p| serde_json::from_value::<TaskPhase>(p).ok());
    let result = outcome
        .get("outcome")
        .cloned()
        .and_then(|o| serde_json::from_value::<Option<TaskOutcome>>(o).ok())
        .flatten();
    match (phase, result) {
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

    fn entry(action: &str, inputs: &str, outcome: &str) -> LogEntry {
        LogEntry {
            id: 1,
            guild_id: 1,
            channel_id: 1,
            user_id: 1,
            character_id: None,
            session_id: Some(2),
            system: "venus".into(),
            action: action.into(),
            secret: false,
            inputs: inputs.into(),
            dice: "[]".into(),
            outcome: outcome.into(),
            created_at: 0,
        }
    }

    #[test]
    fn a_closed_task_reads_as_its_result() {
        let e = entry(
            "task_finish",
            r#"{"actions":[],"values":[]}"#,
            r#"{"events":[],"phase":"closed","outcome":{"success":false,"successes":1,"threshold":3,"declined_primary":false,"margin_percent":null,"crit":null}}"#,
        );
        assert_eq!(line(&e).unwrap(), "finished spending → ❌ Failure · 1 of 3");
        let e = entry(
            "task_kiss",
            r#"{"actions":[],"values":[]}"#,
            r#"{"phase":"kiss_declaration","outcome":null}"#,
        );
        assert_eq!(line(&e).unwrap(), "declared KISSes");
    }

    #[test]
    fn a_sheet_edit_and_unknown_entries() {
        let e = entry("sheet", r#"{"edit":"job","inputs":{}}"#, "{}");
        assert_eq!(line(&e).unwrap(), "edit: job");
        assert_eq!(line(&entry("spotlight_next", "{}", "{}")), None);
        assert_eq!(line(&entry("check_roll", "not json", "{}")), None);
    }
}
