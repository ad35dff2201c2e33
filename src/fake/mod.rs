//! A fake Discord on 127.0.0.1: the HTTP API routes the bot uses and a
//! WebSocket gateway, for end-to-end tests and `kismet sandbox`.
//!
//! It records every request, keeps the messages the bot creates (so a
//! driver can click their buttons), and validates every request body against
//! Discord's OpenAPI schema ([`schema`]). It can also inject faults (HTTP
//! 500/429, a dropped gateway) for robustness tests. It never listens on
//! anything but the loopback interface.
//!
//! It shards as Discord does: `GET /gateway/bot` announces a shard count
//! ([`FakeDiscord::set_shard_count`], 1 by default), each shard connects on
//! its own (IDENTIFY with `shard: [id, count]`), and a guild's events go to
//! the shard `(guild_id >> 22) % shard_count` ([`shard_of`]).
//!
//! Module map:
//! - [`schema`]: request validation against `openapi.json`.
//! - [`payloads`]: the JSON it sends (READY, interactions, messages).
//! - [`table`]: a driver that runs the real bot against the fake and plays
//!   lines like `alice: /roll expression:2d6` (tests and the sandbox).

pub mod payloads;
pub mod rules;
pub mod schema;
pub mod table;

use axum::body::Bytes;
use axum::extract::ws::{Message as WsMessage, WebSocket, WebSocketUpgrade};
use axum::extract::{FromRequest, Multipart, Request, State};
use axum::http::{HeaderMap, HeaderValue, Method, StatusCode};
use axum::response::{IntoResponse, Response};
use axum::routing::get;
use axum::Router;
use futures_util::{SinkExt, StreamExt};
use serde_json::{json, Value};
use std::collections::{HashMap, VecDeque};
use std::net::SocketAddr;
use std::sync::atomic::{AtomicU32, AtomicU64, Ordering};
use std::sync::{Arc, Mutex, MutexGuard};
use std::time::{Duration, Instant};
use tokio::sync::{mpsc, Notify};

pub use schema::Schemas;

/// One request the bot made.
#[derive(Debug, Clone)]
pub struct Recorded {
    /// Order of arrival (from 1).
    pub seq: u64,
    /// When it arrived.
    pub at: Instant,
    /// HTTP method.
    pub method: String,
    /// Path after `/api/v10`.
    pub path: String,
    /// The OpenAPI route it matched, if any.
    pub route: Option<String>,
    /// The interaction or webhook token in the path, if any.
    pub token: Option<String>,
    /// The JSON body (`payload_json` for multipart), `Null` when none.
    pub body: Value,
    /// Attached files: (field name, file name, bytes).
    pub files: Vec<(String, String, Vec<u8>)>,
    /// Schema violations found in the body.
    pub violations: Vec<String>,
    /// The status the fake answered with.
    pub status: u16,
    /// The message the request created or edited (a callback's message, a
    /// follow-up, a channel message or an edit), when it did.
    pub message_id: Option<u64>,
}

/// A message the bot created, as the fake keeps it.
#[derive(Debug, Clone)]
pub struct StoredMessage {
    /// Message id.
    pub id: u64,
    /// Channel.
    pub channel_id: u64,
    /// Only this user sees it (ephemeral), if set.
    pub ephemeral_to: Option<u64>,
    /// `content`, `embeds`, `components`, `flags`, `attachments`.
    pub body: Value,
}

/// A fault to inject into the next matching requests.
#[derive(Debug, Clone)]
pub struct Fault {
    /// Applies to requests whose path contains this text.
    pub path_contains: String,
    /// The status to answer (500, 429 …).
    pub status: u16,
    /// For 429: seconds to wait.
    pub retry_after: Option<f64>,
    /// How many requests it applies to.
    pub times: u32,
}

#[derive(Debug, Default)]
struct TokenInfo {
    user_id: u64,
    channel_id: u64,
    source_message: Option<u64>,
    original: Option<u64>,
    deferred_flags: u64,
    /// When the interaction was announced (about when it was sent).
    sent: Option<Instant>,
    /// Whether its one initial callback was received.
    answered: bool,
    /// Told when that callback is recorded ([`FakeDiscord::callback_of`]).
    waiter: Option<tokio::sync::oneshot::Sender<()>>,
}

/// A copy of what is known of a token (without its waiter, which only the
/// stored entry keeps).
impl Clone for TokenInfo {
    fn clone(&self) -> Self {
        TokenInfo {
            user_id: self.user_id,
            channel_id: self.channel_id,
            source_message: self.source_message,
            original: self.original,
            deferred_flags: self.deferred_flags,
            sent: self.sent,
            answered: self.answered,
            waiter: None,
        }
    }
}

/// The largest request body the fake takes (Discord's largest uploads).
pub const MAX_BODY: usize = 50 * 1024 * 1024;

/// Discord's deadline for an interaction's first answer.
pub const ANSWER_WITHIN: Duration = Duration::from_secs(3);

struct Inner {
    app_id: u64,
    bot_id: u64,
    schemas: Option<Schemas>,
    ws_url: Mutex<String>,
    requests: Mutex<Vec<Recorded>>,
    messages: Mutex<Vec<StoredMessage>>,
    tokens: Mutex<HashMap<String, TokenInfo>>,
    faults: Mutex<VecDeque<Fault>>,
    /// Slow answers: (path text, delay, how many requests).
    delays: Mutex<Vec<(String, Duration, u32)>>,
    /// The identified gateway connection of each shard.
    gateways: Mutex<HashMap<u32, mpsc::UnboundedSender<String>>>,
    /// The shard count `GET /gateway/bot` announces and IDENTIFY must use.
    shard_count: AtomicU32,
    /// Guilds announced to the shard they live on (READY and, with the
    /// `GUILDS` intent, GUILD_CREATE).
    guilds: Mutex<Vec<u64>>,
    /// Shards that identified with the `GUILDS` intent.
    guild_intent: Mutex<std::collections::HashSet<u32>>,
    /// Every dispatch sent: (shard, event, guild).
    dispatched: Mutex<Vec<(u32, String, Option<u64>)>>,
    changed: Notify,
    seq: AtomicU64,
    next_id: AtomicU64,
    identifies: AtomicU64,
    /// IDENTIFYs refused for naming a wrong shard (close 4010 or 4011).
    refused: AtomicU64,
    resumes: AtomicU64,
    /// The last sequence number sent on each shard's session.
    gw_seqs: Mutex<HashMap<u32, u64>>,
    gateway_frames_in: Mutex<Vec<Value>>,
    drops: AtomicU64,
    drop_now: Notify,
    /// Keep about this many requests and messages (0: all).
    retain: AtomicU64,
    /// Files members attached to commands, by attachment id: (file name,
    /// bytes), served at [`FakeDiscord::attachment_url`].
    uploads: Mutex<HashMap<u64, (String, Vec<u8>)>>,
    /// How many times an attached file was downloaded.
    downloads: AtomicU64,
    /// The application commands as registered, as Discord answers them
    /// (with ids, versions and `default_member_permissions`): the global
    /// ones under `None`, a guild's under its id.
    commands: Mutex<HashMap<Option<u64>, Vec<Value>>>,
}

