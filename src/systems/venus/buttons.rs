//! Venus's buttons and menus as typed enums, one for a check's message and
//! one for a task's, each encoded into and parsed from a custom_id side by
//! side ([`crate::app::component::Action`]).
//!
//! Shared by the views (which draw the buttons) and the click handlers
//! (which parse them): the handlers depend on this module and the views,
//! never the other way round. The action words are in every message
//! already posted: never rename one (`tests/e2e/upgrade.rs` clicks old
//! buttons), only the variants.

use std::marker::PhantomData;

use super::format::cut;
use super::KIND;
use crate::app::component::{from_base36, to_base36, Action};
use crate::app::view::{Button, Row, Select, SelectOption, Style};
use crate::kit::words::{by_word, word_of};
use crate::rules::venus::check::FactorKind;
use crate::rules::venus::task::Purchase;

/// The custom_id of `button` on Venus session `id` at `version`.
pub fn custom_id(button: &impl Action, id: i64, version: i64) -> String {
    button.button(KIND, id, version).encode()
}

/// A roll's buttons that every open roll offers the game master: **Void**
/// and **Force close**.
pub trait RollButton: Action {
    /// `void` (FC).
    const VOID: Self;
    /// `force` (FC).
    const FORCE: Self;
}

/// Draws the buttons and menus (of kind `B`) of roll `id` at `version`.
pub struct Draw<B> {
    id: i64,
    version: i64,
    kind: PhantomData<B>,
}

impl<B: RollButton> Draw<B> {
    /// The drawer of roll `id` at `version`.
    pub fn new(id: i64, version: i64) -> Self {
        Self {
            id,
            version,
            kind: PhantomData,
        }
    }

    fn cid(&self, button: B) -> String {
        custom_id(&button, self.id, self.version)
    }

    /// A button.
    pub fn b(&self, button: B, label: &str, style: Style) -> Button {
        Button::new(self.cid(button), label, style)
    }

    /// A button whose label names a member or a consequence, cut to fit.
    pub fn named(&self, button: B, label: &str, style: Style) -> Button {
        Button::new(self.cid(button), cut(label, 80), style)
    }

    /// A select menu of at most `max` picks.
    pub fn select(
        &self,
        button: B,
        placeholder: &str,
        options: Vec<SelectOption>,
        max: usize,
    ) -> Row {
        let max = max.clamp(1, options.len().max(1)) as u8;
        Row::Select(Select {
            custom_id: self.cid(button),
            placeholder: placeholder.into(),
            options,
            min: 1,
            max,
        })
    }

    /// The game master's row: `r` (their own tools) then **Void** and
    /// **Force close**, every one marked for the game master's panel.
    pub fn gm_row(&self, r: Vec<Button>) -> Row {
        let mut r: Vec<Button> = r.into_iter().map(Button::gm_only).collect();
        r.push(self.b(B::VOID, "Void", Style::Danger).gm_only());
        r.push(self.b(B::FORCE, "Force close", Style::Danger).gm_only());
        Row::Buttons(r)
    }
}

impl RollButton for CheckButton {
    const VOID: Self = CheckButton::Void;
    const FORCE: Self = CheckButton::Force;
}

impl RollButton for TaskButton {
    const VOID: Self = TaskButton::Void;
    const FORCE: Self = TaskButton::Force;
}

/// A button or menu of a check's message.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum CheckButton {
    /// `roll`: throw the d20.
    Roll,
    /// `cancel`: cancel the check (before the roll, or while short).
    Cancel,
    /// `void` (FC): void the check.
    Void,
    /// `force` (FC): force-close the check.
    Force,
    /// `bonus`: the bonus-factor menu (the picked values come with the click).
    Bonus,
    /// `named:<json>`: a bonus factor named with `/ve bonus`.
    Named {
        /// The factor's name.
        name: String,
        /// Its kind.
        kind: FactorKind,
        /// Its worth.
        value: u32,
    },
    /// `clear`: remove every bonus factor claimed.
    Clear,
    /// `approve` (FC): approve the claimed bonus factors.
    Approve,
    /// `resolve`: roll the bonus dice (edition 1) or add the bonus (edition 2).
    Resolve,
    /// `fail`: accept the failure.
    Fail,
}

