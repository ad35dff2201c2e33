//! The Veracity fight as a pure state machine over the shared turn order
//! [`crate::rules::turns`] (spec §3.6, VR-21..VR-23):
//!
//! - side initiative (VR-22): the party leader's Light save decides which
//!   side acts first; the seats are then ordered by side, so one pass of the
//!   order is one round: the first side's turn, then the other's; within a
//!   side its characters act one after another (clockwise: the order they
//!   joined in);
//! - the surprise turn: each side's first turn, in round 1. Damage dealt then
//!   by the acting side bypasses HP, and a character the enemy could see when
//!   initiative was determined cannot act in it (its turn is skipped);
//! - AP (VR-21): at the start of each of its turns a combatant gets its
//!   AP (its Flesh slots, `vr_ap_basis`) back, and actions spend them;
//! - fleeing (VR-23), death and the referee's "out" take a combatant out of
//!   the order.
//!
//! The application keeps the sheets; it copies what the tracker shows and
//! needs (HP, Wounds, AP per turn, death) into each seat with
//! [`Fighter::sync`] before acting. NPCs the referee adds without a sheet
//! keep a small NPC [`Sheet`] in their seat.

use serde::{Deserialize, Serialize};

use super::initiative::{ApAction, Side, MAX_AP_COST};
use super::settings::VeracitySettings;
use super::sheet::{ItemKind, Sheet};
use super::stress::DamageConditions;
use crate::rules::turns::{Seat, Turns};
use crate::rules::RuleError;

/// How far a combatant moves in a turn (VR-21).
pub const MOVE_FEET: u32 = 20;
/// How many lines of the fight's log are kept.
pub const LOG_LINES: usize = 6;

/// Why a combatant left the order.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Gone {
    /// Escaped with a Flesh save (VR-23).
    Fled,
    /// Every Flesh slot holds a Wound (VR-17).
    Dead,
    /// Incapacitated, surrendered: the referee's call.
    Out,
}

/// What the referee marks on a combatant ([`Fight::mark`]; `None`:
/// unchanged).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Marks {
    /// Visible to the enemy (before initiative).
    pub visible: Option<bool>,
    /// Immobilised.
    pub immobilised: Option<bool>,
    /// Unsuspecting.
    pub unsuspecting: Option<bool>,
    /// Out of the fight (incapacitated, surrendered), or back in.
    pub out: Option<bool>,
}

/// What the tracker keeps per seat.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Fighter {
    /// Players (with their allies) or the enemies.
    pub side: Side,
    /// AP left this turn.
    pub ap: u32,
    /// AP at the start of each turn (from the sheet, `vr_ap_basis`).
    pub ap_max: u32,
    /// Current HP (copied from the sheet).
    pub hp: u32,
    /// Maximum HP.
    pub hp_max: u32,
    /// Wounds held.
    pub wounds: u32,
    /// Unlocked Flesh slots (death when all hold Wounds).
    pub flesh: u32,
    /// Visible to the enemy (the referee marks it before initiative).
    pub visible: bool,
    /// Was visible when initiative was determined: cannot act on its side's
    /// first turn.
    pub seen: bool,
    /// Immobilised: damage becomes Wounds.
    pub immobilised: bool,
    /// Unsuspecting: damage becomes Wounds.
    pub unsuspecting: bool,
    /// Why it left the order, if it did.
    pub gone: Option<Gone>,
    /// An NPC the referee added without a sheet: its sheet lives here.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub npc: Option<Sheet>,
}

impl Fighter {
    /// A new combatant of `side`, its numbers taken from `sheet`.
    pub fn new(side: Side, sheet: &Sheet, settings: &VeracitySettings) -> Fighter {
        let mut f = Fighter {
            side,
            ap: 0,
            ap_max: 0,
            hp: 0,
            hp_max: 0,
            wounds: 0,
            flesh: 0,
            visible: false,
            seen: false,
            immobilised: false,
            unsuspecting: false,
            gone: None,
            npc: None,
        };
        f.sync(sheet, settings);
        f
    }

