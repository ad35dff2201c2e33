//! A turn order shared by the table's trackers (Virtual Veil's and
//! Veracity's combat, Venus Engine's spotlight): seats in order, whose turn
//! it is, and rounds.
//!
//! Pure and system-neutral: a [`Seat`] holds a name, the member who plays it
//! (none for the game master's NPCs and mobs), the character it stands for,
//! whether it is out of the turns (incapacitated, fled), and the system's own
//! data `T` (Outthink and Initiative, a side and AP, …). A pass goes through
//! the seats that are in, in their order; the system decides what a pass is
//! (a phase, a side's turn, a round) with [`Turns::begin_pass`],
//! [`Turns::advance`] and [`Turns::next_round`], and orders the seats with
//! [`Turns::order_by`].

use serde::{Deserialize, Serialize};

use super::RuleError;

/// The most seats one tracker holds.
pub const MAX_SEATS: usize = 40;
/// The longest seat name, in characters.
pub const MAX_NAME: usize = 60;
/// The highest round a tracker counts to.
pub const MAX_ROUND: u32 = 10_000;

/// One place in the turn order.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Seat<T> {
    /// Stable id within the tracker (never reused), for buttons and commands.
    pub id: u32,
    /// The name shown (a character's or an NPC's).
    pub name: String,
    /// The member who plays this seat; `None` for the game master's own.
    pub owner: Option<i64>,
    /// The character sheet it stands for, if any.
    pub character: Option<i64>,
    /// Out of the turns (incapacitated, fled): listed, skipped.
    pub out: bool,
    /// What the system keeps per seat.
    pub data: T,
}

impl<T> Seat<T> {
    /// The seat's name for prose, without markdown
    /// ([`super::names::unmarked`]): `A*d_a` reads `Ada`. Labels, menus and
    /// commands keep [`Seat::name`] as typed.
    pub fn shown(&self) -> String {
        super::names::unmarked(&self.name)
    }
}

/// Seats in order, the seat whose turn it is, and the round.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Turns<T> {
    /// The seats, in turn order.
    pub seats: Vec<Seat<T>>,
    /// The round, from 1; 0 before the first.
    pub round: u32,
    /// The id of the seat whose turn it is; `None` between passes.
    pub current: Option<u32>,
    /// The id the next seat gets.
    next_id: u32,
}

impl<T> Default for Turns<T> {
    fn default() -> Self {
        Self::new()
    }
}

impl<T> Turns<T> {
    /// An empty order before its first round.
    pub fn new() -> Self {
        Self {
            seats: Vec::new(),
            round: 0,
            current: None,
            next_id: 1,
        }
    }

    /// Adds a seat at the end of the order and returns its id. Refuses an
    /// empty or over-long name, a name already seated (letter case aside),
    /// a character already seated, and more than [`MAX_SEATS`] seats.
    pub fn add(
        &mut self,
        name: &str,
        owner: Option<i64>,
        character: Option<i64>,
        data: T,
    ) -> Result<u32, RuleError> {
        let name = name.trim();
        if name.is_empty() {
            return Err(RuleError::new("Give the combatant a name."));
        }
        if name.chars().count() > MAX_NAME {
            return Err(RuleError::new(format!(
                "A name is at most {MAX_NAME} characters."
            )));
        }
        if self.by_name(name).is_some() {
            return Err(RuleError::new(format!(
                "{} is already in the order.",
                super::names::unmarked(name)
            )));
        }
        if let Some(c) = character {
            if let Some(s) = self.seats.iter().find(|s| s.character == Some(c)) {
                return Err(RuleError::new(format!(
                    "{} is already in the order.",
                    s.shown()
                )));
            }
        }
        if self.seats.len() >= MAX_SEATS {
            return Err(RuleError::new(format!(
                "The order holds at most {MAX_SEATS} combatants."
            )));
        }
        let id = self.next_id;
        self.next_id = self
            .next_id
            .checked_add(1)
            .ok_or_else(|| RuleError::new("This tracker has seated too many combatants."))?;
        self.seats.push(Seat {
            id,
            name: name.to_string(),
            owner,
            character,
            out: false,
            data,
        });
        Ok(id)
    }

