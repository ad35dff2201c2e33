//! Exact distributions of dice expressions: computed, never simulated.
//!
//! Every node becomes a distribution over whole numbers ([`Dist`]):
//! numbers are point masses, `+`/`-` convolve, `*`/`/` combine every pair of
//! values, and a dice term is built from one die's faces:
//!
//! - rerolls change one die's face distribution exactly (`ro`: once; `rr`:
//!   again while the condition holds, at most [`MAX_REROLLS`] times, as the
//!   roller does);
//! - keep and drop use an order-statistics dynamic programme: faces are
//!   taken from the top (keep highest) or the bottom, choosing how many of
//!   the dice not yet placed show each face (a binomial coefficient times
//!   the face's probability to that power) and adding the kept ones' worth;
//! - explosions follow one die's chain (each exploding face adds a die)
//!   down to a depth where the chance of going on is at most
//!   [`TAIL_BOUND`] (never deeper than the roller's
//!   [`MAX_EXPLOSION_ROUNDS`]): the dropped tail is at most that much
//!   probability, reported as [`Odds::tail`];
//! - success counting gives each face a worth of +1, −1 (`f`) or 0 instead
//!   of its value, so the same machinery counts successes;
//! - a target sums the probability of the totals meeting it.
//!
//! Size cap: before any distribution is built, [`cost`] estimates from the
//! tree alone (each node's range of values) an upper bound of the steps and
//! of the largest table the computation will take; beyond [`MAX_SUPPORT`]
//! distinct totals in one distribution, [`MAX_CELLS`] numbers in one table
//! or [`MAX_WORK`] multiply-adds in all, the expression is refused at once
//! with the limit named. The builder keeps counting its steps as a
//! backstop.
//!
//! Stopping: [`odds_until`] takes a flag the caller may set from another
//! thread (the bot sets it when it shuts down); the builder looks at it
//! before every table and in every outer loop, and returns the
//! [`stopped`] error at its next step. Not covered
//! exactly: keep or drop on exploding dice (the pool's size is random), and
//! the roller's cap of [`super::MAX_GENERATED_DICE`] dice in one roll.

use std::sync::atomic::{AtomicBool, Ordering};

use super::ast::{Dice, Expr, Node, Op};
use super::eval::div_floor;
use super::{MAX_EXPLOSION_ROUNDS, MAX_REROLLS};
use crate::rules::RuleError;

/// Most distinct totals a distribution may have (its table, JSON and chart
/// stay within a few megabytes).
pub const MAX_SUPPORT: usize = 200_000;
/// Most numbers one table of the computation may hold (keep and drop hold
/// one row per die): 32 MB of `f64`.
pub const MAX_CELLS: u64 = 4_000_000;
/// Most multiply-adds one question may take (a small fraction of a second
/// in a release build).
pub const MAX_WORK: u64 = 100_000_000;
/// Explosion chains are followed until going on is at most this likely.
pub const TAIL_BOUND: f64 = 1e-15;

/// A distribution over whole numbers: `p[k]` is P(X = `min` + k).
#[derive(Debug, Clone, PartialEq)]
pub struct Dist {
    /// The smallest value.
    pub min: i64,
    /// The probabilities from `min` up.
    pub p: Vec<f64>,
}

/// The answer to "what are the odds of this expression?".
#[derive(Debug, Clone, PartialEq)]
pub struct Odds {
    /// The distribution of one result's total.
    pub dist: Dist,
    /// With a target: the chance one result passes.
    pub pass: Option<f64>,
    /// Probability left out by cutting explosion chains (0 without `!`).
    pub tail: f64,
}

fn too_big(what: &str) -> RuleError {
    RuleError::new(format!(
        "That expression is too large to compute exactly ({what}): at most {MAX_SUPPORT} different totals and {MAX_WORK} steps."
    ))
}

/// The refusal of an estimate over a limit: what it would take, and the limit.
fn over(what: &str, needed: u64, limit: u64) -> RuleError {
    RuleError::new(format!(
        "That expression is too large to compute exactly: it would take {needed} {what}, and the limit is {limit}. Try fewer dice, fewer sides or smaller numbers."
    ))
}

/// The message of a computation stopped by its flag ([`odds_until`]).
pub const STOPPED: &str = "The odds computation was stopped: the bot is shutting down.";

/// The error of a computation stopped by its flag ([`odds_until`]).
pub fn stopped() -> RuleError {
    RuleError::new(STOPPED)
}

struct Budget<'a> {
    work: u64,
    tail: f64,
    /// Set from outside: stop at the next step.
    stop: &'a AtomicBool,
}

