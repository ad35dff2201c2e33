//! The channel's social Conventions (VR-16): the FC declares, edits and
//! removes them; a player (for themselves) or the FC (for anyone) marks a
//! violation and the violator's sheet gains the Stress; the end of a scene
//! clears the "once per scene" marks and restores every sheet's HP.
//!
//! The list lives in `channel_state` (key [`LIST_KEY`]). The board is one
//! session per channel (id under [`BOARD_KEY`]) whose version moves with
//! every change, so only the newest board's menu acts; every change answers
//! with the updated board as the newest message in the channel.

use crate::app::characters::Pick;
use std::collections::HashMap;

use super::render;
use super::state::VrState;
use super::target::{self, record, sheet_for};
use super::{KIND, SYSTEM};
use crate::app::characters::{self, Loaded};
use crate::app::component::Click;
use crate::app::view::{Embed, View};
use crate::app::Act;
use crate::app::{rights, sessions, App, AppError, AppResult, Caller, Reply, Response};
use crate::rules::veracity::convention::{
    self, ConventionCost, ConventionEdit, ConventionList, ConventionRef,
};
use crate::rules::veracity::{Event, Sheet};
use crate::storage::sessions::Status;
use crate::storage::{self, sessions::Session, Tx};

/// `channel_state` key of the Convention list.
pub const LIST_KEY: &str = "vr_conventions";
/// `channel_state` key of the board session id.
pub const BOARD_KEY: &str = "vr_board";

/// The Convention list of a channel (empty when never set).
pub async fn load(tx: &mut Tx, guild_id: i64, channel_id: i64) -> Result<ConventionList, AppError> {
    match storage::settings::channel_get(tx, guild_id, channel_id, LIST_KEY).await? {
        Some(json) => Ok(serde_json::from_str(&json)?),
        None => Ok(ConventionList::new()),
    }
}

async fn store(
    tx: &mut Tx,
    guild_id: i64,
    channel_id: i64,
    list: &ConventionList,
) -> Result<(), AppError> {
    let json = serde_json::to_string(list)?;
    storage::settings::channel_put(tx, guild_id, channel_id, LIST_KEY, &json, storage::now_ms())
        .await?;
    Ok(())
}

/// The channel's board session, created on first use (it never expires).
async fn board(tx: &mut Tx, caller: &Caller) -> Result<Session, AppError> {
    let (g, ch) = (caller.guild_id, caller.channel_id);
    let stored = storage::settings::channel_get(tx, g, ch, BOARD_KEY)
        .await?
        .and_then(|id| id.parse::<i64>().ok());
    if let Some(id) = stored {
        if let Some(session) = storage::sessions::get(tx, g, id).await? {
            if session.kind == KIND && session.status == Status::Open {
                return Ok(session);
            }
        }
    }
    let state = VrState::Board { channel: ch };
    let id = sessions::create(tx, caller, KIND, &state, None).await?;
    storage::settings::channel_put(tx, g, ch, BOARD_KEY, &id.to_string(), storage::now_ms())
        .await?;
    storage::sessions::get(tx, g, id)
        .await?
        .ok_or_else(|| AppError::Internal("board session vanished after insert".into()))
}

/// Bumps the board's version (old menus become stale) and returns it.
async fn bump(tx: &mut Tx, session: &Session) -> Result<i64, AppError> {
    let state: VrState = sessions::load(session)?;
    sessions::save(tx, session, &state, Status::Open, None).await
}

/// Names of the characters who paid "once per scene" Conventions.
pub async fn names(
    tx: &mut Tx,
    guild_id: i64,
    list: &ConventionList,
) -> Result<HashMap<i64, String>, AppError> {
    let mut out = HashMap::new();
    for c in list.items() {
        for id in &c.paid_this_scene {
            if out.contains_key(id) {
                continue;
            }
            if let Some(row) = storage::characters::get(tx, guild_id, *id).await? {
                out.insert(*id, row.name);
            }
        }
    }
    Ok(out)
}

/// The board view of a channel as stored (for stale clicks).
pub async fn board_view_of(
    tx: &mut Tx,
    guild_id: i64,
    channel_id: i64,
    session: &Session,
) -> Result<View, AppError> {
    let list = load(tx, guild_id, channel_id).await?;
    let names = names(tx, guild_id, &list).await?;
    Ok(render::board_view(
        session.id,
        session.version,
        &list,
        &names,
        None,
    ))
}

