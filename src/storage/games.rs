//! The games of a server (migration 0091, issue 32): `games` (a name
//! unique per guild in any case, a system, a pace, archived once
//! `ended_at` is set), and what hangs off each: `game_channels` (a
//! channel, a category or a thread's parent), `game_gms` (a member or a
//! role) and `game_players` (with their active character in the game).
//! Rows written before games existed belong to no game.

use super::{StorageError, Tx};
use sqlx::Row;

/// A game, as stored.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Game {
    /// Row id.
    pub id: i64,
    /// Guild.
    pub guild_id: i64,
    /// The name as typed.
    pub name: String,
    /// The system it plays (a registry id).
    pub system: String,
    /// `live` or `post`.
    pub pace: String,
    /// How many days a post-pace roll stays live.
    pub post_days: i64,
    /// When it was archived (ms), if it was.
    pub ended_at: Option<i64>,
    /// When it was created (ms).
    pub created_at: i64,
    /// Its own GM channel for secret rolls (else the server's).
    pub gm_channel: Option<i64>,
}

impl Game {
    /// Whether it still plays (not archived).
    pub fn live(&self) -> bool {
        self.ended_at.is_none()
    }
}

/// Who a game master entry names.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Gm {
    /// A member (user id).
    Member(i64),
    /// Every member with a role (role id).
    Role(i64),
}

impl Gm {
    fn parts(self) -> (&'static str, i64) {
        match self {
            Gm::Member(id) => ("member", id),
            Gm::Role(id) => ("role", id),
        }
    }
}

/// A player of a game.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Player {
    /// The member.
    pub user_id: i64,
    /// Their active character in the game (`None`: the server-wide one).
    pub character_id: Option<i64>,
}

/// What one [`Tx`] has read of which games hold which channels, so that
/// an action asks once however often it needs its game (its rights, its
/// log entries, its characters, its settings); any change to a game's
/// channels or state in the transaction forgets it.
#[derive(Debug, Default)]
pub(crate) struct Seen {
    /// `(guild, channels)` → [`holding`]'s answer.
    holding: std::collections::HashMap<(i64, Vec<i64>), Holding>,
}

/// Games with the channel each holds, as [`holding`] answers.
pub type Holding = Vec<(Game, i64)>;

fn forget_seen(tx: &mut Tx) {
    tx.games.holding.clear();
}

/// The live game holding `channels` (a channel and its parent) as the
/// transaction already read it ([`holding`]): `None` when it has not asked.
pub fn seen_live(tx: &Tx, guild_id: i64, channels: &[i64]) -> Option<Option<i64>> {
    tx.games
        .holding
        .get(&(guild_id, channels.to_vec()))
        .map(|found| found.iter().find(|(g, _)| g.live()).map(|(g, _)| g.id))
}

/// The SQL of the live game holding the channel `a` or its parent `b`
/// (the channel's own first, then the newest), for a statement that
/// writes it without asking first ([`super::log::append_here`]).
pub fn live_game_sql(guild: &str, a: &str, b: &str) -> String {
    format!(
        "(SELECT c.game_id FROM game_channels c JOIN games g ON g.id = c.game_id
          WHERE c.guild_id = {guild} AND c.channel_id IN ({a}, {b}) AND g.ended_at IS NULL
          ORDER BY CASE WHEN c.channel_id = {a} THEN 0 ELSE 1 END, g.id DESC LIMIT 1)"
    )
}

/// The key a game name is stored under: trimmed, lower case.
pub fn key(name: &str) -> String {
    name.trim().to_lowercase()
}

const COLUMNS: &str =
    "id, guild_id, name, system, pace, post_days, ended_at, created_at, gm_channel";

fn game(r: &sqlx::any::AnyRow) -> Result<Game, StorageError> {
    Ok(Game {
        id: r.try_get("id")?,
        guild_id: r.try_get("guild_id")?,
        name: r.try_get("name")?,
        system: r.try_get("system")?,
        pace: r.try_get("pace")?,
        post_days: r.try_get("post_days")?,
        ended_at: r.try_get("ended_at")?,
        created_at: r.try_get("created_at")?,
        gm_channel: r.try_get("gm_channel")?,
    })
}

