//! Veracity (002) at the table: Light/Flesh slot sheets, saves, Stress,
//! Breaks, Wounds, Facets, revelations and the channel's Conventions.
//!
//! Every action, command or click, goes through the action pipeline
//! ([`crate::app::pipeline`]): a turn loads the sheet (or the channel's
//! Convention list), the action calls the rules core in
//! [`crate::rules::veracity`] and returns an outcome, and the pipeline
//! saves, logs, commits and redraws (the running fight too, [`context`]).
//! Refusals return before anything is written, so nothing changes.
//!
//! Module map:
//! - [`context`]: Veracity's scope in the action pipeline, and how a
//!   running fight follows the sheets it seats.
//! - [`target`]: whose sheet an action touches, rights, settings, parsing.
//! - [`render`]: slot grids, sheet, change, save and Convention embeds.
//! - [`sheets`]: creating, showing and editing sheets (items, Facets, HP).
//! - [`changes`]: Stress, Wounds, damage, rest, revelations, acting against a Facet.
//! - [`saves`]: the d20 slot save.
//! - [`conventions`]: the channel's Conventions, violations and the end of a scene.
//! - [`history`]: one readable `/history` line per logged action.
//! - [`governed`]: the changes `player_edits` governs (the referee's).
//! - [`Veracity`]'s [`Feature`] and [`Game`] implementations below: its
//!   contract with the registry, routing the clicks on its messages and
//!   drawing them.
//! - [`state`]: what an interactive message shows (a sheet, a board or a
//!   revelation): one session kind (`vr`); a sheet's Rest buttons expire
//!   with the guild timeout, a Convention board never expires.
//! - [`help`]: its `/help` topic.
//! - [`buttons`]: every button's action word, typed (encode and parse).
//! - [`rest`]: a sheet's buttons (Rest, and what a pending Wound displaces).
//! - [`reveal`]: revelations waiting for the referee's judgement.
//! - [`combat`]: the combat tracker (a `vrc` session): side initiative,
//!   surprise, AP, fleeing, damage in a fight.
//! - [`combat_view`]: how the tracker looks; [`combat_buttons`]: its buttons.
//! - [`commands`]: the thin poise commands.

pub mod buttons;
pub mod changes;
pub mod combat;
pub mod combat_buttons;
pub mod combat_redraw;
pub mod combat_view;
pub mod commands;
pub mod context;
pub mod conventions;
pub mod governed;
pub mod help;
pub mod history;
pub mod odds;
pub mod record;
pub mod render;
pub mod rest;
pub mod reveal;
pub mod saves;
pub mod sheets;
pub mod state;
pub mod target;

use buttons::VrButton;
use state::VrState;

use crate::app::component::{Action, Click};
use crate::app::registry::{Governed, HelpTopic};
use crate::app::{sessions, Act, App, AppError, AppResult, Caller, View};
use crate::rules::veracity::{Sheet, VeracitySettings};
use crate::rules::RuleError;
use crate::storage;
use crate::storage::characters::Character;
use crate::storage::log::LogEntry;
use crate::storage::sessions::{Session, Status};
use crate::systems::game::{Feature, Game};
use crate::systems::platform::odds::Odds;
use crate::systems::Command;

pub use context::Veracity;

/// The session kind (custom_id prefix) of Veracity messages.
pub const KIND: &str = "vr";
/// The system name in the `characters` table, settings scope and log.
pub const SYSTEM: &str = "veracity";

/// What the rules call the game master: the referee (the seed's game master).
pub const GM: &str = "referee";
/// How to get a sheet, for refusals.
pub const HINT: &str = "create one with `/vr sheet create`.";

