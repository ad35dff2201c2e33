//! The Venus Engine as a game of the action pipeline ([`crate::app::pipeline`]):
//! its id, its settings and its sheet, and the turn and outcome types its
//! actions are written with.

use crate::app::pipeline::Scope;
use crate::rules::venus::{VenusSettings, VenusSheet};
use crate::rules::Actor;

use super::{HINT, SYSTEM};

/// The Venus Engine at the table: what the action pipeline needs to know
/// of it ([`Scope`]).
pub struct Venus;

impl Scope for Venus {
    const ID: &'static str = SYSTEM;
    const HINT: &'static str = HINT;
    const TURN_KINDS: &'static [&'static str] = &[super::spotlight_view::KIND];
    type Settings = VenusSettings;
    type Sheet = VenusSheet;
}

/// A Venus action's turn in the action pipeline.
pub type Turn<'a> = crate::app::pipeline::Turn<'a, Venus>;

/// What a Venus action changed, for the action pipeline.
pub type Outcome = crate::app::pipeline::Outcome<VenusSheet>;

/// The turn's caller as the rules core's actor (`gm` when they are the FC).
pub fn actor(turn: &Turn<'_>) -> Actor {
    Actor {
        id: turn.caller().user_id,
        gm: turn.fc,
    }
}

/// The guild's session timeout in minutes, as the Venus sessions have
/// always been given it (unclamped).
pub fn minutes(turn: &Turn<'_>) -> Option<u32> {
    Some(turn.guild.session_timeout_minutes)
}
