//! `/vv roll`: a stat roll and its register as an interactive message.
//!
//! The register is shown as sets, widest first (`3×7 (37), 2×6 (26); loose
//! 9 4 1`), with the chance of meeting the action's difficulty counted
//! before the roll. Buttons: one "Use …" per qualifying set (a Basic
//! action), with `vv_allow_split_sets` one "Split: …" per set wide enough to
//! split (A-O7), one "Special: NAME" per named Special action of the sheet
//! whose pattern the register holds with its cache cost met (VV-6), "Add
//! cache dice", "Load into cache", "Minor action" and "± Modify a die"
//! (each opens a select; the last lists each unused die with a modifier,
//! "7 → 8 (+1)", VV-5), and "Close". Every set-using action after the first
//! is marked as a Combo or String (VV-7). When the cache goes over its
//! maximum a "Discard which?" select takes over until the owner chooses.
//!
//! Every click is one transaction ([`super::roll_click`], [`super::menu`]):
//! the session and the roller's sheet are loaded, the rules core's
//! [`OreRoll::apply`] runs, both are saved and the step is logged.

use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;

use super::buttons::VvButton;
use super::{text, VvState, GM, KIND};
use crate::app::component::Action;
use crate::app::view::{
    clean, escape, paged_options, Button, Embed, Row, Select, SelectOption, Style, View,
};
use crate::app::{sessions, App, AppError, AppResult};
use crate::app::{Caller, Response};
use crate::kit::controls::{self, option};
use crate::rules::ore::roll::{
    ActionKind, ActionRecord, AvailableActions, DieStatus, RollPhase, RollRequest, Standing,
};
use crate::rules::ore::sets::{Set, SetRequirement};
use crate::rules::ore::sheet::{CacheDie, CacheSource, Stat};
use crate::rules::ore::{OreEvent, OreRoll, OreSheet};
use crate::rules::Actor;
use crate::storage::characters::Character;
use crate::storage::sessions::Session;
use crate::storage::sessions::Status;
use crate::systems::table::look::{self, Mark, Outcome};

use super::context::{Outcome as Step, Turn};
use super::record;
use crate::app::pipeline::{Record, Shown};

/// Placeholder of the cache-dice select.
pub const CACHE_PLACEHOLDER: &str = "Pick cache dice to add";
/// Placeholder of the load select.
pub const LOAD_PLACEHOLDER: &str = "Pick register dice to load";
/// Placeholder of the Minor-action select.
pub const MINOR_PLACEHOLDER: &str = "Pick a die to spend";
/// Placeholder of the face-modifier select.
pub const MODIFY_PLACEHOLDER: &str = "Pick a die and a modifier";
/// The largest modifier the face-modifier select offers, either way.
pub const MAX_MENU_DELTA: i32 = 3;
/// The most "Use …" buttons.
const MAX_SET_BUTTONS: usize = 5;
/// Placeholder of the select of named Special actions, shown when they
/// do not fit on the first row of buttons.
pub const SPECIAL_PLACEHOLDER: &str = "Special action…";
/// Actions listed on the message (older ones are counted).
const LIST_ACTIONS: usize = 8;

pub use super::buttons::Picker;

/// What a roll message keeps between clicks.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct RollState {
    /// Whose sheet the roll acts on (stored rolls say `character`).
    #[serde(alias = "character")]
    pub whose: Whose,
    /// Its name.
    pub name: String,
    /// The roll and its register.
    pub roll: OreRoll,
    /// The difficulty of the action (min width, optional min height).
    pub requirement: SetRequirement,
    /// The chance of meeting it, counted before the roll.
    pub chance: Option<String>,
    /// The open select, if any.
    pub picker: Option<Picker>,
    /// The page of the open select (a cache or register of more than 25
    /// dice pages, so every die stays reachable).
    #[serde(default)]
    pub page: usize,
    /// What the last step did, one line each.
    pub notes: Vec<String>,
}

/// Whose sheet a roll acts on: a character row's, or a quick-added NPC's
/// kept in a fight (issue 29 item 5). A stored character id (a number)
/// still reads as [`Whose::Character`].
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(untagged)]
pub enum Whose {
    /// The character with this id.
    Character(i64),
    /// The NPC in this seat of the fight with this tracker session.
    Seat {
        /// The tracker's session id.
        tracker: i64,
        /// The seat's id.
        seat: u32,
    },
}

/// Options of `/vv roll`.
#[derive(Debug, Clone, Default)]
pub struct RollArgs {
    /// The Called Stat.
    pub stat: Option<Stat>,
    /// Ad-hoc dice instead of the stat.
    pub dice: Option<i64>,
    /// The narrowest set the action accepts (2 = a dub).
    pub min_width: Option<i64>,
    /// The lowest height accepted (A-O3).
    pub min_height: Option<i64>,
    /// What the roll is for.
    pub label: Option<String>,
    /// Roll for this character (yours, or any for the Compiler).
    pub name: Option<String>,
    /// Whose character (the Compiler; pins a name two members share).
    pub player: Option<i64>,
}

