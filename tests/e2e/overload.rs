//! Admission control (issue 17): a bot already working on its configured
//! most interactions (`[load] max_in_flight`) lets a new one wait its turn
//! for a second, then turns it away, privately, and does nothing with it;
//! as work finishes it acts again.

use crate::common::{assert_schema_clean, db_path, scratch_postgres, session_of_button};
use kismet::fake::table::{Table, TableOptions, GUILD_ID};
use kismet::storage;

/// The start of what a turned-away interaction is told.
const BUSY: &str = "⚠️ Kismet has too many requests to answer at this moment, so it did nothing";

#[tokio::test]
async fn at_capacity_a_command_and_a_click_are_turned_away_and_nothing_changes() {
    let mut opts = TableOptions::new(db_path("overload"));
    opts.seed = Some(17);
    opts.database = scratch_postgres().await;
    opts.config.load.max_in_flight = 1;
    let inflight = opts.inflight.clone();
    let t = Table::start(opts).await.expect("table starts");
    let db = t.db().await.expect("a database");

    let first = t.command("alice", "/roll expression:2d6").await.unwrap();
    let shown = first.outputs[0].text();
    assert!(shown.contains("🎲"), "{shown}");
    assert_eq!(
        inflight.count(),
        0,
        "an answered interaction no longer counts"
    );
    let session = session_of_button(&first.outputs[0], "Reroll");

    // Another interaction takes the one place, and keeps it.
    inflight.start(1);
    let busy = t.command("alice", "/roll expression:1d20").await.unwrap();
    let out = busy.single();
    assert_eq!(out.kind, "ephemeral");
    assert!(out.text().starts_with(BUSY), "{}", out.text());
    let busy = t.click("alice", "Reroll").await.unwrap();
    let out = busy.single();
    assert_eq!(
        out.kind, "ephemeral",
        "the roll's message is left as it was"
    );
    assert!(out.text().starts_with(BUSY), "{}", out.text());
    let mut tx = db.read().await.unwrap();
    assert_eq!(
        storage::log::count(&mut tx, GUILD_ID as i64).await.unwrap(),
        1,
        "neither the second roll nor the reroll happened"
    );
    let s = storage::sessions::get(&mut tx, GUILD_ID as i64, session)
        .await
        .unwrap()
        .unwrap();
    assert_eq!(s.version, 0);
    drop(tx);
    assert_eq!(
        inflight.count(),
        1,
        "the turned-away ones were never counted"
    );

    // A place that comes free while one waits goes to it.
    let t2 = std::sync::Arc::new(t);
    let waiting = {
        let t = t2.clone();
        tokio::spawn(async move { t.click("alice", "Reroll").await })
    };
    tokio::time::sleep(std::time::Duration::from_millis(300)).await;
    inflight.finish(1);
    let again = waiting.await.unwrap().unwrap();
    let t = t2;
    let out = again.single();
    assert_eq!(out.kind, "update");
    assert!(out.text().contains("Rerolled 1 time"), "{}", out.text());
    let mut tx = db.read().await.unwrap();
    assert_eq!(
        storage::log::count(&mut tx, GUILD_ID as i64).await.unwrap(),
        2
    );
    drop(tx);
    assert_eq!(inflight.count(), 0);
    assert_schema_clean(&t);
    t.stop().await;
}
