//! Sheet commands: create, and edits of abilities, jobs, tier, Lots, Ego,
//! name and the free-text lists; the sheet card the shared `/ve sheet
//! show` draws ([`card`]); and the answers to deletion prompts posted
//! before deletion became a shared table feature ([`delete_click`]).
//! Players edit their own characters; the FC any in the guild (a
//! character is named by [`Pick`]). Every edit is one action of the pipeline, logged.

use super::calls::within;
use super::context::{Outcome, Turn};
use super::format::level_text;
use super::record::SheetEdit;
pub use super::record::{JobEdits, SetEdits};
use super::state::{DeleteSession, VeState};
use super::{sheet_view, KIND, SYSTEM};
use crate::app::characters::{Access, Loaded, Pick};
use crate::app::component::Click;
use crate::app::pipeline::Record;
use crate::app::view::{escape, View};
use crate::app::Act;
use crate::app::{log, sessions, App, AppError, AppResult, Caller, Response};
use crate::rules::venus::sheet::{parse_abilities, AttributeKind, SheetEvent, Tier, MAX_NOTE_LEN};
use crate::rules::venus::{Rank, VenusSettings, VenusSheet};
use crate::storage::sessions::Status;
use crate::storage::{self, sessions::Session};
use crate::systems::table::delete::{self, Answer, Prompt};

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

/// The log entry of a sheet edit: what was asked, and the sheet after it.
fn sheet_record(c: &Loaded<VenusSheet>, edit: &SheetEdit) -> Record {
    Record::new("sheet", edit, &c.sheet)
        .dice(&log::NO_DICE, Vec::new())
        .character(c.row.id)
}

/// The outcome of an edit of `c`: validated, saved and logged, answered
/// privately with `note` over the sheet.
fn edited(
    turn: &Turn<'_>,
    c: Loaded<VenusSheet>,
    edit: &SheetEdit,
    note: String,
) -> Result<Outcome, AppError> {
    c.sheet.validate(&turn.settings)?;
    let entry = sheet_record(&c, edit);
    let reply = sheet_reply(note, &c, &turn.settings);
    Ok(Outcome::answer(reply).sheet(c).log(entry))
}

/// Runs one edit on the picked sheet (the caller's own; the FC's pick may
/// be anyone's), then [`edited`].
async fn edit(
    turn: &mut Turn<'_>,
    pick: Pick<'_>,
    inputs: SheetEdit,
    f: impl FnOnce(&mut Loaded<VenusSheet>, &VenusSettings) -> Result<String, AppError>,
) -> Result<Outcome, AppError> {
    let mut c = turn.character(pick, Access::Owner).await?;
    let note = f(&mut c, &turn.settings)?;
    edited(turn, c, &inputs, note)
}

/// `/ve sheet create`: a new character with the guild's starting Lots and
/// Ego, made the caller's active one; `abilities` (`Finesse Gold 45, Might
/// Si 30`) gives it every ability in the same command (issue 31), each
/// checked as `/ve sheet ability` checks one: one bad entry refuses the
/// whole command, naming every bad one, and nothing is saved.
pub async fn create(
    app: &App,
    caller: &Caller,
    name: &str,
    tier: Option<Tier>,
    abilities: Option<&str>,
) -> AppResult {
    let refused = |text: String| AppError::user(format!("Nothing saved. {text}"));
    let list = match abilities {
        Some(l) => parse_abilities(l).map_err(|e| refused(e.message))?,
        None => Vec::new(),
    };
    let mut turn = Turn::begin(app, caller).await?;
    let set = turn.settings.clone();
    let mut sheet = VenusSheet::new(name, &set)?;
    sheet.set_tier(tier);
    let given = sheet
        .set_abilities(&list, &set)
        .map_err(|bad| refused(bad.join("\n")))?;
    sheet.validate(&set)?;
    let c = turn.create(caller.user_id, name, sheet).await?;
    let entry = sheet_record(
        &c,
        &SheetEdit::Create {
            name: name.to_string(),
            abilities: abilities.map(str::to_string),
        },
    );
    // Quiet bookkeeping: one public line (the empty sheet says nothing
    // more; `/ve sheet show` draws it).
    let who = crate::app::view::plain(&c.shown());
    let text = if given.is_empty() {
        format!("📜 {who} joins the table. Next: `/ve sheet ability` and `/ve sheet job`.")
    } else {
        format!(
            "📜 {who} joins the table with {}. Next: `/ve sheet job`.",
            escape(&crate::app::view::plain(&given.join(", ")))
        )
    };
    turn.finish(Outcome::answer(Response::message(View::text(text))).log(entry))
        .await
}

