//! `/history show`: the newest roll-log entries of a member or a character
//! (and of one system, if asked), as a private paged embed with Prev/Next
//! buttons: one readable line per entry (when, who, which character, what,
//! the result and the dice). Raw data is for the CSV export only.
//!
//! The query (filters and a snapshot of the newest id, so pages do not
//! shift while the table keeps rolling) and the current page live in a
//! session of kind [`KIND`]; each page turn saves the page and bumps the
//! version, so a double click turns one page only.

use serde::{Deserialize, Serialize};

use serde_json::Value;

use super::text::{faces_text, logged_system, system_name};
use crate::app::component::{Action, Click};
use crate::app::pipeline::{Outcome, Table, Turn};
use crate::app::view::{colour, Button, Embed, Style, View};
use crate::app::Act;
use crate::app::{sessions, App, AppError, AppResult, Caller, Response};
use crate::storage::history::{self, Filter, HistoryRow};
use crate::storage::sessions::Status;
use crate::storage::{self, faces::FaceCount, sessions::Session, Tx};

/// The session kind (custom_id prefix) of history pagers.
pub const KIND: &str = "hist";
/// Entries per page.
pub const PAGE_SIZE: i64 = 10;
/// How many entries `/history show` browses by default.
pub const DEFAULT_COUNT: u32 = 30;
/// The most entries one `/history show` browses.
pub const MAX_COUNT: u32 = 300;
/// Characters of an entry's summary, and of its dice.
const PART_MAX: usize = 150;
/// Scalar pairs a shared summary shows at most.
const MAX_PAIRS: usize = 5;

/// A pager's buttons, encoded into and parsed from the custom_id
/// (`hist:<session>:<version>:<word>`) side by side.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum PageButton {
    /// The page before (`prev`).
    Prev,
    /// The page after (`next`).
    Next,
}

impl PageButton {
    /// Every button, for tests and listings.
    pub const ALL: [PageButton; 2] = [PageButton::Prev, PageButton::Next];
}

impl Action for PageButton {
    const OF: Option<&'static str> = Some("a roll log");

    fn encode(&self) -> (&'static str, Option<String>) {
        match self {
            PageButton::Prev => ("prev", None),
            PageButton::Next => ("next", None),
        }
    }

    fn parse(action: &str, _arg: Option<&str>) -> Option<Self> {
        match action {
            "prev" => Some(PageButton::Prev),
            "next" => Some(PageButton::Next),
            _ => None,
        }
    }
}

/// What `/history show` was asked for.
#[derive(Debug, Clone, Default)]
pub struct Query {
    /// Whose actions: (user id, display name); the caller's when neither
    /// this nor a character is given.
    pub user: Option<(i64, String)>,
    /// Only entries about the character of this name (any system).
    pub character: Option<String>,
    /// How many of the newest entries to browse.
    pub count: Option<u32>,
    /// Only this system's entries (its id).
    pub system: Option<String>,
}

/// The names a system's entries are logged under: its id and aliases.
fn log_names(reg: &crate::app::Registry, id: &str) -> Vec<String> {
    reg.get(id)
        .map(|s| {
            std::iter::once(s.id())
                .chain(s.aliases().iter().copied())
                .map(str::to_string)
                .collect()
        })
        .unwrap_or_else(|| vec![id.to_string()])
}

/// What a pager keeps between clicks.
#[derive(Debug, Clone, Serialize, Deserialize)]
struct PagerState {
    /// Who or what is shown ("alice", "Vex (character)").
    subject: String,
    user_id: Option<i64>,
    character_ids: Option<Vec<i64>>,
    upto_id: i64,
    hide_secrets_from: Option<i64>,
    /// Entries browsed (≤ the count asked for).
    total: i64,
    /// Zero-based page.
    page: i64,
    /// Only entries logged under these system names (pagers saved before
    /// had none).
    #[serde(default)]
    system: Option<Vec<String>>,
    /// Only the entries of this game: `/history` in a game's channel
    /// (pagers saved before had none).
    #[serde(default)]
    game: Option<i64>,
}

