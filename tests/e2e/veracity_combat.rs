//! Veracity's combat tracker through the fake Discord (issue 15): the
//! example fight, the tracker's state after each step (initiative, the
//! surprise turn, AP, damage into Wounds, the dead and the fled out of the
//! order, the end), rights (a player cannot advance the round, act out of
//! turn, add or mark combatants or end the fight), a restart mid-combat, and
//! the named causes of Stress.

use crate::common::{assert_schema_clean, table};
use kismet::app::component::ButtonId;
use kismet::fake::table::{Exchange, Output, Table, GUILD_ID};
use kismet::rules::veracity::initiative::Side;
use kismet::rules::veracity::tracker::{Fight, Gone};
use kismet::rules::veracity::{ItemKind, Sheet};
use kismet::storage::sessions::Status;

/// Who counts as the referee on the test server, as every refusal of the
/// referee's actions names them.
const WHO_IS_THE_REFEREE: &str = "that is members with the Manage Server permission (a server manager can name an FC role with `/fc role`).";

async fn run(t: &Table, who: &str, line: &str) -> Exchange {
    t.command(who, line)
        .await
        .unwrap_or_else(|e| panic!("{line}: {e}"))
}

/// A command that changes the fight: a private note, no refusal.
async fn done(t: &Table, who: &str, line: &str) -> String {
    let ex = run(t, who, line).await;
    let out = &ex.outputs[0];
    assert_eq!(out.kind, "ephemeral", "{line}: {}", out.text());
    assert!(out.content().starts_with('✅'), "{line}: {}", out.content());
    out.content().to_string()
}

/// A command answered publicly (a save, a sheet change).
async fn public(t: &Table, who: &str, line: &str) -> Output {
    let ex = run(t, who, line).await;
    let out = ex.outputs[0].clone();
    assert_eq!(out.kind, "message", "{line}: {}", out.text());
    out
}

async fn refused(t: &Table, who: &str, line: &str, needle: &str) {
    let ex = run(t, who, line).await;
    let out = ex.single();
    assert_eq!(out.kind, "ephemeral", "{line}: {}", out.text());
    assert!(
        out.content().contains(needle),
        "{line}: expected `{needle}` in `{}`",
        out.content()
    );
}

async fn click(t: &Table, who: &str, label: &str) -> Exchange {
    t.click(who, label)
        .await
        .unwrap_or_else(|e| panic!("{who} clicks {label}: {e}"))
}

async fn click_refused(t: &Table, who: &str, label: &str, needle: &str) {
    let ex = click(t, who, label).await;
    let note = ex
        .outputs
        .iter()
        .find(|o| o.kind == "ephemeral")
        .unwrap_or_else(|| panic!("{who} clicks {label}: no refusal in {:#?}", ex.outputs));
    assert!(
        note.content().contains(needle),
        "{who} clicks {label}: expected `{needle}` in `{}`",
        note.content()
    );
}

/// The tracker session id from the message `/vr-gm combat start` posted.
/// An embed's author line ("<who> · <what>").
fn author(out: &Output) -> String {
    out.embeds()[0]["author"]["name"]
        .as_str()
        .unwrap_or("")
        .to_string()
}

fn tracker_id(out: &Output) -> i64 {
    let (_, id, _) = out
        .buttons()
        .into_iter()
        .next()
        .expect("the tracker has buttons");
    ButtonId::parse(&id).unwrap().session
}

/// The fight as stored, and its status.
async fn fight(t: &Table, id: i64) -> (Fight, Status) {
    let db = t.db().await.unwrap();
    let mut tx = db.read().await.unwrap();
    let s = kismet::storage::sessions::get(&mut tx, GUILD_ID as i64, id)
        .await
        .unwrap()
        .expect("the tracker session");
    (serde_json::from_str(&s.state).unwrap(), s.status)
}

fn whose(f: &Fight) -> &str {
    f.turns.current_seat().map_or("-", |s| s.name.as_str())
}

fn seat<'a>(
    f: &'a Fight,
    name: &str,
) -> &'a kismet::rules::turns::Seat<kismet::rules::veracity::tracker::Fighter> {
    f.turns
        .by_name(name)
        .unwrap_or_else(|| panic!("{name} is not seated"))
}

async fn sheet(t: &Table, who: &str) -> Sheet {
    let db = t.db().await.unwrap();
    let mut tx = db.read().await.unwrap();
    let row = kismet::storage::characters::active(
        &mut tx,
        GUILD_ID as i64,
        "veracity",
        Table::user_id(who) as i64,
    )
    .await
    .unwrap()
    .unwrap();
    serde_json::from_str(&row.sheet).unwrap()
}

/// The posted tracker's message as stored by the fake, by its session's
/// first button (redrawn in place: the same message).
fn posted_title(t: &Table, message: u64) -> String {
    let m = t.fake.message_object(message).expect("the tracker message");
    m["embeds"][0]["title"].as_str().unwrap_or("").to_string()
}