/// `/vv roll`: rolls the stat into a new register and posts it.
pub async fn start(app: &App, caller: &Caller, args: RollArgs) -> AppResult {
    let mut turn = Turn::begin(app, caller).await?;
    let out = start_in(&mut turn, app, args).await?;
    turn.finish(out).await
}

/// [`start`] in a turn (an approved change's too): its outcome.
pub async fn start_in(turn: &mut Turn<'_>, app: &App, args: RollArgs) -> Result<Step, AppError> {
    let label = super::check_text(app, "label", args.label.as_deref())?;
    let (dice, requirement) = checked(&args)?;
    let mut ch = super::context::target(turn, args.name.as_deref(), args.player).await?;
    if let (Some(stat), None) = (args.stat, dice) {
        check_stat_rolls(&ch.sheet, ch.name(), stat)?;
    }
    let request = RollRequest {
        stat: args.stat,
        dice,
        label,
    };
    let roller = character_roller(&ch.row, turn.fc);
    let (mut state, events) = RollState::roll(turn, &mut ch.sheet, roller, request, requirement)?;
    // With dice in the cache, the select that adds them opens with the
    // roll: a set made with a cache die is then a pick and a click
    // (issue 31 item 3); the view shows it only while it can be used.
    state.picker = (!ch.sheet.cache.is_empty()).then_some(Picker::Cache);
    let ch = super::context::checked(ch)?;
    let entry = roll_record(&state, args.stat, dice, &events).character(ch.row.id);
    let minutes = Some(turn.guild.session_timeout_minutes);
    let stored = VvState::Roll(state.clone());
    let sheet = ch.sheet.clone();
    let out = Step::new(move |s: &Shown| {
        Response::message(view(s.id, s.version, s.status, &state, Some(&sheet)))
    })
    .start(KIND, &stored, Status::Open, minutes)
    .sheet(ch)
    .log(entry);
    Ok(out)
}

impl RollState {
    /// Its session's status: closed once the register is.
    pub fn status(&self) -> Status {
        if self.roll.phase == RollPhase::Closed {
            Status::Closed
        } else {
            Status::Open
        }
    }

    /// Rolls `request` into a new register of `whose` sheet (its name and
    /// who plays it): a cache over its maximum is settled first, the pool
    /// is capped by the server's `max_dice_per_roll` too (said in the
    /// notes when that cap bit), and the Called Stat is kept on the sheet.
    /// The state (no select open) and the rules' events.
    pub fn roll(
        turn: &Turn<'_>,
        sheet: &mut OreSheet,
        (whose, name, owner): (Whose, &str, Actor),
        request: RollRequest,
        requirement: SetRequirement,
    ) -> Result<(RollState, Vec<OreEvent>), AppError> {
        let mut settings = turn.settings.clone();
        let guild_cap = turn.max_dice().max(1);
        let guild_capped = settings.max_pool > guild_cap;
        settings.max_pool = settings.max_pool.min(guild_cap);
        let mut notes = settle_overflow(sheet, &settings);
        let stat = request.stat;
        let (roll, events) = OreRoll::start(sheet, &settings, owner, request, &mut turn.rng())?;
        if stat.is_some() {
            sheet.combat.called_stat = stat;
        }
        if guild_capped && roll.capped {
            notes.push(format!(
                "This server allows at most {guild_cap} dice per roll (max_dice_per_roll)."
            ));
        }
        let state = RollState {
            whose,
            name: name.to_string(),
            chance: text::chance(roll.pool, &requirement),
            roll,
            requirement,
            picker: None,
            page: 0,
            notes,
        };
        Ok((state, events))
    }
}

/// A character's sheet as [`RollState::roll`] takes it: whose it is, its
/// name, and who plays it (its owner, as the game master when `gm`).
pub fn character_roller(row: &Character, gm: bool) -> (Whose, &str, Actor) {
    let owner = Actor {
        id: row.owner_id,
        gm,
    };
    (Whose::Character(row.id), &row.name, owner)
}

/// Refuses a Called Stat of 0 with an empty cache, which rolls nothing:
/// a newcomer's fresh sheet gets the way forward instead of a public
/// "No set" (issue 31).
fn check_stat_rolls(sheet: &OreSheet, name: &str, stat: Stat) -> Result<(), AppError> {
    if sheet.stats.get(stat) == 0 && sheet.cache.is_empty() {
        return Err(AppError::user(format!(
            "{}'s {} is 0, so there are no dice to roll. Set it with `/vv sheet set stat:{} value:…`, or roll a number of dice with `/vv roll dice:…`.",
            clean(name),
            stat.name(),
            stat.name(),
        )));
    }
    Ok(())
}

