//! An approved change and the request's closing are one transaction: the
//! change runs inside the approval's own click transaction (every game's
//! changes compose, issue 28), so a request is never "approved" with
//! nothing applied, and of two approvals running at once only one applies
//! (issue 13: "approving applies it exactly once").

use kismet::app::characters::Pick;
use kismet::app::component::dispatch;
use kismet::rules::storyteller::sheet::StorytellerSheet;
use kismet::storage::sessions::Status;
use kismet::systems::storyteller::governed::{Edit, Who};
use kismet::systems::storyteller::sheets;
use kismet::systems::table::approval;

use crate::common::{app, button, caller, first, GUILD};

async fn willpower(a: &kismet::app::App) -> u8 {
    let mut tx = a.db.read().await.unwrap();
    let rows = kismet::storage::characters::list(&mut tx, GUILD, "storyteller", None, 10)
        .await
        .unwrap();
    let s: StorytellerSheet = serde_json::from_str(&rows[0].sheet).unwrap();
    s.willpower().current
}

/// Ada at willpower 2 of 5, and Alice's request for a day's recovery
/// (the server asks for approval: `player_edits = approval`).
async fn requested(a: &kismet::app::App) -> String {
    let alice = caller("alice");
    let fc = caller("fc");
    let mut act = kismet::app::Act::begin(a, &fc).await.unwrap();
    let mut g = kismet::app::settings::guild(&mut act, fc.guild_id)
        .await
        .unwrap();
    g.player_edits = kismet::app::settings::PlayerEdits::Approval;
    kismet::app::settings::save_guild(&mut act, fc.guild_id, &g)
        .await
        .unwrap();
    act.commit().await.unwrap();
    sheets::create(a, &alice, "Ada", 5, None).await.unwrap();
    let ada = Pick {
        character: Some("Ada"),
        player: Some(alice.user_id),
    };
    sheets::willpower(a, &fc, Some(2), None, ada).await.unwrap();
    let r = approval::govern(
        a,
        &alice,
        Edit::Recover {
            first_dot: false,
            who: Who::default(),
        },
    )
    .await;
    let (kind, v) = first(&r);
    assert_eq!(kind, "message");
    assert_eq!(willpower(a).await, 2, "asking changes nothing");
    button(v, "Approve")
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn two_approvals_at_once_apply_the_change_once() {
    let a = app(3).await;
    let id = requested(&a).await;
    let fc = caller("fc");
    let (one, two) = tokio::join!(dispatch(&a, &fc, &id, &[]), dispatch(&a, &fc, &id, &[]));
    assert!(one.is_ok() || two.is_ok(), "{one:?} {two:?}");
    assert_eq!(willpower(&a).await, 3, "one day's recovery, not two");
}

#[tokio::test]
async fn a_stale_approval_commits_nothing_of_its_change() {
    let a = app(4).await;
    let id = requested(&a).await;
    let session_id = i64::from_str_radix(id.split(':').nth(1).unwrap(), 36).unwrap();
    let fc = caller("fc");
    // The first click applies the change and closes the request together.
    let r = dispatch(&a, &fc, &id, &[]).await;
    assert!(r.is_ok(), "{r:?}");
    assert_eq!(willpower(&a).await, 3);
    // The same button again, read before the first answer: nothing of its
    // change is applied.
    let _ = dispatch(&a, &fc, &id, &[]).await;
    assert_eq!(willpower(&a).await, 3);
    let mut tx = a.db.read().await.unwrap();
    let s = kismet::storage::sessions::get(&mut tx, GUILD, session_id)
        .await
        .unwrap()
        .unwrap();
    assert_eq!(s.status, Status::Closed);
}
