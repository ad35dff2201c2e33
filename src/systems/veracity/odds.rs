//! Veracity's odds question: `/vr odds veracity-save` and `kismet odds
//! veracity-save`, answered with the rules core's typed answer
//! ([`crate::rules::veracity::save::SaveQuestion`]).

use clap::Subcommand;

use crate::app::view::View;
use crate::kit::{Context, Error};
use crate::rules::odds::OddsError;
use crate::rules::veracity::save::{save_success, SaveOdds, SaveQuestion};
use crate::systems::platform::chart::{Axis, Panel};
use crate::systems::platform::odds::{
    render, reply, scalar, signed_d20, sweep, CliOdds, CliQuestion, Odds, Printed,
};
use crate::systems::platform::text::pct;

/// Veracity's question.
#[derive(Debug, Clone, PartialEq, Subcommand)]
pub enum Question {
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
}

/// What Veracity registers for odds.
pub fn odds() -> Odds {
    Odds {
        slash: || vec![odds_veracity_save()],
        cli: CliOdds::of::<Question>(),
    }
}

fn answer(q: &Question) -> Result<SaveOdds, OddsError> {
    let Question::VeracitySave {
        unlocked,
        filled,
        modifier,
    } = q;
    SaveQuestion {
        unlocked: *unlocked,
        filled: *filled,
        modifier: *modifier,
    }
    .answer()
}

impl CliQuestion for Question {
    /// The typed answer as `kismet odds` prints it.
    fn printed(&self) -> Result<Printed, OddsError> {
        let a = answer(self)?;
        let mut out = String::new();
        scalar(&mut out, "success", a.success);
        Printed::new(&a, out)
    }
}

/// The `/odds` view of the question.
pub fn view(q: &Question) -> Result<View, OddsError> {
    let p = answer(q)?.success;
    let Question::VeracitySave {
        unlocked,
        filled,
        modifier,
    } = *q;
    let lo = (modifier - 10).max(-100);
    let hi = (lo + 20).min(100);
    let sweep = sweep((lo..=hi).map(|m| {
        (
            format!("{m:+}"),
            save_success(unlocked, filled, m),
            m == modifier,
        )
    }));
    Ok(render((
        "Veracity save",
        format!("{} against an inventory of {unlocked} unlocked slots, the lowest {filled} filled (≤ 0 succeeds, ≥ 19 fails, else the slot must be unlocked and empty)", signed_d20(modifier)),
        vec![("Success".to_string(), format!("**{}**", pct(p))), ("Failure".into(), pct(1.0 - p))],
        vec![Panel::new(format!("P(SUCCESS) BY MODIFIER · {unlocked} SLOTS {filled} FILLED"), Axis::Percent, "MODIFIER", sweep)],
    )))
}

/// Veracity save: d20 + modifier against an inventory.
#[poise::command(slash_command, guild_only, rename = "veracity-save")]
pub async fn odds_veracity_save(
    ctx: Context<'_>,
    #[description = "Unlocked slots (0-18)"]
    #[min = 0]
    #[max = 18]
    unlocked: u32,
    #[description = "Filled slots (the lowest ones)"]
    #[min = 0]
    #[max = 18]
    filled: u32,
    #[description = "Modifier (+ is harder, a tool is -5)"]
    #[min = -100]
    #[max = 100]
    modifier: Option<i32>,
) -> Result<(), Error> {
    let q = Question::VeracitySave {
        unlocked,
        filled,
        modifier: modifier.unwrap_or(0),
    };
    reply(ctx, move || view(&q)).await
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::systems::platform::odds::refuse;

    #[test]
    fn bad_parameters_are_refused_in_slash_terms() {
        let e = refuse(
            view(&Question::VeracitySave {
                unlocked: 4,
                filled: 5,
                modifier: 0,
            })
            .unwrap_err(),
        );
        assert!(
            e.user_message().contains("filled 5"),
            "{}",
            e.user_message()
        );
        assert!(!e.user_message().contains("--"));
    }

    #[test]
    fn a_save_answers_with_its_success_and_a_sweep() {
        let v = view(&Question::VeracitySave {
            unlocked: 8,
            filled: 4,
            modifier: -5,
        })
        .unwrap();
        assert_eq!(v.embeds[0].fields[0].name, "Success");
        assert_eq!(v.files.len(), 1);
    }
}
