//! Issue 28 (shared machinery) and issue 32: a governed change in a
//! play-by-post game is tried, and applied, under the house rules where
//! it was asked: the game's own, not the server's. Run on SQLite, and on
//! PostgreSQL with `KISMET_TEST_POSTGRES` set.

use crate::common::{assert_schema_clean, one, replies, table};
use crate::ore::{sheet_of, ANN};
use kismet::fake::table::{Output, Table};
use kismet::rules::ore::OreSheet;

/// Alice's Ann, as stored.
async fn ann(t: &Table) -> OreSheet {
    sheet_of(t, "alice", "Ann").await
}

/// The server subtracts defenses from damage (`vv_defense_mode =
/// subtract`); the play-by-post Virtual Veil game Post in #post keeps
/// them shown only (its own `display`). Alice's Ann has Defense 1.
async fn post_game(t: &Table, sheet_in: &str) {
    for line in [
        "fc: /vv-gm settings set name:vv_defense_mode value:subtract",
        "fc in #post: /game-gm create name:Post system:\"Virtual Veil\"",
        "fc in #post: /game-gm pace pace:post",
        "fc in #post: /vv-gm settings set name:vv_defense_mode value:display",
    ] {
        let out = one(t, line).await;
        assert_eq!(out.kind, "message", "{line}: {}", out.text());
    }
    replies(t, &format!("alice in {sheet_in}: {ANN}")).await;
}

/// A player's own 1 damage in the game, under `player_edits = free`: the
/// game shows defenses only, so the hit lands (Vitality 5/5 → 4/5 and a
/// Fault die). The change was tried under the server's rules, where
/// Defense 1 stops it entirely, so Alice was told privately "That changes
/// nothing … nothing was saved" and could not take the hit at all. Outside
/// the game the server's rules still stop it.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn issue_28_a_change_in_a_game_is_tried_under_the_games_house_rules() {
    let t = table("game-rules-free", 1).await;
    post_game(&t, "#post").await;
    let hit = one(&t, "alice in #post: /vv damage target:Vitality amount:1").await;
    assert_eq!(hit.kind, "message", "{}", hit.text());
    assert!(
        hit.text()
            .contains("changed Ann's Vitality 5/5 → 4/5 (1 damage and a Fault die)."),
        "{}",
        hit.text()
    );
    let s = ann(&t).await;
    assert_eq!((s.vitality.current, s.fault_dice.len()), (4, 1));
    // Outside the game the server's rule stands: Defense 1 stops it.
    let stopped = one(&t, "alice: /vv damage target:Vitality amount:1").await;
    assert_eq!(stopped.kind, "ephemeral", "{}", stopped.text());
    assert!(
        stopped.text().contains("That changes nothing"),
        "{}",
        stopped.text()
    );
    let s = ann(&t).await;
    assert_eq!((s.vitality.current, s.fault_dice.len()), (4, 1));
    assert_schema_clean(&t);
    t.stop().await;
}

/// Under `player_edits = approval`, Alice asks in a thread of the game
/// (its parent, #post, is the game's channel) for 1 damage: tried under
/// the server's rules, it was refused privately as changing nothing, and
/// no request was made. Now the request reads Vitality 5/5 → 4/5, and the
/// game master's Approve in the thread lands the hit under the game's
/// rules (Vitality 4/5 and a Fault die), in the game's log.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn issue_28_an_approved_change_in_a_game_runs_under_its_house_rules() {
    let t = table("game-rules-approval", 1).await;
    let asked = ask_in_thread(&t).await;
    assert!(asked.buttons().iter().any(|b| b.1.ends_with(":__gm")));
    let approved = replies(&t, "fc in #post-scene: tool Approve").await;
    assert_eq!(approved.outputs[0].title(), "✅ Change approved");
    landed_in_the_game(&t).await;
    t.stop().await;
}

/// The request of [`issue_28_an_approved_change_in_a_game_runs_under_its_house_rules`]
/// approved by a click that comes from another channel, outside the game
/// (Discord sends a click from the message's channel; a click from
/// elsewhere stands for any way the answer may reach the bot): the change
/// still runs where it was asked, under the game's rules and in its log,
/// not under the server's where the click came from (there Defense 1
/// stopped the hit: "approved: applied", yet nothing changed).
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn issue_28_an_approved_change_runs_where_it_was_asked_not_where_it_is_clicked() {
    let t = table("game-rules-elsewhere", 1).await;
    let asked = ask_in_thread(&t).await;
    let message = asked.message_id.expect("the request is a message");
    let open = asked
        .buttons()
        .into_iter()
        .find(|b| b.1.ends_with(":__gm"))
        .expect("the request's ⚙")
        .1;
    let approve = open.replace(":__gm", ":approve");
    t.set_channel(t.channel_id_of("#elsewhere"));
    let approved = t
        .click_custom_id("fc", message, &approve, None)
        .await
        .unwrap();
    assert_eq!(approved.outputs[0].title(), "✅ Change approved");
    landed_in_the_game(&t).await;
    t.stop().await;
}

