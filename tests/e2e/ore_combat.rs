//! Virtual Veil's combat tracker (`/vv combat …`, issue 15) through the fake
//! Discord: the tracker's state after each step (read from the one posted
//! message, redrawn in place by commands and clicks), rights (a player
//! cannot begin, add, end a round or act out of turn), a restart
//! mid-combat, and the example script played clean.

use crate::common::{assert_schema_clean, table};
use crate::ore::sheet_of;
use kismet::fake::table::{Exchange, Output, Table};
use serde_json::Value;

const ANN: &str = "/vv sheet create name:Ann agility:4 physique:2 precision:3 vitality:5 cyber:3 engineering:4 wit:6 confidence:4";
const BO: &str =
    "/vv sheet create name:Bo agility:5 wit:3 vitality:4 confidence:3 cyber:2 engineering:5";

async fn cmd(t: &Table, who: &str, line: &str) -> Exchange {
    t.command(who, line)
        .await
        .unwrap_or_else(|e| panic!("{line}: {e}"))
}

async fn click(t: &Table, who: &str, label: &str) -> Exchange {
    t.click(who, label)
        .await
        .unwrap_or_else(|e| panic!("{who} click {label}: {e}"))
}

/// A Compiler's tool, through the private ⚙ panel.
async fn tool(t: &Table, who: &str, label: &str) -> Exchange {
    t.tool(who, label)
        .await
        .unwrap_or_else(|e| panic!("{who} tool {label}: {e}"))
}

async fn select(t: &Table, who: &str, placeholder: &str, value: &str) -> Exchange {
    t.select(who, placeholder, &[value.to_string()])
        .await
        .unwrap_or_else(|e| panic!("{who} select {placeholder}: {e}"))
}

/// The refusal a member got, privately, with nothing else.
/// The answer of kind `kind` to an action that also redrew the posted
/// tracker in place (an `update` in the same exchange).
fn redrawn<'a>(ex: &'a Exchange, kind: &str) -> &'a Output {
    assert!(
        ex.outputs.iter().any(|o| o.kind == "update"),
        "the tracker is redrawn: {:#?}",
        ex.outputs
    );
    ex.of_kind(kind)
        .unwrap_or_else(|| panic!("no {kind} answer: {:#?}", ex.outputs))
}

fn refused(ex: &Exchange, text: &str) {
    let out = ex.single();
    assert_eq!(out.kind, "ephemeral", "{:#?}", out.body);
    assert!(
        out.content().contains(text),
        "expected {text:?} in {:?}",
        out.content()
    );
}

/// The tracker's message as it stands in the channel: (title, description,
/// turn field, button labels).
fn tracker(t: &Table, id: u64) -> (String, String, String, Vec<String>) {
    let m = t.fake.message_object(id).expect("the tracker message");
    let e = &m["embeds"][0];
    let s = |v: &Value| v.as_str().unwrap_or("").to_string();
    let field = e["fields"]
        .as_array()
        .and_then(|f| f.first())
        .map(|f| format!("{}: {}", s(&f["name"]), s(&f["value"])))
        .unwrap_or_default();
    let labels = m["components"]
        .as_array()
        .into_iter()
        .flatten()
        .flat_map(|r| r["components"].as_array().cloned().unwrap_or_default())
        .map(|c| {
            c["label"]
                .as_str()
                .or(c["placeholder"].as_str())
                .unwrap_or("")
                .to_string()
        })
        .collect();
    (s(&e["title"]), s(&e["description"]), field, labels)
}

