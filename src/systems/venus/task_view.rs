//! The task's message in the shared look (`table::look`): the author line
//! says who rolls what, the title states the outcome (`⏳ Waiting for Ada
//! to roll`, `✅ Success · 3 beats`, `❌ Failure · 1 of 3 beats`) and picks
//! the colour; the description opens with the dice grouped by owner and
//! marked (beats bold, a KISSed die's old face dropped in brackets), then
//! what failure means, allies, KISSes, purchases, the outcome's details,
//! what changed and what to do now; the pool with its threshold and the
//! chance are the two fields. With the buttons and menus of the current
//! step (the FC's tools marked `gm_only`; none once it is over). Also the
//! "after the task" summary of where everyone stands.

use super::buttons::{Consequence, Draw, TaskButton};
use super::format::{cut, factor_terms, level_text, lot_pips, percent, rank_label, rank_mark};
use super::sheet_view::job_line;
use super::state::TaskSession;
use super::GM;
use crate::app::view::{count, escape, Button, Embed, Row, Style, View};
use crate::kit::controls::{option, shown};
use crate::rules::venus::task::{
    AidStatus, CloseKind, Crit, EgoMode, KissSource, Purchase, TaskDie, TaskPhase, SECONDARY,
    TERTIARY,
};
use crate::rules::venus::{Edition, TaskState, VenusCtx};
use crate::storage::sessions::Status;
use crate::systems::table::look::{self, Mark, Outcome};

/// Faces listed one by one up to this many dice per owner; beyond, counts.
const LIST_DICE: usize = 40;

/// Short labels of S1-S4 and T1-T4 for buttons.
const SECONDARY_SHORT: [&str; 4] = ["Not hurt", "Graceful", "No one at risk", "Nothing lost"];
const TERTIARY_SHORT: [&str; 4] = ["Extra prize", "+1 exp", "+1 Lot", "Welcome surprise"];

/// What a task's dice strike, one and many: beats (edition 1) or passes
/// (edition 2).
fn beat_words(edition: Edition) -> (&'static str, &'static str) {
    match edition {
        Edition::One => ("beat", "beats"),
        Edition::Two => ("pass", "passes"),
    }
}

/// `n` beats or passes: "1 beat", "3 passes".
fn beats(edition: Edition, n: u32) -> String {
    let (one, many) = beat_words(edition);
    count(n, one, many)
}

/// One die marked with the shared look: a beat (or pass) bold, a miss
/// plain, a 6 that strikes two beats (a 10 that counts twice) with a star;
/// a KISSed die shows the face it replaced in brackets first (`(1)→**4**`),
/// a die added by an explosion is marked `↯`.
fn die_text(d: &TaskDie, t: &TaskState) -> String {
    let v = d.value(t.edition, t.ego_mode);
    let mark = match v {
        0 => Mark::Miss,
        1 => Mark::Hit,
        _ => Mark::Crit,
    };
    let mut face = look::die(d.face, mark);
    if let Some(old) = d.kissed_from() {
        face = format!("{}→{face}", look::die(old, Mark::Dropped));
    }
    if d.exploded_from.is_some() {
        face = format!("↯{face}");
    }
    face
}

/// The dice as one line, grouped by owner (bare when the roller alone
/// rolled), each owner's dice in rolling order (very large pools: counts
/// per face).
pub fn dice_line(st: &TaskSession) -> String {
    let t = &st.task;
    let mut owners: Vec<i64> = Vec::new();
    for d in &t.dice {
        if !owners.contains(&d.owner) {
            owners.push(d.owner);
        }
    }
    let alone = owners.len() == 1 && owners[0] == t.roller;
    let groups: Vec<(String, String)> = owners
        .into_iter()
        .map(|o| {
            let dice: Vec<&TaskDie> = t.dice.iter().filter(|d| d.owner == o).collect();
            let body = if dice.len() <= LIST_DICE {
                dice.iter()
                    .map(|d| die_text(d, t))
                    .collect::<Vec<_>>()
                    .join(" ")
            } else {
                let mut counts = std::collections::BTreeMap::new();
                for d in &dice {
                    *counts
                        .entry((d.face, d.succeeds(t.edition)))
                        .or_insert(0u32) += 1;
                }
                let parts: Vec<String> = counts
                    .iter()
                    .rev()
                    .map(|((f, hit), n)| {
                        let m = if *hit { Mark::Hit } else { Mark::Miss };
                        format!("{}×{n}", look::die(*f, m))
                    })
                    .collect();
                format!("{} dice: {}", dice.len(), parts.join(" "))
            };
            let name = if alone { String::new() } else { st.shown_of(o) };
            (name, body)
        })
        .collect();
    look::owned(&groups)
}

