//! Exact odds for Virtual Veil rolls (spec §5.2 table, §7, A-O1, A-O21).
//!
//! Everything is counted exactly over the 10^N equally likely outcomes of N
//! d10s, with integer arithmetic (u128; 10^38 still fits), then divided once.
//! The count of outcomes where every face shows at most `cap[f]` times is a
//! product of exponential generating functions; it is computed face by face:
//! `ways_f(m) = Σ_j C(m, j) · ways_{f-1}(m − j)` for `j ≤ cap[f]`.
//!
//! Supported pools: 0 to [`ODDS_MAX_DICE`] dice (above `vv_max_pool`'s own
//! limit); larger pools are refused with an error by the `try_` functions.

use super::sets::FACES;
use super::settings::RepairCheck;
use crate::rules::odds::OddsError;
use crate::rules::RuleError;
use serde::Serialize;

/// The largest pool the exact odds support.
pub const ODDS_MAX_DICE: u32 = 30;

fn too_many(dice: u32) -> RuleError {
    RuleError::new(format!(
        "Odds can be computed for at most {ODDS_MAX_DICE} dice, not {dice}."
    ))
}

/// 10^n, the number of outcomes of n d10s, exactly (n ≤ 38).
pub fn outcomes(dice: u32) -> Result<u128, RuleError> {
    if dice > ODDS_MAX_DICE {
        return Err(too_many(dice));
    }
    Ok(10u128.pow(dice))
}

/// Pascal's triangle up to row n.
fn binomials(n: usize) -> Vec<Vec<u128>> {
    let mut rows: Vec<Vec<u128>> = Vec::with_capacity(n + 1);
    for m in 0..=n {
        let mut row = vec![1u128; m + 1];
        for j in 1..m {
            row[j] = rows[m - 1][j - 1] + rows[m - 1][j];
        }
        rows.push(row);
    }
    rows
}

/// Outcomes of `dice` d10s (out of 10^dice) in which face f + 1 shows at most
/// `caps[f]` times, for every face. Needs `dice ≤ ODDS_MAX_DICE`.
fn count_capped(dice: u32, caps: &[u32; 10], binom: &[Vec<u128>]) -> u128 {
    let n = dice as usize;
    // ways[m]: ways to give m labelled dice faces among those processed so
    // far; zero beyond `reach` (the most dice those faces can hold).
    let mut ways = vec![0u128; n + 1];
    ways[0] = 1;
    let mut reach = 0usize;
    let mut next = vec![0u128; n + 1];
    for (f, &cap) in caps.iter().enumerate() {
        let cap = (cap as usize).min(n);
        let new_reach = (reach + cap).min(n);
        // The last face only needs the total for all n dice.
        let first_m = if f + 1 == caps.len() { n } else { 0 };
        for (m, slot) in next
            .iter_mut()
            .enumerate()
            .take(new_reach + 1)
            .skip(first_m)
        {
            let mut total = 0u128;
            // ways[m - j] is zero unless m - j ≤ reach.
            for j in m.saturating_sub(reach)..=cap.min(m) {
                // Every term is at most 10^n ≤ 10^30, far below u128::MAX.
                total = total.saturating_add(binom[m][j].saturating_mul(ways[m - j]));
            }
            *slot = total;
        }
        for slot in next.iter_mut().skip(new_reach + 1) {
            *slot = 0;
        }
        std::mem::swap(&mut ways, &mut next);
        reach = new_reach;
    }
    ways[n]
}

