//! How Virtual Veil registers with the application layer: its names, session
//! kinds, house rules, help and entry points ([`crate::app::registry`]).

use std::future::Future;

use crate::app::component::Click;
use crate::app::registry::{Governed, HelpTopic};
use crate::app::{Act, App, AppError, AppResult, Caller, View};
use crate::storage::characters::Character;
use crate::storage::log::LogEntry;
use crate::storage::sessions::Session;
use crate::systems::game::Game;

/// Virtual Veil as a game at the table.
pub struct VirtualVeil;

impl Game for VirtualVeil {
    const ID: &'static str = "ore";
    const NAME: &'static str = "Virtual Veil";
    const ALIASES: &'static [&'static str] = &["vv", "virtualveil", "vv ore", "one roll engine"];
    const GM: &'static str = super::GM;
    const ROOT: &'static str = "vv";
    const KINDS: &'static [&'static str] = &[super::KIND, super::combat::KIND];
    const GOVERNED: &'static [Governed] = super::governed::LIST;
    const HELP: &'static [HelpTopic] = &[
    HelpTopic {
        label: "Virtual Veil",
        title: "Virtual Veil · One-Roll Engine",
        odds: &["ore"],
        start: &[
            ("/vv sheet create name:Ann agility:4 wit:6", "make your character (a stat left out is 0)"),
            ("/vv sheet show", "your character sheet"),
            ("/vv roll stat:Agility", "roll a stat: matching faces make sets"),
            ("/vv-gm combat start", "the Compiler opens a fight: one message runs the round"),
            ("/help", "every system, and the table's commands"),
        ],
        summary: &[
                    ("Sets", "Roll as many d10s as the Called Stat (10 at most by default). Matching faces form sets: the **width** is how many match (dub 2, trip 3, quad 4 …), the **height** is the face. An action needs at least a dub, some need wider; to compare rolls, a set is worth 10 × width + height."),
                    ("Actions", "A basic action uses one set; a minor action spends a single unused die; a special action needs an exact pattern such as 777 or a run 789 as one set, sometimes with one or all of its dice from the cache: record yours with `/vv sheet special` and the roll offers **Special: NAME** when the register holds it; combos and strings use further sets of the same roll. Each die is used once per round. A running COMP keeps cache dice (rolled at boot or loaded from the register) that can join your sets."),
                    ("Modifiers, combos", "A bonus or penalty changes one die: **± Modify a die** on the roll lists each unused die with ±1 to ±3 (\"7 → 8 (+1)\") and what it makes or breaks; faces stop at 1 and 10 unless `vv_face_modifier_bounds` is wrap. Sets used after the first are Combos or Strings; with `vv_allow_split_sets` on, **Split** uses a dub of a wider set and keeps the rest. The COMP's Thread Count caps the different special actions (skills) one roll runs."),
                    ("Combat", "Wit rolls set Outthink, Agility (Precision inside cosmOS) sets Initiative. Each round everyone calls a stat and rolls it in ascending Outthink order, then acts in Initiative order. Damage to Vitality, Confidence or Cyber adds a Fault die; matching Fault dice become an Injury that adds Error Dice to every action."),
                    ("Combat tracker", "The Compiler runs a fight with `/vv-gm combat start`: players `join`, NPCs and mobs are `add`ed, **Begin** rolls Outthink and Initiative, then each round's Call, Resolution (turns, reactions, movement) and End phases run on one message."),
        ],
    },
        ];

    type Settings = crate::rules::ore::OreSettings;
    type Change = super::governed::Edit;
    type Sheet = crate::rules::ore::OreSheet;

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
        super::sheet::card(act, character)
    }

    fn history_line(entry: &LogEntry) -> Option<String> {
        super::history::line(entry)
    }
}

/// The registration: the game, its slash commands and its odds questions.
pub fn entry() -> crate::systems::Entry {
    crate::systems::game::entry::<VirtualVeil>(super::commands::all, Some(super::odds::odds()))
}
