//! Pure rendering: the slot grid (one symbol per slot), the sheet, what a
//! change did (every die face shown), a save, and the Convention board.
//! Long texts are summarised here to stay inside Discord's limits.

use std::collections::HashMap;

use crate::app::component::Action;
use crate::app::view::{clean, colour, escape, truncate, Button, Embed, Row, Style, View};
use crate::kit::controls::option;
use crate::rules::veracity::convention::{Convention, ConventionList};
use crate::rules::veracity::event::{RollPurpose, StressSource, Upshot, WoundReason};
use crate::rules::veracity::save::{Outcome, SaveReason, SaveResult};
use crate::rules::veracity::sheet::{GridCell, MAX_FACET_PHRASE, MAX_SLOTS};
use crate::rules::veracity::{Amount, Event, Inventory, ItemKind, Sheet};

use super::buttons::VrButton;
use super::KIND;
use crate::systems::table::look::{self, Mark};

/// What each slot symbol means (shown under every grid).
pub const LEGEND: &str =
    "🔒 locked · ⬜ empty · 🤫 Secret · 🎭 Ruse · 💢 Stress · 🔎 Evidence · 💰 Means · 🩸 Wound";

/// Largest field value we build (Discord allows 1024).
const FIELD_MAX: usize = 1000;
/// Largest description we build (Discord allows 4096).
const DESCRIPTION_MAX: usize = 3800;

/// The symbol of an item kind.
pub fn kind_symbol(kind: ItemKind) -> &'static str {
    match kind {
        ItemKind::Secret => "🤫",
        ItemKind::Ruse => "🎭",
        ItemKind::Stress => "💢",
        ItemKind::Evidence => "🔎",
        ItemKind::Means => "💰",
        ItemKind::Wound => "🩸",
    }
}

/// The kind with its article: "a Secret", "Evidence", "Means".
pub fn a_kind(kind: ItemKind) -> String {
    match kind {
        ItemKind::Secret | ItemKind::Ruse | ItemKind::Wound => format!("a {}", kind.name()),
        ItemKind::Stress | ItemKind::Evidence | ItemKind::Means => kind.name().to_string(),
    }
}

/// The symbol of one slot.
pub fn cell_symbol(cell: GridCell) -> &'static str {
    match cell {
        GridCell::Locked => "🔒",
        GridCell::Empty => "⬜",
        GridCell::Filled(k) => kind_symbol(k),
    }
}

