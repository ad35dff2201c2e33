//! The FC's table controls: the guild's Venus settings (edition included),
//! granting and taking Lots and Ego (debrief, scene introduction), and
//! starting a new play session (clears per-session Lot counts).

use serde_json::json;

use super::changes;
use super::{venus_settings, HINT, SYSTEM};
use crate::app::characters::{self, Loaded};
use crate::app::view::{colour, Embed, View};
use crate::app::Act;
use crate::app::{log, rights, settings, App, AppError, AppResult, Caller, Response};
use crate::rules::venus::sheet::SheetEvent;
use crate::rules::venus::{VenusSettings, VenusSheet};
use crate::storage::{self, Tx};

/// `/ve fc edition`: sets the guild's `ve_edition` (FC only), with a line
/// on what the edition plays.
pub async fn set_edition(app: &App, caller: &Caller, value: &str) -> AppResult {
    let name = "ve_edition";
    let mut tx = Act::begin(app, caller).await?;
    rights::require_fc(&mut tx, caller, "change the Venus settings").await?;
    let mut s = venus_settings(&mut tx, caller.guild_id).await?;
    let before = s.clone();
    s.set(name, value)?;
    settings::save_scoped(&mut tx, caller.guild_id, SYSTEM, &s).await?;
    log::record(
        &mut tx,
        caller,
        log::What {
            system: SYSTEM,
            action: "settings",
            session: None,
            character: None,
        },
        &json!({ "name": name, "value": value }),
        &json!([]),
        &json!({ "before": before, "after": s }),
    )
    .await?;
    tx.commit().await?;
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
    Ok(Response::message(View::text(format!(
        "⚙ `{name}` is now `{shown}`.{extra}"
    ))))
}

async fn member_sheet(
    tx: &mut Tx,
    guild_id: i64,
    player: i64,
) -> Result<Loaded<VenusSheet>, AppError> {
    characters::of_member(tx, guild_id, SYSTEM, player, HINT).await
}

async fn finish_kismet(
    mut tx: Act,
    caller: &Caller,
    mut c: Loaded<VenusSheet>,
    events: Vec<SheetEvent>,
    action: &str,
    reason: Option<&str>,
    settings: &VenusSettings,
) -> AppResult {
    c.sheet.validate(settings)?;
    characters::save(&mut tx, &mut c).await?;
    log::record(
        &mut tx,
        caller,
        log::What {
            system: SYSTEM,
            action,
            session: None,
            character: Some(c.row.id),
        },
        &json!({ "reason": reason }),
        &json!([]),
        &events,
    )
    .await?;
    tx.commit().await?;
    let named: Vec<(String, SheetEvent)> = events
        .into_iter()
        .map(|e| (c.name().to_string(), e))
        .collect();
    let mut lines = changes::lines(&named);
    if lines.is_empty() {
        lines.push(format!("{} · nothing changed", c.name()));
    }
    let mut e = Embed::new(match action {
        "grant" => "🎁 Kismet granted",
        _ => "Kismet taken",
    })
    .description(lines.join("\n"))
    .colour(colour::NEUTRAL)
    .field("Lots", super::format::lot_pips(c.sheet.lots), true)
    .field("Ego", super::format::ego_text(c.sheet.ego), true);
    if let Some(r) = reason.filter(|r| !r.trim().is_empty()) {
        e = e.footer(format!("Why: {}", r.trim()));
    }
    Ok(Response::message(View::embed(e)))
}

/// `/ve fc grant`: gives a player's active character Lots (overflowing per
/// `ve_lot_overflow` into `job`) and/or Ego. FC only.
pub async fn grant(
    app: &App,
    caller: &Caller,
    player: i64,
    lots: u32,
    ego: bool,
    reason: Option<&str>,
    job: Option<&str>,
) -> AppResult {
    if let Some(r) = reason {
        cap(app, r)?;
    }
    if lots == 0 && !ego {
        return Err(AppError::user("Grant at least one Lot or Ego."));
    }
    let mut tx = Act::begin(app, caller).await?;
    rights::require_fc(&mut tx, caller, "grant Lots and Ego").await?;
    let set = venus_settings(&mut tx, caller.guild_id).await?;
    let mut c = member_sheet(&mut tx, caller.guild_id, player).await?;
    let mut events = Vec::new();
    if lots > 0 {
        events.extend(c.sheet.grant_lots(lots, &set, job)?);
    }
    if ego {
        events.push(c.sheet.grant_ego()?);
    }
    finish_kismet(tx, caller, c, events, "grant", reason, &set).await
}

/// `/ve fc take`: takes Lots (never below 0) and/or Ego. FC only.
pub async fn take(
    app: &App,
    caller: &Caller,
    player: i64,
    lots: u32,
    ego: bool,
    reason: Option<&str>,
) -> AppResult {
    if let Some(r) = reason {
        cap(app, r)?;
    }
    if lots == 0 && !ego {
        return Err(AppError::user("Take at least one Lot or Ego."));
    }
    let mut tx = Act::begin(app, caller).await?;
    rights::require_fc(&mut tx, caller, "take Lots and Ego").await?;
    let set = venus_settings(&mut tx, caller.guild_id).await?;
    let mut c = member_sheet(&mut tx, caller.guild_id, player).await?;
    let mut events = Vec::new();
    if lots > 0 {
        events.extend(c.sheet.take_lots(lots)?);
    }
    if ego {
        events.push(c.sheet.spend_ego()?);
    }
    finish_kismet(tx, caller, c, events, "take", reason, &set).await
}

/// `/ve fc session`: a new play session; clears every character's count of
/// Lots earned this session (used by `ve_lot_overflow = per_session_count`).
pub async fn new_session(app: &App, caller: &Caller) -> AppResult {
    let mut tx = Act::begin(app, caller).await?;
    rights::require_fc(&mut tx, caller, "start a new play session").await?;
    let rows = storage::characters::list(&mut tx, caller.guild_id, SYSTEM, None, 10_000).await?;
    let mut n = 0;
    for row in rows {
        let mut sheet: VenusSheet = serde_json::from_str(&row.sheet)?;
        if sheet.lots_earned_this_session != 0 {
            sheet.start_session();
            let mut c = Loaded { row, sheet };
            characters::save(&mut tx, &mut c).await?;
            n += 1;
        }
    }
    log::record(
        &mut tx,
        caller,
        log::What {
            system: SYSTEM,
            action: "session",
            session: None,
            character: None,
        },
        &json!({}),
        &json!([]),
        &json!({ "sheets_reset": n }),
    )
    .await?;
    tx.commit().await?;
    Ok(Response::message(View::text(
        "🎬 A new play session begins: Lots earned this session start again from 0.",
    )))
}

fn cap(app: &App, text: &str) -> Result<(), AppError> {
    let max = app.config.limits.max_text_len;
    if text.chars().count() > max {
        return Err(AppError::user(format!(
            "The reason is too long: at most {max} characters."
        )));
    }
    Ok(())
}
