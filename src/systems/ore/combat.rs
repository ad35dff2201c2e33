//! `/vv combat …` and the tracker's clicks (issue 15): Virtual Veil's
//! combat tracker as a session of its own kind (`vvc`, no expiry, one per
//! channel, [`encounter`]), whose state is the rules core's [`Fight`].
//!
//! Each command or click is one [`Act`]: the fight is loaded, the player
//! characters' sheets are read by seat, the rules core moves the fight on,
//! the sheets and the session are saved, and the tracker is redrawn: in
//! place for a click, with [`Response::edit`] for a command (a private note
//! for the caller, the posted tracker redrawn). A combatant's Called Stat
//! roll is the usual Virtual Veil roll ([`super::roll`]), posted with its
//! buttons and linked to the seat; the End phase clears it. A quick-added
//! NPC's acts on the sheet kept in its seat ([`super::held`], issue 29
//! item 5), pressed by the Compiler only.

use std::collections::{BTreeMap, BTreeSet};

pub use super::combat_buttons::KIND;

use super::combat_buttons::CombatButton;
use super::combat_view::view;
use super::context::{checked, Outcome as Step, Turn};
use super::roll::{character_roller, RollState, Whose};
use super::{by_id, record, text, VvState, GM};
use crate::app::characters::{Access, Loaded, Pick};
use crate::app::component::Click;
use crate::app::pipeline::{Record, Shown};
use crate::app::view::clean;
use crate::app::{sessions, Act, App, AppError, AppResult, Caller, Reply, Response};
use crate::rules::ore::roll::RollRequest;
use crate::rules::ore::sets::SetRequirement;
use crate::rules::ore::sheet::{Damageable, OreSheet, Stat, Stats, World};
use crate::rules::ore::tracker::{EndOfRound, Fight, Fighter, Phase, Register, Sheets};
use crate::rules::ore::{OreEvent, RollAction};
use crate::rules::Actor;
use crate::storage::sessions::{Session, Status};
use crate::storage::{self, Tx};
use crate::systems::table::encounter;

const WHAT: &str = "fight";
const START: &str = "`/vv-gm combat start`";
const END: &str = "`/vv-gm combat end`";
/// The highest stat an NPC may be given.
pub const MAX_STAT: i64 = 30;
/// The most Vitality (or Health) an NPC may be given.
pub const MAX_TRACK: i64 = 999;

/// The player characters of a fight, loaded by seat id, and their sheets
/// as the rules core moves them on: [`tracker`] saves those that changed
/// (and the one an action took with [`Pcs::acting`]).
#[derive(Default)]
struct Pcs {
    loaded: BTreeMap<u32, Loaded<OreSheet>>,
    /// Each seat's sheet as the fight now has it, for the rules core.
    sheets: Sheets,
    /// Seats whose sheet is saved even when it stayed the same.
    touched: BTreeSet<u32>,
}

impl Pcs {
    /// The player characters seated in `fight` whose sheets still exist.
    async fn load_in(tx: &mut Tx, guild: i64, fight: &Fight) -> Result<Pcs, AppError> {
        let mut out = Pcs::default();
        for seat in &fight.turns.seats {
            if let Some(c) = seat.character {
                if let Ok(ch) = by_id(tx, guild, c).await {
                    out.sheets.insert(seat.id, ch.sheet.clone());
                    out.loaded.insert(seat.id, ch);
                }
            }
        }
        Ok(out)
    }

    /// Seat `id`'s player character (`who`) and its sheet, for an action
    /// that acts on it: saved even if the action leaves it the same.
    fn acting(
        &mut self,
        id: u32,
        who: &str,
    ) -> Result<(&Loaded<OreSheet>, &mut OreSheet), AppError> {
        let (Some(ch), Some(sheet)) = (self.loaded.get(&id), self.sheets.get_mut(&id)) else {
            return Err(AppError::user(format!(
                "{}'s sheet no longer exists.",
                clean(who)
            )));
        };
        self.touched.insert(id);
        Ok((ch, sheet))
    }

    /// The sheets to save: those the rules core changed and the one an
    /// action took ([`Pcs::acting`]), checked.
    fn saved(&self) -> Result<Vec<Loaded<OreSheet>>, AppError> {
        let mut out = Vec::new();
        for (id, ch) in &self.loaded {
            let Some(sheet) = self.sheets.get(id) else {
                continue;
            };
            if ch.sheet != *sheet || self.touched.contains(id) {
                let mut ch = ch.clone();
                ch.sheet = sheet.clone();
                out.push(checked(ch)?);
            }
        }
        Ok(out)
    }
}

