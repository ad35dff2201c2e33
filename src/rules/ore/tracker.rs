//! Virtual Veil's combat tracker as a pure state machine (VV-9..VV-14,
//! issue 15), over the shared turn order [`Turns`].
//!
//! A fight starts in [`Phase::Setup`] while combatants join. **Begin**
//! rolls the Prediction phase (Wit → Outthink) and the Initiative phase
//! (Agility, or Precision in cosmOS) for everyone ([`roll_order`], ties per
//! `vv_tie_break`, A-O14), and round 1 opens with the **Call phase**: in
//! ascending Outthink each combatant calls a stat and rolls it into its
//! register. Then the **Resolution phase** runs in Initiative order
//! (A-O15), one turn each; a combatant whose Outthink beats the acting
//! one's Initiative may react (A-O16). After the last turn the fight waits
//! in [`Phase::End`] until the Compiler finalises the round: every sheet's
//! End phase runs (Fault check, pending incapacitation, −1 Power ends,
//! A-O12, A-O19), incapacitated combatants are put out of the turns, and
//! the next round's Call phase begins.
//!
//! Player characters' sheets live outside the fight (the application passes
//! them in by seat id); the Compiler's NPCs and mobs keep their sheet in
//! their seat.

use std::collections::BTreeMap;

use rand::Rng;
use serde::{Deserialize, Serialize};

use super::combat::{can_react, movement, prediction_works, roll_order, Entrant, OrderKind};
use super::events::OreEvent;
use super::settings::{InitiativeOrder, OreSettings};
use super::sheet::{OreSheet, Stat, World};
use crate::rules::turns::{Seat, Turns};
use crate::rules::RuleError;

/// Lines kept in the fight's log (besides Injury lines).
pub const LOG_LINES: usize = 6;
/// The start of a log line about an Injury: such lines are never dropped
/// for newer ones ([`Fight::note_injury`]), up to [`MAX_INJURY_LINES`].
pub const INJURY_MARK: &str = "🩸 ";
/// The most Injury lines the log keeps (every entity is out after its
/// fourth Injury, so a fight of 40 seats stays within this).
pub const MAX_INJURY_LINES: usize = 160;

/// Where the round stands.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Phase {
    /// Combatants join; nothing is rolled yet.
    Setup,
    /// In ascending Outthink, each combatant calls a stat and rolls it.
    Call,
    /// In Initiative order, each combatant takes its turn.
    Resolution,
    /// Every turn is taken: the Compiler finalises the round.
    End,
}

impl Phase {
    /// The refusal of this phase's one action (Begin, a call, a turn's end,
    /// the round's end) tried in another phase.
    fn refusal(self) -> &'static str {
        match self {
            Phase::Setup => "The fight has already begun.",
            Phase::Call => "Stats are called in the Call phase only.",
            Phase::Resolution => "Turns are taken in the Resolution phase.",
            Phase::End => "The round ends once every combatant has taken their turn.",
        }
    }
}

/// A combatant's Called Stat roll this round.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum Register {
    /// A register posted as a Virtual Veil roll with this session id (its
    /// message carries the buttons): a player character's, or a
    /// quick-added NPC's acting on the sheet in its seat.
    Linked {
        /// The roll's session id.
        session: i64,
        /// The faces the call rolled (shown on the tracker).
        #[serde(default, skip_serializing_if = "Vec::is_empty")]
        faces: Vec<u32>,
        /// The Error Dice rolled with the call (A-O13), shown beside them.
        #[serde(default, skip_serializing_if = "Vec::is_empty")]
        error_dice: Vec<u32>,
    },
    /// A register rolled on the tracker, with no message: an NPC's call
    /// that rolled no dice (nothing to act with).
    Rolled {
        /// The faces.
        faces: Vec<u32>,
        /// The Error Dice rolled with the call (A-O13): an injured NPC's,
        /// as a player's roll has them.
        #[serde(default, skip_serializing_if = "Vec::is_empty")]
        error_dice: Vec<u32>,
    },
}

impl Register {
    /// The faces the call rolled and the Error Dice rolled with them
    /// (A-O13), as the tracker shows them; `None` for a linked register
    /// that kept no faces (one recorded before they were kept).
    pub fn rolled(&self) -> Option<(&[u32], &[u32])> {
        match self {
            Register::Rolled { faces, error_dice } => Some((faces, error_dice)),
            Register::Linked {
                faces, error_dice, ..
            } if !faces.is_empty() => Some((faces, error_dice)),
            Register::Linked { .. } => None,
        }
    }
}

/// What the tracker keeps per seat.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Fighter {
    /// The Outthink value (Prediction phase), once rolled.
    pub outthink: Option<u32>,
    /// The Initiative value, once rolled.
    pub initiative: Option<u32>,
    /// Breaks equal Outthink values in the order the roll ranked them
    /// (higher goes first); late joiners get 0.
    #[serde(default)]
    pub outthink_tie: u32,
    /// Breaks equal Initiative values likewise.
    #[serde(default)]
    pub initiative_tie: u32,
    /// The Prediction roll's faces (Wit), once rolled.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub outthink_dice: Vec<u32>,
    /// The Initiative roll's faces, once rolled.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub initiative_dice: Vec<u32>,
    /// This round's Called Stat.
    pub called: Option<Stat>,
    /// This round's register.
    pub register: Option<Register>,
    /// Reactions taken this round.
    #[serde(default)]
    pub reactions: u32,
    /// An NPC's or mob's sheet (none for a player character, whose sheet is
    /// the character's).
    pub npc: Option<OreSheet>,
}