/// The labelled (binomial) product of two count sequences, truncated at n
/// dice: `out[m] = Σ_j C(m, j) · a[j] · b[m − j]`. If `a[j]` counts the ways
/// j labelled dice can show faces from one group and `b` likewise for another,
/// `out[m]` counts m labelled dice over both groups. With `only_last`, just
/// `out[n]` is computed (the rest stays 0).
fn labelled_product(a: &[u128], b: &[u128], binom: &[Vec<u128>], only_last: bool) -> Vec<u128> {
    let n = a.len().min(b.len()).saturating_sub(1);
    let top_a = a.iter().rposition(|&x| x != 0).unwrap_or(0);
    let top_b = b.iter().rposition(|&x| x != 0).unwrap_or(0);
    let mut out = vec![0u128; n + 1];
    let first = if only_last { n } else { 0 };
    for (m, slot) in out.iter_mut().enumerate().skip(first) {
        let mut total = 0u128;
        // a[j] = 0 above top_a, b[m − j] = 0 when m − j > top_b.
        for j in m.saturating_sub(top_b)..=m.min(top_a) {
            total = total.saturating_add(binom[m][j].saturating_mul(a[j]).saturating_mul(b[m - j]));
        }
        *slot = total;
    }
    out
}

/// Outcomes of `dice` d10s with every face shown at most `k` times: the
/// tenth labelled power of one face's sequence (1 way for 0..=k dice),
/// by squaring: a² → a⁴ → a⁵ → a¹⁰.
fn count_all_at_most(dice: u32, k: u32, binom: &[Vec<u128>]) -> u128 {
    let n = dice as usize;
    let one: Vec<u128> = (0..=n).map(|j| u128::from(j <= k as usize)).collect();
    let two = labelled_product(&one, &one, binom, false);
    let four = labelled_product(&two, &two, binom, false);
    let five = labelled_product(&four, &one, binom, false);
    labelled_product(&five, &five, binom, true)[n]
}

/// Outcomes of `dice` d10s where some face shows more than `k` times, when
/// only one face can (2(k + 1) > dice): 10 · Σ_{j>k} C(dice, j) · 9^(dice−j).
fn count_one_face_over(dice: u32, k: u32, binom: &[Vec<u128>]) -> u128 {
    let n = dice as usize;
    (k as usize + 1..=n)
        .map(|j| binom[n][j].saturating_mul(9u128.pow((n - j) as u32)))
        .fold(0u128, |acc, x| acc.saturating_add(x))
        .saturating_mul(10)
}

/// Exact counts for the widest set: element k − 1 is the number of outcomes
/// (out of 10^dice) whose widest set is exactly k dice wide; k = 1 means no
/// set (A-O1). For 0 dice: `[1]` (the single empty outcome has no set).
pub fn widest_counts(dice: u32) -> Result<Vec<u128>, RuleError> {
    if dice > ODDS_MAX_DICE {
        return Err(too_many(dice));
    }
    if dice == 0 {
        return Ok(vec![1]);
    }
    let binom = binomials(dice as usize);
    let total = 10u128.pow(dice);
    // at_most[k] = outcomes with every face shown ≤ k times.
    let mut at_most = Vec::with_capacity(dice as usize + 1);
    at_most.push(0u128);
    for k in 1..dice {
        let count = if 2 * (k + 1) > dice {
            total - count_one_face_over(dice, k, &binom)
        } else {
            count_all_at_most(dice, k, &binom)
        };
        at_most.push(count);
    }
    at_most.push(total);
    Ok((1..=dice as usize)
        .map(|k| at_most[k] - at_most[k - 1])
        .collect())
}

/// Like [`widest_pmf`], but refuses pools above [`ODDS_MAX_DICE`].
pub fn try_widest_pmf(dice: u32) -> Result<Vec<f64>, RuleError> {
    let total = outcomes(dice)? as f64;
    Ok(widest_counts(dice)?
        .into_iter()
        .map(|c| c as f64 / total)
        .collect())
}

/// The odds question of `/vv odds ore` and `kismet odds ore`: how wide the
/// widest set of `dice` d10s is.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct WidestQuestion {
    /// d10s rolled (1 to [`ODDS_MAX_DICE`]).
    pub dice: u32,
}

/// The answer to a [`WidestQuestion`]: element k − 1 is P(the widest set is
/// exactly k wide), k = 1 meaning no set.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct WidestOdds {
    /// P(widest = k), k = 1..=dice.
    pub widest: Vec<f64>,
}

