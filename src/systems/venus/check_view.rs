//! The check's message: target and its factors, the natural d20, score,
//! the automatic-pass/fail rules that fired, bonus factors and dice, the
//! result; with the buttons of the current step (none once it is over).

use super::buttons::{custom_id, CheckButton};
use super::format::{check_target, factor_sum, percent, rank_label};
use super::state::CheckSession;
use crate::app::view::{colour, Button, Embed, Row, Select, SelectOption, Style, View};
use crate::rules::venus::check::{CheckPhase, CheckResult, CheckSubject, FactorKind, MAX_FACTORS};
use crate::rules::venus::{CheckState, Edition};
use crate::storage::sessions::Status;

fn difficulty_name(edition: Edition, d: u32) -> String {
    match (edition, d) {
        (Edition::One, 5) => "Routine".into(),
        (Edition::One, 10) => "Simple".into(),
        (Edition::One, 15) => "Tough".into(),
        (Edition::One, 20) => "Challenging".into(),
        (Edition::One, 25) => "Absurd".into(),
        (Edition::Two, d) if d % 5 == 0 => format!("difficulty {}", d / 5),
        _ => String::new(),
    }
}

fn target_text(edition: Option<Edition>, st: &CheckSession, c: Option<&CheckState>) -> String {
    let d = check_target(st.setup.difficulty);
    let (factors, target) = match c {
        Some(c) => (&c.factors, c.target),
        None => (
            &st.setup.factors,
            d + st.setup.factors.iter().map(|f| f.value).sum::<u32>(),
        ),
    };
    let name = edition.map(|e| difficulty_name(e, d)).unwrap_or_default();
    let base = if name.is_empty() {
        d.to_string()
    } else {
        format!("{d} ({name})")
    };
    let sum = factor_sum(0, factors);
    let rest = sum.strip_prefix('0').unwrap_or("");
    format!("**{target}** = {base}{rest}")
}

fn range(min: Option<u32>) -> String {
    match min {
        None => "never".into(),
        Some(20) => "a natural 20".into(),
        Some(m) => format!("a natural {m}-20"),
    }
}

/// The lines saying which natural-roll rules fired.
pub fn rules_fired(c: &CheckState) -> Vec<String> {
    let mut out = Vec::new();
    if c.natural == 1 {
        if c.nat1_fails {
            out.push("Natural 1: automatic fail, no bonus can save it.".to_string());
        } else {
            out.push(format!(
                "Natural 1, but a {} ability does not fail on it.",
                c.rank
            ));
        }
    }
    if c.result == Some(CheckResult::AutoPass) {
        out.push(format!(
            "Natural {}: automatic pass ({} passes on {}).",
            c.natural,
            c.rank,
            range(c.autopass_min)
        ));
    }
    if c.result == Some(CheckResult::FailOutOfReach) {
        out.push(format!(
            "Short by {}: more than the best bonus (+{}) can close.",
            c.shortfall(),
            c.max_bonus()
        ));
    }
    out
}

fn result_text(r: CheckResult) -> &'static str {
    match r {
        CheckResult::AutoFailNatural1 => "❌ **Fail** (natural 1)",
        CheckResult::AutoPass => "✅ **Pass** (automatic)",
        CheckResult::Pass => "✅ **Pass**",
        CheckResult::FailOutOfReach => "❌ **Fail** (out of reach of a bonus)",
        CheckResult::PassWithBonus => "✅ **Pass** with the bonus",
        CheckResult::FailWithBonus => "❌ **Fail** even with the bonus",
        CheckResult::FailNoBonus => "❌ **Fail**",
        CheckResult::Cancelled => "Cancelled",
        CheckResult::Voided => "Voided by the FC",
    }
}

fn kind_word(k: FactorKind) -> &'static str {
    match k {
        FactorKind::Environment => "environment",
        FactorKind::Attribute => "attribute",
        FactorKind::Ally => "ally",
        FactorKind::Lot => "Lot",
        FactorKind::Ego => "Ego",
        FactorKind::Other => "other",
    }
}

/// The chance that `k` bonus d6 close a shortfall of `s` (edition 1).
fn d6_close(s: u32, k: u32) -> f64 {
    if s == 0 {
        return 1.0;
    }
    1.0 - (f64::from(s.min(7) - 1) / 6.0).powi(k as i32)
}

