//! The message of a generic roll in the shared look
//! ([`crate::systems::table::look`]): the author line says who rolled which
//! expression, the title states the result once (`🎲 17`, `🎲 3 successes`,
//! `✅ Pass · 17 (needed ≥ 15)`, natural 20s and 1s on d20s called out),
//! and the description's first line shows the dice (successes bold, counted
//! failures `1✗`, dropped dice in brackets), a repeat's results one by one.

use std::collections::BTreeMap;

use crate::app::view::Embed;
use crate::rules::expr::{self, DiceRoll, Outcome, Part, Roll};
use crate::systems::table::look::{self, Mark};

/// Faces listed one by one up to this many per term; beyond, counts per face.
pub const LIST_FACES: usize = 40;

/// How a face counts: a counted success bold, a counted failure `1✗`, a
/// dropped die in brackets, a kept d20's natural 20 bold★ and natural 1
/// `1✗`; other kept dice plain.
fn mark(d: &DiceRoll, f: &expr::Face) -> Mark {
    if !f.kept {
        return Mark::Dropped;
    }
    match f.hit {
        1 => return Mark::Hit,
        -1 => return Mark::Bad,
        _ => {}
    }
    if d.sides == 20 && !d.counting {
        match f.value {
            20 => return Mark::Crit,
            1 => return Mark::Bad,
            _ => {}
        }
    }
    Mark::Miss
}

/// A face as shown: marked ([`mark`]), `↯6` added by an explosion, `2⟲1`
/// rerolled from 1.
fn face(d: &DiceRoll, f: &expr::Face) -> String {
    let mut s = look::die(f.value, mark(d, f));
    if !f.rerolled.is_empty() {
        let from: Vec<String> = f.rerolled.iter().map(u32::to_string).collect();
        s = format!("{s}⟲{}", from.join("⟲"));
    }
    if f.exploded {
        s = format!("↯{s}");
    }
    s
}

/// Faces as text: each die when few (in the order thrown), counts per face
/// when many.
pub fn faces_text(d: &DiceRoll) -> String {
    if d.faces.len() <= LIST_FACES {
        let parts: Vec<String> = d.faces.iter().map(|f| face(d, f)).collect();
        return parts.join(" ");
    }
    let mut counts = BTreeMap::new();
    for f in &d.faces {
        *counts.entry(f.value).or_insert(0u32) += 1;
    }
    let kept = d.faces.iter().filter(|f| f.kept).count();
    let parts: Vec<String> = counts
        .iter()
        .rev()
        .map(|(face, n)| format!("{face}×{n}"))
        .collect();
    format!(
        "{} dice ({} kept): {}",
        d.faces.len(),
        kept,
        parts.join(" ")
    )
}

fn label(p: &Part) -> String {
    p.label
        .as_deref()
        .map_or(String::new(), |l| format!(" [{l}]"))
}

/// One term: `` `2d6` 3 4 ``, `5`, `` `(1d6+1)*2` 1d6 4 = 10 ``; a labelled
/// term with dice adds its value (`` `2d6` 3 4 = 7 [cold] ``).
fn part_text(p: &Part) -> String {
    let body = match p.dice.as_slice() {
        [] => p.notation.clone(),
        [d] if d.notation == p.notation => {
            let mut s = format!("`{}` {}", p.notation, faces_text(d));
            if p.label.is_some() {
                s.push_str(&format!(" = {}", p.value));
            }
            s
        }
        dice => {
            let each: Vec<String> = dice
                .iter()
                .map(|d| format!("{} {}", d.notation, faces_text(d)))
                .collect();
            format!("`{}` {} = {}", p.notation, each.join(" · "), p.value)
        }
    };
    format!("{body}{}", label(p))
}

/// A result's terms on one line: `` `1d20` 17 + 5 ``.
fn parts_line(o: &Outcome) -> String {
    let mut s = String::new();
    for (k, p) in o.parts.iter().enumerate() {
        let sign = match (k, p.negative) {
            (0, false) => "",
            (0, true) => "−",
            (_, false) => " + ",
            (_, true) => " − ",
        };
        s.push_str(sign);
        s.push_str(&part_text(p));
    }
    s
}

