//! `/fc undo` at the application layer, in every system: a change is
//! recorded by the shared save path, the game master's **Undo** puts the
//! sheet back exactly as it was (a Veracity Break, a Virtual Veil death and
//! Fault die, a Venus level change, a Storyteller willpower change), a
//! double click undoes once, undoing twice undoes the next older change,
//! and a player is refused.

use crate::common::{app, button, caller, first, refusal, GUILD};
use kismet::app::characters::Pick;
use kismet::app::component::dispatch;
use kismet::app::{App, AppResult};
use kismet::rules::ore::sheet::Damageable;
use kismet::rules::venus::Rank;
use kismet::systems::table::undo;

/// The stored sheet JSON of the only character named `name`.
async fn sheet(app: &App, system: &str, name: &str) -> String {
    let mut tx = app.db.read().await.unwrap();
    let rows = kismet::storage::characters::by_name_any_owner(&mut tx, GUILD, system, name)
        .await
        .unwrap();
    assert_eq!(rows.len(), 1, "one {name} in {system}");
    rows[0].sheet.clone()
}

fn field(json: &str, key: &str) -> serde_json::Value {
    fn find(v: &serde_json::Value, key: &str) -> Option<serde_json::Value> {
        match v {
            serde_json::Value::Object(m) => m
                .get(key)
                .cloned()
                .or_else(|| m.values().find_map(|x| find(x, key))),
            _ => None,
        }
    }
    find(&serde_json::from_str(json).unwrap(), key).unwrap_or_else(|| panic!("no {key}"))
}

/// The FC asks to undo `name`'s last change and presses Undo.
async fn undo_newest(app: &App, name: &str) -> AppResult {
    let fc = caller("fc");
    let r = undo::ask(app, &fc, Pick::named(name)).await;
    let (kind, v) = first(&r);
    assert_eq!(kind, "message");
    let id = button(v, "Undo");
    dispatch(app, &fc, &id, &[]).await
}

fn text(r: &AppResult) -> String {
    format!("{:?}", first(r).1)
}

#[tokio::test]
async fn a_veracity_break_is_undone_and_levelling_is_possible_again() {
    use kismet::systems::veracity::{changes, sheets};
    let app = app(3).await;
    let alice = caller("alice");
    sheets::create(
        &app,
        &alice,
        sheets::NewSheet {
            name: "Ada",
            light: 6,
            flesh: 6,
            facet: Some("Sharp eyes"),
            player: None,
            npc: false,
        },
    )
    .await
    .unwrap();
    // Light full of Stress; then one more (a mistyped hit): the first Break.
    changes::stress(&app, &alice, "6", Pick::active())
        .await
        .unwrap();
    let before = sheet(&app, "veracity", "Ada").await;
    assert_eq!(field(&before, "can_level_up"), true);
    changes::stress(&app, &alice, "1", Pick::active())
        .await
        .unwrap();
    let broken = sheet(&app, "veracity", "Ada").await;
    assert_eq!(field(&broken, "can_level_up"), false);
    let r = undo_newest(&app, "Ada").await;
    let t = text(&r);
    assert!(t.contains("Undone on **Ada**"), "{t}");
    assert!(t.contains("stress"), "{t}");
    assert_eq!(sheet(&app, "veracity", "Ada").await, before);
}

#[tokio::test]
async fn a_virtual_veil_death_and_a_fault_die_are_undone_one_after_the_other() {
    use kismet::systems::ore::governed::{What, Who};
    use kismet::systems::ore::sheet as vv;
    use kismet::systems::table::approval;
    let hit_ada = |amount| {
        What::Damage {
            track: Damageable::Vitality,
            amount,
        }
        .of(Who::new(Some("Ada"), None))
    };
    let app = app(5).await;
    let alice = caller("alice");
    vv::create(
        &app,
        &alice,
        vv::CreateArgs {
            name: "Ada".into(),
            stats: [Some(2); 12],
            ..Default::default()
        },
    )
    .await
    .unwrap();
    let fresh = sheet(&app, "ore", "Ada").await;
    let fc = caller("fc");
    // A hit that leaves a Fault die, then a mistyped one that kills.
    let mut hit = 1;
    loop {
        approval::govern(&app, &fc, hit_ada(hit)).await.unwrap();
        let s = sheet(&app, "ore", "Ada").await;
        if field(&s, "fault_dice")
            .as_array()
            .is_some_and(|a| !a.is_empty())
        {
            break;
        }
        hit += 1;
        assert!(hit < 20, "no Fault die after {hit} hits: {s}");
    }
    let faulted = sheet(&app, "ore", "Ada").await;
    assert_eq!(field(&faulted, "dead"), false);
    approval::govern(&app, &fc, hit_ada(500)).await.unwrap();
    assert_eq!(field(&sheet(&app, "ore", "Ada").await, "dead"), true);
    // Undo the death: alive with the Fault die.
    undo_newest(&app, "Ada").await.unwrap();
    assert_eq!(sheet(&app, "ore", "Ada").await, faulted);
    // Undo again: the hit that left the Fault die.
    undo_newest(&app, "Ada").await.unwrap();
    let s = sheet(&app, "ore", "Ada").await;
    assert!(
        field(&s, "fault_dice").as_array().unwrap().is_empty(),
        "{s}"
    );
    if hit == 1 {
        assert_eq!(s, fresh);
    }
}

