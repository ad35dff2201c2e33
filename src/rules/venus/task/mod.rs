//! Venus Engine tasks, both editions, as one state machine (spec §2.4-§2.7,
//! §2.9).
//!
//! Edition 1: `AID_OFFERS → roll → KISS_DECLARATION → re-roll → SPENDING →
//! GM_SUBVERSION → CLOSED`. Edition 2: `AID_OFFERS → roll (+ explosions) →
//! [success → CLOSED] → KISS_DECLARATION → re-roll → [success → CLOSED] →
//! EGO_OFFER → CLOSED`. The GM may void (every Lot and Ego spent in the task
//! is given back, nothing is awarded) or force-close (finish with what is
//! there) at any phase.
//!
//! Sub-modules: [`aid`] (setup, aid offers and the roll), [`kiss`] (the KISS
//! round and Ego), [`spend`] (edition-1 beat spending and subversion),
//! [`close`] (outcome, exp, Lots, level-ups, void and force-close),
//! [`chance`] (the task's odds as it stands, before the roll and after a
//! KISS).

pub mod aid;
pub mod chance;
pub mod close;
pub mod kiss;
pub mod spend;

#[cfg(test)]
mod tests;

use rand::Rng;
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;

use super::check::NamedFactor;
use super::rank::Rank;
use super::settings::{Crits, Edition, VenusSettings};
use super::sheet::{SheetEvent, VenusCtx};
use crate::rules::{Actor, RuleError};

/// Most allies in edition 1 (VE1-T3).
pub const VE1_MAX_ALLIES: usize = 2;
/// Most allies in edition 2 (VE2-T3).
pub const VE2_MAX_ALLIES: usize = 3;
/// Most dice explosions may add to one task (spec §1.7 safety cap).
pub const MAX_GENERATED_DICE: u32 = 2000;
/// Most specialty KISSes per character per task (VE1-K4e).
pub const MAX_SPECIALTIES: usize = 4;

/// The four secondary consequences (VE1-S2), in paraphrase, S1..S4.
pub const SECONDARY: [&str; 4] = [
    "I am not shamed or hurt",
    "The action was graceful or efficient",
    "Nobody I care about is put at risk or disturbed",
    "Nothing else is lost or broken by accident",
];

/// The four tertiary consequences (VE1-S3), in paraphrase, T1..T4.
pub const TERTIARY: [&str; 4] = [
    "An extra prize (a material asset)",
    "I learned something (+1 exp to the job used)",
    "My true intentions are revealed (+1 Lot)",
    "Something unexpected but welcome happens",
];

/// Everything needed to start a task.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct TaskSetup {
    /// Who starts it (the roller or the GM).
    pub actor: Actor,
    /// The roller's participant id (their sheet's key in [`VenusCtx`]).
    pub roller: i64,
    /// True when the roller is an NPC (VE-5).
    pub npc: bool,
    /// The GM's override that lets an NPC perform a task (VE-5); needs a GM actor.
    pub gm_override: bool,
    /// The GM-chosen ability (VE-4).
    pub ability: String,
    /// The job used; it must inherit the ability (VE-3).
    pub job: String,
    /// Set to the job's 1-2 inherited abilities to start learning a job the
    /// roller lacks (VE1-L1, VE2-L1); it is added to the sheet at level 0
    /// when the task closes (not when voided). `None` for an existing job.
    pub learn_inherits: Option<Vec<String>>,
    /// VE1: must be 1 (the base threshold). VE2: the appropriate difficulty 1-4.
    pub difficulty: u32,
    /// Relative factors: VE1 +1 each (0-4, or 0-3 while learning, VE1-T2);
    /// VE2 +1 or +2 each (0-4, VE2-T2).
    pub factors: Vec<NamedFactor>,
    /// What failure means.
    pub consequence: String,
    /// VE2: the task is magic or advanced technology, so 10s explode (VE2-T5).
    pub magic: bool,
    /// VE2: the GM flags critical results and margin for this task (VE2-T11).
    pub crits: bool,
    /// VE1: the GM leaves out "learning the ropes" for a level-0 job (the
    /// FC "gets to add" it, VE1-T2: they may also not). The table lets only
    /// the GM set it.
    #[serde(default)]
    pub no_learning_factor: bool,
}

/// Where a task stands.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum TaskPhase {
    /// Allies offer dice; the roller accepts or refuses; then the roll.
    AidOffers,
    /// The one KISS round: declarations, approvals, then the re-roll.
    KissDeclaration,
    /// VE1: beats are spent.
    Spending,
    /// VE1: the GM may subvert one unbought secondary consequence.
    GmSubversion,
    /// VE2: the roller may spend Ego (every 10 counts twice).
    EgoOffer,
    /// Finished (see `outcome` and `close_kind`).
    Closed,
}

