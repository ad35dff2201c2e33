//! The `roll_faces` table: every die face thrown, counted per log entry,
//! die size and face (migration 0050). Written by
//! [`crate::app::log::record_faces`], read by `/stats` and `/history`.

use super::{StorageError, Tx};
use sqlx::Row;

/// How many dice of one size showed one face.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub struct FaceCount {
    /// Sides of the die (6 for a d6).
    pub sides: u32,
    /// The natural face, 1..=sides.
    pub face: u32,
    /// How many.
    pub n: u64,
}

/// Stores the counts of one log entry.
pub async fn append(tx: &mut Tx, log_id: i64, counts: &[FaceCount]) -> Result<(), StorageError> {
    for c in counts {
        sqlx::query(
            "INSERT INTO roll_faces (log_id, sides, face, n) VALUES ($1, $2, $3, $4)
             ON CONFLICT (log_id, sides, face) DO UPDATE SET n = roll_faces.n + excluded.n",
        )
        .bind(log_id)
        .bind(i64::from(c.sides))
        .bind(i64::from(c.face))
        .bind(c.n as i64)
        .execute(&mut **tx)
        .await?;
    }
    Ok(())
}

/// Totals per die size and face over a guild's log, or one member's part
/// of it, sorted by size then face.
pub async fn tally(
    tx: &mut Tx,
    guild_id: i64,
    user_id: Option<i64>,
) -> Result<Vec<FaceCount>, StorageError> {
    tally_visible(tx, guild_id, user_id, None).await
}

/// Like [`tally`], leaving out other members' secret entries (actions
/// starting with `secret`) when `hide_secrets_from` names the viewer, so
/// counts cannot reveal a secret roll.
pub async fn tally_visible(
    tx: &mut Tx,
    guild_id: i64,
    user_id: Option<i64>,
    hide_secrets_from: Option<i64>,
) -> Result<Vec<FaceCount>, StorageError> {
    let mut n = 1;
    let mut next = || {
        n += 1;
        n
    };
    let by_user = user_id.map(|_| format!(" AND l.user_id = ${}", next()));
    let hide = hide_secrets_from.map(|_| {
        format!(
            " AND (l.action NOT LIKE 'secret%' OR l.user_id = ${})",
            next()
        )
    });
    let sql = format!(
        "SELECT f.sides, f.face, SUM(f.n) AS n
         FROM roll_faces f JOIN roll_log l ON l.id = f.log_id
         WHERE l.guild_id = $1{}{}
         GROUP BY f.sides, f.face ORDER BY f.sides, f.face",
        by_user.unwrap_or_default(),
        hide.unwrap_or_default()
    );
    let mut q = sqlx::query(&sql).bind(guild_id);
    if let Some(u) = user_id {
        q = q.bind(u);
    }
    if let Some(v) = hide_secrets_from {
        q = q.bind(v);
    }
    let rows = q.fetch_all(&mut **tx).await?;
    rows.iter().map(from_row).collect()
}

/// The faces of some log entries: (log id, count), in id, size, face order.
pub async fn of_entries(
    tx: &mut Tx,
    log_ids: &[i64],
) -> Result<Vec<(i64, FaceCount)>, StorageError> {
    if log_ids.is_empty() {
        return Ok(Vec::new());
    }
    let marks: Vec<String> = (1..=log_ids.len()).map(|i| format!("${i}")).collect();
    let sql = format!(
        "SELECT log_id, sides, face, n FROM roll_faces WHERE log_id IN ({})
         ORDER BY log_id, sides, face",
        marks.join(", ")
    );
    let mut q = sqlx::query(&sql);
    for id in log_ids {
        q = q.bind(id);
    }
    let rows = q.fetch_all(&mut **tx).await?;
    rows.iter()
        .map(|r| Ok((r.try_get("log_id")?, from_row(r)?)))
        .collect()
}

fn from_row(r: &sqlx::sqlite::SqliteRow) -> Result<FaceCount, StorageError> {
    Ok(FaceCount {
        sides: r.try_get::<i64, _>("sides")? as u32,
        face: r.try_get::<i64, _>("face")? as u32,
        n: r.try_get::<i64, _>("n")?.max(0) as u64,
    })
}
