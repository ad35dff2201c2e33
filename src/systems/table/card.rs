//! The sheet controls a shown sheet carries (issue 31 item 1): `/<root>
//! sheet show` adds to its game's card a select **Play as…** (the caller's
//! other characters in the game, the game master's: everyone's), which
//! makes one active (it replaced `sheet use` and `sheet list`), and the
//! buttons **Delete** (the deletion question of [`super::delete`], which
//! replaced `sheet delete`) and **Export** (the file of [`super::travel`],
//! which replaced `sheet export`). When the caller has no active character,
//! `show` lists their characters with the same select.
//!
//! The controls are a session of this feature's own kind ([`KIND`]),
//! whose state names the game and the character shown; they never change
//! it, so its buttons keep working for as long as the message stands. Only
//! a character's owner and the game master may press them.

use serde::{Deserialize, Serialize};

use super::{hint, system_of_id};
use crate::app::characters;
use crate::app::component::{Action, Click};
use crate::app::pipeline::{Outcome, Table, Turn};
use crate::app::registry::System;
use crate::app::view::{
    clean, colour, join_capped, limits, page_of, paged_options, Button, Embed, Row, SelectOption,
    Style, View,
};
use crate::app::{Act, App, AppError, AppResult, Response};
use crate::storage::characters::Character;
use crate::storage::sessions::{Session, Status};
use crate::storage::{self, Tx};

/// The session kind of a sheet's controls.
pub const KIND: &str = "card";

pub use super::PLAY_AS;

/// What a sheet's controls keep: the game and the character shown (none
/// for the list `show` answers with when the caller has no active one).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct CardState {
    /// The game's id.
    pub system: String,
    /// The character shown, by row id.
    pub character: Option<i64>,
    /// The member who asked was the game master: **Play as…** offers
    /// every member's characters.
    #[serde(default)]
    pub everyone: bool,
}

/// A press on a sheet's controls (the words are in posted messages: never
/// rename them).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum CardAction {
    /// The **Play as…** select: the picked character becomes active.
    Play,
    /// **Delete**: asks whether to delete the character shown.
    Delete,
    /// **Export**: the character shown as a file, privately.
    Export,
}

impl Action for CardAction {
    fn encode(&self) -> (&'static str, Option<String>) {
        let word = match self {
            CardAction::Play => "play",
            CardAction::Delete => "del",
            CardAction::Export => "export",
        };
        (word, None)
    }

    fn parse(action: &str, arg: Option<&str>) -> Option<Self> {
        if arg.is_some() {
            return None;
        }
        match action {
            "play" => Some(CardAction::Play),
            "del" => Some(CardAction::Delete),
            "export" => Some(CardAction::Export),
            _ => None,
        }
    }
}

/// The characters **Play as…** offers `shower` (the game master: every
/// member's), without the one shown.
async fn choices(
    tx: &mut Tx,
    guild: i64,
    system: &str,
    shower: i64,
    fc: bool,
    shown: Option<i64>,
) -> Result<Vec<Character>, AppError> {
    let owner = (!fc).then_some(shower);
    let rows = storage::characters::list(tx, guild, system, owner, 200).await?;
    Ok(rows.into_iter().filter(|r| Some(r.id) != shown).collect())
}

/// The options of **Play as…** for `rows`, as `shower` reads them.
fn options(rows: &[Character], shower: i64) -> Vec<SelectOption> {
    rows.iter()
        .map(|r| {
            let mut about = Vec::new();
            if r.owner_id != shower {
                about.push("another player's");
            }
            if r.active {
                about.push("active");
            }
            SelectOption {
                label: r.name.chars().take(limits::OPTION_TEXT).collect(),
                value: r.id.to_string(),
                description: (!about.is_empty()).then(|| about.join(" · ")),
            }
        })
        .collect()
}

/// The select **Play as…** of the controls `id` at `version`, at `page`.
fn play_select(id: i64, version: i64, options: Vec<SelectOption>, page: usize) -> Row {
    Row::pick(
        CardAction::Play.button(KIND, id, version).encode(),
        PLAY_AS,
        paged_options(options, page),
    )
}