/// An ally's aid offer and its fate.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum AidStatus {
    /// Awaiting the roller's answer.
    Offered,
    /// Accepted: the ally rolls one die.
    Accepted,
    /// Refused by the roller.
    Refused,
    /// Withdrawn by the ally.
    Withdrawn,
}

impl AidStatus {
    /// Whether an offer in this state still stands, taking one of the 2
    /// (VE1-T3) or 3 (VE2-T3) places: offered or accepted.
    pub fn standing(self) -> bool {
        matches!(self, Self::Offered | Self::Accepted)
    }
}

/// An ally of the task.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Ally {
    /// The ally's participant id.
    pub id: i64,
    /// The job they aid with (level ≥ 1, inherits the ability).
    pub job: String,
    /// Their die's rank: their rank in the GM-chosen ability (A-V10).
    pub rank: Rank,
    /// True when the GM set the rank by hand (A-V10).
    pub rank_overridden: bool,
    /// Offer status.
    pub status: AidStatus,
    /// A narrative demand attached to the offer (VE1-T3).
    pub demand: Option<String>,
    /// VE1: the ally agrees that the roller may KISS their die (VE1-K5, A-V11).
    pub consented_kiss: bool,
    /// VE2: the GM flagged this ally's die as magical, so it explodes (A-V19).
    pub magic: bool,
    /// The ally's first die, once rolled.
    pub die_id: Option<u32>,
}

/// What pays for a KISS (VE1-K4, VE2-K4).
#[derive(Debug, Clone, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum KissSource {
    /// 1 Lot from the declarer's sheet.
    Lot,
    /// A distinct insight (Peer-approved).
    Insight {
        /// The insight's text (or `#id` of a sheet insight).
        insight: String,
    },
    /// A stunt: 1 per character per task; the GM may veto it.
    Stunt,
    /// A specialty attribute (Peer-approved), at most 4 per character.
    Specialty {
        /// The attribute's name.
        attribute: String,
    },
    /// VE1 Ego mode (i): every non-beat die (added by the re-roll itself).
    Ego,
}

impl KissSource {
    /// Whether this source needs Peer approval when `ve_require_approval` is on (VE-8).
    pub fn needs_approval(&self) -> bool {
        self.named().is_some()
    }

    /// What a source paid by name names, and the name; `None` for a Lot,
    /// a stunt and Ego.
    pub fn named(&self) -> Option<(Named, &str)> {
        match self {
            KissSource::Specialty { attribute } => Some((Named::Specialty, attribute)),
            KissSource::Insight { insight } => Some((Named::Insight, insight)),
            KissSource::Lot | KissSource::Stunt | KissSource::Ego => None,
        }
    }
}

/// What a KISS paid by name spends: one of the character's attributes
/// (specialty, discipline, asset or natural merit, VE1-K4e) or insights
/// (VE1-K4c).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Named {
    /// A specialty, discipline, asset or merit ([`KissSource::Specialty`]).
    Specialty,
    /// An insight ([`KissSource::Insight`]).
    Insight,
}

impl Named {
    /// Both kinds, attributes first (as sheets and menus list them).
    pub const BOTH: [Named; 2] = [Named::Specialty, Named::Insight];

    /// The KISS source paid with the name `text` of this kind.
    pub fn source(self, text: String) -> KissSource {
        match self {
            Named::Specialty => KissSource::Specialty { attribute: text },
            Named::Insight => KissSource::Insight { insight: text },
        }
    }
}

/// A declared KISS.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct KissDecl {
    /// The die.
    pub die: u32,
    /// The character who declares and pays.
    pub by: i64,
    /// The source.
    pub source: KissSource,
    /// Approved (or needs no approval).
    pub approved: bool,
}

/// One die on the table.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct TaskDie {
    /// Id, unique in the task, in rolling order.
    pub id: u32,
    /// The participant who owns it.
    pub owner: i64,
    /// Its rank (the owner's rank, or the GM's override).
    pub rank: Rank,
    /// Its current face.
    pub face: u32,
    /// KISSed (re-rolled) in this task.
    pub kissed: bool,
    /// What paid for the KISS.
    pub kiss_source: Option<KissSource>,
    /// Who KISSed it.
    pub kissed_by: Option<i64>,
    /// The die whose 10 added this one (VE2-T5).
    pub exploded_from: Option<u32>,
    /// VE2: its 10s explode.
    pub explodes: bool,
    /// Every face it showed, first to current.
    pub history: Vec<u32>,
}

/// The Ego effect chosen in a task.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum EgoMode {
    /// No Ego spent.
    None,
    /// VE1 mode (i): every non-beat die re-rolled (VE1-K4b).
    RerollAll,
    /// VE1 mode (ii): every 6 strikes two beats (VE1-K4b, VE1-T4).
    DoubleSixes,
    /// VE2: every 10 counts as two passes (VE2-T8).
    TensDouble,
}

