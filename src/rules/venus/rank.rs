//! Venus Engine ranks (VE-1) and what each rank means for dice.

use serde::{Deserialize, Serialize};
use std::fmt;
use std::str::FromStr;

use crate::rules::RuleError;

/// An ability's rank: Bronze < Silver < Gold < Platinum (VE-1).
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Rank {
    /// Bronze (Br).
    Bronze,
    /// Silver (Si).
    Silver,
    /// Gold (Go).
    Gold,
    /// Platinum (Pl).
    Platinum,
}

impl Rank {
    /// Every rank, lowest first.
    pub const ALL: [Rank; 4] = [Rank::Bronze, Rank::Silver, Rank::Gold, Rank::Platinum];

    /// The lowest D6 face that strikes a beat in an edition-1 task (VE1-T4):
    /// Br 5, Si 4, Go 3, Pl 2.
    pub fn d6_beat_min(self) -> u32 {
        match self {
            Rank::Bronze => 5,
            Rank::Silver => 4,
            Rank::Gold => 3,
            Rank::Platinum => 2,
        }
    }

    /// The lowest D10 face that passes in an edition-2 task (VE2-T4):
    /// Br 7, Si 6, Go 5, Pl 4.
    pub fn d10_pass_min(self) -> u32 {
        match self {
            Rank::Bronze => 7,
            Rank::Silver => 6,
            Rank::Gold => 5,
            Rank::Platinum => 4,
        }
    }

    /// The rank's name, capitalised.
    pub fn name(self) -> &'static str {
        match self {
            Rank::Bronze => "Bronze",
            Rank::Silver => "Silver",
            Rank::Gold => "Gold",
            Rank::Platinum => "Platinum",
        }
    }
}

impl fmt::Display for Rank {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

impl FromStr for Rank {
    type Err = RuleError;

    /// Accepts the full name or the two-letter abbreviation, any case.
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        match s.trim().to_ascii_lowercase().as_str() {
            "bronze" | "br" => Ok(Rank::Bronze),
            "silver" | "si" => Ok(Rank::Silver),
            "gold" | "go" => Ok(Rank::Gold),
            "platinum" | "pl" => Ok(Rank::Platinum),
            other => Err(RuleError::new(format!(
                "`{other}` is not a rank: use bronze, silver, gold or platinum."
            ))),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ve_1_ranks_are_ordered_and_parse() {
        assert!(Rank::Bronze < Rank::Silver && Rank::Gold < Rank::Platinum);
        assert_eq!("PL".parse::<Rank>().unwrap(), Rank::Platinum);
        assert_eq!("silver".parse::<Rank>().unwrap(), Rank::Silver);
        assert!("copper".parse::<Rank>().is_err());
    }

    #[test]
    fn ve1_t4_and_ve2_t4_rank_minimums() {
        let d6: Vec<u32> = Rank::ALL.iter().map(|r| r.d6_beat_min()).collect();
        let d10: Vec<u32> = Rank::ALL.iter().map(|r| r.d10_pass_min()).collect();
        assert_eq!(d6, [5, 4, 3, 2]);
        assert_eq!(d10, [7, 6, 5, 4]);
    }
}
