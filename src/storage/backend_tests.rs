//! Storage tests that run on either engine: SQLite files by default, a
//! fresh PostgreSQL database each when `KISMET_TEST_POSTGRES` names a
//! server (see [`super::scratch`]). They exercise every query module's
//! dialect-sensitive statements and the exactly-once guarantee of racing
//! writers, with two handles on one database standing in for two
//! processes.

use super::scratch::{test_postgres, ScratchDb};
use super::*;
use std::sync::Arc;

/// One test's database: its URL, and what to clean up afterwards.
struct TestDb {
    url: String,
    _scratch: Option<ScratchDb>,
    dir: Option<std::path::PathBuf>,
}

impl TestDb {
    async fn new(tag: &str) -> TestDb {
        if let Some(admin) = test_postgres() {
            let scratch = ScratchDb::create(&admin).await.unwrap();
            return TestDb {
                url: scratch.url().to_string(),
                _scratch: Some(scratch),
                dir: None,
            };
        }
        let dir = std::env::temp_dir().join(format!("kismet-storage-{tag}-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        TestDb {
            url: format!("sqlite://{}", dir.join("t.db").display()),
            _scratch: None,
            dir: Some(dir),
        }
    }

    async fn open(&self) -> Db {
        Db::open(&self.url, 4).await.unwrap()
    }
}

impl Drop for TestDb {
    fn drop(&mut self) {
        if let Some(d) = &self.dir {
            let _ = std::fs::remove_dir_all(d);
        }
    }
}

const GUILD: i64 = 900_000_000_000_000_123;

/// Many writers of one guild, spread over two handles on the same database
/// (two processes, on PostgreSQL), each add 1 to a counter kept in a sheet
/// by read, check, write: every increment lands exactly once. And a version
/// check on one session lets exactly one of the racers through.
#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn racing_writers_of_one_guild_apply_exactly_once() {
    let t = TestDb::new("race").await;
    let (a, b) = (t.open().await, t.open().await);
    let mut tx = a.write_in(GUILD).await.unwrap();
    let id = characters::insert(&mut tx, GUILD, 1, "venus", "Counter", "0", 1)
        .await
        .unwrap()
        .unwrap();
    let session = sessions::insert(
        &mut tx,
        sessions::NewSession {
            guild_id: GUILD,
            channel_id: 2,
            parent_id: None,
            owner_id: 1,
            kind: "race",
            state: "{}",
            expires_at: None,
            now: 1,
        },
    )
    .await
    .unwrap();
    tx.commit().await.unwrap();

    let won = Arc::new(std::sync::atomic::AtomicU32::new(0));
    let racers: Vec<_> = (0..60)
        .map(|i| {
            let db = if i % 2 == 0 { a.clone() } else { b.clone() };
            let won = won.clone();
            tokio::spawn(async move {
                let mut tx = db.write_in(GUILD).await.unwrap();
                let mut c = characters::get(&mut tx, GUILD, id).await.unwrap().unwrap();
                let n: i64 = c.sheet.parse().unwrap();
                // Give the other racers time to pile up behind the lock.
                tokio::time::sleep(Duration::from_millis(2)).await;
                c.sheet = (n + 1).to_string();
                characters::update(&mut tx, &c, 2).await.unwrap();
                let s = sessions::get(&mut tx, GUILD, session)
                    .await
                    .unwrap()
                    .unwrap();
                if s.version == 0 {
                    let v = sessions::update(&mut tx, session, 0, "{\"won\":1}", s.status, None, 2)
                        .await
                        .unwrap();
                    assert_eq!(v, Some(1));
                    won.fetch_add(1, std::sync::atomic::Ordering::SeqCst);
                }
                tx.commit().await.unwrap();
            })
        })
        .collect();
    for r in racers {
        r.await.unwrap();
    }
    let mut tx = b.read().await.unwrap();
    let c = characters::get(&mut tx, GUILD, id).await.unwrap().unwrap();
    assert_eq!(c.sheet, "60");
    assert_eq!(c.version, 60);
    assert_eq!(won.load(std::sync::atomic::Ordering::SeqCst), 1);
    let history = character_history::recent(&mut tx, GUILD, id, 100)
        .await
        .unwrap();
    assert_eq!(history.len(), 60);
    drop(tx);
    a.close().await;
    b.close().await;
}