/// Something the roller buys with beats (VE1-S1..S3, S6).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Purchase {
    /// The primary consequence: costs the threshold, succeeds the task.
    Primary,
    /// Secondary S1..S4 (1 beat).
    Secondary(u8),
    /// Tertiary T1..T4 (1 beat).
    Tertiary(u8),
    /// A custom secondary consequence from the roller's sheet, by 0-based index (1 beat).
    Custom(usize),
}

/// A purchase made.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Bought {
    /// What was bought.
    pub item: Purchase,
    /// Beats paid.
    pub cost: u32,
    /// Its text, for display.
    pub text: String,
}

/// A critical result (VE2-T11, A-V23).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Crit {
    /// passes ≥ 2 × threshold.
    Success,
    /// Failed and 2 × passes ≤ threshold.
    Failure,
}

/// How a task was closed.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum CloseKind {
    /// Through its normal steps.
    Normal,
    /// The GM force-closed it with what was there.
    ForceClosed,
    /// The GM voided it: no sheet changes (spent Lots and Ego refunded).
    Voided,
}

/// The result of a task.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct TaskOutcome {
    /// VE1: the primary consequence was bought. VE2: passes ≥ threshold.
    pub success: bool,
    /// Final beats (VE1) or passes (VE2).
    pub successes: u32,
    /// The threshold.
    pub threshold: u32,
    /// VE1: the roller could afford the primary but did not buy it (A-V14).
    pub declined_primary: bool,
    /// VE2, when crits apply: 100 × passes / threshold, rounded down.
    pub margin_percent: Option<u32>,
    /// VE2, when crits apply: a critical result, if any.
    pub crit: Option<Crit>,
}

/// A change to a participant's sheet.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct SheetChange {
    /// The participant.
    pub who: i64,
    /// What changed.
    pub event: SheetEvent,
}

/// A die as first rolled, for the log.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct RolledDie {
    /// Its id.
    pub id: u32,
    /// Its owner.
    pub owner: i64,
    /// Its rank.
    pub rank: Rank,
    /// Its face.
    pub face: u32,
}

/// A task in progress or finished: everything a renderer shows.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct TaskState {
    /// The edition played.
    pub edition: Edition,
    /// The settings in force when the task started.
    pub settings: VenusSettings,
    /// Where the task stands.
    pub phase: TaskPhase,
    /// The roller's participant id.
    pub roller: i64,
    /// An NPC task run on the GM's override (VE-5).
    pub npc: bool,
    /// The ability (stored spelling).
    pub ability: String,
    /// The roller's rank in it.
    pub rank: Rank,
    /// The roller's score in it.
    pub score: u32,
    /// The job used (stored spelling, or the new job's name).
    pub job: String,
    /// The job's level when the task started.
    pub job_level: u32,
    /// The job is at level 0 (being learned).
    pub learning: bool,
    /// The job will be added to the sheet at close, with these abilities.
    pub learn_inherits: Option<Vec<String>>,
    /// VE1: 1. VE2: the appropriate difficulty 1-4.
    pub difficulty: u32,
    /// Relative factors, including VE1's automatic "learning the ropes".
    pub factors: Vec<NamedFactor>,
    /// The threshold: VE1 1-5, VE2 1-12.
    pub threshold: u32,
    /// What failure means.
    pub consequence: String,
    /// VE2: 10s explode.
    pub magic: bool,
    /// VE2: the GM's crit flag for this task.
    pub crit_flag: bool,
    /// The roller's dice before allies, after the `ve_max_pool` cap.
    pub pool: u32,
    /// The uncapped pool when `ve_max_pool` cut it (A-V27).
    pub pool_capped_from: Option<u32>,
    /// Aid offers, in offer order.
    pub allies: Vec<Ally>,
    /// Every die on the table, in id order.
    pub dice: Vec<TaskDie>,
    /// Dice added by explosions so far.
    pub generated_dice: u32,
    /// Explosions stopped at [`MAX_GENERATED_DICE`].
    pub explosion_capped: bool,
    /// KISS declarations: pending during the round, a record afterwards.
    pub kisses: Vec<KissDecl>,
    /// The KISS round has been rolled (or skipped).
    pub kiss_round_done: bool,
    /// VE1: Ego mode (i) declared, to be applied by the re-roll.
    pub ego_reroll_pending: bool,
    /// The Ego effect in force.
    pub ego_mode: EgoMode,
    /// Lots spent in this task, per participant (refunded on void).
    pub lots_spent: BTreeMap<i64, u32>,
    /// Who spent Ego in this task (refunded on void).
    pub ego_spent_by: Option<i64>,
    /// VE1: purchases, in order.
    pub purchases: Vec<Bought>,
    /// VE1: the job chosen to receive exp from a T3 Lot over the cap.
    pub overflow_job: Option<String>,
    /// VE1: the secondary consequence (1-4) the GM subverted.
    pub subversion: Option<u8>,
    /// The result, once closed (none when voided or force-closed before the roll).
    pub outcome: Option<TaskOutcome>,
    /// How it closed.
    pub close_kind: Option<CloseKind>,
    /// Sheet changes applied when closing (exp, Lots, level-ups, refunds).
    pub close_changes: Vec<SheetChange>,
}

