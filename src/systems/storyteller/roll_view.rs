//! How a Storyteller roll looks (ST-9) in the shared look
//! ([`crate::systems::table::look`]): the author line says who rolled what,
//! the title states the outcome in the seed's words and picks the colour,
//! the description's first line is the dice (successes bold, 10s that add
//! bonus dice bold★, base 1s that cancel a success `1✗`, ignored bonus 1s
//! in brackets, sorted), the pool and the arithmetic from successes rolled
//! to the net result are two short fields, and the rules that fired and the
//! chance computed before the roll are in the footer. Long dice lists
//! become counts per face (the full list is in the roll log), so the
//! message always fits. Pure: no I/O.

use crate::app::component::Action;
use crate::app::view::{clean, escape, Button, Embed, Style, View};
use crate::kit::controls::shown;
use crate::rules::storyteller::pool::TraitUse;
use crate::rules::storyteller::roll::{DieMark, GENERATED_DICE_CAP};
use crate::rules::storyteller::willpower::{GainReason, SpendPurpose};
use crate::rules::storyteller::{
    Event, FaceCounts, Outcome, Outcome3, PoolNote, RollKind, RollResult, RollSession, ZeroPool,
};
use crate::systems::table::look::{self, Mark};

use super::buttons::RollButton;
use super::sheet_view::count;
use super::state::RollState;
use super::{GM, KIND};
use crate::storage::sessions::Status;

/// Characters the full dice listing may use before it is summarised.
pub const DICE_BUDGET: usize = 1800;

/// How one face counts: successes bold (a 10 that adds bonus dice bold★),
/// base 1s that cancel a success `1✗`, ignored bonus 1s in brackets.
fn mark(r: &RollResult, face: u32, bonus: bool) -> Mark {
    match r.mark(face, bonus) {
        DieMark::Success if face == 10 && r.spec.bonus_dice_per_ten > 0 && !r.chance_die => {
            Mark::Crit
        }
        DieMark::Success => Mark::Hit,
        DieMark::Botch => Mark::Bad,
        DieMark::Ignored => Mark::Dropped,
        DieMark::Failure => Mark::Miss,
    }
}

/// One list of dice, marked and sorted highest first (a pool's order
/// means nothing).
fn marked(r: &RollResult, list: &[u32], bonus: bool) -> String {
    look::dice(look::sorted(
        list.iter().map(|&f| (f, mark(r, f, bonus))).collect(),
    ))
}

/// Every die on one line: the base dice, then each bonus generation
/// (`**10**★ **9** 4 1✗ · bonus **10**★ (1) → **8**`).
pub fn full_listing(r: &RollResult) -> String {
    let mut line = if r.chance_die {
        format!("Chance die {}", marked(r, &r.base, false))
    } else {
        marked(r, &r.base, false)
    };
    if !r.bonus.is_empty() {
        let gens: Vec<String> = r.bonus.iter().map(|g| marked(r, g, true)).collect();
        line.push_str(&format!(" · bonus {}", gens.join(" → ")));
    }
    line
}

/// Counts per face, marked like the faces: `**10**×3 **7**×2 4×1 1✗×1`.
fn counted(r: &RollResult, c: &FaceCounts, bonus: bool) -> String {
    (1..=10u32)
        .rev()
        .filter_map(|f| {
            let n = c.counts[(f - 1) as usize];
            (n > 0).then(|| format!("{}×{n}", look::die(f, mark(r, f, bonus))))
        })
        .collect::<Vec<_>>()
        .join(" ")
}

/// Counts per face instead of every die (A-S11); the full list is in the
/// roll log.
pub fn summary_listing(r: &RollResult) -> String {
    let mut line = format!(
        "{}: {}",
        count(r.base.len() as u32, "die", "dice"),
        counted(r, &r.base_counts(), false)
    );
    if !r.bonus.is_empty() {
        line.push_str(&format!(
            " · bonus {} in {}: {}",
            r.bonus_dice(),
            count(r.bonus.len() as u32, "generation", "generations"),
            counted(r, &r.bonus_counts(), true)
        ));
    }
    line.push_str("\n*Too many dice to list; every face is in the roll log.*");
    line
}

/// The dice as shown: every face when it fits, else counts per face
/// (`false`).
pub fn dice_text(r: &RollResult) -> (String, bool) {
    if r.auto_fail {
        return ("No dice to roll: it cannot botch.".to_string(), false);
    }
    if !r.is_long() {
        let full = full_listing(r);
        if full.chars().count() <= DICE_BUDGET {
            return (full, true);
        }
    }
    (summary_listing(r), false)
}

