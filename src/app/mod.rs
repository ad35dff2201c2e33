//! The application layer: commands and button clicks in, a
//! transport-neutral [`Response`] out. It checks rights, runs one database
//! transaction per action, and knows nothing of serenity.
//!
//! Module map:
//! - [`act`]: [`Act`], an action's one write transaction.
//! - [`view`]: the embed/button model and Discord's size limits.
//! - [`component`]: the custom_id format and the global click dispatcher.
//! - [`settings`]: guild settings (shared and per system).
//! - [`rights`]: who is the FC.
//! - [`games`]: many games on one server: which game an action is in, its game masters.
//! - [`characters`]: finding, creating and saving sheets.
//! - [`sessions`]: creating and saving interactive sessions.
//! - [`log`]: writing the roll log.
//! - [`pending`]: a settled outcome, drawn once committed.
//! - [`pipeline`]: one action pipeline: a turn in, an outcome saved, logged, committed and drawn.
//! - [`change`]: a governed change (`player_edits`): what it does, and its outcome in a turn.
//! - [`expiry`]: closing idle sessions and disabling their buttons.
//! - [`clock`]: the time, injected (the wall clock, or one moved by hand in tests).
//! - [`departures`]: a server that removed the bot: its data deleted after the grace period.
//! - [`gm_panel`]: the game master's tools, folded behind one button into a private panel.
//! - [`secret`]: secret rolls (the roller and the FC only).
//! - [`present`]: what every answer goes through on its way out (the ⚙ fold, `verbosity`, secrecy).
//! - [`registry`]: the registered systems, reached without naming them.
//! - [`verbosity`]: the per-channel house rule that shortens results to one line.
//! - [`waits`]: whom a play-by-post game waits on, pinged once.

pub mod act;
pub mod change;
pub mod characters;
pub mod clock;
pub mod component;
pub mod custom_id;
pub mod departures;
pub mod expiry;
pub mod game_commands;
pub mod games;
pub mod gm_panel;
pub mod log;
pub mod pending;
pub mod pipeline;
pub mod present;
pub mod registry;
pub mod rights;
pub mod secret;
pub mod sessions;
pub mod settings;
pub mod turn_ping;
pub mod undo;
pub mod verbosity;
pub mod view;
pub mod waits;

use rand::rngs::StdRng;
use rand::SeedableRng;
use std::sync::atomic::AtomicBool;
use std::sync::{Arc, Mutex};

use crate::config::Config;
use crate::rules::RuleError;
use crate::storage::{Db, StorageError};
pub use act::Act;
pub use clock::Clock;
pub use registry::Registry;
pub use view::View;

/// Everything an action needs: the database, the configuration and the
/// source of randomness.
#[derive(Clone)]
pub struct App {
    /// The database.
    pub db: Db,
    /// The configuration.
    pub config: Arc<Config>,
    /// Where dice come from.
    pub rng: Arc<RngSource>,
    /// Every registered system.
    pub registry: Arc<Registry>,
    /// Set when the bot stops: long computations (odds) end at their next
    /// step instead of delaying the exit.
    pub stopping: Arc<AtomicBool>,
    /// What time it is, for the work that waits days (the deletion of a
    /// departed guild's data): the wall clock unless a test moves it.
    pub clock: Clock,
}

impl App {
    /// Bundles the parts.
    pub fn new(db: Db, config: Config, rng: RngSource, registry: Registry) -> Self {
        Self {
            db,
            config: Arc::new(config),
            rng: Arc::new(rng),
            registry: Arc::new(registry),
            stopping: Arc::new(AtomicBool::new(false)),
            clock: Clock::system(),
        }
    }

    /// The same, telling the time by `clock` (tests move a manual one).
    pub fn with_clock(mut self, clock: Clock) -> Self {
        self.clock = clock;
        self
    }
}

/// Where randomness comes from: the OS in production, a seed in tests and
/// the sandbox.
pub enum RngSource {
    /// Fresh OS entropy for every action.
    Os,
    /// A seeded stream: every action forks the next generator from it, so a
    /// sequence of actions is reproducible.
    Seeded(Mutex<Box<StdRng>>),
}

