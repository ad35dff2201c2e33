//! Resolving a Storyteller roll (spec §4.3): base dice against the
//! difficulty (ST-4), the threshold (ST-5), botches and the outcome (ST-6),
//! specialties' exploding bonus dice (ST-7) under the 2000-generated-dice cap
//! (§1.7, A-S11), and what the bot shows (ST-9), with a compact per-face
//! summary for long lists.

use rand::Rng;
use serde::{Deserialize, Serialize};
use std::fmt;

use super::pool::{RollSpec, HARD_MAX_POOL};
use crate::rules::dice;

/// The most bonus dice one roll may generate (§1.7, A-S11).
pub const GENERATED_DICE_CAP: u32 = 2000;
/// Dice lists longer than this are best shown as counts per face (A-S11).
pub const LONG_LIST: usize = 60;

/// The outcome of a roll (ST-6).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(tag = "result", rename_all = "snake_case")]
pub enum Outcome {
    /// Net successes above zero.
    Success {
        /// Net successes (1 barely; 3 or more very good).
        successes: u32,
    },
    /// Net zero, including botches exactly cancelling successes (A-S9), and
    /// zero-dice automatic failures (A-S1).
    Failure,
    /// More botches than remaining successes.
    Botch {
        /// The botch's size: uncancelled botches (−net).
        botches: u32,
    },
}

impl Outcome {
    /// True for a success.
    pub fn is_success(self) -> bool {
        matches!(self, Outcome::Success { .. })
    }

    /// True for a botch.
    pub fn is_botch(self) -> bool {
        matches!(self, Outcome::Botch { .. })
    }

    /// The outcome of a net result (ST-6).
    pub fn from_net(net: i64) -> Self {
        if net > 0 {
            Outcome::Success {
                successes: u32::try_from(net).unwrap_or(u32::MAX),
            }
        } else if net == 0 {
            Outcome::Failure
        } else {
            Outcome::Botch {
                botches: u32::try_from(-net).unwrap_or(u32::MAX),
            }
        }
    }
}

impl fmt::Display for Outcome {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Outcome::Success { successes: 1 } => f.write_str("success (1 success)"),
            Outcome::Success { successes } => write!(f, "success ({successes} successes)"),
            Outcome::Failure => f.write_str("simple failure"),
            Outcome::Botch { botches: 1 } => f.write_str("botch (1 botch)"),
            Outcome::Botch { botches } => write!(f, "botch ({botches} botches)"),
        }
    }
}

/// How one die reads (for marking faces, ST-9).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum DieMark {
    /// At or above the difficulty.
    Success,
    /// A 1 on a base die.
    Botch,
    /// A 1 on a bonus die: ignored (ST-7).
    Ignored,
    /// Anything else.
    Failure,
}

/// Counts per face, for summarising long dice lists (A-S11).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize)]
pub struct FaceCounts {
    /// `counts[f - 1]` is how many dice show face `f`.
    pub counts: [u32; 10],
}

impl FaceCounts {
    /// Counts the faces in a list (faces outside 1..=10 are skipped).
    pub fn of(faces: &[u32]) -> Self {
        let mut counts = [0u32; 10];
        for &f in faces {
            if (1..=10).contains(&f) {
                counts[(f - 1) as usize] += 1;
            }
        }
        Self { counts }
    }

    /// Adds another list's counts.
    pub fn add(&mut self, other: &FaceCounts) {
        for (a, b) in self.counts.iter_mut().zip(other.counts) {
            *a = a.saturating_add(b);
        }
    }

    /// The number of dice counted.
    pub fn total(&self) -> u32 {
        self.counts.iter().fold(0u32, |a, &b| a.saturating_add(b))
    }

    /// Highest face first, e.g. "10×3, 8×1, 1×2" (faces with no dice left out).
    pub fn compact(&self) -> String {
        let parts: Vec<String> = (1..=10u32)
            .rev()
            .filter(|f| self.counts[(f - 1) as usize] > 0)
            .map(|f| format!("{f}×{}", self.counts[(f - 1) as usize]))
            .collect();
        if parts.is_empty() {
            "no dice".to_string()
        } else {
            parts.join(", ")
        }
    }
}

