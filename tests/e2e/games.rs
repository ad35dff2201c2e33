//! Issue 32: many games on one server. Two games side by side in one
//! server, each in its own channel with its own game master: the game
//! master of one is refused the other's ⚙ tools and `/fc undo`, a
//! player's active character differs per game, `/history` in one shows
//! nothing of the other, and an ended game keeps its log readable and
//! refuses rolls. Run on SQLite, and on PostgreSQL with
//! `KISMET_TEST_POSTGRES` set.

use crate::common::{assert_schema_clean, one, replies, table, table_with};
use kismet::app::Clock;
use kismet::fake::table::{Output, Table};
use std::time::Duration;

/// A day on the bot's clock.
const DAY: Duration = Duration::from_secs(86_400);
/// Where a manual clock starts (ms since the epoch).
const START: i64 = 1_800_000_000_000;

/// A table whose bot tells the time by `clock`.
async fn table_on(tag: &str, seed: u64, clock: &Clock) -> Table {
    let clock = clock.clone();
    table_with(tag, seed, move |o| o.clock = clock).await
}

/// A line answered publicly.
async fn public(t: &Table, line: &str) -> Output {
    let out = one(t, line).await;
    assert_eq!(out.kind, "message", "{line}: {}", out.text());
    out
}

/// A line refused privately with `needle` in the refusal.
async fn refused(t: &Table, line: &str, needle: &str) -> Output {
    let out = one(t, line).await;
    assert_eq!(out.kind, "ephemeral", "{line}: {}", out.text());
    assert!(
        out.text().contains(needle),
        "{line}: expected `{needle}` in {}",
        out.text()
    );
    out
}

