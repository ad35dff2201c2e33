//! Words for Virtual Veil: faces, chances and one line per rules event.
//!
//! Pure functions (no I/O) shared by every view of the system, so a Fault
//! die or an Injury reads the same in a roll, a damage report or the End
//! phase.

use crate::app::view::{clean, escape};
use crate::rules::ore::events::{Condition, LogoutReason, OreEvent};
use crate::rules::ore::odds;
use crate::rules::ore::sets::{read, Reading, Set, SetRequirement};
use crate::rules::ore::sheet::{CacheRef, Damageable, OreSheet, Severity};
use crate::rules::ore::OreSettings;
use crate::systems::table::look::{self, Mark};

/// Faces as `9 7 7 2`, or `—` for none.
pub fn faces(f: &[u32]) -> String {
    if f.is_empty() {
        return "—".into();
    }
    f.iter().map(u32::to_string).collect::<Vec<_>>().join(" ")
}

/// A set by its short name, `3×4` (width × height).
pub fn set_short(s: &Set) -> String {
    format!("{}×{}", s.width, s.height)
}

/// Dice read into sets, each set bold, then the loose dice plain, highest
/// first: `**4 4 4** · **7 7** · 9 3 1` (the first line of a roll).
pub fn grouped(faces: &[u32]) -> String {
    grouped_reading(&read(faces))
}

/// A reading as [`grouped`] shows it; `—` when it holds no die.
pub fn grouped_reading(r: &Reading) -> String {
    let mut parts: Vec<String> = r
        .sets
        .iter()
        .map(|s| {
            let faces = vec![s.height.to_string(); s.width as usize];
            format!("**{}**", faces.join(" "))
        })
        .collect();
    if !r.loose.is_empty() {
        parts.push(look::dice(r.loose.iter().map(|&f| (f, Mark::Miss))));
    }
    if parts.is_empty() {
        return "—".into();
    }
    parts.join(" · ")
}

/// Faces highest first, as `9 7 7 2`.
pub fn faces_desc(f: &[u32]) -> String {
    let mut v = f.to_vec();
    v.sort_unstable_by(|a, b| b.cmp(a));
    faces(&v)
}

/// A probability as a percentage with two decimals (`<0.01%` for tiny
/// positive values).
pub fn percent(p: f64) -> String {
    if p.is_nan() {
        return "?".into();
    }
    if p > 0.0 && p < 0.00005 {
        return "<0.01%".into();
    }
    format!("{:.2}%", p * 100.0)
}

/// The chance that `dice` d10s meet `req`, before the roll. Without a
/// minimum height it is counted exactly and rounded like the 004 table
/// ([`odds::format_percent`]); with one, from the exact probability.
pub fn chance(dice: u32, req: &SetRequirement) -> Option<String> {
    if dice > odds::ODDS_MAX_DICE {
        return None;
    }
    let w = req.min_width.max(2);
    match req.min_height {
        None => odds::at_least_width_count(dice, w)
            .and_then(|hits| odds::format_percent(hits, dice))
            .ok(),
        Some(h) => odds::try_at_least_width_height(dice, w, h)
            .ok()
            .map(percent),
    }
}

/// The cache as shown: faces highest first, the Fault dice when they
/// count toward it (A-O11), and the load against the maximum, e.g.
/// `10 7 · Fault 1 (3/3)`; "COMP off" when not running.
pub fn cache(sheet: &OreSheet, settings: &OreSettings) -> String {
    if !sheet.comp.session_active {
        return "COMP off".into();
    }
    let faces_now: Vec<u32> = sheet.cache.iter().map(|d| d.face).collect();
    let mut s = faces_desc(&faces_now);
    if settings.fault_counts_toward_cache && !sheet.mob_mode && !sheet.fault_dice.is_empty() {
        s = format!("{s} · Fault {}", faces_desc(&sheet.fault_dice));
    }
    format!(
        "{s} ({}/{})",
        sheet.cache_load(settings),
        sheet.comp.cache_max
    )
}

