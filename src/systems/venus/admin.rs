//! The FC's table controls: the guild's Venus settings (edition included),
//! granting and taking Lots and Ego (debrief, scene introduction), and
//! starting a new play session (clears per-session Lot counts).

use super::calls::cap;
use super::changes;
use super::context::{Outcome, Turn};
use super::record::{Kismet, SessionReset, SettingInputs, SettingsChanged};
use super::{GM, HINT, SYSTEM};
use crate::app::characters::{self, Loaded};
use crate::app::pipeline::Record;
use crate::app::view::{colour, Embed, View};
use crate::app::{log, App, AppError, AppResult, Caller, Response};
use crate::rules::venus::sheet::SheetEvent;
use crate::rules::venus::VenusSheet;

/// `/ve-gm fc edition`: sets the guild's `ve_edition` (FC only), with a line
/// on what the edition plays.
pub async fn set_edition(app: &App, caller: &Caller, value: &str) -> AppResult {
    let name = "ve_edition";
    let turn = Turn::begin(app, caller).await?;
    turn.require_gm(GM, "change the Venus settings")?;
    let mut s = turn.settings.clone();
    let before = s.clone();
    s.set(name, value)?;
    let entry = Record::new(
        "settings",
        &SettingInputs {
            name: name.to_string(),
            value: value.to_string(),
        },
        &SettingsChanged {
            before,
            after: s.clone(),
        },
    )
    .dice(&log::NO_DICE, Vec::new());
    let shown = s
        .describe()
        .into_iter()
        .find(|i| i.name == name)
        .map(|i| i.value)
        .unwrap_or_else(|| value.to_string());
    let extra = match s.ve_edition.number() {
        1 => " Edition 1 (1st Playtest): d20 checks with a best-of-d6 bonus; D6 task pools whose beats are spent.",
        _ => " Edition 2 (Playsheet): d20 checks with a flat bonus; D10 task pools against a threshold.",
    };
    let answer = Response::message(View::text(format!("⚙ `{name}` is now `{shown}`.{extra}")));
    turn.finish(Outcome::answer(answer).settings(&s).log(entry))
        .await
}

/// Which way `/ve-gm fc grant` and `/ve-gm fc take` move Kismet.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Way<'a> {
    /// Grant Lots (overflowing per `ve_lot_overflow` into `job`) and/or Ego.
    Grant {
        /// The job that gets the exp of a Lot over the cap of 10.
        job: Option<&'a str>,
    },
    /// Take Lots (never below 0) and/or Ego.
    Take,
}

impl Way<'_> {
    /// The verb the answers use, the log's action and the answer's title.
    fn words(self) -> (&'static str, &'static str, &'static str) {
        match self {
            Way::Grant { .. } => ("Grant", "grant", "🎁 Kismet granted"),
            Way::Take => ("Take", "take", "Kismet taken"),
        }
    }
}

/// `/ve-gm fc grant` and `/ve-gm fc take`: Lots and/or Ego given to or
/// taken from a player's active character, validated, saved, logged and
/// answered with what changed. FC only.
pub async fn kismet(
    app: &App,
    caller: &Caller,
    player: i64,
    (lots, ego): (u32, bool),
    reason: Option<&str>,
    way: Way<'_>,
) -> AppResult {
    if let Some(r) = reason {
        cap(app, "reason", r)?;
    }
    let (verb, action, title) = way.words();
    if lots == 0 && !ego {
        return Err(AppError::user(format!("{verb} at least one Lot or Ego.")));
    }
    let mut turn = Turn::begin(app, caller).await?;
    turn.require_gm(GM, &format!("{} Lots and Ego", verb.to_lowercase()))?;
    let guild = turn.caller().guild_id;
    let mut c: Loaded<VenusSheet> =
        characters::of_member(turn.tx(), guild, SYSTEM, player, HINT).await?;
    let mut events = Vec::new();
    if lots > 0 {
        events.extend(match way {
            Way::Grant { job } => c.sheet.grant_lots(lots, &turn.settings, job)?,
            Way::Take => c.sheet.take_lots(lots)?,
        });
    }
    if ego {
        events.push(match way {
            Way::Grant { .. } => c.sheet.grant_ego()?,
            Way::Take => c.sheet.spend_ego()?,
        });
    }
    c.sheet.validate(&turn.settings)?;
    let inputs = Kismet {
        reason: reason.map(str::to_string),
    };
    let entry = Record::new(action, &inputs, &events)
        .dice(&log::NO_DICE, Vec::new())
        .character(c.row.id);
    let named: Vec<(String, SheetEvent)> = events
        .into_iter()
        .map(|e| (c.name().to_string(), e))
        .collect();
    let mut lines = changes::lines(&named);
    if lines.is_empty() {
        lines.push(format!("{} · nothing changed", c.shown()));
    }
    let mut e = Embed::new(title)
        .description(lines.join("\n"))
        .colour(colour::NEUTRAL)
        .field("Lots", super::format::lot_pips(c.sheet.lots), true)
        .field("Ego", super::format::ego_text(c.sheet.ego), true);
    if let Some(r) = reason.filter(|r| !r.trim().is_empty()) {
        e = e.footer(format!("Why: {}", r.trim()));
    }
    let out = Outcome::answer(Response::message(View::embed(e)))
        .sheet(c)
        .log(entry);
    turn.finish(out).await
}

/// `/ve-gm fc session`: a new play session; clears every character's count of
/// Lots earned this session (used by `ve_lot_overflow = per_session_count`).
pub async fn new_session(app: &App, caller: &Caller) -> AppResult {
    let mut turn = Turn::begin(app, caller).await?;
    turn.require_gm(GM, "start a new play session")?;
    let mut out = Outcome::answer(Response::message(View::text(
        "🎬 A new play session begins: Lots earned this session start again from 0.",
    )));
    let mut n: u32 = 0;
    for mut c in turn.every_character(10_000).await? {
        if c.sheet.lots_earned_this_session != 0 {
            c.sheet.start_session();
            out = out.sheet(c);
            n = n.saturating_add(1);
        }
    }
    let entry = Record::new(
        "session",
        &log::NoInputs {},
        &SessionReset { sheets_reset: n },
    )
    .dice(&log::NO_DICE, Vec::new());
    turn.finish(out.log(entry)).await
}
