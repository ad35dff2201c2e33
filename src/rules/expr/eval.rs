//! The evaluator: throws the dice of an [`Expr`] with the caller's
//! generator. Every sum, product and quotient is checked; every reroll and
//! explosion is capped.

use rand::Rng;
use serde::{Deserialize, Serialize};

use super::ast::{Dice, Expr, Node, Op};
use super::{MAX_EXPLOSION_ROUNDS, MAX_GENERATED_DICE, MAX_REROLLS};
use crate::rules::{dice, RuleError};

/// One die as thrown.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Face {
    /// The face shown.
    pub value: u32,
    /// Counted in the total (false when dropped by keep or drop).
    pub kept: bool,
    /// Added by an explosion.
    pub exploded: bool,
    /// Faces it replaced by rerolls, in order.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub rerolled: Vec<u32>,
    /// With success counting: 1 a success, −1 a failure, 0 neither.
    #[serde(default, skip_serializing_if = "is_zero")]
    pub hit: i8,
}

fn is_zero(x: &i8) -> bool {
    *x == 0
}

/// A dice term as thrown.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct DiceRoll {
    /// The term, e.g. `4d6kh3`.
    pub notation: String,
    /// Sides per die.
    pub sides: u32,
    /// Every die, in the order thrown.
    pub faces: Vec<Face>,
    /// The term's value: kept faces added, or successes minus failures.
    pub value: i64,
    /// True when the term counts successes.
    #[serde(default)]
    pub counting: bool,
}

/// One top-level term of a result (`1d20`, `+ 5 [fire]`, `- 2 * 1d4`).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Part {
    /// Subtracted rather than added.
    pub negative: bool,
    /// The term in canonical notation, without its label.
    pub notation: String,
    /// Its label, if written.
    #[serde(default)]
    pub label: Option<String>,
    /// The dice terms inside it.
    pub dice: Vec<DiceRoll>,
    /// Its value before its sign.
    pub value: i64,
}

/// One result (a repeat makes several).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Outcome {
    /// The top-level terms.
    pub parts: Vec<Part>,
    /// The total.
    pub total: i64,
    /// Against a target: whether it passed.
    #[serde(default)]
    pub pass: Option<bool>,
}

/// A whole rolled expression.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Roll {
    /// One result per repeat (one without `N#`).
    pub results: Vec<Outcome>,
    /// True when rerolls or explosions stopped at a cap.
    pub capped: bool,
}

/// Integer division rounded down (towards minus infinity), checked.
pub fn div_floor(a: i64, b: i64) -> Option<i64> {
    let q = a.checked_div(b)?;
    if a.checked_rem(b)? != 0 && ((a < 0) != (b < 0)) {
        q.checked_sub(1)
    } else {
        Some(q)
    }
}

fn too_large() -> RuleError {
    RuleError::new("The result is too large to compute: use smaller numbers.")
}

/// Applies an operator with checked arithmetic.
pub fn apply(op: Op, a: i64, b: i64) -> Result<i64, RuleError> {
    match op {
        Op::Add => a.checked_add(b).ok_or_else(too_large),
        Op::Sub => a.checked_sub(b).ok_or_else(too_large),
        Op::Mul => a.checked_mul(b).ok_or_else(too_large),
        Op::Div => {
            if b == 0 {
                Err(RuleError::new(
                    "Division by zero: the divisor came out as 0.",
                ))
            } else {
                div_floor(a, b).ok_or_else(too_large)
            }
        }
    }
}

struct Thrower<'r, R: ?Sized> {
    rng: &'r mut R,
    generated: usize,
    capped: bool,
}

