//! `/stats`: how the dice actually fell, per die size, against the exact
//! expectation (every face equally likely), with Pearson's chi-square test
//! and a bar chart of the counts per face.

use super::chart::{self, Axis, Bar, Panel};
use super::gamma;
use crate::app::view::{colour, Embed, View};
use crate::app::{App, AppError, AppResult, Caller, Response};
use crate::storage::{self, faces::FaceCount};

/// The chi-square approximation needs at least this many expected dice per face.
pub const MIN_EXPECTED: f64 = 5.0;
/// Die sizes charted (larger ones are summarised in text only).
pub const CHART_MAX_SIDES: u32 = 100;
/// Die sizes listed face by face in the embed.
const LIST_MAX_SIDES: u32 = 20;
/// Most die sizes shown as fields.
const MAX_FIELDS: usize = 12;

/// The one-sentence meaning of the p-value, shown in every answer.
pub const P_VALUE_MEANING: &str = "The **p-value** is the chance that perfectly fair dice would land at least this unevenly, so only a value below 0.01 deserves a second look (and even fair dice get one 1 time in 100).";

/// What `/stats` was asked for.
#[derive(Debug, Clone, Default)]
pub struct StatsQuery {
    /// One member: (user id, display name); the caller when `None` and not `server`.
    pub user: Option<(i64, String)>,
    /// The whole server.
    pub server: bool,
    /// Only this die size.
    pub die: Option<u32>,
}

/// The verdict on one die size.
#[derive(Debug, Clone, PartialEq)]
pub struct DieStats {
    /// Sides.
    pub sides: u32,
    /// Dice per face, index 0 = face 1.
    pub counts: Vec<u64>,
    /// Dice in all.
    pub n: u64,
    /// Expected dice per face (n / sides).
    pub expected: f64,
    /// Pearson's statistic.
    pub chi2: f64,
    /// Degrees of freedom (sides − 1).
    pub df: u32,
    /// The p-value, `None` while too few dice were thrown to judge.
    pub p: Option<f64>,
}

impl DieStats {
    /// Dice still needed before a p-value is given.
    pub fn dice_needed(&self) -> u64 {
        let need = (MIN_EXPECTED * f64::from(self.sides)).ceil() as u64;
        need.saturating_sub(self.n)
    }

    /// A short verdict.
    pub fn verdict(&self) -> String {
        match self.p {
            None => format!(
                "too few dice to judge yet ({} more d{} give a first verdict)",
                self.dice_needed(),
                self.sides
            ),
            Some(p) if p < 0.001 => "⚠️ very uneven: worth a closer look".into(),
            Some(p) if p < 0.01 => "uneven: unusual for fair dice, keep watching".into(),
            Some(_) => "consistent with fair dice".into(),
        }
    }
}

/// Groups face counts per die size and tests each (sizes below 2 sides are
/// skipped: a d1 has nothing to test).
pub fn analyse(tally: &[FaceCount]) -> Vec<DieStats> {
    let mut out: Vec<DieStats> = Vec::new();
    for c in tally {
        if c.sides < 2 || c.face == 0 || c.face > c.sides {
            continue;
        }
        if out.last().is_none_or(|d| d.sides != c.sides) {
            out.push(DieStats {
                sides: c.sides,
                counts: vec![0; c.sides as usize],
                n: 0,
                expected: 0.0,
                chi2: 0.0,
                df: c.sides - 1,
                p: None,
            });
        }
        if let Some(d) = out.last_mut() {
            d.counts[(c.face - 1) as usize] += c.n;
            d.n += c.n;
        }
    }
    for d in &mut out {
        d.expected = d.n as f64 / f64::from(d.sides);
        d.chi2 = gamma::chi_square_uniform(&d.counts);
        d.p = (d.expected >= MIN_EXPECTED).then(|| gamma::chi_square_p(d.chi2, d.df));
    }
    out
}

