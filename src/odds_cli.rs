//! `kismet odds`: exact odds for every roll the bot offers, printed as one
//! JSON object (or a table with `--pretty`). Computed, never simulated.
//!
//! Contract (kept stable):
//! - `ve1-check --score S --target T --rank R --bonus-dice K` → `{"pass": p}`
//! - `ve2-check --score S --target T --rank R --bonus B [--autopass text|table]` → `{"pass": p}`
//! - `ve1-task --dice N --rank R [--ally-rank R]... [--ego-double-six]` → `{"at_least": [...]}`
//! - `ve2-task --dice N --rank R [--ally-rank R]... [--explode] [--ego]` → `{"at_least": [...]}`
//! - `veracity-save --unlocked U --filled F [--modifier M]` → `{"success": p}`
//! - `st --pool P --difficulty D [--threshold T] [--specialties S]` → `{"success", "failure", "botch"}`
//! - `ore --dice N` → `{"widest": [p1, …, pN]}`
//! - `roll --expression E` → `{"min", "pmf", "mean", "sd", "pass"?, …}` ([`crate::odds_roll`])

use clap::{Args, Subcommand};
use serde_json::{json, Value};
use std::process::ExitCode;

use crate::rules::venus::odds as ve;
use crate::rules::venus::Rank;
use crate::rules::{ore, storyteller, veracity};

/// The arguments of `kismet odds`.
#[derive(Debug, Args)]
pub struct OddsArgs {
    /// Print a human table instead of JSON.
    #[arg(long, global = true)]
    pub pretty: bool,
    /// The question.
    #[command(subcommand)]
    pub question: Question,
}

/// One odds question.
#[derive(Debug, Subcommand)]
pub enum Question {
    /// Venus Engine 1st Playtest check: d20 + score vs target, best of K bonus d6 when short by 1-6.
    #[command(name = "ve1-check")]
    Ve1Check {
        /// Ability score.
        #[arg(long, allow_hyphen_values = true)]
        score: i32,
        /// Target (5-29).
        #[arg(long)]
        target: i32,
        /// bronze, silver, gold or platinum.
        #[arg(long)]
        rank: Rank,
        /// Bonus factors (0-4), one d6 each.
        #[arg(long = "bonus-dice", default_value_t = 0)]
        bonus_dice: u32,
    },
    /// Venus Engine Playsheet check: d20 + score + flat bonus vs target.
    #[command(name = "ve2-check")]
    Ve2Check {
        /// Ability score.
        #[arg(long, allow_hyphen_values = true)]
        score: i32,
        /// Target (5-28).
        #[arg(long)]
        target: i32,
        /// bronze, silver, gold or platinum.
        #[arg(long)]
        rank: Rank,
        /// Flat bonus (0-8), applied when short.
        #[arg(long, default_value_t = 0)]
        bonus: u32,
        /// Automatic-pass ranges: `text` (default) or `table` (spec A-V1).
        #[arg(long, default_value = "text")]
        autopass: String,
    },
    /// Venus Engine 1st Playtest task: P(beats ≥ k).
    #[command(name = "ve1-task")]
    Ve1Task {
        /// The roller's D6.
        #[arg(long)]
        dice: u32,
        /// The roller's rank.
        #[arg(long)]
        rank: Rank,
        /// An ally's rank (one die each, up to 2).
        #[arg(long = "ally-rank")]
        ally_rank: Vec<Rank>,
        /// Ego mode (ii): every 6 strikes two beats.
        #[arg(long = "ego-double-six")]
        ego_double_six: bool,
    },
    /// Venus Engine Playsheet task: P(passes ≥ k).
    #[command(name = "ve2-task")]
    Ve2Task {
        /// The roller's D10.
        #[arg(long)]
        dice: u32,
        /// The roller's rank.
        #[arg(long)]
        rank: Rank,
        /// An ally's rank (one die each, up to 3).
        #[arg(long = "ally-rank")]
        ally_rank: Vec<Rank>,
        /// The roller's 10s explode (magic or advanced technology).
        #[arg(long)]
        explode: bool,
        /// Ego: every 10 counts as two passes.
        #[arg(long)]
        ego: bool,
    },
    /// Veracity save: d20 + modifier against an inventory whose lowest F slots are filled.
    #[command(name = "veracity-save")]
    VeracitySave {
        /// Unlocked slots (0-18).
        #[arg(long)]
        unlocked: u32,
        /// Filled slots, the lowest ones.
        #[arg(long)]
        filled: u32,
        /// Modifier (+ is harder).
        #[arg(long, default_value_t = 0, allow_hyphen_values = true)]
        modifier: i32,
    },
    /// Storyteller d10 pool: success, simple failure, botch.
    St {
        /// Dice in the pool.
        #[arg(long)]
        pool: u32,
        /// Difficulty (2-10).
        #[arg(long)]
        difficulty: u32,
        /// Successes removed first.
        #[arg(long, default_value_t = 0)]
        threshold: u32,
        /// Specialties in use (0-5): each 10 adds a bonus die per specialty.
        #[arg(long, default_value_t = 0)]
        specialties: u32,
    },
    /// Virtual Veil (ORE): distribution of the widest set.
    Ore {
        /// d10s rolled.
        #[arg(long)]
        dice: u32,
    },
    /// Any `/roll` expression: its exact distribution (and target chance).
    Roll {
        /// The expression, e.g. `4d6kh3` or `1d20+5>=15`.
        #[arg(long, allow_hyphen_values = true)]
        expression: String,
    },
}