/// A player's or the GM's move on a task. `actor` is who clicks; the GM
/// may act for anyone.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum TaskAction {
    /// An ally offers one die (the ally, or the GM for them).
    OfferAid {
        /// Who acts.
        actor: Actor,
        /// The ally's participant id.
        ally: i64,
        /// Their aiding job (level ≥ 1, inherits the ability).
        job: String,
        /// A narrative demand, if any.
        demand: Option<String>,
    },
    /// The roller accepts or refuses an offer.
    AnswerAid {
        /// Who acts (roller or GM).
        actor: Actor,
        /// The ally.
        ally: i64,
        /// Accept (true) or refuse.
        accept: bool,
    },
    /// The ally withdraws their offer before the roll.
    WithdrawAid {
        /// Who acts (the ally or GM).
        actor: Actor,
        /// The ally.
        ally: i64,
    },
    /// GM sets an ally die's rank by hand (A-V10).
    OverrideAllyRank {
        /// Who acts (GM).
        actor: Actor,
        /// The ally.
        ally: i64,
        /// The rank.
        rank: Rank,
    },
    /// GM flags an ally's die as magical on a magic VE2 task (A-V19).
    FlagAllyMagic {
        /// Who acts (GM).
        actor: Actor,
        /// The ally.
        ally: i64,
        /// Magical or not.
        magic: bool,
    },
    /// Roll every die (roller or GM). Every offer must be answered first.
    Roll {
        /// Who acts.
        actor: Actor,
    },
    /// Declare a KISS on one die, paid by `by`.
    DeclareKiss {
        /// Who acts (`by`, or the GM).
        actor: Actor,
        /// The declaring character (roller or ally).
        by: i64,
        /// The die.
        die: u32,
        /// The source (not `Ego`: see `DeclareEgoReroll`).
        source: KissSource,
    },
    /// Withdraw a KISS declaration (its declarer or the GM).
    WithdrawKiss {
        /// Who acts.
        actor: Actor,
        /// The die.
        die: u32,
    },
    /// GM approves an insight or specialty KISS (VE-8).
    ApproveKiss {
        /// Who acts (GM).
        actor: Actor,
        /// The die.
        die: u32,
    },
    /// GM vetoes a KISS (a stunt, or an unapproved insight/specialty): it is removed.
    VetoKiss {
        /// Who acts (GM).
        actor: Actor,
        /// The die.
        die: u32,
    },
    /// VE1: an ally agrees (or stops agreeing) that the roller may KISS their die (VE1-K5).
    ConsentKiss {
        /// Who acts (the ally or GM).
        actor: Actor,
        /// The ally.
        ally: i64,
        /// Consent given.
        consent: bool,
    },
    /// VE1: declare Ego mode (i), re-roll every non-beat die (roller or GM).
    DeclareEgoReroll {
        /// Who acts.
        actor: Actor,
    },
    /// VE1: withdraw a declared Ego mode (i).
    WithdrawEgoReroll {
        /// Who acts.
        actor: Actor,
    },
    /// VE1: spend Ego for mode (ii), every 6 strikes two beats; any time
    /// before the first purchase (VE1-K6).
    DeclareDoubleSixes {
        /// Who acts (roller or GM).
        actor: Actor,
    },
    /// Pay for and re-roll every declared KISS together, ending the round
    /// (roller or GM). With nothing declared it just ends the round.
    RollKisses {
        /// Who acts.
        actor: Actor,
    },
    /// VE1: buy a consequence with beats (roller or GM).
    Buy {
        /// Who acts.
        actor: Actor,
        /// What.
        item: Purchase,
    },
    /// VE1: undo the latest purchase of `item` before spending ends.
    Refund {
        /// Who acts.
        actor: Actor,
        /// What.
        item: Purchase,
    },
    /// VE1: end spending; unspent beats are lost (VE1-S4). `overflow_job`
    /// receives the exp if a T3 Lot passes the cap (default: the job used).
    FinishSpending {
        /// Who acts (roller or GM).
        actor: Actor,
        /// The roller's job for overflow exp.
        overflow_job: Option<String>,
    },
    /// VE1: GM turns one unbought secondary consequence (1-4) against the roller (VE1-S5).
    Subvert {
        /// Who acts (GM).
        actor: Actor,
        /// The secondary consequence, 1-4.
        secondary: u8,
    },
    /// VE1: GM declines to subvert.
    SkipSubversion {
        /// Who acts (GM).
        actor: Actor,
    },
    /// VE2: spend Ego, every 10 counts as two passes (roller or GM).
    SpendEgo {
        /// Who acts.
        actor: Actor,
    },
    /// VE2: keep Ego and close (roller or GM).
    DeclineEgo {
        /// Who acts.
        actor: Actor,
    },
    /// GM: void the task. Lots and Ego spent in it are refunded; nothing is awarded.
    Void {
        /// Who acts (GM).
        actor: Actor,
    },
    /// GM: finish now with what is there (pending declarations dropped,
    /// purchases as made, no Ego, no subversion).
    ForceClose {
        /// Who acts (GM).
        actor: Actor,
    },
}