/// The fight's player characters, read in the turn.
async fn pcs_of(turn: &mut Turn<'_>, fight: &Fight) -> Result<Pcs, AppError> {
    let guild = turn.caller().guild_id;
    Pcs::load_in(turn.tx(), guild, fight).await
}

/// The running fight of the caller's channel, read in the turn.
async fn running(turn: &mut Turn<'_>) -> Result<(Session, Fight), AppError> {
    let caller = turn.caller().clone();
    let session = encounter::require_running_in(turn.tx(), &caller, KIND, WHAT, START).await?;
    let fight = sessions::load(&session)?;
    Ok((session, fight))
}

/// How an action on the tracker answers.
enum Answer {
    /// A command: this note privately, the posted tracker redrawn.
    Edit(String),
    /// A click: the tracker redrawn in place.
    Update,
    /// A click that posts this message (a called register), the tracker
    /// redrawn after it.
    Posted(crate::app::View),
    /// A new tracker: posted.
    New,
}

/// The outcome that answers with the tracker drawn as saved (`pcs` as they
/// now stand), for the caller to save or open the fight.
fn drawn(turn: &Turn<'_>, fight: &Fight, pcs: &Pcs, answer: Answer) -> Step {
    let (drawn, shown, max_pool) = (fight.clone(), pcs.sheets.clone(), turn.settings.max_pool);
    Step::new(move |s: &Shown| {
        let v = view(s.id, s.version, s.status, &drawn, &shown, max_pool);
        match answer {
            Answer::Edit(note) => Response::edit(note, v),
            Answer::Update => Response::update(v),
            Answer::Posted(m) => Response::message(m).then(Reply::Edit(v)),
            Answer::New => Response::message(v),
        }
    })
}

/// The outcome that saves the fight with `status` and the sheets of `pcs`
/// the action changed ([`Pcs::saved`]), and answers with the tracker drawn
/// as saved.
fn tracker(
    turn: &Turn<'_>,
    session: Session,
    fight: &Fight,
    status: Status,
    pcs: &Pcs,
    answer: Answer,
) -> Result<Step, AppError> {
    let out = drawn(turn, fight, pcs, answer).save(session, fight, status, None);
    Ok(pcs.saved()?.into_iter().fold(out, Step::sheet))
}

/// [`tracker`] for an action that changed no sheet: the fight saved open,
/// its player characters read in the turn.
async fn redraw(
    turn: &mut Turn<'_>,
    session: Session,
    fight: &Fight,
    answer: Answer,
) -> Result<Step, AppError> {
    let pcs = pcs_of(turn, fight).await?;
    tracker(turn, session, fight, Status::Open, &pcs, answer)
}

/// The outcome with the registers [`clear_registers`] closed saved and
/// redrawn.
fn with_cleared(out: Step, cleared: Vec<(Session, VvState, Status)>) -> Step {
    cleared.into_iter().fold(out, |o, (s, state, status)| {
        o.moved(s, &state, status, None)
    })
}

/// Puts an NPC's sheet, changed through its register's buttons, back in
/// its seat, notes `lines` (what the step did) as the NPC's and puts the
/// NPC out if the step incapacitated it (the caller saves the fight).
pub fn npc_moved(
    fight: &mut Fight,
    seat: u32,
    sheet: &OreSheet,
    name: &str,
    lines: &[String],
) -> Result<(), AppError> {
    if let Some(s) = fight.turns.seat_mut(seat) {
        s.data.npc = Some(sheet.clone());
    }
    for l in lines {
        fight.note(format!("{}: {l}", clean(name)));
    }
    fight.settle(seat, sheet)?;
    Ok(())
}

/// Notes a hit on seat `id` (`head`, then each Injury among `events` on
/// its own line) and puts the seat out if `sheet` now incapacitates it.
fn note_hit(
    fight: &mut Fight,
    id: u32,
    head: String,
    events: &[OreEvent],
    sheet: &OreSheet,
) -> Result<(), AppError> {
    let who = name_of(fight, id);
    fight.note(head);
    note_injuries(fight, &who, events, sheet);
    fight.settle(id, sheet)?;
    Ok(())
}

