//! Saves (spec §3.3, VR-7..VR-11, A-R1, A-R6, A-R11, A-R13): a d20 plus
//! modifiers (+ is harder) read against a slot of the Light or Flesh
//! inventory, with Facet dice shifting the total in the Facet owner's
//! favour, and the exact chance of success before rolling.

use rand::Rng;
use serde::{Deserialize, Serialize};

use super::settings::{LockedSlot, VeracitySettings};
use super::sheet::{FacetDie, GridCell, Inventory, InventoryKind, ItemKind, Sheet, MAX_SLOTS};
use crate::rules::dice::d;
use crate::rules::dist::convolve;
use crate::rules::odds::OddsError;
use crate::rules::RuleError;

/// The largest modifier magnitude accepted (A-R13: + is harder).
pub const MAX_MODIFIER: i32 = 100;
/// The most Facet dice one save can apply.
pub const MAX_FACET_DICE: usize = 4;
/// Totals at or above this fail outright (VR-9).
pub const AUTO_FAIL: i32 = 19;

/// A Facet die applied to a save in its owner's favour (VR-12, A-R6).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct FacetBonus {
    /// The Facet's die.
    pub die: FacetDie,
    /// True when the Facet's owner is the one saving (subtract the roll);
    /// false when someone else saves as a consequence of the owner acting on
    /// the Facet (add the roll).
    pub owner_saves: bool,
    /// The GM flipped the sign for this save.
    pub flipped: bool,
}

impl FacetBonus {
    /// The owner saves: the roll is subtracted.
    pub fn owner_saving(die: FacetDie) -> FacetBonus {
        FacetBonus {
            die,
            owner_saves: true,
            flipped: false,
        }
    }

    /// Someone else saves against the owner acting on the Facet: the roll is added.
    pub fn other_saving(die: FacetDie) -> FacetBonus {
        FacetBonus {
            die,
            owner_saves: false,
            flipped: false,
        }
    }

    /// −1 (subtract, easier for the saver) or +1 (add, harder for the saver).
    pub fn sign(&self) -> i32 {
        let base = if self.owner_saves { -1 } else { 1 };
        if self.flipped {
            -base
        } else {
            base
        }
    }
}

/// What a save is asked to do (VR-7, VR-8).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct SaveRequest {
    /// Light for mental effort, Flesh for physical.
    pub inventory: InventoryKind,
    /// The sum of all flat modifiers; + is harder (A-R13), −100..=100.
    pub modifier: i32,
    /// Facet dice to roll (0..=4), each shifting the total in its owner's favour.
    pub facets: Vec<FacetBonus>,
}

/// Success or failure.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Outcome {
    /// The save succeeds.
    Success,
    /// The save fails.
    Failure,
}

/// Which part of VR-9 decided the save.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum SaveReason {
    /// Total ≤ 0: success whatever the slots (VR-9.1, A-R11).
    TotalAtMostZero,
    /// Total ≥ 19: failure whatever the slots (VR-9.2, A-R11).
    TotalAtLeast19,
    /// The slot numbered by the total is unlocked and empty: success.
    SlotEmpty,
    /// The slot holds an item of this kind: failure.
    SlotFilled(ItemKind),
    /// The slot is locked: failure or success per `vr_locked_slot` (A-R1).
    SlotLocked,
}

/// One Facet die as rolled.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct FacetRoll {
    /// What was asked.
    pub bonus: FacetBonus,
    /// The face rolled.
    pub roll: u32,
    /// Its effect on the total (sign × roll).
    pub shift: i32,
}

/// Everything about a rolled save, for transparent display (§1.3).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct SaveResult {
    /// Which inventory was read.
    pub inventory: InventoryKind,
    /// Unlocked slots at the time.
    pub unlocked: u32,
    /// The flat modifier.
    pub modifier: i32,
    /// The d20 face.
    pub d20: u32,
    /// Every Facet die, in order.
    pub facets: Vec<FacetRoll>,
    /// d20 + modifier + Facet shifts.
    pub total: i32,
    /// The slot looked at (only for totals 1..=18).
    pub slot: Option<u32>,
    /// What that slot looked like.
    pub cell: Option<GridCell>,
    /// The locked-slot rule in force (A-R1).
    pub locked_rule: LockedSlot,
    /// Success or failure.
    pub outcome: Outcome,
    /// Why.
    pub reason: SaveReason,
    /// The exact chance of success before rolling.
    pub chance: f64,
}