    /// Copies HP, Wounds, Flesh slots and AP per turn from the sheet; a dead
    /// character is out of the order (returns true when it just died).
    pub fn sync(&mut self, sheet: &Sheet, settings: &VeracitySettings) -> bool {
        self.hp = sheet.hp_current();
        self.hp_max = sheet.hp_max();
        self.wounds = sheet.flesh().count(ItemKind::Wound);
        self.flesh = sheet.flesh().unlocked();
        self.ap_max = sheet.ap_max(settings);
        if sheet.is_dead() && self.gone != Some(Gone::Dead) {
            self.gone = Some(Gone::Dead);
            return true;
        }
        if !sheet.is_dead() && self.gone == Some(Gone::Dead) {
            // The referee brought the character back.
            self.gone = None;
        }
        false
    }
}

/// A side's name as the table says it.
pub fn side_name(side: Side) -> &'static str {
    match side {
        Side::Players => "Players",
        Side::Npcs => "Enemies",
    }
}

/// One fight: the order, the party leader, who acts first, and a short log.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Fight {
    /// The seats, ordered by side once initiative is set.
    pub turns: Turns<Fighter>,
    /// The party leader's seat (makes the initiative save).
    pub leader: u32,
    /// Which side acts first; `None` until initiative is rolled.
    pub first: Option<Side>,
    /// The turn that has begun (round, seat): its AP are refilled once.
    #[serde(default)]
    pub turn_of: Option<(u32, u32)>,
    /// The newest lines of what happened, oldest first.
    #[serde(default)]
    pub log: Vec<String>,
    /// The fight is over.
    #[serde(default)]
    pub ended: bool,
}

impl Fight {
    /// A fight in its setup, with the party leader seated on the players' side.
    pub fn new(
        leader: &str,
        owner: Option<i64>,
        character: Option<i64>,
        fighter: Fighter,
    ) -> Result<Fight, RuleError> {
        let mut turns = Turns::new();
        let id = turns.add(leader, owner, character, fighter)?;
        Ok(Fight {
            turns,
            leader: id,
            first: None,
            turn_of: None,
            log: Vec::new(),
            ended: false,
        })
    }

    /// Adds a line to the log, keeping the newest [`LOG_LINES`].
    pub fn note(&mut self, line: impl Into<String>) {
        self.log.push(line.into());
        if self.log.len() > LOG_LINES {
            let cut = self.log.len() - LOG_LINES;
            self.log.drain(..cut);
        }
    }

    /// True once initiative is rolled.
    pub fn started(&self) -> bool {
        self.first.is_some()
    }

    /// True during each side's first turn (round 1).
    pub fn surprise(&self) -> bool {
        self.started() && self.turns.round == 1
    }

    /// The side whose turn it is.
    pub fn acting_side(&self) -> Option<Side> {
        self.turns.current_seat().map(|s| s.data.side)
    }

    /// May this seat act now (in, and not seen during its side's first turn)?
    pub fn can_act(&self, seat: &Seat<Fighter>) -> bool {
        !(seat.out || (self.surprise() && seat.data.seen))
    }

    fn rank(first: Side, side: Side) -> u8 {
        u8::from(side != first)
    }

    /// Seats a combatant at the end of its side.
    pub fn add(
        &mut self,
        name: &str,
        owner: Option<i64>,
        character: Option<i64>,
        fighter: Fighter,
    ) -> Result<u32, RuleError> {
        if self.ended {
            return Err(RuleError::new("This fight is over."));
        }
        let id = self.turns.add(name, owner, character, fighter)?;
        if let Some(first) = self.first {
            self.turns.order_by(|s| Self::rank(first, s.data.side));
        }
        Ok(id)
    }

    /// The seat of this name, or a refusal.
    pub fn seat_named(&self, name: &str) -> Result<&Seat<Fighter>, RuleError> {
        self.turns.by_name(name).ok_or_else(|| {
            RuleError::new(format!("No one called `{}` is in this fight.", name.trim()))
        })
    }

    /// The seat of the character whose sheet is row `character`, if it
    /// sits in this fight (an NPC kept in the fight has none).
    pub fn seat_of(&self, character: i64) -> Option<&Seat<Fighter>> {
        self.turns
            .seats
            .iter()
            .find(|s| s.character == Some(character))
    }

