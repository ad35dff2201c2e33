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

use std::collections::BTreeMap;

use serde_json::json;

pub use super::combat_buttons::KIND;

use super::combat_buttons::CombatButton;
use super::combat_view::view;
use super::roll::{settle_overflow, RollState, Whose};
use super::{by_id, load_settings, text, timeout, VvState, GM, HINT, SYSTEM};
use crate::app::characters::{self, Loaded};
use crate::app::component::Click;
use crate::app::{log, rights, sessions, Act, App, AppError, AppResult, Caller, Reply, Response};
use crate::rules::ore::roll::{RollPhase, RollRequest};
use crate::rules::ore::sets::SetRequirement;
use crate::rules::ore::sheet::{Damageable, OreSheet, Stat, Stats, World};
use crate::rules::ore::tracker::{EndOfRound, Fight, Fighter, Phase, Register, Sheets};
use crate::rules::ore::{OreEvent, OreRoll, OreSettings, RollAction};
use crate::rules::Actor;
use crate::storage::sessions::{Session, Status};
use crate::storage::{self, Tx};
use crate::systems::table::encounter;

const WHAT: &str = "fight";
const START: &str = "`/vv combat start`";
const END: &str = "`/vv combat end`";
/// The highest stat an NPC may be given.
pub const MAX_STAT: i64 = 30;
/// The most Vitality (or Health) an NPC may be given.
pub const MAX_TRACK: i64 = 999;

/// The player characters of a fight, loaded by seat id.
type Pcs = BTreeMap<u32, Loaded<OreSheet>>;

async fn load_pcs(act: &mut Act, fight: &Fight) -> Result<Pcs, AppError> {
    let guild = act.caller().guild_id;
    let mut out = Pcs::new();
    for seat in &fight.turns.seats {
        if let Some(c) = seat.character {
            if let Ok(ch) = by_id(act, guild, c).await {
                out.insert(seat.id, ch);
            }
        }
    }
    Ok(out)
}

fn sheets(pcs: &Pcs) -> Sheets {
    pcs.iter().map(|(k, v)| (*k, v.sheet.clone())).collect()
}

/// Saves the sheets the rules core changed.
async fn store(act: &mut Act, pcs: &mut Pcs, changed: Sheets) -> Result<(), AppError> {
    for (id, sheet) in changed {
        if let Some(ch) = pcs.get_mut(&id) {
            if ch.sheet != sheet {
                ch.sheet = sheet;
                super::sheet::save(act, ch).await?;
            }
        }
    }
    Ok(())
}

/// The running fight of the caller's channel.
async fn running(act: &mut Act) -> Result<(Session, Fight), AppError> {
    let session = encounter::require_running(act, KIND, WHAT, START).await?;
    let fight = sessions::load(&session)?;
    Ok((session, fight))
}

/// Saves the fight and draws it.
async fn save(
    act: &mut Act,
    session: &Session,
    fight: &Fight,
    status: Status,
    pcs: &Pcs,
    settings: &OreSettings,
) -> Result<crate::app::View, AppError> {
    let version = sessions::save(act, session, fight, status, None).await?;
    Ok(view(
        session.id,
        version,
        status,
        fight,
        &sheets(pcs),
        settings.max_pool,
    ))
}

/// Puts an NPC's sheet, changed through its register's buttons, back in
/// its seat, logs `lines` (what the step did) as the NPC's, puts the NPC
/// out if the step incapacitated it, saves the fight and draws it.
pub async fn save_npc(
    act: &mut Act,
    session: &Session,
    fight: &mut Fight,
    seat: u32,
    sheet: &OreSheet,
    name: &str,
    lines: &[String],
) -> Result<crate::app::View, AppError> {
    if let Some(s) = fight.turns.seat_mut(seat) {
        s.data.npc = Some(sheet.clone());
    }
    for l in lines {
        fight.note(format!("{name}: {l}"));
    }
    fight.settle(seat, sheet)?;
    let guild = act.caller().guild_id;
    let settings = load_settings(act, guild).await?;
    let pcs = load_pcs(act, fight).await?;
    save(act, session, fight, Status::Open, &pcs, &settings).await
}

