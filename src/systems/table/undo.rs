//! `/fc undo`: the game master's undo of a character's last change, in
//! every system with sheets. The prompt shows the character's last changes
//! (who, what, before → after, newest first) and is a session of this
//! feature's own kind ([`KIND`]); its **Undo** button reverts the newest
//! change not undone yet ([`crate::app::undo::undo`]) in one transaction,
//! and the message then says publicly what was put back. A double click is
//! a stale click (answered with the result, nothing undone twice); only the
//! game master may press.

use serde::{Deserialize, Serialize};

use super::answer::{self, Words};
use super::hint;
use crate::app::characters::{self, Access, Pick};
use crate::app::component::{Action, Click};
use crate::app::pipeline::{Outcome, Table, Turn};
use crate::app::registry::System;
use crate::app::view::{clean, colour, Button, Embed, Style, View};
use crate::app::{sessions, settings, undo, Act, App, AppError, AppResult, Caller, Response};
use crate::storage::character_history::Change;
use crate::storage::characters::Character;
use crate::storage::sessions::{Session, Status};

/// The session kind of undo prompts.
pub const KIND: &str = "undo";

/// The words of an undo prompt's answers (in posted buttons: never
/// rename them).
pub struct UndoWords;

impl Words for UndoWords {
    const YES: &'static str = "undo";
    const NO: &'static str = "keep";
}

/// An answer to an undo prompt: [`Answer::YES`] undoes, [`Answer::NO`]
/// keeps the sheet.
pub type Answer = answer::Answer<UndoWords>;

/// What an undo prompt keeps between the question and the answer.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Prompt {
    /// The system's id.
    pub system: String,
    /// The character's row id.
    pub character: i64,
    /// Its name when asked.
    pub name: String,
    /// The change **Undo** reverts.
    pub target: i64,
    /// The last changes when asked, one line each, newest first.
    pub lines: Vec<String>,
    /// `Some(true)` once undone, `Some(false)` once kept.
    pub done: Option<bool>,
    /// What the undo put back, one line per value.
    #[serde(default)]
    pub restored: Vec<String>,
    /// What the undone change was (its line).
    #[serde(default)]
    pub undone: String,
    /// A player's change announced under `player_edits = free`: the
    /// announcement's one line, with the game master's **Undo** behind ⚙
    /// (no list of changes, no **Keep**).
    #[serde(default)]
    pub announced: Option<String>,
}

/// One change as a line: who, what, before → after.
pub fn line(c: &Change) -> String {
    let who = if c.user_id == 0 {
        "someone".to_string()
    } else {
        format!("<@{}>", c.user_id)
    };
    let what = match (c.undoes, c.action.as_str()) {
        (Some(t), _) => format!("undo of change #{t}"),
        (None, "") => "a change".to_string(),
        (None, a) => a.replace('_', " "),
    };
    let mut d = undo::diff(&c.before, &c.after).join("; ");
    if d.is_empty() {
        d = "no visible difference".into();
    }
    let mut l = format!("`#{}` {who} · {what}: {d}", c.id);
    if c.undone_by.is_some() {
        l = format!("~~{l}~~ (undone)");
    }
    l
}

/// The picked character: in the channel's system when it plays one with
/// sheets, else in whichever system with sheets has it (refused when
/// several have it: run the command in the game's channel).
async fn find<'a>(
    act: &mut Act,
    app: &'a App,
    caller: &Caller,
    pick: Pick<'_>,
) -> Result<(&'a dyn System, Character), AppError> {
    let here = settings::active_system(act, caller).await?;
    if let Some(system) = here
        .as_deref()
        .and_then(|id| app.registry.get(id))
        .filter(|s| s.has_sheets())
    {
        let row = characters::resolve_row(
            act,
            caller,
            true,
            system.id(),
            pick,
            Access::Owner,
            &hint(system),
        )
        .await?;
        return Ok((system, row));
    }
    let mut found = Vec::new();
    let mut first_err = None;
    for system in app.registry.all().filter(|s| s.has_sheets()) {
        match characters::resolve_row(
            act,
            caller,
            true,
            system.id(),
            pick,
            Access::Owner,
            &hint(system),
        )
        .await
        {
            Ok(row) => found.push((system, row)),
            Err(AppError::User(m)) => {
                first_err.get_or_insert(m);
            }
            Err(e) => return Err(e),
        }
    }
    match found.len() {
        1 => Ok(found.remove(0)),
        0 => Err(AppError::user(first_err.unwrap_or_else(|| {
            "No system here keeps character sheets.".to_string()
        }))),
        _ => Err(AppError::user(
            "Several systems have a character by that name: run `/fc undo` in the game's channel (see `/fc channel-system`).",
        )),
    }
}

