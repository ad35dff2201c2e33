//! Several bot processes on one database (issue 17, items 2 and 4): two
//! real `kismet run` processes, each running half of the fake Discord's
//! gateway shards (`--shards 0 --shard-count 2`, `--shards 1 …`), share one
//! database. A thousand racing clicks of the same buttons across both apply
//! exactly once each; one process is SIGKILLed mid-stream while the other
//! keeps answering its guilds; restarted, the killed one's old buttons
//! work.
//!
//! The database is [`shared_database`]: a fresh SQLite file (two processes
//! on one file meet at its busy timeout), or the PostgreSQL server named by
//! `KISMET_TEST_POSTGRES` when that is set.

use crate::common::{assert_schema_clean, db_path};
use kismet::app::component::ButtonId;
use kismet::fake::shard_of;
use kismet::fake::table::{Exchange, Table, TableOptions};
use kismet::storage::{self, Db};
use std::path::{Path, PathBuf};
use std::process::Stdio;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Arc;
use std::time::Duration;
use tokio::process::{Child, Command};

/// The database URL the bot processes of one test share: the PostgreSQL
/// URL in `KISMET_TEST_POSTGRES` when set, else a fresh SQLite file named
/// after `tag`. Every test of several processes takes its URL here.
pub fn shared_database(tag: &str) -> String {
    match kismet::storage::scratch::test_postgres() {
        // A fresh database of its own on the tests' server, kept for the
        // rest of the run (the CI's throw-away server goes with it).
        Some(admin) => std::thread::spawn(move || {
            let rt = tokio::runtime::Builder::new_current_thread()
                .enable_all()
                .build()
                .unwrap();
            let db = rt
                .block_on(kismet::storage::scratch::ScratchDb::create(&admin))
                .expect("a scratch PostgreSQL database");
            Box::leak(Box::new(db)).url().to_string()
        })
        .join()
        .unwrap(),
        None => format!("sqlite://{}", db_path(tag).display()),
    }
}

