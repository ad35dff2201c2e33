//! The COMP (VV-8, VV-17): `/vv boot` rolls the cache, `/vv logout` loses
//! it, `/vv battery` uses, charges or plugs in (an empty battery logs out).

use super::context::{checked, target, Turn};
use super::{record, report, text};
use crate::app::pipeline::Record;
use crate::app::view::colour;
use crate::app::{App, AppError, AppResult, Caller};
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
    let mut turn = Turn::begin(app, caller).await?;
    let mut ch = target(&mut turn, name, player).await?;
    let (verb, events) = apply(&mut ch.sheet, action, &turn.settings, &mut turn.rng())?;
    let ch = checked(ch)?;
    let lines = report_lines(action, &ch.sheet, &turn.settings, &events);
    let title = match action {
        CompAction::Boot => format!("💻 {} boots the COMP", ch.shown()),
        CompAction::Logout => format!("💻 {} logs out", ch.shown()),
        CompAction::Battery { .. } => format!("🔋 {}'s battery", ch.shown()),
    };
    let colour = if ch.sheet.comp.session_active {
        colour::SUCCESS
    } else {
        colour::NEUTRAL
    };
    let entry = Record::new(
        verb,
        &record::CompInputs {
            action: format!("{action:?}"),
        },
        &events,
    )
    .dice(&ch.sheet.cache, super::faces::thrown(&events))
    .character(ch.row.id)
    .on_session();
    let mut out = report::outcome(&turn, &ch, (None, title), lines, colour);
    // The cache dice left with the COMP: out of the open registers too.
    if !ch.sheet.comp.session_active {
        out = super::roll::lost_cache(&mut turn, out, ch.row.id, &ch.sheet).await?;
    }
    turn.finish(out.sheet(ch).log(entry)).await
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