/// Ann and Bo, a goblin mob and a guard: seed 1 gives the call order
/// Goblin, Ann, Bo, Guard and the Resolution order Ann, Bo, Goblin, Guard.
async fn set_up(t: &Table) -> u64 {
    cmd(t, "alice", ANN).await;
    cmd(t, "bob", BO).await;
    let ex = cmd(t, "fc", "/vv-gm combat start world:physical").await;
    let id = ex.message_id.expect("the tracker is posted");
    assert_eq!(tracker(t, id).0, "⚔ Combat · Setting up");
    click(t, "alice", "Join").await;
    click(t, "bob", "Join").await;
    cmd(
        t,
        "fc",
        "/vv-gm combat add name:Goblin wit:1 agility:2 vitality:2 mob:true",
    )
    .await;
    cmd(
        t,
        "fc",
        "/vv-gm combat add name:Guard wit:5 agility:3 vitality:3",
    )
    .await;
    id
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn commands_redraw_the_one_tracker_and_only_the_compiler_runs_it() {
    let t = table("vvc-rights", 1).await;
    refused(
        &cmd(&t, "fc", "/vv-gm combat join").await,
        "No fight is running in this channel: start one with `/vv-gm combat start`.",
    );
    refused(
        &cmd(&t, "alice", "/vv-gm combat start").await,
        "Only the Compiler can start a fight",
    );
    let id = set_up(&t).await;
    // A join answers its member privately; the posted tracker is redrawn.
    let (_, desc, _, labels) = tracker(&t, id);
    assert_eq!(
        desc,
        "In the physical world · Initiative: Agility\n• **Ann** · Vit 5/5\n• **Bo** · Vit 4/4\n• **Goblin** (mob) · Health 2/2\n• **Guard** · Vit 3/3"
    );
    assert_eq!(
        labels,
        ["Join", "⚙ Compiler"],
        "the Compiler's tools are private"
    );
    refused(
        &cmd(&t, "fc", "/vv-gm combat start").await,
        "A fight is already running in this channel: end it first with `/vv-gm combat end`.",
    );
    refused(
        &cmd(
            &t,
            "bob",
            "/vv-gm combat add name:Rat wit:1 agility:1 vitality:1",
        )
        .await,
        "Only the Compiler can add combatants",
    );
    refused(
        &cmd(&t, "bob", "/vv-gm combat remove name:Goblin").await,
        "Only the Compiler can remove combatants",
    );
    refused(
        &cmd(
            &t,
            "bob",
            "/vv-gm combat damage name:Goblin target:Vitality amount:1",
        )
        .await,
        "Only the Compiler can deal damage in a fight",
    );
    refused(
        &click(&t, "alice", "Join").await,
        "Ann is already in the order.",
    );
    refused(
        &cmd(&t, "fc", "/vv-gm combat remove name:Nobody").await,
        "No combatant is named Nobody",
    );
    refused(
        &cmd(
            &t,
            "fc",
            "/vv-gm combat add name:Swarm wit:1 agility:1 vitality:3 mob:true confidence:2",
        )
        .await,
        "A mob has a single Health stat",
    );
    refused(
        &click(&t, "bob", "⚙ Compiler").await,
        "Only the Compiler can use these tools",
    );
    assert_eq!(tracker(&t, id).0, "⚔ Combat · Setting up");
    // The Compiler removes and re-adds a combatant.
    let ex = cmd(&t, "fc", "/vv-gm combat remove name:Guard").await;
    assert_eq!(
        redrawn(&ex, "ephemeral").content(),
        "✅ Guard leaves the fight."
    );
    assert!(!tracker(&t, id).1.contains("Guard"));
    cmd(
        &t,
        "fc",
        "/vv-gm combat add name:Guard wit:5 agility:3 vitality:3",
    )
    .await;
    tool(&t, "fc", "Begin").await;
    let (title, desc, field, _) = tracker(&t, id);
    assert_eq!(title, "⚔ Combat · Round 1 · Call phase");
    assert!(
        desc.contains("▶ **Goblin** (mob) · Outthink 11 · Init 20 · Health 2/2"),
        "{desc}"
    );
    assert!(field.starts_with("📣 Goblin calls a stat"), "{field}");
    // Outthink and Initiative are on the sheets too.
    let ann = sheet_of(&t, "alice", "Ann").await;
    assert_eq!(
        (ann.combat.outthink, ann.combat.initiative),
        (Some(20), Some(22))
    );
    // A player cannot call for the Compiler's goblin, nor for another's seat.
    refused(
        &select(&t, "alice", "Call a stat for Goblin", "agility").await,
        "It is Goblin's turn: only their player or the Compiler can act now.",
    );
    select(&t, "fc", "Call a stat for Goblin", "agility").await;
    refused(
        &select(&t, "bob", "Call a stat for Ann", "wit").await,
        "It is Ann's turn",
    );
    // Ann's call posts her usual roll, with its buttons; the tracker moves on.
    let ex = select(&t, "alice", "Call a stat for Ann", "agility").await;
    let roll = redrawn(&ex, "message");
    // Issue 16: the outcome is the title, who rolled what the author line.
    assert_eq!(roll.title(), "✅ Best set 3×8");
    assert_eq!(
        roll.embeds()[0]["author"]["name"],
        "Ann · Agility (4 dice) · Called Stat"
    );
    assert!(roll.buttons().iter().any(|b| b.0 == "Use 3×8 (38)"));
    let (_, desc, field, _) = tracker(&t, id);
    assert!(
        desc.contains("• **Ann** · Outthink 20 · Init 22 · Vit 5/5 · calls Agility"),
        "{desc}"
    );
    assert!(field.starts_with("📣 Bo calls a stat"), "{field}");
    // The Compiler's End combat button closes the tracker and clears Ann's
    // register (its message is redrawn without buttons).
    let ex = tool(&t, "fc", "End combat").await;
    assert_eq!(
        ex.outputs.first().map(|o| o.kind.as_str()),
        Some("update"),
        "{:#?}",
        ex.outputs
    );
    let (title, desc, _, labels) = tracker(&t, id);
    assert_eq!(title, "🏁 Combat over · round 1");
    assert!(
        desc.contains("• **Ann** · Outthink 20 · Init 22 · Vit 5/5 · calls Agility"),
        "{desc}"
    );
    assert!(labels.is_empty());
    assert!(t.click("alice", "Use 3×8 (38)").await.is_err());
    let ann = sheet_of(&t, "alice", "Ann").await;
    assert_eq!(ann.combat.outthink, None, "combat is over for Ann");
    // A new fight may start; in cosmOS Initiative is Precision.
    let ex = cmd(&t, "fc", "/vv-gm combat start world:cosmOS").await;
    let (_, desc, _, _) = tracker(&t, ex.message_id.unwrap());
    assert!(
        desc.starts_with("In cosmOS · Initiative: Precision"),
        "{desc}"
    );
    assert_schema_clean(&t);
    t.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_round_turns_reacts_ends_and_survives_a_restart() {
    let t = table("vvc-round", 1).await;
    let id = set_up(&t).await;
    tool(&t, "fc", "Begin").await;
    select(&t, "fc", "Call a stat for Goblin", "agility").await;
    select(&t, "alice", "Call a stat for Ann", "agility").await;
    select(&t, "bob", "Call a stat for Bo", "agility").await;
    select(&t, "fc", "Call a stat for Guard", "wit").await;
    let (title, desc, field, labels) = tracker(&t, id);
    assert_eq!(title, "⚔ Combat · Round 1 · Resolution phase");
    assert_eq!(
        desc.lines()
            .skip(1)
            .map(|l| l.split(" · ").next().unwrap())
            .collect::<Vec<_>>(),
        ["▶ **Ann**", "• **Bo**", "• **Goblin** (mob)", "• **Guard**"],
        "highest Initiative first"
    );
    // Ann called Agility: Agility 4 + 2 squares.
    assert!(
        field.starts_with("⚔ Ann's turn: 🏃 Move **6** squares"),
        "{field}"
    );
    assert!(field.contains("Close 1 square · Short ≤ 3 · Long 4–6"));
    assert!(field.contains("No one out-thinks Initiative 22"));
    assert_eq!(labels, ["Next turn", "Join", "⚙ Compiler"]);
    // Out of turn: Bo cannot end Ann's turn.
    refused(
        &click(&t, "bob", "Next turn").await,
        "It is Ann's turn: only their player or the Compiler can act now.",
    );
    click(&t, "alice", "Next turn").await;
    // A restart mid-combat: the tracker and its buttons carry on.
    t.restart().await.unwrap();
    refused(&click(&t, "alice", "Next turn").await, "It is Bo's turn");
    click(&t, "bob", "Next turn").await;
    let (_, _, field, labels) = tracker(&t, id);
    assert!(
        field.contains("↩ May react (Outthink > Init 20): Bo, Guard"),
        "{field}"
    );
    assert_eq!(
        labels,
        ["React out of turn…", "Next turn", "Join", "⚙ Compiler"]
    );
    // Ann may not react (Outthink 20 is not above 20), nor for Bo.
    refused(
        &select(&t, "alice", "React out of turn…", "2").await,
        "Only Bo's player (or the Compiler) can react for them.",
    );
    refused(
        &select(&t, "alice", "React out of turn…", "1").await,
        "Ann cannot react now",
    );
    select(&t, "bob", "React out of turn…", "2").await;
    let log = t.fake.message_object(id).unwrap()["embeds"][0]["fields"][1]["value"]
        .as_str()
        .unwrap()
        .to_string();
    assert!(
        log.ends_with("↩ Bo reacts during Goblin's turn (Outthink 21 > Initiative 20)."),
        "{log}"
    );
    // The goblin mob drops at once: it is out and its turn passes.
    let ex = cmd(
        &t,
        "fc",
        "/vv-gm combat damage name:Goblin target:Vitality amount:2",
    )
    .await;
    assert!(
        redrawn(&ex, "ephemeral")
            .content()
            .contains("Incapacitated"),
        "{:?}",
        ex.outputs
    );
    let (_, desc, field, _) = tracker(&t, id);
    assert!(
        desc.contains("✖ **Goblin** (mob) · Outthink 11 · Init 20 · Health 0/2 · out"),
        "{desc}"
    );
    assert!(field.starts_with("⚔ Guard's turn"), "{field}");
    // Ann takes damage: a Fault die.
    cmd(
        &t,
        "fc",
        "/vv-gm combat damage name:Ann target:Vitality amount:2",
    )
    .await;
    let ann = sheet_of(&t, "alice", "Ann").await;
    assert_eq!(ann.vitality.current, 3);
    assert_eq!(ann.fault_dice.len(), 1);
    click(&t, "fc", "Next turn").await;
    let (title, _, _, labels) = tracker(&t, id);
    assert_eq!(title, "⚔ Combat · Round 1 · End phase");
    assert_eq!(
        labels,
        ["Join", "⚙ Compiler"],
        "the Compiler's tools are private"
    );
    refused(
        &click(&t, "alice", "⚙ Compiler").await,
        "Only the Compiler can use these tools",
    );
    // Ann's register stays on the board until the End phase clears it,
    // but every turn is taken: it acts no more this round.
    refused(
        &click(&t, "alice", "Use 3×8 (38)").await,
        "Every turn of round 1 is taken: Ann's register acts no more this round.",
    );
    tool(&t, "fc", "Next round").await;
    let (title, desc, _, _) = tracker(&t, id);
    assert_eq!(title, "⚔ Combat · Round 2 · Call phase");
    assert!(
        desc.contains("▶ **Ann** · Outthink 20 · Init 22 · Vit 3/5 · Fault"),
        "{desc}"
    );
    assert!(!desc.contains("calls"), "registers cleared: {desc}");
    assert!(
        t.click("bob", "Use 2×4 (24)").await.is_err(),
        "Bo's register was cleared and redrawn without buttons"
    );
    // The guard is living: at 0 it waits for the End phase.
    select(&t, "alice", "Call a stat for Ann", "wit").await;
    select(&t, "bob", "Call a stat for Bo", "agility").await;
    select(&t, "fc", "Call a stat for Guard", "agility").await;
    cmd(
        &t,
        "fc",
        "/vv-gm combat damage name:Guard target:Vitality amount:3",
    )
    .await;
    let (_, desc, _, _) = tracker(&t, id);
    assert!(
        desc.contains("⏳ down at the End phase (−1 Power)"),
        "{desc}"
    );
    for _ in 0..3 {
        click(&t, "fc", "Next turn").await;
    }
    tool(&t, "fc", "Next round").await;
    let (title, desc, _, _) = tracker(&t, id);
    assert_eq!(title, "⚔ Combat · Round 3 · Call phase");
    assert!(desc.contains("✖ **Guard**"), "{desc}");
    // The end: a player cannot; the Compiler can, and the tracker closes.
    refused(
        &click(&t, "bob", "⚙ Compiler").await,
        "Only the Compiler can use these tools",
    );
    let ex = cmd(&t, "fc", "/vv-gm combat end stable:true").await;
    assert_eq!(redrawn(&ex, "ephemeral").content(), "✅ The fight is over.");
    let (title, _, _, labels) = tracker(&t, id);
    assert_eq!(title, "🏁 Combat over · round 3");
    assert!(labels.is_empty());
    let ann = sheet_of(&t, "alice", "Ann").await;
    assert!(
        ann.fault_dice.is_empty(),
        "a stable place clears Fault dice"
    );
    assert_eq!(ann.combat.outthink, None);
    // A new fight may start now.
    cmd(&t, "fc", "/vv-gm combat start world:cosmOS").await;
    assert_schema_clean(&t);
    t.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_combat_example_plays_clean() {
    let t = table("vvc-example", 1).await;
    let script = std::fs::read_to_string(
        std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("examples/virtual_veil-combat.txt"),
    )
    .unwrap();
    let mut refusals = Vec::new();
    let mut tracker_id = None;
    for line in script.lines() {
        let Some((_, ex)) = t
            .run_line(line)
            .await
            .unwrap_or_else(|e| panic!("{line}: {e}"))
        else {
            continue;
        };
        if line.starts_with("fc: /vv-gm combat start") {
            tracker_id = ex.message_id;
        }
        for o in &ex.outputs {
            if o.content().starts_with("⚠️") {
                refusals.push(line.to_string());
            }
        }
    }
    // Only the steps the script shows being refused.
    assert_eq!(
        refusals,
        [
            "bob: click ⚙ Compiler",
            "bob: select Call a stat for Ann = wit",
            "bob: click Use 2×4 (24)",
            "alice: click Next turn",
            "alice: click ⚙ Compiler",
            "bob: /vv-gm combat end",
        ]
    );
    // Every Called Stat roll, the players' and the NPCs' (issue 29 item
    // 5), was cleared by an End phase or the end of combat, and redrawn in
    // place without buttons.
    let rolls: Vec<Value> = t
        .fake
        .messages()
        .iter()
        .filter_map(|m| t.fake.message_object(m.id))
        .filter(|o| {
            o["embeds"][0]["author"]["name"]
                .as_str()
                .is_some_and(|t| t.ends_with(" · Called Stat"))
        })
        .collect();
    assert_eq!(rolls.len(), 7);
    for r in &rolls {
        assert!(
            r["embeds"][0]["footer"]["text"]
                .as_str()
                .is_some_and(|f| f.starts_with("Register cleared.")),
            "{r}"
        );
        assert!(
            r["components"].as_array().is_none_or(|c| c.is_empty()),
            "{r}"
        );
    }
    let (title, desc, _, _) = tracker(&t, tracker_id.unwrap());
    assert_eq!(title, "🏁 Combat over · round 3");
    assert!(
        desc.contains("✖ **Goblin**") && desc.contains("✖ **Guard**"),
        "{desc}"
    );
    let ann = sheet_of(&t, "alice", "Ann").await;
    assert_eq!(ann.vitality.current, 2);
    assert!(ann.fault_dice.is_empty());
    assert_schema_clean(&t);
    t.stop().await;
}

/// Set up, Begin and the Call phase of seed 1 up to Bo's call: Goblin and
/// Ann have called (Ann's register is posted with "Use 3×8 (38)").
async fn called_to_bo(t: &Table) -> u64 {
    let id = set_up(t).await;
    tool(t, "fc", "Begin").await;
    select(t, "fc", "Call a stat for Goblin", "agility").await;
    select(t, "alice", "Call a stat for Ann", "agility").await;
    id
}

/// Issue 29 item 1: a register's buttons act only on its entity's turn in
/// the Resolution phase, or as that entity's Reaction when its Outthink
/// beats the acting Initiative (seed 004); the refusal says which, for the
/// player and the Compiler alike, and changes nothing.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn registers_follow_the_turn() {
    let t = table("vvc-register-turn", 1).await;
    called_to_bo(&t).await;
    // The Call phase: the register waits for Ann's turn.
    refused(
        &click(&t, "alice", "Use 3×8 (38)").await,
        "It is the Call phase: Ann's register acts on Ann's turn in the Resolution phase, or as a Reaction.",
    );
    select(&t, "bob", "Call a stat for Bo", "agility").await;
    select(&t, "fc", "Call a stat for Guard", "wit").await;
    // Ann's turn (Initiative 22): Bo (Outthink 21) cannot react.
    let out_of_turn = "It is Ann's turn: Bo's register acts on Bo's own turn, or as a Reaction with an Outthink higher than Ann's Initiative (22); Bo's Outthink is 21.";
    refused(&click(&t, "bob", "Use 2×4 (24)").await, out_of_turn);
    refused(&click(&t, "fc", "Use 2×4 (24)").await, out_of_turn);
    let bo = sheet_of(&t, "bob", "Bo").await;
    assert!(bo.combat.called_stat.is_some(), "nothing changed");
    // Ann acts on her own turn.
    let ex = click(&t, "alice", "Use 3×8 (38)").await;
    assert_eq!(ex.single().kind, "update", "{:#?}", ex.outputs);
    click(&t, "alice", "Next turn").await;
    click(&t, "bob", "Next turn").await;
    // The goblin's turn (Initiative 20): Bo (Outthink 21) reacts with his
    // register.
    let ex = click(&t, "bob", "Use 2×4 (24)").await;
    assert_eq!(ex.single().kind, "update", "{:#?}", ex.outputs);
    click(&t, "fc", "Next turn").await;
    click(&t, "fc", "Next turn").await;
    // Every turn is taken: the registers wait for the End phase.
    refused(
        &click_on(&t, "bob", register_of(&t, "Bo"), "Close").await,
        "Every turn of round 1 is taken: Bo's register acts no more this round.",
    );
    t.stop().await;
}

/// Issue 29 item 4: a React refusal names the right numbers: not on one's
/// own turn, not when out of the fight, and the reactor's own Outthink
/// beside the acting Initiative.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn react_refusals_name_the_right_numbers() {
    let t = table("vvc-react-refusals", 1).await;
    called_to_bo(&t).await;
    select(&t, "bob", "Call a stat for Bo", "agility").await;
    select(&t, "fc", "Call a stat for Guard", "wit").await;
    // Ann's turn: the goblin mob drops at once and is out.
    cmd(
        &t,
        "fc",
        "/vv-gm combat damage name:Goblin target:Vitality amount:2",
    )
    .await;
    click(&t, "alice", "Next turn").await;
    // Bo's turn (Initiative 20): the Guard may react, so the select shows.
    refused(
        &select(&t, "bob", "React out of turn…", "2").await,
        "It is Bo's own turn: a Reaction is taken on another's turn.",
    );
    refused(
        &select(&t, "fc", "React out of turn…", "3").await,
        "Goblin is out of the fight and cannot react.",
    );
    refused(
        &select(&t, "alice", "React out of turn…", "1").await,
        "Ann cannot react now: a reaction needs an Outthink higher than Bo's Initiative (20); Ann's Outthink is 20.",
    );
    t.stop().await;
}

/// Issue 29 item 3: Cyber 0 locks a living character out of cosmOS and
/// the COMP (seed 004: "Living entities lose access to any and all
/// supernatural abilities") but does not incapacitate them: the replies
/// say so and the tracker keeps them in the fight.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn cyber_zero_locks_a_living_character_out_without_incapacitating() {
    let t = table("vvc-cyber-zero", 1).await;
    let id = set_up(&t).await;
    tool(&t, "fc", "Begin").await;
    let ex = cmd(
        &t,
        "fc",
        "/vv-gm combat damage name:Ann target:Cyber amount:3",
    )
    .await;
    let note = redrawn(&ex, "ephemeral").content();
    assert!(!note.contains("Incapacitated"), "{note}");
    assert!(
        note.contains("**Locked out: Cyber 0** (no COMP, no supernatural abilities until repaired); still in the fight."),
        "{note}"
    );
    let (_, desc, _, _) = tracker(&t, id);
    assert!(
        desc.contains("• **Ann** · Outthink 20 · Init 22 · Vit 5/5 · Cyber 0/3 · Fault"),
        "{desc}"
    );
    assert!(!desc.contains("✖ **Ann**"), "{desc}");
    // Outside the tracker too: the damage report is no botch.
    // Bo is seated: the tracker is redrawn with it (issue 28).
    let ex = cmd(&t, "fc", "/vv damage target:Cyber amount:2 player:bob").await;
    let title = redrawn(&ex, "message").title();
    assert!(title.starts_with("❌ Cyber 0/2 · locked out"), "{title}");
    t.stop().await;
}

