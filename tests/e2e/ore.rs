//! Virtual Veil (`/vv`) through the fake Discord: sheets, the COMP, stat
//! rolls with the register (cache dice, loading, Minor actions, sets,
//! overflow discards), damage with Fault dice and Injuries, the End phase,
//! healing and repair, combat orders, settings, rights, double clicks,
//! restarts, bad input, the largest pools and the example script.

use crate::common::{assert_schema_clean, table};
use kismet::fake::table::{Exchange, Output, Table, GUILD_ID};
use kismet::rules::ore::sheet::{CacheSource, Severity};
use kismet::rules::ore::OreSheet;
use serde_json::Value;

/// Alice's Ann: every stat given (the other Virtual Veil tests use her too).
pub(crate) const ANN: &str = "/vv sheet create name:Ann agility:4 physique:2 precision:3 vitality:5 cyber:3 engineering:4 ingenuity:3 wit:6 charisma:2 confidence:4 performance:2 stealth:3";

/// `owner`'s Virtual Veil sheet `name`, as stored.
pub(crate) async fn sheet_of(t: &Table, owner: &str, name: &str) -> OreSheet {
    let db = t.db().await.unwrap();
    let mut tx = db.read().await.unwrap();
    let row = kismet::storage::characters::by_name(
        &mut tx,
        GUILD_ID as i64,
        "ore",
        Table::user_id(owner) as i64,
        name,
    )
    .await
    .unwrap()
    .unwrap_or_else(|| panic!("{owner} has no sheet {name}"));
    serde_json::from_str(&row.sheet).unwrap()
}

async fn log_count(t: &Table) -> i64 {
    let db = t.db().await.unwrap();
    let mut tx = db.read().await.unwrap();
    kismet::storage::log::count(&mut tx, GUILD_ID as i64)
        .await
        .unwrap()
}

async fn cmd(t: &Table, who: &str, line: &str) -> Exchange {
    t.command(who, line)
        .await
        .unwrap_or_else(|e| panic!("{line}: {e}"))
}

fn desc(o: &Output) -> String {
    o.embeds()[0]["description"]
        .as_str()
        .unwrap_or("")
        .to_string()
}

/// The first line of the description: a roll's dice (issue 16).
fn first_line(o: &Output) -> String {
    desc(o).lines().next().unwrap_or("").to_string()
}

/// The author line: who rolled what.
fn author(o: &Output) -> String {
    o.embeds()[0]["author"]["name"]
        .as_str()
        .unwrap_or("")
        .to_string()
}

/// The footer: what the roll needed and its chance.
fn footer(o: &Output) -> String {
    o.embeds()[0]["footer"]["text"]
        .as_str()
        .unwrap_or("")
        .to_string()
}

/// The cache as a roll shows it, in its description's `Cache:` line.
fn cache_of(o: &Output) -> Option<String> {
    desc(o)
        .lines()
        .find_map(|l| l.strip_prefix("Cache: ").map(str::to_string))
}

fn labels(o: &Output) -> Vec<String> {
    o.buttons().into_iter().map(|b| b.0).collect()
}

/// Every select menu of a reply: (placeholder, option values).
fn selects(o: &Output) -> Vec<(String, Vec<String>)> {
    o.body["components"]
        .as_array()
        .into_iter()
        .flatten()
        .flat_map(|r| r["components"].as_array().cloned().unwrap_or_default())
        .filter(|c| c["type"] == 3)
        .map(|c| {
            (
                c["placeholder"].as_str().unwrap_or("").to_string(),
                c["options"]
                    .as_array()
                    .into_iter()
                    .flatten()
                    .map(|o| o["value"].as_str().unwrap_or("").to_string())
                    .collect(),
            )
        })
        .collect()
}

fn refused(ex: &Exchange, needle: &str) {
    let out = ex.single();
    assert_eq!(out.kind, "ephemeral", "{:#?}", out.body);
    assert!(
        out.content().contains(needle),
        "expected `{needle}` in `{}`",
        out.content()
    );
}

fn faces(cache: &[kismet::rules::ore::sheet::CacheDie]) -> Vec<u32> {
    let mut v: Vec<u32> = cache.iter().map(|d| d.face).collect();
    v.sort_unstable();
    v
}