/// The outcome with the channel's running fight moved on after a change
/// to `character`'s sheet outside the tracker (issue 28: a player's own
/// `/vv damage`): when the character is seated there, the hit is noted
/// with `head` as `note_hit` notes it, and the fight saved and redrawn;
/// `out` as it was with no fight here, or the character not in it.
pub async fn seated_moved(
    turn: &mut Turn<'_>,
    out: Step,
    character: i64,
    sheet: &OreSheet,
    head: &str,
    events: &[OreEvent],
) -> Result<Step, AppError> {
    let caller = turn.caller().clone();
    let Some(session) = encounter::running_in(turn.tx(), &caller, KIND).await? else {
        return Ok(out);
    };
    let mut fight: Fight = sessions::load(&session)?;
    let seated = fight
        .turns
        .seats
        .iter()
        .find(|s| s.character == Some(character));
    let Some(id) = seated.map(|s| s.id) else {
        return Ok(out);
    };
    note_hit(&mut fight, id, head.to_string(), events, sheet)?;
    Ok(out.moved(session, &fight, Status::Open, None))
}

/// Seat `id`'s name (empty once it has left).
fn name_of(fight: &Fight, id: u32) -> String {
    fight
        .turns
        .seat(id)
        .map_or_else(String::new, |s| s.name.clone())
}

fn seat_named(fight: &Fight, name: &str) -> Result<u32, AppError> {
    fight.turns.by_name(name).map(|s| s.id).ok_or_else(|| {
        AppError::user(format!(
            "No combatant is named {}: the tracker lists them.",
            name.trim()
        ))
    })
}

/// `/vv-gm combat start`: the Compiler opens a fight in this channel.
pub async fn start(app: &App, caller: &Caller, world: World) -> AppResult {
    let mut turn = Turn::begin(app, caller).await?;
    turn.require_gm(GM, "start a fight")?;
    encounter::refuse_second_in(turn.tx(), caller, KIND, WHAT, END).await?;
    let mut fight = Fight::new(world);
    fight.note("⚔ The Compiler announces combat.");
    let inputs = record::CombatStart { world: Some(world) };
    let entry = Record::new("combat_start", &inputs, &()).on_session();
    let out = drawn(&turn, &fight, &Pcs::default(), Answer::New)
        .start(KIND, &fight, Status::Open, None)
        .log(entry);
    turn.finish(out).await
}

/// `/vv-gm combat join`: the Compiler seats a character (`character:`,
/// anyone's; default their own active one). Players press **Join**.
pub async fn join(app: &App, caller: &Caller, name: Option<&str>) -> AppResult {
    let mut turn = Turn::begin(app, caller).await?;
    let (session, mut fight) = running(&mut turn).await?;
    let out = seat_pc(&mut turn, session, &mut fight, name, |n| {
        Answer::Edit(format!("✅ {n}"))
    })
    .await?;
    turn.finish(out).await
}

/// Seats a player character in `fight` (the caller's active one, or
/// `name`, which a player may name only among their own): [`joined`].
async fn seat_pc(
    turn: &mut Turn<'_>,
    session: Session,
    fight: &mut Fight,
    name: Option<&str>,
    answer: impl FnOnce(&str) -> Answer,
) -> Result<Step, AppError> {
    let ch = turn.character(Pick::new(name, None), Access::Owner).await?;
    let (owner, character) = (Some(ch.row.owner_id), Some(ch.row.id));
    let id = fight
        .turns
        .add(ch.name(), owner, character, Fighter::pc())?;
    joined(turn, session, fight, id, answer).await
}

/// Seat `id` joined `fight`: its Outthink and Initiative rolled when the
/// fight has begun (kept on a player character's sheet), a note logged
/// on the tracker. Gives the outcome that saves and redraws it, answered
/// with `answer` of the note.
async fn joined(
    turn: &mut Turn<'_>,
    session: Session,
    fight: &mut Fight,
    id: u32,
    answer: impl FnOnce(&str) -> Answer,
) -> Result<Step, AppError> {
    let mut pcs = pcs_of(turn, fight).await?;
    if fight.begun() {
        fight.roll_late(id, &mut pcs.sheets, &turn.settings, &mut turn.rng())?;
    }
    let seat = fight
        .turns
        .seat(id)
        .ok_or_else(|| AppError::user("No such combatant."))?;
    let mob = seat.data.npc.as_ref().is_some_and(|n| n.mob_mode);
    let mut note = format!(
        "{} joins the fight{}.",
        seat.shown(),
        if mob { " (mob)" } else { "" }
    );
    if fight.begun() {
        let (o, i) = (seat.data.outthink, seat.data.initiative);
        let (o, i) = (o.unwrap_or(0), i.unwrap_or(0));
        note.push_str(&format!(" Outthink {o}, Initiative {i}."));
    }
    fight.note(note.clone());
    tracker(turn, session, fight, Status::Open, &pcs, answer(&note))
}