/// Writers of different guilds do not wait for each other on PostgreSQL
/// (on SQLite there is one writer: the second waits).
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn writers_of_other_guilds_run_beside_each_other_on_postgres() {
    let t = TestDb::new("guilds").await;
    let db = t.open().await;
    let first = db.write_in(GUILD).await.unwrap();
    let other = tokio::time::timeout(Duration::from_millis(500), db.write_in(GUILD + 1)).await;
    match db.backend() {
        Backend::Postgres => {
            assert!(other.is_ok(), "another guild's writer waited");
            let same = tokio::time::timeout(Duration::from_millis(300), db.write_in(GUILD)).await;
            assert!(same.is_err(), "the same guild's writer did not wait");
            // A whole-database writer waits for every guild's.
            let all = tokio::time::timeout(Duration::from_millis(300), db.write()).await;
            assert!(all.is_err(), "Db::write did not wait");
        }
        Backend::Sqlite => assert!(other.is_err(), "SQLite has one writer"),
    }
    drop(other);
    drop(first);
    db.close().await;
}

/// Every module's statements, on this engine: flags read back as
/// integers, a taken name refused without spoiling the transaction, sums,
/// upserts, the history's per-transaction notes and the log's filters.
#[tokio::test]
async fn every_module_reads_back_what_it_wrote() {
    let t = TestDb::new("modules").await;
    let db = t.open().await;
    let mut tx = db.write_in(GUILD).await.unwrap();
    let ada = characters::insert(&mut tx, GUILD, 7, "venus", "Ada", "{\"a\":1}", 5)
        .await
        .unwrap()
        .unwrap();
    let taken = characters::insert(&mut tx, GUILD, 7, "venus", " ada ", "{}", 5)
        .await
        .unwrap();
    assert_eq!(taken, None, "the name is taken");
    let zed = characters::insert(&mut tx, GUILD, 7, "venus", "zed", "{}", 5)
        .await
        .unwrap()
        .unwrap();
    characters::insert(&mut tx, GUILD, 7, "venus", "Bob", "{}", 5)
        .await
        .unwrap()
        .unwrap();
    let mut c = characters::get(&mut tx, GUILD, ada).await.unwrap().unwrap();
    characters::set_active(&mut tx, &c).await.unwrap();
    // A log entry first, then the change it caused: linked at once.
    let entry = log::LogEntry {
        guild_id: GUILD,
        channel_id: 3,
        user_id: 7,
        character_id: Some(ada),
        system: "venus".into(),
        action: "stress".into(),
        secret: true,
        inputs: "{}".into(),
        dice: "[]".into(),
        outcome: "ok".into(),
        created_at: 6,
        ..log::LogEntry::default()
    };
    let log_id = log::append(&mut tx, &entry).await.unwrap();
    c.sheet = "{\"a\":2}".into();
    characters::update(&mut tx, &c, 6).await.unwrap();
    faces::append(
        &mut tx,
        log_id,
        &[
            faces::FaceCount {
                sides: 6,
                face: 6,
                n: 2,
            },
            faces::FaceCount {
                sides: 6,
                face: 1,
                n: 1,
            },
        ],
    )
    .await
    .unwrap();
    settings::put(&mut tx, GUILD, "guild", "{\"x\":1}", 6)
        .await
        .unwrap();
    settings::put(&mut tx, GUILD, "guild", "{\"x\":2}", 7)
        .await
        .unwrap();
    settings::channel_put(&mut tx, GUILD, 3, "k", "v1", 6)
        .await
        .unwrap();
    settings::channel_put(&mut tx, GUILD, 3, "k", "v2", 6)
        .await
        .unwrap();
    assert!(!named_rolls::save(&mut tx, GUILD, 7, "Fire", "8d6", 6)
        .await
        .unwrap());
    assert!(named_rolls::save(&mut tx, GUILD, 7, "fire", "9d6", 6)
        .await
        .unwrap());
    let secret = veracity::Revealed {
        key: "the key",
        secret: "The key",
        character_id: ada,
        revealed_by: 7,
        target: "Guard",
    };
    veracity::record(&mut tx, GUILD, &secret).await.unwrap();
    veracity::record(&mut tx, GUILD, &secret).await.unwrap();
    let s = sessions::insert(
        &mut tx,
        sessions::NewSession {
            guild_id: GUILD,
            channel_id: 3,
            parent_id: None,
            owner_id: 7,
            kind: "k",
            state: "{}",
            expires_at: Some(10),
            now: 6,
        },
    )
    .await
    .unwrap();
    sessions::mark_secret(&mut tx, GUILD, s).await.unwrap();
    sessions::attach(&mut tx, GUILD, s, 123_456_789_012_345_678, Some("tok"), 6)
        .await
        .unwrap();
    tx.commit().await.unwrap();

    let mut tx = db.read().await.unwrap();
    let c = characters::active(&mut tx, GUILD, "venus", 7)
        .await
        .unwrap()
        .unwrap();
    assert_eq!((c.id, c.active, c.version), (ada, true, 1));
    let names: Vec<String> = characters::list(&mut tx, GUILD, "venus", Some(7), 10)
        .await
        .unwrap()
        .into_iter()
        .map(|c| c.name)
        .collect();
    assert_eq!(names, ["Ada", "Bob", "zed"]);
    assert!(characters::get(&mut tx, GUILD, zed)
        .await
        .unwrap()
        .is_some());
    assert_eq!(characters::count_all(&mut tx).await.unwrap(), 3);
    let h = character_history::newest_undoable(&mut tx, GUILD, ada)
        .await
        .unwrap()
        .unwrap();
    assert_eq!(
        (h.log_id, h.user_id, h.action.as_str()),
        (Some(log_id), 7, "stress")
    );
    assert_eq!(h.before, "{\"a\":1}");
    let logged = log::for_session(&mut tx, GUILD, 0).await.unwrap();
    assert!(logged.is_empty());
    assert_eq!(log::count(&mut tx, GUILD).await.unwrap(), 1);
    let f = history::Filter {
        guild_id: GUILD,
        hide_secrets_from: Some(8),
        ..history::Filter::default()
    };
    assert_eq!(history::count(&mut tx, &f).await.unwrap(), 0, "secret");
    let f = history::Filter {
        guild_id: GUILD,
        system: Some(vec!["venus".into()]),
        character_ids: Some(vec![ada]),
        ..history::Filter::default()
    };
    let rows = history::newest(&mut tx, &f, 10, 0).await.unwrap();
    assert_eq!(rows.len(), 1);
    assert!(rows[0].entry.secret);
    assert_eq!(rows[0].character_name.as_deref(), Some("Ada"));
    assert_eq!(history::max_id(&mut tx, GUILD).await.unwrap(), log_id);
    let tally = faces::tally_visible(&mut tx, GUILD, None, Some(7), Some(7))
        .await
        .unwrap();
    assert_eq!(
        tally,
        [
            faces::FaceCount {
                sides: 6,
                face: 1,
                n: 1
            },
            faces::FaceCount {
                sides: 6,
                face: 6,
                n: 2
            }
        ]
    );
    assert_eq!(
        settings::get(&mut tx, GUILD, "guild")
            .await
            .unwrap()
            .as_deref(),
        Some("{\"x\":2}")
    );
    assert_eq!(
        settings::channel_get(&mut tx, GUILD, 3, "k")
            .await
            .unwrap()
            .as_deref(),
        Some("v2")
    );
    let rolls = named_rolls::list(&mut tx, GUILD, 7).await.unwrap();
    assert_eq!(rolls.len(), 1);
    assert_eq!(
        (rolls[0].name.as_str(), rolls[0].expression.as_str()),
        ("fire", "9d6")
    );
    let keys = ["the key".to_string(), "other".to_string()];
    assert_eq!(
        veracity::revealed(&mut tx, GUILD, &keys).await.unwrap(),
        ["the key"]
    );
    let got = sessions::get(&mut tx, GUILD, s).await.unwrap().unwrap();
    assert_eq!(got.message_id, Some(123_456_789_012_345_678));
    assert!(sessions::is_secret(&mut tx, GUILD, s).await.unwrap());
    assert_eq!(
        sessions::due_for_expiry(&mut tx, 11, 10)
            .await
            .unwrap()
            .len(),
        1
    );
    assert!(db.integrity_ok().await.unwrap());
    drop(tx);
    db.close().await;
}