impl Budget<'_> {
    /// The stopped error once the flag is set.
    fn check(&self) -> Result<(), RuleError> {
        if self.stop.load(Ordering::Relaxed) {
            return Err(stopped());
        }
        Ok(())
    }

    fn spend(&mut self, n: u64) -> Result<(), RuleError> {
        self.check()?;
        if n > MAX_WORK {
            return Err(too_big("too many steps"));
        }
        self.work = self.work.saturating_add(n);
        if self.work > MAX_WORK {
            return Err(too_big("too many steps"));
        }
        Ok(())
    }
}

impl Dist {
    /// X = v always.
    pub fn point(v: i64) -> Self {
        Dist {
            min: v,
            p: vec![1.0],
        }
    }

    /// The largest value.
    pub fn max(&self) -> i64 {
        self.min + self.p.len() as i64 - 1
    }

    /// `(value, probability)` pairs with a probability above zero.
    pub fn iter(&self) -> impl Iterator<Item = (i64, f64)> + '_ {
        self.p
            .iter()
            .enumerate()
            .filter(|(_, p)| **p > 0.0)
            .map(|(k, p)| (self.min + k as i64, *p))
    }

    /// P(X = v).
    pub fn at(&self, v: i64) -> f64 {
        v.checked_sub(self.min)
            .and_then(|k| usize::try_from(k).ok())
            .and_then(|k| self.p.get(k))
            .copied()
            .unwrap_or(0.0)
    }

    /// The mean.
    pub fn mean(&self) -> f64 {
        self.iter().map(|(v, p)| v as f64 * p).sum()
    }

    /// The standard deviation.
    pub fn sd(&self) -> f64 {
        let m = self.mean();
        self.iter()
            .map(|(v, p)| (v as f64 - m).powi(2) * p)
            .sum::<f64>()
            .sqrt()
    }

    /// Drops zero probabilities at both ends.
    fn trim(mut self) -> Self {
        let first = self.p.iter().position(|p| *p > 0.0).unwrap_or(0);
        let last = self.p.iter().rposition(|p| *p > 0.0).unwrap_or(0);
        if first > last {
            return Dist::point(0);
        }
        self.p.truncate(last + 1);
        self.p.drain(..first);
        self.min += first as i64;
        self
    }

    fn neg(&self) -> Self {
        let mut p = self.p.clone();
        p.reverse();
        Dist {
            min: -self.max(),
            p,
        }
    }

    fn sum(&self, other: &Dist, b: &mut Budget<'_>) -> Result<Dist, RuleError> {
        let len = self.p.len() + other.p.len() - 1;
        if len > MAX_SUPPORT {
            return Err(too_big("too many totals"));
        }
        b.spend((self.p.len() as u64).saturating_mul(other.p.len() as u64))?;
        let mut p = vec![0.0; len];
        for (i, &x) in self.p.iter().enumerate() {
            b.check()?;
            if x == 0.0 {
                continue;
            }
            for (j, &y) in other.p.iter().enumerate() {
                p[i + j] += x * y;
            }
        }
        Ok(Dist {
            min: self
                .min
                .checked_add(other.min)
                .ok_or_else(|| too_big("numbers too large"))?,
            p,
        })
    }

    /// Every pair of values combined by `op` (products, quotients): the
    /// result's range comes from the two ranges' corners and is checked
    /// before anything is allocated.
    fn combine(&self, op: Op, other: &Dist, b: &mut Budget<'_>) -> Result<Dist, RuleError> {
        b.spend((self.p.len() as u64).saturating_mul(other.p.len() as u64))?;
        let span = |d: &Dist| Span {
            lo: d.min,
            hi: d.max(),
        };
        let s = Span::combined(op, span(self), span(other))
            .ok_or_else(|| too_big("numbers too large"))?;
        if s.len() > MAX_SUPPORT as u64 {
            return Err(too_big("too many totals"));
        }
        let mut p = vec![0.0; s.len() as usize];
        for (x, px) in self.iter() {
            b.check()?;
            for (y, py) in other.iter() {
                let v = match op {
                    Op::Div if y == 0 => continue,
                    Op::Div => div_floor(x, y),
                    _ => x.checked_mul(y),
                }
                .ok_or_else(|| too_big("numbers too large"))?;
                let k = v
                    .checked_sub(s.lo)
                    .and_then(|k| usize::try_from(k).ok())
                    .filter(|k| *k < p.len())
                    .ok_or_else(|| too_big("numbers too large"))?;
                p[k] += px * py;
            }
        }
        Ok(Dist { min: s.lo, p }.trim())
    }
}

/// A node's possible values, `lo..=hi`, as the estimate sees them.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
struct Span {
    lo: i64,
    hi: i64,
}

impl Span {
    fn point(v: i64) -> Self {
        Span { lo: v, hi: v }
    }