impl Fighter {
    /// A player character's seat data.
    pub fn pc() -> Self {
        Fighter {
            outthink: None,
            initiative: None,
            outthink_tie: 0,
            initiative_tie: 0,
            outthink_dice: Vec::new(),
            initiative_dice: Vec::new(),
            called: None,
            register: None,
            reactions: 0,
            npc: None,
        }
    }

    /// An NPC's or mob's seat data with its sheet.
    pub fn npc(sheet: OreSheet) -> Self {
        Fighter {
            npc: Some(sheet),
            ..Fighter::pc()
        }
    }
}

/// When a register may act ([`Fight::register_timing`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Timing {
    /// On its entity's own turn.
    OwnTurn,
    /// As its entity's Reaction on another's turn (A-O16).
    Reaction,
}

/// The sheets of the player characters in a fight, by seat id.
pub type Sheets = BTreeMap<u32, OreSheet>;

/// The sheet of a seat: its own (an NPC) or the player character's.
pub fn sheet_of<'a>(seat: &'a Seat<Fighter>, pcs: &'a Sheets) -> Option<&'a OreSheet> {
    seat.data.npc.as_ref().or_else(|| pcs.get(&seat.id))
}

/// One combatant's End phase.
#[derive(Debug, Clone, PartialEq)]
pub struct EndOfRound {
    /// The seat.
    pub seat: u32,
    /// What its sheet's End phase did.
    pub events: Vec<OreEvent>,
    /// It is now out of the turns (incapacitated).
    pub out: bool,
}

/// A whole fight.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Fight {
    /// The seats, whose turn it is, and the round.
    pub turns: Turns<Fighter>,
    /// The phase.
    pub phase: Phase,
    /// Where it happens (picks the Initiative stat).
    pub world: World,
    /// The last few things that happened, newest last.
    pub log: Vec<String>,
    /// The direction of the Resolution order (`vv_initiative_order`,
    /// A-O15), taken from the settings at Begin and at each End phase.
    #[serde(default)]
    pub order: InitiativeOrder,
}

impl Fight {
    /// A fight in its setup, before anyone rolled.
    pub fn new(world: World) -> Self {
        Fight {
            turns: Turns::new(),
            phase: Phase::Setup,
            world,
            log: Vec::new(),
            order: InitiativeOrder::default(),
        }
    }

    /// The stat Initiative uses here: Agility, or Precision in cosmOS (VV-10).
    pub fn initiative_stat(&self) -> Stat {
        self.world.initiative_stat()
    }

    /// Adds a line to the log, keeping the last [`LOG_LINES`] besides the
    /// Injury lines ([`Fight::note_injury`]), which stay.
    pub fn note(&mut self, line: impl Into<String>) {
        self.log.push(line.into());
        let injury = |l: &String| l.starts_with(INJURY_MARK);
        while self.log.iter().filter(|l| !injury(l)).count() > LOG_LINES {
            match self.log.iter().position(|l| !injury(l)) {
                Some(k) => self.log.remove(k),
                None => break,
            };
        }
        while self.log.iter().filter(|l| injury(l)).count() > MAX_INJURY_LINES {
            match self.log.iter().position(injury) {
                Some(k) => self.log.remove(k),
                None => break,
            };
        }
    }

    /// Adds a line about an Injury to the log: it is never dropped for
    /// newer lines (issue 29 item 6).
    pub fn note_injury(&mut self, line: impl AsRef<str>) {
        self.note(format!("{INJURY_MARK}{}", line.as_ref()));
    }

    /// Whether the fight is in `phase`, the time of that phase's action
    /// (VV-11): the refusal names when the action is taken.
    pub fn require(&self, phase: Phase) -> Result<(), RuleError> {
        if self.phase == phase {
            Ok(())
        } else {
            Err(RuleError::new(phase.refusal()))
        }
    }

    /// True once Outthink and Initiative have been rolled (after Begin).
    pub fn begun(&self) -> bool {
        self.phase != Phase::Setup
    }

    /// Rolls Outthink and Initiative for the seats in `ids` (VV-10) and
    /// records them on the seats and on the player characters' sheets in
    /// `pcs` (`combat.outthink`, `combat.initiative`); tie-breaks rank them
    /// among themselves (A-O14).
    fn roll_for<R: Rng + ?Sized>(
        &mut self,
        ids: &[u32],
        pcs: &mut Sheets,
        settings: &OreSettings,
        rng: &mut R,
    ) -> Result<Vec<super::combat::OrderRoll>, RuleError> {
        let mut rolls = Vec::new();
        for kind in [OrderKind::Outthink, OrderKind::Initiative] {
            let mut entrants = Vec::new();
            for id in ids {
                let seat = self
                    .turns
                    .seat(*id)
                    .ok_or_else(|| RuleError::new("That combatant is not in the order."))?;
                let sheet = sheet_of(seat, pcs).ok_or_else(|| {
                    RuleError::new(format!("{}'s sheet could not be read.", seat.shown()))
                })?;
                entrants.push(Entrant::rolling(
                    i64::from(seat.id),
                    sheet,
                    kind.stat(self.world),
                ));
            }
            let roll = roll_order(kind, &entrants, settings, rng)?;
            let n = u32::try_from(roll.ranking.len()).unwrap_or(u32::MAX);
            for (pos, id) in roll.ranking.iter().enumerate() {
                let tie = n.saturating_sub(u32::try_from(pos).unwrap_or(u32::MAX));
                let value = roll.value_of(*id);
                let faces = roll
                    .entries
                    .iter()
                    .find(|e| e.id == *id)
                    .map(|e| e.faces.clone())
                    .unwrap_or_default();
                let Ok(seat_id) = u32::try_from(*id) else {
                    continue;
                };
                if let Some(sheet) = pcs.get_mut(&seat_id) {
                    roll.record_on(*id, sheet);
                }
                let Some(seat) = self.turns.seat_mut(seat_id) else {
                    continue;
                };
                match kind {
                    OrderKind::Outthink => {
                        seat.data.outthink = value;
                        seat.data.outthink_tie = tie;
                        seat.data.outthink_dice = faces;
                    }
                    OrderKind::Initiative => {
                        seat.data.initiative = value;
                        seat.data.initiative_tie = tie;
                        seat.data.initiative_dice = faces;
                    }
                }
            }
            rolls.push(roll);
        }
        Ok(rolls)
    }

