//! The registry of game systems at the table.
//!
//! Each system lives in one folder here (its application logic and its thin
//! slash commands) on top of its pure core in [`crate::rules`]. Adding a
//! system means one new folder and one line in each `match`/list below.

pub mod dice;
pub mod fc;
pub mod ore;
pub mod platform;
pub mod storyteller;
pub mod venus;
pub mod veracity;

use crate::app::component::Click;
use crate::app::{App, AppError, AppResult, Caller, View};
use crate::kit::{Data, Error};
use crate::storage::{sessions::Session, Tx};

/// Every slash command of every system.
pub fn commands() -> Vec<poise::Command<Data, Error>> {
    let mut all = Vec::new();
    all.extend(dice::commands::all());
    all.extend(veracity::commands::all());
    all.extend(storyteller::commands::all());
    all.extend(ore::commands::all());
    all.extend(platform::commands::all());
    all.extend(venus::commands::all());
    all.extend(fc::commands::all());
    all
}

/// Routes a checked click to the system that owns the session.
pub async fn click(app: &App, tx: Tx, session: Session, click: &Click<'_>) -> AppResult {
    match session.kind.as_str() {
        dice::KIND => dice::click(app, tx, session, click).await,
        veracity::KIND => veracity::click(app, tx, session, click).await,
        storyteller::KIND | storyteller::SHEET_KIND => {
            storyteller::click(app, tx, session, click).await
        }
        ore::KIND => ore::click(app, tx, session, click).await,
        platform::history::KIND => platform::history::click(app, tx, session, click).await,
        venus::KIND => venus::click(app, tx, session, click).await,
        other => Err(AppError::Internal(format!(
            "no system owns sessions of kind `{other}`"
        ))),
    }
}

/// Renders a session's message as it stands (for stale, closed or expired
/// sessions); buttons are disabled unless the session is open.
pub async fn render(app: &App, session: &Session, caller: &Caller) -> Result<View, AppError> {
    let view = match session.kind.as_str() {
        dice::KIND => dice::render(app, session, caller),
        veracity::KIND => veracity::render(app, session, caller).await,
        storyteller::KIND | storyteller::SHEET_KIND => {
            storyteller::render(app, session, caller).await
        }
        ore::KIND => ore::render(app, session, caller).await,
        platform::history::KIND => platform::history::render(app, session, caller).await,
        venus::KIND => venus::render(app, session, caller),
        other => Err(AppError::Internal(format!(
            "no system owns sessions of kind `{other}`"
        ))),
    }?;
    Ok(if session.status == "open" {
        view
    } else {
        view.disable_all()
    })
}
