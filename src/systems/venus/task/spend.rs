//! Spending beats (edition 1): **buy** the primary consequence (one
//! button), the "Buy consequences" menu (**buys**: S1-S4, T1-T4 and the
//! special consequences together; the older **buy:s1**… buttons and the
//! "Special consequence" menu still answer), **Undo last**, **Finish** (or,
//! when the T3 Lot passes 10, the menu choosing which job gets its exp);
//! then the FC's **Subvert** one unbought secondary consequence, or **No
//! subversion**.

use super::turn::{Step, Turn};
use crate::app::AppError;
use crate::rules::venus::sheet::same;
use crate::rules::venus::task::{Purchase, TaskAction, TaskPhase};
use crate::systems::venus::buttons::Consequence;

/// `buys`: buys every consequence picked in the "Buy consequences" menu
/// (`s1`..`t4`, special ones `c<n>`), in the menu's order; one refusal
/// buys none of them.
pub fn buy_many(t: &Turn<'_>) -> Result<Step, AppError> {
    if t.values.is_empty() {
        return Err(AppError::user("Pick something in the menu."));
    }
    let mut items: Vec<Purchase> = Vec::new();
    for v in t.values {
        let item = match v.strip_prefix('c') {
            Some(n) => n
                .parse::<usize>()
                .ok()
                .and_then(|n| n.checked_sub(1))
                .filter(|i| *i < t.st.customs.len())
                .map(Purchase::Custom),
            None => match Consequence::of_code(v) {
                Some(Consequence::Primary) | None => None,
                Some(c) => Some(c.purchase()),
            },
        }
        .ok_or_else(|| AppError::user("That consequence is not on the list."))?;
        if !items.contains(&item) {
            items.push(item);
        }
    }
    Ok(Step::rules(
        items
            .into_iter()
            .map(|item| TaskAction::Buy { actor: t.a, item })
            .collect(),
    ))
}

/// `buyc`: buys the special consequence picked in the menu (numbered from 1).
pub fn buy_custom(t: &Turn<'_>) -> Result<Step, AppError> {
    let i: usize = t
        .value()?
        .parse::<usize>()
        .ok()
        .and_then(|n| n.checked_sub(1))
        .ok_or_else(|| AppError::user("That consequence is not on the list."))?;
    Ok(Step::one(TaskAction::Buy {
        actor: t.a,
        item: Purchase::Custom(i),
    }))
}

/// `undo`: refunds the last purchase.
pub fn undo(t: &Turn<'_>) -> Result<Step, AppError> {
    let item =
        t.st.task
            .purchases
            .last()
            .map(|b| b.item)
            .ok_or_else(|| AppError::user("Nothing has been bought yet."))?;
    Ok(Step::one(TaskAction::Refund { actor: t.a, item }))
}

/// `finish`: ends the spending (the result is applied at once and the FC's
/// subversion window opens). When the T3 Lot would pass 10 and more than
/// one job could take its exp, the player chooses it in the menu instead.
pub fn finish(t: &Turn<'_>) -> Result<Step, AppError> {
    let jobs = t.st.task.overflow_jobs(&t.party.ctx);
    if jobs.len() > 1 && !t.a.gm {
        return Err(AppError::user(format!(
            "{} already holds 10 Lots, so the Lot of T3 becomes exp: choose the job in the menu “{}”.",
            t.st.roller.shown(),
            crate::systems::venus::task_view::FINISH_WITH
        )));
    }
    Ok(finishing(t, jobs.into_iter().next()))
}

/// `lotjob`: ends the spending, the exp of the T3 Lot over 10 going to the
/// job picked in the menu (A-V7: a job of the owner's choice).
pub fn finish_with(t: &Turn<'_>) -> Result<Step, AppError> {
    let job = t.value()?;
    let jobs = t.st.task.overflow_jobs(&t.party.ctx);
    let key = jobs.into_iter().find(|j| same(j, &job)).ok_or_else(|| {
        AppError::user(format!(
            "{} cannot take the exp of a Lot over 10 now: pick a job from the menu.",
            job.trim()
        ))
    })?;
    Ok(finishing(t, Some(key)))
}

/// Ends the spending, the exp of a Lot over 10 going to `overflow_job`.
fn finishing(t: &Turn<'_>, overflow_job: Option<String>) -> Step {
    Step::one(TaskAction::FinishSpending {
        actor: t.a,
        overflow_job,
    })
}

/// `subvert` (`Some(n)`) and `nosub` (`None`), FC only, while the window is
/// open: narrative only, recorded after the close (VE1-S5, A-V15; the exp
/// and Lots were applied when spending finished). A task stored before the
/// result was applied at **Finish** still rests in the rules' subversion
/// phase: the rules core's own subvert (or skip) applies the result and
/// closes it.
pub fn subvert(t: &mut Turn<'_>, secondary: Option<u8>) -> Result<Step, AppError> {
    t.fc_only("subvert a consequence")?;
    if t.st.task.phase == TaskPhase::GmSubversion {
        let actor = t.a;
        return Ok(Step::one(match secondary {
            Some(secondary) => TaskAction::Subvert { actor, secondary },
            None => TaskAction::SkipSubversion { actor },
        }));
    }
    if !t.st.subversion_open {
        return Err(AppError::user("There is no subversion to decide now."));
    }
    match secondary {
        Some(n) => {
            let bought =
                t.st.task
                    .purchases
                    .iter()
                    .any(|b| b.item == Purchase::Secondary(n));
            if bought {
                return Err(AppError::user(
                    "Only a secondary consequence the roller did not buy can be subverted.",
                ));
            }
            t.st.task.subversion = Some(n);
            t.st.note = Some(format!("the FC subverts S{n}"));
        }
        None => t.st.note = Some("the FC lets every consequence stand".into()),
    }
    t.st.subversion_open = false;
    Ok(Step::redraw())
}
