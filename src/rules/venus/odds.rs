//! Exact odds for the Venus Engine, both editions (spec §2 and §7).
//!
//! Everything here is computed, never simulated:
//! - edition-1 checks: d20 + score with the best-of-d6 bonus (VE1-C2..C6);
//! - edition-2 checks: d20 + score with a flat bonus (VE2-C2..C6) and the
//!   three automatic-pass tables of A-V1;
//! - edition-1 tasks: D6 beats per rank, allies' dice, Ego "double 6s"
//!   (VE1-T4, VE1-K4b, A-V12);
//! - edition-2 tasks: D10 passes per rank, exploding 10s with no limit and Ego
//!   "10s count double" (VE2-T4, VE2-T5, VE2-T8, A-V19);
//! - KISS re-rolls in both editions: the chance that re-rolling a chosen set
//!   of dice ends in a success (VE1-K3, VE2-K).
//!
//! A distribution is a `Vec<f64>` whose element `k` is P(X = k), as in
//! [`crate::rules::dist`]. Pools without exploding dice have a finite support
//! and are returned in full. Exploding 10s make the support infinite: the
//! returned distribution stops where the remaining tail is below
//! [`TAIL_EPSILON`].
//!
//! The exploding pool is computed in closed form: a chain of exploding rolls
//! ends on a non-10 face that is uniform on 1..9 whatever the chain's length,
//! so with `n` exploding dice the number of 10s is negative binomial
//! (`n` stops of probability 0.9) and independent of the final faces, which
//! are Bernoulli((10 - min) / 9) each. The tens' distribution comes from the
//! recursion P(t + 1) = P(t) · 0.1 · (n + t) / (t + 1).
//!
//! Inputs are never rejected by the numeric functions: dice counts are capped
//! at [`MAX_ODDS_DICE`], bonus dice at 4 and flat bonuses at +8, and integer
//! arithmetic is widened so nothing overflows. The helpers that take dice
//! faces ([`ve1_kiss_odds`], [`ve2_kiss_odds`]) validate them and return a
//! [`RuleError`].

use serde::{Deserialize, Serialize};

use crate::rules::dist::{at_least, binomial, convolve, mean};
use crate::rules::odds::OddsError;
use crate::rules::venus::Rank;
use crate::rules::RuleError;

/// The most dice any odds function looks at (roller's dice first, then
/// allies'). Larger requests are computed as if only the first
/// `MAX_ODDS_DICE` dice were rolled; the bot's own caps (`ve_max_pool`,
/// `max_dice_per_roll`) are far below this.
pub const MAX_ODDS_DICE: usize = 256;

/// The most bonus d6s an edition-1 check may roll (VE1-C6: up to 4 factors).
pub const VE1_MAX_BONUS_DICE: u32 = 4;

/// The largest flat bonus on an edition-2 check (VE2-C6: at most +8).
pub const VE2_MAX_BONUS: u32 = 8;

/// Exploding pools are truncated where the remaining tail probability is
/// below this: the returned distribution sums to at least `1 - TAIL_EPSILON`.
pub const TAIL_EPSILON: f64 = 1e-15;

/// Tail bound used when truncating the distribution of the number of 10s;
/// well below [`TAIL_EPSILON`] so that the final trim has room.
const TENS_TAIL_GUARD: f64 = 1e-18;

// ---------------------------------------------------------------------------
// Small shared helpers
// ---------------------------------------------------------------------------

/// The chance that one edition-1 task die (D6) strikes at least one beat
/// (VE1-T4): Br 1/3, Si 1/2, Go 2/3, Pl 5/6.
pub fn ve1_die_chance(rank: Rank) -> f64 {
    f64::from(7 - rank.d6_beat_min()) / 6.0
}

/// The chance that one edition-2 task die (D10) passes (VE2-T4):
/// Br 0.4, Si 0.5, Go 0.6, Pl 0.7.
pub fn ve2_die_chance(rank: Rank) -> f64 {
    f64::from(11 - rank.d10_pass_min()) / 10.0
}

/// The expected passes of one edition-2 task die (§7): `p` plain,
/// `p / 0.9` when 10s explode, `p + 0.1` with Ego (10s count double), and
/// `(p + 0.1) / 0.9` with both.
pub fn ve2_die_mean(rank: Rank, explode: bool, ego: bool) -> f64 {
    let per_roll = ve2_die_chance(rank) + if ego { 0.1 } else { 0.0 };
    if explode {
        per_roll / 0.9
    } else {
        per_roll
    }
}

/// The standard deviation of a binomial count, √(n·p·(1−p)) (§7).
pub fn sigma(n: u32, p: f64) -> f64 {
    (f64::from(n) * p * (1.0 - p)).max(0.0).sqrt()
}

/// The standard deviation of a distribution given as a pmf.
pub fn pmf_sigma(pmf: &[f64]) -> f64 {
    let mu = mean(pmf);
    let var: f64 = pmf
        .iter()
        .enumerate()
        .map(|(k, p)| {
            let d = k as f64 - mu;
            d * d * p
        })
        .sum();
    var.max(0.0).sqrt()
}

/// P(X ≥ k) for a distribution given as a pmf; 0 when `k` is past its end.
pub fn prob_at_least(pmf: &[f64], k: u32) -> f64 {
    let k = usize::try_from(k).unwrap_or(usize::MAX);
    if k == 0 {
        return 1.0;
    }
    pmf.get(k..).map_or(0.0, |tail| tail.iter().sum())
}

/// Tail sums with P(X ≥ 0) set to exactly 1.
fn at_least_exact(pmf: &[f64]) -> Vec<f64> {
    let mut out = at_least(pmf);
    if let Some(first) = out.first_mut() {
        *first = 1.0;
    }
    out
}

/// The distribution of the sum of `n` independent copies of `die`.
fn power(die: &[f64], n: usize) -> Vec<f64> {
    (0..n).fold(vec![1.0], |acc, _| convolve(&acc, die))
}

/// Drops trailing entries whose total is below `budget`, keeping at least
/// one entry.
fn trim_tail(pmf: &mut Vec<f64>, budget: f64) {
    let mut dropped = 0.0;
    while pmf.len() > 1 {
        let last = pmf[pmf.len() - 1];
        if dropped + last < budget {
            dropped += last;
            pmf.pop();
        } else {
            break;
        }
    }
}

/// Shifts a pmf up by `offset`.
fn shifted(pmf: &[f64], offset: usize) -> Vec<f64> {
    let mut out = vec![0.0; offset];
    out.extend_from_slice(pmf);
    out
}

fn rank_index(rank: Rank) -> usize {
    match rank {
        Rank::Bronze => 0,
        Rank::Silver => 1,
        Rank::Gold => 2,
        Rank::Platinum => 3,
    }
}

// ---------------------------------------------------------------------------
// Edition 1 checks (VE1-C*)
// ---------------------------------------------------------------------------

/// True when the natural d20 `natural` passes an edition-1 check
/// automatically (VE1-C4): Br never, Si on 20, Go and Pl on 19-20 (A-V29).
pub fn ve1_autopass(rank: Rank, natural: u32) -> bool {
    match rank {
        Rank::Bronze => false,
        Rank::Silver => natural == 20,
        Rank::Gold | Rank::Platinum => natural == 19 || natural == 20,
    }
}

/// The chance of an edition-1 automatic pass per d20 (VE1-C4):
/// Br 0, Si 0.05, Go 0.10, Pl 0.10.
pub fn ve1_natural_pass_chance(rank: Rank) -> f64 {
    let faces = (1..=20).filter(|&n| ve1_autopass(rank, n)).count();
    faces as f64 / 20.0
}

/// P(pass) for an edition-1 check (VE1-C2..C6).
///
/// The roller adds `score` to a natural d20 and needs `target`. A natural 1
/// fails at once unless the rank is Platinum (VE1-C3, A-V18); a natural in
/// the rank's automatic-pass set passes (VE1-C4); otherwise the sum is
/// compared with the target (VE1-C5). When short by 1..6 the roller rolls
/// `bonus_dice` d6s and adds the highest (VE1-C6); short by more fails.
/// `bonus_dice` above 4 is treated as 4 (the rules' limit); 0 means the roller
/// claims no bonus factor.
pub fn ve1_check_pass(score: i32, target: i32, rank: Rank, bonus_dice: u32) -> f64 {
    let dice = bonus_dice.min(VE1_MAX_BONUS_DICE);
    let mut total = 0.0;
    for natural in 1..=20u32 {
        if natural == 1 && rank != Rank::Platinum {
            continue;
        }
        if ve1_autopass(rank, natural) {
            total += 1.0;
            continue;
        }
        let sum = i64::from(natural) + i64::from(score);
        let short = (i64::from(target) - sum).max(0);
        total += ve1_bonus_closes(u32::try_from(short).unwrap_or(u32::MAX), dice);
    }
    total / 20.0
}

/// P(the highest of `dice` bonus d6 closes a shortfall of `short`)
/// (VE1-C6): 1 − ((short − 1) / 6)^dice; 1 when nothing is short, 0 when
/// short by more than 6.
pub fn ve1_bonus_closes(short: u32, dice: u32) -> f64 {
    match short {
        0 => 1.0,
        1..=6 => 1.0 - (f64::from(short - 1) / 6.0).powi(i32::try_from(dice).unwrap_or(i32::MAX)),
        _ => 0.0,
    }
}

// ---------------------------------------------------------------------------
// Edition 2 checks (VE2-C*)
// ---------------------------------------------------------------------------

/// Which naturals pass an edition-2 check automatically (VE2-C4, A-V1,
/// setting `ve2_autopass_ranges`). Each rank passes on every natural from its
/// lowest automatic pass up to 20.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum AutoPass {
    /// The 001 text (default): Br {20}, Si {19, 20}, Go {18-20}, Pl {17-20}.
    #[default]
    Text,
    /// The 001 table: Br none, Si {20}, Go {19, 20}, Pl {18-20}.
    Table,
    /// A GM-chosen lowest automatic pass per rank; `None` means that rank
    /// never passes automatically. Values above 20 also mean none.
    Custom {
        /// Bronze's lowest automatic pass.
        bronze: Option<u32>,
        /// Silver's lowest automatic pass.
        silver: Option<u32>,
        /// Gold's lowest automatic pass.
        gold: Option<u32>,
        /// Platinum's lowest automatic pass.
        platinum: Option<u32>,
    },
}

impl AutoPass {
    /// The lowest natural that passes automatically for `rank`, if any.
    pub fn lowest(&self, rank: Rank) -> Option<u32> {
        let lowest = match self {
            AutoPass::Text => Some(match rank {
                Rank::Bronze => 20,
                Rank::Silver => 19,
                Rank::Gold => 18,
                Rank::Platinum => 17,
            }),
            AutoPass::Table => match rank {
                Rank::Bronze => None,
                Rank::Silver => Some(20),
                Rank::Gold => Some(19),
                Rank::Platinum => Some(18),
            },
            AutoPass::Custom {
                bronze,
                silver,
                gold,
                platinum,
            } => match rank {
                Rank::Bronze => *bronze,
                Rank::Silver => *silver,
                Rank::Gold => *gold,
                Rank::Platinum => *platinum,
            },
        };
        lowest.filter(|&lo| lo <= 20)
    }

    /// True when the natural d20 `natural` (1..=20) passes automatically.
    pub fn contains(&self, rank: Rank, natural: u32) -> bool {
        natural <= 20 && self.lowest(rank).is_some_and(|lo| natural >= lo)
    }

    /// The automatic-pass range as shown to players: "none", "20" or "18-20".
    pub fn describe(&self, rank: Rank) -> String {
        match self.lowest(rank) {
            None => "none".to_string(),
            Some(20) => "20".to_string(),
            Some(lo) => format!("{}-20", lo.max(1)),
        }
    }
}

/// The chance of an edition-2 automatic pass per d20 under the active
/// ranges (A-V4). A natural 1 fails first (VE2-C3), so it is not counted
/// unless `platinum_ignores_nat1` applies to a Platinum roller.
pub fn ve2_natural_pass_chance(
    rank: Rank,
    autopass: &AutoPass,
    platinum_ignores_nat1: bool,
) -> f64 {
    let nat1_ok = platinum_ignores_nat1 && rank == Rank::Platinum;
    let faces = (1..=20)
        .filter(|&n| (n != 1 || nat1_ok) && autopass.contains(rank, n))
        .count();
    faces as f64 / 20.0
}

