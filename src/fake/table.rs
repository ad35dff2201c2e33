//! A table of players around the real bot: starts the fake Discord and the
//! real serenity/poise bot against it, and plays script lines such as
//! `alice: /roll expression:2d6`, `alice: click Reroll` or
//! `fc: select Pick dice = 1,3`. Tests and `kismet sandbox` both use it, so
//! there is one way to drive the bot.

use serde_json::{json, Value};
use std::collections::{HashMap, HashSet};
use std::path::PathBuf;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};
use tokio::sync::oneshot;

use super::payloads::{self, Envelope};
use super::{FakeDiscord, Recorded, Schemas};
use crate::app::{App, RngSource};
use crate::bot::{self, BotOptions};
use crate::config::{Config, Registration, Secrets};
use crate::storage::Db;

/// The guild every table plays in, unless moved with [`Table::set_guild`].
pub const GUILD_ID: u64 = 800_000_000_000_000_001;
/// The channel.
pub const CHANNEL_ID: u64 = 800_000_000_000_000_002;
/// The role the FC names hold.
pub const FC_ROLE_ID: u64 = 800_000_000_000_000_003;

/// How long to wait for the bot before calling it a failure.
pub const TIMEOUT: Duration = Duration::from_secs(15);

/// How a table is set up.
#[derive(Clone)]
pub struct TableOptions {
    /// The SQLite file (unless [`TableOptions::database`] is set).
    pub db_path: PathBuf,
    /// A PostgreSQL database to use instead of the SQLite file (the tests
    /// with `KISMET_TEST_POSTGRES`); it is dropped with the last clone of
    /// these options.
    pub database: Option<std::sync::Arc<crate::storage::scratch::ScratchDb>>,
    /// Seed for every roll (reproducible runs).
    pub seed: Option<u64>,
    /// Member names that hold the FC role (and Manage Server).
    pub fc_names: Vec<String>,
    /// Fail to start without the OpenAPI file (tests); otherwise run
    /// unvalidated with a warning (the sandbox outside the source tree).
    pub require_schema: bool,
    /// Bot configuration.
    pub config: Config,
    /// Validate request bodies against the OpenAPI file (on by default; the
    /// pipeline benchmark measures with and without).
    pub validate: bool,
    /// Run the bot on this runtime instead of the caller's (the benchmark
    /// keeps the bot's threads apart from the fake's to account CPU time).
    pub bot_runtime: Option<tokio::runtime::Handle>,
    /// The bot's count of interactions in flight (a test can fill it up to
    /// `[load] max_in_flight` to see the bot turn interactions away).
    pub inflight: crate::lifecycle::InFlight,
    /// The bot's clock (a test moves a [`crate::app::Clock::manual`] one
    /// by days); by default the wall clock, which a script's `wait 3 days`
    /// moves ahead ([`crate::app::Clock::shifted`]).
    pub clock: crate::app::Clock,
}

impl TableOptions {
    /// Options for a database file, with the FC named `fc`.
    pub fn new(db_path: impl Into<PathBuf>) -> Self {
        Self {
            db_path: db_path.into(),
            database: None,
            seed: None,
            fc_names: vec!["fc".into()],
            require_schema: true,
            config: Config::defaults(),
            validate: true,
            bot_runtime: None,
            inflight: Default::default(),
            clock: crate::app::Clock::shifted(),
        }
    }
}

/// One reply of the bot, as a player sees it.
#[derive(Debug, Clone, PartialEq)]
pub struct Output {
    /// The member whose action it answers.
    pub to: String,
    /// `message`, `update`, `ephemeral` or `autocomplete`; `channel` for a
    /// message posted in another channel than the interaction's (a secret
    /// roll's copy in the GM channel) and `channel-update` for an edit there.
    pub kind: String,
    /// The body as sent to Discord (`content`, `embeds`, `components`, …).
    pub body: Value,
    /// The files uploaded with it: (file name, bytes).
    pub files: Vec<(String, Vec<u8>)>,
    /// The message it created or edited (for an edit, the edited one).
    pub message_id: Option<u64>,
}

impl Output {
    /// The JSON line of the sandbox contract: `to`, `kind`, `content`,
    /// `embeds`, `components`, and what else Discord gets: the
    /// `allowed_mentions`, the `flags`, the attached files (name, size) and
    /// the `message_id` it created or edited (a snowflake string, or null).
    pub fn contract_json(&self) -> Value {
        let attachments: Vec<Value> = self
            .files
            .iter()
            .map(|(name, bytes)| json!({"name": name, "size": bytes.len()}))
            .collect();
        json!({
            "to": self.to,
            "kind": self.kind,
            "content": self.body.get("content").cloned().unwrap_or(Value::Null),
            "embeds": self.body.get("embeds").cloned().unwrap_or(json!([])),
            "components": self.body.get("components").cloned().unwrap_or(json!([])),
            "allowed_mentions": self.body.get("allowed_mentions").cloned().unwrap_or(Value::Null),
            "flags": self.body.get("flags").cloned().unwrap_or(json!(0)),
            "attachments": attachments,
            "message_id": self.message_id.map(|id| id.to_string()),
        })
    }

    /// The text content, or "".
    pub fn content(&self) -> &str {
        self.body
            .get("content")
            .and_then(Value::as_str)
            .unwrap_or("")
    }

    /// The embeds.
    pub fn embeds(&self) -> Vec<Value> {
        self.body
            .get("embeds")
            .and_then(Value::as_array)
            .cloned()
            .unwrap_or_default()
    }

    /// The first embed's title, or "".
    pub fn title(&self) -> String {
        self.embeds()
            .first()
            .and_then(|e| e.get("title"))
            .and_then(Value::as_str)
            .unwrap_or("")
            .to_string()
    }

    /// The value of the first embed field with this name.
    pub fn field(&self, name: &str) -> Option<String> {
        self.embeds().iter().find_map(|e| {
            e.get("fields")?
                .as_array()?
                .iter()
                .find(|f| f.get("name").and_then(Value::as_str) == Some(name))
                .and_then(|f| f.get("value").and_then(Value::as_str))
                .map(str::to_string)
        })
    }

    /// All text of the reply (content, author lines, titles, descriptions,
    /// fields, footers), for assertions.
    pub fn text(&self) -> String {
        let mut out = self.content().to_string();
        for e in self.embeds() {
            for p in ["/author/name", "/title", "/description", "/footer/text"] {
                if let Some(s) = e.pointer(p).and_then(Value::as_str) {
                    out.push('\n');
                    out.push_str(s);
                }
            }
            for f in e
                .get("fields")
                .and_then(Value::as_array)
                .cloned()
                .unwrap_or_default()
            {
                out.push_str(&format!(
                    "\n{}: {}",
                    f.get("name").and_then(Value::as_str).unwrap_or(""),
                    f.get("value").and_then(Value::as_str).unwrap_or("")
                ));
            }
        }
        out
    }

