//! **Roll d20** (a check the FC called, or one posted by an older
//! version; a player's own check is thrown by its command, with this same
//! [`throw`]): the roller (or the FC) throws the check's d20; when it
//! falls short within reach of a bonus, the bonus-factor menu is built
//! from the roller's sheet.

use rand::rngs::StdRng;

use super::after_roll;
use crate::app::{AppError, Caller};
use crate::rules::venus::check::CheckEvent;
use crate::rules::venus::{CheckState, VenusSettings};
use crate::rules::Actor;
use crate::systems::venus::fc_words;
use crate::systems::venus::party::Party;
use crate::systems::venus::state::CheckSession;

/// `roll`, before the d20 is thrown.
pub fn throw(
    set: &VenusSettings,
    st: &mut CheckSession,
    party: &Party,
    a: Actor,
    caller: &Caller,
    rng: &mut StdRng,
) -> Result<Vec<CheckEvent>, AppError> {
    let mut setup = st.setup.clone();
    setup.actor = a;
    let (state, events) = CheckState::start(setup, set, &party.ctx, rng).map_err(fc_words)?;
    let sheet = party.ctx.sheets.get(&st.roller.user).cloned();
    after_roll(st, state, sheet.as_ref());
    st.note = Some(format!("{} threw the d20", super::clicker(st, caller)));
    Ok(events)
}
