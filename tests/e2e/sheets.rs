//! The shared sheet features of every system at the table, through the
//! fake Discord: `/<sys> sheet show|rename` (and the game master's
//! `/<sys>-gm sheet show|rename` with `player:`) for `ve`, `vr`, `st` and
//! `vv`, a shown sheet's **Play as…**, **Delete** and **Export**, one way
//! to name a character, the same rights and the same refusals everywhere.

use crate::common::{assert_schema_clean, table};
use kismet::fake::table::{Exchange, Output, Table, GUILD_ID};

/// Each system's root, its id, and how to create a character named `{}`.
const SYSTEMS: [(&str, &str, &str); 4] = [
    ("ve", "venus", "/ve sheet create name:{}"),
    (
        "vr",
        "veracity",
        "/vr sheet create name:{} light:6 flesh:6 facet:Brave",
    ),
    ("st", "storyteller", "/st sheet create name:{} willpower:5"),
    ("vv", "ore", "/vv sheet create name:{} wit:3"),
];

async fn run(t: &Table, who: &str, line: &str) -> Exchange {
    t.command(who, line)
        .await
        .unwrap_or_else(|e| panic!("{who}: {line}: {e}"))
}

/// The one reply of a command that must succeed.
async fn ok(t: &Table, who: &str, line: &str) -> Output {
    let ex = run(t, who, line).await;
    let out = ex.outputs[0].clone();
    assert!(
        !out.content().starts_with("⚠️"),
        "{who}: {line} was refused: {}",
        out.content()
    );
    out
}

/// The refusal of a command that must be refused, with `needle` in it.
async fn refused(t: &Table, who: &str, line: &str, needle: &str) {
    let ex = run(t, who, line).await;
    let out = ex.single();
    assert_eq!(out.kind, "ephemeral", "{who}: {line}: {}", out.text());
    assert!(
        out.content().starts_with("⚠️"),
        "{who}: {line}: {}",
        out.text()
    );
    assert!(
        out.text().contains(needle),
        "{who}: {line}: expected `{needle}` in {}",
        out.text()
    );
}

fn labels(o: &Output) -> Vec<String> {
    o.buttons().into_iter().map(|b| b.0).collect()
}

fn mention(who: &str) -> String {
    format!("<@{}>", Table::user_id(who))
}

/// A stored character's (name, sheet JSON), if it exists.
async fn stored(t: &Table, system: &str, who: &str, name: &str) -> Option<serde_json::Value> {
    let db = t.db().await.unwrap();
    let mut tx = db.read().await.unwrap();
    kismet::storage::characters::by_name(
        &mut tx,
        GUILD_ID as i64,
        system,
        Table::user_id(who) as i64,
        name,
    )
    .await
    .unwrap()
    .map(|r| serde_json::from_str(&r.sheet).unwrap())
}

/// The name of `who`'s active character in `system`, if any.
async fn active(t: &Table, system: &str, who: &str) -> Option<String> {
    let db = t.db().await.unwrap();
    let mut tx = db.read().await.unwrap();
    kismet::storage::characters::active(
        &mut tx,
        GUILD_ID as i64,
        system,
        Table::user_id(who) as i64,
    )
    .await
    .unwrap()
    .map(|r| r.name)
}

/// The one answer of a click or pick that must succeed.
fn done(who: &str, what: &str, ex: Result<Exchange, String>) -> Output {
    let ex = ex.unwrap_or_else(|e| panic!("{who}: {what}: {e}"));
    let out = ex.outputs[0].clone();
    assert!(
        !out.content().starts_with("⚠️"),
        "{who}: {what} was refused: {}",
        out.text()
    );
    out
}

/// A click or pick that must be refused privately with `needle`.
fn turned_away(who: &str, what: &str, ex: Result<Exchange, String>, needle: &str) {
    let ex = ex.unwrap_or_else(|e| panic!("{who}: {what}: {e}"));
    let out = ex.single();
    assert_eq!(out.kind, "ephemeral", "{who}: {what}: {}", out.text());
    assert!(
        out.content().starts_with("⚠️") && out.text().contains(needle),
        "{who}: {what}: expected `{needle}` in {}",
        out.text()
    );
}

fn gm_of(root: &str) -> &'static str {
    match root {
        "vr" => "referee",
        "st" => "storyteller",
        "vv" => "Compiler",
        _ => "FC",
    }
}

