//! Cross-module tests for Virtual Veil: the 004 probability table (A-O1) and
//! §7 figures, seeded stat rolls through the register state machine, cache
//! handling, damage, Fault dice and Injuries, healing, repair, a combat
//! round, odds timing, and a statistical check of the real rolling code.

use super::combat::{can_react, roll_order, Entrant, OrderKind};
use super::events::{Condition, LogoutReason, OreEvent};
use super::odds::{at_least_width, format_percent, table_row, widest_pmf};
use super::roll::{
    ActionKind, DieStatus, ModifierChoice, OreRoll, RollAction, RollPhase, RollRequest, Standing,
};
use super::sets::{CacheCost, Pattern, Set, SetRequirement};
use super::settings::OreSettings;
use super::sheet::{
    CacheDie, CacheRef, CacheSource, Damageable, Injury, Losses, OreSheet, Severity, Stat, Stats,
    World,
};
use crate::rules::{Actor, RuleError};
use rand::{rngs::StdRng, SeedableRng};

const ME: Actor = Actor { id: 1, gm: false };
const GM: Actor = Actor { id: 99, gm: true };
const OTHER: Actor = Actor { id: 2, gm: false };

fn rng(seed: u64) -> StdRng {
    StdRng::seed_from_u64(seed)
}

fn sheet_with(stat: Stat, value: u32) -> OreSheet {
    let mut stats = Stats::all(4);
    stats.set(stat, i64::from(value)).unwrap();
    OreSheet::new(stats)
}

fn start(
    sheet: &OreSheet,
    settings: &OreSettings,
    stat: Stat,
    seed: u64,
) -> (OreRoll, Vec<OreEvent>) {
    OreRoll::start(
        sheet,
        settings,
        ME,
        RollRequest {
            stat: Some(stat),
            ..Default::default()
        },
        &mut rng(seed),
    )
    .unwrap()
}

fn basic(height: u32) -> RollAction {
    RollAction::Basic {
        actor: ME,
        height,
        width: None,
        requirement: SetRequirement::default(),
        cache_cost: CacheCost::None,
        label: None,
    }
}

/// Applies an action that must fail, and checks nothing changed.
fn refused(roll: &OreRoll, sheet: &mut OreSheet, action: RollAction) -> RuleError {
    let before = sheet.clone();
    let err = roll.clone().apply(sheet, action, &mut rng(0)).unwrap_err();
    assert_eq!(*sheet, before, "a refused action changed the sheet");
    err
}

fn ok(roll: OreRoll, sheet: &mut OreSheet, action: RollAction) -> (OreRoll, Vec<OreEvent>) {
    roll.apply(sheet, action, &mut rng(0)).unwrap()
}

// ---------------------------------------------------------------------------
// The 004 probability table and §7.

/// The table as printed in 004 (rows 2d..10d, columns widest = 1..6).
const TABLE: [(u32, [&str; 6]); 9] = [
    (2, ["90.00%", "10.00%", "-", "-", "-", "-"]),
    (3, ["72.00%", "27.00%", "1.00%", "-", "-", "-"]),
    (4, ["50.40%", "45.90%", "3.60%", "0.10%", "-", "-"]),
    (5, ["30.24%", "61.20%", "8.10%", "0.45%", "0.01%", "-"]),
    (
        6,
        ["15.12%", "69.12%", "14.49%", "1.22%", "0.05%", "<0.01%"],
    ),
    (7, ["6.05%", "68.80%", "22.43%", "2.55%", "0.17%", "0.01%"]),
    (8, ["1.81%", "61.92%", "31.25%", "4.59%", "0.41%", "0.02%"]),
    (9, ["0.36%", "51.30%", "40.03%", "7.42%", "0.83%", "0.06%"]),
    (
        10,
        ["0.04%", "39.54%", "47.72%", "11.06%", "1.49%", "0.14%"],
    ),
];

#[test]
fn a_o1_the_004_table_is_reproduced_cell_by_cell() {
    let mut cells = 0;
    for (n, row) in TABLE {
        let exact = table_row(n).unwrap();
        let pmf = widest_pmf(n);
        for (k, printed) in row.iter().enumerate() {
            let cell = exact.get(k).map_or("-", String::as_str);
            assert_eq!(cell, *printed, "{n}d, width {}", k + 1);
            // The f64 odds agree with the printed cell to its precision.
            if let Some(p) = pmf.get(k) {
                if *printed == "<0.01%" {
                    assert!(*p > 0.0 && 100.0 * p < 0.005);
                } else {
                    let shown: f64 = printed.trim_end_matches('%').parse().unwrap();
                    assert!(
                        (100.0 * p - shown).abs() <= 0.005 + 1e-9,
                        "{n}d, width {}",
                        k + 1
                    );
                }
            }
            if *printed != "-" {
                cells += 1;
            }
        }
    }
    assert_eq!(cells, 44, "the spec counts 44 printed cells");
}

#[test]
fn a_o1_exact_rounding_handles_the_half_cell() {
    // 6d, widest 4: exactly 12 150 / 10^6 = 1.215%, printed 1.22%.
    assert_eq!(format_percent(12_150, 6).unwrap(), "1.22%");
    assert_eq!(format!("{:.2}%", 100.0 * widest_pmf(6)[3]), "1.21%");
    assert_eq!(format_percent(10, 6).unwrap(), "<0.01%");
    assert_eq!(format_percent(0, 6).unwrap(), "0.00%");
    assert!(format_percent(11, 1).is_err());
}

#[test]
fn a_o1_six_dice_row_for_the_odds_cli() {
    let p = widest_pmf(6);
    assert_eq!(p.len(), 6);
    let exact = [151_200.0, 691_200.0, 144_900.0, 12_150.0, 540.0, 10.0];
    for (got, want) in p.iter().zip(exact) {
        assert!((got - want / 1e6).abs() < 1e-15, "{p:?}");
    }
}

#[test]
fn a_o1_section_7_chance_of_at_least_one_set() {
    let printed = [
        (2, "10"),
        (3, "28"),
        (4, "49.6"),
        (5, "69.76"),
        (6, "84.88"),
        (7, "93.95"),
        (8, "98.19"),
        (9, "99.64"),
        (10, "99.96"),
    ];
    for (n, text) in printed {
        let p = at_least_width(n, 2);
        // Closed form: 1 − 10!/((10−N)!·10^N).
        let falling: f64 = (0..n).map(|i| f64::from(10 - i)).product();
        let closed = 1.0 - falling / 10f64.powi(n as i32);
        assert!((p - closed).abs() < 1e-12, "{n}d");
        let decimals = text.split('.').nth(1).map_or(0, str::len);
        assert_eq!(format!("{:.*}", decimals, 100.0 * p), text, "{n}d");
        // Also the table's own statement: 1 − column 1.
        assert!((p - (1.0 - widest_pmf(n)[0])).abs() < 1e-15);
    }
}

#[test]
fn exact_odds_are_fast_at_the_largest_pools() {
    use std::time::Instant;
    fn time(f: &dyn Fn() -> f64) -> std::time::Duration {
        let reps = 40;
        let t = Instant::now();
        let mut sink = 0.0;
        for _ in 0..reps {
            sink += f();
        }
        assert!(sink.is_finite());
        t.elapsed() / reps
    }
    for n in [10u32, 15, 30] {
        let pmf = time(&|| widest_pmf(n)[0]);
        let width = time(&|| at_least_width(n, 3));
        let height = time(&|| super::odds::at_least_width_height(n, 2, 7));
        println!("{n} dice: widest_pmf {pmf:?}, at_least_width {width:?}, at_least_width_height {height:?}");
        // Generous bound: unoptimised test build on a shared machine.
        for d in [pmf, width, height] {
            assert!(d.as_millis() < 20, "{n} dice took {d:?}");
        }
    }
}

// ---------------------------------------------------------------------------
// Stat rolls and the register.

#[test]
fn vv_1_seeded_roll_uses_the_stat_as_pool_and_reads_its_sets() {
    let settings = OreSettings::default();
    let sheet = sheet_with(Stat::Agility, 6);
    let (roll, events) = start(&sheet, &settings, Stat::Agility, 4);
    assert_eq!(
        events,
        vec![OreEvent::Rolled {
            stat: Some(Stat::Agility),
            requested: 6,
            pool: 6,
            faces: vec![7, 6, 1, 7, 7, 6],
        }]
    );
    let reading = roll.reading();
    assert_eq!(reading.to_string(), "3×7 (37), 2×6 (26); loose 1");
    assert_eq!(roll.value(), 37);
    assert_eq!(roll.phase(), RollPhase::Open);
    assert!(roll.error_dice.is_empty());
}

#[test]
fn a_o24_any_called_stat_sets_the_pool_and_threads_do_not_limit_dice() {
    let settings = OreSettings::default();
    let mut sheet = sheet_with(Stat::Charisma, 7);
    sheet.comp.thread_count = 1;
    let (roll, _) = start(&sheet, &settings, Stat::Charisma, 1);
    assert_eq!(roll.pool, 7);
    assert_eq!(roll.register.len(), 7);
    // Ad-hoc pools for NPCs.
    let (roll, _) = OreRoll::start(
        &sheet,
        &settings,
        ME,
        RollRequest {
            dice: Some(3),
            label: Some("Guard".into()),
            ..Default::default()
        },
        &mut rng(1),
    )
    .unwrap();
    assert_eq!(roll.pool, 3);
    assert!(OreRoll::start(&sheet, &settings, ME, RollRequest::default(), &mut rng(1)).is_err());
}

#[test]
fn a_o2_pools_above_vv_max_pool_are_capped_with_a_warning() {
    let mut settings = OreSettings::default();
    let sheet = sheet_with(Stat::Physique, 14);
    let (roll, events) = start(&sheet, &settings, Stat::Physique, 2);
    assert_eq!(roll.pool, 10);
    assert!(roll.capped);
    assert_eq!(
        events[0],
        OreEvent::PoolCapped {
            requested: 14,
            cap: 10
        }
    );
    assert!(roll.warnings[0].contains("at most 10 (vv_max_pool)"));
    settings.set("vv_max_pool", "15").unwrap();
    let (roll, _) = start(&sheet, &settings, Stat::Physique, 2);
    assert_eq!(roll.pool, 14);
    assert!(!roll.capped);
}

#[test]
fn a_o19_power_penalty_removes_one_die_or_is_shown() {
    let mut settings = OreSettings::default();
    let mut sheet = sheet_with(Stat::Agility, 6);
    sheet.combat.power_penalty = true;
    let (roll, events) = start(&sheet, &settings, Stat::Agility, 4);
    assert_eq!(roll.pool, 5);
    assert!(events.contains(&OreEvent::PowerPenalty { removed_die: true }));
    settings.set("vv_power_penalty", "display").unwrap();
    let (roll, events) = start(&sheet, &settings, Stat::Agility, 4);
    assert_eq!(roll.pool, 6);
    assert!(events.contains(&OreEvent::PowerPenalty { removed_die: false }));
}