/// Reads a total against an inventory (VR-9): ≤ 0 succeeds, ≥ 19 fails,
/// otherwise slot `total` decides (locked per `vr_locked_slot`).
pub fn judge(
    inventory: &Inventory,
    total: i32,
    settings: &VeracitySettings,
) -> (Outcome, SaveReason, Option<u32>) {
    if total <= 0 {
        return (Outcome::Success, SaveReason::TotalAtMostZero, None);
    }
    if total >= AUTO_FAIL {
        return (Outcome::Failure, SaveReason::TotalAtLeast19, None);
    }
    let slot = total as u32;
    match inventory.cell(slot) {
        GridCell::Empty => (Outcome::Success, SaveReason::SlotEmpty, Some(slot)),
        GridCell::Filled(kind) => (Outcome::Failure, SaveReason::SlotFilled(kind), Some(slot)),
        GridCell::Locked => (
            match settings.vr_locked_slot {
                LockedSlot::Fail => Outcome::Failure,
                LockedSlot::Success => Outcome::Success,
            },
            SaveReason::SlotLocked,
            Some(slot),
        ),
    }
}

fn check_inputs(modifier: i32, facets: &[FacetBonus]) -> Result<(), RuleError> {
    if !(-MAX_MODIFIER..=MAX_MODIFIER).contains(&modifier) {
        return Err(RuleError::new(format!(
            "A save modifier must be between -{MAX_MODIFIER} and +{MAX_MODIFIER}."
        )));
    }
    if facets.len() > MAX_FACET_DICE {
        return Err(RuleError::new(format!(
            "At most {MAX_FACET_DICE} Facet dice can apply to one save."
        )));
    }
    Ok(())
}

/// The distribution of the summed Facet shifts: (pmf, offset) where
/// `pmf[k]` is P(shift = k + offset).
fn shift_distribution(facets: &[FacetBonus]) -> (Vec<f64>, i32) {
    let mut pmf = vec![1.0];
    let mut offset = 0i32;
    for f in facets {
        let s = f.die.sides() as usize;
        let p = 1.0 / s as f64;
        if f.sign() > 0 {
            // +k for k in 1..=s: index k.
            let mut die = vec![p; s + 1];
            die[0] = 0.0;
            pmf = convolve(&pmf, &die);
        } else {
            // -k = (s - k) - s, and s - k is uniform on 0..s.
            pmf = convolve(&pmf, &vec![p; s]);
            offset -= s as i32;
        }
    }
    (pmf, offset)
}

/// The exact chance that a save succeeds (VR-10, VR-11), counting every d20
/// face and every Facet-die outcome.
pub fn save_chance(
    inventory: &Inventory,
    modifier: i32,
    facets: &[FacetBonus],
    settings: &VeracitySettings,
) -> Result<f64, RuleError> {
    check_inputs(modifier, facets)?;
    let (pmf, offset) = shift_distribution(facets);
    let mut p = 0.0;
    for face in 1..=20i32 {
        for (k, &q) in pmf.iter().enumerate() {
            if q == 0.0 {
                continue;
            }
            let total = face + modifier + offset + k as i32;
            if judge(inventory, total, settings).0 == Outcome::Success {
                p += q;
            }
        }
    }
    Ok(p / 20.0)
}

/// P(success) of an unmodified-setting save with `unlocked` slots whose lowest
/// `filled_lowest` are filled, at `modifier` (VR-10; locked slots fail, A-R1).
/// Inputs are clamped: unlocked ≤ 18, filled ≤ unlocked, |modifier| ≤ 100.
/// For the `kismet odds veracity-save` command.
pub fn save_success(unlocked: u32, filled_lowest: u32, modifier: i32) -> f64 {
    let u = unlocked.min(MAX_SLOTS) as i32;
    let f = filled_lowest.min(unlocked.min(MAX_SLOTS)) as i32;
    let m = modifier.clamp(-MAX_MODIFIER, MAX_MODIFIER);
    let wins = (1..=20)
        .map(|face| face + m)
        .filter(|&t| t <= 0 || (t > f && t <= u && t < AUTO_FAIL))
        .count();
    wins as f64 / 20.0
}

