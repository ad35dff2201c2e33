//! Sheet changes in words ("Ada · Thief +1 exp (failed task) → 3"), with
//! runs of Lots spent or gained merged into one line; the name shows
//! without markdown (`A*d_a` reads `Ada`), a job's name as typed (its
//! markdown escaped, as an ability's).

use super::format::level_text;
use crate::app::view::{clean, escape};
use crate::rules::venus::sheet::{ExpReason, SheetEvent};

fn reason(r: ExpReason) -> &'static str {
    match r {
        ExpReason::Failure => "failed task",
        ExpReason::Learning => "learning",
        ExpReason::LearnedSomething => "learned something",
        ExpReason::AllyAid => "aid",
        ExpReason::LotOverflow => "Lot over the cap",
        ExpReason::Manual => "FC",
    }
}

/// One change in words, prefixed with the character's name (without
/// markdown).
pub fn describe(name: &str, e: &SheetEvent) -> String {
    let body = match e {
        SheetEvent::ExpAwarded {
            job,
            amount,
            reason: r,
            exp_now,
        } => format!(
            "{} +{amount} exp ({}) → {exp_now}",
            escape(job),
            reason(*r)
        ),
        SheetEvent::ExpBlocked {
            job,
            amount,
            reason: r,
        } => format!(
            "{} would earn +{amount} exp ({}) but its qualifications are unmet",
            escape(job),
            reason(*r)
        ),
        SheetEvent::LevelUp { job, from, to } => format!("{} levels up: {from} → {to} 🎉", escape(job)),
        SheetEvent::LearningFinished { job, level } => {
            format!("{} is learned: {} 🎉", escape(job), level_text(*level, false))
        }
        SheetEvent::LearningAwaitsTier { job } => format!(
            "{} has filled its learning bar: its new level is the tier minimum, so set the tier (`/ve sheet set tier:`: Historic 1, Heroic 2, Mythic 3, Deific 4) to finish learning it",
            escape(job)
        ),
        SheetEvent::JobStarted { job } => format!("starts learning {} (level 0)", escape(job)),
        SheetEvent::LotGained { lots_now } => format!("+1 Lot → {lots_now}/10"),
        SheetEvent::LotOverflowToExp { job } => {
            format!("holds 10 Lots: the extra Lot becomes exp in {}", escape(job))
        }
        SheetEvent::LotDiscarded => "holds 10 Lots: the extra Lot is lost".into(),
        SheetEvent::LotSpent { lots_now } => format!("−1 Lot → {lots_now}/10"),
        SheetEvent::LotRefunded { lots_now } => format!("Lot given back → {lots_now}/10"),
        SheetEvent::EgoGained => "gains Ego ✨".into(),
        SheetEvent::EgoSpent => "spends Ego".into(),
        SheetEvent::EgoRefunded => "Ego given back ✨".into(),
    };
    format!("{} · {body}", clean(name))
}

/// Lines for a sequence of changes, merging runs of Lots spent, gained or
/// refunded by the same character ("−2 Lots → 5/10").
pub fn lines(events: &[(String, SheetEvent)]) -> Vec<String> {
    let mut out = Vec::new();
    let mut i = 0;
    while i < events.len() {
        let (name, e) = &events[i];
        let kind = |e: &SheetEvent| match e {
            SheetEvent::LotSpent { .. } => Some(('−', "Lots")),
            SheetEvent::LotGained { .. } => Some(('+', "Lots")),
            _ => None,
        };
        let lots = |e: &SheetEvent| match e {
            SheetEvent::LotSpent { lots_now } | SheetEvent::LotGained { lots_now } => *lots_now,
            _ => 0,
        };
        if let Some((sign, word)) = kind(e) {
            let mut j = i + 1;
            while j < events.len() && events[j].0 == *name && kind(&events[j].1) == kind(e) {
                j += 1;
            }
            let n = j - i;
            if n > 1 {
                out.push(format!(
                    "{} · {sign}{n} {word} → {}/10",
                    clean(name),
                    lots(&events[j - 1].1)
                ));
                i = j;
                continue;
            }
        }
        out.push(describe(name, e));
        i += 1;
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn changes_read_as_sentences_and_lot_runs_merge() {
        let ev = vec![
            ("Ada".to_string(), SheetEvent::LotSpent { lots_now: 6 }),
            ("Ada".to_string(), SheetEvent::LotSpent { lots_now: 5 }),
            (
                "Ada".to_string(),
                SheetEvent::ExpAwarded {
                    job: "Thief".into(),
                    amount: 1,
                    reason: ExpReason::Failure,
                    exp_now: 3,
                },
            ),
            (
                "Bo".to_string(),
                SheetEvent::LevelUp {
                    job: "Acrobat".into(),
                    from: 2,
                    to: 3,
                },
            ),
            ("Bo".to_string(), SheetEvent::LotGained { lots_now: 9 }),
        ];
        assert_eq!(
            lines(&ev),
            vec![
                "Ada · −2 Lots → 5/10",
                "Ada · Thief +1 exp (failed task) → 3",
                "Bo · Acrobat levels up: 2 → 3 🎉",
                "Bo · +1 Lot → 9/10",
            ]
        );
    }
}
