//! The task flow on buttons and menus, both editions.
//!
//! Before the roll: allies press **Offer aid** (or pick a job in the "Aid
//! with a job" menu); the roller accepts or refuses each offer, may switch
//! job, then presses **Roll**. The KISS round: each participant picks dice
//! in the "KISS dice" menu and pays for them with a source button (Lot,
//! stunt, specialty, insight; specialties and insights are taken in order
//! from the declarer's sheet); edition 1 adds the Ego modes and allies'
//! consent; the roller presses **Re-roll** (or **No KISS**). Edition 1 then
//! spends beats (primary, S1-S4, T1-T4, special consequences), **Finish**
//! ends spending and the FC may **Subvert** one unbought secondary
//! consequence; edition 2 offers Ego when still short. The FC may void or
//! force-close at any point. Every click is one transaction.

use rand::{rngs::StdRng, SeedableRng};
use serde_json::json;

use super::changes;
use super::party::Party;
use super::state::{AidCandidate, TaskSession, VeState, Who};
use super::task_view;
use super::{actor, timeout, HINT, SYSTEM};
use crate::app::characters;
use crate::app::component::{from_base36, Click};
use crate::app::{log, sessions, App, AppError, AppResult, Reply, Response, View};
use crate::rules::venus::sheet::SheetEvent;
use crate::rules::venus::task::{
    AidStatus, CloseKind, EgoMode, KissSource, Purchase, TaskAction, TaskEvent, TaskPhase,
};
use crate::rules::venus::{TaskSetup, TaskState, VenusCtx, VenusSettings, VenusSheet};
use crate::rules::Actor;
use crate::storage::{self, sessions::Session, Tx};
use crate::storage::sessions::Status;
use crate::app::Act;

