//! One action pipeline (issue 28): the life of an action of a migrated
//! game, from its caller to its answer.
//!
//! An action is a function from a [`Turn`] to an [`Outcome`]. The turn is
//! what an action may read: the caller, whether they are the game master
//! (asked once), the game's typed settings and the guild's shared ones,
//! the character it acts on (resolved the shared way, [`Turn::character`]),
//! the rng ([`Turn::rng`]) and the caller's transaction for further reads
//! ([`Turn::tx`]). The outcome is what the action changed, as data: the
//! session it starts or moves on, the sheets it changed, its typed log
//! records ([`Record`]) and how to draw the answer once they are saved.
//!
//! Only the pipeline writes: [`Turn::finish`] saves the session
//! (version-checked), the sheets and the log in the turn's transaction,
//! commits it, and then redraws every other posted message that shows a
//! sheet that changed (a sheet card, [`Scope::shows`]), as
//! [`Reply::Edit`](super::Reply::Edit)s after the answer; a secret action redraws none (what
//! came of it stays with the roller and the game master). Other sessions
//! the action moved on ([`Outcome::moved`]: a running tracker, an open
//! register) are saved with it and redrawn first. A turn may be lent a transaction that
//! is not its own ([`Turn::within`], an approval applying a change inside
//! the approval's click): it then [`Turn::settle`]s, writing without
//! committing, and the lender commits and draws ([`Pending::draw`]). An
//! action that reads nothing before its outcome (a generic roll) needs no
//! turn: [`apply`] begins, writes, commits and draws it.

use std::future::Future;
use std::pin::Pin;

use rand::rngs::StdRng;
use serde::{de::DeserializeOwned, Serialize};

use super::characters::{self, Access, Loaded, Pick};
use super::log::{self, Columns, What};
pub use super::pending::Pending;
use super::settings::{self, GuildSettings};
pub use super::waits::{Wait, Waiter};
use super::{rights, secret, sessions, Act, App, AppError, AppResult, Caller, Response};
use crate::storage::sessions::{Session, Status};
use crate::storage::{self, Tx};

/// The most posted messages of one kind looked at for a redraw.
const REDRAW_LIMIT: i64 = 50;

/// What the pipeline needs to know of the game whose actions it runs.
pub trait Scope: Send + Sync + 'static {
    /// The game's id: its settings scope, its characters' system, its log
    /// entries' system.
    const ID: &'static str;
    /// Told to a player without a character: how to make one.
    const HINT: &'static str;
    /// The session kinds of the game's running trackers, whose state keeps
    /// a `turns` order: a save that moves the turn to a member's seat
    /// pings that member ([`super::turn_ping`]).
    const TURN_KINDS: &'static [&'static str] = &[];
    /// The session kinds whose messages show a character's sheet (redrawn
    /// when that sheet changes, see [`Scope::shows`]).
    const CARD_KINDS: &'static [&'static str] = &[];
    /// Whether the messages of the sessions its outcomes start show their
    /// number ([`Shown::number`], a roll's "Roll #N"); a scope whose do not
    /// saves counting it.
    const NUMBERED: bool = true;
    /// The game's house rules, typed.
    type Settings: Default + DeserializeOwned + Send + Sync + 'static;
    /// The game's character sheet, typed.
    type Sheet: Serialize + DeserializeOwned + Send + Sync + 'static;

    /// Checks a stored sheet's invariants (stored JSON is trusted no
    /// further).
    fn check(c: Loaded<Self::Sheet>) -> Result<Loaded<Self::Sheet>, AppError> {
        Ok(c)
    }

    /// The character a session of one of [`Scope::CARD_KINDS`] shows.
    fn shows(session: &Session) -> Option<i64> {
        let _ = session;
        None
    }

    /// The session kinds of running trackers (a fight) that show the
    /// sheets of the characters seated in them: the one running in the
    /// caller's channel is brought in step ([`Scope::follow`]), saved and
    /// redrawn whenever an action saves a sheet it shows (even unchanged:
    /// the outcome's notes still join the tracker's log).
    const TRACKER_KINDS: &'static [&'static str] = &[];

    /// Brings `tracker` (a running session of one of
    /// [`Scope::TRACKER_KINDS`]) in step with the sheets of the characters
    /// `changed` (the outcome saved them; read them in `tx`), noting `notes` (the
    /// outcome's lines for a tracker's own log, [`Outcome::note`]): its new
    /// state and status, or `None` when it shows none of them.
    fn follow<'t>(
        tx: &'t mut Tx,
        tracker: &'t Session,
        changed: &'t [i64],
        notes: &'t [String],
        settings: &'t Self::Settings,
    ) -> impl Future<Output = Result<Option<Followed>, AppError>> + Send + 't {
        let _ = (tx, tracker, changed, notes, settings);
        async { Ok(None) }
    }
}