/// Veracity as a game at the table: its contract with the registry (its
/// pipeline [`crate::app::pipeline::Scope`] is in [`context`]).
impl Feature for Veracity {
    const ID: &'static str = SYSTEM;
    const NAME: &'static str = "Veracity";
    const ALIASES: &'static [&'static str] = &["vr"];
    const ROOT: Option<&'static str> = Some("vr");
    const KINDS: &'static [&'static str] = &[KIND, combat::KIND];
    const HELP: &'static [HelpTopic] = help::TOPICS;
    const COMMANDS: fn() -> Vec<Command> = commands::all;
    const ODDS: Option<fn() -> Odds> = Some(odds::odds);
    const HISTORY_LINE: fn(&LogEntry) -> Option<String> = history::line;
    type Game = Self;

    /// A checked click on a Veracity message.
    async fn click(app: &App, tx: Act, session: Session, click: &Click<'_>) -> AppResult {
        if session.kind == combat::KIND {
            return combat::click(app, tx, session, click).await;
        }
        let state: VrState = sessions::load(&session)?;
        let button: VrButton = click.action()?;
        match (state, button) {
            (VrState::Sheet { character }, VrButton::RestStress) => {
                rest::apply(app, tx, session, click.caller, character, true).await
            }
            (VrState::Sheet { character }, VrButton::RestWound) => {
                rest::apply(app, tx, session, click.caller, character, false).await
            }
            (VrState::Board { channel }, VrButton::Violate) => {
                conventions::violate_click(app, tx, session, click, channel).await
            }
            (VrState::Sheet { character }, VrButton::Displace(slot)) => {
                rest::displace(app, tx, session, click.caller, character, slot).await
            }
            (VrState::Reveal { .. }, VrButton::Reveal(judgement)) => {
                reveal::click(app, tx, session, click, judgement).await
            }
            (_, other) => Err(VrButton::unknown(other.encode().0)),
        }
    }

    /// A Veracity message as it stands now (for stale, expired or closed
    /// clicks).
    async fn render(app: &App, session: &Session, _caller: &Caller) -> Result<View, AppError> {
        if session.kind == combat::KIND {
            return combat::tracker_view(session);
        }
        let state: VrState = sessions::load(session)?;
        let mut tx = app.db.read().await?;
        match state {
            VrState::Sheet { character } => {
                let row = storage::characters::get(&mut tx, session.guild_id, character)
                    .await?
                    .ok_or_else(|| AppError::user("That sheet no longer exists."))?;
                let sheet: Sheet = serde_json::from_str(&row.sheet)?;
                Ok(render::sheet_view(
                    session.id,
                    session.version,
                    session.status == Status::Open,
                    &row.name,
                    &sheet,
                    None,
                ))
            }
            VrState::Board { channel } => {
                conventions::board_view_of(&mut tx, session.guild_id, channel, session).await
            }
            state @ VrState::Reveal { character, .. } => {
                let name = storage::characters::get(&mut tx, session.guild_id, character)
                    .await?
                    .map_or_else(|| "?".to_string(), |r| r.name);
                Ok(reveal::view(
                    session.id,
                    session.version,
                    session.status == Status::Open,
                    &name,
                    &state,
                ))
            }
        }
    }
}

/// The game side of Veracity: its game master, governed changes and sheets.
impl Game for Veracity {
    const GM: &'static str = GM;
    const GOVERNED: &'static [Governed] = governed::LIST;
    type Change = governed::Edit;

    /// Version 1: items had no identities (`id`); version 2 (issue 14)
    /// numbers them. A version-1 sheet is brought up by the sheet's own
    /// loader, which numbers the items of sheets stored before identities
    /// (`Sheet::number_items`), so its JSON is read as it is.
    const SHEET_VERSION: u32 = 2;

    fn checked_sheet(
        sheet: Sheet,
        _name: &str,
        _settings: &VeracitySettings,
    ) -> Result<Sheet, RuleError> {
        // Every check ran when the sheet was read (`Sheet`'s validating
        // loader, the one stored sheets go through).
        Ok(sheet)
    }

    /// The card the shared `/vr sheet show` posts: the sheet as a slot
    /// grid with its items, Facets and status, and buttons to rest (a
    /// session opened in the action's transaction, so they survive
    /// restarts).
    async fn sheet_card(act: &mut Act, row: &Character) -> Result<View, AppError> {
        let sheet: Sheet = serde_json::from_str(&row.sheet)?;
        let timeout = crate::app::settings::guild(act, row.guild_id)
            .await?
            .session_timeout_minutes;
        let caller = act.caller().clone();
        let state = VrState::Sheet { character: row.id };
        let id = sessions::create(act, &caller, KIND, &state, Some(timeout)).await?;
        Ok(render::sheet_view(id, 0, true, &row.name, &sheet, None))
    }
}
