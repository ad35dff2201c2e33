//! What players see, checked over every bundled example script (issue 16):
//! a result's title states its outcome, no message shows a player more than
//! ten buttons, and no game-master tool is ever among the buttons of a
//! message players see (they sit behind the ⚙ button, in a private panel).
//! Also the per-channel house rule `verbosity`.

use crate::common::{assert_schema_clean, expire_now, message_when, session_of_button, table};
use kismet::fake::table::Output;
use serde_json::json;

/// The title emojis of `systems::table::look::Outcome`.
const OUTCOMES: [&str; 7] = ["✅", "🟡", "❌", "💥", "⏳", "🎲", "⏹️"];

/// Labels (or label parts) of game-master tools: never on a message
/// players see.
const GM_LABELS: [&str; 16] = [
    "Void",
    "Force close",
    "Force finish",
    "Veto",
    "Subvert",
    "No subversion",
    "Approve",
    "Reject",
    "Allow scene",
    "Decline scene",
    "End combat",
    "Adjust",
    "(FC)",
    "(referee)",
    "(storyteller)",
    "(Compiler)",
];

/// Commands whose answer is a roll (it must carry an author line and an
/// outcome title).
const ROLLS: [&str; 6] = [
    "/roll ",
    "/st roll",
    "/vr save",
    "/ve-gm fc npc",
    "/vv roll",
    "/r ",
];

fn labels(o: &Output) -> Vec<String> {
    o.buttons().into_iter().map(|b| b.0).collect()
}

/// The game master's private panel (or its confirmation).
fn is_panel(o: &Output) -> bool {
    o.title().starts_with("⚙ ")
}

fn check(script: &str, line: &str, o: &Output, problems: &mut Vec<String>) {
    let private_to_gm =
        (o.kind == "ephemeral" && o.to == "fc") || o.kind.starts_with("channel") || is_panel(o);
    let shown = labels(o);
    if !private_to_gm {
        if shown.len() > 10 {
            problems.push(format!(
                "{script}: {line}: {} buttons: {shown:?}",
                shown.len()
            ));
        }
        for l in &shown {
            if GM_LABELS.iter().any(|g| l.contains(g)) {
                problems.push(format!("{script}: {line}: game-master button `{l}` shown"));
            }
        }
    }
    for e in o.embeds() {
        if e.get("author").is_none() {
            continue;
        }
        let title = e["title"].as_str().unwrap_or("");
        if !OUTCOMES.iter().any(|x| title.starts_with(x)) {
            problems.push(format!("{script}: {line}: result titled `{title}`"));
        }
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn every_example_states_outcomes_and_keeps_gm_tools_private() {
    let dir = concat!(env!("CARGO_MANIFEST_DIR"), "/examples");
    let mut scripts: Vec<_> = std::fs::read_dir(dir)
        .unwrap()
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.extension().is_some_and(|x| x == "txt"))
        .collect();
    scripts.sort();
    assert!(scripts.len() >= 15, "{scripts:?}");
    let mut problems = Vec::new();
    let mut results = 0;
    for path in scripts {
        let name = path.file_name().unwrap().to_string_lossy().to_string();
        let t = table(&format!("look-{name}"), 1).await;
        for line in std::fs::read_to_string(&path).unwrap().lines() {
            let Some((_, ex)) = t
                .run_line(line)
                .await
                .unwrap_or_else(|e| panic!("{name}: {line}: {e}"))
            else {
                continue;
            };
            let command = line.split_once(':').map_or("", |(_, r)| r.trim());
            if ROLLS.iter().any(|r| command.starts_with(r)) {
                let authored = ex
                    .outputs
                    .iter()
                    .any(|o| o.embeds().iter().any(|e| e.get("author").is_some()));
                let refused = ex.outputs.iter().all(|o| o.kind == "ephemeral");
                // A roll the rules leave to the game master waits for them.
                let asked = ex.outputs.iter().any(|o| o.title().starts_with("🙋"));
                if !authored && !refused && !asked {
                    problems.push(format!("{name}: {line}: a roll without an author line"));
                }
            }
            for o in &ex.outputs {
                results += o
                    .embeds()
                    .iter()
                    .filter(|e| e.get("author").is_some())
                    .count();
                check(&name, line, o, &mut problems);
            }
        }
        assert_schema_clean(&t);
        t.stop().await;
    }
    assert!(results >= 30, "only {results} results seen");
    assert!(problems.is_empty(), "{}", problems.join("\n"));
}

/// `verbosity: compact` shortens results to one line in that channel
/// only, keeps their buttons, and only the FC may set it.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn compact_channels_show_one_line_per_result() {
    let t = table("verbosity", 1).await;
    let npc = "/ve-gm fc npc name:\"Guard: Wits\" rank:bronze score:3 difficulty:10";
    let full = t.command("fc", npc).await.unwrap();
    let e = &full.single().embeds()[0];
    assert!(e.get("author").is_some(), "{e}");
    let title = e["title"].as_str().unwrap().to_string();
    assert!(OUTCOMES.iter().any(|x| title.starts_with(x)), "{title}");

    let refused = t
        .command("alice", "/fc verbosity level:compact")
        .await
        .unwrap();
    assert_eq!(refused.single().kind, "ephemeral");
    assert!(refused.single().text().contains("Only the FC"));
    let set = t
        .command("fc", "/fc verbosity level:compact")
        .await
        .unwrap();
    assert!(
        set.single().text().contains("one line each"),
        "{}",
        set.single().text()
    );

    let short = t.command("fc", npc).await.unwrap();
    let e = &short.single().embeds()[0];
    let line = e["description"].as_str().unwrap();
    let no_fields = e
        .get("fields")
        .is_none_or(|f| f.as_array().is_some_and(|a| a.is_empty()));
    assert!(e.get("title").is_none() && no_fields, "{e}");
    assert!(!line.contains('\n'), "one line: {line}");
    assert!(line.contains("Guard: Wits"), "{line}");

    // Another channel keeps full results.
    t.set_channel(t.channel_id() + 1);
    let other = t.command("fc", npc).await.unwrap();
    assert!(other.single().embeds()[0].get("author").is_some());
    assert_schema_clean(&t);
    t.stop().await;
}