    /// Begin: the Prediction and Initiative phases for everyone, then round
    /// 1's Call phase. Only in the setup, with at least one combatant. The
    /// player characters' sheets in `pcs` keep their values (VV-10).
    pub fn begin<R: Rng + ?Sized>(
        &mut self,
        pcs: &mut Sheets,
        settings: &OreSettings,
        rng: &mut R,
    ) -> Result<Vec<super::combat::OrderRoll>, RuleError> {
        self.require(Phase::Setup)?;
        if self.turns.active().next().is_none() {
            return Err(RuleError::new(
                "No one is in the fight yet: players press **Join** on the tracker, the Compiler seats anyone with `/vv-gm combat join` and adds NPCs with `/vv-gm combat add`.",
            ));
        }
        self.order = settings.initiative_order;
        let ids: Vec<u32> = self.turns.seats.iter().map(|s| s.id).collect();
        let rolls = self.roll_for(&ids, pcs, settings, rng)?;
        self.turns.next_round()?;
        self.start_call();
        self.note("Prediction and Initiative rolled: round 1 begins.");
        Ok(rolls)
    }

    /// Rolls Outthink and Initiative for one seat that joined after Begin
    /// (kept on its sheet in `pcs` when it is a player character's). It
    /// takes its place in the orders (losing ties to those already ranked);
    /// whose turn it is does not change.
    pub fn roll_late<R: Rng + ?Sized>(
        &mut self,
        id: u32,
        pcs: &mut Sheets,
        settings: &OreSettings,
        rng: &mut R,
    ) -> Result<(), RuleError> {
        self.roll_for(&[id], pcs, settings, rng)?;
        if let Some(seat) = self.turns.seat_mut(id) {
            seat.data.outthink_tie = 0;
            seat.data.initiative_tie = 0;
        }
        self.reorder();
        Ok(())
    }

    fn outthink_key(s: &Seat<Fighter>) -> (u32, u32) {
        (s.data.outthink.unwrap_or(0), s.data.outthink_tie)
    }

    fn initiative_key(s: &Seat<Fighter>) -> (u32, u32) {
        (s.data.initiative.unwrap_or(0), s.data.initiative_tie)
    }

    /// Puts the seats in the order of the phase: ascending Outthink for the
    /// Call phase, Initiative order for the rest (A-O15).
    fn reorder(&mut self) {
        match self.phase {
            Phase::Setup => {}
            Phase::Call => self.turns.order_by(Self::outthink_key),
            Phase::Resolution | Phase::End => match self.order {
                InitiativeOrder::Descending => self
                    .turns
                    .order_by(|s| std::cmp::Reverse(Self::initiative_key(s))),
                InitiativeOrder::Ascending => self.turns.order_by(Self::initiative_key),
            },
        }
    }

    fn start_call(&mut self) {
        self.phase = Phase::Call;
        self.reorder();
        if self.turns.begin_pass().is_none() {
            self.phase = Phase::End;
        }
    }

    fn start_resolution(&mut self) {
        self.phase = Phase::Resolution;
        self.reorder();
        if self.turns.begin_pass().is_none() {
            self.phase = Phase::End;
        }
    }

    /// The seat whose turn it is in the Call or Resolution phase.
    pub fn acting(&self) -> Option<&Seat<Fighter>> {
        match self.phase {
            Phase::Call | Phase::Resolution => self.turns.current_seat(),
            Phase::Setup | Phase::End => None,
        }
    }

    /// The Call phase: the acting seat calls `stat` and its register is
    /// `register` (VV-11, A-O24). The turn passes on; after the last call
    /// the Resolution phase begins.
    pub fn call(&mut self, stat: Stat, register: Register) -> Result<String, RuleError> {
        self.require(Phase::Call)?;
        let id = self
            .turns
            .current
            .ok_or_else(|| RuleError::new("No one is calling now."))?;
        let seat = self
            .turns
            .seat_mut(id)
            .ok_or_else(|| RuleError::new("That combatant is not in the order."))?;
        seat.data.called = Some(stat);
        seat.data.register = Some(register);
        let line = format!("{} calls {}.", seat.shown(), stat.name());
        self.note(line.clone());
        if self.turns.advance().is_none() {
            self.start_resolution();
        }
        Ok(line)
    }

    /// The Resolution phase: the acting seat ends its turn. After the last
    /// turn the fight waits in the End phase.
    pub fn next_turn(&mut self) -> Result<(), RuleError> {
        self.require(Phase::Resolution)?;
        if let Some(s) = self.turns.current_seat() {
            let line = format!("{} ends their turn.", s.shown());
            self.note(line);
        }
        if self.turns.advance().is_none() {
            self.phase = Phase::End;
            self.note("Every turn is taken: End phase.");
        }
        Ok(())
    }

