//! The Storyteller d10 rules at the table (`/st …`), end to end through the
//! fake Discord: sheets, rolls by traits and bare pools, willpower rolls
//! with the Spend willpower button, ignoring wounds once per turn,
//! recovery, incapacitation, rights, settings, restarts and the largest
//! pools. Seeded: the faces asserted are what those seeds always give.

use crate::common::{assert_schema_clean, table};
use kismet::fake::table::{Exchange, Output, Table, GUILD_ID};
use kismet::rules::storyteller::{roll_odds, StorytellerSheet};
use kismet::storage;

/// A character's sheet as stored.
async fn sheet(t: &Table, name: &str) -> StorytellerSheet {
    let db = t.db().await.unwrap();
    let mut tx = db.read().await.unwrap();
    let rows =
        storage::characters::by_name_any_owner(&mut tx, GUILD_ID as i64, "storyteller", name)
            .await
            .unwrap();
    assert_eq!(rows.len(), 1, "one character named {name}");
    let s: StorytellerSheet = serde_json::from_str(&rows[0].sheet).unwrap();
    s.validate().unwrap();
    s
}

/// How many roll-log entries the guild has.
async fn logged(t: &Table) -> i64 {
    let db = t.db().await.unwrap();
    let mut tx = db.read().await.unwrap();
    storage::log::count(&mut tx, GUILD_ID as i64).await.unwrap()
}

async fn run(t: &Table, who: &str, line: &str) -> Exchange {
    t.command(who, line)
        .await
        .unwrap_or_else(|e| panic!("{line}: {e}"))
}

/// Runs a command that must answer with one public message.
async fn public(t: &Table, who: &str, line: &str) -> Output {
    let ex = run(t, who, line).await;
    let out = ex.single().clone();
    assert_eq!(out.kind, "message", "{line}: {}", out.text());
    out
}

/// Runs a command that must be refused privately with `needle` in the text.
async fn refused(t: &Table, who: &str, line: &str, needle: &str) {
    let ex = run(t, who, line).await;
    let out = ex.single();
    assert_eq!(out.kind, "ephemeral", "{line}: {}", out.text());
    assert!(
        out.text().contains(needle),
        "{line}: expected `{needle}` in {}",
        out.text()
    );
}

fn description(out: &Output) -> String {
    out.embeds()[0]["description"]
        .as_str()
        .unwrap_or("")
        .to_string()
}

fn labels(out: &Output) -> Vec<String> {
    out.buttons().into_iter().map(|b| b.0).collect()
}

