//! Small pure text helpers for Venus embeds: rank colours, exp bars, Lot
//! pips, percentages, factor lists, and splitting long lists into embed
//! fields that fit Discord's limits.

use crate::app::view::limits;
use crate::rules::venus::check::NamedFactor;
use crate::rules::venus::Rank;

/// The colour mark of a rank: 🟤 Bronze, ⚪ Silver, 🟡 Gold, 💠 Platinum.
pub fn rank_mark(rank: Rank) -> &'static str {
    match rank {
        Rank::Bronze => "🟤",
        Rank::Silver => "⚪",
        Rank::Gold => "🟡",
        Rank::Platinum => "💠",
    }
}

/// "🟡 Gold".
pub fn rank_label(rank: Rank) -> String {
    format!("{} {}", rank_mark(rank), rank.name())
}

/// Most pips an exp bar draws; longer bars are scaled down.
const MAX_BAR: u32 = 20;

/// An exp bar such as `▰▰▰▱▱▱ 3/6`; `needed` is `None` when levels are
/// edited by hand (`exp 5 (levels by hand)`).
pub fn exp_bar(exp: u32, needed: Option<u32>) -> String {
    let Some(needed) = needed.filter(|n| *n > 0) else {
        return format!("exp {exp} (levels by hand)");
    };
    let width = needed.min(MAX_BAR);
    let filled = if needed <= MAX_BAR {
        exp.min(needed)
    } else {
        // Scale, rounding down, so a full bar means "level-up due".
        ((u64::from(exp.min(needed)) * u64::from(width)) / u64::from(needed)) as u32
    };
    format!(
        "{}{} {exp}/{needed}",
        "▰".repeat(filled as usize),
        "▱".repeat((width - filled) as usize)
    )
}

/// Lots as pips: `●●●●●●●○○○ 7/10`.
pub fn lot_pips(lots: u32) -> String {
    let lots = lots.min(10);
    format!(
        "{}{} {lots}/10",
        "●".repeat(lots as usize),
        "○".repeat(10 - lots as usize)
    )
}

/// A job's level as messages write it: `learning` while it is being
/// learned (level 0), else `level 3`.
pub fn level_text(level: u32, learning: bool) -> String {
    if learning || level == 0 {
        "learning".into()
    } else {
        format!("level {level}")
    }
}

/// Ego as text.
pub fn ego_text(ego: bool) -> &'static str {
    if ego {
        "✨ held"
    } else {
        "not held"
    }
}

/// A probability as a percentage with one decimal (`62.5%`); tiny but
/// non-zero chances read `<0.1%`, near-certain ones `>99.9%`.
pub fn percent(p: f64) -> String {
    // `+ 0.0` turns a negative zero into a plain zero.
    let pc = (p * 100.0).clamp(0.0, 100.0) + 0.0;
    if pc > 0.0 && pc < 0.05 {
        "<0.1%".into()
    } else if pc < 100.0 && pc > 99.95 {
        ">99.9%".into()
    } else {
        format!("{pc:.1}%")
    }
}

/// ` + Darkness + Wounds (+2)`: what the factors add to the base of a
/// threshold or target breakdown.
pub fn factor_terms(factors: &[NamedFactor]) -> String {
    let term = |f: &NamedFactor| match f.value {
        1 => format!(" + {}", f.name),
        v => format!(" + {} (+{v})", f.name),
    };
    factors.iter().map(term).collect()
}

/// Parses relative factors written `Darkness, Wounds+2; Crowd +1`: names
/// separated by commas or semicolons, each optionally ending in `+1`/`+2`.
pub fn parse_factors(text: &str) -> Vec<NamedFactor> {
    let mut out = Vec::new();
    for part in text.split([',', ';']) {
        let part = part.trim();
        if part.is_empty() {
            continue;
        }
        let (name, value) = match part.rsplit_once('+') {
            Some((n, v)) if v.trim().parse::<u32>().is_ok() && !n.trim().is_empty() => {
                (n.trim(), v.trim().parse::<u32>().unwrap_or(1))
            }
            _ => (part, 1),
        };
        out.push(NamedFactor {
            name: name.to_string(),
            value,
        });
    }
    out
}

/// Splits comma-separated names (`Finesse, Wits`).
pub fn split_names(text: &str) -> Vec<String> {
    text.split([',', ';', '/'])
        .map(str::trim)
        .filter(|s| !s.is_empty())
        .map(str::to_string)
        .collect()
}

/// Room left in an embed for more fields: characters (field names and
/// values count, as Discord counts them) and fields.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Room {
    /// Characters left.
    pub chars: usize,
    /// Fields left.
    pub fields: usize,
}

/// The longest "\n… and N more" line (any count of lines).
const MORE: usize = 24;

impl Room {
    /// What a section needs at the least: its heading and "… and N more".
    pub fn least(name: &str) -> Self {
        Self {
            chars: name.chars().count() + MORE,
            fields: 1,
        }
    }

    /// This room less `other` (none left when it is larger).
    pub fn less(self, other: Self) -> Self {
        Self {
            chars: self.chars.saturating_sub(other.chars),
            fields: self.fields.saturating_sub(other.fields),
        }
    }
}