/// `/stats`: the fairness report with its chart.
pub async fn stats(app: &App, caller: &Caller, q: StatsQuery) -> AppResult {
    if let Some(d) = q.die {
        if !(2..=app.config.limits.max_sides).contains(&d) {
            return Err(AppError::user(format!(
                "`die` is a number of sides from 2 to {}.",
                app.config.limits.max_sides
            )));
        }
    }
    let (subject, user) = match (&q.user, q.server) {
        (_, true) => ("the whole server".to_string(), None),
        // A member's display name reads as typed in the title.
        (Some((id, name)), false) => (crate::app::view::escape(name), Some(*id)),
        (None, false) => (crate::app::view::escape(&caller.name), Some(caller.user_id)),
    };
    let mut tx = app.db.read().await?;
    let fc = crate::app::rights::is_fc(&mut tx, caller).await?;
    let hide = (!fc).then_some(caller.user_id);
    // In a game's channel, that game's dice only (issue 32).
    let game = crate::app::games::here(&mut tx, caller).await?;
    let g = game.as_ref().map(|g| g.id);
    let tally = storage::faces::tally_visible(&mut tx, caller.guild_id, g, user, hide).await?;
    let public = storage::faces::tally_public(&mut tx, caller.guild_id, g, user).await?;
    drop(tx);
    let subject = match &game {
        Some(g) => format!("{subject} · {}", crate::app::view::escape(&g.name)),
        None => subject,
    };
    let pick = |tally: &[_]| {
        let mut dice = analyse(tally);
        if let Some(d) = q.die {
            dice.retain(|s| s.sides == d);
        }
        dice
    };
    let dice = pick(&tally);
    // Secret dice in the counts (the game master's, or the roller's own)
    // keep the whole answer private: a public one would show them.
    let counts = |dice: &[DieStats]| -> Vec<(u32, Vec<u64>)> {
        dice.iter().map(|d| (d.sides, d.counts.clone())).collect()
    };
    let answer = if counts(&dice) == counts(&pick(&public)) {
        Response::message
    } else {
        Response::ephemeral
    };
    let title = format!("📊 Dice fairness · {subject}");
    if dice.is_empty() {
        let what = q.die.map_or("dice".to_string(), |d| format!("d{d}s"));
        return Ok(answer(View::embed(
            Embed::new(title)
                .description(format!(
                    "No {what} recorded yet. Every die thrown from now on is counted, face by face."
                ))
                .colour(colour::NEUTRAL),
        )));
    }
    Ok(answer(report(&title, &dice)))
}

/// The embed and chart for analysed dice.
pub fn report(title: &str, dice: &[DieStats]) -> View {
    let total: u64 = dice.iter().map(|d| d.n).sum();
    let sizes: Vec<String> = dice.iter().map(|d| format!("d{}", d.sides)).collect();
    // The p-value is explained only where one is shown.
    let judged = dice.iter().any(|d| d.p.is_some());
    let meaning = if judged {
        format!("\n{P_VALUE_MEANING}")
    } else {
        String::new()
    };
    let mut embed = Embed::new(title)
        .description(format!(
            "**{total}** dice recorded ({}). Each face of a fair die is equally likely; below, how they actually fell.{meaning}",
            sizes.join(", ")
        ))
        .colour(colour::NEUTRAL);
    // Most-thrown sizes first.
    let mut order: Vec<&DieStats> = dice.iter().collect();
    order.sort_by(|a, b| b.n.cmp(&a.n).then(a.sides.cmp(&b.sides)));
    for d in order.iter().take(MAX_FIELDS) {
        let dice = if d.n == 1 { "die" } else { "dice" };
        embed = embed.field(
            format!("d{} · {} {dice}", d.sides, d.n),
            field_text(d),
            false,
        );
    }
    if order.len() > MAX_FIELDS {
        embed = embed.footer(format!(
            "{} more die sizes not shown; ask for one with die:<sides>.",
            order.len() - MAX_FIELDS
        ));
    }
    // A chart only where there are enough dice to judge (issue 31).
    let panels: Vec<Panel> = order
        .iter()
        .filter(|d| d.sides <= CHART_MAX_SIDES && d.p.is_some())
        .take(chart::MAX_PANELS)
        .map(|d| panel(d))
        .collect();
    if !panels.is_empty() {
        embed = embed.field(
            "Charts",
            "Bars: dice per face. Pink dashes: the exact expectation.",
            false,
        );
    }
    super::odds::images(View::embed(embed), "stats", &panels)
}

