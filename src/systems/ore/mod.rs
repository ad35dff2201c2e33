//! Virtual Veil (004, the One-Roll Engine) at the table: `/vv …`.
//!
//! Application logic on top of [`crate::rules::ore`]; no serenity here
//! (only [`commands`] touches poise). Sheets live in the shared
//! `characters` table (system `ore`), interactive messages in `sessions`
//! (kind `vv`), settings in the guild's `ore` scope.
//!
//! Module map:
//! - [`sheet`]: creating, showing and editing sheets.
//! - [`roll`]: a stat roll and its register (sets, cache, load, Minor, Close).
//! - [`buttons`]: every button's action word and argument, typed (encode and parse).
//! - [`roll_click`]: clicks on a roll (who may press, Basic, Discard, Close).
//! - [`menu`]: a roll's selects (open, page, pick cache or register dice).
//! - [`discard`]: reading a discard choice; the discard click on a report.
//! - [`comp`]: boot, logout and battery.
//! - [`damage`]: damage, the End phase, end of combat, healing, Cyber repair.
//! - [`order`]: Outthink and Initiative orders for the Compiler.
//! - [`combat`], [`combat_buttons`], [`combat_view`]: the combat tracker
//!   (`/vv combat …`, a session of kind `vvc`).
//! - [`governed`]: the changes `player_edits` leaves to the Compiler (tracks,
//!   healing, repair, damage, dice-count overrides).
//! - [`report`]: reports that may need a cache discard (overflow prompt).
//! - [`text`]: shared wording (events, faces, chances).
//! - [`faces`]: the dice each action threw, for `/stats`.
//! - [`help`]: its `/help` topic.
//! - [`commands`]: the thin poise commands.

pub mod buttons;
pub mod combat;
pub mod combat_buttons;
pub mod combat_view;
pub mod commands;
pub mod comp;
pub mod context;
pub mod damage;
pub mod discard;
pub mod faces;
pub mod governed;
pub mod held;
pub mod help;
pub mod history;
pub mod menu;
pub mod odds;
pub mod order;
pub mod record;
pub mod report;
pub mod roll;
pub mod roll_click;
pub mod sheet;
pub mod text;

use serde::{Deserialize, Serialize};

use crate::app::characters::Loaded;
use crate::app::component::Click;
use crate::app::games::Place;
use crate::app::registry::{Governed, HelpTopic};
use crate::app::view::View;
use crate::app::Act;
use crate::app::{settings as app_settings, App, AppError, AppResult, Caller};
use crate::rules::ore::{OreSettings, OreSheet};
use crate::rules::RuleError;
use crate::storage::characters::Character;
use crate::storage::log::LogEntry;
use crate::storage::{self, sessions::Session, Tx};
use crate::systems::game::{Feature, Game};
use crate::systems::platform::odds::Odds;
use crate::systems::Command;

pub use context::Ore;

/// The session kind (custom_id prefix) of every Virtual Veil message.
pub const KIND: &str = "vv";
/// The system name in `characters`, settings scopes and the log.
pub const SYSTEM: &str = "ore";

/// What the rules call the game master: the Compiler (the seed's game master).
pub const GM: &str = "Compiler";
/// Tells a member how to get a sheet.
pub const HINT: &str = "create one with `/vv sheet create`.";
/// The most dice one action may generate in all (rolls, error dice, tie re-rolls).
pub const MAX_GENERATED: usize = 2000;
/// The most damage one command deals.
pub const MAX_DAMAGE: i64 = 999;

/// Damage as typed, checked: 1 to [`MAX_DAMAGE`].
pub fn damage_amount(amount: i64) -> Result<u32, AppError> {
    u32::try_from(amount)
        .ok()
        .filter(|a| (1..=MAX_DAMAGE as u32).contains(a))
        .ok_or_else(|| AppError::user(format!("Damage must be from 1 to {MAX_DAMAGE}.")))
}

/// True if the events end a COMP session (VV-8, VV-13).
pub fn logged_out(events: &[crate::rules::ore::OreEvent]) -> bool {
    events
        .iter()
        .any(|e| matches!(e, crate::rules::ore::OreEvent::LoggedOut { .. }))
}

/// What a `vv` session holds.
#[derive(Debug, Clone, Serialize, Deserialize)]
#[serde(tag = "type", rename_all = "snake_case")]
#[allow(clippy::large_enum_variant)] // stored as JSON; a roll is the usual state
pub enum VvState {
    /// A stat roll with its register.
    Roll(roll::RollState),
    /// A report (boot, damage, …) waiting for a cache discard.
    Report(report::ReportState),
}

/// Decodes a stored row into a sheet.
pub fn decode(row: storage::characters::Character) -> Result<Loaded<OreSheet>, AppError> {
    let sheet = serde_json::from_str(&row.sheet)?;
    Ok(Loaded { row, sheet })
}