/// Alice's Ada: Wits 3, Alertness 2 with the advanced specialty Night
/// Vision, willpower `wp`.
async fn ada(t: &Table, wp: u8) {
    public(
        t,
        "alice",
        &format!("/st sheet create name:Ada willpower:{wp}"),
    )
    .await;
    for line in [
        "/st sheet set trait:Wits dots:3",
        "/st sheet set trait:Alertness dots:2",
        "/st sheet specialty ability:Alertness name:\"Night Vision\"",
    ] {
        let ex = run(t, "alice", line).await;
        assert_eq!(ex.single().kind, "ephemeral", "{line}");
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn st_registers_with_groups_and_autocompletes_traits() {
    let t = table("st-register", 1).await;
    let reg = t.registered();
    let st = reg
        .as_array()
        .unwrap()
        .iter()
        .find(|c| c["name"] == "st")
        .expect("/st is registered")
        .clone();
    let subs: Vec<&str> = st["options"]
        .as_array()
        .unwrap()
        .iter()
        .map(|o| o["name"].as_str().unwrap())
        .collect();
    for s in [
        "sheet",
        "roll",
        "pool",
        "willpower",
        "turn",
        "rest",
        "recover",
        "revive",
        "settings",
    ] {
        assert!(subs.contains(&s), "{s} in {subs:?}");
    }
    ada(&t, 5).await;
    let got = t
        .autocomplete("alice", "/st roll traits:\"Wits + al\"", "traits")
        .await
        .unwrap();
    assert_eq!(got[0]["value"], "Wits + Alertness");
    assert_eq!(got[0]["name"], "Wits + Alertness (talent, 2 dots)");
    let got = t
        .autocomplete("alice", "/st sheet set trait:brawl dots:1", "trait")
        .await
        .unwrap();
    assert!(
        got.iter()
            .any(|c| c["value"] == "Brawling" && c["name"] == "Brawling (= Melee)"),
        "{got:?}"
    );
    let got = t
        .autocomplete(
            "alice",
            "/st roll traits:\"Wits + Alertness\" specialties:ni",
            "specialties",
        )
        .await
        .unwrap();
    assert_eq!(got[0]["value"], "Night Vision");
    let got = t
        .autocomplete(
            "alice",
            "/st sheet specialty ability:Firearms name:sni",
            "name",
        )
        .await
        .unwrap();
    assert_eq!(got[0]["value"], "Sniper Rifles");
    let got = t
        .autocomplete("alice", "/st sheet show character:a", "character")
        .await
        .unwrap();
    assert_eq!(got[0]["value"], "Ada");
    let got = t
        .autocomplete("fc", "/st settings set name:diff value:7", "name")
        .await
        .unwrap();
    assert_eq!(got[0]["value"], "st_default_difficulty");
    assert_schema_clean(&t);
    t.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn sheets_are_created_shown_and_edited() {
    let t = table("st-sheet", 1).await;
    let card = public(&t, "alice", "/st sheet create name:Ada willpower:6").await;
    assert_eq!(card.title(), "📜 Ada");
    assert!(description(&card).contains("**Willpower** ■■■■■■ 6/6"));
    assert_eq!(
        card.field("Attributes").unwrap().lines().next().unwrap(),
        "Strength ●○○○○"
    );
    assert!(card
        .field("Knowledges")
        .unwrap()
        .starts_with("*0 dots:* Academics"));
    assert!(card.buttons().is_empty(), "no wound penalty, no button");

    let ex = run(&t, "alice", "/st sheet set trait:str dots:3").await;
    assert_eq!(
        description(ex.single()),
        "Strength (Attribute): ●○○○○ → ●●●○○ (3)"
    );
    let ex = run(&t, "alice", "/st sheet set trait:Brawling dots:2").await;
    assert_eq!(
        description(ex.single()),
        "Melee (Talent): ○○○○○ → ●●○○○ (2)"
    );
    run(&t, "alice", "/st sheet set trait:Firearms dots:1").await;
    // The source's suggestion decides the type unless told.
    run(&t, "alice", "/st sheet specialty ability:Melee name:Swords").await;
    run(
        &t,
        "alice",
        "/st sheet specialty ability:Melee name:Unarmed",
    )
    .await;
    run(
        &t,
        "alice",
        "/st sheet specialty ability:Firearms name:\"Rail Pistols\" advanced:true",
    )
    .await;
    let ex = run(
        &t,
        "alice",
        "/st sheet specialty ability:Melee name:unarmed remove:true",
    )
    .await;
    assert_eq!(
        description(ex.single()),
        "Melee: specialty Unarmed removed."
    );
    let ex = run(
        &t,
        "alice",
        "/st sheet trait name:Charm kind:attribute dots:2",
    )
    .await;
    assert_eq!(
        description(ex.single()),
        "New custom attribute **Charm**: ●●○○○ (2)."
    );
    let ex = run(&t, "alice", "/st sheet willpower permanent:8 current:5").await;
    assert_eq!(
        description(ex.single()),
        "Willpower ■■■■■■ 6/6 → ■■■■■□□□ 5/8"
    );
    run(&t, "alice", "/st sheet wounds dice:2 difficulty:1").await;

    let s = sheet(&t, "Ada").await;
    assert_eq!(s.attribute("Strength").unwrap().dots, 3);
    assert_eq!(s.attribute("Charm").unwrap().dots, 2);
    let melee = s.ability("Melee").unwrap();
    assert_eq!(melee.dots, 2);
    assert_eq!(melee.specialties.len(), 1);
    assert_eq!(
        serde_json::to_value(&melee.specialties[0]).unwrap(),
        serde_json::json!({"name": "Swords", "type": "advanced"})
    );
    assert_eq!(
        serde_json::to_value(&s.ability("Firearms").unwrap().specialties[0]).unwrap(),
        serde_json::json!({"name": "Rail Pistols", "type": "advanced"})
    );
    assert_eq!((s.willpower().current, s.willpower().permanent), (5, 8));
    assert_eq!(
        (s.wound_penalty().dice, s.wound_penalty().difficulty),
        (2, 1)
    );

    let card = public(&t, "alice", "/st sheet show").await;
    assert!(card.field("Talents").unwrap().contains("Melee ●●○○○"));
    assert_eq!(
        card.field("Specialties").unwrap(),
        "**Firearms**: Rail Pistols (adv.)\n**Melee**: Swords (adv.)"
    );
    assert!(description(&card).contains("**Wound penalty** −2 dice, +1 difficulty"));
    assert_eq!(labels(&card), vec!["Ignore wound penalty (1 willpower)"]);

    // Bad input: refused privately, nothing stored.
    let before = sheet(&t, "Ada").await;
    refused(
        &t,
        "alice",
        "/st sheet set trait:Charisma dots:2",
        "no trait called `Charisma`",
    )
    .await;
    refused(
        &t,
        "alice",
        "/st sheet set trait:st dots:2",
        "There is no trait called `st`",
    )
    .await;
    refused(
        &t,
        "alice",
        "/st sheet specialty ability:Law name:Contracts",
        "at least one dot in Law",
    )
    .await;
    refused(
        &t,
        "alice",
        "/st sheet specialty ability:Wits name:Quick",
        "only abilities have specialties",
    )
    .await;
    refused(
        &t,
        "alice",
        "/st sheet willpower current:9",
        "between 0 and the permanent rating (8)",
    )
    .await;
    refused(
        &t,
        "alice",
        "/st sheet willpower",
        "Give `current`, `permanent`",
    )
    .await;
    refused(
        &t,
        "alice",
        "/st sheet trait name:Melee kind:talent",
        "already a trait",
    )
    .await;
    refused(
        &t,
        "alice",
        "/st sheet create name:ada willpower:3",
        "already a character named ada",
    )
    .await;
    // Discord's client refuses what the options forbid.
    assert!(t
        .command("alice", "/st sheet set trait:Wits dots:6")
        .await
        .is_err());
    assert!(t
        .command("alice", "/st sheet create name:X willpower:11")
        .await
        .is_err());
    assert_eq!(sheet(&t, "Ada").await, before);

    // A second character; `use` switches the active one.
    public(&t, "alice", "/st sheet create name:Bea willpower:3").await;
    let card = public(&t, "alice", "/st sheet show").await;
    assert_eq!(card.title(), "📜 Bea");
    run(&t, "alice", "/st sheet use character:Ada").await;
    let card = public(&t, "alice", "/st sheet show").await;
    assert_eq!(card.title(), "📜 Ada");
    assert_schema_clean(&t);
    t.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_trait_roll_shows_dice_generations_threshold_botches_and_odds() {
    let t = table("st-roll", 1).await;
    ada(&t, 5).await;
    let out = public(
        &t,
        "alice",
        "/st roll traits:\"Wits + Alertness\" specialties:\"night vision\"",
    )
    .await;
    assert_eq!(out.title(), "🎲 Ada rolls Wits + Alertness");
    assert_eq!(
        description(&out),
        "**Base** (5): **9**, **10**, **7**, 4, 3\n**Bonus 1** (1): **6**"
    );
    assert_eq!(
        out.field("Pool").unwrap(),
        "Wits 3 + Alertness 2 = **5 dice**"
    );
    assert_eq!(out.field("Difficulty").unwrap(), "6");
    assert_eq!(
        out.field("Specialties").unwrap(),
        "Night Vision (1 bonus die per 10)"
    );
    assert_eq!(
        out.field("Successes").unwrap(),
        "4 rolled (3 base + 1 bonus)\nNet: **4**"
    );
    assert_eq!(
        out.field("Outcome").unwrap(),
        "✅ **Success**: 4 successes (very good)"
    );
    // The chance shown is the exact one for 5 dice at 6 with 1 specialty
    // (spec A-S3: 85.64%).
    let o = roll_odds(5, 6, 0, 1);
    assert!((o.success - 0.8564).abs() < 0.0001);
    assert_eq!(
        out.field("Chance before rolling").unwrap(),
        "85.6% success · 9.5% failure · 4.9% botch"
    );
    assert!(out.buttons().is_empty());

    // A threshold and botches.
    let out = public(
        &t,
        "alice",
        "/st roll traits:\"Wits + Alertness\" difficulty:4 threshold:2",
    )
    .await;
    assert_eq!(
        description(&out),
        "**Base** (5): ~~1~~, **10**, **9**, 2, **6**"
    );
    assert_eq!(out.field("Threshold").unwrap(), "2");
    // ST-5: the threshold removes two of three successes; the botch cancels
    // the last one; net 0 is a simple failure (A-S9).
    assert_eq!(
        out.field("Successes").unwrap(),
        "3 rolled\n−2 removed by threshold 2\n1 botch, cancelling 1\nNet: **0**"
    );
    assert_eq!(out.field("Outcome").unwrap(), "➖ **Simple failure**");

    // One attribute alone, two attributes, a modifier.
    let out = public(
        &t,
        "alice",
        "/st roll traits:Wits dice_modifier:2 difficulty_modifier:-1",
    )
    .await;
    assert_eq!(out.field("Pool").unwrap(), "Wits 3 = 3 → **5 dice**");
    assert_eq!(out.field("Difficulty").unwrap(), "5");
    let out = public(
        &t,
        "alice",
        "/st roll traits:\"Wits + Strength\" difficulty:8",
    )
    .await;
    assert_eq!(
        out.field("Pool").unwrap(),
        "Wits 3 + Strength 1 = **4 dice**"
    );
    assert_eq!(
        out.field("Rules applied"),
        None,
        "nothing special fired: {}",
        out.text()
    );

    // Every roll is logged with the full dice.
    let db = t.db().await.unwrap();
    let mut tx = db.read().await.unwrap();
    let log = storage::log::for_session(&mut tx, GUILD_ID as i64, 2)
        .await
        .unwrap();
    assert_eq!(log.len(), 1);
    assert_eq!(log[0].system, "storyteller");
    assert_eq!(log[0].action, "roll");
    let dice: serde_json::Value = serde_json::from_str(&log[0].dice).unwrap();
    assert_eq!(dice["base"], serde_json::json!([9, 10, 7, 4, 3]));
    assert_eq!(dice["bonus"], serde_json::json!([[6]]));
    drop(tx);

    // Bad rolls: refused privately, nothing logged.
    let n = logged(&t).await;
    refused(
        &t,
        "alice",
        "/st roll traits:\"Wits + Alertness + Strength\"",
        "never uses more than two traits",
    )
    .await;
    refused(
        &t,
        "alice",
        "/st roll traits:\"Alertness + Athletics\"",
        "at most one ability",
    )
    .await;
    refused(
        &t,
        "alice",
        "/st roll traits:\"Wits + Alertness\" specialties:Swords",
        "no specialty called Swords",
    )
    .await;
    refused(
        &t,
        "alice",
        "/st roll traits:Wits specialties:\"Night Vision\"",
        "need an ability",
    )
    .await;
    refused(
        &t,
        "alice",
        "/st roll traits:\"Wits + Alerts\"",
        "no trait called `Alerts`",
    )
    .await;
    refused(&t, "bob", "/st roll traits:Wits", "no active character").await;
    assert_eq!(logged(&t).await, n);
    assert_schema_clean(&t);
    t.stop().await;
}