/// Creates a game; `None` when the guild has one of that name already
/// (any case).
pub async fn create(
    tx: &mut Tx,
    guild_id: i64,
    name: &str,
    system: &str,
    now: i64,
) -> Result<Option<i64>, StorageError> {
    forget_seen(tx);
    let row = sqlx::query(
        "INSERT INTO games (guild_id, name, name_key, system, created_at)
         VALUES ($1, $2, $3, $4, $5)
         ON CONFLICT (guild_id, name_key) DO NOTHING RETURNING id",
    )
    .bind(guild_id)
    .bind(name.trim())
    .bind(key(name))
    .bind(system)
    .bind(now)
    .fetch_optional(&mut **tx)
    .await?;
    row.map(|r| r.try_get(0)).transpose()
}

/// How many games of a guild still play.
pub async fn count_live(tx: &mut Tx, guild_id: i64) -> Result<i64, StorageError> {
    let row = sqlx::query("SELECT COUNT(*) FROM games WHERE guild_id = $1 AND ended_at IS NULL")
        .bind(guild_id)
        .fetch_one(&mut **tx)
        .await?;
    row.try_get(0)
}

/// The systems the guild's live games play, each once, in name order.
pub async fn live_systems(tx: &mut Tx, guild_id: i64) -> Result<Vec<String>, StorageError> {
    let rows = sqlx::query(
        "SELECT DISTINCT system FROM games WHERE guild_id = $1 AND ended_at IS NULL ORDER BY system",
    )
    .bind(guild_id)
    .fetch_all(&mut **tx)
    .await?;
    rows.iter().map(|r| r.try_get(0)).collect()
}

/// A game of the guild by id.
pub async fn get(tx: &mut Tx, guild_id: i64, id: i64) -> Result<Option<Game>, StorageError> {
    let row = sqlx::query(&format!(
        "SELECT {COLUMNS} FROM games WHERE guild_id = $1 AND id = $2"
    ))
    .bind(guild_id)
    .bind(id)
    .fetch_optional(&mut **tx)
    .await?;
    row.as_ref().map(game).transpose()
}

/// The guild's live games, in name order (at most `limit`).
pub async fn list_live(tx: &mut Tx, guild_id: i64, limit: i64) -> Result<Vec<Game>, StorageError> {
    let rows = sqlx::query(&format!(
        "SELECT {COLUMNS} FROM games WHERE guild_id = $1 AND ended_at IS NULL ORDER BY name_key LIMIT $2"
    ))
    .bind(guild_id)
    .bind(limit)
    .fetch_all(&mut **tx)
    .await?;
    rows.iter().map(game).collect()
}

/// A game of the guild by name (any case).
pub async fn by_name(tx: &mut Tx, guild_id: i64, name: &str) -> Result<Option<Game>, StorageError> {
    let row = sqlx::query(&format!(
        "SELECT {COLUMNS} FROM games WHERE guild_id = $1 AND name_key = $2"
    ))
    .bind(guild_id)
    .bind(key(name))
    .fetch_optional(&mut **tx)
    .await?;
    row.as_ref().map(game).transpose()
}