/// P(pass) for an edition-2 check (VE2-C2..C6).
///
/// A natural 1 fails whatever the bonuses (VE2-C3), except for a Platinum
/// roller when `platinum_ignores_nat1` is on (A-V3). A natural in the
/// rank's `autopass` range passes (VE2-C4). Otherwise the check passes when
/// natural + `score` + `bonus` ≥ `target` (VE2-C5, VE2-C6); the flat
/// `bonus` only matters when the roll is short, and is capped at +8.
pub fn ve2_check_pass(
    score: i32,
    target: i32,
    rank: Rank,
    bonus: u32,
    autopass: &AutoPass,
    platinum_ignores_nat1: bool,
) -> f64 {
    let bonus = i64::from(bonus.min(VE2_MAX_BONUS));
    let nat1_ok = platinum_ignores_nat1 && rank == Rank::Platinum;
    let passes = (1..=20u32)
        .filter(|&natural| {
            if natural == 1 && !nat1_ok {
                false
            } else if autopass.contains(rank, natural) {
                true
            } else {
                i64::from(natural) + i64::from(score) + bonus >= i64::from(target)
            }
        })
        .count();
    passes as f64 / 20.0
}

// ---------------------------------------------------------------------------
// Edition 1 tasks (VE1-T*, VE1-K4b)
// ---------------------------------------------------------------------------

/// The beats of one D6 of `rank`: [P(0), P(1)] or, with Ego "double 6s",
/// [P(0), P(1), P(2)] where a 6 strikes 2 beats.
fn ve1_die_pmf(rank: Rank, ego_double_six: bool) -> Vec<f64> {
    let min = f64::from(rank.d6_beat_min());
    let miss = (min - 1.0) / 6.0;
    if ego_double_six {
        vec![miss, (6.0 - min) / 6.0, 1.0 / 6.0]
    } else {
        vec![miss, (7.0 - min) / 6.0]
    }
}

/// The distribution of beats struck by a pool of D6s, one entry per die
/// giving that die's rank (VE1-T4). With `ego_double_six` every 6 strikes 2
/// beats (VE1-K4b). At most [`MAX_ODDS_DICE`] dice are considered.
pub fn ve1_pool_pmf(dice: &[Rank], ego_double_six: bool) -> Vec<f64> {
    let dice = &dice[..dice.len().min(MAX_ODDS_DICE)];
    let mut counts = [0usize; 4];
    for &rank in dice {
        counts[rank_index(rank)] += 1;
    }
    Rank::ALL
        .iter()
        .zip(counts)
        .filter(|&(_, n)| n > 0)
        .fold(vec![1.0], |acc, (&rank, n)| {
            convolve(&acc, &power(&ve1_die_pmf(rank, ego_double_six), n))
        })
}

/// The distribution of beats struck by a pool of D6s, one `(rank,
/// explodes)` entry per die, under the edition-1 house rule
/// `ve1_explosions`: a die that explodes strikes a beat on each 6 and adds
/// another die of the same rank, without limit. With `ego_double_six` every
/// 6 strikes 2 beats. Without exploding dice it is [`ve1_pool_pmf`]; with
/// them the result is cut where the remaining tail is below
/// [`TAIL_EPSILON`].
pub fn ve1_exploding_pool_pmf(dice: &[(Rank, bool)], ego_double_six: bool) -> Vec<f64> {
    let dice = &dice[..dice.len().min(MAX_ODDS_DICE)];
    let plain: Vec<Rank> = dice.iter().filter(|d| !d.1).map(|d| d.0).collect();
    let mut acc = ve1_pool_pmf(&plain, ego_double_six);
    let mut chains = 0usize;
    for rank in Rank::ALL {
        let n = dice.iter().filter(|d| d.1 && d.0 == rank).count();
        if n == 0 {
            continue;
        }
        chains += n;
        // Each chain ends on a face uniform on 1..5: it strikes with
        // probability (6 - min) / 5, independently of its 6s.
        let min = f64::from(rank.d6_beat_min());
        let k = u32::try_from(n).unwrap_or(u32::MAX);
        acc = convolve(&acc, &binomial(k, (6.0 - min) / 5.0));
    }
    if chains > 0 {
        let (sixes, left_out) = max_faces_pmf(chains, 1.0 / 6.0);
        let stride = if ego_double_six { 2 } else { 1 };
        let mut spread = vec![0.0; (sixes.len() - 1) * stride + 1];
        for (t, p) in sixes.iter().enumerate() {
            spread[t * stride] = *p;
        }
        acc = convolve(&acc, &spread);
        trim_tail(&mut acc, TAIL_EPSILON - left_out);
    }
    acc
}

/// The roller's `dice` dice of `rank` followed by one die per ally at the
/// ally's rank, capped at [`MAX_ODDS_DICE`] in total.
fn task_ranks(dice: u32, rank: Rank, ally_ranks: &[Rank]) -> Vec<Rank> {
    let own = usize::try_from(dice)
        .unwrap_or(usize::MAX)
        .min(MAX_ODDS_DICE);
    let mut ranks = vec![rank; own];
    ranks.extend(ally_ranks.iter().take(MAX_ODDS_DICE - own));
    ranks
}

/// The distribution of beats in an edition-1 task: element `k` is
/// P(beats = k), up to the most beats possible.
///
/// The roller rolls `dice` D6 at `rank` (VE1-T1, VE1-T4) and each ally in
/// `ally_ranks` adds one die at the ally's rank (VE1-T3, A-V10). With
/// `ego_double_six` (Ego mode ii) every 6 strikes 2 beats, allies' dice
/// included (VE1-K4b, A-V12).
pub fn ve1_task_pmf(dice: u32, rank: Rank, ally_ranks: &[Rank], ego_double_six: bool) -> Vec<f64> {
    ve1_pool_pmf(&task_ranks(dice, rank, ally_ranks), ego_double_six)
}

/// Element `k` is P(beats ≥ k) for the task of [`ve1_task_pmf`], for `k`
/// from 0 up to the most beats possible.
pub fn ve1_task_at_least(
    dice: u32,
    rank: Rank,
    ally_ranks: &[Rank],
    ego_double_six: bool,
) -> Vec<f64> {
    at_least_exact(&ve1_task_pmf(dice, rank, ally_ranks, ego_double_six))
}

// ---------------------------------------------------------------------------
// Edition 2 tasks (VE2-T*)
// ---------------------------------------------------------------------------

/// The distribution of the number of 10s rolled by `n` exploding D10 chains,
/// negative binomial: P(T = t) = C(n + t − 1, t) · 0.9ⁿ · 0.1ᵗ, truncated
/// once the remaining tail is provably below [`TENS_TAIL_GUARD`]. Returns the
/// pmf and that bound on the mass left out.
fn tens_pmf(n: usize) -> (Vec<f64>, f64) {
    max_faces_pmf(n, 0.1)
}

/// The distribution of the number of highest faces rolled by `n` exploding
/// chains whose dice show the highest face with probability `q` (0.1 for a
/// D10, 1/6 for a D6): P(T = t) = C(n + t − 1, t) · (1 − q)ⁿ · qᵗ, truncated
/// like [`tens_pmf`]. Returns the pmf and a bound on the mass left out.
fn max_faces_pmf(n: usize, q: f64) -> (Vec<f64>, f64) {
    let nf = n as f64;
    let mut out = vec![(1.0 - q).powi(i32::try_from(n).unwrap_or(i32::MAX))];
    // Safety stop far past any tail that matters (n <= MAX_ODDS_DICE).
    while out.len() < 100_000 {
        let t = (out.len() - 1) as f64;
        let last = out[out.len() - 1];
        // The ratio P(t + 1) / P(t) is 0.1 (n + t) / (t + 1), non-increasing
        // in t, so once it is below 1 the tail past t + 1 is geometric-bounded.
        let ratio = q * (nf + t) / (t + 1.0);
        let next = last * ratio;
        if ratio < 1.0 {
            let tail_bound = next / (1.0 - ratio);
            if tail_bound < TENS_TAIL_GUARD {
                return (out, tail_bound);
            }
        }
        out.push(next);
    }
    (out, 0.0)
}

/// The distribution of passes for a pool of D10s, one `(rank, explodes)`
/// entry per die (VE2-T4, VE2-T5), with `ego` making every 10 count as 2
/// passes (VE2-T8), exploded 10s included.
///
/// A die that explodes adds one more die of the same rank on a 10, without
/// limit. When any die explodes the support is infinite and the result is
/// cut where the remaining tail is below [`TAIL_EPSILON`]; otherwise it runs
/// to the most passes possible. At most [`MAX_ODDS_DICE`] dice are
/// considered.
pub fn ve2_pool_pmf(dice: &[(Rank, bool)], ego: bool) -> Vec<f64> {
    let dice = &dice[..dice.len().min(MAX_ODDS_DICE)];
    let mut plain = [0usize; 4];
    let mut exploding = [0usize; 4];
    for &(rank, explodes) in dice {
        if explodes {
            exploding[rank_index(rank)] += 1;
        } else {
            plain[rank_index(rank)] += 1;
        }
    }
    let mut acc = vec![1.0];
    for rank in Rank::ALL {
        let min = f64::from(rank.d10_pass_min());
        let i = rank_index(rank);
        if plain[i] > 0 {
            let die = if ego {
                vec![(min - 1.0) / 10.0, (10.0 - min) / 10.0, 0.1]
            } else {
                vec![(min - 1.0) / 10.0, (11.0 - min) / 10.0]
            };
            acc = convolve(&acc, &power(&die, plain[i]));
        }
        if exploding[i] > 0 {
            // Each chain ends on a face uniform on 1..9: it passes with
            // probability (10 - min) / 9, independently of its 10s.
            let n = u32::try_from(exploding[i]).unwrap_or(u32::MAX);
            acc = convolve(&acc, &binomial(n, (10.0 - min) / 9.0));
        }
    }
    let chains: usize = exploding.iter().sum();
    if chains > 0 {
        let (tens, left_out) = tens_pmf(chains);
        let stride = if ego { 2 } else { 1 };
        let mut spread = vec![0.0; (tens.len() - 1) * stride + 1];
        for (t, p) in tens.iter().enumerate() {
            spread[t * stride] = *p;
        }
        acc = convolve(&acc, &spread);
        trim_tail(&mut acc, TAIL_EPSILON - left_out);
    }
    acc
}

/// The roller's `dice` D10s of `rank` (exploding when `explode`), then one
/// die per ally (exploding when `explode && explode_allies`).
fn ve2_task_dice(
    dice: u32,
    rank: Rank,
    ally_ranks: &[Rank],
    explode: bool,
    explode_allies: bool,
) -> Vec<(Rank, bool)> {
    task_ranks(dice, rank, ally_ranks)
        .into_iter()
        .enumerate()
        .map(|(i, r)| {
            let own = (i as u64) < u64::from(dice);
            (r, explode && (own || explode_allies))
        })
        .collect()
}

/// The distribution of passes in an edition-2 task: element `k` is
/// P(passes = k).
///
/// The roller rolls `dice` D10 at `rank` (VE2-T1, VE2-T4) and each ally in
/// `ally_ranks` adds one die at the ally's rank (VE2-T3). With `explode` (a
/// magic or high-tech task, VE2-T5) the roller's 10s explode without limit;
/// allies' dice explode too when `explode_allies` is also set
/// (`ve2_explode_scope = all_dice`, A-V19). With `ego` every 10 counts as two
/// passes (VE2-T8). Without explosions the result runs to the most passes
/// possible; with them it stops where the remaining tail is below
/// [`TAIL_EPSILON`].
pub fn ve2_task_pmf(
    dice: u32,
    rank: Rank,
    ally_ranks: &[Rank],
    explode: bool,
    explode_allies: bool,
    ego: bool,
) -> Vec<f64> {
    ve2_pool_pmf(
        &ve2_task_dice(dice, rank, ally_ranks, explode, explode_allies),
        ego,
    )
}

