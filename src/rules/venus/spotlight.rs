//! The spotlight (seed 000, "The game progresses in turns"): the FC sets a
//! scene and passes the turn around the table clockwise; once everyone has
//! had a turn a round has passed, and the FC continues the scene with
//! another round or cuts to a new scene. At the end of a scene any player
//! can offer to introduce the next one: if the FC allows it, that player
//! starts the round (and passes the turn clockwise from their seat) and is
//! rewarded with Ego if they do not already hold it (VE1-R2).
//!
//! Pure: the seats and rounds are a shared [`Turns`]; this file adds the
//! scene (number, title, who introduced it), the round within the scene,
//! the turn passed clockwise from the scene's lead, a player's offer to
//! introduce the next scene, and a short log. Whether the introducer earns
//! Ego is answered by [`earns_ego`]; the sheet is changed by the caller.

use serde::{Deserialize, Serialize};

use crate::rules::turns::{Seat, Turns};
use crate::rules::RuleError;

/// The longest scene title, in characters.
pub const MAX_TITLE: usize = 100;
/// How many log lines the spotlight keeps.
pub const LOG_LINES: usize = 4;
/// The highest scene number.
pub const MAX_SCENE: u32 = 10_000;

/// What the spotlight keeps per seat (nothing yet beyond the shared seat:
/// a struct so later fields load old trackers with their defaults).
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct SeatData {}

/// A player's offer to introduce and set the next scene, waiting for the
/// FC. Any player can offer (seed 000), seated or not: one not seated yet
/// takes a seat when the FC allows it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Offer {
    /// The seat of the player who offers; `None` while they have none.
    pub seat: Option<u32>,
    /// The scene they would set.
    pub title: String,
    /// Who offers, when not seated: their character's name.
    #[serde(default)]
    pub name: String,
    /// Who offers, when not seated: the player.
    #[serde(default)]
    pub owner: Option<i64>,
    /// Who offers, when not seated: their character.
    #[serde(default)]
    pub character: Option<i64>,
}

/// The spotlight of one table.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Spotlight {
    /// The seats (one per player character), in clockwise order.
    pub turns: Turns<SeatData>,
    /// The scene number, from 1; 0 before the first scene.
    pub scene: u32,
    /// The scene's title.
    pub title: String,
    /// The round within the scene, from 1.
    pub round: u32,
    /// The seat that introduced the scene: it starts each of the scene's
    /// rounds. `None`: the FC set it, and rounds start at the first seat.
    pub lead: Option<u32>,
    /// A player's offer to introduce the next scene.
    pub offer: Option<Offer>,
    /// The newest lines of what happened, oldest first.
    pub log: Vec<String>,
}

impl Default for Spotlight {
    fn default() -> Self {
        Self::new()
    }
}

/// What a pass did.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Passed {
    /// The turn went to this seat in the same round.
    To(u32),
    /// Everyone had a turn: a new round of the scene began at this seat.
    NewRound {
        /// The scene's new round.
        round: u32,
        /// The seat that starts it.
        seat: u32,
    },
}

/// Whether introducing a scene earns Ego: only if it is not already held
/// (seed 000, VE1-R2: "Ego is something that you either have or you
/// don't").
pub fn earns_ego(holds_ego: bool) -> bool {
    !holds_ego
}

fn clean_title(title: &str) -> Result<String, RuleError> {
    let t = title.split_whitespace().collect::<Vec<_>>().join(" ");
    if t.is_empty() {
        return Err(RuleError::new("Give the scene a title."));
    }
    if t.chars().count() > MAX_TITLE {
        return Err(RuleError::new(format!(
            "A scene title is at most {MAX_TITLE} characters."
        )));
    }
    Ok(t)
}

impl Spotlight {
    /// A spotlight with no seats, before the first scene.
    pub fn new() -> Self {
        Self {
            turns: Turns::new(),
            scene: 0,
            title: String::new(),
            round: 0,
            lead: None,
            offer: None,
            log: Vec::new(),
        }
    }

    /// Adds a line to the log, keeping the newest [`LOG_LINES`].
    pub fn note(&mut self, line: impl Into<String>) {
        self.log.push(line.into());
        let extra = self.log.len().saturating_sub(LOG_LINES);
        self.log.drain(..extra);
    }

    /// Whether a scene is being played.
    pub fn playing(&self) -> bool {
        self.scene > 0
    }