fn kiss_source_text(s: &KissSource) -> String {
    match s {
        KissSource::Lot => "a Lot".into(),
        KissSource::Insight { insight } => format!("insight “{}”", cut(insight, 40)),
        KissSource::Stunt => "a stunt".into(),
        KissSource::Specialty { attribute } => format!("specialty “{}”", cut(attribute, 40)),
        KissSource::Ego => "Ego".into(),
    }
}

/// What the closed task came to, beyond its title: the failure's
/// consequence, margin and criticals, a force-close or a void.
fn outcome_lines(st: &TaskSession) -> Vec<String> {
    let t = &st.task;
    let mut out = Vec::new();
    if t.close_kind == Some(CloseKind::Voided) {
        out.push(format!(
            "Voided by the {GM}: no exp, spent Lots and Ego given back."
        ));
        return out;
    }
    let Some(o) = t.outcome.as_ref() else {
        return out;
    };
    if !o.success {
        if t.edition == Edition::One && o.declined_primary {
            out.push(format!(
                "{} did not buy the primary consequence.",
                st.roller.shown()
            ));
        }
        let c = t.consequence.trim();
        if !c.is_empty() {
            out.push(format!("**It fails:** {c}"));
        }
    }
    if let Some(m) = o.margin_percent {
        out.push(format!("Margin {m}%"));
    }
    if t.close_kind == Some(CloseKind::ForceClosed) {
        out.push(format!("Force-closed by the {GM}."));
    }
    out
}

/// The title's outcome and text: waiting for whom, or what the task came to
/// (`✅ Success · 3 beats`, `❌ Failure · 2 of 3 beats`).
pub fn outcome(st: &TaskSession, status: Status) -> (Outcome, String) {
    let t = &st.task;
    let r = st.roller.shown();
    let n = t.successes();
    let need = t.threshold;
    if t.close_kind == Some(CloseKind::Voided) {
        return (Outcome::Closed, "Voided".into());
    }
    if status == Status::Expired && t.phase != TaskPhase::Closed {
        return (Outcome::Closed, "Timed out".into());
    }
    let of = format!("{n} of {}", beats(t.edition, need));
    let waiting = match t.phase {
        TaskPhase::AidOffers => {
            let pending: Vec<String> = t.pending_allies().map(|a| st.shown_of(a.id)).collect();
            if pending.is_empty() {
                format!("{r} to roll")
            } else {
                format!("{r} to answer {}", pending.join(" and "))
            }
        }
        TaskPhase::KissDeclaration => format!("{r} · KISS · {of}"),
        TaskPhase::EgoOffer => format!("{r} · Ego? · {of}"),
        TaskPhase::Spending => match t.beats_left() {
            0 => format!("{r} to finish"),
            left => format!("{r} to spend {}", beats(t.edition, left)),
        },
        TaskPhase::GmSubversion => format!("the {GM}"),
        TaskPhase::Closed => return closed(t),
    };
    (Outcome::Pending, format!("Waiting for {waiting}"))
}

/// What a closed task came to (`✅ Success · 3 beats`).
fn closed(t: &TaskState) -> (Outcome, String) {
    let Some(o) = &t.outcome else {
        return (Outcome::Closed, "Closed".into());
    };
    // A critical success always succeeds, a critical failure always fails
    // (VE2-T11).
    let (kind, lead) = match o.crit {
        Some(Crit::Success) => (Outcome::Success, "Critical success"),
        Some(Crit::Failure) => (Outcome::Botch, "Critical failure"),
        None if o.success => (Outcome::Success, "Success"),
        None => (Outcome::Failure, "Failure"),
    };
    let count = beats(t.edition, o.successes);
    let text = if o.success {
        format!("{lead} · {count}")
    } else if t.edition == Edition::One && o.declined_primary {
        format!("{lead} · {count}, primary not bought")
    } else {
        let need = beats(t.edition, o.threshold);
        format!("{lead} · {} of {need}", o.successes)
    };
    (kind, text)
}

