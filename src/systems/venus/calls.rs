//! Starting rolls: a player's own check or task, the FC calling one for a
//! player, and the FC's NPC checks; the FC adjusting a roll before its
//! dice are thrown; and commands that act on "the roll in progress in
//! this channel" (a named bonus factor, void, force-close).

use super::buttons::{CheckButton, TaskButton};
use super::context::{actor, minutes, Outcome, Turn};
use super::format::{parse_factors, split_names};
use super::party::Party;
use super::state::{CheckSession, TaskSession, VeState, Who};
use super::{check, task, GM, HINT, KIND, SYSTEM};
use crate::app::characters;
use crate::app::pipeline::Record;
use crate::app::{rights, sessions, App, AppError, AppResult, Caller, Reply, Response};
use crate::rules::venus::check::{
    difficulty_target, CheckSetup, CheckSubject, FactorKind, NamedFactor,
};
use crate::rules::venus::sheet::MAX_NOTE_LEN;
use crate::rules::venus::{Edition, Rank, TaskSetup, TaskState, VenusSettings, VenusSheet};
use crate::rules::Actor;
use crate::storage::sessions::Status;
use crate::storage::{self, sessions::Session, Tx};

/// What a check or task call says.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct RollRequest {
    /// The roller (a member); the caller for their own roll.
    pub player: i64,
    /// A named character of the roller instead of their active one.
    pub character: Option<String>,
    /// The ability the FC picked; for an NPC check, who and what rolls
    /// ("Guard captain: Wits").
    pub ability: String,
    /// An NPC check's ad-hoc rank and score (FC only; thrown at once).
    pub npc: Option<(Rank, u32)>,
    /// Checks: 5/10/15/20(/25), or 1-4 steps of 5. Edition-2 tasks: 1-4.
    pub difficulty: Option<u32>,
    /// Relative factors, `Darkness, Wounds+2`.
    pub factors: Option<String>,
    /// What failure means.
    pub consequence: Option<String>,
    /// Tasks: the job used (default: the roller's best job for the ability).
    pub job: Option<String>,
    /// Tasks: the abilities a new job inherits, to start learning it.
    pub learn: Option<String>,
    /// Edition-2 tasks: 10s explode (FC only).
    pub magic: bool,
    /// Edition-2 tasks: critical results and margin (FC only).
    pub crits: bool,
    /// Edition-1 tasks with a level-0 job: `Some(false)` leaves out
    /// "learning the ropes" (FC only; VE1-T2: the FC *may* add it).
    pub ropes: Option<bool>,
}

/// What the FC may change before the dice are thrown.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Adjust {
    /// New difficulty.
    pub difficulty: Option<u32>,
    /// New relative factors (replacing the old; empty text clears them).
    pub factors: Option<String>,
    /// New consequence.
    pub consequence: Option<String>,
    /// New ability.
    pub ability: Option<String>,
    /// New job (tasks).
    pub job: Option<String>,
    /// Magic flag (edition-2 tasks).
    pub magic: Option<bool>,
    /// Crits flag (edition-2 tasks).
    pub crits: Option<bool>,
    /// Whether "learning the ropes" counts (edition-1 tasks, level-0 job).
    pub ropes: Option<bool>,
    /// The roll to change (`roll:`); `None`: the newest waiting.
    pub roll: Option<RollRef>,
}

impl Adjust {
    /// The new relative factors, read from their text.
    fn new_factors(&self) -> Option<Vec<NamedFactor>> {
        self.factors.as_deref().map(parse_factors)
    }
}

/// Refuses a free text (`what`) longer than the guild's text limit.
pub fn cap(app: &App, what: &str, text: &str) -> Result<(), AppError> {
    within(what, text, app.config.limits.max_text_len)
}

/// Refuses a text (`what`) longer than `max` characters.
pub fn within(what: &str, text: &str, max: usize) -> Result<(), AppError> {
    if text.chars().count() > max {
        return Err(AppError::user(format!(
            "The {what} is too long: at most {max} characters."
        )));
    }
    Ok(())
}