    /// The seats that may react now (VV-11, A-O16): in the turns, not the
    /// acting one, with an Outthink higher than the acting seat's Initiative.
    pub fn reactors(&self) -> Vec<&Seat<Fighter>> {
        if self.phase != Phase::Resolution {
            return Vec::new();
        }
        let Some(acting) = self.turns.current_seat() else {
            return Vec::new();
        };
        let init = acting.data.initiative.unwrap_or(0);
        self.turns
            .active()
            .filter(|s| s.id != acting.id)
            .filter(|s| s.data.outthink.is_some_and(|o| can_react(o, init)))
            .collect()
    }

    /// Why seat `id` may not react now (VV-11, A-O16), or `None` if it may:
    /// the refusal names the seat's own Outthink beside the acting seat's
    /// Initiative, and says so plainly on the seat's own turn or when it is
    /// out of the fight.
    pub fn reaction_refusal(&self, id: u32) -> Option<String> {
        if self.phase != Phase::Resolution {
            return Some("Reactions happen during the Resolution phase.".into());
        }
        let Some(seat) = self.turns.seat(id) else {
            return Some("That combatant is no longer in the fight.".into());
        };
        let name = seat.shown();
        if seat.out {
            return Some(format!("{name} is out of the fight and cannot react."));
        }
        let Some(acting) = self.turns.current_seat() else {
            return Some("No one is acting now.".into());
        };
        if acting.id == id {
            return Some(format!(
                "It is {name}'s own turn: a Reaction is taken on another's turn."
            ));
        }
        let init = acting.data.initiative.unwrap_or(0);
        let outthink = seat.data.outthink.unwrap_or(0);
        if can_react(outthink, init) {
            return None;
        }
        Some(format!(
            "{name} cannot react now: a reaction needs an Outthink higher than {}'s Initiative ({init}); {name}'s Outthink is {outthink}.",
            acting.shown()
        ))
    }

    /// Whether seat `id`'s register may act now (VV-11, A-O16): on its own
    /// turn in the Resolution phase, or as its Reaction on another's turn
    /// when its Outthink is higher than the acting Initiative. The refusal
    /// says which would do.
    pub fn register_timing(&self, id: u32) -> Result<Timing, RuleError> {
        let name = self
            .turns
            .seat(id)
            .map_or_else(|| "This combatant".to_string(), |s| s.shown());
        match self.phase {
            Phase::Setup | Phase::Call => Err(RuleError::new(format!(
                "It is the Call phase: {name}'s register acts on {name}'s turn in the Resolution phase, or as a Reaction."
            ))),
            Phase::End => Err(RuleError::new(format!(
                "Every turn of round {} is taken: {name}'s register acts no more this round.",
                self.turns.round
            ))),
            Phase::Resolution => {
                let seat = self
                    .turns
                    .seat(id)
                    .ok_or_else(|| RuleError::new("That combatant is no longer in the fight."))?;
                if seat.out {
                    return Err(RuleError::new(format!(
                        "{name} is out of the fight: their register cannot act."
                    )));
                }
                let acting = self
                    .turns
                    .current_seat()
                    .ok_or_else(|| RuleError::new("No one is acting now."))?;
                if acting.id == id {
                    return Ok(Timing::OwnTurn);
                }
                let init = acting.data.initiative.unwrap_or(0);
                let outthink = seat.data.outthink.unwrap_or(0);
                if can_react(outthink, init) {
                    return Ok(Timing::Reaction);
                }
                Err(RuleError::new(format!(
                    "It is {0}'s turn: {name}'s register acts on {name}'s own turn, or as a Reaction with an Outthink higher than {0}'s Initiative ({init}); {name}'s Outthink is {outthink}.",
                    acting.shown()
                )))
            }
        }
    }

    /// A reaction out of turn by seat `id` (VV-11, A-O16).
    pub fn react(&mut self, id: u32) -> Result<String, RuleError> {
        if let Some(refusal) = self.reaction_refusal(id) {
            return Err(RuleError::new(refusal));
        }
        let acting = self
            .turns
            .current_seat()
            .ok_or_else(|| RuleError::new("No one is acting now."))?;
        let (acting_name, init) = (acting.shown(), acting.data.initiative.unwrap_or(0));
        let seat = self
            .turns
            .seat_mut(id)
            .ok_or_else(|| RuleError::new("That combatant is not in the order."))?;
        seat.data.reactions = seat.data.reactions.saturating_add(1);
        let line = format!(
            "↩ {} reacts during {acting_name}'s turn (Outthink {} > Initiative {init}).",
            seat.shown(),
            seat.data.outthink.unwrap_or(0)
        );
        self.note(line.clone());
        Ok(line)
    }

    /// The seats a Prediction move (Sneak Attack, Dodge, Parry…) by `id`
    /// works against: those with a lower Outthink (VV-11).
    pub fn predictable_by(&self, id: u32) -> Vec<&Seat<Fighter>> {
        let Some(me) = self.turns.seat(id).and_then(|s| s.data.outthink) else {
            return Vec::new();
        };
        self.turns
            .active()
            .filter(|s| s.id != id)
            .filter(|s| s.data.outthink.is_some_and(|o| prediction_works(me, o)))
            .collect()
    }

