//! Every die a system throws reaches `/stats` once, with its natural face:
//! Veracity (saves, Facet dice, Stress), Storyteller (base and bonus d10s),
//! Virtual Veil (pools, boot caches, orders, Fault dice).

use crate::common::{assert_schema_clean, table};
use kismet::fake::table::{Exchange, Table, GUILD_ID};

async fn run(t: &Table, who: &str, line: &str) -> Exchange {
    t.command(who, line)
        .await
        .unwrap_or_else(|e| panic!("{line}: {e}"))
}

/// The `/stats` summary line of a member (or `server:true`).
async fn stats(t: &Table, who: &str, line: &str) -> String {
    let ex = run(t, who, line).await;
    ex.single().text()
}

/// Dice recorded for the guild, from the database: (sides, count).
async fn tally(t: &Table) -> Vec<(u32, u64)> {
    let db = t.db().await.unwrap();
    let mut tx = db.read().await.unwrap();
    let mut out: Vec<(u32, u64)> = Vec::new();
    for f in kismet::storage::faces::tally(&mut tx, GUILD_ID as i64, None)
        .await
        .unwrap()
    {
        match out.last_mut() {
            Some((s, n)) if *s == f.sides => *n += f.n,
            _ => out.push((f.sides, f.n)),
        }
    }
    out
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn stats_count_veracity_saves_facet_dice_and_stress_dice() {
    let t = table("faces-vr", 4).await;
    run(
        &t,
        "alice",
        "/vr sheet create name:Ada light:6 flesh:6 facet:Cruel",
    )
    .await;
    let ex = run(&t, "alice", "/vr save inventory:light facet:Cruel").await;
    assert_eq!(ex.single().kind, "message");
    run(&t, "alice", "/vr stress amount:2d4").await;
    run(&t, "alice", "/vr stress amount:1").await; // no dice
    assert_eq!(tally(&t).await, vec![(4, 2), (6, 1), (20, 1)]);
    let text = stats(&t, "alice", "/stats").await;
    assert!(text.contains("**4** dice recorded (d4, d6, d20)"), "{text}");
    assert_schema_clean(&t);
    t.stop().await;
}

/// The base and bonus dice a Storyteller roll shows on its first line
/// (`**10**★ 9 4 · bonus **10**★ 3 → 5`, issue 16's look).
fn shown(out: &kismet::fake::table::Output) -> (u64, u64) {
    let d = out.embeds()[0]["description"]
        .as_str()
        .unwrap_or("")
        .to_string();
    let line = d.lines().next().unwrap_or("");
    let faces = |part: &str| {
        part.split(' ')
            .filter(|f| f.chars().any(|c| c.is_ascii_digit()))
            .count() as u64
    };
    match line.split_once(" · bonus ") {
        Some((base, bonus)) => (faces(base), faces(bonus)),
        None => (faces(line), 0),
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn stats_count_storyteller_base_and_bonus_dice() {
    let t = table("faces-st", 2).await;
    run(&t, "alice", "/st pool dice:7").await;
    let text = stats(&t, "alice", "/stats").await;
    assert!(text.contains("**7** dice recorded (d10)"), "{text}");
    // Specialties: every 10 adds bonus dice, each counted once.
    let mut expected = 7u64;
    let mut bonus_seen = 0;
    for _ in 0..6 {
        let ex = run(&t, "alice", "/st pool dice:10 specialties:5").await;
        let (base, bonus) = shown(ex.single());
        assert_eq!(base, 10);
        bonus_seen += bonus;
        expected += base + bonus;
    }
    assert!(bonus_seen > 0, "some 10s should have added bonus dice");
    // A willpower roll, and its Keep click that throws nothing.
    run(&t, "alice", "/st sheet create name:Ann willpower:4").await;
    let ex = run(&t, "alice", "/st willpower").await;
    let (base, bonus) = shown(ex.single());
    expected += base + bonus;
    let _ = t.click("alice", "Keep").await; // offered unless it botched
    assert_eq!(tally(&t).await, vec![(10, expected)]);
    let text = stats(&t, "alice", "/stats").await;
    assert!(
        text.contains(&format!("**{expected}** dice recorded (d10)")),
        "{text}"
    );
    assert_schema_clean(&t);
    t.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn stats_count_virtual_veil_pools_boots_orders_and_fault_dice() {
    let t = table("faces-vv", 6).await;
    run(
        &t,
        "alice",
        "/vv sheet create name:Ann agility:4 wit:6 vitality:5 confidence:4 cyber:3",
    )
    .await;
    run(
        &t,
        "alice",
        "/vv sheet comp cache_size:3 battery_max:5 battery:5 distribution:Lumen",
    )
    .await;
    run(&t, "alice", "/vv boot").await;
    assert_eq!(tally(&t).await, vec![(10, 3)]);
    // A number of dice is the Compiler's override: free at this table.
    run(&t, "fc", "/fc set name:player_edits value:free").await;
    run(&t, "alice", "/vv roll dice:5").await;
    t.click("alice", "Close").await.unwrap(); // closing throws nothing
    let text = stats(&t, "alice", "/stats").await;
    assert!(text.contains("**8** dice recorded (d10)"), "{text}");
    // The FC's order (Wit 6) and a Fault die from damage count for the FC.
    run(&t, "fc", "/vv-gm order kind:Outthink entities:Ann").await;
    run(&t, "fc", "/vv damage target:Vitality amount:2 player:alice").await;
    let text = stats(&t, "fc", "/stats").await;
    assert!(text.contains("**7** dice recorded (d10)"), "{text}");
    assert_eq!(tally(&t).await, vec![(10, 15)]);
    assert_schema_clean(&t);
    t.stop().await;
}