    /// How many whole numbers it holds.
    fn len(self) -> u64 {
        u64::try_from(i128::from(self.hi) - i128::from(self.lo) + 1).unwrap_or(u64::MAX)
    }

    /// The span of `a op b` for `*` and `/` (division rounded down, by
    /// anything but 0): the extremes lie at the corners, or for a divisor
    /// around 0 at ±1. `None` when a value leaves the `i64` range.
    fn combined(op: Op, a: Span, b: Span) -> Option<Span> {
        let mut ys = vec![b.lo, b.hi];
        if op == Op::Div {
            ys.extend([-1, 1].into_iter().filter(|y| (b.lo..=b.hi).contains(y)));
            ys.retain(|y| *y != 0);
            if ys.is_empty() {
                return Some(Span::point(0));
            }
        }
        let mut out: Option<Span> = None;
        for x in [a.lo, a.hi] {
            for &y in &ys {
                let v = match op {
                    Op::Div => div_floor(x, y)?,
                    _ => x.checked_mul(y)?,
                };
                out = Some(match out {
                    None => Span::point(v),
                    Some(s) => Span {
                        lo: s.lo.min(v),
                        hi: s.hi.max(v),
                    },
                });
            }
        }
        out
    }
}

/// What computing one expression's odds takes, estimated from the tree
/// alone before anything is built: upper bounds of the builder's work.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct Cost {
    /// Multiply-adds in all.
    pub steps: u64,
    /// Distinct totals of the largest distribution.
    pub totals: u64,
    /// Numbers held by the largest table.
    pub cells: u64,
}

impl Cost {
    fn step(&mut self, n: u64) -> Result<(), RuleError> {
        self.steps = self.steps.saturating_add(n);
        if self.steps > MAX_WORK {
            return Err(over("steps", self.steps, MAX_WORK));
        }
        Ok(())
    }

    fn totals(&mut self, s: Span) -> Result<Span, RuleError> {
        let n = s.len();
        self.totals = self.totals.max(n);
        if n > MAX_SUPPORT as u64 {
            return Err(over("different totals", n, MAX_SUPPORT as u64));
        }
        self.hold(n)?;
        Ok(s)
    }

    fn hold(&mut self, cells: u64) -> Result<(), RuleError> {
        self.cells = self.cells.max(cells);
        if cells > MAX_CELLS {
            return Err(over("numbers held at once", cells, MAX_CELLS));
        }
        Ok(())
    }

    /// The span of a sum or difference of two spans.
    fn add(&mut self, a: Span, b: Span) -> Result<Span, RuleError> {
        self.step(a.len().saturating_mul(b.len()))?;
        let s = match (a.lo.checked_add(b.lo), a.hi.checked_add(b.hi)) {
            (Some(lo), Some(hi)) => Span { lo, hi },
            _ => return Err(too_big("numbers too large")),
        };
        self.totals(s)
    }

    fn dice(&mut self, d: &Dice) -> Result<Span, RuleError> {
        if d.count == 0 {
            return Ok(Span::point(0));
        }
        let worths = (1..=d.sides).map(|f| worth(d, f));
        let (lo, hi) = (worths.clone().min().unwrap_or(0), worths.max().unwrap_or(0));
        let n = u64::from(d.count);
        if let Some(k) = d.keep {
            // keep(): one row per die of kept worths in k·lo ..= k·hi (0
            // included), filled once per face.
            let (kept, _) = k.kept_of(d.count as usize);
            let (lo, hi) = (lo.min(0), hi.max(0));
            let kept = kept as i64;
            let s = self.totals(Span {
                lo: kept * lo,
                hi: kept * hi,
            })?;
            self.hold((n + 1).saturating_mul(s.len()).saturating_mul(2))?;
            self.step(
                u64::from(d.sides)
                    .saturating_mul((n + 1).pow(2) / 2 + 1)
                    .saturating_mul(s.len()),
            )?;
            return Ok(s);
        }
        let mut one = Span { lo, hi };
        if d.explode.is_some() {
            // chain(): each level adds a die's worth to the chain below.
            let (depth, _) = chain_depth(d, &face_probabilities(d));
            for _ in 0..depth {
                self.step(u64::from(d.sides).saturating_mul(one.len()))?;
                one = self.totals(Span {
                    lo: lo.min(lo + one.lo),
                    hi: hi.max(hi + one.hi),
                })?;
            }
        }
        // dice(): n chains added one by one, about n²·w²/2 steps.
        let w = one.len();
        self.step(n.saturating_mul(n).saturating_mul(w).saturating_mul(w) / 2)?;
        let s = match (one.lo.checked_mul(n as i64), one.hi.checked_mul(n as i64)) {
            (Some(lo), Some(hi)) => Span { lo, hi },
            _ => return Err(too_big("numbers too large")),
        };
        self.totals(s)
    }

