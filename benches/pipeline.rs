//! Pipeline benchmark (`cargo bench --bench pipeline`): the real bot against
//! the fake Discord, SQLite in a file on disk, under a fixed open-loop load.
//!
//! Simulated users in several guilds issue a mix of `/roll` commands, Reroll
//! clicks, `/vr save` and `/st pool` / `/st roll` rolls and sheet reads at a
//! fixed rate; each request is spawned at its scheduled time whatever the
//! previous ones are doing, so a slow answer cannot hide later ones
//! (no coordinated omission). Per interaction it measures the latency from
//! the gateway event being sent to the first callback reaching the fake.
//!
//! Each case runs in a child process (so its peak RSS is its own): with no
//! stored characters, the same with the fake's schema validation on, and
//! with 100,000 characters seeded through the storage layer. The bot runs
//! on its own tokio runtime (threads `bot`), the fake and this driver on
//! another (threads `fake` and the main thread), and SQLite on sqlx's
//! worker threads, so CPU time can be split between them (`/proc` task
//! stats). Each latency is also split at the bot's stage marks
//! (`kismet::kit::stage`: command start, application done): WebSocket + serenity + poise,
//! the application layer with SQLite, then rendering + HTTP. A few direct
//! application-layer calls are timed with the bot idle.
//!
//! Output: a section per case, a summary table, and last one JSON line
//! (the run with the most stored characters).
//!
//! Bot processes: by default the bot runs inside the case's process, as
//! above. With `KISMET_BENCH_PROCESSES=1` it runs as the real `kismet run`
//! in a child process of its own (one gateway shard), and with `2` as two
//! such processes on one database with the fake Discord's two shards split
//! between them (`--shards 0 --shard-count 2`, `--shards 1 …`); the
//! benchmark's guilds spread over the shards. Those modes measure the bot
//! processes alone: their CPU time (from `/proc/<pid>/task`) and their peak
//! RSS (`VmHWM`). The stage split needs the bot in-process and is skipped.
//!
//! Backend: SQLite in a file on disk by default;
//! `KISMET_BENCH_DATABASE=postgres://…` (or any other database URL the
//! binary takes) runs the bot processes on it instead; it needs
//! `KISMET_BENCH_PROCESSES` 1 or 2 and a fresh, empty database (every case
//! runs on it in turn).
//!
//! Environment: `KISMET_BENCH_RATE` (interactions/s, 200),
//! `KISMET_BENCH_SECONDS` (10), `KISMET_BENCH_WARMUP` (seconds, 3),
//! `KISMET_BENCH_GUILDS` (20), `KISMET_BENCH_USERS` (per guild, 10),
//! `KISMET_BENCH_CHARACTERS` (100000; 0 skips that case),
//! `KISMET_BENCH_VALIDATE` (1: also run with schema validation; 0: skip),
//! `KISMET_BENCH_PROCESSES` (0: the bot in this process; 1 or 2 bot
//! processes), `KISMET_BENCH_BIN` (the binary those processes run: by
//! default this benchmark's own build of `kismet`; name a production build,
//! `cargo build --release --no-default-features`, to measure it or to
//! compare release profiles), `KISMET_BENCH_DATABASE` (a database URL; SQLite file when
//! unset), `KISMET_BENCH_RATES` (a list such as `50,200,800`: every case
//! runs at each rate in turn; it overrides `KISMET_BENCH_RATE`),
//! `KISMET_BENCH_MIX` (`all`, the default, or `roll`: only `/roll 3d6+2`,
//! as a peer dice bot is measured), `KISMET_BENCH_BOT_CPU` (a CPU number:
//! the bot's threads, its runtime and SQLite's workers, or its processes,
//! run on that CPU at nice −10 when permitted, the fake Discord and the
//! driver on the others, like a side-by-side comparison with a peer).
//!
//! Comparable figures: last, one line per case and rate in a fixed format
//! (`FIGURES rate … p50 … p99 … p99.9 … bot-cpu-us …`), to compare
//! across sessions. Per-stage split of the slowest interactions: gateway
//! (event sent -> the bot's admission), admission (waiting for a place),
//! app (the command without its write transaction), database (asking for
//! the writer -> committed: queue and work), answer (-> callback
//! received); and how many of them overlapped the WAL checkpoint.

use std::collections::BTreeMap;
use std::path::PathBuf;
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use rand::rngs::StdRng;
use rand::seq::SliceRandom;
use rand::{Rng, SeedableRng};
use serde_json::{json, Value};

use kismet::app::component;
use kismet::app::{expiry, App, Caller, Reply, RngSource};
use kismet::config::Config;
use kismet::fake::table::{Exchange, Table, TableOptions};
use kismet::storage::{self, characters, Db};
use kismet::systems::dice;

/// The benchmark's guilds are `GUILD_BASE + (g << 22)`: consecutive
/// gateway shards (`(id >> 22) % count`), so they spread over the bot
/// processes.
const GUILD_BASE: u64 = 900_000_000_000_000_000;
const SEED_GUILD_BASE: u64 = 910_000_000_000_000_000;
const SEED_OWNER_BASE: i64 = 500_000_000_000_000_000;
/// Guilds the seeded characters are spread over (the benchmark's guilds
/// among them).
const SEED_GUILDS: usize = 1000;
/// Requests and messages the fake keeps (it forgets older ones).
const RETAIN: usize = 2000;

/// The benchmark's knobs.
#[derive(Clone, Debug)]
struct Settings {
    rate: f64,
    seconds: f64,
    warmup: f64,
    guilds: usize,
    users: usize,
    characters: usize,
    validate: bool,
    /// 0: the bot in the case's process; 1 or more: `kismet run` processes.
    processes: u32,
    /// The bot processes' database URL (`None`: an SQLite file per case).
    database: Option<String>,
    /// The rates to run every case at, in turn (`KISMET_BENCH_RATES`).
    rates: Vec<f64>,
    /// Only `/roll 3d6+2` (`KISMET_BENCH_MIX=roll`).
    roll_only: bool,
    /// The CPU the bot runs on (`KISMET_BENCH_BOT_CPU`).
    bot_cpu: Option<usize>,
}

impl Settings {
    fn from_env() -> Self {
        fn get<T: std::str::FromStr>(k: &str, d: T) -> T {
            std::env::var(k)
                .ok()
                .and_then(|v| v.trim().parse().ok())
                .unwrap_or(d)
        }
        Self {
            rate: get("KISMET_BENCH_RATE", 200.0_f64).max(1.0),
            seconds: get("KISMET_BENCH_SECONDS", 10.0_f64).max(1.0),
            warmup: get("KISMET_BENCH_WARMUP", 3.0_f64).max(0.0),
            guilds: get("KISMET_BENCH_GUILDS", 20_usize).max(1),
            users: get("KISMET_BENCH_USERS", 10_usize).max(1),
            characters: get("KISMET_BENCH_CHARACTERS", 100_000_usize),
            validate: get("KISMET_BENCH_VALIDATE", 1_u8) != 0,
            processes: get("KISMET_BENCH_PROCESSES", 0_u32).min(8),
            database: std::env::var("KISMET_BENCH_DATABASE")
                .ok()
                .filter(|u| !u.trim().is_empty()),
            rates: std::env::var("KISMET_BENCH_RATES")
                .ok()
                .map(|l| {
                    l.split(',')
                        .filter_map(|r| r.trim().parse::<f64>().ok())
                        .map(|r| r.max(1.0))
                        .collect::<Vec<_>>()
                })
                .filter(|l| !l.is_empty())
                .unwrap_or_else(|| vec![get("KISMET_BENCH_RATE", 200.0_f64).max(1.0)]),
            roll_only: std::env::var("KISMET_BENCH_MIX").is_ok_and(|m| m.trim() == "roll"),
            bot_cpu: std::env::var("KISMET_BENCH_BOT_CPU")
                .ok()
                .and_then(|c| c.trim().parse().ok()),
        }
    }

    /// The mix, as the figures name it.
    fn mix(&self) -> &'static str {
        if self.roll_only {
            "roll 3d6+2"
        } else {
            "all"
        }
    }
}

/// One case: how many stored characters, and whether the fake validates.
#[derive(Clone, Copy, Debug)]
struct Case {
    characters: usize,
    validate: bool,
    processes: u32,
}

impl Case {
    fn label(&self) -> String {
        let mut label = format!(
            "{} characters, validation {}",
            self.characters,
            if self.validate { "on" } else { "off" }
        );
        if self.processes > 0 {
            label.push_str(&format!(", {} bot proc", self.processes));
        }
        label
    }
}

