//! The Venus Engine's odds questions: one `/ve odds` (a check when given
//! a score and a target, a task when given dice, in the edition played
//! where asked, a game's own in its channels, unless named) and the same questions in `kismet odds`
//! (`ve1-check|ve2-check|ve1-task|ve2-task`), answered with the rules core's
//! typed answers ([`crate::rules::venus::odds`]) and drawn by the shared
//! `/odds` view ([`crate::systems::platform::odds`]).

use clap::Subcommand;

use crate::app::view::View;
use crate::kit::{Context, Error};
use crate::rules::odds::OddsError;
use crate::rules::venus::odds as ve;
use crate::rules::venus::{Edition, Rank};
use crate::systems::platform::chart::{Axis, Panel};
use crate::systems::platform::odds::{
    render, reply, scalar, series, sweep, task, CliOdds, CliQuestion, Odds, Parts, Printed,
};
use crate::systems::platform::text::pct;

/// The Venus Engine's questions, as `kismet odds` parses them (`/ve odds`
/// builds the rules core's [`Typed`] questions directly).
#[derive(Debug, Clone, PartialEq, Subcommand)]
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
}

/// What the Venus Engine registers for odds.
pub fn odds() -> Odds {
    Odds {
        slash: || vec![odds_ve()],
        cli: CliOdds::of::<Question>(),
    }
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

/// A question as the rules core asks it (`/ve odds` builds it directly;
/// `kismet odds` from its [`Question`]).
#[derive(Debug, Clone, PartialEq)]
pub enum Typed {
    /// An edition-1 check.
    Ve1Check(ve::Ve1CheckQuestion),
    /// An edition-2 check.
    Ve2Check(ve::Ve2CheckQuestion),
    /// An edition-1 task.
    Ve1Task(ve::Ve1TaskQuestion),
    /// An edition-2 task.
    Ve2Task(ve::Ve2TaskQuestion),
}

/// The rules core's question for `q` (a Playsheet check's numbers checked
/// before its `--autopass` word, [`ve2_check`]).
fn typed(q: &Question) -> Result<Typed, OddsError> {
    Ok(match q.clone() {
        Question::Ve1Check {
            score,
            target,
            rank,
            bonus_dice,
        } => Typed::Ve1Check(ve::Ve1CheckQuestion {
            score,
            target,
            rank,
            bonus_dice,
        }),
        Question::Ve2Check {
            score,
            target,
            rank,
            bonus,
            autopass,
        } => Typed::Ve2Check(ve2_check(score, target, rank, bonus, &autopass)?),
        Question::Ve1Task {
            dice,
            rank,
            ally_rank,
            ego_double_six,
        } => Typed::Ve1Task(ve::Ve1TaskQuestion {
            dice,
            rank,
            allies: ally_rank,
            ego_double_six,
        }),
        Question::Ve2Task {
            dice,
            rank,
            ally_rank,
            explode,
            ego,
        } => Typed::Ve2Task(ve::Ve2TaskQuestion {
            dice,
            rank,
            allies: ally_rank,
            explode,
            ego,
        }),
    })
}

impl CliQuestion for Question {
    /// The rules core's typed answer as `kismet odds` prints it.
    fn printed(&self) -> Result<Printed, OddsError> {
        let out = String::new();
        let check = |a: ve::CheckOdds, mut out: String| {
            scalar(&mut out, "pass", a.pass);
            Printed::new(&a, out)
        };
        let task = |a: ve::TaskOdds, mut out: String| {
            series(&mut out, "at_least", "k", 0, &a.at_least);
            Printed::new(&a, out)
        };
        match typed(self)? {
            Typed::Ve1Check(c) => check(c.answer()?, out),
            Typed::Ve2Check(c) => check(c.answer()?, out),
            Typed::Ve1Task(t) => task(t.answer()?, out),
            Typed::Ve2Task(t) => task(t.answer()?, out),
        }
    }
}

fn ranks(rs: &[Rank]) -> String {
    if rs.is_empty() {
        "none".into()
    } else {
        rs.iter().map(|r| r.name()).collect::<Vec<_>>().join(", ")
    }
}

/// A check's answer: P(pass), and by target from 5 to `last`.
fn check_parts(
    title: &'static str,
    (score, target, rank): (i32, i32, Rank),
    what: String,
    p: f64,
    (last, pass): (i32, impl Fn(i32) -> f64),
) -> Parts {
    let sweep = sweep((5..=last).map(|t| (t.to_string(), pass(t), t == target)));
    (
        title,
        format!("d20 + score {score} against target {target} · {rank} · {what}"),
        vec![
            ("Pass".to_string(), format!("**{}**", pct(p))),
            ("Fail".into(), pct(1.0 - p)),
        ],
        vec![Panel::new(
            format!("P(PASS) BY TARGET · SCORE {score} {rank}"),
            Axis::Percent,
            "TARGET",
            sweep,
        )],
    )
}

/// The `/odds` view of a question. The neighbours in a chart's sweep are
/// in range by construction, so they are computed with the rules'
/// unchecked functions.
pub fn view(q: &Typed) -> Result<View, OddsError> {
    let parts = match q {
        Typed::Ve1Check(c) => check_parts(
            "Venus Engine (1st Playtest) check",
            (c.score, c.target, c.rank),
            format!(
                "{} bonus d6 (best one added when short by 6 or less)",
                c.bonus_dice
            ),
            c.answer()?.pass,
            (29, |t| ve::ve1_check_pass(c.score, t, c.rank, c.bonus_dice)),
        ),
        Typed::Ve2Check(c) => check_parts(
            "Venus Engine (Playsheet) check",
            (c.score, c.target, c.rank),
            format!(
                "flat bonus +{} when short · automatic passes: {}",
                c.bonus,
                if c.autopass == ve::AutoPass::Table {
                    "the Playsheet table's ranges"
                } else {
                    "the procedure text's ranges"
                }
            ),
            c.answer()?.pass,
            (28, |t| {
                ve::ve2_check_pass(c.score, t, c.rank, c.bonus, &c.autopass, false)
            }),
        ),
        Typed::Ve1Task(t) => {
            let ego = if t.ego_double_six {
                " · Ego: every 6 strikes two beats"
            } else {
                ""
            };
            let (dice, rank) = (t.dice, t.rank);
            task(
                "Venus Engine (1st Playtest) task",
                format!("{dice}d6 at {rank} · allies: {}{ego}", ranks(&t.allies)),
                format!("{dice}D6 {rank}"),
                "beats",
                &t.answer()?.at_least,
            )
        }
        Typed::Ve2Task(t) => {
            let mut extra = String::new();
            if t.explode {
                extra.push_str(" · your 10s explode");
            }
            if t.ego {
                extra.push_str(" · Ego: every 10 counts twice");
            }
            let (dice, rank) = (t.dice, t.rank);
            task(
                "Venus Engine (Playsheet) task",
                format!("{dice}d10 at {rank} · allies: {}{extra}", ranks(&t.allies)),
                format!("{dice}D10 {rank}"),
                "passes",
                &t.answer()?.at_least,
            )
        }
    };
    Ok(render(parts))
}

/// What `/ve odds` was given, before it is read as a check or a task.
#[derive(Debug, Clone, Default)]
pub struct Asked {
    /// The edition (the one played where asked when not named).
    pub edition: Option<Edition>,
    /// The rank of the roller's ability.
    pub rank: Option<Rank>,
    /// A check's ability score.
    pub score: Option<i32>,
    /// A check's target.
    pub target: Option<i32>,
    /// A check's bonus: edition 1 bonus factors (one d6 each), edition 2 a
    /// flat bonus.
    pub bonus: Option<u32>,
    /// A task's dice.
    pub dice: Option<u32>,
    /// The allies' ranks (one die each).
    pub allies: Vec<Rank>,
    /// Ego: edition 1 double 6s, edition 2 every 10 counts twice.
    pub ego: Option<bool>,
    /// Edition 2 task: the roller's 10s explode.
    pub explode: Option<bool>,
    /// Edition 2 check: the automatic-pass ranges.
    pub autopass: Option<ve::AutoPass>,
}

/// Reads `/ve odds`'s options as one question: a check when `score` and
/// `target` are given, a task when `dice` is, in `edition` (the server's
/// unless named). Options that belong to the other kind or edition are
/// refused by name, so nothing is silently ignored.
pub fn question(a: &Asked, server: Edition) -> Result<Typed, String> {
    let edition = a.edition.unwrap_or(server);
    let rank = a.rank.ok_or("Name the rank of the ability (`rank:`).")?;
    let check = a.score.is_some() || a.target.is_some();
    match (check, a.dice) {
        (true, Some(_)) => Err(format!(
            "Give `score:` and `target:` (a check) or `dice:` (a task), not both: {}.",
            usage(edition)
        )),
        (false, None) => Err(format!("Nothing to compute: {}.", usage(edition))),
        (true, None) => check_question(a, edition, rank),
        (false, Some(dice)) => task_question(a, edition, rank, dice),
    }
}

/// Refuses `what:` when it was `given` but does not apply to the question
/// asked in `edition`.
fn not_here(what: &str, given: bool, edition: Edition) -> Result<(), String> {
    if given {
        Err(format!(
            "`{what}:` does not apply here: {}.",
            usage(edition)
        ))
    } else {
        Ok(())
    }
}

/// [`question`] for a check (`score:` and `target:` given).
fn check_question(a: &Asked, edition: Edition, rank: Rank) -> Result<Typed, String> {
    let (Some(score), Some(target)) = (a.score, a.target) else {
        return Err("A check needs both `score:` and `target:`.".into());
    };
    not_here("ally", !a.allies.is_empty(), edition)?;
    not_here("ego", a.ego.is_some(), edition)?;
    not_here("explode", a.explode.is_some(), edition)?;
    let bonus = a.bonus.unwrap_or(0);
    Ok(match edition {
        Edition::One => {
            not_here("autopass", a.autopass.is_some(), edition)?;
            if bonus > 4 {
                return Err(
                    "Edition 1: at most 4 bonus factors, one d6 each (`bonus:` 0-4).".into(),
                );
            }
            Typed::Ve1Check(ve::Ve1CheckQuestion {
                score,
                target,
                rank,
                bonus_dice: bonus,
            })
        }
        Edition::Two => Typed::Ve2Check(ve::Ve2CheckQuestion {
            score,
            target,
            rank,
            bonus,
            autopass: a.autopass.unwrap_or_default(),
        }),
    })
}

/// [`question`] for a task of `dice` dice.
fn task_question(a: &Asked, edition: Edition, rank: Rank, dice: u32) -> Result<Typed, String> {
    not_here("bonus", a.bonus.is_some(), edition)?;
    not_here("autopass", a.autopass.is_some(), edition)?;
    let ego = a.ego.unwrap_or(false);
    Ok(match edition {
        Edition::One => {
            not_here("explode", a.explode.is_some(), edition)?;
            if a.allies.len() > 2 {
                return Err("Edition 1: at most 2 allies aid a task (VE1-T3).".into());
            }
            Typed::Ve1Task(ve::Ve1TaskQuestion {
                dice,
                rank,
                allies: a.allies.clone(),
                ego_double_six: ego,
            })
        }
        Edition::Two => Typed::Ve2Task(ve::Ve2TaskQuestion {
            dice,
            rank,
            allies: a.allies.clone(),
            explode: a.explode.unwrap_or(false),
            ego,
        }),
    })
}

/// What each kind of question takes, in `edition`'s words.
fn usage(edition: Edition) -> &'static str {
    match edition {
        Edition::One => "a check takes `score:` `target:` (5-29) and `bonus:` (0-4 bonus factors); a task takes `dice:`, up to 2 allies' ranks and `ego:` (double 6s)",
        Edition::Two => "a check takes `score:` `target:` (5-28), `bonus:` (flat, 0-8) and `autopass:`; a task takes `dice:`, up to 3 allies' ranks, `explode:` and `ego:`",
    }
}

