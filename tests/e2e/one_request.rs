//! One request per interaction (issue 17, item 5): an answer whose buttons
//! start a session learns its message id from the interaction callback's
//! own answer (`with_response=true`), never by reading the message back.

use crate::common::{assert_schema_clean, table};
use kismet::app::component::ButtonId;
use kismet::fake::table::GUILD_ID;
use kismet::fake::{FakeDiscord, Recorded, Schemas};
use kismet::kit::deliver::answer_with_message;
use kismet::storage;
use poise::serenity_prelude as serenity;

const CALLBACK: &str = "/interactions/{interaction_id}/{interaction_token}/callback";

fn describe(reqs: &[Recorded]) -> String {
    reqs.iter()
        .map(|r| format!("{} {} -> {}", r.method, r.path, r.status))
        .collect::<Vec<_>>()
        .join("\n")
}

/// The message the database says shows `session`.
async fn posted_message(t: &kismet::fake::table::Table, session: i64) -> Option<i64> {
    let db = t.db().await.expect("the bot runs");
    let mut tx = db.read().await.unwrap();
    storage::sessions::get(&mut tx, GUILD_ID as i64, session)
        .await
        .unwrap()
        .expect("the session exists")
        .message_id
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_roll_with_buttons_and_a_click_cost_one_request_each() {
    let t = table("one-request", 5).await;

    let before = t.fake.last_seq();
    let ex = t.command("alice", "/roll expression:2d6").await.unwrap();
    let reqs = t.fake.requests_since(before, |_| true);
    assert_eq!(reqs.len(), 1, "{}", describe(&reqs));
    assert_eq!(reqs[0].method, "POST");
    assert_eq!(reqs[0].route.as_deref(), Some(CALLBACK));
    assert_eq!(reqs[0].status, 200, "answered with the callback response");
    // The session's message was learnt from that one answer.
    let out = ex.single();
    let reroll = out
        .buttons()
        .into_iter()
        .find(|b| b.0 == "Reroll")
        .expect("a Reroll button");
    let session = ButtonId::parse(&reroll.1).expect("a valid id").session;
    let shown = ex.message_id.expect("the roll made a message");
    assert_eq!(posted_message(&t, session).await, Some(shown as i64));

    let before = t.fake.last_seq();
    let ex = t.click("alice", "Reroll").await.unwrap();
    assert_eq!(ex.single().kind, "update");
    let reqs = t.fake.requests_since(before, |_| true);
    assert_eq!(reqs.len(), 1, "{}", describe(&reqs));
    assert_eq!(reqs[0].route.as_deref(), Some(CALLBACK));
    assert_eq!(posted_message(&t, session).await, Some(shown as i64));

    // No reply was read back in the whole run.
    let reads = t.fake.requests_since(0, |r| r.method == "GET");
    assert!(
        !reads
            .iter()
            .any(|r| r.path.ends_with("/messages/@original")),
        "{}",
        describe(&reads)
    );
    assert_schema_clean(&t);
    t.stop().await;
}

/// The fake answers `with_response=true` as Discord documents it (checked
/// against the OpenAPI schema of the 200 answer), and the kit reads the
/// message out of it: a new message (type 4), an update of the clicked
/// message (type 7), and nothing for a deferral (type 5).
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_callback_response_names_the_message() {
    let schemas = Schemas::find().map(|p| Schemas::load(&p).unwrap());
    assert!(schemas.is_some(), "the OpenAPI file is in the repository");
    let fake = FakeDiscord::start(schemas).await.unwrap();
    let http = serenity::HttpBuilder::new("fake-token")
        .proxy(fake.base_url())
        .ratelimiter_disabled(true)
        .build();
    let message = |text: &str| {
        serenity::CreateInteractionResponseMessage::new()
            .content(text)
            .allowed_mentions(serenity::CreateAllowedMentions::new())
    };

    // A new message.
    fake.expect_token("t-new", 11, 22, None);
    let id = serenity::InteractionId::new(1001);
    let response = serenity::CreateInteractionResponse::Message(message("hello"));
    let got = answer_with_message(&http, id, "t-new", &response)
        .await
        .unwrap()
        .expect("type 4 names its message");
    assert_eq!(Some(got.id.get()), fake.original_message("t-new"));
    assert_eq!(got.content, "hello");
    assert_eq!(got.channel_id.get(), 22);

    // An update of the clicked message.
    fake.expect_token("t-upd", 11, 22, Some(got.id.get()));
    let id = serenity::InteractionId::new(1002);
    let response = serenity::CreateInteractionResponse::UpdateMessage(message("changed"));
    let updated = answer_with_message(&http, id, "t-upd", &response)
        .await
        .unwrap()
        .expect("type 7 names its message");
    assert_eq!(updated.id, got.id);
    assert_eq!(updated.content, "changed");

    // A deferral: no resource, but the interaction says a message is loading.
    fake.expect_token("t-def", 11, 22, None);
    let id = serenity::InteractionId::new(1003);
    let response = serenity::CreateInteractionResponse::Defer(
        serenity::CreateInteractionResponseMessage::new(),
    );
    let none = answer_with_message(&http, id, "t-def", &response)
        .await
        .unwrap();
    assert!(none.is_none());

    let reqs = fake.requests();
    assert_eq!(reqs.len(), 3, "{}", describe(&reqs));
    let v = fake.violations();
    assert!(v.is_empty(), "{}", v.join("\n"));
    assert!(reqs.iter().all(|r| r.status == 200));
}

/// A plain callback (no `with_response`) still gets Discord's 204.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_plain_callback_still_gets_204() {
    let fake = FakeDiscord::start(None).await.unwrap();
    let http = serenity::HttpBuilder::new("fake-token")
        .proxy(fake.base_url())
        .ratelimiter_disabled(true)
        .build();
    fake.expect_token("t-plain", 11, 22, None);
    let response = serenity::CreateInteractionResponse::Message(
        serenity::CreateInteractionResponseMessage::new().content("hi"),
    );
    http.create_interaction_response(
        serenity::InteractionId::new(1004),
        "t-plain",
        &response,
        Vec::new(),
    )
    .await
    .unwrap();
    let reqs = fake.requests();
    assert_eq!(reqs.len(), 1);
    assert_eq!(reqs[0].status, 204);
}
