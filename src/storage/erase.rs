//! A member's data in one guild: everything held about them
//! ([`member_data`], for `/me export`) and its erasure ([`erase_member`],
//! for `/me forget` and `/fc forget`).
//!
//! Erasure, inside the caller's write transaction:
//! - their characters, the history of those characters, their named rolls
//!   and every session they own are deleted, and so are the Veracity
//!   Secrets revealed by them or by their characters;
//! - their roll-log entries stay, anonymous, for the table's statistics:
//!   the user id becomes [`ERASED`], every text of the inputs is removed
//!   and any text of theirs in the dice and the outcome too, a logged
//!   sheet goes ([`strip_sheet`]); numbers (dice faces, totals) are kept,
//!   and so are the faces behind `/stats`;
//! - other members' rows that are about them (an entry on one of their
//!   characters, a game master's roll or approval naming them, a tracker
//!   seating them) lose their id and their texts: the entry keeps its
//!   numbers, a finished prompt or roll about them is deleted, a
//!   long-running tracker keeps running without their id and their
//!   characters' names. The changes they made to others' characters stay
//!   as changes of those characters, by nobody ([`ERASED`]).
//!
//! "Their texts" are what they typed or what was kept for them: their
//! characters' names and every text of their sheets, their saved rolls,
//! and every text of their log entries' inputs (texts of three characters
//! or more, and names of two or more, so that a one-letter input does not
//! wipe every other text). A name is looked for as a whole word: another
//! member's text that happens to use the same word as one of their
//! characters' names loses that text too (erring on the side of erasing).
//!
//! The SQL is portable (SQLite and PostgreSQL); the JSON is rewritten in
//! Rust, which knows nothing of any system: it walks the values.

use super::{StorageError, Tx};
use serde_json::Value;
use sqlx::Row;

/// The user id an erased member's log entries and changes carry instead.
pub const ERASED: i64 = 0;

/// What a text naming an erased member becomes in a running tracker (a
/// seat's name), so that it still reads as a sentence.
pub const ERASED_NAME: &str = "(erased)";

/// The shortest typed text (besides a character's name) looked for in
/// other rows.
const MIN_TEXT: usize = 3;

/// What an erasure removed or rewrote, for its report.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Erased {
    /// Characters deleted.
    pub characters: u64,
    /// Saved rolls deleted.
    pub named_rolls: u64,
    /// Sessions deleted.
    pub sessions: u64,
    /// Their roll-log entries made anonymous.
    pub log_entries: u64,
    /// Other rows rewritten because they named the member.
    pub rewritten: u64,
}

impl Erased {
    /// Whether there was nothing to erase.
    pub fn is_empty(&self) -> bool {
        *self == Erased::default()
    }
}

/// One character with its history, as held about its owner.
#[derive(Debug, Clone, PartialEq)]
pub struct HeldCharacter {
    /// The character.
    pub character: super::characters::Character,
    /// Its changes, oldest first.
    pub history: Vec<super::character_history::Change>,
}

/// Everything held about a member in a guild.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct MemberData {
    /// Their characters (every system) with their histories.
    pub characters: Vec<HeldCharacter>,
    /// Their saved rolls.
    pub named_rolls: Vec<super::named_rolls::NamedRoll>,
    /// The log entries they made, oldest first.
    pub log: Vec<super::log::LogEntry>,
}

/// Everything held about `user_id` in `guild_id`: their characters with
/// their histories, their saved rolls and the log entries they made.
pub async fn member_data(
    tx: &mut Tx,
    guild_id: i64,
    user_id: i64,
) -> Result<MemberData, StorageError> {
    let mut out = MemberData::default();
    for character in characters_of(tx, guild_id, user_id).await? {
        let mut history =
            super::character_history::recent(tx, guild_id, character.id, i64::MAX).await?;
        history.reverse();
        out.characters.push(HeldCharacter { character, history });
    }
    out.named_rolls = super::named_rolls::list(tx, guild_id, user_id).await?;
    let rows = sqlx::query(
        "SELECT id, guild_id, channel_id, user_id, character_id, session_id, system, action, inputs, dice, outcome, created_at, secret
         FROM roll_log WHERE guild_id = $1 AND user_id = $2 ORDER BY id",
    )
    .bind(guild_id)
    .bind(user_id)
    .fetch_all(&mut **tx)
    .await?;
    out.log = rows
        .iter()
        .map(super::log::from_row)
        .collect::<Result<_, _>>()?;
    Ok(out)
}

