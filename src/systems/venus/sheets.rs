//! Sheet commands: create, show, list, switch, delete (with a confirmation
//! button), and edits of abilities, jobs, tier, Lots, Ego, name and the
//! free-text lists. Players edit their own characters; the FC any in the
//! guild. Every edit is one transaction, logged.

use serde_json::json;

use super::state::{DeleteSession, VeState};
use super::{sheet_view, venus_settings, HINT, KIND, SYSTEM};
use crate::app::characters::{self, Loaded};
use crate::app::component::{ButtonId, Click};
use crate::app::view::{colour, Button, Embed, Style, View};
use crate::app::{log, rights, sessions, settings, App, AppError, AppResult, Caller, Response};
use crate::rules::venus::sheet::{AttributeKind, Tier};
use crate::rules::venus::{Rank, VenusSettings, VenusSheet};
use crate::storage::{self, sessions::Session, Tx};
use crate::storage::sessions::Status;
use crate::app::Act;

/// What `/ve sheet note` adds to.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum NoteKind {
    /// A free-text attribute list.
    Attribute(AttributeKind),
    /// An insight (usable for one KISS per task).
    Insight,
    /// A special 1-beat secondary consequence (edition 1).
    Consequence,
}

/// What `/ve sheet remove` takes away.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum RemoveKind {
    /// An ability (refused while a job inherits it).
    Ability,
    /// A job.
    Job,
    /// A note of any [`NoteKind`].
    Note(NoteKind),
}

/// The edits of `/ve sheet set`.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct SetEdits {
    /// `Some(None)` clears the tier.
    pub tier: Option<Option<Tier>>,
    /// New Lots, 0..=10.
    pub lots: Option<u32>,
    /// Ego held.
    pub ego: Option<bool>,
    /// A new name.
    pub rename: Option<String>,
}

/// The edits of `/ve sheet job`.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct JobEdits {
    /// Inherited abilities, comma-separated.
    pub inherits: Option<String>,
    /// Level (0 = learning).
    pub level: Option<u32>,
    /// Exp.
    pub exp: Option<u32>,
    /// Qualifications met.
    pub qualified: Option<bool>,
}

fn cap_text(app: &App, what: &str, text: &str) -> Result<(), AppError> {
    let max = app.config.limits.max_text_len;
    if text.chars().count() > max {
        return Err(AppError::user(format!(
            "The {what} is too long: at most {max} characters."
        )));
    }
    Ok(())
}

/// The character an edit applies to: the named one (the FC may name
/// anyone's) or the caller's active one.
async fn target(
    tx: &mut Tx,
    caller: &Caller,
    character: Option<&str>,
) -> Result<(Loaded<VenusSheet>, bool), AppError> {
    let fc = rights::is_fc(tx, caller).await?;
    let c = characters::named_or_active(tx, caller, SYSTEM, character, fc, HINT).await?;
    if c.row.owner_id != caller.user_id && !fc {
        return Err(AppError::user("You can only edit your own characters."));
    }
    Ok((c, fc))
}

fn sheet_reply(note: String, c: &Loaded<VenusSheet>, set: &VenusSettings) -> Response {
    let mut v = View::embed(sheet_view::embed(
        c.name(),
        c.row.owner_id,
        c.row.active,
        &c.sheet,
        set,
    ));
    v.content = Some(note);
    Response::ephemeral(v)
}

async fn log_sheet(
    tx: &mut Tx,
    caller: &Caller,
    c: &Loaded<VenusSheet>,
    what: &str,
    inputs: serde_json::Value,
) -> Result<(), AppError> {
    log::record(
        tx,
        caller,
        log::What {
            system: SYSTEM,
            action: "sheet",
            session: None,
            character: Some(c.row.id),
        },
        &json!({ "edit": what, "inputs": inputs }),
        &json!([]),
        &c.sheet,
    )
    .await
}