/// One inventory as a bar short enough for one line on a phone (about 20
/// symbols): slots in order, runs of four or more of one symbol (two or
/// more locked slots) written once with a count, `⬜×5 🔒×11`; `mark` puts
/// 👉 before the slot a save looked at (never inside a run).
pub fn slot_bar(inv: &Inventory, mark: Option<u32>) -> String {
    // (symbol, count, marked)
    let mut runs: Vec<(&'static str, u32, bool)> = Vec::new();
    for n in 1..=MAX_SLOTS {
        let sym = cell_symbol(inv.cell(n));
        let marked = mark == Some(n);
        match runs.last_mut() {
            Some((last, count, false)) if !marked && *last == sym => *count += 1,
            _ => runs.push((sym, 1, marked)),
        }
    }
    let mut out = String::new();
    for (sym, count, marked) in runs {
        let short = count >= 4 || (sym == "🔒" && count >= 2);
        if short {
            if !out.is_empty() && !out.ends_with(' ') {
                out.push(' ');
            }
            out.push_str(&format!("{sym}×{count} "));
        } else {
            if marked {
                out.push('👉');
            }
            for _ in 0..count {
                out.push_str(sym);
            }
        }
    }
    out.trim_end().to_string()
}

/// `**Light** 🤫⬜⬜⬜ 🔒×14 · 3 free of 4`: a phone-width line.
pub fn grid_line(inv: &Inventory, mark: Option<u32>) -> String {
    format!(
        "**{}** {} · {} free of {}",
        inv.kind(),
        slot_bar(inv, mark),
        inv.empty_count(),
        inv.unlocked()
    )
}

/// Both inventories, one short line each.
pub fn grid(sheet: &Sheet) -> String {
    format!(
        "{}\n{}",
        grid_line(sheet.light(), None),
        grid_line(sheet.flesh(), None)
    )
}

/// Joins `prefix + text` lines into at most `max` characters, as
/// [`fit_parts`] with nothing after the texts.
pub fn fit_lines(lines: &[(String, String)], max: usize) -> String {
    let parts: Vec<(&str, &str, &str)> = lines
        .iter()
        .map(|(p, t)| (p.as_str(), t.as_str(), ""))
        .collect();
    fit_parts(&parts, max)
}

/// Joins `prefix + text + suffix` lines into at most `max` characters. The
/// texts are user-typed: they show as typed, markdown escaped (so it never
/// pairs with the prefix's or suffix's own), and only they are shortened,
/// before the last lines are dropped as a last resort.
fn fit_parts(lines: &[(&str, &str, &str)], max: usize) -> String {
    let line = |(p, t, s): &(&str, &str, &str), limit: usize| {
        let mut t = t.to_string();
        truncate(&mut t, limit);
        format!("{p}{}{s}", escape(&t))
    };
    for limit in [usize::MAX, 200, 120, 80, 50, 30, 16] {
        let joined = lines.iter().map(|l| line(l, limit)).collect::<Vec<_>>();
        let joined = joined.join("\n");
        if joined.chars().count() <= max {
            return joined;
        }
    }
    let mut out = String::new();
    for (i, l) in lines.iter().enumerate() {
        let l = line(l, 16) + "\n";
        if out.chars().count() + l.chars().count() + 20 > max {
            out.push_str(&format!("… and {} more", lines.len() - i));
            return out;
        }
        out.push_str(&l);
    }
    out.trim_end().to_string()
}

/// The items of one inventory, one line each: `` `3` 🤫 The mayor is a ghoul ``.
pub fn items_text(inv: &Inventory) -> String {
    let lines: Vec<(String, String)> = inv
        .slots()
        .iter()
        .enumerate()
        .filter_map(|(i, s)| {
            s.item().map(|item| {
                let text = if item.text.is_empty() {
                    item.kind.name().to_string()
                } else {
                    item.text.clone()
                };
                (format!("`{:>2}` {} ", i + 1, kind_symbol(item.kind)), text)
            })
        })
        .collect();
    if lines.is_empty() {
        return "*nothing*".into();
    }
    fit_lines(&lines, FIELD_MAX)
}

/// The sheet's status line.
pub fn status(sheet: &Sheet) -> String {
    let mut s = format!(
        "HP **{}/{}** · Breaks **{}** · Can level up: **{}**",
        sheet.hp_current(),
        sheet.hp_max(),
        sheet.break_count(),
        if sheet.can_level_up() { "yes" } else { "no" }
    );
    if sheet.is_dead() {
        s.push_str(" · 💀 **Dead**");
    }
    s
}

/// The Facets, one per line.
pub fn facets_text(sheet: &Sheet) -> String {
    if sheet.facets().is_empty() {
        return "*none*".into();
    }
    let lines: Vec<(String, String)> = sheet
        .facets()
        .iter()
        .enumerate()
        .map(|(i, f)| (format!("`{}` **{}** ", i + 1, f.die), f.phrase.clone()))
        .collect();
    fit_lines(&lines, FIELD_MAX)
}

/// The revelation log, newest last (the last five).
pub fn revelations_text(sheet: &Sheet) -> Option<String> {
    let log = sheet.revelation_log();
    if log.is_empty() {
        return None;
    }
    let skip = log.len().saturating_sub(5);
    let lines: Vec<(String, String)> = log
        .iter()
        .enumerate()
        .skip(skip)
        .map(|(i, r)| {
            let mut what = format!("{} Secret(s)", r.secrets.len());
            if !r.evidence.is_empty() {
                what.push_str(&format!(", {} Evidence", r.evidence.len()));
            }
            (
                format!("`{}` {} slot {} · {what} · ", i + 1, r.gained, r.slot),
                r.target.clone(),
            )
        })
        .collect();
    let mut text = fit_lines(&lines, FIELD_MAX - 40);
    if skip > 0 {
        text = format!("… {skip} earlier\n{text}");
    }
    Some(text)
}

/// The full sheet as an embed, `note` (what just happened to it) above
/// its slots.
pub fn sheet_embed(name: &str, sheet: &Sheet, note: Option<&str>) -> Embed {
    let name = clean(name);
    let title = if sheet.is_dead() {
        format!("💀 {name} (dead)")
    } else {
        format!("📜 {name}")
    };
    let note = note.map_or(String::new(), |n| format!("{n}\n\n"));
    let mut e = Embed::new(title)
        .description(format!("{note}{}\n{}", grid(sheet), status(sheet)))
        .colour(if sheet.is_dead() {
            colour::FAILURE
        } else {
            colour::NEUTRAL
        });
    for inv in [sheet.light(), sheet.flesh()] {
        let used = format!(
            "{} ({}/{} used)",
            inv.kind(),
            inv.filled_count(),
            inv.unlocked()
        );
        e = e.field(used, items_text(inv), false);
    }
    e = e.field("Facets", facets_text(sheet), false);
    if let Some(r) = revelations_text(sheet) {
        e = e.field("Revelations", r, false);
    }
    e
}

/// The sheet with its rest buttons (drawn for session `id` at `version`),
/// `note` above its slots.
pub fn sheet_view(
    id: i64,
    version: i64,
    open: bool,
    name: &str,
    sheet: &Sheet,
    note: Option<&str>,
) -> View {
    // The legend lives here (and in /help) only.
    let e = sheet_embed(name, sheet, note).footer(LEGEND);
    let alive = !sheet.is_dead() && open;
    let mut v = View::embed(e);
    // While Wounds wait, the owner's choice comes first: its buttons take
    // both rows. Else a rest button for each kind a rest removes.
    if !alive || sheet.pending_wounds() == 0 {
        let rest = |button: VrButton, label: &str, any: bool| {
            let b = Button::new(
                button.button(KIND, id, version).encode(),
                label,
                Style::Secondary,
            );
            if alive && any {
                b
            } else {
                b.disabled()
            }
        };
        let stress = sheet.light().count(ItemKind::Stress) > 0;
        let wound = sheet.flesh().count(ItemKind::Wound) > 0;
        v = v.buttons(vec![
            rest(VrButton::RestStress, "Rest: remove a Stress", stress),
            rest(VrButton::RestWound, "Rest: remove a Wound", wound),
        ]);
    }
    displace_rows(v, id, version, sheet, open)
}

/// Adds, while heart-attack Wounds wait (issue 14, A-R4), one button per
/// non-Wound Flesh item (the ten lowest, in two rows): the owner picks
/// what each Wound displaces.
pub fn displace_rows(mut v: View, id: i64, version: i64, sheet: &Sheet, open: bool) -> View {
    if sheet.pending_wounds() == 0 || sheet.is_dead() || !open {
        return v;
    }
    let buttons: Vec<Button> = (1..=sheet.flesh().unlocked())
        .filter_map(|n| {
            let item = sheet.flesh().get(n)?;
            if item.kind == ItemKind::Wound {
                return None;
            }
            let mut label = format!("Lose Flesh {n}: {} {}", item.kind.name(), item.text);
            truncate(&mut label, 80);
            Some(Button::new(
                VrButton::Displace(n).button(KIND, id, version).encode(),
                label,
                Style::Danger,
            ))
        })
        .collect();
    for row in buttons.chunks(5).take(2) {
        v = v.buttons(row.to_vec());
    }
    v
}

fn item_label(kind: ItemKind, text: &str) -> String {
    if text.is_empty() {
        format!("{} {}", kind_symbol(kind), kind.name())
    } else {
        format!("{} {} {}", kind_symbol(kind), kind.name(), italic(text, 80))
    }
}

/// User-typed text (an item, a Facet phrase, a Convention) in italics,
/// shortened to `max` and shown as typed: its markdown characters are
/// escaped ([`escape`]), so they neither vanish nor end the italics early.
pub fn italic(text: &str, max: usize) -> String {
    let mut t = text.to_string();
    truncate(&mut t, max);
    format!("*{}*", escape(&t))
}

/// Numbers as a list: `1, 3, 5`.
pub fn list(slots: &[u32]) -> String {
    slots
        .iter()
        .map(u32::to_string)
        .collect::<Vec<_>>()
        .join(", ")
}

fn purpose(p: RollPurpose) -> &'static str {
    match p {
        RollPurpose::Stress => "Stress",
        RollPurpose::FacetStress => "Facet die",
        RollPurpose::Shock => "Shock",
        RollPurpose::HeartAttack => "Heart attack",
        RollPurpose::Damage => "Damage",
        RollPurpose::Wounds => "Wounds",
        RollPurpose::Convention => "Convention",
    }
}