/// The channel's running fight moved on after a change to `character`'s
/// sheet outside the tracker (issue 28: a player's own `/vv damage`): when
/// the character is seated there, the fight notes `head` and the Injuries
/// among `events` and puts the seat out if the sheet now incapacitates
/// it; with no fight here, or the character not in it, `None`. Nothing is
/// saved: the caller saves the fight ([`seated_moved`] for an outcome).
async fn seated(
    tx: &mut Tx,
    caller: &Caller,
    character: i64,
    sheet: &OreSheet,
    head: &str,
    events: &[OreEvent],
) -> Result<Option<(Session, Fight)>, AppError> {
    let Some(session) = encounter::running_in(tx, caller, KIND).await? else {
        return Ok(None);
    };
    let mut fight: Fight = sessions::load(&session)?;
    let Some((id, who)) = fight
        .turns
        .seats
        .iter()
        .find(|s| s.character == Some(character))
        .map(|s| (s.id, s.name.clone()))
    else {
        return Ok(None);
    };
    fight.note(head.to_string());
    note_injuries(&mut fight, &who, events, sheet);
    fight.settle(id, sheet)?;
    Ok(Some((session, fight)))
}

/// The outcome with the running fight [`seated`] moved on saved and
/// redrawn (unchanged when `character` sits in no fight here).
pub async fn seated_moved(
    turn: &mut super::context::Turn<'_>,
    out: super::context::Outcome,
    character: i64,
    sheet: &OreSheet,
    head: &str,
    events: &[OreEvent],
) -> Result<super::context::Outcome, AppError> {
    let caller = turn.caller().clone();
    Ok(
        match seated(turn.tx(), &caller, character, sheet, head, events).await? {
            Some((session, fight)) => out.moved(session, &fight, Status::Open, None),
            None => out,
        },
    )
}

fn seat_named(fight: &Fight, name: &str) -> Result<u32, AppError> {
    fight.turns.by_name(name).map(|s| s.id).ok_or_else(|| {
        AppError::user(format!(
            "No combatant is named {}: the tracker lists them.",
            name.trim()
        ))
    })
}

/// `/vv combat start`: the Compiler opens a fight in this channel.
pub async fn start(app: &App, caller: &Caller, world: World) -> AppResult {
    let mut act = Act::begin(app, caller).await?;
    rights::require_gm(&mut act, caller, GM, "start a fight").await?;
    encounter::refuse_second(&mut act, KIND, WHAT, END).await?;
    let settings = load_settings(&mut act, caller.guild_id).await?;
    let mut fight = Fight::new(world);
    fight.note("⚔ The Compiler announces combat.");
    let id = sessions::create(&mut act, caller, KIND, &fight, None).await?;
    log::record(
        &mut act,
        caller,
        log::What {
            system: SYSTEM,
            action: "combat_start",
            session: Some(id),
            character: None,
        },
        &json!({ "world": world }),
        &json!(null),
        &json!(null),
    )
    .await?;
    act.commit().await?;
    Ok(Response::message(view(
        id,
        0,
        Status::Open,
        &fight,
        &Sheets::new(),
        settings.max_pool,
    )))
}

/// Rolls Outthink and Initiative for a seat that joins a fight already
/// begun, and records them on a player character's sheet.
async fn roll_late(
    app: &App,
    fight: &mut Fight,
    id: u32,
    pcs: &mut Pcs,
    settings: &OreSettings,
) -> Result<Option<String>, AppError> {
    if !fight.begun() {
        return Ok(None);
    }
    let mut rng = app.rng.fork();
    fight.roll_late(id, &sheets(pcs), settings, &mut rng)?;
    let Some(seat) = fight.turns.seat(id) else {
        return Ok(None);
    };
    let (o, i) = (seat.data.outthink, seat.data.initiative);
    if let Some(ch) = pcs.get_mut(&id) {
        ch.sheet.combat.outthink = o;
        ch.sheet.combat.initiative = i;
    }
    Ok(Some(format!(
        " Outthink {}, Initiative {}.",
        o.unwrap_or(0),
        i.unwrap_or(0)
    )))
}

