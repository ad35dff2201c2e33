//! Veracity's combat tracker at the table (issue 15, spec §3.6): one running
//! fight per channel, a session of its own kind (`vrc`) with no expiry whose
//! state is the pure [`Fight`]. The referee starts it with the party leader,
//! seats NPCs and marks who the enemy can see; players join with their
//! characters (the tracker's **Join the fight**); the leader's Light save
//! sets initiative; each combatant spends its AP on its turn (the tracker's
//! buttons, the referee's `/vr-gm combat act`) and may flee with a Flesh
//! save (**Flee**, or `/vr save fight:true` with a modifier); damage taken while a
//! fight runs goes to Wounds on the surprise turn, to the immobilised and the
//! unsuspecting. A command that changes the fight answers with a private note
//! and redraws the posted tracker; a button on it updates it in place.

use super::combat_view;
use super::context::{Outcome, Turn};
use super::render;
use super::target;
use super::{GM, SYSTEM};
use crate::app::characters::{self, Access, Loaded, Pick};
use crate::app::component::Click;
use crate::app::pipeline::Record;
use crate::app::view::count;
use crate::app::{sessions, Act, App, AppError, AppResult, Caller, Reply, Response, View};
use crate::rules::turns::Seat;
use crate::rules::veracity::initiative::{flee_combat, roll_initiative, ApAction, Side};
use crate::rules::veracity::save::{FacetBonus, SaveResult};
use crate::rules::veracity::stress::{DamageConditions, DamageMode};
pub use crate::rules::veracity::tracker::Marks;
use crate::rules::veracity::tracker::{side_name, Fight, Fighter, Gone};
use crate::rules::veracity::{Action, Amount, Event, InventoryKind, Sheet, VeracitySettings};
use crate::rules::RuleError;
use crate::storage::sessions::{Session, Status};
use crate::storage::{self};
use crate::systems::table::encounter;
use rand::rngs::StdRng;
use InventoryKind::{Flesh, Light};

use super::combat_buttons::CombatButton;
pub use super::combat_buttons::KIND;
use super::combat_redraw::sync;
use super::combat_view::clean;

const WHAT: &str = "fight";
const START: &str = "`/vr-gm combat start`";
const END: &str = "**End the fight** behind the tracker's ⚙ (`/vr combat show` posts it)";

/// An action a combatant spends AP on, as the table names it (VR-21).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Move {
    /// Make an attack: 4 AP.
    Attack,
    /// Reveal a Secret: 4 AP.
    Reveal,
    /// Pick something up: 4 AP.
    PickUp,
    /// Drop something: 4 AP.
    Drop,
    /// Fall prone: 2 AP.
    Fall,
    /// Stand up: 2 AP.
    Stand,
    /// Draw something: 0 AP.
    Draw,
    /// Stow something: 0 AP.
    Stow,
    /// The tracker's "Pick up/drop" button: 4 AP.
    PickUpOrDrop,
    /// The tracker's "Fall/stand" button: 2 AP.
    FallOrStand,
    /// The tracker's "Draw/stow" button: 0 AP.
    DrawOrStow,
    /// Anything else, priced by the referee.
    Other(u32),
}

impl Move {
    /// Its AP cost as the rules core prices it.
    pub fn ap(self) -> ApAction {
        self.row().0
    }

    /// The move's row: its price and what the fight's log says it does.
    fn row(self) -> (ApAction, &'static str) {
        match self {
            Move::Attack => (ApAction::Attack, "attacks"),
            Move::Reveal => (ApAction::RevealSecret, "reveals a Secret"),
            Move::PickUp => (ApAction::PickUpOrDrop, "picks something up"),
            Move::Drop => (ApAction::PickUpOrDrop, "drops something"),
            Move::Fall => (ApAction::ProneOrStand, "falls prone"),
            Move::Stand => (ApAction::ProneOrStand, "stands up"),
            Move::Draw => (ApAction::DrawOrStow, "draws something"),
            Move::Stow => (ApAction::DrawOrStow, "stows something"),
            Move::PickUpOrDrop => (ApAction::PickUpOrDrop, "picks something up or drops it"),
            Move::FallOrStand => (ApAction::ProneOrStand, "falls prone or stands up"),
            Move::DrawOrStow => (ApAction::DrawOrStow, "draws or stows something"),
            Move::Other(n) => (ApAction::Other(n), "acts"),
        }
    }