/// Under `player_edits = approval`, Alice asks in #post-scene, a thread of
/// the game's #post, for 1 damage to Ann: the request, tried under the
/// game's rules.
async fn ask_in_thread(t: &Table) -> Output {
    one(t, "fc: /fc set name:player_edits value:approval").await;
    t.set_parent(t.channel_id_of("#post-scene"), t.channel_id_of("#post"));
    post_game(t, "#post-scene").await;
    let asked = one(
        t,
        "alice in #post-scene: /vv damage target:Vitality amount:1",
    )
    .await;
    assert_eq!(asked.title(), "🙋 A change waits for the Compiler");
    assert!(
        asked.text().contains("Ann's Vitality 5/5 → 4/5"),
        "{}",
        asked.text()
    );
    assert_eq!(ann(t).await.vitality.current, 5);
    asked
}

/// The approved hit landed under the game's rules, and the game's log
/// (its `/history`) has it.
async fn landed_in_the_game(t: &Table) {
    let s = ann(t).await;
    assert_eq!((s.vitality.current, s.fault_dice.len()), (4, 1));
    let log = one(t, "alice in #post: /history show").await;
    assert!(log.text().contains("Ann"), "{}", log.text());
    assert_schema_clean(t);
}

/// Issue 32: Vic, the game master of the Venus game Heist (named by the
/// game, no FC of the server), gave the game a house rule of its own, then
/// sets its edition with `/ve-gm fc edition edition:1` in the game's
/// channel. The edition went to the server's house rules, out of a game
/// master's reach (every table outside the game played edition 1), and
/// the game, which keeps its own, stayed on edition 2. Now the game plays
/// edition 1 and the server keeps edition 2.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn issue_32_a_game_masters_edition_is_the_games_not_the_servers() {
    let t = table("game-rules-edition", 1).await;
    for line in [
        "fc in #ve: /game-gm create name:Heist system:\"Venus Engine\"",
        "fc in #ve: /game-gm gm add member:@vic",
        "vic in #ve: /ve-gm settings set name:ve_max_pool value:12",
        "vic in #ve: /ve-gm fc edition edition:1",
    ] {
        let out = one(&t, line).await;
        assert_eq!(out.kind, "message", "{line}: {}", out.text());
    }
    let game = one(&t, "alice in #ve: /fc settings show").await;
    assert!(
        game.text().contains("`ve_edition` **1**") && game.text().contains("`ve_max_pool` **12**"),
        "{}",
        game.text()
    );
    let server = one(&t, "alice: /fc settings show").await;
    assert!(
        server.text().contains("`ve_edition` **2**")
            && !server.text().contains("`ve_max_pool` **12**"),
        "{}",
        server.text()
    );
    assert_schema_clean(&t);
    t.stop().await;
}

/// Issue 32: the server plays Storyteller; the game Post plays Virtual
/// Veil in #post and its threads. Alice's Virtual Veil commands in the
/// game were refused: "This channel plays **Storyteller**, so `/vv` … is
/// not played here", the server's system standing for the game's. Now
/// they play in the game (a thread of its channel included), and
/// Storyteller's are the ones refused there, naming the game (as before);
/// outside the game the server's system stands.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn issue_32_a_game_plays_its_own_system_in_its_channels() {
    let t = table("game-rules-system", 1).await;
    t.set_parent(t.channel_id_of("#post-scene"), t.channel_id_of("#post"));
    for line in [
        "fc: /fc set name:system value:storyteller",
        "fc in #post: /game-gm create name:Post system:\"Virtual Veil\"",
    ] {
        let out = one(&t, line).await;
        assert_eq!(out.kind, "message", "{line}: {}", out.text());
    }
    let made = one(&t, &format!("alice in #post: {ANN}")).await;
    assert_eq!(made.title(), "📇 Created Ann", "{}", made.text());
    let roll = one(&t, "alice in #post-scene: /vv roll stat:Agility").await;
    assert_eq!(roll.kind, "message", "{}", roll.text());
    let refused = one(&t, "alice in #post: /st pool dice:3").await;
    assert_eq!(refused.kind, "ephemeral", "{}", refused.text());
    assert!(
        refused
            .text()
            .contains("belongs to the game **Post**, which plays **Virtual Veil**, so `/st`"),
        "{}",
        refused.text()
    );
    let outside = one(&t, "alice: /vv roll stat:Agility").await;
    assert!(
        outside.text().contains("This channel plays **Storyteller"),
        "{}",
        outside.text()
    );
    assert_schema_clean(&t);
    t.stop().await;
}
