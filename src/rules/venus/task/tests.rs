//! Tests for Venus Engine tasks: one or more per rule id of spec §2.4-§2.7
//! and §2.9 and per ambiguity implemented, with seeded exact faces, plus
//! statistical tests through the real rolling code.

use super::*;
use crate::rules::venus::check::NamedFactor;
use crate::rules::venus::rank::Rank;
use crate::rules::venus::settings::{Edition, VenusSettings};
use crate::rules::venus::sheet::{
    AttributeKind, ExpReason, SheetEvent, Tier, VenusCtx, VenusSheet,
};
use rand::{rngs::StdRng, SeedableRng};
use std::collections::BTreeMap;

const ROLLER: Actor = Actor { id: 1, gm: false };
const GM: Actor = Actor { id: 9, gm: true };

fn who(id: i64) -> Actor {
    Actor { id, gm: false }
}

fn settings(ed: Edition) -> VenusSettings {
    VenusSettings {
        ve_edition: ed,
        ..VenusSettings::default()
    }
}

/// A sheet with Finesse (rank, score), Wits (Bronze 2), Thief (Finesse,
/// Wits) at `thief_level`, Scholar (Wits) at 1.
fn sheet(set: &VenusSettings, name: &str, rank: Rank, score: u32, thief_level: u32) -> VenusSheet {
    let mut s = VenusSheet::new(name, set).unwrap();
    s.set_ability("Finesse", rank, score, set).unwrap();
    s.set_ability("Wits", Rank::Bronze, 2, set).unwrap();
    s.add_job("Thief", &["Finesse".into(), "Wits".into()], thief_level)
        .unwrap();
    s.add_job("Scholar", &["Wits".into()], 1).unwrap();
    s
}

/// Roller 1: Silver 4, Thief 3. Allies: 2 Gold 3 Thief 2; 3 Bronze 1 Thief 1;
/// 4 Platinum 5 Thief 1; 5 Bronze 2 Thief 1.
fn table(set: &VenusSettings) -> VenusCtx {
    let mut c = VenusCtx::new();
    c.insert(1, sheet(set, "Ada", Rank::Silver, 4, 3));
    c.insert(2, sheet(set, "Bo", Rank::Gold, 3, 2));
    c.insert(3, sheet(set, "Cy", Rank::Bronze, 1, 1));
    c.insert(4, sheet(set, "Di", Rank::Platinum, 5, 1));
    c.insert(5, sheet(set, "Ed", Rank::Bronze, 2, 1));
    c
}

fn setup(job: &str, difficulty: u32, factors: &[u32]) -> TaskSetup {
    TaskSetup {
        actor: ROLLER,
        roller: 1,
        npc: false,
        gm_override: false,
        ability: "Finesse".into(),
        job: job.into(),
        learn_inherits: None,
        difficulty,
        factors: factors
            .iter()
            .enumerate()
            .map(|(i, &value)| NamedFactor {
                name: format!("factor {}", i + 1),
                value,
            })
            .collect(),
        consequence: "You are caught.".into(),
        magic: false,
        crits: false,
        no_learning_factor: false,
    }
}

fn start(set: &VenusSettings, c: &VenusCtx, s: TaskSetup) -> TaskState {
    TaskState::new(s, set, c).unwrap().0
}

fn go(st: TaskState, c: &mut VenusCtx, a: TaskAction, seed: u64) -> (TaskState, Vec<TaskEvent>) {
    st.apply(c, a, &mut StdRng::seed_from_u64(seed)).unwrap()
}

fn fail(st: &TaskState, c: &mut VenusCtx, a: TaskAction) -> String {
    let before = c.clone();
    let e = st
        .clone()
        .apply(c, a, &mut StdRng::seed_from_u64(0))
        .unwrap_err();
    assert_eq!(*c, before, "an error must not change any sheet");
    e.message
}

fn offer(st: TaskState, c: &mut VenusCtx, ally: i64, accept: bool) -> TaskState {
    let a = TaskAction::OfferAid {
        actor: who(ally),
        ally,
        job: "Thief".into(),
        demand: None,
    };
    let st = go(st, c, a, 0).0;
    go(
        st,
        c,
        TaskAction::AnswerAid {
            actor: ROLLER,
            ally,
            accept,
        },
        0,
    )
    .0
}

fn roll(st: TaskState, c: &mut VenusCtx, seed: u64) -> (TaskState, Vec<TaskEvent>) {
    go(st, c, TaskAction::Roll { actor: ROLLER }, seed)
}

fn kiss(by: i64, die: u32, source: KissSource) -> TaskAction {
    TaskAction::DeclareKiss {
        actor: who(by),
        by,
        die,
        source,
    }
}

fn roll_kisses(st: TaskState, c: &mut VenusCtx, seed: u64) -> (TaskState, Vec<TaskEvent>) {
    go(st, c, TaskAction::RollKisses { actor: ROLLER }, seed)
}

fn buy(st: TaskState, c: &mut VenusCtx, item: Purchase) -> TaskState {
    go(
        st,
        c,
        TaskAction::Buy {
            actor: ROLLER,
            item,
        },
        0,
    )
    .0
}

fn finish(st: TaskState, c: &mut VenusCtx) -> (TaskState, Vec<TaskEvent>) {
    go(
        st,
        c,
        TaskAction::FinishSpending {
            actor: ROLLER,
            overflow_job: None,
        },
        0,
    )
}

fn skip_subversion(st: TaskState, c: &mut VenusCtx) -> (TaskState, Vec<TaskEvent>) {
    go(st, c, TaskAction::SkipSubversion { actor: GM }, 0)
}

fn faces(st: &TaskState) -> Vec<u32> {
    st.dice.iter().map(|d| d.face).collect()
}

fn exp(c: &VenusCtx, id: i64, job: &str) -> (u32, u32) {
    let j = c.sheets[&id].job(job).unwrap();
    (j.level, j.exp)
}

fn exp_events(ev: &[TaskEvent]) -> Vec<(i64, ExpReason)> {
    ev.iter()
        .filter_map(|e| match e {
            TaskEvent::Sheet {
                who,
                event: SheetEvent::ExpAwarded { reason, .. },
            } => Some((*who, *reason)),
            _ => None,
        })
        .collect()
}

// ---------------------------------------------------------------- shared (VE-*)

#[test]
fn ve_3_task_job_must_inherit_the_chosen_ability() {
    let set = settings(Edition::One);
    let c = table(&set);
    let e = TaskState::new(setup("Scholar", 1, &[]), &set, &c).unwrap_err();
    assert!(
        e.message.contains("does not inherit Finesse"),
        "{}",
        e.message
    );
    let e = TaskState::new(setup("Sailor", 1, &[]), &set, &c).unwrap_err();
    assert!(e.message.contains("start learning"), "{}", e.message);
    assert!(TaskState::new(setup("thief", 1, &[]), &set, &c).is_ok());
}

#[test]
fn ve_4_roller_or_gm_starts_the_task() {
    let set = settings(Edition::Two);
    let c = table(&set);
    let mut s = setup("Thief", 1, &[]);
    s.actor = who(2);
    assert!(TaskState::new(s.clone(), &set, &c).is_err());
    s.actor = GM;
    assert!(TaskState::new(s, &set, &c).is_ok());
}

#[test]
fn ve_5_npc_tasks_refused_unless_the_gm_overrides() {
    let set = settings(Edition::Two);
    let c = table(&set);
    let mut s = setup("Thief", 1, &[]);
    s.npc = true;
    let e = TaskState::new(s.clone(), &set, &c).unwrap_err();
    assert!(e.message.contains("Only player characters perform tasks"));
    s.gm_override = true;
    assert!(
        TaskState::new(s.clone(), &set, &c).is_err(),
        "the override needs a GM actor"
    );
    s.actor = GM;
    let st = start(&set, &c, s);
    assert!(st.npc);
}

#[test]
fn ve_8_approval_gates_insights_and_specialties_not_lots_or_stunts() {
    let mut set = settings(Edition::One);
    set.set("ve_require_approval", "on").unwrap();
    let mut c = table(&set);
    let st = roll(start(&set, &c, setup("Thief", 1, &[])), &mut c, 0).0;
    let st = go(st, &mut c, kiss(1, 1, KissSource::Lot), 0).0;
    let st = go(st, &mut c, kiss(1, 2, KissSource::Stunt), 0).0;
    let st = go(
        st,
        &mut c,
        kiss(
            1,
            3,
            KissSource::Specialty {
                attribute: "Lockpicks".into(),
            },
        ),
        0,
    )
    .0;
    let approved: Vec<bool> = st.kisses.iter().map(|k| k.approved).collect();
    assert_eq!(approved, [true, true, false]);
    // A specialty awaiting approval (VE1-K4c) or a stunt the GM may still
    // veto (VE1-K4d) waits for someone else's word; Lots alone do not.
    assert!(!st.kisses_settled());
    assert!(!st
        .available_actions(ROLLER, &c)
        .contains(&TaskActionKind::RollKisses));
    let msg = fail(&st, &mut c, TaskAction::RollKisses { actor: ROLLER });
    assert_eq!(msg, "The KISS on die 3 still awaits the GM's approval.");
    assert_eq!(
        fail(
            &st,
            &mut c,
            TaskAction::ApproveKiss {
                actor: ROLLER,
                die: 3
            }
        ),
        "Only the GM can do that."
    );
    // The GM vetoes the stunt and approves the specialty.
    let (st, ev) = go(st, &mut c, TaskAction::VetoKiss { actor: GM, die: 2 }, 0);
    assert!(matches!(
        ev[0],
        TaskEvent::KissVetoed {
            die: 2,
            by: 1,
            source: KissSource::Stunt
        }
    ));
    let st = go(st, &mut c, TaskAction::ApproveKiss { actor: GM, die: 3 }, 0).0;
    assert!(st.kisses_settled());
    let (st, _) = roll_kisses(st, &mut c, 1);
    let kissed: Vec<u32> = st.dice.iter().filter(|d| d.kissed).map(|d| d.id).collect();
    assert_eq!(kissed, [1, 3]);
}

// ---------------------------------------------------------------- edition 1

#[test]
fn ve1_t1_pool_is_job_level_d6_at_the_roller_rank() {
    let set = settings(Edition::One);
    let mut c = table(&set);
    let st = start(&set, &c, setup("Thief", 1, &[]));
    assert_eq!((st.pool, st.rank, st.score), (3, Rank::Silver, 4));
    let (st, ev) = roll(st, &mut c, 0);
    // Seed 0: D6 faces 5, 5, 4.
    assert_eq!(faces(&st), [5, 5, 4]);
    assert!(st
        .dice
        .iter()
        .all(|d| d.owner == 1 && d.rank == Rank::Silver && d.history == [d.face]));
    assert!(matches!(&ev[0], TaskEvent::DiceRolled { dice } if dice.len() == 3));
}

#[test]
fn ve1_t1_level_zero_job_rolls_the_ability_score() {
    let set = settings(Edition::One);
    let mut c = table(&set);
    c.sheets
        .get_mut(&1)
        .unwrap()
        .start_learning("Acrobat", &["Finesse".into()])
        .unwrap();
    let st = start(&set, &c, setup("Acrobat", 1, &[]));
    assert_eq!((st.job_level, st.pool, st.learning), (0, 4, true));
}

#[test]
fn ve1_t2_the_gm_may_leave_out_learning_the_ropes() {
    let set = settings(Edition::One);
    let mut c = table(&set);
    c.sheets
        .get_mut(&1)
        .unwrap()
        .start_learning("Acrobat", &["Finesse".into()])
        .unwrap();
    let mut s = setup("Acrobat", 1, &[1, 1, 1, 1]);
    s.no_learning_factor = true;
    let st = start(&set, &c, s);
    assert_eq!(st.threshold, 5);
    assert!(st.factors.iter().all(|f| f.name != "Learning the ropes"));
    let mut s = setup("Acrobat", 1, &[]);
    s.no_learning_factor = true;
    assert_eq!((start(&set, &c, s).threshold, 1), (1, 1));
}

#[test]
fn ve1_t2_threshold_is_one_plus_factors_and_learning_adds_one() {
    let set = settings(Edition::One);
    let mut c = table(&set);
    assert_eq!(start(&set, &c, setup("Thief", 1, &[])).threshold, 1);
    assert_eq!(
        start(&set, &c, setup("Thief", 1, &[1, 1, 1, 1])).threshold,
        5
    );
    assert!(TaskState::new(setup("Thief", 1, &[1, 1, 1, 1, 1]), &set, &c).is_err());
    assert!(TaskState::new(setup("Thief", 1, &[2]), &set, &c).is_err());
    assert!(TaskState::new(setup("Thief", 2, &[]), &set, &c).is_err());
    c.sheets
        .get_mut(&1)
        .unwrap()
        .start_learning("Acrobat", &["Finesse".into()])
        .unwrap();
    let st = start(&set, &c, setup("Acrobat", 1, &[]));
    assert_eq!(st.threshold, 2);
    assert_eq!(st.factors[0].name, "Learning the ropes");
    assert_eq!(
        start(&set, &c, setup("Acrobat", 1, &[1, 1, 1])).threshold,
        5
    );
    let e = TaskState::new(setup("Acrobat", 1, &[1, 1, 1, 1]), &set, &c).unwrap_err();
    assert!(e.message.contains("at most 3 more"));
}