/// The kinds of [`TaskAction`], for showing buttons.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum TaskActionKind {
    /// [`TaskAction::OfferAid`].
    OfferAid,
    /// [`TaskAction::AnswerAid`].
    AnswerAid,
    /// [`TaskAction::WithdrawAid`].
    WithdrawAid,
    /// [`TaskAction::OverrideAllyRank`].
    OverrideAllyRank,
    /// [`TaskAction::FlagAllyMagic`].
    FlagAllyMagic,
    /// [`TaskAction::Roll`].
    Roll,
    /// [`TaskAction::DeclareKiss`].
    DeclareKiss,
    /// [`TaskAction::WithdrawKiss`].
    WithdrawKiss,
    /// [`TaskAction::ApproveKiss`].
    ApproveKiss,
    /// [`TaskAction::VetoKiss`].
    VetoKiss,
    /// [`TaskAction::ConsentKiss`].
    ConsentKiss,
    /// [`TaskAction::DeclareEgoReroll`].
    DeclareEgoReroll,
    /// [`TaskAction::WithdrawEgoReroll`].
    WithdrawEgoReroll,
    /// [`TaskAction::DeclareDoubleSixes`].
    DeclareDoubleSixes,
    /// [`TaskAction::RollKisses`].
    RollKisses,
    /// [`TaskAction::Buy`].
    Buy,
    /// [`TaskAction::Refund`].
    Refund,
    /// [`TaskAction::FinishSpending`].
    FinishSpending,
    /// [`TaskAction::Subvert`].
    Subvert,
    /// [`TaskAction::SkipSubversion`].
    SkipSubversion,
    /// [`TaskAction::SpendEgo`].
    SpendEgo,
    /// [`TaskAction::DeclineEgo`].
    DeclineEgo,
    /// [`TaskAction::Void`].
    Void,
    /// [`TaskAction::ForceClose`].
    ForceClose,
}

/// Something that happened in a task, for the roll log.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum TaskEvent {
    /// The task was set up.
    Started {
        /// Roller.
        roller: i64,
        /// Ability.
        ability: String,
        /// Job.
        job: String,
        /// Roller's rank.
        rank: Rank,
        /// Roller's score.
        score: u32,
        /// Job level.
        level: u32,
        /// Learning the job.
        learning: bool,
        /// Roller's dice.
        pool: u32,
        /// Uncapped pool, when capped.
        pool_capped_from: Option<u32>,
        /// The threshold.
        threshold: u32,
    },
    /// An ally offered a die.
    AidOffered {
        /// The ally.
        ally: i64,
        /// Their job.
        job: String,
        /// Their die's rank.
        rank: Rank,
        /// Their demand.
        demand: Option<String>,
    },
    /// The roller answered an offer.
    AidAnswered {
        /// The ally.
        ally: i64,
        /// Accepted.
        accepted: bool,
    },
    /// An ally withdrew.
    AidWithdrawn {
        /// The ally.
        ally: i64,
    },
    /// The GM set an ally's rank.
    AllyRankOverridden {
        /// The ally.
        ally: i64,
        /// The rank.
        rank: Rank,
    },
    /// The GM flagged an ally's die as magical or not.
    AllyMagicFlagged {
        /// The ally.
        ally: i64,
        /// Magical.
        magic: bool,
    },
    /// The dice were rolled.
    DiceRolled {
        /// Every die as first rolled.
        dice: Vec<RolledDie>,
    },
    /// A 10 exploded into a new die (VE2-T5).
    Exploded {
        /// The die that showed 10.
        from: u32,
        /// The new die.
        die: RolledDie,
    },
    /// Explosions stopped at the safety cap.
    ExplosionsCapped,
    /// A KISS was declared.
    KissDeclared {
        /// The declaration.
        kiss: KissDecl,
    },
    /// A KISS declaration was withdrawn (or dropped when consent was withdrawn).
    KissWithdrawn {
        /// The die.
        die: u32,
        /// Its declarer.
        by: i64,
    },
    /// The GM approved a KISS.
    KissApproved {
        /// The die.
        die: u32,
    },
    /// The GM vetoed a KISS.
    KissVetoed {
        /// The die.
        die: u32,
        /// Its declarer.
        by: i64,
        /// Its source.
        source: KissSource,
    },
    /// An ally gave or withdrew consent (VE1-K5).
    KissConsent {
        /// The ally.
        ally: i64,
        /// Consent.
        consent: bool,
    },
    /// VE1 Ego mode (i) declared or withdrawn.
    EgoRerollDeclared {
        /// Declared (true) or withdrawn.
        declared: bool,
    },
    /// An Ego mode took effect.
    EgoUsed {
        /// Whose Ego.
        who: i64,
        /// Which mode.
        mode: EgoMode,
    },
    /// A die was KISSed: the new face replaces the old one.
    Kissed {
        /// The die.
        die: u32,
        /// Its owner.
        owner: i64,
        /// Who KISSed it.
        by: i64,
        /// The source.
        source: KissSource,
        /// Old face.
        from: u32,
        /// New face.
        to: u32,
    },
    /// The KISS round ended.
    KissRoundEnded {
        /// Dice re-rolled.
        kissed: u32,
    },
    /// Beats (VE1) or passes (VE2) on the table now.
    Count {
        /// Beats or passes.
        successes: u32,
        /// The threshold.
        threshold: u32,
    },
    /// VE2: passes ≥ threshold after the roll: the task succeeds at once (VE2-T6).
    EarlySuccess,
    /// A sheet changed (Lot or Ego spent, exp, Lots, level-up, refund).
    Sheet {
        /// The participant.
        who: i64,
        /// What changed.
        event: SheetEvent,
    },
    /// VE1: something was bought.
    Bought {
        /// What.
        item: Purchase,
        /// Beats paid.
        cost: u32,
        /// Beats left.
        beats_left: u32,
    },
    /// VE1: a purchase was undone.
    Refunded {
        /// What.
        item: Purchase,
        /// Beats left.
        beats_left: u32,
    },
    /// VE1: spending ended; leftover beats are lost.
    SpendingFinished {
        /// Beats left unspent.
        beats_lost: u32,
    },
    /// VE1: the GM subverted a secondary consequence.
    Subverted {
        /// 1-4.
        secondary: u8,
    },
    /// VE1: the GM chose not to subvert.
    SubversionSkipped,
    /// A T3 Lot over the cap could go to no job (no eligible job): lost.
    OverflowLost,
    /// An award could not be applied because the job is gone from the sheet.
    AwardSkipped {
        /// The participant.
        who: i64,
        /// The job.
        job: String,
    },
    /// The result.
    Outcome {
        /// The result.
        outcome: TaskOutcome,
    },
    /// The task is over.
    Closed {
        /// How.
        kind: CloseKind,
    },
}