/// A die's field: its verdict, the statistic and the faces; while too few
/// dice were thrown to judge, the verdict alone, in one line.
fn field_text(d: &DieStats) -> String {
    if d.p.is_none() {
        return d.verdict();
    }
    let p = match d.p {
        Some(p) if p < 0.0001 => format!("p < 0.0001 · {}", d.verdict()),
        Some(p) => format!("p = {p:.4} · {}", d.verdict()),
        None => d.verdict(),
    };
    let mut text = if d.p.is_some() {
        format!(
            "{p}\nχ² = {:.2} with {} degrees of freedom · expected {:.2} per face",
            d.chi2, d.df, d.expected
        )
    } else {
        format!("{p}\nExpected {:.2} per face so far", d.expected)
    };
    if d.sides <= LIST_MAX_SIDES {
        let faces: Vec<String> = d
            .counts
            .iter()
            .enumerate()
            .map(|(i, n)| format!("{}: {n}", i + 1))
            .collect();
        text.push_str(&format!("\n`{}`", faces.join(" · ")));
    } else {
        let (lo_i, lo) = d
            .counts
            .iter()
            .enumerate()
            .min_by_key(|(_, n)| **n)
            .map_or((0, 0), |(i, n)| (i, *n));
        let (hi_i, hi) = d
            .counts
            .iter()
            .enumerate()
            .max_by_key(|(_, n)| **n)
            .map_or((0, 0), |(i, n)| (i, *n));
        text.push_str(&format!(
            "\nRarest face {} ({lo}), commonest face {} ({hi})",
            lo_i + 1,
            hi_i + 1
        ));
    }
    text
}

fn panel(d: &DieStats) -> Panel {
    let p = match d.p {
        Some(p) if p < 0.0001 => "P<0.0001".to_string(),
        Some(p) => format!("P={p:.3}"),
        None => "TOO FEW TO JUDGE".into(),
    };
    Panel {
        reference: Some(d.expected),
        y_title: "DICE".into(),
        ..Panel::new(
            format!(
                "D{} · {} {} · {p}",
                d.sides,
                d.n,
                if d.n == 1 { "DIE" } else { "DICE" }
            ),
            Axis::Count,
            "FACE",
            d.counts
                .iter()
                .enumerate()
                .map(|(i, n)| Bar::new((i + 1).to_string(), *n as f64))
                .collect(),
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn fc(sides: u32, face: u32, n: u64) -> FaceCount {
        FaceCount { sides, face, n }
    }

    #[test]
    fn dice_are_grouped_per_size_with_missing_faces_as_zero() {
        let s = analyse(&[fc(1, 1, 9), fc(6, 1, 20), fc(6, 6, 40), fc(20, 20, 1)]);
        assert_eq!(s.len(), 2);
        assert_eq!(s[0].sides, 6);
        assert_eq!(s[0].counts, vec![20, 0, 0, 0, 0, 40]);
        assert_eq!(s[0].n, 60);
        assert_eq!(s[0].expected, 10.0);
        // (10² + 4·10² + 30²) / 10 = 140.
        assert!((s[0].chi2 - 140.0).abs() < 1e-9);
        assert!(s[0].p.unwrap() < 1e-20);
        assert!(s[0].verdict().contains("very uneven"));
        // One d20 cannot be judged: 99 more are needed.
        assert_eq!(s[1].p, None);
        assert_eq!(s[1].dice_needed(), 99);
    }

    #[test]
    fn an_even_spread_is_called_fair() {
        let tally: Vec<FaceCount> = (1..=6).map(|f| fc(6, f, 10)).collect();
        let s = analyse(&tally);
        assert_eq!(s[0].p, Some(1.0));
        assert_eq!(s[0].verdict(), "consistent with fair dice");
        let v = report("t", &s);
        assert_eq!(v.files.len(), 1);
        assert_eq!(v.embeds[0].image.as_deref(), Some("stats.png"));
        assert!(v.embeds[0]
            .description
            .as_deref()
            .unwrap()
            .contains("p-value"));
    }

    #[test]
    fn big_reports_stay_within_discord_limits() {
        let mut tally = Vec::new();
        for sides in 2..=40u32 {
            for f in 1..=sides {
                tally.push(fc(sides, f, 1000 + u64::from(f)));
            }
        }
        tally.extend((1..=1000).map(|f| fc(1000, f, 3)));
        let v = report("📊 Dice fairness · the whole server", &analyse(&tally));
        let clamped = v.clone().clamp();
        assert_eq!(v, clamped, "the report must not need clamping");
    }
}