/// What to do now, and who does it (empty once nothing is left).
fn phase_hint(st: &TaskSession) -> String {
    let t = &st.task;
    let r = st.roller.shown();
    let subvert = |still: &str| {
        format!("The {GM} may {still}turn one secondary consequence {r} did not buy against them")
    };
    match t.phase {
        TaskPhase::AidOffers => format!(
            "Allies: **Offer aid** (up to {}, a job of level 1+ inheriting {}), taken at once; {r} may **Refuse** it, then **Roll**.",
            t.max_allies(),
            escape(&t.ability)
        ),
        TaskPhase::KissDeclaration => match t.edition {
            Edition::One => format!(
                "One KISS round: allies pick first, then {r}'s pick in the KISS menu re-rolls at once (each die once; allies' dice need their consent; a stunt or an insight waits for **Re-roll**). Nothing to KISS: **No KISS**."
            ),
            Edition::Two => format!(
                "Still short: one KISS round. Allies pick their own dice first, then {r}'s pick in the KISS menu re-rolls at once (a stunt or an insight waits for **Re-roll**). Nothing to KISS: **No KISS**."
            ),
        },
        TaskPhase::Spending => format!(
            "{r} spends the beats: **Primary** (success) costs {}, every other consequence 1 beat. Spending the last beat finishes; **Finish** earlier loses the rest.",
            t.cost_of(Purchase::Primary)
        ),
        TaskPhase::GmSubversion => format!("{}, or pass.", subvert("")),
        TaskPhase::EgoOffer => format!(
            "Still short. {r} may spend Ego: every 10 on the table counts as two passes."
        ),
        TaskPhase::Closed if st.subversion_open => format!("{}.", subvert("still ")),
        TaskPhase::Closed => String::new(),
    }
}

/// The task's message: `author` who rolls what, the outcome as the
/// title, the dice as the first line, the pool and threshold and the
/// chance as the two fields. `id` is the session's (its buttons carry
/// it), `number` the task's as its readers see it in the footer
/// ([`crate::app::secret::number`]).
pub fn view(id: i64, number: i64, version: i64, status: Status, st: &TaskSession) -> View {
    let t = &st.task;
    let (kind, text) = outcome(st, status);
    let mut e = Embed::new(kind.title(&text)).author(author(st));
    let mut pool = pool_text(t);
    // The task's difficulty (always 1 in edition 1, VE1-T2).
    let base = t.difficulty;
    let terms = factor_terms(&t.factors);
    pool.push_str(&format!("\nThreshold **{}** = {base}{terms}", t.threshold));
    if t.crits_active() {
        pool.push_str("\nCriticals on (margin and critical results)");
    }
    e = e.field("Pool", pool, true);
    if let Some(chance) = chance_text(st) {
        e = e.field("Chance", chance, true);
    }
    let desc = description(st, status);
    if !desc.is_empty() {
        e = e.description(cut(&desc.join("\n"), 4000));
    }
    let mut footer = format!("Venus Engine edition {} · task #{number}", t.edition);
    if let Some(n) = &st.note {
        footer.push_str(&format!(" · {n}"));
    }
    e = e.footer(footer).colour(kind.colour());
    let mut v = View::embed(e);
    if status == Status::Open && (t.phase != TaskPhase::Closed || st.subversion_open) {
        v.rows = rows(id, version, st);
    }
    v
}

/// "Ada · Finesse task via Thief (level 3)".
fn author(st: &TaskSession) -> String {
    let t = &st.task;
    let level = level_text(t.job_level, t.learning);
    format!(
        "{} · {} task via {} ({level})",
        st.roller.name, t.ability, t.job
    )
}

/// The dice first, then what failure means, the allies, KISSes,
/// purchases, the outcome's details, what changed and what to do now.
fn description(st: &TaskSession, status: Status) -> Vec<String> {
    let t = &st.task;
    let mut desc = Vec::new();
    if !t.dice.is_empty() {
        desc.push(dice_line(st));
    }
    if let Some(extra) = count_extra(t) {
        desc.push(extra);
    }
    let closed = t.phase == TaskPhase::Closed;
    if !closed && !t.consequence.trim().is_empty() {
        desc.push(format!("**If it fails:** {}", t.consequence.trim()));
    }
    if let Some(allies) = allies_text(st) {
        desc.push(allies);
    }
    desc.extend(kiss_lines(st));
    if !t.purchases.is_empty() {
        let bought: Vec<String> = t
            .purchases
            .iter()
            .map(|b| format!("{} ({})", b.text, beats(Edition::One, b.cost)))
            .collect();
        desc.push(format!("**Bought:** {}", bought.join("; ")));
    }
    if let Some(n) = t.subversion {
        let what = subversion_text(st, n);
        desc.push(format!("**Subverted by the {GM}:** {what}"));
    }
    desc.extend(outcome_lines(st));
    if !st.changes.is_empty() {
        desc.push(st.changes.join("\n"));
    }
    let hint = phase_hint(st);
    if status == Status::Open && !hint.is_empty() {
        desc.push(format!("-# {hint}"));
    }
    if status == Status::Expired {
        desc.push("**Timed out**: nothing more can be done with this task.".into());
    }
    desc
}

