//! Virtual Veil sheets: create, the card the shared `/vv sheet show`
//! posts, and edits of stats, tracks, defenses, the COMP, named Special
//! actions and status flags (spec §5.6, VV-6).
//!
//! Players edit their own sheets; the Compiler may edit any sheet in the guild.
//! Every edit is one transaction: load, change through the rules core's
//! setters, save, log, commit.

use serde::Serialize;

use super::context::{checked, target, Outcome, Turn};
use super::{record, report, text};
use crate::app::characters::Loaded;
use crate::app::pipeline::Record;
use crate::app::view::{colour, Embed, View};
use crate::app::{log, App, AppError, AppResult, Caller, Response};
use crate::rules::ore::sets::Pattern;
use crate::rules::ore::sheet::{Damageable, Stat, Stats, World};
use crate::rules::ore::{OreSettings, OreSheet};

/// The most a stat may be set to from Discord (the rules core's limit,
/// which [`OreSheet::validate`] checks too).
pub const MAX_STAT: i64 = crate::rules::ore::sheet::MAX_STAT as i64;
/// The most a track, defense or battery value may be set to (as above).
pub const MAX_VALUE: i64 = crate::rules::ore::sheet::MAX_VALUE as i64;

/// A sheet edit's log entry: what was asked, no dice, the sheet after.
fn sheet_record(ch: &Loaded<OreSheet>, action: &str, inputs: &impl Serialize) -> Record {
    Record::new(action, inputs, &ch.sheet)
        .dice(&log::NO_DICE, Vec::new())
        .character(ch.row.id)
}

/// A sheet edit's outcome: the sheet (its invariants checked) saved and
/// logged, answered with `response`.
fn edited(
    ch: Loaded<OreSheet>,
    action: &str,
    inputs: &impl Serialize,
    response: Response,
) -> Result<Outcome, AppError> {
    let ch = checked(ch)?;
    let entry = sheet_record(&ch, action, inputs);
    Ok(Outcome::answer(response).sheet(ch).log(entry))
}

/// Options of `/vv sheet create`.
#[derive(Debug, Clone, Default)]
pub struct CreateArgs {
    /// The character's name.
    pub name: String,
    /// Stat values in [`Stat::ALL`] order; missing ones are 0.
    pub stats: [Option<i64>; 12],
    /// A mob (one Health track, no Fault dice).
    pub mob: bool,
    /// A mob's Health (default: its Vitality).
    pub health: Option<i64>,
    /// Create it for this member (the Compiler only).
    pub player: Option<i64>,
}

/// `/vv sheet create`: a new sheet, made the owner's active one.
pub async fn create(app: &App, caller: &Caller, args: CreateArgs) -> AppResult {
    let mut turn = Turn::begin(app, caller).await?;
    let owner = args.player.unwrap_or(caller.user_id);
    if owner != caller.user_id {
        turn.require_gm(super::GM, "create a sheet for another member")?;
    }
    let mut stats = Stats::default();
    for (stat, v) in Stat::ALL.iter().zip(args.stats) {
        stats.set(*stat, v.unwrap_or(0))?;
    }
    let sheet = if args.mob {
        let health = args.health.unwrap_or(i64::from(stats.vitality));
        let health = u32::try_from(health)
            .ok()
            .filter(|h| i64::from(*h) <= MAX_VALUE)
            .ok_or_else(|| AppError::user(format!("Health must be from 0 to {MAX_VALUE}.")))?;
        OreSheet::mob(stats, health)
    } else {
        if args.health.is_some() {
            return Err(AppError::user(
                "Only a mob has a single Health track; add `mob:true`, or leave Health out.",
            ));
        }
        OreSheet::new(stats)
    };
    let ch = turn.create(owner, &args.name, sheet).await?;
    let entry = sheet_record(&ch, "sheet_create", &record::Created { name: args.name });
    let mut embed = sheet_embed(&ch, &turn.settings);
    embed.title = format!("📇 Created {}", ch.shown());
    let out = Outcome::answer(Response::ephemeral(View::embed(embed))).log(entry);
    turn.finish(out).await
}