#[test]
fn vv_6_vv_7_basic_string_minor_and_free_actions_use_each_die_once() {
    let settings = OreSettings::default();
    let mut sheet = sheet_with(Stat::Agility, 6);
    let (roll, _) = start(&sheet, &settings, Stat::Agility, 4); // 7 6 1 7 7 6
    let (roll, ev) = ok(roll, &mut sheet, basic(7));
    assert_eq!(
        ev,
        vec![OreEvent::BasicAction {
            action: 0,
            set: Set {
                width: 3,
                height: 7
            },
            positions: vec![0, 3, 4],
            cache_dice: 0,
            suggested_damage: None,
            label: None,
        }]
    );
    // VV-7: the 7s are spent.
    let err = refused(&roll, &mut sheet, basic(7));
    assert_eq!(err.message, "There are no unused 7s in the register.");
    // A String: the 6s are a second set in the same register.
    let (roll, _) = ok(roll, &mut sheet, basic(6));
    // A Minor action takes the last die, the loose 1.
    let (roll, ev) = ok(
        roll,
        &mut sheet,
        RollAction::Minor {
            actor: ME,
            die: None,
            label: Some("stand up".into()),
        },
    );
    assert!(matches!(
        ev[0],
        OreEvent::MinorAction {
            position: 2,
            face: 1,
            broke: None,
            ..
        }
    ));
    let err = refused(
        &roll,
        &mut sheet,
        RollAction::Minor {
            actor: ME,
            die: None,
            label: None,
        },
    );
    assert_eq!(
        err.message,
        "There is no unused die left for a Minor action."
    );
    let (roll, ev) = ok(
        roll,
        &mut sheet,
        RollAction::Free {
            actor: ME,
            label: "taunt".into(),
        },
    );
    assert_eq!(
        ev,
        vec![OreEvent::FreeAction {
            action: 3,
            label: "taunt".into()
        }]
    );
    let kinds: Vec<ActionKind> = roll.actions.iter().map(|a| a.kind).collect();
    assert_eq!(
        kinds,
        vec![
            ActionKind::Basic,
            ActionKind::Basic,
            ActionKind::Minor,
            ActionKind::Free
        ]
    );
    assert!(roll.register.iter().all(|d| !d.is_unused()));
    let (roll, ev) = ok(roll, &mut sheet, RollAction::Close { actor: ME });
    assert_eq!(ev, vec![OreEvent::RollClosed]);
    assert_eq!(roll.phase(), RollPhase::Closed);
    let err = refused(&roll, &mut sheet, RollAction::Close { actor: ME });
    assert_eq!(err.message, "This roll is already closed.");
}

#[test]
fn vv_3_a_o3_basic_actions_check_min_width_and_min_height() {
    let settings = OreSettings::default();
    let mut sheet = sheet_with(Stat::Agility, 6);
    let (roll, _) = start(&sheet, &settings, Stat::Agility, 4); // 7 6 1 7 7 6
    let with = |req: SetRequirement, h: u32| RollAction::Basic {
        actor: ME,
        height: h,
        width: None,
        requirement: req,
        cache_cost: CacheCost::None,
        label: None,
    };
    let err = refused(&roll, &mut sheet, with(SetRequirement::width(3), 6));
    assert_eq!(
        err.message,
        "This action needs a trip or better; 2×6 (26) is not enough."
    );
    let high = SetRequirement {
        min_width: 2,
        min_height: Some(7),
    };
    let err = refused(&roll, &mut sheet, with(high, 6));
    assert!(err.message.contains("height 7+"));
    let err = refused(&roll, &mut sheet, basic(1));
    assert_eq!(
        err.message,
        "A Basic action needs a set of at least two matching dice."
    );
    let (roll, _) = ok(roll, &mut sheet, with(SetRequirement::width(3), 7));
    assert_eq!(
        roll.actions[0].set,
        Some(Set {
            width: 3,
            height: 7
        })
    );
}

#[test]
fn a_o7_a_wide_set_is_not_split() {
    let settings = OreSettings::default();
    let mut sheet = sheet_with(Stat::Agility, 6);
    let (roll, _) = start(&sheet, &settings, Stat::Agility, 4); // 7 6 1 7 7 6
    let two_sevens = RollAction::Basic {
        actor: ME,
        height: 7,
        width: Some(2),
        requirement: SetRequirement::default(),
        cache_cost: CacheCost::None,
        label: None,
    };
    let err = refused(&roll, &mut sheet, two_sevens);
    assert_eq!(
        err.message,
        "Sets cannot be split here: the 3 unused 7s must be used together."
    );
}

#[test]
fn a_o8_a_minor_action_may_break_a_set() {
    let settings = OreSettings::default();
    let mut sheet = sheet_with(Stat::Agility, 6);
    let (roll, _) = start(&sheet, &settings, Stat::Agility, 4); // 7 6 1 7 7 6
                                                                // The dice a Minor action may spend, one per face, lowest first.
    assert_eq!(
        roll.distinct_unused(),
        vec![(2, 1, false), (1, 6, false), (0, 7, false)]
    );
    let (roll, ev) = ok(
        roll,
        &mut sheet,
        RollAction::Minor {
            actor: ME,
            die: Some(0),
            label: None,
        },
    );
    assert_eq!(roll.distinct_unused()[2], (3, 7, false), "die 1 is spent");
    assert_eq!(
        ev,
        vec![OreEvent::MinorAction {
            action: 0,
            position: 0,
            face: 7,
            broke: Some(Set {
                width: 3,
                height: 7
            }),
            label: None,
        }]
    );
    let (roll, _) = ok(roll, &mut sheet, basic(7));
    assert_eq!(
        roll.actions[1].set,
        Some(Set {
            width: 2,
            height: 7
        })
    );
    let err = refused(
        &roll,
        &mut sheet,
        RollAction::Minor {
            actor: ME,
            die: Some(0),
            label: None,
        },
    );
    assert_eq!(
        err.message,
        "Register die 1 has already been used or loaded."
    );
}

#[test]
fn vv_5_face_modifiers_make_and_break_sets() {
    let settings = OreSettings::default();
    let mut sheet = sheet_with(Stat::Agility, 6);
    let (roll, _) = start(&sheet, &settings, Stat::Agility, 4); // 7 6 1 7 7 6
    let (roll, ev) = ok(
        roll,
        &mut sheet,
        RollAction::ModifyFace {
            actor: ME,
            die: 2,
            delta: 5,
        },
    );
    assert_eq!(
        ev,
        vec![OreEvent::FaceModified {
            position: 2,
            from: 1,
            to: 6,
            delta: 5
        }]
    );
    assert_eq!(roll.reading().to_string(), "3×7 (37), 3×6 (36)");
    // Clamped at 10 (A-O6).
    let (roll, ev) = ok(
        roll,
        &mut sheet,
        RollAction::ModifyFace {
            actor: ME,
            die: 0,
            delta: 5,
        },
    );
    assert!(matches!(ev[0], OreEvent::FaceModified { to: 10, .. }));
    assert_eq!(roll.reading().to_string(), "3×6 (36), 2×7 (27); loose 10");
    assert_eq!(roll.natural[0], 7, "the natural face is kept for display");
}

#[test]
fn vv_6_special_actions_match_patterns() {
    let settings = OreSettings::default();
    let mut sheet = sheet_with(Stat::Agility, 6);
    let (roll, _) = start(&sheet, &settings, Stat::Agility, 4); // 7 6 1 7 7 6
    let special = |p: &str| RollAction::Special {
        actor: ME,
        skill: None,
        pattern: Pattern::parse(p).unwrap(),
        cache_cost: CacheCost::None,
        label: Some("Overclock".into()),
    };
    let err = refused(&roll, &mut sheet, special("789"));
    assert_eq!(err.message, "The unused dice do not show 789.");
    let (roll, ev) = ok(roll, &mut sheet, special("776"));
    assert!(matches!(
        &ev[0],
        OreEvent::SpecialAction { positions, faces, .. } if *positions == vec![0, 3, 1] && *faces == vec![7, 7, 6]
    ));
    assert_eq!(roll.reading().to_string(), "no set; loose 7 6 1");
    let (roll, _) = ok(roll, &mut sheet, special("run 2 from 6"));
    assert_eq!(roll.reading().to_string(), "no set; loose 1");
}

#[test]
fn vv_5_modifier_choices_say_what_each_modifier_makes_or_breaks() {
    let settings = OreSettings::default();
    let sheet = sheet_with(Stat::Agility, 6);
    let (roll, _) = start(&sheet, &settings, Stat::Agility, 4); // 7 6 1 7 7 6
    let set = |width, height| Some(Set { width, height });
    let change = |die, from, to, delta| ModifierChoice {
        die,
        from,
        to,
        delta,
        from_cache: false,
        breaks: None,
        leaves: None,
        makes: None,
    };
    // The 1 cannot go lower (clamped); one 6 and one 7 stand for their faces.
    assert_eq!(
        roll.modifier_choices(1),
        vec![
            change(2, 1, 2, 1),
            ModifierChoice {
                breaks: set(2, 6),
                makes: set(4, 7),
                ..change(1, 6, 7, 1)
            },
            ModifierChoice {
                breaks: set(2, 6),
                ..change(1, 6, 5, -1)
            },
            ModifierChoice {
                leaves: set(2, 7),
                ..change(0, 7, 8, 1)
            },
            ModifierChoice {
                leaves: set(2, 7),
                makes: set(3, 6),
                ..change(0, 7, 6, -1)
            },
        ]
    );
    // Wider modifiers follow the ±1 ones.
    let all = roll.modifier_choices(3);
    assert_eq!(all[..5], roll.modifier_choices(1)[..]);
    assert!(all[5..].iter().all(|c| c.delta.abs() > 1));
}

#[test]
fn vv_3_vv_6_a_register_stands_on_its_best_set_or_its_special_action() {
    let settings = OreSettings::default();
    let mut sheet = sheet_with(Stat::Agility, 6);
    let (roll, _) = start(&sheet, &settings, Stat::Agility, 4); // 7 6 1 7 7 6
    let set = |width, height| Set { width, height };
    let dub = SetRequirement::default();
    let quad = SetRequirement::width(4);
    assert_eq!(roll.standing(&dub), Standing::Met(set(3, 7)));
    assert_eq!(roll.standing(&quad), Standing::Short(set(3, 7)));
    // A set already used still counts.
    let (used, _) = ok(roll.clone(), &mut sheet, basic(7));
    assert_eq!(used.standing(&dub), Standing::Met(set(3, 7)));
    // Below the need, a Special action used is the register's success.
    let special = RollAction::Special {
        actor: ME,
        skill: None,
        pattern: Pattern::parse("776").unwrap(),
        cache_cost: CacheCost::None,
        label: None,
    };
    let (spent, _) = ok(roll, &mut sheet, special);
    assert_eq!(spent.standing(&quad), Standing::Special("776".into()));
    // With the rest spent, nothing is left to stand on.
    let mut sheet = sheet_with(Stat::Agility, 1);
    let (one, _) = start(&sheet, &settings, Stat::Agility, 4);
    assert_eq!(one.standing(&dub), Standing::NoSet);
    let (one, _) = ok(
        one,
        &mut sheet,
        RollAction::Minor {
            actor: ME,
            die: Some(0),
            label: None,
        },
    );
    assert_eq!(one.standing(&dub), Standing::NoSet);
}

#[test]
fn a_o13_error_dice_roll_beside_each_action_of_an_injured_entity() {
    let mut settings = OreSettings::default();
    let mut sheet = sheet_with(Stat::Agility, 6);
    sheet.injuries = vec![
        Injury {
            severity: Severity::Minor,
            healed: false,
            losses: None,
        },
        Injury {
            severity: Severity::Moderate,
            healed: false,
            losses: None,
        },
        Injury {
            severity: Severity::Severe,
            healed: true,
            losses: None,
        },
    ];
    assert_eq!(sheet.error_dice_count(&settings), 3);
    let (roll, events) = start(&sheet, &settings, Stat::Agility, 4);
    // The pool is rolled first, then the Error Dice (seed 4: 7 6 1 7 7 6 | 5 6 …).
    assert_eq!(roll.natural, vec![7, 6, 1, 7, 7, 6]);
    assert_eq!(roll.error_dice, vec![5, 6, 1]);
    assert!(events.contains(&OreEvent::ErrorDice {
        action: None,
        faces: vec![5, 6, 1]
    }));
    // The Error Dice never join the register's sets.
    assert_eq!(roll.reading().to_string(), "3×7 (37), 2×6 (26); loose 1");
    assert_eq!(roll.dice_generated(), 9, "6 of the pool, 3 Error Dice");
    let (roll, ev) = ok(roll, &mut sheet, basic(7));
    assert_eq!(roll.actions[0].error_dice, vec![5, 6, 1]);
    assert_eq!(
        roll.dice_generated(),
        9,
        "the first action takes the roll's"
    );
    assert_eq!(
        ev.len(),
        1,
        "the first action shows the roll's own Error Dice"
    );
    let (roll, ev) = roll.apply(&mut sheet, basic(6), &mut rng(7)).unwrap();
    assert_eq!(roll.actions[1].error_dice.len(), 3);
    assert!(matches!(&ev[1], OreEvent::ErrorDice { action: Some(1), faces } if faces.len() == 3));
    assert_eq!(roll.dice_generated(), 12, "the second rolls its own");
    settings.set("vv_error_dice_stacking", "max").unwrap();
    assert_eq!(sheet.error_dice_count(&settings), 2);
    sheet.mob_mode = true;
    let (roll, _) = start(&sheet, &settings, Stat::Agility, 4);
    assert!(roll.error_dice.is_empty(), "mobs skip the Fault system");
}

