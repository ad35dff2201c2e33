//! How the platform features register with the application layer: `/roll
//! history` paging owns sessions of its own ([`super::history::KIND`]), and
//! so do the erasure questions of `/me forget` and `/fc forget`
//! ([`super::me::KIND`]); the commands (`/history`, `/stats`, `/odds`,
//! `/help`, `/me`) come along.

use crate::app::component::Click;
use crate::app::registry::{BoxFuture, System};
use crate::app::Act;
use crate::app::{App, AppError, AppResult, Caller, View};
use crate::storage::sessions::Session;

use super::ID;

/// The roll log's pages, as a registered (not playable) system.
pub struct HistoryFeature;

impl System for HistoryFeature {
    fn id(&self) -> &'static str {
        ID
    }

    fn name(&self) -> &'static str {
        "Roll history"
    }

    fn playable(&self) -> bool {
        false
    }

    fn session_kinds(&self) -> &'static [&'static str] {
        &[super::history::KIND, super::me::KIND]
    }

    fn click<'a>(
        &'a self,
        app: &'a App,
        tx: Act,
        session: Session,
        click: &'a Click<'a>,
    ) -> BoxFuture<'a, AppResult> {
        if session.kind == super::me::KIND {
            return Box::pin(super::me::click(app, tx, session, click));
        }
        Box::pin(super::history::click(app, tx, session, click))
    }

    fn render<'a>(
        &'a self,
        app: &'a App,
        session: &'a Session,
        caller: &'a Caller,
    ) -> BoxFuture<'a, Result<View, AppError>> {
        if session.kind == super::me::KIND {
            return Box::pin(std::future::ready(super::me::render(session)));
        }
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
