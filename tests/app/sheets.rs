//! The shared sheet features at the application layer: deleting through
//! the Delete/Keep prompt (rights, the log row, the active-character
//! note), Venus prompts posted before the feature was shared, and one way
//! to name a character with its refusals.

use crate::common::{app, caller, first, refusal, CHANNEL, GUILD};
use kismet::app::characters::Pick;
use kismet::app::component::{dispatch, to_base36};
use kismet::app::{App, AppResult, View};
use kismet::storage;
use kismet::systems::{table, venus};

/// The first reply's text (content, titles and descriptions).
fn text(r: &AppResult) -> String {
    let v: &View = first(r).1;
    let mut out = v.content.clone().unwrap_or_default();
    for e in &v.embeds {
        out.push('\n');
        out.push_str(&e.title);
        out.push('\n');
        out.push_str(e.description.as_deref().unwrap_or(""));
    }
    out
}

async fn character(app: &App, who: &str, name: &str) -> Option<storage::characters::Character> {
    let mut tx = app.db.read().await.unwrap();
    storage::characters::by_name(&mut tx, GUILD, "venus", caller(who).user_id, name)
        .await
        .unwrap()
}

#[tokio::test]
async fn a_deletion_is_asked_answered_by_its_owner_and_logged() {
    let app = app(1).await;
    let (alice, bob) = (caller("alice"), caller("bob"));
    venus::sheets::create(&app, &alice, "Ann", None, None)
        .await
        .unwrap();
    let ve = app.registry.by_root("ve").unwrap();
    // The shown sheet's Delete asks.
    let shown = table::show(&app, &alice, ve, Pick::named("ann"), true).await;
    let delete = crate::common::button(first(&shown).1, "Delete");
    assert!(delete.starts_with("card:"), "{delete}");
    let ask = dispatch(&app, &alice, &delete, &[]).await;
    let (kind, v) = first(&ask);
    assert_eq!(kind, "ephemeral");
    let labels: Vec<&str> = v.all_buttons().map(|b| b.label.as_str()).collect();
    assert_eq!(labels, vec!["Delete", "Keep"]);
    let del = crate::common::button(v, "Delete");
    assert!(del.starts_with("sheet:") && del.ends_with(":del"), "{del}");
    // A stranger's click is refused and changes nothing.
    let no = dispatch(&app, &bob, &del, &[]).await;
    assert!(refusal(&no).contains("Only the character's owner (or the"));
    assert!(character(&app, "alice", "Ann").await.is_some());
    // The owner's Delete deletes, says it was the active one, and logs it.
    let done = dispatch(&app, &alice, &del, &[]).await;
    assert_eq!(first(&done).0, "update");
    assert!(
        text(&done).contains(
            "🗑 Ann was deleted. It was the active character: pick another with `/ve sheet show` (**Play as…**)."
        ),
        "{}",
        text(&done)
    );
    assert!(first(&done).1.all_buttons().next().is_none());
    assert!(character(&app, "alice", "Ann").await.is_none());
    let session: i64 = i64::from_str_radix(del.split(':').nth(1).unwrap(), 36).unwrap();
    let log = crate::common::log_of(&app, session).await;
    assert_eq!(log.len(), 1);
    assert_eq!(
        (log[0].system.as_str(), log[0].action.as_str()),
        ("venus", "sheet_delete")
    );
    // A second click on the old prompt applies nothing twice.
    let again = dispatch(&app, &alice, &del, &[]).await;
    assert_eq!(first(&again).0, "update");
    assert!(text(&again).contains("Ann was deleted"));
}

#[tokio::test]
async fn venus_prompts_posted_before_the_shared_feature_keep_working() {
    let app = app(2).await;
    let bob = caller("bob");
    venus::sheets::create(&app, &bob, "Bo", None, None)
        .await
        .unwrap();
    venus::sheets::create(&app, &bob, "Cy", None, None)
        .await
        .unwrap();
    let mut ids = Vec::new();
    for name in ["Bo", "Cy"] {
        let row = character(&app, "bob", name).await.unwrap();
        // The state an older Kismet stored for `/ve sheet delete`.
        let state = serde_json::json!({
            "delete": { "character": row.id, "name": name, "owner": bob.user_id, "done": null }
        })
        .to_string();
        let mut tx = app.db.write().await.unwrap();
        let id = storage::sessions::insert(
            &mut tx,
            storage::sessions::NewSession {
                guild_id: GUILD,
                channel_id: CHANNEL,
                parent_id: None,
                owner_id: bob.user_id,
                kind: "ve",
                state: &state,
                expires_at: None,
                now: storage::now_ms(),
            },
        )
        .await
        .unwrap();
        tx.commit().await.unwrap();
        ids.push(id);
    }
    let kept = dispatch(&app, &bob, &format!("ve:{}:0:keep", to_base36(ids[0])), &[]).await;
    assert!(text(&kept).contains("Bo was kept"), "{}", text(&kept));
    assert!(character(&app, "bob", "Bo").await.is_some());
    let stranger = dispatch(
        &app,
        &caller("alice"),
        &format!("ve:{}:0:del", to_base36(ids[1])),
        &[],
    )
    .await;
    assert!(refusal(&stranger).contains("Only the character's owner (or the"));
    let gone = dispatch(&app, &bob, &format!("ve:{}:0:del", to_base36(ids[1])), &[]).await;
    assert_eq!(first(&gone).0, "update");
    assert!(text(&gone).contains("🗑 Cy was deleted."), "{}", text(&gone));
    assert!(character(&app, "bob", "Cy").await.is_none());
}

#[tokio::test]
async fn a_character_is_named_one_way_with_one_set_of_refusals() {
    let app = app(3).await;
    let (alice, bob, fc) = (caller("alice"), caller("bob"), caller("fc"));
    venus::sheets::create(&app, &alice, "Ann", None, None)
        .await
        .unwrap();
    venus::sheets::create(&app, &bob, "Ann", None, None)
        .await
        .unwrap();
    let ve = app.registry.by_root("ve").unwrap();
    // Two members' Ann: ambiguous for the FC until `player:` says whose.
    let no = table::show(&app, &fc, ve, Pick::named("Ann"), false).await;
    assert!(refusal(&no).contains(
        "Several members have a character named `Ann`: say whose with `/ve-gm sheet show player:`"
    ));
    let r = table::show(
        &app,
        &fc,
        ve,
        Pick::new(Some("Ann"), Some(bob.user_id)),
        false,
    )
    .await;
    assert_eq!(first(&r).0, "message");
    // A player reaches only their own.
    let no = table::rename(&app, &bob, ve, Pick::new(None, Some(alice.user_id)), "X").await;
    assert_eq!(
        refusal(&no),
        "Only the FC can act on another player's sheet: that is members with the Manage Server permission (a server manager can name an FC role with `/fc role`)."
    );
    // Renaming keeps Venus's sheet and row in step, and is logged.
    let r = table::rename(&app, &alice, ve, Pick::named("Ann"), "Ada").await;
    assert!(text(&r).contains("**Ann** is now called **Ada**"));
    let row = character(&app, "alice", "Ada").await.unwrap();
    let sheet: serde_json::Value = serde_json::from_str(&row.sheet).unwrap();
    assert_eq!(sheet["name"], "Ada");
    assert!(character(&app, "alice", "Ada").await.unwrap().active);
}