/// A compact channel's roll keeps its one line when it expires: the
/// sweeper's redraw greys its buttons out and stays short.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_expired_roll_in_a_compact_channel_stays_one_line() {
    let mut opts = kismet::fake::table::TableOptions::new(crate::common::db_path("compact-exp"));
    opts.seed = Some(1);
    opts.database = crate::common::scratch_postgres().await;
    opts.config.sessions.sweep_seconds = 1;
    let t = kismet::fake::table::Table::start(opts).await.unwrap();
    t.command("fc", "/fc verbosity level:compact")
        .await
        .unwrap();
    let roll = t.command("alice", "/roll expression:2d6").await.unwrap();
    let shown = &roll.single().embeds()[0];
    assert!(shown.get("author").is_none(), "shown in one line: {shown}");
    let id = roll.message_id.expect("the roll's message");
    expire_now(&t, session_of_button(roll.single(), "Reroll")).await;
    let edited = message_when(&t, id, |b| {
        b["components"][0]["components"][0]["disabled"] == json!(true)
    })
    .await;
    let e = &edited.body["embeds"][0];
    assert!(e.get("author").is_none(), "still one line: {e}");
    assert_eq!(e["description"], shown["description"], "the same line");
    assert_schema_clean(&t);
    t.stop().await;
}

