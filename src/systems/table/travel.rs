//! Sheets travel (issue 33, item 4): a shown sheet's **Export** hands the
//! caller a character as a versioned JSON document, and `/<root> sheet
//! import` reads one back as the caller's new character, in any server and
//! from any older version. Written once for every game: the envelope is
//! read here, the sheet inside by its game (`System::import_sheet`, which
//! checks it as that game's sheet commands do). The document is described
//! in `docs/sheets.md`.

use serde::{Deserialize, Serialize};
use serde_json::Value;

use super::sheet_entry;
use crate::app::characters;
use crate::app::pipeline::{Outcome, Table, Turn};
use crate::app::registry::{Registry, System};
use crate::app::view::{clean, plain, File, View};
use crate::app::{App, AppError, AppResult, Caller, Response};
use crate::storage::characters::Character;

/// The version of the envelope (`kismet_sheet`) this Kismet writes and the
/// newest it reads.
pub const FORMAT: u32 = 1;

/// The largest sheet file imported (checked on the attachment's declared
/// size before downloading, and on the bytes received).
pub const MAX_BYTES: usize = 64 * 1024;

/// A sheet document: the envelope around one game's sheet.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Document {
    /// The envelope's version ([`FORMAT`]).
    pub kismet_sheet: u32,
    /// The game's id (`venus`, `veracity`, `storyteller`, `ore`).
    pub system: String,
    /// The version of that game's sheet schema.
    pub version: u32,
    /// The character's name.
    pub name: String,
    /// The sheet, as the game keeps it.
    pub sheet: Value,
}

/// The document of a stored character.
pub fn document(system: &dyn System, name: &str, stored: &str) -> Result<Document, AppError> {
    Ok(Document {
        kismet_sheet: FORMAT,
        system: system.id().to_string(),
        version: system.sheet_version(),
        name: name.to_string(),
        sheet: serde_json::from_str(stored)?,
    })
}

/// `sheet import`'s log inputs: the character and the file's versions.
#[derive(Serialize)]
struct Imported<'a> {
    name: &'a str,
    kismet_sheet: u32,
    version: u32,
}

/// A file's name for a character: its letters and digits (others become
/// `-`), then `.kismet.json`.
fn file_name(name: &str) -> String {
    let stem: String = name
        .chars()
        .map(|c| if c.is_ascii_alphanumeric() { c } else { '-' })
        .collect();
    let stem = stem.trim_matches('-');
    let stem = if stem.is_empty() { "character" } else { stem };
    format!("{}.kismet.json", stem.chars().take(60).collect::<String>())
}

/// A sheet's **Export** ([`super::card`], which replaced `/<root> sheet
/// export`): `row` (the caller's own, or for the game master anyone's) as
/// a JSON file, privately.
pub async fn export_row(turn: Turn<'_, Table>, system: &dyn System, row: Character) -> AppResult {
    let doc = document(system, &row.name, &row.sheet)?;
    let bytes = serde_json::to_vec_pretty(&doc)?;
    let root = system.command_root().unwrap_or("");
    let mut text = format!(
        "📤 **{}** as a {} sheet file (version {}). Import it in any server with `/{root} sheet import file:`.",
        clean(&plain(&row.name)),
        system.name(),
        doc.version
    );
    if bytes.len() > MAX_BYTES {
        text.push_str(&format!(
            "\n⚠️ This file is larger than {} kB, the most an import takes.",
            MAX_BYTES / 1024
        ));
    }
    let mut view = View::text(text);
    view.files.push(File {
        name: file_name(&row.name),
        bytes,
    });
    turn.finish(Outcome::answer(Response::ephemeral(view)))
        .await
}

/// Reads a sheet file's envelope for `system`: JSON, a Kismet sheet, of an
/// envelope and sheet version this Kismet reads, of this game. A refusal
/// names the field.
pub fn read(bytes: &[u8], system: &dyn System, registry: &Registry) -> Result<Document, AppError> {
    if bytes.len() > MAX_BYTES {
        return Err(AppError::user(format!(
            "file: larger than {} kB, the most a sheet file may be.",
            MAX_BYTES / 1024
        )));
    }
    let value: Value = serde_json::from_slice(bytes).map_err(|e| {
        AppError::user(format!(
            "file: not JSON (line {}, column {}): a sheet file is the JSON a sheet's **Export** writes.",
            e.line(),
            e.column()
        ))
    })?;
    let Some(object) = value.as_object() else {
        return Err(AppError::user(
            "file: not a Kismet sheet file (a JSON object with `kismet_sheet`, `system`, `version`, `name` and `sheet`).",
        ));
    };
    let format = match object.get("kismet_sheet") {
        None => {
            return Err(AppError::user(
                "kismet_sheet: missing; this is not a Kismet sheet file (make one with **Export** on `sheet show`).",
            ))
        }
        Some(v) => v.as_u64().ok_or_else(|| {
            AppError::user(format!("kismet_sheet: {v} is not a version number."))
        })?,
    };
    if format == 0 || format > u64::from(FORMAT) {
        return Err(AppError::user(format!(
            "kismet_sheet: version {format} is not one this Kismet reads (1 to {FORMAT}); update Kismet, or export the sheet again."
        )));
    }
    let doc: Document = serde_path_to_error::deserialize(value).map_err(|e| {
        let path = e.path().to_string();
        let path = if path == "." { "file".into() } else { path };
        AppError::user(format!("{path}: {}", e.inner()))
    })?;
    if doc.system != system.id() {
        let here = system.name();
        return Err(AppError::user(
            match registry.get(&doc.system).filter(|s| s.has_sheets()) {
                Some(s) => format!(
                    "system: this file holds a {} sheet, not a {here} sheet; import it with `/{} sheet import`.",
                    s.name(),
                    s.command_root().unwrap_or("")
                ),
                None => format!(
                    "system: this file holds `{}`, which is not a game here (a {here} sheet says `{}`).",
                    plain(&doc.system),
                    system.id()
                ),
            },
        ));
    }
    let current = system.sheet_version();
    if doc.version == 0 || doc.version > current {
        return Err(AppError::user(format!(
            "version: {} sheet version {} is not one this Kismet reads (1 to {current}).",
            system.name(),
            doc.version
        )));
    }
    Ok(doc)
}