/// How much is held about a member in a guild (what [`member_data`] would
/// read), counted without reading it.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Held {
    /// Their characters.
    pub characters: i64,
    /// Their saved rolls.
    pub named_rolls: i64,
    /// The log entries they made.
    pub log_entries: i64,
}

impl Held {
    /// Whether nothing is held.
    pub fn is_empty(&self) -> bool {
        *self == Held::default()
    }
}

/// Counts what is held about `user_id` in `guild_id`.
pub async fn held(tx: &mut Tx, guild_id: i64, user_id: i64) -> Result<Held, StorageError> {
    let mut n = [0i64; 3];
    for (i, table) in [
        "characters WHERE guild_id = $1 AND owner_id = $2",
        "named_rolls WHERE guild_id = $1 AND user_id = $2",
        "roll_log WHERE guild_id = $1 AND user_id = $2",
    ]
    .iter()
    .enumerate()
    {
        n[i] = sqlx::query(&format!("SELECT COUNT(*) FROM {table}"))
            .bind(guild_id)
            .bind(user_id)
            .fetch_one(&mut **tx)
            .await?
            .try_get(0)?;
    }
    Ok(Held {
        characters: n[0],
        named_rolls: n[1],
        log_entries: n[2],
    })
}

/// Every character `user_id` owns in `guild_id`, by id.
async fn characters_of(
    tx: &mut Tx,
    guild_id: i64,
    user_id: i64,
) -> Result<Vec<super::characters::Character>, StorageError> {
    let rows = sqlx::query(
        "SELECT id, guild_id, owner_id, system, name, sheet, active, version
         FROM characters WHERE guild_id = $1 AND owner_id = $2 ORDER BY id",
    )
    .bind(guild_id)
    .bind(user_id)
    .fetch_all(&mut **tx)
    .await?;
    rows.iter()
        .map(|r| {
            Ok(super::characters::Character {
                id: r.try_get("id")?,
                guild_id: r.try_get("guild_id")?,
                owner_id: r.try_get("owner_id")?,
                system: r.try_get("system")?,
                name: r.try_get("name")?,
                sheet: r.try_get("sheet")?,
                active: r.try_get::<i64, _>("active")? != 0,
                version: r.try_get("version")?,
            })
        })
        .collect()
}

/// What identifies a member's data inside other rows.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Needles {
    /// Their user id.
    pub id: i64,
    /// Their characters' names, lower case.
    pub names: Vec<String>,
    /// Their other texts (sheets, saved rolls, inputs), lower case.
    pub texts: Vec<String>,
}

/// How much of a JSON value [`scrub`] removes.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Depth {
    /// Every text (the inputs of the member's own entries).
    AllText,
    /// Texts holding the id, a name or any other text of theirs.
    Theirs,
    /// Texts holding the id or one of their characters' names, which
    /// become [`ERASED_NAME`] (a running tracker's seat keeps a name).
    Mentions,
}

impl Needles {
    fn add_text(&mut self, s: &str) {
        let s = s.trim().to_lowercase();
        if s.chars().count() >= MIN_TEXT && !self.texts.contains(&s) {
            self.texts.push(s);
        }
    }

    fn add_texts_of(&mut self, v: &Value) {
        match v {
            Value::String(s) => self.add_text(s),
            Value::Array(a) => a.iter().for_each(|x| self.add_texts_of(x)),
            Value::Object(o) => o.values().for_each(|x| self.add_texts_of(x)),
            _ => {}
        }
    }

    /// Whether a text names the member (their id or a character's name,
    /// as a whole word).
    pub fn mentions(&self, s: &str) -> bool {
        let lower = s.to_lowercase();
        lower.contains(&self.id.to_string()) || self.names.iter().any(|n| has_word(&lower, n))
    }