/// True when `actor` may act as participant `who` (themselves, or the GM).
pub(crate) fn may_act_as(actor: Actor, who: i64) -> bool {
    actor.gm || actor.id == who
}

pub(crate) fn need_gm(actor: Actor) -> Result<(), RuleError> {
    if actor.gm {
        Ok(())
    } else {
        Err(RuleError::new("Only the GM can do that."))
    }
}

impl TaskDie {
    /// The face a KISS replaced (VE1-K3, VE2-K: the new face stands, even
    /// when worse); `None` for a die never KISSed.
    pub fn kissed_from(&self) -> Option<u32> {
        let before = self.history.len().checked_sub(2)?;
        self.history.get(before).copied().filter(|_| self.kissed)
    }

    /// Whether the die strikes a beat (VE1-T4) or passes (VE2-T4).
    pub fn succeeds(&self, edition: Edition) -> bool {
        match edition {
            Edition::One => self.face >= self.rank.d6_beat_min(),
            Edition::Two => self.face >= self.rank.d10_pass_min(),
        }
    }

    /// Beats or passes this die counts for, under `ego` (a 6 counts twice
    /// under VE1 double 6s, a 10 twice under VE2 Ego).
    pub fn value(&self, edition: Edition, ego: EgoMode) -> u32 {
        if !self.succeeds(edition) {
            return 0;
        }
        let doubled = match (edition, ego) {
            (Edition::One, EgoMode::DoubleSixes) => self.face == 6,
            (Edition::Two, EgoMode::TensDouble) => self.face == 10,
            _ => false,
        };
        if doubled {
            2
        } else {
            1
        }
    }
}

impl TaskState {
    /// The current phase.
    pub fn phase(&self) -> TaskPhase {
        self.phase
    }

    /// Beats (VE1) or passes (VE2) on the table now, with the Ego mode in force.
    pub fn successes(&self) -> u32 {
        self.successes_under(self.ego_mode)
    }

    /// Beats or passes the dice on the table would count for under `ego`
    /// (VE2-T8 offers Ego: what every 10 counting twice would make).
    pub fn successes_under(&self, ego: EgoMode) -> u32 {
        self.dice.iter().map(|d| d.value(self.edition, ego)).sum()
    }

    /// VE1: beats spent so far.
    pub fn beats_spent(&self) -> u32 {
        self.purchases.iter().map(|b| b.cost).sum()
    }

    /// VE1: beats left to spend (VE2: passes).
    pub fn beats_left(&self) -> u32 {
        self.successes().saturating_sub(self.beats_spent())
    }