/// The factors of a command's `factors:` text; `-` means none, for players
/// as for the FC's `/ve-gm fc adjust`.
fn factors_of(text: Option<&str>) -> Result<Vec<NamedFactor>, AppError> {
    let Some(t) = text.filter(|t| t.trim() != "-") else {
        return Ok(Vec::new());
    };
    within("list of factors", t, MAX_NOTE_LEN)?;
    Ok(parse_factors(t))
}

/// The roller a check or task call names (the caller, or the player the FC
/// calls), loaded into a new party of which they are the only member.
async fn roller_party(turn: &mut Turn<'_>, req: &RollRequest) -> Result<(Who, Party), AppError> {
    let (caller, fc) = (turn.caller().clone(), turn.fc);
    let player = req.player;
    if player != caller.user_id {
        turn.require_gm(GM, "call a roll for another player")?;
    }
    // The shared way to name a character (the FC's name alone may be
    // anyone's; a name two members share needs the called player).
    let pick = characters::Pick::new(
        req.character.as_deref(),
        (player != caller.user_id).then_some(player),
    );
    let access = characters::Access::Owner;
    let c = characters::resolve(turn.tx(), &caller, fc, SYSTEM, pick, access, HINT).await?;
    let mut party = Party::new();
    let roller = party.add_loaded(player, c);
    Ok((roller, party))
}

/// `/ve check`, `/ve-gm fc call kind:check` and `/ve-gm fc npc`: a
/// player's own check and the FC's NPC check (ad-hoc rank and score) throw
/// their d20 at once; one the FC calls for a player waits for that
/// player's **Roll d20** (the FC may still adjust it).
pub async fn start_check(app: &App, caller: &Caller, req: RollRequest) -> AppResult {
    if let Some(c) = &req.consequence {
        cap(app, "consequence", c)?;
    }
    if req.npc.is_some() {
        cap(app, "name", &req.ability)?;
    }
    let factors = factors_of(req.factors.as_deref())?;
    let difficulty = req.difficulty.ok_or_else(|| {
        AppError::user("A check needs a difficulty: 5, 10, 15, 20 (or 25 in edition 1).")
    })?;
    let mut turn = Turn::begin(app, caller).await?;
    let a = actor(&turn);
    let set = turn.settings.clone();
    let (subject, roller, party) = match req.npc {
        Some((rank, score)) => {
            turn.require_gm(GM, "roll NPC checks")?;
            let name = req.ability.clone();
            let roller = Who {
                user: caller.user_id,
                character: None,
                name: name.trim().to_string(),
            };
            let subject = CheckSubject::AdHoc { name, rank, score };
            (subject, roller, Party::new())
        }
        None => {
            let (roller, party) = roller_party(&mut turn, &req).await?;
            let ability = req.ability.clone();
            (CheckSubject::Sheet { ability }, roller, party)
        }
    };
    let setup = CheckSetup {
        actor: a,
        roller: req.player,
        subject,
        difficulty: difficulty_target(difficulty),
        factors,
        consequence: req.consequence.clone().unwrap_or_default(),
    };
    // Validated before any die is thrown, so a bad call fails at once (and
    // leaves the seeded stream alone).
    setup.validate(&set, &party.ctx).map_err(super::fc_words)?;
    let called = req.player != caller.user_id || req.npc.is_some();
    let called_by = called.then_some(caller.user_id);
    let mut st = CheckSession::new(setup, roller, called_by, set.ve_edition);
    // A player's own check (issue 31 item 3) and an NPC's throw their d20
    // at once (logged `check_roll`, `check_npc`); one the FC calls for a
    // player waits for that player's **Roll d20** (and may still be
    // adjusted until then).
    let throw = match req.npc {
        Some(_) => Some("npc"),
        None => (req.player == caller.user_id).then_some("roll"),
    };
    let (status, entry) = match throw {
        Some(action) => {
            let mut rng = turn.rng();
            let (status, entry) =
                check::throw_at_start(action, &set, &mut st, &party, a, caller, &mut rng)?;
            (status, Some(entry))
        }
        None => (Status::Open, None),
    };
    let state = VeState::Check(Box::new(st));
    post(turn, state, status, entry, req.player).await
}

