//! `/odds`: exact odds for every roll the bot offers, with the same
//! parameters as the rolls. The numbers come from
//! [`crate::odds_cli::answer`] (the `kismet odds` contract); this module
//! words them and draws the distribution as a bar chart.

use serde_json::Value;

use super::chart::{self, Axis, Bar, Panel};
use super::text::pct;
use crate::app::view::{colour, Embed, File, View};
use crate::app::{settings, App, AppError, AppResult, Caller, Response};
use crate::odds_cli::{self, Question};
use crate::rules::storyteller::StorytellerSettings;
use crate::rules::venus::Rank;

/// Bars with less than this probability are trimmed from a task's tail.
const TAIL: f64 = 0.0005;
/// Most lines in a table field.
const MAX_LINES: usize = 30;

/// The answer to any question except the Storyteller one (see [`st`]).
pub fn answer(q: &Question) -> AppResult {
    if let Question::Roll { expression } = q {
        return super::odds_roll::answer(expression, crate::rules::expr::Caps::default());
    }
    let v = odds_cli::answer(q).map_err(|e| AppError::user(user_message(&e)))?;
    Ok(Response::message(view(q, &v)))
}

/// `/odds st`: the difficulty defaults to the server's Storyteller default,
/// and bonus dice per 10 follow its `st_bonus_dice_per_ten` setting.
pub async fn st(
    app: &App,
    caller: &Caller,
    pool: u32,
    difficulty: Option<u32>,
    threshold: u32,
    specialties: u32,
) -> AppResult {
    let mut tx = app.db.read().await?;
    // A server that never saved Storyteller settings (or saved a shape this
    // build cannot read) uses the rules' defaults.
    let s: StorytellerSettings = settings::scoped(&mut tx, caller.guild_id, "storyteller")
        .await
        .unwrap_or_default();
    drop(tx);
    let q = Question::St {
        pool,
        difficulty: difficulty.unwrap_or(s.st_default_difficulty),
        threshold,
        specialties,
    };
    let mut v = odds_cli::answer(&q).map_err(|e| AppError::user(user_message(&e)))?;
    if let Question::St {
        pool,
        difficulty,
        threshold,
        specialties,
    } = q
    {
        let o = crate::rules::storyteller::roll_odds_with(
            pool,
            difficulty,
            threshold,
            specialties,
            s.st_bonus_dice_per_ten,
        );
        v = serde_json::json!({ "success": o.success, "failure": o.failure, "botch": o.botch });
    }
    let mut view = view(&q, &v);
    if difficulty.is_none() {
        if let Some(e) = view.embeds.first_mut() {
            e.footer = Some(format!(
                "Difficulty {} is this server's default. {}",
                s.st_default_difficulty,
                e.footer.clone().unwrap_or_default()
            ));
        }
    }
    Ok(Response::message(view))
}

/// `--name value: reason` from the CLI contract, reworded for slash options.
fn user_message(e: &str) -> String {
    let e = e.replace("--", "").replace("bonus-dice", "bonus_dice");
    format!("I cannot compute that: {e}.")
}

fn num(v: &Value, key: &str) -> f64 {
    v.get(key).and_then(Value::as_f64).unwrap_or(0.0)
}

fn list(v: &Value, key: &str) -> Vec<f64> {
    v.get(key)
        .and_then(Value::as_array)
        .map(|a| a.iter().map(|x| x.as_f64().unwrap_or(0.0)).collect())
        .unwrap_or_default()
}

fn ranks(rs: &[Rank]) -> String {
    if rs.is_empty() {
        "none".into()
    } else {
        rs.iter().map(|r| r.name()).collect::<Vec<_>>().join(", ")
    }
}