fn lock<T>(m: &Mutex<T>) -> MutexGuard<'_, T> {
    m.lock().unwrap_or_else(|e| e.into_inner())
}

/// The fake Discord server.
#[derive(Clone)]
pub struct FakeDiscord {
    inner: Arc<Inner>,
    addr: SocketAddr,
}

impl FakeDiscord {
    /// Starts the fake on 127.0.0.1 with a free port. With `schemas`, every
    /// request body is validated.
    pub async fn start(schemas: Option<Schemas>) -> std::io::Result<Self> {
        let listener = tokio::net::TcpListener::bind(("127.0.0.1", 0)).await?;
        let addr = listener.local_addr()?;
        let inner = Arc::new(Inner {
            app_id: 700_000_000_000_000_001,
            bot_id: 700_000_000_000_000_002,
            schemas,
            ws_url: Mutex::new(format!("ws://{addr}/gateway")),
            requests: Mutex::new(Vec::new()),
            messages: Mutex::new(Vec::new()),
            tokens: Mutex::new(HashMap::new()),
            faults: Mutex::new(VecDeque::new()),
            delays: Mutex::new(Vec::new()),
            gateways: Mutex::new(HashMap::new()),
            shard_count: AtomicU32::new(1),
            guilds: Mutex::new(Vec::new()),
            guild_intent: Mutex::new(std::collections::HashSet::new()),
            dispatched: Mutex::new(Vec::new()),
            changed: Notify::new(),
            seq: AtomicU64::new(0),
            next_id: AtomicU64::new(1_000_000_000_000_000_000),
            identifies: AtomicU64::new(0),
            refused: AtomicU64::new(0),
            resumes: AtomicU64::new(0),
            gw_seqs: Mutex::new(HashMap::new()),
            gateway_frames_in: Mutex::new(Vec::new()),
            drops: AtomicU64::new(0),
            drop_now: Notify::new(),
            retain: AtomicU64::new(0),
            uploads: Mutex::new(HashMap::new()),
            downloads: AtomicU64::new(0),
            commands: Mutex::new(HashMap::new()),
        });
        // Discord takes uploads up to the interaction's
        // `attachment_size_limit` (tens of MB), not a web server's 2 MB default.
        let app = Router::new()
            .route("/gateway", get(gateway))
            .route("/attachments/{id}/{name}", get(serve_upload))
            .fallback(api)
            .layer(axum::extract::DefaultBodyLimit::max(MAX_BODY))
            .with_state(inner.clone());
        // TCP_NODELAY: without it Nagle holds a gateway frame sent while the
        // previous one is unacknowledged, and the bot's delayed ACK makes
        // that wait up to 40 ms (it was most of the pipeline benchmark's
        // p99 before).
        let listener = axum::serve::ListenerExt::tap_io(listener, |tcp| {
            let _ = tcp.set_nodelay(true);
        });
        tokio::spawn(async move {
            let _ = axum::serve(listener, app).await;
        });
        Ok(Self { inner, addr })
    }

    /// The base URL to hand to serenity's `HttpBuilder::proxy`.
    pub fn base_url(&self) -> String {
        format!("http://{}", self.addr)
    }

    /// The application id the fake announces in READY.
    pub fn app_id(&self) -> u64 {
        self.inner.app_id
    }

    /// The bot's user id.
    pub fn bot_id(&self) -> u64 {
        self.inner.bot_id
    }

    /// A fresh snowflake.
    pub fn next_id(&self) -> u64 {
        self.inner.next_id.fetch_add(1, Ordering::Relaxed)
    }

    /// Keeps a file a member attaches to a command, as Discord's CDN does,
    /// and returns its attachment object (`id`, `filename`, `size`, `url`,
    /// `proxy_url`, `content_type`) for the interaction's
    /// `data.resolved.attachments`. The URL is on this fake's loopback
    /// address; the bytes are served there.
    pub fn upload(&self, filename: &str, bytes: Vec<u8>) -> Value {
        let id = self.next_id();
        let size = bytes.len();
        let name: String = filename
            .chars()
            .map(|c| {
                if c.is_ascii_alphanumeric() || ".-_".contains(c) {
                    c
                } else {
                    '_'
                }
            })
            .collect();
        let url = format!("{}/attachments/{id}/{name}", self.base_url());
        let content_type = if name.ends_with(".json") {
            "application/json; charset=utf-8"
        } else {
            "application/octet-stream"
        };
        lock(&self.inner.uploads).insert(id, (name.clone(), bytes));
        json!({
            "id": id.to_string(),
            "filename": name,
            "size": size,
            "url": url,
            "proxy_url": url,
            "content_type": content_type,
        })
    }

    /// How many times an attached file was downloaded from the fake.
    pub fn downloads(&self) -> u64 {
        self.inner.downloads.load(Ordering::SeqCst)
    }

    /// How many times the bot identified (connected from scratch).
    pub fn identifies(&self) -> u64 {
        self.inner.identifies.load(Ordering::SeqCst)
    }

    /// How many IDENTIFYs were refused for naming a shard the count in
    /// force does not have (closed with 4010 or 4011, as Discord does).
    pub fn refused_identifies(&self) -> u64 {
        self.inner.refused.load(Ordering::SeqCst)
    }

    /// How many times the bot resumed a dropped session.
    pub fn resumes(&self) -> u64 {
        self.inner.resumes.load(Ordering::SeqCst)
    }

    /// Every request so far.
    pub fn requests(&self) -> Vec<Recorded> {
        lock(&self.inner.requests).clone()
    }

    /// The requests after sequence number `after` that pass `keep` (cloning
    /// only those: cheaper than [`FakeDiscord::requests`] under load).
    pub fn requests_since(&self, after: u64, keep: impl Fn(&Recorded) -> bool) -> Vec<Recorded> {
        let reqs = lock(&self.inner.requests);
        let from = reqs.partition_point(|r| r.seq <= after);
        reqs[from..].iter().filter(|r| keep(r)).cloned().collect()
    }

    /// Whether any request after `after` passes `check`.
    pub fn any_request(&self, after: u64, check: impl Fn(&Recorded) -> bool) -> bool {
        let reqs = lock(&self.inner.requests);
        let from = reqs.partition_point(|r| r.seq <= after);
        reqs[from..].iter().any(check)
    }

    /// The message an interaction token's first reply created (or, for a
    /// click answered in place, the clicked message).
    pub fn original_message(&self, token: &str) -> Option<u64> {
        lock(&self.inner.tokens).get(token)?.original
    }

    /// Resolves once the interaction of `token` has its first successful
    /// callback recorded (at once if it has one already; never for a token
    /// the fake was not told of). One waiter per token: a second call
    /// replaces the first. Cheaper than [`FakeDiscord::wait_for`], which
    /// wakes on every request.
    pub fn callback_of(&self, token: &str) -> tokio::sync::oneshot::Receiver<()> {
        let (tx, rx) = tokio::sync::oneshot::channel();
        let mut tokens = lock(&self.inner.tokens);
        match tokens.get_mut(token) {
            Some(info) if info.answered => {
                let _ = tx.send(());
            }
            Some(info) => info.waiter = Some(tx),
            None => {}
        }
        rx
    }