/// `/vv sheet set stat: value:`: one stat. Setting Vitality, Confidence or Cyber also
/// sets that track's maximum (a full track stays full).
pub async fn set_stat(
    app: &App,
    caller: &Caller,
    stat: Stat,
    value: i64,
    name: Option<&str>,
    player: Option<i64>,
) -> AppResult {
    let mut turn = Turn::begin(app, caller).await?;
    let out = set_stat_in(&mut turn, stat, value, name, player).await?;
    turn.finish(out).await
}

/// [`set_stat`] in a turn (an approved change's too): its outcome.
pub async fn set_stat_in(
    turn: &mut Turn<'_>,
    stat: Stat,
    value: i64,
    name: Option<&str>,
    player: Option<i64>,
) -> Result<Outcome, AppError> {
    let mut ch = target(turn, name, player).await?;
    let old = ch.sheet.set_stat(stat, value)?;
    // One line (issue 16): the full card is `/vv sheet show`'s.
    let answer = Response::ephemeral(View::text(format!(
        "📇 {}: {} {old} → {value}.",
        ch.shown(),
        stat.name()
    )));
    let inputs = record::StatSet {
        stat: Some(stat),
        value,
    };
    edited(ch, "sheet_set", &inputs, answer)
}

/// A track's maximum and current value (`/vv sheet set current:|max:`, a
/// governed change, in its turn): its outcome.
pub async fn set_track_in(
    turn: &mut Turn<'_>,
    track: Damageable,
    max: Option<i64>,
    current: Option<i64>,
    name: Option<&str>,
    player: Option<i64>,
) -> Result<Outcome, AppError> {
    let mut ch = target(turn, name, player).await?;
    ch.sheet.set_track(track, max, current)?;
    // One line (issue 16): a change the Compiler approves is posted, and
    // the full card is `/vv sheet show`'s.
    let answer = Response::ephemeral(View::text(format!(
        "📇 {}: {}.",
        ch.shown(),
        text::track(&ch.sheet, track)
    )));
    let inputs = record::TrackSet {
        current,
        max,
        track: Some(track),
    };
    edited(ch, "sheet_track", &inputs, answer)
}

/// `/vv sheet set defense:|integrity:|resolve:`: the defenses.
pub async fn set_defenses(
    app: &App,
    caller: &Caller,
    values: [Option<i64>; 3],
    name: Option<&str>,
    player: Option<i64>,
) -> AppResult {
    if values.iter().all(Option::is_none) {
        return Err(AppError::user("Give `defense`, `integrity` or `resolve`."));
    }
    let mut turn = Turn::begin(app, caller).await?;
    let mut ch = target(&mut turn, name, player).await?;
    ch.sheet.set_defenses(values)?;
    let answer = Response::ephemeral(View::embed(sheet_embed(&ch, &turn.settings)));
    let inputs: record::DefensesSet = values;
    let out = edited(ch, "sheet_defense", &inputs, answer)?;
    turn.finish(out).await
}

/// `/vv sheet comp`: the COMP's stats (`asked`, as logged) and its
/// Distribution. Lowering the cache size below the dice held prompts for
/// discards (VV-8).
pub async fn set_comp(
    app: &App,
    caller: &Caller,
    (asked, distribution): (record::CompSet, Option<String>),
    name: Option<&str>,
    player: Option<i64>,
) -> AppResult {
    let distribution = super::check_text(app, "distribution", distribution.as_deref())?;
    let inputs = record::CompSet {
        add_chip: super::check_text(app, "Chip name", asked.add_chip.as_deref())?,
        remove_chip: super::check_text(app, "Chip name", asked.remove_chip.as_deref())?,
        ..asked
    };
    if distribution.is_none() && inputs == record::CompSet::default() {
        return Err(AppError::user(
            "Give at least one COMP value to change (cache_size, battery_max, battery, thread_count…).",
        ));
    }
    let mut turn = Turn::begin(app, caller).await?;
    let mut ch = target(&mut turn, name, player).await?;
    edit_comp(&mut ch.sheet, &inputs, distribution)?;
    let ch = checked(ch)?;
    let entry = sheet_record(&ch, "sheet_comp", &inputs);
    let settings = &turn.settings;
    let out = if ch.sheet.cache_excess(settings) > 0 {
        let lines = vec![format!(
            "Cache size now {}, but the cache holds {}.",
            ch.sheet.comp.cache_max,
            ch.sheet.cache_load(settings)
        )];
        let head = (None, format!("💻 {}'s COMP changed", ch.shown()));
        report::outcome(&turn, &ch, head, lines, colour::PENDING)
    } else {
        Outcome::answer(Response::ephemeral(View::embed(sheet_embed(&ch, settings))))
    };
    turn.finish(out.sheet(ch).log(entry)).await
}

