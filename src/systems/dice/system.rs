//! How Generic dice registers with the application layer: its names, session
//! kinds, house rules, help and entry points ([`crate::app::registry`]).

use crate::app::component::Click;
use crate::app::registry::{BoxFuture, HelpTopic, System};
use crate::app::{App, AppError, AppResult, Caller, View};
use crate::storage::sessions::Session;
use crate::app::Act;

/// Generic dice as a registered system.
pub struct DiceSystem;

impl System for DiceSystem {
    fn id(&self) -> &'static str {
        "roll"
    }

    fn name(&self) -> &'static str {
        "Dice"
    }

    fn aliases(&self) -> &'static [&'static str] {
        &["generic", "generic dice"]
    }

    fn command_root(&self) -> Option<&'static str> {
        Some("roll")
    }

    fn playable(&self) -> bool {
        false
    }

    fn session_kinds(&self) -> &'static [&'static str] {
        &[super::KIND]
    }

    fn help(&self) -> &'static [HelpTopic] {
        &[
    HelpTopic {
        label: "Generic dice",
        title: "Generic dice",
        odds: &[],
        summary: &[
                    ("How to write dice", "`NdS` rolls N dice of S sides (`d20` is one die); add or subtract dice and numbers: `3d6+2`, `d20-1`, `2d8+1d6`. `kh3`/`kl1` keep the highest three / lowest one (`4d6kh3`), and `!` makes a die that shows its highest face add another die (`2d10!`)."),
                    ("What you see", "Every face is shown (dropped dice struck through, added dice marked ↯) with the total. The roller or the FC can press **Reroll** to throw the same expression again in place; every throw is logged and counted in `/stats`."),
        ],
    },
        ]
    }

    fn click<'a>(
        &'a self,
        app: &'a App,
        tx: Act,
        session: Session,
        click: &'a Click<'a>,
    ) -> BoxFuture<'a, AppResult> {
        Box::pin(super::click(app, tx, session, click))
    }

    fn render<'a>(
        &'a self,
        app: &'a App,
        session: &'a Session,
        caller: &'a Caller,
    ) -> BoxFuture<'a, Result<View, AppError>> {
        Box::pin(std::future::ready(super::render(app, session, caller)))
    }
}

/// The registration: the system and its slash commands.
pub fn entry() -> crate::systems::Entry {
    crate::systems::Entry {
        system: Some(std::sync::Arc::new(DiceSystem)),
        commands: super::commands::all,
        finish: None,
        odds: None,
    }
}