impl PagerState {
    fn filter(&self, guild_id: i64) -> Filter {
        Filter {
            guild_id,
            user_id: self.user_id,
            character_ids: self.character_ids.clone(),
            upto_id: Some(self.upto_id),
            hide_secrets_from: self.hide_secrets_from,
            system: self.system.clone(),
            game_id: self.game,
            ..Filter::default()
        }
    }

    fn pages(&self) -> i64 {
        ((self.total + PAGE_SIZE - 1) / PAGE_SIZE).max(1)
    }
}

/// `/history show`: the newest entries for a member or a character.
pub async fn show(app: &App, caller: &Caller, q: Query) -> AppResult {
    let count = q.count.unwrap_or(DEFAULT_COUNT);
    if count == 0 || count > MAX_COUNT {
        return Err(AppError::user(format!(
            "`count` runs from 1 to {MAX_COUNT} entries."
        )));
    }
    let mut turn = Turn::<Table>::begin(app, caller).await?;
    let fc = turn.fc;
    let tx = turn.act();
    let mut state = PagerState {
        subject: String::new(),
        user_id: None,
        character_ids: None,
        upto_id: history::max_id(tx, caller.guild_id).await?,
        hide_secrets_from: (!fc).then_some(caller.user_id),
        total: 0,
        page: 0,
        system: q.system.as_deref().map(|id| log_names(&app.registry, id)),
        game: crate::app::games::here(tx, caller).await?.map(|g| g.id),
    };
    let mut subject = Vec::new();
    if let Some(name) = q
        .character
        .as_deref()
        .map(str::trim)
        .filter(|n| !n.is_empty())
    {
        let (ids, label) = characters_named(tx, app, caller.guild_id, name).await?;
        state.character_ids = Some(ids);
        subject.push(label);
    }
    match (&q.user, &state.character_ids) {
        (Some((id, name)), _) => {
            state.user_id = Some(*id);
            // A member's display name reads as typed in the title.
            subject.insert(0, crate::app::view::escape(name));
        }
        (None, None) => {
            state.user_id = Some(caller.user_id);
            subject.push(crate::app::view::escape(&caller.name));
        }
        (None, Some(_)) => {}
    }
    if let Some(id) = &q.system {
        subject.push(system_name(&app.registry, id));
    }
    state.subject = subject.join(" · ");
    let available = history::count(tx, &state.filter(caller.guild_id)).await?;
    state.total = available.min(i64::from(count));
    if state.total == 0 {
        return Ok(Response::ephemeral(View::embed(
            Embed::new(format!("📜 Roll log · {}", state.subject))
                .description("Nothing logged yet. Every roll, reroll, spend and sheet change is recorded from the moment it happens.")
                .colour(colour::NEUTRAL),
        )));
    }
    // A pager opened now: the answer names it.
    let (id, version) = if state.pages() > 1 {
        let timeout = Some(turn.guild.session_timeout_minutes);
        let pager = turn.open(KIND, &state, timeout).await?;
        (Some(pager.id), pager.version)
    } else {
        (None, 0)
    };
    let lines = page_lines(turn.tx(), &app.registry, caller.guild_id, &state).await?;
    let view = page_view(&lines, id, version, Status::Open, &state);
    turn.finish(Outcome::answer(Response::ephemeral(view)))
        .await
}

/// The characters of this name in the guild (any system, any owner) and
/// how the log's title names them.
async fn characters_named(
    tx: &mut Act,
    app: &App,
    guild_id: i64,
    name: &str,
) -> Result<(Vec<i64>, String), AppError> {
    if name.chars().count() > crate::app::characters::MAX_NAME {
        return Err(AppError::user("That character name is too long."));
    }
    let found = history::characters_named(tx, guild_id, name).await?;
    if found.is_empty() {
        return Err(AppError::user(format!(
            "No character named `{name}` in this server."
        )));
    }
    let label = if found.len() == 1 {
        format!(
            "{} ({})",
            found[0].name,
            system_name(&app.registry, &found[0].system)
        )
    } else {
        format!(
            "{} ({} characters of that name)",
            found[0].name,
            found.len()
        )
    };
    Ok((found.iter().map(|c| c.id).collect(), label))
}

