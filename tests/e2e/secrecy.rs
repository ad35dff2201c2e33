//! Secrecy of issue 29: a click is answered only after who may see the
//! roll is checked (stale clicks included); `/stats` that counts secret
//! dice answers privately; `/fc undo` lists changes made by secret rolls
//! privately; `/history` numbers only what its reader may see.

use crate::common::{assert_schema_clean, session_of_button, table};
use kismet::app::component::to_base36;
use kismet::fake::table::{Exchange, Output, Table};

async fn run(t: &Table, who: &str, line: &str) -> Exchange {
    t.command(who, line)
        .await
        .unwrap_or_else(|e| panic!("{line}: {e}"))
}

/// A table whose FC has set a GM channel, so secret rolls may be made.
async fn secret_table(tag: &str, seed: u64) -> Table {
    let t = table(tag, seed).await;
    run(&t, "fc", "/fc gm-channel channel:#gm").await;
    t
}

/// The one answer of an exchange, of kind `kind`.
fn answer<'a>(ex: &'a Exchange, kind: &str, what: &str) -> &'a Output {
    let out = ex.single();
    assert_eq!(out.kind, kind, "{what}: {}", out.text());
    out
}

/// The numbers the entry lines of a `/history` page start with (`#N`),
/// newest first.
fn numbers(out: &Output) -> Vec<u32> {
    out.embeds()[0]["description"]
        .as_str()
        .unwrap_or("")
        .lines()
        .filter_map(|l| l.strip_prefix("`#"))
        .filter_map(|l| l.split('`').next()?.parse().ok())
        .collect()
}

/// Item 16: a click on another member's secret roll, stale or not, is
/// answered as one on a roll that never was: neither the roll's current
/// state nor its roller's name reaches the clicker. The roller's and the
/// FC's stale clicks still show it as it stands.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn clicks_on_another_members_secret_roll_show_nothing_of_it() {
    let t = secret_table("secrecy-click", 7).await;
    let ex = run(&t, "alice", "/roll expression:2d6 secret:true").await;
    let mine = ex.of_kind("ephemeral").expect("alice's private copy");
    let id = to_base36(session_of_button(mine, "Reroll"));
    t.click("alice", "Reroll").await.unwrap();
    // Bob's own public roll: a message of his to send forged clicks from.
    run(&t, "bob", "/roll expression:1d6").await;
    let msg = t.last_message_for("bob").unwrap().id;
    for version in [0, 1] {
        let forged = format!("roll:{id}:{version}:reroll");
        let ex = t.click_custom_id("bob", msg, &forged, None).await.unwrap();
        let out = answer(&ex, "ephemeral", &forged);
        assert_eq!(out.text(), "⚠️ That roll no longer exists (or never did).");
    }
    // The roller's and the FC's stale clicks show the roll as it stands.
    for who in ["alice", "fc"] {
        let ex = t
            .click_custom_id(who, msg, &format!("roll:{id}:0:reroll"), None)
            .await
            .unwrap();
        let out = ex.of_kind("update").expect("the current state");
        assert!(out.text().contains("Rerolled 1 time(s)"), "{}", out.text());
    }
    assert_schema_clean(&t);
    t.stop().await;
}