/// Posts a new roll (`entry`: its log entry, once its dice are thrown) for
/// `player`: a roll the FC calls for another player pings that player (and
/// only them); one a player starts for themselves pings nobody.
async fn post(
    turn: Turn<'_>,
    state: VeState,
    status: Status,
    entry: Option<Record>,
    player: i64,
) -> AppResult {
    let by = turn.caller().user_id;
    let shown = state.clone();
    let mut out = Outcome::new(move |s| {
        let view = super::view_of(s.id, s.number, s.version, status, &shown);
        Response::message(if player == by {
            view
        } else {
            view.ping(player, "the FC calls on you.")
        })
    })
    .start(KIND, &state, status, minutes(&turn));
    if let Some(entry) = entry {
        out = out.log(entry);
    }
    turn.finish(out).await
}

/// `/ve task` and `/ve-gm fc call kind:task`: opens a task for aid offers.
pub async fn start_task(app: &App, caller: &Caller, req: RollRequest) -> AppResult {
    if let Some(c) = &req.consequence {
        cap(app, "consequence", c)?;
    }
    let factors = factors_of(req.factors.as_deref())?;
    let mut turn = Turn::begin(app, caller).await?;
    let a = actor(&turn);
    if req.magic || req.crits {
        turn.require_gm(GM, "flag a task as magic or for critical results")?;
    }
    if req.ropes.is_some() {
        turn.require_gm(GM, "decide whether learning the ropes is a factor")?;
    }
    let set = turn.settings.clone();
    let (roller, party) = roller_party(&mut turn, &req).await?;
    let sheet = party.ctx.sheet(req.player).map_err(super::fc_words)?;
    let setup = task_setup(&req, &roller.name, sheet, &set, a, factors)?;
    let (state, _) = TaskState::new(setup.clone(), &set, &party.ctx).map_err(super::fc_words)?;
    check_pool(&state, turn.max_dice())?;
    let called_by = (req.player != caller.user_id).then_some(caller.user_id);
    let mut st = TaskSession::new(setup, roller, called_by, state);
    task::refresh(turn.tx(), caller.guild_id, &mut st, &party.ctx).await?;
    let state = VeState::Task(Box::new(st));
    post(turn, state, Status::Open, None, req.player).await
}

/// The setup of a task call: the job (named, or the roller's best for the
/// ability; a new one to learn needs its name) and the difficulty.
fn task_setup(
    req: &RollRequest,
    name: &str,
    sheet: &VenusSheet,
    set: &VenusSettings,
    a: Actor,
    factors: Vec<NamedFactor>,
) -> Result<TaskSetup, AppError> {
    let learn = req.learn.as_deref().map(split_names);
    let job = match (&req.job, &learn) {
        (Some(j), _) => j.clone(),
        (None, Some(_)) => {
            return Err(AppError::user(
                "Name the new job to learn with `job:` as well as the abilities it inherits.",
            ))
        }
        (None, None) => sheet.best_job(&req.ability).map(str::to_string).ok_or_else(|| {
            AppError::user(format!(
                "{} has no job that inherits {}: name one with `job:` and the abilities it inherits with `learn:` to start learning it.",
                crate::app::view::clean(name),
                req.ability.trim()
            ))
        })?,
    };
    let difficulty = match set.ve_edition {
        Edition::One => req.difficulty.unwrap_or(1),
        Edition::Two => req.difficulty.ok_or_else(|| {
            AppError::user(
                "An edition-2 task needs the FC's appropriate difficulty: add `difficulty:` 1 (very easy) to 4 (very hard).",
            )
        })?,
    };
    Ok(TaskSetup {
        actor: a,
        roller: req.player,
        npc: false,
        gm_override: false,
        ability: req.ability.clone(),
        job,
        learn_inherits: learn,
        difficulty,
        factors,
        consequence: req.consequence.clone().unwrap_or_default(),
        magic: req.magic,
        crits: req.crits,
        no_learning_factor: req.ropes == Some(false),
    })
}