/// A resolved roll: every face and every step (ST-9).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct RollResult {
    /// The parameters, fixed before rolling.
    pub spec: RollSpec,
    /// The base dice (the chance die, for a zero pool under `chance_die`).
    pub base: Vec<u32>,
    /// Bonus dice in generations: `bonus[0]` came from the base 10s,
    /// `bonus[1]` from the 10s of `bonus[0]`, and so on.
    pub bonus: Vec<Vec<u32>>,
    /// True when the 2000-generated-dice cap stopped the chain (A-S11).
    pub cap_hit: bool,
    /// True when a zero pool rolled a chance die (A-S1).
    pub chance_die: bool,
    /// True when a zero pool failed automatically without rolling (A-S1).
    pub auto_fail: bool,
    /// Successes on base dice.
    pub base_successes: u32,
    /// Successes on bonus dice.
    pub bonus_successes: u32,
    /// 1s on bonus dice, ignored (ST-7).
    pub ignored_bonus_ones: u32,
    /// Botches: 1s on base dice.
    pub botches: u32,
    /// Successes removed by the threshold; they never happened (ST-5).
    pub threshold_removed: u32,
    /// Botch/success pairs cancelled (ST-6).
    pub cancelled: u32,
    /// Net successes: remaining successes minus botches (ST-6).
    pub net: i64,
    /// The outcome (ST-6; A-S11 when the cap was hit).
    pub outcome: Outcome,
}

impl RollResult {
    /// All successes rolled, before the threshold.
    pub fn successes_rolled(&self) -> u32 {
        self.base_successes.saturating_add(self.bonus_successes)
    }

    /// How many bonus dice were rolled.
    pub fn bonus_dice(&self) -> u32 {
        self.bonus.iter().map(|g| g.len() as u32).sum()
    }

    /// True when the dice are best shown as counts per face (more than 60).
    pub fn is_long(&self) -> bool {
        self.base.len() + self.bonus_dice() as usize > LONG_LIST
    }

    /// Per-face counts of the base dice.
    pub fn base_counts(&self) -> FaceCounts {
        FaceCounts::of(&self.base)
    }

    /// Per-face counts of all bonus dice.
    pub fn bonus_counts(&self) -> FaceCounts {
        let mut c = FaceCounts::default();
        for g in &self.bonus {
            c.add(&FaceCounts::of(g));
        }
        c
    }

    /// How a face reads in this roll, on a base or a bonus die.
    pub fn mark(&self, face: u32, bonus: bool) -> DieMark {
        let difficulty = if self.chance_die {
            self.spec.difficulty.max(10)
        } else {
            self.spec.difficulty
        };
        if face == 1 {
            if bonus {
                DieMark::Ignored
            } else {
                DieMark::Botch
            }
        } else if face >= difficulty {
            DieMark::Success
        } else {
            DieMark::Failure
        }
    }

    /// A short summary line, e.g. "base 10×2, 6×1, 1×1 | bonus 8×1 | 2 removed
    /// by threshold | 1 pair cancelled | success (2 successes)".
    pub fn summary(&self) -> String {
        let mut parts = Vec::new();
        if self.auto_fail {
            parts.push("no dice: automatic failure".to_string());
        } else {
            parts.push(format!("base {}", self.base_counts().compact()));
        }
        if !self.bonus.is_empty() {
            parts.push(format!(
                "bonus {} in {} generation{}",
                self.bonus_counts().compact(),
                self.bonus.len(),
                if self.bonus.len() == 1 { "" } else { "s" }
            ));
        }
        if self.cap_hit {
            parts.push(format!("stopped at the {GENERATED_DICE_CAP}-dice cap"));
        }
        if self.threshold_removed > 0 {
            parts.push(format!("{} removed by threshold", self.threshold_removed));
        }
        if self.cancelled > 0 {
            parts.push(format!(
                "{} pair{} cancelled",
                self.cancelled,
                if self.cancelled == 1 { "" } else { "s" }
            ));
        }
        parts.push(self.outcome.to_string());
        parts.join(" | ")
    }
}