/// "Minor", "Moderate"… with its Error Dice.
pub fn severity(s: Severity) -> String {
    match s {
        Severity::Critical => "Critical (incapacitated)".into(),
        other => {
            let dice = count(other.error_dice(), "error die", "error dice");
            format!("{} ({dice} per action)", other.name())
        }
    }
}

/// A condition in words.
pub fn condition(c: Condition) -> &'static str {
    match c {
        Condition::MentalBreak => "mental break (Confidence 0)",
        Condition::VitalityDown => "down (Vitality 0)",
        Condition::SupernaturalLost => {
            "locked out (Cyber 0: no COMP, no supernatural abilities until repaired)"
        }
        Condition::CriticalInjury => "Critical Injury",
        Condition::Glitched => "internal glitch (more than 3 Injuries)",
        Condition::Dead => "dead",
        Condition::Deleted => "deleted",
    }
}

fn logout_reason(r: LogoutReason) -> &'static str {
    match r {
        LogoutReason::Manual => "logged out",
        LogoutReason::BatteryEmpty => "battery empty: logged out",
        LogoutReason::CyberZero => "Cyber 0: thrown out of the COMP",
    }
}

/// A track's name on this sheet ("Health" for a mob's Vitality).
pub fn track_name(sheet: &OreSheet, t: Damageable) -> &'static str {
    if sheet.mob_mode && t == Damageable::Vitality {
        "Health"
    } else {
        t.name()
    }
}

/// A track as it reads on this sheet: `Vitality 3/5` (`Health 2/3`).
pub fn track(sheet: &OreSheet, t: Damageable) -> String {
    let tr = sheet.track(t);
    format!("{} {}/{}", track_name(sheet, t), tr.current, tr.max)
}

/// A hit as the damage report and the tracker's log head it, the name
/// without markdown: `💥 Ann takes 2 Vitality damage.`
pub fn hit(name: &str, amount: u32, sheet: &OreSheet, t: Damageable) -> String {
    format!(
        "💥 {} takes {amount} {} damage.",
        clean(name),
        track_name(sheet, t)
    )
}

fn track_line(sheet: &OreSheet, t: Damageable, current: u32) -> String {
    format!("{current}/{}", sheet.track(t).max)
}

/// One event as a line for a report about `sheet` (after the event), or
/// `None` for events the surrounding view already shows.
pub fn event(ev: &OreEvent, sheet: &OreSheet) -> Option<String> {
    match ev {
        OreEvent::Rolled { .. }
        | OreEvent::EndOfRound
        | OreEvent::CombatEnded
        | OreEvent::RepairCheck { .. } => None,
        OreEvent::PoolCapped { .. }
        | OreEvent::PowerPenalty { .. }
        | OreEvent::ErrorDice { .. }
        | OreEvent::CacheAdded { .. }
        | OreEvent::Loaded { .. }
        | OreEvent::CacheOverflow { .. }
        | OreEvent::Discarded { .. }
        | OreEvent::FaceModified { .. }
        | OreEvent::CacheConsumed { .. }
        | OreEvent::CacheReturned { .. }
        | OreEvent::CacheDiceLost { .. }
        | OreEvent::RegisterEnded
        | OreEvent::RollClosed => register_event(ev),
        OreEvent::BasicAction { .. }
        | OreEvent::SpecialAction { .. }
        | OreEvent::MinorAction { .. }
        | OreEvent::FreeAction { .. } => action_event(ev),
        OreEvent::Booted { .. }
        | OreEvent::LoggedOut { .. }
        | OreEvent::BatteryUsed { .. }
        | OreEvent::BatteryCharged { .. } => comp_event(ev),
        OreEvent::DamageTaken { .. }
        | OreEvent::DamageAbsorbed { .. }
        | OreEvent::FaultDie { .. }
        | OreEvent::InjuryFormed { .. }
        | OreEvent::ReachedZero { .. }
        | OreEvent::IncapacitationPending
        | OreEvent::Incapacitated { .. }
        | OreEvent::ConditionCleared { .. }
        | OreEvent::PowerPenaltyEnded
        | OreEvent::FaultDiceCleared { .. }
        | OreEvent::Healed { .. }
        | OreEvent::InjuryHealed { .. } => track_event(ev, sheet),
        OreEvent::Warning { message } => Some(format!("⚠️ {message}")),
    }
}

