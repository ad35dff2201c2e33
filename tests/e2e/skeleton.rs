//! The walking skeleton: registration, /roll, Reroll, rights, restart,
//! bad input, concurrency and the schema check itself.

use crate::common::{assert_schema_clean, table};
use serde_json::json;
use std::time::Duration;

/// Parses the faces out of a roll description like `**3d6**: [1, 2, 3] → **6**`.
/// The faces of the first dice term of a roll's first line
/// (`` `3d6` 1 3 3 + 2 ``; dropped dice in brackets, successes bold).
fn faces(description: &str) -> Vec<u32> {
    let inner = description
        .split("` ")
        .nth(1)
        .unwrap()
        .split(" + ")
        .next()
        .unwrap();
    inner
        .split(' ')
        .map(|f| {
            f.trim_start_matches('↯')
                .trim_matches(['*', '★', '✗', '(', ')'])
                .parse()
                .unwrap()
        })
        .collect()
}

fn description(out: &kismet::fake::table::Output) -> String {
    out.embeds()[0]["description"].as_str().unwrap().to_string()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn registration_is_schema_valid_and_lists_roll() {
    let t = table("register", 1).await;
    let names: Vec<String> = t
        .registered()
        .as_array()
        .unwrap()
        .iter()
        .map(|c| c["name"].as_str().unwrap().to_string())
        .collect();
    assert!(names.contains(&"roll".to_string()), "{names:?}");
    let reg = t
        .fake
        .requests()
        .into_iter()
        .find(|r| r.method == "PUT")
        .expect("a registration request");
    assert_eq!(
        reg.route.as_deref(),
        Some("/applications/{application_id}/commands")
    );
    assert!(reg.violations.is_empty(), "{:?}", reg.violations);
    assert_schema_clean(&t);
    t.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn roll_3d6_plus_2_shows_three_faces_and_the_seeded_total() {
    let t = table("roll", 7).await;
    let ex = t.command("alice", "/roll expression:3d6+2").await.unwrap();
    let out = ex.single();
    assert_eq!(out.kind, "message");
    // Issue 16: the title states the total once, the author who rolled what.
    assert_eq!(out.embeds()[0]["author"]["name"], "alice · 3d6 + 2");
    let f = faces(&description(out));
    assert_eq!(f.len(), 3);
    let total: u32 = f.iter().sum::<u32>() + 2;
    assert_eq!(out.title(), format!("🎲 {total}"));
    // Seed 7 always gives these faces (the first action of a seeded bot).
    assert_eq!(f, vec![1, 3, 3], "seeded faces changed");
    assert_eq!(
        out.buttons(),
        vec![("Reroll".into(), "roll:1:0:reroll".into(), false)]
    );
    println!("e2e latency of one /roll: {:?}", ex.latency.unwrap());
    assert_schema_clean(&t);
    t.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn reroll_by_the_roller_updates_and_by_others_is_refused() {
    let t = table("reroll", 7).await;
    t.command("alice", "/roll expression:2d6").await.unwrap();
    let ex = t.click("alice", "Reroll").await.unwrap();
    let up = ex.single();
    assert_eq!(up.kind, "update");
    assert_eq!(up.buttons()[0].1, "roll:1:1:reroll");
    assert!(up.text().contains("Rerolled 1 time(s)"));
    let before = t.last_message_for("alice").unwrap().body.clone();

    let ex = t.click("bob", "Reroll").await.unwrap();
    let refusal = ex.single();
    assert_eq!(refusal.kind, "ephemeral");
    assert!(refusal
        .content()
        .contains("Only alice (or the FC) can reroll this."));
    // Nothing changed: the public message is as alice left it.
    let msgs = t.fake.messages();
    let public = msgs
        .iter()
        .rev()
        .find(|m| m.ephemeral_to.is_none())
        .unwrap();
    assert_eq!(public.body, before);

    // The FC may press it.
    let ex = t.click("fc", "Reroll").await.unwrap();
    assert_eq!(ex.single().kind, "update");
    assert!(ex.single().text().contains("Rerolled 2 time(s)"));
    assert_schema_clean(&t);
    t.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_double_click_rerolls_once() {
    let t = table("double", 3).await;
    t.command("alice", "/roll expression:1d20").await.unwrap();
    let msg = t.last_message_for("alice").unwrap();
    let first = t
        .click_custom_id("alice", msg.id, "roll:1:0:reroll", None)
        .await
        .unwrap();
    let second = t
        .click_custom_id("alice", msg.id, "roll:1:0:reroll", None)
        .await
        .unwrap();
    assert!(first.single().text().contains("Rerolled 1 time(s)"));
    // The stale click shows the current state and rerolls nothing.
    assert_eq!(second.single().kind, "update");
    assert_eq!(
        second.single().body["embeds"],
        first.single().body["embeds"]
    );
    assert_schema_clean(&t);
    t.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_button_still_works_after_a_restart() {
    let t = table("restart", 11).await;
    t.command("alice", "/roll expression:4d6kh3").await.unwrap();
    t.restart().await.unwrap();
    let ex = t.click("alice", "Reroll").await.unwrap();
    let up = ex.single();
    assert_eq!(up.kind, "update");
    assert!(up.text().contains("Rerolled 1 time(s)"));
    assert_eq!(faces(&description(up)).len(), 4);
    assert_schema_clean(&t);
    t.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn bad_expressions_get_an_ephemeral_error_and_store_nothing() {
    let t = table("bad", 1).await;
    for (expr, needle) in [
        ("3d", "needs a number of sides"),
        ("501d6", "at most 500"),
        ("1d1001", "1 to 1000"),
        // `*` multiplies now (issue 18): `2d6*3` rolls.
        ("2d6%3", "Unexpected `%`"),
        ("\"1d6 + é\"", "Unexpected `é` at position 7"),
        ("\"hello world\"", "Unexpected `h`"),
        ("99999999999999999999", "Numbers go up to 1000000"),
        (
            "9223372036854775808+9223372036854775808",
            "Numbers go up to 1000000",
        ),
        ("-9223372036854775808", "Numbers go up to 1000000"),
    ] {
        let ex = t
            .command("alice", &format!("/roll expression:{expr}"))
            .await
            .unwrap();
        let out = ex.single();
        assert_eq!(out.kind, "ephemeral", "{expr}");
        assert!(out.content().contains(needle), "{expr}: {}", out.content());
    }
    // Too long: Discord's client refuses it (max_length 200), and so does the driver.
    let long = format!("/roll expression:{}", "1".repeat(201));
    assert!(t.command("alice", &long).await.is_err());
    let db = t.db().await.unwrap();
    let mut tx = db.read().await.unwrap();
    let logged = kismet::storage::log::count(&mut tx, kismet::fake::table::GUILD_ID as i64)
        .await
        .unwrap();
    assert_eq!(logged, 0, "a refused roll must not be logged");
    drop(tx);
    assert_schema_clean(&t);
    t.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_click_from_another_guild_finds_nothing() {
    let t = table("guilds", 5).await;
    t.command("alice", "/roll expression:1d6").await.unwrap();
    let msg = t.last_message_for("alice").unwrap();
    t.set_guild(800_000_000_000_000_099);
    let ex = t
        .click_custom_id("alice", msg.id, "roll:1:0:reroll", None)
        .await
        .unwrap();
    let out = ex.single();
    assert_eq!(out.kind, "ephemeral");
    assert!(
        out.content().contains("no longer exists"),
        "{}",
        out.content()
    );
    for forged in [
        "roll:zz:0:reroll",
        "nonsense",
        "roll:1:0:explode",
        "x:1:0:reroll",
    ] {
        t.set_guild(kismet::fake::table::GUILD_ID);
        let ex = t
            .click_custom_id("alice", msg.id, forged, None)
            .await
            .unwrap();
        assert_eq!(ex.single().kind, "ephemeral", "{forged}");
    }
    assert_schema_clean(&t);
    t.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn twenty_concurrent_rolls_are_all_answered() {
    let t = table("concurrent", 2).await;
    let names: Vec<String> = (0..20).map(|i| format!("player{i}")).collect();
    let futures = names
        .iter()
        .map(|n| t.command(n, "/roll expression:2d10+1"));
    let results = futures_util::future::join_all(futures).await;
    let mut latencies = Vec::new();
    for (n, r) in names.iter().zip(results) {
        let ex = r.unwrap_or_else(|e| panic!("{n}: {e}"));
        let out = ex.single();
        assert_eq!(out.kind, "message");
        assert_eq!(out.embeds()[0]["author"]["name"], format!("{n} · 2d10 + 1"));
        latencies.push(ex.latency.unwrap());
    }
    latencies.sort();
    println!(
        "20 concurrent /roll: median {:?}, max {:?}",
        latencies[10], latencies[19]
    );
    let db = t.db().await.unwrap();
    let mut tx = db.read().await.unwrap();
    assert_eq!(
        kismet::storage::log::count(&mut tx, kismet::fake::table::GUILD_ID as i64)
            .await
            .unwrap(),
        20
    );
    drop(tx);
    assert_schema_clean(&t);
    t.stop().await;
}

/// The validator itself: a callback without its `type`, a 101-character
/// custom_id and six buttons in a row are all caught.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_fake_rejects_schema_violations() {
    let t = table("schema", 1).await;
    let http = serenity::all::HttpBuilder::new("fake.token.kismet")
        .proxy(t.fake.base_url())
        .ratelimiter_disabled(true)
        .build();
    let id = serenity::all::InteractionId::new(1);
    let bad_bodies = [
        json!({"data": {"content": "no type"}}),
        json!({"type": 4, "data": {"components": [{"type": 1, "components": [{"type": 2, "style": 1, "label": "x", "custom_id": "c".repeat(101)}]}]}}),
        json!({"type": 4, "data": {"components": [{"type": 1, "components": (0..6).map(|i| json!({"type": 2, "style": 1, "label": "x", "custom_id": format!("b{i}")})).collect::<Vec<_>>()}]}}),
        json!({"type": 4, "data": {"embeds": [{"title": "t".repeat(300)}]}}),
    ];
    for (i, body) in bad_bodies.iter().enumerate() {
        let before = t.fake.violations().len();
        let _ = http
            .create_interaction_response(id, &format!("tok{i}"), body, vec![])
            .await;
        assert!(
            t.fake.violations().len() > before,
            "body {i} was not flagged"
        );
    }
    // A correct body passes.
    let before = t.fake.violations().len();
    let good = json!({"type": 4, "data": {"content": "fine", "flags": 64, "allowed_mentions": {"parse": []}}});
    http.create_interaction_response(id, "tok-good", &good, vec![])
        .await
        .unwrap();
    assert_eq!(t.fake.violations().len(), before);
    tokio::time::sleep(Duration::from_millis(10)).await;
    t.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_expired_session_gets_its_buttons_disabled() {
    let mut opts = kismet::fake::table::TableOptions::new(crate::common::db_path("expiry"));
    opts.seed = Some(1);
    opts.config.sessions.sweep_seconds = 1;
    let t = kismet::fake::table::Table::start(opts).await.unwrap();
    let roll = t.command("alice", "/roll expression:1d6").await.unwrap();
    crate::common::expire_now(&t, 1).await;
    // The sweeper edits the message with its token: the Reroll button greys out.
    let id = roll.message_id.expect("the roll's message");
    let edited = crate::common::message_when(&t, id, |b| {
        b["components"][0]["components"][0]["disabled"] == json!(true)
    })
    .await;
    assert_eq!(
        edited.body["components"][0]["components"][0]["label"],
        "Reroll"
    );
    // A click on the old button is answered, and says why nothing happens.
    let ex = t
        .click_custom_id("alice", edited.id, "roll:1:0:reroll", None)
        .await
        .unwrap();
    assert!(ex.outputs.iter().any(|o| o.kind == "update"));
    assert!(
        ex.outputs
            .iter()
            .any(|o| o.kind == "ephemeral" && o.content().contains("no longer")),
        "{:?}",
        ex.outputs
    );
    assert_schema_clean(&t);
    t.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_slow_command_is_acknowledged_before_discords_deadline() {
    let t = table("slow-command", 1).await;
    let db = t.db().await.unwrap();
    // Another writer holds the database for 1.8 s: the roll waits for it.
    let lock = db.write().await.unwrap();
    let holder = tokio::spawn(async move {
        tokio::time::sleep(std::time::Duration::from_millis(1800)).await;
        drop(lock);
    });
    let seq0 = t.fake.last_seq();
    let ex = t.command("alice", "/roll expression:2d6").await.unwrap();
    holder.await.unwrap();
    let out = ex.single();
    assert_eq!(out.kind, "message");
    assert!(out.text().contains("2d6"), "{}", out.text());
    let reqs = t.fake.requests_since(seq0, |_| true);
    let callbacks: Vec<u64> = reqs
        .iter()
        .filter(|r| r.path.ends_with("/callback"))
        .filter_map(|r| r.body["type"].as_u64())
        .collect();
    // Acknowledged by the watchdog (a deferred message), then edited in.
    assert_eq!(callbacks, vec![5], "{callbacks:?}");
    assert!(reqs
        .iter()
        .any(|r| r.method == "PATCH" && r.path.ends_with("/messages/@original")));
    // The fake checks the 3-second rule and that there was one callback.
    assert_schema_clean(&t);
    t.stop().await;
}
