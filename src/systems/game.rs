//! The typed contract of what the registry holds (issue 28, item 1).
//!
//! A [`Feature`] is anything registered that owns sessions, a shared
//! feature (`/roll`, `/history` paging, the table's prompts) or a game: its
//! constants, pointers at its own functions (commands, odds, history
//! lines), and its sessions' entry points as the trait's methods. A
//! [`Game`] is a feature that is also a pipeline [`Scope`] (its id, typed
//! house rules and sheet, said once) with a game master, sheets and
//! governed changes. [`Played`] makes any feature a registered [`System`],
//! reading what it is as a game from its [`Feature::Game`] side (itself
//! for a game, [`NoGame`] for a shared feature), so no registration writes
//! forwarding code; [`entry`] is its line in [`super::entries`].

use std::future::Future;
use std::marker::PhantomData;

use serde::Serialize;

use crate::app::change::{apply_stored_within, Change};
use crate::app::component::Click;
use crate::app::pipeline::{Pending, Scope};
use crate::app::registry::{
    BoxFuture, Catalogue, Governed, HelpTopic, Registry, Rules, System, GENERIC_GM,
};
use crate::app::{Act, App, AppError, AppResult, Caller, View};
use crate::rules::{HouseRules, RuleError};
use crate::storage::characters::Character;
use crate::storage::log::LogEntry;
use crate::storage::sessions::Session;
use crate::systems::platform::odds::Odds;
use crate::systems::Command;

/// Anything registered that owns sessions: a shared feature or a game.
pub trait Feature: Send + Sync + 'static {
    /// The stable id: settings scope, log system name, `system` setting.
    const ID: &'static str;
    /// The name players read.
    const NAME: &'static str;
    /// Other names players type for it.
    const ALIASES: &'static [&'static str] = &[];
    /// Its slash-command root (`vv`), if it has one of its own.
    const ROOT: Option<&'static str> = None;
    /// The session kinds (first part of a button's custom_id) it owns.
    const KINDS: &'static [&'static str];
    /// Its help topics, in menu order.
    const HELP: &'static [HelpTopic] = &[];
    /// Its slash commands (a game's under one root named [`Feature::ROOT`]).
    const COMMANDS: fn() -> Vec<Command> = Vec::new;
    /// Fills in what its commands take from the registry (choice lists),
    /// once every system is known.
    const FINISH: Option<fn(&mut Command, &Registry)> = None;
    /// Its odds questions: `/odds` (a game's `/<root> odds`) subcommands
    /// and `kismet odds` questions.
    const ODDS: Option<fn() -> Odds> = None;
    /// One of its log entries as a `/history` line (`None`: the shared
    /// summary).
    const HISTORY_LINE: fn(&LogEntry) -> Option<String> = no_line;

    /// What it is as a game: itself for a [`Game`], [`NoGame`] otherwise.
    type Game: Side;

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
}

/// [`Feature::HISTORY_LINE`] of a feature that leaves its lines to the
/// shared summary.
fn no_line(_entry: &LogEntry) -> Option<String> {
    None
}

/// A game at the table: a feature with its own command root, character
/// sheets, house rules and changes the house rule `player_edits` governs.
///
/// It is the game's [`Scope`] in the action pipeline (its id, typed house
/// rules and sheet are said there once; its [`Feature::ID`] names the same
/// constant) with what the registry needs besides. A game implements it
/// where its behaviour lives (its folder's `mod.rs`).
pub trait Game: Feature<Game = Self> + Scope<Settings: HouseRules + Serialize> {
    /// What its rules call the game master, mid-sentence.
    const GM: &'static str;
    /// The changes `player_edits` governs, as `/help` lists them.
    const GOVERNED: &'static [Governed];
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

/// What a registered feature is as a game, as [`Played`] asks it: the
/// defaults are a shared feature's answers ([`NoGame`]), every [`Game`]
/// answers for itself. `name` is the feature's, for refusals.
pub trait Side: 'static {
    /// Whether a server or channel can play it.
    fn playable() -> bool {
        false
    }

