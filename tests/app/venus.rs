//! The Venus Engine at the application layer: a character with an ability,
//! a player's own d20 check (thrown by its command; a check the FC calls
//! waits for Roll d20),
//! rights and the log rows, with no Discord in between.

use crate::common::{app, button, caller, first, log_of, refusal};
use kismet::app::characters::Pick;
use kismet::app::component::dispatch;
use kismet::app::View;
use kismet::rules::venus::Rank;
use kismet::systems::venus::{calls, sheets};

fn field(v: &View, name: &str) -> Option<String> {
    v.embeds[0]
        .fields
        .iter()
        .find(|f| f.name == name)
        .map(|f| f.value.clone())
}

/// `**14**` → 14.
fn bold_number(s: &str) -> i64 {
    let start = s.find("**").expect("a bold number") + 2;
    let end = s[start..].find("**").unwrap() + start;
    s[start..end].parse().unwrap()
}

fn check(ability: &str, difficulty: u32, player: i64) -> calls::RollRequest {
    calls::RollRequest {
        player,
        ability: ability.into(),
        difficulty: Some(difficulty),
        ..Default::default()
    }
}

#[tokio::test]
async fn a_players_own_check_adds_the_score_to_the_d20_once() {
    let app = app(4).await;
    let alice = caller("alice");
    assert_eq!(
        first(&sheets::create(&app, &alice, "Ada", None, None).await).0,
        "message"
    );
    sheets::ability(&app, &alice, "Finesse", Rank::Silver, 4, Pick::active())
        .await
        .unwrap();

    // A player's own check throws its d20 with the command (issue 31 item
    // 3): logged once, for her, with no Roll d20 step.
    let r = calls::start_check(&app, &alice, check("Finesse", 15, alice.user_id)).await;
    let (kind, v) = first(&r);
    assert_eq!(kind, "message");
    assert_ne!(v.embeds[0].title, "⏳ Waiting for Ada to roll");
    assert_eq!(v.embeds[0].author.as_deref(), Some("Ada · Finesse check"));
    let session = v.session().expect("a session");
    let log = log_of(&app, session).await;
    assert_eq!(log.len(), 1, "the d20 is logged with the command");
    assert_eq!(log[0].user_id, alice.user_id);
    // The dice come first in the description: "d20 14" (bold on a pass).
    let line = v.embeds[0].description.clone().expect("the dice are shown");
    let first_line = line.lines().next().unwrap().replace("**", "");
    let d20 = bold_number(&format!(
        "**{}**",
        first_line
            .strip_prefix("d20 ")
            .expect("the d20 first")
            .trim_end_matches(['★', '✗'])
    ));
    assert!((1..=20).contains(&d20));
    let total = field(v, "Total").unwrap();
    if d20 != 1 && d20 != 20 {
        // d20 + Finesse 4 against 15 (Tough).
        assert!(
            total.starts_with(&format!("{d20} + 4 Finesse (⚪ Silver) = **{}**", d20 + 4)),
            "{total}"
        );
    }
}

#[tokio::test]
async fn only_the_fc_calls_a_check_for_another_player() {
    let app = app(5).await;
    let alice = caller("alice");
    let bob = caller("bob");
    sheets::create(&app, &alice, "Ada", None, None)
        .await
        .unwrap();
    sheets::ability(&app, &alice, "Wits", Rank::Gold, 3, Pick::active())
        .await
        .unwrap();
    let no = calls::start_check(&app, &bob, check("Wits", 10, alice.user_id)).await;
    assert!(refusal(&no).contains("FC"), "{}", refusal(&no));
    let fc = caller("fc");
    let r = calls::start_check(&app, &fc, check("Wits", 10, alice.user_id)).await;
    let v = first(&r).1;
    assert_eq!(v.embeds[0].author.as_deref(), Some("Ada · Wits check"));
    // The FC's call pings Ada's player, and nothing is logged before the d20.
    assert_eq!(v.pings, [alice.user_id]);
    let session = v.session().expect("a session");
    assert!(log_of(&app, session).await.is_empty());
    // Alice throws the d20 the FC called.
    let roll = button(v, "Roll d20");
    assert_eq!(first(&dispatch(&app, &alice, &roll, &[]).await).0, "update");
    let log = log_of(&app, session).await;
    assert_eq!(log.len(), 1);
    assert_eq!(log[0].user_id, alice.user_id);
}

/// The spotlight at the application layer: one per channel (another
/// channel may run its own), **Join** redraws the tracker in place, a
/// double click on **Pass** passes once, and each step is logged.
#[tokio::test]
async fn the_spotlight_runs_one_per_channel_and_a_double_pass_passes_once() {
    use kismet::systems::venus::spotlight;
    let app = app(7).await;
    let (fc, alice, bob) = (caller("fc"), caller("alice"), caller("bob"));
    sheets::create(&app, &alice, "Ada", None, None)
        .await
        .unwrap();
    sheets::create(&app, &bob, "Bo", None, None).await.unwrap();
    let r = spotlight::start(&app, &fc, Some("The docks")).await;
    let (kind, v) = first(&r);
    assert_eq!(kind, "message");
    let id = v.session().expect("the tracker's session");
    let again = spotlight::start(&app, &fc, None).await;
    assert!(refusal(&again).contains("A spotlight is already running in this channel"));
    let elsewhere = kismet::app::Caller {
        channel_id: fc.channel_id + 1,
        ..fc.clone()
    };
    assert!(spotlight::start(&app, &elsewhere, None).await.is_ok());
    // Joining is the tracker's own button: each click redraws it in place.
    let join = button(v, "Join");
    let r = dispatch(&app, &alice, &join, &[]).await;
    let (kind, tracker) = first(&r);
    assert_eq!(kind, "update");
    assert_eq!(tracker.session(), Some(id));
    let join = button(tracker, "Join");
    let r = dispatch(&app, &bob, &join, &[]).await;
    let (_, tracker) = first(&r);
    // Ada passes; the same click again changes nothing.
    let pass = button(tracker, "Pass");
    let r = dispatch(&app, &alice, &pass, &[]).await;
    let (kind, v) = first(&r);
    assert_eq!(kind, "update");
    assert!(v.embeds[0]
        .description
        .as_deref()
        .unwrap()
        .contains("▶ **Bo**"));
    let r = dispatch(&app, &alice, &pass, &[]).await;
    let (_, v) = first(&r);
    assert!(v.embeds[0]
        .description
        .as_deref()
        .unwrap()
        .contains("▶ **Bo**"));
    let actions: Vec<String> = log_of(&app, id)
        .await
        .into_iter()
        .map(|e| e.action)
        .collect();
    assert_eq!(
        actions,
        [
            "spotlight_start",
            "spotlight_join",
            "spotlight_join",
            "spotlight_pass"
        ]
    );
}
