//! `/history-gm export`: the FC downloads the server's roll log (optionally
//! one channel's, or the last days') as a CSV attachment.
//!
//! An erased member's entries are already anonymous in the log (user id 0,
//! no text, no character: `storage::erase`), and the export adds nothing
//! back: a character's name comes only from a character that still exists.
//! A deleted character's sheet is left out ([`without_sheet`]).

use super::text::{faces_text, iso_utc};
use crate::app::view::{colour, Embed, File, View};
use crate::app::{rights, App, AppError, AppResult, Caller, Response};
use crate::storage::history::{self, Filter, HistoryRow};
use crate::storage::{self, faces::FaceCount, Tx};

/// The CSV stops growing past this many bytes (Discord takes up to 10 MiB
/// per attachment for a bot; this leaves room).
pub const MAX_BYTES: usize = 8 * 1024 * 1024;
/// Rows read per query.
const CHUNK: i64 = 2000;
/// The longest `days` window.
pub const MAX_DAYS: u32 = 3650;

/// The CSV header.
pub const HEADER: &str = "id,time_utc,created_at_ms,guild_id,channel_id,user_id,character_id,character,session_id,system,action,inputs,dice,faces,outcome";

/// What to export.
#[derive(Debug, Clone, Default)]
pub struct ExportQuery {
    /// Only this channel.
    pub channel_id: Option<i64>,
    /// Only the last this many days.
    pub days: Option<u32>,
}

/// `/history-gm export` (FC only): the log as `kismet-log.csv`, privately.
pub async fn export(app: &App, caller: &Caller, q: ExportQuery) -> AppResult {
    if let Some(d) = q.days {
        if d == 0 || d > MAX_DAYS {
            return Err(AppError::user(format!("`days` runs from 1 to {MAX_DAYS}.")));
        }
    }
    let mut tx = app.db.read().await?;
    rights::require_fc(&mut tx, caller, "export the roll log").await?;
    let filter = Filter {
        guild_id: caller.guild_id,
        channel_id: q.channel_id,
        since_ms: q
            .days
            .map(|d| storage::now_ms() - i64::from(d) * 86_400_000),
        upto_id: Some(history::max_id(&mut tx, caller.guild_id).await?),
        game_id: crate::app::games::here(&mut tx, caller)
            .await?
            .map(|g| g.id),
        ..Filter::default()
    };
    let total = history::count(&mut tx, &filter).await?;
    let written = write_csv(&mut tx, &filter).await?;
    drop(tx);
    Ok(Response::ephemeral(export_view(&q, total, written)))
}

/// The CSV as written, oldest entry first, and what it holds.
struct Written {
    csv: String,
    /// Rows written.
    rows: i64,
    /// The file reached [`MAX_BYTES`] before the last entry.
    full: bool,
    /// When the first and the last entry written were made.
    first: Option<i64>,
    last: Option<i64>,
}

/// Writes the entries `filter` selects as CSV, a chunk at a time, up to
/// [`MAX_BYTES`].
async fn write_csv(tx: &mut Tx, filter: &Filter) -> Result<Written, AppError> {
    let mut w = Written {
        csv: String::with_capacity(4096),
        rows: 0,
        full: false,
        first: None,
        last: None,
    };
    w.csv.push_str(HEADER);
    w.csv.push_str("\r\n");
    let mut after = 0i64;
    loop {
        let rows = history::oldest_after(tx, filter, after, CHUNK).await?;
        if rows.is_empty() {
            break;
        }
        let ids: Vec<i64> = rows.iter().map(|r| r.entry.id).collect();
        let faces = storage::faces::of_entries(tx, &ids).await?;
        for row in &rows {
            let mine: Vec<FaceCount> = faces
                .iter()
                .filter(|(id, _)| *id == row.entry.id)
                .map(|(_, f)| *f)
                .collect();
            let line = csv_line(row, &mine);
            if w.csv.len() + line.len() > MAX_BYTES {
                w.full = true;
                return Ok(w);
            }
            w.csv.push_str(&line);
            w.rows += 1;
            w.first.get_or_insert(row.entry.created_at);
            w.last = Some(row.entry.created_at);
        }
        after = rows.last().map_or(after, |r| r.entry.id);
    }
    Ok(w)
}

/// The export's answer: what the file holds, and the file.
fn export_view(q: &ExportQuery, total: i64, w: Written) -> View {
    let written = w.rows;
    let scope = match (q.channel_id, q.days) {
        (Some(c), Some(d)) => format!("<#{c}>, last {d} day(s)"),
        (Some(c), None) => format!("<#{c}>"),
        (None, Some(d)) => format!("the whole server, last {d} day(s)"),
        (None, None) => "the whole server".into(),
    };
    let mut desc = format!("**{written}** entries from {scope}, oldest first, as CSV (UTF-8, one row per roll, reroll, spend or sheet change).");
    if let (Some(a), Some(b)) = (w.first, w.last) {
        desc.push_str(&format!(
            "\nFrom <t:{}:f> to <t:{}:f>.",
            a.div_euclid(1000),
            b.div_euclid(1000)
        ));
    }
    if w.full {
        desc.push_str(&format!(
            "\n⚠️ The file stops at {} MiB: {} older-first entries of {total} fit. Export a channel or fewer `days` for the rest.",
            MAX_BYTES / (1024 * 1024),
            written
        ));
    }
    let embed = Embed::new("📤 Roll log export")
        .description(desc)
        .field(
            "Columns",
            "`id, time_utc, created_at_ms, guild_id, channel_id, user_id, character_id, character, session_id, system, action, inputs, dice, faces, outcome`; inputs, dice and outcome are JSON; faces reads `d6=1,3,3`.",
            false,
        )
        .colour(colour::NEUTRAL);
    let mut view = View::embed(embed);
    view.files.push(File {
        name: "kismet-log.csv".into(),
        bytes: w.csv.into_bytes(),
    });
    view
}

