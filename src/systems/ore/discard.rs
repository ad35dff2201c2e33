//! The "Discard which?" select (VV-8): when a cache is over its maximum,
//! the owner (or the Compiler) picks the die to lose, on a report or on a roll
//! whose register overflowed. Reading the choice, and the click on a
//! report ([`super::report`]); a roll's discard goes through
//! [`super::roll_click`].

use super::buttons::VvButton;
use super::context::{checked, Outcome as Step, Turn};
use super::report::{view, ReportState};
use super::{by_id, record, text, VvState};
use crate::app::characters::Loaded;
use crate::app::component::{Action, Click};
use crate::app::pipeline::{Record, Shown};
use crate::app::view::clean;
use crate::app::{Act, App, AppError, AppResult, Response};
use crate::rules::ore::sheet::CacheRef;
use crate::rules::ore::{OreSettings, OreSheet};
use crate::storage::sessions::{Session, Status};

/// Reads a discard choice (`c:7` or `f:3`) into a die of that face.
pub fn parse_discard(
    values: &[String],
    sheet: &OreSheet,
    settings: &OreSettings,
) -> Result<CacheRef, AppError> {
    if sheet.discard_options(settings).is_empty() {
        return Err(AppError::user(
            "Your cache is not over its maximum, so nothing needs discarding.",
        ));
    }
    let bad = || AppError::user("Pick one die to discard.");
    let [v] = values else { return Err(bad()) };
    let (kind, face) = v.split_once(':').ok_or_else(bad)?;
    let face: u32 = face.parse().map_err(|_| bad())?;
    let fault = match kind {
        "c" => false,
        "f" => true,
        _ => return Err(bad()),
    };
    sheet.discard_pick(settings, fault, face).ok_or_else(|| {
        AppError::user(
            "There is no such die to discard any more; the message shows the cache as it is now.",
        )
    })
}

/// A click on a report: the discard select, by the character's player
/// or the Compiler.
pub async fn click(
    app: &App,
    act: Act,
    session: Session,
    mut state: ReportState,
    click: &Click<'_>,
) -> AppResult {
    let caller = click.caller;
    let mut turn = Turn::click(app, act, caller).await?;
    if caller.user_id != state.owner && !turn.fc {
        return Err(AppError::user(format!(
            "Only {}'s player or the Compiler can choose what {} discards.",
            clean(&state.name),
            clean(&state.name)
        )));
    }
    if VvButton::parse(&click.id.action, click.id.arg.as_deref()) != Some(VvButton::Discard) {
        return Err(AppError::user("That button does nothing here."));
    }
    let settings = turn.settings.clone();
    let guild = caller.guild_id;
    let mut ch = by_id(turn.tx(), guild, state.character).await?;
    let mut changed = None;
    if ch.sheet.cache_excess(&settings) == 0 {
        state
            .lines
            .push("The cache is no longer over its maximum.".into());
    } else {
        let entry = discard(&mut state, &mut ch, &settings, click)?;
        changed = Some((checked(ch.clone())?, entry));
    }
    // The report stays open while the cache is still over its maximum.
    let status = if ch.sheet.cache_excess(&settings) == 0 {
        Status::Closed
    } else {
        Status::Open
    };
    let minutes = Some(turn.guild.session_timeout_minutes);
    let stored = VvState::Report(state.clone());
    let sheet = ch.sheet;
    let mut out = Step::new(move |s: &Shown| {
        Response::update(view(
            s.id,
            s.version,
            s.status,
            &state,
            Some(&sheet),
            &settings,
        ))
    })
    .save(session, &stored, status, minutes);
    if let Some((c, entry)) = changed {
        out = out.sheet(c).log(entry);
    }
    turn.finish(out).await
}

/// Discards the die picked in `click` from `ch`'s cache and notes it.
/// Gives the log entry.
fn discard(
    state: &mut ReportState,
    ch: &mut Loaded<OreSheet>,
    settings: &OreSettings,
    click: &Click<'_>,
) -> Result<Record, AppError> {
    let die = parse_discard(click.values, &ch.sheet, settings)?;
    let events = ch.sheet.discard_cache_die(settings, Some(die))?;
    state.lines.extend(text::events(&events, &ch.sheet));
    let values: record::Picked = click.values.to_vec();
    Ok(Record::new(VvButton::Discard.encode().0, &values, &events)
        .dice(&ch.sheet.cache, Vec::new())
        .character(ch.row.id)
        .on_session())
}
