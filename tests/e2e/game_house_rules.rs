//! Issue 32: what a play-by-post game's channels show is drawn under the
//! game's own house rules and table (its system, GM channel and game
//! masters), not the server's: the shared `/… sheet show` card, `/ve
//! odds` and `/fc settings show`. Run on SQLite, and on PostgreSQL with
//! `KISMET_TEST_POSTGRES` set.

use crate::common::{assert_schema_clean, one, table};
use crate::ore::ANN;
use kismet::fake::table::{Output, Table};

/// The server plays Venus edition 2 (its default); the play-by-post Venus
/// game Post in #post plays edition 1, its own house rule.
async fn post_game(t: &Table) {
    for line in [
        "fc in #post: /game-gm create name:Post system:\"Venus Engine\"",
        "fc in #post: /game-gm pace pace:post",
        "fc in #post: /ve-gm settings set name:ve_edition value:1",
    ] {
        let out = one(t, line).await;
        assert_eq!(out.kind, "message", "{line}: {}", out.text());
    }
}

/// Alice's sheet shown in the game reads the game's edition 1; it read
/// the server's edition 2. Outside the game it still reads edition 2.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn issue_32_a_sheet_shown_in_a_game_reads_the_games_edition() {
    let t = table("game-house-sheet", 1).await;
    post_game(&t).await;
    let made = one(&t, "alice in #post: /ve sheet create name:Ada").await;
    assert_eq!(made.kind, "message", "{}", made.text());
    let shown = one(&t, "alice in #post: /ve sheet show").await;
    assert!(
        shown.text().contains("Venus Engine, edition 1"),
        "{}",
        shown.text()
    );
    let outside = one(&t, "alice: /ve sheet show").await;
    assert!(
        outside.text().contains("Venus Engine, edition 2"),
        "{}",
        outside.text()
    );
    assert_schema_clean(&t);
    t.stop().await;
}

/// The Cache field of a shown Virtual Veil sheet.
fn cache(out: &Output) -> String {
    out.field("Cache")
        .unwrap_or_else(|| panic!("no Cache: {}", out.text()))
}

/// The play-by-post Virtual Veil game Post counts Fault dice toward the
/// cache (its own `vv_fault_counts_toward_cache = on`; the server's is
/// off). Ann's sheet shown in the game counts her Fault die toward her
/// cache of 2 (3/2: the discard prompt stays unanswered); it was drawn
/// under the server's rule and read "10 9 (2/2)". Outside the game it
/// still does.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn issue_32_a_virtual_veil_sheet_shown_in_a_game_reads_its_house_rules() {
    let t = table("game-house-vv", 3).await;
    for line in [
        "fc in #post: /game-gm create name:Post system:\"Virtual Veil\"",
        "fc in #post: /game-gm pace pace:post",
        "fc in #post: /vv-gm settings set name:vv_fault_counts_toward_cache value:on",
        &format!("alice in #post: {ANN}"),
        "alice in #post: /vv sheet comp cache_size:2 battery_max:3 battery:3",
        "alice in #post: /vv boot",
        "fc in #post: /vv damage target:Vitality amount:1 player:alice",
    ] {
        // Sheet commands answer their owner privately; none is refused.
        let out = one(&t, line).await;
        assert!(!out.text().contains("Only the"), "{line}: {}", out.text());
    }
    let shown = one(&t, "alice in #post: /vv sheet show").await;
    assert_eq!(cache(&shown), "10 9 · Fault 8 (3/2)", "{}", shown.text());
    let outside = one(&t, "alice: /vv sheet show").await;
    assert_eq!(cache(&outside), "10 9 (2/2)", "{}", outside.text());
    t.stop().await;
}

/// `/ve odds` without `edition:` in the game answers in the game's
/// edition 1 (the 1st Playtest); it answered in the server's Playsheet.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn issue_32_odds_in_a_game_default_to_the_games_edition() {
    let t = table("game-house-odds", 1).await;
    post_game(&t).await;
    let odds = one(&t, "alice in #post: /ve odds score:7 target:15 rank:Silver").await;
    assert_eq!(
        odds.title(),
        "🎯 Odds · Venus Engine (1st Playtest) check",
        "{}",
        odds.text()
    );
    let outside = one(&t, "alice: /ve odds score:7 target:15 rank:Silver").await;
    assert_eq!(
        outside.title(),
        "🎯 Odds · Venus Engine (Playsheet) check",
        "{}",
        outside.text()
    );
    t.stop().await;
}

