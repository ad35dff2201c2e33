//! Throw-away PostgreSQL databases for tests.
//!
//! With `KISMET_TEST_POSTGRES` set to an administrator's URL (for example
//! `postgres://postgres@127.0.0.1:5432/postgres`), the end-to-end tables
//! and the storage tests run on PostgreSQL: each creates a fresh database
//! on that server ([`ScratchDb::create`]), named `kismet_t_<pid>_<n>`, and
//! drops it when the handle is dropped. Without the variable the tests use
//! SQLite files as before.
//!
//! [`SmallDisk`]: a tiny tmpfs that a test fills and frees, for the
//! full-disk tests (it needs the right to mount, as root has).
//!
//! [`every_value`]: every value of every column of every table, listed
//! from the database's own catalogue, for the tests that prove something
//! is gone everywhere (an erased member's data).

use super::StorageError;
use sqlx::{Connection, Executor, PgConnection};
use std::sync::atomic::{AtomicU32, Ordering};

/// The variable naming the PostgreSQL server the tests may use.
pub const TEST_POSTGRES_VAR: &str = "KISMET_TEST_POSTGRES";

/// The administrator URL of the tests' PostgreSQL server, when set.
pub fn test_postgres() -> Option<String> {
    std::env::var(TEST_POSTGRES_VAR)
        .ok()
        .map(|v| v.trim().to_string())
        .filter(|v| !v.is_empty())
}

/// A fresh database on a PostgreSQL server, dropped with the handle.
#[derive(Debug)]
pub struct ScratchDb {
    admin: String,
    name: String,
    url: String,
}

static COUNTER: AtomicU32 = AtomicU32::new(0);

impl ScratchDb {
    /// Creates an empty database on the server `admin_url` connects to
    /// (the role needs `CREATEDB`).
    pub async fn create(admin_url: &str) -> Result<Self, StorageError> {
        let n = COUNTER.fetch_add(1, Ordering::SeqCst);
        let name = format!("kismet_t_{}_{n}", std::process::id());
        let mut admin = PgConnection::connect(admin_url).await?;
        // A leftover of an earlier process with the same id.
        admin
            .execute(format!("DROP DATABASE IF EXISTS {name} WITH (FORCE)").as_str())
            .await?;
        admin
            .execute(format!("CREATE DATABASE {name} TEMPLATE template0 ENCODING 'UTF8'").as_str())
            .await?;
        let _ = admin.close().await;
        let url = with_database(admin_url, &name).ok_or_else(|| {
            sqlx::Error::Configuration(format!("not a PostgreSQL URL: {admin_url}").into())
        })?;
        Ok(Self {
            admin: admin_url.to_string(),
            name,
            url,
        })
    }

    /// The URL of the new database (for [`super::Db::open`]).
    pub fn url(&self) -> &str {
        &self.url
    }

    /// The database's name.
    pub fn name(&self) -> &str {
        &self.name
    }
}

impl Drop for ScratchDb {
    /// Drops the database (closing any connection still open to it), on a
    /// thread of its own so that dropping works inside or outside a runtime.
    fn drop(&mut self) {
        let admin = self.admin.clone();
        let name = self.name.clone();
        let dropped = std::thread::spawn(move || {
            let rt = tokio::runtime::Builder::new_current_thread()
                .enable_all()
                .build()
                .ok()?;
            rt.block_on(async {
                let mut c = PgConnection::connect(&admin).await.ok()?;
                c.execute(format!("DROP DATABASE IF EXISTS {name} WITH (FORCE)").as_str())
                    .await
                    .ok()?;
                c.close().await.ok()
            })
        })
        .join();
        if !matches!(dropped, Ok(Some(()))) {
            eprintln!("could not drop the test database {}", self.name);
        }
    }
}

/// A small tmpfs mounted for one test, unmounted (and its folder removed)
/// when dropped: a disk a test can fill ([`SmallDisk::fill`]) and free
/// again ([`SmallDisk::free`]).
#[derive(Debug)]
pub struct SmallDisk {
    dir: std::path::PathBuf,
}

impl SmallDisk {
    /// Mounts a tmpfs of `bytes` at a fresh folder named after `tag`;
    /// `None` where this process may not mount (not root): the caller
    /// says so and skips.
    pub fn mount(tag: &str, bytes: u64) -> Option<Self> {
        let n = COUNTER.fetch_add(1, Ordering::SeqCst);
        let dir =
            std::env::temp_dir().join(format!("kismet-disk-{tag}-{}-{n}", std::process::id()));
        std::fs::create_dir_all(&dir).ok()?;
        let mounted = std::process::Command::new("mount")
            .args(["-t", "tmpfs", "-o", &format!("size={bytes}"), "tmpfs"])
            .arg(&dir)
            .stderr(std::process::Stdio::null())
            .status()
            .is_ok_and(|s| s.success());
        if !mounted {
            let _ = std::fs::remove_dir(&dir);
            return None;
        }
        Some(Self { dir })
    }

    /// The mounted folder.
    pub fn dir(&self) -> &std::path::Path {
        &self.dir
    }

    fn filler(&self) -> std::path::PathBuf {
        self.dir.join("filler")
    }