    /// The highest request sequence number so far.
    pub fn last_seq(&self) -> u64 {
        self.inner.seq.load(Ordering::SeqCst)
    }

    /// Every schema violation so far, with the request it came from.
    pub fn violations(&self) -> Vec<String> {
        lock(&self.inner.requests)
            .iter()
            .flat_map(|r| {
                r.violations
                    .iter()
                    .map(move |v| format!("#{} {} {}: {v}", r.seq, r.method, r.path))
            })
            .collect()
    }

    /// Every message the bot created (edits applied), oldest first.
    pub fn messages(&self) -> Vec<StoredMessage> {
        lock(&self.inner.messages).clone()
    }

    /// A message by id, as a full Discord message object.
    pub fn message_object(&self, id: u64) -> Option<Value> {
        let msgs = lock(&self.inner.messages);
        let m = msgs.iter().find(|m| m.id == id)?;
        Some(payloads::message(
            m.id,
            m.channel_id,
            payloads::bot_user(self.inner.bot_id),
            &m.body,
            self.inner.app_id,
        ))
    }

    /// Keeps only about the `limit` most recent requests and messages (the
    /// oldest are forgotten), so a long benchmark does not hoard memory;
    /// `None` keeps everything (the default, for tests). A click on a
    /// forgotten message still reaches the bot, with an empty message.
    pub fn set_retention(&self, limit: Option<usize>) {
        self.inner
            .retain
            .store(limit.map_or(0, |n| n.max(1) as u64), Ordering::SeqCst);
    }

    /// Queues a fault.
    pub fn inject(&self, fault: Fault) {
        lock(&self.inner.faults).push_back(fault);
    }

    /// Answers the next `times` requests whose path contains `path_contains`
    /// only after `delay` (a slow Discord), otherwise normally.
    pub fn slow_down(&self, path_contains: &str, delay: Duration, times: u32) {
        lock(&self.inner.delays).push((path_contains.to_string(), delay, times));
    }

    /// Announces an interaction token before its interaction is sent, so
    /// replies can be tied to the user, channel and source message.
    pub fn expect_token(
        &self,
        token: &str,
        user_id: u64,
        channel_id: u64,
        source_message: Option<u64>,
    ) {
        lock(&self.inner.tokens).insert(
            token.to_string(),
            TokenInfo {
                user_id,
                channel_id,
                source_message,
                sent: Some(Instant::now()),
                ..TokenInfo::default()
            },
        );
    }

    /// Sends a gateway dispatch (`op` 0) to the shard Discord would send
    /// it on: the shard of its guild (`d.guild_id`, or `d.id` for
    /// GUILD_CREATE and GUILD_DELETE), shard 0 for an event with no guild.
    pub fn dispatch(&self, event: &str, d: Value) -> Result<(), String> {
        let guild = if event == "GUILD_CREATE" || event == "GUILD_DELETE" {
            snowflake(d.get("id"))
        } else {
            snowflake(d.get("guild_id"))
        };
        let shard = guild.map_or(0, |g| shard_of(g, self.shard_count()));
        self.inner.send_dispatch(shard, event, guild, d)
    }

    /// Sets the shard count `GET /gateway/bot` announces and every
    /// IDENTIFY must use (at least 1). Set it before the bot connects.
    pub fn set_shard_count(&self, count: u32) {
        self.inner.shard_count.store(count.max(1), Ordering::SeqCst);
    }

    /// The shard count in force.
    pub fn shard_count(&self) -> u32 {
        self.inner.shard_count.load(Ordering::SeqCst)
    }

    /// The commands registered in a scope (`None`: global) as Discord keeps
    /// them; `None` when the bot never registered any there.
    pub fn commands_in(&self, guild: Option<u64>) -> Option<Vec<Value>> {
        lock(&self.inner.commands).get(&guild).cloned()
    }

    /// The commands registered in some guild (the lowest id first), as
    /// Discord keeps them; `None` when no guild has any.
    pub fn commands_in_some_guild(&self) -> Option<Vec<Value>> {
        let all = lock(&self.inner.commands);
        let first = all.keys().flatten().min().copied();
        first.and_then(|g| all.get(&Some(g)).cloned())
    }

    /// Makes `guild_id` one of the bot's guilds, if it is not yet, without
    /// an event: the next connection announces it (READY, GUILD_CREATE).
    pub fn know_guild(&self, guild_id: u64) {
        let mut guilds = lock(&self.inner.guilds);
        if !guilds.contains(&guild_id) {
            guilds.push(guild_id);
        }
    }

    /// Makes `guild_id` one of the bot's guilds: READY lists it (as
    /// unavailable) on its shard, and a shard that asked for the `GUILDS`
    /// intent then gets its GUILD_CREATE. A shard already connected gets
    /// the GUILD_CREATE at once (the bot joining a guild).
    pub fn add_guild(&self, guild_id: u64) {
        lock(&self.inner.guilds).push(guild_id);
        let shard = shard_of(guild_id, self.shard_count());
        let wants = lock(&self.inner.guild_intent).contains(&shard);
        if wants {
            let _ = self.inner.send_dispatch(
                shard,
                "GUILD_CREATE",
                Some(guild_id),
                payloads::guild(guild_id, self.inner.bot_id),
            );
        }
    }

    /// Makes `guild_id` one of the bot's guilds without telling the bot (a
    /// GUILD_CREATE lost or handled out of order): only `GET
    /// /guilds/{id}` knows.
    pub fn add_guild_unannounced(&self, guild_id: u64) {
        lock(&self.inner.guilds).push(guild_id);
    }

    /// Removes the bot from `guild_id` (kicked, or the guild deleted): it is
    /// no longer one of the bot's guilds, and a shard that asked for the
    /// `GUILDS` intent gets GUILD_DELETE with an unavailable guild object
    /// whose `unavailable` field is not set, which Discord documents as
    /// "the user was removed from the guild". False if no shard was told.
    pub fn remove_guild(&self, guild_id: u64) -> bool {
        lock(&self.inner.guilds).retain(|g| *g != guild_id);
        self.guild_delete(guild_id, json!({"id": guild_id.to_string()}))
    }

    /// An outage of `guild_id`: GUILD_DELETE with `unavailable: true` (the
    /// bot stays in the guild; GUILD_CREATE follows when it is back, see
    /// [`FakeDiscord::guild_available`]). False if no shard was told.
    pub fn guild_outage(&self, guild_id: u64) -> bool {
        self.guild_delete(
            guild_id,
            json!({"id": guild_id.to_string(), "unavailable": true}),
        )
    }

    /// `guild_id` is available again after an outage: its GUILD_CREATE,
    /// to a shard that asked for the `GUILDS` intent.
    pub fn guild_available(&self, guild_id: u64) -> bool {
        self.guild_event(
            guild_id,
            "GUILD_CREATE",
            payloads::guild(guild_id, self.inner.bot_id),
        )
    }

    fn guild_delete(&self, guild_id: u64, d: Value) -> bool {
        self.guild_event(guild_id, "GUILD_DELETE", d)
    }

