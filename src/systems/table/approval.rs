//! The house rule `player_edits` and the game master's approval of a
//! player's change (issue 13).
//!
//! Each system lists the changes a player can make to values its rules put
//! in the game master's hands as one serialisable enum implementing
//! [`Change`], and its commands for them call [`govern`] instead of applying
//! the change directly. What happens then depends on the caller and on the
//! guild's `player_edits`:
//!
//! | caller / rule | what happens |
//! |---|---|
//! | the game master (FC) | applied |
//! | a player, `free` | applied, and announced in one public line |
//! | a player, `fc_only` | refused, privately, naming who can do it |
//! | a player, `approval` | not applied: a public request (who asks for what, before → after) with **Approve** and **Reject**, which only the FC can press |
//!
//! A request is a session of this feature's own kind ([`KIND`]) holding the
//! system's id, the change as data and where it was asked; it expires like
//! a roll and survives a restart. **Approve** asks the owning system to
//! apply the change through the registry inside the click's own transaction
//! ([`System::apply_change_within`]: the same code as the direct change,
//! run as the approving game master where the request was asked, under
//! that game's house rules and into its log), which also closes the
//! request: the change and "approved" become durable together, and of a
//! double click only one applies.

use serde::{Deserialize, Serialize};

use super::answer::{self, Words};
use crate::app::change::Change;
use crate::app::component::{Action, Click};
use crate::app::games::Place;
use crate::app::pipeline::{Outcome, Table, Turn, Waiter};
use crate::app::registry::{gm_of, Governed};
use crate::app::settings::{self, PlayerEdits};
use crate::app::view::{colour, Button, Embed, Style, View};
use crate::app::{rights, sessions, Act, App, AppError, AppResult, Caller, Reply, Response};
use crate::storage::sessions::{Session, Status};

/// The session kind of approval requests.
pub const KIND: &str = "approve";

/// The guild's `player_edits` and whether the caller is the game master.
async fn standing(app: &App, caller: &Caller) -> Result<(PlayerEdits, bool), AppError> {
    let mut tx = app.db.read().await?;
    let g = settings::guild(&mut tx, caller.guild_id).await?;
    let fc = rights::is_fc_in(&mut tx, caller, &g).await?;
    Ok((g.player_edits, fc))
}

/// The refusal a player gets under `fc_only`, naming the game master as
/// `system`'s rules do.
pub fn refusal(g: Governed, system: &str) -> AppError {
    let gm = gm_of(system);
    AppError::user(format!(
        "Only the {gm} can change {} (`{}`) at this table: the house rule `player_edits` is `fc_only`. Ask the {gm} to do it.",
        g.what, g.command
    ))
}

/// Runs a governed change as the house rule says (see the module comment).
pub async fn govern<C: Change>(app: &App, caller: &Caller, change: C) -> AppResult {
    let (rule, fc) = standing(app, caller).await?;
    if fc {
        return change.apply(app, caller).await;
    }
    if rule == PlayerEdits::FcOnly {
        return Err(refusal(change.governed(), C::SYSTEM));
    }
    let g = change.governed();
    let p = change.prepare(app, caller).await?;
    if p.unchanged {
        return Err(AppError::user(format!(
            "That changes nothing ({}): nothing was saved.",
            p.what
        )));
    }
    match rule {
        PlayerEdits::FcOnly => Err(refusal(g, C::SYSTEM)),
        PlayerEdits::Free => {
            let r = p.change.apply(app, caller).await?;
            let line = format!("📣 <@{}> changed {}.", caller.user_id, p.what);
            let announced =
                super::undo::announce(app, caller, C::SYSTEM, p.character, line).await?;
            // The announcement comes first: the message of its Undo session
            // is then known, so the game master's Undo redraws it in place;
            // the change's own answer follows.
            let mut followups = vec![r.reply];
            followups.extend(r.followups);
            Ok(Response {
                reply: Reply::Message(announced),
                followups,
            })
        }
        PlayerEdits::Approval => {
            let request = Request {
                system: C::SYSTEM.to_string(),
                change: serde_json::to_value(&p.change)?,
                requester: caller.user_id,
                command: g.command.to_string(),
                what: p.what,
                answer: None,
                by: None,
                note: None,
                at: Some(caller.place()),
            };
            let turn = Turn::<Table>::begin(app, caller).await?;
            let (timeout, fc_role) = (turn.guild.session_timeout_minutes, turn.guild.fc_role);
            // In a play-by-post game the request waits the game's days on
            // the game's game masters, pinged once (issue 32); elsewhere
            // the server's FC role is pinged (the one deliberate role ping),
            // when the server names one.
            let role = fc_role.filter(|_| !turn.pings_waits());
            let waits_for = format!(
                "the request of {} ({})",
                crate::app::view::escape(&caller.name),
                request.what
            );
            let asked = request.clone();
            let out = Outcome::new(move |s| {
                let mut v = view(s.id, s.version, Status::Open, &asked);
                if let Some(role) = role {
                    v = v.ping_role(role, "a request for you:");
                }
                Response::message(v)
            })
            .start(KIND, &request, Status::Open, Some(timeout))
            .waits_on(Waiter::GameMasters, waits_for);
            turn.finish(out).await
        }
    }
}

