//! The Venus Engine spotlight (issue 15) through the fake Discord: turns
//! passed around the table, rounds within scenes, a player introducing a
//! scene and earning Ego when the FC allows it, players refused out of
//! turn, a restart mid-scene; and the FC's per-ally rank override and
//! magic flag on a task (A-V10, A-V19). Seeded.

use crate::common::{assert_schema_clean, table};
use kismet::fake::table::{Exchange, Output, Table, GUILD_ID};
use kismet::rules::venus::VenusSheet;

const ADA_AND_BO: &str = r#"
alice: /ve sheet create name:Ada
alice: /ve sheet ability name:Finesse rank:silver score:4
alice: /ve sheet job name:Thief inherits:Finesse level:2
bob: /ve sheet create name:Bo
bob: /ve sheet ability name:Finesse rank:bronze score:2
bob: /ve sheet job name:Acrobat inherits:Finesse level:1
"#;

/// Plays script lines, failing on any line the table cannot play.
async fn play(t: &Table, script: &str) -> Vec<Exchange> {
    let mut out = Vec::new();
    for line in script.lines() {
        if let Some((_, ex)) = t
            .run_line(line)
            .await
            .unwrap_or_else(|e| panic!("{line}: {e}"))
        {
            out.push(ex);
        }
    }
    out
}

/// Whether an output is a turn's ping line (issue 31 item 5).
fn is_turn_ping(o: &Output) -> bool {
    o.kind == "message" && o.content().starts_with("<@") && o.content().ends_with("'s turn.")
}

/// The one answer of an exchange besides the turn's ping line, if any.
fn answer(ex: &Exchange) -> &Output {
    let rest: Vec<&Output> = ex.outputs.iter().filter(|o| !is_turn_ping(o)).collect();
    assert_eq!(rest.len(), 1, "expected one answer: {:#?}", ex.outputs);
    rest[0]
}

/// The turn's ping line of an exchange: (the member pinged, the text).
fn turn_ping(ex: &Exchange) -> Option<(Vec<u64>, String)> {
    ex.outputs.iter().find(|o| is_turn_ping(o)).map(|o| {
        let users = o.body["allowed_mentions"]["users"]
            .as_array()
            .into_iter()
            .flatten()
            .filter_map(|u| u.as_str().and_then(|u| u.parse().ok()))
            .collect();
        (users, o.content().to_string())
    })
}

/// The exchange of one line.
async fn run(t: &Table, line: &str) -> Exchange {
    t.run_line(line)
        .await
        .unwrap_or_else(|e| panic!("{line}: {e}"))
        .unwrap()
        .1
}

/// The private answer of a line (a refusal or a command's note).
async fn note(t: &Table, line: &str) -> String {
    let ex = run(t, line).await;
    let o = ex.outputs[0].clone();
    assert_eq!(o.kind, "ephemeral", "{line}: {o:?}");
    o.text()
}

/// The tracker's message as it stands now (redrawn in place).
fn tracker(t: &Table, id: u64) -> Output {
    let m = t
        .fake
        .messages()
        .into_iter()
        .find(|m| m.id == id)
        .expect("the tracker's message");
    Output {
        to: String::new(),
        kind: "message".into(),
        body: m.body,
        files: Vec::new(),
        message_id: Some(m.id),
    }
}

fn labels(o: &Output) -> Vec<String> {
    o.buttons().into_iter().map(|b| b.0).collect()
}

async fn sheet(t: &Table, who: &str, name: &str) -> VenusSheet {
    let db = t.db().await.unwrap();
    let mut tx = db.read().await.unwrap();
    let row = kismet::storage::characters::by_name(
        &mut tx,
        GUILD_ID as i64,
        "venus",
        Table::user_id(who) as i64,
        name,
    )
    .await
    .unwrap()
    .unwrap_or_else(|| panic!("{who} has no character {name}"));
    serde_json::from_str(&row.sheet).unwrap()
}