    /// The seat that starts the current scene's rounds: the lead if it is
    /// still seated, else the first seat.
    pub fn starter(&self) -> Option<u32> {
        self.lead
            .filter(|id| self.turns.seat(*id).is_some_and(|s| !s.out))
            .or_else(|| self.turns.active().next().map(|s| s.id))
    }

    /// The seats in the order the turn goes around this round: clockwise
    /// from the starter.
    pub fn round_order(&self) -> Vec<&Seat<SeatData>> {
        let seats: Vec<&Seat<SeatData>> = self.turns.active().collect();
        let from = self
            .starter()
            .and_then(|id| seats.iter().position(|s| s.id == id))
            .unwrap_or(0);
        seats[from..]
            .iter()
            .chain(&seats[..from])
            .copied()
            .collect()
    }

    /// Seats a player character (or the FC's addition). While a scene is
    /// played and no one holds the turn, the new seat takes it.
    pub fn join(
        &mut self,
        name: &str,
        owner: Option<i64>,
        character: Option<i64>,
    ) -> Result<u32, RuleError> {
        let id = self
            .turns
            .add(name, owner, character, SeatData::default())
            .map_err(|e| RuleError::new(e.message.replace("combatant", "character")))?;
        if self.playing() && self.turns.current.is_none() {
            self.turns.current = Some(id);
        }
        Ok(id)
    }

    /// The seat after `id` this round (clockwise from the starter); `None`
    /// when `id` is the last.
    fn after(&self, id: u32) -> Option<u32> {
        let order = self.round_order();
        let at = order.iter().position(|s| s.id == id)?;
        order.get(at + 1).map(|s| s.id)
    }

    /// Removes a seat. If it held the turn, the turn passes on (after the
    /// last seat, to the starter of a new round, as [`Spotlight::pass`]);
    /// an offer it made is withdrawn; if it led the scene, rounds start at
    /// the first seat from now on.
    pub fn remove(&mut self, id: u32) -> Result<Seat<SeatData>, RuleError> {
        let next = self.next_if_current(id);
        let seat = self
            .turns
            .remove(id)
            .map_err(|_| RuleError::new("That character is not in the spotlight's order."))?;
        if self.lead == Some(id) {
            self.lead = None;
        }
        if self.offer.as_ref().is_some_and(|o| o.seat == Some(id)) {
            self.offer = None;
        }
        self.pass_from_gone(next)?;
        Ok(seat)
    }

    /// When `id` holds the turn: the seat that would get it next (`Some(None)`
    /// when `id` is the last this round).
    fn next_if_current(&self, id: u32) -> Option<Option<u32>> {
        (self.turns.current == Some(id)).then(|| self.after(id))
    }

    /// The seat holding the turn left the turns: it goes to `next`, or
    /// (after the last seat) a new round begins.
    fn pass_from_gone(&mut self, next: Option<Option<u32>>) -> Result<(), RuleError> {
        let Some(next) = next else {
            return Ok(());
        };
        self.turns.current = next;
        if next.is_none() && self.playing() && self.starter().is_some() {
            self.next_round()?;
        }
        Ok(())
    }

    /// Puts a seat on hold (its character is not in this scene: the FC
    /// resolves scenes one at a time, seed 000) or back in the turns. A
    /// seat put on hold on its turn passes it on, as [`Spotlight::remove`].
    pub fn hold(&mut self, id: u32, held: bool) -> Result<(), RuleError> {
        let seat = self
            .turns
            .seat(id)
            .ok_or_else(|| RuleError::new("That character is not in the spotlight's order."))?;
        if seat.out == held {
            return Err(RuleError::new(if held {
                format!("{} is already on hold.", seat.shown())
            } else {
                format!("{} is not on hold.", seat.shown())
            }));
        }
        let next = if held { self.next_if_current(id) } else { None };
        self.turns.set_out(id, held)?;
        self.pass_from_gone(next)?;
        if !held && self.playing() && self.turns.current.is_none() {
            self.turns.current = Some(id);
        }
        Ok(())
    }

    /// The seats on hold, in order.
    pub fn held(&self) -> impl Iterator<Item = &Seat<SeatData>> {
        self.turns.seats.iter().filter(|s| s.out)
    }

    fn next_round(&mut self) -> Result<u32, RuleError> {
        self.turns.next_round()?;
        self.round = self
            .round
            .checked_add(1)
            .ok_or_else(|| RuleError::new("This scene has run too many rounds."))?;
        self.turns.current = self.starter();
        Ok(self.round)
    }