/// Element `k` is P(passes ≥ k) for the task of [`ve2_task_pmf`] (same
/// arguments and the same truncation).
pub fn ve2_task_at_least(
    dice: u32,
    rank: Rank,
    ally_ranks: &[Rank],
    explode: bool,
    explode_allies: bool,
    ego: bool,
) -> Vec<f64> {
    at_least_exact(&ve2_task_pmf(
        dice,
        rank,
        ally_ranks,
        explode,
        explode_allies,
        ego,
    ))
}

// ---------------------------------------------------------------------------
// KISS re-rolls
// ---------------------------------------------------------------------------

/// Offsets beyond this are clamped when building a shifted pmf (no real
/// table holds that many beats or passes).
const MAX_OFFSET: u32 = 4 * MAX_ODDS_DICE as u32;

/// The kept dice's beats once Ego "double 6s" is applied.
fn ve1_kept_total(kept_beats: u32, kept_sixes: u32, ego_double_six: bool) -> u32 {
    if ego_double_six {
        kept_beats.saturating_add(kept_sixes)
    } else {
        kept_beats
    }
}

/// The distribution of final beats after an edition-1 KISS (VE1-K3).
///
/// `kept_beats` is the number of beats struck by the dice that are **not**
/// re-rolled, counting each beat die once; `kept_sixes` is how many of those
/// kept dice show a 6 (used only with `ego_double_six`, where each adds one
/// more beat). `rerolled` lists the rank of every re-rolled die (the roller's
/// or an ally's); the new faces replace the old ones. Offsets above
/// `4 × MAX_ODDS_DICE` are clamped.
pub fn ve1_kiss_pmf(
    kept_beats: u32,
    kept_sixes: u32,
    rerolled: &[Rank],
    ego_double_six: bool,
) -> Vec<f64> {
    let offset = ve1_kept_total(kept_beats, kept_sixes, ego_double_six).min(MAX_OFFSET);
    shifted(&ve1_pool_pmf(rerolled, ego_double_six), offset as usize)
}

/// P(final beats ≥ `threshold`) after an edition-1 KISS: the dice in
/// `rerolled` (their ranks) are re-rolled and the rest are kept.
///
/// `kept_beats` counts the kept dice's beats once each; with
/// `ego_double_six` (Ego mode ii, VE1-K4b) every 6 strikes a second beat, so
/// the `kept_sixes` kept dice showing 6 add one beat each and re-rolled 6s
/// count 2. `kept_sixes` is ignored without Ego. A threshold the kept dice
/// already reach gives 1.
pub fn ve1_kiss_success(
    kept_beats: u32,
    rerolled: &[Rank],
    threshold: u32,
    ego_double_six: bool,
    kept_sixes: u32,
) -> f64 {
    let kept = ve1_kept_total(kept_beats, kept_sixes, ego_double_six);
    let need = threshold.saturating_sub(kept);
    prob_at_least(&ve1_pool_pmf(rerolled, ego_double_six), need)
}

/// The distribution of final passes after an edition-2 KISS (VE2-K).
///
/// `kept_passes` is the number of passes among the dice that are **not**
/// re-rolled (exploded extra dice included, A-V20), counting each pass die
/// once; `kept_tens` is how many of them show a 10. With `ego` (the roller
/// will spend Ego if still short, VE2-T8) each kept 10 adds one more pass and
/// re-rolled 10s count 2. `rerolled` lists each re-rolled die as
/// `(rank, explodes)`; a re-rolled 10 on an exploding die explodes again
/// (VE2-K6). Truncated like [`ve2_pool_pmf`]; offsets above
/// `4 × MAX_ODDS_DICE` are clamped.
pub fn ve2_kiss_pmf(
    kept_passes: u32,
    kept_tens: u32,
    rerolled: &[(Rank, bool)],
    ego: bool,
) -> Vec<f64> {
    let offset = ve1_kept_total(kept_passes, kept_tens, ego).min(MAX_OFFSET);
    shifted(&ve2_pool_pmf(rerolled, ego), offset as usize)
}

/// P(final passes ≥ `threshold`) after an edition-2 KISS: the dice in
/// `rerolled` (`(rank, explodes)` each) are re-rolled and the rest kept.
///
/// `kept_passes` counts the kept dice's passes once each and `kept_tens` the
/// kept 10s. With `ego` the roller will spend Ego if the re-roll still falls
/// short (VE2-T8), so every 10 on the table counts 2 passes; since that
/// never lowers the count, the result is P(success with or without Ego).
pub fn ve2_kiss_success(
    kept_passes: u32,
    kept_tens: u32,
    rerolled: &[(Rank, bool)],
    threshold: u32,
    ego: bool,
) -> f64 {
    let kept = ve1_kept_total(kept_passes, kept_tens, ego);
    let need = threshold.saturating_sub(kept);
    prob_at_least(&ve2_pool_pmf(rerolled, ego), need)
}

/// What a proposed KISS does to a task, from the dice on the table.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
pub struct KissOdds {
    /// Whether the dice as they stand already reach the threshold.
    pub success_now: bool,
    /// P(success) once the chosen dice are re-rolled.
    pub success_after: f64,
    /// The chance that the KISS turns a failed task into a success: equal to
    /// `success_after` when the task is failing now, else 0.
    pub turns_failure_into_success: f64,
    /// The chance that the KISS turns a success into a failure (new faces
    /// replace old ones, VE1-K3): `1 - success_after` when succeeding now,
    /// else 0.
    pub turns_success_into_failure: f64,
    /// The expected final beats or passes after the KISS.
    pub mean_after: f64,
}

impl KissOdds {
    fn new(success_now: bool, success_after: f64, mean_after: f64) -> Self {
        Self {
            success_now,
            success_after,
            turns_failure_into_success: if success_now { 0.0 } else { success_after },
            turns_success_into_failure: if success_now {
                1.0 - success_after
            } else {
                0.0
            },
            mean_after,
        }
    }
}

/// Checks the re-roll list: every index names a die, none twice.
fn check_reroll(len: usize, reroll: &[usize]) -> Result<Vec<bool>, RuleError> {
    let mut chosen = vec![false; len];
    for &i in reroll {
        let Some(slot) = chosen.get_mut(i) else {
            return Err(RuleError::new(format!(
                "There is no die number {} to re-roll.",
                i.saturating_add(1)
            )));
        };
        if *slot {
            return Err(RuleError::new(format!(
                "Die number {} is listed twice, but each die may be re-rolled only once.",
                i + 1
            )));
        }
        *slot = true;
    }
    Ok(chosen)
}

fn check_pool_size(len: usize) -> Result<(), RuleError> {
    if len > MAX_ODDS_DICE {
        return Err(RuleError::new(format!(
            "A pool of {len} dice is too large to compute odds for (the limit is {MAX_ODDS_DICE})."
        )));
    }
    Ok(())
}

/// The odds of an edition-1 KISS from the faces on the table.
///
/// `dice` lists every die as `(rank, face)` with faces 1..=6 (the roller's
/// and allies' alike); `reroll` holds the indices (0-based) of the dice to
/// KISS; `threshold` is the task threshold (the primary consequence's cost,
/// VE1-S1); with `ego_double_six` every 6 strikes 2 beats. Errors name a bad
/// face, a bad index, or a die listed twice (VE1-K2).
pub fn ve1_kiss_odds(
    dice: &[(Rank, u32)],
    reroll: &[usize],
    threshold: u32,
    ego_double_six: bool,
) -> Result<KissOdds, RuleError> {
    check_pool_size(dice.len())?;
    if let Some(&(_, face)) = dice.iter().find(|(_, f)| !(1..=6).contains(f)) {
        return Err(RuleError::new(format!(
            "A D6 shows 1 to 6, so {face} is not a possible face."
        )));
    }
    let chosen = check_reroll(dice.len(), reroll)?;
    let beats = |&(rank, face): &(Rank, u32)| -> u32 {
        if face < rank.d6_beat_min() {
            0
        } else if face == 6 && ego_double_six {
            2
        } else {
            1
        }
    };
    let now: u32 = dice.iter().map(beats).sum();
    let kept: u32 = dice
        .iter()
        .zip(&chosen)
        .filter(|(_, &c)| !c)
        .map(|(d, _)| beats(d))
        .sum();
    let rerolled: Vec<Rank> = dice
        .iter()
        .zip(&chosen)
        .filter(|(_, &c)| c)
        .map(|(d, _)| d.0)
        .collect();
    let pool = ve1_pool_pmf(&rerolled, ego_double_six);
    let after = prob_at_least(&pool, threshold.saturating_sub(kept));
    Ok(KissOdds::new(
        now >= threshold,
        after,
        f64::from(kept) + mean(&pool),
    ))
}