impl WidestQuestion {
    /// The distribution, or why the question is out of range.
    pub fn answer(&self) -> Result<WidestOdds, OddsError> {
        if self.dice == 0 {
            return Err(OddsError::new("dice", 0, "roll at least one die"));
        }
        let widest = try_widest_pmf(self.dice)
            .map_err(|e| OddsError::new("dice", self.dice, e.to_string()))?;
        Ok(WidestOdds { widest })
    }
}

/// The exact distribution of the widest set of `dice` d10s: element k − 1 is
/// P(widest set is exactly k wide), k = 1 meaning no set (A-O1). Row N of the
/// 004 table is the first six elements for N dice.
///
/// Returns an empty vector above [`ODDS_MAX_DICE`] (use [`try_widest_pmf`]
/// for an error message).
pub fn widest_pmf(dice: u32) -> Vec<f64> {
    try_widest_pmf(dice).unwrap_or_default()
}

/// Like [`at_least_width`], but refuses pools above [`ODDS_MAX_DICE`].
pub fn try_at_least_width(dice: u32, width: u32) -> Result<f64, RuleError> {
    try_at_least_width_height(dice, width, 1)
}

/// P(some set is at least `width` dice wide) with `dice` d10s; widths of 0
/// or 1 give 1. NaN above [`ODDS_MAX_DICE`] (see [`try_at_least_width`]).
pub fn at_least_width(dice: u32, width: u32) -> f64 {
    try_at_least_width(dice, width).unwrap_or(f64::NAN)
}

/// Like [`at_least_width_height`], but refuses pools above [`ODDS_MAX_DICE`]
/// and heights outside 1-10.
pub fn try_at_least_width_height(dice: u32, width: u32, height: u32) -> Result<f64, RuleError> {
    let total = outcomes(dice)?;
    if !(1..=FACES).contains(&height) {
        return Err(RuleError::new("The minimum height must be from 1 to 10."));
    }
    if width <= 1 {
        return Ok(1.0);
    }
    if width > dice {
        return Ok(0.0);
    }
    // Complement: every face ≥ height shows fewer than `width` times.
    let mut caps = [dice; 10];
    for (f, cap) in caps.iter_mut().enumerate() {
        if f as u32 + 1 >= height {
            *cap = width - 1;
        }
    }
    let binom = binomials(dice as usize);
    let fail = count_capped(dice, &caps, &binom);
    Ok((total - fail) as f64 / total as f64)
}

/// P(some set is at least `width` wide with height ≥ `height`) — the chance
/// of meeting a difficulty with `min_width` and `min_height` (A-O3). NaN for
/// unsupported input (see [`try_at_least_width_height`]).
pub fn at_least_width_height(dice: u32, width: u32, height: u32) -> f64 {
    try_at_least_width_height(dice, width, height).unwrap_or(f64::NAN)
}

/// P(some set (width ≥ 2) is worth at least `value` = 10 × width + height).
pub fn try_at_least_set_value(dice: u32, value: u32) -> Result<f64, RuleError> {
    let total = outcomes(dice)?;
    let mut caps = [0u32; 10];
    for (f, cap) in caps.iter_mut().enumerate() {
        let h = f as u32 + 1;
        // Width needed at this height: 10w + h ≥ value, and w ≥ 2.
        let need = value.saturating_sub(h).div_ceil(10).max(2);
        *cap = need - 1;
    }
    let binom = binomials(dice as usize);
    let fail = count_capped(dice, &caps, &binom);
    Ok((total - fail) as f64 / total as f64)
}

/// The chance a Cyber repair check passes (A-O21) with `dice` Engineering
/// dice when restoring to `target_value`, under `vv_repair_check`.
pub fn repair_odds(dice: u32, target_value: u32, mode: RepairCheck) -> Result<f64, RuleError> {
    if target_value == 0 {
        return Err(RuleError::new("The Cyber value restored to is at least 1."));
    }
    if mode == RepairCheck::SetValue || target_value > FACES {
        try_at_least_set_value(dice, target_value.saturating_add(10))
    } else {
        try_at_least_width_height(dice, 2, target_value)
    }
}