/// The roll's log entry on its session: what was asked (stat or dice, the
/// pool, the set needed) and the dice thrown.
fn roll_record(
    state: &RollState,
    stat: Option<Stat>,
    dice: Option<u32>,
    events: &[OreEvent],
) -> Record {
    let inputs = record::RollInputs {
        dice,
        pool: Some(pool_text(&state.roll)),
        requirement: Some(state.requirement),
        stat,
    };
    Record::new("roll", &inputs, &events)
        .dice(
            &record::RollDice::of(&state.roll),
            super::faces::thrown(events),
        )
        .on_session()
}

/// The options of `/vv roll` checked: the ad-hoc dice (1 to 100) and the
/// set the action needs. A stat or dice must be given.
fn checked(args: &RollArgs) -> Result<(Option<u32>, SetRequirement), AppError> {
    if args.stat.is_none() && args.dice.is_none() {
        return Err(AppError::user(
            "Choose a `stat` to roll, or a number of `dice`.",
        ));
    }
    let dice = match args.dice {
        Some(d) => Some(
            u32::try_from(d)
                .ok()
                .filter(|d| (1..=100).contains(d))
                .ok_or_else(|| AppError::user("`dice` must be from 1 to 100."))?,
        ),
        None => None,
    };
    let requirement = SetRequirement {
        min_width: u32::try_from(args.min_width.unwrap_or(2)).unwrap_or(0),
        min_height: args.min_height.map(|h| u32::try_from(h).unwrap_or(0)),
    };
    requirement.validate()?;
    Ok((dice, requirement))
}

/// Discards by default (A-O10: the lowest face) while a sheet's cache is
/// over its maximum outside any prompt (a prompt that timed out).
pub fn settle_overflow(
    sheet: &mut OreSheet,
    settings: &crate::rules::ore::OreSettings,
) -> Vec<String> {
    let discards = sheet.discard_overflow(settings);
    text::events(&discards, sheet)
}

/// The outcome that saves the roll (open until its register closes) and
/// shows it in place.
pub fn shown(turn: &Turn<'_>, session: &Session, state: RollState, sheet: &OreSheet) -> Step {
    let status = state.status();
    // A register holding dice Close puts back into the cache never times
    // out: an expiry would lose them.
    let holds_cache = !state.roll.back_to_cache().is_empty();
    let minutes = turn.guild.session_timeout_minutes;
    let stored = VvState::Roll(state.clone());
    let sheet = sheet.clone();
    Step::new(move |s: &Shown| {
        Response::update(view(s.id, s.version, s.status, &state, Some(&sheet)))
    })
    .save(
        session.clone(),
        &stored,
        status,
        (!holds_cache).then_some(minutes),
    )
}

fn action_line(n: usize, a: &ActionRecord, follow_up: bool) -> String {
    let mut s = match a.kind {
        ActionKind::Basic => format!(
            "{n}. Basic: **{}**",
            a.set.map(|s| s.to_string()).unwrap_or_default()
        ),
        ActionKind::Special => format!(
            "{n}. Special {}: {}",
            a.pattern
                .as_ref()
                .map(|p| p.to_string())
                .unwrap_or_default(),
            text::faces(&a.faces)
        ),
        ActionKind::Minor => format!("{n}. Minor: spent a {}", text::faces(&a.faces)),
        ActionKind::Free => format!("{n}. Free"),
    };
    if let Some(l) = &a.label {
        s.push_str(&format!(" — {l}"));
    }
    if follow_up {
        s.push_str(" · Combo/String");
    }
    if a.cache_dice > 0 {
        s.push_str(&format!(" · {} from the cache", a.cache_dice));
    }
    if !a.error_dice.is_empty() {
        s.push_str(&format!(
            " · ⚠️ error dice **{}**",
            text::faces(&a.error_dice)
        ));
    }
    if let Some(d) = a.suggested_damage {
        s.push_str(&format!(" · suggested damage {d}"));
    }
    s
}

/// The pool as the roll shows it: `Wit (6 dice)`, or, when `dice:`
/// replaced the stat's value (the Compiler's override, issue 14),
/// `Wit (overridden: 10 dice)` and `10 dice (overridden)`.
pub fn pool_text(r: &OreRoll) -> String {
    let dice = text::count(r.pool, "die", "dice");
    match (r.stat, r.overridden) {
        (Some(st), false) => format!("{} ({dice})", st.name()),
        (Some(st), true) => format!("{} (overridden: {dice})", st.name()),
        (None, false) => dice,
        (None, true) => format!("{dice} (overridden)"),
    }
}

/// What the roll came to, for its title and colour: the best set used or
/// still in the register that meets the action's need (a success), a
/// named Special action used, a set below the need (information), or no
/// set at all (a failure). `Best set 3×4`, `Special Burst`, `No set`.
pub fn outcome(s: &RollState) -> (Outcome, String) {
    match s.roll.standing(&s.requirement) {
        Standing::Met(b) => (
            Outcome::Success,
            format!("Best set {}", text::set_short(&b)),
        ),
        Standing::Special(name) => (Outcome::Success, format!("Special {name}")),
        Standing::Short(b) => (
            Outcome::Info,
            format!(
                "Best set {} · needs {}",
                text::set_short(&b),
                s.requirement.describe()
            ),
        ),
        Standing::NoSet => (Outcome::Failure, "No set".into()),
    }
}