    /// Every button: (label, custom_id, disabled).
    pub fn buttons(&self) -> Vec<(String, String, bool)> {
        components_of(&self.body)
            .into_iter()
            .filter(|c| c.get("type").and_then(Value::as_u64) == Some(2))
            .map(|c| {
                (
                    c.get("label")
                        .and_then(Value::as_str)
                        .unwrap_or("")
                        .to_string(),
                    c.get("custom_id")
                        .and_then(Value::as_str)
                        .unwrap_or("")
                        .to_string(),
                    c.get("disabled").and_then(Value::as_bool).unwrap_or(false),
                )
            })
            .collect()
    }
}

fn components_of(body: &Value) -> Vec<Value> {
    body.get("components")
        .and_then(Value::as_array)
        .into_iter()
        .flatten()
        .flat_map(|row| {
            row.get("components")
                .and_then(Value::as_array)
                .cloned()
                .unwrap_or_default()
        })
        .collect()
}

/// The answer to one action.
#[derive(Debug, Clone)]
pub struct Exchange {
    /// Every reply, in order.
    pub outputs: Vec<Output>,
    /// From the gateway event being sent to the first callback arriving.
    pub latency: Option<Duration>,
    /// The interaction id.
    pub interaction_id: u64,
    /// When the gateway event was sent.
    pub sent: Instant,
    /// The message the first reply created (or, for a click answered in
    /// place, the clicked message), to click its buttons later.
    pub message_id: Option<u64>,
}

impl Exchange {
    /// The only output; panics (in tests) when there is not exactly one.
    pub fn single(&self) -> &Output {
        assert_eq!(
            self.outputs.len(),
            1,
            "expected one reply, got {:#?}",
            self.outputs
        );
        &self.outputs[0]
    }

    /// The first output of a kind.
    pub fn of_kind(&self, kind: &str) -> Option<&Output> {
        self.outputs.iter().find(|o| o.kind == kind)
    }
}

struct Running {
    shards: Arc<serenity::all::ShardManager>,
    task: tokio::task::JoinHandle<()>,
    db: Db,
}

/// Which interactions the bot has fully answered: ids told before anyone
/// waited, and one waiter per id (so a thousand concurrent waits do not
/// wake each other).
#[derive(Default)]
struct Done {
    ids: Mutex<HashSet<u64>>,
    waiters: Mutex<HashMap<u64, oneshot::Sender<()>>>,
}

impl Done {
    fn finished(&self, id: u64) {
        let waiter = self
            .waiters
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .remove(&id);
        match waiter {
            Some(tx) => {
                let _ = tx.send(());
            }
            None => {
                self.ids
                    .lock()
                    .unwrap_or_else(|e| e.into_inner())
                    .insert(id);
            }
        }
    }

    /// Drops a wait that will not be needed (the interaction failed).
    fn forget(&self, id: u64) {
        self.waiters
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .remove(&id);
    }

    /// Registers a wait for `id` (before its interaction is sent).
    fn register(&self, id: u64) -> oneshot::Receiver<()> {
        let (tx, rx) = oneshot::channel();
        let already = self
            .ids
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .remove(&id);
        if already {
            let _ = tx.send(());
        } else {
            self.waiters
                .lock()
                .unwrap_or_else(|e| e.into_inner())
                .insert(id, tx);
        }
        rx
    }
}

/// Whether a recorded request registers the bot's global commands (a
/// bulk overwrite of `/applications/{id}/commands`, not a guild's).
fn is_global_registration(r: &Recorded) -> bool {
    r.method == "PUT" && r.path.ends_with("/commands") && !r.path.contains("/guilds/")
}

/// The fake Discord plus the running bot.
pub struct Table {
    /// The fake Discord.
    pub fake: FakeDiscord,
    opts: TableOptions,
    running: tokio::sync::Mutex<Option<Running>>,
    done: Arc<Done>,
    guild_id: AtomicU64,
    channel_id: AtomicU64,
    roles: Mutex<HashMap<String, Vec<u64>>>,
    /// Each channel's parent (a category, or a thread's channel), sent in
    /// the interaction as the channel's `parent_id`.
    parents: Mutex<HashMap<u64, u64>>,
    /// Tokens of interactions already answered and collected: an edit by one
    /// of them during a later action is that action's redraw of an earlier
    /// message (a tracker moved on by a command, `Reply::Edit`). Each token
    /// maps to its place in the order they were collected, so an action
    /// knows which were collected before it began by a count, without
    /// copying the set.
    answered: Mutex<HashMap<String, usize>>,
    /// The bot runs elsewhere (a child process): see [`Table::start_external`].
    external: bool,
}

impl Table {
    /// Starts the fake and the bot, and waits until commands are registered.
    pub async fn start(opts: TableOptions) -> Result<Table, String> {
        let table = Self::fake_only(opts, false).await?;
        table.start_bot().await?;
        Ok(table)
    }

    /// Starts only the fake Discord, for a bot that runs elsewhere (the
    /// crash tests run `kismet` as a child process pointed at
    /// [`FakeDiscord::base_url`]). Call [`Table::await_registration`] once
    /// the bot is started. Without an in-process bot, an interaction counts
    /// as answered when its first callback arrived (the bot commits before
    /// it answers); [`Table::db`], [`Table::stop`] and [`Table::restart`]
    /// do nothing.
    pub async fn start_external(opts: TableOptions) -> Result<Table, String> {
        Self::fake_only(opts, true).await
    }

    async fn fake_only(opts: TableOptions, external: bool) -> Result<Table, String> {
        let schemas =
            match Schemas::find() {
                _ if !opts.validate => None,
                Some(path) => Some(Schemas::load(&path)?),
                None if opts.require_schema => return Err(
                    "tests/data/discord/openapi.json was not found (set KISMET_DISCORD_OPENAPI)"
                        .into(),
                ),
                None => None,
            };
        let fake = FakeDiscord::start(schemas)
            .await
            .map_err(|e| format!("fake Discord: {e}"))?;
        let table = Table {
            fake,
            opts,
            running: tokio::sync::Mutex::new(None),
            done: Arc::new(Done::default()),
            answered: Mutex::new(HashMap::new()),
            guild_id: AtomicU64::new(GUILD_ID),
            channel_id: AtomicU64::new(CHANNEL_ID),
            roles: Mutex::new(HashMap::new()),
            parents: Mutex::new(HashMap::new()),
            external,
        };
        // The table's guild is one of the bot's: announced at connection
        // (GUILD_CREATE), where the bot registers the games' commands.
        table.fake.know_guild(GUILD_ID);
        Ok(table)
    }