fn source(s: &StressSource) -> String {
    match s {
        StressSource::Referee => String::new(),
        StressSource::Facet { phrase, .. } => {
            format!(" for acting against {}", italic(phrase, MAX_FACET_PHRASE))
        }
        StressSource::Convention { text, .. } => format!(" for violating {}", italic(text, 80)),
        StressSource::ShockedBySecret => " from being shocked by a Secret".into(),
        StressSource::SocialAttack => " from a social attack".into(),
        StressSource::FledSocialConflict => " for fleeing a social conflict".into(),
        StressSource::OwnSecretRevealed => " from an own Secret revealed".into(),
    }
}

/// Why damage became Wounds, in a few words each: `immobilised, at 0 HP`.
pub fn wound_reasons(reasons: &[WoundReason]) -> String {
    let words: Vec<&str> = reasons.iter().map(|r| reason(*r)).collect();
    words.join(", ")
}

/// Why damage became Wounds, in a few words.
fn reason(r: WoundReason) -> &'static str {
    match r {
        WoundReason::Direct => "as Wounds",
        WoundReason::Immobilised => "immobilised",
        WoundReason::Unsuspecting => "unsuspecting",
        WoundReason::ZeroHp => "at 0 HP",
        WoundReason::SurpriseTurn => "surprise turn: bypasses HP",
        WoundReason::HpOverflow => "beyond the HP",
    }
}

/// The headline of Wounds taken: `takes 1 Wound`, `takes d4 Wounds`.
pub fn takes_wounds(amount: Amount) -> String {
    if amount == Amount::Flat(1) {
        "takes 1 Wound".to_string()
    } else {
        format!("takes {amount} Wounds")
    }
}

