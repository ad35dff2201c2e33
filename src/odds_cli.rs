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
//!
//! The numbers are the rules cores' typed answers ([`ask`]), which `/odds`
//! uses directly too; this module only parses the arguments and prints.

use clap::{Args, Subcommand};
use serde::Serialize;
use serde_json::Value;
use std::process::ExitCode;

use crate::rules::odds::OddsError;
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
}

/// A typed answer of the rules cores, as `kismet odds` prints it (its JSON
/// is the answer's fields: `{"pass": p}`, `{"at_least": [...]}`, …).
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(untagged)]
pub enum Answer {
    /// `ve1-check`, `ve2-check`.
    Check(ve::CheckOdds),
    /// `ve1-task`, `ve2-task`.
    Task(ve::TaskOdds),
    /// `veracity-save`.
    Save(veracity::save::SaveOdds),
    /// `st`.
    St(storyteller::Outcome3),
    /// `ore`.
    Widest(ore::odds::WidestOdds),
}

/// `--autopass text|table`.
pub fn autopass(word: &str) -> Result<ve::AutoPass, OddsError> {
    match word {
        "text" => Ok(ve::AutoPass::Text),
        "table" => Ok(ve::AutoPass::Table),
        other => Err(OddsError::new("autopass", other, "use `text` or `table`")),
    }
}

/// The rules core's question for `ve2-check` (numbers checked before the
/// `--autopass` word).
pub fn ve2_check(
    score: i32,
    target: i32,
    rank: Rank,
    bonus: u32,
    autopass_word: &str,
) -> Result<ve::Ve2CheckQuestion, OddsError> {
    let q = |autopass| ve::Ve2CheckQuestion {
        score,
        target,
        rank,
        bonus,
        autopass,
    };
    match autopass(autopass_word) {
        Ok(ap) => Ok(q(ap)),
        Err(e) => {
            q(ve::AutoPass::Text).answer()?;
            Err(e)
        }
    }
}

/// Answers a question with the rules core's typed answer (Storyteller
/// questions under the default bonus-dice rule), or says why not.
pub fn ask(q: &Question) -> Result<Answer, OddsError> {
    Ok(match q {
        Question::Ve1Check {
            score,
            target,
            rank,
            bonus_dice,
        } => Answer::Check(
            ve::Ve1CheckQuestion {
                score: *score,
                target: *target,
                rank: *rank,
                bonus_dice: *bonus_dice,
            }
            .answer()?,
        ),
        Question::Ve2Check {
            score,
            target,
            rank,
            bonus,
            autopass,
        } => Answer::Check(ve2_check(*score, *target, *rank, *bonus, autopass)?.answer()?),
        Question::Ve1Task {
            dice,
            rank,
            ally_rank,
            ego_double_six,
        } => Answer::Task(
            ve::Ve1TaskQuestion {
                dice: *dice,
                rank: *rank,
                allies: ally_rank.clone(),
                ego_double_six: *ego_double_six,
            }
            .answer()?,
        ),
        Question::Ve2Task {
            dice,
            rank,
            ally_rank,
            explode,
            ego,
        } => Answer::Task(
            ve::Ve2TaskQuestion {
                dice: *dice,
                rank: *rank,
                allies: ally_rank.clone(),
                explode: *explode,
                ego: *ego,
            }
            .answer()?,
        ),
        Question::VeracitySave {
            unlocked,
            filled,
            modifier,
        } => Answer::Save(
            veracity::save::SaveQuestion {
                unlocked: *unlocked,
                filled: *filled,
                modifier: *modifier,
            }
            .answer()?,
        ),
        Question::St {
            pool,
            difficulty,
            threshold,
            specialties,
        } => Answer::St(
            storyteller::odds::StQuestion {
                pool: *pool,
                difficulty: *difficulty,
                threshold: *threshold,
                specialties: *specialties,
                per_ten: storyteller::BonusDicePerTen::PerSpecialty,
            }
            .answer()?,
        ),
        Question::Ore { dice } => {
            Answer::Widest(ore::odds::WidestQuestion { dice: *dice }.answer()?)
        }
    })
}

/// Answers a question as JSON (or an error message for bad arguments).
pub fn answer(q: &Question) -> Result<Value, String> {
    let a = ask(q).map_err(|e| e.cli())?;
    serde_json::to_value(a).map_err(|e| e.to_string())
}

/// A human table of an answer (`--pretty`), in the JSON's key order.
pub fn pretty(a: &Answer) -> String {
    let mut out = String::new();
    match a {
        Answer::Check(c) => scalar(&mut out, "pass", c.pass),
        Answer::Save(s) => scalar(&mut out, "success", s.success),
        Answer::St(o) => {
            scalar(&mut out, "botch", o.botch);
            scalar(&mut out, "failure", o.failure);
            scalar(&mut out, "success", o.success);
        }
        Answer::Task(t) => series(&mut out, "at_least", "k", 0, &t.at_least),
        Answer::Widest(w) => series(&mut out, "widest", "width", 1, &w.widest),
    }
    out
}

/// One line for a probability.
fn scalar(out: &mut String, key: &str, p: f64) {
    out.push_str(&format!("{key:<8} {:>9.4}%  {}\n", p * 100.0, bar(p)));
}

/// One line per element of a distribution, numbered from `first`.
fn series(out: &mut String, key: &str, label: &str, first: usize, ps: &[f64]) {
    out.push_str(&format!("{key}:\n"));
    for (i, p) in ps.iter().enumerate() {
        let n = i + first;
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

/// Runs `kismet odds`: prints the answer, or exits 2 with a message.
pub fn run(args: &OddsArgs) -> ExitCode {
    let printed = ask(&args.question).map_err(|e| e.cli()).and_then(|a| {
        if args.pretty {
            Ok(pretty(&a))
        } else {
            serde_json::to_value(a)
                .map(|v| format!("{v}\n"))
                .map_err(|e| e.to_string())
        }
    });
    match printed {
        Ok(text) => {
            print!("{text}");
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
    fn pretty_tables_follow_the_json_keys() {
        let st = ask(&Question::St {
            pool: 5,
            difficulty: 6,
            threshold: 0,
            specialties: 0,
        })
        .unwrap();
        let table = pretty(&st);
        let keys: Vec<&str> = table
            .lines()
            .map(|l| l.split_whitespace().next().unwrap_or(""))
            .collect();
        assert_eq!(keys, ["botch", "failure", "success"]);
        let json = answer(&Question::St {
            pool: 5,
            difficulty: 6,
            threshold: 0,
            specialties: 0,
        })
        .unwrap();
        let json_keys: Vec<&String> = json.as_object().unwrap().keys().collect();
        assert_eq!(json_keys, ["botch", "failure", "success"]);
        let ore = pretty(&ask(&Question::Ore { dice: 2 }).unwrap());
        assert_eq!(
            ore,
            format!(
                "widest:\n  width   1    90.0000%  {}\n  width   2    10.0000%  {}\n",
                "█".repeat(36),
                "█".repeat(4)
            )
        );
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
