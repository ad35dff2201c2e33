//! How the Veracity combat tracker looks: one embed (the round and whose
//! side's turn in the title, one line per combatant, the recent log) and at
//! most two rows of buttons.

use super::combat_buttons::{CombatButton, KIND};
use crate::app::component::Action;
use crate::app::view::{count, truncate, Button, Embed, Style, View};
use crate::rules::turns::Seat;
use crate::rules::veracity::initiative::{ApAction, Side};
use crate::rules::veracity::tracker::{side_name, Fight, Fighter, Gone, MOVE_FEET};
use crate::systems::table::look;

pub use crate::app::view::clean;

/// The title: the round and whose turn (`⚔️ Round 2 · Players' turn ·
/// Ada`), or the wait for initiative (`⏳ Waiting for Ada · initiative`),
/// or the end (`⏹️ Fight over · 3 rounds`).
pub fn title(f: &Fight) -> String {
    if f.ended {
        let rounds = count(f.turns.round, "round", "rounds");
        return look::Outcome::Closed.title(&format!("Fight over · {rounds}"));
    }
    if !f.started() {
        let leader = f
            .turns
            .seat(f.leader)
            .map_or_else(|| "the leader".to_string(), |s| short(&s.name));
        return look::Outcome::Pending.title(&format!("Waiting for {leader} · initiative"));
    }
    match f.acting_side() {
        Some(side) => {
            let mut t = format!(
                "⚔️ Round {} · {}' turn{}",
                f.turns.round,
                side_name(side),
                if f.surprise() { " (surprise)" } else { "" }
            );
            if let Some(s) = f.turns.current_seat() {
                t.push_str(&format!(" · {}", short(&s.name)));
            }
            t
        }
        None if f.everyone_fled() => format!("⚔️ Round {} · everyone has fled", f.turns.round),
        None => format!("⚔️ Round {} · no one can act", f.turns.round),
    }
}

/// When initiative is set and no one is left in the order (everyone fled,
/// or is dead or out): the line that says so and how the fight ends.
pub fn nobody_left(f: &Fight) -> Option<String> {
    if !f.nobody_left() {
        return None;
    }
    Some(format!(
        "{}: the referee can end the fight (**End the fight** behind ⚙)",
        if f.everyone_fled() {
            "Everyone has fled"
        } else {
            "No one is left in the fight"
        }
    ))
}

/// A name [`clean`]ed and cut to 40 characters, for the tracker's lines.
fn short(name: &str) -> String {
    let mut name = clean(name);
    truncate(&mut name, 40);
    name
}

/// One combatant's line: `▶ **Ada** · AP 3/5 · HP 0/0 · Wounds 2/6` (AP
/// left on its turn, else its AP per turn).
pub fn seat_line(f: &Fight, s: &Seat<Fighter>) -> String {
    let d = &s.data;
    let name = short(&s.name);
    let marker = if f.turns.current == Some(s.id) && !f.ended {
        "▶"
    } else {
        "·"
    };
    let mut line = format!("{marker} **{name}**");
    if s.id == f.leader {
        line.push_str(" (leader)");
    }
    match d.gone {
        Some(Gone::Dead) => line.push_str(" · 💀 dead"),
        Some(Gone::Fled) => line.push_str(" · 🏃 fled"),
        Some(Gone::Out) => line.push_str(" · ✖️ out"),
        None => {
            // The acting combatant's AP left; the others' AP per turn.
            if f.started() && f.turns.current == Some(s.id) {
                line.push_str(&format!(" · AP {}/{}", d.ap, d.ap_max));
            } else {
                line.push_str(&format!(" · AP {}", d.ap_max));
            }
        }
    }
    line.push_str(&format!(
        " · HP {}/{} · Wounds {}/{}",
        d.hp, d.hp_max, d.wounds, d.flesh
    ));
    let mut marks = Vec::new();
    if !f.started() && d.visible {
        marks.push("👁️ visible");
    } else if f.surprise() && d.seen && d.gone.is_none() {
        marks.push("👁️ seen: no surprise turn");
    }
    if d.immobilised {
        marks.push("⛓️ immobilised");
    }
    if d.unsuspecting {
        marks.push("💤 unsuspecting");
    }
    if !marks.is_empty() {
        line.push_str(&format!(" · {}", marks.join(" · ")));
    }
    line
}