    /// Whether critical results and margin apply to this task (VE2-T11).
    pub fn crits_active(&self) -> bool {
        self.edition == Edition::Two
            && match self.settings.ve2_crits {
                Crits::Off => false,
                Crits::PerTaskFlag => self.crit_flag,
                Crits::Always => true,
            }
    }

    /// The most allies this edition allows.
    pub fn max_allies(&self) -> usize {
        match self.edition {
            Edition::One => VE1_MAX_ALLIES,
            Edition::Two => VE2_MAX_ALLIES,
        }
    }

    /// The accepted allies.
    pub fn accepted_allies(&self) -> impl Iterator<Item = &Ally> {
        self.allies
            .iter()
            .filter(|a| a.status == AidStatus::Accepted)
    }

    /// The allies whose offer still stands ([`AidStatus::standing`]).
    pub fn standing_allies(&self) -> impl Iterator<Item = &Ally> {
        self.allies.iter().filter(|a| a.status.standing())
    }

    /// The allies whose offer awaits the roller's answer, which the roll
    /// waits for (VE1-T3, VE2-T3).
    pub fn pending_allies(&self) -> impl Iterator<Item = &Ally> {
        self.allies
            .iter()
            .filter(|a| a.status == AidStatus::Offered)
    }

    /// The participants who may act in the task: the roller and accepted allies.
    pub fn participants(&self) -> Vec<i64> {
        let mut v = vec![self.roller];
        v.extend(self.accepted_allies().map(|a| a.id));
        v
    }

    /// A die by id.
    pub fn die(&self, id: u32) -> Option<&TaskDie> {
        self.dice.iter().find(|d| d.id == id)
    }

    /// Applies one move. On error the context is untouched (the state is
    /// consumed; keep the stored copy).
    pub fn apply<R: Rng + ?Sized>(
        mut self,
        ctx: &mut VenusCtx,
        action: TaskAction,
        rng: &mut R,
    ) -> Result<(Self, Vec<TaskEvent>), RuleError> {
        if self.phase == TaskPhase::Closed {
            return Err(RuleError::new("This task is already over."));
        }
        let mut work = ctx.clone();
        let mut ev = Vec::new();
        match action {
            TaskAction::OfferAid {
                actor,
                ally,
                job,
                demand,
            } => self.offer_aid(&work, actor, ally, &job, demand, &mut ev)?,
            TaskAction::AnswerAid {
                actor,
                ally,
                accept,
            } => self.answer_aid(actor, ally, accept, &mut ev)?,
            TaskAction::WithdrawAid { actor, ally } => self.withdraw_aid(actor, ally, &mut ev)?,
            TaskAction::OverrideAllyRank { actor, ally, rank } => {
                self.override_ally_rank(actor, ally, rank, &mut ev)?
            }
            TaskAction::FlagAllyMagic { actor, ally, magic } => {
                self.flag_ally_magic(actor, ally, magic, &mut ev)?
            }
            TaskAction::Roll { actor } => self.roll(&mut work, actor, rng, &mut ev)?,
            TaskAction::DeclareKiss {
                actor,
                by,
                die,
                source,
            } => self.declare_kiss(&work, actor, by, die, source, &mut ev)?,
            TaskAction::WithdrawKiss { actor, die } => self.withdraw_kiss(actor, die, &mut ev)?,
            TaskAction::ApproveKiss { actor, die } => self.approve_kiss(actor, die, &mut ev)?,
            TaskAction::VetoKiss { actor, die } => self.veto_kiss(actor, die, &mut ev)?,
            TaskAction::ConsentKiss {
                actor,
                ally,
                consent,
            } => self.consent_kiss(actor, ally, consent, &mut ev)?,
            TaskAction::DeclareEgoReroll { actor } => {
                self.declare_ego_reroll(&work, actor, true, &mut ev)?
            }
            TaskAction::WithdrawEgoReroll { actor } => {
                self.declare_ego_reroll(&work, actor, false, &mut ev)?
            }
            TaskAction::DeclareDoubleSixes { actor } => {
                self.declare_double_sixes(&mut work, actor, &mut ev)?
            }
            TaskAction::RollKisses { actor } => self.roll_kisses(&mut work, actor, rng, &mut ev)?,
            TaskAction::Buy { actor, item } => self.buy(&work, actor, item, &mut ev)?,
            TaskAction::Refund { actor, item } => self.refund(actor, item, &mut ev)?,
            TaskAction::FinishSpending {
                actor,
                overflow_job,
            } => self.finish_spending(&mut work, actor, overflow_job, &mut ev)?,
            TaskAction::Subvert { actor, secondary } => {
                self.subvert(&mut work, actor, Some(secondary), &mut ev)?
            }
            TaskAction::SkipSubversion { actor } => {
                self.subvert(&mut work, actor, None, &mut ev)?
            }
            TaskAction::SpendEgo { actor } => self.ego_offer(&mut work, actor, true, &mut ev)?,
            TaskAction::DeclineEgo { actor } => self.ego_offer(&mut work, actor, false, &mut ev)?,
            TaskAction::Void { actor } => self.void(&mut work, actor, &mut ev)?,
            TaskAction::ForceClose { actor } => self.force_close(&mut work, actor, &mut ev)?,
        }
        *ctx = work;
        Ok((self, ev))
    }

