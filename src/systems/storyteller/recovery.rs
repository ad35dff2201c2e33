//! Turns and willpower recovery: `/st turn` (the once-per-turn wound ignore
//! is available again, ST-12), `/st recover` (a day's +1, or the first dot
//! back at 0, ST-13/ST-14) and `/st revive` (spending one's own willpower
//! to bring an incapacitated character back to 1, ST-13).

use super::record;

use crate::app::characters::{Access, Pick};
use crate::app::pipeline::Record;
use crate::app::view::{colour, Embed};
use crate::app::{App, AppError, AppResult, Caller, Response, View};
use crate::rules::storyteller::willpower::{recover, revive as revive_rule, start_turn};
use crate::rules::storyteller::Event;

use super::context::{Outcome, Turn};
use super::roll_view::event_text;
use super::sheet_view::{willpower_change, willpower_track};
use super::GM;

/// The most characters `/st turn everyone:true` updates at once.
const MAX_TURN_CHARACTERS: i64 = 1000;

/// A log entry of these actions: what was asked and the rules' events.
fn entry(action: &str, character: i64, inputs: impl serde::Serialize, events: &[Event]) -> Record {
    Record::new(
        action,
        &inputs,
        &record::Events {
            events: events.to_vec(),
        },
    )
    .character(character)
}

/// `/st turn`: a new turn for one character, or (the storyteller, `everyone`) for
/// every Storyteller character in the guild.
pub async fn turn(app: &App, caller: &Caller, target: Pick<'_>, everyone: bool) -> AppResult {
    let mut turn = Turn::begin(app, caller).await?;
    if everyone {
        turn.require_gm(GM, "start a new turn for everyone")?;
        let mut changed = Vec::new();
        for mut c in turn.every_character(MAX_TURN_CHARACTERS).await? {
            let before = c.sheet.clone();
            let events = start_turn(&mut c.sheet);
            if c.sheet != before {
                changed.push((c, events));
            }
        }
        let n = u32::try_from(changed.len()).unwrap_or(u32::MAX);
        let view = View::embed(
            Embed::new("🔄 A new turn")
                .description(format!(
                    "Everyone may again spend willpower to ignore wound penalties this turn ({} had used it).",
                    super::sheet_view::count(n, "character", "characters")
                ))
                .colour(colour::NEUTRAL),
        );
        let mut out = Outcome::answer(Response::message(view));
        for (c, events) in changed {
            let e = entry(
                "turn",
                c.row.id,
                record::EveryoneTurn { everyone: true },
                &events,
            );
            out = out.sheet(c).log(e);
        }
        return turn.finish(out).await;
    }
    // Turns belong to the storyteller (issue 13).
    turn.require_gm(GM, "start a new turn")?;
    let mut c = turn.character(target, Access::Owner).await?;
    let events = start_turn(&mut c.sheet);
    let mut text = "Willpower may again be spent to ignore wound penalties this turn.".to_string();
    if c.sheet.ignores_wounds_next_action() {
        text.push_str(" (The next action still ignores them: that spend is not used yet.)");
    }
    let view = View::embed(
        Embed::new(format!("🔄 A new turn for {}", c.shown()))
            .description(text)
            .colour(colour::NEUTRAL),
    );
    let e = entry("turn", c.row.id, record::Empty {}, &events);
    turn.finish(Outcome::answer(Response::message(view)).sheet(c).log(e))
        .await
}

/// `/st recover` (governed): a day in a safe, comfortable place (+1 willpower, never
/// above permanent, ST-14), or with `first_dot` the first dot back for an
/// incapacitated character out of danger for a full turn (ST-13).
pub async fn recovered(
    turn: &mut Turn<'_>,
    target: Pick<'_>,
    first_dot: bool,
) -> Result<Outcome, AppError> {
    let mut c = turn.character(target, Access::Owner).await?;
    let was = c.sheet.willpower();
    let events = recover(&mut c.sheet, first_dot)?;
    let now = c.sheet.willpower();
    let mut lines = vec![format!("Willpower {}", willpower_change(was, now))];
    if now.current == was.current {
        lines.push("Willpower is already at its permanent rating.".to_string());
    }
    lines.extend(events.iter().filter_map(|e| match e {
        Event::WillpowerGained { .. } => None,
        other => event_text(other, c.name()),
    }));
    let (title, action) = if first_dot {
        (
            format!("🌅 {} regains the first dot of willpower", c.shown()),
            "recover_first_dot",
        )
    } else {
        (format!("🌙 {} rests for a day", c.shown()), "recover")
    };
    let view = View::embed(
        Embed::new(title)
            .description(lines.join("\n"))
            .colour(colour::SUCCESS),
    );
    let e = entry(action, c.row.id, record::Recovered { first_dot }, &events);
    Ok(Outcome::answer(Response::message(view)).sheet(c).log(e))
}

/// `/st revive` (governed): the caller's character (or, for the storyteller, `helper`) spends 1
/// of their own willpower to bring an incapacitated character back to 1.
pub async fn revived(
    turn: &mut Turn<'_>,
    helper: Option<&str>,
    target: Pick<'_>,
) -> Result<Outcome, AppError> {
    let mut h = turn
        .character(Pick::new(helper, None), Access::Owner)
        .await?;
    // Anyone's character may be revived: named the shared way.
    if target == Pick::active() {
        return Err(AppError::user(
            "Say whom to revive: `character:` or `player:`.",
        ));
    }
    let mut t = turn.character(target, Access::Anyone).await?;
    if t.row.id == h.row.id {
        return Err(AppError::user(
            "A character cannot revive themselves; they regain the first dot with `/st recover first_dot:true`.",
        ));
    }
    let events = revive_rule(&mut h.sheet, &mut t.sheet)?;
    let mut lines = vec![
        format!(
            "{} spends 1 willpower: {}",
            h.shown(),
            willpower_track(h.sheet.willpower())
        ),
        format!(
            "{} is back: {}",
            t.shown(),
            willpower_track(t.sheet.willpower())
        ),
    ];
    if events
        .iter()
        .any(|e| matches!(e, Event::HelperIncapacitated))
    {
        lines.push(format!(
            "💤 That was {}'s last willpower: they are incapacitated now.",
            h.shown()
        ));
    }
    let view = View::embed(
        Embed::new(format!("🤝 {} revives {}", h.shown(), t.shown()))
            .description(lines.join("\n"))
            .colour(colour::SUCCESS),
    );
    let e = entry(
        "revive",
        t.row.id,
        record::Revived {
            helper: h.row.id,
            target: t.row.id,
        },
        &events,
    );
    Ok(Outcome::answer(Response::message(view))
        .sheet(h)
        .sheet(t)
        .log(e))
}