/// The odds of an edition-2 KISS from the faces on the table.
///
/// `dice` lists every die as `(rank, face, explodes)` with faces 1..=10,
/// exploded extra dice included as their own entries; `reroll` holds the
/// indices (0-based) of the dice to re-roll. `success_now` counts plain
/// passes (no Ego spent yet, VE2-T6); `success_after` counts every 10 twice
/// when `ego` says the roller will spend Ego if still short (VE2-T8).
/// Errors name a bad face, a bad index, or a die listed twice (VE2-K2).
pub fn ve2_kiss_odds(
    dice: &[(Rank, u32, bool)],
    reroll: &[usize],
    threshold: u32,
    ego: bool,
) -> Result<KissOdds, RuleError> {
    check_pool_size(dice.len())?;
    if let Some(&(_, face, _)) = dice.iter().find(|(_, f, _)| !(1..=10).contains(f)) {
        return Err(RuleError::new(format!(
            "A D10 shows 1 to 10, so {face} is not a possible face."
        )));
    }
    let chosen = check_reroll(dice.len(), reroll)?;
    let passes = |&(rank, face, _): &(Rank, u32, bool), ego: bool| -> u32 {
        if face < rank.d10_pass_min() {
            0
        } else if face == 10 && ego {
            2
        } else {
            1
        }
    };
    let now: u32 = dice.iter().map(|d| passes(d, false)).sum();
    let kept: u32 = dice
        .iter()
        .zip(&chosen)
        .filter(|(_, &c)| !c)
        .map(|(d, _)| passes(d, ego))
        .sum();
    let rerolled: Vec<(Rank, bool)> = dice
        .iter()
        .zip(&chosen)
        .filter(|(_, &c)| c)
        .map(|(&(rank, _, explodes), _)| (rank, explodes))
        .collect();
    let pool = ve2_pool_pmf(&rerolled, ego);
    let after = prob_at_least(&pool, threshold.saturating_sub(kept));
    Ok(KissOdds::new(
        now >= threshold,
        after,
        f64::from(kept) + mean(&pool),
    ))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::dice::{d, pool};
    use rand::{rngs::StdRng, SeedableRng};

    const ALL: [Rank; 4] = Rank::ALL;

    // Rank minimums written out here so the brute-force checks do not share
    // code with what they check.
    fn min6(rank: Rank) -> u32 {
        match rank {
            Rank::Bronze => 5,
            Rank::Silver => 4,
            Rank::Gold => 3,
            Rank::Platinum => 2,
        }
    }

    fn min10(rank: Rank) -> u32 {
        match rank {
            Rank::Bronze => 7,
            Rank::Silver => 6,
            Rank::Gold => 5,
            Rank::Platinum => 4,
        }
    }

    fn close(a: f64, b: f64, tol: f64) -> bool {
        (a - b).abs() <= tol
    }

    fn assert_pmfs_close(exact: &[f64], brute: &[f64], tol: f64, what: &str) {
        let len = exact.len().max(brute.len());
        for k in 0..len {
            let e = exact.get(k).copied().unwrap_or(0.0);
            let b = brute.get(k).copied().unwrap_or(0.0);
            assert!(close(e, b, tol), "{what}: k = {k}: exact {e} vs brute {b}");
        }
    }

    /// True when `value` (a percentage) prints as `printed`, rounded or
    /// truncated at the printed number of decimals.
    fn printed_matches(value: f64, printed: &str, truncated: bool) -> bool {
        let decimals = printed.split_once('.').map_or(0, |(_, f)| f.len());
        let digits: i64 = printed.replace('.', "").parse().unwrap();
        let scaled = value * 10f64.powi(decimals as i32);
        let got = if truncated {
            (scaled + 1e-9).floor()
        } else {
            scaled.round()
        };
        got as i64 == digits
    }

    // ----- VE1 checks ------------------------------------------------------

    #[test]
    fn ve1_c6_bonus_dice_steps_match_spec_figures() {
        // §7: score 3 against target 15: 45 -> 62.5 -> 67.4 -> 69.8 -> 71.2 %.
        let printed = ["45", "62.5", "67.4", "69.8", "71.2"];
        for rank in ALL {
            for (dice, want) in printed.iter().enumerate() {
                let p = ve1_check_pass(3, 15, rank, dice as u32);
                assert!(
                    printed_matches(100.0 * p, want, false),
                    "{rank} {dice}: {p}"
                );
            }
        }
        // Exact values: 9/20, then + sum over shortfalls 1..6 of P(max >= D)/20.
        assert!(close(ve1_check_pass(3, 15, Rank::Bronze, 0), 0.45, 1e-15));
        assert!(close(ve1_check_pass(3, 15, Rank::Bronze, 1), 0.625, 1e-15));
        assert!(close(
            ve1_check_pass(3, 15, Rank::Bronze, 2),
            0.45 + 161.0 / 720.0,
            1e-15
        ));
        // More than 4 dice counts as 4 (VE1-C6 limit).
        assert_eq!(
            ve1_check_pass(3, 15, Rank::Gold, 9),
            ve1_check_pass(3, 15, Rank::Gold, 4)
        );
    }

    #[test]
    fn ve1_c3_natural_one_fails_unless_platinum() {
        // Score 10 against target 5: every natural passes except a natural 1.
        for rank in [Rank::Bronze, Rank::Silver, Rank::Gold] {
            assert!(close(ve1_check_pass(10, 5, rank, 4), 19.0 / 20.0, 1e-15));
        }
        assert!(close(ve1_check_pass(10, 5, Rank::Platinum, 0), 1.0, 1e-15));
        // A Platinum natural 1 is 1 + score and may use bonus dice: score 3,
        // target 10 is short by 6, so only a 6 on the bonus dice rescues it.
        let with = ve1_check_pass(3, 10, Rank::Platinum, 1);
        let without = ve1_check_pass(3, 10, Rank::Gold, 1);
        assert!(close(with - without, (1.0 / 6.0) / 20.0, 1e-15));
        // A-V18: no bonus dice after a non-Platinum natural 1.
        let base = ve1_check_pass(3, 10, Rank::Silver, 0);
        let four = ve1_check_pass(3, 10, Rank::Silver, 4);
        // Naturals 2..6 are short by 5..1 and can be rescued; natural 1 not.
        let rescued: f64 = (1..=5)
            .map(|short: i32| 1.0 - ((short - 1) as f64 / 6.0).powi(4))
            .sum();
        assert!(close(four - base, rescued / 20.0, 1e-15));
    }

    #[test]
    fn ve1_c4_autopass_sets_and_chances() {
        // Score 0 against 29: even 20 + 6 falls short, only autopasses count.
        let want = [0.0, 0.05, 0.10, 0.10];
        for (rank, w) in ALL.into_iter().zip(want) {
            assert!(close(ve1_check_pass(0, 29, rank, 4), w, 1e-15), "{rank}");
            assert!(close(ve1_natural_pass_chance(rank), w, 1e-15));
        }
        assert!(!ve1_autopass(Rank::Bronze, 20));
        assert!(ve1_autopass(Rank::Silver, 20) && !ve1_autopass(Rank::Silver, 19));
        assert!(ve1_autopass(Rank::Gold, 19) && !ve1_autopass(Rank::Gold, 18));
        assert!(ve1_autopass(Rank::Platinum, 19) && !ve1_autopass(Rank::Platinum, 18));
    }

    #[test]
    fn ve1_c5_sum_at_least_target_passes() {
        // Score 5 against 10: naturals 5..20 pass, 16 of 20.
        assert!(close(ve1_check_pass(5, 10, Rank::Bronze, 0), 0.8, 1e-15));
        // Exactly meeting the target passes: score 0, target 20, Bronze.
        assert!(close(ve1_check_pass(0, 20, Rank::Bronze, 0), 0.05, 1e-15));
    }

    #[test]
    fn ve1_c6_the_highest_bonus_d6_closes_a_shortfall_of_one_to_six() {
        assert!(close(ve1_bonus_closes(3, 1), 4.0 / 6.0, 1e-12));
        assert!(close(ve1_bonus_closes(6, 2), 1.0 - 25.0 / 36.0, 1e-12));
        assert_eq!(ve1_bonus_closes(0, 1), 1.0);
        assert_eq!(ve1_bonus_closes(7, 4), 0.0);
        assert_eq!(ve1_bonus_closes(2, 0), 0.0, "no factor, no bonus die");
    }

    #[test]
    fn ve1_c6_shortfall_over_six_fails() {
        // Bronze, score 0, target 27: even a natural 20 is short by 7.
        assert_eq!(ve1_check_pass(0, 27, Rank::Bronze, 4), 0.0);
        // Target 26: a natural 20 is short by 6 and needs a 6 on 4 dice.
        let p = (1.0 - (5.0f64 / 6.0).powi(4)) / 20.0;
        assert!(close(ve1_check_pass(0, 26, Rank::Bronze, 4), p, 1e-15));
        // No bonus factor: short means fail.
        assert_eq!(ve1_check_pass(0, 26, Rank::Bronze, 0), 0.0);
    }

    fn brute_ve1_check(score: i32, target: i32, rank: Rank, dice: u32) -> f64 {
        let combos = 6u32.pow(dice);
        let mut pass = 0u64;
        let mut total = 0u64;
        for natural in 1..=20i32 {
            for combo in 0..combos {
                total += 1;
                let mut c = combo;
                let mut best = 0;
                for _ in 0..dice {
                    best = best.max(c % 6 + 1);
                    c /= 6;
                }
                let auto = match rank {
                    Rank::Bronze => false,
                    Rank::Silver => natural == 20,
                    Rank::Gold | Rank::Platinum => natural >= 19,
                };
                let sum = natural + score;
                let ok = if natural == 1 && rank != Rank::Platinum {
                    false
                } else if auto || sum >= target {
                    true
                } else if target - sum > 6 || dice == 0 {
                    false
                } else {
                    sum + best as i32 >= target
                };
                pass += u64::from(ok);
            }
        }
        pass as f64 / total as f64
    }

    #[test]
    fn ve1_c2_c6_check_matches_brute_force() {
        for rank in ALL {
            for score in [0, 3, 10] {
                for target in 5..=29 {
                    for dice in 0..=4 {
                        let exact = ve1_check_pass(score, target, rank, dice);
                        let brute = brute_ve1_check(score, target, rank, dice);
                        assert!(
                            close(exact, brute, 1e-12),
                            "{rank} score {score} target {target} dice {dice}"
                        );
                    }
                }
            }
        }
    }

    #[test]
    fn a_v29_rank_matters_only_at_the_extremes() {
        // §7: all ranks agree unless the target is above 19 + score, or a
        // Platinum natural 1 can still be rescued.
        for score in 0..=10 {
            for target in 5..=29 {
                for dice in 0..=4u32 {
                    let odds: Vec<f64> = ALL
                        .iter()
                        .map(|&r| ve1_check_pass(score, target, r, dice))
                        .collect();
                    let pl_rescue = target - (1 + score) <= if dice > 0 { 6 } else { 0 };
                    if target <= 19 + score {
                        assert!(close(odds[0], odds[1], 1e-15));
                        assert!(close(odds[1], odds[2], 1e-15));
                        if !pl_rescue {
                            assert!(close(odds[2], odds[3], 1e-15));
                        } else {
                            assert!(odds[3] > odds[2]);
                        }
                    }
                    if target > 20 + score + 6 {
                        // Only the automatic passes are left.
                        assert!(odds[0] == 0.0 && close(odds[1], 0.05, 1e-15));
                        assert!(close(odds[2], 0.1, 1e-15) && close(odds[3], 0.1, 1e-15));
                    }
                }
            }
        }
    }

    // ----- VE2 checks ------------------------------------------------------

    #[test]
    fn ve2_c3_natural_one_fails_every_rank_a_v3_platinum_option() {
        for rank in ALL {
            for ap in [AutoPass::Text, AutoPass::Table] {
                let p = ve2_check_pass(10, 5, rank, 8, &ap, false);
                assert!(close(p, 0.95, 1e-15), "{rank} {ap:?}");
            }
        }
        let on = ve2_check_pass(10, 5, Rank::Platinum, 0, &AutoPass::Text, true);
        assert!(close(on, 1.0, 1e-15));
        // The option only helps Platinum.
        let gold = ve2_check_pass(10, 5, Rank::Gold, 0, &AutoPass::Text, true);
        assert!(close(gold, 0.95, 1e-15));
    }

    #[test]
    fn a_v1_autopass_text_vs_table() {
        // Target out of reach (score 0, target 28, no bonus): only
        // automatic passes count.
        let text = [0.05, 0.10, 0.15, 0.20];
        let table = [0.0, 0.05, 0.10, 0.15];
        for (i, rank) in ALL.into_iter().enumerate() {
            let t = ve2_check_pass(0, 28, rank, 0, &AutoPass::Text, false);
            let b = ve2_check_pass(0, 28, rank, 0, &AutoPass::Table, false);
            assert!(close(t, text[i], 1e-15), "{rank} text {t}");
            assert!(close(b, table[i], 1e-15), "{rank} table {b}");
        }
        assert_eq!(AutoPass::Text.describe(Rank::Gold), "18-20");
        assert_eq!(AutoPass::Table.describe(Rank::Bronze), "none");
        assert_eq!(AutoPass::Table.describe(Rank::Silver), "20");
        assert_eq!(AutoPass::default(), AutoPass::Text);
        // VE2-C4 custom: Gold from 15, nobody else.
        let custom = AutoPass::Custom {
            bronze: None,
            silver: None,
            gold: Some(15),
            platinum: Some(21),
        };
        assert!(close(
            ve2_check_pass(0, 28, Rank::Gold, 0, &custom, false),
            0.30,
            1e-15
        ));
        assert_eq!(
            ve2_check_pass(0, 28, Rank::Platinum, 0, &custom, false),
            0.0
        );
        assert_eq!(custom.describe(Rank::Platinum), "none");
        let json = serde_json::to_string(&custom).unwrap();
        assert_eq!(serde_json::from_str::<AutoPass>(&json).unwrap(), custom);
        assert_eq!(
            serde_json::to_string(&AutoPass::Table).unwrap(),
            "\"table\""
        );
    }

    #[test]
    fn a_v4_natural_success_chance_follows_active_ranges() {
        let text: Vec<f64> = ALL
            .iter()
            .map(|&r| ve2_natural_pass_chance(r, &AutoPass::Text, false))
            .collect();
        let table: Vec<f64> = ALL
            .iter()
            .map(|&r| ve2_natural_pass_chance(r, &AutoPass::Table, false))
            .collect();
        for (got, want) in text.iter().zip([0.05, 0.10, 0.15, 0.20]) {
            assert!(close(*got, want, 1e-15));
        }
        for (got, want) in table.iter().zip([0.0, 0.05, 0.10, 0.15]) {
            assert!(close(*got, want, 1e-15));
        }
        // A custom range reaching 1 never counts the natural 1 (VE2-C3).
        let all = AutoPass::Custom {
            bronze: Some(1),
            silver: Some(1),
            gold: Some(1),
            platinum: Some(1),
        };
        assert!(close(
            ve2_natural_pass_chance(Rank::Gold, &all, true),
            0.95,
            1e-15
        ));
        assert!(close(
            ve2_natural_pass_chance(Rank::Platinum, &all, true),
            1.0,
            1e-15
        ));
    }

    #[test]
    fn ve2_c5_c6_flat_bonus_capped_at_eight() {
        // Bronze, table ranges (no autopass), score 0, target 28: needs 20 + 8.
        let ap = AutoPass::Table;
        assert_eq!(ve2_check_pass(0, 28, Rank::Bronze, 7, &ap, false), 0.0);
        assert!(close(
            ve2_check_pass(0, 28, Rank::Bronze, 8, &ap, false),
            0.05,
            1e-15
        ));
        assert_eq!(
            ve2_check_pass(0, 28, Rank::Bronze, 50, &ap, false),
            ve2_check_pass(0, 28, Rank::Bronze, 8, &ap, false)
        );
        // Score 3, target 15, bonus 0..8: naturals 12 - bonus .. 20 pass.
        for bonus in 0..=8u32 {
            let want = f64::from(9 + bonus) / 20.0;
            let got = ve2_check_pass(3, 15, Rank::Bronze, bonus, &ap, false);
            assert!(close(got, want, 1e-15), "bonus {bonus}");
        }
        // Extreme inputs do not overflow.
        let _ = ve2_check_pass(i32::MAX, i32::MIN, Rank::Gold, u32::MAX, &ap, true);
        let _ = ve1_check_pass(i32::MAX, i32::MIN, Rank::Gold, u32::MAX);
        assert_eq!(ve1_check_pass(i32::MIN, i32::MAX, Rank::Bronze, 4), 0.0);
    }

    #[test]
    fn ve2_c2_c6_check_matches_brute_force() {
        let customs = [
            AutoPass::Text,
            AutoPass::Table,
            AutoPass::Custom {
                bronze: Some(16),
                silver: None,
                gold: Some(1),
                platinum: Some(20),
            },
        ];
        for ap in customs {
            for rank in ALL {
                let lo = match (&ap, rank) {
                    (AutoPass::Text, r) => Some(21 - (rank_index(r) as i32 + 1)),
                    (AutoPass::Table, Rank::Bronze) => None,
                    (AutoPass::Table, r) => Some(21 - rank_index(r) as i32),
                    (_, Rank::Bronze) => Some(16),
                    (_, Rank::Silver) => None,
                    (_, Rank::Gold) => Some(1),
                    (_, Rank::Platinum) => Some(20),
                };
                for score in [0, 4, 10] {
                    for target in 5..=28 {
                        for bonus in 0..=8 {
                            for pl in [false, true] {
                                let mut pass = 0;
                                for n in 1..=20 {
                                    let nat1_fails = n == 1 && !(pl && rank == Rank::Platinum);
                                    let auto = lo.is_some_and(|lo| n >= lo);
                                    if !nat1_fails && (auto || n + score + bonus >= target) {
                                        pass += 1;
                                    }
                                }
                                let exact =
                                    ve2_check_pass(score, target, rank, bonus as u32, &ap, pl);
                                assert!(close(exact, f64::from(pass) / 20.0, 1e-15));
                            }
                        }
                    }
                }
            }
        }
    }

    // ----- VE1 tasks --------------------------------------------------------

    #[test]
    fn ve1_t4_per_die_chances() {
        let want = [1.0 / 3.0, 0.5, 2.0 / 3.0, 5.0 / 6.0];
        for (rank, w) in ALL.into_iter().zip(want) {
            assert!(close(ve1_die_chance(rank), w, 1e-15));
            let pmf = ve1_task_pmf(1, rank, &[], false);
            assert_eq!(pmf.len(), 2);
            assert!(close(pmf[1], w, 1e-15));
            // n dice: mean n p, sigma sqrt(n p (1 - p)) (§7).
            let pmf = ve1_task_pmf(7, rank, &[], false);
            assert!(close(mean(&pmf), 7.0 * w, 1e-12));
            assert!(close(pmf_sigma(&pmf), sigma(7, w), 1e-12));
        }
    }

    #[test]
    fn ve1_t3_allies_dice_count_at_their_own_rank() {
        // No dice of one's own, one Platinum ally: beats ~ Bernoulli(5/6).
        let pmf = ve1_task_pmf(0, Rank::Bronze, &[Rank::Platinum], false);
        assert!(close(pmf[0], 1.0 / 6.0, 1e-15) && close(pmf[1], 5.0 / 6.0, 1e-15));
        // Order does not matter: roller Bronze + ally Gold = roller Gold + ally Bronze.
        let a = ve1_task_pmf(3, Rank::Bronze, &[Rank::Gold], false);
        let b = ve1_task_pmf(
            1,
            Rank::Gold,
            &[Rank::Bronze, Rank::Bronze, Rank::Bronze],
            false,
        );
        assert_pmfs_close(&a, &b, 1e-15, "ally order");
        let at = ve1_task_at_least(3, Rank::Bronze, &[Rank::Gold], false);
        assert_eq!(at.len(), 5);
        assert_eq!(at[0], 1.0);
    }

    #[test]
    fn ve1_k4b_a_v12_ego_double_six_covers_allies() {
        // One Bronze die with Ego: 1-4 none, 5 one, 6 two.
        let pmf = ve1_task_pmf(1, Rank::Bronze, &[], true);
        assert_pmfs_close(
            &pmf,
            &[4.0 / 6.0, 1.0 / 6.0, 1.0 / 6.0],
            1e-15,
            "bronze ego",
        );
        // An ally's 6 strikes two beats too (A-V12).
        let pmf = ve1_task_pmf(0, Rank::Platinum, &[Rank::Gold], true);
        assert_pmfs_close(&pmf, &[2.0 / 6.0, 3.0 / 6.0, 1.0 / 6.0], 1e-15, "ally ego");
        // Mean per die goes up by exactly 1/6.
        for rank in ALL {
            let pmf = ve1_task_pmf(5, rank, &[Rank::Silver], true);
            let want = 5.0 * ve1_die_chance(rank) + 0.5 + 6.0 / 6.0;
            assert!(close(mean(&pmf), want, 1e-12));
            assert_eq!(pmf.len(), 13);
        }
    }

    #[test]
    fn a_v26_zero_dice_pool_has_no_beats() {
        assert_eq!(ve1_task_pmf(0, Rank::Gold, &[], true), vec![1.0]);
        assert_eq!(
            ve2_task_pmf(0, Rank::Gold, &[], true, true, true),
            vec![1.0]
        );
        assert_eq!(
            ve2_task_at_least(0, Rank::Gold, &[], true, true, true),
            vec![1.0]
        );
        assert_eq!(ve1_kiss_success(0, &[], 1, false, 0), 0.0);
        assert_eq!(prob_at_least(&[1.0], 0), 1.0);
    }

    fn brute_ve1_pool(ranks: &[Rank], ego: bool) -> Vec<f64> {
        let n = ranks.len() as u32;
        let mut out = vec![0.0; 2 * ranks.len() + 1];
        let total = 6u32.pow(n);
        for combo in 0..total {
            let mut c = combo;
            let mut beats = 0;
            for &r in ranks {
                let face = c % 6 + 1;
                c /= 6;
                if face >= min6(r) {
                    beats += if ego && face == 6 { 2 } else { 1 };
                }
            }
            out[beats] += 1.0 / f64::from(total);
        }
        out
    }

    #[test]
    fn ve1_t4_brute_force_three_dice_and_an_ally() {
        for rank in ALL {
            for ally in ALL {
                for ego in [false, true] {
                    let exact = ve1_task_pmf(3, rank, &[ally], ego);
                    let brute = brute_ve1_pool(&[rank, rank, rank, ally], ego);
                    assert_pmfs_close(&exact, &brute, 1e-12, "ve1 pool");
                    let max = if ego { 8 } else { 4 };
                    assert_eq!(exact.len(), max + 1);
                }
            }
        }
        // Two allies of different ranks (VE1-T3 allows two).
        let exact = ve1_task_pmf(2, Rank::Silver, &[Rank::Bronze, Rank::Platinum], true);
        let brute = brute_ve1_pool(
            &[Rank::Silver, Rank::Silver, Rank::Bronze, Rank::Platinum],
            true,
        );
        assert_pmfs_close(&exact, &brute, 1e-12, "two allies");
    }

    #[test]
    fn a_v30_000_table_reproduced_with_errata() {
        // The 000 "Bronze % Chance of striking..." table, as printed, with the
        // two errata cells 11.112 corrected to 11.111 (A-V30, §7).
        let table: [&[&str]; 8] = [
            &["33.33"],
            &["55.6", "11.111"],
            &["70.3", "25.93", "3.704"],
            &["80.2", "40.74", "11.111", "1.234"],
            &["87", "53.9", "20.98", "4.527", "0.411"],
            &["91", "64.9", "31.96", "10.014", "1.783", "0.137"],
            &["94", "73.7", "42.94", "17.33", "4.527", "0.686", "0.046"],
            &[
                "96", "80.5", "53.2", "25.86", "8.794", "1.966", "0.259", "0.015",
            ],
        ];
        // The four cells the source truncated instead of rounding.
        let truncated = [(3, 1), (4, 4), (5, 3), (5, 5)];
        let avg = ["0.3", "0.7", "1.0", "1.3", "1.7", "2.0", "2.3", "2.7"];
        // Sigma with 2D, 5D and 8D corrected (0.69, 1.08, 1.35 printed).
        let sig = [
            "0.47", "0.67", "0.82", "0.94", "1.05", "1.15", "1.25", "1.33",
        ];
        for (i, row) in table.iter().enumerate() {
            let n = i + 1;
            let at = ve1_task_at_least(n as u32, Rank::Bronze, &[], false);
            assert_eq!(at.len(), n + 1);
            for (j, cell) in row.iter().enumerate() {
                let k = j + 1;
                let is_trunc = truncated.contains(&(n, k));
                assert!(
                    printed_matches(100.0 * at[k], cell, is_trunc),
                    "{n}D >= {k}: {} vs {cell}",
                    100.0 * at[k]
                );
                if is_trunc {
                    // Genuinely truncated: rounding would print something else.
                    assert!(!printed_matches(100.0 * at[k], cell, false));
                }
            }
            let pmf = ve1_task_pmf(n as u32, Rank::Bronze, &[], false);
            assert!(printed_matches(mean(&pmf), avg[i], false), "{n}D avg");
            assert!(
                printed_matches(pmf_sigma(&pmf), sig[i], false),
                "{n}D sigma"
            );
            assert!(printed_matches(sigma(n as u32, 1.0 / 3.0), sig[i], false));
        }
        // The errata are real: the printed values are wrong.
        let at2 = ve1_task_at_least(2, Rank::Bronze, &[], false);
        assert!(!printed_matches(100.0 * at2[2], "11.112", false));
        assert!(!printed_matches(100.0 * at2[2], "11.112", true));
        for (n, wrong) in [(2, "0.69"), (5, "1.08"), (8, "1.35")] {
            assert!(!printed_matches(sigma(n, 1.0 / 3.0), wrong, false));
        }
    }

    // ----- VE2 tasks --------------------------------------------------------

    #[test]
    fn ve2_t4_per_die_chances() {
        let want = [0.4, 0.5, 0.6, 0.7];
        for (rank, w) in ALL.into_iter().zip(want) {
            assert!(close(ve2_die_chance(rank), w, 1e-15));
            let pmf = ve2_task_pmf(1, rank, &[], false, false, false);
            assert_eq!(pmf.len(), 2);
            assert!(close(pmf[1], w, 1e-15));
        }
    }

    #[test]
    fn ve2_t4_001_table_reproduced() {
        // The 001 "Bronze % chance of at least" table (D10 7-10), verbatim.
        let table: [&[&str]; 8] = [
            &["40.00"],
            &["64.0", "16.00"],
            &["78.4", "35.20", "6.400"],
            &["87", "52.5", "17.92", "2.560"],
            &["92", "66.3", "31.74", "8.704", "1.024"],
            &["95", "76.7", "45.57", "17.92", "4.096", "0.410"],
            &["97", "84.1", "58.0", "28.98", "9.626", "1.884", "0.164"],
            &[
                "98", "89", "68.5", "40.59", "17.37", "4.981", "0.852", "0.066",
            ],
        ];
        let avg = ["0.4", "0.8", "1.2", "1.6", "2.0", "2.4", "2.8", "3.2"];
        let sig = [
            "0.49", "0.69", "0.85", "0.98", "1.10", "1.20", "1.30", "1.39",
        ];
        for (i, row) in table.iter().enumerate() {
            let n = i + 1;
            let at = ve2_task_at_least(n as u32, Rank::Bronze, &[], false, false, false);
            assert_eq!(at.len(), n + 1);
            for (j, cell) in row.iter().enumerate() {
                let k = j + 1;
                assert!(
                    printed_matches(100.0 * at[k], cell, false),
                    "{n}D >= {k}: {} vs {cell}",
                    100.0 * at[k]
                );
            }
            let pmf = ve2_task_pmf(n as u32, Rank::Bronze, &[], false, false, false);
            assert!(printed_matches(mean(&pmf), avg[i], false), "{n}D avg");
            assert!(
                printed_matches(pmf_sigma(&pmf), sig[i], false),
                "{n}D sigma"
            );
            assert!(printed_matches(sigma(n as u32, 0.4), sig[i], false));
        }
    }

    #[test]
    fn a_v2_a_v31_table_covers_only_plain_bronze_d10() {
        // A-V2: one die passes 40% (D10 7-10), not 33% (D6 5-6).
        let bronze = ve2_task_at_least(4, Rank::Bronze, &[], false, false, false);
        assert!(printed_matches(100.0 * bronze[2], "52.5", false));
        // A-V31: any other situation changes the 4D >= 2 cell.
        let others = [
            ve2_task_at_least(4, Rank::Silver, &[], false, false, false),
            ve2_task_at_least(4, Rank::Bronze, &[], true, false, false),
            ve2_task_at_least(4, Rank::Bronze, &[], false, false, true),
            ve2_task_at_least(4, Rank::Bronze, &[Rank::Bronze], false, false, false),
        ];
        for other in others {
            assert!(other[2] > bronze[2] + 0.01);
        }
    }

    #[test]
    fn ve2_t5_explosion_mean_is_p_over_0_9() {
        for rank in ALL {
            let p = ve2_die_chance(rank);
            let one = ve2_task_pmf(1, rank, &[], true, false, false);
            assert!(close(mean(&one), p / 0.9, 1e-12), "{rank}");
            assert!(close(ve2_die_mean(rank, true, false), p / 0.9, 1e-15));
            let many = ve2_task_pmf(20, rank, &[], true, false, false);
            assert!(close(mean(&many), 20.0 * p / 0.9, 1e-12), "{rank} x20");
        }
    }

    #[test]
    fn ve2_t8_ego_mean_is_p_plus_0_1() {
        for rank in ALL {
            let p = ve2_die_chance(rank);
            let pmf = ve2_task_pmf(6, rank, &[Rank::Gold], false, false, true);
            assert!(close(mean(&pmf), 6.0 * (p + 0.1) + 0.7, 1e-12), "{rank}");
            assert!(close(ve2_die_mean(rank, false, true), p + 0.1, 1e-15));
            // Both: every 10, exploded ones too, counts double.
            let both = ve2_task_pmf(6, rank, &[], true, false, true);
            assert!(
                close(mean(&both), 6.0 * (p + 0.1) / 0.9, 1e-12),
                "{rank} both"
            );
            assert!(close(
                ve2_die_mean(rank, true, true),
                (p + 0.1) / 0.9,
                1e-15
            ));
        }
    }

    #[test]
    fn ve2_t5_single_die_matches_generating_function() {
        // One exploding die: G(x) = (a + b x) / (1 - x^e / 10), so
        // P(e j) += a / 10^j and P(e j + 1) += b / 10^j.
        for rank in ALL {
            for ego in [false, true] {
                let m = f64::from(min10(rank));
                let (a, b) = ((m - 1.0) / 10.0, (10.0 - m) / 10.0);
                let e = if ego { 2 } else { 1 };
                let pmf = ve2_task_pmf(1, rank, &[], true, false, ego);
                let mut want = vec![0.0; pmf.len() + 2];
                for j in 0..=pmf.len() / e {
                    let w = 10f64.powi(-(j as i32));
                    if e * j < want.len() {
                        want[e * j] += a * w;
                    }
                    if e * j + 1 < want.len() {
                        want[e * j + 1] += b * w;
                    }
                }
                for (k, (&x, &y)) in pmf.iter().zip(&want).enumerate() {
                    assert!(close(x, y, 1e-15), "{rank} ego {ego} k {k}");
                    assert!(x == 0.0 || (x - y).abs() <= 1e-12 * y, "relative, k {k}");
                }
            }
        }
    }

    #[test]
    fn ve2_t5_exploding_tail_truncated_below_1e_15() {
        for ego in [false, true] {
            for rank in ALL {
                let pmf = ve2_task_pmf(20, rank, &[Rank::Platinum; 3], true, true, ego);
                let total: f64 = pmf.iter().sum();
                assert!((1.0 - TAIL_EPSILON - 1e-13..=1.0 + 1e-12).contains(&total));
                // Short enough to be useful, long enough to pass every 10.
                assert!(pmf.len() > 23 * if ego { 2 } else { 1 });
                assert!(pmf.len() < 200);
                let at = ve2_task_at_least(20, rank, &[Rank::Platinum; 3], true, true, ego);
                assert_eq!(at[0], 1.0);
                // Cut just past the 1e-15 tail: the last kept value is tiny.
                assert!(*at.last().unwrap() < 1e-13);
                assert!(at.windows(2).all(|w| w[0] >= w[1]));
            }
        }
    }

    #[test]
    fn a_v19_explode_scope_roller_only_vs_all_dice() {
        let allies = [Rank::Bronze, Rank::Gold];
        let roller_only = ve2_task_pmf(3, Rank::Silver, &allies, true, false, false);
        let manual = ve2_pool_pmf(
            &[
                (Rank::Silver, true),
                (Rank::Silver, true),
                (Rank::Silver, true),
                (Rank::Bronze, false),
                (Rank::Gold, false),
            ],
            false,
        );
        assert_pmfs_close(&roller_only, &manual, 1e-15, "roller only");
        let all = ve2_task_pmf(3, Rank::Silver, &allies, true, true, false);
        assert!(mean(&all) > mean(&roller_only) + 0.1);
        // Each exploding ally adds p / 0.9 - p = p / 9: (0.4 + 0.6) / 9.
        assert!(close(mean(&all) - mean(&roller_only), 1.0 / 9.0, 1e-12));
        // No explosion at all unless the task is magic.
        let plain = ve2_task_pmf(3, Rank::Silver, &allies, false, true, false);
        assert_eq!(plain.len(), 6);
    }

    /// Enumerates every face of every die; a 10 on an exploding die rolls the
    /// same die again, up to `max_tens` 10s in all (the mass beyond that is
    /// left out and returned as the second value's complement).
    fn brute_ve2_faces(dice: &[(Rank, bool)], ego: bool, max_tens: u32) -> Vec<f64> {
        #[allow(clippy::too_many_arguments)]
        fn go(
            dice: &[(Rank, bool)],
            i: usize,
            passes: usize,
            prob: f64,
            tens: u32,
            max_tens: u32,
            ego: bool,
            out: &mut Vec<f64>,
        ) {
            let Some(&(rank, explodes)) = dice.get(i) else {
                if out.len() <= passes {
                    out.resize(passes + 1, 0.0);
                }
                out[passes] += prob;
                return;
            };
            for face in 1..=10 {
                let gain = if face == 10 && ego {
                    2
                } else {
                    usize::from(face >= min10(rank))
                };
                let p = prob / 10.0;
                if face == 10 && explodes {
                    if tens < max_tens {
                        go(dice, i, passes + gain, p, tens + 1, max_tens, ego, out);
                    }
                } else {
                    go(dice, i + 1, passes + gain, p, tens, max_tens, ego, out);
                }
            }
        }
        let mut out = vec![0.0];
        go(dice, 0, 0, 1.0, 0, max_tens, ego, &mut out);
        out
    }

    /// Like [`brute_ve2_faces`] but groups the faces by effect (miss, pass,
    /// 10) so deeper explosion chains can be enumerated.
    fn brute_ve2_classes(dice: &[(Rank, bool)], ego: bool, max_tens: u32) -> Vec<f64> {
        #[allow(clippy::too_many_arguments)]
        fn go(
            dice: &[(Rank, bool)],
            i: usize,
            passes: usize,
            prob: f64,
            tens: u32,
            max_tens: u32,
            ego: bool,
            out: &mut Vec<f64>,
        ) {
            let Some(&(rank, explodes)) = dice.get(i) else {
                if out.len() <= passes {
                    out.resize(passes + 1, 0.0);
                }
                out[passes] += prob;
                return;
            };
            let m = min10(rank);
            let miss = f64::from(m - 1) / 10.0;
            let pass = f64::from(10 - m) / 10.0;
            go(dice, i + 1, passes, prob * miss, tens, max_tens, ego, out);
            go(
                dice,
                i + 1,
                passes + 1,
                prob * pass,
                tens,
                max_tens,
                ego,
                out,
            );
            let gain = if ego { 2 } else { 1 };
            if !explodes {
                go(
                    dice,
                    i + 1,
                    passes + gain,
                    prob * 0.1,
                    tens,
                    max_tens,
                    ego,
                    out,
                );
            } else if tens < max_tens {
                go(
                    dice,
                    i,
                    passes + gain,
                    prob * 0.1,
                    tens + 1,
                    max_tens,
                    ego,
                    out,
                );
            }
        }
        let mut out = vec![0.0];
        go(dice, 0, 0, 1.0, 0, max_tens, ego, &mut out);
        out
    }

    #[test]
    fn ve2_t4_t8_brute_force_every_face_without_explosions() {
        for rank in ALL {
            for ally in ALL {
                for ego in [false, true] {
                    let exact = ve2_task_pmf(3, rank, &[ally], false, false, ego);
                    let dice = [(rank, false), (rank, false), (rank, false), (ally, false)];
                    let brute = brute_ve2_faces(&dice, ego, 0);
                    assert_pmfs_close(&exact, &brute, 1e-12, "ve2 plain");
                }
            }
        }
    }

    #[test]
    fn ve2_t5_brute_force_every_face_with_explosions() {
        // 3 exploding roller dice + 1 plain ally die, every face, up to twelve
        // 10s: the left-out mass is below 1e-11 and bounds the difference.
        for (rank, ally, ego) in [
            (Rank::Bronze, Rank::Platinum, false),
            (Rank::Gold, Rank::Silver, true),
        ] {
            let exact = ve2_task_pmf(3, rank, &[ally], true, false, ego);
            let dice = [(rank, true), (rank, true), (rank, true), (ally, false)];
            let brute = brute_ve2_faces(&dice, ego, 12);
            let left_out = 1.0 - brute.iter().sum::<f64>();
            assert!(left_out < 1e-11, "left out {left_out}");
            assert_pmfs_close(&exact, &brute, left_out + 1e-13, "ve2 faces");
        }
    }

    #[test]
    fn ve2_t5_t8_a_v19_brute_force_every_rank_and_scope() {
        for rank in ALL {
            for ally in ALL {
                for ego in [false, true] {
                    for all_dice in [false, true] {
                        let exact = ve2_task_pmf(3, rank, &[ally], true, all_dice, ego);
                        let dice = [(rank, true), (rank, true), (rank, true), (ally, all_dice)];
                        let brute = brute_ve2_classes(&dice, ego, 16);
                        let left_out = 1.0 - brute.iter().sum::<f64>();
                        assert!(left_out < 1e-13, "left out {left_out}");
                        assert_pmfs_close(&exact, &brute, 1e-12, "ve2 classes");
                    }
                }
            }
        }
    }

    // ----- KISS -------------------------------------------------------------

    fn subsets(n: usize) -> impl Iterator<Item = Vec<usize>> {
        (0..1u32 << n).map(move |mask| (0..n).filter(|&i| mask >> i & 1 == 1).collect())
    }

    #[test]
    fn ve1_k3_kiss_odds_match_brute_force() {
        let table = [
            (Rank::Silver, 2),
            (Rank::Silver, 6),
            (Rank::Bronze, 4),
            (Rank::Gold, 5),
        ];
        for ego in [false, true] {
            for reroll in subsets(table.len()) {
                // Brute force: every face of the re-rolled dice.
                let k = reroll.len() as u32;
                let mut finals = vec![0.0; 9];
                for combo in 0..6u32.pow(k) {
                    let mut faces: Vec<(Rank, u32)> = table.to_vec();
                    let mut c = combo;
                    for &i in &reroll {
                        faces[i].1 = c % 6 + 1;
                        c /= 6;
                    }
                    let beats: usize = faces
                        .iter()
                        .map(|&(r, f)| match (f >= min6(r), ego && f == 6) {
                            (false, _) => 0,
                            (true, false) => 1,
                            (true, true) => 2,
                        })
                        .sum();
                    finals[beats] += 1.0 / f64::from(6u32.pow(k));
                }
                let kept: Vec<(Rank, u32)> = (0..table.len())
                    .filter(|i| !reroll.contains(i))
                    .map(|i| table[i])
                    .collect();
                let kept_beats = kept.iter().filter(|&&(r, f)| f >= min6(r)).count() as u32;
                let kept_sixes = kept.iter().filter(|&&(_, f)| f == 6).count() as u32;
                let rerolled: Vec<Rank> = reroll.iter().map(|&i| table[i].0).collect();
                let pmf = ve1_kiss_pmf(kept_beats, kept_sixes, &rerolled, ego);
                assert_pmfs_close(&pmf, &finals, 1e-12, "ve1 kiss pmf");
                for threshold in 0..=6u32 {
                    let brute: f64 = finals.iter().skip(threshold as usize).sum();
                    let p = ve1_kiss_success(kept_beats, &rerolled, threshold, ego, kept_sixes);
                    assert!(close(p, brute, 1e-12), "{reroll:?} T{threshold}");
                    let odds = ve1_kiss_odds(&table, &reroll, threshold, ego).unwrap();
                    assert!(close(odds.success_after, brute, 1e-12));
                    assert!(close(odds.mean_after, mean(&finals), 1e-12));
                    let now: u32 = if ego { 3 } else { 2 };
                    assert_eq!(odds.success_now, now >= threshold);
                }
            }
        }
    }

    #[test]
    fn ve1_k3_kiss_can_turn_a_success_into_a_failure() {
        // Beats: Silver 6 and Gold 5 (2 beats); threshold 2 is met now.
        let dice = [(Rank::Silver, 6), (Rank::Gold, 5), (Rank::Bronze, 1)];
        let odds = ve1_kiss_odds(&dice, &[0], 2, false).unwrap();
        assert!(odds.success_now);
        // The re-rolled Silver die must beat again (4-6): 1/2.
        assert!(close(odds.success_after, 0.5, 1e-15));
        assert!(close(odds.turns_success_into_failure, 0.5, 1e-15));
        assert_eq!(odds.turns_failure_into_success, 0.0);
        // KISSing the Bronze 1 to reach threshold 3: needs 5-6.
        let odds = ve1_kiss_odds(&dice, &[2], 3, false).unwrap();
        assert!(!odds.success_now);
        assert!(close(odds.turns_failure_into_success, 1.0 / 3.0, 1e-15));
        // Under Ego a Gold 5 re-rolled hoping for a 6 (VE1-K3 example).
        let odds = ve1_kiss_odds(&dice, &[1], 4, true).unwrap();
        assert!(!odds.success_now);
        assert!(close(odds.success_after, 1.0 / 6.0, 1e-15));
    }

    #[test]
    fn ve1_k2_ve2_k2_kiss_odds_reject_bad_input() {
        let dice = [(Rank::Silver, 6), (Rank::Gold, 5)];
        let dup = ve1_kiss_odds(&dice, &[1, 1], 2, false).unwrap_err();
        assert!(dup.message.contains("twice"), "{}", dup.message);
        let missing = ve1_kiss_odds(&dice, &[2], 2, false).unwrap_err();
        assert!(
            missing.message.contains("no die number 3"),
            "{}",
            missing.message
        );
        let face = ve1_kiss_odds(&[(Rank::Gold, 7)], &[], 1, false).unwrap_err();
        assert!(face.message.contains("1 to 6"));
        let face = ve2_kiss_odds(&[(Rank::Gold, 0, true)], &[], 1, false).unwrap_err();
        assert!(face.message.contains("1 to 10"));
        let big = vec![(Rank::Gold, 3); MAX_ODDS_DICE + 1];
        assert!(ve1_kiss_odds(&big, &[0], 1, false).is_err());
        assert!(ve1_kiss_odds(&dice, &[usize::MAX], 1, false).is_err());
    }

    #[test]
    fn ve2_k_kiss_odds_match_brute_force() {
        // Roller's dice explode (magic task); allies' do not (A-V19).
        let table = [
            (Rank::Gold, 10, true),
            (Rank::Silver, 3, true),
            (Rank::Bronze, 7, false),
            (Rank::Platinum, 10, false),
        ];
        for ego in [false, true] {
            for reroll in subsets(table.len()) {
                let kept: Vec<(Rank, u32, bool)> = (0..table.len())
                    .filter(|i| !reroll.contains(i))
                    .map(|i| table[i])
                    .collect();
                let kept_passes = kept.iter().filter(|&&(r, f, _)| f >= min10(r)).count();
                let kept_tens = kept.iter().filter(|&&(_, f, _)| f == 10).count();
                let rerolled: Vec<(Rank, bool)> =
                    reroll.iter().map(|&i| (table[i].0, table[i].2)).collect();
                let fresh = brute_ve2_faces(&rerolled, ego, 14);
                let left_out = 1.0 - fresh.iter().sum::<f64>();
                assert!(left_out < 1e-12);
                let offset = kept_passes + if ego { kept_tens } else { 0 };
                let finals = shifted(&fresh, offset);
                let pmf = ve2_kiss_pmf(kept_passes as u32, kept_tens as u32, &rerolled, ego);
                assert_pmfs_close(&pmf, &finals, left_out + 1e-13, "ve2 kiss pmf");
                for threshold in 0..=7u32 {
                    let brute: f64 = finals.iter().skip(threshold as usize).sum();
                    let p = ve2_kiss_success(
                        kept_passes as u32,
                        kept_tens as u32,
                        &rerolled,
                        threshold,
                        ego,
                    );
                    assert!(close(p, brute, left_out + 1e-13), "{reroll:?} T{threshold}");
                    let odds = ve2_kiss_odds(&table, &reroll, threshold, ego).unwrap();
                    assert!(close(odds.success_after, p, 1e-15));
                    assert_eq!(odds.success_now, 3 >= threshold);
                }
            }
        }
    }

    #[test]
    fn ve2_t6_k1_kiss_is_pointless_when_already_succeeding() {
        let dice = [(Rank::Gold, 5, false), (Rank::Gold, 2, false)];
        let odds = ve2_kiss_odds(&dice, &[1], 1, false).unwrap();
        assert!(odds.success_now);
        assert_eq!(odds.turns_failure_into_success, 0.0);
        assert_eq!(odds.success_after, 1.0);
        assert_eq!(odds.turns_success_into_failure, 0.0);
        // Failing at threshold 2: the Gold 2 re-rolled passes 60%.
        let odds = ve2_kiss_odds(&dice, &[1], 2, false).unwrap();
        assert!(close(odds.turns_failure_into_success, 0.6, 1e-15));
        // VE2-T8: with Ego to come, a lone 10 meets threshold 2, exploding or not.
        let odds = ve2_kiss_odds(&[(Rank::Bronze, 1, true)], &[0], 2, true).unwrap();
        // Exploding die: P(>= 2) = 0.1 (a 10 counts 2 under Ego).
        assert!(close(odds.success_after, 0.1, 1e-15));
        let odds = ve2_kiss_odds(&[(Rank::Bronze, 1, true)], &[0], 2, false).unwrap();
        // Without Ego two passes need a 10 first, then the extra die (itself
        // exploding) passes at least once: 0.1 * 0.4.
        assert!(close(odds.success_after, 0.04, 1e-15));
    }

    // ----- Statistical checks through the real dice ---------------------------

    /// Compares observed counts with `pmf` (N = `trials`), merging the upper
    /// tail so each bin expects at least 25 hits; every bin must be within 5
    /// standard errors.
    fn within_five_sigma(counts: &[u64], pmf: &[f64], trials: u64) -> Result<(), String> {
        let n = trials as f64;
        let tail = at_least(pmf);
        let mut k = 0;
        loop {
            let next_tail = tail.get(k + 1).copied().unwrap_or(0.0);
            let last_bin = n * next_tail < 25.0;
            let (p, obs) = if last_bin {
                (
                    tail.get(k).copied().unwrap_or(0.0),
                    counts.iter().skip(k).sum::<u64>(),
                )
            } else {
                (pmf[k], counts.get(k).copied().unwrap_or(0))
            };
            let expected = n * p;
            let tol = 5.0 * (n * p * (1.0 - p)).sqrt();
            if (obs as f64 - expected).abs() > tol {
                return Err(format!(
                    "k = {k}: observed {obs}, expected {expected:.1} ± {tol:.1}"
                ));
            }
            if last_bin {
                return Ok(());
            }
            k += 1;
        }
    }

    const TRIALS: u64 = 100_000;

    #[test]
    fn ve1_t4_k4b_statistical_rolls_match_exact_pmf() {
        // 8 Silver dice, a Gold and a Bronze ally, Ego double 6s.
        let mut rng = StdRng::seed_from_u64(0x000e_0001);
        let mut counts = vec![0u64; 21];
        for _ in 0..TRIALS {
            let mut faces: Vec<(Rank, u32)> = pool(&mut rng, 8, 6)
                .into_iter()
                .map(|f| (Rank::Silver, f))
                .collect();
            faces.push((Rank::Gold, d(&mut rng, 6)));
            faces.push((Rank::Bronze, d(&mut rng, 6)));
            let beats: usize = faces
                .iter()
                .map(|&(r, f)| {
                    if f < min6(r) {
                        0
                    } else if f == 6 {
                        2
                    } else {
                        1
                    }
                })
                .sum();
            counts[beats] += 1;
        }
        let exact = ve1_task_pmf(8, Rank::Silver, &[Rank::Gold, Rank::Bronze], true);
        within_five_sigma(&counts, &exact, TRIALS).unwrap();
        // The test can fail: the same rolls do not fit Bronze dice or no Ego.
        let wrong = ve1_task_pmf(8, Rank::Bronze, &[Rank::Gold, Rank::Bronze], true);
        assert!(within_five_sigma(&counts, &wrong, TRIALS).is_err());
        let no_ego = ve1_task_pmf(8, Rank::Silver, &[Rank::Gold, Rank::Bronze], false);
        assert!(within_five_sigma(&counts, &no_ego, TRIALS).is_err());
    }

    #[test]
    fn ve2_t5_t8_statistical_rolls_match_exact_pmf() {
        // 6 exploding Gold dice, plain Bronze and Platinum allies, Ego.
        let mut rng = StdRng::seed_from_u64(0x001e_0002);
        let mut counts = vec![0u64; 8];
        let dice = [
            (Rank::Gold, true),
            (Rank::Gold, true),
            (Rank::Gold, true),
            (Rank::Gold, true),
            (Rank::Gold, true),
            (Rank::Gold, true),
            (Rank::Bronze, false),
            (Rank::Platinum, false),
        ];
        for _ in 0..TRIALS {
            let mut passes = 0usize;
            for &(rank, explodes) in &dice {
                loop {
                    let face = d(&mut rng, 10);
                    if face == 10 {
                        passes += 2;
                    } else if face >= min10(rank) {
                        passes += 1;
                    }
                    if !(face == 10 && explodes) {
                        break;
                    }
                }
            }
            if counts.len() <= passes {
                counts.resize(passes + 1, 0);
            }
            counts[passes] += 1;
        }
        let exact = ve2_pool_pmf(&dice, true);
        within_five_sigma(&counts, &exact, TRIALS).unwrap();
        let no_explode = ve2_task_pmf(
            6,
            Rank::Gold,
            &[Rank::Bronze, Rank::Platinum],
            false,
            false,
            true,
        );
        assert!(within_five_sigma(&counts, &no_explode, TRIALS).is_err());
    }

    #[test]
    fn ve1_c6_statistical_checks_match_exact_odds() {
        // Silver, score 3 against 15, two bonus dice.
        let mut rng = StdRng::seed_from_u64(0x000e_0003);
        let mut passes = 0u64;
        for _ in 0..TRIALS {
            let natural = d(&mut rng, 20) as i32;
            let ok = if natural == 1 {
                false
            } else if natural == 20 || natural + 3 >= 15 {
                true
            } else if 15 - (natural + 3) > 6 {
                false
            } else {
                let best = pool(&mut rng, 2, 6).into_iter().max().unwrap() as i32;
                natural + 3 + best >= 15
            };
            passes += u64::from(ok);
        }
        let p = ve1_check_pass(3, 15, Rank::Silver, 2);
        let counts = [TRIALS - passes, passes];
        within_five_sigma(&counts, &[1.0 - p, p], TRIALS).unwrap();
        let one_die = ve1_check_pass(3, 15, Rank::Silver, 1);
        assert!(within_five_sigma(&counts, &[1.0 - one_die, one_die], TRIALS).is_err());
    }

    // ----- Sizes and timings --------------------------------------------------

    #[test]
    fn huge_inputs_are_capped_not_panicking() {
        let pmf = ve1_task_pmf(u32::MAX, Rank::Gold, &[Rank::Gold; 5], true);
        assert_eq!(pmf.len(), 2 * MAX_ODDS_DICE + 1);
        let pmf = ve2_task_pmf(u32::MAX, Rank::Bronze, &[], true, true, true);
        assert!(close(pmf.iter().sum::<f64>(), 1.0, 1e-12));
        assert!(close(mean(&pmf), MAX_ODDS_DICE as f64 * 0.5 / 0.9, 1e-9));
        assert_eq!(
            ve1_kiss_success(u32::MAX, &[Rank::Gold], u32::MAX, true, u32::MAX),
            1.0
        );
        assert_eq!(ve1_kiss_success(0, &[Rank::Gold], u32::MAX, true, 0), 0.0);
        assert_eq!(ve2_kiss_success(u32::MAX, u32::MAX, &[], 5, true), 1.0);
        assert_eq!(
            ve1_kiss_pmf(u32::MAX, 0, &[], false).len(),
            MAX_OFFSET as usize + 1
        );
        assert_eq!(prob_at_least(&[0.5, 0.5], u32::MAX), 0.0);
    }

    #[test]
    fn odds_timings_at_largest_pools() {
        use std::hint::black_box;
        use std::time::Instant;
        // ve_max_pool = 20 roller dice + 3 allies.
        let allies = [Rank::Platinum, Rank::Gold, Rank::Bronze];
        let ve1_all: Vec<Rank> = vec![Rank::Bronze; 23];
        let ve2_all: Vec<(Rank, bool)> = vec![(Rank::Bronze, true); 23];
        let reps = 200u32;
        let mut report = Vec::new();
        let mut time = |name: &str, f: &mut dyn FnMut() -> f64| {
            let start = Instant::now();
            for _ in 0..reps {
                black_box(f());
            }
            let us = start.elapsed().as_secs_f64() * 1e6 / f64::from(reps);
            report.push(format!("{name}: {us:.1} µs"));
        };
        time("ve1_check_pass(4 dice)", &mut || {
            ve1_check_pass(black_box(3), 15, Rank::Platinum, 4)
        });
        time("ve2_check_pass", &mut || {
            ve2_check_pass(black_box(3), 15, Rank::Platinum, 8, &AutoPass::Text, true)
        });
        time("ve1_task_at_least(20 + 3, ego)", &mut || {
            ve1_task_at_least(black_box(20), Rank::Silver, &allies, true)[3]
        });
        time("ve2_task_at_least(20 + 3, explode all, ego)", &mut || {
            ve2_task_at_least(black_box(20), Rank::Bronze, &allies, true, true, true)[3]
        });
        time("ve2_task_at_least(20 + 3, plain)", &mut || {
            ve2_task_at_least(black_box(20), Rank::Bronze, &allies, false, false, false)[3]
        });
        time("ve1_kiss_success(23 re-rolled, ego)", &mut || {
            ve1_kiss_success(0, black_box(&ve1_all), 5, true, 0)
        });
        time("ve2_kiss_success(23 re-rolled exploding, ego)", &mut || {
            ve2_kiss_success(0, 0, black_box(&ve2_all), 12, true)
        });
        println!("Venus odds timings (debug build, per call):");
        for line in &report {
            println!("  {line}");
        }
    }
}

