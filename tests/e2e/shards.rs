//! The fake Discord shards as Discord does (issue 17, item 3): `GET
//! /gateway/bot` announces the shard count, each shard identifies on its
//! own connection, and a guild's events (GUILD_CREATE, INTERACTION_CREATE)
//! arrive on the shard `(guild_id >> 22) % shard_count`. Checked with
//! serenity's own sharded client, two shards.

use crate::multiprocess::{scratch, shared_database, Bot};
use kismet::fake::payloads::{self, Envelope};
use kismet::fake::{shard_of, FakeDiscord};
use poise::serenity_prelude as serenity;
use std::sync::{Arc, Mutex};
use std::time::Duration;

/// What the client saw: (shard, event, guild).
type Seen = Arc<Mutex<Vec<(u32, &'static str, u64)>>>;

struct Recorder(Seen);

#[serenity::async_trait]
impl serenity::EventHandler for Recorder {
    async fn guild_create(
        &self,
        ctx: serenity::Context,
        guild: serenity::Guild,
        _is_new: Option<bool>,
    ) {
        let shard = ctx.shard_id.0;
        self.0
            .lock()
            .unwrap()
            .push((shard, "GUILD_CREATE", guild.id.get()));
    }

    async fn interaction_create(&self, ctx: serenity::Context, i: serenity::Interaction) {
        if let serenity::Interaction::Command(c) = i {
            let guild = c.guild_id.map_or(0, |g| g.get());
            let shard = ctx.shard_id.0;
            self.0
                .lock()
                .unwrap()
                .push((shard, "INTERACTION_CREATE", guild));
        }
    }
}

/// A guild id whose shard (of `count`) is `shard`.
fn guild_on(shard: u32, count: u32, n: u64) -> u64 {
    let id = ((u64::from(shard) + u64::from(count) * n) << 22) | 12345;
    assert_eq!(shard_of(id, count), shard);
    id
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn each_guild_s_events_arrive_on_its_shard() {
    let fake = FakeDiscord::start(None).await.unwrap();
    fake.set_shard_count(2);
    // Two guilds on each shard; the arithmetic is Discord's.
    let guilds = [
        guild_on(0, 2, 1),
        guild_on(1, 2, 1),
        guild_on(0, 2, 7),
        guild_on(1, 2, 9),
    ];
    for g in guilds {
        fake.add_guild(g);
    }

    let seen: Seen = Arc::default();
    let http = serenity::HttpBuilder::new("fake-token")
        .proxy(fake.base_url())
        .ratelimiter_disabled(true)
        .build();
    let mut client = serenity::ClientBuilder::new_with_http(http, serenity::GatewayIntents::GUILDS)
        .event_handler(Recorder(seen.clone()))
        .await
        .unwrap();
    let shards = client.shard_manager.clone();
    // Autosharded: the count comes from the fake's `GET /gateway/bot`.
    let task = tokio::spawn(async move { client.start_autosharded().await });

    let both = fake
        .wait_for(Duration::from_secs(20), |f| {
            (f.connected_shards() == vec![0, 1]).then_some(())
        })
        .await;
    assert!(
        both.is_some(),
        "shards connected: {:?}",
        fake.connected_shards()
    );
    let creates = guilds.len();
    let got = tokio::time::timeout(Duration::from_secs(10), async {
        loop {
            if seen.lock().unwrap().len() >= creates {
                break;
            }
            tokio::time::sleep(Duration::from_millis(20)).await;
        }
    })
    .await;
    assert!(got.is_ok(), "guilds seen: {:?}", seen.lock().unwrap());

    // A slash command in each guild.
    for (n, g) in guilds.iter().enumerate() {
        let env = Envelope {
            id: 5000 + n as u64,
            app_id: fake.app_id(),
            token: format!("shard-token-{n}"),
            guild_id: *g,
            channel_id: 42,
            parent_id: None,
            member: payloads::member(7, "alice", &[], payloads::BASE_PERMISSIONS),
        };
        let data = serde_json::json!({"id": "1", "name": "roll", "type": 1, "options": []});
        fake.dispatch("INTERACTION_CREATE", payloads::command(&env, data))
            .unwrap();
    }
    let got = tokio::time::timeout(Duration::from_secs(10), async {
        loop {
            if seen.lock().unwrap().len() >= 2 * creates {
                break;
            }
            tokio::time::sleep(Duration::from_millis(20)).await;
        }
    })
    .await;
    let seen = seen.lock().unwrap().clone();
    assert!(got.is_ok(), "events seen: {seen:?}");

    for g in guilds {
        let want = shard_of(g, 2);
        for event in ["GUILD_CREATE", "INTERACTION_CREATE"] {
            let on: Vec<u32> = seen
                .iter()
                .filter(|(_, e, id)| *e == event && *id == g)
                .map(|(s, _, _)| *s)
                .collect();
            assert_eq!(on, vec![want], "{event} of guild {g}: {seen:?}");
        }
    }
    // Both shards carried traffic, and the fake's own log agrees.
    assert!(seen.iter().any(|s| s.0 == 0) && seen.iter().any(|s| s.0 == 1));
    for (shard, event, guild) in fake.dispatched() {
        if let Some(g) = guild {
            assert_eq!(shard, shard_of(g, 2), "{event} {g}");
        }
    }
    // Bounded: a manager whose shard never got READY can wait forever.
    let _ = tokio::time::timeout(Duration::from_secs(2), shards.shutdown_all()).await;
    task.abort();
}

/// A client that identifies with the wrong shard count is refused, as
/// Discord refuses it (close 4010), and never gets READY. The client is the
/// real `kismet run` in a child process (`--shards 0 --shard-count 1`
/// where the fake wants two), killed when the test is done: serenity's
/// shard runner retries a refused shard forever, and no runtime of this
/// test binary has to stop it.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_wrong_shard_count_is_refused() {
    let fake = FakeDiscord::start(None).await.unwrap();
    fake.set_shard_count(2);
    let dir = scratch("wrong-count");
    let database = shared_database("wrong-count");
    let bot = Bot::spawn(&fake.base_url(), &database, &dir, "bot", Some(("0", 1)));
    // It identifies and is refused (serenity retries it every ~10 s).
    let refused = fake
        .wait_for(Duration::from_secs(30), |f| {
            (f.refused_identifies() >= 1).then_some(())
        })
        .await;
    assert!(refused.is_some(), "{}", bot.stderr());
    let connected = fake
        .wait_for(Duration::from_secs(2), |f| f.connected().then_some(()))
        .await;
    assert!(connected.is_none(), "{:?}", fake.connected_shards());
    assert_eq!(fake.identifies(), 0);
    bot.kill_9().await;
}

/// `kismet run --shards 1-2 --shard-count 4` runs exactly shards 1 and 2
/// (serenity's shard range counts its end in; `bot::start` accounts for
/// it), and a range outside the count is refused before anything starts.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_process_runs_exactly_its_range_of_shards() {
    let fake = FakeDiscord::start(None).await.unwrap();
    fake.set_shard_count(4);
    let dir = scratch("range");
    let database = shared_database("range");
    let bot = Bot::spawn(&fake.base_url(), &database, &dir, "bot", Some(("1-2", 4)));
    let two = fake
        .wait_for(Duration::from_secs(15), |f| {
            (f.connected_shards().len() >= 2).then_some(())
        })
        .await;
    assert!(
        two.is_some(),
        "{:?}\n{}",
        fake.connected_shards(),
        bot.stderr()
    );
    // Give a stray third shard the time to show up.
    tokio::time::sleep(Duration::from_millis(500)).await;
    assert_eq!(fake.connected_shards(), vec![1, 2], "{}", bot.stderr());
    bot.kill_9().await;

    let mut refused = Bot::spawn(
        &fake.base_url(),
        &database,
        &dir,
        "refused",
        Some(("2-4", 4)),
    );
    let status = tokio::time::timeout(Duration::from_secs(10), refused.wait())
        .await
        .expect("a refused range exits at once");
    assert_eq!(status.code(), Some(2), "{}", refused.stderr());
    assert!(
        refused.stderr().contains("shards are numbered 0 to 3"),
        "{}",
        refused.stderr()
    );
}