/// What `/vv-gm combat add` gives an NPC or mob.
#[derive(Debug, Clone, Default)]
pub struct NpcArgs {
    /// Its name.
    pub name: String,
    /// Wit (Outthink).
    pub wit: i64,
    /// Agility (Initiative, movement).
    pub agility: i64,
    /// Precision (Initiative in cosmOS).
    pub precision: Option<i64>,
    /// Vitality, or a mob's Health.
    pub vitality: i64,
    /// Confidence (not for mobs).
    pub confidence: Option<i64>,
    /// Cyber (not for mobs).
    pub cyber: Option<i64>,
    /// A mob: one Health track and no Fault dice (VV-12).
    pub mob: bool,
    /// Living (0 Vitality waits for the End phase); default: NPCs yes, mobs no.
    pub living: Option<bool>,
    /// Natively digital: wiped at 0 Cyber, and out of the fight (VV-13).
    pub digital: Option<bool>,
    /// The dice of every stat not given (default 0), so any stat the Call
    /// asks for rolls.
    pub others: Option<i64>,
    /// The other stats given by name (Physique, Engineering, …).
    pub more: Vec<(Stat, i64)>,
}

fn npc_sheet(a: &NpcArgs) -> Result<OreSheet, AppError> {
    let ranged = |what: &str, v: i64, lo: i64, hi: i64| -> Result<u32, AppError> {
        u32::try_from(v)
            .ok()
            .filter(|_| (lo..=hi).contains(&v))
            .ok_or_else(|| AppError::user(format!("{what} must be from {lo} to {hi}.")))
    };
    let stat = |what: &str, v: i64| ranged(what, v, 0, MAX_STAT);
    let track = |what: &str, v: i64| ranged(what, v, 1, MAX_TRACK);
    let others = stat("Others", a.others.unwrap_or(0))?;
    let mut stats = Stats::all(others);
    stats.wit = stat("Wit", a.wit)?;
    stats.agility = stat("Agility", a.agility)?;
    stats.precision = stat("Precision", a.precision.unwrap_or(i64::from(others)))?;
    for (s, v) in &a.more {
        stats.set(*s, i64::from(stat(s.name(), *v)?))?;
    }
    let vitality = track(if a.mob { "Health" } else { "Vitality" }, a.vitality)?;
    stats.vitality = vitality;
    let mut sheet = if a.mob {
        if a.confidence.is_some() || a.cyber.is_some() {
            return Err(AppError::user(
                "A mob has a single Health stat: leave out Confidence and Cyber.",
            ));
        }
        OreSheet::mob(stats, vitality)
    } else {
        let default = i64::from(others.max(1));
        stats.confidence = track("Confidence", a.confidence.unwrap_or(default))?;
        stats.cyber = track("Cyber", a.cyber.unwrap_or(default))?;
        OreSheet::new(stats)
    };
    if let Some(l) = a.living {
        sheet.living = l;
    }
    if let Some(d) = a.digital {
        sheet.native_digital = d;
    }
    Ok(sheet)
}

/// `/vv-gm combat add`: the Compiler adds an NPC or a mob with its stats.
pub async fn add(app: &App, caller: &Caller, args: NpcArgs) -> AppResult {
    let mut turn = Turn::begin(app, caller).await?;
    turn.require_gm(GM, "add combatants")?;
    let (session, mut fight) = running(&mut turn).await?;
    let name = super::check_text(app, "name", Some(&args.name))?.unwrap_or_default();
    let id = fight
        .turns
        .add(&name, None, None, Fighter::npc(npc_sheet(&args)?))?;
    let answer = |n: &str| Answer::Edit(format!("✅ {n}"));
    let out = joined(&mut turn, session, &mut fight, id, answer).await?;
    turn.finish(out).await
}