    fn of_button(a: ApAction) -> Move {
        match a {
            ApAction::Attack => Move::Attack,
            ApAction::RevealSecret => Move::Reveal,
            ApAction::PickUpOrDrop => Move::PickUpOrDrop,
            ApAction::ProneOrStand => Move::FallOrStand,
            ApAction::DrawOrStow => Move::DrawOrStow,
            ApAction::Other(n) => Move::Other(n),
        }
    }
}

/// One change to a running fight.
enum Op<'a> {
    Join {
        pick: Pick<'a>,
        side: Option<Side>,
        /// From the referee's `/vr-gm combat add`.
        by_gm: bool,
    },
    Add {
        name: &'a str,
        hp: u32,
        flesh: u32,
        side: Option<Side>,
    },
    Mark {
        name: &'a str,
        marks: Marks,
    },
    Initiative {
        modifier: i32,
        facet: Option<&'a str>,
    },
    Act {
        what: Move,
        name: Option<&'a str>,
        note: Option<&'a str>,
    },
    Flee {
        name: Option<&'a str>,
        modifier: i32,
        facet: Option<&'a str>,
    },
    EndTurn,
    End,
}

/// What a change did: a private note, and a roll to show everyone (with
/// its log entry).
struct Done {
    note: String,
    shown: Option<View>,
    log: Option<Record>,
}

impl Done {
    fn note(note: impl Into<String>) -> Done {
        Done {
            note: note.into(),
            shown: None,
            log: None,
        }
    }

    /// A change the fight's log keeps as `line`, and the caller's note says
    /// as done: `✅ line.`
    fn noted(f: &mut Fight, line: String) -> Done {
        let done = Done::note(format!("✅ {line}."));
        f.note(line);
        done
    }

    /// A roll to show everyone (`shown`, logged by `log`), with no note yet.
    fn shown(shown: View, log: Record) -> Done {
        Done {
            note: String::new(),
            shown: Some(shown),
            log: Some(log),
        }
    }

    /// The same, saying `shown` above the shown view and `note` privately.
    fn said(mut self, shown: String, note: String) -> Done {
        if let Some(v) = &mut self.shown {
            v.content = Some(shown);
        }
        self.note = note;
        self
    }
}

/// The running fight of the caller's channel.
async fn running(turn: &mut Turn<'_>) -> Result<(Session, Fight), AppError> {
    let s = encounter::require_running(turn.act(), KIND, WHAT, START).await?;
    let f = sessions::load(&s)?;
    Ok((s, f))
}

/// The running fight of the caller's channel, if any.
async fn running_fight(turn: &mut Turn<'_>) -> Result<Option<(Session, Fight)>, AppError> {
    let Some(s) = encounter::running(turn.act(), KIND).await? else {
        return Ok(None);
    };
    let f = sessions::load(&s)?;
    Ok(Some((s, f)))
}

/// The character a seat stands for, loaded; refused as gone when the seat
/// has none, or its sheet was deleted or is not of this game.
async fn seat_loaded(turn: &mut Turn<'_>, seat: &Seat<Fighter>) -> Result<Loaded<Sheet>, AppError> {
    let c = match seat.character {
        Some(id) => turn.character_by_id(id).await?,
        None => None,
    };
    c.ok_or_else(|| AppError::user(format!("{}'s sheet no longer exists.", clean(&seat.name))))
}

/// The seat that acts: `name` (the referee: anyone on the acting side; a
/// player: only their own seat whose turn it is), else the seat whose turn it is.
fn acting_seat(f: &Fight, caller: &Caller, gm: bool, name: Option<&str>) -> Result<u32, AppError> {
    f.require_running()?;
    let id = match name.map(str::trim).filter(|n| !n.is_empty()) {
        Some(n) => f.seat_named(n)?.id,
        None => f
            .turns
            .current
            .ok_or_else(|| AppError::user("No one has the turn: every combatant is out."))?,
    };
    if !gm {
        encounter::require_turn(&f.turns, caller, false, GM)?;
        // The caller plays the seat whose turn it is: naming another seat
        // is the wrong option, not someone else's turn.
        if f.turns.current != Some(id) {
            let now = f
                .turns
                .current_seat()
                .map_or("no one".into(), |s| clean(&s.name));
            let seat = f.turns.seat(id);
            let named = seat.map_or("them".into(), |s| clean(&s.name));
            let theirs = seat.is_some_and(|s| s.owner == Some(caller.user_id));
            return Err(AppError::user(if theirs {
                format!("It is {now}'s turn, not {named}'s: {named} acts on their own turn. Leave `name` out to act as {now}.")
            } else {
                format!("`name` is the {GM}'s, to act for another combatant: it is your turn as {now}. Leave `name` out to act as {now}.")
            }));
        }
    }
    f.require_can_act(id)?;
    Ok(id)
}

