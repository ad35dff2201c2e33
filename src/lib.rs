//! Kismet: a Discord bot for five indie tabletop-RPG rule systems.
//!
//! Module map:
//! - [`rules`]: the pure rules core (dice, rules, odds, sheets), no I/O.

pub mod rules;