/// Formats a count out of 10^`dice` the way the 004 table prints it: a
/// percentage rounded half up (exactly, from the integer count) to 2
/// decimals, e.g. "1.22%"; "<0.01%" for a positive value that rounds to 0.
///
/// Exact rounding matters: 6 dice with widest 4 is exactly 1.215%, which
/// `format!("{:.2}")` on the f64 would show as "1.21%".
pub fn format_percent(count: u128, dice: u32) -> Result<String, RuleError> {
    let total = outcomes(dice)?;
    if count > total {
        return Err(RuleError::new(
            "A count cannot exceed the number of outcomes.",
        ));
    }
    // Hundredths of a percent = count · 10^4 / 10^dice, rounded half up.
    let hundredths = if dice >= 4 {
        let div = 10u128.pow(dice - 4);
        let (q, r) = (count / div, count % div);
        if 2 * r >= div {
            q + 1
        } else {
            q
        }
    } else {
        count * 10u128.pow(4 - dice)
    };
    if hundredths == 0 && count > 0 {
        return Ok("<0.01%".into());
    }
    Ok(format!("{}.{:02}%", hundredths / 100, hundredths % 100))
}

/// How many of the 10^`dice` outcomes hold a set at least `width` dice
/// wide (A-O1), counted exactly: what [`format_percent`] shows as a
/// chance. Refuses pools above [`ODDS_MAX_DICE`].
pub fn at_least_width_count(dice: u32, width: u32) -> Result<u128, RuleError> {
    Ok(widest_counts(dice)?
        .into_iter()
        .zip(1u32..)
        .filter(|&(_, k)| k >= width)
        .map(|(c, _)| c)
        .sum())
}