    /// Whether request bodies are being validated.
    pub fn validating(&self) -> bool {
        self.fake.inner.schemas.is_some()
    }

    async fn start_bot(&self) -> Result<(), String> {
        let url = match &self.opts.database {
            Some(db) => db.url().to_string(),
            None => format!("sqlite://{}", self.opts.db_path.display()),
        };
        let rng = match self.opts.seed {
            Some(s) => RngSource::seeded(s),
            None => RngSource::Os,
        };
        let (tx, mut rx) = tokio::sync::mpsc::unbounded_channel::<u64>();
        let done = self.done.clone();
        tokio::spawn(async move {
            while let Some(id) = rx.recv().await {
                done.finished(id);
            }
        });
        let registrations_before = self.registrations().len();
        // The database, the client and everything they spawn live on the
        // bot's runtime (the caller's unless `bot_runtime` is set).
        let config = self.opts.config.clone();
        let inflight = self.opts.inflight.clone();
        let clock = self.opts.clock.clone();
        let api_base = self.fake.base_url();
        // This fake Discord holds no commands for the table's guild yet (a
        // sandbox's second run on the same `--db`): whatever the database
        // says was registered there is not, so the bot registers again.
        let guild = self.guild_id();
        let fresh = self.fake.commands_in(Some(guild)).is_none();
        let (ready_tx, ready_rx) = tokio::sync::oneshot::channel();
        let launch = async move {
            let db = match Db::open(&url, 8).await {
                Ok(db) => db,
                Err(e) => {
                    let _ = ready_tx.send(Err(format!("database {url}: {e}")));
                    return;
                }
            };
            let app =
                App::new(db.clone(), config, rng, crate::systems::registry()).with_clock(clock);
            if fresh {
                let id = i64::try_from(guild).unwrap_or(i64::MAX);
                if let Err(e) = crate::app::game_commands::forget_registered(&app, id).await {
                    let _ = ready_tx.send(Err(format!("database {url}: {e}")));
                    return;
                }
            }
            let built = bot::client(
                app,
                &Secrets::new("fake.token.kismet"),
                BotOptions {
                    api_base: Some(api_base),
                    registration: Registration::Global,
                    done: Some(tx),
                    inflight,
                },
                crate::systems::commands(),
            )
            .await;
            let mut client = match built {
                Ok(c) => c,
                Err(e) => {
                    let _ = ready_tx.send(Err(format!("bot client: {e}")));
                    return;
                }
            };
            let _ = ready_tx.send(Ok((client.shard_manager.clone(), db)));
            if let Err(e) = client.start().await {
                tracing::error!(%e, "bot stopped");
            }
        };
        let task = match &self.opts.bot_runtime {
            Some(rt) => rt.spawn(launch),
            None => tokio::spawn(launch),
        };
        let (shards, db) = ready_rx
            .await
            .map_err(|_| "the bot task ended before starting".to_string())??;
        *self.running.lock().await = Some(Running { shards, task, db });
        self.await_registration(registrations_before).await
    }

    /// How many command registrations the bot(s) made so far.
    pub fn registration_count(&self) -> usize {
        self.registrations().len()
    }

    /// Waits until a bot registers its commands: the shared ones globally
    /// (more than `before` global registrations so far) and, when the bot
    /// runs in this process, the games' in the table's guild (kept from an
    /// earlier run when a restart finds them unchanged). A bot in another
    /// process may not serve the table guild's shard; a command waits for
    /// the games' commands then ([`Table::command_in`]).
    pub async fn await_registration(&self, before: usize) -> Result<(), String> {
        let guild = self.guild_id();
        let external = self.external;
        self.fake
            .wait_for(TIMEOUT, |f| {
                let global = f
                    .requests()
                    .into_iter()
                    .filter(is_global_registration)
                    .count();
                let games = external || f.commands_in(Some(guild)).is_some();
                (global > before && games).then_some(())
            })
            .await
            .ok_or("the bot did not register its commands in time")?;
        Ok(())
    }

    /// The global registrations so far.
    fn registrations(&self) -> Vec<Recorded> {
        self.fake
            .requests()
            .into_iter()
            .filter(is_global_registration)
            .collect()
    }

    /// The commands a member of the table's guild sees, as Discord keeps
    /// them: the global ones, then the guild's own (a guild the bot never
    /// registered in, where a test moved the table, gets the definitions
    /// another guild has, as the bot would register there).
    pub fn registered(&self) -> Value {
        let mut all = self.fake.commands_in(None).unwrap_or_default();
        let guild = self
            .fake
            .commands_in(Some(self.guild_id()))
            .or_else(|| self.fake.commands_in_some_guild())
            .unwrap_or_default();
        all.extend(guild);
        Value::Array(all)
    }

    /// Stops the bot (the fake keeps running) and closes its database.
    pub async fn stop(&self) {
        if let Some(r) = self.running.lock().await.take() {
            r.shards.shutdown_all().await;
            let _ = tokio::time::timeout(Duration::from_secs(5), r.task).await;
            r.db.close().await;
        }
    }

    /// Stops and starts the bot on the same database (a restart).
    pub async fn restart(&self) -> Result<(), String> {
        if self.external {
            return Err("the bot runs outside this table: restart it there".into());
        }
        self.stop().await;
        self.start_bot().await
    }

    /// The database of the running bot (for assertions).
    pub async fn db(&self) -> Option<Db> {
        self.running.lock().await.as_ref().map(|r| r.db.clone())
    }

    /// Moves the table to another guild (to test isolation).
    pub fn set_guild(&self, guild_id: u64) {
        self.guild_id.store(guild_id, Ordering::SeqCst);
    }

    /// The current guild.
    pub fn guild_id(&self) -> u64 {
        self.guild_id.load(Ordering::SeqCst)
    }

    /// Moves the table to another channel of the guild (to click a message
    /// posted there, such as a secret roll's copy in the GM channel).
    pub fn set_channel(&self, channel_id: u64) {
        self.channel_id.store(channel_id, Ordering::SeqCst);
    }

    /// Puts `channel_id` under `parent_id` (a category, or the channel a
    /// thread is in): its interactions tell that parent.
    pub fn set_parent(&self, channel_id: u64, parent_id: u64) {
        self.parents
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .insert(channel_id, parent_id);
    }

    /// The parent of a channel, if it was given one ([`Table::set_parent`]).
    pub fn parent_of(&self, channel_id: u64) -> Option<u64> {
        self.parents
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .get(&channel_id)
            .copied()
    }

    /// The current channel.
    pub fn channel_id(&self) -> u64 {
        self.channel_id.load(Ordering::SeqCst)
    }