/// The pool: dice, rank and what counts, learning, caps, explosions, allies.
fn pool_text(t: &TaskState) -> String {
    let (die, min) = match t.edition {
        Edition::One => ("D6", format!("beat on {}+", t.rank.d6_beat_min())),
        Edition::Two => ("D10", format!("pass on {}+", t.rank.d10_pass_min())),
    };
    let mut pool = format!(
        "{}: {} {die} · {} ({min})",
        escape(&t.ability),
        t.pool,
        rank_label(t.rank)
    );
    if t.learning {
        pool.push_str(&format!(
            " · the {} score, while learning",
            escape(&t.ability)
        ));
    }
    if let Some(from) = t.pool_capped_from {
        pool.push_str(&format!(" · capped from {from}"));
    }
    if t.magic {
        pool.push_str(match t.edition {
            Edition::One => " · 6s explode (house rule)",
            Edition::Two => " · 10s explode",
        });
    }
    let allies_in = t.accepted_allies().count() as u32;
    if allies_in > 0 {
        let dice = count(allies_in, "ally die", "ally dice");
        pool.push_str(&format!(" · + {dice}"));
    }
    pool
}

/// One line per ally (withdrawn offers only before the roll).
fn allies_text(st: &TaskSession) -> Option<String> {
    let t = &st.task;
    let lines: Vec<String> = t
        .allies
        .iter()
        .filter(|a| match t.phase {
            TaskPhase::AidOffers => true,
            TaskPhase::KissDeclaration => a.status == AidStatus::Accepted,
            _ => {
                a.status == AidStatus::Accepted
                    && (a.demand.is_some() || a.rank_overridden || a.magic)
            }
        })
        .map(|a| {
            let status = match a.status {
                AidStatus::Offered => format!("offered, waiting for {}", st.roller.shown()),
                AidStatus::Accepted => "accepted".into(),
                AidStatus::Refused => "refused".into(),
                AidStatus::Withdrawn => "withdrawn".into(),
            };
            let mut s = format!(
                "{} **{}** — {} · {status}",
                rank_mark(a.rank),
                st.shown_of(a.id),
                escape(&a.job)
            );
            if a.consented_kiss && t.edition == Edition::One {
                s.push_str(" · consents to KISSes");
            }
            if let Some(d) = &a.demand {
                s.push_str(&format!(" · asks: {d}"));
            }
            if a.rank_overridden {
                s.push_str(&format!(" · ⚙ rank set by the {GM}"));
            }
            if a.magic {
                s.push_str(" · ✨ magical die");
            }
            s
        })
        .collect();
    (!lines.is_empty()).then(|| lines.join("\n"))
}

/// The chance of meeting the threshold: now (before the roll), as it was
/// before the roll, and after the KISSes declared (or of KISSing every
/// miss).
fn chance_text(st: &TaskSession) -> Option<String> {
    let t = &st.task;
    let need = beats(t.edition, t.threshold);
    if let Some(p) = t.chance_now() {
        return Some(format!("**{}** to reach {need}", percent(p)));
    }
    if t.phase == TaskPhase::Closed && st.odds_before.is_none() {
        return None;
    }
    let mut parts = Vec::new();
    if let Some(p) = st.odds_before {
        parts.push(format!("before the roll {} to reach {need}", percent(p)));
    }
    if t.phase == TaskPhase::KissDeclaration {
        parts.extend(kiss_chance_text(t));
    }
    if parts.is_empty() {
        return None;
    }
    Some(crate::app::view::capitalised(&parts.join("\n")))
}

/// During the KISS round: the chance after the declared KISSes, or (none
/// declared, still short) after KISSing every miss one may.
fn kiss_chance_text(t: &TaskState) -> Option<String> {
    let set = t.kiss_reroll_dice();
    if !set.is_empty() {
        let dice = count(set.len() as u32, "declared die", "declared dice");
        let p = percent(t.chance_after_kiss(&set)?);
        return Some(format!("after KISSing the {dice}: **{p}**"));
    }
    let misses = t.kissable_misses();
    if misses.is_empty() || t.successes() >= t.threshold {
        return None;
    }
    let (n, p) = (misses.len(), percent(t.chance_after_kiss(&misses)?));
    Some(format!("KISSing every miss you may ({n}): {p}"))
}

/// What the title's count does not say: the Ego effect, explosions
/// stopped at the cap, and (edition 2, Ego offered) the count with Ego.
fn count_extra(t: &TaskState) -> Option<String> {
    let mut parts: Vec<String> = Vec::new();
    match t.ego_mode {
        EgoMode::DoubleSixes => parts.push("Ego: every 6 strikes two beats".into()),
        EgoMode::RerollAll => parts.push("Ego: every miss was re-rolled".into()),
        EgoMode::TensDouble => parts.push("Ego: every 10 counts twice".into()),
        EgoMode::None => {}
    }
    if t.explosion_capped {
        parts.push("explosions stopped at the safety cap".into());
    }
    if t.phase == TaskPhase::EgoOffer {
        let with = t.successes_under(EgoMode::TensDouble);
        let tens = with.saturating_sub(t.successes());
        let tens = count(tens, "ten", "tens");
        parts.push(format!("with Ego: **{with}** ({tens} on the table)"));
    }
    (!parts.is_empty()).then(|| parts.join(" · "))
}