/// A number with a typographic minus, e.g. `−1`.
fn minus(n: i64) -> String {
    if n < 0 {
        format!("−{}", -n)
    } else {
        n.to_string()
    }
}

/// A signed number, e.g. `+2`, `−1`.
fn signed(n: i64) -> String {
    if n < 0 {
        format!("−{}", -n)
    } else {
        format!("+{n}")
    }
}

/// A pool-building rule in words (spec §1.3).
pub fn note_text(n: &PoolNote) -> String {
    match n {
        PoolNote::DefaultDifficulty { difficulty } => {
            format!("Difficulty {difficulty}: the server's default.")
        }
        PoolNote::UntrainedTalent { ability } => {
            format!("{ability} is a talent at 0 dots: the attribute alone, no penalty.")
        }
        PoolNote::UnskilledSkill { ability } => {
            format!("{ability} is a skill at 0 dots: the attribute alone, difficulty +1.")
        }
        PoolNote::FigureItOut { ability, penalty } => format!(
            "Figuring out {ability} (a knowledge at 0 dots): the attribute alone, difficulty +{penalty}."
        ),
        PoolNote::WoundPenalty { dice, difficulty } => format!(
            "Wound penalty: {}.",
            super::sheet_view::wound_text(*dice, *difficulty)
        ),
        PoolNote::WoundPenaltyIgnored { dice, difficulty } => format!(
            "Wound penalty ({}) ignored: willpower was spent.",
            super::sheet_view::wound_text(*dice, *difficulty)
        ),
        PoolNote::Modifier { dice, difficulty } => format!(
            "Modifier: {} dice, {} difficulty.",
            signed(i64::from(*dice)),
            signed(i64::from(*difficulty))
        ),
        PoolNote::PoolFloored { from } => {
            format!("The pool came to {from} dice; it counts as 0.")
        }
        PoolNote::DifficultyRaised { from } => format!("Difficulty {from} raised to 2."),
        PoolNote::DifficultyCapped { from } => format!("Difficulty {from} capped at 10."),
        PoolNote::SuccessImpossible { difficulty } => format!(
            "⚠️ Difficulty {difficulty} is above 10: success is impossible, and 1s still botch."
        ),
        PoolNote::AdvancedSpecialtyMissing { specialty } => {
            let specialty = escape(specialty);
            format!("Advanced specialty {specialty} required but not used: threshold +1.")
        }
        PoolNote::AdvancedSpecialtyUsed {
            specialty,
            added_automatically,
        } => format!(
            "Advanced specialty {} used{}: no extra threshold.",
            escape(specialty),
            if *added_automatically {
                " (added automatically)"
            } else {
                ""
            }
        ),
        PoolNote::ZeroPool { rule } => match rule {
            ZeroPool::AutoFail => {
                "Zero dice: an automatic simple failure (setting st_zero_pool).".to_string()
            }
            ZeroPool::ChanceDie => {
                "Zero dice: one chance die, where only a 10 succeeds (setting st_zero_pool)."
                    .to_string()
            }
        },
        PoolNote::SpecialtiesUnused => "Specialties add no dice to a zero pool.".to_string(),
        PoolNote::WillpowerPool { current } => {
            format!("The pool is current willpower ({current}).")
        }
    }
}

/// What happened after the dice, in words (willpower, incapacitation, …),
/// `who` named without markdown.
pub fn event_text(e: &Event, who: &str) -> Option<String> {
    let who = clean(who);
    Some(match e {
        Event::BonusCapReached { generated } => format!(
            "The bonus dice stopped at the {GENERATED_DICE_CAP}-dice cap ({generated} rolled): the roll counts as a success."
        ),
        Event::WoundIgnoreUsed => {
            "This action used the willpower spent to ignore wounds.".to_string()
        }
        Event::WillpowerLost { amount, current } => format!(
            "The botch costs {amount} willpower (now {current})."
        ),
        Event::WillpowerSpent {
            purpose: SpendPurpose::BuySuccess,
            current,
        } => format!("1 willpower spent for an automatic success (now {current})."),
        Event::WillpowerSpent {
            purpose: SpendPurpose::IgnoreWounds,
            current,
        } => format!("1 willpower spent to ignore the wound penalty (now {current})."),
        Event::WillpowerGained {
            amount,
            current,
            reason: GainReason::ActiveRest,
        } => format!("Active rest: +{amount} willpower (now {current})."),
        Event::WillpowerGained {
            amount,
            current,
            reason: GainReason::Daily,
        } => format!("A day of rest: +{amount} willpower (now {current})."),
        Event::Incapacitated => {
            format!("💤 {who} is incapacitated (0 willpower): no actions until willpower returns.")
        }
        Event::IncapacitationDeferred => {
            format!("⚠️ {who} is at 0 willpower: incapacitated once this action is done.")
        }
        Event::NoLongerIncapacitated => format!("{who} is no longer incapacitated."),
        _ => return None,
    })
}