/// The words of a request's answers (in posted buttons: never rename
/// them).
pub struct ApprovalWords;

impl Words for ApprovalWords {
    const YES: &'static str = "approve";
    const NO: &'static str = "reject";
}

/// An answer to a request: [`Answer::YES`] approves, [`Answer::NO`]
/// rejects.
pub type Answer = answer::Answer<ApprovalWords>;

/// What a request keeps between the ask and the answer.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Request {
    /// The owning system's id.
    pub system: String,
    /// The system's typed change, as JSON.
    pub change: serde_json::Value,
    /// Who asks.
    pub requester: i64,
    /// The command asked for.
    pub command: String,
    /// What it does, before → after.
    pub what: String,
    /// `Some(true)` once approved, `Some(false)` once rejected.
    pub answer: Option<bool>,
    /// The game master who answered.
    pub by: Option<i64>,
    /// Why an approved change could not be applied after all.
    pub note: Option<String>,
    /// Where it was asked: the answer is given, and the change runs, there
    /// (that game's game masters, house rules and log), wherever the game
    /// master clicks. `None` in a request stored before it was kept: the
    /// click's place.
    #[serde(default)]
    pub at: Option<Place>,
}

/// The request message as it stands.
pub fn view(id: i64, version: i64, status: Status, r: &Request) -> View {
    let ask = format!(
        "<@{}> asks to change {} (`{}`).",
        r.requester, r.what, r.command
    );
    let gm = gm_of(&r.system);
    let waits = format!("🙋 A change waits for the {gm}");
    let (title, text, col) = match (r.answer, &r.note) {
        (Some(true), None) => (
            "✅ Change approved",
            format!(
                "{ask}\nApproved by <@{}>: applied.",
                r.by.unwrap_or_default()
            ),
            colour::SUCCESS,
        ),
        (Some(true), Some(n)) => (
            "⚠️ Change approved, not applied",
            format!(
                "{ask}\nApproved by <@{}>, but it could not be applied: {n}",
                r.by.unwrap_or_default()
            ),
            colour::FAILURE,
        ),
        (Some(false), _) => (
            "❌ Change rejected",
            format!(
                "{ask}\nRejected by <@{}>: nothing changed.",
                r.by.unwrap_or_default()
            ),
            colour::CLOSED,
        ),
        (None, _) if status != Status::Open => (
            "⌛ Change not approved",
            format!("{ask}\nThe request timed out: nothing changed."),
            colour::CLOSED,
        ),
        (None, _) => (
            waits.as_str(),
            format!("{ask}\nOnly the {gm} can approve or reject it."),
            colour::NEUTRAL,
        ),
    };
    let v = View::embed(Embed::new(title).description(text).colour(col));
    if r.answer.is_some() || status != Status::Open {
        return v;
    }
    let b = |a: Answer, label: &str, style| {
        Button::new(a.button(KIND, id, version).encode(), label, style)
    };
    // The game master's answer: behind the ⚙ button, never among the
    // players' buttons (`app::gm_panel`); rejecting asks to confirm there.
    let mut v = v;
    v.gm_word = Some(gm.to_string());
    v.buttons(vec![
        b(Answer::YES, "Approve", Style::Success).gm_only(),
        b(Answer::NO, "Reject", Style::Danger).gm_only(),
    ])
}