/// Exact odds of a check (score and target) or a task (dice), in the edition played here unless named
#[allow(clippy::too_many_arguments)]
#[poise::command(slash_command, guild_only, rename = "odds")]
pub async fn odds_ve(
    ctx: Context<'_>,
    #[description = "Rank of the ability"] rank: Rank,
    #[description = "Check: ability score"]
    #[min = 0]
    #[max = 100]
    score: Option<i32>,
    #[description = "Check: target (5-29 in edition 1, 5-28 in edition 2)"]
    #[min = 5]
    #[max = 29]
    target: Option<i32>,
    #[description = "Check: bonus factors, one d6 each (edition 1, 0-4); flat bonus when short (edition 2, 0-8)"]
    #[min = 0]
    #[max = 8]
    bonus: Option<u32>,
    #[description = "Task: your dice (edition 1: job level, or the score while learning; edition 2: level + score)"]
    #[min = 0]
    #[max = 50]
    dice: Option<u32>,
    #[description = "Task: first ally's rank"] ally1: Option<Rank>,
    #[description = "Task: second ally's rank"] ally2: Option<Rank>,
    #[description = "Task, edition 2: third ally's rank"] ally3: Option<Rank>,
    #[description = "Task: Ego (edition 1: every 6 strikes two beats; edition 2: every 10 counts twice)"]
    ego: Option<bool>,
    #[description = "Task, edition 2: your 10s explode (magic or advanced technology)"]
    explode: Option<bool>,
    #[description = "Check, edition 2: automatic-pass ranges (default: the procedure text)"]
    autopass: Option<ve::AutoPass>,
    #[description = "Edition (default: the one played here)"] edition: Option<Edition>,
) -> Result<(), Error> {
    let caller = crate::kit::caller_of(ctx)?;
    let server = match ctx.data().app.db.glance().await {
        Ok(mut tx) => crate::systems::venus::venus_here(&mut tx, &caller)
            .await
            .map(|s| s.ve_edition)
            .unwrap_or(Edition::One),
        Err(_) => Edition::One,
    };
    let asked = Asked {
        edition,
        rank: Some(rank),
        score,
        target,
        bonus,
        dice,
        allies: [ally1, ally2, ally3].into_iter().flatten().collect(),
        ego,
        explode,
        autopass,
    };
    match question(&asked, server) {
        Ok(q) => reply(ctx, move || view(&q)).await,
        Err(why) => crate::kit::respond(ctx, Err(crate::app::AppError::user(why))).await,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::systems::platform::chart;

    /// Every answer carries one chart and fits Discord's limits.
    pub(crate) fn fits(v: &View) {
        assert_eq!(v.clone().clamp(), *v, "needs no clamping");
        assert_eq!(v.files.len(), 1);
        assert_eq!(v.files[0].name, "odds.png");
        assert!(chart::png::dimensions(&v.files[0].bytes).is_some());
        assert_eq!(v.embeds[0].image.as_deref(), Some("odds.png"));
        assert!(v.embeds[0]
            .fields
            .iter()
            .all(|f| f.value.chars().count() <= 1024));
    }

    #[test]
    fn every_question_answers_with_a_chart_within_limits() {
        for q in [
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
        ] {
            fits(&view(&typed(&q).unwrap()).unwrap());
        }
    }

    #[test]
    fn the_view_and_the_cli_give_the_same_number() {
        let q = Question::Ve1Check {
            score: 4,
            target: 16,
            rank: Rank::Silver,
            bonus_dice: 2,
        };
        let p = q.printed().unwrap().json["pass"].as_f64().unwrap();
        let v = view(&typed(&q).unwrap()).unwrap();
        assert_eq!(v.embeds[0].fields[0].value, format!("**{}**", pct(p)));
    }
}
