//! The `roll_log` table: every roll, reroll, spend and sheet change.

use super::{StorageError, Tx};
use sqlx::Row;

/// One log entry.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct LogEntry {
    /// Row id (0 before insertion).
    pub id: i64,
    /// Guild.
    pub guild_id: i64,
    /// Channel.
    pub channel_id: i64,
    /// Who acted.
    pub user_id: i64,
    /// The character involved, if any.
    pub character_id: Option<i64>,
    /// The session, if the action belonged to one.
    pub session_id: Option<i64>,
    /// `generic`, `venus`, `veracity`, `storyteller` or `ore`.
    pub system: String,
    /// What was done, e.g. `roll`, `reroll`, `kiss`.
    pub action: String,
    /// A secret entry: only its author and the FC see it (`/history`,
    /// `/stats`, the export).
    pub secret: bool,
    /// The inputs, JSON.
    pub inputs: String,
    /// The dice, JSON.
    pub dice: String,
    /// The outcome, JSON or text.
    pub outcome: String,
    /// Milliseconds since the epoch.
    pub created_at: i64,
}

impl LogEntry {
    /// The action as shown in `/history` and the export: `secret roll` for
    /// a secret `roll`.
    pub fn label(&self) -> String {
        if self.secret {
            format!("secret {}", self.action)
        } else {
            self.action.clone()
        }
    }
}

#[cfg(test)]
impl LogEntry {
    /// A test entry: `action` with its `inputs` and `outcome` JSON, every
    /// other field its default.
    pub fn sample(action: &str, inputs: &str, outcome: &str) -> Self {
        LogEntry {
            action: action.into(),
            inputs: inputs.into(),
            outcome: outcome.into(),
            ..LogEntry::default()
        }
    }
}

/// Appends an entry that belongs to no game and returns its id.
pub async fn append(tx: &mut Tx, e: &LogEntry) -> Result<i64, StorageError> {
    append_in(tx, e, None).await
}

/// Appends an entry of the live game that holds `channel` or its `parent`
/// (none when no live game does), found by the insert itself: no round
/// trip of its own. Returns its id.
pub async fn append_here(
    tx: &mut Tx,
    e: &LogEntry,
    channel: i64,
    parent: i64,
) -> Result<i64, StorageError> {
    let game = super::games::live_game_sql("$1", "$13", "$14");
    let sql = format!(
        "INSERT INTO roll_log (guild_id, channel_id, user_id, character_id, session_id, system, action, inputs, dice, outcome, created_at, secret, game_id)
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, {game}) RETURNING id"
    );
    let row = entry_binds(sqlx::query(&sql), e)
        .bind(channel)
        .bind(parent)
        .fetch_one(&mut **tx)
        .await?;
    let id = row.try_get(0)?;
    super::character_history::link(tx, id, e.character_id, e.user_id, &e.action).await?;
    Ok(id)
}

/// Appends an entry of the game `game_id` (`None`: of no game, as every
/// entry written before games existed) and returns its id.
pub async fn append_in(
    tx: &mut Tx,
    e: &LogEntry,
    game_id: Option<i64>,
) -> Result<i64, StorageError> {
    let row = entry_binds(
        sqlx::query(
            "INSERT INTO roll_log (guild_id, channel_id, user_id, character_id, session_id, system, action, inputs, dice, outcome, created_at, secret, game_id)
             VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13) RETURNING id",
        ),
        e,
    )
    .bind(game_id)
    .fetch_one(&mut **tx)
    .await?;
    let id = row.try_get(0)?;
    super::character_history::link(tx, id, e.character_id, e.user_id, &e.action).await?;
    Ok(id)
}

/// Binds an entry's twelve columns, `$1` to `$12` in the order of the
/// `INSERT`s above (the game's id follows).
fn entry_binds<'q>(
    q: sqlx::query::Query<'q, sqlx::Any, sqlx::any::AnyArguments<'q>>,
    e: &'q LogEntry,
) -> sqlx::query::Query<'q, sqlx::Any, sqlx::any::AnyArguments<'q>> {
    q.bind(e.guild_id)
        .bind(e.channel_id)
        .bind(e.user_id)
        .bind(e.character_id)
        .bind(e.session_id)
        .bind(&e.system)
        .bind(&e.action)
        .bind(&e.inputs)
        .bind(&e.dice)
        .bind(&e.outcome)
        .bind(e.created_at)
        .bind(i64::from(e.secret))
}

/// Entries of one session, oldest first.
pub async fn for_session(
    tx: &mut Tx,
    guild_id: i64,
    session_id: i64,
) -> Result<Vec<LogEntry>, StorageError> {
    let rows = sqlx::query(
        "SELECT id, guild_id, channel_id, user_id, character_id, session_id, system, action, inputs, dice, outcome, created_at, secret
         FROM roll_log WHERE guild_id = $1 AND session_id = $2 ORDER BY id",
    )
    .bind(guild_id)
    .bind(session_id)
    .fetch_all(&mut **tx)
    .await?;
    rows.iter().map(from_row).collect()
}

/// Whether any of the guild's entries `ids` is secret (none for no ids).
pub async fn any_secret(tx: &mut Tx, guild_id: i64, ids: &[i64]) -> Result<bool, StorageError> {
    if ids.is_empty() {
        return Ok(false);
    }
    let marks: Vec<String> = (2..ids.len() + 2).map(|i| format!("${i}")).collect();
    let sql = format!(
        "SELECT COUNT(*) FROM roll_log WHERE guild_id = $1 AND secret <> 0 AND id IN ({})",
        marks.join(", ")
    );
    let mut q = sqlx::query(&sql).bind(guild_id);
    for id in ids {
        q = q.bind(id);
    }
    let n: i64 = q.fetch_one(&mut **tx).await?.try_get(0)?;
    Ok(n > 0)
}

/// Counts a guild's entries (all users).
pub async fn count(tx: &mut Tx, guild_id: i64) -> Result<i64, StorageError> {
    let row = sqlx::query("SELECT COUNT(*) FROM roll_log WHERE guild_id = $1")
        .bind(guild_id)
        .fetch_one(&mut **tx)
        .await?;
    row.try_get(0)
}

/// A `roll_log` row (any query selecting its columns by name) as an entry.
pub(crate) fn from_row(r: &sqlx::any::AnyRow) -> Result<LogEntry, StorageError> {
    Ok(LogEntry {
        id: r.try_get("id")?,
        guild_id: r.try_get("guild_id")?,
        channel_id: r.try_get("channel_id")?,
        user_id: r.try_get("user_id")?,
        character_id: r.try_get("character_id")?,
        session_id: r.try_get("session_id")?,
        system: r.try_get("system")?,
        action: r.try_get("action")?,
        secret: r.try_get::<i64, _>("secret")? != 0,
        inputs: r.try_get("inputs")?,
        dice: r.try_get("dice")?,
        outcome: r.try_get("outcome")?,
        created_at: r.try_get("created_at")?,
    })
}
