//! A member's own data in a server: `/me export` (everything the bot holds
//! about the caller, as a private JSON file) and `/me forget` (erase it,
//! after a private question with **Delete** and **Keep**); `/fc forget`
//! asks the same question of the game master about another member, by
//! mention or by id (a member who left). The question is a session of this
//! feature's own kind ([`KIND`]); only the member who asked may answer it.
//! The erasure itself is `storage::erase::erase_member`, in the answer's
//! one write transaction.

use serde::{Deserialize, Serialize};
use serde_json::{json, Value};

use super::text::iso_utc;
use crate::app::component::{Action, Click};
use crate::app::pipeline::{Outcome, Table, Turn};
use crate::app::view::{capitalised, colour, Button, Embed, File, Style, View};
use crate::app::{log, rights, sessions, Act, App, AppError, AppResult, Caller, Response};
use crate::storage::erase::{self, Held, MemberData, ERASED};
use crate::storage::sessions::{Session, Status};
use crate::systems::table::answer::{self, Words};

/// The session kind of erasure questions.
pub const KIND: &str = "me";

/// The version of the export's JSON layout.
pub const EXPORT_VERSION: u32 = 1;

/// The words of an erasure question's answers (in posted buttons: never
/// rename them).
pub struct ForgetWords;

impl Words for ForgetWords {
    const YES: &'static str = "erase";
    const NO: &'static str = "keep";
}

/// An answer to an erasure question: [`Answer::YES`] erases.
pub type Answer = answer::Answer<ForgetWords>;

/// What an erasure question keeps between the question and the answer.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Prompt {
    /// The member whose data goes.
    pub target: i64,
    /// Asked by the game master about another member (`/fc forget`).
    pub by_gm: bool,
    /// `Some(true)` once erased, `Some(false)` once kept.
    pub done: Option<bool>,
}

/// `/me export`: everything held about the caller in this server, as a
/// private JSON attachment.
pub async fn export(app: &App, caller: &Caller) -> AppResult {
    let mut tx = app.db.read().await?;
    let data = erase::member_data(&mut tx, caller.guild_id, caller.user_id).await?;
    drop(tx);
    let (bytes, dropped) = export_bytes(caller, &data)?;
    let mut desc = format!(
        "Everything I hold about you in this server: **{}** character(s) with their history, **{}** saved roll(s) and **{}** log entries you made. Only you see this.",
        data.characters.len(),
        data.named_rolls.len(),
        data.log.len()
    );
    if dropped > 0 {
        desc.push_str(&format!(
            "\n⚠️ The file stops at {} MiB: your {dropped} oldest log entries are left out.",
            super::export::MAX_BYTES / (1024 * 1024)
        ));
    }
    let mut view = View::embed(
        Embed::new("📦 Your data")
            .description(desc)
            .colour(colour::NEUTRAL),
    );
    view.files.push(File {
        name: "kismet-my-data.json".into(),
        bytes,
    });
    Ok(Response::ephemeral(view))
}

/// A column's JSON as a value (text that is not JSON stays text).
fn json_of(raw: &str) -> Value {
    serde_json::from_str(raw).unwrap_or_else(|_| Value::String(raw.to_string()))
}