/// A transaction reads each settings scope once: a hinted scope's first
/// read brings the guild's other hinted scopes along (absent ones too),
/// later reads answer from what it saw, a write is seen by the reads after
/// it, and another guild's scope of the same name is its own.
#[tokio::test]
async fn a_transaction_reads_each_settings_scope_once() {
    let t = TestDb::new("seen").await;
    let db = t.open().await;
    /// Writes settings rows in one committed transaction.
    async fn put_all(db: &Db, rows: &[(i64, &str, &str)]) {
        let mut w = db.write().await.unwrap();
        for (guild, scope, json) in rows {
            settings::put(&mut w, *guild, scope, json, 1).await.unwrap();
        }
        w.commit().await.unwrap();
    }
    put_all(
        &db,
        &[
            (GUILD, "guild", r#"{"g":1}"#),
            (GUILD, "channel:5", r#"{"c":1}"#),
            (GUILD + 1, "guild", r#"{"o":1}"#),
        ],
    )
    .await;

    let mut look = db.glance().await.unwrap();
    settings::hint(&mut look, GUILD, &["guild", "channel:5", "channel:6"]);
    let read = settings::get(&mut look, GUILD, "guild").await.unwrap();
    assert_eq!(read.as_deref(), Some(r#"{"g":1}"#));
    // Another writer changes the channels after that first read ...
    put_all(
        &db,
        &[
            (GUILD, "channel:5", r#"{"c":2}"#),
            (GUILD, "channel:6", r#"{"c":6}"#),
        ],
    )
    .await;
    // ... which the lookup does not see: it read them with the first.
    let read = settings::get(&mut look, GUILD, "channel:5").await.unwrap();
    assert_eq!(read.as_deref(), Some(r#"{"c":1}"#));
    assert_eq!(
        settings::get(&mut look, GUILD, "channel:6").await.unwrap(),
        None
    );
    // Not hinted, so read now; and another guild's `guild` is its own.
    let read = settings::get(&mut look, GUILD + 1, "guild").await.unwrap();
    assert_eq!(read.as_deref(), Some(r#"{"o":1}"#));
    drop(look);

    let mut w = db.write().await.unwrap();
    let read = settings::get(&mut w, GUILD, "channel:6").await.unwrap();
    assert_eq!(read.as_deref(), Some(r#"{"c":6}"#));
    settings::put(&mut w, GUILD, "channel:6", r#"{"c":7}"#, 3)
        .await
        .unwrap();
    let read = settings::get(&mut w, GUILD, "channel:6").await.unwrap();
    assert_eq!(read.as_deref(), Some(r#"{"c":7}"#), "its own write");
    w.rollback().await.unwrap();
}

/// Fills every guild-scoped table with rows of `guild`.
async fn fill_guild(db: &Db, guild: i64) {
    let mut tx = db.write_in(guild).await.unwrap();
    let ada = characters::insert(&mut tx, guild, 7, "venus", "Ada", "{\"a\":1}", 5)
        .await
        .unwrap()
        .unwrap();
    let mut c = characters::get(&mut tx, guild, ada).await.unwrap().unwrap();
    let entry = log::LogEntry {
        guild_id: guild,
        channel_id: 3,
        user_id: 7,
        character_id: Some(ada),
        system: "venus".into(),
        action: "stress".into(),
        inputs: "{}".into(),
        dice: "[]".into(),
        outcome: "ok".into(),
        created_at: 6,
        ..log::LogEntry::default()
    };
    let log_id = log::append(&mut tx, &entry).await.unwrap();
    c.sheet = "{\"a\":2}".into();
    characters::update(&mut tx, &c, 6).await.unwrap();
    let face = faces::FaceCount {
        sides: 6,
        face: 6,
        n: 2,
    };
    faces::append(&mut tx, log_id, &[face]).await.unwrap();
    settings::put(&mut tx, guild, "guild", "{\"x\":1}", 6)
        .await
        .unwrap();
    settings::channel_put(&mut tx, guild, 3, "k", "v", 6)
        .await
        .unwrap();
    named_rolls::save(&mut tx, guild, 7, "Fire", "8d6", 6)
        .await
        .unwrap();
    let secret = veracity::Revealed {
        key: "the key",
        secret: "The key",
        character_id: ada,
        revealed_by: 7,
        target: "Guard",
    };
    veracity::record(&mut tx, guild, &secret).await.unwrap();
    sessions::insert(
        &mut tx,
        sessions::NewSession {
            guild_id: guild,
            channel_id: 3,
            parent_id: None,
            owner_id: 7,
            kind: "k",
            state: "{}",
            expires_at: None,
            now: 6,
        },
    )
    .await
    .unwrap();
    let game = games::create(&mut tx, guild, "Alpha", "venus", 6)
        .await
        .unwrap()
        .expect("a new game");
    games::add_channel(&mut tx, guild, game, 3).await.unwrap();
    games::add_gm(&mut tx, guild, game, games::Gm::Role(9))
        .await
        .unwrap();
    games::join(&mut tx, guild, game, 7, Some(ada), 6)
        .await
        .unwrap();
    waits::add(&mut tx, guild, game, guild, 7, "Ada's KISS round", 6)
        .await
        .unwrap();
    tx.commit().await.unwrap();
}

/// A departed guild's data: recorded, cancelled, due only after the
/// cutoff, and purged from every table (one guild only, the departure
/// included); a guild whose departure was cancelled is never purged.
#[tokio::test]
async fn a_departed_guild_is_purged_from_every_table_and_no_other() {
    let t = TestDb::new("departures").await;
    let db = t.open().await;
    let (a, b) = (GUILD, GUILD + 1);
    fill_guild(&db, a).await;
    fill_guild(&db, b).await;
    let day = 86_400_000;
    let mut tx = db.write_in(a).await.unwrap();
    departures::record(&mut tx, a, 10 * day).await.unwrap();
    // A second removal keeps the first time.
    departures::record(&mut tx, a, 12 * day).await.unwrap();
    departures::record(&mut tx, b, 10 * day).await.unwrap();
    assert_eq!(
        departures::left_at(&mut tx, a).await.unwrap(),
        Some(10 * day)
    );
    assert!(departures::cancel(&mut tx, b).await.unwrap(), "B came back");
    assert!(!departures::cancel(&mut tx, b).await.unwrap());
    tx.commit().await.unwrap();

    let before_b = {
        let mut tx = db.read().await.unwrap();
        departures::held(&mut tx, b).await.unwrap()
    };
    assert!(
        before_b
            .iter()
            .all(|(t, n)| *n >= 1 || *t == "guild_departures"),
        "every table holds B's rows: {before_b:?}"
    );
    let mut tx = db.read().await.unwrap();
    assert_eq!(
        departures::due(&mut tx, 10 * day - 1, 10).await.unwrap(),
        Vec::<i64>::new()
    );
    assert_eq!(departures::due(&mut tx, 10 * day, 10).await.unwrap(), [a]);
    drop(tx);

    // Not yet due: nothing happens.
    let mut tx = db.write_in(a).await.unwrap();
    assert_eq!(
        departures::purge(&mut tx, a, 10 * day - 1).await.unwrap(),
        None
    );
    assert_eq!(departures::purge(&mut tx, b, 40 * day).await.unwrap(), None);
    tx.commit().await.unwrap();

    let mut tx = db.write_in(a).await.unwrap();
    let purged = departures::purge(&mut tx, a, 10 * day)
        .await
        .unwrap()
        .expect("due");
    tx.commit().await.unwrap();
    assert_eq!(purged.guild_id, a);
    let deleted: std::collections::HashMap<_, _> = purged.rows.iter().copied().collect();
    for (table, n) in &before_b {
        let expected = if *table == "guild_departures" {
            1
        } else {
            *n as u64
        };
        assert_eq!(deleted.get(table), Some(&expected), "{table}: {purged:?}");
    }
    assert!(
        purged.summary().contains("roll_log=1"),
        "{}",
        purged.summary()
    );

    let mut tx = db.read().await.unwrap();
    let after_a = departures::held(&mut tx, a).await.unwrap();
    assert!(after_a.iter().all(|(_, n)| *n == 0), "{after_a:?}");
    assert_eq!(departures::held(&mut tx, b).await.unwrap(), before_b);
    assert_eq!(
        departures::due(&mut tx, 99 * day, 10).await.unwrap(),
        Vec::<i64>::new()
    );
    drop(tx);
    db.close().await;
}

/// Issue 32: a game's name is unique per guild in any case; the games
/// holding a channel come live first; joining again changes the player's
/// character; an ended game stays, archived; the log keeps each entry's
/// game (none for entries outside every game).
#[tokio::test]
async fn games_are_stored_with_their_channels_gms_and_players() {
    let t = TestDb::new("games").await;
    let db = t.open().await;
    let mut tx = db.write().await.unwrap();
    let alpha = games::create(&mut tx, GUILD, " Alpha ", "venus", 1)
        .await
        .unwrap()
        .expect("created");
    assert_eq!(
        games::create(&mut tx, GUILD, "ALPHA", "ore", 2)
            .await
            .unwrap(),
        None
    );
    assert!(games::create(&mut tx, GUILD + 1, "alpha", "ore", 2)
        .await
        .unwrap()
        .is_some());
    let found = games::by_name(&mut tx, GUILD, "alpha")
        .await
        .unwrap()
        .unwrap();
    assert_eq!((found.id, found.name.as_str()), (alpha, "Alpha"));
    assert_eq!((found.pace.as_str(), found.post_days), ("live", 7));
    assert!(games::add_channel(&mut tx, GUILD, alpha, 30).await.unwrap());
    assert!(!games::add_channel(&mut tx, GUILD, alpha, 30).await.unwrap());
    games::add_channel(&mut tx, GUILD, alpha, 20).await.unwrap();
    assert_eq!(games::channels(&mut tx, alpha).await.unwrap(), vec![20, 30]);
    assert!(games::end(&mut tx, alpha, 5).await.unwrap());
    assert!(!games::end(&mut tx, alpha, 6).await.unwrap());
    let beta = games::create(&mut tx, GUILD, "Beta", "venus", 7)
        .await
        .unwrap()
        .unwrap();
    games::add_channel(&mut tx, GUILD, beta, 30).await.unwrap();
    let here = games::holding(&mut tx, GUILD, &[30]).await.unwrap();
    let ids: Vec<(i64, bool)> = here.iter().map(|(g, _)| (g.id, g.live())).collect();
    assert_eq!(ids, vec![(beta, true), (alpha, false)]);
    assert_eq!(games::count_live(&mut tx, GUILD).await.unwrap(), 1);
    games::add_gm(&mut tx, GUILD, beta, games::Gm::Member(7))
        .await
        .unwrap();
    games::add_gm(&mut tx, GUILD, beta, games::Gm::Role(9))
        .await
        .unwrap();
    assert_eq!(
        games::gms(&mut tx, beta).await.unwrap(),
        vec![games::Gm::Member(7), games::Gm::Role(9)]
    );
    assert!(games::remove_gm(&mut tx, beta, games::Gm::Role(9))
        .await
        .unwrap());
    games::join(&mut tx, GUILD, beta, 8, None, 1).await.unwrap();
    games::join(&mut tx, GUILD, beta, 8, Some(44), 2)
        .await
        .unwrap();
    let p = games::player(&mut tx, beta, 8).await.unwrap().unwrap();
    assert_eq!(p.character_id, Some(44));
    assert!(games::leave(&mut tx, beta, 8).await.unwrap());
    assert!(games::players(&mut tx, beta).await.unwrap().is_empty());
    let entry = log::LogEntry {
        guild_id: GUILD,
        channel_id: 30,
        user_id: 8,
        system: "venus".into(),
        action: "roll".into(),
        inputs: "{}".into(),
        dice: "[]".into(),
        outcome: "{}".into(),
        ..log::LogEntry::default()
    };
    log::append_in(&mut tx, &entry, Some(beta)).await.unwrap();
    log::append(&mut tx, &entry).await.unwrap();
    let of_beta = history::Filter {
        guild_id: GUILD,
        game_id: Some(beta),
        ..history::Filter::default()
    };
    assert_eq!(history::count(&mut tx, &of_beta).await.unwrap(), 1);
    tx.commit().await.unwrap();
}

/// Issue 32: an action asks once which game its channel is in, however
/// often it needs it; a change to a game's channels in the same
/// transaction is seen at once.
#[tokio::test]
async fn which_game_holds_a_channel_is_read_once_per_transaction() {
    let t = TestDb::new("games-seen").await;
    let db = t.open().await;
    let mut tx = db.write().await.unwrap();
    let id = games::create(&mut tx, GUILD, "Alpha", "venus", 1)
        .await
        .unwrap()
        .unwrap();
    assert!(games::holding(&mut tx, GUILD, &[30, 40])
        .await
        .unwrap()
        .is_empty());
    let before = db.round_trips();
    for _ in 0..3 {
        assert!(games::holding(&mut tx, GUILD, &[30, 40])
            .await
            .unwrap()
            .is_empty());
    }
    assert_eq!(db.round_trips(), before, "answered from what it read");
    games::add_channel(&mut tx, GUILD, id, 40).await.unwrap();
    let now = games::holding(&mut tx, GUILD, &[30, 40]).await.unwrap();
    assert_eq!(now.len(), 1);
    assert_eq!((now[0].0.id, now[0].1), (id, 40));
    tx.commit().await.unwrap();
}