/// What every change to a fight is decided with.
struct Ctx {
    caller: Caller,
    /// The caller is the game master.
    gm: bool,
    settings: VeracitySettings,
}

async fn apply(turn: &mut Turn<'_>, f: &mut Fight, op: Op<'_>) -> Result<Done, AppError> {
    let cx = Ctx {
        caller: turn.caller().clone(),
        gm: turn.fc,
        settings: turn.settings,
    };
    sync(turn.tx(), cx.caller.guild_id, f, &cx.settings).await?;
    match op {
        Op::Join { pick, side, by_gm } => {
            if by_gm {
                turn.require_gm(GM, "seat another character")?;
            }
            seat_character(turn, &cx, f, pick, side).await
        }
        Op::Add {
            name,
            hp,
            flesh,
            side,
        } => {
            turn.require_gm(GM, "add NPCs to a fight")?;
            seat_npc(&cx, f, name, hp, flesh, side)
        }
        Op::Mark { name, marks } => {
            turn.require_gm(GM, "mark combatants")?;
            mark_seat(f, name, marks)
        }
        Op::Initiative { modifier, facet } => {
            roll_side_initiative(turn, &cx, f, modifier, facet).await
        }
        Op::Act { what, name, note } => spend_ap(turn, &cx, f, what, name, note),
        Op::Flee {
            name,
            modifier,
            facet,
        } => try_flee(turn, &cx, f, name, modifier, facet).await,
        Op::EndTurn => pass_turn(&cx, f),
        Op::End => {
            turn.require_gm(GM, "end the fight")?;
            f.ended = true;
            let rounds = count(f.turns.round, "round", "rounds");
            Ok(Done::noted(f, format!("The fight is over after {rounds}")))
        }
    }
}

/// A new seat is noted: "NAME joins the players".
fn joined(f: &mut Fight, name: &str, side: Side) -> Done {
    let line = format!(
        "{} joins the {}",
        clean(name),
        side_name(side).to_lowercase()
    );
    Done::noted(f, line)
}

/// A character takes a seat (among the enemies only by the game master's
/// hand); the dead do not fight.
async fn seat_character(
    turn: &mut Turn<'_>,
    cx: &Ctx,
    f: &mut Fight,
    pick: Pick<'_>,
    side: Option<Side>,
) -> Result<Done, AppError> {
    let side = side.unwrap_or(Side::Players);
    if side == Side::Npcs {
        turn.require_gm(GM, "seat a character among the enemies")?;
    }
    let c: Loaded<Sheet> = turn.character(pick, Access::Owner).await?;
    target::refuse_dead(c.name(), &c.sheet, "fight")?;
    let fighter = Fighter::new(side, &c.sheet, &cx.settings);
    f.add(c.name(), Some(c.row.owner_id), Some(c.row.id), fighter)?;
    f.settle();
    Ok(joined(f, c.name(), side))
}

/// A quick NPC takes a seat, its sheet kept in the fight.
fn seat_npc(
    cx: &Ctx,
    f: &mut Fight,
    name: &str,
    hp: u32,
    flesh: u32,
    side: Option<Side>,
) -> Result<Done, AppError> {
    let side = side.unwrap_or(Side::Npcs);
    let mut sheet = Sheet::new_npc(0, flesh)?;
    sheet.set_hp(hp, hp)?;
    let mut fighter = Fighter::new(side, &sheet, &cx.settings);
    fighter.npc = Some(sheet);
    let name = name.trim();
    f.add(name, None, None, fighter)?;
    f.settle();
    Ok(joined(f, name, side))
}

/// The game master marks a seat: visible, immobilised, unsuspecting, out
/// of the fight or back in ([`Fight::mark`]).
fn mark_seat(f: &mut Fight, name: &str, marks: Marks) -> Result<Done, AppError> {
    let seat = f.seat_named(name)?;
    let (id, seat_name) = (seat.id, clean(&seat.name));
    if marks == Marks::default() {
        return Err(AppError::user(
            "Say what to mark: `visible`, `immobilised`, `unsuspecting` or `out`.",
        ));
    }
    f.mark(id, marks)?;
    let word = |mark: Option<bool>, yes, no| mark.map(|m| if m { yes } else { no });
    let said: Vec<&str> = [
        word(
            marks.visible,
            "visible to the enemy",
            "hidden from the enemy",
        ),
        word(marks.immobilised, "immobilised", "no longer immobilised"),
        word(marks.unsuspecting, "unsuspecting", "on guard"),
        word(marks.out, "out of the fight", "back in the fight"),
    ]
    .into_iter()
    .flatten()
    .collect();
    let line = format!("{seat_name}: {}", said.join(", "));
    Ok(Done::noted(f, line))
}

