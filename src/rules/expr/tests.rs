//! Tests of the notation: one per construct, with seeded dice whose faces
//! are drawn again independently (the same seed through `dice::d`) so every
//! total is checked exactly. They run in release too
//! (`cargo test --release --lib -- rules::expr`), where overflow checks are
//! off: nothing here may rely on a panic.

use super::*;
use crate::rules::{dice, RuleError};
use rand::{rngs::StdRng, SeedableRng};

fn p(s: &str) -> Result<Expr, RuleError> {
    parse(s, Caps::default())
}

fn roll(s: &str, seed: u64) -> Roll {
    p(s).unwrap_or_else(|e| panic!("{s}: {e}"))
        .roll(&mut StdRng::seed_from_u64(seed))
        .unwrap_or_else(|e| panic!("{s}: {e}"))
}

/// The faces the same seed gives, drawn directly.
fn draws(seed: u64, sides: &[u32]) -> Vec<u32> {
    let mut rng = StdRng::seed_from_u64(seed);
    sides.iter().map(|s| dice::d(&mut rng, *s)).collect()
}

fn err(s: &str) -> String {
    p(s).unwrap_err().message
}

#[test]
fn canonical_forms() {
    for (typed, canonical) in [
        ("3d6+2", "3d6 + 2"),
        (" d20 - 1 ", "1d20 - 1"),
        ("4D6KH3", "4d6kh3"),
        ("2d10!+1d4-3", "2d10! + 1d4 - 3"),
        ("-2+d%", "-2 + 1d100"),
        ("4d6dl1", "4d6dl1"),
        ("2d20dh1", "2d20dh1"),
        ("2d6rr1", "2d6rr1"),
        ("2d6ro<3", "2d6ro<3"),
        ("5d10>=8f1", "5d10>=8f1"),
        ("5d10>=8f=1", "5d10>=8f1"),
        ("5d10 > 7", "5d10>7"),
        ("3d6!>5", "3d6!>5"),
        ("5d10!>=8", "5d10!>=8"),
        ("5d10!=10>=8", "5d10!=10>=8"),
        ("4d6!kh3", "4d6!kh3"),
        ("2*1d8", "2 * 1d8"),
        ("(1d6+1)*2", "(1d6 + 1) * 2"),
        ("1-(2-3)", "1 - (2 - 3)"),
        ("1d20+5>=15", "1d20 + 5 >= 15"),
        ("(1d20)>=15", "(1d20) >= 15"),
        ("1d20+5 [fire] + 2d6 [cold]", "1d20 + 5 [fire] + 2d6 [cold]"),
        ("6#4d6kh3", "6#4d6kh3"),
        ("0d6", "0d6"),
        ("7/2", "7 / 2"),
        ("--3", "--3"),
        ("1d20+2 == 10", "1d20 + 2 = 10"),
        // Straight after dice, a comparison counts successes.
        ("1d20+2d6 == 6", "1d20 + 2d6=6"),
        ("5d10>=8 >= 2", "5d10>=8 >= 2"),
        ("1d8 - -2", "1d8 - -2"),
        ("2 * (1d8 [fire])", "2 * 1d8 [fire]"),
    ] {
        let e = p(typed).unwrap_or_else(|e| panic!("{typed}: {e}"));
        assert_eq!(e.to_string(), canonical, "{typed}");
        assert_eq!(p(canonical).unwrap(), e, "{canonical} re-parses");
    }
}

#[test]
fn plain_dice_and_constants() {
    let r = roll("3d6+2", 7);
    let f = draws(7, &[6, 6, 6]);
    let o = &r.results[0];
    assert_eq!(o.total, i64::from(f.iter().sum::<u32>()) + 2);
    assert_eq!(o.parts.len(), 2);
    assert_eq!(
        o.parts[0].dice[0]
            .faces
            .iter()
            .map(|f| f.value)
            .collect::<Vec<_>>(),
        f
    );
    // Pinned: a change of the dice stream shows here.
    assert_eq!(f, vec![3, 1, 1]);
    assert_eq!(o.total, 7);
    assert_eq!(
        roll("d%", 3).results[0].total,
        i64::from(draws(3, &[100])[0])
    );
}

