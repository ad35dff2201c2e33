//! Amounts of Stress, Wounds or damage: a plain number or dice to roll
//! (`3`, `d6`, `2d6`), parsed, validated and rolled with the shared dice helpers.

use rand::Rng;
use serde::{Deserialize, Serialize};
use std::fmt;
use std::str::FromStr;

use crate::rules::dice::{d, pool};
use crate::rules::RuleError;

/// The largest plain amount accepted.
pub const MAX_FLAT: u32 = 1000;
/// The most dice one amount may roll.
pub const MAX_DICE: u32 = 50;
/// The largest die accepted.
pub const MAX_SIDES: u32 = 100;

/// A number, or dice to roll and add up.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Amount {
    /// Exactly this many (0..=1000).
    Flat(u32),
    /// `count`d`sides`, summed (1..=50 dice of 2..=100 sides).
    Dice {
        /// How many dice.
        count: u32,
        /// Faces per die.
        sides: u32,
    },
}

/// The faces rolled for an [`Amount`] and their total (no faces for a flat amount).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Rolled {
    /// Every die face, in order.
    pub faces: Vec<u32>,
    /// The amount: the sum of the faces, or the flat number.
    pub total: u32,
}

impl Amount {
    /// One die with `sides` faces (`dN`).
    pub fn die(sides: u32) -> Self {
        Amount::Dice { count: 1, sides }
    }

    /// Checks the amount is within the bot's limits.
    pub fn validate(&self) -> Result<(), RuleError> {
        match *self {
            Amount::Flat(n) if n > MAX_FLAT => Err(RuleError::new(format!(
                "An amount can be at most {MAX_FLAT}."
            ))),
            Amount::Flat(_) => Ok(()),
            Amount::Dice { count, sides } => {
                if count == 0 || count > MAX_DICE {
                    Err(RuleError::new(format!(
                        "Roll between 1 and {MAX_DICE} dice, not {count}."
                    )))
                } else if !(2..=MAX_SIDES).contains(&sides) {
                    Err(RuleError::new(format!(
                        "A die needs between 2 and {MAX_SIDES} sides, not {sides}."
                    )))
                } else {
                    Ok(())
                }
            }
        }
    }

    /// True when the amount involves dice.
    pub fn is_dice(&self) -> bool {
        matches!(self, Amount::Dice { .. })
    }

    /// The smallest value the amount can take.
    pub fn min(&self) -> u32 {
        match *self {
            Amount::Flat(n) => n,
            Amount::Dice { count, .. } => count,
        }
    }

    /// Rolls the amount (validate first; out-of-range inputs are clamped, never a panic).
    pub fn roll<R: Rng + ?Sized>(&self, rng: &mut R) -> Rolled {
        match *self {
            Amount::Flat(n) => Rolled {
                faces: Vec::new(),
                total: n.min(MAX_FLAT),
            },
            Amount::Dice { count, sides } => {
                let sides = sides.clamp(1, MAX_SIDES);
                let faces = if count == 1 {
                    vec![d(rng, sides)]
                } else {
                    pool(rng, count.min(MAX_DICE) as usize, sides)
                };
                let total = faces.iter().sum();
                Rolled { faces, total }
            }
        }
    }
}

impl fmt::Display for Amount {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match *self {
            Amount::Flat(n) => write!(f, "{n}"),
            Amount::Dice { count: 1, sides } => write!(f, "d{sides}"),
            Amount::Dice { count, sides } => write!(f, "{count}d{sides}"),
        }
    }
}

impl FromStr for Amount {
    type Err = RuleError;

    /// Accepts `3`, `+3`, `d6`, `+d6`, `2d6` (any case, spaces ignored) and validates it.
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        let cleaned: String = s
            .chars()
            .filter(|c| !c.is_whitespace())
            .collect::<String>()
            .to_ascii_lowercase();
        let body = cleaned.strip_prefix('+').unwrap_or(&cleaned);
        let bad = || {
            RuleError::new(format!(
                "`{}` is not an amount: write a number like `3` or dice like `d6` or `2d6`.",
                s.trim()
            ))
        };
        let amount = if let Some((count, sides)) = body.split_once('d') {
            let count = if count.is_empty() {
                1
            } else {
                count.parse::<u32>().map_err(|_| bad())?
            };
            let sides = sides.parse::<u32>().map_err(|_| bad())?;
            Amount::Dice { count, sides }
        } else {
            Amount::Flat(body.parse::<u32>().map_err(|_| bad())?)
        };
        amount.validate()?;
        Ok(amount)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use rand::{rngs::StdRng, SeedableRng};

    #[test]
    fn parses_numbers_and_dice() {
        assert_eq!("3".parse::<Amount>().unwrap(), Amount::Flat(3));
        assert_eq!("+1".parse::<Amount>().unwrap(), Amount::Flat(1));
        assert_eq!("+d4".parse::<Amount>().unwrap(), Amount::die(4));
        assert_eq!(
            " 2D6 ".parse::<Amount>().unwrap(),
            Amount::Dice { count: 2, sides: 6 }
        );
        assert!("d".parse::<Amount>().is_err());
        assert!("d1".parse::<Amount>().is_err());
        assert!("0d6".parse::<Amount>().is_err());
        assert!("51d6".parse::<Amount>().is_err());
        assert!("-3".parse::<Amount>().is_err());
        assert!("1001".parse::<Amount>().is_err());
        assert!("99999999999999999999".parse::<Amount>().is_err());
        assert_eq!(Amount::die(6).to_string(), "d6");
        assert_eq!(Amount::Dice { count: 3, sides: 8 }.to_string(), "3d8");
    }

    #[test]
    fn a_r14_dice_amounts_never_roll_zero() {
        let mut rng = StdRng::seed_from_u64(14);
        for _ in 0..2000 {
            let r = Amount::die(4).roll(&mut rng);
            assert!((1..=4).contains(&r.total));
            assert_eq!(r.faces, vec![r.total]);
        }
        let r = Amount::Dice { count: 3, sides: 6 }.roll(&mut rng);
        assert_eq!(r.faces.len(), 3);
        assert_eq!(r.total, r.faces.iter().sum::<u32>());
    }
}