/// The stored sheet of a character renamed to `name` (Venus keeps the
/// name inside its sheet).
pub fn renamed(sheet: &str, name: &str) -> Result<String, AppError> {
    let mut s: VenusSheet = serde_json::from_str(sheet)?;
    s.name = name.to_string();
    Ok(serde_json::to_string(&s)?)
}

fn prompt_of(d: &DeleteSession) -> Prompt {
    Prompt {
        system: SYSTEM.to_string(),
        character: d.character,
        name: d.name.clone(),
        owner: d.owner,
        done: d.done,
        was_active: false,
    }
}

/// A deletion prompt posted by an older Kismet (`ve:…:del|keep`), drawn
/// like the shared one.
pub fn delete_view(id: i64, version: i64, status: Status, d: &DeleteSession) -> View {
    delete::view(KIND, id, version, status, &prompt_of(d), Some("ve"))
}

/// A click on a deletion prompt posted by an older Kismet: answered by the
/// shared table feature's [`delete::apply`].
pub async fn delete_click(
    mut tx: Act,
    session: Session,
    mut d: DeleteSession,
    click: &Click<'_>,
) -> AppResult {
    let answer: Answer = click.action()?;
    let mut p = prompt_of(&d);
    delete::apply(&mut tx, &session, &mut p, answer, click.caller).await?;
    d.done = p.done;
    let v = sessions::save(
        &mut tx,
        &session,
        &VeState::Delete(d.clone()),
        Status::Closed,
        None,
    )
    .await?;
    tx.commit().await?;
    Ok(Response::update(delete::view(
        KIND,
        session.id,
        v,
        Status::Closed,
        &p,
        Some("ve"),
    )))
}

/// `/ve sheet ability`: adds or changes an ability's rank and score.
pub async fn ability(
    app: &App,
    caller: &Caller,
    name: &str,
    rank: Rank,
    score: u32,
    pick: Pick<'_>,
) -> AppResult {
    let mut turn = Turn::begin(app, caller).await?;
    let inputs = SheetEdit::Ability {
        name: name.to_string(),
        rank: Some(rank),
        score,
    };
    let out = edit(&mut turn, pick, inputs, |c, set| {
        c.sheet.set_ability(name, rank, score, set)?;
        let key = c.sheet.ability_key(name).unwrap_or(name).to_string();
        Ok(format!(
            "{}: {} is {rank} {score}.",
            c.shown(),
            escape(&key)
        ))
    })
    .await?;
    turn.finish(out).await
}

/// `/ve sheet job`: adds a job (level 1 unless given; level 0 = learning)
/// or changes its inherited abilities, level, exp or qualifications.
pub async fn job(
    app: &App,
    caller: &Caller,
    name: &str,
    edits: JobEdits,
    pick: Pick<'_>,
) -> AppResult {
    let mut turn = Turn::begin(app, caller).await?;
    let out = job_edited(&mut turn, name, edits, pick).await?;
    turn.finish(out).await
}

