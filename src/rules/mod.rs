//! The pure rules core: dice, rules, odds and sheet logic for every system.
//!
//! Nothing in here touches Discord, the database or any other I/O.
//! Randomness always comes in as `&mut impl Rng`, so tests seed it.
//!
//! Module map:
//! - [`dice`]: rolling single dice and pools.
//! - [`dist`]: exact discrete distributions (convolution, binomial, tails).
//! - [`error`]: [`RuleError`], the one error type every rule returns.
//! - one folder per rule system (added to this list as each lands).

pub mod dice;
pub mod dist;
pub mod error;

pub use error::RuleError;
