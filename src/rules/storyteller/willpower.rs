//! Storyteller roll sessions and willpower (spec §4.4, ST-10 to ST-14).
//!
//! Every roll goes through a [`RollSession`]. Most close at once; a
//! willpower roll that did not botch, rolled with at least 2 current
//! willpower and fewer successes than buying would give (current − 1),
//! waits in [`Phase::WillpowerChoice`] for the roller to buy an automatic
//! success (ST-11) or keep the roll:
//!
//! ```text
//! start ──► WillpowerChoice ──(SpendWillpower | Keep | ForceClose)──► Closed
//!   │               └───────────(Void, GM)──────────────────────────► Voided
//!   └──────────────────────────────────────────────────────────────► Closed
//! ```
//!
//! The free functions handle the rest of §4.4: ignoring wound penalties once
//! per turn (ST-12), new turns, daily recovery (ST-14), the first dot back and
//! being revived by another character (ST-13).

use rand::Rng;
use serde::{Deserialize, Serialize};

use super::pool::{
    build_action, build_ad_hoc, build_rest, build_willpower, AdHocRequest, PoolNote, RollKind,
    RollRequest, RollSpec, WillpowerRequest,
};
use super::roll::{roll, Outcome, RollResult};
use super::settings::StorytellerSettings;
use super::sheet::{StorytellerSheet, TraitCatalog};
use crate::rules::error::ensure;
use crate::rules::{Actor, RuleError};

/// Where a roll session stands.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Phase {
    /// A willpower roll that may be bought off for an automatic success (ST-11).
    WillpowerChoice,
    /// Finished; the result stands.
    Closed,
    /// Voided by the GM role; the roll does not count.
    Voided,
}

/// What an actor may do to an open session.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "action", rename_all = "snake_case")]
pub enum Action {
    /// Spend 1 current willpower for an automatic success (ST-11). Owner or GM.
    SpendWillpower {
        /// Who clicked.
        actor: Actor,
    },
    /// Keep the rolled result. Owner or GM.
    Keep {
        /// Who clicked.
        actor: Actor,
    },
    /// Discard the roll (GM role only).
    Void {
        /// Who clicked.
        actor: Actor,
    },
    /// Close the session keeping the roll (GM role only; also for timeouts).
    ForceClose {
        /// Who clicked.
        actor: Actor,
    },
}

/// The buttons an actor could press: [`Action`] without the actor.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum ActionKind {
    /// See [`Action::SpendWillpower`].
    SpendWillpower,
    /// See [`Action::Keep`].
    Keep,
    /// See [`Action::Void`].
    Void,
    /// See [`Action::ForceClose`].
    ForceClose,
}

/// Why willpower was spent.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum SpendPurpose {
    /// An automatic success on a willpower roll (ST-11).
    BuySuccess,
    /// Ignore wound penalties on the next action (ST-12).
    IgnoreWounds,
    /// Bring an incapacitated character back to 1 (ST-13).
    Revive,
}

/// Why willpower came back.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum GainReason {
    /// A day of rest (ST-14).
    Daily,
    /// Successes on the active-rest roll (ST-14).
    ActiveRest,
    /// The first dot back, out of danger for a full turn (ST-13).
    FirstDot,
    /// Another character spent willpower on this one (ST-13).
    Revived,
}