/// Chances in words, e.g. `63.2% success · 27.0% failure · 9.8% botch`.
pub fn odds_text(o: &Outcome3) -> String {
    format!(
        "{} success · {} failure · {} botch",
        percent(o.success),
        percent(o.failure),
        percent(o.botch)
    )
}

/// A probability as a percentage with one decimal, never rounding a
/// possible event to 0% or an uncertain one to 100%.
pub fn percent(p: f64) -> String {
    if p <= 0.0 {
        "0%".to_string()
    } else if p >= 1.0 {
        "100%".to_string()
    } else if p < 0.0005 {
        "<0.1%".to_string()
    } else if p > 0.9995 {
        ">99.9%".to_string()
    } else {
        format!("{:.1}%", p * 100.0)
    }
}

/// The outcome as a title's look and words (ST-6 in the seed's words):
/// `✅ Success · 3 successes`, `❌ Simple failure`, `💥 Botch of size 2`.
fn outcome_heading(outcome: Outcome, automatic: bool) -> (look::Outcome, String) {
    match outcome {
        Outcome::Success { successes } => (
            look::Outcome::Success,
            format!(
                "{} · {}",
                if automatic {
                    "Automatic success"
                } else {
                    "Success"
                },
                count(successes, "success", "successes")
            ),
        ),
        Outcome::Failure => (look::Outcome::Failure, "Simple failure".to_string()),
        Outcome::Botch { botches: 1 } => (look::Outcome::Botch, "Botch".to_string()),
        Outcome::Botch { botches } => (look::Outcome::Botch, format!("Botch of size {botches}")),
    }
}

/// The outcome in words, for the log and `/history`: `success, 4
/// successes`, `simple failure`, `botch of size 2`.
pub fn outcome_words(outcome: Outcome, automatic: bool) -> String {
    match outcome {
        Outcome::Success { successes } => format!(
            "{}, {}",
            if automatic {
                "automatic success"
            } else {
                "success"
            },
            count(successes, "success", "successes")
        ),
        Outcome::Failure => "simple failure".to_string(),
        Outcome::Botch { botches } => format!("botch of size {botches}"),
    }
}

/// The arithmetic from successes rolled to the net result (ST-5, ST-6),
/// on one line, or `None` when the title already says it all (no bonus
/// dice, no threshold, no botch): `3 + 2 bonus − 1 botch = **4**`.
pub fn successes_text(r: &RollResult) -> Option<String> {
    if r.auto_fail || r.chance_die {
        return None;
    }
    if r.bonus_successes == 0 && r.threshold_removed == 0 && r.botches == 0 {
        return None;
    }
    let mut s = r.base_successes.to_string();
    if r.bonus_successes > 0 {
        s.push_str(&format!(" + {} bonus", r.bonus_successes));
    }
    if r.threshold_removed > 0 {
        s.push_str(&format!(" − {} threshold", r.threshold_removed));
    }
    if r.botches > 0 {
        s.push_str(&format!(" − {}", count(r.botches, "botch", "botches")));
    }
    s.push_str(&format!(" = **{}**", minus(r.net)));
    match r.outcome {
        Outcome::Success { successes: 1 } => s.push_str(" (barely)"),
        Outcome::Success { successes } if successes >= 3 => s.push_str(" (very good)"),
        _ => {}
    }
    Some(s)
}