/// Runs one edit on the target sheet, validates, saves, logs and answers
/// with the sheet.
async fn edit(
    app: &App,
    caller: &Caller,
    character: Option<&str>,
    what: &str,
    inputs: serde_json::Value,
    f: impl FnOnce(&mut Loaded<VenusSheet>, &VenusSettings) -> Result<String, AppError>,
) -> AppResult {
    let mut tx = Act::begin(app, caller).await?;
    let set = venus_settings(&mut tx, caller.guild_id).await?;
    let (mut c, _) = target(&mut tx, caller, character).await?;
    let note = f(&mut c, &set)?;
    c.sheet.validate(&set)?;
    characters::save(&mut tx, &mut c).await?;
    log_sheet(&mut tx, caller, &c, what, inputs).await?;
    tx.commit().await?;
    Ok(sheet_reply(note, &c, &set))
}

/// `/ve sheet create`: a new character with the guild's starting Lots and
/// Ego, made the caller's active one.
pub async fn create(app: &App, caller: &Caller, name: &str, tier: Option<Tier>) -> AppResult {
    let mut tx = Act::begin(app, caller).await?;
    let set = venus_settings(&mut tx, caller.guild_id).await?;
    let mut sheet = VenusSheet::new(name, &set)?;
    sheet.set_tier(tier);
    let row = characters::create(&mut tx, caller, SYSTEM, name, &sheet).await?;
    let c = Loaded { row, sheet };
    log_sheet(&mut tx, caller, &c, "create", json!({ "name": name })).await?;
    tx.commit().await?;
    let mut v = View::embed(sheet_view::embed(
        c.name(),
        caller.user_id,
        true,
        &c.sheet,
        &set,
    ));
    v.content = Some(format!(
        "{} joins the table. Next: `/ve sheet ability` and `/ve sheet job`.",
        c.name()
    ));
    Ok(Response::message(v))
}

/// `/ve sheet show`: any character of the guild by name, or the caller's
/// active one, for everyone to see.
pub async fn show(app: &App, caller: &Caller, character: Option<&str>) -> AppResult {
    let mut tx = app.db.read().await?;
    let set = venus_settings(&mut tx, caller.guild_id).await?;
    let c: Loaded<VenusSheet> =
        characters::named_or_active(&mut tx, caller, SYSTEM, character, true, HINT).await?;
    Ok(Response::message(View::embed(sheet_view::embed(
        c.name(),
        c.row.owner_id,
        c.row.active,
        &c.sheet,
        &set,
    ))))
}

/// `/ve sheet list`: the caller's characters (the FC sees the guild's).
pub async fn list(app: &App, caller: &Caller) -> AppResult {
    let mut tx = app.db.read().await?;
    let fc = rights::is_fc(&mut tx, caller).await?;
    let owner = (!fc).then_some(caller.user_id);
    let rows = storage::characters::list(&mut tx, caller.guild_id, SYSTEM, owner, 100).await?;
    if rows.is_empty() {
        return Ok(Response::ephemeral(View::text(format!(
            "No Venus characters yet: {HINT}"
        ))));
    }
    let lines: Vec<String> = rows
        .iter()
        .map(|r| {
            let mark = if r.active { " ← active" } else { "" };
            if fc {
                format!("**{}** (<@{}>){mark}", r.name, r.owner_id)
            } else {
                format!("**{}**{mark}", r.name)
            }
        })
        .collect();
    let mut e = Embed::new("📜 Venus characters").colour(colour::NEUTRAL);
    for (t, v) in super::format::fields_of("Characters", &lines, 5) {
        e = e.field(t, v, false);
    }
    Ok(Response::ephemeral(View::embed(e)))
}

/// `/ve sheet use`: makes one of the caller's characters the active one.
pub async fn use_character(app: &App, caller: &Caller, name: &str) -> AppResult {
    let mut tx = Act::begin(app, caller).await?;
    let c: Loaded<VenusSheet> = characters::named(&mut tx, caller, SYSTEM, name, false).await?;
    storage::characters::set_active(&mut tx, &c.row).await?;
    tx.commit().await?;
    Ok(Response::ephemeral(View::text(format!(
        "{} is now your active Venus character.",
        c.name()
    ))))
}

