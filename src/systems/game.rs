//! The typed game contract (issue 28, item 1): what a game at the table
//! declares beyond its pipeline [`Scope`], as constants and types (its
//! names, the game master's word, its command root and session kinds, its
//! governed changes, its help, its commands and odds questions), its
//! sessions' entry points as the trait's methods and the rest as pointers
//! at its own functions. [`Played`] makes any [`Game`] a registered
//! [`System`], so a game writes no forwarding code; [`entry`] is its
//! registration.

use std::future::Future;
use std::marker::PhantomData;

use serde::Serialize;

use crate::app::component::Click;
use crate::app::pipeline::{Pending, Scope};
use crate::app::registry::{BoxFuture, Catalogue, Governed, HelpTopic, Rules, System};
use crate::app::{Act, App, AppError, AppResult, Caller, View};
use crate::rules::{HouseRules, RuleError};
use crate::storage::characters::Character;
use crate::storage::log::LogEntry;
use crate::storage::sessions::Session;
use crate::systems::platform::odds::Odds;
use crate::systems::table::approval::{apply_stored_within, Change};
use crate::systems::Command;

/// A game at the table: a system with its own command root, character
/// sheets, house rules and changes the house rule `player_edits` governs.
///
/// It is the game's [`Scope`] in the action pipeline (its id, typed house
/// rules and sheet are said there once) with what the registry needs
/// besides. A game implements it where its behaviour lives (its folder's
/// `mod.rs`): the sessions' entry points are the trait's methods, and the
/// rest points at the game's own functions and data.
pub trait Game: Scope<Settings: HouseRules + Serialize> {
    /// The name players read.
    const NAME: &'static str;
    /// Other names players type for it.
    const ALIASES: &'static [&'static str];
    /// What its rules call the game master, mid-sentence.
    const GM: &'static str;
    /// Its slash-command root (`vv`).
    const ROOT: &'static str;
    /// The session kinds (first part of a button's custom_id) it owns.
    const KINDS: &'static [&'static str];
    /// Its help topics, in menu order.
    const HELP: &'static [HelpTopic];
    /// The changes `player_edits` governs, as `/help` lists them.
    const GOVERNED: &'static [Governed];
    /// Its slash commands, under one root command named [`Game::ROOT`].
    const COMMANDS: fn() -> Vec<Command>;
    /// Its odds questions: `/<root> odds` subcommands and `kismet odds`
    /// questions.
    const ODDS: fn() -> Odds;
    /// One of its log entries as a `/history` line (`None`: the shared
    /// summary).
    const HISTORY_LINE: fn(&LogEntry) -> Option<String>;
    /// The stored sheet JSON of a character renamed to the second argument
    /// (unchanged unless the game keeps the name inside its sheet).
    const RENAMED: fn(&str, &str) -> Result<String, AppError> = unchanged;

    /// A governed change, typed (stored as JSON while it waits).
    type Change: Change;

    /// The version of its sheet schema in exported sheet documents
    /// (`docs/sheets.md` keeps each game's version history).
    const SHEET_VERSION: u32 = 1;

    /// Brings the `sheet` of a document of an older schema `version` up to
    /// [`Game::SHEET_VERSION`] (unchanged by default: every field added
    /// since has a default).
    fn upgrade_sheet(version: u32, sheet: serde_json::Value) -> serde_json::Value {
        let _ = version;
        sheet
    }

    /// Checks an imported sheet with the same checks its sheet commands
    /// enforce, under the importing server's settings, for a character
    /// named `name`; returns it as it is stored. A refusal names the field
    /// ([`RuleError::at`]).
    fn checked_sheet(
        sheet: Self::Sheet,
        name: &str,
        settings: &Self::Settings,
    ) -> Result<Self::Sheet, RuleError>;

    /// Applies a checked click on one of its open sessions, inside the
    /// action's write transaction (which it commits).
    fn click(
        app: &App,
        tx: Act,
        session: Session,
        click: &Click<'_>,
    ) -> impl Future<Output = AppResult> + Send;

    /// Draws a session's message as it stands.
    fn render(
        app: &App,
        session: &Session,
        caller: &Caller,
    ) -> impl Future<Output = Result<View, AppError>> + Send;

    /// Draws one of its characters for `/<root> sheet show`, inside the
    /// action's write transaction (a card with buttons may open a session
    /// there; the shared feature commits).
    fn sheet_card(
        act: &mut Act,
        character: &Character,
    ) -> impl Future<Output = Result<View, AppError>> + Send;
}

/// [`Game::RENAMED`] of a game that keeps no name inside its sheet.
fn unchanged(sheet: &str, _name: &str) -> Result<String, AppError> {
    Ok(sheet.to_string())
}

/// A [`Game`] as the application layer sees it.
pub struct Played<G>(PhantomData<fn() -> G>);

impl<G> Played<G> {
    /// The registered form of `G`.
    pub const fn new() -> Self {
        Played(PhantomData)
    }
}

impl<G> Default for Played<G> {
    fn default() -> Self {
        Self::new()
    }
}

