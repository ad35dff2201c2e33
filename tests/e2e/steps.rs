//! Issue 31 item 3, "fewer steps": each routine flow played end to end
//! through the fake Discord, counting the interactions of the whole table
//! (commands, clicks and selects; a game master's tool is two: ⚙ and the
//! tool), and asserting the count against the issue's target together with
//! the exact seeded outcome. The rules each flow keeps are cited by the ids
//! of `rules-spec.md`.

use crate::common::{assert_schema_clean, table};
use crate::venus::{job, sheet};
use kismet::fake::table::{Output, Table};

/// A table whose interactions are counted.
struct Counted<'a> {
    t: &'a Table,
    /// The interactions so far.
    n: u32,
}

impl<'a> Counted<'a> {
    fn new(t: &'a Table) -> Self {
        Self { t, n: 0 }
    }

    /// Plays one script line and counts it: a command, a click or a select
    /// is one interaction, a game master's tool two (⚙, then the tool).
    async fn line(&mut self, line: &str) -> Vec<Output> {
        let rest = line.split_once(": ").map(|(_, r)| r).unwrap_or("");
        self.n += if rest.starts_with("tool ") { 2 } else { 1 };
        let (_, ex) = self
            .t
            .run_line(line)
            .await
            .unwrap_or_else(|e| panic!("{line}: {e}"))
            .unwrap_or_else(|| panic!("{line}: no exchange"));
        ex.outputs
    }

    /// [`Counted::line`]'s first reply that is not a private note (the
    /// roll's own message; redrawn cards come after it).
    async fn shown(&mut self, line: &str) -> Output {
        let out = self.line(line).await;
        out.iter()
            .find(|o| o.kind != "ephemeral")
            .cloned()
            .unwrap_or_else(|| panic!("{line}: nothing public: {out:?}"))
    }
}

/// Plays setup lines, not counted (making sheets is not the flow).
async fn setup(t: &Table, script: &str) {
    for line in script.lines() {
        t.run_line(line)
            .await
            .unwrap_or_else(|e| panic!("{line}: {e}"));
    }
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

/// The labels of a reply's enabled buttons.
fn labels(o: &Output) -> Vec<String> {
    o.buttons()
        .into_iter()
        .filter(|b| !b.2)
        .map(|b| b.0)
        .collect()
}

const ADA_VE: &str = r#"
alice: /ve sheet create name:Ada
alice: /ve sheet ability name:Finesse rank:silver score:4
alice: /ve sheet note kind:asset text:"Grappling hook"
"#;

/// Plays a player's own Venus check to its result: the command, then
/// (as long as the check shows one) **Roll d20**. Returns the check's
/// message as it ends.
async fn check_to_result(c: &mut Counted<'_>, line: &str) -> Output {
    let mut out = c.shown(line).await;
    while labels(&out).iter().any(|l| l == "Roll d20") {
        out = c.shown("alice: click Roll d20").await;
    }
    out
}

/// Venus check, edition 2, in one interaction (VE2-C2..VE2-C5: the d20 is
/// thrown and read against the target at once; VE-4: the FC picked the
/// ability and difficulty, given on the command).
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn venus_check_edition2_is_one_interaction() {
    let t = table("steps-ve2-check", 3).await;
    setup(&t, ADA_VE).await;
    let mut c = Counted::new(&t);
    let out = check_to_result(&mut c, "alice: /ve check ability:Finesse difficulty:2").await;
    assert_eq!(out.title(), "✅ Pass · natural 20", "{}", out.text());
    assert_eq!(
        out.field("Total").unwrap(),
        "20 + 4 Finesse (⚪ Silver) = **24**"
    );
    assert!(labels(&out).is_empty(), "{:?}", labels(&out));
    assert_eq!(c.n, 1, "interactions");
    assert_schema_clean(&t);
    t.stop().await;
}

/// Venus check, edition 1, short by 2 (VE1-C6): the d20 is thrown by the
/// command; the bonus factors the rules let the roller add after seeing the
/// roll are picked on it and rolled (one d6 per factor, the highest added,
/// VE1-C7: a Lot spent), and a factor named later with `/ve bonus` redraws
/// the same message in place.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn venus_check_edition1_rolls_at_once_and_takes_bonus_factors_in_place() {
    let t = table("steps-ve1-check", 4).await;
    setup(&t, "fc: /fc set name:ve_edition value:1").await;
    setup(&t, ADA_VE).await;
    let mut c = Counted::new(&t);
    let out = check_to_result(
        &mut c,
        "alice: /ve check ability:Finesse difficulty:15 factors:\"Wet stones\"",
    )
    .await;
    assert_eq!(c.n, 1, "interactions to the d20's result");
    assert_eq!(out.title(), "⏳ Waiting for Ada · short by 2");
    assert_eq!(
        out.field("Total").unwrap(),
        "10 + 4 Finesse (⚪ Silver) = **14**"
    );
    let posted = t.last_message_for("zz-observer").unwrap().id;
    // A factor named later redraws the same message.
    let named = c
        .line("alice: /ve bonus name:\"The high ground\" kind:environment")
        .await;
    assert_eq!(named[0].kind, "ephemeral");
    let redraw = named.iter().find(|o| o.kind == "update").unwrap();
    assert!(
        desc(redraw).contains("The high ground (environment, d6)"),
        "{}",
        desc(redraw)
    );
    assert_eq!(t.last_message_for("zz-observer").unwrap().id, posted);
    c.line("alice: select Bonus factors = lot1").await;
    let done = c.shown("alice: click Roll bonus dice").await;
    assert_eq!(done.title(), "✅ Pass with the bonus · 17 against 16");
    assert!(
        desc(&done).contains("Ada · −1 Lot → 9/10"),
        "{}",
        desc(&done)
    );
    assert_eq!(c.n, 4, "interactions with two bonus factors");
    assert_schema_clean(&t);
    t.stop().await;
}