/// The party leader's Light save decides which side acts first.
async fn roll_side_initiative(
    turn: &mut Turn<'_>,
    cx: &Ctx,
    f: &mut Fight,
    modifier: i32,
    facet: Option<&str>,
) -> Result<Done, AppError> {
    if f.started() {
        return Err(AppError::user("Initiative is already set for this fight."));
    }
    let leader = f
        .turns
        .seat(f.leader)
        .ok_or_else(|| AppError::user("The party leader left the fight."))?;
    if !cx.gm && leader.owner != Some(cx.caller.user_id) {
        return Err(AppError::user(format!(
            "Only {}'s player (the party leader) or the {GM} rolls initiative.",
            clean(&leader.name)
        )));
    }
    let (first, done) = seat_save(
        turn,
        f,
        f.leader,
        Light,
        modifier,
        facet,
        |s, facets, rng| {
            let r = roll_initiative(s, modifier, facets, &cx.settings, rng)?;
            Ok((r.first, r.save))
        },
    )
    .await?;
    f.set_initiative(first)?;
    let said = match first {
        Side::Players => "the players act first",
        Side::Npcs => "the enemies act first",
    };
    Ok(done.said(
        format!("⚔️ Initiative: {said}."),
        format!("✅ Initiative: {said}."),
    ))
}

/// A seat spends AP on an action (an "other" action priced by the game
/// master).
fn spend_ap(
    turn: &Turn<'_>,
    cx: &Ctx,
    f: &mut Fight,
    what: Move,
    name: Option<&str>,
    note: Option<&str>,
) -> Result<Done, AppError> {
    if matches!(what, Move::Other(_)) {
        turn.require_gm(GM, "price other actions")?;
    }
    let id = acting_seat(f, &cx.caller, cx.gm, name)?;
    let (ap, verb) = what.row();
    let left = f.spend(id, ap)?;
    let who = clean(&f.turns.seat(id).map_or(String::new(), |s| s.name.clone()));
    let mut line = format!("{who} {verb}");
    if let Some(n) = note.map(str::trim).filter(|n| !n.is_empty()) {
        let mut n = clean(n);
        crate::app::view::truncate(&mut n, 80);
        line.push_str(&format!(": {n}"));
    }
    line.push_str(&format!(" ({} AP, {left} left)", ap.cost()));
    Ok(Done::noted(f, line))
}

/// A seat tries to flee: a Flesh save; on a success it leaves the fight.
async fn try_flee(
    turn: &mut Turn<'_>,
    cx: &Ctx,
    f: &mut Fight,
    name: Option<&str>,
    modifier: i32,
    facet: Option<&str>,
) -> Result<Done, AppError> {
    let id = acting_seat(f, &cx.caller, cx.gm, name)?;
    let (escaped, done) = seat_save(turn, f, id, Flesh, modifier, facet, |s, facets, rng| {
        let r = flee_combat(s, true, modifier, facets, &cx.settings, rng)?;
        Ok((r.escaped, r.save))
    })
    .await?;
    let who = clean(&f.turns.seat(id).map_or(String::new(), |s| s.name.clone()));
    let line = if escaped {
        format!("🏃 {who} flees the fight")
    } else {
        format!("{who} tries to flee and cannot get away")
    };
    f.note(line.clone());
    if escaped {
        f.take_out(id, Gone::Fled)?;
    }
    let mut said = format!("{line}.");
    if let Some(n) = combat_view::nobody_left(f) {
        said = format!("{said}\n{n}");
    }
    Ok(done.said(said.clone(), said))
}