fn main() {
    if let Ok(spec) = std::env::var("KISMET_BENCH_CASE") {
        std::process::exit(child(&spec));
    }
    let s = Settings::from_env();
    if s.database.is_some() && s.processes == 0 {
        eprintln!(
            "KISMET_BENCH_DATABASE needs KISMET_BENCH_PROCESSES=1 or 2: the bot in the benchmark's own process uses an SQLite file"
        );
        std::process::exit(2);
    }
    let processes = s.processes;
    let mut cases = vec![Case {
        characters: 0,
        validate: false,
        processes,
    }];
    if s.validate {
        cases.push(Case {
            characters: 0,
            validate: true,
            processes,
        });
    }
    if s.characters > 0 {
        cases.push(Case {
            characters: s.characters,
            validate: false,
            processes,
        });
    }
    println!("# Kismet pipeline benchmark");
    println!("machine: {}", machine());
    let rates: Vec<String> = s.rates.iter().map(|r| r.to_string()).collect();
    println!(
        "load: {} interactions/s (mix: {}) for {} s after {} s warm-up; {} users in {} guilds",
        rates.join(", "),
        s.mix(),
        s.seconds,
        s.warmup,
        s.guilds * s.users,
        s.guilds
    );
    println!(
        "bot: {}; database: {}\n",
        match s.processes {
            0 => "in the benchmark's process".to_string(),
            1 => format!("one `{}` process", bot_binary().to_string_lossy()),
            n => format!(
                "{n} `{}` processes, the shards split between them",
                bot_binary().to_string_lossy()
            ),
        },
        s.database.as_deref().map_or("SQLite file", backend_name)
    );
    match s.bot_cpu {
        Some(cpu) => println!(
            "pinned: the bot on CPU {cpu} (nice -10 when permitted), the fake Discord and the driver on CPUs {:?}\n",
            other_cpus(cpu)
        ),
        None => println!("pinned: no (KISMET_BENCH_BOT_CPU unset)\n"),
    }
    let exe = std::env::current_exe().expect("current exe");
    let mut results: Vec<(Case, Value)> = Vec::new();
    let runs: Vec<(f64, Case)> = s
        .rates
        .iter()
        .flat_map(|r| cases.iter().map(move |c| (*r, *c)))
        .collect();
    for (rate, case) in runs {
        let out = std::process::Command::new(&exe)
            .env("KISMET_BENCH_RATE", rate.to_string())
            .env(
                "KISMET_BENCH_CASE",
                format!(
                    "{}:{}:{}",
                    case.characters,
                    u8::from(case.validate),
                    case.processes
                ),
            )
            .stderr(std::process::Stdio::inherit())
            .output()
            .expect("run a case");
        let text = String::from_utf8_lossy(&out.stdout);
        let mut result = None;
        for line in text.lines() {
            match line.strip_prefix("RESULT ") {
                Some(j) => result = serde_json::from_str::<Value>(j).ok(),
                None => println!("{line}"),
            }
        }
        match result {
            Some(r) if out.status.success() => results.push((case, r)),
            _ => {
                eprintln!("case `{}` failed ({})", case.label(), out.status);
                std::process::exit(1);
            }
        }
    }
    println!("== summary (latency = gateway event sent -> first callback received, of the interactions served)");
    println!(
        "(busy: turned away at once at `[load] max_in_flight`, neither served nor errors; req/int: HTTP requests to Discord per interaction; bot CPU: on-CPU µs per interaction of the bot's threads, \
         over all its processes; bot RSS: the peak of the largest bot process alone, `-` when the bot shares the \
         benchmark's process; RSS: the case's process)"
    );
    println!(
        "{:<48} {:>7} {:>9} {:>8} {:>8} {:>8} {:>7} {:>6} {:>8} {:>8} {:>8} {:>8}",
        "case",
        "rate",
        "thru/s",
        "p50 ms",
        "p99 ms",
        "max ms",
        "errors",
        "busy",
        "req/int",
        "bot CPU",
        "bot RSS",
        "RSS MB"
    );
    for (case, r) in &results {
        let bot_rss = r["bot_rss_mb"]
            .as_f64()
            .map_or("-".to_string(), |m| format!("{m:.1}"));
        println!(
            "{:<48} {:>7.0} {:>9.1} {:>8.2} {:>8.2} {:>8.2} {:>7} {:>6} {:>8.2} {:>8.0} {:>8} {:>8.1}",
            case.label(),
            r["rate"].as_f64().unwrap_or(0.0),
            r["throughput"].as_f64().unwrap_or(0.0),
            r["p50_ms"].as_f64().unwrap_or(0.0),
            r["p99_ms"].as_f64().unwrap_or(0.0),
            r["max_ms"].as_f64().unwrap_or(0.0),
            r["errors"].as_u64().unwrap_or(0),
            r["busy"].as_u64().unwrap_or(0),
            r["requests_per_interaction"].as_f64().unwrap_or(0.0),
            r["bot_cpu_us_per_interaction"].as_f64().unwrap_or(0.0),
            bot_rss,
            r["rss_mb"].as_f64().unwrap_or(0.0),
        );
    }
    // Last: one JSON line, for the run with the most stored characters
    // (validation off).
    let last = results
        .iter()
        .filter(|(c, _)| !c.validate)
        .max_by_key(|(c, _)| c.characters)
        .map(|(_, r)| r)
        .expect("a result");
    let line = json!({
        "processes": s.processes,
        "backend": s.database.as_deref().map_or("sqlite", backend_name),
        "rate": last["rate"],
        "p50_ms": last["p50_ms"],
        "p99_ms": last["p99_ms"],
        "max_ms": last["max_ms"],
        "errors": last["errors"],
        "busy": last["busy"],
        "rss_mb": last["rss_mb"],
        "bot_rss_mb": last["bot_rss_mb"],
        "requests_per_interaction": last["requests_per_interaction"],
        "bot_cpu_us_per_interaction": last["bot_cpu_us_per_interaction"],
        "characters": last["characters"],
    });
    println!("{line}");
    // The comparable figures, one fixed-format line per case and rate.
    println!(
        "== figures (mix {}, bot CPU {}, {} s per rate; timings on a shared machine are noisy: compare runs taken alike)",
        s.mix(),
        s.bot_cpu.map_or("not pinned".to_string(), |c| format!("pinned to {c}")),
        s.seconds
    );
    for (case, r) in &results {
        println!(
            "FIGURES rate {:>5.0}/s  p50 {:>8.2} ms  p99 {:>8.2} ms  p99.9 {:>8.2} ms  bot-cpu-us {:>6.0}  served {:>6}  busy {:>5}  errors {:>3}  case \"{}\" mix \"{}\" pinned {}",
            r["rate"].as_f64().unwrap_or(0.0),
            r["p50_ms"].as_f64().unwrap_or(0.0),
            r["p99_ms"].as_f64().unwrap_or(0.0),
            r["p999_ms"].as_f64().unwrap_or(0.0),
            r["bot_cpu_us_per_interaction"].as_f64().unwrap_or(0.0),
            r["served"].as_u64().unwrap_or(0),
            r["busy"].as_u64().unwrap_or(0),
            r["errors"].as_u64().unwrap_or(0),
            case.label(),
            s.mix(),
            r["pinned"].as_str().unwrap_or("no"),
        );
    }
}

/// Every CPU of the machine but `cpu` (all of them when it is the only one).
fn other_cpus(cpu: usize) -> Vec<usize> {
    let n = online_cpus();
    let others: Vec<usize> = (0..n).filter(|c| *c != cpu).collect();
    if others.is_empty() {
        (0..n).collect()
    } else {
        others
    }
}

/// The machine's CPUs (not the ones this thread may run on, which pinning
/// narrows).
fn online_cpus() -> usize {
    // SAFETY: a plain system call.
    let n = unsafe { libc::sysconf(libc::_SC_NPROCESSORS_ONLN) };
    usize::try_from(n).unwrap_or(1).max(1)
}

/// Puts thread (or process) `tid` on `cpus` (`sched_setaffinity`).
fn set_affinity(tid: i32, cpus: &[usize]) -> bool {
    // SAFETY: a zeroed `cpu_set_t` is a valid empty set; `CPU_SET` writes
    // inside it (CPU numbers are below the machine's count, far under
    // `CPU_SETSIZE`), and the kernel reads `size_of` bytes of it.
    unsafe {
        let mut set: libc::cpu_set_t = std::mem::zeroed();
        for &c in cpus {
            libc::CPU_SET(c, &mut set);
        }
        libc::sched_setaffinity(tid, std::mem::size_of::<libc::cpu_set_t>(), &set) == 0
    }
}

/// Sets thread `tid`'s nice value (Linux: `setpriority` on a thread id
/// affects that thread); false when not permitted (not root).
fn set_nice(tid: i32, nice: i32) -> bool {
    // SAFETY: a plain system call on integers.
    unsafe { libc::setpriority(libc::PRIO_PROCESS, tid as libc::id_t, nice) == 0 }
}

