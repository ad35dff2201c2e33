//! The task flow on buttons and menus, both editions.
//!
//! Before the roll: allies press **Offer aid** (or pick a job in the "Aid
//! with a job" menu), taken at once; the roller may refuse each, may switch
//! job, then presses **Roll**. The KISS round: each participant declares
//! KISSes in one step in the "KISS: pick dice and how to pay" menu (each
//! value a die and its payment: a Lot, a stunt, a named specialty or
//! insight; misses listed first); the older two-step words (the "KISS
//! dice" menu, then "KISS with …" or "Pay with a specialty or insight")
//! still answer on messages drawn before. Edition 1 adds the Ego modes and
//! allies' consent; the roller's own pick re-rolls at once unless a KISS
//! waits on the FC, then **Re-roll** (or **No KISS**).
//! Edition 1 then spends beats (**Primary** as one button; S1-S4, T1-T4 and
//! the special consequences bought together in the "Buy consequences"
//! menu), **Finish** ends spending and the FC may **Subvert** one unbought
//! secondary consequence; edition 2 offers Ego when still short. The FC may
//! void or force-close at any point (the FC's tools are drawn `gm_only`).
//! Every click is one action of the pipeline (one transaction).
//!
//! A button that is one rules-core action of the clicker ([`press`] builds
//! it); the others have a small file per group under `task/` (`aid`,
//! `kiss`, `spend`): it reads the click, checks who may press it and turns
//! it into rules-core actions (a `Step`); [`press`] routes a typed
//! [`TaskButton`] to it, and `turn::Turn` checks who may press task
//! buttons at all, applies the step, saves, logs and answers.

mod aid;
mod kiss;
mod menus;
mod notes;
mod spend;
mod turn;
mod waits;

use super::buttons::TaskButton;
use super::context::Turn as Pipe;
use super::state::{AidCandidate, TaskSession};
use super::SYSTEM;
use crate::app::component::Click;
use crate::app::Act;
use crate::app::{App, AppError, AppResult, Caller};
use crate::rules::venus::task::TaskAction;
use crate::rules::venus::{TaskSetup, VenusCtx, VenusSettings, VenusSheet};
use crate::storage::{self, sessions::Session, Tx};
use turn::{Step, Turn};

/// Refreshes who could aid and which jobs the roller could switch to.
pub async fn refresh(
    tx: &mut Tx,
    guild_id: i64,
    st: &mut TaskSession,
    ctx: &VenusCtx,
) -> Result<(), AppError> {
    let ability = st.task.ability.clone();
    sync_roller(st, ctx);
    st.roller_jobs = ctx
        .sheets
        .get(&st.roller.user)
        .map(|s| s.jobs_for(&ability))
        .unwrap_or_default();
    let standing: Vec<i64> = st.task.standing_allies().map(|a| a.id).collect();
    let rows = storage::characters::list(tx, guild_id, SYSTEM, None, 200).await?;
    let mut out = Vec::new();
    for r in rows {
        if !r.active || r.owner_id == st.roller.user || standing.contains(&r.owner_id) {
            continue;
        }
        let Ok(sheet) = serde_json::from_str::<VenusSheet>(&r.sheet) else {
            continue;
        };
        let jobs = sheet.aid_jobs(&ability);
        if !jobs.is_empty() {
            out.push(AidCandidate {
                user: r.owner_id,
                name: r.name.clone(),
                jobs,
            });
        }
    }
    st.candidates = out;
    Ok(())
}

/// Copies what the buttons need from the roller's sheet: Ego held, special
/// consequences, the jobs that could take the exp of a T3 Lot over 10.
fn sync_roller(st: &mut TaskSession, ctx: &VenusCtx) {
    if let Some(s) = ctx.sheets.get(&st.roller.user) {
        st.customs = s.custom_consequences.clone();
        st.roller_ego = s.ego;
    }
    st.overflow_jobs = st.task.overflow_jobs(ctx);
}

