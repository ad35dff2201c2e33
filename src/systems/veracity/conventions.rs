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

use super::context::{Outcome, Turn};
use super::render;
use super::state::VrState;
use super::target;
use super::KIND;
use crate::app::characters::{Access, Loaded};
use crate::app::component::Click;
use crate::app::pipeline::Shown;
use crate::app::view::{clean, Embed, View};
use crate::app::{sessions, Act, App, AppError, AppResult, Caller, Reply, Response};
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

/// The channel's board session, and whether this action made it.
struct Board {
    session: Session,
    made: bool,
}

/// The caller's channel's board, made on first use (it never expires;
/// kept as the channel's with the outcome, [`board_outcome`]).
async fn board(turn: &mut Turn<'_>) -> Result<Board, AppError> {
    let caller = turn.caller().clone();
    let (g, ch) = (caller.guild_id, caller.channel_id);
    let stored = storage::settings::channel_get(turn.tx(), g, ch, BOARD_KEY)
        .await?
        .and_then(|id| id.parse::<i64>().ok());
    if let Some(id) = stored {
        if let Some(session) = storage::sessions::get(turn.tx(), g, id).await? {
            if session.kind == KIND && session.status == Status::Open {
                return Ok(Board {
                    session,
                    made: false,
                });
            }
        }
    }
    let state = VrState::Board { channel: ch };
    let session = turn.open(KIND, &state, None).await?;
    Ok(Board {
        session,
        made: true,
    })
}

/// Keeps `value` under `key` in channel `channel`'s state, with the
/// outcome.
fn keep(out: Outcome, guild: i64, channel: i64, key: &'static str, value: String) -> Outcome {
    out.also(move |tx| {
        Box::pin(async move {
            let now = storage::now_ms();
            storage::settings::channel_put(tx, guild, channel, key, &value, now).await?;
            Ok(())
        })
    })
}

/// A board made now is kept as the channel's.
fn keep_made(out: Outcome, board: &Board) -> Outcome {
    if !board.made {
        return out;
    }
    let s = &board.session;
    keep(out, s.guild_id, s.channel_id, BOARD_KEY, s.id.to_string())
}

