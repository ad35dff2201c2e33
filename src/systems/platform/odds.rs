//! `/odds`: exact odds for every roll the bot offers, with the same
//! parameters as the rolls. The questions belong to the systems: each
//! registers its `/odds` subcommands and its `kismet odds` questions
//! ([`Odds`], in its `odds.rs`) and answers them with its rules core's
//! typed answers. This module is what they share and names no system: the
//! `/odds` root, the wording of refusals, the embed and chart of an answer
//! ([`render`]), sweeps and task tables, and the CLI's printing
//! ([`Printed`]).

use serde::Serialize;

use super::chart::{self, Axis, Bar, Panel};
use super::text::pct;
use crate::app::view::{colour, Embed, File, View};
use crate::app::{AppError, AppResult, Response};
use crate::kit::{caller_of, defer, respond, Context, Error};
use crate::rules::odds::OddsError;
use crate::systems::Command;

/// Bars with less than this probability are trimmed from a task's tail.
const TAIL: f64 = 0.0005;
/// Most lines in a table field.
pub const MAX_LINES: usize = 30;

/// What a system registers for odds: its `/odds` subcommands and its
/// `kismet odds` questions.
#[derive(Clone, Copy)]
pub struct Odds {
    /// Its `/odds …` subcommands, grafted onto `/odds`.
    pub slash: fn() -> Vec<Command>,
    /// Its `kismet odds …` questions.
    pub cli: CliOdds,
}

/// A system's `kismet odds` questions: a clap subcommand set (usually a
/// `#[derive(clap::Subcommand)]` enum's functions) and its answer.
#[derive(Clone, Copy)]
pub struct CliOdds {
    /// Adds the questions as subcommands of `kismet odds`.
    pub augment: fn(clap::Command) -> clap::Command,
    /// Whether `name` is one of its questions.
    pub has: fn(&str) -> bool,
    /// Answers the question chosen in these (the `odds` level's) matches.
    pub ask: fn(&clap::ArgMatches) -> Result<Printed, OddsError>,
}

impl CliOdds {
    /// The questions of `Q`: its subcommands, and the chosen one's answer.
    pub fn of<Q: CliQuestion>() -> Self {
        Self {
            augment: Q::augment_subcommands,
            has: Q::has_subcommand,
            ask: ask::<Q>,
        }
    }
}

/// A system's `kismet odds` questions as one clap subcommand enum whose
/// values answer themselves ([`CliOdds::of`] registers it).
pub trait CliQuestion: clap::Subcommand + clap::FromArgMatches {
    /// The typed answer to this question as `kismet odds` prints it.
    fn printed(&self) -> Result<Printed, OddsError>;
}

/// Reads the question chosen in `m` as a `Q` and answers it.
fn ask<Q: CliQuestion>(m: &clap::ArgMatches) -> Result<Printed, OddsError> {
    Q::from_arg_matches(m)
        .map_err(|e| OddsError::new("question", "?", e.to_string()))?
        .printed()
}

/// An answer as `kismet odds` prints it: the JSON (the typed answer's
/// fields) or, with `--pretty`, a table in the JSON's key order.
#[derive(Debug, Clone, PartialEq)]
pub struct Printed {
    /// The JSON object.
    pub json: serde_json::Value,
    /// The human table.
    pub pretty: String,
}

impl Printed {
    /// A typed answer and its table.
    pub fn new(answer: &impl Serialize, pretty: String) -> Result<Self, OddsError> {
        let json = serde_json::to_value(answer)
            .map_err(|e| OddsError::new("answer", "?", e.to_string()))?;
        Ok(Self { json, pretty })
    }
}

/// One line of a `--pretty` table for a probability.
pub fn scalar(out: &mut String, key: &str, p: f64) {
    out.push_str(&format!("{key:<8} {:>9.4}%  {}\n", p * 100.0, bar(p)));
}

/// `--pretty` lines for a distribution, one per element numbered from `first`.
pub fn series(out: &mut String, key: &str, label: &str, first: i64, ps: &[f64]) {
    out.push_str(&format!("{key}:\n"));
    for (i, p) in ps.iter().enumerate() {
        let n = first.saturating_add(i as i64);
        out.push_str(&format!(
            "  {label} {n:>3}  {:>9.4}%  {}\n",
            p * 100.0,
            bar(*p)
        ));
    }
}

fn bar(p: f64) -> String {
    "█".repeat((p.clamp(0.0, 1.0) * 40.0).round() as usize)
}