/// The export's JSON, pretty-printed, and how many of the oldest log
/// entries were left out to stay under the attachment limit.
fn export_bytes(caller: &Caller, data: &MemberData) -> Result<(Vec<u8>, usize), AppError> {
    let characters: Vec<Value> = data
        .characters
        .iter()
        .map(|h| {
            let c = &h.character;
            json!({
                "id": c.id,
                "system": c.system,
                "name": c.name,
                "active": c.active,
                "sheet": json_of(&c.sheet),
                "history": h.history.iter().map(|ch| json!({
                    "id": ch.id,
                    "time_utc": iso_utc(ch.created_at),
                    "action": ch.action,
                    "by_user_id": ch.user_id.to_string(),
                    "log_id": ch.log_id,
                    "before": json_of(&ch.before),
                    "after": json_of(&ch.after),
                    "undoes": ch.undoes,
                    "undone_by": ch.undone_by,
                })).collect::<Vec<_>>(),
            })
        })
        .collect();
    let log: Vec<Value> = data
        .log
        .iter()
        .map(|e| {
            json!({
                "id": e.id,
                "time_utc": iso_utc(e.created_at),
                "channel_id": e.channel_id.to_string(),
                "character_id": e.character_id,
                "session_id": e.session_id,
                "system": e.system,
                "action": e.action,
                "secret": e.secret,
                "inputs": json_of(&e.inputs),
                "dice": json_of(&e.dice),
                "outcome": json_of(&e.outcome),
            })
        })
        .collect();
    let mut skip = 0usize;
    loop {
        let doc = json!({
            "format": "kismet-member-data",
            "version": EXPORT_VERSION,
            "guild_id": caller.guild_id.to_string(),
            "user_id": caller.user_id.to_string(),
            "exported_at": iso_utc(crate::storage::now_ms()),
            "characters": characters,
            "named_rolls": data.named_rolls.iter().map(|r| json!({
                "name": r.name,
                "expression": r.expression,
            })).collect::<Vec<_>>(),
            "log": log.get(skip..).unwrap_or_default(),
        });
        let bytes = serde_json::to_vec_pretty(&doc)?;
        if bytes.len() <= super::export::MAX_BYTES || skip >= log.len() {
            return Ok((bytes, skip));
        }
        skip = (skip + log.len().div_ceil(10)).min(log.len());
    }
}

/// `/me forget` (`target` None) or `/fc forget` (the game master, about
/// `target`): the private question, with **Delete** and **Keep**.
pub async fn ask(app: &App, caller: &Caller, target: Option<i64>) -> AppResult {
    let mut turn = Turn::<Table>::begin(app, caller).await?;
    if target.is_some() {
        // The server's FC, not a game's game master (issue 32).
        rights::require_server_fc(turn.tx(), caller, "erase another member's data").await?;
    }
    let who = target.unwrap_or(caller.user_id);
    let held = erase::held(turn.tx(), caller.guild_id, who).await?;
    if held.is_empty() {
        let whose = match target {
            Some(_) => "that member",
            None => "you",
        };
        return Err(AppError::user(format!(
            "I hold nothing about {whose} in this server: no characters, saved rolls or log entries."
        )));
    }
    let timeout = Some(turn.guild.session_timeout_minutes);
    let prompt = Prompt {
        target: who,
        by_gm: target.is_some(),
        done: None,
    };
    let asked = prompt.clone();
    let out = Outcome::new(move |s| {
        Response::ephemeral(view(s.id, s.version, Status::Open, &asked, Some(held)))
    })
    .start(KIND, &prompt, Status::Open, timeout);
    turn.finish(out).await
}

/// The question (with what it would erase, when known) or its result.
pub fn view(id: i64, version: i64, status: Status, p: &Prompt, held: Option<Held>) -> View {
    let (whose, their) = if p.by_gm {
        (format!("<@{}>", p.target), "their")
    } else {
        ("your".to_string(), "your")
    };
    let (text, col) = match p.done {
        Some(true) => (
            format!(
                "🗑 Done: {} data in this server was erased. The log keeps the dice, by nobody.",
                if p.by_gm { "the member's" } else { "your" }
            ),
            colour::CLOSED,
        ),
        Some(false) => ("Kept: nothing was erased.".to_string(), colour::CLOSED),
        None if status != Status::Open => (
            "Kept: nothing was erased (the question timed out).".to_string(),
            colour::CLOSED,
        ),
        None => {
            let counts = held.map_or_else(String::new, |h| {
                format!(
                    " ({} character(s), {} saved roll(s), {} log entries)",
                    h.characters, h.named_rolls, h.log_entries
                )
            });
            let owner = if p.by_gm {
                format!("{whose}'s")
            } else {
                whose.clone()
            };
            (
                format!(
                    "Erase {owner} data in this server for good{counts}? {} characters with their history, saved rolls and open rolls are deleted; {their} log entries stay for the table's statistics, without {their} name and without any text. This cannot be undone.",
                    capitalised(their)
                ),
                colour::FAILURE,
            )
        }
    };
    let v = View::embed(Embed::new("Erase data").description(text).colour(col));
    if p.done.is_some() || status != Status::Open {
        return v;
    }
    let b = |a: Answer, label: &str, style| {
        Button::new(a.button(KIND, id, version).encode(), label, style)
    };
    v.buttons(vec![
        b(Answer::YES, "Delete", Style::Danger),
        b(Answer::NO, "Keep", Style::Secondary),
    ])
}

