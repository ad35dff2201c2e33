//! The generic roller's odds question: `/odds roll expression:` and
//! `kismet odds roll --expression …`, the exact distribution of any `/roll`
//! expression (numbers from [`crate::rules::expr::odds`]) as a table of
//! totals, the mean and spread, the chance of meeting a target, and a bar
//! chart; as JSON `{"expression", "repeat", "min", "pmf": [P(min), P(min+1),
//! …], "mean", "sd", "tail"}` plus `"pass"` when the expression has a target.

use std::sync::atomic::AtomicBool;

use clap::Subcommand;
use serde_json::{json, Value};

use crate::app::view::{colour, Embed, File, View};
use crate::app::{AppError, AppResult, Response};
use crate::kit::{caller_of, defer, respond, Context, Error};
use crate::rules::expr::odds::Dist;
use crate::rules::expr::{self, odds, Caps};
use crate::rules::odds::OddsError;
use crate::systems::platform::chart::{self, Axis, Bar, Panel};
use crate::systems::platform::odds::{series, CliOdds, CliQuestion, Odds, Printed};
use crate::systems::platform::text::pct;

/// The generic roller's question.
#[derive(Debug, Clone, PartialEq, Subcommand)]
pub enum Question {
    /// Any `/roll` expression: its exact distribution (and target chance).
    Roll {
        /// The expression, e.g. `4d6kh3` or `1d20+5>=15`.
        #[arg(long, allow_hyphen_values = true)]
        expression: String,
    },
}

/// What the generic roller registers for odds.
pub fn odds() -> Odds {
    Odds {
        slash: || vec![odds_roll()],
        cli: CliOdds::of::<Question>(),
    }
}

impl CliQuestion for Question {
    /// The expression's answer, or the refusal of the expression.
    fn printed(&self) -> Result<Printed, OddsError> {
        let Question::Roll { expression } = self;
        printed(expression).map_err(|e| OddsError::new("expression", expression, e))
    }
}

/// One expression's answer as `kismet odds roll` prints it, or why not.
pub fn printed(expression: &str) -> Result<Printed, String> {
    let json = json_answer(expression)?;
    let mut pretty = String::new();
    let first = json["min"].as_i64().unwrap_or(0);
    if let Value::Object(fields) = &json {
        for (k, v) in fields {
            match (k.as_str(), v) {
                ("pmf", Value::Array(ps)) => {
                    let ps: Vec<f64> = ps.iter().filter_map(Value::as_f64).collect();
                    series(&mut pretty, "pmf", "total", first, &ps);
                }
                ("pass", p) => crate::systems::platform::odds::scalar(
                    &mut pretty,
                    "pass",
                    p.as_f64().unwrap_or(0.0),
                ),
                (k, Value::String(text)) => pretty.push_str(&format!("{k:<8} {text}\n")),
                (k, other) => pretty.push_str(&format!("{k:<8} {other}\n")),
            }
        }
    }
    Ok(Printed { json, pretty })
}

/// The JSON answer of one expression.
fn json_answer(expression: &str) -> Result<Value, String> {
    let e = expr::parse(expression, Caps::default()).map_err(|e| e.message)?;
    let o = odds::odds(&e).map_err(|e| e.message)?;
    let mut v = json!({
        "expression": e.to_string(),
        "repeat": e.repeat,
        "min": o.dist.min,
        "pmf": o.dist.p,
        "mean": o.dist.mean(),
        "sd": o.dist.sd(),
        "tail": o.tail,
    });
    if let Some(p) = o.pass {
        v["pass"] = json!(p);
    }
    Ok(v)
}

/// Totals less likely than this are left out at both ends of the table.
const TAIL: f64 = 0.0005;
/// Most lines in the table.
const MAX_LINES: usize = 30;
/// Most bars in the chart (wider ranges are grouped).
const MAX_BARS: usize = 60;

/// The answer's view, or the reason there is none; stopped at the next
/// step once `stop` is set ([`odds::odds_until`]).
pub fn answer(expression: &str, caps: Caps, stop: &AtomicBool) -> AppResult {
    let e = expr::parse(expression, caps)?;
    let o = odds::odds_until(&e, stop)?;
    let d = &o.dist;
    // The range worth showing: drop negligible totals at both ends.
    let shown = shown_totals(d);
    let meets = |v: i64| e.target.is_some_and(|t| t.op.holds(v, t.value));
    let lines = total_lines(d, &shown);
    let bars = total_bars(&shown, meets);
    let mut description =
        format!("`{e}`: the exact chance of each total, computed rather than simulated.");
    if e.repeat > 1 {
        description.push_str(&format!(
            " Each of the {} results is alike and independent.",
            e.repeat
        ));
    }
    if o.tail > 0.0 {
        description.push_str(&format!(
            " Explosion chains are followed until going on is at most {:.0e} likely.",
            odds::TAIL_BOUND
        ));
    }
    let mut embed = Embed::new(format!("🎯 Odds · {e}"))
        .description(description)
        .colour(colour::NEUTRAL)
        .field(
            "Average",
            format!("**{:.3}** (spread ±{:.3})", d.mean(), d.sd()),
            true,
        )
        .field("Range", format!("{} to {}", d.min, d.max()), true);
    if let (Some(p), Some(t)) = (o.pass, e.target) {
        embed = embed.field(
            format!("Chance of {} {}", t.op.pretty(), t.value),
            format!("**{}**", pct(p)),
            true,
        );
    }
    embed = embed
        .field(
            "Chance of each total",
            format!("```\n{}\n```", lines.join("\n")),
            false,
        )
        .footer(if e.target.is_some() {
            "Exact figures. Highlighted bars meet the target."
        } else {
            "Exact figures, computed rather than simulated."
        });
    embed.image = Some("odds.png".into());
    let mut view = View::embed(embed);
    view.files.push(File {
        name: "odds.png".into(),
        bytes: chart::render(&Panel::new(
            format!("P(TOTAL) · {}", e.to_string().to_uppercase()),
            Axis::Percent,
            "TOTAL",
            bars,
        )),
    });
    Ok(Response::message(view))
}