    /// The End phase (VV-11): every sheet's End phase (A-O12, A-O19),
    /// registers cleared, incapacitated combatants out of the turns; then
    /// the next round's Call phase. `pcs` are changed in place; the caller
    /// logs what happened ([`EndOfRound`]).
    pub fn end_round(
        &mut self,
        pcs: &mut Sheets,
        settings: &OreSettings,
    ) -> Result<Vec<EndOfRound>, RuleError> {
        self.require(Phase::End)?;
        self.order = settings.initiative_order;
        let mut out = Vec::new();
        let mut newly_out = Vec::new();
        for seat in self.turns.seats.iter_mut() {
            seat.data.called = None;
            seat.data.register = None;
            seat.data.reactions = 0;
            let sheet = match seat.data.npc.as_mut() {
                Some(s) => s,
                None => match pcs.get_mut(&seat.id) {
                    Some(s) => s,
                    None => continue,
                },
            };
            let events = sheet.end_of_round(settings);
            let down = sheet.conditions.incapacitated() && !seat.out;
            if down {
                newly_out.push(seat.id);
            }
            out.push(EndOfRound {
                seat: seat.id,
                events,
                out: down,
            });
        }
        for id in &newly_out {
            self.turns.set_out(*id, true)?;
        }
        self.turns.next_round()?;
        self.start_call();
        Ok(out)
    }

    /// Puts a seat out at once if its sheet is incapacitated now (a
    /// non-living entity at 0 Vitality, a mental break, …); true if it was.
    pub fn settle(&mut self, id: u32, sheet: &OreSheet) -> Result<bool, RuleError> {
        let Some(seat) = self.turns.seat(id) else {
            return Ok(false);
        };
        if seat.out || !sheet.conditions.incapacitated() {
            return Ok(false);
        }
        let name = seat.shown();
        self.turns.set_out(id, true)?;
        self.note(format!("✖ {name} is incapacitated."));
        self.after_turn_change();
        Ok(true)
    }

    /// The rolls posted as this round's registers: (seat, roll session).
    pub fn linked_registers(&self) -> Vec<(u32, i64)> {
        self.turns
            .seats
            .iter()
            .filter_map(|s| match s.data.register {
                Some(Register::Linked { session, .. }) => Some((s.id, session)),
                _ => None,
            })
            .collect()
    }

    /// Ends the fight (VV-14): combat ends for every sheet in it, the
    /// player characters' in `pcs` and the NPCs' in their seats (their
    /// Fault dice go when it ends in a stable place). The caller closes the
    /// registers ([`Fight::linked_registers`], read before).
    pub fn end(&mut self, stable: bool, pcs: &mut Sheets) {
        for sheet in pcs.values_mut() {
            sheet.end_combat(stable);
        }
        for seat in self.turns.seats.iter_mut() {
            if let Some(npc) = seat.data.npc.as_mut() {
                npc.end_combat(stable);
            }
        }
        self.note(format!(
            "🏁 Combat ends{}.",
            if stable { " in a stable place" } else { "" }
        ));
    }

    /// Removes a seat; the turn passes on if it was theirs.
    pub fn remove(&mut self, id: u32) -> Result<Seat<Fighter>, RuleError> {
        let seat = self.turns.remove(id)?;
        self.note(format!("{} leaves the fight.", seat.shown()));
        self.after_turn_change();
        Ok(seat)
    }

    /// After the current seat left or went out mid-pass: if the pass is
    /// over, the phase moves on.
    fn after_turn_change(&mut self) {
        if self.turns.current.is_some() {
            return;
        }
        match self.phase {
            Phase::Call => self.start_resolution(),
            Phase::Resolution => self.phase = Phase::End,
            Phase::Setup | Phase::End => {}
        }
    }
}