/// Something that happened, for the roll log (spec §1.4).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "event", rename_all = "snake_case")]
pub enum Event {
    /// The roll's parameters, fixed before rolling (ST-3).
    PoolBuilt {
        /// Action, willpower, rest or ad-hoc.
        kind: RollKind,
        /// Base dice.
        dice: u32,
        /// Effective difficulty.
        difficulty: u32,
        /// Effective threshold.
        threshold: u32,
        /// Specialties in use.
        specialties: Vec<String>,
        /// Bonus dice per 10.
        bonus_dice_per_ten: u32,
    },
    /// A rule that shaped the pool fired (see [`PoolNote`]).
    Rule {
        /// The rule.
        note: PoolNote,
    },
    /// The character's ST-12 spend made this action ignore wound penalties.
    WoundIgnoreUsed,
    /// A zero pool failed automatically, without rolling (A-S1).
    AutomaticFailure,
    /// The base dice (ST-4).
    BaseDice {
        /// Faces in roll order.
        faces: Vec<u32>,
        /// Successes among them.
        successes: u32,
        /// Botches (1s) among them.
        botches: u32,
    },
    /// One generation of bonus dice (ST-7).
    BonusDice {
        /// 1 for dice from the base 10s, 2 for the next, ...
        generation: u32,
        /// Faces in roll order.
        faces: Vec<u32>,
        /// Successes among them.
        successes: u32,
    },
    /// The 2000-generated-dice cap stopped the chain; the roll succeeds (A-S11).
    BonusCapReached {
        /// Bonus dice generated.
        generated: u32,
    },
    /// The threshold removed successes (ST-5).
    ThresholdRemoved {
        /// How many.
        successes: u32,
    },
    /// Botches cancelled successes (ST-6).
    BotchesCancelled {
        /// How many pairs.
        pairs: u32,
    },
    /// The rolled outcome (ST-6).
    Rolled {
        /// The outcome.
        outcome: Outcome,
    },
    /// The roller may spend 1 willpower for this many automatic successes (ST-11).
    BuyOffered {
        /// Successes if bought (current willpower − 1).
        successes: u32,
    },
    /// Willpower spent.
    WillpowerSpent {
        /// Why.
        purpose: SpendPurpose,
        /// Current willpower afterwards.
        current: u8,
    },
    /// The roll became an automatic success (ST-11).
    AutomaticSuccess {
        /// Successes (current willpower after spending).
        successes: u32,
    },
    /// A botched willpower roll cost willpower (ST-10).
    WillpowerLost {
        /// Dots lost (net botches, at most current).
        amount: u8,
        /// Current willpower afterwards.
        current: u8,
    },
    /// Willpower came back.
    WillpowerGained {
        /// Dots gained (after the cap at permanent).
        amount: u8,
        /// Current willpower afterwards.
        current: u8,
        /// Why.
        reason: GainReason,
    },
    /// Willpower reached 0: incapacitated (ST-13).
    Incapacitated,
    /// Willpower reached 0 by ignoring wounds: incapacitated after the next action (ST-12).
    IncapacitationDeferred,
    /// Willpower is above 0 again.
    NoLongerIncapacitated,
    /// The helper's own spend on a revive took them to 0 (ST-13).
    HelperIncapacitated,
    /// A new turn began: the ST-12 spend is available again.
    TurnStarted,
    /// The session closed; the result stands.
    Closed,
    /// The GM role voided the session.
    Voided {
        /// Who voided it.
        by: i64,
    },
}

/// One roll from start to close (spec §1.5), serialisable between clicks.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct RollSession {
    /// The participant who owns the roll (the character's player).
    pub owner: i64,
    /// The rolled dice and their resolution.
    pub result: RollResult,
    /// Where the session stands.
    pub phase: Phase,
    /// The outcome that counts: the rolled one, or the bought automatic success.
    pub outcome: Outcome,
    /// True when willpower bought an automatic success (ST-11).
    pub automatic: bool,
    /// Current willpower before the roll (willpower and rest rolls).
    pub willpower_before: Option<u8>,
    /// Current willpower now, as this session left it (willpower and rest rolls).
    pub willpower_after: Option<u8>,
    /// Every event so far, in order.
    pub log: Vec<Event>,
}

impl RollSession {
    /// Rolls an action from a sheet (§4.2, §4.3). Consumes a pending ST-12
    /// "ignore wounds", and if that spend took willpower to 0, the character
    /// becomes incapacitated now that the action is done. Closes at once.
    pub fn action<R: Rng + ?Sized>(
        owner: i64,
        sheet: &mut StorytellerSheet,
        catalog: &TraitCatalog,
        req: &RollRequest,
        settings: &StorytellerSettings,
        max_dice: u32,
        rng: &mut R,
    ) -> Result<(Self, Vec<Event>), RuleError> {
        let spec = build_action(sheet, catalog, req, settings, max_dice)?;
        let result = roll(&spec, rng);
        let mut events = roll_events(&result);
        if spec.consumes_wound_ignore || sheet.ignores_wounds_next_action() {
            let used = sheet.wp_wound_ignore_used_this_turn();
            sheet.set_wound_flags(used, false);
            if spec.consumes_wound_ignore && !sheet.wound_penalty().is_none() {
                events.push(Event::WoundIgnoreUsed);
            }
        }
        if sheet.incapacitation_deferred() {
            sheet.set_incapacitation_deferred(false);
            if sheet.willpower().current == 0 {
                events.push(Event::Incapacitated);
            }
        }
        Ok(Self::closed(owner, result, None, None, events))
    }