/// Refuses a pool larger than the guild's dice cap (allies included).
pub fn check_pool(state: &TaskState, cap: u32) -> Result<(), AppError> {
    let most = state.pool as usize + state.max_allies();
    if most > cap as usize {
        return Err(AppError::user(format!(
            "That pool ({} dice plus up to {} allies) is above this server's limit of {cap} dice per roll.",
            state.pool,
            state.max_allies()
        )));
    }
    Ok(())
}

/// The open (not timed-out) Venus rolls of the caller's channel, newest
/// first, at most `n`.
async fn open_here(tx: &mut Tx, caller: &Caller, n: i64) -> Result<Vec<Session>, AppError> {
    let now = storage::now_ms();
    let (guild, channel) = (caller.guild_id, caller.channel_id);
    let rows = storage::sessions::latest_open_in_channel(tx, guild, channel, KIND, n).await?;
    Ok(rows
        .into_iter()
        .filter(|s| s.expires_at.is_none_or(|t| t > now))
        .collect())
}

/// The newest open (not timed-out) Venus roll in the caller's channel that
/// `want` accepts; refused with `none` when there is none.
pub async fn latest_roll(
    tx: &mut Tx,
    caller: &Caller,
    want: impl Fn(&VeState) -> bool,
    none: &str,
) -> Result<(Session, VeState), AppError> {
    for s in open_here(tx, caller, 20).await? {
        let st: VeState = sessions::load(&s)?;
        if want(&st) {
            return Ok((s, st));
        }
    }
    Err(AppError::user(none))
}

/// A roll named by a `roll:` option: its number as the caller reads it in
/// its footer ("check #N", "task #N", [`crate::app::secret::number`]), and which of
/// the rolls that read so it is. A public roll and each roller's secret
/// rolls are numbered apart, so one number may name several open rolls.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct RollRef {
    /// The number in the roll's footer.
    pub number: i64,
    /// Which roll of that number: typed, any; offered by the list, the
    /// public one or one member's secret one.
    pub whose: Whose,
}

/// Which of the rolls numbered alike a [`RollRef`] names.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Whose {
    /// Any (a typed `#N`): refused when several open rolls read `#N`.
    Any,
    /// The public roll.
    Public,
    /// The secret roll of this member (the session's owner).
    SecretOf(i64),
}

impl RollRef {
    /// The value the `roll:` list gives for `session` numbered `number`:
    /// `#N:public` or `#N:secret:OWNER` (read back by [`parse_roll`]).
    fn value(session: &Session, number: i64) -> String {
        if session.secret {
            format!("#{number}:secret:{}", session.owner_id)
        } else {
            format!("#{number}:public")
        }
    }

    /// Whether `session`, numbered `number` for its readers, is this roll.
    fn names(&self, session: &Session, number: i64) -> bool {
        number == self.number
            && match self.whose {
                Whose::Any => true,
                Whose::Public => !session.secret,
                Whose::SecretOf(owner) => session.secret && session.owner_id == owner,
            }
    }
}

/// How many open rolls of a channel `roll:` may name (the newest).
const NAMEABLE: i64 = 100;

/// The roll a game-master command acts on: `roll` (the `roll:` option)
/// when given, which must name one open Venus roll of this channel that
/// the caller may read and `want` accepts; else the newest that `want`
/// accepts, refused with `none` when there is none.
pub async fn chosen_roll(
    tx: &mut Tx,
    caller: &Caller,
    roll: Option<RollRef>,
    want: impl Fn(&VeState) -> bool,
    none: &str,
) -> Result<(Session, VeState), AppError> {
    let Some(roll) = roll else {
        return latest_roll(tx, caller, want, none).await;
    };
    let mut named = Vec::new();
    for s in open_here(tx, caller, NAMEABLE).await? {
        if !crate::app::secret::is_reader(tx, &s, caller).await? {
            continue;
        }
        let number = crate::app::secret::number(tx, &s).await?;
        if roll.names(&s, number) {
            named.push(s);
        }
    }
    let s = match named.len() {
        0 => {
            return Err(AppError::user(
                "That roll is not open in this channel: pick one from the list.",
            ))
        }
        1 => named.remove(0),
        _ => {
            return Err(AppError::user(format!(
                "Several open rolls here read #{}: pick one from the list.",
                roll.number
            )))
        }
    };
    let st: VeState = sessions::load(&s)?;
    if !want(&st) {
        return Err(AppError::user(
            "That roll cannot be changed that way now (its dice may be thrown already).",
        ));
    }
    Ok((s, st))
}