/// Issue 29 item 25: mentions and masked links typed by a user (a `/roll`
/// label, a character's name, a note) are shown as typed: never as a
/// mention chip, never as a link, in message text or in embeds.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn user_text_is_shown_literally() {
    let t = table("literal-text", 1).await;
    // Each typed text, and where it must show (ZWSPs aside).
    let checks = [
        (
            "alice",
            "/roll expression:\"1d6 [<@123> <@&9> <#55>]\"",
            "<@123> <@&9> <#55>",
        ),
        (
            "fc",
            "/ve-gm fc npc name:\"<@123> [x](http://e.com)\" rank:bronze score:3 difficulty:10",
            "<@123> [x](http://e.com)",
        ),
        ("alice", "/ve sheet create name:Ada", "Ada"),
        (
            "alice",
            "/ve sheet note kind:asset text:\"<@&9> <#55> [x](http://e.com)\"",
            "<@&9> <#55> [x](http://e.com)",
        ),
        ("alice", "/ve sheet show", "<@&9> <#55> [x](http://e.com)"),
    ];
    for (who, line, shown) in checks {
        let ex = t.command(who, line).await.unwrap();
        let out = ex.single();
        let body = serde_json::to_string(&out.body).unwrap();
        for chip in ["<@123>", "<@&9>", "<#55>", "](http"] {
            assert!(!body.contains(chip), "{line}: `{chip}` in {body}");
        }
        let text = out.text().replace('\u{200B}', "");
        assert!(text.contains(shown), "{line}: {text}");
    }
    t.stop().await;
}

/// Issue 31 item 5: in every tracker (the Venus spotlight, Veracity's and
/// Virtual Veil's fights), a turn that moves to a seat a member plays posts
/// one short line that pings that member and nobody else; the game
/// master's own seats ping no one. Played from the examples, seeded.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn issue_31_every_tracker_pings_the_member_whose_turn_comes() {
    for (script, expected) in [
        ("venus-spotlight.txt", 5),
        ("veracity-combat.txt", 3),
        ("virtual_veil-combat.txt", 9),
    ] {
        let t = table(&format!("turn-pings-{script}"), 1).await;
        let path = concat!(env!("CARGO_MANIFEST_DIR"), "/examples/").to_string() + script;
        let mut pings = Vec::new();
        for line in std::fs::read_to_string(&path).unwrap().lines() {
            let Some((_, ex)) = t
                .run_line(line)
                .await
                .unwrap_or_else(|e| panic!("{line}: {e}"))
            else {
                continue;
            };
            for o in ex
                .outputs
                .iter()
                .filter(|o| o.content().ends_with("'s turn."))
            {
                let users: Vec<String> = o.body["allowed_mentions"]["users"]
                    .as_array()
                    .unwrap()
                    .iter()
                    .map(|u| u.as_str().unwrap().to_string())
                    .collect();
                assert_eq!(users.len(), 1, "{script}: {line}: {:?}", o.body);
                assert!(
                    o.content().starts_with(&format!("<@{}> ▶ ", users[0])),
                    "{script}: {}",
                    o.content()
                );
                assert_eq!(o.kind, "message", "{script}: public");
                pings.push(o.content().to_string());
            }
        }
        println!("{script}: {pings:?}");
        assert_eq!(pings.len(), expected, "{script}: {pings:?}");
        t.stop().await;
    }
}

/// The texts every game shares name a character without markdown, as
/// Veracity names characters: a change asked of the game master and a
/// turn's ping read `Ada` for `A*d_a`; the command the request quotes is
/// kept as it was.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_change_asked_and_a_turn_ping_name_the_character_without_markdown() {
    let t = table("shared-name-markdown", 1).await;
    for line in [
        "fc: /fc set name:player_edits value:approval",
        "alice: /ve sheet create name:A*d_a",
    ] {
        t.run_line(line).await.unwrap();
    }
    let (_, asked) = t
        .run_line("alice: /ve sheet set ego:true")
        .await
        .unwrap()
        .unwrap();
    assert_eq!(
        asked.outputs[0].embeds()[0]["description"].as_str().unwrap(),
        "<@303779529149266183> asks to change Ada's Ego none → held (`/ve sheet set lots: ego:`).\nOnly the FC can approve or reject it."
    );
    t.run_line("fc: /ve-gm spotlight start scene:\"The docks\"")
        .await
        .unwrap();
    let (_, joined) = t.run_line("alice: click Join").await.unwrap().unwrap();
    let ping = joined.outputs.last().unwrap();
    assert_eq!(ping.content(), "<@303779529149266183> ▶ Ada's turn.");
    t.stop().await;
}