/// `/vv-gm combat remove`: the Compiler takes a combatant out of the fight.
pub async fn remove(app: &App, caller: &Caller, name: &str) -> AppResult {
    let mut turn = Turn::begin(app, caller).await?;
    turn.require_gm(GM, "remove combatants")?;
    let (session, mut fight) = running(&mut turn).await?;
    let id = seat_named(&fight, name)?;
    let seat = fight.remove(id)?;
    let answer = Answer::Edit(format!("✅ {} leaves the fight.", seat.shown()));
    let out = redraw(&mut turn, session, &fight, answer).await?;
    turn.finish(out).await
}

/// `/vv-gm combat damage`: the Compiler deals damage to a combatant (VV-12..
/// VV-14): a Fault die each time (not for mobs), incapacitation at 0
/// (a living creature's waits for the End phase, A-O19).
pub async fn damage(
    app: &App,
    caller: &Caller,
    name: &str,
    track: Damageable,
    amount: i64,
) -> AppResult {
    let amount = super::damage_amount(amount)?;
    let mut turn = Turn::begin(app, caller).await?;
    turn.require_gm(GM, "deal damage in a fight")?;
    let (session, mut fight) = running(&mut turn).await?;
    let id = seat_named(&fight, name)?;
    let mut pcs = pcs_of(&mut turn, &fight).await?;
    let who = name_of(&fight, id);
    let (events, sheet, character) = hit(&turn, &mut fight, &mut pcs, id, track, amount)?;
    let head = text::hit(&who, amount, &sheet, track);
    note_hit(&mut fight, id, head.clone(), &events, &sheet)?;
    let mut note = vec![head];
    note.extend(text::events(&events, &sheet));
    if !sheet.mob_mode {
        note.push(format!("Fault dice: {}.", text::faces(&sheet.fault_dice)));
    }
    let inputs = record::CombatDamage {
        amount,
        combatant: who,
        track: Some(track),
    };
    let entry = Record::new("combat_damage", &inputs, &events)
        .dice(&sheet.fault_dice, super::faces::thrown(&events))
        .character(character)
        .on_session();
    let answer = Answer::Edit(text::join_capped(&note, 1800));
    let mut out = tracker(&turn, session, &fight, Status::Open, &pcs, answer)?.log(entry);
    // Cyber 0 logged them out: the cache dice leave their registers.
    if let Some(c) = character.filter(|_| super::logged_out(&events)) {
        out = super::roll::lost_cache(&mut turn, out, c, &sheet).await?;
    }
    turn.finish(out).await
}

/// Deals the damage to seat `id` (its NPC sheet in the seat, or its
/// player character's in `pcs`): the events, the sheet after and the
/// character's id (none for an NPC).
fn hit(
    turn: &Turn<'_>,
    fight: &mut Fight,
    pcs: &mut Pcs,
    id: u32,
    track: Damageable,
    amount: u32,
) -> Result<(Vec<OreEvent>, OreSheet, Option<i64>), AppError> {
    let mut rng = turn.rng();
    let settings = &turn.settings;
    if let Some(npc) = fight.turns.seat_mut(id).and_then(|s| s.data.npc.as_mut()) {
        let ev = npc.take_damage(settings, track, amount, &mut rng)?;
        return Ok((ev, npc.clone(), None));
    }
    let (ch, sheet) = pcs.acting(id, &name_of(fight, id))?;
    let ev = sheet.take_damage(settings, track, amount, &mut rng)?;
    Ok((ev, sheet.clone(), Some(ch.row.id)))
}

/// `/vv-gm combat end` (or **End combat**): the Compiler ends the fight.
/// Combat ends for every player character (VV-14: Fault dice go in a
/// stable place) and the round's registers are cleared.
pub async fn end(app: &App, caller: &Caller, stable: bool) -> AppResult {
    let mut turn = Turn::begin(app, caller).await?;
    turn.require_gm(GM, "end the fight")?;
    let (session, fight) = running(&mut turn).await?;
    let answer = Answer::Edit("✅ The fight is over.".into());
    let out = finish(&mut turn, session, fight, stable, answer).await?;
    turn.finish(out).await
}

async fn finish(
    turn: &mut Turn<'_>,
    session: Session,
    mut fight: Fight,
    stable: bool,
    answer: Answer,
) -> Result<Step, AppError> {
    let mut pcs = pcs_of(turn, &fight).await?;
    fight.end(stable, &mut pcs.sheets);
    let registers = fight.linked_registers();
    let cleared = clear_registers(turn, &fight, &registers, &mut pcs.sheets).await?;
    let out = tracker(turn, session, &fight, Status::Closed, &pcs, answer)?;
    Ok(with_cleared(out, cleared))
}

