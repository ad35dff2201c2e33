//! One action, one write transaction, by construction.
//!
//! An [`Act`] is the only way the application layer and the systems begin
//! and commit a write transaction: it carries who acts (the [`Caller`]),
//! where (the guild) and, once asked, whether they are the game master.
//! Dropping an `Act` without [`Act::commit`] rolls everything back, so a
//! refusal half-way through an action changes nothing. A unit test below
//! scans the source and fails if a write transaction is opened anywhere
//! else (outside the storage layer's own tests).

use std::ops::{Deref, DerefMut};

use super::{rights, App, AppError, Caller};
use crate::storage::Tx;

/// One action's write transaction.
pub struct Act {
    tx: Tx,
    caller: Caller,
    fc: Option<bool>,
}

impl Act {
    /// Begins `caller`'s action (waits for the writer before it in the
    /// guild: SQLite's one writer, or the guild's lock on PostgreSQL).
    pub async fn begin(app: &App, caller: &Caller) -> Result<Act, AppError> {
        let mut tx = app.db.write_in(caller.guild_id).await?;
        tx.set_now(app.clock.now_ms());
        super::settings::hint_caller(&mut tx, caller);
        Ok(Act {
            tx,
            caller: caller.clone(),
            fc: None,
        })
    }

    /// Begins the bot's own bookkeeping in a guild (expiry, message ids):
    /// no member acts, and nobody is the game master.
    pub async fn housekeeping(app: &App, guild_id: i64) -> Result<Act, AppError> {
        let mut tx = app.db.write_in(guild_id).await?;
        tx.set_now(app.clock.now_ms());
        Ok(Act {
            tx,
            caller: Caller {
                guild_id,
                ..Caller::default()
            },
            fc: Some(false),
        })
    }

    /// The action happens at `place` from now on, by the same member:
    /// the game it is in, its game master and its house rules are those of
    /// `place` (an approval runs the change where it was asked, wherever
    /// the game master answers). Whether the caller is the game master is
    /// asked anew.
    pub fn move_to(&mut self, place: super::games::Place) {
        self.caller = self.caller.clone().at(place);
        self.fc = None;
    }

    /// Who acts.
    pub fn caller(&self) -> &Caller {
        &self.caller
    }

    /// The guild the action happens in.
    pub fn guild_id(&self) -> i64 {
        self.caller.guild_id
    }

    /// Whether the caller is the game master (asked once per action).
    pub async fn is_fc(&mut self) -> Result<bool, AppError> {
        if let Some(fc) = self.fc {
            return Ok(fc);
        }
        let fc = rights::is_fc(&mut self.tx, &self.caller).await?;
        self.fc = Some(fc);
        Ok(fc)
    }

    /// Makes every change of the action durable at once.
    pub async fn commit(self) -> Result<(), AppError> {
        Ok(self.tx.commit().await?)
    }
}

impl Deref for Act {
    type Target = Tx;

    fn deref(&self) -> &Tx {
        &self.tx
    }
}

impl DerefMut for Act {
    fn deref_mut(&mut self) -> &mut Tx {
        &mut self.tx
    }
}

#[cfg(test)]
mod tests {
    /// Files allowed to open a write transaction: this one, and the storage
    /// layer (which defines `Db::write` and tests itself).
    fn allowed(path: &std::path::Path) -> bool {
        path.ends_with("app/act.rs") || path.components().any(|c| c.as_os_str() == "storage")
    }

    fn rust_files(dir: &std::path::Path, out: &mut Vec<std::path::PathBuf>) {
        for entry in std::fs::read_dir(dir).unwrap().flatten() {
            let p = entry.path();
            if p.is_dir() {
                rust_files(&p, out);
            } else if p.extension().is_some_and(|e| e == "rs") {
                out.push(p);
            }
        }
    }

