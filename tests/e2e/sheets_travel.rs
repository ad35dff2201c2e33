//! Sheets travel (issue 33, item 4): a shown sheet's **Export** attaches a
//! versioned JSON sheet file, `/<root> sheet import file:` reads one back
//! (an attachment option, served by the fake Discord on 127.0.0.1) as the
//! caller's character, in another server; malformed files are refused
//! privately, naming the field, and save nothing.

use crate::common::{assert_schema_clean, table};
use kismet::fake::table::{Output, Table, GUILD_ID};
use serde_json::{json, Value};

/// Another server, where sheets are imported.
const OTHER_GUILD: u64 = 800_000_000_000_000_777;

async fn ok(t: &Table, who: &str, line: &str) -> Output {
    let ex = t
        .command(who, line)
        .await
        .unwrap_or_else(|e| panic!("{who}: {line}: {e}"));
    let out = ex.outputs[0].clone();
    assert!(
        !out.content().starts_with("⚠️"),
        "{who}: {line} was refused: {}",
        out.text()
    );
    out
}

/// Alice's character `name` (her active one when `None`) exported: shown
/// privately, then its **Export** pressed.
async fn export(t: &Table, root: &str, name: Option<&str>) -> Output {
    let line = match name {
        Some(n) => format!("/{root} sheet show character:{n} private:true"),
        None => format!("/{root} sheet show private:true"),
    };
    ok(t, "alice", &line).await;
    let ex = t.click("alice", "Export").await.unwrap();
    let out = ex.outputs[0].clone();
    assert!(!out.content().starts_with("⚠️"), "{}", out.text());
    out
}

/// A stored character's row in a guild.
async fn row(
    t: &Table,
    guild: u64,
    system: &str,
    who: &str,
    name: &str,
) -> Option<kismet::storage::characters::Character> {
    let db = t.db().await.unwrap();
    let mut tx = db.read().await.unwrap();
    kismet::storage::characters::by_name(
        &mut tx,
        guild as i64,
        system,
        Table::user_id(who) as i64,
        name,
    )
    .await
    .unwrap()
}

async fn characters(t: &Table) -> i64 {
    let db = t.db().await.unwrap();
    let mut tx = db.read().await.unwrap();
    kismet::storage::characters::count_all(&mut tx)
        .await
        .unwrap()
}