/// The save a seat makes in the fight on `inventory` (Light: the party
/// leader's, for initiative; Flesh: to flee) with a modifier and the Facet
/// named: loads seat `id`'s sheet, refuses the dead, rolls `rule` (the
/// rules' save with that Facet, and what it decides), and returns what it
/// decided with the save shown and logged with the fight ([`Done::said`]
/// adds what the table says of it).
async fn seat_save<T>(
    turn: &mut Turn<'_>,
    f: &Fight,
    id: u32,
    inventory: InventoryKind,
    modifier: i32,
    facet: Option<&str>,
    rule: impl FnOnce(&Sheet, Vec<FacetBonus>, &mut StdRng) -> Result<(T, SaveResult), RuleError>,
) -> Result<(T, Done), AppError> {
    let what = match inventory {
        Light => "initiative",
        Flesh => "flee",
    };
    let seat = f
        .turns
        .seat(id)
        .ok_or_else(|| AppError::user("That combatant is not in the order."))?;
    let name = seat.name.clone();
    // The kept NPC sheet, else its character's (with that character's id).
    let (character, sheet) = match &seat.data.npc {
        Some(npc) => (None, npc.clone()),
        None => {
            let c = seat_loaded(turn, seat).await?;
            (Some(c.row.id), c.sheet)
        }
    };
    target::refuse_dead(&name, &sheet, "make saves")?;
    let (labels, facets) = target::own_facet(&sheet, facet)?;
    let (decided, save) = rule(&sheet, facets, &mut turn.rng())?;
    let inputs = super::record::FightSave {
        modifier,
        facet: labels.first().cloned(),
    };
    let log = target::save_entry(what, &inputs, &save)
        .on_session()
        .character(character);
    let title = format!("{inventory} save · {what}");
    let shown = render::save_view(&name, &title, sheet.inventory(inventory), &labels, &save);
    Ok((decided, Done::shown(shown, log)))
}

/// The seat whose turn it is (or the game master) ends the turn.
fn pass_turn(cx: &Ctx, f: &mut Fight) -> Result<Done, AppError> {
    f.require_running()?;
    encounter::require_turn(&f.turns, &cx.caller, cx.gm, GM)?;
    let who = f
        .turns
        .current_seat()
        .map_or(String::new(), |s| clean(&s.name));
    f.end_turn()?;
    let now = f
        .turns
        .current_seat()
        .map_or("no one's".to_string(), |s| format!("{}'s", clean(&s.name)));
    Ok(Done::note(format!(
        "✅ {who} ends their turn: it is {now} turn."
    )))
}

/// A command's change to the running fight: saved, then the posted tracker
/// is redrawn (and a roll, if any, is posted).
async fn by_command(app: &App, caller: &Caller, op: Op<'_>) -> AppResult {
    let mut turn = Turn::begin(app, caller).await?;
    let (session, mut f) = running(&mut turn).await?;
    let done = apply(&mut turn, &mut f, op).await?;
    turn.finish(fight_outcome(session, f, done, answer)).await
}

/// A command's answer to a change of the fight, given the redrawn tracker:
/// the roll it shows, if any, then the tracker edited in place; else its
/// note with the tracker edited.
fn answer(view: View, done: Done) -> Response {
    match done.shown {
        Some(v) => Response {
            reply: Reply::Message(v),
            followups: vec![Reply::Edit(view)],
        },
        None => Response::edit(done.note, view),
    }
}

/// The outcome of a change to fight `f` (saved, closed once it ended),
/// answered by `answer` from the redrawn tracker and what the change did.
fn fight_outcome(
    session: Session,
    f: Fight,
    mut done: Done,
    answer: impl FnOnce(View, Done) -> Response + Send + 'static,
) -> Outcome {
    let status = if f.ended {
        Status::Closed
    } else {
        Status::Open
    };
    let log = done.log.take();
    let state = f.clone();
    let out = Outcome::new(move |s| {
        let view = combat_view::view(s.id, s.version, !f.ended, &f);
        answer(view, done)
    })
    .save(session, &state, status, None);
    log.into_iter().fold(out, Outcome::log)
}

/// `/vr-gm combat start`: the referee opens a fight in this channel, with the
/// party leader seated among the players.
pub async fn start(app: &App, caller: &Caller, leader: Pick<'_>) -> AppResult {
    let mut turn = Turn::begin(app, caller).await?;
    turn.require_gm(GM, "start a fight")?;
    encounter::refuse_second(turn.act(), KIND, WHAT, END).await?;
    let c: Loaded<Sheet> = turn.character(leader, Access::Anyone).await?;
    target::refuse_dead(c.name(), &c.sheet, "lead")?;
    let fighter = Fighter::new(Side::Players, &c.sheet, &turn.settings);
    let mut f = Fight::new(c.name(), Some(c.row.owner_id), Some(c.row.id), fighter)?;
    f.note(format!("{} leads the party", clean(c.name())));
    let state = f.clone();
    let out =
        Outcome::new(move |s| Response::message(combat_view::view(s.id, s.version, true, &f)))
            .start(KIND, &state, Status::Open, None);
    turn.finish(out).await
}

