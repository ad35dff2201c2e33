//! A member's data is theirs (issue 33): `/me export` hands it over as a
//! private JSON file, `/me forget` erases it (after **Delete**; **Keep**
//! changes nothing), `/fc forget` does the same for the game master by
//! mention or id, and the CSV export adds nothing back. Each erasure is
//! checked by scanning every column of every table of the database
//! (`storage::scratch::every_value`), on SQLite and, with
//! `KISMET_TEST_POSTGRES`, on PostgreSQL.

use crate::common::{assert_schema_clean, table};
use kismet::fake::table::{Exchange, Table, GUILD_ID};
use kismet::storage::erase::{self, MemberData};
use kismet::storage::scratch::{every_value, Cell};

/// Two members play every system; alice types the texts of [`ALICE_TYPED`].
/// The game master damages her Virtual Veil character and approves a
/// roll request of hers and of bob's; her Veracity Secret is revealed.
const PLAY: &[&str] = &[
    // Approval, so her changes also leave requests for the FC (issue 31
    // made `free` the default).
    "fc: /fc set name:player_edits value:approval",
    "alice: /roll expression:8d6 save:Quxfireball",
    "alice: /roll name:Quxfireball",
    "alice: /roll expression:2d6",
    "bob: /roll expression:3d6",
    "bob: /roll expression:1d20 save:Bobsave",
    "alice: /ve sheet create name:Quxvenusa",
    "alice: /ve sheet note kind:Asset text:\"Quxnote avenge the lighthouse\"",
    "bob: /ve sheet create name:Bobvenus",
    "alice: /vr sheet create name:Quxveracity light:6 flesh:6 facet:\"Quxfacet sharp tongue\"",
    "alice: /vr item add kind:secret text:\"Quxsecret the duke is a fraud\"",
    "alice: /vr item add kind:means text:\"Quxmeans silver key\"",
    "bob: /vr sheet create name:Bobveracity light:6 flesh:6 facet:Bobfacet",
    "alice: /vr reveal target:\"Quxnpc baron\" secrets:1 gain:light note:Quxrevealnote",
    "fc: tool Confirm — shocked",
    "alice: /st sheet create name:Quxstory willpower:5",
    "alice: /st sheet set trait:Alertness dots:2",
    "alice: /st sheet specialty ability:Alertness name:\"Quxspecialty rooftops\"",
    "alice: /st roll traits:\"Wits + Alertness\"",
    "bob: /st sheet create name:Bobstory willpower:5",
    "alice: /vv sheet create name:Quxveil wit:3",
    "alice: /vv roll label:\"Quxlabel hack the gate\" dice:5",
    "alice: /vv damage target:Vitality amount:1",
    "fc: tool Approve",
    "fc: /vv damage target:Vitality amount:2 player:alice",
    "bob: /vv sheet create name:Bobveil wit:3",
    "bob: /vv roll label:Boblabel dice:4",
];

/// Every distinct text alice typed (and her name).
const ALICE_TYPED: &[&str] = &[
    "Quxfireball",
    "Quxvenusa",
    "Quxnote avenge the lighthouse",
    "Quxveracity",
    "Quxfacet sharp tongue",
    "Quxsecret the duke is a fraud",
    "Quxmeans silver key",
    "Quxnpc baron",
    "Quxrevealnote",
    "Quxstory",
    "Quxspecialty rooftops",
    "Quxveil",
    "Quxlabel hack the gate",
    "alice",
];

async fn play(t: &Table, lines: &[&str]) {
    for line in lines {
        t.run_line(line)
            .await
            .unwrap_or_else(|e| panic!("`{line}`: {e}"));
    }
}

async fn data_of(t: &Table, who: &str) -> MemberData {
    let db = t.db().await.expect("a database");
    let mut tx = db.read().await.unwrap();
    erase::member_data(&mut tx, GUILD_ID as i64, Table::user_id(who) as i64)
        .await
        .unwrap()
}

async fn cells(t: &Table) -> Vec<Cell> {
    every_value(&t.db().await.expect("a database"))
        .await
        .unwrap()
}