#[test]
fn zero_dice_make_zero() {
    let r = roll("0d6+3", 1);
    assert_eq!(r.results[0].total, 3);
    assert!(r.results[0].parts[0].dice[0].faces.is_empty());
}

#[test]
fn keep_and_drop() {
    for seed in 0..20 {
        let f = draws(seed, &[6, 6, 6, 6]);
        let mut sorted = f.clone();
        sorted.sort_unstable();
        let sum = |s: &[u32]| i64::from(s.iter().sum::<u32>());
        assert_eq!(roll("4d6kh3", seed).results[0].total, sum(&sorted[1..]));
        assert_eq!(roll("4d6dl1", seed).results[0].total, sum(&sorted[1..]));
        assert_eq!(roll("4d6kl1", seed).results[0].total, sum(&sorted[..1]));
        assert_eq!(roll("4d6dh1", seed).results[0].total, sum(&sorted[..3]));
        let r = roll("4d6dl1", seed);
        let dropped: Vec<&Face> = r.results[0].parts[0].dice[0]
            .faces
            .iter()
            .filter(|f| !f.kept)
            .collect();
        assert_eq!(dropped.len(), 1);
        assert_eq!(dropped[0].value, sorted[0]);
    }
}

#[test]
fn explosions_add_a_die_per_exploding_face() {
    for seed in 0..20 {
        let r = roll("20d2!", seed);
        let faces = &r.results[0].parts[0].dice[0].faces;
        let twos = faces.iter().filter(|f| f.value == 2).count();
        let extra = faces.iter().filter(|f| f.exploded).count();
        assert_eq!(extra, twos);
        assert_eq!(faces.len(), 20 + extra);
        let sum: i64 = faces.iter().map(|f| i64::from(f.value)).sum();
        assert_eq!(r.results[0].total, sum);
    }
    // `!>4` on a d6 explodes on 5 and 6: rolled breadth first.
    let r = roll("1d6!>4", 11);
    let faces: Vec<u32> = r.results[0].parts[0].dice[0]
        .faces
        .iter()
        .map(|f| f.value)
        .collect();
    let mut rng = StdRng::seed_from_u64(11);
    let mut expect = vec![dice::d(&mut rng, 6)];
    while *expect.last().unwrap() > 4 {
        expect.push(dice::d(&mut rng, 6));
    }
    assert_eq!(faces, expect);
}

#[test]
fn explosion_chains_and_rerolls_are_capped() {
    let r = roll("500d2!", 1);
    assert!(r.results[0].parts[0].dice[0].faces.len() <= MAX_GENERATED_DICE);
    // rr on a d1000 rerolling 1-999 stops after 100 rerolls at the latest.
    let r = roll("1d1000rr<1000", 2);
    let f = &r.results[0].parts[0].dice[0].faces[0];
    assert!(f.rerolled.len() <= MAX_REROLLS);
    assert_eq!(r.capped, f.value != 1000);
}

#[test]
fn rerolls() {
    for seed in 0..30 {
        // rr1: reroll while 1.
        let mut rng = StdRng::seed_from_u64(seed);
        let mut expect = 0i64;
        for _ in 0..2 {
            let mut v = dice::d(&mut rng, 6);
            while v == 1 {
                v = dice::d(&mut rng, 6);
            }
            expect += i64::from(v);
        }
        assert_eq!(roll("2d6rr1", seed).results[0].total, expect, "seed {seed}");
        // ro<3: once.
        let mut rng = StdRng::seed_from_u64(seed);
        let mut expect = 0i64;
        for _ in 0..2 {
            let mut v = dice::d(&mut rng, 6);
            if v < 3 {
                v = dice::d(&mut rng, 6);
            }
            expect += i64::from(v);
        }
        assert_eq!(
            roll("2d6ro<3", seed).results[0].total,
            expect,
            "seed {seed}"
        );
    }
}

