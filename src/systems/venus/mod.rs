//! The Venus Engine at the table, both editions: sheets, FC-called and
//! player-started checks and tasks with aid, KISS re-rolls, Ego and (in
//! edition 1) beat spending, all on buttons and select menus.
//!
//! Application logic only (no serenity); `commands` holds the thin poise
//! commands. Sessions are of kind [`KIND`]; their state ([`state::VeState`])
//! is a check, a task or a deletion prompt, stored as JSON so a roll
//! survives a restart. Every command and click is one action of the
//! action pipeline ([`crate::app::pipeline`]): it loads the session and
//! the sheets, applies the rules core ([`crate::rules::venus`]) and hands
//! back an outcome (the session, the changed sheets, its typed log record
//! and the answer), which the pipeline saves, logs and commits at once.
//!
//! Module map:
//! - [`context`]: the Venus Engine as a game of the pipeline (its turn and
//!   outcome); [`record`]: its typed log records, read back by [`history`].
//! - [`state`]: what a session keeps.
//! - [`buttons`]: the typed buttons of a check and of a task (shared by
//!   the views that draw them and the flows that handle them).
//! - [`party`]: loading and saving the sheets a roll touches.
//! - [`sheets`], [`sheet_view`]: sheet commands and the sheet embed.
//! - [`admin`]: settings, edition, Lots and Ego grants, play sessions.
//! - [`ally`]: the FC's per-ally rank override and magic flag on a task.
//! - [`calls`]: starting checks and tasks (players, FC, NPCs), adjusting
//!   them before the roll, and finding "the roll in progress here".
//! - [`check`], [`check_view`]: the check flow (one file per button or
//!   small group under `check/`) and its embed.
//! - [`task`], [`task_view`]: the task flow (likewise under `task/`) and
//!   its embed.
//!
//! Dependencies point from the flows to the views: a view imports only
//! `state`, `buttons`, `format` and other views.
//! - [`spotlight`], [`spotlight_view`], [`spotlight_buttons`]: the
//!   spotlight tracker (turns, rounds and scenes; its own session kind).
//! - [`changes`], [`format`]: text helpers.
//! - [`help`]: its `/help` topics (one per edition).
//! - [`commands`]: the `/ve` slash commands.

pub mod admin;
pub mod ally;
pub mod buttons;
pub mod calls;
pub mod changes;
pub mod check;
pub mod check_view;
pub mod commands;
pub mod context;
pub mod format;
pub mod governed;
pub mod help;
pub mod history;
pub mod odds;
pub mod party;
pub mod record;
pub mod sheet_view;
pub mod sheets;
pub mod spotlight;
pub mod spotlight_buttons;
pub mod spotlight_view;
pub mod state;
pub mod task;
pub mod task_view;

use crate::app::component::Click;
use crate::app::registry::{Governed, HelpTopic};
use crate::app::Act;
use crate::app::{sessions, settings, App, AppError, AppResult, Caller, View};
use crate::rules::venus::{VenusSettings, VenusSheet};
use crate::rules::RuleError;
use crate::storage::characters::Character;
use crate::storage::log::LogEntry;
use crate::storage::sessions::Status;
use crate::storage::{sessions::Session, Tx};
use crate::systems::game::{Feature, Game};
use crate::systems::platform::odds::Odds;
use crate::systems::Command;
use state::VeState;

pub use context::Venus;

/// The session kind (custom_id prefix) of every Venus session.
pub const KIND: &str = "ve";
/// The system name in the `characters` table, settings scope and log.
pub const SYSTEM: &str = "venus";

/// What the rules call the game master: the FC (the seeds' game master).
pub const GM: &str = "FC";
/// How to get a character, for error messages.
pub const HINT: &str = "create one with `/ve sheet create`.";

/// The Venus house rules where `caller` acts: a live Venus game's own in
/// its channels (issue 32), else the server's ([`settings::scoped_here`]).
pub async fn venus_here(tx: &mut Tx, caller: &Caller) -> Result<VenusSettings, AppError> {
    settings::scoped_here(tx, caller, SYSTEM).await
}

/// A rules refusal in the table's words: the Venus GM is called the FC here.
pub fn fc_words(e: crate::rules::RuleError) -> AppError {
    AppError::user(
        e.message
            .replace("the GM's", "the FC's")
            .replace("the GM", "the FC"),
    )
}