    fn node(&mut self, n: &Node) -> Result<Span, RuleError> {
        match n {
            Node::Num(v) => Ok(Span::point(*v)),
            Node::Dice(d) => self.dice(d),
            Node::Neg(x) => {
                let s = self.node(x)?;
                match (s.hi.checked_neg(), s.lo.checked_neg()) {
                    (Some(lo), Some(hi)) => Ok(Span { lo, hi }),
                    _ => Err(too_big("numbers too large")),
                }
            }
            Node::Labelled(x, _) => self.node(x),
            Node::Bin(op, x, y) => {
                let (a, b) = (self.node(x)?, self.node(y)?);
                match op {
                    Op::Add => self.add(a, b),
                    Op::Sub => self.add(
                        a,
                        Span {
                            lo: b
                                .hi
                                .checked_neg()
                                .ok_or_else(|| too_big("numbers too large"))?,
                            hi: b
                                .lo
                                .checked_neg()
                                .ok_or_else(|| too_big("numbers too large"))?,
                        },
                    ),
                    Op::Mul | Op::Div => {
                        self.step(a.len().saturating_mul(b.len()))?;
                        let s = Span::combined(*op, a, b)
                            .ok_or_else(|| too_big("numbers too large"))?;
                        self.totals(s)
                    }
                }
            }
        }
    }
}

/// What computing the odds of `e` would take, or the refusal naming the
/// limit it passes; nothing is built. [`odds`] asks this first.
pub fn cost(e: &Expr) -> Result<Cost, RuleError> {
    let mut c = Cost::default();
    c.node(&e.body)?;
    Ok(c)
}

/// One die's face probabilities after its rerolls: `q[f - 1]` = P(face f).
pub fn face_probabilities(d: &Dice) -> Vec<f64> {
    let s = f64::from(d.sides);
    let mut q = vec![1.0 / s; d.sides as usize];
    if let Some(r) = d.reroll {
        let c = f64::from(r.cond.faces_meeting(d.sides)) / s;
        // ro: 1 + c for faces kept at once; rr: 1 + c + … + c^R, and a face
        // in the condition only when all R rerolls stayed in it (c^R).
        let (keep, stay) = if r.repeat {
            let mut sum = 0.0;
            let mut pow = 1.0;
            for _ in 0..=MAX_REROLLS {
                sum += pow;
                pow *= c;
            }
            (sum, c.powi(MAX_REROLLS as i32))
        } else {
            (1.0 + c, c)
        };
        for (i, x) in q.iter_mut().enumerate() {
            let f = i as u32 + 1;
            *x = if r.cond.holds(f) { stay / s } else { keep / s };
        }
    }
    q
}

/// What one face is worth in the term: its value, or +1/−1/0 when counting.
fn worth(d: &Dice, f: u32) -> i64 {
    match d.success {
        None => i64::from(f),
        Some(s) if s.holds(f) => 1,
        Some(_) if d.failure.is_some_and(|x| x.holds(f)) => -1,
        Some(_) => 0,
    }
}

/// How deep an explosion chain is followed, and the chance of going on
/// past it: deep enough that going on is at most [`TAIL_BOUND`] likely, never
/// deeper than [`MAX_EXPLOSION_ROUNDS`]. No explosion: depth 0.
fn chain_depth(d: &Dice, q: &[f64]) -> (usize, f64) {
    let Some(e) = d.explode else {
        return (0, 0.0);
    };
    let pe: f64 = (1..=d.sides)
        .filter(|f| e.holds(*f))
        .map(|f| q[f as usize - 1])
        .sum();
    let mut depth = 0usize;
    let mut on = 1.0;
    while on > TAIL_BOUND && depth < MAX_EXPLOSION_ROUNDS {
        on *= pe;
        depth += 1;
    }
    (depth, on)
}