/// Two Storyteller games, Alpha in #alpha (game master gma) and Beta in
/// #beta (game master gmb), both started by the server manager `fc`;
/// Alice plays Ann in Alpha and Bea in Beta.
async fn two_games(t: &Table) {
    for line in [
        "fc in #alpha: /game-gm create name:Alpha system:Storyteller",
        "fc in #alpha: /game-gm gm add member:@gma",
        "fc in #beta: /game-gm create name:Beta system:Storyteller",
        "fc in #beta: /game-gm gm add member:@gmb",
        "alice: /st sheet create name:Ann willpower:5",
        "alice: /st sheet create name:Bea willpower:6",
        "alice in #alpha: /game character:Ann",
        "alice in #beta: /game character:Bea",
    ] {
        public(t, line).await;
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn issue_32_each_game_has_its_own_game_master() {
    let t = table("games-gm", 1).await;
    two_games(&t).await;
    // Alice marks willpower in Beta: applied, announced, with the game
    // master's Undo behind ⚙.
    public(&t, "alice in #beta: /st sheet willpower current:4").await;
    // Alpha's game master is nobody in Beta: the ⚙ panel refuses them...
    let err = t
        .run_line("gma in #beta: tool Undo")
        .await
        .expect_err("gma has no Undo in Beta");
    assert!(err.contains("Only the game master"), "{err}");
    // ... and so does `/fc undo`.
    refused(
        &t,
        "gma in #beta: /fc undo character:Bea",
        "Only the game master",
    )
    .await;
    // A refusal through the shared rights names the game's game masters.
    refused(
        &t,
        "gma in #beta: /st turn everyone:true",
        "in the game **Beta**, its game masters",
    )
    .await;
    // So do a player's reach for another member's sheet and a character
    // made for another member: the same refusal, whole.
    let mut gms = [Table::user_id("fc"), Table::user_id("gmb")];
    gms.sort();
    let [first, second] = gms;
    let beta = format!("that is in the game **Beta**, its game masters (<@{first}>, <@{second}>) or a server manager.");
    for (line, what) in [
        (
            "alice in #beta: /st sheet set trait:Wits dots:5 player:@bob",
            "act on another player's sheet",
        ),
        (
            "alice in #beta: /st sheet create name:Bo willpower:3 player:@bob",
            "create a character for another player",
        ),
    ] {
        let no = refused(&t, line, what).await;
        assert_eq!(
            no.text(),
            format!("⚠️ Only the storyteller can {what}: {beta}")
        );
    }
    let turn = one(&t, "gmb in #beta: /st turn everyone:true").await;
    assert!(!turn.text().contains("Only the"), "{}", turn.text());
    // Beta's game master undoes it.
    let done = replies(&t, "gmb in #beta: tool Undo").await;
    assert!(
        done.outputs.iter().any(|o| o.text().contains("Undone")),
        "{:?}",
        done.outputs.iter().map(Output::text).collect::<Vec<_>>()
    );
    // Outside every game the server's rules stand: a game's game master
    // is no FC at the table.
    refused(&t, "gma: /fc undo character:Bea", "Only the").await;
    // Managing a game is its game masters' (and server managers').
    refused(
        &t,
        "gma in #beta: /game-gm end",
        "Only the game masters of **Beta**",
    )
    .await;
    refused(
        &t,
        "alice in #alpha: /game-gm gm add member:@alice",
        "Only the game masters of **Alpha**",
    )
    .await;
    public(&t, "gma in #alpha: /game-gm gm add member:@bob").await;
    assert_schema_clean(&t);
    t.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn issue_32_a_players_active_character_differs_per_game() {
    let t = table("games-active", 1).await;
    two_games(&t).await;
    // Server-wide, Bea (made last) is Alice's active character.
    let outside = public(&t, "alice: /st willpower").await;
    assert!(outside.text().contains("Bea"), "{}", outside.text());
    let alpha = public(&t, "alice in #alpha: /st willpower").await;
    assert!(alpha.text().contains("Ann"), "{}", alpha.text());
    assert!(!alpha.text().contains("Bea"), "{}", alpha.text());
    let beta = public(&t, "alice in #beta: /st willpower").await;
    assert!(beta.text().contains("Bea"), "{}", beta.text());
    // `/game` lists them.
    let show = one(&t, "bob in #alpha: /game").await;
    for want in ["Alpha", "Storyteller", "<@", "Ann"] {
        assert!(show.text().contains(want), "{want}: {}", show.text());
    }
    assert!(!show.text().contains("Bea"), "{}", show.text());
    assert_schema_clean(&t);
    t.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn issue_32_history_in_a_game_shows_only_that_game() {
    let t = table("games-history", 1).await;
    two_games(&t).await;
    public(&t, "alice in #alpha: /st willpower").await;
    public(&t, "alice in #beta: /st willpower").await;
    let alpha = one(&t, "alice in #alpha: /history show").await;
    assert!(alpha.text().contains("Ann"), "{}", alpha.text());
    assert!(!alpha.text().contains("Bea"), "{}", alpha.text());
    let beta = one(&t, "alice in #beta: /history show").await;
    assert!(beta.text().contains("Bea"), "{}", beta.text());
    assert!(!beta.text().contains("Ann"), "{}", beta.text());
    // Outside every game, the whole log.
    let all = one(&t, "alice: /history show").await;
    assert!(
        all.text().contains("Ann") && all.text().contains("Bea"),
        "{}",
        all.text()
    );
    assert_schema_clean(&t);
    t.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn issue_32_an_ended_game_keeps_its_log_and_refuses_rolls() {
    let t = table("games-end", 1).await;
    two_games(&t).await;
    let roll = public(&t, "alice in #alpha: /st willpower").await;
    assert!(
        roll.buttons().iter().any(|b| b.0 == "Keep"),
        "a choice waits: {}",
        roll.text()
    );
    refused(
        &t,
        "alice in #alpha: /game-gm end",
        "Only the game masters of **Alpha**",
    )
    .await;
    public(&t, "gma in #alpha: /game-gm end").await;
    refused(
        &t,
        "alice in #alpha: /st willpower",
        "The game **Alpha** has ended",
    )
    .await;
    // A roll left open in it no longer moves on either.
    refused(
        &t,
        "alice in #alpha: click Keep",
        "The game **Alpha** has ended",
    )
    .await;
    // Its log and sheets stay readable.
    let log = one(&t, "alice in #alpha: /history show").await;
    assert!(log.text().contains("Ann"), "{}", log.text());
    let sheet = one(&t, "alice in #alpha: /st sheet show character:Ann").await;
    assert!(sheet.text().contains("Ann"), "{}", sheet.text());
    // Its sheet's controls: Export reads and runs; Delete and Play as…
    // would change it, as `sheet delete` and `sheet use` did: refused.
    let file = one(&t, "alice in #alpha: click Export").await;
    assert_eq!(file.files[0].0, "Ann.kismet.json", "{}", file.text());
    for line in [
        "alice in #alpha: click Delete",
        "alice in #alpha: select Play as… = Bea",
    ] {
        refused(&t, line, "The game **Alpha** has ended").await;
    }
    let show = one(&t, "alice in #alpha: /game").await;
    assert!(show.title().contains("ended"), "{}", show.title());
    // Beta plays on.
    public(&t, "alice in #beta: /st willpower").await;
    assert_schema_clean(&t);
    t.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn issue_32_games_refuse_what_breaks_their_limits() {
    let t = table("games-limits", 1).await;
    refused(
        &t,
        "alice in #alpha: /game-gm create name:Alpha system:Storyteller",
        "Only the FC can create a game",
    )
    .await;
    refused(&t, "fc in #alpha: /game", "belongs to no game").await;
    public(
        &t,
        "fc in #alpha: /game-gm create name:Alpha system:Storyteller",
    )
    .await;
    refused(
        &t,
        "fc in #beta: /game-gm create name:ALPHA system:\"Venus Engine\"",
        "named **ALPHA** already",
    )
    .await;
    refused(
        &t,
        "fc in #alpha: /game-gm create name:Other system:\"Venus Engine\"",
        "belongs to the game **Alpha** already",
    )
    .await;
    let long = "x".repeat(51);
    // Discord's client stops a 51-character name; the application refuses
    // it too.
    assert!(t
        .run_line(&format!(
            "fc in #beta: /game-gm create name:{long} system:\"Venus Engine\""
        ))
        .await
        .is_err());
    // A line break would split the game's line on the card and its title.
    refused(
        &t,
        "fc in #beta: /game-gm create name:\"Iron\nCrown\" system:Storyteller",
        "A game's name cannot contain control characters (a line break, a tab).",
    )
    .await;
    refused(
        &t,
        "fc in #alpha: /game-gm channel remove channel:#alpha",
        "only channel",
    )
    .await;
    // A channel plays one game at a time; a game plays its own system.
    public(
        &t,
        "fc in #beta: /game-gm create name:Beta system:\"Venus Engine\"",
    )
    .await;
    refused(
        &t,
        "fc in #alpha: /game-gm channel add channel:#beta",
        "belongs to the game **Beta**",
    )
    .await;
    refused(
        &t,
        "alice in #beta: /st willpower",
        "plays **Venus Engine**",
    )
    .await;
    refused(
        &t,
        "fc in #alpha: /game-gm gm add",
        "either a `member` or a `role`",
    )
    .await;
    for n in 0..24 {
        public(&t, &format!("fc in #alpha: /game-gm gm add member:@p{n}")).await;
    }
    refused(
        &t,
        "fc in #alpha: /game-gm gm add member:@late",
        "25 game masters",
    )
    .await;
    // Mentions in the replies never ping.
    let added = public(&t, "fc in #beta: /game-gm gm add role:@crew").await;
    assert!(added.text().contains("<@&"), "{}", added.text());
    for kind in ["users", "roles"] {
        assert_eq!(
            added.body["allowed_mentions"][kind],
            serde_json::json!([]),
            "{kind}: {}",
            added.body
        );
    }
    // At most 25 channels a game, 25 running games a server.
    for n in 1..25 {
        public(
            &t,
            &format!("fc in #beta: /game-gm channel add channel:#b{n}"),
        )
        .await;
    }
    refused(
        &t,
        "fc in #beta: /game-gm channel add channel:#b25",
        "25 channels",
    )
    .await;
    for n in 2..25 {
        public(
            &t,
            &format!("fc in #g{n}: /game-gm create name:G{n} system:Storyteller"),
        )
        .await;
    }
    refused(
        &t,
        "fc in #g25: /game-gm create name:G25 system:Storyteller",
        "25 games running",
    )
    .await;
    assert_schema_clean(&t);
    t.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn issue_32_settings_differ_per_game() {
    let t = table("games-settings", 1).await;
    two_games(&t).await;
    // Alpha's game master sets Alpha's default difficulty; Beta and the
    // server keep theirs.
    public(
        &t,
        "gma in #alpha: /st-gm settings set name:st_default_difficulty value:9",
    )
    .await;
    let alpha = public(&t, "alice in #alpha: /st willpower").await;
    assert!(alpha.text().contains("difficulty 9"), "{}", alpha.text());
    let beta = public(&t, "alice in #beta: /st willpower").await;
    assert!(beta.text().contains("difficulty 6"), "{}", beta.text());
    let server = public(&t, "alice: /st willpower").await;
    assert!(server.text().contains("difficulty 6"), "{}", server.text());
    // A game starts from the server's house rules: one the server set
    // before applies in Beta until Beta sets its own.
    public(
        &t,
        "fc: /st-gm settings set name:st_default_difficulty value:8",
    )
    .await;
    let beta = public(&t, "alice in #beta: /st willpower").await;
    assert!(beta.text().contains("difficulty 8"), "{}", beta.text());
    let alpha = public(&t, "alice in #alpha: /st willpower").await;
    assert!(alpha.text().contains("difficulty 9"), "{}", alpha.text());
    // `/game` in a game's channel shows the game's house rules.
    let shown = one(&t, "bob in #alpha: /game").await;
    let rule = shown.field("st_default_difficulty").unwrap_or_default();
    assert!(rule.starts_with("**9**"), "{}", shown.text());
    assert_schema_clean(&t);
    t.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn issue_32_a_game_master_manages_their_game_not_the_server() {
    let t = table("games-server", 1).await;
    two_games(&t).await;
    for (line, needle) in [
        (
            "gma in #alpha: /fc gm-channel channel:#secret",
            "Only the FC",
        ),
        (
            "gma in #alpha: /fc channel-system system:Veracity",
            "Only the FC",
        ),
        ("gma in #alpha: /fc forget member:@alice", "Only the FC"),
        (
            "gma in #alpha: /fc set name:max_dice_per_roll value:5",
            "Only the FC",
        ),
    ] {
        let out = refused(&t, line, needle).await;
        assert!(
            out.text().contains("manage their own game only"),
            "{line}: {}",
            out.text()
        );
    }
    assert_schema_clean(&t);
    t.stop().await;
}

/// How long the newest session waits (ms), as stored.
async fn newest_wait(t: &Table) -> Option<i64> {
    let db = t.db().await.unwrap();
    let mut tx = db.read().await.unwrap();
    let (created, expires): (i64, Option<i64>) =
        sqlx::query_as("SELECT created_at, expires_at FROM sessions ORDER BY id DESC LIMIT 1")
            .fetch_one(&mut *tx)
            .await
            .unwrap();
    expires.map(|e| e - created)
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn issue_32_a_post_pace_games_rolls_wait_days() {
    let t = table("games-pace", 1).await;
    two_games(&t).await;
    refused(
        &t,
        "alice in #beta: /game-gm pace pace:post days:3",
        "Only the game masters of **Beta**",
    )
    .await;
    let set = public(&t, "gmb in #beta: /game-gm pace pace:post days:3").await;
    assert!(set.text().contains("3 days"), "{}", set.text());
    let roll = public(&t, "alice in #beta: /st willpower").await;
    assert!(
        roll.buttons().iter().any(|b| b.0 == "Keep"),
        "{}",
        roll.text()
    );
    assert_eq!(newest_wait(&t).await, Some(3 * 86_400_000));
    // A live game's rolls wait the server's `session_timeout_minutes`.
    let roll = public(&t, "alice in #alpha: /st willpower").await;
    assert!(
        roll.buttons().iter().any(|b| b.0 == "Keep"),
        "{}",
        roll.text()
    );
    assert_eq!(newest_wait(&t).await, Some(15 * 60_000));
    let show = one(&t, "bob in #beta: /game").await;
    assert!(
        show.text().contains("play by post (3 days)"),
        "{}",
        show.text()
    );
    public(&t, "gmb in #beta: /game-gm pace pace:live").await;
    let show = one(&t, "bob in #beta: /game").await;
    assert!(show.text().contains("live"), "{}", show.text());
    assert!(!show.text().contains("play by post"), "{}", show.text());
    assert_schema_clean(&t);
    t.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn issue_32_a_thread_or_channel_under_a_games_channel_is_in_the_game() {
    let t = table("games-parent", 1).await;
    two_games(&t).await;
    // A thread of #alpha (Discord sends its parent with the interaction).
    t.set_parent(t.channel_id_of("#alpha-scene"), t.channel_id_of("#alpha"));
    let roll = public(&t, "alice in #alpha-scene: /st willpower").await;
    assert!(roll.text().contains("Ann"), "{}", roll.text());
    refused(
        &t,
        "gmb in #alpha-scene: /st turn everyone:true",
        "in the game **Alpha**",
    )
    .await;
    // A category added to Beta brings the channels in it.
    public(
        &t,
        "gmb in #beta: /game-gm channel add channel:#beta-category",
    )
    .await;
    t.set_parent(
        t.channel_id_of("#harbour"),
        t.channel_id_of("#beta-category"),
    );
    let roll = public(&t, "alice in #harbour: /st willpower").await;
    assert!(roll.text().contains("Bea"), "{}", roll.text());
    // A channel under no game's channel is in no game.
    let roll = public(&t, "alice in #elsewhere: /st willpower").await;
    assert!(roll.text().contains("Bea"), "{}", roll.text());
    refused(&t, "alice in #elsewhere: /game", "belongs to no game").await;
    // The sandbox's channel syntax is checked.
    let err = t
        .run_line("alice in table: /roll expression:1d6")
        .await
        .expect_err("no # before the channel");
    assert!(err.contains("is not a channel"), "{err}");
    assert_schema_clean(&t);
    t.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn issue_32_sheet_use_in_a_game_changes_the_character_in_that_game() {
    let t = table("games-use", 1).await;
    two_games(&t).await;
    one(&t, "alice in #beta: /st sheet show private:true").await;
    let used = one(&t, "alice in #beta: select Play as… = Ann").await;
    assert!(
        used.text()
            .contains("**Ann** is now your character in **Beta**"),
        "{}",
        used.text()
    );
    let beta = public(&t, "alice in #beta: /st willpower").await;
    assert!(beta.text().contains("Ann"), "{}", beta.text());
    // Elsewhere nothing changed: the server-wide one is still Bea.
    let outside = public(&t, "alice: /st willpower").await;
    assert!(outside.text().contains("Bea"), "{}", outside.text());
    let alpha = public(&t, "alice in #alpha: /st willpower").await;
    assert!(alpha.text().contains("Ann"), "{}", alpha.text());
    assert_schema_clean(&t);
    t.stop().await;
}

/// The game of the newest log entry, as stored.
async fn newest_entry_game(t: &Table) -> Option<i64> {
    let db = t.db().await.unwrap();
    let mut tx = db.read().await.unwrap();
    sqlx::query_scalar("SELECT game_id FROM roll_log ORDER BY id DESC LIMIT 1")
        .fetch_one(&mut *tx)
        .await
        .unwrap()
}

/// The id of the game named `name`.
async fn game_id(t: &Table, name: &str) -> i64 {
    let db = t.db().await.unwrap();
    let mut tx = db.read().await.unwrap();
    sqlx::query_scalar("SELECT id FROM games WHERE name = $1")
        .bind(name)
        .fetch_one(&mut *tx)
        .await
        .unwrap()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn issue_32_every_log_entry_knows_its_game() {
    let t = table("games-log", 1).await;
    two_games(&t).await;
    let (alpha, beta) = (game_id(&t, "Alpha").await, game_id(&t, "Beta").await);
    // The generic `/roll` logs without asking for its game first.
    public(&t, "alice in #alpha: /roll expression:1d6").await;
    assert_eq!(newest_entry_game(&t).await, Some(alpha));
    t.set_parent(t.channel_id_of("#beta-thread"), t.channel_id_of("#beta"));
    public(&t, "alice in #beta-thread: /roll expression:1d6").await;
    assert_eq!(newest_entry_game(&t).await, Some(beta));
    public(&t, "alice: /roll expression:1d6").await;
    assert_eq!(newest_entry_game(&t).await, None);
    public(&t, "alice in #beta: /st willpower").await;
    assert_eq!(newest_entry_game(&t).await, Some(beta));
    public(&t, "gma in #alpha: /game-gm end").await;
    // Alpha's log: its join and its roll, nothing else.
    let log = one(&t, "alice in #alpha: /history show").await;
    assert!(log.text().contains("latest 2."), "{}", log.text());
    assert_schema_clean(&t);
    t.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn issue_32_a_post_pace_roll_left_three_days_still_works() {
    let clock = Clock::manual(START);
    let t = table_on("games-post-days", 1, &clock).await;
    two_games(&t).await;
    public(&t, "gmb in #beta: /game-gm pace pace:post days:5").await;
    let post = public(&t, "alice in #beta: /st willpower").await;
    assert!(
        post.buttons().iter().any(|b| b.0 == "Keep"),
        "{}",
        post.text()
    );
    let live = public(&t, "alice in #alpha: /st willpower").await;
    assert!(
        live.buttons().iter().any(|b| b.0 == "Keep"),
        "{}",
        live.text()
    );
    clock.advance(DAY * 3).unwrap();
    // Three days on, the play-by-post roll still takes its choice.
    let kept = one(&t, "alice in #beta: click Keep").await;
    assert_eq!(kept.kind, "update", "{}", kept.text());
    for want in [
        "Bea · Willpower",
        "✅ Success · 4 successes",
        "**10** **9** **7** **6** 4 3",
    ] {
        assert!(kept.text().contains(want), "{want}: {}", kept.text());
    }
    assert!(kept.buttons().is_empty(), "{}", kept.text());
    // The live game's roll timed out long ago: refused, privately.
    let late = replies(&t, "alice in #alpha: click Keep").await;
    let refusal = late
        .outputs
        .iter()
        .find(|o| o.kind == "ephemeral")
        .unwrap_or_else(|| {
            panic!(
                "{:?}",
                late.outputs.iter().map(Output::text).collect::<Vec<_>>()
            )
        });
    assert!(refusal.text().contains("timed out"), "{}", refusal.text());
    assert_schema_clean(&t);
    t.stop().await;
}

/// The bot's messages so far that say the game waits on someone, with
/// their bodies.
fn wait_pings(t: &Table) -> Vec<serde_json::Value> {
    t.fake
        .requests()
        .into_iter()
        .filter(|r| r.method == "POST")
        .map(|r| r.body)
        .filter(|b| {
            let content = b["content"]
                .as_str()
                .or_else(|| b["data"]["content"].as_str())
                .unwrap_or_default();
            content.contains("waits on you")
        })
        .collect()
}

/// How many waits the game's table holds.
async fn stored_waits(t: &Table) -> i64 {
    let db = t.db().await.unwrap();
    let mut tx = db.read().await.unwrap();
    sqlx::query_scalar("SELECT count(*) FROM game_waits")
        .fetch_one(&mut *tx)
        .await
        .unwrap()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn issue_32_the_waiting_member_is_pinged_once() {
    let clock = Clock::manual(START);
    let t = table_on("games-waits", 1, &clock).await;
    two_games(&t).await;
    public(&t, "gmb in #beta: /game-gm pace pace:post days:5").await;
    // In the play-by-post game the roll waits on Alice's choice: she is
    // pinged, once, in the game's channel, and nobody else is.
    let roll = replies(&t, "alice in #beta: /st willpower").await;
    let ping = roll
        .outputs
        .iter()
        .find(|o| o.content().contains("waits on you"))
        .unwrap_or_else(|| {
            panic!(
                "{:?}",
                roll.outputs.iter().map(Output::text).collect::<Vec<_>>()
            )
        });
    assert_eq!(ping.kind, "message");
    assert!(roll.outputs[0].buttons().iter().any(|b| b.0 == "Keep"));
    let alice = Table::user_id("alice").to_string();
    assert_eq!(
        ping.content(),
        format!("<@{alice}> ⏳ **Beta** waits on you: Bea's willpower choice.")
    );
    assert_eq!(
        ping.body["allowed_mentions"]["users"],
        serde_json::json!([alice])
    );
    assert_eq!(
        ping.body["allowed_mentions"]["roles"],
        serde_json::json!([])
    );
    assert_eq!(wait_pings(&t).len(), 1);
    assert_eq!(stored_waits(&t).await, 1);
    // A live game and a channel in no game ping nobody for a choice.
    // (Rolled until one waits on a choice: a roll with nothing to spend
    // closes at once.)
    for line in ["alice in #alpha: /st willpower", "alice: /st willpower"] {
        let mut waited = false;
        for _ in 0..8 {
            let roll = public(&t, line).await;
            if roll.buttons().iter().any(|b| b.0 == "Keep") {
                waited = true;
                break;
            }
        }
        assert!(waited, "{line}: no roll waited on a choice");
    }
    assert_eq!(wait_pings(&t).len(), 1, "{:?}", wait_pings(&t));
    // Days pass, others act and are refused: no second ping.
    clock.advance(DAY * 2).unwrap();
    refused(&t, "bob in #beta: click Keep", "Only Bea's player").await;
    one(&t, "bob in #beta: /game").await;
    assert_eq!(wait_pings(&t).len(), 1);
    // Her choice ends the wait; nothing more is pinged.
    let kept = one(&t, "alice in #beta: click Keep").await;
    assert_eq!(kept.kind, "update", "{}", kept.text());
    assert_eq!(stored_waits(&t).await, 0);
    assert_eq!(wait_pings(&t).len(), 1, "{:?}", wait_pings(&t));
    assert_schema_clean(&t);
    t.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn issue_32_game_waiting_lists_whom_the_game_waits_on() {
    let t = table("games-waiting", 1).await;
    two_games(&t).await;
    public(&t, "gmb in #beta: /game-gm pace pace:post days:5").await;
    let nobody = refused(&t, "bob in #beta: /game", "waits on nobody").await;
    assert!(nobody.title().contains("Game: Beta"), "{}", nobody.title());
    assert!(nobody.field("Waiting on").is_some(), "{}", nobody.text());
    let roll = public(&t, "alice in #beta: /st willpower").await;
    let message = roll.message_id.expect("the roll's message");
    // Anyone asks, privately: Alice's choice, with a link to the roll.
    let list = refused(&t, "bob in #beta: /game", "Bea's willpower choice").await;
    let alice = Table::user_id("alice");
    let link = format!(
        "https://discord.com/channels/{}/{}/{message}",
        t.guild_id(),
        t.channel_id_of("#beta")
    );
    assert!(
        list.text().contains(&format!("<@{alice}>")),
        "{}",
        list.text()
    );
    assert!(list.text().contains(&link), "{link}: {}", list.text());
    assert!(list.text().contains("since <t:"), "{}", list.text());
    assert_eq!(
        list.body["allowed_mentions"]["users"],
        serde_json::json!([])
    );
    // Her choice made, nobody is waited on.
    let kept = one(&t, "alice in #beta: click Keep").await;
    assert_eq!(kept.kind, "update", "{}", kept.text());
    refused(&t, "bob in #beta: /game", "waits on nobody").await;
    // A live game records no waits; outside a game there is nothing to ask.
    refused(&t, "bob in #alpha: /game", "plays live").await;
    refused(&t, "bob: /game", "belongs to no game").await;
    assert_schema_clean(&t);
    t.stop().await;
}

/// The first select menu of `out`: its custom_id and option values.
fn first_select(out: &Output) -> (String, Vec<String>) {
    let rows = out.body["components"]
        .as_array()
        .cloned()
        .unwrap_or_default();
    for row in rows {
        for c in row["components"].as_array().cloned().unwrap_or_default() {
            if c["type"] == 3 {
                let values = c["options"]
                    .as_array()
                    .unwrap()
                    .iter()
                    .map(|o| o["value"].as_str().unwrap().to_string())
                    .collect();
                return (c["custom_id"].as_str().unwrap().to_string(), values);
            }
        }
    }
    panic!("no select in {}", out.text());
}

/// Issue 31 item 1: `/game` (in place of `/game join|leave|show|waiting`
/// and `/<root> settings show`) shows the channel's game privately with
/// its players, waits and house rules, and a **Join** or **Leave** button
/// for the caller; outside a game, the server's games with a select to
/// join one. Only the card's owner may press; a stale Join does not reset
/// the character a member plays; an ended game offers no button.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn issue_31_the_game_card_joins_and_leaves() {
    let t = table("games-card", 1).await;
    public(
        &t,
        "fc in #alpha: /game-gm create name:Alpha system:Storyteller",
    )
    .await;
    public(&t, "alice: /st sheet create name:Ann willpower:5").await;
    let card = one(&t, "alice in #alpha: /game").await;
    assert_eq!(card.kind, "ephemeral", "{}", card.text());
    assert_eq!(card.title(), "Game: Alpha");
    assert!(card.field("Players").unwrap().contains("nobody yet"));
    assert!(card.field("Waiting on").unwrap().contains("plays live"));
    assert!(
        card.field("st_default_difficulty").is_some(),
        "{}",
        card.text()
    );
    let labels: Vec<String> = card.buttons().into_iter().map(|b| b.0).collect();
    assert_eq!(labels, ["Join"]);
    // Bob cannot press Alice's card.
    let join = card.buttons()[0].1.clone();
    let message = card.message_id.expect("the card's message");
    let ex = t
        .click_custom_id("bob", message, &join, None)
        .await
        .unwrap();
    assert!(
        ex.single().text().contains("another member's"),
        "{}",
        ex.single().text()
    );
    // Alice joins: the card now offers Leave, the table is told.
    let ex = replies(&t, "alice in #alpha: click Join").await;
    assert_eq!(ex.outputs.len(), 2, "{:?}", ex.outputs);
    let card = &ex.outputs[0];
    assert_eq!(card.kind, "update", "{}", card.text());
    let alice = Table::user_id("alice");
    assert!(
        card.field("Players")
            .unwrap()
            .contains(&format!("<@{alice}>: their active character")),
        "{}",
        card.text()
    );
    let labels: Vec<String> = card.buttons().into_iter().map(|b| b.0).collect();
    assert_eq!(labels, ["Leave"]);
    assert_eq!(ex.outputs[1].kind, "message");
    assert!(ex.outputs[1]
        .text()
        .contains("joined **Alpha** with their active Storyteller character"));
    // `/game character:` changes her character; the old card's stale Join
    // (pressed by id) does not reset it.
    public(&t, "alice in #alpha: /game character:Ann").await;
    let ex = t
        .click_custom_id("alice", message, &join, None)
        .await
        .unwrap();
    assert!(
        ex.single().text().contains("You already play that game"),
        "{}",
        ex.single().text()
    );
    let card = one(&t, "alice in #alpha: /game").await;
    assert!(card.field("Players").unwrap().contains("**Ann**"));
    // Leave.
    let ex = replies(&t, "alice in #alpha: click Leave").await;
    assert!(
        ex.outputs[0]
            .field("Players")
            .unwrap()
            .contains("nobody yet"),
        "{}",
        ex.outputs[0].text()
    );
    assert!(ex.outputs[1].text().contains("left **Alpha**"));
    // Outside every game: the server's games, and a select to join one.
    let card = one(&t, "bob in #elsewhere: /game").await;
    assert!(
        card.text().contains("belongs to no game"),
        "{}",
        card.text()
    );
    assert!(
        card.text().contains("**Alpha** · Storyteller"),
        "{}",
        card.text()
    );
    let (_, values) = first_select(&card);
    let alpha = game_id(&t, "Alpha").await;
    assert_eq!(values, [alpha.to_string()]);
    let ex = replies(
        &t,
        &format!("bob in #elsewhere: select Join a game… = {alpha}"),
    )
    .await;
    assert!(ex.outputs[1].text().contains("joined **Alpha**"));
    assert!(ex.outputs[0]
        .text()
        .contains("**Alpha** · Storyteller · <#"));
    assert!(
        ex.outputs[0].text().contains("you play"),
        "{}",
        ex.outputs[0].text()
    );
    // An ended game shows, with no button.
    public(&t, "fc in #alpha: /game-gm end").await;
    let card = one(&t, "bob in #alpha: /game").await;
    assert!(card.title().contains("ended"), "{}", card.title());
    assert!(card.buttons().is_empty(), "{:?}", card.buttons());
    assert_schema_clean(&t);
    t.stop().await;
}

/// An example script, played by the sandbox (`kismet sandbox --seed 1`),
/// which must exit 0: its printed lines.
fn example(name: &str) -> Vec<String> {
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/examples/").to_string() + name;
    let script = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{path}: {e}"));
    crate::platform::sandbox_lines(&[], &script)
}

#[test]
fn issue_32_the_games_examples_play_in_the_sandbox() {
    let games = example("games.txt");
    assert!(
        games
            .iter()
            .any(|l| l.contains("The game **Iron Crown** has ended")),
        "{games:#?}"
    );
    // Play by post: the roll waits on Alice, who is pinged once; three
    // days later (`wait 3 days`) her choice still counts.
    let post = example("play-by-post.txt");
    let pings: Vec<&String> = post.iter().filter(|l| l.contains("waits on you")).collect();
    assert_eq!(pings.len(), 1, "{post:#?}");
    assert!(pings[0].contains("Ada's willpower choice"), "{}", pings[0]);
    let kept = post
        .iter()
        .position(|l| l.starts_with("── update → alice"))
        .unwrap_or_else(|| panic!("{post:#?}"));
    assert!(
        post[kept..]
            .iter()
            .any(|l| l.contains("✅ Success · 4 successes")),
        "{post:#?}"
    );
    assert!(
        post.iter().any(|l| l.contains("waits on nobody")),
        "{post:#?}"
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn issue_32_stats_in_a_game_count_that_games_dice() {
    let t = table("games-stats", 1).await;
    two_games(&t).await;
    public(&t, "alice in #alpha: /roll expression:3d6").await;
    public(&t, "alice in #beta: /roll expression:2d8").await;
    let alpha = one(&t, "alice in #alpha: /stats").await;
    assert!(alpha.title().contains("Alpha"), "{}", alpha.title());
    assert!(
        alpha.text().contains("**3** dice recorded (d6)"),
        "{}",
        alpha.text()
    );
    let beta = one(&t, "alice in #beta: /stats").await;
    assert!(
        beta.text().contains("**2** dice recorded (d8)"),
        "{}",
        beta.text()
    );
    // Outside every game, the whole server's.
    let all = one(&t, "alice: /stats").await;
    assert!(
        all.text().contains("**5** dice recorded (d6, d8)"),
        "{}",
        all.text()
    );
    assert!(!all.title().contains("Alpha"), "{}", all.title());
    assert_schema_clean(&t);
    t.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn issue_32_an_offered_aid_is_taken_at_once_and_the_roll_waits_on_the_roller() {
    let t = table("games-waits-aid", 1).await;
    for line in [
        "fc in #ve: /game-gm create name:Heist system:\"Venus Engine\"",
        "fc in #ve: /game-gm pace pace:post",
        "alice in #ve: /ve sheet create name:Ada",
        "alice in #ve: /ve sheet ability name:Finesse rank:silver score:4",
        "alice in #ve: /ve sheet job name:Thief inherits:Finesse level:3 exp:5",
        "bob in #ve: /ve sheet create name:Bo",
        "bob in #ve: /ve sheet ability name:Finesse rank:bronze score:2",
        "bob in #ve: /ve sheet job name:Acrobat inherits:Finesse level:2 exp:3",
        "fc in #ve: /ve-gm fc edition edition:1",
        "fc in #ve: /ve-gm fc call player:alice kind:task ability:Finesse factors:Darkness consequence:\"Seen\"",
    ] {
        replies(&t, line).await;
    }
    assert!(wait_pings(&t).is_empty(), "{:?}", wait_pings(&t));
    // Bo offers aid: taken at once (issue 31 item 3), so nothing waits on
    // Ada's answer and nobody is pinged.
    replies(&t, "bob in #ve: click Offer aid").await;
    assert_eq!(stored_waits(&t).await, 0);
    assert!(wait_pings(&t).is_empty(), "{:?}", wait_pings(&t));
    // Ada rolls: the task waits on her KISS round (edition 1), and Alice is
    // pinged.
    replies(&t, "alice in #ve: click Roll").await;
    let pings = wait_pings(&t);
    assert_eq!(pings.len(), 1, "{pings:?}");
    let alice = Table::user_id("alice").to_string();
    assert!(
        pings[0].to_string().contains(&format!(
            "<@{alice}> ⏳ **Heist** waits on you: Ada's KISS round."
        )),
        "{pings:?}"
    );
    assert_eq!(stored_waits(&t).await, 1);
    assert_schema_clean(&t);
    t.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn issue_32_an_approval_request_waits_on_the_games_game_masters() {
    let t = table("games-waits-approval", 1).await;
    two_games(&t).await;
    public(&t, "_bo_: /st sheet create name:Bo willpower:5").await;
    public(&t, "_bo_ in #beta: /game character:Bo").await;
    public(&t, "gmb in #beta: /game-gm pace pace:post").await;
    public(&t, "fc: /fc set name:player_edits value:approval").await;
    let asked = replies(&t, "alice in #beta: /st sheet willpower current:2").await;
    assert_eq!(
        asked.outputs.len(),
        2,
        "{:?}",
        asked.outputs.iter().map(Output::text).collect::<Vec<_>>()
    );
    // The request, then one line pinging Beta's game masters (its creator
    // `fc` and gmb), nobody else: not Alpha's gma, not the requester.
    let ping = &asked.outputs[1];
    assert!(
        ping.content()
            .contains("⏳ **Beta** waits on you: the request of alice (Bea's willpower"),
        "{}",
        ping.content()
    );
    let mut users: Vec<String> = ping.body["allowed_mentions"]["users"]
        .as_array()
        .unwrap()
        .iter()
        .map(|u| u.as_str().unwrap().to_string())
        .collect();
    users.sort();
    let mut gms = vec![
        Table::user_id("fc").to_string(),
        Table::user_id("gmb").to_string(),
    ];
    gms.sort();
    assert_eq!(users, gms, "{}", ping.body);
    assert_eq!(
        ping.body["allowed_mentions"]["roles"],
        serde_json::json!([])
    );
    assert!(!ping.content().contains(&Table::user_id("gma").to_string()));
    let list = refused(&t, "alice in #beta: /game", "the game masters").await;
    assert!(
        list.text().contains("the request of alice"),
        "{}",
        list.text()
    );
    assert_eq!(wait_pings(&t).len(), 1);
    // A display name with markdown characters reads as typed in the ping.
    let asked = replies(&t, "_bo_ in #beta: /st sheet willpower current:2").await;
    let ping = asked.outputs.last().unwrap();
    assert!(
        ping.content()
            .contains(r"waits on you: the request of \_bo\_ (Bo's willpower"),
        "{}",
        ping.content()
    );
    assert_schema_clean(&t);
    t.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn issue_32_a_trackers_turn_waits_on_its_member() {
    let t = table("games-waits-turn", 1).await;
    for line in [
        "fc in #ve: /game-gm create name:Docks system:\"Venus Engine\"",
        "fc in #ve: /game-gm pace pace:post",
        "alice in #ve: /ve sheet create name:Ada",
        "bob in #ve: /ve sheet create name:Bo",
        "fc in #ve: /ve-gm spotlight start scene:\"The docks\"",
        "alice in #ve: click Join",
        "bob in #ve: click Join",
        "alice in #ve: click Pass",
    ] {
        replies(&t, line).await;
    }
    // Bo's turn: the turn's own ping is the only one (no second line), and
    // the game waits on him.
    let turn_pings = |t: &Table| {
        t.fake
            .requests()
            .into_iter()
            .filter(|r| r.method == "POST" && r.body.to_string().contains("Bo's turn."))
            .count()
    };
    assert_eq!(turn_pings(&t), 1);
    assert!(wait_pings(&t).is_empty(), "{:?}", wait_pings(&t));
    let bob = Table::user_id("bob");
    let list = refused(&t, "alice in #ve: /game", "Bo's turn").await;
    assert!(
        list.text().contains(&format!("<@{bob}>: Bo's turn")),
        "{}",
        list.text()
    );
    // Bo passes: the wait moves on to Ada.
    replies(&t, "bob in #ve: click Pass").await;
    let list = refused(&t, "alice in #ve: /game", "Ada's turn").await;
    assert!(!list.text().contains("Bo's turn"), "{}", list.text());
    assert_eq!(stored_waits(&t).await, 1);
    assert_schema_clean(&t);
    t.stop().await;
}

/// Issue 32 item 2: a game's secret rolls go to its own GM channel
/// (`/game-gm gm-channel`); a game without one, and every channel outside
/// games, use the server's (`/fc gm-channel`).
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn issue_32_a_games_secret_rolls_go_to_its_own_gm_channel() {
    let t = table("games-gm-channel", 1).await;
    two_games(&t).await;
    one(&t, "fc: /fc gm-channel channel:#gm").await;
    refused(
        &t,
        "gmb in #alpha: /game-gm gm-channel channel:#alpha-gm",
        "game masters",
    )
    .await;
    let set = one(&t, "gma in #alpha: /game-gm gm-channel channel:#alpha-gm").await;
    assert!(set.text().contains("Alpha"), "{}", set.text());
    let posts_in = |channel: &str| {
        let path = format!("/channels/{}/messages", t.channel_id_of(channel));
        t.fake
            .requests_since(0, |r| r.method == "POST" && r.path == path)
            .len()
    };
    let (alpha_gm, server_gm) = (posts_in("#alpha-gm"), posts_in("#gm"));
    t.run_line("alice in #alpha: /roll expression:2d6 secret:true")
        .await
        .unwrap();
    assert_eq!(posts_in("#alpha-gm"), alpha_gm + 1, "Alpha's GM channel");
    assert_eq!(posts_in("#gm"), server_gm, "not the server's");
    t.run_line("alice in #beta: /roll expression:2d6 secret:true")
        .await
        .unwrap();
    assert_eq!(
        posts_in("#gm"),
        server_gm + 1,
        "Beta has none: the server's"
    );
    // Cleared, Alpha's secret rolls go to the server's again.
    one(&t, "gma in #alpha: /game-gm gm-channel clear:true").await;
    t.run_line("alice in #alpha: /roll expression:2d6 secret:true")
        .await
        .unwrap();
    assert_eq!(posts_in("#gm"), server_gm + 2);
    assert_eq!(posts_in("#alpha-gm"), alpha_gm + 1);
    assert_schema_clean(&t);
}

/// The FC's subversion window on a task whose spending finished (the
/// result applied, the task closed with the window open) waits on the
/// game's game masters in a play-by-post game: they are pinged once and
/// `/game` lists them, until the FC lets every consequence stand or
/// subverts one.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn issue_32_the_fcs_subversion_window_waits_on_the_game_masters() {
    let clock = Clock::manual(START);
    let t = table_on("games-waits-subversion", 1, &clock).await;
    for line in [
        "fc in #ve: /game-gm create name:Heist system:\"Venus Engine\"",
        "fc in #ve: /game-gm pace pace:post",
        "fc in #ve: /ve-gm fc edition edition:1",
        "alice in #ve: /ve sheet create name:Ada",
        "alice in #ve: /ve sheet ability name:Wits rank:gold score:0",
    ] {
        replies(&t, line).await;
    }
    let fc = Table::user_id("fc");
    let channel = t.channel_id_of("#ve");
    for (n, job, settle) in [
        (1, "Sage", "No subversion"),
        (2, "Scribe", "Subvert S2 Graceful"),
    ] {
        let task = one(
            &t,
            &format!("alice in #ve: /ve task ability:Wits job:{job} learn:Wits consequence:\"You misread the map\""),
        )
        .await;
        assert_eq!(task.kind, "message", "{}", task.text());
        let message = task.message_id.expect("the task's message");
        // No dice: the failure applies at once and the FC's window opens.
        replies(&t, "alice in #ve: click Roll").await;
        let pings = wait_pings(&t);
        assert_eq!(pings.len(), n, "{pings:?}");
        assert_eq!(
            pings[n - 1]["content"]
                .as_str()
                .or_else(|| pings[n - 1]["data"]["content"].as_str()),
            Some(
                format!("<@{fc}> ⏳ **Heist** waits on you: the FC's subversion of Ada's task.")
                    .as_str()
            )
        );
        let card = one(&t, "alice in #ve: /game").await;
        assert_eq!(
            card.field("Waiting on").unwrap(),
            format!(
                "• the game masters: the FC's subversion of Ada's task · since <t:1800000000:R> · [the message](https://discord.com/channels/{}/{channel}/{message})",
                t.guild_id()
            )
        );
        // The FC's decision ends the wait; nothing more is pinged.
        replies(&t, &format!("fc in #ve: tool {settle}")).await;
        assert_eq!(stored_waits(&t).await, 0);
        let card = one(&t, "alice in #ve: /game").await;
        assert_eq!(
            card.field("Waiting on").unwrap(),
            "**Heist** waits on nobody."
        );
        assert_eq!(wait_pings(&t).len(), n);
    }
    assert_schema_clean(&t);
    t.stop().await;
}

/// A game's name is shown as the game master typed it: `Iron_Crown*`
/// starts no italics and breaks no bold in the creation answer, the
/// card's title, line and waiting field, and the refusals that name the
/// game's game masters; the card's select, plain
/// text for Discord, keeps the name raw.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_games_name_shows_as_typed() {
    let t = table("games-name-markdown", 1).await;
    let (fc, alpha) = (Table::user_id("fc"), t.channel_id_of("#alpha"));
    let created = public(
        &t,
        "fc in #alpha: /game-gm create name:Iron_Crown* system:Storyteller",
    )
    .await;
    assert_eq!(
        created.embeds()[0]["description"],
        format!(
            "**Iron\\_Crown\\*** plays **Storyteller** in <#{alpha}>, with <@{fc}> as its game master. Add channels with `/game-gm channel add`, game masters with `/game-gm gm add`; players join with `/game` here."
        )
    );
    let card = refused(&t, "alice in #alpha: /game", "plays live").await;
    assert_eq!(card.title(), "Game: Iron\\_Crown\\*");
    assert_eq!(
        card.field("Waiting on").as_deref(),
        Some(
            "**Iron\\_Crown\\*** plays live: nobody is waited on between sessions. A game master sets `/game-gm pace pace:post` for play by post."
        )
    );
    let no = refused(&t, "alice in #alpha: /game-gm end", "Only the").await;
    assert_eq!(
        no.text(),
        format!(
            "⚠️ Only the game masters of **Iron\\_Crown\\*** (<@{fc}>) or a server manager can end it."
        )
    );
    // The shared rights' refusal names it too.
    let rights = refused(&t, "alice in #alpha: /st turn everyone:true", "Only the").await;
    assert!(
        rights.text().ends_with(&format!(
            "that is in the game **Iron\\_Crown\\***, its game masters (<@{fc}>) or a server manager."
        )),
        "{}",
        rights.text()
    );
    // Outside the game, the server's games: the line escapes the name, the
    // select's option (plain text) shows it raw.
    let list = refused(&t, "alice in #beta: /game", "belongs to no game").await;
    assert!(
        list.text()
            .contains(&format!("**Iron\\_Crown\\*** · Storyteller · <#{alpha}>")),
        "{}",
        list.text()
    );
    let option = &list.body["components"][0]["components"][0]["options"][0];
    assert_eq!(option["label"], "Iron_Crown*");
    assert_schema_clean(&t);
    t.stop().await;
}
