//! Kismet: a Discord bot for five indie tabletop-RPG rule systems.
//!
//! Module map:
//! - [`rules`]: the pure rules core (dice, rules, odds, sheets), no I/O.
//! - [`app`]: the application layer: actions in, transport-neutral views out.
//! - [`systems`]: each game system at the table (application logic and its
//!   slash commands), plus the registry that routes clicks.
//! - [`storage`]: sqlx + SQLite; the only place with SQL.
//! - [`kit`]: the command kit: poise `Data`/`Context`, callers, replies (a leaf
//!   below `systems` and `bot`).
//! - [`bot`]: the poise/serenity adapter (framework, clicks, expiry sweeper).
//! - `fake`: a fake Discord on 127.0.0.1 for tests and the sandbox (cargo
//!   feature `fake`, on by default, left out of the production build).
//! - `sandbox`: `kismet sandbox`, the real bot played from a terminal
//!   (feature `fake` too).
//! - [`config`]: configuration from `config/default.toml` and the environment.
//! - [`lifecycle`]: clean stop on SIGTERM/SIGINT, the health heartbeat,
//!   the interactions in flight.
//! - [`admission`]: how many interactions are worked on at once, and which
//!   wait or are turned away under overload.
//! - [`redact`]: log output that never shows the bot token.

pub mod admission;
pub mod app;
pub mod bot;
pub mod config;
#[cfg(feature = "fake")]
pub mod fake;
pub mod kit;
pub mod lifecycle;
pub mod odds_cli;
pub mod redact;
pub mod rules;
#[cfg(feature = "fake")]
pub mod sandbox;
pub mod storage;
pub mod systems;