/// A click on a pager's Prev or Next.
pub async fn click(app: &App, tx: Act, session: Session, click: &Click<'_>) -> AppResult {
    let mut turn = Turn::<Table>::click(app, tx, click.caller).await?;
    require_reader(turn.tx(), &session, click.caller).await?;
    let mut state: PagerState = sessions::load(&session)?;
    let last = state.pages() - 1;
    state.page = match click.action::<PageButton>()? {
        PageButton::Prev => (state.page - 1).max(0),
        PageButton::Next => (state.page + 1).min(last),
    };
    let timeout = Some(turn.guild.session_timeout_minutes);
    let lines = page_lines(turn.tx(), &app.registry, session.guild_id, &state).await?;
    let saved = state.clone();
    let out = Outcome::new(move |s| {
        Response::update(page_view(
            &lines,
            Some(s.id),
            s.version,
            Status::Open,
            &state,
        ))
    })
    .save(session, &saved, Status::Open, timeout);
    turn.finish(out).await
}

/// Refuses anyone but the member who asked for a list (and the game
/// master): what it shows was chosen for them (their own secret entries,
/// or all of them for the game master).
async fn require_reader(tx: &mut Tx, session: &Session, caller: &Caller) -> Result<(), AppError> {
    if !crate::app::secret::is_reader(tx, session, caller).await? {
        return Err(AppError::user(
            "This list belongs to whoever asked for it; use `/history show` to browse your own.",
        ));
    }
    Ok(())
}

/// The pager's message as it stands (stale, expired or closed clicks),
/// for its reader only ([`require_reader`]).
pub async fn render(app: &App, session: &Session, caller: &Caller) -> Result<View, AppError> {
    let state: PagerState = sessions::load(session)?;
    let mut tx = app.db.read().await?;
    require_reader(&mut tx, session, caller).await?;
    let lines = page_lines(&mut tx, &app.registry, session.guild_id, &state).await?;
    Ok(page_view(
        &lines,
        Some(session.id),
        session.version,
        session.status,
        &state,
    ))
}

/// The lines of the page `state` is at, one per entry, read in `tx`.
async fn page_lines(
    tx: &mut Tx,
    reg: &crate::app::Registry,
    guild_id: i64,
    state: &PagerState,
) -> Result<Vec<String>, AppError> {
    let offset = state.page * PAGE_SIZE;
    let limit = PAGE_SIZE.min(state.total - offset).max(0);
    let rows = history::newest(tx, &state.filter(guild_id), limit, offset).await?;
    let ids: Vec<i64> = rows.iter().map(|r| r.entry.id).collect();
    let faces = storage::faces::of_entries(tx, &ids).await?;
    let mut numbers = Vec::with_capacity(rows.len());
    for id in &ids {
        numbers.push(number(tx, guild_id, state.hide_secrets_from, *id).await?);
    }
    Ok(rows
        .iter()
        .zip(numbers)
        .map(|(row, n)| {
            let mine: Vec<FaceCount> = faces
                .iter()
                .filter(|(id, _)| *id == row.entry.id)
                .map(|(_, f)| *f)
                .collect();
            entry_line(reg, row, n, &mine, state.user_id.is_none())
        })
        .collect())
}

