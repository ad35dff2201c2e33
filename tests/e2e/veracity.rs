//! Veracity at the table (`/vr`): sheets and their slot grid, seeded saves
//! with exact slot outcomes, Stress overflow, Breaks and the heart attack,
//! Wounds, displacement and death, damage and HP, rest buttons, Facets,
//! revelations, the Convention board and its violations, the end of a
//! scene, rights, bad input, double clicks, restarts, the largest payloads
//! and the sandbox example.

use crate::common::{assert_schema_clean, table};
use kismet::fake::table::{Output, Table, GUILD_ID};
use kismet::rules::veracity::sheet::MAX_SLOTS;
use kismet::rules::veracity::Inventory;
use kismet::rules::veracity::{ItemKind, Sheet};
use kismet::systems::veracity::render::cell_symbol;
use serde_json::Value;

/// Discord's cap on a command's combined name, description and choice text.
fn command_chars(v: &Value) -> usize {
    let mut n = text_len(v, "name") + text_len(v, "description");
    for c in v
        .get("choices")
        .and_then(Value::as_array)
        .into_iter()
        .flatten()
    {
        n += text_len(c, "name")
            + c.get("value")
                .map_or(0, |x| x.to_string().trim_matches('"').chars().count());
    }
    for o in v
        .get("options")
        .and_then(Value::as_array)
        .into_iter()
        .flatten()
    {
        n += command_chars(o);
    }
    n
}

fn text_len(v: &Value, k: &str) -> usize {
    v.get(k)
        .and_then(Value::as_str)
        .map_or(0, |s| s.chars().count())
}

/// Runs a command and returns its only reply, which must be public.
async fn ok(t: &Table, who: &str, line: &str) -> Output {
    let ex = t
        .command(who, line)
        .await
        .unwrap_or_else(|e| panic!("{line}: {e}"));
    let out = ex.single().clone();
    assert_eq!(out.kind, "message", "{line}: {}", out.text());
    out
}

/// Runs a command that must be refused with an ephemeral note containing `needle`.
async fn refused(t: &Table, who: &str, line: &str, needle: &str) {
    let ex = t
        .command(who, line)
        .await
        .unwrap_or_else(|e| panic!("{line}: {e}"));
    let out = ex.single();
    assert_eq!(out.kind, "ephemeral", "{line}: {}", out.text());
    assert!(
        out.content().contains(needle),
        "{line}: expected `{needle}` in `{}`",
        out.content()
    );
}

/// The active Veracity sheet of a member and its row version.
async fn sheet_of(t: &Table, who: &str) -> (Sheet, i64) {
    let db = t.db().await.unwrap();
    let mut tx = db.read().await.unwrap();
    let row = kismet::storage::characters::active(
        &mut tx,
        GUILD_ID as i64,
        "veracity",
        Table::user_id(who) as i64,
    )
    .await
    .unwrap()
    .unwrap_or_else(|| panic!("{who} has no active sheet"));
    (serde_json::from_str(&row.sheet).unwrap(), row.version)
}

async fn log_count(t: &Table) -> i64 {
    let db = t.db().await.unwrap();
    let mut tx = db.read().await.unwrap();
    kismet::storage::log::count(&mut tx, GUILD_ID as i64)
        .await
        .unwrap()
}

/// An embed's author line ("<who> · <what>").
fn author(out: &Output) -> String {
    out.embeds()[0]["author"]["name"]
        .as_str()
        .unwrap_or("")
        .to_string()
}

/// An embed's footer.
fn footer(out: &Output) -> String {
    out.embeds()[0]["footer"]["text"]
        .as_str()
        .unwrap_or("")
        .to_string()
}

/// One inventory as 18 symbols in groups of six, slot 1 first.
fn symbols(inv: &Inventory) -> String {
    let cells: Vec<&str> = (1..=MAX_SLOTS).map(|n| cell_symbol(inv.cell(n))).collect();
    cells
        .chunks(6)
        .map(|c| c.concat())
        .collect::<Vec<_>>()
        .join(" ")
}

fn light(s: &Sheet) -> String {
    symbols(s.light())
}