/// The table itself, as the scope of the shared actions that belong to
/// no game (`/history`, `/me`, the sheet commands every game shares): no
/// house rules of its own (its settings scope is never written), and no
/// sheet it reads as typed (a game's sheet stays the stored JSON).
pub struct Table;

impl Scope for Table {
    const ID: &'static str = "table";
    const HINT: &'static str = "create one with your game's `sheet create`.";
    type Settings = ();
    type Sheet = serde_json::Value;
}

/// A running tracker brought in step with changed sheets
/// ([`Scope::follow`]).
pub struct Followed {
    /// Its new state, serialised.
    pub state: String,
    /// Its status (closed when the change ended it).
    pub status: Status,
}

/// The transaction a turn reads and writes in.
enum Held<'a> {
    /// Its own: the pipeline commits it.
    Own(Box<Act>),
    /// Lent by an action that composes this one: the lender commits.
    Lent(&'a mut Act),
}

impl Held<'_> {
    fn act(&mut self) -> &mut Act {
        match self {
            Held::Own(a) => a,
            Held::Lent(a) => a,
        }
    }
}

/// What an action of game `G` may read (see the module comment).
pub struct Turn<'a, G: Scope> {
    app: &'a App,
    held: Held<'a>,
    caller: Caller,
    /// The caller is the game master.
    pub fc: bool,
    /// The game's house rules where the caller acts (a live game's own in
    /// its channels, else the server's).
    pub settings: G::Settings,
    /// The guild's shared settings (dice cap, session timeout, FC role),
    /// as they apply here: in a play-by-post game, its
    /// `session_timeout_minutes` is the game's days.
    pub guild: GuildSettings,
    /// Who is the game master here (the server's FC role, or a game's).
    authority: rights::Authority,
    /// The action is in a play-by-post game (its waits are recorded and
    /// pinged, [`super::waits`]).
    post: bool,
}

impl<'a, G: Scope> Turn<'a, G> {
    /// Whether the action is in a play-by-post game, whose waits are
    /// recorded and pinged once ([`Outcome::waits_on`]); never for a
    /// secret action.
    pub fn pings_waits(&self) -> bool {
        self.post && !self.caller.secret
    }

    /// Begins `caller`'s action in a transaction of its own.
    pub async fn begin(app: &'a App, caller: &Caller) -> Result<Self, AppError> {
        let act = Act::begin(app, caller).await?;
        Self::load(app, Held::Own(Box::new(act)), caller.clone()).await
    }

    /// A click's action, in the transaction the click dispatcher began
    /// (the session it re-read in it is the one clicked); `caller` is the
    /// clicker (acting secretly on a secret session).
    pub async fn click(app: &'a App, act: Act, caller: &Caller) -> Result<Self, AppError> {
        Self::load(app, Held::Own(Box::new(act)), caller.clone()).await
    }

    /// An action composed into another's transaction (an approval applying
    /// the change it approves): it [`settle`](Turn::settle)s, and the
    /// lender commits.
    pub async fn within(app: &'a App, act: &'a mut Act) -> Result<Self, AppError> {
        let caller = act.caller().clone();
        Self::load(app, Held::Lent(act), caller).await
    }

    async fn load(app: &'a App, mut held: Held<'a>, caller: Caller) -> Result<Self, AppError> {
        let tx = held.act();
        let mut guild = settings::guild(tx, caller.guild_id).await?;
        let game = settings::scoped_here(tx, &caller, G::ID).await?;
        let authority = rights::authority(tx, &caller, &guild).await?;
        // In a play-by-post game every session the action starts or moves
        // on waits the game's days: the timeout the turn reads is the
        // game's (issue 32 item 3).
        let post = crate::app::games::post_minutes(tx, &caller).await?;
        if let Some(minutes) = post {
            guild.session_timeout_minutes = minutes;
        }
        Ok(Turn {
            app,
            held,
            fc: authority.admits(&caller),
            authority,
            post: post.is_some(),
            caller,
            settings: game,
            guild,
        })
    }

    /// Who acts.
    pub fn caller(&self) -> &Caller {
        &self.caller
    }

    /// The caller's transaction, for reads (the pipeline writes).
    pub fn tx(&mut self) -> &mut Tx {
        self.held.act()
    }