#[test]
fn only_the_roller_or_the_compiler_may_act() {
    let settings = OreSettings::default();
    let mut sheet = sheet_with(Stat::Agility, 6);
    let (roll, _) = start(&sheet, &settings, Stat::Agility, 4);
    let err = refused(&roll, &mut sheet, RollAction::Close { actor: OTHER });
    assert_eq!(
        err.message,
        "Only the roller or the Compiler can act on this roll."
    );
    assert_eq!(roll.available_actions(OTHER, &sheet), Default::default());
    let avail = roll.available_actions(GM, &sheet);
    assert_eq!(
        avail.basic,
        vec![
            Set {
                width: 3,
                height: 7
            },
            Set {
                width: 2,
                height: 6
            }
        ]
    );
    assert!(avail.minor && avail.close && avail.special && avail.free);
    assert!(!avail.add_cache && !avail.load, "no COMP running");
    let (roll, _) = ok(roll, &mut sheet, RollAction::Close { actor: GM });
    assert_eq!(roll.available_actions(ME, &sheet), Default::default());
}

#[test]
fn roll_state_survives_json_between_clicks() {
    let settings = OreSettings::default();
    let mut sheet = sheet_with(Stat::Agility, 6);
    let (roll, _) = start(&sheet, &settings, Stat::Agility, 4);
    let (roll, _) = ok(roll, &mut sheet, basic(7));
    let json = serde_json::to_string(&roll).unwrap();
    let back: OreRoll = serde_json::from_str(&json).unwrap();
    assert_eq!(back, roll);
    let action: RollAction = serde_json::from_str(
        r#"{"action":"basic","actor":{"id":1,"gm":false},"height":6,"width":null,
            "requirement":{"min_width":2,"min_height":null},"cache_cost":"none","label":null}"#,
    )
    .unwrap();
    let (back, _) = ok(back, &mut sheet, action);
    assert_eq!(back.register[1].status, DieStatus::Used(1));
    let ev = serde_json::to_string(&OreEvent::RollClosed).unwrap();
    assert_eq!(ev, r#"{"event":"roll_closed"}"#);
}

#[test]
fn refused_actions_change_nothing_and_explain_why() {
    let settings = OreSettings::default();
    let mut sheet = sheet_with(Stat::Agility, 6);
    let (roll, _) = start(&sheet, &settings, Stat::Agility, 4);
    let cases: Vec<(RollAction, &str)> = vec![
        (
            RollAction::AddCache {
                actor: ME,
                cache: vec![0],
            },
            "Your COMP is not running, so you have no cache dice.",
        ),
        (
            RollAction::Load {
                actor: ME,
                dice: vec![0],
            },
            "Loading needs a running COMP to hold the cache.",
        ),
        (
            RollAction::Discard {
                actor: ME,
                die: None,
            },
            "Your cache is not over its maximum, so nothing needs discarding.",
        ),
        (
            RollAction::ModifyFace {
                actor: ME,
                die: 9,
                delta: 1,
            },
            "There is no register die number 10.",
        ),
        (basic(11), "A set's face must be from 1 to 10."),
        (
            RollAction::Free {
                actor: ME,
                label: "  ".into(),
            },
            "Say what the Free action is.",
        ),
    ];
    for (action, message) in cases {
        assert_eq!(refused(&roll, &mut sheet, action).message, message);
    }
}

// ---------------------------------------------------------------------------
// The cache (VV-8).

fn booted(cache_max: i64, seed: u64, settings: &OreSettings) -> OreSheet {
    let mut sheet = sheet_with(Stat::Agility, 6);
    sheet.set_cache_max(cache_max).unwrap();
    sheet.set_battery_max(10).unwrap();
    sheet.comp.battery_current = 10;
    sheet.boot(settings, &mut rng(seed)).unwrap();
    sheet
}

#[test]
fn vv_8_a_o9_cache_dice_join_sets_and_are_consumed_when_used() {
    let settings = OreSettings::default();
    let mut sheet = booted(3, 9, &settings); // cache 6 7 9
    let faces: Vec<u32> = sheet.cache.iter().map(|d| d.face).collect();
    assert_eq!(faces, vec![6, 7, 9]);
    let (roll, _) = start(&sheet, &settings, Stat::Agility, 4); // 7 6 1 7 7 6
    let (roll, ev) = ok(
        roll,
        &mut sheet,
        RollAction::AddCache {
            actor: ME,
            cache: vec![1, 2],
        },
    );
    assert_eq!(
        ev,
        vec![OreEvent::CacheAdded {
            faces: vec![7, 9],
            positions: vec![6, 7]
        }]
    );
    assert_eq!(sheet.cache.len(), 1);
    assert_eq!(roll.reading().to_string(), "4×7 (47), 2×6 (26); loose 9 1");
    let (roll, ev) = ok(roll, &mut sheet, basic(7));
    assert!(matches!(
        &ev[0],
        OreEvent::BasicAction {
            set: Set {
                width: 4,
                height: 7
            },
            cache_dice: 1,
            ..
        }
    ));
    assert_eq!(ev[1], OreEvent::CacheConsumed { faces: vec![7] });
    // Closing returns the unused cache die (the 9); the used 7 is gone.
    let (roll, ev) = ok(roll, &mut sheet, RollAction::Close { actor: ME });
    assert_eq!(
        ev,
        vec![
            OreEvent::CacheReturned { faces: vec![9] },
            OreEvent::RollClosed
        ]
    );
    assert_eq!(roll.phase(), RollPhase::Closed);
    let faces: Vec<u32> = sheet.cache.iter().map(|d| d.face).collect();
    assert_eq!(faces, vec![6, 9]);
}

/// The positions of the offered Special actions, by name.
fn offers(roll: &OreRoll, actor: Actor, sheet: &OreSheet) -> Vec<(String, Vec<usize>)> {
    roll.offered_specials(actor, sheet)
        .into_iter()
        .map(|(sp, dice)| (sp.name.clone(), dice))
        .collect()
}

#[test]
fn vv_6_named_special_actions_are_offered_with_exact_dice_and_cache_costs() {
    let settings = OreSettings::default();
    let mut sheet = booted(3, 9, &settings); // cache 6 7 9
    let p = |t: &str| Pattern::parse(t).unwrap();
    sheet
        .add_special("Triple", p("777"), CacheCost::None)
        .unwrap();
    sheet.add_special("Spark", p("67"), CacheCost::One).unwrap();
    sheet.add_special("Ghost", p("79"), CacheCost::All).unwrap();
    sheet
        .add_special("Step", p("run 3"), CacheCost::None)
        .unwrap();
    sheet
        .add_special("Pair", p("run 2"), CacheCost::None)
        .unwrap();
    let ids: Vec<u32> = sheet.specials.iter().map(|s| s.id).collect();
    assert_eq!(ids, vec![0, 1, 2, 3, 4]);
    let (roll, _) = start(&sheet, &settings, Stat::Agility, 4); // 7 6 1 7 7 6
                                                                // No cache die in the register: only the costless patterns it holds.
    assert_eq!(
        offers(&roll, ME, &sheet),
        vec![
            ("Triple".to_string(), vec![0, 3, 4]),
            ("Pair".to_string(), vec![1, 0]),
        ]
    );
    assert_eq!(offers(&roll, OTHER, &sheet), vec![]);
    assert_eq!(offers(&roll, GM, &sheet).len(), 2);
    // The cache's 7 and 9 join the register (positions 6 and 7).
    let (roll, _) = ok(
        roll,
        &mut sheet,
        RollAction::AddCache {
            actor: ME,
            cache: vec![1, 2],
        },
    );
    assert_eq!(
        offers(&roll, ME, &sheet),
        vec![
            ("Triple".to_string(), vec![0, 3, 4]),
            ("Spark".to_string(), vec![1, 6]),
            ("Ghost".to_string(), vec![6, 7]),
            ("Pair".to_string(), vec![1, 0]),
        ]
    );
    // Spark spends exactly the rolled 6 and the cache's 7.
    let spark = sheet.special_named("spark").unwrap().clone();
    assert_eq!(sheet.special(spark.id), Some(&spark));
    let (roll, ev) = ok(
        roll,
        &mut sheet,
        RollAction::Special {
            actor: ME,
            skill: None,
            pattern: spark.pattern.clone(),
            cache_cost: spark.cache_cost,
            label: Some(spark.name.clone()),
        },
    );
    assert_eq!(
        ev,
        vec![
            OreEvent::SpecialAction {
                action: 0,
                pattern: p("67"),
                positions: vec![1, 6],
                faces: vec![6, 7],
                cache_dice: 1,
                label: Some("Spark".into()),
            },
            OreEvent::CacheConsumed { faces: vec![7] },
        ]
    );
    let used: Vec<usize> = roll
        .register
        .iter()
        .enumerate()
        .filter(|(_, d)| !d.is_unused())
        .map(|(i, _)| i)
        .collect();
    assert_eq!(used, vec![1, 6]);
    assert_eq!(roll.actions[0].kind, ActionKind::Special);
    assert_eq!(roll.actions[0].cache_cost, CacheCost::One);
    // Ghost's cache 7 is gone: no offer, and a try spends nothing.
    assert_eq!(
        offers(&roll, ME, &sheet),
        vec![
            ("Triple".to_string(), vec![0, 3, 4]),
            ("Pair".to_string(), vec![5, 0]),
        ]
    );
    let err = refused(
        &roll,
        &mut sheet,
        RollAction::Special {
            actor: ME,
            skill: None,
            pattern: p("79"),
            cache_cost: CacheCost::All,
            label: None,
        },
    );
    assert_eq!(
        err.to_string(),
        "The unused dice do not show 79 with all of them from the cache."
    );
    // A closed register offers nothing.
    let (roll, _) = ok(roll, &mut sheet, RollAction::Close { actor: ME });
    assert_eq!(offers(&roll, ME, &sheet), vec![]);
}

#[test]
fn vv_6_special_actions_on_the_sheet_are_named_once_and_ids_are_not_reused() {
    let mut sheet = OreSheet::default();
    let p = |t: &str| Pattern::parse(t).unwrap();
    assert_eq!(
        sheet
            .add_special(" Burst ", p("777"), CacheCost::None)
            .unwrap()
            .id,
        0
    );
    assert_eq!(sheet.specials[0].name, "Burst");
    let err = sheet
        .add_special("burst", p("789"), CacheCost::One)
        .unwrap_err();
    assert_eq!(
        err.to_string(),
        "There is already a Special action named Burst; remove it first."
    );
    for bad in ["", "   ", &"x".repeat(41), "a\nb"] {
        assert!(
            sheet.add_special(bad, p("77"), CacheCost::None).is_err(),
            "{bad:?}"
        );
    }
    assert_eq!(
        sheet
            .add_special("Wave", p("run 3"), CacheCost::All)
            .unwrap()
            .id,
        1
    );
    let gone = sheet.remove_special("BURST").unwrap();
    assert_eq!(gone.name, "Burst");
    assert_eq!(
        sheet.remove_special("Burst").unwrap_err().to_string(),
        "No Special action is named Burst."
    );
    // A new action never takes the id a posted button may still name.
    assert_eq!(
        sheet
            .add_special("Burst", p("777"), CacheCost::None)
            .unwrap()
            .id,
        2
    );
    sheet.remove_special("Burst").unwrap();
    sheet.remove_special("Wave").unwrap();
    assert_eq!(
        sheet
            .add_special("Late", p("11"), CacheCost::None)
            .unwrap()
            .id,
        3
    );
    for i in 1..20 {
        sheet
            .add_special(&format!("S{i}"), p("11"), CacheCost::None)
            .unwrap();
    }
    assert_eq!(
        sheet
            .add_special("One more", p("11"), CacheCost::None)
            .unwrap_err()
            .to_string(),
        "A sheet keeps at most 20 Special actions."
    );
    // A sheet with none stores no new keys; one stored before loads with none.
    let plain = serde_json::to_value(OreSheet::default()).unwrap();
    assert!(plain.get("specials").is_none() && plain.get("next_special").is_none());
    let back: OreSheet = serde_json::from_value(serde_json::to_value(&sheet).unwrap()).unwrap();
    assert_eq!(back, sheet);
}

