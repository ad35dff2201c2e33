//! Virtual Veil's combat tracker at the application layer: a command that
//! changes the tracker answers its caller privately and redraws the posted
//! tracker (`Reply::Edit`), one tracker per channel, and the Compiler's
//! rights, with no Discord in between.

use crate::common::{app, caller, refusal};
use kismet::app::{Reply, View};
use kismet::rules::ore::sheet::World;
use kismet::systems::ore::{combat, sheet};

fn edit_of(r: &kismet::app::AppResult) -> (&View, &View) {
    let r = r.as_ref().expect("the action succeeds");
    let Reply::Ephemeral(note) = &r.reply else {
        panic!("a private note first: {r:#?}")
    };
    let Some(Reply::Edit(v)) = r.followups.first() else {
        panic!("then an edit of the tracker: {r:#?}")
    };
    (note, v)
}

#[tokio::test]
async fn joining_redraws_the_tracker_and_a_channel_holds_one_fight() {
    let app = app(1).await;
    let (fc, alice) = (caller("fc"), caller("alice"));
    sheet::create(
        &app,
        &alice,
        sheet::CreateArgs {
            name: "Ada".into(),
            stats: [Some(3); 12],
            ..Default::default()
        },
    )
    .await
    .unwrap();
    assert!(refusal(&combat::start(&app, &alice, World::Physical).await)
        .starts_with("Only the Compiler can start a fight"));
    let started = combat::start(&app, &fc, World::Veil).await.unwrap();
    let Reply::Message(v) = &started.reply else {
        panic!("the tracker is posted")
    };
    let id = v.session().expect("the tracker shows its session");
    assert_eq!(
        refusal(&combat::start(&app, &fc, World::Veil).await),
        "A fight is already running in this channel: end it first with `/vv-gm combat end`."
    );
    let r = combat::join(&app, &alice, None).await;
    let (note, tracker) = edit_of(&r);
    assert_eq!(note.content.as_deref(), Some("✅ Ada joins the fight."));
    assert_eq!(tracker.session(), Some(id));
    assert_eq!(
        tracker.embeds[0].description.as_deref(),
        Some("In the Veil · Initiative: Agility\n• **Ada** · Vit 3/3")
    );
    let r = combat::add(
        &app,
        &fc,
        combat::NpcArgs {
            name: "Drone".into(),
            wit: 2,
            agility: 2,
            vitality: 4,
            ..Default::default()
        },
    )
    .await;
    let (_, tracker) = edit_of(&r);
    assert!(tracker.embeds[0]
        .description
        .as_deref()
        .unwrap()
        .ends_with("• **Drone** · Vit 4/4"));
    assert!(refusal(&combat::end(&app, &alice, false).await)
        .starts_with("Only the Compiler can end the fight"));
    let r = combat::end(&app, &fc, false).await;
    let (_, tracker) = edit_of(&r);
    assert_eq!(tracker.embeds[0].title, "🏁 Combat over · round 0");
    assert!(tracker.rows.is_empty());
    assert_eq!(
        refusal(&combat::join(&app, &alice, None).await),
        "No fight is running in this channel: start one with `/vv-gm combat start`."
    );
}
