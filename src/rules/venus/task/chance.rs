//! The chance of a task as it stands, computed exactly for its situation
//! (A-V31: odds per situation, never a copied table): before the roll,
//! with the accepted allies' dice and the task's explosions, and after a
//! KISS re-rolls some of the dice on the table.

use super::{EgoMode, TaskPhase, TaskState};
use crate::rules::venus::odds;
use crate::rules::venus::settings::Edition;

impl TaskState {
    /// P(meeting the threshold) for the dice that would be thrown now: the
    /// roller's pool and every accepted ally's die, each exploding as the
    /// task says. `None` once the dice are thrown.
    pub fn chance_now(&self) -> Option<f64> {
        if self.phase != TaskPhase::AidOffers {
            return None;
        }
        let mut dice = vec![(self.rank, self.explodes_for(self.roller)); self.pool as usize];
        dice.extend(
            self.accepted_allies()
                .map(|a| (a.rank, self.explodes_for(a.id))),
        );
        let pmf = match self.edition {
            Edition::One => odds::ve1_exploding_pool_pmf(&dice, false),
            Edition::Two => odds::ve2_pool_pmf(&dice, false),
        };
        Some(odds::prob_at_least(&pmf, self.threshold))
    }

    /// P(meeting the threshold) once the dice `ids` are re-rolled, the
    /// others keeping their faces. `None` for edition-1 exploding dice (a
    /// house rule the KISS odds do not cover) and for dice the odds refuse.
    pub fn chance_after_kiss(&self, ids: &[u32]) -> Option<f64> {
        let reroll: Vec<usize> = self
            .dice
            .iter()
            .enumerate()
            .filter(|(_, d)| ids.contains(&d.id))
            .map(|(i, _)| i)
            .collect();
        let odds = match self.edition {
            Edition::One if self.magic => return None,
            Edition::One => {
                let dice: Vec<_> = self.dice.iter().map(|d| (d.rank, d.face)).collect();
                let sixes = self.ego_mode == EgoMode::DoubleSixes;
                odds::ve1_kiss_odds(&dice, &reroll, self.threshold, sixes)
            }
            Edition::Two => {
                let dice: Vec<_> = self
                    .dice
                    .iter()
                    .map(|d| (d.rank, d.face, d.explodes))
                    .collect();
                odds::ve2_kiss_odds(&dice, &reroll, self.threshold, false)
            }
        };
        odds.ok().map(|o| o.success_after)
    }

    /// The misses those taking part could still KISS, each die once (in
    /// die order) however many members may KISS it: a die is KISSed at
    /// most once per task (VE1-K2), so an ally's die that both the ally
    /// and, with consent, the roller may KISS is one die to re-roll.
    pub fn kissable_misses(&self) -> Vec<u32> {
        let mut misses: Vec<u32> = self
            .participants()
            .into_iter()
            .flat_map(|p| self.kissable_dice(p))
            .filter(|id| self.die(*id).is_some_and(|d| !d.succeeds(self.edition)))
            .collect();
        misses.sort_unstable();
        misses.dedup();
        misses
    }
}