impl<G: Game> System for Played<G> {
    fn id(&self) -> &'static str {
        G::ID
    }

    fn name(&self) -> &'static str {
        G::NAME
    }

    fn aliases(&self) -> &'static [&'static str] {
        G::ALIASES
    }

    fn gm(&self) -> &'static str {
        G::GM
    }

    fn command_root(&self) -> Option<&'static str> {
        Some(G::ROOT)
    }

    fn session_kinds(&self) -> &'static [&'static str] {
        G::KINDS
    }

    fn house_rules(&self) -> Option<&'static dyn Catalogue> {
        // `Rules` is zero-sized: leaking one allocates nothing, and a
        // generic function cannot have a `static` of its own.
        let rules: &'static Rules<G::Settings> = Box::leak(Box::new(Rules::new()));
        Some(rules)
    }

    fn help(&self) -> &'static [HelpTopic] {
        G::HELP
    }

    fn click<'a>(
        &'a self,
        app: &'a App,
        tx: Act,
        session: Session,
        click: &'a Click<'a>,
    ) -> BoxFuture<'a, AppResult> {
        Box::pin(G::click(app, tx, session, click))
    }

    fn render<'a>(
        &'a self,
        app: &'a App,
        session: &'a Session,
        caller: &'a Caller,
    ) -> BoxFuture<'a, Result<View, AppError>> {
        Box::pin(G::render(app, session, caller))
    }

    fn has_sheets(&self) -> bool {
        true
    }

    fn sheet_card<'a>(
        &'a self,
        _app: &'a App,
        act: &'a mut Act,
        character: &'a Character,
    ) -> BoxFuture<'a, Result<View, AppError>> {
        Box::pin(G::sheet_card(act, character))
    }

    fn apply_change_within<'a>(
        &'a self,
        app: &'a App,
        act: &'a mut Act,
        change: &'a serde_json::Value,
    ) -> Option<BoxFuture<'a, Result<Pending, AppError>>> {
        apply_stored_within::<G::Change>(app, act, change)
    }

    fn history_line(&self, entry: &LogEntry) -> Option<String> {
        (G::HISTORY_LINE)(entry)
    }

    fn governed(&self) -> &'static [Governed] {
        G::GOVERNED
    }

    fn renamed(&self, sheet: &str, name: &str) -> Result<String, AppError> {
        (G::RENAMED)(sheet, name)
    }

    fn sheet_version(&self) -> u32 {
        G::SHEET_VERSION
    }

    fn import_sheet<'a>(
        &'a self,
        act: &'a mut Act,
        version: u32,
        name: &'a str,
        sheet: serde_json::Value,
    ) -> BoxFuture<'a, Result<String, AppError>> {
        Box::pin(async move {
            let sheet = G::upgrade_sheet(version, sheet);
            let typed: G::Sheet = serde_path_to_error::deserialize(sheet).map_err(|e| {
                AppError::user(field_message(&e.path().to_string(), &e.inner().to_string()))
            })?;
            let caller = act.caller().clone();
            let settings: G::Settings =
                crate::app::settings::scoped_here(act, &caller, G::ID).await?;
            let checked = G::checked_sheet(typed, name, &settings).map_err(|e| {
                let field = e
                    .field
                    .map_or("sheet".into(), |f| match f.starts_with('[') {
                        true => format!("sheet{f}"),
                        false => format!("sheet.{f}"),
                    });
                AppError::user(format!("{field}: {}", e.message))
            })?;
            Ok(serde_json::to_string(&checked)?)
        })
    }
}

/// A refusal of an imported sheet naming its field: `path` is where in the
/// sheet it was found (`.` for the sheet itself); `message` may begin with
/// a path inside that (a sheet's own check, [`RuleError::at`]), which is
/// joined on: `sheet.light.slots[2].item.text: …`.
fn field_message(path: &str, message: &str) -> String {
    let mut field = String::from("sheet");
    if path != "." {
        field.push('.');
        field.push_str(path);
    }
    let mut message = message;
    if let Some((inner, rest)) = message.split_once(": ") {
        let is_path = !inner.is_empty()
            && inner
                .chars()
                .all(|c| c.is_alphanumeric() || "_.[]\"".contains(c));
        if is_path {
            if !inner.starts_with('[') {
                field.push('.');
            }
            field.push_str(inner);
            message = rest;
        }
    }
    format!("{field}: {message}")
}

/// A game's registration (its line in [`super::entries`]): the game, its
/// slash commands and its odds questions.
pub fn entry<G: Game>() -> super::Entry {
    super::Entry {
        system: Some(std::sync::Arc::new(Played::<G>::new())),
        commands: G::COMMANDS,
        finish: None,
        odds: Some((G::ODDS)()),
    }
}

#[cfg(test)]
mod tests {
    use super::field_message;

    #[test]
    fn a_type_error_names_its_path_inside_the_sheet() {
        assert_eq!(
            field_message(
                "abilities[2].dots",
                "invalid type: string \"x\", expected u8"
            ),
            "sheet.abilities[2].dots: invalid type: string \"x\", expected u8"
        );
        // A sheet's own loader (Veracity's) names the field inside.
        assert_eq!(
            field_message(
                "light",
                "slots[3].item.text: An item's text can be at most 200 characters long."
            ),
            "sheet.light.slots[3].item.text: An item's text can be at most 200 characters long."
        );
        assert_eq!(
            field_message(
                ".",
                "hp_current: A stored Veracity sheet has more HP than its maximum."
            ),
            "sheet.hp_current: A stored Veracity sheet has more HP than its maximum."
        );
        assert_eq!(
            field_message(".", "missing field `light`"),
            "sheet: missing field `light`"
        );
    }
}