/// One row of the 004 probability table for `dice` dice: the chance that the
/// widest set is exactly 1, 2, … `dice` wide, formatted by [`format_percent`].
pub fn table_row(dice: u32) -> Result<Vec<String>, RuleError> {
    widest_counts(dice)?
        .into_iter()
        .map(|c| format_percent(c, dice))
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Brute force over all 10^n outcomes (small n only).
    fn brute_widest(n: u32) -> Vec<u128> {
        let mut counts = vec![0u128; n.max(1) as usize];
        for per_face in all_outcomes(n) {
            let w = *per_face.iter().max().unwrap();
            counts[(w.max(1) - 1) as usize] += 1;
        }
        counts
    }

    #[test]
    fn a_o1_exact_counts_match_brute_force() {
        for n in 0..=6 {
            assert_eq!(widest_counts(n).unwrap(), brute_widest(n), "{n} dice");
        }
    }

    #[test]
    fn a_o1_outcomes_with_a_set_at_least_so_wide_match_brute_force() {
        for n in 0..=5 {
            let brute = brute_widest(n);
            for w in 0..=n + 1 {
                let want: u128 = (1..=brute.len() as u32)
                    .filter(|&k| k >= w)
                    .map(|k| brute[k as usize - 1])
                    .sum();
                assert_eq!(
                    at_least_width_count(n, w).unwrap(),
                    want,
                    "{n} dice, {w} wide"
                );
            }
        }
        // Two dice make a pair in 10 of 100 outcomes.
        assert_eq!(at_least_width_count(2, 2).unwrap(), 10);
        assert!(at_least_width_count(ODDS_MAX_DICE + 1, 2).is_err());
    }

    #[test]
    fn counts_add_up_and_closed_forms_hold_to_the_largest_pool() {
        for n in 1..=ODDS_MAX_DICE {
            let c = widest_counts(n).unwrap();
            assert_eq!(c.iter().sum::<u128>(), 10u128.pow(n), "{n}");
            // All dice the same face: 10 outcomes.
            assert_eq!(*c.last().unwrap(), 10, "{n}");
            // No set: 10!/(10-n)! outcomes, 0 beyond 10 dice.
            let no_set: u128 = if n <= 10 {
                (0..n as u128).map(|i| 10 - i).product()
            } else {
                0
            };
            assert_eq!(c[0], no_set, "{n}");
            let p = widest_pmf(n);
            assert!((p.iter().sum::<f64>() - 1.0).abs() < 1e-12);
        }
    }

    #[test]
    fn fast_counting_agrees_with_the_face_by_face_count() {
        for n in 1..=ODDS_MAX_DICE {
            let binom = binomials(n as usize);
            for k in 1..n {
                let slow = count_capped(n, &[k; 10], &binom);
                assert_eq!(count_all_at_most(n, k, &binom), slow, "n={n} k={k}");
                if 2 * (k + 1) > n {
                    let fast = 10u128.pow(n) - count_one_face_over(n, k, &binom);
                    assert_eq!(fast, slow, "n={n} k={k}");
                }
            }
        }
    }

    #[test]
    fn unsupported_pools_are_refused() {
        assert!(widest_pmf(ODDS_MAX_DICE + 1).is_empty());
        let err = try_widest_pmf(31).unwrap_err();
        assert_eq!(
            err.message,
            "Odds can be computed for at most 30 dice, not 31."
        );
        assert!(at_least_width(31, 2).is_nan());
        assert!(at_least_width_height(5, 2, 11).is_nan());
        assert!(widest_pmf(u32::MAX).is_empty());
    }

    /// Face counts (index 1-10) of every outcome of n dice.
    fn all_outcomes(n: u32) -> impl Iterator<Item = [u32; 11]> {
        (0..10u64.pow(n)).map(move |code| {
            let mut c = code;
            let mut per_face = [0u32; 11];
            for _ in 0..n {
                per_face[(c % 10 + 1) as usize] += 1;
                c /= 10;
            }
            per_face
        })
    }

    #[test]
    fn at_least_width_height_matches_brute_force() {
        for n in 0..=5u32 {
            // hits[w][h]
            let mut hits = [[0u64; 11]; 7];
            for per_face in all_outcomes(n) {
                for (w, row) in hits.iter_mut().enumerate() {
                    for (h, cell) in row.iter_mut().enumerate().skip(1) {
                        let ok = w <= 1 || (h..=10).any(|f| per_face[f] >= w as u32);
                        *cell += u64::from(ok);
                    }
                }
            }
            for (w, row) in hits.iter().enumerate() {
                for (h, &cell) in row.iter().enumerate().skip(1) {
                    let want = cell as f64 / 10f64.powi(n as i32);
                    let got = at_least_width_height(n, w as u32, h as u32);
                    assert!((got - want).abs() < 1e-12, "n={n} w={w} h={h}");
                }
            }
        }
    }

    #[test]
    fn at_least_set_value_matches_brute_force() {
        let values = [0u32, 21, 25, 30, 31, 35, 40, 41, 51];
        for n in 0..=5u32 {
            let mut hits = [0u64; 9];
            for per_face in all_outcomes(n) {
                for (k, &value) in values.iter().enumerate() {
                    let ok = (1..=10u32).any(|f| {
                        let w = per_face[f as usize];
                        w >= 2 && 10 * w + f >= value
                    });
                    hits[k] += u64::from(ok);
                }
            }
            for (k, &value) in values.iter().enumerate() {
                let want = hits[k] as f64 / 10f64.powi(n as i32);
                let got = try_at_least_set_value(n, value).unwrap();
                assert!((got - want).abs() < 1e-12, "n={n} value={value}");
            }
        }
    }

    #[test]
    fn a_o21_repair_odds_follow_the_mode() {
        // Height mode, V ≤ 10: a set of height ≥ V.
        assert_eq!(
            repair_odds(6, 7, RepairCheck::Height).unwrap(),
            at_least_width_height(6, 2, 7)
        );
        // V > 10 always needs a set value ≥ 10 + V.
        assert_eq!(
            repair_odds(6, 12, RepairCheck::Height).unwrap(),
            try_at_least_set_value(6, 22).unwrap()
        );
        // set_value mode, V = 5: any dub (worth ≥ 21) is ≥ 15.
        assert_eq!(
            repair_odds(6, 5, RepairCheck::SetValue).unwrap(),
            at_least_width(6, 2)
        );
        assert!(repair_odds(6, 0, RepairCheck::Height).is_err());
    }
}