    /// The caller's transaction as an [`Act`], for the table's helpers
    /// that take one (the channel's running tracker); for reads, as
    /// [`Turn::tx`].
    pub fn act(&mut self) -> &mut Act {
        self.held.act()
    }

    /// The action's generator, forked from the application's source: an
    /// action forks it once, where it throws dice (one that throws none
    /// leaves the seeded stream alone).
    pub fn rng(&self) -> StdRng {
        self.app.rng.fork()
    }

    /// Refuses unless the caller is the game master, named `gm` as the
    /// game's rules call them; `what` completes "Only the {gm} can …".
    pub fn require_gm(&self, gm: &str, what: &str) -> Result<(), AppError> {
        if self.fc {
            return Ok(());
        }
        Err(self.authority.refusal(gm, what))
    }

    /// The most dice a roll may ask for here.
    pub fn max_dice(&self) -> u32 {
        self.guild.max_dice_per_roll
    }

    /// How long an interactive session waits (minutes): the server's
    /// `session_timeout_minutes`, or a play-by-post game's days.
    pub fn timeout(&self) -> Option<u32> {
        Some(self.guild.session_timeout_minutes.max(1))
    }

    /// The character `pick` names, with the rights of `access`
    /// ([`characters::resolve`]).
    pub async fn character(
        &mut self,
        pick: Pick<'_>,
        access: Access,
    ) -> Result<Loaded<G::Sheet>, AppError> {
        let (caller, fc) = (self.caller.clone(), self.fc);
        let c = characters::resolve(self.tx(), &caller, fc, G::ID, pick, access, G::HINT).await?;
        G::check(c)
    }

    /// The guild's character `id`, if it still exists and is of this game.
    pub async fn character_by_id(&mut self, id: i64) -> Result<Option<Loaded<G::Sheet>>, AppError> {
        let guild = self.caller.guild_id;
        let row = storage::characters::get(self.tx(), guild, id).await?;
        let Some(row) = row.filter(|r| r.system == G::ID) else {
            return Ok(None);
        };
        let sheet = serde_json::from_str(&row.sheet)?;
        G::check(Loaded { row, sheet }).map(Some)
    }

    /// Every character of the game in the guild (at most `limit`).
    pub async fn every_character(&mut self, limit: i64) -> Result<Vec<Loaded<G::Sheet>>, AppError> {
        let guild = self.caller.guild_id;
        let rows = storage::characters::list(self.tx(), guild, G::ID, None, limit).await?;
        rows.into_iter()
            .map(|row| {
                let sheet = serde_json::from_str(&row.sheet)?;
                G::check(Loaded { row, sheet })
            })
            .collect()
    }

    /// Creates a character for `owner` (made their active one): the one
    /// write an action asks of the pipeline before its outcome, since the
    /// outcome names the new character.
    pub async fn create(
        &mut self,
        owner: i64,
        name: &str,
        sheet: G::Sheet,
    ) -> Result<Loaded<G::Sheet>, AppError> {
        let guild = self.caller.guild_id;
        let row = characters::create_for(self.tx(), guild, owner, G::ID, name, &sheet).await?;
        Ok(Loaded { row, sheet })
    }

    /// Creates a character of game `system` for `owner` (made their active
    /// one) from its sheet as stored (an imported sheet the game checked):
    /// like [`Turn::create`], for a shared action of the [`Table`].
    pub async fn create_stored(
        &mut self,
        owner: i64,
        system: &str,
        name: &str,
        stored: &str,
    ) -> Result<storage::characters::Character, AppError> {
        let guild = self.caller.guild_id;
        characters::create_stored(self.tx(), guild, owner, system, name, stored).await
    }

    /// Opens a session before the outcome, for an action whose outcome
    /// names it (a channel's board made on first use): like
    /// [`Turn::create`], the one other write an action asks of the
    /// pipeline before its outcome.
    pub async fn open(
        &mut self,
        kind: &'static str,
        state: &impl Serialize,
        timeout: Option<u32>,
    ) -> Result<Session, AppError> {
        let id = self.open_session(kind, state, timeout).await?;
        let guild = self.caller.guild_id;
        storage::sessions::get(self.tx(), guild, id)
            .await?
            .ok_or_else(|| AppError::Internal("a new session is missing".into()))
    }

    /// Opens a session of `kind` holding `state` (open, expiring after
    /// `timeout` minutes) ahead of the outcome and gives its id: the other
    /// write an action may ask before its outcome, when the state the
    /// outcome saves names the new session (a tracker that links the roll
    /// it posts).
    pub async fn open_session(
        &mut self,
        kind: &'static str,
        state: &impl Serialize,
        timeout: Option<u32>,
    ) -> Result<i64, AppError> {
        let caller = self.caller.clone();
        sessions::create(self.held.act(), &caller, kind, state, timeout).await
    }