/// Pins every thread of `/proc/<pid>/task` (`pid`: a number or `self`):
/// those `is_bot` says (by thread name) on `bot_cpu` at nice −10, the
/// others on the other CPUs. Returns how it went, for the output.
fn pin_tasks(pid: &str, bot_cpu: usize, is_bot: impl Fn(&str) -> bool) -> String {
    let others = other_cpus(bot_cpu);
    let (mut bot, mut rest, mut failed, mut niced, mut not_niced) = (0, 0, 0, 0, 0);
    let Ok(tasks) = std::fs::read_dir(format!("/proc/{pid}/task")) else {
        return format!("no /proc/{pid}/task");
    };
    for task in tasks.flatten() {
        let Some(tid) = task
            .file_name()
            .to_str()
            .and_then(|t| t.parse::<i32>().ok())
        else {
            continue;
        };
        let comm = std::fs::read_to_string(task.path().join("comm")).unwrap_or_default();
        if is_bot(comm.trim()) {
            if set_affinity(tid, &[bot_cpu]) {
                bot += 1;
            } else {
                failed += 1;
            }
            if set_nice(tid, -10) {
                niced += 1;
            } else {
                not_niced += 1;
            }
        } else if set_affinity(tid, &others) {
            rest += 1;
        } else {
            failed += 1;
        }
    }
    let mut out = format!("{bot} bot threads on CPU {bot_cpu}, {rest} others on {others:?}");
    if failed > 0 {
        out.push_str(&format!(", {failed} could not be pinned"));
    }
    if not_niced > 0 {
        out.push_str(&format!(
            ", nice -10 not permitted for {not_niced} (not root: left at nice 0)"
        ));
    } else if niced > 0 {
        out.push_str(", at nice -10");
    }
    out
}

/// A database URL's kind, never its credentials.
fn backend_name(url: &str) -> &'static str {
    if url.starts_with("postgres") {
        "PostgreSQL"
    } else if url.starts_with("sqlite") {
        "SQLite"
    } else {
        "other"
    }
}

fn machine() -> String {
    let cpu = std::fs::read_to_string("/proc/cpuinfo")
        .ok()
        .and_then(|c| {
            c.lines()
                .find(|l| l.starts_with("model name"))
                .and_then(|l| l.split_once(':'))
                .map(|(_, v)| v.trim().to_string())
        })
        .unwrap_or_else(|| "unknown CPU".into());
    let cores = std::thread::available_parallelism().map_or(0, |n| n.get());
    format!("{cores} cores, {cpu}")
}

// ---------------------------------------------------------------- one case

fn child(spec: &str) -> i32 {
    use tracing_subscriber::layer::SubscriberExt;
    use tracing_subscriber::util::SubscriberInitExt;
    use tracing_subscriber::Layer;
    let log = tracing_subscriber::fmt::layer()
        .with_writer(std::io::stderr)
        .with_filter(
            tracing_subscriber::EnvFilter::try_from_default_env()
                .unwrap_or_else(|_| "warn,serenity=error,poise=error".into()),
        );
    let _ = tracing_subscriber::registry().with(log).try_init();
    let _ = kismet::kit::STAGE_SINK.set(record_stage);
    let _ = kismet::storage::MARK_SINK.set(record_db);
    let mut parts = spec.split(':');
    let case = Case {
        characters: parts.next().and_then(|c| c.parse().ok()).unwrap_or(0),
        validate: parts.next() == Some("1"),
        processes: parts.next().and_then(|p| p.parse().ok()).unwrap_or(0),
    };
    let s = Settings::from_env();
    // The bot gets what production gets (one worker per core); the fake and
    // the driver run beside it on their own threads.
    let bot_rt = tokio::runtime::Builder::new_multi_thread()
        .thread_name("bot")
        .enable_all()
        .build()
        .expect("bot runtime");
    let fake_rt = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .thread_name("fake")
        .enable_all()
        .build()
        .expect("fake runtime");
    match fake_rt.block_on(run_case(&s, case, bot_rt.handle().clone())) {
        Ok(result) => {
            println!("RESULT {result}");
            bot_rt.shutdown_timeout(Duration::from_secs(1));
            0
        }
        Err(e) => {
            eprintln!("pipeline bench: {e}");
            1
        }
    }
}

/// A simulated member.
struct User {
    guild: u64,
    name: String,
    id: i64,
    /// Their latest roll's message and Reroll custom_id.
    roll: Mutex<Option<(u64, String)>>,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
enum Kind {
    Roll,
    Reroll,
    VrSave,
    StPool,
    StRoll,
    VrSheet,
    StSheet,
}

impl Kind {
    fn name(self) -> &'static str {
        match self {
            Kind::Roll => "/roll",
            Kind::Reroll => "click Reroll",
            Kind::VrSave => "/vr save",
            Kind::StPool => "/st pool",
            Kind::StRoll => "/st roll",
            Kind::VrSheet => "/vr sheet show",
            Kind::StSheet => "/st sheet show",
        }
    }

    /// The mix: (kind, weight in percent).
    const MIX: [(Kind, u32); 7] = [
        (Kind::Roll, 35),
        (Kind::Reroll, 25),
        (Kind::VrSave, 12),
        (Kind::StPool, 8),
        (Kind::StRoll, 5),
        (Kind::VrSheet, 8),
        (Kind::StSheet, 7),
    ];

    fn pick(rng: &mut StdRng) -> Kind {
        let mut n = rng.random_range(0..100);
        for (k, w) in Self::MIX {
            if n < w {
                return k;
            }
            n -= w;
        }
        Kind::Roll
    }
}

const EXPRESSIONS: [&str; 6] = ["1d20", "2d6 + 3", "4d6kh3", "3d8 + 1d4 + 2", "1d100", "8d6"];

/// What one interaction gave.
struct Sample {
    kind: Kind,
    /// Gateway event sent -> first callback received.
    latency: Option<Duration>,
    /// Gateway event sent -> the bot's last request for it.
    complete: Option<Duration>,
    /// Scheduled time -> the driver starting it.
    lag: Duration,
    error: Option<String>,
    /// Turned away at once, "busy" (the bot at `[load] max_in_flight`):
    /// neither an error nor a served interaction.
    busy: bool,
    /// The interaction id and when its gateway event was sent.
    sent: Option<(u64, Instant)>,
}