/// Storyteller: a willpower roll and the spend that buys an automatic
/// success (ST-10, ST-11: successes = willpower after spending) in two
/// interactions.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn storyteller_willpower_spend_is_two_interactions() {
    let t = table("steps-st-wp", 1).await;
    setup(&t, "alice: /st sheet create name:Ada willpower:5").await;
    let mut c = Counted::new(&t);
    let rolled = c.shown("alice: /st willpower").await;
    assert_eq!(rolled.title(), "⏳ Waiting for Ada · 3 successes rolled");
    let done = c.shown("alice: click Spend willpower").await;
    assert_eq!(done.title(), "✅ Automatic success · 4 successes");
    assert_eq!(c.n, 2, "interactions");
    assert_schema_clean(&t);
    t.stop().await;
}

/// Virtual Veil: a roll whose set takes one cache die (VV-8: a cache die
/// may be added to form a set and is consumed, A-O9; VV-6: a Basic action
/// uses one set) in at most three interactions. Seed 1: the cache boots as
/// 10 9 7 and Wit rolls 1 10 9 2 6 2.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn virtual_veil_set_with_a_cache_die_is_three_interactions() {
    let t = table("steps-vv-cache", 1).await;
    setup(
        &t,
        "alice: /vv sheet create name:Ann agility:4 physique:2 precision:3 vitality:5 cyber:3 engineering:4 ingenuity:3 wit:6 charisma:2 confidence:4 performance:2 stealth:3\n\
         alice: /vv sheet comp cache_size:3 battery_max:5 battery:5\n\
         alice: /vv boot",
    )
    .await;
    let mut c = Counted::new(&t);
    let rolled = c.shown("alice: /vv roll stat:Wit").await;
    assert!(
        desc(&rolled).starts_with("**2 2** · 10 9 6 1"),
        "{}",
        desc(&rolled)
    );
    if labels(&rolled).iter().any(|l| l == "Add cache dice") && !has_select(&rolled) {
        c.line("alice: click Add cache dice").await;
    }
    c.line("alice: select Pick cache dice to add = 10.1").await;
    let used = c.shown("alice: click Use 2×10 (30)").await;
    assert_eq!(
        used.field("Actions").unwrap(),
        "1. Basic: **2×10 (30)** · 1 from the cache",
        "{}",
        used.text()
    );
    assert!(c.n <= 3, "{} interactions", c.n);
    assert_schema_clean(&t);
    t.stop().await;
}

/// Whether a reply shows a select menu.
fn has_select(o: &Output) -> bool {
    o.body["components"].as_array().is_some_and(|rows| {
        rows.iter().any(|r| {
            r["components"]
                .as_array()
                .is_some_and(|cs| cs.iter().any(|c| c["type"] == 3))
        })
    })
}