/// `extra` embeds first, then the board with its menu.
fn with_board(
    extra: Vec<Embed>,
    id: i64,
    version: i64,
    list: &ConventionList,
    names: &HashMap<i64, String>,
    note: Option<&str>,
) -> View {
    let mut v = render::board_view(id, version, list, names, note);
    let mut embeds = extra;
    embeds.append(&mut v.embeds);
    v.embeds = embeds;
    v
}

/// One FC change of the list, saved with a new board version.
async fn change(
    app: &App,
    caller: &Caller,
    log_action: &str,
    inputs: impl serde::Serialize,
    f: impl FnOnce(&mut ConventionList) -> Result<String, AppError>,
) -> AppResult {
    let mut tx = Act::begin(app, caller).await?;
    rights::require_gm(&mut tx, caller, super::GM, "declare or change Conventions").await?;
    let mut list = load(&mut tx, caller.guild_id, caller.channel_id).await?;
    let note = f(&mut list)?;
    store(&mut tx, caller.guild_id, caller.channel_id, &list).await?;
    let session = board(&mut tx, caller).await?;
    let version = bump(&mut tx, &session).await?;
    record(
        &mut tx,
        caller,
        log_action,
        Some(session.id),
        None,
        &inputs,
        &[],
    )
    .await?;
    let names = names(&mut tx, caller.guild_id, &list).await?;
    tx.commit().await?;
    Ok(Response::message(render::board_view(
        session.id,
        version,
        &list,
        &names,
        Some(&note),
    )))
}

fn clean_text(app: &App, text: &str) -> Result<String, AppError> {
    target::text(app, "A Convention", text)
}

/// `/vr convention add` (FC).
pub async fn add(app: &App, caller: &Caller, text: &str, cost: &str, once: bool) -> AppResult {
    let text = clean_text(app, text)?;
    let cost: ConventionCost = cost.parse()?;
    change(
        app,
        caller,
        "convention_add",
        super::record::ConventionAdded {
            text: text.clone(),
            cost,
            once_per_scene: once,
        },
        |list| {
            list.add(&text, cost, once)?;
            Ok(format!(
                "➕ Convention {} declared ({cost} Stress).",
                list.items().len()
            ))
        },
    )
    .await
}

/// `/vr convention edit` (FC): any of text, cost and "once per scene".
pub async fn edit(
    app: &App,
    caller: &Caller,
    number: usize,
    text: Option<&str>,
    cost: Option<&str>,
    once: Option<bool>,
) -> AppResult {
    let edit = ConventionEdit {
        text: text.map(|t| clean_text(app, t)).transpose()?,
        cost: cost.map(str::parse::<ConventionCost>).transpose()?,
        once_per_scene: once,
    };
    if edit == ConventionEdit::default() {
        return Err(AppError::user(
            "Say what to change: `text`, `cost` or `once`.",
        ));
    }
    change(
        app,
        caller,
        "convention_edit",
        super::record::ConventionEdited {
            number,
            edit: edit.clone(),
        },
        |list| {
            list.edit(ConventionRef::Index(number), edit.clone())?;
            Ok(format!("✏️ Convention {number} changed."))
        },
    )
    .await
}

/// `/vr convention remove` (FC).
pub async fn remove(app: &App, caller: &Caller, number: usize) -> AppResult {
    change(
        app,
        caller,
        "convention_remove",
        super::record::ConventionRemoved { number },
        |list| {
            let c = list.remove(ConventionRef::Index(number))?;
            let mut t = c.text;
            crate::app::view::truncate(&mut t, 80);
            Ok(format!("✖️ Convention {number} removed: *{t}*"))
        },
    )
    .await
}

/// `/vr convention list`: posts the board (anyone).
pub async fn list(app: &App, caller: &Caller) -> AppResult {
    let mut tx = Act::begin(app, caller).await?;
    let session = board(&mut tx, caller).await?;
    let view = board_view_of(&mut tx, caller.guild_id, caller.channel_id, &session).await?;
    tx.commit().await?;
    Ok(Response::message(view))
}

/// Applies a violation to a loaded sheet and the list; saves both, bumps
/// the board and logs. Returns the change embed and the new board version.
async fn apply_violation(
    app: &App,
    tx: &mut Tx,
    caller: &Caller,
    r: ConventionRef,
    mut c: Loaded<Sheet>,
    session: &Session,
    list: &mut ConventionList,
) -> Result<(Embed, i64), AppError> {
    let channel_id = session.channel_id;
    let settings = target::settings(tx, caller.guild_id).await?;
    let events: Vec<Event> = convention::violate(
        list,
        r,
        c.row.id,
        &mut c.sheet,
        &settings,
        &mut app.rng.fork(),
    )?;
    characters::save(tx, &mut c).await?;
    store(tx, caller.guild_id, channel_id, list).await?;
    let version = bump(tx, session).await?;
    record(
        tx,
        caller,
        "convention_violate",
        Some(session.id),
        Some(c.row.id),
        &super::record::ConventionViolated {
            convention: r,
            channel: channel_id,
        },
        &events,
    )
    .await?;
    let embed = render::change_embed(c.name(), "violates a Convention", &c.sheet, &events);
    Ok((embed, version))
}