    /// Whether a text holds anything of the member's.
    pub fn theirs(&self, s: &str) -> bool {
        let lower = s.to_lowercase();
        self.mentions(s) || self.texts.iter().any(|t| lower.contains(t.as_str()))
    }
}

/// Whether `word` (lower case) occurs in `text` (lower case) with no
/// letter or digit right before or after it.
fn has_word(text: &str, word: &str) -> bool {
    if word.is_empty() {
        return false;
    }
    text.match_indices(word).any(|(i, _)| {
        let before = text[..i].chars().next_back();
        let after = text[i + word.len()..].chars().next();
        !before.is_some_and(char::is_alphanumeric) && !after.is_some_and(char::is_alphanumeric)
    })
}

/// Removes the member's data from a JSON value in place: their id (as a
/// number) becomes [`ERASED`]; a text goes (becomes empty) when `depth`
/// says so. Returns whether anything changed.
pub fn scrub(v: &mut Value, n: &Needles, depth: Depth) -> bool {
    match v {
        Value::String(s) => {
            let gone = match depth {
                Depth::AllText => !s.is_empty(),
                Depth::Theirs => n.theirs(s),
                Depth::Mentions => n.mentions(s),
            };
            if gone {
                s.clear();
                if depth == Depth::Mentions {
                    s.push_str(ERASED_NAME);
                }
            }
            gone
        }
        Value::Number(x) => {
            let is_id = x.as_i64() == Some(n.id) || x.as_u64() == u64::try_from(n.id).ok();
            if is_id {
                *v = Value::from(ERASED);
            }
            is_id
        }
        Value::Array(a) => a
            .iter_mut()
            .fold(false, |changed, x| scrub(x, n, depth) | changed),
        Value::Object(o) => o
            .values_mut()
            .fold(false, |changed, x| scrub(x, n, depth) | changed),
        _ => false,
    }
}

/// [`scrub`] on a column's text: JSON is walked; any other text is one
/// string. `None` when nothing changed.
pub fn scrub_text(text: &str, n: &Needles, depth: Depth) -> Option<String> {
    match serde_json::from_str::<Value>(text) {
        Ok(mut v) => scrub(&mut v, n, depth).then(|| v.to_string()),
        Err(_) => {
            let mut v = Value::String(text.to_string());
            scrub(&mut v, n, depth).then(|| v.as_str().unwrap_or_default().to_string())
        }
    }
}

/// A log column without the character sheet it may carry: the whole
/// column of a sheet action (`sheet`, `sheet_create`, `sheet_set`, …,
/// which log the sheet itself) becomes `{}`, and any other JSON object
/// loses its `sheet` member. `None` when there is no sheet to leave out
/// (not a JSON object, or nothing to remove). For the sheets of erased
/// members and of deleted characters (the CSV export).
pub fn strip_sheet(action: &str, column: &str) -> Option<String> {
    let mut v = serde_json::from_str::<Value>(column).ok()?;
    let o = v.as_object_mut()?;
    if action == "sheet" || action.starts_with("sheet_") {
        return (!o.is_empty()).then(|| "{}".to_string());
    }
    o.remove("sheet")?;
    Some(v.to_string())
}

/// `%text%` for `LIKE … ESCAPE '\'`, lower case.
fn like(text: &str) -> String {
    let mut out = String::from("%");
    for c in text.to_lowercase().chars() {
        if matches!(c, '%' | '_' | '\\') {
            out.push('\\');
        }
        out.push(c);
    }
    out.push('%');
    out
}

