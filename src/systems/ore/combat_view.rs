//! The combat tracker's message (issue 15): one embed with the round and
//! phase in the title, the order as one line per combatant
//! (`▶ Ada · Outthink 27 · Init 34 · Vit 5/6 · Fault 3 7`), whose turn it
//! is with movement, ranges, reactions and Prediction, a short log, and at
//! most two rows of controls (a select and a row of buttons).

use super::combat_buttons::{CombatButton, KIND};
use super::text;
use crate::app::component::Action;
use crate::app::view::{colour, Button, Embed, Row, Style, View};
use crate::kit::controls::{option, shown};
use crate::rules::ore::sets::read;
use crate::rules::ore::sheet::{Damageable, OreSheet, Stat, World};
use crate::rules::ore::tracker::{
    moves, sheet_of, Fight, Fighter, Phase, Register, Sheets, INJURY_MARK,
};
use crate::rules::turns::Seat;
use crate::storage::sessions::Status;

/// Characters of the order in the description.
const ORDER_CHARS: usize = 3600;

fn world_name(w: World) -> &'static str {
    match w {
        World::Physical => "the physical world",
        World::Veil => "the Veil",
        World::CosmOS => "cosmOS",
    }
}

fn phase_name(p: Phase) -> &'static str {
    match p {
        Phase::Setup => "Setting up",
        Phase::Call => "Call phase",
        Phase::Resolution => "Resolution phase",
        Phase::End => "End phase",
    }
}

/// The tracks a line shows besides Vitality, when they are down, by the
/// short names it gives them.
const DOWN_TRACKS: [(Damageable, &str); 2] = [
    (Damageable::Confidence, "Conf"),
    (Damageable::Cyber, "Cyber"),
];

/// The health part of a line: `Vit 5/6`, a mob's `Health 2/3`, and
/// Confidence or Cyber when they are down.
fn health(s: &OreSheet) -> String {
    let vit = if s.mob_mode { "Health" } else { "Vit" };
    let mut out = format!("{vit} {}/{}", s.vitality.current, s.vitality.max);
    if !s.mob_mode {
        for (t, short) in DOWN_TRACKS {
            let tr = s.track(t);
            if tr.current < tr.max {
                out.push_str(&format!(" · {short} {}/{}", tr.current, tr.max));
            }
        }
        if !s.fault_dice.is_empty() {
            out.push_str(&format!(" · Fault {}", text::faces(&s.fault_dice)));
        }
        let injuries: Vec<&str> = s.active_injuries().map(|i| i.severity.name()).collect();
        if !injuries.is_empty() {
            let label = if injuries.len() == 1 {
                "Injury"
            } else {
                "Injuries"
            };
            out.push_str(&format!(" · {label}: {}", injuries.join(", ")));
        }
    }
    if s.combat.incapacitated_pending_end_of_round {
        out.push_str(" · ⏳ down at the End phase (−1 Power)");
    }
    out
}

/// One combatant's line.
pub fn line(fight: &Fight, seat: &Seat<Fighter>, pcs: &Sheets) -> String {
    let mark = if seat.out {
        "✖"
    } else if fight.acting().is_some_and(|a| a.id == seat.id) {
        "▶"
    } else {
        "•"
    };
    let mut l = format!("{mark} **{}**", seat.shown());
    if seat.data.npc.as_ref().is_some_and(|s| s.mob_mode) {
        l.push_str(" (mob)");
    }
    if sheet_of(seat, pcs).is_some_and(|s| s.native_digital) {
        l.push_str(" (digital)");
    }
    if let Some(o) = seat.data.outthink {
        l.push_str(&format!(" · Outthink {o}"));
    }
    if let Some(i) = seat.data.initiative {
        l.push_str(&format!(" · Init {i}"));
    }
    match sheet_of(seat, pcs) {
        Some(s) => {
            l.push_str(" · ");
            l.push_str(&health(s));
        }
        None if seat.character.is_some() => l.push_str(" · sheet gone"),
        None => {}
    }
    if seat.out {
        l.push_str(" · out");
    }
    if let Some(stat) = seat.data.called {
        l.push_str(&format!(" · calls {}", stat.name()));
        if let Some((faces, error_dice)) = seat.data.register.as_ref().and_then(Register::rolled) {
            let r = read(faces);
            if faces.is_empty() {
                l.push_str(": no dice");
            } else if r.sets.is_empty() {
                l.push_str(&format!(": no set · {}", text::grouped_reading(&r)));
            } else {
                l.push_str(&format!(": {}", text::grouped_reading(&r)));
            }
            if !error_dice.is_empty() {
                l.push_str(&format!(" · ⚠️ error dice **{}**", text::faces(error_dice)));
            }
        }
    }
    l
}

