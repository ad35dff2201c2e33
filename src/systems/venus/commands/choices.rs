//! Fixed option lists of the `/ve` commands, and their rules-core values.

use crate::rules::venus::check::FactorKind;
use crate::rules::venus::sheet::{AttributeKind, Tier};
use crate::rules::venus::Rank;
use crate::systems::venus::sheets::{NoteKind, RemoveKind};

/// An ability rank.
#[derive(Debug, Clone, Copy, poise::ChoiceParameter)]
pub enum RankChoice {
    /// Bronze.
    Bronze,
    /// Silver.
    Silver,
    /// Gold.
    Gold,
    /// Platinum.
    Platinum,
}

impl From<RankChoice> for Rank {
    fn from(r: RankChoice) -> Self {
        match r {
            RankChoice::Bronze => Rank::Bronze,
            RankChoice::Silver => Rank::Silver,
            RankChoice::Gold => Rank::Gold,
            RankChoice::Platinum => Rank::Platinum,
        }
    }
}

/// A tier (edition 2), or none.
#[derive(Debug, Clone, Copy, poise::ChoiceParameter)]
pub enum TierChoice {
    /// Historic.
    Historic,
    /// Heroic.
    Heroic,
    /// Mythic.
    Mythic,
    /// Deific.
    Deific,
    /// No tier.
    None,
}

impl TierChoice {
    /// The rules' tier (`None` for no tier).
    pub fn tier(self) -> Option<Tier> {
        match self {
            TierChoice::Historic => Some(Tier::Historic),
            TierChoice::Heroic => Some(Tier::Heroic),
            TierChoice::Mythic => Some(Tier::Mythic),
            TierChoice::Deific => Some(Tier::Deific),
            TierChoice::None => None,
        }
    }
}

/// What a note is.
#[derive(Debug, Clone, Copy, poise::ChoiceParameter)]
pub enum NoteChoice {
    /// An asset.
    Asset,
    /// A feature.
    Feature,
    /// A merit.
    Merit,
    /// A discipline.
    Discipline,
    /// A specialty.
    Specialty,
    /// A lifepath.
    Lifepath,
    /// A principle.
    Principle,
    /// An insight.
    Insight,
    /// A special secondary consequence.
    Consequence,
}

impl From<NoteChoice> for NoteKind {
    fn from(n: NoteChoice) -> Self {
        match n {
            NoteChoice::Asset => NoteKind::Attribute(AttributeKind::Asset),
            NoteChoice::Feature => NoteKind::Attribute(AttributeKind::Feature),
            NoteChoice::Merit => NoteKind::Attribute(AttributeKind::Merit),
            NoteChoice::Discipline => NoteKind::Attribute(AttributeKind::Discipline),
            NoteChoice::Specialty => NoteKind::Attribute(AttributeKind::Specialty),
            NoteChoice::Lifepath => NoteKind::Attribute(AttributeKind::Lifepath),
            NoteChoice::Principle => NoteKind::Attribute(AttributeKind::Principle),
            NoteChoice::Insight => NoteKind::Insight,
            NoteChoice::Consequence => NoteKind::Consequence,
        }
    }
}

/// What `/ve sheet remove` removes.
#[derive(Debug, Clone, Copy, poise::ChoiceParameter)]
pub enum RemoveChoice {
    /// An ability.
    Ability,
    /// A job.
    Job,
    /// An asset.
    Asset,
    /// A feature.
    Feature,
    /// A merit.
    Merit,
    /// A discipline.
    Discipline,
    /// A specialty.
    Specialty,
    /// A lifepath.
    Lifepath,
    /// A principle.
    Principle,
    /// An insight.
    Insight,
    /// A special consequence.
    Consequence,
}

impl From<RemoveChoice> for RemoveKind {
    fn from(r: RemoveChoice) -> Self {
        let note = |n: NoteChoice| RemoveKind::Note(n.into());
        match r {
            RemoveChoice::Ability => RemoveKind::Ability,
            RemoveChoice::Job => RemoveKind::Job,
            RemoveChoice::Asset => note(NoteChoice::Asset),
            RemoveChoice::Feature => note(NoteChoice::Feature),
            RemoveChoice::Merit => note(NoteChoice::Merit),
            RemoveChoice::Discipline => note(NoteChoice::Discipline),
            RemoveChoice::Specialty => note(NoteChoice::Specialty),
            RemoveChoice::Lifepath => note(NoteChoice::Lifepath),
            RemoveChoice::Principle => note(NoteChoice::Principle),
            RemoveChoice::Insight => note(NoteChoice::Insight),
            RemoveChoice::Consequence => note(NoteChoice::Consequence),
        }
    }
}

/// Check or task.
#[derive(Debug, Clone, Copy, PartialEq, Eq, poise::ChoiceParameter)]
pub enum RollKind {
    /// A d20 check.
    Check,
    /// A dice-pool task.
    Task,
}

/// The kind of a named bonus factor.
#[derive(Debug, Clone, Copy, poise::ChoiceParameter)]
pub enum FactorChoice {
    /// An environmental benefit.
    Environment,
    /// A relevant attribute.
    Attribute,
    /// Help from an ally.
    Ally,
    /// Spending a Lot (edition 1).
    Lot,
    /// Anything else the Peers accept.
    Other,
}

impl From<FactorChoice> for FactorKind {
    fn from(f: FactorChoice) -> Self {
        match f {
            FactorChoice::Environment => FactorKind::Environment,
            FactorChoice::Attribute => FactorKind::Attribute,
            FactorChoice::Ally => FactorKind::Ally,
            FactorChoice::Lot => FactorKind::Lot,
            FactorChoice::Other => FactorKind::Other,
        }
    }
}

/// Edition 1 or 2.
#[derive(Debug, Clone, Copy, poise::ChoiceParameter)]
pub enum EditionChoice {
    /// 000, the 1st Playtest Rules.
    #[name = "1"]
    One,
    /// 001, the Playsheet.
    #[name = "2"]
    Two,
}
