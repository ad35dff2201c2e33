//! The words of a Veracity inventory, below the sheet and its events: the
//! two inventories (VR-1), the kinds of item and an item (VR-4), and the
//! Facet dice (VR-12).

use serde::{Deserialize, Serialize};
use std::fmt;
use std::str::FromStr;

use crate::rules::RuleError;

/// Longest item text, in characters.
pub const MAX_ITEM_TEXT: usize = 200;

/// Which inventory: Light (mental) or Flesh (physical) (VR-1).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum InventoryKind {
    /// Mental: Secrets, Ruses, Stress.
    Light,
    /// Physical: Evidence, Means, Wounds.
    Flesh,
}

impl InventoryKind {
    /// The inventory's name, capitalised.
    pub fn name(self) -> &'static str {
        match self {
            InventoryKind::Light => "Light",
            InventoryKind::Flesh => "Flesh",
        }
    }
}

impl fmt::Display for InventoryKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

impl FromStr for InventoryKind {
    type Err = RuleError;

    /// Accepts `light`/`mental` and `flesh`/`physical`, any case.
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        match s.trim().to_ascii_lowercase().as_str() {
            "light" | "mental" => Ok(InventoryKind::Light),
            "flesh" | "physical" => Ok(InventoryKind::Flesh),
            other => Err(RuleError::new(format!(
                "`{other}` is not an inventory: use light or flesh."
            ))),
        }
    }
}

/// What an item is (VR-4).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum ItemKind {
    /// Light: a Secret (VR-5).
    Secret,
    /// Light: a lie being kept up (VR-6).
    Ruse,
    /// Light: Stress (VR-14).
    Stress,
    /// Flesh: an item supporting a Secret.
    Evidence,
    /// Flesh: something worth a day's room and board, or a large or unusual tool.
    Means,
    /// Flesh: a Wound (VR-17).
    Wound,
}

impl ItemKind {
    /// Every kind, Light kinds first.
    pub const ALL: [ItemKind; 6] = [
        ItemKind::Secret,
        ItemKind::Ruse,
        ItemKind::Stress,
        ItemKind::Evidence,
        ItemKind::Means,
        ItemKind::Wound,
    ];

    /// The inventory this kind belongs in.
    pub fn inventory(self) -> InventoryKind {
        match self {
            ItemKind::Secret | ItemKind::Ruse | ItemKind::Stress => InventoryKind::Light,
            ItemKind::Evidence | ItemKind::Means | ItemKind::Wound => InventoryKind::Flesh,
        }
    }

    /// The name with its indefinite article: "a Secret", "an Evidence".
    pub fn with_article(self) -> String {
        let name = self.name();
        let vowel = name.starts_with(['A', 'E', 'I', 'O', 'U']);
        format!("{} {name}", if vowel { "an" } else { "a" })
    }

    /// The kind's name, capitalised.
    pub fn name(self) -> &'static str {
        match self {
            ItemKind::Secret => "Secret",
            ItemKind::Ruse => "Ruse",
            ItemKind::Stress => "Stress",
            ItemKind::Evidence => "Evidence",
            ItemKind::Means => "Means",
            ItemKind::Wound => "Wound",
        }
    }

    /// True for the kinds whose text may be empty (Stress and Wounds).
    pub fn text_optional(self) -> bool {
        matches!(self, ItemKind::Stress | ItemKind::Wound)
    }
}

impl fmt::Display for ItemKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

impl FromStr for ItemKind {
    type Err = RuleError;

    /// Accepts a kind's name (singular or plural), any case.
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        let t = s.trim().to_ascii_lowercase();
        let t = t.strip_suffix('s').filter(|_| t != "means").unwrap_or(&t);
        match t {
            "secret" => Ok(ItemKind::Secret),
            "ruse" => Ok(ItemKind::Ruse),
            "stres" | "stress" => Ok(ItemKind::Stress),
            "evidence" => Ok(ItemKind::Evidence),
            "means" | "mean" => Ok(ItemKind::Means),
            "wound" => Ok(ItemKind::Wound),
            _ => Err(RuleError::new(format!(
                "`{}` is not an item kind: use secret, ruse, stress, evidence, means or wound.",
                s.trim()
            ))),
        }
    }
}

