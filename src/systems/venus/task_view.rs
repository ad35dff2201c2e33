//! The task's message: pool, threshold, allies, the chance of meeting the
//! threshold (before the roll, and for the declared KISSes after it), every
//! die with its owner and rank colour, beats or passes, KISSes, purchases,
//! the outcome and what changed; with the buttons and menus of the current
//! step (none once it is over). Also the "after the task" summary.

use super::format::{cut, factor_sum, fields_of, lot_pips, percent, rank_label, rank_mark};
use super::sheet_view::job_line;
use super::buttons::{custom_id, Consequence, Payment, TaskButton};
use super::state::TaskSession;
use crate::app::view::{colour, Button, Embed, Row, Select, SelectOption, Style, View};
use crate::rules::venus::odds;
use crate::rules::venus::task::{
    AidStatus, CloseKind, Crit, EgoMode, KissSource, Purchase, TaskDie, TaskPhase, SECONDARY,
};
use crate::rules::venus::{Edition, TaskState, VenusCtx};
use crate::storage::sessions::Status;

/// Faces listed one by one up to this many dice per owner; beyond, counts.
const LIST_DICE: usize = 40;

/// Short labels of S1-S4 and T1-T4 for buttons.
const SECONDARY_SHORT: [&str; 4] = ["Not hurt", "Graceful", "No one at risk", "Nothing lost"];
const TERTIARY_SHORT: [&str; 4] = ["Extra prize", "+1 exp", "+1 Lot", "Welcome surprise"];

fn word(edition: Edition, n: u32) -> String {
    match (edition, n) {
        (Edition::One, 1) => "beat".into(),
        (Edition::One, _) => "beats".into(),
        (Edition::Two, 1) => "pass".into(),
        (Edition::Two, _) => "passes".into(),
    }
}

/// P(meeting the threshold) for the dice that would be thrown now: the
/// roller's pool and every accepted ally's die (edition 2: with the task's
/// explosions). `None` once the dice are thrown.
pub fn chance_now(t: &TaskState) -> Option<f64> {
    if t.phase != TaskPhase::AidOffers {
        return None;
    }
    let allies: Vec<_> = t.accepted_allies().collect();
    let p = match t.edition {
        Edition::One => {
            let mine = t.explodes_for(t.roller);
            let mut dice = vec![(t.rank, mine); t.pool as usize];
            dice.extend(allies.iter().map(|a| (a.rank, t.explodes_for(a.id))));
            odds::prob_at_least(&odds::ve1_exploding_pool_pmf(&dice, false), t.threshold)
        }
        Edition::Two => {
            let mine = t.explodes_for(t.roller);
            let mut dice = vec![(t.rank, mine); t.pool as usize];
            dice.extend(allies.iter().map(|a| (a.rank, t.explodes_for(a.id))));
            odds::prob_at_least(&odds::ve2_pool_pmf(&dice, false), t.threshold)
        }
    };
    Some(p)
}

/// The dice a KISS would re-roll now: every declared die, plus (edition-1
/// Ego re-roll) every other miss the roller may KISS.
fn kiss_set(t: &TaskState) -> Vec<usize> {
    let mut ids: Vec<u32> = t.kisses.iter().map(|k| k.die).collect();
    if t.ego_reroll_pending {
        for d in &t.dice {
            let mine = d.owner == t.roller
                || t.accepted_allies()
                    .any(|a| a.id == d.owner && a.consented_kiss);
            if mine && !d.succeeds(t.edition) && !ids.contains(&d.id) {
                ids.push(d.id);
            }
        }
    }
    index_of(t, &ids)
}

fn index_of(t: &TaskState, ids: &[u32]) -> Vec<usize> {
    t.dice
        .iter()
        .enumerate()
        .filter(|(_, d)| ids.contains(&d.id))
        .map(|(i, _)| i)
        .collect()
}

/// P(meeting the threshold) after re-rolling the dice at `reroll`.
fn kiss_chance(t: &TaskState, reroll: &[usize]) -> Option<f64> {
    match t.edition {
        // Exploding D6s (house rule): no KISS odds are drawn.
        Edition::One if t.magic => None,
        Edition::One => {
            let dice: Vec<_> = t.dice.iter().map(|d| (d.rank, d.face)).collect();
            odds::ve1_kiss_odds(
                &dice,
                reroll,
                t.threshold,
                t.ego_mode == EgoMode::DoubleSixes,
            )
            .ok()
            .map(|o| o.success_after)
        }
        Edition::Two => {
            let dice: Vec<_> = t
                .dice
                .iter()
                .map(|d| (d.rank, d.face, d.explodes))
                .collect();
            odds::ve2_kiss_odds(&dice, reroll, t.threshold, false)
                .ok()
                .map(|o| o.success_after)
        }
    }
}