#[test]
fn a_o9_cache_dice_return_when_not_consumed() {
    let mut settings = OreSettings::default();
    settings.set("vv_cache_consumed_on_use", "off").unwrap();
    let mut sheet = booted(3, 9, &settings); // cache 6 7 9
    let (roll, _) = start(&sheet, &settings, Stat::Agility, 4);
    let (roll, _) = ok(
        roll,
        &mut sheet,
        RollAction::AddCache {
            actor: ME,
            cache: vec![1],
        },
    );
    let back = roll.back_to_cache();
    assert_eq!(back.iter().map(|d| d.face).collect::<Vec<_>>(), vec![7]);
    let (roll, ev) = ok(roll, &mut sheet, basic(7));
    assert_eq!(ev.len(), 1, "nothing consumed");
    assert_eq!(roll.back_to_cache(), back, "used, it still goes back");
    let (_, ev) = ok(roll, &mut sheet, RollAction::Close { actor: ME });
    assert_eq!(ev[0], OreEvent::CacheReturned { faces: vec![7] });
    assert_eq!(sheet.cache.len(), 3);
}

#[test]
fn a_o9_consumed_cache_dice_do_not_go_back() {
    let settings = OreSettings::default();
    let mut sheet = booted(3, 9, &settings); // cache 6 7 9
    let (roll, _) = start(&sheet, &settings, Stat::Agility, 4);
    let add = RollAction::AddCache {
        actor: ME,
        cache: vec![1],
    };
    let (roll, _) = ok(roll, &mut sheet, add);
    assert_eq!(roll.back_to_cache().len(), 1, "unused, it goes back");
    let (roll, _) = ok(roll, &mut sheet, basic(7));
    assert!(roll.back_to_cache().is_empty(), "used up");
}

#[test]
fn vv_6_cache_cost_requires_cache_dice_in_the_set() {
    let settings = OreSettings::default();
    let mut sheet = booted(3, 9, &settings); // cache 6 7 9
    let (roll, _) = start(&sheet, &settings, Stat::Agility, 4); // 7 6 1 7 7 6
    let costly = |cost| RollAction::Basic {
        actor: ME,
        height: 6,
        width: None,
        requirement: SetRequirement::default(),
        cache_cost: cost,
        label: None,
    };
    let err = refused(&roll, &mut sheet, costly(CacheCost::One));
    assert_eq!(
        err.message,
        "This action needs a set of 6s with at least one of them from the cache."
    );
    let (roll, _) = ok(
        roll,
        &mut sheet,
        RollAction::AddCache {
            actor: ME,
            cache: vec![0],
        },
    );
    let err = refused(&roll, &mut sheet, costly(CacheCost::All));
    assert!(err.message.contains("all of them from the cache"));
    let (roll, _) = ok(roll, &mut sheet, costly(CacheCost::One));
    assert_eq!(roll.actions[0].cache_dice, 1);
    assert_eq!(
        roll.actions[0].set,
        Some(Set {
            width: 3,
            height: 6
        })
    );
}

#[test]
fn vv_8_a_o10_loading_past_the_maximum_forces_a_discard() {
    let settings = OreSettings::default();
    let mut sheet = booted(3, 9, &settings); // cache 6 7 9 (full)
    let (roll, _) = start(&sheet, &settings, Stat::Agility, 4); // 7 6 1 7 7 6
    let (roll, ev) = ok(
        roll,
        &mut sheet,
        RollAction::Load {
            actor: ME,
            dice: vec![2],
        },
    );
    assert_eq!(
        ev,
        vec![
            OreEvent::Loaded {
                faces: vec![1],
                positions: vec![2]
            },
            OreEvent::CacheOverflow { excess: 1 },
        ]
    );
    assert_eq!(roll.phase(), RollPhase::Overflow);
    assert_eq!(
        sheet.cache.last(),
        Some(&CacheDie {
            face: 1,
            source: CacheSource::Loaded
        })
    );
    let err = refused(&roll, &mut sheet, basic(7));
    assert_eq!(
        err.message,
        "Your cache is over its maximum: discard a die first."
    );
    let avail = roll.available_actions(ME, &sheet);
    assert_eq!(avail.discard.len(), 4);
    assert!(avail.basic.is_empty() && !avail.close);
    // Timeout default: the lowest face, the loaded 1.
    let (roll, ev) = ok(
        roll,
        &mut sheet,
        RollAction::Discard {
            actor: ME,
            die: None,
        },
    );
    assert_eq!(
        ev,
        vec![OreEvent::Discarded {
            die: CacheRef::Cache(3),
            face: 1,
            by_default: true
        }]
    );
    assert_eq!(roll.phase(), RollPhase::Open);
    // Owner's choice: load the 7s, then discard the boot 9.
    let (roll, _) = ok(
        roll,
        &mut sheet,
        RollAction::Load {
            actor: ME,
            dice: vec![0, 3],
        },
    );
    let (roll, _) = ok(
        roll,
        &mut sheet,
        RollAction::Discard {
            actor: ME,
            die: Some(CacheRef::Cache(2)),
        },
    );
    assert_eq!(roll.phase(), RollPhase::Overflow, "still one over");
    let (roll, _) = ok(
        roll,
        &mut sheet,
        RollAction::Discard {
            actor: ME,
            die: Some(CacheRef::Cache(0)),
        },
    );
    assert_eq!(roll.phase(), RollPhase::Open);
    let faces: Vec<u32> = sheet.cache.iter().map(|d| d.face).collect();
    assert_eq!(faces, vec![7, 7, 7]);
    let err = refused(
        &roll,
        &mut sheet,
        RollAction::Load {
            actor: ME,
            dice: vec![0],
        },
    );
    assert_eq!(
        err.message,
        "Register die 1 has already been used or loaded."
    );
}

#[test]
fn vv_8_closing_returns_cache_dice_and_may_overflow() {
    let settings = OreSettings::default();
    let mut sheet = booted(2, 9, &settings); // cache 6 7
    let (roll, _) = start(&sheet, &settings, Stat::Agility, 4);
    let (roll, _) = ok(
        roll,
        &mut sheet,
        RollAction::AddCache {
            actor: ME,
            cache: vec![0],
        },
    );
    let (roll, _) = ok(
        roll,
        &mut sheet,
        RollAction::Load {
            actor: ME,
            dice: vec![2],
        },
    );
    assert_eq!(roll.phase(), RollPhase::Open, "cache 7 1: not over");
    let (roll, ev) = ok(roll, &mut sheet, RollAction::Close { actor: ME });
    assert_eq!(
        ev,
        vec![
            OreEvent::CacheReturned { faces: vec![6] },
            OreEvent::CacheOverflow { excess: 1 }
        ]
    );
    assert_eq!(roll.phase(), RollPhase::Overflow);
    let (roll, ev) = ok(
        roll,
        &mut sheet,
        RollAction::Discard {
            actor: ME,
            die: None,
        },
    );
    assert_eq!(ev.last(), Some(&OreEvent::RollClosed));
    assert_eq!(roll.phase(), RollPhase::Closed);
    let faces: Vec<u32> = sheet.cache.iter().map(|d| d.face).collect();
    assert_eq!(faces, vec![7, 6]);
}

#[test]
fn vv_8_an_overflow_settled_elsewhere_reopens_or_closes_the_roll() {
    let settings = OreSettings::default();
    let mut sheet = booted(3, 9, &settings); // cache 6 7 9 (full)
    let (roll, _) = start(&sheet, &settings, Stat::Agility, 4);
    let load = RollAction::Load {
        actor: ME,
        dice: vec![2],
    };
    let (mut roll, _) = ok(roll, &mut sheet, load.clone());
    assert_eq!(roll.phase(), RollPhase::Overflow);
    let mut other = sheet.clone();
    assert!(!roll.settle_overflow(&other), "still over: no change");
    assert_eq!(roll.phase(), RollPhase::Overflow);
    other.discard_overflow(&settings);
    assert!(!roll.settle_overflow(&other), "open again, not closed");
    assert_eq!(roll.phase(), RollPhase::Open);
    // A roll that overflowed as it closed closes once the cache fits.
    let mut sheet = booted(2, 9, &settings); // cache 6 7
    let (roll, _) = start(&sheet, &settings, Stat::Agility, 4);
    let add = RollAction::AddCache {
        actor: ME,
        cache: vec![0],
    };
    let (roll, _) = ok(roll, &mut sheet, add);
    let (roll, _) = ok(roll, &mut sheet, load);
    let (mut roll, _) = ok(roll, &mut sheet, RollAction::Close { actor: ME });
    assert_eq!(roll.phase(), RollPhase::Overflow);
    sheet.discard_overflow(&settings);
    assert!(roll.settle_overflow(&sheet));
    assert_eq!(roll.phase(), RollPhase::Closed);
}

#[test]
fn vv_8_cache_dice_are_lost_if_the_comp_stops_mid_roll() {
    let settings = OreSettings::default();
    let mut sheet = booted(3, 9, &settings);
    let (roll, _) = start(&sheet, &settings, Stat::Agility, 4);
    let (roll, _) = ok(
        roll,
        &mut sheet,
        RollAction::AddCache {
            actor: ME,
            cache: vec![2],
        },
    );
    sheet.use_battery(10).unwrap();
    assert!(!sheet.comp.session_active);
    let (_, ev) = ok(roll, &mut sheet, RollAction::Close { actor: ME });
    assert_eq!(
        ev,
        vec![
            OreEvent::CacheDiceLost { faces: vec![9] },
            OreEvent::RollClosed
        ]
    );
    assert!(sheet.cache.is_empty());
}

// ---------------------------------------------------------------------------
// Damage, Fault dice and Injuries (VV-12..VV-14).

fn fighter() -> OreSheet {
    let mut stats = Stats::all(3);
    stats.set(Stat::Vitality, 10).unwrap();
    stats.set(Stat::Confidence, 5).unwrap();
    stats.set(Stat::Cyber, 4).unwrap();
    OreSheet::new(stats)
}

#[test]
fn vv_12_damage_goes_to_its_track_and_mobs_use_health() {
    let settings = OreSettings::default();
    let mut s = fighter();
    let mut r = rng(1);
    s.take_damage(&settings, Damageable::Confidence, 2, &mut r)
        .unwrap();
    s.take_damage(&settings, Damageable::Cyber, 1, &mut r)
        .unwrap();
    let ev = s
        .take_damage(&settings, Damageable::Vitality, 3, &mut r)
        .unwrap();
    assert_eq!(
        (s.vitality.current, s.confidence.current, s.cyber.current),
        (7, 3, 3)
    );
    assert_eq!(
        ev[0],
        OreEvent::DamageTaken {
            target: Damageable::Vitality,
            raw: 3,
            defense: 0,
            taken: 3,
            current: 7,
            overflow_after_zero: 0
        }
    );
    assert_eq!(s.fault_dice.len(), 3, "one Fault die per hit");
    let mut mob = OreSheet::mob(Stats::all(2), 4);
    let ev = mob
        .take_damage(&settings, Damageable::Cyber, 1, &mut r)
        .unwrap();
    assert_eq!(mob.vitality.current, 3);
    assert_eq!(ev.len(), 1, "no Fault die for mobs");
    assert!(mob.fault_dice.is_empty());
    assert!(s
        .take_damage(&settings, Damageable::Vitality, 0, &mut r)
        .is_err());
}

