//! The Venus Engine at the table, both editions, through the fake Discord:
//! sheets, FC controls, checks, tasks (aid, KISS, Ego, beat spending,
//! subversion), rights, double clicks, restarts, expiry and payload limits.
//! Seeded: the dice below are what the seed gives.

use crate::common::{assert_schema_clean, table};
use kismet::fake::table::{Exchange, Output, Table, GUILD_ID};
use kismet::rules::venus::VenusSheet;
use kismet::systems::venus::buttons::{CheckButton, RollButton, TaskButton};

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

/// The one reply of a line.
async fn one(t: &Table, line: &str) -> Output {
    let (_, ex) = t
        .run_line(line)
        .await
        .unwrap_or_else(|e| panic!("{line}: {e}"))
        .unwrap();
    ex.outputs[0].clone()
}

/// Every reply of a line.
async fn all(t: &Table, line: &str) -> Vec<Output> {
    let (_, ex) = t
        .run_line(line)
        .await
        .unwrap_or_else(|e| panic!("{line}: {e}"))
        .unwrap();
    ex.outputs
}

/// What an FC command that changes a roll shows: a private note first,
/// then the roll's own message redrawn in place.
async fn redrawn(t: &Table, line: &str) -> Output {
    let out = all(t, line).await;
    assert_eq!(out[0].kind, "ephemeral", "{line}: {}", out[0].text());
    assert!(out[0].text().starts_with('✅'), "{line}: {}", out[0].text());
    let redraw = out
        .iter()
        .find(|o| o.kind == "update")
        .cloned()
        .unwrap_or_else(|| panic!("{line}: no redraw"));
    assert!(
        !out.iter()
            .any(|o| o.kind == "message" && o.title() == redraw.title()),
        "{line}: posted again"
    );
    redraw
}

/// The refusal text of a line that must be refused.
async fn refused(t: &Table, line: &str) -> String {
    let o = one(t, line).await;
    assert_eq!(o.kind, "ephemeral", "{line} was not refused: {}", o.text());
    assert!(o.content().starts_with("⚠️"), "{line}: {}", o.content());
    o.content().to_string()
}

/// A player sees none of the FC's tools: no `label` button in any message
/// they are shown, and the ⚙ FC button refuses to open the panel for them.
async fn no_tool(t: &Table, who: &str, label: &str) {
    assert!(
        t.click(who, label).await.is_err(),
        "{who} sees the FC's {label}"
    );
    assert!(refused(t, &format!("{who}: click ⚙ FC"))
        .await
        .contains("Only the FC can use these tools"));
    assert!(t.tool(who, label).await.is_err(), "{who} ran {label}");
}

/// The refusal of a KISS payment: the message is redrawn without the pick,
/// and the clicker alone reads why.
async fn refused_payment(t: &Table, line: &str) -> String {
    let outs = all(t, line).await;
    assert_eq!(outs[0].kind, "update", "{line}: {}", outs[0].text());
    assert!(!outs[0].text().contains("choose how to pay"), "{line}");
    let why = outs
        .iter()
        .find(|o| o.kind == "ephemeral")
        .unwrap_or_else(|| panic!("{line} was not refused"));
    assert!(why.content().starts_with("⚠️"), "{line}: {}", why.content());
    why.content().to_string()
}

/// The first embed's author line, or "".
fn author(o: &Output) -> String {
    o.embeds()
        .first()
        .and_then(|e| e.pointer("/author/name"))
        .and_then(|v| v.as_str())
        .unwrap_or("")
        .to_string()
}

/// The first embed's description, or "".
fn desc(o: &Output) -> String {
    o.embeds()
        .first()
        .and_then(|e| e.get("description"))
        .and_then(|v| v.as_str())
        .unwrap_or("")
        .to_string()
}

/// The first line of the description: the dice.
fn dice(o: &Output) -> String {
    desc(o).lines().next().unwrap_or("").to_string()
}

/// Clicks an older message's button or menu of the latest Venus roll by its
/// action word (forging the custom_id as an older Kismet drew it): the
/// words no longer drawn (the two-step KISS `pick` and `klot`…, the
/// consequence buttons `buy:s1`…) must keep working.
async fn legacy(t: &Table, who: &str, word: &str, values: Option<&[&str]>) -> Vec<Output> {
    let m = t.last_message_for("zz-observer").expect("a public message");
    let ids: Vec<String> = m
        .body
        .get("components")
        .and_then(|v| v.as_array())
        .into_iter()
        .flatten()
        .flat_map(|r| r["components"].as_array().cloned().unwrap_or_default())
        .filter_map(|c| c["custom_id"].as_str().map(str::to_string))
        .filter(|id| id.starts_with("ve:"))
        .collect();
    let first = ids
        .first()
        .unwrap_or_else(|| panic!("no Venus buttons: {:?}", m.body));
    let mut parts = first.splitn(4, ':');
    let prefix = format!(
        "{}:{}:{}",
        parts.next().unwrap(),
        parts.next().unwrap(),
        parts.next().unwrap()
    );
    let values: Option<Vec<String>> = values.map(|v| v.iter().map(|s| s.to_string()).collect());
    t.click_custom_id(who, m.id, &format!("{prefix}:{word}"), values.as_deref())
        .await
        .unwrap_or_else(|e| panic!("{word}: {e}"))
        .outputs
}

/// A member's character sheet as stored.
pub(crate) async fn sheet(t: &Table, who: &str, name: &str) -> VenusSheet {
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

pub(crate) fn job(s: &VenusSheet, name: &str) -> (u32, u32) {
    let j = s.job(name).unwrap();
    (j.level, j.exp)
}

/// No output of the exchanges is an error.
fn no_errors(ex: &[Exchange]) {
    for e in ex {
        for o in &e.outputs {
            assert!(!o.content().contains("⚠️"), "error: {}", o.content());
        }
    }
}

const ADA_AND_BO: &str = r#"
alice: /ve sheet create name:Ada
alice: /ve sheet ability name:Finesse rank:silver score:4
alice: /ve sheet ability name:Wits rank:gold score:3
alice: /ve sheet job name:Thief inherits:"Finesse, Wits" level:3 exp:5
alice: /ve sheet note kind:specialty text:Lockpicks
bob: /ve sheet create name:Bo
bob: /ve sheet ability name:Finesse rank:bronze score:2
bob: /ve sheet job name:Acrobat inherits:Finesse level:2 exp:3
"#;

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn ve_example_script_plays_a_full_edition_1_task() {
    let t = table("ve-example", 35).await;
    let script = std::fs::read_to_string(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/examples/venus-task-edition1.txt"
    ))
    .unwrap();
    let ex = play(&t, &script).await;
    no_errors(&ex);
    for o in ex.iter().flat_map(|e| e.outputs.iter()) {
        assert!(!o.text().contains("-0.0%"), "{}", o.text());
    }
    // The closed task: its outcome in the title, every die with its owner
    // first (KISSed dice show the face they replaced), what changed.
    let closed = ex
        .iter()
        .flat_map(|e| e.outputs.iter())
        .rfind(|o| author(o) == "Ada · Finesse task via Thief (level 3)")
        .unwrap();
    assert_eq!(closed.title(), "❌ Failure · 1 of 3 beats");
    assert_eq!(dice(closed), "Ada (3)→**5** (3)→1 (2)→1 · Bo 1");
    assert!(desc(closed).contains("**It fails:** The guards spot you"));
    assert!(closed.buttons().is_empty());
    let summary = ex
        .iter()
        .flat_map(|e| e.outputs.iter())
        .find(|o| o.title().starts_with("📈 After the task"))
        .unwrap();
    // The level-ups are on the task's message; the summary only shows
    // where everyone stands (it no longer repeats the changes).
    assert!(closed.text().contains("Ada · Thief levels up: 3 → 4 🎉"));
    assert!(!summary.text().contains("levels up"));
    assert!(summary
        .field("Ada")
        .unwrap()
        .contains("**Thief** · level 4"));
    // VE1-T8: failure +1 (5 → 6 = 2 × 3: level 4), ally +1 (3 → 4 = 2 × 2:
    // level 3), T3 +1 Lot after the KISS Lot (10 → 9 → 10).
    let ada = sheet(&t, "alice", "Ada").await;
    assert_eq!(job(&ada, "Thief"), (4, 0));
    assert_eq!(ada.lots, 10);
    let bo = sheet(&t, "bob", "Bo").await;
    assert_eq!(job(&bo, "Acrobat"), (3, 0));
    assert_eq!(bo.lots, 10);
    // /history reads each step as words: what was done, what came of it.
    let history = one(&t, "alice: /history show").await.text();
    assert!(
        history.contains("**task buys** — bought consequences → ❌ Failure · 1 of 3"),
        "{history}"
    );
    assert!(
        history.contains("**task kiss** — declared KISSes"),
        "{history}"
    );
    assert!(!history.contains("actor"), "{history}");
    let fc_history = one(&t, "fc: /history show").await.text();
    assert!(
        fc_history.contains("NPC check Guard: Wits: rolled the d20 → ✅ Pass"),
        "{fc_history}"
    );
    assert_schema_clean(&t);
    t.stop().await;
}