/// What `/vr-gm combat add` seats: a quick NPC by `name` (with `hp` and
/// `flesh`), or a `character` with a sheet (anyone's, on either side).
pub struct Seating<'a> {
    /// A quick NPC's name.
    pub name: Option<&'a str>,
    /// The NPC's HP (0).
    pub hp: Option<u32>,
    /// The NPC's Flesh slots, its AP (4).
    pub flesh: Option<u32>,
    /// A character with a sheet (its name and player).
    pub character: Pick<'a>,
    /// The side (an NPC: the enemies; a character: the players).
    pub side: Option<Side>,
}

/// `/vr-gm combat add`: the referee seats an NPC without a sheet (`flesh`
/// slots give its AP and when it dies; `hp` from its armour), or anyone's
/// character on either side (a player seats their own with the tracker's
/// **Join the fight**).
pub async fn add(app: &App, caller: &Caller, seat: Seating<'_>) -> AppResult {
    let by_sheet = seat.character.character.is_some() || seat.character.player.is_some();
    let op = match (seat.name.map(str::trim).filter(|n| !n.is_empty()), by_sheet) {
        (Some(name), false) => Ok(Op::Add {
            name,
            hp: seat.hp.unwrap_or(0),
            flesh: seat.flesh.unwrap_or(4),
            side: seat.side,
        }),
        (None, true) if seat.hp.is_none() && seat.flesh.is_none() => Ok(Op::Join {
            pick: seat.character,
            side: seat.side,
            by_gm: true,
        }),
        (None, true) => {
            Err("A character's sheet gives its HP and Flesh: leave `hp` and `flesh` out.")
        }
        (Some(_), true) => {
            Err("Seat one at a time: a quick NPC's `name`, or a `character` with a sheet.")
        }
        (None, false) => {
            Err("Give a quick NPC's `name`, or a `character` with a sheet (and its `player`).")
        }
    };
    by_command(app, caller, op.map_err(AppError::user)?).await
}

/// `/vr-gm combat mark`: the referee marks a combatant visible, immobilised,
/// unsuspecting, or out of the fight.
pub async fn mark(app: &App, caller: &Caller, name: &str, marks: Marks) -> AppResult {
    by_command(app, caller, Op::Mark { name, marks }).await
}

/// `/vr save fight:true`: with Light, the party leader's save that sets
/// initiative (VR-22); with Flesh, the save to leave the fight (VR-23) of
/// the combatant `s` names (the referee: any combatant of the acting side;
/// a player: their own, whose turn it is), else of the one whose turn it
/// is. `not_here` names the options of a save given that a fight's save
/// does not take. The tracker's **Roll initiative** and **Flee** roll the
/// same saves without a modifier or Facet.
pub async fn save_in_fight(
    app: &App,
    caller: &Caller,
    s: target::Save<'_>,
    not_here: &[&str],
) -> AppResult {
    if !not_here.is_empty() {
        return Err(AppError::user(format!(
            "A fight's save is public and the fight's own: leave out `{}`.",
            not_here.join("`, `")
        )));
    }
    let op = match s.inventory {
        InventoryKind::Light => {
            if s.pick.character.is_some() {
                return Err(AppError::user(
                    "Initiative is the party leader's Light save: leave `character` out.",
                ));
            }
            Op::Initiative {
                modifier: s.modifier,
                facet: s.facet,
            }
        }
        InventoryKind::Flesh => Op::Flee {
            name: s.pick.character,
            modifier: s.modifier,
            facet: s.facet,
        },
    };
    by_command(app, caller, op).await
}

/// `/vr-gm combat act`: the referee spends AP for a combatant (VR-21); the
/// players press the tracker's buttons.
pub async fn act(
    app: &App,
    caller: &Caller,
    what: Move,
    name: Option<&str>,
    note: Option<&str>,
) -> AppResult {
    by_command(app, caller, Op::Act { what, name, note }).await
}

/// A click on the tracker's buttons.
pub async fn click(app: &App, act: Act, session: Session, click: &Click<'_>) -> AppResult {
    let button: CombatButton = click.action()?;
    let mut f: Fight = sessions::load(&session)?;
    let op = match button {
        CombatButton::Initiative => Op::Initiative {
            modifier: 0,
            facet: None,
        },
        CombatButton::EndTurn => Op::EndTurn,
        CombatButton::End => Op::End,
        CombatButton::Join => Op::Join {
            pick: Pick::new(None, None),
            side: None,
            by_gm: false,
        },
        CombatButton::Flee => Op::Flee {
            name: None,
            modifier: 0,
            facet: None,
        },
        CombatButton::Act(a) => Op::Act {
            what: Move::of_button(a),
            name: None,
            note: None,
        },
    };
    let mut turn = Turn::click(app, act, click.caller).await?;
    let done = apply(&mut turn, &mut f, op).await?;
    let out = fight_outcome(session, f, done, |view, done| {
        let r = Response::update(view);
        match done.shown {
            Some(v) => r.then(Reply::Message(v)),
            None => r,
        }
    });
    turn.finish(out).await
}

