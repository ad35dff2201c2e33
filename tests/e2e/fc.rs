//! The FC's table controls: `/fc role`, house rules (`/fc settings show`,
//! `/fc set` with autocomplete, `/fc channel-system`), and secret rolls
//! (`secret:true`, `/fc gm-channel`).

use crate::common::{assert_schema_clean, table};
use kismet::app::settings::{self as app_settings, GuildSettings};
use kismet::fake::table::{Exchange, Output, Table, CHANNEL_ID, GUILD_ID};
use kismet::rules::storyteller::StorytellerSettings;
use kismet::rules::venus::{Edition, VenusSettings};
use serde_json::Value;

const G: i64 = GUILD_ID as i64;

async fn run(t: &Table, who: &str, line: &str) -> Exchange {
    t.command(who, line)
        .await
        .unwrap_or_else(|e| panic!("{line}: {e}"))
}

/// Runs a command answered by one public message.
async fn public(t: &Table, who: &str, line: &str) -> Output {
    let ex = run(t, who, line).await;
    let out = ex.single().clone();
    assert_eq!(out.kind, "message", "{line}: {}", out.text());
    out
}

/// Runs a command answered by one private message.
async fn private(t: &Table, who: &str, line: &str) -> Output {
    let ex = run(t, who, line).await;
    let out = ex.single().clone();
    assert_eq!(out.kind, "ephemeral", "{line}: {}", out.text());
    out
}

/// Runs a command that must be refused privately with `needle` in the text.
async fn refused(t: &Table, who: &str, line: &str, needle: &str) {
    let out = private(t, who, line).await;
    assert!(
        out.text().contains(needle),
        "{line}: expected `{needle}` in {}",
        out.text()
    );
}

async fn guild(t: &Table) -> GuildSettings {
    let db = t.db().await.unwrap();
    let mut tx = db.read().await.unwrap();
    app_settings::guild(&mut tx, G).await.unwrap()
}

async fn storyteller(t: &Table) -> StorytellerSettings {
    let db = t.db().await.unwrap();
    let mut tx = db.read().await.unwrap();
    app_settings::scoped(&mut tx, G, "storyteller")
        .await
        .unwrap()
}

async fn log_actions(t: &Table) -> Vec<String> {
    let db = t.db().await.unwrap();
    let mut tx = db.read().await.unwrap();
    let f = kismet::storage::history::Filter {
        guild_id: G,
        ..Default::default()
    };
    kismet::storage::history::newest(&mut tx, &f, 500, 0)
        .await
        .unwrap()
        .into_iter()
        .map(|r| r.entry.label())
        .collect()
}

