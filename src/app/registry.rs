//! The registry of systems: how the application layer reaches a system
//! without naming it.
//!
//! Each system at the table (and each shared feature that owns sessions,
//! such as `/history` paging) describes itself with a [`System`]: its id,
//! names, slash-command root, the session kinds it owns, its house rules,
//! its help, and the entry points for clicks and for re-drawing a session.
//! `crate::systems` builds one [`Registry`] from one line per system; the
//! click dispatcher, the expiry sweeper, the settings catalogue, `/help`,
//! `/odds` and the channel-system check all look systems up here.

use std::future::Future;
use std::marker::PhantomData;
use std::pin::Pin;
use std::sync::Arc;

use serde::{de::DeserializeOwned, Serialize};

use super::custom_id::Click;
use super::{AppError, AppResult, Caller, View};
use crate::app::Act;
use crate::rules::{HouseRules, SettingInfo};
use crate::storage::characters::Character;
use crate::storage::sessions::Session;
use crate::storage::sessions::Status;

/// A boxed, sendable future (the entry points of a [`System`] are async).
pub type BoxFuture<'a, T> = Pin<Box<dyn Future<Output = T> + Send + 'a>>;

/// One help topic of a system (a system may have several, such as Venus
/// Engine's two editions).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct HelpTopic {
    /// Its name in the `/help system:` list.
    pub label: &'static str,
    /// The topic's title.
    pub title: &'static str,
    /// The `/odds` subcommands that belong to the topic (`st`,
    /// `veracity-save`; `""` for a game whose `/<root> odds` is one leaf).
    pub odds: &'static [&'static str],
    /// The summary: (heading, text) pairs in the bot's own words.
    pub summary: &'static [(&'static str, &'static str)],
    /// "Start here": the commands of a first session, as (usage, what it
    /// does) pairs, in play order (create a sheet, look at it, the main
    /// roll, the game master's first tool, help). `/help` opens with them.
    pub start: &'static [(&'static str, &'static str)],
}

/// One kind of change the house rule `player_edits` governs: what it is and
/// which command makes it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Governed {
    /// What is changed, in the rules' words (`current willpower`).
    pub what: &'static str,
    /// The command that changes it (`/st sheet willpower current:`).
    pub command: &'static str,
}

/// The game master's name where no system is in play (`/fc`, `/help`).
pub const GENERIC_GM: &str = "game master (FC)";

/// Each registered system's word for the game master, by system id, for
/// texts written where only the id is at hand (a character's lookup): a
/// constant of each system, filled when a registry is made.
static GM_WORDS: std::sync::OnceLock<
    std::sync::RwLock<std::collections::HashMap<&'static str, &'static str>>,
> = std::sync::OnceLock::new();

/// What the system with id `system` calls the game master ([`System::gm`];
/// [`GENERIC_GM`] for an id no registry has named).
pub fn gm_of(system: &str) -> &'static str {
    GM_WORDS
        .get()
        .and_then(|m| m.read().ok()?.get(system).copied())
        .unwrap_or(GENERIC_GM)
}

