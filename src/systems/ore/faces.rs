//! The dice a Virtual Veil action threw, as (sides, natural face) pairs for
//! the fairness record (`app::log::record_rolled`): stat pools, Error Dice,
//! a COMP's boot cache, Fault dice, repair checks and order rolls. Dice
//! moved around later (cache dice added, loaded, discarded) were thrown
//! earlier and are not counted again.

use crate::rules::ore::combat::OrderRoll;
use crate::rules::ore::OreEvent;

/// Every die thrown among the events.
pub fn thrown(events: &[OreEvent]) -> Vec<(u32, u32)> {
    let mut out = Vec::new();
    for e in events {
        match e {
            OreEvent::Rolled { faces, .. }
            | OreEvent::ErrorDice { faces, .. }
            | OreEvent::Booted { faces }
            | OreEvent::RepairCheck { faces, .. } => out.extend(faces.iter().map(|&f| (10, f))),
            OreEvent::FaultDie { face } => out.push((10, *face)),
            _ => {}
        }
    }
    out
}

/// Every die an Outthink or Initiative roll threw, tie-break re-rolls included.
pub fn of_order(result: &OrderRoll) -> Vec<(u32, u32)> {
    result
        .entries
        .iter()
        .flat_map(|e| e.faces.iter())
        .chain(
            result
                .ties
                .iter()
                .flat_map(|t| t.rerolls.iter().flatten())
                .flat_map(|r| r.faces.iter()),
        )
        .map(|&f| (10, f))
        .collect()
}
