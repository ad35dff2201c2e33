//! **Roll d20**: the roller (or the FC) throws the check's d20; when it
//! falls short within reach of a bonus, the bonus-factor menu is built
//! from the roller's sheet.

use rand::rngs::StdRng;

use super::after_roll;
use crate::app::{Act, AppError, Caller};
use crate::rules::venus::check::CheckEvent;
use crate::rules::venus::CheckState;
use crate::rules::Actor;
use crate::systems::venus::party::Party;
use crate::systems::venus::state::CheckSession;
use crate::systems::venus::{fc_words, venus_settings};

/// `roll`, before the d20 is thrown.
pub async fn throw(
    tx: &mut Act,
    st: &mut CheckSession,
    party: &Party,
    a: Actor,
    caller: &Caller,
    rng: &mut StdRng,
) -> Result<Vec<CheckEvent>, AppError> {
    let set = venus_settings(tx, caller.guild_id).await?;
    let mut setup = st.setup.clone();
    setup.actor = a;
    let (state, events) = CheckState::start(setup, &set, &party.ctx, rng).map_err(fc_words)?;
    let sheet = party.ctx.sheets.get(&st.roller.user).cloned();
    after_roll(st, state, sheet.as_ref());
    st.note = Some(format!("{} threw the d20", super::clicker(st, caller)));
    Ok(events)
}