    /// The lines (from 1) of `text` that open a write transaction, up to
    /// its test module (`#[cfg(test)]` on a `mod`: tests may seed a
    /// database by hand).
    fn opened_at(text: &str) -> Vec<usize> {
        let lines: Vec<&str> = text.lines().collect();
        let tests = lines
            .windows(2)
            .position(|w| w[0].trim() == "#[cfg(test)]" && w[1].trim_start().starts_with("mod "))
            .unwrap_or(lines.len());
        lines[..tests]
            .iter()
            .enumerate()
            .filter(|(_, l)| {
                l.contains(".write().await") || l.contains("db.write()") || l.contains(".write_in(")
            })
            .map(|(n, _)| n + 1)
            .collect()
    }

    #[test]
    fn the_scan_finds_a_hand_opened_transaction() {
        let doctored = "fn f() {\n    let mut tx = app.db.write().await?;\n}\n";
        assert_eq!(opened_at(doctored), vec![2]);
        assert_eq!(
            opened_at("let tx = app.db.write_in(guild).await?;"),
            vec![1]
        );
        assert!(opened_at("let act = Act::begin(app, caller).await?;").is_empty());
        let tested = "fn f() {}\n#[cfg(test)]\nmod tests {\n    let tx = db.write().await;\n}\n";
        assert!(opened_at(tested).is_empty());
        assert_eq!(
            opened_at(&format!("let t = db.write().await;\n{tested}")),
            vec![1]
        );
    }

    /// The folders of `src/systems/` whose actions may still begin an
    /// [`super::Act`] by hand (issue 28: only the action pipeline begins
    /// and commits a system's write transaction): none any more.
    const HAND_OPENED: &[&str] = &[];

    /// The lines (from 1) of `text` that begin an [`super::Act`] by hand,
    /// up to its test module (tests may begin one to drive a lender).
    fn begun_at(text: &str) -> Vec<usize> {
        let lines: Vec<&str> = text.lines().collect();
        let tests = lines
            .windows(2)
            .position(|w| w[0].trim() == "#[cfg(test)]" && w[1].trim_start().starts_with("mod "))
            .unwrap_or(lines.len());
        lines[..tests]
            .iter()
            .enumerate()
            .filter(|(_, l)| l.contains("Act::begin(") || l.contains("Act::housekeeping("))
            .map(|(n, _)| n + 1)
            .collect()
    }

    /// Issue 28 item 2: no system's action begins its write transaction
    /// by hand; the pipeline does (`app::pipeline`), outside the folders
    /// still listed in [`HAND_OPENED`].
    #[test]
    fn systems_begin_no_write_transaction_by_hand() {
        let doctored = "fn f() {\n    let mut act = Act::begin(app, caller).await?;\n}\n";
        assert_eq!(begun_at(doctored), vec![2]);
        let src = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
        let mut files = Vec::new();
        rust_files(&src.join("systems"), &mut files);
        assert!(files.len() > 50, "the scan found the systems");
        let mut offenders = Vec::new();
        for f in &files {
            let rel = f
                .strip_prefix(&src)
                .unwrap()
                .to_string_lossy()
                .replace('\\', "/");
            if HAND_OPENED.iter().any(|d| rel.starts_with(d)) {
                continue;
            }
            let text = std::fs::read_to_string(f).unwrap();
            for n in begun_at(&text) {
                offenders.push(format!("{rel}:{n}"));
            }
        }
        assert!(
            offenders.is_empty(),
            "write transactions begun by hand in src/systems (use app::pipeline):\n{}",
            offenders.join("\n")
        );
    }

    #[test]
    fn write_transactions_are_opened_only_by_act() {
        let src = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
        let mut files = Vec::new();
        rust_files(&src, &mut files);
        assert!(files.len() > 50, "the scan found the source");
        let mut offenders = Vec::new();
        for f in files.iter().filter(|f| !allowed(f)) {
            let text = std::fs::read_to_string(f).unwrap();
            for n in opened_at(&text) {
                offenders.push(format!("{}:{n}", f.display()));
            }
        }
        assert!(
            offenders.is_empty(),
            "write transactions opened outside app::act::Act:\n{}",
            offenders.join("\n")
        );
    }
}