    /// What its rules call the game master.
    fn gm() -> &'static str {
        GENERIC_GM
    }

    /// Its house rules, if it has any.
    fn house_rules() -> Option<&'static dyn Catalogue> {
        None
    }

    /// Whether it keeps character sheets.
    fn has_sheets() -> bool {
        false
    }

    /// Draws one of its characters (see [`System::sheet_card`]).
    fn sheet_card<'a>(
        name: &'static str,
        act: &'a mut Act,
        character: &'a Character,
    ) -> BoxFuture<'a, Result<View, AppError>> {
        let _ = act;
        let msg = format!("{name} keeps no sheet to show for {}.", character.name);
        Box::pin(std::future::ready(Err(AppError::Internal(msg))))
    }

    /// Applies a governed change stored as JSON inside an approval's
    /// transaction (see [`System::apply_change_within`]).
    fn apply_change_within<'a>(
        app: &'a App,
        act: &'a mut Act,
        change: &'a serde_json::Value,
    ) -> Option<BoxFuture<'a, Result<Pending, AppError>>> {
        let _ = (app, act, change);
        None
    }

    /// The changes `player_edits` governs.
    fn governed() -> &'static [Governed] {
        &[]
    }

    /// The stored sheet JSON of a character renamed to `name`.
    fn renamed(sheet: &str, name: &str) -> Result<String, AppError> {
        unchanged(sheet, name)
    }

    /// The version of its sheet schema; 0 when its sheets do not travel.
    fn sheet_version() -> u32 {
        0
    }

    /// Reads an imported sheet (see [`System::import_sheet`]).
    fn import_sheet<'a>(
        name: &'static str,
        act: &'a mut Act,
        version: u32,
        character: &'a str,
        sheet: serde_json::Value,
    ) -> BoxFuture<'a, Result<String, AppError>> {
        let _ = (act, version, character, sheet);
        let msg = format!("{name} sheets cannot be imported.");
        Box::pin(async move { Err(AppError::user(msg)) })
    }
}

/// The game side of a shared feature: none.
pub enum NoGame {}

impl Side for NoGame {}

impl<G: Game> Side for G {
    fn playable() -> bool {
        true
    }

