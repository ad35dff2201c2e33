//! Undoing a character's last change, in every system alike.
//!
//! Every saved sheet that changed leaves a row in the character's history
//! (`storage::character_history`, written by the storage layer itself):
//! the sheet before and after, who acted and the logged action. [`undo`]
//! puts back the sheet from before the newest change that is not undone
//! yet, in the caller's one transaction, only if the sheet is still what
//! that change left (otherwise something changed since, and the newer
//! change must be undone first). The undo is logged (`undo`) and is itself
//! a history row, so it shows among the changes; undoing again undoes the
//! next older change. Rolls are never thrown again: what a resolved roll
//! did to the sheet is what is undone.

use serde_json::{json, Value};

use super::view::capitalised;
use super::{log, Act, AppError, Caller};
use crate::storage::{self, character_history::Change, characters::Character, Tx};

/// How many changes `/fc undo` shows.
pub const SHOWN: i64 = 5;

/// Most lines of a change's difference shown.
const MAX_LINES: usize = 4;

/// The refusal for a member who is not the game master.
pub const ONLY_FC: &str = "Only the game master (FC) can undo a change.";

/// A character's last changes, newest first.
pub async fn recent(tx: &mut Tx, c: &Character, limit: i64) -> Result<Vec<Change>, AppError> {
    Ok(storage::character_history::recent(tx, c.guild_id, c.id, limit).await?)
}

/// The change an undo of `c` would revert now, if any.
pub async fn next(tx: &mut Tx, c: &Character) -> Result<Option<Change>, AppError> {
    Ok(storage::character_history::newest_undoable(tx, c.guild_id, c.id).await?)
}

/// Whether any of `changes` was made by a secret action (its log entry is
/// secret): such a change is shown only to the game master, privately, and
/// its undo is logged secret too.
pub async fn any_secret(tx: &mut Tx, guild_id: i64, changes: &[&Change]) -> Result<bool, AppError> {
    let ids: Vec<i64> = changes.iter().filter_map(|c| c.log_id).collect();
    Ok(storage::log::any_secret(tx, guild_id, &ids).await?)
}

/// What an undo did.
#[derive(Debug, Clone, PartialEq)]
pub struct Undone {
    /// The change reverted.
    pub change: Change,
    /// The undo's own history row.
    pub undo_id: i64,
    /// The lines of what was put back (`field: now → restored`).
    pub lines: Vec<String>,
}

/// Undoes change `target` of the character `character_id` (the newest not
/// yet undone), as the caller, who must be the game master. Refused, with
/// nothing changed, when it was undone already, when a newer change is
/// still in place, or when the sheet changed since without a record.
pub async fn undo(
    act: &mut Act,
    caller: &Caller,
    system: &str,
    character_id: i64,
    target: i64,
) -> Result<Undone, AppError> {
    if !act.is_fc().await? {
        return Err(AppError::user(ONLY_FC));
    }
    let guild = caller.guild_id;
    let mut row = storage::characters::get(act, guild, character_id)
        .await?
        .ok_or_else(|| AppError::user("That character no longer exists."))?;
    let change = storage::character_history::get(act, guild, target)
        .await?
        .filter(|c| c.character_id == character_id)
        .ok_or_else(|| AppError::user("That change is not in this character's history."))?;
    if change.undone_by.is_some() {
        return Err(AppError::user(format!(
            "That change of {} was undone already.",
            super::view::clean(&row.name)
        )));
    }
    if change.undoes.is_some() {
        return Err(AppError::user("An undo cannot itself be undone here."));
    }
    let newest = next(act, &row).await?;
    if newest.as_ref().map(|c| c.id) != Some(change.id) {
        return Err(AppError::user(format!(
            "{} changed since: undo the newer change first (run `/fc undo` again).",
            super::view::clean(&row.name)
        )));
    }
    if row.sheet != change.after {
        return Err(AppError::user(format!(
            "{}'s sheet changed since that change without a record; nothing was undone.",
            super::view::clean(&row.name)
        )));
    }
    let lines = diff(&change.after, &change.before);
    row.sheet = change.before.clone();
    storage::characters::update(act, &row, storage::now_ms()).await?;
    // Undoing a secret change tells what it did: the undo stays secret too.
    let secret = any_secret(act, guild, &[&change]).await?;
    log::record(
        act,
        &caller.clone().secretly(caller.secret || secret),
        log::What {
            system,
            action: "undo",
            session: None,
            character: Some(character_id),
        },
        &json!({ "change": change.id, "action": change.action, "by": change.user_id }),
        &json!([]),
        &json!({ "restored": lines }),
    )
    .await?;
    let undo_id = storage::character_history::latest_id(act, guild, character_id)
        .await?
        .filter(|&id| id != change.id)
        .ok_or_else(|| AppError::Internal("the undo left no history row".into()))?;
    storage::character_history::mark_undo(act, undo_id, change.id).await?;
    Ok(Undone {
        change,
        undo_id,
        lines,
    })
}

