//! Upgrades keep old buttons: a database written by Kismet at 9b2827a
//! (before the registry, typed buttons and the secrecy column), with open
//! sessions of every system, is opened by today's code (migrations run at
//! start) and its old buttons are clicked.

use crate::common::{assert_schema_clean, db_path};
use kismet::fake::table::{Table, TableOptions};

/// The old buttons: (who, custom_id, what the answer must show).
const OLD_BUTTONS: [(&str, &str, &str); 6] = [
    ("alice", "roll:1:0:reroll", "2d6"),
    ("alice", "ve:2:0:roll", "Finesse"),
    ("bob", "st:4:0:keep", "Bo"),
    ("carol", "vv:5:0:basic:9", "Best set 2×9"),
    ("dave", "vr:6:0:rest_stress", "Vi"),
    ("alice", "ve:7:0:roll", "Finesse"),
];

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_database_from_9b2827a_keeps_its_buttons_working() {
    let path = db_path("upgrade");
    let fixture = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/data/upgrade/9b2827a.db");
    std::fs::copy(fixture, &path).unwrap();
    // What 9b2827a wrote for a secret roll, added before any migration runs:
    // a log entry whose action carries the `secret ` prefix (with its dice
    // faces) and a secret session marked by its `secret_session:<id>` row.
    {
        let url = format!("sqlite://{}", path.display());
        let old = sqlx::SqlitePool::connect(&url).await.unwrap();
        for sql in [
            "INSERT INTO roll_log (guild_id, channel_id, user_id, character_id, session_id, system, action, inputs, dice, outcome, created_at)
             SELECT guild_id, channel_id, user_id, NULL, NULL, 'generic', 'secret roll', '{\"expression\":\"9d9\"}', '[]', '{\"total\":77}', created_at
             FROM roll_log WHERE id = 1",
            "INSERT INTO roll_faces (log_id, sides, face, n) SELECT MAX(id), 9, 7, 9 FROM roll_log",
            "INSERT INTO sessions (guild_id, channel_id, owner_id, kind, state, version, status, created_at, updated_at)
             SELECT guild_id, channel_id, owner_id, kind, state, 0, 'closed', created_at, updated_at FROM sessions WHERE id = 1",
            "INSERT INTO channel_state (guild_id, channel_id, key, value, updated_at)
             SELECT guild_id, channel_id, 'secret_session:' || id, '{}', updated_at FROM sessions WHERE id = 8",
        ] {
            sqlx::query(sql).execute(&old).await.unwrap();
        }
        old.close().await;
    }
    // The sessions were written long ago: a click within their timeout is
    // what an upgrade during play looks like, so lift the expiry.
    {
        let db = kismet::storage::Db::open(&format!("sqlite://{}", path.display()), 1)
            .await
            .unwrap();
        let mut tx = db.write().await.unwrap();
        sqlx::query("UPDATE sessions SET expires_at = NULL")
            .execute(&mut *tx)
            .await
            .unwrap();
        tx.commit().await.unwrap();
        // The migration moved secrecy into columns: the old entry is secret
        // without its prefix, the old secret session is secret, no other is.
        let mut tx = db.read().await.unwrap();
        let rows: Vec<(String, i64)> =
            sqlx::query_as("SELECT action, secret FROM roll_log WHERE inputs LIKE '%9d9%'")
                .fetch_all(&mut *tx)
                .await
                .unwrap();
        assert_eq!(rows, vec![("roll".to_string(), 1)]);
        let secret: Vec<(i64,)> = sqlx::query_as("SELECT id FROM sessions WHERE secret = 1")
            .fetch_all(&mut *tx)
            .await
            .unwrap();
        assert_eq!(secret, vec![(8,)]);
        drop(tx);
        db.close().await;
    }
    let mut opts = TableOptions::new(&path);
    opts.seed = Some(3);
    let t = Table::start(opts).await.unwrap();
    for (n, (who, custom_id, shows)) in OLD_BUTTONS.iter().enumerate() {
        let ex = t
            .click_custom_id(who, 900_000 + n as u64, custom_id, None)
            .await
            .unwrap_or_else(|e| panic!("{custom_id}: {e}"));
        let first = &ex.outputs[0];
        assert_eq!(first.kind, "update", "{custom_id}: {}", first.text());
        assert!(
            first.text().contains(shows),
            "{custom_id}: expected `{shows}` in {}",
            first.text()
        );
        assert!(
            !ex.outputs
                .iter()
                .any(|o| o.text().contains("not one I recognise")
                    || o.text().contains("no longer exists")),
            "{custom_id}: refused"
        );
        // The click was applied: the session moved on from version 0.
        let again = t
            .click_custom_id(who, 900_000 + n as u64, custom_id, None)
            .await
            .unwrap();
        assert_eq!(again.outputs[0].kind, "update", "{custom_id}: stale click");
    }
    // The old secret roll stays hidden from other players (history and
    // dice counts) and shows to the FC as a secret roll.
    let bob = t.command("bob", "/history show user:alice").await.unwrap();
    let text = bob.single().text();
    assert!(!text.contains("9d9") && !text.contains("secret"), "{text}");
    let fc = t.command("fc", "/history show user:alice").await.unwrap();
    let text = fc.single().text();
    assert!(
        text.contains("secret roll") && text.contains("9d9"),
        "{text}"
    );
    let bob = t.command("bob", "/stats user:alice").await.unwrap();
    assert!(
        !bob.single().text().contains("d9"),
        "{}",
        bob.single().text()
    );
    let fc = t.command("fc", "/stats user:alice").await.unwrap();
    assert!(fc.single().text().contains("d9"), "{}", fc.single().text());
    assert_schema_clean(&t);
    t.stop().await;
}