    /// Rolls dice with no sheet (an NPC on the fly). Closes at once.
    pub fn ad_hoc<R: Rng + ?Sized>(
        owner: i64,
        req: &AdHocRequest,
        settings: &StorytellerSettings,
        max_dice: u32,
        rng: &mut R,
    ) -> Result<(Self, Vec<Event>), RuleError> {
        let spec = build_ad_hoc(req, settings, max_dice)?;
        let result = roll(&spec, rng);
        let events = roll_events(&result);
        Ok(Self::closed(owner, result, None, None, events))
    }

    /// Rolls willpower (ST-10). A botch costs current willpower, one dot per
    /// net botch, and closes the session. Otherwise, when buying a success
    /// would raise the result (current willpower at least 2 and more than
    /// one above the successes rolled, see [`buying_raises`]), the session
    /// waits for [`Action::SpendWillpower`] or [`Action::Keep`] (ST-11); if
    /// not, it closes.
    pub fn willpower<R: Rng + ?Sized>(
        owner: i64,
        sheet: &mut StorytellerSheet,
        req: &WillpowerRequest,
        settings: &StorytellerSettings,
        max_dice: u32,
        rng: &mut R,
    ) -> Result<(Self, Vec<Event>), RuleError> {
        let spec = build_willpower(sheet, req, settings, max_dice)?;
        let before = sheet.willpower().current;
        let result = roll(&spec, rng);
        let mut events = roll_events(&result);
        if let Outcome::Botch { botches } = result.outcome {
            lose_willpower(sheet, botches, &mut events);
        } else if buying_raises(result.outcome, before) {
            events.push(Event::BuyOffered {
                successes: u32::from(before - 1),
            });
            let session = Self {
                owner,
                outcome: result.outcome,
                result,
                phase: Phase::WillpowerChoice,
                automatic: false,
                willpower_before: Some(before),
                willpower_after: Some(before),
                log: events.clone(),
            };
            return Ok((session, events));
        }
        let after = sheet.willpower().current;
        Ok(Self::closed(
            owner,
            result,
            Some(before),
            Some(after),
            events,
        ))
    }

    /// The active-rest roll (ST-14): a difficulty-8 willpower roll; each net
    /// success restores 1 willpower (never above permanent), a botch costs
    /// willpower as usual. Call [`recover_daily`] for the day's own +1. The
    /// ST-11 purchase is not offered here: buying successes on a roll that
    /// restores willpower would turn 1 dot into several.
    pub fn rest<R: Rng + ?Sized>(
        owner: i64,
        sheet: &mut StorytellerSheet,
        settings: &StorytellerSettings,
        max_dice: u32,
        rng: &mut R,
    ) -> Result<(Self, Vec<Event>), RuleError> {
        let spec = build_rest(sheet, settings, max_dice)?;
        let before = sheet.willpower().current;
        let result = roll(&spec, rng);
        let mut events = roll_events(&result);
        match result.outcome {
            Outcome::Botch { botches } => lose_willpower(sheet, botches, &mut events),
            Outcome::Success { successes } => {
                gain_willpower(sheet, successes, GainReason::ActiveRest, &mut events)
            }
            Outcome::Failure => {}
        }
        let after = sheet.willpower().current;
        Ok(Self::closed(
            owner,
            result,
            Some(before),
            Some(after),
            events,
        ))
    }

    fn closed(
        owner: i64,
        result: RollResult,
        before: Option<u8>,
        after: Option<u8>,
        mut events: Vec<Event>,
    ) -> (Self, Vec<Event>) {
        events.push(Event::Closed);
        let session = Self {
            owner,
            outcome: result.outcome,
            result,
            phase: Phase::Closed,
            automatic: false,
            willpower_before: before,
            willpower_after: after,
            log: events.clone(),
        };
        (session, events)
    }

    /// The automatic successes a purchase would have given (current − 1)
    /// when a willpower roll closed at once because buying would not have
    /// raised it (ST-11): it did not botch, there were at least 2
    /// willpower, and the purchase was never offered. `None` otherwise.
    pub fn purchase_withheld(&self) -> Option<u32> {
        let before = self.willpower_before?;
        let offered = self
            .log
            .iter()
            .any(|e| matches!(e, Event::BuyOffered { .. }));
        (self.result.spec.kind == RollKind::Willpower
            && !offered
            && before >= 2
            && !self.result.outcome.is_botch())
        .then(|| u32::from(before - 1))
    }