/// The tracker as it stands (stale or closed clicks).
pub fn tracker_view(session: &Session) -> Result<View, AppError> {
    let f: Fight = sessions::load(session)?;
    Ok(combat_view::view(
        session.id,
        session.version,
        session.status == Status::Open,
        &f,
    ))
}

/// The names seated in the channel's running fight that contain `partial`,
/// for autocomplete.
pub async fn seat_names(app: &App, caller: &Caller, partial: &str) -> Vec<String> {
    let Ok(mut tx) = app.db.read().await else {
        return Vec::new();
    };
    let Ok(running) = encounter::running_in(&mut tx, caller, KIND).await else {
        return Vec::new();
    };
    let key = partial.trim().to_lowercase();
    running
        .as_ref()
        .and_then(|s| sessions::load::<Fight>(s).ok())
        .map(|f| {
            f.turns
                .seats
                .iter()
                .map(|s| s.name.clone())
                .filter(|n| n.to_lowercase().contains(&key))
                .take(25)
                .collect()
        })
        .unwrap_or_default()
}

/// A short account of damage for the fight's log.
fn damage_line(name: &str, events: &[Event]) -> String {
    let parts: Vec<String> = events
        .iter()
        .filter_map(|e| match e {
            Event::HpLost { amount, after, .. } => Some(format!("−{amount} HP ({after} left)")),
            Event::DamageAsWounds { n, reasons } => {
                let wounds = count(*n, "Wound", "Wounds");
                Some(format!("{wounds} ({})", render::wound_reasons(reasons)))
            }
            _ => None,
        })
        .collect();
    if parts.is_empty() {
        format!("{name} takes no damage")
    } else {
        format!("{name}: {}", parts.join(", "))
    }
}

/// A sheet a `character:` name picks among the seats of the channel's
/// running fight.
pub enum Seated {
    /// An NPC the referee added with `/vr-gm combat add`.
    Npc(Npc),
    /// A seated character: its own sheet, the caller's rights checked.
    Character(Loaded<Sheet>),
}

/// An NPC seated without a sheet: its fight, its seat and its kept sheet.
pub struct Npc {
    /// The fight's session.
    pub session: Session,
    /// The fight.
    pub fight: Fight,
    /// Its seat's id.
    pub seat: u32,
    /// Its name in the order.
    pub name: String,
    /// Its kept sheet.
    pub sheet: Sheet,
}

/// What `pick` names among the seats of the channel's running fight: a
/// name alone (no `player:`) that is none of the caller's own characters.
/// An NPC without a sheet is the referee's (`gm_what` says what they do
/// with it, for the refusal); another member's seated character is refused
/// to a player as any other sheet is, not as an unknown name. `None`: no
/// fight, or no such seat: the command picks its sheet as usual.
pub async fn seated(
    turn: &mut Turn<'_>,
    pick: Pick<'_>,
    gm_what: &str,
) -> Result<Option<Seated>, AppError> {
    let (Some(name), None) = (pick.character, pick.player) else {
        return Ok(None);
    };
    let caller = turn.caller().clone();
    let Some((session, f)) = running_fight(turn).await? else {
        return Ok(None);
    };
    let Some(seat) = f.turns.by_name(name) else {
        return Ok(None);
    };
    if let Some(sheet) = &seat.data.npc {
        turn.require_gm(GM, gm_what)?;
        let (seat, name, sheet) = (seat.id, seat.name.clone(), sheet.clone());
        return Ok(Some(Seated::Npc(Npc {
            session,
            fight: f,
            seat,
            name,
            sheet,
        })));
    }
    if seat.character.is_none() {
        return Ok(None);
    }
    let own =
        storage::characters::by_name(turn.tx(), caller.guild_id, SYSTEM, caller.user_id, name)
            .await?;
    if own.is_some() {
        return Ok(None);
    }
    let c = seat_loaded(turn, seat).await?;
    if c.row.owner_id != caller.user_id {
        turn.require_gm(GM, characters::NOT_YOURS)?;
    }
    Ok(Some(Seated::Character(c)))
}