/// Rebuilds a task not yet rolled from a new setup, keeping the standing
/// aid offers that still fit ([`TaskState::rebuilt`]).
pub fn rebuild(
    st: &mut TaskSession,
    setup: TaskSetup,
    settings: &VenusSettings,
    ctx: &VenusCtx,
) -> Result<(), AppError> {
    st.task = st
        .task
        .rebuilt(setup.clone(), settings, ctx)
        .map_err(super::fc_words)?;
    st.setup = setup;
    Ok(())
}

/// A click on a task's button or menu.
pub async fn click(
    app: &App,
    act: Act,
    session: Session,
    st: TaskSession,
    click: &Click<'_>,
) -> AppResult {
    let button = click.action::<TaskButton>()?;
    let pipe = Pipe::click(app, act, click.caller).await?;
    press(pipe, session, st, button, click.values, click.caller).await
}

/// Presses `button` on a task (from a click, or from a command acting on
/// the roll in progress), with the values picked in a menu.
pub async fn press<'a>(
    pipe: Pipe<'a>,
    session: Session,
    st: TaskSession,
    button: TaskButton,
    values: &'a [String],
    caller: &'a Caller,
) -> AppResult {
    let mut t = Turn::open(pipe, session, st, &button, values, caller).await?;
    let actor = t.a;
    let step = match &button {
        TaskButton::Offer => aid::offer(&mut t, false).await?,
        TaskButton::AidJob => aid::offer(&mut t, true).await?,
        TaskButton::Withdraw => Step::one(TaskAction::WithdrawAid {
            actor,
            ally: t.me(),
        }),
        TaskButton::Accept(ally) => aid::answer(&t, *ally, true)?,
        TaskButton::Refuse(ally) => aid::answer(&t, *ally, false)?,
        TaskButton::UseJob => aid::use_job(&mut t)?,
        TaskButton::Roll => aid::roll(&mut t),
        TaskButton::Pick => kiss::pick(&mut t)?,
        TaskButton::Kiss(payment) => kiss::pay(&mut t, *payment)?,
        TaskButton::PayWith => kiss::pay_with(&mut t)?,
        TaskButton::KissClear => kiss::clear(&mut t)?,
        TaskButton::Consent => kiss::consent(&t)?,
        TaskButton::KissRoll => Step::one(TaskAction::RollKisses { actor }),
        TaskButton::KissApprove => kiss::approve(&t)?,
        TaskButton::KissVeto => kiss::veto(&t)?,
        // Edition 1's Ego re-roll, withdrawn with the same button.
        TaskButton::EgoReroll if t.st.task.ego_reroll_pending => {
            Step::one(TaskAction::WithdrawEgoReroll { actor })
        }
        TaskButton::EgoReroll => Step::one(TaskAction::DeclareEgoReroll { actor }),
        TaskButton::EgoSixes => Step::one(TaskAction::DeclareDoubleSixes { actor }),
        // Edition 2's Ego offer when still short.
        TaskButton::EgoYes => Step::one(TaskAction::SpendEgo { actor }),
        TaskButton::EgoNo => Step::one(TaskAction::DeclineEgo { actor }),
        TaskButton::Buy(c) => Step::one(TaskAction::Buy {
            actor,
            item: c.purchase(),
        }),
        TaskButton::BuyCustom => spend::buy_custom(&t)?,
        TaskButton::Undo => spend::undo(&t)?,
        TaskButton::Finish => spend::finish(&t)?,
        TaskButton::FinishWith => spend::finish_with(&t)?,
        TaskButton::Subvert(n) => spend::subvert(&mut t, Some(*n))?,
        TaskButton::NoSubversion => spend::subvert(&mut t, None)?,
        TaskButton::Void => {
            t.fc_only("void a roll")?;
            Step::one(TaskAction::Void { actor })
        }
        TaskButton::Force => {
            t.fc_only("force-close a roll")?;
            Step::one(TaskAction::ForceClose { actor })
        }
        TaskButton::KissPairs => kiss::pairs(&mut t)?,
        TaskButton::BuyMany => spend::buy_many(&t)?,
    };
    t.finish(&button, step).await
}