/// `/ve sheet delete`: asks for confirmation with two buttons.
pub async fn delete(app: &App, caller: &Caller, name: &str) -> AppResult {
    let mut tx = Act::begin(app, caller).await?;
    let (c, _) = target(&mut tx, caller, Some(name)).await?;
    let timeout = settings::guild(&mut tx, caller.guild_id)
        .await?
        .session_timeout_minutes;
    let state = DeleteSession {
        character: c.row.id,
        name: c.row.name.clone(),
        owner: c.row.owner_id,
        done: None,
    };
    let id = sessions::create(
        &mut tx,
        caller,
        KIND,
        &VeState::Delete(state.clone()),
        Some(timeout),
    )
    .await?;
    tx.commit().await?;
    Ok(Response::ephemeral(delete_view(id, 0, Status::Open, &state)))
}

/// The deletion prompt (or its result).
pub fn delete_view(id: i64, version: i64, status: Status, d: &DeleteSession) -> View {
    let (text, col) = match d.done {
        Some(true) => (format!("🗑 {} was deleted.", d.name), colour::CLOSED),
        Some(false) => (format!("{} was kept.", d.name), colour::CLOSED),
        None if status != Status::Open => (
            format!("{} was kept (the question timed out).", d.name),
            colour::CLOSED,
        ),
        None => (
            format!(
                "Delete **{}** for good? Its sheet cannot be brought back.",
                d.name
            ),
            colour::FAILURE,
        ),
    };
    let v = View::embed(
        Embed::new("Delete a character")
            .description(text)
            .colour(col),
    );
    if d.done.is_some() || status != Status::Open {
        return v;
    }
    let b = |action: &str, label: String, style| {
        Button::new(
            ButtonId::new(KIND, id, version, action).encode(),
            label,
            style,
        )
    };
    v.buttons(vec![
        b(
            "del",
            format!("Delete {}", super::format::cut(&d.name, 60)),
            Style::Danger,
        ),
        b("keep", "Keep".into(), Style::Secondary),
    ])
}

/// A click on the deletion prompt.
pub async fn delete_click(
    mut tx: Act,
    session: Session,
    mut d: DeleteSession,
    click: &Click<'_>,
) -> AppResult {
    let caller = click.caller;
    if caller.user_id != d.owner
        && caller.user_id != session.owner_id
        && !rights::is_fc(&mut tx, caller).await?
    {
        return Err(AppError::user(
            "Only the character's owner (or the FC) can answer this.",
        ));
    }
    match click.id.action.as_str() {
        "del" => {
            storage::characters::delete(&mut tx, caller.guild_id, d.character).await?;
            d.done = Some(true);
            log::record(
                &mut tx,
                caller,
                log::What {
                    system: SYSTEM,
                    action: "sheet",
                    session: Some(session.id),
                    character: Some(d.character),
                },
                &json!({ "edit": "delete", "name": d.name }),
                &json!([]),
                &json!("deleted"),
            )
            .await?;
        }
        "keep" => d.done = Some(false),
        other => return Err(AppError::user(format!("Unknown action `{other}`."))),
    }
    let v = sessions::save(
        &mut tx,
        &session,
        &VeState::Delete(d.clone()),
        Status::Closed,
        None,
    )
    .await?;
    tx.commit().await?;
    Ok(Response::update(delete_view(session.id, v, Status::Closed, &d)))
}

/// `/ve sheet ability`: adds or changes an ability's rank and score.
pub async fn ability(
    app: &App,
    caller: &Caller,
    name: &str,
    rank: Rank,
    score: u32,
    character: Option<&str>,
) -> AppResult {
    edit(
        app,
        caller,
        character,
        "ability",
        json!({ "name": name, "rank": rank, "score": score }),
        |c, set| {
            c.sheet.set_ability(name, rank, score, set)?;
            let key = c.sheet.ability_key(name).unwrap_or(name).to_string();
            Ok(format!("{}: {key} is {rank} {score}.", c.name()))
        },
    )
    .await
}