/// Calls a stat for whoever calls now, as their player (or the Compiler
/// for an NPC), until the Call phase is over.
async fn call_all(t: &Table, id: u64, stat: &str) {
    for _ in 0..10 {
        let (title, _, field, _) = tracker(t, id);
        if !title.ends_with("Call phase") {
            return;
        }
        let name = field
            .strip_prefix("📣 ")
            .and_then(|f| f.split(" calls a stat").next())
            .unwrap_or_else(|| panic!("{field}"))
            .to_string();
        let who = match name.as_str() {
            "Ann" => "alice",
            "Bo" => "bob",
            _ => "fc",
        };
        select(t, who, &format!("Call a stat for {name}"), stat).await;
    }
}

/// Issue 29 item 2: an NPC whose Fault dice made an Injury rolls its Error
/// Dice with its tracker call (seed 004: "Minor Injury (dub): 1 Error Die
/// rolled for each action"), as players' rolls do, and the tracker shows
/// them.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn injured_npcs_roll_their_error_dice_on_tracker_calls() {
    let t = table("vvc-npc-error-dice", 1).await;
    cmd(
        &t,
        "fc",
        "/vv-gm settings set name:vv_fault_check value:immediate",
    )
    .await;
    let id = set_up(&t).await;
    cmd(
        &t,
        "fc",
        "/vv-gm combat add name:Ogre wit:2 agility:2 vitality:40",
    )
    .await;
    let mut hits = 0;
    loop {
        hits += 1;
        assert!(hits <= 10, "no Injury after 10 hits");
        let ex = cmd(
            &t,
            "fc",
            "/vv-gm combat damage name:Ogre target:Vitality amount:1",
        )
        .await;
        if redrawn(&ex, "ephemeral")
            .content()
            .contains("**Injury: Minor (")
        {
            break;
        }
    }
    tool(&t, "fc", "Begin").await;
    call_all(&t, id, "agility").await;
    let (_, desc, _, _) = tracker(&t, id);
    let ogre = desc
        .lines()
        .find(|l| l.contains("**Ogre**"))
        .unwrap()
        .to_string();
    assert_eq!(hits, 4, "the fourth Fault die matched one before");
    assert_eq!(
        ogre,
        "• **Ogre** · Outthink 17 · Init 17 · Vit 36/40 · Fault 9 8 · Injury: Minor · calls Agility: no set · 5 1 · ⚠️ error dice **2**"
    );
    t.stop().await;
}