/// Rolls a spec: base dice (or the zero-pool rule), then bonus generations
/// while 10s keep coming, up to [`GENERATED_DICE_CAP`] bonus dice, then
/// resolves. Never panics; pool sizes above [`HARD_MAX_POOL`] are cut to it
/// (the builders never produce them).
pub fn roll<R: Rng + ?Sized>(spec: &RollSpec, rng: &mut R) -> RollResult {
    if spec.is_auto_fail() {
        return resolve(spec, Vec::new(), Vec::new(), false);
    }
    if spec.uses_chance_die() {
        return resolve(spec, dice::pool(rng, 1, 10), Vec::new(), false);
    }
    let n = spec.dice.min(HARD_MAX_POOL) as usize;
    let base = dice::pool(rng, n, 10);
    let k = spec.bonus_dice_per_ten;
    let mut bonus: Vec<Vec<u32>> = Vec::new();
    let mut generated: u32 = 0;
    let mut cap_hit = false;
    let mut tens = count_tens(&base);
    while k > 0 && tens > 0 && !cap_hit {
        let want = tens.saturating_mul(k);
        let room = GENERATED_DICE_CAP - generated;
        let take = want.min(room);
        if take < want {
            cap_hit = true;
        }
        if take == 0 {
            break;
        }
        let g = dice::pool(rng, take as usize, 10);
        generated += take;
        tens = count_tens(&g);
        bonus.push(g);
    }
    resolve(spec, base, bonus, cap_hit)
}

fn count_tens(faces: &[u32]) -> u32 {
    faces.iter().filter(|&&f| f == 10).count() as u32
}

/// Resolves given faces under a spec (ST-4 to ST-7, A-S1, A-S9, A-S11).
///
/// Pure: it trusts the faces (the caller rolled them; the generation sizes
/// are not re-checked). `cap_hit` says the chain was stopped by the cap: the
/// roll then counts as a success with at least 1 success, as long as success
/// is possible at all (A-S11, A-S2).
pub fn resolve(spec: &RollSpec, base: Vec<u32>, bonus: Vec<Vec<u32>>, cap_hit: bool) -> RollResult {
    let auto_fail = spec.is_auto_fail();
    let chance_die = spec.uses_chance_die();
    let difficulty = if chance_die {
        spec.difficulty.max(10)
    } else {
        spec.difficulty
    };
    let is_success = |f: u32| f >= difficulty && f != 1;
    let base_successes = base.iter().filter(|&&f| is_success(f)).count() as u32;
    let botches = base.iter().filter(|&&f| f == 1).count() as u32;
    let bonus_successes: u32 = bonus
        .iter()
        .map(|g| g.iter().filter(|&&f| is_success(f)).count() as u32)
        .sum();
    let ignored_bonus_ones: u32 = bonus
        .iter()
        .map(|g| g.iter().filter(|&&f| f == 1).count() as u32)
        .sum();
    let rolled = base_successes.saturating_add(bonus_successes);
    // ST-5: the threshold removes successes first; they never happened.
    let threshold_removed = rolled.min(spec.threshold);
    let remaining = rolled - threshold_removed;
    // ST-6: each botch cancels one remaining success.
    let cancelled = remaining.min(botches);
    let net = i64::from(remaining) - i64::from(botches);
    let outcome = if auto_fail {
        Outcome::Failure
    } else if cap_hit && spec.success_possible() {
        Outcome::Success {
            successes: u32::try_from(net.max(1)).unwrap_or(u32::MAX),
        }
    } else {
        Outcome::from_net(net)
    };
    RollResult {
        spec: spec.clone(),
        base,
        bonus,
        cap_hit,
        chance_die,
        auto_fail,
        base_successes,
        bonus_successes,
        ignored_bonus_ones,
        botches,
        threshold_removed,
        cancelled,
        net,
        outcome,
    }
}
