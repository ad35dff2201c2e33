//! Exact odds for Storyteller rolls (spec §1.8, §7): success / simple
//! failure / botch for any pool, difficulty, threshold and number of
//! specialties, and the distribution of the number of bonus dice (§1.7).
//!
//! # Method (no simulation, no truncated infinite sums)
//!
//! Write S for all successes (base and bonus) and B for base botches. The
//! outcome depends only on S compared with T + B (ST-5, ST-6):
//! success ⇔ S > T + B; simple failure ⇔ S = T + B when B > 0, or S ≤ T when
//! B = 0; botch ⇔ B > 0 and S < T + B. As B ≤ n, only P(S = j) for
//! j ≤ T + n is needed; everything above is lumped into "S > T + B".
//!
//! One bonus die with its descendants (k bonus dice per 10) gives successes
//! with generating function G(z) = q + p·z + (1/10)·z·G(z)^k, where p is the
//! chance of a success below 10 and q of no success. Coefficient j of G
//! needs only coefficients below j of G^k, so the first T + n + 1
//! coefficients come from a *finite* recursion, each exact (a finite sum of
//! products of non-negative numbers). A non-botch base die contributes
//! f + p·z + (1/10)·z·G(z)^k; the pool is a binomial mix over the number b of
//! botching dice. The mass above T + n is obtained as a complement,
//! (9/10)^(n−b) minus the exact low coefficients. This complement is exact
//! because the chains end with probability 1: each die spawns k/10 ≤ 1/2
//! dice on average, a subcritical branching process, so G(1) = 1. Hence no
//! tail is cut off at all and the only error is f64 rounding: every term is
//! non-negative, there are at most a few hundred thousand operations at the
//! largest pools, so the absolute error stays below 1e-13.
//!
//! The 2000-dice cap (A-S11) turns a capped roll into a success. Its
//! probability is below 1e-15 even at 100 dice with 5 specialties (tested
//! with [`bonus_dice_at_least`]), far under the 1e-12 accuracy promised, so
//! the odds ignore it.
//!
//! Cost: about k·(T+n)²/2 + n·(T+n)²/2 − n³/3 multiply-adds; at 50 dice,
//! threshold 0 and 5 specialties that is about 30 000, tens of microseconds.

use serde::{Deserialize, Serialize};

use super::pool::{RollSpec, HARD_MAX_POOL, MAX_SPECIALTIES_IN_USE};
use super::settings::BonusDicePerTen;
use crate::rules::odds::OddsError;

/// The largest threshold the odds functions take; larger ones are cut to it.
pub const MAX_ODDS_THRESHOLD: u32 = 100;
/// The longest bonus-dice series [`bonus_dice_at_least`] will expand.
pub const MAX_SERIES: usize = 4096;

/// The three outcome probabilities of a roll (they sum to 1).
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
pub struct Outcome3 {
    /// P(success): net successes above 0.
    pub success: f64,
    /// P(simple failure): net 0.
    pub failure: f64,
    /// P(botch): net below 0.
    pub botch: f64,
}

/// The odds question of `/st odds st` and `kismet odds st`: a pool at a
/// difficulty, a threshold and specialties in use, under a bonus-dice rule.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct StQuestion {
    /// Dice in the pool (0-50).
    pub pool: u32,
    /// Difficulty (2-10).
    pub difficulty: u32,
    /// Successes removed first (0-50).
    pub threshold: u32,
    /// Specialties in use (0-5).
    pub specialties: u32,
    /// How many bonus dice a 10 gives (the server's `st_bonus_dice_per_ten`).
    pub per_ten: BonusDicePerTen,
}

impl StQuestion {
    /// Success, simple failure and botch, or why the question is out of
    /// range.
    pub fn answer(&self) -> Result<Outcome3, OddsError> {
        let StQuestion {
            pool,
            difficulty,
            threshold,
            specialties,
            per_ten,
        } = *self;
        if pool > 50 {
            return Err(OddsError::new("pool", pool, "at most 50 dice"));
        }
        if !(2..=10).contains(&difficulty) {
            return Err(OddsError::new(
                "difficulty",
                difficulty,
                "difficulties run from 2 to 10",
            ));
        }
        if specialties > 5 {
            return Err(OddsError::new("specialties", specialties, "at most 5"));
        }
        if threshold > 50 {
            return Err(OddsError::new("threshold", threshold, "at most 50"));
        }
        Ok(roll_odds_with(
            pool,
            difficulty,
            threshold,
            specialties,
            per_ten,
        ))
    }
}

