//! The generic dice roller: `/roll 3d6+2` with a Reroll button.
//!
//! Parse, roll, store the session, answer with an embed; a Reroll click by
//! the roller (or the FC) throws the same expression again in place.

pub mod system;
pub mod buttons;
pub mod commands;
pub mod reroll;

use serde::{Deserialize, Serialize};

use crate::app::component::{Action, Click};
use buttons::DiceButton;
use crate::app::view::{colour, Button, Embed, Style, View};
use crate::app::{rights, sessions, App, AppError, AppResult, Caller, Response};
use crate::rules::expr::{self, Caps, Expr, Roll, Term};
use crate::storage::{self, log::LogEntry, sessions::Session, Tx};
use crate::storage::sessions::Status;
use crate::app::Act;

/// The session kind (custom_id prefix) of generic rolls.
pub const KIND: &str = "roll";

/// Faces listed one by one up to this many per term; beyond, counts per face.
const LIST_FACES: usize = 40;

/// What a generic roll keeps between clicks.
#[derive(Debug, Clone, Serialize, Deserialize)]
struct DiceState {
    /// Who rolled (display name).
    roller: String,
    /// The parsed expression.
    expr: Expr,
    /// The latest throw.
    roll: Roll,
    /// How many times it was rerolled.
    rerolls: u32,
}

fn caps(app: &App) -> Caps {
    let l = &app.config.limits;
    Caps {
        max_len: l.max_expression_len,
        max_dice: l.max_dice,
        max_sides: l.max_sides,
    }
}

/// `/roll expression`: throws the dice and posts the result with a Reroll
/// button.
pub async fn roll(app: &App, caller: &Caller, expression: &str) -> AppResult {
    let expr = expr::parse(expression, caps(app))?;
    let roll = expr.roll(&mut app.rng.fork());
    let state = DiceState {
        roller: caller.name.clone(),
        expr,
        roll,
        rerolls: 0,
    };
    let now = storage::now_ms();
    let mut tx = Act::begin(app, caller).await?;
    let id = sessions::create(&mut tx, caller, KIND, &state, None).await?;
    log(&mut tx, caller, id, "roll", &state, now).await?;
    tx.commit().await?;
    Ok(Response::message(view(id, 0, Status::Open, &state)))
}

/// A click on a generic roll's button: who may press, then the button.
pub async fn click(app: &App, mut tx: Act, session: Session, click: &Click<'_>) -> AppResult {
    let caller = click.caller;
    if caller.user_id != session.owner_id && !rights::is_fc(&mut tx, caller).await? {
        let state: DiceState = serde_json::from_str(&session.state)?;
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
    let state: DiceState = serde_json::from_str(&session.state)?;
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
        inputs: serde_json::json!({ "expression": state.expr.notation() }).to_string(),
        dice: serde_json::to_string(&state.roll.terms)?,
        outcome: serde_json::json!({ "total": state.roll.total }).to_string(),
        created_at: now,
        ..LogEntry::default()
    };
    let log_id = storage::log::append(tx, &entry).await?;
    crate::app::log::record_faces(tx, log_id, &thrown(&state.roll)).await
}

/// Every die thrown, as (sides, face), for the fairness record.
fn thrown(roll: &Roll) -> Vec<(u32, u32)> {
    roll.terms
        .iter()
        .flat_map(|t| {
            let sides = match t.term {
                Term::Dice { sides, .. } => sides,
                Term::Constant(_) => 0,
            };
            t.faces
                .iter()
                .filter(move |_| sides > 0)
                .map(move |f| (sides, f.value))
        })
        .collect()
}

fn view(id: i64, version: i64, status: Status, state: &DiceState) -> View {
    let mut lines = Vec::new();
    for t in &state.roll.terms {
        let sign = if t.negative { "−" } else { "+" };
        let line = match &t.term {
            Term::Constant(c) => format!("{sign} {c}"),
            Term::Dice { .. } => format!(
                "{sign} **{}**: {} → **{}**",
                t.term.notation(),
                faces_text(t),
                t.value
            ),
        };
        lines.push(line);
    }
    if let Some(first) = lines.first_mut() {
        if let Some(rest) = first.strip_prefix("+ ") {
            *first = rest.to_string();
        }
    }
    let mut description = lines.join("\n");
    if state.roll.capped {
        description.push_str(&format!(
            "\n*Explosions stopped at {} dice.*",
            expr::MAX_GENERATED_DICE
        ));
    }
    let mut embed = Embed::new(format!(
        "🎲 {} rolls {}",
        state.roller,
        state.expr.notation()
    ))
    .description(description)
    .field("Total", format!("**{}**", state.roll.total), true)
    .colour(colour::NEUTRAL);
    if state.rerolls > 0 {
        embed = embed.footer(format!("Rerolled {} time(s)", state.rerolls));
    }
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

/// Faces as text: each die when few (`~~1~~` dropped, `6!` exploded-from),
/// counts per face when many.
fn faces_text(t: &expr::TermRoll) -> String {
    if t.faces.len() <= LIST_FACES {
        let parts: Vec<String> = t
            .faces
            .iter()
            .map(|f| {
                let mut s = f.value.to_string();
                if f.exploded {
                    s = format!("↯{s}");
                }
                if !f.kept {
                    s = format!("~~{s}~~");
                }
                s
            })
            .collect();
        return format!("[{}]", parts.join(", "));
    }
    let mut counts = std::collections::BTreeMap::new();
    for f in &t.faces {
        *counts.entry(f.value).or_insert(0u32) += 1;
    }
    let kept = t.faces.iter().filter(|f| f.kept).count();
    let parts: Vec<String> = counts
        .iter()
        .rev()
        .map(|(face, n)| format!("{face}×{n}"))
        .collect();
    format!(
        "{} dice ({} kept): {}",
        t.faces.len(),
        kept,
        parts.join(" ")
    )
}