/// `/vr convention violate`: the caller's (or, for the FC, `player`'s)
/// active sheet gains the Convention's Stress.
pub async fn violate(app: &App, caller: &Caller, number: usize, player: Pick<'_>) -> AppResult {
    let mut tx = Act::begin(app, caller).await?;
    let c = sheet_for(&mut tx, caller, player).await?;
    let mut list = load(&mut tx, caller.guild_id, caller.channel_id).await?;
    let session = board(&mut tx, caller).await?;
    let (embed, version) = apply_violation(
        app,
        &mut tx,
        caller,
        ConventionRef::Index(number),
        c,
        &session,
        &mut list,
    )
    .await?;
    let names = names(&mut tx, caller.guild_id, &list).await?;
    tx.commit().await?;
    Ok(Response::message(with_board(
        vec![embed],
        session.id,
        version,
        &list,
        &names,
        None,
    )))
}

/// The "Violated a Convention…" menu: the clicker's active sheet pays.
pub async fn violate_click(
    app: &App,
    mut tx: Act,
    session: Session,
    click: &Click<'_>,
    channel_id: i64,
) -> AppResult {
    let caller = click.caller;
    let id: u32 = click
        .values
        .first()
        .and_then(|v| v.parse().ok())
        .ok_or_else(|| AppError::user("Pick a Convention in the menu."))?;
    let c = sheet_for(&mut tx, caller, Pick::active()).await?;
    let mut list = load(&mut tx, caller.guild_id, channel_id).await?;
    let (embed, version) = apply_violation(
        app,
        &mut tx,
        caller,
        ConventionRef::Id(id),
        c,
        &session,
        &mut list,
    )
    .await?;
    let names = names(&mut tx, caller.guild_id, &list).await?;
    tx.commit().await?;
    Ok(
        Response::update(render::board_view(session.id, version, &list, &names, None))
            .then(Reply::Message(View::embed(embed))),
    )
}

/// `/vr scene end` (FC): clears this channel's "once per scene" marks and
/// restores every Veracity sheet's HP in the guild.
pub async fn end_scene(app: &App, caller: &Caller) -> AppResult {
    let mut tx = Act::begin(app, caller).await?;
    rights::require_gm(&mut tx, caller, super::GM, "end the scene").await?;
    let mut list = load(&mut tx, caller.guild_id, caller.channel_id).await?;
    let marks: usize = list.items().iter().map(|c| c.paid_this_scene.len()).sum();
    list.end_scene();
    store(&mut tx, caller.guild_id, caller.channel_id, &list).await?;
    let session = board(&mut tx, caller).await?;
    let version = bump(&mut tx, &session).await?;
    let rows = storage::characters::list(&mut tx, caller.guild_id, SYSTEM, None, 1000).await?;
    let mut restored = Vec::new();
    for row in rows {
        let sheet: Sheet = serde_json::from_str(&row.sheet)?;
        if sheet.hp_current() == sheet.hp_max() {
            continue;
        }
        let mut c = Loaded { row, sheet };
        let before = c.sheet.hp_current();
        c.sheet.end_scene();
        characters::save(&mut tx, &mut c).await?;
        restored.push((c.row.id, c.row.name.clone(), before, c.sheet.hp_max()));
    }
    record(
        &mut tx,
        caller,
        "end_scene",
        Some(session.id),
        None,
        &super::record::SceneEnded {
            channel: caller.channel_id,
        },
        &[],
    )
    .await?;
    tx.commit().await?;
    let hp = if restored.is_empty() {
        "Every sheet already has full HP.".to_string()
    } else {
        let lines: Vec<(String, String)> = restored
            .iter()
            .map(|(_, n, b, m)| (format!("❤️ {b} → **{m}** "), n.clone()))
            .collect();
        render::fit_lines(&lines, 1000)
    };
    let scene = Embed::new("🎬 The scene ends")
        .description(format!(
            "Once-per-scene marks cleared: **{marks}**. All HP returns."
        ))
        .field("HP restored", hp, false)
        .colour(crate::app::view::colour::NEUTRAL);
    Ok(Response::message(with_board(
        vec![scene],
        session.id,
        version,
        &list,
        &HashMap::new(),
        None,
    )))
}