async fn run_case(s: &Settings, case: Case, bot: tokio::runtime::Handle) -> Result<Value, String> {
    let dir =
        PathBuf::from(option_env!("CARGO_TARGET_TMPDIR").unwrap_or("target/tmp")).join("pipeline");
    std::fs::create_dir_all(&dir).map_err(|e| format!("{}: {e}", dir.display()))?;
    let db_path = dir.join(format!(
        "bench-{}-{}.db",
        case.characters,
        u8::from(case.validate)
    ));
    for ext in ["", "-wal", "-shm"] {
        let _ = std::fs::remove_file(format!("{}{ext}", db_path.display()));
    }
    let mut opts = TableOptions::new(&db_path);
    opts.validate = case.validate;
    opts.require_schema = case.validate;
    opts.bot_runtime = Some(bot);
    let database = s
        .database
        .clone()
        .unwrap_or_else(|| format!("sqlite://{}", db_path.display()));
    let external = case.processes > 0;
    let t = Arc::new(if external {
        Table::start_external(opts).await?
    } else {
        Table::start(opts).await?
    });
    // Bot processes (`KISMET_BENCH_PROCESSES`), each with its share of the
    // shards; killed when the case ends (or fails).
    let mut bots = Vec::new();
    if external {
        t.fake.set_shard_count(case.processes);
        for p in 0..case.processes {
            bots.push(BotProcess::start(&t, &database, &dir, p, case.processes).await?);
        }
        let all: Vec<u32> = (0..case.processes).collect();
        t.fake
            .wait_for(Duration::from_secs(15), |f| {
                (f.connected_shards() == all).then_some(())
            })
            .await
            .ok_or_else(|| format!("shards connected: {:?}", t.fake.connected_shards()))?;
    }
    // The fake keeps only its recent history; a tally reads it as it goes.
    t.fake.set_retention(Some(RETAIN));
    if case.validate && !t.validating() {
        return Err("validation asked for but the OpenAPI file was not found".into());
    }
    println!(
        "== case: {}  (database {})",
        case.label(),
        db_path.display()
    );

    // Members and their sheets, made through the bot.
    let users: Arc<Vec<User>> = Arc::new(
        (0..s.guilds)
            .flat_map(|g| {
                (0..s.users).map(move |u| {
                    let name = format!("g{g}u{u}");
                    User {
                        guild: GUILD_BASE + ((g as u64) << 22),
                        id: Table::user_id(&name) as i64,
                        name,
                        roll: Mutex::new(None),
                    }
                })
            })
            .collect(),
    );
    let setup = Instant::now();
    setup_users(&t, &users).await?;
    println!(
        "setup: {} users with a Veracity and a Storyteller sheet in {:.1} s",
        users.len(),
        setup.elapsed().as_secs_f64()
    );
    // The bot's database, or (bot processes) a connection of our own to it.
    let db = match t.db().await {
        Some(db) => db,
        None => Db::open(&database, 4)
            .await
            .map_err(|e| format!("database: {e}"))?,
    };
    if case.characters > 0 {
        let started = Instant::now();
        seed(&db, &users, case.characters).await?;
        println!(
            "seeded {} characters over {SEED_GUILDS} guilds in {:.1} s",
            case.characters,
            started.elapsed().as_secs_f64()
        );
    }
    let stored = {
        let mut tx = db.read().await.map_err(|e| e.to_string())?;
        characters::count_all(&mut tx)
            .await
            .map_err(|e| e.to_string())?
    };

    // Warm-up, then the measured run.
    if s.warmup > 0.0 {
        let _ = run_mix(&t, &users, s.rate, s.warmup, 7, s.roll_only).await;
    }
    // Pinned (again: threads may have started during the warm-up).
    let pinned = match s.bot_cpu {
        None => "no".to_string(),
        Some(cpu) if external => {
            let mut notes: Vec<String> = bots
                .iter()
                .map(|b| {
                    format!(
                        "bot process {}: {}",
                        b.pid,
                        pin_tasks(&b.pid.to_string(), cpu, |_| true)
                    )
                })
                .collect();
            notes.push(format!(
                "this process: {}",
                pin_tasks("self", cpu, |_| false)
            ));
            notes.join("; ")
        }
        Some(cpu) => pin_tasks("self", cpu, |comm| {
            matches!(group_of(comm), "bot" | "sqlite")
        }),
    };
    println!("pinned: {pinned}");
    let tally = Arc::new(Mutex::new(Tally::default()));
    let tally_task = {
        let (t, tally) = (t.clone(), tally.clone());
        let seq0 = t.fake.last_seq();
        tally.lock().unwrap_or_else(|e| e.into_inner()).last_seq = seq0;
        tokio::spawn(async move {
            loop {
                tokio::time::sleep(Duration::from_millis(250)).await;
                let mut tally = tally.lock().unwrap_or_else(|e| e.into_inner());
                let seq = tally.last_seq;
                tally.add(&t.fake.requests_since(seq, |_| true));
            }
        })
    };
    STAGES.lock().unwrap_or_else(|e| e.into_inner()).clear();
    // The write-ahead log's file, sampled every 50 ms (issue 11: bounded
    // disk); none for a database that is not an SQLite file here.
    let wal_path = PathBuf::from(format!(
        "{}-wal",
        database
            .strip_prefix("sqlite://")
            .unwrap_or("/nonexistent")
            .split('?')
            .next()
            .unwrap_or_default()
    ));
    let wal_size = move || std::fs::metadata(&wal_path).map_or(0, |m| m.len());
    let wal_peak = Arc::new(std::sync::atomic::AtomicU64::new(0));
    let wal_task = {
        let (peak, size) = (wal_peak.clone(), wal_size.clone());
        tokio::spawn(async move {
            loop {
                peak.fetch_max(size(), std::sync::atomic::Ordering::Relaxed);
                tokio::time::sleep(Duration::from_millis(50)).await;
            }
        })
    };
    let cpu0 = cpu_by_group();
    let bots0: Vec<(f64, f64)> = bots.iter().map(|b| b.cpu()).collect();
    let machine0 = machine_cpu();
    let wall0 = Instant::now();
    DB_MARKS.lock().unwrap_or_else(|e| e.into_inner()).clear();
    let samples = run_mix(&t, &users, s.rate, s.seconds, 42, s.roll_only).await;
    let wall = wall0.elapsed();
    let cpu1 = cpu_by_group();
    let bots1: Vec<(f64, f64)> = bots.iter().map(|b| b.cpu()).collect();
    let machine1 = machine_cpu();
    tally_task.abort();
    let tally = {
        let mut tally = tally.lock().unwrap_or_else(|e| e.into_inner()).clone();
        let seq = tally.last_seq;
        tally.add(&t.fake.requests_since(seq, |_| true));
        tally
    };

    // Figures.
    let n = samples.len();
    let failed: Vec<&Sample> = samples.iter().filter(|x| x.error.is_some()).collect();
    let (http_errors, violations) = (tally.http_errors, tally.violations);
    let errors = failed.len() + http_errors + violations + tally.lost;
    // Latency of the interactions served (a busy answer is quick and
    // would flatter it).
    let mut all: Vec<Duration> = samples
        .iter()
        .filter(|x| !x.busy)
        .filter_map(|x| x.latency)
        .collect();
    all.sort();
    let mut complete: Vec<Duration> = samples.iter().filter_map(|x| x.complete).collect();
    complete.sort();
    let mut lags: Vec<Duration> = samples.iter().map(|x| x.lag).collect();
    lags.sort();
    let busy = samples.iter().filter(|x| x.busy).count();
    let answered = samples.iter().filter(|x| x.error.is_none()).count() - busy;
    let throughput = answered as f64 / wall.as_secs_f64();

    println!(
        "interactions: {n} sent, {answered} answered without error in {:.2} s -> {throughput:.1}/s sustained; {busy} turned away busy (max_in_flight)",
        wall.as_secs_f64()
    );
    println!(
        "errors: {errors} (failed interactions {}, HTTP >= 400 {http_errors}, schema violations {violations}, requests not seen {})",
        failed.len(),
        tally.lost
    );
    for f in failed.iter().take(5) {
        println!(
            "  e.g. {}: {}",
            f.kind.name(),
            f.error.as_deref().unwrap_or("")
        );
    }
    println!(
        "driver: scheduler lag p50 {:.3} ms, p99 {:.3} ms, max {:.3} ms (open loop: requests leave on schedule)",
        ms(pct(&lags, 0.50)),
        ms(pct(&lags, 0.99)),
        ms(lags.last().copied().unwrap_or_default())
    );
    println!("stored characters: {stored}");
    println!("latency, ms: gateway event sent -> first callback received (answer complete: -> last request)");
    println!(
        "  {:<16} {:>6} {:>8} {:>8} {:>8} {:>8}   {:>9} {:>9}",
        "kind", "n", "p50", "p90", "p99", "max", "done p50", "done p99"
    );
    let mut by_kind: BTreeMap<Kind, (Vec<Duration>, Vec<Duration>)> = BTreeMap::new();
    for x in &samples {
        let e = by_kind.entry(x.kind).or_default();
        e.0.extend(x.latency);
        e.1.extend(x.complete);
    }
    for (k, (mut l, mut c)) in by_kind {
        l.sort();
        c.sort();
        print_row(k.name(), &l, &c);
    }
    print_row("all", &all, &complete);
    print_stages(&samples);
    print_tail(&samples, wall0, pct(&all, 0.99));

    // HTTP requests the bot made per interaction.
    let requests_per_interaction = tally.requests as f64 / n.max(1) as f64;
    println!("HTTP requests to Discord per interaction: {requests_per_interaction:.2}");
    for (route, count) in &tally.routes {
        println!("  {:<52} {:>6.2}", route, *count as f64 / n.max(1) as f64);
    }

    // CPU time by thread group during the measured run, and the time its
    // threads were ready to run but waited for a CPU.
    let cores = online_cpus() as f64;
    println!(
        "CPU during the run, per interaction (on CPU; waiting for a CPU), and share of the {cores} cores x {:.1} s",
        wall.as_secs_f64()
    );
    let per = |x: f64| x * 1e6 / n.max(1) as f64;
    let mut cpu_json = serde_json::Map::new();
    let (mut total, mut total_wait) = (0.0, 0.0);
    for group in ["bot", "sqlite", "fake+driver", "other"] {
        let a = cpu0.get(group).copied().unwrap_or_default();
        let b = cpu1.get(group).copied().unwrap_or_default();
        let (d, w) = (b.0 - a.0, b.1 - a.1);
        total += d;
        total_wait += w;
        println!(
            "  {:<36} {:>7.0} µs {:>7.0} µs wait  {:>5.1} %",
            group_label(group),
            per(d),
            per(w),
            100.0 * d / (wall.as_secs_f64() * cores)
        );
        cpu_json.insert(group.into(), json!(round(per(d), 0)));
    }
    println!(
        "  {:<36} {:>7.0} µs {:>7.0} µs wait  {:>5.1} %",
        "this process",
        per(total),
        per(total_wait),
        100.0 * total / (wall.as_secs_f64() * cores)
    );
    // The bot's own CPU per interaction: its threads here, or its processes.
    let mut bot_cpu = 0.0;
    for group in ["bot", "sqlite"] {
        let a = cpu0.get(group).copied().unwrap_or_default();
        let b = cpu1.get(group).copied().unwrap_or_default();
        bot_cpu += b.0 - a.0;
    }
    if external {
        bot_cpu = 0.0;
        let mut bot_wait = 0.0;
        for (i, (a, b)) in bots0.iter().zip(&bots1).enumerate() {
            let (d, w) = (b.0 - a.0, b.1 - a.1);
            bot_cpu += d;
            bot_wait += w;
            println!(
                "  {:<36} {:>7.0} µs {:>7.0} µs wait  {:>5.1} %",
                format!("bot process {i} (pid {})", bots[i].pid),
                per(d),
                per(w),
                100.0 * d / (wall.as_secs_f64() * cores)
            );
            cpu_json.insert(format!("bot process {i}"), json!(round(per(d), 0)));
        }
        total += bot_cpu;
        total_wait += bot_wait;
    }
    // (Not `busy`: that is the count of interactions turned away.)
    let (busy_ticks, all_ticks) = (machine1.0 - machine0.0, machine1.1 - machine0.1);
    let machine_busy = if all_ticks > 0.0 {
        busy_ticks / all_ticks
    } else {
        0.0
    };
    // (With bot processes, `total` counts them too.)
    let others = (machine_busy - total / (wall.as_secs_f64() * cores)).max(0.0);
    println!(
        "  machine busy {:.1} %, of which other processes {:.1} % (load average {})",
        100.0 * machine_busy,
        100.0 * others,
        std::fs::read_to_string("/proc/loadavg")
            .unwrap_or_default()
            .split_whitespace()
            .take(3)
            .collect::<Vec<_>>()
            .join(" ")
    );

    // The application layer alone, with the bot idle.
    println!("application layer alone (direct calls on the same database, bot idle), µs:");
    let stages = stages(&db, &users[0]).await?;
    let mut stages_json = serde_json::Map::new();
    for (name, mut d) in stages {
        d.sort();
        println!(
            "  {:<52} p50 {:>7.0}  p99 {:>7.0}",
            name,
            pct(&d, 0.5).as_secs_f64() * 1e6,
            pct(&d, 0.99).as_secs_f64() * 1e6
        );
        stages_json.insert(
            name.to_string(),
            json!(round(pct(&d, 0.5).as_secs_f64() * 1e6, 0)),
        );
    }

    // Five seconds after the burst, the checkpointer should have cut the
    // log back (target: peak under 64 MB, under 4 MB 5 s after).
    tokio::time::sleep(Duration::from_secs(5)).await;
    wal_task.abort();
    let wal_peak_mb = wal_peak.load(std::sync::atomic::Ordering::Relaxed) as f64 / 1048576.0;
    let wal_final_mb = wal_size() as f64 / 1048576.0;
    println!(
        "WAL file: peak {wal_peak_mb:.1} MB during the run, {wal_final_mb:.2} MB 5 s after it"
    );
    let rss = peak_rss_mb();
    println!(
        "peak RSS: {rss:.1} MB (the whole process: {}fake Discord keeping its last {RETAIN} requests and messages, driver{})",
        if external { "" } else { "bot, " },
        if case.validate {
            ", OpenAPI document"
        } else {
            ""
        }
    );
    let bot_rss: Vec<f64> = bots.iter().map(|b| b.peak_rss_mb()).collect();
    if external {
        let list: Vec<String> = bot_rss.iter().map(|m| format!("{m:.1} MB")).collect();
        println!(
            "bot processes alone, peak RSS: {} (together {:.1} MB)",
            list.join(", "),
            bot_rss.iter().sum::<f64>()
        );
    }
    println!();
    t.stop().await;
    for b in bots {
        b.stop().await;
    }

    let result = json!({
        "rate": s.rate,
        "p50_ms": round(ms(pct(&all, 0.50)), 3),
        "p99_ms": round(ms(pct(&all, 0.99)), 3),
        "p999_ms": round(ms(pct(&all, 0.999)), 3),
        "served": all.len(),
        "pinned": pinned,
        "max_ms": round(ms(all.last().copied().unwrap_or_default()), 3),
        "errors": errors,
        "busy": busy,
        "rss_mb": round(rss, 1),
        "bot_rss_mb": if external {
            json!(round(bot_rss.iter().copied().fold(0.0, f64::max), 1))
        } else {
            Value::Null
        },
        "bot_rss_mb_each": bot_rss.iter().map(|m| round(*m, 1)).collect::<Vec<_>>(),
        "processes": case.processes,
        "requests_per_interaction": round(requests_per_interaction, 2),
        "bot_cpu_us_per_interaction": round(per(bot_cpu), 0),
        "wal_peak_mb": round(wal_peak_mb, 1),
        "wal_final_mb": round(wal_final_mb, 2),
        "characters": case.characters,
        "stored_characters": stored,
        "validate": case.validate,
        "throughput": round(throughput, 1),
        "seconds": s.seconds,
        "cpu_us_per_interaction": cpu_json,
        "cpu_wait_us_per_interaction": round(per(total_wait), 0),
        "other_processes_pct": round(100.0 * others, 1),
        "app_layer_p50_us": stages_json,
    });
    println!("case json: {result}\n");
    Ok(result)
}