fn names(seats: &[&Seat<Fighter>]) -> String {
    seats
        .iter()
        .map(|s| s.shown())
        .collect::<Vec<_>>()
        .join(", ")
}

/// The field about whose turn it is (or what the phase waits for).
fn turn_field(fight: &Fight, pcs: &Sheets) -> (String, String) {
    match (fight.phase, fight.acting()) {
        (Phase::Setup, _) => (
            "Joining".into(),
            format!(
                "Players press **Join** to seat their active character; the Compiler adds NPCs and mobs with `/vv-gm combat add`, then presses **Begin** to roll Prediction (Wit → Outthink) and Initiative ({}).",
                fight.initiative_stat().name()
            ),
        ),
        (Phase::Call, Some(s)) => (
            format!("📣 {} calls a stat", s.shown()),
            if s.owner.is_some() {
                format!(
                    "Lowest Outthink calls first. {}'s player (or the Compiler) picks the Called Stat below; its roll becomes the register, with its buttons.",
                    s.shown()
                )
            } else {
                "Lowest Outthink calls first. The Compiler picks the Called Stat below and the tracker rolls it.".into()
            },
        ),
        (Phase::Call, None) => ("📣 Call phase".into(), "No one left to call.".into()),
        (Phase::Resolution, Some(s)) => (
            format!("⚔ {}'s turn", s.shown()),
            text::join_capped(&resolution_lines(fight, s, pcs), 1000),
        ),
        (Phase::Resolution, None) => ("⚔ Resolution".into(), "No one left to act.".into()),
        (Phase::End, _) => (
            "⏱ End phase".into(),
            format!(
                "Every turn is taken. The Compiler presses **Next round**: damage is finalised (Fault checks, incapacitation, −1 Power ends), registers are cleared and round {} begins.",
                fight.turns.round.saturating_add(1)
            ),
        ),
    }
}

/// What the acting seat `s` may do on its turn, one line each (those that
/// say nothing left out): its movement, the ranges, who may react, whom
/// Prediction works against, and who presses **Next turn**.
fn resolution_lines(fight: &Fight, s: &Seat<Fighter>, pcs: &Sheets) -> Vec<String> {
    let half = if s.data.called == Some(Stat::Agility) {
        " + ½ Agility"
    } else {
        ""
    };
    let init = s.data.initiative.unwrap_or(0);
    let (reactors, pred) = (fight.reactors(), fight.predictable_by(s.id));
    [
        sheet_of(s, pcs).map(|sheet| {
            let moves = moves(sheet, s.data.called);
            format!("🏃 Move **{moves}** squares (Agility{half}; +1 per Minor action)")
        }),
        Some("🎯 Close 1 square · Short ≤ 3 · Long 4–6 (no diagonals)".into()),
        Some(if reactors.is_empty() {
            format!("↩ No one out-thinks Initiative {init}: no reactions.")
        } else {
            format!("↩ May react (Outthink > Init {init}): {}", names(&reactors))
        }),
        (!pred.is_empty()).then(|| format!("🧠 Prediction moves work against: {}", names(&pred))),
        Some(if s.owner.is_some() {
            format!("**Next turn**: {}'s player or the Compiler.", s.shown())
        } else {
            "**Next turn**: the Compiler.".to_string()
        }),
    ]
    .into_iter()
    .flatten()
    .collect()
}

/// Characters of the log and of the dice field.
const LOG_CHARS: usize = 1000;
/// Characters a whole embed may hold (Discord's limit, with a margin).
const EMBED_CHARS: usize = 5900;
/// Room kept for the footer and the dice field's name.
const FOOTER_ROOM: usize = 160;
/// The least room worth a dice field.
const MIN_DICE_ROOM: usize = 120;

/// The log within `max` characters: the oldest lines go first, but never
/// an Injury line while another line can go ([`INJURY_MARK`]).
fn log_text(log: &[String], max: usize) -> String {
    let mut lines: Vec<&String> = log.iter().collect();
    let size = |ls: &[&String]| ls.iter().map(|l| l.chars().count() + 1).sum::<usize>();
    while size(&lines) > max {
        match lines.iter().position(|l| !l.starts_with(INJURY_MARK)) {
            Some(k) if lines.len() > 1 => {
                lines.remove(k);
            }
            _ => break,
        }
    }
    let lines: Vec<String> = lines.into_iter().cloned().collect();
    text::join_capped(&lines, max)
}