/// One line per event, in order (runs of Wounds merged into one line).
pub fn event_lines(events: &[Event]) -> Vec<String> {
    let mut out: Vec<String> = Vec::new();
    let mut wounds: Vec<u32> = Vec::new();
    let flush = |wounds: &mut Vec<u32>, out: &mut Vec<String>| {
        if !wounds.is_empty() {
            let s = plural(wounds.len());
            out.push(format!(
                "🩸 {} Wound{s} into Flesh slot{s} {}",
                wounds.len(),
                list(wounds)
            ));
            wounds.clear();
        }
    };
    for e in events {
        if let Event::WoundAdded { slot } = e {
            wounds.push(*slot);
            continue;
        }
        let Some(line) = event_line(e) else {
            continue;
        };
        flush(&mut wounds, &mut out);
        out.push(line);
    }
    flush(&mut wounds, &mut out);
    out
}

/// One event's line ([`event_lines`]): items and slots, Stress and Breaks
/// here, the rest by [`body_line`].
fn event_line(e: &Event) -> Option<String> {
    Some(match e {
        Event::ItemAdded {
            inventory,
            slot,
            item,
        } => format!(
            "➕ {inventory} slot {slot}: {}",
            item_label(item.kind, &item.text)
        ),
        Event::ItemRemoved {
            inventory,
            slot,
            item,
        } => format!(
            "➖ {inventory} slot {slot} emptied: {}",
            item_label(item.kind, &item.text)
        ),
        Event::ItemEdited {
            inventory,
            slot,
            new,
            ..
        } => format!("✏️ {inventory} slot {slot} now reads {}", italic(new, 80)),
        Event::ItemsMoved { inventory, moves } => format!(
            "↕️ {inventory} items moved down: {}",
            moves
                .iter()
                .map(|(a, b)| format!("{a}→{b}"))
                .collect::<Vec<_>>()
                .join(", ")
        ),
        Event::SlotUnlocked { inventory, slot } => {
            format!("🔓 {inventory} slot {slot} unlocked")
        }
        Event::ItemDisplaced { slot, item } => format!(
            "⚔️ Flesh slot {slot}: {} is lost to a Wound",
            item_label(item.kind, &item.text)
        ),
        Event::LevelledUp { inventory, slot } => {
            format!("⬆️ **Level up**: {inventory} slot {slot} unlocked")
        }
        Event::StressIncoming { source: s, n } => {
            format!("💢 **{n} Stress**{}", source(s))
        }
        Event::StressAdded { slots } => {
            format!("↳ into Light slot{} {}", plural(slots.len()), list(slots))
        }
        Event::StressDiscarded { n } => {
            format!("🗑️ {n} Stress did not fit and is discarded")
        }
        Event::Broke { count } => {
            format!("💥 **BREAK** (no free Light slot): break number {count}")
        }
        Event::LostWillToSeek => {
            "🥀 First Break: lost the will to seek, **can no longer level up**".into()
        }
        Event::HeartAttack { wounds: n } => {
            format!("🫀 **Heart attack**: {n} Wounds")
        }
        Event::StressCleared { slots } => {
            if slots.is_empty() {
                "🧘 All Stress cleared".into()
            } else {
                format!("🧘 All Stress cleared (Light slots {})", list(slots))
            }
        }
        Event::BreakWaived => "🤝 The referee waived the Break".into(),
        other => return body_line(other),
    })
}

/// The line of a Wound, death, HP, AP, Facet or revelation event
/// ([`event_line`] has the others). `None` for what other lines say: the
/// dice (the answer's first line, [`dice_line`]), a Convention violated
/// (the Stress line says "for violating …") and Wounds (merged into runs
/// by [`event_lines`]).
fn body_line(e: &Event) -> Option<String> {
    Some(match e {
        Event::WoundsPending { n } => format!(
            "⏳ {n} more Wound(s) need room: the owner chooses which Flesh item each displaces"
        ),
        Event::WoundsDiscarded { n } => {
            format!("🗑️ {n} Wound(s) found no room and are discarded")
        }
        Event::Died => "💀 **DEAD**: every Flesh slot holds a Wound".into(),
        Event::DeathSet { dead } => {
            if *dead {
                "💀 Marked dead".into()
            } else {
                "🌱 Marked alive".into()
            }
        }
        Event::HpLost {
            amount,
            before,
            after,
        } => format!("❤️ HP {before} → **{after}** (−{amount})"),
        Event::HpExcessLost { n } => format!("💨 {n} damage beyond the HP is lost"),
        Event::DamageAsWounds { n, reasons } => format!(
            "🩸 Damage becomes {n} Wound(s) ({})",
            wound_reasons(reasons)
        ),
        Event::HpSet { before, after, max } => {
            format!("❤️ HP {before} → **{after}**/{max}")
        }
        Event::ApRestored { ap } => format!("⚡ AP restored to {ap}"),
        Event::ApSpent { n, left } => format!("⚡ {n} AP spent, {left} left"),
        Event::FacetAdded { index, phrase, die } => {
            format!(
                "✨ Facet {}: **{die}** {}",
                index + 1,
                italic(phrase, MAX_FACET_PHRASE)
            )
        }
        Event::FacetRemoved { index, phrase } => {
            format!(
                "✖️ Facet {} removed: {}",
                index + 1,
                italic(phrase, MAX_FACET_PHRASE)
            )
        }
        Event::FacetStepped { index, from, to } => {
            format!("📶 Facet {}: {from} → **{to}**", index + 1)
        }
        Event::FacetReplaced { index, old, new } => {
            format!(
                "🔁 Facet {}: {} → {}",
                index + 1,
                italic(old, MAX_FACET_PHRASE),
                italic(new, MAX_FACET_PHRASE)
            )
        }
        Event::RevelationLogged { index, target } => {
            format!(
                "📣 Revelation {}: {} is shocked",
                index + 1,
                italic(&clean(target), 80)
            )
        }
        // What other lines say, and the events `event_line` words.
        _ => return None,
    })
}