    /// The moves `actor` may make now (buttons to show). This is a guide:
    /// [`TaskState::apply`] still validates every detail.
    pub fn available_actions(&self, actor: Actor, ctx: &VenusCtx) -> Vec<TaskActionKind> {
        use TaskActionKind as K;
        let mut out = Vec::new();
        if self.phase == TaskPhase::Closed {
            return out;
        }
        let as_roller = may_act_as(actor, self.roller);
        let roller_ego = ctx.sheets.get(&self.roller).is_some_and(|s| s.ego);
        match self.phase {
            TaskPhase::AidOffers => out.extend(self.aid_offer_actions(actor, as_roller)),
            TaskPhase::KissDeclaration => {
                out.extend(self.kiss_round_actions(actor, as_roller, roller_ego))
            }
            TaskPhase::Spending => {
                if as_roller {
                    if !self.buyable(ctx).is_empty() {
                        out.push(K::Buy);
                    }
                    if !self.purchases.is_empty() {
                        out.push(K::Refund);
                    }
                    if self.purchases.is_empty() && self.ego_mode == EgoMode::None && roller_ego {
                        out.push(K::DeclareDoubleSixes);
                    }
                    out.push(K::FinishSpending);
                }
            }
            TaskPhase::GmSubversion => {
                if actor.gm {
                    out.push(K::Subvert);
                    out.push(K::SkipSubversion);
                }
            }
            TaskPhase::EgoOffer => {
                if as_roller {
                    if roller_ego {
                        out.push(K::SpendEgo);
                    }
                    out.push(K::DeclineEgo);
                }
            }
            TaskPhase::Closed => {}
        }
        if actor.gm {
            out.push(K::Void);
            out.push(K::ForceClose);
        }
        out
    }

    /// The moves while allies offer aid (VE1-T3, VE2-T3): offer or
    /// withdraw a die while places remain, the roller answers offers and
    /// rolls once none is pending, the GM adjusts allies' dice (A-V10, A-V19).
    fn aid_offer_actions(&self, actor: Actor, as_roller: bool) -> Vec<TaskActionKind> {
        use TaskActionKind as K;
        let mut out = Vec::new();
        let offered = |id| self.standing_allies().any(|a| a.id == id);
        let active = self.standing_allies().count();
        if (actor.gm || (actor.id != self.roller && !offered(actor.id)))
            && active < self.max_allies()
        {
            out.push(K::OfferAid);
        }
        if (actor.gm || offered(actor.id)) && active > 0 {
            out.push(K::WithdrawAid);
        }
        let pending = self.pending_allies().next().is_some();
        if as_roller && pending {
            out.push(K::AnswerAid);
        }
        if as_roller && !pending {
            out.push(K::Roll);
        }
        if actor.gm && active > 0 {
            out.push(K::OverrideAllyRank);
            if self.magic {
                out.push(K::FlagAllyMagic);
            }
        }
        out
    }

    /// The moves in the KISS round (VE1-K1..K6, VE2-K): declare, withdraw,
    /// consent to KISSes on an ally's die and Ego in VE1, the GM's
    /// approvals and vetoes (VE-8), and the roll once all are approved.
    fn kiss_round_actions(
        &self,
        actor: Actor,
        as_roller: bool,
        roller_ego: bool,
    ) -> Vec<TaskActionKind> {
        use TaskActionKind as K;
        let mut out = Vec::new();
        let is_participant = actor.gm || self.participants().contains(&actor.id);
        if is_participant {
            out.push(K::DeclareKiss);
        }
        if (actor.gm && !self.kisses.is_empty()) || self.kisses.iter().any(|k| k.by == actor.id) {
            out.push(K::WithdrawKiss);
        }
        if self.edition == Edition::One {
            if actor.gm || self.accepted_allies().any(|a| a.id == actor.id) {
                out.push(K::ConsentKiss);
            }
            if as_roller && self.ego_mode == EgoMode::None {
                if self.ego_reroll_pending {
                    out.push(K::WithdrawEgoReroll);
                } else if roller_ego {
                    out.push(K::DeclareEgoReroll);
                    out.push(K::DeclareDoubleSixes);
                }
            }
        }
        if actor.gm && self.kisses.iter().any(|k| !k.approved) {
            out.push(K::ApproveKiss);
        }
        if actor.gm && !self.kisses.is_empty() {
            out.push(K::VetoKiss);
        }
        if as_roller && self.kisses.iter().all(|k| k.approved) {
            out.push(K::RollKisses);
        }
        out
    }
}