/// A line for an event of the register and its cache dice ([`event`];
/// `None` for the other events).
fn register_event(ev: &OreEvent) -> Option<String> {
    Some(match ev {
        OreEvent::PoolCapped { requested, cap } => {
            format!("{requested} dice asked for; at most {cap} are rolled (vv_max_pool).")
        }
        OreEvent::PowerPenalty { removed_die } => {
            if *removed_die {
                "−1 Power: one die fewer.".into()
            } else {
                "−1 Power penalty in effect (the Compiler applies it).".into()
            }
        }
        OreEvent::ErrorDice { faces: f, .. } => format!("Error dice: **{}**", faces(f)),
        OreEvent::CacheAdded { faces: f, .. } => {
            format!("Added {} from the cache to the register.", faces_desc(f))
        }
        OreEvent::Loaded { faces: f, .. } => format!("Loaded {} into the cache.", faces(f)),
        OreEvent::CacheOverflow { excess } => format!(
            "The cache is {excess} over its maximum: discard {} now.",
            if *excess == 1 { "a die" } else { "dice" }
        ),
        OreEvent::Discarded {
            die,
            face,
            by_default,
        } => {
            let what = match die {
                CacheRef::Cache(_) => format!("Discarded a {face} from the cache"),
                CacheRef::Fault(_) => format!("Discarded Fault die {face}"),
            };
            if *by_default {
                format!("{what} (the lowest, by default).")
            } else {
                format!("{what}.")
            }
        }
        OreEvent::FaceModified {
            from, to, delta, ..
        } => {
            format!("Changed a {from} by {delta:+} to {to}.")
        }
        OreEvent::CacheConsumed { faces: f } => format!("Cache dice used up: {}.", faces(f)),
        OreEvent::CacheReturned { faces: f } => {
            format!("Back into the cache: {}.", faces_desc(f))
        }
        OreEvent::CacheDiceLost { faces: f } => {
            format!("Lost with the COMP off: {}.", faces(f))
        }
        OreEvent::RegisterEnded => {
            "The round of this register has ended (End phase): it is cleared and nothing was spent; roll again for the new round.".into()
        }
        OreEvent::RollClosed => "Register cleared.".into(),
        _ => return None,
    })
}

/// A line for a Basic, Special, Minor or Free action ([`event`]; `None`
/// for the other events).
fn action_event(ev: &OreEvent) -> Option<String> {
    let (mut s, label) = match ev {
        OreEvent::BasicAction {
            set,
            cache_dice,
            suggested_damage,
            label,
            ..
        } => {
            let mut s = format!("Basic action with **{set}**");
            if let Some(l) = label {
                s.push_str(&format!(" — {l}"));
            }
            if *cache_dice > 0 {
                s.push_str(&format!(" ({cache_dice} from the cache)"));
            }
            if let Some(d) = suggested_damage {
                s.push_str(&format!("; suggested damage {d}"));
            }
            (s, &None)
        }
        OreEvent::SpecialAction {
            pattern,
            faces: f,
            label,
            ..
        } => (format!("Special action {pattern} with {}", faces(f)), label),
        OreEvent::MinorAction {
            face, broke, label, ..
        } => {
            let mut s = format!("Minor action: spent a {face}");
            if let Some(b) = broke {
                s.push_str(&format!(" (from {b})"));
            }
            (s, label)
        }
        OreEvent::FreeAction { label, .. } => return Some(format!("Free action: {label}.")),
        _ => return None,
    };
    if let Some(l) = label {
        s.push_str(&format!(" — {l}"));
    }
    s.push('.');
    Some(s)
}