/// Logs each Injury among `events` on its own line, which the log never
/// drops (issue 29 item 6).
fn note_injuries(fight: &mut Fight, who: &str, events: &[OreEvent], sheet: &OreSheet) {
    for ev in events {
        if matches!(ev, OreEvent::InjuryFormed { .. }) {
            if let Some(line) = text::event(ev, sheet) {
                fight.note_injury(format!("{}: {line}", clean(who)));
            }
        }
    }
}

/// Refuses an action on a roll out of its turn (issue 29 item 1): when
/// the roll is a seat's register in the fight running in the roll's
/// channel, it acts only on that seat's turn or as its Reaction
/// ([`Fight::register_timing`]). Any other roll is left alone.
pub async fn require_register_turn(tx: &mut Tx, roll: &Session) -> Result<(), AppError> {
    let Some(tracker) =
        storage::sessions::latest_open_in_channel(tx, roll.guild_id, roll.channel_id, KIND, 1)
            .await?
            .into_iter()
            .next()
    else {
        return Ok(());
    };
    let fight: Fight = sessions::load(&tracker)?;
    let linked = fight.linked_registers();
    if let Some(&(seat, _)) = linked.iter().find(|(_, session)| *session == roll.id) {
        fight.register_timing(seat)?;
    }
    Ok(())
}

/// Clears the linked registers of this round (VV-11): each open roll is
/// closed through the rules core (cache dice taken go back into
/// `changed`); gives each with its new state and status, for the outcome
/// to save and redraw.
async fn clear_registers(
    turn: &mut Turn<'_>,
    fight: &Fight,
    registers: &[(u32, i64)],
    changed: &mut Sheets,
) -> Result<Vec<(Session, VvState, Status)>, AppError> {
    let guild = turn.caller().guild_id;
    let mut out = Vec::new();
    for &(seat, sid) in registers {
        let Some(s) = crate::storage::sessions::get(turn.tx(), guild, sid).await? else {
            continue;
        };
        if s.kind != super::KIND || s.status != Status::Open {
            continue;
        }
        let Ok(VvState::Roll(mut state)) = sessions::load::<VvState>(&s) else {
            continue;
        };
        // An NPC's sheet is its seat's (closing takes nothing from it).
        let mut npc = fight.turns.seat(seat).and_then(|s| s.data.npc.clone());
        let Some(sheet) = changed.get_mut(&seat).or(npc.as_mut()) else {
            continue;
        };
        let actor = Actor {
            id: state.roll.owner,
            gm: true,
        };
        // Closing rolls no dice.
        let mut rng = <rand::rngs::StdRng as rand::SeedableRng>::seed_from_u64(0);
        let close = RollAction::Close { actor };
        let Ok((roll, events)) = state.roll.clone().apply(sheet, close, &mut rng) else {
            continue;
        };
        state.roll = roll;
        state.picker = None;
        state.notes = text::events(&events, sheet);
        let status = state.status();
        out.push((s, VvState::Roll(state), status));
    }
    Ok(out)
}

/// Starts a combatant's register on `sheet` (whose it is, its name and
/// who plays it, as [`RollState::roll`] takes them): the Called Stat
/// rolled as a usual Virtual Veil roll, posted with its buttons and
/// linked to the seat (a player character's acts on the character's
/// sheet, a quick-added NPC's on the sheet in its seat). Gives the
/// register, the roll's message and the roll's log entry; an NPC whose
/// call rolls no dice gets no message (nothing to act with).
async fn call_roll(
    turn: &mut Turn<'_>,
    sheet: &mut OreSheet,
    (whose, name, owner): (Whose, &str, Actor),
    stat: Stat,
) -> Result<(Register, Option<crate::app::View>, Record), AppError> {
    let request = RollRequest {
        stat: Some(stat),
        dice: None,
        label: Some("Called Stat".into()),
    };
    let requirement = SetRequirement::default();
    let (state, events) = RollState::roll(turn, sheet, (whose, name, owner), request, requirement)?;
    let character = match whose {
        Whose::Character(id) => Some(id),
        Whose::Seat { .. } => None,
    };
    let roll = &state.roll;
    let (faces, error_dice) = (roll.natural.clone(), roll.error_dice.clone());
    let inputs = record::CalledInputs {
        called: true,
        combatant: name.to_string(),
        pool: super::roll::pool_text(roll),
        stat: Some(stat),
    };
    let entry = Record::new("roll", &inputs, &events)
        .dice(&record::RollDice::of(roll), super::faces::thrown(&events))
        .character(character)
        .on_session();
    if faces.is_empty() && character.is_none() {
        return Ok((Register::Rolled { faces, error_dice }, None, entry));
    }
    // Posted as a usual roll message, its session opened ahead.
    let minutes = Some(turn.guild.session_timeout_minutes);
    let stored = VvState::Roll(state.clone());
    let session = turn.open_session(super::KIND, &stored, minutes).await?;
    let view = super::roll::view(session, 0, Status::Open, &state, Some(&*sheet));
    let register = Register::Linked {
        session,
        faces,
        error_dice,
    };
    Ok((register, Some(view), entry.at_session(session)))
}