/// Issue 29 item 9: `ro` rerolls once, so on every face it still ends: each
/// die is thrown twice and the second face stands.
#[test]
fn reroll_once_on_every_face_ends() {
    let r = roll("10d1ro<2", 3);
    assert_eq!(r.results[0].total, 10);
    assert!(!r.capped);
    let faces = &r.results[0].parts[0].dice[0].faces;
    assert_eq!(faces.len(), 10);
    assert!(faces.iter().all(|f| f.value == 1 && f.rerolled == [1]));
    for seed in 0..20 {
        let f = draws(seed, &[6, 6, 6, 6]);
        // Each die's first throw is rerolled; the second counts.
        let r = roll("2d6ro<7", seed);
        let faces = &r.results[0].parts[0].dice[0].faces;
        assert_eq!(faces[0].rerolled, [f[0]]);
        assert_eq!(faces[0].value, f[1]);
        assert_eq!(faces[1].rerolled, [f[2]]);
        assert_eq!(r.results[0].total, i64::from(f[1] + f[3]), "seed {seed}");
    }
    assert_eq!(p("2d6ro<7").unwrap().to_string(), "2d6ro<7");
    // `rr` on every face would never end: still refused.
    assert!(err("10d1rr<2").contains("rerolls every face of a d1"));
}

#[test]
fn success_counting_with_failures() {
    for seed in 0..30 {
        let f = draws(seed, &[10; 5]);
        let s = f.iter().filter(|v| **v >= 8).count() as i64;
        let x = f.iter().filter(|v| **v == 1).count() as i64;
        assert_eq!(roll("5d10>=8", seed).results[0].total, s);
        assert_eq!(roll("5d10>=8f1", seed).results[0].total, s - x);
        let gt = f.iter().filter(|v| **v > 8).count() as i64;
        assert_eq!(roll("5d10>8", seed).results[0].total, gt);
        let le = f.iter().filter(|v| **v <= 2).count() as i64;
        assert_eq!(roll("5d10<=2", seed).results[0].total, le);
        let eq = f.iter().filter(|v| **v == 10).count() as i64;
        assert_eq!(roll("5d10=10", seed).results[0].total, eq);
    }
}

#[test]
fn arithmetic_and_division_rounds_down() {
    let f = draws(4, &[8]);
    assert_eq!(roll("2*1d8", 4).results[0].total, 2 * i64::from(f[0]));
    assert_eq!(
        roll("(1d8+1)*3", 4).results[0].total,
        (i64::from(f[0]) + 1) * 3
    );
    assert_eq!(roll("7/2", 0).results[0].total, 3);
    assert_eq!(roll("-7/2", 0).results[0].total, -4);
    assert_eq!(roll("7/-2", 0).results[0].total, -4);
    assert_eq!(roll("-7/-2", 0).results[0].total, 3);
    assert_eq!(roll("2+3*4", 0).results[0].total, 14);
    assert_eq!(roll("(2+3)*4", 0).results[0].total, 20);
    assert_eq!(roll("10-2-3", 0).results[0].total, 5);
    assert_eq!(roll("-(2+3)", 0).results[0].total, -5);
    assert_eq!(eval::div_floor(i64::MIN, -1), None);
    let e = p("1d6/(1d1-1)")
        .unwrap()
        .roll(&mut StdRng::seed_from_u64(0));
    assert!(e.unwrap_err().message.contains("Division by zero"));
}

#[test]
fn overflow_is_an_error_in_every_build() {
    let e = p("1000000*1000000*1000000*1000000")
        .unwrap()
        .roll(&mut StdRng::seed_from_u64(0))
        .unwrap_err();
    assert!(e.message.contains("too large"), "{}", e.message);
    let e = p("-1000000*1000000*1000000*1000000 - 1000000*1000000*1000000*1000000")
        .unwrap()
        .roll(&mut StdRng::seed_from_u64(0));
    assert!(e.is_err());
    // At the cap, sums are exact.
    assert_eq!(roll("1000000+1000000-3", 1).results[0].total, 1_999_997);
    assert_eq!(roll("-1000000-1000000", 1).results[0].total, -2_000_000);
}