    /// Sends a guild event to the guild's shard if it asked for `GUILDS`.
    fn guild_event(&self, guild_id: u64, event: &str, d: Value) -> bool {
        let shard = shard_of(guild_id, self.shard_count());
        let wants = lock(&self.inner.guild_intent).contains(&shard);
        wants
            && self
                .inner
                .send_dispatch(shard, event, Some(guild_id), d)
                .is_ok()
    }

    /// Every dispatch sent so far: (shard, event, guild id).
    pub fn dispatched(&self) -> Vec<(u32, String, Option<u64>)> {
        lock(&self.inner.dispatched).clone()
    }

    /// The shards connected and identified now.
    pub fn connected_shards(&self) -> Vec<u32> {
        let mut v: Vec<u32> = lock(&self.inner.gateways).keys().copied().collect();
        v.sort_unstable();
        v
    }

    /// Closes every gateway connection at once with close code 4000, as
    /// Discord does on a server-side hiccup (the bot should resume).
    pub fn drop_gateway(&self) {
        lock(&self.inner.gateways).clear();
        self.inner.drops.fetch_add(1, Ordering::SeqCst);
        self.inner.drop_now.notify_waiters();
    }

    /// How many times the gateway was dropped with [`FakeDiscord::drop_gateway`].
    pub fn drops(&self) -> u64 {
        self.inner.drops.load(Ordering::SeqCst)
    }

    /// Whether a bot is connected and identified.
    pub fn connected(&self) -> bool {
        !lock(&self.inner.gateways).is_empty()
    }

    /// Waits until `check` returns `Some`, or the timeout passes.
    pub async fn wait_for<T>(
        &self,
        timeout: Duration,
        mut check: impl FnMut(&FakeDiscord) -> Option<T>,
    ) -> Option<T> {
        let deadline = tokio::time::Instant::now() + timeout;
        loop {
            let notified = self.inner.changed.notified();
            tokio::pin!(notified);
            notified.as_mut().enable();
            if let Some(v) = check(self) {
                return Some(v);
            }
            if tokio::time::timeout_at(deadline, notified).await.is_err() {
                return check(self);
            }
        }
    }
}

impl Inner {
    /// The next sequence number on `shard`'s session.
    fn seq_gateway(&self, shard: u32) -> u64 {
        let mut seqs = lock(&self.gw_seqs);
        let s = seqs.entry(shard).or_insert(0);
        *s += 1;
        *s
    }

    /// Sends a dispatch on `shard`'s connection.
    fn send_dispatch(
        &self,
        shard: u32,
        event: &str,
        guild: Option<u64>,
        d: Value,
    ) -> Result<(), String> {
        let gateways = lock(&self.gateways);
        let tx = gateways
            .get(&shard)
            .ok_or_else(|| format!("the bot is not connected to the gateway on shard {shard}"))?;
        let s = self.seq_gateway(shard);
        let frame = json!({ "op": 0, "t": event, "s": s, "d": d }).to_string();
        tx.send(frame)
            .map_err(|_| "the gateway connection is closed".to_string())?;
        drop(gateways);
        lock(&self.dispatched).push((shard, event.to_string(), guild));
        Ok(())
    }

    /// Keeps a registration (a bulk overwrite: it replaces the scope's
    /// commands) as Discord stores it: each command gets an id, the
    /// application id, a version, its type (1, chat input, by default),
    /// `default_member_permissions` (null: everyone) and, in a guild, the
    /// guild's id.
    fn register_commands(&self, guild: Option<u64>, body: &Value) {
        let commands: Vec<Value> = body
            .as_array()
            .into_iter()
            .flatten()
            .map(|c| {
                let mut c = c.clone();
                if let Some(o) = c.as_object_mut() {
                    o.insert("id".into(), json!(self.new_id().to_string()));
                    o.insert("application_id".into(), json!(self.app_id.to_string()));
                    o.insert("version".into(), json!(self.new_id().to_string()));
                    o.entry("type").or_insert(json!(1));
                    o.entry("description").or_insert(json!(""));
                    o.entry("default_member_permissions").or_insert(Value::Null);
                    // Discord leaves out what an option does not have
                    // (serenity sends nulls and empty lists).
                    if let Some(options) = o.get_mut("options") {
                        *options = omit_empty(options.take());
                    }
                    if let Some(g) = guild {
                        o.insert("guild_id".into(), json!(g.to_string()));
                    }
                }
                c
            })
            .collect();
        lock(&self.commands).insert(guild, commands);
    }

    /// The commands of a scope (`None`: global), as `GET …/commands` answers.
    fn commands_of(&self, guild: Option<u64>) -> Value {
        json!(lock(&self.commands)
            .get(&guild)
            .cloned()
            .unwrap_or_default())
    }

    fn new_id(&self) -> u64 {
        self.next_id.fetch_add(1, Ordering::Relaxed)
    }

    fn message_json(&self, id: u64) -> Value {
        let msgs = lock(&self.messages);
        match msgs.iter().find(|m| m.id == id) {
            Some(m) => payloads::message(
                m.id,
                m.channel_id,
                payloads::bot_user(self.bot_id),
                &m.body,
                self.app_id,
            ),
            None => Value::Null,
        }
    }

    fn create_message(&self, channel_id: u64, body: &Value, ephemeral_to: Option<u64>) -> u64 {
        let id = self.new_id();
        let flags = body.get("flags").and_then(Value::as_u64).unwrap_or(0);
        let mut messages = lock(&self.messages);
        messages.push(StoredMessage {
            id,
            channel_id,
            ephemeral_to: if flags & 64 != 0 { ephemeral_to } else { None },
            body: message_body(body, None),
        });
        self.trim(&mut messages);
        id
    }

    /// Forgets the oldest entries beyond the retention limit (in batches,
    /// so the cost stays proportional to what is kept).
    fn trim<T>(&self, list: &mut Vec<T>) {
        let keep = self.retain.load(Ordering::Relaxed) as usize;
        if keep > 0 && list.len() >= 2 * keep {
            list.drain(..list.len() - keep);
        }
    }

    fn edit_message(&self, id: u64, body: &Value) -> bool {
        let mut msgs = lock(&self.messages);
        match msgs.iter_mut().find(|m| m.id == id) {
            Some(m) => {
                m.body = message_body(body, Some(&m.body));
                true
            }
            None => false,
        }
    }
}