/// `/vv combat join`: a player joins with their active character (or
/// `character:`); the Compiler may seat anyone's.
pub async fn join(app: &App, caller: &Caller, name: Option<&str>) -> AppResult {
    let mut act = Act::begin(app, caller).await?;
    let (session, mut fight) = running(&mut act).await?;
    let fc = act.is_fc().await?;
    let ch: Loaded<OreSheet> = characters::resolve(
        &mut act,
        caller,
        fc,
        SYSTEM,
        characters::Pick::new(name, None),
        characters::Access::Owner,
        HINT,
    )
    .await?;
    let settings = load_settings(&mut act, caller.guild_id).await?;
    let who = ch.name().to_string();
    let id = fight
        .turns
        .add(&who, Some(ch.row.owner_id), Some(ch.row.id), Fighter::pc())?;
    let mut pcs = load_pcs(&mut act, &fight).await?;
    let rolled = roll_late(app, &mut fight, id, &mut pcs, &settings).await?;
    if let Some(ch) = pcs.get_mut(&id) {
        if rolled.is_some() {
            super::sheet::save(&mut act, ch).await?;
        }
    }
    let note = format!(
        "{who} joins the fight.{}",
        rolled.clone().unwrap_or_default()
    );
    fight.note(note.clone());
    let v = save(&mut act, &session, &fight, Status::Open, &pcs, &settings).await?;
    act.commit().await?;
    Ok(Response::edit(format!("✅ {note}"), v))
}

/// What `/vv combat add` gives an NPC or mob.
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
    let stat = |what: &str, v: i64| -> Result<u32, AppError> {
        u32::try_from(v)
            .ok()
            .filter(|v| i64::from(*v) <= MAX_STAT)
            .ok_or_else(|| AppError::user(format!("{what} must be from 0 to {MAX_STAT}.")))
    };
    let track = |what: &str, v: i64| -> Result<u32, AppError> {
        u32::try_from(v)
            .ok()
            .filter(|v| (1..=MAX_TRACK).contains(&i64::from(*v)))
            .ok_or_else(|| AppError::user(format!("{what} must be from 1 to {MAX_TRACK}.")))
    };
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

/// `/vv combat add`: the Compiler adds an NPC or a mob with its stats.
pub async fn add(app: &App, caller: &Caller, args: NpcArgs) -> AppResult {
    let mut act = Act::begin(app, caller).await?;
    rights::require_gm(&mut act, caller, GM, "add combatants").await?;
    let (session, mut fight) = running(&mut act).await?;
    let name = super::check_text(app, "name", Some(&args.name))?.unwrap_or_default();
    let sheet = npc_sheet(&args)?;
    let settings = load_settings(&mut act, caller.guild_id).await?;
    let id = fight.turns.add(&name, None, None, Fighter::npc(sheet))?;
    let mut pcs = load_pcs(&mut act, &fight).await?;
    let rolled = roll_late(app, &mut fight, id, &mut pcs, &settings).await?;
    let note = format!(
        "{name} joins the fight{}.{}",
        if args.mob { " (mob)" } else { "" },
        rolled.unwrap_or_default()
    );
    fight.note(note.clone());
    let v = save(&mut act, &session, &fight, Status::Open, &pcs, &settings).await?;
    act.commit().await?;
    Ok(Response::edit(format!("✅ {note}"), v))
}

