//! The generic dice roller: `/roll 3d6+2` with a Reroll button, and the
//! saved rolls' `/rolls` card ([`named`]).
//!
//! Parse, roll, and hand the outcome (the session, its typed log record,
//! [`record`]) to the action pipeline, which saves, logs and answers with
//! an embed; a Reroll click by the roller (or the FC) throws the same
//! expression again in place.

pub mod buttons;
pub mod commands;
pub mod help;
mod legacy;
pub mod named;
pub mod odds;
pub mod record;
pub mod reroll;
pub mod view;

use serde::{Deserialize, Serialize};

use crate::app::component::{Action, Click};
use crate::app::pipeline::{self, Outcome, Record, Scope, Turn};
use crate::app::registry::HelpTopic;
use crate::app::view::{Button, Style, View};
use crate::app::Act;
use crate::app::{App, AppError, AppResult, Caller, Response};
use crate::rules::expr::{self, Caps, Expr, Roll};
use crate::storage::log::LogEntry;
use crate::storage::sessions::Session;
use crate::storage::sessions::Status;
use crate::systems::game::{Feature, NoGame};
use crate::systems::platform::odds::Odds;
use crate::systems::Command;
use buttons::DiceButton;

/// The session kind (custom_id prefix) of generic rolls.
pub const KIND: &str = "roll";

/// The roll log's system name of generic rolls.
pub const LOG_SYSTEM: &str = "generic";

/// Generic dice as the action pipeline's scope: no house rules, no
/// sheets, and rolls that show no number.
pub struct Dice;

impl Scope for Dice {
    const ID: &'static str = LOG_SYSTEM;
    const HINT: &'static str = "generic rolls need no character.";
    const NUMBERED: bool = false;
    type Settings = ();
    type Sheet = serde_json::Value;
}

/// What a generic roll keeps between clicks.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub(crate) struct DiceState {
    /// Who rolled (display name).
    roller: String,
    /// The expression in canonical notation (parsed again to reroll).
    expression: String,
    /// The latest throw.
    roll: Roll,
    /// How many times it was rerolled.
    rerolls: u32,
}

/// A stored state: today's, or one written before the full notation.
#[derive(Deserialize)]
#[serde(untagged)]
enum Stored {
    Now(DiceState),
    Legacy(legacy::LegacyState),
}

/// Reads a stored generic roll, whichever Kismet wrote it.
fn load(json: &str) -> Result<DiceState, AppError> {
    Ok(match serde_json::from_str::<Stored>(json)? {
        Stored::Now(s) => s,
        Stored::Legacy(old) => {
            let (roller, expression, roll, rerolls) = old.upgrade();
            DiceState {
                roller,
                expression,
                roll,
                rerolls,
            }
        }
    })
}

/// The caps of this bot's configuration.
pub fn caps(app: &App) -> Caps {
    let l = &app.config.limits;
    Caps {
        max_len: l.max_expression_len,
        max_dice: l.max_dice,
        max_sides: l.max_sides,
    }
}

/// Throws a parsed expression with the bot's generator.
fn throw(app: &App, expr: &Expr) -> Result<Roll, AppError> {
    Ok(expr.roll(&mut app.rng.fork())?)
}

/// `/roll expression`: throws the dice and posts the result with a Reroll
/// button.
pub async fn roll(app: &App, caller: &Caller, expression: &str) -> AppResult {
    let expr = expr::parse(expression, caps(app))?;
    let roll = throw(app, &expr)?;
    let state = DiceState {
        roller: caller.name.clone(),
        expression: expr.to_string(),
        roll,
        rerolls: 0,
    };
    let (opener, shown) = (caller.clone(), state.clone());
    let out = Outcome::new(move |s| {
        Response::message(view(s.id, s.version, Status::Open, &shown).opened_by(&opener))
    })
    .start(KIND, &state, Status::Open, None)
    .log(record("roll", &state));
    pipeline::apply::<Dice>(app, caller, out).await
}

/// Generic dice as a registered feature: `/roll`, its Reroll sessions and
/// its help (not a game: no channel plays it).
pub struct DiceSystem;

impl Feature for DiceSystem {
    const ID: &'static str = "roll";
    const NAME: &'static str = "Dice";
    const ALIASES: &'static [&'static str] = &["generic", "generic dice"];
    const ROOT: Option<&'static str> = Some("roll");
    const KINDS: &'static [&'static str] = &[KIND, named::KIND];
    const HELP: &'static [HelpTopic] = help::TOPICS;
    const COMMANDS: fn() -> Vec<Command> = commands::all;
    const ODDS: Option<fn() -> Odds> = Some(odds::odds);
    const HISTORY_LINE: fn(&LogEntry) -> Option<String> = view::history_line;
    type Game = NoGame;

    /// A click on a generic roll's button: who may press, then the button.
    async fn click(app: &App, act: Act, session: Session, click: &Click<'_>) -> AppResult {
        if session.kind == named::KIND {
            return named::click(app, act, session, click).await;
        }
        let caller = click.caller;
        let turn = Turn::<Dice>::click(app, act, caller).await?;
        if caller.user_id != session.owner_id && !turn.fc {
            let state = load(&session.state)?;
            return Err(AppError::user(format!(
                "Only {} (or the FC) can reroll this.",
                crate::app::view::escape(&state.roller)
            )));
        }
        match click.action::<DiceButton>()? {
            DiceButton::Reroll => reroll::apply(app, turn, session).await,
        }
    }

    /// The message of a stored generic roll.
    async fn render(app: &App, session: &Session, _caller: &Caller) -> Result<View, AppError> {
        if session.kind == named::KIND {
            return named::render(app, session).await;
        }
        let state = load(&session.state)?;
        Ok(view(session.id, session.version, session.status, &state))
    }
}

/// The log entry of a throw of `state` (`action`: `roll` or `reroll`),
/// on the session the outcome writes.
fn record(action: &str, state: &DiceState) -> Record {
    let asked = record::Asked {
        expression: state.expression.clone(),
    };
    Record::new(action, &asked, &record::Rolled::of(&state.roll))
        .dice(&state.roll.results, thrown(&state.roll))
        .on_session()
}

/// Every die thrown (rerolled faces too), as (sides, face), for the
/// fairness record.
fn thrown(roll: &Roll) -> Vec<(u32, u32)> {
    let mut out = Vec::new();
    for d in roll
        .results
        .iter()
        .flat_map(|o| &o.parts)
        .flat_map(|p| &p.dice)
    {
        for f in &d.faces {
            out.extend(f.rerolled.iter().map(|r| (d.sides, *r)));
            out.push((d.sides, f.value));
        }
    }
    out
}

fn view(id: i64, version: i64, status: Status, state: &DiceState) -> View {
    let embed = view::embed(&state.roller, &state.expression, &state.roll, state.rerolls);
    let mut button = Button::new(
        DiceButton::Reroll.button(KIND, id, version).encode(),
        "Reroll",
        Style::Primary,
    );
    if status != Status::Open {
        button = button.disabled();
    }
    View::embed(embed).buttons(vec![button])
}