    /// Removes a seat. If it was its turn, the turn passes to the next seat
    /// that is in (none: the pass is over).
    pub fn remove(&mut self, id: u32) -> Result<Seat<T>, RuleError> {
        let at = self.index(id)?;
        if self.current == Some(id) {
            self.current = self.seats[at + 1..].iter().find(|s| !s.out).map(|s| s.id);
        }
        Ok(self.seats.remove(at))
    }

    fn index(&self, id: u32) -> Result<usize, RuleError> {
        self.seats
            .iter()
            .position(|s| s.id == id)
            .ok_or_else(|| RuleError::new("That combatant is not in the order."))
    }

    /// The seat with this id.
    pub fn seat(&self, id: u32) -> Option<&Seat<T>> {
        self.seats.iter().find(|s| s.id == id)
    }

    /// The seat with this id, to change.
    pub fn seat_mut(&mut self, id: u32) -> Option<&mut Seat<T>> {
        self.seats.iter_mut().find(|s| s.id == id)
    }

    /// The seat of this name, letter case and outer spaces aside.
    pub fn by_name(&self, name: &str) -> Option<&Seat<T>> {
        let key = name.trim().to_lowercase();
        self.seats.iter().find(|s| s.name.to_lowercase() == key)
    }

    /// The seat whose turn it is.
    pub fn current_seat(&self) -> Option<&Seat<T>> {
        self.current.and_then(|id| self.seat(id))
    }

    /// The seats that are in the turns, in order.
    pub fn active(&self) -> impl Iterator<Item = &Seat<T>> {
        self.seats.iter().filter(|s| !s.out)
    }

    /// The seats a member plays.
    pub fn owned_by(&self, user: i64) -> impl Iterator<Item = &Seat<T>> {
        self.seats.iter().filter(move |s| s.owner == Some(user))
    }

    /// Puts a seat out of the turns or back in. Putting out the seat whose
    /// turn it is passes the turn on, as [`Turns::remove`] does.
    pub fn set_out(&mut self, id: u32, out: bool) -> Result<(), RuleError> {
        let at = self.index(id)?;
        if out && self.current == Some(id) {
            self.current = self.seats[at + 1..].iter().find(|s| !s.out).map(|s| s.id);
        }
        self.seats[at].out = out;
        Ok(())
    }

    /// Orders the seats by a key, keeping the order of equal keys (so ties
    /// keep the order they joined in). Whose turn it is does not change.
    pub fn order_by<K: Ord>(&mut self, key: impl FnMut(&Seat<T>) -> K) {
        self.seats.sort_by_key(key);
    }

    /// Starts a pass: the first seat that is in gets the turn (none if all
    /// are out). Returns its id.
    pub fn begin_pass(&mut self) -> Option<u32> {
        let first = self.active().next().map(|s| s.id);
        self.current = first;
        first
    }

    /// Passes the turn to the next seat that is in; `None` when the pass is
    /// over (then no one has the turn). Between passes it starts one.
    pub fn advance(&mut self) -> Option<u32> {
        let Some(id) = self.current else {
            return self.begin_pass();
        };
        let from = self
            .seats
            .iter()
            .position(|s| s.id == id)
            .map_or(0, |i| i + 1);
        self.current = self.seats[from..].iter().find(|s| !s.out).map(|s| s.id);
        self.current
    }

    /// Starts the next round (the first is 1) with a new pass; returns the
    /// round. Refuses past [`MAX_ROUND`].
    pub fn next_round(&mut self) -> Result<u32, RuleError> {
        if self.round >= MAX_ROUND {
            return Err(RuleError::new(format!(
                "A tracker counts at most {MAX_ROUND} rounds: end this one and start another."
            )));
        }
        self.round += 1;
        self.begin_pass();
        Ok(self.round)
    }

