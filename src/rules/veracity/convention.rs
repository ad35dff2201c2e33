//! Social Conventions (VR-16): the referee's list of declared Conventions for
//! a scene (plain data the application stores per channel), their Stress
//! costs (+N or +dN), "1/scene" limits per violator, and end-of-scene reset.

use rand::Rng;
use serde::{Deserialize, Serialize};
use std::fmt;
use std::str::FromStr;

use super::amount::Amount;
use super::event::{Event, StressSource};
use super::settings::VeracitySettings;
use super::sheet::Sheet;
use crate::rules::RuleError;

/// The most Conventions one list holds (a Discord menu shows 25).
pub const MAX_CONVENTIONS: usize = 25;
/// Longest Convention text, in characters.
pub const MAX_CONVENTION_TEXT: usize = 200;
/// Largest flat cost.
pub const MAX_FLAT_COST: u32 = 100;
/// Largest cost die.
pub const MAX_COST_SIDES: u32 = 100;
/// The most distinct violators remembered per Convention per scene.
pub const MAX_VIOLATORS: usize = 200;

/// A Convention's Stress cost: `+N` or `+dN` (VR-16, A-R14).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum ConventionCost {
    /// A fixed amount (1..=100).
    Flat(u32),
    /// One die with this many sides (2..=100).
    Die(u32),
}

impl ConventionCost {
    /// Checks the cost is within limits.
    pub fn validate(&self) -> Result<(), RuleError> {
        match *self {
            ConventionCost::Flat(n) if (1..=MAX_FLAT_COST).contains(&n) => Ok(()),
            ConventionCost::Flat(_) => Err(RuleError::new(format!(
                "A Convention costs between 1 and {MAX_FLAT_COST} Stress."
            ))),
            ConventionCost::Die(s) if (2..=MAX_COST_SIDES).contains(&s) => Ok(()),
            ConventionCost::Die(_) => Err(RuleError::new(format!(
                "A Convention's die needs between 2 and {MAX_COST_SIDES} sides."
            ))),
        }
    }

    /// The cost as an [`Amount`] to roll.
    pub fn amount(&self) -> Amount {
        match *self {
            ConventionCost::Flat(n) => Amount::Flat(n),
            ConventionCost::Die(s) => Amount::die(s),
        }
    }
}

impl fmt::Display for ConventionCost {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match *self {
            ConventionCost::Flat(n) => write!(f, "+{n}"),
            ConventionCost::Die(s) => write!(f, "+d{s}"),
        }
    }
}

impl FromStr for ConventionCost {
    type Err = RuleError;

    /// Accepts `+1`, `1`, `+d4`, `d6` (spaces and case ignored).
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        let bad = || {
            RuleError::new(format!(
                "`{}` is not a Convention cost: write `+1` or `+d4`.",
                s.trim()
            ))
        };
        let cost = match s.parse::<Amount>().map_err(|_| bad())? {
            Amount::Flat(n) => ConventionCost::Flat(n),
            Amount::Dice { count: 1, sides } => ConventionCost::Die(sides),
            Amount::Dice { .. } => return Err(bad()),
        };
        cost.validate()?;
        Ok(cost)
    }
}

/// One declared Convention.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Convention {
    /// Stable id within its list.
    pub id: u32,
    /// What it says, e.g. "never swear at this posh dinner".
    pub text: String,
    /// Stress for violating it.
    pub cost: ConventionCost,
    /// Costs Stress at most once per scene per violator.
    pub once_per_scene: bool,
    /// Violators who already paid it this scene (only tracked when `once_per_scene`).
    pub paid_this_scene: Vec<i64>,
}

/// Which Convention: by its position as listed (1-based) or by id.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum ConventionRef {
    /// 1-based position in the list as displayed.
    Index(usize),
    /// The Convention's id.
    Id(u32),
}

/// Changes to a Convention; `None` leaves a field as it is.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, Default)]
pub struct ConventionEdit {
    /// New text.
    pub text: Option<String>,
    /// New cost.
    pub cost: Option<ConventionCost>,
    /// New "1/scene" flag.
    pub once_per_scene: Option<bool>,
}

