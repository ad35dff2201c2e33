//! With `player_edits` = `fc_only`, every change a system lists as governed
//! is refused for a player and allowed for the game master (issue 13).

use kismet::app::change::Change;
use kismet::app::{Act, AppError};
use kismet::systems::storyteller::governed::{Edit, Who};
use kismet::systems::table::approval;

use crate::common::{app, caller};

fn is_fc_only_refusal(r: &Result<kismet::app::Response, AppError>) -> bool {
    matches!(r, Err(AppError::User(m)) if m.contains("`player_edits` is `fc_only`"))
}

async fn set_rule(a: &kismet::app::App, value: &str) {
    let fc = caller("fc");
    let mut act = Act::begin(a, &fc).await.unwrap();
    let mut g = kismet::app::settings::guild(&mut act, fc.guild_id)
        .await
        .unwrap();
    g.player_edits = kismet::app::settings::PlayerEdits::parse(value).unwrap();
    kismet::app::settings::save_guild(&mut act, fc.guild_id, &g)
        .await
        .unwrap();
    act.commit().await.unwrap();
}

#[tokio::test]
async fn every_governed_storyteller_change_is_the_storytellers_under_fc_only() {
    let a = app(1).await;
    set_rule(&a, "fc_only").await;
    let alice = caller("alice");
    let fc = caller("fc");
    kismet::systems::storyteller::sheets::create(&a, &alice, "Ada", 5, None)
        .await
        .unwrap();
    kismet::systems::storyteller::sheets::create(&a, &fc, "Bo", 3, Some(alice.user_id + 1))
        .await
        .unwrap();
    let system = a.registry.get("storyteller").unwrap();
    let examples = Edit::examples(Who::default());
    assert_eq!(examples.len(), system.governed().len());
    for (i, edit) in examples.into_iter().enumerate() {
        assert_eq!(edit.governed(), system.governed()[i]);
        let r = approval::govern(&a, &alice, edit.clone()).await;
        assert!(is_fc_only_refusal(&r), "{i}: {r:?}");
        // The game master is never refused by the house rule (the rules
        // themselves may still say no, e.g. reviving one who is not down).
        let edit = match edit {
            Edit::Revive { .. } => Edit::Revive {
                helper: Some("Bo".into()),
                who: Who {
                    character: Some("Ada".into()),
                    player: Some(alice.user_id),
                },
            },
            other => {
                let mut v = serde_json::to_value(&other).unwrap();
                v["who"] = serde_json::json!({ "character": "Ada", "player": alice.user_id });
                serde_json::from_value(v).unwrap()
            }
        };
        let r = approval::govern(&a, &fc, edit).await;
        assert!(!is_fc_only_refusal(&r), "{i}: {r:?}");
    }
}

#[tokio::test]
async fn every_governed_virtual_veil_change_is_the_compilers_under_fc_only() {
    use kismet::systems::ore::governed::{Edit as VvEdit, What as VvWhat, Who as VvWho};
    let a = app(1).await;
    set_rule(&a, "fc_only").await;
    let alice = caller("alice");
    let fc = caller("fc");
    let mut stats = [Some(3); 12];
    stats[4] = Some(5); // Cyber: room for a repair below
    kismet::systems::ore::sheet::create(
        &a,
        &alice,
        kismet::systems::ore::sheet::CreateArgs {
            name: "Ann".into(),
            stats,
            ..Default::default()
        },
    )
    .await
    .unwrap();
    let system = a.registry.get("ore").unwrap();
    let examples = VvEdit::examples(VvWho::default());
    assert_eq!(examples.len(), system.governed().len());
    let ann = serde_json::json!({ "character": "Ann", "player": alice.user_id });
    for (i, edit) in examples.into_iter().enumerate() {
        assert_eq!(edit.governed(), system.governed()[i]);
        let r = approval::govern(&a, &alice, edit.clone()).await;
        assert!(is_fc_only_refusal(&r), "{i}: {r:?}");
        let mut v = serde_json::to_value(&edit).unwrap();
        v["who"] = ann.clone();
        let edit: VvEdit = serde_json::from_value(v).unwrap();
        if matches!(edit.what, VvWhat::Repair { .. }) {
            // Lower Cyber first (the Compiler), so a repair has work to do.
            let lower = VvWhat::Track {
                track: kismet::rules::ore::sheet::Damageable::Cyber,
                max: None,
                current: Some(1),
            }
            .of(serde_json::from_value(ann.clone()).unwrap());
            approval::govern(&a, &fc, lower).await.unwrap();
        }
        let r = approval::govern(&a, &fc, edit).await;
        assert!(r.is_ok(), "{i}: {r:?}");
    }
}

