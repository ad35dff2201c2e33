//! The generic roller: a roll, its Reroll button, strangers, double clicks.

use crate::common::{app, button, caller, first, log_of, refusal};
use kismet::app::component::{dispatch, ButtonId};

#[tokio::test]
async fn a_roll_logs_its_dice_and_reroll_moves_it_on_exactly_once() {
    let app = app(7).await;
    let alice = caller("alice");
    let r = kismet::systems::dice::roll(&app, &alice, "3d6+2").await;
    let (kind, v) = first(&r);
    assert_eq!(kind, "message");
    let reroll = button(v, "Reroll");
    let id = ButtonId::parse(&reroll).unwrap();
    assert_eq!(
        (id.kind.as_str(), id.version, id.action.as_str()),
        ("roll", 0, "reroll")
    );
    let log = log_of(&app, id.session).await;
    assert_eq!(log.len(), 1);
    assert_eq!(log[0].action, "roll");
    assert_eq!(log[0].user_id, alice.user_id);
    // The logged total is the view's.
    let total: i64 = serde_json::from_str::<serde_json::Value>(&log[0].outcome).unwrap()["total"]
        .as_i64()
        .unwrap();
    // Issue 16: the title states the total once.
    assert_eq!(v.embeds[0].title, format!("🎲 {total}"));
    assert!((5..=20).contains(&total), "3d6+2 = {total}");

    // A stranger may not reroll; nothing is logged.
    let bob = caller("bob");
    let no = dispatch(&app, &bob, &reroll, &[]).await;
    assert!(refusal(&no).contains("Only alice (or the FC) can reroll this."));
    assert_eq!(log_of(&app, id.session).await.len(), 1);

    // The roller rerolls: the message is updated, at the next version.
    let r = dispatch(&app, &alice, &reroll, &[]).await;
    let (kind, v) = first(&r);
    assert_eq!(kind, "update");
    assert_eq!(ButtonId::parse(&button(v, "Reroll")).unwrap().version, 1);
    // The same click again (a double click) only shows the current state.
    let again = dispatch(&app, &alice, &reroll, &[]).await;
    assert_eq!(first(&again).0, "update");
    let log = log_of(&app, id.session).await;
    assert_eq!(
        log.iter().map(|e| e.action.as_str()).collect::<Vec<_>>(),
        ["roll", "reroll"],
        "a double click applies once"
    );
    // The FC may reroll anyone's roll.
    let fc = caller("fc");
    let newest = button(first(&r).1, "Reroll");
    assert_eq!(first(&dispatch(&app, &fc, &newest, &[]).await).0, "update");
    assert_eq!(log_of(&app, id.session).await.len(), 3);
}

#[tokio::test]
async fn seeded_rolls_repeat_exactly() {
    let a = app(42).await;
    let b = app(42).await;
    let alice = caller("alice");
    let ra = kismet::systems::dice::roll(&a, &alice, "4d6kh3").await;
    let rb = kismet::systems::dice::roll(&b, &alice, "4d6kh3").await;
    assert_eq!(first(&ra).1.embeds, first(&rb).1.embeds);
}