/// `/vv combat remove`: the Compiler takes a combatant out of the fight.
pub async fn remove(app: &App, caller: &Caller, name: &str) -> AppResult {
    let mut act = Act::begin(app, caller).await?;
    rights::require_gm(&mut act, caller, GM, "remove combatants").await?;
    let (session, mut fight) = running(&mut act).await?;
    let id = seat_named(&fight, name)?;
    let seat = fight.remove(id)?;
    let settings = load_settings(&mut act, caller.guild_id).await?;
    let pcs = load_pcs(&mut act, &fight).await?;
    let v = save(&mut act, &session, &fight, Status::Open, &pcs, &settings).await?;
    act.commit().await?;
    Ok(Response::edit(
        format!("✅ {} leaves the fight.", seat.name),
        v,
    ))
}

/// `/vv combat damage`: the Compiler deals damage to a combatant (VV-12..
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
    let mut act = Act::begin(app, caller).await?;
    rights::require_gm(&mut act, caller, GM, "deal damage in a fight").await?;
    let (session, mut fight) = running(&mut act).await?;
    let id = seat_named(&fight, name)?;
    let settings = load_settings(&mut act, caller.guild_id).await?;
    let mut pcs = load_pcs(&mut act, &fight).await?;
    let mut rng = app.rng.fork();
    let who = fight
        .turns
        .seat(id)
        .map(|s| s.name.clone())
        .unwrap_or_default();
    let mut registers = Vec::new();
    let (events, sheet, character) =
        match fight.turns.seat_mut(id).and_then(|s| s.data.npc.as_mut()) {
            Some(npc) => {
                let ev = npc.take_damage(&settings, track, amount, &mut rng)?;
                (ev, npc.clone(), None)
            }
            None => {
                let ch = pcs
                    .get_mut(&id)
                    .ok_or_else(|| AppError::user(format!("{who}'s sheet no longer exists.")))?;
                let ev = ch.sheet.take_damage(&settings, track, amount, &mut rng)?;
                super::sheet::save(&mut act, ch).await?;
                // Cyber 0 logged them out: the cache dice leave their registers.
                if super::logged_out(&ev) {
                    registers =
                        super::roll::drop_lost_cache(&mut act, ch.row.id, &ch.sheet).await?;
                }
                (ev, ch.sheet.clone(), Some(ch.row.id))
            }
        };
    let mut lines = text::events(&events, &sheet);
    if !sheet.mob_mode {
        lines.push(format!("Fault dice: {}.", text::faces(&sheet.fault_dice)));
    }
    let head = format!(
        "💥 {who} takes {amount} {} damage.",
        text::track_name(&sheet, track)
    );
    fight.note(head.clone());
    note_injuries(&mut fight, &who, &events, &sheet);
    fight.settle(id, &sheet)?;
    log::record_rolled(
        &mut act,
        caller,
        log::What {
            system: SYSTEM,
            action: "combat_damage",
            session: Some(session.id),
            character,
        },
        &json!({ "combatant": who, "track": track, "amount": amount }),
        &sheet.fault_dice,
        &events,
        &super::faces::thrown(&events),
    )
    .await?;
    let v = save(&mut act, &session, &fight, Status::Open, &pcs, &settings).await?;
    act.commit().await?;
    let mut note = vec![head];
    note.extend(lines);
    let mut r = Response::edit(text::join_capped(&note, 1800), v);
    r.followups.extend(registers.into_iter().map(Reply::Edit));
    Ok(r)
}

/// `/vv combat end` (or **End combat**): the Compiler ends the fight.
/// Combat ends for every player character (VV-14: Fault dice go in a
/// stable place) and the round's registers are cleared.
pub async fn end(app: &App, caller: &Caller, stable: bool) -> AppResult {
    let mut act = Act::begin(app, caller).await?;
    rights::require_gm(&mut act, caller, GM, "end the fight").await?;
    let (session, fight) = running(&mut act).await?;
    let (v, edits) = finish(&mut act, &session, fight, stable).await?;
    act.commit().await?;
    let mut r = Response::edit("✅ The fight is over.", v);
    r.followups.extend(edits.into_iter().map(Reply::Edit));
    Ok(r)
}

