//! `/roll` speaks the dice notation (issue 18) through the fake Discord:
//! targets, success counting, repeats, labels, `0d6`, natural 20s and
//! errors at the place as typed.

use crate::common::{assert_schema_clean, table};

fn description(out: &kismet::fake::table::Output) -> String {
    out.embeds()[0]["description"]
        .as_str()
        .unwrap_or("")
        .to_string()
}

/// The author line: who rolled which expression.
fn author(out: &kismet::fake::table::Output) -> String {
    out.embeds()[0]["author"]["name"]
        .as_str()
        .unwrap_or("")
        .to_string()
}

/// The number a title states after its first `prefix` (`🎲 17` → 17).
fn number_after(title: &str, prefix: &str) -> i64 {
    title
        .split(prefix)
        .nth(1)
        .unwrap()
        .split(' ')
        .next()
        .unwrap()
        .parse()
        .unwrap()
}

/// The faces of the description's first dice term (`` `1d20` **20**★ + 5 ``).
fn faces(d: &str) -> Vec<u32> {
    d.split("` ")
        .nth(1)
        .unwrap()
        .split(" + ")
        .next()
        .unwrap()
        .split(' ')
        .map(|f| f.trim_matches(['*', '★', '✗', '(', ')']).parse().unwrap())
        .collect()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_target_says_pass_or_fail_and_rerolls_keep_it() {
    let t = table("roll-target", 7).await;
    let ex = t
        .command("alice", "/roll expression:\"1d20 + 5 >= 15\"")
        .await
        .unwrap();
    let out = ex.single();
    assert_eq!(out.kind, "message");
    // The author says who rolled what; the title states the result once
    // (issue 16: it used to be `🎲 alice rolls …` with Total and Result fields).
    assert_eq!(author(out), "alice · 1d20 + 5 >= 15");
    let title = out.title();
    let total = number_after(&title, " · ");
    if total >= 15 {
        assert!(title.starts_with("✅ Pass · "), "{total}: {title}");
    } else {
        assert!(title.starts_with("❌ Fail · "), "{total}: {title}");
    }
    assert!(title.contains("(needed ≥ 15)"), "{title}");
    assert!(out.field("Total").is_none() && out.field("Result").is_none());
    // The die's line shows the face, and the total adds 5 to it.
    let d = description(out);
    assert_eq!(total, i64::from(faces(&d)[0]) + 5, "{d}");
    let ex = t.click("alice", "Reroll").await.unwrap();
    let up = ex.single();
    assert_eq!(up.kind, "update");
    assert!(up.title().contains("(needed ≥ 15)"), "{}", up.title());
    assert_eq!(author(up), "alice · 1d20 + 5 >= 15");
    assert_schema_clean(&t);
    t.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn success_counting_repeats_labels_and_zero_dice() {
    let t = table("roll-notation", 3).await;

    let ex = t
        .command("alice", "/roll expression:5d10>=8f1")
        .await
        .unwrap();
    let out = ex.single();
    let d = description(out);
    let faces = faces(&d);
    assert_eq!(faces.len(), 5);
    let expect = faces.iter().filter(|f| **f >= 8).count() as i64
        - faces.iter().filter(|f| **f == 1).count() as i64;
    assert_eq!(number_after(&out.title(), "🎲 "), expect, "{d}");
    assert!(out.title().contains("success"), "{}", out.title());

    let ex = t
        .command("alice", "/roll expression:6#4d6kh3")
        .await
        .unwrap();
    let out = ex.single();
    let lines: Vec<String> = description(out).lines().map(str::to_string).collect();
    assert_eq!(lines.len(), 6, "{lines:?}");
    let totals: Vec<i64> = out
        .title()
        .trim_start_matches("🎲 ")
        .split(" · ")
        .map(|x| x.parse().unwrap())
        .collect();
    assert_eq!(totals.len(), 6);
    for (i, (line, total)) in lines.iter().zip(&totals).enumerate() {
        assert!(line.starts_with(&format!("**#{}**", i + 1)), "{line}");
        assert!(line.ends_with(&format!("→ **{total}**")), "{line}");
        assert!((3..=18).contains(total));
    }

    let ex = t
        .command("alice", "/roll expression:\"1d20+5 [fire] + 2d6 [cold]\"")
        .await
        .unwrap();
    let out = ex.single();
    let d = description(out);
    assert!(d.contains("+ 5 [fire]"), "{d}");
    assert!(d.contains("+ `2d6` ") && d.ends_with("[cold]"), "{d}");

    let ex = t.command("alice", "/roll expression:0d6").await.unwrap();
    assert_eq!(ex.single().title(), "🎲 0");
    assert_schema_clean(&t);
    t.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_natural_20_is_called_out() {
    let t = table("roll-nat", 5).await;
    let mut seen = false;
    for _ in 0..200 {
        let ex = t.command("alice", "/roll expression:1d20").await.unwrap();
        let out = ex.single();
        let d = description(out);
        if d.contains("**20**★") {
            assert!(out.title().ends_with(" · natural 20"), "{}", out.title());
            assert_eq!(out.title(), "🎲 20 · natural 20");
            seen = true;
            break;
        }
        assert!(!out.title().contains("natural 20"), "{d}");
    }
    assert!(seen, "no natural 20 in 200 seeded rolls");
    t.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn errors_point_at_the_text_as_typed() {
    let t = table("roll-errors", 1).await;
    for (expr, needle) in [
        ("\"1 0d6\"", "Unexpected `0` at position 3"),
        ("\"2d6 + ü\"", "Unexpected `ü` at position 7"),
        ("21#1d6", "repeats go from 1 to 20"),
        ("1d6rr<7", "rerolls every face of a d6"),
    ] {
        let ex = t
            .command("alice", &format!("/roll expression:{expr}"))
            .await
            .unwrap();
        let out = ex.single();
        assert_eq!(out.kind, "ephemeral", "{expr}");
        assert!(out.content().contains(needle), "{expr}: {}", out.content());
    }
    t.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn odds_of_any_expression() {
    let t = table("roll-odds", 1).await;
    let ex = t
        .command("alice", "/odds roll expression:4d6kh3")
        .await
        .unwrap();
    let out = ex.single();
    // 15869 / 1296 = 12.2446…
    assert!(out.field("Average").unwrap().starts_with("**12.245**"));
    let ex = t
        .command("alice", "/odds roll expression:\"1d20 + 5 >= 15\"")
        .await
        .unwrap();
    let out = ex.single();
    assert_eq!(out.field("Chance of ≥ 15").unwrap(), "**55.00%**");
    assert_eq!(out.title(), "🎯 Odds · 1d20 + 5 >= 15");
    let ex = t
        .command("alice", "/odds roll expression:4d6!kh3")
        .await
        .unwrap();
    assert_eq!(ex.single().kind, "ephemeral");
    assert!(ex.single().content().contains("exploding"));
    assert_schema_clean(&t);
    t.stop().await;
}

/// The custom_id of the select menu whose placeholder is `placeholder`
/// on `out`, and its option values.
fn select_of(out: &kismet::fake::table::Output, placeholder: &str) -> (String, Vec<String>) {
    let rows = out.body["components"]
        .as_array()
        .cloned()
        .unwrap_or_default();
    for row in rows {
        for c in row["components"].as_array().cloned().unwrap_or_default() {
            if c["type"] == 3 && c["placeholder"] == placeholder {
                let values = c["options"]
                    .as_array()
                    .unwrap()
                    .iter()
                    .map(|o| o["value"].as_str().unwrap().to_string())
                    .collect();
                return (c["custom_id"].as_str().unwrap().to_string(), values);
            }
        }
    }
    panic!("no select `{placeholder}` in {}", out.text());
}

/// Issue 31 item 1: `/roll expression: save:` saves while rolling, and
/// `/rolls` lists the saved rolls on a private card that rolls or forgets
/// one (in place of `/rolls save|list|forget`); only its owner may pick.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn named_rolls_are_saved_listed_rolled_and_forgotten_per_member() {
    let t = table("roll-named", 4).await;
    let ex = t
        .command("alice", "/roll expression:\"8d6 [fire]\" save:Fireball")
        .await
        .unwrap();
    assert_eq!(ex.outputs.len(), 2, "{:?}", ex.outputs);
    assert_eq!(ex.outputs[0].kind, "message");
    assert_eq!(author(&ex.outputs[0]), "alice · 8d6 [fire]");
    let saved = &ex.outputs[1];
    assert_eq!(saved.kind, "ephemeral");
    assert!(
        saved.text().contains("Saved **Fireball**"),
        "{}",
        saved.text()
    );
    // A bad expression is refused with the parser's reason; nothing saved
    // or rolled.
    let ex = t
        .command("alice", "/roll expression:3d save:Broken")
        .await
        .unwrap();
    assert!(ex.single().content().contains("needs a number of sides"));
    let ex = t
        .command("alice", "/roll name:Fireball save:Other")
        .await
        .unwrap();
    assert!(ex
        .single()
        .content()
        .contains("Give `expression:` with `save:`"));

    // Autocomplete offers alice's rolls, not to bob.
    let choices = t
        .autocomplete("alice", "/roll name:fire", "name")
        .await
        .unwrap();
    assert_eq!(choices.len(), 1, "{choices:?}");
    assert_eq!(choices[0]["value"], "Fireball");
    assert!(t
        .autocomplete("bob", "/roll name:fire", "name")
        .await
        .unwrap()
        .is_empty());

    // Rolled by name (any case), like /roll expression:.
    let ex = t.command("alice", "/roll name:fireball").await.unwrap();
    let out = ex.single();
    assert_eq!(out.kind, "message");
    assert_eq!(author(out), "alice · 8d6 [fire]");
    let ex = t.command("bob", "/roll name:Fireball").await.unwrap();
    assert!(ex.single().content().contains("no saved roll named"));
    let ex = t.command("alice", "/roll").await.unwrap();
    assert!(ex.single().content().contains("either `expression:`"));

    let ex = t.command("alice", "/rolls").await.unwrap();
    let card = ex.single();
    assert_eq!(card.kind, "ephemeral");
    let text = card.text();
    assert!(
        text.contains("(1 of 50)") && text.contains("**Fireball**: `8d6 [fire]`"),
        "{text}"
    );
    // Roll from the card: a public roll, as `/roll name:` gives.
    let ex = t
        .select("alice", "Roll a saved roll…", &["Fireball".into()])
        .await
        .unwrap();
    let out = ex.single();
    assert_eq!(out.kind, "message", "{}", out.text());
    assert_eq!(author(out), "alice · 8d6 [fire]");

    // The cap: 50 per member.
    for i in 1..50 {
        t.command("alice", &format!("/roll expression:1d{i} save:r{i}"))
            .await
            .unwrap();
    }
    let ex = t
        .command("alice", "/roll expression:1d6 save:one-more")
        .await
        .unwrap();
    assert!(
        ex.single().content().contains("50 saved rolls"),
        "{}",
        ex.single().content()
    );
    // Replacing one is still allowed at the cap.
    let ex = t
        .command("alice", "/roll expression:10d6 save:FIREBALL")
        .await
        .unwrap();
    assert!(ex.outputs[1].text().contains("Replaced"));

    // Bob cannot pick in alice's card: nothing is forgotten.
    let ex = t.command("alice", "/rolls").await.unwrap();
    let card = ex.single().clone();
    assert!(card.text().contains("(50 of 50)"), "{}", card.text());
    let (forget_id, values) = select_of(&card, "Forget a saved roll…");
    // 50 rolls: the first page holds 23 and a "more" option.
    assert_eq!(values.len(), 24, "{values:?}");
    assert!(values.last().unwrap().starts_with("page:"), "{values:?}");
    let message = card.message_id.expect("the card's message");
    let ex = t
        .click_custom_id("bob", message, &forget_id, Some(&["FIREBALL".into()]))
        .await
        .unwrap();
    let out = ex.single();
    assert_eq!(out.kind, "ephemeral");
    assert!(out.content().contains("another member's"), "{}", out.text());
    let ex = t.command("alice", "/roll name:fireball").await.unwrap();
    assert_eq!(ex.single().kind, "message");

    // The next page of the Forget select, then alice forgets one.
    let ex = t
        .select("alice", "Forget a saved roll…", &["page:1".into()])
        .await
        .unwrap();
    let (_, values) = select_of(ex.single(), "Forget a saved roll…");
    assert!(values.first().unwrap().starts_with("page:0"), "{values:?}");
    let ex = t
        .select("alice", "Forget a saved roll…", &["FIREBALL".into()])
        .await
        .unwrap();
    let out = ex.single();
    assert_eq!(out.kind, "update", "{}", out.text());
    assert!(
        out.text().contains("Forgot **FIREBALL**") && out.text().contains("(49 of 50)"),
        "{}",
        out.text()
    );
    let ex = t.command("alice", "/roll name:fireball").await.unwrap();
    assert!(ex.single().content().contains("no saved roll named"));
    assert_schema_clean(&t);
    t.stop().await;
}

/// Issue 29 item 9: a reroll-once on every face always ends (each die is
/// thrown again once and the second face stands); `rr` on every face is
/// still refused.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_reroll_once_on_every_face_is_rolled() {
    let t = table("roll-ro-every", 5).await;
    let ex = t
        .command("alice", "/roll expression:10d1ro<2")
        .await
        .unwrap();
    let out = ex.single();
    assert_eq!(out.kind, "message", "{}", out.content());
    assert_eq!(author(out), "alice · 10d1ro<2");
    assert_eq!(number_after(&out.title(), "🎲 "), 10);
    let ex = t
        .command("alice", "/roll expression:10d1rr<2")
        .await
        .unwrap();
    assert_eq!(ex.single().kind, "ephemeral");
    assert!(ex
        .single()
        .content()
        .contains("rerolls every face of a d1: it would never stop"));
    t.stop().await;
}

/// Issue 29 item 20: an expression whose odds would take too long is
/// refused at once, privately, naming the limit; nothing is posted.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn odds_too_large_are_refused_naming_the_limit() {
    let t = table("roll-odds-huge", 1).await;
    let ex = t
        .command("alice", "/odds roll expression:11d1000*11d1000")
        .await
        .unwrap();
    let out = ex.single();
    assert_eq!(out.kind, "ephemeral");
    assert!(
        out.content()
            .contains("it would take 121000000 steps, and the limit is 100000000"),
        "{}",
        out.content()
    );
    let ex = t
        .command("alice", "/odds roll expression:1d1000*1d1000")
        .await
        .unwrap();
    assert!(
        ex.single()
            .content()
            .contains("1000000 different totals, and the limit is 200000"),
        "{}",
        ex.single().content()
    );
    t.stop().await;
}

/// Issue 30 item 3: what one `/roll` costs the database, counted by the
/// storage layer (`Db::round_trips`: each `BEGIN`, statement, `COMMIT`).
/// It was eight: `BEGIN`, three `INSERT`s (session, log, faces),
/// `COMMIT`, two `SELECT`s for the answer (is the session secret? the
/// channel's verbosity) and the `UPDATE` that records the message id.
/// The roll knows its session is not secret (it just created it openly),
/// so the answer reads only the channel's verbosity.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_roll_costs_few_round_trips() {
    let t = table("roll-trips", 7).await;
    let db = t.db().await.unwrap();
    // The first interaction of a guild may set things up: not counted.
    t.command("alice", "/roll expression:1d6").await.unwrap();
    let before = db.round_trips();
    let ex = t.command("alice", "/roll expression:3d6+2").await.unwrap();
    let after = db.round_trips();
    assert_eq!(ex.single().kind, "message");
    assert_eq!(after - before, 7, "round trips of one /roll");
    // Its Reroll button still works (the session and its message are known).
    let ex = t.click("alice", "Reroll").await.unwrap();
    assert!(
        ex.single().title().contains("🎲"),
        "{}",
        ex.single().title()
    );
    assert_schema_clean(&t);
}

/// A refusal naming the roller shows their display name as typed:
/// `bo_b*` does not open italics.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_reroll_refusal_names_the_roller_as_typed() {
    let t = table("roll-name", 7).await;
    t.command("bo_b*", "/roll expression:2d6").await.unwrap();
    let ex = t.click("alice", "Reroll").await.unwrap();
    let refusal = ex.single();
    assert_eq!(refusal.kind, "ephemeral");
    assert!(
        refusal
            .content()
            .contains(r"Only bo\_b\* (or the FC) can reroll this."),
        "{}",
        refusal.content()
    );
    t.stop().await;
}