/// Starts the spotlight with Ada and Bo seated; the tracker's message id.
async fn seated(t: &Table, scene: &str) -> u64 {
    play(t, ADA_AND_BO).await;
    let ex = run(t, &format!("fc: /ve-gm spotlight start scene:\"{scene}\"")).await;
    assert_eq!(answer(&ex).kind, "message");
    let id = ex.message_id.unwrap();
    join(t, "alice", "Ada").await;
    join(t, "bob", "Bo").await;
    id
}

/// `who` presses the tracker's **Join**: their active character `name`
/// takes a seat, the tracker redrawn in place.
async fn join(t: &Table, who: &str, name: &str) {
    let ex = run(t, &format!("{who}: click Join")).await;
    let o = answer(&ex);
    assert_eq!(o.kind, "update", "{}", o.text());
    assert!(
        o.text().contains(&format!("➕ {name} joins.")),
        "{}",
        o.text()
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn ve_the_turn_passes_around_the_table_and_rounds_pass() {
    let t = table("ve-spot-turns", 1).await;
    play(&t, ADA_AND_BO).await;
    // Before the first scene there is nothing to pass.
    let ex = run(&t, "fc: /ve-gm spotlight start").await;
    let id = ex.message_id.unwrap();
    assert_eq!(answer(&ex).title(), "🔦 Spotlight · no scene yet");
    assert_eq!(labels(answer(&ex)), ["Join"]);
    join(&t, "alice", "Ada").await;
    join(&t, "bob", "Bo").await;
    // Joining twice is refused; nothing to pass before the first scene.
    let ex = run(&t, "alice: click Join").await;
    assert_eq!(answer(&ex).kind, "ephemeral");
    assert_eq!(labels(&tracker(&t, id)), ["Join", "Leave"]);
    // A second spotlight in the same channel is refused.
    assert!(note(&t, "fc: /ve-gm spotlight start").await.contains(
        "A spotlight is already running in this channel: end it first with `/ve-gm spotlight end`."
    ));
    // The FC sets the scene: redrawn in place, Ada first.
    assert_eq!(
        note(&t, "fc: /ve spotlight scene title:\"The docks\"").await,
        "🎬 The FC sets scene 1: The docks."
    );
    let tr = tracker(&t, id);
    assert_eq!(tr.title(), "🔦 Scene 1: The docks · round 1");
    assert!(tr.text().contains("▶ **Ada**"), "{}", tr.text());
    assert_eq!(labels(&tr), ["Pass", "Join", "Leave"]);
    // Bo cannot pass on Ada's turn.
    let ex = run(&t, "bob: click Pass").await;
    assert_eq!(answer(&ex).kind, "ephemeral");
    assert!(answer(&ex)
        .text()
        .contains("It is Ada's turn: only their player or the FC can act now."));
    // Ada passes to Bo, Bo passes: round 2 begins with Ada.
    let ex = run(&t, "alice: click Pass").await;
    assert_eq!(answer(&ex).kind, "update");
    assert!(answer(&ex).text().contains("▶ **Bo**"));
    assert!(answer(&ex).text().contains("↪ Ada passes to Bo."));
    // Issue 31 item 5: one short line pings Bo's player, and only them.
    let bob = Table::user_id("bob");
    assert_eq!(
        turn_ping(&ex),
        Some((vec![bob], format!("<@{bob}> ▶ Bo's turn.")))
    );
    let ex = run(&t, "bob: click Pass").await;
    assert_eq!(answer(&ex).title(), "🔦 Scene 1: The docks · round 2");
    assert!(answer(&ex)
        .text()
        .contains("🔁 Bo passes: everyone has had a turn. Round 2 begins with Ada."));
    // The FC passes for anyone with the same button.
    let ex = run(&t, "fc: click Pass").await;
    assert!(answer(&ex)
        .text()
        .contains("↪ The FC passes Ada's turn to Bo."));
    assert!(tracker(&t, id).text().contains("▶ **Bo**"));
    // A new scene the FC sets starts again at round 1 with the first seat.
    note(&t, "fc: /ve spotlight scene title:\"The tower\"").await;
    let tr = tracker(&t, id);
    assert_eq!(tr.title(), "🔦 Scene 2: The tower · round 1");
    assert!(tr.text().contains("▶ **Ada**"));
    // The FC puts Bo on hold (not in this scene): Ada's turns only.
    assert!(
        note(&t, "bob: /ve-gm spotlight seat character:Bo state:Held")
            .await
            .contains("Only the FC can seat, hold or remove a character in the spotlight")
    );
    assert_eq!(
        note(&t, "fc: /ve-gm spotlight seat character:Bo state:Held").await,
        "⏸ Bo is on hold."
    );
    assert!(tracker(&t, id).text().contains("⏸ Bo · <@"));
    let ex = run(&t, "alice: click Pass").await;
    assert!(answer(&ex).text().contains("Round 2 begins with Ada."));
    assert_eq!(
        note(&t, "fc: /ve-gm spotlight seat character:Bo").await,
        "▶ Bo is back in the turns."
    );
    // Leaving: a player's **Leave** takes only their own seat; the FC
    // removes anyone's, and seats anyone's.
    let ex = run(&t, "alice: click Leave").await;
    assert_eq!(answer(&ex).kind, "update");
    assert!(answer(&ex).text().contains("➖ Ada leaves."));
    assert!(answer(&ex).text().contains("▶ **Bo**"));
    let ex = run(&t, "alice: click Leave").await;
    assert!(answer(&ex)
        .text()
        .contains("You have no character in the spotlight: **Join** seats your active one."));
    assert_eq!(
        note(&t, "fc: /ve-gm spotlight seat character:Bo state:Removed").await,
        "✅ Bo leaves the spotlight."
    );
    assert!(
        note(&t, "fc: /ve-gm spotlight seat character:Bo state:Held")
            .await
            .contains("No one called Bo is in the spotlight's order")
    );
    assert_eq!(
        note(&t, "fc: /ve-gm spotlight seat character:Ada player:@alice").await,
        "✅ Ada joins the spotlight."
    );
    assert!(tracker(&t, id).text().contains("➕ Ada joins."));
    // Ending: the FC only; the buttons go.
    assert!(note(&t, "bob: /ve-gm spotlight end")
        .await
        .contains("Only the FC can end the spotlight"));
    assert_eq!(
        note(&t, "fc: /ve-gm spotlight end").await,
        "✅ The spotlight ends."
    );
    let tr = tracker(&t, id);
    assert_eq!(tr.title(), "🔦 Spotlight ended · after scene 2: The tower");
    assert!(tr.buttons().is_empty());
    assert!(note(&t, "fc: /ve-gm spotlight seat character:Ada")
        .await
        .contains(
            "No spotlight is running in this channel: start one with `/ve-gm spotlight start`."
        ));
    assert_schema_clean(&t);
    t.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn ve_a_player_introduces_a_scene_and_earns_ego_when_the_fc_allows_it() {
    let t = table("ve-spot-scene", 1).await;
    let id = seated(&t, "The docks").await;
    // A player cannot cut to a new scene: Bo offers to introduce it.
    assert_eq!(
        note(&t, "bob: /ve spotlight scene title:\"Bo's safehouse\"").await,
        "🙋 Your offer to introduce the next scene waits for the FC."
    );
    let tr = tracker(&t, id);
    assert_eq!(tr.title(), "🔦 Scene 1: The docks · round 1", "not yet");
    assert!(tr
        .text()
        .contains("Bo offers to introduce the next scene: *Bo's safehouse*"));
    // The FC's answers sit in the FC's panel, behind ⚙ FC.
    assert_eq!(labels(&tr), ["Pass", "Join", "Leave", "⚙ FC"]);
    assert!(!sheet(&t, "bob", "Bo").await.ego);
    // Only the FC answers.
    assert!(t.click("alice", "Allow scene").await.is_err());
    let ex = run(&t, "alice: click ⚙ FC").await;
    assert!(answer(&ex)
        .text()
        .contains("Only the FC can use these tools"));
    assert!(t.tool("alice", "Allow scene").await.is_err());
    assert!(!sheet(&t, "bob", "Bo").await.ego);
    // The FC allows it: Bo starts scene 2 and earns Ego.
    let ex = run(&t, "fc: tool Allow scene").await;
    let o = answer(&ex);
    assert_eq!(o.kind, "update");
    assert_eq!(o.title(), "🔦 Scene 2: Bo's safehouse · round 1");
    assert!(o.text().contains("▶ **Bo** · <@"), "{}", o.text());
    assert!(o.text().contains("introduced this scene"));
    assert!(o.text().contains("(Bo earns Ego)"));
    assert_eq!(labels(o), ["Pass", "Join", "Leave"]);
    assert!(sheet(&t, "bob", "Bo").await.ego);
    // Clockwise from Bo: Ada, then round 2 begins with Bo again.
    run(&t, "bob: click Pass").await;
    let ex = run(&t, "alice: click Pass").await;
    assert!(answer(&ex).text().contains("Round 2 begins with Bo."));
    // Bo, holding Ego, introduces another scene: no second Ego.
    note(&t, "bob: /ve spotlight scene title:\"The roof\"").await;
    let ex = run(&t, "fc: tool Allow scene").await;
    assert!(answer(&ex).text().contains("(Bo already holds Ego)"));
    // A declined offer changes nothing.
    note(&t, "alice: /ve spotlight scene title:\"Elsewhere\"").await;
    let ex = run(&t, "fc: tool Decline scene").await;
    let o = answer(&ex);
    assert_eq!(o.title(), "🔦 Scene 3: The roof · round 1");
    assert!(o.text().contains("✋ The FC declines Ada's scene."));
    assert!(!sheet(&t, "alice", "Ada").await.ego);
    // The FC naming the introducer is the FC's confirmation: Ada earns Ego.
    assert_eq!(
        note(
            &t,
            "fc: /ve spotlight scene title:\"Ada's den\" introduced_by:Ada"
        )
        .await,
        "🎬 Scene 4: Ada's den, introduced by Ada (Ada earns Ego)."
    );
    assert!(sheet(&t, "alice", "Ada").await.ego);
    assert!(tracker(&t, id).text().contains("▶ **Ada**"));
    // A player cannot name someone else as the introducer.
    assert!(note(
        &t,
        "alice: /ve spotlight scene title:\"X\" introduced_by:Bo"
    )
    .await
    .contains("You can only offer to introduce a scene yourself"));
    assert_schema_clean(&t);
    t.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn ve_any_player_may_offer_a_scene_and_the_fcs_own_scene_declines_it_visibly() {
    let t = table("ve-spot-any-offer", 1).await;
    let id = seated(&t, "The docks").await;
    play(&t, "carol: /ve sheet create name:Cy").await;
    // Cy is not seated, and may still offer (seed 000: "any player can offer").
    assert_eq!(
        note(&t, "carol: /ve spotlight scene title:\"Cy's bar\"").await,
        "🙋 Your offer to introduce the next scene waits for the FC."
    );
    assert!(tracker(&t, id)
        .text()
        .contains("Cy offers to introduce the next scene: *Cy's bar*"));
    // The FC sets a scene of their own: the offer is declined, visibly.
    assert_eq!(
        note(&t, "fc: /ve spotlight scene title:\"The tower\"").await,
        "✋ The FC declines Cy's scene.\n🎬 The FC sets scene 2: The tower."
    );
    let tr = tracker(&t, id);
    assert!(
        tr.text().contains("✋ The FC declines Cy's scene."),
        "{}",
        tr.text()
    );
    // No offer waits any more.
    assert!(
        !tr.text().contains("offers to introduce the next scene: *"),
        "{}",
        tr.text()
    );
    // Cy offers again and the FC allows it: Cy takes a seat and starts.
    note(&t, "carol: /ve spotlight scene title:\"Cy's bar\"").await;
    let ex = run(&t, "fc: tool Allow scene").await;
    let o = answer(&ex);
    assert_eq!(o.title(), "🔦 Scene 3: Cy's bar · round 1");
    assert!(o.text().contains("▶ **Cy** · <@"), "{}", o.text());
    assert!(o.text().contains("(Cy earns Ego)"), "{}", o.text());
    assert!(sheet(&t, "carol", "Cy").await.ego);
    // The FC passes Cy's turn: the log says the FC did, not Cy.
    run(&t, "fc: click Pass").await;
    assert!(tracker(&t, id)
        .text()
        .contains("↪ The FC passes Cy's turn to Ada."));
    // Ada passes her own turn herself.
    let ex = run(&t, "alice: click Pass").await;
    assert!(answer(&ex).text().contains("↪ Ada passes to Bo."));
    assert_schema_clean(&t);
    t.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn ve_the_spotlight_survives_a_restart_mid_scene() {
    let t = table("ve-spot-restart", 1).await;
    let id = seated(&t, "The docks").await;
    run(&t, "alice: click Pass").await;
    note(&t, "alice: /ve spotlight scene title:\"Ada's den\"").await;
    t.restart().await.unwrap();
    // The same message's buttons work: Ada is still refused out of turn,
    // Bo passes, and the FC allows Ada's waiting offer.
    let ex = run(&t, "alice: click Pass").await;
    assert!(answer(&ex).text().contains("It is Bo's turn"));
    let ex = run(&t, "bob: click Pass").await;
    assert_eq!(answer(&ex).title(), "🔦 Scene 1: The docks · round 2");
    let ex = run(&t, "fc: tool Allow scene").await;
    assert_eq!(answer(&ex).title(), "🔦 Scene 2: Ada's den · round 1");
    assert!(sheet(&t, "alice", "Ada").await.ego);
    // Commands after the restart still redraw the same message.
    note(&t, "fc: /ve-gm spotlight seat character:Bo state:Held").await;
    assert!(tracker(&t, id).text().contains("⏸ Bo · <@"));
    assert_schema_clean(&t);
    t.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn ve_the_fc_sets_an_allys_rank_and_magic_flag_on_a_task() {
    let t = table("ve-spot-ally", 3).await;
    play(&t, ADA_AND_BO).await;
    let called = run(&t, "fc: /ve-gm fc call player:@alice kind:task ability:Finesse difficulty:2 consequence:Caught magic:true").await;
    let task = called.message_id.unwrap();
    play(&t, "bob: click Offer aid").await;
    // Taken at once; only Ada (or the FC) may turn it down.
    let ex = run(&t, "bob: click Refuse Bo").await;
    assert!(answer(&ex).text().contains("Only the roller"));
    // Players cannot.
    assert!(
        note(&t, "alice: /ve-gm fc ally player:@bob rank:gold magic:true")
            .await
            .contains("Only the FC can override an ally's rank or flag their die as magical")
    );
    assert!(note(&t, "fc: /ve-gm fc ally player:@bob")
        .await
        .contains("Say what to change"));
    assert!(note(&t, "fc: /ve-gm fc ally player:@carol rank:gold")
        .await
        .contains("has not offered to aid this task"));
    assert_eq!(
        note(&t, "fc: /ve-gm fc ally player:@bob rank:gold magic:true").await,
        "✅ The FC set Bo's die: it rolls at Gold and is magical (it explodes)."
    );
    // The task's message is redrawn in place.
    let tr = tracker(&t, task);
    assert!(
        tr.text()
            .contains("🟡 **Bo** — Acrobat · accepted · ⚙ rank set by the FC · ✨ magical die"),
        "{}",
        tr.text()
    );
    // The FC adjusting the task keeps both.
    let ex = run(&t, "fc: /ve-gm fc adjust factors:Wards").await;
    let redrawn = ex.of_kind("update").expect("the task redrawn in place");
    assert!(
        redrawn
            .text()
            .contains("🟡 **Bo** — Acrobat · accepted · ⚙ rank set by the FC · ✨ magical die"),
        "{}",
        redrawn.text()
    );
    // Seed 3: Bo's Gold die rolls 10 and explodes twice (10, 9): three
    // passes, where a Bronze die under roller_only would not explode.
    let ex = run(&t, "alice: click Roll").await;
    let o = ex.outputs[0].clone();
    let dice = o.embeds()[0]["description"]
        .as_str()
        .unwrap()
        .lines()
        .next()
        .unwrap()
        .to_string();
    assert_eq!(dice, "Ada 4 5 2 5 3 **6** · Bo **10** ↯**10** ↯**9**");
    // Too late once the dice are thrown.
    assert!(note(&t, "fc: /ve-gm fc ally player:@bob magic:false")
        .await
        .contains("There is no task waiting for its dice in this channel."));
    assert_schema_clean(&t);
    t.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn ve_the_spotlight_example_plays_clean() {
    let t = table("ve-spot-example", 18).await;
    let script = std::fs::read_to_string(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/examples/venus-spotlight.txt"
    ))
    .unwrap();
    let ex = play(&t, &script).await;
    for o in ex.iter().flat_map(|e| e.outputs.iter()) {
        assert!(!o.text().contains("⚠️"), "{}", o.text());
        assert!(!o.text().contains("Something went wrong"), "{}", o.text());
    }
    assert!(sheet(&t, "bob", "Bo").await.ego, "Bo introduced a scene");
    let text: String = ex
        .iter()
        .flat_map(|e| e.outputs.iter())
        .map(|o| o.text())
        .collect::<Vec<_>>()
        .join("\n");
    assert!(text.contains("Round 2 begins with Ada."), "{text}");
    assert!(text.contains("introduced by Bo (Bo earns Ego)"), "{text}");
    assert!(text.contains("Bo **10** ↯**8**"), "{text}");
    assert_schema_clean(&t);
    t.stop().await;
}

/// Issue 31 item 5: `/ve spotlight show` posts the spotlight again at the
/// bottom of the channel for anyone at the table; the older message keeps
/// its text, loses its buttons and points below; clicks and redraws go to
/// the new one. With no spotlight running, a private refusal names the
/// command that starts one.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn issue_31_show_posts_the_spotlight_again_below() {
    let t = table("ve-spot-show", 1).await;
    play(&t, ADA_AND_BO).await;
    assert!(note(&t, "bob: /ve spotlight show").await.contains(
        "No spotlight is running in this channel: start one with `/ve-gm spotlight start`."
    ));
    let old = run(&t, "fc: /ve-gm spotlight start")
        .await
        .message_id
        .unwrap();
    join(&t, "alice", "Ada").await;
    join(&t, "bob", "Bo").await;
    note(&t, "fc: /ve spotlight scene title:\"The docks\"").await;
    assert_eq!(labels(&tracker(&t, old)), ["Pass", "Join", "Leave"]);

    let ex = run(&t, "bob: /ve spotlight show").await;
    let kinds: Vec<&str> = ex.outputs.iter().map(|o| o.kind.as_str()).collect();
    let shown = &ex.outputs[0];
    assert_eq!(shown.kind, "message", "{kinds:?}");
    let new = ex.message_id.unwrap();
    assert_ne!(new, old);
    assert_eq!(shown.title(), "🔦 Scene 1: The docks · round 1");
    assert!(shown.text().contains("▶ **Ada**"), "{}", shown.text());
    assert_eq!(labels(shown), ["Pass", "Join", "Leave"]);
    let before = tracker(&t, old);
    let titles: Vec<String> = before
        .embeds()
        .iter()
        .map(|e| e["title"].as_str().unwrap_or("").to_string())
        .collect();
    assert_eq!(
        titles,
        [
            "⬇️ Shown again below: its buttons work there",
            "🔦 Scene 1: The docks · round 1"
        ]
    );
    assert!(
        before.buttons().iter().all(|b| b.2),
        "the old copy's buttons are disabled: {:?}",
        before.buttons()
    );

    // Ada passes on the new message; it is redrawn, the old one stays.
    let ex = run(&t, "alice: click Pass").await;
    assert_eq!(answer(&ex).kind, "update");
    assert_eq!(ex.message_id, Some(new));
    assert!(answer(&ex).text().contains("▶ **Bo**"));
    run(&t, "fc: click Pass").await;
    assert!(
        tracker(&t, new).text().contains("Round 2") || tracker(&t, new).title().contains("round 2")
    );
    assert!(tracker(&t, old).text().contains("▶ **Ada**"));
    assert_schema_clean(&t);
    t.stop().await;
}

/// The spotlight names its seats without markdown, as Veracity names
/// characters: `A*d_a` reads `Ada` on the board, in its log and in the
/// game master's answer, and never pairs with the board's own bold; the
/// command takes the name as typed.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_spotlight_names_its_seats_without_markdown() {
    let t = table("ve-spot-markdown", 1).await;
    play(
        &t,
        "alice: /ve sheet create name:A*d_a\n\
         bob: /ve sheet create name:B*o_\n\
         fc: /ve-gm spotlight start scene:\"The docks\"\n\
         alice: click Join",
    )
    .await;
    assert_eq!(
        note(&t, "fc: /ve-gm spotlight seat character:B*o_").await,
        "✅ Bo joins the spotlight."
    );
    let passed = run(&t, "alice: click Pass").await;
    let board = answer(&passed);
    assert_eq!(
        board.embeds()[0]["description"].as_str().unwrap(),
        "• Ada · <@303779529149266183>\n▶ **Bo** · <@121748447695211092>"
    );
    assert_eq!(
        board.field("Lately").unwrap(),
        "🎬 The FC sets scene 1: The docks.\n➕ Ada joins.\n➕ Bo joins.\n↪ Ada passes to Bo."
    );
    t.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_scene_title_with_markdown_shows_as_typed() {
    let t = table("ve-spot-title-markdown", 1).await;
    play(&t, "alice: /ve sheet create name:Ada").await;
    let started = play(&t, "fc: /ve-gm spotlight start scene:\"B*o_'s safehouse\"").await;
    let board = &started[0].outputs[0];
    assert_eq!(board.title(), r"🔦 Scene 1: B\*o\_'s safehouse · round 1");
    assert_eq!(
        board.field("Lately").as_deref(),
        Some(r"🎬 The FC sets scene 1: B\*o\_'s safehouse.")
    );
    play(&t, "alice: click Join").await;
    let offered = play(&t, "alice: /ve spotlight scene title:\"C*a_fe\"").await;
    let board = offered[0]
        .outputs
        .iter()
        .find(|o| o.kind == "update")
        .expect("the board redrawn");
    assert_eq!(
        board.field("🙋 Waiting for the FC").as_deref(),
        Some(r"Ada offers to introduce the next scene: *C\*a\_fe*")
    );
    let allowed = play(&t, "fc: tool Allow scene").await;
    let board = allowed[0]
        .outputs
        .iter()
        .find(|o| o.kind == "update")
        .expect("the board redrawn");
    assert_eq!(board.title(), r"🔦 Scene 2: C\*a\_fe · round 1");
    let set = play(&t, "fc: /ve spotlight scene title:\"D_ocks\"").await;
    assert_eq!(
        set[0].outputs[0].content(),
        r"🎬 The FC sets scene 3: D\_ocks."
    );
    t.stop().await;
}