/// The answer's view: title, parameters, numbers, chart.
fn view(q: &Question, v: &Value) -> View {
    let (title, params, fields, panels) = match q {
        Question::Ve1Check {
            score,
            target,
            rank,
            bonus_dice,
        } => {
            let p = num(v, "pass");
            let sweep = sweep((5..=29).map(|t| {
                let q = Question::Ve1Check {
                    score: *score,
                    target: t,
                    rank: *rank,
                    bonus_dice: *bonus_dice,
                };
                (t.to_string(), pass_of(&q, "pass"), t == *target)
            }));
            (
                "Venus Engine (1st Playtest) check",
                format!("d20 + score {score} against target {target} · {rank} · {bonus_dice} bonus d6 (best one added when short by 6 or less)"),
                vec![("Pass".to_string(), format!("**{}**", pct(p))), ("Fail".into(), pct(1.0 - p))],
                vec![Panel::new(format!("P(PASS) BY TARGET · SCORE {score} {rank}"), Axis::Percent, sweep)],
            )
        }
        Question::Ve2Check {
            score,
            target,
            rank,
            bonus,
            autopass,
        } => {
            let p = num(v, "pass");
            let sweep = sweep((5..=28).map(|t| {
                let q = Question::Ve2Check {
                    score: *score,
                    target: t,
                    rank: *rank,
                    bonus: *bonus,
                    autopass: autopass.clone(),
                };
                (t.to_string(), pass_of(&q, "pass"), t == *target)
            }));
            (
                "Venus Engine (Playsheet) check",
                format!(
                    "d20 + score {score} against target {target} · {rank} · flat bonus +{bonus} when short · automatic passes: {}",
                    if autopass == "table" { "the Playsheet table's ranges" } else { "the procedure text's ranges" }
                ),
                vec![("Pass".to_string(), format!("**{}**", pct(p))), ("Fail".into(), pct(1.0 - p))],
                vec![Panel::new(format!("P(PASS) BY TARGET · SCORE {score} {rank}"), Axis::Percent, sweep)],
            )
        }
        Question::Ve1Task {
            dice,
            rank,
            ally_rank,
            ego_double_six,
        } => {
            let ego = if *ego_double_six {
                " · Ego: every 6 strikes two beats"
            } else {
                ""
            };
            task(
                "Venus Engine (1st Playtest) task",
                format!("{dice}d6 at {rank} · allies: {}{ego}", ranks(ally_rank)),
                format!("{dice}D6 {rank}"),
                "beats",
                &list(v, "at_least"),
            )
        }
        Question::Ve2Task {
            dice,
            rank,
            ally_rank,
            explode,
            ego,
        } => {
            let mut extra = String::new();
            if *explode {
                extra.push_str(" · your 10s explode");
            }
            if *ego {
                extra.push_str(" · Ego: every 10 counts twice");
            }
            task(
                "Venus Engine (Playsheet) task",
                format!("{dice}d10 at {rank} · allies: {}{extra}", ranks(ally_rank)),
                format!("{dice}D10 {rank}"),
                "passes",
                &list(v, "at_least"),
            )
        }
        Question::VeracitySave {
            unlocked,
            filled,
            modifier,
        } => {
            let p = num(v, "success");
            let lo = (*modifier - 10).max(-100);
            let hi = (lo + 20).min(100);
            let sweep = sweep((lo..=hi).map(|m| {
                let q = Question::VeracitySave {
                    unlocked: *unlocked,
                    filled: *filled,
                    modifier: m,
                };
                (format!("{m:+}"), pass_of(&q, "success"), m == *modifier)
            }));
            (
                "Veracity save",
                format!("{} against an inventory of {unlocked} unlocked slots, the lowest {filled} filled (≤ 0 succeeds, ≥ 19 fails, else the slot must be unlocked and empty)", signed_d20(*modifier)),
                vec![("Success".to_string(), format!("**{}**", pct(p))), ("Failure".into(), pct(1.0 - p))],
                vec![Panel::new(format!("P(SUCCESS) BY MODIFIER · {unlocked} SLOTS {filled} FILLED"), Axis::Percent, sweep)],
            )
        }
        Question::St {
            pool,
            difficulty,
            threshold,
            specialties,
        } => {
            let (s, f, b) = (num(v, "success"), num(v, "failure"), num(v, "botch"));
            let outcomes = Panel::new(
                "OUTCOME",
                Axis::Percent,
                vec![
                    Bar::new("BOTCH", b),
                    Bar::new("FAILURE", f),
                    Bar::new("SUCCESS", s).highlighted(true),
                ],
            );
            let by_difficulty = sweep((2..=10).map(|d| {
                let q = Question::St {
                    pool: *pool,
                    difficulty: d,
                    threshold: *threshold,
                    specialties: *specialties,
                };
                (d.to_string(), pass_of(&q, "success"), d == *difficulty)
            }));
            (
                "Storyteller roll",
                format!("{pool}d10 at difficulty {difficulty} · threshold {threshold} · {specialties} specialt{} in use", if *specialties == 1 { "y" } else { "ies" }),
                vec![
                    ("Success".to_string(), format!("**{}**", pct(s))),
                    ("Simple failure".into(), pct(f)),
                    ("Botch".into(), pct(b)),
                ],
                vec![
                    outcomes,
                    Panel::new(format!("P(SUCCESS) BY DIFFICULTY · {pool} DICE"), Axis::Percent, by_difficulty),
                ],
            )
        }
        // Answered by `odds_roll` before reaching here.
        Question::Roll { .. } => return View::default(),
        Question::Ore { dice } => {
            let pmf = list(v, "widest");
            let lines: Vec<String> = pmf
                .iter()
                .enumerate()
                .take(MAX_LINES)
                .map(|(i, p)| format!("{:<8} {:>12}", width_name(i + 1), pct(*p)))
                .collect();
            let at_least_dub: f64 = pmf.iter().skip(1).sum();
            let bars = pmf
                .iter()
                .enumerate()
                .map(|(i, p)| {
                    Bar::new(
                        if i == 0 {
                            "NONE".to_string()
                        } else {
                            (i + 1).to_string()
                        },
                        *p,
                    )
                })
                .collect();
            (
                "Virtual Veil (One-Roll Engine) roll",
                format!("{dice}d10: how wide the widest matching set is"),
                vec![
                    (
                        "At least a dub".to_string(),
                        format!("**{}**", pct(at_least_dub)),
                    ),
                    (
                        "Widest set".into(),
                        format!("```\n{}\n```", lines.join("\n")),
                    ),
                ],
                vec![Panel::new(
                    format!("WIDEST SET · {dice} DICE"),
                    Axis::Percent,
                    bars,
                )],
            )
        }
    };
    let highlighted = panels.iter().any(|p| p.bars.iter().any(|b| b.highlight));
    let mut embed = Embed::new(format!("🎯 Odds · {title}"))
        .description(params)
        .colour(colour::NEUTRAL)
        .footer(if highlighted {
            "Exact figures, computed rather than simulated. The highlighted bar is the case you asked about."
        } else {
            "Exact figures, computed rather than simulated."
        });
    for (name, value) in fields {
        embed = embed.field(name, value, true);
    }
    embed.image = Some("odds.png".into());
    let mut view = View::embed(embed);
    view.files.push(File {
        name: "odds.png".into(),
        bytes: chart::render(&panels),
    });
    view
}