/// Issue 29 item 5 (`/vv-gm combat add`): a quick-added NPC has every stat
/// the Call can ask for (`others:` for those not named), and a natively
/// digital one (`digital:true`) is wiped at Cyber 0 and leaves the fight
/// (seed 004: "If they are a natively digital entity, they are completely
/// wiped from reality").
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn quick_added_npcs_have_every_stat_and_a_digital_flag() {
    let t = table("vvc-npc-stats", 1).await;
    let id = set_up(&t).await;
    cmd(
        &t,
        "fc",
        "/vv-gm combat add name:Drone wit:2 agility:2 vitality:3 physique:4 others:1 digital:true",
    )
    .await;
    tool(&t, "fc", "Begin").await;
    call_all(&t, id, "physique").await;
    let (_, desc, _, _) = tracker(&t, id);
    let drone = desc.lines().find(|l| l.contains("**Drone**")).unwrap();
    assert!(
        drone.starts_with("• **Drone** (digital) · ") && drone.contains("calls Physique: "),
        "{drone}"
    );
    assert!(!drone.contains("no dice"), "{drone}");
    let ex = cmd(
        &t,
        "fc",
        "/vv-gm combat damage name:Drone target:Cyber amount:1",
    )
    .await;
    let note = redrawn(&ex, "ephemeral").content();
    assert!(note.contains("**Incapacitated: deleted.**"), "{note}");
    assert!(!note.contains("still in the fight"), "{note}");
    let log = field_named(&t, id, "Log").unwrap();
    assert!(
        log.ends_with("💥 Drone takes 1 Cyber damage.\n✖ Drone is incapacitated."),
        "{log}"
    );
    let (_, desc, _, _) = tracker(&t, id);
    let drone = desc.lines().find(|l| l.contains("**Drone**")).unwrap();
    assert!(drone.starts_with("✖ **Drone** (digital)"), "{drone}");
    assert!(drone.contains(" · out"), "{drone}");
    t.stop().await;
}

