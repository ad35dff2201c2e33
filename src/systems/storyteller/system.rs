//! How Storyteller registers with the application layer: its names, session
//! kinds, house rules, help and entry points ([`crate::app::registry`]).

use crate::app::component::Click;
use crate::app::registry::{BoxFuture, Catalogue, HelpTopic, Rules, System};
use crate::app::Act;
use crate::app::{App, AppError, AppResult, Caller, View};
use crate::storage::characters::Character;
use crate::storage::sessions::Session;

/// Storyteller as a registered system.
pub struct StorytellerSystem;

impl System for StorytellerSystem {
    fn id(&self) -> &'static str {
        "storyteller"
    }

    fn gm(&self) -> &'static str {
        super::GM
    }

    fn name(&self) -> &'static str {
        "Storyteller"
    }

    fn aliases(&self) -> &'static [&'static str] {
        &["st", "storyteller d10"]
    }

    fn command_root(&self) -> Option<&'static str> {
        Some("st")
    }

    fn session_kinds(&self) -> &'static [&'static str] {
        &[super::KIND, super::SHEET_KIND]
    }

    fn house_rules(&self) -> Option<&'static dyn Catalogue> {
        static RULES: Rules<crate::rules::storyteller::StorytellerSettings> = Rules::new();
        Some(&RULES)
    }

    fn help(&self) -> &'static [HelpTopic] {
        &[
    HelpTopic {
        label: "Storyteller",
        title: "Storyteller d10 rules",
        odds: &["st"],
        summary: &[
                    ("The pool", "An attribute + an ability, or one or two attributes (never more than two traits), in d10s, against a difficulty 2-10 (default 6). An ability alone only if the storyteller turns on the house rule `st_ability_alone`. An ability at 0: Talents roll the attribute alone, Skills do so at +1 difficulty, Knowledges need the storyteller's leave."),
                    ("Reading the dice", "Each die at or above the difficulty is a success; each 1 is a botch. A threshold first removes that many successes; each botch then cancels one. Net above 0 succeeds with that many successes, exactly 0 is a simple failure, below 0 is a botch."),
                    ("Specialties", "At most one specialty per dot of the ability. For each specialty in use, every 10 adds a bonus die: bonus dice count successes, their 1s are ignored, and their 10s add more."),
                    ("Willpower", "A willpower roll uses current willpower alone; its botches cost willpower. After a willpower roll that did not botch, you may spend 1 (keeping at least 1) to make it an automatic success with as many successes as willpower left, offered when that beats the roll. Once per turn, spend 1 to ignore wound penalties. At 0 you are incapacitated."),
        ],
    },
        ]
    }

    fn click<'a>(
        &'a self,
        app: &'a App,
        tx: Act,
        session: Session,
        click: &'a Click<'a>,
    ) -> BoxFuture<'a, AppResult> {
        Box::pin(super::click(app, tx, session, click))
    }

    fn render<'a>(
        &'a self,
        app: &'a App,
        session: &'a Session,
        caller: &'a Caller,
    ) -> BoxFuture<'a, Result<View, AppError>> {
        Box::pin(super::render(app, session, caller))
    }

    fn apply_change<'a>(
        &'a self,
        app: &'a App,
        caller: &'a Caller,
        change: &'a serde_json::Value,
    ) -> BoxFuture<'a, AppResult> {
        Box::pin(crate::systems::table::approval::apply_stored::<
            super::governed::Edit,
        >(app, caller, change))
    }

    fn history_line(&self, entry: &crate::storage::log::LogEntry) -> Option<String> {
        super::history::line(entry)
    }

    fn governed(&self) -> &'static [crate::app::registry::Governed] {
        super::governed::LIST
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
        Box::pin(super::sheets::card_of(act, character))
    }
}

/// The registration: the system and its slash commands.
pub fn entry() -> crate::systems::Entry {
    crate::systems::Entry {
        system: Some(std::sync::Arc::new(StorytellerSystem)),
        commands: super::commands::all,
        finish: None,
        odds: Some(super::odds::odds()),
    }
}