/// A character of the guild by id (for sessions).
pub async fn by_id(tx: &mut Tx, guild_id: i64, id: i64) -> Result<Loaded<OreSheet>, AppError> {
    let row = storage::characters::get(tx, guild_id, id)
        .await?
        .filter(|r| r.system == SYSTEM)
        .ok_or_else(|| AppError::user("That character no longer exists."))?;
    decode(row)
}

/// The house rules a stored `vv` session is drawn under: those where its
/// message lives (a game's own in its channels and their threads), not
/// those where the action that redraws it happens.
pub async fn settings_of(tx: &mut Tx, session: &Session) -> Result<OreSettings, AppError> {
    app_settings::scoped_at(tx, session.guild_id, Place::of(session), SYSTEM).await
}

/// Checks a free-text option against the configured limit.
pub fn check_text(app: &App, what: &str, text: Option<&str>) -> Result<Option<String>, AppError> {
    let Some(t) = text.map(str::trim).filter(|t| !t.is_empty()) else {
        return Ok(None);
    };
    let max = app.config.limits.max_text_len;
    if t.chars().count() > max {
        return Err(AppError::user(format!(
            "The {what} can be at most {max} characters."
        )));
    }
    if t.chars().any(char::is_control) {
        return Err(AppError::user(format!(
            "The {what} cannot contain control characters."
        )));
    }
    Ok(Some(t.to_string()))
}

/// Virtual Veil as a game at the table: its contract with the registry
/// (its pipeline [`crate::app::pipeline::Scope`] is in [`context`]).
impl Feature for Ore {
    const ID: &'static str = SYSTEM;
    const NAME: &'static str = "Virtual Veil";
    const ALIASES: &'static [&'static str] = &["vv", "virtualveil", "vv ore", "one roll engine"];
    const ROOT: Option<&'static str> = Some("vv");
    const KINDS: &'static [&'static str] = &[KIND, combat::KIND];
    const HELP: &'static [HelpTopic] = help::TOPICS;
    const COMMANDS: fn() -> Vec<Command> = commands::all;
    const ODDS: Option<fn() -> Odds> = Some(odds::odds);
    const HISTORY_LINE: fn(&LogEntry) -> Option<String> = history::line;
    type Game = Self;

    /// Routes a checked click on a `vv` message.
    async fn click(app: &App, tx: Act, session: Session, click: &Click<'_>) -> AppResult {
        if session.kind == combat::KIND {
            return combat::click(app, tx, session, click).await;
        }
        let state: VvState = crate::app::sessions::load(&session)?;
        match state {
            VvState::Roll(s) => roll_click::click(app, tx, session, s, click).await,
            VvState::Report(s) => discard::click(app, tx, session, s, click).await,
        }
    }

    /// The message of a stored `vv` session as it stands.
    async fn render(app: &App, session: &Session, _caller: &Caller) -> Result<View, AppError> {
        if session.kind == combat::KIND {
            return combat::render(app, session).await;
        }
        let state: VvState = crate::app::sessions::load(session)?;
        let mut tx = app.db.read().await?;
        let settings = settings_of(&mut tx, session).await?;
        let (id, version, status) = (session.id, session.version, session.status);
        // The roller's sheet now, if it still exists.
        Ok(match &state {
            VvState::Roll(s) => {
                let held = held::Held::load(&mut tx, session.guild_id, s.whose).await;
                let sheet = held.as_ref().ok().map(held::Held::sheet);
                roll::view(id, version, status, s, sheet)
            }
            VvState::Report(s) => {
                let ch = by_id(&mut tx, session.guild_id, s.character).await;
                let sheet = ch.as_ref().ok().map(|c| &c.sheet);
                report::view(id, version, status, s, sheet, &settings)
            }
        })
    }
}

/// The game side of Ore: its game master, governed changes and sheets.
impl Game for Ore {
    const GM: &'static str = GM;
    const GOVERNED: &'static [Governed] = governed::LIST;
    type Change = governed::Edit;

    fn checked_sheet(
        sheet: OreSheet,
        _name: &str,
        _settings: &OreSettings,
    ) -> Result<OreSheet, RuleError> {
        sheet.validate()?;
        Ok(sheet)
    }

    /// The card the shared `/vv sheet show` posts: the sheet under the
    /// house rules where it is shown (a game's own in its channels).
    async fn sheet_card(act: &mut Act, row: &Character) -> Result<View, AppError> {
        let caller = act.caller().clone();
        let settings: OreSettings = app_settings::scoped_here(act, &caller, SYSTEM).await?;
        let ch = decode(row.clone())?;
        Ok(View::embed(sheet::sheet_embed(&ch, &settings)))
    }
}
