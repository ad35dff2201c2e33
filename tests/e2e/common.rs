//! Shared helpers: a fresh table per test, and the end-of-test checks.
//!
//! A table plays on a fresh SQLite file, or on a fresh PostgreSQL database
//! when `KISMET_TEST_POSTGRES` names a server (see `storage::scratch`).

use kismet::fake::table::{Table, TableOptions};
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
    // The bot's errors show with a failing test's output (RUST_LOG=debug
    // for more).
    let _ = tracing_subscriber::fmt()
        .with_env_filter(tracing_subscriber::EnvFilter::from_default_env())
        .with_test_writer()
        .try_init();
    let mut opts = TableOptions::new(db_path(tag));
    opts.seed = Some(seed);
    opts.database = scratch_postgres().await;
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