#[test]
fn ve1_t3_up_to_two_allies_with_level_one_jobs_each_give_one_die() {
    let set = settings(Edition::One);
    let mut c = table(&set);
    c.sheets
        .get_mut(&5)
        .unwrap()
        .start_learning("Acrobat", &["Finesse".into()])
        .unwrap();
    let st = start(&set, &c, setup("Thief", 1, &[]));
    let lvl0 = TaskAction::OfferAid {
        actor: who(5),
        ally: 5,
        job: "Acrobat".into(),
        demand: None,
    };
    assert_eq!(
        fail(&st, &mut c, lvl0),
        "A job still being learned (level 0) cannot aid."
    );
    let wrong = TaskAction::OfferAid {
        actor: who(5),
        ally: 5,
        job: "Scholar".into(),
        demand: None,
    };
    assert!(fail(&st, &mut c, wrong).contains("does not inherit Finesse"));
    let not_me = TaskAction::OfferAid {
        actor: who(3),
        ally: 2,
        job: "Thief".into(),
        demand: None,
    };
    assert!(fail(&st, &mut c, not_me).contains("Only the ally"));
    let st = offer(st, &mut c, 2, true);
    let st = offer(st, &mut c, 3, true);
    let third = TaskAction::OfferAid {
        actor: who(4),
        ally: 4,
        job: "Thief".into(),
        demand: Some("Share the loot".into()),
    };
    assert_eq!(
        fail(&st, &mut c, third),
        "At most 2 allies may aid a task in edition 1."
    );
    let (st, _) = roll(st, &mut c, 0);
    // Seed 0: roller 5, 5, 4 (Silver); Bo 5 (Gold); Cy 5 (Bronze).
    let owners: Vec<(i64, Rank, u32)> = st.dice.iter().map(|d| (d.owner, d.rank, d.face)).collect();
    assert_eq!(
        owners,
        [
            (1, Rank::Silver, 5),
            (1, Rank::Silver, 5),
            (1, Rank::Silver, 4),
            (2, Rank::Gold, 5),
            (3, Rank::Bronze, 5)
        ]
    );
    assert_eq!(st.allies[0].die_id, Some(4));
    assert_eq!(st.successes(), 5);
}

#[test]
fn ve1_t3_roller_may_refuse_and_offers_must_be_answered_before_rolling() {
    let set = settings(Edition::One);
    let mut c = table(&set);
    let st = start(&set, &c, setup("Thief", 1, &[]));
    let a = TaskAction::OfferAid {
        actor: who(2),
        ally: 2,
        job: "Thief".into(),
        demand: Some("Owe me one".into()),
    };
    let (st, ev) = go(st, &mut c, a, 0);
    assert_eq!(
        ev[0],
        TaskEvent::AidOffered {
            ally: 2,
            job: "Thief".into(),
            rank: Rank::Gold,
            demand: Some("Owe me one".into())
        }
    );
    assert_eq!(
        fail(&st, &mut c, TaskAction::Roll { actor: ROLLER }),
        "Accept or refuse every aid offer before rolling."
    );
    let no = TaskAction::AnswerAid {
        actor: who(2),
        ally: 2,
        accept: true,
    };
    assert!(fail(&st, &mut c, no).contains("Only the roller"));
    let st = go(
        st,
        &mut c,
        TaskAction::AnswerAid {
            actor: ROLLER,
            ally: 2,
            accept: false,
        },
        0,
    )
    .0;
    let (st, _) = roll(st, &mut c, 0);
    assert!(st.dice.iter().all(|d| d.owner == 1));
}

#[test]
fn ve1_t4_beats_by_rank_minimum() {
    let set = settings(Edition::One);
    for (rank, beats) in [
        (Rank::Bronze, 2),
        (Rank::Silver, 3),
        (Rank::Gold, 3),
        (Rank::Platinum, 3),
    ] {
        let mut c = table(&set);
        c.sheets
            .get_mut(&1)
            .unwrap()
            .set_ability("Finesse", rank, 4, &set)
            .unwrap();
        let (st, ev) = roll(start(&set, &c, setup("Thief", 1, &[])), &mut c, 0);
        assert_eq!(faces(&st), [5, 5, 4]);
        assert_eq!(st.successes(), beats, "{rank}");
        assert!(ev.contains(&TaskEvent::Count {
            successes: beats,
            threshold: 1
        }));
    }
    // Seed 7: 3, 1, 1: Gold beats on 3 only, Platinum on 3 only (1s never strike).
    let mut c = table(&set);
    c.sheets
        .get_mut(&1)
        .unwrap()
        .set_ability("Finesse", Rank::Platinum, 4, &set)
        .unwrap();
    let (st, _) = roll(start(&set, &c, setup("Thief", 1, &[])), &mut c, 7);
    assert_eq!((faces(&st), st.successes()), (vec![3, 1, 1], 1));
}

#[test]
fn ve1_t5_and_ve1_k1_one_round_declared_together_then_rolled_together() {
    let set = settings(Edition::One);
    let mut c = table(&set);
    let (st, _) = roll(start(&set, &c, setup("Thief", 1, &[])), &mut c, 0);
    assert_eq!(st.phase(), TaskPhase::KissDeclaration);
    let st = go(st, &mut c, kiss(1, 1, KissSource::Lot), 0).0;
    let st = go(st, &mut c, kiss(1, 3, KissSource::Stunt), 0).0;
    assert_eq!(
        faces(&st),
        [5, 5, 4],
        "nothing is re-rolled while declaring"
    );
    assert_eq!(c.sheets[&1].lots, 10, "nothing is paid while declaring");
    let (st, ev) = roll_kisses(st, &mut c, 7);
    let kissed: Vec<(u32, u32, u32)> = ev
        .iter()
        .filter_map(|e| match e {
            TaskEvent::Kissed { die, from, to, .. } => Some((*die, *from, *to)),
            _ => None,
        })
        .collect();
    // Seed 7 re-rolls: 3, 1.
    assert_eq!(kissed, [(1, 5, 3), (3, 4, 1)]);
    assert!(ev.contains(&TaskEvent::KissRoundEnded { kissed: 2 }));
    assert_eq!(st.phase(), TaskPhase::Spending);
    assert!(st.kiss_round_done);
    let again = fail(&st, &mut c, kiss(1, 2, KissSource::Lot));
    assert_eq!(again, "KISSes can only be declared during the KISS round.");
}

#[test]
fn ve1_k2_each_die_at_most_once() {
    let set = settings(Edition::One);
    let mut c = table(&set);
    let (st, _) = roll(start(&set, &c, setup("Thief", 1, &[])), &mut c, 0);
    let st = go(st, &mut c, kiss(1, 1, KissSource::Lot), 0).0;
    let msg = fail(&st, &mut c, kiss(1, 1, KissSource::Stunt));
    assert_eq!(
        msg,
        "Die 1 is already being KISSed: each die can be KISSed once per task."
    );
    assert_eq!(st.kissable_dice(1), [2, 3]);
    let undeclared: Vec<u32> = st.undeclared_dice().map(|d| d.id).collect();
    assert_eq!(undeclared, [2, 3], "the KISS menu no longer offers die 1");
    assert!(fail(&st, &mut c, kiss(1, 7, KissSource::Stunt)).contains("no die number 7"));
}

#[test]
fn ve1_k3_new_face_replaces_the_old_even_when_worse() {
    let set = settings(Edition::One);
    let mut c = table(&set);
    let (st, _) = roll(start(&set, &c, setup("Thief", 1, &[])), &mut c, 0);
    assert_eq!(st.successes(), 3);
    let st = go(st, &mut c, kiss(1, 1, KissSource::Lot), 0).0;
    let st = go(st, &mut c, kiss(1, 3, KissSource::Stunt), 0).0;
    let (st, _) = roll_kisses(st, &mut c, 7);
    // 5 → 3 and 4 → 1: two beats lost, by the owner's Silver rank.
    assert_eq!(faces(&st), [3, 5, 1]);
    assert_eq!(st.successes(), 1);
    let d1 = st.die(1).unwrap();
    assert_eq!(
        (d1.kissed, d1.kiss_source.clone(), d1.kissed_by),
        (true, Some(KissSource::Lot), Some(1))
    );
    assert_eq!(d1.history, [5, 3]);
    assert!(!st.die(2).unwrap().kissed);
    // The face each KISS replaced; none for a die never KISSed.
    let from: Vec<Option<u32>> = st.dice.iter().map(TaskDie::kissed_from).collect();
    assert_eq!(from, [Some(5), None, Some(4)]);
}

#[test]
fn ve1_k4_k4a_each_lot_kisses_one_die_paid_by_whoever_declares() {
    let set = settings(Edition::One);
    let mut c = table(&set);
    c.sheets.get_mut(&1).unwrap().lots = 1;
    c.sheets.get_mut(&2).unwrap().lots = 3;
    let st = offer(start(&set, &c, setup("Thief", 1, &[])), &mut c, 2, true);
    let (st, _) = roll(st, &mut c, 0);
    let st = go(st, &mut c, kiss(1, 1, KissSource::Lot), 0).0;
    assert_eq!(
        fail(&st, &mut c, kiss(1, 2, KissSource::Lot)),
        "Ada has no more Lots to spend on KISSes."
    );
    let st = go(st, &mut c, kiss(2, 4, KissSource::Lot), 0).0;
    let (st, ev) = roll_kisses(st, &mut c, 1);
    assert_eq!((c.sheets[&1].lots, c.sheets[&2].lots), (0, 2));
    assert!(ev.contains(&TaskEvent::Sheet {
        who: 2,
        event: SheetEvent::LotSpent { lots_now: 2 }
    }));
    assert_eq!(st.lots_spent, BTreeMap::from([(1, 1), (2, 1)]));
    let mut c0 = table(&set);
    c0.sheets.get_mut(&1).unwrap().lots = 0;
    let (st, _) = roll(start(&set, &c0, setup("Thief", 1, &[])), &mut c0, 0);
    assert_eq!(
        fail(&st, &mut c0, kiss(1, 1, KissSource::Lot)),
        "Ada has no Lots left to spend."
    );
}

#[test]
fn ve1_k4b_ego_mode_i_rerolls_every_non_beat_die_and_a_v11_allies_only_with_consent() {
    let set = settings(Edition::One);
    let mut c = table(&set);
    c.sheets.get_mut(&1).unwrap().ego = true;
    let st = offer(start(&set, &c, setup("Thief", 1, &[])), &mut c, 2, true);
    let st = offer(st, &mut c, 3, true);
    let consent = TaskAction::ConsentKiss {
        actor: who(2),
        ally: 2,
        consent: true,
    };
    let st = go(st, &mut c, consent, 0).0;
    // Seed 7: roller 3, 1, 1 (Silver: no beat); Bo 2 (Gold: no); Cy 1 (Bronze: no).
    let (st, _) = roll(st, &mut c, 7);
    assert_eq!((faces(&st), st.successes()), (vec![3, 1, 1, 2, 1], 0));
    let st = go(st, &mut c, kiss(1, 1, KissSource::Lot), 0).0;
    let st = go(
        st,
        &mut c,
        TaskAction::DeclareEgoReroll { actor: ROLLER },
        0,
    )
    .0;
    assert!(c.sheets[&1].ego, "Ego is paid when the dice are rolled");
    let (st, ev) = roll_kisses(st, &mut c, 0);
    assert!(!c.sheets[&1].ego);
    assert!(ev.contains(&TaskEvent::EgoUsed {
        who: 1,
        mode: EgoMode::RerollAll
    }));
    // Seed 0 re-rolls dice 1-4 in order: 5, 5, 4, 5. Cy (no consent) keeps 1.
    assert_eq!(faces(&st), [5, 5, 4, 5, 1]);
    let sources: Vec<Option<KissSource>> = st.dice.iter().map(|d| d.kiss_source.clone()).collect();
    assert_eq!(
        sources,
        [
            Some(KissSource::Lot),
            Some(KissSource::Ego),
            Some(KissSource::Ego),
            Some(KissSource::Ego),
            None
        ]
    );
    assert_eq!(st.successes(), 4);
    assert_eq!(st.ego_mode, EgoMode::RerollAll);
}

#[test]
fn ve1_k4b_ego_mode_ii_and_a_v12_every_six_strikes_two_beats_allies_included() {
    let set = settings(Edition::One);
    let mut c = table(&set);
    c.sheets.get_mut(&1).unwrap().ego = true;
    let st = offer(start(&set, &c, setup("Thief", 1, &[])), &mut c, 2, true);
    // Seed 14: roller 6, 4, 2 (Silver); Bo 6 (Gold).
    let (st, _) = roll(st, &mut c, 14);
    assert_eq!((faces(&st), st.successes()), (vec![6, 4, 2, 6], 3));
    let (st, _) = roll_kisses(st, &mut c, 0);
    let (st, ev) = go(
        st,
        &mut c,
        TaskAction::DeclareDoubleSixes { actor: ROLLER },
        0,
    );
    assert_eq!(st.successes(), 5);
    assert!(ev.contains(&TaskEvent::Count {
        successes: 5,
        threshold: 1
    }));
    assert!(!c.sheets[&1].ego);
    assert_eq!(st.die(4).unwrap().value(Edition::One, st.ego_mode), 2);
}

#[test]
fn ve1_k6_double_sixes_any_time_before_spending_reroll_only_in_the_kiss_round() {
    let set = settings(Edition::One);
    let mut c = table(&set);
    c.sheets.get_mut(&1).unwrap().ego = true;
    let (st, _) = roll(start(&set, &c, setup("Thief", 1, &[])), &mut c, 14);
    // During the KISS round: allowed, and then mode (i) is gone.
    let (k, _) = go(
        st.clone(),
        &mut c.clone(),
        TaskAction::DeclareDoubleSixes { actor: ROLLER },
        0,
    );
    assert_eq!(k.ego_mode, EgoMode::DoubleSixes);
    let mut c2 = c.clone();
    let k = go(
        st.clone(),
        &mut c2,
        TaskAction::DeclareDoubleSixes { actor: ROLLER },
        0,
    )
    .0;
    assert_eq!(
        fail(&k, &mut c2, TaskAction::DeclareEgoReroll { actor: ROLLER }),
        "Ego is spent once per task: only one Ego mode."
    );
    let (sp, _) = roll_kisses(st, &mut c, 0);
    assert_eq!(
        fail(&sp, &mut c, TaskAction::DeclareEgoReroll { actor: ROLLER }),
        "Ego re-rolls are declared during the KISS round."
    );
    let bought = buy(sp.clone(), &mut c, Purchase::Secondary(1));
    assert_eq!(
        fail(
            &bought,
            &mut c,
            TaskAction::DeclareDoubleSixes { actor: ROLLER }
        ),
        "Double 6s must be chosen before spending begins."
    );
    let sp = go(
        sp,
        &mut c,
        TaskAction::DeclareDoubleSixes { actor: ROLLER },
        0,
    )
    .0;
    assert_eq!(sp.successes(), 3);
}