impl<R: Rng + ?Sized> Thrower<'_, R> {
    /// One die with its rerolls; `None` once the roll has thrown its cap.
    fn one(&mut self, d: &Dice, exploded: bool) -> Option<Face> {
        if self.generated >= MAX_GENERATED_DICE {
            self.capped = true;
            return None;
        }
        self.generated += 1;
        let mut value = dice::d(self.rng, d.sides);
        let mut rerolled = Vec::new();
        if let Some(r) = d.reroll {
            let most = if r.repeat { MAX_REROLLS } else { 1 };
            while r.cond.holds(value) && rerolled.len() < most {
                if self.generated >= MAX_GENERATED_DICE {
                    self.capped = true;
                    break;
                }
                self.generated += 1;
                rerolled.push(value);
                value = dice::d(self.rng, d.sides);
            }
            if r.repeat && r.cond.holds(value) {
                self.capped = true;
            }
        }
        Some(Face {
            value,
            kept: true,
            exploded,
            rerolled,
            hit: 0,
        })
    }

    fn dice(&mut self, d: &Dice) -> Result<DiceRoll, RuleError> {
        let mut faces: Vec<Face> = Vec::with_capacity(d.count as usize);
        let mut pending = d.count as usize;
        let mut exploded = false;
        let mut rounds = 0;
        // Breadth first: the dice, then one new die per exploding face.
        while pending > 0 {
            let mut next = 0usize;
            for _ in 0..pending {
                let Some(face) = self.one(d, exploded) else {
                    break;
                };
                if d.explode.is_some_and(|e| e.holds(face.value)) {
                    next += 1;
                }
                faces.push(face);
            }
            if self.capped && self.generated >= MAX_GENERATED_DICE {
                break;
            }
            if next > 0 && rounds >= MAX_EXPLOSION_ROUNDS {
                self.capped = true;
                break;
            }
            rounds += 1;
            pending = next;
            exploded = true;
        }
        if let Some(k) = d.keep {
            let (n, highest) = k.kept_of(faces.len());
            let mut order: Vec<usize> = (0..faces.len()).collect();
            // Stable: among equal faces the earlier die is kept.
            order.sort_by(|&a, &b| {
                let (x, y) = (faces[a].value, faces[b].value);
                if highest {
                    y.cmp(&x)
                } else {
                    x.cmp(&y)
                }
            });
            for (rank, &i) in order.iter().enumerate() {
                faces[i].kept = rank < n;
            }
        }
        let mut value: i64 = 0;
        for f in faces.iter_mut().filter(|f| f.kept) {
            let add = match d.success {
                Some(s) => {
                    let hit: i8 = if s.holds(f.value) {
                        1
                    } else if d.failure.is_some_and(|x| x.holds(f.value)) {
                        -1
                    } else {
                        0
                    };
                    f.hit = hit;
                    i64::from(hit)
                }
                None => i64::from(f.value),
            };
            value = value.checked_add(add).ok_or_else(too_large)?;
        }
        Ok(DiceRoll {
            notation: d.to_string(),
            sides: d.sides,
            faces,
            value,
            counting: d.success.is_some(),
        })
    }

    fn node(&mut self, n: &Node, out: &mut Vec<DiceRoll>) -> Result<i64, RuleError> {
        match n {
            Node::Num(x) => Ok(*x),
            Node::Dice(d) => {
                let r = self.dice(d)?;
                let v = r.value;
                out.push(r);
                Ok(v)
            }
            Node::Neg(x) => self.node(x, out)?.checked_neg().ok_or_else(too_large),
            Node::Labelled(x, _) => self.node(x, out),
            Node::Bin(op, a, b) => {
                let a = self.node(a, out)?;
                let b = self.node(b, out)?;
                apply(*op, a, b)
            }
        }
    }
}

/// The top-level terms of a body: `a + b - c` → `[(+, a), (+, b), (-, c)]`.
pub fn parts(n: &Node) -> Vec<(bool, &Node)> {
    fn walk<'a>(n: &'a Node, negative: bool, out: &mut Vec<(bool, &'a Node)>) {
        match n {
            Node::Bin(Op::Add, a, b) => {
                walk(a, negative, out);
                walk(b, negative, out);
            }
            Node::Bin(Op::Sub, a, b) => {
                walk(a, negative, out);
                walk(b, !negative, out);
            }
            Node::Neg(x) => walk(x, !negative, out),
            other => out.push((negative, other)),
        }
    }
    let mut out = Vec::new();
    walk(n, false, &mut out);
    out
}

impl Expr {
    /// Throws every die of the expression (each repeat in turn).
    pub fn roll<R: Rng + ?Sized>(&self, rng: &mut R) -> Result<Roll, RuleError> {
        let mut t = Thrower {
            rng,
            generated: 0,
            capped: false,
        };
        let terms = parts(&self.body);
        let mut results = Vec::with_capacity(self.repeat as usize);
        for _ in 0..self.repeat {
            let mut total: i64 = 0;
            let mut out = Vec::with_capacity(terms.len());
            for (negative, node) in &terms {
                let mut dice = Vec::new();
                let value = t.node(node, &mut dice)?;
                total = if *negative {
                    total.checked_sub(value)
                } else {
                    total.checked_add(value)
                }
                .ok_or_else(too_large)?;
                let (inner, label) = match node {
                    Node::Labelled(x, l) => (&**x, Some(l.clone())),
                    other => (*other, None),
                };
                out.push(Part {
                    negative: *negative,
                    notation: inner.to_string(),
                    label,
                    dice,
                    value,
                });
            }
            let pass = self.target.map(|tg| tg.op.holds(total, tg.value));
            results.push(Outcome {
                parts: out,
                total,
                pass,
            });
        }
        Ok(Roll {
            results,
            capped: t.capped,
        })
    }
}