/// Item 16: the FC's `/history` list shows secret entries; a stale click
/// on its pager from a player is refused and shows none of it.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_stale_click_on_the_fcs_history_list_shows_a_player_nothing() {
    let t = secret_table("secrecy-pager", 7).await;
    run(&t, "alice", "/roll expression:9d9 secret:true").await;
    for _ in 0..11 {
        run(&t, "alice", "/roll expression:1d6").await;
    }
    let ex = run(&t, "fc", "/history show user:alice").await;
    let list = answer(&ex, "ephemeral", "the FC's list");
    let next = list
        .buttons()
        .into_iter()
        .find(|b| b.0 == "Next")
        .expect("a Next button")
        .1;
    // The FC turns the page (the list moves to version 1) and sees the
    // secret roll there.
    let ex = t
        .click_custom_id("fc", t.last_message_for("fc").unwrap().id, &next, None)
        .await
        .unwrap();
    assert!(ex.single().text().contains("9d9"), "{}", ex.single().text());
    // Bob forges the old Next: refused, nothing of the list shown.
    run(&t, "bob", "/roll expression:1d6").await;
    let msg = t.last_message_for("bob").unwrap().id;
    let ex = t.click_custom_id("bob", msg, &next, None).await.unwrap();
    let out = answer(&ex, "ephemeral", "bob's stale click");
    assert!(
        out.text()
            .contains("This list belongs to whoever asked for it"),
        "{}",
        out.text()
    );
    assert!(!out.text().contains("9d9"), "{}", out.text());
    assert_schema_clean(&t);
    t.stop().await;
}

/// Item 14: `/stats` answers privately whenever secret dice are in its
/// counts (the roller's own, or everyone's for the FC), publicly otherwise.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn stats_with_secret_dice_in_them_answer_privately() {
    let t = secret_table("secrecy-stats", 7).await;
    run(&t, "alice", "/roll expression:3d6 secret:true").await;
    run(&t, "alice", "/roll expression:2d6").await;
    let ex = run(&t, "alice", "/stats").await;
    let out = answer(&ex, "ephemeral", "alice's own stats");
    assert!(
        out.text().contains("**5** dice recorded (d6)"),
        "{}",
        out.text()
    );
    let ex = run(&t, "fc", "/stats user:alice").await;
    let out = answer(&ex, "ephemeral", "the FC's stats of alice");
    assert!(
        out.text().contains("**5** dice recorded (d6)"),
        "{}",
        out.text()
    );
    let ex = run(&t, "fc", "/stats server:true die:6").await;
    answer(&ex, "ephemeral", "the FC's server stats");
    // What every member may see stays public.
    let ex = run(&t, "bob", "/stats user:alice").await;
    let out = answer(&ex, "message", "bob's stats of alice");
    assert!(
        out.text().contains("**2** dice recorded (d6)"),
        "{}",
        out.text()
    );
    let ex = run(&t, "bob", "/stats server:true").await;
    answer(&ex, "message", "bob's server stats");
    // No secret die of that size: nothing secret is counted.
    run(&t, "alice", "/roll expression:1d20").await;
    let ex = run(&t, "alice", "/stats die:20").await;
    let out = answer(&ex, "message", "alice's d20 stats");
    assert!(
        out.text().contains("**1** dice recorded (d20)"),
        "{}",
        out.text()
    );
    assert_schema_clean(&t);
    t.stop().await;
}

/// Item 15: `/fc undo` lists a change made by a secret roll privately, and
/// the undo of it is logged secret; a character with only public changes
/// gets the public list as before.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn undo_lists_changes_of_secret_rolls_privately() {
    let t = secret_table("secrecy-undo", 3).await;
    run(&t, "alice", "/st sheet create name:Ann willpower:5").await;
    run(&t, "bob", "/st sheet create name:Bo willpower:5").await;
    // Difficulty 9: fewer successes than buying gives, so it is offered.
    run(&t, "alice", "/st willpower difficulty:9 secret:true").await;
    let ex = t.click("alice", "Spend willpower").await.unwrap();
    assert!(ex.of_kind("update").is_some(), "{:?}", ex.outputs);
    let ex = run(&t, "fc", "/fc undo character:Ann").await;
    let out = answer(&ex, "ephemeral", "the undo list of Ann");
    assert!(
        out.text().contains("spend: Willpower 5 → 4"),
        "{}",
        out.text()
    );
    let ex = t.click("fc", "Undo").await.unwrap();
    let done = ex.of_kind("update").expect("the result");
    assert!(done.text().contains("Undone on **Ann**"), "{}", done.text());
    // What the undo put back is not for the table either.
    let ex = run(&t, "bob", "/history show user:fc").await;
    let text = ex.single().text();
    assert!(!text.contains("undo"), "{text}");
    let ex = run(&t, "fc", "/history show user:fc").await;
    assert!(
        ex.single().text().contains("secret undo"),
        "{}",
        ex.single().text()
    );
    // Bo's public change is listed publicly.
    run(&t, "bob", "/st willpower difficulty:9").await;
    t.click("bob", "Spend willpower").await.unwrap();
    let ex = run(&t, "fc", "/fc undo character:Bo").await;
    answer(&ex, "message", "the undo list of Bo");
    assert_schema_clean(&t);
    t.stop().await;
}