/// Reads a `roll:` option: a typed `#N` or `N` (the number in the roll's
/// footer), or a value the list offers ([`RollRef::value`]).
pub fn parse_roll(text: Option<&str>) -> Result<Option<RollRef>, AppError> {
    let Some(t) = text.map(str::trim).filter(|t| !t.is_empty()) else {
        return Ok(None);
    };
    let bad = || AppError::user("Pick a roll from the list offered for `roll:`.");
    let mut parts = t.split(':');
    let number = parts
        .next()
        .unwrap_or_default()
        .trim()
        .trim_start_matches('#')
        .parse::<i64>()
        .ok()
        .filter(|n| *n > 0)
        .ok_or_else(bad)?;
    let whose = match (parts.next(), parts.next(), parts.next()) {
        (None, _, _) => Whose::Any,
        (Some("public"), None, _) => Whose::Public,
        (Some("secret"), Some(owner), None) => Whose::SecretOf(owner.parse().map_err(|_| bad())?),
        _ => return Err(bad()),
    };
    Ok(Some(RollRef { number, whose }))
}

/// The open Venus rolls in the caller's channel, newest first, for the
/// `roll:` option: ("Ada · Finesse check · 3 min ago", [`RollRef::value`]).
/// A secret roll is listed only to its roller and the FC.
pub async fn open_rolls(app: &App, caller: &Caller, partial: &str) -> Vec<(String, String)> {
    let Ok(mut tx) = app.db.read().await else {
        return Vec::new();
    };
    let fc = rights::is_fc(&mut tx, caller).await.unwrap_or(false);
    let (guild, channel) = (caller.guild_id, caller.channel_id);
    let rows = storage::sessions::open_in_channel_aged(&mut tx, guild, channel, KIND, 25)
        .await
        .unwrap_or_default();
    let now = storage::now_ms();
    let p = partial.trim().to_lowercase();
    let mut out = Vec::new();
    for (s, at) in rows {
        let Some((roller, label)) = sessions::load(&s).ok().as_ref().and_then(roll_label) else {
            continue;
        };
        let label = format!("{label} · {}", age(now.saturating_sub(at)));
        let mine = s.owner_id == caller.user_id || roller == caller.user_id;
        let hidden = s.secret && !fc && !mine;
        if s.expires_at.is_some_and(|t| t <= now) || hidden || !label.to_lowercase().contains(&p) {
            continue;
        }
        if let Ok(number) = crate::app::secret::number(&mut tx, &s).await {
            out.push((label, RollRef::value(&s, number)));
        }
    }
    out
}

/// The roller and "Ada · Finesse check" of a roll; `None` for what is not
/// a roll.
fn roll_label(st: &VeState) -> Option<(i64, String)> {
    Some(match st {
        VeState::Check(c) => {
            let what = match &c.setup.subject {
                CheckSubject::Sheet { ability } => ability,
                CheckSubject::AdHoc { name, .. } => name,
            };
            (c.roller.user, format!("{} · {what} check", c.roller.name))
        }
        VeState::Task(t) => {
            let label = format!("{} · {} task", t.roller.name, t.setup.ability);
            (t.roller.user, label)
        }
        VeState::Delete(_) => return None,
    })
}

/// "just now", "3 min ago", "2 h ago".
fn age(ms: i64) -> String {
    let min = ms / 60_000;
    match min {
        0 => "just now".to_string(),
        1..=119 => format!("{min} min ago"),
        _ => format!("{} h ago", min / 60),
    }
}