/// The worth of one die with its explosion chain.
fn chain(d: &Dice, q: &[f64], b: &mut Budget<'_>) -> Result<Dist, RuleError> {
    let mut one = Dist {
        min: 0,
        p: Vec::new(),
    };
    let lo = (1..=d.sides).map(|f| worth(d, f)).min().unwrap_or(0);
    let hi = (1..=d.sides).map(|f| worth(d, f)).max().unwrap_or(0);
    one.min = lo;
    one.p = vec![0.0; (hi - lo) as usize + 1];
    for f in 1..=d.sides {
        one.p[(worth(d, f) - lo) as usize] += q[f as usize - 1];
    }
    let Some(e) = d.explode else {
        return Ok(one);
    };
    let (depth, on) = chain_depth(d, q);
    b.tail = b.tail.max(on.min(1.0));
    // From the last die back: T = Σ_f q_f · (worth f + (explodes ? T : 0)).
    let mut t = one.clone();
    for _ in 0..depth {
        let mut next = Dist {
            min: 0,
            p: Vec::new(),
        };
        let tmin = lo.min(lo + t.min);
        let tmax = hi.max(hi + t.max());
        let len = usize::try_from(tmax - tmin + 1).map_err(|_| too_big("too many totals"))?;
        if len > MAX_SUPPORT {
            return Err(too_big("explosions make too many totals"));
        }
        b.spend((d.sides as u64).saturating_mul(t.p.len() as u64))?;
        next.min = tmin;
        next.p = vec![0.0; len];
        for f in 1..=d.sides {
            b.check()?;
            let qf = q[f as usize - 1];
            let w = worth(d, f);
            if e.holds(f) {
                for (k, &pt) in t.p.iter().enumerate() {
                    next.p[(w + t.min - tmin) as usize + k] += qf * pt;
                }
            } else {
                next.p[(w - tmin) as usize] += qf;
            }
        }
        t = next;
    }
    Ok(t.trim())
}

fn binomials(n: usize) -> Vec<Vec<f64>> {
    let mut c = vec![vec![1.0]];
    for i in 1..=n {
        let mut row = vec![1.0; i + 1];
        for j in 1..i {
            row[j] = c[i - 1][j - 1] + c[i - 1][j];
        }
        c.push(row);
    }
    c
}

/// Keep `k` of `n` dice (the highest when `top`), each worth `worth(face)`.
fn keep(d: &Dice, q: &[f64], k: usize, top: bool, b: &mut Budget<'_>) -> Result<Dist, RuleError> {
    let n = d.count as usize;
    let lo = (1..=d.sides).map(|f| worth(d, f)).min().unwrap_or(0).min(0);
    let hi = (1..=d.sides).map(|f| worth(d, f)).max().unwrap_or(0).max(0);
    // Kept worth lies in k*lo ..= k*hi.
    let base = (k as i64) * lo;
    let width = ((k as i64) * (hi - lo)) as usize + 1;
    if width > MAX_SUPPORT {
        return Err(too_big("too many totals"));
    }
    b.spend(
        (d.sides as u64)
            .saturating_mul((n as u64 + 1).pow(2) / 2 + 1)
            .saturating_mul(width as u64),
    )?;
    let c = binomials(n);
    // dp[j][s]: j dice placed, kept worth base + s.
    let mut dp = vec![vec![0.0; width]; n + 1];
    dp[0][(-base) as usize] = 1.0;
    let faces: Vec<u32> = if top {
        (1..=d.sides).rev().collect()
    } else {
        (1..=d.sides).collect()
    };
    for f in faces {
        let qf = q[f as usize - 1];
        if qf == 0.0 {
            continue;
        }
        let w = worth(d, f);
        let mut next = vec![vec![0.0; width]; n + 1];
        for j in 0..=n {
            b.check()?;
            if dp[j].iter().all(|x| *x == 0.0) {
                continue;
            }
            let mut pow = 1.0;
            for m in 0..=(n - j) {
                let kept = m.min(k.saturating_sub(j)) as i64;
                let shift = kept * w;
                let factor = c[n - j][m] * pow;
                if factor != 0.0 {
                    for (s, &x) in dp[j].iter().enumerate() {
                        if x != 0.0 {
                            let t = s as i64 + shift;
                            next[j + m][t as usize] += x * factor;
                        }
                    }
                }
                pow *= qf;
            }
        }
        dp = next;
    }
    Ok(Dist {
        min: base,
        p: dp.pop().unwrap_or_default(),
    }
    .trim())
}

fn dice(d: &Dice, b: &mut Budget<'_>) -> Result<Dist, RuleError> {
    if d.count == 0 {
        return Ok(Dist::point(0));
    }
    let q = face_probabilities(d);
    if let Some(k) = d.keep {
        if d.explode.is_some() {
            return Err(RuleError::new(
                "Exact odds of keep or drop on exploding dice are not computed: the pool's size is random. Try the term without `!` or without keep/drop.",
            ));
        }
        let (kept, top) = k.kept_of(d.count as usize);
        return keep(d, &q, kept, top, b);
    }
    let one = chain(d, &q, b)?;
    // Adding n dice of w totals each takes about n²·w²/2 steps ([`cost`]
    // refused it before if too many).
    let (n, w) = (u64::from(d.count), one.p.len() as u64);
    if n.saturating_mul(w) > MAX_SUPPORT as u64 {
        return Err(too_big("too many totals"));
    }
    let mut total = one.clone();
    for _ in 1..d.count {
        total = total.sum(&one, b)?;
    }
    Ok(total)
}

