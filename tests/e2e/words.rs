//! Words for people (issue 31 item 6): a newcomer's dead ends answered
//! privately with the way forward. A refusal of a name a sheet lacks lists
//! what the sheet has (closest first) and the command that adds one; a roll
//! of a stat at 0 on a fresh sheet says how to set it instead of posting a
//! red "No set".

use crate::common::{assert_schema_clean, table};
use kismet::fake::table::Table;

/// Runs a command that must succeed, failing on any refusal.
async fn ok(t: &Table, who: &str, line: &str) {
    let ex = t
        .command(who, line)
        .await
        .unwrap_or_else(|e| panic!("{line}: {e}"));
    for o in &ex.outputs {
        assert!(!o.content().starts_with("⚠️"), "{line}: {}", o.content());
    }
}

/// The private refusal of a command, exactly as the member reads it: its
/// one and only answer (nothing public is posted).
async fn refusal(t: &Table, who: &str, line: &str) -> String {
    let ex = t
        .command(who, line)
        .await
        .unwrap_or_else(|e| panic!("{line}: {e}"));
    let out = ex.single();
    assert_eq!(out.kind, "ephemeral", "{line}: {}", out.text());
    out.content().to_string()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn words_a_missing_venus_ability_or_job_lists_what_exists() {
    let t = table("words-ve", 1).await;
    ok(&t, "alice", "/ve sheet create name:Ash").await;
    assert_eq!(
        refusal(&t, "alice", "/ve check ability:Strength difficulty:10").await,
        "⚠️ Ash has no ability called Strength. It has no abilities yet; add one with `/ve sheet ability`."
    );
    ok(
        &t,
        "alice",
        "/ve sheet ability name:Finesse rank:silver score:4",
    )
    .await;
    ok(&t, "alice", "/ve sheet ability name:Wits rank:gold score:3").await;
    ok(
        &t,
        "alice",
        "/ve sheet ability name:Stealth rank:bronze score:2",
    )
    .await;
    assert_eq!(
        refusal(&t, "alice", "/ve check ability:Strength difficulty:10").await,
        "⚠️ Ash has no ability called Strength. Its abilities: Stealth, Finesse and Wits; add one with `/ve sheet ability`."
    );
    assert_eq!(
        refusal(&t, "alice", "/ve sheet job name:Thief inherits:Finese level:1 exp:0").await,
        "⚠️ Ash has no ability called Finese. Its abilities: Finesse, Wits and Stealth; add one with `/ve sheet ability`."
    );
    assert_schema_clean(&t);
    t.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn words_a_missing_veracity_facet_lists_the_facets() {
    let t = table("words-vr", 1).await;
    ok(
        &t,
        "alice",
        "/vr sheet create name:Ada light:6 flesh:6 facet:Cruel",
    )
    .await;
    ok(&t, "alice", "/vr facet add phrase:\"Brave heart\"").await;
    assert_eq!(
        refusal(&t, "alice", "/vr save inventory:light facet:Kind").await,
        "⚠️ This character has no Facet `Kind`. Its Facets: Cruel and Brave heart; add one with `/vr facet add`."
    );
    assert_schema_clean(&t);
    t.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn words_a_stat_at_zero_on_a_fresh_sheet_gets_guidance_not_a_roll() {
    let t = table("words-vv", 1).await;
    ok(&t, "alice", "/vv sheet create name:Ann").await;
    assert_eq!(
        refusal(&t, "alice", "/vv roll stat:Agility").await,
        "⚠️ Ann's Agility is 0, so there are no dice to roll. Set it with `/vv sheet set stat:Agility value:…`, or roll a number of dice with `/vv roll dice:…`."
    );
    // Once set, the same roll rolls.
    ok(&t, "alice", "/vv sheet set stat:Agility value:3").await;
    let ex = t.command("alice", "/vv roll stat:Agility").await.unwrap();
    assert_eq!(ex.single().kind, "message", "{}", ex.single().text());
    assert_schema_clean(&t);
    t.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn words_a_storyteller_trait_far_from_every_name_lists_the_sheet() {
    let t = table("words-st", 1).await;
    ok(&t, "alice", "/st sheet create name:Ada willpower:5").await;
    assert_eq!(
        refusal(&t, "alice", "/st roll traits:\"Wits + Zzzzzzzz\"").await,
        "⚠️ There is no trait called `Zzzzzzzz`. This sheet's traits, closest first: Strength, Reflexes, Wits, Firearms, Melee, Stealth, Driving, Crafting and 20 more; add one of its own with `/st sheet set trait:… kind:…`."
    );
    assert_schema_clean(&t);
    t.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn words_help_for_a_system_opens_with_a_first_session_and_cuts_no_word() {
    let t = table("words-help", 1).await;
    let ex = t
        .command("alice", "/help system:\"Virtual Veil\"")
        .await
        .unwrap();
    let out = ex.single();
    assert_eq!(out.kind, "ephemeral");
    let embed = &out.embeds()[0];
    assert_eq!(
        embed["description"].as_str().unwrap(),
        "**Start here**, a first session:\n\
         `/vv sheet create name:Ann agility:4 wit:6` make your character (a stat left out is 0)\n\
         `/vv sheet show` your character sheet\n\
         `/vv roll stat:Agility` roll a stat: matching faces make sets\n\
         `/vv-gm combat start` the Compiler opens a fight: one message runs the round\n\
         `/help` every system, and the table's commands"
    );
    // Every cut line ends after a whole word: "… and…", never "… an…".
    let commands = embed["fields"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|f| f["name"].as_str().unwrap().starts_with("Commands"))
        .flat_map(|f| f["value"].as_str().unwrap().lines().map(str::to_string))
        .collect::<Vec<_>>();
    assert!(commands.len() > 20, "{commands:?}");
    let mut descriptions = Vec::new();
    let mut stack: Vec<_> = kismet::systems::commands();
    while let Some(c) = stack.pop() {
        descriptions.extend(c.description.clone());
        stack.extend(c.subcommands);
    }
    let mut cut = 0;
    for line in commands.iter().filter(|l| l.ends_with('…')) {
        let kept = line.trim_end_matches('…').split_once("` ").unwrap().1;
        let full = descriptions
            .iter()
            .find(|d| d.starts_with(kept) && d.len() > kept.len())
            .unwrap_or_else(|| panic!("no description starts with {kept}"));
        let next = full[kept.len()..].chars().next().unwrap();
        assert!(next.is_whitespace(), "cut mid-word: {line} (of {full})");
        cut += 1;
    }
    assert!(cut > 0, "no line was long enough to cut: {commands:?}");
    assert_schema_clean(&t);
    t.stop().await;
}

/// Issue 31: an option the picker shows as optional but the rules need
/// (edition 2's appropriate difficulty, set by the FC, has no default in
/// VE2-T2; edition 1 needs none) is refused with the option named and its
/// values, and nothing starts.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn words_a_missing_venus_difficulty_names_the_option_and_its_values() {
    let t = table("words-diff", 1).await;
    ok(&t, "alice", "/ve sheet create name:Ash").await;
    ok(
        &t,
        "alice",
        "/ve sheet ability name:Finesse rank:silver score:4",
    )
    .await;
    ok(
        &t,
        "alice",
        "/ve sheet job name:Thief inherits:Finesse level:1 exp:0",
    )
    .await;
    assert_eq!(
        refusal(&t, "alice", "/ve task ability:Finesse").await,
        "⚠️ An edition-2 task needs the FC's appropriate difficulty: add `difficulty:` 1 (very easy) to 4 (very hard)."
    );
    ok(&t, "fc", "/ve-gm fc edition edition:1").await;
    // Edition 1 needs none for a task: its threshold starts at 1 (VE1).
    let ex = t
        .command("alice", "/ve task ability:Finesse")
        .await
        .unwrap();
    assert!(
        !ex.outputs[0].content().starts_with("⚠️"),
        "{}",
        ex.outputs[0].text()
    );
    assert_schema_clean(&t);
    t.stop().await;
}

/// A click with a word none of a message's buttons carries (a forged or
/// mangled custom_id) is refused privately in that message's words, and
/// changes nothing: a generic roll, a roll log's page, a Storyteller sheet
/// card and a Veracity sheet.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn words_an_unknown_button_word_is_refused_in_its_messages_words() {
    let t = table("words-buttons", 3).await;
    ok(&t, "alice", "/st sheet create name:Ada willpower:5").await;
    // A wounded sheet's card carries its own button (Ignore wound penalty).
    ok(
        &t,
        "fc",
        "/st sheet wounds dice:1 difficulty:1 player:@alice",
    )
    .await;
    ok(
        &t,
        "bob",
        "/vr sheet create name:Bo light:6 flesh:6 facet:Calm",
    )
    .await;
    for _ in 0..11 {
        ok(&t, "carol", "/roll expression:1d6").await;
    }
    for (who, line, expected) in [
        ("dave", "/roll expression:2d6", "for a roll."),
        ("carol", "/history show count:11", "for a roll log."),
        ("alice", "/st sheet show", "for a sheet."),
        ("bob", "/vr sheet show", "for this message."),
    ] {
        let ex = t.command(who, line).await.unwrap();
        let buttons = ex
            .outputs
            .iter()
            .flat_map(|o| o.buttons())
            .collect::<Vec<_>>();
        let (_, id, _) = buttons
            .first()
            .unwrap_or_else(|| panic!("{line}: no button"));
        // kind:session:version:action[:arg] with the action word forged.
        let forged = id.split(':').take(3).collect::<Vec<_>>().join(":") + ":bogus";
        let msg = t.last_message_for(who).unwrap();
        let ex = t.click_custom_id(who, msg.id, &forged, None).await.unwrap();
        let out = ex.single();
        assert_eq!(out.kind, "ephemeral", "{line}: {}", out.text());
        assert_eq!(
            out.content(),
            format!("⚠️ Unknown action `bogus` {expected}"),
            "{line}"
        );
    }
    assert_schema_clean(&t);
    t.stop().await;
}