/// The last answer to one script line.
async fn last_of(t: &kismet::fake::table::Table, line: &str) -> Output {
    let (_, ex) = t
        .run_line(line)
        .await
        .unwrap_or_else(|e| panic!("{line}: {e}"))
        .expect("a line");
    ex.outputs.last().cloned().expect("an answer")
}

/// The first embed's description.
fn described(o: &Output) -> String {
    o.embeds()[0]["description"]
        .as_str()
        .unwrap_or_default()
        .to_string()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn undo_rename_delete_and_joining_a_game_name_the_character_without_markdown() {
    let t = table("shared-table-name-markdown", 1).await;
    for line in [
        "alice: /vr sheet create name:A*d_a light:6 flesh:6 facet:Cruel",
        "alice: /vr stress amount:5",
        "alice: /vr stress amount:3",
    ] {
        last_of(&t, line).await;
    }
    // The game master's undo: asked, kept, asked again and undone.
    let asked = last_of(&t, "fc: /fc undo character:A*d_a").await;
    assert!(
        described(&asked).starts_with("Last changes of **Ada**, newest first:\n"),
        "{}",
        described(&asked)
    );
    let kept = last_of(&t, "fc: click Keep").await;
    assert_eq!(described(&kept), "Nothing was undone; Ada stays as it is.");
    last_of(&t, "fc: /fc undo character:A*d_a").await;
    let undone = last_of(&t, "fc: click Undo").await;
    assert!(
        described(&undone).starts_with("↩ Undone on **Ada**: `#2` "),
        "{}",
        described(&undone)
    );
    // Rename, a name already taken, Play as…, Export and Delete.
    let renamed = last_of(&t, "alice: /vr sheet rename character:A*d_a name:B*e_a").await;
    assert_eq!(renamed.content(), "✏️ **Ada** is now called **Bea**.");
    let created = last_of(
        &t,
        "alice: /vr sheet create name:C_y light:6 flesh:6 facet:Cruel",
    )
    .await;
    assert_eq!(created.title(), "📜 Cy");
    let taken = last_of(&t, "alice: /vr sheet rename character:C_y name:B*e_a").await;
    assert_eq!(
        taken.content(),
        "⚠️ There is already a character named Bea."
    );
    let shown = last_of(&t, "alice: /vr sheet show character:B*e_a").await;
    assert_eq!(shown.title(), "📜 Bea");
    let active = last_of(&t, "alice: select Play as… = 1").await;
    assert_eq!(
        active.content(),
        "✅ **Bea** is now your active Veracity character."
    );
    last_of(&t, "alice: /vr sheet show character:C_y private:true").await;
    let exported = last_of(&t, "alice: click Export").await;
    assert!(
        exported
            .content()
            .starts_with("📤 **Cy** as a Veracity sheet file"),
        "{}",
        exported.content()
    );
    let delete = last_of(&t, "alice: click Delete").await;
    assert_eq!(
        described(&delete),
        "Delete **Cy** for good? Its sheet cannot be brought back."
    );
    assert_eq!(
        described(&last_of(&t, "alice: click Keep").await),
        "Cy was kept."
    );
    last_of(&t, "alice: click Delete").await;
    assert_eq!(
        described(&last_of(&t, "alice: click Delete").await),
        "🗑 Cy was deleted."
    );
    // Joining a game with a character, and the game's card.
    last_of(
        &t,
        "fc in #crown: /game-gm create name:\"Iron Crown\" system:Veracity",
    )
    .await;
    let joined = last_of(&t, "alice in #crown: /game character:B*e_a").await;
    assert_eq!(
        described(&joined),
        "<@303779529149266183> joined **Iron Crown** as **Bea**."
    );
    let card = last_of(&t, "bob in #crown: /game").await;
    assert_eq!(
        card.field("Players").as_deref(),
        Some("<@303779529149266183>: **Bea**")
    );
    t.stop().await;
}