/// The page `state` is at, showing `lines` ([`page_lines`]), with the
/// pager's buttons when it has a session.
fn page_view(
    lines: &[String],
    session: Option<i64>,
    version: i64,
    status: Status,
    state: &PagerState,
) -> View {
    let offset = state.page * PAGE_SIZE;
    let first = offset + 1;
    let last = offset + lines.len() as i64;
    let intro = if first == last {
        format!("Newest first: entry {first} of the latest {}.", state.total)
    } else {
        format!(
            "Newest first: entries {first}–{last} of the latest {}.",
            state.total
        )
    };
    let embed = Embed::new(format!("📜 Roll log · {}", state.subject))
        .description(format!("{intro}\n\n{}", lines.join("\n")))
        .colour(colour::NEUTRAL)
        .footer(format!(
            "Page {}/{} · hover a time for the date",
            state.page + 1,
            state.pages()
        ));
    let mut view = View::embed(embed);
    if let Some(id) = session {
        let open = status == Status::Open;
        let mut prev = Button::new(
            PageButton::Prev.button(KIND, id, version).encode(),
            "Prev",
            Style::Secondary,
        );
        let mut next = Button::new(
            PageButton::Next.button(KIND, id, version).encode(),
            "Next",
            Style::Secondary,
        );
        if !open || state.page == 0 {
            prev = prev.disabled();
        }
        if !open || state.page + 1 >= state.pages() {
            next = next.disabled();
        }
        view = view.buttons(vec![prev, next]);
    }
    view
}

/// The number of entry `id` as its reader sees it: its place in the
/// server's log counting only the entries the reader may see (`hide`: the
/// reader, when other members' secret entries are hidden from them), so
/// no gap tells when a hidden entry was logged (the entry's id would:
/// ids also count secret entries and other servers').
async fn number(tx: &mut Tx, guild_id: i64, hide: Option<i64>, id: i64) -> Result<i64, AppError> {
    let seen = Filter {
        guild_id,
        upto_id: Some(id),
        hide_secrets_from: hide,
        ..Filter::default()
    };
    Ok(history::count(tx, &seen).await?)
}

/// One entry as a line: its number for this reader (`n`, see [`number`]),
/// when, who (`with_who`: the page is not one member's), as which
/// character, which system, what, its result and its dice, each part short.
fn entry_line(
    reg: &crate::app::Registry,
    row: &HistoryRow,
    n: i64,
    faces: &[FaceCount],
    with_who: bool,
) -> String {
    let e = &row.entry;
    let mut line = format!("`#{n}` <t:{}:R>", e.created_at.div_euclid(1000));
    if with_who {
        if e.user_id == crate::storage::erase::ERASED {
            line.push_str(" (a former member)");
        } else {
            line.push_str(&format!(" <@{}>", e.user_id));
        }
    }
    if let Some(c) = &row.character_name {
        let mut c = crate::app::view::clean(c);
        crate::app::view::truncate(&mut c, 40);
        line.push_str(&format!(" as **{c}**"));
    }
    let what = words(&e.label());
    line.push_str(&format!(" · {} **{what}**", system_name(reg, &e.system)));
    let mut summary = logged_system(reg, &e.system)
        .and_then(|s| s.history_line(e))
        .unwrap_or_else(|| summary(e));
    summary = summary.replace('`', "'");
    crate::app::view::truncate(&mut summary, PART_MAX);
    if !summary.is_empty() {
        line.push_str(&format!(" — {summary}"));
    }
    if !faces.is_empty() {
        let mut t = faces_text(faces, 24);
        crate::app::view::truncate(&mut t, PART_MAX);
        line.push_str(&format!(" · 🎲 {t}"));
    }
    line
}

/// `sheet_create` → `sheet create`.
fn words(action: &str) -> String {
    action.replace('_', " ")
}

/// The shared summary of an entry whose system gives none: its recorded
/// text, what an undo restored, or the scalar figures of its outcome (or
/// of its last event), with the pool or expression it was about.
pub fn summary(e: &crate::storage::log::LogEntry) -> String {
    let parse =
        |raw: &str| serde_json::from_str::<Value>(raw).unwrap_or(Value::String(raw.to_string()));
    let inputs = parse(&e.inputs);
    let outcome = parse(&e.outcome);
    let mut parts = Vec::new();
    for key in ["expression", "pool", "label"] {
        if let Some(Value::String(s)) = inputs.get(key) {
            parts.push(format!("{key}: {s}"));
            break;
        }
    }
    let told = match &outcome {
        Value::String(s) => s.lines().next().unwrap_or("").to_string(),
        Value::Object(o) => {
            if let Some(Value::String(t)) = o.get("text") {
                t.lines().next().unwrap_or("").to_string()
            } else if let Some(Value::Array(r)) = o.get("restored") {
                let items: Vec<String> = r
                    .iter()
                    .filter_map(|v| v.as_str().map(str::to_string))
                    .collect();
                format!("restored {}", items.join("; "))
            } else {
                let inner = match o.get("outcome") {
                    Some(Value::Object(inner)) => inner,
                    _ => o,
                };
                pairs(inner)
            }
        }
        Value::Array(events) => events
            .iter()
            .rev()
            .filter_map(Value::as_object)
            .find(|ev| {
                !matches!(
                    ev.get("event").and_then(Value::as_str),
                    Some("closed" | "roll_closed") | None
                )
            })
            .map(|ev| {
                let name = ev.get("event").and_then(Value::as_str).unwrap_or("");
                let rest = pairs(ev);
                if rest.is_empty() {
                    words(name)
                } else {
                    format!("{} · {rest}", words(name))
                }
            })
            .unwrap_or_default(),
        _ => String::new(),
    };
    if !told.is_empty() {
        parts.push(told);
    }
    parts.join(" · ")
}