/// Fields that are the bot's bookkeeping, not the game's: never shown.
const INTERNAL: &[&str] = &["overflow_after_zero"];

/// Maps and lists whose entries a player names by themselves (`Thief`,
/// not `jobs.Thief`).
const CONTAINERS: &[&str] = &[
    "abilities",
    "jobs",
    "conditions",
    "stats",
    "traits",
    "attributes",
    "specialties",
];

/// Whether a field is internal: an id, a numbering, the bot's bookkeeping.
fn internal(key: &str) -> bool {
    key == "id" || key.ends_with("_id") || INTERNAL.contains(&key)
}

/// A sheet's path as a player reads it: `vitality.current` → `Vitality`,
/// `light.slots.6` → `Light slot 6`, `jobs.Thief.level` → `Thief level`,
/// `fault_dice` → `Fault dice`.
fn label(path: &str) -> String {
    let segs: Vec<&str> = path.split('.').collect();
    let mut out: Vec<String> = Vec::new();
    for (i, seg) in segs.iter().enumerate() {
        let last = i + 1 == segs.len();
        if seg.parse::<u64>().is_ok() {
            match out.last_mut() {
                Some(prev) => {
                    // `slots` → `slot 6` (not `stress` → `stres`).
                    let one = match prev.strip_suffix('s') {
                        Some(one) if !one.ends_with('s') => one.to_string(),
                        _ => prev.clone(),
                    };
                    *prev = format!("{one} {seg}");
                }
                None => out.push(seg.to_string()),
            }
            continue;
        }
        if (!last && CONTAINERS.contains(seg)) || (last && *seg == "current" && !out.is_empty()) {
            continue;
        }
        out.push(seg.replace('_', " "));
    }
    match capitalised(&out.join(" ")) {
        text if text.is_empty() => "sheet".to_string(),
        text => text,
    }
}

/// The readable difference between two sheets (JSON): one line per
/// changed value in the game's words (`Vitality 5 → 3`, `Thief added:
/// level 1, …`), internal fields left out, at most a few (then `…`).
pub fn diff(before: &str, after: &str) -> Vec<String> {
    let parse = |s: &str| serde_json::from_str::<Value>(s).unwrap_or(Value::String(s.into()));
    let mut out = Vec::new();
    walk("", &parse(before), &parse(after), &mut out);
    if out.len() > MAX_LINES {
        let more = out.len() - (MAX_LINES - 1);
        out.truncate(MAX_LINES - 1);
        out.push(format!("…and {more} more"));
    }
    out
}