/// The check's buttons that carry no argument, by action word.
const CHECK_WORDS: [(&str, CheckButton); 9] = [
    ("roll", CheckButton::Roll),
    ("cancel", CheckButton::Cancel),
    ("void", CheckButton::Void),
    ("force", CheckButton::Force),
    ("bonus", CheckButton::Bonus),
    ("clear", CheckButton::Clear),
    ("approve", CheckButton::Approve),
    ("resolve", CheckButton::Resolve),
    ("fail", CheckButton::Fail),
];

impl Action for CheckButton {
    fn encode(&self) -> (&'static str, Option<String>) {
        match self {
            Self::Named { name, kind, value } => {
                ("named", serde_json::to_string(&(name, kind, value)).ok())
            }
            plain => (word_of(&CHECK_WORDS, plain), None),
        }
    }

    fn parse(action: &str, arg: Option<&str>) -> Option<Self> {
        match action {
            "named" => {
                let (name, kind, value) = serde_json::from_str(arg?).ok()?;
                Some(Self::Named { name, kind, value })
            }
            word => by_word(&CHECK_WORDS, word),
        }
    }
}

/// How a KISS is paid for (the four "KISS with …" buttons).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Payment {
    /// `klot`: a Lot per die.
    Lot,
    /// `kstunt`: a stunt.
    Stunt,
    /// `kspec`: the declarer's next unused specialties.
    Specialty,
    /// `kins`: the declarer's next unused insights.
    Insight,
}

/// A consequence bought with a button: the primary, S1-S4 or T1-T4
/// (special consequences are bought from a menu instead).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Consequence {
    /// `p`: the primary consequence (success).
    Primary,
    /// `s1`..`s4`.
    Secondary(u8),
    /// `t1`..`t4`.
    Tertiary(u8),
}

impl Consequence {
    /// The rules core's purchase.
    pub fn purchase(self) -> Purchase {
        match self {
            Self::Primary => Purchase::Primary,
            Self::Secondary(n) => Purchase::Secondary(n),
            Self::Tertiary(n) => Purchase::Tertiary(n),
        }
    }

    /// Its code in a custom_id: `p`, `s1`..`s4`, `t1`..`t4`.
    pub fn code(self) -> String {
        match self {
            Self::Primary => "p".into(),
            Self::Secondary(n) => format!("s{n}"),
            Self::Tertiary(n) => format!("t{n}"),
        }
    }

    /// Reads a code back; `None` for anything else.
    pub fn of_code(code: &str) -> Option<Self> {
        let n = |s: &str| s.parse::<u8>().ok().filter(|n| (1..=4).contains(n));
        match code {
            "p" => Some(Self::Primary),
            c if c.starts_with('s') => n(&c[1..]).map(Self::Secondary),
            c if c.starts_with('t') => n(&c[1..]).map(Self::Tertiary),
            _ => None,
        }
    }
}

