//! Damage and recovery (VV-11..VV-16): `/vv damage` (a Fault die each
//! time), `/vv-gm endround` (the End phase: Fault check, pending
//! incapacitation, −1 Power ends), `/vv-gm endcombat`, `/vv heal|injury`
//! and `/vv repair` (a Cyber repair check).

use serde::Serialize;

use super::context::{checked, target, Outcome as Step, Turn};
use super::{damage_amount, logged_out, record, report, text, GM, SYSTEM};
use crate::app::characters::Loaded;
use crate::app::pipeline::Record;
use crate::app::view::{colour, Embed, View};
use crate::app::{App, AppError, AppResult, Caller, Response};
use crate::rules::ore::damage::RepairOutcome;
use crate::rules::ore::events::HitOutcome;
use crate::rules::ore::settings::DefenseMode;
use crate::rules::ore::sheet::Damageable;
use crate::rules::ore::{OreEvent, OreSettings, OreSheet};
use crate::systems::table::look::Outcome;

/// The most sheets one End phase or end of combat lists by name.
const MAX_LISTED: usize = 20;

/// A damage or recovery action's log entry: what was asked, the Fault
/// dice after, the rules' events (and the dice they threw).
fn events_record(
    ch: &Loaded<OreSheet>,
    action: &str,
    inputs: &impl Serialize,
    events: &[OreEvent],
) -> Record {
    Record::new(action, inputs, &events)
        .dice(&ch.sheet.fault_dice, super::faces::thrown(events))
        .character(ch.row.id)
}

/// The outcome of a change to `ch`'s sheet: the sheet checked and saved,
/// the change logged as `action` ([`events_record`]), `view` posted.
fn changed(
    ch: Loaded<OreSheet>,
    action: &str,
    inputs: &impl Serialize,
    events: &[OreEvent],
    view: View,
) -> Result<Step, AppError> {
    let ch = checked(ch)?;
    let entry = events_record(&ch, action, inputs, events);
    Ok(Step::answer(Response::message(view)).sheet(ch).log(entry))
}

/// `/vv damage` in a turn (a governed change, the Compiler's approval's
/// too): damage to a track, a Fault die, Injuries when matching (at once
/// with `vv_fault_check` = immediate). Its outcome.
pub async fn damage_in(
    turn: &mut Turn<'_>,
    track: Damageable,
    amount: i64,
    name: Option<&str>,
    player: Option<i64>,
) -> Result<Step, AppError> {
    let amount = damage_amount(amount)?;
    let mut ch = target(turn, name, player).await?;
    let events = ch
        .sheet
        .take_damage(&turn.settings, track, amount, &mut turn.rng())?;
    let ch = checked(ch)?;
    let s = &ch.sheet;
    let lines = damage_lines(&events, s, &turn.settings, track);
    let author = format!(
        "{} · {amount} {} damage",
        ch.name(),
        text::track_name(s, track)
    );
    let (outcome, title) = damage_outcome(&events, s, track);
    let inputs = record::DamageInputs {
        amount,
        track: Some(track),
    };
    let entry = events_record(&ch, "damage", &inputs, &events).on_session();
    let head = text::hit(ch.name(), amount, &ch.sheet, track);
    let head_line = (Some(author), outcome.title(&title));
    let out = report::outcome(turn, &ch, head_line, lines, outcome.colour());
    let mut out =
        super::combat::seated_moved(turn, out, ch.row.id, &ch.sheet, &head, &events).await?;
    // Cyber 0 logged them out: the cache dice leave their registers too.
    if logged_out(&events) {
        out = super::roll::lost_cache(turn, out, ch.row.id, &ch.sheet).await?;
    }
    Ok(out.sheet(ch).log(entry))
}

/// A hit's report: what happened, the defense (shown only), the Fault
/// dice and the Injury they will make at the End phase.
fn damage_lines(
    events: &[OreEvent],
    s: &OreSheet,
    settings: &OreSettings,
    track: Damageable,
) -> Vec<String> {
    let mut lines = text::events(events, s);
    let defense = s.defenses.against(track);
    if settings.defense_mode == DefenseMode::Display && defense > 0 && !s.mob_mode {
        lines.push(format!(
            "(Defense against {}: {defense}; shown only, the Compiler applies it.)",
            track.name()
        ));
    }
    if !s.mob_mode {
        lines.push(format!("Fault dice now: {}.", text::faces(&s.fault_dice)));
        let pending = s.pending_faults(settings);
        if !pending.is_empty() {
            let sets: Vec<String> = pending
                .iter()
                .map(|set| format!("{}× {}", set.width, set.height))
                .collect();
            lines.push(format!(
                "Matching Fault dice ({}) become an Injury at the End phase (the Compiler's **Next round** or `/vv-gm endround`).",
                sets.join(", ")
            ));
        }
    }
    lines
}

