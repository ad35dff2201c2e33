//! A roll's selects: the buttons that open them (`pick:<picker>`), turning
//! their pages, and reading the dice picked in them (`sel:<picker>`) into a
//! rules-core action. Adding cache dice, loading into the cache, a Minor
//! action and a face modifier (VV-5) all start here.

use std::collections::BTreeMap;

use super::context::{Outcome, Turn};
use super::roll::{shown, Picker, RollState};
use crate::app::AppError;
use crate::rules::ore::roll::RollPhase;
use crate::rules::ore::{OreRoll, OreSheet, RollAction};
use crate::rules::Actor;
use crate::storage::sessions::Session;

/// `pick:<picker>`: opens that select under the roll, or closes it when it
/// is the one open.
pub fn toggle(
    turn: &Turn<'_>,
    session: &Session,
    mut state: RollState,
    sheet: &OreSheet,
    p: Picker,
) -> Result<Outcome, AppError> {
    if p == Picker::Special {
        return Err(AppError::user("Unknown menu."));
    }
    if state.roll.phase != RollPhase::Open {
        return Err(AppError::user(
            "Your cache is over its maximum: discard a die first.",
        ));
    }
    state.page = 0;
    state.picker = (state.picker != Some(p)).then_some(p);
    state.notes.clear();
    Ok(shown(turn, session, state, sheet))
}

/// A page option picked in a select: turns its page, picks nothing.
pub fn turn_page(
    turn: &Turn<'_>,
    session: &Session,
    mut state: RollState,
    sheet: &OreSheet,
    page: usize,
) -> Outcome {
    state.page = page;
    shown(turn, session, state, sheet)
}

/// The dice picked in `p`'s select, as the rules-core action `who` takes.
pub fn picked(
    p: Picker,
    values: &[String],
    sheet: &OreSheet,
    roll: &OreRoll,
    who: Actor,
) -> Result<RollAction, AppError> {
    Ok(match p {
        Picker::Cache => RollAction::AddCache {
            actor: who,
            cache: cache_picks(values, sheet)?,
        },
        Picker::Load => RollAction::Load {
            actor: who,
            dice: register_picks(values, roll, 25)?,
        },
        Picker::Minor => RollAction::Minor {
            actor: who,
            die: Some(register_picks(values, roll, 1)?[0]),
            label: None,
        },
        Picker::Special => return Err(AppError::user("Pick one Special action.")),
        Picker::Modify => {
            let (die, delta) = modify_pick(values, roll)?;
            RollAction::ModifyFace {
                actor: who,
                die,
                delta,
            }
        }
    })
}

/// Reads a face-modifier pick, `<register position>:<delta>` (e.g. `3:-1`),
/// checking the die is unused and the modifier is one the select offers.
fn modify_pick(values: &[String], roll: &OreRoll) -> Result<(usize, i32), AppError> {
    let bad = || AppError::user("Pick one die and a modifier.");
    let [v] = values else { return Err(bad()) };
    let (die, delta) = v.split_once(':').ok_or_else(bad)?;
    let delta: i32 = delta.parse().map_err(|_| bad())?;
    if delta == 0 || delta.abs() > super::roll::MAX_MENU_DELTA {
        return Err(bad());
    }
    let die = register_picks(&[die.to_string()], roll, 1)?[0];
    Ok((die, delta))
}

/// Reads cache picks (`face.k`, the k-th die of that face) into cache
/// positions of the sheet as it is now.
fn cache_picks(values: &[String], sheet: &OreSheet) -> Result<Vec<usize>, AppError> {
    if !sheet.comp.session_active {
        return Err(AppError::user(
            "Your COMP is not running, so you have no cache dice.",
        ));
    }
    if values.is_empty() {
        return Err(AppError::user("Pick at least one cache die."));
    }
    let mut wanted: BTreeMap<u32, usize> = BTreeMap::new();
    for v in values {
        let face: u32 = v
            .split('.')
            .next()
            .and_then(|f| f.parse().ok())
            .filter(|f| (1..=10).contains(f))
            .ok_or_else(|| AppError::user("That choice is not a cache die."))?;
        *wanted.entry(face).or_default() += 1;
    }
    let mut out = Vec::new();
    for (face, n) in wanted {
        let have = sheet.cache_dice_of(face, n).ok_or_else(|| {
            AppError::user(format!(
                "Your cache no longer holds {n} × {face}; the message shows it as it is now."
            ))
        })?;
        out.extend(have);
    }
    Ok(out)
}

/// Reads register positions, checking they exist and are unused.
fn register_picks(values: &[String], roll: &OreRoll, max: usize) -> Result<Vec<usize>, AppError> {
    if values.is_empty() || values.len() > max {
        return Err(AppError::user(if max == 1 {
            "Pick one die."
        } else {
            "Pick at least one die."
        }));
    }
    values
        .iter()
        .map(|v| {
            let i: usize = v
                .parse()
                .map_err(|_| AppError::user("That choice is not a register die."))?;
            match roll.register.get(i) {
                Some(d) if d.is_unused() => Ok(i),
                Some(_) => Err(AppError::user(format!(
                    "Die {} has already been used or loaded.",
                    i + 1
                ))),
                None => Err(AppError::user("That choice is not a register die.")),
            }
        })
        .collect()
}