/// A result on one line, for repeats: `**#2** `4d6kh3` 5 3 3 (1) + 2 → **13** ✅`.
fn compact(i: usize, o: &Outcome) -> String {
    let mut s = format!("**#{}** {} → **{}**", i + 1, parts_line(o), o.total);
    match o.pass {
        Some(true) => s.push_str(" ✅"),
        Some(false) => s.push_str(" ❌"),
        None => {}
    }
    s
}

/// Natural 20s and 1s among the kept d20s of a result (not counted ones).
fn naturals(o: &Outcome) -> (usize, usize) {
    let d20s = o
        .parts
        .iter()
        .flat_map(|p| &p.dice)
        .filter(|d| d.sides == 20 && !d.counting)
        .flat_map(|d| &d.faces)
        .filter(|f| f.kept);
    d20s.fold((0, 0), |(t, o), f| {
        (
            t + usize::from(f.value == 20),
            o + usize::from(f.value == 1),
        )
    })
}

/// `3 successes`, `1 success`.
fn successes(n: i64) -> String {
    format!("{n} {}", if n == 1 { "success" } else { "successes" })
}

/// The title and look of a roll: the total once (`🎲 17`), successes
/// counted (`🎲 3 successes`), pass or fail against a target (`✅ Pass · 17
/// (needed ≥ 15)`), a repeat's totals (`🎲 13 · 9 · 12`), natural 20s and
/// 1s called out.
pub fn title(expression: &str, roll: &Roll) -> (String, look::Outcome) {
    let target = expr::parse(expression, expr::Caps::default())
        .ok()
        .and_then(|e| e.target);
    let needed = target
        .map(|t| format!(" (needed {} {})", t.op.pretty(), t.value))
        .unwrap_or_default();
    if let [o] = roll.results.as_slice() {
        let counting_only = !o.parts.is_empty()
            && o.parts.iter().all(|p| {
                p.dice.len() == 1 && p.dice[0].counting && p.dice[0].notation == p.notation
            });
        let total = if counting_only {
            successes(o.total)
        } else {
            o.total.to_string()
        };
        let mut text = total.clone();
        let mut outcome = look::Outcome::Info;
        if let (Some(pass), Some(_)) = (o.pass, target) {
            outcome = if pass {
                look::Outcome::Success
            } else {
                look::Outcome::Failure
            };
            let verdict = if pass { "Pass" } else { "Fail" };
            text = format!("{verdict} · {total}{needed}");
        }
        let (twenty, one) = naturals(o);
        if twenty > 0 {
            text.push_str(" · natural 20");
        }
        if one > 0 {
            text.push_str(" · natural 1");
        }
        return (outcome.title(&text), outcome);
    }
    let text = if target.is_some() {
        let passes = roll.results.iter().filter(|o| o.pass == Some(true)).count();
        format!("{passes} of {} pass{needed}", roll.results.len())
    } else {
        let totals: Vec<String> = roll.results.iter().map(|o| o.total.to_string()).collect();
        let mut t = totals.join(" · ");
        crate::app::view::truncate(&mut t, 200);
        t
    };
    (look::Outcome::Info.title(&text), look::Outcome::Info)
}

/// The embed of a roll: the author says who rolled which expression, the
/// title states the result once, the first line of the description shows
/// the dice (a repeat: one line per result).
pub fn embed(roller: &str, expression: &str, roll: &Roll, rerolls: u32) -> Embed {
    let (title, outcome) = title(expression, roll);
    let mut lines = Vec::new();
    if let [o] = roll.results.as_slice() {
        lines.push(parts_line(o));
    } else {
        for (i, o) in roll.results.iter().enumerate() {
            lines.push(compact(i, o));
        }
    }
    let mut description = lines.join("\n");
    if roll.capped {
        description.push_str(&format!(
            "\n*Stopped at a cap: at most {} rerolls of a die, {} rounds of explosions and {} dice in one roll.*",
            expr::MAX_REROLLS,
            expr::MAX_EXPLOSION_ROUNDS,
            expr::MAX_GENERATED_DICE
        ));
    }
    crate::app::view::truncate(&mut description, crate::app::view::limits::DESCRIPTION);
    let mut embed = Embed::new(title)
        .author(format!("{roller} · {expression}"))
        .description(description)
        .colour(outcome.colour());
    if rerolls > 0 {
        embed = embed.footer(format!("Rerolled {rerolls} time(s)"));
    }
    embed
}

