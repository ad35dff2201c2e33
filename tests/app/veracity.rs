//! Veracity at the application layer: a sheet with Light and Flesh slots,
//! roll-under saves against an inventory, rights and the log rows.

use crate::common::{app, caller, first, refusal};
use kismet::app::characters::Pick;
use kismet::rules::veracity::InventoryKind;
use kismet::systems::veracity::{saves, sheets, target};

async fn ada(app: &kismet::app::App) {
    let alice = caller("alice");
    let r = sheets::create(
        app,
        &alice,
        sheets::NewSheet {
            name: "Ada",
            light: 6,
            flesh: 6,
            facet: Some("Sharp eyes"),
            player: None,
            npc: false,
        },
    )
    .await;
    assert_eq!(first(&r).0, "message", "{:?}", r.as_ref().err());
}

#[tokio::test]
async fn a_save_is_logged_with_its_d20() {
    let app = app(21).await;
    ada(&app).await;
    let alice = caller("alice");
    let r = saves::save_with_help(
        &app,
        &alice,
        target::Save {
            inventory: InventoryKind::Light,
            modifier: 0,
            facet: None,
            pick: Pick::active(),
        },
        (None, None),
        None,
    )
    .await;
    let (kind, v) = first(&r);
    assert_eq!(kind, "message");
    let text = format!("{:?}", v.embeds[0]);
    assert!(text.contains("Ada"), "{text}");
    let mut tx = app.db.read().await.unwrap();
    let n = kismet::storage::log::count(&mut tx, crate::common::GUILD)
        .await
        .unwrap();
    // The sheet's creation and the save.
    assert_eq!(n, 2);
}

#[tokio::test]
async fn only_the_fc_rolls_for_another_member() {
    let app = app(22).await;
    ada(&app).await;
    let bob = caller("bob");
    let alice = caller("alice");
    // The same save, asked by Bob and then by the FC.
    let alices_flesh = target::Save {
        inventory: InventoryKind::Flesh,
        modifier: 0,
        facet: None,
        pick: Pick::new(None, Some(alice.user_id)),
    };
    let no = saves::save_with_help(&app, &bob, alices_flesh, (None, None), None).await;
    assert!(!refusal(&no).is_empty());
    let fc = caller("fc");
    let r = saves::save_with_help(&app, &fc, alices_flesh, (None, None), None).await;
    assert_eq!(first(&r).0, "message");
}

/// The combat tracker at the application layer: starting posts it with its
/// buttons; a change by command answers privately and redraws it (an Edit
/// of the same session); a player's out-of-turn action changes nothing.
#[tokio::test]
async fn the_combat_tracker_is_posted_once_and_redrawn_by_commands() {
    use kismet::app::Reply;
    use kismet::systems::veracity::combat;
    let app = app(23).await;
    ada(&app).await;
    let fc = caller("fc");
    let alice = caller("alice");
    let bob = caller("bob");
    assert!(!refusal(&combat::start(&app, &alice, Pick::named("Ada")).await).is_empty());
    let r = combat::start(&app, &fc, Pick::named("Ada")).await;
    let (kind, v) = first(&r);
    assert_eq!(kind, "message");
    let session = v.session().expect("the tracker carries its session");
    assert_eq!(v.all_buttons().next().unwrap().label, "Roll initiative");
    let goblin = combat::Seating {
        name: Some("Goblin"),
        hp: Some(1),
        flesh: Some(4),
        character: Pick::new(None, None),
        side: None,
    };
    let r = combat::add(&app, &fc, goblin).await;
    assert_eq!(first(&r).0, "ephemeral");
    match &r.as_ref().unwrap().followups[..] {
        [Reply::Edit(t)] => assert_eq!(t.session(), Some(session)),
        other => panic!("expected one Edit, got {other:?}"),
    }
    let initiative = target::Save {
        inventory: InventoryKind::Light,
        modifier: 0,
        facet: None,
        pick: Pick::active(),
    };
    let r = combat::save_in_fight(&app, &alice, initiative, &[]).await;
    let (kind, save) = first(&r);
    assert_eq!(kind, "message");
    assert!(format!("{:?}", save.embeds[0]).contains("Light save"));
    assert!(matches!(
        r.as_ref().unwrap().followups[..],
        [Reply::Edit(_)]
    ));
    // Whoever acts first, Bob (no seat) may not act on anyone's turn.
    let no = combat::act(&app, &bob, combat::Move::Draw, None, None).await;
    assert!(refusal(&no).contains("turn"), "{}", refusal(&no));
    let r = combat::act(&app, &fc, combat::Move::Draw, None, None).await;
    assert_eq!(first(&r).0, "ephemeral");
    match &r.as_ref().unwrap().followups[..] {
        [Reply::Edit(t)] => assert_eq!(t.session(), Some(session)),
        other => panic!("expected one Edit, got {other:?}"),
    }
}