/// A button or menu of a task's message.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum TaskButton {
    /// `offer`: offer aid (with the only eligible job, or ask which).
    Offer,
    /// `aidjob`: the "Aid with a job" menu.
    AidJob,
    /// `withdraw`: withdraw one's aid offer.
    Withdraw,
    /// `accept:<user>`: the roller accepts that member's aid.
    Accept(i64),
    /// `refuse:<user>`: the roller refuses that member's aid.
    Refuse(i64),
    /// `usejob`: the roller's "Use job" menu.
    UseJob,
    /// `roll`: throw the dice.
    Roll,
    /// `pick`: the "KISS dice" menu (or one of its page options).
    Pick,
    /// `klot`, `kstunt`, `kspec`, `kins`: pay for the picked dice.
    Kiss(Payment),
    /// `kpay`: the "Pay with a specialty or insight" menu: the picked
    /// attribute or insight pays for the clicker's first picked die.
    PayWith,
    /// `kclear`: withdraw one's KISSes.
    KissClear,
    /// `consent`: an ally allows (or no longer allows) KISSes on their die.
    Consent,
    /// `egore`: declare (or withdraw) the edition-1 Ego re-roll.
    EgoReroll,
    /// `ego6`: spend Ego so every 6 strikes two beats.
    EgoSixes,
    /// `kroll`: re-roll the KISSed dice (or end the round without a KISS).
    KissRoll,
    /// `kok` (FC): approve the KISSes awaiting approval.
    KissApprove,
    /// `kveto` (FC): veto the last KISS.
    KissVeto,
    /// `buy:<code>`: buy a consequence.
    Buy(Consequence),
    /// `buyc`: the "Special consequence" menu.
    BuyCustom,
    /// `undo`: refund the last purchase.
    Undo,
    /// `finish`: end the spending.
    Finish,
    /// `lotjob`: the "Finish: the Lot over 10 becomes exp in…" menu: end the
    /// spending, the T3 Lot's exp going to the job picked.
    FinishWith,
    /// `subvert:<n>` (FC): turn secondary consequence `n` against the roller.
    Subvert(u8),
    /// `nosub` (FC): let every consequence stand.
    NoSubversion,
    /// `egoyes`: spend Ego (edition 2, still short).
    EgoYes,
    /// `egono`: keep Ego.
    EgoNo,
    /// `void` (FC): void the task.
    Void,
    /// `force` (FC): force-close the task.
    Force,
    /// `kiss`: the "KISS" menu, one step per KISS: each value picked names
    /// a die and how it is paid (`<die>:lot`, `<die>:stunt`,
    /// `<die>:sp:<attribute>`, `<die>:in:<insight>`).
    KissPairs,
    /// `buys`: the "Buy consequences" menu: S1-S4, T1-T4 and the special
    /// consequences (`s1`..`t4`, `c<n>`), bought together.
    BuyMany,
}

/// The task's buttons that carry no argument, by action word (read both
/// ways: drawing a button and parsing a click).
const TASK_WORDS: [(&str, TaskButton); 29] = [
    ("offer", TaskButton::Offer),
    ("aidjob", TaskButton::AidJob),
    ("withdraw", TaskButton::Withdraw),
    ("usejob", TaskButton::UseJob),
    ("roll", TaskButton::Roll),
    ("pick", TaskButton::Pick),
    ("klot", TaskButton::Kiss(Payment::Lot)),
    ("kstunt", TaskButton::Kiss(Payment::Stunt)),
    ("kspec", TaskButton::Kiss(Payment::Specialty)),
    ("kins", TaskButton::Kiss(Payment::Insight)),
    ("kpay", TaskButton::PayWith),
    ("kclear", TaskButton::KissClear),
    ("consent", TaskButton::Consent),
    ("egore", TaskButton::EgoReroll),
    ("ego6", TaskButton::EgoSixes),
    ("kroll", TaskButton::KissRoll),
    ("kok", TaskButton::KissApprove),
    ("kveto", TaskButton::KissVeto),
    ("buyc", TaskButton::BuyCustom),
    ("undo", TaskButton::Undo),
    ("finish", TaskButton::Finish),
    ("lotjob", TaskButton::FinishWith),
    ("nosub", TaskButton::NoSubversion),
    ("egoyes", TaskButton::EgoYes),
    ("egono", TaskButton::EgoNo),
    ("void", TaskButton::Void),
    ("force", TaskButton::Force),
    ("kiss", TaskButton::KissPairs),
    ("buys", TaskButton::BuyMany),
];