#[test]
fn ve1_r2_ego_needed_and_spent_once() {
    let set = settings(Edition::One);
    let mut c = table(&set);
    let (st, _) = roll(start(&set, &c, setup("Thief", 1, &[])), &mut c, 0);
    assert_eq!(
        fail(&st, &mut c, TaskAction::DeclareEgoReroll { actor: ROLLER }),
        "Ada does not hold Ego."
    );
    assert_eq!(
        fail(
            &st,
            &mut c,
            TaskAction::DeclareDoubleSixes { actor: ROLLER }
        ),
        "Ada does not hold Ego."
    );
    c.sheets.get_mut(&1).unwrap().ego = true;
    let st = go(
        st,
        &mut c,
        TaskAction::DeclareEgoReroll { actor: ROLLER },
        0,
    )
    .0;
    let st = go(
        st,
        &mut c,
        TaskAction::WithdrawEgoReroll { actor: ROLLER },
        0,
    )
    .0;
    assert!(!st.ego_reroll_pending);
    assert!(
        fail(&st, &mut c, TaskAction::DeclareEgoReroll { actor: who(2) })
            .contains("Only the roller")
    );
}

#[test]
fn ve1_k4c_each_distinct_insight_kisses_one_die() {
    let set = settings(Edition::One);
    let mut c = table(&set);
    let (st, _) = roll(start(&set, &c, setup("Thief", 1, &[])), &mut c, 0);
    let ins = |t: &str| KissSource::Insight { insight: t.into() };
    let st = go(st, &mut c, kiss(1, 1, ins("The guard drinks")), 0).0;
    assert_eq!(
        fail(&st, &mut c, kiss(1, 2, ins("the guard DRINKS"))),
        "Each insight can KISS only one die per task."
    );
    let st = go(st, &mut c, kiss(1, 2, ins("The lock is old")), 0).0;
    assert_eq!(st.kisses.len(), 2);
    // Tracked: the insight must be on the sheet; a pre-approved one needs no approval.
    let mut set = set;
    set.set("ve_track_insights", "on").unwrap();
    set.set("ve_require_approval", "on").unwrap();
    let mut c = table(&set);
    let id = c
        .sheets
        .get_mut(&1)
        .unwrap()
        .add_insight("The guard drinks", true)
        .unwrap();
    c.sheets
        .get_mut(&1)
        .unwrap()
        .add_insight("Secret door", false)
        .unwrap();
    let (st, _) = roll(start(&set, &c, setup("Thief", 1, &[])), &mut c, 0);
    assert_eq!(
        fail(&st, &mut c, kiss(1, 1, ins("Made up"))),
        "That insight is not on Ada's sheet."
    );
    let st = go(st, &mut c, kiss(1, 1, ins(&format!("#{id}"))), 0).0;
    let st = go(st, &mut c, kiss(1, 2, ins("secret door")), 0).0;
    assert_eq!(st.kisses[0].source, ins("The guard drinks"));
    assert_eq!(
        (st.kisses[0].approved, st.kisses[1].approved),
        (true, false)
    );
    assert_eq!(
        fail(&st, &mut c, kiss(1, 3, ins("The guard drinks"))),
        "Each insight can KISS only one die per task."
    );
}

#[test]
fn ve1_k4c_k4e_the_names_left_to_kiss_with_are_those_not_yet_used_in_sheet_order() {
    let set = settings(Edition::One);
    let mut c = table(&set);
    let ada = c.sheets.get_mut(&1).unwrap();
    for (kind, text) in [
        (AttributeKind::Merit, "Keen nose"),
        (AttributeKind::Specialty, "Rope"),
        (AttributeKind::Discipline, "Stealth"),
        (AttributeKind::Asset, "rope"),
        (AttributeKind::Specialty, "Climb"),
        (AttributeKind::Feature, "Tall"),
    ] {
        ada.add_attribute(kind, text).unwrap();
    }
    ada.add_insight("The lock is old", false).unwrap();
    ada.add_insight("Guards drink", false).unwrap();
    let (st, _) = roll(start(&set, &c, setup("Thief", 1, &[])), &mut c, 0);
    let sp = KissSource::Specialty {
        attribute: "climb".into(),
    };
    let ins = KissSource::Insight {
        insight: "the lock is old".into(),
    };
    let st = go(
        go(st, &mut c, kiss(1, 1, sp), 0).0,
        &mut c,
        kiss(1, 2, ins),
        0,
    )
    .0;
    let ada = &c.sheets[&1];
    assert_eq!(
        st.unused_kiss_names(ada, 1, Named::Specialty),
        ["Rope", "Stealth", "Keen nose"]
    );
    assert_eq!(
        st.unused_kiss_names(ada, 1, Named::Insight),
        ["Guards drink"]
    );
    // Bo has KISSed with nothing: his sheet's names are all left.
    assert!(st
        .unused_kiss_names(ada, 2, Named::Specialty)
        .contains(&"Climb".to_string()));
}

/// VE1-K4c/K4e: a KISS paid by name names an attribute or an insight; a
/// Lot, a stunt and Ego name nothing.
#[test]
fn ve1_k4c_k4e_named_sources_are_attributes_or_insights() {
    for kind in Named::BOTH {
        let source = kind.source("Rope".into());
        assert_eq!(source.named(), Some((kind, "Rope")));
        assert!(source.needs_approval());
    }
    assert!(matches!(
        Named::Specialty.source("Rope".into()),
        KissSource::Specialty { .. }
    ));
    for other in [KissSource::Lot, KissSource::Stunt, KissSource::Ego] {
        assert_eq!(other.named(), None);
        assert!(!other.needs_approval());
    }
}

#[test]
fn ve1_k4d_one_stunt_per_character_allies_stunt_on_their_own_die() {
    let set = settings(Edition::One);
    let mut c = table(&set);
    let st = offer(start(&set, &c, setup("Thief", 1, &[])), &mut c, 2, true);
    let (st, _) = roll(st, &mut c, 0);
    let st = go(st, &mut c, kiss(1, 1, KissSource::Stunt), 0).0;
    assert_eq!(
        fail(&st, &mut c, kiss(1, 2, KissSource::Stunt)),
        "Each character can KISS only one die per task with a stunt."
    );
    assert_eq!(
        fail(&st, &mut c, kiss(2, 2, KissSource::Stunt)),
        "An ally can only KISS their own die."
    );
    let st = go(st, &mut c, kiss(2, 4, KissSource::Stunt), 0).0;
    // The GM may veto a stunt before the re-roll.
    let st = go(st, &mut c, TaskAction::VetoKiss { actor: GM, die: 1 }, 0).0;
    assert_eq!(st.kisses.len(), 1);
    assert!(fail(&st, &mut c, kiss(3, 3, KissSource::Stunt)).contains("accepted allies"));
}

#[test]
fn ve1_k4e_at_most_four_specialties_per_character() {
    let set = settings(Edition::One);
    let mut c = table(&set);
    c.sheets
        .get_mut(&1)
        .unwrap()
        .set_job_level("Thief", 6)
        .unwrap();
    let (mut st, _) = roll(start(&set, &c, setup("Thief", 1, &[])), &mut c, 0);
    let sp = |a: &str| KissSource::Specialty {
        attribute: a.into(),
    };
    for (die, a) in [
        (1, "Lockpicks"),
        (2, "Crowbar"),
        (3, "Night eyes"),
        (4, "Soft boots"),
    ] {
        st = go(st, &mut c, kiss(1, die, sp(a)), 0).0;
    }
    assert_eq!(
        fail(&st, &mut c, kiss(1, 5, sp("Rope"))),
        "At most 4 specialties per character can KISS dice in a task."
    );
    let st = go(
        st,
        &mut c,
        TaskAction::WithdrawKiss {
            actor: ROLLER,
            die: 4,
        },
        0,
    )
    .0;
    assert_eq!(
        fail(&st, &mut c, kiss(1, 5, sp("lockpicks"))),
        "That specialty has already KISSed a die in this task."
    );
}

#[test]
fn ve1_k5_and_a_v24_ally_dice_kissed_only_with_consent() {
    let set = settings(Edition::One);
    let mut c = table(&set);
    let st = offer(start(&set, &c, setup("Thief", 1, &[])), &mut c, 2, true);
    let (st, _) = roll(st, &mut c, 0);
    assert_eq!(st.kissable_dice(1), [1, 2, 3]);
    assert_eq!(
        fail(&st, &mut c, kiss(1, 4, KissSource::Lot)),
        "That die belongs to an ally: they must consent before you KISS it."
    );
    let yes = TaskAction::ConsentKiss {
        actor: who(2),
        ally: 2,
        consent: true,
    };
    assert!(fail(
        &st,
        &mut c,
        TaskAction::ConsentKiss {
            actor: ROLLER,
            ally: 2,
            consent: true
        }
    )
    .contains("Only the ally"));
    let st = go(st, &mut c, yes, 0).0;
    assert_eq!(st.kissable_dice(1), [1, 2, 3, 4]);
    let st = go(st, &mut c, kiss(1, 4, KissSource::Lot), 0).0;
    let no = TaskAction::ConsentKiss {
        actor: who(2),
        ally: 2,
        consent: false,
    };
    let (st, ev) = go(st, &mut c, no, 0);
    assert!(ev.contains(&TaskEvent::KissWithdrawn { die: 4, by: 1 }));
    assert!(st.kisses.is_empty());
}

#[test]
fn ve1_s1_primary_costs_the_threshold_and_succeeds() {
    let set = settings(Edition::One);
    let mut c = table(&set);
    let (st, _) = roll(start(&set, &c, setup("Thief", 1, &[1, 1])), &mut c, 0);
    let (st, _) = roll_kisses(st, &mut c, 0);
    assert_eq!((st.threshold, st.beats_left()), (3, 3));
    assert_eq!(st.cost_of(Purchase::Primary), 3);
    let (st, ev) = go(
        st,
        &mut c,
        TaskAction::Buy {
            actor: ROLLER,
            item: Purchase::Primary,
        },
        0,
    );
    assert_eq!(
        ev[0],
        TaskEvent::Bought {
            item: Purchase::Primary,
            cost: 3,
            beats_left: 0
        }
    );
    assert_eq!(
        fail(
            &st,
            &mut c,
            TaskAction::Buy {
                actor: ROLLER,
                item: Purchase::Secondary(1)
            }
        ),
        "That costs 1 beat and you have 0 left."
    );
    let (st, _) = finish(st, &mut c);
    let (st, ev) = skip_subversion(st, &mut c);
    let out = st.outcome.clone().unwrap();
    assert!(out.success && !out.declined_primary);
    assert_eq!(exp_events(&ev), []);
    assert_eq!(exp(&c, 1, "Thief"), (3, 0));
}

#[test]
fn ve1_s1_and_a_v14_declining_an_affordable_primary_fails_with_failure_exp() {
    let set = settings(Edition::One);
    let mut c = table(&set);
    let (st, _) = roll(start(&set, &c, setup("Thief", 1, &[])), &mut c, 0);
    let (st, _) = roll_kisses(st, &mut c, 0);
    let st = buy(st, &mut c, Purchase::Secondary(1));
    let st = buy(st, &mut c, Purchase::Tertiary(2));
    let (st, _) = finish(st, &mut c);
    let (st, ev) = skip_subversion(st, &mut c);
    let out = st.outcome.clone().unwrap();
    assert!(!out.success && out.declined_primary);
    assert_eq!(
        exp_events(&ev),
        [(1, ExpReason::Failure), (1, ExpReason::LearnedSomething)]
    );
    assert_eq!(exp(&c, 1, "Thief"), (3, 2));
}

#[test]
fn ve1_s2_s3_and_a_v13_consequences_once_each_unless_repeat_is_on() {
    let mut set = settings(Edition::One);
    let mut c = table(&set);
    let (st, _) = roll(start(&set, &c, setup("Thief", 1, &[])), &mut c, 0);
    let (st, _) = roll_kisses(st, &mut c, 0);
    let st = buy(st, &mut c, Purchase::Secondary(4));
    let st = buy(st, &mut c, Purchase::Tertiary(1));
    for item in [Purchase::Secondary(4), Purchase::Tertiary(1)] {
        assert_eq!(
            fail(
                &st,
                &mut c,
                TaskAction::Buy {
                    actor: ROLLER,
                    item
                }
            ),
            "Each consequence can be bought only once per task."
        );
    }
    for item in [Purchase::Secondary(5), Purchase::Tertiary(0)] {
        assert!(fail(
            &st,
            &mut c,
            TaskAction::Buy {
                actor: ROLLER,
                item
            }
        )
        .contains("numbered 1 to 4"));
    }
    assert_eq!(
        st.purchases[0].text,
        "S4: Nothing else is lost or broken by accident"
    );
    set.set("ve1_consequence_repeat", "on").unwrap();
    let mut c = table(&set);
    let (st, _) = roll(start(&set, &c, setup("Thief", 1, &[])), &mut c, 0);
    let (st, _) = roll_kisses(st, &mut c, 0);
    let st = buy(st, &mut c, Purchase::Tertiary(2));
    let st = buy(st, &mut c, Purchase::Tertiary(2));
    let st = buy(st, &mut c, Purchase::Primary);
    assert_eq!(
        fail(
            &st,
            &mut c,
            TaskAction::Buy {
                actor: ROLLER,
                item: Purchase::Primary
            }
        ),
        "Each consequence can be bought only once per task."
    );
    let (st, _) = finish(st, &mut c);
    let (_, ev) = skip_subversion(st, &mut c);
    assert_eq!(
        exp_events(&ev),
        [
            (1, ExpReason::LearnedSomething),
            (1, ExpReason::LearnedSomething)
        ]
    );
}

#[test]
fn ve1_s4_and_ve1_t6_leftover_beats_are_lost_and_refunds_before_finishing() {
    let set = settings(Edition::One);
    let mut c = table(&set);
    let (st, _) = roll(start(&set, &c, setup("Thief", 1, &[])), &mut c, 0);
    let (st, _) = roll_kisses(st, &mut c, 0);
    let st = buy(st, &mut c, Purchase::Secondary(2));
    let (st, ev) = go(
        st,
        &mut c,
        TaskAction::Refund {
            actor: ROLLER,
            item: Purchase::Secondary(2),
        },
        0,
    );
    assert_eq!(
        ev[0],
        TaskEvent::Refunded {
            item: Purchase::Secondary(2),
            beats_left: 3
        }
    );
    let st = buy(st, &mut c, Purchase::Primary);
    assert_eq!(st.buyable(&c).len(), 8);
    let (st, ev) = finish(st, &mut c);
    assert!(ev.contains(&TaskEvent::SpendingFinished { beats_lost: 2 }));
    assert_eq!(st.phase(), TaskPhase::GmSubversion);
}