/// Exact odds for any roll, before you roll it.
#[poise::command(slash_command, guild_only)]
pub async fn odds(_ctx: Context<'_>) -> Result<(), Error> {
    Ok(())
}

/// The `/odds` root: its subcommands come from the registered systems
/// that are no game ([`Odds::slash`], grafted by
/// [`crate::systems::commands`]; a game's go under its root, [`group`]).
pub fn root() -> Command {
    let mut c = odds();
    c.subcommand_required = true;
    c
}

/// Exact odds of this game's rolls, before you roll them.
#[poise::command(slash_command, guild_only, rename = "odds")]
pub async fn game_odds(_ctx: Context<'_>) -> Result<(), Error> {
    Ok(())
}

/// A game's `/<root> odds` group holding its `questions` (grafted by
/// [`crate::systems::commands`], so a server sees only its games' odds).
/// A game whose one question is itself named `odds` answers every question
/// with that one command: it is grafted as the leaf `/<root> odds`.
pub fn group(mut questions: Vec<Command>) -> Command {
    if questions.len() == 1 && questions[0].name == "odds" {
        if let Some(leaf) = questions.pop() {
            return leaf;
        }
    }
    let mut c = game_odds();
    c.subcommands = questions;
    c.subcommand_required = true;
    c
}

/// Answers an `/odds` subcommand: acknowledges first, then computes the
/// exact distribution and its chart off the async workers.
pub async fn reply(
    ctx: Context<'_>,
    answer: impl FnOnce() -> Result<View, OddsError> + Send + 'static,
) -> Result<(), Error> {
    caller_of(ctx)?;
    defer(ctx, false).await?;
    let r = tokio::task::spawn_blocking(answer)
        .await
        .unwrap_or_else(|e| Err(OddsError::new("question", "?", format!("odds: {e}"))));
    respond(ctx, r.map(Response::message).map_err(refuse)).await
}

/// A view's answer, or the refusal of a question out of range.
pub fn answer(view: Result<View, OddsError>) -> AppResult {
    view.map(Response::message).map_err(refuse)
}

/// A question out of range, worded for slash options.
pub fn refuse(e: OddsError) -> AppError {
    AppError::user(format!("I cannot compute that: {}.", e.slash()))
}

/// The answer's view: title, parameters, numbers and the chart.
pub fn render((title, params, fields, panels): Parts) -> View {
    let highlighted = panels.iter().any(|p| p.bars.iter().any(|b| b.highlight));
    let mut embed = Embed::new(format!("🎯 Odds · {title}"))
        .description(params)
        .colour(colour::NEUTRAL)
        .footer(if highlighted {
            "Exact figures, computed rather than simulated. The highlighted bar is the case you asked about."
        } else {
            "Exact figures, computed rather than simulated."
        });
    // Short figures side by side; a table takes the full width (in a
    // half-width field it wraps into nonsense).
    for (name, value) in fields {
        let inline = !value.contains("```");
        embed = embed.field(name, value, inline);
    }
    images(View::embed(embed), "odds", &panels)
}

/// Adds one chart image per panel to a view (at most
/// [`chart::MAX_PANELS`]): the first in its first embed, each other in an
/// embed of its own below, named `<stem>.png`, `<stem>-2.png`, ….
pub fn images(mut view: View, stem: &str, panels: &[Panel]) -> View {
    let colour = view.embeds.first().and_then(|e| e.colour);
    for (i, panel) in panels.iter().take(chart::MAX_PANELS).enumerate() {
        let name = if i == 0 {
            format!("{stem}.png")
        } else {
            format!("{stem}-{}.png", i + 1)
        };
        if i == 0 && !view.embeds.is_empty() {
            view.embeds[0].image = Some(name.clone());
        } else {
            let mut e = Embed::new("");
            e.colour = colour;
            e.image = Some(name.clone());
            view.embeds.push(e);
        }
        view.files.push(File {
            name,
            bytes: chart::render(panel),
        });
    }
    // The footer reads after the last picture.
    let n = view.embeds.len();
    if n > 1 {
        view.embeds[n - 1].footer = view.embeds[0].footer.take();
    }
    view
}

/// Bars of a sweep: `(label, probability, highlighted)` points.
pub fn sweep(points: impl Iterator<Item = (String, f64, bool)>) -> Vec<Bar> {
    points
        .map(|(label, p, hl)| Bar::new(label, p).highlighted(hl))
        .collect()
}