/// `/fc undo`: shows the picked character's last changes with **Undo**
/// and **Keep**; game master only. The character is named the shared way,
/// in the channel's system (or the one system that has it).
pub async fn ask(app: &App, caller: &Caller, pick: Pick<'_>) -> AppResult {
    let mut turn = Turn::<Table>::begin(app, caller).await?;
    if !turn.fc {
        return Err(AppError::user(undo::ONLY_FC));
    }
    let (system, row) = find(turn.act(), app, caller, pick).await?;
    let Some(target) = undo::next(turn.tx(), &row).await? else {
        return Err(AppError::user(format!(
            "{} has no recorded change left to undo.",
            clean(&row.name)
        )));
    };
    let recent = undo::recent(turn.tx(), &row, undo::SHOWN).await?;
    // Changes made by secret rolls are listed to the game master only.
    let shown: Vec<&Change> = recent.iter().chain([&target]).collect();
    let private = undo::any_secret(turn.tx(), caller.guild_id, &shown).await?;
    let timeout = Some(turn.guild.session_timeout_minutes);
    let prompt = Prompt {
        system: system.id().to_string(),
        character: row.id,
        name: row.name.clone(),
        target: target.id,
        lines: recent.iter().map(line).collect(),
        done: None,
        restored: Vec::new(),
        undone: line(&target),
        announced: None,
    };
    let asked = prompt.clone();
    let out = Outcome::new(move |s| {
        let view = view(s.id, s.version, Status::Open, &asked);
        if private {
            Response::ephemeral(view)
        } else {
            Response::message(view)
        }
    })
    .start(KIND, &prompt, Status::Open, timeout);
    turn.finish(out).await
}

/// The one-line announcement of a player's change under `player_edits =
/// free`, with the game master's **Undo** of that change behind ⚙ (a
/// session of this feature's kind, so the undo is the same as `/fc
/// undo`'s). Without a character, or without a recorded change, the line
/// alone.
pub async fn announce(
    app: &App,
    caller: &Caller,
    system: &str,
    character: Option<i64>,
    line_text: String,
) -> Result<View, AppError> {
    let Some(character) = character else {
        return Ok(View::text(line_text));
    };
    let mut turn = Turn::<Table>::begin(app, caller).await?;
    let row = crate::storage::characters::get(turn.tx(), caller.guild_id, character).await?;
    let target = match &row {
        Some(row) => undo::next(turn.tx(), row).await?,
        None => None,
    };
    let (Some(row), Some(target)) = (row, target) else {
        return Ok(View::text(line_text));
    };
    let timeout = Some(turn.guild.session_timeout_minutes);
    let prompt = Prompt {
        system: system.to_string(),
        character: row.id,
        name: row.name.clone(),
        target: target.id,
        lines: Vec::new(),
        done: None,
        restored: Vec::new(),
        undone: line(&target),
        announced: Some(line_text),
    };
    // The prompt is opened by the turn: the caller posts its view.
    let session = turn.open(KIND, &prompt, timeout).await?;
    let view = view(session.id, session.version, Status::Open, &prompt);
    turn.finish(Outcome::answer(Response::message(view.clone())))
        .await?;
    Ok(view)
}

