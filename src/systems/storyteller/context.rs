//! Storyteller's scope in the action pipeline (the character acted on is
//! the turn's, [`crate::app::pipeline::Turn::character`], with the shared
//! rights check), and what its actions share: checked sheets and option
//! texts.

use crate::app::characters::Loaded;
use crate::app::pipeline::Scope;
use crate::app::AppError;
use crate::rules::storyteller::StorytellerSheet;
use crate::storage::sessions::Session;

use super::{HINT, SHEET_KIND, SYSTEM};

/// Storyteller as a game at the table: what the action pipeline needs to
/// know of it here ([`Scope`]), and its contract with the registry
/// ([`crate::systems::game::Game`], implemented in its `mod.rs`).
pub struct Storyteller;

impl Scope for Storyteller {
    const ID: &'static str = SYSTEM;
    const HINT: &'static str = HINT;
    const CARD_KINDS: &'static [&'static str] = &[SHEET_KIND];
    type Settings = crate::rules::storyteller::StorytellerSettings;
    type Sheet = crate::rules::storyteller::StorytellerSheet;

    fn check(c: Loaded<Self::Sheet>) -> Result<Loaded<Self::Sheet>, AppError> {
        checked(c)
    }

    fn shows(session: &Session) -> Option<i64> {
        crate::app::sessions::load::<super::state::CardState>(session)
            .ok()
            .map(|c| c.character_id)
    }
}

/// A Storyteller action's turn in the action pipeline.
pub type Turn<'a> = crate::app::pipeline::Turn<'a, Storyteller>;

/// What a Storyteller action changed, for the action pipeline.
pub type Outcome = crate::app::pipeline::Outcome<StorytellerSheet>;

/// Checks a loaded sheet's invariants (stored JSON is trusted no further).
pub fn checked(loaded: Loaded<StorytellerSheet>) -> Result<Loaded<StorytellerSheet>, AppError> {
    loaded.sheet.validate().map_err(|e| {
        AppError::Internal(format!(
            "stored Storyteller sheet {} is invalid: {}",
            loaded.row.id, e.message
        ))
    })?;
    Ok(loaded)
}

/// Refuses text longer than `max` characters, naming the option.
pub fn check_len(text: &str, max: usize, what: &str) -> Result<(), AppError> {
    if text.chars().count() > max {
        return Err(AppError::user(format!(
            "The {what} is too long: at most {max} characters."
        )));
    }
    Ok(())
}

/// Splits a list typed as `a, b` (or `a + b` when `plus`) into trimmed,
/// non-empty items, refusing more than `max`.
pub fn split_list(text: &str, plus: bool, max: usize, what: &str) -> Result<Vec<String>, AppError> {
    let items: Vec<String> = text
        .split(|c| c == ',' || (plus && c == '+'))
        .map(str::trim)
        .filter(|s| !s.is_empty())
        .map(str::to_string)
        .collect();
    if items.len() > max {
        return Err(AppError::user(format!(
            "At most {max} {what} can be named here."
        )));
    }
    Ok(items)
}