/// The games that hold any of `channels` (a channel and its parent), each
/// with the channel it holds: the first channel's first, live games
/// before ended ones, newest first. Read once per transaction ([`Seen`]).
pub async fn holding(
    tx: &mut Tx,
    guild_id: i64,
    channels: &[i64],
) -> Result<Holding, StorageError> {
    let key = (guild_id, channels.to_vec());
    if let Some(known) = tx.games.holding.get(&key) {
        return Ok(known.clone());
    }
    let mut out = Vec::new();
    for &channel in channels {
        let rows = sqlx::query(&format!(
            "SELECT g.{}, c.channel_id FROM games g
             JOIN game_channels c ON c.game_id = g.id
             WHERE c.guild_id = $1 AND c.channel_id = $2
             ORDER BY CASE WHEN g.ended_at IS NULL THEN 0 ELSE 1 END, g.id DESC",
            COLUMNS.replace(", ", ", g.")
        ))
        .bind(guild_id)
        .bind(channel)
        .fetch_all(&mut **tx)
        .await?;
        for r in &rows {
            out.push((game(r)?, r.try_get("channel_id")?));
        }
    }
    tx.games.holding.insert(key, out.clone());
    Ok(out)
}

/// The channels of a game, by id.
pub async fn channels(tx: &mut Tx, game_id: i64) -> Result<Vec<i64>, StorageError> {
    let rows =
        sqlx::query("SELECT channel_id FROM game_channels WHERE game_id = $1 ORDER BY channel_id")
            .bind(game_id)
            .fetch_all(&mut **tx)
            .await?;
    rows.iter().map(|r| r.try_get(0)).collect()
}

/// Adds a channel to a game; false when it had it already.
pub async fn add_channel(
    tx: &mut Tx,
    guild_id: i64,
    game_id: i64,
    channel_id: i64,
) -> Result<bool, StorageError> {
    forget_seen(tx);
    let done = sqlx::query(
        "INSERT INTO game_channels (guild_id, game_id, channel_id) VALUES ($1, $2, $3)
         ON CONFLICT (game_id, channel_id) DO NOTHING",
    )
    .bind(guild_id)
    .bind(game_id)
    .bind(channel_id)
    .execute(&mut **tx)
    .await?;
    Ok(done.rows_affected() > 0)
}

/// Removes a channel from a game; false when it did not have it.
pub async fn remove_channel(
    tx: &mut Tx,
    game_id: i64,
    channel_id: i64,
) -> Result<bool, StorageError> {
    forget_seen(tx);
    let done = sqlx::query("DELETE FROM game_channels WHERE game_id = $1 AND channel_id = $2")
        .bind(game_id)
        .bind(channel_id)
        .execute(&mut **tx)
        .await?;
    Ok(done.rows_affected() > 0)
}

/// The game masters of a game: members first, then roles, by id.
pub async fn gms(tx: &mut Tx, game_id: i64) -> Result<Vec<Gm>, StorageError> {
    let rows = sqlx::query(
        "SELECT kind, target_id FROM game_gms WHERE game_id = $1 ORDER BY kind, target_id",
    )
    .bind(game_id)
    .fetch_all(&mut **tx)
    .await?;
    let mut out = Vec::with_capacity(rows.len());
    for r in &rows {
        let kind: String = r.try_get(0)?;
        let id: i64 = r.try_get(1)?;
        out.push(if kind == "role" {
            Gm::Role(id)
        } else {
            Gm::Member(id)
        });
    }
    Ok(out)
}

/// Adds a game master; false when the game had them already.
pub async fn add_gm(
    tx: &mut Tx,
    guild_id: i64,
    game_id: i64,
    gm: Gm,
) -> Result<bool, StorageError> {
    let (kind, id) = gm.parts();
    let done = sqlx::query(
        "INSERT INTO game_gms (guild_id, game_id, kind, target_id) VALUES ($1, $2, $3, $4)
         ON CONFLICT (game_id, kind, target_id) DO NOTHING",
    )
    .bind(guild_id)
    .bind(game_id)
    .bind(kind)
    .bind(id)
    .execute(&mut **tx)
    .await?;
    Ok(done.rows_affected() > 0)
}

/// Removes a game master; false when the game did not have them.
pub async fn remove_gm(tx: &mut Tx, game_id: i64, gm: Gm) -> Result<bool, StorageError> {
    let (kind, id) = gm.parts();
    let done =
        sqlx::query("DELETE FROM game_gms WHERE game_id = $1 AND kind = $2 AND target_id = $3")
            .bind(game_id)
            .bind(kind)
            .bind(id)
            .execute(&mut **tx)
            .await?;
    Ok(done.rows_affected() > 0)
}

