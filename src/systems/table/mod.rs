//! Shared table features: what every system that keeps character sheets
//! offers alike, written once and grafted onto each playable system's
//! `/<root> sheet` (see [`crate::systems::commands`]).
//!
//! `/<root> sheet list`, `show`, `use`, `rename`, `delete`, `export` and
//! `import` ([`travel`]) name no
//! system: the command's root finds it in the registry, characters are
//! named one way ([`crate::app::characters::Pick`]), and the system only
//! draws its sheet ([`System::sheet_card`]) and, if it keeps the name
//! inside its sheet, follows a rename ([`System::renamed`]). Deleting asks
//! first, with a **Delete** / **Keep** prompt that is a session of this
//! feature's own kind ([`delete`]).

pub mod answer;
pub mod approval;
pub mod commands;
pub mod delete;
pub mod encounter;
pub mod look;
pub mod travel;
pub mod undo;

use serde::Serialize;

use crate::app::characters::{self, Access, Pick};
use crate::app::component::Click;
use crate::app::pipeline::{Outcome, Record, Table, Turn, Writing};
use crate::app::registry::System;
use crate::app::view::{colour, limits, Embed, View};
use crate::app::Act;
use crate::app::{log, rights, App, AppError, AppResult, Caller, Response};
use crate::storage::sessions::Session;
use crate::storage::{self, characters::Character, Tx};
use crate::systems::game::{Feature, NoGame};

/// The shared table features as a registered (not playable) feature:
/// their deletion prompts are sessions of their own kind ([`delete::KIND`]),
/// and so are `/fc undo`'s prompts ([`undo::KIND`]) and the requests
/// `player_edits` sends for approval ([`approval::KIND`]), and the `/game`
/// cards ([`crate::systems::games::card::KIND`]); their commands
/// are grafted onto each system's `/<root> sheet` by
/// [`crate::systems::commands`], so they list none here.
pub struct TableFeature;

impl Feature for TableFeature {
    const ID: &'static str = "table";
    const NAME: &'static str = "Table";
    const KINDS: &'static [&'static str] = &[
        delete::KIND,
        undo::KIND,
        approval::KIND,
        crate::systems::games::card::KIND,
    ];
    type Game = NoGame;

    async fn click(app: &App, tx: Act, session: Session, click: &Click<'_>) -> AppResult {
        match session.kind.as_str() {
            undo::KIND => undo::click(app, tx, session, click).await,
            approval::KIND => approval::click(app, tx, session, click).await,
            crate::systems::games::card::KIND => {
                crate::systems::games::card::click(app, tx, session, click).await
            }
            _ => delete::click(app, tx, session, click).await,
        }
    }

    async fn render(app: &App, session: &Session, caller: &Caller) -> Result<View, AppError> {
        match session.kind.as_str() {
            undo::KIND => undo::render(app, session, caller).await,
            approval::KIND => approval::render(session),
            crate::systems::games::card::KIND => {
                crate::systems::games::card::render(app, session, caller).await
            }
            _ => delete::render(app, session),
        }
    }
}

/// How to make a character in `system` ("create one with `/vv sheet create`.").
pub fn hint(system: &dyn System) -> String {
    match system.command_root() {
        Some(root) => format!("create one with `/{root} sheet create`."),
        None => "create one first.".to_string(),
    }
}

/// The system a command under `/<root>` serves, if it keeps sheets.
pub fn system_of<'a>(app: &'a App, root: &str) -> Result<&'a dyn System, AppError> {
    app.registry
        .by_root(root)
        .filter(|s| s.has_sheets())
        .ok_or_else(|| AppError::Internal(format!("/{root} keeps no character sheets")))
}

/// The character `pick` names in `system`, as the caller may act on it:
/// their own, or for the game master anyone's.
async fn picked(
    turn: &mut Turn<'_, Table>,
    system: &dyn System,
    pick: Pick<'_>,
) -> Result<Character, AppError> {
    let (caller, fc) = (turn.caller().clone(), turn.fc);
    characters::resolve_row(
        turn.tx(),
        &caller,
        fc,
        system.id(),
        pick,
        Access::Owner,
        &hint(system),
    )
    .await
}

/// A shared sheet action's log outcome: the character and its owner.
#[derive(Serialize)]
struct SheetOwned<'a> {
    name: &'a str,
    owner: i64,
}

/// A shared sheet action's log inputs naming the character.
#[derive(Serialize)]
struct Named<'a> {
    name: &'a str,
}

/// `sheet rename`'s log inputs.
#[derive(Serialize)]
struct Renamed<'a> {
    from: &'a str,
    to: &'a str,
}

/// The log entry of a shared sheet action on `row`, a character of
/// `system`.
fn sheet_entry(
    system: &dyn System,
    action: &str,
    row: &Character,
    inputs: &impl Serialize,
) -> Record {
    let owned = SheetOwned {
        name: &row.name,
        owner: row.owner_id,
    };
    Record::new(action, inputs, &owned)
        .dice(&log::NO_DICE, Vec::new())
        .system(system.id())
        .character(row.id)
}

/// Writes `row` with the outcome: `set` does (its active mark, its name).
fn write_row(
    out: Outcome<serde_json::Value>,
    row: &Character,
    set: fn(&mut Tx, Character) -> Writing<'_>,
) -> Outcome<serde_json::Value> {
    let row = row.clone();
    out.also(move |tx| set(tx, row))
}