/// A refusal about one field: `field: message` (faults pass unchanged).
fn about(field: &str, e: AppError) -> AppError {
    match e {
        AppError::User(m) => AppError::user(format!("{field}: {m}")),
        other => other,
    }
}

/// `/<root> sheet import`: the sheet file's character saved as the
/// caller's new active character, in one transaction with its log entry;
/// a refusal names the field and saves nothing.
pub async fn import(app: &App, caller: &Caller, system: &dyn System, bytes: &[u8]) -> AppResult {
    let doc = read(bytes, system, &app.registry)?;
    let name = characters::check_name(&doc.name).map_err(|e| about("name", e))?;
    let mut turn = Turn::<Table>::begin(app, caller).await?;
    let stored = system
        .import_sheet(turn.act(), doc.version, &name, doc.sheet)
        .await?;
    let row = turn
        .create_stored(caller.user_id, system.id(), &name, &stored)
        .await
        .map_err(|e| about("name", e))?;
    let imported = Imported {
        name: &row.name,
        kismet_sheet: doc.kismet_sheet,
        version: doc.version,
    };
    let log = sheet_entry(system, "sheet_import", &row, &imported);
    let answer = Response::ephemeral(View::text(format!(
        "📥 **{}** is imported as your active {} character. See it with `/{} sheet show`.",
        clean(&plain(&row.name)),
        system.name(),
        system.command_root().unwrap_or("")
    )));
    turn.finish(Outcome::answer(answer).log(log)).await
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn refusal(bytes: &[u8], system: &str) -> String {
        let registry = crate::systems::registry();
        let system = registry.get(system).unwrap();
        match read(bytes, system, &registry) {
            Err(AppError::User(m)) => m,
            other => panic!("not refused: {other:?}"),
        }
    }

    #[test]
    fn envelopes_are_read_or_refused_naming_the_field() {
        let registry = crate::systems::registry();
        let vr = registry.get("veracity").unwrap();
        let doc = json!({"kismet_sheet": 1, "system": "veracity", "version": 1, "name": "Old", "sheet": {}});
        let read_back = read(doc.to_string().as_bytes(), vr, &registry).unwrap();
        assert_eq!(read_back.version, 1, "an older sheet version is read");
        assert_eq!(read_back.name, "Old");

        let refused = |doc: Value, system| refusal(doc.to_string().as_bytes(), system);
        assert!(refused(
            json!({"kismet_sheet": 2, "system": "ore", "version": 1, "name": "A", "sheet": {}}),
            "ore"
        )
        .starts_with("kismet_sheet: version 2 is not one this Kismet reads"));
        assert!(refused(json!({"kismet_sheet": "1"}), "ore")
            .starts_with("kismet_sheet: \"1\" is not a version number"));
        assert!(refused(
            json!({"kismet_sheet": 1, "system": "ore", "version": 1, "name": 5, "sheet": {}}),
            "ore"
        )
        .starts_with("name: invalid type: integer `5`"));
        assert!(refused(
            json!({"kismet_sheet": 1, "system": "ore", "version": 1, "name": "A"}),
            "ore"
        )
        .starts_with("file: missing field `sheet`"));
        assert!(refused(
            json!({"kismet_sheet": 1, "system": "dnd", "version": 1, "name": "A", "sheet": {}}),
            "ore"
        )
        .starts_with("system: this file holds `dnd`, which is not a game here"));
        assert!(refused(
            json!({"kismet_sheet": 1, "system": "ore", "version": 0, "name": "A", "sheet": {}}),
            "ore"
        )
        .starts_with("version: Virtual Veil sheet version 0"));
        assert!(refusal(b"[1, 2]", "ore").starts_with("file: not a Kismet sheet file"));
        assert!(refusal(b"{\"kismet_sheet\": 1,", "ore").starts_with("file: not JSON (line 1"));
        assert!(refusal(&vec![b' '; MAX_BYTES + 1], "ore").starts_with("file: larger than 64 kB"));
    }

    #[test]
    fn file_names_keep_letters_and_digits() {
        assert_eq!(file_name("Ada Lovelace"), "Ada-Lovelace.kismet.json");
        assert_eq!(file_name("<@123>"), "123.kismet.json");
        assert_eq!(file_name("ümlaut"), "mlaut.kismet.json");
        assert_eq!(file_name("!!!"), "character.kismet.json");
    }
}
