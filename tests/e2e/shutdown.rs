//! A clean stop: SIGTERM (what `docker stop` sends) and SIGINT make the real
//! binary close the gateway, finish what it answered, checkpoint the WAL
//! and exit 0, also when the gateway has gone away; `kismet health` reads
//! the heartbeat a connected bot writes: beside an SQLite file, in the
//! temporary directory under the process's shards (PostgreSQL, when
//! `KISMET_TEST_POSTGRES` is set), or in the file `--heartbeat` /
//! `KISMET_HEARTBEAT` names.

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
        .env_remove("KISMET_HEARTBEAT")
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
            .env_remove("KISMET_HEARTBEAT")
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
    // Stopped: unhealthy at once, not for the next minute of a stale beat.
    assert!(!beat.exists(), "the heartbeat is removed at a clean stop");
    let out = health(&path);
    assert_eq!(out.status.code(), Some(1));
    assert!(String::from_utf8_lossy(&out.stderr).contains("no heartbeat"));
    t.stop().await;
}

/// `kismet <args>` on `database`, with `TMPDIR=tmp` (where the default
/// heartbeat of a database without a file goes) and `KISMET_HEARTBEAT`
/// only as `env_beat` gives it.
fn kismet(database: &str, tmp: &Path, env_beat: Option<&Path>, args: &[&str]) -> Command {
    let mut cmd = Command::new(env!("CARGO_BIN_EXE_kismet"));
    cmd.args(args)
        .current_dir(tmp)
        .env("DISCORD_TOKEN", "fake.token.kismet")
        .env("DATABASE_URL", database)
        .env("KISMET_REGISTER", "global")
        .env("RUST_LOG", "warn")
        .env("TMPDIR", tmp)
        .env_remove("KISMET_HEARTBEAT")
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .kill_on_drop(true);
    if let Some(file) = env_beat {
        cmd.env("KISMET_HEARTBEAT", file);
    }
    cmd
}

/// Runs `kismet health <args>`: its exit code and standard error.
async fn health_of(
    database: &str,
    tmp: &Path,
    env_beat: Option<&Path>,
    args: &[&str],
) -> (Option<i32>, String) {
    let mut all = vec!["health"];
    all.extend_from_slice(args);
    let out = kismet(database, tmp, env_beat, &all)
        .stderr(Stdio::piped())
        .output()
        .await
        .unwrap();
    (
        out.status.code(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

/// Waits (a hang guard) until the bot wrote `file`.
async fn await_beat(file: &Path) {
    for _ in 0..400 {
        if file.exists() {
            return;
        }
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    panic!("no heartbeat was written at {}", file.display());
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn health_checks_the_process_of_a_shard_range() {
    let database = crate::multiprocess::shared_database("health-shards");
    let tmp = crate::multiprocess::scratch("health-shards");
    let shards = ["--shards", "0", "--shard-count", "1"];
    let t = Table::start_external(TableOptions::new(db_path("health-shards-fake")))
        .await
        .unwrap();
    let before = t.registration_count();
    let mut run = vec!["run", "--api-base"];
    let base = t.fake.base_url();
    run.push(&base);
    run.extend_from_slice(&shards);
    let child = kismet(&database, &tmp, None, &run).spawn().unwrap();
    t.await_registration(before).await.unwrap();
    let beat = match database.strip_prefix("sqlite://") {
        Some(file) => std::path::PathBuf::from(format!("{file}.heartbeat")),
        None => tmp.join("kismet-shards-0-0-of-1.heartbeat"),
    };
    await_beat(&beat).await;
    let (code, err) = health_of(&database, &tmp, None, &shards).await;
    assert_eq!(code, Some(0), "{err}");
    if kismet::storage::Backend::of_url(&database) == kismet::storage::Backend::Postgres {
        // Without the shards it looks for another process's file.
        let (code, err) = health_of(&database, &tmp, None, &[]).await;
        assert_eq!(code, Some(1));
        let other = tmp.join("kismet.heartbeat");
        assert!(
            err.contains(&format!("no heartbeat at {}", other.display())),
            "{err}"
        );
    }
    signal(&child, "-TERM");
    assert_eq!(exit_code(child).await, Some(0));
    t.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn health_reads_the_heartbeat_file_it_is_given() {
    let path = db_path("health-file");
    let database = format!("sqlite://{}", path.display());
    let tmp = crate::multiprocess::scratch("health-file");
    let file = tmp.join("bot.beat");
    let t = Table::start_external(TableOptions::new(&path))
        .await
        .unwrap();
    let before = t.registration_count();
    let base = t.fake.base_url();
    let file_arg = file.display().to_string();
    let child = kismet(
        &database,
        &tmp,
        None,
        &["run", "--api-base", &base, "--heartbeat", &file_arg],
    )
    .spawn()
    .unwrap();
    t.await_registration(before).await.unwrap();
    await_beat(&file).await;
    // The option on one side, the variable on the other: the same file.
    let (code, err) = health_of(&database, &tmp, Some(&file), &[]).await;
    assert_eq!(code, Some(0), "{err}");
    let (code, err) = health_of(&database, &tmp, None, &["--heartbeat", &file_arg]).await;
    assert_eq!(code, Some(0), "{err}");
    // Without it, the default beside the database holds nothing.
    let (code, err) = health_of(&database, &tmp, None, &[]).await;
    assert_eq!(code, Some(1));
    assert!(err.contains("no heartbeat at"), "{err}");
    assert!(!std::path::PathBuf::from(format!("{}.heartbeat", path.display())).exists());
    signal(&child, "-TERM");
    assert_eq!(exit_code(child).await, Some(0));
    t.stop().await;
}