/// Presses a button on the roll in progress from a command (`check` on a
/// check, `task` on a task). The roll's message is redrawn in place and the
/// caller reads a private note; a secret roll's two copies (the roller's
/// and the GM channel's) are both redrawn.
async fn act(
    turn: Turn<'_>,
    caller: &Caller,
    (session, state): (Session, VeState),
    (check, task): (CheckButton, Option<TaskButton>),
    note: &str,
) -> AppResult {
    let shown = session.id;
    let r = match (state, task) {
        (VeState::Check(c), _) => check::press(turn, session, *c, check, &[]).await?,
        (VeState::Task(t), Some(b)) => task::press(turn, session, *t, b, &[], caller).await?,
        _ => return Err(AppError::user("There is no roll in progress here.")),
    };
    let mut v = match r.reply {
        Reply::Update(v) | Reply::Message(v) => v,
        other => {
            return Ok(Response {
                reply: other,
                followups: r.followups,
            })
        }
    };
    v.shows = Some(shown);
    let mut out = Response::edit(format!("✅ {note}"), v);
    out.followups.extend(r.followups);
    Ok(out)
}

/// `/ve bonus`: claims a named bonus factor on the caller's check in
/// progress in this channel (the FC: on any).
pub async fn bonus(
    app: &App,
    caller: &Caller,
    name: &str,
    kind: FactorKind,
    value: u32,
) -> AppResult {
    cap(app, "factor name", name)?;
    let mut turn = Turn::begin(app, caller).await?;
    let fc = turn.fc;
    let me = caller.user_id;
    let waiting = |s: &VeState| match s {
        VeState::Check(c) => {
            c.check
                .as_ref()
                .is_some_and(|k| k.phase == crate::rules::venus::CheckPhase::AwaitingBonus)
                && (fc || c.roller.user == me)
        }
        _ => false,
    };
    let none = "You have no check waiting for bonus factors in this channel.";
    let found = latest_roll(turn.tx(), caller, waiting, none).await?;
    let named = CheckButton::Named {
        name: name.trim().to_string(),
        kind,
        value,
    };
    // The check's posted message is redrawn in place (never reposted, so no
    // older copy keeps live buttons); the caller reads a private note.
    let note = format!("Bonus factor “{}” claimed on the check.", name.trim());
    act(turn, caller, found, (named, None), &note).await
}

/// `/ve-gm fc void` and `/ve-gm fc close`: voids or force-closes the roll
/// chosen with `roll:`, or the newest open roll in this channel when
/// `None`.
pub async fn end_chosen_roll(
    app: &App,
    caller: &Caller,
    void: bool,
    roll: Option<RollRef>,
) -> AppResult {
    // Who may, the buttons it presses (a check's, a task's), the note.
    let (what, buttons, note) = if void {
        let buttons = (CheckButton::Void, Some(TaskButton::Void));
        ("void a roll", buttons, "The FC voided this roll.")
    } else {
        let buttons = (CheckButton::Force, Some(TaskButton::Force));
        (
            "force-close a roll",
            buttons,
            "The FC force-closed this roll.",
        )
    };
    let mut turn = Turn::begin(app, caller).await?;
    turn.require_gm(GM, what)?;
    let any = |s: &VeState| !matches!(s, VeState::Delete(_));
    let none = "There is no Venus roll in progress in this channel.";
    let found = chosen_roll(turn.tx(), caller, roll, any, none).await?;
    act(turn, caller, found, buttons, note).await
}

/// `/ve-gm fc adjust`: changes the roll chosen with `roll:` (else the newest
/// in this channel whose dice are not thrown yet) and redraws its message
/// in place (a secret roll's two copies both).
pub async fn adjust(app: &App, caller: &Caller, adj: Adjust) -> AppResult {
    if adj.clone()
        == (Adjust {
            roll: adj.roll,
            ..Adjust::default()
        })
    {
        return Err(AppError::user(
            "Say what to change: difficulty, factors, consequence, ability, job, magic, crits or ropes.",
        ));
    }
    for t in [&adj.consequence, &adj.factors].into_iter().flatten() {
        cap(app, "text", t)?;
    }
    let mut turn = Turn::begin(app, caller).await?;
    turn.require_gm(GM, "adjust a roll")?;
    let a = actor(&turn);
    let set = turn.settings.clone();
    let waiting = |s: &VeState| match s {
        VeState::Check(c) => c.check.is_none() && c.ended_before_roll.is_none(),
        VeState::Task(t) => t.task.phase == crate::rules::venus::TaskPhase::AidOffers,
        VeState::Delete(_) => false,
    };
    let none = "There is no roll waiting for its dice in this channel.";
    let (session, state) = chosen_roll(turn.tx(), caller, adj.roll, waiting, none).await?;
    let new_state = match state {
        VeState::Check(c) => adjust_check(turn.tx(), caller, c, &adj, &set).await?,
        VeState::Task(t) => adjust_task(&mut turn, t, &adj, &set, a).await?,
        VeState::Delete(_) => return Err(AppError::Internal("not a roll".into())),
    };
    let note = "The FC adjusted this roll; its message shows the new setup.";
    let out = redrawn(&turn, session, new_state, note.into());
    turn.finish(out).await
}