#[test]
fn ve1_s5_ve1_t7_and_a_v15_gm_subverts_one_unbought_secondary() {
    let set = settings(Edition::One);
    let mut c = table(&set);
    let (st, _) = roll(start(&set, &c, setup("Thief", 1, &[])), &mut c, 0);
    let (st, _) = roll_kisses(st, &mut c, 0);
    let st = buy(st, &mut c, Purchase::Secondary(1));
    let (st, _) = finish(st, &mut c);
    assert_eq!(st.subvertible(), [2, 3, 4]);
    let sub = |n| TaskAction::Subvert {
        actor: GM,
        secondary: n,
    };
    assert_eq!(
        fail(&st, &mut c, sub(1)),
        "Only a secondary consequence the roller did not buy can be subverted."
    );
    assert_eq!(
        fail(
            &st,
            &mut c,
            TaskAction::Subvert {
                actor: ROLLER,
                secondary: 2
            }
        ),
        "Only the GM can do that."
    );
    let (st, ev) = go(st, &mut c, sub(3), 0);
    assert!(ev.contains(&TaskEvent::Subverted { secondary: 3 }));
    assert_eq!((st.subversion, st.phase()), (Some(3), TaskPhase::Closed));
    // All four bought: nothing left to subvert, the task closes at once.
    let mut c = table(&set);
    c.sheets
        .get_mut(&1)
        .unwrap()
        .set_job_level("Thief", 4)
        .unwrap();
    let (st, _) = roll(start(&set, &c, setup("Thief", 1, &[])), &mut c, 0);
    let (mut st, _) = roll_kisses(st, &mut c, 0);
    assert_eq!(faces(&st), [5, 5, 4, 5]);
    for n in 1..=4 {
        st = buy(st, &mut c, Purchase::Secondary(n));
    }
    let (st, _) = finish(st, &mut c);
    assert_eq!(st.phase(), TaskPhase::Closed);
}

#[test]
fn ve1_s6_custom_one_beat_consequences_from_the_sheet() {
    let set = settings(Edition::One);
    let mut c = table(&set);
    c.sheets
        .get_mut(&1)
        .unwrap()
        .add_custom_consequence("My cloak stays clean")
        .unwrap();
    let (st, _) = roll(start(&set, &c, setup("Thief", 1, &[])), &mut c, 0);
    let (st, _) = roll_kisses(st, &mut c, 0);
    assert!(st.buyable(&c).contains(&Purchase::Custom(0)));
    let st = buy(st, &mut c, Purchase::Custom(0));
    assert_eq!(
        (st.purchases[0].cost, st.purchases[0].text.as_str()),
        (1, "Special: My cloak stays clean")
    );
    assert!(fail(
        &st,
        &mut c,
        TaskAction::Buy {
            actor: ROLLER,
            item: Purchase::Custom(1)
        }
    )
    .contains("no custom consequence"));
}

#[test]
fn ve1_s3_t2_and_a_v16_learned_something_goes_to_the_job_used() {
    let set = settings(Edition::One);
    let mut c = table(&set);
    let (st, _) = roll(start(&set, &c, setup("Thief", 1, &[])), &mut c, 0);
    let (st, _) = roll_kisses(st, &mut c, 0);
    let st = buy(st, &mut c, Purchase::Primary);
    let st = buy(st, &mut c, Purchase::Tertiary(2));
    let (st, _) = finish(st, &mut c);
    let (_, ev) = skip_subversion(st, &mut c);
    assert_eq!(exp_events(&ev), [(1, ExpReason::LearnedSomething)]);
    assert_eq!(
        (exp(&c, 1, "Thief"), exp(&c, 1, "Scholar")),
        ((3, 1), (1, 0))
    );
}

#[test]
fn ve1_s3_t3_and_ve1_r1_true_intentions_gains_a_lot_with_overflow() {
    let set = settings(Edition::One);
    let mut c = table(&set);
    c.sheets.get_mut(&1).unwrap().lots = 4;
    let (st, _) = roll(start(&set, &c, setup("Thief", 1, &[])), &mut c, 0);
    let (st, _) = roll_kisses(st, &mut c, 0);
    let st = buy(st, &mut c, Purchase::Tertiary(3));
    let (st, _) = finish(st, &mut c);
    let (_, ev) = skip_subversion(st, &mut c);
    assert!(ev.contains(&TaskEvent::Sheet {
        who: 1,
        event: SheetEvent::LotGained { lots_now: 5 }
    }));
    // At the cap, the Lot becomes +1 exp in the job of the roller's choice.
    let mut c = table(&set);
    let (st, _) = roll(start(&set, &c, setup("Thief", 1, &[])), &mut c, 0);
    let (st, _) = roll_kisses(st, &mut c, 0);
    let st = buy(st, &mut c, Purchase::Primary);
    let st = buy(st, &mut c, Purchase::Tertiary(3));
    let bad = TaskAction::FinishSpending {
        actor: ROLLER,
        overflow_job: Some("Baker".into()),
    };
    assert_eq!(
        fail(&st, &mut c, bad),
        "Ada has no job called Baker. Its jobs: Thief and Scholar; add one with `/ve sheet job`."
    );
    let fin = TaskAction::FinishSpending {
        actor: ROLLER,
        overflow_job: Some("scholar".into()),
    };
    let (st, _) = go(st, &mut c, fin, 0);
    let (st, ev) = skip_subversion(st, &mut c);
    assert!(ev.contains(&TaskEvent::Sheet {
        who: 1,
        event: SheetEvent::LotOverflowToExp {
            job: "Scholar".into()
        }
    }));
    // Scholar at level 1 reaches 2 × 1 exp? No: 1 exp < 2.
    assert_eq!((c.sheets[&1].lots, exp(&c, 1, "Scholar")), (10, (1, 1)));
    assert_eq!(st.close_changes.len(), 2);
}

#[test]
fn ve1_r1_a_v7_the_jobs_that_may_take_a_lot_over_ten() {
    let mut set = settings(Edition::One);
    let mut c = table(&set);
    c.sheets.get_mut(&1).unwrap().lots = 4;
    let spending = |c: &mut VenusCtx, set: &VenusSettings, t3: bool| {
        let (st, _) = roll(start(set, c, setup("Thief", 1, &[])), c, 0);
        let (st, _) = roll_kisses(st, c, 0);
        if t3 {
            buy(st, c, Purchase::Tertiary(3))
        } else {
            st
        }
    };
    // Below the cap, or no T3 bought: no Lot passes 10.
    assert!(spending(&mut c, &set, true).overflow_jobs(&c).is_empty());
    let mut c = table(&set);
    assert!(spending(&mut c, &set, false).overflow_jobs(&c).is_empty());
    // At the cap: the job used first, then the others in sheet order.
    let st = spending(&mut c, &set, true);
    assert_eq!(st.overflow_jobs(&c), ["Thief", "Scholar"]);
    set.set("ve_lot_overflow", "discard").unwrap();
    let mut c = table(&set);
    assert!(spending(&mut c, &set, true).overflow_jobs(&c).is_empty());
}

#[test]
fn ve1_t3_allies_mark_exp_whatever_the_outcome() {
    let set = settings(Edition::One);
    let mut c = table(&set);
    let st = offer(start(&set, &c, setup("Thief", 1, &[])), &mut c, 2, true);
    let (st, _) = roll(st, &mut c, 0);
    let (st, _) = roll_kisses(st, &mut c, 0);
    let st = buy(st, &mut c, Purchase::Primary);
    let (st, _) = finish(st, &mut c);
    let (st, ev) = skip_subversion(st, &mut c);
    assert!(st.outcome.unwrap().success);
    assert_eq!(exp_events(&ev), [(2, ExpReason::AllyAid)]);
    assert_eq!(exp(&c, 2, "Thief"), (2, 1));
}

#[test]
fn ve1_t8_close_applies_exp_and_lots_in_order_then_level_ups() {
    let set = settings(Edition::One);
    let mut c = table(&set);
    {
        let s = c.sheets.get_mut(&1).unwrap();
        s.start_learning("Acrobat", &["Finesse".into(), "Wits".into()])
            .unwrap();
        s.set_job_exp("Acrobat", 13).unwrap();
        c.sheets
            .get_mut(&2)
            .unwrap()
            .set_job_exp("Thief", 3)
            .unwrap();
    }
    let st = start(&set, &c, setup("Acrobat", 1, &[]));
    assert_eq!((st.pool, st.threshold), (4, 2));
    let st = offer(st, &mut c, 2, true);
    // Seed 0: roller 5, 5, 4, 5 (Silver), Bo 5 (Gold): 5 beats.
    let (st, _) = roll(st, &mut c, 0);
    assert_eq!((faces(&st), st.successes()), (vec![5, 5, 4, 5, 5], 5));
    let (st, _) = roll_kisses(st, &mut c, 0);
    let st = buy(st, &mut c, Purchase::Tertiary(2));
    let st = buy(st, &mut c, Purchase::Tertiary(3));
    let (st, _) = finish(st, &mut c);
    let (st, ev) = skip_subversion(st, &mut c);
    assert!(st.outcome.clone().unwrap().declined_primary);
    let order: Vec<(i64, ExpReason)> = exp_events(&ev);
    assert_eq!(
        order,
        [
            (1, ExpReason::Failure),
            (1, ExpReason::Learning),
            (1, ExpReason::LearnedSomething),
            (2, ExpReason::AllyAid),
            (1, ExpReason::LotOverflow)
        ]
    );
    // Acrobat: 13 + 4 = 17 ≥ 16 → level = lower of Finesse 4 and Wits 2.
    assert!(ev.contains(&TaskEvent::Sheet {
        who: 1,
        event: SheetEvent::LearningFinished {
            job: "Acrobat".into(),
            level: 2
        }
    }));
    assert!(ev.contains(&TaskEvent::Sheet {
        who: 2,
        event: SheetEvent::LevelUp {
            job: "Thief".into(),
            from: 2,
            to: 3
        }
    }));
    assert_eq!(
        (exp(&c, 1, "Acrobat"), exp(&c, 2, "Thief")),
        ((2, 0), (3, 0))
    );
    assert!(!c.sheets[&1].job("Acrobat").unwrap().learning);
}

#[test]
fn ve1_l1_learning_a_new_job_adds_it_at_level_zero_when_the_task_closes() {
    let set = settings(Edition::One);
    let mut c = table(&set);
    let mut s = setup("Sailor", 1, &[]);
    s.learn_inherits = Some(vec!["Finesse".into()]);
    let st = start(&set, &c, s.clone());
    assert_eq!((st.learning, st.pool, st.threshold), (true, 4, 2));
    assert!(c.sheets[&1].job("Sailor").is_none());
    // Voided: the job is not added.
    let v = go(st.clone(), &mut c, TaskAction::Void { actor: GM }, 0).0;
    assert_eq!(v.close_kind, Some(CloseKind::Voided));
    assert!(c.sheets[&1].job("Sailor").is_none());
    let (st, _) = roll(st, &mut c, 7);
    let (st, _) = roll_kisses(st, &mut c, 0);
    let (st, _) = finish(st, &mut c);
    let (_, ev) = skip_subversion(st, &mut c);
    assert!(ev.contains(&TaskEvent::Sheet {
        who: 1,
        event: SheetEvent::JobStarted {
            job: "Sailor".into()
        }
    }));
    let j = c.sheets[&1].job("Sailor").unwrap();
    assert_eq!((j.level, j.exp, j.learning), (0, 2, true));
    let mut bad = s.clone();
    bad.job = "Pilot".into();
    bad.learn_inherits = Some(vec!["Wits".into()]);
    assert!(TaskState::new(bad, &set, &c)
        .unwrap_err()
        .message
        .contains("must inherit Finesse"));
    let mut dup = s;
    dup.job = "Thief".into();
    assert!(TaskState::new(dup, &set, &c)
        .unwrap_err()
        .message
        .contains("already has"));
}

#[test]
fn ve1_l2_level_zero_job_rolls_the_score_cannot_aid_and_adds_a_factor() {
    let set = settings(Edition::One);
    let mut c = table(&set);
    c.sheets
        .get_mut(&1)
        .unwrap()
        .start_learning("Acrobat", &["Finesse".into()])
        .unwrap();
    c.sheets
        .get_mut(&2)
        .unwrap()
        .start_learning("Acrobat", &["Finesse".into()])
        .unwrap();
    let st = start(&set, &c, setup("Acrobat", 1, &[]));
    assert_eq!((st.pool, st.threshold), (4, 2));
    let a = TaskAction::OfferAid {
        actor: who(2),
        ally: 2,
        job: "Acrobat".into(),
        demand: None,
    };
    assert_eq!(
        fail(&st, &mut c, a),
        "A job still being learned (level 0) cannot aid."
    );
}

#[test]
fn ve1_l3_learning_exp_every_task_even_on_success() {
    let set = settings(Edition::One);
    let mut c = table(&set);
    c.sheets
        .get_mut(&1)
        .unwrap()
        .start_learning("Acrobat", &["Finesse".into()])
        .unwrap();
    let (st, _) = roll(start(&set, &c, setup("Acrobat", 1, &[])), &mut c, 0);
    let (st, _) = roll_kisses(st, &mut c, 0);
    let st = buy(st, &mut c, Purchase::Primary);
    let (st, _) = finish(st, &mut c);
    let (_, ev) = skip_subversion(st, &mut c);
    assert_eq!(exp_events(&ev), [(1, ExpReason::Learning)]);
}

