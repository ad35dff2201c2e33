//! How Storyteller registers with the application layer: its names, session
//! kinds, house rules, help and entry points ([`crate::app::registry`]).

use std::future::Future;

use crate::app::component::Click;
use crate::app::registry::{Governed, HelpTopic};
use crate::app::{Act, App, AppError, AppResult, Caller, View};
use crate::storage::characters::Character;
use crate::storage::log::LogEntry;
use crate::storage::sessions::Session;
use crate::systems::game::Game;

pub use super::context::Storyteller;

impl Game for Storyteller {
    const ID: &'static str = "storyteller";
    const NAME: &'static str = "Storyteller";
    const ALIASES: &'static [&'static str] = &["st", "storyteller d10"];
    const GM: &'static str = super::GM;
    const ROOT: &'static str = "st";
    const KINDS: &'static [&'static str] = &[super::KIND, super::SHEET_KIND];
    const GOVERNED: &'static [Governed] = super::governed::LIST;
    const HELP: &'static [HelpTopic] = &[
    HelpTopic {
        label: "Storyteller",
        title: "Storyteller d10 rules",
        odds: &["st"],
        start: &[
            ("/st sheet create name:Ada willpower:5", "make your character, then `/st sheet set` its traits"),
            ("/st sheet show", "your character sheet"),
            ("/st roll traits:\"Wits + Alertness\"", "roll a pool against a difficulty"),
            ("/st sheet wounds", "the storyteller marks wounds and their penalty"),
            ("/help", "every system, and the table's commands"),
        ],
        summary: &[
                    ("The pool", "An attribute + an ability, or one or two attributes (never more than two traits), in d10s, against a difficulty 2-10 (default 6). An ability alone only if the storyteller turns on the house rule `st_ability_alone`. An ability at 0: Talents roll the attribute alone, Skills do so at +1 difficulty, Knowledges need the storyteller's leave."),
                    ("Reading the dice", "Each die at or above the difficulty is a success; each 1 is a botch. A threshold first removes that many successes; each botch then cancels one. Net above 0 succeeds with that many successes, exactly 0 is a simple failure, below 0 is a botch."),
                    ("Specialties", "At most one specialty per dot of the ability. For each specialty in use, every 10 adds a bonus die: bonus dice count successes, their 1s are ignored, and their 10s add more."),
                    ("Willpower", "A willpower roll uses current willpower alone; its botches cost willpower. After a willpower roll that did not botch, you may spend 1 (keeping at least 1) to make it an automatic success with as many successes as willpower left, offered when that beats the roll. Once per turn, spend 1 to ignore wound penalties. At 0 you are incapacitated."),
        ],
    },
        ];

    type Settings = crate::rules::storyteller::StorytellerSettings;
    type Change = super::governed::Edit;
    type Sheet = crate::rules::storyteller::StorytellerSheet;

    fn checked_sheet(
        sheet: Self::Sheet,
        _name: &str,
        _settings: &Self::Settings,
    ) -> Result<Self::Sheet, crate::rules::RuleError> {
        sheet.validate()?;
        Ok(sheet)
    }

    fn click<'a>(
        app: &'a App,
        tx: Act,
        session: Session,
        click: &'a Click<'a>,
    ) -> impl Future<Output = AppResult> + Send + 'a {
        super::click(app, tx, session, click)
    }

    fn render<'a>(
        app: &'a App,
        session: &'a Session,
        caller: &'a Caller,
    ) -> impl Future<Output = Result<View, AppError>> + Send + 'a {
        super::render(app, session, caller)
    }

    fn sheet_card<'a>(
        act: &'a mut Act,
        character: &'a Character,
    ) -> impl Future<Output = Result<View, AppError>> + Send + 'a {
        super::sheets::card_of(act, character)
    }

    fn history_line(entry: &LogEntry) -> Option<String> {
        super::history::line(entry)
    }
}

/// The registration: the game, its slash commands and its odds questions.
pub fn entry() -> crate::systems::Entry {
    crate::systems::game::entry::<Storyteller>(super::commands::all, Some(super::odds::odds()))
}