/// The tracker's fields by name.
fn field_named(t: &Table, id: u64, name: &str) -> Option<String> {
    let m = t.fake.message_object(id).expect("the tracker message");
    m["embeds"][0]["fields"]
        .as_array()?
        .iter()
        .find(|f| f["name"].as_str().is_some_and(|n| n.starts_with(name)))
        .and_then(|f| f["value"].as_str())
        .map(str::to_string)
}

/// Issue 29 item 6: the tracker shows the Prediction and Initiative dice
/// (not only the values), players' called faces, every Injury with its
/// severity, and a log that never drops an Injury line however much
/// happens after it.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn trackers_show_the_dice_called_faces_and_every_injury() {
    let t = table("vvc-tracker-shows", 1).await;
    cmd(
        &t,
        "fc",
        "/vv-gm settings set name:vv_fault_check value:immediate",
    )
    .await;
    let id = set_up(&t).await;
    cmd(
        &t,
        "fc",
        "/vv-gm combat add name:Ogre wit:2 agility:2 vitality:40",
    )
    .await;
    for _ in 0..4 {
        cmd(
            &t,
            "fc",
            "/vv-gm combat damage name:Ogre target:Vitality amount:1",
        )
        .await;
    }
    tool(&t, "fc", "Begin").await;
    let dice = field_named(&t, id, "🎲 Prediction").expect("the dice field");
    assert_eq!(
        dice,
        "Ogre: 7 1 → 17 │ 7 6 → 17\nBo: 7 6 4 → 17 │ 8 5 3 2 1 → 18\nGoblin: 10 → 20 │ 4 3 → 14\nGuard: 10 8 7 5 2 → 20 │ 9 7 4 → 19\nAnn: 10 9 7 5 4 3 → 20 │ 6 5 4 3 → 16"
    );
    call_all(&t, id, "agility").await;
    let (_, desc, _, _) = tracker(&t, id);
    let ann = desc.lines().find(|l| l.contains("**Ann**")).unwrap();
    assert_eq!(
        ann,
        "• **Ann** · Outthink 20 · Init 16 · Vit 5/5 · calls Agility: **7 7** · 9 3"
    );
    let ogre = desc.lines().find(|l| l.contains("**Ogre**")).unwrap();
    assert!(ogre.contains(" · Injury: Minor · "), "{ogre}");
    // Many lines later, the Injury is still in the log.
    for _ in 0..4 {
        click(&t, "fc", "Next turn").await;
    }
    let log = field_named(&t, id, "Log").unwrap();
    assert!(log.lines().count() > 6, "{log}");
    assert!(
        log.starts_with("🩸 Ogre: **Injury: Minor (1 error die per action)**"),
        "{log}"
    );
    t.stop().await;
}