/// Applies `/vv sheet comp`'s changes (checked, as logged, and the
/// Distribution) to the sheet, each checked as the rules and the limits say.
fn edit_comp(
    s: &mut OreSheet,
    c: &record::CompSet,
    distribution: Option<String>,
) -> Result<(), AppError> {
    if let Some(d) = distribution {
        s.comp.distribution = d;
    }
    if let Some(pp) = c.processing_power {
        s.set_processing_power(pp)?;
    }
    if let Some(t) = c.thread_count {
        s.set_thread_count(t)?;
    }
    if let Some(n) = c.cache_size {
        s.set_cache_max(n)?;
    }
    if let Some(b) = c.battery_max {
        s.set_battery_max(b)?;
    }
    if let Some(b) = c.battery {
        s.set_battery(b)?;
    }
    if let Some(p) = c.plugged_in {
        s.comp.plugged_in = p;
    }
    if let Some(chip) = &c.remove_chip {
        s.remove_chip(chip)?;
    }
    if let Some(chip) = &c.add_chip {
        s.add_chip(chip)?;
    }
    Ok(())
}

/// `/vv sheet special`: records a named Special action with its pattern
/// and cache cost (VV-6), or removes one. A player's own sheet, like its
/// Chips: the seed leaves abilities with the character, not the Compiler.
pub async fn set_special(
    app: &App,
    caller: &Caller,
    args: record::SpecialSet,
    name: Option<&str>,
    player: Option<i64>,
) -> AppResult {
    let add = super::check_text(app, "Special action's name", args.add.as_deref())?;
    let remove = super::check_text(app, "Special action's name", args.remove.as_deref())?;
    let pattern_text = super::check_text(app, "pattern", args.pattern.as_deref())?;
    // The name, and the pattern to record under it (none: remove it).
    let (named, pattern) = match (&add, &remove) {
        (Some(n), None) => {
            let t = pattern_text.as_deref().ok_or_else(|| {
                AppError::user(
                    "Give the Special action's `pattern`: faces such as 777 or 789, or a run such as `run 3`.",
                )
            })?;
            (n, Some(Pattern::parse(t)?))
        }
        (None, Some(n)) => {
            if pattern_text.is_some() || args.cache.is_some() {
                return Err(AppError::user(
                    "Removing a Special action takes only its name.",
                ));
            }
            (n, None)
        }
        _ => {
            return Err(AppError::user(
                "Give `add:` a name with its `pattern` (and `cache`), or `remove:` a name.",
            ))
        }
    };
    let mut turn = Turn::begin(app, caller).await?;
    let mut ch = target(&mut turn, name, player).await?;
    let cost = args.cache.unwrap_or_default();
    let note = match pattern {
        Some(p) => {
            let sp = ch.sheet.add_special(named, p, cost)?;
            format!("Recorded the Special action {}.", text::special(sp))
        }
        None => {
            let sp = ch.sheet.remove_special(named)?;
            format!("Removed the Special action {}.", text::special(&sp))
        }
    };
    let mut embed = sheet_embed(&ch, &turn.settings);
    embed.description = Some(format!("{}\n{note}", embed.description.unwrap_or_default()));
    let inputs = record::SpecialSet {
        add,
        cache: args.cache,
        pattern: pattern_text,
        remove,
    };
    let answer = Response::ephemeral(View::embed(embed));
    let out = edited(ch, "sheet_special", &inputs, answer)?;
    turn.finish(out).await
}