/// A system at the table, as the application layer sees it.
pub trait System: Send + Sync + 'static {
    /// The stable id: the settings scope, the log's system name and the
    /// value of the `system` setting (`venus`, `ore`).
    fn id(&self) -> &'static str;

    /// The name players read (`Virtual Veil`).
    fn name(&self) -> &'static str;

    /// Other names players type for it (short names, edition names); any
    /// case, `_` and `-` read as spaces.
    fn aliases(&self) -> &'static [&'static str] {
        &[]
    }

    /// What its rules call the game master, as a player reads it in the
    /// middle of a sentence ("Only the **referee** can …"): Venus Engine
    /// `FC`, Veracity `referee`, Storyteller `storyteller`, Virtual Veil
    /// `Compiler`. Shared features with no system of their own say
    /// `game master (FC)`.
    fn gm(&self) -> &'static str {
        GENERIC_GM
    }

    /// Its slash-command root (`vv`), if it has one of its own.
    fn command_root(&self) -> Option<&'static str> {
        None
    }

    /// Whether a server or channel can play it (`/fc channel-system`);
    /// false for shared features such as the generic `/roll`.
    fn playable(&self) -> bool {
        true
    }

    /// The session kinds (the first part of a button's custom_id) it owns.
    fn session_kinds(&self) -> &'static [&'static str];

    /// Its house rules, if it has any.
    fn house_rules(&self) -> Option<&'static dyn Catalogue> {
        None
    }

    /// Its help topics, in menu order.
    fn help(&self) -> &'static [HelpTopic] {
        &[]
    }

    /// Applies a checked click on one of its open sessions, inside the
    /// action's write transaction (which it commits).
    fn click<'a>(
        &'a self,
        app: &'a super::App,
        tx: Act,
        session: Session,
        click: &'a Click<'a>,
    ) -> BoxFuture<'a, AppResult>;

    /// Draws a session's message as it stands.
    fn render<'a>(
        &'a self,
        app: &'a super::App,
        session: &'a Session,
        caller: &'a Caller,
    ) -> BoxFuture<'a, Result<View, AppError>>;

    /// Whether it keeps character sheets: the shared table features
    /// (`/<root> sheet show|rename|import`) serve it.
    fn has_sheets(&self) -> bool {
        false
    }

    /// Draws one of its characters for `/<root> sheet show`, inside the
    /// action's write transaction (a card with buttons may open a session
    /// there; the shared feature commits).
    fn sheet_card<'a>(
        &'a self,
        app: &'a super::App,
        act: &'a mut Act,
        character: &'a Character,
    ) -> BoxFuture<'a, Result<View, AppError>>;

    /// Applies a governed change stored as JSON inside `act`, an
    /// approval's own transaction (as its caller, the approving game
    /// master), for the approval to close the request in the same
    /// transaction, commit, and then draw ([`Pending::draw`]). `None` when
    /// the system governs no changes.
    ///
    /// [`Pending::draw`]: super::pending::Pending::draw
    fn apply_change_within<'a>(
        &'a self,
        app: &'a super::App,
        act: &'a mut Act,
        change: &'a serde_json::Value,
    ) -> Option<BoxFuture<'a, Result<super::pending::Pending, AppError>>> {
        let _ = (app, act, change);
        None
    }

    /// One of this system's log entries as `/history` shows it: what was
    /// done and what came of it, in a short line of words (no raw data).
    /// `None` (the default) leaves it to the shared summary of the entry's
    /// recorded outcome.
    fn history_line(&self, entry: &crate::storage::log::LogEntry) -> Option<String> {
        let _ = entry;
        None
    }

    /// The changes a player makes that the house rule `player_edits`
    /// governs in this system, as listed in `/help` (empty by default).
    fn governed(&self) -> &'static [Governed] {
        &[]
    }

    /// The stored sheet JSON of a character renamed to `name`, for a
    /// system that keeps the name inside its sheet (unchanged by default).
    fn renamed(&self, sheet: &str, name: &str) -> Result<String, AppError> {
        let _ = name;
        Ok(sheet.to_string())
    }

    /// The version of its sheet schema in exported sheet documents
    /// (`docs/sheets.md`); 0 when its sheets do not travel.
    fn sheet_version(&self) -> u32 {
        0
    }

    /// Reads an imported sheet (the `sheet` of a document of schema
    /// `version`, at most [`System::sheet_version`]) for a character named
    /// `name` in the action's server: brought up to the current schema,
    /// checked as its sheet commands check a sheet under the server's
    /// settings, and returned as the JSON to store. A refusal names the
    /// field (`sheet.abilities[2].dots: …`).
    fn import_sheet<'a>(
        &'a self,
        act: &'a mut Act,
        version: u32,
        name: &'a str,
        sheet: serde_json::Value,
    ) -> BoxFuture<'a, Result<String, AppError>>;
}