/// A click on a request: only the game master may answer. Approving closes
/// the request first (so it is applied once), then applies the change
/// through the owning system.
pub async fn click(app: &App, mut act: Act, session: Session, click: &Click<'_>) -> AppResult {
    let mut r: Request = serde_json::from_str(&session.state)?;
    let answer: Answer = click.action()?;
    if let Some(at) = r.at {
        act.move_to(at);
    }
    if !act.is_fc().await? {
        return Err(AppError::user(format!(
            "Only the {} can approve or reject this change.",
            gm_of(&r.system)
        )));
    }
    r.answer = Some(answer == Answer::YES);
    r.by = Some(click.caller.user_id);
    if answer == Answer::NO {
        let v = sessions::save(&mut act, &session, &r, Status::Closed, None).await?;
        act.commit().await?;
        return Ok(Response::update(view(session.id, v, Status::Closed, &r)));
    }
    let system = app
        .registry
        .get(&r.system)
        .ok_or_else(|| AppError::Internal(format!("no system `{}`", r.system)))?;
    // A system whose changes compose applies the change inside this
    // click's own transaction, which also closes the request: the change
    // and "approved" are durable together or not at all, and a second
    // click waits for this one and then finds the request answered.
    let Some(applying) = system.apply_change_within(app, &mut act, &r.change) else {
        return Err(AppError::Internal(format!(
            "the changes of `{}` do not compose",
            r.system
        )));
    };
    let applied = match applying.await {
        Ok(pending) => Some(pending),
        // Not applied after all (the sheet changed meanwhile): a refusal
        // comes before anything is written; say so on the request.
        Err(AppError::User(msg)) => {
            r.note = Some(msg);
            None
        }
        Err(e) => return Err(e),
    };
    let v = sessions::save(&mut act, &session, &r, Status::Closed, None).await?;
    act.commit().await?;
    let mut out = Response::update(view(session.id, v, Status::Closed, &r));
    if let Some(pending) = applied {
        let applied = pending.draw(app, click.caller).await;
        out.followups.push(public(applied.reply));
        out.followups.extend(applied.followups);
    }
    Ok(out)
}

/// The applied change's answer, posted for the channel.
fn public(reply: Reply) -> Reply {
    match reply {
        Reply::Ephemeral(v) | Reply::Update(v) | Reply::Message(v) => Reply::Message(v),
        edit @ Reply::Edit(_) => edit,
    }
}