/// The lines of a character list, each within `max` characters in all.
fn join_capped(lines: &[String], max: usize) -> String {
    let mut out = String::new();
    for (i, line) in lines.iter().enumerate() {
        let more = format!("…and {} more", lines.len() - i);
        let tail = if i + 1 < lines.len() {
            more.chars().count() + 1
        } else {
            0
        };
        if out.chars().count() + 1 + line.chars().count() + tail > max {
            if !out.is_empty() {
                out.push('\n');
            }
            out.push_str(&more);
            return out;
        }
        if !out.is_empty() {
            out.push('\n');
        }
        out.push_str(line);
    }
    out
}

/// `/<root> sheet list`: the caller's characters in the system, the
/// active one marked; the FC sees every member's, with their owners.
pub async fn list(app: &App, caller: &Caller, system: &dyn System) -> AppResult {
    let mut tx = app.db.read().await?;
    let fc = rights::is_fc(&mut tx, caller).await?;
    let owner = (!fc).then_some(caller.user_id);
    let rows = storage::characters::list(&mut tx, caller.guild_id, system.id(), owner, 200).await?;
    if rows.is_empty() {
        return Ok(Response::ephemeral(View::text(format!(
            "No {} characters yet: {}",
            system.name(),
            hint(system)
        ))));
    }
    let lines: Vec<String> = rows
        .iter()
        .map(|r| {
            let mark = if r.active { " ← active" } else { "" };
            if fc {
                format!("**{}**{mark} · <@{}>", r.name, r.owner_id)
            } else {
                format!("**{}**{mark}", r.name)
            }
        })
        .collect();
    Ok(Response::ephemeral(View::embed(
        Embed::new(format!("📜 {} characters", system.name()))
            .description(join_capped(&lines, limits::DESCRIPTION))
            .colour(colour::NEUTRAL),
    )))
}

/// `/<root> sheet show`: the system's card of the picked character (the
/// caller's own; the FC's pick may be anyone's), posted for the channel
/// or, with `private`, for the caller only.
pub async fn show(
    app: &App,
    caller: &Caller,
    system: &dyn System,
    pick: Pick<'_>,
    private: bool,
) -> AppResult {
    let mut turn = Turn::<Table>::begin(app, caller).await?;
    let row = picked(&mut turn, system, pick).await?;
    // The card's own session (its buttons) is the game's to open.
    let view = system.sheet_card(app, turn.act(), &row).await?;
    turn.finish(Outcome::answer(if private {
        Response::ephemeral(view)
    } else {
        Response::message(view)
    }))
    .await
}

/// Whose character `row` is, as a reply says it: "your", or "<@…>'s".
pub fn whose(caller: &Caller, row: &Character) -> String {
    if row.owner_id == caller.user_id {
        "your".to_string()
    } else {
        format!("<@{}>'s", row.owner_id)
    }
}

/// `/<root> sheet use`: makes the picked character its owner's active one.
pub async fn use_character(
    app: &App,
    caller: &Caller,
    system: &dyn System,
    pick: Pick<'_>,
) -> AppResult {
    let mut turn = Turn::<Table>::begin(app, caller).await?;
    let row = picked(&mut turn, system, pick).await?;
    let log = sheet_entry(system, "sheet_use", &row, &Named { name: &row.name });
    // In a game its owner plays, the character becomes theirs in that game
    // (issue 32); elsewhere it is the active one.
    let game = crate::app::games::use_here(turn.tx(), caller, &row).await?;
    let text = match &game {
        Some(g) => format!(
            "✅ **{}** is now {} character in **{}** (elsewhere the active one stays).",
            row.name,
            whose(caller, &row),
            g.name
        ),
        None => format!(
            "✅ **{}** is now {} active {} character.",
            row.name,
            whose(caller, &row),
            system.name()
        ),
    };
    let out = Outcome::answer(Response::ephemeral(View::text(text)));
    let out = match game {
        Some(_) => out,
        None => write_row(out, &row, |tx, row| {
            Box::pin(async move {
                storage::characters::set_active(tx, &row).await?;
                Ok(())
            })
        }),
    };
    turn.finish(out.log(log)).await
}

/// `/<root> sheet rename`: gives the picked character a new name (refused
/// if its owner already has a character of that name in the system).
pub async fn rename(
    app: &App,
    caller: &Caller,
    system: &dyn System,
    pick: Pick<'_>,
    name: &str,
) -> AppResult {
    let new = characters::check_name(name)?;
    let mut turn = Turn::<Table>::begin(app, caller).await?;
    let mut row = picked(&mut turn, system, pick).await?;
    let key = storage::characters::name_key;
    if key(&new) != key(&row.name)
        && storage::characters::by_name(turn.tx(), caller.guild_id, system.id(), row.owner_id, &new)
            .await?
            .is_some()
    {
        return Err(AppError::user(format!(
            "There is already a character named {new}."
        )));
    }
    let old = std::mem::replace(&mut row.name, new.clone());
    row.sheet = system.renamed(&row.sheet, &new)?;
    let renamed = Renamed {
        from: &old,
        to: &new,
    };
    let log = sheet_entry(system, "sheet_rename", &row, &renamed);
    let answer = Response::ephemeral(View::text(format!("✏️ **{old}** is now called **{new}**.")));
    let out = write_row(Outcome::answer(answer), &row, |tx, row| {
        Box::pin(async move {
            storage::characters::update(tx, &row, storage::now_ms()).await?;
            Ok(())
        })
    });
    turn.finish(out.log(log)).await
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn long_lists_are_cut_with_a_count() {
        let lines: Vec<String> = (0..10).map(|i| format!("line {i}")).collect();
        assert_eq!(join_capped(&lines[..2], 100), "line 0\nline 1");
        let cut = join_capped(&lines, 30);
        assert!(cut.chars().count() <= 30, "{cut}");
        assert!(cut.ends_with("more"), "{cut}");
        assert!(cut.starts_with("line 0\nline 1"), "{cut}");
    }
}
