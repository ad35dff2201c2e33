//! The check's message in the shared look (`table::look`): who checks
//! what as the author, the outcome as the title (`✅ Pass · 20 against
//! 10`, `⏳ Waiting for Ada · short by 2`), the d20 and the bonus d6s
//! first (the ignored ones dropped in brackets), the rules that fired,
//! bonus factors and what changed; the total and the target as the two
//! fields; with the buttons of the current step (none once it is over).

use super::buttons::{CheckButton, Draw};
use super::format::{factor_terms, percent, rank_label};
use super::state::CheckSession;
use super::GM;
use crate::app::view::{clean, count, escape, Embed, Row, Style, View};
use crate::kit::controls::{option, shown};
use crate::rules::venus::check::{
    difficulty_target, CheckPhase, CheckResult, CheckSubject, FactorKind, MAX_FACTORS,
    VE1_DIFFICULTIES,
};
use crate::rules::venus::odds::ve1_bonus_closes;
use crate::rules::venus::{CheckState, Edition};
use crate::storage::sessions::Status;
use crate::systems::table::look::{self, Mark, Outcome};

/// Edition 1's names of its absolute difficulties, in the order of
/// [`VE1_DIFFICULTIES`] (VE1-C1).
const VE1_NAMES: [&str; 5] = ["Routine", "Simple", "Tough", "Challenging", "Absurd"];

/// A target's difficulty with its name: `10 (Simple)`, `15 (difficulty 3)`,
/// or the bare number when it has none.
fn difficulty_text(edition: Option<Edition>, d: u32) -> String {
    let name = match edition {
        Some(Edition::One) => VE1_DIFFICULTIES
            .iter()
            .position(|&x| x == d)
            .map(|i| VE1_NAMES[i].into()),
        Some(Edition::Two) => (d % 5 == 0).then(|| format!("difficulty {}", d / 5)),
        None => None,
    };
    name.map_or(d.to_string(), |name| format!("{d} ({name})"))
}