    /// Starts a new scene: its number, its title, and its first round,
    /// which `lead` (the seat of the player who introduced it, if any)
    /// starts (back from hold if it was); otherwise the first seat. A
    /// waiting offer is closed.
    pub fn new_scene(&mut self, title: &str, lead: Option<u32>) -> Result<u32, RuleError> {
        let title = clean_title(title)?;
        if let Some(id) = lead {
            if self.turns.seat(id).is_none() {
                return Err(RuleError::new(
                    "Only a character in the spotlight's order can introduce a scene.",
                ));
            }
        }
        if self.scene >= MAX_SCENE {
            return Err(RuleError::new(format!(
                "A spotlight counts at most {MAX_SCENE} scenes: end it and start another."
            )));
        }
        if let Some(id) = lead {
            // The one who introduces a scene is in it.
            self.turns.set_out(id, false)?;
        }
        self.turns.next_round()?;
        self.scene += 1;
        self.title = title;
        self.round = 1;
        self.lead = lead;
        self.offer = None;
        self.turns.current = self.starter();
        Ok(self.scene)
    }

    /// Whether the turn can be passed now ([`Spotlight::pass`]): a scene is
    /// being played and someone is in the order.
    pub fn can_pass(&self) -> bool {
        self.playing() && self.turns.active().next().is_some()
    }

    /// Passes the turn clockwise to the next seat; after the last seat
    /// everyone has had a turn and the next round of the scene begins at
    /// the starter.
    pub fn pass(&mut self) -> Result<Passed, RuleError> {
        if !self.playing() {
            return Err(RuleError::new(
                "No scene is being played yet: the GM sets the first scene.",
            ));
        }
        if self.turns.active().next().is_none() {
            return Err(RuleError::new("No one is in the spotlight's order yet."));
        }
        let next = match self.turns.current {
            Some(id) => self.after(id),
            None => None,
        };
        match next {
            Some(id) => {
                self.turns.current = Some(id);
                Ok(Passed::To(id))
            }
            None => {
                let round = self.next_round()?;
                let seat = self
                    .turns
                    .current
                    .ok_or_else(|| RuleError::new("No one is in the spotlight's order yet."))?;
                Ok(Passed::NewRound { round, seat })
            }
        }
    }

    /// A player (at `seat`) offers to introduce and set the next scene.
    /// One offer waits at a time.
    pub fn offer(&mut self, seat: u32, title: &str) -> Result<(), RuleError> {
        if self.turns.seat(seat).is_none() {
            return Err(RuleError::new(
                "Only a character in the spotlight's order can introduce a scene.",
            ));
        }
        self.put_offer(Offer {
            seat: Some(seat),
            title: title.to_string(),
            name: String::new(),
            owner: None,
            character: None,
        })
    }

    /// A player not seated (their character `name`) offers to introduce
    /// and set the next scene; they take a seat if the FC allows it.
    pub fn offer_unseated(
        &mut self,
        name: &str,
        owner: Option<i64>,
        character: Option<i64>,
        title: &str,
    ) -> Result<(), RuleError> {
        self.put_offer(Offer {
            seat: None,
            title: title.to_string(),
            name: name.trim().to_string(),
            owner,
            character,
        })
    }

    fn put_offer(&mut self, mut offer: Offer) -> Result<(), RuleError> {
        offer.title = clean_title(&offer.title)?;
        if let Some(o) = &self.offer {
            let name = self.offerer(o);
            return Err(RuleError::new(format!(
                "{name}'s offer to introduce the next scene waits for the GM's answer."
            )));
        }
        self.offer = Some(offer);
        Ok(())
    }

    /// The GM allows the waiting offer: the offering seat starts the new
    /// scene (an offerer not seated takes a seat first). Returns that seat.
    pub fn confirm(&mut self) -> Result<u32, RuleError> {
        let o = self
            .offer
            .clone()
            .ok_or_else(|| RuleError::new("No offer to introduce a scene is waiting."))?;
        let before = self.clone();
        let seat = match o.seat {
            Some(seat) => seat,
            None => self.join(&o.name, o.owner, o.character)?,
        };
        if let Err(e) = self.new_scene(&o.title, Some(seat)) {
            *self = before;
            return Err(e);
        }
        Ok(seat)
    }

    /// The GM declines the waiting offer; returns it.
    pub fn decline(&mut self) -> Result<Offer, RuleError> {
        self.offer
            .take()
            .ok_or_else(|| RuleError::new("No offer to introduce a scene is waiting."))
    }