#[test]
fn vv_13_confidence_zero_is_a_mental_break() {
    let settings = OreSettings::default();
    let mut s = fighter();
    let ev = s
        .take_damage(&settings, Damageable::Confidence, 7, &mut rng(1))
        .unwrap();
    assert!(ev.contains(&OreEvent::ReachedZero {
        target: Damageable::Confidence
    }));
    assert!(ev.contains(&OreEvent::Incapacitated {
        condition: Condition::MentalBreak
    }));
    assert!(s.conditions.incapacitated());
    assert_eq!(s.confidence.overflow_after_zero, 2);
    assert!(!s.conditions.dead, "only Vitality kills");
}

#[test]
fn vv_13_cyber_zero_logs_out_and_deletes_digital_entities() {
    let settings = OreSettings::default();
    let mut s = fighter();
    s.set_cache_max(2).unwrap();
    s.comp.plugged_in = true;
    s.boot(&settings, &mut rng(3)).unwrap();
    let ev = s
        .take_damage(&settings, Damageable::Cyber, 4, &mut rng(1))
        .unwrap();
    assert!(ev.contains(&OreEvent::Incapacitated {
        condition: Condition::SupernaturalLost
    }));
    assert!(ev.iter().any(|e| matches!(
        e,
        OreEvent::LoggedOut { reason: LogoutReason::CyberZero, cache_lost } if cache_lost.len() == 2
    )));
    assert!(!s.comp.session_active && s.cache.is_empty());
    assert!(
        !s.conditions.incapacitated(),
        "a living entity only loses its powers"
    );
    let err = s.boot(&settings, &mut rng(3)).unwrap_err();
    assert!(err.message.contains("0 Cyber"));
    let mut sprite = fighter();
    sprite.native_digital = true;
    sprite.living = false;
    let ev = sprite
        .take_damage(&settings, Damageable::Cyber, 9, &mut rng(1))
        .unwrap();
    assert!(ev.contains(&OreEvent::Incapacitated {
        condition: Condition::Deleted
    }));
    assert!(sprite
        .take_damage(&settings, Damageable::Cyber, 1, &mut rng(1))
        .is_err());
}

#[test]
fn vv_13_living_entities_at_zero_vitality_fall_at_the_end_of_the_round() {
    let settings = OreSettings::default();
    let mut s = fighter();
    let ev = s
        .take_damage(&settings, Damageable::Vitality, 10, &mut rng(1))
        .unwrap();
    assert!(ev.contains(&OreEvent::IncapacitationPending));
    assert!(s.combat.power_penalty && !s.conditions.incapacitated());
    // They still act, one die down (A-O19).
    let (roll, _) = start(&s, &settings, Stat::Physique, 4);
    assert_eq!(roll.pool, 2);
    let ev = s.end_of_round(&settings);
    assert!(ev.contains(&OreEvent::Incapacitated {
        condition: Condition::VitalityDown
    }));
    assert!(ev.contains(&OreEvent::PowerPenaltyEnded));
    assert!(s.conditions.vitality_down && !s.combat.power_penalty);
    // Non-living entities fall at once.
    let mut drone = fighter();
    drone.living = false;
    let ev = drone
        .take_damage(&settings, Damageable::Vitality, 12, &mut rng(1))
        .unwrap();
    assert!(ev.contains(&OreEvent::Incapacitated {
        condition: Condition::VitalityDown
    }));
    assert!(!drone.combat.power_penalty);
}

#[test]
fn a_o20_death_when_damage_after_zero_reaches_max_vitality() {
    let settings = OreSettings::default();
    let mut s = fighter(); // Vitality 10
    let mut r = rng(2);
    s.take_damage(&settings, Damageable::Vitality, 12, &mut r)
        .unwrap();
    assert_eq!(s.vitality.overflow_after_zero, 2);
    s.take_damage(&settings, Damageable::Vitality, 7, &mut r)
        .unwrap();
    assert_eq!(s.vitality.overflow_after_zero, 9);
    assert!(!s.conditions.dead, "9 < 10");
    let ev = s
        .take_damage(&settings, Damageable::Vitality, 1, &mut r)
        .unwrap();
    assert_eq!(s.vitality.overflow_after_zero, 10);
    assert!(s.conditions.dead, "equal is enough (≥)");
    assert!(ev.contains(&OreEvent::Incapacitated {
        condition: Condition::Dead
    }));
    assert!(s
        .pass_days(5, true)
        .unwrap_err()
        .message
        .contains("black magic"));
    assert!(OreRoll::start(
        &s,
        &settings,
        ME,
        RollRequest {
            stat: Some(Stat::Wit),
            ..Default::default()
        },
        &mut r
    )
    .is_err());
    // Overkill in one blow: 10 + 10.
    let mut t = fighter();
    t.take_damage(&settings, Damageable::Vitality, 20, &mut r)
        .unwrap();
    assert!(t.conditions.dead);
}

#[test]
fn vv_14_seeded_fault_dice_become_injuries_by_width_at_the_end_phase() {
    let settings = OreSettings::default();
    let mut s = fighter();
    s.set_track_max(Damageable::Vitality, 100).unwrap();
    s.vitality.current = 100;
    let mut r = rng(4);
    for _ in 0..8 {
        s.take_damage(&settings, Damageable::Vitality, 1, &mut r)
            .unwrap();
    }
    assert_eq!(s.fault_dice, vec![7, 6, 1, 7, 7, 6, 5, 6]);
    assert!(s.injuries.is_empty(), "checked at the End phase (A-O12)");
    let ev = s.end_of_round(&settings);
    assert_eq!(
        ev,
        vec![
            OreEvent::EndOfRound,
            OreEvent::InjuryFormed {
                severity: Severity::Moderate,
                width: 3,
                face: 7
            },
            OreEvent::InjuryFormed {
                severity: Severity::Moderate,
                width: 3,
                face: 6
            },
        ]
    );
    assert_eq!(s.fault_dice, vec![1, 5]);
    assert_eq!(s.error_dice_count(&settings), 4);
    // Seed 26: 3 3 6 5 2 3 1 3 → a quad of 3s, Severe.
    let mut t = fighter();
    t.set_track_max(Damageable::Vitality, 100).unwrap();
    t.vitality.current = 100;
    let mut r = rng(26);
    for _ in 0..8 {
        t.take_damage(&settings, Damageable::Vitality, 1, &mut r)
            .unwrap();
    }
    t.end_of_round(&settings);
    assert_eq!(
        t.injuries,
        vec![Injury {
            severity: Severity::Severe,
            healed: false,
            losses: Some(Losses {
                vitality: true,
                confidence: false
            })
        }]
    );
    assert_eq!(t.fault_dice, vec![6, 5, 2, 1]);
}

#[test]
fn vv_14_widths_map_to_minor_moderate_severe_critical() {
    for (faults, severity) in [
        (vec![2, 2], Severity::Minor),
        (vec![3, 3, 3], Severity::Moderate),
        (vec![4, 4, 4, 4], Severity::Severe),
        (vec![5, 5, 5, 5, 5], Severity::Critical),
        (vec![9; 7], Severity::Critical),
    ] {
        let mut s = fighter();
        s.fault_dice = faults.clone();
        s.fault_dice.push(1);
        let ev = s.check_faults();
        assert_eq!(
            s.injuries,
            vec![Injury {
                severity,
                healed: false,
                losses: Some(Losses::default())
            }],
            "{faults:?}"
        );
        assert_eq!(s.fault_dice, vec![1]);
        assert_eq!(
            s.conditions.critical_injury,
            severity == Severity::Critical,
            "{faults:?}"
        );
        if severity == Severity::Critical {
            assert!(ev.contains(&OreEvent::Incapacitated {
                condition: Condition::CriticalInjury
            }));
            assert_eq!(s.error_dice_count(&OreSettings::default()), 0);
        }
    }
    assert_eq!(Severity::from_width(1), None);
}

#[test]
fn a_o12_immediate_fault_check_only_ever_forms_dubs() {
    let mut settings = OreSettings::default();
    settings.set("vv_fault_check", "immediate").unwrap();
    let mut s = fighter();
    s.set_track_max(Damageable::Vitality, 100).unwrap();
    s.vitality.current = 100;
    let mut r = rng(4); // Fault dice 7 6 1 7 7 6 5 6
    let mut formed = Vec::new();
    for hit in 1..=8 {
        let ev = s
            .take_damage(&settings, Damageable::Vitality, 1, &mut r)
            .unwrap();
        for e in ev {
            if let OreEvent::InjuryFormed { severity, face, .. } = e {
                formed.push((hit, severity, face));
            }
        }
    }
    assert_eq!(
        formed,
        vec![(4, Severity::Minor, 7), (6, Severity::Minor, 6)]
    );
    assert_eq!(s.fault_dice, vec![1, 7, 5, 6]);
}

#[test]
fn a_o12_matching_fault_dice_wait_for_the_end_phase_check() {
    let mut settings = OreSettings::default();
    let mut s = fighter();
    s.fault_dice = vec![7, 3, 7, 3, 3, 1];
    let pending = s.pending_faults(&settings);
    assert_eq!(
        pending,
        vec![
            Set {
                width: 3,
                height: 3
            },
            Set {
                width: 2,
                height: 7
            }
        ]
    );
    s.fault_dice = vec![7, 3];
    assert!(s.pending_faults(&settings).is_empty(), "no match");
    s.fault_dice = vec![7, 7];
    settings.set("vv_fault_check", "immediate").unwrap();
    assert!(s.pending_faults(&settings).is_empty(), "formed at once");
    let mut mob = OreSheet::mob(Stats::all(3), 4);
    mob.fault_dice = vec![7, 7];
    assert!(mob.pending_faults(&OreSettings::default()).is_empty());
}

#[test]
fn vv_13_vv_14_injuries_and_incapacitation_hurt_a_cyber_lock_out_does_not() {
    let injury = OreEvent::InjuryFormed {
        severity: Severity::Minor,
        width: 2,
        face: 7,
    };
    assert!(injury.hurts());
    for c in [
        Condition::VitalityDown,
        Condition::MentalBreak,
        Condition::Dead,
    ] {
        assert!(OreEvent::Incapacitated { condition: c }.hurts(), "{c:?}");
    }
    let locked_out = OreEvent::Incapacitated {
        condition: Condition::SupernaturalLost,
    };
    assert!(!locked_out.hurts());
    assert!(!OreEvent::FaultDie { face: 3 }.hurts());
}

#[test]
fn vv_13_a_o23_more_than_three_injuries_glitch_and_it_sticks() {
    let mut s = fighter();
    s.fault_dice = vec![1, 1, 2, 2, 3, 3];
    let ev = s.check_faults();
    assert_eq!(s.injuries.len(), 3);
    assert!(!ev
        .iter()
        .any(|e| matches!(e, OreEvent::Incapacitated { .. })));
    s.fault_dice = vec![4, 4];
    let ev = s.check_faults();
    assert!(ev.contains(&OreEvent::Incapacitated {
        condition: Condition::Glitched
    }));
    assert!(s.conditions.glitched && s.conditions.incapacitated());
    s.heal_injury(0).unwrap();
    assert!(
        s.conditions.glitched,
        "only a broken COMP ends it; the GM clears it"
    );
    assert!(s.heal_injury(0).is_err());
    assert!(s.heal_injury(9).is_err());
}