    /// The automatic successes on offer (current − 1, ST-11) while the
    /// roller may buy them with `sheet` (theirs, as it is now): the choice
    /// is open and buying would raise the result. `None` otherwise.
    pub fn purchase_offer(&self, sheet: &StorytellerSheet) -> Option<u8> {
        let owner = Actor {
            id: self.owner,
            gm: false,
        };
        self.available_actions(owner, sheet)
            .contains(&ActionKind::SpendWillpower)
            .then(|| sheet.willpower().current.saturating_sub(1))
    }

    /// Where the session stands.
    pub fn phase(&self) -> Phase {
        self.phase
    }

    /// True while actions are accepted.
    pub fn is_open(&self) -> bool {
        self.phase == Phase::WillpowerChoice
    }

    /// The actions `actor` may take now. `sheet` is the roller's sheet, as
    /// it is now: the purchase needs current willpower ≥ 2 (ST-11) and must
    /// raise the result ([`buying_raises`]).
    pub fn available_actions(&self, actor: Actor, sheet: &StorytellerSheet) -> Vec<ActionKind> {
        let mut out = Vec::new();
        if self.phase != Phase::WillpowerChoice {
            return out;
        }
        if actor.id == self.owner || actor.gm {
            if buying_raises(self.result.outcome, sheet.willpower().current) {
                out.push(ActionKind::SpendWillpower);
            }
            out.push(ActionKind::Keep);
        }
        if actor.gm {
            out.push(ActionKind::Void);
            out.push(ActionKind::ForceClose);
        }
        out
    }

    /// Applies an action. `ctx` is the roller's sheet. Nothing changes on
    /// error. `_rng` is unused (no action here rolls dice); it keeps the
    /// signature shared by every procedure.
    pub fn apply<R: Rng + ?Sized>(
        mut self,
        ctx: &mut StorytellerSheet,
        action: Action,
        _rng: &mut R,
    ) -> Result<(Self, Vec<Event>), RuleError> {
        ensure(self.phase == Phase::WillpowerChoice, || {
            "This roll is already closed.".to_string()
        })?;
        let actor = match action {
            Action::SpendWillpower { actor }
            | Action::Keep { actor }
            | Action::Void { actor }
            | Action::ForceClose { actor } => actor,
        };
        let mut events = Vec::new();
        match action {
            Action::SpendWillpower { .. } | Action::Keep { .. } => {
                ensure(actor.id == self.owner || actor.gm, || {
                    "Only the roller or the storyteller can decide this roll.".to_string()
                })?;
            }
            Action::Void { .. } | Action::ForceClose { .. } => {
                ensure(actor.gm, || "Only the storyteller can do that.".to_string())?;
            }
        }
        match action {
            Action::SpendWillpower { .. } => {
                ensure(!self.result.outcome.is_botch(), || {
                    "A botched willpower roll cannot be bought off.".to_string()
                })?;
                let current = ctx.willpower().current;
                ensure(current >= 2, || {
                    "You need at least 2 willpower to buy a success: the last dot cannot be spent this way."
                        .to_string()
                })?;
                ensure(buying_raises(self.result.outcome, current), || {
                    let n = current - 1;
                    format!(
                        "Spending willpower would give {n} {}, no more than the roll already has: keep the roll.",
                        if n == 1 { "success" } else { "successes" }
                    )
                })?;
                let after = current - 1;
                ctx.willpower_mut().current = after;
                events.push(Event::WillpowerSpent {
                    purpose: SpendPurpose::BuySuccess,
                    current: after,
                });
                let successes = u32::from(after);
                events.push(Event::AutomaticSuccess { successes });
                events.push(Event::Closed);
                self.outcome = Outcome::Success { successes };
                self.automatic = true;
                self.willpower_after = Some(after);
                self.phase = Phase::Closed;
            }
            Action::Keep { .. } | Action::ForceClose { .. } => {
                events.push(Event::Closed);
                self.phase = Phase::Closed;
            }
            Action::Void { .. } => {
                events.push(Event::Voided { by: actor.id });
                self.phase = Phase::Voided;
            }
        }
        self.log.extend(events.iter().cloned());
        Ok((self, events))
    }
}