    /// The id of the channel a channel option names: `#table` is the
    /// table's own channel ([`CHANNEL_ID`]), `#name` another channel with a
    /// stable id, a number that id; any other word means the current channel.
    pub fn channel_id_of(&self, raw: &str) -> u64 {
        match raw.strip_prefix('#') {
            Some(name) if name.eq_ignore_ascii_case("table") => CHANNEL_ID,
            Some(name) => Self::user_id(&format!("channel:{name}")),
            None => raw.parse().unwrap_or_else(|_| self.channel_id()),
        }
    }

    /// Gives a member these roles (besides the FC's, for FC names), without
    /// any extra permission: e.g. a role the server named FC role.
    pub fn set_roles(&self, name: &str, roles: &[u64]) {
        self.roles
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .insert(name.to_lowercase(), roles.to_vec());
    }

    /// The id of a role option's value: `fc` is [`FC_ROLE_ID`], any other
    /// name a stable id of its own.
    pub fn role_id(name: &str) -> u64 {
        let name = name.trim_start_matches('@');
        if name.eq_ignore_ascii_case("fc") {
            FC_ROLE_ID
        } else {
            Self::user_id(&format!("role:{name}"))
        }
    }

    /// A member's stable id, derived from the name.
    pub fn user_id(name: &str) -> u64 {
        let mut h: u64 = 0xcbf29ce484222325;
        for b in name.to_lowercase().bytes() {
            h ^= u64::from(b);
            h = h.wrapping_mul(0x100000001b3);
        }
        100_000_000_000_000_000 + h % 800_000_000_000_000_000
    }

    fn is_fc(&self, name: &str) -> bool {
        self.opts
            .fc_names
            .iter()
            .any(|n| n.eq_ignore_ascii_case(name))
    }

    fn member(&self, name: &str) -> Value {
        let (mut roles, perms) = if self.is_fc(name) {
            (
                vec![FC_ROLE_ID],
                payloads::BASE_PERMISSIONS | payloads::MANAGE_GUILD,
            )
        } else {
            (vec![], payloads::BASE_PERMISSIONS)
        };
        if let Some(extra) = self
            .roles
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .get(&name.to_lowercase())
        {
            roles.extend(
                extra
                    .iter()
                    .filter(|r| !roles.contains(r))
                    .collect::<Vec<_>>(),
            );
        }
        payloads::member(Self::user_id(name), name, &roles, perms)
    }

    fn envelope(&self, who: &str) -> Envelope {
        self.envelope_in(self.guild_id(), who)
    }

    fn envelope_in(&self, guild_id: u64, who: &str) -> Envelope {
        let id = self.fake.next_id();
        let channel_id = self.channel_id.load(Ordering::SeqCst);
        Envelope {
            id,
            app_id: self.fake.app_id(),
            token: format!("token{id}"),
            guild_id,
            channel_id,
            parent_id: self.parent_of(channel_id),
            member: self.member(who),
        }
    }

    /// Plays one script line. Comments and blank lines give `None`. A line
    /// `NAME in #channel: …` plays in that channel of the guild (its id is
    /// [`Table::channel_id_of`] the name, so the channel exists from its
    /// first use), commands and clicks alike; the table's channel is the
    /// current one again afterwards. A line `wait 3 days` (or `2 hours`,
    /// `30 minutes`) moves the bot's clock ahead ([`TableOptions::clock`]:
    /// a manual or shifted one, as the sandbox's) and gives `None`.
    pub async fn run_line(&self, line: &str) -> Result<Option<(String, Exchange)>, String> {
        let line = line.trim();
        if line.is_empty() || line.starts_with('#') {
            return Ok(None);
        }
        if let Some(span) = line.strip_prefix("wait ") {
            let by = wait_span(span)?;
            self.opts
                .clock
                .advance(by)
                .ok_or("`wait`: this table's clock is the wall clock, which cannot be moved")?;
            return Ok(None);
        }
        let (who, rest) = line
            .split_once(':')
            .ok_or_else(|| format!("`{line}`: expected `NAME: /command …`, `NAME: click LABEL`, `NAME: tool LABEL` or `NAME: select PLACEHOLDER = values` (any of them as `NAME in #channel: …`)"))?;
        let (who, channel) = match who.split_once(" in ") {
            Some((who, place)) => {
                let place = place.trim();
                let name = place.strip_prefix('#').unwrap_or("");
                if name.is_empty()
                    || !name
                        .chars()
                        .all(|c| c.is_alphanumeric() || c == '_' || c == '-')
                {
                    return Err(format!(
                        "`{place}` is not a channel: write `NAME in #channel: …` (letters, digits, _ and - only)"
                    ));
                }
                (who, Some(self.channel_id_of(place)))
            }
            None => (who, None),
        };
        let who = who.trim();
        if who.is_empty()
            || !who
                .chars()
                .all(|c| c.is_alphanumeric() || c == '_' || c == '-')
        {
            return Err(format!(
                "`{who}` is not a member name (letters, digits, _ and - only)"
            ));
        }
        let Some(channel) = channel else {
            return self.run_action(who, rest).await;
        };
        let before = self.channel_id();
        self.set_channel(channel);
        let played = self.run_action(who, rest).await;
        self.set_channel(before);
        played
    }

    /// Plays the part of a script line after `NAME:` in the current
    /// channel.
    async fn run_action(
        &self,
        who: &str,
        rest: &str,
    ) -> Result<Option<(String, Exchange)>, String> {
        let rest = rest.trim();
        let exchange = if rest.starts_with('/') {
            self.command(who, rest).await?
        } else if let Some(label) = rest.strip_prefix("click ") {
            self.click(who, label.trim()).await?
        } else if let Some(label) = rest.strip_prefix("tool ") {
            // A game-master tool: ⚙, the tool, and its confirmation, each
            // a click of its own; the exchange is the last one.
            self.tool(who, label.trim()).await?
        } else if let Some(sel) = rest.strip_prefix("select ") {
            let (placeholder, values) = sel
                .split_once('=')
                .ok_or_else(|| format!("`{rest}`: expected `select PLACEHOLDER = v1,v2`"))?;
            let values: Vec<String> = values
                .split(',')
                .map(|v| v.trim().to_string())
                .filter(|v| !v.is_empty())
                .collect();
            self.select(who, placeholder.trim(), &values).await?
        } else {
            return Err(format!(
                "`{rest}`: expected `/command …`, `click LABEL`, `tool LABEL` or `select PLACEHOLDER = values`"
            ));
        };
        Ok(Some((who.to_string(), exchange)))
    }

    /// Runs a slash command typed as in Discord, e.g.
    /// `/roll expression:"3d6 + 2"`.
    pub async fn command(&self, who: &str, line: &str) -> Result<Exchange, String> {
        self.command_in(self.guild_id(), who, line).await
    }

