//! A fresh application on its own database, and callers.

use std::sync::atomic::{AtomicUsize, Ordering};

use kismet::app::{App, AppResult, Caller, Reply, RngSource, View};
use kismet::config::Config;
use kismet::storage::{log::LogEntry, Db};

/// The guild every test plays in.
pub const GUILD: i64 = 900;
/// Its table channel.
pub const CHANNEL: i64 = 901;

static N: AtomicUsize = AtomicUsize::new(0);

/// An application on a new database file, dice seeded with `seed`.
pub async fn app(seed: u64) -> App {
    let dir = std::env::temp_dir().join(format!("kismet-app-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join(format!("app-{}.db", N.fetch_add(1, Ordering::SeqCst)));
    for ext in ["", "-wal", "-shm"] {
        let _ = std::fs::remove_file(format!("{}{ext}", path.display()));
    }
    let db = Db::open(&format!("sqlite://{}", path.display()), 2)
        .await
        .unwrap();
    App::new(
        db,
        Config::defaults(),
        RngSource::seeded(seed),
        kismet::systems::registry(),
    )
}

/// A member of the guild (`fc` holds Manage Server, so is the FC).
pub fn caller(name: &str) -> Caller {
    let id = 1000 + name.bytes().map(u64::from).sum::<u64>() as i64;
    Caller {
        guild_id: GUILD,
        channel_id: CHANNEL,
        user_id: id,
        name: name.to_string(),
        manage_guild: name == "fc",
        roles: Vec::new(),
        secret: false,
        parent_id: None,
    }
}

/// The first reply's view and its kind.
pub fn first(r: &AppResult) -> (&'static str, &View) {
    match &r.as_ref().expect("the action succeeds").reply {
        Reply::Message(v) => ("message", v),
        Reply::Ephemeral(v) => ("ephemeral", v),
        Reply::Update(v) => ("update", v),
        Reply::Edit(v) => ("edit", v),
    }
}

/// The refusal's text of a failed action.
pub fn refusal(r: &AppResult) -> String {
    match r {
        Err(e) => e.user_message(),
        Ok(_) => panic!("expected a refusal"),
    }
}

/// The custom_id of the button labelled `label`.
pub fn button(v: &View, label: &str) -> String {
    v.all_buttons()
        .find(|b| b.label == label)
        .unwrap_or_else(|| panic!("no button `{label}`"))
        .custom_id
        .clone()
}

/// Every log entry of a session, oldest first.
pub async fn log_of(app: &App, session: i64) -> Vec<LogEntry> {
    let mut tx = app.db.read().await.unwrap();
    kismet::storage::log::for_session(&mut tx, GUILD, session)
        .await
        .unwrap()
}