/// A generic roll's line in `/history`: the expression and its result,
/// once (`2d6 + 3 = 11`, `1d20 + 5 >= 15 = 17, pass`, `6#4d6kh3 = 13 · 9 ·
/// 12`, `… 4 of 6 pass`).
pub fn history_line(entry: &crate::storage::log::LogEntry) -> Option<String> {
    use crate::app::log::column;
    let asked: super::record::Asked = column(&entry.inputs)?;
    let rolled: super::record::Rolled = column(&entry.outcome)?;
    Some(rolled.line(&asked.expression))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::expr::Face;

    fn f(value: u32) -> Face {
        Face {
            value,
            kept: true,
            exploded: false,
            rerolled: Vec::new(),
            hit: 0,
        }
    }

    fn roll(parts: Vec<Part>, total: i64, pass: Option<bool>) -> Roll {
        Roll {
            results: vec![Outcome { parts, total, pass }],
            capped: false,
        }
    }

    #[test]
    fn a_history_line_states_expression_and_result() {
        let e = |inputs: &str, outcome: &str| {
            crate::storage::log::LogEntry::sample("", inputs, outcome)
        };
        assert_eq!(
            history_line(&e(r#"{"expression":"2d6 + 3"}"#, r#"{"total":11}"#)).as_deref(),
            Some("2d6 + 3 = 11")
        );
        assert_eq!(
            history_line(&e(
                r#"{"expression":"1d20 + 5 >= 15"}"#,
                r#"{"total":17,"pass":true}"#
            ))
            .as_deref(),
            Some("1d20 + 5 >= 15 = 17, pass")
        );
        assert_eq!(
            history_line(&e(
                r#"{"expression":"3#(1d20) >= 12"}"#,
                r#"{"total":13,"totals":[13,4,20],"pass":true,"passes":2}"#
            ))
            .as_deref(),
            Some("3#(1d20) >= 12 = 13 · 4 · 20, 2 of 3 pass")
        );
    }

    #[test]
    fn the_total_is_stated_once_and_dropped_dice_are_bracketed() {
        let mut low = f(1);
        low.kept = false;
        let d = DiceRoll {
            notation: "4d6kh3".into(),
            sides: 6,
            faces: vec![f(6), low, f(5), f(4)],
            value: 15,
            counting: false,
        };
        let parts = vec![
            Part {
                negative: false,
                notation: "4d6kh3".into(),
                label: None,
                dice: vec![d],
                value: 15,
            },
            Part {
                negative: false,
                notation: "2".into(),
                label: None,
                dice: vec![],
                value: 2,
            },
        ];
        let e = embed("Ada", "4d6kh3 + 2", &roll(parts, 17, None), 0);
        assert_eq!(e.title, "🎲 17");
        assert_eq!(e.description.as_deref(), Some("`4d6kh3` 6 (1) 5 4 + 2"));
        assert!(e.fields.is_empty());
        assert_eq!(e.colour, Some(look::Outcome::Info.colour()));
    }

    #[test]
    fn a_target_passes_or_fails_in_the_title_and_a_natural_20_shows() {
        let d = DiceRoll {
            notation: "1d20".into(),
            sides: 20,
            faces: vec![f(20)],
            value: 20,
            counting: false,
        };
        let parts = vec![Part {
            negative: false,
            notation: "1d20".into(),
            label: None,
            dice: vec![d],
            value: 20,
        }];
        let e = embed("Ada", "(1d20) >= 15", &roll(parts, 20, Some(true)), 0);
        assert_eq!(e.title, "✅ Pass · 20 (needed ≥ 15) · natural 20");
        assert_eq!(e.description.as_deref(), Some("`1d20` **20**★"));
        assert_eq!(e.colour, Some(look::Outcome::Success.colour()));
    }
}