/// A system's house rules, stored per guild as JSON under the system's id.
pub trait Catalogue: Send + Sync {
    /// Every setting name, in display order.
    fn names(&self) -> Vec<&'static str>;

    /// The settings with their values, from the stored JSON (defaults when
    /// nothing is stored).
    fn describe(&self, stored: Option<&str>) -> Result<Vec<SettingInfo>, AppError>;

    /// Validates and applies a change to the stored JSON; returns the new
    /// JSON (nothing is stored on error).
    fn change(&self, stored: Option<&str>, name: &str, value: &str) -> Result<String, AppError>;

    /// Values worth suggesting for `name` beyond what its `allowed` text
    /// lists (see [`HouseRules::suggest`]).
    fn suggest(&self, name: &str) -> Option<&'static [&'static str]>;
}

/// The [`Catalogue`] of a rules core's typed settings struct. Every
/// setting it lists changes something at the table.
pub struct Rules<S> {
    rules: PhantomData<fn() -> S>,
}

impl<S> Rules<S> {
    /// The catalogue of `S`.
    pub const fn new() -> Self {
        Rules { rules: PhantomData }
    }
}

impl<S> Default for Rules<S> {
    fn default() -> Self {
        Self::new()
    }
}

fn load<S: Default + DeserializeOwned>(stored: Option<&str>) -> Result<S, AppError> {
    match stored {
        Some(json) => Ok(serde_json::from_str(json)?),
        None => Ok(S::default()),
    }
}

impl<S: HouseRules + Default + Serialize + DeserializeOwned> Catalogue for Rules<S> {
    fn names(&self) -> Vec<&'static str> {
        S::NAMES.to_vec()
    }

    fn describe(&self, stored: Option<&str>) -> Result<Vec<SettingInfo>, AppError> {
        Ok(load::<S>(stored)?.describe())
    }

    fn change(&self, stored: Option<&str>, name: &str, value: &str) -> Result<String, AppError> {
        let mut s = load::<S>(stored)?;
        s.set(name, value)?;
        Ok(serde_json::to_string(&s)?)
    }

    fn suggest(&self, name: &str) -> Option<&'static [&'static str]> {
        S::suggest(name)
    }
}

/// Every registered system.
#[derive(Clone, Default)]
pub struct Registry {
    systems: Vec<Arc<dyn System>>,
}

impl std::fmt::Debug for Registry {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_list()
            .entries(self.systems.iter().map(|s| s.id()))
            .finish()
    }
}

/// Folds a name as players type it: lower case, `_` and `-` as spaces,
/// runs of spaces as one.
fn fold(text: &str) -> String {
    text.trim()
        .to_lowercase()
        .replace(['_', '-'], " ")
        .split_whitespace()
        .collect::<Vec<_>>()
        .join(" ")
}

impl Registry {
    /// A registry of `systems`, in display order. Ids, session kinds,
    /// command roots and setting names must be unique (a duplicate is a
    /// programming error and panics at start-up, before any user input).
    pub fn new(systems: Vec<Arc<dyn System>>) -> Self {
        let r = Self { systems };
        r.assert_unique();
        let mut words = GM_WORDS
            .get_or_init(Default::default)
            .write()
            .unwrap_or_else(std::sync::PoisonError::into_inner);
        for s in &r.systems {
            words.insert(s.id(), s.gm());
        }
        drop(words);
        r
    }

    fn assert_unique(&self) {
        let mut seen = std::collections::HashSet::new();
        for s in &self.systems {
            let mut keys = vec![format!("id:{}", s.id())];
            keys.extend(s.session_kinds().iter().map(|k| format!("kind:{k}")));
            keys.extend(s.command_root().map(|r| format!("root:{r}")));
            if let Some(c) = s.house_rules() {
                keys.extend(c.names().iter().map(|n| format!("setting:{n}")));
            }
            for k in keys {
                assert!(seen.insert(k.clone()), "two systems register {k}");
            }
        }
    }

