//! Spending beats (edition 1): **buy** a consequence, the "Special
//! consequence" menu, **Undo last**, **Finish**; then the FC's **Subvert**
//! one unbought secondary consequence, or **No subversion**.

use super::turn::{Step, Turn};
use crate::app::AppError;
use crate::rules::venus::task::{Purchase, TaskAction};
use crate::systems::venus::buttons::Consequence;

/// `buy`: buys the primary, a secondary or a tertiary consequence.
pub fn buy(t: &Turn<'_>, c: Consequence) -> Step {
    Step::one(TaskAction::Buy {
        actor: t.a,
        item: c.purchase(),
    })
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
    let item = t
        .st
        .task
        .purchases
        .last()
        .map(|b| b.item)
        .ok_or_else(|| AppError::user("Nothing has been bought yet."))?;
    Ok(Step::one(TaskAction::Refund { actor: t.a, item }))
}

/// `finish`: ends the spending (the result is applied at once and the FC's
/// subversion window opens).
pub fn finish(t: &Turn<'_>) -> Step {
    Step {
        finishing: true,
        ..Step::one(TaskAction::FinishSpending {
            actor: t.a,
            overflow_job: None,
        })
    }
}

/// `subvert` (`Some(n)`) and `nosub` (`None`), FC only, while the window is
/// open: narrative only, recorded after the close (VE1-S5, A-V15; the exp
/// and Lots were applied when spending finished).
pub fn subvert(t: &mut Turn<'_>, secondary: Option<u8>) -> Result<Step, AppError> {
    t.fc_only("subvert a consequence")?;
    if !t.st.subversion_open {
        return Err(AppError::user("There is no subversion to decide now."));
    }
    match secondary {
        Some(n) => {
            let bought = t
                .st
                .task
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
