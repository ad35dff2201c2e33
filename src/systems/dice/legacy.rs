//! The stored state of a generic roll as Kismet wrote it before the full
//! dice notation (`expr: {terms}`, `roll: {terms, total}`): read back so a
//! Reroll button posted then keeps working after an upgrade.

use serde::Deserialize;

use crate::rules::expr::{Face, Outcome, Part, Roll};

#[derive(Debug, Clone, Copy, Deserialize)]
enum Keep {
    Highest(u32),
    Lowest(u32),
}

#[derive(Debug, Clone, Deserialize)]
enum Term {
    Dice {
        count: u32,
        sides: u32,
        explode: bool,
        keep: Option<Keep>,
    },
    Constant(i64),
}

impl Term {
    fn notation(&self) -> String {
        match self {
            Term::Constant(c) => c.to_string(),
            Term::Dice {
                count,
                sides,
                explode,
                keep,
            } => {
                let mut s = format!("{count}d{sides}");
                if *explode {
                    s.push('!');
                }
                match keep {
                    Some(Keep::Highest(n)) => s.push_str(&format!("kh{n}")),
                    Some(Keep::Lowest(n)) => s.push_str(&format!("kl{n}")),
                    None => {}
                }
                s
            }
        }
    }
}

#[derive(Debug, Clone, Deserialize)]
struct Expr {
    terms: Vec<(bool, Term)>,
}

#[derive(Debug, Clone, Copy, Deserialize)]
struct OldFace {
    value: u32,
    kept: bool,
    exploded: bool,
}

#[derive(Debug, Clone, Deserialize)]
struct TermRoll {
    negative: bool,
    term: Term,
    faces: Vec<OldFace>,
    value: i64,
}

#[derive(Debug, Clone, Deserialize)]
struct OldRoll {
    terms: Vec<TermRoll>,
    total: i64,
    capped: bool,
}

/// A generic roll's state in the old shape.
#[derive(Debug, Clone, Deserialize)]
pub struct LegacyState {
    roller: String,
    expr: Expr,
    roll: OldRoll,
    rerolls: u32,
}

impl LegacyState {
    /// `(roller, expression as the old notation, the roll, rerolls)`.
    pub fn upgrade(self) -> (String, String, Roll, u32) {
        let mut expression = String::new();
        for (i, (neg, term)) in self.expr.terms.iter().enumerate() {
            match (i, neg) {
                (0, true) => expression.push('-'),
                (0, false) => {}
                (_, true) => expression.push_str(" - "),
                (_, false) => expression.push_str(" + "),
            }
            expression.push_str(&term.notation());
        }
        let parts = self
            .roll
            .terms
            .iter()
            .map(|t| Part {
                negative: t.negative,
                notation: t.term.notation(),
                label: None,
                dice: match t.term {
                    Term::Dice { sides, .. } => vec![crate::rules::expr::DiceRoll {
                        notation: t.term.notation(),
                        sides,
                        faces: t
                            .faces
                            .iter()
                            .map(|f| Face {
                                value: f.value,
                                kept: f.kept,
                                exploded: f.exploded,
                                rerolled: Vec::new(),
                                hit: 0,
                            })
                            .collect(),
                        value: t.value,
                        counting: false,
                    }],
                    Term::Constant(_) => Vec::new(),
                },
                value: t.value,
            })
            .collect();
        let roll = Roll {
            results: vec![Outcome {
                parts,
                total: self.roll.total,
                pass: None,
            }],
            capped: self.roll.capped,
        };
        (self.roller, expression, roll, self.rerolls)
    }
}