    /// Sets initiative: `first` acts first. Who is visible now is seen for
    /// the surprise turn; the order is sorted by side and round 1 begins.
    pub fn set_initiative(&mut self, first: Side) -> Result<(), RuleError> {
        if self.ended {
            return Err(RuleError::new("This fight is over."));
        }
        if self.started() {
            return Err(RuleError::new("Initiative is already set for this fight."));
        }
        for s in &mut self.turns.seats {
            s.data.seen = s.data.visible;
        }
        self.first = Some(first);
        self.turns.order_by(|s| Self::rank(first, s.data.side));
        self.turns.next_round()?;
        self.note(format!(
            "Initiative: the {} act first",
            side_name(first).to_lowercase()
        ));
        self.settle();
        Ok(())
    }

    /// Moves the turn past seats that cannot act, into the next round when
    /// a pass ends, and begins the turn it lands on (its AP come back).
    pub fn settle(&mut self) {
        if !self.started() || self.ended {
            return;
        }
        let mut rounds = 0;
        loop {
            match self.turns.current_seat() {
                Some(s) if self.can_act(s) => break,
                Some(_) => {
                    self.turns.advance();
                }
                None => {
                    if rounds >= 2 || self.turns.active().next().is_none() {
                        return;
                    }
                    if self.turns.next_round().is_err() {
                        return;
                    }
                    rounds += 1;
                }
            }
        }
        let (round, id) = (self.turns.round, self.turns.current.unwrap_or(0));
        if self.turn_of == Some((round, id)) {
            return;
        }
        let side_changed = match (self.turn_of, self.turns.seat(id)) {
            (None, _) => true,
            (Some((r, prev)), Some(now)) => {
                r != round
                    || self
                        .turns
                        .seat(prev)
                        .is_none_or(|p| p.data.side != now.data.side)
            }
            _ => false,
        };
        self.turn_of = Some((round, id));
        let surprise = self.surprise();
        if let Some(s) = self.turns.seat_mut(id) {
            s.data.ap = s.data.ap_max;
            let side = s.data.side;
            if side_changed {
                self.note(format!(
                    "Round {round} · {}' turn{}",
                    side_name(side),
                    if surprise { " (surprise)" } else { "" }
                ));
            }
        }
    }

    /// Ends the current seat's turn; returns the seat whose turn it is now.
    pub fn end_turn(&mut self) -> Result<Option<u32>, RuleError> {
        self.require_running()?;
        if self.turns.current.is_none() {
            return Err(RuleError::new(
                "No one has the turn: every combatant is out.",
            ));
        }
        if self.turns.advance().is_none() {
            self.turns.next_round()?;
        }
        self.settle();
        Ok(self.turns.current)
    }

    /// The referee marks seat `id` (VR-22, VR-19): who the enemy can see
    /// only before initiative (it is then fixed for the surprise turn),
    /// immobilised, unsuspecting, out of the fight or back in (not the
    /// dead: only a sheet brought back to life returns). All or nothing.
    pub fn mark(&mut self, id: u32, marks: Marks) -> Result<(), RuleError> {
        let seat = self
            .turns
            .seat(id)
            .ok_or_else(|| RuleError::new("That combatant is not in the order."))?;
        if marks.visible.is_some() && self.started() {
            return Err(RuleError::new(
                "Initiative is set: who the enemy could see then is fixed for the surprise turn.",
            ));
        }
        let gone = seat.data.gone;
        if marks.out == Some(false) && gone == Some(Gone::Dead) {
            return Err(RuleError::new(format!(
                "{} is dead: only a sheet brought back to life returns.",
                seat.shown()
            )));
        }
        if let Some(s) = self.turns.seat_mut(id) {
            let d = &mut s.data;
            d.visible = marks.visible.unwrap_or(d.visible);
            d.immobilised = marks.immobilised.unwrap_or(d.immobilised);
            d.unsuspecting = marks.unsuspecting.unwrap_or(d.unsuspecting);
        }
        match (marks.out, gone) {
            (Some(true), None) => self.take_out(id, Gone::Out),
            (Some(false), Some(_)) => self.bring_back(id),
            _ => Ok(()),
        }
    }