    fn gm() -> &'static str {
        G::GM
    }

    fn house_rules() -> Option<&'static dyn Catalogue> {
        // `Rules` is zero-sized: leaking one allocates nothing, and a
        // generic function cannot have a `static` of its own.
        let rules: &'static Rules<G::Settings> = Box::leak(Box::new(Rules::new()));
        Some(rules)
    }

    fn has_sheets() -> bool {
        true
    }

    fn sheet_card<'a>(
        _name: &'static str,
        act: &'a mut Act,
        character: &'a Character,
    ) -> BoxFuture<'a, Result<View, AppError>> {
        Box::pin(G::sheet_card(act, character))
    }

    fn apply_change_within<'a>(
        app: &'a App,
        act: &'a mut Act,
        change: &'a serde_json::Value,
    ) -> Option<BoxFuture<'a, Result<Pending, AppError>>> {
        apply_stored_within::<G::Change>(app, act, change)
    }

    fn governed() -> &'static [Governed] {
        G::GOVERNED
    }

    fn renamed(sheet: &str, name: &str) -> Result<String, AppError> {
        (G::RENAMED)(sheet, name)
    }

    fn sheet_version() -> u32 {
        G::SHEET_VERSION
    }

    fn import_sheet<'a>(
        _name: &'static str,
        act: &'a mut Act,
        version: u32,
        character: &'a str,
        sheet: serde_json::Value,
    ) -> BoxFuture<'a, Result<String, AppError>> {
        Box::pin(async move {
            let sheet = G::upgrade_sheet(version, sheet);
            let typed: G::Sheet = serde_path_to_error::deserialize(sheet).map_err(|e| {
                AppError::user(field_message(&e.path().to_string(), &e.inner().to_string()))
            })?;
            let caller = act.caller().clone();
            let settings: G::Settings =
                crate::app::settings::scoped_here(act, &caller, <G as Scope>::ID).await?;
            let checked = G::checked_sheet(typed, character, &settings).map_err(|e| {
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

/// A [`Feature`] as the application layer sees it.
pub struct Played<F>(PhantomData<fn() -> F>);

impl<F> Played<F> {
    /// The registered form of `F`.
    pub const fn new() -> Self {
        Played(PhantomData)
    }
}

impl<F> Default for Played<F> {
    fn default() -> Self {
        Self::new()
    }
}

impl<F: Feature> System for Played<F> {
    fn id(&self) -> &'static str {
        F::ID
    }

    fn name(&self) -> &'static str {
        F::NAME
    }

    fn aliases(&self) -> &'static [&'static str] {
        F::ALIASES
    }

    fn gm(&self) -> &'static str {
        F::Game::gm()
    }

    fn command_root(&self) -> Option<&'static str> {
        F::ROOT
    }

    fn playable(&self) -> bool {
        F::Game::playable()
    }

    fn session_kinds(&self) -> &'static [&'static str] {
        F::KINDS
    }

    fn house_rules(&self) -> Option<&'static dyn Catalogue> {
        F::Game::house_rules()
    }

    fn help(&self) -> &'static [HelpTopic] {
        F::HELP
    }

    fn click<'a>(
        &'a self,
        app: &'a App,
        tx: Act,
        session: Session,
        click: &'a Click<'a>,
    ) -> BoxFuture<'a, AppResult> {
        Box::pin(F::click(app, tx, session, click))
    }

    fn render<'a>(
        &'a self,
        app: &'a App,
        session: &'a Session,
        caller: &'a Caller,
    ) -> BoxFuture<'a, Result<View, AppError>> {
        Box::pin(F::render(app, session, caller))
    }

    fn has_sheets(&self) -> bool {
        F::Game::has_sheets()
    }

    fn sheet_card<'a>(
        &'a self,
        _app: &'a App,
        act: &'a mut Act,
        character: &'a Character,
    ) -> BoxFuture<'a, Result<View, AppError>> {
        F::Game::sheet_card(F::NAME, act, character)
    }

    fn apply_change_within<'a>(
        &'a self,
        app: &'a App,
        act: &'a mut Act,
        change: &'a serde_json::Value,
    ) -> Option<BoxFuture<'a, Result<Pending, AppError>>> {
        F::Game::apply_change_within(app, act, change)
    }

    fn history_line(&self, entry: &LogEntry) -> Option<String> {
        (F::HISTORY_LINE)(entry)
    }

    fn governed(&self) -> &'static [Governed] {
        F::Game::governed()
    }

    fn renamed(&self, sheet: &str, name: &str) -> Result<String, AppError> {
        F::Game::renamed(sheet, name)
    }

    fn sheet_version(&self) -> u32 {
        F::Game::sheet_version()
    }

    fn import_sheet<'a>(
        &'a self,
        act: &'a mut Act,
        version: u32,
        name: &'a str,
        sheet: serde_json::Value,
    ) -> BoxFuture<'a, Result<String, AppError>> {
        F::Game::import_sheet(F::NAME, act, version, name, sheet)
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

/// A feature's registration (its line in [`super::entries`]): the feature
/// (a game or a shared one), its slash commands and its odds questions.
pub fn entry<F: Feature>() -> super::Entry {
    super::Entry {
        system: Some(std::sync::Arc::new(Played::<F>::new())),
        commands: F::COMMANDS,
        finish: F::FINISH,
        odds: F::ODDS.map(|odds| odds()),
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