/// `/fc settings show` in the game's channel names the game's system, its
/// GM channel and its game masters; it named the server's (no system
/// chosen, the server's GM channel, the FC role). Outside the game the
/// server's stand.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn issue_32_settings_in_a_game_show_the_games_table() {
    let t = table("game-house-table", 1).await;
    post_game(&t).await;
    for line in [
        "fc: /fc gm-channel channel:#gm",
        "fc in #post: /game-gm gm-channel channel:#post-gm",
        "fc in #post: /game-gm gm add member:@gma",
    ] {
        let out = one(&t, line).await;
        assert_ne!(out.kind, "error", "{line}: {}", out.text());
    }
    let gma = Table::user_id("gma");
    let shown = one(&t, "alice in #post: /fc settings show").await;
    let text = shown.text();
    assert!(
        text.contains("**This channel plays**: Venus Engine (the game **Post** plays it)"),
        "{text}"
    );
    let post_gm = t.channel_id_of("#post-gm");
    assert!(
        text.contains(&format!("**GM channel** (secret rolls): <#{post_gm}>")),
        "{text}"
    );
    assert!(text.contains(&format!("<@{gma}>")), "{text}");
    let outside = one(&t, "alice: /fc settings show").await;
    let text = outside.text();
    assert!(
        text.contains("**This channel plays**: none chosen (the server's)"),
        "{text}"
    );
    let gm = t.channel_id_of("#gm");
    assert!(
        text.contains(&format!("**GM channel** (secret rolls): <#{gm}>")),
        "{text}"
    );
    assert!(!text.contains(&format!("<@{gma}>")), "{text}");
    t.stop().await;
}

/// The footer of Ann's damage report, posted in `place` (the game Post's
/// channel or a thread of it) and picked from 8 days later, when it has
/// timed out (the game's sessions wait 7): the redraw the late pick shows.
async fn late_report(t: &Table, place: &str) -> String {
    for line in [
        "fc in #post: /game-gm create name:Post system:\"Virtual Veil\"",
        "fc in #post: /game-gm pace pace:post",
        "fc in #post: /vv-gm settings set name:vv_fault_counts_toward_cache value:on",
        &format!("alice in #post: {ANN}"),
        "alice in #post: /vv sheet comp cache_size:2 battery_max:3 battery:3",
        "alice in #post: /vv boot",
    ] {
        let out = one(t, line).await;
        assert!(!out.text().contains("Only the"), "{line}: {}", out.text());
    }
    let hit = format!("fc in {place}: /vv damage target:Vitality amount:1 player:alice");
    let hit = one(t, &hit).await;
    assert!(
        hit.text().contains("1 over its maximum"),
        "the report waits for a discard: {}",
        hit.text()
    );
    t.run_line("wait 8 days").await.expect("the clock moves");
    let late = t
        .run_line(&format!("alice in {place}: select Discard which? = c:9"))
        .await
        .unwrap_or_else(|e| panic!("the late pick: {e}"))
        .expect("a line")
        .1
        .outputs;
    let redrawn = late
        .iter()
        .find(|o| o.kind == "update")
        .unwrap_or_else(|| panic!("no redraw: {late:?}"));
    redrawn.text()
}

/// The footer of a timed-out report whose cache is over its maximum.
const TIMED_OUT: &str = "Timed out: the lowest die goes at the next action";

/// A Virtual Veil report left waiting in the play-by-post game Post (its
/// own `vv_fault_counts_toward_cache = on`) is redrawn when a late pick
/// finds it timed out: the redraw reads the game's rule, so the cache is
/// still over its maximum and the footer says the lowest die goes. It
/// read the server's rule (off): no excess, no footer.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn issue_32_a_virtual_veil_report_redrawn_later_reads_the_games_house_rules() {
    let t = table("game-house-vv-redraw", 3).await;
    let text = late_report(&t, "#post").await;
    assert!(text.contains(TIMED_OUT), "{text}");
    t.stop().await;
}

/// The same report posted in a thread of the game's channel: the session
/// keeps the thread's parent, so its redraw still finds the game's rule.
/// Without the parent kept it read the server's (no footer).
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn issue_32_a_report_in_a_games_thread_redrawn_later_reads_the_games_house_rules() {
    let t = table("game-house-vv-thread", 3).await;
    t.set_parent(t.channel_id_of("#post-thread"), t.channel_id_of("#post"));
    let text = late_report(&t, "#post-thread").await;
    assert!(text.contains(TIMED_OUT), "{text}");
    t.stop().await;
}