/// Merges a request body into a stored message body (an edit replaces the
/// fields it names).
fn message_body(body: &Value, old: Option<&Value>) -> Value {
    let mut out = old.cloned().unwrap_or_else(
        || json!({"content": "", "embeds": [], "components": [], "flags": 0, "attachments": []}),
    );
    for key in ["content", "embeds", "components", "flags"] {
        if let Some(v) = body.get(key) {
            if !v.is_null() {
                out[key] = v.clone();
            }
        }
    }
    if let Some(a) = body.get("attachments").and_then(Value::as_array) {
        out["attachments"] = Value::Array(
            a.iter()
                .enumerate()
                .map(|(i, att)| {
                    let name = att
                        .get("filename")
                        .and_then(Value::as_str)
                        .unwrap_or("file");
                    // A new upload is numbered from 0 in the request; Discord
                    // answers with a real (non-zero) snowflake.
                    let id = att.get("id").cloned().unwrap_or(json!("0")).to_string();
                    let id = match id.trim_matches('"') {
                        "0" | "" => (900_000_000_000_000_000u64 + i as u64).to_string(),
                        other => other.to_string(),
                    };
                    json!({
                        "id": id,
                        "filename": name,
                        "size": 0,
                        "url": format!("http://127.0.0.1/attachments/{name}"),
                        "proxy_url": format!("http://127.0.0.1/attachments/{name}"),
                    })
                })
                .collect(),
        );
    }
    out
}

/// Serves an attached file's bytes (see [`FakeDiscord::upload`]).
async fn serve_upload(
    State(inner): State<Arc<Inner>>,
    axum::extract::Path((id, name)): axum::extract::Path<(u64, String)>,
) -> Response {
    let file = lock(&inner.uploads).get(&id).cloned();
    match file {
        Some((stored, bytes)) if stored == name => {
            inner.downloads.fetch_add(1, Ordering::SeqCst);
            (StatusCode::OK, bytes).into_response()
        }
        _ => StatusCode::NOT_FOUND.into_response(),
    }
}

async fn gateway(ws: WebSocketUpgrade, State(inner): State<Arc<Inner>>) -> Response {
    ws.on_upgrade(move |socket| run_gateway(socket, inner))
}

/// An accepted IDENTIFY for `shard` of `count`: the connection serves the
/// shard; READY, then (with the GUILDS intent) each of its guilds whole.
fn ready(inner: &Inner, frame: &Value, shard: u32, count: u32, tx: &mpsc::UnboundedSender<String>) {
    lock(&inner.gateways).insert(shard, tx.clone());
    let url = lock(&inner.ws_url).clone();
    lock(&inner.gw_seqs).insert(shard, 0);
    let s = inner.seq_gateway(shard);
    let mine: Vec<u64> = lock(&inner.guilds)
        .iter()
        .copied()
        .filter(|g| shard_of(*g, count) == shard)
        .collect();
    let ready = payloads::ready_shard(inner.bot_id, inner.app_id, &url, [shard, count], &mine);
    let ready = json!({"op": 0, "t": "READY", "s": s, "d": ready});
    let _ = tx.send(ready.to_string());
    // With the GUILDS intent, each guild then arrives whole.
    let intents = frame["d"]["intents"].as_u64().unwrap_or(0);
    let mut wants = lock(&inner.guild_intent);
    wants.retain(|s| *s != shard);
    if intents & 1 != 0 {
        wants.insert(shard);
        drop(wants);
        for g in mine {
            let _ = inner.send_dispatch(
                shard,
                "GUILD_CREATE",
                Some(g),
                payloads::guild(g, inner.bot_id),
            );
        }
    }
    inner.identifies.fetch_add(1, Ordering::SeqCst);
    inner.changed.notify_waiters();
}

/// A RESUME: the connection serves the shard its session id names again
/// (RESUMED); that shard.
fn resume(inner: &Inner, frame: &Value, tx: &mpsc::UnboundedSender<String>) -> u32 {
    // The session id names the shard (see READY).
    let shard = frame["d"]["session_id"]
        .as_str()
        .and_then(payloads::session_shard)
        .unwrap_or(0);
    lock(&inner.gateways).insert(shard, tx.clone());
    let s = inner.seq_gateway(shard);
    let _ = tx.send(json!({"op": 0, "t": "RESUMED", "s": s, "d": {}}).to_string());
    inner.resumes.fetch_add(1, Ordering::SeqCst);
    inner.changed.notify_waiters();
    shard
}

/// Whether this connection (its sender `tx`) still serves `shard`.
fn serves(inner: &Inner, shard: u32, tx: &mpsc::UnboundedSender<String>) -> bool {
    lock(&inner.gateways)
        .get(&shard)
        .is_some_and(|g| g.same_channel(tx))
}

async fn run_gateway(socket: WebSocket, inner: Arc<Inner>) {
    let (mut sink, mut stream) = socket.split();
    let (tx, mut rx) = mpsc::unbounded_channel::<String>();
    let hello = json!({"op": 10, "d": {"heartbeat_interval": 41250}}).to_string();
    if sink.send(WsMessage::Text(hello.into())).await.is_err() {
        return;
    }
    // The shard this connection identified as.
    let mut identified: Option<u32> = None;
    loop {
        let dropped = inner.drop_now.notified();
        tokio::pin!(dropped);
        dropped.as_mut().enable();
        tokio::select! {
            _ = &mut dropped => {}
            incoming = stream.next() => {
                let Some(Ok(msg)) = incoming else { break };
                let text = match msg {
                    WsMessage::Text(t) => t.to_string(),
                    WsMessage::Binary(b) => String::from_utf8_lossy(&b).into_owned(),
                    WsMessage::Close(_) => break,
                    _ => continue,
                };
                let Ok(frame) = serde_json::from_str::<Value>(&text) else { continue };
                lock(&inner.gateway_frames_in).push(frame.clone());
                match frame.get("op").and_then(Value::as_u64) {
                    Some(1) => { let _ = tx.send(json!({"op": 11}).to_string()); }
                    Some(2) => {
                        let count = inner.shard_count.load(Ordering::SeqCst);
                        let shard = match identify_shard(&frame["d"], count) {
                            Ok(shard) => shard,
                            Err((code, reason)) => {
                                inner.refused.fetch_add(1, Ordering::SeqCst);
                                inner.changed.notify_waiters();
                                let _ = sink
                                    .send(WsMessage::Close(Some(axum::extract::ws::CloseFrame {
                                        code,
                                        reason: reason.into(),
                                    })))
                                    .await;
                                break;
                            }
                        };
                        ready(&inner, &frame, shard, count, &tx);
                        identified = Some(shard);
                    }
                    Some(6) => identified = Some(resume(&inner, &frame, &tx)),
                    _ => {}
                }
            }
            out = rx.recv() => {
                match out {
                    Some(text) => {
                        if sink.send(WsMessage::Text(text.into())).await.is_err() { break; }
                    }
                    None => break,
                }
            }
        }
        // A dropped gateway (see `drop_gateway`) closes this connection.
        if identified.is_some_and(|shard| !serves(&inner, shard, &tx)) {
            let _ = sink
                .send(WsMessage::Close(Some(axum::extract::ws::CloseFrame {
                    code: 4000,
                    reason: "fake: connection dropped".into(),
                })))
                .await;
            break;
        }
    }
    if let Some(shard) = identified {
        let mut gateways = lock(&inner.gateways);
        if gateways.get(&shard).is_some_and(|g| g.same_channel(&tx)) {
            gateways.remove(&shard);
        }
    }
    inner.changed.notify_waiters();
}

/// The shard Discord sends a guild's events on:
/// `(guild_id >> 22) % shard_count`.
pub fn shard_of(guild_id: u64, shard_count: u32) -> u32 {
    ((guild_id >> 22) % u64::from(shard_count.max(1))) as u32
}

