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