/// Issue 29 item 12 in a fight: Cyber 0 throws Ann out of her COMP, and
/// the cache dice she added to her register leave with it; the register
/// is redrawn at once.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn cyber_zero_takes_the_cache_dice_out_of_the_register() {
    let t = table("vvc-cyber-cache", 1).await;
    cmd(&t, "alice", ANN).await;
    cmd(
        &t,
        "alice",
        "/vv sheet comp cache_size:2 battery_max:5 battery:5",
    )
    .await;
    cmd(&t, "alice", "/vv boot").await;
    cmd(&t, "bob", BO).await;
    let id = cmd(&t, "fc", "/vv-gm combat start world:physical")
        .await
        .message_id
        .unwrap();
    click(&t, "alice", "Join").await;
    click(&t, "bob", "Join").await;
    tool(&t, "fc", "Begin").await;
    call_all(&t, id, "agility").await;
    while !tracker(&t, id).2.starts_with("⚔ Ann's turn") {
        click(&t, "fc", "Next turn").await;
    }
    // Ann's turn: she adds her whole cache to the register.
    let ex = click(&t, "alice", "Add cache dice").await;
    let options: Vec<String> = ex.single().body["components"]
        .as_array()
        .into_iter()
        .flatten()
        .flat_map(|r| r["components"].as_array().cloned().unwrap_or_default())
        .filter(|c| c["placeholder"] == "Pick cache dice to add")
        .flat_map(|c| c["options"].as_array().cloned().unwrap_or_default())
        .map(|o| o["value"].as_str().unwrap_or("").to_string())
        .collect();
    assert_eq!(options.len(), 2, "{options:?}");
    let ex = select(&t, "alice", "Pick cache dice to add", &options[0]).await;
    let d = ex.single().embeds()[0]["description"]
        .as_str()
        .unwrap()
        .to_string();
    assert!(d.contains("Unused from the cache: "), "{d}");
    let ex = cmd(
        &t,
        "fc",
        "/vv-gm combat damage name:Ann target:Cyber amount:3",
    )
    .await;
    let roll = ex
        .outputs
        .iter()
        .find(|o| {
            o.embeds()
                .first()
                .is_some_and(|e| e["author"]["name"] == "Ann · Agility (4 dice) · Called Stat")
        })
        .unwrap_or_else(|| panic!("Ann's register is redrawn: {:#?}", ex.outputs));
    let d = roll.embeds()[0]["description"]
        .as_str()
        .unwrap()
        .to_string();
    assert!(!d.contains("Unused from the cache"), "{d}");
    t.stop().await;
}

