//! A sheet's **Delete** (once `/<root> sheet delete`): the confirmation prompt, a session of this
//! feature's own kind ([`KIND`]) whose **Delete** and **Keep** buttons
//! answer it. Venus Engine's older prompts (`ve:…:del|keep`) use the same
//! action words and are answered by [`apply`] as well.

use serde::{Deserialize, Serialize};

use super::answer::{self, Words};
use super::whose;
use crate::app::component::{Action, Click};
use crate::app::pipeline::{Outcome, Table, Turn};
use crate::app::registry::System;
use crate::app::view::{capitalised, clean, colour, Button, Embed, Style, View};
use crate::app::{log, sessions, Act, App, AppError, AppResult, Caller, Response};
use crate::storage::characters::Character;
use crate::storage::sessions::{Session, Status};
use crate::storage::{self};

/// The session kind of deletion prompts.
pub const KIND: &str = "sheet";

/// The words of a deletion prompt's answers (in posted buttons: never
/// rename them).
pub struct DeleteWords;

impl Words for DeleteWords {
    const YES: &'static str = "del";
    const NO: &'static str = "keep";
}

/// An answer to a deletion prompt: [`Answer::YES`] deletes, [`Answer::NO`]
/// keeps.
pub type Answer = answer::Answer<DeleteWords>;

/// What a deletion prompt keeps between the question and the answer.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Prompt {
    /// The system's id.
    pub system: String,
    /// The character's row id.
    pub character: i64,
    /// Its name when asked.
    pub name: String,
    /// Its owner.
    pub owner: i64,
    /// `Some(true)` once deleted, `Some(false)` once kept.
    pub done: Option<bool>,
    /// It was its owner's active character when deleted.
    #[serde(default)]
    pub was_active: bool,
}

/// A sheet's **Delete** (the sheet's controls (`card`), which replaced `/<root> sheet
/// delete`): asks the caller (privately) whether to delete `row`, a
/// character they may act on, with **Delete** and **Keep** buttons.
pub async fn ask_row(turn: Turn<'_, Table>, system: &dyn System, row: Character) -> AppResult {
    let caller = turn.caller().clone();
    let timeout = Some(turn.guild.session_timeout_minutes);
    let prompt = Prompt {
        system: system.id().to_string(),
        character: row.id,
        name: row.name.clone(),
        owner: row.owner_id,
        done: None,
        was_active: false,
    };
    let content = (row.owner_id != caller.user_id)
        .then(|| format!("{} character.", capitalised(&whose(&caller, &row))));
    let asked = prompt.clone();
    let out = Outcome::new(move |s| {
        let mut v = view(KIND, s.id, s.version, Status::Open, &asked, None);
        v.content = content;
        Response::ephemeral(v)
    })
    .start(KIND, &prompt, Status::Open, timeout);
    turn.finish(out).await
}

/// The prompt (or its result) of a session of `kind` (this feature's
/// [`KIND`], or an older system's); `root` is the system's command root,
/// for the hint after an active character is deleted.
pub fn view(
    kind: &str,
    id: i64,
    version: i64,
    status: Status,
    p: &Prompt,
    root: Option<&str>,
) -> View {
    let (text, col) = match p.done {
        Some(true) => {
            let mut t = format!("🗑 {} was deleted.", clean(&p.name));
            if p.was_active {
                t.push_str(" It was the active character");
                match root {
                    Some(r) => t.push_str(&format!(
                        ": pick another with `/{r} sheet show` (**{}**).",
                        super::PLAY_AS
                    )),
                    None => t.push('.'),
                }
            }
            (t, colour::CLOSED)
        }
        Some(false) => (format!("{} was kept.", clean(&p.name)), colour::CLOSED),
        None if status != Status::Open => (
            format!("{} was kept (the question timed out).", clean(&p.name)),
            colour::CLOSED,
        ),
        None => (
            format!(
                "Delete **{}** for good? Its sheet cannot be brought back.",
                clean(&p.name)
            ),
            colour::FAILURE,
        ),
    };
    let v = View::embed(
        Embed::new("Delete a character")
            .description(text)
            .colour(col),
    );
    if p.done.is_some() || status != Status::Open {
        return v;
    }
    let b = |a: Answer, label: &str, style| {
        Button::new(a.button(kind, id, version).encode(), label, style)
    };
    v.buttons(vec![
        b(Answer::YES, "Delete", Style::Danger),
        b(Answer::NO, "Keep", Style::Secondary),
    ])
}

/// `sheet_delete`'s log inputs: the character's name.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Deleting<'a> {
    /// The character's name when asked.
    pub name: &'a str,
}

/// `sheet_delete`'s log outcome.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct Deleted {
    /// The row was there to delete.
    pub deleted: bool,
    /// It was its owner's active character.
    pub was_active: bool,
}