/// What was rolled: the pool, its difficulty and what else shaped it
/// (`Wits 3 + Alertness 2 = **5 dice** · difficulty 6 · threshold 1 · Night
/// Vision +1 die per 10`); a threshold of 0 and no specialties are left out.
pub fn pool_text(spec: &crate::rules::storyteller::RollSpec) -> String {
    let dice = spec.dice;
    let n = format!("**{}**", count(dice, "die", "dice"));
    let mut s = match spec.kind {
        RollKind::Action => {
            let parts: Vec<String> = spec
                .traits
                .iter()
                .map(|t: &TraitUse| format!("{} {}", escape(&t.name), t.dots))
                .collect();
            let sum: u32 = spec.traits.iter().map(|t| u32::from(t.dots)).sum();
            if sum == dice {
                format!("{} = {n}", parts.join(" + "))
            } else {
                format!("{} = {sum} → {n}", parts.join(" + "))
            }
        }
        RollKind::Willpower | RollKind::Rest => format!("Willpower = {n}"),
        RollKind::AdHoc => n,
    };
    if spec.success_possible() {
        s.push_str(&format!(" · difficulty {}", spec.difficulty));
    } else {
        s.push_str(&format!(" · difficulty {} (impossible)", spec.difficulty));
    }
    if spec.threshold > 0 {
        s.push_str(&format!(" · threshold {}", spec.threshold));
    }
    if spec.specialties_in_use > 0 {
        let names = if spec.specialties.is_empty() {
            count(spec.specialties_in_use, "specialty", "specialties")
        } else {
            spec.specialties
                .iter()
                .map(|s| escape(s))
                .collect::<Vec<_>>()
                .join(", ")
        };
        s.push_str(&format!(
            " · {names} +{} per 10",
            count(spec.bonus_dice_per_ten, "die", "dice")
        ));
    }
    s
}

/// What was rolled, for the author line: `Wits + Alertness`, `6 dice`,
/// `Willpower`, `Active rest`.
pub fn what(state: &RollState) -> String {
    match state.session.result.spec.kind {
        RollKind::Action | RollKind::AdHoc => state.label.clone(),
        RollKind::Willpower => "Willpower".to_string(),
        RollKind::Rest => "Active rest".to_string(),
    }
}

/// The author line: `Ada · Wits + Alertness`.
pub fn author(state: &RollState) -> String {
    format!("{} · {}", state.who(), what(state))
}

/// The title's look (its emoji and the embed's colour) and words: the
/// outcome (`✅ Success · 3 successes`), pending while the willpower
/// choice is open (`⏳ Waiting for Ada`), closed when voided (`⏹️ Voided by
/// the storyteller`), partial for a day of rest whose roll added nothing
/// (ST-14).
fn heading(status: Status, state: &RollState) -> (look::Outcome, String) {
    let s = &state.session;
    match (status, s.outcome, rested(state)) {
        (Status::Open, Outcome::Success { successes }, _) => (
            look::Outcome::Pending,
            format!(
                "Waiting for {} · {} rolled",
                state.shown(),
                count(successes, "success", "successes")
            ),
        ),
        (Status::Open, ..) => (
            look::Outcome::Pending,
            format!("Waiting for {}", state.shown()),
        ),
        (Status::Voided, ..) => (look::Outcome::Closed, format!("Voided by the {GM}")),
        // A day of rest raised willpower though the active-rest roll
        // failed: not a red failure (issue 31).
        (_, Outcome::Failure, Some(n)) => (
            look::Outcome::Partial,
            format!("Rested · +{n} willpower (the roll added none)"),
        ),
        _ => outcome_heading(s.outcome, s.automatic),
    }
}

/// The willpower a day of rest gave before an active-rest roll, if this
/// roll is one: +1 (ST-14: the roll is made only when the day's dot came
/// and willpower is still below permanent).
fn rested(state: &RollState) -> Option<u8> {
    (state.session.result.spec.kind == RollKind::Rest).then_some(1)
}

/// The roll's embed. `status` is the session's (`open`, `closed`, `voided`,
/// `expired`). The first line of the description is the dice; what
/// happened to willpower follows; the pool and the arithmetic are two short
/// fields; the rules that fired, the odds and the roll's number (`number`,
/// [`crate::app::secret::number`]) are in the footer.
pub fn roll_embed(number: i64, status: Status, state: &RollState, spend: Option<u8>) -> Embed {
    let lines = description_lines(status, state, spend);
    let (look, title) = heading(status, state);
    let mut e = Embed::new(look.title(&title))
        .author(author(state))
        .description(super::sheet_view::fit(&lines, 3000))
        .field("Pool", pool_text(&state.session.result.spec), true);
    if let Some(successes) = successes_field(&state.session) {
        e = e.field("Successes", successes, true);
    }
    e.colour(look.colour())
        .footer(footer(number, status, state))
}