/// The KISSes: those re-rolled once the round is done; before, those
/// declared, the Ego re-roll and each member's picked dice.
fn kiss_lines(st: &TaskSession) -> Vec<String> {
    let t = &st.task;
    let mut kl: Vec<String> = Vec::new();
    if t.kiss_round_done {
        let kissed: Vec<String> = t
            .dice
            .iter()
            .filter(|d| d.kissed)
            .map(|d| {
                let by = d.kissed_by.map(|b| st.shown_of(b)).unwrap_or_default();
                let was = d.kissed_from().unwrap_or(d.face);
                let owner = if d.kissed_by == Some(d.owner) {
                    String::new()
                } else {
                    format!(" ({}'s)", st.shown_of(d.owner))
                };
                let with = d.kiss_source.as_ref().map(kiss_source_text);
                format!("{by}'s {was}{owner} with {}", with.unwrap_or_default())
            })
            .collect();
        if !kissed.is_empty() {
            kl.push(format!("**KISSed:** {}", kissed.join("; ")));
        }
        return kl;
    }
    let declared: Vec<String> = t
        .kisses
        .iter()
        .map(|k| {
            let (face, owner) = t.die(k.die).map_or((0, k.by), |d| (d.face, d.owner));
            let whose = if owner == k.by {
                format!("{}'s {face}", st.shown_of(k.by))
            } else {
                format!("{}: {}'s {face}", st.shown_of(k.by), st.shown_of(owner))
            };
            let wait = (!k.approved).then(|| format!(", awaiting the {GM}"));
            let with = kiss_source_text(&k.source);
            format!("{whose} with {with}{}", wait.unwrap_or_default())
        })
        .collect();
    if !declared.is_empty() {
        kl.push(format!("**KISS declared:** {}", declared.join("; ")));
    }
    if t.ego_reroll_pending {
        kl.push(format!(
            "{} spends Ego: every miss not otherwise KISSed will be re-rolled",
            st.roller.shown()
        ));
    }
    for (who, dice) in &st.drafts {
        let ids: Vec<String> = dice.iter().map(|d| format!("#{d}")).collect();
        kl.push(format!(
            "{} picked {}: choose how to pay (the menu pays for the first)",
            st.shown_of(*who),
            ids.join(", ")
        ));
    }
    kl
}

/// Secondary consequence `n` turned against the roller.
fn subversion_text(st: &TaskSession, n: u8) -> String {
    let r = st.roller.shown();
    let opposite = match n {
        1 => format!("{r} is shamed or hurt"),
        2 => "the action is clumsy or wasteful".to_string(),
        3 => format!("someone {r} cares about is put at risk or disturbed"),
        _ => "something else is lost or broken by accident".to_string(),
    };
    format!(
        "S{n} ({}) turns against {r}: {opposite}.",
        lower_first(SECONDARY[n as usize - 1])
    )
}

/// `text` with its first letter in lower case ("Nobody I care about" →
/// "nobody I care about").
fn lower_first(text: &str) -> String {
    let mut chars = text.chars();
    match chars.next() {
        Some(c) => c.to_lowercase().chain(chars).collect(),
        None => String::new(),
    }
}

fn rows(id: i64, version: i64, st: &TaskSession) -> Vec<Row> {
    let d = Draw::new(id, version);
    let t = &st.task;
    let mut rows = match t.phase {
        TaskPhase::AidOffers => aid_rows(&d, st),
        TaskPhase::KissDeclaration => kiss_rows(&d, st),
        TaskPhase::Spending => spending_rows(&d, st),
        TaskPhase::GmSubversion => vec![subversion_row(&d, t.subvertible()), d.gm_row(Vec::new())],
        TaskPhase::EgoOffer => vec![
            Row::Buttons(vec![
                d.b(TaskButton::EgoYes, "Spend Ego", Style::Primary),
                d.b(TaskButton::EgoNo, "Keep Ego", Style::Secondary),
            ]),
            d.gm_row(Vec::new()),
        ],
        TaskPhase::Closed if st.subversion_open => {
            vec![subversion_row(&d, t.unbought_secondaries())]
        }
        TaskPhase::Closed => Vec::new(),
    };
    rows.truncate(5);
    rows
}