/// The dice an action threw, as the first line of its answer:
/// `Stress d6 **4** · Heart attack d20 **11**` (each die counts: bold).
pub fn dice_line(events: &[Event]) -> Option<String> {
    let parts: Vec<String> = events
        .iter()
        .filter_map(|e| match e {
            Event::Rolled {
                purpose: p,
                sides,
                faces: f,
                total,
            } => {
                let marked = look::dice(f.iter().map(|x| (*x, Mark::Hit)));
                Some(if f.len() > 1 {
                    format!("{} {}d{sides} {marked} = **{total}**", purpose(*p), f.len())
                } else {
                    format!("{} d{sides} {marked}", purpose(*p))
                })
            }
            _ => None,
        })
        .collect();
    (!parts.is_empty()).then(|| parts.join(" · "))
}

/// Slot numbers as a short range list: `3`, `3, 4`, `1–4`.
fn slot_list(slots: &[u32]) -> String {
    let contiguous = slots.len() > 2 && slots.windows(2).all(|w| w[1] == w[0] + 1);
    match (contiguous, slots.first(), slots.last()) {
        (true, Some(a), Some(b)) => format!("{a}–{b}"),
        _ => list(slots),
    }
}

/// The plural ending of `n` things: `""` for one, else `"s"`.
pub fn plural(n: usize) -> &'static str {
    if n == 1 {
        ""
    } else {
        "s"
    }
}

/// What a change came to ([`Upshot::of`]), for its title, its colour and
/// `/history`. `None` for plain bookkeeping (items, Facets, HP set), which
/// answers in one line.
pub fn change_outcome(name: &str, events: &[Event]) -> Option<(look::Outcome, String)> {
    Upshot::of(events).map(|u| upshot_title(name, &u))
}

/// An [`Upshot`] in words: the title's outcome and text.
fn upshot_title(name: &str, upshot: &Upshot) -> (look::Outcome, String) {
    use look::Outcome::{Botch, Failure, Info, Partial, Pending, Success};
    let name = clean(name);
    match upshot {
        Upshot::Died => (Botch, "Dead · every Flesh slot holds a Wound".into()),
        Upshot::Broke {
            count,
            heart_attack: Some(n),
        } => (
            Botch,
            format!(
                "Break {count} · heart attack, {n} Wound{}",
                plural(*n as usize)
            ),
        ),
        Upshot::Broke {
            count: 1,
            heart_attack: None,
        } => (Botch, "Break · can no longer level up".into()),
        Upshot::Broke { count, .. } => (Botch, format!("Break {count}")),
        Upshot::WoundsPending { n } => (
            Pending,
            format!(
                "Waiting for {name} · {n} Wound{} need{} room",
                plural(*n as usize),
                if *n == 1 { "s" } else { "" }
            ),
        ),
        Upshot::LevelledUp { inventory, slot } => (
            Success,
            format!("Level up · {inventory} slot {slot} unlocked"),
        ),
        Upshot::Wounded { slots } => {
            let s = plural(slots.len());
            (
                Failure,
                format!(
                    "{} Wound{s} · Flesh slot{s} {}",
                    slots.len(),
                    slot_list(slots)
                ),
            )
        }
        Upshot::HpLost { amount, after } => (Partial, format!("−{amount} HP · {after} left")),
        Upshot::Stressed { slots, discarded } => {
            let s = plural(slots.len());
            let mut t = format!(
                "+{} Stress · Light slot{s} {}",
                slots.len(),
                slot_list(slots)
            );
            if let Some(d) = discarded {
                t.push_str(&format!(" · {d} discarded"));
            }
            (Partial, t)
        }
        Upshot::Discarded => (Info, "No room · discarded".into()),
        Upshot::NoDamage => (Info, "No damage taken".into()),
        Upshot::NothingChanged => (Info, "Nothing changed".into()),
    }
}