/// `/ve sheet job`: adds a job (level 1 unless given; level 0 = learning)
/// or changes its inherited abilities, level, exp or qualifications.
pub async fn job(
    app: &App,
    caller: &Caller,
    name: &str,
    edits: JobEdits,
    character: Option<&str>,
) -> AppResult {
    edit(
        app,
        caller,
        character,
        "job",
        json!({ "name": name, "inherits": edits.inherits, "level": edits.level, "exp": edits.exp, "qualified": edits.qualified }),
        |c, _set| {
            let inherits = edits.inherits.as_deref().map(super::format::split_names);
            let exists = c.sheet.job(name).is_some();
            if !exists {
                let inherits = inherits.ok_or_else(|| {
                    AppError::user(format!(
                        "{} has no job called {}: give `inherits` (one or two abilities) to add it.",
                        c.name(),
                        name.trim()
                    ))
                })?;
                c.sheet.add_job(name, &inherits, edits.level.unwrap_or(1))?;
            } else {
                if let Some(i) = &inherits {
                    c.sheet.set_job_inherits(name, i)?;
                }
                if let Some(l) = edits.level {
                    c.sheet.set_job_level(name, l)?;
                }
            }
            if let Some(x) = edits.exp {
                c.sheet.set_job_exp(name, x)?;
            }
            if let Some(q) = edits.qualified {
                c.sheet.set_qualifications_met(name, q)?;
            }
            let key = c.sheet.job_key(name).unwrap_or(name).to_string();
            Ok(if exists {
                format!("{}: {key} updated.", c.name())
            } else {
                format!("{}: {key} added.", c.name())
            })
        },
    )
    .await
}

/// `/ve sheet set`: tier, Lots, Ego, name.
pub async fn set(
    app: &App,
    caller: &Caller,
    edits: SetEdits,
    character: Option<&str>,
) -> AppResult {
    if edits == SetEdits::default() {
        return Err(AppError::user(
            "Say what to change: tier, lots, ego or rename.",
        ));
    }
    let mut tx = Act::begin(app, caller).await?;
    let set = venus_settings(&mut tx, caller.guild_id).await?;
    let (mut c, _) = target(&mut tx, caller, character).await?;
    let mut said = Vec::new();
    if let Some(t) = edits.tier {
        c.sheet.set_tier(t);
        said.push(format!("tier {}", t.map(|t| t.name()).unwrap_or("cleared")));
    }
    if let Some(l) = edits.lots {
        c.sheet.set_lots(l)?;
        said.push(format!("{l} Lots"));
    }
    if let Some(e) = edits.ego {
        c.sheet.ego = e;
        said.push(if e { "Ego held" } else { "no Ego" }.to_string());
    }
    if let Some(n) = &edits.rename {
        let n = characters::check_name(n)?;
        if !storage::characters::name_key(&n).eq(&storage::characters::name_key(&c.row.name))
            && storage::characters::by_name(&mut tx, caller.guild_id, SYSTEM, c.row.owner_id, &n)
                .await?
                .is_some()
        {
            return Err(AppError::user(format!(
                "There is already a character named {n}."
            )));
        }
        said.push(format!("renamed to {n}"));
        c.sheet.name = n.clone();
        c.row.name = n;
    }
    c.sheet.validate(&set)?;
    characters::save(&mut tx, &mut c).await?;
    log_sheet(
        &mut tx,
        caller,
        &c,
        "set",
        json!({ "tier": edits.tier, "lots": edits.lots, "ego": edits.ego, "rename": edits.rename }),
    )
    .await?;
    tx.commit().await?;
    Ok(sheet_reply(
        format!("{}: {}.", c.name(), said.join(", ")),
        &c,
        &set,
    ))
}

/// `/ve sheet note`: adds an attribute, insight or special consequence.
pub async fn note(
    app: &App,
    caller: &Caller,
    kind: NoteKind,
    text: &str,
    character: Option<&str>,
) -> AppResult {
    cap_text(app, "text", text)?;
    edit(
        app,
        caller,
        character,
        "note",
        json!({ "kind": format!("{kind:?}"), "text": text }),
        |c, _| {
            match kind {
                NoteKind::Attribute(k) => c.sheet.add_attribute(k, text)?,
                NoteKind::Insight => {
                    c.sheet.add_insight(text, false)?;
                }
                NoteKind::Consequence => c.sheet.add_custom_consequence(text)?,
            }
            Ok(format!("{}: noted.", c.name()))
        },
    )
    .await
}