/// A database written by Kismet at 5ccfe95 (every game on the action
/// pipeline, before games existed: issue 32's and 31's migrations and
/// command roots came after) playing `tests/data/upgrade/5ccfe95.txt`:
/// opened by today's code, its server has no game and plays exactly as
/// before. Its old buttons still act (a task's Roll, a Virtual Veil set, a
/// Veracity rest, a check's Roll d20 waiting since before checks rolled at
/// once), the game master approves a request made under the old
/// `player_edits = approval`, the log reads, and what is rolled now
/// belongs to no game (issue 32 item 2, issue 28 item 3).
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_database_from_before_games_plays_as_before() {
    let path = db_path("upgrade-5ccfe95");
    let fixture = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/data/upgrade/5ccfe95.db");
    std::fs::copy(fixture, &path).unwrap();
    // Written long ago: lift the expiry, as an upgrade during play.
    {
        let db = kismet::storage::Db::open(&format!("sqlite://{}", path.display()), 1)
            .await
            .unwrap();
        let mut tx = db.write().await.unwrap();
        sqlx::query("UPDATE sessions SET expires_at = NULL")
            .execute(&mut *tx)
            .await
            .unwrap();
        tx.commit().await.unwrap();
        db.close().await;
    }
    let mut opts = TableOptions::new(&path);
    opts.seed = Some(3);
    let t = Table::start(opts).await.unwrap();
    let old = [
        ("alice", "roll:1:0:reroll", "2d6"),
        ("alice", "ve:2:0:roll", "Finesse"),
        ("carol", "vv:5:0:basic:9", "2×9"),
        ("dave", "vr:6:0:rest_stress", "Vi"),
        ("alice", "ve:7:0:roll", "Finesse"),
        ("fc", "approve:8:0:approve", "Approved by"),
    ];
    for (n, (who, custom_id, shows)) in old.iter().enumerate() {
        let ex = t
            .click_custom_id(who, 910_000 + n as u64, custom_id, None)
            .await
            .unwrap_or_else(|e| panic!("{custom_id}: {e}"));
        let first = &ex.outputs[0];
        assert_eq!(first.kind, "update", "{custom_id}: {}", first.text());
        assert!(
            first.text().contains(shows),
            "{custom_id}: expected `{shows}` in {}",
            first.text()
        );
    }
    // The approved change is on Bo's sheet: willpower 2 of 5.
    let sheet = t.command("bob", "/st sheet show").await.unwrap();
    assert!(
        sheet.single().text().contains("2/5"),
        "{}",
        sheet.single().text()
    );
    // No game here: the table plays as it did, its log reads.
    let none = t.command("alice", "/game").await.unwrap();
    assert!(
        none.single().text().contains("belongs to no game"),
        "{}",
        none.single().text()
    );
    let log = t.command("bob", "/history show user:bob").await.unwrap();
    assert!(
        log.single().text().contains("Bo"),
        "{}",
        log.single().text()
    );
    t.command("bob", "/st pool dice:3").await.unwrap();
    let db = t.db().await.unwrap();
    let mut tx = db.read().await.unwrap();
    let in_games: Vec<(i64,)> =
        sqlx::query_as("SELECT COUNT(*) FROM roll_log WHERE game_id IS NOT NULL")
            .fetch_all(&mut *tx)
            .await
            .unwrap();
    assert_eq!(in_games, vec![(0,)]);
    drop(tx);
    assert_schema_clean(&t);
    t.stop().await;
}
