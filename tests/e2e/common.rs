//! Shared helpers: a fresh table per test, and the end-of-test checks.
//!
//! A table plays on a fresh SQLite file, or on a fresh PostgreSQL database
//! when `KISMET_TEST_POSTGRES` names a server (see `storage::scratch`).

use kismet::fake::table::{Exchange, Output, Table, TableOptions};
use kismet::storage::scratch::ScratchDb;
use std::path::PathBuf;
use std::sync::atomic::{AtomicU32, Ordering};
use std::sync::Arc;

static COUNTER: AtomicU32 = AtomicU32::new(0);

/// A fresh database path for one test.
pub fn db_path(tag: &str) -> PathBuf {
    let n = COUNTER.fetch_add(1, Ordering::SeqCst);
    let dir = std::env::temp_dir().join(format!("kismet-e2e-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    dir.join(format!("{tag}-{n}.db"))
}

/// A table with a seeded bot on a fresh database.
pub async fn table(tag: &str, seed: u64) -> Table {
    table_with(tag, seed, |_| {}).await
}

/// [`table`], with its options changed by `adjust` first (a manual clock,
/// say).
pub async fn table_with(tag: &str, seed: u64, adjust: impl FnOnce(&mut TableOptions)) -> Table {
    // The bot's errors show with a failing test's output (RUST_LOG=debug
    // for more).
    let _ = tracing_subscriber::fmt()
        .with_env_filter(tracing_subscriber::EnvFilter::from_default_env())
        .with_test_writer()
        .try_init();
    let mut opts = TableOptions::new(db_path(tag));
    opts.seed = Some(seed);
    opts.database = scratch_postgres().await;
    adjust(&mut opts);
    Table::start(opts).await.expect("table starts")
}

/// With `KISMET_TEST_POSTGRES` (an administrator's URL), a fresh PostgreSQL
/// database for one table, dropped with it; `None` runs on SQLite.
pub async fn scratch_postgres() -> Option<Arc<ScratchDb>> {
    let admin = kismet::storage::scratch::test_postgres()?;
    let db = ScratchDb::create(&admin)
        .await
        .unwrap_or_else(|e| panic!("KISMET_TEST_POSTGRES={admin}: {e}"));
    Some(Arc::new(db))
}

/// Fails the test if any request the bot sent broke Discord's schema.
pub fn assert_schema_clean(table: &Table) {
    let v = table.fake.violations();
    assert!(v.is_empty(), "schema violations:\n{}", v.join("\n"));
}

/// The session behind the first enabled button labelled `label` of a reply.
pub fn session_of_button(out: &kismet::fake::table::Output, label: &str) -> i64 {
    out.buttons()
        .into_iter()
        .find(|b| b.0 == label && !b.2)
        .and_then(|b| kismet::app::component::ButtonId::parse(&b.1))
        .unwrap_or_else(|| panic!("no `{label}` button in {}", out.text()))
        .session
}

/// Makes a session of the table's guild due for expiry now; the sweeper
/// (`sessions.sweep_seconds`) then expires it and redraws its message.
pub async fn expire_now(t: &Table, session: i64) {
    let db = t.db().await.expect("a database");
    let mut tx = db.write().await.unwrap();
    kismet::storage::sessions::set_expiry(
        &mut tx,
        kismet::fake::table::GUILD_ID as i64,
        session,
        Some(0),
    )
    .await
    .unwrap();
    tx.commit().await.unwrap();
}

/// Waits (up to 10 s) until message `id` holds a body for which `done`
/// is true (redrawn by the sweeper, say), and returns it.
pub async fn message_when(
    t: &Table,
    id: u64,
    done: impl Fn(&serde_json::Value) -> bool,
) -> kismet::fake::StoredMessage {
    t.fake
        .wait_for(std::time::Duration::from_secs(10), |f| {
            f.messages()
                .into_iter()
                .find(|m| m.id == id && done(&m.body))
        })
        .await
        .unwrap_or_else(|| panic!("message {id} never changed as expected"))
}

/// An exchange's one answer, leaving out the redraws of earlier posted
/// sheet cards that follow it (issue 28: a changed sheet redraws every
/// posted card that shows it).
pub trait Answer {
    /// The one output that is not such a redraw; panics (in tests) when
    /// there is not exactly one.
    fn only(&self) -> &kismet::fake::table::Output;
}

impl Answer for kismet::fake::table::Exchange {
    fn only(&self) -> &kismet::fake::table::Output {
        let answers: Vec<&kismet::fake::table::Output> = self
            .outputs
            .iter()
            .enumerate()
            .filter(|(i, o)| *i == 0 || !is_card_redraw(o))
            .map(|(_, o)| o)
            .collect();
        assert_eq!(
            answers.len(),
            1,
            "expected one reply besides card redraws, got {:#?}",
            self.outputs
        );
        answers[0]
    }
}

/// Whether an output redraws an earlier posted Storyteller sheet card (the
/// cards the action pipeline redraws; under concurrent actions the fake
/// may count another action's redraw with this one's answer).
pub fn is_card_redraw(o: &kismet::fake::table::Output) -> bool {
    o.kind == "update" && o.title().starts_with("📜") && o.text().contains("**Willpower**")
}

/// Every reply to one script line (`NAME in #channel: …` plays there).
pub async fn replies(t: &Table, line: &str) -> Exchange {
    t.run_line(line)
        .await
        .unwrap_or_else(|e| panic!("{line}: {e}"))
        .expect("a line")
        .1
}

/// The first reply to one script line.
pub async fn one(t: &Table, line: &str) -> Output {
    replies(t, line)
        .await
        .outputs
        .first()
        .cloned()
        .unwrap_or_else(|| panic!("{line}: no answer"))
}
