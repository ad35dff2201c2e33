//! Changes the rules decide: Stress (and Breaks, heart attacks), Wounds (and
//! displacement, death), damage, rest, revelations that level a character
//! up, and acting against a Facet. Each is one rules [`Action`] applied in
//! one transaction by [`target::apply_as`].

use super::render;
use super::target::{self, apply, facet_index};
use crate::app::characters::Pick;
use crate::app::{App, AppError, AppResult, Caller};
use crate::rules::veracity::level::RevelationInput;
use crate::rules::veracity::stress::DamageMode;
use crate::rules::veracity::{Action, Amount, InventoryKind};

/// `/vr stress`: gain Stress, `3` or `d4` (Break when no Light slot is free).
pub async fn stress(app: &App, caller: &Caller, amount: &str, player: Pick<'_>) -> AppResult {
    let (action, log, headline) = harm(InventoryKind::Light, target::amount(amount)?, Vec::new());
    apply(app, caller, player, action, log, &headline).await
}

/// The harm an inventory takes: `amount` Stress (Light) or Wounds (Flesh,
/// `displace` naming the Flesh slots lost first), as `/vr stress` and
/// `/vr wound` give it and a failed save's `on_fail` costs: the rules
/// action, the log's action word and the answer's headline.
pub fn harm(
    inventory: InventoryKind,
    amount: Amount,
    displace: Vec<u32>,
) -> (Action, &'static str, String) {
    match inventory {
        InventoryKind::Light => (
            Action::GainStress { amount },
            "stress",
            format!("gains {amount} Stress"),
        ),
        InventoryKind::Flesh => (
            Action::AddWounds { amount, displace },
            "wound",
            render::takes_wounds(amount),
        ),
    }
}

/// A named cause of Stress (VR-16, seed 002's table), for `/vr stress cause:`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum StressCause {
    /// A social attack, an insult or a threat: the referee's amount.
    SocialAttack,
    /// Fled a social conflict without the enemy's consent: +1.
    FledConflict,
    /// Shocked by a revealed Secret: +d6 (A-R14, then VR-14).
    Shocked,
    /// One's own compromising Secret revealed: every empty Light slot
    /// fills with Stress; with none empty, a Break (A-R9).
    OwnSecret,
}

impl StressCause {
    /// The cause's change: the rules action (a social attack costs the
    /// referee's amount `given`; every other cause sets its own and refuses
    /// one), the log's action word, the answer's headline and, for what
    /// only the referee gives, what the refusal calls it.
    fn change(
        self,
        given: Option<&str>,
    ) -> Result<(Action, &'static str, String, Option<&'static str>), AppError> {
        let (action, log, headline) = match (self, given) {
            (StressCause::SocialAttack, Some(amount)) => {
                let amount = target::amount(amount)?;
                let headline = format!("suffers a social attack (+{amount} Stress)");
                let gm_only = Some("inflict a social attack");
                return Ok((
                    Action::SocialAttack { amount },
                    "stress_social",
                    headline,
                    gm_only,
                ));
            }
            (StressCause::SocialAttack, None) => {
                return Err(AppError::user(
                    "A social attack costs the referee's `amount` of Stress (1, d4).",
                ))
            }
            (_, Some(_)) => {
                return Err(AppError::user(
                    "This cause sets the amount itself: leave `amount` out.",
                ))
            }
            (StressCause::FledConflict, None) => (
                Action::FleeSocialConflict,
                "stress_fled",
                "flees a social conflict (+1 Stress)",
            ),
            (StressCause::Shocked, None) => (
                Action::ShockedBySecret,
                "stress_shocked",
                "is shocked by a revealed Secret (+d6 Stress)",
            ),
            (StressCause::OwnSecret, None) => (
                Action::OwnSecretRevealed { waive_break: false },
                "stress_own_secret",
                "has a compromising Secret revealed",
            ),
        };
        Ok((action, log, headline.to_string(), None))
    }
}