/// The controls' rows: for a character shown, **Delete** and **Export**
/// (first: a card with many rows of its own keeps them), then **Play as…**
/// when there is another character to play.
fn rows(id: i64, version: i64, state: &CardState, options: Vec<SelectOption>) -> Vec<Row> {
    let mut out = Vec::new();
    if state.character.is_some() {
        let b = |a: CardAction, label: &str, style| {
            Button::new(a.button(KIND, id, version).encode(), label, style)
        };
        out.push(Row::Buttons(vec![
            b(CardAction::Delete, "Delete", Style::Danger),
            b(CardAction::Export, "Export", Style::Secondary),
        ]));
    }
    if !options.is_empty() {
        out.push(play_select(id, version, options, 0));
    }
    out
}

/// `view` with the controls `id` at `version` below it (a card keeps its
/// game's own rows first: its message is its game's session's).
fn with_rows(mut view: View, rows: Vec<Row>) -> View {
    let room = limits::ROWS.saturating_sub(view.rows.len());
    view.rows.extend(rows.into_iter().take(room));
    view
}

/// `/<root> sheet show` of `row`: its game's card with the controls below,
/// for the channel or, `private`, for the caller only.
pub async fn show(
    app: &App,
    mut turn: Turn<'_, Table>,
    system: &dyn System,
    row: Character,
    private: bool,
) -> AppResult {
    let caller = turn.caller().clone();
    let fc = turn.fc;
    // The card's own session (its buttons) is the game's to open.
    let card = system.sheet_card(app, turn.act(), &row).await?;
    let rows_of = choices(
        turn.tx(),
        caller.guild_id,
        system.id(),
        caller.user_id,
        fc,
        Some(row.id),
    )
    .await?;
    let opts = options(&rows_of, caller.user_id);
    let state = CardState {
        system: system.id().to_string(),
        character: Some(row.id),
        everyone: fc,
    };
    let kept = state.clone();
    let out = Outcome::new(move |s| {
        let view = with_rows(card, rows(s.id, s.version, &kept, opts));
        if private {
            Response::ephemeral(view)
        } else {
            Response::message(view)
        }
    })
    .start(KIND, &state, Status::Open, None);
    turn.finish(out).await
}

/// `/<root> sheet show` when the caller has no active character: their
/// characters (the game master's: everyone's, with their owners), with
/// **Play as…**, privately; how to make one when there is none.
pub async fn list(mut turn: Turn<'_, Table>, system: &dyn System) -> AppResult {
    let caller = turn.caller().clone();
    let fc = turn.fc;
    let rows_of = choices(
        turn.tx(),
        caller.guild_id,
        system.id(),
        caller.user_id,
        fc,
        None,
    )
    .await?;
    if rows_of.is_empty() {
        let text = format!("No {} characters yet: {}", system.name(), hint(system));
        return turn
            .finish(Outcome::answer(Response::ephemeral(View::text(text))))
            .await;
    }
    let lines: Vec<String> = rows_of
        .iter()
        .map(|r| {
            let mark = if r.active { " ← active" } else { "" };
            if fc {
                format!("**{}**{mark} · <@{}>", clean(&r.name), r.owner_id)
            } else {
                format!("**{}**{mark}", clean(&r.name))
            }
        })
        .collect();
    let embed = Embed::new(format!("📜 {} characters", system.name()))
        .description(join_capped(&lines, limits::DESCRIPTION))
        .footer("Pick one below to play it.")
        .colour(colour::NEUTRAL);
    let opts = options(&rows_of, caller.user_id);
    let state = CardState {
        system: system.id().to_string(),
        character: None,
        everyone: fc,
    };
    let kept = state.clone();
    let out = Outcome::new(move |s| {
        Response::ephemeral(with_rows(
            View::embed(embed),
            rows(s.id, s.version, &kept, opts),
        ))
    })
    .start(KIND, &state, Status::Open, None);
    turn.finish(out).await
}

