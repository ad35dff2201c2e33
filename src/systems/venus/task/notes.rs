//! What a task click did, in a few words for the message's footer, and the
//! dice it threw, for the fairness statistics.

use crate::rules::venus::task::{CloseKind, EgoMode, Purchase, TaskEvent, TaskState};
use crate::rules::venus::Edition;
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
    match e {
        TaskEvent::AidOffered { .. }
        | TaskEvent::AidAnswered { .. }
        | TaskEvent::AidWithdrawn { .. } => aid_note(st, e),
        TaskEvent::KissVetoed { .. }
        | TaskEvent::KissApproved { .. }
        | TaskEvent::KissConsent { .. }
        | TaskEvent::EgoRerollDeclared { .. }
        | TaskEvent::EgoUsed { .. }
        | TaskEvent::KissRoundEnded { .. } => kiss_note(st, e),
        TaskEvent::DiceRolled { dice } => Some(format!("{clicker} rolled {} dice", dice.len())),
        TaskEvent::EarlySuccess => Some("success on the roll".into()),
        _ => end_note(e),
    }
}

fn aid_note(st: &TaskSession, e: &TaskEvent) -> Option<String> {
    let name = |id: i64| st.name_of(id);
    match e {
        TaskEvent::AidOffered { ally, job, .. } => {
            Some(format!("{} offers aid with {job}", name(*ally)))
        }
        TaskEvent::AidAnswered { ally, accepted } => Some(format!(
            "{} {} {}'s aid",
            st.roller.name,
            if *accepted { "accepts" } else { "refuses" },
            name(*ally)
        )),
        TaskEvent::AidWithdrawn { ally } => Some(format!("{} withdraws", name(*ally))),
        _ => None,
    }
}

fn kiss_note(st: &TaskSession, e: &TaskEvent) -> Option<String> {
    let name = |id: i64| st.name_of(id);
    match e {
        TaskEvent::KissVetoed { die, .. } => Some(format!("the FC vetoed the KISS on #{die}")),
        TaskEvent::KissApproved { die } => Some(format!("the FC approved #{die}")),
        TaskEvent::KissConsent { ally, consent } => Some(format!(
            "{} {} KISSes on their die",
            name(*ally),
            if *consent {
                "allows"
            } else {
                "no longer allows"
            }
        )),
        TaskEvent::EgoRerollDeclared { declared } => Some(if *declared {
            "Ego declared: every miss will be re-rolled".into()
        } else {
            "Ego re-roll withdrawn".into()
        }),
        TaskEvent::EgoUsed { who, mode } => Some(format!(
            "{} spends Ego: {}",
            name(*who),
            match mode {
                EgoMode::RerollAll => "every miss is re-rolled",
                EgoMode::DoubleSixes => "every 6 strikes two beats",
                EgoMode::TensDouble => "every 10 counts twice",
                EgoMode::None => "nothing",
            }
        )),
        TaskEvent::KissRoundEnded { kissed } => Some(match kissed {
            0 => "no KISS".into(),
            1 => "1 die KISSed".into(),
            n => format!("{n} dice KISSed"),
        }),
        _ => None,
    }
}

fn end_note(e: &TaskEvent) -> Option<String> {
    match e {
        TaskEvent::Bought { item, .. } => Some(format!("bought {}", purchase_name(*item))),
        TaskEvent::Refunded { item, .. } => Some(format!("undid {}", purchase_name(*item))),
        TaskEvent::SpendingFinished { beats_lost } => Some(if *beats_lost == 0 {
            "spending done".into()
        } else {
            format!(
                "spending done, {beats_lost} {} lost",
                if *beats_lost == 1 { "beat" } else { "beats" }
            )
        }),
        TaskEvent::Subverted { secondary } => Some(format!("the FC subverts S{secondary}")),
        TaskEvent::SubversionSkipped => Some("no subversion".into()),
        TaskEvent::Closed { kind } => Some(
            match kind {
                CloseKind::Normal => "closed",
                CloseKind::ForceClosed => "force-closed by the FC",
                CloseKind::Voided => "voided by the FC",
            }
            .into(),
        ),
        _ => None,
    }
}

/// Every die thrown by these events, as `(sides, natural face)` for the
/// fairness statistics: first rolls, explosions and KISS re-rolls (each die
/// once, in the action that threw it).
pub fn thrown_faces(task: &TaskState, events: &[TaskEvent]) -> Vec<(u32, u32)> {
    let sides = match task.edition {
        Edition::One => 6,
        Edition::Two => 10,
    };
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
