//! Reading the roll log for `/history`: filtered pages, counts, the CSV
//! export in chunks, and character look-ups across systems.

use super::log::LogEntry;
use super::{StorageError, Tx};
use sqlx::Row as _;

/// Which entries to read.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Filter {
    /// The guild (always required).
    pub guild_id: i64,
    /// Only this member's actions.
    pub user_id: Option<i64>,
    /// Only entries about these characters.
    pub character_ids: Option<Vec<i64>>,
    /// Only this channel.
    pub channel_id: Option<i64>,
    /// Only entries at or after this time (ms since the epoch).
    pub since_ms: Option<i64>,
    /// Only entries with an id up to this one (a snapshot, so paging is
    /// stable while new rolls arrive).
    pub upto_id: Option<i64>,
    /// Hide other members' secret entries (the `secret` column) from this
    /// viewer; `None` shows everything (the FC).
    pub hide_secrets_from: Option<i64>,
    /// Only entries logged under one of these system names (a system's id
    /// and aliases: `venus`; `roll`, `generic`).
    pub system: Option<Vec<String>>,
    /// Only entries of this game (issue 32).
    pub game_id: Option<i64>,
}

/// A value bound into a filter's query.
#[derive(Debug, Clone, PartialEq, Eq)]
enum Bind {
    Int(i64),
    Text(String),
}

/// A log entry with its character's name, when it has one.
#[derive(Debug, Clone, PartialEq)]
pub struct HistoryRow {
    /// The entry.
    pub entry: LogEntry,
    /// The character's current name (None when none or deleted).
    pub character_name: Option<String>,
}

/// A character found by name in any system.
#[derive(Debug, Clone, PartialEq)]
pub struct NamedCharacter {
    /// Row id.
    pub id: i64,
    /// Its name.
    pub name: String,
    /// Its system.
    pub system: String,
    /// Its owner.
    pub owner_id: i64,
}

/// The WHERE clause and its binds (in order) for a filter.
fn clause(f: &Filter) -> (String, Vec<Bind>) {
    let mut sql = String::from("l.guild_id = $1");
    let mut binds = vec![Bind::Int(f.guild_id)];
    let add = |sql: &mut String, binds: &mut Vec<Bind>, text: &str, v: i64| {
        binds.push(Bind::Int(v));
        sql.push_str(&text.replace('?', &format!("${}", binds.len())));
    };
    if let Some(names) = &f.system {
        let mut marks = Vec::new();
        for name in names {
            binds.push(Bind::Text(name.clone()));
            marks.push(format!("${}", binds.len()));
        }
        if marks.is_empty() {
            sql.push_str(" AND 1 = 0");
        } else {
            sql.push_str(&format!(" AND l.system IN ({})", marks.join(", ")));
        }
    }
    if let Some(u) = f.user_id {
        add(&mut sql, &mut binds, " AND l.user_id = ?", u);
    }
    if let Some(c) = f.channel_id {
        add(&mut sql, &mut binds, " AND l.channel_id = ?", c);
    }
    if let Some(g) = f.game_id {
        add(&mut sql, &mut binds, " AND l.game_id = ?", g);
    }
    if let Some(t) = f.since_ms {
        add(&mut sql, &mut binds, " AND l.created_at >= ?", t);
    }
    if let Some(id) = f.upto_id {
        add(&mut sql, &mut binds, " AND l.id <= ?", id);
    }
    if let Some(v) = f.hide_secrets_from {
        add(
            &mut sql,
            &mut binds,
            " AND (l.secret = 0 OR l.user_id = ?)",
            v,
        );
    }
    if let Some(ids) = &f.character_ids {
        if ids.is_empty() {
            sql.push_str(" AND 1 = 0");
        } else {
            let mut marks = Vec::new();
            for id in ids {
                binds.push(Bind::Int(*id));
                marks.push(format!("${}", binds.len()));
            }
            sql.push_str(&format!(" AND l.character_id IN ({})", marks.join(", ")));
        }
    }
    (sql, binds)
}

const COLUMNS: &str = "l.id, l.guild_id, l.channel_id, l.user_id, l.character_id, l.session_id, l.system, l.action, l.inputs, l.dice, l.outcome, l.created_at, l.secret, c.name AS character_name";

/// How many entries match.
pub async fn count(tx: &mut Tx, f: &Filter) -> Result<i64, StorageError> {
    let (w, binds) = clause(f);
    let sql = format!("SELECT COUNT(*) FROM roll_log l WHERE {w}");
    let mut q = sqlx::query(&sql);
    for b in binds {
        q = match b {
            Bind::Int(v) => q.bind(v),
            Bind::Text(t) => q.bind(t),
        };
    }
    q.fetch_one(&mut **tx).await?.try_get(0)
}