/// The member's needles: their id, their characters' names, and the texts
/// of their sheets, saved rolls and log inputs.
async fn needles(
    tx: &mut Tx,
    guild_id: i64,
    user_id: i64,
    characters: &[super::characters::Character],
) -> Result<Needles, StorageError> {
    let mut n = Needles {
        id: user_id,
        ..Needles::default()
    };
    for c in characters {
        // A one-letter name ("A") is a word of every other sentence: it
        // is looked for as any other text (not at all: shorter than
        // MIN_TEXT), not as a name.
        let name = c.name.trim().to_lowercase();
        if name.chars().count() >= 2 && !n.names.contains(&name) {
            n.names.push(name);
        }
        if let Ok(sheet) = serde_json::from_str::<Value>(&c.sheet) {
            n.add_texts_of(&sheet);
        }
    }
    for r in super::named_rolls::list(tx, guild_id, user_id).await? {
        n.add_text(&r.name);
        n.add_text(&r.expression);
    }
    let rows = sqlx::query("SELECT inputs FROM roll_log WHERE guild_id = $1 AND user_id = $2")
        .bind(guild_id)
        .bind(user_id)
        .fetch_all(&mut **tx)
        .await?;
    for r in rows {
        let inputs: String = r.try_get(0)?;
        match serde_json::from_str::<Value>(&inputs) {
            Ok(v) => n.add_texts_of(&v),
            Err(_) => n.add_text(&inputs),
        }
    }
    Ok(n)
}

/// The WHERE fragment (from bind `$first` on) matching a text column that
/// may name the member (their id or a character's name), and its binds: a
/// cheap first sieve, which [`Needles::mentions`] then decides. SQLite's
/// `LOWER` folds ASCII only, so a name with other letters sieves nothing
/// out (`1 = 1`).
fn mention_clause(column: &str, n: &Needles, first: usize) -> (String, Vec<String>) {
    if !n.names.iter().all(|name| name.is_ascii()) {
        return ("1 = 1".into(), Vec::new());
    }
    let mut patterns = vec![like(&n.id.to_string())];
    patterns.extend(n.names.iter().map(|name| like(name)));
    let parts: Vec<String> = (0..patterns.len())
        .map(|i| format!("LOWER({column}) LIKE ${} ESCAPE '\\'", first + i))
        .collect();
    (format!("({})", parts.join(" OR ")), patterns)
}

/// Erases `user_id`'s data in `guild_id` inside the caller's write
/// transaction (see the module comment for what goes and what stays).
/// Irreversible once committed.
pub async fn erase_member(
    tx: &mut Tx,
    guild_id: i64,
    user_id: i64,
) -> Result<Erased, StorageError> {
    let mut done = Erased::default();
    let characters = characters_of(tx, guild_id, user_id).await?;
    let n = needles(tx, guild_id, user_id, &characters).await?;
    let ids: Vec<i64> = characters.iter().map(|c| c.id).collect();
    let m = Member {
        guild_id,
        user_id,
        ids: &ids,
        n: &n,
    };
    erase_sessions(tx, &m, &mut done).await?;
    anonymise_own_log(tx, &m, &mut done).await?;
    let about = log_rows_about(tx, &m).await?;
    scrub_log_rows(tx, &m, about, &mut done).await?;
    delete_characters(tx, &m, &mut done).await?;
    leave_games(tx, &m).await?;
    scrub_state(tx, &m, &mut done).await?;
    Ok(done)
}

/// Who is erased, as each phase of [`erase_member`] needs it.
struct Member<'a> {
    guild_id: i64,
    user_id: i64,
    /// Their characters' ids.
    ids: &'a [i64],
    /// What names them.
    n: &'a Needles,
}

/// Sessions: theirs go; others' that name them go when they are done with
/// (a roll, a prompt), or lose the mentions when they run on (a tracker
/// has no expiry).
async fn erase_sessions(
    tx: &mut Tx,
    m: &Member<'_>,
    done: &mut Erased,
) -> Result<(), StorageError> {
    let (guild_id, user_id, n) = (m.guild_id, m.user_id, m.n);
    done.sessions += sqlx::query("DELETE FROM sessions WHERE guild_id = $1 AND owner_id = $2")
        .bind(guild_id)
        .bind(user_id)
        .execute(&mut **tx)
        .await?
        .rows_affected();
    let (w, binds) = mention_clause("state", n, 2);
    let sql = format!("SELECT id, state, expires_at FROM sessions WHERE guild_id = $1 AND {w}");
    let mut q = sqlx::query(&sql).bind(guild_id);
    for b in &binds {
        q = q.bind(b);
    }
    for r in q.fetch_all(&mut **tx).await? {
        let (id, state): (i64, String) = (r.try_get(0)?, r.try_get(1)?);
        let tracker = r.try_get::<Option<i64>, _>(2)?.is_none();
        if !n.mentions(&state) {
            continue;
        }
        if tracker {
            if let Some(s) = scrub_text(&state, n, Depth::Mentions) {
                sqlx::query("UPDATE sessions SET state = $1 WHERE id = $2")
                    .bind(s)
                    .bind(id)
                    .execute(&mut **tx)
                    .await?;
                done.rewritten += 1;
            }
        } else {
            done.sessions += sqlx::query("DELETE FROM sessions WHERE id = $1")
                .bind(id)
                .execute(&mut **tx)
                .await?
                .rows_affected();
        }
    }

    Ok(())
}