/// A line for an event of the COMP: booted, off, its battery ([`event`];
/// `None` for the other events).
fn comp_event(ev: &OreEvent) -> Option<String> {
    Some(match ev {
        OreEvent::Booted { faces: f } => format!("Cache rolled: **{}**.", faces_desc(f)),
        OreEvent::LoggedOut { reason, cache_lost } => {
            if cache_lost.is_empty() {
                format!("COMP off ({}).", logout_reason(*reason))
            } else {
                format!(
                    "COMP off ({}); cache lost: {}.",
                    logout_reason(*reason),
                    faces_desc(cache_lost)
                )
            }
        }
        OreEvent::BatteryUsed { amount, remaining } => {
            if *amount == 0 {
                format!("Plugged in: no battery used ({remaining} left).")
            } else {
                format!("Battery −{amount} → {remaining}.")
            }
        }
        OreEvent::BatteryCharged { amount, current } => {
            format!("Battery +{amount} → {current}.")
        }
        _ => return None,
    })
}

/// A line for an event of the damage tracks, Injuries and conditions
/// ([`event`]; `None` for the other events).
fn track_event(ev: &OreEvent, sheet: &OreSheet) -> Option<String> {
    Some(match ev {
        OreEvent::DamageTaken { .. } => return damage_taken(ev, sheet),
        OreEvent::DamageAbsorbed {
            target,
            raw,
            defense,
        } => format!(
            "{} damage {raw} fully stopped by a defense of {defense}: no damage, no Fault die.",
            track_name(sheet, *target)
        ),
        OreEvent::FaultDie { face } => format!("Fault die: **{face}**."),
        OreEvent::InjuryFormed {
            severity: s,
            width,
            face,
        } => format!(
            "**Injury: {}** ({width} Fault dice showing {face}).",
            severity(*s)
        ),
        OreEvent::ReachedZero { target } => format!("{} reached 0.", track_name(sheet, *target)),
        OreEvent::IncapacitationPending => {
            "−1 Power until the end of the round, then incapacitated.".into()
        }
        OreEvent::Incapacitated { condition: c } => incapacitated(*c, sheet),
        OreEvent::ConditionCleared { condition: c } => format!("No longer {}.", condition(*c)),
        OreEvent::PowerPenaltyEnded => "The −1 Power penalty ends.".into(),
        OreEvent::FaultDiceCleared { faces: f } => format!("Fault dice cleared: {}.", faces(f)),
        OreEvent::Healed {
            target,
            amount,
            current,
        } => format!(
            "{} +{amount} → {}.",
            track_name(sheet, *target),
            track_line(sheet, *target, *current)
        ),
        OreEvent::InjuryHealed { index, severity: s } => {
            format!("Injury {} ({}) healed.", index + 1, s.name())
        }
        _ => return None,
    })
}

/// Damage taken on a track: how much, after the defense, and what went
/// past 0 (`None` for the other events).
fn damage_taken(ev: &OreEvent, sheet: &OreSheet) -> Option<String> {
    let OreEvent::DamageTaken {
        target,
        raw,
        defense,
        taken,
        current,
        overflow_after_zero,
    } = ev
    else {
        return None;
    };
    let mut s = format!(
        "**{} −{taken}** → {}",
        track_name(sheet, *target),
        track_line(sheet, *target, *current)
    );
    if *defense > 0 {
        s.push_str(&format!(" ({raw} minus {defense} defense)"));
    }
    if *overflow_after_zero > 0 {
        s.push_str(&format!("; {overflow_after_zero} damage taken at 0"));
        // Only damage past 0 Vitality (Health) kills (VV-13).
        if *target == Damageable::Vitality {
            s.push_str(&format!(" (dead at {})", sheet.track(*target).max));
        }
    }
    s.push('.');
    Some(s)
}

/// A condition that takes the entity out (or locks it out of cyberspace).
fn incapacitated(c: Condition, sheet: &OreSheet) -> String {
    if c == Condition::VitalityDown && sheet.mob_mode {
        "**Incapacitated: down (Health 0).**".into()
    } else if !c.incapacitates() && sheet.native_digital {
        // A natively digital entity is wiped at once (the next event).
        "**Locked out: Cyber 0.**".into()
    } else if !c.incapacitates() {
        "**Locked out: Cyber 0** (no COMP, no supernatural abilities until repaired); still in the fight.".into()
    } else {
        format!("**Incapacitated: {}.**", condition(c))
    }
}