/// A scratch folder for one test's bot processes (their working directory
/// and logs).
pub fn scratch(tag: &str) -> PathBuf {
    let dir = db_path(tag).with_extension("d");
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// `kismet run` as a child process against a fake Discord.
pub struct Bot {
    child: Child,
    log: PathBuf,
}

impl Bot {
    /// Starts `kismet run --api-base <fake>` on `database`, with `--shards
    /// <spec> --shard-count <count>` when `shards` is given; does not wait.
    pub fn spawn(
        base_url: &str,
        database: &str,
        dir: &Path,
        name: &str,
        shards: Option<(&str, u32)>,
    ) -> Bot {
        let log = dir.join(format!("{name}.log"));
        let mut args = vec!["run".to_string(), "--api-base".into(), base_url.into()];
        if let Some((spec, count)) = shards {
            args.extend([
                "--shards".into(),
                spec.into(),
                "--shard-count".into(),
                count.to_string(),
            ]);
        }
        let child = Command::new(env!("CARGO_BIN_EXE_kismet"))
            .args(&args)
            // No .env from the developer's checkout: a fake token only.
            .current_dir(dir)
            .env("DISCORD_TOKEN", "fake.token.kismet")
            .env("DATABASE_URL", database)
            .env("KISMET_REGISTER", "global")
            .env("RUST_LOG", "warn")
            .stdin(Stdio::null())
            .stdout(Stdio::null())
            .stderr(std::fs::File::create(&log).unwrap())
            .kill_on_drop(true)
            .spawn()
            .expect("the kismet binary starts");
        Bot { child, log }
    }

    /// Starts a bot for `shards` of the table's fake and waits until it
    /// registered its commands and its shards connected.
    pub async fn start(
        t: &Table,
        database: &str,
        dir: &Path,
        name: &str,
        shards: (&str, u32),
    ) -> Bot {
        let before = t.registration_count();
        let bot = Bot::spawn(&t.fake.base_url(), database, dir, name, Some(shards));
        if let Err(e) = t.await_registration(before).await {
            panic!("{name}: {e}\n{}", bot.stderr());
        }
        bot
    }

    /// What the process wrote to standard error so far.
    pub fn stderr(&self) -> String {
        std::fs::read_to_string(&self.log).unwrap_or_default()
    }

    /// SIGKILL: no shutdown, no goodbye; waits until it is gone.
    pub async fn kill_9(mut self) {
        let _ = self.child.start_kill();
        let status = tokio::time::timeout(Duration::from_secs(10), self.child.wait())
            .await
            .expect("a SIGKILLed process ends")
            .unwrap();
        assert_eq!(status.code(), None, "killed, not exited: {status:?}");
    }

    /// Waits for the process to exit by itself.
    pub async fn wait(&mut self) -> std::process::ExitStatus {
        self.child.wait().await.unwrap()
    }

    /// Whether the process is still running.
    pub fn running(&mut self) -> bool {
        matches!(self.child.try_wait(), Ok(None))
    }
}

/// A guild id whose shard (of `count`) is `shard`.
fn guild_on(shard: u32, count: u32, n: u64) -> u64 {
    let id = ((u64::from(shard) + u64::from(count) * n) << 22) | 4242;
    assert_eq!(shard_of(id, count), shard);
    id
}

/// The Reroll button a reply shows.
fn reroll(ex: &Exchange) -> Option<String> {
    ex.outputs
        .iter()
        .flat_map(|o| o.buttons())
        .find(|b| b.0 == "Reroll" && !b.2)
        .map(|b| b.1)
}

/// A guild played in by one process, with its roll.
struct Guild {
    id: u64,
    player: String,
    /// The roll's message and its session.
    message: u64,
    session: i64,
}

/// The roll's session version and its logged rerolls, from the database.
async fn version_and_rerolls(db: &Db, g: &Guild) -> (i64, usize) {
    let mut tx = db.read().await.unwrap();
    let s = storage::sessions::get(&mut tx, g.id as i64, g.session)
        .await
        .unwrap()
        .expect("the roll's session");
    let log = storage::log::for_session(&mut tx, g.id as i64, g.session)
        .await
        .unwrap();
    (
        s.version,
        log.iter().filter(|e| e.action == "reroll").count(),
    )
}

/// Clicks `g`'s Reroll at `version`, `n` times at once.
async fn race(t: &Arc<Table>, g: &Guild, version: i64, n: usize) -> Vec<Result<Exchange, String>> {
    let id = ButtonId::new("roll", g.session, version, "reroll").encode();
    let clicks = (0..n).map(|_| {
        let (t, id, player, guild, message) =
            (t.clone(), id.clone(), g.player.clone(), g.id, g.message);
        tokio::spawn(async move {
            t.click_custom_id_in(guild, &player, message, &id, None)
                .await
        })
    });
    let mut out = Vec::new();
    for c in clicks.collect::<Vec<_>>() {
        out.push(c.await.unwrap());
    }
    out
}

/// Rounds of racing clicks: each round clicks both guilds' Reroll at their
/// current version `CLICKS` times each, at once.
const ROUNDS: usize = 10;
/// Clicks per guild per round: 2 guilds × 10 rounds × 50 = 1,000.
const CLICKS: usize = 50;

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn two_processes_split_the_shards_and_survive_a_kill() {
    let database = shared_database("multi");
    let dir = scratch("multi");
    let t = Arc::new(
        Table::start_external(TableOptions::new(db_path("multi-unused")))
            .await
            .unwrap(),
    );
    t.fake.set_shard_count(2);
    let a_id = guild_on(0, 2, 1001);
    let b_id = guild_on(1, 2, 2002);
    t.fake.add_guild(a_id);
    t.fake.add_guild(b_id);

    // One process per shard; the first connects only its own.
    let mut a = Bot::start(&t, &database, &dir, "a-0", ("0", 2)).await;
    assert_eq!(t.fake.connected_shards(), vec![0], "{}", a.stderr());
    let b = Bot::start(&t, &database, &dir, "b-0", ("1", 2)).await;
    let both = t
        .fake
        .wait_for(Duration::from_secs(10), |f| {
            (f.connected_shards() == vec![0, 1]).then_some(())
        })
        .await;
    assert!(
        both.is_some(),
        "{:?}\n{}",
        t.fake.connected_shards(),
        b.stderr()
    );

    // A roll in each guild, answered by its own process.
    let mut guilds = Vec::new();
    for (id, player) in [(a_id, "alice"), (b_id, "bob")] {
        let ex = t
            .command_in(id, player, "/roll expression:4d6kh3")
            .await
            .unwrap();
        let button = reroll(&ex).expect("a Reroll button");
        let b = ButtonId::parse(&button).unwrap();
        guilds.push(Guild {
            id,
            player: player.into(),
            message: ex.message_id.expect("the roll's message"),
            session: b.session,
        });
    }
    // Each interaction went out on its guild's shard.
    for (shard, event, guild) in t.fake.dispatched() {
        if let Some(g) = guild {
            assert_eq!(shard, shard_of(g, 2), "{event} of {g}");
        }
    }
    let db = Db::open(&database, 2).await.unwrap();

    // 1,000 racing clicks: per round, every click of a guild names the same
    // version; exactly one of them rerolls, the rest see the new roll.
    for round in 0..ROUNDS {
        let v = round as i64;
        let (x, y) = tokio::join!(
            race(&t, &guilds[0], v, CLICKS),
            race(&t, &guilds[1], v, CLICKS)
        );
        for (g, results) in guilds.iter().zip([x, y]) {
            for r in results {
                let ex = r.unwrap_or_else(|e| {
                    panic!("guild {}: {e}\n{}\n{}", g.id, a.stderr(), b.stderr())
                });
                for o in &ex.outputs {
                    assert!(!o.text().contains("Something went wrong"), "{}", o.text());
                }
                assert_eq!(ex.outputs.first().map(|o| o.kind.as_str()), Some("update"));
            }
            let (version, rerolls) = version_and_rerolls(&db, g).await;
            assert_eq!(
                (version, rerolls),
                (v + 1, round + 1),
                "guild {} after round {round}",
                g.id
            );
        }
    }

    println!(
        "{} racing clicks over {ROUNDS} rounds in two processes: {} rerolls applied",
        2 * ROUNDS * CLICKS,
        2 * ROUNDS
    );

    // A stream of rolls in both guilds; the first process is killed in the
    // middle of it and the second keeps answering its guild.
    let answered_b = Arc::new(AtomicUsize::new(0));
    let answered_a = Arc::new(AtomicUsize::new(0));
    let stream = |guild: u64, player: &'static str, count: Arc<AtomicUsize>| {
        let t = t.clone();
        tokio::spawn(async move {
            loop {
                match t.command_in(guild, player, "/roll expression:2d6").await {
                    Ok(ex) if reroll(&ex).is_some() => {
                        count.fetch_add(1, Ordering::SeqCst);
                    }
                    Ok(ex) => return Err::<(), String>(format!("no roll: {:?}", ex.outputs)),
                    Err(e) => return Err(e),
                }
            }
        })
    };
    let sa = stream(a_id, "alice", answered_a.clone());
    let sb = stream(b_id, "bob", answered_b.clone());
    let deadline = tokio::time::Instant::now() + Duration::from_secs(20);
    while answered_a.load(Ordering::SeqCst) < 10 || answered_b.load(Ordering::SeqCst) < 10 {
        assert!(
            tokio::time::Instant::now() < deadline,
            "the streams stalled"
        );
        tokio::time::sleep(Duration::from_millis(5)).await;
    }
    assert!(a.running());
    a.kill_9().await;
    // Shard 0 is gone from the fake; guild A's stream ends (its last
    // interaction may wait out the driver's timeout: do not wait for it).
    let gone = t
        .fake
        .wait_for(Duration::from_secs(5), |f| {
            (f.connected_shards() == vec![1]).then_some(())
        })
        .await;
    assert!(gone.is_some(), "{:?}", t.fake.connected_shards());
    sa.abort();
    let _ = sa.await;
    let after_kill = answered_b.load(Ordering::SeqCst);
    let deadline = tokio::time::Instant::now() + Duration::from_secs(20);
    while answered_b.load(Ordering::SeqCst) < after_kill + 30 {
        assert!(!sb.is_finished(), "guild B's stream failed: {:?}", sb.await);
        assert!(
            tokio::time::Instant::now() < deadline,
            "guild B stopped being answered\n{}",
            b.stderr()
        );
        tokio::time::sleep(Duration::from_millis(5)).await;
    }
    // Guild A's events have nowhere to go meanwhile (as on Discord, until
    // its shard reconnects).
    assert!(t
        .command_in(a_id, "alice", "/roll expression:1d6")
        .await
        .is_err());
    sb.abort();
    let _ = sb.await;

    // Restarted, the first process takes its shard back and its old
    // buttons work: the Reroll posted before the kill, at its version now.
    let a = Bot::start(&t, &database, &dir, "a-1", ("0", 2)).await;
    let back = t
        .fake
        .wait_for(Duration::from_secs(10), |f| {
            (f.connected_shards() == vec![0, 1]).then_some(())
        })
        .await;
    assert!(
        back.is_some(),
        "{:?}\n{}",
        t.fake.connected_shards(),
        a.stderr()
    );
    for g in &guilds {
        let (version, _) = version_and_rerolls(&db, g).await;
        let id = ButtonId::new("roll", g.session, version, "reroll").encode();
        let ex = t
            .click_custom_id_in(g.id, &g.player, g.message, &id, None)
            .await
            .unwrap();
        assert_eq!(ex.single().kind, "update");
        assert!(
            ex.single()
                .text()
                .contains(&format!("Rerolled {} time(s)", version + 1)),
            "{}",
            ex.single().text()
        );
        assert_eq!(version_and_rerolls(&db, g).await, (version + 1, ROUNDS + 1));
    }
    println!(
        "killed after {} rolls answered in guild B; B answered {} more while A was down",
        after_kill,
        answered_b.load(Ordering::SeqCst) - after_kill
    );
    a.kill_9().await;
    b.kill_9().await;
    assert!(db.integrity_ok().await.unwrap(), "integrity check");
    db.close().await;
    assert_schema_clean(&t);
}

