//! Storyteller d10 at the application layer: a character, a willpower roll
//! and its Spend willpower / Keep buttons, rights, double clicks and the
//! log rows, with no Discord in between.

use crate::common::{app, button, caller, first, log_of, refusal};
use kismet::app::characters::Pick;
use kismet::app::component::{dispatch, ButtonId};
use kismet::app::View;
use kismet::rules::storyteller::WillpowerRequest;
use kismet::systems::storyteller::{rolls, sheets};

/// The text of a view's field called `name`.
fn field(v: &View, name: &str) -> String {
    v.embeds[0]
        .fields
        .iter()
        .find(|f| f.name == name)
        .unwrap_or_else(|| panic!("no field {name} in {:?}", v.embeds[0]))
        .value
        .clone()
}

/// The faces of the description's first line, marked in the shared look
/// (`**9** 4 1✗`, sorted highest first).
fn faces(v: &View) -> Vec<u32> {
    let d = v.embeds[0].description.clone().unwrap_or_default();
    let list = d.lines().next().expect("a line of faces");
    list.split(' ')
        .map(|f| {
            f.trim_matches(['*', '★', '✗', '(', ')'])
                .parse()
                .expect("a face")
        })
        .collect()
}

fn own() -> Pick<'static> {
    Pick {
        character: None,
        player: None,
    }
}

#[tokio::test]
async fn a_willpower_roll_spends_one_dot_exactly_once() {
    let app = app(11).await;
    let alice = caller("alice");
    let r = sheets::create(&app, &alice, "Ada", 5, None).await;
    assert_eq!(first(&r).0, "message");

    let args = WillpowerRequest {
        difficulty: Some(6),
        ..WillpowerRequest::default()
    };
    let r = rolls::willpower(&app, &alice, args, own()).await;
    let (kind, v) = first(&r);
    assert_eq!(kind, "message");
    // Issue 16: the title states the outcome (here: waiting for the
    // choice), the author who rolled what.
    assert_eq!(v.embeds[0].title, "⏳ Waiting for Ada");
    assert_eq!(v.embeds[0].author.as_deref(), Some("Ada · Willpower"));
    assert_eq!(field(v, "Pool"), "Willpower = **5 dice** · difficulty 6");
    // The outcome is recomputed from the faces shown: successes at 6+, ones cancel.
    let f = faces(v);
    assert_eq!(f.len(), 5);
    let hits = f.iter().filter(|&&x| x >= 6).count() as i64;
    let ones = f.iter().filter(|&&x| x == 1).count() as i64;
    let net = hits - ones;
    // Seed 11: 3, 2, 5, a 1 and an 8 (shown sorted): the 1 cancels the 8.
    assert_eq!(f, [8, 5, 3, 2, 1]);
    assert_eq!(net, 0);
    assert_eq!(field(v, "Successes"), "1 − 1 botch = **0**");
    let spend = button(v, "Spend willpower");
    let id = ButtonId::parse(&spend).unwrap();
    assert_eq!((id.kind.as_str(), id.action.as_str()), ("st", "spend"));

    // A stranger cannot decide it; nothing is logged.
    let bob = caller("bob");
    let no = dispatch(&app, &bob, &spend, &[]).await;
    assert!(
        refusal(&no).contains("Only Ada's player or the storyteller can decide this roll."),
        "{}",
        refusal(&no)
    );
    assert_eq!(log_of(&app, id.session).await.len(), 1);

    // The roller spends: an automatic success, willpower 5 → 4, once.
    let up = dispatch(&app, &alice, &spend, &[]).await;
    let (kind, v) = first(&up);
    assert_eq!(kind, "update");
    assert_eq!(v.embeds[0].title, "✅ Automatic success · 4 successes");
    let d = v.embeds[0].description.clone().unwrap_or_default();
    assert_eq!(
        d.lines().skip(1).collect::<Vec<_>>(),
        [
            "Willpower 5 → 4",
            "1 willpower spent for an automatic success (now 4)."
        ]
    );
    assert!(v.all_buttons().next().is_none(), "the roll is decided");
    let again = dispatch(&app, &alice, &spend, &[]).await;
    assert_eq!(first(&again).0, "update");
    let log = log_of(&app, id.session).await;
    assert_eq!(
        log.iter().map(|e| e.action.as_str()).collect::<Vec<_>>(),
        ["willpower", "spend"],
        "a double click spends once"
    );
    // The next willpower roll has four dice.
    let args = WillpowerRequest {
        difficulty: Some(6),
        ..WillpowerRequest::default()
    };
    let r = rolls::willpower(&app, &alice, args, own()).await;
    assert_eq!(
        field(first(&r).1, "Pool"),
        "Willpower = **4 dice** · difficulty 6"
    );
}

#[tokio::test]
async fn keep_closes_the_roll_and_the_fc_may_void_another() {
    let app = app(12).await;
    let alice = caller("alice");
    sheets::create(&app, &alice, "Ada", 5, None).await.unwrap();
    let args = || WillpowerRequest {
        difficulty: Some(6),
        ..WillpowerRequest::default()
    };
    let r = rolls::willpower(&app, &alice, args(), own()).await;
    let keep = button(first(&r).1, "Keep");
    let v = dispatch(&app, &alice, &keep, &[]).await;
    assert_eq!(first(&v).0, "update");
    assert!(first(&v).1.all_buttons().next().is_none());
    let session = ButtonId::parse(&keep).unwrap().session;
    assert_eq!(
        log_of(&app, session)
            .await
            .iter()
            .map(|e| e.action.as_str())
            .collect::<Vec<_>>(),
        ["willpower", "keep"]
    );

    // The FC voids a second roll; a player may not.
    let r = rolls::willpower(&app, &alice, args(), own()).await;
    // The storyteller's Void is a game-master tool (issue 16): no
    // "(storyteller)" in its label, marked for the ⚙ panel.
    let void = button(first(&r).1, "Void");
    assert!(first(&r).1.all_buttons().any(|b| b.label == "Void" && b.gm));
    let no = dispatch(&app, &alice, &void, &[]).await;
    assert_eq!(refusal(&no), "Only the storyteller can do that.");
    let fc = caller("fc");
    let v = dispatch(&app, &fc, &void, &[]).await;
    assert_eq!(first(&v).0, "update");
    let session = ButtonId::parse(&void).unwrap().session;
    let log = log_of(&app, session).await;
    assert_eq!(log.last().unwrap().action, "void");
    assert_eq!(log.last().unwrap().user_id, fc.user_id);
}

#[tokio::test]
async fn the_fc_alone_creates_a_character_for_another_member() {
    let app = app(13).await;
    let alice = caller("alice");
    let bob = caller("bob");
    let no = sheets::create(&app, &alice, "Bea", 4, Some(bob.user_id)).await;
    assert_eq!(
        refusal(&no),
        "Only the storyteller can create a character for another player: that is members with the Manage Server permission (a server manager can name an FC role with `/fc role`)."
    );
    let fc = caller("fc");
    let r = sheets::create(&app, &fc, "Bea", 4, Some(bob.user_id)).await;
    assert_eq!(first(&r).0, "message");
    // Bob's own willpower roll now uses Bea.
    let args = WillpowerRequest {
        difficulty: None,
        ..WillpowerRequest::default()
    };
    let r = rolls::willpower(&app, &bob, args, own()).await;
    assert_eq!(
        first(&r).1.embeds[0].author.as_deref(),
        Some("Bea · Willpower")
    );
}