    /// Every system, in display order.
    pub fn all(&self) -> impl Iterator<Item = &dyn System> {
        self.systems.iter().map(|s| s.as_ref())
    }

    /// The systems a server or channel can play.
    pub fn playable(&self) -> impl Iterator<Item = &dyn System> {
        self.all().filter(|s| s.playable())
    }

    /// The system with this id.
    pub fn get(&self, id: &str) -> Option<&dyn System> {
        self.all().find(|s| s.id() == id)
    }

    /// The system that owns sessions of `kind`.
    pub fn by_kind(&self, kind: &str) -> Option<&dyn System> {
        self.all().find(|s| s.session_kinds().contains(&kind))
    }

    /// The system whose slash-command root is `root`.
    pub fn by_root(&self, root: &str) -> Option<&dyn System> {
        self.all().find(|s| s.command_root() == Some(root))
    }

    /// The playable system a player means by `text`: its id, name, command
    /// root or an alias, in any case.
    pub fn parse(&self, text: &str) -> Option<&dyn System> {
        let t = fold(text);
        if t.is_empty() {
            return None;
        }
        self.playable().find(|s| {
            fold(s.id()) == t
                || fold(s.name()) == t
                || s.command_root().is_some_and(|r| fold(r) == t)
                || s.aliases().iter().any(|a| fold(a) == t)
        })
    }

    /// The display name of a system id (the id itself when unknown).
    pub fn display<'a>(&'a self, id: &'a str) -> &'a str {
        self.get(id).map_or(id, |s| s.name())
    }

    /// What system `id` calls the game master ([`System::gm`];
    /// [`GENERIC_GM`] when unknown).
    pub fn gm(&self, id: &str) -> &'static str {
        self.get(id).map_or(GENERIC_GM, |s| s.gm())
    }

    /// What the system owning session kind `kind` calls the game master.
    pub fn gm_of_kind(&self, kind: &str) -> String {
        self.by_kind(kind)
            .map_or(GENERIC_GM, |s| s.gm())
            .to_string()
    }

    /// The system whose house rules include the setting `name`.
    pub fn owner_of_setting(&self, name: &str) -> Option<&dyn System> {
        let n = name.trim().to_ascii_lowercase();
        self.all().find(|s| {
            s.house_rules()
                .is_some_and(|c| c.names().contains(&n.as_str()))
        })
    }

    /// Every help topic, with the system it belongs to, in menu order.
    pub fn help_topics(&self) -> impl Iterator<Item = (&dyn System, &'static HelpTopic)> {
        self.all()
            .flat_map(|s| s.help().iter().map(move |t| (s, t)))
    }

    /// Routes a checked click to the system that owns the session.
    pub async fn click(
        &self,
        app: &super::App,
        tx: Act,
        session: Session,
        click: &Click<'_>,
    ) -> AppResult {
        let system = self
            .by_kind(&session.kind)
            .ok_or_else(|| no_owner(&session))?;
        system.click(app, tx, session, click).await
    }

    /// Draws a session's message as it stands; buttons are disabled unless
    /// the session is open.
    pub async fn render(
        &self,
        app: &super::App,
        session: &Session,
        caller: &Caller,
    ) -> Result<View, AppError> {
        let system = self
            .by_kind(&session.kind)
            .ok_or_else(|| no_owner(session))?;
        let mut view = system.render(app, session, caller).await?;
        view.shows = Some(session.id);
        Ok(if session.status == Status::Open {
            view
        } else {
            view.disable_all()
        })
    }
}

fn no_owner(session: &Session) -> AppError {
    AppError::Internal(format!(
        "no system owns sessions of kind `{}`",
        session.kind
    ))
}