#[test]
fn ve1_l3_and_a_v32_unmet_qualifications_earn_no_exp_from_any_source() {
    let set = settings(Edition::One);
    let mut c = table(&set);
    let s = c.sheets.get_mut(&1).unwrap();
    s.start_learning("Acrobat", &["Finesse".into()]).unwrap();
    s.set_qualifications_met("Acrobat", false).unwrap();
    let (st, _) = roll(start(&set, &c, setup("Acrobat", 1, &[])), &mut c, 0);
    let (st, _) = roll_kisses(st, &mut c, 0);
    let st = buy(st, &mut c, Purchase::Tertiary(2));
    let (st, _) = finish(st, &mut c);
    let (_, ev) = skip_subversion(st, &mut c);
    let blocked = ev
        .iter()
        .filter(|e| {
            matches!(
                e,
                TaskEvent::Sheet {
                    event: SheetEvent::ExpBlocked { .. },
                    ..
                }
            )
        })
        .count();
    assert_eq!((blocked, exp_events(&ev).len()), (3, 0));
    assert_eq!(exp(&c, 1, "Acrobat"), (0, 0));
}

#[test]
fn ve1_l4_learning_finishes_at_sixteen_exp_in_a_task() {
    let set = settings(Edition::One);
    let mut c = table(&set);
    let s = c.sheets.get_mut(&1).unwrap();
    s.start_learning("Acrobat", &["Finesse".into()]).unwrap();
    s.set_job_exp("Acrobat", 15).unwrap();
    let (st, _) = roll(start(&set, &c, setup("Acrobat", 1, &[])), &mut c, 0);
    let (st, _) = roll_kisses(st, &mut c, 0);
    let st = buy(st, &mut c, Purchase::Primary);
    let (st, _) = finish(st, &mut c);
    skip_subversion(st, &mut c);
    assert_eq!(exp(&c, 1, "Acrobat"), (4, 0));
}

#[test]
fn ve1_l5_and_a_v5_level_up_rule_after_the_task() {
    let mut set = settings(Edition::One);
    let mut c = table(&set);
    c.sheets
        .get_mut(&1)
        .unwrap()
        .set_job_exp("Thief", 5)
        .unwrap();
    let (st, _) = roll(start(&set, &c, setup("Thief", 1, &[])), &mut c, 0);
    let (st, _) = roll_kisses(st, &mut c, 0);
    let (st, _) = finish(st, &mut c);
    let (_, ev) = skip_subversion(st, &mut c);
    assert!(ev.contains(&TaskEvent::Sheet {
        who: 1,
        event: SheetEvent::LevelUp {
            job: "Thief".into(),
            from: 3,
            to: 4
        }
    }));
    set.set("ve1_levelup_rule", "manual").unwrap();
    let mut c = table(&set);
    c.sheets
        .get_mut(&1)
        .unwrap()
        .set_job_exp("Thief", 5)
        .unwrap();
    let (st, _) = roll(start(&set, &c, setup("Thief", 1, &[])), &mut c, 0);
    let (st, _) = roll_kisses(st, &mut c, 0);
    let (st, _) = finish(st, &mut c);
    skip_subversion(st, &mut c);
    assert_eq!(exp(&c, 1, "Thief"), (3, 6));
}

#[test]
fn ve1_r1_spent_lots_come_from_the_sheet_and_t3_refills() {
    let set = settings(Edition::One);
    let mut c = table(&set);
    c.sheets.get_mut(&1).unwrap().lots = 2;
    let (st, _) = roll(start(&set, &c, setup("Thief", 1, &[])), &mut c, 0);
    let st = go(st, &mut c, kiss(1, 3, KissSource::Lot), 0).0;
    let (st, _) = roll_kisses(st, &mut c, 0);
    assert_eq!(c.sheets[&1].lots, 1);
    let st = buy(st, &mut c, Purchase::Tertiary(3));
    let (st, _) = finish(st, &mut c);
    skip_subversion(st, &mut c);
    assert_eq!(c.sheets[&1].lots, 2);
}

#[test]
fn a_v10_ally_die_uses_the_ally_rank_in_the_chosen_ability_gm_may_override() {
    let set = settings(Edition::One);
    let mut c = table(&set);
    let st = offer(start(&set, &c, setup("Thief", 1, &[])), &mut c, 4, true);
    assert_eq!(st.allies[0].rank, Rank::Platinum);
    let o = TaskAction::OverrideAllyRank {
        actor: GM,
        ally: 4,
        rank: Rank::Bronze,
    };
    assert_eq!(
        fail(
            &st,
            &mut c,
            TaskAction::OverrideAllyRank {
                actor: ROLLER,
                ally: 4,
                rank: Rank::Bronze
            }
        ),
        "Only the GM can do that."
    );
    let st = go(st, &mut c, o, 0).0;
    let (st, _) = roll(st, &mut c, 0);
    assert_eq!(
        st.die(4).map(|d| (d.owner, d.rank, d.face)),
        Some((4, Rank::Bronze, 5))
    );
}

#[test]
fn a_v10_a_v19_a_task_adjusted_before_the_roll_keeps_the_standing_offers_and_the_gm_flags() {
    let set = settings(Edition::Two);
    let mut c = table(&set);
    let mut first = setup("Thief", 2, &[]);
    first.actor = GM;
    first.magic = true;
    let st = offer(start(&set, &c, first.clone()), &mut c, 2, true);
    let with_demand = TaskAction::OfferAid {
        actor: who(3),
        ally: 3,
        job: "Thief".into(),
        demand: Some("Owe me one".into()),
    };
    let st = go(st, &mut c, with_demand, 0).0;
    let st = offer(st, &mut c, 4, true);
    let gone = TaskAction::WithdrawAid {
        actor: who(4),
        ally: 4,
    };
    let st = go(st, &mut c, gone, 0).0;
    let bronze = TaskAction::OverrideAllyRank {
        actor: GM,
        ally: 2,
        rank: Rank::Bronze,
    };
    let magical = TaskAction::FlagAllyMagic {
        actor: GM,
        ally: 2,
        magic: true,
    };
    let st = go(go(st, &mut c, bronze, 0).0, &mut c, magical, 0).0;
    let allies = |t: &TaskState| -> Vec<(i64, AidStatus, Rank, bool, bool, Option<String>)> {
        t.allies
            .iter()
            .map(|a| {
                (
                    a.id,
                    a.status,
                    a.rank,
                    a.rank_overridden,
                    a.magic,
                    a.demand.clone(),
                )
            })
            .collect()
    };
    let harder = TaskSetup {
        difficulty: 3,
        ..first.clone()
    };
    let re = st.rebuilt(harder, &set, &c).unwrap();
    assert_eq!((st.threshold, re.threshold), (2, 3));
    assert_eq!(
        allies(&re),
        [
            (2, AidStatus::Accepted, Rank::Bronze, true, true, None),
            (
                3,
                AidStatus::Offered,
                Rank::Bronze,
                false,
                false,
                Some("Owe me one".into())
            ),
        ]
    );
    // No longer magic: the ally's magical die goes, the rest stays.
    let plain = TaskSetup {
        magic: false,
        ..first.clone()
    };
    let re = st.rebuilt(plain, &set, &c).unwrap();
    assert_eq!(
        allies(&re)[0],
        (2, AidStatus::Accepted, Rank::Bronze, true, false, None)
    );
    let (rolled, _) = roll(start(&set, &c, first.clone()), &mut c, 0);
    assert_eq!(
        rolled.rebuilt(first, &set, &c).unwrap_err().message,
        "The dice are already thrown."
    );
}

#[test]
fn ve2_t3_standing_and_pending_offers_and_the_jobs_that_may_aid() {
    let set = settings(Edition::Two);
    let mut c = table(&set);
    c.sheets
        .get_mut(&5)
        .unwrap()
        .start_learning("Acrobat", &["Finesse".into()])
        .unwrap();
    assert_eq!(c.sheets[&5].aid_jobs("Finesse"), [("Thief".to_string(), 1)]);
    assert_eq!(
        c.sheets[&2].aid_jobs("Wits"),
        [("Scholar".to_string(), 1), ("Thief".to_string(), 2)]
    );
    let st = offer(start(&set, &c, setup("Thief", 2, &[])), &mut c, 2, true);
    let pending = TaskAction::OfferAid {
        actor: who(3),
        ally: 3,
        job: "Thief".into(),
        demand: None,
    };
    let st = go(st, &mut c, pending, 0).0;
    let st = offer(st, &mut c, 4, false);
    let ids = |it: &mut dyn Iterator<Item = &Ally>| it.map(|a| a.id).collect::<Vec<_>>();
    assert_eq!(ids(&mut st.standing_allies()), [2, 3]);
    assert_eq!(ids(&mut st.pending_allies()), [3]);
    assert!(AidStatus::Offered.standing() && AidStatus::Accepted.standing());
    assert!(!AidStatus::Refused.standing() && !AidStatus::Withdrawn.standing());
}

#[test]
fn ve2_t8_ego_would_count_every_ten_twice() {
    let set = settings(Edition::Two);
    let mut c = table(&set);
    let (mut st, _) = roll(start(&set, &c, setup("Thief", 2, &[])), &mut c, 0);
    for (d, face) in st.dice.iter_mut().zip([10, 10, 3]) {
        d.face = face;
    }
    st.dice.truncate(3);
    assert_eq!(st.successes(), 2);
    assert_eq!(st.successes_under(EgoMode::TensDouble), 4);
    assert_eq!(st.successes_under(EgoMode::None), 2);
}

#[test]
fn a_v26_zero_dice_pool_fails_without_kiss_or_ego_but_learning_exp_applies() {
    let set = settings(Edition::One);
    let mut c = table(&set);
    let s = c.sheets.get_mut(&1).unwrap();
    s.set_ability("Finesse", Rank::Silver, 0, &set).unwrap();
    s.start_learning("Acrobat", &["Finesse".into()]).unwrap();
    s.ego = true;
    let (st, ev) = roll(start(&set, &c, setup("Acrobat", 1, &[])), &mut c, 0);
    assert!(st.dice.is_empty());
    assert_eq!(st.phase(), TaskPhase::GmSubversion);
    assert!(ev.contains(&TaskEvent::SpendingFinished { beats_lost: 0 }));
    let (st, ev) = skip_subversion(st, &mut c);
    assert!(!st.outcome.unwrap().success);
    assert_eq!(
        exp_events(&ev),
        [(1, ExpReason::Failure), (1, ExpReason::Learning)]
    );
    // Edition 2: level 0 + score 0 closes at once as a failure.
    let set = settings(Edition::Two);
    let mut c = table(&set);
    let s = c.sheets.get_mut(&1).unwrap();
    s.set_ability("Finesse", Rank::Silver, 0, &set).unwrap();
    s.start_learning("Acrobat", &["Finesse".into()]).unwrap();
    s.ego = true;
    let (st, ev) = roll(start(&set, &c, setup("Acrobat", 1, &[])), &mut c, 0);
    assert_eq!(st.phase(), TaskPhase::Closed);
    assert!(c.sheets[&1].ego, "no Ego was offered or spent");
    assert_eq!(
        exp_events(&ev),
        [(1, ExpReason::Failure), (1, ExpReason::Learning)]
    );
}

#[test]
fn ve1_explosions_are_a_house_rule_off_by_default() {
    let mut set = settings(Edition::One);
    let mut c = table(&set);
    let s = magic(setup("Thief", 1, &[]));
    let e = TaskState::new(s.clone(), &set, &c).unwrap_err();
    assert!(e.message.contains("ve1_explosions"), "{}", e.message);
    set.ve1_explosions = true;
    let mut seen_six = false;
    for seed in 0..20 {
        let st = start(&set, &c, s.clone());
        let (st, _) = roll(st, &mut c, seed);
        // Every 6 the roller throws adds a die of the same rank (VE1 note).
        for d in st.dice.iter().filter(|d| d.face == 6) {
            seen_six = true;
            assert!(
                st.dice.iter().any(|x| x.exploded_from == Some(d.id)),
                "seed {seed}: a 6 did not explode"
            );
        }
        for d in st.dice.iter().filter(|d| d.face != 6) {
            assert!(!st.dice.iter().any(|x| x.exploded_from == Some(d.id)));
        }
        assert_eq!(st.dice.len() as u32, st.pool + st.generated_dice);
    }
    assert!(seen_six);
}

// ---------------------------------------------------------------- edition 2

fn magic(mut s: TaskSetup) -> TaskSetup {
    s.magic = true;
    s
}

fn crit(mut s: TaskSetup) -> TaskSetup {
    s.crits = true;
    s
}

/// Roller with Finesse Silver 1 and Thief 1: a 2-die VE2 pool.
fn small_roller(set: &VenusSettings, c: &mut VenusCtx) {
    let s = c.sheets.get_mut(&1).unwrap();
    s.set_ability("Finesse", Rank::Silver, 1, set).unwrap();
    s.set_job_level("Thief", 1).unwrap();
}

#[test]
fn ve2_t1_and_a_v2_pool_is_level_plus_score_d10s() {
    let set = settings(Edition::Two);
    let mut c = table(&set);
    let st = start(&set, &c, setup("Thief", 4, &[2, 2, 2, 2]));
    assert_eq!((st.pool, st.rank), (7, Rank::Silver));
    let (st, _) = roll(st, &mut c, 0);
    // Seed 0, D10: 9, 8, 6, 8, 9, 1, 7.
    assert_eq!(faces(&st), [9, 8, 6, 8, 9, 1, 7]);
    assert_eq!(st.phase(), TaskPhase::KissDeclaration);
}

#[test]
fn ve2_t2_threshold_is_difficulty_plus_one_or_two_factors_1_to_12() {
    let set = settings(Edition::Two);
    let c = table(&set);
    assert_eq!(start(&set, &c, setup("Thief", 1, &[])).threshold, 1);
    assert_eq!(
        start(&set, &c, setup("Thief", 4, &[2, 2, 2, 2])).threshold,
        12
    );
    assert_eq!(start(&set, &c, setup("Thief", 2, &[1, 2])).threshold, 5);
    for bad in [
        setup("Thief", 0, &[]),
        setup("Thief", 5, &[]),
        setup("Thief", 1, &[3]),
        setup("Thief", 1, &[1; 5]),
    ] {
        assert!(TaskState::new(bad, &set, &c).is_err());
    }
}

