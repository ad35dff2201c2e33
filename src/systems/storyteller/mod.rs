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
//! - [`commands`]: the thin poise commands.

pub mod buttons;
pub mod commands;
pub mod complete;
pub mod context;
pub mod decide;
pub mod governed;
pub mod history;
pub mod odds;
pub mod record;
pub mod recovery;
pub mod roll_view;
pub mod rolls;
pub mod sheet_view;
pub mod sheets;
pub mod state;
pub mod system;

use crate::app::component::Click;
use crate::app::Act;
use crate::app::{App, AppError, AppResult, Caller, View};
use crate::storage::sessions::Session;

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

/// Routes a checked click on one of this system's sessions.
pub async fn click(app: &App, tx: Act, session: Session, click: &Click<'_>) -> AppResult {
    match session.kind.as_str() {
        SHEET_KIND => sheets::click(app, tx, session, click).await,
        _ => decide::click(app, tx, session, click).await,
    }
}

/// Renders one of this system's sessions as it stands.
pub async fn render(app: &App, session: &Session, _caller: &Caller) -> Result<View, AppError> {
    let mut tx = app.db.read().await?;
    match session.kind.as_str() {
        SHEET_KIND => sheets::render(&mut tx, session).await,
        _ => rolls::render(&mut tx, session).await,
    }
}