/// A file in this test run's temporary folder.
fn file(name: &str, bytes: &[u8]) -> String {
    let dir = std::env::temp_dir().join(format!("kismet-travel-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join(name);
    std::fs::write(&path, bytes).unwrap();
    path.to_string_lossy().into_owned()
}

/// Each game's richest sheet, as its commands build it: (root, id, name,
/// script played by alice unless a line names its member).
fn richest() -> Vec<(&'static str, &'static str, &'static str, Vec<&'static str>)> {
    vec![
        (
            "ve",
            "venus",
            "Ada",
            vec![
                "/ve sheet create name:Ada",
                "/ve sheet ability name:Finesse rank:silver score:4",
                "/ve sheet ability name:Wits rank:gold score:6",
                "/ve sheet job name:Thief inherits:Finesse level:1",
                "/ve sheet job name:Thief level:3 exp:1",
                "/ve sheet note kind:asset text:\"A forged writ\"",
                "/ve sheet note kind:insight text:\"The Duke fears the river\"",
                "/ve sheet note kind:consequence text:\"Owes the guild a favour\"",
                "fc: /ve sheet set ego:true lots:4 player:@alice",
            ],
        ),
        (
            "vr",
            "veracity",
            "Vane",
            vec![
                "/vr sheet create name:Vane light:7 flesh:5 facet:Cruel",
                "/vr facet add phrase:Blacksmith die:d10",
                "/vr item add kind:secret text:\"The Duke poisoned the well\"",
                "/vr item add kind:ruse text:\"I am a visiting priest\"",
                "/vr item add kind:evidence text:\"An empty vial\"",
                "/vr item add kind:means text:\"A purse of silver\"",
                "/vr stress amount:2",
                "/vr reveal target:\"Lady Vane\" secrets:1 evidence:1 gain:light note:\"At the dinner\"",
            ],
        ),
        (
            "st",
            "storyteller",
            "Bo",
            vec![
                "/st sheet create name:Bo willpower:6",
                "/st sheet set trait:Wits dots:3",
                "/st sheet set trait:Alertness dots:2",
                "/st sheet set trait:Brawling dots:1",
                "/st sheet specialty ability:Alertness name:\"Night Vision\"",
                "/st sheet specialty ability:Alertness name:Terrain",
                "/st sheet willpower current:4",
                "fc: /st sheet wounds dice:2 difficulty:1 player:@alice",
            ],
        ),
        (
            "vv",
            "ore",
            "Ann",
            vec![
                "/vv sheet create name:Ann agility:4 vitality:5 confidence:4 cyber:3 engineering:4 wit:6",
                "/vv sheet comp cache_size:3 battery_max:5 battery:5 thread_count:2",
                "/vv sheet special add:Burst pattern:226",
                "/vv sheet special add:Echo pattern:90 cache:all",
                "/vv sheet set stat:Cyber current:1",
            ],
        ),
    ]
}

async fn play(t: &Table, script: &[&str]) {
    for line in script {
        let (who, line) = match line.split_once(": /") {
            Some((who, rest)) => (who, format!("/{rest}")),
            None => ("alice", line.to_string()),
        };
        ok(t, who, &line).await;
    }
}

/// The `sheet show` card's embeds of alice's character in the table's
/// current guild.
async fn card(t: &Table, root: &str, name: &str) -> Vec<Value> {
    ok(t, "alice", &format!("/{root} sheet show character:{name}"))
        .await
        .embeds()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn every_games_richest_sheet_travels_to_another_server_unchanged() {
    let t = table("travel-round-trip", 1).await;
    for (root, system, name, script) in richest() {
        t.set_guild(GUILD_ID);
        play(&t, &script).await;
        let before = row(&t, GUILD_ID, system, "alice", name).await.unwrap();
        let shown = card(&t, root, name).await;

        let out = export(&t, root, Some(name)).await;
        assert_eq!(out.kind, "ephemeral", "{root}: {}", out.text());
        let (file_name, bytes) = out.files.first().expect("a file").clone();
        assert_eq!(file_name, format!("{name}.kismet.json"));
        let doc: Value = serde_json::from_slice(&bytes).unwrap();
        assert_eq!(doc["kismet_sheet"], 1, "{root}");
        assert_eq!(doc["system"], system);
        assert_eq!(doc["name"], name);
        assert!(doc["version"].as_u64().unwrap() >= 1);
        assert!(!String::from_utf8_lossy(&bytes).contains(&GUILD_ID.to_string()));

        t.set_guild(OTHER_GUILD);
        let path = file(&format!("{system}.json"), &bytes);
        let out = ok(&t, "alice", &format!("/{root} sheet import file:@{path}")).await;
        assert_eq!(out.kind, "ephemeral", "{root}: {}", out.text());
        assert!(out.text().contains("is imported"), "{root}: {}", out.text());
        let after = row(&t, OTHER_GUILD, system, "alice", name)
            .await
            .expect("imported");
        assert_eq!(
            serde_json::from_str::<Value>(&after.sheet).unwrap(),
            serde_json::from_str::<Value>(&before.sheet).unwrap(),
            "{root}: the stored sheet"
        );
        assert_eq!(after.name, before.name);
        assert!(after.active);
        assert_eq!(card(&t, root, name).await, shown, "{root}: the card");
    }
    assert_schema_clean(&t);
    t.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_older_veracity_sheet_version_imports_with_item_identities() {
    let t = table("travel-older", 1).await;
    play(
        &t,
        &[
            "/vr sheet create name:Old light:6 flesh:6 facet:Cruel",
            "/vr item add kind:secret text:\"A hidden door\"",
        ],
    )
    .await;
    let out = export(&t, "vr", Some("Old")).await;
    let mut doc: Value = serde_json::from_slice(&out.files[0].1).unwrap();
    assert_eq!(doc["version"], 2);
    // A version-1 document: items without identities.
    doc["version"] = json!(1);
    let sheet = doc["sheet"].as_object_mut().unwrap();
    sheet.remove("next_item_id");
    for inv in ["light", "flesh"] {
        for slot in sheet[inv]["slots"].as_array_mut().unwrap() {
            if let Some(item) = slot.get_mut("item").and_then(Value::as_object_mut) {
                item.remove("id");
            }
        }
    }
    let text = serde_json::to_string(&doc).unwrap();
    assert!(!text.contains("\"id\""), "{text}");
    t.set_guild(OTHER_GUILD);
    let path = file("old.json", text.as_bytes());
    ok(&t, "alice", &format!("/vr sheet import file:@{path}")).await;
    let after = row(&t, OTHER_GUILD, "veracity", "alice", "Old")
        .await
        .expect("imported");
    let sheet: Value = serde_json::from_str(&after.sheet).unwrap();
    let ids: Vec<u64> = ["light", "flesh"]
        .iter()
        .flat_map(|inv| sheet[inv]["slots"].as_array().unwrap().clone())
        .filter_map(|s| s.get("item").and_then(|i| i["id"].as_u64()))
        .collect();
    assert!(!ids.is_empty() && ids.iter().all(|id| *id > 0), "{sheet}");
    t.stop().await;
}

/// An exported Storyteller sheet of alice's, as a JSON value to spoil.
async fn storyteller_doc(t: &Table) -> Value {
    play(t, &["/st sheet create name:Bo willpower:5"]).await;
    let out = export(t, "st", None).await;
    serde_json::from_slice(&out.files[0].1).unwrap()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn malformed_sheet_files_are_refused_privately_naming_the_field() {
    let t = table("travel-malformed", 1).await;
    let good = storyteller_doc(&t).await;
    let with = |f: &dyn Fn(&mut Value)| {
        let mut d = good.clone();
        f(&mut d);
        serde_json::to_vec(&d).unwrap()
    };
    let ability = |d: &Value, name: &str| {
        d["sheet"]["abilities"]
            .as_array()
            .unwrap()
            .iter()
            .position(|a| a["name"] == name)
            .unwrap()
    };
    let alert = ability(&good, "Alertness");
    let mut big = good.clone();
    big["sheet"]["custom_traits"] = json!([]);
    let padding = "x".repeat(70 * 1024);
    big["name"] = json!(padding);
    let cases: Vec<(&str, Vec<u8>, String)> = vec![
        (
            "wrong system",
            with(&|d| d["system"] = json!("venus")),
            "system: this file holds a Venus Engine sheet".into(),
        ),
        (
            "wrong type",
            with(&|d| d["sheet"]["willpower"]["permanent"] = json!("five")),
            "sheet.willpower.permanent: invalid type".into(),
        ),
        (
            "out of range",
            with(&|d| d["sheet"]["abilities"][alert]["dots"] = json!(7)),
            format!("sheet.abilities[{alert}].dots: Alertness must be between 0 and 5 dots."),
        ),
        (
            "too many entries",
            with(&|d| {
                let many: Vec<Value> = (0..21)
                    .map(|i| json!({"name": format!("Spec {i}"), "type": "general"}))
                    .collect();
                d["sheet"]["abilities"][alert]["specialties"] = json!(many);
            }),
            format!("sheet.abilities[{alert}].specialties: Alertness has too many specialties"),
        ),
        (
            "too long a name",
            with(&|d| d["sheet"]["abilities"][alert]["specialties"] = json!([{"name": "y".repeat(41), "type": "general"}])),
            format!("sheet.abilities[{alert}].specialties[0].name: Names can be at most 40 characters long."),
        ),
        (
            "oversized",
            serde_json::to_vec(&big).unwrap(),
            "file: st.json is larger than 64 kB".into(),
        ),
        (
            "not JSON",
            b"name: Bo\nwillpower: 5\n".to_vec(),
            "file: not JSON".into(),
        ),
        (
            "missing envelope",
            serde_json::to_vec(&good["sheet"]).unwrap(),
            "kismet_sheet: missing".into(),
        ),
        (
            "future version",
            with(&|d| d["version"] = json!(99)),
            "version: Storyteller sheet version 99 is not one this Kismet reads (1 to 1)".into(),
        ),
        (
            "a mention in the name",
            with(&|d| d["name"] = json!("<@123>")),
            "name: Character names cannot contain mentions".into(),
        ),
    ];
    assert_eq!(cases.len(), 10);
    t.set_guild(OTHER_GUILD);
    let count = characters(&t).await;
    for (what, bytes, needle) in cases {
        let path = file("st.json", &bytes);
        let downloads = t.fake.downloads();
        let ex = t
            .command("alice", &format!("/st sheet import file:@{path}"))
            .await
            .unwrap_or_else(|e| panic!("{what}: {e}"));
        let out = ex.single();
        assert_eq!(out.kind, "ephemeral", "{what}: {}", out.text());
        assert!(out.content().starts_with("⚠️"), "{what}: {}", out.text());
        assert!(
            out.text().contains(&needle),
            "{what}: expected `{needle}` in {}",
            out.text()
        );
        assert!(!out.text().contains("<@123>"), "{what}: {}", out.text());
        assert_eq!(characters(&t).await, count, "{what}: nothing saved");
        if what == "oversized" {
            assert_eq!(t.fake.downloads(), downloads, "refused before downloading");
        } else {
            assert_eq!(t.fake.downloads(), downloads + 1, "{what}: downloaded once");
        }
    }
    assert_schema_clean(&t);
    t.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_imported_name_already_taken_is_refused_and_nothing_is_saved() {
    let t = table("travel-clash", 1).await;
    let doc = storyteller_doc(&t).await;
    let path = file("clash.json", &serde_json::to_vec(&doc).unwrap());
    let count = characters(&t).await;
    let ex = t
        .command("alice", &format!("/st sheet import file:@{path}"))
        .await
        .unwrap();
    let out = ex.single();
    assert_eq!(out.kind, "ephemeral");
    assert!(
        out.text()
            .contains("name: There is already a character named Bo."),
        "{}",
        out.text()
    );
    assert_eq!(characters(&t).await, count);
    t.stop().await;
}
