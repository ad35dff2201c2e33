//! Veracity at the application layer: a sheet with Light and Flesh slots,
//! roll-under saves against an inventory, rights and the log rows.

use crate::common::{app, caller, first, refusal};
use kismet::rules::veracity::InventoryKind;
use kismet::systems::veracity::{saves, sheets};

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
    let r = saves::save(&app, &alice, InventoryKind::Light, 0, None, None).await;
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
    let no = saves::save(
        &app,
        &bob,
        InventoryKind::Flesh,
        0,
        None,
        Some(alice.user_id),
    )
    .await;
    assert!(!refusal(&no).is_empty());
    let fc = caller("fc");
    let r = saves::save(
        &app,
        &fc,
        InventoryKind::Flesh,
        0,
        None,
        Some(alice.user_id),
    )
    .await;
    assert_eq!(first(&r).0, "message");
}
