//! Virtual Veil's entries as `/history` shows them (issue 16): one short
//! line of words per main action (a roll, a set used, damage, a repair),
//! read back from the events the entry logged; `None` leaves the rest to
//! the shared summary.

use crate::rules::ore::sets::read;
use crate::rules::ore::OreEvent;
use crate::storage::log::LogEntry;

use super::record::RollInputs;
use super::text;
use crate::app::log::column;

/// The line for one of Virtual Veil's log entries, if it is one of the
/// main actions.
pub fn line(e: &LogEntry) -> Option<String> {
    let events: Vec<OreEvent> = serde_json::from_str(&e.outcome).ok()?;
    let inputs: RollInputs = column(&e.inputs).unwrap_or_default();
    match e.action.as_str() {
        "roll" => roll_line(&events, &inputs),
        "basic" => events.iter().find_map(|ev| match ev {
            OreEvent::BasicAction { set, label, .. } => Some(with_label(
                format!("Basic action with {}", text::set_short(set)),
                label.as_deref(),
            )),
            _ => None,
        }),
        "special" => events.iter().find_map(|ev| match ev {
            OreEvent::SpecialAction { pattern, label, .. } => Some(match label {
                Some(l) => format!("Special action {l} ({pattern})"),
                None => format!("Special action {pattern}"),
            }),
            _ => None,
        }),
        "minor" => events.iter().find_map(|ev| match ev {
            OreEvent::MinorAction { face, .. } => Some(format!("Minor action: spent a {face}")),
            _ => None,
        }),
        "damage" | "combat_damage" => damage_line(&events),
        "repair" => repair_line(&events),
        _ => None,
    }
}

/// A roll: the pool and its best set.
fn roll_line(events: &[OreEvent], inputs: &RollInputs) -> Option<String> {
    events.iter().find_map(|ev| match ev {
        OreEvent::Rolled {
            stat, pool, faces, ..
        } => {
            // The pool as the roll showed it (it says when `dice:`
            // overrode the stat), else from the event.
            let what = match (&inputs.pool, stat) {
                (Some(p), _) => p.clone(),
                (_, Some(s)) => {
                    format!("{} ({})", s.name(), text::count(*pool, "die", "dice"))
                }
                (_, None) => text::count(*pool, "die", "dice"),
            };
            let r = read(faces);
            Some(format!(
                "{what}: {} ({})",
                best_set(r.sets.first()),
                plain(&r)
            ))
        }
        _ => None,
    })
}

/// Damage: what each track took, the Fault die, Injuries, conditions.
fn damage_line(events: &[OreEvent]) -> Option<String> {
    let mut parts = Vec::new();
    for ev in events {
        match ev {
            OreEvent::DamageTaken {
                target,
                taken,
                current,
                ..
            } => parts.push(format!("{} −{taken} → {current}", target.name())),
            OreEvent::DamageAbsorbed { target, .. } => {
                parts.push(format!("{} damage stopped by the defense", target.name()))
            }
            OreEvent::FaultDie { face } => parts.push(format!("Fault die {face}")),
            OreEvent::InjuryFormed { severity, .. } => {
                parts.push(format!("Injury: {}", severity.name()))
            }
            OreEvent::Incapacitated { condition } if !condition.incapacitates() => {
                parts.push(text::condition(*condition).to_string())
            }
            OreEvent::Incapacitated { condition } => {
                parts.push(format!("incapacitated: {}", text::condition(*condition)))
            }
            _ => {}
        }
    }
    (!parts.is_empty()).then(|| parts.join(" · "))
}

/// A repair check: its target, best set and result.
fn repair_line(events: &[OreEvent]) -> Option<String> {
    events.iter().find_map(|ev| match ev {
        OreEvent::RepairCheck {
            faces,
            target_value,
            best,
            success,
            ..
        } => {
            let result = if *success { "repaired" } else { "failed" };
            Some(format!(
                "Cyber repair to {target_value}: {} ({}), {result}",
                best_set(best.as_ref()),
                plain(&read(faces))
            ))
        }
        _ => None,
    })
}

/// The best set of a roll or a check: `best set 3×4`, or `no set`.
fn best_set(best: Option<&crate::rules::ore::sets::Set>) -> String {
    match best {
        Some(b) => format!("best set {}", text::set_short(b)),
        None => "no set".to_string(),
    }
}

/// A reading without markdown, for a line of `/history`: `4 4 4 · 10 5 1`.
fn plain(r: &crate::rules::ore::sets::Reading) -> String {
    text::grouped_reading(r).replace("**", "")
}

fn with_label(s: String, label: Option<&str>) -> String {
    match label {
        Some(l) => format!("{s} — {l}"),
        None => s,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::ore::sets::Set;
    use crate::rules::ore::sheet::{Damageable, Stat};

    fn entry(action: &str, events: &[OreEvent]) -> LogEntry {
        LogEntry::sample(action, "{}", &serde_json::to_string(events).unwrap())
    }

    #[test]
    fn main_actions_read_as_one_line() {
        let roll = entry(
            "roll",
            &[OreEvent::Rolled {
                stat: Some(Stat::Wit),
                requested: 6,
                pool: 6,
                faces: vec![1, 4, 4, 10, 5, 4],
            }],
        );
        assert_eq!(
            line(&roll).unwrap(),
            "Wit (6 dice): best set 3×4 (4 4 4 · 10 5 1)"
        );
        let none = entry(
            "roll",
            &[OreEvent::Rolled {
                stat: None,
                requested: 3,
                pool: 3,
                faces: vec![9, 10, 7],
            }],
        );
        assert_eq!(line(&none).unwrap(), "3 dice: no set (10 9 7)");
        let basic = entry(
            "basic",
            &[OreEvent::BasicAction {
                action: 0,
                set: Set {
                    width: 2,
                    height: 10,
                },
                positions: vec![3, 6],
                cache_dice: 1,
                suggested_damage: None,
                label: None,
            }],
        );
        assert_eq!(line(&basic).unwrap(), "Basic action with 2×10");
        let hit = entry(
            "damage",
            &[
                OreEvent::DamageTaken {
                    target: Damageable::Vitality,
                    raw: 2,
                    defense: 0,
                    taken: 2,
                    current: 3,
                    overflow_after_zero: 0,
                },
                OreEvent::FaultDie { face: 2 },
            ],
        );
        assert_eq!(line(&hit).unwrap(), "Vitality −2 → 3 · Fault die 2");
        assert_eq!(line(&entry("boot", &[])), None);
        let mut raw = entry("roll", &[]);
        raw.outcome = "not json".into();
        assert_eq!(line(&raw), None);
    }
}
