//! The spotlight tracker's message: the scene and its round in the title,
//! the turn order clockwise from the scene's lead with ▶ on the seat whose
//! turn it is, a player's offer waiting for the FC, the newest log lines,
//! and the buttons (**Pass**; **Allow scene** and **Decline scene** while
//! an offer waits).

use crate::app::component::Action;
use crate::app::view::{colour, escape, Button, Embed, Row, Style, View};
use crate::kit::controls::shown;
use crate::rules::venus::spotlight::Spotlight;
use crate::storage::sessions::Status;

use super::spotlight_buttons::SpotlightButton;
use super::GM;

/// The session kind of the spotlight tracker (in posted buttons: never
/// rename it).
pub const KIND: &str = "vesp";

/// The tracker's title: the scene and the round within it.
pub fn title(s: &Spotlight, status: Status) -> String {
    if status != Status::Open {
        return match s.scene {
            0 => "🔦 Spotlight ended".into(),
            n => format!("🔦 Spotlight ended · after scene {n}: {}", escape(&s.title)),
        };
    }
    match s.scene {
        0 => "🔦 Spotlight · no scene yet".into(),
        n => format!("🔦 Scene {n}: {} · round {}", escape(&s.title), s.round),
    }
}

/// The order as shown: clockwise from the starter of the round, ▶ on the
/// seat whose turn it is.
fn order(s: &Spotlight) -> String {
    let seats = s.round_order();
    if seats.is_empty() && s.held().next().is_none() {
        return "No one has joined yet: players press **Join**.".into();
    }
    // The player's mention after a seat's name.
    let who = |owner: Option<i64>| owner.map(|u| format!(" · <@{u}>")).unwrap_or_default();
    let held = s
        .held()
        .map(|seat| format!("⏸ {}{} · on hold", seat.shown(), who(seat.owner)));
    seats
        .iter()
        .map(|seat| {
            let now = s.turns.current == Some(seat.id);
            let name = if now {
                format!("▶ **{}**", seat.shown())
            } else {
                format!("• {}", seat.shown())
            };
            let lead = if s.lead == Some(seat.id) {
                " · introduced this scene"
            } else {
                ""
            };
            format!("{name}{}{lead}", who(seat.owner))
        })
        .chain(held)
        .collect::<Vec<_>>()
        .join("\n")
}

/// The tracker's message for session `id` at `version`.
pub fn view(id: i64, version: i64, status: Status, s: &Spotlight) -> View {
    let open = status == Status::Open;
    let mut text = order(s);
    if open && !s.playing() {
        text.push_str(&format!(
            "\n\nThe {GM} sets the first scene with `/ve spotlight scene`."
        ));
    }
    let col = match (open, &s.offer) {
        (false, _) => colour::CLOSED,
        (true, Some(_)) => colour::PENDING,
        (true, None) => colour::NEUTRAL,
    };
    let mut e = Embed::new(title(s, status)).description(text).colour(col);
    if let (true, Some(o)) = (open, &s.offer) {
        e = e.field(
            format!("🙋 Waiting for the {GM}"),
            format!(
                "{} offers to introduce the next scene: *{}*",
                s.offerer(o),
                escape(&o.title)
            ),
            false,
        );
    }
    if !s.log.is_empty() {
        e = e.field("Lately", s.log.join("\n"), false);
    }
    if open {
        e = e.footer(format!(
            "Pass: the player whose turn it is, or the {GM}. Join/Leave: your active character. Offer the next scene: /ve spotlight scene"
        ));
    }
    let mut v = View::embed(e);
    v.shows = Some(id);
    if !open {
        return v;
    }
    let b = |a: SpotlightButton, label: &str, style| {
        Button::new(a.button(KIND, id, version).encode(), label, style)
    };
    let seated = !s.turns.seats.is_empty();
    v = v.buttons(shown([
        (
            s.can_pass(),
            b(SpotlightButton::Pass, "Pass", Style::Primary),
        ),
        (true, b(SpotlightButton::Join, "Join", Style::Secondary)),
        (seated, b(SpotlightButton::Leave, "Leave", Style::Secondary)),
    ]));
    if s.offer.is_some() {
        v.rows.push(Row::Buttons(vec![
            b(SpotlightButton::Confirm, "Allow scene", Style::Success).gm_only(),
            b(SpotlightButton::Decline, "Decline scene", Style::Danger).gm_only(),
        ]));
    }
    v
}

#[cfg(test)]
mod tests {
    use super::*;

    fn table() -> Spotlight {
        let mut s = Spotlight::new();
        s.join("Ada", Some(10), Some(1)).unwrap();
        s.join("Bo", Some(20), Some(2)).unwrap();
        s
    }

    fn ids(v: &View) -> Vec<&str> {
        v.all_buttons().map(|b| b.custom_id.as_str()).collect()
    }

    #[test]
    fn before_the_first_scene_there_is_nothing_to_pass() {
        let s = table();
        let v = view(5, 1, Status::Open, &s);
        assert_eq!(v.embeds[0].title, "🔦 Spotlight · no scene yet");
        assert_eq!(ids(&v), ["vesp:5:1:join", "vesp:5:1:leave"]);
        // No seat yet: nobody to leave.
        let empty = view(5, 1, Status::Open, &Spotlight::new());
        assert_eq!(ids(&empty), ["vesp:5:1:join"]);
        assert_eq!(v.session(), Some(5));
    }

    #[test]
    fn the_order_marks_the_turn_and_an_offer_adds_the_fcs_buttons() {
        let mut s = table();
        s.new_scene("The docks", Some(2)).unwrap();
        s.offer(1, "The tower").unwrap();
        let v = view(5, 3, Status::Open, &s);
        let e = &v.embeds[0];
        assert_eq!(e.title, "🔦 Scene 1: The docks · round 1");
        assert_eq!(
            e.description.as_deref(),
            Some("▶ **Bo** · <@20> · introduced this scene\n• Ada · <@10>")
        );
        assert!(e.fields[0]
            .value
            .contains("Ada offers to introduce the next scene: *The tower*"));
        assert_eq!(
            ids(&v),
            [
                "vesp:5:3:pass",
                "vesp:5:3:join",
                "vesp:5:3:leave",
                "vesp:5:3:confirm",
                "vesp:5:3:decline"
            ]
        );
        assert_eq!(v.rows.len(), 2);
    }

    #[test]
    fn seats_on_hold_are_listed_after_the_order() {
        let mut s = table();
        s.new_scene("The docks", None).unwrap();
        s.hold(1, true).unwrap();
        let v = view(5, 3, Status::Open, &s);
        assert_eq!(
            v.embeds[0].description.as_deref(),
            Some("▶ **Bo** · <@20>\n⏸ Ada · <@10> · on hold")
        );
    }

    #[test]
    fn an_ended_spotlight_has_no_buttons() {
        let mut s = table();
        s.new_scene("The docks", None).unwrap();
        let v = view(5, 4, Status::Closed, &s);
        assert!(ids(&v).is_empty());
        assert_eq!(
            v.embeds[0].title,
            "🔦 Spotlight ended · after scene 1: The docks"
        );
    }
}