fn side_block(f: &Fight, side: Side) -> Option<String> {
    let lines: Vec<String> = f
        .turns
        .seats
        .iter()
        .filter(|s| s.data.side == side)
        .map(|s| seat_line(f, s))
        .collect();
    (!lines.is_empty()).then(|| format!("**{}**\n{}", side_name(side), lines.join("\n")))
}

/// The tracker's embed.
pub fn embed(f: &Fight) -> Embed {
    let order = match f.first {
        Some(Side::Npcs) => [Side::Npcs, Side::Players],
        _ => [Side::Players, Side::Npcs],
    };
    let mut blocks: Vec<String> = order.iter().filter_map(|s| side_block(f, *s)).collect();
    if let Some(s) = f.turns.current_seat().filter(|_| f.started() && !f.ended) {
        blocks.push(format!(
            "**{}** may move {MOVE_FEET} ft and spend {} AP.",
            short(&s.name),
            s.data.ap
        ));
    } else if let Some(n) = nobody_left(f) {
        blocks.push(format!("{n}."));
    } else if !f.started() && !f.ended {
        blocks.push(
            "Players press **Join the fight**; the referee adds NPCs and characters (`/vr-gm combat add`) and marks who the enemy can see. Then the leader's Light save (**Roll initiative**, or `/vr save inventory:light fight:true` with a modifier or Facet): on a success the players act first."
                .into(),
        );
    }
    let mut description = blocks.join("\n\n");
    truncate(&mut description, 3800);
    let tone = if f.ended {
        look::Outcome::Closed
    } else if !f.started() || f.surprise() {
        look::Outcome::Pending
    } else {
        look::Outcome::Info
    };
    let mut e = Embed::new(title(f))
        .description(description)
        .colour(tone.colour());
    if !f.log.is_empty() {
        let mut log = f.log.join("\n");
        truncate(&mut log, 1000);
        e = e.field("Log", log, false);
    }
    // The buttons carry the AP costs: no footer legend.
    e
}

/// The tracker with its buttons (greyed out once closed).
pub fn view(id: i64, version: i64, open: bool, f: &Fight) -> View {
    let b = |a: CombatButton, label: &str, style: Style| {
        let mut button = Button::new(a.button(KIND, id, version).encode(), label, style);
        if !open || f.ended {
            button = button.disabled();
        }
        button
    };
    // A priced action's button says its cost, as the rules price it.
    let act = |a: ApAction, label: &str, style| {
        b(
            CombatButton::Act(a),
            &format!("{label} · {} AP", a.cost()),
            style,
        )
    };
    let mut v = View::embed(embed(f));
    let join = || b(CombatButton::Join, "Join the fight", Style::Success);
    // The referee's way out, behind the ⚙ (asking first while anyone is
    // still in the fight).
    let end = |style| b(CombatButton::End, "End the fight", style).gm_only();
    if !f.started() {
        v = v.buttons(vec![
            b(CombatButton::Initiative, "Roll initiative", Style::Primary),
            join(),
            end(Style::Danger),
        ]);
    } else if nobody_left(f).is_some() {
        // No one can act: the referee's way out is the only button.
        v = v.buttons(vec![end(Style::Primary)]);
    } else {
        v = v.buttons(vec![
            b(CombatButton::EndTurn, "End turn", Style::Primary),
            act(ApAction::Attack, "Attack", Style::Danger),
            b(CombatButton::Flee, "Flee", Style::Secondary),
            join(),
        ]);
        v = v.buttons(vec![
            act(ApAction::RevealSecret, "Reveal", Style::Secondary),
            act(ApAction::PickUpOrDrop, "Pick up/drop", Style::Secondary),
            act(ApAction::ProneOrStand, "Fall/stand", Style::Secondary),
            act(ApAction::DrawOrStow, "Draw/stow", Style::Secondary),
            end(Style::Danger),
        ]);
    }
    v
}