fn die_text(d: &TaskDie, t: &TaskState) -> String {
    let v = d.value(t.edition, t.ego_mode);
    let mut face = if v > 0 {
        format!("**{}**", d.face)
    } else {
        d.face.to_string()
    };
    if v == 2 {
        face.push_str("×2");
    }
    if d.kissed && d.history.len() >= 2 {
        face = format!("~~{}~~→{face}", d.history[d.history.len() - 2]);
    }
    let mark = if d.exploded_from.is_some() { "↯" } else { "" };
    format!("#{} {mark}{face}", d.id)
}

/// One line per owner: rank colour, name, and every die (counts per face
/// for very large pools).
pub fn dice_lines(st: &TaskSession) -> Vec<String> {
    let t = &st.task;
    let mut owners: Vec<i64> = Vec::new();
    for d in &t.dice {
        if !owners.contains(&d.owner) {
            owners.push(d.owner);
        }
    }
    owners
        .into_iter()
        .map(|o| {
            let dice: Vec<&TaskDie> = t.dice.iter().filter(|d| d.owner == o).collect();
            let rank = dice.first().map(|d| d.rank).unwrap_or(t.rank);
            let count: u32 = dice.iter().map(|d| d.value(t.edition, t.ego_mode)).sum();
            let body = if dice.len() <= LIST_DICE {
                dice.iter()
                    .map(|d| die_text(d, t))
                    .collect::<Vec<_>>()
                    .join(" · ")
            } else {
                let mut counts = std::collections::BTreeMap::new();
                for d in &dice {
                    *counts.entry(d.face).or_insert(0u32) += 1;
                }
                let parts: Vec<String> = counts
                    .iter()
                    .rev()
                    .map(|(f, n)| format!("{f}×{n}"))
                    .collect();
                format!("{} dice: {}", dice.len(), parts.join(" "))
            };
            format!(
                "{} **{}** ({} {}): {body}",
                rank_mark(rank),
                st.name_of(o),
                count,
                word(t.edition, count)
            )
        })
        .collect()
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

fn outcome_text(st: &TaskSession) -> Option<String> {
    let t = &st.task;
    if t.close_kind == Some(CloseKind::Voided) {
        return Some("Voided by the FC: no exp, spent Lots and Ego given back.".into());
    }
    let o = t.outcome.as_ref()?;
    let mut s = if o.success {
        match t.edition {
            Edition::One => "✅ **Success**: the primary consequence was bought.".to_string(),
            Edition::Two => format!(
                "✅ **Success**: {} {} against {}.",
                o.successes,
                word(t.edition, o.successes),
                o.threshold
            ),
        }
    } else {
        match t.edition {
            Edition::One if o.declined_primary => format!(
                "❌ **Failure**: {} did not buy the primary consequence.{}",
                st.roller.name,
                consequence_tail(&t.consequence)
            ),
            _ => format!(
                "❌ **Failure**: {} {} against {}.{}",
                o.successes,
                word(t.edition, o.successes),
                o.threshold,
                consequence_tail(&t.consequence)
            ),
        }
    };
    if let Some(m) = o.margin_percent {
        s.push_str(&format!("\nMargin {m}%"));
    }
    match o.crit {
        Some(Crit::Success) => s.push_str(" · **critical success**"),
        Some(Crit::Failure) => s.push_str(" · **critical failure**"),
        None => {}
    }
    if t.close_kind == Some(CloseKind::ForceClosed) {
        s.push_str("\n(Force-closed by the FC.)");
    }
    Some(s)
}

fn phase_hint(st: &TaskSession) -> String {
    let t = &st.task;
    let r = &st.roller.name;
    match t.phase {
        TaskPhase::AidOffers => format!(
            "Allies: **Offer aid** (up to {}, with a job of level 1+ that inherits {}). {r}: accept or refuse each offer, then **Roll**.",
            t.max_allies(),
            t.ability
        ),
        TaskPhase::KissDeclaration => match t.edition {
            Edition::One => format!(
                "One KISS round: pick dice in the menu and pay for them (Lot, stunt, or the specialty or insight you choose for each die); each die once. Allies' dice need their consent. Then {r} presses **Re-roll** (or **No KISS**)."
            ),
            Edition::Two => format!(
                "Still short: one KISS round. Each of you picks your own dice in the menu and pays for them (Lot, stunt, or the specialty or insight you choose for each die); each die once. Then {r} presses **Re-roll** (or **No KISS**)."
            ),
        },
        TaskPhase::Spending => format!(
            "{r} spends the beats: the primary consequence (success) costs {}, each other consequence 1 beat, once each. Then **Finish**; unspent beats are lost.",
            t.threshold
        ),
        TaskPhase::GmSubversion => format!(
            "The FC may turn one secondary consequence {r} did not buy against them, or pass."
        ),
        TaskPhase::EgoOffer => format!(
            "Still short. {r} may spend Ego: every 10 on the table counts as two passes."
        ),
        TaskPhase::Closed if st.subversion_open => format!(
            "The result is applied. The FC may still turn one secondary consequence {r} did not buy against them (no numbers change), or let everything stand."
        ),
        TaskPhase::Closed => String::new(),
    }
}

/// The task's message.
pub fn view(id: i64, version: i64, status: Status, st: &TaskSession) -> View {
    let t = &st.task;
    let mut e = Embed::new(title(st));
    e = e.field("Pool", pool_text(t), false);
    let base = match t.edition {
        Edition::One => 1,
        Edition::Two => t.difficulty,
    };
    e = e.field(
        "Threshold",
        format!("**{}** = {}", t.threshold, factor_sum(base, &t.factors)),
        true,
    );
    if t.crits_active() {
        e = e.field("Criticals", "on (margin and critical results)", true);
    }
    if let Some(allies) = allies_text(st) {
        e = e.field("Allies", allies, false);
    }
    if let Some(chance) = chance_text(st) {
        e = e.field("Chance", chance, false);
    }
    if !t.dice.is_empty() {
        for (title, value) in fields_of("Dice", &dice_lines(st), 3) {
            e = e.field(title, value, false);
        }
    }
    if !t.dice.is_empty() || t.phase != TaskPhase::AidOffers {
        let title = match t.edition {
            Edition::One => "Beats",
            Edition::Two => "Passes",
        };
        e = e.field(title, count_text(t), false);
    }
    e = result_fields(e, st);
    let desc = description(st, status);
    if !desc.is_empty() {
        e = e.description(desc.join("\n"));
    }
    let mut footer = format!("Venus Engine edition {} · task #{id}", t.edition);
    if let Some(n) = &st.note {
        footer.push_str(&format!(" · {n}"));
    }
    e = e.footer(footer).colour(colour_of(t, status));
    let mut v = View::embed(e);
    if status == Status::Open && (t.phase != TaskPhase::Closed || st.subversion_open) {
        v.rows = rows(id, version, st);
    }
    v
}

/// "🎲 Task — roller: ability via job (level)".
fn title(st: &TaskSession) -> String {
    let t = &st.task;
    let level = if t.learning {
        "learning".to_string()
    } else {
        format!("level {}", t.job_level)
    };
    format!(
        "🎲 Task — {}: {} via {} ({level})",
        st.roller.name, t.ability, t.job
    )
}

/// What failure means, what to do now, or that the task timed out.
fn description(st: &TaskSession, status: Status) -> Vec<String> {
    let t = &st.task;
    let mut desc = Vec::new();
    if !t.consequence.trim().is_empty() {
        desc.push(format!("*If it fails:* {}", t.consequence.trim()));
    }
    let hint = phase_hint(st);
    if status == Status::Open && !hint.is_empty() {
        desc.push(hint);
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
    let mut pool = format!("{} {die} · {} ({min})", t.pool, rank_label(t.rank));
    if t.learning {
        pool.push_str(&format!(" · the {} score, while learning", t.ability));
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
    let allies_in = t.accepted_allies().count();
    if allies_in > 0 {
        pool.push_str(&format!(
            " · + {allies_in} ally {}",
            if allies_in == 1 { "die" } else { "dice" }
        ));
    }
    pool
}

/// One line per ally (withdrawn offers only before the roll).
fn allies_text(st: &TaskSession) -> Option<String> {
    let t = &st.task;
    let lines: Vec<String> = t
        .allies
        .iter()
        .filter(|a| a.status != AidStatus::Withdrawn || t.phase == TaskPhase::AidOffers)
        .map(|a| {
            let status = match a.status {
                AidStatus::Offered => format!("offered, waiting for {}", st.roller.name),
                AidStatus::Accepted => "accepted".into(),
                AidStatus::Refused => "refused".into(),
                AidStatus::Withdrawn => "withdrawn".into(),
            };
            let mut s = format!(
                "{} **{}** — {} · {status}",
                rank_mark(a.rank),
                st.name_of(a.id),
                a.job
            );
            if a.consented_kiss && t.edition == Edition::One {
                s.push_str(" · consents to KISSes");
            }
            if let Some(d) = &a.demand {
                s.push_str(&format!(" · asks: {d}"));
            }
            if a.rank_overridden {
                s.push_str(&format!(" · ⚙ rank set by the {}", super::GM));
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
    let need = format!("{} {}", t.threshold, word(t.edition, t.threshold));
    if let Some(p) = chance_now(t) {
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
    let mut s = parts.join("\n");
    if let Some(first) = s.get(..1) {
        s = first.to_uppercase() + &s[1..];
    }
    Some(s)
}

/// During the KISS round: the chance after the declared KISSes, or (none
/// declared, still short) after KISSing every miss one may.
fn kiss_chance_text(t: &TaskState) -> Option<String> {
    let set = kiss_set(t);
    if set.is_empty() && t.successes() < t.threshold {
        let misses: Vec<u32> = t
            .participants()
            .into_iter()
            .flat_map(|p| t.kissable_dice(p))
            .filter(|id| t.die(*id).is_some_and(|d| !d.succeeds(t.edition)))
            .collect();
        if misses.is_empty() {
            return None;
        }
        let p = kiss_chance(t, &index_of(t, &misses))?;
        Some(format!(
            "KISSing every miss you may ({}): {}",
            misses.len(),
            percent(p)
        ))
    } else {
        let p = (!set.is_empty()).then(|| kiss_chance(t, &set)).flatten()?;
        Some(format!(
            "after KISSing the {} declared {}: **{}**",
            set.len(),
            if set.len() == 1 { "die" } else { "dice" },
            percent(p)
        ))
    }
}

/// Beats (or passes) against the threshold, with Ego, explosions, the
/// edition-2 Ego offer and the beats left to spend.
fn count_text(t: &TaskState) -> String {
    let n = t.successes();
    let mut s = format!("**{n}** {} (need {})", word(t.edition, n), t.threshold);
    match t.ego_mode {
        EgoMode::DoubleSixes => s.push_str(" · Ego: every 6 strikes two beats"),
        EgoMode::RerollAll => s.push_str(" · Ego: every miss was re-rolled"),
        EgoMode::TensDouble => s.push_str(" · Ego: every 10 counts twice"),
        EgoMode::None => {}
    }
    if t.explosion_capped {
        s.push_str(" · explosions stopped at the safety cap");
    }
    if t.phase == TaskPhase::EgoOffer {
        let tens = t
            .dice
            .iter()
            .filter(|d| d.face == 10 && d.succeeds(t.edition))
            .count() as u32;
        s.push_str(&format!(
            " · with Ego: **{}** ({tens} {} on the table)",
            n + tens,
            if tens == 1 { "ten" } else { "tens" }
        ));
    }
    if t.edition == Edition::One && matches!(t.phase, TaskPhase::Spending) {
        s.push_str(&format!(" · **{}** left to spend", t.beats_left()));
    }
    s
}

/// The KISSes, purchases, subversion, outcome and sheet changes.
fn result_fields(mut e: Embed, st: &TaskSession) -> Embed {
    let t = &st.task;
    let kl = kiss_lines(st);
    if !kl.is_empty() {
        e = e.field("KISSes", kl.join("\n"), false);
    }
    if !t.purchases.is_empty() {
        let lines: Vec<String> = t
            .purchases
            .iter()
            .map(|b| format!("• {} — {} {}", b.text, b.cost, word(Edition::One, b.cost)))
            .collect();
        e = e.field("Bought", lines.join("\n"), false);
    }
    if let Some(n) = t.subversion {
        e = e.field("Subverted by the FC", subversion_text(st, n), false);
    }
    if let Some(o) = outcome_text(st) {
        e = e.field("Outcome", o, false);
    }
    for (title, value) in fields_of("What changed", &st.changes, 2) {
        e = e.field(title, value, false);
    }
    e
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
                format!(
                    "#{} by {} with {}",
                    d.id,
                    d.kissed_by.map(|b| st.name_of(b)).unwrap_or_default(),
                    d.kiss_source
                        .as_ref()
                        .map(kiss_source_text)
                        .unwrap_or_default()
                )
            })
            .collect();
        if !kissed.is_empty() {
            kl.push(format!("KISSed: {}", kissed.join("; ")));
        }
        return kl;
    }
    for k in &t.kisses {
        kl.push(format!(
            "#{} — {} pays with {}{}",
            k.die,
            st.name_of(k.by),
            kiss_source_text(&k.source),
            if k.approved { "" } else { " (awaiting the FC)" }
        ));
    }
    if t.ego_reroll_pending {
        kl.push(format!(
            "{} spends Ego: every miss not otherwise KISSed will be re-rolled",
            st.roller.name
        ));
    }
    for (who, dice) in &st.drafts {
        let ids: Vec<String> = dice.iter().map(|d| format!("#{d}")).collect();
        kl.push(format!(
            "{} picked {}: choose how to pay (the menu pays for the first)",
            st.name_of(*who),
            ids.join(", ")
        ));
    }
    kl
}

/// Secondary consequence `n` turned against the roller.
fn subversion_text(st: &TaskSession, n: u8) -> String {
    let r = &st.roller.name;
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

/// The failure's consequence in italics after a space, or nothing when the
/// task has none (never an empty `**`).
fn consequence_tail(consequence: &str) -> String {
    let c = consequence.trim();
    if c.is_empty() {
        String::new()
    } else {
        format!(" *{c}*")
    }
}

/// The embed's colour: pending, success, failure or closed.
fn colour_of(t: &TaskState, status: Status) -> u32 {
    match (t.phase, &t.outcome, status) {
        (_, _, Status::Expired) => colour::CLOSED,
        (TaskPhase::Closed, Some(o), _) if t.close_kind != Some(CloseKind::Voided) => {
            if o.success {
                colour::SUCCESS
            } else {
                colour::FAILURE
            }
        }
        (TaskPhase::Closed, _, _) => colour::CLOSED,
        _ => colour::PENDING,
    }
}

/// Draws the buttons and menus of task `id` at `version`.
struct Draw {
    id: i64,
    version: i64,
}

impl Draw {
    fn cid(&self, button: TaskButton) -> String {
        custom_id(&button, self.id, self.version)
    }

    /// A button.
    fn b(&self, button: TaskButton, label: &str, style: Style) -> Button {
        Button::new(self.cid(button), label, style)
    }

    /// A button whose label names a member or a consequence, cut to fit.
    fn named(&self, button: TaskButton, label: &str, style: Style) -> Button {
        Button::new(self.cid(button), cut(label, 80), style)
    }

    /// A select menu of at most `max` picks.
    fn select(
        &self,
        button: TaskButton,
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

    /// `r` followed by the FC's **Void** and **Force close**.
    fn fc_row(&self, mut r: Vec<Button>) -> Row {
        r.push(self.b(TaskButton::Void, "Void", Style::Danger));
        r.push(self.b(TaskButton::Force, "Force close", Style::Danger));
        Row::Buttons(r)
    }
}

fn rows(id: i64, version: i64, st: &TaskSession) -> Vec<Row> {
    let d = Draw { id, version };
    let t = &st.task;
    let mut rows = match t.phase {
        TaskPhase::AidOffers => aid_rows(&d, st),
        TaskPhase::KissDeclaration => kiss_rows(&d, st),
        TaskPhase::Spending => spending_rows(&d, st),
        TaskPhase::GmSubversion => vec![subversion_row(&d, t.subvertible()), d.fc_row(Vec::new())],
        TaskPhase::EgoOffer => vec![d.fc_row(vec![
            d.b(TaskButton::EgoYes, "Spend Ego", Style::Primary),
            d.b(TaskButton::EgoNo, "Keep Ego", Style::Secondary),
        ])],
        TaskPhase::Closed if st.subversion_open => {
            let unbought = (1..=4u8)
                .filter(|n| !t.purchases.iter().any(|b| b.item == Purchase::Secondary(*n)));
            vec![subversion_row(&d, unbought)]
        }
        TaskPhase::Closed => Vec::new(),
    };
    rows.truncate(5);
    rows
}

/// Before the roll: **Roll**, **Offer aid**, **Withdraw aid** and the FC's
/// row; the "Aid with a job" menu; the roller's answers to each offer; the
/// "Use job" menu.
fn aid_rows(d: &Draw, st: &TaskSession) -> Vec<Row> {
    let t = &st.task;
    let pending: Vec<_> = t
        .allies
        .iter()
        .filter(|a| a.status == AidStatus::Offered)
        .collect();
    let mut roll = d.b(TaskButton::Roll, "Roll", Style::Primary);
    if !pending.is_empty() {
        roll = roll.disabled();
    }
    let standing = t
        .allies
        .iter()
        .filter(|a| matches!(a.status, AidStatus::Offered | AidStatus::Accepted))
        .count();
    let mut offer = d.b(TaskButton::Offer, "Offer aid", Style::Secondary);
    if standing >= t.max_allies() {
        offer = offer.disabled();
    }
    let mut main = vec![roll, offer];
    if standing > 0 {
        main.push(d.b(TaskButton::Withdraw, "Withdraw aid", Style::Secondary));
    }
    let mut rows = vec![d.fc_row(main)];
    if standing < t.max_allies() && !st.candidates.is_empty() {
        rows.push(aid_job_menu(d, st));
    }
    let mut answers = Vec::new();
    for a in &pending {
        let n = cut(&st.name_of(a.id), 30);
        let accept = format!("Accept {n}");
        answers.push(d.named(TaskButton::Accept(a.id), &accept, Style::Success));
        let refuse = format!("Refuse {n}");
        answers.push(d.named(TaskButton::Refuse(a.id), &refuse, Style::Secondary));
    }
    for chunk in answers.chunks(4) {
        rows.push(Row::Buttons(chunk.to_vec()));
    }
    if st.roller_jobs.len() > 1 && rows.len() < 5 {
        rows.push(use_job_menu(d, st));
    }
    rows
}

/// "Aid with a job": each job someone could aid with, and who.
fn aid_job_menu(d: &Draw, st: &TaskSession) -> Row {
    let mut jobs: Vec<(String, Vec<String>)> = Vec::new();
    for c in &st.candidates {
        for (j, l) in &c.jobs {
            let who = format!("{} (level {l})", c.name);
            match jobs.iter_mut().find(|(n, _)| n.eq_ignore_ascii_case(j)) {
                Some((_, w)) => w.push(who),
                None => jobs.push((j.clone(), vec![who])),
            }
        }
    }
    let options: Vec<SelectOption> = jobs
        .into_iter()
        .take(25)
        .map(|(j, who)| SelectOption {
            label: cut(&j, 100),
            value: j,
            description: Some(cut(&who.join(", "), 100)),
        })
        .collect();
    d.select(TaskButton::AidJob, "Aid with a job", options, 1)
}

/// "Use job": the roller's jobs that inherit the ability.
fn use_job_menu(d: &Draw, st: &TaskSession) -> Row {
    let options = st
        .roller_jobs
        .iter()
        .take(25)
        .map(|(j, l)| SelectOption {
            label: cut(j, 100),
            value: j.clone(),
            description: Some(if *l == 0 {
                "learning".into()
            } else {
                format!("level {l}")
            }),
        })
        .collect();
    d.select(TaskButton::UseJob, "Use job", options, 1)
}

/// The KISS round: the "KISS dice" menu, the ways to pay, **Re-roll** with
/// the Ego and consent buttons, and the FC's row.
fn kiss_rows(d: &Draw, st: &TaskSession) -> Vec<Row> {
    let t = &st.task;
    let mut rows = Vec::new();
    rows.extend(kiss_menu(d, st));
    rows.extend(pay_menu(d, st));
    rows.push(Row::Buttons(vec![
        d.b(TaskButton::Kiss(Payment::Lot), "KISS with Lot", Style::Primary),
        d.b(TaskButton::Kiss(Payment::Stunt), "KISS with stunt", Style::Primary),
        d.b(TaskButton::Kiss(Payment::Specialty), "KISS with specialty", Style::Primary),
        d.b(TaskButton::Kiss(Payment::Insight), "KISS with insight", Style::Primary),
        d.b(TaskButton::KissClear, "Withdraw my KISSes", Style::Secondary),
    ]));
    rows.push(Row::Buttons(kiss_roll_row(d, st)));
    let mut fc = Vec::new();
    if t.kisses.iter().any(|k| !k.approved) {
        fc.push(d.b(TaskButton::KissApprove, "Approve KISSes", Style::Success));
    }
    if !t.kisses.is_empty() {
        fc.push(d.b(TaskButton::KissVeto, "Veto last KISS", Style::Danger));
    }
    rows.push(d.fc_row(fc));
    rows
}

/// "KISS dice": every die not yet KISSed, misses first (a big pool pages,
/// so every die stays reachable).
fn kiss_menu(d: &Draw, st: &TaskSession) -> Option<Row> {
    let t = &st.task;
    let declared: Vec<u32> = t.kisses.iter().map(|k| k.die).collect();
    let mut dice: Vec<&TaskDie> = t
        .dice
        .iter()
        .filter(|d| !declared.contains(&d.id))
        .collect();
    dice.sort_by_key(|d| (d.succeeds(t.edition), d.id));
    let options: Vec<SelectOption> = dice
        .into_iter()
        .map(|d| SelectOption {
            label: format!("#{} · {} · {}", d.id, cut(&st.name_of(d.owner), 40), d.face),
            value: d.id.to_string(),
            description: Some(format!(
                "{}, {}",
                d.rank,
                if d.succeeds(t.edition) {
                    word(t.edition, 1)
                } else {
                    "miss".into()
                }
            )),
        })
        .collect();
    let options = crate::app::view::paged_options(options, st.kiss_page);
    let n = options.len();
    (n > 0).then(|| d.select(TaskButton::Pick, "KISS dice", options, n))
}

/// "Pay with a specialty or insight": the unused attributes and insights
/// of whoever has dice picked and not paid for; the one picked pays for
/// the clicker's first picked die.
fn pay_menu(d: &Draw, st: &TaskSession) -> Option<Row> {
    if st.drafts.values().all(|x| x.is_empty()) || st.pay_menu.is_empty() {
        return None;
    }
    let options: Vec<SelectOption> = st
        .pay_menu
        .iter()
        .map(|o| SelectOption {
            label: cut(&o.label, 100),
            value: o.value.clone(),
            description: Some(cut(&o.description, 100)),
        })
        .collect();
    let options = crate::app::view::paged_options(options, st.pay_page);
    Some(d.select(TaskButton::PayWith, PAY_WITH, options, 1))
}

/// The placeholder of the menu choosing what pays for a picked die.
pub const PAY_WITH: &str = "Pay with a specialty or insight";

/// **Re-roll** (or **No KISS**), and in edition 1 the Ego buttons and
/// **Consent to KISS**.
fn kiss_roll_row(d: &Draw, st: &TaskSession) -> Vec<Button> {
    let t = &st.task;
    let mut r = Vec::new();
    let any = !t.kisses.is_empty() || t.ego_reroll_pending;
    r.push(if any {
        d.b(TaskButton::KissRoll, "Re-roll", Style::Success)
    } else {
        d.b(TaskButton::KissRoll, "No KISS", Style::Success)
    });
    if t.edition == Edition::One {
        if t.ego_mode == EgoMode::None && (st.roller_ego || t.ego_reroll_pending) {
            let label = if t.ego_reroll_pending {
                "Withdraw Ego re-roll"
            } else {
                "Ego: re-roll misses"
            };
            r.push(d.b(TaskButton::EgoReroll, label, Style::Secondary));
            if !t.ego_reroll_pending {
                r.push(d.b(TaskButton::EgoSixes, "Ego: double 6s", Style::Secondary));
            }
        }
        if t.accepted_allies().next().is_some() {
            r.push(d.b(TaskButton::Consent, "Consent to KISS", Style::Secondary));
        }
    }
    r
}

/// Spending beats: the primary and S1-S4, T1-T4 and **Undo last**,
/// **Finish** (and Ego) with the FC's row, the "Special consequence" menu.
fn spending_rows(d: &Draw, st: &TaskSession) -> Vec<Row> {
    let t = &st.task;
    let left = t.beats_left();
    let can = |p: Purchase| can_buy(t, p);
    let buy = |c: Consequence, label: String| {
        let p = c.purchase();
        let style = if t.purchases.iter().any(|x| x.item == p) {
            Style::Success
        } else {
            Style::Secondary
        };
        let btn = d.named(TaskButton::Buy(c), &label, style);
        if can(p) {
            btn
        } else {
            btn.disabled()
        }
    };
    let mut r1 = vec![buy(
        Consequence::Primary,
        format!("Primary: success ({})", t.threshold),
    )];
    let mut r2 = Vec::new();
    for n in 1..=4u8 {
        let i = n as usize - 1;
        r1.push(buy(Consequence::Secondary(n), format!("S{n} {}", SECONDARY_SHORT[i])));
        r2.push(buy(Consequence::Tertiary(n), format!("T{n} {}", TERTIARY_SHORT[i])));
    }
    let mut undo = d.b(TaskButton::Undo, "Undo last", Style::Secondary);
    if t.purchases.is_empty() {
        undo = undo.disabled();
    }
    r2.push(undo);
    let mut r3 = vec![d.b(TaskButton::Finish, "Finish", Style::Primary)];
    if t.ego_mode == EgoMode::None && t.purchases.is_empty() && st.roller_ego {
        r3.push(d.b(TaskButton::EgoSixes, "Ego: double 6s", Style::Secondary));
    }
    let mut rows = vec![Row::Buttons(r1), Row::Buttons(r2), d.fc_row(r3)];
    let customs: Vec<SelectOption> = st
        .customs
        .iter()
        .enumerate()
        .filter(|(i, _)| can(Purchase::Custom(*i)))
        .take(25)
        .map(|(i, c)| SelectOption {
            label: cut(c, 100),
            value: (i + 1).to_string(),
            description: Some("special consequence, 1 beat".into()),
        })
        .collect();
    if !customs.is_empty() && left > 0 {
        rows.push(d.select(TaskButton::BuyCustom, "Special consequence", customs, 1));
    }
    if !st.overflow_jobs.is_empty() {
        let options: Vec<SelectOption> = st
            .overflow_jobs
            .iter()
            .take(25)
            .map(|j| SelectOption {
                label: cut(j, 100),
                value: j.clone(),
                description: Some(if j.eq_ignore_ascii_case(&t.job) {
                    "the job used: finish, +1 exp here".into()
                } else {
                    "finish, +1 exp here".into()
                }),
            })
            .collect();
        rows.push(d.select(TaskButton::FinishWith, FINISH_WITH, options, 1));
    }
    rows
}

/// The placeholder of the menu that finishes the spending and names the job
/// getting the exp of a T3 Lot over 10.
pub const FINISH_WITH: &str = "Finish: the Lot over 10 becomes exp in…";

/// Whether `p` can be bought now: affordable, and not bought yet (or a
/// repeatable one, under the house rule).
fn can_buy(t: &TaskState, p: Purchase) -> bool {
    let bought = t.purchases.iter().any(|x| x.item == p);
    let repeat = t.settings.ve1_consequence_repeat;
    t.cost_of(p) <= t.beats_left() && (!bought || (repeat && p != Purchase::Primary))
}

/// The FC's **Subvert S<n>** for each of `secondaries`, and **No subversion**.
fn subversion_row(d: &Draw, secondaries: impl IntoIterator<Item = u8>) -> Row {
    let mut r: Vec<Button> = secondaries
        .into_iter()
        .map(|n| {
            let label = format!("Subvert S{n} {}", SECONDARY_SHORT[n as usize - 1]);
            d.named(TaskButton::Subvert(n), &label, Style::Danger)
        })
        .collect();
    r.push(d.b(TaskButton::NoSubversion, "No subversion", Style::Secondary));
    Row::Buttons(r)
}

/// The "after the task" message: what changed, and each participant's
/// Lots, Ego and the job they used, as they stand now.
pub fn summary(st: &TaskSession, ctx: &VenusCtx) -> View {
    let t = &st.task;
    let mut e = Embed::new(format!("📈 After the task — {}", st.roller.name)).colour(
        if t.outcome.as_ref().is_some_and(|o| o.success) {
            colour::SUCCESS
        } else {
            colour::FAILURE
        },
    );
    let changes = if st.changes.is_empty() {
        "No sheet changed.".to_string()
    } else {
        st.changes.join("\n")
    };
    e = e.description(cut(&changes, 4000));
    let mut people: Vec<(i64, String)> = vec![(t.roller, t.job.clone())];
    people.extend(t.accepted_allies().map(|a| (a.id, a.job.clone())));
    for (who, job) in people.into_iter().take(10) {
        let Some(sheet) = ctx.sheets.get(&who) else {
            continue;
        };
        let mut lines = vec![format!(
            "Lots {} · Ego {}",
            lot_pips(sheet.lots),
            super::format::ego_text(sheet.ego)
        )];
        if let Some(key) = sheet.job_key(&job) {
            lines.push(job_line(key, &sheet.jobs[key], &t.settings));
        }
        e = e.field(st.name_of(who), lines.join("\n"), false);
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

    #[test]
    fn an_empty_consequence_adds_nothing() {
        assert_eq!(consequence_tail("  "), "");
        assert_eq!(consequence_tail("Caught"), " *Caught*");
    }
}