/// An outcome that stores `list` as the board's channel's, moves the
/// board's version on (older menus become stale) and is answered by
/// `answer` given the board as saved (with `note` under it, if any).
async fn board_outcome(
    turn: &mut Turn<'_>,
    board: Board,
    list: &ConventionList,
    note: Option<String>,
    answer: impl FnOnce(View) -> Response + Send + 'static,
) -> Result<Outcome, AppError> {
    let state: VrState = sessions::load(&board.session)?;
    let (guild, channel) = (board.session.guild_id, board.session.channel_id);
    let names = names(turn.tx(), guild, list).await?;
    let shown = list.clone();
    let draw = move |s: &Shown| {
        let board = render::board_view(s.id, s.version, &shown, &names, note.as_deref());
        answer(board)
    };
    let out = keep_made(Outcome::new(draw), &board);
    let out = keep(out, guild, channel, LIST_KEY, serde_json::to_string(list)?);
    Ok(out.save(board.session, &state, Status::Open, None))
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

/// One FC change of the list, saved with a new board version.
async fn change(
    app: &App,
    caller: &Caller,
    log_action: &str,
    inputs: impl serde::Serialize,
    f: impl FnOnce(&mut ConventionList) -> Result<String, AppError>,
) -> AppResult {
    let mut turn = Turn::begin(app, caller).await?;
    turn.require_gm(super::GM, "declare or change Conventions")?;
    let mut list = load(turn.tx(), caller.guild_id, caller.channel_id).await?;
    let note = f(&mut list)?;
    let board = board(&mut turn).await?;
    let log = target::entry(log_action, &inputs, &[]).on_session();
    let out = board_outcome(&mut turn, board, &list, Some(note), Response::message).await?;
    turn.finish(out.log(log)).await
}

fn clean_text(app: &App, text: &str) -> Result<String, AppError> {
    target::text(app, "A Convention", text)
}

/// `/vr-gm convention add` (FC).
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

/// `/vr-gm convention edit` (FC): any of text, cost and "once per scene".
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

/// `/vr-gm convention remove` (FC).
pub async fn remove(app: &App, caller: &Caller, number: usize) -> AppResult {
    change(
        app,
        caller,
        "convention_remove",
        super::record::ConventionRemoved { number },
        |list| {
            let c = list.remove(ConventionRef::Index(number))?;
            let t = super::render::italic(&c.text, 80);
            Ok(format!("✖️ Convention {number} removed: {t}"))
        },
    )
    .await
}

/// `/vr convention list`: posts the board (anyone).
pub async fn list(app: &App, caller: &Caller) -> AppResult {
    let mut turn = Turn::begin(app, caller).await?;
    let board = board(&mut turn).await?;
    let view = board_view_of(
        turn.tx(),
        caller.guild_id,
        caller.channel_id,
        &board.session,
    )
    .await?;
    let out = keep_made(Outcome::answer(Response::message(view)), &board);
    turn.finish(out).await
}

/// A violation of Convention `r` by `c`'s sheet, on `board`, whose
/// channel's `list` it is: the sheet gains the Stress, the list and the
/// board move on, and `answer` draws the reply from the change's embed and
/// the board as saved.
async fn violated(
    turn: &mut Turn<'_>,
    mut c: Loaded<Sheet>,
    mut list: ConventionList,
    board: Board,
    r: ConventionRef,
    answer: impl FnOnce(Embed, View) -> Response + Send + 'static,
) -> Result<Outcome, AppError> {
    let events: Vec<Event> = convention::violate(
        &mut list,
        r,
        c.row.id,
        &mut c.sheet,
        &turn.settings,
        &mut turn.rng(),
    )?;
    let violated = super::record::ConventionViolated {
        convention: r,
        channel: board.session.channel_id,
    };
    let log = target::entry("convention_violate", &violated, &events)
        .character(c.row.id)
        .on_session();
    let embed = render::change_embed(c.name(), "violates a Convention", &c.sheet, &events);
    let out = board_outcome(turn, board, &list, None, move |v| answer(embed, v)).await?;
    Ok(out.sheet(c).log(log))
}

/// `/vr convention violate`: the caller's (or, for the FC, `player`'s)
/// active sheet gains the Convention's Stress.
pub async fn violate(app: &App, caller: &Caller, number: usize, player: Pick<'_>) -> AppResult {
    let mut turn = Turn::begin(app, caller).await?;
    let c = turn.character(player, Access::Owner).await?;
    let list = load(turn.tx(), caller.guild_id, caller.channel_id).await?;
    let board = board(&mut turn).await?;
    let r = ConventionRef::Index(number);
    let out = violated(&mut turn, c, list, board, r, |embed, mut v| {
        v.embeds.insert(0, embed);
        Response::message(v)
    })
    .await?;
    turn.finish(out).await
}

/// The "Violated a Convention…" menu: the clicker's active sheet pays.
pub async fn violate_click(
    app: &App,
    tx: Act,
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
    let mut turn = Turn::click(app, tx, caller).await?;
    let c = turn.character(Pick::active(), Access::Owner).await?;
    let list = load(turn.tx(), caller.guild_id, channel_id).await?;
    let board = Board {
        made: false,
        session,
    };
    let r = ConventionRef::Id(id);
    let out = violated(&mut turn, c, list, board, r, |embed, v| {
        Response::update(v).then(Reply::Message(View::embed(embed)))
    })
    .await?;
    turn.finish(out).await
}

/// `/vr-gm scene end` (FC): clears this channel's "once per scene" marks and
/// restores every Veracity sheet's HP in the guild.
pub async fn end_scene(app: &App, caller: &Caller) -> AppResult {
    let mut turn = Turn::begin(app, caller).await?;
    turn.require_gm(super::GM, "end the scene")?;
    let mut list = load(turn.tx(), caller.guild_id, caller.channel_id).await?;
    let marks = list.end_scene();
    let board = board(&mut turn).await?;
    let mut restored = Vec::new();
    let mut sheets = Vec::new();
    for mut c in turn.every_character(1000).await? {
        if c.sheet.hp_current() == c.sheet.hp_max() {
            continue;
        }
        let before = c.sheet.hp_current();
        c.sheet.end_scene();
        restored.push((c.row.name.clone(), before, c.sheet.hp_max()));
        sheets.push(c);
    }
    let ended = super::record::SceneEnded {
        channel: caller.channel_id,
    };
    let log = target::entry("end_scene", &ended, &[]).on_session();
    let scene = scene_embed(marks, &restored);
    let out = board_outcome(&mut turn, board, &list, None, move |mut v| {
        v.embeds.insert(0, scene);
        Response::message(v)
    })
    .await?;
    let out = sheets.into_iter().fold(out, Outcome::sheet);
    turn.finish(out.log(log)).await
}

/// What the end of a scene did: the marks cleared, every HP restored
/// (name, before, now).
fn scene_embed(marks: usize, restored: &[(String, u32, u32)]) -> Embed {
    let hp = if restored.is_empty() {
        "Every sheet already has full HP.".to_string()
    } else {
        let lines: Vec<(String, String)> = restored
            .iter()
            .map(|(n, b, m)| (format!("❤️ {b} → **{m}** "), clean(n)))
            .collect();
        render::fit_lines(&lines, 1000)
    };
    Embed::new("🎬 The scene ends")
        .description(format!(
            "Once-per-scene marks cleared: **{marks}**. All HP returns."
        ))
        .field("HP restored", hp, false)
        .colour(crate::app::view::colour::NEUTRAL)
}