/// The events describing a resolved roll, in order.
pub fn roll_events(result: &RollResult) -> Vec<Event> {
    let spec: &RollSpec = &result.spec;
    let mut ev = vec![Event::PoolBuilt {
        kind: spec.kind,
        dice: spec.dice,
        difficulty: spec.difficulty,
        threshold: spec.threshold,
        specialties: spec.specialties.clone(),
        bonus_dice_per_ten: spec.bonus_dice_per_ten,
    }];
    ev.extend(spec.notes.iter().map(|n| Event::Rule { note: n.clone() }));
    if result.auto_fail {
        ev.push(Event::AutomaticFailure);
    } else {
        ev.push(Event::BaseDice {
            faces: result.base.clone(),
            successes: result.base_successes,
            botches: result.botches,
        });
    }
    for (i, g) in result.bonus.iter().enumerate() {
        let successes = g
            .iter()
            .filter(|&&f| f != 1 && f >= spec.difficulty)
            .count() as u32;
        ev.push(Event::BonusDice {
            generation: i as u32 + 1,
            faces: g.clone(),
            successes,
        });
    }
    if result.cap_hit {
        ev.push(Event::BonusCapReached {
            generated: result.bonus_dice(),
        });
    }
    if result.threshold_removed > 0 {
        ev.push(Event::ThresholdRemoved {
            successes: result.threshold_removed,
        });
    }
    if result.cancelled > 0 {
        ev.push(Event::BotchesCancelled {
            pairs: result.cancelled,
        });
    }
    ev.push(Event::Rolled {
        outcome: result.outcome,
    });
    ev
}

fn lose_willpower(sheet: &mut StorytellerSheet, botches: u32, events: &mut Vec<Event>) {
    let wp = sheet.willpower_mut();
    let amount = u8::try_from(botches.min(u32::from(wp.current))).unwrap_or(wp.current);
    wp.current -= amount;
    let current = wp.current;
    events.push(Event::WillpowerLost { amount, current });
    if current == 0 && amount > 0 {
        sheet.set_incapacitation_deferred(false);
        events.push(Event::Incapacitated);
    }
}

fn gain_willpower(
    sheet: &mut StorytellerSheet,
    amount: u32,
    reason: GainReason,
    events: &mut Vec<Event>,
) {
    let was_zero = sheet.willpower().current == 0;
    let wp = sheet.willpower_mut();
    let room = wp.permanent.saturating_sub(wp.current);
    let gained = u8::try_from(amount.min(u32::from(room))).unwrap_or(room);
    wp.current += gained;
    let current = wp.current;
    events.push(Event::WillpowerGained {
        amount: gained,
        current,
        reason,
    });
    if was_zero && current > 0 {
        sheet.set_incapacitation_deferred(false);
        events.push(Event::NoLongerIncapacitated);
    }
}

/// Starts a new turn for a character: the once-per-turn ST-12 spend is
/// available again. A pending "ignore wounds" stays for the next action.
pub fn start_turn(sheet: &mut StorytellerSheet) -> Vec<Event> {
    let pending = sheet.ignores_wounds_next_action();
    sheet.set_wound_flags(false, pending);
    vec![Event::TurnStarted]
}

/// True when [`spend_to_ignore_wounds`] would succeed now (for showing its button).
pub fn can_spend_to_ignore_wounds(sheet: &StorytellerSheet) -> bool {
    !sheet.incapacitated()
        && !sheet.wp_wound_ignore_used_this_turn()
        && !sheet.ignores_wounds_next_action()
        && !sheet.wound_penalty().is_none()
        && sheet.willpower().current >= 1
}

