//! Crash safety (issue 8): the real `kismet` binary runs as a child
//! process against the fake Discord (`kismet run --api-base …`, a hidden
//! loopback-only option), is killed with SIGKILL in the middle of a stream
//! of actions, and restarted on the same database. Then: the database is
//! intact, every answered action is stored, no action is half-applied, and
//! old buttons still work.

use crate::common::{assert_schema_clean, db_path, is_card_redraw};
use kismet::app::component::{to_base36, ButtonId};
use kismet::fake::table::{Exchange, Table, TableOptions, GUILD_ID};
use kismet::rules::storyteller::StorytellerSheet;
use kismet::rules::veracity::{ItemKind, Sheet as VrSheet};
use kismet::storage::{self, Db};
use std::collections::{BTreeMap, HashMap};
use std::path::{Path, PathBuf};
use std::process::Stdio;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Arc;
use std::time::Duration;
use tokio::process::{Child, Command};

/// The bot as a child process.
struct Bot {
    child: Child,
    log: PathBuf,
}

impl Bot {
    /// Starts `kismet run` on `db` against the table's fake Discord and
    /// waits until it registered its commands.
    async fn start(t: &Table, db: &Path, n: usize) -> Bot {
        let dir = db.parent().unwrap().join(format!("crash-bot-{n}"));
        std::fs::create_dir_all(&dir).unwrap();
        let log = dir.join("stderr.log");
        let before = t.registration_count();
        let child = Command::new(env!("CARGO_BIN_EXE_kismet"))
            .args(["run", "--api-base", &t.fake.base_url()])
            // No .env from the developer's checkout: a fake token only.
            .current_dir(&dir)
            .env("DISCORD_TOKEN", "fake.token.kismet")
            .env("DATABASE_URL", format!("sqlite://{}", db.display()))
            .env("KISMET_REGISTER", "global")
            .env("RUST_LOG", "warn")
            .stdin(Stdio::null())
            .stdout(Stdio::null())
            .stderr(std::fs::File::create(&log).unwrap())
            .kill_on_drop(true)
            .spawn()
            .expect("the kismet binary starts");
        let bot = Bot { child, log };
        if let Err(e) = t.await_registration(before).await {
            panic!("{e}\n{}", bot.stderr());
        }
        bot
    }

    fn stderr(&self) -> String {
        std::fs::read_to_string(&self.log).unwrap_or_default()
    }

    /// SIGKILL: no shutdown, no WAL checkpoint, no goodbye.
    async fn kill_9(mut self) {
        self.child.start_kill().expect("SIGKILL");
        let status = self.child.wait().await.unwrap();
        assert!(!status.success(), "killed, not exited: {status:?}");
        // On Unix a SIGKILLed process has no exit code.
        assert_eq!(status.code(), None, "{status:?}");
    }
}

/// The message (in the fake) that shows the session of `custom_id` (at
/// any version: an action applied just before a kill was never shown).
fn message_with(t: &Table, custom_id: &str) -> u64 {
    let b = ButtonId::parse(custom_id).unwrap();
    let needle = format!("\"{}:{}:", b.kind, to_base36(b.session));
    t.fake
        .messages()
        .iter()
        .rev()
        .find(|m| m.body["components"].to_string().contains(&needle))
        .unwrap_or_else(|| panic!("no message shows {custom_id}"))
        .id
}

fn button(ex: &Exchange, label: &str) -> Option<String> {
    ex.outputs
        .iter()
        .flat_map(|o| o.buttons())
        .find(|b| b.0 == label && !b.2)
        .map(|b| b.1)
}