/// The totals worth showing, each with its chance: the negligible ones
/// at both ends dropped.
fn shown_totals(d: &Dist) -> Vec<(i64, f64)> {
    let all: Vec<(i64, f64)> = (d.min..=d.max()).map(|v| (v, d.at(v))).collect();
    let first = all.iter().position(|(_, p)| *p >= TAIL).unwrap_or(0);
    let last = all
        .iter()
        .rposition(|(_, p)| *p >= TAIL)
        .unwrap_or(all.len().saturating_sub(1));
    all[first..=last.max(first)].to_vec()
}

/// The table of totals: exactly and at least, at most [`MAX_LINES`] rows.
fn total_lines(d: &Dist, shown: &[(i64, f64)]) -> Vec<String> {
    let at_least = |v: i64| -> f64 { d.iter().filter(|(x, _)| *x >= v).map(|(_, p)| p).sum() };
    let step = shown.len().div_ceil(MAX_LINES).max(1);
    let mut lines = vec![format!("{:>7} {:>9} {:>9}", "total", "exactly", "at least")];
    for (v, p) in shown.iter().step_by(step) {
        lines.push(format!("{v:>7} {:>9} {:>9}", pct(*p), pct(at_least(*v))));
    }
    if step > 1 {
        lines.push(format!("(every {step}th total)"));
    }
    lines
}

/// The chart's bars: totals grouped to at most [`MAX_BARS`], those that
/// meet the target highlighted.
fn total_bars(shown: &[(i64, f64)], meets: impl Fn(i64) -> bool) -> Vec<Bar> {
    let group = shown.len().div_ceil(MAX_BARS).max(1);
    shown
        .chunks(group)
        .map(|c| {
            let (lo, hi) = (c[0].0, c[c.len() - 1].0);
            let label = if lo == hi {
                lo.to_string()
            } else {
                format!("{lo}-{hi}")
            };
            let p: f64 = c.iter().map(|(_, p)| p).sum();
            Bar::new(label, p).highlighted(c.iter().any(|(v, _)| meets(*v)))
        })
        .collect()
}

/// Exact odds of any dice expression, e.g. 4d6kh3, 5d10>=8f1, 1d20+5 >= 15.
#[poise::command(slash_command, guild_only, rename = "roll")]
pub async fn odds_roll(
    ctx: Context<'_>,
    #[description = "Dice like /roll takes: 4d6kh3, 3d6!, 5d10>=8f1, 1d20+5 >= 15"]
    #[max_length = 200]
    expression: String,
) -> Result<(), Error> {
    caller_of(ctx)?;
    defer(ctx, false).await?;
    let caps = crate::systems::dice::caps(&ctx.data().app);
    let stop = ctx.data().app.stopping.clone();
    let r = tokio::task::spawn_blocking(move || answer(&expression, caps, &stop))
        .await
        .unwrap_or_else(|e| Err(AppError::Internal(format!("odds: {e}"))));
    respond(ctx, r).await
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::app::Reply;

    #[test]
    fn a_target_and_a_chart_within_limits() {
        let r = answer("1d20+5 >= 15", Caps::default(), &AtomicBool::new(false)).unwrap();
        let Reply::Message(v) = r.reply else {
            panic!("{:?}", r.reply)
        };
        assert_eq!(v.clone().clamp(), v, "needs no clamping");
        let f = v.embeds[0]
            .fields
            .iter()
            .find(|f| f.name == "Chance of ≥ 15")
            .unwrap();
        assert_eq!(f.value, "**55.00%**");
        assert!(chart::png::dimensions(&v.files[0].bytes).is_some());
        for e in ["500d6", "3d6!", "6#4d6kh3", "20d10>=7f1", "1d100*1d100"] {
            let r = answer(e, Caps::default(), &AtomicBool::new(false)).unwrap();
            let Reply::Message(v) = r.reply else { panic!() };
            assert_eq!(v.clone().clamp(), v, "{e}");
        }
        assert!(answer("4d6!kh3", Caps::default(), &AtomicBool::new(false)).is_err());
    }
}