/// The embed describing a change: the outcome in the title, who and what
/// in the author line, the dice first, what happened, then the slots
/// (status in the footer).
pub fn change_embed(name: &str, what: &str, sheet: &Sheet, events: &[Event]) -> Embed {
    let upshot = Upshot::of(events);
    let (outcome, title) = upshot.as_ref().map_or_else(
        || (look::Outcome::Info, what.to_string()),
        |u| upshot_title(name, u),
    );
    // Lines the title already says are left out.
    let shown: Vec<Event> = events
        .iter()
        .filter(|e| match e {
            Event::StressAdded { .. } => !matches!(upshot, Some(Upshot::Stressed { .. })),
            Event::WoundAdded { .. } => !matches!(upshot, Some(Upshot::Wounded { .. })),
            Event::LevelledUp { .. } => false,
            _ => true,
        })
        .cloned()
        .collect();
    let mut lines = event_lines(&shown);
    if let Some(d) = dice_line(events) {
        lines.insert(0, d);
    }
    // With no line left, the title says it all: "Nothing changed." only
    // where nothing happened (it read under "❌ 1 Wound · Flesh slot 1").
    let mut description = match (lines.is_empty(), events.is_empty()) {
        (true, true) => "Nothing changed.".to_string(),
        _ => lines.join("\n"),
    };
    truncate(&mut description, DESCRIPTION_MAX);
    let mut e = Embed::new(outcome.title(&title)).author(format!("{name} · {what}"));
    if !description.is_empty() {
        e = e.description(description);
    }
    for ev in events {
        if let Event::RevelationLogged { index, .. } = ev {
            if let Some(r) = sheet.revelation_log().get(*index) {
                let mut lines: Vec<(String, String)> = r
                    .secrets
                    .iter()
                    .map(|t| ("🤫 ".to_string(), t.clone()))
                    .collect();
                lines.extend(r.evidence.iter().map(|t| ("🔎 ".to_string(), t.clone())));
                if !r.note.is_empty() {
                    lines.push(("📝 ".to_string(), r.note.clone()));
                }
                e = e.field("Revealed", fit_lines(&lines, FIELD_MAX), false);
            }
        }
    }
    e.colour(outcome.colour())
        .field("Slots", grid(sheet), false)
        .footer(plain_status(sheet))
}

/// The status line without markdown (footers show it raw).
pub fn plain_status(sheet: &Sheet) -> String {
    status(sheet).replace("**", "")
}

/// A change as players see it: plain bookkeeping (items, Facets, HP set,
/// a rest) in one public line; anything with an outcome (Stress, Wounds,
/// damage, a Break, death, a level up) as an outcome embed.
pub fn change_view(name: &str, what: &str, sheet: &Sheet, events: &[Event]) -> View {
    if change_outcome(name, events).is_some() {
        return View::embed(change_embed(name, what, sheet, events));
    }
    View::text(quiet_line(name, what, events))
}

/// One line for a bookkeeping change: `**Ada** adds a Secret: ➕ Light
/// slot 1: 🤫 Secret *The well*`.
pub fn quiet_line(name: &str, what: &str, events: &[Event]) -> String {
    let lines = event_lines(events);
    let mut line = format!("**{}** {what}", clean(name));
    if lines.is_empty() {
        line.push_str(": nothing changed.");
    } else {
        line.push_str(&format!(": {}", lines.join("; ")));
    }
    truncate(&mut line, 1900);
    line
}

/// A chance as `35%` or `42.9%`.
pub fn percent(p: f64) -> String {
    let x = (p * 1000.0).round() / 10.0;
    if (x - x.round()).abs() < 1e-9 {
        format!("{}%", x.round() as i64)
    } else {
        format!("{x:.1}%")
    }
}

/// A number with the typographic minus (−) when negative, as [`signed`]
/// writes modifiers: one minus sign style in every save message.
fn minus(n: i32) -> String {
    if n < 0 {
        format!("−{}", n.unsigned_abs())
    } else {
        n.to_string()
    }
}

/// ` + 2`, ` − 3`: a term of a sum.
fn term(n: i32) -> String {
    if n < 0 {
        format!(" − {}", n.unsigned_abs())
    } else {
        format!(" + {n}")
    }
}

/// A save's outcome in the seed's words: "On a 0 or lower, you succeed. On
/// an 19+ you fail. Otherwise, look at the corresponding slot: if the slot
/// is empty you succeed, otherwise you fail."
pub fn save_outcome(r: &SaveResult) -> (look::Outcome, String) {
    let success = r.outcome == Outcome::Success;
    let (o, word) = if success {
        (look::Outcome::Success, "Success")
    } else {
        (look::Outcome::Failure, "Failure")
    };
    let slot = r.slot.unwrap_or(0);
    let why = match r.reason {
        SaveReason::TotalAtMostZero => format!("total {} is 0 or lower", minus(r.total)),
        SaveReason::TotalAtLeast19 => format!("total {} is 19+", r.total),
        SaveReason::SlotEmpty => format!("{} slot {slot} is empty", r.inventory),
        SaveReason::SlotFilled(kind) => {
            format!("{} slot {slot} holds {}", r.inventory, a_kind(kind))
        }
        SaveReason::SlotLocked => format!("{} slot {slot} is locked", r.inventory),
    };
    (o, format!("{word} · {why}"))
}

