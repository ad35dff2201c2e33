//! The Storyteller d10 rules at the table (`/st …`).
//!
//! Application logic on top of [`crate::rules::storyteller`]; no serenity
//! here (only [`commands`] touches poise).
//!
//! Module map:
//! - [`context`]: what every action loads first (settings, storyteller status, the
//!   character acted on, with the rights check).
//! - [`sheets`]: `/st sheet …` (create, show, set, specialty, trait,
//!   willpower, wounds, use) and the sheet card with its
//!   "Ignore wound penalty" button.
//! - [`sheet_view`]: how a sheet looks (pure).
//! - [`rolls`]: `/st roll`, `/st pool`, `/st willpower`, `/st rest`.
//! - [`state`]: what a roll's session keeps (shared by actions and view).
//! - [`buttons`]: every button's action word, typed (encode and parse).
//! - [`decide`]: the willpower roll's buttons (Spend willpower, Keep, Void).
//! - [`roll_view`]: how a roll looks (pure): dice, bonus generations,
//!   threshold, botches, outcome and odds, summarised when long.
//! - [`recovery`]: `/st turn`, `/st recover`, `/st revive`.
//! - [`record`]: the typed roll-log records (`inputs`, `dice`, `outcome`).
//! - [`complete`]: autocomplete suggestions (traits, specialties, settings).
//! - [`help`]: its `/help` topic.
//! - [`commands`]: the thin poise commands.

pub mod buttons;
pub mod commands;
pub mod complete;
pub mod context;
pub mod decide;
pub mod governed;
pub mod help;
pub mod history;
pub mod odds;
pub mod record;
pub mod recovery;
pub mod roll_view;
pub mod rolls;
pub mod sheet_view;
pub mod sheets;
pub mod state;

use crate::app::characters::Loaded;
use crate::app::component::Click;
use crate::app::registry::{Governed, HelpTopic};
use crate::app::{sessions, Act};
use crate::app::{App, AppError, AppResult, Caller, View};
use crate::rules::storyteller::StorytellerSheet;
use crate::rules::RuleError;
use crate::storage::characters::Character;
use crate::storage::log::LogEntry;
use crate::storage::sessions::Session;
use crate::systems::game::{Feature, Game};
use crate::systems::platform::odds::Odds;
use crate::systems::Command;

pub use context::Storyteller;
use state::CardState;

/// The system's name in the `characters` table, settings scope and roll log.
pub const SYSTEM: &str = "storyteller";

/// What the rules call the game master: the storyteller (the seed's game master).
pub const GM: &str = "storyteller";
/// The session kind of rolls (custom_id prefix).
pub const KIND: &str = "st";
/// The session kind of sheet cards (custom_id prefix).
pub const SHEET_KIND: &str = "st_sheet";
/// Told to players without a character.
pub const HINT: &str = "create one with `/st sheet create`.";

/// Storyteller as a game at the table: its contract with the registry
/// (its pipeline [`crate::app::pipeline::Scope`] is in [`context`]).
impl Feature for Storyteller {
    const ID: &'static str = SYSTEM;
    const NAME: &'static str = "Storyteller";
    const ALIASES: &'static [&'static str] = &["st", "storyteller d10"];
    const ROOT: Option<&'static str> = Some("st");
    const KINDS: &'static [&'static str] = &[KIND, SHEET_KIND];
    const HELP: &'static [HelpTopic] = help::TOPICS;
    const COMMANDS: fn() -> Vec<Command> = commands::all;
    const ODDS: Option<fn() -> Odds> = Some(odds::odds);
    const HISTORY_LINE: fn(&LogEntry) -> Option<String> = history::line;
    type Game = Self;

    /// Routes a checked click on one of this system's sessions.
    async fn click(app: &App, tx: Act, session: Session, click: &Click<'_>) -> AppResult {
        match session.kind.as_str() {
            SHEET_KIND => sheets::click(app, tx, session, click).await,
            _ => decide::click(app, tx, session, click).await,
        }
    }

    /// Renders one of this system's sessions as it stands.
    async fn render(app: &App, session: &Session, _caller: &Caller) -> Result<View, AppError> {
        let mut tx = app.db.read().await?;
        match session.kind.as_str() {
            SHEET_KIND => sheets::render(&mut tx, session).await,
            _ => rolls::render(&mut tx, session).await,
        }
    }
}

/// The game side of Storyteller: its game master, governed changes and sheets.
impl Game for Storyteller {
    const GM: &'static str = GM;
    const GOVERNED: &'static [Governed] = governed::LIST;
    type Change = governed::Edit;

    fn checked_sheet(
        sheet: StorytellerSheet,
        _name: &str,
        _settings: &Self::Settings,
    ) -> Result<StorytellerSheet, RuleError> {
        sheet.validate()?;
        Ok(sheet)
    }

    /// The card the shared `/st sheet show` posts (a session opened in the
    /// action's transaction, so its button survives restarts).
    async fn sheet_card(act: &mut Act, row: &Character) -> Result<View, AppError> {
        let c = context::checked(Loaded {
            sheet: serde_json::from_str(&row.sheet)?,
            row: row.clone(),
        })?;
        let caller = act.caller().clone();
        let state = CardState {
            character_id: c.row.id,
        };
        let id = sessions::create(act, &caller, SHEET_KIND, &state, None).await?;
        Ok(sheets::card(id, 0, &c))
    }
}