/// A roll a command changed (still open): saved, and its message redrawn
/// in place (a secret roll's two copies alike, the kit's edit) with `note`
/// for the caller.
pub fn redrawn(turn: &Turn<'_>, session: Session, state: VeState, note: String) -> Outcome {
    let (id, shown) = (session.id, state.clone());
    Outcome::new(move |s| {
        let mut v = super::view_of(id, s.number, s.version, Status::Open, &shown);
        v.shows = Some(id);
        Response::edit(format!("✅ {note}"), v)
    })
    .save(session, &state, Status::Open, minutes(turn))
}

/// Puts `new` in `slot` when the FC gave it (an adjusted setup's field).
fn put<T>(slot: &mut T, new: Option<T>) {
    if let Some(v) = new {
        *slot = v;
    }
}

/// `/ve-gm fc adjust` on a check not yet thrown: the new setup, validated.
async fn adjust_check(
    tx: &mut Tx,
    caller: &Caller,
    mut c: Box<CheckSession>,
    adj: &Adjust,
    set: &VenusSettings,
) -> Result<VeState, AppError> {
    let setup = &mut c.setup;
    let subject = adj
        .ability
        .clone()
        .map(|ability| CheckSubject::Sheet { ability });
    put(&mut setup.difficulty, adj.difficulty.map(difficulty_target));
    put(&mut setup.factors, adj.new_factors());
    put(&mut setup.consequence, adj.consequence.clone());
    put(&mut setup.subject, subject);
    if adj.job.is_some() || adj.magic.is_some() || adj.crits.is_some() || adj.ropes.is_some() {
        return Err(AppError::user(
            "A check has no job, magic, crits or learning factor to change.",
        ));
    }
    let party = Party::load(tx, caller.guild_id, [&c.roller]).await?;
    let mut setup = c.setup.clone();
    setup.actor = Actor {
        id: c.roller.user,
        gm: false,
    };
    setup.validate(set, &party.ctx).map_err(super::fc_words)?;
    c.note = Some("adjusted by the FC".into());
    Ok(VeState::Check(c))
}

/// `/ve-gm fc adjust` on a task not yet rolled: rebuilt from the new setup,
/// keeping the standing aid offers that still fit.
async fn adjust_task(
    turn: &mut Turn<'_>,
    mut t: Box<TaskSession>,
    adj: &Adjust,
    set: &VenusSettings,
    a: Actor,
) -> Result<VeState, AppError> {
    let mut setup = t.setup.clone();
    put(&mut setup.difficulty, adj.difficulty);
    put(&mut setup.factors, adj.new_factors());
    put(&mut setup.consequence, adj.consequence.clone());
    put(&mut setup.ability, adj.ability.clone());
    if let Some(j) = &adj.job {
        setup.job = j.clone();
        setup.learn_inherits = None;
    }
    put(&mut setup.magic, adj.magic);
    put(&mut setup.crits, adj.crits);
    put(&mut setup.no_learning_factor, adj.ropes.map(|r| !r));
    setup.actor = a;
    let guild = turn.caller().guild_id;
    let party = Party::load(turn.tx(), guild, t.whos()).await?;
    task::rebuild(&mut t, setup, set, &party.ctx)?;
    check_pool(&t.task, turn.max_dice())?;
    task::refresh(turn.tx(), guild, &mut t, &party.ctx).await?;
    t.note = Some("adjusted by the FC".into());
    Ok(VeState::Task(t))
}