/// The binary a bot process runs: `KISMET_BENCH_BIN` (e.g. a production
/// build, to compare release profiles), else this benchmark's own build.
fn bot_binary() -> std::ffi::OsString {
    std::env::var_os("KISMET_BENCH_BIN")
        .filter(|b| !b.is_empty())
        .unwrap_or_else(|| env!("CARGO_BIN_EXE_kismet").into())
}

/// One `kismet run` bot process of a case (`KISMET_BENCH_PROCESSES`).
struct BotProcess {
    child: tokio::process::Child,
    pid: u32,
    log: PathBuf,
}

impl BotProcess {
    /// Starts bot `index` of `count` on `database` against the table's fake
    /// (with `count` > 1, it runs shard `index` of `count`) and waits until
    /// it registered its commands.
    async fn start(
        t: &Table,
        database: &str,
        dir: &std::path::Path,
        index: u32,
        count: u32,
    ) -> Result<BotProcess, String> {
        let log = dir.join(format!("bot-{index}.log"));
        let mut args = vec!["run".to_string(), "--api-base".into(), t.fake.base_url()];
        if count > 1 {
            args.extend([
                "--shards".into(),
                index.to_string(),
                "--shard-count".into(),
                count.to_string(),
            ]);
        }
        let before = t.registration_count();
        let stderr = std::fs::File::create(&log).map_err(|e| format!("{}: {e}", log.display()))?;
        let child = tokio::process::Command::new(bot_binary())
            .args(&args)
            .current_dir(dir)
            .env("DISCORD_TOKEN", "fake.token.kismet")
            .env("DATABASE_URL", database)
            .env("KISMET_REGISTER", "global")
            .env("RUST_LOG", "warn,serenity=error,poise=error")
            .stdin(std::process::Stdio::null())
            .stdout(std::process::Stdio::null())
            .stderr(stderr)
            .kill_on_drop(true)
            .spawn()
            .map_err(|e| format!("kismet run: {e}"))?;
        let pid = child.id().unwrap_or(0);
        let bot = BotProcess { child, pid, log };
        if let Err(e) = t.await_registration(before).await {
            return Err(format!(
                "bot process {index}: {e}\n{}",
                std::fs::read_to_string(&bot.log).unwrap_or_default()
            ));
        }
        Ok(bot)
    }

    /// CPU seconds its threads used so far, and seconds they waited for a
    /// CPU (`/proc/<pid>/task/*/schedstat`).
    fn cpu(&self) -> (f64, f64) {
        let mut out = (0.0, 0.0);
        let Ok(tasks) = std::fs::read_dir(format!("/proc/{}/task", self.pid)) else {
            return out;
        };
        for task in tasks.flatten() {
            let sched: Vec<f64> = std::fs::read_to_string(task.path().join("schedstat"))
                .unwrap_or_default()
                .split_whitespace()
                .filter_map(|x| x.parse().ok())
                .collect();
            out.0 += sched.first().map_or(0.0, |ns| ns / 1e9);
            out.1 += sched.get(1).map_or(0.0, |ns| ns / 1e9);
        }
        out
    }

    /// Its peak resident memory so far (`VmHWM`).
    fn peak_rss_mb(&self) -> f64 {
        vm_hwm_mb(&format!("/proc/{}/status", self.pid))
    }

    /// SIGKILL (the case is over; the database is not measured after).
    async fn stop(mut self) {
        let _ = self.child.start_kill();
        let _ = tokio::time::timeout(Duration::from_secs(5), self.child.wait()).await;
    }
}