/// Finds a list entry by `#n` (1-based) or text.
fn index_in(list: &[String], key: &str) -> Option<usize> {
    let k = key.trim();
    if let Some(n) = k.strip_prefix('#').and_then(|n| n.parse::<usize>().ok()) {
        return n.checked_sub(1).filter(|i| *i < list.len());
    }
    if let Ok(n) = k.parse::<usize>() {
        if let Some(i) = n.checked_sub(1).filter(|i| *i < list.len()) {
            return Some(i);
        }
    }
    list.iter().position(|t| t.trim().eq_ignore_ascii_case(k))
}

/// `/ve sheet remove`: removes an ability, job or note.
pub async fn remove(
    app: &App,
    caller: &Caller,
    kind: RemoveKind,
    name: &str,
    character: Option<&str>,
) -> AppResult {
    edit(
        app,
        caller,
        character,
        "remove",
        json!({ "kind": format!("{kind:?}"), "name": name }),
        |c, _| {
            let missing = || AppError::user(format!("Nothing called `{}` to remove.", name.trim()));
            match kind {
                RemoveKind::Ability => c.sheet.remove_ability(name)?,
                RemoveKind::Job => c.sheet.remove_job(name)?,
                RemoveKind::Note(NoteKind::Attribute(k)) => {
                    let i = index_in(c.sheet.attributes.list(k), name).ok_or_else(missing)?;
                    c.sheet.remove_attribute(k, i)?;
                }
                RemoveKind::Note(NoteKind::Insight) => {
                    let id = c
                        .sheet
                        .find_insight(name)
                        .map(|i| i.id)
                        .ok_or_else(missing)?;
                    c.sheet.remove_insight(id)?;
                }
                RemoveKind::Note(NoteKind::Consequence) => {
                    let i = index_in(&c.sheet.custom_consequences, name).ok_or_else(missing)?;
                    c.sheet.remove_custom_consequence(i)?;
                }
            }
            Ok(format!("{}: removed.", c.name()))
        },
    )
    .await
}

/// Names of the abilities on the caller's active sheet first, then any
/// other ability name in the guild (for autocomplete).
pub async fn ability_names(app: &App, caller: &Caller, partial: &str) -> Vec<String> {
    names(app, caller, partial, |s| {
        s.abilities.keys().cloned().collect()
    })
    .await
}

/// Job names, the caller's active sheet's first (for autocomplete).
pub async fn job_names(app: &App, caller: &Caller, partial: &str) -> Vec<String> {
    names(app, caller, partial, |s| s.jobs.keys().cloned().collect()).await
}

async fn names(
    app: &App,
    caller: &Caller,
    partial: &str,
    of: impl Fn(&VenusSheet) -> Vec<String>,
) -> Vec<String> {
    let Ok(mut tx) = app.db.read().await else {
        return Vec::new();
    };
    let rows = storage::characters::list(&mut tx, caller.guild_id, SYSTEM, None, 200)
        .await
        .unwrap_or_default();
    let p = partial.trim().to_lowercase();
    let mut mine: Vec<String> = Vec::new();
    let mut others: Vec<String> = Vec::new();
    for r in rows {
        let Ok(s) = serde_json::from_str::<VenusSheet>(&r.sheet) else {
            continue;
        };
        let own = r.owner_id == caller.user_id && r.active;
        for n in of(&s) {
            if !n.to_lowercase().contains(&p) {
                continue;
            }
            let list = if own { &mut mine } else { &mut others };
            if !list.iter().any(|x| x.eq_ignore_ascii_case(&n)) {
                list.push(n);
            }
        }
    }
    for n in others {
        if !mine.iter().any(|x| x.eq_ignore_ascii_case(&n)) {
            mine.push(n);
        }
    }
    mine.truncate(25);
    mine
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn list_entries_are_found_by_number_or_text() {
        let l = vec!["Rope".to_string(), "Lockpicks".to_string()];
        assert_eq!(index_in(&l, "#2"), Some(1));
        assert_eq!(index_in(&l, "1"), Some(0));
        assert_eq!(index_in(&l, "lockpicks"), Some(1));
        assert_eq!(index_in(&l, "#3"), None);
        assert_eq!(index_in(&l, "Sword"), None);
    }
}