/// The character `id` of the controls' game, if the caller may act on it
/// (its owner, or the game master).
async fn reachable(
    turn: &mut Turn<'_, Table>,
    system: &dyn System,
    id: i64,
) -> Result<Character, AppError> {
    let guild = turn.caller().guild_id;
    let row = storage::characters::get(turn.tx(), guild, id)
        .await?
        .filter(|r| r.system == system.id())
        .ok_or_else(|| AppError::user("That character no longer exists."))?;
    if row.owner_id != turn.caller().user_id {
        turn.require_gm(system.gm(), characters::NOT_YOURS)?;
    }
    Ok(row)
}

/// A press on a sheet's controls.
pub async fn click(app: &App, act: Act, session: Session, click: &Click<'_>) -> AppResult {
    let state: CardState = serde_json::from_str(&session.state)?;
    let system = system_of_id(app, &state.system)?;
    let action: CardAction = click.action()?;
    // As the commands these controls replaced: in an ended game's channels
    // only Export (a read) runs, in a live one only its game's sheets.
    let root = system.command_root().unwrap_or_default();
    let word = match action {
        CardAction::Play => "use",
        CardAction::Delete => "delete",
        CardAction::Export => "export",
    };
    let qualified = format!("{root} sheet {word}");
    crate::app::games::allows_here(app, click.caller, root, &qualified).await?;
    let mut turn = Turn::<Table>::click(app, act, click.caller).await?;
    match action {
        CardAction::Play => {
            if let Some(page) = page_of(click.values) {
                // Turning the page picks nothing: the next page, privately.
                let shower = session.owner_id;
                let rows_of = choices(
                    turn.tx(),
                    click.caller.guild_id,
                    system.id(),
                    shower,
                    state.everyone,
                    state.character,
                )
                .await?;
                let select =
                    play_select(session.id, session.version, options(&rows_of, shower), page);
                let mut view = View::text(format!("{PLAY_AS} (page {})", page + 1));
                view.rows.push(select);
                return turn
                    .finish(Outcome::answer(Response::ephemeral(view)))
                    .await;
            }
            let id = match click.values {
                [one] => one.parse::<i64>().ok(),
                _ => None,
            }
            .ok_or_else(|| AppError::user("Pick one character to play."))?;
            let row = reachable(&mut turn, system, id).await?;
            super::make_active(turn, system, row, state.character.is_none()).await
        }
        CardAction::Delete | CardAction::Export => {
            let id = state
                .character
                .ok_or_else(|| AppError::user("That list shows no character to act on."))?;
            let row = reachable(&mut turn, system, id).await?;
            match action {
                CardAction::Delete => super::delete::ask_row(turn, system, row).await,
                _ => super::travel::export_row(turn, system, row).await,
            }
        }
    }
}

/// Draws the controls alone (a stale press, which they never see: they do
/// not change).
pub async fn render(app: &App, session: &Session) -> Result<View, AppError> {
    let state: CardState = serde_json::from_str(&session.state)?;
    let system = system_of_id(app, &state.system)?;
    let mut tx = app.db.read().await?;
    let name = match state.character {
        Some(id) => storage::characters::get(&mut tx, session.guild_id, id)
            .await?
            .map(|r| r.name),
        None => None,
    };
    let title = match &name {
        Some(n) => format!("📜 {}", clean(n)),
        None => format!("📜 {} characters", system.name()),
    };
    let view = View::embed(Embed::new(title).colour(colour::NEUTRAL));
    Ok(with_rows(
        view,
        rows(session.id, session.version, &state, Vec::new()),
    ))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn actions_keep_their_words() {
        for a in [CardAction::Play, CardAction::Delete, CardAction::Export] {
            let (w, arg) = a.encode();
            assert_eq!(CardAction::parse(w, arg.as_deref()), Some(a));
        }
        let id = CardAction::Delete.button(KIND, 1, 0).encode();
        assert_eq!(id, "card:1:0:del");
        assert_eq!(CardAction::parse("use", None), None);
    }
}