/// What a hit came to, for the title: down or dead (a botch), an Injury, a
/// defense that stopped it all (a success), else the track and the Fault
/// die (a failure): `Vitality 3/5 · Fault die 2`.
pub fn damage_outcome(events: &[OreEvent], s: &OreSheet, track: Damageable) -> (Outcome, String) {
    match HitOutcome::of(events) {
        HitOutcome::Incapacitated(_) if s.mob_mode => {
            (Outcome::Botch, "Incapacitated: down".into())
        }
        HitOutcome::Incapacitated(c) => (
            Outcome::Botch,
            format!("Incapacitated: {}", text::condition(c)),
        ),
        HitOutcome::Absorbed => (Outcome::Success, "No damage: stopped by the defense".into()),
        HitOutcome::Landed {
            locked_out,
            injury,
            fault,
        } => {
            let mut title = text::track(s, track);
            if locked_out {
                title.push_str(" · locked out");
            }
            if let Some(sev) = injury {
                title.push_str(&format!(" · Injury: {}", sev.name()));
            }
            if let Some(f) = fault {
                title.push_str(&format!(" · Fault die {f}"));
            }
            (Outcome::Failure, title)
        }
    }
}

/// Whom an End phase or end of combat is for.
pub enum Who<'a> {
    /// Every Virtual Veil sheet of the guild (the Compiler).
    All,
    /// One sheet: by name, a member's active one, or the caller's.
    One(Option<&'a str>, Option<i64>),
}

/// The sheets `who` names ([`each_sheet`] has checked the caller is the
/// Compiler).
async fn sheets(turn: &mut Turn<'_>, who: Who<'_>) -> Result<Vec<Loaded<OreSheet>>, AppError> {
    match who {
        Who::All => turn.every_character(200).await,
        Who::One(name, player) => Ok(vec![target(turn, name, player).await?]),
    }
}

/// Runs `step` on each sheet, saves the changed ones and reports.
async fn each_sheet(
    app: &App,
    caller: &Caller,
    who: Who<'_>,
    what: &str,
    action: &str,
    title: &str,
    step: impl Fn(&mut OreSheet, &OreSettings) -> Vec<OreEvent>,
) -> AppResult {
    let mut turn = Turn::begin(app, caller).await?;
    // Rounds and combat belong to the Compiler (issue 13).
    turn.require_gm(GM, what)?;
    let list = sheets(&mut turn, who).await?;
    let mut out = Vec::new();
    let mut changed: Vec<(String, Vec<String>, bool)> = Vec::new();
    let mut quiet: Vec<String> = Vec::new();
    for mut ch in list {
        let before = ch.sheet.clone();
        let events = step(&mut ch.sheet, &turn.settings);
        let lines = text::events(&events, &ch.sheet);
        if ch.sheet != before {
            let ch = checked(ch.clone())?;
            let inputs = crate::app::log::NoInputs {};
            out.push((events_record(&ch, action, &inputs, &events), ch));
        }
        if lines.is_empty() {
            quiet.push(ch.shown());
        } else {
            let hurt = events.iter().any(OreEvent::hurts);
            changed.push((ch.shown(), lines, hurt));
        }
    }
    let view = each_sheet_view(title, changed, quiet);
    let done = out
        .into_iter()
        .fold(Step::answer(Response::message(view)), |o, (entry, ch)| {
            o.sheet(ch).log(entry)
        });
    turn.finish(done).await
}