/// Item 17: `/history` numbers the entries each reader may see, with no
/// gap where another member's secret entry lies; the FC's numbers count
/// every entry.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn history_numbers_leave_no_gap_where_a_secret_entry_lies() {
    let t = secret_table("secrecy-numbers", 7).await;
    run(&t, "alice", "/roll expression:1d6").await;
    run(&t, "alice", "/roll expression:2d6 secret:true").await;
    run(&t, "alice", "/roll expression:3d6").await;
    let ex = run(&t, "bob", "/history show user:alice").await;
    let bob = numbers(ex.single());
    let ex = run(&t, "alice", "/history show").await;
    let alice = numbers(ex.single());
    let ex = run(&t, "fc", "/history show user:alice").await;
    let fc = numbers(ex.single());
    assert_eq!(fc.len(), 3, "{}", ex.single().text());
    assert_eq!(alice, fc);
    assert_eq!(
        fc.windows(2).map(|w| w[0] - w[1]).collect::<Vec<_>>(),
        [1, 1]
    );
    // Bob sees two entries, numbered one after the other.
    assert_eq!(bob, vec![fc[0] - 1, fc[2]]);
    assert_schema_clean(&t);
    t.stop().await;
}

/// Item 17: a Storyteller roll's "Roll #N" counts the rolls its readers
/// may see: a public roll among the public ones, a secret roll among its
/// roller's own secret ones; no gap tells when a secret roll was made.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn roll_numbers_leave_no_gap_where_a_secret_roll_lies() {
    let t = secret_table("secrecy-roll-numbers", 7).await;
    run(&t, "alice", "/st sheet create name:Ann willpower:5").await;
    run(&t, "bob", "/st sheet create name:Bo willpower:5").await;
    let footer = |ex: &Exchange, kind: &str| {
        let out = ex.of_kind(kind).unwrap_or_else(|| panic!("no {kind}"));
        out.embeds()[0]["footer"]["text"]
            .as_str()
            .unwrap_or_default()
            .to_string()
    };
    let ex = run(&t, "alice", "/st pool dice:4").await;
    assert!(
        footer(&ex, "message").contains("Roll #1."),
        "{}",
        footer(&ex, "message")
    );
    let ex = run(&t, "alice", "/st pool dice:4 secret:true").await;
    let secret = footer(&ex, "ephemeral");
    assert!(secret.contains("Roll #1."), "{secret}");
    assert_eq!(secret, footer(&ex, "channel"));
    let ex = run(&t, "bob", "/st pool dice:3").await;
    assert!(
        footer(&ex, "message").contains("Roll #2."),
        "{}",
        footer(&ex, "message")
    );
    assert_schema_clean(&t);
    t.stop().await;
}