/// Veracity: a Flesh save whose failure costs 2 Wounds, named with the
/// call, fills the slots in the save's own interaction (VR-7..VR-9: the
/// d20 read against slot number *total*; VR-17: Wounds fill the lowest
/// empty Flesh slots), where the referee's second command (`/vr wound`)
/// did before: 2 interactions, now 1.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn veracity_save_that_fills_a_slot_is_one_interaction() {
    let t = table("steps-vr-save", 4).await;
    setup(
        &t,
        "alice: /vr sheet create name:Ada light:6 flesh:6 facet:Cruel",
    )
    .await;
    let mut c = Counted::new(&t);
    let out = c.shown("alice: /vr save inventory:flesh on_fail:2").await;
    let titles: Vec<String> = out
        .embeds()
        .iter()
        .map(|e| e["title"].as_str().unwrap_or("").to_string())
        .collect();
    // d20 10 lands on a locked slot (A-R1: a failure); the two Wounds take
    // Flesh slots 1 and 2, drawn under the save.
    assert_eq!(
        titles,
        [
            "❌ Failure · Flesh slot 10 is locked",
            "❌ 2 Wounds · Flesh slots 1, 2"
        ],
        "{}",
        out.text()
    );
    assert!(
        out.text()
            .contains("**Flesh** 🩸🩸 ⬜×4 🔒×12 · 4 free of 6"),
        "{}",
        out.text()
    );
    // The sheet holds them: the next save reads slots 1 and 2 as filled.
    let shown = t
        .run_line("alice: /vr sheet show")
        .await
        .unwrap()
        .unwrap()
        .1
        .outputs;
    assert!(
        shown.iter().any(|o| o.text().contains("🩸🩸 ⬜×4")),
        "{shown:?}"
    );
    assert_eq!(c.n, 1, "interactions");
    assert_schema_clean(&t);
    t.stop().await;
}

/// Venus task, edition 2, with no aid and no KISS: the command and **Roll**;
/// passes at or above the threshold succeed at once with no KISS stage
/// (VE2-T6, A-V21), so the table plays it in two interactions. (Edition 1
/// and an edition-2 task short of a threshold no KISS can reach still
/// stop for a KISS round: see the lead's report.)
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn venus_task_without_aid_or_kiss_is_two_interactions() {
    let t = table("steps-ve2-task", 4).await;
    setup(
        &t,
        "alice: /ve sheet create name:Ada abilities:\"Finesse Gold 4, Might Silver 3\"\n\
         alice: /ve sheet job name:Pilot inherits:\"Finesse, Might\" level:2",
    )
    .await;
    let mut c = Counted::new(&t);
    c.line("alice: /ve task job:Pilot ability:Finesse difficulty:2")
        .await;
    let mut out = c.shown("alice: click Roll").await;
    while labels(&out).iter().any(|l| l == "No KISS") {
        out = c.shown("alice: click No KISS").await;
    }
    assert_eq!(out.title(), "✅ Success · 5 passes", "{}", out.text());
    assert!(labels(&out).is_empty(), "{:?}", labels(&out));
    assert!(c.n <= 2, "{} interactions", c.n);
    assert_schema_clean(&t);
    t.stop().await;
}

/// Ada (Thief 3, Finesse Silver 4) and Bo (Acrobat 2, Finesse Bronze 2),
/// edition 1.
const ADA_AND_BO_VE1: &str = "fc: /fc set name:ve_edition value:1\n\
     alice: /ve sheet create name:Ada abilities:\"Finesse Silver 4\"\n\
     alice: /ve sheet job name:Thief inherits:Finesse level:3 exp:1\n\
     bob: /ve sheet create name:Bo abilities:\"Finesse Bronze 2\"\n\
     bob: /ve sheet job name:Acrobat inherits:Finesse level:2 exp:1";

