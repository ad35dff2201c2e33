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
//! - `roll --expression E` → `{"expression", "repeat", "min", "pmf", "mean", "sd", "tail"}` (+ `"pass"` with a target)
//!
//! The questions are the registered systems' ([`crate::systems::odds_questions`]:
//! each system's `odds.rs` declares its own and answers them with its rules
//! core's typed answers, which `/odds` uses too); this module only collects
//! them into one clap command, dispatches and prints.

use clap::{ArgMatches, Args, FromArgMatches, Subcommand};
use std::process::ExitCode;

use crate::rules::odds::OddsError;
use crate::systems::odds_questions;
use crate::systems::platform::odds::Printed;

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

/// One odds question: the matches of `kismet odds`, naming the chosen
/// question's subcommand (one of a registered system's).
#[derive(Debug, Clone)]
pub struct Question {
    name: String,
    matches: ArgMatches,
}

impl FromArgMatches for Question {
    fn from_arg_matches(m: &ArgMatches) -> Result<Self, clap::Error> {
        let (name, _) = m
            .subcommand()
            .ok_or_else(|| clap::Error::new(clap::error::ErrorKind::MissingSubcommand))?;
        Ok(Self {
            name: name.to_string(),
            matches: m.clone(),
        })
    }

    fn update_from_arg_matches(&mut self, m: &ArgMatches) -> Result<(), clap::Error> {
        *self = Self::from_arg_matches(m)?;
        Ok(())
    }
}

impl Subcommand for Question {
    fn augment_subcommands(cmd: clap::Command) -> clap::Command {
        odds_questions()
            .into_iter()
            .fold(cmd, |cmd, q| (q.augment)(cmd))
    }

    fn augment_subcommands_for_update(cmd: clap::Command) -> clap::Command {
        Self::augment_subcommands(cmd)
    }

    fn has_subcommand(name: &str) -> bool {
        odds_questions().iter().any(|q| (q.has)(name))
    }
}

impl Question {
    /// The question's name (`st`, `ve1-check`, …).
    pub fn name(&self) -> &str {
        &self.name
    }
}

/// Answers a question with its system's typed answer, or says why not.
pub fn ask(q: &Question) -> Result<Printed, OddsError> {
    let system = odds_questions()
        .into_iter()
        .find(|s| (s.has)(&q.name))
        .ok_or_else(|| OddsError::new("question", &q.name, "not a question I know"))?;
    (system.ask)(&q.matches)
}

/// Parses `kismet odds` arguments (without the program and `odds` words),
/// e.g. `["st", "--pool", "5", "--difficulty", "6"]`.
pub fn parse<I, T>(args: I) -> Result<OddsArgs, clap::Error>
where
    I: IntoIterator<Item = T>,
    T: Into<std::ffi::OsString> + Clone,
{
    let cmd = OddsArgs::augment_args(clap::Command::new("odds"));
    let words =
        std::iter::once(std::ffi::OsString::from("odds")).chain(args.into_iter().map(Into::into));
    let m = cmd.try_get_matches_from(words)?;
    OddsArgs::from_arg_matches(&m)
}

/// Answers a question as JSON (or an error message for bad arguments).
pub fn answer(q: &Question) -> Result<serde_json::Value, String> {
    ask(q).map(|p| p.json).map_err(|e| e.cli())
}

/// Runs `kismet odds`: prints the answer, or exits 2 with a message.
pub fn run(args: &OddsArgs) -> ExitCode {
    let printed = ask(&args.question).map_err(|e| e.cli()).map(|p| {
        if args.pretty {
            p.pretty
        } else {
            format!("{}\n", p.json)
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

    fn json(args: &[&str]) -> Result<serde_json::Value, String> {
        answer(&parse(args).expect("parses").question)
    }

    fn pretty(args: &[&str]) -> String {
        ask(&parse(args).unwrap().question).unwrap().pretty
    }

    #[test]
    fn st_example_from_the_issue() {
        let v = json(&["st", "--pool", "5", "--difficulty", "6", "--threshold", "2"]).unwrap();
        let s = v["success"].as_f64().unwrap();
        assert!((s - 0.3875).abs() < 5e-5, "{s}");
    }

    #[test]
    fn ore_six_dice_matches_the_004_row() {
        let v = json(&["ore", "--dice", "6"]).unwrap();
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
        let args = ["st", "--pool", "5", "--difficulty", "6"];
        let table = pretty(&args);
        let keys: Vec<&str> = table
            .lines()
            .map(|l| l.split_whitespace().next().unwrap_or(""))
            .collect();
        assert_eq!(keys, ["botch", "failure", "success"]);
        let json = json(&args).unwrap();
        let json_keys: Vec<&String> = json.as_object().unwrap().keys().collect();
        assert_eq!(json_keys, ["botch", "failure", "success"]);
        assert_eq!(
            pretty(&["ore", "--dice", "2"]),
            format!(
                "widest:\n  width   1    90.0000%  {}\n  width   2    10.0000%  {}\n",
                "█".repeat(36),
                "█".repeat(4)
            )
        );
    }

    #[test]
    fn bad_arguments_are_refused_with_reasons() {
        let e = json(&["veracity-save", "--unlocked", "19", "--filled", "0"]).unwrap_err();
        assert!(e.contains("18"), "{e}");
        let e = json(&["st", "--pool", "5", "--difficulty", "11"]).unwrap_err();
        assert!(e.contains("2 to 10"), "{e}");
        let e = json(&[
            "ve2-check",
            "--score",
            "5",
            "--target",
            "20",
            "--rank",
            "gold",
            "--autopass",
            "x",
        ])
        .unwrap_err();
        assert!(e.starts_with("--autopass x"), "{e}");
        assert!(parse(["no-such-question"]).is_err());
    }

    /// Issue 29 item 20: refused from the estimate, before anything is
    /// built, with the limit named.
    #[test]
    fn a_huge_roll_expression_is_refused_naming_the_limit() {
        let e = json(&["roll", "--expression", "11d1000*11d1000"]).unwrap_err();
        assert_eq!(
            e,
            "--expression 11d1000*11d1000: That expression is too large to compute exactly: \
             it would take 121000000 steps, and the limit is 100000000. \
             Try fewer dice, fewer sides or smaller numbers."
        );
    }

    /// Each registered system's questions are subcommands of `kismet odds`,
    /// each name once and answered by the system that declares it.
    #[test]
    fn every_registered_question_is_offered_once() {
        let cmd = OddsArgs::augment_args(clap::Command::new("odds"));
        let mut names: Vec<&str> = cmd.get_subcommands().map(|c| c.get_name()).collect();
        names.sort_unstable();
        let mut expected = Vec::new();
        for q in odds_questions() {
            let own = (q.augment)(clap::Command::new("odds"));
            for c in own.get_subcommands() {
                assert!(
                    (q.has)(c.get_name()),
                    "{} is not its system's",
                    c.get_name()
                );
                let others = odds_questions()
                    .iter()
                    .filter(|o| (o.has)(c.get_name()))
                    .count();
                assert_eq!(others, 1, "{} is claimed {others} times", c.get_name());
                expected.push(c.get_name().to_string());
            }
        }
        expected.sort_unstable();
        assert!(!expected.is_empty());
        assert_eq!(names, expected);
        assert!(names.windows(2).all(|w| w[0] != w[1]), "{names:?}");
    }
}