/// The newest register message posted for `name` (its author line starts
/// with the name): its id.
fn register_of(t: &Table, name: &str) -> u64 {
    let head = format!("{name} · ");
    t.fake
        .messages()
        .iter()
        .rev()
        .find(|m| {
            m.body["embeds"][0]["author"]["name"]
                .as_str()
                .is_some_and(|a| a.starts_with(&head))
        })
        .map(|m| m.id)
        .unwrap_or_else(|| panic!("no register for {name}"))
}

/// Presses the button labelled `label` on the message `message`.
async fn click_on(t: &Table, who: &str, message: u64, label: &str) -> Exchange {
    let m = t.fake.message_object(message).expect("the message");
    let id = m["components"]
        .as_array()
        .into_iter()
        .flatten()
        .flat_map(|r| r["components"].as_array().cloned().unwrap_or_default())
        .find(|c| c["label"].as_str() == Some(label))
        .and_then(|c| c["custom_id"].as_str().map(str::to_string))
        .unwrap_or_else(|| panic!("no `{label}` on {m:#}"));
    t.click_custom_id(who, message, &id, None)
        .await
        .unwrap_or_else(|e| panic!("{who} click {label}: {e}"))
}

/// The labels of a message's buttons.
fn labels_of(t: &Table, message: u64) -> Vec<String> {
    let m = t.fake.message_object(message).expect("the message");
    m["components"]
        .as_array()
        .into_iter()
        .flatten()
        .flat_map(|r| r["components"].as_array().cloned().unwrap_or_default())
        .filter_map(|c| c["label"].as_str().map(str::to_string))
        .collect()
}

/// Issue 29 item 5: a quick-added NPC's call posts its register with the
/// buttons a player's register has, acting on the NPC's sheet kept in the
/// fight: held to the turn like players' registers, pressed only by the
/// Compiler, and the tracker logs what it did.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn quick_added_npcs_act_through_their_register() {
    let t = table("vvc-npc-register", 1).await;
    let id = set_up(&t).await;
    cmd(
        &t,
        "fc",
        "/vv-gm combat add name:Ogre wit:2 agility:2 vitality:40 others:8",
    )
    .await;
    tool(&t, "fc", "Begin").await;
    call_all(&t, id, "engineering").await;
    // The Ogre's call is posted as a register with a player's buttons.
    let ogre = register_of(&t, "Ogre");
    assert_eq!(
        labels_of(&t, ogre),
        [
            "Use 3×8 (38)",
            "Use 2×9 (29)",
            "Minor action",
            "± Modify a die",
            "Close"
        ]
    );
    let (_, desc, _, _) = tracker(&t, id);
    assert!(
        desc.contains("\n• **Ogre** · Outthink 20 · Init 14 · Vit 40/40 · calls Engineering: **8 8 8** · **9 9** · 6 5 1\n"),
        "{desc}"
    );
    // Bo's turn (Initiative 30): the register waits, for the Compiler too.
    refused(
        &click_on(&t, "fc", ogre, "Use 3×8 (38)").await,
        "It is Bo's turn: Ogre's register acts on Ogre's own turn, or as a Reaction with an Outthink higher than Bo's Initiative (30); Ogre's Outthink is 20.",
    );
    for _ in 0..3 {
        click(&t, "fc", "Next turn").await;
    }
    let (_, _, field, _) = tracker(&t, id);
    assert!(field.starts_with("⚔ Ogre's turn"), "{field}");
    // A player cannot press it, even on its turn; nothing is spent.
    refused(
        &click_on(&t, "alice", ogre, "Use 3×8 (38)").await,
        "Only the Compiler can use Ogre's register.",
    );
    assert!(labels_of(&t, ogre).contains(&"Use 3×8 (38)".to_string()));
    // The Compiler uses the set: the register and the tracker show it.
    let ex = click_on(&t, "fc", ogre, "Use 3×8 (38)").await;
    let kinds: Vec<(String, String)> = ex
        .outputs
        .iter()
        .map(|o| (o.kind.clone(), o.title()))
        .collect();
    assert_eq!(
        kinds,
        [
            ("update".to_string(), "✅ Best set 3×8".to_string()),
            (
                "update".to_string(),
                "⚔ Combat · Round 1 · Resolution phase".to_string()
            ),
        ]
    );
    assert_eq!(
        labels_of(&t, ogre),
        ["Use 2×9 (29)", "Minor action", "± Modify a die", "Close"]
    );
    let m = t.fake.message_object(ogre).unwrap();
    assert_eq!(
        m["embeds"][0]["description"].as_str().unwrap_or(""),
        "**9 9** · 6 5 1 · used (8) (8) (8)"
    );
    let log = field_named(&t, id, "Log").unwrap();
    assert!(
        log.ends_with("Guard ends their turn.\nOgre: Basic action with **3×8 (38)**."),
        "{log}"
    );
    t.stop().await;
}

