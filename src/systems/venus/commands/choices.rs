//! Fixed option lists of the `/ve` commands: the rules' own values
//! offered as choices ([`slash_choice!`]: ranks, editions, automatic-pass
//! ranges…), and the lists that are no rules value (a tier or none, check
//! or task).

use crate::kit::slash_choice;
use crate::rules::venus::check::FactorKind;
use crate::rules::venus::odds::AutoPass;
use crate::rules::venus::sheet::{AttributeKind, Tier};
use crate::rules::venus::{Edition, Rank};
use crate::systems::venus::sheets::{NoteKind, RemoveKind};

slash_choice!(Rank {
    Bronze => "Bronze",
    Silver => "Silver",
    Gold => "Gold",
    Platinum => "Platinum",
});

/// A tier (edition 2), or none (`/ve sheet create` and `set`).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct TierChoice(pub Option<Tier>);

slash_choice!(TierChoice [
    "Historic" => TierChoice(Some(Tier::Historic)),
    "Heroic" => TierChoice(Some(Tier::Heroic)),
    "Mythic" => TierChoice(Some(Tier::Mythic)),
    "Deific" => TierChoice(Some(Tier::Deific)),
    "None" => TierChoice(None),
]);

slash_choice!(NoteKind [
    "Asset" => NoteKind::Attribute(AttributeKind::Asset),
    "Feature" => NoteKind::Attribute(AttributeKind::Feature),
    "Merit" => NoteKind::Attribute(AttributeKind::Merit),
    "Discipline" => NoteKind::Attribute(AttributeKind::Discipline),
    "Specialty" => NoteKind::Attribute(AttributeKind::Specialty),
    "Lifepath" => NoteKind::Attribute(AttributeKind::Lifepath),
    "Principle" => NoteKind::Attribute(AttributeKind::Principle),
    "Insight" => NoteKind::Insight,
    "Consequence" => NoteKind::Consequence,
]);

slash_choice!(RemoveKind [
    "Ability" => RemoveKind::Ability,
    "Job" => RemoveKind::Job,
    "Asset" => RemoveKind::Note(NoteKind::Attribute(AttributeKind::Asset)),
    "Feature" => RemoveKind::Note(NoteKind::Attribute(AttributeKind::Feature)),
    "Merit" => RemoveKind::Note(NoteKind::Attribute(AttributeKind::Merit)),
    "Discipline" => RemoveKind::Note(NoteKind::Attribute(AttributeKind::Discipline)),
    "Specialty" => RemoveKind::Note(NoteKind::Attribute(AttributeKind::Specialty)),
    "Lifepath" => RemoveKind::Note(NoteKind::Attribute(AttributeKind::Lifepath)),
    "Principle" => RemoveKind::Note(NoteKind::Attribute(AttributeKind::Principle)),
    "Insight" => RemoveKind::Note(NoteKind::Insight),
    "Consequence" => RemoveKind::Note(NoteKind::Consequence),
]);

/// Check or task.
#[derive(Debug, Clone, Copy, PartialEq, Eq, poise::ChoiceParameter)]
pub enum RollKind {
    /// A d20 check.
    Check,
    /// A dice-pool task.
    Task,
}

slash_choice!(FactorKind {
    Environment => "Environment",
    Attribute => "Attribute",
    Ally => "Ally",
    Lot => "Lot",
    Other => "Other",
});

slash_choice!(Edition { One => "1", Two => "2" });

slash_choice!(AutoPass [
    "text" => AutoPass::Text,
    "table" => AutoPass::Table,
]);