/// The first line of a roll: the unused register dice in sets (bold) and
/// loose (plain), then the dice actions used, in brackets.
fn dice_line(r: &OreRoll) -> String {
    let mut line = if r.register.iter().any(|d| d.is_unused()) {
        text::grouped_reading(&r.reading())
    } else {
        String::new()
    };
    let used: Vec<(u32, Mark)> = look::sorted(
        r.register
            .iter()
            .filter(|d| matches!(d.status, DieStatus::Used(_)))
            .map(|d| (d.face, Mark::Dropped))
            .collect(),
    );
    if !used.is_empty() {
        if !line.is_empty() {
            line.push_str(" · ");
        }
        line.push_str(&format!("used {}", look::dice(used)));
    }
    if line.is_empty() {
        line = "—".into();
    }
    line
}

/// The outcome with the roller's open registers in the caller's channel
/// whose cache dice left with the COMP (a logout, an empty battery, Cyber
/// 0; VV-8) moved on: those dice dropped from each, saved (still open) and
/// redrawn.
pub async fn lost_cache(
    turn: &mut Turn<'_>,
    out: Step,
    character: i64,
    sheet: &OreSheet,
) -> Result<Step, AppError> {
    /// Open rolls of a channel looked at.
    const LOOK_AT: i64 = 50;
    let caller = turn.caller().clone();
    let (guild, channel) = (caller.guild_id, caller.channel_id);
    let open =
        crate::storage::sessions::latest_open_in_channel(turn.tx(), guild, channel, KIND, LOOK_AT)
            .await?;
    let minutes = Some(turn.guild.session_timeout_minutes);
    let mut out = out;
    for s in open {
        let Ok(VvState::Roll(mut state)) = sessions::load::<VvState>(&s) else {
            continue;
        };
        if state.whose != Whose::Character(character)
            || state.roll.drop_lost_cache(sheet).is_empty()
        {
            continue;
        }
        state.picker = None;
        out = out.moved(s, &VvState::Roll(state), Status::Open, minutes);
    }
    Ok(out)
}

/// What a roll's message shows that the rules work out, computed once
/// before anything is drawn ([`view`] only draws it).
struct Facts<'a> {
    /// The state, less the cache dice the COMP took away since they were
    /// added ([`OreRoll::drop_lost_cache`]).
    s: RollState,
    /// The roller's sheet now, if it still exists.
    sheet: Option<&'a OreSheet>,
    /// The register still takes clicks.
    open: bool,
    /// The cache is over its maximum: a die is discarded before anything
    /// else.
    overflow: bool,
    /// The names of the Special actions whose threads the register used.
    threads: Vec<String>,
    /// What the owner may do now (nothing unless open and not
    /// overflowing).
    avail: AvailableActions,
    /// The whole sets a Basic action can use for the roll's need, and the
    /// wide sets that may be split (A-O7), each with the width to use
    /// ([`OreRoll::usable_sets`]).
    sets: (Vec<Set>, Vec<(Set, u32)>),
    /// The sheet's named Special actions whose pattern (and cache cost)
    /// the register holds now (VV-6, issue 15): id and name.
    specials: Vec<(u32, String)>,
}

