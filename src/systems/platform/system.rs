//! How the platform features register with the application layer: `/roll
//! history` paging owns sessions of its own ([`super::history::KIND`]); the
//! commands (`/history`, `/stats`, `/odds`, `/help`) come along.

use crate::app::component::Click;
use crate::app::registry::{BoxFuture, System};
use crate::app::Act;
use crate::app::{App, AppError, AppResult, Caller, View};
use crate::storage::sessions::Session;

/// The roll log's pages, as a registered (not playable) system.
pub struct HistoryFeature;

impl System for HistoryFeature {
    fn id(&self) -> &'static str {
        "history"
    }

    fn name(&self) -> &'static str {
        "Roll history"
    }

    fn playable(&self) -> bool {
        false
    }

    fn session_kinds(&self) -> &'static [&'static str] {
        &[super::history::KIND]
    }

    fn click<'a>(
        &'a self,
        app: &'a App,
        tx: Act,
        session: Session,
        click: &'a Click<'a>,
    ) -> BoxFuture<'a, AppResult> {
        Box::pin(super::history::click(app, tx, session, click))
    }

    fn render<'a>(
        &'a self,
        app: &'a App,
        session: &'a Session,
        caller: &'a Caller,
    ) -> BoxFuture<'a, Result<View, AppError>> {
        Box::pin(super::history::render(app, session, caller))
    }
}

/// The registration: the history feature and the platform's commands.
pub fn entry() -> crate::systems::Entry {
    crate::systems::Entry {
        system: Some(std::sync::Arc::new(HistoryFeature)),
        commands: super::commands::all,
        finish: Some(super::commands::finish),
        odds: None,
    }
}