/// The check's message.
pub fn view(id: i64, version: i64, status: Status, st: &CheckSession) -> View {
    let c = st.check.as_ref();
    let edition = c.map(|c| c.edition).or(st.edition);
    let mut desc = Vec::new();
    if !st.setup.consequence.trim().is_empty() {
        desc.push(format!("*If it fails:* {}", st.setup.consequence.trim()));
    }
    let mut e = Embed::new(title(st, c));
    let mut col = colour::PENDING;
    e = e.field("Target", target_text(edition, st, c), true);
    match c {
        None => match &st.ended_before_roll {
            Some(w) => {
                desc.push(format!("**{w}.**"));
                col = colour::CLOSED;
            }
            None => desc.push(format!(
                "Waiting for {} to throw the d20{}.",
                st.roller.name,
                if st.called_by.is_some() {
                    " (called by the FC, who can still adjust it)"
                } else {
                    " (the FC can still adjust it)"
                }
            )),
        },
        Some(c) => {
            e = rolled_fields(e, c, status);
            if let Some(r) = c.result {
                e = e.field("Result", result_text(r), false);
                col = result_colour(r);
            }
        }
    }
    if !st.changes.is_empty() {
        e = e.field("What changed", st.changes.join("\n"), false);
    }
    if status == Status::Expired {
        desc.push("**Timed out**: nothing more can be done with this check.".into());
        col = colour::CLOSED;
    }
    if !desc.is_empty() {
        e = e.description(desc.join("\n"));
    }
    let mut footer = format!(
        "Venus Engine{} · check #{id}",
        edition.map(|e| format!(" edition {e}")).unwrap_or_default()
    );
    if let Some(n) = &st.note {
        footer.push_str(&format!(" · {n}"));
    }
    e = e.footer(footer).colour(col);
    let v = View::embed(e);
    if status != Status::Open {
        return v;
    }
    with_buttons(v, id, version, st)
}

/// "🎲 Check — roller: ability" (or "NPC check — name").
fn title(st: &CheckSession, c: Option<&CheckState>) -> String {
    match (&st.setup.subject, c) {
        (CheckSubject::AdHoc { name, .. }, _) => format!("🎲 NPC check — {name}"),
        (_, Some(c)) => format!("🎲 Check — {}: {}", st.roller.name, c.ability),
        (CheckSubject::Sheet { ability }, None) => {
            format!("🎲 Check — {}: {}", st.roller.name, ability.trim())
        }
    }
}

/// The colour of a result.
fn result_colour(r: CheckResult) -> u32 {
    if r.passed() {
        colour::SUCCESS
    } else if matches!(r, CheckResult::Cancelled | CheckResult::Voided) {
        colour::CLOSED
    } else {
        colour::FAILURE
    }
}

/// The fields of a thrown check: ability, d20, total, the rules that
/// fired, the bonus offer, the factors claimed and the bonus dice.
fn rolled_fields(mut e: Embed, c: &CheckState, status: Status) -> Embed {
    e = e
        .field(
            "Ability",
            format!("{} {}", rank_label(c.rank), c.score),
            true,
        )
        .field("d20", format!("**{}**", c.natural), true);
    let total = c.sum + c.bonus;
    let mut t = format!("{} + {}", c.natural, c.score);
    if !c.bonus_dice.is_empty() || c.bonus > 0 {
        t.push_str(&format!(" + {} (bonus)", c.bonus));
    }
    e = e.field(
        "Total",
        format!("{t} = **{total}** against {}", c.target),
        true,
    );
    let fired = rules_fired(c);
    if !fired.is_empty() {
        e = e.field("Rules", fired.join("\n"), false);
    }
    if c.phase == CheckPhase::AwaitingBonus && status == Status::Open {
        e = e.field("Bonus", bonus_offer(c), false);
    }
    if !c.bonus_factors.is_empty() {
        e = e.field("Bonus factors", factor_lines(c).join("\n"), false);
    }
    if !c.bonus_dice.is_empty() {
        let faces: Vec<String> = c.bonus_dice.iter().map(|d| d.to_string()).collect();
        e = e.field(
            "Bonus dice",
            format!("[{}] → highest **+{}**", faces.join(", "), c.bonus),
            false,
        );
    }
    e
}