    /// Saves, logs and commits the outcome, then draws it with every
    /// posted message that shows a changed sheet redrawn.
    pub async fn finish(self, outcome: Outcome<G::Sheet>) -> AppResult {
        let (app, caller) = (self.app, self.caller.clone());
        let (held, pending) = self.write(outcome).await?;
        match held {
            Held::Own(act) => (*act).commit().await?,
            Held::Lent(_) => {
                return Err(AppError::Internal(
                    "a turn in a lent transaction is settled, not finished".into(),
                ))
            }
        }
        Ok(pending.draw(app, &caller).await)
    }

    /// Saves and logs the outcome in the lent transaction, for the lender
    /// to commit and then draw ([`Pending::draw`]).
    pub async fn settle(self, outcome: Outcome<G::Sheet>) -> Result<Pending, AppError> {
        match self.write(outcome).await? {
            (Held::Lent(_), pending) => Ok(pending),
            (Held::Own(_), _) => Err(AppError::Internal(
                "a turn in its own transaction is finished, not settled".into(),
            )),
        }
    }

    async fn write(mut self, o: Outcome<G::Sheet>) -> Result<(Held<'a>, Pending), AppError> {
        let caller = self.caller.clone();
        let pending = write::<G>(self.held.act(), &caller, &self.settings, self.post, o).await?;
        Ok((self.held, pending))
    }
}

/// Runs an action that reads nothing of the table before its outcome (no
/// rights, no settings, no character: a generic roll, whose outcome comes
/// from its expression and the rng alone): begins the caller's write
/// transaction, saves and logs `outcome` as [`Turn::finish`] does, commits
/// and draws it. No read is spent on what the action does not ask (the
/// game's house rules are read only when the outcome saves a sheet, for
/// the trackers that follow it).
pub async fn apply<G: Scope>(app: &App, caller: &Caller, outcome: Outcome<G::Sheet>) -> AppResult {
    let mut act = Act::begin(app, caller).await?;
    let house: G::Settings = if outcome.sheets.is_empty() {
        G::Settings::default()
    } else {
        settings::scoped_here(&mut act, caller, G::ID).await?
    };
    let pending = write::<G>(&mut act, caller, &house, false, outcome).await?;
    act.commit().await?;
    Ok(pending.draw(app, caller).await)
}

/// Saves and logs an outcome in `tx` (see the module comment), and gives
/// what to draw once it is committed; `house` is the game's house rules
/// (for the trackers that follow a saved sheet); `post`: the action is in
/// a play-by-post game, whose waits are recorded and pinged once.
async fn write<G: Scope>(
    tx: &mut Act,
    caller: &Caller,
    house: &G::Settings,
    post: bool,
    o: Outcome<G::Sheet>,
) -> Result<Pending, AppError> {
    let pings = turn_pings::<G>(caller, o.session.as_ref(), &o.moved);
    // In a play-by-post game, whom the sessions now wait on (a secret
    // action's stay with the roller: none recorded, nobody pinged).
    let turns = (post && !caller.secret).then(|| turn_waits::<G>(o.session.as_ref(), &o.moved));
    let shown = match o.session {
        None => None,
        Some(w) => Some(write_session::<G>(tx, caller, w).await?),
    };
    write_settings(tx, caller, G::ID, o.settings).await?;
    let (mut changed, mut touched) = (Vec::new(), Vec::new());
    for mut c in o.sheets {
        let before = c.row.sheet.clone();
        characters::save(tx, &mut c).await?;
        touched.push(c.row.id);
        if c.row.sheet != before {
            changed.push(c.row.id);
        }
    }
    for also in o.also {
        also(tx).await?;
    }
    for r in o.log {
        let what = What {
            system: r.system.as_deref().unwrap_or(G::ID),
            action: &r.action,
            session: shown.filter(|_| r.on_session).map(|s| s.id).or(r.session),
            character: r.character,
        };
        let columns = Columns {
            inputs: r.inputs?,
            dice: r.dice?,
            outcome: r.outcome?,
        };
        // An entry on the session the outcome created is as secret as the
        // caller: nothing to look up.
        let created = shown.filter(|s| s.created && what.session == Some(s.id));
        let id = match created {
            Some(_) => log::record_columns_as(tx, caller, what, columns, caller.secret).await?,
            None => log::record_columns(tx, caller, what, columns).await?,
        };
        log::record_faces(tx, id, &r.faces).await?;
    }
    let own = shown.map(|w| w.id);
    // A tracker follows every sheet the outcome saved (its notes say
    // what happened even when the sheet stayed the same).
    let followed = follow_trackers::<G>(tx, caller, own, &touched, &o.notes, house).await?;
    // A secret action redraws nothing: what came of it stays with the
    // roller and the game master (the card shows it when shown again).
    let mut redraw = Vec::new();
    if !caller.secret {
        if !changed.is_empty() {
            redraw = cards::<G>(tx, caller, own, &changed).await?;
        }
        redraw.extend(followed);
    }
    // Other sessions the action moved on (a tracker, a register): saved,
    // and redrawn first.
    let mut moved = save_moved(tx, caller.guild_id, o.moved).await?;
    moved.append(&mut redraw);
    let wait_pings = match turns {
        Some(turns) => settle_waits(tx, caller, shown, o.waits, turns).await?,
        None => Vec::new(),
    };
    let mut response = (o.draw)(&shown.unwrap_or_default());
    response.followups.extend(pings);
    response.followups.extend(wait_pings);
    Ok(Pending::new(response, moved))
}