fn target_text(edition: Option<Edition>, st: &CheckSession, c: Option<&CheckState>) -> String {
    let d = difficulty_target(st.setup.difficulty);
    let (factors, target) = match c {
        Some(c) => (&c.factors, c.target),
        None => (&st.setup.factors, st.setup.target()),
    };
    let base = difficulty_text(edition, d);
    format!("**{target}** = {base}{}", factor_terms(factors))
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

/// The title's outcome and text: waiting for whom, or the result with
/// its total (`✅ Pass · 20 against 10`, `💥 Fail · natural 1`).
pub fn outcome(st: &CheckSession, status: Status) -> (Outcome, String) {
    let who = st.roller.shown();
    let Some(c) = st.check.as_ref() else {
        return match &st.ended_before_roll {
            Some(w) => (Outcome::Closed, w.clone()),
            None if status == Status::Expired => (Outcome::Closed, "Timed out".into()),
            None => (Outcome::Pending, format!("Waiting for {who} to roll")),
        };
    };
    let against = format!("{} against {}", c.total(), c.target);
    use CheckResult as R;
    match c.result {
        None if status == Status::Expired => (Outcome::Closed, "Timed out".into()),
        None => (
            Outcome::Pending,
            format!("Waiting for {who} · short by {}", c.shortfall()),
        ),
        Some(R::AutoFailNatural1) => (Outcome::Botch, "Fail · natural 1".into()),
        Some(R::AutoPass) => (Outcome::Success, format!("Pass · natural {}", c.natural)),
        Some(R::Pass) => (Outcome::Success, format!("Pass · {against}")),
        Some(R::FailOutOfReach) => (Outcome::Failure, format!("Fail · {against}, out of reach")),
        Some(R::PassWithBonus) => (Outcome::Success, format!("Pass with the bonus · {against}")),
        Some(R::FailWithBonus) => (
            Outcome::Failure,
            format!("Fail even with the bonus · {against}"),
        ),
        Some(R::FailNoBonus) => (Outcome::Failure, format!("Fail · {against}")),
        Some(R::Cancelled) => (Outcome::Closed, "Cancelled".into()),
        Some(R::Voided) => (Outcome::Closed, format!("Voided by the {GM}")),
    }
}

/// The dice of a thrown check: the d20 (a pass bold, a natural 20 that
/// passes starred, a natural 1 that fails marked `✗`), then the bonus d6s,
/// the highest kept bold and the others dropped in brackets.
pub fn dice_line(c: &CheckState) -> String {
    let passed = c.passed();
    let mark = if c.result == Some(CheckResult::AutoFailNatural1) {
        Mark::Bad
    } else if c.result == Some(CheckResult::AutoPass) {
        Mark::Crit
    } else if passed {
        Mark::Hit
    } else {
        Mark::Miss
    };
    let mut line = format!("d20 {}", look::die(c.natural, mark));
    if !c.bonus_dice.is_empty() {
        let kept = c.kept_bonus_die();
        let faces: Vec<(u32, Mark)> = look::sorted(
            c.bonus_dice
                .iter()
                .enumerate()
                .map(|(i, &f)| {
                    let counted = Some(i) == kept;
                    (f, if counted { Mark::Hit } else { Mark::Dropped })
                })
                .collect(),
        );
        line.push_str(&format!(" · bonus d6 {}", look::dice(faces)));
    }
    line
}

/// The check's message: who checks what as the author, the outcome as
/// the title, the dice first, the total and the target as the two fields.
/// `id` is the session's (its buttons carry it), `number` the check's as
/// its readers see it in the footer ([`crate::app::secret::number`]).
pub fn view(id: i64, number: i64, version: i64, status: Status, st: &CheckSession) -> View {
    let c = st.check.as_ref();
    let edition = c.map(|c| c.edition).or(st.edition);
    let (kind, text) = outcome(st, status);
    let mut e = Embed::new(kind.title(&text)).author(author(st, c));
    let mut desc = Vec::new();
    if let Some(c) = c {
        desc.push(dice_line(c));
        desc.extend(rules_fired(c));
        if !c.bonus_factors.is_empty() {
            desc.push(format!("**Bonus factors:** {}", factor_lines(c).join("; ")));
        }
    }
    let passed = c.is_some_and(CheckState::passed);
    if !passed && !st.setup.consequence.trim().is_empty() {
        let label = if c.and_then(|c| c.result).is_some() {
            "It fails"
        } else {
            "If it fails"
        };
        desc.push(format!("**{label}:** {}", st.setup.consequence.trim()));
    }
    if !st.changes.is_empty() {
        desc.push(st.changes.join("\n"));
    }
    if status == Status::Open {
        match c {
            None if st.ended_before_roll.is_none() => desc.push(format!(
                "-# {} throws the d20 with **Roll d20**; the {GM} can still adjust the check.",
                st.roller.shown()
            )),
            Some(c) if c.phase == CheckPhase::AwaitingBonus => {
                desc.push(format!("-# {}", bonus_offer(c)));
            }
            _ => {}
        }
    }
    if status == Status::Expired {
        desc.push("**Timed out**: nothing more can be done with this check.".into());
    }
    if let Some(c) = c {
        e = e.field("Total", total_text(c), true);
    }
    e = e.field("Target", target_text(edition, st, c), true);
    if !desc.is_empty() {
        e = e.description(desc.join("\n"));
    }
    let mut footer = format!(
        "Venus Engine{} · check #{number}",
        edition.map(|e| format!(" edition {e}")).unwrap_or_default()
    );
    if let Some(n) = &st.note {
        footer.push_str(&format!(" · {n}"));
    }
    e = e.footer(footer).colour(kind.colour());
    let v = View::embed(e);
    if status != Status::Open {
        return v;
    }
    with_buttons(v, id, version, st)
}

/// "Ada · Wits check" (or "Guard: Wits · NPC check").
fn author(st: &CheckSession, c: Option<&CheckState>) -> String {
    match (&st.setup.subject, c) {
        (CheckSubject::AdHoc { name, .. }, _) => format!("{name} · NPC check"),
        (_, Some(c)) => format!("{} · {} check", st.roller.name, c.ability),
        (CheckSubject::Sheet { ability }, None) => {
            format!("{} · {} check", st.roller.name, ability.trim())
        }
    }
}

/// "17 + 3 Wits (🟤 Bronze) + 4 (bonus) = **24**". An NPC check's ad-hoc
/// name is the NPC's name, the roller's (`Guard: Wits`): it reads as
/// names do in prose ([`clean`]), as in the title; an ability's name shows
/// as typed ([`escape`]).
fn total_text(c: &CheckState) -> String {
    let what = if c.npc {
        clean(&c.ability)
    } else {
        escape(&c.ability)
    };
    let mut t = format!(
        "{} + {} {what} ({})",
        c.natural,
        c.score,
        rank_label(c.rank)
    );
    if !c.bonus_dice.is_empty() || c.bonus > 0 {
        t.push_str(&format!(" + {} (bonus)", c.bonus));
    }
    format!("{t} = **{}**", c.total())
}

/// What a short check may still do (with the chances per number of
/// factors, edition 1); once some are claimed, how many are left.
fn bonus_offer(c: &CheckState) -> String {
    let s = c.shortfall();
    let up_to = match c.bonus_factors.len() {
        0 => format!("Claim up to {MAX_FACTORS} bonus factors"),
        n => format!(
            "{} claimed, up to {} more",
            count(n as u32, "bonus factor", "bonus factors"),
            c.factors_left()
        ),
    };
    match c.edition {
        Edition::One => {
            let odds: Vec<String> = (1..=4)
                .map(|k| format!("{k}: {}", percent(ve1_bonus_closes(s, k))))
                .collect();
            format!(
                "Short by **{s}**. {up_to} (a Lot counts as one); one d6 each, the highest is added. Chance by number of factors: {}",
                odds.join(" · ")
            )
        }
        Edition::Two => format!(
            "Short by **{s}**. {up_to}, +1 each (+2 when multiples apply), at most +8. Lots and Ego cannot be spent on checks in edition 2."
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
            let wait = match f.approved {
                true => String::new(),
                false => format!(" — awaiting the {GM}"),
            };
            format!("{} ({kind}{worth}){wait}", escape(&f.name))
        })
        .collect()
}

/// The buttons of an open check: **Roll d20** before the roll; the bonus
/// menu and buttons while short; none once it is decided.
fn with_buttons(mut v: View, id: i64, version: i64, st: &CheckSession) -> View {
    let d = Draw::new(id, version);
    match st.check.as_ref() {
        None => {
            v = v.buttons(vec![
                d.b(CheckButton::Roll, "Roll d20", Style::Primary),
                d.b(CheckButton::Cancel, "Cancel", Style::Secondary),
                d.b(CheckButton::Void, "Void", Style::Danger).gm_only(),
            ]);
        }
        Some(c) if c.phase == CheckPhase::AwaitingBonus => {
            v.rows.extend(bonus_menu(&d, st, c));
            let resolve = match c.edition {
                Edition::One => "Roll bonus dice",
                Edition::Two => "Add the bonus",
            };
            let mut row = vec![d.b(CheckButton::Resolve, resolve, Style::Primary)];
            if !c.bonus_factors.is_empty() {
                row.push(d.b(CheckButton::Clear, "Clear factors", Style::Secondary));
            }
            row.push(d.b(CheckButton::Fail, "Accept failure", Style::Secondary));
            row.push(d.b(CheckButton::Cancel, "Cancel", Style::Secondary));
            v = v.buttons(row);
            let approve = d.b(CheckButton::Approve, "Approve factors", Style::Success);
            let unapproved = c.bonus_factors.iter().any(|f| !f.approved);
            v.rows.push(d.gm_row(shown([(unapproved, approve)])));
        }
        Some(_) => {}
    }
    v
}

/// The "Bonus factors" menu: the options still open, as many picks as
/// factors may still be claimed; `None` when full.
fn bonus_menu(d: &Draw<CheckButton>, st: &CheckSession, c: &CheckState) -> Option<Row> {
    let room = c.factors_left();
    // The menu offers one "Spend a Lot" per Lot the sheet held when built;
    // the first as many as are still open stay ("Spend a Lot (2)"
    // disappears once one Lot is claimed).
    let lot_total = st.menu.iter().filter(|m| m.kind == FactorKind::Lot).count();
    let mut open_lots = 0..c.lots_left(u32::try_from(lot_total).unwrap_or(u32::MAX));
    let options: Vec<_> = st
        .menu
        .iter()
        .filter(|o| o.kind != FactorKind::Lot || open_lots.next().is_some())
        .map(|o| option(&o.label, o.value.clone(), None))
        .collect();
    if room == 0 || options.is_empty() {
        return None;
    }
    Some(d.select(CheckButton::Bonus, "Bonus factors", options, room))
}