/// The report of an End phase or end of combat: each changed sheet's
/// lines, the hurt named in the title.
fn each_sheet_view(
    title: &str,
    changed: Vec<(String, Vec<String>, bool)>,
    quiet: Vec<String>,
) -> View {
    let hurt: Vec<&str> = changed
        .iter()
        .filter(|(_, _, hurt)| *hurt)
        .map(|(name, _, _)| name.as_str())
        .collect();
    let mut embed = if hurt.is_empty() {
        Embed::new(title).colour(Outcome::Info.colour())
    } else {
        let mut t = Outcome::Failure.title(&format!(
            "{} · {} hurt",
            title.trim_start_matches(|c: char| !c.is_alphanumeric()),
            hurt.join(", ")
        ));
        crate::app::view::truncate(&mut t, 200);
        Embed::new(t).colour(Outcome::Failure.colour())
    };
    let mut desc = Vec::new();
    if changed.is_empty() {
        desc.push("Nothing to finalise.".to_string());
    }
    for (k, (name, lines, _)) in changed.iter().enumerate() {
        if k < MAX_LISTED {
            embed = embed.field(name.clone(), text::join_capped(lines, 1000), false);
        } else {
            desc.push(format!("**{name}**: {}", lines.join(" ")));
        }
    }
    if !quiet.is_empty() && !changed.is_empty() {
        desc.push(format!("Nothing to report for {}.", quiet.join(", ")));
    }
    if !desc.is_empty() {
        embed = embed.description(text::join_capped(&desc, 3000));
    }
    View::embed(embed)
}

/// `/vv-gm endround`: the End phase (VV-11, A-O12) for one sheet or all.
pub async fn end_round(app: &App, caller: &Caller, who: Who<'_>) -> AppResult {
    each_sheet(
        app,
        caller,
        who,
        "run the End phase",
        "end_round",
        "⏱ End phase",
        |s, settings| s.end_of_round(settings),
    )
    .await
}

/// `/vv-gm endcombat`: ends combat (VV-14); in a stable place all Fault dice go.
pub async fn end_combat(app: &App, caller: &Caller, who: Who<'_>, stable: bool) -> AppResult {
    each_sheet(
        app,
        caller,
        who,
        "end combat",
        "end_combat",
        if stable {
            "🏁 Combat over (stable place)"
        } else {
            "🏁 Combat over"
        },
        move |s, _| s.end_combat(stable),
    )
    .await
}

/// `/vv heal`: natural healing (VV-15), in a turn (a governed change,
/// the Compiler's approval's too): its outcome.
pub async fn heal_days_in(
    turn: &mut Turn<'_>,
    days: i64,
    tended: bool,
    name: Option<&str>,
    player: Option<i64>,
) -> Result<Step, AppError> {
    let days =
        u32::try_from(days).map_err(|_| AppError::user("The number of days must be 1 or more."))?;
    let mut ch = target(turn, name, player).await?;
    let waited = ch.sheet.repair_wait;
    let events = ch.sheet.pass_days(days, tended)?;
    let mut lines = text::events(&events, &ch.sheet);
    if waited {
        lines.push("The day's wait after a failed Cyber repair is over.".into());
    }
    if lines.is_empty() {
        lines.push("Nothing to heal.".into());
    }
    let view = View::embed(
        Embed::new(format!(
            "🩹 {} rests {}",
            ch.shown(),
            text::count(days, "day", "days")
        ))
        .description(lines.join("\n"))
        .colour(colour::SUCCESS),
    );
    let inputs = record::HealDays { days, tended };
    changed(ch, "heal_days", &inputs, &events, view)
}

/// `/vv-gm heal injury`: the Compiler marks an Injury healed.
pub async fn heal_injury(
    app: &App,
    caller: &Caller,
    number: i64,
    name: Option<&str>,
    player: Option<i64>,
) -> AppResult {
    let mut turn = Turn::begin(app, caller).await?;
    turn.require_gm(GM, "mark an Injury healed")?;
    let mut ch = target(&mut turn, name, player).await?;
    let index = usize::try_from(number.saturating_sub(1))
        .map_err(|_| AppError::user("Injuries are numbered from 1."))?;
    let events = ch.sheet.heal_injury(index)?;
    let view = View::embed(
        Embed::new(format!("🩹 {}: Injury healed", ch.shown()))
            .description(text::events(&events, &ch.sheet).join("\n"))
            .colour(colour::SUCCESS),
    );
    let inputs = record::HealInjury { injury: number };
    let out = changed(ch, "heal_injury", &inputs, &events, view)?;
    turn.finish(out).await
}