    /// Refuses unless the fight runs: initiative set, not over.
    pub fn require_running(&self) -> Result<(), RuleError> {
        if self.ended {
            return Err(RuleError::new("This fight is over."));
        }
        if !self.started() {
            return Err(RuleError::new(
                "Roll initiative first: the party leader's Light save decides who acts first.",
            ));
        }
        Ok(())
    }

    /// Refuses unless `id` may act now: initiative set, its side's turn, in
    /// the fight, and not seen on its side's first turn.
    pub fn require_can_act(&self, id: u32) -> Result<&Seat<Fighter>, RuleError> {
        self.require_running()?;
        let seat = self
            .turns
            .seat(id)
            .ok_or_else(|| RuleError::new("That combatant is not in the order."))?;
        if seat.out {
            return Err(RuleError::new(format!(
                "{} is out of the fight.",
                seat.shown()
            )));
        }
        if self.acting_side() != Some(seat.data.side) {
            let now = self.acting_side().map_or("no one", side_name);
            return Err(RuleError::new(format!(
                "It is the {}' turn: {} waits for the {}' turn.",
                now,
                seat.shown(),
                side_name(seat.data.side)
            )));
        }
        if self.surprise() && seat.data.seen {
            return Err(RuleError::new(format!(
                "{} was seen by the enemy when initiative was set: they cannot act on their side's first turn.",
                seat.shown()
            )));
        }
        Ok(seat)
    }

    /// Spends AP of seat `id` on an action (VR-21); returns the AP left.
    pub fn spend(&mut self, id: u32, action: ApAction) -> Result<u32, RuleError> {
        self.require_can_act(id)?;
        let n = action.cost();
        if n > MAX_AP_COST {
            return Err(RuleError::new(format!(
                "An action can cost at most {MAX_AP_COST} AP."
            )));
        }
        let seat = self
            .turns
            .seat_mut(id)
            .ok_or_else(|| RuleError::new("That combatant is not in the order."))?;
        if n > seat.data.ap {
            return Err(RuleError::new(format!(
                "That costs {n} AP and {} has only {} left this turn.",
                seat.shown(),
                seat.data.ap
            )));
        }
        seat.data.ap -= n;
        Ok(seat.data.ap)
    }

    /// Takes seat `id` out of the order (fled, dead, the referee's call);
    /// the turn passes on if it was theirs.
    pub fn take_out(&mut self, id: u32, why: Gone) -> Result<(), RuleError> {
        self.turns.set_out(id, true)?;
        if let Some(s) = self.turns.seat_mut(id) {
            s.data.gone = Some(why);
        }
        self.settle();
        Ok(())
    }

    /// Puts seat `id` back in the order (the referee's call).
    pub fn bring_back(&mut self, id: u32) -> Result<(), RuleError> {
        self.turns.set_out(id, false)?;
        if let Some(s) = self.turns.seat_mut(id) {
            s.data.gone = None;
        }
        self.settle();
        Ok(())
    }

    /// Puts out every seat whose sheet says it died (after [`Fighter::sync`])
    /// and back in every seat whose sheet lives again; returns the names of
    /// the dead.
    pub fn out_the_dead(&mut self) -> Vec<String> {
        let dead: Vec<(u32, String)> = self
            .turns
            .seats
            .iter()
            .filter(|s| !s.out && s.data.gone == Some(Gone::Dead))
            .map(|s| (s.id, s.name.clone()))
            .collect();
        for (id, _) in &dead {
            let _ = self.turns.set_out(*id, true);
        }
        // A seat whose sheet the referee brought back to life is in again.
        let revived: Vec<u32> = self
            .turns
            .seats
            .iter()
            .filter(|s| s.out && s.data.gone.is_none())
            .map(|s| s.id)
            .collect();
        for id in &revived {
            let _ = self.turns.set_out(*id, false);
        }
        if !dead.is_empty() || !revived.is_empty() {
            self.settle();
        }
        dead.into_iter().map(|(_, n)| n).collect()
    }