#[tokio::test]
async fn a_venus_level_change_is_undone() {
    use kismet::systems::venus::sheets;
    let app = app(7).await;
    let alice = caller("alice");
    sheets::create(&app, &alice, "Ada", None, None)
        .await
        .unwrap();
    sheets::ability(&app, &alice, "Finesse", Rank::Silver, 4, Pick::active())
        .await
        .unwrap();
    let edits = sheets::JobEdits {
        inherits: Some("Finesse".into()),
        ..Default::default()
    };
    sheets::job(&app, &alice, "Acrobat", edits, Pick::active())
        .await
        .unwrap();
    let before = sheet(&app, "venus", "Ada").await;
    let up = sheets::JobEdits {
        level: Some(2),
        ..Default::default()
    };
    sheets::job(&app, &alice, "Acrobat", up, Pick::active())
        .await
        .unwrap();
    assert_ne!(sheet(&app, "venus", "Ada").await, before);
    let t = text(&undo_newest(&app, "Ada").await);
    assert!(t.contains("1"), "{t}");
    assert_eq!(sheet(&app, "venus", "Ada").await, before);
}

#[tokio::test]
async fn a_storyteller_willpower_change_is_undone_once_on_a_double_click() {
    use kismet::app::characters::Pick;
    use kismet::systems::storyteller::sheets;
    let app = app(9).await;
    let alice = caller("alice");
    sheets::create(&app, &alice, "Ada", 5, None).await.unwrap();
    let own = || Pick {
        character: None,
        player: None,
    };
    sheets::willpower(&app, &alice, Some(4), None, own())
        .await
        .unwrap();
    let four = sheet(&app, "storyteller", "Ada").await;
    sheets::willpower(&app, &alice, Some(1), None, own())
        .await
        .unwrap();
    let fc = caller("fc");
    let r = undo::ask(&app, &fc, Pick::named("Ada")).await;
    let v = first(&r).1.clone();
    let t = format!("{v:?}");
    // In the game's words (issue 31), not the log's `sheet_willpower` or
    // the sheet's `willpower.current`.
    assert!(t.contains("sheet willpower: Willpower 4 → 1"), "{t}");
    // A player cannot press it.
    let id = button(&v, "Undo");
    let r = dispatch(&app, &alice, &id, &[]).await;
    assert_eq!(refusal(&r), kismet::app::undo::ONLY_FC);
    assert_ne!(sheet(&app, "storyteller", "Ada").await, four);
    // The FC's double click undoes once: 1 → 4, not 4 → 5.
    dispatch(&app, &fc, &id, &[]).await.unwrap();
    let _ = dispatch(&app, &fc, &id, &[]).await;
    assert_eq!(sheet(&app, "storyteller", "Ada").await, four);
    // The undo is logged and listed among the changes.
    let r = undo::ask(&app, &fc, Pick::named("Ada")).await;
    let t = text(&r);
    assert!(t.contains("undo of change"), "{t}");
    // Undoing again undoes the next older change (5 → 4 back to 5).
    dispatch(&app, &fc, &button(first(&r).1, "Undo"), &[])
        .await
        .unwrap();
    let s = sheet(&app, "storyteller", "Ada").await;
    assert_ne!(s, four);
    // A player cannot even ask.
    let r = undo::ask(&app, &alice, Pick::named("Ada")).await;
    assert_eq!(refusal(&r), kismet::app::undo::ONLY_FC);
}