/// The short scalar fields of an object as `key: value` pairs (a whole
/// sheet, with many fields, gives none: the action says enough).
fn pairs(o: &serde_json::Map<String, Value>) -> String {
    if o.len() > 12 {
        return String::new();
    }
    o.iter()
        .filter(|(k, _)| {
            k.as_str() != "event"
                && k.as_str() != "id"
                && !k.ends_with("_id")
                && k.as_str() != "owner"
        })
        .filter_map(|(k, v)| {
            let v = match v {
                Value::Bool(b) => if *b { "yes" } else { "no" }.to_string(),
                Value::Number(n) => n.to_string(),
                Value::String(s) if !s.is_empty() && s.chars().count() <= 40 => s.clone(),
                Value::Array(a)
                    if !a.is_empty() && a.len() <= 12 && a.iter().all(Value::is_number) =>
                {
                    a.iter().map(Value::to_string).collect::<Vec<_>>().join(" ")
                }
                _ => return None,
            };
            Some(format!("{}: {v}", words(k)))
        })
        .take(MAX_PAIRS)
        .collect::<Vec<_>>()
        .join(", ")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn shared_summaries_read_as_words() {
        let s = |i: &str, o: &str| summary(&crate::storage::log::LogEntry::sample("roll", i, o));
        assert_eq!(
            s(r#"{"expression":"8d6"}"#, r#"{"total":27}"#),
            "expression: 8d6 · total: 27"
        );
        assert_eq!(s("{}", r#""Lots 10 → 9""#), "Lots 10 → 9");
        assert_eq!(
            s(
                r#"{"pool":"Wit (3 dice)"}"#,
                r#"[{"event":"rolled","faces":[9,10,7]},{"event":"roll_closed"}]"#
            ),
            "pool: Wit (3 dice) · rolled · faces: 9 10 7"
        );
        assert_eq!(
            s(
                "{}",
                r#"{"automatic":true,"outcome":{"result":"success","successes":4}}"#
            ),
            "result: success, successes: 4"
        );
        assert_eq!(
            s("{}", r#"{"restored":["willpower.current: 1 → 4"]}"#),
            "restored willpower.current: 1 → 4"
        );
        assert_eq!(
            s("{}", r#"{"text":"Willpower 6/6 → 4/6\nmore"}"#),
            "Willpower 6/6 → 4/6"
        );
        assert_eq!(s("{}", "[]"), "");
        assert_eq!(s("not json", "not json either"), "not json either");
    }

    #[test]
    fn every_button_round_trips() {
        for b in PageButton::ALL {
            let id = b.button(KIND, 9, 4).encode();
            let back = crate::app::component::ButtonId::parse(&id).unwrap();
            assert_eq!(
                PageButton::parse(&back.action, back.arg.as_deref()),
                Some(b)
            );
        }
    }

    #[test]
    fn words_of_buttons_already_posted_still_parse() {
        for word in ["prev", "next"] {
            assert!(PageButton::parse(word, None).is_some(), "{word}");
        }
        assert!(PageButton::parse("last", None).is_none());
    }
}
