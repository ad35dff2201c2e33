//! A clean stop: SIGTERM (what `docker stop` sends) and SIGINT make the real
//! binary close the gateway, finish what it answered, checkpoint the WAL
//! and exit 0, also when the gateway has gone away; `kismet health` reads
//! the heartbeat a connected bot writes.

use std::path::Path;
use std::process::Stdio;
use std::time::Duration;

use crate::common::db_path;
use kismet::fake::table::{Table, TableOptions};
use tokio::process::{Child, Command};

fn spawn(t: &Table, db: &Path, tag: &str) -> Child {
    let dir = db.parent().unwrap().join(format!("shutdown-{tag}"));
    std::fs::create_dir_all(&dir).unwrap();
    Command::new(env!("CARGO_BIN_EXE_kismet"))
        .args(["run", "--api-base", &t.fake.base_url()])
        .current_dir(&dir)
        .env("DISCORD_TOKEN", "fake.token.kismet")
        .env("DATABASE_URL", format!("sqlite://{}", db.display()))
        .env("KISMET_REGISTER", "global")
        .env("RUST_LOG", "warn")
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .kill_on_drop(true)
        .spawn()
        .expect("the kismet binary starts")
}

fn signal(child: &Child, sig: &str) {
    let pid = child.id().expect("running").to_string();
    let ok = std::process::Command::new("kill")
        .args([sig, &pid])
        .status()
        .unwrap();
    assert!(ok.success());
}

/// Waits for the exit (a hang guard, not a timing assertion) and returns
/// its code.
async fn exit_code(mut child: Child) -> Option<i32> {
    let status = tokio::time::timeout(Duration::from_secs(60), child.wait())
        .await
        .expect("the bot exits after the signal")
        .unwrap();
    status.code()
}

fn wal_len(db: &Path) -> u64 {
    std::fs::metadata(format!("{}-wal", db.display())).map_or(0, |m| m.len())
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn sigterm_stops_cleanly_with_every_answered_action_stored() {
    let path = db_path("sigterm");
    let t = Table::start_external(TableOptions::new(&path))
        .await
        .unwrap();
    let before = t.registration_count();
    let child = spawn(&t, &path, "term");
    t.await_registration(before).await.unwrap();
    let mut answered = 0;
    for i in 0..12 {
        let ex = t
            .command("alice", &format!("/roll expression:{}d6", i % 5 + 1))
            .await
            .unwrap();
        assert_eq!(ex.single().kind, "message");
        answered += 1;
    }
    signal(&child, "-TERM");
    assert_eq!(exit_code(child).await, Some(0), "SIGTERM exits 0");
    // Checkpointed on the way out: the log is empty, the file is sound.
    assert_eq!(wal_len(&path), 0, "the WAL was not checkpointed");
    let db = kismet::storage::Db::open(&format!("sqlite://{}", path.display()), 2)
        .await
        .unwrap();
    assert!(db.integrity_ok().await.unwrap());
    let mut tx = db.read().await.unwrap();
    let logged = kismet::storage::log::count(&mut tx, kismet::fake::table::GUILD_ID as i64)
        .await
        .unwrap();
    drop(tx);
    assert_eq!(logged, answered, "every answered roll is stored");
    db.close().await;
    t.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn sigint_stops_cleanly_when_the_gateway_is_gone() {
    let path = db_path("sigint");
    let t = Table::start_external(TableOptions::new(&path))
        .await
        .unwrap();
    let before = t.registration_count();
    let child = spawn(&t, &path, "int");
    t.await_registration(before).await.unwrap();
    let ex = t.command("alice", "/roll expression:2d6").await.unwrap();
    assert_eq!(ex.single().kind, "message");
    // Discord goes away: the bot is left reconnecting to nothing.
    t.stop().await;
    tokio::time::sleep(Duration::from_millis(300)).await;
    signal(&child, "-INT");
    assert_eq!(exit_code(child).await, Some(0), "SIGINT exits 0");
    assert_eq!(wal_len(&path), 0);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn health_reports_the_heartbeat_of_a_connected_bot() {
    let path = db_path("health");
    let health = |db: &Path| {
        std::process::Command::new(env!("CARGO_BIN_EXE_kismet"))
            .arg("health")
            .env("DATABASE_URL", format!("sqlite://{}", db.display()))
            .output()
            .unwrap()
    };
    // No bot has run: unhealthy, saying why.
    let out = health(&path);
    assert_eq!(out.status.code(), Some(1));
    assert!(String::from_utf8_lossy(&out.stderr).contains("no heartbeat"));
    let t = Table::start_external(TableOptions::new(&path))
        .await
        .unwrap();
    let before = t.registration_count();
    let child = spawn(&t, &path, "health");
    t.await_registration(before).await.unwrap();
    // A beat is written within seconds of the shard connecting.
    let beat = std::path::PathBuf::from(format!("{}.heartbeat", path.display()));
    for _ in 0..400 {
        if beat.exists() {
            break;
        }
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    let out = health(&path);
    assert_eq!(
        out.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    signal(&child, "-TERM");
    assert_eq!(exit_code(child).await, Some(0));
    t.stop().await;
}
