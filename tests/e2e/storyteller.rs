//! The Storyteller d10 rules at the table (`/st …`), end to end through the
//! fake Discord: sheets, rolls by traits and bare pools, willpower rolls
//! with the Spend willpower button, ignoring wounds once per turn,
//! recovery, incapacitation, rights, settings, restarts and the largest
//! pools. Seeded: the faces asserted are what those seeds always give.

use crate::common::{assert_schema_clean, is_card_redraw, table, Answer};
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
    let out = ex.only().clone();
    assert_eq!(out.kind, "message", "{line}: {}", out.text());
    out
}

/// Runs a command that must be refused privately with `needle` in the text.
async fn refused(t: &Table, who: &str, line: &str, needle: &str) {
    let ex = run(t, who, line).await;
    let out = ex.only();
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

/// The description's lines after the dice (willpower, what happened).
fn after_dice(out: &Output) -> String {
    description(out)
        .lines()
        .skip(1)
        .collect::<Vec<_>>()
        .join("\n")
}

/// The dice: the description's first line.
fn dice(out: &Output) -> String {
    description(out).lines().next().unwrap_or("").to_string()
}

/// The author line (who rolled what).
fn author(out: &Output) -> String {
    out.embeds()[0]["author"]["name"]
        .as_str()
        .unwrap_or("")
        .to_string()
}

/// The footer (the rules that fired, the odds, the roll's number).
fn footer(out: &Output) -> String {
    out.embeds()[0]["footer"]["text"]
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
        assert_eq!(ex.only().kind, "ephemeral", "{line}");
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
        .autocomplete("fc", "/st-gm settings set name:diff value:7", "name")
        .await
        .unwrap();
    assert_eq!(got[0]["value"], "st_default_difficulty");
    assert_schema_clean(&t);
    t.stop().await;
}

/// Every description under a registered command (options, subcommands).
fn descriptions(v: &serde_json::Value, path: &str, out: &mut Vec<String>) {
    if let Some(d) = v["description"].as_str() {
        out.push(format!("{path}: {d}"));
    }
    for o in v["options"].as_array().into_iter().flatten() {
        let name = o["name"].as_str().unwrap_or("?");
        descriptions(o, &format!("{path} {name}"), out);
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_game_master_is_the_storyteller_in_every_text() {
    let t = table("st-gm-word", 1).await;
    // The slash commands' own descriptions.
    let reg = t.registered();
    let st = reg
        .as_array()
        .unwrap()
        .iter()
        .find(|c| c["name"] == "st")
        .unwrap()
        .clone();
    let mut all = Vec::new();
    descriptions(&st, "/st", &mut all);
    // (`/st sheet show|rename|import` are the shared table's.)
    let shared = ["list", "show", "use", "rename", "delete"];
    let own: Vec<&String> = all
        .iter()
        .filter(|d| {
            !shared
                .iter()
                .any(|s| d.starts_with(&format!("/st sheet {s}")))
        })
        .collect();
    assert!(
        own.iter().any(|d| d.contains("Whose (storyteller)")),
        "{own:?}"
    );
    assert!(!own.iter().any(|d| d.contains("FC")), "{own:?}");
    // Refusals and labels.
    ada(&t, 5).await;
    refused(
        &t,
        "alice",
        "/st turn everyone:true",
        "Only the storyteller can start a new turn for everyone",
    )
    .await;
    refused(
        &t,
        "alice",
        "/st sheet create name:Bo willpower:3 player:@bob",
        "Only the storyteller can create a character for another player: that is members with the Manage Server permission (a server manager can name an FC role with `/fc role`).",
    )
    .await;
    let out = public(&t, "alice", "/st willpower difficulty:9").await;
    assert_eq!(
        labels(&out),
        vec!["Spend willpower", "Keep", "⚙ Storyteller"]
    );
    let ex = t.click("bob", "Keep").await.unwrap();
    assert_eq!(
        ex.only().text(),
        "⚠️ Only Ada's player or the storyteller can decide this roll."
    );
    let ex = t.tool("fc", "Void").await.unwrap();
    assert_eq!(ex.only().title(), "⏹️ Voided by the storyteller");
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
        description(ex.only()),
        "Strength (Attribute): ●○○○○ → ●●●○○ (3)"
    );
    let ex = run(&t, "alice", "/st sheet set trait:Brawling dots:2").await;
    assert_eq!(description(ex.only()), "Melee (Talent): ○○○○○ → ●●○○○ (2)");
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
    assert_eq!(description(ex.only()), "Melee: specialty Unarmed removed.");
    let ex = run(
        &t,
        "alice",
        "/st sheet set trait:Charm kind:attribute dots:2",
    )
    .await;
    assert_eq!(
        description(ex.only()),
        "New custom attribute **Charm**: ●●○○○ (2)."
    );
    let ex = run(
        &t,
        "fc",
        "/st sheet willpower permanent:8 current:5 player:@alice",
    )
    .await;
    assert_eq!(
        description(ex.only()),
        "Willpower ■■■■■■ 6/6 → ■■■■■□□□ 5/8"
    );
    run(
        &t,
        "fc",
        "/st sheet wounds dice:2 difficulty:1 player:@alice",
    )
    .await;

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
    assert_eq!(
        labels(&card),
        vec!["Ignore wound penalty (1 willpower)", "Delete", "Export"]
    );

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
        "/st sheet set trait:Melee kind:talent",
        "already a trait",
    )
    .await;
    refused(
        &t,
        "alice",
        "/st sheet set traits:\"Hacking 2\" kind:knowledge",
        "`kind` adds one trait of the sheet's own: name it in `trait`",
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

    // A second character; Play as… switches the active one.
    public(&t, "alice", "/st sheet create name:Bea willpower:3").await;
    let card = public(&t, "alice", "/st sheet show").await;
    assert_eq!(card.title(), "📜 Bea");
    t.select("alice", "Play as…", &["Ada".to_string()])
        .await
        .unwrap();
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
    // Issue 16: the outcome is the title, who rolled what the author, the
    // dice (sorted, marked) the first line; the pool and the arithmetic
    // are two short fields, no legend.
    assert_eq!(out.title(), "✅ Success · 4 successes");
    assert_eq!(author(&out), "Ada · Wits + Alertness");
    assert_eq!(out.embeds()[0]["color"], 0x57F287);
    assert_eq!(description(&out), "**10**★ **9** **7** 4 3 · bonus **6**");
    assert_eq!(
        out.field("Pool").unwrap(),
        "Wits 3 + Alertness 2 = **5 dice** · difficulty 6 · Night Vision +1 die per 10"
    );
    assert_eq!(
        out.field("Successes").unwrap(),
        "3 + 1 bonus = **4** (very good)"
    );
    for gone in ["Difficulty", "Threshold", "Specialties", "Outcome"] {
        assert_eq!(out.field(gone), None, "{gone}");
    }
    assert!(
        !footer(&out).contains("bold:"),
        "no legend: {}",
        footer(&out)
    );
    // The chance shown is the exact one for 5 dice at 6 with 1 specialty
    // (spec A-S3: 85.64%).
    let o = roll_odds(5, 6, 0, 1);
    assert!((o.success - 0.8564).abs() < 0.0001);
    assert!(
        footer(&out).contains("Chance before rolling: 85.6% success · 9.5% failure · 4.9% botch"),
        "{}",
        footer(&out)
    );
    assert!(out.buttons().is_empty());

    // A threshold and botches.
    let out = public(
        &t,
        "alice",
        "/st roll traits:\"Wits + Alertness\" difficulty:4 threshold:2",
    )
    .await;
    assert_eq!(description(&out), "**10** **9** **6** 2 1✗");
    assert!(out
        .field("Pool")
        .unwrap()
        .ends_with(" · difficulty 4 · threshold 2"));
    // ST-5: the threshold removes two of three successes; the botch cancels
    // the last one; net 0 is a simple failure (A-S9), red since issue 16.
    assert_eq!(
        out.field("Successes").unwrap(),
        "3 − 2 threshold − 1 botch = **0**"
    );
    assert_eq!(out.title(), "❌ Simple failure");
    assert_eq!(out.embeds()[0]["color"], 0xED4245);

    // One attribute alone, two attributes, a modifier.
    let out = public(
        &t,
        "alice",
        "/st roll traits:Wits dice_modifier:2 difficulty_modifier:-1",
    )
    .await;
    assert_eq!(
        out.field("Pool").unwrap(),
        "Wits 3 = 3 → **5 dice** · difficulty 5"
    );
    let out = public(
        &t,
        "alice",
        "/st roll traits:\"Wits + Strength\" difficulty:8",
    )
    .await;
    assert_eq!(
        out.field("Pool").unwrap(),
        "Wits 3 + Strength 1 = **4 dice** · difficulty 8"
    );
    assert!(
        footer(&out).starts_with("Chance before rolling"),
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

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn abilities_at_zero_follow_the_unskilled_rules() {
    let t = table("st-unskilled", 1).await;
    ada(&t, 5).await;
    // A talent at 0: the attribute alone, no penalty.
    let out = public(&t, "alice", "/st roll traits:\"Wits + Stealth\"").await;
    assert_eq!(
        out.field("Pool").unwrap(),
        "Wits 3 + Stealth 0 = **3 dice** · difficulty 6"
    );
    assert!(
        footer(&out).contains("Stealth is a talent at 0 dots: the attribute alone, no penalty.")
    );
    // A skill at 0: difficulty +1.
    let out = public(&t, "alice", "/st roll traits:\"Wits + Drive\" difficulty:7").await;
    assert!(out.field("Pool").unwrap().ends_with(" · difficulty 8"));
    assert!(
        footer(&out).contains("Driving is a skill at 0 dots: the attribute alone, difficulty +1.")
    );
    // A knowledge at 0: refused, unless the storyteller allows figuring it out.
    refused(
        &t,
        "alice",
        "/st roll traits:\"Int + Law\"",
        "Law is a knowledge with no dots",
    )
    .await;
    let out = public(
        &t,
        "alice",
        "/st roll traits:\"Int + Law\" figure_it_out:true difficulty:10",
    )
    .await;
    assert!(out
        .field("Pool")
        .unwrap()
        .ends_with(" · difficulty 11 (impossible)"));
    let rules = footer(&out);
    assert!(
        rules.contains(
            "Figuring out Law (a knowledge at 0 dots): the attribute alone, difficulty +1."
        ),
        "{rules}"
    );
    assert!(rules.contains("success is impossible"), "{rules}");
    assert!(rules.contains("Chance before rolling: 0% success · 90.0% failure · 10.0% botch"));
    // Specialties only up to the ability's dots.
    run(
        &t,
        "alice",
        "/st sheet specialty ability:Alertness name:Terrain",
    )
    .await;
    run(
        &t,
        "alice",
        "/st sheet specialty ability:Alertness name:Ambushes",
    )
    .await;
    refused(
        &t,
        "alice",
        "/st roll traits:\"Wits + Alertness\" specialties:\"Terrain, Ambushes, Night Vision\"",
        "With 2 dots in Alertness you can use at most 2 specialties",
    )
    .await;
    // ST-8: a required advanced specialty the character has is used by itself.
    let out = public(
        &t,
        "alice",
        "/st roll traits:\"Wits + Alertness\" advanced:\"Night Vision\" specialties:Terrain",
    )
    .await;
    assert_eq!(
        out.field("Pool").unwrap(),
        "Wits 3 + Alertness 2 = **5 dice** · difficulty 6 · Terrain, Night Vision +2 dice per 10"
    );
    // ... and one it lacks adds +1 threshold.
    let out = public(
        &t,
        "alice",
        "/st roll traits:\"Wits + Alertness\" advanced:Vacuum",
    )
    .await;
    assert!(out.field("Pool").unwrap().ends_with(" · threshold 1"));
    assert!(footer(&out).contains("Advanced specialty Vacuum required but not used: threshold +1."));
    assert_schema_clean(&t);
    t.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn bare_pools_zero_pools_and_the_dice_cap() {
    let t = table("st-pool", 3).await;
    let out = public(&t, "bob", "/st pool dice:7 difficulty:7 specialties:2").await;
    assert_eq!(out.title(), "✅ Success · 3 successes");
    assert_eq!(author(&out), "bob · 7 dice");
    // One 10 with two specialties in use: two bonus dice.
    assert_eq!(description(&out), "**10**★ **9** **8** 6 4 4 3 · bonus 4 3");
    // Nothing but base successes: the title says it all.
    assert_eq!(out.field("Successes"), None);
    assert_eq!(
        out.field("Pool").unwrap(),
        "**7 dice** · difficulty 7 · 2 specialties +2 dice per 10"
    );
    // A zero pool is an automatic failure by default (A-S1)...
    let out = public(&t, "bob", "/st pool dice:0").await;
    assert_eq!(description(&out), "No dice to roll: it cannot botch.");
    assert_eq!(out.title(), "❌ Simple failure");
    assert!(footer(&out).contains("Chance before rolling: 0% success · 100% failure · 0% botch"));
    // ... or one chance die when the FC says so.
    public(
        &t,
        "fc",
        "/st-gm settings set name:st_zero_pool value:chance_die",
    )
    .await;
    let out = public(&t, "bob", "/st pool dice:0").await;
    assert!(
        description(&out).starts_with("Chance die "),
        "{}",
        out.text()
    );
    assert!(
        footer(&out).contains("Chance before rolling: 10.0% success · 80.0% failure · 10.0% botch")
    );
    // The guild's dice cap (50) is enforced; Discord's client caps at 100.
    let n = logged(&t).await;
    refused(
        &t,
        "bob",
        "/st pool dice:51",
        "this server allows at most 50",
    )
    .await;
    assert!(t.command("bob", "/st pool dice:101").await.is_err());
    assert!(t
        .command("bob", "/st pool dice:5 specialties:6")
        .await
        .is_err());
    assert_eq!(logged(&t).await, n);
    assert_schema_clean(&t);
    t.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_largest_pools_always_fit_in_one_message() {
    let t = table("st-large", 5).await;
    let mut summarised = 0;
    for round in 0..8 {
        let out = public(&t, "bob", "/st pool dice:50 specialties:5 threshold:30").await;
        let d = description(&out);
        assert!(d.chars().count() <= 4096, "round {round}");
        if d.contains("every face is in the roll log") {
            summarised += 1;
            assert!(d.starts_with("50 dice: "), "{d}");
        } else {
            // Sixty dice or fewer: every face is shown.
            let faces: usize = d
                .lines()
                .next()
                .unwrap()
                .split(' ')
                .filter(|f| f.chars().any(|c| c.is_ascii_digit()))
                .count();
            assert!((50..=60).contains(&faces), "{d}");
        }
        let total: usize = out.text().chars().count();
        assert!(total < 6000, "round {round}: {total}");
    }
    assert!(summarised > 0, "some rounds roll more than 60 dice");
    assert_schema_clean(&t);
    t.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_willpower_roll_buys_an_automatic_success_once() {
    let t = table("st-wp-spend", 1).await;
    ada(&t, 5).await;
    let out = public(&t, "alice", "/st willpower").await;
    // Issue 16: waiting for the choice, in the pending colour.
    assert_eq!(out.title(), "⏳ Waiting for Ada · 3 successes rolled");
    assert_eq!(author(&out), "Ada · Willpower");
    assert_eq!(dice(&out), "**10** **9** **7** 4 3");
    assert_eq!(
        out.field("Pool").unwrap(),
        "Willpower = **5 dice** · difficulty 6"
    );
    assert_eq!(
        after_dice(&out),
        "Willpower 5 · **Spend willpower**: 1 dot makes this an automatic success with 4 successes."
    );
    assert_eq!(
        labels(&out),
        vec!["Spend willpower", "Keep", "⚙ Storyteller"]
    );
    assert_eq!(out.buttons()[0].1, "st:2:0:spend");

    // A stranger cannot decide it.
    let ex = t.click("bob", "Spend willpower").await.unwrap();
    assert_eq!(ex.only().kind, "ephemeral");
    assert!(ex
        .only()
        .text()
        .contains("Only Ada's player or the storyteller can decide this roll."));
    assert_eq!(sheet(&t, "Ada").await.willpower().current, 5);

    // A double click spends once: the second click carries the old version.
    let msg = t.last_message_for("alice").unwrap();
    let first = t
        .click_custom_id("alice", msg.id, "st:2:0:spend", None)
        .await
        .unwrap();
    let second = t
        .click_custom_id("alice", msg.id, "st:2:0:spend", None)
        .await
        .unwrap();
    let up = first.only();
    assert_eq!(up.kind, "update");
    assert_eq!(up.title(), "✅ Automatic success · 4 successes");
    assert_eq!(
        after_dice(up),
        "Willpower 5 → 4\n1 willpower spent for an automatic success (now 4)."
    );
    assert!(up.buttons().is_empty());
    assert_eq!(second.only().kind, "update");
    assert_eq!(second.only().body["embeds"], up.body["embeds"]);
    assert_eq!(sheet(&t, "Ada").await.willpower().current, 4);
    let db = t.db().await.unwrap();
    let mut tx = db.read().await.unwrap();
    let log = storage::log::for_session(&mut tx, GUILD_ID as i64, 2)
        .await
        .unwrap();
    let actions: Vec<&str> = log.iter().map(|e| e.action.as_str()).collect();
    assert_eq!(actions, vec!["willpower", "spend"]);
    drop(tx);

    // At 1 willpower the last dot cannot be spent: no choice is offered.
    run(&t, "fc", "/st sheet willpower current:1 player:@alice").await;
    let out = public(&t, "alice", "/st willpower difficulty:2").await;
    assert!(out.buttons().is_empty(), "{}", out.text());
    assert_schema_clean(&t);
    t.stop().await;
}

/// The embeds of posted message `id` as they stand now.
fn posted(t: &Table, id: u64) -> String {
    t.fake.message_object(id).expect("the posted message")["embeds"].to_string()
}

/// Issue 28: every message that shows a changed sheet is redrawn at once:
/// a willpower spend on a roll, a sheet edit and a day's rest redraw the
/// character's posted sheet card (another character's card is left alone).
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn issue_28_a_willpower_spend_redraws_the_posted_sheet_card() {
    let t = table("st-wp-card", 1).await;
    ada(&t, 5).await;
    public(&t, "bob", "/st sheet create name:Bo willpower:3").await;
    let ex = run(&t, "alice", "/st sheet show").await;
    let card = ex.message_id.expect("the card is posted");
    let ex = run(&t, "bob", "/st sheet show").await;
    let other = ex.message_id.expect("Bo's card is posted");
    assert!(
        posted(&t, card).contains("■■■■■ 5/5"),
        "{}",
        posted(&t, card)
    );
    let bo = posted(&t, other);

    let out = public(&t, "alice", "/st willpower").await;
    assert_eq!(labels(&out)[0], "Spend willpower");
    let ex = t.click("alice", "Spend willpower").await.unwrap();
    assert_eq!(ex.outputs[0].title(), "✅ Automatic success · 4 successes");
    assert_eq!(sheet(&t, "Ada").await.willpower().current, 4);
    assert!(
        posted(&t, card).contains("■■■■□ 4/5"),
        "{}",
        posted(&t, card)
    );

    // The storyteller's edit and a day's recovery (changes the house rule
    // `player_edits` leaves to the storyteller) redraw it too.
    run(&t, "fc", "/st sheet willpower current:2 player:@alice").await;
    assert!(
        posted(&t, card).contains("■■□□□ 2/5"),
        "{}",
        posted(&t, card)
    );
    run(&t, "fc", "/st recover player:@alice").await;
    assert!(
        posted(&t, card).contains("■■■□□ 3/5"),
        "{}",
        posted(&t, card)
    );
    assert_eq!(posted(&t, other), bo, "Bo's card is not Ada's");
    assert_schema_clean(&t);
    t.stop().await;
}

/// Issue 28: a secret roll, and all that comes of it, stays with the
/// roller and the storyteller: spending willpower on a secret willpower
/// roll does not redraw the character's public sheet card.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn issue_28_a_secret_spend_leaves_the_public_card_alone() {
    let t = table("st-wp-secret-card", 1).await;
    run(&t, "fc", "/fc gm-channel channel:#gm").await;
    ada(&t, 5).await;
    let ex = run(&t, "alice", "/st sheet show").await;
    let card = ex.message_id.expect("the card is posted");
    let before = posted(&t, card);
    assert!(before.contains("■■■■■ 5/5"), "{before}");
    run(&t, "alice", "/st willpower secret:true").await;
    let ex = t.click("alice", "Spend willpower").await.unwrap();
    assert_eq!(ex.outputs[0].title(), "✅ Automatic success · 4 successes");
    assert!(
        ex.outputs.iter().all(|o| !is_card_redraw(o)),
        "{:#?}",
        ex.outputs
    );
    assert_eq!(sheet(&t, "Ada").await.willpower().current, 4);
    assert_eq!(posted(&t, card), before, "the public card is not redrawn");
    t.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn spend_willpower_is_offered_only_when_it_raises_the_roll() {
    let t = table("st-wp-raise", 1).await;
    ada(&t, 5).await;
    // 9, 10, 7, 4, 3 at difficulty 3: 5 successes; buying gives 4, so it
    // is not offered and the roll stands at once.
    let out = public(&t, "alice", "/st willpower difficulty:3").await;
    assert_eq!(dice(&out), "**10** **9** **7** **4** **3**");
    assert_eq!(out.title(), "✅ Success · 5 successes");
    assert_eq!(
        after_dice(&out),
        "Willpower 5 (unchanged)\nSpend willpower not offered: it would give 4 successes, no more than this roll."
    );
    assert!(out.buttons().is_empty());
    assert_eq!(sheet(&t, "Ada").await.willpower().current, 5);
    // The session is closed at creation: an old-style spend click on it
    // changes nothing.
    let msg = t.last_message_for("alice").unwrap();
    let ex = t
        .click_custom_id("alice", msg.id, "st:2:0:spend", None)
        .await
        .unwrap();
    assert_eq!(ex.only().kind, "update");
    assert_eq!(sheet(&t, "Ada").await.willpower().current, 5);
    // A roll of 1 success is offered (buying gives 4); if willpower drops
    // to 2 before the click (buying would give 1), a click is refused and
    // nothing changes.
    let out = public(&t, "alice", "/st willpower difficulty:9").await;
    let roll = out.buttons()[0].1.clone();
    assert_eq!(labels(&out)[0], "Spend willpower", "{}", out.text());
    assert_eq!(dice(&out), "**10** **9** 6 2 1✗");
    assert_eq!(out.title(), "⏳ Waiting for Ada · 1 success rolled");
    assert_eq!(
        out.field("Successes").unwrap(),
        "2 − 1 botch = **1** (barely)"
    );
    run(&t, "fc", "/st sheet willpower current:2 player:@alice").await;
    let msg = t.last_message_for("alice").unwrap();
    let ex = t
        .click_custom_id("alice", msg.id, &roll, None)
        .await
        .unwrap();
    assert_eq!(ex.only().kind, "ephemeral", "{}", ex.only().text());
    assert!(
        ex.only()
            .text()
            .contains("Spending willpower would give 1 success, no more than the roll already has"),
        "{}",
        ex.only().text()
    );
    assert_eq!(sheet(&t, "Ada").await.willpower().current, 2);
    assert_schema_clean(&t);
    t.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn keep_after_a_restart_and_void_by_the_fc() {
    let t = table("st-wp-keep", 1).await;
    ada(&t, 5).await;
    public(&t, "alice", "/st willpower").await;
    t.restart().await.unwrap();
    let ex = t.click("alice", "Keep").await.unwrap();
    let up = ex.only();
    assert_eq!(up.kind, "update");
    assert_eq!(up.title(), "✅ Success · 3 successes");
    assert_eq!(after_dice(up), "Willpower 5 (unchanged)");
    assert!(up.buttons().is_empty());
    assert_eq!(sheet(&t, "Ada").await.willpower().current, 5);
    // A late click on the old message changes nothing.
    let msg = t.last_message_for("alice").unwrap();
    let ex = t
        .click_custom_id("alice", msg.id, "st:2:0:spend", None)
        .await
        .unwrap();
    assert_eq!(ex.only().kind, "update");
    assert_eq!(sheet(&t, "Ada").await.willpower().current, 5);

    // The player cannot void; the FC can, and may also decide for them.
    let out = public(&t, "alice", "/st willpower difficulty:3").await;
    assert_eq!(dice(&out), "**10** **9** **6** 2 1✗");
    assert!(
        t.click("alice", "Void").await.is_err(),
        "players never see Void"
    );
    let ex = t.click("alice", "⚙ Storyteller").await.unwrap();
    assert_eq!(ex.only().kind, "ephemeral");
    assert!(ex
        .only()
        .text()
        .contains("Only the storyteller can use these tools"));
    let ex = t.tool("fc", "Void").await.unwrap();
    let up = ex.only();
    assert_eq!(up.title(), "⏹️ Voided by the storyteller");
    assert!(up.buttons().is_empty());
    // Difficulty 9: one success cancelled by a 1, so buying 4 raises the
    // result (ST-11).
    let out = public(&t, "alice", "/st willpower difficulty:9").await;
    assert_eq!(dice(&out), "**10** 5 4 4 1✗");
    let ex = t.click("fc", "Spend willpower").await.unwrap();
    assert!(ex.only().title().starts_with("✅ Automatic success"));
    assert_eq!(sheet(&t, "Ada").await.willpower().current, 4);
    assert_schema_clean(&t);
    t.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_botched_willpower_roll_incapacitates_until_revived_or_recovered() {
    let t = table("st-wp-botch", 1).await;
    ada(&t, 1).await;
    public(&t, "alice", "/st pool dice:5").await; // the seed's first throw
    let out = public(&t, "alice", "/st willpower difficulty:10").await;
    assert_eq!(out.field("Successes").unwrap(), "0 − 1 botch = **−1**");
    assert_eq!(dice(&out), "1✗");
    assert_eq!(out.title(), "💥 Botch");
    assert_eq!(
        after_dice(&out),
        "Willpower 1 → 0\nThe botch costs 1 willpower (now 0).\n💤 Ada is incapacitated (0 willpower): no actions until willpower returns."
    );
    assert!(sheet(&t, "Ada").await.incapacitated());
    refused(
        &t,
        "alice",
        "/st roll traits:Wits",
        "incapacitated (0 willpower) and cannot act",
    )
    .await;
    refused(&t, "alice", "/st willpower", "incapacitated").await;
    let card = public(&t, "alice", "/st sheet show").await;
    assert!(description(&card).contains("💤 **Incapacitated**"));

    // Bob's Bo spends 1 of his own willpower to bring Ada back to 1.
    public(&t, "bob", "/st sheet create name:Bo willpower:3").await;
    let out = public(&t, "fc", "/st revive character:Ada helper:Bo").await;
    assert_eq!(out.title(), "🤝 Bo revives Ada");
    assert_eq!(
        description(&out),
        "Bo spends 1 willpower: ■■□ 2/3\nAda is back: ■ 1/1"
    );
    assert_eq!(sheet(&t, "Bo").await.willpower().current, 2);
    assert_eq!(sheet(&t, "Ada").await.willpower().current, 1);
    refused(
        &t,
        "fc",
        "/st revive character:Ada helper:Bo",
        "Only an incapacitated character",
    )
    .await;

    // Or she regains the first dot alone once out of danger.
    run(&t, "fc", "/st sheet willpower current:0 player:@alice").await;
    let out = public(&t, "fc", "/st recover first_dot:true player:@alice").await;
    assert_eq!(out.title(), "🌅 Ada regains the first dot of willpower");
    assert!(description(&out).contains("Ada is no longer incapacitated."));
    assert!(!sheet(&t, "Ada").await.incapacitated());
    refused(
        &t,
        "fc",
        "/st recover first_dot:true player:@alice",
        "Only a character with 0 willpower",
    )
    .await;
    assert_schema_clean(&t);
    t.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn willpower_ignores_wounds_once_per_turn() {
    let t = table("st-wounds", 2).await;
    ada(&t, 2).await;
    run(
        &t,
        "fc",
        "/st sheet wounds dice:1 difficulty:1 player:@alice",
    )
    .await;
    let card = public(&t, "alice", "/st sheet show").await;
    let custom_id = card.buttons()[0].1.clone();
    assert_eq!(custom_id, "st_sheet:2:0:ignore");
    // Strangers cannot spend Ada's willpower.
    let ex = t
        .click("bob", "Ignore wound penalty (1 willpower)")
        .await
        .unwrap();
    assert!(ex
        .only()
        .text()
        .contains("Only Ada's player or the storyteller"));
    // A double click spends once.
    let msg = t.last_message_for("alice").unwrap();
    let first = t
        .click_custom_id("alice", msg.id, &custom_id, None)
        .await
        .unwrap();
    let second = t
        .click_custom_id("alice", msg.id, &custom_id, None)
        .await
        .unwrap();
    let up = first.of_kind("update").unwrap();
    assert!(description(up).contains("🩹 The next action ignores the wound penalty."));
    assert!(up.buttons().is_empty());
    assert_eq!(
        first.of_kind("message").unwrap().content(),
        "🩹 Ada: 1 willpower spent to ignore the wound penalty (now 1). The next action ignores the wound penalty."
    );
    assert_eq!(second.only().kind, "update");
    let s = sheet(&t, "Ada").await;
    assert_eq!(s.willpower().current, 1);
    assert!(s.ignores_wounds_next_action() && s.wp_wound_ignore_used_this_turn());

    let out = public(&t, "alice", "/st roll traits:\"Wits + Alertness\"").await;
    assert_eq!(
        out.field("Pool").unwrap(),
        "Wits 3 + Alertness 2 = **5 dice** · difficulty 6"
    );
    assert!(footer(&out)
        .contains("Wound penalty (−1 die, +1 difficulty) ignored: willpower was spent."));
    assert_eq!(
        after_dice(&out),
        "This action used the willpower spent to ignore wounds."
    );
    // The next action suffers the penalty, and the spend is used for this turn.
    refused(
        &t,
        "alice",
        "/st roll traits:Wits ignore_wounds:true",
        "only once per turn",
    )
    .await;
    let out = public(&t, "alice", "/st roll traits:\"Wits + Alertness\"").await;
    assert_eq!(
        out.field("Pool").unwrap(),
        "Wits 3 + Alertness 2 = 5 → **4 dice** · difficulty 7"
    );

    // A new turn; spending the last dot defers incapacitation until the action is done.
    let out = public(&t, "fc", "/st turn player:@alice").await;
    assert_eq!(out.title(), "🔄 A new turn for Ada");
    let out = public(
        &t,
        "alice",
        "/st roll traits:\"Wits + Alertness\" ignore_wounds:true",
    )
    .await;
    assert_eq!(
        after_dice(&out),
        "1 willpower spent to ignore the wound penalty (now 0).\n⚠️ Ada is at 0 willpower: incapacitated once this action is done.\nThis action used the willpower spent to ignore wounds.\n💤 Ada is incapacitated (0 willpower): no actions until willpower returns."
    );
    let s = sheet(&t, "Ada").await;
    assert!(s.incapacitated());
    refused(&t, "alice", "/st roll traits:Wits", "incapacitated").await;

    // The FC starts a new turn for everyone.
    refused(
        &t,
        "bob",
        "/st turn everyone:true",
        "Only the storyteller can start a new turn for everyone",
    )
    .await;
    let out = public(&t, "fc", "/st turn everyone:true").await;
    assert_eq!(out.title(), "🔄 A new turn");
    assert!(!sheet(&t, "Ada").await.wp_wound_ignore_used_this_turn());
    assert_schema_clean(&t);
    t.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn rest_and_recovery_restore_willpower_up_to_permanent() {
    let t = table("st-rest", 4).await;
    ada(&t, 5).await;
    run(&t, "fc", "/st sheet willpower current:2 player:@alice").await;
    let out = public(&t, "fc", "/st recover player:@alice").await;
    assert_eq!(out.title(), "🌙 Ada rests for a day");
    assert_eq!(description(&out), "Willpower ■■□□□ 2/5 → ■■■□□ 3/5");
    let out = public(&t, "alice", "/st rest").await;
    assert_eq!(out.title(), "✅ Success · 1 success");
    assert_eq!(author(&out), "Ada · Active rest");
    assert_eq!(
        description(&out),
        "**9** 5 5 5\nA day of rest: +1 willpower (now 4).\nWillpower 4 → 5\nActive rest: +1 willpower (now 5)."
    );
    assert!(out.field("Pool").unwrap().ends_with(" · difficulty 8"));
    assert_eq!(sheet(&t, "Ada").await.willpower().current, 5);
    run(&t, "fc", "/st sheet willpower current:5 player:@alice").await;
    let out = public(&t, "fc", "/st recover player:@alice").await;
    assert!(description(&out).contains("already at its permanent rating"));
    assert_eq!(sheet(&t, "Ada").await.willpower().current, 5);
    assert_schema_clean(&t);
    t.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn rest_at_full_willpower_does_not_roll() {
    let t = table("st-rest-full", 4).await;
    ada(&t, 5).await;
    // The day's +1 first (ST-14's order): 4 → 5 fills the track, so the
    // active-rest roll, which could only lose, is not made.
    run(&t, "fc", "/st sheet willpower current:4 player:@alice").await;
    let before = logged(&t).await;
    let out = public(&t, "alice", "/st rest").await;
    assert_eq!(out.title(), "✅ Rested · willpower 5/5");
    assert_eq!(author(&out), "Ada · Active rest");
    assert_eq!(
        description(&out),
        "A day of rest: +1 willpower (now 5).\nNo active-rest roll: willpower is at its permanent rating, so the roll could only lose some."
    );
    assert!(out.buttons().is_empty());
    assert_eq!(sheet(&t, "Ada").await.willpower().current, 5);
    assert_eq!(logged(&t).await, before + 1, "the day is logged");
    // Already full: never a roll, never a loss (seed 4 would botch some).
    for _ in 0..6 {
        let out = public(&t, "alice", "/st rest").await;
        assert!(
            description(&out).starts_with(
                "A day of rest: willpower is already at its permanent 5.\nNo active-rest roll"
            ),
            "{}",
            description(&out)
        );
        assert_eq!(sheet(&t, "Ada").await.willpower().current, 5);
    }
    // Below permanent after the day, the roll is made as before.
    run(&t, "fc", "/st sheet willpower current:2 player:@alice").await;
    let out = public(&t, "alice", "/st rest").await;
    assert!(
        after_dice(&out).starts_with("A day of rest: +1 willpower (now 3).\nWillpower 3"),
        "{}",
        description(&out)
    );
    assert_schema_clean(&t);
    t.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn players_edit_their_own_sheets_and_the_fc_any() {
    let t = table("st-rights", 1).await;
    ada(&t, 5).await;
    refused(
        &t,
        "bob",
        "/st sheet set trait:Wits dots:5 character:Ada",
        "No character named `Ada`",
    )
    .await;
    refused(
        &t,
        "bob",
        "/st sheet set trait:Wits dots:5 player:@alice",
        "Only the storyteller can act on another player's sheet",
    )
    .await;
    refused(
        &t,
        "bob",
        "/st roll traits:Wits player:@alice",
        "Only the storyteller can act on another player",
    )
    .await;
    refused(
        &t,
        "bob",
        "/st sheet create name:Evil willpower:3 player:@alice",
        "Only the storyteller can create a character for another player",
    )
    .await;
    refused(
        &t,
        "bob",
        "/st-gm settings set name:st_default_difficulty value:9",
        "Only the storyteller can change the Storyteller settings",
    )
    .await;
    assert_eq!(sheet(&t, "Ada").await.attribute("Wits").unwrap().dots, 3);

    let ex = run(&t, "fc", "/st sheet set trait:Wits dots:5 player:@alice").await;
    assert_eq!(ex.only().kind, "ephemeral");
    run(
        &t,
        "fc",
        "/st sheet set trait:Strength dots:2 character:Ada",
    )
    .await;
    let s = sheet(&t, "Ada").await;
    assert_eq!(
        (
            s.attribute("Wits").unwrap().dots,
            s.attribute("Strength").unwrap().dots
        ),
        (5, 2)
    );
    let out = public(&t, "fc", "/st roll traits:\"Wits + Str\" player:@alice").await;
    assert_eq!(author(&out), "Ada · Wits + Strength");
    // The FC makes a sheet for a player, who then plays it.
    public(&t, "fc", "/st sheet create name:Bo willpower:3 player:@bob").await;
    let card = public(&t, "bob", "/st sheet show").await;
    assert_eq!(card.title(), "📜 Bo");
    // And an NPC of their own, rolled on the fly.
    public(&t, "fc", "/st sheet create name:Guard willpower:4").await;
    let out = public(&t, "fc", "/st roll traits:Reflexes character:Guard").await;
    assert_eq!(author(&out), "Guard · Reflexes");
    assert_schema_clean(&t);
    t.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_pool_is_an_attribute_and_an_ability_or_attributes_alone() {
    let t = table("st-pools", 1).await;
    ada(&t, 5).await;
    // ST-1: an ability alone is refused, and nothing is logged.
    let before = logged(&t).await;
    refused(
        &t,
        "alice",
        "/st roll traits:Alertness",
        "Alertness is an ability: roll it with an attribute, as in `Wits + Alertness`. A pool is an attribute plus an ability, or one or two attributes; the storyteller can allow abilities alone (house rule `st_ability_alone`).",
    )
    .await;
    assert_eq!(logged(&t).await, before);
    // An attribute alone, two attributes, an attribute and an ability.
    for traits in ["Wits", "\"Wits + Reflexes\"", "\"Wits + Alertness\""] {
        public(&t, "alice", &format!("/st roll traits:{traits}")).await;
    }
    // The house rule is in the settings catalogue and in /help.
    run(&t, "fc", "/fc set name:system value:storyteller").await;
    let ex = run(&t, "alice", "/game").await;
    assert!(ex
        .only()
        .field("st_ability_alone")
        .unwrap()
        .starts_with("**off**"));
    let ex = run(&t, "alice", "/help system:Storyteller").await;
    assert!(
        ex.only().text().contains("`st_ability_alone`"),
        "{}",
        ex.only().text()
    );
    // Only the storyteller turns it on; then an ability may be rolled alone.
    refused(
        &t,
        "alice",
        "/st-gm settings set name:st_ability_alone value:on",
        "can change the Storyteller settings", // (the shared settings command words it)
    )
    .await;
    public(
        &t,
        "fc",
        "/st-gm settings set name:st_ability_alone value:on",
    )
    .await;
    let out = public(&t, "alice", "/st roll traits:Alertness").await;
    assert_eq!(author(&out), "Ada · Alertness");
    assert_eq!(
        out.field("Pool").unwrap(),
        "Alertness 2 = **2 dice** · difficulty 6"
    );
    t.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn willpower_points_to_its_roll_and_unknown_traits_get_near_names() {
    let t = table("st-names", 1).await;
    ada(&t, 5).await;
    let before = logged(&t).await;
    refused(
        &t,
        "alice",
        "/st roll traits:Willpower",
        "Willpower is not a trait for `/st roll`: use `/st willpower` for a willpower roll (current willpower alone, ST-10).",
    )
    .await;
    refused(
        &t,
        "alice",
        "/st roll traits:\"Wits + Alertnez\"",
        "There is no trait called `Alertnez`. Did you mean Alertness?",
    )
    .await;
    refused(
        &t,
        "alice",
        "/st roll traits:\"Percepshun + Alertness\"",
        "There is no trait called `Percepshun`. Did you mean Perception?",
    )
    .await;
    assert_eq!(logged(&t).await, before, "nothing rolled");
    t.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_fc_changes_settings_and_adds_custom_traits() {
    let t = table("st-settings", 1).await;
    ada(&t, 5).await;
    run(&t, "fc", "/fc set name:system value:storyteller").await;
    let ex = run(&t, "alice", "/game").await;
    let out = ex.only();
    assert_eq!(out.kind, "ephemeral");
    assert!(out
        .field("st_default_difficulty")
        .unwrap()
        .starts_with("**6**"));
    assert!(out
        .field("st_zero_pool")
        .unwrap()
        .starts_with(r"**auto\_fail**"));

    let out = public(
        &t,
        "fc",
        "/st-gm settings set name:st_default_difficulty value:7",
    )
    .await;
    assert!(description(&out).starts_with("**st_default_difficulty**: 6 → **7**"));
    let out = public(&t, "alice", "/st roll traits:\"Wits + Alertness\"").await;
    // The server's default difficulty is in the pool; the footer has no
    // line for it (issue 16).
    assert!(out.field("Pool").unwrap().ends_with(" · difficulty 7"));
    assert!(
        footer(&out).starts_with("Chance before rolling"),
        "{}",
        footer(&out)
    );

    public(
        &t,
        "fc",
        "/st-gm settings set name:st_custom_traits value:\"Charisma:attribute, Hacking:skill\"",
    )
    .await;
    public(
        &t,
        "fc",
        "/st-gm settings set name:st_trait_aliases value:Cha=Charisma",
    )
    .await;
    let ex = run(&t, "alice", "/st sheet set trait:cha dots:4").await;
    assert_eq!(
        description(ex.only()),
        "Charisma (Attribute): ○○○○○ → ●●●●○ (4)"
    );
    let out = public(
        &t,
        "alice",
        "/st roll traits:\"Cha + Hacking\" difficulty:6",
    )
    .await;
    assert_eq!(
        out.field("Pool").unwrap(),
        "Charisma 4 + Hacking 0 = **4 dice** · difficulty 7",
        "an unskilled skill: +1"
    );

    public(
        &t,
        "fc",
        "/st-gm settings set name:st_bonus_dice_per_ten value:one",
    )
    .await;
    run(
        &t,
        "alice",
        "/st sheet specialty ability:Alertness name:Terrain",
    )
    .await;
    let out = public(
        &t,
        "alice",
        "/st roll traits:\"Wits + Alertness\" specialties:\"Terrain, Night Vision\"",
    )
    .await;
    assert!(out
        .field("Pool")
        .unwrap()
        .ends_with(" · Terrain, Night Vision +1 die per 10"));

    refused(
        &t,
        "fc",
        "/st-gm settings set name:st_default_difficulty value:11",
        "from 2 to 10",
    )
    .await;
    refused(
        &t,
        "fc",
        "/st-gm settings set name:st_bogus value:1",
        "no Storyteller setting called `st_bogus`",
    )
    .await;
    refused(
        &t,
        "fc",
        "/st-gm settings set name:st_trait_aliases value:Zed=Nothing",
        "must point at a trait",
    )
    .await;
    assert_schema_clean(&t);
    t.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_sandbox_example_plays_clean() {
    let t = table("st-example", 1).await;
    let script = std::fs::read_to_string(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/examples/storyteller.txt"
    ))
    .unwrap();
    let mut played = 0;
    for line in script.lines() {
        let Some((who, ex)) = t
            .run_line(line)
            .await
            .unwrap_or_else(|e| panic!("{line}: {e}"))
        else {
            continue;
        };
        played += 1;
        for out in &ex.outputs {
            assert!(
                !out.content().starts_with("⚠️"),
                "{who}: {line}: {}",
                out.content()
            );
        }
    }
    assert!(played > 20);
    assert_schema_clean(&t);
    t.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_table_example_approves_rejects_and_undoes() {
    let t = table("st-table-example", 1).await;
    let script = std::fs::read_to_string(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/examples/storyteller-table.txt"
    ))
    .unwrap();
    let mut seen = Vec::new();
    for line in script.lines() {
        let Some((who, ex)) = t
            .run_line(line)
            .await
            .unwrap_or_else(|e| panic!("{line}: {e}"))
        else {
            continue;
        };
        for out in &ex.outputs {
            assert!(
                !out.content().starts_with("⚠️") && !out.text().contains("⚠️"),
                "{who}: {line}: {}",
                out.text()
            );
            seen.push(out.text());
        }
    }
    let all = seen.join("\n");
    for needle in [
        "asks to change Ada's willpower ■■■■■■ 6/6 → ■■■■□□ 4/6",
        "Approved by",
        "asks to change Bo's wound penalty −2 dice, +1 difficulty → none",
        "Rejected by",
        "✅ Automatic success · 4 successes",
        "Put back: Willpower 1 → 4",
    ] {
        assert!(all.contains(needle), "{needle} in\n{all}");
    }
    // The sheets afterwards: Ada's approved change, Bo's rejected one not
    // applied, his own spend kept and the storyteller's mistake undone.
    let ada = sheet(&t, "Ada").await;
    assert_eq!((ada.willpower().current, ada.willpower().permanent), (4, 6));
    assert!(ada.wound_penalty().is_none());
    let bo = sheet(&t, "Bo").await;
    assert_eq!((bo.willpower().current, bo.willpower().permanent), (4, 5));
    let w = bo.wound_penalty();
    assert_eq!((w.dice, w.difficulty), (2, 1));
    assert_schema_clean(&t);
    t.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_expired_willpower_choice_keeps_the_roll() {
    let t = table("st-expiry", 1).await;
    ada(&t, 5).await;
    public(&t, "alice", "/st willpower").await;
    // Fifteen minutes pass: move the session's expiry into the past.
    let db = t.db().await.unwrap();
    let mut tx = db.write().await.unwrap();
    let s = storage::sessions::get(&mut tx, GUILD_ID as i64, 2)
        .await
        .unwrap()
        .unwrap();
    assert_eq!(s.status.as_str(), "open");
    let past = storage::now_ms() - 1;
    storage::sessions::update(
        &mut tx,
        2,
        0,
        &s.state,
        kismet::storage::sessions::Status::Open,
        Some(past),
        past,
    )
    .await
    .unwrap()
    .unwrap();
    tx.commit().await.unwrap();
    let msg = t.last_message_for("alice").unwrap();
    let ex = t
        .click_custom_id("alice", msg.id, "st:2:1:spend", None)
        .await
        .unwrap();
    let up = ex.of_kind("update").unwrap();
    assert!(up.text().contains("Timed out: the roll stands as rolled."));
    assert!(up.buttons().is_empty());
    assert_eq!(up.title(), "✅ Success · 3 successes");
    assert!(ex
        .of_kind("ephemeral")
        .unwrap()
        .content()
        .contains("timed out"));
    assert_eq!(sheet(&t, "Ada").await.willpower().current, 5);
    assert_schema_clean(&t);
    t.stop().await;
}

/// Issue 31 item 6: results that do not contradict themselves. In the
/// example (seed 1): a bought willpower success shows its successes, not
/// the arithmetic of dice that no longer count (ST-11), and a day of
/// active rest whose roll added nothing is not a red "Simple failure" when
/// the day raised willpower (ST-14).
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn issue_31_a_bought_success_and_a_days_rest_say_what_happened() {
    let t = table("st-words", 1).await;
    let script = std::fs::read_to_string(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/examples/storyteller.txt"
    ))
    .unwrap();
    let (mut bought, mut rest) = (None, None);
    for line in script.lines() {
        let Some((_, ex)) = t.run_line(line).await.unwrap() else {
            continue;
        };
        if line == "alice: click Spend willpower" {
            bought = Some(ex.only().clone());
        }
        if line == "alice: /st rest" {
            rest = Some(ex.only().clone());
        }
    }
    let bought = bought.expect("the example buys a success");
    assert_eq!(bought.title(), "✅ Automatic success · 4 successes");
    assert_eq!(
        bought.field("Successes").as_deref(),
        Some("**4**, automatic: the dice no longer count")
    );
    let rest = rest.expect("the example rests");
    assert_eq!(
        rest.title(),
        "🟡 Rested · +1 willpower (the roll added none)"
    );
    let text = rest.text();
    assert!(
        text.contains("A day of rest: +1 willpower (now 3).")
            && text.contains("Willpower 3 (the roll added none)")
            && !text.contains("unchanged"),
        "{text}"
    );
    assert_eq!(
        rest.embeds()[0]["color"],
        serde_json::json!(kismet::app::view::colour::PARTIAL)
    );
    t.stop().await;
}

/// A specialty's name is shown as typed: its markdown is escaped on the
/// sheet, in the answer that adds it and on the roll that uses it, while
/// the command it suggests keeps the name as typed (what resolves).
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_specialty_named_with_markdown_shows_as_typed() {
    let t = table("st-specialty-markdown", 1).await;
    public(&t, "alice", "/st sheet create name:Ada willpower:5").await;
    run(&t, "alice", "/st sheet set trait:Wits dots:3").await;
    run(&t, "alice", "/st sheet set trait:Alertness dots:2").await;
    let added = run(
        &t,
        "alice",
        "/st sheet specialty ability:Alertness name:\"*Night*_Vision\"",
    )
    .await;
    let text = added.only().text();
    assert!(
        text.contains(r"new advanced specialty **\*Night\*\_Vision**")
            && text.contains("`specialties:*Night*_Vision`"),
        "{text}"
    );
    let shown = public(&t, "alice", "/st sheet show").await;
    assert!(
        shown
            .text()
            .contains(r"**Alertness**: \*Night\*\_Vision (adv.)"),
        "{}",
        shown.text()
    );
    let out = public(
        &t,
        "alice",
        "/st roll traits:\"Wits + Alertness\" specialties:\"*Night*_Vision\"",
    )
    .await;
    assert_eq!(
        out.field("Pool").unwrap(),
        r"Wits 3 + Alertness 2 = **5 dice** · difficulty 6 · \*Night\*\_Vision +1 die per 10"
    );
    t.stop().await;
}

/// A character's name is drawn without markdown where it is prose (the
/// sheet's title, an edit's answer, a roll waiting for the willpower
/// choice), as Veracity draws it: `A*d_a` reads `Ada` and never pairs with
/// the message's own bold. The roll's author line, which Discord shows as
/// plain text, keeps it as typed.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_character_named_with_markdown_reads_plainly_in_prose() {
    let t = table("st-name-markdown", 1).await;
    let created = public(&t, "alice", "/st sheet create name:A*d_a willpower:5").await;
    assert_eq!(created.title(), "📜 Ada");
    let set = run(&t, "alice", "/st sheet set trait:Wits dots:3").await;
    assert_eq!(
        set.outputs[0].text(),
        "\n📜 Ada\nWits (Attribute): ●○○○○ → ●●●○○ (3)"
    );
    run(&t, "alice", "/st sheet set trait:Alertness dots:2").await;
    let shown = public(&t, "alice", "/st sheet show").await;
    assert_eq!(shown.title(), "📜 Ada");
    let out = public(&t, "alice", "/st roll traits:\"Wits + Alertness\"").await;
    assert_eq!(author(&out), "A*d_a · Wits + Alertness");
    let out = public(&t, "alice", "/st willpower").await;
    assert_eq!(author(&out), "A*d_a · Willpower");
    assert_eq!(out.title(), "⏳ Waiting for Ada · 2 successes rolled");
    let kept = t.click("bob", "Keep").await.unwrap();
    assert_eq!(
        kept.only().content(),
        "⚠️ Only Ada's player or the storyteller can decide this roll."
    );
    t.stop().await;
}

/// A custom trait's name shows as typed, its markdown escaped, in the
/// answer that adds it, on the sheet and in a roll's pool; the roll's
/// author line (plain text) keeps it as typed.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_custom_trait_named_with_markdown_shows_as_typed() {
    let t = table("st-trait-markdown", 1).await;
    public(&t, "alice", "/st sheet create name:Ada willpower:5").await;
    run(&t, "alice", "/st sheet set trait:Wits dots:3").await;
    let added = run(
        &t,
        "alice",
        "/st sheet set trait:*Sh_adow* kind:talent dots:2",
    )
    .await;
    assert_eq!(
        added.outputs[0].text(),
        "\n📜 Ada\nNew custom talent **\\*Sh\\_adow\\***: ●●○○○ (2)."
    );
    let shown = public(&t, "alice", "/st sheet show").await;
    assert_eq!(
        shown.field("Talents").unwrap(),
        "\\*Sh\\_adow\\* ●●○○○\n*0 dots:* Alertness, Athletics, Firearms, Melee, Stealth, Streetwise"
    );
    let out = public(&t, "alice", "/st roll traits:\"Wits + *Sh_adow*\"").await;
    assert_eq!(author(&out), "Ada · Wits + *Sh_adow*");
    assert_eq!(
        out.field("Pool").unwrap(),
        "Wits 3 + \\*Sh\\_adow\\* 2 = **5 dice** · difficulty 6"
    );
    t.stop().await;
}