/// Venus task, edition 1, with one ally's aid and one KISS, in five
/// interactions of the whole table (before: seven). The command; **Offer
/// aid**, taken at once (VE1-T3: the roller may refuse, and **Refuse Bo**
/// stays on the card until the roll); **Roll** (VE1-T4: each die strikes a
/// beat at its owner's rank, Bo's at his Bronze); the KISS menu paying
/// Ada's miss with a Lot, which re-rolls at once (VE1-K1: the one round;
/// VE1-K4a: a Lot needs no approval); and **Primary**, which spends the
/// last beat, so the task finishes by itself (VE1-S1: buying the primary
/// succeeds; VE1-S4; VE1-T8: Bo's aiding job marks +1 exp whatever the
/// outcome, a success gives Ada's job none).
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn venus_edition1_task_with_aid_and_one_kiss_is_five_interactions() {
    let t = table("steps-ve1-aid-kiss", 5).await;
    setup(&t, ADA_AND_BO_VE1).await;
    let mut c = Counted::new(&t);
    c.line("alice: /ve task ability:Finesse factors:Darkness")
        .await;
    let offered = c.shown("bob: click Offer aid").await;
    assert_eq!(
        labels(&offered),
        ["Roll", "Offer aid", "Withdraw aid", "Refuse Bo", "⚙ FC"],
        "{}",
        offered.text()
    );
    let rolled = c.shown("alice: click Roll").await;
    assert_eq!(rolled.title(), "⏳ Waiting for Ada · KISS · 1 of 2 beats");
    assert_eq!(desc(&rolled).lines().next(), Some("Ada 1 2 **4** · Bo 1"));
    let kissed = c
        .shown("alice: select KISS: pick dice and how to pay = 1:lot")
        .await;
    assert_eq!(kissed.title(), "⏳ Waiting for Ada to spend 2 beats");
    assert_eq!(
        desc(&kissed).lines().next(),
        Some("Ada (1)→**5** 2 **4** · Bo 1")
    );
    assert!(
        desc(&kissed).contains("**KISSed:** Ada's 1 with a Lot"),
        "{}",
        desc(&kissed)
    );
    let done = c.line("alice: click Primary: success (2)").await;
    assert!(
        done[0].title().starts_with("✅ Success"),
        "{}",
        done[0].title()
    );
    assert!(
        labels(&done[0]).iter().all(|l| l == "⚙ FC"),
        "{:?}",
        labels(&done[0])
    );
    assert_eq!(done[1].title(), "📈 After the task — Ada");
    // Success: Thief marks no exp (1); Bo's Acrobat +1 (1 → 2); one Lot
    // paid for the KISS.
    let ada = sheet(&t, "alice", "Ada").await;
    assert_eq!((job(&ada, "Thief"), ada.lots), ((3, 1), 9));
    assert_eq!(job(&sheet(&t, "bob", "Bo").await, "Acrobat"), (2, 2));
    assert_eq!(c.n, 5, "interactions");
    assert_schema_clean(&t);
    t.stop().await;
}

/// Venus task, edition 1: when the final dice strike no beat there is
/// nothing to spend, so the task ends as a failure with its exp right after
/// the KISS round (VE1-S4, VE1-T8: +1 exp to the job used, +1 to Bo's
/// aiding job), with no **Finish** to press: four interactions.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn venus_edition1_task_with_no_beat_to_spend_finishes_by_itself() {
    let t = table("steps-ve1-no-beat", 2).await;
    setup(&t, ADA_AND_BO_VE1).await;
    let mut c = Counted::new(&t);
    c.line("alice: /ve task ability:Finesse factors:Darkness")
        .await;
    c.line("bob: click Offer aid").await;
    let rolled = c.shown("alice: click Roll").await;
    assert_eq!(rolled.title(), "⏳ Waiting for Ada · KISS · 0 of 2 beats");
    let done = c
        .line("alice: select KISS: pick dice and how to pay = 1:lot")
        .await;
    assert_eq!(done[0].title(), "❌ Failure · 0 of 2 beats");
    assert!(
        labels(&done[0]).iter().all(|l| l == "⚙ FC"),
        "{:?}",
        labels(&done[0])
    );
    assert_eq!(done[1].title(), "📈 After the task — Ada");
    // Failure: +1 exp to Thief (1 → 2), +1 to Bo's Acrobat (1 → 2); the
    // Lot paid for the KISS stays spent.
    let ada = sheet(&t, "alice", "Ada").await;
    assert_eq!((job(&ada, "Thief"), ada.lots), ((3, 2), 9));
    assert_eq!(job(&sheet(&t, "bob", "Bo").await, "Acrobat"), (2, 2));
    assert_eq!(c.n, 4, "interactions");
    assert_schema_clean(&t);
    t.stop().await;
}
