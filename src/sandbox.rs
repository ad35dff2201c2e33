//! `kismet sandbox`: the real bot, played from a terminal with no token.
//!
//! It starts the fake Discord on 127.0.0.1 and the real bot against it, then
//! reads script lines from standard input (see [`crate::fake::table`] for
//! the line syntax) and prints every reply: readably, or as one JSON object
//! per line with `--json`. It waits for each reply before the next line,
//! exits 0 at the end of input, and exits 1 on a line it cannot play.
//! With `--commands FILE` it then writes the commands the sandbox server's
//! members see, as the fake Discord's `GET …/commands` lists them.

use serde_json::Value;
use std::io::{BufRead, IsTerminal, Write};
use std::path::PathBuf;

use crate::config::Config;
use crate::fake::table::{Output, Table, TableOptions};

/// Sandbox options (the command-line flags).
#[derive(Debug, Clone, Default)]
pub struct SandboxOptions {
    /// Keep state in this SQLite file (a second run is a restart).
    pub db: Option<PathBuf>,
    /// Seed for reproducible rolls.
    pub seed: Option<u64>,
    /// One JSON object per reply.
    pub json: bool,
    /// Names holding the FC role (default `fc`).
    pub fc: Vec<String>,
    /// Save every attached file here, as `NNNN-name` (NNNN: the reply's
    /// index in the output).
    pub attachments: Option<PathBuf>,
    /// After the script, write the commands the sandbox server's members
    /// see here: a JSON array of Discord's application command objects,
    /// the global ones then the server's own.
    pub commands: Option<PathBuf>,
}

/// Runs the sandbox over standard input; returns the process exit code.
pub async fn run(opts: SandboxOptions, config: Config) -> i32 {
    let (db_path, temporary) = match &opts.db {
        Some(p) => (p.clone(), false),
        None => {
            let nanos = std::time::SystemTime::now()
                .duration_since(std::time::UNIX_EPOCH)
                .map(|d| d.as_nanos())
                .unwrap_or(0);
            (
                std::env::temp_dir()
                    .join(format!("kismet-sandbox-{}-{nanos}.db", std::process::id())),
                true,
            )
        }
    };
    let mut table_opts = TableOptions::new(&db_path);
    table_opts.seed = opts.seed;
    table_opts.require_schema = false;
    table_opts.config = config;
    if !opts.fc.is_empty() {
        table_opts.fc_names = opts.fc.clone();
    }
    let table = match Table::start(table_opts).await {
        Ok(t) => t,
        Err(e) => {
            eprintln!("kismet sandbox: could not start: {e}");
            return 1;
        }
    };
    if !table.validating() {
        eprintln!("kismet sandbox: note: tests/data/discord/openapi.json not found; replies are not schema-checked");
    }
    let mut code = play(&table, &opts).await;
    if let Some(path) = &opts.commands {
        if let Err(e) = write_commands(&table, path).await {
            eprintln!("kismet sandbox: --commands {}: {e}", path.display());
            code = 1;
        }
    }
    table.stop().await;
    if temporary {
        for suffix in ["", "-wal", "-shm"] {
            let _ = std::fs::remove_file(format!("{}{suffix}", db_path.display()));
        }
    }
    code
}

/// Writes the commands the sandbox server's members see to `path`: the
/// fake Discord's answers to `GET /applications/{id}/commands` and
/// `GET /applications/{id}/guilds/{guild}/commands`, asked over HTTP as a
/// client of Discord would (so the answers are checked against Discord's
/// schema like every other), joined in one array.
async fn write_commands(table: &Table, path: &std::path::Path) -> Result<(), String> {
    let app = table.fake.app_id();
    let mut all = Vec::new();
    for scope in [
        format!("/api/v10/applications/{app}/commands"),
        format!(
            "/api/v10/applications/{app}/guilds/{}/commands",
            table.guild_id()
        ),
    ] {
        match get_json(&table.fake.base_url(), &scope).await? {
            Value::Array(list) => all.extend(list),
            other => return Err(format!("GET {scope} answered {other}")),
        }
    }
    let text = serde_json::to_string_pretty(&Value::Array(all)).map_err(|e| e.to_string())?;
    std::fs::write(path, text + "\n").map_err(|e| e.to_string())?;
    let violations = table.fake.violations();
    if !violations.is_empty() {
        return Err(format!("invalid listings:\n{}", violations.join("\n")));
    }
    Ok(())
}

/// A `GET` of `path` on the fake at `base` (`http://127.0.0.1:PORT`) over a
/// plain HTTP/1.1 connection: the JSON body of a 200 answer.
async fn get_json(base: &str, path: &str) -> Result<Value, String> {
    use tokio::io::{AsyncReadExt, AsyncWriteExt};
    let host = base.strip_prefix("http://").unwrap_or(base);
    let mut stream = tokio::net::TcpStream::connect(host)
        .await
        .map_err(|e| format!("{host}: {e}"))?;
    let request = format!("GET {path} HTTP/1.1\r\nHost: {host}\r\nConnection: close\r\n\r\n");
    stream
        .write_all(request.as_bytes())
        .await
        .map_err(|e| e.to_string())?;
    let mut raw = Vec::new();
    stream
        .read_to_end(&mut raw)
        .await
        .map_err(|e| e.to_string())?;
    let raw = String::from_utf8_lossy(&raw);
    let (head, body) = raw
        .split_once("\r\n\r\n")
        .ok_or("an answer without headers")?;
    if !head.starts_with("HTTP/1.1 200") {
        return Err(format!("GET {path}: {}", head.lines().next().unwrap_or("")));
    }
    serde_json::from_str(body).map_err(|e| format!("GET {path}: {e}"))
}