/// Issue 16: the bundled edition-1 task (from the FC's call to the FC's
/// subversion) plays in at most 9 interactions (every press counts: the
/// FC's ⚙, the tool and any confirmation), every one answered
/// without a refusal, no message showing a player more than two rows of
/// player buttons or any of the FC's tools unmarked.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn ve_example_task_plays_clean_in_at_most_nine_interactions() {
    let t = table("ve-example-count", 35).await;
    let script = std::fs::read_to_string(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/examples/venus-task-edition1.txt"
    ))
    .unwrap();
    let mut counting = false;
    let mut interactions = 0;
    for line in script.lines() {
        let body = line.trim();
        if body.starts_with("fc: /ve-gm fc call") {
            counting = true;
        }
        if counting && body.contains("/ve sheet show") {
            counting = false;
        }
        // A tool of the FC's panel counts every press: ⚙, the tool and,
        // for a red one, its confirmation.
        let mut exchanges = Vec::new();
        if let Some((who, label)) = body.split_once(": tool ") {
            let open = t.click(who, "⚙ FC").await.unwrap();
            assert_eq!(
                open.single().kind,
                "ephemeral",
                "{line}: the panel is private"
            );
            let ex = t.click(who, label).await.unwrap();
            let yes = format!("Yes, {label}");
            let confirm = ex
                .outputs
                .iter()
                .any(|o| o.buttons().iter().any(|b| b.0 == yes));
            let mut presses = 2;
            exchanges.push(ex);
            if confirm {
                exchanges.push(t.click(who, &yes).await.unwrap());
                presses += 1;
            }
            if counting {
                interactions += presses;
            }
        } else {
            let Some((_, ex)) = t
                .run_line(line)
                .await
                .unwrap_or_else(|e| panic!("{line}: {e}"))
            else {
                continue;
            };
            if counting {
                interactions += 1;
            }
            exchanges.push(ex);
        }
        for o in exchanges.iter().flat_map(|ex| ex.outputs.iter()) {
            if o.kind != "ephemeral" && !o.title().starts_with("⚙ ") {
                for (label, _, _) in o.buttons() {
                    assert!(
                        !["Void", "Force close", "Veto last KISS", "No subversion"]
                            .contains(&label.as_str())
                            && !label.starts_with("Subvert")
                            && !label.starts_with("Approve"),
                        "{line}: players see the FC's {label}"
                    );
                }
            }
            assert!(!o.content().starts_with("⚠️"), "{line}: {}", o.content());
            assert!(!o.text().contains("~~"), "{line}: strike-through");
            for (label, _, _) in o.buttons() {
                assert!(!label.contains("(FC)"), "{line}: {label}");
            }
            let player_rows = o.body["components"]
                .as_array()
                .map(|rows| {
                    rows.iter()
                        .filter(|r| {
                            r["components"].as_array().is_some_and(|c| {
                                c.iter().any(|c| {
                                    let w = c["custom_id"]
                                        .as_str()
                                        .and_then(|id| id.split(':').nth(3))
                                        .unwrap_or("");
                                    !["void", "force", "subvert", "nosub", "kveto", "kok", "__gm"]
                                        .contains(&w)
                                })
                            })
                        })
                        .count()
                })
                .unwrap_or(0);
            assert!(
                player_rows <= 2,
                "{line}: {player_rows} rows of player components"
            );
        }
    }
    assert!(
        interactions <= 9,
        "the bundled task took {interactions} interactions"
    );
    // 8 since Bo's offer is taken at once (issue 31 item 3: no Accept).
    assert_eq!(interactions, 8);
    t.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn ve_sheets_are_created_shown_edited_and_deleted_with_confirmation() {
    let t = table("ve-sheets", 1).await;
    no_errors(&play(&t, ADA_AND_BO).await);
    play(
        &t,
        r#"
alice: /ve sheet job name:Sailor inherits:Wits level:0 exp:3
alice: /ve sheet set tier:Heroic
fc: /ve sheet set lots:7 ego:true player:@alice
alice: /ve sheet note kind:asset text:"Grappling hook"
alice: /ve sheet note kind:insight text:"The guard drinks"
alice: /ve sheet note kind:consequence text:"My hat stays on"
"#,
    )
    .await;
    let shown = one(&t, "alice: /ve sheet show").await;
    assert_eq!(shown.kind, "message");
    assert_eq!(shown.title(), "📜 Ada");
    assert_eq!(shown.field("Lots").unwrap(), "●●●●●●●○○○ 7/10");
    assert_eq!(shown.field("Ego").unwrap(), "✨ held");
    assert_eq!(shown.field("Tier").unwrap(), "Heroic");
    let jobs = shown.field("Jobs").unwrap();
    assert!(
        jobs.contains(&format!(
            "**Sailor** · learning · ▰▰▰{} 3/16 · Wits",
            "▱".repeat(13)
        )),
        "{jobs}"
    );
    assert!(jobs.contains("**Thief** · level 3 · ▰▰▰▰▰▱ 5/6 · Finesse, Wits"));
    assert_eq!(shown.field("Assets").unwrap(), "1. Grappling hook");
    assert_eq!(shown.field("Insights").unwrap(), "#1 The guard drinks");
    assert_eq!(
        shown.field("Special consequences").unwrap(),
        "1. My hat stays on"
    );
    // Only Bo's player (or the FC) may look at or edit him (a change: any
    // member could show anyone's Venus sheet before sheets became a shared
    // table feature; now every system shows another's sheet to the FC only).
    assert!(refused(&t, "alice: /ve sheet show character:Bo")
        .await
        .contains("No character named `Bo`"));
    assert_eq!(
        one(&t, "fc: /ve sheet show character:Bo").await.title(),
        "📜 Bo"
    );
    assert!(refused(&t, "alice: /ve sheet set lots:1 character:Bo")
        .await
        .contains("No character named `Bo`"));
    let fc = one(&t, "fc: /ve sheet set lots:4 character:Bo").await;
    assert_eq!(fc.kind, "ephemeral");
    assert_eq!(sheet(&t, "bob", "Bo").await.lots, 4);
    // Bad edits change nothing.
    refused(
        &t,
        "alice: /ve sheet ability name:Finesse rank:gold score:11",
    )
    .await;
    refused(&t, "alice: /ve sheet job name:Spy inherits:Charm").await;
    refused(&t, "alice: /ve sheet remove kind:ability name:Wits").await;
    assert!(t.command("alice", "/ve sheet set lots:11").await.is_err());
    // Several characters, one active.
    one(&t, "alice: /ve sheet create name:Cleo").await;
    let card = one(&t, "alice: /ve sheet show private:true").await;
    assert!(card.title().contains("Cleo"), "{}", card.title());
    let used = one(&t, "alice: select Play as… = Ada").await;
    assert!(used.text().contains("**Ada** is now your active"));
    let card = one(&t, "alice: /ve sheet show private:true").await;
    assert!(card.title().contains("Ada"), "{}", card.title());
    // Deletion asks first; Keep keeps, Delete deletes.
    one(&t, "alice: /ve sheet show character:Cleo").await;
    let ask = one(&t, "alice: click Delete").await;
    assert_eq!(ask.kind, "ephemeral");
    assert!(ask.text().contains("Delete **Cleo** for good?"));
    assert!(refused(&t, "bob: /ve sheet show character:Cleo")
        .await
        .contains("No character named"));
    let done = one(&t, "alice: click Delete").await;
    assert_eq!(done.kind, "update");
    assert!(done.text().contains("Cleo was deleted"));
    assert!(done.buttons().is_empty());
    assert!(refused(&t, "alice: /ve sheet show character:Cleo")
        .await
        .contains("No character named"));
    one(&t, "alice: /ve sheet show character:Ada").await;
    one(&t, "alice: click Delete").await;
    assert!(one(&t, "alice: click Keep")
        .await
        .text()
        .contains("Ada was kept"));
    sheet(&t, "alice", "Ada").await;
    assert_schema_clean(&t);
    t.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn ve_autocomplete_offers_characters_abilities_jobs_and_settings() {
    let t = table("ve-complete", 1).await;
    play(&t, ADA_AND_BO).await;
    let names = |v: Vec<serde_json::Value>| -> Vec<String> {
        v.iter()
            .map(|c| c["name"].as_str().unwrap().to_string())
            .collect()
    };
    let c = t
        .autocomplete("alice", "/ve sheet show character:A", "character")
        .await
        .unwrap();
    assert_eq!(names(c), vec!["Ada"]);
    let c = t
        .autocomplete("fc", "/ve sheet show character:o", "character")
        .await
        .unwrap();
    assert_eq!(names(c), vec!["Bo"]);
    let c = t
        .autocomplete("alice", "/ve check ability:Wi difficulty:10", "ability")
        .await
        .unwrap();
    assert_eq!(names(c), vec!["Wits"]);
    let c = t
        .autocomplete("bob", "/ve task ability:Finesse job:a", "job")
        .await
        .unwrap();
    assert_eq!(names(c), vec!["Acrobat"]);
    // The caller's active sheet's names first, each name once whatever
    // its case or how many sheets have it.
    for (who, want) in [
        ("alice", ["Thief", "Acrobat"]),
        ("bob", ["Acrobat", "Thief"]),
    ] {
        let line = "/ve task ability:Finesse job:t";
        let c = t.autocomplete(who, line, "job").await.unwrap();
        assert_eq!(names(c), want, "{who}");
    }
    let c = t
        .autocomplete("bob", "/ve check ability:i difficulty:10", "ability")
        .await
        .unwrap();
    assert_eq!(names(c), vec!["Finesse", "Wits"]);
    let c = t
        .autocomplete("fc", "/ve-gm settings set name:ve1_ value:x", "name")
        .await
        .unwrap();
    assert_eq!(
        names(c),
        vec![
            "ve1_levelup_rule",
            "ve1_consequence_repeat",
            "ve1_explosions"
        ]
    );
    assert_schema_clean(&t);
    t.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn ve_strangers_are_refused_and_a_double_click_spends_once() {
    let t = table("ve-rights", 1).await;
    play(&t, "fc: /ve-gm fc edition edition:1").await;
    play(&t, ADA_AND_BO).await;
    play(&t, "carol: /ve sheet create name:Cy").await;
    one(
        &t,
        "fc: /ve-gm fc call player:alice kind:task ability:Finesse factors:Darkness",
    )
    .await;
    // Carol has no job for Finesse: she cannot aid, and cannot press Roll.
    assert!(refused(&t, "carol: click Offer aid")
        .await
        .contains("Cy has no job at level 1 or more that inherits Finesse"));
    assert!(refused(&t, "carol: click Roll")
        .await
        .contains("Only Ada (the roller), their allies and the FC"));
    // Bo offers; only Ada (or the FC) answers, and only the FC voids.
    // Bo's offer is taken at once; only Ada (or the FC) may refuse it, and
    // only the FC voids.
    one(&t, "bob: click Offer aid").await;
    no_tool(&t, "bob", "Void").await;
    assert!(refused(&t, "bob: click Refuse Bo")
        .await
        .contains("Only the roller"));
    let rolled = one(&t, "alice: click Roll").await;
    assert!(dice(&rolled).contains("Bo "), "{}", dice(&rolled));
    // Ada picks her first die paid with a stunt (it waits for Re-roll: the
    // FC may veto a stunt first); Bo cannot press her Re-roll.
    one(&t, "alice: select KISS: pick dice and how to pay = 1:stunt").await;
    assert!(refused(&t, "carol: click Re-roll")
        .await
        .contains("Only Ada"));
    assert!(refused(&t, "bob: click Re-roll")
        .await
        .contains("Only the roller"));
    // A double click on Re-roll: the second carries the old version and
    // changes nothing (one re-roll; a stunt costs no Lot).
    let msg = t.last_message_for("alice").unwrap();
    let kroll = msg.body["components"]
        .as_array()
        .unwrap()
        .iter()
        .flat_map(|r| r["components"].as_array().unwrap().clone())
        .find(|c| c["label"] == "Re-roll")
        .unwrap()["custom_id"]
        .as_str()
        .unwrap()
        .to_string();
    let first = t
        .click_custom_id("alice", msg.id, &kroll, None)
        .await
        .unwrap();
    let second = t
        .click_custom_id("alice", msg.id, &kroll, None)
        .await
        .unwrap();
    assert_eq!(first.single().kind, "update");
    assert_eq!(second.single().kind, "update");
    assert_eq!(
        first.single().body["embeds"],
        second.single().body["embeds"]
    );
    assert_eq!(sheet(&t, "alice", "Ada").await.lots, 10);
    let db = t.db().await.unwrap();
    let mut tx = db.read().await.unwrap();
    let sid = kismet::app::component::ButtonId::parse(&kroll)
        .unwrap()
        .session;
    let log = kismet::storage::log::for_session(&mut tx, GUILD_ID as i64, sid)
        .await
        .unwrap();
    assert_eq!(
        log.iter().filter(|e| e.action == "task_kroll").count(),
        1,
        "one re-roll logged"
    );
    drop(tx);
    assert_schema_clean(&t);
    t.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn ve_a_task_started_before_a_restart_finishes_after_it() {
    let t = table("ve-restart", 1).await;
    play(&t, "fc: /ve-gm fc edition edition:1").await;
    play(&t, ADA_AND_BO).await;
    play(
        &t,
        r#"
alice: /ve task ability:Finesse consequence:"I slip"
bob: click Offer aid
bob: click Refuse Bo
alice: click Roll
"#,
    )
    .await;
    t.restart().await.unwrap();
    let ex = play(
        &t,
        r#"
alice: click No KISS
alice: click Primary: success (1)
alice: select Buy consequences (1 beat each) = t2
alice: click Finish
fc: tool No subversion
"#,
    )
    .await;
    no_errors(&ex);
    let last = ex.last().unwrap().outputs[0].clone();
    assert!(
        last.title().starts_with("✅ Success · "),
        "{}",
        last.title()
    );
    // Success: no failure exp; T2 +1 (5 → 6: level 4); Bo's aid +1.
    assert_eq!(job(&sheet(&t, "alice", "Ada").await, "Thief"), (4, 0));
    assert_eq!(job(&sheet(&t, "bob", "Bo").await, "Acrobat"), (3, 0));
    assert_schema_clean(&t);
    t.stop().await;
}

/// The values offered by the "Bonus factors" menu of a check, and how many
/// may be picked.
fn bonus_menu(o: &Output) -> (Vec<String>, u64) {
    let select = &o.body["components"][0]["components"][0];
    let values = select["options"]
        .as_array()
        .unwrap()
        .iter()
        .map(|o| o["value"].as_str().unwrap().to_string())
        .collect();
    (values, select["max_values"].as_u64().unwrap())
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn ve1_the_bonus_menu_drops_claimed_lots_and_counts_the_factors_left() {
    let t = table("ve1-lots-left", 4).await;
    play(&t, "fc: /ve-gm fc edition edition:1").await;
    play(&t, ADA_CHECK).await;
    play(&t, "fc: /ve sheet set lots:2 player:@alice").await;
    one(&t, "fc: /ve-gm fc call player:alice kind:check ability:Finesse difficulty:15 factors:\"Wet stones\"").await;
    let rolled = one(&t, "alice: click Roll d20").await;
    assert_eq!(rolled.title(), "⏳ Waiting for Ada · short by 2");
    let (menu, max) = bonus_menu(&rolled);
    assert_eq!(menu, ["env", "ally", "lot1", "lot2", "asset1"]);
    assert_eq!(max, 4);
    assert!(rolled.text().contains("Claim up to 4 bonus factors (a Lot"));
    // One Lot claimed: "Spend a Lot (2)" goes, three factors are left.
    let claimed = one(&t, "alice: select Bonus factors = lot1,env").await;
    let (menu, max) = bonus_menu(&claimed);
    assert_eq!(menu, ["env", "ally", "lot1", "asset1"]);
    assert_eq!(max, 2);
    assert!(
        claimed
            .text()
            .contains("Short by **2**. 2 bonus factors claimed, up to 2 more (a Lot counts"),
        "{}",
        claimed.text()
    );
    t.stop().await;
}

const ADA_CHECK: &str = r#"
alice: /ve sheet create name:Ada
alice: /ve sheet ability name:Finesse rank:silver score:4
alice: /ve sheet note kind:asset text:"Grappling hook"
"#;

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn ve1_check_short_by_two_rolls_bonus_dice_and_spends_a_lot() {
    let t = table("ve1-check", 4).await;
    play(&t, "fc: /ve-gm fc edition edition:1").await;
    play(&t, ADA_CHECK).await;
    let called = one(&t, "fc: /ve-gm fc call player:alice kind:check ability:Finesse difficulty:15 factors:\"Wet stones\" consequence:\"You fall into the moat\"").await;
    assert_eq!(called.title(), "⏳ Waiting for Ada to roll");
    assert_eq!(author(&called), "Ada · Finesse check");
    assert_eq!(
        called.field("Target").unwrap(),
        "**16** = 15 (Tough) + Wet stones"
    );
    assert!(refused(&t, "bob: click Roll d20")
        .await
        .contains("Only Ada"));
    let rolled = one(&t, "alice: click Roll d20").await;
    assert_eq!(rolled.title(), "⏳ Waiting for Ada · short by 2");
    assert_eq!(dice(&rolled), "d20 10");
    assert_eq!(
        rolled.field("Total").unwrap(),
        "10 + 4 Finesse (⚪ Silver) = **14**"
    );
    let bonus = desc(&rolled);
    assert!(bonus.contains("-# Short by **2**"), "{bonus}");
    assert!(bonus.contains("1: 83.3% · 2: 97.2% · 3: 99.5% · 4: 99.9%"));
    // The menu: environment, an ally, one entry per Lot (up to 4), the asset.
    let menu: Vec<String> = rolled.body["components"][0]["components"][0]["options"]
        .as_array()
        .unwrap()
        .iter()
        .map(|o| o["value"].as_str().unwrap().to_string())
        .collect();
    assert_eq!(
        menu,
        ["env", "ally", "lot1", "lot2", "lot3", "lot4", "asset1"]
    );
    let claimed = one(&t, "alice: select Bonus factors = asset1,lot1").await;
    assert!(
        desc(&claimed).contains("**Bonus factors:** Grappling hook (attribute, d6); A Lot (d6)")
    );
    let done = one(&t, "alice: click Roll bonus dice").await;
    // The ignored bonus die is shown dropped, in brackets (never italics).
    assert_eq!(dice(&done), "d20 **10** · bonus d6 **5** (1)");
    assert_eq!(
        done.field("Total").unwrap(),
        "10 + 4 Finesse (⚪ Silver) + 5 (bonus) = **19**"
    );
    assert_eq!(done.title(), "✅ Pass with the bonus · 19 against 16");
    assert!(desc(&done).contains("Ada · −1 Lot → 9/10"));
    assert!(done.buttons().is_empty());
    assert_eq!(sheet(&t, "alice", "Ada").await.lots, 9);
    // A click on the finished check says so and changes nothing.
    let msg = t.last_message_for("alice").unwrap();
    let late = t
        .click_custom_id("alice", msg.id, "ve:1:3:resolve", None)
        .await
        .unwrap();
    assert!(late
        .outputs
        .iter()
        .any(|o| o.kind == "ephemeral" && o.content().contains("already finished")));
    assert_eq!(sheet(&t, "alice", "Ada").await.lots, 9);
    // The d20 and both bonus d6 are counted by /stats.
    let stats = one(&t, "alice: /stats").await.text();
    assert!(stats.contains("**3** dice recorded (d6, d20)"), "{stats}");
    assert!(stats.contains("d20 · 1 die:"), "{stats}");
    assert_schema_clean(&t);
    t.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn ve1_check_natural_rules_fire_and_out_of_reach_fails() {
    // Seed 2: a natural 1; seed 3: a natural 20; seed 5: short by 9.
    for (seed, rule, result) in [
        (
            2,
            "Natural 1: automatic fail, no bonus can save it.",
            "💥 Fail · natural 1",
        ),
        (
            3,
            "Natural 20: automatic pass (Silver passes on a natural 20).",
            "✅ Pass · natural 20",
        ),
        (
            5,
            "Short by 9: more than the best bonus (+6) can close.",
            "❌ Fail · 7 against 16, out of reach",
        ),
    ] {
        let t = table("ve1-natural", seed).await;
        play(&t, "fc: /ve-gm fc edition edition:1").await;
        play(&t, ADA_CHECK).await;
        // A player's own check throws its d20 with the command.
        let r = one(
            &t,
            "alice: /ve check ability:Finesse difficulty:15 factors:\"Wet stones\"",
        )
        .await;
        assert!(desc(&r).contains(rule), "seed {seed}: {}", desc(&r));
        assert_eq!(r.title(), result, "seed {seed}");
        assert!(r.buttons().is_empty());
        assert_schema_clean(&t);
        t.stop().await;
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn ve2_check_adds_a_flat_bonus_and_refuses_lots() {
    let t = table("ve2-check", 4).await;
    play(&t, ADA_CHECK).await;
    let r = one(&t, "alice: /ve check ability:Finesse difficulty:3 factors:\"Wet stones+2\" consequence:\"You fall\"").await;
    assert_eq!(
        r.field("Target").unwrap(),
        "**17** = 15 (difficulty 3) + Wet stones (+2)"
    );
    assert_eq!(
        r.field("Total").unwrap(),
        "10 + 4 Finesse (⚪ Silver) = **14**"
    );
    let menu: Vec<String> = r.body["components"][0]["components"][0]["options"]
        .as_array()
        .unwrap()
        .iter()
        .map(|o| o["value"].as_str().unwrap().to_string())
        .collect();
    assert_eq!(
        menu,
        ["env", "env_x2", "ally", "ally_x2", "asset1", "asset1_x2"]
    );
    assert!(refused(&t, "alice: /ve bonus name:Luck kind:lot")
        .await
        .contains("Lots and Ego cannot be spent on a check in edition 2"));
    one(&t, "alice: select Bonus factors = env_x2").await;
    // `/ve bonus` redraws the check in place (never reposts it) and
    // answers its caller privately.
    let outs = all(
        &t,
        "alice: /ve bonus name:\"The high ground\" kind:environment",
    )
    .await;
    assert_eq!(outs[0].kind, "ephemeral");
    assert!(!outs.iter().any(|o| o.kind == "message"));
    let named = outs
        .iter()
        .find(|o| o.kind.ends_with("update"))
        .expect("the check redrawn");
    assert!(desc(named).contains(
        "**Bonus factors:** Environmental benefit (environment, +2); The high ground (environment, +1)"
    ));
    let done = one(&t, "alice: click Add the bonus").await;
    assert_eq!(
        done.field("Total").unwrap(),
        "10 + 4 Finesse (⚪ Silver) + 3 (bonus) = **17**"
    );
    assert_eq!(done.title(), "✅ Pass with the bonus · 17 against 17");
    assert_eq!(sheet(&t, "alice", "Ada").await.lots, 10);
    assert_schema_clean(&t);
    t.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn ve_the_fc_adjusts_a_player_check_before_the_d20_and_voids_another() {
    let t = table("ve-adjust", 4).await;
    play(&t, ADA_CHECK).await;
    // A check the FC calls waits for the player's d20 (a player's own
    // check throws it at once).
    let asked = one(
        &t,
        "fc: /ve-gm fc call player:alice kind:check ability:Finesse difficulty:2",
    )
    .await;
    assert_eq!(asked.field("Target").unwrap(), "**10** = 10 (difficulty 2)");
    assert!(refused(&t, "alice: /ve-gm fc adjust difficulty:3")
        .await
        .contains("Only the FC"));
    let adj = redrawn(
        &t,
        "fc: /ve-gm fc adjust difficulty:3 factors:\"Fog+2\" consequence:\"Lost\"",
    )
    .await;
    // One message shows the check: the adjusted setup replaced the old.
    let showing = |t: &Table| -> Vec<String> {
        t.fake
            .messages()
            .into_iter()
            .filter(|m| m.body.to_string().contains("Finesse check"))
            .map(|m| {
                m.body["embeds"][0]["title"]
                    .as_str()
                    .unwrap_or("")
                    .to_string()
            })
            .collect()
    };
    assert_eq!(showing(&t), vec!["⏳ Waiting for Ada to roll"]);
    assert_eq!(
        adj.field("Target").unwrap(),
        "**17** = 15 (difficulty 3) + Fog (+2)"
    );
    assert!(adj.text().contains("**If it fails:** Lost"));
    let r = one(&t, "alice: click Roll d20").await;
    assert_eq!(
        r.field("Total").unwrap(),
        "10 + 4 Finesse (⚪ Silver) = **14**"
    );
    // Once the d20 is thrown there is nothing left to adjust.
    assert!(refused(&t, "fc: /ve-gm fc adjust difficulty:1")
        .await
        .contains("no roll waiting for its dice"));
    // The FC voids the check by command: nothing is spent.
    let v = redrawn(&t, "fc: /ve-gm fc void").await;
    assert_eq!(v.title(), "⏹️ Voided by the FC");
    assert_eq!(
        showing(&t),
        vec!["⏹️ Voided by the FC"],
        "the roll's own message"
    );
    // Redrawn in place: the player has no live button left on it.
    assert!(v.buttons().iter().all(|b| b.2), "{:?}", v.buttons());
    assert!(refused(&t, "fc: /ve-gm fc close")
        .await
        .contains("no Venus roll in progress"));
    assert_schema_clean(&t);
    t.stop().await;
}

const FIVE_THIEVES: &str = r#"
alice: /ve sheet create name:Ada
alice: /ve sheet ability name:Finesse rank:silver score:4
alice: /ve sheet job name:Thief inherits:Finesse level:3 exp:2
fc: /ve sheet set ego:true player:@alice
bob: /ve sheet create name:Bo
bob: /ve sheet ability name:Finesse rank:bronze score:2
bob: /ve sheet job name:Acrobat inherits:Finesse level:2 exp:3
carol: /ve sheet create name:Cy
carol: /ve sheet ability name:Finesse rank:gold score:3
carol: /ve sheet job name:Dancer inherits:Finesse level:1
carol: /ve sheet job name:Spy inherits:Finesse level:2
dan: /ve sheet create name:Dee
dan: /ve sheet ability name:Finesse rank:platinum score:1
dan: /ve sheet job name:Cutpurse inherits:Finesse level:1
erin: /ve sheet create name:Eve
erin: /ve sheet ability name:Finesse rank:gold score:1
erin: /ve sheet job name:Runner inherits:Finesse level:1
"#;

/// The custom_id of the (enabled or disabled) button `label` on the newest
/// message `who` sees that has one.
fn custom_id(t: &Table, who: &str, label: &str) -> (u64, String) {
    let uid = Table::user_id(who);
    t.fake
        .messages()
        .into_iter()
        .rev()
        .filter(|m| m.ephemeral_to.is_none_or(|u| u == uid))
        .find_map(|m| {
            let id = m.body["components"]
                .as_array()?
                .iter()
                .flat_map(|r| r["components"].as_array().cloned().unwrap_or_default())
                .find(|c| c["label"] == label)?["custom_id"]
                .as_str()?
                .to_string();
            Some((m.id, id))
        })
        .unwrap_or_else(|| panic!("no button {label}"))
}

/// Edition 2, seed 1: Ada (7 Silver D10, magic, crits) with Bo and Dee
/// aiding, Cy refused, Eve one ally too many; rolled to 7 passes of 8.
async fn ve2_rolled_task(tag: &str) -> Table {
    let t = table(tag, 1).await;
    play(&t, FIVE_THIEVES).await;
    let called = one(&t, "fc: /ve-gm fc call player:alice kind:task ability:Finesse difficulty:4 factors:\"Guards+2, Night+2\" consequence:Caught magic:true crits:true").await;
    assert_eq!(
        called.field("Pool").unwrap(),
        "Finesse: 7 D10 · ⚪ Silver (pass on 6+) · 10s explode\nThreshold **8** = 4 + Guards (+2) + Night (+2)\nCriticals on (margin and critical results)"
    );
    assert_eq!(
        called.field("Chance").unwrap(),
        "**1.7%** to reach 8 passes"
    );
    // Cy has two eligible jobs: the menu lists them; the button asks to pick.
    play(&t, "bob: click Offer aid").await;
    let asked = all(&t, "carol: click Offer aid").await;
    assert!(asked[1]
        .content()
        .contains("pick one in the \"Aid with a job\" menu"));
    play(
        &t,
        "carol: select Aid with a job = Spy\ndan: click Offer aid",
    )
    .await;
    // A fourth ally is one too many in edition 2.
    // (The button is no longer drawn once the allies are full; an older
    // message's button is refused.)
    let ex = legacy(&t, "erin", "offer", None).await;
    assert!(ex[0]
        .content()
        .contains("At most 3 allies may aid a task in edition 2"));
    // Offers are taken at once: Ada refuses Cy's; an ally cannot turn
    // another's down.
    play(&t, "alice: click Refuse Cy").await;
    for line in ["bob: click Refuse Dee", "dan: click Refuse Bo"] {
        assert!(
            refused(&t, line).await.contains("Only the roller"),
            "{line}"
        );
    }
    let rolled = one(&t, "alice: click Roll").await;
    // Ada's 10s explode (↯ marks the added dice); the allies' do not.
    assert_eq!(
        dice(&rolled),
        "Ada 4 **8** **10** **7** 4 **10** 5 ↯4 ↯**10** ↯5 · Bo **9** · Dee **7**"
    );
    assert_eq!(rolled.title(), "⏳ Waiting for Ada · KISS · 7 of 8 passes");
    assert_eq!(
        rolled.field("Chance").unwrap(),
        "Before the roll 7.7% to reach 8 passes\nKISSing every miss you may (5): 96.9%"
    );
    t
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn ve2_task_kiss_own_dice_only_then_ego_doubles_every_ten() {
    let t = ve2_rolled_task("ve2-ego").await;
    // Edition 2: the roller cannot KISS an ally's die, nor an ally hers.
    assert!(
        refused(&t, "alice: select KISS: pick dice and how to pay = 9:lot")
            .await
            .contains("in edition 2 only its owner can KISS it")
    );
    assert!(
        refused(&t, "bob: select KISS: pick dice and how to pay = 1:lot")
            .await
            .contains("only its owner can KISS it")
    );
    let declared = one(
        &t,
        "alice: select KISS: pick dice and how to pay = 1:lot, 5:stunt",
    )
    .await;
    assert_eq!(
        declared.field("Chance").unwrap(),
        "Before the roll 7.7% to reach 8 passes\nafter KISSing the 2 declared dice: **75.0%**"
    );
    assert!(refused(&t, "bob: click Re-roll")
        .await
        .contains("Only the roller"));
    // Ada changes her mind: no KISS, and Ego instead.
    let withdrawn = one(&t, "alice: click Withdraw my KISSes").await;
    assert!(!desc(&withdrawn).contains("KISS declared"));
    let offer = one(&t, "alice: click No KISS").await;
    assert_eq!(offer.title(), "⏳ Waiting for Ada · Ego? · 7 of 8 passes");
    assert!(desc(&offer).contains("with Ego: **10** (3 tens on the table)"));
    let closed = all(&t, "alice: click Spend Ego").await;
    // A 10 counting twice is starred.
    assert!(dice(&closed[0]).contains("**10**★"), "{}", dice(&closed[0]));
    assert!(desc(&closed[0]).contains("Ego: every 10 counts twice"));
    assert_eq!(closed[0].title(), "✅ Success · 10 passes");
    assert!(desc(&closed[0]).contains("Margin 125%"));
    // Success: no exp for anyone; Ego spent, no Lot spent.
    let ada = sheet(&t, "alice", "Ada").await;
    assert_eq!((job(&ada, "Thief"), ada.lots, ada.ego), ((3, 2), 10, false));
    assert_eq!(job(&sheet(&t, "bob", "Bo").await, "Acrobat"), (2, 3));
    assert_schema_clean(&t);
    t.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn ve2_task_failure_marks_exp_for_the_roller_and_each_ally() {
    let t = ve2_rolled_task("ve2-fail").await;
    play(&t, "alice: click No KISS").await;
    let closed = all(&t, "alice: click Keep Ego").await;
    assert_eq!(closed[0].title(), "❌ Failure · 7 of 8 passes");
    assert!(desc(&closed[0]).contains("**It fails:** Caught"));
    assert_eq!(closed[1].title(), "📈 After the task — Ada");
    // VE2-T9: +1 exp to Ada's job and to each ally's; Bo levels up (4 = 2 × 2).
    let ada = sheet(&t, "alice", "Ada").await;
    assert_eq!((job(&ada, "Thief"), ada.lots, ada.ego), ((3, 3), 10, true));
    assert_eq!(job(&sheet(&t, "bob", "Bo").await, "Acrobat"), (3, 0));
    assert_eq!(job(&sheet(&t, "dan", "Dee").await, "Cutpurse"), (1, 1));
    assert_eq!(job(&sheet(&t, "carol", "Cy").await, "Spy"), (2, 0));
    assert_schema_clean(&t);
    t.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn ve2_task_succeeds_on_the_roll_without_kiss_or_exp() {
    let t = table("ve2-early", 1).await;
    play(&t, FIVE_THIEVES).await;
    play(
        &t,
        "alice: /ve task ability:Finesse difficulty:3 factors:\"Guards+2\"",
    )
    .await;
    play(&t, "bob: click Offer aid").await;
    // Taken at once: Bo cannot turn his own offer down (only Ada may).
    assert!(refused(&t, "bob: click Refuse Bo")
        .await
        .contains("Only the roller"));
    let out = all(&t, "alice: click Roll").await;
    let o = out[0].title();
    assert!(o.starts_with("✅ Success · "), "{o}");
    assert!(out[0].buttons().is_empty());
    assert!(out[0].text().contains("success on the roll"));
    // Nothing changed: the summary shows where everyone stands, no list.
    assert_eq!(out[1].description_or_empty(), "");
    assert!(out[1].field("Ada").is_some());
    assert_eq!(job(&sheet(&t, "alice", "Ada").await, "Thief"), (3, 2));
    assert_eq!(job(&sheet(&t, "bob", "Bo").await, "Acrobat"), (2, 3));
    assert_schema_clean(&t);
    t.stop().await;
}

trait Describe {
    fn description_or_empty(&self) -> String;
}

impl Describe for Output {
    fn description_or_empty(&self) -> String {
        self.embeds()
            .first()
            .and_then(|e| e["description"].as_str().map(str::to_string))
            .unwrap_or_default()
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn ve1_learning_task_with_an_approved_insight_double_sixes_and_a_special_consequence() {
    let t = table("ve1-learn", 2).await;
    play(
        &t,
        r#"
fc: /ve-gm fc edition edition:1
fc: /ve-gm settings set name:ve_require_approval value:on
alice: /ve sheet create name:Ada
alice: /ve sheet ability name:Finesse rank:silver score:4
alice: /ve sheet ability name:Wits rank:gold score:3
alice: /ve sheet job name:Thief inherits:"Finesse, Wits" level:3
fc: /ve sheet set ego:true player:@alice
alice: /ve sheet note kind:insight text:"The guard drinks"
alice: /ve sheet note kind:consequence text:"My hat stays on"
"#,
    )
    .await;
    // Ada has no Wits job: she starts learning Sage (VE1-L1); the pool is her
    // Wits score and "Learning the ropes" raises the threshold (VE1-T2).
    let task = one(
        &t,
        "alice: /ve task ability:Wits job:Sage learn:Wits consequence:\"You misread the map\"",
    )
    .await;
    assert_eq!(task.title(), "⏳ Waiting for Ada to roll");
    assert_eq!(author(&task), "Ada · Wits task via Sage (learning)");
    assert_eq!(
        task.field("Pool").unwrap(),
        "Wits: 3 D6 · 🟡 Gold (beat on 3+) · the Wits score, while learning\nThreshold **2** = 1 + Learning the ropes"
    );
    let rolled = one(&t, "alice: click Roll").await;
    assert_eq!(dice(&rolled), "1 **5** **6**");
    // An insight KISS waits for the FC's approval (ve_require_approval).
    play(
        &t,
        "alice: select KISS: pick dice and how to pay = 1:in:The guard drinks",
    )
    .await;
    assert!(refused(&t, "alice: click Re-roll")
        .await
        .contains("still awaits the FC's approval"));
    no_tool(&t, "alice", "Approve KISSes").await;
    play(&t, "fc: tool Approve KISSes").await;
    let ego = one(&t, "alice: click Ego: double 6s").await;
    assert!(ego
        .text()
        .contains("Ada spends Ego: every 6 strikes two beats"));
    let spend = one(&t, "alice: click Re-roll").await;
    // The KISSed die shows the face it replaced, dropped in brackets; a 6
    // striking two beats is starred.
    assert_eq!(dice(&spend), "(1)→**5** **5** **6**★");
    assert_eq!(spend.title(), "⏳ Waiting for Ada to spend 4 beats");
    assert!(desc(&spend).contains("Ego: every 6 strikes two beats"));
    // Spending the last beat finishes by itself (VE1-S4: nothing is left
    // to decide): the task closes and "After the task" follows.
    let spent = play(
        &t,
        "alice: click Primary: success (2)\nalice: select Buy consequences (1 beat each) = c1, t2",
    )
    .await;
    let closed = &spent[1].outputs;
    assert!(
        closed[0].title().starts_with("✅ Success"),
        "{}",
        closed[0].title()
    );
    assert!(closed
        .iter()
        .any(|o| o.title() == "📈 After the task — Ada"));
    assert!(t.click("alice", "Finish").await.is_err(), "no Finish left");
    play(&t, "fc: tool No subversion").await;
    let ada = sheet(&t, "alice", "Ada").await;
    // VE1-T8: success (no failure exp), learning +1, T2 +1: Sage at 2/16.
    assert_eq!(job(&ada, "Sage"), (0, 2));
    assert!(ada.job("Sage").unwrap().learning);
    assert_eq!((ada.lots, ada.ego), (10, false));
    assert_schema_clean(&t);
    t.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn ve1_void_gives_back_the_lots_spent_and_force_close_applies_the_result() {
    let t = table("ve1-void", 1).await;
    play(&t, "fc: /ve-gm fc edition edition:1").await;
    play(&t, ADA_AND_BO).await;
    play(
        &t,
        r#"
alice: /ve task ability:Finesse factors:"Darkness, Guards"
alice: click Roll
alice: select KISS: pick dice and how to pay = 1:lot, 2:lot
"#,
    )
    .await;
    assert_eq!(sheet(&t, "alice", "Ada").await.lots, 8);
    let voided = one(&t, "fc: tool Void").await;
    assert_eq!(voided.title(), "⏹️ Voided");
    assert!(desc(&voided).contains("Voided by the FC: no exp, spent Lots and Ego given back."));
    assert!(voided.buttons().is_empty());
    let ada = sheet(&t, "alice", "Ada").await;
    assert_eq!((ada.lots, job(&ada, "Thief")), (10, (3, 5)));
    let late = all(&t, "alice: /ve sheet show").await;
    assert_eq!(late[0].kind, "message");
    // A second task, force-closed by the FC during the KISS round: the
    // failure applies (the primary was never bought).
    play(&t, "alice: /ve task ability:Finesse\nalice: click Roll").await;
    let closed = redrawn(&t, "fc: /ve-gm fc close").await;
    assert!(
        closed.title().starts_with("❌ Failure · "),
        "{}",
        closed.title()
    );
    let outcome = desc(&closed);
    assert!(outcome.contains("Force-closed by the FC."));
    // No consequence was given: no empty "It fails" line.
    assert!(!outcome.contains("It fails"), "{outcome}");
    // Failure +1 exp: 5 → 6 = 2 × 3, Thief levels up.
    assert_eq!(job(&sheet(&t, "alice", "Ada").await, "Thief"), (4, 0));
    assert_schema_clean(&t);
    t.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn ve_fc_grants_and_takes_lots_and_ego_within_0_to_10() {
    let t = table("ve-kismet", 1).await;
    play(&t, ADA_AND_BO).await;
    assert!(refused(&t, "alice: /ve-gm fc grant player:alice ego:true")
        .await
        .contains("Only the FC"));
    // At 10 Lots a new Lot becomes exp in a job of the owner's choice (A-V7).
    assert!(
        refused(&t, "fc: /ve-gm fc grant player:alice lots:1 reason:debrief")
            .await
            .contains("choose a job to receive the extra as exp")
    );
    let g = one(
        &t,
        "fc: /ve-gm fc grant player:alice lots:1 job:Thief reason:debrief",
    )
    .await;
    assert_eq!(g.title(), "🎁 Kismet granted");
    assert!(g
        .text()
        .contains("Ada · holds 10 Lots: the extra Lot becomes exp in Thief"));
    assert!(g
        .text()
        .contains("Ada · Thief +1 exp (Lot over the cap) → 6"));
    assert!(g.text().contains("Ada · Thief levels up: 3 → 4 🎉"));
    assert_eq!(g.field("Lots").unwrap(), "●●●●●●●●●● 10/10");
    // Taking: never below 0.
    let took = one(
        &t,
        "fc: /ve-gm fc take player:alice lots:9 reason:\"bad luck\"",
    )
    .await;
    assert!(took.text().contains("Ada · −9 Lots → 1/10"));
    assert!(refused(&t, "fc: /ve-gm fc take player:alice lots:2")
        .await
        .contains("Ada has only 1 Lots, not 2"));
    // Ego: introducing a scene grants it once; taking it needs it held.
    let e = one(
        &t,
        "fc: /ve-gm fc grant player:alice ego:true reason:\"introduced the scene\"",
    )
    .await;
    assert_eq!(e.field("Ego").unwrap(), "✨ held");
    assert!(refused(&t, "fc: /ve-gm fc grant player:alice ego:true")
        .await
        .contains("already holds Ego"));
    one(&t, "fc: /ve-gm fc take player:alice ego:true").await;
    assert!(refused(&t, "fc: /ve-gm fc take player:alice ego:true")
        .await
        .contains("does not hold Ego"));
    assert!(refused(&t, "fc: /ve-gm fc grant player:carol lots:1")
        .await
        .contains("has no active character"));
    let ada = sheet(&t, "alice", "Ada").await;
    assert_eq!((ada.lots, ada.ego, job(&ada, "Thief")), (1, false, (4, 0)));
    // Per-session overflow: a new session clears the count.
    play(
        &t,
        "fc: /ve-gm settings set name:ve_lot_overflow value:per_session_count",
    )
    .await;
    // Earned this session so far: 1 (the converted Lot); 9 more reach 10.
    one(&t, "fc: /ve-gm fc grant player:alice lots:9").await;
    one(&t, "fc: /ve-gm fc take player:alice lots:5").await;
    assert!(refused(&t, "fc: /ve-gm fc grant player:alice lots:1")
        .await
        .contains("choose a job"));
    assert!(one(&t, "fc: /ve-gm fc session")
        .await
        .content()
        .contains("new play session"));
    one(&t, "fc: /ve-gm fc grant player:alice lots:1").await;
    assert_eq!(sheet(&t, "alice", "Ada").await.lots, 6);
    assert_schema_clean(&t);
    t.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn ve_settings_are_shown_to_all_and_set_by_the_fc_only() {
    let t = table("ve-settings", 1).await;
    // A one-system server: `/game` shows the house rules in force here.
    one(&t, "fc: /fc set name:system value:venus").await;
    let shown = one(&t, "alice: /game").await;
    assert_eq!(shown.kind, "ephemeral");
    assert!(shown.field("ve_edition").unwrap().starts_with("**2**"));
    assert!(
        refused(&t, "alice: /ve-gm settings set name:ve_edition value:1")
            .await
            .contains("Only the FC")
    );
    assert!(
        refused(&t, "fc: /ve-gm settings set name:ve_edition value:3")
            .await
            .contains("must be 1 or 2")
    );
    assert!(refused(&t, "fc: /ve-gm settings set name:nope value:1")
        .await
        .contains("There is no Venus Engine setting called"));
    let set = one(&t, "fc: /ve-gm settings set name:ve_max_pool value:5").await;
    assert!(
        set.text().contains("**ve_max_pool**: 20 → **5**"),
        "{}",
        set.text()
    );
    let ed = one(&t, "fc: /ve-gm fc edition edition:1").await;
    assert!(ed
        .content()
        .starts_with("⚙ `ve_edition` is now `1`. Edition 1"));
    assert!(one(&t, "bob: /game")
        .await
        .field("ve_max_pool")
        .unwrap()
        .starts_with("**5**"));
    assert_schema_clean(&t);
    t.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn ve_bad_input_is_refused_and_changes_nothing() {
    let t = table("ve-bad", 1).await;
    play(&t, ADA_AND_BO).await;
    assert!(
        refused(&t, "carol: /ve check ability:Finesse difficulty:10")
            .await
            .contains("no active character")
    );
    assert!(refused(&t, "alice: /ve check ability:Charm difficulty:10")
        .await
        .contains("Ada has no ability called Charm"));
    assert!(
        refused(&t, "alice: /ve check ability:Finesse difficulty:13")
            .await
            .contains("must be 5, 10, 15 or 20")
    );
    assert!(refused(
        &t,
        "alice: /ve check ability:Finesse difficulty:10 factors:\"a,b,c,d,e\""
    )
    .await
    .contains("At most 4 relative factors"));
    assert!(refused(&t, "alice: /ve task ability:Finesse")
        .await
        .contains("needs the FC's appropriate difficulty"));
    assert!(refused(
        &t,
        "alice: /ve task ability:Finesse difficulty:2 job:Acrobat"
    )
    .await
    .contains("Ada has no job called Acrobat"));
    // The FC's calls, refused to a player naming who counts as the FC.
    for (line, what) in [
        (
            "alice: /ve-gm fc call player:bob kind:check ability:Finesse difficulty:10",
            "call a roll for another player",
        ),
        (
            "alice: /ve-gm fc call player:alice kind:task ability:Finesse magic:true",
            "flag a task as magic or for critical results",
        ),
        (
            "alice: /ve-gm fc call player:alice kind:task ability:Finesse ropes:true",
            "decide whether learning the ropes is a factor",
        ),
    ] {
        assert_eq!(
            refused(&t, line).await,
            format!("⚠️ Only the FC can {what}: that is members with the Manage Server permission (a server manager can name an FC role with `/fc role`).")
        );
    }
    assert!(refused(&t, "alice: /ve bonus name:Rope kind:attribute")
        .await
        .contains("no check waiting for bonus factors"));
    // The dice cap: a pool above max_dice_per_roll (50) is refused.
    play(
        &t,
        r#"
fc: /ve-gm settings set name:ve_max_score value:60
fc: /ve-gm settings set name:ve_max_pool value:100
alice: /ve sheet ability name:Finesse rank:silver score:60
"#,
    )
    .await;
    assert!(refused(&t, "alice: /ve task ability:Finesse difficulty:1")
        .await
        .contains("above this server's limit of 50 dice"));
    // Over-long text never reaches the bot (the client's max_length).
    let long = format!(
        "alice: /ve check ability:Finesse difficulty:10 consequence:{}",
        "x".repeat(201)
    );
    assert!(t.run_line(&long).await.is_err());
    let db = t.db().await.unwrap();
    let mut tx = db.read().await.unwrap();
    let open = kismet::storage::sessions::latest_open_in_channel(
        &mut tx,
        GUILD_ID as i64,
        kismet::fake::table::CHANNEL_ID as i64,
        "ve",
        10,
    )
    .await
    .unwrap();
    assert!(open.is_empty(), "a refused roll stores nothing");
    drop(tx);
    assert_schema_clean(&t);
    t.stop().await;
}

/// Checks Discord's component limits on every message the bot sent.
fn assert_payload_limits(t: &Table) {
    for m in t.fake.messages() {
        let rows = m.body["components"].as_array().cloned().unwrap_or_default();
        assert!(rows.len() <= 5, "{} rows", rows.len());
        for r in rows {
            let comps = r["components"].as_array().cloned().unwrap_or_default();
            assert!(comps.len() <= 5);
            for c in comps {
                let id = c["custom_id"].as_str().unwrap_or("");
                assert!(id.len() <= 100, "{id}");
                if let Some(o) = c["options"].as_array() {
                    assert!(o.len() <= 25);
                }
            }
        }
        for e in m.body["embeds"].as_array().cloned().unwrap_or_default() {
            let fields = e["fields"].as_array().cloned().unwrap_or_default();
            assert!(fields.len() <= 25);
            for f in fields {
                assert!(f["value"].as_str().unwrap().chars().count() <= 1024);
            }
        }
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn ve_the_largest_pools_stay_within_discords_limits() {
    let t = table("ve-large", 3).await;
    play(&t, FIVE_THIEVES).await;
    // Edition 2: 47 dice for Ada (score 40 + level 7) and 3 allies = 50, the
    // server's cap; magic, so 10s explode into more dice.
    play(
        &t,
        r#"
fc: /ve-gm settings set name:ve_max_score value:40
fc: /ve-gm settings set name:ve_max_pool value:100
alice: /ve sheet ability name:Finesse rank:bronze score:40
fc: /ve sheet job name:Thief level:7 player:@alice
fc: /ve-gm fc call player:alice kind:task ability:Finesse difficulty:4 factors:"A+2, B+2, C+2, D+2" magic:true crits:true
bob: click Offer aid
carol: click Offer aid
carol: select Aid with a job = Dancer
dan: click Offer aid
"#,
    )
    .await;
    // Every offer is taken at once; no ally may turn another's down.
    for line in [
        "bob: click Refuse Cy",
        "carol: click Refuse Dee",
        "dan: click Refuse Bo",
    ] {
        assert!(
            refused(&t, line).await.contains("Only the roller"),
            "{line}"
        );
    }
    let rolled = one(&t, "alice: click Roll").await;
    let line = dice(&rolled);
    // More than 40 dice for one owner are summarised as counts per face.
    assert!(line.starts_with("Ada 56 dice: **10**×9 "), "{line}");
    // Flagged for crits: margin (216.7% rounds to 217%) and a critical
    // success (26 ≥ 2 × 12).
    assert_eq!(rolled.title(), "✅ Critical success · 26 passes");
    assert!(desc(&rolled).contains("Margin 217%"));
    // Edition 1: Thief level 25 (ve_max_pool 25) and 2 allies: 27 dice, the
    // KISS menu shows every die with each way to pay, misses first, paged.
    play(
        &t,
        r#"
fc: /ve-gm fc edition edition:1
fc: /ve-gm settings set name:ve_max_pool value:25
fc: /ve sheet job name:Thief level:25 player:@alice
alice: /ve task ability:Finesse factors:"A, B, C, D"
bob: click Offer aid
dan: click Offer aid
"#,
    )
    .await;
    for line in ["bob: click Refuse Dee", "dan: click Refuse Bo"] {
        assert!(
            refused(&t, line).await.contains("Only the roller"),
            "{line}"
        );
    }
    let rolled = one(&t, "alice: click Roll").await;
    assert!(rolled
        .field("Pool")
        .unwrap()
        .starts_with("Finesse: 25 D6 · 🟤 Bronze (beat on 5+) · + 2 ally dice"));
    let opts = rolled.body["components"][0]["components"][0]["options"]
        .as_array()
        .unwrap()
        .clone();
    // 27 dice × (Lot, stunt): 23 on the menu's first page and a "more".
    assert_eq!(opts.len(), 24);
    assert_eq!(opts[23]["value"], "page:1");
    let misses: Vec<u32> = opts
        .iter()
        .filter(|o| o["description"].as_str().unwrap().contains("· miss ·"))
        .filter_map(|o| o["value"].as_str().unwrap().strip_suffix(":lot"))
        .map(|d| d.parse().unwrap())
        .collect();
    assert!(misses.len() >= 11, "{misses:?}");
    let ten: Vec<String> = misses[..10].iter().map(|d| format!("{d}:lot")).collect();
    // Ten Lots pay for ten dice; an eleventh in the same pick needs another
    // source (one refusal declares none).
    assert!(refused(
        &t,
        &format!(
            "alice: select KISS: pick dice and how to pay = {},{}:lot",
            ten.join(","),
            misses[10]
        )
    )
    .await
    .contains("no more Lots"));
    // The older two-step buttons still answer: a refused payment drops
    // the pick (issue 14).
    legacy(&t, "alice", "pick", Some(&[&misses[10].to_string()])).await;
    let outs = legacy(&t, "alice", "kspec", None).await;
    let why = outs.iter().find(|o| o.kind == "ephemeral").unwrap();
    assert!(
        why.content().contains("0 unused specialties"),
        "{}",
        why.content()
    );
    // An ally's die needs the ally's consent (edition 1); one stunt per task.
    assert!(dice(&rolled).contains(" · Bo "));
    assert!(
        refused(&t, "alice: select KISS: pick dice and how to pay = 26:lot")
            .await
            .contains("must consent first")
    );
    play(&t, "bob: click Consent to KISS").await;
    assert!(refused(
        &t,
        &format!(
            "alice: select KISS: pick dice and how to pay = {}:stunt, 26:stunt",
            misses[10]
        )
    )
    .await
    .contains("only one die per task with a stunt"));
    // Ten Lots and a stunt in one pick; the stunt waits for Re-roll.
    one(
        &t,
        &format!(
            "alice: select KISS: pick dice and how to pay = {},{}:stunt",
            ten.join(","),
            misses[10]
        ),
    )
    .await;
    let rerolled = one(&t, "alice: click Re-roll").await;
    assert!(desc(&rerolled).contains("**KISSed:** "));
    assert_eq!(sheet(&t, "alice", "Ada").await.lots, 0);
    assert_payload_limits(&t);
    assert_schema_clean(&t);
    t.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn ve_a_task_left_alone_expires_and_its_buttons_go() {
    let mut opts = kismet::fake::table::TableOptions::new(crate::common::db_path("ve-expiry"));
    opts.seed = Some(1);
    opts.config.sessions.sweep_seconds = 1;
    let t = Table::start(opts).await.unwrap();
    play(&t, ADA_AND_BO).await;
    let task = one(&t, "alice: /ve task ability:Finesse difficulty:2").await;
    let (mid, roll) = custom_id(&t, "alice", "Roll");
    let sid = kismet::app::component::ButtonId::parse(&roll)
        .unwrap()
        .session;
    assert!(!task.buttons().is_empty());
    crate::common::expire_now(&t, sid).await;
    // The sweeper re-draws the task without buttons.
    let edited = crate::common::message_when(&t, mid, |b| {
        b["components"].as_array().is_none_or(|c| c.is_empty())
    })
    .await;
    let text = edited.body["embeds"][0]["description"].as_str().unwrap();
    assert!(text.contains("**Timed out**"), "{text}");
    // A click on the old button changes nothing and says why.
    let ex = t.click_custom_id("alice", mid, &roll, None).await.unwrap();
    assert!(ex
        .outputs
        .iter()
        .any(|o| o.kind == "ephemeral" && o.content().contains("timed out")));
    assert_schema_clean(&t);
    t.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn ve1_aid_answers_job_switch_consent_and_the_ego_reroll_of_every_miss() {
    let t = table("ve1-ego", 1).await;
    play(
        &t,
        r#"
fc: /ve-gm fc edition edition:1
alice: /ve sheet create name:Ada
alice: /ve sheet ability name:Finesse rank:silver score:4
alice: /ve sheet ability name:Wits rank:gold score:3
alice: /ve sheet job name:Thief inherits:"Finesse, Wits" level:3 exp:5
alice: /ve sheet job name:Burglar inherits:Finesse level:2
fc: /ve sheet set ego:true player:@alice
bob: /ve sheet create name:Bo
bob: /ve sheet ability name:Finesse rank:bronze score:2
bob: /ve sheet job name:Acrobat inherits:Finesse level:2 exp:3
"#,
    )
    .await;
    let task = one(
        &t,
        "alice: /ve task ability:Finesse factors:\"Darkness, Guards, Dogs\"",
    )
    .await;
    assert_eq!(task.title(), "⏳ Waiting for Ada to roll");
    assert_eq!(author(&task), "Ada · Finesse task via Thief (level 3)");
    let switched = one(&t, "alice: select Use job = Burglar").await;
    assert_eq!(
        author(&switched),
        "Ada · Finesse task via Burglar (level 2)"
    );
    assert!(refused(&t, "bob: select Use job = Thief")
        .await
        .contains("Only Ada"));
    play(&t, "alice: select Use job = Thief").await;
    // Offer, refusal, a new offer, withdrawal, and a last offer accepted.
    play(&t, "bob: click Offer aid").await;
    assert!(desc(&one(&t, "alice: click Refuse Bo").await).contains("Acrobat · refused"));
    play(&t, "bob: click Offer aid").await;
    assert!(desc(&one(&t, "bob: click Withdraw aid").await).contains("Acrobat · withdrawn"));
    play(&t, "bob: click Offer aid").await;
    // The last offer is taken at once; only Ada may still turn it down.
    assert!(refused(&t, "bob: click Refuse Bo")
        .await
        .contains("Only the roller"));
    let rolled = one(&t, "alice: click Roll").await;
    assert_eq!(dice(&rolled), "Ada 2 **5** **6** · Bo 4");
    // Bo consents, so Ada's Ego re-roll takes his miss too (A-V11).
    assert!(refused(&t, "alice: click Consent to KISS")
        .await
        .contains("Only an ally"));
    play(&t, "bob: click Consent to KISS").await;
    let declared = one(&t, "alice: click Ego: re-roll misses").await;
    assert!(desc(&declared).contains("Ada spends Ego"));
    assert!(declared
        .field("Chance")
        .unwrap()
        .contains("after KISSing the 2 declared dice"));
    let spent = one(&t, "alice: click Re-roll").await;
    assert_eq!(dice(&spent), "Ada (2)→3 **5** **6** · Bo (4)→1");
    assert!(desc(&spent).contains("**KISSed:** Ada's 2 with Ego; Ada's 4 (Bo's) with Ego"));
    // Two beats, threshold 4: no primary; S1 and S3 bought, then the FC
    // subverts S2.
    play(&t, "alice: select Buy consequences (1 beat each) = s3").await;
    let undone = one(&t, "alice: click Undo last").await;
    assert!(undone.text().contains("undid S3"));
    // Spending the last beat finishes by itself: the result applies at once
    // (VE1-T8) and what changed is posted; the FC's subversion window stays
    // open.
    let finished = all(&t, "alice: select Buy consequences (1 beat each) = s1, s3").await;
    assert_eq!(finished[0].title(), "❌ Failure · 2 of 4 beats");
    assert_eq!(finished[1].title(), "📈 After the task — Ada");
    assert_eq!(job(&sheet(&t, "alice", "Ada").await, "Thief"), (4, 0));
    no_tool(&t, "alice", "No subversion").await;
    let closed = all(&t, "fc: tool Subvert S2 Graceful").await;
    assert!(desc(&closed[0]).contains(
        "**Subverted by the FC:** S2 (the action was graceful or efficient) turns against Ada: the action is clumsy or wasteful."
    ));
    let ada = sheet(&t, "alice", "Ada").await;
    assert_eq!((job(&ada, "Thief"), ada.ego, ada.lots), ((4, 0), false, 10));
    assert_eq!(job(&sheet(&t, "bob", "Bo").await, "Acrobat"), (3, 0));
    assert_schema_clean(&t);
    t.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn ve_a_roll_whose_sheet_was_deleted_can_only_be_voided() {
    let t = table("ve-deleted", 1).await;
    play(&t, ADA_AND_BO).await;
    play(
        &t,
        "alice: /ve sheet create name:Cleo\nalice: /ve sheet ability name:Wits rank:gold score:2",
    )
    .await;
    play(
        &t,
        "fc: /ve-gm fc call player:alice kind:check ability:Wits difficulty:2",
    )
    .await;
    play(
        &t,
        "alice: /ve sheet show character:Cleo private:true\nalice: click Delete\nalice: click Delete",
    )
    .await;
    assert!(refused(&t, "alice: click Roll d20")
        .await
        .contains("Cleo's character sheet is gone"));
    let v = one(&t, "fc: tool Void").await;
    assert!(v.text().contains("Voided by the FC"));
    assert!(v.buttons().is_empty());
    assert_schema_clean(&t);
    t.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn ve_a_secret_check_reaches_only_the_roller_and_the_gm_channel() {
    let t = table("ve-secret", 4).await;
    play(&t, "fc: /fc gm-channel channel:#gm").await;
    play(&t, "fc: /ve-gm fc edition edition:1").await;
    play(&t, ADA_CHECK).await;
    let ex = t
        .command(
            "alice",
            "/ve check ability:Finesse difficulty:15 secret:true",
        )
        .await
        .unwrap();
    let mine = ex.of_kind("ephemeral").expect("the roller's private copy");
    assert!(mine.content().contains("Secret roll"), "{}", mine.content());
    // The d20 is thrown with the command: short by 1, the bonus offered.
    assert_eq!(mine.title(), "⏳ Waiting for Ada · short by 1");
    let copy = ex.of_kind("channel").expect("a copy in the GM channel");
    assert_eq!(author(copy), "Ada · Finesse check");
    assert!(
        ex.of_kind("message").is_none(),
        "nothing public: {:?}",
        ex.outputs
    );
    assert_schema_clean(&t);
    t.stop().await;
}

fn labels(o: &Output) -> Vec<String> {
    o.buttons().into_iter().map(|b| b.0).collect()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn ve_the_fc_voiding_a_secret_check_redraws_both_copies_and_shows_the_player_no_fc_tools() {
    let t = table("ve-secret-adjust", 4).await;
    play(&t, "fc: /fc gm-channel channel:#gm").await;
    play(&t, ADA_CHECK).await;
    // Thrown with the command: 10 + 4 = 14 against 15, waiting for bonus
    // factors.
    let ex = t
        .command(
            "alice",
            "/ve check ability:Finesse difficulty:3 secret:true",
        )
        .await
        .unwrap();
    // The FC's tools sit behind ⚙ FC on both copies, as on a public roll.
    for o in [
        ex.of_kind("ephemeral").unwrap(),
        ex.of_kind("channel").unwrap(),
    ] {
        let l = labels(o);
        assert!(
            !l.iter().any(|l| l == "Void" || l == "Force close"),
            "{l:?}"
        );
        assert!(l.iter().any(|l| l == "⚙ FC"), "{l:?}");
    }
    let ex = t.command("fc", "/ve-gm fc void").await.unwrap();
    assert!(ex.outputs[0].text().starts_with('✅'), "{:?}", ex.outputs);
    // Nothing new is posted (no copy naming the FC as the roller): the GM
    // channel's copy and Ada's private copy are redrawn in place.
    assert!(
        ex.outputs
            .iter()
            .all(|o| o.kind != "channel" && o.kind != "message"),
        "{:?}",
        ex.outputs
    );
    assert_eq!(
        ex.outputs.iter().filter(|o| o.kind == "ephemeral").count(),
        1
    );
    let gm = ex.of_kind("channel-update").expect("the GM copy redrawn");
    let mine = ex.of_kind("update").expect("Ada's private copy redrawn");
    for o in [gm, mine] {
        assert_eq!(o.field("Target").unwrap(), "**15** = 15 (difficulty 3)");
        assert_eq!(o.title(), "⏹️ Voided by the FC");
        assert!(!labels(o).iter().any(|l| l == "Void"), "{:?}", labels(o));
    }
    t.stop().await;
}

/// The labels the `roll:` option of `/ve-gm fc void` offers `who`.
async fn roll_choices(t: &Table, who: &str) -> Vec<String> {
    t.autocomplete(who, "/ve-gm fc void roll:", "roll")
        .await
        .unwrap_or_else(|e| panic!("{who}: {e}"))
        .iter()
        .map(|c| c["name"].as_str().unwrap_or("").to_string())
        .collect()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn ve_the_roll_list_offers_a_secret_roll_only_to_its_roller_and_the_fc() {
    let t = table("ve-secret-list", 4).await;
    play(&t, "fc: /fc gm-channel channel:#gm").await;
    play(&t, ADA_AND_BO).await;
    t.command(
        "alice",
        "/ve check ability:Finesse difficulty:15 secret:true",
    )
    .await
    .unwrap();
    play(&t, "bob: /ve check ability:Finesse difficulty:10").await;
    let ada = "Ada · Finesse check · just now";
    let bo = "Bo · Finesse check · just now";
    assert_eq!(roll_choices(&t, "fc").await, vec![bo, ada]);
    assert_eq!(roll_choices(&t, "alice").await, vec![bo, ada]);
    // Bob and a bystander see the public roll only.
    assert_eq!(roll_choices(&t, "bob").await, vec![bo]);
    assert_eq!(roll_choices(&t, "carol").await, vec![bo]);
    t.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn ve_notes_and_factors_take_as_much_text_as_their_options_allow() {
    let t = table("ve-long-text", 4).await;
    play(&t, ADA_CHECK).await;
    let asset = format!("A {}", "grappling hook ".repeat(13).trim_end());
    assert_eq!(asset.chars().count(), 196);
    let noted = one(
        &t,
        &format!("alice: /ve sheet note kind:asset text:\"{asset}\""),
    )
    .await;
    assert!(noted.text().contains("Ada: noted."), "{}", noted.text());
    assert_eq!(sheet(&t, "alice", "Ada").await.attributes.assets[1], asset);
    // Discord itself refuses what is longer than the option allows.
    let too_long = format!("alice: /ve sheet note kind:asset text:{}", "x".repeat(201));
    assert!(t.run_line(&too_long).await.is_err());
    let fog = format!("Fog {}", "thick ".repeat(15).trim_end());
    assert_eq!(fog.chars().count(), 93);
    let asked = one(
        &t,
        &format!("alice: /ve check ability:Finesse difficulty:2 factors:\"{fog}+1, Night\""),
    )
    .await;
    assert_eq!(
        asked.field("Target").unwrap(),
        format!("**12** = 10 (difficulty 2) + {fog} + Night")
    );
    t.stop().await;
}

/// The values of the KISS menu in alice's newest message.
fn kiss_menu(t: &Table) -> Vec<String> {
    let m = t.last_message_for("alice").unwrap();
    m.body["components"]
        .as_array()
        .unwrap()
        .iter()
        .flat_map(|r| r["components"].as_array().cloned().unwrap_or_default())
        .filter(|c| c["placeholder"] == "KISS: pick dice and how to pay")
        .flat_map(|c| c["options"].as_array().cloned().unwrap_or_default())
        .map(|o| o["value"].as_str().unwrap().to_string())
        .collect()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn ve_a_pool_of_thirty_dice_keeps_every_die_kissable() {
    let t = table("ve-big-pool", 1).await;
    no_errors(
        &play(
            &t,
            "fc: /ve-gm fc edition edition:1\n\
             fc: /fc set name:ve_max_pool value:40\n\
             alice: /ve sheet create name:Ada\n\
             alice: /ve sheet ability name:Finesse rank:bronze score:4\n\
             alice: /ve sheet job name:Thief inherits:Finesse level:30\n\
             alice: /ve task ability:Finesse\n\
             alice: click Roll",
        )
        .await,
    );
    // 30 dice, each with a Lot or a stunt: 60 choices on three pages.
    let first = kiss_menu(&t);
    assert_eq!(first.len(), 24, "23 choices and a page option: {first:?}");
    assert!(first.contains(&"page:1".to_string()));
    let mut pages = vec![first];
    for page in 1..=2 {
        let ex = t
            .select(
                "alice",
                "KISS: pick dice and how to pay",
                &[format!("page:{page}")],
            )
            .await
            .unwrap();
        assert_eq!(ex.outputs[0].kind, "update");
        let shown = kiss_menu(&t);
        assert!(shown.contains(&format!("page:{}", page - 1)), "{shown:?}");
        pages.push(shown);
    }
    let mut dice: Vec<u32> = pages
        .iter()
        .flatten()
        .filter_map(|v| v.strip_suffix(":lot"))
        .map(|v| v.parse().unwrap())
        .collect();
    dice.sort();
    assert_eq!(dice, (1..=30).collect::<Vec<u32>>(), "every die, once");
    // A die from the last page is declared like any other.
    let pick = pages[2].iter().find(|v| !v.starts_with("page:")).unwrap();
    let ex = t
        .select(
            "alice",
            "KISS: pick dice and how to pay",
            std::slice::from_ref(pick),
        )
        .await
        .unwrap();
    assert_eq!(ex.outputs[0].kind, "update");
    assert!(!ex.outputs.iter().any(|o| o.content().starts_with("⚠️")));
    assert_schema_clean(&t);
    t.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn ve1_a_pool_of_no_dice_fails_at_once_with_its_exp() {
    let t = table("ve1-zero", 1).await;
    play(
        &t,
        r#"
fc: /ve-gm fc edition edition:1
alice: /ve sheet create name:Ada
alice: /ve sheet ability name:Wits rank:gold score:0
alice: /ve task ability:Wits job:Sage learn:Wits consequence:"You misread the map"
"#,
    )
    .await;
    // A-V26: no dice, nothing to KISS or spend: the failure applies at once
    // (failure +1, learning +1) and the FC's subversion window opens.
    let rolled = all(&t, "alice: click Roll").await;
    assert_eq!(rolled[0].title(), "❌ Failure · 0 of 2 beats");
    assert!(rolled
        .iter()
        .any(|o| o.title().starts_with("📈 After the task")));
    assert_eq!(job(&sheet(&t, "alice", "Ada").await, "Sage"), (0, 2));
    let sub = one(&t, "fc: tool No subversion").await;
    assert!(sub.buttons().is_empty());
    assert_schema_clean(&t);
    t.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn ve1_a_refused_kiss_payment_drops_the_pick_and_assets_pay_like_specialties() {
    let t = table("ve1-kisspay", 1).await;
    play(&t, "fc: /ve-gm fc edition edition:1").await;
    play(&t, ADA_AND_BO).await;
    // The older two-step words (`pick`, then `kstunt`…), as on a message
    // an older Kismet drew, still answer.
    play(&t, "alice: /ve task ability:Finesse\nalice: click Roll").await;
    legacy(&t, "alice", "pick", Some(&["1", "2"])).await;
    // Two dice, one stunt: refused, and the pick is dropped, so a later
    // "KISS with Lot" does not pay for those dice behind Ada's back.
    let outs = legacy(&t, "alice", "kstunt", None).await;
    assert_eq!(outs[0].kind, "update");
    assert!(outs[1]
        .content()
        .contains("only one die per task with a stunt"));
    let outs = legacy(&t, "alice", "klot", None).await;
    assert!(outs[0].content().contains("Pick the dice to KISS"));
    // Two dice, one specialty (Lockpicks): refused the same way; an asset
    // pays for a die like a specialty.
    legacy(&t, "alice", "pick", Some(&["1", "2"])).await;
    let outs = legacy(&t, "alice", "kspec", None).await;
    assert!(
        outs[1].content().contains("1 unused"),
        "{}",
        outs[1].content()
    );
    play(&t, "alice: /ve sheet note kind:asset text:Crowbar").await;
    legacy(&t, "alice", "pick", Some(&["1", "2"])).await;
    let paid = legacy(&t, "alice", "kspec", None).await;
    let kisses = desc(&paid[0]);
    assert!(
        kisses.contains("Ada's 5 with specialty “Lockpicks”"),
        "{kisses}"
    );
    assert!(
        kisses.contains("Ada's 6 with specialty “Crowbar”"),
        "{kisses}"
    );
    // In the one-step menu, one specialty pays for one die only.
    play(&t, "alice: click Withdraw my KISSes").await;
    assert!(refused(
        &t,
        "alice: select KISS: pick dice and how to pay = 1:sp:Lockpicks, 2:sp:Lockpicks"
    )
    .await
    .contains("pays for one die only"));
    assert!(refused(
        &t,
        "alice: select KISS: pick dice and how to pay = 1:lot, 1:stunt"
    )
    .await
    .contains("picked twice"));
    assert_eq!(sheet(&t, "alice", "Ada").await.lots, 10);
    assert_schema_clean(&t);
    t.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn ve_a_player_clears_factors_with_a_dash_as_the_fc_does() {
    let t = table("ve-dash", 1).await;
    play(&t, "fc: /ve-gm fc edition edition:1").await;
    play(&t, ADA_AND_BO).await;
    let task = one(&t, "alice: /ve task ability:Finesse factors:\"-\"").await;
    assert!(task
        .field("Pool")
        .unwrap()
        .ends_with("\nThreshold **1** = 1"));
    t.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn ve1_the_player_chooses_which_attribute_or_insight_pays_for_which_die() {
    let t = table("ve1-paywith", 1).await;
    play(&t, "fc: /ve-gm fc edition edition:1").await;
    play(&t, ADA_AND_BO).await;
    play(
        &t,
        "alice: /ve sheet note kind:asset text:Crowbar\n\
         alice: /ve sheet note kind:insight text:\"The guard sleeps at noon\"\n\
         alice: /ve task ability:Finesse\nalice: click Roll",
    )
    .await;
    // The older two-step flow (a message drawn before the one-step menu):
    // the picked dice wait for a payment each.
    legacy(&t, "alice", "pick", Some(&["1", "2", "3"])).await;
    // The menu lists Ada's unused attributes and insights.
    let m = t.last_message_for("alice").unwrap();
    let options: Vec<String> = m.body["components"]
        .as_array()
        .unwrap()
        .iter()
        .flat_map(|r| r["components"].as_array().cloned().unwrap_or_default())
        .filter(|c| c["placeholder"] == "Pay with a specialty or insight")
        .flat_map(|c| c["options"].as_array().cloned().unwrap_or_default())
        .map(|o| o["value"].as_str().unwrap().to_string())
        .collect();
    assert_eq!(
        options,
        ["sp:Lockpicks", "sp:Crowbar", "in:The guard sleeps at noon"]
    );
    // Crowbar (an asset, second in sheet order) pays for die #1, the
    // insight for #2, Lockpicks for #3: each die waits for its own choice.
    let paid = one(
        &t,
        "alice: select Pay with a specialty or insight = sp:Crowbar",
    )
    .await;
    let kisses = desc(&paid);
    assert!(kisses.contains("with specialty “Crowbar”"), "{kisses}");
    assert!(
        kisses.contains("Ada picked #2, #3: choose how to pay"),
        "{kisses}"
    );
    play(
        &t,
        "alice: select Pay with a specialty or insight = in:The guard sleeps at noon",
    )
    .await;
    // An attribute already used is refused, and drops the pick.
    assert!(refused_payment(
        &t,
        "alice: select Pay with a specialty or insight = sp:Crowbar"
    )
    .await
    .contains("no unused specialty, discipline, asset or merit “Crowbar”"));
    legacy(&t, "alice", "pick", Some(&["3"])).await;
    let paid = one(
        &t,
        "alice: select Pay with a specialty or insight = sp:Lockpicks",
    )
    .await;
    let kisses = desc(&paid);
    assert!(
        kisses.contains("with insight “The guard sleeps at noon”"),
        "{kisses}"
    );
    assert!(kisses.contains("with specialty “Lockpicks”"), "{kisses}");
    assert!(!kisses.contains("choose how to pay"), "{kisses}");
    assert_schema_clean(&t);
    t.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn ve1_a_t3_lot_over_ten_gives_its_exp_to_the_job_the_player_chooses() {
    let t = table("ve1-lotjob", 1).await;
    play(&t, "fc: /ve-gm fc edition edition:1").await;
    play(&t, ADA_AND_BO).await;
    play(
        &t,
        "alice: /ve sheet job name:Cook inherits:Wits level:1\n\
         alice: /ve task ability:Finesse\nalice: click Roll\nalice: click No KISS\n\
         alice: select Buy consequences (1 beat each) = t3",
    )
    .await;
    // Ada holds 10 Lots: the T3 Lot becomes exp, in a job she chooses.
    assert!(refused(&t, "alice: click Finish")
        .await
        .contains("choose the job in the menu"));
    let before = sheet(&t, "alice", "Ada").await;
    let outs = all(
        &t,
        "alice: select Finish: the Lot over 10 becomes exp in… = Cook",
    )
    .await;
    assert!(!outs[0].title().starts_with("⏳"), "{}", outs[0].text());
    let after = sheet(&t, "alice", "Ada").await;
    assert_eq!(after.lots, 10);
    assert_eq!(job(&after, "Cook"), (1, 1));
    // The Thief gets only the failure exp (if any), not the Lot's.
    assert!(job(&after, "Thief").1 <= job(&before, "Thief").1 + 1);
    assert_schema_clean(&t);
    t.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn ve1_the_fc_may_leave_out_learning_the_ropes() {
    let t = table("ve1-ropes", 1).await;
    play(&t, "fc: /ve-gm fc edition edition:1").await;
    play(&t, ADA_AND_BO).await;
    // A player cannot leave it out; the FC can, when calling or adjusting.
    let threshold = |o: &Output| o.field("Pool").unwrap().lines().nth(1).unwrap().to_string();
    let task = one(&t, "alice: /ve task ability:Wits job:Sage learn:Wits").await;
    assert_eq!(threshold(&task), "Threshold **2** = 1 + Learning the ropes");
    assert!(refused(&t, "alice: /ve-gm fc adjust ropes:false")
        .await
        .contains("FC"));
    let adjusted = redrawn(&t, "fc: /ve-gm fc adjust ropes:false").await;
    assert_eq!(threshold(&adjusted), "Threshold **1** = 1");
    let adjusted = redrawn(&t, "fc: /ve-gm fc adjust ropes:true").await;
    assert_eq!(
        threshold(&adjusted),
        "Threshold **2** = 1 + Learning the ropes"
    );
    play(&t, "fc: /ve-gm fc void").await;
    let called = one(
        &t,
        "fc: /ve-gm fc call player:@alice kind:task ability:Wits job:Sage learn:Wits ropes:false factors:Dark",
    )
    .await;
    assert_eq!(threshold(&called), "Threshold **2** = 1 + Dark");
    t.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn ve2_a_learned_job_without_a_tier_asks_for_the_tier() {
    let t = table("ve2-tier", 1).await;
    play(
        &t,
        "alice: /ve sheet create name:Ada\n\
         alice: /ve sheet ability name:Wits rank:gold score:1\n\
         alice: /ve sheet job name:Sage inherits:Wits level:0 exp:15",
    )
    .await;
    let outs = all(&t, "alice: /ve task ability:Wits difficulty:4").await;
    assert_eq!(outs[0].kind, "message", "{}", outs[0].text());
    let mut rolled = all(&t, "alice: click Roll").await;
    if rolled[0].buttons().iter().any(|b| b.0 == "No KISS") {
        rolled = all(&t, "alice: click No KISS").await;
    }
    if rolled[0].buttons().iter().any(|b| b.0 == "Keep Ego") {
        rolled = all(&t, "alice: click Keep Ego").await;
    }
    let text: String = rolled.iter().map(|o| o.text()).collect();
    assert!(text.contains("set the tier"), "{text}");
    let s = sheet(&t, "alice", "Ada").await;
    let j = s.job("Sage").unwrap();
    assert_eq!((j.level, j.learning), (0, true));
    assert!(j.exp >= 16);
    let set = one(&t, "alice: /ve sheet set tier:heroic").await;
    assert!(
        set.text().contains("Sage is learned: level 2"),
        "{}",
        set.text()
    );
    let j = sheet(&t, "alice", "Ada")
        .await
        .job("Sage")
        .cloned()
        .unwrap();
    assert_eq!((j.level, j.exp, j.learning), (2, 0, false));
    t.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn ve1_magic_explosions_are_a_house_rule_off_by_default() {
    let t = table("ve1-explode", 1).await;
    play(&t, "fc: /ve-gm fc edition edition:1").await;
    play(&t, ADA_AND_BO).await;
    let line = "fc: /ve-gm fc call player:@alice kind:task ability:Finesse magic:true";
    assert!(refused(&t, line).await.contains("ve1_explosions"));
    let help = one(&t, "alice: /help system:\"Venus Engine (1st Playtest)\"").await;
    assert!(help.text().contains("ve1_explosions"), "{}", help.text());
    play(&t, "fc: /fc set name:ve1_explosions value:on").await;
    let task = one(&t, line).await;
    assert!(
        task.field("Pool")
            .unwrap()
            .contains("6s explode (house rule)"),
        "{}",
        task.text()
    );
    let rolled = one(&t, "alice: click Roll").await;
    assert!(!dice(&rolled).is_empty(), "{}", rolled.text());
    assert_schema_clean(&t);
    t.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn ve_the_table_example_approves_rejects_and_undoes() {
    let t = table("ve-table-example", 1).await;
    let script = std::fs::read_to_string(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/examples/venus-table.txt"
    ))
    .unwrap();
    let ex = play(&t, &script).await;
    no_errors(&ex);
    let text: String = ex
        .iter()
        .flat_map(|e| e.outputs.iter())
        .map(|o| o.text())
        .collect::<Vec<_>>()
        .join("\n");
    assert!(text.contains("Ego none → held"), "{text}");
    assert!(
        text.contains("Ada's Thief: level 1 → 3, exp 0 → 1"),
        "{text}"
    );
    let s = sheet(&t, "alice", "Ada").await;
    assert!(s.ego, "approved");
    assert_eq!(s.lots, 10);
    assert_eq!(job(&s, "Thief"), (1, 0), "rejected, then undone");
    assert_schema_clean(&t);
    t.stop().await;
}

/// A governed job edit asks the FC about what it changes: a value given
/// as it already is is not shown as a change ("level 1 → 1"), and new
/// inherited abilities carried along are named.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn ve_a_job_request_names_only_what_changes() {
    let t = table("ve-job-request", 1).await;
    let script = "fc: /fc set name:player_edits value:approval
alice: /ve sheet create name:Ada
alice: /ve sheet ability name:Finesse rank:silver score:4
alice: /ve sheet ability name:Stealth rank:silver score:3
alice: /ve sheet job name:Thief inherits:Finesse level:1";
    no_errors(&play(&t, script).await);
    let asked = one(
        &t,
        "alice: /ve sheet job name:Thief inherits:Stealth level:1 exp:2",
    )
    .await;
    let text = asked.text();
    assert!(
        text.contains("Ada's Thief: exp 0 → 2, inherits Stealth"),
        "{text}"
    );
    assert!(!text.contains("level 1 → 1"), "{text}");
    t.stop().await;
}

/// Issue 31 item 1: one `/ve odds` asks every question, a check when given
/// a score and a target, a task when given dice, in the server's edition
/// unless one is named (default edition 2); options that belong to the
/// other kind or edition are refused by name, and nothing is posted.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn ve_odds_is_one_command_in_the_servers_edition() {
    let t = table("ve-odds-one", 1).await;
    let asked = |line: &'static str| {
        let t = &t;
        async move {
            let ex = t.command("alice", line).await.unwrap();
            ex.single().clone()
        }
    };
    let check = asked("/ve odds rank:Silver score:7 target:15").await;
    assert_eq!(check.title(), "🎯 Odds · Venus Engine (Playsheet) check");
    let task = asked("/ve odds rank:Silver dice:3 ally1:Gold").await;
    assert_eq!(task.title(), "🎯 Odds · Venus Engine (Playsheet) task");
    // The FC switches the server to edition 1: the same questions follow.
    t.run_line("fc: /ve-gm fc edition edition:1").await.unwrap();
    let check = asked("/ve odds rank:Silver score:7 target:15 bonus:2").await;
    assert_eq!(check.title(), "🎯 Odds · Venus Engine (1st Playtest) check");
    let named = asked("/ve odds rank:Silver score:7 target:15 edition:2").await;
    assert_eq!(named.title(), "🎯 Odds · Venus Engine (Playsheet) check");
    for (line, why) in [
        (
            "/ve odds rank:Silver",
            "Nothing to compute: a check takes `score:` `target:`",
        ),
        (
            "/ve odds rank:Silver score:4",
            "A check needs both `score:` and `target:`.",
        ),
        ("/ve odds rank:Silver score:4 target:15 dice:3", "not both"),
        (
            "/ve odds rank:Silver score:4 target:15 bonus:5",
            "Edition 1: at most 4 bonus factors",
        ),
        (
            "/ve odds rank:Silver dice:3 ally1:Gold ally2:Gold ally3:Gold",
            "Edition 1: at most 2 allies",
        ),
        (
            "/ve odds rank:Silver dice:3 explode:true",
            "`explode:` does not apply here",
        ),
        (
            "/ve odds rank:Silver score:4 target:15 ego:true",
            "`ego:` does not apply here",
        ),
    ] {
        let o = asked(line).await;
        assert_eq!(o.kind, "ephemeral", "{line}: {}", o.text());
        assert!(o.content().contains(why), "{line}: {}", o.content());
    }
    assert_schema_clean(&t);
    t.stop().await;
}

/// A player pressing a check's **Void** or **Force close** (the FC's
/// tools, as a message an older version drew showed them) is refused in
/// the FC's words, before the d20 is thrown and after, and the check goes
/// on; the FC's own **Void** ends it.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn only_the_fc_voids_or_force_closes_a_check() {
    let t = table("ve-check-fc-ends", 2).await;
    play(&t, "fc: /ve-gm fc edition edition:1").await;
    play(&t, ADA_CHECK).await;
    let called = one(&t, "fc: /ve-gm fc call player:alice kind:check ability:Finesse difficulty:15 factors:\"Wet stones\"").await;
    alice_cannot_end::<CheckButton>(&t, &called).await;
    let rolled = one(&t, "alice: click Roll d20").await;
    assert_eq!(rolled.title(), "⏳ Waiting for Ada · short by 4");
    alice_cannot_end::<CheckButton>(&t, &rolled).await;
    let voided = t.tool("fc", "Void").await.unwrap();
    assert_eq!(voided.outputs[0].title(), "⏹️ Voided by the FC");
    t.stop().await;
}

/// Alice presses **Void** and **Force close** (of kind `B`: a check's or
/// a task's) on the roll `shown`: each is refused with the shared refusal
/// of the game master's actions, naming who counts as the FC, and the roll
/// is left as it was.
async fn alice_cannot_end<B: RollButton>(t: &Table, shown: &Output) {
    let roll = shown
        .buttons()
        .into_iter()
        .find_map(|b| kismet::app::component::ButtonId::parse(&b.1))
        .unwrap();
    for (button, what) in [(B::VOID, "void a roll"), (B::FORCE, "force-close a roll")] {
        let cid = kismet::systems::venus::buttons::custom_id(&button, roll.session, roll.version);
        let msg = shown.message_id.unwrap();
        let ex = t.click_custom_id("alice", msg, &cid, None).await.unwrap();
        let o = &ex.outputs[0];
        assert_eq!(o.kind, "ephemeral", "{}", o.text());
        assert_eq!(
            o.content(),
            format!("⚠️ Only the FC can {what}: that is members with the Manage Server permission (a server manager can name an FC role with `/fc role`).")
        );
    }
    let db = t.db().await.unwrap();
    let mut tx = db.read().await.unwrap();
    let s = kismet::storage::sessions::get(&mut tx, GUILD_ID as i64, roll.session)
        .await
        .unwrap()
        .unwrap();
    assert_eq!(s.version, roll.version, "a refused press changed the roll");
}

/// Edition 1's **Ego: re-roll misses** is withdrawn with the same button
/// (**Withdraw Ego re-roll**); a player's **Void** and **Force close** on
/// a task are refused in the FC's words; the FC's **Force close** ends it.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn ve1_the_ego_reroll_is_withdrawn_and_only_the_fc_ends_a_task() {
    let t = table("ve1-ego-withdrawn", 1).await;
    play(
        &t,
        r#"
fc: /ve-gm fc edition edition:1
alice: /ve sheet create name:Ada
alice: /ve sheet ability name:Finesse rank:silver score:4
alice: /ve sheet job name:Thief inherits:Finesse level:3 exp:5
fc: /ve sheet set ego:true player:@alice
"#,
    )
    .await;
    let task = one(
        &t,
        "alice: /ve task ability:Finesse factors:\"Darkness, Guards, Dogs\"",
    )
    .await;
    alice_cannot_end::<TaskButton>(&t, &task).await;
    let rolled = one(&t, "alice: click Roll").await;
    assert_eq!(rolled.title(), "⏳ Waiting for Ada · KISS · 3 of 4 beats");
    let declared = one(&t, "alice: click Ego: re-roll misses").await;
    assert_eq!(
        labels(&declared),
        ["Re-roll", "Withdraw Ego re-roll", "⚙ FC"]
    );
    assert!(desc(&declared).contains("Ada spends Ego"));
    let withdrawn = one(&t, "alice: click Withdraw Ego re-roll").await;
    assert_eq!(
        labels(&withdrawn),
        ["No KISS", "Ego: re-roll misses", "Ego: double 6s", "⚙ FC"]
    );
    assert!(!desc(&withdrawn).contains("Ada spends Ego"));
    alice_cannot_end::<TaskButton>(&t, &withdrawn).await;
    let closed = t.tool("fc", "Force close").await.unwrap();
    assert_eq!(closed.outputs[0].title(), "❌ Failure · 3 of 4 beats");
    assert!(desc(&closed.outputs[0]).contains("Force-closed by the FC."));
    t.stop().await;
}

/// `/ve sheet set` changes tier, Lots and Ego; a name is the shared
/// `/ve sheet rename`'s (one way to do one thing): the option is gone, and
/// the shared rename renames a Venus sheet.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn ve_sheet_set_leaves_names_to_the_shared_rename() {
    let t = table("ve-set-options", 1).await;
    let reg = t.registered();
    let set: Vec<String> = reg
        .as_array()
        .unwrap()
        .iter()
        .filter(|c| c["name"] == "ve")
        .flat_map(|c| c["options"].as_array().cloned().unwrap_or_default())
        .filter(|g| g["name"] == "sheet")
        .flat_map(|g| g["options"].as_array().cloned().unwrap_or_default())
        .filter(|s| s["name"] == "set")
        .flat_map(|s| s["options"].as_array().cloned().unwrap_or_default())
        .map(|o| o["name"].as_str().unwrap().to_string())
        .collect();
    assert_eq!(set, ["tier", "lots", "ego", "character", "player"]);
    play(&t, "alice: /ve sheet create name:Ada").await;
    let renamed = one(&t, "alice: /ve sheet rename character:Ada name:Zed").await;
    assert!(renamed.text().contains("**Ada** is now called **Zed**"));
    let shown = one(&t, "alice: /ve sheet show character:Zed").await;
    assert!(shown.title().contains("Zed"), "{}", shown.title());
    t.stop().await;
}

/// An ability's name is shown as typed: its markdown is escaped where it
/// is drawn as text (the new sheet's line, a check's total, a task's pool
/// and hint), while the embed author, which Discord shows as plain text,
/// keeps it as typed.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_ability_named_with_markdown_shows_as_typed() {
    let t = table("ve-ability-markdown", 1).await;
    let created = one(
        &t,
        "alice: /ve sheet create name:Ada abilities:\"*Fin*_esse Gold 4, Might Silver 3\"",
    )
    .await;
    assert!(
        created
            .text()
            .contains(r"joins the table with \*Fin\*\_esse Gold 4, Might Silver 3."),
        "{}",
        created.text()
    );
    play(
        &t,
        "alice: /ve sheet job name:Pilot inherits:\"*Fin*_esse, Might\" level:2",
    )
    .await;
    let check = one(&t, "alice: /ve check ability:*Fin*_esse difficulty:2").await;
    assert_eq!(author(&check), "Ada · *Fin*_esse check");
    assert!(
        check
            .field("Total")
            .unwrap()
            .contains(r"+ 4 \*Fin\*\_esse (🟡 Gold)"),
        "{:?}",
        check.field("Total")
    );
    let task = one(
        &t,
        "alice: /ve task job:Pilot ability:*Fin*_esse difficulty:2",
    )
    .await;
    assert!(
        task.field("Pool")
            .unwrap()
            .starts_with(r"\*Fin\*\_esse: 6 D10"),
        "{:?}",
        task.field("Pool")
    );
    assert!(
        task.text().contains(r"inheriting \*Fin\*\_esse)"),
        "{}",
        task.text()
    );
    t.stop().await;
}

/// Ada's failed Finesse task, Bo aiding and T2 bought with a beat still
/// left, stored as Kismet wrote it before 73332a2 (21 Nov 2026) once she
/// pressed **Finish**: resting in the rules' subversion phase with nothing
/// applied yet, no `subversion_open` in its JSON. Its message as drawn now
/// (a press on its older buttons redraws it) waits for the FC, whose tools
/// are behind the ⚙. The table, and the session's id and version.
async fn task_in_the_old_subversion_phase(tag: &str) -> (Table, i64, i64) {
    let t = table(tag, 1).await;
    play(&t, "fc: /ve-gm fc edition edition:1").await;
    play(&t, ADA_AND_BO).await;
    play(
        &t,
        r#"
alice: /ve task ability:Finesse factors:"Darkness, Guards"
bob: click Offer aid
alice: click Roll
alice: click No KISS
"#,
    )
    .await;
    let spent = one(&t, "alice: select Buy consequences (1 beat each) = t2").await;
    assert_eq!(spent.title(), "⏳ Waiting for Ada to spend 1 beat");
    let sid = kismet::app::component::ButtonId::parse(&spent.buttons()[0].1)
        .unwrap()
        .session;
    let db = t.db().await.unwrap();
    let mut tx = db.write().await.unwrap();
    let s = kismet::storage::sessions::get(&mut tx, GUILD_ID as i64, sid)
        .await
        .unwrap()
        .unwrap();
    let mut state: serde_json::Value = serde_json::from_str(&s.state).unwrap();
    state["task"]["task"]["phase"] = "gm_subversion".into();
    state["task"]
        .as_object_mut()
        .unwrap()
        .remove("subversion_open");
    let version = kismet::storage::sessions::update(
        &mut tx,
        sid,
        s.version,
        &state.to_string(),
        s.status,
        None,
        0,
    )
    .await
    .unwrap()
    .unwrap();
    tx.commit().await.unwrap();
    let waiting = one(&t, "alice: click Finish").await;
    assert_eq!(waiting.title(), "⏳ Waiting for the FC");
    assert!(desc(&waiting).contains(
        "The FC may turn one secondary consequence Ada did not buy against them, or pass."
    ));
    assert_eq!(labels(&waiting), ["⚙ FC"]);
    assert_eq!(job(&sheet(&t, "alice", "Ada").await, "Thief"), (3, 5));
    (t, sid, version)
}

/// The FC's `tool` on a task left in the old subversion phase
/// ([`task_in_the_old_subversion_phase`]) settles it as the rules say:
/// the result applied once (failure, T2 and aid exp, level-ups), the task
/// closed with `footer` as its note and "After the task" posted; nothing
/// is left to decide and a second press changes nothing. The closed
/// task's description.
async fn settle_old_subversion(
    t: &Table,
    sid: i64,
    version: i64,
    tool: &str,
    footer: &str,
) -> String {
    let closed = all(t, &format!("fc: tool {tool}")).await;
    assert_eq!(closed[0].title(), "❌ Failure · 2 of 3 beats");
    let text = desc(&closed[0]);
    for line in [
        "Ada · Thief +1 exp (failed task) → 6",
        "Ada · Thief +1 exp (learned something) → 7",
        "Bo · Acrobat +1 exp (aid) → 4",
        "Ada · Thief levels up: 3 → 4 🎉",
        "Bo · Acrobat levels up: 2 → 3 🎉",
    ] {
        assert_eq!(text.matches(line).count(), 1, "`{line}` in {text}");
    }
    assert!(closed[0].text().contains(&format!("task #1 · {footer}")));
    assert!(closed[0].buttons().is_empty());
    assert!(closed
        .iter()
        .any(|o| o.title() == "📈 After the task — Ada"));
    assert!(t.tool("fc", "No subversion").await.is_err());
    let cid =
        kismet::systems::venus::buttons::custom_id(&TaskButton::NoSubversion, sid, version + 1);
    let msg = closed[0].message_id.unwrap();
    let again = t.click_custom_id("fc", msg, &cid, None).await.unwrap();
    assert!(again
        .outputs
        .iter()
        .any(|o| o.content() == "That roll is already finished."));
    assert_eq!(job(&sheet(t, "alice", "Ada").await, "Thief"), (4, 0));
    assert_eq!(job(&sheet(t, "bob", "Bo").await, "Acrobat"), (3, 0));
    let db = t.db().await.unwrap();
    let mut tx = db.read().await.unwrap();
    let s = kismet::storage::sessions::get(&mut tx, GUILD_ID as i64, sid)
        .await
        .unwrap()
        .unwrap();
    assert_eq!(s.status, kismet::storage::sessions::Status::Closed);
    text
}

/// A task stored before 73332a2 in the rules' subversion phase: the FC's
/// **Subvert** applies the result once, shows the subversion and closes it.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn ve1_a_task_left_in_the_old_subversion_phase_settles_on_the_fcs_subvert() {
    let (t, sid, version) = task_in_the_old_subversion_phase("ve1-old-subvert").await;
    let text = settle_old_subversion(
        &t,
        sid,
        version,
        "Subvert S2 Graceful",
        "the FC subverts S2; closed",
    )
    .await;
    assert!(text.contains(
        "**Subverted by the FC:** S2 (the action was graceful or efficient) turns against Ada: the action is clumsy or wasteful."
    ));
    assert_schema_clean(&t);
    t.stop().await;
}

/// A task stored before 73332a2 in the rules' subversion phase: the FC's
/// **No subversion** applies the result once and closes it.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn ve1_a_task_left_in_the_old_subversion_phase_settles_on_the_fcs_no_subversion() {
    let (t, sid, version) = task_in_the_old_subversion_phase("ve1-old-nosub").await;
    let text =
        settle_old_subversion(&t, sid, version, "No subversion", "no subversion; closed").await;
    assert!(!text.contains("Subverted"));
    assert_schema_clean(&t);
    t.stop().await;
}

/// A character's name is drawn without markdown where it is prose (the
/// new sheet's line, the sheet's title, a task's title, hint, allies and
/// dice, the after-task card), as Veracity draws it: `A*d_a` reads `Ada`
/// and never pairs with the message's own bold. What Discord shows as
/// plain text keeps it as typed: the embed author, the footer, a button.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_character_named_with_markdown_reads_plainly_in_prose() {
    let t = table("ve-name-markdown", 1).await;
    let created = one(
        &t,
        "alice: /ve sheet create name:A*d_a abilities:\"Finesse Gold 4, Might Silver 3\"",
    )
    .await;
    assert_eq!(
        created.content(),
        "📜 Ada joins the table with Finesse Gold 4, Might Silver 3. Next: `/ve sheet job`."
    );
    let job = one(
        &t,
        "alice: /ve sheet job name:Pilot inherits:\"Finesse, Might\" level:2",
    )
    .await;
    assert_eq!(job.content(), "Ada: Pilot added.");
    assert_eq!(job.title(), "📜 Ada");
    play(
        &t,
        "bob: /ve sheet create name:B*o_ abilities:\"Finesse Bronze 2\"\n\
         bob: /ve sheet job name:Acrobat inherits:Finesse level:1",
    )
    .await;
    let check = one(&t, "alice: /ve check ability:Finesse difficulty:2").await;
    assert_eq!(author(&check), "A*d_a · Finesse check");
    let task = one(&t, "alice: /ve task job:Pilot ability:Finesse difficulty:2").await;
    assert_eq!(task.title(), "⏳ Waiting for Ada to roll");
    let aided = one(&t, "bob: click Offer aid").await;
    assert_eq!(
        desc(&aided),
        "🟤 **Bo** — Acrobat · accepted\n\
         -# Allies: **Offer aid** (up to 3, a job of level 1+ inheriting Finesse), taken at once; Ada may **Refuse** it, then **Roll**."
    );
    assert!(
        aided
            .buttons()
            .iter()
            .any(|(label, _, _)| label == "Refuse B*o_"),
        "{:?}",
        aided.buttons()
    );
    let footer = aided.embeds()[0]["footer"]["text"]
        .as_str()
        .unwrap()
        .to_string();
    assert!(
        footer.ends_with("B*o_ offers aid with Acrobat; A*d_a accepts B*o_'s aid"),
        "{footer}"
    );
    let rolled = all(&t, "alice: click Roll").await;
    assert_eq!(
        author(&rolled[0]),
        "A*d_a · Finesse task via Pilot (level 2)"
    );
    assert_eq!(
        desc(&rolled[0]),
        "Ada **8** **8** **8** **6** **9** **9** · Bo 5"
    );
    let after = rolled.last().unwrap();
    assert_eq!(after.title(), "📈 After the task — Ada");
    assert!(after.field("Bo").is_some(), "{}", after.text());
    t.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_job_shows_as_typed_and_an_npc_reads_as_a_name() {
    let t = table("ve-job-npc-markdown", 1).await;
    play(
        &t,
        "alice: /ve sheet create name:Ada\nfc: /ve-gm fc grant player:@alice lots:10\nalice: /ve sheet ability name:Finesse rank:silver score:4",
    )
    .await;
    let added = one(
        &t,
        "alice: /ve sheet job name:Th*ie_f inherits:Finesse level:1",
    )
    .await;
    assert_eq!(added.content(), r"Ada: Th\*ie\_f added.");
    // The Lot over the cap becomes the job's exp: the change lines.
    let granted = one(&t, "fc: /ve-gm fc grant player:@alice lots:1 job:Th*ie_f").await;
    assert_eq!(
        granted.embeds()[0]["description"].as_str(),
        Some(
            "Ada · holds 10 Lots: the extra Lot becomes exp in Th\\*ie\\_f\nAda · Th\\*ie\\_f +1 exp (Lot over the cap) → 1"
        )
    );
    // An NPC check's ad-hoc name is the NPC's: plain in prose, as typed in
    // the author line.
    let npc = one(
        &t,
        "fc: /ve-gm fc npc name:\"Gu_ard*: Wits\" rank:bronze score:3 difficulty:10 consequence:\"The guard dozes off\"",
    )
    .await;
    assert_eq!(author(&npc), "Gu_ard*: Wits · NPC check");
    assert_eq!(
        npc.field("Total").as_deref(),
        Some("17 + 3 Guard: Wits (🟤 Bronze) = **20**")
    );
    // An ally's job in the task's list of allies.
    play(
        &t,
        "bob: /ve sheet create name:Bo abilities:\"Finesse Bronze 2\"\n\
         bob: /ve sheet job name:Ac*ro_bat inherits:Finesse level:1\n\
         alice: /ve task job:Th*ie_f ability:Finesse difficulty:2",
    )
    .await;
    let aided = one(&t, "bob: click Offer aid").await;
    assert!(
        desc(&aided).starts_with("🟤 **Bo** — Ac\\*ro\\_bat · accepted\n"),
        "{}",
        desc(&aided)
    );
    t.stop().await;
}