/// The prompt (or its result).
pub fn view(id: i64, version: i64, status: Status, p: &Prompt) -> View {
    if let Some(said) = &p.announced {
        return announcement(id, version, status, p, said);
    }
    let (text, col) = match p.done {
        Some(true) => {
            let mut t = format!("↩ Undone on **{}**: {}", clean(&p.name), p.undone);
            if !p.restored.is_empty() {
                t.push_str("\nPut back: ");
                t.push_str(&p.restored.join("; "));
            }
            (t, colour::SUCCESS)
        }
        Some(false) => (
            format!("Nothing was undone; {} stays as it is.", clean(&p.name)),
            colour::CLOSED,
        ),
        None if status != Status::Open => (
            format!(
                "Nothing was undone on {} (the question timed out).",
                clean(&p.name)
            ),
            colour::CLOSED,
        ),
        None => {
            let mut t = format!("Last changes of **{}**, newest first:\n", clean(&p.name));
            for l in &p.lines {
                t.push_str(&format!("• {l}\n"));
            }
            t.push_str(&format!("\n**Undo** reverts `#{}`.", p.target));
            (t, colour::PENDING)
        }
    };
    let v = View::embed(Embed::new("Undo a change").description(text).colour(col));
    if p.done.is_some() || status != Status::Open {
        return v;
    }
    let b = |a: Answer, label: &str, style| {
        Button::new(a.button(KIND, id, version).encode(), label, style)
    };
    v.buttons(vec![
        b(Answer::YES, "Undo", Style::Danger),
        b(Answer::NO, "Keep", Style::Secondary),
    ])
}

/// A free change's announcement: its line; while open, the game master's
/// **Undo** behind ⚙; once undone, what was put back.
fn announcement(id: i64, version: i64, status: Status, p: &Prompt, said: &str) -> View {
    if p.done == Some(true) {
        // An edit keeps a message's text: the line stays, and says below
        // that it was undone.
        let gm = crate::app::registry::gm_of(&p.system);
        let mut t = format!("The {gm} undid this change of **{}**", clean(&p.name));
        if !p.restored.is_empty() {
            t.push_str(": ");
            t.push_str(&p.restored.join("; "));
        }
        return View {
            content: Some(said.to_string()),
            ..View::embed(Embed::new("↩ Undone").description(t).colour(colour::CLOSED))
        };
    }
    let v = View::text(said);
    if status != Status::Open || p.done.is_some() {
        return v;
    }
    let mut v = v;
    v.gm_word = Some(crate::app::registry::gm_of(&p.system).to_string());
    v.buttons(vec![Button::new(
        Answer::YES.button(KIND, id, version).encode(),
        "Undo",
        Style::Danger,
    )
    .gm_only()])
}

/// A click on an undo prompt: game master only; **Undo** reverts the
/// prompt's change (refused, nothing changed, if it is no longer the
/// newest), **Keep** closes the prompt.
pub async fn click(_app: &App, mut act: Act, session: Session, click: &Click<'_>) -> AppResult {
    let mut p: Prompt = serde_json::from_str(&session.state)?;
    let answer: Answer = click.action()?;
    if !act.is_fc().await? {
        return Err(AppError::user(undo::ONLY_FC));
    }
    match answer.yes {
        false => p.done = Some(false),
        true => {
            let done = undo::undo(&mut act, click.caller, &p.system, p.character, p.target).await?;
            p.restored = done.lines;
            p.done = Some(true);
        }
    }
    let v = sessions::save(&mut act, &session, &p, Status::Closed, None).await?;
    act.commit().await?;
    Ok(Response::update(view(session.id, v, Status::Closed, &p)))
}

/// Draws a prompt as it stands, for the game master who asked (or
/// another): only they may press it, and it may list changes made by
/// secret rolls.
pub async fn render(app: &App, session: &Session, caller: &Caller) -> Result<View, AppError> {
    let p: Prompt = serde_json::from_str(&session.state)?;
    let mut tx = app.db.glance().await?;
    if !crate::app::secret::is_reader(&mut tx, session, caller).await? {
        return Err(AppError::user(undo::ONLY_FC));
    }
    Ok(view(session.id, session.version, session.status, &p))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn answers_keep_their_words() {
        for a in [Answer::YES, Answer::NO] {
            let (w, arg) = a.encode();
            assert_eq!(Answer::parse(w, arg.as_deref()), Some(a));
        }
        assert_eq!(Answer::YES.encode().0, "undo");
        assert_eq!(Answer::parse("del", None), None);
    }
}