/// `/vr stress` with a named cause: the cause sets the amount (a social
/// attack takes the referee's `amount` and only the referee gives it,
/// [`StressCause::change`]); without a cause, `amount` as [`stress`]. The
/// cause shows on the answer and, as the log's action, in `/history`.
/// `against` names the Facet the character acted against: the Stress is a
/// roll of its die (VR-14), with no `amount` or `cause` beside it.
pub async fn stress_for(
    app: &App,
    caller: &Caller,
    amount: Option<&str>,
    cause: Option<StressCause>,
    against: Option<&str>,
    player: Pick<'_>,
) -> AppResult {
    let given = amount.map(str::trim).filter(|a| !a.is_empty());
    match (against, cause, given) {
        (Some(facet), None, None) => against_facet(app, caller, facet, player).await,
        (Some(_), _, _) => Err(AppError::user(
            "Acting against a Facet costs a roll of its die: leave `amount` and `cause` out.",
        )),
        (None, None, Some(amount)) => stress(app, caller, amount, player).await,
        (None, None, None) => Err(AppError::user("Give an `amount` (3, d4) or a `cause`.")),
        (None, Some(cause), given) => {
            let (action, log, headline, gm_only) = cause.change(given)?;
            target::apply_as(app, caller, player, gm_only, log, &headline, |_| Ok(action)).await
        }
    }
}

/// `/vr wound`: take Wounds directly; `displace` lists the Flesh slots the
/// owner gives up first when there is no room.
pub async fn wound(
    app: &App,
    caller: &Caller,
    amount: &str,
    displace: Option<&str>,
    player: Pick<'_>,
) -> AppResult {
    let amount = target::amount(amount)?;
    let (action, log, headline) = harm(InventoryKind::Flesh, amount, target::slots(displace)?);
    apply(app, caller, player, action, log, &headline).await
}

/// `/vr damage`: to HP, or as Wounds (automatically at 0 HP).
pub async fn damage(
    app: &App,
    caller: &Caller,
    amount: &str,
    mode: DamageMode,
    displace: Option<&str>,
    player: Pick<'_>,
) -> AppResult {
    let amount = target::amount(amount)?;
    let displace = target::slots(displace)?;
    super::combat::damage(app, caller, amount, mode, displace, player).await
}

/// What a day of rest removes.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Rest {
    /// A day relaxing in daylight: one Stress.
    Stress,
    /// A day of rest with medical care: one Wound.
    Wound,
}

/// `/vr rest`: removes one Stress or Wound (the chosen slot, else the highest).
pub async fn rest(
    app: &App,
    caller: &Caller,
    what: Rest,
    slot: Option<u32>,
    player: Pick<'_>,
) -> AppResult {
    let (action, headline) = match what {
        Rest::Stress => (Action::RelaxStress { slot }, "relaxes in daylight"),
        Rest::Wound => (Action::HealWound { slot }, "rests under medical care"),
    };
    apply(app, caller, player, action, "rest", headline).await
}

/// What `/vr reveal` asks for.
pub struct Reveal<'a> {
    /// The shocked NPC.
    pub target: &'a str,
    /// Light slots holding the Secrets revealed, e.g. `1, 2`.
    pub secrets: &'a str,
    /// Flesh slots holding the Evidence shown.
    pub evidence: Option<&'a str>,
    /// The inventory that gains a slot.
    pub gain: InventoryKind,
    /// The referee's note.
    pub note: Option<&'a str>,
    /// Whose sheet (another member's for the FC only).
    pub player: Pick<'a>,
}

/// `/vr reveal`: Secrets (and Evidence) shock an NPC; one new slot once the
/// referee confirms ([`super::reveal`]).
pub async fn reveal(app: &App, caller: &Caller, r: Reveal<'_>) -> AppResult {
    let input = RevelationInput {
        target: target::text(app, "The NPC's name", r.target)?,
        secret_slots: target::slots(Some(r.secrets))?,
        evidence_slots: target::slots(r.evidence)?,
        note: target::text(app, "The note", r.note.unwrap_or(""))?,
        gain: r.gain,
    };
    super::reveal::ask(app, caller, r.player, input).await
}

/// `/vr stress against:`: acting against a Facet costs Stress equal to a
/// roll of its die (VR-14).
async fn against_facet(app: &App, caller: &Caller, facet: &str, player: Pick<'_>) -> AppResult {
    target::apply_as(
        app,
        caller,
        player,
        None,
        "facet_against",
        "acts against a Facet",
        |s| {
            Ok(Action::ActAgainstFacet {
                index: facet_index(s, facet)?,
            })
        },
    )
    .await
}