async fn play(table: &Table, opts: &SandboxOptions) -> i32 {
    let stdin = std::io::stdin();
    let interactive = stdin.is_terminal();
    let mut lines = stdin.lock().lines();
    let mut number = 0;
    // Replies printed so far: a saved file is named by its reply's index
    // (`0007-odds.png`), as `shared/tools/discord_view` reads them.
    let mut printed = 0usize;
    if let Some(dir) = &opts.attachments {
        if let Err(e) = std::fs::create_dir_all(dir) {
            eprintln!("kismet sandbox: {}: {e}", dir.display());
            return 1;
        }
    }
    loop {
        if interactive {
            print!("> ");
            let _ = std::io::stdout().flush();
        }
        let line = match lines.next() {
            None => return 0,
            Some(Err(e)) => {
                eprintln!("kismet sandbox: reading input: {e}");
                return 1;
            }
            Some(Ok(l)) => l,
        };
        number += 1;
        match table.run_line(&line).await {
            Ok(None) => {}
            Ok(Some((_, exchange))) => {
                for out in &exchange.outputs {
                    if opts.json {
                        println!("{}", out.contract_json());
                    } else {
                        print!("{}", pretty(out));
                    }
                    if let Some(dir) = &opts.attachments {
                        for (name, bytes) in &out.files {
                            let safe: String = name
                                .chars()
                                .map(|c| {
                                    if c.is_ascii_alphanumeric() || c == '.' || c == '-' || c == '_'
                                    {
                                        c
                                    } else {
                                        '_'
                                    }
                                })
                                .collect();
                            let path = dir.join(format!("{printed:04}-{safe}"));
                            if let Err(e) = std::fs::write(&path, bytes) {
                                eprintln!("kismet sandbox: {}: {e}", path.display());
                                return 1;
                            }
                        }
                    }
                    printed += 1;
                }
                let violations = table.fake.violations();
                if !violations.is_empty() {
                    eprintln!(
                        "kismet sandbox: the bot sent invalid payloads:\n{}",
                        violations.join("\n")
                    );
                    return 1;
                }
            }
            Err(e) => {
                eprintln!("kismet sandbox: line {number}: {e}");
                if !interactive {
                    return 1;
                }
            }
        }
        let _ = std::io::stdout().flush();
    }
}

/// A reply as readable text: kind and recipient, embed title, description,
/// fields, footer, then buttons in [brackets] and select menus in ⟨angles⟩.
pub fn pretty(out: &Output) -> String {
    let mut s = format!("── {} → {} ──\n", out.kind, out.to);
    if !out.content().is_empty() {
        s.push_str(&format!("{}\n", out.content()));
    }
    for e in out.embeds() {
        pretty_embed(&mut s, &e);
    }
    for row in out
        .body
        .get("components")
        .and_then(Value::as_array)
        .cloned()
        .unwrap_or_default()
    {
        let items: Vec<String> = row
            .get("components")
            .and_then(Value::as_array)
            .cloned()
            .unwrap_or_default()
            .iter()
            .map(pretty_component)
            .collect();
        if !items.is_empty() {
            s.push_str(&format!("  {}\n", items.join(" ")));
        }
    }
    s
}

/// An embed as text: author, title, description, fields, footer.
fn pretty_embed(s: &mut String, e: &Value) {
    let get = |p: &str| {
        e.pointer(p)
            .and_then(Value::as_str)
            .unwrap_or("")
            .to_string()
    };
    let author = get("/author/name");
    if !author.is_empty() {
        s.push_str(&format!("▌ {author}\n"));
    }
    let title = get("/title");
    if !title.is_empty() {
        s.push_str(&format!("▌ {title}\n"));
    }
    let d = get("/description");
    if !d.is_empty() {
        for l in d.lines() {
            s.push_str(&format!("  {l}\n"));
        }
    }
    for f in e
        .get("fields")
        .and_then(Value::as_array)
        .cloned()
        .unwrap_or_default()
    {
        let name = f.get("name").and_then(Value::as_str).unwrap_or("");
        let value = f.get("value").and_then(Value::as_str).unwrap_or("");
        let mut lines = value.lines();
        s.push_str(&format!("  {name}: {}\n", lines.next().unwrap_or("")));
        for l in lines {
            s.push_str(&format!("    {l}\n"));
        }
    }
    let footer = get("/footer/text");
    if !footer.is_empty() {
        s.push_str(&format!("  ({footer})\n"));
    }
}

/// A button as `[label]`, a select as `⟨placeholder: values⟩`.
fn pretty_component(c: &Value) -> String {
    let disabled = c.get("disabled").and_then(Value::as_bool).unwrap_or(false);
    match c.get("type").and_then(Value::as_u64) {
        Some(3) => {
            let opts: Vec<&str> = c
                .get("options")
                .and_then(Value::as_array)
                .map(|o| {
                    o.iter()
                        .filter_map(|x| x.get("value").and_then(Value::as_str))
                        .collect()
                })
                .unwrap_or_default();
            format!(
                "⟨{}: {}⟩",
                c.get("placeholder")
                    .and_then(Value::as_str)
                    .unwrap_or("select"),
                opts.join(", ")
            )
        }
        _ => {
            let label = c.get("label").and_then(Value::as_str).unwrap_or("?");
            if disabled {
                format!("[{label} (disabled)]")
            } else {
                format!("[{label}]")
            }
        }
    }
}