/// `/vv sheet status`: world, mob mode, living, digital; the Compiler may clear
/// a glitch.
pub async fn set_status(
    app: &App,
    caller: &Caller,
    inputs: record::StatusSet,
    name: Option<&str>,
    player: Option<i64>,
) -> AppResult {
    if inputs == record::StatusSet::default() {
        return Err(AppError::user(
            "Give `world`, `mob`, `living`, `digital` or `clear_glitch`.",
        ));
    }
    let mut turn = Turn::begin(app, caller).await?;
    let mut ch = target(&mut turn, name, player).await?;
    let s = &mut ch.sheet;
    if let Some(w) = inputs.world {
        s.world = w;
    }
    if let Some(m) = inputs.mob {
        s.set_mob(m)?;
    }
    if let Some(l) = inputs.living {
        s.living = l;
    }
    if let Some(d) = inputs.digital {
        s.native_digital = d;
    }
    if inputs.clear_glitch {
        if !turn.fc {
            return Err(AppError::user(
                "Only the Compiler can clear a glitch (A-O23: a living entity recovers only once its COMP is broken).",
            ));
        }
        s.conditions.glitched = false;
    }
    let answer = Response::ephemeral(View::embed(sheet_embed(&ch, &turn.settings)));
    let out = edited(ch, "sheet_status", &inputs, answer)?;
    turn.finish(out).await
}

fn stat_lines(stats: &Stats, group: &[Stat]) -> String {
    group
        .iter()
        .map(|s| format!("{} **{}**", s.name(), stats.get(*s)))
        .collect::<Vec<_>>()
        .join("\n")
}

fn world_name(w: World) -> &'static str {
    match w {
        World::Physical => "physical world",
        World::Veil => "the Veil",
        World::CosmOS => "cosmOS",
    }
}

/// The sheet as an embed.
pub fn sheet_embed(ch: &Loaded<OreSheet>, settings: &OreSettings) -> Embed {
    let s = &ch.sheet;
    let d = &s.defenses;
    let mut e = Embed::new(format!("📇 {}", ch.shown()))
        .description(format!("<@{}> · {}", ch.row.owner_id, kind_line(s)))
        .colour(if s.conditions.incapacitated() {
            colour::FAILURE
        } else {
            colour::NEUTRAL
        })
        .field("Body", stat_lines(&s.stats, &Stat::ALL[0..4]), true)
        .field("Mind", stat_lines(&s.stats, &Stat::ALL[4..8]), true)
        .field("Spirit", stat_lines(&s.stats, &Stat::ALL[8..12]), true)
        .field("Tracks", track_lines(s).join("\n"), true)
        .field(
            "Defenses",
            format!(
                "Defense **{}**\nIntegrity **{}**\nResolve **{}**",
                d.defense, d.integrity, d.resolve
            ),
            true,
        )
        .field("COMP", text::join_capped(&comp_lines(&s.comp), 1000), true)
        .field("Cache", text::cache(s, settings), true);
    if !s.specials.is_empty() {
        let lines: Vec<String> = s.specials.iter().map(text::special).collect();
        e = e.field("Special actions", text::join_capped(&lines, 1000), false);
    }
    if !s.mob_mode {
        e = e
            .field("Fault dice", text::faces(&s.fault_dice), true)
            .field("Injuries", injury_text(s, settings), false);
    }
    let combat = combat_words(s);
    if !combat.is_empty() {
        e = e.field("Combat", combat.join(" · "), false);
    }
    e.field("Conditions", or_none(&condition_words(s)), false)
}

/// Names joined by commas, or "none" (the Chips, the conditions).
fn or_none<S: std::borrow::Borrow<str>>(names: &[S]) -> String {
    if names.is_empty() {
        "none".to_string()
    } else {
        names.join(", ")
    }
}