// ---------------------------------------------------------------------------
// The odds questions of `/odds` and `kismet odds`, with typed answers
// ---------------------------------------------------------------------------

/// The answer to a check question: P(pass).
#[derive(Debug, Clone, Copy, PartialEq, Serialize)]
pub struct CheckOdds {
    /// P(pass).
    pub pass: f64,
}

/// The answer to a task question: element `k` is P(at least `k` beats or
/// passes).
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct TaskOdds {
    /// P(≥ k), k = 0, 1, ….
    pub at_least: Vec<f64>,
}

fn check_score(score: i32) -> Result<(), OddsError> {
    if (0..=100).contains(&score) {
        Ok(())
    } else {
        Err(OddsError::new("score", score, "scores run from 0 to 100"))
    }
}

fn check_task_dice(dice: u32) -> Result<(), OddsError> {
    if dice > 50 {
        Err(OddsError::new("dice", dice, "at most 50 dice"))
    } else {
        Ok(())
    }
}

/// Edition-1 check: d20 + score against a target, the best of the bonus d6
/// added when short by 6 or less.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Ve1CheckQuestion {
    /// Ability score (0-100).
    pub score: i32,
    /// Target (5-29).
    pub target: i32,
    /// The roller's rank.
    pub rank: Rank,
    /// Bonus factors (0-4), one d6 each.
    pub bonus_dice: u32,
}