/// `d20 − 5`, `d20 + 3` or `d20`.
pub fn signed_d20(m: i32) -> String {
    match m {
        0 => "d20".into(),
        m if m < 0 => format!("d20 − {}", -m),
        m => format!("d20 + {m}"),
    }
}

/// The name of a set `w` dice wide (1 = no set).
pub fn width_name(w: usize) -> String {
    match w {
        1 => "no set".into(),
        2 => "dub".into(),
        3 => "trip".into(),
        4 => "quad".into(),
        5 => "quint".into(),
        n => format!("{n} wide"),
    }
}

/// An answer's parts: title, parameters, fields (name, value) and chart panels.
pub type Parts = (&'static str, String, Vec<(String, String)>, Vec<Panel>);

/// A task's answer: P(at least k) as a table, P(exactly k) as bars.
pub fn task(
    title: &'static str,
    params: String,
    chart_title: String,
    unit: &str,
    at_least: &[f64],
) -> Parts {
    let exactly: Vec<f64> = (0..at_least.len())
        .map(|k| (at_least[k] - at_least.get(k + 1).copied().unwrap_or(0.0)).max(0.0))
        .collect();
    // Trim the tail where both are negligible.
    let shown = at_least
        .iter()
        .rposition(|p| *p >= TAIL)
        .map_or(1, |i| i + 1)
        .clamp(1, MAX_LINES);
    let mut lines = vec![format!("{:>3} {:>11} {:>11}", "k", "exactly", "at least")];
    for k in 0..shown {
        lines.push(format!(
            "{k:>3} {:>11} {:>11}",
            pct(exactly.get(k).copied().unwrap_or(0.0)),
            pct(at_least.get(k).copied().unwrap_or(0.0))
        ));
    }
    if at_least.len() > shown {
        lines.push(format!(
            "{:>3}+ at least {}",
            shown,
            pct(at_least.get(shown).copied().unwrap_or(0.0))
        ));
    }
    let bars = exactly
        .iter()
        .take(shown)
        .enumerate()
        .map(|(k, p)| Bar::new(k.to_string(), *p))
        .collect();
    let mean: f64 = at_least.iter().skip(1).sum();
    (
        title,
        params,
        vec![
            (format!("Average {unit}"), format!("**{mean:.3}**")),
            (
                format!("Chance of k {unit}"),
                format!("```\n{}\n```", lines.join("\n")),
            ),
        ],
        vec![Panel::new(
            format!("P(EXACTLY K {}) · {chart_title}", unit.to_uppercase()),
            Axis::Percent,
            unit.to_uppercase(),
            bars,
        )],
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use clap::Subcommand;

    /// Two questions of a made-up system.
    #[derive(Debug, Clone, PartialEq, Subcommand)]
    enum Toy {
        /// Heads, as a number.
        Coin {
            #[arg(long)]
            sides: u32,
        },
        /// Never answered.
        Never,
    }

    impl CliQuestion for Toy {
        fn printed(&self) -> Result<Printed, OddsError> {
            match *self {
                Toy::Coin { sides } => Printed::new(&sides, format!("sides {sides}\n")),
                Toy::Never => Err(OddsError::new("never", "-", "no answer")),
            }
        }
    }

    /// The matches of `kismet odds` for `words`, parsed with `cli`.
    fn matches(cli: CliOdds, words: &[&str]) -> clap::ArgMatches {
        let cmd = (cli.augment)(clap::Command::new("odds"));
        cmd.try_get_matches_from(std::iter::once("odds").chain(words.iter().copied()))
            .unwrap()
    }

    #[test]
    fn a_question_enum_registers_its_subcommands_and_answers_the_chosen_one() {
        let cli = CliOdds::of::<Toy>();
        assert!((cli.has)("coin") && (cli.has)("never") && !(cli.has)("dice"));
        let p = (cli.ask)(&matches(cli, &["coin", "--sides", "2"])).unwrap();
        assert_eq!(
            (p.json, p.pretty.as_str()),
            (serde_json::json!(2), "sides 2\n")
        );
        let refused = (cli.ask)(&matches(cli, &["never"])).unwrap_err();
        assert_eq!(refused, OddsError::new("never", "-", "no answer"));
        let none = (cli.ask)(&clap::ArgMatches::default()).unwrap_err();
        assert_eq!((none.param, none.value.as_str()), (Some("question"), "?"));
    }
}