/// What one answered action promised.
#[derive(Debug, Clone)]
enum Answered {
    /// A new session (a roll or a willpower roll): it exists, with its log.
    Created { session: i64, action: &'static str },
    /// A click applied up to this version of the session.
    Reached { session: i64, version: i64 },
}

/// One player's stream: rolls, rerolls up the version chain, spends of
/// willpower rolls made before, and rests on their Veracity card.
async fn stream(
    t: &Table,
    who: &str,
    spends: &[String],
    card: &str,
    answered: &tokio::sync::Mutex<Vec<Answered>>,
    count: &AtomicUsize,
) {
    let mut spends = spends.iter();
    let mut card = card.to_string();
    let mut roll: Option<String> = None;
    for step in 0usize.. {
        let (custom_id, line) = match step % 4 {
            0 => (None, Some("/roll expression:4d6kh3")),
            1 => (roll.clone(), None),
            2 => match spends.next() {
                Some(s) => (Some(s.clone()), None),
                None => (roll.clone(), None),
            },
            _ => (Some(card.clone()), None),
        };
        let result = match (&custom_id, line) {
            (_, Some(line)) => t.command(who, line).await,
            (Some(id), None) => {
                let msg = message_with(t, id);
                t.click_custom_id(who, msg, id, None).await
            }
            (None, None) => continue,
        };
        let Ok(ex) = result else {
            // The bot is gone (killed); the caller restarts it.
            return;
        };
        assert!(!ex.outputs.is_empty(), "{who}: answered without output");
        for o in &ex.outputs {
            assert!(
                !o.text().contains("Something went wrong"),
                "{who}: {}",
                o.text()
            );
        }
        // A refusal (e.g. no Stress left to rest) changes nothing.
        // (A Storyteller sheet card redrawn by another player's concurrent
        // spend may be counted with this answer: it is not this one's.)
        let refused = ex
            .outputs
            .iter()
            .filter(|o| !is_card_redraw(o))
            .all(|o| o.kind == "ephemeral");
        let mut list = answered.lock().await;
        match (&custom_id, line) {
            _ if refused => {}
            (_, Some(_)) => {
                let id = button(&ex, "Reroll").expect("a Reroll button");
                let b = ButtonId::parse(&id).unwrap();
                list.push(Answered::Created {
                    session: b.session,
                    action: "roll",
                });
                roll = Some(id);
            }
            (Some(id), None) => {
                let clicked = ButtonId::parse(id).unwrap();
                // The update shows the session's new version in its buttons
                // (none left after a spend: the roll is decided).
                let shown = ex
                    .outputs
                    .iter()
                    .flat_map(|o| o.buttons())
                    .filter_map(|b| ButtonId::parse(&b.1))
                    .find(|b| b.session == clicked.session);
                let version = shown.as_ref().map_or(clicked.version + 1, |b| b.version);
                list.push(Answered::Reached {
                    session: clicked.session,
                    version,
                });
                if let Some(next) = shown {
                    let next = ButtonId {
                        action: clicked.action.clone(),
                        ..next
                    }
                    .encode();
                    if clicked.kind == "roll" {
                        roll = Some(next);
                    } else if clicked.kind == "vr" {
                        card = next;
                    }
                }
            }
            _ => {}
        }
        drop(list);
        count.fetch_add(1, Ordering::SeqCst);
    }
}

async fn st_sheets(db: &Db) -> BTreeMap<i64, StorytellerSheet> {
    let mut out = BTreeMap::new();
    let mut tx = db.read().await.unwrap();
    for i in 0..PLAYERS {
        let rows = storage::characters::by_name_any_owner(
            &mut tx,
            GUILD_ID as i64,
            "storyteller",
            &format!("Crash{i}"),
        )
        .await
        .unwrap();
        out.insert(rows[0].id, serde_json::from_str(&rows[0].sheet).unwrap());
    }
    out
}

async fn vr_sheets(db: &Db) -> BTreeMap<i64, VrSheet> {
    let mut out = BTreeMap::new();
    let mut tx = db.read().await.unwrap();
    for i in 0..PLAYERS {
        let rows = storage::characters::by_name_any_owner(
            &mut tx,
            GUILD_ID as i64,
            "veracity",
            &format!("Vc{i}"),
        )
        .await
        .unwrap();
        out.insert(rows[0].id, serde_json::from_str(&rows[0].sheet).unwrap());
    }
    out
}

const PLAYERS: usize = 4;
/// Kill after this many more answered actions, in each round.
const KILL_AFTER: [usize; 5] = [25, 40, 15, 30, 20];

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_bot_killed_mid_stream_restarts_with_every_answered_action_intact() {
    let path = db_path("crash");
    let t = Arc::new(
        Table::start_external(TableOptions::new(&path))
            .await
            .unwrap(),
    );
    let mut bot = Bot::start(&t, &path, 0).await;
    let players: Vec<String> = (0..PLAYERS).map(|i| format!("crasher{i}")).collect();

    // Setup: sheets, willpower rolls offering a spend, a Veracity card.
    let mut spends: HashMap<String, Vec<String>> = HashMap::new();
    let mut cards: HashMap<String, String> = HashMap::new();
    for (i, p) in players.iter().enumerate() {
        for line in [
            format!("/st sheet create name:Crash{i} willpower:10"),
            format!("/vr sheet create name:Vc{i} light:6 flesh:6 facet:Calm"),
            "/vr stress amount:4".to_string(),
        ] {
            t.command(p, &line)
                .await
                .unwrap_or_else(|e| panic!("{line}: {e}\n{}", bot.stderr()));
        }
        // One spend offer per round, and one kept for the end. Buying is
        // offered only when it beats the roll (ST-11), so the rolls are at
        // difficulty 10 and the offers kept show at most 2 successes: after
        // at most 5 of 10 willpower spent, buying (4 or more) still beats
        // them, so every offer stays valid. The storyteller tops willpower
        // up after each roll: a botch here costs nothing later.
        let want = KILL_AFTER.len() + 1;
        let mut offers = Vec::new();
        for _ in 0..80 {
            if offers.len() == want {
                break;
            }
            let ex = t.command(p, "/st willpower difficulty:10").await.unwrap();
            // Issue 16: the open roll's title says what was rolled so far
            // (`⏳ Waiting for X · 2 successes rolled`; nothing after a
            // simple failure).
            let few = ex.outputs.first().map(|o| o.title()).is_some_and(|t| {
                t.starts_with("⏳")
                    && (!t.contains(" · ")
                        || t.contains(" · 1 success ")
                        || t.contains(" · 2 successes "))
            });
            if let Some(id) = button(&ex, "Spend willpower").filter(|_| few) {
                offers.push(id);
            }
            let top_up = format!("/st sheet willpower current:10 character:Crash{i}");
            t.command("fc", &top_up).await.unwrap();
        }
        assert_eq!(offers.len(), want, "{p}: spend offers");
        spends.insert(p.clone(), offers);
        let ex = t.command(p, "/vr sheet show").await.unwrap();
        cards.insert(p.clone(), button(&ex, "Rest: remove a Stress").unwrap());
    }
    let db = Db::open(&format!("sqlite://{}", path.display()), 2)
        .await
        .unwrap();
    let wp_start = st_sheets(&db).await;
    let stress_start: BTreeMap<i64, u32> = vr_sheets(&db)
        .await
        .into_iter()
        .map(|(id, s)| (id, s.light().count(ItemKind::Stress)))
        .collect();

    // Rounds: streams of actions from every player; SIGKILL once enough
    // were answered; restart on the same database.
    let answered = Arc::new(tokio::sync::Mutex::new(Vec::<Answered>::new()));
    for (round, kill_after) in KILL_AFTER.iter().enumerate() {
        let count = Arc::new(AtomicUsize::new(0));
        let mut streams = Vec::new();
        for p in &players {
            let (t, answered, count) = (t.clone(), answered.clone(), count.clone());
            let p = p.clone();
            let mine: Vec<String> = spends[&p].iter().skip(round).take(1).cloned().collect();
            let card = cards[&p].clone();
            streams.push(tokio::spawn(async move {
                stream(&t, &p, &mine, &card, &answered, &count).await
            }));
        }
        // Kill in the middle of the stream.
        let deadline = tokio::time::Instant::now() + Duration::from_secs(60);
        while count.load(Ordering::SeqCst) < *kill_after {
            assert!(
                tokio::time::Instant::now() < deadline,
                "round {round}: the stream stalled\n{}",
                bot.stderr()
            );
            tokio::time::sleep(Duration::from_millis(2)).await;
        }
        bot.kill_9().await;
        for s in streams {
            // Streams end on their first unanswered action; an action sent
            // into the dead bot waits out the driver's timeout, so do not
            // wait for those.
            s.abort();
            let _ = s.await;
        }
        println!(
            "round {round}: killed after {} answered actions",
            count.load(Ordering::SeqCst)
        );
        bot = Bot::start(&t, &path, round + 1).await;
        // Cards may have moved on: use the newest version of each next round.
        let mut tx = db.read().await.unwrap();
        for id in cards.values_mut() {
            let mut b = ButtonId::parse(id).unwrap();
            let s = storage::sessions::get(&mut tx, GUILD_ID as i64, b.session)
                .await
                .unwrap()
                .unwrap();
            b.version = s.version;
            *id = b.encode();
        }
    }

    // The database is intact.
    assert!(db.integrity_ok().await.unwrap(), "integrity check");
    let answered = answered.lock().await.clone();
    // (Refusals, e.g. a rest with no Stress left, are answered but change
    // nothing, so they are not in the list.)
    assert!(answered.len() >= KILL_AFTER.iter().sum::<usize>() / 2);

    // Every answered action is there.
    let mut tx = db.read().await.unwrap();
    for a in &answered {
        match a {
            Answered::Created { session, action } => {
                let s = storage::sessions::get(&mut tx, GUILD_ID as i64, *session)
                    .await
                    .unwrap();
                assert!(s.is_some(), "answered {action} {session} is missing");
                let log = storage::log::for_session(&mut tx, GUILD_ID as i64, *session)
                    .await
                    .unwrap();
                assert_eq!(log.first().map(|e| e.action.as_str()), Some(*action));
            }
            Answered::Reached { session, version } => {
                let s = storage::sessions::get(&mut tx, GUILD_ID as i64, *session)
                    .await
                    .unwrap()
                    .unwrap();
                assert!(
                    s.version >= *version,
                    "session {session} at {} after an answer showing {version}",
                    s.version
                );
            }
        }
    }

    // No half-applied action: each session's version, state and log agree,
    // and each sheet moved by exactly what its log says.
    // Every session: up to the newest one answered, plus any created but
    // not answered before a kill (a few per round at most).
    let newest = answered
        .iter()
        .map(|a| match a {
            Answered::Created { session, .. } | Answered::Reached { session, .. } => *session,
        })
        .max()
        .unwrap();
    let mut rows: Vec<(i64, String)> = Vec::new();
    for id in 1..=newest + 100 {
        if let Some(s) = storage::sessions::get(&mut tx, GUILD_ID as i64, id)
            .await
            .unwrap()
        {
            rows.push((id, s.kind));
        }
    }
    let mut spent: HashMap<i64, u8> = HashMap::new();
    let mut rested: HashMap<i64, u32> = HashMap::new();
    for (id, kind) in &rows {
        let s = storage::sessions::get(&mut tx, GUILD_ID as i64, *id)
            .await
            .unwrap()
            .unwrap();
        let log = storage::log::for_session(&mut tx, GUILD_ID as i64, *id)
            .await
            .unwrap();
        let n = |a: &str| log.iter().filter(|e| e.action == a).count();
        match kind.as_str() {
            "roll" => {
                let state: serde_json::Value = serde_json::from_str(&s.state).unwrap();
                assert_eq!(n("roll"), 1, "roll {id}");
                assert_eq!(s.version as usize, n("reroll"), "roll {id}: version vs log");
                assert_eq!(
                    state["rerolls"].as_u64().unwrap() as usize,
                    n("reroll"),
                    "roll {id}: state vs log"
                );
            }
            "st" => {
                assert!(n("spend") <= 1, "willpower roll {id} spent twice");
                // A roll that offered no spend was closed at creation (version 1).
                let first: serde_json::Value = serde_json::from_str(&log[0].outcome).unwrap();
                let offered = first["phase"] == "willpower_choice";
                assert!(offered || n("spend") == 0, "willpower roll {id}");
                assert_eq!(
                    s.version as usize,
                    n("spend") + usize::from(!offered),
                    "willpower roll {id}"
                );
                if n("spend") == 1 {
                    assert_ne!(s.status.as_str(), "open", "spent but still open");
                    let ch = log[0].character_id.unwrap();
                    *spent.entry(ch).or_default() += 1;
                }
            }
            "vr" => {
                assert_eq!(s.version as usize, n("rest"), "card {id}: version vs log");
                if let Some(ch) = log.first().and_then(|e| e.character_id) {
                    *rested.entry(ch).or_default() += n("rest") as u32;
                }
            }
            // Sheet cards of /st sheet create: never clicked here.
            "st_sheet" => assert_eq!(s.version, 0, "sheet card {id}"),
            // Their controls (Play as…, Delete, Export): never changed.
            "card" => assert_eq!(s.version, 0, "sheet controls {id}"),
            other => panic!("unexpected session kind {other}"),
        }
    }
    drop(tx);
    for (ch, sheet) in st_sheets(&db).await {
        assert_eq!(
            sheet.willpower().current,
            wp_start[&ch].willpower().current - spent.get(&ch).copied().unwrap_or(0),
            "character {ch}: willpower vs the spends logged"
        );
    }
    for (ch, sheet) in vr_sheets(&db).await {
        let stress = sheet.light().count(ItemKind::Stress);
        assert_eq!(
            stress,
            stress_start[&ch] - rested.get(&ch).copied().unwrap_or(0),
            "character {ch}: stress vs the rests logged"
        );
    }
    let spends_total: u8 = spent.values().sum();
    let rests_total: u32 = rested.values().sum();
    let created: std::collections::HashSet<i64> = answered
        .iter()
        .filter_map(|a| match a {
            Answered::Created { session, .. } => Some(*session),
            _ => None,
        })
        .collect();
    let unanswered_rolls = rows
        .iter()
        .filter(|(id, k)| k == "roll" && !created.contains(id))
        .count();
    println!(
        "{} answered actions over {} kills: {} sessions ({unanswered_rolls} rolls committed but never answered), {spends_total} spends, {rests_total} rests, all consistent",
        answered.len(),
        KILL_AFTER.len(),
        rows.len()
    );

    // Old buttons still work: a roll's current Reroll and a spend offered
    // before the first kill.
    let (roll_id, _) = rows.iter().find(|(_, k)| k == "roll").unwrap();
    let mut tx = db.read().await.unwrap();
    let s = storage::sessions::get(&mut tx, GUILD_ID as i64, *roll_id)
        .await
        .unwrap()
        .unwrap();
    drop(tx);
    let id = ButtonId::new("roll", *roll_id, s.version, "reroll").encode();
    let owner = players
        .iter()
        .find(|p| Table::user_id(p) as i64 == s.owner_id)
        .unwrap();
    let ex = t
        .click_custom_id(owner, message_with(&t, &id), &id, None)
        .await
        .unwrap();
    assert_eq!(ex.single().kind, "update");
    assert!(ex
        .single()
        .text()
        .contains(&format!("Rerolled {} time(s)", s.version + 1)));
    let unused = spends[&players[0]].last().unwrap().clone();
    let roll_message = message_with(&t, &unused);
    let ex = t
        .click_custom_id(&players[0], roll_message, &unused, None)
        .await
        .unwrap();
    // The spend updates its roll in place; the willpower it costs also
    // redraws the character's shown sheet card, after the answer (so the
    // exchange catches it only when it lands before the exchange closes),
    // and nothing else.
    let answer = ex
        .outputs
        .iter()
        .find(|o| o.message_id == Some(roll_message))
        .unwrap_or_else(|| panic!("the roll is updated: {:#?}", ex.outputs));
    assert_eq!(answer.kind, "update");
    assert!(
        answer.text().contains("Automatic success"),
        "{}",
        answer.text()
    );
    for other in ex
        .outputs
        .iter()
        .filter(|o| o.message_id != Some(roll_message))
    {
        assert_eq!(other.kind, "update", "{other:#?}");
        assert!(
            other.body["embeds"][0]["title"]
                .as_str()
                .is_some_and(|t| t.starts_with("📜")),
            "only a sheet card is redrawn beside the roll: {other:#?}"
        );
    }
    bot.kill_9().await;
    assert_schema_clean(&t);
    db.close().await;
}