/// Lower-cases, trims and collapses whitespace, so two spellings of the same
/// Secret compare equal (VR-5, VR-24). The application can use it for its
/// guild-wide "already revealed, just news" list.
pub fn normalize_text(s: &str) -> String {
    s.split_whitespace()
        .collect::<Vec<_>>()
        .join(" ")
        .to_lowercase()
}

/// Trims, collapses whitespace and checks the length of a free text.
pub(super) fn clean_text(text: &str, max: usize, what: &str) -> Result<String, RuleError> {
    let t = text.split_whitespace().collect::<Vec<_>>().join(" ");
    if t.chars().count() > max {
        return Err(RuleError::new(format!(
            "{what} can be at most {max} characters long."
        )));
    }
    Ok(t)
}

/// One item in one slot (VR-4).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Item {
    /// What it is.
    pub kind: ItemKind,
    /// Its description (may be empty for Stress and Wounds).
    pub text: String,
    /// Its identity on the sheet, kept through edits and moves (issue 14:
    /// a Secret or Evidence levels up once whatever its wording). 0 until
    /// the sheet numbers it ([`super::Sheet::apply`], or on load for items stored
    /// before identities existed).
    #[serde(default, skip_serializing_if = "is_zero")]
    pub id: u64,
}

fn is_zero(n: &u64) -> bool {
    *n == 0
}

impl Item {
    /// Builds an item, trimming the text and checking its length
    /// (at most 200 characters; required except for Stress and Wounds).
    pub fn new(kind: ItemKind, text: &str) -> Result<Item, RuleError> {
        let text = clean_text(text, MAX_ITEM_TEXT, "An item's text")?;
        if text.is_empty() && !kind.text_optional() {
            return Err(RuleError::new(format!(
                "Describe the {kind} in a few words."
            )));
        }
        Ok(Item { kind, text, id: 0 })
    }

    /// A Stress item with no text.
    pub fn stress() -> Item {
        Item {
            kind: ItemKind::Stress,
            text: String::new(),
            id: 0,
        }
    }

    /// A Wound item with no text.
    pub fn wound() -> Item {
        Item {
            kind: ItemKind::Wound,
            text: String::new(),
            id: 0,
        }
    }

    /// Checks a stored item as [`Item::new`] checks a new one.
    pub(super) fn validate(&self) -> Result<(), RuleError> {
        Item::new(self.kind, &self.text).map(|_| ())
    }
}

/// A Facet die: d4, d6, d8, d10 or d12 (VR-12).
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum FacetDie {
    /// d4.
    D4,
    /// d6 (a new character's Facet).
    D6,
    /// d8.
    D8,
    /// d10.
    D10,
    /// d12.
    D12,
}

impl FacetDie {
    /// Every size, smallest first.
    pub const ALL: [FacetDie; 5] = [
        FacetDie::D4,
        FacetDie::D6,
        FacetDie::D8,
        FacetDie::D10,
        FacetDie::D12,
    ];

    /// The number of faces.
    pub fn sides(self) -> u32 {
        match self {
            FacetDie::D4 => 4,
            FacetDie::D6 => 6,
            FacetDie::D8 => 8,
            FacetDie::D10 => 10,
            FacetDie::D12 => 12,
        }
    }

    /// The die with this many faces, if it is a Facet die.
    pub fn from_sides(sides: u32) -> Option<FacetDie> {
        FacetDie::ALL.into_iter().find(|d| d.sides() == sides)
    }

    /// One step larger, or `None` at d12 (A-R7).
    pub fn step_up(self) -> Option<FacetDie> {
        FacetDie::from_sides(self.sides() + 2)
    }

    /// One step smaller, or `None` at d4 (A-R7).
    pub fn step_down(self) -> Option<FacetDie> {
        FacetDie::from_sides(self.sides().saturating_sub(2))
    }
}

impl fmt::Display for FacetDie {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "d{}", self.sides())
    }
}

impl FromStr for FacetDie {
    type Err = RuleError;

    /// Accepts `d4`..`d12` or the bare number.
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        let t = s.trim().to_ascii_lowercase();
        t.strip_prefix('d')
            .unwrap_or(&t)
            .parse::<u32>()
            .ok()
            .and_then(FacetDie::from_sides)
            .ok_or_else(|| {
                RuleError::new(format!(
                    "`{}` is not a Facet die: use d4, d6, d8, d10 or d12.",
                    s.trim()
                ))
            })
    }
}