/// Applies an answer to a prompt: only the character's owner, the member
/// who asked or the FC may answer; Delete removes the row (and logs it),
/// Keep changes nothing. Marks the prompt done; the caller saves it.
pub async fn apply(
    act: &mut Act,
    session: &Session,
    p: &mut Prompt,
    answer: Answer,
    caller: &Caller,
) -> Result<(), AppError> {
    if caller.user_id != p.owner && caller.user_id != session.owner_id && !act.is_fc().await? {
        return Err(AppError::user(format!(
            "Only the character's owner (or the {}) can answer this.",
            crate::app::registry::gm_of(&p.system)
        )));
    }
    match answer.yes {
        false => p.done = Some(false),
        true => {
            let row = storage::characters::get(act, caller.guild_id, p.character).await?;
            p.was_active = row.as_ref().is_some_and(|r| r.active);
            storage::characters::delete(act, caller.guild_id, p.character).await?;
            p.done = Some(true);
            log::record(
                act,
                caller,
                log::What {
                    system: &p.system,
                    action: "sheet_delete",
                    session: Some(session.id),
                    character: Some(p.character),
                },
                &Deleting { name: &p.name },
                &log::NO_DICE,
                &Deleted {
                    deleted: row.is_some(),
                    was_active: p.was_active,
                },
            )
            .await?;
        }
    }
    Ok(())
}

/// A click on a prompt of this feature's kind.
pub async fn click(app: &App, mut act: Act, session: Session, click: &Click<'_>) -> AppResult {
    let mut p: Prompt = serde_json::from_str(&session.state)?;
    let answer: Answer = click.action()?;
    apply(&mut act, &session, &mut p, answer, click.caller).await?;
    let v = sessions::save(&mut act, &session, &p, Status::Closed, None).await?;
    act.commit().await?;
    Ok(Response::update(view(
        KIND,
        session.id,
        v,
        Status::Closed,
        &p,
        root_of(app, &p),
    )))
}

fn root_of<'a>(app: &'a App, p: &Prompt) -> Option<&'a str> {
    app.registry.get(&p.system).and_then(|s| s.command_root())
}

/// Draws a prompt as it stands.
pub fn render(app: &App, session: &Session) -> Result<View, AppError> {
    let p: Prompt = serde_json::from_str(&session.state)?;
    Ok(view(
        KIND,
        session.id,
        session.version,
        session.status,
        &p,
        root_of(app, &p),
    ))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// `sheet_delete`'s typed records write the JSON earlier versions
    /// wrote with `json!`, and rows they wrote read back.
    #[test]
    fn delete_records_keep_the_json_earlier_versions_wrote() {
        let inputs = serde_json::to_string(&Deleting { name: "Ada" }).unwrap();
        assert_eq!(inputs, r#"{"name":"Ada"}"#);
        let outcome = Deleted {
            deleted: true,
            was_active: false,
        };
        let written = serde_json::to_string(&outcome).unwrap();
        assert_eq!(written, r#"{"deleted":true,"was_active":false}"#);
        let old: Deleted = serde_json::from_str(r#"{"deleted":false,"was_active":true}"#).unwrap();
        assert_eq!((old.deleted, old.was_active), (false, true));
        assert_eq!(serde_json::to_string(&log::NO_DICE).unwrap(), "[]");
    }

    #[test]
    fn answers_keep_their_words() {
        for a in [Answer::YES, Answer::NO] {
            let (w, arg) = a.encode();
            assert_eq!(Answer::parse(w, arg.as_deref()), Some(a));
        }
        assert_eq!(Answer::YES.encode().0, "del");
        assert_eq!(Answer::NO.encode().0, "keep");
        assert_eq!(Answer::parse("delete", None), None);
    }

    #[test]
    fn the_prompt_offers_delete_and_keep_then_says_what_happened() {
        let mut p = Prompt {
            system: "venus".into(),
            character: 3,
            name: "Cleo".into(),
            owner: 7,
            done: None,
            was_active: false,
        };
        let v = view(KIND, 1, 0, Status::Open, &p, Some("ve"));
        let labels: Vec<&str> = v.all_buttons().map(|b| b.label.as_str()).collect();
        assert_eq!(labels, vec!["Delete", "Keep"]);
        let ids: Vec<&str> = v.all_buttons().map(|b| b.custom_id.as_str()).collect();
        assert_eq!(ids, vec!["sheet:1:0:del", "sheet:1:0:keep"]);
        p.done = Some(true);
        p.was_active = true;
        let v = view(KIND, 1, 1, Status::Closed, &p, Some("ve"));
        assert_eq!(v.all_buttons().count(), 0);
        let text = format!("{v:?}");
        assert!(
            text.contains("pick another with `/ve sheet show` (**Play as…**)"),
            "{text}"
        );
    }
}