async fn finish(
    act: &mut Act,
    session: &Session,
    mut fight: Fight,
    stable: bool,
) -> Result<(crate::app::View, Vec<crate::app::View>), AppError> {
    let guild = act.caller().guild_id;
    let settings = load_settings(act, guild).await?;
    let mut pcs = load_pcs(act, &fight).await?;
    let mut changed = sheets(&pcs);
    for sheet in changed.values_mut() {
        sheet.end_combat(stable);
    }
    for seat in fight.turns.seats.iter_mut() {
        if let Some(npc) = seat.data.npc.as_mut() {
            npc.end_combat(stable);
        }
    }
    let edits = clear_registers(act, &fight, &linked(&fight), &mut changed).await?;
    store(act, &mut pcs, changed).await?;
    fight.note(format!(
        "🏁 Combat ends{}.",
        if stable { " in a stable place" } else { "" }
    ));
    let v = save(act, session, &fight, Status::Closed, &pcs, &settings).await?;
    Ok((v, edits))
}

/// The rolls linked to the seats this round: (seat, roll session).
fn linked(fight: &Fight) -> Vec<(u32, i64)> {
    fight
        .turns
        .seats
        .iter()
        .filter_map(|s| match s.data.register {
            Some(Register::Linked { session, .. }) => Some((s.id, session)),
            _ => None,
        })
        .collect()
}