/// The bot's stage marks: (interaction id, stage, when, its tokio task).
type Mark = (u64, usize, Instant, Option<tokio::task::Id>);
static STAGES: Mutex<Vec<Mark>> = Mutex::new(Vec::new());

/// The stages the bot marks, in order.
const STAGE_NAMES: [&str; 5] = ["arrived", "admitted", "start", "app done", "sent"];
const ARRIVED: usize = 0;
const ADMITTED: usize = 1;
const APP_DONE: usize = 3;

/// Collects the bot's stage marks ([`kismet::kit::stage`]) into [`STAGES`].
fn record_stage(id: u64, stage: &'static str) {
    let now = Instant::now();
    if let Some(stage) = STAGE_NAMES.iter().position(|s| *s == stage) {
        STAGES.lock().unwrap_or_else(|e| e.into_inner()).push((
            id,
            stage,
            now,
            tokio::task::try_id(),
        ));
    }
}

/// The database's marks ([`kismet::storage::MARK_SINK`]): (its tokio
/// task, what, when). An interaction's are those of its task between its
/// admission and `app done`; the checkpointer's have a task of their own.
type DbMark = (Option<tokio::task::Id>, &'static str, Instant);
static DB_MARKS: Mutex<Vec<DbMark>> = Mutex::new(Vec::new());

fn record_db(what: &'static str) {
    let now = Instant::now();
    DB_MARKS
        .lock()
        .unwrap_or_else(|e| e.into_inner())
        .push((tokio::task::try_id(), what, now));
}

/// Where in time the slowest interactions (latency at or above `p99`)
/// were sent: per tenth of a second within each second (a periodic stall,
/// such as a checkpoint every second, piles into one tenth) and per second
/// of the run (a burst piles into one or two seconds).
fn print_tail(samples: &[Sample], start: Instant, p99: Duration) {
    let slow: Vec<Duration> = samples
        .iter()
        .filter(|x| x.latency.is_some_and(|l| l >= p99 && l > Duration::ZERO))
        .filter_map(|x| x.sent.map(|(_, at)| at.saturating_duration_since(start)))
        .collect();
    if slow.is_empty() {
        return;
    }
    let mut tenths = [0usize; 10];
    let mut seconds: BTreeMap<u64, usize> = BTreeMap::new();
    for at in &slow {
        tenths[(at.subsec_millis() / 100) as usize] += 1;
        *seconds.entry(at.as_secs()).or_default() += 1;
    }
    let tenths: Vec<String> = tenths.iter().map(|n| n.to_string()).collect();
    let seconds: Vec<String> = seconds.iter().map(|(s, n)| format!("{s}s:{n}")).collect();
    println!(
        "slowest 1% ({} at >= {:.1} ms) by tenth of each second sent: [{}]",
        slow.len(),
        ms(p99),
        tenths.join(" ")
    );
    println!("  by second of the run: {}", seconds.join(" "));
}

/// One interaction's latency split, ms: gateway (event sent -> the bot's
/// admission), admission (waiting for a place), app (admitted -> `app
/// done` without the write transaction), db queue (asking for the writer
/// -> holding it), db work (holding it -> committed), answer (`app done`
/// -> callback received).
const SPLIT: [&str; 6] = [
    "gateway",
    "admission",
    "app",
    "db queue",
    "db work",
    "answer",
];

/// Splits each latency at the bot's stage marks and the database's, and
/// prints the split by kind, of the slowest 1% and of the ten slowest;
/// then how many of the slowest overlapped the WAL checkpoint compared
/// with all.
fn print_stages(samples: &[Sample]) {
    let stages = STAGES.lock().unwrap_or_else(|e| e.into_inner()).clone();
    let db = DB_MARKS.lock().unwrap_or_else(|e| e.into_inner()).clone();
    // Per interaction, each stage's first mark: when, in which task.
    type Marked = [Option<(Instant, Option<tokio::task::Id>)>; 5];
    let mut marks: std::collections::HashMap<u64, Marked> = std::collections::HashMap::new();
    for (id, stage, at, task) in &stages {
        marks.entry(*id).or_default()[*stage].get_or_insert((*at, *task));
    }
    let mut by_task: std::collections::HashMap<tokio::task::Id, Vec<(&'static str, Instant)>> =
        std::collections::HashMap::new();
    let mut checkpoints: Vec<(Instant, Instant)> = Vec::new();
    let mut open_checkpoint = None;
    for (task, what, at) in &db {
        match *what {
            "checkpoint" => open_checkpoint = Some(*at),
            "checkpoint done" => {
                if let Some(from) = open_checkpoint.take() {
                    checkpoints.push((from, *at));
                }
            }
            _ => {
                if let Some(task) = task {
                    by_task.entry(*task).or_default().push((*what, *at));
                }
            }
        }
    }
    // (kind, latency, split, sent, received)
    type Split = (Kind, Duration, [Duration; 6], Instant, Instant);
    let split: Vec<Split> = samples
        .iter()
        .filter_map(|x| {
            let (id, sent) = x.sent?;
            let m = marks.get(&id)?;
            let (arrived, _) = m[ARRIVED]?;
            let (admitted, task) = m[ADMITTED]?;
            let (app, _) = m[APP_DONE]?;
            let got = sent + x.latency?;
            // The first write transaction of the interaction's task in its
            // application window.
            let mut queue = Duration::ZERO;
            let mut work = Duration::ZERO;
            if let Some(list) = task.and_then(|t| by_task.get(&t)) {
                let inside: Vec<_> = list
                    .iter()
                    .filter(|(_, at)| *at >= admitted && *at <= app)
                    .collect();
                let wait = inside.iter().find(|(w, _)| *w == "db wait").map(|x| x.1);
                let begun = inside.iter().find(|(w, _)| *w == "db begun").map(|x| x.1);
                let done = inside.iter().find(|(w, _)| *w == "db done").map(|x| x.1);
                if let (Some(w), Some(b)) = (wait, begun) {
                    queue = b.saturating_duration_since(w);
                    if let Some(d) = done {
                        work = d.saturating_duration_since(b);
                    }
                }
            }
            let app_total = app.saturating_duration_since(admitted);
            Some((
                x.kind,
                x.latency?,
                [
                    arrived.saturating_duration_since(sent),
                    admitted.saturating_duration_since(arrived),
                    app_total.saturating_sub(queue + work),
                    queue,
                    work,
                    got.saturating_duration_since(app),
                ],
                sent,
                got,
            ))
        })
        .collect();
    if split.is_empty() {
        println!("stages: no stage marks from the bot");
        return;
    }
    println!(
        "where the latency goes, ms: gateway (event sent -> the bot's admission: WebSocket, serenity),"
    );
    println!(
        "  admission (waiting for a place), app (options, rules, reads; without the write transaction),"
    );
    println!(
        "  db queue (asking for the writer -> BEGIN done), db work (-> COMMIT done), answer (-> callback received)"
    );
    let head: Vec<String> = SPLIT.iter().map(|n| format!("{n:>9} p50/p99")).collect();
    println!("  {:<16} {:>6} {}", "kind", "n", head.join(" "));
    let row = |name: &str, rows: &[&Split]| {
        let cols: Vec<String> = (0..6)
            .map(|i| {
                let mut d: Vec<Duration> = rows.iter().map(|x| x.2[i]).collect();
                d.sort();
                format!("{:>8.3}/{:<8.3}", ms(pct(&d, 0.5)), ms(pct(&d, 0.99)))
            })
            .collect();
        println!("  {:<16} {:>6} {}", name, rows.len(), cols.join(" "));
    };
    for (k, _) in Kind::MIX {
        let rows: Vec<_> = split.iter().filter(|x| x.0 == k).collect();
        if !rows.is_empty() {
            row(k.name(), &rows);
        }
    }
    row("all", &split.iter().collect::<Vec<_>>());
    let mut by_latency: Vec<&Split> = split.iter().collect();
    by_latency.sort_by_key(|x| x.1);
    let tail = &by_latency[by_latency.len() * 99 / 100..];
    let mean =
        |i: usize| ms(tail.iter().map(|x| x.2[i]).sum::<Duration>() / tail.len().max(1) as u32);
    let means: Vec<String> = (0..6)
        .map(|i| format!("{} {:.3}", SPLIT[i], mean(i)))
        .collect();
    println!(
        "  the slowest 1% ({} interactions, >= {:.2} ms), mean ms: {}",
        tail.len(),
        tail.first().map_or(0.0, |x| ms(x.1)),
        means.join("  ")
    );
    println!("  the ten slowest, ms (latency: {}):", SPLIT.join(" / "));
    for x in by_latency.iter().rev().take(10) {
        let parts: Vec<String> = x.2.iter().map(|d| format!("{:.2}", ms(*d))).collect();
        println!(
            "    {:<14} {:>8.2}: {}",
            x.0.name(),
            ms(x.1),
            parts.join(" / ")
        );
    }
    // The WAL checkpoint holds the writer: do the slowest overlap it more
    // often than all interactions do?
    let overlaps = |x: &&&Split| checkpoints.iter().any(|(a, b)| *a < x.4 && *b > x.3);
    let held: Duration = checkpoints
        .iter()
        .map(|(a, b)| b.saturating_duration_since(*a))
        .sum();
    let mut lengths: Vec<Duration> = checkpoints
        .iter()
        .map(|(a, b)| b.saturating_duration_since(*a))
        .collect();
    lengths.sort();
    println!(
        "  WAL truncation: {} during the run, p50 {:.3} ms, max {:.3} ms ({:.3} ms in all); overlapped by {:.1} % of the slowest 1% and {:.1} % of all interactions",
        checkpoints.len(),
        ms(pct(&lengths, 0.5)),
        ms(lengths.last().copied().unwrap_or_default()),
        ms(held),
        100.0 * tail.iter().filter(overlaps).count() as f64 / tail.len().max(1) as f64,
        100.0 * by_latency.iter().filter(overlaps).count() as f64 / by_latency.len().max(1) as f64
    );
}

/// Requests the bot made during the run, read from the fake as it goes.
#[derive(Clone, Default)]
struct Tally {
    last_seq: u64,
    requests: usize,
    routes: BTreeMap<String, usize>,
    http_errors: usize,
    violations: usize,
    /// Requests the fake forgot before they were read.
    lost: usize,
}

impl Tally {
    /// Adds the requests after `last_seq` (as the fake returned them).
    fn add(&mut self, requests: &[kismet::fake::Recorded]) {
        if let Some(first) = requests.first() {
            self.lost += first.seq.saturating_sub(self.last_seq + 1) as usize;
        }
        for r in requests {
            self.requests += 1;
            self.http_errors += usize::from(r.status >= 400);
            self.violations += r.violations.len();
            let what = if r.method == "GET" && r.path.ends_with("/messages/@original") {
                "/webhooks/…/messages/@original".to_string()
            } else {
                r.route
                    .clone()
                    .unwrap_or_else(|| r.path.clone())
                    .replace("/webhooks/{webhook_id}/{webhook_token}", "/webhooks/…")
                    .replace(
                        "/interactions/{interaction_id}/{interaction_token}",
                        "/interactions/…",
                    )
            };
            *self
                .routes
                .entry(format!("{} {what}", r.method))
                .or_default() += 1;
            self.last_seq = r.seq;
        }
    }
}

fn print_row(name: &str, l: &[Duration], c: &[Duration]) {
    println!(
        "  {:<16} {:>6} {:>8.2} {:>8.2} {:>8.2} {:>8.2}   {:>9.2} {:>9.2}",
        name,
        l.len(),
        ms(pct(l, 0.50)),
        ms(pct(l, 0.90)),
        ms(pct(l, 0.99)),
        ms(l.last().copied().unwrap_or_default()),
        ms(pct(c, 0.50)),
        ms(pct(c, 0.99)),
    );
}

/// Every member makes a Veracity and a Storyteller sheet and rolls once.
async fn setup_users(t: &Arc<Table>, users: &Arc<Vec<User>>) -> Result<(), String> {
    use futures_util::stream::{self, StreamExt, TryStreamExt};
    stream::iter(0..users.len())
        .map(|i| {
            let t = t.clone();
            let users = users.clone();
            async move {
                let u = &users[i];
                for line in [
                    format!("/vr sheet create name:V{i} light:6 flesh:6 facet:Brave"),
                    format!("/st sheet create name:S{i} willpower:5"),
                    "/st sheet set trait:Wits dots:3".to_string(),
                    "/st sheet set trait:Alertness dots:2".to_string(),
                    "/roll expression:1d20".to_string(),
                ] {
                    let ex = t.command_in(u.guild, &u.name, &line).await?;
                    if let Some(e) = problem(&ex) {
                        return Err(format!("setup `{line}` for {}: {e}", u.name));
                    }
                    remember_roll(u, &ex);
                }
                Ok::<(), String>(())
            }
        })
        .buffer_unordered(8)
        .try_collect::<Vec<()>>()
        .await?;
    Ok(())
}

/// Seeds `count` characters through the storage layer, in transactions of
/// 10,000, spread over [`SEED_GUILDS`] guilds (the benchmark's among them)
/// with one owner each; sheets are copies of real ones.
async fn seed(db: &Db, users: &[User], count: usize) -> Result<(), String> {
    let u = &users[0];
    let templates = {
        let mut tx = db.read().await.map_err(|e| e.to_string())?;
        let mut out = Vec::new();
        for system in ["veracity", "storyteller"] {
            let c = characters::active(&mut tx, u.guild as i64, system, u.id)
                .await
                .map_err(|e| e.to_string())?
                .ok_or_else(|| format!("no {system} sheet to copy"))?;
            out.push((system, c.sheet));
        }
        out
    };
    let guilds = users
        .iter()
        .map(|u| u.guild)
        .collect::<std::collections::BTreeSet<_>>();
    let guilds: Vec<u64> = guilds.into_iter().collect();
    let now = storage::now_ms();
    let mut i = 0;
    while i < count {
        let mut tx = db.write().await.map_err(|e| e.to_string())?;
        let end = (i + 10_000).min(count);
        for k in i..end {
            let slot = k % SEED_GUILDS;
            let guild = guilds
                .get(slot)
                .copied()
                .unwrap_or(SEED_GUILD_BASE + slot as u64);
            let (system, sheet) = &templates[k % templates.len()];
            characters::insert(
                &mut tx,
                guild as i64,
                SEED_OWNER_BASE + k as i64,
                system,
                &format!("Seed {k}"),
                sheet,
                now,
            )
            .await
            .map_err(|e| e.to_string())?;
        }
        tx.commit().await.map_err(|e| e.to_string())?;
        i = end;
    }
    Ok(())
}

/// Runs the mix at `rate` for `seconds`: request `i` is spawned at
/// `start + i / rate`, members taking turns in a shuffled order.
async fn run_mix(
    t: &Arc<Table>,
    users: &Arc<Vec<User>>,
    rate: f64,
    seconds: f64,
    seed: u64,
    roll_only: bool,
) -> Vec<Sample> {
    let mut rng = StdRng::seed_from_u64(seed);
    let mut order: Vec<usize> = (0..users.len()).collect();
    order.shuffle(&mut rng);
    let n = (rate * seconds).round() as usize;
    let period = Duration::from_secs_f64(1.0 / rate);
    let start = tokio::time::Instant::now() + Duration::from_millis(10);
    let mut handles = Vec::with_capacity(n);
    for i in 0..n {
        let due = start + period.mul_f64(i as f64);
        tokio::time::sleep_until(due).await;
        let lag = due.elapsed();
        let (kind, expr) = if roll_only {
            (Kind::Roll, "3d6+2")
        } else {
            (
                Kind::pick(&mut rng),
                EXPRESSIONS[rng.random_range(0..EXPRESSIONS.len())],
            )
        };
        let t = t.clone();
        let users = users.clone();
        let who = order[i % order.len()];
        handles.push(tokio::spawn(async move {
            one(&t, &users[who], kind, expr, lag).await
        }));
    }
    let mut out = Vec::with_capacity(n);
    for h in handles {
        match h.await {
            Ok(s) => out.push(s),
            Err(e) => out.push(Sample {
                kind: Kind::Roll,
                latency: None,
                complete: None,
                lag: Duration::ZERO,
                error: Some(format!("driver task: {e}")),
                busy: false,
                sent: None,
            }),
        }
    }
    out
}

async fn one(t: &Table, u: &User, kind: Kind, expr: &str, lag: Duration) -> Sample {
    let reroll = if kind == Kind::Reroll {
        u.roll.lock().unwrap_or_else(|e| e.into_inner()).clone()
    } else {
        None
    };
    let (kind, result) = match (kind, reroll) {
        (Kind::Reroll, Some((mid, cid))) => (
            kind,
            t.click_custom_id_in(u.guild, &u.name, mid, &cid, None)
                .await,
        ),
        (Kind::Roll | Kind::Reroll, _) => (
            Kind::Roll,
            t.command_in(u.guild, &u.name, &format!("/roll expression:\"{expr}\""))
                .await,
        ),
        (Kind::VrSave, _) => (
            kind,
            t.command_in(u.guild, &u.name, "/vr save inventory:light")
                .await,
        ),
        (Kind::StPool, _) => (
            kind,
            t.command_in(u.guild, &u.name, "/st pool dice:6 difficulty:7")
                .await,
        ),
        (Kind::StRoll, _) => (
            kind,
            t.command_in(u.guild, &u.name, "/st roll traits:\"Wits + Alertness\"")
                .await,
        ),
        (Kind::VrSheet, _) => (kind, t.command_in(u.guild, &u.name, "/vr sheet show").await),
        (Kind::StSheet, _) => (kind, t.command_in(u.guild, &u.name, "/st sheet show").await),
    };
    match result {
        Ok(ex) => {
            let busy = is_busy(&ex);
            let error = if busy { None } else { problem(&ex) };
            if matches!(kind, Kind::Roll | Kind::Reroll) {
                remember_roll(u, &ex);
            }
            Sample {
                kind,
                latency: ex.latency,
                complete: Some(ex.sent.elapsed()),
                lag,
                error,
                busy,
                sent: Some((ex.interaction_id, ex.sent)),
            }
        }
        Err(e) => Sample {
            kind,
            latency: None,
            complete: None,
            lag,
            error: Some(e),
            busy: false,
            sent: None,
        },
    }
}

/// Whether the bot turned the interaction away as busy (`kit::BUSY`).
fn is_busy(ex: &Exchange) -> bool {
    ex.outputs.first().is_some_and(|o| {
        o.content()
            .trim_start_matches("⚠️ ")
            .starts_with(&kismet::kit::BUSY[..40])
    })
}

/// What is wrong with an answer, if anything.
fn problem(ex: &Exchange) -> Option<String> {
    if ex.latency.is_none() {
        return Some("no interaction callback".into());
    }
    let first = ex.outputs.first()?;
    if first.content().starts_with('⚠') {
        return Some(first.content().to_string());
    }
    None
}

fn remember_roll(u: &User, ex: &Exchange) {
    let (Some(mid), Some(out)) = (ex.message_id, ex.outputs.first()) else {
        return;
    };
    if let Some((_, cid, false)) = out.buttons().into_iter().find(|b| b.0 == "Reroll") {
        *u.roll.lock().unwrap_or_else(|e| e.into_inner()) = Some((mid, cid));
    }
}

/// Direct application-layer calls (no Discord, no serenity), 200 each.
async fn stages(db: &Db, u: &User) -> Result<Vec<(&'static str, Vec<Duration>)>, String> {
    let app = App::new(
        db.clone(),
        Config::defaults(),
        RngSource::Os,
        kismet::systems::registry(),
    );
    let caller = Caller {
        guild_id: u.guild as i64,
        channel_id: kismet::fake::table::CHANNEL_ID as i64,
        user_id: u.id,
        name: u.name.clone(),
        manage_guild: false,
        roles: Vec::new(),
        secret: false,
        parent_id: None,
    };
    let e = |e: kismet::app::AppError| e.to_string();
    let rounds = 200;
    let mut empty = Vec::new();
    let mut read = Vec::new();
    let mut roll = Vec::new();
    let mut reroll = Vec::new();
    let mut attach = Vec::new();
    for _ in 0..rounds {
        let t0 = Instant::now();
        let tx = db.write().await.map_err(|e| e.to_string())?;
        tx.commit().await.map_err(|e| e.to_string())?;
        empty.push(t0.elapsed());

        let t0 = Instant::now();
        let mut tx = db.read().await.map_err(|e| e.to_string())?;
        characters::active(&mut tx, caller.guild_id, "veracity", caller.user_id)
            .await
            .map_err(|e| e.to_string())?;
        drop(tx);
        read.push(t0.elapsed());

        let t0 = Instant::now();
        let r = dice::roll(&app, &caller, "3d8 + 1d4 + 2")
            .await
            .map_err(e)?;
        roll.push(t0.elapsed());
        let view = match r.reply {
            Reply::Message(v) | Reply::Update(v) | Reply::Ephemeral(v) | Reply::Edit(v) => v,
        };
        let session = view.session().ok_or("a roll without a session")?;
        let cid = view
            .all_buttons()
            .next()
            .map(|b| b.custom_id.clone())
            .ok_or("a roll without a button")?;

        let t0 = Instant::now();
        expiry::attach(&app, caller.guild_id, session, 1, Some("token"))
            .await
            .map_err(e)?;
        attach.push(t0.elapsed());

        let t0 = Instant::now();
        component::dispatch(&app, &caller, &cid, &[])
            .await
            .map_err(e)?;
        reroll.push(t0.elapsed());
    }
    Ok(vec![
        ("empty write transaction (BEGIN IMMEDIATE; COMMIT)", empty),
        ("read: the caller's active sheet", read),
        ("dice::roll (parse, roll, 1 write tx)", roll),
        (
            "expiry::attach (2nd write tx of an interactive reply)",
            attach,
        ),
        ("component::dispatch reroll (1 write tx)", reroll),
    ])
}

// ---------------------------------------------------------------- helpers

fn pct(sorted: &[Duration], p: f64) -> Duration {
    if sorted.is_empty() {
        return Duration::ZERO;
    }
    let rank = ((p * sorted.len() as f64).ceil() as usize).clamp(1, sorted.len());
    sorted[rank - 1]
}

fn ms(d: Duration) -> f64 {
    d.as_secs_f64() * 1e3
}

fn round(x: f64, places: i32) -> f64 {
    let f = 10f64.powi(places);
    (x * f).round() / f
}

fn peak_rss_mb() -> f64 {
    vm_hwm_mb("/proc/self/status")
}

/// The `VmHWM` (peak resident set) of a `/proc/…/status` file, in MB.
fn vm_hwm_mb(status: &str) -> f64 {
    std::fs::read_to_string(status)
        .ok()
        .and_then(|s| {
            s.lines()
                .find(|l| l.starts_with("VmHWM:"))
                .and_then(|l| l.split_whitespace().nth(1))
                .and_then(|kb| kb.parse::<f64>().ok())
        })
        .map_or(0.0, |kb| kb / 1024.0)
}

fn group_of(comm: &str) -> &'static str {
    if comm.starts_with("bot") {
        "bot"
    } else if comm.starts_with("sqlx-sqlite") {
        "sqlite"
    } else if comm.starts_with("fake") || comm.starts_with("pipeline") {
        "fake+driver"
    } else {
        "other"
    }
}

fn group_label(group: &str) -> &'static str {
    match group {
        "bot" => "bot runtime (serenity, poise, app)",
        "sqlite" => "SQLite worker threads",
        "fake+driver" => "fake Discord + driver",
        _ => "other threads",
    }
}