    /// [`Table::command`] in a given guild (the table's guild is left as
    /// is), for many guilds at once.
    pub async fn command_in(
        &self,
        guild_id: u64,
        who: &str,
        line: &str,
    ) -> Result<Exchange, String> {
        if self.fake.commands_in_some_guild().is_none() {
            // The games' commands come with a guild's announcement, a
            // moment after the bot connects (another process, say).
            self.fake
                .wait_for(TIMEOUT, |f| f.commands_in_some_guild().map(drop))
                .await;
        }
        let data = self.command_data(who, line)?;
        let env = self.envelope_in(guild_id, who);
        let payload = payloads::command(&env, data);
        self.exchange(who, env, payload, None, true).await
    }

    /// The interaction `data` the driver builds for a typed command line
    /// (checked as Discord's client checks it), for a fuzzer to tamper with
    /// before [`Table::command_raw`].
    pub fn command_payload(&self, who: &str, line: &str) -> Result<Value, String> {
        self.command_data(who, line)
    }

    /// Sends a command interaction with any `data`, even one Discord would
    /// refuse (out-of-range values, missing options).
    pub async fn command_raw(&self, who: &str, data: Value) -> Result<Exchange, String> {
        let env = self.envelope(who);
        let payload = payloads::command(&env, data);
        self.exchange(who, env, payload, None, true).await
    }

    /// Asks for autocomplete choices while typing `option` of a command line.
    pub async fn autocomplete(
        &self,
        who: &str,
        line: &str,
        focused: &str,
    ) -> Result<Vec<Value>, String> {
        let mut data = self.command_data(who, line)?;
        mark_focused(&mut data["options"], focused);
        let env = self.envelope(who);
        let payload = payloads::autocomplete(&env, data);
        let ex = self.exchange(who, env, payload, None, false).await?;
        let out = ex.of_kind("autocomplete").ok_or("no autocomplete answer")?;
        Ok(out
            .body
            .get("choices")
            .and_then(Value::as_array)
            .cloned()
            .unwrap_or_default())
    }

    /// Presses the enabled button labelled `label` on the most recent message
    /// `who` can see that has one.
    pub async fn click(&self, who: &str, label: &str) -> Result<Exchange, String> {
        let uid = Self::user_id(who);
        let (message_id, custom_id) = self
            .find_component(uid, |c| {
                c.get("type").and_then(Value::as_u64) == Some(2)
                    && c.get("label")
                        .and_then(Value::as_str)
                        .is_some_and(|l| l.eq_ignore_ascii_case(label))
            })
            .ok_or_else(|| format!("{who} sees no enabled button labelled `{label}`"))?;
        self.click_custom_id(who, message_id, &custom_id, None)
            .await
    }

    /// Uses a game-master tool labelled `label` on the most recent roll
    /// `who` can see: presses its ⚙ button (which opens the private panel,
    /// [`crate::app::gm_panel`]), the tool, and "Yes, …" when the panel asks
    /// to confirm. Returns the last exchange (the tool's own). Without a ⚙
    /// button in sight, a tool shown on a message is pressed directly.
    pub async fn tool(&self, who: &str, label: &str) -> Result<Exchange, String> {
        let uid = Self::user_id(who);
        let shown = |l: &str| {
            let want = l.to_string();
            self.find_component(uid, move |c| {
                c.get("type").and_then(Value::as_u64) == Some(2)
                    && c.get("label")
                        .and_then(Value::as_str)
                        .is_some_and(|x| x.eq_ignore_ascii_case(&want))
            })
        };
        // A fresh panel from the newest ⚙ (an older panel may be stale).
        let opener = self.find_component(uid, |c| {
            c.get("custom_id")
                .and_then(Value::as_str)
                .is_some_and(|id| id.ends_with(crate::app::gm_panel::OPEN))
        });
        if let Some((message_id, open)) = opener {
            let ex = self.click_custom_id(who, message_id, &open, None).await?;
            if shown(label).is_none() {
                let said: Vec<String> = ex.outputs.iter().map(Output::text).collect();
                return Err(format!(
                    "the panel {who} opened has no `{label}`: {}",
                    said.join(" | ")
                ));
            }
        }
        let mut ex = self.click(who, label).await?;
        let yes = format!("Yes, {label}");
        let asks = ex
            .outputs
            .iter()
            .any(|o| o.buttons().iter().any(|b| b.0.eq_ignore_ascii_case(&yes)));
        if asks {
            ex = self.click(who, &yes).await?;
        }
        // What the tool did to the roll, as a direct press would show it:
        // the panel's own update (a "⚙ …" title) is left out.
        ex.outputs.retain(|o| !o.title().starts_with("⚙ "));
        Ok(ex)
    }

    /// Picks `values` in the select menu whose placeholder is `placeholder`.
    /// A value may be given as its option's label (as a member sees it):
    /// it is sent as that option's value.
    pub async fn select(
        &self,
        who: &str,
        placeholder: &str,
        values: &[String],
    ) -> Result<Exchange, String> {
        let uid = Self::user_id(who);
        let is_menu = |c: &Value| {
            c.get("type").and_then(Value::as_u64) == Some(3)
                && c.get("placeholder")
                    .and_then(Value::as_str)
                    .is_some_and(|p| p.eq_ignore_ascii_case(placeholder))
        };
        let (message_id, custom_id) = self
            .find_component(uid, is_menu)
            .ok_or_else(|| format!("{who} sees no select menu `{placeholder}`"))?;
        let options: Vec<Value> = self
            .fake
            .message_object(message_id)
            .map(|m| components_of(&m))
            .unwrap_or_default()
            .into_iter()
            .find(|c| c.get("custom_id").and_then(Value::as_str) == Some(custom_id.as_str()))
            .and_then(|c| c.get("options").and_then(Value::as_array).cloned())
            .unwrap_or_default();
        let field = |o: &Value, k: &str| o.get(k).and_then(Value::as_str).map(str::to_string);
        let values: Vec<String> = values
            .iter()
            .map(|v| {
                let is_value = options
                    .iter()
                    .any(|o| field(o, "value").as_deref() == Some(v));
                let by_label = options
                    .iter()
                    .find(|o| field(o, "label").is_some_and(|l| l.eq_ignore_ascii_case(v)));
                match by_label {
                    Some(o) if !is_value => field(o, "value").unwrap_or_else(|| v.clone()),
                    _ => v.clone(),
                }
            })
            .collect();
        self.click_custom_id(who, message_id, &custom_id, Some(&values))
            .await
    }

    /// Sends a component interaction with any custom_id (also forged ones).
    pub async fn click_custom_id(
        &self,
        who: &str,
        message_id: u64,
        custom_id: &str,
        values: Option<&[String]>,
    ) -> Result<Exchange, String> {
        self.click_custom_id_in(self.guild_id(), who, message_id, custom_id, values)
            .await
    }