/// The probability under `key` for a neighbouring question (0 when the
/// neighbour is out of range).
fn pass_of(q: &Question, key: &str) -> f64 {
    odds_cli::answer(q).map_or(0.0, |v| num(&v, key))
}

fn sweep(points: impl Iterator<Item = (String, f64, bool)>) -> Vec<Bar> {
    points
        .map(|(label, p, hl)| Bar::new(label, p).highlighted(hl))
        .collect()
}

/// `d20 − 5`, `d20 + 3` or `d20`.
fn signed_d20(m: i32) -> String {
    match m {
        0 => "d20".into(),
        m if m < 0 => format!("d20 − {}", -m),
        m => format!("d20 + {m}"),
    }
}

fn width_name(w: usize) -> String {
    match w {
        1 => "no set".into(),
        2 => "dub".into(),
        3 => "trip".into(),
        4 => "quad".into(),
        5 => "quint".into(),
        n => format!("{n} wide"),
    }
}

type Parts = (&'static str, String, Vec<(String, String)>, Vec<Panel>);

/// A task's answer: P(at least k) as a table, P(exactly k) as bars.
fn task(
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
            bars,
        )],
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::app::Reply;

    fn view_of(q: Question) -> View {
        match answer(&q).unwrap().reply {
            Reply::Message(v) => v,
            other => panic!("{other:?}"),
        }
    }

    #[test]
    fn every_question_answers_with_a_chart_within_limits() {
        let qs = vec![
            Question::Ve1Check {
                score: 7,
                target: 15,
                rank: Rank::Silver,
                bonus_dice: 2,
            },
            Question::Ve2Check {
                score: 5,
                target: 20,
                rank: Rank::Gold,
                bonus: 3,
                autopass: "text".into(),
            },
            Question::Ve1Task {
                dice: 50,
                rank: Rank::Platinum,
                ally_rank: vec![Rank::Gold, Rank::Bronze],
                ego_double_six: true,
            },
            Question::Ve2Task {
                dice: 50,
                rank: Rank::Platinum,
                ally_rank: vec![Rank::Gold; 3],
                explode: true,
                ego: true,
            },
            Question::VeracitySave {
                unlocked: 8,
                filled: 4,
                modifier: -5,
            },
            Question::St {
                pool: 50,
                difficulty: 6,
                threshold: 2,
                specialties: 5,
            },
            Question::Ore { dice: 30 },
        ];
        for q in qs {
            let v = view_of(q);
            assert_eq!(v.clone().clamp(), v, "needs no clamping");
            assert_eq!(v.files.len(), 1);
            assert_eq!(v.files[0].name, "odds.png");
            assert!(chart::png::dimensions(&v.files[0].bytes).is_some());
            assert_eq!(v.embeds[0].image.as_deref(), Some("odds.png"));
            assert!(v.embeds[0]
                .fields
                .iter()
                .all(|f| f.value.chars().count() <= 1024));
        }
    }

    #[test]
    fn the_st_example_reads_38_75_percent() {
        let v = view_of(Question::St {
            pool: 5,
            difficulty: 6,
            threshold: 2,
            specialties: 0,
        });
        let s = &v.embeds[0].fields[0];
        assert_eq!(s.name, "Success");
        assert!(s.value.starts_with("**38.7"), "{}", s.value);
    }

    #[test]
    fn bad_parameters_are_refused_in_slash_terms() {
        let e = answer(&Question::VeracitySave {
            unlocked: 4,
            filled: 5,
            modifier: 0,
        })
        .unwrap_err();
        assert!(
            e.user_message().contains("filled 5"),
            "{}",
            e.user_message()
        );
        assert!(!e.user_message().contains("--"));
    }
}