/// The machine's busy and total CPU ticks so far (`/proc/stat`).
fn machine_cpu() -> (f64, f64) {
    let stat = std::fs::read_to_string("/proc/stat").unwrap_or_default();
    let Some(line) = stat.lines().find(|l| l.starts_with("cpu ")) else {
        return (0.0, 0.0);
    };
    let f: Vec<f64> = line
        .split_whitespace()
        .skip(1)
        .filter_map(|x| x.parse().ok())
        .collect();
    // user nice system idle iowait irq softirq steal (guest time is in user)
    let total: f64 = f.iter().take(8).sum();
    let idle = f.get(3).copied().unwrap_or(0.0) + f.get(4).copied().unwrap_or(0.0);
    (total - idle, total)
}

/// CPU seconds used so far by each thread group, and seconds spent ready
/// but waiting for a CPU (threads that ended are not counted).
fn cpu_by_group() -> BTreeMap<&'static str, (f64, f64)> {
    let mut out = BTreeMap::new();
    let Ok(tasks) = std::fs::read_dir("/proc/self/task") else {
        return out;
    };
    for task in tasks.flatten() {
        let p = task.path();
        let comm = std::fs::read_to_string(p.join("comm")).unwrap_or_default();
        // schedstat: nanoseconds on the CPU, then waiting on a run queue;
        // else stat's utime + stime ticks.
        let sched: Vec<f64> = std::fs::read_to_string(p.join("schedstat"))
            .unwrap_or_default()
            .split_whitespace()
            .filter_map(|x| x.parse().ok())
            .collect();
        let wait = sched.get(1).map_or(0.0, |ns| ns / 1e9);
        let secs = sched
            .first()
            .map(|ns| ns / 1e9)
            .or_else(|| {
                let stat = std::fs::read_to_string(p.join("stat")).ok()?;
                let rest = &stat[stat.rfind(')')? + 2..];
                let f: Vec<&str> = rest.split_whitespace().collect();
                let ticks = f.get(11)?.parse::<f64>().ok()? + f.get(12)?.parse::<f64>().ok()?;
                Some(ticks / 100.0)
            })
            .unwrap_or(0.0);
        let e = out.entry(group_of(comm.trim())).or_insert((0.0, 0.0));
        e.0 += secs;
        e.1 += wait;
    }
    out
}