fn flesh(s: &Sheet) -> String {
    symbols(s.flesh())
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn vr_registers_within_discord_size_limits() {
    let t = table("vr-register", 1).await;
    let reg = t.registered();
    let vr = reg
        .as_array()
        .unwrap()
        .iter()
        .find(|c| c["name"] == "vr")
        .expect("/vr registered")
        .clone();
    let n = command_chars(&vr);
    // Discord's limit is 8000 (src/fake/rules.rs); the combat tracker
    // (issue 15) took /vr past the 4000 this test first allowed.
    println!("/vr uses {n} of Discord's 8000 characters");
    assert!(n <= 6000, "/vr uses {n} characters");
    let subs: Vec<&str> = vr["options"]
        .as_array()
        .unwrap()
        .iter()
        .map(|o| o["name"].as_str().unwrap())
        .collect();
    assert_eq!(
        subs,
        vec![
            "sheet",
            "item",
            "facet",
            "save",
            "stress",
            "wound",
            "damage",
            "rest",
            "reveal",
            "convention",
            "combat",
            "odds"
        ]
    );
    // The referee's own commands sit under `/vr-gm` (issue 31 item 1).
    let gm = reg
        .as_array()
        .unwrap()
        .iter()
        .find(|c| c["name"] == "vr-gm")
        .expect("/vr-gm registered");
    let gm_subs: Vec<&str> = gm["options"]
        .as_array()
        .unwrap()
        .iter()
        .map(|o| o["name"].as_str().unwrap())
        .collect();
    assert_eq!(
        gm_subs,
        ["sheet", "convention", "scene", "combat", "settings"]
    );
    assert!(command_chars(gm) <= 6000);
    assert_schema_clean(&t);
    t.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_sheet_is_created_filled_from_the_lowest_slot_and_shown_as_a_grid() {
    let t = table("vr-sheet", 1).await;
    refused(
        &t,
        "alice",
        "/vr sheet create name:Ada light:5 flesh:5 facet:Cruel",
        "12 in total",
    )
    .await;
    refused(
        &t,
        "alice",
        "/vr sheet create name:Ada light:6 flesh:6",
        "one d6 Facet",
    )
    .await;
    let out = ok(
        &t,
        "alice",
        "/vr sheet create name:Ada light:7 flesh:5 facet:Cruel",
    )
    .await;
    assert_eq!(out.title(), "📜 Ada");
    assert!(out
        .text()
        .contains("New character sheet, now your active one"));
    ok(
        &t,
        "alice",
        "/vr item add kind:secret text:\"The mayor is a ghoul\"",
    )
    .await;
    ok(&t, "alice", "/vr item add kind:Ruse text:\"I am a priest\"").await;
    ok(
        &t,
        "alice",
        "/vr item add kind:means text:\"Purse of silver\"",
    )
    .await;
    let out = ok(
        &t,
        "alice",
        "/vr item add kind:evidence text:\"Bloody letter\"",
    )
    .await;
    // Bookkeeping answers in one public line (issue 16).
    assert_eq!(
        out.content(),
        "**Ada** adds Evidence: ➕ Flesh slot 2: 🔎 Evidence *Bloody letter*"
    );
    assert!(out.embeds().is_empty());
    // Empty slot 1 of Light, then the next item fills the gap (VR-3).
    let out = ok(&t, "alice", "/vr item remove inventory:light slot:1").await;
    assert!(out
        .text()
        .contains("➖ Light slot 1 emptied: 🤫 Secret *The mayor is a ghoul*"));
    let out = ok(
        &t,
        "alice",
        "/vr item add kind:secret text:\"The well is poisoned\"",
    )
    .await;
    assert!(out.text().contains("➕ Light slot 1: 🤫 Secret"));
    ok(
        &t,
        "alice",
        "/vr item add inventory:flesh slot:1 text:\"Heavy purse\"",
    )
    .await;

    let (s, _) = sheet_of(&t, "alice").await;
    assert_eq!(light(&s), "🤫🎭⬜⬜⬜⬜ ⬜🔒🔒🔒🔒🔒 🔒🔒🔒🔒🔒🔒");
    assert_eq!(flesh(&s), "💰🔎⬜⬜⬜🔒 🔒🔒🔒🔒🔒🔒 🔒🔒🔒🔒🔒🔒");
    assert_eq!(s.light().get(1).unwrap().text, "The well is poisoned");
    assert_eq!(s.flesh().get(1).unwrap().text, "Heavy purse");

    let out = ok(&t, "alice", "/vr sheet show").await;
    let d = out.embeds()[0]["description"].as_str().unwrap().to_string();
    assert!(d.contains("**Light** 🤫🎭 ⬜×5 🔒×11 · 5 free of 7"), "{d}");
    assert!(
        d.contains("**Flesh** 💰🔎⬜⬜⬜ 🔒×13 · 3 free of 5"),
        "{d}"
    );
    assert!(d.contains("HP **0/0** · Breaks **0** · Can level up: **yes**"));
    assert_eq!(
        out.field("Light (2/7 used)").unwrap(),
        "` 1` 🤫 The well is poisoned\n` 2` 🎭 I am a priest"
    );
    assert_eq!(
        out.field("Flesh (2/5 used)").unwrap(),
        "` 1` 💰 Heavy purse\n` 2` 🔎 Bloody letter"
    );
    assert_eq!(out.field("Facets").unwrap(), "`1` **d6** Cruel");
    let labels: Vec<(String, bool)> = out.buttons().into_iter().map(|(l, _, d)| (l, d)).collect();
    assert_eq!(
        labels,
        vec![
            ("Rest: remove a Stress".to_string(), true),
            ("Rest: remove a Wound".to_string(), true),
            ("Delete".to_string(), false),
            ("Export".to_string(), false)
        ]
    );
    // Private view.
    let ex = t
        .command("alice", "/vr sheet show private:true")
        .await
        .unwrap();
    assert_eq!(ex.single().kind, "ephemeral");
    assert_schema_clean(&t);
    t.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn seeded_saves_read_the_exact_slot() {
    let t = table("vr-save", 42).await;
    ok(
        &t,
        "alice",
        "/vr sheet create name:Ada light:6 flesh:6 facet:Cruel",
    )
    .await;
    ok(&t, "alice", "/vr item add kind:secret text:\"S1\"").await;
    ok(&t, "alice", "/vr item add kind:ruse text:\"R2\"").await;
    // Light: 2 filled of 6 unlocked: success on d20 3..6 only, 20% (VR-10).
    let mut seen = Vec::new();
    for _ in 0..12 {
        let out = ok(&t, "alice", "/vr save inventory:light").await;
        // The outcome is the title (issue 16); who and what the author.
        assert_eq!(author(&out), "Ada · Light save");
        assert_eq!(footer(&out), "Chance before rolling 20%");
        let d = out.embeds()[0]["description"].as_str().unwrap().to_string();
        let first = d.lines().next().unwrap();
        let total: i32 = first
            .trim_start_matches("d20 ")
            .replace("**", "")
            .parse()
            .unwrap_or_else(|_| panic!("{d}"));
        // A bare d20 is its own total: no sum field.
        assert_eq!(out.field("Total"), None);
        let expect = match total {
            1 => "❌ Failure · Light slot 1 holds a Secret".to_string(),
            2 => "❌ Failure · Light slot 2 holds a Ruse".to_string(),
            3..=6 => format!("✅ Success · Light slot {total} is empty"),
            7..=18 => format!("❌ Failure · Light slot {total} is locked"),
            _ => format!("❌ Failure · total {total} is 19+"),
        };
        assert_eq!(out.title(), expect);
        // Hits bold, misses plain.
        assert_eq!(first.contains("**"), (3..=6).contains(&total), "{d}");
        seen.push(total);
    }
    // Seed 42 always gives these d20 faces.
    assert_eq!(
        seen,
        vec![20, 15, 2, 19, 7, 1, 8, 19, 4, 9, 7, 6],
        "seeded faces"
    );
    // Modifiers: -20 always succeeds (total ≤ 0), +18 always fails (≥ 19).
    let out = ok(&t, "alice", "/vr save inventory:flesh modifier:-20").await;
    assert_eq!(footer(&out), "Chance before rolling 100%");
    assert!(
        out.title().starts_with("✅ Success · total "),
        "{}",
        out.title()
    );
    assert!(out.title().ends_with(" is 0 or lower"), "{}", out.title());
    assert!(!out.text().contains('👉'), "no slot looked at");
    let out = ok(&t, "alice", "/vr save inventory:flesh modifier:18").await;
    assert_eq!(footer(&out), "Chance before rolling 0%");
    assert!(out.title().ends_with(" is 19+"), "{}", out.title());
    // With the d6 Facet in the owner's favour (subtracted).
    let out = ok(&t, "alice", "/vr save inventory:light facet:1").await;
    let d = out.embeds()[0]["description"].as_str().unwrap().to_string();
    // Each face f of the d6 gives f + 4 winning d20 faces: (3.5 + 4) / 20.
    assert_eq!(footer(&out), "Chance before rolling 37.5%");
    assert_eq!(out.title(), "❌ Failure · Light slot 7 is locked");
    assert_eq!(
        d,
        "d20 8 · d6 **1** *Cruel*\n**Light** 🤫🎭 ⬜×4 👉🔒 🔒×11"
    );
    assert_eq!(out.field("Total").unwrap(), "8 − 1 = **7**");
    let out = ok(
        &t,
        "alice",
        "/vr save inventory:light facet:cru modifier:-5",
    )
    .await;
    assert!(out.text().contains("*Cruel*"));
    refused(
        &t,
        "alice",
        "/vr save inventory:light facet:Kind",
        "no Facet `Kind`",
    )
    .await;
    refused(
        &t,
        "alice",
        "/vr save inventory:light facet:3",
        "no Facet number 3",
    )
    .await;
    assert_schema_clean(&t);
    t.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn stress_overflows_then_breaks_then_a_heart_attack_kills() {
    let t = table("vr-break", 5).await;
    ok(
        &t,
        "alice",
        "/vr sheet create name:Ada light:4 flesh:8 facet:Brave",
    )
    .await;
    ok(&t, "alice", "/vr item add kind:secret text:\"S1\"").await;
    ok(&t, "alice", "/vr item add kind:secret text:\"S2\"").await;
    // 5 Stress, 2 free Light slots: 2 placed, 3 discarded, no Break (VR-14).
    let out = ok(&t, "alice", "/vr stress amount:5").await;
    assert_eq!(out.title(), "🟡 +2 Stress · Light slots 3, 4 · 3 discarded");
    assert_eq!(author(&out), "Ada · gains 5 Stress");
    let d = out.embeds()[0]["description"].as_str().unwrap().to_string();
    assert_eq!(
        d,
        "💢 **5 Stress**\n🗑️ 3 Stress did not fit and is discarded"
    );
    assert!(!out.text().contains("locked ·"), "no legend on a change");
    let (s, _) = sheet_of(&t, "alice").await;
    assert_eq!(light(&s), "🤫🤫💢💢🔒🔒 🔒🔒🔒🔒🔒🔒 🔒🔒🔒🔒🔒🔒");
    assert_eq!(s.break_count(), 0);
    // No free slot: the first Break; no more levelling; all Stress cleared.
    let out = ok(&t, "alice", "/vr stress amount:d6").await;
    assert_eq!(
        out.embeds()[0]["description"].as_str().unwrap(),
        "Stress d6 **4**\n💢 **4 Stress**\n\
         💥 **BREAK** (no free Light slot): break number 1\n\
         🥀 First Break: lost the will to seek, **can no longer level up**\n\
         🧘 All Stress cleared (Light slots 3, 4)"
    );
    assert_eq!(out.title(), "💥 Break · can no longer level up");
    let (s, _) = sheet_of(&t, "alice").await;
    assert_eq!(light(&s), "🤫🤫⬜⬜🔒🔒 🔒🔒🔒🔒🔒🔒 🔒🔒🔒🔒🔒🔒");
    assert_eq!(s.break_count(), 1);
    assert!(!s.can_level_up());
    // Levelling is now refused.
    refused(
        &t,
        "alice",
        "/vr reveal target:Vane secrets:1 gain:light",
        "lost the will to seek",
    )
    .await;
    // Fill again, then the second Break: a heart attack of d20 Wounds.
    ok(&t, "alice", "/vr stress amount:2").await;
    let out = ok(&t, "alice", "/vr stress amount:1").await;
    let d = out.embeds()[0]["description"].as_str().unwrap().to_string();
    assert_eq!(
        d,
        "Heart attack d20 **4**\n💢 **1 Stress**\n💥 **BREAK** (no free Light slot): break number 2\n\
         🫀 **Heart attack**: 4 Wounds\n\
         🩸 4 Wounds into Flesh slots 1, 2, 3, 4\n🧘 All Stress cleared (Light slots 3, 4)"
    );
    assert_eq!(out.embeds()[0]["color"], 0xED4245);
    assert_eq!(out.title(), "💥 Break 2 · heart attack, 4 Wounds");
    let (s, _) = sheet_of(&t, "alice").await;
    assert_eq!(s.break_count(), 2);
    assert!(!s.is_dead());
    assert_eq!(light(&s), "🤫🤫⬜⬜🔒🔒 🔒🔒🔒🔒🔒🔒 🔒🔒🔒🔒🔒🔒");
    assert_eq!(flesh(&s), "🩸🩸🩸🩸⬜⬜ ⬜⬜🔒🔒🔒🔒 🔒🔒🔒🔒🔒🔒");
    // A third Break: this heart attack fills the Flesh and kills.
    ok(&t, "alice", "/vr stress amount:2").await;
    let out = ok(&t, "alice", "/vr stress amount:1").await;
    assert_eq!(
        out.embeds()[0]["description"].as_str().unwrap(),
        "Heart attack d20 **11**\n💢 **1 Stress**\n💥 **BREAK** (no free Light slot): break number 3\n\
         🫀 **Heart attack**: 11 Wounds\n\
         🩸 4 Wounds into Flesh slots 5, 6, 7, 8\n💀 **DEAD**: every Flesh slot holds a Wound\n\
         🧘 All Stress cleared (Light slots 3, 4)"
    );
    assert_eq!(out.title(), "💥 Dead · every Flesh slot holds a Wound");
    let (s, _) = sheet_of(&t, "alice").await;
    assert_eq!(s.break_count(), 3);
    assert!(s.is_dead());
    assert_eq!(flesh(&s), "🩸🩸🩸🩸🩸🩸 🩸🩸🔒🔒🔒🔒 🔒🔒🔒🔒🔒🔒");
    assert_schema_clean(&t);
    t.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn wounds_displace_items_and_death_comes_when_every_flesh_slot_is_wounded() {
    let t = table("vr-death", 3).await;
    ok(
        &t,
        "alice",
        "/vr sheet create name:Ada light:8 flesh:4 facet:Brave",
    )
    .await;
    ok(&t, "alice", "/vr item add kind:means text:Horse").await;
    ok(
        &t,
        "alice",
        "/vr item add kind:evidence text:\"Signed confession\"",
    )
    .await;
    ok(&t, "alice", "/vr item add kind:means text:Lantern").await;
    let out = ok(&t, "alice", "/vr wound amount:1").await;
    assert_eq!(out.title(), "❌ 1 Wound · Flesh slot 4");
    assert_eq!(author(&out), "Ada · takes 1 Wound");
    // The title says what changed; nothing below it says otherwise.
    assert!(!out.text().contains("Nothing changed"), "{}", out.text());
    // No room: the owner gives up slot 1 (the Horse) first (A-R4).
    let out = ok(&t, "alice", "/vr wound amount:1 displace:1").await;
    let d = out.embeds()[0]["description"].as_str().unwrap().to_string();
    assert_eq!(d, "⚔️ Flesh slot 1: 💰 Means *Horse* is lost to a Wound");
    assert_eq!(out.title(), "❌ 1 Wound · Flesh slot 1");
    let (s, _) = sheet_of(&t, "alice").await;
    assert_eq!(flesh(&s), "🩸🔎💰🩸🔒🔒 🔒🔒🔒🔒🔒🔒 🔒🔒🔒🔒🔒🔒");
    // Bad displacement choices change nothing.
    refused(
        &t,
        "alice",
        "/vr wound amount:1 displace:4",
        "already holds a Wound",
    )
    .await;
    refused(
        &t,
        "alice",
        "/vr wound amount:1 displace:9",
        "holds no item",
    )
    .await;
    refused(
        &t,
        "alice",
        "/vr wound amount:1 displace:x",
        "not a slot number",
    )
    .await;
    // Without a choice, the highest-numbered non-Wound item goes (the Lantern).
    let out = ok(&t, "alice", "/vr wound amount:1").await;
    assert!(out
        .text()
        .contains("⚔️ Flesh slot 3: 💰 Means *Lantern* is lost to a Wound"));
    assert_eq!(out.embeds()[0]["color"], 0xED4245);
    // The last one kills: every Flesh slot holds a Wound (VR-17).
    let out = ok(&t, "alice", "/vr wound amount:2").await;
    let d = out.embeds()[0]["description"].as_str().unwrap().to_string();
    assert_eq!(
        d,
        "⚔️ Flesh slot 2: 🔎 Evidence *Signed confession* is lost to a Wound\n\
         🩸 1 Wound into Flesh slot 2\n💀 **DEAD**: every Flesh slot holds a Wound"
    );
    assert_eq!(out.embeds()[0]["color"], 0xED4245);
    let (s, version) = sheet_of(&t, "alice").await;
    assert!(s.is_dead());
    assert_eq!(flesh(&s), "🩸🩸🩸🩸🔒🔒 🔒🔒🔒🔒🔒🔒 🔒🔒🔒🔒🔒🔒");
    // The dead take no more Stress; nothing is stored.
    refused(
        &t,
        "alice",
        "/vr stress amount:1",
        "This character is dead.",
    )
    .await;
    refused(
        &t,
        "alice",
        "/vr rest what:wound",
        "This character is dead.",
    )
    .await;
    assert_eq!(sheet_of(&t, "alice").await.1, version);
    let out = ok(&t, "alice", "/vr sheet show").await;
    assert_eq!(out.title(), "💀 Ada (dead)");
    let (sheet, rest): (Vec<_>, Vec<_>) = out
        .buttons()
        .into_iter()
        .partition(|b| b.0 == "Delete" || b.0 == "Export");
    assert!(rest.iter().all(|b| b.2), "rest buttons are disabled");
    // The dead can still be deleted or exported.
    assert!(sheet.len() == 2 && sheet.iter().all(|b| !b.2), "{sheet:?}");
    assert_schema_clean(&t);
    t.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn damage_lowers_hp_then_becomes_wounds_and_the_scene_end_restores_hp() {
    let t = table("vr-damage", 9).await;
    ok(&t, "fc", "/fc set name:player_edits value:approval").await;
    ok(
        &t,
        "alice",
        "/vr sheet create name:Ada light:6 flesh:6 facet:Brave",
    )
    .await;
    // HP is the referee's (VR-19): a player's asks first (issue 13).
    let out = ok(&t, "alice", "/vr sheet edit current:3 max:3").await;
    assert_eq!(out.title(), "🙋 A change waits for the referee");
    assert!(out.text().contains("Ada's HP 0/0 → 3/3"), "{}", out.text());
    t.tool("fc", "Reject").await.unwrap();
    assert_eq!(sheet_of(&t, "alice").await.0.hp_max(), 0);
    let out = ok(&t, "fc", "/vr sheet edit current:3 max:3 player:alice").await;
    assert!(out.text().contains("❤️ HP 0 → **3**/3"));
    let out = ok(&t, "alice", "/vr damage amount:2").await;
    assert_eq!(
        out.embeds()[0]["description"].as_str().unwrap(),
        "❤️ HP 3 → **1** (−2)"
    );
    assert_eq!(out.title(), "🟡 −2 HP · 1 left");
    let out = ok(&t, "alice", "/vr damage amount:5").await;
    assert_eq!(
        out.embeds()[0]["description"].as_str().unwrap(),
        "❤️ HP 1 → **0** (−1)\n💨 4 damage beyond the HP is lost"
    );
    // At 0 HP, damage becomes Wounds (VR-19).
    let out = ok(&t, "alice", "/vr damage amount:2").await;
    assert_eq!(
        out.embeds()[0]["description"].as_str().unwrap(),
        "🩸 Damage becomes 2 Wound(s) (at 0 HP)"
    );
    // Straight to Wounds, with the dice shown.
    let out = ok(&t, "alice", "/vr damage amount:d4 to:wounds").await;
    assert_eq!(
        out.embeds()[0]["description"].as_str().unwrap(),
        "Damage d4 **1**\n🩸 Damage becomes 1 Wound(s) (as Wounds)"
    );
    // Rest removes the highest Wound, or the chosen one.
    let out = ok(&t, "alice", "/vr rest what:wound slot:1").await;
    assert!(out.text().contains("➖ Flesh slot 1 emptied: 🩸 Wound"));
    refused(&t, "alice", "/vr rest what:stress", "no Stress to shed").await;
    // The end of the scene restores HP.
    refused(
        &t,
        "alice",
        "/vr-gm scene end",
        "Only the referee can end the scene",
    )
    .await;
    let out = ok(&t, "fc", "/vr-gm scene end").await;
    assert_eq!(out.title(), "🎬 The scene ends");
    assert_eq!(out.field("HP restored").unwrap(), "❤️ 0 → **3** Ada");
    let (s, _) = sheet_of(&t, "alice").await;
    assert_eq!((s.hp_current(), s.hp_max()), (3, 3));
    assert_schema_clean(&t);
    t.stop().await;
}

/// The Convention board's menu custom_id on an output.
fn menu_id(out: &Output) -> String {
    out.body["components"][0]["components"][0]["custom_id"]
        .as_str()
        .unwrap()
        .to_string()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn conventions_are_declared_violated_once_per_scene_and_reset() {
    let t = table("vr-conventions", 11).await;
    ok(
        &t,
        "alice",
        "/vr sheet create name:Ada light:8 flesh:4 facet:Brave",
    )
    .await;
    ok(
        &t,
        "bob",
        "/vr sheet create name:Bo light:6 flesh:6 facet:Loud",
    )
    .await;
    let out = ok(&t, "alice", "/vr convention list").await;
    assert!(out.text().contains("No Conventions declared here"));
    assert!(out.body["components"]
        .as_array()
        .is_none_or(|c| c.is_empty()));
    refused(
        &t,
        "alice",
        "/vr-gm convention add text:\"No swearing\" cost:+1",
        "Only the referee can declare or change Conventions",
    )
    .await;
    refused(
        &t,
        "fc",
        "/vr-gm convention add text:Bow cost:+x",
        "not a Convention cost",
    )
    .await;
    refused(
        &t,
        "fc",
        "/vr-gm convention add text:Bow cost:+d1",
        "write `+1` or `+d4`",
    )
    .await;
    let out = ok(
        &t,
        "fc",
        "/vr-gm convention add text:\"Never swear at the dinner\" cost:+d4 once:true",
    )
    .await;
    assert_eq!(out.title(), "📜 Conventions of this scene");
    let first_menu = menu_id(&out);
    let out = ok(
        &t,
        "fc",
        "/vr-gm convention add text:\"Bow to the Duke\" cost:+1",
    )
    .await;
    assert_eq!(
        out.embeds()[0]["description"].as_str().unwrap(),
        "➕ Convention 2 declared (+1 Stress).\n\n\
         **1.** Never swear at the dinner — **+d4** · once per scene\n\
         **2.** Bow to the Duke — **+1**"
    );
    let out = ok(&t, "fc", "/vr-gm convention add text:Typo cost:+3").await;
    assert!(out.text().contains("**3.** Typo — **+3**"));
    let out = ok(
        &t,
        "fc",
        "/vr-gm convention edit number:3 text:\"Toast the host\" cost:+d6 once:true",
    )
    .await;
    assert!(out
        .text()
        .contains("**3.** Toast the host — **+d6** · once per scene"));
    refused(
        &t,
        "fc",
        "/vr-gm convention edit number:3",
        "Say what to change",
    )
    .await;
    refused(
        &t,
        "fc",
        "/vr-gm convention remove number:9",
        "no Convention number 9",
    )
    .await;
    let out = ok(&t, "fc", "/vr-gm convention remove number:3").await;
    assert!(out
        .text()
        .contains("✖️ Convention 3 removed: *Toast the host*"));
    assert!(!out.text().contains("**3.**"));

    // Alice violates the first one from the menu: her sheet pays the d4.
    let ex = t
        .select("alice", "Violated a Convention…", &["0".into()])
        .await
        .unwrap();
    assert_eq!(ex.outputs.len(), 2, "{:#?}", ex.outputs);
    assert_eq!(ex.outputs[0].kind, "update");
    assert!(ex.outputs[0]
        .text()
        .contains("**1.** Never swear at the dinner — **+d4** · once per scene · paid: Ada"));
    let paid = &ex.outputs[1];
    assert_eq!(paid.kind, "message");
    assert_eq!(paid.title(), "🟡 +1 Stress · Light slot 1");
    assert_eq!(author(paid), "Ada · violates a Convention");
    assert_eq!(
        paid.embeds()[0]["description"].as_str().unwrap(),
        "Convention d4 **1**\n\
         💢 **1 Stress** for violating *Never swear at the dinner*"
    );
    let (s, _) = sheet_of(&t, "alice").await;
    let stress_after_first = s.light().count(ItemKind::Stress);
    assert_eq!(stress_after_first, 1);
    // Once per scene: a second time is refused and changes nothing.
    let ex = t
        .select("alice", "Violated a Convention…", &["0".into()])
        .await
        .unwrap();
    assert_eq!(ex.single().kind, "ephemeral");
    assert!(ex.single().content().contains("only once per scene"));
    assert_eq!(
        sheet_of(&t, "alice")
            .await
            .0
            .light()
            .count(ItemKind::Stress),
        stress_after_first
    );
    // An old board's menu is stale: it is redrawn, nothing is applied.
    let msg = t
        .fake
        .messages()
        .into_iter()
        .find(|m| m.body.to_string().contains(&first_menu))
        .unwrap();
    let ex = t
        .click_custom_id("bob", msg.id, &first_menu, Some(&["1".into()]))
        .await
        .unwrap();
    assert_eq!(ex.single().kind, "update");
    assert_eq!(
        sheet_of(&t, "bob").await.0.light().count(ItemKind::Stress),
        0
    );
    // Bob marks his own violation by command; Bob may not charge Alice.
    let out = ok(&t, "bob", "/vr convention violate number:2").await;
    assert_eq!(author(&out), "Bo · violates a Convention");
    assert_eq!(out.embeds().len(), 2);
    assert!(out
        .text()
        .contains("💢 **1 Stress** for violating *Bow to the Duke*"));
    refused(
        &t,
        "bob",
        "/vr convention violate number:2 player:alice",
        "Only the referee can act on another player's sheet",
    )
    .await;
    // The FC charges Alice for the repeatable one, twice.
    ok(&t, "fc", "/vr convention violate number:2 player:alice").await;
    ok(&t, "fc", "/vr convention violate number:2 player:alice").await;
    assert_eq!(
        sheet_of(&t, "alice")
            .await
            .0
            .light()
            .count(ItemKind::Stress),
        stress_after_first + 2
    );
    refused(
        &t,
        "fc",
        "/vr convention violate number:1 player:alice",
        "only once per scene",
    )
    .await;
    // The end of the scene clears the marks: Alice can pay again.
    let out = ok(&t, "fc", "/vr-gm scene end").await;
    assert!(out.text().contains("Once-per-scene marks cleared: **1**"));
    assert!(!out.text().contains("paid:"));
    let ex = t
        .select("alice", "Violated a Convention…", &["0".into()])
        .await
        .unwrap();
    assert_eq!(ex.outputs.len(), 2);
    // A member without a sheet cannot use the menu.
    let ex = t
        .select("carol", "Violated a Convention…", &["1".into()])
        .await
        .unwrap();
    assert_eq!(ex.single().kind, "ephemeral");
    assert!(ex.single().content().contains("no active character"));
    // Everything is logged.
    assert!(log_count(&t).await >= 12);
    assert_schema_clean(&t);
    t.stop().await;
}

/// A rest note names the member who pressed it, their display name as
/// typed: `bo_b*` does not open italics or pair with bold.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_rest_note_shows_the_member_name_as_typed() {
    let t = table("vr-rest-name", 2).await;
    ok(
        &t,
        "bo_b*",
        "/vr sheet create name:Bo light:6 flesh:6 facet:Loud",
    )
    .await;
    ok(&t, "bo_b*", "/vr stress amount:2").await;
    ok(&t, "bo_b*", "/vr sheet show").await;
    let ex = t.click("bo_b*", "Rest: remove a Stress").await.unwrap();
    assert_eq!(ex.single().kind, "update");
    let text = ex.single().text();
    assert!(
        text.contains(r"🌞 A day relaxing in daylight (bo\_b\*): "),
        "{text}"
    );
    t.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn players_edit_only_their_own_sheets_and_the_fc_any() {
    let t = table("vr-rights", 2).await;
    ok(
        &t,
        "alice",
        "/vr sheet create name:Ada light:6 flesh:6 facet:Brave",
    )
    .await;
    ok(
        &t,
        "bob",
        "/vr sheet create name:Bo light:6 flesh:6 facet:Loud",
    )
    .await;
    let (_, before) = sheet_of(&t, "alice").await;
    let not_yours = "Only the referee can act on another player's sheet";
    for line in [
        "/vr item add kind:secret text:X player:alice",
        "/vr stress amount:1 player:alice",
        "/vr wound amount:1 player:alice",
        "/vr damage amount:1 player:alice",
        "/vr save inventory:light player:alice",
        "/vr facet step facet:1 direction:up player:alice",
        "/vr reveal target:Vane secrets:1 gain:light player:alice",
    ] {
        refused(&t, "bob", line, not_yours).await;
    }
    refused(
        &t,
        "bob",
        "/vr sheet create name:Fake light:6 flesh:6 facet:X player:alice",
        "Only the referee can create a sheet for another member",
    )
    .await;
    refused(
        &t,
        "bob",
        "/vr sheet show character:Ada",
        "No character named `Ada`",
    )
    .await;
    refused(
        &t,
        "bob",
        "/vr-gm settings set name:vr_locked_slot value:success",
        "Only the referee can change the Veracity settings",
    )
    .await;
    assert_eq!(sheet_of(&t, "alice").await.1, before, "nothing changed");
    // Bob cannot press Alice's rest button.
    ok(&t, "alice", "/vr stress amount:2").await;
    ok(&t, "alice", "/vr sheet show").await;
    let ex = t.click("bob", "Rest: remove a Stress").await.unwrap();
    assert_eq!(ex.single().kind, "ephemeral");
    assert!(ex
        .single()
        .content()
        .contains("Only Ada's owner (or the referee)"));
    assert_eq!(
        sheet_of(&t, "alice")
            .await
            .0
            .light()
            .count(ItemKind::Stress),
        2
    );
    // The FC may do all of it, on any sheet, and press the button.
    let out = ok(
        &t,
        "fc",
        "/vr item add kind:secret text:\"The Duke is a fraud\" player:alice",
    )
    .await;
    assert!(
        out.content().starts_with("**Ada** adds a Secret: "),
        "{}",
        out.content()
    );
    let ex = t.click("fc", "Rest: remove a Stress").await.unwrap();
    assert_eq!(ex.single().kind, "update");
    assert!(ex
        .single()
        .text()
        .contains("A day relaxing in daylight (fc)"));
    let out = ok(&t, "fc", "/vr sheet show character:Ada").await;
    assert_eq!(out.title(), "📜 Ada");
    let ex = t
        .command("fc", "/vr-gm sheet show player:bob private:true")
        .await
        .unwrap();
    assert_eq!(ex.single().kind, "ephemeral");
    assert_eq!(ex.single().title(), "📜 Bo");
    // The FC makes an NPC with any slot counts for themselves.
    let out = ok(
        &t,
        "fc",
        "/vr sheet create name:\"Lord Vane\" light:2 flesh:10 npc:true",
    )
    .await;
    assert!(out.text().contains("New NPC sheet"));
    refused(
        &t,
        "bob",
        "/vr sheet create name:Npc light:2 flesh:2 npc:true",
        "Only the referee can create an NPC",
    )
    .await;
    // A stranger without a sheet is told how to make one.
    refused(&t, "carol", "/vr save inventory:light", "/vr sheet create").await;
    assert_schema_clean(&t);
    t.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn bad_input_gets_a_clear_ephemeral_error_and_changes_nothing() {
    let t = table("vr-bad", 4).await;
    ok(
        &t,
        "fc",
        "/vr sheet create name:Full light:18 flesh:0 npc:true facet:Old",
    )
    .await;
    let (_, v0) = sheet_of(&t, "fc").await;
    let logged = log_count(&t).await;
    refused(
        &t,
        "fc",
        "/vr item add kind:potion text:X",
        "`potion` is not an item kind",
    )
    .await;
    refused(&t, "fc", "/vr item add kind:stress text:X", "/vr stress").await;
    refused(&t, "fc", "/vr item add kind:wound text:X", "/vr wound").await;
    refused(&t, "fc", "/vr item add kind:means text:X", "no empty slot").await;
    refused(
        &t,
        "fc",
        "/vr item remove inventory:flesh slot:2",
        "Flesh slot 2 is locked: only 0",
    )
    .await;
    refused(
        &t,
        "fc",
        "/vr item remove inventory:light slot:3",
        "already empty",
    )
    .await;
    refused(
        &t,
        "fc",
        "/vr facet add phrase:Sly die:d7",
        "`d7` is not a Facet die",
    )
    .await;
    refused(&t, "fc", "/vr stress amount:lots", "not an amount").await;
    refused(&t, "fc", "/vr stress amount:0", "at least 1").await;
    refused(&t, "fc", "/vr stress amount:51d6", "between 1 and 50 dice").await;
    refused(&t, "fc", "/vr damage amount:d1", "between 2 and 100 sides").await;
    refused(&t, "fc", "/vr rest what:stress slot:1", "no Stress to shed").await;
    // The 19th slot: a revelation cannot unlock past 18.
    ok(
        &t,
        "fc",
        "/vr item add kind:secret text:\"The well is poisoned\"",
    )
    .await;
    let (_, v1) = sheet_of(&t, "fc").await;
    refused(
        &t,
        "fc",
        "/vr reveal target:Vane secrets:1 gain:light",
        "all 18 slots",
    )
    .await;
    refused(
        &t,
        "fc",
        "/vr reveal target:Vane secrets:2 gain:flesh",
        "Light slot 2 does not hold a Secret",
    )
    .await;
    refused(
        &t,
        "fc",
        "/vr reveal target:Vane secrets:19 gain:flesh",
        "not a slot number",
    )
    .await;
    // The fifth Facet.
    ok(&t, "fc", "/vr facet add phrase:Sly").await;
    ok(&t, "fc", "/vr facet add phrase:Proud die:d12").await;
    ok(&t, "fc", "/vr facet add phrase:Pious die:4").await;
    let (_, v2) = sheet_of(&t, "fc").await;
    refused(&t, "fc", "/vr facet add phrase:Greedy", "at most 4 Facets").await;
    refused(
        &t,
        "fc",
        "/vr facet step facet:Proud direction:up",
        "already a d12",
    )
    .await;
    refused(
        &t,
        "fc",
        "/vr facet step facet:Pious direction:down",
        "already a d4",
    )
    .await;
    refused(&t, "fc", "/vr facet remove facet:7", "no Facet number 7").await;
    // A duplicate name, a too long text (the client refuses it too).
    refused(
        &t,
        "fc",
        "/vr sheet create name:full light:1 flesh:1 npc:true",
        "already a character named",
    )
    .await;
    assert!(t
        .command(
            "fc",
            &format!("/vr item add kind:ruse text:{}", "x".repeat(201))
        )
        .await
        .is_err());
    assert_eq!(sheet_of(&t, "fc").await.1, v2);
    assert_eq!(v1, v0 + 1);
    assert_eq!(v2, v1 + 3);
    assert_eq!(
        log_count(&t).await,
        logged + 4,
        "only the four changes are logged"
    );
    refused(
        &t,
        "fc",
        "/vr-gm settings set name:vr_nope value:on",
        "no Veracity setting called",
    )
    .await;
    refused(
        &t,
        "fc",
        "/vr-gm settings set name:vr_locked_slot value:maybe",
        "`fail` or `success`",
    )
    .await;
    assert_schema_clean(&t);
    t.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_double_click_rests_once_and_buttons_survive_a_restart() {
    let t = table("vr-double", 6).await;
    ok(
        &t,
        "alice",
        "/vr sheet create name:Ada light:6 flesh:6 facet:Brave",
    )
    .await;
    ok(&t, "alice", "/vr stress amount:3").await;
    let out = ok(&t, "alice", "/vr sheet show").await;
    let (_, id, _) = out.buttons()[0].clone();
    let msg = t.last_message_for("alice").unwrap();
    let first = t.click_custom_id("alice", msg.id, &id, None).await.unwrap();
    let second = t.click_custom_id("alice", msg.id, &id, None).await.unwrap();
    assert_eq!(first.single().kind, "update");
    assert!(first
        .single()
        .text()
        .contains("➖ Light slot 3 emptied: 💢 Stress"));
    assert_eq!(second.single().kind, "update");
    assert_eq!(
        sheet_of(&t, "alice")
            .await
            .0
            .light()
            .count(ItemKind::Stress),
        2
    );
    // A restart in the middle: the newest button still works.
    t.restart().await.unwrap();
    let ex = t.click("alice", "Rest: remove a Stress").await.unwrap();
    assert_eq!(ex.single().kind, "update");
    assert_eq!(
        sheet_of(&t, "alice")
            .await
            .0
            .light()
            .count(ItemKind::Stress),
        1
    );
    // And the Convention board too.
    ok(
        &t,
        "fc",
        "/vr-gm convention add text:\"No weapons\" cost:+2",
    )
    .await;
    t.restart().await.unwrap();
    let ex = t
        .select("alice", "Violated a Convention…", &["0".into()])
        .await
        .unwrap();
    assert_eq!(ex.outputs.len(), 2);
    assert_eq!(
        sheet_of(&t, "alice")
            .await
            .0
            .light()
            .count(ItemKind::Stress),
        3
    );
    assert_schema_clean(&t);
    t.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn revelations_level_up_once_per_secret_and_are_logged_on_the_sheet() {
    let t = table("vr-reveal", 8).await;
    ok(
        &t,
        "alice",
        "/vr sheet create name:Ada light:6 flesh:6 facet:Nosy",
    )
    .await;
    ok(
        &t,
        "alice",
        "/vr item add kind:secret text:\"The Duke poisoned the well\"",
    )
    .await;
    ok(
        &t,
        "alice",
        "/vr item add kind:secret text:\"The priest is a smuggler\"",
    )
    .await;
    ok(
        &t,
        "alice",
        "/vr item add kind:evidence text:\"Empty vial\"",
    )
    .await;
    // A player's revelation waits for the referee's judgement (issue 14).
    let out = ok(
        &t,
        "alice",
        "/vr reveal target:\"Lady Vane\" secrets:1 evidence:1 gain:light note:\"At the ball\"",
    )
    .await;
    assert_eq!(out.title(), "⏳ Waiting for the referee");
    assert_eq!(author(&out), "Ada · revelation to Lady Vane");
    // The judgement is the referee's: its three tools sit behind ⚙.
    let labels: Vec<String> = out.buttons().into_iter().map(|b| b.0).collect();
    assert_eq!(labels, ["⚙ Referee"]);
    let (s, _) = sheet_of(&t, "alice").await;
    assert_eq!(
        s.light().unlocked(),
        6,
        "no slot before the referee confirms"
    );
    assert!(t.click("alice", "Confirm — shocked").await.is_err());
    assert!(t
        .click("alice", "⚙ Referee")
        .await
        .unwrap()
        .single()
        .content()
        .contains("Only the referee can use these tools"));
    let ex = t.tool("fc", "Confirm — shocked").await.unwrap();
    assert_eq!(ex.outputs[0].title(), "✅ Shocked · one Light slot");
    let out = ex.outputs[1].clone();
    assert!(ex.outputs[2]
        .content()
        .contains("`/vr stress cause:\"shocked by a Secret\" character:\"Lady Vane\"`"));
    assert_eq!(
        out.embeds()[0]["description"].as_str().unwrap(),
        "📣 Revelation 1: *Lady Vane* is shocked"
    );
    assert_eq!(out.title(), "✅ Level up · Light slot 7 unlocked");
    assert_eq!(
        out.field("Revealed").unwrap(),
        "🤫 The Duke poisoned the well\n🔎 Empty vial\n📝 At the ball"
    );
    refused(
        &t,
        "alice",
        "/vr reveal target:Duke secrets:1 gain:flesh",
        "was already used to level up",
    )
    .await;
    refused(
        &t,
        "alice",
        "/vr reveal target:Duke secrets:2 evidence:1 gain:flesh",
        "Evidence \"Empty vial\" was already used",
    )
    .await;
    ok(&t, "alice", "/vr reveal target:Duke secrets:2 gain:flesh").await;
    t.tool("fc", "Confirm — shocked").await.unwrap();
    let (s, _) = sheet_of(&t, "alice").await;
    assert_eq!((s.light().unlocked(), s.flesh().unlocked()), (7, 7));
    assert_eq!(s.revelation_log().len(), 2);
    let out = ok(&t, "alice", "/vr sheet show").await;
    assert_eq!(
        out.field("Revelations").unwrap(),
        "`1` Light slot 7 · 1 Secret(s), 1 Evidence · Lady Vane\n`2` Flesh slot 7 · 1 Secret(s) · Duke"
    );
    assert_schema_clean(&t);
    t.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn facets_step_and_acting_against_one_costs_its_die_in_stress() {
    let t = table("vr-facets", 12).await;
    ok(&t, "fc", "/fc set name:player_edits value:approval").await;
    ok(
        &t,
        "alice",
        "/vr sheet create name:Ada light:6 flesh:6 facet:Cruel",
    )
    .await;
    // Stepping a Facet and a Facet above d6 are the referee's (issue 13):
    // the player's ask, the referee approves.
    let out = ok(&t, "alice", "/vr facet step facet:Cruel direction:up").await;
    assert_eq!(out.title(), "🙋 A change waits for the referee");
    let ex = t.tool("fc", "Approve").await.unwrap();
    assert_eq!(
        ex.outputs[1].content(),
        "**Ada** steps a Facet up: 📶 Facet 1: d6 → **d8**"
    );
    ok(&t, "alice", "/vr facet add phrase:Blacksmith die:d10").await;
    let ex = t.tool("fc", "Approve").await.unwrap();
    assert!(ex.outputs[1]
        .text()
        .contains("✨ Facet 2: **d10** *Blacksmith*"));
    let out = ok(&t, "alice", "/vr stress against:1").await;
    assert_eq!(out.title(), "🟡 +3 Stress · Light slots 1–3");
    assert_eq!(author(&out), "Ada · acts against a Facet");
    assert_eq!(
        out.embeds()[0]["description"].as_str().unwrap(),
        "Facet die d8 **3**\n💢 **3 Stress** for acting against *Cruel*"
    );
    let choices = t
        .autocomplete("alice", "/vr stress against:b", "against")
        .await
        .unwrap();
    assert_eq!(choices.len(), 1);
    assert_eq!(choices[0]["name"], "2. Blacksmith (d10)");
    assert_eq!(choices[0]["value"], "2");
    let out = ok(&t, "fc", "/vr facet remove facet:Blacksmith player:alice").await;
    assert!(out.text().contains("✖️ Facet 2 removed: *Blacksmith*"));
    assert_eq!(sheet_of(&t, "alice").await.0.facets().len(), 1);
    assert_schema_clean(&t);
    t.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn settings_change_how_a_locked_slot_reads() {
    let t = table("vr-settings", 42).await;
    // A one-system server: `/game` shows the house rules in force here.
    t.command("fc", "/fc set name:system value:veracity")
        .await
        .unwrap();
    let ex = t.command("alice", "/game").await.unwrap();
    assert_eq!(ex.single().kind, "ephemeral");
    assert!(ex
        .single()
        .field("vr_locked_slot")
        .unwrap()
        .starts_with("**fail**"));
    let out = ok(
        &t,
        "fc",
        "/vr-gm settings set name:vr_locked_slot value:Success",
    )
    .await;
    assert!(
        out.text()
            .contains("**vr_locked_slot**: fail → **success**"),
        "{}",
        out.text()
    );
    let names = t
        .autocomplete("fc", "/vr-gm settings set name:wound value:x", "name")
        .await
        .unwrap();
    assert_eq!(names[0]["value"], "vr_wound_overflow");
    ok(
        &t,
        "alice",
        "/vr sheet create name:Ada light:6 flesh:6 facet:Cruel",
    )
    .await;
    // Light 6 empty of 6, locked slots succeed: 1..18 all succeed, 90%.
    let out = ok(&t, "alice", "/vr save inventory:light").await;
    assert_eq!(footer(&out), "Chance before rolling 90%");
    assert_schema_clean(&t);
    t.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_largest_sheet_and_board_stay_schema_valid() {
    let t = table("vr-large", 1).await;
    ok(
        &t,
        "fc",
        "/vr sheet create name:Hoarder light:18 flesh:18 npc:true",
    )
    .await;
    for i in 0..18 {
        let text = format!("{i:02} {}", "secret words ".repeat(15));
        ok(
            &t,
            "fc",
            &format!("/vr item add kind:secret text:\"{}\"", text.trim()),
        )
        .await;
        let text = format!("{i:02} {}", "heavy gear ".repeat(18));
        ok(
            &t,
            "fc",
            &format!("/vr item add kind:means text:\"{}\"", text.trim()),
        )
        .await;
    }
    for f in ["A", "B", "C", "D"] {
        ok(
            &t,
            "fc",
            &format!(
                "/vr facet add phrase:\"{f} {}\" die:d12",
                "long phrase ".repeat(8).trim()
            ),
        )
        .await;
    }
    let out = ok(&t, "fc", "/vr sheet show").await;
    let e = &out.embeds()[0];
    for f in e["fields"].as_array().unwrap() {
        assert!(f["value"].as_str().unwrap().chars().count() <= 1024);
    }
    assert_eq!(
        out.field("Light (18/18 used)").unwrap().lines().count(),
        18,
        "every item is listed, shortened"
    );
    for i in 0..25 {
        ok(
            &t,
            "fc",
            &format!(
                "/vr-gm convention add text:\"{i:02} {}\" cost:+d100 once:true",
                "never do this thing ".repeat(9).trim()
            ),
        )
        .await;
    }
    refused(
        &t,
        "fc",
        "/vr-gm convention add text:More cost:+1",
        "at most 25 Conventions",
    )
    .await;
    let out = ok(&t, "fc", "/vr convention list").await;
    let options = out.body["components"][0]["components"][0]["options"]
        .as_array()
        .unwrap()
        .len();
    assert_eq!(options, 25);
    assert!(
        out.embeds()[0]["description"]
            .as_str()
            .unwrap()
            .chars()
            .count()
            <= 4096
    );
    // A big heart attack on a full Flesh is still one readable message.
    ok(&t, "fc", "/vr wound amount:50d100").await;
    assert!(sheet_of(&t, "fc").await.0.is_dead());
    assert_schema_clean(&t);
    t.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_sandbox_example_plays_clean() {
    let t = table("vr-example", 1).await;
    let script = std::fs::read_to_string(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/examples/veracity.txt"
    ))
    .unwrap();
    for line in script.lines() {
        if let Some((who, ex)) = t
            .run_line(line)
            .await
            .unwrap_or_else(|e| panic!("{line}: {e}"))
        {
            assert!(!ex.outputs.is_empty(), "{line}: no reply");
            for o in &ex.outputs {
                assert!(
                    !o.content().starts_with("⚠️"),
                    "{who}: {line}: refused: {}",
                    o.content()
                );
            }
        }
    }
    assert_schema_clean(&t);
    t.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn facet_autocomplete_fits_discord_with_the_longest_phrase() {
    let t = table("vr-facet-long", 1).await;
    let phrase = "p".repeat(100);
    ok(
        &t,
        "alice",
        &format!("/vr sheet create name:Ada light:6 flesh:6 facet:{phrase}"),
    )
    .await;
    for line in [
        "/vr facet step facet: direction:up",
        "/vr facet remove facet:",
        "/vr save inventory:light facet:",
    ] {
        let choices = t.autocomplete("alice", line, "facet").await.unwrap();
        let name = choices[0]["name"].as_str().unwrap();
        assert!(
            name.chars().count() <= 100,
            "{line}: {} chars",
            name.chars().count()
        );
        assert!(
            name.starts_with("1. ppp") && name.ends_with("(d6)"),
            "{name}"
        );
        assert_eq!(choices[0]["value"], "1");
    }
    // The fake applies Discord's autocomplete rules to every answer.
    assert_schema_clean(&t);
    t.stop().await;
}

/// The referee presses a button, and the click must be answered.
async fn referee_clicks(t: &Table, label: &str) -> kismet::fake::table::Exchange {
    t.tool("fc", label)
        .await
        .unwrap_or_else(|e| panic!("{label}: {e}"))
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn issue_14_a_secret_levels_up_once_whatever_its_wording() {
    let t = table("vr-i14-ids", 3).await;
    ok(
        &t,
        "alice",
        "/vr sheet create name:Ada light:6 flesh:6 facet:Nosy",
    )
    .await;
    ok(
        &t,
        "alice",
        "/vr item add kind:secret text:\"The Duke poisoned the well\"",
    )
    .await;
    ok(&t, "alice", "/vr reveal target:Vane secrets:1 gain:light").await;
    referee_clicks(&t, "Confirm — shocked").await;
    // New words, same Secret: it has been used.
    ok(
        &t,
        "alice",
        "/vr item add inventory:light slot:1 text:\"The Duke poisoned the old well\"",
    )
    .await;
    refused(
        &t,
        "alice",
        "/vr reveal target:Orlok secrets:1 gain:light",
        "already used",
    )
    .await;
    let (s, _) = sheet_of(&t, "alice").await;
    assert_eq!(s.light().unlocked(), 7);
    assert_schema_clean(&t);
    t.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn issue_14_a_revealed_secret_is_news_for_everyone_and_holders_are_told() {
    let t = table("vr-i14-news", 3).await;
    ok(
        &t,
        "alice",
        "/vr sheet create name:Ada light:6 flesh:6 facet:Nosy",
    )
    .await;
    ok(
        &t,
        "bob",
        "/vr sheet create name:Bram light:6 flesh:6 facet:Loyal",
    )
    .await;
    ok(
        &t,
        "alice",
        "/vr item add kind:secret text:\"The Duke poisoned the well\"",
    )
    .await;
    ok(&t, "bob", "/vr item add kind:ruse text:\"I am a priest\"").await;
    ok(
        &t,
        "bob",
        "/vr item add kind:secret text:\"the duke  poisoned the WELL\"",
    )
    .await;
    ok(&t, "alice", "/vr reveal target:Vane secrets:1 gain:light").await;
    let ex = referee_clicks(&t, "Confirm — shocked").await;
    let news = ex.outputs.last().unwrap().content().to_string();
    assert!(
        news.contains("Bram's Secret")
            && news.contains("`/vr item remove inventory:light slot:2 character:Bram`"),
        "{news}"
    );
    // Bo's copy levels nobody up now, against the same NPC or another.
    refused(
        &t,
        "bob",
        "/vr reveal target:Vane secrets:2 gain:light",
        "already been revealed",
    )
    .await;
    refused(
        &t,
        "bob",
        "/vr reveal target:Orlok secrets:2 gain:flesh",
        "just news",
    )
    .await;
    ok(&t, "bob", "/vr item remove inventory:light slot:2").await;
    let (s, _) = sheet_of(&t, "bob").await;
    assert_eq!(
        (s.light().unlocked(), s.light().count(ItemKind::Secret)),
        (6, 0)
    );
    assert_schema_clean(&t);
    t.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn issue_14_the_referee_judges_a_revelation() {
    let t = table("vr-i14-judge", 3).await;
    ok(
        &t,
        "alice",
        "/vr sheet create name:Ada light:6 flesh:6 facet:Nosy",
    )
    .await;
    ok(
        &t,
        "alice",
        "/vr item add kind:secret text:\"The abbot hoards grain\"",
    )
    .await;
    ok(
        &t,
        "alice",
        "/vr item add kind:secret text:\"The count is a bastard\"",
    )
    .await;
    // Not greater than the last: no slot; the Secret is out anyway.
    let out = ok(&t, "alice", "/vr reveal target:Vane secrets:1 gain:light").await;
    assert_eq!(
        out.buttons()
            .iter()
            .map(|b| b.0.as_str())
            .collect::<Vec<_>>(),
        vec!["⚙ Referee"],
        "the referee judges privately"
    );
    let ex = referee_clicks(&t, "Not greater").await;
    assert_eq!(
        ex.outputs[0].title(),
        "❌ Not greater than the last · no slot"
    );
    assert_eq!(sheet_of(&t, "alice").await.0.light().unlocked(), 6);
    refused(
        &t,
        "alice",
        "/vr reveal target:Vane secrets:1 gain:light",
        "already been revealed",
    )
    .await;
    // Not shocked: no slot either.
    ok(&t, "alice", "/vr reveal target:Vane secrets:2 gain:flesh").await;
    let ex = referee_clicks(&t, "Confirm — not shocked").await;
    assert_eq!(ex.outputs[0].title(), "❌ Not shocked · no slot");
    let (s, _) = sheet_of(&t, "alice").await;
    assert_eq!((s.light().unlocked(), s.flesh().unlocked()), (6, 6));
    assert!(s.revelation_log().is_empty());
    assert_schema_clean(&t);
    t.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn issue_14_stress_and_wounds_leave_by_rest_or_the_referee() {
    let t = table("vr-i14-rest", 3).await;
    ok(&t, "fc", "/fc set name:player_edits value:approval").await;
    ok(
        &t,
        "alice",
        "/vr sheet create name:Ada light:6 flesh:6 facet:Nosy",
    )
    .await;
    ok(&t, "alice", "/vr stress amount:2").await;
    ok(&t, "alice", "/vr wound amount:1").await;
    // A player's removal of a Stress asks the referee, who rejects it.
    let out = ok(&t, "alice", "/vr item remove inventory:light slot:1").await;
    assert_eq!(out.title(), "🙋 A change waits for the referee");
    assert!(
        out.text().contains("Ada's Light slot 1: Stress → empty"),
        "{}",
        out.text()
    );
    referee_clicks(&t, "Reject").await;
    assert_eq!(
        sheet_of(&t, "alice")
            .await
            .0
            .light()
            .count(ItemKind::Stress),
        2
    );
    // The Wound: approved.
    ok(&t, "alice", "/vr item remove inventory:flesh slot:1").await;
    referee_clicks(&t, "Approve").await;
    assert_eq!(
        sheet_of(&t, "alice").await.0.flesh().count(ItemKind::Wound),
        0
    );
    // Under fc_only the player is refused, naming who can.
    ok(&t, "fc", "/fc set name:player_edits value:fc_only").await;
    refused(
        &t,
        "alice",
        "/vr item remove inventory:light slot:2",
        "`fc_only`",
    )
    .await;
    // Resting still works for the player.
    ok(&t, "alice", "/vr rest what:stress").await;
    assert_eq!(
        sheet_of(&t, "alice")
            .await
            .0
            .light()
            .count(ItemKind::Stress),
        1
    );
    assert_schema_clean(&t);
    t.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn issue_14_the_owner_chooses_what_a_heart_attacks_wounds_displace() {
    let t = table("vr-i14-heart", 22).await;
    ok(
        &t,
        "alice",
        "/vr sheet create name:Ada light:4 flesh:8 facet:Nosy",
    )
    .await;
    for n in 1..=8 {
        ok(&t, "alice", &format!("/vr item add kind:means text:M{n}")).await;
    }
    ok(&t, "alice", "/vr stress amount:4").await;
    ok(&t, "alice", "/vr stress amount:1").await; // first Break
    ok(&t, "alice", "/vr stress amount:4").await;
    let out = ok(&t, "alice", "/vr stress amount:1").await; // heart attack
    let d = out.embeds()[0]["description"].as_str().unwrap().to_string();
    assert!(d.starts_with("Heart attack d20 **3**"), "{d}");
    assert_eq!(out.title(), "💥 Break 2 · heart attack, 3 Wounds");
    assert!(d.contains("⏳ 3 more Wound(s) need room"), "{d}");
    let (s, _) = sheet_of(&t, "alice").await;
    assert_eq!(
        (s.flesh().count(ItemKind::Means), s.pending_wounds()),
        (8, 3)
    );
    // Nothing was lost yet; the owner picks, not another player.
    assert!(
        t.click("bob", "Lose Flesh 2: Means M2")
            .await
            .unwrap()
            .single()
            .kind
            == "ephemeral"
    );
    for n in [2, 5, 7] {
        t.click("alice", &format!("Lose Flesh {n}: Means M{n}"))
            .await
            .unwrap();
    }
    let (s, _) = sheet_of(&t, "alice").await;
    assert_eq!(s.pending_wounds(), 0);
    assert_eq!(flesh(&s), "💰🩸💰💰🩸💰 🩸💰🔒🔒🔒🔒 🔒🔒🔒🔒🔒🔒");
    assert!(!s.is_dead());
    assert_schema_clean(&t);
    t.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn issue_14_small_fixes_empty_facet_article_minus_sign() {
    let t = table("vr-i14-small", 42).await;
    ok(
        &t,
        "alice",
        "/vr sheet create name:Ada light:6 flesh:6 facet:Cruel",
    )
    .await;
    // An empty Facet name is no Facet, even when there is only one.
    refused(&t, "alice", "/vr stress against:\"\"", "Name a Facet").await;
    refused(
        &t,
        "fc",
        "/vr facet step facet:\"\" direction:up player:alice",
        "Name a Facet",
    )
    .await;
    let (s, _) = sheet_of(&t, "alice").await;
    assert_eq!(s.facets()[0].die.to_string(), "d6");
    refused(
        &t,
        "alice",
        "/vr reveal target:X secrets:1 gain:light",
        "does not hold a Secret",
    )
    .await;
    refused(
        &t,
        "alice",
        "/vr reveal target:X secrets:1 evidence:2 gain:light",
        "",
    )
    .await;
    ok(&t, "alice", "/vr item add kind:means text:Rope").await;
    ok(&t, "alice", "/vr item add kind:secret text:S").await;
    refused(
        &t,
        "alice",
        "/vr reveal target:X secrets:1 evidence:1 gain:light",
        "does not hold an Evidence",
    )
    .await;
    // A negative total is written with the same minus sign as modifiers.
    let out = ok(&t, "alice", "/vr save inventory:light modifier:-30").await;
    let total = out.field("Total").unwrap();
    assert!(total.contains(" − 30 = **−"), "{total}");
    let title = out.title();
    assert!(title.starts_with("✅ Success · total −"), "{title}");
    assert!(title.ends_with(" is 0 or lower"), "{title}");
    let d = out.embeds()[0]["description"].as_str().unwrap().to_string();
    assert!(
        !d.contains('-') && !total.contains('-') && !title.contains('-'),
        "{d}"
    );
    t.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn issue_14_the_referee_applies_anyones_facet_and_the_dead_cannot_save() {
    let t = table("vr-i14-help", 42).await;
    ok(
        &t,
        "alice",
        "/vr sheet create name:Ada light:8 flesh:4 facet:Cruel",
    )
    .await;
    ok(
        &t,
        "bob",
        "/vr sheet create name:Bo light:6 flesh:6 facet:Sly",
    )
    .await;
    refused(
        &t,
        "alice",
        "/vr save inventory:light facet_of:@bob their_facet:Sly",
        "Only the referee",
    )
    .await;
    let out = ok(
        &t,
        "fc",
        "/vr save inventory:light player:alice facet_of:@bob their_facet:Sly",
    )
    .await;
    let d = out.embeds()[0]["description"].as_str().unwrap().to_string();
    assert!(d.contains("Sly (of Bo)"), "{d}");
    // Death: every Flesh slot wounded. The dead make no saves.
    ok(&t, "alice", "/vr wound amount:4").await;
    assert!(sheet_of(&t, "alice").await.0.is_dead());
    refused(
        &t,
        "alice",
        "/vr save inventory:flesh",
        "is dead and cannot make saves",
    )
    .await;
    t.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_referee_table_example_plays_clean() {
    let t = table("vr-table-example", 1).await;
    let script = std::fs::read_to_string(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/examples/veracity-table.txt"
    ))
    .unwrap();
    let mut titles = Vec::new();
    for line in script.lines() {
        if let Some((who, ex)) = t
            .run_line(line)
            .await
            .unwrap_or_else(|e| panic!("{line}: {e}"))
        {
            assert!(!ex.outputs.is_empty(), "{line}: no reply");
            for o in &ex.outputs {
                assert!(
                    !o.content().starts_with("⚠️"),
                    "{who}: {line}: refused: {}",
                    o.content()
                );
                titles.push(o.title());
            }
        }
    }
    let asked = titles
        .iter()
        .filter(|t| *t == "🙋 A change waits for the referee")
        .count();
    assert_eq!(asked, 3, "{titles:?}");
    assert!(titles.iter().any(|t| t == "✅ Change approved"));
    assert_eq!(
        titles.iter().filter(|t| *t == "❌ Change rejected").count(),
        2
    );
    // Approved: Cruel d8. Rejected: no Blacksmith, and the Stress left by rest.
    let (ada, _) = sheet_of(&t, "alice").await;
    assert_eq!(ada.facets()[0].die.to_string(), "d8");
    let (bram, _) = sheet_of(&t, "bob").await;
    assert_eq!(bram.facets().len(), 1);
    // The Break was undone: Ada can level up, and holds the 1 + 5 Stress
    // from before the mistyped one.
    assert_eq!(ada.break_count(), 0);
    assert!(ada.can_level_up());
    assert_eq!(ada.light().count(ItemKind::Stress), 6);
    assert_schema_clean(&t);
    t.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn issue_29_stress_wounds_and_facets_change_only_the_rules_ways() {
    let t = table("vr-i29-ways", 3).await;
    ok(
        &t,
        "alice",
        "/vr sheet create name:Ada light:6 flesh:6 facet:Nosy",
    )
    .await;
    ok(&t, "fc", "/vr facet add phrase:Cruel die:d12 character:Ada").await;
    ok(&t, "alice", "/vr stress amount:2").await;
    ok(&t, "alice", "/vr wound amount:1").await;
    ok(&t, "fc", "/fc set name:player_edits value:free").await;
    // Under `free` the player's word still empties no Stress or Wound and
    // drops no Facet above d4: each refusal points to the rules' way.
    refused(
        &t,
        "alice",
        "/vr item remove inventory:light slot:1",
        "`/vr rest what:stress slot:1`",
    )
    .await;
    refused(
        &t,
        "alice",
        "/vr item remove inventory:flesh slot:1",
        "`/vr rest what:wound slot:1`",
    )
    .await;
    refused(
        &t,
        "alice",
        "/vr facet remove facet:Cruel",
        "Only a d4 Facet can be replaced",
    )
    .await;
    refused(
        &t,
        "alice",
        "/vr facet remove facet:Nosy",
        "\"Nosy\" is a d6",
    )
    .await;
    let (s, _) = sheet_of(&t, "alice").await;
    assert_eq!(
        (
            s.light().count(ItemKind::Stress),
            s.flesh().count(ItemKind::Wound),
            s.facets().len()
        ),
        (2, 1, 2),
        "nothing changed"
    );
    // A d4 Facet may be replaced; the player's own items leave freely.
    for line in [
        "/vr facet step facet:Nosy direction:down",
        "/vr facet remove facet:Nosy",
    ] {
        let ex = t.command("alice", line).await.unwrap();
        let said = ex.outputs[0].content().to_string();
        assert!(said.starts_with("📣"), "{line}: {said}");
    }
    ok(&t, "alice", "/vr item add kind:ruse text:\"I am a priest\"").await;
    ok(&t, "alice", "/vr item remove inventory:light slot:3").await;
    // Rest is the rules' way; the referee may always correct a sheet.
    ok(&t, "alice", "/vr rest what:stress").await;
    ok(
        &t,
        "fc",
        "/vr item remove inventory:flesh slot:1 character:Ada",
    )
    .await;
    ok(&t, "fc", "/vr facet remove facet:Cruel character:Ada").await;
    let (s, _) = sheet_of(&t, "alice").await;
    assert_eq!(
        (
            s.light().count(ItemKind::Stress),
            s.flesh().count(ItemKind::Wound),
            s.facets().len()
        ),
        (1, 0, 0)
    );
    // Under `approval` the player's removal still waits for the referee.
    ok(&t, "fc", "/fc set name:player_edits value:approval").await;
    let out = ok(&t, "alice", "/vr item remove inventory:light slot:1").await;
    assert_eq!(out.title(), "🙋 A change waits for the referee");
    assert_schema_clean(&t);
    t.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn issue_29_a_revealed_secret_is_news_for_the_revealer_too() {
    let t = table("vr-i29-news", 3).await;
    ok(
        &t,
        "alice",
        "/vr sheet create name:Ada light:6 flesh:6 facet:Nosy",
    )
    .await;
    ok(
        &t,
        "alice",
        "/vr item add kind:secret text:\"The Duke poisoned the well\"",
    )
    .await;
    ok(
        &t,
        "alice",
        "/vr item add kind:secret text:\"The abbot hoards grain\"",
    )
    .await;
    // Shocked: the slot is gained and Ada's own copy is news.
    ok(&t, "alice", "/vr reveal target:Vane secrets:1 gain:light").await;
    let ex = referee_clicks(&t, "Confirm — shocked").await;
    let news = ex.outputs.last().unwrap().content().to_string();
    assert!(
        news.contains(
            "Ada's Secret \"The Duke poisoned the well\" (Light slot 1) is just news now"
        ) && news.contains("`/vr item remove inventory:light slot:1 character:Ada`"),
        "{news}"
    );
    assert!(
        news.contains("`/vr stress cause:\"shocked by a Secret\" character:Vane`"),
        "{news}"
    );
    // Not shocked: the Secret is out all the same.
    ok(&t, "alice", "/vr reveal target:Orlok secrets:2 gain:light").await;
    let ex = referee_clicks(&t, "Confirm — not shocked").await;
    let news = ex.outputs.last().unwrap().content().to_string();
    assert!(
        news.contains("`/vr item remove inventory:light slot:2 character:Ada`"),
        "{news}"
    );
    ok(&t, "alice", "/vr item remove inventory:light slot:1").await;
    let (s, _) = sheet_of(&t, "alice").await;
    assert_eq!(
        (s.light().unlocked(), s.light().count(ItemKind::Secret)),
        (7, 1)
    );
    assert_schema_clean(&t);
    t.stop().await;
}

/// Issue 31 item 1: `/vr item add` also rewrites an item in a slot (it was
/// `/vr item edit`), `/vr sheet edit` sets HP or unlocks a slot (it was
/// `/vr sheet hp` and `/vr sheet slot`), and `/vr stress against:` is
/// acting against a Facet (it was `/vr facet against`); bad combinations
/// are refused privately and change nothing.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn issue_31_item_add_rewrites_sheet_edit_unlocks_and_stress_against_a_facet() {
    let t = table("vr-i31-merge", 9).await;
    ok(
        &t,
        "alice",
        "/vr sheet create name:Ada light:6 flesh:6 facet:Cruel",
    )
    .await;
    refused(
        &t,
        "alice",
        "/vr item add text:Map",
        "Give the new item's `kind`",
    )
    .await;
    refused(
        &t,
        "alice",
        "/vr item add text:Map slot:1",
        "both `inventory` and `slot`",
    )
    .await;
    ok(&t, "alice", "/vr item add kind:secret text:\"The well\"").await;
    refused(
        &t,
        "alice",
        "/vr item add kind:ruse inventory:light slot:1 text:Other",
        "keeps its kind",
    )
    .await;
    let out = ok(
        &t,
        "alice",
        "/vr item add inventory:light slot:1 text:\"The poisoned well\"",
    )
    .await;
    assert!(
        out.text()
            .contains("Light slot 1 now reads *The poisoned well*"),
        "{}",
        out.text()
    );
    let (s, _) = sheet_of(&t, "alice").await;
    let item = s.light().get(1).unwrap();
    assert_eq!(item.text, "The poisoned well");
    assert_eq!(item.kind, ItemKind::Secret);
    assert_eq!(s.light().unlocked(), 6);

    refused(
        &t,
        "fc",
        "/vr sheet edit player:alice",
        "Say what to change",
    )
    .await;
    refused(
        &t,
        "fc",
        "/vr sheet edit current:3 player:alice",
        "give `current` and `max`",
    )
    .await;
    refused(
        &t,
        "fc",
        "/vr sheet edit current:3 max:3 unlock:light player:alice",
        "One change at a time",
    )
    .await;
    let out = ok(&t, "fc", "/vr sheet edit unlock:light player:alice").await;
    assert!(
        out.text().to_lowercase().contains("unlocks a light slot"),
        "{}",
        out.text()
    );
    let (s, _) = sheet_of(&t, "alice").await;
    assert_eq!(s.light().unlocked(), 7);
    assert_eq!(s.hp_max(), 0);

    refused(
        &t,
        "alice",
        "/vr stress against:1 amount:2",
        "leave `amount` and `cause` out",
    )
    .await;
    refused(
        &t,
        "alice",
        "/vr stress against:1 cause:\"social attack\"",
        "leave `amount` and `cause` out",
    )
    .await;
    let (s, _) = sheet_of(&t, "alice").await;
    assert_eq!(s.light().empty_count(), 6);
    let out = ok(&t, "alice", "/vr stress against:Cruel").await;
    assert_eq!(author(&out), "Ada · acts against a Facet");
    assert!(
        out.text().contains("for acting against *Cruel*"),
        "{}",
        out.text()
    );
    assert_schema_clean(&t);
    t.stop().await;
}

/// The public "just news now" line names the holder without markdown; the
/// command it suggests keeps the name as typed, which is what resolves.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn news_of_a_revealed_secret_names_the_holder_without_markdown() {
    let t = table("vr-news-clean", 3).await;
    ok(
        &t,
        "alice",
        "/vr sheet create name:A*d_a light:6 flesh:6 facet:Nosy",
    )
    .await;
    ok(
        &t,
        "alice",
        "/vr item add kind:secret text:\"The Duke poisoned the well\"",
    )
    .await;
    ok(&t, "alice", "/vr reveal target:Vane secrets:1 gain:light").await;
    let ex = referee_clicks(&t, "Confirm — not shocked").await;
    let news = ex.outputs.last().unwrap().content().to_string();
    assert!(
        news.contains(
            ">: Ada's Secret \"The Duke poisoned the well\" (Light slot 1) is just news now"
        ) && news.contains("`/vr item remove inventory:light slot:1 character:A*d_a`"),
        "{news}"
    );
    t.stop().await;
}

/// A revelation request and the shocked NPC's line name the revealer and
/// the NPC without markdown; the suggested command keeps the NPC's name as
/// typed.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_revelation_names_revealer_and_npc_without_markdown() {
    let t = table("vr-reveal-clean", 3).await;
    ok(
        &t,
        "alice",
        "/vr sheet create name:A*d_a light:6 flesh:6 facet:Nosy",
    )
    .await;
    let added = ok(
        &t,
        "alice",
        "/vr item add kind:secret text:\"The Duke poisoned_the well\"",
    )
    .await;
    assert!(
        added.content().starts_with("**Ada** adds a Secret"),
        "{}",
        added.content()
    );
    let asked = ok(&t, "alice", "/vr reveal target:V_an*e secrets:1 gain:light").await;
    assert!(
        asked
            .text()
            .contains(r#"— **Ada** reveals to *Vane*: "The Duke poisoned\_the well""#),
        "{}",
        asked.text()
    );
    let ex = referee_clicks(&t, "Confirm — shocked").await;
    let all: String = ex.outputs.iter().map(|o| o.text()).collect();
    assert!(all.contains("📣 Revelation 1: *Vane* is shocked"), "{all}");
    let news = ex.outputs.last().unwrap().content().to_string();
    assert!(
        news.contains("😱 *Vane* is shocked: +d6 Stress (VR-16).")
            && news.contains("character:V_an*e`"),
        "{news}"
    );
    t.stop().await;
}

/// User-typed texts shown in italics (item texts, Facet phrases, Convention
/// texts, a save's Facet labels) show as typed, their markdown escaped: a
/// `*` inside `*…*` would end the italics early, and stripping it would
/// change what the player wrote (`poisoned_the` is not `poisonedthe`).
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn italic_user_texts_are_shown_as_typed() {
    let t = table("vr-italic-clean", 3).await;
    ok(
        &t,
        "alice",
        "/vr sheet create name:Ada light:6 flesh:6 facet:Nosy",
    )
    .await;
    let added = ok(
        &t,
        "alice",
        "/vr item add kind:secret text:\"The *Duke* poisoned_the well\"",
    )
    .await;
    assert!(
        added
            .content()
            .ends_with(r"➕ Light slot 1: 🤫 Secret *The \*Duke\* poisoned\_the well*"),
        "{}",
        added.content()
    );
    let edited = ok(
        &t,
        "alice",
        "/vr item add inventory:light slot:1 text:\"The `Duke` ~~lied~~\"",
    )
    .await;
    assert!(
        edited
            .content()
            .contains(r"now reads *The \`Duke\` \~\~lied\~\~*"),
        "{}",
        edited.content()
    );
    let facet = ok(
        &t,
        "fc",
        "/vr facet add phrase:\"Loyal to the **Duke**\" player:alice",
    )
    .await;
    assert!(
        facet
            .text()
            .contains(r"✨ Facet 2: **d6** *Loyal to the \*\*Duke\*\**"),
        "{}",
        facet.text()
    );
    let against = ok(&t, "alice", "/vr stress against:2").await;
    assert!(
        against
            .text()
            .contains(r" for acting against *Loyal to the \*\*Duke\*\**"),
        "{}",
        against.text()
    );
    let save = ok(&t, "alice", "/vr save inventory:flesh facet:2").await;
    assert!(
        save.text().contains(r"*Loyal to the \*\*Duke\*\**"),
        "{}",
        save.text()
    );
    ok(
        &t,
        "fc",
        "/vr-gm convention add text:\"Never _swear_ at the |table|\" cost:+1",
    )
    .await;
    let violated = ok(&t, "alice", "/vr convention violate number:1").await;
    assert!(
        violated
            .text()
            .contains(r" for violating *Never \_swear\_ at the \|table\|*"),
        "{}",
        violated.text()
    );
    let removed = ok(&t, "fc", "/vr-gm convention remove number:1").await;
    assert!(
        removed
            .text()
            .contains(r"removed: *Never \_swear\_ at the \|table\|*"),
        "{}",
        removed.text()
    );
    let gone = ok(&t, "fc", "/vr facet remove facet:2 player:alice").await;
    assert!(
        gone.text()
            .contains(r"removed: *Loyal to the \*\*Duke\*\**"),
        "{}",
        gone.text()
    );
    t.stop().await;
}

/// The server's `max_dice_per_roll` caps the dice an amount rolls (Stress,
/// Wounds, damage): more is refused, privately, and nothing changes.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn amounts_stay_within_the_servers_dice_cap() {
    let t = table("vr-dice-cap", 3).await;
    ok(&t, "fc", "/fc set name:max_dice_per_roll value:5").await;
    ok(
        &t,
        "alice",
        "/vr sheet create name:Ada light:6 flesh:6 facet:Nosy",
    )
    .await;
    let before = sheet_of(&t, "alice").await;
    let cap = "This server allows at most 5 dice per roll, not 6.";
    refused(&t, "alice", "/vr stress amount:6d4", cap).await;
    refused(&t, "alice", "/vr wound amount:6d4", cap).await;
    refused(&t, "alice", "/vr damage amount:6d4", cap).await;
    refused(&t, "alice", "/vr save inventory:light on_fail:6d4", cap).await;
    assert_eq!(sheet_of(&t, "alice").await, before);
    ok(&t, "alice", "/vr stress amount:5d4").await;
    t.stop().await;
}

/// The board's "paid:" names and the scene's "HP restored" names are
/// shown without markdown, as names are everywhere else: `A*d_a` reads
/// `Ada`, and a `*` cannot run into the cost's bold.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_board_and_the_scene_end_name_characters_without_markdown() {
    let t = table("vr-board-names", 3).await;
    ok(
        &t,
        "alice",
        "/vr sheet create name:A*d_a light:6 flesh:6 facet:Nosy",
    )
    .await;
    ok(&t, "fc", "/vr sheet edit current:0 max:3 player:alice").await;
    ok(
        &t,
        "fc",
        "/vr-gm convention add text:\"Bow to the Duke\" cost:+1 once:true",
    )
    .await;
    let ex = t
        .select("alice", "Violated a Convention…", &["0".into()])
        .await
        .unwrap();
    let board = ex.outputs[0].text();
    assert!(
        board.contains("**1.** Bow to the Duke — **+1** · once per scene · paid: Ada\n")
            || board.ends_with("paid: Ada"),
        "{board}"
    );
    let out = ok(&t, "fc", "/vr-gm scene end").await;
    assert_eq!(out.field("HP restored").unwrap(), "❤️ 0 → **3** Ada");
    t.stop().await;
}

/// A full Convention board of long texts is shortened in the texts only:
/// every line keeps its cost, and markdown typed in a Convention, an item
/// or a Facet phrase is escaped, never pairing with the board's or the
/// sheet's own bold.
#[tokio::test]
async fn the_board_and_the_sheet_cut_and_escape_user_texts_never_their_own_words() {
    let t = table("vr-board-fit", 3).await;
    ok(
        &t,
        "alice",
        "/vr sheet create name:Ada light:6 flesh:6 facet:\"Loyal to the **Duke\"",
    )
    .await;
    ok(
        &t,
        "alice",
        "/vr item add kind:secret text:\"The *Duke* poisoned_the well\"",
    )
    .await;
    let sheet = ok(&t, "alice", "/vr sheet show").await;
    assert_eq!(
        sheet.field("Light (1/6 used)").unwrap(),
        r"` 1` 🤫 The \*Duke\* poisoned\_the well"
    );
    assert_eq!(
        sheet.field("Facets").unwrap(),
        r"`1` **d6** Loyal to the \*\*Duke"
    );
    let long = format!("Never **{}", "mention the Duke and his debts ".repeat(6));
    let long = long.trim_end();
    assert_eq!(long.chars().count(), 193);
    for _ in 0..25 {
        ok(
            &t,
            "fc",
            &format!("/vr-gm convention add text:\"{long}\" cost:+3"),
        )
        .await;
    }
    let board = ok(&t, "alice", "/vr convention list").await;
    let text = board.embeds()[0]["description"]
        .as_str()
        .unwrap()
        .to_string();
    assert!(text.chars().count() <= 4096, "{}", text.chars().count());
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(lines.len(), 25, "{text}");
    for (i, line) in lines.iter().enumerate() {
        assert!(
            line.starts_with(&format!(r"**{}.** Never \*\*mention", i + 1)),
            "{line}"
        );
        assert!(line.ends_with("… — **+3**"), "{line}");
        // The two typed asterisks escaped; the number's and the cost's bold.
        assert_eq!(line.matches(r"\*\*").count(), 1, "{line}");
        assert_eq!(line.replace(r"\*", "").matches("**").count(), 4, "{line}");
    }
    t.stop().await;
}