fn choice_values(choices: &[Value]) -> Vec<String> {
    choices
        .iter()
        .map(|c| c["value"].as_str().unwrap_or("").to_string())
        .collect()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_server_manager_names_the_fc_role_and_its_members_change_house_rules() {
    let t = table("fc-role", 1).await;
    let gms = Table::role_id("GMs");
    // Anyone may ask who the FC is.
    let out = private(&t, "bob", "/fc role").await;
    assert!(out
        .text()
        .contains("members with the Manage Server permission"));
    // A player can neither name the role nor change a house rule; nothing changes.
    refused(
        &t,
        "bob",
        "/fc role role:GMs",
        "Only a server manager (the Manage Server permission) can name the FC role.",
    )
    .await;
    refused(
        &t,
        "bob",
        "/fc set name:st_default_difficulty value:8",
        "Only the FC can change the house rules: that is members with the Manage Server permission (a server manager can name an FC role with `/fc role`).",
    )
    .await;
    assert_eq!(guild(&t).await, GuildSettings::default());
    assert_eq!(storyteller(&t).await, StorytellerSettings::default());

    // Carol holds the GMs role but not Manage Server: not the FC yet.
    t.set_roles("carol", &[gms]);
    refused(
        &t,
        "carol",
        "/fc set name:st_default_difficulty value:8",
        "Only the FC can change the house rules",
    )
    .await;
    let out = public(&t, "fc", "/fc role role:GMs").await;
    assert_eq!(out.title(), "🎭 FC role");
    assert!(out.text().contains(&format!(
        "The FC is now: members with the <@&{gms}> role or the Manage Server permission."
    )));
    assert_eq!(guild(&t).await.fc_role, Some(gms as i64));

    // Now carol is the FC: house rules, system settings, the GM channel.
    let out = public(&t, "carol", "/fc set name:st_default_difficulty value:8").await;
    assert_eq!(out.title(), "⚙️ House rule changed · Storyteller");
    assert!(out.text().contains("**st_default_difficulty**: 6 → **8**"));
    assert!(out.text().contains("Changed by carol"));
    assert_eq!(storyteller(&t).await.st_default_difficulty, 8);
    public(
        &t,
        "carol",
        "/vr-gm settings set name:vr_locked_slot value:success",
    )
    .await;
    private(&t, "carol", "/fc gm-channel channel:#gm").await;
    // ...but naming the role stays with server managers.
    refused(&t, "carol", "/fc role clear:true", "Only a server manager").await;
    // Bob's refusal now says who can.
    refused(
        &t,
        "bob",
        "/fc set name:st_default_difficulty value:9",
        &format!("Only the FC can change the house rules: that is members with the <@&{gms}> role or the Manage Server permission."),
    )
    .await;
    assert_eq!(storyteller(&t).await.st_default_difficulty, 8);
    refused(&t, "fc", "/fc role role:GMs clear:true", "not both").await;

    // Forgetting the role takes carol's rights away again.
    let out = public(&t, "fc", "/fc role clear:true").await;
    assert!(out.text().contains("no FC role named"));
    assert_eq!(guild(&t).await.fc_role, None);
    refused(
        &t,
        "carol",
        "/fc set name:st_default_difficulty value:7",
        "Only the FC",
    )
    .await;
    assert_eq!(storyteller(&t).await.st_default_difficulty, 8);
    assert!(log_actions(&t).await.iter().any(|a| a == "fc_role"));
    assert_schema_clean(&t);
    t.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_changed_house_rule_applies_from_the_next_roll() {
    let t = table("fc-next-roll", 3).await;
    let out = public(&t, "alice", "/st pool dice:5").await;
    assert!(
        out.field("Pool").unwrap().ends_with("· difficulty 6"),
        "{}",
        out.text()
    );
    public(&t, "fc", "/fc set name:st_default_difficulty value:8").await;
    let out = public(&t, "alice", "/st pool dice:5").await;
    assert!(
        out.field("Pool").unwrap().ends_with("· difficulty 8"),
        "{}",
        out.text()
    );

    // Veracity: a locked slot fails, then succeeds (A-R1): the chance moves.
    public(
        &t,
        "alice",
        "/vr sheet create name:Ada light:6 flesh:6 facet:Cruel",
    )
    .await;
    let before = public(&t, "alice", "/vr save inventory:light").await;
    assert_eq!(
        before.embeds()[0]["footer"]["text"],
        "Chance before rolling 30%"
    );
    let out = public(&t, "fc", "/fc set name:vr_locked_slot value:success").await;
    assert!(out
        .text()
        .contains("**vr_locked_slot**: fail → **success**"));
    let after = public(&t, "alice", "/vr save inventory:light").await;
    assert_eq!(
        after.embeds()[0]["footer"]["text"],
        "Chance before rolling 90%"
    );

    // The shared dice cap and session timeout.
    public(&t, "fc", "/fc set name:max_dice_per_roll value:10").await;
    refused(&t, "alice", "/st pool dice:11", "10").await;
    public(&t, "alice", "/st pool dice:10").await;
    public(&t, "fc", "/fc set name:session_timeout_minutes value:2").await;
    public(&t, "alice", "/roll expression:1d6").await;
    let db = t.db().await.unwrap();
    let mut tx = db.read().await.unwrap();
    let willpower_timeout = app_settings::guild(&mut tx, G).await.unwrap();
    assert_eq!(willpower_timeout.session_timeout_minutes, 2);
    drop(tx);
    public(&t, "alice", "/st sheet create name:Ann willpower:5").await;
    let before = kismet::storage::now_ms();
    let ex = run(&t, "alice", "/st willpower").await;
    let id = kismet::app::component::ButtonId::parse(&ex.single().buttons()[0].1)
        .unwrap()
        .session;
    let mut tx = db.read().await.unwrap();
    let s = kismet::storage::sessions::get(&mut tx, G, id)
        .await
        .unwrap()
        .expect("the willpower session");
    let left = s.expires_at.unwrap() - before;
    assert!((60_000..=125_000).contains(&left), "{left} ms");
    drop(tx);
    assert_schema_clean(&t);
    t.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn house_rules_are_validated_shown_and_autocompleted() {
    let t = table("fc-settings", 1).await;
    // Names: every system's and the shared ones.
    let names = choice_values(
        &t.autocomplete("fc", "/fc set name:locked value:x", "name")
            .await
            .unwrap(),
    );
    assert_eq!(names, vec!["vr_locked_slot"]);
    let names = choice_values(
        &t.autocomplete("fc", "/fc set name:tim value:x", "name")
            .await
            .unwrap(),
    );
    assert_eq!(names, vec!["session_timeout_minutes"]);
    let all = t
        .autocomplete("fc", "/fc set name:_ value:x", "name")
        .await
        .unwrap();
    assert_eq!(all.len(), 25);
    for prefix in ["ve2_", "st_", "vv_", "gm"] {
        let c = t
            .autocomplete("fc", &format!("/fc set name:{prefix} value:x"), "name")
            .await
            .unwrap();
        assert!(!c.is_empty(), "{prefix}");
    }
    // Values: the current one first, then the others.
    let values = t
        .autocomplete("fc", "/fc set name:vr_locked_slot value:", "value")
        .await
        .unwrap();
    assert_eq!(values[0]["name"], "fail (current)");
    assert_eq!(choice_values(&values), vec!["fail", "success"]);
    let values = choice_values(
        &t.autocomplete("fc", "/fc set name:st_default_difficulty value:1", "value")
            .await
            .unwrap(),
    );
    assert_eq!(values, vec!["10"]);
    let values = choice_values(
        &t.autocomplete("fc", "/fc set name:system value:", "value")
            .await
            .unwrap(),
    );
    assert_eq!(
        values,
        vec!["none", "venus", "veracity", "storyteller", "ore"]
    );
    let values = choice_values(
        &t.autocomplete("fc", "/fc set name:ve_edition value:", "value")
            .await
            .unwrap(),
    );
    assert_eq!(values, vec!["2", "1"]);
    let values = t
        .autocomplete("fc", "/fc set name:nonsense value:", "value")
        .await
        .unwrap();
    assert!(values.is_empty());

    // Bad names and values are refused; nothing changes.
    refused(
        &t,
        "fc",
        "/fc set name:st_default_difficulty value:11",
        "st_default_difficulty must be a whole number from 2 to 10.",
    )
    .await;
    refused(
        &t,
        "fc",
        "/fc set name:vv_tie_break value:coin",
        "vv_tie_break must be one of",
    )
    .await;
    refused(
        &t,
        "fc",
        "/fc set name:ve_edition value:3",
        "must be 1 or 2",
    )
    .await;
    refused(
        &t,
        "fc",
        "/fc set name:volume value:11",
        "There is no setting called `volume`",
    )
    .await;
    refused(
        &t,
        "fc",
        "/fc set name:session_timeout_minutes value:0",
        "from 1 to 1440",
    )
    .await;
    refused(
        &t,
        "fc",
        "/fc set name:max_dice_per_roll value:501",
        "from 1 to 500",
    )
    .await;
    refused(
        &t,
        "fc",
        "/fc set name:system value:gurps",
        "`system` must be",
    )
    .await;
    refused(
        &t,
        "fc",
        "/fc set name:gm_channel value:general",
        "`gm_channel` must be",
    )
    .await;
    assert_eq!(guild(&t).await, GuildSettings::default());
    assert_eq!(storyteller(&t).await, StorytellerSettings::default());

    // Every setting takes every suggested value (and keeps the last).
    let names: Vec<&str> = kismet::systems::fc::catalog::all_names(&kismet::systems::registry());
    for name in names {
        let values = choice_values(
            &t.autocomplete("fc", &format!("/fc set name:{name} value:"), "value")
                .await
                .unwrap(),
        );
        assert!(!values.is_empty(), "{name}");
        for v in values.iter().rev() {
            let line = format!("/fc set name:{name} value:\"{v}\"");
            let out = public(&t, "fc", &line).await;
            assert!(out.title().starts_with("⚙️ House rule changed"), "{line}");
        }
    }
    // The Venus settings live in the `venus` scope the Venus Engine reads.
    public(&t, "fc", "/fc set name:ve_edition value:1").await;
    let db = t.db().await.unwrap();
    let mut tx = db.read().await.unwrap();
    let ve: VenusSettings = app_settings::scoped(&mut tx, G, "venus").await.unwrap();
    assert_eq!(ve.ve_edition, Edition::One);
    drop(tx);
    public(&t, "fc", "/fc set name:system value:VV").await;
    assert_eq!(guild(&t).await.system.as_deref(), Some("ore"));
    public(
        &t,
        "fc",
        "/fc set name:st_custom_traits value:\"Hacking:skill, Lore:knowledge\"",
    )
    .await;

    // The overview: five embeds within Discord's limits, privately.
    let out = private(&t, "alice", "/fc settings show").await;
    let embeds = out.embeds();
    assert_eq!(embeds.len(), 5);
    let total: usize = embeds
        .iter()
        .map(|e| {
            e["title"].as_str().unwrap_or("").chars().count()
                + e["description"].as_str().unwrap_or("").chars().count()
                + e["footer"]["text"].as_str().unwrap_or("").chars().count()
        })
        .sum();
    assert!(total < 6000, "{total} characters");
    let text = out.text();
    for name in kismet::systems::fc::catalog::all_names(&kismet::systems::registry()) {
        assert!(text.contains(&format!("`{name}`")), "{name} missing");
    }
    assert!(text.contains("`system` **ore**"));
    assert!(text.contains("`ve_edition` **1**"));
    assert!(text.contains("**This channel plays**: Virtual Veil (the server's)"));
    // One system in detail, with help.
    let out = private(&t, "alice", "/fc settings show scope:Storyteller").await;
    assert_eq!(out.title(), "⚙️ House rules · Storyteller");
    let field = out.field("st_custom_traits").unwrap();
    assert!(
        field.starts_with("**Hacking:skill, Lore:knowledge**\nExtra traits"),
        "{field}"
    );
    // A system's house rules say how its own game master changes them
    // (the storyteller has `/st-gm`, not always `/fc`), in its own word.
    assert_eq!(
        out.embeds()[0]["footer"]["text"],
        "The storyteller changes one with /st-gm settings set name:<setting> value:<value>."
    );
    let out = private(
        &t,
        "alice",
        "/fc settings show scope:\"Every system (shared)\"",
    )
    .await;
    assert_eq!(
        out.embeds()[0]["footer"]["text"],
        "The FC changes one with /fc set name:<setting> value:<value>."
    );
    assert_schema_clean(&t);
    t.stop().await;
}

async fn active(t: &Table, channel: u64) -> Option<String> {
    let db = t.db().await.unwrap();
    let mut tx = db.read().await.unwrap();
    let caller = kismet::app::Caller {
        guild_id: G,
        channel_id: channel as i64,
        ..Default::default()
    };
    app_settings::active_system(&mut tx, &caller).await.unwrap()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_channel_can_play_another_system_than_the_server() {
    let t = table("fc-channel", 1).await;
    assert_eq!(active(&t, CHANNEL_ID).await, None);
    refused(
        &t,
        "bob",
        "/fc channel-system system:Veracity",
        "Only the FC can choose this channel's system",
    )
    .await;
    public(&t, "fc", "/fc set name:system value:storyteller").await;
    let out = public(&t, "fc", "/fc channel-system system:\"Virtual Veil\"").await;
    assert!(out
        .text()
        .contains("This channel now plays **Virtual Veil** (the server's system: Storyteller)."));
    assert_eq!(active(&t, CHANNEL_ID).await.as_deref(), Some("ore"));
    let other = t.channel_id_of("#tavern");
    assert_eq!(active(&t, other).await.as_deref(), Some("storyteller"));
    let out = private(&t, "alice", "/fc settings show").await;
    assert!(out
        .text()
        .contains("**This channel plays**: Virtual Veil (this channel's choice)"));
    let out = public(&t, "fc", "/fc channel-system system:none").await;
    assert!(out
        .text()
        .contains("This channel follows the server's system again: **Storyteller**."));
    assert_eq!(active(&t, CHANNEL_ID).await.as_deref(), Some("storyteller"));
    assert_schema_clean(&t);
    t.stop().await;
}

/// The stored messages in a channel: (id, visible only to, body).
fn messages_in(t: &Table, channel: u64) -> Vec<kismet::fake::StoredMessage> {
    t.fake
        .messages()
        .into_iter()
        .filter(|m| m.channel_id == channel)
        .collect()
}

fn embeds_of(body: &Value) -> Value {
    body["embeds"].clone()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_secret_roll_reaches_only_the_roller_and_the_fc_and_both_copies_work() {
    let t = table("fc-secret", 5).await;
    // No GM channel: refused, nothing rolled or logged.
    refused(
        &t,
        "alice",
        "/roll expression:2d6 secret:true",
        "No GM channel is set, so a secret roll has nowhere to go and nothing was rolled.",
    )
    .await;
    assert!(log_actions(&t).await.is_empty());
    refused(
        &t,
        "bob",
        "/fc gm-channel channel:#gm",
        "Only the FC can choose the GM channel",
    )
    .await;
    let out = private(&t, "fc", "/fc gm-channel").await;
    assert!(out.text().contains("No GM channel is set"));
    let gm = t.channel_id_of("#gm");
    let out = private(&t, "fc", "/fc gm-channel channel:#gm").await;
    assert!(out
        .text()
        .contains(&format!("Secret rolls now go to <#{gm}>")));
    assert_eq!(guild(&t).await.gm_channel, Some(gm as i64));

    // The roll: a private copy for alice, a copy in the GM channel, nothing public.
    let public_before = messages_in(&t, CHANNEL_ID)
        .iter()
        .filter(|m| m.ephemeral_to.is_none())
        .count();
    let ex = run(&t, "alice", "/roll expression:2d6 secret:true").await;
    assert_eq!(ex.outputs.len(), 2, "{:#?}", ex.outputs);
    let copy = ex.of_kind("channel").expect("a copy in the GM channel");
    assert_eq!(
        copy.content(),
        format!("🤫 Secret roll by **alice** in <#{CHANNEL_ID}>")
    );
    let mine = ex.of_kind("ephemeral").expect("alice's private copy");
    assert!(mine
        .content()
        .contains("🤫 **Secret roll**: only you and the game master (FC) see it."));
    // Issue 16: who rolled what is the author line; the title is the total.
    assert_eq!(mine.embeds()[0]["author"]["name"], "alice · 2d6");
    assert_eq!(embeds_of(&mine.body), embeds_of(&copy.body));
    assert_eq!(mine.buttons()[0].1, "roll:1:0:reroll");
    assert_eq!(copy.buttons()[0].1, "roll:1:0:reroll");
    assert_eq!(
        messages_in(&t, CHANNEL_ID)
            .iter()
            .filter(|m| m.ephemeral_to.is_none())
            .count(),
        public_before
    );
    assert_eq!(messages_in(&t, gm).len(), 1);
    // Bob sees no button to press.
    assert!(t.click("bob", "Reroll").await.is_err());

    // Alice rerolls on her copy: hers updates, the FC's copy follows.
    let ex = t.click("alice", "Reroll").await.unwrap();
    let up = ex.of_kind("update").unwrap();
    assert_eq!(up.buttons()[0].1, "roll:1:1:reroll");
    let mirrored = ex.of_kind("channel-update").expect("the GM copy follows");
    assert_eq!(embeds_of(&mirrored.body), embeds_of(&up.body));
    let gm_copy = messages_in(&t, gm).remove(0);
    assert_eq!(
        embeds_of(&gm_copy.body)[0]["footer"]["text"],
        "Rerolled 1 time(s)"
    );
    assert!(gm_copy.body["content"]
        .as_str()
        .unwrap()
        .contains("Secret roll by"));

    // The FC rerolls on the GM copy: it updates there, and alice's copy follows.
    t.set_channel(gm);
    let ex = t.click("fc", "Reroll").await.unwrap();
    let up = ex.of_kind("update").unwrap();
    assert!(up.text().contains("Rerolled 2 time(s)"));
    // A stale click on the FC's copy changes nothing (version 1 is gone).
    let ex = t
        .click_custom_id("fc", gm_copy.id, "roll:1:1:reroll", None)
        .await
        .unwrap();
    assert!(ex
        .of_kind("update")
        .unwrap()
        .text()
        .contains("Rerolled 2 time(s)"));
    t.set_channel(CHANNEL_ID);
    let alice_copy = t
        .fake
        .messages()
        .into_iter()
        .find(|m| {
            m.ephemeral_to == Some(Table::user_id("alice"))
                && m.body["content"]
                    .as_str()
                    .is_some_and(|c| c.contains("Secret roll"))
        })
        .expect("alice's private copy");
    assert_eq!(embeds_of(&alice_copy.body), embeds_of(&up.body));
    assert_eq!(
        alice_copy.body["components"][0]["components"][0]["custom_id"],
        "roll:1:2:reroll"
    );

    // A restart in the middle: both copies keep working.
    t.restart().await.unwrap();
    let ex = t.click("alice", "Reroll").await.unwrap();
    assert!(ex
        .of_kind("update")
        .unwrap()
        .text()
        .contains("Rerolled 3 time(s)"));
    assert!(ex.of_kind("channel-update").is_some());

    // The log hides it from other players, not from alice or the FC.
    let actions = log_actions(&t).await;
    assert!(actions.contains(&"secret roll".to_string()), "{actions:?}");
    assert_eq!(actions.iter().filter(|a| *a == "secret reroll").count(), 3);
    let out = private(&t, "bob", "/history show user:alice").await;
    assert!(!out.text().contains("secret"), "{}", out.text());
    assert!(out.text().contains("Nothing logged"), "{}", out.text());
    let out = private(&t, "alice", "/history show").await;
    assert!(out.text().contains("secret roll"), "{}", out.text());
    let out = private(&t, "fc", "/history show user:alice").await;
    assert!(out.text().contains("secret roll"), "{}", out.text());
    assert!(out.text().contains("secret reroll"), "{}", out.text());
    // Nor do the dice counts give it away.
    let out = run(&t, "bob", "/stats user:alice").await;
    assert!(
        out.single().text().contains("No dice recorded yet"),
        "{}",
        out.single().text()
    );
    let out = run(&t, "fc", "/stats user:alice").await;
    assert!(
        out.single().text().contains("**6** dice recorded (d6)"),
        "{}",
        out.single().text()
    );

    // Clearing the GM channel refuses secret rolls again.
    private(&t, "fc", "/fc gm-channel clear:true").await;
    refused(
        &t,
        "alice",
        "/roll expression:1d6 secret:true",
        "No GM channel is set",
    )
    .await;
    assert_schema_clean(&t);
    t.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn every_system_rolls_secretly_with_working_buttons() {
    let t = table("fc-secret-systems", 9).await;
    let gm = t.channel_id_of("#gm");
    private(&t, "fc", "/fc gm-channel channel:#gm").await;

    // Storyteller: a willpower roll waits for a choice on either copy.
    public(&t, "alice", "/st sheet create name:Ann willpower:5").await;
    // Difficulty 9: fewer successes than buying gives, so it is offered.
    let ex = run(&t, "alice", "/st willpower difficulty:9 secret:true").await;
    let mine = ex.of_kind("ephemeral").unwrap();
    let copy = ex.of_kind("channel").unwrap();
    let labels: Vec<String> = mine.buttons().into_iter().map(|b| b.0).collect();
    assert!(labels.contains(&"Keep".to_string()), "{labels:?}");
    assert_eq!(mine.buttons(), copy.buttons());
    let ex = t.click("alice", "Keep").await.unwrap();
    assert!(ex.of_kind("update").is_some());
    assert!(ex.of_kind("channel-update").is_some());
    for line in [
        "/st roll traits:\"Wits + Alertness\" secret:true",
        "/st pool dice:4 secret:true",
    ] {
        let ex = run(&t, "alice", line).await;
        assert!(ex.of_kind("ephemeral").is_some(), "{line}");
        assert!(ex.of_kind("channel").is_some(), "{line}");
        assert!(ex.of_kind("message").is_none(), "{line}");
    }

    // Veracity: a save has no buttons; it is private and copied.
    public(
        &t,
        "alice",
        "/vr sheet create name:Ada light:6 flesh:6 facet:Cruel",
    )
    .await;
    let ex = run(
        &t,
        "alice",
        "/vr save inventory:flesh facet:Cruel secret:true",
    )
    .await;
    assert_eq!(
        ex.of_kind("ephemeral").unwrap().title(),
        ex.of_kind("channel").unwrap().title()
    );
    assert!(ex.of_kind("message").is_none());

    // Virtual Veil: the FC closes the register from the GM channel.
    run(
        &t,
        "alice",
        "/vv sheet create name:Vee agility:3 wit:4 vitality:4 confidence:3 cyber:2",
    )
    .await;
    let ex = run(&t, "alice", "/vv roll stat:Wit secret:true").await;
    assert!(ex.of_kind("message").is_none());
    let copy = ex.of_kind("channel").unwrap().clone();
    assert!(copy.buttons().iter().any(|b| b.0 == "Close"));
    t.set_channel(gm);
    let ex = t.click("fc", "Close").await.unwrap();
    let up = ex.of_kind("update").unwrap().clone();
    t.set_channel(CHANNEL_ID);
    let alice_copy = t
        .fake
        .messages()
        .into_iter()
        .rev()
        .find(|m| {
            m.ephemeral_to == Some(Table::user_id("alice"))
                && m.body["content"]
                    .as_str()
                    .is_some_and(|c| c.contains("Secret roll"))
        })
        .expect("alice's copy of the register");
    assert_eq!(embeds_of(&alice_copy.body), embeds_of(&up.body));

    let actions = log_actions(&t).await;
    for a in [
        "secret willpower",
        "secret keep",
        "secret roll",
        "secret pool",
        "secret save",
    ] {
        assert!(actions.iter().any(|x| x == a), "{a} not in {actions:?}");
    }
    assert!(
        !actions
            .iter()
            .any(|a| a == "roll" || a == "save" || a == "pool"),
        "{actions:?}"
    );
    let out = private(&t, "bob", "/history show user:alice").await;
    assert!(!out.text().contains("secret"), "{}", out.text());
    assert_schema_clean(&t);
    t.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_fc_example_script_runs_clean() {
    let t = table("fc-example", 1).await;
    let script =
        std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/examples/fc.txt")).unwrap();
    for line in script.lines() {
        if let Some((who, ex)) = t
            .run_line(line)
            .await
            .unwrap_or_else(|e| panic!("{line}: {e}"))
        {
            assert!(!ex.outputs.is_empty(), "{line}: no answer");
            for o in &ex.outputs {
                assert!(
                    !o.text().contains("Something went wrong"),
                    "{who}: {line}: {}",
                    o.text()
                );
            }
        }
    }
    assert_schema_clean(&t);
    t.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_expired_secret_roll_greys_out_both_copies() {
    let mut opts = kismet::fake::table::TableOptions::new(crate::common::db_path("fc-expiry"));
    opts.seed = Some(2);
    opts.config.sessions.sweep_seconds = 1;
    let t = Table::start(opts).await.unwrap();
    let gm = t.channel_id_of("#gm");
    private(&t, "fc", "/fc gm-channel channel:#gm").await;
    run(&t, "alice", "/roll expression:1d20 secret:true").await;
    let db = t.db().await.unwrap();
    let mut tx = db.write().await.unwrap();
    kismet::storage::sessions::set_expiry(&mut tx, G, 1, Some(0))
        .await
        .unwrap();
    tx.commit().await.unwrap();
    let disabled = |m: &kismet::fake::StoredMessage| {
        m.body["components"][0]["components"][0]["disabled"] == Value::Bool(true)
    };
    let both = t
        .fake
        .wait_for(std::time::Duration::from_secs(10), |f| {
            let msgs = f.messages();
            let copy = msgs.iter().find(|m| m.channel_id == gm)?;
            let mine = msgs.iter().find(|m| {
                m.ephemeral_to == Some(Table::user_id("alice"))
                    && m.body["embeds"][0]["title"].is_string()
            })?;
            (disabled(copy) && disabled(mine)).then_some(())
        })
        .await;
    assert!(both.is_some(), "{:#?}", t.fake.messages());
    assert_schema_clean(&t);
    t.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_channel_refuses_the_commands_of_another_system() {
    let t = table("fc-channel-refuse", 1).await;
    public(&t, "fc", "/fc channel-system system:Storyteller").await;
    for line in [
        "/vv sheet create name:Ann",
        "/ve sheet create name:Ada",
        "/vr sheet create name:Vi light:6 flesh:6",
    ] {
        refused(&t, "alice", line, "This channel plays **Storyteller**").await;
    }
    // Nothing was created by the refused commands.
    let db = t.db().await.unwrap();
    let mut tx = db.read().await.unwrap();
    let n = kismet::storage::characters::count_all(&mut tx)
        .await
        .unwrap();
    drop(tx);
    assert_eq!(n, 0);
    // The channel's own system and the system-free commands work.
    let out = run(&t, "alice", "/st sheet create name:Bo willpower:5").await;
    assert!(
        out.single().text().contains("Bo"),
        "{}",
        out.single().text()
    );
    public(&t, "alice", "/roll expression:2d6").await;
    // Another channel follows the server (no system chosen): anything goes.
    t.set_channel(t.channel_id_of("#tavern"));
    let out = run(&t, "alice", "/vv sheet create name:Ann").await;
    assert!(
        out.single().text().contains("Created Ann"),
        "{}",
        out.single().text()
    );
    // The server's system applies where a channel has no choice of its own
    // (its game and the channels' are all the server's picker shows now:
    // issue 31 item 1).
    public(&t, "fc", "/fc set name:system value:venus").await;
    refused(
        &t,
        "alice",
        "/st sheet show",
        "This channel plays **Venus Engine**",
    )
    .await;
    let gone = t.command("alice", "/vv sheet show").await.unwrap_err();
    assert!(gone.contains("no command `/vv`"), "{gone}");
    assert_schema_clean(&t);
    t.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn no_reply_pings_because_of_user_text_and_a_call_pings_only_the_player() {
    let t = table("fc-mentions", 2).await;
    // A name made of mentions is refused before it can be echoed anywhere.
    refused(
        &t,
        "alice",
        "/ve sheet create name:\"@everyone <@111111111111111111>\"",
        "cannot contain mentions",
    )
    .await;
    let out = public(&t, "alice", "/ve sheet create name:Ada").await;
    assert_eq!(out.body["allowed_mentions"]["parse"], serde_json::json!([]));
    private(
        &t,
        "alice",
        "/ve sheet ability name:Finesse rank:silver score:4",
    )
    .await;
    // The FC's call pings the called player, and nobody else.
    let alice = Table::user_id("alice").to_string();
    let out = public(
        &t,
        "fc",
        "/ve-gm fc call player:alice kind:check ability:Finesse difficulty:10",
    )
    .await;
    assert_eq!(out.body["allowed_mentions"]["parse"], serde_json::json!([]));
    assert_eq!(
        out.body["allowed_mentions"]["users"],
        serde_json::json!([alice])
    );
    assert!(out
        .content()
        .starts_with(&format!("<@{alice}> the FC calls on you.")));
    // A player's own check pings nobody.
    let out = public(&t, "alice", "/ve check ability:Finesse difficulty:10").await;
    assert_eq!(out.body["allowed_mentions"]["users"], serde_json::json!([]));
    // Every request of this table (callbacks, follow-ups, edits) carried a
    // parse-nothing allowed_mentions: the fake checks each one.
    assert_schema_clean(&t);
    t.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_secret_roll_is_answered_before_its_gm_copy_is_posted() {
    let t = table("fc-secret-deadline", 3).await;
    private(&t, "fc", "/fc gm-channel channel:#gm").await;
    // The GM channel answers slowly (1.2 s per post).
    t.fake
        .slow_down("/channels/", std::time::Duration::from_millis(1200), 1);
    let seq0 = t.fake.last_seq();
    let ex = t
        .command("alice", "/roll expression:1d20 secret:true")
        .await
        .unwrap();
    assert_eq!(ex.outputs[0].kind, "ephemeral");
    let after = t.fake.requests_since(seq0, |_| true);
    let callback = after
        .iter()
        .find(|r| r.path.ends_with("/callback"))
        .expect("the interaction was answered");
    let post = after
        .iter()
        .find(|r| r.method == "POST" && r.path.contains("/channels/"))
        .expect("the GM copy was posted");
    // Requests are numbered as they complete: the answer did not wait for
    // the slow GM channel.
    assert!(
        callback.seq < post.seq,
        "callback #{} after the GM post #{}",
        callback.seq,
        post.seq
    );
    assert_schema_clean(&t);
    t.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn what_the_fc_does_to_a_secret_roll_stays_secret() {
    let t = table("fc-secret-leaks", 4).await;
    private(&t, "fc", "/fc gm-channel channel:#gm").await;
    public(&t, "alice", "/ve sheet create name:Ada").await;
    private(
        &t,
        "alice",
        "/ve sheet ability name:Finesse rank:silver score:4",
    )
    .await;
    let ex = run(
        &t,
        "alice",
        "/ve check ability:Finesse difficulty:15 consequence:\"The duke finds out\" secret:true",
    )
    .await;
    assert!(ex.of_kind("message").is_none());
    // Everything that acts on the roll afterwards answers privately (and
    // updates the GM channel's copy), never in the table's channel.
    for (who, line) in [
        (
            "alice",
            "/ve bonus name:\"The high ground\" kind:Environment",
        ),
        ("fc", "/ve-gm fc void"),
    ] {
        let ex = run(&t, who, line).await;
        for out in &ex.outputs {
            assert_ne!(out.kind, "message", "{line}: {}", out.text());
            assert!(
                !(out.kind == "ephemeral" && out.to != who),
                "{line}: shown to {}",
                out.to
            );
        }
        assert!(
            !ex.outputs.iter().any(|o| o.text().contains("⚠️")) || line.contains("bonus"),
            "{line}: {:?}",
            ex.outputs.iter().map(|o| o.text()).collect::<Vec<_>>()
        );
    }
    // No other player's history shows any of it.
    let out = private(&t, "bob", "/history show user:@alice").await;
    assert!(!out.text().contains("duke"), "{}", out.text());
    assert!(!out.text().contains("check"), "{}", out.text());
    let db = t.db().await.unwrap();
    let mut tx = db.read().await.unwrap();
    let rows = kismet::storage::history::newest(
        &mut tx,
        &kismet::storage::history::Filter {
            guild_id: G,
            ..Default::default()
        },
        100,
        0,
    )
    .await
    .unwrap();
    drop(tx);
    let venus: Vec<String> = rows
        .iter()
        .filter(|r| r.entry.system == "venus" && r.entry.session_id.is_some())
        .map(|r| r.entry.label())
        .collect();
    assert!(!venus.is_empty());
    assert!(
        venus.iter().all(|a| a.starts_with("secret")),
        "logged in the open: {venus:?}"
    );
    assert_schema_clean(&t);
    t.stop().await;
}

/// No public message in the table's channel, and no private one to anyone
/// but `allowed`.
fn stays_secret(ex: &Exchange, line: &str, allowed: &[&str]) {
    for out in &ex.outputs {
        assert_ne!(out.kind, "message", "{line}: public: {}", out.text());
        if out.kind == "ephemeral" || out.kind == "update" {
            assert!(
                allowed.contains(&out.to.as_str()),
                "{line}: shown to {}",
                out.to
            );
        }
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn secret_rolls_of_every_system_stay_secret_whoever_acts_on_them() {
    let t = table("fc-secret-all", 6).await;
    private(&t, "fc", "/fc gm-channel channel:#gm").await;
    public(&t, "alice", "/st sheet create name:Ann willpower:5").await;
    run(&t, "alice", "/vv sheet create name:Vee wit:6 cyber:3").await;
    public(
        &t,
        "alice",
        "/vr sheet create name:Ada light:6 flesh:6 facet:Cruel",
    )
    .await;
    public(&t, "alice", "/ve sheet create name:Ava").await;
    private(
        &t,
        "alice",
        "/ve sheet ability name:Finesse rank:silver score:4",
    )
    .await;
    private(
        &t,
        "alice",
        "/ve sheet job name:Thief inherits:Finesse level:2",
    )
    .await;

    let starts = [
        "/roll expression:2d6 secret:true",
        "/st willpower secret:true",
        "/st roll traits:\"Wits + Alertness\" secret:true",
        "/vv roll stat:Wit secret:true",
        "/vr save inventory:flesh secret:true",
        "/ve check ability:Finesse difficulty:10 secret:true",
        "/ve task ability:Finesse difficulty:2 secret:true",
    ];
    for line in starts {
        let ex = run(&t, "alice", line).await;
        stays_secret(&ex, line, &["alice"]);
        // Every button of the roll, pressed by a stranger, the FC and the
        // roller (its own copy), answers only privately.
        let buttons: Vec<(String, String)> = ex
            .of_kind("ephemeral")
            .map(|o| o.buttons().into_iter().map(|b| (b.0, b.1)).collect())
            .unwrap_or_default();
        let msg = t.last_message_for("alice").map(|m| m.id).unwrap_or(1);
        for (label, id) in buttons.iter().take(3) {
            for who in ["bob", "fc", "alice"] {
                let ex = t.click_custom_id(who, msg, id, None).await.unwrap();
                stays_secret(
                    &ex,
                    &format!("{line} → {who} clicks {label}"),
                    &[who, "alice"],
                );
            }
        }
    }
    // The commands that act on the newest roll, by the FC and by others.
    for (who, line) in [
        ("fc", "/ve-gm fc adjust difficulty:15"),
        ("alice", "/ve bonus name:Luck kind:Other"),
        ("fc", "/ve-gm fc close"),
        ("fc", "/ve-gm fc void"),
        ("fc", "/vv-gm endround"),
    ] {
        let ex = run(&t, who, line).await;
        for out in &ex.outputs {
            assert!(
                !(out.kind == "message" && out.text().contains("Ava")),
                "{line}: the secret roll in public: {}",
                out.text()
            );
        }
    }
    // Nobody else's history or statistics shows any of it.
    let hist = private(&t, "bob", "/history show user:@alice").await;
    // Only the six sheet edits; no roll, click or command on a roll.
    assert!(hist.text().contains("of the latest 6."), "{}", hist.text());
    for secret in ["2d6", "Wits + Alertness", "check", "task", "save", "vv"] {
        assert!(
            !hist.text().contains(secret),
            "history shows `{secret}`: {}",
            hist.text()
        );
    }
    let stats = run(&t, "bob", "/stats user:@alice").await;
    assert!(
        stats
            .outputs
            .iter()
            .all(|o| !o.text().contains("d20") && !o.text().contains("d10")),
        "{:?}",
        stats.outputs.iter().map(|o| o.text()).collect::<Vec<_>>()
    );
    assert_schema_clean(&t);
    t.stop().await;
}