/// The Venus Engine as a game at the table: its contract with the
/// registry (its pipeline [`crate::app::pipeline::Scope`] is in
/// [`context`]).
impl Feature for Venus {
    const ID: &'static str = SYSTEM;
    const NAME: &'static str = "Venus Engine";
    const ALIASES: &'static [&'static str] = &["ve", "venus engine", "ve1", "ve2"];
    const ROOT: Option<&'static str> = Some("ve");
    const KINDS: &'static [&'static str] = &[KIND, spotlight::KIND];
    const HELP: &'static [HelpTopic] = help::TOPICS;
    const COMMANDS: fn() -> Vec<Command> = commands::all;
    const ODDS: Option<fn() -> Odds> = Some(odds::odds);
    const HISTORY_LINE: fn(&LogEntry) -> Option<String> = history::line;
    type Game = Self;

    /// Routes a checked click to the check, task or deletion flow.
    async fn click(app: &App, tx: Act, session: Session, click: &Click<'_>) -> AppResult {
        if session.kind == spotlight::KIND {
            return spotlight::click(app, tx, session, click).await;
        }
        match sessions::load::<VeState>(&session)? {
            VeState::Check(c) => check::click(app, tx, session, *c, click).await,
            VeState::Task(t) => task::click(app, tx, session, *t, click).await,
            VeState::Delete(d) => sheets::delete_click(tx, session, d, click).await,
        }
    }

    /// The message of a Venus session as it stands (disabled or no buttons
    /// once it is no longer open).
    async fn render(app: &App, session: &Session, _caller: &Caller) -> Result<View, AppError> {
        if session.kind == spotlight::KIND {
            return spotlight::render(session);
        }
        let st = sessions::load::<VeState>(session)?;
        let mut tx = app.db.read().await?;
        let number = crate::app::secret::number(&mut tx, session).await?;
        Ok(view_of(
            session.id,
            number,
            session.version,
            session.status,
            &st,
        ))
    }
}

/// The game side of Venus: its game master, governed changes and sheets.
impl Game for Venus {
    const GM: &'static str = GM;
    const GOVERNED: &'static [Governed] = governed::LIST;
    const RENAMED: fn(&str, &str) -> Result<String, AppError> = sheets::renamed;
    type Change = governed::Edit;

    fn checked_sheet(
        mut sheet: VenusSheet,
        name: &str,
        settings: &VenusSettings,
    ) -> Result<VenusSheet, RuleError> {
        // The name travels in the document's envelope; the sheet keeps it too.
        sheet.name = name.to_string();
        sheet.validate(settings)?;
        Ok(sheet)
    }

    /// The card `/ve sheet show` posts: the sheet under the house rules
    /// where it is shown (a game's own in its channels).
    async fn sheet_card(act: &mut Act, row: &Character) -> Result<View, AppError> {
        let caller = act.caller().clone();
        let set = venus_here(act, &caller).await?;
        let sheet: VenusSheet = serde_json::from_str(&row.sheet)?;
        Ok(View::embed(sheet_view::embed(
            &row.name,
            row.owner_id,
            row.active,
            &sheet,
            &set,
        )))
    }
}

/// The message of a session's state at `version` with `status`; `number`
/// is the roll's as its readers see it ([`crate::app::secret::number`]).
pub fn view_of(id: i64, number: i64, version: i64, status: Status, st: &VeState) -> View {
    match st {
        VeState::Check(c) => check_view::view(id, number, version, status, c),
        VeState::Task(t) => task_view::view(id, number, version, status, t),
        VeState::Delete(d) => sheets::delete_view(id, version, status, d),
    }
}

#[cfg(test)]
mod tests {
    /// The `super::…` modules a source file names (in paths and in grouped
    /// `use super::{…}` imports).
    fn supers(src: &str) -> Vec<String> {
        let mut out = Vec::new();
        for (i, _) in src.match_indices("super::") {
            let rest = &src[i + "super::".len()..];
            let names: Vec<&str> = match rest.strip_prefix('{') {
                Some(group) => group
                    .split('}')
                    .next()
                    .unwrap_or("")
                    .split(',')
                    .map(str::trim)
                    .collect(),
                None => vec![rest],
            };
            for n in names {
                let word: String = n
                    .chars()
                    .take_while(|c| c.is_ascii_alphanumeric() || *c == '_')
                    .collect();
                if !word.is_empty() {
                    out.push(word);
                }
            }
        }
        out
    }

    /// Views never import the flows that handle clicks: the dependency
    /// points from the flows to the views (issue 12, "Layers").
    #[test]
    fn views_import_no_action_module() {
        let flows = [
            "task",
            "check",
            "calls",
            "admin",
            "sheets",
            "party",
            "commands",
            "spotlight",
        ];
        for (file, src) in [
            ("task_view.rs", include_str!("task_view.rs")),
            ("check_view.rs", include_str!("check_view.rs")),
            ("buttons.rs", include_str!("buttons.rs")),
            ("state.rs", include_str!("state.rs")),
            ("format.rs", include_str!("format.rs")),
            ("spotlight_view.rs", include_str!("spotlight_view.rs")),
            ("spotlight_buttons.rs", include_str!("spotlight_buttons.rs")),
        ] {
            for m in supers(src) {
                assert!(!flows.contains(&m.as_str()), "{file} imports super::{m}");
            }
            for m in flows {
                assert!(
                    !src.contains(&format!("systems::venus::{m}")),
                    "{file} imports systems::venus::{m}"
                );
            }
        }
    }

    #[test]
    fn the_import_scan_sees_grouped_and_plain_paths() {
        let found = supers("use super::{task::x, format};\nlet y = super::calls::f();");
        assert_eq!(found, ["task", "format", "calls"]);
    }
}