/// The Stress a violation costs, as rolled.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Violation {
    /// The Convention's id.
    pub id: u32,
    /// Its text.
    pub text: String,
    /// Its cost.
    pub cost: ConventionCost,
    /// The die face, for a `+dN` cost.
    pub roll: Option<u32>,
    /// The Stress to apply.
    pub stress: u32,
}

/// The Conventions declared in one channel or scene (VR-16).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, Default)]
#[serde(try_from = "ConventionListData")]
pub struct ConventionList {
    next_id: u32,
    items: Vec<Convention>,
}

#[derive(Deserialize)]
struct ConventionListData {
    next_id: u32,
    items: Vec<Convention>,
}

impl TryFrom<ConventionListData> for ConventionList {
    type Error = RuleError;

    fn try_from(d: ConventionListData) -> Result<Self, RuleError> {
        if d.items.len() > MAX_CONVENTIONS {
            return Err(RuleError::new("A stored Convention list is too long."));
        }
        for (i, c) in d.items.iter().enumerate() {
            clean(&c.text)?;
            c.cost.validate()?;
            if c.id >= d.next_id
                || d.items[..i].iter().any(|o| o.id == c.id)
                || c.paid_this_scene.len() > MAX_VIOLATORS
            {
                return Err(RuleError::new("A stored Convention list is inconsistent."));
            }
        }
        Ok(ConventionList {
            next_id: d.next_id,
            items: d.items,
        })
    }
}

fn clean(text: &str) -> Result<String, RuleError> {
    let t = text.split_whitespace().collect::<Vec<_>>().join(" ");
    if t.is_empty() {
        return Err(RuleError::new("Say what the Convention is."));
    }
    if t.chars().count() > MAX_CONVENTION_TEXT {
        return Err(RuleError::new(format!(
            "A Convention can be at most {MAX_CONVENTION_TEXT} characters long."
        )));
    }
    Ok(t)
}

impl ConventionList {
    /// An empty list.
    pub fn new() -> ConventionList {
        ConventionList::default()
    }

    /// The Conventions, in display order.
    pub fn items(&self) -> &[Convention] {
        &self.items
    }

    fn position(&self, r: ConventionRef) -> Result<usize, RuleError> {
        match r {
            ConventionRef::Index(i) => {
                if i >= 1 && i <= self.items.len() {
                    Ok(i - 1)
                } else {
                    Err(RuleError::new(format!(
                        "There is no Convention number {i}: the list has {}.",
                        self.items.len()
                    )))
                }
            }
            ConventionRef::Id(id) => self
                .items
                .iter()
                .position(|c| c.id == id)
                .ok_or_else(|| RuleError::new("That Convention is no longer on the list.")),
        }
    }

    /// One Convention.
    pub fn get(&self, r: ConventionRef) -> Result<&Convention, RuleError> {
        Ok(&self.items[self.position(r)?])
    }

    /// Declares a Convention and returns its id (at most 25 per list).
    pub fn add(
        &mut self,
        text: &str,
        cost: ConventionCost,
        once_per_scene: bool,
    ) -> Result<u32, RuleError> {
        let text = clean(text)?;
        cost.validate()?;
        if self.items.len() >= MAX_CONVENTIONS {
            return Err(RuleError::new(format!(
                "A scene can have at most {MAX_CONVENTIONS} Conventions: remove one first."
            )));
        }
        let id = self.next_id;
        let next = id
            .checked_add(1)
            .ok_or_else(|| RuleError::new("This Convention list has run out of ids."))?;
        self.items.push(Convention {
            id,
            text,
            cost,
            once_per_scene,
            paid_this_scene: Vec::new(),
        });
        self.next_id = next;
        Ok(id)
    }