/// The turn's pings of the trackers an outcome saves, its own session and
/// the ones it moves ([`Scope::TURN_KINDS`], [`super::turn_ping`]); none
/// for a secret action.
fn turn_pings<G: Scope>(
    caller: &Caller,
    own: Option<&SessionWrite>,
    moved: &[Moved],
) -> Vec<super::Reply> {
    if caller.secret {
        return Vec::new();
    }
    let own = own.and_then(|w| match w {
        SessionWrite::Save {
            session,
            state: Ok(after),
            status: Status::Open,
            ..
        } => Some((session, after)),
        _ => None,
    });
    let moved = moved.iter().filter_map(|m| match (&m.state, m.status) {
        (Ok(after), Status::Open) => Some((&m.session, after)),
        _ => None,
    });
    own.into_iter()
        .chain(moved)
        .filter(|(s, _)| G::TURN_KINDS.contains(&s.kind.as_str()))
        .filter_map(|(s, after)| super::turn_ping::between(&s.state, after))
        .collect()
}

/// The waits of the trackers an outcome saves ([`Scope::TURN_KINDS`]):
/// the member whose turn it now is ([`super::turn_ping::waiting`]; the
/// turn's own ping is theirs). Its own session's, and each moved one's
/// with its id and whether it stays open.
type TurnWaits = (Option<Wait>, Vec<(i64, bool, Option<Wait>)>);

fn turn_waits<G: Scope>(own: Option<&SessionWrite>, moved: &[Moved]) -> TurnWaits {
    let wait = |kind: &str, state: &Result<String, serde_json::Error>| {
        if !G::TURN_KINDS.contains(&kind) {
            return None;
        }
        let (member, seat) = super::turn_ping::waiting(state.as_ref().ok()?)?;
        Some(Wait::turn(member, format!("{seat}'s turn")))
    };
    let own = own.and_then(|w| match w {
        SessionWrite::New { kind, state, .. } => wait(kind, state),
        SessionWrite::Save { session, state, .. } => wait(&session.kind, state),
    });
    let moved = moved
        .iter()
        .filter(|m| G::TURN_KINDS.contains(&m.session.kind.as_str()))
        .map(|m| {
            let open = m.status == Status::Open;
            (m.session.id, open, wait(&m.session.kind, &m.state))
        })
        .collect();
    (own, moved)
}

/// Records whom the sessions an outcome wrote now wait on, in a
/// play-by-post game ([`super::waits::settle`]): its own session (`shown`)
/// the waits it declared and its turn's, each moved tracker its turn's;
/// the pings of the new waits.
async fn settle_waits(
    tx: &mut Act,
    caller: &Caller,
    shown: Option<Shown>,
    declared: Vec<Wait>,
    (own_turn, moved_turns): TurnWaits,
) -> Result<Vec<super::Reply>, AppError> {
    let mut pings = Vec::new();
    if let Some(own) = shown {
        let mut waits = declared;
        waits.extend(own_turn);
        let open = own.status == Status::Open;
        pings = super::waits::settle(tx, caller, own.id, open, waits).await?;
    }
    for (id, open, wait) in moved_turns {
        let waits = wait.into_iter().collect();
        pings.extend(super::waits::settle(tx, caller, id, open, waits).await?);
    }
    Ok(pings)
}