/// Issue 28: a player's own `/vv damage` on a seated character redraws the
/// running tracker at once, as the Compiler's `/vv-gm combat damage` does.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn issue_28_a_players_own_damage_redraws_the_tracker() {
    let t = table("vvc-own-damage", 1).await;
    cmd(&t, "fc", "/fc set name:player_edits value:approval").await;
    let id = set_up(&t).await;
    tool(&t, "fc", "Begin").await;
    let (_, desc, _, _) = tracker(&t, id);
    assert!(
        desc.contains("• **Ann** · Outthink 20 · Init 22 · Vit 5/5"),
        "{desc}"
    );
    // Asked for, then approved by the Compiler: the approval redraws it.
    cmd(&t, "alice", "/vv damage target:Vitality amount:2").await;
    assert_eq!(sheet_of(&t, "alice", "Ann").await.vitality.current, 5);
    let ex = tool(&t, "fc", "Approve").await;
    assert!(
        ex.outputs
            .iter()
            .any(|o| o.kind == "message" && o.title().contains("Vitality 3/5")),
        "{:#?}",
        ex.outputs
    );
    assert_eq!(sheet_of(&t, "alice", "Ann").await.vitality.current, 3);
    let (_, desc, _, _) = tracker(&t, id);
    assert!(
        desc.contains("• **Ann** · Outthink 20 · Init 22 · Vit 3/5"),
        "{desc}"
    );
    // Free to change their sheet: the damage redraws it at once.
    cmd(&t, "fc", "/fc set name:player_edits value:free").await;
    let ex = cmd(&t, "alice", "/vv damage target:Vitality amount:1").await;
    redrawn(&ex, "message");
    // After the one-line announcement, the damage's own report.
    let report = ex
        .outputs
        .iter()
        .find(|o| o.kind == "message" && !o.embeds().is_empty())
        .unwrap_or_else(|| panic!("{:#?}", ex.outputs));
    assert!(
        report.title().contains("Vitality 2/5"),
        "{}",
        report.title()
    );
    let (_, desc, _, _) = tracker(&t, id);
    assert!(
        desc.contains("• **Ann** · Outthink 20 · Init 22 · Vit 2/5"),
        "{desc}"
    );
    t.stop().await;
}

/// Issue 31 item 1: players join with the tracker's **Join** (was `/vv
/// combat join`), before the fight begins and late (Outthink and Initiative
/// rolled at once); a member without a sheet is told how to make one; the
/// Compiler seats anyone's character with `/vv-gm combat join character:`,
/// which a player cannot use on another's.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn players_join_with_the_trackers_button_and_the_compiler_seats_anyones() {
    let t = table("vvc-join", 1).await;
    cmd(&t, "alice", ANN).await;
    cmd(&t, "bob", BO).await;
    let id = cmd(&t, "fc", "/vv-gm combat start world:physical")
        .await
        .message_id
        .unwrap();
    refused(
        &click(&t, "carol", "Join").await,
        "has no active character here yet",
    );
    let ex = click(&t, "alice", "Join").await;
    assert_eq!(ex.single().kind, "update", "{:#?}", ex.outputs);
    let (_, desc, _, _) = tracker(&t, id);
    assert!(desc.ends_with("• **Ann** · Vit 5/5"), "{desc}");
    refused(
        &cmd(&t, "alice", "/vv-gm combat join character:Bo").await,
        "No character named `Bo` here.",
    );
    let ex = cmd(&t, "fc", "/vv-gm combat join character:Bo").await;
    assert_eq!(
        redrawn(&ex, "ephemeral").content(),
        "✅ Bo joins the fight."
    );
    tool(&t, "fc", "Begin").await;
    cmd(
        &t,
        "carol",
        "/vv sheet create name:Cy agility:3 wit:4 vitality:3",
    )
    .await;
    click(&t, "carol", "Join").await;
    let (_, desc, _, _) = tracker(&t, id);
    let cy = sheet_of(&t, "carol", "Cy").await;
    let (o, i) = (cy.combat.outthink.unwrap(), cy.combat.initiative.unwrap());
    assert!(
        desc.contains(&format!("**Cy** · Outthink {o} · Init {i} · Vit 3/3")),
        "{desc}"
    );
    let m = t.fake.message_object(id).unwrap();
    let log = m["embeds"][0]["fields"].to_string();
    assert!(
        log.contains(&format!(
            "Cy joins the fight. Outthink {o}, Initiative {i}."
        )),
        "{log}"
    );
}