/// The description's lines: the dice, what was said before the roll, then
/// willpower before → after with the choice on offer while the roll is open
/// (ST-11) and what happened to it, or why buying a success was not offered.
fn description_lines(status: Status, state: &RollState, spend: Option<u8>) -> Vec<String> {
    let s = &state.session;
    let (dice, _listed) = dice_text(&s.result);
    let mut lines = vec![dice];
    lines.extend(state.before.iter().cloned());
    let who = state.who();
    let after: Vec<String> = s.log.iter().filter_map(|ev| event_text(ev, who)).collect();
    if let (Some(b), Some(a)) = (s.willpower_before, s.willpower_after) {
        lines.push(match (status, spend) {
            (Status::Open, Some(n)) => format!(
                "Willpower {b} · **Spend willpower**: 1 dot makes this an automatic success with {}.",
                count(u32::from(n), "success", "successes")
            ),
            (Status::Open, None) => format!("Willpower {b}"),
            _ if a == b && rested(state).is_some() => {
                format!("Willpower {b} (the roll added none)")
            }
            _ if a == b => format!("Willpower {b} (unchanged)"),
            _ => format!("Willpower {b} → {a}"),
        });
        lines.extend(after);
        if let Some(n) = s.purchase_withheld() {
            lines.push(format!(
                "Spend willpower not offered: it would give {}, no more than this roll.",
                count(n, "success", "successes")
            ));
        }
    } else {
        lines.extend(after);
    }
    lines
}

/// The "Successes" field: the arithmetic of the dice, or for a bought
/// success the automatic count, since the dice no longer count (ST-11).
fn successes_field(s: &RollSession) -> Option<String> {
    match (s.automatic, s.outcome) {
        (true, Outcome::Success { successes }) => Some(format!(
            "**{successes}**, automatic: the dice no longer count"
        )),
        _ => successes_text(&s.result),
    }
}

/// The footer on one line (a phone shows it as one paragraph): the rules
/// that fired, the chance before rolling, the roll's number and, while
/// open or after timing out, what becomes of the roll.
fn footer(number: i64, status: Status, state: &RollState) -> String {
    let mut footer: Vec<String> = state
        .session
        .result
        .spec
        .notes
        .iter()
        .filter(|n| {
            !matches!(
                n,
                PoolNote::DefaultDifficulty { .. } | PoolNote::WillpowerPool { .. }
            )
        })
        .map(note_text)
        .collect();
    footer.push(format!(
        "Chance before rolling: {}.",
        odds_text(&state.odds)
    ));
    let mut last = format!("Roll #{number}.");
    match status {
        Status::Open => last.push_str(" Keep lets the roll stand."),
        Status::Expired => last.push_str(" Timed out: the roll stands as rolled."),
        _ => {}
    }
    footer.push(last);
    let mut footer = footer.join(" ");
    crate::app::view::truncate(&mut footer, 1500);
    footer
}