/// One line per combatant with its Prediction and Initiative dice and
/// values: `Ann: **2 2** 6 1 → 22 · 9 5 3 1 → 19`.
fn order_dice(fight: &Fight) -> Vec<String> {
    let dice = |faces: &[u32], value: Option<u32>| {
        let shown = if faces.is_empty() {
            "no dice".to_string()
        } else {
            text::grouped_reading(&read(faces))
        };
        format!("{shown} → {}", value.unwrap_or(0))
    };
    fight
        .turns
        .seats
        .iter()
        .filter(|s| s.data.outthink.is_some() || s.data.initiative.is_some())
        .map(|s| {
            format!(
                "{}: {} │ {}",
                s.shown(),
                dice(&s.data.outthink_dice, s.data.outthink),
                dice(&s.data.initiative_dice, s.data.initiative)
            )
        })
        .collect()
}

/// The tracker's message: session `id` at `version`.
pub fn view(
    id: i64,
    version: i64,
    status: Status,
    fight: &Fight,
    pcs: &Sheets,
    max_pool: u32,
) -> View {
    let open = status == Status::Open;
    let mut v = View::embed(tracker_embed(fight, pcs, open));
    v.shows = Some(id);
    if !open {
        return v;
    }
    let bid = |b: CombatButton| b.button(KIND, id, version).encode();
    v.rows.extend(phase_select(fight, pcs, max_pool, &bid));
    v.buttons(phase_buttons(fight, &bid))
}

/// The tracker's embed: the round and phase, one line per combatant,
/// whose turn it is, the log and the order's dice (when they fit).
fn tracker_embed(fight: &Fight, pcs: &Sheets, open: bool) -> Embed {
    let title = if !open {
        format!("🏁 Combat over · round {}", fight.turns.round)
    } else if fight.phase == Phase::Setup {
        "⚔ Combat · Setting up".to_string()
    } else {
        format!(
            "⚔ Combat · Round {} · {}",
            fight.turns.round,
            phase_name(fight.phase)
        )
    };
    let mut lines = vec![format!(
        "In {} · Initiative: {}",
        world_name(fight.world),
        fight.initiative_stat().name()
    )];
    if fight.turns.seats.is_empty() {
        lines.push("*No one has joined yet.*".into());
    }
    lines.extend(fight.turns.seats.iter().map(|s| line(fight, s, pcs)));
    let description = text::join_capped(&lines, ORDER_CHARS);
    // What the embed holds so far, for the dice field's room below.
    let mut used = title.chars().count() + description.chars().count() + FOOTER_ROOM;
    let mut embed = Embed::new(title)
        .description(description)
        .colour(match (open, fight.phase) {
            (false, _) => colour::CLOSED,
            (true, Phase::End) => colour::PENDING,
            (true, _) => colour::NEUTRAL,
        });
    if open {
        let (name, value) = turn_field(fight, pcs);
        used += name.chars().count() + value.chars().count();
        embed = embed.field(name, value, false);
    }
    if !fight.log.is_empty() {
        let log = log_text(&fight.log, LOG_CHARS);
        used += log.chars().count() + 3;
        embed = embed.field("Log", log, false);
    }
    let dice = order_dice(fight);
    let room = EMBED_CHARS.saturating_sub(used).min(LOG_CHARS);
    if !dice.is_empty() && room >= MIN_DICE_ROOM {
        embed = embed.field(
            format!(
                "🎲 Prediction (Wit) │ Initiative ({})",
                fight.initiative_stat().name()
            ),
            text::join_capped(&dice, room),
            false,
        );
    }
    embed.footer(if open {
        "The Compiler begins, adds, removes, damages and ends; players act on their own turn."
    } else {
        "This fight is over."
    })
}

/// The phase's select: the stat to call (with each stat's dice), or who
/// reacts out of turn.
fn phase_select(
    fight: &Fight,
    pcs: &Sheets,
    max_pool: u32,
    bid: &impl Fn(CombatButton) -> String,
) -> Option<Row> {
    let (custom_id, placeholder, options) = match fight.phase {
        Phase::Call => {
            let s = fight.acting()?;
            let sheet = sheet_of(s, pcs);
            let options = Stat::ALL
                .iter()
                .map(|st| {
                    let label = match sheet {
                        Some(sh) => format!(
                            "{} ({})",
                            st.name(),
                            text::count(sh.stats.get(*st).min(max_pool), "die", "dice")
                        ),
                        None => st.name().to_string(),
                    };
                    option(&label, st.name().to_lowercase(), None)
                })
                .collect();
            let placeholder = format!("Call a stat for {}", s.name);
            (bid(CombatButton::Call), placeholder, options)
        }
        Phase::Resolution => {
            let reactors = fight.reactors();
            if reactors.is_empty() {
                return None;
            }
            let options = reactors
                .iter()
                .take(25)
                .map(|s| {
                    let outthink = format!("Outthink {}", s.data.outthink.unwrap_or(0));
                    option(
                        &format!("{} reacts", s.name),
                        s.id.to_string(),
                        Some(&outthink),
                    )
                })
                .collect();
            let placeholder = "React out of turn…".to_string();
            (bid(CombatButton::React), placeholder, options)
        }
        Phase::Setup | Phase::End => return None,
    };
    Some(Row::pick(custom_id, placeholder, options))
}