#[test]
fn targets_pass_or_fail() {
    for seed in 0..20 {
        let f = i64::from(draws(seed, &[20])[0]);
        let r = roll("1d20+5>=15", seed);
        assert_eq!(r.results[0].total, f + 5);
        assert_eq!(r.results[0].pass, Some(f + 5 >= 15));
        assert_eq!(roll("(1d20) < 10", seed).results[0].pass, Some(f < 10));
        assert_eq!(roll("1d20+0 == 20", seed).results[0].pass, Some(f == 20));
    }
    assert_eq!(roll("1d20", 1).results[0].pass, None);
    // Straight after dice, a comparison counts successes instead.
    let e = p("1d20>=15").unwrap();
    assert!(e.target.is_none());
    assert!(matches!(
        e.body,
        Node::Dice(Dice {
            success: Some(_),
            ..
        })
    ));
}

#[test]
fn labels_name_their_terms() {
    let r = roll("1d20+5 [fire] + 2d6 [cold]", 9);
    let f = draws(9, &[20, 6, 6]);
    let o = &r.results[0];
    assert_eq!(o.total, f.iter().map(|x| i64::from(*x)).sum::<i64>() + 5);
    let labels: Vec<Option<&str>> = o.parts.iter().map(|p| p.label.as_deref()).collect();
    assert_eq!(labels, vec![None, Some("fire"), Some("cold")]);
    assert_eq!(o.parts[2].notation, "2d6");
}

#[test]
fn repeats_are_separate_results() {
    let r = roll("6#4d6kh3", 5);
    assert_eq!(r.results.len(), 6);
    let f = draws(5, &[6; 24]);
    for (i, o) in r.results.iter().enumerate() {
        let mut four = f[i * 4..i * 4 + 4].to_vec();
        four.sort_unstable();
        assert_eq!(
            o.total,
            i64::from(four[1] + four[2] + four[3]),
            "result {i}"
        );
    }
}

#[test]
fn caps_name_their_limit() {
    for (input, needle) in [
        ("", "empty"),
        ("3d", "needs a number of sides"),
        ("501d6", "at most 500"),
        ("300d6+300d6", "at most 500"),
        ("21#1d6", "from 1 to 20"),
        ("0#1d6", "from 1 to 20"),
        ("20#26d6", "at most 500"),
        ("1d1001", "1 to 1000"),
        ("1d0", "1 to 1000"),
        ("4d6kh5", "keep between 1 and 4"),
        ("4d6dl5", "drop between 1 and 4"),
        ("4d6k3", "`k` at position 4 must be followed"),
        ("1d1!", "explodes on every face"),
        ("1d6!<7", "explodes on every face"),
        ("1d6rr<7", "rerolls every face"),
        ("3d6+", "ends with an operator"),
        ("2000000", "Numbers go up to 1000000"),
        ("99999999999999999999", "Numbers go up to 1000000"),
        ("1d6f1", "after a success count"),
        ("1d6kh1kh1", "once"),
        (
            "((((((((((((((((((((((1))))))))))))))))))))))",
            "at most 20 levels",
        ),
        ("1d20 [fire", "not closed"),
        ("1 0d6", "Unexpected `0` at position 3"),
        ("1d6+1 >= 3 >= 2", "only one target"),
        ("(1d6", "never closed"),
        ("1d6)", "closes no"),
    ] {
        let e = err(input);
        assert!(e.contains(needle), "{input:?}: {e}");
    }
    let long = "1".repeat(201);
    assert!(err(&long).contains("201 characters"));
    let many = vec!["1"; 51].join("+");
    assert!(err(&many).contains("at most 50"));
    let label = format!("1d6 [{}]", "x".repeat(41));
    assert!(err(&label).contains("the most is 40"));
}

#[test]
fn errors_point_at_the_text_as_typed() {
    // Spaces count, and non-ASCII is shown as typed.
    assert!(err("1d6 + é").contains("Unexpected `é` at position 7"));
    assert!(err("2 + 99999999999999999999").contains("position 5"));
    assert!(err("1d6 +  *2").contains("Unexpected `*` at position 8"));
    assert!(err("été").contains("Unexpected `é` at position 1"));
    assert!(err("hello world").contains("Unexpected `h`"));
    assert!(err("1d20 +  5 ×× 2").contains("Unexpected `×` at position 12"));
}
