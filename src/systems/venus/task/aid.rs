//! Before the roll: **Offer aid** (or the "Aid with a job" menu), taken
//! at once; **Withdraw aid**, the roller's **Refuse** (and **Accept** on
//! offers drawn before offers were taken at once) and "Use job" menu, and
//! **Roll**.

use super::rebuild;
use super::turn::{Step, Turn};
use crate::app::characters::{self, Loaded};
use crate::app::AppError;
use crate::rules::venus::task::{TaskAction, TaskPhase};
use crate::rules::venus::VenusSheet;
use crate::rules::Actor;
use crate::systems::venus::{HINT, SYSTEM};

/// `offer` and `aidjob`: the clicker's active character offers aid, with
/// the job picked in the menu (`from_menu`), its only eligible job, or
/// (several) a note asking them to pick one.
pub async fn offer(t: &mut Turn<'_>, from_menu: bool) -> Result<Step, AppError> {
    let me = t.me();
    if me == t.st.roller.user {
        return Err(AppError::user("The roller cannot aid their own task."));
    }
    if t.st.task.phase != TaskPhase::AidOffers {
        return Err(AppError::user(
            "The dice are thrown: it is too late to aid.",
        ));
    }
    let c = characters::active::<VenusSheet>(t.pipe.tx(), t.caller, SYSTEM, HINT).await?;
    let job = if from_menu {
        t.value()?
    } else {
        match only_job(&c, &t.st.task.ability)? {
            Some(job) => job,
            None => {
                return Ok(Step {
                    whisper: Some(format!(
                        "{} can aid with several jobs: pick one in the \"Aid with a job\" menu.",
                        c.shown()
                    )),
                    ..Step::redraw()
                })
            }
        }
    };
    let who = t.party.add_loaded(me, c);
    match t.st.allies.iter_mut().find(|w| w.user == me) {
        Some(w) => *w = who,
        None => t.st.allies.push(who),
    }
    // An offer with no demand attached is taken at once, as the roller's
    // standing yes: the roller may still refuse it until the roll (VE1-T3,
    // VE2-T3), so no click is spent on answering an offer nobody refuses.
    let roller = Actor {
        id: t.st.task.roller,
        gm: false,
    };
    Ok(Step::rules(vec![
        TaskAction::OfferAid {
            actor: t.a,
            ally: me,
            job,
            demand: None,
        },
        TaskAction::AnswerAid {
            actor: roller,
            ally: me,
            accept: true,
        },
    ]))
}

/// The one job `c` can aid with; `None` when there are several; a refusal
/// when there is none.
fn only_job(c: &Loaded<VenusSheet>, ability: &str) -> Result<Option<String>, AppError> {
    let jobs = c.sheet.aid_jobs(ability);
    match jobs.len() {
        0 => Err(AppError::user(format!(
            "{} has no job at level 1 or more that inherits {}, so cannot aid this task.",
            c.shown(),
            ability
        ))),
        1 => Ok(Some(jobs[0].0.clone())),
        _ => Ok(None),
    }
}

/// `accept` and `refuse`: the roller answers `ally`'s offer (an accepted
/// one may still be refused until the roll). **Accept** on an offer
/// already taken, an older message's button, says so and changes nothing.
pub fn answer(t: &Turn<'_>, ally: i64, accept: bool) -> Result<Step, AppError> {
    let taken = t.st.task.accepted_allies().any(|a| a.id == ally);
    if accept && taken && t.st.task.phase == TaskPhase::AidOffers {
        return Err(AppError::user(format!(
            "{}'s aid is already accepted: **Refuse {}** turns it down until the roll.",
            t.st.shown_of(ally),
            t.st.shown_of(ally)
        )));
    }
    Ok(Step::one(TaskAction::AnswerAid {
        actor: t.a,
        ally,
        accept,
    }))
}

/// `usejob`: the roller (or the FC) switches to the job picked in the menu;
/// the standing offers that still fit are kept.
pub fn use_job(t: &mut Turn<'_>) -> Result<Step, AppError> {
    if !(t.a.gm || t.me() == t.st.roller.user) {
        return Err(AppError::user("Only the roller (or the FC) picks the job."));
    }
    let mut setup = t.st.setup.clone();
    setup.job = t.value()?;
    setup.learn_inherits = None;
    setup.actor = t.a;
    let set = t.st.task.settings.clone();
    rebuild(&mut t.st, setup, &set, &t.party.ctx)?;
    t.st.note = Some(format!("{} now uses {}", t.st.roller.name, t.st.task.job));
    Ok(Step::redraw())
}

/// `roll`: throws the dice (the chance before the roll is kept for the
/// message). A pool of no dice has nothing to KISS or spend: in edition 1
/// it finishes at once as a failure with its exp, and the FC's subversion
/// window opens as after **Finish** (A-V26).
pub fn roll(t: &mut Turn<'_>) -> Step {
    t.st.odds_before = t.st.task.chance_now();
    Step::one(TaskAction::Roll { actor: t.a })
}
