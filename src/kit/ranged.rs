//! Whole-number options whose range is declared once, in their type
//! (issue 28): [`Ranged<MIN, MAX>`] registers as an integer option with
//! that `min_value` and `max_value` and reads only a value inside it, so a
//! command with many like options (a sheet's twelve stats, an NPC's) does
//! not repeat `#[min]` and `#[max]` on each.

use std::future::{ready, Future};
use std::pin::Pin;

use poise::serenity_prelude as serenity;
use poise::SlashArgError;

/// A whole number from `MIN` to `MAX` (both included), as a slash option.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Ranged<const MIN: i64, const MAX: i64>(pub i64);

impl<const MIN: i64, const MAX: i64> Ranged<MIN, MAX> {
    /// An optional option's number.
    pub fn of(option: Option<Self>) -> Option<i64> {
        option.map(|r| r.0)
    }

    /// The number if it is in the range (a forged interaction may send
    /// any): out of it, the bot answers "I could not read `120`: a number
    /// from 0 to 99 is needed."
    // The error is poise's own (its size is poise's).
    #[allow(clippy::result_large_err)]
    fn read(value: &serenity::ResolvedValue<'_>) -> Result<Self, SlashArgError> {
        match *value {
            serenity::ResolvedValue::Integer(x) if (MIN..=MAX).contains(&x) => Ok(Ranged(x)),
            serenity::ResolvedValue::Integer(x) => Err(SlashArgError::new_parse(
                format!("a number from {MIN} to {MAX} is needed.").into(),
                x.to_string(),
            )),
            _ => Err(SlashArgError::new_command_structure_mismatch(
                "expected a whole number",
            )),
        }
    }
}

type Extracted<'a, T> = Pin<Box<dyn Future<Output = Result<T, SlashArgError>> + Send + 'a>>;

impl<const MIN: i64, const MAX: i64> poise::SlashArgument for Ranged<MIN, MAX> {
    // The signature `#[async_trait]` gives the trait's method.
    fn extract<'life0, 'life1, 'life2, 'life3, 'async_trait>(
        _: &'life0 serenity::Context,
        _: &'life1 serenity::CommandInteraction,
        value: &'life2 serenity::ResolvedValue<'life3>,
    ) -> Extracted<'async_trait, Self>
    where
        'life0: 'async_trait,
        'life1: 'async_trait,
        'life2: 'async_trait,
        'life3: 'async_trait,
        Self: 'async_trait,
    {
        Box::pin(ready(Self::read(value)))
    }

    fn create(builder: serenity::CreateCommandOption) -> serenity::CreateCommandOption {
        builder
            .kind(serenity::CommandOptionType::Integer)
            .min_number_value(MIN as f64)
            .max_number_value(MAX as f64)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_only_whole_numbers_in_the_range() {
        use poise::serenity_prelude::ResolvedValue::{Integer, String};
        assert_eq!(Ranged::<0, 30>::read(&Integer(30)).ok(), Some(Ranged(30)));
        assert_eq!(Ranged::<1, 999>::read(&Integer(1)).ok(), Some(Ranged(1)));
        assert!(Ranged::<1, 999>::read(&Integer(0)).is_err());
        assert!(Ranged::<0, 30>::read(&Integer(31)).is_err());
        assert!(Ranged::<0, 30>::read(&String("3")).is_err());
        assert_eq!(Ranged::<0, 9>::of(Some(Ranged(4))), Some(4));
    }
}