impl Ve1CheckQuestion {
    /// P(pass), or why the question is out of range.
    pub fn answer(&self) -> Result<CheckOdds, OddsError> {
        if !(5..=29).contains(&self.target) {
            return Err(OddsError::new(
                "target",
                self.target,
                "edition-1 targets run from 5 to 29",
            ));
        }
        if self.bonus_dice > VE1_MAX_BONUS_DICE {
            return Err(OddsError::new(
                "bonus-dice",
                self.bonus_dice,
                "at most 4 bonus factors",
            ));
        }
        check_score(self.score)?;
        Ok(CheckOdds {
            pass: ve1_check_pass(self.score, self.target, self.rank, self.bonus_dice),
        })
    }
}

/// Edition-2 check: d20 + score + a flat bonus when short, against a target.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Ve2CheckQuestion {
    /// Ability score (0-100).
    pub score: i32,
    /// Target (5-28).
    pub target: i32,
    /// The roller's rank.
    pub rank: Rank,
    /// Flat bonus (0-8).
    pub bonus: u32,
    /// The automatic-pass ranges.
    pub autopass: AutoPass,
}

impl Ve2CheckQuestion {
    /// P(pass), or why the question is out of range.
    pub fn answer(&self) -> Result<CheckOdds, OddsError> {
        if !(5..=28).contains(&self.target) {
            return Err(OddsError::new(
                "target",
                self.target,
                "edition-2 targets run from 5 to 28",
            ));
        }
        if self.bonus > VE2_MAX_BONUS {
            return Err(OddsError::new(
                "bonus",
                self.bonus,
                "the flat bonus is at most +8",
            ));
        }
        check_score(self.score)?;
        Ok(CheckOdds {
            pass: ve2_check_pass(
                self.score,
                self.target,
                self.rank,
                self.bonus,
                &self.autopass,
                false,
            ),
        })
    }
}