fn bad(msg: String) -> Result<Value, String> {
    Err(msg)
}

/// Answers a question as JSON (or an error message for bad arguments).
pub fn answer(q: &Question) -> Result<Value, String> {
    match q {
        Question::Ve1Check {
            score,
            target,
            rank,
            bonus_dice,
        } => {
            if !(5..=29).contains(target) {
                return bad(format!(
                    "--target {target}: edition-1 targets run from 5 to 29"
                ));
            }
            if *bonus_dice > 4 {
                return bad(format!(
                    "--bonus-dice {bonus_dice}: at most 4 bonus factors"
                ));
            }
            if !(0..=100).contains(score) {
                return bad(format!("--score {score}: scores run from 0 to 100"));
            }
            Ok(json!({ "pass": ve::ve1_check_pass(*score, *target, *rank, *bonus_dice) }))
        }
        Question::Ve2Check {
            score,
            target,
            rank,
            bonus,
            autopass,
        } => {
            if !(5..=28).contains(target) {
                return bad(format!(
                    "--target {target}: edition-2 targets run from 5 to 28"
                ));
            }
            if *bonus > 8 {
                return bad(format!("--bonus {bonus}: the flat bonus is at most +8"));
            }
            if !(0..=100).contains(score) {
                return bad(format!("--score {score}: scores run from 0 to 100"));
            }
            let ap = match autopass.as_str() {
                "text" => ve::AutoPass::Text,
                "table" => ve::AutoPass::Table,
                other => return bad(format!("--autopass {other}: use `text` or `table`")),
            };
            Ok(json!({ "pass": ve::ve2_check_pass(*score, *target, *rank, *bonus, &ap, false) }))
        }
        Question::Ve1Task {
            dice,
            rank,
            ally_rank,
            ego_double_six,
        } => {
            if *dice > 50 {
                return bad(format!("--dice {dice}: at most 50 dice"));
            }
            if ally_rank.len() > 2 {
                return bad(format!(
                    "{} allies: edition 1 allows at most 2",
                    ally_rank.len()
                ));
            }
            Ok(
                json!({ "at_least": ve::ve1_task_at_least(*dice, *rank, ally_rank, *ego_double_six) }),
            )
        }
        Question::Ve2Task {
            dice,
            rank,
            ally_rank,
            explode,
            ego,
        } => {
            if *dice > 50 {
                return bad(format!("--dice {dice}: at most 50 dice"));
            }
            if ally_rank.len() > 3 {
                return bad(format!(
                    "{} allies: edition 2 allows at most 3",
                    ally_rank.len()
                ));
            }
            Ok(
                json!({ "at_least": ve::ve2_task_at_least(*dice, *rank, ally_rank, *explode, false, *ego) }),
            )
        }
        Question::VeracitySave {
            unlocked,
            filled,
            modifier,
        } => {
            if *unlocked > 18 {
                return bad(format!(
                    "--unlocked {unlocked}: an inventory has at most 18 slots"
                ));
            }
            if filled > unlocked {
                return bad(format!(
                    "--filled {filled}: more than the {unlocked} unlocked slots"
                ));
            }
            if !(-100..=100).contains(modifier) {
                return bad(format!("--modifier {modifier}: use -100 to 100"));
            }
            Ok(json!({ "success": veracity::save::save_success(*unlocked, *filled, *modifier) }))
        }
        Question::St {
            pool,
            difficulty,
            threshold,
            specialties,
        } => {
            if *pool > 50 {
                return bad(format!("--pool {pool}: at most 50 dice"));
            }
            if !(2..=10).contains(difficulty) {
                return bad(format!(
                    "--difficulty {difficulty}: difficulties run from 2 to 10"
                ));
            }
            if *specialties > 5 {
                return bad(format!("--specialties {specialties}: at most 5"));
            }
            if *threshold > 50 {
                return bad(format!("--threshold {threshold}: at most 50"));
            }
            let o = storyteller::roll_odds(*pool, *difficulty, *threshold, *specialties);
            Ok(json!({ "success": o.success, "failure": o.failure, "botch": o.botch }))
        }
        Question::Ore { dice } => {
            if *dice == 0 {
                return bad("--dice 0: roll at least one die".into());
            }
            let pmf =
                ore::odds::try_widest_pmf(*dice).map_err(|e| format!("--dice {dice}: {e}"))?;
            Ok(json!({ "widest": pmf }))
        }
        Question::Roll { expression } => crate::odds_roll::answer(expression),
    }
}