    /// Changes a Convention (the referee may modify them at any time).
    pub fn edit(&mut self, r: ConventionRef, edit: ConventionEdit) -> Result<(), RuleError> {
        let pos = self.position(r)?;
        let text = edit.text.as_deref().map(clean).transpose()?;
        if let Some(c) = edit.cost {
            c.validate()?;
        }
        let item = &mut self.items[pos];
        if let Some(t) = text {
            item.text = t;
        }
        if let Some(c) = edit.cost {
            item.cost = c;
        }
        if let Some(o) = edit.once_per_scene {
            item.once_per_scene = o;
        }
        Ok(())
    }

    /// Removes a Convention and returns it.
    pub fn remove(&mut self, r: ConventionRef) -> Result<Convention, RuleError> {
        let pos = self.position(r)?;
        Ok(self.items.remove(pos))
    }

    /// `Ok` when `violator` can be charged for this Convention now; refused
    /// for a "1/scene" Convention they already paid this scene.
    pub fn check_violation(&self, r: ConventionRef, violator: i64) -> Result<(), RuleError> {
        let c = &self.items[self.position(r)?];
        if c.once_per_scene && c.paid_this_scene.contains(&violator) {
            return Err(RuleError::new(format!(
                "\"{}\" costs Stress only once per scene, and it was already paid this scene.",
                c.text
            )));
        }
        if c.once_per_scene && c.paid_this_scene.len() >= MAX_VIOLATORS {
            return Err(RuleError::new(
                "Too many characters have violated this Convention this scene.",
            ));
        }
        Ok(())
    }

    fn mark(&mut self, pos: usize, violator: i64) {
        let c = &mut self.items[pos];
        if c.once_per_scene && !c.paid_this_scene.contains(&violator) {
            c.paid_this_scene.push(violator);
        }
    }

    /// A violation (VR-16): checks "1/scene", rolls the cost and marks the
    /// violator. The caller applies the Stress (or use [`violate`]).
    pub fn violation<R: Rng + ?Sized>(
        &mut self,
        r: ConventionRef,
        violator: i64,
        rng: &mut R,
    ) -> Result<Violation, RuleError> {
        self.check_violation(r, violator)?;
        let pos = self.position(r)?;
        let c = &self.items[pos];
        let rolled = c.cost.amount().roll(rng);
        let v = Violation {
            id: c.id,
            text: c.text.clone(),
            cost: c.cost,
            roll: match c.cost {
                ConventionCost::Die(_) => Some(rolled.total),
                ConventionCost::Flat(_) => None,
            },
            stress: rolled.total,
        };
        self.mark(pos, violator);
        Ok(v)
    }

    /// End of scene: every "1/scene" mark is cleared; returns how many
    /// there were.
    pub fn end_scene(&mut self) -> usize {
        let mut cleared = 0;
        for c in &mut self.items {
            cleared += c.paid_this_scene.len();
            c.paid_this_scene.clear();
        }
        cleared
    }
}

/// A character violates a Convention (VR-16): rolls its cost, applies the
/// Stress to `sheet` (VR-14, may Break) and marks "1/scene", all or nothing.
/// `violator` is the id the application uses for the character.
pub fn violate<R: Rng + ?Sized>(
    list: &mut ConventionList,
    r: ConventionRef,
    violator: i64,
    sheet: &mut Sheet,
    settings: &VeracitySettings,
    rng: &mut R,
) -> Result<Vec<Event>, RuleError> {
    list.check_violation(r, violator)?;
    sheet.ensure_alive()?;
    let pos = list.position(r)?;
    let c = list.items[pos].clone();
    let mut ev = sheet.gain_stress_from(
        StressSource::Convention {
            id: c.id,
            text: c.text.clone(),
        },
        c.cost.amount(),
        settings,
        rng,
    )?;
    let stress = ev
        .iter()
        .find_map(|e| match e {
            Event::StressIncoming { n, .. } => Some(*n),
            _ => None,
        })
        .unwrap_or(0);
    list.mark(pos, violator);
    ev.insert(
        0,
        Event::ConventionViolated {
            id: c.id,
            violator,
            stress,
        },
    );
    Ok(ev)
}