/// A click on the tracker.
pub async fn click(app: &App, act: Act, session: Session, click: &Click<'_>) -> AppResult {
    let caller = click.caller;
    let mut fight: Fight = sessions::load(&session)?;
    let button = click.action::<CombatButton>()?;
    let mut turn = Turn::click(app, act, caller).await?;
    let t = &mut turn;
    let out = match button {
        CombatButton::Begin => {
            t.require_gm(GM, "begin the fight")?;
            begin(t, session, &mut fight).await?
        }
        CombatButton::Call => call_stat(t, session, &mut fight, click.values).await?,
        CombatButton::Next => {
            fight.require(Phase::Resolution)?;
            encounter::require_turn(&fight.turns, caller, t.fc, GM)?;
            fight.next_turn()?;
            redraw(t, session, &fight, Answer::Update).await?
        }
        CombatButton::NextRound => {
            t.require_gm(GM, "end the round")?;
            next_round(t, session, &mut fight).await?
        }
        CombatButton::React => react(t, session, &mut fight, click.values).await?,
        CombatButton::End => {
            t.require_gm(GM, "end the fight")?;
            finish(t, session, fight, false, Answer::Update).await?
        }
        CombatButton::Join => seat_pc(t, session, &mut fight, None, |_| Answer::Update).await?,
    };
    turn.finish(out).await
}

/// "Begin": Prediction and Initiative are rolled and kept on the sheets,
/// and round 1 begins.
async fn begin(turn: &mut Turn<'_>, session: Session, fight: &mut Fight) -> Result<Step, AppError> {
    let mut pcs = pcs_of(turn, fight).await?;
    let rolls = fight.begin(&mut pcs.sheets, &turn.settings, &mut turn.rng())?;
    let faces: Vec<(u32, u32)> = rolls.iter().flat_map(super::faces::of_order).collect();
    let inputs = record::CombatStart {
        world: Some(fight.world),
    };
    let outcome = record::Round {
        round: fight.turns.round,
    };
    let entry = Record::new("combat_begin", &inputs, &outcome)
        .dice(&rolls, faces)
        .on_session();
    Ok(tracker(turn, session, fight, Status::Open, &pcs, Answer::Update)?.log(entry))
}

/// The Call phase's stat select: the acting seat's register is rolled
/// (its roll posted) and linked to the seat.
async fn call_stat(
    turn: &mut Turn<'_>,
    session: Session,
    fight: &mut Fight,
    values: &[String],
) -> Result<Step, AppError> {
    fight.require(Phase::Call)?;
    encounter::require_turn(&fight.turns, turn.caller(), turn.fc, GM)?;
    let stat = values
        .first()
        .and_then(|v| Stat::parse(v).ok())
        .ok_or_else(|| AppError::user("Pick one stat to call."))?;
    let seat = fight
        .acting()
        .cloned()
        .ok_or_else(|| AppError::user("No one is calling now."))?;
    let mut pcs = pcs_of(turn, fight).await?;
    let (register, roll_view, entry) = match seat.data.npc.clone() {
        Some(mut npc) => {
            let whose = Whose::Seat {
                tracker: session.id,
                seat: seat.id,
            };
            let gm = Actor {
                id: turn.caller().user_id,
                gm: true,
            };
            let called = call_roll(turn, &mut npc, (whose, &seat.name, gm), stat).await?;
            if let Some(s) = fight.turns.seat_mut(seat.id) {
                s.data.npc = Some(npc);
            }
            called
        }
        None => {
            let (ch, sheet) = pcs.acting(seat.id, &seat.name)?;
            let roller = character_roller(&ch.row, turn.fc);
            call_roll(turn, sheet, roller, stat).await?
        }
    };
    fight.call(stat, register)?;
    let answer = roll_view.map_or(Answer::Update, Answer::Posted);
    Ok(tracker(turn, session, fight, Status::Open, &pcs, answer)?.log(entry))
}