/// A click on an erasure question: only the member who asked may answer
/// (and, for `/fc forget`, only while they are the game master). Delete
/// erases in this click's one transaction, logs "a member's data was
/// erased" naming nobody, and removes the question itself (it held the
/// member's id); Keep closes it.
pub async fn click(_app: &App, mut act: Act, session: Session, click: &Click<'_>) -> AppResult {
    let mut p: Prompt = serde_json::from_str(&session.state)?;
    let answer: Answer = click.action()?;
    let caller = click.caller;
    if caller.user_id != session.owner_id {
        return Err(AppError::user("Only the member who asked can answer this."));
    }
    if p.by_gm {
        rights::require_server_fc(&mut act, caller, "erase another member's data").await?;
    }
    if !answer.yes {
        p.done = Some(false);
        let v = sessions::save(&mut act, &session, &p, Status::Closed, None).await?;
        act.commit().await?;
        return Ok(Response::update(view(
            session.id,
            v,
            Status::Closed,
            &p,
            None,
        )));
    }
    erase::erase_member(&mut act, caller.guild_id, p.target).await?;
    crate::storage::sessions::delete(&mut act, caller.guild_id, session.id).await?;
    let actor = Caller {
        user_id: if p.by_gm { caller.user_id } else { ERASED },
        secret: false,
        ..caller.clone()
    };
    log::record(
        &mut act,
        &actor,
        log::What {
            system: super::ID,
            action: "erase",
            session: None,
            character: None,
        },
        &log::NoInputs {},
        &log::NO_DICE,
        &log::Said {
            text: "a member's data was erased",
        },
    )
    .await?;
    act.commit().await?;
    p.done = Some(true);
    Ok(Response::update(view(
        session.id,
        0,
        Status::Closed,
        &p,
        None,
    )))
}

/// Draws a question as it stands.
pub fn render(session: &Session) -> Result<View, AppError> {
    let p: Prompt = serde_json::from_str(&session.state)?;
    Ok(view(session.id, session.version, session.status, &p, None))
}

/// Reads a member id typed as text: digits, or a mention (`<@123>`,
/// `<@!123>`); Discord ids are positive and at most 20 digits.
pub fn parse_user_id(raw: &str) -> Result<i64, AppError> {
    let t = raw.trim();
    let digits = t
        .strip_prefix("<@")
        .and_then(|r| r.strip_suffix('>'))
        .map(|r| r.trim_start_matches('!'))
        .unwrap_or(t);
    let bad = || {
        AppError::user(
            "`user_id` takes a member's id: the digits Discord shows under Copy User ID (Developer Mode), e.g. 123456789012345678.",
        )
    };
    if digits.is_empty() || digits.len() > 20 || !digits.bytes().all(|b| b.is_ascii_digit()) {
        return Err(bad());
    }
    match digits.parse::<i64>() {
        Ok(id) if id > 0 => Ok(id),
        _ => Err(bad()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ids_are_digits_or_mentions_and_nothing_else() {
        assert_eq!(
            parse_user_id("123456789012345678").ok(),
            Some(123456789012345678)
        );
        assert_eq!(parse_user_id(" <@!42> ").ok(), Some(42));
        assert_eq!(parse_user_id("<@42>").ok(), Some(42));
        for bad in [
            "",
            "0",
            "-5",
            "abc",
            "12a",
            "99999999999999999999",
            "<@>",
            "1 2",
        ] {
            assert!(parse_user_id(bad).is_err(), "{bad}");
        }
    }

    #[test]
    fn the_question_offers_delete_and_keep_then_says_what_happened() {
        let mut p = Prompt {
            target: 7,
            by_gm: false,
            done: None,
        };
        let v = view(3, 0, Status::Open, &p, None);
        let ids: Vec<&str> = v.all_buttons().map(|b| b.custom_id.as_str()).collect();
        assert_eq!(ids, vec!["me:3:0:erase", "me:3:0:keep"]);
        p.done = Some(false);
        assert_eq!(
            view(3, 1, Status::Closed, &p, None).all_buttons().count(),
            0
        );
    }
}