/// The result of a save: the outcome in the title, who and which save in
/// the author line, the dice first, the inventory with the slot looked
/// at, then the sum and the chance before rolling. `what` names the save
/// ("Light save", "Light save · initiative").
pub fn save_view(
    name: &str,
    what: &str,
    inv: &Inventory,
    facets: &[String],
    r: &SaveResult,
) -> View {
    let (outcome, title) = save_outcome(r);
    let d20 = if r.outcome == Outcome::Success {
        Mark::Hit
    } else {
        Mark::Miss
    };
    let mut dice = vec![format!("d20 {}", look::die(r.d20, d20))];
    let mut sum = r.d20.to_string();
    if r.modifier != 0 {
        sum.push_str(&term(r.modifier));
    }
    for (i, f) in r.facets.iter().enumerate() {
        // A Facet's phrase, another's with "(of NAME)": never cut.
        let label = italic(facets.get(i).map_or("", String::as_str), 200);
        // A die that lowers the total helps the saver.
        let mark = if f.shift < 0 { Mark::Hit } else { Mark::Miss };
        dice.push(format!(
            "{} {} {label}",
            f.bonus.die,
            look::die(f.roll, mark)
        ));
        sum.push_str(&term(f.shift));
    }
    sum.push_str(&format!(" = **{}**", minus(r.total)));
    let mut e = Embed::new(outcome.title(&title))
        .author(format!("{name} · {what}"))
        .description(format!(
            "{}\n**{}** {}",
            dice.join(" · "),
            r.inventory,
            slot_bar(inv, r.slot)
        ))
        .colour(outcome.colour());
    // A bare d20 is its own total: no sum to show.
    if r.modifier != 0 || !r.facets.is_empty() {
        e = e.field("Total", sum, true);
    }
    View::embed(e.footer(format!("Chance before rolling {}", percent(r.chance))))
}

/// The Convention board: every Convention with its cost and "once per
/// scene" marks, and a "Violated…" menu (session `id` at `version`).
pub fn board_view(
    id: i64,
    version: i64,
    list: &ConventionList,
    names: &HashMap<i64, String>,
    note: Option<&str>,
) -> View {
    let items = list.items();
    let mut e = Embed::new("📜 Conventions of this scene").colour(colour::NEUTRAL);
    let body = if items.is_empty() {
        "*No Conventions declared here.* The referee adds one with `/vr-gm convention add`."
            .to_string()
    } else {
        let lines: Vec<(String, String)> = items
            .iter()
            .enumerate()
            .map(|(i, c)| (format!("**{}.** ", i + 1), convention_tail(c, names)))
            .collect();
        // The tail holds the cost: only the text part is shortened.
        let parts: Vec<(&str, &str, &str)> = items
            .iter()
            .zip(&lines)
            .map(|(c, (p, tail))| (p.as_str(), c.text.as_str(), tail.as_str()))
            .collect();
        let mut out = fit_parts(&parts, DESCRIPTION_MAX);
        truncate(&mut out, DESCRIPTION_MAX);
        out
    };
    let description = match note {
        Some(n) => format!("{n}\n\n{body}"),
        None => body,
    };
    e = e.description(description).footer(
        "Violated one? Pick it in the menu: your active sheet gains the Stress. \
         The referee can charge anyone with /vr convention violate.",
    );
    let mut view = View::embed(e);
    if !items.is_empty() {
        view.rows.push(violate_select(id, version, items));
    }
    view
}

/// What follows a Convention's text: its cost, and once per scene who
/// has paid it (five names at most).
fn convention_tail(c: &Convention, names: &HashMap<i64, String>) -> String {
    let mut tail = format!(" — **{}**", c.cost);
    if c.once_per_scene {
        tail.push_str(" · once per scene");
        if !c.paid_this_scene.is_empty() {
            let mut who: Vec<String> = c
                .paid_this_scene
                .iter()
                .map(|id| names.get(id).map_or_else(|| "?".into(), |n| clean(n)))
                .collect();
            if who.len() > 5 {
                let more = who.len() - 5;
                who.truncate(5);
                who.push(format!("{more} more"));
            }
            tail.push_str(&format!(" · paid: {}", who.join(", ")));
        }
    }
    tail
}