/// The cells holding alice's id or anything she typed (case-insensitive).
fn traces_of_alice(cells: &[Cell]) -> Vec<&Cell> {
    let id = Table::user_id("alice").to_string();
    cells
        .iter()
        .filter(|c| {
            let v = c.value.to_lowercase();
            v.contains(&id)
                || v.contains("qux")
                || ALICE_TYPED.iter().any(|s| v.contains(&s.to_lowercase()))
        })
        .collect()
}

fn count(cells: &[Cell], table: &str, column: &str) -> usize {
    cells
        .iter()
        .filter(|c| c.table == table && c.column == column)
        .count()
}

fn sum(cells: &[Cell], table: &str, column: &str) -> i64 {
    cells
        .iter()
        .filter(|c| c.table == table && c.column == column)
        .map(|c| c.value.parse::<i64>().unwrap())
        .sum()
}

fn ephemeral(ex: &Exchange) -> &kismet::fake::table::Output {
    let out = ex.single();
    assert_eq!(out.kind, "ephemeral", "{out:?}");
    out
}

/// The acceptance test: after `/me forget` → Delete no value of any table
/// holds alice's id or a text she typed; bob's characters, histories,
/// saved roll and log entries are exactly as they were; every roll stays
/// counted (the log's rows and the faces behind `/stats`), and the log
/// says "a member's data was erased" by nobody.
#[tokio::test]
async fn forgetting_erases_every_trace_and_leaves_the_others_alone() {
    let t = table("forget-all", 7).await;
    play(&t, PLAY).await;
    // A fight runs with her character seated as the leader.
    play(
        &t,
        &[
            "fc: /vr-gm combat start leader:Quxveracity",
            "bob: click Join the fight",
            // She plays in a game, and game-masters it (issue 32).
            "fc in #saga: /game-gm create name:Saga system:Veracity",
            "fc in #saga: /game-gm gm add member:@alice",
            "alice in #saga: /game character:Quxveracity",
        ],
    )
    .await;
    let before = cells(&t).await;
    assert!(
        traces_of_alice(&before).len() > 20,
        "the scenario leaves traces"
    );
    let bob = data_of(&t, "bob").await;
    assert_eq!(bob.characters.len(), 4);
    assert_eq!(bob.named_rolls.len(), 1);
    assert_eq!(data_of(&t, "alice").await.characters.len(), 4);

    let ask = t.command("alice", "/me forget").await.unwrap();
    let out = ephemeral(&ask);
    assert!(
        out.text().contains("4 character(s), 1 saved roll(s)"),
        "{}",
        out.text()
    );
    let done = t.click("alice", "Delete").await.unwrap();
    assert!(
        done.single().text().contains("was erased"),
        "{}",
        done.single().text()
    );
    assert!(done.single().buttons().is_empty());

    let after = cells(&t).await;
    let left: Vec<String> = traces_of_alice(&after)
        .iter()
        .map(|c| format!("{}.{} = {}", c.table, c.column, c.value))
        .collect();
    assert!(
        left.is_empty(),
        "alice's data is left:\n{}",
        left.join("\n")
    );
    assert_eq!(data_of(&t, "bob").await, bob, "bob's data is untouched");
    let alice = data_of(&t, "alice").await;
    assert_eq!(alice, MemberData::default());
    assert_eq!(
        count(&after, "roll_log", "id"),
        count(&before, "roll_log", "id") + 1,
        "every entry stays, and the erasure is logged"
    );
    assert_eq!(
        sum(&after, "roll_faces", "n"),
        sum(&before, "roll_faces", "n")
    );
    let db = t.db().await.unwrap();
    let mut tx = db.read().await.unwrap();
    let erased: Vec<(i64, String)> =
        sqlx::query_as("SELECT user_id, outcome FROM roll_log WHERE action = 'erase'")
            .fetch_all(&mut *tx)
            .await
            .unwrap();
    assert_eq!(
        erased,
        vec![(0, r#"{"text":"a member's data was erased"}"#.to_string())]
    );
    let anonymous: i64 = sqlx::query_scalar("SELECT COUNT(*) FROM roll_log WHERE user_id = 0")
        .fetch_one(&mut *tx)
        .await
        .unwrap();
    assert_eq!(
        anonymous, 16,
        "her 15 entries (one joins a game, one rolls the roll she saves) and the erasure's"
    );
    drop(tx);

    // The fight runs on without her name, and ends.
    let ended = t.tool("fc", "End the fight").await.unwrap();
    assert!(
        ended.outputs.iter().any(|o| o.text().contains("(erased)")),
        "{:#?}",
        ended.outputs
    );
    assert!(traces_of_alice(&cells(&t).await).is_empty());

    // She can start again, from nothing.
    let again = t.command("alice", "/me forget").await.unwrap();
    assert!(ephemeral(&again)
        .text()
        .contains("I hold nothing about you"));
    assert_schema_clean(&t);
}

/// `/me export`: a private JSON file with her characters (sheets and
/// histories), her saved roll and every log entry she made, and nothing
/// of bob's.
#[tokio::test]
async fn export_hands_over_her_data_and_nothing_else() {
    let t = table("forget-export", 7).await;
    play(&t, PLAY).await;
    let ex = t.command("alice", "/me export").await.unwrap();
    let out = ex
        .outputs
        .iter()
        .find(|o| !o.files.is_empty())
        .unwrap_or_else(|| panic!("no file in {:#?}", ex.outputs));
    assert_eq!(out.files.len(), 1);
    let (name, bytes) = &out.files[0];
    assert_eq!(name, "kismet-my-data.json");
    assert_eq!(out.kind, "ephemeral", "private");
    let doc: serde_json::Value = serde_json::from_slice(bytes).unwrap();
    assert_eq!(doc["format"], "kismet-member-data");
    assert_eq!(doc["version"], 1);
    assert_eq!(doc["user_id"], Table::user_id("alice").to_string());
    let mut names: Vec<&str> = doc["characters"]
        .as_array()
        .unwrap()
        .iter()
        .map(|c| c["name"].as_str().unwrap())
        .collect();
    names.sort_unstable();
    assert_eq!(names, ["Quxstory", "Quxveil", "Quxvenusa", "Quxveracity"]);
    let vr = doc["characters"]
        .as_array()
        .unwrap()
        .iter()
        .find(|c| c["system"] == "veracity")
        .unwrap();
    assert!(vr["sheet"]
        .to_string()
        .contains("Quxsecret the duke is a fraud"));
    assert_eq!(
        vr["history"].as_array().unwrap().len(),
        3,
        "two items added, one revelation"
    );
    assert_eq!(
        doc["named_rolls"],
        serde_json::json!([{"name": "Quxfireball", "expression": "8d6"}])
    );
    // Her entries: `/roll expression: save:` rolls the roll it saves.
    let mine = data_of(&t, "alice").await.log.len();
    assert_eq!(mine, 14);
    assert_eq!(doc["log"].as_array().unwrap().len(), mine);
    let text = String::from_utf8_lossy(bytes).to_lowercase();
    assert!(text.contains("quxmeans silver key"));
    assert!(!text.contains("bob"), "bob's data is not hers");
    assert!(!text.contains(&Table::user_id("bob").to_string()));
    assert_schema_clean(&t);
}

/// `/me forget` → Keep changes nothing: every value of every table but
/// the question's own session is as it was.
#[tokio::test]
async fn keep_changes_nothing() {
    let t = table("forget-keep", 7).await;
    play(&t, PLAY).await;
    let without_sessions = |cells: Vec<Cell>| -> Vec<Cell> {
        cells
            .into_iter()
            .filter(|c| c.table != "sessions")
            .collect()
    };
    let before = cells(&t).await;
    let ask = t.command("alice", "/me forget").await.unwrap();
    ephemeral(&ask);
    let kept = t.click("alice", "Keep").await.unwrap();
    assert!(kept.single().text().contains("nothing was erased"));
    let after = cells(&t).await;
    assert_eq!(
        count(&after, "sessions", "id"),
        count(&before, "sessions", "id") + 1
    );
    assert_eq!(without_sessions(after), without_sessions(before));
    assert_eq!(data_of(&t, "alice").await.characters.len(), 4);
    assert_schema_clean(&t);
}

/// `/fc forget user_id:` (a member who left): refused privately to a
/// player and for an id that is not one, changing nothing; the game
/// master's Delete erases the member as `/me forget` does, logged as the
/// game master's action naming nobody else.
#[tokio::test]
async fn the_game_master_forgets_a_departed_member_by_id() {
    let t = table("forget-fc", 7).await;
    play(&t, PLAY).await;
    let alice = Table::user_id("alice");
    let before = cells(&t).await;
    let refused = t
        .command("bob", &format!("/fc forget user_id:{alice}"))
        .await
        .unwrap();
    assert!(ephemeral(&refused).text().contains("Only the FC can erase"));
    for bad in ["abc", "-4", "0", "12345678901234567890123"] {
        let r = t
            .command("fc", &format!("/fc forget user_id:{bad}"))
            .await
            .unwrap();
        assert!(
            ephemeral(&r).text().contains("takes a member's id"),
            "{bad}"
        );
    }
    let both = t
        .command("fc", &format!("/fc forget member:@alice user_id:{alice}"))
        .await
        .unwrap();
    assert!(ephemeral(&both).text().contains("not both"));
    assert_eq!(cells(&t).await, before, "refusals change nothing");

    let ask = t
        .command("fc", &format!("/fc forget user_id:{alice}"))
        .await
        .unwrap();
    let asked = ephemeral(&ask).text();
    assert!(asked.contains("4 character(s)"), "{asked}");
    assert!(t.click("bob", "Delete").await.is_err(), "bob cannot see it");
    t.click("fc", "Delete").await.unwrap();
    let left: Vec<String> = traces_of_alice(&cells(&t).await)
        .iter()
        .map(|c| format!("{}.{} = {}", c.table, c.column, c.value))
        .collect();
    assert!(
        left.is_empty(),
        "alice's data is left:\n{}",
        left.join("\n")
    );
    assert_eq!(data_of(&t, "bob").await.characters.len(), 4);
    let db = t.db().await.unwrap();
    let mut tx = db.read().await.unwrap();
    let by: Vec<i64> = sqlx::query_scalar("SELECT user_id FROM roll_log WHERE action = 'erase'")
        .fetch_all(&mut *tx)
        .await
        .unwrap();
    assert_eq!(by, vec![Table::user_id("fc") as i64]);
    drop(tx);

    // By mention, for a member still here: Keep leaves bob as he was.
    let bob = data_of(&t, "bob").await;
    let ask = t.command("fc", "/fc forget member:@bob").await.unwrap();
    let asked = ephemeral(&ask).text();
    assert!(asked.contains("4 character(s), 1 saved roll(s)"), "{asked}");
    t.click("fc", "Keep").await.unwrap();
    assert_eq!(data_of(&t, "bob").await, bob);
    assert_schema_clean(&t);
}

/// The FC's CSV export after an erasure: no trace of the erased member
/// (her entries are there, anonymous: user 0), bob's entries as they were,
/// and the sheet of a character bob deleted is left out.
#[tokio::test]
async fn the_csv_export_leaves_out_erased_text_and_deleted_sheets() {
    let t = table("forget-csv", 7).await;
    play(&t, PLAY).await;
    play(
        &t,
        &[
            "alice: /me forget",
            "alice: click Delete",
            "bob: /ve sheet show character:Bobvenus private:true",
            "bob: click Delete",
            "bob: click Delete",
        ],
    )
    .await;
    let ex = t.command("fc", "/history-gm export").await.unwrap();
    let csv = ex
        .outputs
        .iter()
        .flat_map(|o| o.files.iter())
        .find(|(n, _)| n == "kismet-log.csv")
        .map(|(_, b)| String::from_utf8(b.clone()).unwrap())
        .expect("the CSV");
    let lower = csv.to_lowercase();
    assert!(!lower.contains("qux"), "{csv}");
    assert!(!csv.contains(&Table::user_id("alice").to_string()));
    let bob = Table::user_id("bob").to_string();
    let bobs = csv
        .lines()
        .filter(|l| l.contains(&format!(",{bob},")))
        .count();
    assert_eq!(bobs, data_of(&t, "bob").await.log.len());
    assert!(csv.contains("Bobveil") && csv.contains("Bobstory"), "{csv}");
    // The Venus sheets (hers erased, his deleted) are gone: only a sheet
    // logs this field.
    assert!(!csv.contains("lots_earned_this_session"), "{csv}");
    assert!(csv
        .lines()
        .any(|l| l.contains(",0,") && l.contains("erase")));
    assert_schema_clean(&t);
}
