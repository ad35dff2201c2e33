//! The turn's ping (issue 31 item 5): when a running tracker (Venus
//! Engine's spotlight, Veracity's and Virtual Veil's fights: a game's
//! [`super::pipeline::Scope::TURN_KINDS`]) is saved with its turn moved to
//! a seat a member plays, one short public line pings that member, and
//! nobody else. Read from the tracker's stored state alone, before and
//! after the action (every tracker keeps its order as a `turns` field), so
//! no action has to remember to ping.

use serde::de::IgnoredAny;
use serde::Deserialize;

use super::{Reply, View};
use crate::rules::turns::Turns;

/// A tracker's state, as far as its turn goes.
#[derive(Deserialize)]
struct Tracked {
    turns: Turns<IgnoredAny>,
}

/// The seat whose turn it is in a tracker's stored state, by id.
fn holder(state: &str) -> Option<u32> {
    let t: Tracked = serde_json::from_str(state).ok()?;
    t.turns.current_seat().map(|s| s.id)
}

/// The member whose turn it is in a tracker's stored state, with their
/// seat's name for prose (without markdown); `None` when nobody's is, or
/// the game master's seat or one that is out holds it.
pub fn waiting(state: &str) -> Option<(i64, String)> {
    let t: Tracked = serde_json::from_str(state).ok()?;
    let seat = t.turns.current_seat()?;
    if seat.out {
        return None;
    }
    Some((seat.owner?, seat.shown()))
}

/// The ping line (`▶ Ada's turn.`, the name without markdown) when the
/// tracker's state `before` → `after` (JSON) moved the turn to a seat a
/// member plays; `None` when the turn stayed, went to the game master's
/// own seat, or the state holds no turn order.
pub fn between(before: &str, after: &str) -> Option<Reply> {
    let now: Tracked = serde_json::from_str(after).ok()?;
    let seat = now.turns.current_seat()?;
    if seat.out || holder(before) == Some(seat.id) {
        return None;
    }
    let owner = seat.owner?;
    let line = format!("▶ {}'s turn.", seat.shown());
    Some(Reply::Message(View::default().ping(owner, &line)))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn state(current: Option<u32>) -> String {
        let seats = serde_json::json!([
            {"id": 1, "name": "Ada", "owner": 7, "character": 3, "out": false, "data": {"x": 1}},
            {"id": 2, "name": "Ghoul", "owner": null, "character": null, "out": false, "data": 5},
        ]);
        serde_json::json!({
            "turns": {"seats": seats, "round": 1, "current": current, "next_id": 3},
            "log": []
        })
        .to_string()
    }

    #[test]
    fn a_turn_moved_to_a_members_seat_pings_that_member_only() {
        let Some(Reply::Message(v)) = between(&state(Some(2)), &state(Some(1))) else {
            panic!("a ping");
        };
        assert_eq!(v.pings, [7]);
        assert_eq!(v.content.as_deref(), Some("<@7> ▶ Ada's turn."));
        assert!(
            between(&state(Some(1)), &state(Some(1))).is_none(),
            "stayed"
        );
        assert!(
            between(&state(Some(1)), &state(Some(2))).is_none(),
            "the GM's seat"
        );
        assert!(
            between(&state(None), &state(None)).is_none(),
            "nobody's turn"
        );
        assert!(between("{}", "{\"phase\": 1}").is_none(), "no turn order");
        assert!(between("{}", &state(Some(1))).is_some(), "the first turn");
        assert_eq!(waiting(&state(Some(1))), Some((7, "Ada".into())));
        assert_eq!(waiting(&state(Some(2))), None, "the GM's seat");
        assert_eq!(waiting("{}"), None);
    }
}