/// The phase's buttons: Begin, Next turn or Next round, Join, and End
/// combat (the Compiler's in the ⚙ panel).
fn phase_buttons(fight: &Fight, bid: &impl Fn(CombatButton) -> String) -> Vec<Button> {
    let b = |action, label: &str, style| Button::new(bid(action), label, style);
    let phase = fight.phase;
    shown([
        // Beginning and ending a round are the Compiler's: in the ⚙ panel.
        (
            phase == Phase::Setup,
            b(CombatButton::Begin, "Begin", Style::Success).gm_only(),
        ),
        (
            phase == Phase::Resolution,
            b(CombatButton::Next, "Next turn", Style::Primary),
        ),
        (
            phase == Phase::End,
            b(CombatButton::NextRound, "Next round", Style::Success).gm_only(),
        ),
        // Anyone seats their active character, in any phase (issue 31: was
        // `/vv combat join`); a late joiner rolls Outthink and Initiative.
        (true, b(CombatButton::Join, "Join", Style::Secondary)),
        // The Compiler's tool (issue 16): moved into the private ⚙ panel,
        // which asks to confirm it.
        (
            true,
            b(CombatButton::End, "End combat", Style::Danger).gm_only(),
        ),
    ])
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::ore::sheet::Stats;
    use crate::rules::ore::OreSettings;
    use rand::{rngs::StdRng, SeedableRng};

    #[test]
    fn health_names_the_tracks_that_are_down() {
        use crate::rules::ore::sheet::{Injury, Severity};
        let mut s = OreSheet::new(Stats::all(3));
        assert_eq!(health(&s), "Vit 3/3");
        s.confidence.current = 1;
        s.cyber.current = 2;
        s.fault_dice = vec![7, 2];
        let minor = Injury {
            severity: Severity::Minor,
            healed: false,
            losses: None,
        };
        s.injuries = vec![minor];
        assert_eq!(
            health(&s),
            "Vit 3/3 · Conf 1/3 · Cyber 2/3 · Fault 7 2 · Injury: Minor"
        );
        s.injuries.push(minor);
        assert!(health(&s).ends_with(" · Injuries: Minor, Minor"));
        let mob = OreSheet::mob(Stats::all(3), 4);
        assert_eq!(health(&mob), "Health 4/4");
    }

    #[test]
    fn forty_long_names_fit_discord_limits_in_every_phase() {
        let mut f = Fight::new(World::Veil);
        for i in 0..crate::rules::turns::MAX_SEATS {
            let name = format!("{i:02}{}", "W".repeat(crate::rules::turns::MAX_NAME - 2));
            f.turns
                .add(
                    &name,
                    None,
                    None,
                    Fighter::npc(OreSheet::mob(Stats::all(10), 99)),
                )
                .unwrap();
        }
        let s = OreSettings::default();
        let v = view(1, 0, Status::Open, &f, &Sheets::new(), 10);
        assert_eq!(v.clone().clamp(), v);
        f.begin(&mut Sheets::new(), &s, &mut StdRng::seed_from_u64(1))
            .unwrap();
        for _ in 0..3 {
            f.note("x".repeat(400));
        }
        for phase in 0..3 {
            let v = view(123_456, 789, Status::Open, &f, &Sheets::new(), 10);
            assert_eq!(v.clone().clamp(), v, "phase {phase}");
            assert!(v.rows.len() <= 2);
            while f.phase == Phase::Call {
                f.call(
                    Stat::Agility,
                    Register::Rolled {
                        faces: vec![1; 10],
                        error_dice: vec![],
                    },
                )
                .unwrap();
            }
            if phase == 1 {
                while f.phase == Phase::Resolution {
                    f.next_turn().unwrap();
                }
            }
        }
        let v = view(1, 2, Status::Closed, &f, &Sheets::new(), 10);
        assert!(v.rows.is_empty());
        assert_eq!(v.session(), Some(1));
    }
}