/// The other posted messages of the game's [`Scope::CARD_KINDS`] that show
/// a sheet that changed (not `own`, the outcome's session).
async fn cards<G: Scope>(
    tx: &mut Act,
    caller: &Caller,
    own: Option<i64>,
    changed: &[i64],
) -> Result<Vec<Session>, AppError> {
    let mut redraw = Vec::new();
    for kind in G::CARD_KINDS {
        let open = storage::sessions::latest_open_in_guild(tx, caller.guild_id, kind, REDRAW_LIMIT)
            .await?;
        redraw.extend(open.into_iter().filter(|s| {
            let posted = s.message_id.is_some() || s.token.is_some();
            own != Some(s.id) && posted && G::shows(s).is_some_and(|c| changed.contains(&c))
        }));
    }
    Ok(redraw)
}

/// Brings the trackers of [`Scope::TRACKER_KINDS`] running in the
/// caller's channel in step with the sheets the outcome saved (`touched`) ([`Scope::follow`]),
/// saves them, and returns them as saved, to redraw (not `own`, the
/// outcome's session, which the action keeps in step itself).
async fn follow_trackers<G: Scope>(
    tx: &mut Act,
    caller: &Caller,
    own: Option<i64>,
    touched: &[i64],
    notes: &[String],
    settings: &G::Settings,
) -> Result<Vec<Session>, AppError> {
    let mut out = Vec::new();
    if touched.is_empty() {
        return Ok(out);
    }
    for kind in G::TRACKER_KINDS {
        let running = storage::sessions::latest_open_in_channel(
            tx,
            caller.guild_id,
            caller.channel_id,
            kind,
            1,
        )
        .await?;
        for s in running.into_iter().filter(|s| own != Some(s.id)) {
            let Some(f) = G::follow(tx, &s, touched, notes, settings).await? else {
                continue;
            };
            // A tracker never expires (one per channel, until it ends).
            sessions::save_json(tx, &s, &f.state, f.status, None).await?;
            let saved = storage::sessions::get(tx, caller.guild_id, s.id)
                .await?
                .ok_or_else(|| AppError::Internal("a followed tracker is missing".into()))?;
            out.push(saved);
        }
    }
    Ok(out)
}

/// Writes an outcome's session: creates it (closed at once unless it
/// waits for a choice) or saves it, version-checked. A new session is the
/// caller's, secret exactly when they act secretly: nothing of it is read
/// back (its number is counted only for a [`Scope::NUMBERED`] game).
async fn write_session<G: Scope>(
    tx: &mut Act,
    caller: &Caller,
    w: SessionWrite,
) -> Result<Shown, AppError> {
    match w {
        SessionWrite::New {
            kind,
            state,
            status,
            timeout,
        } => {
            let json = state?;
            let id = sessions::create_json(tx, caller, kind, &json, timeout).await?;
            let mut number = 0;
            if G::NUMBERED {
                let secret_of = caller.secret.then_some(caller.user_id);
                number =
                    storage::sessions::count_seen(tx, caller.guild_id, kind, id, secret_of).await?;
            }
            let mut version = 0;
            if status != Status::Open {
                let at = tx.now_ms();
                version = storage::sessions::update(tx, id, 0, &json, status, None, at)
                    .await?
                    .ok_or_else(|| {
                        AppError::Internal("new session changed under a write lock".into())
                    })?;
            }
            Ok(Shown {
                id,
                version,
                status,
                number,
                created: true,
            })
        }
        SessionWrite::Save {
            session,
            state,
            status,
            timeout,
        } => {
            let version = sessions::save_json(tx, &session, &state?, status, timeout).await?;
            let number = match G::NUMBERED {
                true => secret::number(tx, &session).await?,
                false => 0,
            };
            Ok(Shown {
                id: session.id,
                version,
                status,
                number,
                created: false,
            })
        }
    }
}

/// Saves the other sessions an outcome moved on ([`Outcome::moved`]),
/// each version-checked, and returns them as they now stand, to redraw.
async fn save_moved(tx: &mut Act, guild: i64, moved: Vec<Moved>) -> Result<Vec<Session>, AppError> {
    let mut out = Vec::new();
    for m in moved {
        sessions::save_json(tx, &m.session, &m.state?, m.status, m.timeout).await?;
        let row = storage::sessions::get(tx, guild, m.session.id)
            .await?
            .ok_or_else(|| AppError::Internal("a moved session is missing".into()))?;
        if row.message_id.is_some() || row.token.is_some() {
            out.push(row);
        }
    }
    Ok(out)
}

