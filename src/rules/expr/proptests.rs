//! Property tests (the `proptest` crate): any text up to the length cap is
//! parsed to a result or an error, and rolled within the dice cap, without
//! a panic in any build; and printing a tree then parsing it gives the same
//! tree.

use super::*;
use proptest::prelude::*;
use rand::{rngs::StdRng, SeedableRng};

/// Text made mostly of the notation's own characters, with some others.
fn notation_text() -> impl Strategy<Value = String> {
    let pieces = prop::sample::select(vec![
        "d", "d%", "1", "2", "3", "6", "10", "20", "100", "999999", "0", "kh", "kl", "dh", "dl",
        "rr", "ro", "!", "f", ">=", ">", "<=", "<", "=", "==", "+", "-", "*", "/", "(", ")", "#",
        "[fire]", " ", "é", "×", "k", "r", "[", "]", "1000000", "9999999",
    ]);
    prop_oneof![
        prop::collection::vec(pieces, 0..60).prop_map(|v| v.concat()),
        ".{0,210}".prop_map(|s: String| s),
    ]
}

fn cond(sides: u32) -> impl Strategy<Value = Cond> {
    (
        prop::sample::select(vec![CmpOp::Ge, CmpOp::Gt, CmpOp::Le, CmpOp::Lt, CmpOp::Eq]),
        1..=sides,
    )
        .prop_map(|(op, value)| Cond { op, value })
}

fn dice() -> impl Strategy<Value = Dice> {
    (0u32..8, 1u32..=20).prop_flat_map(|(count, sides)| {
        (
            Just(count),
            Just(sides),
            prop::option::of((any::<bool>(), cond(sides))),
            prop::option::of(cond(sides)),
            prop::option::of((0u8..4, 1..=count.max(1))),
            prop::option::of((cond(sides), prop::option::of(cond(sides)))),
        )
            .prop_map(|(count, sides, reroll, explode, keep, success)| {
                let mut d = Dice::plain(count, sides);
                d.reroll = reroll
                    .filter(|(_, c)| c.faces_meeting(sides) < sides)
                    .map(|(repeat, cond)| Reroll { repeat, cond });
                d.explode = explode.filter(|c| c.faces_meeting(sides) < sides);
                d.keep = keep.filter(|_| count > 0).map(|(k, n)| match k {
                    0 => Keep::Highest(n),
                    1 => Keep::Lowest(n),
                    2 => Keep::DropHighest(n),
                    _ => Keep::DropLowest(n),
                });
                if let Some((s, f)) = success {
                    d.success = Some(s);
                    d.failure = f;
                }
                d
            })
    })
}

fn node() -> impl Strategy<Value = Node> {
    let leaf = prop_oneof![
        (0i64..1000).prop_map(Node::Num),
        dice().prop_map(Node::Dice),
    ];
    leaf.prop_recursive(4, 12, 2, |inner| {
        prop_oneof![
            inner.clone().prop_map(|x| Node::Neg(Box::new(x))),
            (
                prop::sample::select(vec![Op::Add, Op::Sub, Op::Mul, Op::Div]),
                inner.clone(),
                inner.clone()
            )
                .prop_map(|(op, a, b)| Node::Bin(op, Box::new(a), Box::new(b))),
            (inner, "[a-zé ]{0,5}[a-z]")
                .prop_map(|(x, l)| Node::Labelled(Box::new(x), l.trim().to_string())),
        ]
    })
}

fn expr() -> impl Strategy<Value = Expr> {
    (
        prop::option::of(1u32..=5),
        node(),
        prop::option::of((
            prop::sample::select(vec![CmpOp::Ge, CmpOp::Gt, CmpOp::Le, CmpOp::Lt, CmpOp::Eq]),
            -50i64..50,
        )),
    )
        .prop_map(|(repeat, body, target)| Expr {
            repeat: repeat.unwrap_or(1),
            repeat_written: repeat.is_some(),
            body,
            target: target.map(|(op, value)| Target { op, value }),
        })
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(400))]

    #[test]
    fn any_text_gives_a_result_or_an_error(text in notation_text(), seed in any::<u64>()) {
        let caps = Caps::default();
        if let Ok(e) = parse(&text, caps) {
            // The canonical print parses back to the same tree.
            let printed = e.to_string();
            prop_assert_eq!(parse(&printed, caps), Ok(e.clone()), "{}", printed);
            if let Ok(r) = e.roll(&mut StdRng::seed_from_u64(seed)) {
                let thrown: usize = r
                    .results
                    .iter()
                    .flat_map(|o| &o.parts)
                    .flat_map(|p| &p.dice)
                    .flat_map(|d| &d.faces)
                    .map(|f| 1 + f.rerolled.len())
                    .sum();
                prop_assert!(thrown <= MAX_GENERATED_DICE);
                prop_assert_eq!(r.results.len(), e.repeat as usize);
            }
        }
    }

    #[test]
    fn print_then_parse_is_the_same_tree(e in expr()) {
        let printed = e.to_string();
        match parse(&printed, Caps::default()) {
            Ok(back) => prop_assert_eq!(back, e, "{}", printed),
            // Only a cap may refuse a printed tree (a label made empty by
            // trimming is not generated).
            Err(err) => prop_assert!(
                err.message.contains("at most") || err.message.contains("characters long")
                    || err.message.contains("keep between") || err.message.contains("drop between"),
                "{}: {}", printed, err.message
            ),
        }
    }
}