/// Every event of a list as lines, skipping those that say nothing new.
pub fn events(evs: &[OreEvent], sheet: &OreSheet) -> Vec<String> {
    evs.iter().filter_map(|e| event(e, sheet)).collect()
}

/// Lines joined within a number of characters, "…and N more" on its own
/// line for those left out (the shared [`crate::app::view::join_capped`]).
pub use crate::app::view::join_capped;

/// `n` and the noun (the shared [`crate::app::view::count`]).
pub use crate::app::view::count;

/// A named Special action as the sheet lists it: "**Burst** 777",
/// "**Echo** 9 10 · all from the cache".
pub fn special(sp: &crate::rules::ore::sheet::SpecialAction) -> String {
    use crate::rules::ore::sets::CacheCost;
    let cost = match sp.cache_cost {
        CacheCost::None => "",
        CacheCost::One => " · one die from the cache",
        CacheCost::All => " · all from the cache",
    };
    format!("**{}** {}{cost}", escape(&sp.name), sp.pattern)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_vitality_past_zero_says_dead_at() {
        let sheet = OreSheet::default();
        let line = |target| {
            event(
                &OreEvent::DamageTaken {
                    target,
                    raw: 3,
                    defense: 0,
                    taken: 3,
                    current: 0,
                    overflow_after_zero: 2,
                },
                &sheet,
            )
            .unwrap()
        };
        assert!(!line(Damageable::Cyber).contains("dead"));
        assert!(!line(Damageable::Confidence).contains("dead"));
        assert!(line(Damageable::Vitality).contains("dead at"));
        assert_eq!(count(1, "die", "dice"), "1 die");
        assert_eq!(count(3, "hour", "hours"), "3 hours");
    }

    #[test]
    fn chance_uses_table_rounding() {
        // 6 dice: at least a dub is 84.88% (spec §5.2).
        assert_eq!(chance(6, &SetRequirement::default()).unwrap(), "84.88%");
        assert_eq!(chance(10, &SetRequirement::default()).unwrap(), "99.96%");
        assert_eq!(chance(2, &SetRequirement::default()).unwrap(), "10.00%");
        assert_eq!(chance(1, &SetRequirement::default()).unwrap(), "0.00%");
        assert_eq!(chance(0, &SetRequirement::width(3)).unwrap(), "0.00%");
        assert!(chance(31, &SetRequirement::default()).is_none());
        let high = SetRequirement {
            min_width: 2,
            min_height: Some(10),
        };
        // Two dice, both 10: 1%.
        assert_eq!(chance(2, &high).unwrap(), "1.00%");
    }

    #[test]
    fn faces_and_caps() {
        assert_eq!(faces(&[]), "—");
        assert_eq!(faces_desc(&[2, 9, 7]), "9 7 2");
        let lines: Vec<String> = (0..100).map(|i| format!("line {i}")).collect();
        let s = join_capped(&lines, 200);
        assert!(s.chars().count() <= 200, "{s}");
        assert!(s.ends_with("more"));
        assert_eq!(percent(0.0), "0.00%");
        assert_eq!(percent(1e-9), "<0.01%");
    }

    #[test]
    fn the_count_of_left_out_lines_stands_on_its_own_line() {
        let lines: Vec<String> = (0..100).map(|i| format!("line {i}")).collect();
        let s = join_capped(&lines, 200);
        let last = s.lines().last().unwrap_or_default();
        assert!(last.starts_with("…and ") && last.ends_with(" more"), "{s}");
        assert!(
            s.lines()
                .rev()
                .nth(1)
                .is_some_and(|l| l.starts_with("line ")),
            "{s}"
        );
        // A short list that fits is kept whole, and nothing goes over the cap.
        let two = ["a".to_string(), "b".to_string()];
        assert_eq!(join_capped(&two, 10), "a\nb");
    }
}
