//! The house rule `player_edits` end to end (issue 13): a player's change
//! to what the rules leave to the game master waits for **Approve** (only
//! the FC can press it, a double click applies it once, a restart between
//! request and approval loses nothing), **Reject** changes nothing,
//! `fc_only` refuses and `free` applies with a public line.

use crate::common::{assert_schema_clean, table};
use kismet::fake::table::{Exchange, Table, GUILD_ID};
use kismet::rules::storyteller::StorytellerSheet;
use kismet::storage;

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

async fn run(t: &Table, who: &str, line: &str) -> Exchange {
    t.command(who, line)
        .await
        .unwrap_or_else(|e| panic!("{line}: {e}"))
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_storyteller_players_change_waits_for_the_storyteller() {
    let t = table("approval-st", 1).await;
    run(&t, "fc", "/fc set name:player_edits value:approval").await;
    run(&t, "alice", "/st sheet create name:Ada willpower:5").await;
    // Under `approval` the change is not applied.
    let ex = run(&t, "alice", "/st sheet willpower current:2").await;
    let out = ex.single();
    assert_eq!(out.kind, "message", "{}", out.text());
    assert_eq!(out.title(), "🙋 A change waits for the storyteller");
    assert!(
        out.text().contains("Ada's willpower ■■■■■ 5/5 → ■■□□□ 2/5"),
        "{}",
        out.text()
    );
    // The answer is the storyteller's: players see one ⚙ button, never
    // Approve or Reject (those open privately, `app::gm_panel`).
    let labels: Vec<String> = out.buttons().into_iter().map(|b| b.0).collect();
    assert_eq!(labels, vec!["⚙ Storyteller"]);
    assert_eq!(st_sheet(&t, "Ada").await.willpower().current, 5);

    // Only the storyteller may open the tools.
    let ex = t.click("alice", "⚙ Storyteller").await.unwrap();
    assert_eq!(ex.single().kind, "ephemeral");
    assert!(ex
        .single()
        .text()
        .contains("Only the storyteller can use these tools"));
    assert!(
        t.click("alice", "Approve").await.is_err(),
        "alice sees no Approve"
    );
    assert_eq!(st_sheet(&t, "Ada").await.willpower().current, 5);

    // The request survives a restart; the storyteller's panel is private.
    t.restart().await.unwrap();
    let ex = t.click("fc", "⚙ Storyteller").await.unwrap();
    let panel = ex.single();
    assert_eq!(panel.kind, "ephemeral");
    let tools: Vec<String> = panel.buttons().into_iter().map(|b| b.0).collect();
    assert_eq!(tools, vec!["Approve", "Reject"]);
    let approve_id = panel.buttons()[0].1.clone();
    let panel_id = ex.message_id.unwrap();
    let ex = t.click("fc", "Approve").await.unwrap();
    // The panel says what was done, and the request is redrawn in place.
    let kinds: Vec<&str> = ex.outputs.iter().map(|o| o.kind.as_str()).collect();
    assert_eq!(kinds[..2], ["update", "update"], "{:#?}", ex.outputs);
    assert!(ex.outputs[0].text().contains("✅ Done: Approve."));
    assert!(ex.outputs[0].buttons().is_empty(), "nothing is left to do");
    assert_eq!(ex.outputs[1].title(), "✅ Change approved");
    assert_eq!(st_sheet(&t, "Ada").await.willpower().current, 2);

    // A double click applies nothing twice.
    run(&t, "fc", "/st sheet willpower current:4 player:@alice").await;
    let again = t
        .click_custom_id("fc", panel_id, &approve_id, None)
        .await
        .unwrap();
    assert_eq!(again.single().kind, "update");
    assert!(again.single().text().contains("changed meanwhile"));
    assert_eq!(st_sheet(&t, "Ada").await.willpower().current, 4);

    // Rejected (after a confirmation): nothing changes.
    run(&t, "alice", "/st recover").await;
    t.click("fc", "⚙ Storyteller").await.unwrap();
    let ex = t.click("fc", "Reject").await.unwrap();
    assert_eq!(ex.single().title(), "⚙ Storyteller · Reject?");
    let ex = t.click("fc", "Yes, Reject").await.unwrap();
    assert_eq!(ex.outputs[1].title(), "❌ Change rejected");
    assert_eq!(st_sheet(&t, "Ada").await.willpower().current, 4);
    // The same through the test driver's shortcut.
    run(&t, "alice", "/st recover").await;
    let ex = t.tool("fc", "Reject").await.unwrap();
    assert_eq!(ex.single().title(), "❌ Change rejected");

    // fc_only: refused privately, naming who can do it.
    run(&t, "fc", "/fc set name:player_edits value:fc_only").await;
    let ex = run(&t, "alice", "/st sheet wounds dice:2").await;
    assert_eq!(ex.single().kind, "ephemeral");
    assert!(ex
        .single()
        .text()
        .contains("Only the storyteller can change the wound penalty"));
    assert_eq!(st_sheet(&t, "Ada").await.wound_penalty().dice, 0);

    // free: applied, and announced publicly.
    run(&t, "fc", "/fc set name:player_edits value:free").await;
    let ex = run(&t, "alice", "/st sheet wounds dice:2").await;
    assert_eq!(st_sheet(&t, "Ada").await.wound_penalty().dice, 2);
    let announced = ex
        .outputs
        .iter()
        .any(|o| o.kind == "message" && o.text().contains("changed Ada's wound penalty"));
    assert!(announced, "{:?}", ex.outputs);

    // Turns belong to the storyteller.
    let ex = run(&t, "alice", "/st turn").await;
    assert_eq!(ex.single().kind, "ephemeral");
    assert!(ex
        .single()
        .text()
        .contains("Only the storyteller can start a new turn"));
    assert_schema_clean(&t);
    t.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn rounds_combat_and_scenes_belong_to_the_game_master() {
    let t = table("approval-turns", 1).await;
    for line in [
        "/vv-gm endround",
        "/vv-gm endcombat",
        "/vr-gm scene end",
        "/ve-gm fc session",
    ] {
        let ex = run(&t, "alice", line).await;
        let out = ex.single();
        assert_eq!(out.kind, "ephemeral", "{line}: {}", out.text());
        // Each system names its game master (issue 13 item 5).
        let gm = match &line[..3] {
            "/vr" => "referee",
            "/vv" => "Compiler",
            _ => "FC",
        };
        assert!(
            out.text().contains(&format!("Only the {gm} can")),
            "{line}: {}",
            out.text()
        );
    }
    assert_schema_clean(&t);
    t.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_venus_players_kismet_waits_for_the_fc() {
    let t = table("approval-ve", 1).await;
    run(&t, "fc", "/fc set name:player_edits value:approval").await;
    run(&t, "alice", "/ve sheet create name:Ada").await;
    let ex = run(&t, "alice", "/ve sheet set lots:5").await;
    assert_eq!(ex.single().title(), "🙋 A change waits for the FC");
    assert!(
        ex.single().text().contains("Ada's Lots"),
        "{}",
        ex.single().text()
    );
    t.tool("fc", "Approve").await.unwrap();
    let ex = run(&t, "alice", "/ve sheet set ego:true").await;
    assert_eq!(ex.single().kind, "message");
    let ex = t.tool("fc", "Reject").await.unwrap();
    assert_eq!(ex.single().title(), "❌ Change rejected");
    let shown = run(&t, "alice", "/ve sheet show").await;
    let text = shown.single().text();
    assert!(text.contains("5/10"), "{text}");
    t.stop().await;
}

/// A character's stored sheet JSON (any owner), for the systems without a
/// typed helper here.
async fn sheet_json(t: &Table, system: &str, name: &str) -> serde_json::Value {
    let db = t.db().await.unwrap();
    let mut tx = db.read().await.unwrap();
    let rows = storage::characters::by_name_any_owner(&mut tx, GUILD_ID as i64, system, name)
        .await
        .unwrap();
    assert_eq!(rows.len(), 1, "one character named {name}");
    serde_json::from_str(&rows[0].sheet).unwrap()
}

/// Veracity and Venus Engine requests too survive a restart, are answered
/// only by their game master (in the system's word) and apply once on a
/// double click: a Facet stepped up twice would read d10, Lots set again
/// would undo the FC's later change.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn veracity_and_venus_requests_survive_a_restart_and_apply_once() {
    let t = table("approval-vr-ve", 1).await;
    run(&t, "fc", "/fc set name:player_edits value:approval").await;
    run(
        &t,
        "alice",
        "/vr sheet create name:Ada light:6 flesh:6 facet:Cruel",
    )
    .await;
    run(&t, "alice", "/ve sheet create name:Vea").await;
    let die = |s: &serde_json::Value| s["facets"][0]["die"].clone();
    let before = die(&sheet_json(&t, "veracity", "Ada").await);

    let ex = run(&t, "alice", "/vr facet step facet:Cruel direction:up").await;
    assert_eq!(ex.single().title(), "🙋 A change waits for the referee");
    let (vr_msg, vr_id) = (ex.message_id.unwrap(), ex.single().buttons()[0].1.clone());
    let ex = run(&t, "alice", "/ve sheet set lots:5").await;
    assert_eq!(ex.single().title(), "🙋 A change waits for the FC");
    let (ve_msg, ve_id) = (ex.message_id.unwrap(), ex.single().buttons()[0].1.clone());

    // Players cannot answer, in either system.
    for (msg, id, gm) in [(vr_msg, &vr_id, "referee"), (ve_msg, &ve_id, "FC")] {
        let ex = t.click_custom_id("alice", msg, id, None).await.unwrap();
        assert_eq!(ex.single().kind, "ephemeral");
        assert!(
            ex.single()
                .text()
                .contains(&format!("Only the {gm} can use these tools")),
            "{}",
            ex.single().text()
        );
    }
    assert_eq!(die(&sheet_json(&t, "veracity", "Ada").await), before);

    // Both requests survive a restart and are approved once each, from
    // the game master's private panel.
    t.restart().await.unwrap();
    let mut approvals = Vec::new();
    for (msg, id) in [(vr_msg, &vr_id), (ve_msg, &ve_id)] {
        let panel = t.click_custom_id("fc", msg, id, None).await.unwrap();
        let (panel_msg, approve) = (
            panel.message_id.unwrap(),
            panel.single().buttons()[0].clone(),
        );
        assert_eq!(approve.0, "Approve");
        let ex = t
            .click_custom_id("fc", panel_msg, &approve.1, None)
            .await
            .unwrap();
        assert_eq!(ex.outputs[1].title(), "✅ Change approved");
        approvals.push((panel_msg, approve.1));
    }
    let stepped = die(&sheet_json(&t, "veracity", "Ada").await);
    assert_ne!(stepped, before, "the Facet was stepped up");
    assert_eq!(sheet_json(&t, "venus", "Vea").await["lots"], 5);

    // The FC sets Lots to 7; double clicks then change nothing.
    run(&t, "fc", "/ve sheet set lots:7 player:@alice").await;
    for (msg, id) in &approvals {
        let again = t.click_custom_id("fc", *msg, id, None).await.unwrap();
        assert_eq!(again.outputs[0].kind, "update");
    }
    assert_eq!(die(&sheet_json(&t, "veracity", "Ada").await), stepped);
    assert_eq!(sheet_json(&t, "venus", "Vea").await["lots"], 7);
    assert_schema_clean(&t);
    t.stop().await;
}

/// Issue 31 item 2: routine play never waits. A new server's
/// `player_edits` is `free`: a player's governed change applies at once and
/// is announced in one line, with the game master's **Undo** behind ⚙
/// (undoing it puts the sheet back); a change that changes nothing is
/// refused privately and saves nothing.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn routine_play_never_waits_by_default() {
    let t = table("light-free", 1).await;
    run(&t, "alice", "/ve sheet create name:Ada").await;
    let ex = run(&t, "alice", "/ve sheet set lots:5").await;
    let line = ex
        .outputs
        .iter()
        .find(|o| o.content().starts_with("📣"))
        .unwrap_or_else(|| panic!("{:#?}", ex.outputs));
    let alice = Table::user_id("alice");
    assert_eq!(
        line.content(),
        format!("📣 <@{alice}> changed Ada's Lots 10 → 5.")
    );
    assert_eq!(line.kind, "message");
    assert_eq!(
        line.body["allowed_mentions"]["users"],
        serde_json::json!([])
    );
    // Players see one ⚙ button; the game master's tool is Undo.
    let labels: Vec<String> = line.buttons().into_iter().map(|b| b.0).collect();
    assert_eq!(labels, vec!["⚙ FC"]);
    assert!(run(&t, "alice", "/ve sheet show")
        .await
        .single()
        .text()
        .contains("5/10"));
    let ex = t.tool("fc", "Undo").await.unwrap();
    let redrawn = ex
        .outputs
        .iter()
        .find(|o| o.title() == "↩ Undone")
        .unwrap_or_else(|| panic!("{:#?}", ex.outputs));
    assert_eq!(redrawn.kind, "update");
    assert!(
        redrawn
            .text()
            .contains("The FC undid this change of **Ada**"),
        "{}",
        redrawn.text()
    );
    assert!(redrawn.buttons().is_empty(), "{:?}", redrawn.buttons());
    assert!(run(&t, "alice", "/ve sheet show")
        .await
        .single()
        .text()
        .contains("10/10"));

    // A change that changes nothing: refused privately, nothing saved.
    run(&t, "alice", "/ve sheet set ego:true").await;
    let before = sheet_json(&t, "venus", "Ada").await;
    let ex = run(&t, "alice", "/ve sheet set ego:true").await;
    assert_eq!(ex.single().kind, "ephemeral");
    assert_eq!(
        ex.single().content(),
        "⚠️ That changes nothing (Ada's Ego held → held): nothing was saved."
    );
    assert_eq!(sheet_json(&t, "venus", "Ada").await, before);
    run(
        &t,
        "alice",
        "/vv sheet create name:Max vitality:4 physique:2 agility:3",
    )
    .await;
    let ex = run(&t, "alice", "/vv heal days:1").await;
    assert_eq!(ex.single().kind, "ephemeral", "{}", ex.single().text());
    assert!(
        ex.single()
            .content()
            .starts_with("⚠️ That changes nothing ("),
        "{}",
        ex.single().content()
    );
    // Under `approval` too: no request is posted for nothing.
    run(&t, "fc", "/fc set name:player_edits value:approval").await;
    let ex = run(&t, "alice", "/vv heal days:1").await;
    assert_eq!(ex.single().kind, "ephemeral");
    assert_schema_clean(&t);
    t.stop().await;
}

/// Issue 31 item 2: an approval request reaches the game master: it pings
/// the server's game-master role (and only that role).
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_approval_request_pings_the_game_masters_role() {
    let t = table("light-ping", 1).await;
    run(&t, "fc", "/fc set name:player_edits value:approval").await;
    run(&t, "alice", "/ve sheet create name:Ada").await;
    // No role named: nobody is pinged.
    let ex = run(&t, "alice", "/ve sheet set lots:5").await;
    let out = ex.single();
    assert_eq!(out.title(), "🙋 A change waits for the FC");
    assert_eq!(out.content(), "");
    assert_eq!(out.body["allowed_mentions"]["roles"], serde_json::json!([]));
    t.tool("fc", "Reject").await.unwrap();
    // With the FC role named, the request calls it, and pings nothing else.
    run(&t, "fc", "/fc role role:GMs").await;
    let gms = Table::role_id("GMs");
    let ex = run(&t, "alice", "/ve sheet set lots:5").await;
    let out = ex.single();
    assert_eq!(out.title(), "🙋 A change waits for the FC");
    assert_eq!(out.content(), format!("<@&{gms}> a request for you:"));
    assert_eq!(
        out.body["allowed_mentions"]["roles"],
        serde_json::json!([gms.to_string()])
    );
    assert_eq!(out.body["allowed_mentions"]["users"], serde_json::json!([]));
    assert_eq!(out.body["allowed_mentions"]["parse"], serde_json::json!([]));
    assert_schema_clean(&t);
    t.stop().await;
}
