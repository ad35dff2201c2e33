//! Removal from a server (issue 33 item 3): when the bot is removed from a
//! guild (GUILD_DELETE without `unavailable`), the guild's data is deleted
//! once the grace period (30 days by default) is over, by the bot's own
//! background sweep on an injected clock; the bot coming back (GUILD_CREATE)
//! cancels it, and an outage (`unavailable: true`) never schedules it.
//!
//! A sweep leaves no trace when it deletes nothing, so each test removes
//! the bot from a third guild, C, whose deletion falls due exactly when the
//! clock is moved: once C's data is gone, a sweep has run at that time.

use crate::common::{assert_schema_clean, table_with};
use kismet::app::Clock;
use kismet::fake::table::{Table, GUILD_ID};
use kismet::storage::departures;
use std::time::Duration;

const DAY: Duration = Duration::from_secs(86_400);
/// Where the bot's clock starts (ms since the epoch).
const START: i64 = 1_800_000_000_000;
const A: u64 = GUILD_ID;
const B: u64 = GUILD_ID + 1;
const C: u64 = GUILD_ID + 2;

/// A table whose bot tells the time by `clock`.
async fn table_on(tag: &str, clock: &Clock) -> Table {
    let clock = clock.clone();
    table_with(tag, 33, move |o| o.clock = clock).await
}

/// Plays enough in `guild` to give it rows in most guild-scoped tables.
async fn fill(t: &Table, guild: u64) -> Vec<(&'static str, i64)> {
    t.set_guild(guild);
    for (who, line) in [
        ("fc", "/fc set name:player_edits value:free"),
        ("alice", "/roll expression:2d6"),
        ("alice", "/roll expression:8d6 save:Fire"),
        ("alice", "/ve sheet create name:Ada"),
        ("alice", "/ve sheet set lots:5"),
        ("fc", "/vr-gm convention add text:\"No guns\" cost:+1"),
        ("fc", "/game-gm create name:Alpha system:\"Venus Engine\""),
        ("alice", "/game character:Ada"),
    ] {
        t.command(who, line)
            .await
            .unwrap_or_else(|e| panic!("{line}: {e}"));
    }
    // A play-by-post game whose roll waits on its roller (`game_waits`);
    // a roll with nothing to choose closes at once, so until one waits.
    for line in [
        "fc in #post: /game-gm create name:Post system:Storyteller",
        "fc in #post: /game-gm pace pace:post",
        "alice in #post: /st sheet create name:Sol willpower:6",
    ] {
        t.run_line(line)
            .await
            .unwrap_or_else(|e| panic!("{line}: {e}"));
    }
    for _ in 0..10 {
        let (_, ex) = t
            .run_line("alice in #post: /st willpower")
            .await
            .unwrap()
            .unwrap();
        if ex
            .outputs
            .iter()
            .any(|o| o.content().contains("waits on you"))
        {
            break;
        }
    }
    t.set_guild(A);
    let held = held(t, guild).await;
    for (table, n) in &held {
        let empty = ["veracity_revealed", "guild_departures"].contains(table);
        assert_eq!(*n == 0, empty, "{table} of guild {guild}: {held:?}");
    }
    held
}

/// Rows of `guild` in every guild-scoped table.
async fn held(t: &Table, guild: u64) -> Vec<(&'static str, i64)> {
    let db = t.db().await.expect("the bot runs");
    let mut tx = db.read().await.unwrap();
    departures::held(&mut tx, guild as i64).await.unwrap()
}

/// When the bot left `guild`, as recorded.
async fn left_at(t: &Table, guild: u64) -> Option<i64> {
    let db = t.db().await.expect("the bot runs");
    let mut tx = db.read().await.unwrap();
    departures::left_at(&mut tx, guild as i64).await.unwrap()
}