/// ST-12: once per turn, spend 1 willpower so the next action ignores the
/// wound penalty (crippled limbs still cannot be used; the bot does not track
/// them). If this takes willpower to 0, incapacitation waits until that
/// action is done.
pub fn spend_to_ignore_wounds(sheet: &mut StorytellerSheet) -> Result<Vec<Event>, RuleError> {
    ensure(!sheet.incapacitated(), || {
        "The character is incapacitated (0 willpower) and cannot act.".to_string()
    })?;
    ensure(!sheet.wp_wound_ignore_used_this_turn(), || {
        "Willpower can ignore wounds only once per turn.".to_string()
    })?;
    ensure(!sheet.ignores_wounds_next_action(), || {
        "The next action already ignores wound penalties.".to_string()
    })?;
    ensure(!sheet.wound_penalty().is_none(), || {
        "There is no wound penalty to ignore.".to_string()
    })?;
    let current = sheet.willpower().current;
    ensure(current >= 1, || {
        "You have no willpower left to spend.".to_string()
    })?;
    let after = current - 1;
    sheet.willpower_mut().current = after;
    sheet.set_wound_flags(true, true);
    let mut events = vec![Event::WillpowerSpent {
        purpose: SpendPurpose::IgnoreWounds,
        current: after,
    }];
    if after == 0 {
        sheet.set_incapacitation_deferred(true);
        events.push(Event::IncapacitationDeferred);
    }
    Ok(events)
}

/// ST-14: a day of recovery in a safe, comfortable place: +1 willpower,
/// never above permanent (the storyteller decides whether the place counts).
pub fn recover_daily(sheet: &mut StorytellerSheet) -> Vec<Event> {
    let mut events = Vec::new();
    gain_willpower(sheet, 1, GainReason::Daily, &mut events);
    events
}

/// ST-14, in the spec's order: a day of active rest is the day's +1
/// ([`recover_daily`]) first, then the difficulty-8 willpower roll. Call
/// this after the +1: the roll is made only while willpower is below
/// permanent. At permanent its successes could add nothing and its botches
/// could only take willpower away, so it is not rolled.
pub fn active_rest_rolls(sheet: &StorytellerSheet) -> bool {
    let w = sheet.willpower();
    w.current < w.permanent
}

/// ST-13: an incapacitated character regains the first dot alone once out of
/// direct threat and out of combat for a full turn (the storyteller judges that).
pub fn recover_first_dot(sheet: &mut StorytellerSheet) -> Result<Vec<Event>, RuleError> {
    ensure(sheet.willpower().current == 0, || {
        "Only a character with 0 willpower regains a first dot this way.".to_string()
    })?;
    let mut events = Vec::new();
    gain_willpower(sheet, 1, GainReason::FirstDot, &mut events);
    Ok(events)
}

/// `/st recover`'s choice: the first dot back at 0 willpower
/// ([`recover_first_dot`], ST-13) when `first_dot`, else a day's
/// recovery ([`recover_daily`], ST-14).
pub fn recover(sheet: &mut StorytellerSheet, first_dot: bool) -> Result<Vec<Event>, RuleError> {
    if first_dot {
        recover_first_dot(sheet)
    } else {
        Ok(recover_daily(sheet))
    }
}

/// ST-13: `helper` spends 1 of their own willpower to bring the incapacitated
/// `target` back to 1 (the storyteller's call, usually after roleplay).
/// Events: the helper's spend (and [`Event::HelperIncapacitated`] if that was
/// their last dot), then the target's gain.
pub fn revive(
    helper: &mut StorytellerSheet,
    target: &mut StorytellerSheet,
) -> Result<Vec<Event>, RuleError> {
    ensure(target.incapacitated(), || {
        "Only an incapacitated character (0 willpower) can be brought back.".to_string()
    })?;
    ensure(!helper.incapacitated(), || {
        "An incapacitated character cannot help anyone.".to_string()
    })?;
    let current = helper.willpower().current;
    ensure(current >= 1, || {
        "You have no willpower left to spend.".to_string()
    })?;
    let after = current - 1;
    helper.willpower_mut().current = after;
    let mut events = vec![Event::WillpowerSpent {
        purpose: SpendPurpose::Revive,
        current: after,
    }];
    if after == 0 {
        helper.set_incapacitation_deferred(false);
        events.push(Event::HelperIncapacitated);
    }
    gain_willpower(target, 1, GainReason::Revived, &mut events);
    Ok(events)
}

/// True when buying a success (ST-11) is allowed and raises the roll: it
/// did not botch, current willpower is at least 2, and the automatic
/// successes (current − 1) are more than the roll already has. A purchase
/// that would lower or merely repeat the result is never offered.
pub fn buying_raises(outcome: Outcome, current: u8) -> bool {
    let has = match outcome {
        Outcome::Botch { .. } => return false,
        Outcome::Failure => 0,
        Outcome::Success { successes } => successes,
    };
    current >= 2 && u32::from(current - 1) > has
}