async fn party(t: &Table) {
    public(
        t,
        "alice",
        "/vr sheet create name:Ada light:6 flesh:6 facet:Cruel",
    )
    .await;
    public(
        t,
        "bob",
        "/vr sheet create name:Bram light:7 flesh:5 facet:Loyal",
    )
    .await;
    public(t, "fc", "/vr sheet edit current:2 max:2 character:Ada").await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_combat_example_plays_clean() {
    let t = table("vrc-example", 1).await;
    let script = std::fs::read_to_string(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/examples/veracity-combat.txt"
    ))
    .unwrap();
    let mut tracker = None;
    for line in script.lines() {
        if let Some((who, ex)) = t
            .run_line(line)
            .await
            .unwrap_or_else(|e| panic!("{line}: {e}"))
        {
            assert!(!ex.outputs.is_empty(), "{line}: no reply");
            for o in &ex.outputs {
                assert!(
                    !o.content().starts_with("⚠️"),
                    "{who}: {line}: refused: {}",
                    o.content()
                );
            }
            if line.contains("/vr-gm combat start") {
                tracker = Some(tracker_id(ex.single()));
            }
        }
    }
    let (f, status) = fight(&t, tracker.unwrap()).await;
    assert_eq!(status, Status::Closed);
    assert!(f.ended);
    assert_eq!(f.turns.round, 2);
    assert_eq!(f.first, Some(Side::Players));
    assert_eq!(seat(&f, "Goblin").data.gone, Some(Gone::Dead));
    assert_eq!(seat(&f, "Bram").data.gone, Some(Gone::Fled));
    assert_eq!(seat(&f, "Bandit").data.wounds, 2);
    let ada = sheet(&t, "alice").await;
    // One Wound from the surprise turn, one HP lost in round 2, one Stress.
    assert_eq!(ada.flesh().count(ItemKind::Wound), 1);
    assert_eq!(ada.hp_current(), 1);
    assert_eq!(ada.light().count(ItemKind::Stress), 1);
    assert_schema_clean(&t);
    t.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_tracker_steps_through_a_fight_with_rights_and_a_restart() {
    let t = table("vrc-steps", 1).await;
    party(&t).await;
    // Only the referee starts a fight, one per channel.
    refused(
        &t,
        "alice",
        "/vr-gm combat start leader:Ada",
        "Only the referee",
    )
    .await;
    refused(
        &t,
        "alice",
        "/vr save inventory:light fight:true",
        "No fight is running",
    )
    .await;
    let ex = run(&t, "fc", "/vr-gm combat start leader:Ada").await;
    let start = ex.single().clone();
    assert_eq!(start.kind, "message");
    assert_eq!(start.title(), "⏳ Waiting for Ada · initiative");
    let id = tracker_id(&start);
    let message = ex.message_id.unwrap();
    refused(
        &t,
        "fc",
        "/vr-gm combat start leader:Ada",
        "already running",
    )
    .await;

    // Setup: Bram joins; players may not seat enemies or NPCs, mark or end.
    refused(
        &t,
        "bob",
        "/vr-gm combat add character:Bram side:enemies",
        "Only the referee",
    )
    .await;
    click(&t, "bob", "Join the fight").await;
    click_refused(&t, "bob", "Join the fight", "already in the order").await;
    refused(&t, "bob", "/vr-gm combat add name:Orc", "Only the referee").await;
    done(&t, "fc", "/vr-gm combat add name:Goblin hp:1 flesh:4").await;
    done(&t, "fc", "/vr-gm combat add name:Bandit hp:2 flesh:5").await;
    refused(
        &t,
        "bob",
        "/vr-gm combat mark name:Bram visible:true",
        "Only the referee",
    )
    .await;
    done(&t, "fc", "/vr-gm combat mark name:Bram visible:true").await;
    refused(&t, "fc", "/vr-gm combat mark name:Bram", "Say what to mark").await;
    refused(
        &t,
        "fc",
        "/vr-gm combat mark name:Nobody out:true",
        "No one called",
    )
    .await;
    // Nothing moves before initiative.
    refused(
        &t,
        "alice",
        "/vr save inventory:flesh fight:true",
        "Roll initiative first",
    )
    .await;
    refused(
        &t,
        "fc",
        "/vr-gm combat act action:attack",
        "Roll initiative first",
    )
    .await;
    let (f, _) = fight(&t, id).await;
    let names: Vec<&str> = f.turns.seats.iter().map(|s| s.name.as_str()).collect();
    assert_eq!(names, ["Ada", "Bram", "Goblin", "Bandit"]);
    assert!(seat(&f, "Bram").data.visible);
    assert_eq!(seat(&f, "Ada").data.ap_max, 6);
    assert_eq!(seat(&f, "Goblin").data.hp, 1);
    // Each command redrew the posted tracker in place.
    assert!(t
        .fake
        .message_object(message)
        .unwrap()
        .to_string()
        .contains("Bandit"));

    // Only the leader's player (or the referee) rolls initiative.
    click_refused(&t, "bob", "Roll initiative", "Only Ada's player").await;
    let ex = click(&t, "alice", "Roll initiative").await;
    let save = ex
        .outputs
        .iter()
        .find(|o| o.kind == "message")
        .expect("the leader's save is posted");
    assert_eq!(author(save), "Ada · Light save · initiative");
    assert!(
        save.title().starts_with("✅ Success · "),
        "{}",
        save.title()
    );
    assert!(
        save.content().contains("the players act first"),
        "{}",
        save.content()
    );
    let (f, _) = fight(&t, id).await;
    assert_eq!(f.first, Some(Side::Players));
    assert_eq!((f.turns.round, whose(&f)), (1, "Ada"));
    assert!(f.surprise());
    assert!(seat(&f, "Bram").data.seen);
    assert_eq!(
        posted_title(&t, message),
        "⚔️ Round 1 · Players' turn (surprise) · Ada"
    );
    refused(
        &t,
        "alice",
        "/vr save inventory:light fight:true",
        "already set",
    )
    .await;
    refused(
        &t,
        "fc",
        "/vr-gm combat mark name:Goblin visible:true",
        "Initiative is set",
    )
    .await;

    // Out of turn: Bram waits (and was seen anyway), players do not advance
    // another's turn or act for the enemies.
    click_refused(&t, "bob", "Attack · 4 AP", "It is Ada's turn").await;
    click_refused(&t, "bob", "End turn", "It is Ada's turn").await;
    refused(
        &t,
        "alice",
        "/vr-gm combat act action:attack name:Goblin",
        "`name` is the referee's",
    )
    .await;
    refused(
        &t,
        "fc",
        "/vr-gm combat act action:attack name:Goblin",
        "Goblin waits for the Enemies' turn",
    )
    .await;
    refused(
        &t,
        "fc",
        "/vr-gm combat act action:attack name:Bram",
        "seen by the enemy",
    )
    .await;
    refused(
        &t,
        "alice",
        "/vr-gm combat act action:other cost:3",
        &format!("⚠️ Only the referee can price other actions: {WHO_IS_THE_REFEREE}"),
    )
    .await;

    // Ada attacks: 4 of her 6 AP; the surprise turn's damage bypasses HP.
    click(&t, "alice", "Attack · 4 AP").await;
    click_refused(
        &t,
        "alice",
        "Pick up/drop · 4 AP",
        "costs 4 AP and Ada has only 2 left",
    )
    .await;
    refused(
        &t,
        "alice",
        "/vr damage amount:4 character:Goblin",
        "Only the referee",
    )
    .await;
    let hit = public(&t, "fc", "/vr damage amount:4 character:Goblin").await;
    assert!(
        hit.text().contains("surprise turn: bypasses HP"),
        "{}",
        hit.text()
    );
    let (f, _) = fight(&t, id).await;
    assert_eq!(seat(&f, "Ada").data.ap, 2);
    let goblin = seat(&f, "Goblin");
    assert_eq!((goblin.data.hp, goblin.data.wounds), (1, 4));
    assert_eq!(goblin.data.gone, Some(Gone::Dead));
    assert!(goblin.out);
    assert!(
        f.log
            .iter()
            .any(|l| l == "💀 Goblin is dead: out of the fight"),
        "{:?}",
        f.log
    );

    // Ada ends her turn: Bram was seen, so the enemies' surprise turn comes.
    click(&t, "alice", "End turn").await;
    let (f, _) = fight(&t, id).await;
    assert_eq!((f.turns.round, whose(&f)), (1, "Bandit"));
    assert_eq!(seat(&f, "Bandit").data.ap, 5);
    click_refused(&t, "alice", "End turn", "It is Bandit's turn").await;
    let hit = public(&t, "fc", "/vr damage amount:1 character:Ada").await;
    assert!(
        hit.text().contains("surprise turn: bypasses HP"),
        "{}",
        hit.text()
    );
    let ada = sheet(&t, "alice").await;
    assert_eq!(
        (ada.hp_current(), ada.flesh().count(ItemKind::Wound)),
        (2, 1)
    );

    // A restart mid-combat: the buttons still work.
    t.restart().await.unwrap();
    click(&t, "fc", "End turn").await;
    let (f, _) = fight(&t, id).await;
    assert_eq!((f.turns.round, whose(&f)), (2, "Ada"));
    assert!(!f.surprise());
    assert_eq!(seat(&f, "Ada").data.ap, 6, "AP come back each turn");
    assert_eq!(
        posted_title(&t, message),
        "⚔️ Round 2 · Players' turn · Ada"
    );
    // Round 2: damage goes to HP again.
    public(&t, "fc", "/vr damage amount:1 character:Ada").await;
    let ada = sheet(&t, "alice").await;
    assert_eq!(
        (ada.hp_current(), ada.flesh().count(ItemKind::Wound)),
        (1, 1)
    );
    // Ada's 6 AP: a Secret revealed (4), a knife drawn (0), and no AP left
    // to pick anything up.
    click(&t, "alice", "Reveal · 4 AP").await;
    click(&t, "alice", "Draw/stow · 0 AP").await;
    click_refused(&t, "alice", "Pick up/drop · 4 AP", "Ada has only 2 left").await;
    let (f, _) = fight(&t, id).await;
    assert_eq!(seat(&f, "Ada").data.ap, 2);
    assert!(
        f.log
            .iter()
            .any(|l| l == "Ada reveals a Secret (4 AP, 2 left)"),
        "{:?}",
        f.log
    );
    // Now Bram acts after Ada; the immobilised take Wounds.
    click(&t, "alice", "End turn").await;
    done(&t, "fc", "/vr-gm combat act action:attack note:\"a club\"").await;
    done(&t, "fc", "/vr-gm combat mark name:Bandit immobilised:true").await;
    let hit = public(&t, "fc", "/vr damage amount:1 character:Bandit").await;
    assert!(hit.text().contains("immobilised"), "{}", hit.text());
    let (f, _) = fight(&t, id).await;
    assert_eq!(
        (seat(&f, "Bandit").data.hp, seat(&f, "Bandit").data.wounds),
        (2, 1)
    );
    assert!(
        f.log
            .iter()
            .any(|l| l == "Bram attacks: a club (4 AP, 1 left)"),
        "{:?}",
        f.log
    );

    // The referee takes Bram out (knocked down): the enemies' turn.
    done(&t, "fc", "/vr-gm combat mark name:Bram out:true").await;
    let (f, _) = fight(&t, id).await;
    assert_eq!(
        (whose(&f), seat(&f, "Bram").data.gone),
        ("Bandit", Some(Gone::Out))
    );
    click_refused(&t, "alice", "⚙ Referee", "Only the referee").await;
    // The referee's **End the fight** pressed by a player (its button
    // forged from the tracker's): the shared refusal, and the fight goes on.
    let shown = t.fake.message_object(message).expect("the tracker message");
    let mut end = ButtonId::parse(
        shown["components"][0]["components"][0]["custom_id"]
            .as_str()
            .unwrap(),
    )
    .unwrap();
    (end.action, end.arg) = ("end".into(), None);
    let ex = t
        .click_custom_id("alice", message, &end.encode(), None)
        .await
        .unwrap();
    assert_eq!(
        ex.outputs[0].content(),
        format!("⚠️ Only the referee can end the fight: {WHO_IS_THE_REFEREE}")
    );
    assert!(!fight(&t, id).await.0.ended);
    t.tool("fc", "End the fight").await.unwrap();
    let (f, status) = fight(&t, id).await;
    assert!(f.ended);
    assert_eq!(status, Status::Closed);
    assert_eq!(posted_title(&t, message), "⏹️ Fight over · 2 rounds");
    refused(
        &t,
        "fc",
        "/vr-gm combat act action:draw",
        "No fight is running",
    )
    .await;
    // A new fight may start once the old one ended; the referee seats an
    // NPC sheet among the enemies and marks it unsuspecting: Wounds.
    let start = public(&t, "fc", "/vr-gm combat start leader:Ada").await;
    let id = tracker_id(&start);
    public(
        &t,
        "fc",
        "/vr sheet create name:Duke light:4 flesh:4 npc:true",
    )
    .await;
    refused(
        &t,
        "fc",
        "/vr-gm combat add character:Duke name:Duke",
        "Seat one at a time",
    )
    .await;
    refused(
        &t,
        "fc",
        "/vr-gm combat add character:Duke hp:3",
        "leave `hp` and `flesh` out",
    )
    .await;
    refused(
        &t,
        "fc",
        "/vr-gm combat add side:enemies",
        "Give a quick NPC's `name`",
    )
    .await;
    done(&t, "fc", "/vr-gm combat add character:Duke side:enemies").await;
    done(&t, "fc", "/vr-gm combat mark name:Duke unsuspecting:true").await;
    let hit = public(&t, "fc", "/vr damage amount:1 character:Duke").await;
    assert!(hit.text().contains("unsuspecting"), "{}", hit.text());
    let (f, _) = fight(&t, id).await;
    let duke = seat(&f, "Duke");
    assert_eq!((duke.data.side, duke.data.wounds), (Side::Npcs, 1));
    assert!(duke.data.npc.is_none(), "a sheet of its own");
    assert_schema_clean(&t);
    t.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn fleeing_is_a_flesh_save_and_the_enemies_may_act_first() {
    // Seed 2: Ada's initiative save fails, the enemies act first.
    let t = table("vrc-flee", 2).await;
    party(&t).await;
    let start = public(&t, "fc", "/vr-gm combat start leader:Ada").await;
    let id = tracker_id(&start);
    click(&t, "bob", "Join the fight").await;
    done(&t, "fc", "/vr-gm combat add name:Wolf flesh:6").await;
    let save = public(&t, "fc", "/vr save inventory:light fight:true modifier:10").await;
    assert!(author(&save).contains("Light save"), "{}", author(&save));
    let (f, _) = fight(&t, id).await;
    assert_eq!(f.first, Some(Side::Npcs));
    assert_eq!(whose(&f), "Wolf");
    let names: Vec<&str> = f.turns.seats.iter().map(|s| s.name.as_str()).collect();
    assert_eq!(names, ["Wolf", "Ada", "Bram"]);
    // The wolf bites Bram on its surprise turn: Wounds, not HP.
    refused(
        &t,
        "alice",
        "/vr save inventory:flesh fight:true",
        "It is Wolf's turn",
    )
    .await;
    public(&t, "fc", "/vr damage amount:2 character:Bram").await;
    assert_eq!(sheet(&t, "bob").await.flesh().count(ItemKind::Wound), 2);
    click(&t, "fc", "End turn").await;
    // Ada flees: a Flesh save, whatever it says the tracker follows.
    let out = public(&t, "alice", "/vr save inventory:flesh fight:true").await;
    assert_eq!(author(&out), "Ada · Flesh save · flee");
    let (f, _) = fight(&t, id).await;
    let fled = out.content().contains("flees the fight");
    assert_eq!(seat(&f, "Ada").out, fled, "{}", out.content());
    assert_eq!(whose(&f), if fled { "Bram" } else { "Ada" });
    assert_schema_clean(&t);
    t.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn named_causes_of_stress_show_and_are_logged() {
    let t = table("vrc-stress", 3).await;
    public(
        &t,
        "alice",
        "/vr sheet create name:Ada light:6 flesh:6 facet:Cruel",
    )
    .await;
    refused(&t, "alice", "/vr stress", "Give an `amount`").await;
    refused(
        &t,
        "alice",
        "/vr stress amount:2 cause:\"social attack\"",
        "Only the referee",
    )
    .await;
    refused(
        &t,
        "alice",
        "/vr stress amount:2 cause:\"shocked by a Secret\"",
        "leave `amount` out",
    )
    .await;
    let out = public(&t, "alice", "/vr stress cause:\"fled a social conflict\"").await;
    assert_eq!(out.title(), "🟡 +1 Stress · Light slot 1");
    assert_eq!(author(&out), "Ada · flees a social conflict (+1 Stress)");
    assert!(
        out.text()
            .contains("1 Stress** for fleeing a social conflict"),
        "{}",
        out.text()
    );
    let out = public(&t, "alice", "/vr stress cause:\"shocked by a Secret\"").await;
    assert!(
        author(&out).starts_with("Ada · is shocked by a revealed Secret"),
        "{}",
        author(&out)
    );
    assert!(
        out.text().contains("from being shocked by a Secret"),
        "{}",
        out.text()
    );
    let n = sheet(&t, "alice").await.light().count(ItemKind::Stress);
    assert!((2..=6).contains(&n), "{n}");
    let out = public(
        &t,
        "fc",
        "/vr stress amount:1 cause:\"social attack\" character:Ada",
    )
    .await;
    assert!(
        out.text().contains("from a social attack"),
        "{}",
        out.text()
    );
    // Own compromising Secret: every empty Light slot fills, or a Break.
    let out = public(&t, "alice", "/vr stress cause:\"own Secret revealed\"").await;
    assert!(
        out.text().contains("from an own Secret revealed") || out.text().contains("BREAK"),
        "{}",
        out.text()
    );
    let ada = sheet(&t, "alice").await;
    assert!(ada.light().count(ItemKind::Stress) == 6 || ada.break_count() == 1);
    // The causes are the log's actions, as /history shows them.
    let db = t.db().await.unwrap();
    let mut tx = db.read().await.unwrap();
    let actions: Vec<String> = sqlx::query_scalar("SELECT action FROM roll_log ORDER BY id")
        .fetch_all(&mut *tx)
        .await
        .unwrap();
    for a in [
        "stress_fled",
        "stress_shocked",
        "stress_social",
        "stress_own_secret",
    ] {
        assert!(actions.iter().any(|x| x == a), "{a} in {actions:?}");
    }
    drop(tx);
    let h = run(&t, "alice", "/history show").await;
    let text = h.outputs[0].text();
    assert!(
        text.contains("stress_own_secret") || text.contains("stress own secret"),
        "{text}"
    );
    // One readable line per entry (issue 16): the outcome, not raw data.
    assert!(text.contains("🟡 +1 Stress · Light slot 1"), "{text}");
    assert!(!text.contains("{"), "{text}");
    assert_schema_clean(&t);
    t.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn issue_29_a_facet_bears_on_initiative_and_flee() {
    let t = table("vrc-i29-facet", 1).await;
    party(&t).await;
    let start = public(&t, "fc", "/vr-gm combat start leader:Ada").await;
    let id = tracker_id(&start);
    done(&t, "fc", "/vr-gm combat add name:Wolf flesh:6").await;
    refused(
        &t,
        "alice",
        "/vr save inventory:light fight:true facet:Brave",
        "Facet",
    )
    .await;
    let out = public(
        &t,
        "alice",
        "/vr save inventory:light fight:true facet:Cruel",
    )
    .await;
    assert_eq!(author(&out), "Ada · Light save · initiative");
    let d = out.embeds()[0]["description"].as_str().unwrap().to_string();
    assert!(d.contains("*Cruel*"), "{d}");
    // Seed 1: d20 1, the d6 of Cruel 6 off the total.
    assert_eq!(out.field("Total").unwrap(), "1 − 6 = **−5**");
    let (f, _) = fight(&t, id).await;
    if whose(&f) == "Wolf" {
        click(&t, "fc", "End turn").await;
    }
    let out = public(
        &t,
        "alice",
        "/vr save inventory:flesh fight:true facet:Cruel modifier:3",
    )
    .await;
    assert_eq!(author(&out), "Ada · Flesh save · flee");
    let d = out.embeds()[0]["description"].as_str().unwrap().to_string();
    assert!(d.contains("*Cruel*"), "{d}");
    // Seed 1: d20 15, +3, the d6 of Cruel 5 off the total.
    assert_eq!(out.field("Total").unwrap(), "15 + 3 − 5 = **13**");
    assert_schema_clean(&t);
    t.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn issue_29_refusals_name_the_right_thing_in_a_fight() {
    let t = table("vrc-i29-names", 1).await;
    party(&t).await;
    public(&t, "fc", "/vr-gm combat start leader:Ada").await;
    click(&t, "bob", "Join the fight").await;
    done(&t, "fc", "/vr-gm combat add name:Wolf flesh:6").await;
    public(
        &t,
        "fc",
        "/vr save inventory:light fight:true modifier:-100",
    )
    .await;
    // Ada's own player with the referee's option: not "only their player".
    let ex = run(&t, "alice", "/vr-gm combat act action:attack name:Wolf").await;
    let said = ex.single().content().to_string();
    assert!(
        said.contains("`name` is the referee's") && !said.contains("only their player"),
        "{said}"
    );
    // Bram is seated: not an unknown name, another player's sheet.
    for line in [
        "/vr damage amount:1 character:Bram",
        "/vr save inventory:flesh character:Bram",
    ] {
        refused(
            &t,
            "alice",
            line,
            "Only the referee can act on another player's sheet",
        )
        .await;
    }
    assert_eq!(sheet(&t, "bob").await.flesh().count(ItemKind::Wound), 0);
    assert_schema_clean(&t);
    t.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn issue_29_npcs_added_to_a_fight_make_the_defenders_save() {
    let t = table("vrc-i29-npc-save", 1).await;
    party(&t).await;
    public(&t, "fc", "/vr-gm combat start leader:Ada").await;
    done(&t, "fc", "/vr-gm combat add name:Wolf flesh:6").await;
    public(
        &t,
        "fc",
        "/vr save inventory:light fight:true modifier:-100",
    )
    .await;
    // The referee's NPC makes the defender's save; a player may not.
    refused(
        &t,
        "alice",
        "/vr save inventory:flesh character:Wolf",
        "Only the referee",
    )
    .await;
    let out = public(&t, "fc", "/vr save inventory:flesh character:Wolf").await;
    assert_eq!(author(&out), "Wolf · Flesh save");
    // Seed 1: d20 15, past the Wolf's six Flesh slots.
    assert_eq!(out.title(), "❌ Failure · Flesh slot 15 is locked");
    assert_schema_clean(&t);
    t.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn issue_29_a_fight_everyone_fled_says_so_and_offers_the_end() {
    let t = table("vrc-i29-fled", 1).await;
    party(&t).await;
    let ex = run(&t, "fc", "/vr-gm combat start leader:Ada").await;
    let id = tracker_id(ex.single());
    let message = ex.message_id.unwrap();
    click(&t, "bob", "Join the fight").await;
    done(&t, "fc", "/vr-gm combat add name:Wolf flesh:6").await;
    public(
        &t,
        "fc",
        "/vr save inventory:light fight:true modifier:-100",
    )
    .await;
    // A save of 0 or lower always succeeds: everyone gets away.
    public(
        &t,
        "alice",
        "/vr save inventory:flesh fight:true modifier:-100",
    )
    .await;
    public(
        &t,
        "bob",
        "/vr save inventory:flesh fight:true modifier:-100",
    )
    .await;
    let out = public(
        &t,
        "fc",
        "/vr save inventory:flesh fight:true character:Wolf modifier:-100",
    )
    .await;
    assert!(
        out.content().contains("Everyone has fled"),
        "{}",
        out.content()
    );
    assert_eq!(posted_title(&t, message), "⚔️ Round 1 · everyone has fled");
    let (f, status) = fight(&t, id).await;
    assert!(f.turns.active().next().is_none());
    assert_eq!(status, Status::Open);
    // The referee's button ends it; a player cannot.
    click_refused(&t, "alice", "⚙ Referee", "Only the referee").await;
    t.tool("fc", "End the fight").await.unwrap();
    let (f, status) = fight(&t, id).await;
    assert!(f.ended);
    assert_eq!(status, Status::Closed);
    assert_eq!(posted_title(&t, message), "⏹️ Fight over · 1 round");
    assert_schema_clean(&t);
    t.stop().await;
}

/// The posted tracker's whole embed as text, as the fake holds it now.
fn posted_text(t: &Table, message: u64) -> String {
    t.fake.message_object(message).expect("the tracker message")["embeds"].to_string()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn issue_28_wound_and_stress_redraw_the_running_tracker() {
    let t = table("vrc-redraw", 1).await;
    party(&t).await;
    let ex = run(&t, "fc", "/vr-gm combat start leader:Ada").await;
    let id = tracker_id(ex.single());
    let message = ex.message_id.unwrap();
    click(&t, "bob", "Join the fight").await;
    // `/vr wound` kills Bram (Flesh 5): the tracker shows him dead at once.
    public(&t, "fc", "/vr wound amount:5 character:Bram").await;
    assert!(sheet(&t, "bob").await.is_dead());
    let (f, _) = fight(&t, id).await;
    assert_eq!(seat(&f, "Bram").data.gone, Some(Gone::Dead));
    assert_eq!(seat(&f, "Bram").data.wounds, 5);
    assert!(
        posted_text(&t, message).contains("Bram is dead: out of the fight"),
        "{}",
        posted_text(&t, message)
    );
    // Two Breaks through `/vr stress` (Light 6, each Break after the slots
    // fill): the second one's heart attack (d20 = 1 with this seed) puts a
    // Wound on Ada, and the tracker shows it at once.
    for _ in 0..3 {
        public(&t, "fc", "/vr stress amount:7 character:Ada").await;
    }
    assert!(posted_text(&t, message).contains("Wounds 0/6"));
    let out = public(&t, "fc", "/vr stress amount:7 character:Ada").await;
    assert!(
        out.text().contains("Heart attack d20 **1**"),
        "{}",
        out.text()
    );
    let ada = sheet(&t, "alice").await;
    assert_eq!(
        (ada.break_count(), ada.flesh().count(ItemKind::Wound)),
        (2, 1)
    );
    let (f, _) = fight(&t, id).await;
    assert_eq!(seat(&f, "Ada").data.wounds, 1);
    assert!(
        posted_text(&t, message).contains("Wounds 1/6"),
        "{}",
        posted_text(&t, message)
    );
    assert_schema_clean(&t);
    t.stop().await;
}

/// Issue 28: every change a running tracker shows redraws it, not only the
/// commands that redrew by hand: a Wound healed by a sheet's Rest button,
/// and the HP the end of a scene restores.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn issue_28_a_rest_click_and_the_end_of_a_scene_redraw_the_running_tracker() {
    let t = table("vrc-redraw-rest", 1).await;
    party(&t).await;
    let ex = run(&t, "fc", "/vr-gm combat start leader:Ada").await;
    let id = tracker_id(ex.single());
    let message = ex.message_id.unwrap();
    public(&t, "fc", "/vr wound amount:1 character:Ada").await;
    public(&t, "fc", "/vr damage amount:1 character:Ada").await;
    let text = posted_text(&t, message);
    assert!(text.contains("HP 1/2 · Wounds 1/6"), "{text}");
    // Ada's own sheet: her Rest button heals the Wound, and the tracker
    // shows it at once.
    public(&t, "alice", "/vr sheet show").await;
    let ex = click(&t, "alice", "Rest: remove a Wound").await;
    assert_eq!(ex.outputs[0].kind, "update", "{:#?}", ex.outputs);
    assert_eq!(sheet(&t, "alice").await.flesh().count(ItemKind::Wound), 0);
    let (f, _) = fight(&t, id).await;
    assert_eq!(seat(&f, "Ada").data.wounds, 0);
    let text = posted_text(&t, message);
    assert!(text.contains("HP 1/2 · Wounds 0/6"), "{text}");
    // The end of the scene restores her HP: the tracker shows it.
    public(&t, "fc", "/vr-gm scene end").await;
    assert_eq!(sheet(&t, "alice").await.hp_current(), 2);
    let text = posted_text(&t, message);
    assert!(text.contains("HP 2/2 · Wounds 0/6"), "{text}");
    assert_schema_clean(&t);
    t.stop().await;
}

/// Issue 31 item 1: the fight's own actions left `/vr` for the tracker.
/// **Join the fight** seats the presser's character (the referee seats
/// anyone's with `/vr-gm combat add character:`); initiative and fleeing
/// with a modifier or Facet are `/vr save fight:true`; the AP actions and
/// **End turn** are the tracker's buttons, for the member whose turn it is
/// and the referee, whose `/vr-gm combat act` keeps the named, priced and
/// noted actions; **End the fight** is behind the referee's ⚙.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn issue_31_the_fights_own_actions_are_the_trackers_buttons() {
    let t = table("vrc-i31-buttons", 1).await;
    party(&t).await;
    let ex = run(&t, "fc", "/vr-gm combat start leader:Ada").await;
    let id = tracker_id(ex.single());
    let message = ex.message_id.unwrap();
    click_refused(&t, "alice", "Join the fight", "already in the order").await;
    let ex = click(&t, "bob", "Join the fight").await;
    assert_eq!(ex.outputs[0].kind, "update", "{:#?}", ex.outputs);
    click_refused(&t, "carol", "Join the fight", "sheet").await;
    done(&t, "fc", "/vr-gm combat add name:Wolf flesh:6").await;
    let (f, _) = fight(&t, id).await;
    let names: Vec<&str> = f.turns.seats.iter().map(|s| s.name.as_str()).collect();
    assert_eq!(names, ["Ada", "Bram", "Wolf"]);

    // A fight's save takes no secret, other member or other Facet.
    refused(
        &t,
        "alice",
        "/vr save inventory:light fight:true secret:true on_fail:1",
        "leave out `secret`, `on_fail`",
    )
    .await;
    refused(
        &t,
        "alice",
        "/vr save inventory:light fight:true character:Ada",
        "leave `character` out",
    )
    .await;
    refused(
        &t,
        "bob",
        "/vr save inventory:light fight:true",
        "Only Ada's player",
    )
    .await;
    let (f, _) = fight(&t, id).await;
    assert!(!f.started());
    let save = public(
        &t,
        "alice",
        "/vr save inventory:light fight:true modifier:-100",
    )
    .await;
    assert_eq!(author(&save), "Ada · Light save · initiative");
    assert_eq!(save.field("Total").unwrap(), "1 − 100 = **−99**");
    let (f, _) = fight(&t, id).await;
    assert_eq!((f.first, whose(&f)), (Some(Side::Players), "Ada"));

    // Ada's turn: Bram may not press for her; she and the referee may.
    click_refused(&t, "bob", "Flee", "It is Ada's turn").await;
    click_refused(&t, "bob", "Attack · 4 AP", "It is Ada's turn").await;
    click_refused(&t, "bob", "End turn", "It is Ada's turn").await;
    click(&t, "alice", "Attack · 4 AP").await;
    click(&t, "fc", "End turn").await;
    let (f, _) = fight(&t, id).await;
    assert_eq!(whose(&f), "Bram");
    assert_eq!(seat(&f, "Ada").data.ap, 2, "her attack cost 4 of 6 AP");
    click_refused(&t, "alice", "Draw/stow · 0 AP", "It is Bram's turn").await;
    click(&t, "bob", "Draw/stow · 0 AP").await;
    // A button names both moves it prices: it cannot know which one.
    let (f, _) = fight(&t, id).await;
    assert!(
        f.log
            .iter()
            .any(|l| l == "Bram draws or stows something (0 AP, 5 left)"),
        "{:?}",
        f.log
    );
    // Bram flees with a modifier: a save of 0 or lower always succeeds.
    refused(
        &t,
        "alice",
        "/vr save inventory:flesh fight:true",
        "It is Bram's turn",
    )
    .await;
    let out = public(
        &t,
        "bob",
        "/vr save inventory:flesh fight:true modifier:-100",
    )
    .await;
    assert_eq!(author(&out), "Bram · Flesh save · flee");
    let (f, _) = fight(&t, id).await;
    assert_eq!(seat(&f, "Bram").data.gone, Some(Gone::Fled));
    assert_eq!(whose(&f), "Wolf");
    // The enemies' turn: the referee prices and notes the wolf's action.
    done(&t, "fc", "/vr-gm combat act action:other cost:2 note:howls").await;
    let (f, _) = fight(&t, id).await;
    assert!(
        f.log.iter().any(|l| l == "Wolf acts: howls (2 AP, 4 left)"),
        "{:?}",
        f.log
    );
    // The ⚙ is the referee's; there he ends the fight.
    let tracker = t.fake.message_object(message).unwrap().to_string();
    assert!(tracker.contains("Join the fight"), "{tracker}");
    assert!(!tracker.contains("End the fight"), "{tracker}");
    click_refused(&t, "alice", "⚙ Referee", "Only the referee").await;
    t.tool("fc", "End the fight").await.unwrap();
    let (f, status) = fight(&t, id).await;
    assert!(f.ended);
    assert_eq!(status, Status::Closed);
    assert_schema_clean(&t);
    t.stop().await;
}

/// A refusal naming a character cleans its name of markdown, as every other
/// line of the fight does: the leader's player, the sheet's owner, and the
/// dead who cannot roll initiative, save, join a fight or lead one.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn refusals_name_the_dead_without_markdown() {
    let t = table("vrc-dead-name", 1).await;
    public(
        &t,
        "alice",
        "/vr sheet create name:A*d_a light:8 flesh:4 facet:Cruel",
    )
    .await;
    public(
        &t,
        "bob",
        "/vr sheet create name:Bram light:7 flesh:5 facet:Loyal",
    )
    .await;
    run(&t, "fc", "/vr-gm combat start leader:A*d_a").await;
    click_refused(&t, "bob", "Roll initiative", "Only Ada's player").await;
    public(&t, "alice", "/vr stress amount:1").await;
    public(&t, "alice", "/vr sheet show").await;
    click_refused(&t, "bob", "Rest: remove a Stress", "Only Ada's owner").await;
    public(&t, "alice", "/vr wound amount:4").await;
    assert!(sheet(&t, "alice").await.is_dead());
    click_refused(
        &t,
        "fc",
        "Roll initiative",
        "Ada is dead and cannot make saves.",
    )
    .await;
    refused(
        &t,
        "alice",
        "/vr save inventory:light",
        "Ada is dead and cannot make saves.",
    )
    .await;
    refused(
        &t,
        "fc",
        "/vr-gm combat add character:A*d_a",
        "Ada is dead and cannot fight.",
    )
    .await;
    done(&t, "fc", "/vr-gm combat add name:Go*b_lin hp:1 flesh:4").await;
    refused(
        &t,
        "fc",
        "/vr save inventory:flesh character:Go*b_lin on_fail:1",
        "; Goblin is an NPC of the fight",
    )
    .await;
    t.tool("fc", "End the fight").await.unwrap();
    refused(
        &t,
        "fc",
        "/vr-gm combat start leader:A*d_a",
        "Ada is dead and cannot lead.",
    )
    .await;
    t.stop().await;
}

/// The word lists the commands offer as one types: item kinds by their
/// start, Facet dice and the fight's seats by any part.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn kinds_dice_and_seats_are_offered_as_one_types() {
    let t = table("vrc-offers", 1).await;
    party(&t).await;
    let offered = |v: Vec<serde_json::Value>| -> Vec<(String, String)> {
        v.iter()
            .map(|c| (c["name"].to_string(), c["value"].to_string()))
            .collect()
    };
    let kinds = t
        .autocomplete("alice", "/vr item add text:x kind:e", "kind")
        .await
        .unwrap();
    assert_eq!(
        offered(kinds),
        [("\"evidence\"".into(), "\"evidence\"".into())]
    );
    let dice = t
        .autocomplete("alice", "/vr facet add phrase:x die:1", "die")
        .await
        .unwrap();
    let dice: Vec<_> = offered(dice).into_iter().map(|(n, _)| n).collect();
    assert_eq!(dice, ["\"d10\"", "\"d12\""]);
    run(&t, "fc", "/vr-gm combat start leader:Ada").await;
    done(&t, "fc", "/vr-gm combat add name:Goblin hp:1 flesh:4").await;
    let seats = t
        .autocomplete("fc", "/vr-gm combat mark name:O", "name")
        .await
        .unwrap();
    assert_eq!(offered(seats), [("\"Goblin\"".into(), "\"Goblin\"".into())]);
    t.stop().await;
}

/// A fight's turn refusals name the seats without markdown: a player
/// naming another's seat on their own turn is told whose turn it is, and
/// ending another's turn is refused naming whose turn it is (the shared
/// `encounter::require_turn`).
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_fights_turn_refusals_name_the_seats_without_markdown() {
    let t = table("vrc-turn-clean", 1).await;
    public(
        &t,
        "alice",
        "/vr sheet create name:A*d_a light:6 flesh:6 facet:Cruel",
    )
    .await;
    public(
        &t,
        "bob",
        "/vr sheet create name:B_ram light:7 flesh:5 facet:Loyal",
    )
    .await;
    let start = run(&t, "fc", "/vr-gm combat start leader:A*d_a").await;
    let id = tracker_id(start.single());
    click(&t, "bob", "Join the fight").await;
    click(&t, "alice", "Roll initiative").await;
    assert_eq!(whose(&fight(&t, id).await.0), "A*d_a");
    refused(
        &t,
        "alice",
        "/vr save inventory:flesh fight:true character:B_ram",
        "it is your turn as Ada. Leave `name` out to act as Ada.",
    )
    .await;
    click_refused(
        &t,
        "bob",
        "End turn",
        "It is Ada's turn: only their player or the referee can act now.",
    )
    .await;
    assert_eq!(whose(&fight(&t, id).await.0), "A*d_a");
    t.stop().await;
}

/// Issue 28: a seat's sheet is read one way for the fight's saves and for
/// damage: a character whose sheet has left the game (here: stored as
/// another game's) is gone to both, not read as a Veracity sheet.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn issue_28_a_seat_whose_sheet_left_the_game_is_gone_to_saves_and_damage() {
    let t = table("vrc-seat-gone", 2).await;
    party(&t).await;
    let start = public(&t, "fc", "/vr-gm combat start leader:Ada").await;
    let id = tracker_id(&start);
    let (f, _) = fight(&t, id).await;
    let ada = seat(&f, "Ada").character.expect("Ada's sheet");
    let db = t.db().await.unwrap();
    let mut tx = db.write().await.unwrap();
    sqlx::query("UPDATE characters SET system = 'venus' WHERE id = $1")
        .bind(ada)
        .execute(&mut *tx)
        .await
        .unwrap();
    tx.commit().await.unwrap();
    let gone = "Ada's sheet no longer exists.";
    refused(&t, "fc", "/vr save inventory:light fight:true", gone).await;
    refused(&t, "fc", "/vr damage amount:1 character:Ada", gone).await;
    let (after, _) = fight(&t, id).await;
    assert_eq!(after.first, f.first, "the initiative save changed nothing");
    assert_schema_clean(&t);
    t.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_sheet_and_the_trackers_refusals_name_a_combatant_without_markdown() {
    let t = table("vr-combat-name-markdown", 1).await;
    let sheet = public(
        &t,
        "alice",
        "/vr sheet create name:A*d_a light:6 flesh:6 facet:Cruel",
    )
    .await;
    assert_eq!(sheet.title(), "📜 Ada");
    public(
        &t,
        "bob",
        "/vr sheet create name:B*r_am light:7 flesh:5 facet:\"Loyal to the Duke\"",
    )
    .await;
    run(&t, "fc", "/vr sheet edit current:2 max:2 character:A*d_a").await;
    run(&t, "fc", "/vr-gm combat start leader:A*d_a").await;
    click(&t, "bob", "Join the fight").await;
    done(&t, "fc", "/vr-gm combat add name:G_ob*lin hp:1 flesh:4").await;
    refused(
        &t,
        "fc",
        "/vr-gm combat add name:G_ob*lin hp:1 flesh:4",
        "⚠️ Goblin is already in the order.",
    )
    .await;
    done(&t, "fc", "/vr-gm combat mark name:B*r_am visible:true").await;
    click(&t, "alice", "Roll initiative").await;
    refused(
        &t,
        "fc",
        "/vr-gm combat act action:attack name:G_ob*lin",
        "⚠️ It is the Players' turn: Goblin waits for the Enemies' turn.",
    )
    .await;
    refused(
        &t,
        "fc",
        "/vr-gm combat act action:attack name:B*r_am",
        "⚠️ Bram was seen by the enemy when initiative was set: they cannot act on their side's first turn.",
    )
    .await;
    click(&t, "alice", "Attack · 4 AP").await;
    click_refused(
        &t,
        "alice",
        "Pick up/drop · 4 AP",
        "⚠️ That costs 4 AP and Ada has only 2 left this turn.",
    )
    .await;
    t.stop().await;
}