    /// [`Table::click_custom_id`] in a given guild.
    pub async fn click_custom_id_in(
        &self,
        guild_id: u64,
        who: &str,
        message_id: u64,
        custom_id: &str,
        values: Option<&[String]>,
    ) -> Result<Exchange, String> {
        let message = self.fake.message_object(message_id).unwrap_or_else(|| {
            payloads::message(
                message_id,
                CHANNEL_ID,
                payloads::bot_user(self.fake.bot_id()),
                &json!({}),
                self.fake.app_id(),
            )
        });
        let env = self.envelope_in(guild_id, who);
        let payload = payloads::component(&env, message, custom_id, values);
        self.exchange(who, env, payload, Some(message_id), true)
            .await
    }

    fn find_component(&self, uid: u64, want: impl Fn(&Value) -> bool) -> Option<(u64, String)> {
        let guild_channel = self.channel_id.load(Ordering::SeqCst);
        self.fake.messages().iter().rev().find_map(|m| {
            if m.channel_id != guild_channel || m.ephemeral_to.is_some_and(|u| u != uid) {
                return None;
            }
            components_of(&m.body)
                .into_iter()
                .find(|c| want(c) && !c.get("disabled").and_then(Value::as_bool).unwrap_or(false))
                .and_then(|c| {
                    c.get("custom_id")
                        .and_then(Value::as_str)
                        .map(|id| (m.id, id.to_string()))
                })
        })
    }

    /// The most recent message (by id) that `who` can see, as stored.
    pub fn last_message_for(&self, who: &str) -> Option<super::StoredMessage> {
        let uid = Self::user_id(who);
        self.fake
            .messages()
            .into_iter()
            .rev()
            .find(|m| m.ephemeral_to.is_none_or(|u| u == uid))
    }

    async fn exchange(
        &self,
        who: &str,
        env: Envelope,
        payload: Value,
        source_message: Option<u64>,
        wait_done: bool,
    ) -> Result<Exchange, String> {
        let uid = Self::user_id(who);
        self.fake
            .expect_token(&env.token, uid, env.channel_id, source_message);
        let start_seq = self.fake.last_seq();
        let callback = self.fake.callback_of(&env.token);
        // Interactions answered before this one began: their tokens' edits
        // from now on are this action's (never a concurrent action's).
        let earlier = self.answered.lock().map(|a| a.len()).unwrap_or_default();
        let id = env.id;
        let done = (wait_done && !self.external).then(|| self.done.register(id));
        let sent = Instant::now();
        if let Err(e) = self.fake.dispatch("INTERACTION_CREATE", payload) {
            self.done.forget(id);
            return Err(e);
        }
        if let Some(done) = done {
            self.wait_done(id, done).await?;
        } else if wait_done {
            // Told by the fake when the callback is recorded (waking on every
            // request instead cost the benchmark's driver more than the bot).
            tokio::time::timeout(TIMEOUT, callback)
                .await
                .ok()
                .and_then(Result::ok)
                .ok_or_else(|| {
                    format!(
                        "the bot did not answer interaction {id} within {}s",
                        TIMEOUT.as_secs()
                    )
                })?;
        } else {
            let token = env.token.clone();
            self.fake
                .wait_for(TIMEOUT, |f| {
                    f.requests_since(start_seq, |_| true)
                        .iter()
                        .any(|r| {
                            r.token.as_deref() == Some(&token) && r.path.ends_with("/callback")
                        })
                        .then_some(())
                })
                .await
                .ok_or("no answer to the autocomplete request")?;
        }
        let requests: Vec<Recorded> = {
            let answered = self.answered.lock().unwrap_or_else(|e| e.into_inner());
            let before = |t: &String| answered.get(t).is_some_and(|&i| i < earlier);
            self.fake.requests_since(start_seq, |r| {
                r.method != "GET"
                    && (r.token.as_deref() == Some(env.token.as_str())
                        || (r.token.is_none() && r.path.starts_with("/channels/"))
                        || (r.method == "PATCH" && r.token.as_ref().is_some_and(before)))
            })
        };
        if let Ok(mut a) = self.answered.lock() {
            let next = a.len();
            a.entry(env.token.clone()).or_insert(next);
        }
        let latency = requests
            .iter()
            .find(|r| r.path.ends_with("/callback"))
            .map(|r| r.at.saturating_duration_since(sent));
        let outputs = outputs_of(who, &requests, env.channel_id);
        Ok(Exchange {
            outputs,
            latency,
            interaction_id: id,
            sent,
            message_id: self.fake.original_message(&env.token),
        })
    }

    async fn wait_done(&self, id: u64, done: oneshot::Receiver<()>) -> Result<(), String> {
        match tokio::time::timeout(TIMEOUT, done).await {
            Ok(Ok(())) => Ok(()),
            _ => {
                self.done.forget(id);
                Err(format!(
                    "the bot did not finish answering interaction {id} within {}s",
                    TIMEOUT.as_secs()
                ))
            }
        }
    }

    /// Builds the `data` of a command interaction from a typed line, using
    /// the registered command definitions for option types, as Discord's
    /// client does (it also refuses what the client would refuse).
    fn command_data(&self, _who: &str, line: &str) -> Result<Value, String> {
        let tokens = tokenize(line)?;
        let (name, rest) = tokens.split_first().ok_or("empty command")?;
        let name = name
            .strip_prefix('/')
            .ok_or("a command starts with `/`")?
            .to_lowercase();
        let spec = self
            .registered()
            .as_array()
            .and_then(|cmds| {
                cmds.iter()
                    .find(|c| c.get("name").and_then(Value::as_str) == Some(name.as_str()))
            })
            .cloned()
            .ok_or_else(|| format!("there is no command `/{name}`"))?;
        let mut resolved = json!({});
        let options = self.build_options(&spec, rest, &mut resolved, &format!("/{name}"))?;
        let mut data = json!({
            "id": Self::user_id(&format!("cmd:{name}")).to_string(),
            "name": name,
            "type": 1,
            "options": options,
        });
        if resolved.as_object().is_some_and(|o| !o.is_empty()) {
            data["resolved"] = resolved;
        }
        Ok(data)
    }

