//! The COMP (VV-8, VV-17): `/vv boot` rolls the cache, `/vv logout` loses
//! it, `/vv battery` uses, charges or plugs in (an empty battery logs out).

use serde_json::json;

use super::{load_settings, report, target, text, Target, SYSTEM};
use crate::app::view::colour;
use crate::app::Act;
use crate::app::{log, App, AppError, AppResult, Caller, Reply, Response};
use crate::rules::ore::events::LogoutReason;
use crate::rules::ore::{OreEvent, OreSettings, OreSheet};
use rand::rngs::StdRng;

/// Which COMP action.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum CompAction {
    /// Switch on and roll the cache.
    Boot,
    /// Switch off; the cache is lost.
    Logout,
    /// Battery: use, charge (amounts), plug in or out.
    Battery {
        /// Battery used.
        used: Option<u32>,
        /// Battery charged.
        charged: Option<u32>,
        /// Plugged in or not.
        plugged: Option<bool>,
    },
}

/// Runs a COMP action for the caller's (or a named) character.
pub async fn act(
    app: &App,
    caller: &Caller,
    action: CompAction,
    name: Option<&str>,
    player: Option<i64>,
) -> AppResult {
    check(action)?;
    let mut tx = Act::begin(app, caller).await?;
    let Target { mut ch, .. } = target(&mut tx, caller, name, player, "work their COMP").await?;
    let settings = load_settings(&mut tx, caller.guild_id).await?;
    let (verb, events) = apply(&mut ch.sheet, action, &settings, &mut app.rng.fork())?;
    super::sheet::save(&mut tx, &mut ch).await?;
    let lines = report_lines(action, &ch.sheet, &settings, &events);
    let title = match action {
        CompAction::Boot => format!("💻 {} boots the COMP", ch.name()),
        CompAction::Logout => format!("💻 {} logs out", ch.name()),
        CompAction::Battery { .. } => format!("🔋 {}'s battery", ch.name()),
    };
    let (view, session) = report::finish(
        &mut tx,
        caller,
        &ch,
        &settings,
        (None, title),
        lines,
        if ch.sheet.comp.session_active {
            colour::SUCCESS
        } else {
            colour::NEUTRAL
        },
    )
    .await?;
    log::record_rolled(
        &mut tx,
        caller,
        log::What {
            system: SYSTEM,
            action: verb,
            session,
            character: Some(ch.row.id),
        },
        &json!({ "action": format!("{action:?}") }),
        &ch.sheet.cache,
        &events,
        &super::faces::thrown(&events),
    )
    .await?;
    // The cache dice left with the COMP: out of the open registers too.
    let registers = if ch.sheet.comp.session_active {
        Vec::new()
    } else {
        super::roll::drop_lost_cache(&mut tx, ch.row.id, &ch.sheet).await?
    };
    tx.commit().await?;
    let mut r = Response::message(view);
    r.followups.extend(registers.into_iter().map(Reply::Edit));
    Ok(r)
}

/// Refuses a battery action that says nothing, or both uses and charges.
fn check(action: CompAction) -> Result<(), AppError> {
    if let CompAction::Battery {
        used,
        charged,
        plugged,
    } = action
    {
        if used.is_none() && charged.is_none() && plugged.is_none() {
            return Err(AppError::user("Give `use`, `charge` or `plugged_in`."));
        }
        if used.is_some() && charged.is_some() {
            return Err(AppError::user(
                "Use or charge the battery, not both at once.",
            ));
        }
    }
    Ok(())
}

/// The action on the sheet: its log word and the rules' events.
fn apply(
    sheet: &mut OreSheet,
    action: CompAction,
    settings: &OreSettings,
    rng: &mut StdRng,
) -> Result<(&'static str, Vec<OreEvent>), AppError> {
    Ok(match action {
        CompAction::Boot => ("boot", sheet.boot(settings, rng)?),
        CompAction::Logout => ("logout", sheet.logout(LogoutReason::Manual)?),
        CompAction::Battery {
            used,
            charged,
            plugged,
        } => {
            let mut evs = Vec::new();
            if let Some(p) = plugged {
                sheet.comp.plugged_in = p;
            }
            if let Some(u) = used {
                evs.extend(sheet.use_battery(u)?);
            }
            if let Some(c) = charged {
                evs.extend(sheet.charge(c)?);
            }
            ("battery", evs)
        }
    })
}

/// The report's lines: what happened, the cache while the COMP runs, and
/// the battery.
fn report_lines(
    action: CompAction,
    sheet: &OreSheet,
    settings: &OreSettings,
    events: &[OreEvent],
) -> Vec<String> {
    let c = &sheet.comp;
    let mut lines = text::events(events, sheet);
    if let CompAction::Battery {
        plugged: Some(p), ..
    } = action
    {
        lines.insert(
            0,
            if p {
                "Plugged in: using the COMP drains no battery.".into()
            } else {
                "Unplugged.".into()
            },
        );
    }
    if c.session_active {
        lines.push(format!("Cache now: {}.", text::cache(sheet, settings)));
    }
    lines.push(format!(
        "Battery {}/{}{}.",
        c.battery_current,
        c.battery_max,
        if c.plugged_in { ", plugged in" } else { "" }
    ));
    lines
}
