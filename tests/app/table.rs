//! The shared table features: one settings flow, the channel's system.

use crate::common::{app, caller, first, refusal, GUILD};
use kismet::systems::fc::{self, catalog::Scope};

#[tokio::test]
async fn fc_set_and_a_systems_settings_set_are_one_flow_logged_before_and_after() {
    let app = app(1).await;
    let fc_caller = caller("fc");
    let st = Scope::of(&app.registry, "st_default_difficulty").unwrap();
    // The system's own command, restricted to its settings.
    let r = fc::set(&app, &fc_caller, Some(st), "st_default_difficulty", "7").await;
    let (kind, v) = first(&r);
    assert_eq!(kind, "message");
    assert_eq!(v.embeds[0].title, "⚙️ House rule changed · Storyteller");
    assert!(v.embeds[0]
        .description
        .as_deref()
        .unwrap()
        .starts_with("**st_default_difficulty**: 6 → **7**"));
    // /fc set changes the same value, with the same reply.
    let r2 = fc::set(&app, &fc_caller, None, "st_default_difficulty", "8").await;
    assert_eq!(first(&r2).1.embeds[0].title, v.embeds[0].title);
    // Both are logged with before and after.
    let mut tx = app.db.read().await.unwrap();
    let rows = kismet::storage::history::newest(
        &mut tx,
        &kismet::storage::history::Filter {
            guild_id: GUILD,
            ..Default::default()
        },
        10,
        0,
    )
    .await
    .unwrap();
    drop(tx);
    let outcomes: Vec<serde_json::Value> = rows
        .iter()
        .map(|r| serde_json::from_str(&r.entry.outcome).unwrap())
        .collect();
    assert_eq!(
        outcomes[0],
        serde_json::json!({"before": "7", "after": "8"})
    );
    assert_eq!(
        outcomes[1],
        serde_json::json!({"before": "6", "after": "7"})
    );
    assert!(rows
        .iter()
        .all(|r| r.entry.system == "storyteller" && r.entry.action == "settings"));
    // Another system's setting is refused through a system's command.
    let no = fc::set(&app, &fc_caller, Some(st), "vr_locked_slot", "success").await;
    assert!(refusal(&no).contains("There is no Storyteller setting called `vr_locked_slot`"));
    // Players may not change house rules.
    let no = fc::set(&app, &caller("bob"), None, "st_default_difficulty", "9").await;
    assert!(refusal(&no).starts_with("Only the FC can change the house rules"));
}

#[tokio::test]
async fn a_channel_plays_one_system() {
    let app = app(1).await;
    let alice = caller("alice");
    // No system chosen: every command may run.
    for root in ["ve", "vr", "st", "vv", "roll", "help"] {
        kismet::app::settings::allows_here(&app, &alice, root)
            .await
            .unwrap();
    }
    let r = fc::channel_system(&app, &caller("fc"), Some("storyteller")).await;
    assert_eq!(first(&r).0, "message");
    for root in ["ve", "vr", "vv"] {
        let e = kismet::app::settings::allows_here(&app, &alice, root)
            .await
            .unwrap_err();
        assert!(
            e.user_message()
                .contains("This channel plays **Storyteller**"),
            "{root}"
        );
    }
    // Its own system and the commands of no system still run.
    for root in ["st", "roll", "history", "fc"] {
        kismet::app::settings::allows_here(&app, &alice, root)
            .await
            .unwrap();
    }
}

/// A character is read by its id only as its own game's: another game's
/// sheet (a stale id in a session's state) is no character of this game,
/// not a sheet read as the wrong type.
#[tokio::test]
async fn a_character_by_id_is_only_its_own_games() {
    use kismet::app::pipeline::Turn;
    use kismet::systems::storyteller::{context::Storyteller, sheets};
    use kismet::systems::venus::context::Venus;
    let app = app(2).await;
    let alice = caller("alice");
    let r = sheets::create(&app, &alice, "Bea", 4, None).await;
    assert_eq!(first(&r).0, "message");
    let mut st = Turn::<Storyteller>::begin(&app, &alice).await.unwrap();
    let bea = st.every_character(10).await.unwrap();
    assert_eq!(bea.len(), 1);
    let id = bea[0].row.id;
    let found = st.character_by_id(id).await.unwrap();
    assert_eq!(found.map(|c| c.row.name), Some("Bea".to_string()));
    drop(st);
    let mut ve = Turn::<Venus>::begin(&app, &alice).await.unwrap();
    assert!(ve.character_by_id(id).await.unwrap().is_none());
}
