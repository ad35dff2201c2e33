//! Issue 31 item 4, "sheets in one go": one command with a list fills a
//! sheet (`/st sheet set traits:"Wits 3, Alertness 2"`), answers with one
//! line of what changed and writes one history entry; a list with one bad
//! entry saves nothing and names it with what is valid.

use crate::common::{table, Answer};
use kismet::fake::table::{Exchange, Table, GUILD_ID};
use kismet::rules::storyteller::{StorytellerSettings, StorytellerSheet};
use kismet::storage;

async fn run(t: &Table, who: &str, line: &str) -> Exchange {
    t.command(who, line)
        .await
        .unwrap_or_else(|e| panic!("{line}: {e}"))
}

/// A Storyteller character's sheet as stored.
async fn st_sheet(t: &Table, name: &str) -> StorytellerSheet {
    let db = t.db().await.unwrap();
    let mut tx = db.read().await.unwrap();
    let rows =
        storage::characters::by_name_any_owner(&mut tx, GUILD_ID as i64, "storyteller", name)
            .await
            .unwrap();
    assert_eq!(rows.len(), 1, "one character named {name}");
    serde_json::from_str(&rows[0].sheet).unwrap()
}

/// How many roll-log entries the guild has.
async fn logged(t: &Table) -> i64 {
    let db = t.db().await.unwrap();
    let mut tx = db.read().await.unwrap();
    storage::log::count(&mut tx, GUILD_ID as i64).await.unwrap()
}