/// Before the roll: **Roll**, **Offer aid**, **Withdraw aid** and the
/// roller's **Refuse** for each standing offer (**Accept** too for one
/// still pending), on one row while they fit; the "Aid with
/// a job" menu when someone could aid with more than one job; the "Use
/// job" menu; the game master's row.
fn aid_rows(d: &Draw<TaskButton>, st: &TaskSession) -> Vec<Row> {
    let t = &st.task;
    let mut roll = d.b(TaskButton::Roll, "Roll", Style::Primary);
    if t.pending_allies().next().is_some() {
        roll = roll.disabled();
    }
    let standing = t.standing_allies().count();
    let mut buttons = shown([
        (true, roll),
        (
            standing < t.max_allies(),
            d.b(TaskButton::Offer, "Offer aid", Style::Secondary),
        ),
        (
            standing > 0,
            d.b(TaskButton::Withdraw, "Withdraw aid", Style::Secondary),
        ),
    ]);
    // An offer is taken at once; one still pending (drawn before, or with
    // a demand) is answered here, and an accepted one may be refused until
    // the roll (VE1-T3, VE2-T3).
    for a in t.standing_allies() {
        let n = cut(&st.name_of(a.id), 30);
        if a.status == AidStatus::Offered {
            let accept = format!("Accept {n}");
            buttons.push(d.named(TaskButton::Accept(a.id), &accept, Style::Success));
        }
        let refuse = format!("Refuse {n}");
        buttons.push(d.named(TaskButton::Refuse(a.id), &refuse, Style::Secondary));
    }
    let mut rows: Vec<Row> = buttons
        .chunks(5)
        .map(|c| Row::Buttons(c.to_vec()))
        .collect();
    let choice = st.candidates.iter().any(|c| c.jobs.len() > 1);
    if standing < t.max_allies() && choice {
        rows.push(aid_job_menu(d, st));
    }
    if st.roller_jobs.len() > 1 && rows.len() < 4 {
        rows.push(use_job_menu(d, st));
    }
    rows.push(d.gm_row(Vec::new()));
    rows
}

/// "Aid with a job": each job someone could aid with, and who.
fn aid_job_menu(d: &Draw<TaskButton>, st: &TaskSession) -> Row {
    let mut jobs: Vec<(String, Vec<String>)> = Vec::new();
    for c in &st.candidates {
        for (j, l) in &c.jobs {
            let who = format!("{} ({})", c.name, level_text(*l, false));
            match jobs.iter_mut().find(|(n, _)| n.eq_ignore_ascii_case(j)) {
                Some((_, w)) => w.push(who),
                None => jobs.push((j.clone(), vec![who])),
            }
        }
    }
    let options = jobs
        .into_iter()
        .take(25)
        .map(|(j, who)| option(&j, j.clone(), Some(&who.join(", "))))
        .collect();
    d.select(TaskButton::AidJob, "Aid with a job", options, 1)
}

/// "Use job": the roller's jobs that inherit the ability.
fn use_job_menu(d: &Draw<TaskButton>, st: &TaskSession) -> Row {
    let options = st
        .roller_jobs
        .iter()
        .take(25)
        .map(|(j, l)| option(j, j.clone(), Some(&level_text(*l, false))))
        .collect();
    d.select(TaskButton::UseJob, "Use job", options, 1)
}

/// The KISS round: the "KISS" menu (a die and its payment in one pick),
/// **Re-roll** (or **No KISS**) with **Withdraw my KISSes**, the Ego and
/// consent buttons, and the game master's row.
fn kiss_rows(d: &Draw<TaskButton>, st: &TaskSession) -> Vec<Row> {
    let t = &st.task;
    let mut rows = Vec::new();
    rows.extend(kiss_menu(d, st));
    rows.extend(pay_menu(d, st));
    rows.push(Row::Buttons(kiss_roll_row(d, st)));
    let approve = d.b(TaskButton::KissApprove, "Approve KISSes", Style::Success);
    let veto = d.b(TaskButton::KissVeto, "Veto last KISS", Style::Danger);
    rows.push(d.gm_row(shown([
        (t.kisses.iter().any(|k| !k.approved), approve),
        (!t.kisses.is_empty(), veto),
    ])));
    rows
}

/// The longest attribute or insight kept in a "KISS" menu value (with the
/// die and the kind in front, a value stays within Discord's 100).
pub const KISS_VALUE_TEXT: usize = 88;

