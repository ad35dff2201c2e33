//! The message of a generic roll: one line per term (labelled, faces shown,
//! dropped dice struck through), pass/fail against a target, successes
//! counted, natural 20s and 1s on d20s called out, and a repeat's results
//! one by one.

use std::collections::BTreeMap;

use crate::app::view::{colour, Embed};
use crate::rules::expr::{self, DiceRoll, Outcome, Part, Roll};

/// Faces listed one by one up to this many per term; beyond, counts per face.
pub const LIST_FACES: usize = 40;

/// A face as shown: `~~1~~` dropped, `↯6` added by an explosion, `**9**`
/// a success, `*1*` a failure, `2⟲1` rerolled from 1, a d20's 20 and 1 in bold.
fn face(d: &DiceRoll, f: &expr::Face) -> String {
    let mut s = f.value.to_string();
    if !f.rerolled.is_empty() {
        let from: Vec<String> = f.rerolled.iter().map(u32::to_string).collect();
        s = format!("{s}⟲{}", from.join("⟲"));
    }
    if f.exploded {
        s = format!("↯{s}");
    }
    if !f.kept {
        return format!("~~{s}~~");
    }
    match f.hit {
        1 => return format!("**{s}**"),
        -1 => return format!("*{s}*"),
        _ => {}
    }
    if d.sides == 20 && !d.counting && (f.value == 20 || f.value == 1) {
        s = format!("**{s}**");
    }
    s
}

/// Faces as text: each die when few, counts per face when many.
pub fn faces_text(d: &DiceRoll) -> String {
    if d.faces.len() <= LIST_FACES {
        let parts: Vec<String> = d.faces.iter().map(|f| face(d, f)).collect();
        return format!("[{}]", parts.join(", "));
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
    format!("{} dice ({} kept): {}", d.faces.len(), kept, parts.join(" "))
}

/// `3 successes` / `2 successes, 1 failure` for a counting term.
fn successes(d: &DiceRoll) -> String {
    let s = d.faces.iter().filter(|f| f.hit == 1).count();
    let x = d.faces.iter().filter(|f| f.hit == -1).count();
    let plural = |n: usize, w: &str| format!("{n} {w}{}", if n == 1 { "" } else { "s" });
    if x == 0 {
        plural(s, "success").replace("successs", "successes")
    } else {
        format!(
            "{}, {}",
            plural(s, "success").replace("successs", "successes"),
            plural(x, "failure")
        )
    }
}

fn label(p: &Part) -> String {
    p.label
        .as_deref()
        .map_or(String::new(), |l| format!(" · *{l}*"))
}

/// One term's line: `+ **2d6** · *cold*: [3, 4] → **7**`.
fn part_line(p: &Part) -> String {
    let sign = if p.negative { "−" } else { "+" };
    match p.dice.as_slice() {
        [] => format!("{sign} {}{}", p.notation, label(p)),
        [d] if d.notation == p.notation => {
            let counted = if d.counting {
                format!(" ({})", successes(d))
            } else {
                String::new()
            };
            format!(
                "{sign} **{}**{}: {} → **{}**{counted}",
                p.notation,
                label(p),
                faces_text(d),
                p.value
            )
        }
        dice => {
            let each: Vec<String> = dice
                .iter()
                .map(|d| format!("{} {}", d.notation, faces_text(d)))
                .collect();
            format!(
                "{sign} **{}**{}: {} → **{}**",
                p.notation,
                label(p),
                each.join(" · "),
                p.value
            )
        }
    }
}

/// A result on one line, for repeats: `**#2** [5, 3, 3, ~~1~~] + 2 = **13**`.
fn compact(i: usize, o: &Outcome) -> String {
    let mut s = format!("**#{}**", i + 1);
    for (k, p) in o.parts.iter().enumerate() {
        let sign = match (k, p.negative) {
            (0, false) => "",
            (0, true) => "−",
            (_, false) => " +",
            (_, true) => " −",
        };
        let body = if p.dice.is_empty() {
            p.notation.clone()
        } else {
            p.dice.iter().map(faces_text).collect::<Vec<_>>().join(" ")
        };
        s.push_str(&format!("{sign} {body}{}", label(p)));
    }
    s.push_str(&format!(" = **{}**", o.total));
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
        (t + usize::from(f.value == 20), o + usize::from(f.value == 1))
    })
}

/// The embed of a roll: title, lines, total (or results), pass/fail.
pub fn embed(roller: &str, expression: &str, roll: &Roll, rerolls: u32) -> Embed {
    let target = expr::parse(expression, expr::Caps::default())
        .ok()
        .and_then(|e| e.target);
    let counting_only = roll.results.first().is_some_and(|o| {
        !o.parts.is_empty()
            && o.parts
                .iter()
                .all(|p| p.dice.len() == 1 && p.dice[0].counting && p.dice[0].notation == p.notation)
    });
    let mut embed = Embed::new(format!("🎲 {roller} rolls {expression}"));
    let mut colour_of = colour::NEUTRAL;
    let mut lines = Vec::new();
    if let [o] = roll.results.as_slice() {
        for p in &o.parts {
            lines.push(part_line(p));
        }
        if let Some(first) = lines.first_mut() {
            if let Some(rest) = first.strip_prefix("+ ") {
                *first = rest.to_string();
            }
        }
        let (twenty, one) = naturals(o);
        if twenty > 0 {
            lines.push("✨ **Natural 20!**".into());
            colour_of = colour::SUCCESS;
        }
        if one > 0 {
            lines.push("💀 **Natural 1.**".into());
            if twenty == 0 {
                colour_of = colour::FAILURE;
            }
        }
        let name = if counting_only { "Successes" } else { "Total" };
        embed = embed.field(name, format!("**{}**", o.total), true);
        if let (Some(pass), Some(t)) = (o.pass, target) {
            colour_of = if pass { colour::SUCCESS } else { colour::FAILURE };
            let verdict = if pass { "✅ **Pass**" } else { "❌ **Fail**" };
            embed = embed.field(
                "Result",
                format!("{verdict} (needed {} {})", t.op.pretty(), t.value),
                true,
            );
        }
    } else {
        for (i, o) in roll.results.iter().enumerate() {
            lines.push(compact(i, o));
        }
        let totals: Vec<String> = roll.results.iter().map(|o| o.total.to_string()).collect();
        embed = embed.field("Totals", totals.join(" · "), true);
        if let Some(t) = target {
            let passes = roll.results.iter().filter(|o| o.pass == Some(true)).count();
            embed = embed.field(
                "Passes",
                format!(
                    "**{passes}** of {} (needed {} {})",
                    roll.results.len(),
                    t.op.pretty(),
                    t.value
                ),
                true,
            );
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
    embed = embed.description(description).colour(colour_of);
    if rerolls > 0 {
        embed = embed.footer(format!("Rerolled {rerolls} time(s)"));
    }
    embed
}
