//! The "Discard which?" select (VV-8): when a cache is over its maximum,
//! the owner (or the Compiler) picks the die to lose, on a report or on a roll
//! whose register overflowed. Reading the choice, and the click on a
//! report ([`super::report`]); a roll's discard goes through
//! [`super::roll_click`].

use super::buttons::VvButton;
use super::report::{view, ReportState};
use super::{by_id, load_settings, text, timeout, VvState, SYSTEM};
use crate::app::characters::Loaded;
use crate::app::component::{Action, Click};
use crate::app::{log, rights, sessions, Act, App, AppError, AppResult, Response};
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
    sheet
        .discard_options(settings)
        .into_iter()
        .rev()
        .find(|r| matches!(r, CacheRef::Fault(_)) == fault && sheet.face_of(*r) == Some(face))
        .ok_or_else(|| {
            AppError::user(
                "There is no such die to discard any more; the message shows the cache as it is now.",
            )
        })
}

/// A click on a report: the discard select, by the character's player
/// or the Compiler.
pub async fn click(
    _app: &App,
    mut tx: Act,
    session: Session,
    mut state: ReportState,
    click: &Click<'_>,
) -> AppResult {
    let caller = click.caller;
    let fc = rights::is_fc(&mut tx, caller).await?;
    if caller.user_id != state.owner && !fc {
        return Err(AppError::user(format!(
            "Only {}'s player or the Compiler can choose what {} discards.",
            state.name, state.name
        )));
    }
    if VvButton::parse(&click.id.action, click.id.arg.as_deref()) != Some(VvButton::Discard) {
        return Err(AppError::user("That button does nothing here."));
    }
    let settings = load_settings(&mut tx, caller.guild_id).await?;
    let mut ch = by_id(&mut tx, caller.guild_id, state.character).await?;
    let status = if ch.sheet.cache_excess(&settings) == 0 {
        state
            .lines
            .push("The cache is no longer over its maximum.".into());
        Status::Closed
    } else {
        discard(&mut tx, &session, &mut state, &mut ch, &settings, click).await?
    };
    let minutes = timeout(&mut tx, caller.guild_id).await?;
    let version = sessions::save(
        &mut tx,
        &session,
        &VvState::Report(state.clone()),
        status,
        Some(minutes),
    )
    .await?;
    tx.commit().await?;
    Ok(Response::update(view(
        session.id,
        version,
        status,
        &state,
        Some(&ch.sheet),
        &settings,
    )))
}

/// Discards the die picked in `click` from `ch`'s cache, notes and logs it;
/// the report stays open while the cache is still over its maximum.
async fn discard(
    tx: &mut Act,
    session: &Session,
    state: &mut ReportState,
    ch: &mut Loaded<OreSheet>,
    settings: &OreSettings,
    click: &Click<'_>,
) -> Result<Status, AppError> {
    let die = parse_discard(click.values, &ch.sheet, settings)?;
    let events = ch.sheet.discard_cache_die(settings, Some(die))?;
    state.lines.extend(text::events(&events, &ch.sheet));
    let status = if ch.sheet.cache_excess(settings) == 0 {
        Status::Closed
    } else {
        Status::Open
    };
    super::sheet::save(tx, ch).await?;
    log::record(
        tx,
        click.caller,
        log::What {
            system: SYSTEM,
            action: VvButton::Discard.encode().0,
            session: Some(session.id),
            character: Some(ch.row.id),
        },
        &click.values,
        &ch.sheet.cache,
        &events,
    )
    .await?;
    Ok(status)
}