/// `/vr damage`, aware of the channel's running fight: an NPC seated there
/// without a sheet takes it on its kept sheet (the referee's call); a seated
/// character takes it with the fight's conditions (the surprise turn, the
/// immobilised, the unsuspecting: VR-19, VR-22), and the tracker is redrawn.
/// With no fight, as before.
pub async fn damage(
    app: &App,
    caller: &Caller,
    amount: Amount,
    mode: DamageMode,
    displace: Vec<u32>,
    pick: Pick<'_>,
) -> AppResult {
    let mut turn = Turn::begin(app, caller).await?;
    let hit = Hit {
        amount,
        mode,
        displace,
    };
    // A name among the fight's seats: an NPC kept there, or a character by
    // its seat (a player naming another's is told it is not theirs, not
    // that it does not exist).
    let out = match seated(&mut turn, pick, "damage the fight's NPCs").await? {
        Some(Seated::Npc(npc)) => damage_npc(&mut turn, npc, hit).await?,
        Some(Seated::Character(c)) => damage_character(&mut turn, c, hit).await?,
        None => {
            let c = turn.character(pick, Access::Owner).await?;
            damage_character(&mut turn, c, hit).await?
        }
    };
    turn.finish(out).await
}

/// Damage as typed: the amount, where it goes, the Flesh items Wounds
/// displace.
struct Hit {
    amount: Amount,
    mode: DamageMode,
    displace: Vec<u32>,
}

impl Hit {
    /// The hit on `sheet` (`name`'s) under the fight's `conditions` for
    /// it: what it did, in the fight's log and in the answer.
    fn land(
        self,
        turn: &mut Turn<'_>,
        name: &str,
        sheet: &mut Sheet,
        conditions: DamageConditions,
    ) -> Result<Landed, AppError> {
        let what = format!("takes {} damage", self.amount);
        let action = Action::Damage {
            amount: self.amount,
            mode: self.mode,
            conditions,
            displace: self.displace,
        };
        target::check_dice_cap(turn.max_dice(), &action)?;
        let events = sheet.apply(&action, &turn.settings, &mut turn.rng())?;
        Ok(Landed {
            log: target::entry("damage", &action, &events),
            line: damage_line(&clean(name), &events),
            view: render::change_view(name, &what, sheet, &events),
        })
    }
}

/// What a [`Hit`] did: its log entry, its line in the fight's log, and the
/// answer.
struct Landed {
    log: Record,
    line: String,
    view: View,
}

/// Damage to an NPC kept in the fight: its sheet changes in the fight,
/// and the tracker is redrawn.
async fn damage_npc(turn: &mut Turn<'_>, npc: Npc, hit: Hit) -> Result<Outcome, AppError> {
    let Npc {
        session,
        fight: mut f,
        seat: id,
        name: seat_name,
        mut sheet,
    } = npc;
    let hit = hit.land(turn, &seat_name, &mut sheet, f.damage_conditions(id))?;
    if let Some(s) = f.turns.seat_mut(id) {
        s.data.npc = Some(sheet);
    }
    f.note(hit.line);
    let guild = turn.caller().guild_id;
    let settings = turn.settings;
    sync(turn.tx(), guild, &mut f, &settings).await?;
    let done = Done::shown(hit.view, hit.log.on_session());
    Ok(fight_outcome(session, f, done, answer))
}

/// Damage to a character's sheet (seated in the fight or not); a fight it
/// sits in follows the sheet and is redrawn (the pipeline's tracker, with
/// the damage noted).
async fn damage_character(
    turn: &mut Turn<'_>,
    mut c: Loaded<Sheet>,
    hit: Hit,
) -> Result<Outcome, AppError> {
    // Its seat in the channel's running fight, if any: the fight's
    // conditions for it.
    let fight = running_fight(turn).await?.map(|(s, f)| (s.id, f));
    let seat = fight.as_ref().and_then(|(session, f)| {
        let seat = f.seat_of(c.row.id)?;
        Some((*session, f.damage_conditions(seat.id)))
    });
    let (in_fight, conditions) = seat.unzip();
    let name = c.name().to_string();
    let hit = hit.land(turn, &name, &mut c.sheet, conditions.unwrap_or_default())?;
    let log = hit.log.character(c.row.id).session(in_fight);
    Ok(Outcome::answer(Response::message(hit.view))
        .sheet(c)
        .log(log)
        .note(hit.line))
}

/// `/vr combat show`: the fight's tracker posted again at the bottom of
/// the channel ([`encounter::show`]).
pub async fn show(app: &crate::app::App, caller: &crate::app::Caller) -> crate::app::AppResult {
    encounter::show(app, caller, KIND, WHAT, START).await
}