impl Action for TaskButton {
    fn encode(&self) -> (&'static str, Option<String>) {
        match self {
            Self::Accept(user) => ("accept", Some(to_base36(*user))),
            Self::Refuse(user) => ("refuse", Some(to_base36(*user))),
            Self::Buy(c) => ("buy", Some(c.code())),
            Self::Subvert(n) => ("subvert", Some(n.to_string())),
            plain => (word_of(&TASK_WORDS, plain), None),
        }
    }

    fn parse(action: &str, arg: Option<&str>) -> Option<Self> {
        let user = || arg.and_then(from_base36);
        match action {
            "accept" => Some(Self::Accept(user()?)),
            "refuse" => Some(Self::Refuse(user()?)),
            "buy" => Some(Self::Buy(Consequence::of_code(arg?)?)),
            "subvert" => Some(Self::Subvert(
                arg?.parse().ok().filter(|n| (1..=4).contains(n))?,
            )),
            word => by_word(&TASK_WORDS, word),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::app::component::ButtonId;

    fn check_buttons() -> Vec<CheckButton> {
        use CheckButton::*;
        vec![
            Roll,
            Cancel,
            Void,
            Force,
            Bonus,
            Named {
                name: "Sharp eyes: on the roof".into(),
                kind: FactorKind::Attribute,
                value: 2,
            },
            Named {
                name: "A Lot".into(),
                kind: FactorKind::Lot,
                value: 1,
            },
            Clear,
            Approve,
            Resolve,
            Fail,
        ]
    }

    fn task_buttons() -> Vec<TaskButton> {
        use TaskButton::*;
        let mut v = vec![
            Offer,
            AidJob,
            Withdraw,
            Accept(0),
            Accept(1_234_567_890_123_456_789),
            Refuse(42),
            UseJob,
            Roll,
            Pick,
            Kiss(Payment::Lot),
            Kiss(Payment::Stunt),
            Kiss(Payment::Specialty),
            Kiss(Payment::Insight),
            PayWith,
            KissClear,
            Consent,
            EgoReroll,
            EgoSixes,
            KissRoll,
            KissApprove,
            KissVeto,
            Buy(Consequence::Primary),
            BuyCustom,
            Undo,
            Finish,
            FinishWith,
            NoSubversion,
            EgoYes,
            EgoNo,
            Void,
            Force,
            KissPairs,
            BuyMany,
        ];
        for n in 1..=4 {
            v.push(Buy(Consequence::Secondary(n)));
            v.push(Buy(Consequence::Tertiary(n)));
            v.push(Subvert(n));
        }
        v
    }

    /// Encoding into a custom_id and parsing it back gives the same
    /// button, for every variant (and every argument a view can draw).
    #[test]
    fn every_button_round_trips_through_its_custom_id() {
        for b in check_buttons() {
            let id = b.button(KIND, 77, 3);
            let back = ButtonId::parse(&id.encode()).expect("a valid custom_id");
            assert_eq!(
                CheckButton::parse(&back.action, back.arg.as_deref()),
                Some(b.clone()),
                "{b:?}"
            );
        }
        for b in task_buttons() {
            let id = b.button(KIND, 77, 3);
            let back = ButtonId::parse(&id.encode()).expect("a valid custom_id");
            assert_eq!(
                TaskButton::parse(&back.action, back.arg.as_deref()),
                Some(b.clone()),
                "{b:?}"
            );
        }
    }

    /// Every action word (and argument form) Venus had before the buttons
    /// were typed still parses to the same button: messages posted by an
    /// older Kismet keep working.
    #[test]
    fn every_older_action_word_still_parses() {
        use TaskButton as T;
        let check: [(&str, Option<&str>, CheckButton); 10] = [
            ("roll", None, CheckButton::Roll),
            ("cancel", None, CheckButton::Cancel),
            ("void", None, CheckButton::Void),
            ("force", None, CheckButton::Force),
            ("bonus", None, CheckButton::Bonus),
            (
                "named",
                Some(r#"["Nimble","attribute",1]"#),
                CheckButton::Named {
                    name: "Nimble".into(),
                    kind: FactorKind::Attribute,
                    value: 1,
                },
            ),
            ("clear", None, CheckButton::Clear),
            ("approve", None, CheckButton::Approve),
            ("resolve", None, CheckButton::Resolve),
            ("fail", None, CheckButton::Fail),
        ];
        for (word, arg, want) in check {
            assert_eq!(CheckButton::parse(word, arg), Some(want), "check `{word}`");
        }
        let task: [(&str, Option<&str>, TaskButton); 37] = [
            ("offer", None, T::Offer),
            ("aidjob", None, T::AidJob),
            ("withdraw", None, T::Withdraw),
            ("accept", Some("2n9c"), T::Accept(123_456)),
            ("refuse", Some("2n9c"), T::Refuse(123_456)),
            ("usejob", None, T::UseJob),
            ("roll", None, T::Roll),
            ("pick", None, T::Pick),
            ("klot", None, T::Kiss(Payment::Lot)),
            ("kstunt", None, T::Kiss(Payment::Stunt)),
            ("kspec", None, T::Kiss(Payment::Specialty)),
            ("kins", None, T::Kiss(Payment::Insight)),
            ("kclear", None, T::KissClear),
            ("consent", None, T::Consent),
            ("egore", None, T::EgoReroll),
            ("ego6", None, T::EgoSixes),
            ("kroll", None, T::KissRoll),
            ("kok", None, T::KissApprove),
            ("kveto", None, T::KissVeto),
            ("buy", Some("p"), T::Buy(Consequence::Primary)),
            ("buy", Some("s1"), T::Buy(Consequence::Secondary(1))),
            ("buy", Some("s2"), T::Buy(Consequence::Secondary(2))),
            ("buy", Some("s4"), T::Buy(Consequence::Secondary(4))),
            ("buy", Some("t1"), T::Buy(Consequence::Tertiary(1))),
            ("buy", Some("t4"), T::Buy(Consequence::Tertiary(4))),
            ("buyc", None, T::BuyCustom),
            ("undo", None, T::Undo),
            ("finish", None, T::Finish),
            ("subvert", Some("1"), T::Subvert(1)),
            ("subvert", Some("2"), T::Subvert(2)),
            ("subvert", Some("3"), T::Subvert(3)),
            ("subvert", Some("4"), T::Subvert(4)),
            ("nosub", None, T::NoSubversion),
            ("egoyes", None, T::EgoYes),
            ("egono", None, T::EgoNo),
            ("void", None, T::Void),
            ("force", None, T::Force),
        ];
        for (word, arg, want) in task {
            assert_eq!(TaskButton::parse(word, arg), Some(want), "task `{word}`");
        }
    }

    #[test]
    fn malformed_arguments_and_unknown_words_are_refused() {
        for (word, arg) in [
            ("buy", None),
            ("buy", Some("s5")),
            ("buy", Some("x")),
            ("buy", Some("c0")),
            ("subvert", Some("0")),
            ("subvert", Some("5")),
            ("subvert", None),
            ("accept", None),
            ("refuse", Some("-1")),
            ("del", None),
            ("reroll", None),
        ] {
            assert_eq!(TaskButton::parse(word, arg), None, "{word} {arg:?}");
        }
        assert_eq!(CheckButton::parse("named", Some("{")), None);
        assert_eq!(CheckButton::parse("named", None), None);
        assert_eq!(CheckButton::parse("offer", None), None);
    }

    #[test]
    fn purchase_codes_round_trip() {
        for c in [
            Consequence::Primary,
            Consequence::Secondary(1),
            Consequence::Secondary(4),
            Consequence::Tertiary(3),
        ] {
            assert_eq!(Consequence::of_code(&c.code()), Some(c));
        }
        assert_eq!(Consequence::of_code("s5"), None);
        assert_eq!(Consequence::of_code("x"), None);
    }
}