fn node(n: &Node, b: &mut Budget<'_>) -> Result<Dist, RuleError> {
    match n {
        Node::Num(v) => Ok(Dist::point(*v)),
        Node::Dice(d) => dice(d, b),
        Node::Neg(x) => Ok(node(x, b)?.neg()),
        Node::Labelled(x, _) => node(x, b),
        Node::Bin(op, x, y) => {
            let (x, y) = (node(x, b)?, node(y, b)?);
            match op {
                Op::Add => x.sum(&y, b),
                Op::Sub => x.sum(&y.neg(), b),
                Op::Mul => x.combine(*op, &y, b),
                Op::Div => {
                    if y.at(0) > 0.0 {
                        return Err(RuleError::new(
                            "The divisor can come out as 0, so those odds have no answer.",
                        ));
                    }
                    x.combine(*op, &y, b)
                }
            }
        }
    }
}

/// The exact distribution of one result of `e` (a repeat's results are
/// independent and alike), and its chance of meeting the target.
pub fn odds(e: &Expr) -> Result<Odds, RuleError> {
    odds_until(e, &AtomicBool::new(false))
}

/// [`odds`], stopped with the [`stopped`] error at the next step once
/// `stop` is set (by another thread: the bot sets it when it shuts down).
pub fn odds_until(e: &Expr, stop: &AtomicBool) -> Result<Odds, RuleError> {
    build(e, stop).map(|(o, _)| o)
}

/// [`odds_until`] and the steps it took; refused by [`cost`] before
/// anything is built when it would take too much.
fn build(e: &Expr, stop: &AtomicBool) -> Result<(Odds, u64), RuleError> {
    cost(e)?;
    let mut b = Budget {
        work: 0,
        tail: 0.0,
        stop,
    };
    let dist = node(&e.body, &mut b)?.trim();
    let pass = e.target.map(|t| {
        dist.iter()
            .filter(|(v, _)| t.op.holds(*v, t.value))
            .map(|(_, p)| p)
            .sum()
    });
    Ok((
        Odds {
            dist,
            pass,
            tail: b.tail,
        },
        b.work,
    ))
}

#[cfg(test)]
mod tests {
    //! Each answer is compared with a brute-force enumeration written here
    //! independently (every outcome of every die listed).
    use super::*;
    use crate::rules::expr::{parse, Caps};
    use std::collections::BTreeMap;

    fn of(s: &str) -> Odds {
        odds(&parse(s, Caps::default()).unwrap()).unwrap()
    }

    /// Every combination of `n` faces of a `sides`-sided die.
    fn all_rolls(n: u32, sides: u32) -> Vec<Vec<u32>> {
        let mut out = vec![Vec::new()];
        for _ in 0..n {
            out = out
                .into_iter()
                .flat_map(|r| {
                    (1..=sides).map(move |f| {
                        let mut r = r.clone();
                        r.push(f);
                        r
                    })
                })
                .collect();
        }
        out
    }

    fn enumerate(n: u32, sides: u32, value: impl Fn(&[u32]) -> i64) -> BTreeMap<i64, f64> {
        let rolls = all_rolls(n, sides);
        let each = 1.0 / rolls.len() as f64;
        let mut m = BTreeMap::new();
        for r in rolls {
            *m.entry(value(&r)).or_insert(0.0) += each;
        }
        m
    }

    fn same(d: &Dist, m: &BTreeMap<i64, f64>, eps: f64) {
        let total: f64 = d.p.iter().sum();
        assert!((total - 1.0).abs() < eps, "sums to {total}");
        for (v, p) in m {
            assert!((d.at(*v) - p).abs() < eps, "P({v}) = {} vs {p}", d.at(*v));
        }
        for (v, p) in d.iter() {
            if p > eps {
                assert!(m.contains_key(&v), "{v} should not occur");
            }
        }
    }

    #[test]
    fn four_d6_keep_highest_three() {
        let m = enumerate(4, 6, |r| {
            let mut r = r.to_vec();
            r.sort_unstable();
            i64::from(r[1] + r[2] + r[3])
        });
        let o = of("4d6kh3");
        same(&o.dist, &m, 1e-12);
        assert!((o.dist.mean() - 15869.0 / 1296.0).abs() < 1e-12);
        same(&of("4d6dl1").dist, &m, 1e-12);
    }

    #[test]
    fn two_d20_keep_highest_one() {
        let m = enumerate(2, 20, |r| i64::from(*r.iter().max().unwrap()));
        same(&of("2d20kh1").dist, &m, 1e-12);
        // P(= v) = (2v - 1) / 400.
        assert!((of("2d20kh1").dist.at(20) - 39.0 / 400.0).abs() < 1e-15);
        let m = enumerate(2, 20, |r| i64::from(*r.iter().min().unwrap()));
        same(&of("2d20kl1").dist, &m, 1e-12);
        same(&of("2d20dh1").dist, &m, 1e-12);
    }