/// Another session an outcome moves on besides its own (a running
/// tracker that shows the changed sheet, a register that lost dice).
struct Moved {
    session: Session,
    state: Result<String, serde_json::Error>,
    status: Status,
    timeout: Option<u32>,
}

/// The session an outcome wrote, as its message shows it.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Shown {
    /// Its id (0 when the outcome wrote none).
    pub id: i64,
    /// Its version after the write.
    pub version: i64,
    /// Its status after the write.
    pub status: Status,
    /// Its number among the channel's sessions of its kind (0 unless
    /// the game is [`Scope::NUMBERED`]).
    pub number: i64,
    /// The outcome created it (it is the caller's, secret exactly when
    /// they act secretly).
    created: bool,
}

/// An outcome's session write.
enum SessionWrite {
    New {
        kind: &'static str,
        state: Result<String, serde_json::Error>,
        status: Status,
        timeout: Option<u32>,
    },
    Save {
        session: Session,
        state: Result<String, serde_json::Error>,
        status: Status,
        timeout: Option<u32>,
    },
}

/// How an outcome is drawn once saved.
type Draw = Box<dyn FnOnce(&Shown) -> Response + Send>;

/// What an action changed, as data (see the module comment).
pub struct Outcome<S> {
    session: Option<SessionWrite>,
    /// Other sessions it moved on ([`Outcome::moved`]).
    moved: Vec<Moved>,
    sheets: Vec<Loaded<S>>,
    log: Vec<Record>,
    draw: Draw,
    /// The game's house rules, changed ([`Outcome::settings`]).
    settings: Option<Result<String, serde_json::Error>>,
    notes: Vec<String>,
    also: Vec<Also>,
    /// Whom its session now waits on ([`Outcome::waits_on`]).
    waits: Vec<Wait>,
}

/// A write of the game's own rows that the pipeline does not know (the
/// guild's record of revealed Secrets, a channel's list), run in the
/// turn's transaction after the session and the sheets.
type Also = Box<dyn for<'t> FnOnce(&'t mut Tx) -> Writing<'t> + Send>;

/// A write of the game's own rows in the turn's transaction, under way
/// ([`Outcome::also`]).
pub type Writing<'t> = Pin<Box<dyn Future<Output = Result<(), AppError>> + Send + 't>>;

impl<S> Outcome<S> {
    /// An outcome answered by `draw`, given the session it wrote (the
    /// default [`Shown`] when it wrote none).
    pub fn new(draw: impl FnOnce(&Shown) -> Response + Send + 'static) -> Self {
        Outcome {
            session: None,
            moved: Vec::new(),
            sheets: Vec::new(),
            log: Vec::new(),
            draw: Box::new(draw),
            settings: None,
            notes: Vec::new(),
            also: Vec::new(),
            waits: Vec::new(),
        }
    }

    /// Its session now waits on `who` for `what` ("Bea's willpower
    /// choice"): in a play-by-post game the wait is recorded and `who`
    /// pinged once, in the game's channel ([`super::waits`]). An open
    /// session that declares no wait waits on nobody (its earlier waits are
    /// dropped); a closed one waits on nobody anyway.
    pub fn waits_on(mut self, who: Waiter, what: impl Into<String>) -> Self {
        self.waits.push(Wait::on(who, what));
        self
    }

    /// An outcome answered with `response`.
    pub fn answer(response: Response) -> Self {
        Self::new(move |_| response)
    }

    /// Starts a session of `kind` holding `state`; one that is not
    /// [`Status::Open`] is closed at once (a roll with no choice pending),
    /// an open one expires after `timeout` minutes.
    pub fn start(
        mut self,
        kind: &'static str,
        state: &impl Serialize,
        status: Status,
        timeout: Option<u32>,
    ) -> Self {
        self.session = Some(SessionWrite::New {
            kind,
            state: serde_json::to_string(state),
            status,
            timeout,
        });
        self
    }

    /// Saves `session` (as read in the turn) with a new state and status,
    /// version-checked; an open one's expiry moves `timeout` minutes on.
    pub fn save(
        mut self,
        session: Session,
        state: &impl Serialize,
        status: Status,
        timeout: Option<u32>,
    ) -> Self {
        self.session = Some(SessionWrite::Save {
            session,
            state: serde_json::to_string(state),
            status,
            timeout,
        });
        self
    }

