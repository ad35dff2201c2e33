//! Generic dice expressions for `/roll`: the notation players already know.
//!
//! - dice `NdM`, `dM`, `d%`; `0dM` is 0;
//! - keep and drop `khN`, `klN`, `dhN`, `dlN`; explode `!` (on the highest
//!   face) or `!>N`; rerolls `rrN`/`rr<N` (again while it holds, at most
//!   [`MAX_REROLLS`] times a die) and `roN`/`ro<N` (once);
//! - success counting `NdM>=T` (`>`, `<=`, `<`, `=`), failures `f1`;
//! - arithmetic `+ - * /` (division rounds down), brackets, unary minus;
//! - a target `expr >= T` (`>`, `<=`, `<`, `==`) for pass/fail;
//! - labels `1d20+5 [fire]`; repeats `N#expr` (N ≤ [`MAX_REPEAT`]).
//!
//! The parts: [`lex`] (tokens with byte spans on the text as typed),
//! [`parse`] (tokens to the tree in [`ast`], every cap checked), [`eval`]
//! (throws the dice with an injected generator, checked arithmetic) and
//! [`odds`] (the exact distribution of an expression).

pub mod ast;
pub mod eval;
pub mod lex;
pub mod odds;
pub mod parse;

pub use ast::{CmpOp, Cond, Dice, Expr, Keep, Node, Op, Reroll, Target};
pub use eval::{DiceRoll, Face, Outcome, Part, Roll};
pub use parse::parse;

/// Limits a parsed expression must respect.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Caps {
    /// Longest expression, in characters.
    pub max_len: usize,
    /// Most dice requested over all terms (and repeats).
    pub max_dice: u32,
    /// Most sides on one die.
    pub max_sides: u32,
}

impl Default for Caps {
    fn default() -> Self {
        Self {
            max_len: 200,
            max_dice: 500,
            max_sides: 1000,
        }
    }
}

/// A roll stops throwing dice (rerolls and explosions included) at this many.
pub const MAX_GENERATED_DICE: usize = 2000;
/// `rr` rerolls one die at most this many times.
pub const MAX_REROLLS: usize = 100;
/// Explosions add dice in at most this many rounds (a chain of this length).
pub const MAX_EXPLOSION_ROUNDS: usize = 100;
/// Largest number accepted in an expression.
pub const MAX_CONSTANT: i64 = 1_000_000;
/// Most numbers and dice terms in one expression.
pub const MAX_TERMS: usize = 50;
/// Most separate results of `N#`.
pub const MAX_REPEAT: u32 = 20;
/// Deepest nesting of brackets and signs.
pub const MAX_DEPTH: usize = 20;
/// Longest label, in characters.
pub const MAX_LABEL: usize = 40;

#[cfg(test)]
mod proptests;
#[cfg(test)]
mod tests;