/// The outcome of `/ve sheet job` in `turn` (also an approved change's).
pub async fn job_edited(
    turn: &mut Turn<'_>,
    name: &str,
    edits: JobEdits,
    pick: Pick<'_>,
) -> Result<Outcome, AppError> {
    let inputs = SheetEdit::Job {
        name: name.to_string(),
        edits: edits.clone(),
    };
    edit(turn, pick, inputs, |c, _set| {
        let inherits = edits.inherits.as_deref().map(super::format::split_names);
        let exists = c.sheet.job(name).is_some();
        if !exists {
            let inherits = inherits.ok_or_else(|| {
                AppError::user(format!(
                    "{} has no job called {}: give `inherits` (one or two abilities) to add it.",
                    c.shown(),
                    escape(name.trim())
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
            format!("{}: {} updated.", c.shown(), escape(&key))
        } else {
            format!("{}: {} added.", c.shown(), escape(&key))
        })
    })
    .await
}

/// `/ve sheet set`: tier, Lots, Ego.
pub async fn set(app: &App, caller: &Caller, edits: SetEdits, pick: Pick<'_>) -> AppResult {
    if edits == SetEdits::default() {
        return Err(AppError::user("Say what to change: tier, lots or ego."));
    }
    let mut turn = Turn::begin(app, caller).await?;
    let out = set_edited(&mut turn, edits, pick).await?;
    turn.finish(out).await
}

/// The outcome of `/ve sheet set` in `turn` (also an approved change's).
pub async fn set_edited(
    turn: &mut Turn<'_>,
    edits: SetEdits,
    pick: Pick<'_>,
) -> Result<Outcome, AppError> {
    let set = turn.settings.clone();
    let mut c = turn.character(pick, Access::Owner).await?;
    let mut said = Vec::new();
    if let Some(t) = edits.tier {
        c.sheet.set_tier(t);
        said.push(format!("tier {}", t.map(|t| t.name()).unwrap_or("cleared")));
        if t.is_some() {
            for e in c.sheet.finish_waiting_learning(&set)? {
                if let SheetEvent::LearningFinished { job, level } = e {
                    said.push(format!(
                        "{} is learned: {}",
                        escape(&job),
                        level_text(level, false)
                    ));
                }
            }
        }
    }
    if let Some(l) = edits.lots {
        c.sheet.set_lots(l)?;
        said.push(format!("{l} Lots"));
    }
    if let Some(e) = edits.ego {
        c.sheet.ego = e;
        said.push(if e { "Ego held" } else { "no Ego" }.to_string());
    }
    let inputs = SheetEdit::Set {
        edits,
        rename: None,
    };
    let note = format!("{}: {}.", c.shown(), said.join(", "));
    edited(turn, c, &inputs, note)
}

/// `/ve sheet note`: adds an attribute, insight or special consequence.
pub async fn note(
    app: &App,
    caller: &Caller,
    kind: NoteKind,
    text: &str,
    pick: Pick<'_>,
) -> AppResult {
    within("text", text, MAX_NOTE_LEN)?;
    let mut turn = Turn::begin(app, caller).await?;
    let inputs = SheetEdit::Note {
        kind: format!("{kind:?}"),
        text: text.to_string(),
    };
    let out = edit(&mut turn, pick, inputs, |c, _| {
        match kind {
            NoteKind::Attribute(k) => c.sheet.add_attribute(k, text)?,
            NoteKind::Insight => {
                c.sheet.add_insight(text, false)?;
            }
            NoteKind::Consequence => c.sheet.add_custom_consequence(text)?,
        }
        Ok(format!("{}: noted.", c.shown()))
    })
    .await?;
    turn.finish(out).await
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
    pick: Pick<'_>,
) -> AppResult {
    let mut turn = Turn::begin(app, caller).await?;
    let inputs = SheetEdit::Remove {
        kind: format!("{kind:?}"),
        name: name.to_string(),
    };
    let out = edit(&mut turn, pick, inputs, |c, _| {
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
        Ok(format!("{}: removed.", c.shown()))
    })
    .await?;
    turn.finish(out).await
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
    // (someone else's, name): the caller's active sheet's names first.
    let mut found: Vec<(bool, String)> = Vec::new();
    for r in rows {
        let Ok(s) = serde_json::from_str::<VenusSheet>(&r.sheet) else {
            continue;
        };
        let other = !(r.owner_id == caller.user_id && r.active);
        let matching = of(&s).into_iter().filter(|n| n.to_lowercase().contains(&p));
        found.extend(matching.map(|n| (other, n)));
    }
    found.sort_by_key(|(other, _)| *other);
    let mut out: Vec<String> = Vec::new();
    for (_, n) in found {
        if !out.iter().any(|x| x.eq_ignore_ascii_case(&n)) {
            out.push(n);
        }
    }
    out.truncate(25);
    out
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