    #[test]
    fn three_d6_exploding() {
        // One exploding d6 enumerated along its chain up to 12 dice deep
        // (the rest is below 1e-9), then three of them added.
        let mut one: BTreeMap<i64, f64> = BTreeMap::new();
        fn walk(sum: i64, p: f64, depth: u32, one: &mut BTreeMap<i64, f64>) {
            for f in 1..=6 {
                let q = p / 6.0;
                if f == 6 && depth < 12 {
                    walk(sum + 6, q, depth + 1, one);
                } else {
                    *one.entry(sum + f).or_insert(0.0) += q;
                }
            }
        }
        walk(0, 1.0, 0, &mut one);
        let mut three: BTreeMap<i64, f64> = BTreeMap::new();
        for (a, pa) in &one {
            for (b, pb) in &one {
                for (c, pc) in &one {
                    *three.entry(a + b + c).or_insert(0.0) += pa * pb * pc;
                }
            }
        }
        let o = of("3d6!");
        for v in 3..=60 {
            let want = three.get(&v).copied().unwrap_or(0.0);
            assert!((o.dist.at(v) - want).abs() < 1e-9, "P({v})");
        }
        // Mean of one exploding d6: 3.5 / (1 - 1/6) = 4.2.
        assert!((o.dist.mean() - 12.6).abs() < 1e-9, "{}", o.dist.mean());
        assert!(o.tail <= TAIL_BOUND);
    }

    #[test]
    fn five_d10_successes_minus_ones() {
        let m = enumerate(5, 10, |r| {
            r.iter().filter(|f| **f >= 8).count() as i64
                - r.iter().filter(|f| **f == 1).count() as i64
        });
        same(&of("5d10>=8f1").dist, &m, 1e-12);
        let m = enumerate(4, 6, |r| {
            let mut r = r.to_vec();
            r.sort_unstable();
            r[1..].iter().filter(|f| **f >= 5).count() as i64
        });
        same(&of("4d6kh3>=5").dist, &m, 1e-12);
    }

    #[test]
    fn d20_plus_five_against_fifteen() {
        let o = of("1d20+5>=15");
        // 11 of the 20 faces (10 to 20) reach 15.
        assert!((o.pass.unwrap() - 0.55).abs() < 1e-15);
        let m = enumerate(1, 20, |r| i64::from(r[0]) + 5);
        same(&o.dist, &m, 1e-15);
        assert!((of("(1d20) > 15").pass.unwrap() - 0.25).abs() < 1e-15);
    }

    #[test]
    fn rerolls_and_arithmetic() {
        // ro1 on a d6, enumerated over two throws.
        let mut m = BTreeMap::new();
        for a in 1..=6i64 {
            for b in 1..=6i64 {
                let v = if a == 1 { b } else { a };
                *m.entry(v).or_insert(0.0) += 1.0 / 36.0;
            }
        }
        same(&of("1d6ro1").dist, &m, 1e-15);
        // rr1: 1 is left only after 100 rerolls.
        let d = of("1d6rr1").dist;
        assert!((d.at(2) - 0.2).abs() < 1e-12);
        assert!(d.at(1) < 1e-70);
        let m = enumerate(2, 6, |r| i64::from(r[0]) * 2 - i64::from(r[1]) / 2);
        same(&of("1d6*2 - 1d6/2").dist, &m, 1e-15);
        let m = enumerate(2, 4, |r| {
            div_floor(-i64::from(r[0]), i64::from(r[1])).unwrap()
        });
        same(&of("-1d4/1d4").dist, &m, 1e-15);
        assert_eq!(of("0d6 + 3").dist, Dist::point(3));
    }

    #[test]
    fn reroll_once_on_every_face_is_the_second_throw() {
        // Issue 29 item 9: a reroll-once on every face has odds like a plain die.
        assert_eq!(of("10d1ro<2").dist, Dist::point(10));
        let (a, b) = (of("2d6ro<7").dist, of("2d6").dist);
        assert_eq!(a.min, b.min);
        for (x, y) in a.p.iter().zip(&b.p) {
            assert!((x - y).abs() < 1e-15);
        }
    }

    fn parsed(s: &str) -> Expr {
        parse(s, Caps::default()).unwrap()
    }