/// The options of the reply's **Play as…**: "label (description)".
fn menu(o: &Output) -> Vec<String> {
    let rows = o.body["components"].as_array().cloned().unwrap_or_default();
    rows.iter()
        .flat_map(|r| r["components"].as_array().cloned().unwrap_or_default())
        .filter(|c| c["placeholder"] == "Play as…")
        .flat_map(|c| c["options"].as_array().cloned().unwrap_or_default())
        .map(|o| match o["description"].as_str() {
            Some(d) => format!("{} ({d})", o["label"].as_str().unwrap_or("")),
            None => o["label"].as_str().unwrap_or("").to_string(),
        })
        .collect()
}

/// Picks `name` in the newest **Play as…** `who` sees.
async fn play_as(t: &Table, who: &str, name: &str) -> Result<Exchange, String> {
    t.select(who, "Play as…", &[name.to_string()]).await
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn every_system_shows_plays_as_renames_and_deletes_sheets_alike() {
    let t = table("sheets-shared", 1).await;
    for (root, system, create) in SYSTEMS {
        let new = |name: &str| create.replace("{}", name);
        let not_yours = format!("Only the {} can act on another player's sheet", gm_of(root));
        // Alice has Ann and Zed (the newest is active); Bob has an Ann too.
        ok(&t, "alice", &new("Ann")).await;
        ok(&t, "alice", &new("Zed")).await;
        ok(&t, "bob", &new("Ann")).await;

        // show: one's active one, for the channel, with its controls.
        let shown = ok(&t, "alice", &format!("/{root} sheet show")).await;
        assert_eq!(shown.kind, "message", "/{root}");
        assert!(shown.title().contains("Zed"), "/{root}: {}", shown.title());
        let l = labels(&shown);
        assert!(
            l.ends_with(&["Delete".to_string(), "Export".to_string()]),
            "/{root}: {l:?}"
        );
        // Play as… offers one's other characters only: another player's
        // pick on it is refused and changes nothing.
        assert_eq!(menu(&shown), vec!["Ann"], "/{root}");
        turned_away(
            "bob",
            "Play as",
            play_as(&t, "bob", "Ann").await,
            &not_yours,
        );
        assert_eq!(active(&t, system, "alice").await.as_deref(), Some("Zed"));
        // The owner's pick makes Ann active (replaces `sheet use`).
        let used = done("alice", "Play as", play_as(&t, "alice", "Ann").await);
        assert_eq!(used.kind, "ephemeral", "/{root}");
        assert!(
            used.text().contains("**Ann** is now your active"),
            "/{root}: {}",
            used.text()
        );
        assert_eq!(active(&t, system, "alice").await.as_deref(), Some("Ann"));
        let shown = ok(
            &t,
            "alice",
            &format!("/{root} sheet show character:Zed private:true"),
        )
        .await;
        assert_eq!(shown.kind, "ephemeral", "/{root}");
        assert!(shown.title().contains("Zed"), "/{root}: {}", shown.title());

        // A stranger can neither see nor change another's character.
        for line in [
            format!("/{root} sheet show character:Zed"),
            format!("/{root} sheet rename character:Zed name:Mine"),
        ] {
            refused(&t, "bob", &line, "No character named `Zed`").await;
        }
        // Nor press the controls of a sheet shown to the channel.
        ok(&t, "alice", &format!("/{root} sheet show character:Zed")).await;
        for label in ["Delete", "Export"] {
            turned_away("bob", label, t.click("bob", label).await, &not_yours);
        }
        // The owner's Export: the file, privately.
        let out = done("alice", "Export", t.click("alice", "Export").await);
        assert_eq!(out.kind, "ephemeral", "/{root}");
        assert_eq!(out.files[0].0, "Zed.kismet.json", "/{root}");

        // The game master: a name two members share is named with its
        // player under /<root>-gm.
        refused(
            &t,
            "fc",
            &format!("/{root} sheet show character:Ann"),
            &format!("Several members have a character named `Ann`: say whose with `/{root}-gm sheet show player:`"),
        )
        .await;
        let bobs = ok(
            &t,
            "fc",
            &format!("/{root}-gm sheet show player:@bob character:Ann"),
        )
        .await;
        assert!(bobs.title().contains("Ann"), "/{root}: {}", bobs.title());
        // The game master's Play as… offers everyone's: he makes Zed
        // Alice's active character again.
        assert_eq!(
            menu(&bobs),
            vec!["Ann (another player's · active)", "Zed (another player's)"],
            "/{root}"
        );
        let used = done("fc", "Play as", play_as(&t, "fc", "Zed").await);
        assert!(
            used.text()
                .contains(&format!("**Zed** is now {}'s active", mention("alice"))),
            "/{root}: {}",
            used.text()
        );
        assert_eq!(active(&t, system, "alice").await.as_deref(), Some("Zed"));
        ok(&t, "fc", &format!("/{root} sheet show character:Zed")).await;
        refused(
            &t,
            "fc",
            &format!("/{root} sheet show character:Nobody"),
            "No character named `Nobody`",
        )
        .await;

        // rename: one's own; a name already taken is refused.
        let renamed = ok(
            &t,
            "alice",
            &format!("/{root} sheet rename character:Zed name:Zoe"),
        )
        .await;
        assert!(
            renamed.text().contains("**Zed** is now called **Zoe**"),
            "/{root}: {}",
            renamed.text()
        );
        refused(
            &t,
            "alice",
            &format!("/{root} sheet rename character:Zoe name:ann"),
            "already a character named ann",
        )
        .await;
        ok(
            &t,
            "fc",
            &format!("/{root}-gm sheet rename player:@alice character:Zoe name:Zia"),
        )
        .await;
        let sheet = stored(&t, system, "alice", "Zia").await.expect("renamed");
        if system == "venus" {
            // Venus keeps the name inside its sheet too.
            assert_eq!(sheet["name"], "Zia");
        }
        assert!(stored(&t, system, "alice", "Zed").await.is_none());

        // Delete: asks first, privately, with Delete and Keep.
        ok(&t, "alice", &format!("/{root} sheet show character:zia")).await;
        let ask = done("alice", "Delete", t.click("alice", "Delete").await);
        assert_eq!(ask.kind, "ephemeral", "/{root}");
        assert!(
            ask.text().contains("Delete **Zia** for good?"),
            "/{root}: {}",
            ask.text()
        );
        assert_eq!(labels(&ask), vec!["Delete", "Keep"]);
        let kept = t.click("alice", "Keep").await.unwrap();
        assert_eq!(kept.single().kind, "update");
        assert!(kept.single().text().contains("Zia was kept"));
        assert!(kept.single().buttons().is_empty());
        assert!(stored(&t, system, "alice", "Zia").await.is_some());
        done("alice", "Delete", t.click("alice", "Delete").await);
        let gone = t.click("alice", "Delete").await.unwrap();
        let text = gone.single().text();
        assert!(text.contains("🗑 Zia was deleted."), "/{root}: {text}");
        assert!(stored(&t, system, "alice", "Zia").await.is_none());
        refused(
            &t,
            "alice",
            &format!("/{root} sheet show character:Zia"),
            "No character named `Zia`",
        )
        .await;

        // The game master deletes Bob's Ann (his active one) from its card.
        ok(&t, "fc", &format!("/{root}-gm sheet show player:@bob")).await;
        let ask = done("fc", "Delete", t.click("fc", "Delete").await);
        assert!(
            ask.text()
                .contains(&format!("{}'s character", mention("bob"))),
            "{}",
            ask.text()
        );
        let gone = t.click("fc", "Delete").await.unwrap();
        let text = gone.single().text();
        assert!(
            text.contains(&format!(
                "🗑 Ann was deleted. It was the active character: pick another with `/{root} sheet show` (**Play as…**)."
            )),
            "/{root}: {text}"
        );
        assert!(stored(&t, system, "bob", "Ann").await.is_none());
        assert!(
            stored(&t, system, "alice", "Ann").await.is_some(),
            "alice's Ann stays"
        );
        // With none left, show says how to make one.
        let empty = ok(&t, "bob", &format!("/{root} sheet show")).await;
        assert!(
            empty
                .text()
                .contains(&format!("create one with `/{root} sheet create`")),
            "/{root}: {}",
            empty.text()
        );
        // With characters but none active, show lists them to pick one.
        ok(&t, "bob", &new("Bea")).await;
        ok(&t, "bob", &new("Cy")).await;
        ok(&t, "bob", &format!("/{root} sheet show character:Cy")).await;
        done("bob", "Delete", t.click("bob", "Delete").await);
        done("bob", "Delete", t.click("bob", "Delete").await);
        let list = ok(&t, "bob", &format!("/{root} sheet show")).await;
        assert_eq!(list.kind, "ephemeral", "/{root}");
        assert!(list.text().contains("**Bea**"), "/{root}: {}", list.text());
        assert!(
            !list.text().contains("← active"),
            "/{root}: {}",
            list.text()
        );
        let picked = done("bob", "Play as", play_as(&t, "bob", "Bea").await);
        assert_eq!(picked.kind, "update", "/{root}");
        assert!(picked.text().contains("**Bea** is now your active"));
        assert_eq!(active(&t, system, "bob").await.as_deref(), Some("Bea"));
    }
    assert_schema_clean(&t);
    t.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_character_option_completes_in_every_system_from_its_root() {
    let t = table("sheets-complete", 1).await;
    for (root, _, create) in SYSTEMS {
        ok(&t, "alice", &create.replace("{}", "Ann")).await;
        ok(&t, "bob", &create.replace("{}", "Nob")).await;
        let names = |v: Vec<serde_json::Value>| -> Vec<String> {
            v.iter()
                .map(|c| c["name"].as_str().unwrap().to_string())
                .collect()
        };
        for sub in ["show", "rename name:X"] {
            let line = format!("/{root} sheet {sub} character:n");
            let mine = t.autocomplete("alice", &line, "character").await.unwrap();
            assert_eq!(names(mine), vec!["Ann"], "{line}");
            let every = t.autocomplete("fc", &line, "character").await.unwrap();
            assert_eq!(names(every), vec!["Nob", "Ann"], "{line}");
        }
    }
    assert_schema_clean(&t);
    t.stop().await;
}

/// Discord's count of a command's text: names, descriptions and choices.
fn command_chars(v: &serde_json::Value) -> usize {
    let len = |v: &serde_json::Value, k: &str| {
        v.get(k)
            .and_then(serde_json::Value::as_str)
            .map_or(0, |s| s.chars().count())
    };
    let mut n = len(v, "name") + len(v, "description");
    for c in v
        .get("choices")
        .and_then(serde_json::Value::as_array)
        .into_iter()
        .flatten()
    {
        n += len(c, "name")
            + c.get("value")
                .map_or(0, |x| x.to_string().trim_matches('"').chars().count());
    }
    for o in v
        .get("options")
        .and_then(serde_json::Value::as_array)
        .into_iter()
        .flatten()
    {
        n += command_chars(o);
    }
    n
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn every_sheet_group_registers_the_shared_subcommands_within_limits() {
    let t = table("sheets-register", 1).await;
    let reg = t.registered();
    for (root, _, _) in SYSTEMS {
        let cmd = reg
            .as_array()
            .unwrap()
            .iter()
            .find(|c| c["name"] == root)
            .unwrap_or_else(|| panic!("/{root} registered"));
        let n = command_chars(cmd);
        println!("/{root} uses {n} of Discord's 4000 characters");
        // /ve and /vv were over Discord's limit before the sheet features
        // were shared (their FC, roll and sheet groups are long: work left
        // to a later change); /vr and /st stay within it.
        // /st gained `sheet export` and `sheet import` (issue 33): within
        // Discord's 8000 (src/fake/rules.rs), with room kept as for /vr.
        if root == "st" {
            assert!(n <= 6000, "/{root} uses {n} of 6000 characters");
        }
        // /vr gained its combat group (issue 15): Discord's limit is 8000.
        if root == "vr" {
            assert!(n <= 6000, "/{root} uses {n} of 6000 characters");
        }
        let sheet = cmd["options"]
            .as_array()
            .unwrap()
            .iter()
            .find(|o| o["name"] == "sheet")
            .unwrap();
        let sub = |name: &str| -> Vec<String> {
            let s = sheet["options"]
                .as_array()
                .unwrap()
                .iter()
                .find(|o| o["name"] == name)
                .unwrap_or_else(|| panic!("/{root} sheet {name}"));
            s["options"]
                .as_array()
                .map(|os| {
                    os.iter()
                        .map(|o| o["name"].as_str().unwrap().to_string())
                        .collect()
                })
                .unwrap_or_default()
        };
        // `player:` is the game master's (issue 31): only his root has it;
        // list, use, delete and export are a shown sheet's controls.
        let names: Vec<&str> = sheet["options"]
            .as_array()
            .unwrap()
            .iter()
            .filter_map(|o| o["name"].as_str())
            .collect();
        for gone in ["list", "use", "delete", "export"] {
            assert!(!names.contains(&gone), "/{root} sheet {gone}");
        }
        assert_eq!(sub("show"), vec!["character", "private"], "/{root}");
        assert_eq!(sub("rename"), vec!["character", "name"], "/{root}");
        let gm = reg
            .as_array()
            .unwrap()
            .iter()
            .find(|c| c["name"] == format!("{root}-gm"))
            .unwrap_or_else(|| panic!("/{root}-gm registered"));
        let gm_sheet = gm["options"]
            .as_array()
            .unwrap()
            .iter()
            .find(|o| o["name"] == "sheet")
            .unwrap_or_else(|| panic!("/{root}-gm sheet"));
        let gm_sub = |name: &str| -> Vec<String> {
            gm_sheet["options"]
                .as_array()
                .unwrap()
                .iter()
                .find(|o| o["name"] == name)
                .unwrap_or_else(|| panic!("/{root}-gm sheet {name}"))["options"]
                .as_array()
                .unwrap()
                .iter()
                .map(|o| o["name"].as_str().unwrap().to_string())
                .collect()
        };
        assert_eq!(
            gm_sub("show"),
            vec!["player", "character", "private"],
            "/{root}-gm"
        );
        assert_eq!(
            gm_sub("rename"),
            vec!["player", "character", "name"],
            "/{root}-gm"
        );
    }
    assert_schema_clean(&t);
    t.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_sheets_example_script_plays_clean() {
    let t = table("sheets-example", 1).await;
    let script =
        std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/examples/sheets.txt"))
            .unwrap();
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
    // Exactly the two refusals the script means to show.
    assert_eq!(
        refusals,
        vec![
            "bob: ⚠️ No character named `Zed` here.".to_string(),
            "fc: ⚠️ Several members have a character named `Ann`: say whose with `/vv-gm sheet show player:` (or `rename`)."
                .to_string(),
        ]
    );
    assert_schema_clean(&t);
    t.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn veracity_commands_name_a_character_as_well_as_a_player() {
    let t = table("sheets-vr-pick", 1).await;
    ok(
        &t,
        "alice",
        "/vr sheet create name:Ann light:6 flesh:6 facet:Brave",
    )
    .await;
    ok(
        &t,
        "alice",
        "/vr sheet create name:Zed light:6 flesh:6 facet:Calm",
    )
    .await;
    ok(&t, "alice", "/vr sheet show private:true").await;
    t.select("alice", "Play as…", &["Zed".to_string()])
        .await
        .unwrap();
    // Not the active one: the one named.
    let out = ok(
        &t,
        "alice",
        "/vr item add kind:secret text:Hidden character:Ann",
    )
    .await;
    assert!(
        out.content().starts_with("**Ann** adds a Secret: "),
        "{}",
        out.content()
    );
    // A stranger cannot name it; the FC names it with its player.
    refused(
        &t,
        "bob",
        "/vr item add kind:secret text:X character:Ann",
        "No character named `Ann`",
    )
    .await;
    let out = ok(
        &t,
        "fc",
        "/vr item add kind:means text:Coin character:Ann player:@alice",
    )
    .await;
    assert!(
        out.content().starts_with("**Ann** adds Means: "),
        "{}",
        out.content()
    );
    assert_schema_clean(&t);
    t.stop().await;
}

/// More characters than a menu shows: **Play as…** pages, privately, and
/// a pick from a later page plays that character.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn play_as_pages_through_more_characters_than_a_menu_shows() {
    let t = table("sheets-play-pages", 1).await;
    for i in 0..27 {
        ok(&t, "alice", &format!("/ve sheet create name:Ann{i:02}")).await;
    }
    // The newest (Ann26) is shown; 26 others are more than 25.
    let shown = ok(&t, "alice", "/ve sheet show").await;
    let first = menu(&shown);
    assert_eq!(first.len(), 24, "{first:?}");
    assert_eq!(first[0], "Ann00");
    assert!(first[23].starts_with("More choices (24–26) ▸"), "{first:?}");
    // The owner turns the page and picks from page 2.
    let page = done(
        "alice",
        "more",
        t.select("alice", "Play as…", &["page:1".to_string()]).await,
    );
    assert_eq!(page.kind, "ephemeral");
    let second = menu(&page);
    assert!(second[0].starts_with("◂ Earlier choices"), "{second:?}");
    assert_eq!(&second[1..], ["Ann23", "Ann24", "Ann25"]);
    let used = done("alice", "Play as", play_as(&t, "alice", "Ann24").await);
    assert!(used.text().contains("**Ann24** is now your active"));
    assert_eq!(active(&t, "venus", "alice").await.as_deref(), Some("Ann24"));
    t.stop().await;
}