/// `/vv repair`: a Cyber repair check (VV-16, A-O21) with the character's
/// Engineering, another character's, or a number of dice, in a turn (a
/// governed change, the Compiler's approval's too): its outcome.
pub async fn repair_in(
    turn: &mut Turn<'_>,
    engineering: Option<i64>,
    engineer: Option<&str>,
    name: Option<&str>,
    player: Option<i64>,
) -> Result<Step, AppError> {
    let mut ch = target(turn, name, player).await?;
    let (dice, by) = repair_dice(turn, &ch, engineering, engineer).await?;
    let settings = &turn.settings;
    let chance = ch.sheet.repair_chance(settings, dice).map(text::percent);
    let (outcome, events) = ch.sheet.repair_cyber(settings, dice, &mut turn.rng())?;
    let inputs = record::RepairInputs {
        dice,
        overridden: engineering.is_some(),
        pool: by.clone(),
    };
    // An override names its dice in `by` already.
    let pool = match engineering {
        Some(_) => String::new(),
        None => format!(" ({})", text::count(outcome.pool, "die", "dice")),
    };
    let author = format!("{by}{pool} · repairs {}'s Cyber", ch.name());
    let view = repair_view(author, &outcome, &events, &ch.sheet, chance);
    changed(ch, "repair", &inputs, &events, view)
}

/// The dice of a repair check and whose Engineering they are: a number
/// given (the Compiler's override, issue 14), another character's, or the
/// repaired character's own.
async fn repair_dice(
    turn: &mut Turn<'_>,
    ch: &Loaded<OreSheet>,
    engineering: Option<i64>,
    engineer: Option<&str>,
) -> Result<(u32, String), AppError> {
    Ok(
        match (
            engineering,
            engineer.map(str::trim).filter(|e| !e.is_empty()),
        ) {
            (Some(n), _) => {
                let n = u32::try_from(n)
                    .ok()
                    .filter(|n| *n <= 100)
                    .ok_or_else(|| AppError::user("`engineering` must be from 0 to 100."))?;
                // The Compiler's override (issue 14): the check says so.
                let dice = text::count(n, "die", "dice");
                (n, format!("Engineering (overridden: {dice})"))
            }
            (None, Some(e)) => {
                let caller = turn.caller().clone();
                let other: Loaded<OreSheet> =
                    crate::app::characters::named(turn.tx(), &caller, SYSTEM, e, true).await?;
                (
                    other.sheet.stats.engineering,
                    format!("{}'s Engineering", other.name()),
                )
            }
            (None, None) => (
                ch.sheet.stats.engineering,
                format!("{}'s Engineering", ch.name()),
            ),
        },
    )
}

/// A repair check's message: the best set, the faces, Cyber after (or the
/// wait before the next try), and what the check needed.
fn repair_view(
    author: String,
    outcome: &RepairOutcome,
    events: &[OreEvent],
    sheet: &OreSheet,
    chance: Option<String>,
) -> View {
    let (result, title) = match (outcome.success, outcome.best) {
        (true, Some(b)) => (
            Outcome::Success,
            format!("Best set {} · Cyber repaired", text::set_short(&b)),
        ),
        (true, None) => (Outcome::Success, "Cyber repaired".to_string()),
        (false, Some(b)) => (
            Outcome::Failure,
            format!("Best set {} · too low", text::set_short(&b)),
        ),
        (false, None) => (Outcome::Failure, "No set".to_string()),
    };
    let mut lines = vec![text::grouped(&outcome.faces)];
    if outcome.success {
        lines.push(format!(
            "Cyber {}/{} (takes {}).",
            sheet.cyber.current,
            sheet.cyber.max,
            text::count(outcome.hours, "hour", "hours")
        ));
    } else {
        lines.push(format!(
            "Failed after {}: wait a day before the next try (`/vv heal`).",
            text::count(outcome.hours, "hour", "hours")
        ));
    }
    lines.extend(
        text::events(events, sheet)
            .into_iter()
            .filter(|l| !l.starts_with("Cyber +")),
    );
    let mut need = format!(
        "Restoring Cyber to {} needs {}",
        outcome.target_value, outcome.needed
    );
    if let Some(c) = chance {
        need.push_str(&format!(" · chance {c}"));
    }
    View::embed(
        Embed::new(result.title(&title))
            .author(author)
            .description(lines.join("\n"))
            .footer(need)
            .colour(result.colour()),
    )
}