#[test]
fn ve2_t3_up_to_three_allies_one_die_each_at_their_rank() {
    let set = settings(Edition::Two);
    let mut c = table(&set);
    let mut st = start(&set, &c, setup("Thief", 4, &[2, 2, 2, 2]));
    for ally in [2, 3, 4] {
        st = offer(st, &mut c, ally, true);
    }
    let fourth = TaskAction::OfferAid {
        actor: who(5),
        ally: 5,
        job: "Thief".into(),
        demand: None,
    };
    assert_eq!(
        fail(&st, &mut c, fourth),
        "At most 3 allies may aid a task in edition 2."
    );
    let (st, _) = roll(st, &mut c, 0);
    let tail: Vec<(i64, Rank, u32)> = st.dice[7..]
        .iter()
        .map(|d| (d.owner, d.rank, d.face))
        .collect();
    // Seed 0 continues 6, 9, 3 after the roller's seven dice.
    assert_eq!(
        tail,
        [
            (2, Rank::Gold, 6),
            (3, Rank::Bronze, 9),
            (4, Rank::Platinum, 3)
        ]
    );
}

#[test]
fn ve2_t4_passes_by_rank_minimum() {
    let set = settings(Edition::Two);
    for (rank, passes) in [
        (Rank::Bronze, 5),
        (Rank::Silver, 6),
        (Rank::Gold, 6),
        (Rank::Platinum, 6),
    ] {
        let mut c = table(&set);
        c.sheets
            .get_mut(&1)
            .unwrap()
            .set_ability("Finesse", rank, 4, &set)
            .unwrap();
        let (st, _) = roll(start(&set, &c, setup("Thief", 4, &[2, 2, 2, 2])), &mut c, 0);
        assert_eq!(faces(&st), [9, 8, 6, 8, 9, 1, 7]);
        assert_eq!(st.successes(), passes, "{rank}");
    }
}

#[test]
fn ve2_t5_tens_explode_on_magic_tasks_without_limit() {
    let set = settings(Edition::Two);
    let mut c = table(&set);
    let (plain, _) = roll(
        start(&set, &c, setup("Thief", 4, &[2, 2, 2, 2])),
        &mut c,
        12,
    );
    // Seed 12: 5, 5, 7, 6, 10, 10, 6: no explosion without the magic flag.
    assert_eq!(
        (faces(&plain), plain.successes()),
        (vec![5, 5, 7, 6, 10, 10, 6], 5)
    );
    let (st, ev) = roll(
        start(&set, &c, magic(setup("Thief", 4, &[2, 2, 2, 2]))),
        &mut c,
        12,
    );
    // Die 5's 10 adds die 8 (10), which adds die 9 (9); die 6's 10 adds die 10 (2).
    let added: Vec<(u32, u32, u32)> = ev
        .iter()
        .filter_map(|e| match e {
            TaskEvent::Exploded { from, die } => Some((*from, die.id, die.face)),
            _ => None,
        })
        .collect();
    assert_eq!(added, [(5, 8, 10), (8, 9, 9), (6, 10, 2)]);
    assert_eq!(st.die(9).unwrap().exploded_from, Some(8));
    assert_eq!(
        st.die(9).map(|d| (d.owner, d.rank)),
        Some((1, Rank::Silver))
    );
    assert_eq!(st.successes(), 7);
    assert_eq!(st.generated_dice, 3);
    let s1 = settings(Edition::One);
    let e = TaskState::new(magic(setup("Thief", 1, &[])), &s1, &table(&s1)).unwrap_err();
    assert_eq!(
        e.message,
        "Exploding dice are not part of edition 1's core rules (the house rule `ve1_explosions` allows them)."
    );
}

#[test]
fn a_v19_explode_scope_roller_only_by_default_gm_may_flag_an_ally_die() {
    let mut set = settings(Edition::Two);
    let run = |set: &VenusSettings, flag: bool| {
        let mut c = table(set);
        small_roller(set, &mut c);
        let mut st = offer(
            start(set, &c, magic(setup("Thief", 4, &[2, 2, 2, 2]))),
            &mut c,
            2,
            true,
        );
        if flag {
            let f = TaskAction::FlagAllyMagic {
                actor: GM,
                ally: 2,
                magic: true,
            };
            st = go(st, &mut c, f, 0).0;
        }
        // Seed 22: roller 10, 1; Bo 10; then 5, 4.
        roll(st, &mut c, 22).0
    };
    let st = run(&set, false);
    assert_eq!(faces(&st), [10, 1, 10, 5]);
    assert_eq!(st.die(4).unwrap().exploded_from, Some(1));
    let st = run(&set, true);
    assert_eq!(faces(&st), [10, 1, 10, 5, 4]);
    assert_eq!(
        st.die(5).map(|d| (d.owner, d.exploded_from)),
        Some((2, Some(3)))
    );
    set.set("ve2_explode_scope", "all_dice").unwrap();
    assert_eq!(faces(&run(&set, false)), [10, 1, 10, 5, 4]);
}

#[test]
fn ve2_t6_and_a_v21_early_success_skips_kiss_and_ego() {
    let set = settings(Edition::Two);
    let mut c = table(&set);
    c.sheets.get_mut(&1).unwrap().ego = true;
    let (st, ev) = roll(start(&set, &c, setup("Thief", 4, &[])), &mut c, 0);
    assert!(ev.contains(&TaskEvent::EarlySuccess));
    assert_eq!(st.phase(), TaskPhase::Closed);
    assert!(st.outcome.clone().unwrap().success);
    assert!(c.sheets[&1].ego);
    assert_eq!(exp_events(&ev), []);
    // ve2_kiss_when_succeeding: a crit-flagged task may still KISS.
    let mut set = set;
    set.set("ve2_kiss_when_succeeding", "on").unwrap();
    let mut c = table(&set);
    let (st, _) = roll(start(&set, &c, setup("Thief", 4, &[])), &mut c, 0);
    assert_eq!(
        st.phase(),
        TaskPhase::Closed,
        "no crit flag: early success as usual"
    );
    let (st, _) = roll(start(&set, &c, crit(setup("Thief", 4, &[]))), &mut c, 0);
    assert_eq!(st.phase(), TaskPhase::KissDeclaration);
    let st = go(st, &mut c, kiss(1, 6, KissSource::Stunt), 0).0;
    let (st, _) = roll_kisses(st, &mut c, 1);
    // Seed 1 re-roll: 9 → 7 passes, 175%.
    assert_eq!(st.die(6).unwrap().face, 9);
    let out = st.outcome.unwrap();
    assert_eq!(
        (out.success, out.successes, out.margin_percent),
        (true, 7, Some(175))
    );
}

#[test]
fn ve2_t7_and_ve2_k1_one_kiss_round_only_while_short() {
    let set = settings(Edition::Two);
    let mut c = table(&set);
    let (st, _) = roll(start(&set, &c, setup("Thief", 4, &[2, 2, 2, 2])), &mut c, 0);
    assert_eq!(
        (st.successes(), st.threshold, st.phase()),
        (6, 12, TaskPhase::KissDeclaration)
    );
    let st = go(st, &mut c, kiss(1, 6, KissSource::Lot), 0).0;
    let (st, _) = roll_kisses(st, &mut c, 0);
    assert_eq!(st.phase(), TaskPhase::Closed);
    assert!(st
        .apply(
            &mut c,
            kiss(1, 1, KissSource::Lot),
            &mut StdRng::seed_from_u64(0)
        )
        .is_err());
}

#[test]
fn ve2_k2_each_die_once_all_declared_before_rolling() {
    let set = settings(Edition::Two);
    let mut c = table(&set);
    let (st, _) = roll(start(&set, &c, setup("Thief", 4, &[2, 2, 2, 2])), &mut c, 0);
    let st = go(st, &mut c, kiss(1, 6, KissSource::Lot), 0).0;
    let st = go(st, &mut c, kiss(1, 3, KissSource::Stunt), 0).0;
    assert_eq!(
        fail(&st, &mut c, kiss(1, 6, KissSource::Lot)),
        "Die 6 is already being KISSed: each die can be KISSed once per task."
    );
    assert_eq!(faces(&st), [9, 8, 6, 8, 9, 1, 7]);
    let (st, _) = roll_kisses(st, &mut c, 0);
    // Seed 0 re-rolls dice 3 then 6: 9, 8.
    assert_eq!(faces(&st), [9, 8, 9, 8, 9, 8, 7]);
}

#[test]
fn ve2_k3_and_a_v24_allies_kiss_only_their_own_dice() {
    let set = settings(Edition::Two);
    let mut c = table(&set);
    let st = offer(
        start(&set, &c, setup("Thief", 4, &[2, 2, 2, 2])),
        &mut c,
        3,
        true,
    );
    let (st, _) = roll(st, &mut c, 0);
    assert_eq!(st.die(8).map(|d| (d.owner, d.face)), Some((3, 6)));
    assert_eq!(
        fail(&st, &mut c, kiss(1, 8, KissSource::Lot)),
        "In edition 2 you cannot KISS an ally's die; they can KISS it themselves."
    );
    assert_eq!(
        fail(&st, &mut c, kiss(3, 1, KissSource::Lot)),
        "An ally can only KISS their own die."
    );
    let c2 = TaskAction::ConsentKiss {
        actor: who(3),
        ally: 3,
        consent: true,
    };
    assert!(fail(&st, &mut c, c2).contains("edition 2"));
    assert_eq!(st.kissable_dice(3), [8]);
    let st = go(st, &mut c, kiss(3, 8, KissSource::Lot), 0).0;
    let (st, _) = roll_kisses(st, &mut c, 1);
    assert_eq!(st.die(8).map(|d| (d.face, d.kissed_by)), Some((9, Some(3))));
    assert_eq!(c.sheets[&3].lots, 9);
}

#[test]
fn ve2_k4_and_a_v22_sources_with_edition1_limits_or_none() {
    let mut set = settings(Edition::Two);
    let mut c = table(&set);
    let (st, _) = roll(start(&set, &c, setup("Thief", 4, &[2, 2, 2, 2])), &mut c, 0);
    let st = go(st, &mut c, kiss(1, 6, KissSource::Stunt), 0).0;
    assert!(fail(&st, &mut c, kiss(1, 3, KissSource::Stunt))
        .contains("only one die per task with a stunt"));
    set.set("ve2_kiss_limits", "none").unwrap();
    let mut c = table(&set);
    let (mut st, _) = roll(start(&set, &c, setup("Thief", 4, &[2, 2, 2, 2])), &mut c, 0);
    st = go(st, &mut c, kiss(1, 6, KissSource::Stunt), 0).0;
    st = go(st, &mut c, kiss(1, 3, KissSource::Stunt), 0).0;
    for (die, a) in [(1, "A"), (2, "B"), (4, "C"), (5, "D"), (7, "E")] {
        st = go(
            st,
            &mut c,
            kiss(
                1,
                die,
                KissSource::Specialty {
                    attribute: a.into(),
                },
            ),
            0,
        )
        .0;
    }
    assert_eq!(st.kisses.len(), 7);
    // Ego is never a per-die source.
    let (st, _) = roll(start(&set, &c, setup("Thief", 4, &[2, 2, 2, 2])), &mut c, 0);
    assert!(
        fail(&st, &mut c, kiss(1, 1, KissSource::Ego)).contains("Ego re-rolls every non-beat die")
    );
}

#[test]
fn ve2_k5_new_face_replaces_the_old() {
    let set = settings(Edition::Two);
    let mut c = table(&set);
    let (st, _) = roll(start(&set, &c, setup("Thief", 4, &[2, 2, 2, 2])), &mut c, 0);
    let st = go(st, &mut c, kiss(1, 1, KissSource::Lot), 0).0;
    let (st, ev) = roll_kisses(st, &mut c, 2);
    // Seed 2: 9 → 1, a pass lost.
    assert!(ev.contains(&TaskEvent::Kissed {
        die: 1,
        owner: 1,
        by: 1,
        source: KissSource::Lot,
        from: 9,
        to: 1
    }));
    assert_eq!(st.outcome.unwrap().successes, 5);
}

#[test]
fn ve2_k6_and_a_v20_exploded_dice_can_be_kissed_and_rerolled_tens_explode() {
    let set = settings(Edition::Two);
    let mut c = table(&set);
    let (st, _) = roll(
        start(&set, &c, magic(setup("Thief", 4, &[2, 2, 2, 2]))),
        &mut c,
        12,
    );
    assert_eq!(
        st.die(10).map(|d| (d.face, d.exploded_from)),
        Some((2, Some(6)))
    );
    let st = go(st, &mut c, kiss(1, 10, KissSource::Lot), 0).0;
    let (st, ev) = roll_kisses(st, &mut c, 22);
    // Seed 22: the re-roll shows 10, which explodes into die 11 (1).
    assert_eq!(st.die(10).unwrap().history, [2, 10]);
    assert!(ev.iter().any(
        |e| matches!(e, TaskEvent::Exploded { from: 10, die } if die.id == 11 && die.face == 1)
    ));
    assert_eq!(st.successes(), 8);
}

#[test]
fn ve2_t8_ego_makes_every_ten_count_twice_including_allies() {
    let set = settings(Edition::Two);
    let mut c = table(&set);
    c.sheets.get_mut(&1).unwrap().ego = true;
    // Threshold 10: magic seed 12 gives 7 passes with three 10s.
    let (st, _) = roll(
        start(&set, &c, magic(setup("Thief", 4, &[2, 2, 1, 1]))),
        &mut c,
        12,
    );
    let (st, _) = roll_kisses(st, &mut c, 0);
    assert_eq!((st.phase(), st.successes()), (TaskPhase::EgoOffer, 7));
    let (st, ev) = go(st, &mut c, TaskAction::SpendEgo { actor: ROLLER }, 0);
    assert!(ev.contains(&TaskEvent::EgoUsed {
        who: 1,
        mode: EgoMode::TensDouble
    }));
    assert_eq!(st.outcome.clone().unwrap().successes, 10);
    assert!(st.outcome.unwrap().success && !c.sheets[&1].ego);
    // An ally's 10 counts twice as well.
    let mut c = table(&set);
    small_roller(&set, &mut c);
    c.sheets.get_mut(&1).unwrap().ego = true;
    let st = offer(start(&set, &c, setup("Thief", 2, &[])), &mut c, 2, true);
    // Seed 2: roller 1, 3; Bo 10.
    let (st, _) = roll(st, &mut c, 2);
    let (st, _) = roll_kisses(st, &mut c, 0);
    assert_eq!((faces(&st), st.successes()), (vec![1, 3, 10], 1));
    let (st, _) = go(st, &mut c, TaskAction::SpendEgo { actor: ROLLER }, 0);
    assert_eq!(st.outcome.unwrap().successes, 2);
    // No Ego held: the offer is skipped.
    let mut c = table(&set);
    let (st, _) = roll(start(&set, &c, setup("Thief", 4, &[2, 2, 2, 2])), &mut c, 0);
    let (st, _) = roll_kisses(st, &mut c, 0);
    assert_eq!(st.phase(), TaskPhase::Closed);
}

