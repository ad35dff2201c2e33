//! The bot token never appears in the logs: the real binary runs against
//! the fake Discord at `RUST_LOG=trace` (where the WebSocket layer logs the
//! IDENTIFY frame, token included) and its whole output is searched.

use std::process::Stdio;

use crate::common::db_path;
use kismet::fake::table::{Table, TableOptions};
use tokio::process::Command;

const TOKEN: &str = "MTIz.kismet-log-test.S3CR3T-do-not-log";

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_token_is_never_logged_even_at_trace() {
    let path = db_path("logs");
    let t = Table::start_external(TableOptions::new(&path))
        .await
        .unwrap();
    let dir = path.parent().unwrap().join("logs-bot");
    std::fs::create_dir_all(&dir).unwrap();
    let log = dir.join("stderr.log");
    let before = t.registration_count();
    let mut child = Command::new(env!("CARGO_BIN_EXE_kismet"))
        .args(["run", "--api-base", &t.fake.base_url()])
        .current_dir(&dir)
        .env("DISCORD_TOKEN", TOKEN)
        .env("DATABASE_URL", format!("sqlite://{}", path.display()))
        .env("KISMET_REGISTER", "global")
        .env("RUST_LOG", "trace")
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(std::fs::File::create(&log).unwrap())
        .kill_on_drop(true)
        .spawn()
        .expect("the kismet binary starts");
    t.await_registration(before).await.unwrap();
    let ex = t.command("alice", "/roll expression:2d6").await.unwrap();
    assert_eq!(ex.single().kind, "message");
    child.start_kill().unwrap();
    let _ = child.wait().await;
    let out = std::fs::read_to_string(&log).unwrap();
    // The log is the real thing: trace lines of the gateway handshake.
    assert!(out.lines().count() > 50, "{} lines", out.lines().count());
    assert!(out.contains("TRACE"), "no trace lines");
    // The handshake that carries the token was logged around.
    assert!(out.contains("Identifying"), "no IDENTIFY step in the log");
    for form in kismet::redact::forms(TOKEN) {
        assert!(!out.contains(&form), "the token is in the log as `{form}`");
    }
    assert!(!out.contains("S3CR3T"), "a part of the token is in the log");
    t.stop().await;
}