    /// Also saves `session` (another one than the outcome's own, as read
    /// in the turn: a running tracker that shows a changed sheet, an open
    /// register that lost dice) with a new state and status,
    /// version-checked, and redraws its posted message after the commit
    /// ([`Reply::Edit`](super::Reply::Edit), before the sheet cards).
    pub fn moved(
        mut self,
        session: Session,
        state: &impl Serialize,
        status: Status,
        timeout: Option<u32>,
    ) -> Self {
        self.moved.push(Moved {
            session,
            state: serde_json::to_string(state),
            status,
            timeout,
        });
        self
    }

    /// Saves a changed sheet.
    pub fn sheet(mut self, c: Loaded<S>) -> Self {
        self.sheets.push(c);
        self
    }

    /// Adds a log entry.
    pub fn log(mut self, r: Record) -> Self {
        self.log.push(r);
        self
    }

    /// Saves the game's house rules as `settings` (the game's
    /// [`Scope::Settings`], changed by the action) where the caller acts:
    /// a live game's own in its channels, else the server's.
    pub fn settings(mut self, settings: &impl Serialize) -> Self {
        self.settings = Some(serde_json::to_string(settings));
        self
    }

    /// A line for the own log of a running tracker that shows a changed
    /// sheet ([`Scope::follow`]): "Ada: −2 HP".
    pub fn note(mut self, line: String) -> Self {
        self.notes.push(line);
        self
    }

    /// Adds a write of the game's own rows ([`Also`]): `write` gets the
    /// turn's transaction.
    pub fn also(
        mut self,
        write: impl for<'t> FnOnce(&'t mut Tx) -> Writing<'t> + Send + 'static,
    ) -> Self {
        self.also.push(Box::new(write));
        self
    }
}

/// Saves an outcome's changed house rules of `system` where the caller
/// acts ([`settings::system_scope`]): a live game's own in its channels
/// (the turn read them there), else the server's.
async fn write_settings(
    tx: &mut Act,
    caller: &Caller,
    system: &str,
    settings: Option<Result<String, serde_json::Error>>,
) -> Result<(), AppError> {
    if let Some(json) = settings {
        let json = json?;
        let scope = settings::system_scope(tx, caller, system).await?;
        storage::settings::put(tx, caller.guild_id, &scope, &json, storage::now_ms()).await?;
    }
    Ok(())
}

/// One log entry of an outcome: the game's typed records for the log's
/// `inputs`, `dice` and `outcome` columns (serialised here, read back by
/// the same types with [`log::column`]).
pub struct Record {
    action: String,
    character: Option<i64>,
    on_session: bool,
    session: Option<i64>,
    system: Option<String>,
    inputs: Result<String, serde_json::Error>,
    dice: Result<String, serde_json::Error>,
    outcome: Result<String, serde_json::Error>,
    faces: Vec<(u32, u32)>,
}

impl Record {
    /// An entry of `action` with what it was asked and what came of it;
    /// it threw no dice.
    pub fn new(action: &str, inputs: &impl Serialize, outcome: &impl Serialize) -> Self {
        Record {
            action: action.to_string(),
            character: None,
            on_session: false,
            session: None,
            system: None,
            inputs: serde_json::to_string(inputs),
            dice: serde_json::to_string(&()),
            outcome: serde_json::to_string(outcome),
            faces: Vec::new(),
        }
    }

    /// The dice it threw, and every die's `(sides, face)` for `/stats`
    /// (see [`log::record_faces`]).
    pub fn dice(mut self, dice: &impl Serialize, faces: Vec<(u32, u32)>) -> Self {
        self.dice = serde_json::to_string(dice);
        self.faces = faces;
        self
    }

    /// The character it is about (an id, or `None` when it is about none:
    /// an NPC, a roll without a sheet).
    pub fn character(mut self, id: impl Into<Option<i64>>) -> Self {
        self.character = id.into();
        self
    }

    /// It points at the session the outcome wrote.
    pub fn on_session(mut self) -> Self {
        self.on_session = true;
        self
    }

    /// It points at session `id`, one the outcome does not write (the
    /// running fight a save was made in); [`Record::on_session`] wins.
    pub fn session(mut self, id: Option<i64>) -> Self {
        self.session = id;
        self
    }

    /// It is about game `id`, not the turn's scope (a shared action of the
    /// [`Table`] on one game's character).
    pub fn system(mut self, id: &str) -> Self {
        self.system = Some(id.to_string());
        self
    }

    /// It points at session `id` rather than the one the outcome writes:
    /// one the action opened ahead ([`Turn::open_session`]), such as the
    /// register a tracker's call posts.
    pub fn at_session(mut self, id: i64) -> Self {
        self.session = Some(id);
        self.on_session = false;
        self
    }
}