    fn build_options(
        &self,
        spec: &Value,
        tokens: &[String],
        resolved: &mut Value,
        path: &str,
    ) -> Result<Vec<Value>, String> {
        let spec_opts = spec
            .get("options")
            .and_then(Value::as_array)
            .cloned()
            .unwrap_or_default();
        if let Some((first, rest)) = tokens.split_first() {
            if !first.contains(':') {
                let sub = spec_opts
                    .iter()
                    .find(|o| {
                        matches!(o.get("type").and_then(Value::as_u64), Some(1) | Some(2))
                            && o.get("name").and_then(Value::as_str)
                                == Some(first.to_lowercase().as_str())
                    })
                    .ok_or_else(|| format!("`{path}` has no subcommand `{first}`"))?;
                let kind = sub["type"].as_u64().unwrap_or(1);
                let inner = self.build_options(sub, rest, resolved, &format!("{path} {first}"))?;
                return Ok(vec![
                    json!({"type": kind, "name": first.to_lowercase(), "options": inner}),
                ]);
            }
        }
        if spec_opts
            .iter()
            .any(|o| matches!(o.get("type").and_then(Value::as_u64), Some(1) | Some(2)))
        {
            let subs: Vec<&str> = spec_opts
                .iter()
                .filter_map(|o| o.get("name").and_then(Value::as_str))
                .collect();
            return Err(format!("`{path}` needs a subcommand: {}", subs.join(", ")));
        }
        let mut out = Vec::new();
        for tok in tokens {
            let (oname, raw) = tok
                .split_once(':')
                .ok_or_else(|| format!("`{tok}`: options are written `name:value`"))?;
            let oname = oname.to_lowercase();
            let o = spec_opts
                .iter()
                .find(|o| o.get("name").and_then(Value::as_str) == Some(oname.as_str()))
                .ok_or_else(|| {
                    let names: Vec<&str> = spec_opts
                        .iter()
                        .filter_map(|o| o.get("name").and_then(Value::as_str))
                        .collect();
                    format!(
                        "`{path}` has no option `{oname}` (options: {})",
                        names.join(", ")
                    )
                })?;
            let value = self
                .option_value(o, raw, resolved)
                .map_err(|e| format!("`{path}` option `{oname}`: {e}"))?;
            let kind = o["type"].as_u64().unwrap_or(3);
            out.push(json!({"type": kind, "name": oname, "value": value}));
        }
        for o in &spec_opts {
            let required = o.get("required").and_then(Value::as_bool).unwrap_or(false);
            let n = o.get("name").and_then(Value::as_str).unwrap_or("");
            if required && !out.iter().any(|v| v["name"] == n) {
                return Err(format!("`{path}` needs the option `{n}`"));
            }
        }
        Ok(out)
    }

    fn option_value(&self, o: &Value, raw: &str, resolved: &mut Value) -> Result<Value, String> {
        if let Some(choices) = o
            .get("choices")
            .and_then(Value::as_array)
            .filter(|c| !c.is_empty())
        {
            return choice_value(choices, raw);
        }
        let kind = o.get("type").and_then(Value::as_u64).unwrap_or(3);
        match kind {
            3 => {
                let len = raw.chars().count() as u64;
                if let Some(max) = o.get("max_length").and_then(Value::as_u64) {
                    if len > max {
                        return Err(format!("at most {max} characters"));
                    }
                }
                if let Some(min) = o.get("min_length").and_then(Value::as_u64) {
                    if len < min {
                        return Err(format!("at least {min} characters"));
                    }
                }
                Ok(json!(raw))
            }
            4 => {
                let v: i64 = raw
                    .parse()
                    .map_err(|_| format!("`{raw}` is not a whole number"))?;
                num_bounds(o, v as f64)?;
                Ok(json!(v))
            }
            10 => {
                let v: f64 = raw
                    .parse()
                    .map_err(|_| format!("`{raw}` is not a number"))?;
                num_bounds(o, v)?;
                Ok(json!(v))
            }
            5 => match raw.to_ascii_lowercase().as_str() {
                "true" | "yes" => Ok(json!(true)),
                "false" | "no" => Ok(json!(false)),
                _ => Err(format!("`{raw}` is not true or false")),
            },
            6..=9 => Ok(self.resolved_value(kind, raw, resolved)),
            11 => self.attachment_value(raw, resolved),
            other => Err(format!(
                "option type {other} is not supported by the driver"
            )),
        }
    }

    /// An attachment option (type 11), written `@PATH`: a local file, sent
    /// as Discord sends an attachment (kept by the fake, named in
    /// `resolved`); its value is the attachment's id.
    fn attachment_value(&self, raw: &str, resolved: &mut Value) -> Result<Value, String> {
        let path = raw
            .strip_prefix('@')
            .ok_or_else(|| format!("`{raw}`: an attachment is written `@PATH`"))?;
        let bytes = std::fs::read(path).map_err(|e| format!("`{path}`: {e}"))?;
        let filename = std::path::Path::new(path)
            .file_name()
            .map_or("file".into(), |n| n.to_string_lossy().into_owned());
        let attachment = self.fake.upload(&filename, bytes);
        let id = attachment["id"].clone();
        resolved["attachments"][id.as_str().unwrap_or("0")] = attachment;
        Ok(id)
    }

    /// A user, member, channel or role option (types 6 to 9): its id, the
    /// object itself added to the interaction's `resolved`.
    fn resolved_value(&self, kind: u64, raw: &str, resolved: &mut Value) -> Value {
        match kind {
            7 => {
                let id = self.channel_id_of(raw);
                resolved["channels"][id.to_string()] = json!({"id": id.to_string(), "type": 0, "name": raw, "permissions": "2147483647"});
                json!(id.to_string())
            }
            8 => {
                let id = Self::role_id(raw);
                resolved["roles"][id.to_string()] = json!({"id": id.to_string(), "name": raw, "color": 0, "hoist": false, "position": 1, "permissions": "0", "managed": false, "mentionable": true, "flags": 0, "colors": {"primary_color": 0, "secondary_color": null, "tertiary_color": null}, "icon": null, "unicode_emoji": null});
                json!(id.to_string())
            }
            _ => {
                let name = raw.trim_start_matches('@');
                let id = Self::user_id(name);
                let member = self.member(name);
                resolved["users"][id.to_string()] = member["user"].clone();
                let mut m = member.clone();
                if let Some(o) = m.as_object_mut() {
                    o.remove("user");
                }
                resolved["members"][id.to_string()] = m;
                json!(id.to_string())
            }
        }
    }
}

/// A typed value of an option with choices: the choice it names (by name
/// or value, any case), else why not.
fn choice_value(choices: &[Value], raw: &str) -> Result<Value, String> {
    let hit = choices.iter().find(|c| {
        c.get("name")
            .and_then(Value::as_str)
            .is_some_and(|n| n.eq_ignore_ascii_case(raw))
            || c.get("value").is_some_and(|v| {
                v.as_str()
                    .map_or(raw.parse::<f64>().ok() == v.as_f64(), |s| {
                        s.eq_ignore_ascii_case(raw)
                    })
            })
    });
    match hit {
        Some(c) => Ok(c["value"].clone()),
        None => {
            let names: Vec<&str> = choices
                .iter()
                .filter_map(|c| c.get("name").and_then(Value::as_str))
                .collect();
            Err(format!("`{raw}` is not one of: {}", names.join(", ")))
        }
    }
}

