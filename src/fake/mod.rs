//! A fake Discord on 127.0.0.1: the HTTP API routes the bot uses and a
//! WebSocket gateway, for end-to-end tests and `kismet sandbox`.
//!
//! It records every request, keeps the messages the bot creates (so a
//! driver can click their buttons), and validates every request body against
//! Discord's OpenAPI schema ([`schema`]). It can also inject faults (HTTP
//! 500/429, a dropped gateway) for robustness tests. It never listens on
//! anything but the loopback interface.
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
use std::sync::atomic::{AtomicU64, Ordering};
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

#[derive(Debug, Clone, Default)]
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
    gateway: Mutex<Option<mpsc::UnboundedSender<String>>>,
    changed: Notify,
    seq: AtomicU64,
    next_id: AtomicU64,
    identifies: AtomicU64,
    resumes: AtomicU64,
    gw_seq: AtomicU64,
    gateway_frames_in: Mutex<Vec<Value>>,
    drops: AtomicU64,
    drop_now: Notify,
    /// Keep about this many requests and messages (0: all).
    retain: AtomicU64,
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
            gateway: Mutex::new(None),
            changed: Notify::new(),
            seq: AtomicU64::new(0),
            next_id: AtomicU64::new(1_000_000_000_000_000_000),
            identifies: AtomicU64::new(0),
            resumes: AtomicU64::new(0),
            gw_seq: AtomicU64::new(0),
            gateway_frames_in: Mutex::new(Vec::new()),
            drops: AtomicU64::new(0),
            drop_now: Notify::new(),
            retain: AtomicU64::new(0),
        });
        // Discord takes uploads up to the interaction's
        // `attachment_size_limit` (tens of MB), not a web server's 2 MB default.
        let app = Router::new()
            .route("/gateway", get(gateway))
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

    /// How many times the bot identified (connected from scratch).
    pub fn identifies(&self) -> u64 {
        self.inner.identifies.load(Ordering::SeqCst)
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

    /// Sends a gateway dispatch (`op` 0) to the connected bot.
    pub fn dispatch(&self, event: &str, d: Value) -> Result<(), String> {
        let gw = lock(&self.inner.gateway);
        let tx = gw
            .as_ref()
            .ok_or("the bot is not connected to the gateway")?;
        let s = self.inner.seq_gateway();
        let frame = json!({ "op": 0, "t": event, "s": s, "d": d }).to_string();
        tx.send(frame)
            .map_err(|_| "the gateway connection is closed".to_string())
    }

    /// Closes the gateway connection at once with close code 4000, as
    /// Discord does on a server-side hiccup (the bot should resume).
    pub fn drop_gateway(&self) {
        lock(&self.inner.gateway).take();
        self.inner.drops.fetch_add(1, Ordering::SeqCst);
        self.inner.drop_now.notify_waiters();
    }

    /// How many times the gateway was dropped with [`FakeDiscord::drop_gateway`].
    pub fn drops(&self) -> u64 {
        self.inner.drops.load(Ordering::SeqCst)
    }

    /// Whether a bot is connected and identified.
    pub fn connected(&self) -> bool {
        lock(&self.inner.gateway).is_some()
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
    fn seq_gateway(&self) -> u64 {
        self.gw_seq.fetch_add(1, Ordering::SeqCst) + 1
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

async fn gateway(ws: WebSocketUpgrade, State(inner): State<Arc<Inner>>) -> Response {
    ws.on_upgrade(move |socket| run_gateway(socket, inner))
}

async fn run_gateway(socket: WebSocket, inner: Arc<Inner>) {
    let (mut sink, mut stream) = socket.split();
    let (tx, mut rx) = mpsc::unbounded_channel::<String>();
    let hello = json!({"op": 10, "d": {"heartbeat_interval": 41250}}).to_string();
    if sink.send(WsMessage::Text(hello.into())).await.is_err() {
        return;
    }
    let mut identified = false;
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
                        *lock(&inner.gateway) = Some(tx.clone());
                        identified = true;
                        let url = lock(&inner.ws_url).clone();
                        let s = inner.seq_gateway();
                        let ready = json!({"op": 0, "t": "READY", "s": s, "d": payloads::ready(inner.bot_id, inner.app_id, &url)});
                        let _ = tx.send(ready.to_string());
                        inner.identifies.fetch_add(1, Ordering::SeqCst);
                        inner.changed.notify_waiters();
                    }
                    Some(6) => {
                        *lock(&inner.gateway) = Some(tx.clone());
                        identified = true;
                        let s = inner.seq_gateway();
                        let _ = tx.send(json!({"op": 0, "t": "RESUMED", "s": s, "d": {}}).to_string());
                        inner.resumes.fetch_add(1, Ordering::SeqCst);
                        inner.changed.notify_waiters();
                    }
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
        if identified
            && lock(&inner.gateway)
                .as_ref()
                .is_none_or(|g| !g.same_channel(&tx))
        {
            let _ = sink
                .send(WsMessage::Close(Some(axum::extract::ws::CloseFrame {
                    code: 4000,
                    reason: "fake: connection dropped".into(),
                })))
                .await;
            break;
        }
    }
    let mut gw = lock(&inner.gateway);
    if gw.as_ref().is_some_and(|g| g.same_channel(&tx)) {
        *gw = None;
    }
    drop(gw);
    inner.changed.notify_waiters();
}

/// Maps a concrete path to its OpenAPI route template.
fn route_of(method: &Method, segs: &[&str]) -> Option<&'static str> {
    Some(match (method.as_str(), segs) {
        ("PUT", ["applications", _, "commands"]) => "/applications/{application_id}/commands",
        ("PUT", ["applications", _, "guilds", _, "commands"]) => {
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

async fn api(State(inner): State<Arc<Inner>>, req: Request) -> Response {
    let method = req.method().clone();
    let full = req.uri().path().to_string();
    let path = full.strip_prefix("/api/v10").unwrap_or(&full).to_string();
    let segs: Vec<&str> = path.trim_matches('/').split('/').collect();
    let route = route_of(&method, &segs);
    let (body, files) = read_body(req).await;
    // Received: stamped before validation and handling, so a latency measured
    // against `Recorded::at` is the bot's, not the fake's.
    let at = Instant::now();
    let token = match segs.as_slice() {
        ["interactions", _, t, ..] | ["webhooks", _, t, ..] => Some(t.to_string()),
        _ => None,
    };
    let delay = {
        let mut delays = lock(&inner.delays);
        let hit = delays.iter().position(|d| path.contains(&d.0) && d.2 > 0);
        hit.map(|i| {
            delays[i].2 -= 1;
            delays[i].1
        })
    };
    if let Some(d) = delay {
        tokio::time::sleep(d).await;
    }
    let mut violations = Vec::new();
    if let (Some(route), Some(schemas)) = (route, &inner.schemas) {
        violations = schemas.check(method.as_str(), route, &body);
    }
    // One initial callback per interaction, within 3 s of the interaction.
    let mut twice = false;
    if route == Some("/interactions/{interaction_id}/{interaction_token}/callback") {
        let mut tokens = lock(&inner.tokens);
        if let Some(info) = token.as_deref().and_then(|t| tokens.get_mut(t)) {
            if info.answered {
                twice = true;
                violations.push("a second initial callback for one interaction".into());
            } else if let Some(sent) = info.sent {
                let took = at.saturating_duration_since(sent);
                if took > ANSWER_WITHIN {
                    violations.push(format!(
                        "the first answer came {} ms after the interaction (Discord allows 3 s)",
                        took.as_millis()
                    ));
                }
            }
        }
    }
    // Injected faults come first.
    let fault = {
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
    };
    let (status, reply) = match fault {
        Some(f) => fault_response(&f),
        None if twice => {
            let body =
                json!({"message": "Interaction has already been acknowledged.", "code": 40060});
            (
                StatusCode::BAD_REQUEST,
                (StatusCode::BAD_REQUEST, axum::Json(body)).into_response(),
            )
        }
        None => handle(&inner, &method, &segs, &body, &files, token.as_deref()),
    };
    if status.is_success()
        && route == Some("/interactions/{interaction_id}/{interaction_token}/callback")
    {
        let mut tokens = lock(&inner.tokens);
        if let Some(info) = token.as_deref().and_then(|t| tokens.get_mut(t)) {
            info.answered = true;
        }
    }
    // Numbered under the lock, so the list stays sorted by `seq`.
    let mut requests = lock(&inner.requests);
    let seq = inner.seq.fetch_add(1, Ordering::SeqCst) + 1;
    requests.push(Recorded {
        seq,
        at,
        method: method.to_string(),
        path,
        route: route.map(str::to_string),
        token,
        body,
        files,
        violations,
        status: status.as_u16(),
    });
    drop(requests);
    inner.changed.notify_waiters();
    reply
}

fn fault_response(f: &Fault) -> (StatusCode, Response) {
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
        (status, (status, headers, axum::Json(body)).into_response())
    } else {
        let body = json!({"message": "fake: injected failure", "code": 0});
        (status, (status, axum::Json(body)).into_response())
    }
}

fn ok_json(v: Value) -> (StatusCode, Response) {
    (StatusCode::OK, axum::Json(v).into_response())
}

fn no_content() -> (StatusCode, Response) {
    (
        StatusCode::NO_CONTENT,
        StatusCode::NO_CONTENT.into_response(),
    )
}

fn not_found(what: &str) -> (StatusCode, Response) {
    let body = json!({"message": format!("fake: {what}"), "code": 10008});
    (
        StatusCode::NOT_FOUND,
        (StatusCode::NOT_FOUND, axum::Json(body)).into_response(),
    )
}

fn handle(
    inner: &Inner,
    method: &Method,
    segs: &[&str],
    body: &Value,
    files: &[(String, String, Vec<u8>)],
    token: Option<&str>,
) -> (StatusCode, Response) {
    let _ = files;
    match (method.as_str(), segs) {
        ("GET", ["gateway"]) => ok_json(json!({"url": lock(&inner.ws_url).clone()})),
        ("GET", ["gateway", "bot"]) => ok_json(json!({
            "url": lock(&inner.ws_url).clone(),
            "shards": 1,
            "session_start_limit": {"total": 1000, "remaining": 1000, "reset_after": 0, "max_concurrency": 1}
        })),
        ("GET", ["users", "@me"]) => ok_json(payloads::bot_user(inner.bot_id)),
        ("GET", ["oauth2", "applications", "@me"]) => ok_json(json!({
            "id": inner.app_id.to_string(), "name": "Kismet", "icon": null, "description": "",
            "bot_public": true, "bot_require_code_grant": false, "verify_key": "", "flags": 0,
            "owner": payloads::bot_user(inner.bot_id), "team": null,
        })),
        ("PUT", ["applications", _, "commands"])
        | ("PUT", ["applications", _, "guilds", _, "commands"]) => ok_json(json!([])),
        ("POST", ["interactions", _, _, "callback"]) => {
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
                    let id =
                        inner.create_message(info.channel_id, &placeholder, Some(info.user_id));
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
            }
            no_content()
        }
        ("POST", ["webhooks", _, _]) => {
            let info = lock(&inner.tokens)
                .get(token.unwrap_or_default())
                .cloned()
                .unwrap_or_default();
            let id = inner.create_message(info.channel_id, body, Some(info.user_id));
            ok_json(inner.message_json(id))
        }
        (m, ["webhooks", _, _, "messages", which]) => {
            let info = lock(&inner.tokens)
                .get(token.unwrap_or_default())
                .cloned()
                .unwrap_or_default();
            let id = if *which == "@original" {
                info.original
            } else {
                which.parse().ok()
            };
            let Some(id) = id else {
                return not_found("no original message");
            };
            match m {
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