    /// May this member act now: the game master always, a player on the
    /// turn of a seat they play.
    pub fn may_act(&self, user: i64, gm: bool) -> bool {
        gm || self.current_seat().is_some_and(|s| s.owner == Some(user))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn table() -> Turns<u32> {
        let mut t = Turns::new();
        t.add("Ada", Some(10), Some(1), 5).unwrap();
        t.add("Bo", Some(20), Some(2), 9).unwrap();
        t.add("Goblin", None, None, 7).unwrap();
        t
    }

    fn names(t: &Turns<u32>) -> Vec<&str> {
        t.seats.iter().map(|s| s.name.as_str()).collect()
    }

    #[test]
    fn a_round_passes_through_every_seat_that_is_in_then_ends() {
        let mut t = table();
        assert_eq!(t.next_round(), Ok(1));
        assert_eq!(t.current_seat().map(|s| s.name.as_str()), Some("Ada"));
        t.set_out(2, true).unwrap();
        assert_eq!(t.advance(), Some(3));
        assert_eq!(t.advance(), None);
        assert_eq!(t.current, None);
        assert_eq!(t.next_round(), Ok(2));
        assert_eq!(t.current, Some(1));
    }

    #[test]
    fn ordering_is_stable_and_keeps_the_turn() {
        let mut t = table();
        t.add("Cy", Some(30), Some(3), 9).unwrap();
        t.next_round().unwrap();
        t.advance();
        assert_eq!(t.current, Some(2));
        t.order_by(|s| std::cmp::Reverse(s.data));
        assert_eq!(names(&t), ["Bo", "Cy", "Goblin", "Ada"]);
        assert_eq!(t.current, Some(2));
        assert_eq!(t.advance(), Some(4));
    }

    #[test]
    fn removing_or_putting_out_the_current_seat_passes_the_turn() {
        let mut t = table();
        t.next_round().unwrap();
        t.remove(1).unwrap();
        assert_eq!(t.current, Some(2));
        t.set_out(2, true).unwrap();
        assert_eq!(t.current, Some(3));
        t.remove(3).unwrap();
        assert_eq!(t.current, None);
        assert_eq!(names(&t), ["Bo"]);
        assert!(t.remove(3).is_err());
    }

    #[test]
    fn names_characters_and_the_seat_count_are_checked() {
        let mut t = table();
        assert!(t.add("  ada ", None, None, 0).is_err());
        assert!(t.add("Ana", Some(10), Some(1), 0).is_err());
        assert!(t.add("   ", None, None, 0).is_err());
        assert!(t.add(&"x".repeat(MAX_NAME + 1), None, None, 0).is_err());
        for i in t.seats.len()..MAX_SEATS {
            t.add(&format!("Mob {i}"), None, None, 0).unwrap();
        }
        let err = t.add("One more", None, None, 0).unwrap_err();
        assert_eq!(err.message, "The order holds at most 40 combatants.");
        // ids are never reused
        let last = t.seats.last().unwrap().id;
        t.remove(last).unwrap();
        assert_eq!(t.add("Again", None, None, 0), Ok(last + 1));
    }

    #[test]
    fn only_the_game_master_or_the_seats_player_may_act() {
        let mut t = table();
        assert!(!t.may_act(10, false), "no one has the turn yet");
        assert!(t.may_act(99, true));
        t.next_round().unwrap();
        assert!(t.may_act(10, false));
        assert!(!t.may_act(20, false));
        t.advance();
        t.advance();
        assert!(!t.may_act(10, false), "the goblin is the GM's");
        assert!(t.may_act(1, true));
    }

    #[test]
    fn rounds_are_capped() {
        let mut t = table();
        t.round = MAX_ROUND;
        assert!(t.next_round().is_err());
        assert_eq!(t.round, MAX_ROUND);
    }
}