    /// The name of who made an offer, for prose (without markdown).
    pub fn offerer(&self, o: &Offer) -> String {
        match o.seat {
            Some(seat) => self.name_of(seat),
            None => crate::rules::names::unmarked(&o.name),
        }
    }

    /// A seat's name for prose, without markdown ([`Seat::shown`]);
    /// "someone" when it is gone.
    pub fn name_of(&self, id: u32) -> String {
        self.turns
            .seat(id)
            .map_or_else(|| "someone".to_string(), Seat::shown)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn table() -> Spotlight {
        let mut s = Spotlight::new();
        s.join("Ada", Some(10), Some(1)).unwrap();
        s.join("Bo", Some(20), Some(2)).unwrap();
        s.join("Cy", Some(30), Some(3)).unwrap();
        s
    }

    fn now(s: &Spotlight) -> &str {
        s.turns.current_seat().map_or("-", |x| x.name.as_str())
    }

    #[test]
    fn the_fc_sets_a_scene_and_the_turn_goes_clockwise_then_a_round_passes() {
        let mut s = table();
        assert!(!s.can_pass());
        assert!(s.pass().is_err(), "no scene yet");
        assert_eq!(s.new_scene("  The  docks ", None), Ok(1));
        assert!(s.can_pass());
        assert_eq!(
            (s.title.as_str(), s.round, now(&s)),
            ("The docks", 1, "Ada")
        );
        assert_eq!(s.pass(), Ok(Passed::To(2)));
        assert_eq!(s.pass(), Ok(Passed::To(3)));
        assert_eq!(s.pass(), Ok(Passed::NewRound { round: 2, seat: 1 }));
        assert_eq!((s.round, now(&s)), (2, "Ada"));
        // a cut to a new scene starts again at round 1
        assert_eq!(s.new_scene("The tower", None), Ok(2));
        assert_eq!((s.round, now(&s), s.turns.round), (1, "Ada", 3));
    }

    #[test]
    fn an_introduced_scene_starts_at_the_introducer_and_wraps_around() {
        let mut s = table();
        s.new_scene("The docks", None).unwrap();
        s.offer(2, "Bo's safehouse").unwrap();
        assert!(s.offer(3, "Mine").is_err(), "one offer at a time");
        assert_eq!(s.confirm(), Ok(2));
        assert_eq!(
            (s.scene, s.title.as_str(), now(&s)),
            (2, "Bo's safehouse", "Bo")
        );
        assert_eq!(s.offer, None);
        assert_eq!(s.pass(), Ok(Passed::To(3)));
        assert_eq!(s.pass(), Ok(Passed::To(1)));
        assert_eq!(s.pass(), Ok(Passed::NewRound { round: 2, seat: 2 }));
        let order: Vec<&str> = s.round_order().iter().map(|x| x.name.as_str()).collect();
        assert_eq!(order, ["Bo", "Cy", "Ada"]);
    }

    #[test]
    fn a_declined_offer_changes_nothing() {
        let mut s = table();
        s.new_scene("The docks", None).unwrap();
        s.pass().unwrap();
        let before = (s.scene, s.round, s.turns.current);
        s.offer(3, "Elsewhere").unwrap();
        assert_eq!(s.decline().map(|o| o.seat), Ok(Some(3)));
        assert_eq!((s.scene, s.round, s.turns.current), before);
        assert!(s.confirm().is_err());
        assert!(s.decline().is_err());
    }

    #[test]
    fn ego_is_earned_only_when_not_held() {
        assert!(earns_ego(false));
        assert!(!earns_ego(true));
    }

    #[test]
    fn removing_the_seat_with_the_turn_passes_it_on() {
        let mut s = table();
        s.offer(2, "Bo's scene").unwrap();
        s.new_scene("First", None).unwrap();
        s.offer(3, "Cy's scene").unwrap();
        s.pass().unwrap();
        s.pass().unwrap();
        assert_eq!(now(&s), "Cy");
        s.remove(3).unwrap();
        assert_eq!(s.offer, None, "Cy's offer went with Cy");
        assert_eq!((s.round, now(&s)), (2, "Ada"), "Cy was last: a new round");
        s.remove(1).unwrap();
        assert_eq!(now(&s), "Bo");
        s.remove(2).unwrap();
        assert_eq!(s.turns.current, None);
        assert!(s.pass().is_err());
        let id = s.join("Dee", Some(40), None).unwrap();
        assert_eq!(s.turns.current, Some(id), "a newcomer takes the empty turn");
    }

    #[test]
    fn seats_on_hold_are_skipped_and_come_back() {
        let mut s = table();
        s.new_scene("Scene", None).unwrap();
        s.pass().unwrap();
        s.pass().unwrap();
        assert_eq!(now(&s), "Cy");
        s.hold(3, true).unwrap();
        assert_eq!((s.round, now(&s)), (2, "Ada"), "Cy was last: a new round");
        assert!(s.hold(3, true).is_err());
        assert_eq!(s.pass(), Ok(Passed::To(2)));
        assert_eq!(s.pass(), Ok(Passed::NewRound { round: 3, seat: 1 }));
        let held: Vec<&str> = s.held().map(|x| x.name.as_str()).collect();
        assert_eq!(held, ["Cy"]);
        s.hold(3, false).unwrap();
        assert!(s.hold(3, false).is_err());
        assert_eq!(s.pass(), Ok(Passed::To(2)));
        assert_eq!(s.pass(), Ok(Passed::To(3)));
        // Everyone on hold: no one has the turn until one comes back.
        for id in 1..=3 {
            s.hold(id, true).unwrap();
        }
        assert_eq!(s.turns.current, None);
        assert!(!s.can_pass(), "a scene, but no one to pass to");
        assert!(s.pass().is_err());
        s.hold(2, false).unwrap();
        assert_eq!(now(&s), "Bo");
        // A seat on hold that introduces a scene is back in it.
        s.new_scene("Cy's scene", Some(3)).unwrap();
        assert_eq!(now(&s), "Cy");
        assert_eq!(s.held().count(), 1);
    }

    #[test]
    fn the_lead_leaving_makes_rounds_start_at_the_first_seat() {
        let mut s = table();
        s.new_scene("Scene", Some(3)).unwrap();
        assert_eq!(now(&s), "Cy");
        s.pass().unwrap();
        s.remove(3).unwrap();
        assert_eq!(s.lead, None);
        assert_eq!(now(&s), "Ada");
        assert_eq!(s.pass(), Ok(Passed::To(2)));
        assert_eq!(s.pass(), Ok(Passed::NewRound { round: 2, seat: 1 }));
    }

    #[test]
    fn titles_seats_and_the_log_are_checked() {
        let mut s = table();
        assert_eq!(
            s.new_scene("   ", None).unwrap_err().message,
            "Give the scene a title."
        );
        assert!(s.new_scene(&"x".repeat(MAX_TITLE + 1), None).is_err());
        assert!(s.new_scene("Ok", Some(99)).is_err());
        assert!(s.offer(99, "Ok").is_err());
        assert_eq!(s.scene, 0);
        assert_eq!(
            s.join("ada", Some(11), None).unwrap_err().message,
            "ada is already in the order."
        );
        for i in 0..10 {
            s.note(format!("line {i}"));
        }
        assert_eq!(s.log.len(), LOG_LINES);
        assert_eq!(s.log[0], "line 6");
    }

    #[test]
    fn it_survives_a_round_trip_through_json() {
        let mut s = table();
        s.new_scene("Scene", Some(2)).unwrap();
        s.offer(1, "Next").unwrap();
        let back: Spotlight = serde_json::from_str(&serde_json::to_string(&s).unwrap()).unwrap();
        assert_eq!(back, s);
    }

    #[test]
    fn a_player_not_seated_offers_and_takes_a_seat_when_allowed() {
        let mut s = table();
        s.new_scene("The docks", None).unwrap();
        s.offer_unseated("Dee", Some(40), Some(4), "Dee's bar")
            .unwrap();
        assert_eq!(s.offerer(s.offer.as_ref().unwrap()), "Dee");
        // One offer at a time, seated or not.
        assert!(s
            .offer(1, "Elsewhere")
            .unwrap_err()
            .message
            .contains("Dee's offer"));
        let seat = s.confirm().unwrap();
        assert_eq!((s.scene, s.lead, now(&s)), (2, Some(seat), "Dee"));
        assert_eq!(s.turns.seat(seat).unwrap().character, Some(4));
        // A name already taken: refused, and the offer still waits.
        s.offer_unseated("Ada", Some(50), Some(5), "Twin").unwrap();
        assert!(s.confirm().is_err());
        assert_eq!(s.scene, 2);
        assert!(s.offer.is_some());
    }
}