    /// Takes every free byte with a filler file.
    pub fn fill(&self) {
        use std::io::Write;
        let Ok(mut f) = std::fs::OpenOptions::new()
            .create(true)
            .append(true)
            .open(self.filler())
        else {
            return;
        };
        let block = [0u8; 4096];
        while f.write_all(&block).is_ok() {}
        let _ = f.flush();
    }

    /// Remounts the disk read-only (`false`: read-write again).
    ///
    /// A remount to read-only is refused while a file on the disk is still
    /// open for writing (SQLite's connection thread closes its files a
    /// moment after its pool is closed), so it is tried again for up to
    /// ten seconds.
    pub fn read_only(&self, read_only: bool) -> bool {
        let mode = if read_only {
            "remount,ro"
        } else {
            "remount,rw"
        };
        let deadline = std::time::Instant::now() + std::time::Duration::from_secs(10);
        loop {
            let done = std::process::Command::new("mount")
                .args(["-o", mode])
                .arg(&self.dir)
                .stderr(std::process::Stdio::null())
                .status()
                .is_ok_and(|s| s.success());
            if done || std::time::Instant::now() >= deadline {
                return done;
            }
            std::thread::sleep(std::time::Duration::from_millis(50));
        }
    }

    /// Gives the filler's space back.
    pub fn free(&self) {
        let _ = std::fs::remove_file(self.filler());
    }
}

impl Drop for SmallDisk {
    fn drop(&mut self) {
        let _ = std::process::Command::new("umount")
            .arg("-l")
            .arg(&self.dir)
            .status();
        let _ = std::fs::remove_dir_all(&self.dir);
    }
}

/// One stored value: its table, its column and its text (`CAST … AS TEXT`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Cell {
    /// The table.
    pub table: String,
    /// The column.
    pub column: String,
    /// The value as text.
    pub value: String,
}

/// Every non-null value of every column of every table of `db` (SQLite's
/// `sqlite_master` and `pragma_table_info`, PostgreSQL's
/// `information_schema`), except the engines' and sqlx's own bookkeeping
/// (`sqlite_*`, `_sqlx_migrations`). No table is named by hand, so a table
/// added later is scanned too.
pub async fn every_value(db: &super::Db) -> Result<Vec<Cell>, StorageError> {
    use sqlx::Row;
    let mut tx = db.read().await?;
    let (tables_sql, columns_sql) = match db.backend() {
        super::Backend::Sqlite => (
            "SELECT name FROM sqlite_master WHERE type = 'table'",
            "SELECT name FROM pragma_table_info($1)",
        ),
        super::Backend::Postgres => (
            "SELECT CAST(table_name AS TEXT) FROM information_schema.tables
             WHERE table_schema = current_schema() AND table_type = 'BASE TABLE'",
            "SELECT CAST(column_name AS TEXT) FROM information_schema.columns
             WHERE table_schema = current_schema() AND table_name = $1",
        ),
    };
    let tables: Vec<String> = sqlx::query(tables_sql)
        .fetch_all(&mut *tx)
        .await?
        .iter()
        .map(|r| r.try_get(0))
        .collect::<Result<_, _>>()?;
    let mut out = Vec::new();
    for table in tables {
        if table.starts_with("sqlite_") || table.starts_with("_sqlx") {
            continue;
        }
        let columns: Vec<String> = sqlx::query(columns_sql)
            .bind(&table)
            .fetch_all(&mut *tx)
            .await?
            .iter()
            .map(|r| r.try_get(0))
            .collect::<Result<_, _>>()?;
        for column in columns {
            let sql = format!("SELECT CAST(\"{column}\" AS TEXT) FROM \"{table}\"");
            for r in sqlx::query(&sql).fetch_all(&mut *tx).await? {
                if let Some(value) = r.try_get::<Option<String>, _>(0)? {
                    out.push(Cell {
                        table: table.clone(),
                        column: column.clone(),
                        value,
                    });
                }
            }
        }
    }
    Ok(out)
}

/// `url` with its database name replaced by `name` (the path after the
/// host); `None` when `url` is not a `postgres://` URL.
pub fn with_database(url: &str, name: &str) -> Option<String> {
    let (scheme, rest) = url.split_once("://")?;
    if !scheme.eq_ignore_ascii_case("postgres") && !scheme.eq_ignore_ascii_case("postgresql") {
        return None;
    }
    let (before_query, query) = match rest.split_once('?') {
        Some((b, q)) => (b, Some(q)),
        None => (rest, None),
    };
    let authority = before_query.split('/').next().unwrap_or_default();
    let mut out = format!("{scheme}://{authority}/{name}");
    if let Some(q) = query {
        out.push('?');
        out.push_str(q);
    }
    Some(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_database_name_is_replaced_and_the_rest_kept() {
        assert_eq!(
            with_database("postgres://u:p@127.0.0.1:5432/postgres", "x").as_deref(),
            Some("postgres://u:p@127.0.0.1:5432/x")
        );
        assert_eq!(
            with_database("postgresql://127.0.0.1?sslmode=disable", "x").as_deref(),
            Some("postgresql://127.0.0.1/x?sslmode=disable")
        );
        assert_eq!(with_database("sqlite://a.db", "x"), None);
    }
}