/// The newest entry id of a guild (0 when the log is empty).
pub async fn max_id(tx: &mut Tx, guild_id: i64) -> Result<i64, StorageError> {
    let row = sqlx::query("SELECT COALESCE(MAX(id), 0) FROM roll_log WHERE guild_id = $1")
        .bind(guild_id)
        .fetch_one(&mut **tx)
        .await?;
    row.try_get(0)
}

/// Matching entries, newest first, skipping `offset`.
pub async fn newest(
    tx: &mut Tx,
    f: &Filter,
    limit: i64,
    offset: i64,
) -> Result<Vec<HistoryRow>, StorageError> {
    let order = |n: usize| format!("ORDER BY l.id DESC LIMIT ${} OFFSET ${}", n + 1, n + 2);
    select(tx, f, order, [limit, offset]).await
}

/// Matching entries with an id above `after_id`, oldest first (for the
/// export, read in chunks).
pub async fn oldest_after(
    tx: &mut Tx,
    f: &Filter,
    after_id: i64,
    limit: i64,
) -> Result<Vec<HistoryRow>, StorageError> {
    let order = |n: usize| format!("AND l.id > ${} ORDER BY l.id LIMIT ${}", n + 1, n + 2);
    select(tx, f, order, [after_id, limit]).await
}

/// The entries `f` matches, then `rest` (given how many parameters the
/// filter binds; it names two more), with `tail` bound to those two.
async fn select(
    tx: &mut Tx,
    f: &Filter,
    rest: impl Fn(usize) -> String,
    tail: [i64; 2],
) -> Result<Vec<HistoryRow>, StorageError> {
    let (w, binds) = clause(f);
    let sql = format!(
        "SELECT {COLUMNS} FROM roll_log l LEFT JOIN characters c ON c.id = l.character_id
         WHERE {w} {}",
        rest(binds.len())
    );
    let mut q = sqlx::query(&sql);
    for b in binds {
        q = match b {
            Bind::Int(v) => q.bind(v),
            Bind::Text(t) => q.bind(t),
        };
    }
    let rows = q.bind(tail[0]).bind(tail[1]).fetch_all(&mut **tx).await?;
    rows.iter().map(from_row).collect()
}

/// Characters of the guild with this name (case-insensitive), any system
/// and owner.
pub async fn characters_named(
    tx: &mut Tx,
    guild_id: i64,
    name: &str,
) -> Result<Vec<NamedCharacter>, StorageError> {
    let rows = sqlx::query(
        "SELECT id, name, system, owner_id FROM characters WHERE guild_id = $1 AND name_key = $2 ORDER BY id",
    )
    .bind(guild_id)
    .bind(super::characters::name_key(name))
    .fetch_all(&mut **tx)
    .await?;
    rows.iter()
        .map(|r| {
            Ok(NamedCharacter {
                id: r.try_get("id")?,
                name: r.try_get("name")?,
                system: r.try_get("system")?,
                owner_id: r.try_get("owner_id")?,
            })
        })
        .collect()
}

/// Distinct character names of the guild (any system), by name, at most `limit`.
pub async fn character_names(
    tx: &mut Tx,
    guild_id: i64,
    limit: i64,
) -> Result<Vec<String>, StorageError> {
    let rows = sqlx::query(
        "SELECT MIN(name) AS name FROM characters WHERE guild_id = $1 GROUP BY name_key ORDER BY name_key LIMIT $2",
    )
    .bind(guild_id)
    .bind(limit)
    .fetch_all(&mut **tx)
    .await?;
    rows.iter().map(|r| r.try_get("name")).collect()
}

fn from_row(r: &sqlx::any::AnyRow) -> Result<HistoryRow, StorageError> {
    Ok(HistoryRow {
        entry: super::log::from_row(r)?,
        character_name: r.try_get("character_name")?,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_clause_numbers_its_binds_in_order() {
        let f = Filter {
            guild_id: 1,
            user_id: Some(2),
            character_ids: Some(vec![7, 8]),
            upto_id: Some(99),
            hide_secrets_from: Some(5),
            system: Some(vec!["roll".into(), "generic".into()]),
            ..Filter::default()
        };
        let (sql, binds) = clause(&f);
        assert_eq!(
            sql,
            "l.guild_id = $1 AND l.system IN ($2, $3) AND l.user_id = $4 AND l.id <= $5 AND (l.secret = 0 OR l.user_id = $6) AND l.character_id IN ($7, $8)"
        );
        let ints = |v: &[i64]| v.iter().map(|i| Bind::Int(*i)).collect::<Vec<_>>();
        let mut want = ints(&[1]);
        want.push(Bind::Text("roll".into()));
        want.push(Bind::Text("generic".into()));
        want.extend(ints(&[2, 99, 5, 7, 8]));
        assert_eq!(binds, want);
    }
}