#[test]
fn ve2_t9_and_a_v25_failure_exp_for_roller_and_allies_success_only_with_setting() {
    let mut set = settings(Edition::Two);
    let mut c = table(&set);
    let st = offer(
        start(&set, &c, setup("Thief", 4, &[2, 2, 2, 2])),
        &mut c,
        2,
        true,
    );
    let (st, _) = roll(st, &mut c, 0);
    let (st, ev) = roll_kisses(st, &mut c, 0);
    assert!(!st.outcome.unwrap().success);
    assert_eq!(
        exp_events(&ev),
        [(1, ExpReason::Failure), (2, ExpReason::AllyAid)]
    );
    let st = offer(start(&set, &c, setup("Thief", 1, &[])), &mut c, 2, true);
    let (_, ev) = roll(st, &mut c, 0);
    assert_eq!(exp_events(&ev), []);
    set.set("ve2_ally_exp_on_success", "on").unwrap();
    let mut c = table(&set);
    let st = offer(start(&set, &c, setup("Thief", 1, &[])), &mut c, 2, true);
    let (_, ev) = roll(st, &mut c, 0);
    assert_eq!(exp_events(&ev), [(2, ExpReason::AllyAid)]);
}

#[test]
fn ve2_t10_level_up_when_exp_reaches_twice_the_level() {
    let set = settings(Edition::Two);
    let mut c = table(&set);
    c.sheets
        .get_mut(&1)
        .unwrap()
        .set_job_exp("Thief", 5)
        .unwrap();
    let (st, _) = roll(start(&set, &c, setup("Thief", 4, &[2, 2, 2, 2])), &mut c, 0);
    let (_, ev) = roll_kisses(st, &mut c, 0);
    assert!(ev.contains(&TaskEvent::Sheet {
        who: 1,
        event: SheetEvent::LevelUp {
            job: "Thief".into(),
            from: 3,
            to: 4
        }
    }));
    assert_eq!(exp(&c, 1, "Thief"), (4, 0));
}

#[test]
fn ve2_t11_and_a_v23_crits_and_margin_on_flagged_tasks() {
    let mut set = settings(Edition::Two);
    let mut c = table(&set);
    // Seed 0: 6 passes.
    let out = |st: TaskState| st.outcome.unwrap();
    let o = out(roll(start(&set, &c, setup("Thief", 3, &[])), &mut c, 0).0);
    assert_eq!((o.margin_percent, o.crit), (None, None));
    let o = out(roll(start(&set, &c, crit(setup("Thief", 3, &[]))), &mut c, 0).0);
    assert_eq!((o.margin_percent, o.crit), (Some(200), Some(Crit::Success)));
    let o = out(roll(start(&set, &c, crit(setup("Thief", 4, &[]))), &mut c, 0).0);
    assert_eq!(
        (o.success, o.margin_percent, o.crit),
        (true, Some(150), None)
    );
    let (st, _) = roll(
        start(&set, &c, crit(setup("Thief", 4, &[2, 2, 2, 2]))),
        &mut c,
        0,
    );
    let o = out(roll_kisses(st, &mut c, 0).0);
    assert_eq!(
        (o.success, o.margin_percent, o.crit),
        (false, Some(50), Some(Crit::Failure))
    );
    let (st, _) = roll(
        start(&set, &c, crit(setup("Thief", 4, &[2, 2, 2, 1]))),
        &mut c,
        0,
    );
    let o = out(roll_kisses(st, &mut c, 0).0);
    assert_eq!((o.success, o.crit), (false, None));
    set.set("ve2_crits", "always").unwrap();
    let o = out(roll(start(&set, &c, setup("Thief", 3, &[])), &mut c, 0).0);
    assert_eq!(o.crit, Some(Crit::Success));
    set.set("ve2_crits", "off").unwrap();
    let o = out(roll(start(&set, &c, crit(setup("Thief", 3, &[]))), &mut c, 0).0);
    assert_eq!(o.crit, None);
    // A-V23 edges: T = 5 → 0-2 passes; T = 1 → 0 passes (faces set by hand on 10 dice).
    set.set("ve2_crits", "always").unwrap();
    let mut c2 = table(&set);
    c2.sheets
        .get_mut(&1)
        .unwrap()
        .set_job_level("Thief", 6)
        .unwrap();
    let (mut st, _) = roll(
        start(&set, &c2, setup("Thief", 4, &[1, 1, 1, 1])),
        &mut c2,
        0,
    );
    assert_eq!((st.dice.len(), st.threshold), (10, 8));
    st.threshold = 5;
    for (passes, expect) in [
        (0, Some(Crit::Failure)),
        (2, Some(Crit::Failure)),
        (3, None),
        (5, None),
        (10, Some(Crit::Success)),
    ] {
        for (i, d) in st.dice.iter_mut().enumerate() {
            d.face = if i < passes { 9 } else { 1 };
        }
        assert_eq!(st.current_outcome().crit, expect, "T=5, passes {passes}");
    }
    st.threshold = 1;
    for d in st.dice.iter_mut() {
        d.face = 1;
    }
    assert_eq!(st.current_outcome().crit, Some(Crit::Failure));
}

#[test]
fn ve2_l1_learning_exp_after_every_task_and_tier_level_at_sixteen() {
    let set = settings(Edition::Two);
    let mut c = table(&set);
    let s = c.sheets.get_mut(&1).unwrap();
    s.set_tier(Some(Tier::Heroic));
    s.start_learning("Acrobat", &["Finesse".into()]).unwrap();
    s.set_job_exp("Acrobat", 15).unwrap();
    let st = start(&set, &c, setup("Acrobat", 1, &[]));
    assert_eq!(
        (st.pool, st.threshold),
        (4, 1),
        "no learning factor in edition 2"
    );
    let (_, ev) = roll(st, &mut c, 0);
    assert_eq!(exp_events(&ev), [(1, ExpReason::Learning)]);
    assert_eq!(exp(&c, 1, "Acrobat"), (2, 0));
    // A learning job cannot aid in edition 2 either.
    let mut c = table(&set);
    c.sheets
        .get_mut(&2)
        .unwrap()
        .start_learning("Acrobat", &["Finesse".into()])
        .unwrap();
    let st = start(&set, &c, setup("Thief", 1, &[]));
    let a = TaskAction::OfferAid {
        actor: who(2),
        ally: 2,
        job: "Acrobat".into(),
        demand: None,
    };
    assert!(fail(&st, &mut c, a).contains("cannot aid"));
}

#[test]
fn ve2_r2_and_a_v9_lots_and_ego_use_edition1_definitions() {
    let set = settings(Edition::Two);
    let mut c = table(&set);
    c.sheets.get_mut(&1).unwrap().lots = 0;
    let (st, _) = roll(start(&set, &c, setup("Thief", 4, &[2, 2, 2, 2])), &mut c, 0);
    assert_eq!(
        fail(&st, &mut c, kiss(1, 6, KissSource::Lot)),
        "Ada has no Lots left to spend."
    );
    assert!(
        fail(&st, &mut c, TaskAction::DeclareEgoReroll { actor: ROLLER }).contains("edition 2")
    );
    assert!(fail(
        &st,
        &mut c,
        TaskAction::DeclareDoubleSixes { actor: ROLLER }
    )
    .contains("edition 1"));
}

#[test]
fn a_v27_pool_capped_by_ve_max_pool_before_allies() {
    let mut set = settings(Edition::Two);
    set.set("ve_max_pool", "5").unwrap();
    let mut c = table(&set);
    let st = offer(start(&set, &c, setup("Thief", 4, &[])), &mut c, 2, true);
    assert_eq!((st.pool, st.pool_capped_from), (5, Some(7)));
    let (st, _) = roll(st, &mut c, 0);
    assert_eq!(st.dice.len(), 6);
}

#[test]
fn a_v34_edition2_resolves_by_passes_not_by_spending() {
    let set = settings(Edition::Two);
    let mut c = table(&set);
    let (st, _) = roll(start(&set, &c, setup("Thief", 4, &[2, 2, 2, 2])), &mut c, 0);
    let b = TaskAction::Buy {
        actor: ROLLER,
        item: Purchase::Primary,
    };
    assert_eq!(
        fail(&st, &mut c, b),
        "Beats can only be spent in the spending step."
    );
}

// ---------------------------------------------------------------- GM, queries, serde

#[test]
fn void_refunds_every_lot_and_ego_spent_and_awards_nothing() {
    let set = settings(Edition::One);
    let mut c = table(&set);
    c.sheets.get_mut(&1).unwrap().ego = true;
    let st = offer(start(&set, &c, setup("Thief", 1, &[])), &mut c, 2, true);
    let before = c.clone();
    let (st, _) = roll(st, &mut c, 0);
    let st = go(st, &mut c, kiss(1, 3, KissSource::Lot), 0).0;
    let st = go(st, &mut c, kiss(2, 4, KissSource::Lot), 0).0;
    let (st, _) = roll_kisses(st, &mut c, 0);
    let st = go(
        st,
        &mut c,
        TaskAction::DeclareDoubleSixes { actor: ROLLER },
        0,
    )
    .0;
    assert_eq!(
        (c.sheets[&1].lots, c.sheets[&2].lots, c.sheets[&1].ego),
        (9, 9, false)
    );
    assert_eq!(
        fail(&st, &mut c, TaskAction::Void { actor: ROLLER }),
        "Only the GM can do that."
    );
    let (st, ev) = go(st, &mut c, TaskAction::Void { actor: GM }, 0);
    assert_eq!(c, before);
    assert!(ev.contains(&TaskEvent::Closed {
        kind: CloseKind::Voided
    }));
    assert_eq!((st.outcome.clone(), st.phase()), (None, TaskPhase::Closed));
    assert_eq!(
        st.apply(
            &mut c,
            TaskAction::Void { actor: GM },
            &mut StdRng::seed_from_u64(0)
        )
        .unwrap_err()
        .message,
        "This task is already over."
    );
}

#[test]
fn force_close_finishes_with_what_is_there() {
    // Edition 1, KISS round: pending KISSes are dropped, nothing is paid, no primary: failure.
    let set = settings(Edition::One);
    let mut c = table(&set);
    let (st, _) = roll(start(&set, &c, setup("Thief", 1, &[])), &mut c, 0);
    let st = go(st, &mut c, kiss(1, 3, KissSource::Lot), 0).0;
    let (st, ev) = go(st, &mut c, TaskAction::ForceClose { actor: GM }, 0);
    assert_eq!(st.close_kind, Some(CloseKind::ForceClosed));
    assert!(st.kisses.is_empty() && !st.outcome.unwrap().success);
    assert_eq!(c.sheets[&1].lots, 10);
    assert_eq!(exp_events(&ev), [(1, ExpReason::Failure)]);
    // Edition 1, spending: purchases stand.
    let (st, _) = roll(start(&set, &c, setup("Thief", 1, &[])), &mut c, 0);
    let (st, _) = roll_kisses(st, &mut c, 0);
    let st = buy(st, &mut c, Purchase::Primary);
    let (st, _) = go(st, &mut c, TaskAction::ForceClose { actor: GM }, 0);
    assert!(st.outcome.unwrap().success);
    // Edition 2, Ego offer: Ego is not spent.
    let set = settings(Edition::Two);
    let mut c = table(&set);
    c.sheets.get_mut(&1).unwrap().ego = true;
    let (st, _) = roll(start(&set, &c, setup("Thief", 4, &[2, 2, 2, 2])), &mut c, 0);
    let (st, _) = roll_kisses(st, &mut c, 0);
    assert_eq!(st.phase(), TaskPhase::EgoOffer);
    let (st, _) = go(st, &mut c, TaskAction::ForceClose { actor: GM }, 0);
    assert!(c.sheets[&1].ego && !st.outcome.unwrap().success);
    // Before the roll there is nothing to apply.
    let st = start(&set, &c, setup("Thief", 4, &[]));
    let before = c.clone();
    let (st, _) = go(st, &mut c, TaskAction::ForceClose { actor: GM }, 0);
    assert_eq!(
        (st.outcome, st.close_kind, c == before),
        (None, Some(CloseKind::ForceClosed), true)
    );
}

#[test]
fn available_actions_follow_the_phase_and_the_actor() {
    use TaskActionKind as K;
    let set = settings(Edition::One);
    let mut c = table(&set);
    c.sheets.get_mut(&1).unwrap().ego = true;
    let st = start(&set, &c, setup("Thief", 1, &[]));
    assert_eq!(st.available_actions(ROLLER, &c), [K::Roll]);
    assert_eq!(st.available_actions(who(2), &c), [K::OfferAid]);
    assert!(st.available_actions(GM, &c).contains(&K::Void));
    let a = TaskAction::OfferAid {
        actor: who(2),
        ally: 2,
        job: "Thief".into(),
        demand: None,
    };
    let st = go(st, &mut c, a, 0).0;
    assert_eq!(st.available_actions(ROLLER, &c), [K::AnswerAid]);
    assert_eq!(st.available_actions(who(2), &c), [K::WithdrawAid]);
    let st = go(
        st,
        &mut c,
        TaskAction::AnswerAid {
            actor: ROLLER,
            ally: 2,
            accept: true,
        },
        0,
    )
    .0;
    let (st, _) = roll(st, &mut c, 0);
    let r = st.available_actions(ROLLER, &c);
    for k in [
        K::DeclareKiss,
        K::DeclareEgoReroll,
        K::DeclareDoubleSixes,
        K::RollKisses,
    ] {
        assert!(r.contains(&k), "{k:?}");
    }
    assert!(st.available_actions(who(2), &c).contains(&K::ConsentKiss));
    assert_eq!(st.available_actions(who(3), &c), []);
    let (st, _) = roll_kisses(st, &mut c, 0);
    let r = st.available_actions(ROLLER, &c);
    assert_eq!(r, [K::Buy, K::DeclareDoubleSixes, K::FinishSpending]);
    let (st, _) = finish(st, &mut c);
    assert_eq!(st.available_actions(ROLLER, &c), []);
    assert_eq!(
        st.available_actions(GM, &c),
        [K::Subvert, K::SkipSubversion, K::Void, K::ForceClose]
    );
    let (st, _) = skip_subversion(st, &mut c);
    assert_eq!(st.available_actions(GM, &c), []);
}