/// One CSV row (RFC 4180, CRLF-terminated).
fn csv_line(row: &HistoryRow, faces: &[FaceCount]) -> String {
    let e = &row.entry;
    let opt = |v: Option<i64>| v.map(|x| x.to_string()).unwrap_or_default();
    let faces = faces_text(faces, u64::MAX)
        .replace(": ", "=")
        .replace(' ', ",")
        .replace(",·,", " ");
    let cells = [
        e.id.to_string(),
        iso_utc(e.created_at),
        e.created_at.to_string(),
        e.guild_id.to_string(),
        e.channel_id.to_string(),
        e.user_id.to_string(),
        opt(e.character_id),
        row.character_name.clone().unwrap_or_default(),
        opt(e.session_id),
        e.system.clone(),
        e.label(),
        without_sheet(row, &e.inputs),
        e.dice.clone(),
        faces,
        without_sheet(row, &e.outcome),
    ];
    let mut line = cells.iter().map(|c| cell(c)).collect::<Vec<_>>().join(",");
    line.push_str("\r\n");
    line
}

/// A log column as exported: as logged, unless the entry's character no
/// longer exists (deleted, or its owner's data erased). Then the sheet it
/// may carry is left out ([`storage::erase::strip_sheet`]).
fn without_sheet(row: &HistoryRow, column: &str) -> String {
    let e = &row.entry;
    if e.character_id.is_none() || row.character_name.is_some() {
        return column.to_string();
    }
    storage::erase::strip_sheet(&e.action, column).unwrap_or_else(|| column.to_string())
}

/// A CSV cell: quoted when needed, and defused when a spreadsheet would
/// read it as a formula (a leading `=`, `+`, `-`, `@`, tab or CR that is
/// not a plain number).
pub fn cell(s: &str) -> String {
    let risky = s.starts_with(['=', '+', '@', '\t', '\r'])
        || (s.starts_with('-') && s.parse::<f64>().is_err());
    let s = if risky {
        format!("'{s}")
    } else {
        s.to_string()
    };
    if s.contains([',', '"', '\n', '\r']) {
        format!("\"{}\"", s.replace('"', "\"\""))
    } else {
        s
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::storage::log::LogEntry;

    #[test]
    fn cells_are_quoted_and_defused() {
        assert_eq!(cell("plain"), "plain");
        assert_eq!(cell("a,b"), "\"a,b\"");
        assert_eq!(cell("say \"hi\""), "\"say \"\"hi\"\"\"");
        assert_eq!(cell("=HYPERLINK(1)"), "'=HYPERLINK(1)");
        assert_eq!(cell("-3"), "-3");
        assert_eq!(cell("-cmd"), "'-cmd");
        assert_eq!(cell("line\nbreak"), "\"line\nbreak\"");
    }

    #[test]
    fn a_deleted_characters_sheet_is_left_out() {
        let mut row = HistoryRow {
            entry: LogEntry {
                character_id: Some(4),
                action: "sheet_create".into(),
                ..LogEntry::default()
            },
            character_name: None,
        };
        let sheet = r#"{"name":"Vex","wit":3}"#;
        assert_eq!(without_sheet(&row, sheet), "{}");
        row.entry.action = "roll".into();
        assert_eq!(
            without_sheet(&row, r#"{"sheet":{"wit":3},"total":9}"#),
            r#"{"total":9}"#
        );
        assert_eq!(without_sheet(&row, "[1,2]"), "[1,2]");
        row.character_name = Some("Vex".into());
        row.entry.action = "sheet_create".into();
        assert_eq!(without_sheet(&row, sheet), sheet);
    }

    #[test]
    fn a_row_has_every_column() {
        let row = HistoryRow {
            entry: LogEntry {
                id: 7,
                guild_id: 1,
                channel_id: 2,
                user_id: 3,
                character_id: Some(4),
                session_id: None,
                system: "generic".into(),
                action: "roll".into(),
                secret: false,
                inputs: r#"{"expression":"3d6"}"#.into(),
                dice: "[]".into(),
                outcome: r#"{"total":9}"#.into(),
                created_at: 0,
            },
            character_name: Some("Vex, the Bold".into()),
        };
        let faces = [
            FaceCount {
                sides: 6,
                face: 2,
                n: 1,
            },
            FaceCount {
                sides: 6,
                face: 3,
                n: 2,
            },
            FaceCount {
                sides: 20,
                face: 1,
                n: 1,
            },
        ];
        let line = csv_line(&row, &faces);
        assert_eq!(
            line,
            "7,1970-01-01T00:00:00Z,0,1,2,3,4,\"Vex, the Bold\",,generic,roll,\"{\"\"expression\"\":\"\"3d6\"\"}\",[],\"d6=2,3,3 d20=1\",\"{\"\"total\"\":9}\"\r\n"
        );
        assert_eq!(HEADER.split(',').count(), 15);
    }
}