#[tokio::test]
async fn every_governed_venus_change_is_the_fcs_under_fc_only() {
    use kismet::app::characters::Pick;
    use kismet::rules::venus::Rank;
    use kismet::systems::venus::{governed, sheets};
    let a = app(1).await;
    set_rule(&a, "fc_only").await;
    let alice = caller("alice");
    let fc = caller("fc");
    sheets::create(&a, &alice, "Ada", None, None).await.unwrap();
    sheets::ability(&a, &alice, "Finesse", Rank::Silver, 3, Pick::active())
        .await
        .unwrap();
    let thief = sheets::JobEdits {
        inherits: Some("Finesse".into()),
        level: Some(1),
        ..Default::default()
    };
    sheets::job(&a, &alice, "Thief", thief, Pick::active())
        .await
        .unwrap();
    let system = a.registry.get("venus").unwrap();
    let examples = governed::Edit::examples();
    assert_eq!(examples.len(), system.governed().len());
    for (i, edit) in examples.into_iter().enumerate() {
        assert_eq!(edit.governed(), system.governed()[i]);
        let r = approval::govern(&a, &alice, edit.clone()).await;
        assert!(is_fc_only_refusal(&r), "{i}: {r:?}");
        // The FC names Ada (and her player) and is never refused.
        let mut v = serde_json::to_value(&edit).unwrap();
        v["character"] = serde_json::json!("Ada");
        v["player"] = serde_json::json!(alice.user_id);
        let edit: governed::Edit = serde_json::from_value(v).unwrap();
        let r = approval::govern(&a, &fc, edit).await;
        assert!(r.is_ok(), "{i}: {r:?}");
    }
    // The FC's changes are on the sheet: Lots 1, Ego, Thief level 2 exp 1.
    let mut tx = a.db.read().await.unwrap();
    let row = kismet::storage::characters::by_name(
        &mut tx,
        alice.guild_id,
        "venus",
        alice.user_id,
        "Ada",
    )
    .await
    .unwrap()
    .unwrap();
    let s: kismet::rules::venus::VenusSheet = serde_json::from_str(&row.sheet).unwrap();
    assert_eq!((s.lots, s.ego), (1, true));
    let j = s.job("Thief").unwrap();
    assert_eq!((j.level, j.exp, j.qualifications_met), (2, 1, true));
}

#[tokio::test]
async fn every_governed_veracity_change_is_the_referees_under_fc_only() {
    use kismet::app::characters::Pick;
    use kismet::systems::veracity::governed::{Edit as VrEdit, Who as VrWho};
    use kismet::systems::veracity::sheets::{self as vr, NewSheet};
    let a = app(1).await;
    set_rule(&a, "fc_only").await;
    let alice = caller("alice");
    let fc = caller("fc");
    vr::create(
        &a,
        &alice,
        NewSheet {
            name: "Ada",
            light: 6,
            flesh: 6,
            facet: Some("Cruel"),
            player: None,
            npc: false,
        },
    )
    .await
    .unwrap();
    kismet::systems::veracity::changes::stress(&a, &alice, "2", Pick::active())
        .await
        .unwrap();
    let system = a.registry.get("veracity").unwrap();
    let examples = VrEdit::examples(VrWho::default());
    assert_eq!(examples.len(), system.governed().len());
    let ada = VrWho {
        character: Some("Ada".into()),
        player: Some(alice.user_id),
    };
    for (i, (edit, as_fc)) in examples.into_iter().zip(VrEdit::examples(ada)).enumerate() {
        assert_eq!(edit.governed(), system.governed()[i]);
        let r = approval::govern(&a, &alice, edit).await;
        assert!(is_fc_only_refusal(&r), "{i}: {r:?}");
        let r = approval::govern(&a, &fc, as_fc).await;
        assert!(r.is_ok(), "{i}: {r:?}");
    }
}