/// The players of a game, in the order they joined.
pub async fn players(tx: &mut Tx, game_id: i64) -> Result<Vec<Player>, StorageError> {
    let rows = sqlx::query(
        "SELECT user_id, character_id FROM game_players WHERE game_id = $1
         ORDER BY joined_at, user_id",
    )
    .bind(game_id)
    .fetch_all(&mut **tx)
    .await?;
    rows.iter().map(player_of).collect()
}

/// A `game_players` row read as `user_id, character_id`.
fn player_of(r: &sqlx::any::AnyRow) -> Result<Player, StorageError> {
    Ok(Player {
        user_id: r.try_get(0)?,
        character_id: r.try_get(1)?,
    })
}

/// One player of a game, if the member joined it.
pub async fn player(
    tx: &mut Tx,
    game_id: i64,
    user_id: i64,
) -> Result<Option<Player>, StorageError> {
    let row = sqlx::query(
        "SELECT user_id, character_id FROM game_players WHERE game_id = $1 AND user_id = $2",
    )
    .bind(game_id)
    .bind(user_id)
    .fetch_optional(&mut **tx)
    .await?;
    row.as_ref().map(player_of).transpose()
}

/// Makes a member a player of a game with that active character (or
/// changes it, for one who joined already).
pub async fn join(
    tx: &mut Tx,
    guild_id: i64,
    game_id: i64,
    user_id: i64,
    character_id: Option<i64>,
    now: i64,
) -> Result<(), StorageError> {
    sqlx::query(
        "INSERT INTO game_players (guild_id, game_id, user_id, character_id, joined_at)
         VALUES ($1, $2, $3, $4, $5)
         ON CONFLICT (game_id, user_id) DO UPDATE SET character_id = excluded.character_id",
    )
    .bind(guild_id)
    .bind(game_id)
    .bind(user_id)
    .bind(character_id)
    .bind(now)
    .execute(&mut **tx)
    .await?;
    Ok(())
}

/// Takes a member out of a game; false when they were not in it.
pub async fn leave(tx: &mut Tx, game_id: i64, user_id: i64) -> Result<bool, StorageError> {
    let done = sqlx::query("DELETE FROM game_players WHERE game_id = $1 AND user_id = $2")
        .bind(game_id)
        .bind(user_id)
        .execute(&mut **tx)
        .await?;
    Ok(done.rows_affected() > 0)
}

/// Archives a game; false when it was archived already.
pub async fn end(tx: &mut Tx, game_id: i64, now: i64) -> Result<bool, StorageError> {
    forget_seen(tx);
    let done = sqlx::query("UPDATE games SET ended_at = $2 WHERE id = $1 AND ended_at IS NULL")
        .bind(game_id)
        .bind(now)
        .execute(&mut **tx)
        .await?;
    Ok(done.rows_affected() > 0)
}

/// Sets (or, with `None`, clears) the game's own GM channel.
pub async fn set_gm_channel(
    tx: &mut Tx,
    game_id: i64,
    channel: Option<i64>,
) -> Result<(), StorageError> {
    forget_seen(tx);
    sqlx::query("UPDATE games SET gm_channel = $2 WHERE id = $1")
        .bind(game_id)
        .bind(channel)
        .execute(&mut **tx)
        .await?;
    Ok(())
}

/// Sets a game's pace (`live` or `post`) and how many days a post-pace
/// roll stays live.
pub async fn set_pace(
    tx: &mut Tx,
    game_id: i64,
    pace: &str,
    days: i64,
) -> Result<(), StorageError> {
    forget_seen(tx);
    sqlx::query("UPDATE games SET pace = $2, post_days = $3 WHERE id = $1")
        .bind(game_id)
        .bind(pace)
        .bind(days)
        .execute(&mut **tx)
        .await?;
    Ok(())
}
