//! Virtual Veil's odds question: `/vv odds ore` and `kismet odds ore`, how
//! wide the widest matching set of a roll will be, answered with the rules
//! core's typed answer ([`crate::rules::ore::odds::WidestQuestion`]).

use clap::Subcommand;

use crate::app::view::View;
use crate::kit::{Context, Error};
use crate::rules::odds::OddsError;
use crate::rules::ore::odds::{WidestOdds, WidestQuestion};
use crate::systems::platform::chart::{Axis, Bar, Panel, Tone};
use crate::systems::platform::odds::{
    render, reply, series, width_name, CliOdds, CliQuestion, Odds, Printed, MAX_LINES,
};
use crate::systems::platform::text::pct;

/// Virtual Veil's question.
#[derive(Debug, Clone, PartialEq, Subcommand)]
pub enum Question {
    /// Virtual Veil (ORE): distribution of the widest set.
    Ore {
        /// d10s rolled.
        #[arg(long)]
        dice: u32,
    },
}

/// What Virtual Veil registers for odds.
pub fn odds() -> Odds {
    Odds {
        slash: || vec![odds_ore()],
        cli: CliOdds::of::<Question>(),
    }
}

fn answer(q: &Question) -> Result<WidestOdds, OddsError> {
    let Question::Ore { dice } = *q;
    WidestQuestion { dice }.answer()
}

impl CliQuestion for Question {
    /// The typed answer as `kismet odds` prints it.
    fn printed(&self) -> Result<Printed, OddsError> {
        let a = answer(self)?;
        let mut out = String::new();
        series(&mut out, "widest", "width", 1, &a.widest);
        Printed::new(&a, out)
    }
}

/// The `/odds` view of the question.
pub fn view(q: &Question) -> Result<View, OddsError> {
    let pmf = answer(q)?.widest;
    let Question::Ore { dice } = *q;
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
            .toned(if i == 0 { Tone::Failure } else { Tone::Success })
        })
        .collect();
    Ok(render((
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
            "WIDTH OF THE WIDEST SET",
            bars,
        )],
    )))
}

/// Virtual Veil (One-Roll Engine): how wide the widest set will be.
#[poise::command(slash_command, guild_only, rename = "ore")]
pub async fn odds_ore(
    ctx: Context<'_>,
    #[description = "d10s rolled (1-30)"]
    #[min = 1]
    #[max = 30]
    dice: u32,
) -> Result<(), Error> {
    reply(ctx, move || view(&Question::Ore { dice })).await
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn thirty_dice_fit_the_limits_and_read_the_004_row() {
        let v = view(&Question::Ore { dice: 30 }).unwrap();
        assert_eq!(v.clone().clamp(), v);
        let six = Question::Ore { dice: 6 }.printed().unwrap();
        assert!((six.json["widest"][0].as_f64().unwrap() - 0.1512).abs() < 1e-12);
    }
}
