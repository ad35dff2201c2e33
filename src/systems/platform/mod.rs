//! Platform features beside the game systems: the roll log (`/history`),
//! dice fairness (`/stats`), exact odds for every system (`/odds`) and
//! help (`/help`).
//!
//! Module map:
//! - [`history`]: `/history show`, a private paged view of the log.
//! - [`export`]: `/history-gm export`, the log as CSV (FC only).
//! - [`stats`]: `/stats`, counts per face against the expectation, with a
//!   chi-square p-value and a chart.
//! - [`gamma`]: the incomplete gamma function behind the p-value.
//! - [`odds`]: `/odds`, the `kismet odds` answers in words and a chart.
//! - [`help`]: `/help`, each system's procedure and commands.
//! - [`me`]: `/me export` and `/me forget` (and `/fc forget`): a member's
//!   own data, downloaded or erased.
//! - [`chart`]: bar charts as PNG (hand-drawn, no font files).
//! - [`text`]: small formatting helpers.
//! - [`commands`]: the thin poise commands.

pub mod chart;
pub mod commands;
pub mod export;
pub mod gamma;
pub mod help;
pub mod history;
pub mod me;
pub mod odds;
pub mod stats;
pub mod text;

use crate::app::component::Click;
use crate::app::registry::Registry;
use crate::app::{Act, App, AppError, AppResult, Caller, View};
use crate::storage::sessions::Session;
use crate::systems::game::{Feature, NoGame};
use crate::systems::Command;

/// The platform features' id: the log's system name of their own entries
/// (an erasure), the registered feature's id ([`HistoryFeature`]).
/// Here, at the folder's root, so a feature that logs needs nothing of the
/// registration that lists it.
pub const ID: &str = "history";

/// The platform features as a registered (not playable) feature: `/roll
/// history` paging owns sessions of its own ([`history::KIND`]), and so do
/// the erasure questions of `/me forget` and `/fc forget` ([`me::KIND`]);
/// the commands (`/history`, `/stats`, `/odds`, `/help`, `/me`) come along.
pub struct HistoryFeature;

impl Feature for HistoryFeature {
    const ID: &'static str = ID;
    const NAME: &'static str = "Roll history";
    const KINDS: &'static [&'static str] = &[history::KIND, me::KIND];
    const COMMANDS: fn() -> Vec<Command> = commands::all;
    const FINISH: Option<fn(&mut Command, &Registry)> = Some(commands::finish);
    type Game = NoGame;

    async fn click(app: &App, tx: Act, session: Session, click: &Click<'_>) -> AppResult {
        match session.kind.as_str() {
            me::KIND => me::click(app, tx, session, click).await,
            _ => history::click(app, tx, session, click).await,
        }
    }

    async fn render(app: &App, session: &Session, caller: &Caller) -> Result<View, AppError> {
        match session.kind.as_str() {
            me::KIND => me::render(session),
            _ => history::render(app, session, caller).await,
        }
    }
}