impl RngSource {
    /// A seeded source.
    pub fn seeded(seed: u64) -> Self {
        RngSource::Seeded(Mutex::new(Box::new(StdRng::seed_from_u64(seed))))
    }

    /// A generator for one action.
    pub fn fork(&self) -> StdRng {
        match self {
            RngSource::Os => StdRng::from_os_rng(),
            RngSource::Seeded(m) => {
                let mut parent = m.lock().unwrap_or_else(|e| e.into_inner());
                StdRng::from_rng(&mut **parent)
            }
        }
    }
}

/// Who is acting, where.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct Caller {
    /// The guild (commands are guild-only).
    pub guild_id: i64,
    /// The channel.
    pub channel_id: i64,
    /// The channel's parent, as the interaction tells it: a thread's
    /// channel, or a channel's category (which game an action is in:
    /// [`games::here`]).
    pub parent_id: Option<i64>,
    /// The user.
    pub user_id: i64,
    /// Their display name.
    pub name: String,
    /// Whether Discord says they may manage the server.
    pub manage_guild: bool,
    /// Their role ids.
    pub roles: Vec<i64>,
    /// A secret action: only the caller and the FC see it. Its log entries
    /// are marked secret ([`log::record_id`]), the sessions it starts stay
    /// secret ([`secret`]), and the adapter delivers its messages privately
    /// with a copy in the GM channel.
    pub secret: bool,
}

impl Caller {
    /// The same caller, acting secretly when `secret` is true.
    pub fn secretly(mut self, secret: bool) -> Self {
        self.secret = secret;
        self
    }

    /// Where the caller acts: their channel and its parent.
    pub fn place(&self) -> games::Place {
        games::Place {
            channel_id: self.channel_id,
            parent_id: self.parent_id,
        }
    }

    /// The same caller, acting at `place` (an approval runs the change
    /// where it was asked: [`Act::move_to`]).
    pub fn at(mut self, place: games::Place) -> Self {
        self.channel_id = place.channel_id;
        self.parent_id = place.parent_id;
        self
    }
}

/// How the reply is delivered.
#[derive(Debug, Clone, PartialEq)]
pub enum Reply {
    /// A new message everyone in the channel sees.
    Message(View),
    /// A message only the caller sees.
    Ephemeral(View),
    /// Replaces the message whose button was clicked.
    Update(View),
    /// Redraws the message already posted for the view's session
    /// ([`View::session`]) wherever it is: a tracker moved on by a command.
    /// Nothing is sent when that message is not known. As the first answer
    /// (a command must answer its caller) the caller gets a private "Done.".
    Edit(View),
}

/// The full answer to one action: a reply, then optional follow-ups
/// (messages or ephemeral notes).
#[derive(Debug, Clone, PartialEq)]
pub struct Response {
    /// The first answer.
    pub reply: Reply,
    /// Further messages, sent after the reply.
    pub followups: Vec<Reply>,
}

impl Response {
    /// A public message.
    pub fn message(view: View) -> Self {
        Self {
            reply: Reply::Message(view),
            followups: Vec::new(),
        }
    }

    /// A private note.
    pub fn ephemeral(view: View) -> Self {
        Self {
            reply: Reply::Ephemeral(view),
            followups: Vec::new(),
        }
    }

    /// An update of the clicked message.
    pub fn update(view: View) -> Self {
        Self {
            reply: Reply::Update(view),
            followups: Vec::new(),
        }
    }

    /// A private "done" note that redraws the session's posted message
    /// (a command that moved a tracker on).
    pub fn edit(note: impl Into<String>, view: View) -> Self {
        Self {
            reply: Reply::Ephemeral(View::text(note)),
            followups: vec![Reply::Edit(view)],
        }
    }

    /// Adds a follow-up.
    pub fn then(mut self, reply: Reply) -> Self {
        self.followups.push(reply);
        self
    }
}

/// Why an action did not happen.
#[derive(Debug)]
pub enum AppError {
    /// The user asked for something not allowed; the text says why.
    User(String),
    /// Another action changed the same state first (a version check
    /// failed), so nothing of this one was committed; the text says what.
    Conflict(String),
    /// The database failed; nothing was changed.
    Storage(StorageError),
    /// A bug or an impossible state.
    Internal(String),
    /// A bug or an impossible state, with the error that caused it (kept
    /// for the logs as [`std::error::Error::source`]).
    Caused {
        /// What the application was doing.
        doing: &'static str,
        /// The cause.
        source: Box<dyn std::error::Error + Send + Sync>,
    },
}