/// A sheet's dots of `name`.
fn dots(s: &StorytellerSheet, name: &str) -> u8 {
    let catalog = StorytellerSettings::default().catalog();
    s.lookup(&catalog, name).unwrap().1
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn st_one_command_sets_a_whole_list_in_one_line() {
    let t = table("one-go-st", 1).await;
    let mut interactions = 0;
    run(&t, "alice", "/st sheet create name:Bo willpower:5").await;
    interactions += 1;
    let before = logged(&t).await;
    let ex = run(
        &t,
        "alice",
        "/st sheet set traits:\"Wits 3, alert 2, Firearms 1, Strength 1\"",
    )
    .await;
    interactions += 1;
    let out = ex.only();
    assert_eq!(out.kind, "ephemeral");
    // Strength was already 1: only what changed is named.
    assert_eq!(
        out.text(),
        "Bo: Wits 1 → 3, Alertness 0 → 2, Firearms 0 → 1"
    );
    let s = st_sheet(&t, "Bo").await;
    assert_eq!(
        (
            dots(&s, "Wits"),
            dots(&s, "Alertness"),
            dots(&s, "Firearms")
        ),
        (3, 2, 1)
    );
    assert_eq!(logged(&t).await, before + 1, "one history entry");
    // The whole sheet: one command to create, one to fill.
    assert_eq!(interactions, 2);

    // The single-entry form still works.
    let ex = run(&t, "alice", "/st sheet set trait:Wits dots:2").await;
    assert_eq!(ex.only().kind, "ephemeral");
    assert_eq!(dots(&st_sheet(&t, "Bo").await, "Wits"), 2);
    t.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn st_a_list_with_a_bad_entry_saves_nothing_and_names_it() {
    let t = table("one-go-st-bad", 1).await;
    run(&t, "alice", "/st sheet create name:Bo willpower:5").await;
    let before = logged(&t).await;
    let sheet = st_sheet(&t, "Bo").await;
    for (line, says) in [
        (
            "/st sheet set traits:\"Wits 3, Witts 2, Alertness 2\"",
            "`Witts 2`: There is no trait called `Witts`. Did you mean Wits?",
        ),
        (
            "/st sheet set traits:\"Xyzzy 2\"",
            "`Xyzzy 2`: There is no trait called `Xyzzy`. This sheet's traits, closest first: ",
        ),
        (
            "/st sheet set traits:\"Wits 3, Alertness 6\"",
            "`Alertness 6`: Alertness must be between 0 and 5 dots.",
        ),
        (
            "/st sheet set traits:\"Wits 3, wits 2\"",
            "`wits 2`: Wits is already in the list.",
        ),
        (
            "/st sheet set traits:\"Wits 3, Alertness\"",
            "`Alertness`: write a name then a number, like `Wits 3`.",
        ),
        (
            "/st sheet set traits:\"Strength 1\"",
            "Nothing to change: the sheet already has Strength 1.",
        ),
        (
            "/st sheet set traits:\"Wits 3\" trait:Wits dots:3",
            "Give `traits` (a list) or `trait` and `dots`, not both.",
        ),
        (
            "/st sheet set trait:Wits",
            "Give `trait` and `dots`, or a list in `traits`",
        ),
    ] {
        let ex = run(&t, "alice", line).await;
        let out = ex.only();
        assert_eq!(out.kind, "ephemeral", "{line}");
        assert!(
            out.text().contains(says),
            "{line}: expected `{says}` in {}",
            out.text()
        );
    }
    assert_eq!(st_sheet(&t, "Bo").await, sheet, "nothing saved");
    assert_eq!(logged(&t).await, before, "nothing logged");
    t.stop().await;
}

/// A Venus character's sheet as stored (JSON), if there is one.
async fn ve_sheet(t: &Table, name: &str) -> Option<serde_json::Value> {
    let db = t.db().await.unwrap();
    let mut tx = db.read().await.unwrap();
    let rows = storage::characters::by_name_any_owner(&mut tx, GUILD_ID as i64, "venus", name)
        .await
        .unwrap();
    rows.first()
        .map(|r| serde_json::from_str(&r.sheet).unwrap())
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn ve_create_takes_every_ability_in_one_line() {
    let t = table("one-go-ve", 1).await;
    let before = logged(&t).await;
    let ex = run(
        &t,
        "alice",
        "/ve sheet create name:Ash abilities:\"Finesse Gold 4, might si 3\"",
    )
    .await;
    let out = ex.only();
    assert_eq!(out.kind, "message");
    assert_eq!(
        out.text(),
        "📜 Ash joins the table with Finesse Gold 4, might Silver 3. Next: `/ve sheet job`."
    );
    let s = ve_sheet(&t, "Ash").await.expect("Ash is saved");
    assert_eq!(s["abilities"]["Finesse"]["score"], 4);
    assert_eq!(s["abilities"]["might"]["score"], 3);
    assert_eq!(logged(&t).await, before + 1, "one history entry");
    t.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn ve_create_with_a_bad_ability_saves_nothing_and_names_it() {
    let t = table("one-go-ve-bad", 1).await;
    let before = logged(&t).await;
    for (line, says) in [
        (
            "/ve sheet create name:Ash abilities:\"Finesse Gold 4, Might Copper 3\"",
            "Nothing saved. `Might Copper 3`: `copper` is not a rank: use bronze, silver, gold or platinum.",
        ),
        (
            "/ve sheet create name:Ash abilities:\"Finesse 45\"",
            "Nothing saved. `Finesse 45`: give a rank before the score, like `Finesse Gold 45`.",
        ),
        (
            "/ve sheet create name:Ash abilities:\"Finesse Gold 4, finesse Br 2\"",
            "Nothing saved. `finesse Br 2`: Finesse is already in the list.",
        ),
        (
            "/ve sheet create name:Ash abilities:\"Finesse Gold 11\"",
            "Nothing saved. `Finesse Gold 11`: An ability score can be at most 10 in this guild.",
        ),
    ] {
        let ex = run(&t, "alice", line).await;
        let out = ex.only();
        assert_eq!(out.kind, "ephemeral", "{line}");
        assert!(
            out.text().contains(says),
            "{line}: expected `{says}` in {}",
            out.text()
        );
    }
    assert!(ve_sheet(&t, "Ash").await.is_none(), "nothing saved");
    assert_eq!(logged(&t).await, before, "nothing logged");
    t.stop().await;
}