/// Exact odds with the default A-S3 rule (one bonus die per specialty per
/// 10). `pool` 0 is the default zero-pool rule: an automatic simple failure.
/// A difficulty below 2 counts as 2; above 10 no success is possible.
/// Inputs are cut to 100 dice, threshold 100 and 5 specialties.
pub fn roll_odds(pool: u32, difficulty: u32, threshold: u32, specialties: u32) -> Outcome3 {
    roll_odds_with(
        pool,
        difficulty,
        threshold,
        specialties,
        BonusDicePerTen::PerSpecialty,
    )
}

/// Exact odds under a given `st_bonus_dice_per_ten` rule (A-S3).
pub fn roll_odds_with(
    pool: u32,
    difficulty: u32,
    threshold: u32,
    specialties: u32,
    per_ten: BonusDicePerTen,
) -> Outcome3 {
    let k = per_ten.dice_per_ten(specialties.min(MAX_SPECIALTIES_IN_USE));
    roll_odds_per_ten(pool, difficulty, threshold, k)
}

/// Exact odds of a built roll, honouring everything the spec fixed: the
/// zero-pool rule (A-S1), the difficulty past 10 (A-S2) and the bonus dice
/// per 10 (A-S3).
pub fn spec_odds(spec: &RollSpec) -> Outcome3 {
    if spec.is_auto_fail() {
        return Outcome3 {
            success: 0.0,
            failure: 1.0,
            botch: 0.0,
        };
    }
    if spec.uses_chance_die() {
        let success = if spec.threshold == 0 && spec.success_possible() {
            0.1
        } else {
            0.0
        };
        return Outcome3 {
            success,
            failure: 1.0 - success - 0.1,
            botch: 0.1,
        };
    }
    roll_odds_per_ten(
        spec.dice,
        spec.difficulty,
        spec.threshold,
        spec.bonus_dice_per_ten.min(MAX_SPECIALTIES_IN_USE),
    )
}

/// Exact odds with `k` bonus dice per 10 (0 = no specialties). `pool` 0 is
/// an automatic simple failure. Inputs are cut as for [`roll_odds`]
/// (`k` to 5).
pub fn roll_odds_per_ten(pool: u32, difficulty: u32, threshold: u32, k: u32) -> Outcome3 {
    let n = pool.min(HARD_MAX_POOL) as usize;
    let t = threshold.min(MAX_ODDS_THRESHOLD) as usize;
    let k = k.min(MAX_SPECIALTIES_IN_USE) as usize;
    let d = difficulty.max(2);
    if n == 0 {
        return Outcome3 {
            success: 0.0,
            failure: 1.0,
            botch: 0.0,
        };
    }
    if d > 10 {
        // No success possible: a simple failure exactly when no die shows 1.
        let clean = 0.9f64.powi(n as i32);
        return Outcome3 {
            success: 0.0,
            failure: clean,
            botch: 1.0 - clean,
        };
    }
    let top = t + n;
    let p = f64::from(10 - d) / 10.0; // faces d..=9
    let q = f64::from(d - 1) / 10.0; // bonus faces 1..d-1: nothing
    let f = f64::from(d - 2) / 10.0; // base faces 2..d-1: simple failures
    let e = bonus_tree_power(p, q, k, top);
    // Q(z): one base die that is not a 1.
    let mut qpoly = vec![0.0; top + 1];
    qpoly[0] = f;
    qpoly[1] += p;
    for j in 1..=top {
        qpoly[j] += 0.1 * e[j - 1];
    }
    let mut success = 0.0;
    let mut failure = 0.0;
    let mut botch = 0.0;
    // r = Q^m for m = 0..=n, with b = n - m botching dice. With b botches
    // only S ≤ t + b matters, so Q^m is kept to degree t + n - m: each step
    // needs no more of Q^(m-1) than the previous step kept.
    let mut r = vec![0.0; top + 1];
    r[0] = 1.0;
    for m in 0..=n {
        let b = n - m;
        let cut = t + b; // success ⇔ S > cut
        if m > 0 {
            r = mul_truncated(&r, &qpoly, cut);
        }
        let w = binomial_coefficient(n, b) * 0.1f64.powi(b as i32);
        let mass = 0.9f64.powi(m as i32);
        let below: f64 = r[..cut].iter().sum();
        let at = r[cut];
        let above = (mass - below - at).max(0.0);
        success += w * above;
        if b == 0 {
            failure += w * (below + at);
        } else {
            failure += w * at;
            botch += w * below;
        }
    }
    Outcome3 {
        success,
        failure,
        botch,
    }
}