/// Their own log entries: anonymous, numbers kept.
async fn anonymise_own_log(
    tx: &mut Tx,
    m: &Member<'_>,
    done: &mut Erased,
) -> Result<(), StorageError> {
    let (guild_id, user_id, ids, n) = (m.guild_id, m.user_id, m.ids, m.n);
    let rows = sqlx::query(
        "SELECT id, inputs, dice, outcome, character_id, action FROM roll_log WHERE guild_id = $1 AND user_id = $2",
    )
    .bind(guild_id)
    .bind(user_id)
    .fetch_all(&mut **tx)
    .await?;
    for r in rows {
        let id: i64 = r.try_get(0)?;
        let (inputs, dice, outcome): (String, String, String) =
            (r.try_get(1)?, r.try_get(2)?, r.try_get(3)?);
        let character: Option<i64> = r.try_get(4)?;
        let action: String = r.try_get(5)?;
        let character = character.filter(|c| !ids.contains(c));
        let inputs = strip_sheet(&action, &inputs).unwrap_or(inputs);
        let inputs = scrub_text(&inputs, n, Depth::AllText).unwrap_or(inputs);
        let dice = scrub_text(&dice, n, Depth::Theirs).unwrap_or(dice);
        let outcome = strip_sheet(&action, &outcome).unwrap_or(outcome);
        let outcome = scrub_text(&outcome, n, Depth::Theirs).unwrap_or(outcome);
        sqlx::query(
            "UPDATE roll_log SET user_id = $1, character_id = $2, session_id = NULL,
                    inputs = $3, dice = $4, outcome = $5
             WHERE id = $6",
        )
        .bind(ERASED)
        .bind(character)
        .bind(inputs)
        .bind(dice)
        .bind(outcome)
        .bind(id)
        .execute(&mut **tx)
        .await?;
        done.log_entries += 1;
    }

    Ok(())
}

/// Others' log entries about their characters or naming them.
async fn log_rows_about(
    tx: &mut Tx,
    m: &Member<'_>,
) -> Result<std::collections::BTreeSet<i64>, StorageError> {
    let (guild_id, ids, n) = (m.guild_id, m.ids, m.n);
    let mut about: std::collections::BTreeSet<i64> = std::collections::BTreeSet::new();
    for chunk in ids.chunks(500) {
        let marks: Vec<String> = (0..chunk.len()).map(|i| format!("${}", i + 2)).collect();
        let sql = format!(
            "SELECT id FROM roll_log WHERE guild_id = $1 AND character_id IN ({})",
            marks.join(", ")
        );
        let mut q = sqlx::query(&sql).bind(guild_id);
        for id in chunk {
            q = q.bind(id);
        }
        for r in q.fetch_all(&mut **tx).await? {
            about.insert(r.try_get(0)?);
        }
    }
    let (wi, bi) = mention_clause("inputs", n, 2);
    let (wd, bd) = mention_clause("dice", n, 2 + bi.len());
    let (wo, bo) = mention_clause("outcome", n, 2 + bi.len() + bd.len());
    let sql = format!(
        "SELECT id, inputs, dice, outcome FROM roll_log WHERE guild_id = $1 AND ({wi} OR {wd} OR {wo})"
    );
    let mut q = sqlx::query(&sql).bind(guild_id);
    for b in bi.iter().chain(&bd).chain(&bo) {
        q = q.bind(b);
    }
    for r in q.fetch_all(&mut **tx).await? {
        let id: i64 = r.try_get(0)?;
        let named = (1..4).try_fold(false, |any, i| {
            Ok::<_, StorageError>(any || n.mentions(&r.try_get::<String, _>(i)?))
        })?;
        if named {
            about.insert(id);
        }
    }
    Ok(about)
}