#[test]
fn a_o11_fault_dice_can_overflow_the_cache_when_they_count() {
    let mut settings = OreSettings::default();
    settings.set("vv_fault_counts_toward_cache", "on").unwrap();
    let mut s = fighter();
    s.set_cache_max(1).unwrap();
    s.comp.plugged_in = true;
    s.boot(&settings, &mut rng(1)).unwrap();
    let ev = s
        .take_damage(&settings, Damageable::Vitality, 1, &mut rng(2))
        .unwrap();
    assert_eq!(ev.last(), Some(&OreEvent::CacheOverflow { excess: 1 }));
    let ev = s
        .discard_cache_die(&settings, Some(CacheRef::Fault(0)))
        .unwrap();
    assert!(matches!(
        ev[0],
        OreEvent::Discarded {
            die: CacheRef::Fault(0),
            ..
        }
    ));
    assert!(s.fault_dice.is_empty());
}

#[test]
fn a_o18_defenses_are_shown_or_subtracted() {
    let mut settings = OreSettings::default();
    let mut s = fighter();
    s.defenses.resolve = 2;
    s.defenses.integrity = 1;
    s.take_damage(&settings, Damageable::Vitality, 1, &mut rng(1))
        .unwrap();
    assert_eq!(
        s.vitality.current, 9,
        "display mode: Defense is not applied"
    );
    settings.set("vv_defense_mode", "subtract").unwrap();
    let ev = s
        .take_damage(&settings, Damageable::Vitality, 1, &mut rng(1))
        .unwrap();
    assert_eq!(
        ev,
        vec![OreEvent::DamageAbsorbed {
            target: Damageable::Vitality,
            raw: 1,
            defense: 1
        }]
    );
    assert_eq!(s.fault_dice.len(), 1, "no damage, no Fault die");
    s.take_damage(&settings, Damageable::Confidence, 3, &mut rng(1))
        .unwrap();
    assert_eq!(s.confidence.current, 4);
    s.take_damage(&settings, Damageable::Cyber, 3, &mut rng(1))
        .unwrap();
    assert_eq!(s.cyber.current, 2);
}

#[test]
fn a_o17_damage_suggestion_is_the_set_width_when_set() {
    let mut settings = OreSettings::default();
    settings.set("vv_default_damage", "width").unwrap();
    let mut sheet = sheet_with(Stat::Agility, 6);
    let (roll, _) = start(&sheet, &settings, Stat::Agility, 4);
    let (roll, _) = ok(roll, &mut sheet, basic(7));
    assert_eq!(roll.actions[0].suggested_damage, Some(3));
    let (roll, _) = start(&sheet, &OreSettings::default(), Stat::Agility, 4);
    let (roll, _) = ok(roll, &mut sheet, basic(7));
    assert_eq!(roll.actions[0].suggested_damage, None);
}

#[test]
fn vv_14_fault_dice_clear_at_the_end_of_combat_in_a_stable_place() {
    let settings = OreSettings::default();
    let mut s = fighter();
    s.take_damage(&settings, Damageable::Vitality, 1, &mut rng(1))
        .unwrap();
    s.combat.outthink = Some(27);
    let ev = s.end_combat(false);
    assert_eq!(ev, vec![OreEvent::CombatEnded]);
    assert_eq!(s.fault_dice.len(), 1);
    assert_eq!(s.combat.outthink, None);
    let ev = s.end_combat(true);
    assert!(matches!(&ev[1], OreEvent::FaultDiceCleared { faces } if faces.len() == 1));
    assert!(s.fault_dice.is_empty());
}

// ---------------------------------------------------------------------------
// Healing and repair (VV-15, VV-16).

#[test]
fn vv_15_natural_healing_is_one_a_day_and_injuries_need_a_professional() {
    let settings = OreSettings::default();
    let mut s = fighter();
    s.take_damage(&settings, Damageable::Vitality, 4, &mut rng(1))
        .unwrap();
    s.take_damage(&settings, Damageable::Confidence, 5, &mut rng(2))
        .unwrap();
    s.take_damage(&settings, Damageable::Cyber, 2, &mut rng(3))
        .unwrap();
    assert!(s.conditions.mental_break);
    let ev = s.pass_days(3, false).unwrap();
    assert_eq!(
        ev,
        vec![
            OreEvent::Healed {
                target: Damageable::Vitality,
                amount: 3,
                current: 9
            },
            OreEvent::Healed {
                target: Damageable::Confidence,
                amount: 3,
                current: 3
            },
            OreEvent::ConditionCleared {
                condition: Condition::MentalBreak
            },
        ]
    );
    assert_eq!(s.cyber.current, 2, "Cyber needs repairs, not rest");
    s.injuries.push(Injury {
        severity: Severity::Minor,
        healed: false,
        losses: None,
    });
    let ev = s.pass_days(2, false).unwrap();
    assert!(matches!(&ev[0], OreEvent::Warning { message } if message.contains("professional")));
    assert_eq!(s.vitality.current, 9);
    s.pass_days(2, true).unwrap();
    assert_eq!((s.vitality.current, s.confidence.current), (10, 5));
    assert!(s.pass_days(0, true).is_err());
}

#[test]
fn vv_16_a_o21_cyber_repair_checks_height_against_the_value_restored_to() {
    let settings = OreSettings::default();
    let mut s = fighter(); // Cyber 4
    s.cyber.current = 2;
    s.world = World::CosmOS;
    let err = s.repair_cyber(&settings, 6, &mut rng(4)).unwrap_err();
    assert!(err.message.contains("physical world"));
    s.world = World::Physical;
    // Seed 4: 7 6 1 7 7 6; restoring to 3 needs height ≥ 3.
    let (out, ev) = s.repair_cyber(&settings, 6, &mut rng(4)).unwrap();
    assert!(out.success);
    assert_eq!((out.target_value, out.hours), (3, 3));
    assert_eq!(
        out.best,
        Some(Set {
            width: 3,
            height: 7
        })
    );
    assert_eq!(s.cyber.current, 3);
    assert!(ev.contains(&OreEvent::Healed {
        target: Damageable::Cyber,
        amount: 1,
        current: 3
    }));
    // Seed 3: 7 1 10 4 2 2 → only a dub of 2s: fails against 4.
    let (out, _) = s.repair_cyber(&settings, 6, &mut rng(3)).unwrap();
    assert!(!out.success);
    assert_eq!(out.needed, "a set of height 4 or more");
    assert_eq!(s.cyber.current, 3);
    let err = s.repair_cyber(&settings, 6, &mut rng(4)).unwrap_err();
    assert!(err.message.contains("wait a day"));
    s.pass_days(1, false).unwrap();
    s.repair_cyber(&settings, 6, &mut rng(4)).unwrap();
    assert_eq!(s.cyber.current, 4);
    assert!(s
        .repair_cyber(&settings, 6, &mut rng(4))
        .unwrap_err()
        .message
        .contains("maximum"));
}

#[test]
fn a_o21_high_values_and_set_value_mode_compare_set_values() {
    let mut settings = OreSettings::default();
    let mut s = fighter();
    s.set_track_max(Damageable::Cyber, 15).unwrap();
    s.cyber.current = 11; // restoring to 12: needs a set worth ≥ 22
    let (out, _) = s.repair_cyber(&settings, 6, &mut rng(3)).unwrap(); // 2×2 = 22
    assert!(out.success);
    assert_eq!(out.needed, "a set worth 22 or more");
    assert_eq!(out.hours, 12);
    settings.set("vv_repair_check", "set_value").unwrap();
    s.cyber.current = 2; // restoring to 3: a set worth ≥ 13, so any set
    let (out, _) = s.repair_cyber(&settings, 6, &mut rng(3)).unwrap();
    assert!(out.success);
    // Zero dice can never pass; a capped pool is reported.
    let (out, ev) = s.repair_cyber(&settings, 40, &mut rng(3)).unwrap();
    assert_eq!(out.pool, 10);
    assert_eq!(
        ev[0],
        OreEvent::PoolCapped {
            requested: 40,
            cap: 10
        }
    );
}

#[test]
fn vv_16_a_o21_repair_chance_is_the_odds_of_the_next_point_with_the_capped_pool() {
    let mut settings = OreSettings::default();
    let mut s = fighter();
    s.cyber.current = 2; // restoring to 3
    let by_height = super::odds::repair_odds(6, 3, settings.repair_check).unwrap();
    assert_eq!(s.repair_chance(&settings, 6), Some(by_height));
    // More dice than vv_max_pool roll only the pool's worth.
    settings.set("vv_max_pool", "5").unwrap();
    let five = super::odds::repair_odds(5, 3, settings.repair_check).unwrap();
    assert_eq!(s.repair_chance(&settings, 40), Some(five));
    assert!(five < by_height);
    assert_eq!(s.repair_chance(&settings, 0), Some(0.0));
}

#[test]
fn vv_16_repair_clears_the_cyber_lockout() {
    let settings = OreSettings::default();
    let mut s = fighter();
    s.take_damage(&settings, Damageable::Cyber, 4, &mut rng(1))
        .unwrap();
    assert!(s.conditions.supernatural_lost);
    let (out, ev) = s.repair_cyber(&settings, 6, &mut rng(4)).unwrap();
    assert!(out.success);
    assert!(ev.contains(&OreEvent::ConditionCleared {
        condition: Condition::SupernaturalLost
    }));
}

#[test]
fn critical_injuries_heal_through_heal_injury() {
    let mut s = fighter();
    s.fault_dice = vec![8; 5];
    s.check_faults();
    assert!(s.conditions.critical_injury);
    let ev = s.heal_injury(0).unwrap();
    assert_eq!(
        ev[1],
        OreEvent::ConditionCleared {
            condition: Condition::CriticalInjury
        }
    );
    assert!(!s.conditions.incapacitated());
}

// ---------------------------------------------------------------------------
// A combat round (VV-10, VV-11).

#[test]
fn vv_10_vv_11_a_o15_a_round_runs_call_then_resolution_order() {
    let settings = OreSettings::default();
    let mut a = sheet_with(Stat::Wit, 5);
    a.stats.agility = 6;
    let mut b = sheet_with(Stat::Wit, 3);
    b.world = World::CosmOS;
    b.stats.precision = 7;
    let c = sheet_with(Stat::Wit, 8);
    let sheets = [(10, &a), (20, &b), (30, &c)];
    let mut r = rng(11);
    let outthink: Vec<Entrant> = sheets
        .iter()
        .map(|(id, s)| Entrant::from_sheet(*id, s, OrderKind::Outthink))
        .collect();
    assert_eq!(
        outthink.iter().map(|e| e.stat).collect::<Vec<_>>(),
        vec![5, 3, 8]
    );
    let o = roll_order(OrderKind::Outthink, &outthink, &settings, &mut r).unwrap();
    let init: Vec<Entrant> = sheets
        .iter()
        .map(|(id, s)| Entrant::from_sheet(*id, s, OrderKind::Initiative))
        .collect();
    assert_eq!(init[1].stat, 7, "Precision inside cosmOS");
    let i = roll_order(OrderKind::Initiative, &init, &settings, &mut r).unwrap();
    // Seed 11, observed: exact values and orders.
    let ov: Vec<u32> = [10, 20, 30]
        .iter()
        .map(|&id| o.value_of(id).unwrap())
        .collect();
    let iv: Vec<u32> = [10, 20, 30]
        .iter()
        .map(|&id| i.value_of(id).unwrap())
        .collect();
    // Seed 11: Outthink 3 3 6 8 8 → 2×8 (28); 9 7 2 → 19; 3 5 6 9 4 10 6 10 → 2×10 (30).
    // Initiative (Agility 6; Precision 7 in cosmOS; Agility 4):
    // 4 8 6 9 4 2 → 2×4 (24); 10 9 9 4 3 10 6 → 2×10 (30); 10 7 8 3 → 20.
    assert_eq!(ov, vec![28, 19, 30]);
    assert_eq!(iv, vec![24, 30, 20]);
    assert_eq!(o.entries[1].faces, vec![9, 7, 2]);
    assert_eq!(i.entries[1].faces, vec![10, 9, 9, 4, 3, 10, 6]);
    assert_eq!(o.call_order(), vec![20, 10, 30]);
    assert_eq!(i.resolution_order(&settings), vec![20, 10, 30]);
    // While 20 acts (Initiative 30) nobody may react: 30 is not above 30.
    assert!(!can_react(o.value_of(30).unwrap(), 30));
    // While 10 acts (Initiative 24), 30 (Outthink 30) may react; 20 (19) may not.
    assert!(can_react(o.value_of(30).unwrap(), 24));
    assert!(!can_react(o.value_of(20).unwrap(), 24));
    for e in o.entries.iter().chain(&i.entries) {
        assert_eq!(e.value, super::sets::read(&e.faces).value());
    }
    let call = o.call_order();
    let call_values: Vec<u32> = call.iter().map(|&id| o.value_of(id).unwrap()).collect();
    assert!(call_values.windows(2).all(|w| w[0] <= w[1]), "{ov:?}");
    let turn = i.resolution_order(&settings);
    let turn_values: Vec<u32> = turn.iter().map(|&id| i.value_of(id).unwrap()).collect();
    assert!(turn_values.windows(2).all(|w| w[0] >= w[1]), "{iv:?}");
    let mut a = a.clone();
    assert!(o.record_on(10, &mut a) && i.record_on(10, &mut a));
    assert_eq!(a.combat.outthink, o.value_of(10));
    assert_eq!(a.combat.initiative, i.value_of(10));
    assert!(!o.record_on(77, &mut a));
    // A-O16: whoever's Outthink beats the acting entity's Initiative may react.
    let acting = turn[0];
    let acting_init = i.value_of(acting).unwrap();
    for &id in &[10, 20, 30] {
        let may = can_react(o.value_of(id).unwrap(), acting_init);
        assert_eq!(may, o.value_of(id).unwrap() > acting_init);
    }
}