/// Coefficients 0..=top of G(z)^k, where G(z) = q + p·z + z·G(z)^k / 10 is
/// the successes from one bonus die and its descendants. `k` = 0 gives 1.
fn bonus_tree_power(p: f64, q: f64, k: usize, top: usize) -> Vec<f64> {
    let mut one = vec![0.0; top + 1];
    one[0] = 1.0;
    if k == 0 {
        return one;
    }
    // pw[i] = G^(i+1), filled one coefficient at a time.
    let mut pw = vec![vec![0.0; top + 1]; k];
    for j in 0..=top {
        let g = if j == 0 {
            q
        } else {
            (if j == 1 { p } else { 0.0 }) + 0.1 * pw[k - 1][j - 1]
        };
        pw[0][j] = g;
        for i in 1..k {
            let mut s = 0.0;
            for a in 0..=j {
                s += pw[0][a] * pw[i - 1][j - a];
            }
            pw[i][j] = s;
        }
    }
    pw.pop().unwrap_or(one)
}

/// The product of two series, kept to degree `top`.
fn mul_truncated(a: &[f64], b: &[f64], top: usize) -> Vec<f64> {
    let mut out = vec![0.0; top + 1];
    for (i, &x) in a.iter().enumerate().take(top + 1) {
        if x == 0.0 {
            continue;
        }
        for (o, &y) in out[i..].iter_mut().zip(b) {
            *o += x * y;
        }
    }
    out
}

fn binomial_coefficient(n: usize, k: usize) -> f64 {
    let k = k.min(n - k);
    (0..k).fold(1.0, |acc, i| acc * (n - i) as f64 / (i + 1) as f64)
}

fn bonus_k(specialties: u32, per_ten: BonusDicePerTen) -> usize {
    per_ten.dice_per_ten(specialties.min(MAX_SPECIALTIES_IN_USE)) as usize
}

/// Coefficients 0..=len of H(z)^n, where H(z) = 9/10 + z·H(z)^k / 10 counts
/// the 10s in one die's chain: the distribution of the total number of 10s.
fn tens_distribution(n: usize, k: usize, len: usize) -> Vec<f64> {
    if k == 0 {
        let mut point = vec![0.0; len + 1];
        point[0] = 1.0;
        return point;
    }
    let mut h = vec![0.0; len + 1];
    // hk = H^k, built coefficient by coefficient as in `bonus_tree_power`.
    let mut pw = vec![vec![0.0; len + 1]; k];
    for j in 0..=len {
        let c = if j == 0 { 0.9 } else { 0.1 * pw[k - 1][j - 1] };
        h[j] = c;
        pw[0][j] = c;
        for i in 1..k {
            let mut s = 0.0;
            for a in 0..=j {
                s += pw[0][a] * pw[i - 1][j - a];
            }
            pw[i][j] = s;
        }
    }
    // H^n by binary powering.
    let mut result = vec![0.0; len + 1];
    result[0] = 1.0;
    let mut base = h;
    let mut e = n;
    while e > 0 {
        if e & 1 == 1 {
            result = mul_truncated(&result, &base, len);
        }
        e >>= 1;
        if e > 0 {
            base = mul_truncated(&base, &base, len);
        }
    }
    result
}

