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

/// Stores the counts of one log entry, in one statement per 200 distinct
/// faces (each statement is a round trip to SQLite's thread, so a statement
/// per face made a big roll slow). Counts of the same face are added up.
pub async fn append(tx: &mut Tx, log_id: i64, counts: &[FaceCount]) -> Result<(), StorageError> {
    let mut merged: std::collections::BTreeMap<(u32, u32), u64> = Default::default();
    for c in counts {
        *merged.entry((c.sides, c.face)).or_insert(0) += c.n;
    }
    let rows: Vec<((u32, u32), u64)> = merged.into_iter().collect();
    for chunk in rows.chunks(200) {
        let values: Vec<String> = (0..chunk.len())
            .map(|i| {
                format!(
                    "(${}, ${}, ${}, ${})",
                    4 * i + 1,
                    4 * i + 2,
                    4 * i + 3,
                    4 * i + 4
                )
            })
            .collect();
        let sql = format!(
            "INSERT INTO roll_faces (log_id, sides, face, n) VALUES {}
             ON CONFLICT (log_id, sides, face) DO UPDATE SET n = roll_faces.n + excluded.n",
            values.join(", ")
        );
        let mut q = sqlx::query(&sql);
        for ((sides, face), n) in chunk {
            q = q
                .bind(log_id)
                .bind(i64::from(*sides))
                .bind(i64::from(*face))
                .bind(*n as i64);
        }
        q.execute(&mut **tx).await?;
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
    tally_of(tx, guild_id, None, user_id, Secrets::All).await
}

/// Like [`tally`], leaving out other members' secret entries (the
/// `secret` column) when `hide_secrets_from` names the viewer, so
/// counts cannot reveal a secret roll; with `game_id`, only that game's
/// entries (issue 32: `/stats` in a game's channel).
pub async fn tally_visible(
    tx: &mut Tx,
    guild_id: i64,
    game_id: Option<i64>,
    user_id: Option<i64>,
    hide_secrets_from: Option<i64>,
) -> Result<Vec<FaceCount>, StorageError> {
    let secrets = hide_secrets_from.map_or(Secrets::All, Secrets::VisibleTo);
    tally_of(tx, guild_id, game_id, user_id, secrets).await
}

/// Like [`tally`], without any secret entry: what every member may see
/// (a count with secret dice in it is not for a public message); with
/// `game_id`, only that game's entries.
pub async fn tally_public(
    tx: &mut Tx,
    guild_id: i64,
    game_id: Option<i64>,
    user_id: Option<i64>,
) -> Result<Vec<FaceCount>, StorageError> {
    tally_of(tx, guild_id, game_id, user_id, Secrets::None).await
}

/// Which secret entries a tally counts.
#[derive(Debug, Clone, Copy)]
enum Secrets {
    /// Every one.
    All,
    /// Only this member's own.
    VisibleTo(i64),
    /// None.
    None,
}

async fn tally_of(
    tx: &mut Tx,
    guild_id: i64,
    game_id: Option<i64>,
    user_id: Option<i64>,
    secrets: Secrets,
) -> Result<Vec<FaceCount>, StorageError> {
    let mut n = 1;
    let mut next = || {
        n += 1;
        n
    };
    let by_game = game_id.map(|_| format!(" AND l.game_id = ${}", next()));
    let by_user = user_id.map(|_| format!(" AND l.user_id = ${}", next()));
    let hide = match secrets {
        Secrets::All => String::new(),
        Secrets::VisibleTo(_) => format!(" AND (l.secret = 0 OR l.user_id = ${})", next()),
        Secrets::None => " AND l.secret = 0".to_string(),
    };
    let sql = format!(
        "SELECT f.sides, f.face, CAST(SUM(f.n) AS BIGINT) AS n
         FROM roll_faces f JOIN roll_log l ON l.id = f.log_id
         WHERE l.guild_id = $1{}{}{hide}
         GROUP BY f.sides, f.face ORDER BY f.sides, f.face",
        by_game.unwrap_or_default(),
        by_user.unwrap_or_default(),
    );
    let mut q = sqlx::query(&sql).bind(guild_id);
    if let Some(g) = game_id {
        q = q.bind(g);
    }
    if let Some(u) = user_id {
        q = q.bind(u);
    }
    if let Secrets::VisibleTo(v) = secrets {
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

fn from_row(r: &sqlx::any::AnyRow) -> Result<FaceCount, StorageError> {
    Ok(FaceCount {
        sides: r.try_get::<i64, _>("sides")? as u32,
        face: r.try_get::<i64, _>("face")? as u32,
        n: r.try_get::<i64, _>("n")?.max(0) as u64,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::storage::{log, Db};

    #[tokio::test]
    async fn append_merges_repeats_and_writes_many_faces_in_chunks() {
        let dir = std::env::temp_dir().join(format!("kismet-faces-{}", std::process::id()));
        let url = format!("sqlite://{}", dir.join("faces.db").display());
        let db = Db::open(&url, 2).await.unwrap();
        let mut tx = db.write().await.unwrap();
        let entry = log::LogEntry {
            guild_id: 1,
            user_id: 2,
            system: "generic".into(),
            action: "roll".into(),
            ..log::LogEntry::default()
        };
        let id = log::append(&mut tx, &entry).await.unwrap();
        // 450 distinct d1000 faces (three statements), a repeated face, and
        // a second call adding to a stored count.
        let mut counts: Vec<FaceCount> = (1..=450)
            .map(|face| FaceCount {
                sides: 1000,
                face,
                n: 1,
            })
            .collect();
        counts.push(FaceCount {
            sides: 6,
            face: 6,
            n: 2,
        });
        counts.push(FaceCount {
            sides: 6,
            face: 6,
            n: 3,
        });
        append(&mut tx, id, &counts).await.unwrap();
        append(
            &mut tx,
            id,
            &[FaceCount {
                sides: 6,
                face: 6,
                n: 1,
            }],
        )
        .await
        .unwrap();
        tx.commit().await.unwrap();
        let mut tx = db.read().await.unwrap();
        let all = tally(&mut tx, 1, None).await.unwrap();
        assert_eq!(all.len(), 451);
        assert_eq!(
            all[0],
            FaceCount {
                sides: 6,
                face: 6,
                n: 6
            }
        );
        assert!(all[1..].iter().all(|c| c.sides == 1000 && c.n == 1));
        drop(tx);
        db.close().await;
        let _ = std::fs::remove_dir_all(&dir);
    }
}