impl<'a> Facts<'a> {
    /// Asks the rules core what the message of `s` shows.
    fn new(status: Status, s: &RollState, sheet: Option<&'a OreSheet>) -> Facts<'a> {
        let open = status == Status::Open;
        let mut s = s.clone();
        if let Some(sh) = sheet.filter(|_| open) {
            s.roll.drop_lost_cache(sh);
        }
        let r = &s.roll;
        let excess = sheet.map_or(0, |sh| sh.cache_excess(&r.settings));
        let overflow = open && (r.phase == RollPhase::Overflow || excess > 0);
        let threads = sheet.map_or_else(Vec::new, |sh| {
            r.skills_used()
                .iter()
                .map(|id| {
                    sh.special(*id)
                        .map_or_else(|| "?".to_string(), |sp| escape(&sp.name))
                })
                .collect()
        });
        let owner = Actor {
            id: r.owner,
            gm: true,
        };
        let (avail, sets, specials) = match sheet.filter(|_| open && !overflow) {
            Some(sh) => {
                let avail = r.available_actions(owner, sh);
                let sets = r.usable_sets(owner, sh, &s.requirement);
                let specials = r
                    .offered_specials(owner, sh)
                    .into_iter()
                    .map(|(sp, _)| (sp.id, sp.name.clone()))
                    .collect();
                (avail, sets, specials)
            }
            None => Default::default(),
        };
        Facts {
            s,
            sheet,
            open,
            overflow,
            threads,
            avail,
            sets,
            specials,
        }
    }
}

/// The roll's message. `sheet` is the roller's sheet now (for the cache),
/// if it still exists: cache dice its COMP took away since they were
/// added are not shown or offered ([`OreRoll::drop_lost_cache`]).
pub fn view(
    id: i64,
    version: i64,
    status: Status,
    s: &RollState,
    sheet: Option<&OreSheet>,
) -> View {
    let f = Facts::new(status, s, sheet);
    let mut v = View::embed(roll_embed(&f, status));
    if !f.open {
        return v;
    }
    let bid = |b: VvButton| b.button(KIND, id, version).encode();
    if f.overflow {
        let settings = &f.s.roll.settings;
        v.rows
            .extend(sheet.and_then(|sh| super::report::discard_row(id, version, sh, settings)));
        return v;
    }
    let (first, special_select) = set_buttons(&f, &bid);
    v = v.buttons(first);
    v.rows.extend(special_select);
    v = v.buttons(control_buttons(&f, &bid));
    let picker = f.s.picker.filter(|p| p.available(&f.avail));
    if let (Some(p), Some(sh)) = (picker, sheet) {
        if let Some(row) = picker_row(p, bid(VvButton::Select(p)), &f.s.roll, sh, f.s.page) {
            v.rows.push(row);
        }
    }
    v
}

/// The roll's embed: who rolls what, the register, the actions so far,
/// what the last click did and what the register needs.
fn roll_embed(f: &Facts, status: Status) -> Embed {
    let s = &f.s;
    let r = &s.roll;
    let mut author = format!("{} · {}", s.name, pool_text(r));
    if let Some(l) = &r.label {
        author.push_str(&format!(" · {l}"));
    }
    crate::app::view::truncate(&mut author, crate::app::view::limits::AUTHOR);
    let (outcome, title) = if f.overflow {
        (
            Outcome::Pending,
            format!("Waiting for {} · discard a cache die", clean(&s.name)),
        )
    } else {
        outcome(s)
    };
    let mut embed = Embed::new(outcome.title(&title))
        .author(author)
        .description(description(f).join("\n"))
        .colour(outcome.colour());
    if !r.actions.is_empty() {
        embed = embed.field("Actions", text::join_capped(&action_lines(r), 1000), false);
    }
    let news = news(s);
    if !news.is_empty() {
        embed = embed.field("Just now", text::join_capped(&news, 1000), false);
    }
    embed.footer(footer(f, status))
}

/// The embed's description: the dice, the modified faces, the threads
/// used, the cache and the error dice.
fn description(f: &Facts) -> Vec<String> {
    let r = &f.s.roll;
    let mut desc = vec![dice_line(r)];
    if !r.modified.is_empty() {
        let changes: Vec<String> = r
            .modified
            .iter()
            .map(|c| format!("{}→{} ({:+})", c.from, c.to, c.delta))
            .collect();
        desc.push(format!(
            "Modified: {}",
            text::join_capped(&changes, 300).replace('\n', ", ")
        ));
    }
    if let Some(sh) = f.sheet.filter(|_| !f.threads.is_empty()) {
        desc.push(format!(
            "Threads: {}/{} ({})",
            f.threads.len(),
            sh.comp.thread_count.max(1),
            f.threads.join(", ")
        ));
    }
    desc.extend(cache_lines(f));
    if let Some(line) = error_dice_line(r) {
        desc.push(line);
    }
    desc
}

/// The cache's lines: the unused dice that came from it, the dice loaded
/// into it, and the cache itself while the COMP runs or has room.
fn cache_lines(f: &Facts) -> Vec<String> {
    let r = &f.s.roll;
    let mut lines = Vec::new();
    let from_cache: Vec<u32> = r
        .unused_dice()
        .into_iter()
        .filter_map(|(_, face, cache)| cache.then_some(face))
        .collect();
    if !from_cache.is_empty() {
        lines.push(format!(
            "Unused from the cache: {}",
            text::faces_desc(&from_cache)
        ));
    }
    let loaded: Vec<u32> = r
        .register
        .iter()
        .filter(|d| d.status == DieStatus::Loaded)
        .map(|d| d.face)
        .collect();
    if !loaded.is_empty() {
        lines.push(format!("Loaded into the cache: {}", text::faces(&loaded)));
    }
    if let Some(sh) = f
        .sheet
        .filter(|sh| sh.comp.session_active || sh.comp.cache_max > 0)
    {
        lines.push(format!("Cache: {}", text::cache(sh, &r.settings)));
    }
    lines
}

/// The error dice an Injury adds to each action, if any (with their faces
/// until the first action takes them).
fn error_dice_line(r: &OreRoll) -> Option<String> {
    if r.error_dice_per_action == 0 {
        return None;
    }
    let per = text::count(r.error_dice_per_action, "error die", "error dice");
    Some(match r.first_error_dice() {
        Some(first) => format!(
            "⚠️ {per} per action (Injuries); with the first: **{}**",
            text::faces(first)
        ),
        None => format!("⚠️ {per} per action (Injuries)"),
    })
}

/// The last [`LIST_ACTIONS`] actions, one line each, older ones counted.
fn action_lines(r: &OreRoll) -> Vec<String> {
    let skip = r.actions.len().saturating_sub(LIST_ACTIONS);
    let mut lines: Vec<String> = Vec::new();
    if skip > 0 {
        lines.push(format!("…{skip} earlier"));
    }
    lines.extend(
        r.actions
            .iter()
            .enumerate()
            .skip(skip)
            .map(|(k, a)| action_line(k + 1, a, r.is_follow_up(k))),
    );
    lines
}

/// What the last click did, less the actions the list of actions shows.
fn news(s: &RollState) -> Vec<String> {
    let mut news: Vec<String> = s.roll.warnings.clone();
    news.extend(
        s.notes
            .iter()
            .filter(|n| {
                !(n.starts_with("Basic action with")
                    || n.starts_with("Special action ")
                    || n.starts_with("Minor action: "))
            })
            .cloned(),
    );
    news
}

/// The footer: what the register needs, or why it takes no more clicks.
fn footer(f: &Facts, status: Status) -> String {
    let s = &f.s;
    let mut need = format!("Needs {}", s.requirement.describe());
    if let Some(c) = &s.chance {
        need.push_str(&format!(" · {c} before the roll"));
    }
    match status {
        Status::Open if f.overflow => format!(
            "The cache is over its maximum: {}'s player (or the {GM}) picks a die to discard.",
            s.name
        ),
        Status::Open => need,
        Status::Expired => format!("Timed out: this register is finished. {need}"),
        _ => format!("Register cleared. {need}"),
    }
}

/// The first row: what uses a set (sets, split sets, named Special
/// actions); when the Special actions do not fit there, a select of them.
fn set_buttons(f: &Facts, bid: &impl Fn(VvButton) -> String) -> (Vec<Button>, Option<Row>) {
    let (whole, splits) = &f.sets;
    let mut first: Vec<Button> = whole
        .iter()
        .take(MAX_SET_BUTTONS)
        .map(|set| {
            Button::new(
                bid(VvButton::Basic(set.height)),
                format!("Use {set}"),
                Style::Success,
            )
        })
        .collect();
    // Wide sets that may be split (A-O7): use the narrowest accepted set
    // of them and keep the rest for a Combo or String.
    first.extend(splits.iter().map(|(set, w)| {
        let part = Set {
            width: *w,
            height: set.height,
        };
        Button::new(
            bid(VvButton::Split(set.height)),
            format!("Split: {part}"),
            Style::Primary,
        )
    }));
    first.truncate(MAX_SET_BUTTONS);
    let room = MAX_SET_BUTTONS.saturating_sub(first.len());
    if f.specials.len() > room {
        let options: Vec<SelectOption> = f
            .specials
            .iter()
            .take(25)
            .map(|(sid, name)| option(&format!("Special: {name}"), sid.to_string(), None))
            .collect();
        let select = Row::pick(
            bid(VvButton::Select(Picker::Special)),
            SPECIAL_PLACEHOLDER,
            options,
        );
        return (first, Some(select));
    }
    first.extend(f.specials.iter().map(|(sid, name)| {
        Button::new(
            bid(VvButton::Special(*sid)),
            format!("Special: {name}"),
            Style::Success,
        )
    }));
    (first, None)
}

/// The second row: a button per select the owner may open now (the open
/// one highlighted), and "Close".
fn control_buttons(f: &Facts, bid: &impl Fn(VvButton) -> String) -> Vec<Button> {
    let pick = |p: Picker, label: &str| {
        let open = f.s.picker == Some(p);
        let button = Button::new(bid(VvButton::Pick(p)), label, style_for(open));
        (p.available(&f.avail), button)
    };
    controls::shown([
        pick(Picker::Cache, "Add cache dice"),
        pick(Picker::Load, "Load into cache"),
        pick(Picker::Minor, "Minor action"),
        pick(Picker::Modify, "± Modify a die"),
        (
            true,
            Button::new(bid(VvButton::Close), "Close", Style::Danger),
        ),
    ])
}

fn style_for(open: bool) -> Style {
    if open {
        Style::Primary
    } else {
        Style::Secondary
    }
}

fn picker_row(
    p: Picker,
    custom_id: String,
    r: &OreRoll,
    sheet: &OreSheet,
    page: usize,
) -> Option<Row> {
    let (placeholder, options, max) = match p {
        Picker::Cache => (
            CACHE_PLACEHOLDER,
            paged_options(cache_options(sheet), page),
            25,
        ),
        Picker::Load => (LOAD_PLACEHOLDER, paged_options(load_options(r), page), 25),
        Picker::Minor => (MINOR_PLACEHOLDER, minor_options(r), 1),
        Picker::Modify => (
            MODIFY_PLACEHOLDER,
            paged_options(modify_options(r), page),
            1,
        ),
        Picker::Special => return None,
    };
    if options.is_empty() {
        return None;
    }
    let max = max.min(options.len()) as u8;
    Some(Row::Select(Select {
        custom_id,
        placeholder: placeholder.into(),
        options,
        min: 1,
        max,
    }))
}

/// The cache-dice select's options: each cache die, highest first, with
/// where it came from. The value is `<face>.<n>` (the n-th die of that face).
fn cache_options(sheet: &OreSheet) -> Vec<SelectOption> {
    let mut dice: Vec<&CacheDie> = sheet.cache.iter().collect();
    dice.sort_by_key(|d| std::cmp::Reverse(d.face));
    let mut seen: BTreeMap<u32, usize> = BTreeMap::new();
    dice.into_iter()
        .map(|d| {
            let k = seen.entry(d.face).or_default();
            *k += 1;
            let source = match d.source {
                CacheSource::Boot => "rolled at boot",
                CacheSource::Loaded => "loaded",
            };
            option(
                &format!("Cache die {}", d.face),
                format!("{}.{k}", d.face),
                Some(source),
            )
        })
        .collect()
}

/// The load select's options: each unused register die, highest first.
/// The value is its register position.
fn load_options(r: &OreRoll) -> Vec<SelectOption> {
    let mut dice = r.unused_dice();
    dice.sort_by(|a, b| b.1.cmp(&a.1).then(a.0.cmp(&b.0)));
    dice.into_iter()
        .map(|(i, face, cache)| {
            let from_cache = cache.then_some("came from the cache");
            option(&format!("Die {}: {face}", i + 1), i.to_string(), from_cache)
        })
        .collect()
}

/// The Minor-action select's options: one unused die per face (rolled
/// and cache dice apart, [`OreRoll::distinct_unused`]), lowest first, with
/// the set it breaks; at most 25.
fn minor_options(r: &OreRoll) -> Vec<SelectOption> {
    let reading = r.reading();
    let mut options: Vec<SelectOption> = r
        .distinct_unused()
        .into_iter()
        .map(|(i, face, cache)| {
            let mut desc = match reading.sets.iter().find(|s| s.height == face) {
                Some(s) => format!("breaks {s}"),
                None => "a loose die".to_string(),
            };
            if cache {
                desc.push_str(", from the cache");
            }
            option(&format!("A {face}"), i.to_string(), Some(&desc))
        })
        .collect();
    options.truncate(25);
    options
}

/// The face-modifier select's options (VV-5): for each unused die (one per
/// face, rolled and cache dice apart), each modifier from ±1 to
/// ±[`MAX_MENU_DELTA`] that changes its face under the roll's
/// `vv_face_modifier_bounds`, the ±1 ones first: "7 → 8 (+1)", with what it
/// makes or breaks. The value is `<register position>:<modifier>`.
pub fn modify_options(r: &OreRoll) -> Vec<SelectOption> {
    r.modifier_choices(MAX_MENU_DELTA)
        .into_iter()
        .map(|c| {
            let sets = [
                ("breaks", c.breaks),
                ("leaves", c.leaves),
                ("makes", c.makes),
            ];
            let mut effects: Vec<String> = sets
                .into_iter()
                .filter_map(|(what, set)| set.map(|s| format!("{what} {s}")))
                .collect();
            if c.from_cache {
                effects.push("a cache die".into());
            }
            let effects = if effects.is_empty() {
                "no set changes".into()
            } else {
                effects.join(", ")
            };
            option(
                &format!("{} → {} ({:+})", c.from, c.to, c.delta),
                format!("{}:{}", c.die, c.delta),
                Some(&effects),
            )
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::ore::sheet::Stats;
    use crate::rules::ore::OreSettings;
    use rand::{rngs::StdRng, SeedableRng};
    use serde_json::json;

    #[test]
    fn cache_options_list_the_dice_highest_first_numbered_within_a_face() {
        let mut sheet = OreSheet::new(Stats::all(2));
        let die = |face, source| CacheDie { face, source };
        sheet.cache = vec![
            die(7, CacheSource::Boot),
            die(3, CacheSource::Loaded),
            die(7, CacheSource::Loaded),
        ];
        let shown: Vec<(String, String, Option<String>)> = cache_options(&sheet)
            .into_iter()
            .map(|o| (o.label, o.value, o.description))
            .collect();
        let want = [
            ("Cache die 7", "7.1", "rolled at boot"),
            ("Cache die 7", "7.2", "loaded"),
            ("Cache die 3", "3.1", "loaded"),
        ];
        let want: Vec<(String, String, Option<String>)> = want
            .iter()
            .map(|(l, v, d)| (l.to_string(), v.to_string(), Some(d.to_string())))
            .collect();
        assert_eq!(shown, want);
    }

    fn state(pool: u32, cache: u32, settings: OreSettings) -> (RollState, OreSheet) {
        let mut sheet = OreSheet::new(Stats::all(pool));
        sheet.set_cache_max(i64::from(cache)).unwrap();
        sheet.comp.session_active = true;
        for f in 0..cache {
            sheet.cache.push(CacheDie {
                face: f % 10 + 1,
                source: CacheSource::Boot,
            });
        }
        let (roll, _) = OreRoll::start(
            &sheet,
            &settings,
            Actor { id: 1, gm: false },
            RollRequest {
                stat: Some(Stat::Wit),
                dice: None,
                label: Some("x".repeat(200)),
            },
            &mut StdRng::seed_from_u64(3),
        )
        .unwrap();
        (
            RollState {
                whose: Whose::Character(1),
                name: "N".repeat(64),
                roll,
                requirement: SetRequirement::default(),
                chance: text::chance(pool, &SetRequirement::default()),
                picker: None,
                page: 0,
                notes: vec!["n".repeat(300); 5],
            },
            sheet,
        )
    }

    /// A roll stored before NPC registers (`"character": id`) still loads
    /// as that character's, and an NPC's names its fight and seat.
    #[test]
    fn stored_rolls_still_load_and_npc_rolls_name_their_seat() {
        let (state, _) = state(3, 0, OreSettings::default());
        let mut old = serde_json::to_value(&state).unwrap();
        let whose = old.as_object_mut().unwrap().remove("whose").unwrap();
        assert_eq!(whose, json!(1));
        old["character"] = json!(7);
        let back: RollState = serde_json::from_value(old).unwrap();
        assert_eq!(back.whose, Whose::Character(7));
        let npc = RollState {
            whose: Whose::Seat {
                tracker: 12,
                seat: 3,
            },
            ..state
        };
        let back: RollState = serde_json::from_str(&serde_json::to_string(&npc).unwrap()).unwrap();
        assert_eq!(
            back.whose,
            Whose::Seat {
                tracker: 12,
                seat: 3
            }
        );
    }

    #[test]
    fn the_largest_pool_fits_discord_limits_without_clamping() {
        let settings = OreSettings {
            max_pool: 30,
            ..Default::default()
        };
        for picker in [
            None,
            Some(Picker::Cache),
            Some(Picker::Load),
            Some(Picker::Minor),
            Some(Picker::Modify),
        ] {
            let (mut s, sheet) = state(30, 50, settings.clone());
            s.picker = picker;
            let v = view(123_456, 789, Status::Open, &s, Some(&sheet));
            assert_eq!(v.clone().clamp(), v, "{picker:?} needed clamping");
            assert!(v.rows.len() <= 5);
            // Issue 16: at most two rows of buttons, ten in all.
            let rows: Vec<usize> = v
                .rows
                .iter()
                .filter_map(|r| match r {
                    Row::Buttons(b) => Some(b.len()),
                    Row::Select(_) => None,
                })
                .collect();
            assert!(
                rows.len() <= 2 && rows.iter().sum::<usize>() <= 10,
                "{rows:?}"
            );
        }
    }

    /// A-O13: the stat roll's own Error Dice go with its first
    /// dice-using action, a Minor one too; once one took them, the message
    /// no longer offers them "with the first".
    #[test]
    fn a_o13_error_dice_leave_the_message_with_a_minor_action_too() {
        use crate::rules::ore::sheet::{Injury, Severity};
        use crate::rules::ore::RollAction;
        let (mut s, mut sheet) = state(6, 0, OreSettings::default());
        sheet.injuries.push(Injury {
            severity: Severity::Minor,
            healed: false,
            losses: None,
        });
        let owner = Actor { id: 1, gm: false };
        let request = RollRequest {
            stat: Some(Stat::Wit),
            dice: None,
            label: None,
        };
        let mut rng = StdRng::seed_from_u64(3);
        let settings = OreSettings::default();
        s.roll = OreRoll::start(&sheet, &settings, owner, request, &mut rng)
            .unwrap()
            .0;
        let error_line = |s: &RollState, sheet: &OreSheet| {
            let v = view(1, 0, Status::Open, s, Some(sheet));
            let d = v.embeds[0].description.clone().unwrap_or_default();
            d.lines().find(|l| l.starts_with("⚠️")).map(str::to_string)
        };
        let first = format!(
            "⚠️ 1 error die per action (Injuries); with the first: **{}**",
            text::faces(&s.roll.error_dice)
        );
        assert_eq!(error_line(&s, &sheet), Some(first));
        let minor = RollAction::Minor {
            actor: owner,
            die: None,
            label: None,
        };
        s.roll = s.roll.clone().apply(&mut sheet, minor, &mut rng).unwrap().0;
        assert_eq!(s.roll.actions[0].error_dice, s.roll.error_dice);
        assert_eq!(
            error_line(&s, &sheet).as_deref(),
            Some("⚠️ 1 error die per action (Injuries)")
        );
    }

    #[test]
    fn register_line_lists_sets_widest_first() {
        let (s, sheet) = state(10, 0, OreSettings::default());
        let v = view(1, 0, Status::Open, &s, Some(&sheet));
        let d = v.embeds[0].description.clone().unwrap();
        let first = d.lines().next().unwrap_or_default();
        assert_eq!(first, text::grouped_reading(&s.roll.reading()), "{d}");
        assert_eq!(first, "**7 7** · **2 2** · 10 8 5 4 3 1");
    }
}