impl AppError {
    /// A refusal with a reason.
    pub fn user(msg: impl Into<String>) -> Self {
        AppError::User(msg.into())
    }

    /// The text shown to the user.
    pub fn user_message(&self) -> String {
        match self {
            AppError::User(m) => m.clone(),
            AppError::Conflict(_) => {
                "Someone changed this at the same moment, so nothing was changed. Look at it again and retry."
                    .to_string()
            }
            AppError::Storage(_) | AppError::Internal(_) | AppError::Caused { .. } => {
                "Something went wrong on our side, and nothing was changed. Please try again."
                    .to_string()
            }
        }
    }

    /// Whether the error is the application's or the database's fault (a
    /// refusal or a lost race is not): such errors are logged as errors.
    pub fn is_fault(&self) -> bool {
        !matches!(self, AppError::User(_) | AppError::Conflict(_))
    }

    /// The error and every cause under it, for the logs:
    /// `storage error: <the database's error>: <its cause>: …`. The
    /// [`Display`](std::fmt::Display) form names the direct cause already,
    /// so the chain is walked from the cause's own source.
    pub fn report(&self) -> String {
        let mut out = self.to_string();
        let mut cause = std::error::Error::source(self).and_then(|c| c.source());
        while let Some(c) = cause {
            out.push_str(": ");
            out.push_str(&c.to_string());
            cause = c.source();
        }
        out
    }
}

impl std::fmt::Display for AppError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            AppError::User(m) => write!(f, "refused: {m}"),
            AppError::Conflict(m) => write!(f, "conflict: {m}"),
            AppError::Storage(e) => write!(f, "storage error: {e}"),
            AppError::Internal(m) => write!(f, "internal error: {m}"),
            AppError::Caused { doing, source } => write!(f, "internal error: {doing}: {source}"),
        }
    }
}

impl std::error::Error for AppError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            AppError::Storage(e) => Some(e),
            AppError::Caused { source, .. } => Some(source.as_ref()),
            _ => None,
        }
    }
}

impl From<StorageError> for AppError {
    fn from(e: StorageError) -> Self {
        AppError::Storage(e)
    }
}

impl From<RuleError> for AppError {
    fn from(e: RuleError) -> Self {
        AppError::User(e.message)
    }
}

impl From<serde_json::Error> for AppError {
    fn from(e: serde_json::Error) -> Self {
        AppError::Caused {
            doing: "state (de)serialisation",
            source: Box::new(e),
        }
    }
}

/// The result of an action.
pub type AppResult = Result<Response, AppError>;

#[cfg(test)]
mod tests {
    use super::AppError;
    use std::error::Error as _;

    /// An internal error keeps its cause: the typed source for code, the
    /// whole chain for the logs, a plain apology for the user.
    #[test]
    fn internal_errors_keep_their_cause() {
        let bad = serde_json::from_str::<u8>("300").unwrap_err();
        let e = AppError::from(bad);
        let source = e.source().expect("a source");
        assert!(source.downcast_ref::<serde_json::Error>().is_some());
        assert!(e.is_fault());
        assert!(e
            .report()
            .starts_with("internal error: state (de)serialisation: "));
        assert!(e.report().contains("expected u8"), "{}", e.report());
        assert!(e
            .user_message()
            .starts_with("Something went wrong on our side"));
        let io = std::io::Error::other("disk on fire");
        let e = AppError::from(sqlx::Error::Io(io));
        assert!(e.source().unwrap().downcast_ref::<sqlx::Error>().is_some());
        assert!(e.report().contains("disk on fire"), "{}", e.report());
    }

    /// A lost race is neither the user's fault nor a bug: it says what to
    /// do, and is not logged as an error.
    #[test]
    fn a_conflict_is_typed_and_not_a_fault() {
        let e = AppError::Conflict("the session changed meanwhile".into());
        assert!(!e.is_fault());
        assert!(e.user_message().contains("nothing was changed"));
        assert!(e.source().is_none());
        assert!(!AppError::user("no").is_fault());
    }
}