/// Item 17: a Venus check's "check #N" and a task's "task #N" count the
/// rolls their readers may see, as Storyteller's "Roll #N" does: after
/// alice's secret check, bob's public check follows alice's public one
/// with no gap; the secret check is its roller's first secret one. The FC's
/// `roll:#N` means the number the FC reads.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn venus_roll_numbers_leave_no_gap_where_a_secret_roll_lies() {
    let t = secret_table("secrecy-venus-numbers", 7).await;
    for line in [
        "/ve sheet create name:Ada",
        "/ve sheet ability name:Finesse rank:silver score:4",
    ] {
        run(&t, "alice", line).await;
    }
    for line in [
        "/ve sheet create name:Bo",
        "/ve sheet ability name:Finesse rank:bronze score:2",
        "/ve sheet job name:Acrobat inherits:Finesse level:2 exp:3",
    ] {
        run(&t, "bob", line).await;
    }
    let footer = |ex: &Exchange, kind: &str| {
        let out = ex.of_kind(kind).unwrap_or_else(|| panic!("no {kind}"));
        out.embeds()[0]["footer"]["text"]
            .as_str()
            .unwrap_or_default()
            .to_string()
    };
    // A check the FC calls stays open until its d20 is thrown (a player's
    // own check throws it at once); a plain roll takes the natural 1 the
    // seed has next, so alice's secret check below falls short and stays
    // open too.
    let ex = run(
        &t,
        "fc",
        "/ve-gm fc call player:alice kind:check ability:Finesse difficulty:20",
    )
    .await;
    let first = footer(&ex, "message");
    assert!(first.ends_with("check #1"), "{first}");
    run(&t, "alice", "/roll expression:1d20").await;
    let ex = run(
        &t,
        "alice",
        "/ve check ability:Finesse difficulty:20 secret:true",
    )
    .await;
    let secret = footer(&ex, "ephemeral");
    assert!(secret.ends_with("check #1"), "{secret}");
    assert_eq!(secret, footer(&ex, "channel"));
    // A check the FC calls stays open until bob throws its d20.
    let ex = run(
        &t,
        "fc",
        "/ve-gm fc call player:bob kind:check ability:Finesse difficulty:20",
    )
    .await;
    let second = footer(&ex, "message");
    assert!(second.ends_with("check #2"), "{second}");
    let ex = run(&t, "bob", "/ve task ability:Finesse difficulty:2").await;
    let task = footer(&ex, "message");
    assert!(task.ends_with("task #3"), "{task}");
    // The FC's `roll:#2` is bob's check (the session id 2 is alice's
    // secret one), and the redrawn check keeps its number.
    let ex = run(&t, "fc", "/ve-gm fc void roll:#2").await;
    let voided = ex.of_kind("update").expect("bob's check redrawn");
    assert!(voided.text().contains("Bo"), "{}", voided.text());
    assert!(
        footer(&ex, "update").ends_with("check #2"),
        "{}",
        footer(&ex, "update")
    );
    // Two open rolls read "#1" to the FC: a typed `#1` is refused, and
    // nothing changes.
    let ex = run(&t, "fc", "/ve-gm fc void roll:#1").await;
    let refused = answer(&ex, "ephemeral", "an ambiguous #1");
    assert!(
        refused.text().contains("pick one from the list"),
        "{}",
        refused.text()
    );
    // The list names each: voiding alice's secret check (newer than her
    // public one) leaves `#1` naming her public check alone.
    let choices = t
        .autocomplete("fc", "/ve-gm fc void roll:", "roll")
        .await
        .unwrap();
    let names: Vec<&str> = choices.iter().filter_map(|c| c["name"].as_str()).collect();
    assert_eq!(names.len(), 3, "{names:?}");
    assert!(names[1].starts_with("Ada · Finesse check"), "{names:?}");
    let secret = choices[1]["value"].as_str().unwrap().to_string();
    run(&t, "fc", &format!("/ve-gm fc void roll:{secret}")).await;
    let ex = run(&t, "fc", "/ve-gm fc void roll:#1").await;
    let voided = ex.of_kind("update").expect("alice's public check redrawn");
    assert!(voided.text().contains("Ada"), "{}", voided.text());
    assert_eq!(footer(&ex, "update"), first);
    assert_schema_clean(&t);
    t.stop().await;
}