/// "KISS": one option per die not yet KISSed and way to pay for it (a
/// Lot, a stunt, each unused attribute and insight of the roller and of
/// the die's owner), misses first; several may be picked at once, each die
/// once. A big pool pages, so every pair stays reachable.
fn kiss_menu(d: &Draw<TaskButton>, st: &TaskSession) -> Option<Row> {
    let t = &st.task;
    let mut dice: Vec<&TaskDie> = t.undeclared_dice().collect();
    dice.sort_by_key(|d| (d.succeeds(t.edition), d.id));
    let mut options = Vec::new();
    for die in dice {
        let owner = st.name_of(die.owner);
        let state = if die.succeeds(t.edition) {
            beat_words(t.edition).0
        } else {
            "miss"
        };
        let mut pays: Vec<(String, String, String)> = vec![
            ("lot".into(), "a Lot".into(), "pay a Lot".into()),
            ("stunt".into(), "a stunt".into(), "pay with a stunt".into()),
        ];
        // The roller's, then the die's owner's (their own die: the same
        // values, each listed once).
        for p in [t.roller, die.owner] {
            for o in st.kiss_names.get(&p).into_iter().flatten() {
                let value: String = o.value.chars().take(KISS_VALUE_TEXT + 3).collect();
                if pays.iter().any(|(v, _, _)| *v == value) {
                    continue;
                }
                pays.push((value, cut(&o.label, 60), o.description.clone()));
            }
        }
        for (value, label, what) in pays {
            options.push(option(
                &format!("{owner}'s {} · {label}", die.face),
                format!("{}:{value}", die.id),
                Some(&format!("die #{} · {state} · {what}", die.id)),
            ));
        }
    }
    let options = crate::app::view::paged_options(options, st.kiss_page);
    let n = options.len();
    (n > 0).then(|| d.select(TaskButton::KissPairs, KISS_MENU, options, n))
}

/// The placeholder of the menu declaring KISSes.
pub const KISS_MENU: &str = "KISS: pick dice and how to pay";

/// "Pay with a specialty or insight" (the older two-step way, still
/// answered for a pick made on a message drawn before): the unused
/// attributes and insights of whoever has dice picked and not paid for.
fn pay_menu(d: &Draw<TaskButton>, st: &TaskSession) -> Option<Row> {
    if st.drafts.values().all(|x| x.is_empty()) || st.pay_menu.is_empty() {
        return None;
    }
    let options = st
        .pay_menu
        .iter()
        .map(|o| option(&o.label, o.value.clone(), Some(&o.description)))
        .collect();
    let options = crate::app::view::paged_options(options, st.pay_page);
    Some(d.select(TaskButton::PayWith, PAY_WITH, options, 1))
}

/// The placeholder of the menu choosing what pays for a picked die.
pub const PAY_WITH: &str = "Pay with a specialty or insight";

/// **Re-roll** (or **No KISS**), **Withdraw my KISSes** once any is
/// declared, and in edition 1 the Ego buttons and **Consent to KISS**.
fn kiss_roll_row(d: &Draw<TaskButton>, st: &TaskSession) -> Vec<Button> {
    let t = &st.task;
    let pending = t.ego_reroll_pending;
    let any = !t.kisses.is_empty() || pending;
    let roll = if any { "Re-roll" } else { "No KISS" };
    let withdraw = !t.kisses.is_empty() || st.drafts.values().any(|x| !x.is_empty());
    let one = t.edition == Edition::One;
    let ego = one && t.ego_mode == EgoMode::None && (st.roller_ego || pending);
    let reroll = if pending {
        "Withdraw Ego re-roll"
    } else {
        "Ego: re-roll misses"
    };
    let consent = one && t.accepted_allies().next().is_some();
    let b = |button, label| d.b(button, label, Style::Secondary);
    shown([
        (true, d.b(TaskButton::KissRoll, roll, Style::Success)),
        (withdraw, b(TaskButton::KissClear, "Withdraw my KISSes")),
        (ego, b(TaskButton::EgoReroll, reroll)),
        (ego && !pending, b(TaskButton::EgoSixes, "Ego: double 6s")),
        (consent, b(TaskButton::Consent, "Consent to KISS")),
    ])
}

