//! The generic dice roller: `/roll 3d6+2` with a Reroll button.
//!
//! Parse, roll, store the session, answer with an embed; a Reroll click by
//! the roller (or the FC) throws the same expression again in place.

pub mod buttons;
pub mod commands;
mod legacy;
pub mod named;
pub mod odds;
pub mod reroll;
pub mod system;
pub mod view;

use serde::{Deserialize, Serialize};

use crate::app::component::{Action, Click};
use crate::app::view::{Button, Style, View};
use crate::app::Act;
use crate::app::{rights, sessions, App, AppError, AppResult, Caller, Response};
use crate::rules::expr::{self, Caps, Expr, Roll};
use crate::storage::sessions::Status;
use crate::storage::{self, log::LogEntry, sessions::Session, Tx};
use buttons::DiceButton;

/// The session kind (custom_id prefix) of generic rolls.
pub const KIND: &str = "roll";

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
    let now = storage::now_ms();
    let mut tx = Act::begin(app, caller).await?;
    let id = sessions::create(&mut tx, caller, KIND, &state, None).await?;
    log(&mut tx, caller, id, "roll", &state, now).await?;
    tx.commit().await?;
    Ok(Response::message(
        view(id, 0, Status::Open, &state).opened_by(caller),
    ))
}

/// A click on a generic roll's button: who may press, then the button.
pub async fn click(app: &App, mut tx: Act, session: Session, click: &Click<'_>) -> AppResult {
    let caller = click.caller;
    if caller.user_id != session.owner_id && !rights::is_fc(&mut tx, caller).await? {
        let state = load(&session.state)?;
        return Err(AppError::user(format!(
            "Only {} (or the FC) can reroll this.",
            state.roller
        )));
    }
    match DiceButton::read(&click.id.action, click.id.arg.as_deref())? {
        DiceButton::Reroll => reroll::apply(app, tx, session, caller).await,
    }
}

/// The message of a stored generic roll.
pub fn render(_app: &App, session: &Session, _caller: &Caller) -> Result<View, AppError> {
    let state = load(&session.state)?;
    Ok(view(session.id, session.version, session.status, &state))
}

async fn log(
    tx: &mut Tx,
    caller: &Caller,
    session: i64,
    action: &str,
    state: &DiceState,
    now: i64,
) -> Result<(), AppError> {
    let entry = LogEntry {
        guild_id: caller.guild_id,
        channel_id: caller.channel_id,
        user_id: caller.user_id,
        session_id: Some(session),
        system: "generic".into(),
        action: action.into(),
        secret: caller.secret,
        inputs: serde_json::json!({ "expression": state.expression }).to_string(),
        dice: serde_json::to_string(&state.roll.results)?,
        outcome: outcome(&state.roll).to_string(),
        created_at: now,
        ..LogEntry::default()
    };
    let log_id = crate::app::log::append(tx, caller, &entry).await?;
    crate::app::log::record_faces(tx, log_id, &thrown(&state.roll)).await
}

/// The logged outcome: the total (the first result's), every total of a
/// repeat, and pass/fail against a target.
fn outcome(roll: &Roll) -> serde_json::Value {
    let total = roll.results.first().map_or(0, |o| o.total);
    let mut v = serde_json::json!({ "total": total });
    if roll.results.len() > 1 {
        v["totals"] = roll.results.iter().map(|o| o.total).collect();
    }
    if let Some(pass) = roll.results.first().and_then(|o| o.pass) {
        v["pass"] = pass.into();
        if roll.results.len() > 1 {
            v["passes"] = roll
                .results
                .iter()
                .filter(|o| o.pass == Some(true))
                .count()
                .into();
        }
    }
    v
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