    /// Issue 29 item 20: the estimate refuses before anything is built, and
    /// names the limit.
    #[test]
    fn the_estimate_refuses_at_once_naming_the_limit() {
        let e = cost(&parsed("11d1000*11d1000")).unwrap_err().message;
        assert_eq!(
            e,
            format!(
                "That expression is too large to compute exactly: it would take {} steps, and the limit is {MAX_WORK}. Try fewer dice, fewer sides or smaller numbers.",
                // 11d1000 twice: 11²·1000²/2 each.
                2 * (121 * 1000u64 * 1000 / 2)
            )
        );
        assert_eq!(odds(&parsed("11d1000*11d1000")).unwrap_err().message, e);
        // Few steps, too many totals: the product of two 1d1000 spans a million.
        let e = cost(&parsed("1d1000*1d1000")).unwrap_err().message;
        assert!(
            e.contains(&format!(
                "it would take 1000000 different totals, and the limit is {MAX_SUPPORT}"
            )),
            "{e}"
        );
        // Three dice products: refused by totals long before the work.
        assert!(cost(&parsed("1d1000*1d1000*1d1000")).is_err());
        let c = cost(&parsed("4d6kh3")).unwrap();
        // keep: 6 faces × ((4+1)²/2 + 1) rows × 19 kept worths (0 to 18).
        assert_eq!(c.steps, 6 * 13 * 19);
        assert_eq!(c.totals, 19);
        assert_eq!(c.cells, 5 * 19 * 2);
        let c = cost(&parsed("2d6 + 3")).unwrap();
        // 2²·6²/2 for the dice, 11·1 for adding the 3.
        assert_eq!(c.steps, 72 + 11);
        assert_eq!(c.totals, 11);
        // Every node of the budget is within the limits for what is accepted.
        let c = cost(&parsed("20d100 + 1d100*1d100")).unwrap();
        assert!(c.steps <= MAX_WORK && c.totals <= MAX_SUPPORT as u64);
    }

    /// The estimate bounds the work the builder really does.
    #[test]
    fn the_estimate_bounds_the_real_work() {
        for s in [
            "4d6kh3",
            "3d6!",
            "5d10!>=8",
            "5d10>=8f1",
            "20d10 - 1d6*1d8",
            "-1d4/1d4 + 1d20",
            "(1d6-3)/1d2",
            "100d6",
            "1d6rr1 + 2d20kl1",
            "10d100*1d10",
            "6d6!>4",
            "3d10!>=8>=2",
        ] {
            let e = parsed(s);
            let c = cost(&e).unwrap_or_else(|e| panic!("{s}: {e}"));
            let (o, work) =
                build(&e, &AtomicBool::new(false)).unwrap_or_else(|e| panic!("{s}: {e}"));
            assert!(work <= c.steps, "{s}: {work} > {}", c.steps);
            assert!(o.dist.p.len() as u64 <= c.totals, "{s}");
        }
    }

    /// A set flag stops every kind of table (sums, keep and drop,
    /// explosions, products) with the stopped error, whatever the size.
    #[test]
    fn a_set_flag_stops_the_computation_with_the_stopped_error() {
        let set = AtomicBool::new(true);
        for s in ["14d1000", "30d100kh15", "3d6!", "1d100*1d100", "2d6 + 3"] {
            let e = parsed(s);
            assert!(cost(&e).is_ok(), "{s} is accepted");
            let r = odds_until(&e, &set).map(|o| o.dist.p.len());
            assert_eq!(r.unwrap_err().message, STOPPED, "{s}");
        }
        // Unset, the same flag changes nothing.
        let o = odds_until(&parsed("2d6 + 3"), &AtomicBool::new(false)).unwrap();
        assert_eq!(o.dist.min, 5);
    }

    /// A flag set while a large computation runs on another thread stops
    /// it at its next step: the answer is the stopped error, not the
    /// distribution (14d1000 takes seconds in a debug build; the flag is set
    /// microseconds after the thread starts).
    #[test]
    fn a_flag_set_in_flight_stops_a_large_computation() {
        use std::sync::Arc;
        let stop = Arc::new(AtomicBool::new(false));
        let e = parsed("14d1000");
        assert!(cost(&e).is_ok());
        let running = {
            let stop = stop.clone();
            std::thread::spawn(move || odds_until(&e, &stop))
        };
        stop.store(true, Ordering::Relaxed);
        let r = running.join().unwrap().map(|o| o.dist.p.len());
        assert_eq!(r.unwrap_err().message, STOPPED);
    }

    #[test]
    fn refusals_are_clear() {
        let e = |s: &str| {
            odds(&parse(s, Caps::default()).unwrap())
                .unwrap_err()
                .message
        };
        assert!(e("4d6!kh3").contains("exploding"));
        assert!(e("1d6/(1d2-1)").contains("divisor"));
        assert!(e("1d1000*1d1000*1d1000").contains("too large"));
        assert!(e("500d1000").contains("too large"));
        assert!(e("11d1000*11d1000").contains("the limit is"));
    }
}
