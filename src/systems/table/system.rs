//! How the shared table features register with the application layer:
//! their deletion prompts are sessions of their own kind
//! ([`super::delete::KIND`]), and so are `/fc undo`'s prompts
//! ([`super::undo::KIND`]); their commands are grafted onto each system's
//! `/<root> sheet` by [`crate::systems::commands`], so they list none here.

use crate::app::component::Click;
use crate::app::registry::{BoxFuture, System};
use crate::app::{Act, App, AppError, AppResult, Caller, View};
use crate::storage::sessions::Session;

/// The shared table features, as a registered (not playable) system.
pub struct TableFeature;

impl System for TableFeature {
    fn id(&self) -> &'static str {
        "table"
    }

    fn name(&self) -> &'static str {
        "Table"
    }

    fn playable(&self) -> bool {
        false
    }

    fn session_kinds(&self) -> &'static [&'static str] {
        &[
            super::delete::KIND,
            super::undo::KIND,
            super::approval::KIND,
        ]
    }

    fn click<'a>(
        &'a self,
        app: &'a App,
        tx: Act,
        session: Session,
        click: &'a Click<'a>,
    ) -> BoxFuture<'a, AppResult> {
        if session.kind == super::undo::KIND {
            return Box::pin(super::undo::click(app, tx, session, click));
        }
        if session.kind == super::approval::KIND {
            return Box::pin(super::approval::click(app, tx, session, click));
        }
        Box::pin(super::delete::click(app, tx, session, click))
    }

    fn render<'a>(
        &'a self,
        app: &'a App,
        session: &'a Session,
        caller: &'a Caller,
    ) -> BoxFuture<'a, Result<View, AppError>> {
        if session.kind == super::undo::KIND {
            return Box::pin(super::undo::render(app, session, caller));
        }
        if session.kind == super::approval::KIND {
            return Box::pin(std::future::ready(super::approval::render(session)));
        }
        Box::pin(std::future::ready(super::delete::render(app, session)))
    }
}

/// The registration: the feature, with no commands of its own.
pub fn entry() -> crate::systems::Entry {
    crate::systems::Entry {
        system: Some(std::sync::Arc::new(TableFeature)),
        commands: Vec::new,
        finish: None,
        odds: None,
    }
}