/// Squares a combatant may move this turn (VV-9): Agility, +⌊Agility/2⌋
/// when Agility is its Called Stat; each Minor action adds one more.
pub fn moves(sheet: &OreSheet, called: Option<Stat>) -> u32 {
    movement(sheet.stats.agility, 0, called == Some(Stat::Agility))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::ore::sheet::{Damageable, Stats};
    use rand::{rngs::StdRng, SeedableRng};

    fn stats(wit: u32, agility: u32, precision: u32) -> Stats {
        let mut s = Stats::all(2);
        s.wit = wit;
        s.agility = agility;
        s.precision = precision;
        s.vitality = 4;
        s
    }

    /// Ada (a player's), a goblin mob and a drone NPC, begun with seed 7.
    fn fight() -> (Fight, Sheets) {
        let mut f = Fight::new(World::Physical);
        let ada = f
            .turns
            .add("Ada", Some(10), Some(100), Fighter::pc())
            .unwrap();
        f.turns
            .add(
                "Goblin",
                None,
                None,
                Fighter::npc(OreSheet::mob(stats(3, 5, 2), 2)),
            )
            .unwrap();
        f.turns
            .add(
                "Drone",
                None,
                None,
                Fighter::npc(OreSheet::new(stats(6, 2, 6))),
            )
            .unwrap();
        let mut pcs = Sheets::new();
        pcs.insert(ada, OreSheet::new(stats(5, 4, 3)));
        (f, pcs)
    }

    /// An empty fight cannot begin; the refusal names how players join
    /// (the tracker's **Join**, issue 31: `/vv combat join` is gone).
    #[test]
    fn a_o13_a_register_shows_its_rolled_faces_and_error_dice() {
        let rolled = Register::Rolled {
            faces: vec![],
            error_dice: vec![3],
        };
        assert_eq!(rolled.rolled(), Some((&[][..], &[3][..])));
        let linked = Register::Linked {
            session: 7,
            faces: vec![5, 5, 2],
            error_dice: vec![9, 1],
        };
        assert_eq!(linked.rolled(), Some((&[5, 5, 2][..], &[9, 1][..])));
        // A linked register recorded before its faces were kept shows none.
        let older = Register::Linked {
            session: 7,
            faces: vec![],
            error_dice: vec![],
        };
        assert_eq!(older.rolled(), None);
    }

    #[test]
    fn an_empty_fight_names_the_trackers_join() {
        let mut f = Fight::new(World::Physical);
        let e = f
            .begin(
                &mut Sheets::new(),
                &OreSettings::default(),
                &mut StdRng::seed_from_u64(1),
            )
            .unwrap_err();
        assert!(
            e.to_string().contains("press **Join** on the tracker"),
            "{e}"
        );
        assert!(!e.to_string().contains("/vv combat join"), "{e}");
    }

    /// Ending a fight ends combat on every sheet in it, the players' and
    /// the NPCs'; in a stable place their Fault dice go (VV-14). The
    /// registers linked to seats are listed for the caller to close.
    #[test]
    fn vv_14_ending_the_fight_ends_combat_for_every_sheet() {
        let (mut f, mut pcs) = begun();
        let drone = f.turns.by_name("Drone").unwrap().id;
        let ada = f.turns.by_name("Ada").unwrap().id;
        f.turns.seat_mut(ada).unwrap().data.register = Some(Register::Linked {
            session: 41,
            faces: vec![3],
            error_dice: vec![],
        });
        assert_eq!(f.linked_registers(), vec![(ada, 41)]);
        pcs.get_mut(&ada).unwrap().fault_dice = vec![2];
        let npc = f.turns.seat_mut(drone).unwrap().data.npc.as_mut().unwrap();
        npc.fault_dice = vec![5];
        npc.combat.outthink = Some(20);
        let mut wounded = f.clone();
        let mut kept = pcs.clone();
        f.end(true, &mut pcs);
        assert!(pcs[&ada].fault_dice.is_empty());
        let npc = f.turns.seat(drone).unwrap().data.npc.as_ref().unwrap();
        assert!(npc.fault_dice.is_empty() && npc.combat.outthink.is_none());
        assert_eq!(
            f.log.last().map(String::as_str),
            Some("🏁 Combat ends in a stable place.")
        );
        wounded.end(false, &mut kept);
        assert_eq!(kept[&ada].fault_dice, vec![2]);
        assert_eq!(
            wounded.log.last().map(String::as_str),
            Some("🏁 Combat ends.")
        );
    }

    fn names(f: &Fight) -> Vec<&str> {
        f.turns.seats.iter().map(|s| s.name.as_str()).collect()
    }

    fn begun() -> (Fight, Sheets) {
        let (mut f, mut pcs) = fight();
        let s = OreSettings::default();
        f.begin(&mut pcs, &s, &mut StdRng::seed_from_u64(7))
            .unwrap();
        (f, pcs)
    }

    #[test]
    fn begin_rolls_outthink_and_initiative_and_opens_the_call_phase_lowest_outthink_first() {
        let (f, _) = begun();
        assert_eq!(f.phase, Phase::Call);
        assert_eq!(f.turns.round, 1);
        let outthink: Vec<u32> = f
            .turns
            .seats
            .iter()
            .map(|s| s.data.outthink.unwrap())
            .collect();
        assert!(outthink.windows(2).all(|w| w[0] <= w[1]), "{outthink:?}");
        assert!(f.turns.seats.iter().all(|s| s.data.initiative.is_some()));
        assert_eq!(f.acting().map(|s| s.id), Some(f.turns.seats[0].id));
        // The exact values of seed 7, so a change in the rolls shows.
        let got: Vec<(&str, u32, u32)> = f
            .turns
            .seats
            .iter()
            .map(|s| {
                (
                    s.name.as_str(),
                    s.data.outthink.unwrap(),
                    s.data.initiative.unwrap(),
                )
            })
            .collect();
        assert_eq!(got, SEED7);
    }

    const SEED7: [(&str, u32, u32); 3] = [("Goblin", 17, 24), ("Drone", 20, 21), ("Ada", 21, 18)];

    #[test]
    fn a_round_runs_call_then_resolution_then_end_and_the_next_call() {
        let (mut f, mut pcs) = begun();
        let s = OreSettings::default();
        assert!(f.next_turn().is_err(), "no turns in the Call phase");
        for k in 0..3 {
            let r = Register::Rolled {
                faces: vec![k + 1],
                error_dice: vec![],
            };
            f.call(Stat::Agility, r).unwrap();
        }
        assert_eq!(f.phase, Phase::Resolution);
        let init: Vec<(u32, u32)> = f.turns.seats.iter().map(Fight::initiative_key).collect();
        assert!(
            init.windows(2).all(|w| w[0] >= w[1]),
            "highest first: {init:?}"
        );
        assert!(f
            .call(
                Stat::Wit,
                Register::Rolled {
                    faces: vec![],
                    error_dice: vec![],
                }
            )
            .is_err());
        assert!(f.end_round(&mut pcs, &s).is_err(), "turns are not over");
        for _ in 0..3 {
            f.next_turn().unwrap();
        }
        assert_eq!(f.phase, Phase::End);
        assert_eq!(f.acting(), None);
        let ends = f.end_round(&mut pcs, &s).unwrap();
        assert_eq!(ends.len(), 3);
        assert_eq!(f.turns.round, 2);
        assert_eq!(f.phase, Phase::Call);
        assert!(f.turns.seats.iter().all(|s| s.data.register.is_none()));
        assert_eq!(pcs.values().next().unwrap().rounds_ended, 1);
        assert!(f.log.len() <= LOG_LINES);
    }

    #[test]
    fn ascending_initiative_reverses_the_resolution_order() {
        let (mut f, mut pcs) = fight();
        let mut s = OreSettings::default();
        s.set("vv_initiative_order", "ascending").unwrap();
        f.begin(&mut pcs, &s, &mut StdRng::seed_from_u64(7))
            .unwrap();
        for _ in 0..3 {
            f.call(
                Stat::Wit,
                Register::Rolled {
                    faces: vec![],
                    error_dice: vec![],
                },
            )
            .unwrap();
        }
        let init: Vec<(u32, u32)> = f.turns.seats.iter().map(Fight::initiative_key).collect();
        assert!(init.windows(2).all(|w| w[0] <= w[1]), "{init:?}");
    }

    #[test]
    fn reactions_need_an_outthink_above_the_acting_initiative() {
        let (mut f, _) = begun();
        for _ in 0..3 {
            f.call(
                Stat::Wit,
                Register::Rolled {
                    faces: vec![],
                    error_dice: vec![],
                },
            )
            .unwrap();
        }
        let acting = f.acting().unwrap().clone();
        let init = acting.data.initiative.unwrap();
        // Seed 7: the goblin acts first (Initiative 24); no one out-thinks
        // it, so Ada's Outthink is raised to show a reaction.
        assert!(f.reactors().is_empty());
        let ada = f.turns.by_name("Ada").unwrap().id;
        f.turns.seat_mut(ada).unwrap().data.outthink = Some(init + 1);
        for seat in f.turns.seats.clone() {
            let may = seat.id != acting.id && seat.data.outthink.unwrap() > init;
            assert_eq!(f.reactors().iter().any(|s| s.id == seat.id), may);
            assert_eq!(f.react(seat.id).is_ok(), may, "{}", seat.name);
        }
        assert_eq!(f.turns.seat(ada).unwrap().data.reactions, 1);
        assert!(f
            .log
            .last()
            .unwrap()
            .starts_with("↩ Ada reacts during Goblin's turn"));
        let err = f.react(acting.id).unwrap_err().message;
        assert_eq!(
            err,
            "It is Goblin's own turn: a Reaction is taken on another's turn."
        );
        assert_eq!(f.register_timing(acting.id), Ok(Timing::OwnTurn));
        assert_eq!(f.register_timing(ada), Ok(Timing::Reaction));
        let drone = f.turns.by_name("Drone").unwrap().id;
        assert_eq!(
            f.register_timing(drone).unwrap_err().message,
            format!("It is Goblin's turn: Drone's register acts on Drone's own turn, or as a Reaction with an Outthink higher than Goblin's Initiative ({init}); Drone's Outthink is 20.")
        );
    }

    #[test]
    fn prediction_works_against_lower_outthink_only() {
        let (f, _) = begun();
        let top = f.turns.seats.last().unwrap();
        let low = &f.turns.seats[0];
        let under: Vec<u32> = f.predictable_by(top.id).iter().map(|s| s.id).collect();
        if low.data.outthink < top.data.outthink {
            assert!(under.contains(&low.id));
        }
        assert!(f
            .predictable_by(low.id)
            .iter()
            .all(|s| s.data.outthink > low.data.outthink));
    }

    #[test]
    fn an_incapacitated_combatant_is_put_out_and_skipped() {
        let (mut f, mut pcs) = begun();
        let s = OreSettings::default();
        let goblin = f.turns.by_name("Goblin").unwrap().id;
        // The mob is not living: 0 Health puts it down at once.
        let mut rng = StdRng::seed_from_u64(1);
        let sheet = f.turns.seat_mut(goblin).unwrap().data.npc.as_mut().unwrap();
        sheet
            .take_damage(&s, Damageable::Vitality, 2, &mut rng)
            .unwrap();
        let sheet = sheet.clone();
        assert!(f.settle(goblin, &sheet).unwrap());
        assert!(f.turns.seat(goblin).unwrap().out);
        // Ada is living: 0 Vitality waits for the End phase.
        let ada = f.turns.by_name("Ada").unwrap().id;
        let ada_sheet = pcs.get_mut(&ada).unwrap();
        ada_sheet
            .take_damage(&s, Damageable::Vitality, 4, &mut rng)
            .unwrap();
        assert!(!f.settle(ada, &ada_sheet.clone()).unwrap());
        while f.phase == Phase::Call {
            f.call(
                Stat::Wit,
                Register::Rolled {
                    faces: vec![],
                    error_dice: vec![],
                },
            )
            .unwrap();
        }
        while f.phase == Phase::Resolution {
            assert_ne!(f.acting().unwrap().id, goblin, "the goblin is skipped");
            f.next_turn().unwrap();
        }
        let ends = f.end_round(&mut pcs, &s).unwrap();
        assert!(ends.iter().any(|e| e.seat == ada && e.out));
        assert!(f.turns.seat(ada).unwrap().out);
        assert_eq!(names(&f).len(), 3, "out seats stay listed");
        assert_eq!(f.turns.active().count(), 1);
    }

    #[test]
    fn removing_the_last_caller_moves_to_resolution() {
        let (mut f, _) = begun();
        f.call(
            Stat::Wit,
            Register::Rolled {
                faces: vec![],
                error_dice: vec![],
            },
        )
        .unwrap();
        f.call(
            Stat::Wit,
            Register::Rolled {
                faces: vec![],
                error_dice: vec![],
            },
        )
        .unwrap();
        let last = f.turns.current.unwrap();
        f.remove(last).unwrap();
        assert_eq!(f.phase, Phase::Resolution);
        assert_eq!(f.turns.seats.len(), 2);
    }

    #[test]
    fn a_late_joiner_is_rolled_and_placed_without_moving_the_turn() {
        let (mut f, mut pcs) = begun();
        let s = OreSettings::default();
        let current = f.turns.current;
        let id = f
            .turns
            .add(
                "Rat",
                None,
                None,
                Fighter::npc(OreSheet::mob(stats(1, 1, 1), 1)),
            )
            .unwrap();
        f.roll_late(id, &mut pcs, &s, &mut StdRng::seed_from_u64(2))
            .unwrap();
        assert!(f.turns.seat(id).unwrap().data.outthink.is_some());
        assert_eq!(f.turns.current, current);
        let keys: Vec<(u32, u32)> = f.turns.seats.iter().map(Fight::outthink_key).collect();
        assert!(keys.windows(2).all(|w| w[0] <= w[1]), "{keys:?}");
    }

    /// VV-10: the Outthink and Initiative a player character rolls at
    /// Begin, or on joining late, are kept on its sheet; an NPC's only in
    /// its seat.
    #[test]
    fn vv_10_begin_and_a_late_join_keep_the_values_on_the_player_sheets() {
        let (f, pcs) = begun();
        let ada = &f.turns.seats.iter().find(|s| s.name == "Ada").unwrap();
        let sheet = &pcs[&ada.id];
        assert_eq!(sheet.combat.outthink, ada.data.outthink);
        assert_eq!(sheet.combat.initiative, ada.data.initiative);
        assert!(sheet.combat.outthink.is_some() && sheet.combat.initiative.is_some());
        let (mut f, mut pcs) = begun();
        let bo = f
            .turns
            .add("Bo", Some(11), Some(101), Fighter::pc())
            .unwrap();
        pcs.insert(bo, OreSheet::new(stats(4, 4, 4)));
        let before = pcs.clone();
        f.roll_late(
            bo,
            &mut pcs,
            &OreSettings::default(),
            &mut StdRng::seed_from_u64(2),
        )
        .unwrap();
        let seat = f.turns.seat(bo).unwrap();
        assert_eq!(pcs[&bo].combat.outthink, seat.data.outthink);
        assert_eq!(pcs[&bo].combat.initiative, seat.data.initiative);
        assert!(pcs[&bo].combat.initiative.is_some());
        // The other sheets are left alone.
        pcs.remove(&bo);
        let mut others = before;
        others.remove(&bo);
        assert_eq!(pcs, others);
    }

    #[test]
    fn each_phase_action_is_refused_outside_its_phase_with_one_text_vv_11() {
        let (mut f, mut pcs) = fight();
        let s = OreSettings::default();
        let refusal = |r: Result<(), RuleError>| r.unwrap_err().message;
        assert!(f.require(Phase::Setup).is_ok());
        for (phase, text) in [
            (Phase::Call, "Stats are called in the Call phase only."),
            (
                Phase::Resolution,
                "Turns are taken in the Resolution phase.",
            ),
            (
                Phase::End,
                "The round ends once every combatant has taken their turn.",
            ),
        ] {
            assert_eq!(refusal(f.require(phase)), text);
        }
        assert_eq!(
            refusal(f.next_turn()),
            "Turns are taken in the Resolution phase."
        );
        f.begin(&mut pcs, &s, &mut StdRng::seed_from_u64(1))
            .unwrap();
        assert!(f.require(Phase::Call).is_ok());
        assert_eq!(
            refusal(f.require(Phase::Setup)),
            "The fight has already begun."
        );
        let err = f.end_round(&mut pcs, &s).unwrap_err().message;
        assert_eq!(
            err,
            "The round ends once every combatant has taken their turn."
        );
    }

    #[test]
    fn begin_needs_someone_and_happens_once() {
        let s = OreSettings::default();
        let mut f = Fight::new(World::CosmOS);
        assert_eq!(f.initiative_stat(), Stat::Precision);
        let mut rng = StdRng::seed_from_u64(1);
        assert!(f.begin(&mut Sheets::new(), &s, &mut rng).is_err());
        let (mut f, mut pcs) = begun();
        assert!(f.begin(&mut pcs, &s, &mut rng).is_err());
    }

    #[test]
    fn npc_calls_roll_the_stat_with_the_power_penalty_and_movement_follows_vv_9() {
        let s = OreSettings::default();
        let mut sheet = OreSheet::new(stats(3, 6, 2));
        let mut rng = StdRng::seed_from_u64(4);
        // An NPC's call is the usual roll of its sheet (issue 29 item 5).
        let dice = |sheet: &OreSheet, rng: &mut StdRng| {
            let (r, _) = crate::rules::ore::OreRoll::start(
                sheet,
                &s,
                crate::rules::Actor { id: 1, gm: true },
                crate::rules::ore::roll::RollRequest {
                    stat: Some(Stat::Agility),
                    dice: None,
                    label: None,
                },
                rng,
            )
            .unwrap();
            (r.natural.len(), r.error_dice.len())
        };
        assert_eq!(dice(&sheet, &mut rng), (6, 0));
        sheet.combat.power_penalty = true;
        assert_eq!(dice(&sheet, &mut rng), (5, 0));
        // A Minor and a Moderate Injury: 1 + 2 Error Dice (A-O13, sum).
        for width in [2, 3] {
            sheet.injuries.push(crate::rules::ore::sheet::Injury {
                severity: crate::rules::ore::sheet::Severity::from_width(width).unwrap(),
                healed: false,
                losses: None,
            });
        }
        assert_eq!(dice(&sheet, &mut rng), (5, 3));
        assert_eq!(moves(&sheet, Some(Stat::Agility)), 9);
        assert_eq!(moves(&sheet, Some(Stat::Wit)), 6);
        assert_eq!(moves(&sheet, None), 6);
    }
}