/// Checks a number against the option's `min_value` and `max_value`.
fn num_bounds(o: &Value, v: f64) -> Result<(), String> {
    if let Some(min) = o.get("min_value").and_then(Value::as_f64) {
        if v < min {
            return Err(format!("{v} is below the minimum {min}"));
        }
    }
    if let Some(max) = o.get("max_value").and_then(Value::as_f64) {
        if v > max {
            return Err(format!("{v} is above the maximum {max}"));
        }
    }
    Ok(())
}

fn mark_focused(options: &mut Value, focused: &str) {
    if let Some(arr) = options.as_array_mut() {
        for o in arr {
            if o.get("name").and_then(Value::as_str) == Some(focused) && o.get("value").is_some() {
                o["focused"] = json!(true);
            }
            if let Some(inner) = o.get_mut("options") {
                mark_focused(inner, focused);
            }
        }
    }
}

/// The span of a `wait` line: a whole number of minutes, hours or days
/// (`3 days`, `1 day`, `2 hours`, `30 minutes`), at most 366 days.
fn wait_span(span: &str) -> Result<std::time::Duration, String> {
    let bad =
        || format!("`wait {span}`: expected `wait N days`, `wait N hours` or `wait N minutes`");
    let (n, unit) = span.trim().split_once(' ').ok_or_else(bad)?;
    let n: u64 = n.parse().map_err(|_| bad())?;
    let minutes = match unit.trim() {
        "day" | "days" => n.checked_mul(24 * 60),
        "hour" | "hours" => n.checked_mul(60),
        "minute" | "minutes" => Some(n),
        _ => return Err(bad()),
    }
    .filter(|m| (1..=366 * 24 * 60).contains(m))
    .ok_or_else(bad)?;
    Ok(std::time::Duration::from_secs(minutes * 60))
}

/// Splits a command line into tokens: words, and `name:value` pairs whose
/// value may be quoted (`name:"a b"`, with `\"` for a quote).
pub fn tokenize(line: &str) -> Result<Vec<String>, String> {
    let mut out = Vec::new();
    let mut cur = String::new();
    let mut chars = line.chars().peekable();
    while let Some(c) = chars.next() {
        match c {
            c if c.is_whitespace() => {
                if !cur.is_empty() {
                    out.push(std::mem::take(&mut cur));
                }
            }
            '"' => {
                let mut closed = false;
                while let Some(q) = chars.next() {
                    match q {
                        '\\' => {
                            if let Some(n) = chars.next() {
                                cur.push(n);
                            }
                        }
                        '"' => {
                            closed = true;
                            break;
                        }
                        other => cur.push(other),
                    }
                }
                if !closed {
                    return Err(format!("unclosed quote in `{line}`"));
                }
            }
            other => cur.push(other),
        }
    }
    if !cur.is_empty() {
        out.push(cur);
    }
    Ok(out)
}

/// Turns the requests answering one interaction (in `channel`) into replies.
fn outputs_of(who: &str, requests: &[Recorded], channel: u64) -> Vec<Output> {
    let elsewhere = |path: &str| {
        path.split('/')
            .nth(2)
            .and_then(|c| c.parse::<u64>().ok())
            .is_some_and(|c| c != channel)
    };
    let mut out = Vec::new();
    let mut deferred: Option<(bool, u64)> = None; // (update?, flags)
    for r in requests {
        let flags_of = |v: &Value| v.get("flags").and_then(Value::as_u64).unwrap_or(0);
        let msg_kind = |v: &Value| {
            if flags_of(v) & 64 != 0 {
                "ephemeral"
            } else {
                "message"
            }
        };
        let files: Vec<(String, Vec<u8>)> = r
            .files
            .iter()
            .map(|(_, name, bytes)| (name.clone(), bytes.clone()))
            .collect();
        let push = |out: &mut Vec<Output>, kind: &str, body: &Value| {
            out.push(Output {
                to: who.to_string(),
                kind: kind.to_string(),
                body: body.clone(),
                files: files.clone(),
                message_id: r.message_id,
            })
        };
        if r.status >= 400 {
            continue;
        }
        if r.path.ends_with("/callback") {
            let data = r.body.get("data").cloned().unwrap_or(json!({}));
            match r.body.get("type").and_then(Value::as_u64) {
                Some(4) => push(&mut out, msg_kind(&data), &data),
                Some(7) => push(&mut out, "update", &data),
                Some(5) => deferred = Some((false, flags_of(&data))),
                Some(6) => deferred = Some((true, 0)),
                Some(8) => push(&mut out, "autocomplete", &data),
                _ => {}
            }
        } else if r.method == "PATCH" && r.path.ends_with("/messages/@original") {
            match deferred.take() {
                Some((false, flags)) => push(
                    &mut out,
                    if flags & 64 != 0 {
                        "ephemeral"
                    } else {
                        "message"
                    },
                    &r.body,
                ),
                _ => push(&mut out, "update", &r.body),
            }
        } else if r.method == "POST" && r.path.starts_with("/webhooks/") {
            push(&mut out, msg_kind(&r.body), &r.body);
        } else if r.method == "POST" && r.path.starts_with("/channels/") {
            let kind = if elsewhere(&r.path) {
                "channel"
            } else {
                "message"
            };
            push(&mut out, kind, &r.body);
        } else if r.method == "PATCH" && r.path.starts_with("/channels/") && elsewhere(&r.path) {
            push(&mut out, "channel-update", &r.body);
        } else if r.method == "PATCH" {
            push(&mut out, "update", &r.body);
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tokenizer_reads_quotes() {
        assert_eq!(
            tokenize(r#"/ve task ability:Wits note:"a \"b\" c" n:3"#).unwrap(),
            vec!["/ve", "task", "ability:Wits", r#"note:a "b" c"#, "n:3"]
        );
        assert!(tokenize(r#"/x a:"open"#).is_err());
    }

    #[test]
    fn a_wait_line_reads_days_hours_and_minutes() {
        assert_eq!(wait_span("3 days").unwrap().as_secs(), 3 * 86_400);
        assert_eq!(wait_span("1 day").unwrap().as_secs(), 86_400);
        assert_eq!(wait_span("2 hours").unwrap().as_secs(), 7_200);
        assert_eq!(wait_span("30 minutes").unwrap().as_secs(), 1_800);
        for bad in [
            "0 days",
            "367 days",
            "3",
            "three days",
            "3 weeks",
            "-1 days",
        ] {
            assert!(wait_span(bad).is_err(), "{bad}");
        }
    }

    #[test]
    fn user_ids_are_stable_and_distinct() {
        assert_eq!(Table::user_id("alice"), Table::user_id("Alice"));
        assert_ne!(Table::user_id("alice"), Table::user_id("bob"));
        assert!(Table::user_id("zed") < i64::MAX as u64);
    }
}