/// Rewrites the log entries [`log_rows_about`] found: the link to their
/// character, their sheets and every text naming them go.
async fn scrub_log_rows(
    tx: &mut Tx,
    m: &Member<'_>,
    about: std::collections::BTreeSet<i64>,
    done: &mut Erased,
) -> Result<(), StorageError> {
    let (ids, n) = (m.ids, m.n);
    for id in about {
        let r = sqlx::query(
            "SELECT inputs, dice, outcome, character_id, action FROM roll_log WHERE id = $1",
        )
        .bind(id)
        .fetch_one(&mut **tx)
        .await?;
        let (inputs, dice, outcome): (String, String, String) =
            (r.try_get(0)?, r.try_get(1)?, r.try_get(2)?);
        let character: Option<i64> = r.try_get(3)?;
        let action: String = r.try_get(4)?;
        let theirs = character.is_some_and(|c| ids.contains(&c));
        let character = character.filter(|c| !ids.contains(c));
        let (inputs, outcome) = if theirs {
            (
                strip_sheet(&action, &inputs).unwrap_or(inputs),
                strip_sheet(&action, &outcome).unwrap_or(outcome),
            )
        } else {
            (inputs, outcome)
        };
        let inputs = scrub_text(&inputs, n, Depth::Theirs).unwrap_or(inputs);
        let dice = scrub_text(&dice, n, Depth::Theirs).unwrap_or(dice);
        let outcome = scrub_text(&outcome, n, Depth::Theirs).unwrap_or(outcome);
        sqlx::query(
            "UPDATE roll_log SET character_id = $1, inputs = $2, dice = $3, outcome = $4 WHERE id = $5",
        )
        .bind(character)
        .bind(inputs)
        .bind(dice)
        .bind(outcome)
        .bind(id)
        .execute(&mut **tx)
        .await?;
        done.rewritten += 1;
    }

    Ok(())
}

/// Characters, their histories, and the changes they made elsewhere.
async fn delete_characters(
    tx: &mut Tx,
    m: &Member<'_>,
    done: &mut Erased,
) -> Result<(), StorageError> {
    let (guild_id, user_id, ids) = (m.guild_id, m.user_id, m.ids);
    for chunk in ids.chunks(500) {
        let marks: Vec<String> = (0..chunk.len()).map(|i| format!("${}", i + 2)).collect();
        let list = marks.join(", ");
        for sql in [
            format!(
                "DELETE FROM character_history WHERE guild_id = $1 AND character_id IN ({list})"
            ),
            format!(
                "DELETE FROM veracity_revealed WHERE guild_id = $1 AND character_id IN ({list})"
            ),
        ] {
            let mut q = sqlx::query(&sql).bind(guild_id);
            for id in chunk {
                q = q.bind(id);
            }
            q.execute(&mut **tx).await?;
        }
    }
    done.characters = sqlx::query("DELETE FROM characters WHERE guild_id = $1 AND owner_id = $2")
        .bind(guild_id)
        .bind(user_id)
        .execute(&mut **tx)
        .await?
        .rows_affected();
    sqlx::query("UPDATE character_history SET user_id = $1 WHERE guild_id = $2 AND user_id = $3")
        .bind(ERASED)
        .bind(guild_id)
        .bind(user_id)
        .execute(&mut **tx)
        .await?;
    sqlx::query("DELETE FROM veracity_revealed WHERE guild_id = $1 AND revealed_by = $2")
        .bind(guild_id)
        .bind(user_id)
        .execute(&mut **tx)
        .await?;
    done.named_rolls = sqlx::query("DELETE FROM named_rolls WHERE guild_id = $1 AND user_id = $2")
        .bind(guild_id)
        .bind(user_id)
        .execute(&mut **tx)
        .await?
        .rows_affected();

    Ok(())
}

