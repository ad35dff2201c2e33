//! Rules-core benchmark (`cargo bench --bench rules`): time per exact-odds
//! question at the largest pools the bot allows, and rolls per second per
//! system. Figures only; nothing here is asserted.

use std::hint::black_box;
use std::time::{Duration, Instant};

use rand::rngs::StdRng;
use rand::SeedableRng;

use kismet::rules::venus::odds as ve;
use kismet::rules::venus::Rank;
use kismet::rules::{expr, ore, storyteller, veracity};

/// Runs `f` repeatedly for about `budget` and returns the mean time per call.
fn time<T>(budget: Duration, mut f: impl FnMut() -> T) -> Duration {
    // Warm up, then find an iteration count that fills the budget.
    for _ in 0..3 {
        black_box(f());
    }
    let mut n: u32 = 1;
    loop {
        let start = Instant::now();
        for _ in 0..n {
            black_box(f());
        }
        let took = start.elapsed();
        if took >= budget || n >= 1 << 24 {
            return took / n;
        }
        n = n.saturating_mul(2);
    }
}

fn show(name: &str, d: Duration) {
    println!("{name:<60} {:>10.2} µs", d.as_secs_f64() * 1e6);
}

fn rate(name: &str, d: Duration) {
    println!("{name:<60} {:>10.0} rolls/s", 1.0 / d.as_secs_f64());
}

/// The `/odds roll` questions timed here and in `benches/odds_icepool.py`.
const ODDS_QUESTIONS: [&str; 8] = [
    "4d6kh3",
    "2d20kh1",
    "3d6!",
    "5d10>=8f1",
    "1d20+5>=15",
    "10d6kh3",
    "20d10>=7",
    "8d6dl2+1d4",
];

fn main() {
    let budget = Duration::from_millis(300);
    let pl = Rank::Platinum;
    println!("== exact odds at the largest pools allowed (mean per question)");
    show(
        "ve1-check score 10 target 29 platinum, 4 bonus d6",
        time(budget, || ve::ve1_check_pass(10, 29, pl, 4)),
    );
    show(
        "ve2-check score 10 target 28 platinum, +8",
        time(budget, || {
            ve::ve2_check_pass(10, 28, pl, 8, &ve::AutoPass::Text, false)
        }),
    );
    show(
        "ve1-task 20 dice + 2 allies, ego double sixes",
        time(budget, || ve::ve1_task_at_least(20, pl, &[pl, pl], true)),
    );
    show(
        "ve2-task 20 dice + 3 allies, exploding, ego",
        time(budget, || {
            ve::ve2_task_at_least(20, Rank::Bronze, &[pl, pl, pl], true, true, true)
        }),
    );
    let kiss: Vec<Rank> = vec![Rank::Bronze; 22];
    show(
        "ve1 KISS odds, 22 dice rerolled",
        time(budget, || ve::ve1_kiss_success(0, &kiss, 5, true, 0)),
    );
    show(
        "veracity-save 18 unlocked, 9 filled, -5",
        time(budget, || veracity::save::save_success(18, 9, -5)),
    );
    show(
        "st pool 50, difficulty 6, threshold 0, 5 specialties",
        time(budget, || storyteller::roll_odds(50, 6, 0, 5)),
    );
    show(
        "st pool 50, difficulty 6, threshold 30, 5 specialties",
        time(budget, || storyteller::roll_odds(50, 6, 30, 5)),
    );
    show(
        "ore widest, 10 dice (default vv_max_pool)",
        time(budget, || ore::odds::widest_pmf(10)),
    );
    show(
        "ore widest, 30 dice (largest vv_max_pool)",
        time(budget, || ore::odds::widest_pmf(30)),
    );
    show(
        "ore at least width 3, 10 dice",
        time(budget, || ore::odds::at_least_width(10, 3)),
    );

    println!("\n== exact odds of /roll expressions (parse + distribution, mean per question)");
    // The same questions are timed in icepool by benches/odds_icepool.py.
    for e in ODDS_QUESTIONS {
        let parsed = expr::parse(e, expr::Caps::default()).unwrap();
        show(
            &format!("odds roll {e}"),
            time(budget, || expr::odds::odds(&parsed).unwrap()),
        );
    }

    println!("\n== rolling (one full roll per iteration, seeded generator)");
    let mut rng = StdRng::seed_from_u64(1);
    let e = expr::parse("3d6+2", expr::Caps::default()).unwrap();
    rate("generic /roll 3d6+2", time(budget, || e.roll(&mut rng)));
    let big = expr::parse("500d6", expr::Caps::default()).unwrap();
    rate("generic /roll 500d6", time(budget, || big.roll(&mut rng)));
    let st_settings = storyteller::StorytellerSettings::default();
    let spec = storyteller::pool::build_ad_hoc(
        &storyteller::AdHocRequest {
            dice: 10,
            difficulty: Some(6),
            threshold: 0,
            specialties: 2,
        },
        &st_settings,
        50,
    )
    .unwrap();
    rate(
        "storyteller 10 dice, 2 specialties",
        time(budget, || storyteller::roll(&spec, &mut rng)),
    );
    let inv = veracity::Inventory::new(veracity::InventoryKind::Light, 10).unwrap();
    let req = veracity::save::SaveRequest {
        inventory: veracity::InventoryKind::Light,
        modifier: 0,
        facets: vec![],
    };
    let vr_settings = veracity::VeracitySettings::default();
    rate(
        "veracity save",
        time(budget, || {
            veracity::save::roll_save(&inv, &req, &vr_settings, &mut rng)
        }),
    );
    rate(
        "virtual veil 10d10 read as sets",
        time(budget, || {
            let faces = kismet::rules::dice::pool(&mut rng, 10, 10);
            ore::sets::read(&faces)
        }),
    );
    let ve_settings = kismet::rules::venus::VenusSettings::default();
    let ctx = kismet::rules::venus::VenusCtx::new();
    rate(
        "venus NPC check (d20, edition 2)",
        time(budget, || {
            kismet::rules::venus::CheckState::start(
                kismet::rules::venus::CheckSetup {
                    actor: kismet::rules::Actor { id: 1, gm: true },
                    roller: 1,
                    subject: kismet::rules::venus::check::CheckSubject::AdHoc {
                        name: "guard".into(),
                        rank: Rank::Silver,
                        score: 4,
                    },
                    difficulty: 15,
                    factors: vec![],
                    consequence: String::new(),
                },
                &ve_settings,
                &ctx,
                &mut rng,
            )
        }),
    );
}