/// Waits (up to 10 s) until the recorded departure of `guild` is `want`.
async fn departure_becomes(t: &Table, guild: u64, want: Option<i64>) {
    for _ in 0..500 {
        if left_at(t, guild).await == want {
            return;
        }
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
    panic!(
        "the departure of guild {guild} is {:?}, not {want:?}",
        left_at(t, guild).await
    );
}

/// Waits (up to 10 s) until `guild` holds `want` again: a server the bot
/// comes back to has its commands registered anew, whose signature row is
/// written after the return is seen.
async fn holds_again(t: &Table, guild: u64, want: &[(&'static str, i64)]) {
    for _ in 0..500 {
        if held(t, guild).await == want {
            return;
        }
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
    assert_eq!(held(t, guild).await, want);
}

/// Waits (up to 10 s) until `guild` holds no row in any table.
async fn deleted(t: &Table, guild: u64) {
    for _ in 0..500 {
        if held(t, guild).await.iter().all(|(_, n)| *n == 0) {
            return;
        }
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
    panic!("guild {guild} still holds {:?}", held(t, guild).await);
}

/// `held` with the departure's own row counted as `departed`.
fn with_departure(held: &[(&'static str, i64)], departed: i64) -> Vec<(&'static str, i64)> {
    held.iter()
        .map(|(t, n)| {
            (
                *t,
                if *t == "guild_departures" {
                    departed
                } else {
                    *n
                },
            )
        })
        .collect()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_removed_server_s_data_is_deleted_after_the_grace_period_and_not_before() {
    let clock = Clock::manual(START);
    let t = table_on("depart-grace", &clock).await;
    let (a, b) = (fill(&t, A).await, fill(&t, B).await);
    fill(&t, C).await;

    // C is removed a day before A.
    assert!(t.fake.remove_guild(C), "the bot is told of its removal");
    departure_becomes(&t, C, Some(START)).await;
    let removed_a = clock.advance(DAY).unwrap();
    assert!(t.fake.remove_guild(A));
    departure_becomes(&t, A, Some(removed_a)).await;
    assert_eq!(held(&t, A).await, with_departure(&a, 1), "nothing yet");

    // 29 days after A's removal (30 after C's): C's data goes, A's stays.
    clock.advance(DAY * 29).unwrap();
    deleted(&t, C).await;
    assert_eq!(held(&t, A).await, with_departure(&a, 1), "A after 29 days");
    assert_eq!(left_at(&t, A).await, Some(removed_a));

    // 30 days and a moment: A's data is gone from every table, B's stays.
    clock.advance(DAY + Duration::from_millis(1)).unwrap();
    deleted(&t, A).await;
    assert_eq!(held(&t, B).await, b, "the other guild is untouched");
    assert_schema_clean(&t);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_bot_back_within_the_grace_period_keeps_the_data() {
    let clock = Clock::manual(START);
    let t = table_on("depart-back", &clock).await;
    let a = fill(&t, A).await;
    fill(&t, C).await;
    assert!(t.fake.remove_guild(A));
    assert!(t.fake.remove_guild(C));
    departure_becomes(&t, A, Some(START)).await;
    departure_becomes(&t, C, Some(START)).await;

    // Back on day 10 (GUILD_CREATE): the deletion is cancelled.
    clock.advance(DAY * 10).unwrap();
    t.fake.add_guild(A);
    departure_becomes(&t, A, None).await;

    // Day 40: C (never back) is deleted, A keeps everything.
    clock.advance(DAY * 30).unwrap();
    deleted(&t, C).await;
    holds_again(&t, A, &a).await;
    // The table still plays in A.
    t.command("alice", "/roll expression:1d6").await.unwrap();
    assert_schema_clean(&t);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_outage_never_schedules_a_deletion() {
    let clock = Clock::manual(START);
    let t = table_on("depart-outage", &clock).await;
    let a = fill(&t, A).await;
    fill(&t, C).await;
    // A becomes unavailable (GUILD_DELETE with `unavailable: true`), C is
    // removed after it.
    assert!(t.fake.guild_outage(A), "the bot is told of the outage");
    assert!(t.fake.remove_guild(C));
    departure_becomes(&t, C, Some(START)).await;
    assert_eq!(left_at(&t, A).await, None, "an outage is no removal");

    clock.advance(DAY * 40).unwrap();
    deleted(&t, C).await;
    assert_eq!(left_at(&t, A).await, None);
    assert_eq!(held(&t, A).await, a, "an outage deletes nothing");
    // A is back from its outage.
    assert!(t.fake.guild_available(A));
    t.command("alice", "/roll expression:1d6").await.unwrap();
    assert_schema_clean(&t);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_server_the_bot_is_still_in_is_never_deleted() {
    let clock = Clock::manual(START);
    let t = table_on("depart-member", &clock).await;
    let a = fill(&t, A).await;
    fill(&t, C).await;
    // The bot is in A, yet a departure is on file (its GUILD_CREATE was
    // handled before the GUILD_DELETE it followed, or lost).
    t.fake.add_guild_unannounced(A);
    let db = t.db().await.unwrap();
    let mut tx = db.write().await.unwrap();
    departures::record(&mut tx, A as i64, START).await.unwrap();
    tx.commit().await.unwrap();
    assert!(t.fake.remove_guild(C));
    departure_becomes(&t, C, Some(START)).await;

    // Day 31: Discord says the bot is in A: its departure is dropped and
    // its data kept; C's is deleted.
    clock.advance(DAY * 31).unwrap();
    deleted(&t, C).await;
    departure_becomes(&t, A, None).await;
    assert_eq!(held(&t, A).await, a);
    assert_schema_clean(&t);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn without_discord_s_answer_the_deletion_waits_for_the_next_sweep() {
    let clock = Clock::manual(START);
    let t = table_on("depart-unknown", &clock).await;
    let a = fill(&t, A).await;
    fill(&t, C).await;
    assert!(t.fake.remove_guild(A));
    assert!(t.fake.remove_guild(C));
    departure_becomes(&t, A, Some(START)).await;
    departure_becomes(&t, C, Some(START)).await;
    // Asked whether the bot is in A, Discord fails every try.
    t.fake.inject(kismet::fake::Fault {
        path_contains: format!("/guilds/{A}"),
        status: 500,
        retry_after: None,
        times: kismet::kit::deliver::MAX_TRIES,
    });

    // Day 31: A is swept first (it left first, and has the lower id), gets
    // no answer and keeps its data; C is deleted.
    clock.advance(DAY * 31).unwrap();
    deleted(&t, C).await;
    assert_eq!(held(&t, A).await, with_departure(&a, 1));

    // The next sweep, an hour later, gets its answer: A is deleted.
    clock.advance(Duration::from_secs(3600)).unwrap();
    deleted(&t, A).await;
    assert_schema_clean(&t);
}