/// Edition-1 task: the roller's D6 at their rank plus one die per ally.
#[derive(Debug, Clone, PartialEq)]
pub struct Ve1TaskQuestion {
    /// The roller's D6 (0-50).
    pub dice: u32,
    /// The roller's rank.
    pub rank: Rank,
    /// Allies' ranks (at most 2).
    pub allies: Vec<Rank>,
    /// Ego mode (ii): every 6 strikes two beats.
    pub ego_double_six: bool,
}

impl Ve1TaskQuestion {
    /// P(beats ≥ k), or why the question is out of range.
    pub fn answer(&self) -> Result<TaskOdds, OddsError> {
        check_task_dice(self.dice)?;
        if self.allies.len() > 2 {
            return Err(OddsError::plain(
                format!("{} allies", self.allies.len()),
                "edition 1 allows at most 2",
            ));
        }
        Ok(TaskOdds {
            at_least: ve1_task_at_least(self.dice, self.rank, &self.allies, self.ego_double_six),
        })
    }
}

/// Edition-2 task: the roller's D10 at their rank plus one die per ally.
#[derive(Debug, Clone, PartialEq)]
pub struct Ve2TaskQuestion {
    /// The roller's D10 (0-50).
    pub dice: u32,
    /// The roller's rank.
    pub rank: Rank,
    /// Allies' ranks (at most 3).
    pub allies: Vec<Rank>,
    /// The roller's 10s explode.
    pub explode: bool,
    /// Ego: every 10 counts as two passes.
    pub ego: bool,
}