/// The odds question of `/vr odds veracity-save` and `kismet odds
/// veracity-save`: a save at `modifier` against an inventory of `unlocked`
/// slots whose lowest `filled` are filled.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct SaveQuestion {
    /// Unlocked slots (0-18).
    pub unlocked: u32,
    /// Filled slots, the lowest ones (at most `unlocked`).
    pub filled: u32,
    /// Modifier (+ is harder, -100 to 100).
    pub modifier: i32,
}

/// The answer to a [`SaveQuestion`]: P(success).
#[derive(Debug, Clone, Copy, PartialEq, Serialize)]
pub struct SaveOdds {
    /// P(success).
    pub success: f64,
}

impl SaveQuestion {
    /// P(success), or why the question is out of range.
    pub fn answer(&self) -> Result<SaveOdds, OddsError> {
        let SaveQuestion {
            unlocked,
            filled,
            modifier,
        } = *self;
        if unlocked > MAX_SLOTS {
            return Err(OddsError::new(
                "unlocked",
                unlocked,
                "an inventory has at most 18 slots",
            ));
        }
        if filled > unlocked {
            return Err(OddsError::new(
                "filled",
                filled,
                format!("more than the {unlocked} unlocked slots"),
            ));
        }
        if !(-MAX_MODIFIER..=MAX_MODIFIER).contains(&modifier) {
            return Err(OddsError::new("modifier", modifier, "use -100 to 100"));
        }
        Ok(SaveOdds {
            success: save_success(unlocked, filled, modifier),
        })
    }
}

/// Rolls a save against `inventory` (VR-7..VR-9): d20, then each Facet die,
/// total = d20 + modifier + shifts, judged by [`judge`].
pub fn roll_save<R: Rng + ?Sized>(
    inventory: &Inventory,
    request: &SaveRequest,
    settings: &VeracitySettings,
    rng: &mut R,
) -> Result<SaveResult, RuleError> {
    if request.inventory != inventory.kind() {
        return Err(RuleError::new(format!(
            "This save reads the {} inventory, but the {} inventory was given.",
            request.inventory,
            inventory.kind()
        )));
    }
    let chance = save_chance(inventory, request.modifier, &request.facets, settings)?;
    let d20 = d(rng, 20);
    let facets: Vec<FacetRoll> = request
        .facets
        .iter()
        .map(|&bonus| {
            let roll = d(rng, bonus.die.sides());
            FacetRoll {
                bonus,
                roll,
                shift: bonus.sign() * roll as i32,
            }
        })
        .collect();
    let total = d20 as i32 + request.modifier + facets.iter().map(|f| f.shift).sum::<i32>();
    let (outcome, reason, slot) = judge(inventory, total, settings);
    Ok(SaveResult {
        inventory: inventory.kind(),
        unlocked: inventory.unlocked(),
        modifier: request.modifier,
        d20,
        facets,
        total,
        slot,
        cell: slot.map(|s| inventory.cell(s)),
        locked_rule: settings.vr_locked_slot,
        outcome,
        reason,
        chance,
    })
}

impl Sheet {
    /// Rolls a save for this character (VR-7..VR-9).
    pub fn save<R: Rng + ?Sized>(
        &self,
        request: &SaveRequest,
        settings: &VeracitySettings,
        rng: &mut R,
    ) -> Result<SaveResult, RuleError> {
        roll_save(self.inventory(request.inventory), request, settings, rng)
    }

    /// The exact chance this character's save succeeds (VR-11).
    pub fn save_chance(
        &self,
        request: &SaveRequest,
        settings: &VeracitySettings,
    ) -> Result<f64, RuleError> {
        save_chance(
            self.inventory(request.inventory),
            request.modifier,
            &request.facets,
            settings,
        )
    }
}
