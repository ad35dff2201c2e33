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
pub mod system;
pub mod text;

/// The platform features' id: the log's system name of their own entries
/// (an erasure), the registered feature's id ([`system::HistoryFeature`]).
/// Here, at the folder's root, so a feature that logs needs nothing of the
/// registration that lists it.
pub const ID: &str = "history";
