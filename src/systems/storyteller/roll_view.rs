//! How a Storyteller roll looks (ST-9): the pool and its parameters, every
//! rule that fired, the base dice and each bonus generation with successes
//! in bold, botches struck and ignored bonus 1s in italics, the successes
//! removed by the threshold, the botches cancelled, the outcome and the
//! chance of success computed before the roll. Long dice lists become counts
//! per face (the full list is in the roll log), so the message always fits.
//! Pure: no I/O.

use crate::app::component::Action;
use crate::app::view::{colour, Button, Embed, Style, View};
use crate::rules::storyteller::pool::TraitUse;
use crate::rules::storyteller::roll::{DieMark, GENERATED_DICE_CAP};
use crate::rules::storyteller::willpower::{GainReason, SpendPurpose};
use crate::rules::storyteller::{
    Event, FaceCounts, Outcome, Outcome3, PoolNote, RollKind, RollResult, RollSession, ZeroPool,
};

use super::buttons::RollButton;
use super::state::RollState;
use super::sheet_view::plural;
use super::{GM, KIND};
use crate::storage::sessions::Status;

/// Characters the full dice listing may use before it is summarised.
pub const DICE_BUDGET: usize = 1800;
/// Bonus generations listed one per line in a summary; beyond, one line.
const SUMMARY_GENERATIONS: usize = 8;

/// One face, marked: successes bold, botches struck, ignored bonus 1s italic.
pub fn face(value: u32, mark: DieMark) -> String {
    match mark {
        DieMark::Success => format!("**{value}**"),
        DieMark::Botch => format!("~~{value}~~"),
        DieMark::Ignored => format!("*{value}*"),
        DieMark::Failure => value.to_string(),
    }
}

fn faces(r: &RollResult, list: &[u32], bonus: bool) -> String {
    list.iter()
        .map(|&f| face(f, r.mark(f, bonus)))
        .collect::<Vec<_>>()
        .join(", ")
}

/// Every die, one line for the base dice and one per bonus generation.
pub fn full_listing(r: &RollResult) -> String {
    let mut lines = Vec::new();
    if r.chance_die {
        lines.push(format!(
            "**Chance die**: {} (only a 10 succeeds; a 1 botches)",
            faces(r, &r.base, false)
        ));
    } else {
        lines.push(format!(
            "**Base** ({}): {}",
            r.base.len(),
            faces(r, &r.base, false)
        ));
    }
    for (i, g) in r.bonus.iter().enumerate() {
        lines.push(format!(
            "**Bonus {}** ({}): {}",
            i + 1,
            g.len(),
            faces(r, g, true)
        ));
    }
    lines.join("\n")
}

fn counted(c: &FaceCounts, successes: u32, ones: u32, ones_word: &str) -> String {
    let mut s = format!(
        "{} → {successes} {}",
        c.compact(),
        plural(successes, "success", "successes")
    );
    if ones > 0 {
        s.push_str(&format!(", {ones} {ones_word}"));
    }
    s
}

/// Counts per face instead of every die (A-S11).
pub fn summary_listing(r: &RollResult) -> String {
    let mut lines = vec![format!(
        "**Base** ({} {}): {}",
        r.base.len(),
        plural(r.base.len() as u32, "die", "dice"),
        counted(
            &r.base_counts(),
            r.base_successes,
            r.botches,
            plural(r.botches, "botch", "botches")
        )
    )];
    let difficulty = r.spec.difficulty;
    let succ = |g: &[u32]| g.iter().filter(|&&f| f != 1 && f >= difficulty).count() as u32;
    let ones = |g: &[u32]| g.iter().filter(|&&f| f == 1).count() as u32;
    if r.bonus.len() <= SUMMARY_GENERATIONS {
        for (i, g) in r.bonus.iter().enumerate() {
            lines.push(format!(
                "**Bonus {}** ({}): {}",
                i + 1,
                g.len(),
                counted(&FaceCounts::of(g), succ(g), ones(g), "ignored 1s")
            ));
        }
    } else {
        lines.push(format!(
            "**Bonus** ({} dice in {} generations): {}",
            r.bonus_dice(),
            r.bonus.len(),
            counted(
                &r.bonus_counts(),
                r.bonus_successes,
                r.ignored_bonus_ones,
                "ignored 1s"
            )
        ));
    }
    lines.push("*Too many dice to list; every face is in the roll log.*".to_string());
    lines.join("\n")
}

