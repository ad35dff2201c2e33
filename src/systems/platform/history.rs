//! `/history show`: the newest roll-log entries of a member or a character,
//! as a private paged embed with Prev/Next buttons.
//!
//! The query (filters and a snapshot of the newest id, so pages do not
//! shift while the table keeps rolling) and the current page live in a
//! session of kind [`KIND`]; each page turn saves the page and bumps the
//! version, so a double click turns one page only.

use serde::{Deserialize, Serialize};

use super::text::{compact_json, faces_text, system_name};
use crate::app::component::{Action, Click};
use crate::app::view::{colour, Button, Embed, Style, View};
use crate::app::{rights, sessions, settings, App, AppError, AppResult, Caller, Response};
use crate::storage::history::{self, Filter, HistoryRow};
use crate::storage::{self, faces::FaceCount, sessions::Session, Tx};
use crate::storage::sessions::Status;
use crate::app::Act;

/// The session kind (custom_id prefix) of history pagers.
pub const KIND: &str = "hist";
/// Entries per page.
pub const PAGE_SIZE: i64 = 6;
/// How many entries `/history show` browses by default.
pub const DEFAULT_COUNT: u32 = 30;
/// The most entries one `/history show` browses.
pub const MAX_COUNT: u32 = 300;
/// Characters of each part (inputs, dice, outcome) of an entry.
const PART_MAX: usize = 180;

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

    /// Reads a clicked action word, refusing unknown ones with the message
    /// players have always seen.
    pub fn read(action: &str, _arg: Option<&str>) -> Result<Self, AppError> {
        match action {
            "prev" => Ok(PageButton::Prev),
            "next" => Ok(PageButton::Next),
            other => Err(AppError::user(format!(
                "Unknown action `{other}` for a roll log."
            ))),
        }
    }
}

impl Action for PageButton {
    fn encode(&self) -> (&'static str, Option<String>) {
        match self {
            PageButton::Prev => ("prev", None),
            PageButton::Next => ("next", None),
        }
    }