/// A human table of an answer.
pub fn pretty(v: &Value) -> String {
    let mut out = String::new();
    if let Some(obj) = v.as_object() {
        for (k, val) in obj {
            match val {
                Value::Array(items) => {
                    let label = match k.as_str() {
                        "widest" => "width",
                        "pmf" => "total",
                        _ => "k",
                    };
                    let first = v.get("min").and_then(Value::as_i64).unwrap_or(0);
                    out.push_str(&format!("{k}:\n"));
                    for (i, p) in items.iter().enumerate() {
                        let p = p.as_f64().unwrap_or(0.0);
                        let n = match k.as_str() {
                            "widest" => i as i64 + 1,
                            "pmf" => first + i as i64,
                            _ => i as i64,
                        };
                        out.push_str(&format!(
                            "  {label} {n:>3}  {:>9.4}%  {}\n",
                            p * 100.0,
                            bar(p)
                        ));
                    }
                }
                // `roll`'s facts that are not probabilities.
                Value::String(text) => out.push_str(&format!("{k:<8} {text}\n")),
                other if matches!(k.as_str(), "min" | "mean" | "sd" | "repeat" | "tail") => {
                    out.push_str(&format!("{k:<8} {other}\n"))
                }
                other => {
                    let p = other.as_f64().unwrap_or(0.0);
                    out.push_str(&format!("{k:<8} {:>9.4}%  {}\n", p * 100.0, bar(p)));
                }
            }
        }
    }
    out
}

fn bar(p: f64) -> String {
    "█".repeat((p.clamp(0.0, 1.0) * 40.0).round() as usize)
}

/// Runs `kismet odds`: prints the answer, or exits 2 with a message.
pub fn run(args: &OddsArgs) -> ExitCode {
    match answer(&args.question) {
        Ok(v) => {
            if args.pretty {
                print!("{}", pretty(&v));
            } else {
                println!("{v}");
            }
            ExitCode::SUCCESS
        }
        Err(e) => {
            eprintln!("kismet odds: {e}");
            ExitCode::from(2)
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn st_example_from_the_issue() {
        let v = answer(&Question::St {
            pool: 5,
            difficulty: 6,
            threshold: 2,
            specialties: 0,
        })
        .unwrap();
        let s = v["success"].as_f64().unwrap();
        assert!((s - 0.3875).abs() < 5e-5, "{s}");
    }

    #[test]
    fn ore_six_dice_matches_the_004_row() {
        let v = answer(&Question::Ore { dice: 6 }).unwrap();
        let w: Vec<f64> = v["widest"]
            .as_array()
            .unwrap()
            .iter()
            .map(|x| x.as_f64().unwrap())
            .collect();
        assert_eq!(w.len(), 6);
        // No set: 10·9·8·7·6·5 / 10^6.
        assert!((w[0] - 0.1512).abs() < 1e-12);
        assert!((w.iter().sum::<f64>() - 1.0).abs() < 1e-12);
    }

    #[test]
    fn bad_arguments_are_refused_with_reasons() {
        let e = answer(&Question::VeracitySave {
            unlocked: 19,
            filled: 0,
            modifier: 0,
        })
        .unwrap_err();
        assert!(e.contains("18"));
        let e = answer(&Question::St {
            pool: 5,
            difficulty: 11,
            threshold: 0,
            specialties: 0,
        })
        .unwrap_err();
        assert!(e.contains("2 to 10"));
    }
}