/// What a short check may still do (with the chances per number of
/// factors, edition 1).
fn bonus_offer(c: &CheckState) -> String {
    let s = c.shortfall();
    match c.edition {
        Edition::One => {
            let odds: Vec<String> = (1..=4)
                .map(|k| format!("{k}: {}", percent(d6_close(s, k))))
                .collect();
            format!(
                "Short by **{s}**. Claim up to 4 bonus factors (a Lot counts as one); one d6 each, the highest is added.\nChance per number of factors: {}",
                odds.join(" · ")
            )
        }
        Edition::Two => format!(
            "Short by **{s}**. Claim up to 4 bonus factors, +1 each (+2 when multiples apply), at most +8. Lots and Ego cannot be spent on checks in edition 2."
        ),
    }
}

/// One line per bonus factor claimed.
fn factor_lines(c: &CheckState) -> Vec<String> {
    c.bonus_factors
        .iter()
        .map(|f| {
            let worth = match c.edition {
                Edition::One => "d6".to_string(),
                Edition::Two => format!("+{}", f.value),
            };
            let kind = if f.kind == FactorKind::Lot {
                String::new()
            } else {
                format!("{}, ", kind_word(f.kind))
            };
            let wait = if f.approved {
                ""
            } else {
                " — awaiting the FC"
            };
            format!("• {} ({kind}{worth}){wait}", f.name)
        })
        .collect()
}

/// The buttons of an open check: **Roll d20** before the roll; the bonus
/// menu and buttons while short; none once it is decided.
fn with_buttons(mut v: View, id: i64, version: i64, st: &CheckSession) -> View {
    let b = |button: CheckButton, label: &str, style| {
        Button::new(custom_id(&button, id, version), label, style)
    };
    match st.check.as_ref() {
        None => {
            v = v.buttons(vec![
                b(CheckButton::Roll, "Roll d20", Style::Primary),
                b(CheckButton::Cancel, "Cancel", Style::Secondary),
                b(CheckButton::Void, "Void", Style::Danger),
            ]);
        }
        Some(c) if c.phase == CheckPhase::AwaitingBonus => {
            let menu = custom_id(&CheckButton::Bonus, id, version);
            v.rows.extend(bonus_menu(st, c, menu));
            let resolve = match c.edition {
                Edition::One => "Roll bonus dice",
                Edition::Two => "Add the bonus",
            };
            let mut row = vec![b(CheckButton::Resolve, resolve, Style::Primary)];
            if !c.bonus_factors.is_empty() {
                row.push(b(CheckButton::Clear, "Clear factors", Style::Secondary));
            }
            row.push(b(CheckButton::Fail, "Accept failure", Style::Secondary));
            row.push(b(CheckButton::Cancel, "Cancel", Style::Secondary));
            v = v.buttons(row);
            let mut fc = Vec::new();
            if c.bonus_factors.iter().any(|f| !f.approved) {
                fc.push(b(CheckButton::Approve, "Approve factors", Style::Success));
            }
            fc.push(b(CheckButton::Void, "Void", Style::Danger));
            fc.push(b(CheckButton::Force, "Force close", Style::Danger));
            v = v.buttons(fc);
        }
        Some(_) => {}
    }
    v
}

/// The "Bonus factors" menu: the options still open, as many picks as
/// factors may still be claimed; `None` when full.
fn bonus_menu(st: &CheckSession, c: &CheckState, custom_id: String) -> Option<Row> {
    let room = MAX_FACTORS.saturating_sub(c.bonus_factors.len());
    let lot_total = st.menu.iter().filter(|m| m.kind == FactorKind::Lot).count();
    let lots_left = lot_total.saturating_sub(c.lot_factors() as usize);
    let options: Vec<SelectOption> = st
        .menu
        .iter()
        .filter(|o| {
            // "Spend a Lot (2)" disappears once one Lot is claimed.
            o.kind != FactorKind::Lot
                || o.value
                    .trim_start_matches("lot")
                    .parse::<usize>()
                    .is_ok_and(|j| j <= lots_left)
        })
        .map(|o| SelectOption {
            label: o.label.clone(),
            value: o.value.clone(),
            description: None,
        })
        .collect();
    if room == 0 || options.is_empty() {
        return None;
    }
    let max = room.min(options.len()) as u8;
    Some(Row::Select(Select {
        custom_id,
        placeholder: "Bonus factors".into(),
        options,
        min: 1,
        max,
    }))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bonus_chances_match_best_of_d6() {
        assert!((d6_close(3, 1) - 4.0 / 6.0).abs() < 1e-12);
        assert!((d6_close(6, 2) - (1.0 - 25.0 / 36.0)).abs() < 1e-12);
        assert_eq!(d6_close(0, 1), 1.0);
    }
}