/// Draws a request as it stands.
pub fn render(session: &Session) -> Result<View, AppError> {
    let r: Request = serde_json::from_str(&session.state)?;
    Ok(view(session.id, session.version, session.status, &r))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::app::characters::Who;
    use crate::app::RngSource;
    use crate::config::Config;
    use crate::storage::{self, Db};
    use crate::systems::storyteller::governed::Edit;

    #[test]
    fn answers_keep_their_words() {
        for a in [Answer::YES, Answer::NO] {
            let (w, arg) = a.encode();
            assert_eq!(Answer::parse(w, arg.as_deref()), Some(a));
        }
        assert_eq!(Answer::YES.encode().0, "approve");
        assert_eq!(Answer::NO.encode().0, "reject");
    }

    #[test]
    fn a_request_offers_approve_and_reject_until_answered() {
        let mut r = Request {
            system: "storyteller".into(),
            change: serde_json::json!({}),
            requester: 7,
            command: "/st recover".into(),
            what: "Ada's willpower 3/7 → 4/7".into(),
            answer: None,
            by: None,
            note: None,
            at: None,
        };
        let v = view(1, 0, Status::Open, &r);
        let ids: Vec<&str> = v.all_buttons().map(|b| b.custom_id.as_str()).collect();
        assert_eq!(ids, vec!["approve:1:0:approve", "approve:1:0:reject"]);
        assert!(format!("{v:?}").contains("3/7 → 4/7"));
        r.answer = Some(true);
        r.by = Some(9);
        let v = view(1, 1, Status::Closed, &r);
        assert_eq!(v.all_buttons().count(), 0);
        assert!(format!("{v:?}").contains("Approved by <@9>"));
    }

    #[test]
    fn a_request_stored_before_its_place_was_kept_still_reads() {
        let old = r#"{"system":"storyteller","change":{},"requester":7,"command":"/st recover","what":"Ada's willpower 3/7 → 4/7","answer":null,"by":null,"note":null}"#;
        let r: Request = serde_json::from_str(old).unwrap();
        assert_eq!(r.at, None);
        assert_eq!(r.requester, 7);
    }

    const GUILD: i64 = 70;

    async fn app() -> App {
        app_in("compose").await
    }

    /// An application on a fresh database file of its own (`name`), so
    /// tests running at once do not share one.
    async fn app_in(name: &str) -> App {
        let dir = std::env::temp_dir().join(format!("kismet-compose-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let path = dir.join(format!("{name}.db"));
        for ext in ["", "-wal", "-shm"] {
            let _ = std::fs::remove_file(format!("{}{ext}", path.display()));
        }
        let db = Db::open(&format!("sqlite://{}", path.display()), 2)
            .await
            .unwrap();
        App::new(
            db,
            Config::defaults(),
            RngSource::seeded(1),
            crate::systems::registry(),
        )
    }

    async fn willpower(app: &App) -> u8 {
        let mut tx = app.db.read().await.unwrap();
        let rows = storage::characters::by_name_any_owner(
            &mut tx,
            GUILD,
            crate::systems::storyteller::SYSTEM,
            "Ada",
        )
        .await
        .unwrap();
        let s: crate::rules::storyteller::StorytellerSheet =
            serde_json::from_str(&rows[0].sheet).unwrap();
        s.willpower().current
    }

    /// Issue 28 item 3: an approved Storyteller change runs inside the
    /// approval's own transaction (no task-local rider): nothing of it
    /// lasts unless that transaction commits, and once it does the answer
    /// is drawn from what was committed.
    #[tokio::test]
    async fn an_approved_change_composes_into_the_approvals_transaction() {
        let app = app().await;
        let alice = Caller {
            guild_id: GUILD,
            user_id: 1,
            name: "alice".into(),
            ..Caller::default()
        };
        let fc = Caller {
            guild_id: GUILD,
            user_id: 3,
            name: "fc".into(),
            manage_guild: true,
            ..Caller::default()
        };
        crate::systems::storyteller::sheets::create(&app, &alice, "Ada", 5, None)
            .await
            .unwrap();
        let change = serde_json::to_value(Edit::Willpower {
            current: 2,
            permanent: None,
            who: Who::new(Some("Ada"), Some(1)),
        })
        .unwrap();
        let system = app
            .registry
            .get(crate::systems::storyteller::SYSTEM)
            .unwrap();

        let mut act = Act::begin(&app, &fc).await.unwrap();
        let applying = system
            .apply_change_within(&app, &mut act, &change)
            .expect("Storyteller's changes compose");
        applying.await.unwrap();
        drop(act);
        assert_eq!(willpower(&app).await, 5, "rolled back with its lender");

        let mut act = Act::begin(&app, &fc).await.unwrap();
        let applying = system
            .apply_change_within(&app, &mut act, &change)
            .expect("Storyteller's changes compose");
        let pending = applying.await.unwrap();
        act.commit().await.unwrap();
        assert_eq!(willpower(&app).await, 2, "committed with its lender");
        let answer = pending.draw(&app, &fc).await;
        assert!(format!("{answer:?}").contains("■■□□□ 2/5"), "{answer:?}");
    }

    /// Issue 28 item 3: an approved Venus Engine change (a player's Lots)
    /// runs inside the approval's own transaction too: rolled back with
    /// it, committed with it, and drawn from what was committed.
    #[tokio::test]
    async fn an_approved_venus_change_composes_into_the_approvals_transaction() {
        use crate::systems::venus;
        let app = app_in("compose-venus").await;
        let alice = Caller {
            guild_id: GUILD,
            user_id: 1,
            name: "alice".into(),
            ..Caller::default()
        };
        let fc = Caller {
            guild_id: GUILD,
            user_id: 3,
            name: "fc".into(),
            manage_guild: true,
            ..Caller::default()
        };
        venus::sheets::create(&app, &alice, "Ada", None, None)
            .await
            .unwrap();
        let lots = |app: &App| {
            let app = app.clone();
            async move {
                let mut tx = app.db.read().await.unwrap();
                let rows =
                    storage::characters::by_name_any_owner(&mut tx, GUILD, venus::SYSTEM, "Ada")
                        .await
                        .unwrap();
                serde_json::from_str::<crate::rules::venus::VenusSheet>(&rows[0].sheet)
                    .unwrap()
                    .lots
            }
        };
        let before = lots(&app).await;
        let change = serde_json::to_value(venus::governed::Edit::Kismet {
            lots: Some(7),
            ego: None,
            character: Some("Ada".into()),
            player: Some(1),
        })
        .unwrap();
        let system = app.registry.get(venus::SYSTEM).unwrap();

        let mut act = Act::begin(&app, &fc).await.unwrap();
        let applying = system
            .apply_change_within(&app, &mut act, &change)
            .expect("Venus's changes compose");
        applying.await.unwrap();
        drop(act);
        assert_eq!(lots(&app).await, before, "rolled back with its lender");

        let mut act = Act::begin(&app, &fc).await.unwrap();
        let applying = system
            .apply_change_within(&app, &mut act, &change)
            .expect("Venus's changes compose");
        let pending = applying.await.unwrap();
        act.commit().await.unwrap();
        assert_eq!(lots(&app).await, 7, "committed with its lender");
        let answer = pending.draw(&app, &fc).await;
        assert!(format!("{answer:?}").contains("Ada: 7 Lots."), "{answer:?}");
    }
}