    /// When damage to seat `target` bypasses HP: the target's own state, and
    /// the surprise turn when the target is not on the acting side.
    pub fn damage_conditions(&self, target: u32) -> DamageConditions {
        let Some(seat) = self.turns.seat(target) else {
            return DamageConditions::default();
        };
        DamageConditions {
            immobilised: seat.data.immobilised,
            unsuspecting: seat.data.unsuspecting,
            surprise_turn: self.surprise()
                && self
                    .acting_side()
                    .is_some_and(|side| side != seat.data.side),
        }
    }

    /// True when every combatant fled the fight (VR-23).
    pub fn everyone_fled(&self) -> bool {
        self.turns
            .seats
            .iter()
            .all(|s| s.data.gone == Some(Gone::Fled))
    }

    /// True when initiative is set, the fight still runs and no one is left
    /// in the order (everyone fled, or is dead or out): only its end remains.
    pub fn nobody_left(&self) -> bool {
        self.started() && !self.ended && self.turns.active().next().is_none()
    }

    /// True when every enemy (or every player character) is out.
    pub fn one_side_left(&self) -> Option<Side> {
        let in_side = |side| self.turns.active().any(|s| s.data.side == side);
        match (in_side(Side::Players), in_side(Side::Npcs)) {
            (true, false) => Some(Side::Players),
            (false, true) => Some(Side::Npcs),
            _ => None,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn set() -> VeracitySettings {
        VeracitySettings::default()
    }

    fn pc(flesh: u32) -> Fighter {
        let sheet = Sheet::new_pc(12 - flesh, flesh, "Calm").unwrap();
        Fighter::new(Side::Players, &sheet, &set())
    }

    fn npc(flesh: u32, hp: u32) -> Fighter {
        let mut sheet = Sheet::new_npc(0, flesh).unwrap();
        sheet.set_hp(hp, hp).unwrap();
        let mut f = Fighter::new(Side::Npcs, &sheet, &set());
        f.npc = Some(sheet);
        f
    }

    /// Ada (leader, 5 Flesh), Bo (4 Flesh, seen), Goblin, Wolf.
    fn fight() -> Fight {
        let mut f = Fight::new("Ada", Some(10), Some(1), pc(5)).unwrap();
        let mut bo = pc(4);
        bo.visible = true;
        f.add("Bo", Some(20), Some(2), bo).unwrap();
        f.add("Goblin", None, None, npc(4, 2)).unwrap();
        f.add("Wolf", None, None, npc(6, 0)).unwrap();
        f
    }

    fn current(f: &Fight) -> &str {
        f.turns.current_seat().map_or("-", |s| s.name.as_str())
    }

    #[test]
    fn nothing_happens_before_initiative() {
        let mut f = fight();
        assert!(!f.started());
        let e = f.end_turn().unwrap_err();
        assert!(
            e.message.starts_with("Roll initiative first"),
            "{}",
            e.message
        );
        assert!(f.spend(1, ApAction::Attack).is_err());
        assert_eq!(f.damage_conditions(3), DamageConditions::default());
    }

    #[test]
    fn a_character_is_found_by_its_sheet_not_an_npc() {
        let f = fight();
        assert_eq!(f.seat_of(2).map(|s| s.name.as_str()), Some("Bo"));
        assert_eq!(f.seat_of(1).map(|s| s.id), Some(f.leader));
        // The kept NPCs have no sheet row: no row id finds them.
        assert!(f.seat_of(3).is_none() && f.seat_of(0).is_none());
    }

    #[test]
    fn npcs_first_sorts_the_order_and_skips_the_seen_on_the_surprise_turn() {
        let mut f = fight();
        f.set_initiative(Side::Npcs).unwrap();
        let names: Vec<&str> = f.turns.seats.iter().map(|s| s.name.as_str()).collect();
        assert_eq!(names, ["Goblin", "Wolf", "Ada", "Bo"]);
        assert_eq!(f.turns.round, 1);
        assert!(f.surprise());
        assert_eq!(current(&f), "Goblin");
        assert_eq!(f.turns.current_seat().unwrap().data.ap, 4);
        // The goblin's damage to Ada on its surprise turn bypasses HP.
        assert!(f.damage_conditions(1).surprise_turn);
        assert!(
            !f.damage_conditions(4).surprise_turn,
            "the wolf is on the goblin's side"
        );
        assert_eq!(f.end_turn().unwrap(), Some(4));
        assert_eq!(f.turns.current_seat().unwrap().data.ap, 6);
        // The players' surprise turn: Ada acts, Bo was seen and is skipped.
        f.end_turn().unwrap();
        assert_eq!(current(&f), "Ada");
        assert_eq!(f.turns.round, 1);
        let e = f.require_can_act(2).unwrap_err();
        assert!(e.message.contains("seen by the enemy"), "{}", e.message);
        f.end_turn().unwrap();
        // Round 2: no surprise any more.
        assert_eq!(f.turns.round, 2);
        assert!(!f.surprise());
        assert_eq!(current(&f), "Goblin");
        assert!(!f.damage_conditions(1).surprise_turn);
        assert_eq!(
            f.log,
            [
                "Initiative: the enemies act first",
                "Round 1 · Enemies' turn (surprise)",
                "Round 1 · Players' turn (surprise)",
                "Round 2 · Enemies' turn",
            ]
        );
    }

    #[test]
    fn ap_are_spent_refused_when_short_and_back_next_turn() {
        let mut f = fight();
        f.set_initiative(Side::Players).unwrap();
        assert_eq!(current(&f), "Ada");
        assert_eq!(f.spend(1, ApAction::Attack), Ok(1));
        let e = f.spend(1, ApAction::ProneOrStand).unwrap_err();
        assert_eq!(
            e.message,
            "That costs 2 AP and Ada has only 1 left this turn."
        );
        assert_eq!(f.spend(1, ApAction::DrawOrStow), Ok(1));
        assert!(f.spend(1, ApAction::Other(37)).is_err());
        // Not the goblin's side's turn.
        let e = f.spend(3, ApAction::Attack).unwrap_err();
        assert_eq!(
            e.message,
            "It is the Players' turn: Goblin waits for the Enemies' turn."
        );
        f.end_turn().unwrap(); // Bo is seen: skipped, the enemies' turn
        assert_eq!(current(&f), "Goblin");
        f.end_turn().unwrap();
        f.end_turn().unwrap();
        assert_eq!((f.turns.round, current(&f)), (2, "Ada"));
        assert_eq!(f.turns.current_seat().unwrap().data.ap, 5);
        f.end_turn().unwrap();
        assert_eq!(current(&f), "Bo", "seen only matters on the first turn");
    }

    #[test]
    fn the_fled_and_the_dead_leave_the_order_and_the_turn_passes() {
        let mut f = fight();
        f.set_initiative(Side::Players).unwrap();
        f.take_out(1, Gone::Fled).unwrap();
        assert_eq!(current(&f), "Goblin");
        // The goblin dies: synced from its sheet, then out.
        let mut sheet = f.turns.seat(3).unwrap().data.npc.clone().unwrap();
        sheet
            .add_wounds(
                crate::rules::veracity::Amount::Flat(4),
                &[],
                &set(),
                &mut <rand::rngs::StdRng as rand::SeedableRng>::seed_from_u64(1),
            )
            .unwrap();
        let died = f.turns.seat_mut(3).unwrap().data.sync(&sheet, &set());
        assert!(died);
        assert_eq!(f.out_the_dead(), ["Goblin"]);
        assert_eq!(current(&f), "Wolf");
        assert_eq!(f.one_side_left(), None);
        f.take_out(4, Gone::Out).unwrap();
        assert_eq!(f.one_side_left(), Some(Side::Players));
        // Only Bo is left: round 2 begins with him.
        assert_eq!((f.turns.round, current(&f)), (2, "Bo"));
        f.end_turn().unwrap();
        assert_eq!((f.turns.round, current(&f)), (3, "Bo"));
        f.bring_back(1).unwrap();
        f.end_turn().unwrap();
        assert_eq!((f.turns.round, current(&f)), (4, "Ada"));
        // The referee brings the goblin's sheet back to life: in again.
        sheet.set_dead(false);
        assert!(!f.turns.seat_mut(3).unwrap().data.sync(&sheet, &set()));
        assert!(f.out_the_dead().is_empty());
        assert!(!f.turns.seat(3).unwrap().out);
    }

    #[test]
    fn vr_23_when_everyone_flees_nobody_is_left_but_the_fight_runs_until_ended() {
        let mut f = fight();
        assert!(!f.nobody_left(), "before initiative the order is not set");
        f.set_initiative(Side::Players).unwrap();
        for id in 1..=3 {
            f.take_out(id, Gone::Fled).unwrap();
            assert!(!f.nobody_left() && !f.everyone_fled());
        }
        f.take_out(4, Gone::Out).unwrap();
        assert!(f.nobody_left());
        assert!(!f.everyone_fled(), "the wolf is out, it did not flee");
        f.bring_back(4).unwrap();
        f.take_out(4, Gone::Fled).unwrap();
        assert!(f.nobody_left() && f.everyone_fled());
        f.ended = true;
        assert!(!f.nobody_left(), "an ended fight waits for nothing");
    }

    #[test]
    fn initiative_once_and_immobilised_or_unsuspecting_targets_take_wounds() {
        let mut f = fight();
        f.turns.seat_mut(3).unwrap().data.unsuspecting = true;
        assert!(f.damage_conditions(3).unsuspecting);
        f.set_initiative(Side::Players).unwrap();
        assert!(f.set_initiative(Side::Npcs).is_err());
        f.turns.seat_mut(4).unwrap().data.immobilised = true;
        let c = f.damage_conditions(4);
        assert!(c.immobilised && c.surprise_turn && !c.unsuspecting);
        // A late joiner sits at the end of its side.
        f.add("Cy", Some(30), Some(3), pc(4)).unwrap();
        let names: Vec<&str> = f.turns.seats.iter().map(|s| s.name.as_str()).collect();
        assert_eq!(names, ["Ada", "Bo", "Cy", "Goblin", "Wolf"]);
        assert_eq!(current(&f), "Ada");
    }

    #[test]
    fn vr_22_the_referees_marks_visibility_before_initiative_and_the_dead_stay_out() {
        let mut f = fight();
        let seen = Marks {
            visible: Some(true),
            unsuspecting: Some(true),
            ..Marks::default()
        };
        f.mark(3, seen).unwrap();
        let goblin = &f.turns.seat(3).unwrap().data;
        assert!(goblin.visible && goblin.unsuspecting && !goblin.immobilised);
        f.set_initiative(Side::Players).unwrap();
        assert!(f.turns.seat(3).unwrap().data.seen);
        // Who the enemy saw is fixed now; nothing else of the call changes.
        let late = Marks {
            visible: Some(false),
            immobilised: Some(true),
            ..Marks::default()
        };
        let e = f.mark(3, late).unwrap_err();
        assert!(e.message.starts_with("Initiative is set"), "{}", e.message);
        assert!(!f.turns.seat(3).unwrap().data.immobilised);
        // Out and back in; the dead stay out.
        let out = |out| Marks {
            out: Some(out),
            ..Marks::default()
        };
        f.mark(1, out(true)).unwrap();
        assert_eq!(f.turns.seat(1).unwrap().data.gone, Some(Gone::Out));
        // Bo and the goblin were seen: the surprise turn passes to the wolf.
        assert_eq!(current(&f), "Wolf");
        f.mark(1, out(true)).unwrap();
        f.mark(1, out(false)).unwrap();
        assert!(!f.turns.seat(1).unwrap().out);
        f.take_out(4, Gone::Dead).unwrap();
        let e = f.mark(4, out(false)).unwrap_err();
        assert_eq!(
            e.message,
            "Wolf is dead: only a sheet brought back to life returns."
        );
        assert!(f.turns.seat(4).unwrap().out);
    }

    #[test]
    fn a_fight_survives_serialisation() {
        let mut f = fight();
        f.set_initiative(Side::Npcs).unwrap();
        let json = serde_json::to_string(&f).unwrap();
        let back: Fight = serde_json::from_str(&json).unwrap();
        assert_eq!(back, f);
    }
}