/// Packs lines into embed fields named `name`, `name (2)`, … within
/// `room` (which is reduced by what the fields take) and at most
/// `max_fields` fields, no value past Discord's 1024 characters: the lines
/// that fit, and a last line "… and N more" for the rest, so nothing is
/// dropped unsaid. Returns nothing only when not even the heading and that
/// line fit.
pub fn fields_within(
    name: &str,
    lines: &[String],
    max_fields: usize,
    room: &mut Room,
) -> Vec<(String, String)> {
    let per_field = limits::FIELD_VALUE - MORE;
    let cap = max_fields.min(room.fields);
    let title = |i: usize| match i {
        0 => name.to_string(),
        i => format!("{name} ({})", i + 1),
    };
    let mut out: Vec<(String, String)> = Vec::new();
    // Characters taken by `out`, names included.
    let mut used = 0usize;
    let mut shown = 0;
    for line in lines {
        let line: String = line.chars().take(per_field).collect();
        let n = line.chars().count();
        let here = out
            .last()
            .is_some_and(|(_, v)| v.chars().count() + 1 + n <= per_field);
        if here && used + 1 + n + MORE <= room.chars {
            if let Some((_, v)) = out.last_mut() {
                v.push('\n');
                v.push_str(&line);
            }
            used += 1 + n;
        } else {
            let t = title(out.len());
            let cost = t.chars().count() + n;
            if out.len() >= cap || used + cost + MORE > room.chars {
                break;
            }
            out.push((t, line));
            used += cost;
        }
        shown += 1;
    }
    let left = lines.len() - shown;
    if left > 0 {
        let more = format!("… and {left} more");
        match out.last_mut() {
            Some((_, v)) => {
                v.push('\n');
                v.push_str(&more);
                used += 1 + more.chars().count();
            }
            None if cap > 0 && name.chars().count() + more.chars().count() <= room.chars => {
                used += name.chars().count() + more.chars().count();
                out.push((name.to_string(), more));
            }
            None => {}
        }
    }
    *room = room.less(Room {
        chars: used,
        fields: out.len(),
    });
    out
}

/// Cuts text to `max` characters with an ellipsis.
pub fn cut(text: &str, max: usize) -> String {
    let mut s = text.to_string();
    crate::app::view::truncate(&mut s, max);
    s
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn exp_bars_draw_one_pip_per_exp_and_scale_long_bars() {
        assert_eq!(exp_bar(3, Some(6)), "▰▰▰▱▱▱ 3/6");
        assert_eq!(exp_bar(0, Some(16)), format!("{} 0/16", "▱".repeat(16)));
        assert_eq!(exp_bar(7, Some(4)), "▰▰▰▰ 7/4");
        assert_eq!(
            exp_bar(50, Some(100)),
            format!("{}{} 50/100", "▰".repeat(10), "▱".repeat(10))
        );
        assert_eq!(exp_bar(5, None), "exp 5 (levels by hand)");
        assert_eq!(level_text(3, false), "level 3");
        assert_eq!(level_text(0, false), "learning");
        assert_eq!(level_text(2, true), "learning");
    }

    #[test]
    fn lots_and_percentages_read_well() {
        assert_eq!(lot_pips(7), "●●●●●●●○○○ 7/10");
        assert_eq!(lot_pips(0), "○○○○○○○○○○ 0/10");
        assert_eq!(percent(0.625), "62.5%");
        assert_eq!(percent(1.0), "100.0%");
        assert_eq!(percent(0.0), "0.0%");
        assert_eq!(percent(-0.0), "0.0%");
        assert_eq!(percent(-1e-17), "0.0%");
        assert_eq!(percent(0.0001), "<0.1%");
        assert_eq!(percent(0.99999), ">99.9%");
    }

    #[test]
    fn factors_parse_names_and_values() {
        let f = parse_factors("Darkness, Wounds+2; Crowd +1,,");
        let got: Vec<(String, u32)> = f.into_iter().map(|f| (f.name, f.value)).collect();
        assert_eq!(
            got,
            vec![
                ("Darkness".to_string(), 1),
                ("Wounds".to_string(), 2),
                ("Crowd".to_string(), 1)
            ]
        );
        assert_eq!(
            factor_terms(&parse_factors("Darkness, Wounds+2")),
            " + Darkness + Wounds (+2)"
        );
        assert_eq!(factor_terms(&[]), "");
        assert_eq!(split_names(" Finesse , Wits "), vec!["Finesse", "Wits"]);
    }

    #[test]
    fn long_lists_split_into_fields_within_limits() {
        let lines: Vec<String> = (0..200)
            .map(|i| format!("line {i} {}", "x".repeat(40)))
            .collect();
        let wide = || Room {
            chars: 100_000,
            fields: 25,
        };
        let f = fields_within("Jobs", &lines, 3, &mut wide());
        assert_eq!(f.len(), 3);
        assert_eq!(f[0].0, "Jobs");
        assert_eq!(f[1].0, "Jobs (2)");
        assert!(f.iter().all(|(_, v)| v.chars().count() <= 1024));
        assert!(f[2].1.contains("more"));
        let short = fields_within("Jobs", &["a".into(), "b".into()], 3, &mut wide());
        assert_eq!(short, vec![("Jobs".to_string(), "a\nb".to_string())]);
    }
}
