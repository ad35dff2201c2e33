//! `/fc undo` end to end through the fake Discord, in every system: a
//! Veracity Break, a Virtual Veil death, a Venus level and a Storyteller
//! willpower change undone; a double click undoes once; a player is
//! refused; the example script plays clean. Also `roll:` on `/ve-gm fc adjust`.

use crate::common::{assert_schema_clean, table};
use kismet::fake::table::{Exchange, Output, Table, GUILD_ID};

async fn run(t: &Table, who: &str, line: &str) -> Exchange {
    t.command(who, line)
        .await
        .unwrap_or_else(|e| panic!("{line}: {e}"))
}

/// Every reply to one script line.
async fn replies(t: &Table, line: &str) -> Exchange {
    t.run_line(line)
        .await
        .unwrap_or_else(|e| panic!("{line}: {e}"))
        .expect("a line")
        .1
}

async fn one(t: &Table, line: &str) -> Output {
    let ex = replies(t, line).await;
    ex.outputs.first().cloned().expect("an answer")
}

/// The roll an FC command redrew in place (after its private note).
async fn redrawn(t: &Table, line: &str) -> Output {
    let ex = replies(t, line).await;
    ex.of_kind("update").cloned().expect("a redraw")
}

/// The stored sheet of the only character named `name` in `system`.
async fn sheet(t: &Table, system: &str, name: &str) -> String {
    let db = t.db().await.unwrap();
    let mut tx = db.read().await.unwrap();
    let rows =
        kismet::storage::characters::by_name_any_owner(&mut tx, GUILD_ID as i64, system, name)
            .await
            .unwrap();
    assert_eq!(rows.len(), 1);
    rows[0].sheet.clone()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_veracity_break_and_a_virtual_veil_death_are_undone() {
    let t = table("undo-vr-vv", 1).await;
    for l in [
        "alice: /vr sheet create name:Vera light:6 flesh:6 facet:Cruel",
        "alice: /vr stress amount:6",
    ] {
        one(&t, l).await;
    }
    let before = sheet(&t, "veracity", "Vera").await;
    one(&t, "alice: /vr stress amount:1").await;
    assert!(sheet(&t, "veracity", "Vera")
        .await
        .contains("\"can_level_up\":false"));
    // A player cannot undo it.
    let refused = one(&t, "alice: /fc undo character:Vera").await;
    assert_eq!(refused.kind, "ephemeral");
    assert!(
        refused.text().contains("Only the game master"),
        "{}",
        refused.text()
    );
    let asked = one(&t, "fc: /fc undo character:Vera").await;
    assert_eq!(asked.kind, "message");
    assert!(asked.text().contains("stress"), "{}", asked.text());
    let done = one(&t, "fc: click Undo").await;
    assert!(
        done.text().contains("Undone on **Vera**"),
        "{}",
        done.text()
    );
    assert_eq!(sheet(&t, "veracity", "Vera").await, before);

    one(&t, "bob: /vv sheet create name:Vic wit:3 vitality:2").await;
    let alive = sheet(&t, "ore", "Vic").await;
    one(&t, "fc: /vv damage target:Vitality amount:90 character:Vic").await;
    assert!(sheet(&t, "ore", "Vic").await.contains("\"dead\":true"));
    one(&t, "fc: /fc undo character:Vic").await;
    one(&t, "fc: click Undo").await;
    assert_eq!(sheet(&t, "ore", "Vic").await, alive);
    assert_schema_clean(&t);
    t.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_double_click_on_undo_undoes_once() {
    let t = table("undo-double", 1).await;
    one(&t, "bob: /st sheet create name:Sto willpower:5").await;
    one(&t, "fc: /st sheet willpower current:3 character:Sto").await;
    let three = sheet(&t, "storyteller", "Sto").await;
    one(&t, "fc: /st sheet willpower current:1 character:Sto").await;
    let ask = run(&t, "fc", "/fc undo character:Sto").await;
    let id = ask
        .outputs
        .iter()
        .flat_map(|o| o.buttons())
        .find(|b| b.0 == "Undo")
        .expect("the Undo button")
        .1;
    let msg = t
        .fake
        .messages()
        .iter()
        .rev()
        .find(|m| m.body["components"].to_string().contains(&id))
        .expect("the prompt")
        .id;
    // A player's press is refused, nothing changes.
    let no = t.click("bob", "Undo").await.unwrap();
    assert!(no.outputs[0].text().contains("Only the game master"));
    t.click_custom_id("fc", msg, &id, None).await.unwrap();
    t.click_custom_id("fc", msg, &id, None).await.unwrap();
    assert_eq!(sheet(&t, "storyteller", "Sto").await, three);
    assert_schema_clean(&t);
    t.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_fc_adjusts_the_chosen_roll() {
    let t = table("undo-choose-roll", 1).await;
    for l in [
        "alice: /ve sheet create name:Ada",
        "alice: /ve sheet ability name:Finesse rank:silver score:4",
        "bob: /ve sheet create name:Bo",
        "bob: /ve sheet ability name:Finesse rank:bronze score:2",
        // Checks the FC calls wait for their d20 (a player's own check
        // throws it at once), so both can still be adjusted.
        "fc: /ve-gm fc call player:alice kind:check ability:Finesse difficulty:2",
        "fc: /ve-gm fc call player:bob kind:check ability:Finesse difficulty:2",
    ] {
        one(&t, l).await;
    }
    let choices = t
        .autocomplete("fc", "/ve-gm fc adjust difficulty:3 roll:", "roll")
        .await
        .unwrap();
    let names: Vec<String> = choices
        .iter()
        .map(|c| c["name"].as_str().unwrap().to_string())
        .collect();
    assert_eq!(names.len(), 2, "{names:?}");
    assert!(names[0].starts_with("Bo · Finesse check · "), "{names:?}");
    assert!(names[1].starts_with("Ada · Finesse check · "), "{names:?}");
    let ada = choices[1]["value"].as_str().unwrap().to_string();
    let adj = redrawn(&t, &format!("fc: /ve-gm fc adjust difficulty:3 roll:{ada}")).await;
    assert_eq!(adj.kind, "update", "redrawn in place");
    assert!(adj.text().contains("Ada"), "{}", adj.text());
    assert!(adj.text().contains("difficulty 3"), "{}", adj.text());
    // Without roll: the newest (Bo's).
    let bo = redrawn(&t, "fc: /ve-gm fc adjust difficulty:4").await;
    assert!(bo.text().contains("Bo"), "{}", bo.text());
    assert!(bo.text().contains("difficulty 4"), "{}", bo.text());
    assert_schema_clean(&t);
    t.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_undo_example_script_plays_clean() {
    let t = table("undo-example", 1).await;
    let script =
        std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/examples/undo.txt")).unwrap();
    let mut refusals = Vec::new();
    for line in script.lines() {
        let Some((who, ex)) = t
            .run_line(line)
            .await
            .unwrap_or_else(|e| panic!("{line}: {e}"))
        else {
            continue;
        };
        assert!(!ex.outputs.is_empty(), "{line}: no answer");
        for o in &ex.outputs {
            assert!(
                !o.text().contains("Something went wrong"),
                "{who}: {line}: {}",
                o.text()
            );
            if o.content().starts_with("⚠️") {
                refusals.push(format!("{who}: {}", o.content()));
            }
        }
    }
    assert_eq!(refusals.len(), 2, "{refusals:?}");
    assert!(refusals
        .iter()
        .all(|r| r.starts_with("bob:") && r.contains("Only the game master")));
    assert!(!sheet(&t, "veracity", "Vera")
        .await
        .contains("\"can_level_up\":false"));
    assert!(!sheet(&t, "ore", "Vic").await.contains("\"dead\":true"));
    assert_schema_clean(&t);
    t.stop().await;
}

/// Issue 31 item 6: `/fc undo` lists changes in the game's words: fields
/// as the sheet names them ("Vitality 1 → 0", "Light slot 6 empty →
/// stress"), yes/no for flags, an added entry by its values, and no
/// storage paths or internal bookkeeping (`vitality.overflow_after_zero`).
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn undo_lists_changes_in_the_games_words() {
    let t = table("undo-words", 1).await;
    let script =
        std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/examples/undo.txt")).unwrap();
    let mut seen = Vec::new();
    for line in script.lines() {
        if let Some((_, ex)) = t.run_line(line).await.unwrap() {
            seen.extend(ex.outputs.iter().map(|o| o.text()));
        }
    }
    let all = seen.join("\n");
    for words in [
        "· stress: Light slot 6 empty → stress",
        "· damage: Dead no → yes; Fault dice [8] → [8, 1]; Vitality 1 → 0\n",
        "· damage: Fault dice [] → [8]; Vitality 2 → 1",
        "· sheet: Thief level 1 → 2",
        "· sheet: Thief added: exp 0, inherits [Finesse], learning no, level 1, qualifications met yes",
        "· sheet: Finesse added: rank silver, score 4",
        "· sheet willpower: Willpower 3 → 1",
    ] {
        assert!(all.contains(words), "missing {words:?} in:\n{all}");
    }
    for storage in [
        "overflow",
        "jobs.",
        ".current",
        "slots.",
        "sheet_willpower",
        "false",
        "true",
    ] {
        assert!(!all.contains(storage), "{storage:?} shown in:\n{all}");
    }
    t.stop().await;
}
