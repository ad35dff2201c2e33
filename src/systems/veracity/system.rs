//! How Veracity registers with the application layer: its names, session
//! kinds, house rules, help and entry points ([`crate::app::registry`]).

use std::future::Future;

use crate::app::component::Click;
use crate::app::registry::{Governed, HelpTopic};
use crate::app::{Act, App, AppError, AppResult, Caller, View};
use crate::storage::characters::Character;
use crate::storage::log::LogEntry;
use crate::storage::sessions::Session;
use crate::systems::game::Game;

pub use super::context::Veracity;

impl Game for Veracity {
    const ID: &'static str = "veracity";
    const NAME: &'static str = "Veracity";
    const ALIASES: &'static [&'static str] = &["vr"];
    const GM: &'static str = super::GM;
    const ROOT: &'static str = "vr";
    const KINDS: &'static [&'static str] = &[super::KIND, super::combat::KIND];
    const GOVERNED: &'static [Governed] = super::governed::LIST;
    const HELP: &'static [HelpTopic] = &[
    HelpTopic {
        label: "Veracity",
        title: "Veracity",
        odds: &["veracity-save"],
        start: &[
            ("/vr sheet create name:Ada light:6 flesh:6 facet:Cruel", "make your character (Light + Flesh = 12)"),
            ("/vr sheet show", "your character sheet"),
            ("/vr save inventory:light", "a save: the d20 against your filled slots"),
            ("/vr damage amount:2", "the referee deals damage: HP first, then Wounds"),
            ("/help", "every system, and the table's commands"),
        ],
        summary: &[
                    ("Inventories", "Two inventories of up to 18 numbered slots: **Light** holds Secrets, Ruses and Stress; **Flesh** holds Evidence, Means and Wounds. Slots unlock in order, and a new item goes into the lowest empty unlocked slot."),
                    ("Saves", "Roll d20 + modifiers (a positive modifier makes it harder; a fitting tool is −5). Mental efforts read Light, physical ones Flesh; the defender always saves. A total of 0 or less succeeds, 19 or more fails; otherwise look at slot number *total*: it succeeds only if that slot is unlocked and empty. With no modifier, that is (unlocked − filled) in 20."),
                    ("Facets and Stress", "A Facet (d4-d12) rolled when someone acts on it shifts the save in its owner's favour; acting against it gains that die in Stress. Stress fills the lowest free Light slots and any extra is discarded; with no free slot you **Break**: the first Break stops levelling, any later one is a heart attack (d20 Wounds). All Stress then clears."),
                    ("Combat", "`/vr-gm combat start` opens a tracker: the leader's Light save sets which side acts first; each turn a combatant moves 20 ft and spends AP (its Flesh slots: attack 4, fall/stand 2); the surprise turn's damage bypasses HP; flee with a Flesh save."),
                    ("Wounds and levelling", "Damage lowers HP, or becomes Wounds when the target is at 0 HP, immobilised, unsuspecting or surprised. You die when every unlocked Flesh slot holds a Wound. Shocking an NPC with revealed Secrets unlocks one more slot."),
        ],
    },
        ];

    type Settings = crate::rules::veracity::VeracitySettings;
    type Change = super::governed::Edit;
    type Sheet = crate::rules::veracity::Sheet;

    /// Version 1: items had no identities (`id`); version 2 (issue 14)
    /// numbers them. A version-1 sheet is brought up by the sheet's own
    /// loader, which numbers the items of sheets stored before identities
    /// (`Sheet::number_items`), so its JSON is read as it is.
    const SHEET_VERSION: u32 = 2;

    fn checked_sheet(
        sheet: Self::Sheet,
        _name: &str,
        _settings: &Self::Settings,
    ) -> Result<Self::Sheet, crate::rules::RuleError> {
        // Every check ran when the sheet was read (`Sheet`'s validating
        // loader, the one stored sheets go through).
        Ok(sheet)
    }

    fn click<'a>(
        app: &'a App,
        tx: Act,
        session: Session,
        click: &'a Click<'a>,
    ) -> impl Future<Output = AppResult> + Send + 'a {
        super::session::click(app, tx, session, click)
    }

    fn render<'a>(
        app: &'a App,
        session: &'a Session,
        caller: &'a Caller,
    ) -> impl Future<Output = Result<View, AppError>> + Send + 'a {
        super::session::render_session(app, session, caller)
    }

    fn sheet_card<'a>(
        act: &'a mut Act,
        character: &'a Character,
    ) -> impl Future<Output = Result<View, AppError>> + Send + 'a {
        super::sheets::card(act, character)
    }

    fn history_line(entry: &LogEntry) -> Option<String> {
        super::history::line(entry)
    }
}

/// The registration: the game, its slash commands and its odds questions.
pub fn entry() -> crate::systems::Entry {
    crate::systems::game::entry::<Veracity>(super::commands::all, Some(super::odds::odds()))
}