fn walk(path: &str, a: &Value, b: &Value, out: &mut Vec<String>) {
    if a == b {
        return;
    }
    let join = |k: &str| {
        if path.is_empty() {
            k.to_string()
        } else {
            format!("{path}.{k}")
        }
    };
    match (a, b) {
        (Value::Object(x), Value::Object(y)) => {
            let mut keys: Vec<&String> = x.keys().chain(y.keys()).collect();
            keys.sort();
            keys.dedup();
            for k in keys {
                let none = Value::Null;
                walk(
                    &join(k),
                    x.get(k).unwrap_or(&none),
                    y.get(k).unwrap_or(&none),
                    out,
                );
            }
        }
        (Value::Array(x), Value::Array(y)) if x.len() == y.len() => {
            for (i, (p, q)) in x.iter().zip(y).enumerate() {
                walk(&join(&(i + 1).to_string()), p, q, out);
            }
        }
        _ => {
            // Internal numbering and bookkeeping are no news.
            let last = path.rsplit('.').next().unwrap_or("");
            if internal(last) {
                return;
            }
            let label = label(path);
            out.push(match (a, b) {
                (Value::Null, Value::Object(_)) => format!("{label} added: {}", short(b)),
                (Value::Object(_), Value::Null) => format!("{label} removed"),
                _ => format!("{label} {} → {}", short(a), short(b)),
            });
        }
    }
}

/// A value as a player reads it: a scalar as itself (a flag as yes or
/// no), a list as `[a, b]`, an object by its one value (an item in a slot:
/// `{"item":{"id":1,"kind":"stress","text":""}}` reads `stress`) or its
/// fields (`rank silver, score 4`), leaving out internal ids and empty
/// texts.
fn words(v: &Value) -> String {
    match v {
        Value::Null => "—".to_string(),
        Value::Bool(true) => "yes".to_string(),
        Value::Bool(false) => "no".to_string(),
        Value::String(s) => s.clone(),
        Value::Array(xs) => {
            let inner: Vec<String> = xs.iter().map(words).collect();
            format!("[{}]", inner.join(", "))
        }
        Value::Object(m) => {
            let shown: Vec<(&String, String)> = m
                .iter()
                .filter(|(k, v)| !(internal(k) || v.is_null() || v.as_str() == Some("")))
                .map(|(k, v)| (k, words(v)))
                .filter(|(_, w)| !w.is_empty())
                .collect();
            match shown.as_slice() {
                [] => "—".to_string(),
                [(_, one)] => one.clone(),
                many => many
                    .iter()
                    .map(|(k, w)| format!("{} {w}", k.replace('_', " ")))
                    .collect::<Vec<_>>()
                    .join(", "),
            }
        }
        other => other.to_string(),
    }
}

fn short(v: &Value) -> String {
    let s = words(v);
    let s = super::view::plain(&s);
    if s.chars().count() > 80 {
        // Cut at a word, never in one.
        let cut: String = s.chars().take(77).collect();
        let cut = match cut.rfind(' ') {
            Some(at) if at > 0 => cut[..at].trim_end_matches(',').to_string(),
            _ => cut,
        };
        format!("{cut} …")
    } else {
        s
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_diff_names_each_changed_value() {
        let d = diff(
            r#"{"stress":[1,2],"name":"Ada","lv":{"n":1}}"#,
            r#"{"stress":[1,3],"name":"Ada","lv":{"n":2},"dead":true}"#,
        );
        assert_eq!(d, vec!["Dead — → yes", "Lv n 1 → 2", "Stress 2 2 → 3"]);
        let d = diff(
            r#"{"a":1,"b":1,"c":1,"d":1,"e":1}"#,
            r#"{"a":2,"b":2,"c":2,"d":2,"e":2}"#,
        );
        assert_eq!(d.len(), 4);
        assert_eq!(d[3], "…and 2 more");
        assert!(diff("{}", "{}").is_empty());
        // An item reads by its words, not its JSON.
        let d = diff(
            r#"{"slots":["empty"],"dice":[8]}"#,
            r#"{"slots":[{"item":{"id":3,"kind":"stress","text":""}}],"dice":[8,1]}"#,
        );
        assert_eq!(d, vec!["Dice [8] → [8, 1]", "Slot 1 empty → stress"]);
        assert!(diff(r#"{"next_item_id":1}"#, r#"{"next_item_id":3}"#).is_empty());
    }
}