    fn parse(action: &str, arg: Option<&str>) -> Option<Self> {
        Self::read(action, arg).ok()
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
}

impl PagerState {
    fn filter(&self, guild_id: i64) -> Filter {
        Filter {
            guild_id,
            user_id: self.user_id,
            character_ids: self.character_ids.clone(),
            upto_id: Some(self.upto_id),
            hide_secrets_from: self.hide_secrets_from,
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
    let mut tx = Act::begin(app, caller).await?;
    let fc = rights::is_fc(&mut tx, caller).await?;
    let mut state = PagerState {
        subject: String::new(),
        user_id: None,
        character_ids: None,
        upto_id: history::max_id(&mut tx, caller.guild_id).await?,
        hide_secrets_from: (!fc).then_some(caller.user_id),
        total: 0,
        page: 0,
    };
    let mut subject = Vec::new();
    if let Some(name) = q
        .character
        .as_deref()
        .map(str::trim)
        .filter(|n| !n.is_empty())
    {
        if name.chars().count() > crate::app::characters::MAX_NAME {
            return Err(AppError::user("That character name is too long."));
        }
        let found = history::characters_named(&mut tx, caller.guild_id, name).await?;
        if found.is_empty() {
            return Err(AppError::user(format!(
                "No character named `{name}` in this server."
            )));
        }
        let label = if found.len() == 1 {
            format!("{} ({})", found[0].name, system_name(&app.registry, &found[0].system))
        } else {
            format!(
                "{} ({} characters of that name)",
                found[0].name,
                found.len()
            )
        };
        state.character_ids = Some(found.iter().map(|c| c.id).collect());
        subject.push(label);
    }
    match (&q.user, &state.character_ids) {
        (Some((id, name)), _) => {
            state.user_id = Some(*id);
            subject.insert(0, name.clone());
        }
        (None, None) => {
            state.user_id = Some(caller.user_id);
            subject.push(caller.name.clone());
        }
        (None, Some(_)) => {}
    }
    state.subject = subject.join(" · ");
    let available = history::count(&mut tx, &state.filter(caller.guild_id)).await?;
    state.total = available.min(i64::from(count));
    if state.total == 0 {
        return Ok(Response::ephemeral(View::embed(
            Embed::new(format!("📜 Roll log · {}", state.subject))
                .description("Nothing logged yet. Every roll, reroll, spend and sheet change is recorded from the moment it happens.")
                .colour(colour::NEUTRAL),
        )));
    }
    let (id, version) = if state.pages() > 1 {
        let timeout = settings::guild(&mut tx, caller.guild_id)
            .await?
            .session_timeout_minutes;
        let id = sessions::create(&mut tx, caller, KIND, &state, Some(timeout)).await?;
        (Some(id), 0)
    } else {
        (None, 0)
    };
    let view = page_view(&mut tx, &app.registry, caller.guild_id, id, version, Status::Open, &state).await?;
    tx.commit().await?;
    Ok(Response::ephemeral(view))
}

/// A click on a pager's Prev or Next.
pub async fn click(app: &App, mut tx: Act, session: Session, click: &Click<'_>) -> AppResult {
    let caller = click.caller;
    if caller.user_id != session.owner_id && !rights::is_fc(&mut tx, caller).await? {
        return Err(AppError::user(
            "This list belongs to whoever asked for it; use `/history show` to browse your own.",
        ));
    }
    let mut state: PagerState = sessions::load(&session)?;
    let last = state.pages() - 1;
    state.page = match PageButton::read(&click.id.action, click.id.arg.as_deref())? {
        PageButton::Prev => (state.page - 1).max(0),
        PageButton::Next => (state.page + 1).min(last),
    };
    let timeout = settings::guild(&mut tx, session.guild_id)
        .await?
        .session_timeout_minutes;
    let version = sessions::save(&mut tx, &session, &state, Status::Open, Some(timeout)).await?;
    let view = page_view(
        &mut tx,
        &app.registry,
        session.guild_id,
        Some(session.id),
        version,
        Status::Open,
        &state,
    )
    .await?;
    tx.commit().await?;
    Ok(Response::update(view))
}

/// The pager's message as it stands (stale, expired or closed clicks).
pub async fn render(app: &App, session: &Session, _caller: &Caller) -> Result<View, AppError> {
    let state: PagerState = sessions::load(session)?;
    let mut tx = app.db.read().await?;
    page_view(
        &mut tx,
        &app.registry,
        session.guild_id,
        Some(session.id),
        session.version,
        session.status,
        &state,
    )
    .await
}

#[allow(clippy::too_many_arguments)]
async fn page_view(
    tx: &mut Tx,
    reg: &crate::app::Registry,
    guild_id: i64,
    session: Option<i64>,
    version: i64,
    status: Status,
    state: &PagerState,
) -> Result<View, AppError> {
    let offset = state.page * PAGE_SIZE;
    let limit = PAGE_SIZE.min(state.total - offset).max(0);
    let rows = history::newest(tx, &state.filter(guild_id), limit, offset).await?;
    let ids: Vec<i64> = rows.iter().map(|r| r.entry.id).collect();
    let faces = storage::faces::of_entries(tx, &ids).await?;
    let first = offset + 1;
    let last = offset + rows.len() as i64;
    let mut embed = Embed::new(format!("📜 Roll log · {}", state.subject))
        .description(if first == last {
            format!("Newest first: entry {first} of the latest {}.", state.total)
        } else {
            format!(
                "Newest first: entries {first}–{last} of the latest {}.",
                state.total
            )
        })
        .colour(colour::NEUTRAL)
        .footer(format!(
            "Page {}/{} · times shown in your time zone",
            state.page + 1,
            state.pages()
        ));
    for row in &rows {
        let mine: Vec<FaceCount> = faces
            .iter()
            .filter(|(id, _)| *id == row.entry.id)
            .map(|(_, f)| *f)
            .collect();
        let (name, value) = entry_field(reg, row, &mine);
        embed = embed.field(name, value, false);
    }
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
    Ok(view)
}

/// One entry as an embed field (name ≤ 256, value ≤ 1024 characters).
fn entry_field(
    reg: &crate::app::Registry,
    row: &HistoryRow,
    faces: &[FaceCount],
) -> (String, String) {
    let e = &row.entry;
    let name = format!("#{} · {} · {}", e.id, system_name(reg, &e.system), e.label());
    let mut head = format!("<@{}>", e.user_id);
    if let Some(c) = &row.character_name {
        let mut c = c.replace(['*', '_', '`', '~', '|'], "");
        crate::app::view::truncate(&mut c, 64);
        head.push_str(&format!(" as **{c}**"));
    }
    head.push_str(&format!(" · <t:{}:f>", e.created_at.div_euclid(1000)));
    let dice = if faces.is_empty() {
        compact_json(&e.dice, PART_MAX)
    } else {
        let mut t = faces_text(faces, 24);
        crate::app::view::truncate(&mut t, PART_MAX);
        t
    };
    let mut lines = vec![head];
    for (label, text) in [
        ("In", compact_json(&e.inputs, PART_MAX)),
        ("Dice", dice),
        ("Out", compact_json(&e.outcome, PART_MAX)),
    ] {
        if text != "–" && text != "[]" {
            lines.push(format!("**{label}** `{text}`"));
        }
    }
    (name, lines.join("\n"))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_button_round_trips() {
        for b in PageButton::ALL {
            let id = b.button(KIND, 9, 4).encode();
            let back = crate::app::component::ButtonId::parse(&id).unwrap();
            assert_eq!(PageButton::parse(&back.action, back.arg.as_deref()), Some(b));
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