impl Ve2TaskQuestion {
    /// P(passes ≥ k), or why the question is out of range.
    pub fn answer(&self) -> Result<TaskOdds, OddsError> {
        check_task_dice(self.dice)?;
        if self.allies.len() > 3 {
            return Err(OddsError::plain(
                format!("{} allies", self.allies.len()),
                "edition 2 allows at most 3",
            ));
        }
        Ok(TaskOdds {
            at_least: ve2_task_at_least(
                self.dice,
                self.rank,
                &self.allies,
                self.explode,
                false,
                self.ego,
            ),
        })
    }
}

#[cfg(test)]
mod question_tests {
    use super::*;

    #[test]
    fn questions_answer_in_range_and_name_the_parameter_out_of_it() {
        let q = Ve1CheckQuestion {
            score: 7,
            target: 15,
            rank: Rank::Silver,
            bonus_dice: 2,
        };
        assert_eq!(
            q.answer().unwrap().pass,
            ve1_check_pass(7, 15, Rank::Silver, 2)
        );
        let e = Ve1CheckQuestion { target: 30, ..q }.answer().unwrap_err();
        assert_eq!(e.cli(), "--target 30: edition-1 targets run from 5 to 29");
        let e = Ve1CheckQuestion { bonus_dice: 5, ..q }
            .answer()
            .unwrap_err();
        assert_eq!(e.slash(), "bonus_dice 5: at most 4 bonus factors");
        let t = Ve2TaskQuestion {
            dice: 4,
            rank: Rank::Gold,
            allies: vec![Rank::Bronze; 4],
            explode: false,
            ego: false,
        };
        assert_eq!(
            t.answer().unwrap_err().cli(),
            "4 allies: edition 2 allows at most 3"
        );
        let a = Ve2TaskQuestion {
            allies: vec![],
            ..t
        }
        .answer()
        .unwrap();
        assert_eq!(a.at_least[0], 1.0);
        assert_eq!(a.at_least.len(), 5);
    }

    #[test]
    fn ve1_exploding_d6s_strike_on_every_six() {
        // One Bronze die: no beat on 1-4; a 6 strikes and adds a die.
        let pmf = ve1_exploding_pool_pmf(&[(Rank::Bronze, true)], false);
        assert!((pmf[0] - 4.0 / 6.0).abs() < 1e-12);
        assert!((prob_at_least(&pmf, 1) - 1.0 / 3.0).abs() < 1e-12);
        assert!((prob_at_least(&pmf, 2) - 1.0 / 18.0).abs() < 1e-12);
        // Without exploding dice it is the plain pool.
        let plain = ve1_exploding_pool_pmf(&[(Rank::Gold, false), (Rank::Silver, false)], true);
        assert_eq!(plain, ve1_pool_pmf(&[Rank::Gold, Rank::Silver], true));
    }
}
