//! Turns and willpower recovery: `/st turn` (the once-per-turn wound ignore
//! is available again, ST-12), `/st recover` (a day's +1, or the first dot
//! back at 0, ST-13/ST-14) and `/st revive` (spending one's own willpower
//! to bring an incapacitated character back to 1, ST-13).

use super::record;

use crate::app::characters::{self, Loaded};
use crate::app::log::{self, What};
use crate::app::view::{colour, Embed};
use crate::app::{rights, App, AppError, AppResult, Caller, Response, View};
use crate::rules::storyteller::willpower::{
    recover_daily, recover_first_dot, revive as revive_rule, start_turn,
};
use crate::rules::storyteller::{Event, StorytellerSheet};
use crate::storage::{self, Tx};

use super::context::{self, Ctx, Target};
use super::roll_view::event_text;
use super::sheet_view::willpower_track;
use super::{GM, SYSTEM};
use crate::app::Act;

/// The most characters `/st turn everyone:true` updates at once.
const MAX_TURN_CHARACTERS: i64 = 1000;

async fn record(
    tx: &mut Tx,
    caller: &Caller,
    action: &str,
    character: Option<i64>,
    inputs: impl serde::Serialize,
    events: &[Event],
) -> Result<(), AppError> {
    log::record(
        tx,
        caller,
        What {
            system: SYSTEM,
            action,
            session: None,
            character,
        },
        &inputs,
        &(),
        &record::Events {
            events: events.to_vec(),
        },
    )
    .await
}

/// `/st turn`: a new turn for one character, or (the storyteller, `everyone`) for
/// every Storyteller character in the guild.
pub async fn turn(app: &App, caller: &Caller, target: Target<'_>, everyone: bool) -> AppResult {
    let mut tx = Act::begin(app, caller).await?;
    if everyone {
        rights::require_gm(&mut tx, caller, GM, "start a new turn for everyone").await?;
        let rows =
            storage::characters::list(&mut tx, caller.guild_id, SYSTEM, None, MAX_TURN_CHARACTERS)
                .await?;
        let mut changed = 0;
        for row in rows {
            let sheet: StorytellerSheet = serde_json::from_str(&row.sheet)?;
            let mut c = context::checked(Loaded { row, sheet })?;
            let before = c.sheet.clone();
            let events = start_turn(&mut c.sheet);
            if c.sheet != before {
                characters::save(&mut tx, &mut c).await?;
                record(
                    &mut tx,
                    caller,
                    "turn",
                    Some(c.row.id),
                    record::EveryoneTurn { everyone: true },
                    &events,
                )
                .await?;
                changed += 1;
            }
        }
        tx.commit().await?;
        return Ok(Response::message(View::embed(
            Embed::new("🔄 A new turn")
                .description(format!(
                    "Everyone may again spend willpower to ignore wound penalties this turn ({changed} {} had used it).",
                    super::sheet_view::plural(changed, "character", "characters")
                ))
                .colour(colour::NEUTRAL),
        )));
    }
    // Turns belong to the storyteller (issue 13).
    rights::require_gm(&mut tx, caller, GM, "start a new turn").await?;
    let ctx = Ctx::load(&mut tx, caller).await?;
    let mut c = context::character(&mut tx, caller, &ctx, target).await?;
    let events = start_turn(&mut c.sheet);
    characters::save(&mut tx, &mut c).await?;
    record(
        &mut tx,
        caller,
        "turn",
        Some(c.row.id),
        record::Empty {},
        &events,
    )
    .await?;
    tx.commit().await?;
    let mut text = "Willpower may again be spent to ignore wound penalties this turn.".to_string();
    if c.sheet.ignores_wounds_next_action() {
        text.push_str(" (The next action still ignores them: that spend is not used yet.)");
    }
    Ok(Response::message(View::embed(
        Embed::new(format!("🔄 A new turn for {}", c.name()))
            .description(text)
            .colour(colour::NEUTRAL),
    )))
}

