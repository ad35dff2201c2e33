//! Footprint benchmark (`cargo bench --bench footprint`): the size of a
//! `kismet` binary on disk and its resident memory when idle (issue 30:
//! the production binary ≤ 14 MiB, idle RSS ≤ 16 MiB).
//!
//! It measures the production build by default, the one the Dockerfile
//! makes: it runs `cargo build --release --no-default-features --bin
//! kismet` itself, into `target/production/` (a `cargo bench` build of
//! `kismet` lands in `target/release/` with the fake Discord in it, so that
//! place is not the production binary), or any binary named by
//! `KISMET_FOOTPRINT_BIN`. The
//! binary runs as `kismet run --api-base …` against the fake Discord on
//! 127.0.0.1 with a fresh SQLite file; once it has registered its commands
//! the benchmark reads its `VmRSS` (resident now) and `VmHWM` (peak) from
//! `/proc` after 1, 5 and 10 seconds of idling, several runs in a row.
//!
//! Environment: `KISMET_FOOTPRINT_BIN` (the binary), `KISMET_FOOTPRINT_RUNS`
//! (runs, default 3).

use kismet::fake::table::{Table, TableOptions};
use std::path::{Path, PathBuf};
use std::process::Stdio;
use std::time::Duration;

/// Seconds after registration at which the resident set is read.
const AT_SECONDS: [u64; 3] = [1, 5, 10];

/// A `kB` field of `/proc/<pid>/status`, in KiB.
fn status_kib(pid: u32, field: &str) -> Option<u64> {
    let status = std::fs::read_to_string(format!("/proc/{pid}/status")).ok()?;
    status
        .lines()
        .find(|l| l.starts_with(field))?
        .split_whitespace()
        .nth(1)?
        .parse()
        .ok()
}

/// The binary measured: `KISMET_FOOTPRINT_BIN`, else the production build,
/// made (or brought up to date) here.
fn binary() -> Result<PathBuf, String> {
    if let Some(bin) = std::env::var_os("KISMET_FOOTPRINT_BIN").filter(|b| !b.is_empty()) {
        return Ok(PathBuf::from(bin));
    }
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let dir = root.join("target/production");
    println!("building the production binary: cargo build --release --no-default-features --bin kismet --target-dir {}", dir.display());
    let status = std::process::Command::new(env!("CARGO"))
        .args([
            "build",
            "--release",
            "--no-default-features",
            "--bin",
            "kismet",
        ])
        .arg("--target-dir")
        .arg(&dir)
        .current_dir(root)
        .status()
        .map_err(|e| format!("cargo: {e}"))?;
    if !status.success() {
        return Err(format!("the production build failed: {status}"));
    }
    Ok(dir.join("release/kismet"))
}

/// One run: a fresh database and fake, the bot started, registered, idle.
/// Returns (RSS at each of [`AT_SECONDS`], peak RSS), in KiB.
async fn run(bin: &Path, dir: &Path, n: usize) -> Result<(Vec<u64>, u64), String> {
    let db = dir.join(format!("footprint-{n}.db"));
    let t = Table::start_external(TableOptions::new(&db)).await?;
    let log = dir.join(format!("footprint-{n}.log"));
    let stderr = std::fs::File::create(&log).map_err(|e| e.to_string())?;
    let before = t.registration_count();
    let mut child = tokio::process::Command::new(bin)
        .args(["run", "--api-base", &t.fake.base_url()])
        .current_dir(dir)
        .env("DISCORD_TOKEN", "fake.token.kismet")
        .env("DATABASE_URL", format!("sqlite://{}", db.display()))
        .env("KISMET_REGISTER", "global")
        .env("RUST_LOG", "warn")
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(stderr)
        .kill_on_drop(true)
        .spawn()
        .map_err(|e| format!("{}: {e}", bin.display()))?;
    let pid = child.id().ok_or("the bot exited at once")?;
    if let Err(e) = t.await_registration(before).await {
        let _ = child.start_kill();
        return Err(format!(
            "{e}\n{}",
            std::fs::read_to_string(&log).unwrap_or_default()
        ));
    }
    let start = tokio::time::Instant::now();
    let mut rss = Vec::new();
    for at in AT_SECONDS {
        tokio::time::sleep_until(start + Duration::from_secs(at)).await;
        rss.push(status_kib(pid, "VmRSS:").ok_or("no VmRSS: the bot exited")?);
    }
    let peak = status_kib(pid, "VmHWM:").unwrap_or(0);
    // What the last reading is made of: the binary's and libraries' pages
    // (file), the heap and stacks (anonymous), and how many threads.
    println!(
        "  run {n}: file {} MiB, anonymous {} MiB, {} threads",
        mib(status_kib(pid, "RssFile:").unwrap_or(0)),
        mib(status_kib(pid, "RssAnon:").unwrap_or(0)),
        status_kib(pid, "Threads:").unwrap_or(0)
    );
    if std::env::var_os("KISMET_FOOTPRINT_MAPS").is_some() {
        let maps = std::fs::read_to_string(format!("/proc/{pid}/smaps")).unwrap_or_default();
        let mut head = String::new();
        for line in maps.lines() {
            if line.contains('-') && !line.starts_with(|c: char| c.is_ascii_uppercase()) {
                head = line.to_string();
            } else if let Some(kib) = line.strip_prefix("Rss:") {
                let kib: u64 = kib
                    .trim()
                    .trim_end_matches(" kB")
                    .trim()
                    .parse()
                    .unwrap_or(0);
                if kib >= 64 {
                    println!("    {kib:>6} kB {head}");
                }
            }
        }
    }
    let _ = child.start_kill();
    let _ = child.wait().await;
    Ok((rss, peak))
}

/// KiB as MiB with two decimals.
fn mib(kib: u64) -> String {
    format!("{:.2}", kib as f64 / 1024.0)
}

#[tokio::main(flavor = "multi_thread", worker_threads = 2)]
async fn main() {
    // `cargo bench` passes `--bench`; nothing here takes arguments.
    let bin = binary().unwrap_or_else(|e| {
        eprintln!("{e}");
        std::process::exit(2);
    });
    let size = match std::fs::metadata(&bin) {
        Ok(m) => m.len(),
        Err(e) => {
            eprintln!("{}: {e}", bin.display());
            std::process::exit(2);
        }
    };
    let runs: usize = std::env::var("KISMET_FOOTPRINT_RUNS")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(3)
        .clamp(1, 20);
    let dir = std::env::temp_dir().join(format!("kismet-footprint-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("a temporary directory");
    println!("binary {}", bin.display());
    println!(
        "size {size} bytes = {} MiB",
        format_args!("{:.2}", size as f64 / 1048576.0)
    );
    println!("idle RSS after registration, MiB (at {AT_SECONDS:?} s; peak):");
    let mut at_10 = Vec::new();
    for n in 0..runs {
        match run(&bin, &dir, n).await {
            Ok((rss, peak)) => {
                let shown: Vec<String> = rss.iter().map(|&k| mib(k)).collect();
                println!("  run {n}: {} ; peak {}", shown.join(" "), mib(peak));
                at_10.extend(rss.last().copied());
            }
            Err(e) => {
                eprintln!("run {n}: {e}");
                std::process::exit(1);
            }
        }
    }
    at_10.sort_unstable();
    if let (Some(lo), Some(hi)) = (at_10.first(), at_10.last()) {
        println!("idle RSS at 10 s: {}–{} MiB", mib(*lo), mib(*hi));
    }
    let _ = std::fs::remove_dir_all(&dir);
}