/// Sums the characters Discord counts toward a command's 8000 limit.
fn command_size(v: &Value) -> usize {
    let mut n = 0;
    for key in ["name", "description"] {
        n += v[key].as_str().map_or(0, |s| s.chars().count());
    }
    for c in v["choices"].as_array().into_iter().flatten() {
        n += c["name"].as_str().map_or(0, |s| s.chars().count());
        n += match &c["value"] {
            Value::String(s) => s.chars().count(),
            other => other.to_string().len(),
        };
    }
    for o in v["options"].as_array().into_iter().flatten() {
        n += command_size(o);
    }
    n
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn vv_registers_within_discords_limits() {
    let t = table("vv-register", 1).await;
    let reg = t.registered();
    let vv = reg
        .as_array()
        .unwrap()
        .iter()
        .find(|c| c["name"] == "vv")
        .expect("/vv is registered")
        .clone();
    let subs: Vec<&str> = vv["options"]
        .as_array()
        .unwrap()
        .iter()
        .map(|o| o["name"].as_str().unwrap())
        .collect();
    for s in [
        "sheet", "roll", "boot", "logout", "battery", "damage", "heal", "repair", "odds",
    ] {
        assert!(subs.contains(&s), "{s} missing from {subs:?}");
    }
    // The Compiler's own commands sit under `/vv-gm` (issue 31 item 1).
    for gm_only in ["order", "endround", "endcombat"] {
        assert!(!subs.contains(&gm_only), "{subs:?}");
    }
    let gm = reg
        .as_array()
        .unwrap()
        .iter()
        .find(|c| c["name"] == "vv-gm")
        .expect("/vv-gm is registered");
    let gm_subs: Vec<&str> = gm["options"]
        .as_array()
        .unwrap()
        .iter()
        .map(|o| o["name"].as_str().unwrap())
        .collect();
    assert_eq!(
        gm_subs,
        [
            "sheet",
            "endround",
            "endcombat",
            "heal",
            "order",
            "combat",
            "settings"
        ]
    );
    assert!(command_size(gm) < 8000);
    let size = command_size(&vv);
    assert!(size < 8000, "/vv is {size} characters, over Discord's 8000");
    println!("/vv registration size: {size} characters");
    assert_schema_clean(&t);
    t.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn vv_sheet_create_show_edit_and_rights() {
    let t = table("vv-sheet", 1).await;
    cmd(&t, "fc", "/fc set name:player_edits value:approval").await;
    let ex = cmd(&t, "alice", ANN).await;
    let out = ex.single();
    assert_eq!(out.kind, "ephemeral");
    assert_eq!(out.title(), "📇 Created Ann");
    assert!(out.field("Mind").unwrap().contains("Wit **6**"));
    assert!(out.field("Tracks").unwrap().contains("Vitality **5/5**"));
    assert!(out
        .field("Defenses")
        .unwrap()
        .contains("Defense **1**\nIntegrity **0**\nResolve **0**"));

    // Stats, tracks (a full track follows its stat), defenses, COMP, status.
    // Vitality also sets its track: the Compiler's (issue 13), asked first.
    let ex = cmd(&t, "alice", "/vv sheet set stat:Vitality value:7").await;
    assert!(
        ex.single()
            .text()
            .contains("Ann's Vitality 5 → 7 (its track's maximum follows)"),
        "{}",
        ex.single().text()
    );
    assert_eq!(sheet_of(&t, "alice", "Ann").await.stats.vitality, 5);
    t.tool("fc", "Approve").await.unwrap();
    // A track is the Compiler's (issue 13): alice's change waits for approval.
    let ex = cmd(&t, "alice", "/vv sheet set stat:Confidence current:2").await;
    assert_eq!(ex.single().title(), "🙋 A change waits for the Compiler");
    assert!(
        ex.single().text().contains("Ann's Confidence 4/4 → 2/4"),
        "{}",
        ex.single().text()
    );
    assert_eq!(sheet_of(&t, "alice", "Ann").await.confidence.current, 4);
    let ex = t.tool("fc", "Approve").await.unwrap();
    assert_eq!(ex.outputs[0].title(), "✅ Change approved");
    let ex = cmd(&t, "alice", "/vv sheet set integrity:2 resolve:1").await;
    assert!(ex
        .single()
        .field("Defenses")
        .unwrap()
        .contains("Defense **1**\nIntegrity **2**\nResolve **1**"));
    let ex = cmd(
        &t,
        "alice",
        "/vv sheet comp cache_size:3 battery_max:5 battery:4 thread_count:2 processing_power:1 distribution:Lumen add_chip:Blade",
    )
    .await;
    let comp = ex.single().field("COMP").unwrap();
    assert!(comp.contains("Distribution: Lumen"), "{comp}");
    assert!(comp.contains("Cache size 3 · Threads 2"), "{comp}");
    assert!(comp.contains("Battery 4/5"), "{comp}");
    assert!(comp.contains("Chips (1/1): Blade"), "{comp}");
    cmd(&t, "alice", "/vv sheet status world:cosmOS").await;
    let s = sheet_of(&t, "alice", "Ann").await;
    assert_eq!(s.stats.vitality, 7);
    assert_eq!((s.vitality.current, s.vitality.max), (7, 7));
    assert_eq!((s.confidence.current, s.confidence.max), (2, 4));
    assert_eq!(
        (s.defenses.defense, s.defenses.integrity, s.defenses.resolve),
        (1, 2, 1)
    );
    assert_eq!(s.comp.cache_max, 3);
    assert_eq!(s.comp.battery_current, 4);
    assert_eq!(s.comp.chips, vec!["Blade".to_string()]);
    assert_eq!(s.world, kismet::rules::ore::sheet::World::CosmOS);

    // A second Chip is over the Processing Power: refused, nothing changes.
    let ex = cmd(&t, "alice", "/vv sheet comp add_chip:Gun").await;
    refused(&ex, "Processing Power allows only 1 Chips");
    // Others cannot see or edit Ann; the FC can.
    refused(
        &cmd(&t, "bob", "/vv sheet show character:Ann").await,
        "No character named `Ann`",
    );
    refused(
        &cmd(&t, "bob", "/vv sheet set stat:Wit value:9 player:alice").await,
        "Only the Compiler can act on another player's sheet",
    );
    refused(
        &cmd(&t, "bob", "/vv sheet show").await,
        "No Virtual Veil characters yet: create one with `/vv sheet create`.",
    );
    let ex = cmd(&t, "fc", "/vv sheet set stat:Wit value:7 character:Ann").await;
    // Issue 16: a sheet edit answers in one line.
    assert_eq!(ex.single().content(), "📇 Ann: Wit 6 → 7.");
    // Duplicate names, and Health without mob mode, are refused.
    refused(
        &cmd(&t, "alice", "/vv sheet create name:ann").await,
        "already a character named",
    );
    refused(
        &cmd(&t, "alice", "/vv sheet create name:Zed health:4").await,
        "Only a mob has a single Health track",
    );
    // The FC makes a mob and a sheet for bob; list and switch.
    let ex = cmd(
        &t,
        "fc",
        "/vv sheet create name:Goons mob:true health:6 agility:3",
    )
    .await;
    assert!(ex
        .single()
        .field("Tracks")
        .unwrap()
        .contains("Health **6/6**"));
    cmd(&t, "fc", "/vv sheet create name:Bo wit:3 player:bob").await;
    cmd(&t, "alice", "/vv sheet create name:Ann2 wit:1").await;
    let ex = cmd(&t, "alice", "/vv sheet show private:true").await;
    assert!(
        ex.single().title().contains("Ann2"),
        "{}",
        ex.single().title()
    );
    t.select("alice", "Play as…", &["Ann".to_string()])
        .await
        .unwrap();
    let ex = cmd(&t, "alice", "/vv sheet show private:true").await;
    assert!(
        ex.single().title().contains("Ann"),
        "{}",
        ex.single().title()
    );
    let ex = cmd(&t, "fc", "/vv-gm sheet show player:@bob").await;
    assert!(
        ex.single().title().contains("Bo"),
        "{}",
        ex.single().title()
    );
    let ex = cmd(&t, "bob", "/vv sheet show").await;
    assert_eq!(ex.single().title(), "📇 Bo");
    // Autocomplete: own names for players, all for the FC.
    let names = t
        .autocomplete("alice", "/vv sheet show character:an", "character")
        .await
        .unwrap();
    let names: Vec<&str> = names.iter().map(|c| c["name"].as_str().unwrap()).collect();
    assert_eq!(names, vec!["Ann", "Ann2"]);
    let names = t
        .autocomplete("fc", "/vv sheet show character:o", "character")
        .await
        .unwrap();
    assert_eq!(names.len(), 2, "{names:?}");
    assert_schema_clean(&t);
    t.stop().await;
}

/// Seed 1: the cache boots as 10 9 7 and Wit rolls 1 10 9 2 6 2.
async fn booted_roll(t: &Table) {
    cmd(t, "alice", ANN).await;
    cmd(
        t,
        "alice",
        "/vv sheet comp cache_size:3 battery_max:5 battery:5",
    )
    .await;
    let ex = cmd(t, "alice", "/vv boot").await;
    let out = ex.single();
    assert_eq!(out.kind, "message");
    assert_eq!(out.title(), "💻 Ann boots the COMP");
    assert!(
        desc(out).contains("Cache rolled: **10 9 7**."),
        "{}",
        desc(out)
    );
    let ex = cmd(t, "alice", "/vv roll stat:Wit label:\"crack the lock\"").await;
    let out = ex.single();
    // Issue 16: the outcome is the title, who rolled what the author line,
    // the dice the first line, the need and its chance the footer.
    assert_eq!(out.title(), "✅ Best set 2×2");
    assert_eq!(author(out), "Ann · Wit (6 dice) · crack the lock");
    let d = desc(out);
    assert!(d.starts_with("**2 2** · 10 9 6 1\n"), "{d}");
    assert!(!d.contains("Rolled:") && !d.contains("Register:"), "{d}");
    assert_eq!(
        footer(out),
        "Needs a dub or better · 84.88% before the roll"
    );
    assert_eq!(cache_of(out).unwrap(), "10 9 7 (3/3)");
    assert_eq!(
        labels(out),
        vec![
            "Use 2×2 (22)",
            "Add cache dice",
            "Load into cache",
            "Minor action",
            "± Modify a die",
            "Close"
        ]
    );
    // With dice in the cache, the select that adds them opens with the
    // roll (issue 31 item 3: a set with a cache die is a pick and a click).
    assert_eq!(
        selects(out),
        vec![(
            "Pick cache dice to add".to_string(),
            vec!["10.1".into(), "9.1".into(), "7.1".into()]
        )]
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn vv_roll_cache_load_minor_set_close_and_discard() {
    let t = table("vv-roll", 1).await;
    booted_roll(&t).await;
    // Add cache dice: the select of the cache is open on the roll
    // (booted_roll checks it).
    let ex = t
        .select(
            "alice",
            "Pick cache dice to add",
            &["10.1".into(), "9.1".into()],
        )
        .await
        .unwrap();
    let out = ex.single();
    assert_eq!(out.kind, "update");
    let d = desc(out);
    assert!(d.starts_with("**10 10** · **9 9** · **2 2** · 6 1"), "{d}");
    assert!(d.contains("Unused from the cache: 10 9"), "{d}");
    assert_eq!(cache_of(out).unwrap(), "7 (1/3)");
    assert_eq!(
        labels(out)[..3],
        ["Use 2×10 (30)", "Use 2×9 (29)", "Use 2×2 (22)"]
    );
    assert_eq!(faces(&sheet_of(&t, "alice", "Ann").await.cache), vec![7]);
    // Load the 6 (register die 5, value 4) into the cache.
    t.click("alice", "Load into cache").await.unwrap();
    let ex = t
        .select("alice", "Pick register dice to load", &["4".into()])
        .await
        .unwrap();
    let out = ex.single();
    assert!(desc(out).contains("Loaded into the cache: 6"));
    assert_eq!(cache_of(out).unwrap(), "7 6 (2/3)");
    let s = sheet_of(&t, "alice", "Ann").await;
    assert_eq!(faces(&s.cache), vec![6, 7]);
    assert!(s
        .cache
        .iter()
        .any(|d| d.face == 6 && d.source == CacheSource::Loaded));
    // A Minor action spends the loose 1.
    t.click("alice", "Minor action").await.unwrap();
    let ex = t
        .select("alice", "Pick a die to spend", &["0".into()])
        .await
        .unwrap();
    assert_eq!(ex.single().field("Actions").unwrap(), "1. Minor: spent a 1");
    // Use the dub of 2s.
    let ex = t.click("alice", "Use 2×2 (22)").await.unwrap();
    let out = ex.single();
    assert!(
        first_line(out).starts_with("**10 10** · **9 9**"),
        "{}",
        desc(out)
    );
    assert_eq!(
        out.field("Actions").unwrap(),
        "1. Minor: spent a 1\n2. Basic: **2×2 (22)**"
    );
    // Close: the unused cache dice go back, the cache overflows, a discard is due.
    let ex = t.click("alice", "Close").await.unwrap();
    let out = ex.single();
    assert_eq!(cache_of(out).unwrap(), "10 9 7 6 (4/3)");
    assert!(
        out.text().contains("The cache is 1 over its maximum"),
        "{}",
        out.text()
    );
    assert!(labels(out).is_empty(), "only the discard select is left");
    assert_eq!(
        selects(out),
        vec![(
            "Discard which?".to_string(),
            vec!["c:6".into(), "c:7".into(), "c:9".into(), "c:10".into()]
        )]
    );
    let ex = t
        .select("alice", "Discard which?", &["c:6".into()])
        .await
        .unwrap();
    let out = ex.single();
    assert!(
        out.text().contains("Discarded a 6 from the cache."),
        "{}",
        out.text()
    );
    assert!(out.text().contains("Register cleared."));
    assert!(out.body["components"]
        .as_array()
        .is_none_or(|c| c.is_empty()));
    let s = sheet_of(&t, "alice", "Ann").await;
    assert_eq!(faces(&s.cache), vec![7, 9, 10]);
    assert_eq!(
        s.combat.called_stat,
        Some(kismet::rules::ore::sheet::Stat::Wit)
    );
    // sheet ×2, boot, roll, add, load, minor, basic, close, discard.
    assert_eq!(log_count(&t).await, 10);
    // The closed roll's buttons are gone; a forged click is told so.
    let msg = t.last_message_for("alice").unwrap();
    let ex = t
        .click_custom_id("alice", msg.id, "vv:1:8:close", None)
        .await
        .unwrap();
    assert!(ex
        .outputs
        .iter()
        .any(|o| o.content().contains("already finished")));
    assert_schema_clean(&t);
    t.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn vv_double_click_spends_once_and_strangers_are_refused() {
    let t = table("vv-double", 1).await;
    booted_roll(&t).await;
    let msg = t.last_message_for("alice").unwrap();
    let (_, id, _) = t
        .last_message_for("alice")
        .map(|m| {
            Output {
                to: "alice".into(),
                kind: "message".into(),
                body: m.body,
                files: Vec::new(),
                message_id: Some(m.id),
            }
            .buttons()
            .into_iter()
            .find(|b| b.0 == "Use 2×2 (22)")
            .unwrap()
        })
        .unwrap();
    let first = t.click_custom_id("alice", msg.id, &id, None).await.unwrap();
    let second = t.click_custom_id("alice", msg.id, &id, None).await.unwrap();
    assert_eq!(
        first.single().field("Actions").unwrap(),
        "1. Basic: **2×2 (22)**"
    );
    assert_eq!(second.single().kind, "update");
    assert_eq!(
        second.single().body["embeds"],
        first.single().body["embeds"]
    );
    // bob may not touch Ann's roll; the FC may.
    refused(
        &t.click("bob", "Close").await.unwrap(),
        "Only Ann's player (or the Compiler)",
    );
    refused(
        &t.click("bob", "Add cache dice").await.unwrap(),
        "Only Ann's player (or the Compiler)",
    );
    refused(
        &cmd(
            &t,
            "bob",
            "/vv damage target:Vitality amount:2 player:alice",
        )
        .await,
        "Only the Compiler can act on another player's sheet",
    );
    refused(
        &cmd(&t, "bob", "/vv boot character:Ann").await,
        "No character named `Ann`",
    );
    refused(
        &cmd(
            &t,
            "bob",
            "/vv-gm order kind:Outthink entities:\"Ann, x:3\"",
        )
        .await,
        "Only the Compiler can roll Outthink",
    );
    refused(
        &cmd(&t, "bob", "/vv-gm settings set name:vv_max_pool value:20").await,
        "Only the Compiler can change the Virtual Veil settings",
    );
    let ex = t.click("fc", "Close").await.unwrap();
    assert!(ex.single().text().contains("Register cleared."));
    let s = sheet_of(&t, "alice", "Ann").await;
    assert_eq!(faces(&s.cache), vec![7, 9, 10], "the cache was untouched");
    assert_schema_clean(&t);
    t.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn vv_roll_survives_a_restart_mid_flow() {
    let t = table("vv-restart", 1).await;
    booted_roll(&t).await;
    t.restart().await.unwrap();
    let ex = t
        .select("alice", "Pick cache dice to add", &["7.1".into()])
        .await
        .unwrap();
    let out = ex.single();
    assert_eq!(out.kind, "update");
    assert!(
        first_line(out).starts_with("**2 2** · 10 9 7 6 1"),
        "{}",
        desc(out)
    );
    assert_eq!(
        faces(&sheet_of(&t, "alice", "Ann").await.cache),
        vec![9, 10]
    );
    // A stale menu value (the 7 is no longer in the cache) is refused cleanly.
    let msg = t.last_message_for("alice").unwrap();
    let forged = "vv:1:1:sel:cache";
    let ex = t
        .click_custom_id("alice", msg.id, forged, Some(&["7.1".into()]))
        .await
        .unwrap();
    refused(&ex, "no longer holds 1 × 7");
    let ex = t.click("alice", "Close").await.unwrap();
    assert!(ex.single().text().contains("Back into the cache: 7."));
    assert_eq!(
        faces(&sheet_of(&t, "alice", "Ann").await.cache),
        vec![7, 9, 10]
    );
    assert_schema_clean(&t);
    t.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn vv_damage_fault_dice_injuries_end_phase_and_error_dice() {
    // Seed 4: the Fault dice come up 5, 2, 2, 4, 5.
    let t = table("vv-damage", 4).await;
    cmd(&t, "alice", ANN).await;
    let ex = cmd(&t, "fc", "/vv damage target:Vitality amount:1 player:alice").await;
    let out = ex.single();
    assert_eq!(out.kind, "message");
    // Issue 16: the title states what the hit came to.
    assert_eq!(out.title(), "❌ Vitality 4/5 · Fault die 5");
    assert_eq!(author(out), "Ann · 1 Vitality damage");
    let d = desc(out);
    assert!(d.contains("**Vitality −1** → 4/5."), "{d}");
    assert!(d.contains("Fault die: **5**."), "{d}");
    assert!(
        d.contains("(Defense against Vitality: 1; shown only, the Compiler applies it.)"),
        "{d}"
    );
    cmd(
        &t,
        "fc",
        "/vv damage target:Confidence amount:1 player:alice",
    )
    .await;
    let ex = cmd(&t, "fc", "/vv damage target:Cyber amount:1 character:Ann").await;
    let d = desc(ex.single());
    assert!(d.contains("Fault dice now: 5 2 2."), "{d}");
    assert!(
        d.contains("Matching Fault dice (2× 2) become an Injury at the End phase"),
        "{d}"
    );
    // The End phase turns the pair into a Minor Injury.
    let ex = cmd(&t, "fc", "/vv-gm endround player:alice").await;
    let out = ex.single();
    assert_eq!(out.title(), "❌ End phase · Ann hurt");
    assert_eq!(
        out.field("Ann").unwrap(),
        "**Injury: Minor (1 error die per action)** (2 Fault dice showing 2)."
    );
    let s = sheet_of(&t, "alice", "Ann").await;
    assert_eq!(s.fault_dice, vec![5]);
    assert_eq!(s.injuries.len(), 1);
    assert_eq!(s.injuries[0].severity, Severity::Minor);
    assert_eq!(
        (s.vitality.current, s.confidence.current, s.cyber.current),
        (4, 3, 2)
    );
    cmd(&t, "fc", "/vv damage target:Vitality amount:1 player:alice").await;
    cmd(&t, "fc", "/vv damage target:Vitality amount:1 player:alice").await;
    // Only the Compiler runs the End phase for everyone.
    refused(
        &cmd(&t, "alice", "/vv-gm endround all:true").await,
        "Only the Compiler can run the End phase",
    );
    let ex = cmd(&t, "fc", "/vv-gm endround all:true").await;
    assert!(ex
        .single()
        .field("Ann")
        .unwrap()
        .contains("2 Fault dice showing 5"));
    let s = sheet_of(&t, "alice", "Ann").await;
    assert_eq!(s.fault_dice, vec![4]);
    assert_eq!(s.injuries.len(), 2);
    // Two Minor Injuries: 2 Error Dice with each action, shown and labelled.
    let ex = cmd(&t, "alice", "/vv roll stat:Agility").await;
    let out = ex.single();
    assert!(first_line(out).starts_with("**8 8** · 9 3"));
    assert!(
        desc(out).contains("⚠️ 2 error dice per action (Injuries); with the first: **10 9**"),
        "{}",
        desc(out)
    );
    let ex = t.click("alice", "Use 2×8 (28)").await.unwrap();
    assert_eq!(
        ex.single().field("Actions").unwrap(),
        "1. Basic: **2×8 (28)** · ⚠️ error dice **10 9**"
    );
    t.click("alice", "Close").await.unwrap();
    // Damage a defense stops entirely adds no Fault die (vv_defense_mode = subtract).
    cmd(
        &t,
        "fc",
        "/vv-gm settings set name:vv_defense_mode value:subtract",
    )
    .await;
    let ex = cmd(&t, "fc", "/vv damage target:Vitality amount:1 player:alice").await;
    assert!(desc(ex.single()).contains("fully stopped by a defense of 1: no damage, no Fault die."));
    assert_eq!(sheet_of(&t, "alice", "Ann").await.fault_dice, vec![4]);
    // The Compiler heals an Injury; rest then counts (untended rest with an Injury does not).
    let ex = cmd(&t, "fc", "/vv heal days:2 player:alice").await;
    assert!(desc(ex.single()).contains("healing counts only while a professional"));
    refused(
        &cmd(&t, "alice", "/vv-gm heal injury number:1").await,
        "Only the Compiler can mark an Injury healed",
    );
    let ex = cmd(&t, "fc", "/vv-gm heal injury number:1 player:alice").await;
    assert_eq!(desc(ex.single()), "Injury 1 (Minor) healed.");
    let ex = cmd(&t, "fc", "/vv heal days:1 tended:true player:alice").await;
    let d = desc(ex.single());
    assert!(
        d.contains("Vitality +1 → 3/5.") && d.contains("Confidence +1 → 4/4."),
        "{d}"
    );
    refused(
        &cmd(&t, "fc", "/vv-gm heal injury number:1 player:alice").await,
        "already healed",
    );
    refused(
        &cmd(&t, "fc", "/vv-gm heal injury number:9 player:alice").await,
        "no such Injury",
    );
    // End of combat in a stable place clears the Fault dice.
    let ex = cmd(&t, "fc", "/vv-gm endcombat stable:true player:alice").await;
    assert_eq!(ex.single().field("Ann").unwrap(), "Fault dice cleared: 4.");
    let s = sheet_of(&t, "alice", "Ann").await;
    assert!(s.fault_dice.is_empty());
    assert_eq!(s.injuries.iter().filter(|i| !i.healed).count(), 1);
    assert_schema_clean(&t);
    t.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn vv_order_ranks_entities_and_records_values() {
    let t = table("vv-order", 6).await;
    cmd(&t, "alice", ANN).await;
    cmd(&t, "bob", "/vv sheet create name:Bo agility:5 wit:3").await;
    cmd(&t, "bob", "/vv sheet status world:cosmOS").await;
    cmd(&t, "bob", "/vv sheet set stat:Precision value:2").await;
    let ex = cmd(
        &t,
        "fc",
        "/vv-gm order kind:Outthink entities:\"Ann, <@BOB>, drone:4, rat:0\""
            .replace("BOB", &Table::user_id("bob").to_string())
            .as_str(),
    )
    .await;
    let out = ex.single();
    // Issue 16: the order is the title; the dice are grouped into sets.
    assert_eq!(out.title(), "🎲 Call order: rat → Bo → Ann → drone");
    assert_eq!(author(out), "Outthink (Wit)");
    assert_eq!(
        desc(out),
        "1. **drone** — **2×5 (25)** · Wit 4: **5 5** · 8 1\n\
         2. **Ann** — **2×2 (22)** · Wit 6: **2 2** · 7 6 5 3\n\
         3. **Bo** — **17** (loose 7) · Wit 3: 7 4 3\n\
         4. **rat** — **0** (no dice) · Wit 0"
    );
    assert!(footer(out).starts_with("Call order (lowest Outthink first)"));
    // Bo is in cosmOS: Initiative rolls Precision. A tie goes to the higher stat.
    let ex = cmd(
        &t,
        "fc",
        "/vv-gm order kind:Initiative entities:\"Ann, Bo, drone:4\" record:false",
    )
    .await;
    let out = ex.single();
    assert_eq!(
        desc(out),
        "1. **Ann** — **2×3 (23)** · Agility 4: **3 3** · **1 1**\n\
         2. **drone** — **20** (loose 10) · Agility 4: 10 5 4 1\n\
         3. **Bo** — **20** (loose 10) · Precision 2: 10 5"
    );
    assert_eq!(out.title(), "🎲 Resolution order: Ann → drone → Bo");
    assert_eq!(footer(out), "Resolution order (highest first)");
    assert_eq!(
        out.field("Ties").unwrap(),
        "Bo, drone tied at 20: higher stat first"
    );
    let ann = sheet_of(&t, "alice", "Ann").await;
    let bo = sheet_of(&t, "bob", "Bo").await;
    assert_eq!(
        (ann.combat.outthink, ann.combat.initiative),
        (Some(22), None)
    );
    assert_eq!((bo.combat.outthink, bo.combat.initiative), (Some(17), None));
    // Bad lists are refused.
    refused(
        &cmd(&t, "fc", "/vv-gm order kind:Outthink entities:\"Zed\"").await,
        "No sheet named `Zed`",
    );
    refused(
        &cmd(&t, "fc", "/vv-gm order kind:Outthink entities:\"a:x\"").await,
        "the Wit stat, 0 to 99",
    );
    refused(
        &cmd(&t, "fc", "/vv-gm order kind:Outthink entities:\"Ann, Ann\"").await,
        "Ann is listed twice",
    );
    refused(
        &cmd(&t, "fc", "/vv-gm order kind:Outthink entities:\" , \"").await,
        "List the entities",
    );
    let many: Vec<String> = (0..51).map(|i| format!("e{i}:1")).collect();
    refused(
        &cmd(
            &t,
            "fc",
            &format!(
                "/vv-gm order kind:Initiative entities:\"{}\"",
                many.join(",")
            ),
        )
        .await,
        "At most 50 entities",
    );
    // Fifty entities at the largest pool still fit one embed.
    cmd(&t, "fc", "/vv-gm settings set name:vv_max_pool value:30").await;
    let many: Vec<String> = (0..50)
        .map(|i| format!("entity-{i}:{}", i % 30 + 1))
        .collect();
    let ex = cmd(
        &t,
        "fc",
        &format!(
            "/vv-gm order kind:Initiative entities:\"{}\"",
            many.join(",")
        ),
    )
    .await;
    assert!(
        desc(ex.single()).contains("50. **entity-"),
        "{}",
        desc(ex.single())
    );
    // Fifty at 30 dice, with their tie re-rolls, pass the 2000-dice cap: refused.
    let many: Vec<String> = (0..50).map(|i| format!("entity-{i}:30")).collect();
    refused(
        &cmd(
            &t,
            "fc",
            &format!(
                "/vv-gm order kind:Initiative entities:\"{}\"",
                many.join(",")
            ),
        )
        .await,
        "at most 2000 per command",
    );
    assert_schema_clean(&t);
    t.stop().await;
}

/// A "Capped" line too long for its field is shortened, not replaced by
/// "…and 1 more" (it is one line, not a list).
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn vv_order_shortens_a_long_capped_line() {
    let t = table("vv-order-capped", 6).await;
    let names: Vec<String> = (0..20)
        .map(|i| format!("N{i:02}-{}", "x".repeat(60)))
        .collect();
    let typed: Vec<String> = names.iter().map(|n| format!("{n}:40")).collect();
    let ex = cmd(
        &t,
        "fc",
        &format!(
            "/vv-gm order kind:Initiative entities:\"{}\"",
            typed.join(",")
        ),
    )
    .await;
    let capped = ex.single().field("Capped").unwrap();
    assert!(
        capped.starts_with(&format!("{}, {}", names[0], names[1])),
        "{capped}"
    );
    assert!(
        capped.ends_with("… rolled at most 10 dice (vv_max_pool)."),
        "{capped}"
    );
    assert!(!capped.contains("more"), "{capped}");
    assert!(capped.chars().count() <= 1000);
    t.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn vv_repair_checks_restore_one_point() {
    let t = table("vv-repair", 8).await;
    cmd(&t, "fc", "/fc set name:player_edits value:approval").await;
    cmd(&t, "alice", ANN).await;
    cmd(&t, "bob", "/vv sheet create name:Tech engineering:8").await;
    cmd(&t, "fc", "/vv sheet set stat:Cyber current:1 player:alice").await;
    // A repair is the Compiler's (issue 13); a player's waits for approval.
    let ex = cmd(&t, "fc", "/vv repair player:alice").await;
    let out = ex.single();
    // Issue 16: the outcome is the title, the dice the first line.
    assert_eq!(out.title(), "❌ No set");
    assert_eq!(
        author(out),
        "Ann's Engineering (4 dice) · repairs Ann's Cyber"
    );
    assert_eq!(
        desc(out),
        "7 4 3 2\n\
         Failed after 2 hours: wait a day before the next try (`/vv heal`)."
    );
    assert_eq!(
        footer(out),
        "Restoring Cyber to 2 needs a set of height 2 or more · chance 44.91%"
    );
    // A request the rules would refuse is refused at once.
    refused(&cmd(&t, "alice", "/vv repair").await, "wait a day");
    let ex = cmd(&t, "fc", "/vv heal days:1 player:alice").await;
    assert!(desc(ex.single()).contains("wait after a failed Cyber repair is over"));
    // Anyone may make the check: Tech's Engineering.
    let ex = cmd(&t, "fc", "/vv repair engineer:Tech player:alice").await;
    let d = desc(ex.single());
    assert_eq!(ex.single().title(), "✅ Best set 3×3 · Cyber repaired");
    assert_eq!(
        author(ex.single()),
        "Tech's Engineering (8 dice) · repairs Ann's Cyber"
    );
    assert!(d.starts_with("**3 3 3** · **2 2** · 6 4 1\n"), "{d}");
    assert!(d.contains("Cyber 2/3 (takes 2 hours)."), "{d}");
    // Engineering dice instead of a character's: an override, approved by
    // the Compiler, and the check says it was overridden.
    let ex = cmd(&t, "alice", "/vv repair engineering:10").await;
    assert_eq!(ex.single().title(), "🙋 A change waits for the Compiler");
    assert!(
        ex.single()
            .text()
            .contains("Ann's Cyber 2/3 by a repair check with Engineering (overridden: 10 dice)"),
        "{}",
        ex.single().text()
    );
    assert_eq!(sheet_of(&t, "alice", "Ann").await.cyber.current, 2);
    let ex = t.tool("fc", "Approve").await.unwrap();
    assert_eq!(ex.outputs[0].title(), "✅ Change approved");
    let d = desc(&ex.outputs[1]);
    assert!(
        author(&ex.outputs[1]).starts_with("Engineering (overridden: 10 dice) · repairs"),
        "{d}"
    );
    assert!(d.contains("Cyber 3/3 (takes 3 hours)"), "{d}");
    refused(
        &cmd(&t, "alice", "/vv repair").await,
        "already at its maximum",
    );
    cmd(&t, "fc", "/vv sheet set stat:Cyber current:1 player:alice").await;
    cmd(&t, "alice", "/vv sheet status world:Veil").await;
    refused(
        &cmd(&t, "alice", "/vv repair").await,
        "only be repaired in the physical world",
    );
    let s = sheet_of(&t, "alice", "Ann").await;
    assert_eq!((s.cyber.current, s.cyber.max), (1, 3));
    assert_schema_clean(&t);
    t.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn vv_settings_show_set_and_refuse_bad_values() {
    let t = table("vv-settings", 4).await;
    // A one-system server: `/game` shows the house rules in force here.
    cmd(&t, "fc", "/fc set name:system value:ore").await;
    let ex = cmd(&t, "alice", "/game").await;
    let out = ex.single();
    assert_eq!(out.kind, "ephemeral");
    let pool = out.field("vv_max_pool").unwrap();
    assert!(
        pool.starts_with("**10**") && pool.contains("1-30"),
        "{pool}"
    );
    assert!(out
        .field("vv_fault_check")
        .unwrap()
        .starts_with(r"**end\_of\_round**"));
    let ex = cmd(
        &t,
        "fc",
        "/vv-gm settings set name:fault_check value:immediate",
    )
    .await;
    assert!(desc(ex.single()).starts_with(r"**vv_fault_check**: end\_of\_round → **immediate**"));
    refused(
        &cmd(&t, "fc", "/vv-gm settings set name:vv_max_pool value:31").await,
        "vv_max_pool must be a whole number from 1 to 30.",
    );
    refused(
        &cmd(&t, "fc", "/vv-gm settings set name:vv_colour value:red").await,
        "There is no Virtual Veil setting called `vv_colour`",
    );
    let names = t
        .autocomplete("fc", "/vv-gm settings set name:cache value:x", "name")
        .await
        .unwrap();
    let names: Vec<&str> = names.iter().map(|c| c["name"].as_str().unwrap()).collect();
    assert_eq!(
        names,
        vec!["vv_cache_consumed_on_use", "vv_fault_counts_toward_cache"]
    );
    let ex = cmd(&t, "alice", "/game").await;
    assert!(ex
        .single()
        .field("vv_fault_check")
        .unwrap()
        .starts_with("**immediate**"));
    // With `immediate`, a matching Fault die becomes an Injury at once
    // (seed 4 from here: 5, then 2, 2).
    cmd(&t, "alice", ANN).await;
    cmd(&t, "fc", "/vv damage target:Vitality amount:1 player:alice").await;
    cmd(&t, "fc", "/vv damage target:Vitality amount:1 player:alice").await;
    let ex = cmd(&t, "fc", "/vv damage target:Vitality amount:1 player:alice").await;
    let d = desc(ex.single());
    assert!(d.contains("Fault die: **2**.\n**Injury: Minor (1 error die per action)** (2 Fault dice showing 2)."), "{d}");
    assert!(d.contains("Fault dice now: 5."), "{d}");
    let s = sheet_of(&t, "alice", "Ann").await;
    assert_eq!((s.fault_dice.clone(), s.injuries.len()), (vec![5], 1));
    assert_schema_clean(&t);
    t.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn vv_bad_input_is_refused_and_changes_nothing() {
    let t = table("vv-bad", 1).await;
    refused(
        &cmd(&t, "alice", "/vv roll stat:Wit").await,
        "has no active character",
    );
    cmd(&t, "alice", ANN).await;
    refused(
        &cmd(&t, "alice", "/vv roll").await,
        "Choose a `stat` to roll",
    );
    refused(&cmd(&t, "alice", "/vv boot").await, "battery is empty");
    refused(&cmd(&t, "alice", "/vv logout").await, "COMP is not running");
    refused(
        &cmd(&t, "alice", "/vv battery use:1").await,
        "COMP is not running",
    );
    refused(
        &cmd(&t, "alice", "/vv battery").await,
        "Give `use`, `charge` or `plugged_in`",
    );
    refused(
        &cmd(&t, "alice", "/vv battery use:1 charge:1").await,
        "not both at once",
    );
    refused(
        &cmd(&t, "alice", "/vv sheet comp").await,
        "Give at least one COMP value",
    );
    refused(
        &cmd(&t, "alice", "/vv sheet comp battery:3").await,
        "The battery can hold 0 to 0",
    );
    refused(
        &cmd(&t, "alice", "/vv sheet set stat:Cyber current:9").await,
        "Cyber must be from 0 to 3",
    );
    // Issue 31: `/vv sheet set` took in `sheet track` and `sheet defense`;
    // what it cannot set is refused with what it takes.
    refused(
        &cmd(&t, "alice", "/vv sheet set stat:Cyber").await,
        "Give Cyber's new `value:`. Give `stat:` with its `value:`",
    );
    refused(
        &cmd(&t, "alice", "/vv sheet set").await,
        "Give `stat:` with its `value:` (for Vitality, Confidence or Cyber, the track's `current:` or `max:` instead), or `defense:`, `integrity:` or `resolve:`.",
    );
    refused(
        &cmd(&t, "alice", "/vv sheet set stat:Wit current:2").await,
        "Wit has no track: only Vitality, Confidence and Cyber have",
    );
    refused(
        &cmd(&t, "alice", "/vv sheet set stat:Cyber value:3 max:3").await,
        "Set Cyber's `value:` or its track's `current:`/`max:`, one per command.",
    );
    refused(
        &cmd(&t, "alice", "/vv sheet set stat:Wit value:3 defense:2").await,
        "Set the defenses in a command of their own",
    );
    refused(&cmd(&t, "alice", "/vv sheet status").await, "Give `world`");
    refused(
        &cmd(&t, "alice", "/vv sheet status clear_glitch:true").await,
        "Only the Compiler can clear a glitch",
    );
    let long = "x".repeat(201);
    assert!(t.command("alice", "/vv heal days:20000").await.is_err());
    // What Discord's client refuses never reaches the bot.
    assert!(t
        .command("alice", "/vv roll stat:Wit min_width:1")
        .await
        .is_err());
    assert!(t
        .command("alice", &format!("/vv roll stat:Wit label:{long}"))
        .await
        .is_err());
    assert!(t
        .command("alice", "/vv damage target:Vitality amount:0")
        .await
        .is_err());
    assert!(t.command("alice", "/vv roll stat:Luck").await.is_err());
    // Forged clicks: unknown session, foreign kind, bad values.
    let ex = cmd(&t, "alice", "/vv roll stat:Wit").await;
    assert_eq!(ex.single().kind, "message");
    let msg = t.last_message_for("alice").unwrap();
    for (id, values, needle) in [
        ("vv:1:0:basic:11", None, "from 1 to 10"),
        ("vv:1:0:basic:x", None, "not valid"),
        ("vv:1:0:explode", None, "Unknown action"),
        (
            "vv:1:0:sel:load",
            Some(vec!["99".to_string()]),
            "not a register die",
        ),
        (
            "vv:1:0:sel:minor",
            Some(vec!["0".to_string(), "1".to_string()]),
            "Pick one die",
        ),
        (
            "vv:1:0:sel:cache",
            Some(vec!["7.1".to_string()]),
            "COMP is not running",
        ),
        (
            "vv:1:0:discard",
            Some(vec!["c:7".to_string()]),
            "not over its maximum",
        ),
        ("vv:9:0:close", None, "no longer exists"),
    ] {
        let ex = t
            .click_custom_id("alice", msg.id, id, values.as_deref())
            .await
            .unwrap();
        refused(&ex, needle);
    }
    let s = sheet_of(&t, "alice", "Ann").await;
    assert!(s.cache.is_empty());
    // Only the sheet creation and the one roll were logged.
    assert_eq!(log_count(&t).await, 2);
    assert_schema_clean(&t);
    t.stop().await;
}

/// Checks Discord's limits on every reply (the fake validates the schema;
/// this also checks the embed total and select sizes).
fn within_limits(o: &Output) {
    let mut total = 0;
    for e in o.embeds() {
        for p in ["/title", "/description", "/footer/text"] {
            total += e
                .pointer(p)
                .and_then(Value::as_str)
                .map_or(0, |s| s.chars().count());
        }
        for f in e["fields"].as_array().into_iter().flatten() {
            total += f["name"].as_str().unwrap_or("").chars().count();
            let v = f["value"].as_str().unwrap_or("");
            assert!(v.chars().count() <= 1024, "field too long: {v}");
            assert!(!v.ends_with('…') || v.contains("more"), "clamped: {v}");
            total += v.chars().count();
        }
    }
    assert!(total <= 6000, "embed text {total} > 6000");
    for (p, opts) in selects(o) {
        assert!(opts.len() <= 25, "{p}: {} options", opts.len());
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn vv_largest_pools_stay_within_discord_limits() {
    let t = table("vv-large", 2).await;
    cmd(&t, "fc", "/vv-gm settings set name:vv_max_pool value:30").await;
    cmd(&t, "alice", "/vv sheet create name:Max wit:40 agility:30").await;
    cmd(
        &t,
        "alice",
        "/vv sheet comp cache_size:50 battery_max:10 battery:10",
    )
    .await;
    let ex = cmd(&t, "alice", "/vv boot").await;
    within_limits(ex.single());
    assert_eq!(sheet_of(&t, "alice", "Max").await.cache.len(), 50);
    let label = "l".repeat(200);
    let ex = cmd(&t, "alice", &format!("/vv roll stat:Wit label:{label}")).await;
    let out = ex.single();
    within_limits(out);
    assert!(author(out).starts_with("Max · Wit (30 dice) · lll"));
    assert!(out
        .field("Just now")
        .unwrap()
        .contains("40 dice asked for, but a roll uses at most 30 (vv_max_pool); rolling 30."));
    assert!(labels(out).iter().filter(|l| l.starts_with("Use ")).count() <= 5);
    // The cache's select is open on the roll.
    let (_, opts) = selects(out).remove(0);
    // More than 25 cache dice: 23 on this page and a "more" option.
    assert_eq!(opts.len(), 24);
    assert_eq!(opts.last().unwrap(), "page:1");
    let dice: Vec<String> = opts
        .into_iter()
        .filter(|v| !v.starts_with("page:"))
        .collect();
    let ex = t
        .select("alice", "Pick cache dice to add", &dice)
        .await
        .unwrap();
    within_limits(ex.single());
    assert_eq!(sheet_of(&t, "alice", "Max").await.cache.len(), 27);
    for button in ["Load into cache", "Minor action", "Add cache dice"] {
        let ex = t.click("alice", button).await.unwrap();
        within_limits(ex.single());
        assert_eq!(selects(ex.single()).len(), 1, "{button}");
    }
    let ex = t.click("alice", "Load into cache").await.unwrap();
    let (_, opts) = selects(ex.single()).remove(0);
    let dice: Vec<String> = opts
        .into_iter()
        .filter(|v| !v.starts_with("page:"))
        .collect();
    assert_eq!(dice.len(), 23, "53 unused dice page by 23");
    let ex = t
        .select("alice", "Pick register dice to load", &dice)
        .await
        .unwrap();
    within_limits(ex.single());
    // 27 left + 23 loaded = 50: at the maximum, no overflow.
    assert_eq!(sheet_of(&t, "alice", "Max").await.cache.len(), 50);
    // Spend everything left, one set at a time.
    for _ in 0..40 {
        let last = t.last_message_for("alice").unwrap();
        let out = Output {
            to: "alice".into(),
            kind: "message".into(),
            body: last.body,
            files: Vec::new(),
            message_id: Some(last.id),
        };
        let Some(b) = labels(&out).into_iter().find(|l| l.starts_with("Use ")) else {
            break;
        };
        let ex = t.click("alice", &b).await.unwrap();
        within_limits(ex.single());
    }
    let ex = t.click("alice", "Close").await.unwrap();
    within_limits(ex.single());
    // A hundred ad-hoc dice are capped too (a roll is never governed: it
    // rolls at once, overridden).
    let ex = cmd(&t, "alice", "/vv roll dice:100").await;
    assert_eq!(author(ex.single()), "Max · 30 dice (overridden)");
    within_limits(ex.single());
    let ex = cmd(&t, "alice", "/vv sheet show").await;
    within_limits(ex.single());
    assert_schema_clean(&t);
    t.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn vv_comp_overflow_prompt_logout_and_battery() {
    let t = table("vv-comp", 3).await;
    cmd(
        &t,
        "fc",
        "/vv-gm settings set name:vv_fault_counts_toward_cache value:on",
    )
    .await;
    cmd(&t, "alice", ANN).await;
    cmd(
        &t,
        "alice",
        "/vv sheet comp cache_size:2 battery_max:3 battery:3",
    )
    .await;
    let ex = cmd(&t, "alice", "/vv boot").await;
    assert!(desc(ex.single()).contains("Cache rolled: **10 9**."));
    // A Fault die now counts toward the cache: one die must go, the owner chooses.
    let ex = cmd(&t, "fc", "/vv damage target:Vitality amount:1 player:alice").await;
    let out = ex.single();
    assert!(desc(out)
        .contains("Fault die: **8**.\nThe cache is 1 over its maximum: discard a die now."));
    assert_eq!(
        selects(out),
        vec![(
            "Discard which?".to_string(),
            vec!["f:8".into(), "c:9".into(), "c:10".into()]
        )]
    );
    refused(
        &t.select("bob", "Discard which?", &["c:9".into()])
            .await
            .unwrap(),
        "Only Ann's player or the Compiler can choose",
    );
    let ex = t
        .select("alice", "Discard which?", &["f:8".into()])
        .await
        .unwrap();
    let out = ex.single();
    assert_eq!(out.kind, "update");
    assert!(
        desc(out).ends_with("Discarded Fault die 8."),
        "{}",
        desc(out)
    );
    assert!(selects(out).is_empty());
    let s = sheet_of(&t, "alice", "Ann").await;
    assert!(s.fault_dice.is_empty());
    assert_eq!(faces(&s.cache), vec![9, 10]);
    // Left unanswered, the next action discards the lowest die (A-O10).
    let ex = cmd(
        &t,
        "fc",
        "/vv damage target:Confidence amount:1 player:alice",
    )
    .await;
    assert!(desc(ex.single()).contains("Fault die: **1**."));
    let ex = cmd(&t, "alice", "/vv roll stat:Wit").await;
    assert_eq!(
        ex.single().field("Just now").unwrap(),
        "Discarded a 9 from the cache (the lowest, by default)."
    );
    assert_eq!(cache_of(ex.single()).unwrap(), "10 · Fault 1 (2/2)");
    // The old prompt now has nothing to do.
    let ex = t
        .select("alice", "Discard which?", &["c:9".into()])
        .await
        .unwrap();
    assert!(desc(ex.single()).ends_with("The cache is no longer over its maximum."));
    t.click("alice", "Close").await.unwrap();
    // Battery: use, run dry (logged out, cache lost), charge, plug in.
    let ex = cmd(&t, "alice", "/vv battery use:2").await;
    assert!(desc(ex.single()).starts_with("Battery −2 → 1."));
    let ex = cmd(&t, "alice", "/vv battery use:5").await;
    assert!(desc(ex.single())
        .contains("Battery −1 → 0.\nCOMP off (battery empty: logged out); cache lost: 10."));
    refused(&cmd(&t, "alice", "/vv boot").await, "battery is empty");
    let ex = cmd(&t, "alice", "/vv battery charge:2").await;
    assert!(desc(ex.single()).starts_with("Battery +2 → 2."));
    cmd(&t, "alice", "/vv battery plugged_in:true").await;
    // Booting with a Fault die already counted overflows at once.
    let ex = cmd(&t, "alice", "/vv boot").await;
    assert!(desc(ex.single()).contains("Cache rolled: **7 1**."));
    let ex = t
        .select("alice", "Discard which?", &["f:1".into()])
        .await
        .unwrap();
    assert!(desc(ex.single()).ends_with("Discarded Fault die 1."));
    let ex = cmd(&t, "alice", "/vv battery use:3").await;
    assert!(desc(ex.single()).starts_with("Plugged in: no battery used (2 left)."));
    // A smaller cache size asks for discards too.
    let ex = cmd(&t, "alice", "/vv sheet comp cache_size:1").await;
    let out = ex.single();
    assert_eq!(
        (out.kind.as_str(), out.title().as_str()),
        ("message", "💻 Ann's COMP changed")
    );
    assert_eq!(
        selects(out)[0].1,
        vec!["c:1".to_string(), "c:7".to_string()]
    );
    t.select("alice", "Discard which?", &["c:1".into()])
        .await
        .unwrap();
    let ex = cmd(&t, "alice", "/vv logout").await;
    assert!(desc(ex.single()).starts_with("COMP off (logged out); cache lost: 7."));
    let s = sheet_of(&t, "alice", "Ann").await;
    assert!(!s.comp.session_active && s.cache.is_empty() && s.fault_dice.is_empty());
    assert_eq!((s.comp.battery_current, s.comp.plugged_in), (2, true));
    assert_schema_clean(&t);
    t.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn vv_example_script_plays_clean() {
    let t = table("vv-example", 1).await;
    let script = std::fs::read_to_string(
        std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("examples/virtual_veil.txt"),
    )
    .unwrap();
    let mut played = 0;
    let mut refusals = Vec::new();
    for line in script.lines() {
        let Some((who, ex)) = t
            .run_line(line)
            .await
            .unwrap_or_else(|e| panic!("{line}: {e}"))
        else {
            continue;
        };
        played += 1;
        assert!(!ex.outputs.is_empty(), "{line}: no reply");
        for o in &ex.outputs {
            within_limits(o);
            assert!(
                !o.text().contains("Something went wrong"),
                "{line}: {}",
                o.text()
            );
            if o.content().starts_with("⚠️") {
                refusals.push(format!("{who}: {}", o.content()));
            }
        }
    }
    assert!(played > 30, "{played} lines played");
    // The one deliberate refusal: bob pressing Ann's Close.
    assert_eq!(
        refusals,
        vec!["bob: ⚠️ Only Ann's player (or the Compiler) can use this roll.".to_string()]
    );
    let ann = sheet_of(&t, "alice", "Ann").await;
    assert_eq!(
        (
            ann.vitality.current,
            ann.confidence.current,
            ann.cyber.current
        ),
        (4, 4, 2)
    );
    assert!(ann.injuries.iter().all(|i| i.healed) && ann.injuries.len() == 1);
    assert!(ann.fault_dice.is_empty() && !ann.comp.session_active);
    let goons = sheet_of(&t, "fc", "Goons").await;
    assert!(goons.conditions.vitality_down);
    assert_schema_clean(&t);
    t.stop().await;
}

/// From now on, every roll left untouched expires at once (the guild's
/// session timeout set to 0).
async fn expire_at_once(t: &Table) {
    let db = t.db().await.unwrap();
    let mut tx = db.write().await.unwrap();
    let mut g = kismet::app::settings::guild(&mut tx, GUILD_ID as i64)
        .await
        .unwrap();
    g.session_timeout_minutes = 0;
    kismet::app::settings::save_guild(&mut tx, GUILD_ID as i64, &g)
        .await
        .unwrap();
    tx.commit().await.unwrap();
}

/// A-O9 with `vv_cache_consumed_on_use` off: a cache die an action used
/// goes back to the cache on Close, so the register that used it does not
/// time out either (an expiry would lose it).
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn vv_a_register_whose_used_cache_dice_go_back_does_not_time_out() {
    let t = table("vv-expiry-kept", 1).await;
    cmd(
        &t,
        "fc",
        "/vv-gm settings set name:vv_cache_consumed_on_use value:off",
    )
    .await;
    booted_roll(&t).await;
    expire_at_once(&t).await;
    t.select("alice", "Pick cache dice to add", &["10.1".into()])
        .await
        .unwrap();
    let ex = t.click("alice", "Use 2×10 (30)").await.unwrap();
    assert!(
        !desc(ex.single()).contains("Unused from the cache"),
        "{}",
        desc(ex.single())
    );
    tokio::time::sleep(std::time::Duration::from_millis(5)).await;
    let ex = t.click("alice", "Close").await.unwrap();
    assert!(
        ex.single().text().contains("Back into the cache: 10."),
        "{}",
        ex.outputs[0].text()
    );
    assert_eq!(
        faces(&sheet_of(&t, "alice", "Ann").await.cache),
        vec![7, 9, 10]
    );
    assert_schema_clean(&t);
    t.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn vv_rolls_time_out_unless_they_hold_cache_dice() {
    let t = table("vv-expiry", 1).await;
    booted_roll(&t).await;
    t.select("alice", "Pick cache dice to add", &["10.1".into()])
        .await
        .unwrap();
    expire_at_once(&t).await;
    tokio::time::sleep(std::time::Duration::from_millis(5)).await;
    // The register holds a cache die: it does not time out, Close returns it.
    let ex = t.click("alice", "Close").await.unwrap();
    assert!(ex.single().text().contains("Back into the cache: 10."));
    assert_eq!(
        faces(&sheet_of(&t, "alice", "Ann").await.cache),
        vec![7, 9, 10]
    );
    // A plain roll times out; its buttons then do nothing.
    cmd(&t, "alice", "/vv roll stat:Wit").await;
    tokio::time::sleep(std::time::Duration::from_millis(5)).await;
    let ex = t.click("alice", "Close").await.unwrap();
    assert_eq!(ex.outputs[0].kind, "update");
    assert!(
        ex.outputs[0].text().contains("Timed out"),
        "{}",
        ex.outputs[0].text()
    );
    assert!(ex.outputs[1].content().contains("timed out"));
    assert_schema_clean(&t);
    t.stop().await;
}

/// The values of the open cache menu in the newest message alice sees.
fn cache_menu(t: &Table) -> Vec<String> {
    let m = t.last_message_for("alice").unwrap();
    m.body["components"]
        .as_array()
        .unwrap()
        .iter()
        .flat_map(|r| r["components"].as_array().cloned().unwrap_or_default())
        .filter(|c| c["placeholder"] == "Pick cache dice to add")
        .flat_map(|c| c["options"].as_array().cloned().unwrap_or_default())
        .map(|o| o["value"].as_str().unwrap().to_string())
        .collect()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_cache_of_forty_dice_hides_none_of_them() {
    let t = table("vv-big-cache", 5).await;
    cmd(&t, "alice", "/vv sheet create name:Ann wit:6 cyber:3").await;
    cmd(
        &t,
        "alice",
        "/vv sheet comp cache_size:40 battery_max:5 battery:5 distribution:Lumen",
    )
    .await;
    cmd(&t, "alice", "/vv boot").await;
    assert_eq!(sheet_of(&t, "alice", "Ann").await.cache.len(), 40);
    cmd(&t, "alice", "/vv roll stat:Wit").await;
    // Page through the menu: every cache die shows on one page.
    let mut seen: Vec<String> = Vec::new();
    let mut pages = 0;
    loop {
        let values = cache_menu(&t);
        assert!(values.len() <= 25, "{}", values.len());
        pages += 1;
        seen.extend(values.iter().filter(|v| !v.starts_with("page:")).cloned());
        // The "more" option leads to the next page, if there is one.
        let next = pages;
        if !values.contains(&format!("page:{next}")) {
            break;
        }
        let ex = t
            .select("alice", "Pick cache dice to add", &[format!("page:{next}")])
            .await
            .unwrap();
        assert_eq!(ex.outputs[0].kind, "update");
        // Turning the page adds nothing.
        assert_eq!(sheet_of(&t, "alice", "Ann").await.cache.len(), 40);
    }
    assert_eq!(pages, 2);
    seen.sort();
    seen.dedup();
    assert_eq!(seen.len(), 40, "{seen:?}");
    // A die from the last page can be added.
    let last = cache_menu(&t)
        .into_iter()
        .rfind(|v| !v.starts_with("page:"))
        .unwrap();
    let ex = t
        .select("alice", "Pick cache dice to add", &[last])
        .await
        .unwrap();
    assert_eq!(ex.outputs[0].kind, "update");
    assert_eq!(sheet_of(&t, "alice", "Ann").await.cache.len(), 39);
    assert_schema_clean(&t);
    t.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn vv_a_register_ends_with_the_round_and_a_comp_shutdown_takes_its_cache_dice() {
    let t = table("vv-round-ends", 1).await;
    booted_roll(&t).await;
    t.select("alice", "Pick cache dice to add", &["10.1".into()])
        .await
        .unwrap();
    assert_eq!(faces(&sheet_of(&t, "alice", "Ann").await.cache), vec![7, 9]);
    let ex = cmd(&t, "fc", "/vv-gm endround player:alice").await;
    assert_eq!(
        ex.single().title(),
        "⏱ End phase",
        "{:#?}",
        ex.single().body
    );
    assert_eq!(sheet_of(&t, "alice", "Ann").await.rounds_ended, 1);
    // The earlier roll's Use button spends nothing: the register is cleared
    // and its cache die goes back.
    let ex = t.click("alice", "Use 2×2 (22)").await.unwrap();
    let note = ex.single().field("Just now").unwrap_or_default();
    assert!(
        note.contains("The round of this register has ended"),
        "{note}"
    );
    let d = desc(ex.single());
    assert!(ex.single().field("Actions").is_none(), "{d}");
    assert_eq!(
        faces(&sheet_of(&t, "alice", "Ann").await.cache),
        vec![7, 9, 10]
    );
    assert!(t.click("alice", "Minor action").await.is_err());

    // A new roll; its cache 10 is lost when the COMP logs out.
    cmd(&t, "alice", "/vv roll stat:Wit").await;
    let ex = t
        .select("alice", "Pick cache dice to add", &["10.1".into()])
        .await
        .unwrap();
    let button = labels(ex.single())
        .into_iter()
        .find(|l| l.starts_with("Use 2×10") || l.starts_with("Use 3×10"))
        .expect("a set of 10s with the cache die");
    cmd(&t, "alice", "/vv logout").await;
    let r = t.click("alice", &button).await;
    let spent = match &r {
        Ok(ex) => ex
            .single()
            .field("Actions")
            .is_some_and(|a| a.contains("from the cache")),
        Err(_) => false,
    };
    assert!(!spent, "a cache die spent after COMP off: {r:?}");
    t.stop().await;
}

/// A roll is never governed by `player_edits` (issue 31 item 2): a
/// player's `dice:` rolls at once, under every value of the house rule,
/// and the roll says the pool was overridden.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn vv_dice_overrides_roll_at_once_and_say_so() {
    let t = table("vv-override", 1).await;
    cmd(&t, "alice", ANN).await;
    for rule in ["free", "approval", "fc_only"] {
        cmd(&t, "fc", &format!("/fc set name:player_edits value:{rule}")).await;
        let before = log_count(&t).await;
        let ex = cmd(&t, "alice", "/vv roll stat:Wit dice:10").await;
        let roll = ex.single();
        assert_eq!(roll.kind, "message", "{rule}: {}", roll.text());
        assert_eq!(author(roll), "Ann · Wit (overridden: 10 dice)", "{rule}");
        assert_eq!(log_count(&t).await, before + 1, "{rule}");
        // Her own buttons work on it.
        let ex = t.click("alice", "Close").await.unwrap();
        assert_eq!(ex.single().kind, "update");
    }
    // The roll log says so too.
    let ex = cmd(&t, "alice", "/history show character:Ann").await;
    assert!(
        ex.single().text().contains("Wit (overridden: 10 dice)"),
        "{}",
        ex.single().text()
    );
    // A secret override rolls too, privately.
    cmd(&t, "fc", "/fc gm-channel channel:#gm").await;
    let ex = cmd(&t, "alice", "/vv roll dice:3 secret:true").await;
    assert_eq!(ex.outputs[0].kind, "ephemeral", "{:#?}", ex.outputs);
    assert!(ex.outputs[0].text().contains("3 dice (overridden)"));
    // The Compiler's own override, and a stat roll, as before.
    let ex = cmd(&t, "fc", "/vv roll dice:4 character:Ann").await;
    assert_eq!(author(ex.single()), "Ann · 4 dice (overridden)");
    let ex = cmd(&t, "alice", "/vv roll stat:Wit").await;
    assert_eq!(author(ex.single()), "Ann · Wit (6 dice)");
    assert_schema_clean(&t);
    t.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn vv_table_example_approves_rejects_and_undoes_a_death() {
    let t = table("vv-table-example", 1).await;
    let script = std::fs::read_to_string(
        std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("examples/virtual_veil-table.txt"),
    )
    .unwrap();
    let mut titles = Vec::new();
    for line in script.lines() {
        let Some((who, ex)) = t
            .run_line(line)
            .await
            .unwrap_or_else(|e| panic!("{line}: {e}"))
        else {
            continue;
        };
        assert!(!ex.outputs.is_empty(), "{line}: no reply");
        for o in &ex.outputs {
            within_limits(o);
            assert!(
                !o.text().contains("Something went wrong") && !o.content().starts_with("⚠️"),
                "{who}: {line}: {}",
                o.text()
            );
            if !o.embeds().is_empty() {
                titles.push(o.title());
                titles.push(author(o));
            }
        }
    }
    let count = |t: &str| titles.iter().filter(|x| x.as_str() == t).count();
    assert_eq!(count("🙋 A change waits for the Compiler"), 2);
    assert_eq!(count("✅ Change approved"), 2);
    // Bo's ten dice rolled at once (a roll never waits), saying so: the
    // roll, then its Close.
    assert_eq!(count("Bo · Wit (overridden: 10 dice)"), 2, "{titles:?}");
    // Ann: Cyber lowered (approved), the hit of 2 kept with its Fault die,
    // the killing 50 undone, a tended day's rest (approved).
    let ann = sheet_of(&t, "alice", "Ann").await;
    assert_eq!((ann.vitality.current, ann.vitality.max), (4, 5));
    assert_eq!((ann.confidence.current, ann.cyber.current), (4, 1));
    assert_eq!(ann.vitality.overflow_after_zero, 0);
    assert!(!ann.conditions.dead && !ann.conditions.incapacitated());
    assert_eq!(ann.fault_dice.len(), 1);
    // Bo rolled his own Wit, nothing more.
    let bo = sheet_of(&t, "bob", "Bo").await;
    assert_eq!((bo.vitality.current, bo.cyber.current), (4, 2));
    assert_eq!(bo.stats.wit, 3);
    assert_schema_clean(&t);
    t.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn vv_a_request_survives_a_restart_and_a_double_approve_applies_once() {
    let t = table("vv-approve-twice", 2).await;
    cmd(&t, "fc", "/fc set name:player_edits value:approval").await;
    cmd(&t, "alice", ANN).await;
    let ex = cmd(&t, "alice", "/vv damage target:Confidence amount:1").await;
    let out = ex.single();
    assert_eq!(out.title(), "🙋 A change waits for the Compiler");
    assert!(
        out.text()
            .contains("Ann's Confidence 4/4 → 3/4 (1 damage and a Fault die)"),
        "{}",
        out.text()
    );
    assert_eq!(out.buttons()[0].0, "⚙ Compiler");
    // Only the Compiler answers; a player's click changes nothing.
    let ex = t.click("alice", "⚙ Compiler").await.unwrap();
    assert_eq!(ex.single().kind, "ephemeral");
    assert!(ex
        .single()
        .text()
        .contains("Only the Compiler can use these tools"));
    t.restart().await.unwrap();
    let panel = t.click("fc", "⚙ Compiler").await.unwrap();
    let (panel_id, approve) = (
        panel.message_id.unwrap(),
        panel.single().buttons()[0].1.clone(),
    );
    let ex = t
        .click_custom_id("fc", panel_id, &approve, None)
        .await
        .unwrap();
    assert_eq!(ex.outputs[1].title(), "✅ Change approved");
    assert_eq!(ex.outputs[2].title(), "❌ Confidence 3/4 · Fault die 1");
    // A second press of the panel's Approve finds the request answered.
    let again = t
        .click_custom_id("fc", panel_id, &approve, None)
        .await
        .unwrap();
    assert_eq!(again.single().kind, "update");
    assert!(again.single().text().contains("changed meanwhile"));
    let s = sheet_of(&t, "alice", "Ann").await;
    assert_eq!((s.confidence.current, s.fault_dice.len()), (3, 1));
    assert_schema_clean(&t);
    t.stop().await;
}

/// The custom_id of the button labelled `label` on alice's last message.
fn button_id(t: &Table, label: &str) -> (u64, String) {
    let msg = t.last_message_for("alice").unwrap();
    let id = Output {
        to: "alice".into(),
        kind: "message".into(),
        body: msg.body,
        files: Vec::new(),
        message_id: Some(msg.id),
    }
    .buttons()
    .into_iter()
    .find(|b| b.0 == label)
    .unwrap_or_else(|| panic!("no button {label}"))
    .1;
    (msg.id, id)
}

/// Ann with a booted COMP and named Special actions, then her Wit roll.
/// Seed 1: the cache boots as 10 9 7 and Wit rolls 1 10 9 2 6 2.
async fn special_roll(t: &Table, specials: &[&str]) -> Exchange {
    cmd(t, "alice", ANN).await;
    cmd(
        t,
        "alice",
        // Two named abilities on one register need a Thread Count of 2
        // (VV-17, issue 15).
        "/vv sheet comp cache_size:3 battery_max:5 battery:5 thread_count:2",
    )
    .await;
    for s in specials {
        let ex = cmd(t, "alice", &format!("/vv sheet special {s}")).await;
        assert_eq!(ex.single().kind, "ephemeral");
        assert!(
            ex.single().text().contains("Recorded the Special action"),
            "{}",
            ex.single().text()
        );
    }
    cmd(t, "alice", "/vv boot").await;
    cmd(t, "alice", "/vv roll stat:Wit").await
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn vv_a_special_action_spends_exactly_its_dice() {
    let t = table("vv-special", 1).await;
    let ex = special_roll(
        &t,
        &[
            "add:Burst pattern:226",
            "add:Echo pattern:90 cache:all",
            "add:Spark pattern:00 cache:one",
        ],
    )
    .await;
    let out = ex.single();
    assert!(
        first_line(out).starts_with("**2 2** · 10 9 6 1"),
        "{}",
        desc(out)
    );
    // The register holds 2 2 6; Echo and Spark need cache dice it lacks.
    assert_eq!(
        labels(out),
        vec![
            "Use 2×2 (22)",
            "Special: Burst",
            "Add cache dice",
            "Load into cache",
            "Minor action",
            "± Modify a die",
            "Close"
        ]
    );
    let logged = log_count(&t).await;
    let (msg, burst) = button_id(&t, "Special: Burst");
    let ex = t.click_custom_id("alice", msg, &burst, None).await.unwrap();
    let out = ex.single();
    assert_eq!(out.kind, "update");
    assert_eq!(
        out.field("Actions").unwrap(),
        "1. Special 226: 2 2 6 — Burst"
    );
    assert!(first_line(out).starts_with("10 9 1"), "{}", desc(out));
    assert!(!labels(out).iter().any(|l| l.starts_with("Use ")));
    assert!(!labels(out).contains(&"Special: Burst".to_string()));
    assert_eq!(log_count(&t).await, logged + 1);
    // The same button again (a double click): nothing more is spent.
    let again = t.click_custom_id("alice", msg, &burst, None).await.unwrap();
    assert_eq!(again.single().kind, "update");
    assert_eq!(again.single().body["embeds"], out.body["embeds"]);
    assert_eq!(log_count(&t).await, logged + 1);
    // The cache's 10 and 9 join the register: Spark (one from the cache)
    // and Echo (all from the cache) are offered.
    t.click("alice", "Add cache dice").await.unwrap();
    let ex = t
        .select(
            "alice",
            "Pick cache dice to add",
            &["10.1".into(), "9.1".into()],
        )
        .await
        .unwrap();
    let l: Vec<String> = labels(ex.single())
        .into_iter()
        .filter(|l| l.starts_with("Special:"))
        .collect();
    assert_eq!(l, ["Special: Echo", "Special: Spark"]);
    // Echo spends the two cache dice, not the rolled 10 and 9.
    let ex = t.click("alice", "Special: Echo").await.unwrap();
    let out = ex.single();
    assert_eq!(
        out.field("Actions").unwrap(),
        "1. Special 226: 2 2 6 — Burst\n2. Special 9 10: 9 10 — Echo · Combo/String · 2 from the cache"
    );
    assert!(first_line(out).starts_with("10 9 1"), "{}", desc(out));
    assert!(
        !desc(out).contains("Unused from the cache"),
        "{}",
        desc(out)
    );
    // Spark's cache 10 is spent: no button.
    assert!(
        !labels(out).iter().any(|l| l.starts_with("Special:")),
        "{:?}",
        labels(out)
    );
    let s = sheet_of(&t, "alice", "Ann").await;
    assert_eq!(faces(&s.cache), vec![7], "the used cache dice are consumed");
    // The sheet lists them; removing one leaves the others.
    let ex = cmd(&t, "alice", "/vv sheet special remove:burst").await;
    assert!(
        ex.single()
            .text()
            .contains("Removed the Special action **Burst** 226."),
        "{}",
        ex.single().text()
    );
    let sp = ex.single().field("Special actions").unwrap();
    assert_eq!(
        sp,
        "**Echo** 9 10 · all from the cache\n**Spark** 10 10 · one die from the cache"
    );
    let names: Vec<String> = sheet_of(&t, "alice", "Ann")
        .await
        .specials
        .into_iter()
        .map(|s| s.name)
        .collect();
    assert_eq!(names, vec!["Echo", "Spark"]);
    // Rights and bad input: refused, nothing changed.
    refused(
        &cmd(
            &t,
            "bob",
            "/vv sheet special add:Steal pattern:11 player:alice",
        )
        .await,
        "Only the Compiler can act on another player's sheet",
    );
    refused(
        &cmd(&t, "alice", "/vv sheet special add:Nova").await,
        "Give the Special action's `pattern`",
    );
    refused(
        &cmd(&t, "alice", "/vv sheet special add:Nova pattern:7a7").await,
        "A pattern lists faces from 1 to 10",
    );
    refused(
        &cmd(&t, "alice", "/vv sheet special add:echo pattern:11").await,
        "There is already a Special action named Echo",
    );
    refused(
        &cmd(&t, "alice", "/vv sheet special remove:Nova").await,
        "No Special action is named Nova.",
    );
    refused(
        &cmd(&t, "alice", "/vv sheet special cache:one").await,
        "Give `add:` a name",
    );
    assert_eq!(sheet_of(&t, "alice", "Ann").await.specials.len(), 2);
    // The Compiler may record one on Ann's sheet.
    cmd(
        &t,
        "fc",
        "/vv sheet special add:Gift pattern:\"run 3\" player:alice",
    )
    .await;
    assert_eq!(sheet_of(&t, "alice", "Ann").await.specials.len(), 3);
    assert_schema_clean(&t);
    t.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn vv_a_special_action_whose_cache_cost_is_not_met_is_not_offered() {
    let t = table("vv-special-cost", 1).await;
    // The register holds 2 2 and 10 9, but none of them came from the cache.
    let ex = special_roll(
        &t,
        &[
            "add:Twin pattern:22 cache:one",
            "add:Pulse pattern:\"run 2\" cache:all",
        ],
    )
    .await;
    let out = ex.single();
    assert!(
        !labels(out).iter().any(|l| l.starts_with("Special:")),
        "{:?}",
        labels(out)
    );
    // A forged click on Twin's button spends nothing.
    let logged = log_count(&t).await;
    let (msg, close) = button_id(&t, "Close");
    let spec = close.replace(":close", ":spec:0");
    refused(
        &t.click_custom_id("alice", msg, &spec, None).await.unwrap(),
        "The register does not hold 22 for Twin (one die from the cache) now; nothing was spent.",
    );
    // One for an action no longer on the sheet, too.
    let gone = close.replace(":close", ":spec:9");
    refused(
        &t.click_custom_id("alice", msg, &gone, None).await.unwrap(),
        "That Special action is no longer on Ann's sheet; nothing was spent.",
    );
    assert_eq!(log_count(&t).await, logged);
    let ex = t.click("alice", "Use 2×2 (22)").await.unwrap();
    assert_eq!(
        ex.single().field("Actions").unwrap(),
        "1. Basic: **2×2 (22)**",
        "the dub of 2s was still there"
    );
    assert_schema_clean(&t);
    t.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn vv_special_example_plays_clean() {
    let t = table("vv-special-example", 1).await;
    let script = std::fs::read_to_string(
        std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("examples/virtual_veil-special.txt"),
    )
    .unwrap();
    let mut last = None;
    for line in script.lines() {
        let Some((_, ex)) = t
            .run_line(line)
            .await
            .unwrap_or_else(|e| panic!("{line}: {e}"))
        else {
            continue;
        };
        for o in &ex.outputs {
            within_limits(o);
            assert!(!o.content().starts_with("⚠️"), "{line}: {}", o.content());
        }
        if line.contains("click Special: Echo") {
            last = Some(ex.single().field("Actions").unwrap());
        }
    }
    assert_eq!(
        last.unwrap(),
        "1. Special 226: 2 2 6 — Burst\n2. Special 9 10: 9 10 — Echo · Combo/String · 2 from the cache"
    );
    let ann = sheet_of(&t, "alice", "Ann").await;
    assert_eq!(faces(&ann.cache), vec![7]);
    let names: Vec<&str> = ann.specials.iter().map(|s| s.name.as_str()).collect();
    assert_eq!(names, vec!["Echo", "Spark"]);
    assert_schema_clean(&t);
    t.stop().await;
}

// ---------------------------------------------------------------------------
// Issue 15: face modifiers, split sets, Combos and Strings, Thread Count.

const ANN8: &str =
    "/vv sheet create name:Ann agility:8 vitality:5 confidence:4 cyber:3 engineering:4 wit:6";

/// Every select menu option of a reply: (label, value).
fn options(o: &Output) -> Vec<(String, String)> {
    o.body["components"]
        .as_array()
        .into_iter()
        .flatten()
        .flat_map(|r| r["components"].as_array().cloned().unwrap_or_default())
        .filter(|c| c["type"] == 3)
        .flat_map(|c| c["options"].as_array().cloned().unwrap_or_default())
        .map(|o| {
            (
                o["label"].as_str().unwrap_or("").to_string(),
                o["value"].as_str().unwrap_or("").to_string(),
            )
        })
        .collect()
}

fn has_option(o: &Output, label: &str) -> bool {
    options(o).iter().any(|(l, _)| l == label)
}

async fn pick_modifier(t: &Table, who: &str, value: &str) -> Exchange {
    t.click(who, "± Modify a die").await.unwrap();
    t.select(who, "Pick a die and a modifier", &[value.to_string()])
        .await
        .unwrap()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn vv_face_modifiers_clamp_or_wrap_from_the_roll_buttons() {
    let t = table("vv-modifiers", 1).await;
    cmd(&t, "alice", ANN8).await;
    // Agility rolls 9 10 7 4 3 6 2 1: no set.
    let ex = cmd(&t, "alice", "/vv roll stat:Agility").await;
    assert!(
        first_line(ex.single()).starts_with("10 9 7 6 4 3 2 1"),
        "{}",
        desc(ex.single())
    );
    // Another player may not modify Ann's dice: refused, nothing logged.
    let logged = log_count(&t).await;
    refused(
        &t.click("bob", "± Modify a die").await.unwrap(),
        "Only Ann's player (or the Compiler) can use this roll.",
    );
    let ex = t.click("alice", "± Modify a die").await.unwrap();
    let out = ex.single();
    // Clamp (the default): the 10 has no +1, the 9's +2 stops at 10, and
    // each option says what it makes.
    assert!(has_option(out, "10 → 9 (-1)"));
    assert!(!has_option(out, "10 → 1 (+1)"));
    assert!(!has_option(out, "1 → 10 (-1)"));
    assert!(has_option(out, "2 → 1 (-2)"), "the 2 - 2 stops at 1");
    assert!(!has_option(out, "1 → 1 (-2)"), "no option changes nothing");
    let rows = out.body["components"].as_array().unwrap();
    let select = rows
        .iter()
        .map(|r| &r["components"][0])
        .find(|c| c["type"] == 3)
        .expect("the modifier select");
    let o = &select["options"][0];
    assert_eq!(o["label"], "1 → 2 (+1)");
    assert_eq!(o["value"], "7:1");
    assert_eq!(o["description"], "makes 2×2 (22)");
    refused(
        &t.select("bob", "Pick a die and a modifier", &["7:1".into()])
            .await
            .unwrap(),
        "Only Ann's player (or the Compiler) can use this roll.",
    );
    // A forged value is refused.
    refused(
        &t.select("alice", "Pick a die and a modifier", &["7:5".into()])
            .await
            .unwrap(),
        "Pick one die and a modifier.",
    );
    assert_eq!(log_count(&t).await, logged);
    // The 2 - 2 is clamped to 1 and pairs the rolled 1.
    let ex = t
        .select("alice", "Pick a die and a modifier", &["6:-2".into()])
        .await
        .unwrap();
    let out = ex.single();
    let d = desc(out);
    assert!(d.starts_with("**1 1** · 10 9 7 6 4 3"), "{d}");
    assert!(d.contains("Modified: 2→1 (-2)"), "{d}");
    assert_eq!(out.field("Just now").unwrap(), "Changed a 2 by -2 to 1.");
    assert_eq!(labels(out)[0], "Use 2×1 (21)");
    assert_eq!(log_count(&t).await, logged + 1);
    let s = sheet_of(&t, "alice", "Ann").await;
    assert_eq!(s.stats.agility, 8, "the sheet is not touched");
    // The Compiler may apply one too; the roll log keeps each change.
    let ex = pick_modifier(&t, "fc", "0:1").await;
    let d = desc(ex.single());
    assert!(d.contains("Modified: 2→1 (-2), 9→10 (+1)"), "{d}");
    assert!(d.starts_with("**10 10** · **1 1** · 7 6 4 3"), "{d}");
    let ex = cmd(&t, "alice", "/history show character:Ann").await;
    let h = ex.single().text();
    assert!(h.contains("modify face"), "{h}");
    assert!(h.contains("from: 9, position: 0, to: 10"), "{h}");
    // Wrap: a new roll wraps past 10 (an open roll keeps its settings).
    cmd(
        &t,
        "fc",
        "/vv-gm settings set name:vv_face_modifier_bounds value:wrap",
    )
    .await;
    let ex = t.click("alice", "± Modify a die").await.unwrap();
    assert!(
        !has_option(ex.single(), "10 → 1 (+1)"),
        "the open roll still clamps"
    );
    t.click("alice", "Close").await.unwrap();
    let ex = cmd(&t, "alice", "/vv roll stat:Agility").await;
    assert_eq!(first_line(ex.single()), "**7 7** · 10 9 6 5 4 3");
    let ex = t.click("alice", "± Modify a die").await.unwrap();
    assert!(has_option(ex.single(), "10 → 1 (+1)"));
    assert!(!has_option(ex.single(), "3 → 10 (-1)"));
    assert!(has_option(ex.single(), "3 → 2 (-1)"));
    // The 3 − 3 wraps round to 10 and pairs the rolled 10.
    let ex = t
        .select("alice", "Pick a die and a modifier", &["page:1".into()])
        .await
        .unwrap();
    assert!(
        has_option(ex.single(), "3 → 10 (-3)"),
        "{:?}",
        options(ex.single())
    );
    let ex = t
        .select("alice", "Pick a die and a modifier", &["0:-3".into()])
        .await
        .unwrap();
    let d = desc(ex.single());
    assert!(d.contains("Modified: 3→10 (-3)"), "{d}");
    assert!(d.starts_with("**10 10** · **7 7**"), "{d}");
    // A used die cannot be changed: a stale select is refused.
    t.click("alice", "Use 2×10 (30)").await.unwrap();
    let (msg, close) = button_id(&t, "Close");
    let stale = close.replace(":close", ":sel:modify");
    let ex = t
        .click_custom_id("alice", msg, &stale, Some(&["0:1".into()]))
        .await
        .unwrap();
    refused(&ex, "Die 1 has already been used or loaded.");
    assert_schema_clean(&t);
    t.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn vv_split_sets_only_when_the_house_rule_allows() {
    let t = table("vv-split", 1).await;
    cmd(&t, "alice", ANN8).await;
    // The example's first roll, played the same way.
    cmd(&t, "alice", "/vv roll stat:Agility").await;
    pick_modifier(&t, "alice", "7:1").await;
    t.click("alice", "Use 2×2 (22)").await.unwrap();
    t.click("alice", "Close").await.unwrap();
    // 3 4 10 5 9 7 6 7: the 6 + 1 and the 5 + 2 make a quad of 7s.
    let ex = cmd(&t, "alice", "/vv roll stat:Agility").await;
    assert_eq!(first_line(ex.single()), "**7 7** · 10 9 6 5 4 3");
    pick_modifier(&t, "alice", "6:1").await;
    let ex = pick_modifier(&t, "alice", "3:2").await;
    let out = ex.single();
    assert!(
        first_line(out).starts_with("**7 7 7 7** · 10 9 4 3"),
        "{}",
        desc(out)
    );
    // Off (the default): no Split button, and a forged one is refused:
    // for another player by rights, for Ann by the house rule.
    assert!(
        !labels(out).iter().any(|l| l.starts_with("Split")),
        "{:?}",
        labels(out)
    );
    let logged = log_count(&t).await;
    let (msg, close) = button_id(&t, "Close");
    let split = close.replace(":close", ":split:7");
    refused(
        &t.click_custom_id("bob", msg, &split, None).await.unwrap(),
        "Only Ann's player (or the Compiler) can use this roll.",
    );
    refused(
        &t.click_custom_id("alice", msg, &split, None).await.unwrap(),
        "Sets cannot be split here: the 4 unused 7s must be used together.",
    );
    refused(
        &t.click_custom_id("alice", msg, &close.replace(":close", ":split:x"), None)
            .await
            .unwrap(),
        "That split button is not valid.",
    );
    assert_eq!(log_count(&t).await, logged);
    // The settings list both house rules; a player may not change them.
    cmd(&t, "fc", "/fc set name:system value:ore").await;
    let ex = cmd(&t, "fc", "/game").await;
    let shown = ex.single().text();
    assert!(shown.contains("vv_allow_split_sets"), "{shown}");
    assert!(shown.contains("vv_face_modifier_bounds"), "{shown}");
    refused(
        &cmd(
            &t,
            "alice",
            "/vv-gm settings set name:vv_allow_split_sets value:on",
        )
        .await,
        "",
    );
    cmd(
        &t,
        "fc",
        "/vv-gm settings set name:vv_allow_split_sets value:on",
    )
    .await;
    let ex = cmd(&t, "fc", "/game").await;
    assert!(
        ex.single()
            .text()
            .lines()
            .any(|l| l.contains("vv_allow_split_sets") && l.contains("on")),
        "{}",
        ex.single().text()
    );
    // The open roll keeps the settings it started with.
    refused(
        &t.click_custom_id("alice", msg, &split, None).await.unwrap(),
        "Sets cannot be split here",
    );
    t.click("alice", "Use 4×7 (47)").await.unwrap();
    assert_schema_clean(&t);
    t.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn vv_the_thread_count_bounds_the_skills_one_register_runs() {
    let t = table("vv-threads", 1).await;
    special_roll(
        &t,
        &[
            "add:Burst pattern:226",
            "add:Echo pattern:90 cache:all",
            "add:Spark pattern:00 cache:one",
        ],
    )
    .await;
    // Ann's COMP runs one skill at once.
    cmd(&t, "alice", "/vv sheet comp thread_count:1").await;
    let ex = t.click("alice", "Special: Burst").await.unwrap();
    assert!(
        desc(ex.single()).contains("Threads: 1/1 (Burst)"),
        "{}",
        desc(ex.single())
    );
    t.click("alice", "Add cache dice").await.unwrap();
    t.select(
        "alice",
        "Pick cache dice to add",
        &["10.1".into(), "9.1".into()],
    )
    .await
    .unwrap();
    // A second skill on the same register: refused, nothing spent.
    let logged = log_count(&t).await;
    refused(
        &t.click("alice", "Special: Echo").await.unwrap(),
        "Thread Count 1: this register already runs 1 of 1 skill (Burst), so Echo cannot run at once; nothing was spent.",
    );
    // The Compiler is held to it too; another player is refused first.
    refused(
        &t.click("fc", "Special: Echo").await.unwrap(),
        "Thread Count 1",
    );
    refused(
        &t.click("bob", "Special: Echo").await.unwrap(),
        "Only Ann's player (or the Compiler) can use this roll.",
    );
    assert_eq!(log_count(&t).await, logged);
    assert_eq!(faces(&sheet_of(&t, "alice", "Ann").await.cache), vec![7]);
    // Two threads: Echo runs, as a Combo/String of the same register.
    cmd(&t, "alice", "/vv sheet comp thread_count:2").await;
    let logged = log_count(&t).await;
    let ex = t.click("alice", "Special: Echo").await.unwrap();
    let out = ex.single();
    assert!(
        desc(out).contains("Threads: 2/2 (Burst, Echo)"),
        "{}",
        desc(out)
    );
    assert_eq!(
        out.field("Actions").unwrap(),
        "1. Special 226: 2 2 6 — Burst\n2. Special 9 10: 9 10 — Echo · Combo/String · 2 from the cache"
    );
    assert_eq!(log_count(&t).await, logged + 1);
    assert_schema_clean(&t);
    t.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn vv_modifiers_example_plays_clean() {
    let t = table("vv-modifiers-example", 1).await;
    let script = std::fs::read_to_string(
        std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("examples/virtual_veil-modifiers.txt"),
    )
    .unwrap();
    let mut last = None;
    let mut first = None;
    for line in script.lines() {
        let Some((_, ex)) = t
            .run_line(line)
            .await
            .unwrap_or_else(|e| panic!("{line}: {e}"))
        else {
            continue;
        };
        for o in &ex.outputs {
            within_limits(o);
            assert!(!o.content().starts_with("⚠️"), "{line}: {}", o.content());
        }
        if line.contains("click Use 2×2 (22)") {
            first = Some(desc(ex.single()));
        }
        if line.contains("click Use 2×10 (30)") {
            last = Some(ex.single().clone());
        }
    }
    let first = first.unwrap();
    assert!(first.contains("Modified: 1→2 (+1)"), "{first}");
    let last = last.unwrap();
    assert_eq!(
        last.field("Actions").unwrap(),
        "1. Basic: **2×7 (27)**\n2. Basic: **2×7 (27)** · Combo/String\n3. Basic: **2×10 (30)** · Combo/String"
    );
    assert!(
        desc(&last).contains("Modified: 6→7 (+1), 5→7 (+2), 3→10 (-3)"),
        "{}",
        desc(&last)
    );
    assert!(first_line(&last).starts_with("9 4"));
    assert_schema_clean(&t);
    t.stop().await;
}

/// The body of the newest message in the channel whose author line starts
/// with `author`: its description and its button labels.
fn posted_by(t: &Table, author: &str) -> (String, Vec<String>) {
    let m = t
        .fake
        .messages()
        .into_iter()
        .rev()
        .find(|m| {
            m.body["embeds"][0]["author"]["name"]
                .as_str()
                .is_some_and(|a| a.starts_with(author))
        })
        .unwrap_or_else(|| panic!("no message by {author}"));
    let desc = m.body["embeds"][0]["description"]
        .as_str()
        .unwrap_or("")
        .to_string();
    let labels = m.body["components"]
        .as_array()
        .into_iter()
        .flatten()
        .flat_map(|r| r["components"].as_array().cloned().unwrap_or_default())
        .filter_map(|c| c["label"].as_str().map(str::to_string))
        .collect();
    (desc, labels)
}

/// Issue 29 item 12: cache dice leave with the COMP (seed 004: "you keep
/// your dice in the data cache as long as your comp is still running"; a
/// logged-out user "cannot use any of its features"). After `/vv logout`
/// the open register is redrawn without its cache dice or the sets built
/// from them, and they cannot be used.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn vv_logout_takes_the_cache_dice_out_of_an_open_register() {
    let t = table("vv-logout-register", 1).await;
    booted_roll(&t).await;
    t.select(
        "alice",
        "Pick cache dice to add",
        &["10.1".into(), "9.1".into()],
    )
    .await
    .unwrap();
    let (d, l) = posted_by(&t, "Ann · Wit");
    assert!(d.contains("Unused from the cache: 10 9"), "{d}");
    assert_eq!(l[..2], ["Use 2×10 (30)", "Use 2×9 (29)"]);
    let ex = cmd(&t, "alice", "/vv logout").await;
    assert!(
        desc(&ex.outputs[0]).contains("COMP off (logged out)"),
        "{:#?}",
        ex.outputs
    );
    let (d, l) = posted_by(&t, "Ann · Wit");
    assert!(d.starts_with("**2 2** · 10 9 6 1\n"), "{d}");
    assert!(!d.contains("Unused from the cache"), "{d}");
    assert_eq!(l.first().map(String::as_str), Some("Use 2×2 (22)"), "{l:?}");
    assert!(!l.iter().any(|b| b == "Add cache dice"), "{l:?}");
    t.stop().await;
}

/// Issue 28: `/vv logout` moves the roller's open register on through the
/// action pipeline (`Outcome::moved`): the cache dice it held leave it,
/// and its message is redrawn after the report, without them.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn issue_28_a_logout_redraws_the_register_it_took_cache_dice_from() {
    let t = table("vv-logout-register", 1).await;
    booted_roll(&t).await;
    let ex = t
        .select(
            "alice",
            "Pick cache dice to add",
            &["10.1".into(), "9.1".into()],
        )
        .await
        .unwrap();
    assert!(desc(ex.single()).contains("Unused from the cache: 10 9"));
    let ex = cmd(&t, "alice", "/vv logout").await;
    assert_eq!(ex.outputs.len(), 2, "{:#?}", ex.outputs);
    assert!(desc(&ex.outputs[0]).starts_with("COMP off (logged out); cache lost: 7."));
    let register = &ex.outputs[1];
    assert_eq!(register.kind, "update");
    assert_eq!(author(register), "Ann · Wit (6 dice) · crack the lock");
    let d = desc(register);
    assert!(d.starts_with("**2 2** · 10 9 6 1\n"), "{d}");
    assert!(!d.contains("Unused from the cache"), "{d}");
    t.stop().await;
}

/// A sheet whose Special actions overflow their field says how many were
/// left out on a line of its own, not glued to the last one shown.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn vv_a_long_special_action_list_counts_the_rest_on_its_own_line() {
    let t = table("vv-special-many", 1).await;
    cmd(&t, "alice", ANN).await;
    for i in 0..20 {
        let ex = cmd(
            &t,
            "alice",
            &format!(
                "/vv sheet special add:\"Overlong special action number {i:02} padded\" pattern:7777777777"
            ),
        )
        .await;
        assert!(
            ex.single().text().contains("Recorded the Special action"),
            "{}",
            ex.single().text()
        );
    }
    let ex = cmd(&t, "alice", "/vv sheet show").await;
    within_limits(ex.single());
    let sp = ex.single().field("Special actions").unwrap();
    let lines: Vec<&str> = sp.lines().collect();
    let (last, shown) = lines.split_last().unwrap();
    let left_out = last
        .strip_prefix("…and ")
        .and_then(|l| l.strip_suffix(" more"));
    let left_out: usize = left_out.and_then(|n| n.parse().ok()).expect(&sp);
    assert_eq!(shown.len() + left_out, 20, "{sp}");
    assert!(shown.iter().all(|l| l.starts_with("**Overlong")), "{sp}");
    t.stop().await;
}

/// A Special action's name is shown as typed: its markdown is escaped in
/// the answer that records it and on the sheet's list.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn vv_a_special_action_named_with_markdown_shows_as_typed() {
    let t = table("vv-special-markdown", 1).await;
    cmd(&t, "alice", ANN).await;
    let ex = cmd(&t, "alice", "/vv sheet special add:*Burst*_x pattern:226").await;
    assert!(
        ex.single()
            .text()
            .contains(r"Recorded the Special action **\*Burst\*\_x** 226."),
        "{}",
        ex.single().text()
    );
    let shown = cmd(&t, "alice", "/vv sheet show").await;
    assert_eq!(
        shown.single().field("Special actions").unwrap(),
        r"**\*Burst\*\_x** 226"
    );
    t.stop().await;
}

/// A character's name is drawn without markdown where it is prose (the
/// sheet's title, a refusal, the tracker's line and log, a hit), as
/// Veracity draws it: `A*d_a` reads `Ada` and never pairs with the
/// message's own bold. The roll's author line, which Discord shows as
/// plain text, and the name a command takes keep it as typed.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn vv_a_character_named_with_markdown_reads_plainly_in_prose() {
    let t = table("vv-name-markdown", 1).await;
    let ada = ANN.replace("name:Ann", "name:A*d_a");
    let created = cmd(&t, "alice", &ada).await;
    assert_eq!(created.single().title(), "📇 Created Ada");
    let shown = cmd(&t, "alice", "/vv sheet show").await;
    assert_eq!(shown.single().title(), "📇 Ada");
    let ex = cmd(&t, "alice", "/vv roll stat:Wit label:\"crack the lock\"").await;
    assert_eq!(author(ex.single()), "A*d_a · Wit (6 dice) · crack the lock");
    refused(
        &t.click("bob", "Close").await.unwrap(),
        "⚠️ Only Ada's player (or the Compiler) can use this roll.",
    );
    cmd(&t, "fc", "/vv-gm combat start world:physical").await;
    let joined = t.click("alice", "Join").await.unwrap();
    let board = desc(joined.single());
    assert_eq!(
        board,
        "In the physical world · Initiative: Agility\n• **Ada** · Vit 5/5"
    );
    let hit = cmd(
        &t,
        "fc",
        "/vv-gm combat damage name:A*d_a target:vitality amount:2",
    )
    .await;
    let said = hit.outputs[0].content().to_string();
    assert!(
        said.starts_with("💥 Ada takes 2 Vitality damage.\n"),
        "{said}"
    );
    let log = hit.outputs[1].field("Log").unwrap();
    assert_eq!(
        log,
        "⚔ The Compiler announces combat.\nAda joins the fight.\n💥 Ada takes 2 Vitality damage."
    );
    t.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn vv_a_special_action_refused_shows_its_name_as_typed() {
    let t = table("vv-special-name-markdown", 1).await;
    special_roll(&t, &["add:T*w_in pattern:22 cache:one"]).await;
    let (msg, close) = button_id(&t, "Close");
    let spec = close.replace(":close", ":spec:0");
    refused(
        &t.click_custom_id("alice", msg, &spec, None).await.unwrap(),
        r"The register does not hold 22 for T\*w\_in (one die from the cache) now; nothing was spent.",
    );
    t.stop().await;
}
