//! Veracity's entries as `/history` shows them: one readable line of what
//! came of each main action (a save's outcome and slot, the outcome of a
//! Stress, Wound, damage or level-up change, what a sheet edit did), read
//! back from the stored outcome. Raw data stays in the CSV export.

use super::record::{Created, Judged};
use super::render;
use super::state::Judgement;
use crate::app::log::column;
use crate::rules::veracity::save::SaveResult;
use crate::rules::veracity::Event;
use crate::storage::log::LogEntry;

/// The line for one logged entry, or `None` to leave it to the shared
/// summary (Conventions, the end of a scene, anything unreadable).
pub fn line(entry: &LogEntry) -> Option<String> {
    let out = match entry.action.as_str() {
        "save" | "initiative" | "flee" => save_line(&entry.outcome)?,
        "reveal_judged" => judged_line(&entry.inputs)?,
        "sheet_create" => created_line(&entry.inputs)?,
        "convention_add" | "convention_edit" | "convention_remove" | "end_scene" => return None,
        _ => events_line(&entry.outcome)?,
    };
    Some(out.replace("**", ""))
}

/// `✅ Success · Light slot 5 is empty (total 5, chance 20%)`.
fn save_line(outcome: &str) -> Option<String> {
    let r: SaveResult = column(outcome)?;
    let (o, title) = render::save_outcome(&r);
    Some(format!(
        "{} (d20 {}, chance {})",
        o.title(&title),
        r.d20,
        render::percent(r.chance)
    ))
}

/// The outcome of a sheet change (`🟡 +2 Stress · Light slots 3, 4`), or
/// what a bookkeeping change did (`➕ Light slot 1: 🤫 Secret …`).
fn events_line(outcome: &str) -> Option<String> {
    let events: Vec<Event> = column(outcome)?;
    if events.is_empty() {
        return None;
    }
    if let Some((o, title)) = render::change_outcome("the owner", &events) {
        return Some(o.title(&title));
    }
    let lines = render::event_lines(&events);
    (!lines.is_empty()).then(|| lines.join("; "))
}

/// A revelation the referee judged without a slot.
fn judged_line(inputs: &str) -> Option<String> {
    let j: Judged = column(inputs)?;
    let why = match j.judgement {
        Judgement::Shocked => "shocked",
        Judgement::NotShocked => "not shocked",
        Judgement::NotGreater => "not greater than the last",
    };
    Some(format!(
        "❌ Revelation to {}: {why} · no slot",
        j.input.target
    ))
}

/// `New sheet · Light 7, Flesh 5 · Facet Cruel`.
fn created_line(inputs: &str) -> Option<String> {
    let c: Created = column(inputs)?;
    let mut line = format!(
        "New {} · Light {}, Flesh {}",
        if c.npc { "NPC" } else { "sheet" },
        c.light,
        c.flesh
    );
    if let Some(f) = c.facet {
        line.push_str(&format!(" · Facet {f}"));
    }
    Some(line)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn stress_and_items_read_as_words() {
        let stress = serde_json::to_string(&vec![
            Event::StressAdded { slots: vec![3, 4] },
            Event::StressDiscarded { n: 1 },
        ])
        .unwrap();
        assert_eq!(
            line(&LogEntry::sample("stress", "{}", &stress)).unwrap(),
            "🟡 +2 Stress · Light slots 3, 4 · 1 discarded"
        );
        let created = r#"{"name":"Ada","light":7,"flesh":5,"facet":"Cruel","npc":false}"#;
        assert_eq!(
            line(&LogEntry::sample("sheet_create", created, "[]")).unwrap(),
            "New sheet · Light 7, Flesh 5 · Facet Cruel"
        );
        assert_eq!(line(&LogEntry::sample("end_scene", "{}", "[]")), None);
        assert_eq!(line(&LogEntry::sample("stress", "{}", "not json")), None);
    }
}
