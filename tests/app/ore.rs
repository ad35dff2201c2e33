//! Virtual Veil (the One-Roll Engine) at the application layer: a sheet, a
//! stat roll into a register, using a set and closing it, rights and log
//! rows, with no Discord in between.

use crate::common::{app, caller, first, log_of, refusal};
use kismet::app::component::{dispatch, ButtonId};
use kismet::app::View;
use kismet::rules::ore::sheet::Stat;
use kismet::systems::ore::{roll, sheet};

/// Stats in sheet order: Wit (index 7) at `wit`, the rest at 2.
fn stats(wit: i64) -> [Option<i64>; 12] {
    let mut s = [Some(2); 12];
    s[7] = Some(wit);
    s
}

fn buttons(v: &View) -> Vec<(String, String)> {
    v.all_buttons()
        .map(|b| (b.label.clone(), b.custom_id.clone()))
        .collect()
}

async fn ada(app: &kismet::app::App, wit: i64) {
    let alice = caller("alice");
    let r = sheet::create(
        app,
        &alice,
        sheet::CreateArgs {
            name: "Ada".into(),
            stats: stats(wit),
            ..Default::default()
        },
    )
    .await;
    // The new card goes to its owner privately.
    let (kind, v) = first(&r);
    assert_eq!(
        (kind, v.embeds[0].title.as_str()),
        ("ephemeral", "📇 Created Ada")
    );
}

fn wit_roll() -> roll::RollArgs {
    roll::RollArgs {
        stat: Some(Stat::Wit),
        ..Default::default()
    }
}

#[tokio::test]
async fn a_stat_roll_offers_its_sets_and_spends_one_once() {
    // Seed 3 gives a set among Wit's five dice (asserted below).
    let app = app(3).await;
    ada(&app, 5).await;
    let alice = caller("alice");
    let r = roll::start(&app, &alice, wit_roll()).await;
    let (kind, v) = first(&r);
    assert_eq!(kind, "message");
    let b = buttons(v);
    let set = b
        .iter()
        .find(|(l, _)| l.starts_with("Use "))
        .unwrap_or_else(|| panic!("a set to use: {b:?}"))
        .clone();
    let id = ButtonId::parse(&set.1).unwrap();
    assert_eq!((id.kind.as_str(), id.action.as_str()), ("vv", "basic"));
    // The set's height is its argument, and the label says so.
    let height = id.arg.clone().unwrap();
    assert!(set.0.contains(&format!("×{height}")), "{set:?}");

    // Bob may not use Ada's set.
    let bob = caller("bob");
    let no = dispatch(&app, &bob, &set.1, &[]).await;
    assert!(!refusal(&no).is_empty());
    let logged = log_of(&app, id.session).await.len();
    assert_eq!(logged, 1);

    let up = dispatch(&app, &alice, &set.1, &[]).await;
    assert_eq!(first(&up).0, "update");
    // A double click spends once.
    assert_eq!(
        first(&dispatch(&app, &alice, &set.1, &[]).await).0,
        "update"
    );
    let log = log_of(&app, id.session).await;
    assert_eq!(log.len(), 2, "{log:?}");
    assert_eq!(log[1].user_id, alice.user_id);
}

#[tokio::test]
async fn close_ends_the_register_and_strangers_cannot() {
    let app = app(8).await;
    ada(&app, 4).await;
    let alice = caller("alice");
    let r = roll::start(&app, &alice, wit_roll()).await;
    let v = first(&r).1;
    let close = buttons(v)
        .into_iter()
        .find(|(l, _)| l == "Close")
        .expect("a Close button")
        .1;
    let session = ButtonId::parse(&close).unwrap().session;
    assert!(!refusal(&dispatch(&app, &caller("bob"), &close, &[]).await).is_empty());
    let up = dispatch(&app, &alice, &close, &[]).await;
    let (kind, v) = first(&up);
    assert_eq!(kind, "update");
    assert!(
        v.all_buttons().next().is_none(),
        "a closed register has no buttons"
    );
    assert_eq!(log_of(&app, session).await.last().unwrap().action, "close");
}

#[tokio::test]
async fn rolling_needs_a_stat_or_dice() {
    let app = app(1).await;
    ada(&app, 4).await;
    let r = roll::start(&app, &caller("alice"), Default::default()).await;
    assert_eq!(
        refusal(&r),
        "Choose a `stat` to roll, or a number of `dice`."
    );
}

/// The first select of a view: its custom_id and its options (label, value).
fn select_of(v: &View) -> Option<(String, Vec<(String, String)>)> {
    v.rows.iter().find_map(|r| match r {
        kismet::app::view::Row::Select(s) => Some((
            s.custom_id.clone(),
            s.options
                .iter()
                .map(|o| (o.label.clone(), o.value.clone()))
                .collect(),
        )),
        _ => None,
    })
}

#[tokio::test]
async fn a_face_modifier_changes_one_die_once_and_is_logged() {
    let app = app(3).await;
    ada(&app, 5).await;
    let alice = caller("alice");
    let r = roll::start(&app, &alice, wit_roll()).await;
    let v = first(&r).1;
    let open = buttons(v)
        .into_iter()
        .find(|(l, _)| l == "± Modify a die")
        .expect("a modify button")
        .1;
    let session = ButtonId::parse(&open).unwrap().session;
    // Bob may not open it.
    assert!(!refusal(&dispatch(&app, &caller("bob"), &open, &[]).await).is_empty());
    let up = dispatch(&app, &alice, &open, &[]).await;
    let (custom_id, options) = select_of(first(&up).1).expect("the modifier select");
    assert!(custom_id.contains(":sel:modify"), "{custom_id}");
    let (label, value) = options[0].clone();
    // "a → b (+1)": the die's face, what it becomes, the modifier.
    let (from, rest) = label.split_once(" → ").unwrap();
    let (to, delta) = rest.split_once(' ').unwrap();
    assert_eq!(delta, "(+1)");
    let picked = [value];
    let up = dispatch(&app, &alice, &custom_id, &picked).await;
    let (kind, v) = first(&up);
    assert_eq!(kind, "update");
    let d = v.embeds[0].description.clone().unwrap();
    assert!(d.contains(&format!("Modified: {from}→{to} (+1)")), "{d}");
    // The same pick again (a double click) changes nothing more.
    let again = dispatch(&app, &alice, &custom_id, &picked).await;
    assert_eq!(
        first(&again).0,
        "update",
        "a stale pick shows the roll as it is"
    );
    let log = log_of(&app, session).await;
    let actions: Vec<&str> = log.iter().map(|e| e.action.as_str()).collect();
    assert_eq!(actions, vec!["roll", "modify_face"]);
    assert!(
        log[1].outcome.contains("face_modified"),
        "{}",
        log[1].outcome
    );
}
