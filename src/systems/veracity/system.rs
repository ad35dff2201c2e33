//! How Veracity registers with the application layer: its names, session
//! kinds, house rules, help and entry points ([`crate::app::registry`]).

use crate::app::component::Click;
use crate::app::registry::{BoxFuture, Catalogue, HelpTopic, Rules, System};
use crate::app::Act;
use crate::app::{App, AppError, AppResult, Caller, View};
use crate::storage::characters::Character;
use crate::storage::sessions::Session;

/// Veracity as a registered system.
pub struct VeracitySystem;

impl System for VeracitySystem {
    fn id(&self) -> &'static str {
        "veracity"
    }

    fn gm(&self) -> &'static str {
        super::GM
    }

    fn name(&self) -> &'static str {
        "Veracity"
    }

    fn aliases(&self) -> &'static [&'static str] {
        &["vr"]
    }

    fn command_root(&self) -> Option<&'static str> {
        Some("vr")
    }

    fn session_kinds(&self) -> &'static [&'static str] {
        &[super::KIND, super::combat::KIND]
    }

    fn house_rules(&self) -> Option<&'static dyn Catalogue> {
        static RULES: Rules<crate::rules::veracity::VeracitySettings> = Rules::new();
        Some(&RULES)
    }

    fn help(&self) -> &'static [HelpTopic] {
        &[
    HelpTopic {
        label: "Veracity",
        title: "Veracity",
        odds: &["veracity-save"],
        summary: &[
                    ("Inventories", "Two inventories of up to 18 numbered slots: **Light** holds Secrets, Ruses and Stress; **Flesh** holds Evidence, Means and Wounds. Slots unlock in order, and a new item goes into the lowest empty unlocked slot."),
                    ("Saves", "Roll d20 + modifiers (a positive modifier makes it harder; a fitting tool is −5). Mental efforts read Light, physical ones Flesh; the defender always saves. A total of 0 or less succeeds, 19 or more fails; otherwise look at slot number *total*: it succeeds only if that slot is unlocked and empty. With no modifier, that is (unlocked − filled) in 20."),
                    ("Facets and Stress", "A Facet (d4-d12) rolled when someone acts on it shifts the save in its owner's favour; acting against it gains that die in Stress. Stress fills the lowest free Light slots and any extra is discarded; with no free slot you **Break**: the first Break stops levelling, any later one is a heart attack (d20 Wounds). All Stress then clears."),
                    ("Combat", "`/vr combat start` opens a tracker: the leader's Light save sets which side acts first; each turn a combatant moves 20 ft and spends AP (its Flesh slots: attack 4, fall/stand 2); the surprise turn's damage bypasses HP; flee with a Flesh save."),
                    ("Wounds and levelling", "Damage lowers HP, or becomes Wounds when the target is at 0 HP, immobilised, unsuspecting or surprised. You die when every unlocked Flesh slot holds a Wound. Shocking an NPC with revealed Secrets unlocks one more slot."),
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
        Box::pin(super::session::click(app, tx, session, click))
    }

    fn render<'a>(
        &'a self,
        app: &'a App,
        session: &'a Session,
        caller: &'a Caller,
    ) -> BoxFuture<'a, Result<View, AppError>> {
        Box::pin(super::session::render_session(app, session, caller))
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
        Box::pin(super::sheets::card(act, character))
    }
}

/// The registration: the system and its slash commands.
pub fn entry() -> crate::systems::Entry {
    crate::systems::Entry {
        system: Some(std::sync::Arc::new(VeracitySystem)),
        commands: super::commands::all,
        finish: None,
        odds: Some(super::odds::odds()),
    }
}