// ---------------------------------------------------------------------------
// Statistics: the real rolling code against the exact odds.

#[test]
fn vv_2_a_o1_statistical_widest_set_of_real_rolls_matches_exact_odds() {
    const ROLLS: u32 = 100_000;
    let settings = OreSettings::default();
    let sheet = sheet_with(Stat::Wit, 10);
    let mut r = rng(20_240_404);
    let mut seen = [0u32; 11];
    for _ in 0..ROLLS {
        let (roll, _) = OreRoll::start(
            &sheet,
            &settings,
            ME,
            RollRequest {
                stat: Some(Stat::Wit),
                ..Default::default()
            },
            &mut r,
        )
        .unwrap();
        seen[roll.natural_reading().widest() as usize] += 1;
    }
    let pmf = widest_pmf(10);
    // Widths whose expected count is under 5 are pooled into one tail cell,
    // so every compared cell has a meaningful standard error.
    let n = f64::from(ROLLS);
    let mut tail_p = 0.0;
    let mut tail_seen = 0u32;
    for k in 1..=10usize {
        let p = pmf[k - 1];
        if n * p < 5.0 {
            tail_p += p;
            tail_seen += seen[k];
            continue;
        }
        let sigma = (n * p * (1.0 - p)).sqrt();
        let diff = (f64::from(seen[k]) - n * p).abs();
        assert!(
            diff <= 5.0 * sigma,
            "width {k}: saw {}, expected {:.1} ± {sigma:.1}",
            seen[k],
            n * p
        );
    }
    let sigma = (n * tail_p * (1.0 - tail_p)).sqrt().max(1.0);
    let diff = (f64::from(tail_seen) - n * tail_p).abs();
    assert!(
        diff <= 5.0 * sigma,
        "tail: saw {tail_seen}, expected {:.2}",
        n * tail_p
    );
    assert_eq!(seen[0], 0);
}

// ---------------------------------------------------------------------------
// Flow of play (issue 14): registers last one round, a COMP shutdown takes
// its cache dice, the end of combat checks Faults, incapacitation, Error
// Dice on Minor actions.

#[test]
fn vv_11_a_register_ends_at_the_end_phase_and_spends_nothing_after() {
    let settings = OreSettings::default();
    let mut sheet = booted(3, 9, &settings); // cache 6 7 9
    let (roll, _) = start(&sheet, &settings, Stat::Agility, 4); // 7 6 1 7 7 6
    let (roll, _) = ok(
        roll,
        &mut sheet,
        RollAction::AddCache {
            actor: ME,
            cache: vec![2],
        },
    );
    assert_eq!(sheet.cache.len(), 2);
    sheet.end_of_round(&settings);
    let (closed, ev) = ok(roll.clone(), &mut sheet, basic(7));
    assert_eq!(
        ev,
        vec![
            OreEvent::RegisterEnded,
            OreEvent::CacheReturned { faces: vec![9] },
            OreEvent::RollClosed
        ]
    );
    assert_eq!(closed.phase, RollPhase::Closed);
    assert!(closed.actions.is_empty());
    assert_eq!(sheet.cache.len(), 3, "the cache die came back");
    // A Minor action on the same stale register spends nothing either.
    let mut sheet2 = booted(3, 9, &settings);
    let (roll2, _) = start(&sheet2, &settings, Stat::Agility, 4);
    sheet2.end_combat(false);
    let (closed2, ev2) = ok(
        roll2,
        &mut sheet2,
        RollAction::Minor {
            actor: ME,
            die: Some(0),
            label: None,
        },
    );
    assert_eq!(ev2, vec![OreEvent::RegisterEnded, OreEvent::RollClosed]);
    assert!(closed2.register.iter().all(|d| d.is_unused()));
    // A roll made after the End phase works as usual.
    let (fresh, _) = start(&sheet2, &settings, Stat::Agility, 4);
    let (fresh, _) = ok(fresh, &mut sheet2, basic(7));
    assert_eq!(fresh.actions.len(), 1);
}

#[test]
fn vv_8_a_comp_shutdown_takes_cache_dice_out_of_an_open_register() {
    let settings = OreSettings::default();
    let mut sheet = booted(3, 9, &settings); // cache 6 7 9
    let (roll, _) = start(&sheet, &settings, Stat::Agility, 4); // 7 6 1 7 7 6
    let (roll, _) = ok(
        roll,
        &mut sheet,
        RollAction::AddCache {
            actor: ME,
            cache: vec![1],
        },
    );
    assert_eq!(roll.reading().sets[0].width, 4, "7 7 7 + the cache 7");
    sheet.logout(LogoutReason::Manual).unwrap();
    let (roll, ev) = ok(roll, &mut sheet, basic(7));
    assert_eq!(ev[0], OreEvent::CacheDiceLost { faces: vec![7] });
    assert_eq!(roll.actions[0].set.map(|s| s.width), Some(3));
    assert_eq!(roll.actions[0].cache_dice, 0);
    assert_eq!(roll.register[6].status, DieStatus::Lost);
    // Booting again does not bring the lost die back into the register.
    sheet.set_battery_max(10).unwrap();
    sheet.comp.battery_current = 10;
    sheet.boot(&settings, &mut rng(9)).unwrap();
    let (_, ev) = ok(roll, &mut sheet, RollAction::Close { actor: ME });
    assert_eq!(ev, vec![OreEvent::RollClosed]);
    assert_eq!(sheet.cache.len(), 3);
}

#[test]
fn vv_8_battery_and_cyber_zero_also_take_the_register_cache_dice() {
    let settings = OreSettings::default();
    for how in ["battery", "cyber"] {
        let mut sheet = booted(3, 9, &settings);
        let (roll, _) = start(&sheet, &settings, Stat::Agility, 4);
        let (roll, _) = ok(
            roll,
            &mut sheet,
            RollAction::AddCache {
                actor: ME,
                cache: vec![1],
            },
        );
        if how == "battery" {
            sheet.use_battery(10).unwrap();
        } else {
            let cyber = sheet.cyber.current;
            sheet
                .take_damage(&settings, Damageable::Cyber, cyber, &mut rng(1))
                .unwrap();
        }
        assert!(!sheet.comp.session_active, "{how}");
        let (roll, _) = ok(roll, &mut sheet, basic(7));
        assert_eq!(roll.actions[0].set.map(|s| s.width), Some(3), "{how}");
    }
}

#[test]
fn vv_14_ending_combat_checks_the_faults_before_clearing_them() {
    let mut s = fighter();
    s.fault_dice = vec![4, 4, 8];
    let ev = s.end_combat(true);
    assert!(ev.contains(&OreEvent::InjuryFormed {
        severity: Severity::Minor,
        width: 2,
        face: 4
    }));
    assert_eq!(s.active_injuries().count(), 1);
    assert!(s.fault_dice.is_empty());
    let mut s = fighter();
    s.fault_dice = vec![5, 5, 5];
    s.end_combat(false);
    assert_eq!(s.active_injuries().count(), 1);
    assert!(s.fault_dice.is_empty());
}

#[test]
fn vv_13_zero_vitality_acts_at_minus_one_power_then_cannot_roll() {
    let settings = OreSettings::default();
    let mut s = fighter();
    s.take_damage(&settings, Damageable::Vitality, 10, &mut rng(1))
        .unwrap();
    assert!(s.combat.incapacitated_pending_end_of_round);
    let (roll, _) = OreRoll::start(
        &s,
        &settings,
        ME,
        RollRequest {
            stat: Some(Stat::Agility),
            ..Default::default()
        },
        &mut rng(2),
    )
    .unwrap();
    assert!(roll.power_penalty.is_some());
    s.end_of_round(&settings);
    let err = OreRoll::start(
        &s,
        &settings,
        ME,
        RollRequest {
            stat: Some(Stat::Agility),
            ..Default::default()
        },
        &mut rng(2),
    )
    .unwrap_err();
    assert!(err.to_string().contains("incapacitated"), "{err}");
    // A mental break, too.
    let mut m = fighter();
    m.conditions.mental_break = true;
    assert!(OreRoll::start(
        &m,
        &settings,
        ME,
        RollRequest {
            dice: Some(3),
            ..Default::default()
        },
        &mut rng(2),
    )
    .is_err());
}

#[test]
fn vv_13_a_living_mob_gets_the_end_of_round_delay() {
    let settings = OreSettings::default();
    let mut m = OreSheet::mob(Stats::all(3), 4);
    m.living = true;
    let ev = m
        .take_damage(&settings, Damageable::Vitality, 4, &mut rng(1))
        .unwrap();
    assert!(ev.contains(&OreEvent::IncapacitationPending));
    assert!(!m.conditions.vitality_down);
    assert!(m.combat.power_penalty);
    m.end_of_round(&settings);
    assert!(m.conditions.vitality_down);
    // A mob that is not living drops at once.
    let mut d = OreSheet::mob(Stats::all(3), 4);
    d.take_damage(&settings, Damageable::Vitality, 4, &mut rng(1))
        .unwrap();
    assert!(d.conditions.vitality_down);
}

#[test]
fn a_o13_minor_actions_roll_error_dice_too() {
    let settings = OreSettings::default();
    let mut sheet = sheet_with(Stat::Agility, 6);
    sheet.injuries.push(Injury {
        severity: Severity::Minor,
        healed: false,
        losses: None,
    });
    let (roll, _) = start(&sheet, &settings, Stat::Agility, 4); // 7 6 1 7 7 6
    assert_eq!(roll.error_dice.len(), 1);
    assert_eq!(roll.first_error_dice(), Some(roll.error_dice.as_slice()));
    let (roll, _) = ok(
        roll,
        &mut sheet,
        RollAction::Minor {
            actor: ME,
            die: Some(2),
            label: None,
        },
    );
    assert_eq!(roll.actions[0].error_dice, roll.error_dice);
    assert_eq!(roll.first_error_dice(), None, "the Minor action took them");
    let (roll, ev) = ok(roll, &mut sheet, basic(7));
    assert_eq!(roll.actions[1].error_dice.len(), 1, "a fresh Error Die");
    assert!(ev.iter().any(|e| matches!(
        e,
        OreEvent::ErrorDice {
            action: Some(1),
            ..
        }
    )));
    let (roll, ev) = ok(
        roll,
        &mut sheet,
        RollAction::Minor {
            actor: ME,
            die: None,
            label: None,
        },
    );
    assert_eq!(roll.actions[2].error_dice.len(), 1);
    assert!(ev.iter().any(|e| matches!(
        e,
        OreEvent::ErrorDice {
            action: Some(2),
            ..
        }
    )));
}

