//! Shared table features: what every system that keeps character sheets
//! offers alike, written once and grafted onto each playable system's
//! `/<root> sheet` (see [`crate::systems::commands`]).
//!
//! `/<root> sheet show`, `rename` and `import` ([`travel`]) name no
//! system: the command's root finds it in the registry, characters are
//! named one way ([`crate::app::characters::Pick`]), and the system only
//! draws its sheet ([`System::sheet_card`]) and, if it keeps the name
//! inside its sheet, follows a rename ([`System::renamed`]). A shown sheet
//! carries the controls that replaced `sheet list`, `use`, `delete` and
//! `export` ([`card`]: **Play as…**, **Delete**, **Export**). Deleting asks
//! first, with a **Delete** / **Keep** prompt that is a session of this
//! feature's own kind ([`delete`]).

pub mod answer;
pub mod approval;
pub mod card;
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
use crate::app::view::{clean, View};
use crate::app::Act;
use crate::app::{log, App, AppError, AppResult, Caller, Response};
use crate::storage::sessions::Session;
use crate::storage::{self, characters::Character, Tx};
use crate::systems::game::{Feature, NoGame};

/// The placeholder of a shown sheet's select that makes a character
/// active ([`card`]), which the deletion question names too.
pub const PLAY_AS: &str = "Play as…";

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
        card::KIND,
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
            card::KIND => card::click(app, tx, session, click).await,
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
            card::KIND => card::render(app, session).await,
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

/// The game of id `id`, if it keeps sheets (a sheet's controls name it).
pub fn system_of_id<'a>(app: &'a App, id: &str) -> Result<&'a dyn System, AppError> {
    app.registry
        .get(id)
        .filter(|s| s.has_sheets())
        .ok_or_else(|| AppError::Internal(format!("{id} keeps no character sheets")))
}

/// The character `pick` names in `system`, as the caller may act on it:
/// their own, or for the game master anyone's.
async fn picked(
    turn: &mut Turn<'_, Table>,
    system: &dyn System,
    pick: Pick<'_>,
) -> Result<Character, AppError> {
    let (caller, fc) = (turn.caller().clone(), turn.fc);
    // `player:` is the game master's (issue 31): a name two members share
    // is named with its player under `/<root>-gm sheet`.
    if let (true, Some(name), None) = (fc, pick.character, pick.player) {
        let (guild, id) = (caller.guild_id, system.id());
        let own = storage::characters::by_name(turn.tx(), guild, id, caller.user_id, name).await?;
        if own.is_none()
            && storage::characters::by_name_any_owner(turn.tx(), guild, id, name)
                .await?
                .len()
                > 1
        {
            let root = system.command_root().unwrap_or_default();
            return Err(AppError::user(format!(
                "Several members have a character named `{name}`: say whose with `/{root}-gm sheet show player:` (or `rename`)."
            )));
        }
    }
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

/// `/<root> sheet show`: the system's card of the picked character (the
/// caller's own; the FC's pick may be anyone's) with its controls
/// ([`card`]), posted for the channel or, with `private`, for the caller
/// only; with no character named and none active, the caller's characters
/// to pick one from.
pub async fn show(
    app: &App,
    caller: &Caller,
    system: &dyn System,
    pick: Pick<'_>,
    private: bool,
) -> AppResult {
    let mut turn = Turn::<Table>::begin(app, caller).await?;
    if pick.character.is_none() && pick.player.is_none() {
        let in_game =
            crate::app::games::character_of(turn.tx(), caller, system.id(), caller.user_id).await?;
        let active = match in_game {
            Some(row) => Some(row),
            None => {
                storage::characters::active(turn.tx(), caller.guild_id, system.id(), caller.user_id)
                    .await?
            }
        };
        if active.is_none() {
            return card::list(turn, system).await;
        }
    }
    let row = picked(&mut turn, system, pick).await?;
    card::show(app, turn, system, row, private).await
}

/// Whose character `row` is, as a reply says it: "your", or "<@…>'s".
pub fn whose(caller: &Caller, row: &Character) -> String {
    if row.owner_id == caller.user_id {
        "your".to_string()
    } else {
        format!("<@{}>'s", row.owner_id)
    }
}

/// Makes `row` its owner's active character (**Play as…**, which replaced
/// `sheet use`): in a game its owner plays here, theirs in that game. The
/// answer replaces the clicked list (`in_place`) or comes privately.
pub async fn make_active(
    mut turn: Turn<'_, Table>,
    system: &dyn System,
    row: Character,
    in_place: bool,
) -> AppResult {
    let caller = turn.caller().clone();
    let log = sheet_entry(system, "sheet_use", &row, &Named { name: &row.name });
    // In a game its owner plays, the character becomes theirs in that game
    // (issue 32); elsewhere it is the active one.
    let game = crate::app::games::use_here(turn.tx(), &caller, &row).await?;
    let text = match &game {
        Some(g) => format!(
            "✅ **{}** is now {} character in {} (elsewhere the active one stays).",
            clean(&row.name),
            whose(&caller, &row),
            crate::app::games::bold(&g.name)
        ),
        None => format!(
            "✅ **{}** is now {} active {} character.",
            clean(&row.name),
            whose(&caller, &row),
            system.name()
        ),
    };
    let view = View::text(text);
    let answer = if in_place {
        Response::update(view)
    } else {
        Response::ephemeral(view)
    };
    let out = Outcome::answer(answer);
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
            "There is already a character named {}.",
            clean(&new)
        )));
    }
    let old = std::mem::replace(&mut row.name, new.clone());
    row.sheet = system.renamed(&row.sheet, &new)?;
    let renamed = Renamed {
        from: &old,
        to: &new,
    };
    let log = sheet_entry(system, "sheet_rename", &row, &renamed);
    let answer = Response::ephemeral(View::text(format!(
        "✏️ **{}** is now called **{}**.",
        clean(&old),
        clean(&new)
    )));
    let out = write_row(Outcome::answer(answer), &row, |tx, row| {
        Box::pin(async move {
            storage::characters::update(tx, &row, storage::now_ms()).await?;
            Ok(())
        })
    });
    turn.finish(out.log(log)).await
}