/// The "Violated a Convention…" select: one option per Convention (its
/// number and text, its cost below), cut to Discord's limits by
/// [`option`].
fn violate_select(id: i64, version: i64, items: &[Convention]) -> Row {
    let options = items
        .iter()
        .enumerate()
        .map(|(i, c)| {
            let once = c.once_per_scene.then_some(" · once per scene");
            let cost = format!("{} Stress{}", c.cost, once.unwrap_or_default());
            option(
                &format!("{}. {}", i + 1, c.text),
                c.id.to_string(),
                Some(&cost),
            )
        })
        .collect();
    let custom_id = VrButton::Violate.button(KIND, id, version).encode();
    Row::pick(custom_id, "Violated a Convention…", options)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::veracity::Item;

    #[test]
    fn a_sheet_and_wounds_waiting_name_the_character_without_markdown() {
        let s = Sheet::new_pc(6, 6, "Cruel").unwrap();
        assert_eq!(sheet_embed("A*d_a", &s, None).title, "📜 Ada");
        let waiting = change_outcome("A*d_a", &[Event::WoundsPending { n: 2 }]);
        assert_eq!(
            waiting.map(|(_, t)| t).as_deref(),
            Some("Waiting for Ada · 2 Wounds need room")
        );
    }

    #[test]
    fn the_slot_bar_fits_a_phone_line() {
        let mut s = Sheet::new_pc(6, 6, "Cruel").unwrap();
        assert_eq!(slot_bar(s.light(), None), "⬜×6 🔒×12");
        s.add_item(Item::new(ItemKind::Secret, "The mayor is a ghoul").unwrap())
            .unwrap();
        assert_eq!(slot_bar(s.light(), None), "🤫 ⬜×5 🔒×12");
        // The slot a save looked at stands alone, never inside a run.
        assert_eq!(slot_bar(s.light(), Some(7)), "🤫 ⬜×5 👉🔒 🔒×11");
        assert_eq!(slot_bar(s.light(), Some(3)), "🤫⬜👉⬜⬜⬜⬜ 🔒×12");
        // Eighteen unlocked slots of alternating kinds: at most 18 symbols.
        let mut big = Sheet::new_npc(18, 18).unwrap();
        for i in 0..18 {
            let kind = if i % 2 == 0 {
                ItemKind::Secret
            } else {
                ItemKind::Ruse
            };
            big.add_item(Item::new(kind, &format!("x{i}")).unwrap())
                .unwrap();
        }
        assert!(slot_bar(big.light(), None).chars().count() <= 20);
    }

    #[test]
    fn a_change_states_its_outcome_and_bookkeeping_is_one_line() {
        let s = Sheet::new_pc(6, 6, "Cruel").unwrap();
        let stress = vec![
            Event::Rolled {
                purpose: RollPurpose::Stress,
                sides: 4,
                faces: vec![3],
                total: 3,
            },
            Event::StressAdded {
                slots: vec![1, 2, 3],
            },
        ];
        let e = change_embed("Ada", "gains d4 Stress", &s, &stress);
        assert_eq!(e.title, "🟡 +3 Stress · Light slots 1–3");
        assert_eq!(e.author.as_deref(), Some("Ada · gains d4 Stress"));
        assert_eq!(e.description.as_deref(), Some("Stress d4 **3**"));
        assert_eq!(e.colour, Some(look::Outcome::Partial.colour()));
        let added = vec![Event::ItemAdded {
            inventory: crate::rules::veracity::InventoryKind::Light,
            slot: 1,
            item: Item::new(ItemKind::Secret, "The well").unwrap(),
        }];
        let v = change_view("Ada", "adds a Secret", &s, &added);
        assert!(v.embeds.is_empty());
        assert_eq!(
            v.content.as_deref(),
            Some("**Ada** adds a Secret: ➕ Light slot 1: 🤫 Secret *The well*")
        );
    }

    #[test]
    fn long_item_lists_fit_a_field() {
        let mut s = Sheet::new_npc(18, 18).unwrap();
        for i in 0..18 {
            s.add_item(Item::new(ItemKind::Ruse, &format!("{i} {}", "x".repeat(190))).unwrap())
                .unwrap();
        }
        let t = items_text(s.light());
        assert!(t.chars().count() <= 1024, "{}", t.chars().count());
        assert_eq!(t.lines().count(), 18);
    }

    #[test]
    fn the_violate_menu_names_each_convention_and_its_cost() {
        let mut list = ConventionList::new();
        let long = "Never swear at the table ".repeat(5);
        list.add(&long, "+d4".parse().unwrap(), true).unwrap();
        list.add("Bow", "+1".parse().unwrap(), false).unwrap();
        let Row::Select(menu) = violate_select(1, 0, list.items()) else {
            panic!("a select");
        };
        let mut cut = format!("1. {long}");
        truncate(&mut cut, 100);
        let shown: Vec<(&str, &str, Option<&str>)> = menu
            .options
            .iter()
            .map(|o| (o.label.as_str(), o.value.as_str(), o.description.as_deref()))
            .collect();
        let ids: Vec<String> = list.items().iter().map(|c| c.id.to_string()).collect();
        assert_eq!(
            shown,
            [
                (
                    cut.as_str(),
                    ids[0].as_str(),
                    Some("+d4 Stress · once per scene")
                ),
                ("2. Bow", ids[1].as_str(), Some("+1 Stress")),
            ]
        );
    }

    #[test]
    fn percentages_read_well() {
        assert_eq!(percent(0.35), "35%");
        assert_eq!(percent(0.0), "0%");
        assert_eq!(percent(1.0), "100%");
        assert_eq!(percent(103.0 / 240.0), "42.9%");
    }

    #[test]
    fn runs_of_wounds_are_merged() {
        let ev = vec![
            Event::WoundAdded { slot: 1 },
            Event::WoundAdded { slot: 2 },
            Event::Died,
        ];
        assert_eq!(
            event_lines(&ev),
            vec![
                "🩸 2 Wounds into Flesh slots 1, 2".to_string(),
                "💀 **DEAD**: every Flesh slot holds a Wound".to_string()
            ]
        );
    }
}