/// A snowflake written as a string or a number.
fn snowflake(v: Option<&Value>) -> Option<u64> {
    match v? {
        Value::String(s) => s.parse().ok(),
        Value::Number(n) => n.as_u64(),
        _ => None,
    }
}

/// The shard an IDENTIFY (`d`) claims, checked against the shard count in
/// force; else the close code and reason Discord would close with (4010
/// invalid shard, 4011 sharding required).
fn identify_shard(d: &Value, count: u32) -> Result<u32, (u16, &'static str)> {
    let Some(pair) = d.get("shard").and_then(Value::as_array) else {
        return if count == 1 {
            Ok(0)
        } else {
            Err((4011, "Sharding required."))
        };
    };
    let id = pair.first().and_then(Value::as_u64);
    let n = pair.get(1).and_then(Value::as_u64);
    match (id, n) {
        (Some(id), Some(n)) if n == u64::from(count) && id < n => Ok(id as u32),
        _ => Err((4010, "Invalid shard.")),
    }
}

/// `v` without its null values and empty lists and objects, at every depth.
fn omit_empty(v: Value) -> Value {
    let empty = |v: &Value| match v {
        Value::Null => true,
        Value::Array(a) => a.is_empty(),
        Value::Object(o) => o.is_empty(),
        _ => false,
    };
    match v {
        Value::Array(a) => Value::Array(a.into_iter().map(omit_empty).collect()),
        Value::Object(o) => Value::Object(
            o.into_iter()
                .filter(|(_, v)| !empty(v))
                .map(|(k, v)| (k, omit_empty(v)))
                .collect(),
        ),
        other => other,
    }
}

/// Maps a concrete path to its OpenAPI route template.
fn route_of(method: &Method, segs: &[&str]) -> Option<&'static str> {
    Some(match (method.as_str(), segs) {
        ("PUT" | "GET", ["applications", _, "commands"]) => {
            "/applications/{application_id}/commands"
        }
        ("PUT" | "GET", ["applications", _, "guilds", _, "commands"]) => {
            "/applications/{application_id}/guilds/{guild_id}/commands"
        }
        ("POST", ["interactions", _, _, "callback"]) => {
            "/interactions/{interaction_id}/{interaction_token}/callback"
        }
        ("POST", ["webhooks", _, _]) => "/webhooks/{webhook_id}/{webhook_token}",
        ("PATCH", ["webhooks", _, _, "messages", "@original"]) => {
            "/webhooks/{webhook_id}/{webhook_token}/messages/@original"
        }
        ("PATCH", ["webhooks", _, _, "messages", _]) => {
            "/webhooks/{webhook_id}/{webhook_token}/messages/{message_id}"
        }
        ("POST", ["channels", _, "messages"]) => "/channels/{channel_id}/messages",
        ("PATCH", ["channels", _, "messages", _]) => "/channels/{channel_id}/messages/{message_id}",
        ("POST", ["users", "@me", "channels"]) => "/users/@me/channels",
        _ => return None,
    })
}

async fn read_body(req: Request) -> (Value, Vec<(String, String, Vec<u8>)>) {
    let is_multipart = req
        .headers()
        .get("content-type")
        .and_then(|v| v.to_str().ok())
        .is_some_and(|v| v.starts_with("multipart/form-data"));
    if is_multipart {
        let mut body = Value::Null;
        let mut files = Vec::new();
        if let Ok(mut mp) = Multipart::from_request(req, &()).await {
            while let Ok(Some(field)) = mp.next_field().await {
                let name = field.name().unwrap_or("").to_string();
                let file_name = field.file_name().map(str::to_string);
                let bytes = field.bytes().await.unwrap_or_default();
                if name == "payload_json" {
                    body = serde_json::from_slice(&bytes).unwrap_or(Value::Null);
                } else {
                    files.push((name, file_name.unwrap_or_default(), bytes.to_vec()));
                }
            }
        }
        (body, files)
    } else {
        let bytes: Bytes = axum::body::to_bytes(req.into_body(), 16 * 1024 * 1024)
            .await
            .unwrap_or_default();
        let body = if bytes.is_empty() {
            Value::Null
        } else {
            serde_json::from_slice(&bytes)
                .unwrap_or_else(|_| json!({"__unparsed": String::from_utf8_lossy(&bytes)}))
        };
        (body, Vec::new())
    }
}

/// The route of an interaction's initial callback.
const CALLBACK: &str = "/interactions/{interaction_id}/{interaction_token}/callback";

/// The delay injected for a request to `path`, if any (one use of it).
fn take_delay(inner: &Inner, path: &str) -> Option<Duration> {
    let mut delays = lock(&inner.delays);
    let hit = delays.iter().position(|d| path.contains(&d.0) && d.2 > 0);
    hit.map(|i| {
        delays[i].2 -= 1;
        delays[i].1
    })
}

/// The fault injected for a request to `path`, if any (one use of it).
fn take_fault(inner: &Inner, path: &str) -> Option<Fault> {
    let mut faults = lock(&inner.faults);
    let pos = faults.iter().position(|f| path.contains(&f.path_contains));
    pos.map(|i| {
        let f = &mut faults[i];
        f.times = f.times.saturating_sub(1);
        let out = f.clone();
        if f.times == 0 {
            faults.remove(i);
        }
        out
    })
}

/// One initial callback per interaction, within 3 s of the interaction:
/// notes a breach in `violations`; true for a second callback.
fn check_callback(
    inner: &Inner,
    token: Option<&str>,
    at: Instant,
    violations: &mut Vec<String>,
) -> bool {
    let mut tokens = lock(&inner.tokens);
    let Some(info) = token.and_then(|t| tokens.get_mut(t)) else {
        return false;
    };
    if info.answered {
        violations.push("a second initial callback for one interaction".into());
        return true;
    }
    if let Some(sent) = info.sent {
        let took = at.saturating_duration_since(sent);
        if took > ANSWER_WITHIN {
            violations.push(format!(
                "the first answer came {} ms after the interaction (Discord allows 3 s)",
                took.as_millis()
            ));
        }
    }
    false
}

/// Marks the interaction answered: whoever waits for its callback.
fn mark_answered(inner: &Inner, token: Option<&str>) -> Option<tokio::sync::oneshot::Sender<()>> {
    let mut tokens = lock(&inner.tokens);
    let info = token.and_then(|t| tokens.get_mut(t))?;
    info.answered = true;
    info.waiter.take()
}

/// Keeps a request, numbered under the lock so the list stays sorted by
/// `seq`.
fn record(inner: &Inner, mut r: Recorded) {
    let mut requests = lock(&inner.requests);
    r.seq = inner.seq.fetch_add(1, Ordering::SeqCst) + 1;
    requests.push(r);
}

/// Whether a request's query asks for the callback's response
/// (`?with_response=true`; serenity writes `?&with_response=true`).
fn wants_response(query: Option<&str>) -> bool {
    query.is_some_and(|q| {
        q.split('&')
            .any(|pair| pair.eq_ignore_ascii_case("with_response=true"))
    })
}

