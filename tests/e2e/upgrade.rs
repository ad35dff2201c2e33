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
    ("carol", "vv:5:0:basic:9", "Ann"),
    ("dave", "vr:6:0:rest_stress", "Vi"),
    ("alice", "ve:7:0:roll", "Finesse"),
];

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_database_from_9b2827a_keeps_its_buttons_working() {
    let path = db_path("upgrade");
    let fixture = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/data/upgrade/9b2827a.db");
    std::fs::copy(fixture, &path).unwrap();
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
    assert_schema_clean(&t);
    t.stop().await;
}