#[test]
fn state_actions_and_events_round_trip_through_json() {
    let set = settings(Edition::Two);
    let mut c = table(&set);
    let st = offer(
        start(&set, &c, magic(setup("Thief", 4, &[2, 2, 2, 2]))),
        &mut c,
        2,
        true,
    );
    let (st, ev) = roll(st, &mut c, 12);
    let json = serde_json::to_string(&st).unwrap();
    assert_eq!(serde_json::from_str::<TaskState>(&json).unwrap(), st);
    let json = serde_json::to_string(&ev).unwrap();
    assert_eq!(serde_json::from_str::<Vec<TaskEvent>>(&json).unwrap(), ev);
    let a = kiss(
        1,
        2,
        KissSource::Insight {
            insight: "x".into(),
        },
    );
    let json = serde_json::to_string(&a).unwrap();
    assert_eq!(serde_json::from_str::<TaskAction>(&json).unwrap(), a);
    let json = serde_json::to_string(&c).unwrap();
    assert_eq!(serde_json::from_str::<VenusCtx>(&json).unwrap(), c);
}

// ---------------------------------------------------------------- statistics

/// Mean and variance of one die's contribution (passes), exact.
fn die_moments(p: f64, exploding: bool) -> (f64, f64) {
    if exploding {
        // X = B + T·X' with T ⊂ B, P(T) = 0.1: E = p/0.9, E[X²] = (p + 0.2 E)/0.9.
        let m = p / 0.9;
        let m2 = (p + 0.2 * m) / 0.9;
        (m, m2 - m * m)
    } else {
        (p, p * (1.0 - p))
    }
}

fn check_mean(total: f64, n_dice: f64, mean: f64, var: f64, what: &str) {
    let observed = total / n_dice;
    let se = (var / n_dice).sqrt();
    assert!(
        (observed - mean).abs() < 5.0 * se,
        "{what}: observed {observed}, expected {mean} ± {se}"
    );
}

/// 10^5 seeded edition-1 tasks (25 000 per rank, 5 D6 each) through the
/// real setup and roll: mean beats per die within 5 standard errors of p.
#[test]
fn ve1_t4_statistics_mean_beats_per_rank_match_n_p() {
    let set = settings(Edition::One);
    let mut rng = StdRng::seed_from_u64(0x5EED_0001);
    for (rank, p) in [
        (Rank::Bronze, 1.0 / 3.0),
        (Rank::Silver, 0.5),
        (Rank::Gold, 2.0 / 3.0),
        (Rank::Platinum, 5.0 / 6.0),
    ] {
        let mut c = VenusCtx::new();
        c.insert(1, sheet(&set, "Ada", rank, 4, 5));
        let mut beats = 0u64;
        let tasks = 25_000;
        for _ in 0..tasks {
            let st = start(&set, &c, setup("Thief", 1, &[]));
            let st = st
                .apply(&mut c, TaskAction::Roll { actor: ROLLER }, &mut rng)
                .unwrap()
                .0;
            beats += st.successes() as u64;
        }
        check_mean(
            beats as f64,
            (tasks * 5) as f64,
            p,
            p * (1.0 - p),
            rank.name(),
        );
    }
}

/// 10^5 seeded edition-2 magic tasks (Bronze, 5 D10 each): mean passes per
/// starting die is p/0.9 (§7); and 10^5 plain ones per rank give p.
#[test]
fn ve2_t5_statistics_explosion_mean_is_p_over_point_nine() {
    let set = settings(Edition::Two);
    let mut rng = StdRng::seed_from_u64(0x5EED_0002);
    let mut c = VenusCtx::new();
    c.insert(1, sheet(&set, "Ada", Rank::Bronze, 2, 3));
    let tasks = 100_000;
    let mut passes = 0u64;
    for _ in 0..tasks {
        let st = start(&set, &c, magic(setup("Thief", 4, &[2, 2, 2, 2])));
        let st = st
            .apply(&mut c, TaskAction::Roll { actor: ROLLER }, &mut rng)
            .unwrap()
            .0;
        passes += st.successes() as u64;
    }
    let (m, v) = die_moments(0.4, true);
    assert!((m - 0.4 / 0.9).abs() < 1e-15);
    check_mean(passes as f64, (tasks * 5) as f64, m, v, "Bronze exploding");
    // Without explosions the observed mean is clearly lower: the test can fail.
    assert!(
        passes as f64 / (tasks * 5) as f64 > 0.4 + 20.0 * (0.24f64 / (tasks * 5) as f64).sqrt()
    );
}

#[test]
fn ve2_t4_statistics_mean_passes_per_rank_match_n_p() {
    let set = settings(Edition::Two);
    let mut rng = StdRng::seed_from_u64(0x5EED_0003);
    for (rank, p) in [
        (Rank::Bronze, 0.4),
        (Rank::Silver, 0.5),
        (Rank::Gold, 0.6),
        (Rank::Platinum, 0.7),
    ] {
        let mut c = VenusCtx::new();
        c.insert(1, sheet(&set, "Ada", rank, 2, 3));
        let tasks = 25_000;
        let mut passes = 0u64;
        for _ in 0..tasks {
            let st = start(&set, &c, setup("Thief", 4, &[2, 2, 2, 2]));
            let st = st
                .apply(&mut c, TaskAction::Roll { actor: ROLLER }, &mut rng)
                .unwrap()
                .0;
            passes += st.successes() as u64;
        }
        let (m, v) = die_moments(p, false);
        check_mean(passes as f64, (tasks * 5) as f64, m, v, rank.name());
    }
}

#[test]
fn ve2_margin_is_rounded_to_the_nearest_percent_not_cut() {
    let set = settings(Edition::Two);
    let mut c = table(&set);
    // Seed 0: 6 passes against 7, no KISS: 85.7% reads 86%, not 85%.
    let (st, _) = roll(start(&set, &c, crit(setup("Thief", 4, &[2, 1]))), &mut c, 0);
    let o = roll_kisses(st, &mut c, 0).0.outcome.unwrap();
    assert_eq!((o.successes, o.threshold), (6, 7));
    assert_eq!(o.margin_percent, Some(86));
}

#[test]
fn only_the_roller_spends_the_beats_not_the_gm() {
    let set = settings(Edition::One);
    let mut c = table(&set);
    let (st, _) = roll(start(&set, &c, setup("Thief", 1, &[1, 1])), &mut c, 0);
    let (st, _) = roll_kisses(st, &mut c, 0);
    assert_eq!(
        fail(
            &st,
            &mut c,
            TaskAction::Buy {
                actor: GM,
                item: Purchase::Primary,
            }
        ),
        "Only the roller chooses how to spend the beats."
    );
    let (st, _) = buy_as_roller(st, &mut c);
    assert_eq!(
        fail(
            &st,
            &mut c,
            TaskAction::Refund {
                actor: GM,
                item: Purchase::Primary,
            }
        ),
        "Only the roller chooses how to spend the beats."
    );
}

fn buy_as_roller(st: TaskState, c: &mut VenusCtx) -> (TaskState, Vec<TaskEvent>) {
    let a = TaskAction::Buy {
        actor: ROLLER,
        item: Purchase::Primary,
    };
    go(st, c, a, 0)
}

#[test]
fn a_v10_the_gms_rank_override_decides_the_ally_dies_pass() {
    // Edition 2, seed 0: Ada's two dice 9, 8; Cy's die 6. Cy is Bronze
    // (passes on 7+): 2 passes. The GM sets Cy's die to Gold (5+): 3.
    let set = settings(Edition::Two);
    let run = |rank: Option<Rank>| {
        let mut c = table(&set);
        small_roller(&set, &mut c);
        let mut st = offer(start(&set, &c, setup("Thief", 4, &[])), &mut c, 3, true);
        if let Some(rank) = rank {
            let o = TaskAction::OverrideAllyRank {
                actor: GM,
                ally: 3,
                rank,
            };
            st = go(st, &mut c, o, 0).0;
            assert!(st.allies[0].rank_overridden);
        }
        roll(st, &mut c, 0).0
    };
    let plain = run(None);
    assert_eq!(faces(&plain), [9, 8, 6]);
    assert_eq!(plain.die(3).map(|d| d.rank), Some(Rank::Bronze));
    assert_eq!(plain.successes(), 2);
    let gold = run(Some(Rank::Gold));
    assert_eq!(faces(&gold), [9, 8, 6]);
    assert_eq!(gold.die(3).map(|d| d.rank), Some(Rank::Gold));
    assert_eq!(gold.successes(), 3);
    // A magical flag needs a magic task.
    let mut c = table(&set);
    let st = offer(start(&set, &c, setup("Thief", 4, &[])), &mut c, 3, true);
    let flag = TaskAction::FlagAllyMagic {
        actor: GM,
        ally: 3,
        magic: true,
    };
    assert_eq!(
        fail(&st, &mut c, flag),
        "Only a magic (exploding) task has magical dice."
    );
}

/// VE1-T3: the roller may refuse an offer even once it stands accepted,
/// until the roll (the bot takes offers at once); accepting it again, or
/// answering after the roll, is refused.
#[test]
fn an_accepted_offer_may_still_be_refused_until_the_roll() {
    let set = settings(Edition::One);
    let mut c = table(&set);
    let st = start(&set, &c, setup("Thief", 1, &[]));
    let st = offer(st, &mut c, 2, true);
    let answer = |accept| TaskAction::AnswerAid {
        actor: ROLLER,
        ally: 2,
        accept,
    };
    assert!(fail(&st, &mut c, answer(true)).contains("already been answered"));
    let refused = go(st.clone(), &mut c, answer(false), 0).0;
    assert_eq!(refused.allies[0].status, AidStatus::Refused);
    let (rolled, _) = roll(st, &mut c, 0);
    assert!(fail(&rolled, &mut c, answer(false)).contains("at this point of the task"));
}

#[test]
fn a_v31_the_chance_before_the_roll_counts_the_accepted_allies_dice() {
    let set = settings(Edition::One);
    let mut c = table(&set);
    // Thief 3 at Silver: 3D6 striking on 4+ (1/2 each), threshold 1.
    let st = start(&set, &c, setup("Thief", 1, &[]));
    assert_eq!(st.chance_now(), Some(1.0 - 0.125));
    // Bo's Gold die strikes on 3+ (2/3): only all four missing fails.
    let st = offer(st, &mut c, 2, true);
    let p = st.chance_now().unwrap();
    assert!((p - (1.0 - 0.125 / 3.0)).abs() < 1e-12, "{p}");
    let (st, _) = roll(st, &mut c, 7);
    assert_eq!(st.chance_now(), None, "no chance once the dice are thrown");
}

#[test]
fn a_v31_ve1_k2_and_ve1_k4b_the_chance_after_the_kisses_the_round_would_reroll() {
    let set = settings(Edition::One);
    let mut c = table(&set);
    c.sheets.get_mut(&1).unwrap().ego = true;
    let st = offer(start(&set, &c, setup("Thief", 1, &[])), &mut c, 2, true);
    let st = offer(st, &mut c, 3, true);
    let consent = TaskAction::ConsentKiss {
        actor: who(2),
        ally: 2,
        consent: true,
    };
    let st = go(st, &mut c, consent, 0).0;
    // Seed 7: roller 3, 1, 1 (Silver: no beat); Bo 2 (Gold: no); Cy 1 (Bronze: no).
    let (st, _) = roll(st, &mut c, 7);
    assert_eq!((faces(&st), st.successes()), (vec![3, 1, 1, 2, 1], 0));
    assert!(st.kiss_reroll_dice().is_empty());
    // Every miss someone may KISS, each die once: Bo's die 4 may be KISSed
    // by Ada (with consent) or by Bo, but it is one die to re-roll.
    assert_eq!(st.kissable_misses(), [1, 2, 3, 4, 5]);
    let st = go(st, &mut c, kiss(1, 1, KissSource::Lot), 0).0;
    assert_eq!(st.kiss_reroll_dice(), [1]);
    assert_eq!(st.chance_after_kiss(&[1]), Some(0.5));
    let ego = TaskAction::DeclareEgoReroll { actor: ROLLER };
    let st = go(st, &mut c, ego, 0).0;
    // The Ego re-roll adds every other miss of Ada's and of the consenting
    // Bo, not Cy's.
    assert_eq!(st.kiss_reroll_dice(), [1, 2, 3, 4]);
    let p = st.chance_after_kiss(&st.kiss_reroll_dice()).unwrap();
    assert!((p - (1.0 - 0.125 / 3.0)).abs() < 1e-12, "{p}");
}

#[test]
fn ve1_s1_s3_and_a_v13_what_can_be_bought_with_the_beats_left() {
    let mut set = settings(Edition::One);
    for repeat in [false, true] {
        set.set("ve1_consequence_repeat", if repeat { "on" } else { "off" })
            .unwrap();
        let mut c = table(&set);
        // Seed 0: 3 beats against a threshold of 1 + two factors.
        let (st, _) = roll(start(&set, &c, setup("Thief", 1, &[1, 1])), &mut c, 0);
        let (st, _) = roll_kisses(st, &mut c, 0);
        assert_eq!((st.successes(), st.threshold), (3, 3));
        assert!(st.can_buy(Purchase::Primary));
        let st = buy(st, &mut c, Purchase::Secondary(1));
        assert!(!st.can_buy(Purchase::Primary), "3 beats, 2 left");
        assert_eq!(st.can_buy(Purchase::Secondary(1)), repeat);
        assert!(st.can_buy(Purchase::Secondary(2)));
        assert_eq!(st.unbought_secondaries(), [2, 3, 4]);
        let st = buy(st, &mut c, Purchase::Tertiary(1));
        let st = buy(st, &mut c, Purchase::Tertiary(2));
        assert!(!st.can_buy(Purchase::Secondary(2)), "no beat left");
    }
}