/// Logs each Injury among `events` on its own line, which the log never
/// drops (issue 29 item 6).
fn note_injuries(fight: &mut Fight, who: &str, events: &[OreEvent], sheet: &OreSheet) {
    for ev in events {
        if matches!(ev, OreEvent::InjuryFormed { .. }) {
            if let Some(line) = text::event(ev, sheet) {
                fight.note_injury(format!("{who}: {line}"));
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
    let seat = fight.turns.seats.iter().find(
        |s| matches!(s.data.register, Some(Register::Linked { session, .. }) if session == roll.id),
    );
    match seat {
        Some(seat) => {
            fight.register_timing(seat.id)?;
            Ok(())
        }
        None => Ok(()),
    }
}

/// Clears the linked registers of this round (VV-11): each open roll is
/// closed through the rules core (cache dice taken go back) and redrawn.
async fn clear_registers(
    act: &mut Act,
    fight: &Fight,
    registers: &[(u32, i64)],
    changed: &mut Sheets,
) -> Result<Vec<crate::app::View>, AppError> {
    let guild = act.caller().guild_id;
    let mut views = Vec::new();
    for &(seat, sid) in registers {
        let Some(s) = crate::storage::sessions::get(act, guild, sid).await? else {
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
        let (roll, events) =
            match state
                .roll
                .clone()
                .apply(sheet, RollAction::Close { actor }, &mut rng)
            {
                Ok(x) => x,
                Err(_) => continue,
            };
        state.roll = roll;
        state.picker = None;
        state.notes = text::events(&events, sheet);
        let status = if state.roll.phase == RollPhase::Closed {
            Status::Closed
        } else {
            Status::Open
        };
        let version = sessions::save(act, &s, &VvState::Roll(state.clone()), status, None).await?;
        let mut v = super::roll::view(sid, version, status, &state, Some(sheet));
        // A cleared register has no buttons left to name its session.
        v.shows = Some(sid);
        views.push(v);
    }
    Ok(views)
}

/// Whose register [`call_roll`] starts: the sheet, where it lives, its
/// name and who plays it.
struct Calling<'a> {
    sheet: &'a mut OreSheet,
    whose: Whose,
    name: &'a str,
    owner: Actor,
}

/// Starts a combatant's register: the Called Stat rolled as a usual
/// Virtual Veil roll, posted with its buttons and linked to the seat (a
/// player character's acts on the character's sheet, a quick-added NPC's
/// on the sheet in its seat). Gives the register and the roll's message;
/// an NPC whose call rolls no dice gets no message (nothing to act with).
async fn call_roll(
    app: &App,
    act: &mut Act,
    tracker: i64,
    who: Calling<'_>,
    stat: Stat,
) -> Result<(Register, Option<crate::app::View>), AppError> {
    let caller = act.caller().clone();
    let mut settings = load_settings(act, caller.guild_id).await?;
    let guild = crate::app::settings::guild(act, caller.guild_id).await?;
    settings.max_pool = settings.max_pool.min(guild.max_dice_per_roll.max(1));
    let notes = settle_overflow(who.sheet, &settings);
    let mut rng = app.rng.fork();
    let (roll, events) = OreRoll::start(
        who.sheet,
        &settings,
        who.owner,
        RollRequest {
            stat: Some(stat),
            dice: None,
            label: Some("Called Stat".into()),
        },
        &mut rng,
    )?;
    who.sheet.combat.called_stat = Some(stat);
    let character = match who.whose {
        Whose::Character(id) => Some(id),
        Whose::Seat { .. } => None,
    };
    let faces = roll.natural.clone();
    let error_dice = roll.error_dice.clone();
    let inputs = json!({ "stat": stat, "called": true, "combatant": who.name,
                         "pool": super::roll::pool_text(&roll) });
    let result = json!({ "faces": faces, "error_dice": error_dice });
    let posted = if faces.is_empty() && character.is_none() {
        None
    } else {
        Some(post_register(act, &caller, &who, roll, notes).await?)
    };
    log::record_rolled(
        act,
        &caller,
        log::What {
            system: SYSTEM,
            action: "roll",
            session: Some(posted.as_ref().map_or(tracker, |p| p.0)),
            character,
        },
        &inputs,
        &result,
        &events,
        &super::faces::thrown(&events),
    )
    .await?;
    Ok(match posted {
        Some((session, view)) => (
            Register::Linked {
                session,
                faces,
                error_dice,
            },
            Some(view),
        ),
        None => (Register::Rolled { faces, error_dice }, None),
    })
}

/// Posts a called register as a usual roll message (its session and view).
async fn post_register(
    act: &mut Act,
    caller: &Caller,
    who: &Calling<'_>,
    roll: OreRoll,
    notes: Vec<String>,
) -> Result<(i64, crate::app::View), AppError> {
    let requirement = SetRequirement::default();
    let state = RollState {
        whose: who.whose,
        name: who.name.to_string(),
        chance: text::chance(roll.pool, &requirement),
        roll,
        requirement,
        picker: None,
        page: 0,
        notes,
    };
    let minutes = timeout(act, caller.guild_id).await?;
    let id = sessions::create(
        act,
        caller,
        super::KIND,
        &VvState::Roll(state.clone()),
        Some(minutes),
    )
    .await?;
    let view = super::roll::view(id, 0, Status::Open, &state, Some(&*who.sheet));
    Ok((id, view))
}

/// What every click on the tracker is decided with.
struct Clicked<'a> {
    app: &'a App,
    session: &'a Session,
    caller: &'a Caller,
    /// The clicker is the Compiler.
    fc: bool,
    settings: OreSettings,
}

impl Clicked<'_> {
    /// Refuses a player what only the Compiler does.
    fn gm_only(&self, what: &str) -> Result<(), AppError> {
        if self.fc {
            Ok(())
        } else {
            Err(AppError::user(format!("Only the {GM} can {what}.")))
        }
    }

    /// Saves the fight and redraws the tracker.
    async fn redraw(
        &self,
        act: &mut Act,
        fight: &Fight,
        pcs: &Pcs,
    ) -> Result<crate::app::View, AppError> {
        save(act, self.session, fight, Status::Open, pcs, &self.settings).await
    }
}

/// A click on the tracker.
pub async fn click(app: &App, mut act: Act, session: Session, click: &Click<'_>) -> AppResult {
    let caller = click.caller;
    let mut fight: Fight = sessions::load(&session)?;
    let button = click.action::<CombatButton>()?;
    let fc = act.is_fc().await?;
    let settings = load_settings(&mut act, caller.guild_id).await?;
    let cx = Clicked {
        app,
        session: &session,
        caller,
        fc,
        settings,
    };
    let response = match button {
        CombatButton::Begin => {
            cx.gm_only("begin the fight")?;
            begin(&cx, &mut act, &mut fight).await?
        }
        CombatButton::Call => call_stat(&cx, &mut act, &mut fight, click.values).await?,
        CombatButton::Next => {
            if fight.phase != Phase::Resolution {
                return Err(AppError::user("Turns are taken in the Resolution phase."));
            }
            encounter::require_turn(&fight.turns, caller, fc, GM)?;
            fight.next_turn()?;
            let pcs = load_pcs(&mut act, &fight).await?;
            Response::update(cx.redraw(&mut act, &fight, &pcs).await?)
        }
        CombatButton::NextRound => {
            cx.gm_only("end the round")?;
            next_round(&cx, &mut act, &mut fight).await?
        }
        CombatButton::React => react(&cx, &mut act, &mut fight, click.values).await?,
        CombatButton::End => {
            cx.gm_only("end the fight")?;
            let (v, edits) = finish(&mut act, &session, fight, false).await?;
            let mut r = Response::update(v);
            r.followups.extend(edits.into_iter().map(Reply::Edit));
            r
        }
    };
    act.commit().await?;
    Ok(response)
}

/// "Begin": Prediction and Initiative are rolled and kept on the sheets,
/// and round 1 begins.
async fn begin(cx: &Clicked<'_>, act: &mut Act, fight: &mut Fight) -> Result<Response, AppError> {
    let mut pcs = load_pcs(act, fight).await?;
    let mut rng = cx.app.rng.fork();
    let rolls = fight.begin(&sheets(&pcs), &cx.settings, &mut rng)?;
    for (id, ch) in pcs.iter_mut() {
        if let Some(seat) = fight.turns.seat(*id) {
            ch.sheet.combat.outthink = seat.data.outthink;
            ch.sheet.combat.initiative = seat.data.initiative;
            super::sheet::save(act, ch).await?;
        }
    }
    let faces: Vec<(u32, u32)> = rolls.iter().flat_map(super::faces::of_order).collect();
    log::record_rolled(
        act,
        cx.caller,
        log::What {
            system: SYSTEM,
            action: "combat_begin",
            session: Some(cx.session.id),
            character: None,
        },
        &json!({ "world": fight.world }),
        &rolls,
        &json!({ "round": fight.turns.round }),
        &faces,
    )
    .await?;
    Ok(Response::update(cx.redraw(act, fight, &pcs).await?))
}

/// The Call phase's stat select: the acting seat's register is rolled
/// (its roll posted) and linked to the seat.
async fn call_stat(
    cx: &Clicked<'_>,
    act: &mut Act,
    fight: &mut Fight,
    values: &[String],
) -> Result<Response, AppError> {
    if fight.phase != Phase::Call {
        return Err(AppError::user("Stats are called in the Call phase only."));
    }
    encounter::require_turn(&fight.turns, cx.caller, cx.fc, GM)?;
    let stat = values
        .first()
        .and_then(|v| Stat::parse(v).ok())
        .ok_or_else(|| AppError::user("Pick one stat to call."))?;
    let seat = fight
        .acting()
        .cloned()
        .ok_or_else(|| AppError::user("No one is calling now."))?;
    let mut pcs = load_pcs(act, fight).await?;
    let (register, roll_view) = match seat.data.npc.clone() {
        Some(mut npc) => {
            let who = Calling {
                sheet: &mut npc,
                whose: Whose::Seat {
                    tracker: cx.session.id,
                    seat: seat.id,
                },
                name: &seat.name,
                owner: Actor {
                    id: cx.caller.user_id,
                    gm: true,
                },
            };
            let called = call_roll(cx.app, act, cx.session.id, who, stat).await?;
            if let Some(s) = fight.turns.seat_mut(seat.id) {
                s.data.npc = Some(npc);
            }
            called
        }
        None => {
            let ch = pcs.get_mut(&seat.id).ok_or_else(|| {
                AppError::user(format!("{}'s sheet no longer exists.", seat.name))
            })?;
            let name = ch.name().to_string();
            let who = Calling {
                whose: Whose::Character(ch.row.id),
                owner: Actor {
                    id: ch.row.owner_id,
                    gm: cx.fc,
                },
                sheet: &mut ch.sheet,
                name: &name,
            };
            let called = call_roll(cx.app, act, cx.session.id, who, stat).await?;
            super::sheet::save(act, ch).await?;
            called
        }
    };
    fight.call(stat, register)?;
    let v = cx.redraw(act, fight, &pcs).await?;
    Ok(match roll_view {
        Some(r) => Response::message(r).then(Reply::Edit(v)),
        None => Response::update(v),
    })
}

/// "Next round": the End phase for every seat (VV-11, A-O12), the linked
/// registers cleared and redrawn, what happened noted on the tracker.
async fn next_round(
    cx: &Clicked<'_>,
    act: &mut Act,
    fight: &mut Fight,
) -> Result<Response, AppError> {
    let mut pcs = load_pcs(act, fight).await?;
    let mut changed = sheets(&pcs);
    let registers = linked(fight);
    let ends = fight.end_round(&mut changed, &cx.settings)?;
    let edits = clear_registers(act, fight, &registers, &mut changed).await?;
    store(act, &mut pcs, changed).await?;
    note_end_phase(fight, &ends, &sheets(&pcs));
    log::record(
        act,
        cx.caller,
        log::What {
            system: SYSTEM,
            action: "combat_end_round",
            session: Some(cx.session.id),
            character: None,
        },
        &json!({ "round": fight.turns.round.saturating_sub(1) }),
        &json!(null),
        &json!(ends
            .iter()
            .map(|e| json!({"seat": e.seat, "events": e.events, "out": e.out}))
            .collect::<Vec<_>>()),
    )
    .await?;
    let mut r = Response::update(cx.redraw(act, fight, &pcs).await?);
    r.followups.extend(edits.into_iter().map(Reply::Edit));
    Ok(r)
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
            lines.push(format!("{}: {}", seat.name, said.join(" ")));
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
    cx: &Clicked<'_>,
    act: &mut Act,
    fight: &mut Fight,
    values: &[String],
) -> Result<Response, AppError> {
    let id: u32 = values
        .first()
        .and_then(|v| v.parse().ok())
        .ok_or_else(|| AppError::user("Pick who reacts."))?;
    let seat = fight
        .turns
        .seat(id)
        .ok_or_else(|| AppError::user("That combatant is no longer in the fight."))?;
    if !cx.fc && seat.owner != Some(cx.caller.user_id) {
        return Err(AppError::user(format!(
            "Only {}'s player (or the {GM}) can react for them.",
            seat.name
        )));
    }
    fight.react(id)?;
    let pcs = load_pcs(act, fight).await?;
    Ok(Response::update(cx.redraw(act, fight, &pcs).await?))
}

/// The tracker's message as it stands (a stale click, a redraw).
pub async fn render(app: &App, session: &Session) -> Result<crate::app::View, AppError> {
    let fight: Fight = sessions::load(session)?;
    let mut tx = app.db.read().await?;
    let settings = load_settings(&mut tx, session.guild_id).await?;
    let mut pcs = Sheets::new();
    for seat in &fight.turns.seats {
        if let Some(c) = seat.character {
            if let Ok(ch) = by_id(&mut tx, session.guild_id, c).await {
                pcs.insert(seat.id, ch.sheet);
            }
        }
    }
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