/// Spending beats: **Primary** (one button), **Undo last**, **Finish**
/// (and Ego); the "Buy consequences" menu (S1-S4, T1-T4 and the special
/// consequences, several at once); the overflow menu when a T3 Lot would
/// pass 10; the game master's row.
fn spending_rows(d: &Draw<TaskButton>, st: &TaskSession) -> Vec<Row> {
    let t = &st.task;
    let left = t.beats_left();
    let mut primary = d.named(
        TaskButton::Buy(Consequence::Primary),
        &format!("Primary: success ({})", t.cost_of(Purchase::Primary)),
        if t.primary_bought() {
            Style::Success
        } else {
            Style::Primary
        },
    );
    if !t.can_buy(Purchase::Primary) {
        primary = primary.disabled();
    }
    let mut r1 = vec![primary];
    if !t.purchases.is_empty() {
        r1.push(d.b(TaskButton::Undo, "Undo last", Style::Secondary));
    }
    r1.push(d.b(TaskButton::Finish, "Finish", Style::Primary));
    if t.ego_mode == EgoMode::None && t.purchases.is_empty() && st.roller_ego {
        r1.push(d.b(TaskButton::EgoSixes, "Ego: double 6s", Style::Secondary));
    }
    let mut rows = vec![Row::Buttons(r1)];
    let mut options = Vec::new();
    let secondary = Consequence::Secondary as fn(u8) -> Consequence;
    let kinds = [
        (secondary, SECONDARY_SHORT, SECONDARY),
        (Consequence::Tertiary, TERTIARY_SHORT, TERTIARY),
    ];
    for (kind, shorts, texts) in kinds {
        for (c, (short, text)) in (1..=4).map(kind).zip(shorts.iter().zip(texts)) {
            if t.can_buy(c.purchase()) {
                let label = format!("{} {short}", c.code().to_uppercase());
                options.push(option(&label, c.code(), Some(text)));
            }
        }
    }
    for (i, c) in st.customs.iter().enumerate() {
        if t.can_buy(Purchase::Custom(i)) && options.len() < 25 {
            let value = format!("c{}", i + 1);
            options.push(option(c, value, Some("special consequence")));
        }
    }
    if !options.is_empty() && left > 0 {
        let max = (left as usize).min(options.len());
        rows.push(d.select(TaskButton::BuyMany, BUY_MENU, options, max));
    }
    if !st.overflow_jobs.is_empty() {
        let options = st
            .overflow_jobs
            .iter()
            .take(25)
            .map(|j| {
                let what = if j.eq_ignore_ascii_case(&t.job) {
                    "the job used: finish, +1 exp here"
                } else {
                    "finish, +1 exp here"
                };
                option(j, j.clone(), Some(what))
            })
            .collect();
        rows.push(d.select(TaskButton::FinishWith, FINISH_WITH, options, 1));
    }
    rows.push(d.gm_row(Vec::new()));
    rows
}

/// The placeholder of the menu buying S1-S4, T1-T4 and the special
/// consequences, 1 beat each.
pub const BUY_MENU: &str = "Buy consequences (1 beat each)";

/// The placeholder of the menu that finishes the spending and names the job
/// getting the exp of a T3 Lot over 10.
pub const FINISH_WITH: &str = "Finish: the Lot over 10 becomes exp in…";

/// The game master's **Subvert S<n>** for each of `secondaries`, and **No
/// subversion**, all in the game master's panel.
fn subversion_row(d: &Draw<TaskButton>, secondaries: impl IntoIterator<Item = u8>) -> Row {
    let mut r: Vec<Button> = secondaries
        .into_iter()
        .map(|n| {
            let label = format!("Subvert S{n} {}", SECONDARY_SHORT[n as usize - 1]);
            d.named(TaskButton::Subvert(n), &label, Style::Primary)
                .gm_only()
        })
        .collect();
    r.push(
        d.b(TaskButton::NoSubversion, "No subversion", Style::Secondary)
            .gm_only(),
    );
    Row::Buttons(r)
}

/// The "after the task" message: what changed, and each participant's
/// Lots, Ego and the job they used, as they stand now.
pub fn summary(st: &TaskSession, ctx: &VenusCtx) -> View {
    let t = &st.task;
    let kind = if t.outcome.as_ref().is_some_and(|o| o.success) {
        Outcome::Success
    } else {
        Outcome::Failure
    };
    // The changes themselves are listed on the task's message just above:
    // this one only shows where everyone stands now.
    let mut e =
        Embed::new(format!("📈 After the task — {}", st.roller.shown())).colour(kind.colour());
    // The roller and each accepted ally, with the job they used.
    let allies = t.accepted_allies().map(|a| (a.id, &a.job));
    for (who, job) in std::iter::once((t.roller, &t.job)).chain(allies).take(10) {
        let Some(sheet) = ctx.sheets.get(&who) else {
            continue;
        };
        let mut lines = vec![format!(
            "Lots {} · Ego {}",
            lot_pips(sheet.lots),
            super::format::ego_text(sheet.ego)
        )];
        if let Some(key) = sheet.job_key(job) {
            lines.push(job_line(key, &sheet.jobs[key], &t.settings));
        }
        e = e.field(st.shown_of(who), lines.join("\n"), false);
    }
    View::embed(e)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_secondary_consequence_keeps_its_capital_i() {
        assert_eq!(
            lower_first(SECONDARY[2]),
            "nobody I care about is put at risk or disturbed"
        );
    }
}
