//! Reports of COMP and damage actions, and the cache-overflow prompt.
//!
//! Booting, damage (with `vv_fault_counts_toward_cache`) or a battery change
//! can leave the cache over its maximum; VV-8 says one die must go at once
//! and the owner chooses. Such a report is posted with a "Discard which?"
//! select backed by a session; the same select appears on a roll whose
//! register overflowed the cache.

use serde::{Deserialize, Serialize};

use super::{by_id, load_settings, text, timeout, VvState, KIND, SYSTEM};
use crate::app::characters::Loaded;
use crate::app::component::{ButtonId, Click};
use crate::app::view::{colour, Embed, Row, Select, SelectOption, View};
use crate::app::App;
use crate::app::{log, rights, sessions, AppError, AppResult, Caller, Response};
use crate::rules::ore::sheet::CacheRef;
use crate::rules::ore::{OreSettings, OreSheet};
use crate::storage::{sessions::Session, Tx};
use crate::storage::sessions::Status;
use crate::app::Act;

/// The placeholder of the discard select.
pub const DISCARD_PLACEHOLDER: &str = "Discard which?";

/// A report message that waits for a discard.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct ReportState {
    /// The character's id.
    pub character: i64,
    /// Its name.
    pub name: String,
    /// Its owner (who chooses the discard, besides the FC).
    pub owner: i64,
    /// The embed title.
    pub title: String,
    /// What happened, one line each.
    pub lines: Vec<String>,
    /// The embed colour.
    pub colour: u32,
}

/// Builds the view of a report about `ch`; if its cache is now over the
/// maximum, stores a session so the owner can choose the discard.
/// Returns the view and the session id, if one was made.
pub async fn finish(
    tx: &mut Tx,
    caller: &Caller,
    ch: &Loaded<OreSheet>,
    settings: &OreSettings,
    title: String,
    lines: Vec<String>,
    colour: u32,
) -> Result<(View, Option<i64>), AppError> {
    let state = ReportState {
        character: ch.row.id,
        name: ch.name().to_string(),
        owner: ch.row.owner_id,
        title,
        lines,
        colour,
    };
    if ch.sheet.cache_excess(settings) == 0 {
        return Ok((
            view(0, 0, Status::Closed, &state, Some(&ch.sheet), settings),
            None,
        ));
    }
    let minutes = timeout(tx, caller.guild_id).await?;
    let id = sessions::create(
        tx,
        caller,
        KIND,
        &VvState::Report(state.clone()),
        Some(minutes),
    )
    .await?;
    Ok((
        view(id, 0, Status::Open, &state, Some(&ch.sheet), settings),
        Some(id),
    ))
}

/// The report's message.
pub fn view(
    id: i64,
    version: i64,
    status: Status,
    s: &ReportState,
    sheet: Option<&OreSheet>,
    settings: &OreSettings,
) -> View {
    let mut embed = Embed::new(s.title.clone())
        .description(text::join_capped(&s.lines, 4000))
        .colour(s.colour);
    let mut rows = Vec::new();
    if let Some(sheet) = sheet {
        let excess = sheet.cache_excess(settings);
        if excess > 0 {
            if status == Status::Open {
                embed = embed
                    .footer(format!(
                        "The cache is {excess} over its maximum ({}): {}'s player or the FC picks the die to discard.",
                        sheet.comp.cache_max, s.name
                    ))
                    .colour(colour::PENDING);
                if let Some(r) = discard_row(id, version, sheet, settings) {
                    rows.push(r);
                }
            } else if status == Status::Expired {
                embed = embed.footer("Timed out: the lowest die goes at the next action (A-O10).");
            }
        }
    }
    View {
        rows,
        ..View::embed(embed)
    }
}

/// The "Discard which?" select for a sheet over its cache maximum: one
/// option per kind and face (dice of the same face are alike), lowest first.
pub fn discard_row(id: i64, version: i64, sheet: &OreSheet, settings: &OreSettings) -> Option<Row> {
    let mut seen: Vec<(bool, u32)> = Vec::new();
    for r in sheet.discard_options(settings) {
        let fault = matches!(r, CacheRef::Fault(_));
        if let Some(face) = sheet.face_of(r) {
            if !seen.contains(&(fault, face)) {
                seen.push((fault, face));
            }
        }
    }
    if seen.is_empty() {
        return None;
    }
    seen.sort_by_key(|(fault, face)| (*face, *fault));
    let options = seen
        .into_iter()
        .take(25)
        .map(|(fault, face)| {
            let count = sheet
                .discard_options(settings)
                .into_iter()
                .filter(|r| {
                    matches!(r, CacheRef::Fault(_)) == fault && sheet.face_of(*r) == Some(face)
                })
                .count();
            SelectOption {
                label: if fault {
                    format!("Fault die {face}")
                } else {
                    format!("Cache die {face}")
                },
                value: format!("{}:{face}", if fault { "f" } else { "c" }),
                description: Some(format!("{count} in the cache")),
            }
        })
        .collect();
    Some(Row::Select(Select {
        custom_id: ButtonId::new(KIND, id, version, "discard").encode(),
        placeholder: DISCARD_PLACEHOLDER.into(),
        options,
        min: 1,
        max: 1,
    }))
}

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

/// A click on a report: the discard select.
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
            "Only {}'s player or the FC can choose what {} discards.",
            state.name, state.name
        )));
    }
    if click.id.action != "discard" {
        return Err(AppError::user("That button does nothing here."));
    }
    let settings = load_settings(&mut tx, caller.guild_id).await?;
    let mut ch = by_id(&mut tx, caller.guild_id, state.character).await?;
    let status;
    if ch.sheet.cache_excess(&settings) == 0 {
        state
            .lines
            .push("The cache is no longer over its maximum.".into());
        status = Status::Closed;
    } else {
        let die = parse_discard(click.values, &ch.sheet, &settings)?;
        let events = ch.sheet.discard_cache_die(&settings, Some(die))?;
        state.lines.extend(text::events(&events, &ch.sheet));
        status = if ch.sheet.cache_excess(&settings) == 0 {
            Status::Closed
        } else {
            Status::Open
        };
        super::sheet::save(&mut tx, &mut ch).await?;
        log::record(
            &mut tx,
            caller,
            log::What {
                system: SYSTEM,
                action: "discard",
                session: Some(session.id),
                character: Some(ch.row.id),
            },
            &click.values,
            &ch.sheet.cache,
            &events,
        )
        .await?;
    }
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
