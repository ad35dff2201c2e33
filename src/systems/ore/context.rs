//! Virtual Veil as a game of the action pipeline ([`crate::app::pipeline`]):
//! its [`Scope`], the turn and outcome its actions take and give, and the
//! sheet an action works on, resolved the shared way.

use crate::app::characters::{Access, Loaded, Pick};
use crate::app::pipeline::Scope;
use crate::app::AppError;
use crate::rules::ore::{OreSettings, OreSheet};

use super::{HINT, SYSTEM};

/// Virtual Veil as a game at the table, for the action pipeline.
pub struct Ore;

impl Scope for Ore {
    const ID: &'static str = SYSTEM;
    const HINT: &'static str = HINT;
    const TURN_KINDS: &'static [&'static str] = &[super::combat_buttons::KIND];
    type Settings = OreSettings;
    type Sheet = OreSheet;
}

/// A Virtual Veil action's turn in the action pipeline.
pub type Turn<'a> = crate::app::pipeline::Turn<'a, Ore>;

/// What a Virtual Veil action changed, for the action pipeline.
pub type Outcome = crate::app::pipeline::Outcome<OreSheet>;

/// The sheet an action is about (`character:` as `name`, and `player:`):
/// the caller's own, or any in the guild for the Compiler.
pub async fn target(
    turn: &mut Turn<'_>,
    name: Option<&str>,
    player: Option<i64>,
) -> Result<Loaded<OreSheet>, AppError> {
    turn.character(Pick::new(name, player), Access::Owner).await
}

/// A changed sheet, its invariants checked before the outcome saves it.
pub fn checked(ch: Loaded<OreSheet>) -> Result<Loaded<OreSheet>, AppError> {
    ch.sheet.validate()?;
    Ok(ch)
}