/// A sheet's jobs that can aid a task on `ability`: level ≥ 1 and
/// inheriting it (VE1-T3, VE2-T3).
pub fn eligible_jobs(sheet: &VenusSheet, ability: &str) -> Vec<(String, u32)> {
    sheet
        .jobs
        .iter()
        .filter(|(_, j)| j.level >= 1 && !j.learning && j.inherits_ability(ability))
        .map(|(k, j)| (k.clone(), j.level))
        .collect()
}

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
        .map(|s| {
            s.jobs
                .iter()
                .filter(|(_, j)| j.inherits_ability(&ability))
                .map(|(k, j)| (k.clone(), j.level))
                .collect()
        })
        .unwrap_or_default();
    let standing: Vec<i64> = st
        .task
        .allies
        .iter()
        .filter(|a| matches!(a.status, AidStatus::Offered | AidStatus::Accepted))
        .map(|a| a.id)
        .collect();
    let rows = storage::characters::list(tx, guild_id, SYSTEM, None, 200).await?;
    let mut out = Vec::new();
    for r in rows {
        if !r.active || r.owner_id == st.roller.user || standing.contains(&r.owner_id) {
            continue;
        }
        let Ok(sheet) = serde_json::from_str::<VenusSheet>(&r.sheet) else {
            continue;
        };
        let jobs = eligible_jobs(&sheet, &ability);
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
/// consequences.
fn sync_roller(st: &mut TaskSession, ctx: &VenusCtx) {
    if let Some(s) = ctx.sheets.get(&st.roller.user) {
        st.customs = s.custom_consequences.clone();
        st.roller_ego = s.ego;
    }
}

fn no_rng() -> StdRng {
    StdRng::seed_from_u64(0)
}

/// Rebuilds a task not yet rolled from a new setup, keeping the standing
/// aid offers that still fit (and their answers).
pub fn rebuild(
    st: &mut TaskSession,
    setup: TaskSetup,
    settings: &VenusSettings,
    ctx: &mut VenusCtx,
) -> Result<(), AppError> {
    if st.task.phase != TaskPhase::AidOffers {
        return Err(AppError::user("The dice are already thrown."));
    }
    let (mut task, _) = TaskState::new(setup.clone(), settings, ctx).map_err(super::fc_words)?;
    for ally in &st.task.allies {
        if !matches!(ally.status, AidStatus::Offered | AidStatus::Accepted) {
            continue;
        }
        let offer = TaskAction::OfferAid {
            actor: Actor {
                id: ally.id,
                gm: false,
            },
            ally: ally.id,
            job: ally.job.clone(),
            demand: ally.demand.clone(),
        };
        let Ok((t, _)) = task.clone().apply(ctx, offer, &mut no_rng()) else {
            continue;
        };
        task = t;
        if ally.status == AidStatus::Accepted {
            let accept = TaskAction::AnswerAid {
                actor: Actor {
                    id: setup.roller,
                    gm: false,
                },
                ally: ally.id,
                accept: true,
            };
            if let Ok((t, _)) = task.clone().apply(ctx, accept, &mut no_rng()) {
                task = t;
            }
        }
    }
    st.task = task;
    st.setup = setup;
    Ok(())
}

fn user_arg(arg: Option<&str>) -> Result<i64, AppError> {
    arg.and_then(from_base36)
        .ok_or_else(|| AppError::user("That button is not valid."))
}

/// Parses a purchase code: `p`, `s1`..`s4`, `t1`..`t4`.
pub fn purchase_of(code: &str) -> Option<Purchase> {
    let n = |s: &str| s.parse::<u8>().ok().filter(|n| (1..=4).contains(n));
    match code {
        "p" => Some(Purchase::Primary),
        c if c.starts_with('s') => n(&c[1..]).map(Purchase::Secondary),
        c if c.starts_with('t') => n(&c[1..]).map(Purchase::Tertiary),
        _ => None,
    }
}

/// The code of a purchase (the inverse of [`purchase_of`]).
pub fn purchase_code(p: Purchase) -> String {
    match p {
        Purchase::Primary => "p".into(),
        Purchase::Secondary(n) => format!("s{n}"),
        Purchase::Tertiary(n) => format!("t{n}"),
        Purchase::Custom(i) => format!("c{i}"),
    }
}

/// A purchase in a few words ("the primary consequence", "S2").
pub fn purchase_name(p: Purchase) -> String {
    match p {
        Purchase::Primary => "the primary consequence".into(),
        Purchase::Custom(i) => format!("special consequence {}", i + 1),
        other => purchase_code(other).to_uppercase(),
    }
}

/// The next `n` specialties (or insights) of `by` not yet used for a KISS
/// in this task, in sheet order.
fn named_sources(
    st: &TaskSession,
    ctx: &VenusCtx,
    by: i64,
    n: usize,
    specialty: bool,
) -> Result<Vec<KissSource>, AppError> {
    let sheet = ctx.sheet(by)?;
    let used: Vec<String> = st
        .task
        .kisses
        .iter()
        .filter(|k| k.by == by)
        .filter_map(|k| match (&k.source, specialty) {
            (KissSource::Specialty { attribute }, true) => Some(attribute.to_lowercase()),
            (KissSource::Insight { insight }, false) => Some(insight.to_lowercase()),
            _ => None,
        })
        .collect();
    let all: Vec<String> = if specialty {
        sheet.attributes.specialties.clone()
    } else {
        sheet.insights.iter().map(|i| i.text.clone()).collect()
    };
    let free: Vec<String> = all
        .into_iter()
        .filter(|t| !used.contains(&t.trim().to_lowercase()))
        .collect();
    if free.len() < n {
        let (word, kind) = if specialty {
            ("specialties", "specialty")
        } else {
            ("insights", "insight")
        };
        return Err(AppError::user(format!(
            "{} has {} unused {word} for {n} dice: add one with `/ve sheet note kind:{kind}`, or pick fewer dice.",
            sheet.name,
            free.len()
        )));
    }
    Ok(free
        .into_iter()
        .take(n)
        .map(|t| {
            if specialty {
                KissSource::Specialty { attribute: t }
            } else {
                KissSource::Insight { insight: t }
            }
        })
        .collect())
}

/// A short account of what just happened, for the footer.
fn note_of(st: &TaskSession, clicker: &str, events: &[TaskEvent]) -> Option<String> {
    let name = |id: i64| st.name_of(id);
    let mut out: Vec<String> = Vec::new();
    let mut declared = Vec::new();
    for e in events {
        let s = match e {
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
            TaskEvent::DiceRolled { dice } => Some(format!("{clicker} rolled {} dice", dice.len())),
            TaskEvent::EarlySuccess => Some("success on the roll".into()),
            TaskEvent::KissDeclared { kiss } => {
                declared.push(format!("#{}", kiss.die));
                None
            }
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
            TaskEvent::Bought { item, .. } => Some(format!("bought {}", purchase_name(*item))),
            TaskEvent::Refunded { item, .. } => Some(format!("undid {}", purchase_name(*item))),
            TaskEvent::SpendingFinished { beats_lost } => Some(if *beats_lost == 0 {
                "spending done".into()
            } else {
                format!("spending done, {beats_lost} beats lost")
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
        };
        out.extend(s);
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

/// A click on a task's button or menu.
pub async fn click(
    app: &App,
    mut tx: Act,
    session: Session,
    mut st: TaskSession,
    click: &Click<'_>,
) -> AppResult {
    let caller = click.caller;
    let a = actor(&mut tx, caller).await?;
    let me = caller.user_id;
    let action = click.id.action.as_str();
    let participant = st.who(me).is_some();
    if !(a.gm || participant || matches!(action, "offer" | "aidjob")) {
        return Err(AppError::user(format!(
            "Only {} (the roller), their allies and the FC can use this task's buttons.",
            st.roller.name
        )));
    }
    let guild = caller.guild_id;
    let mut party = Party::load(&mut tx, guild, st.whos()).await?;
    if !party.has(st.roller.user) && !matches!(action, "void" | "force") {
        return Err(AppError::user(format!(
            "{}'s character sheet is gone, so this task cannot go on: the FC can void it.",
            st.roller.name
        )));
    }
    let mut rng = app.rng.fork();
    let mut actions: Vec<TaskAction> = Vec::new();
    let mut whisper: Option<String> = None;
    let mut changed_ui = false;
    let mut finishing = false;
    let was_closed = st.task.phase == TaskPhase::Closed;
    let by = if participant { me } else { st.task.roller };
    let fc_only = |what: &str| -> Result<(), AppError> {
        if a.gm {
            Ok(())
        } else {
            Err(AppError::user(format!("Only the FC can {what}.")))
        }
    };
    let value = || {
        click
            .values
            .first()
            .cloned()
            .ok_or_else(|| AppError::user("Pick something in the menu."))
    };
    match action {
        "offer" | "aidjob" => {
            if me == st.roller.user {
                return Err(AppError::user("The roller cannot aid their own task."));
            }
            if st.task.phase != TaskPhase::AidOffers {
                return Err(AppError::user(
                    "The dice are thrown: it is too late to aid.",
                ));
            }
            let c = characters::active::<VenusSheet>(&mut tx, caller, SYSTEM, HINT).await?;
            let jobs = eligible_jobs(&c.sheet, &st.task.ability);
            let job = if action == "aidjob" {
                Some(value()?)
            } else {
                match jobs.len() {
                    0 => {
                        return Err(AppError::user(format!(
                            "{} has no job at level 1 or more that inherits {}, so cannot aid this task.",
                            c.name(),
                            st.task.ability
                        )))
                    }
                    1 => Some(jobs[0].0.clone()),
                    _ => {
                        whisper = Some(format!(
                            "{} can aid with several jobs: pick one in the \"Aid with a job\" menu.",
                            c.name()
                        ));
                        changed_ui = true;
                        None
                    }
                }
            };
            if let Some(job) = job {
                let who = Who {
                    user: me,
                    character: Some(c.row.id),
                    name: c.row.name.clone(),
                };
                match st.allies.iter_mut().find(|w| w.user == me) {
                    Some(w) => *w = who,
                    None => st.allies.push(who),
                }
                party.add_loaded(me, c);
                actions.push(TaskAction::OfferAid {
                    actor: a,
                    ally: me,
                    job,
                    demand: None,
                });
            }
        }
        "withdraw" => actions.push(TaskAction::WithdrawAid { actor: a, ally: me }),
        "accept" | "refuse" => actions.push(TaskAction::AnswerAid {
            actor: a,
            ally: user_arg(click.id.arg.as_deref())?,
            accept: action == "accept",
        }),
        "usejob" => {
            if !(a.gm || me == st.roller.user) {
                return Err(AppError::user("Only the roller (or the FC) picks the job."));
            }
            let mut setup = st.setup.clone();
            setup.job = value()?;
            setup.learn_inherits = None;
            setup.actor = a;
            let set = st.task.settings.clone();
            rebuild(&mut st, setup, &set, &mut party.ctx)?;
            st.note = Some(format!("{} now uses {}", st.roller.name, st.task.job));
            changed_ui = true;
        }
        "roll" => {
            st.odds_before = task_view::chance_now(&st.task);
            actions.push(TaskAction::Roll { actor: a });
        }
        "pick" => {
            if st.task.phase != TaskPhase::KissDeclaration {
                return Err(AppError::user("KISSes are declared in the KISS round."));
            }
            if let Some(page) = crate::app::view::page_of(click.values) {
                // Turning the menu's page picks nothing and rolls nothing.
                st.kiss_page = page;
                let minutes = timeout(&mut tx, guild).await?;
                let state = VeState::Task(Box::new(st.clone()));
                let version =
                    sessions::save(&mut tx, &session, &state, Status::Open, Some(minutes)).await?;
                tx.commit().await?;
                let view = task_view::view(session.id, version, Status::Open, &st);
                return Ok(Response::update(view));
            }
            let allowed = st.task.kissable_dice(by);
            let mut dice = Vec::new();
            for v in click.values {
                let d: u32 = v
                    .parse()
                    .map_err(|_| AppError::user("That is not a die on the table."))?;
                if !allowed.contains(&d) {
                    let owner = st.task.die(d).map(|x| x.owner);
                    return Err(AppError::user(match owner {
                        None => format!("There is no die #{d}."),
                        Some(_) if st.task.kisses.iter().any(|k| k.die == d) => {
                            format!("Die #{d} is already being KISSed: each die once per task.")
                        }
                        Some(o)
                            if o != by && st.task.edition == crate::rules::venus::Edition::Two =>
                        {
                            format!(
                                "Die #{d} is {}'s: in edition 2 only its owner can KISS it.",
                                st.name_of(o)
                            )
                        }
                        Some(o) if o != by => format!(
                            "Die #{d} is {}'s: {} must consent first (\"Consent to KISS\").",
                            st.name_of(o),
                            st.name_of(o)
                        ),
                        Some(_) => format!("You cannot KISS die #{d}."),
                    }));
                }
                if !dice.contains(&d) {
                    dice.push(d);
                }
            }
            st.drafts.insert(me, dice);
            st.note = Some(format!("{} picked dice to KISS", st.name_of(by)));
            changed_ui = true;
        }
        "klot" | "kstunt" | "kspec" | "kins" => {
            let dice = st
                .drafts
                .get(&me)
                .cloned()
                .filter(|d| !d.is_empty())
                .ok_or_else(|| {
                    AppError::user("Pick the dice to KISS in the \"KISS dice\" menu first.")
                })?;
            let sources: Vec<KissSource> = match action {
                "klot" => vec![KissSource::Lot; dice.len()],
                "kstunt" => vec![KissSource::Stunt; dice.len()],
                "kspec" => named_sources(&st, &party.ctx, by, dice.len(), true)?,
                _ => named_sources(&st, &party.ctx, by, dice.len(), false)?,
            };
            for (die, source) in dice.into_iter().zip(sources) {
                actions.push(TaskAction::DeclareKiss {
                    actor: a,
                    by,
                    die,
                    source,
                });
            }
            st.drafts.remove(&me);
        }
        "kclear" => {
            let mine: Vec<u32> = st
                .task
                .kisses
                .iter()
                .filter(|k| k.by == by || (a.gm && !participant))
                .map(|k| k.die)
                .collect();
            for die in mine {
                actions.push(TaskAction::WithdrawKiss { actor: a, die });
            }
            if st.drafts.remove(&me).is_some() {
                changed_ui = true;
            }
            if actions.is_empty() && !changed_ui {
                return Err(AppError::user("You have no KISS to withdraw."));
            }
            st.note = Some(format!("{} withdrew their KISSes", st.name_of(by)));
        }
        "consent" => {
            let current = st
                .task
                .allies
                .iter()
                .find(|x| x.id == me)
                .map(|x| x.consented_kiss)
                .ok_or_else(|| {
                    AppError::user("Only an ally consents to KISSes on their own die.")
                })?;
            actions.push(TaskAction::ConsentKiss {
                actor: a,
                ally: me,
                consent: !current,
            });
        }
        "egore" => actions.push(if st.task.ego_reroll_pending {
            TaskAction::WithdrawEgoReroll { actor: a }
        } else {
            TaskAction::DeclareEgoReroll { actor: a }
        }),
        "ego6" => actions.push(TaskAction::DeclareDoubleSixes { actor: a }),
        "kroll" => actions.push(TaskAction::RollKisses { actor: a }),
        "kok" => {
            fc_only("approve KISSes")?;
            for k in st.task.kisses.iter().filter(|k| !k.approved) {
                actions.push(TaskAction::ApproveKiss {
                    actor: a,
                    die: k.die,
                });
            }
            if actions.is_empty() {
                return Err(AppError::user("No KISS awaits approval."));
            }
        }
        "kveto" => {
            fc_only("veto a KISS")?;
            let k = st
                .task
                .kisses
                .last()
                .ok_or_else(|| AppError::user("No KISS is declared."))?;
            actions.push(TaskAction::VetoKiss {
                actor: a,
                die: k.die,
            });
        }
        "buy" => {
            let item = click
                .id
                .arg
                .as_deref()
                .and_then(purchase_of)
                .ok_or_else(|| AppError::user("That button is not valid."))?;
            actions.push(TaskAction::Buy { actor: a, item });
        }
        "buyc" => {
            let i: usize = value()?
                .parse::<usize>()
                .ok()
                .and_then(|n| n.checked_sub(1))
                .ok_or_else(|| AppError::user("That consequence is not on the list."))?;
            actions.push(TaskAction::Buy {
                actor: a,
                item: Purchase::Custom(i),
            });
        }
        "undo" => {
            let item = st
                .task
                .purchases
                .last()
                .map(|b| b.item)
                .ok_or_else(|| AppError::user("Nothing has been bought yet."))?;
            actions.push(TaskAction::Refund { actor: a, item });
        }
        "finish" => {
            actions.push(TaskAction::FinishSpending {
                actor: a,
                overflow_job: None,
            });
            finishing = true;
        }
        "subvert" | "nosub" => {
            fc_only("subvert a consequence")?;
            if !st.subversion_open {
                return Err(AppError::user("There is no subversion to decide now."));
            }
            if action == "subvert" {
                let n = click
                    .id
                    .arg
                    .as_deref()
                    .and_then(|s| s.parse::<u8>().ok())
                    .filter(|n| (1..=4).contains(n))
                    .ok_or_else(|| AppError::user("That button is not valid."))?;
                if st
                    .task
                    .purchases
                    .iter()
                    .any(|b| b.item == Purchase::Secondary(n))
                {
                    return Err(AppError::user(
                        "Only a secondary consequence the roller did not buy can be subverted.",
                    ));
                }
                // VE1-S5, A-V15: narrative only, recorded after the close
                // (the exp and Lots were applied when spending finished).
                st.task.subversion = Some(n);
                st.note = Some(format!("the FC subverts S{n}"));
            } else {
                st.note = Some("the FC lets every consequence stand".into());
            }
            st.subversion_open = false;
            changed_ui = true;
        }
        "egoyes" => actions.push(TaskAction::SpendEgo { actor: a }),
        "egono" => actions.push(TaskAction::DeclineEgo { actor: a }),
        "void" => {
            fc_only("void a roll")?;
            actions.push(TaskAction::Void { actor: a });
        }
        "force" => {
            fc_only("force-close a roll")?;
            actions.push(TaskAction::ForceClose { actor: a });
        }
        other => return Err(AppError::user(format!("`{other}` does nothing on a task."))),
    }
    if actions.is_empty() && !changed_ui {
        return Err(AppError::user("There is nothing to do for that now."));
    }
    let mut task = st.task.clone();
    let mut events = Vec::new();
    for act in &actions {
        let (t, ev) = task
            .apply(&mut party.ctx, act.clone(), &mut rng)
            .map_err(super::fc_words)?;
        task = t;
        events.extend(ev);
    }
    if finishing && task.phase == TaskPhase::GmSubversion {
        // Spending is over: apply the result now (exp, Lots, level-ups) and
        // leave the FC a window to subvert one unbought secondary
        // consequence, which changes no number (A-V15).
        let skip = TaskAction::SkipSubversion {
            actor: Actor { id: a.id, gm: true },
        };
        let (t, ev) = task
            .apply(&mut party.ctx, skip, &mut rng)
            .map_err(super::fc_words)?;
        task = t;
        events.extend(
            ev.into_iter()
                .filter(|e| !matches!(e, TaskEvent::SubversionSkipped)),
        );
        st.subversion_open = true;
    }
    st.task = task;
    let named: Vec<(String, SheetEvent)> = events
        .iter()
        .filter_map(|e| match e {
            TaskEvent::Sheet { who, event } => Some((st.name_of(*who), event.clone())),
            _ => None,
        })
        .collect();
    st.changes.extend(changes::lines(&named));
    let clicker = st
        .who(me)
        .map(|w| w.name.clone())
        .unwrap_or_else(|| caller.name.clone());
    if let Some(n) = note_of(&st, &clicker, &events) {
        st.note = Some(n);
    }
    if st.task.phase == TaskPhase::KissDeclaration {
        let declared: Vec<u32> = st.task.kisses.iter().map(|k| k.die).collect();
        for d in st.drafts.values_mut() {
            d.retain(|x| !declared.contains(x));
        }
        st.drafts.retain(|_, d| !d.is_empty());
    } else {
        st.drafts.clear();
    }
    if st.task.phase == TaskPhase::AidOffers {
        refresh(&mut tx, guild, &mut st, &party.ctx).await?;
    } else {
        sync_roller(&mut st, &party.ctx);
    }
    party.save(&mut tx).await?;
    let status = match (st.task.phase, st.task.close_kind) {
        (TaskPhase::Closed, Some(CloseKind::Voided)) => Status::Voided,
        (TaskPhase::Closed, _) if st.subversion_open => Status::Open,
        (TaskPhase::Closed, _) => Status::Closed,
        _ => Status::Open,
    };
    let minutes = timeout(&mut tx, guild).await?;
    let version = sessions::save(
        &mut tx,
        &session,
        &VeState::Task(Box::new(st.clone())),
        status,
        Some(minutes),
    )
    .await?;
    log::record_rolled(
        &mut tx,
        caller,
        log::What {
            system: SYSTEM,
            action: &format!("task_{action}"),
            session: Some(session.id),
            character: st.roller.character,
        },
        &json!({ "actions": actions, "values": click.values }),
        &st.task.dice,
        &json!({ "events": events, "phase": st.task.phase, "outcome": st.task.outcome }),
        &thrown_faces(&st.task, &events),
    )
    .await?;
    tx.commit().await?;
    let mut response = Response::update(task_view::view(session.id, version, status, &st));
    if let Some(w) = whisper {
        response = response.then(Reply::Ephemeral(View::text(w)));
    }
    let just_closed = !was_closed
        && st.task.phase == TaskPhase::Closed
        && st.task.close_kind != Some(CloseKind::Voided);
    if just_closed && st.task.outcome.is_some() {
        response = response.then(Reply::Message(task_view::summary(&st, &party.ctx)));
    }
    Ok(response)
}

/// Every die thrown by these events, as `(sides, natural face)` for the
/// fairness statistics: first rolls, explosions and KISS re-rolls (each die
/// once, in the action that threw it).
fn thrown_faces(
    task: &crate::rules::venus::task::TaskState,
    events: &[TaskEvent],
) -> Vec<(u32, u32)> {
    let sides = match task.edition {
        crate::rules::venus::Edition::One => 6,
        crate::rules::venus::Edition::Two => 10,
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
    fn purchase_codes_round_trip() {
        for p in [
            Purchase::Primary,
            Purchase::Secondary(1),
            Purchase::Secondary(4),
            Purchase::Tertiary(3),
        ] {
            assert_eq!(purchase_of(&purchase_code(p)), Some(p));
        }
        assert_eq!(purchase_of("s5"), None);
        assert_eq!(purchase_of("x"), None);
    }
}