/// The expiry sweeper of a process with a shard range expires only the
/// sessions of the guilds its shards own, also when the others' sessions
/// (expiring earlier) outnumber a sweep's batch.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn each_process_expires_only_its_own_guilds_sessions() {
    use kismet::app::{expiry, App, Caller, RngSource};
    use kismet::config::{Config, ShardRange};
    let database = shared_database("sweep");
    let db = Db::open(&database, 2).await.unwrap();
    let app = App::new(
        db.clone(),
        Config::defaults(),
        RngSource::seeded(7),
        kismet::systems::registry(),
    );
    let caller = |guild: u64| Caller {
        guild_id: guild as i64,
        channel_id: 42,
        user_id: 7,
        name: "alice".into(),
        ..Caller::default()
    };
    let (a, b) = (guild_on(0, 2, 3003), guild_on(1, 2, 4004));
    // A real roll's state, copied into sessions that time out (a roll's
    // own never does): guild B (shard 1) has 150 that expire before guild
    // A's one.
    let r = kismet::systems::dice::roll(&app, &caller(a), "1d20")
        .await
        .unwrap();
    let first = session_of(&r).expect("a roll session");
    let state = {
        let mut tx = db.read().await.unwrap();
        storage::sessions::get(&mut tx, a as i64, first)
            .await
            .unwrap()
            .unwrap()
            .state
    };
    let now = storage::now_ms();
    let mut tx = db.write().await.unwrap();
    let insert = |guild: u64, expires: i64| storage::sessions::NewSession {
        guild_id: guild as i64,
        channel_id: 42,
        parent_id: None,
        owner_id: 7,
        kind: "roll",
        state: &state,
        expires_at: Some(expires),
        now,
    };
    let mut b_sessions = Vec::new();
    for i in 0..150 {
        b_sessions.push(
            storage::sessions::insert(&mut tx, insert(b, now + 1000 + i))
                .await
                .unwrap(),
        );
    }
    let a_session = storage::sessions::insert(&mut tx, insert(a, now + 5000))
        .await
        .unwrap();
    tx.commit().await.unwrap();
    let later = now + 60_000;

    let shard0 = ShardRange::parse("0", 2).unwrap();
    let swept = expiry::sweep_shards(&app, later, 100, Some(shard0))
        .await
        .unwrap();
    let ids: Vec<i64> = swept.iter().map(|e| e.session).collect();
    assert_eq!(ids, vec![a_session], "shard 0 expires guild A's roll only");

    let shard1 = ShardRange::parse("1", 2).unwrap();
    let mut expired = Vec::new();
    for _ in 0..3 {
        let swept = expiry::sweep_shards(&app, later, 100, Some(shard1))
            .await
            .unwrap();
        expired.extend(swept.iter().map(|e| e.session));
    }
    expired.sort_unstable();
    assert_eq!(
        expired, b_sessions,
        "shard 1 expires guild B's, a batch at a time"
    );
    // Nothing is left for anyone.
    assert!(expiry::sweep(&app, later, 100).await.unwrap().is_empty());
    db.close().await;
}

/// The session a reply shows.
fn session_of(r: &kismet::app::Response) -> Option<i64> {
    use kismet::app::Reply;
    match &r.reply {
        Reply::Message(v) | Reply::Update(v) | Reply::Ephemeral(v) | Reply::Edit(v) => v.session(),
    }
}