/// The roll's message: the embed, and while the willpower choice is open,
/// its buttons (the storyteller's Void is a game-master tool, folded into
/// the private ⚙ panel). `spend` is the automatic success on offer
/// (current willpower − 1) when buying one is allowed now (ST-11), else
/// `None`. `id` is the session's, `number` the roll's as its readers see
/// it ([`crate::app::secret::number`]).
pub fn roll_view(
    id: i64,
    number: i64,
    version: i64,
    status: Status,
    state: &RollState,
    spend: Option<u8>,
) -> View {
    let view = View::embed(roll_embed(number, status, state, spend));
    if status != Status::Open {
        return view;
    }
    let b = |button: RollButton, label: &str, style: Style| {
        Button::new(button.button(KIND, id, version).encode(), label, style)
    };
    view.buttons(shown([
        (
            spend.is_some(),
            b(RollButton::Spend, "Spend willpower", Style::Success),
        ),
        (true, b(RollButton::Keep, "Keep", Style::Secondary)),
        (true, b(RollButton::Void, "Void", Style::Danger).gm_only()),
    ]))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::storyteller::pool::{build_ad_hoc, AdHocRequest};
    use crate::rules::storyteller::roll::resolve;
    use crate::rules::storyteller::StorytellerSettings;

    fn spec(
        dice: u32,
        difficulty: u32,
        threshold: u32,
        specialties: u32,
    ) -> crate::rules::storyteller::RollSpec {
        build_ad_hoc(
            &AdHocRequest {
                dice,
                difficulty: Some(difficulty),
                threshold,
                specialties,
            },
            &StorytellerSettings::default(),
            100,
        )
        .unwrap()
    }

    #[test]
    fn the_worked_check_reads_as_in_the_spec() {
        // ST-9's worked check: difficulty 8, [1, 4, 8, 10, 10], one specialty.
        let r = resolve(
            &spec(5, 8, 0, 1),
            vec![1, 4, 8, 10, 10],
            vec![vec![1, 10], vec![8]],
            false,
        );
        let (text, listed) = dice_text(&r);
        assert!(listed);
        assert_eq!(
            text,
            "**10**★ **10**★ **8** 4 1✗ · bonus **10**★ (1) → **8**"
        );
        assert!(!text.contains('~'));
        assert_eq!(
            successes_text(&r).as_deref(),
            Some("3 + 2 bonus − 1 botch = **4** (very good)")
        );
        let outcome_title = |o, automatic| {
            let (look, text) = outcome_heading(o, automatic);
            look.title(&text)
        };
        assert_eq!(outcome_title(r.outcome, false), "✅ Success · 4 successes");
        assert_eq!(outcome_title(Outcome::Failure, false), "❌ Simple failure");
        assert_eq!(
            outcome_title(Outcome::Botch { botches: 1 }, false),
            "💥 Botch"
        );
        assert_eq!(
            outcome_title(Outcome::Botch { botches: 2 }, false),
            "💥 Botch of size 2"
        );
        assert_eq!(
            pool_text(&r.spec),
            "**5 dice** · difficulty 8 · 1 specialty +1 die per 10"
        );
    }

    #[test]
    fn a_plain_roll_shows_no_arithmetic_and_no_empty_lines() {
        let r = resolve(&spec(4, 6, 0, 0), vec![9, 6, 3, 10], vec![], false);
        assert_eq!(dice_text(&r).0, "**10** **9** **6** 3");
        assert_eq!(successes_text(&r), None);
        assert_eq!(pool_text(&r.spec), "**4 dice** · difficulty 6");
        let r = resolve(&spec(4, 6, 2, 0), vec![9, 6, 1, 10], vec![], false);
        assert_eq!(
            successes_text(&r).as_deref(),
            Some("3 − 2 threshold − 1 botch = **0**")
        );
        assert_eq!(
            pool_text(&r.spec),
            "**4 dice** · difficulty 6 · threshold 2"
        );
    }

    #[test]
    fn long_lists_become_counts_per_face() {
        let base: Vec<u32> = (0..100).map(|i| i % 10 + 1).collect();
        let bonus: Vec<Vec<u32>> = (0..30).map(|_| vec![10, 10, 3]).collect();
        let r = resolve(&spec(100, 6, 2, 2), base, bonus, false);
        let (text, listed) = dice_text(&r);
        assert!(!listed);
        assert!(text.starts_with("100 dice: **10**★×10 **9**×10"), "{text}");
        assert!(text.contains("1✗×10"), "{text}");
        assert!(text.contains("bonus 90 in 30 generations"), "{text}");
        assert!(text.chars().count() < 1000, "{}", text.chars().count());
    }

    #[test]
    fn a_capped_chain_of_2000_bonus_dice_fits_one_message() {
        let base: Vec<u32> = vec![10; 100];
        let mut bonus: Vec<Vec<u32>> = (0..399).map(|_| vec![10, 10, 1, 5, 9]).collect();
        bonus.push(vec![10, 1, 2, 3, 4]);
        let r = resolve(&spec(100, 6, 30, 5), base, bonus, true);
        assert_eq!(r.bonus_dice(), 2000);
        let (text, listed) = dice_text(&r);
        assert!(!listed);
        assert!(text.contains("bonus 2000 in 400 generations"), "{text}");
        assert!(text.chars().count() < 600, "{text}");
        let events = crate::rules::storyteller::willpower::roll_events(&r);
        let lines: Vec<String> = events.iter().filter_map(|e| event_text(e, "Ada")).collect();
        assert_eq!(
            lines,
            vec!["The bonus dice stopped at the 2000-dice cap (2000 rolled): the roll counts as a success."]
        );
    }

    #[test]
    fn percentages_never_hide_a_possible_event() {
        assert_eq!(percent(0.0), "0%");
        assert_eq!(percent(1e-9), "<0.1%");
        assert_eq!(percent(0.63212), "63.2%");
        assert_eq!(percent(0.99999), ">99.9%");
        assert_eq!(percent(1.0), "100%");
    }
}