/// The interaction token a path names (a callback's, a webhook's), if any.
fn token_of(segs: &[&str]) -> Option<String> {
    match segs {
        ["interactions", _, t, ..] | ["webhooks", _, t, ..] => Some(t.to_string()),
        _ => None,
    }
}

/// Discord's answer to a second callback on one interaction.
fn already_acknowledged() -> Answer {
    let body = json!({"message": "Interaction has already been acknowledged.", "code": 40060});
    (
        StatusCode::BAD_REQUEST,
        (StatusCode::BAD_REQUEST, axum::Json(body)).into_response(),
        None,
    )
}

/// Every REST call the bot makes: delayed or failed as injected, checked
/// against the schema (both ways), answered, and recorded.
async fn api(State(inner): State<Arc<Inner>>, req: Request) -> Response {
    let method = req.method().clone();
    let full = req.uri().path().to_string();
    let with_response = wants_response(req.uri().query());
    let path = full.strip_prefix("/api/v10").unwrap_or(&full).to_string();
    let segs: Vec<&str> = path.trim_matches('/').split('/').collect();
    let route = route_of(&method, &segs);
    let (body, files) = read_body(req).await;
    // Received: stamped before validation and handling, so a latency measured
    // against `Recorded::at` is the bot's, not the fake's.
    let at = Instant::now();
    let token = token_of(&segs);
    if let Some(d) = take_delay(&inner, &path) {
        tokio::time::sleep(d).await;
    }
    let mut violations = Vec::new();
    // A GET has no body to check.
    if let (Some(route), Some(schemas), false) = (route, &inner.schemas, method == Method::GET) {
        violations = schemas.check(method.as_str(), route, &body);
    }
    let callback = route == Some(CALLBACK);
    let twice = callback && check_callback(&inner, token.as_deref(), at, &mut violations);
    // Injected faults come first.
    let (status, reply, answer) = match take_fault(&inner, &path) {
        Some(f) => fault_response(&f),
        None if twice => already_acknowledged(),
        None => handle(
            &inner,
            &method,
            &segs,
            &body,
            &files,
            token.as_deref(),
            with_response,
        ),
    };
    // What the fake answers is checked against the schema too.
    if let (Some(route), Some(schemas), Some(answer)) = (route, &inner.schemas, &answer) {
        violations.extend(schemas.check_response(method.as_str(), route, status.as_u16(), answer));
    }
    let answered_waiter = if status.is_success() && callback {
        mark_answered(&inner, token.as_deref())
    } else {
        None
    };
    let message_id = message_id_of(&inner, status, route, token.as_deref(), answer.as_ref());
    record(
        &inner,
        Recorded {
            seq: 0,
            at,
            method: method.to_string(),
            path,
            route: route.map(str::to_string),
            token,
            body,
            files,
            violations,
            status: status.as_u16(),
            message_id,
        },
    );
    if let Some(waiter) = answered_waiter {
        let _ = waiter.send(());
    }
    inner.changed.notify_waiters();
    reply
}

/// What the fake answers: the status, the response, and its JSON body
/// when it is checked against the schema (successful JSON answers).
type Answer = (StatusCode, Response, Option<Value>);

/// The *interaction callback response* Discord answers a callback made
/// with `with_response=true` (instead of 204): the interaction (its id, its
/// type, the message it answered with and whether that message is loading
/// or ephemeral) and, for a new message (type 4) or an updated one (type
/// 7), the `resource` with that message. Deferrals (5, 6) name no resource.
fn callback_response(inner: &Inner, interaction: &str, kind: u64, info: &TokenInfo) -> Value {
    // Interaction type: a click (3) answers with an update or a deferred
    // update; this fake sends commands (2) and clicks only.
    let interaction_type = if info.source_message.is_some() { 3 } else { 2 };
    let mut callback = json!({ "id": interaction, "type": interaction_type });
    let message = info.original.map(|id| inner.message_json(id));
    if let Some(id) = info.original {
        callback["response_message_id"] = json!(id.to_string());
        callback["response_message_loading"] = json!(kind == 5);
        let flags = message
            .as_ref()
            .and_then(|m| m.get("flags"))
            .and_then(Value::as_u64)
            .unwrap_or(0);
        callback["response_message_ephemeral"] = json!(flags & 64 != 0);
    }
    let mut out = json!({ "interaction": callback });
    if matches!(kind, 4 | 7) {
        if let Some(message) = message.filter(|m| !m.is_null()) {
            out["resource"] = json!({ "type": kind, "message": message });
        }
    }
    out
}

fn fault_response(f: &Fault) -> Answer {
    let status = StatusCode::from_u16(f.status).unwrap_or(StatusCode::INTERNAL_SERVER_ERROR);
    if f.status == 429 {
        let after = f.retry_after.unwrap_or(0.05);
        let mut headers = HeaderMap::new();
        headers.insert(
            "retry-after",
            HeaderValue::from_str(&format!("{after}")).unwrap_or(HeaderValue::from_static("1")),
        );
        headers.insert("x-ratelimit-scope", HeaderValue::from_static("user"));
        let body = json!({"message": "You are being rate limited.", "retry_after": after, "global": false});
        (
            status,
            (status, headers, axum::Json(body)).into_response(),
            None,
        )
    } else {
        let body = json!({"message": "fake: injected failure", "code": 0});
        (status, (status, axum::Json(body)).into_response(), None)
    }
}

fn ok_json(v: Value) -> Answer {
    (StatusCode::OK, axum::Json(&v).into_response(), Some(v))
}

fn no_content() -> Answer {
    (
        StatusCode::NO_CONTENT,
        StatusCode::NO_CONTENT.into_response(),
        None,
    )
}

fn not_found(what: &str) -> Answer {
    let body = json!({"message": format!("fake: {what}"), "code": 10008});
    (
        StatusCode::NOT_FOUND,
        (StatusCode::NOT_FOUND, axum::Json(body)).into_response(),
        None,
    )
}

/// The message a successful request created or edited: a callback's (by
/// its token), else the message object the fake answered with.
fn message_id_of(
    inner: &Inner,
    status: StatusCode,
    route: Option<&str>,
    token: Option<&str>,
    answer: Option<&Value>,
) -> Option<u64> {
    if !status.is_success() {
        None
    } else if route == Some(CALLBACK) {
        token.and_then(|t| lock(&inner.tokens).get(t).and_then(|i| i.original))
    } else {
        answer.and_then(|a| snowflake(a.get("id"))).filter(|_| {
            route.is_some_and(|r| {
                r.starts_with("/webhooks/") || r.starts_with("/channels/{channel_id}/messages")
            })
        })
    }
}

/// Discord's answer for a guild the bot is not in (or that does not exist).
fn unknown_guild() -> Answer {
    let body = json!({"message": "Unknown Guild", "code": 10004});
    (
        StatusCode::NOT_FOUND,
        (StatusCode::NOT_FOUND, axum::Json(body)).into_response(),
        None,
    )
}