#[test]
fn vv_13_a_killing_blow_is_death_not_minus_one_power() {
    let settings = OreSettings::default();
    let mut s = fighter();
    let ev = s
        .take_damage(&settings, Damageable::Vitality, 20, &mut rng(1))
        .unwrap();
    assert!(s.conditions.dead);
    assert!(!ev.contains(&OreEvent::IncapacitationPending), "{ev:?}");
    assert!(!s.combat.power_penalty);
}

#[test]
fn vv_15_an_injury_blocks_only_the_losses_that_came_with_it() {
    let settings = OreSettings::default();
    let mut s = fighter();
    s.vitality.current = 6;
    s.fault_dice = vec![3, 3];
    s.end_of_round(&settings);
    assert_eq!(s.active_injuries().count(), 1);
    // Confidence lost after the Injury formed heals; Vitality waits.
    s.confidence.current = 2;
    let ev = s.pass_days(2, false).unwrap();
    assert_eq!(s.confidence.current, 4);
    assert_eq!(s.vitality.current, 6);
    assert!(ev.iter().any(|e| matches!(e, OreEvent::Warning { .. })));
    s.pass_days(2, true).unwrap();
    assert_eq!(s.vitality.current, 8);
}

// ---------------------------------------------------------------------------
// Issue 15: face modifiers within the house rule, split sets, Combos and
// Strings, and the Thread Count.

fn modify(die: usize, delta: i32) -> RollAction {
    RollAction::ModifyFace {
        actor: ME,
        die,
        delta,
    }
}

#[test]
fn a_o6_face_modifiers_clamp_or_wrap_as_the_house_rule_says() {
    let mut settings = OreSettings::default();
    let mut sheet = sheet_with(Stat::Agility, 6);
    let (roll, _) = start(&sheet, &settings, Stat::Agility, 4); // 7 6 1 7 7 6
                                                                // Clamp (the default): the 1 − 3 stays 1, the 7 + 5 stops at 10.
    let (r, ev) = ok(roll.clone(), &mut sheet, modify(2, -3));
    assert_eq!(
        ev,
        vec![OreEvent::FaceModified {
            position: 2,
            from: 1,
            to: 1,
            delta: -3
        }]
    );
    assert_eq!(r.register[2].face, 1);
    let (r, _) = ok(r, &mut sheet, modify(0, 5));
    assert_eq!(r.register[0].face, 10);
    assert_eq!(r.modified.len(), 2);
    assert_eq!(
        (r.modified[1].from, r.modified[1].to, r.modified[1].delta),
        (7, 10, 5)
    );
    // Wrap: the 1 − 3 becomes 8; the 7 + 5 becomes 2.
    settings.set("vv_face_modifier_bounds", "wrap").unwrap();
    let (roll, _) = start(&sheet, &settings, Stat::Agility, 4);
    let (r, _) = ok(roll, &mut sheet, modify(2, -3));
    assert_eq!(r.register[2].face, 8);
    let (r, _) = ok(r, &mut sheet, modify(0, 5));
    assert_eq!(r.register[0].face, 2);
    assert_eq!(r.reading().to_string(), "2×7 (27), 2×6 (26); loose 8 2");
    // Bad modifiers and used dice are refused.
    for (d, delta) in [(1, 0), (1, 10), (1, -10), (1, i32::MIN)] {
        assert_eq!(
            refused(&r, &mut sheet, modify(d, delta)).message,
            "A face modifier is from -9 to +9, and not 0."
        );
    }
    let (r, _) = ok(r, &mut sheet, basic(7));
    assert_eq!(
        refused(&r, &mut sheet, modify(3, 1)).message,
        "Only an unused die's face can be changed."
    );
    // Only the roller or the Compiler.
    let other = RollAction::ModifyFace {
        actor: OTHER,
        die: 1,
        delta: 1,
    };
    assert_eq!(
        refused(&r, &mut sheet, other).message,
        "Only the roller or the Compiler can act on this roll."
    );
}

#[test]
fn a_o7_split_sets_when_the_house_rule_allows_and_combos_are_marked() {
    let mut settings = OreSettings::default();
    let mut sheet = sheet_with(Stat::Agility, 6);
    let (roll, _) = start(&sheet, &settings, Stat::Agility, 4); // 7 6 1 7 7 6
                                                                // The 1 + 6 makes a quad of 7s (VV-5).
    let (roll, _) = ok(roll, &mut sheet, modify(2, 6));
    assert_eq!(roll.reading().to_string(), "4×7 (47), 2×6 (26)");
    let dub_of_7s = RollAction::Basic {
        actor: ME,
        height: 7,
        width: Some(2),
        requirement: SetRequirement::default(),
        cache_cost: CacheCost::None,
        label: None,
    };
    // Off (the default): no split is offered, and one is refused.
    assert!(roll.splits(&SetRequirement::default()).is_empty());
    assert_eq!(
        refused(&roll, &mut sheet, dub_of_7s.clone()).message,
        "Sets cannot be split here: the 4 unused 7s must be used together."
    );
    // On: the quad splits into two dubs, a Basic action then a Combo/String.
    settings.set("vv_allow_split_sets", "on").unwrap();
    let (roll, _) = start(&sheet, &settings, Stat::Agility, 4);
    let (roll, _) = ok(roll, &mut sheet, modify(2, 6));
    let set = |width, height| Set { width, height };
    assert_eq!(
        roll.splits(&SetRequirement::default()),
        vec![(set(4, 7), 2)]
    );
    // A trip is needed: a quad cannot give a trip and leave a set.
    assert!(roll.splits(&SetRequirement::width(3)).is_empty());
    // What the roll's buttons offer: the whole sets that meet the need,
    // and the splits; nothing to anyone but the roller and the GM.
    assert_eq!(
        roll.usable_sets(ME, &sheet, &SetRequirement::default()),
        (vec![set(4, 7), set(2, 6)], vec![(set(4, 7), 2)])
    );
    assert_eq!(
        roll.usable_sets(GM, &sheet, &SetRequirement::width(3)),
        (vec![set(4, 7)], vec![])
    );
    assert_eq!(
        roll.usable_sets(OTHER, &sheet, &SetRequirement::default()),
        (vec![], vec![])
    );
    let (roll, ev) = ok(roll, &mut sheet, dub_of_7s.clone());
    assert!(matches!(
        &ev[0],
        OreEvent::BasicAction { set: s, positions, .. } if *s == set(2, 7) && *positions == vec![0, 2]
    ));
    assert_eq!(roll.reading().to_string(), "2×7 (27), 2×6 (26)");
    assert!(!roll.is_follow_up(0));
    // Splitting what is left would leave no set: refused.
    let trip_left = RollAction::Basic {
        actor: ME,
        height: 7,
        width: Some(1),
        requirement: SetRequirement::default(),
        cache_cost: CacheCost::None,
        label: None,
    };
    assert_eq!(
        refused(&roll, &mut sheet, trip_left).message,
        "A Basic action needs a set of at least two matching dice."
    );
    let (roll, _) = ok(roll, &mut sheet, basic(7));
    let (roll, _) = ok(roll, &mut sheet, basic(6));
    assert!(roll.is_follow_up(1) && roll.is_follow_up(2));
    assert_eq!(
        roll.actions
            .iter()
            .map(|a| a.set.unwrap())
            .collect::<Vec<_>>(),
        vec![set(2, 7), set(2, 7), set(2, 6)]
    );
    // A trip split into a dub would leave one die: refused.
    let (roll, _) = start(&sheet, &settings, Stat::Agility, 4); // 7 6 1 7 7 6
    assert!(roll.splits(&SetRequirement::default()).is_empty());
    assert_eq!(
        refused(&roll, &mut sheet, dub_of_7s).message,
        "A split must leave a set: using 2 of the 3 unused 7s would leave a single die."
    );
}

#[test]
fn vv_17_the_thread_count_bounds_the_named_abilities_of_one_register() {
    let settings = OreSettings::default();
    let mut sheet = sheet_with(Stat::Agility, 6);
    let twin7 = sheet
        .add_special(
            "Twin Strike",
            Pattern::parse("77").unwrap(),
            CacheCost::None,
        )
        .unwrap()
        .id;
    let six = sheet
        .add_special("Hex", Pattern::parse("66").unwrap(), CacheCost::None)
        .unwrap()
        .id;
    let skill = |id: u32, p: &str| RollAction::Special {
        actor: ME,
        skill: Some(id),
        pattern: Pattern::parse(p).unwrap(),
        cache_cost: CacheCost::None,
        label: None,
    };
    let (roll, _) = start(&sheet, &settings, Stat::Agility, 4); // 7 6 1 7 7 6
    assert_eq!(sheet.comp.thread_count, 1);
    let (roll, _) = ok(roll, &mut sheet, skill(twin7, "77"));
    assert_eq!(roll.skills_used(), vec![twin7]);
    // A second, different skill at once: refused with Thread Count 1.
    assert_eq!(
        refused(&roll, &mut sheet, skill(six, "66")).message,
        "Thread Count 1: this register already runs 1 of 1 skill (Twin Strike), so Hex cannot run at once; nothing was spent."
    );
    // Plain sets and Minor actions are no skills: still allowed.
    let (r, _) = ok(roll.clone(), &mut sheet, basic(6));
    assert!(r.is_follow_up(1));
    // The same skill again is no new thread (a Combo of it).
    let (roll, _) = ok(roll, &mut sheet, modify(2, 6));
    let (roll, _) = ok(roll, &mut sheet, skill(twin7, "77"));
    assert_eq!(roll.skills_used(), vec![twin7]);
    // Thread Count 2: the second skill runs.
    sheet.set_thread_count(2).unwrap();
    let (roll, _) = ok(roll, &mut sheet, skill(six, "66"));
    assert_eq!(roll.skills_used(), vec![twin7, six]);
    assert_eq!(roll.actions[2].skill, Some(six));
}

#[test]
fn vv_8_cache_dice_of_a_face_are_the_first_ones_held() {
    let mut sheet = sheet_with(Stat::Wit, 4);
    let die = |face| CacheDie {
        face,
        source: CacheSource::Boot,
    };
    sheet.cache = vec![die(7), die(3), die(7), die(9), die(7)];
    assert_eq!(sheet.cache_dice_of(7, 2), Some(vec![0, 2]));
    assert_eq!(sheet.cache_dice_of(7, 3), Some(vec![0, 2, 4]));
    assert_eq!(sheet.cache_dice_of(9, 1), Some(vec![3]));
    // Fewer dice of that face than asked for: none are taken.
    assert_eq!(sheet.cache_dice_of(7, 4), None);
    assert_eq!(sheet.cache_dice_of(5, 1), None);
}

#[test]
fn vv_8_the_dice_loading_may_move_are_the_unused_ones() {
    let settings = OreSettings::default();
    let mut sheet = sheet_with(Stat::Agility, 6);
    let (roll, _) = start(&sheet, &settings, Stat::Agility, 4); // 7 6 1 7 7 6
    let (roll, _) = ok(
        roll,
        &mut sheet,
        RollAction::Minor {
            actor: ME,
            die: Some(0),
            label: None,
        },
    );
    // Die 1 is spent; the rest may still be loaded into the cache.
    assert_eq!(
        roll.unused_dice(),
        vec![
            (1, 6, false),
            (2, 1, false),
            (3, 7, false),
            (4, 7, false),
            (5, 6, false)
        ]
    );
}
