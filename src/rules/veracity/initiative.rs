//! Combat helpers (spec §3.6): AP per turn and action costs (VR-21),
//! side initiative by the party leader's Light save (VR-22), and fleeing
//! combat with a Flesh save (VR-23).

use rand::Rng;
use serde::{Deserialize, Serialize};

use super::event::Event;
use super::save::{FacetBonus, Outcome, SaveRequest, SaveResult};
use super::settings::VeracitySettings;
use super::sheet::{InventoryKind, Sheet};
use crate::rules::RuleError;

/// The largest AP cost the referee may set for one action.
pub const MAX_AP_COST: u32 = 36;

/// An action's AP cost (VR-21).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum ApAction {
    /// Make an attack: 4.
    Attack,
    /// Reveal a Secret: 4.
    RevealSecret,
    /// Pick up or drop something: 4.
    PickUpOrDrop,
    /// Fall prone or stand up: 2.
    ProneOrStand,
    /// Draw or stow something: 0.
    DrawOrStow,
    /// Priced by the referee (0..=36).
    Other(u32),
}

impl ApAction {
    /// The AP cost.
    pub fn cost(self) -> u32 {
        match self {
            ApAction::Attack | ApAction::RevealSecret | ApAction::PickUpOrDrop => 4,
            ApAction::ProneOrStand => 2,
            ApAction::DrawOrStow => 0,
            ApAction::Other(n) => n,
        }
    }
}

/// Which side acts first (VR-22).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Side {
    /// The player characters (clockwise around the table).
    Players,
    /// The NPCs.
    Npcs,
}

/// The result of rolling side initiative (VR-22).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct InitiativeResult {
    /// The leader's Light save.
    pub save: SaveResult,
    /// Who acts first.
    pub first: Side,
}

/// The result of an attempt to flee combat (VR-23).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct FleeResult {
    /// The Flesh save.
    pub save: SaveResult,
    /// True when the character escapes.
    pub escaped: bool,
}

impl Sheet {
    /// Start of this character's turn: AP refills to [`Sheet::ap_max`] (VR-21, A-R8).
    pub fn start_turn(&mut self, settings: &VeracitySettings) -> Vec<Event> {
        self.ap_current = self.ap_max(settings);
        vec![Event::ApRestored {
            ap: self.ap_current,
        }]
    }

    /// Spends AP on an action (VR-21); refused if not enough is left.
    pub fn spend_ap(&mut self, action: ApAction) -> Result<Vec<Event>, RuleError> {
        self.ensure_alive()?;
        let n = action.cost();
        if n > MAX_AP_COST {
            return Err(RuleError::new(format!(
                "An action can cost at most {MAX_AP_COST} AP."
            )));
        }
        if n > self.ap_current {
            return Err(RuleError::new(format!(
                "That costs {n} AP and you have only {} left this turn.",
                self.ap_current
            )));
        }
        self.ap_current -= n;
        Ok(vec![Event::ApSpent {
            n,
            left: self.ap_current,
        }])
    }
}

/// Side initiative (VR-22): the party leader makes a Light save; on a
/// success the players act first, otherwise the NPCs do.
pub fn roll_initiative<R: Rng + ?Sized>(
    leader: &Sheet,
    modifier: i32,
    facets: Vec<FacetBonus>,
    settings: &VeracitySettings,
    rng: &mut R,
) -> Result<InitiativeResult, RuleError> {
    let save = leader.save(
        &SaveRequest {
            inventory: InventoryKind::Light,
            modifier,
            facets,
        },
        settings,
        rng,
    )?;
    let first = match save.outcome {
        Outcome::Success => Side::Players,
        Outcome::Failure => Side::Npcs,
    };
    Ok(InitiativeResult { save, first })
}

/// Fleeing combat (VR-23): needs a clear path (refused without one, no roll)
/// and a successful Flesh save.
pub fn flee_combat<R: Rng + ?Sized>(
    sheet: &Sheet,
    clear_path: bool,
    modifier: i32,
    facets: Vec<FacetBonus>,
    settings: &VeracitySettings,
    rng: &mut R,
) -> Result<FleeResult, RuleError> {
    sheet.ensure_alive()?;
    if !clear_path {
        return Err(RuleError::new(
            "Fleeing needs a clear path to escape: there is none, so no save is rolled.",
        ));
    }
    let save = sheet.save(
        &SaveRequest {
            inventory: InventoryKind::Flesh,
            modifier,
            facets,
        },
        settings,
        rng,
    )?;
    let escaped = save.outcome == Outcome::Success;
    Ok(FleeResult { save, escaped })
}