/// P(bonus dice = i) for i in 0..=`max_count`, for a pool of `pool` dice with
/// `specialties` in use (§1.7). Exact coefficients (finite recursion); the
/// mass above `max_count` is 1 minus their sum. `max_count` is cut to 4096.
pub fn bonus_dice_distribution(
    pool: u32,
    specialties: u32,
    per_ten: BonusDicePerTen,
    max_count: usize,
) -> Vec<f64> {
    let max_count = max_count.min(MAX_SERIES);
    let mut out = vec![0.0; max_count + 1];
    let k = bonus_k(specialties, per_ten);
    let n = pool.min(HARD_MAX_POOL) as usize;
    if k == 0 || n == 0 {
        out[0] = 1.0;
        return out;
    }
    let tens = tens_distribution(n, k, max_count / k);
    for (j, p) in tens.iter().enumerate() {
        if let Some(slot) = out.get_mut(j * k) {
            *slot = *p;
        }
    }
    out
}

/// P(at least `count` bonus dice) (§1.7), accurate to a relative 1e-12 even
/// for tiny tails such as P(≥ 1000) ≈ 2.5×10⁻²².
///
/// The number of 10s N has P(N = j) = coefficient j of H(z)^n. The terms from
/// c = ⌈count/k⌉ to L are summed directly (no cancellation), and L grows until
/// the rest provably falls below 1e-14 of the sum. The bound (Chernoff): for
/// any x > 1, P(N > L) ≤ E[x^N] / x^(L+1) = H(x)^n / x^(L+1). H(x) is the
/// least fixed point of h = 9/10 + x·h^k/10 (the limit of the iteration from
/// 0, which sums over chains of bounded depth), so any h with
/// 9/10 + x·h^k/10 ≤ h bounds H(x) from above; the code checks that inequality
/// numerically before using h. If L would pass 4096 the function returns the
/// sum plus the bound (an upper estimate).
pub fn bonus_dice_at_least(
    pool: u32,
    specialties: u32,
    per_ten: BonusDicePerTen,
    count: u64,
) -> f64 {
    let k = bonus_k(specialties, per_ten);
    let n = pool.min(HARD_MAX_POOL) as usize;
    if count == 0 {
        return 1.0;
    }
    if k == 0 || n == 0 {
        return 0.0;
    }
    let c = count.div_ceil(k as u64);
    if c > MAX_SERIES as u64 {
        return chernoff_tail(n, k, c as usize - 1).min(1.0);
    }
    let c = c as usize;
    let mut len = (2 * c + 64).min(MAX_SERIES);
    loop {
        let tens = tens_distribution(n, k, len);
        let sum: f64 = tens[c..].iter().sum();
        let bound = chernoff_tail(n, k, len);
        if bound <= 1e-14 * sum || bound < 1e-300 {
            return sum;
        }
        if len >= MAX_SERIES {
            return (sum + bound).min(1.0);
        }
        len = (len * 2).min(MAX_SERIES);
    }
}

/// An upper bound on P(N > l), N the number of 10s (see [`bonus_dice_at_least`]).
fn chernoff_tail(n: usize, k: usize, l: usize) -> f64 {
    let mut best = 1.0f64;
    for x in [
        1.001, 1.002, 1.005, 1.01, 1.02, 1.03, 1.05, 1.07, 1.1, 1.15, 1.2, 1.3, 1.5, 2.0, 3.0, 5.0,
        8.0,
    ] {
        if let Some(h) = fixed_point_upper(x, k) {
            let log_bound = n as f64 * h.ln() - (l as f64 + 1.0) * f64::ln(x);
            best = best.min(log_bound.exp());
        }
    }
    best
}

/// A verified h ≥ H(x): iterate h ← 9/10 + x·h^k/10 from 0, then check that a
/// slightly larger h is a super-solution. `None` when no fixed point exists.
fn fixed_point_upper(x: f64, k: usize) -> Option<f64> {
    let step = |h: f64| 0.9 + 0.1 * x * h.powi(k as i32);
    let mut h = 0.0f64;
    for _ in 0..5000 {
        let next = step(h);
        if next > 1e6 {
            return None;
        }
        if (next - h).abs() < 1e-15 * next {
            h = next;
            break;
        }
        h = next;
    }
    let up = h * (1.0 + 1e-9);
    (step(up) <= up).then_some(up)
}