/// The dice as shown: every face when it fits, else counts per face.
pub fn dice_text(r: &RollResult) -> (String, bool) {
    if r.auto_fail {
        return (
            "No dice to roll: an automatic simple failure, which cannot botch.".to_string(),
            false,
        );
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
            format!("Advanced specialty {specialty} required but not used: threshold +1.")
        }
        PoolNote::AdvancedSpecialtyUsed {
            specialty,
            added_automatically,
        } => format!(
            "Advanced specialty {specialty} used{}: no extra threshold.",
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

/// What happened after the dice, in words (willpower, incapacitation, …).
pub fn event_text(e: &Event, who: &str) -> Option<String> {
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

/// The automatic successes a purchase would have given, for a willpower
/// roll that closed at once because buying would not have raised it
/// (ST-11): no botch, at least 2 willpower, never offered.
fn spend_withheld(s: &RollSession) -> Option<u32> {
    let before = s.willpower_before?;
    let offered = s.log.iter().any(|e| matches!(e, Event::BuyOffered { .. }));
    (s.result.spec.kind == RollKind::Willpower
        && !offered
        && before >= 2
        && !s.result.outcome.is_botch())
    .then(|| u32::from(before - 1))
}

/// The outcome in words.
pub fn outcome_text(outcome: Outcome, automatic: bool) -> String {
    match outcome {
        Outcome::Success { successes } if automatic => format!(
            "✅ **Automatic success**: {successes} {}",
            plural(successes, "success", "successes")
        ),
        Outcome::Success { successes } => {
            let how = match successes {
                1 => " (barely)",
                s if s >= 3 => " (very good)",
                _ => "",
            };
            format!(
                "✅ **Success**: {successes} {}{how}",
                plural(successes, "success", "successes")
            )
        }
        Outcome::Failure => "➖ **Simple failure**".to_string(),
        Outcome::Botch { botches } => format!("💥 **Botch** of size {botches}"),
    }
}

/// The arithmetic from successes rolled to the net result (ST-5, ST-6).
pub fn successes_text(r: &RollResult) -> String {
    if r.auto_fail {
        return "None: no dice were rolled.".to_string();
    }
    let rolled = r.successes_rolled();
    let mut lines = vec![if r.bonus.is_empty() {
        format!("{rolled} rolled")
    } else {
        format!(
            "{rolled} rolled ({} base + {} bonus)",
            r.base_successes, r.bonus_successes
        )
    }];
    if r.spec.threshold > 0 {
        lines.push(format!(
            "−{} removed by threshold {}",
            r.threshold_removed, r.spec.threshold
        ));
    }
    if r.botches > 0 {
        let what = if r.cancelled == 0 {
            "nothing to cancel".to_string()
        } else {
            format!(
                "cancelling {} {}",
                r.cancelled,
                plural(r.cancelled, "success", "successes")
            )
        };
        lines.push(format!(
            "{} {}, {what}",
            r.botches,
            plural(r.botches, "botch", "botches")
        ));
    }
    if r.ignored_bonus_ones > 0 {
        lines.push(format!("Bonus-die 1s ignored: {}", r.ignored_bonus_ones));
    }
    lines.push(format!("Net: **{}**", minus(r.net)));
    lines.join("\n")
}

fn pool_text(kind: RollKind, traits: &[TraitUse], dice: u32) -> String {
    let n = format!("**{dice} {}**", plural(dice, "die", "dice"));
    match kind {
        RollKind::Action => {
            let parts: Vec<String> = traits
                .iter()
                .map(|t| format!("{} {}", t.name, t.dots))
                .collect();
            let sum: u32 = traits.iter().map(|t| u32::from(t.dots)).sum();
            if sum == dice {
                format!("{} = {n}", parts.join(" + "))
            } else {
                format!("{} = {sum} → {n}", parts.join(" + "))
            }
        }
        RollKind::Willpower | RollKind::Rest => format!("Current willpower = {n}"),
        RollKind::AdHoc => n,
    }
}

/// The title of a roll.
pub fn title(state: &RollState) -> String {
    let who = state.who();
    match state.session.result.spec.kind {
        RollKind::Action => format!("🎲 {who} rolls {}", state.label),
        RollKind::Willpower => format!("🎲 {who}: willpower roll"),
        RollKind::Rest => format!("🛏️ {who}: a day of active rest"),
        RollKind::AdHoc => format!("🎲 {who} rolls {}", state.label),
    }
}

/// The roll's embed. `status` is the session's (`open`, `closed`, `voided`,
/// `expired`).
pub fn roll_embed(id: i64, status: Status, state: &RollState, spend: Option<u8>) -> Embed {
    let s = &state.session;
    let r = &s.result;
    let spec = &r.spec;
    let (dice, listed) = dice_text(r);
    let mut description = String::new();
    for line in &state.before {
        description.push_str(line);
        description.push('\n');
    }
    description.push_str(&dice);
    let difficulty = if spec.success_possible() {
        spec.difficulty.to_string()
    } else {
        format!("{} (impossible)", spec.difficulty)
    };
    let specialties = if spec.specialties_in_use == 0 {
        "none".to_string()
    } else {
        let names = if spec.specialties.is_empty() {
            format!("{} in use", spec.specialties_in_use)
        } else {
            spec.specialties.join(", ")
        };
        format!(
            "{names} ({} bonus {} per 10)",
            spec.bonus_dice_per_ten,
            plural(spec.bonus_dice_per_ten, "die", "dice")
        )
    };
    let mut e = Embed::new(title(state))
        .description(description)
        .field("Pool", pool_text(spec.kind, &spec.traits, spec.dice), true)
        .field("Difficulty", difficulty, true)
        .field("Threshold", spec.threshold.to_string(), true);
    if spec.kind == RollKind::Action || spec.kind == RollKind::AdHoc {
        e = e.field("Specialties", specialties, true);
    }
    if !spec.notes.is_empty() {
        let notes: Vec<String> = spec.notes.iter().map(note_text).collect();
        e = e.field("Rules applied", super::sheet_view::fit(&notes, 1000), false);
    }
    e = e.field("Successes", successes_text(r), true);
    let outcome = if status == Status::Voided {
        format!("🚫 **Voided** by the {GM}: this roll does not count.")
    } else {
        outcome_text(s.outcome, s.automatic)
    };
    e = e.field("Outcome", outcome, true);
    let who = state.who();
    let after: Vec<String> = s.log.iter().filter_map(|ev| event_text(ev, who)).collect();
    if let (Some(b), Some(a)) = (s.willpower_before, s.willpower_after) {
        let first = match (status, spend) {
            (Status::Open, Some(n)) => format!(
                "{b} now · **Spend willpower**: 1 dot turns this roll into an automatic success with {n} {}.",
                plural(u32::from(n), "success", "successes")
            ),
            (Status::Open, None) => format!("{b} now"),
            _ if a == b => format!("{b} (unchanged)"),
            _ => format!("{b} → {a}"),
        };
        let mut lines = vec![first];
        lines.extend(after.iter().cloned());
        if let Some(n) = spend_withheld(s) {
            lines.push(format!(
                "No **Spend willpower**: it would give {n} {}, no more than this roll (ST-11).",
                plural(n, "success", "successes")
            ));
        }
        e = e.field("Willpower", super::sheet_view::fit(&lines, 1000), false);
    } else if !after.is_empty() {
        e = e.field("Afterwards", super::sheet_view::fit(&after, 1000), false);
    }
    e = e.field("Chance before rolling", odds_text(&state.odds), false);
    let mut footer = format!("Roll #{id}");
    match status {
        Status::Open => footer.push_str(" · Keep lets the roll stand."),
        Status::Expired => footer.push_str(" · Timed out: the roll stands as rolled."),
        _ => {}
    }
    if listed {
        footer.push_str(" · bold: success · struck: botch · italic: ignored bonus 1");
    }
    let c = match (status, s.outcome) {
        (Status::Open, _) => colour::PENDING,
        (Status::Voided, _) => colour::CLOSED,
        (_, Outcome::Success { .. }) => colour::SUCCESS,
        (_, Outcome::Failure) => colour::NEUTRAL,
        (_, Outcome::Botch { .. }) => colour::FAILURE,
    };
    e.colour(c).footer(footer)
}

/// The roll's message: the embed, and while the willpower choice is open,
/// its buttons. `spend` is the automatic success on offer (current
/// willpower − 1) when buying one is allowed now (ST-11), else `None`.
pub fn roll_view(
    id: i64,
    version: i64,
    status: Status,
    state: &RollState,
    spend: Option<u8>,
) -> View {
    let view = View::embed(roll_embed(id, status, state, spend));
    if status != Status::Open {
        return view;
    }
    let b = |button: RollButton| button.button(KIND, id, version).encode();
    let mut buttons = Vec::new();
    if spend.is_some() {
        buttons.push(Button::new(
            b(RollButton::Spend),
            "Spend willpower",
            Style::Success,
        ));
    }
    buttons.push(Button::new(b(RollButton::Keep), "Keep", Style::Secondary));
    buttons.push(Button::new(b(RollButton::Void), "Void (storyteller)", Style::Danger));
    view.buttons(buttons)
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
            "**Base** (5): ~~1~~, 4, **8**, **10**, **10**\n**Bonus 1** (2): *1*, **10**\n**Bonus 2** (1): **8**"
        );
        assert_eq!(
            successes_text(&r),
            "5 rolled (3 base + 2 bonus)\n1 botch, cancelling 1 success\nBonus-die 1s ignored: 1\nNet: **4**"
        );
        assert_eq!(
            outcome_text(r.outcome, false),
            "✅ **Success**: 4 successes (very good)"
        );
    }

    #[test]
    fn long_lists_become_counts_per_face() {
        let base: Vec<u32> = (0..100).map(|i| i % 10 + 1).collect();
        let bonus: Vec<Vec<u32>> = (0..30).map(|_| vec![10, 10, 3]).collect();
        let r = resolve(&spec(100, 6, 2, 2), base, bonus, false);
        let (text, listed) = dice_text(&r);
        assert!(!listed);
        assert!(text.contains("**Base** (100 dice): 10×10, 9×10"), "{text}");
        assert!(text.contains("90 dice in 30 generations"), "{text}");
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
        assert!(text.contains("2000 dice in 400 generations"), "{text}");
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