/// An interaction's initial callback: the message it posts, defers,
/// or updates; with `with_response`, the callback response.
fn interaction_callback(
    inner: &Inner,
    interaction: &str,
    body: &Value,
    token: Option<&str>,
    with_response: bool,
) -> Answer {
    let token = token.unwrap_or_default();
    let kind = body.get("type").and_then(Value::as_u64).unwrap_or(0);
    let data = body.get("data").cloned().unwrap_or(json!({}));
    let mut tokens = lock(&inner.tokens);
    let info = tokens.entry(token.to_string()).or_default();
    match kind {
        4 => {
            let id = inner.create_message(info.channel_id, &data, Some(info.user_id));
            info.original = Some(id);
        }
        5 => {
            info.deferred_flags = data.get("flags").and_then(Value::as_u64).unwrap_or(0);
            let placeholder = json!({"content": "", "flags": info.deferred_flags});
            let id = inner.create_message(info.channel_id, &placeholder, Some(info.user_id));
            info.original = Some(id);
        }
        6 => info.original = info.source_message,
        7 => {
            if let Some(src) = info.source_message {
                inner.edit_message(src, &data);
            }
            info.original = info.source_message;
        }
        _ => {}
    };
    if !with_response {
        return no_content();
    }
    let info = info.clone();
    drop(tokens);
    ok_json(callback_response(inner, interaction, kind, &info))
}

/// A webhook message (`@original` or by id): edited, read or deleted.
fn webhook_message(
    inner: &Inner,
    method: &str,
    which: &str,
    body: &Value,
    token: Option<&str>,
) -> Answer {
    let info = lock(&inner.tokens)
        .get(token.unwrap_or_default())
        .cloned()
        .unwrap_or_default();
    let id = if which == "@original" {
        info.original
    } else {
        which.parse().ok()
    };
    let Some(id) = id else {
        return not_found("no original message");
    };
    match method {
        "PATCH" => {
            if !inner.edit_message(id, body) {
                return not_found("unknown message");
            }
            ok_json(inner.message_json(id))
        }
        "GET" => match inner.message_json(id) {
            Value::Null => not_found("unknown message"),
            v => ok_json(v),
        },
        "DELETE" => {
            lock(&inner.messages).retain(|m| m.id != id);
            no_content()
        }
        _ => not_found("method"),
    }
}

fn handle(
    inner: &Inner,
    method: &Method,
    segs: &[&str],
    body: &Value,
    files: &[(String, String, Vec<u8>)],
    token: Option<&str>,
    with_response: bool,
) -> Answer {
    let _ = files;
    match (method.as_str(), segs) {
        ("GET", ["gateway"]) => ok_json(json!({"url": lock(&inner.ws_url).clone()})),
        ("GET", ["gateway", "bot"]) => ok_json(json!({
            "url": lock(&inner.ws_url).clone(),
            "shards": inner.shard_count.load(Ordering::SeqCst),
            "session_start_limit": {"total": 1000, "remaining": 1000, "reset_after": 0, "max_concurrency": 1}
        })),
        ("GET", ["users", "@me"]) => ok_json(payloads::bot_user(inner.bot_id)),
        // A guild the bot is in; another is Discord's 404 Unknown Guild.
        ("GET", ["guilds", id]) => match id.parse::<u64>() {
            Ok(g) if lock(&inner.guilds).contains(&g) => ok_json(payloads::guild(g, inner.bot_id)),
            _ => unknown_guild(),
        },
        ("GET", ["oauth2", "applications", "@me"]) => ok_json(json!({
            "id": inner.app_id.to_string(), "name": "Kismet", "icon": null, "description": "",
            "bot_public": true, "bot_require_code_grant": false, "verify_key": "", "flags": 0,
            "owner": payloads::bot_user(inner.bot_id), "team": null,
        })),
        ("PUT", ["applications", _, "commands"]) => {
            inner.register_commands(None, body);
            ok_json(json!([]))
        }
        ("PUT", ["applications", _, "guilds", g, "commands"]) => {
            inner.register_commands(Some(g.parse().unwrap_or(0)), body);
            ok_json(json!([]))
        }
        ("GET", ["applications", _, "commands"]) => ok_json(inner.commands_of(None)),
        ("GET", ["applications", _, "guilds", g, "commands"]) => {
            ok_json(inner.commands_of(Some(g.parse().unwrap_or(0))))
        }
        ("POST", ["interactions", interaction, _, "callback"]) => {
            interaction_callback(inner, interaction, body, token, with_response)
        }
        ("POST", ["webhooks", _, _]) => {
            let info = lock(&inner.tokens)
                .get(token.unwrap_or_default())
                .cloned()
                .unwrap_or_default();
            let id = inner.create_message(info.channel_id, body, Some(info.user_id));
            ok_json(inner.message_json(id))
        }
        (m, ["webhooks", _, _, "messages", which]) => webhook_message(inner, m, which, body, token),
        ("POST", ["channels", c, "messages"]) => {
            let channel = c.parse().unwrap_or(0);
            let id = inner.create_message(channel, body, None);
            ok_json(inner.message_json(id))
        }
        ("PATCH", ["channels", _, "messages", m]) => {
            let id: u64 = m.parse().unwrap_or(0);
            if !inner.edit_message(id, body) {
                return not_found("unknown message");
            }
            ok_json(inner.message_json(id))
        }
        ("GET", ["channels", _, "messages", m]) => match inner.message_json(m.parse().unwrap_or(0))
        {
            Value::Null => not_found("unknown message"),
            v => ok_json(v),
        },
        ("DELETE", ["channels", _, "messages", _]) => no_content(),
        ("POST", ["users", "@me", "channels"]) => {
            let recipient = body.get("recipient_id").cloned().unwrap_or(json!("0"));
            ok_json(
                json!({"id": inner.new_id().to_string(), "type": 1, "recipients": [{"id": recipient, "username": "user", "discriminator": "0", "global_name": null, "avatar": null}]}),
            )
        }
        _ => not_found("route not served by the fake"),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_guild_s_shard_is_discord_s_formula() {
        // The timestamp part of the id (above bit 22) picks the shard.
        assert_eq!(shard_of(0, 1), 0);
        assert_eq!(shard_of(5 << 22, 2), 1);
        assert_eq!(shard_of((6 << 22) | 0x3f_ffff, 2), 0);
        assert_eq!(
            shard_of(41_771_983_423_143_937, 4),
            ((41_771_983_423_143_937u64 >> 22) % 4) as u32
        );
        assert_eq!(shard_of(7 << 22, 0), 0, "a zero count counts as one");
    }

    #[test]
    fn identify_must_name_a_shard_of_the_count_in_force() {
        assert_eq!(identify_shard(&json!({}), 1), Ok(0));
        assert_eq!(identify_shard(&json!({"shard": [1, 2]}), 2), Ok(1));
        assert_eq!(identify_shard(&json!({}), 2).unwrap_err().0, 4011);
        assert_eq!(
            identify_shard(&json!({"shard": [0, 1]}), 2).unwrap_err().0,
            4010
        );
        assert_eq!(
            identify_shard(&json!({"shard": [2, 2]}), 2).unwrap_err().0,
            4010
        );
        assert_eq!(
            identify_shard(&json!({"shard": ["x"]}), 2).unwrap_err().0,
            4010
        );
    }
}
