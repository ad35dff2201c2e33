//! Storyteller's odds question: `/st odds st` (following the server's default
//! difficulty and bonus-dice rule) and `kismet odds st`, answered with the
//! rules core's typed answer ([`crate::rules::storyteller::odds::StQuestion`]).

use clap::Subcommand;

use crate::app::view::View;
use crate::app::{settings, App, AppResult, Caller};
use crate::kit::{caller_of, defer, respond, Context, Error};
use crate::rules::odds::OddsError;
use crate::rules::storyteller::odds::StQuestion;
use crate::rules::storyteller::{roll_odds_with, BonusDicePerTen, Outcome3, StorytellerSettings};
use crate::systems::platform::chart::{Axis, Bar, Panel, Tone};
use crate::systems::platform::odds::{
    answer, render, scalar, sweep, CliOdds, CliQuestion, Odds, Printed,
};
use crate::systems::platform::text::pct;

/// Storyteller's question.
#[derive(Debug, Clone, PartialEq, Subcommand)]
pub enum Question {
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
}

/// What Storyteller registers for odds.
pub fn odds() -> Odds {
    Odds {
        slash: || vec![odds_st()],
        cli: CliOdds::of::<Question>(),
    }
}

fn outcome(q: &Question, per_ten: BonusDicePerTen) -> Result<Outcome3, OddsError> {
    let Question::St {
        pool,
        difficulty,
        threshold,
        specialties,
    } = *q;
    StQuestion {
        pool,
        difficulty,
        threshold,
        specialties,
        per_ten,
    }
    .answer()
}

impl CliQuestion for Question {
    /// The typed answer as `kismet odds` prints it (under the default
    /// bonus-dice rule).
    fn printed(&self) -> Result<Printed, OddsError> {
        let o = outcome(self, BonusDicePerTen::PerSpecialty)?;
        let mut out = String::new();
        scalar(&mut out, "botch", o.botch);
        scalar(&mut out, "failure", o.failure);
        scalar(&mut out, "success", o.success);
        Printed::new(&o, out)
    }
}

/// The `/odds` view of the question under a bonus-dice rule.
pub fn view(q: &Question, per_ten: BonusDicePerTen) -> Result<View, OddsError> {
    let o = outcome(q, per_ten)?;
    let Question::St {
        pool,
        difficulty,
        threshold,
        specialties,
    } = *q;
    let (s, f, b) = (o.success, o.failure, o.botch);
    let outcomes = Panel::new(
        "OUTCOME",
        Axis::Percent,
        "",
        vec![
            Bar::new("BOTCH", b).toned(Tone::Failure),
            Bar::new("FAILURE", f).toned(Tone::Failure),
            Bar::new("SUCCESS", s).toned(Tone::Success),
        ],
    );
    let by_difficulty = sweep((2..=10).map(|d| {
        let o = roll_odds_with(pool, d, threshold, specialties, per_ten);
        (d.to_string(), o.success, d == difficulty)
    }));
    Ok(render((
        "Storyteller roll",
        format!("{pool}d10 at difficulty {difficulty} · threshold {threshold} · {specialties} specialt{} in use", if specialties == 1 { "y" } else { "ies" }),
        vec![
            ("Success".to_string(), format!("**{}**", pct(s))),
            ("Simple failure".into(), pct(f)),
            ("Botch".into(), pct(b)),
        ],
        vec![
            outcomes,
            Panel::new(format!("P(SUCCESS) BY DIFFICULTY · {pool} DICE"), Axis::Percent, "DIFFICULTY", by_difficulty),
        ],
    )))
}

/// `/st odds st`: the difficulty defaults to the server's Storyteller default,
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
    let s: StorytellerSettings = settings::scoped_here(&mut tx, caller, super::SYSTEM)
        .await
        .unwrap_or_default();
    drop(tx);
    let q = Question::St {
        pool,
        difficulty: difficulty.unwrap_or(s.st_default_difficulty),
        threshold,
        specialties,
    };
    let mut view = view(&q, s.st_bonus_dice_per_ten);
    if let (Ok(v), None) = (&mut view, difficulty) {
        if let Some(e) = v.embeds.first_mut() {
            e.footer = Some(format!(
                "Difficulty {} is this server's default. {}",
                s.st_default_difficulty,
                e.footer.clone().unwrap_or_default()
            ));
        }
    }
    answer(view)
}

/// Storyteller pool: success, simple failure or botch.
#[poise::command(slash_command, guild_only, rename = "st")]
pub async fn odds_st(
    ctx: Context<'_>,
    #[description = "Dice in the pool"]
    #[min = 0]
    #[max = 50]
    pool: u32,
    #[description = "Difficulty 2-10 (default: this server's)"]
    #[min = 2]
    #[max = 10]
    difficulty: Option<u32>,
    #[description = "Successes removed first"]
    #[min = 0]
    #[max = 50]
    threshold: Option<u32>,
    #[description = "Specialties in use (0-5)"]
    #[min = 0]
    #[max = 5]
    specialties: Option<u32>,
) -> Result<(), Error> {
    let caller = caller_of(ctx)?;
    defer(ctx, false).await?;
    let result = st(
        &ctx.data().app,
        &caller,
        pool,
        difficulty,
        threshold.unwrap_or(0),
        specialties.unwrap_or(0),
    )
    .await;
    respond(ctx, result).await
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_st_example_reads_38_75_percent() {
        let q = Question::St {
            pool: 5,
            difficulty: 6,
            threshold: 2,
            specialties: 0,
        };
        let v = view(&q, BonusDicePerTen::PerSpecialty).unwrap();
        let s = &v.embeds[0].fields[0];
        assert_eq!(s.name, "Success");
        assert!(s.value.starts_with("**38.7"), "{}", s.value);
        let big = Question::St {
            pool: 50,
            difficulty: 6,
            threshold: 2,
            specialties: 5,
        };
        let v = view(&big, BonusDicePerTen::PerSpecialty).unwrap();
        assert_eq!(v.clone().clamp(), v);
    }
}