/// `/st recover`: a day in a safe, comfortable place (+1 willpower, never
/// above permanent, ST-14), or with `first_dot` the first dot back for an
/// incapacitated character out of danger for a full turn (ST-13).
pub async fn recover(app: &App, caller: &Caller, target: Target<'_>, first_dot: bool) -> AppResult {
    let mut tx = Act::begin(app, caller).await?;
    let ctx = Ctx::load(&mut tx, caller).await?;
    let mut c = context::character(&mut tx, caller, &ctx, target).await?;
    let was = c.sheet.willpower();
    let events = if first_dot {
        recover_first_dot(&mut c.sheet)?
    } else {
        recover_daily(&mut c.sheet)
    };
    characters::save(&mut tx, &mut c).await?;
    record(
        &mut tx,
        caller,
        if first_dot {
            "recover_first_dot"
        } else {
            "recover"
        },
        Some(c.row.id),
        record::Recovered { first_dot },
        &events,
    )
    .await?;
    tx.commit().await?;
    let now = c.sheet.willpower();
    let mut lines = vec![format!(
        "Willpower {} → {}",
        willpower_track(was.current, was.permanent),
        willpower_track(now.current, now.permanent)
    )];
    if now.current == was.current {
        lines.push("Willpower is already at its permanent rating.".to_string());
    }
    lines.extend(events.iter().filter_map(|e| match e {
        Event::WillpowerGained { .. } => None,
        other => event_text(other, c.name()),
    }));
    let title = if first_dot {
        format!("🌅 {} regains the first dot of willpower", c.name())
    } else {
        format!("🌙 {} rests for a day", c.name())
    };
    Ok(Response::message(View::embed(
        Embed::new(title)
            .description(lines.join("\n"))
            .colour(colour::SUCCESS),
    )))
}

/// `/st revive`: the caller's character (or, for the storyteller, `helper`) spends 1
/// of their own willpower to bring an incapacitated character back to 1.
pub async fn revive(
    app: &App,
    caller: &Caller,
    helper: Option<&str>,
    target: Target<'_>,
) -> AppResult {
    let mut tx = Act::begin(app, caller).await?;
    let ctx = Ctx::load(&mut tx, caller).await?;
    let mut h = context::character(
        &mut tx,
        caller,
        &ctx,
        Target {
            character: helper,
            player: None,
        },
    )
    .await?;
    // Anyone's character may be revived: named the shared way.
    let pick = characters::Pick::new(target.character, target.player);
    if pick == characters::Pick::active() {
        return Err(AppError::user(
            "Say whom to revive: `character:` or `player:`.",
        ));
    }
    let mut t: Loaded<StorytellerSheet> = characters::resolve(
        &mut tx,
        caller,
        ctx.fc,
        SYSTEM,
        pick,
        characters::Access::Anyone,
        super::HINT,
    )
    .await?;
    t = context::checked(t)?;
    if t.row.id == h.row.id {
        return Err(AppError::user(
            "A character cannot revive themselves; they regain the first dot with `/st recover first_dot:true`.",
        ));
    }
    let events = revive_rule(&mut h.sheet, &mut t.sheet)?;
    characters::save(&mut tx, &mut h).await?;
    characters::save(&mut tx, &mut t).await?;
    record(
        &mut tx,
        caller,
        "revive",
        Some(t.row.id),
        record::Revived {
            helper: h.row.id,
            target: t.row.id,
        },
        &events,
    )
    .await?;
    tx.commit().await?;
    let mut lines = vec![
        format!(
            "{} spends 1 willpower: {}",
            h.name(),
            willpower_track(h.sheet.willpower().current, h.sheet.willpower().permanent)
        ),
        format!(
            "{} is back: {}",
            t.name(),
            willpower_track(t.sheet.willpower().current, t.sheet.willpower().permanent)
        ),
    ];
    if events
        .iter()
        .any(|e| matches!(e, Event::HelperIncapacitated))
    {
        lines.push(format!(
            "💤 That was {}'s last willpower: they are incapacitated now.",
            h.name()
        ));
    }
    Ok(Response::message(View::embed(
        Embed::new(format!("🤝 {} revives {}", h.name(), t.name()))
            .description(lines.join("\n"))
            .colour(colour::SUCCESS),
    )))
}
