//! What a task click did, in a few words for the message's footer, and the
//! dice it threw, for the fairness statistics.

use crate::rules::venus::task::{CloseKind, EgoMode, Purchase, TaskEvent, TaskState};
use crate::systems::venus::state::TaskSession;

/// A purchase in a few words ("the primary consequence", "S2").
pub fn purchase_name(p: Purchase) -> String {
    match p {
        Purchase::Primary => "the primary consequence".into(),
        Purchase::Custom(i) => format!("special consequence {}", i + 1),
        Purchase::Secondary(n) => format!("S{n}"),
        Purchase::Tertiary(n) => format!("T{n}"),
    }
}

/// A short account of what just happened, for the footer: the last three
/// things, KISS declarations first.
pub fn note_of(st: &TaskSession, clicker: &str, events: &[TaskEvent]) -> Option<String> {
    let mut out: Vec<String> = Vec::new();
    let mut declared = Vec::new();
    for e in events {
        if let TaskEvent::KissDeclared { kiss } = e {
            declared.push(format!("#{}", kiss.die));
        }
        out.extend(event_note(st, clicker, e));
    }
    if !declared.is_empty() {
        out.insert(
            0,
            format!("{clicker} declares KISSes on {}", declared.join(", ")),
        );
    }
    let n = out.len();
    (n > 0).then(|| out[n.saturating_sub(3)..].join("; "))
}

/// One event in a few words (`None` for those the footer leaves out).
fn event_note(st: &TaskSession, clicker: &str, e: &TaskEvent) -> Option<String> {
    let name = |id: i64| st.name_of(id);
    Some(match e {
        TaskEvent::AidOffered { ally, job, .. } => format!("{} offers aid with {job}", name(*ally)),
        TaskEvent::AidAnswered { ally, accepted } => format!(
            "{} {} {}'s aid",
            st.roller.name,
            if *accepted { "accepts" } else { "refuses" },
            name(*ally)
        ),
        TaskEvent::AidWithdrawn { ally } => format!("{} withdraws", name(*ally)),
        TaskEvent::KissVetoed { die, .. } => format!("the FC vetoed the KISS on #{die}"),
        TaskEvent::KissApproved { die } => format!("the FC approved #{die}"),
        TaskEvent::KissConsent { ally, consent } => format!(
            "{} {} KISSes on their die",
            name(*ally),
            if *consent {
                "allows"
            } else {
                "no longer allows"
            }
        ),
        TaskEvent::EgoRerollDeclared { declared: true } => {
            "Ego declared: every miss will be re-rolled".into()
        }
        TaskEvent::EgoRerollDeclared { declared: false } => "Ego re-roll withdrawn".into(),
        TaskEvent::EgoUsed { who, mode } => format!(
            "{} spends Ego: {}",
            name(*who),
            match mode {
                EgoMode::RerollAll => "every miss is re-rolled",
                EgoMode::DoubleSixes => "every 6 strikes two beats",
                EgoMode::TensDouble => "every 10 counts twice",
                EgoMode::None => "nothing",
            }
        ),
        TaskEvent::KissRoundEnded { kissed: 0 } => "no KISS".into(),
        TaskEvent::KissRoundEnded { kissed: 1 } => "1 die KISSed".into(),
        TaskEvent::KissRoundEnded { kissed } => format!("{kissed} dice KISSed"),
        TaskEvent::DiceRolled { dice } => format!("{clicker} rolled {} dice", dice.len()),
        TaskEvent::EarlySuccess => "success on the roll".into(),
        _ => return end_note(e),
    })
}

fn end_note(e: &TaskEvent) -> Option<String> {
    Some(match e {
        TaskEvent::Bought { item, .. } => format!("bought {}", purchase_name(*item)),
        TaskEvent::Refunded { item, .. } => format!("undid {}", purchase_name(*item)),
        TaskEvent::SpendingFinished { beats_lost: 0 } => "spending done".into(),
        TaskEvent::SpendingFinished { beats_lost: 1 } => "spending done, 1 beat lost".into(),
        TaskEvent::SpendingFinished { beats_lost } => {
            format!("spending done, {beats_lost} beats lost")
        }
        TaskEvent::Subverted { secondary } => format!("the FC subverts S{secondary}"),
        TaskEvent::SubversionSkipped => "no subversion".into(),
        TaskEvent::Closed { kind } => match kind {
            CloseKind::Normal => "closed",
            CloseKind::ForceClosed => "force-closed by the FC",
            CloseKind::Voided => "voided by the FC",
        }
        .into(),
        _ => return None,
    })
}

/// Every die thrown by these events, as `(sides, natural face)` for the
/// fairness statistics: first rolls, explosions and KISS re-rolls (each die
/// once, in the action that threw it).
pub fn thrown_faces(task: &TaskState, events: &[TaskEvent]) -> Vec<(u32, u32)> {
    let sides = task.sides();
    let mut out = Vec::new();
    for e in events {
        match e {
            TaskEvent::DiceRolled { dice } => out.extend(dice.iter().map(|d| (sides, d.face))),
            TaskEvent::Exploded { die, .. } => out.push((sides, die.face)),
            TaskEvent::Kissed { to, .. } => out.push((sides, *to)),
            _ => {}
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn one_beat_lost_is_singular() {
        assert_eq!(
            end_note(&TaskEvent::SpendingFinished { beats_lost: 1 }).as_deref(),
            Some("spending done, 1 beat lost")
        );
        assert_eq!(
            end_note(&TaskEvent::SpendingFinished { beats_lost: 2 }).as_deref(),
            Some("spending done, 2 beats lost")
        );
    }
}