/// Games (issue 32): they leave every game they play and stop being a
/// game master of any (a role named game master stays: it names nobody).
async fn leave_games(tx: &mut Tx, m: &Member<'_>) -> Result<(), StorageError> {
    sqlx::query("DELETE FROM game_players WHERE guild_id = $1 AND user_id = $2")
        .bind(m.guild_id)
        .bind(m.user_id)
        .execute(&mut **tx)
        .await?;
    sqlx::query("DELETE FROM game_gms WHERE guild_id = $1 AND kind = 'member' AND target_id = $2")
        .bind(m.guild_id)
        .bind(m.user_id)
        .execute(&mut **tx)
        .await?;
    // Nothing waits on them any more.
    super::waits::forget(tx, m.guild_id, m.user_id).await?;
    Ok(())
}

/// Per-channel state and settings naming them (a list keyed by member).
async fn scrub_state(tx: &mut Tx, m: &Member<'_>, done: &mut Erased) -> Result<(), StorageError> {
    let (guild_id, n) = (m.guild_id, m.n);
    for (table, column, key) in [
        ("channel_state", "value", "channel_id, key"),
        ("guild_settings", "settings", "scope"),
    ] {
        let (w, binds) = mention_clause(column, n, 2);
        let sql = format!("SELECT {key}, {column} FROM {table} WHERE guild_id = $1 AND {w}");
        let mut q = sqlx::query(&sql).bind(guild_id);
        for b in &binds {
            q = q.bind(b);
        }
        for r in q.fetch_all(&mut **tx).await? {
            let value: String = r.try_get(column)?;
            let Some(scrubbed) = scrub_text(&value, n, Depth::Mentions) else {
                continue;
            };
            if table == "channel_state" {
                let (channel, k): (i64, String) = (r.try_get(0)?, r.try_get(1)?);
                sqlx::query(
                    "UPDATE channel_state SET value = $1 WHERE guild_id = $2 AND channel_id = $3 AND key = $4",
                )
                .bind(scrubbed)
                .bind(guild_id)
                .bind(channel)
                .bind(k)
                .execute(&mut **tx)
                .await?;
            } else {
                let scope: String = r.try_get(0)?;
                sqlx::query(
                    "UPDATE guild_settings SET settings = $1 WHERE guild_id = $2 AND scope = $3",
                )
                .bind(scrubbed)
                .bind(guild_id)
                .bind(scope)
                .execute(&mut **tx)
                .await?;
            }
            done.rewritten += 1;
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn needles() -> Needles {
        Needles {
            id: 303779529149266183,
            names: vec!["ann".into()],
            texts: vec!["the duke is a fraud".into()],
        }
    }

    #[test]
    fn names_count_as_whole_words_only() {
        let n = needles();
        assert!(n.mentions("Ann rolls"));
        assert!(n.mentions("seat: ann."));
        assert!(!n.mentions("Announce"));
        assert!(n.mentions("<@303779529149266183>"));
        assert!(n.theirs("Secret: The Duke is a fraud!"));
        assert!(!n.theirs("the duke is fine"));
    }

    #[test]
    fn scrubbing_keeps_numbers_and_removes_what_it_is_told() {
        let n = needles();
        let mut v = json!({"who": 303779529149266183u64, "text": "The duke is a fraud", "faces": [3, 6], "kind": "secret"});
        assert!(scrub(&mut v, &n, Depth::Theirs));
        assert_eq!(
            v,
            json!({"who": 0, "text": "", "faces": [3, 6], "kind": "secret"})
        );
        let mut v = json!({"note": "anything", "n": 2});
        assert!(scrub(&mut v, &n, Depth::AllText));
        assert_eq!(v, json!({"note": "", "n": 2}));
        let mut v = json!({"note": "anything", "n": 2});
        assert!(!scrub(&mut v, &n, Depth::Mentions));
        assert_eq!(
            scrub_text("plain Ann", &n, Depth::Mentions).as_deref(),
            Some("(erased)")
        );
        assert_eq!(scrub_text("plain Bob", &n, Depth::Mentions), None);
    }

    #[test]
    fn like_patterns_escape_their_wildcards() {
        assert_eq!(like("50%_a\\"), "%50\\%\\_a\\\\%");
    }
}