/// What the character is: world, mob, living, natively digital.
fn kind_line(s: &OreSheet) -> String {
    let mut kind = vec![world_name(s.world).to_string()];
    if s.mob_mode {
        kind.push("mob".into());
    }
    kind.push(if s.living { "living" } else { "not living" }.into());
    if s.native_digital {
        kind.push("natively digital".into());
    }
    kind.join(" · ")
}

/// The damage tracks (a mob's one Health track).
fn track_lines(s: &OreSheet) -> Vec<String> {
    if s.mob_mode {
        return vec![format!(
            "Health **{}/{}**",
            s.vitality.current, s.vitality.max
        )];
    }
    Damageable::ALL
        .iter()
        .map(|t| {
            let tr = s.track(*t);
            let mut l = format!("{} **{}/{}**", t.name(), tr.current, tr.max);
            if tr.overflow_after_zero > 0 {
                l.push_str(&format!(" ({} taken at 0)", tr.overflow_after_zero));
            }
            l
        })
        .collect()
}

/// The COMP: running or off, distribution, cache, threads, battery, Chips.
fn comp_lines(c: &crate::rules::ore::sheet::Comp) -> Vec<String> {
    let mut comp = vec![if c.session_active {
        "**Running**".to_string()
    } else {
        "Off".to_string()
    }];
    if !c.distribution.is_empty() {
        comp.push(format!("Distribution: {}", c.distribution));
    }
    comp.push(format!(
        "Cache size {} · Threads {}",
        c.cache_max, c.thread_count
    ));
    comp.push(format!(
        "Battery {}/{}{}",
        c.battery_current,
        c.battery_max,
        if c.plugged_in { " (plugged in)" } else { "" }
    ));
    comp.push(format!(
        "Chips ({}/{}): {}",
        c.chips.len(),
        c.processing_power,
        or_none(&c.chips)
    ));
    comp
}

/// Every Injury (healed ones marked), and the Error Dice the unhealed
/// ones add to each action.
fn injury_text(s: &OreSheet, settings: &OreSettings) -> String {
    let mut injuries: Vec<String> = s
        .injuries
        .iter()
        .enumerate()
        .map(|(i, inj)| {
            if inj.healed {
                format!("{}. {} — healed", i + 1, inj.severity.name())
            } else {
                format!("{}. {}", i + 1, text::severity(inj.severity))
            }
        })
        .collect();
    if injuries.is_empty() {
        injuries.push("none".into());
    }
    let mut inj = text::join_capped(&injuries, 900);
    let n = s.active_injuries().count();
    if n > 0 {
        inj.push_str(&format!(
            "\nUnhealed: {n} · error dice per action: **{}**",
            s.error_dice_count(settings)
        ));
    }
    inj
}

/// The character's standing in a fight.
fn combat_words(s: &OreSheet) -> Vec<String> {
    let c = &s.combat;
    [
        c.outthink.map(|o| format!("Outthink {o}")),
        c.initiative.map(|i| format!("Initiative {i}")),
        c.called_stat.map(|st| format!("Called stat {}", st.name())),
        c.power_penalty.then(|| "−1 Power".into()),
        c.incapacitated_pending_end_of_round
            .then(|| "down at the end of the round".into()),
    ]
    .into_iter()
    .flatten()
    .collect()
}

/// The conditions that hold.
fn condition_words(s: &OreSheet) -> Vec<&'static str> {
    let cond = &s.conditions;
    [
        (cond.dead, "dead"),
        (cond.deleted, "deleted"),
        (cond.vitality_down, "down (Vitality 0)"),
        (cond.mental_break, "mental break"),
        (cond.supernatural_lost, "locked out (Cyber 0)"),
        (cond.critical_injury, "Critical Injury"),
        (cond.glitched, "internal glitch"),
        (s.repair_wait, "waiting a day before the next repair"),
    ]
    .into_iter()
    .filter_map(|(on, what)| on.then_some(what))
    .collect()
}