/// "Next round": the End phase for every seat (VV-11, A-O12), the linked
/// registers cleared and redrawn, what happened noted on the tracker.
async fn next_round(
    turn: &mut Turn<'_>,
    session: Session,
    fight: &mut Fight,
) -> Result<Step, AppError> {
    let mut pcs = pcs_of(turn, fight).await?;
    let registers = fight.linked_registers();
    let ends = fight.end_round(&mut pcs.sheets, &turn.settings)?;
    let cleared = clear_registers(turn, fight, &registers, &mut pcs.sheets).await?;
    note_end_phase(fight, &ends, &pcs.sheets);
    let inputs = record::Round {
        round: fight.turns.round.saturating_sub(1),
    };
    let outcome: Vec<record::SeatEnd> = ends.iter().map(record::SeatEnd::of).collect();
    let entry = Record::new("combat_end_round", &inputs, &outcome).on_session();
    let out = tracker(turn, session, fight, Status::Open, &pcs, Answer::Update)?.log(entry);
    Ok(with_cleared(out, cleared))
}

/// Notes what the End phase did to each seat (Injuries apart), and that
/// the next round begins.
fn note_end_phase(fight: &mut Fight, ends: &[EndOfRound], pcs: &Sheets) {
    let mut lines = Vec::new();
    let mut injuries = Vec::new();
    for e in ends {
        let Some(seat) = fight.turns.seat(e.seat) else {
            continue;
        };
        let Some(sheet) = crate::rules::ore::tracker::sheet_of(seat, pcs).cloned() else {
            continue;
        };
        let said: Vec<String> = e
            .events
            .iter()
            .filter(|ev| !matches!(ev, OreEvent::InjuryFormed { .. }))
            .filter_map(|ev| text::event(ev, &sheet))
            .filter(|l| !l.is_empty())
            .collect();
        if !said.is_empty() {
            lines.push(format!("{}: {}", seat.shown(), said.join(" ")));
        }
        injuries.push((seat.name.clone(), e.events.clone(), sheet));
    }
    for (name, events, sheet) in injuries {
        note_injuries(fight, &name, &events, &sheet);
    }
    for l in lines {
        fight.note(l);
    }
    fight.note(format!(
        "⏱ End phase done: round {} begins.",
        fight.turns.round
    ));
}

/// The reaction select: a seat reacts (its player or the Compiler).
async fn react(
    turn: &mut Turn<'_>,
    session: Session,
    fight: &mut Fight,
    values: &[String],
) -> Result<Step, AppError> {
    let id: u32 = values
        .first()
        .and_then(|v| v.parse().ok())
        .ok_or_else(|| AppError::user("Pick who reacts."))?;
    let seat = fight
        .turns
        .seat(id)
        .ok_or_else(|| AppError::user("That combatant is no longer in the fight."))?;
    if !turn.fc && seat.owner != Some(turn.caller().user_id) {
        return Err(AppError::user(format!(
            "Only {}'s player (or the {GM}) can react for them.",
            seat.shown()
        )));
    }
    fight.react(id)?;
    redraw(turn, session, fight, Answer::Update).await
}

/// The tracker's message as it stands (a stale click, a redraw).
pub async fn render(app: &App, session: &Session) -> Result<crate::app::View, AppError> {
    let fight: Fight = sessions::load(session)?;
    let mut tx = app.db.read().await?;
    let settings = super::settings_of(&mut tx, session).await?;
    let pcs = Pcs::load_in(&mut tx, session.guild_id, &fight)
        .await?
        .sheets;
    drop(tx);
    Ok(view(
        session.id,
        session.version,
        session.status,
        &fight,
        &pcs,
        settings.max_pool,
    ))
}

/// `/vv combat show`: the fight's tracker posted again at the bottom of
/// the channel ([`encounter::show`]).
pub async fn show(app: &crate::app::App, caller: &crate::app::Caller) -> crate::app::AppResult {
    encounter::show(app, caller, KIND, WHAT, START).await
}
