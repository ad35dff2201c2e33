//! The `kismet` binary: a thin command line over the library.
//!
//! - `kismet run` (the default): the bot, token from `.env`/`DISCORD_TOKEN`.
//! - `kismet sandbox`: the real bot against a fake Discord, no token (in a
//!   build with the `fake` feature, the default; the production build
//!   leaves it out and says so).
//! - `kismet odds …`: exact odds as JSON.
//! - `kismet health`: exit 0 when the running bot is healthy.

use clap::{Parser, Subcommand};
use std::path::PathBuf;
use std::process::ExitCode;

use kismet::app::{App, RngSource};
use kismet::bot::{self, BotOptions};
use kismet::config::{Config, Secrets, ShardRange};
use kismet::lifecycle::{self, InFlight};
use kismet::storage::Db;

#[derive(Parser)]
#[command(
    name = "kismet",
    version,
    about = "A Discord bot for indie tabletop-RPG systems"
)]
struct Cli {
    #[command(subcommand)]
    command: Option<Command>,
}

#[derive(Subcommand)]
enum Command {
    /// Run the bot (needs DISCORD_TOKEN; see README).
    Run {
        /// Tests only (hidden): talk to a fake Discord at this loopback
        /// address (`http://127.0.0.1:PORT`) instead of discord.com. Any
        /// other host is refused. The crash tests run the real binary this
        /// way (tests/e2e/crash.rs).
        #[arg(long, hide = true, value_parser = loopback_api_base)]
        api_base: Option<String>,
        /// Run only these gateway shards, `5` or a range `0-3` (inclusive),
        /// of `--shard-count`: several processes on one database serve one
        /// bot. Each process expires only its own guilds' sessions.
        #[arg(long, value_name = "N|FIRST-LAST", requires = "shard_count")]
        shards: Option<String>,
        /// The bot's total number of gateway shards (Discord wants one per
        /// 2,500 guilds), 1 to 4096. Alone, this process runs all of them.
        #[arg(long, value_name = "COUNT")]
        shard_count: Option<u32>,
        /// Write the heartbeat that `kismet health` reads into FILE (also
        /// `KISMET_HEARTBEAT=FILE`). Default: beside an SQLite database's
        /// file; on PostgreSQL, `kismet.heartbeat` in the temporary
        /// directory, or `kismet-shards-FIRST-LAST-of-COUNT.heartbeat` with
        /// `--shards`/`--shard-count`.
        #[arg(long, value_name = "FILE")]
        heartbeat: Option<PathBuf>,
    },
    /// Play the real bot from the terminal against a fake Discord (no token).
    Sandbox {
        /// Keep state in this SQLite file between runs.
        #[arg(long)]
        db: Option<PathBuf>,
        /// Seed every roll, for reproducible runs.
        #[arg(long)]
        seed: Option<u64>,
        /// One JSON object per reply.
        #[arg(long)]
        json: bool,
        /// Member names that hold the FC role (default: fc).
        #[arg(long)]
        fc: Vec<String>,
        /// Save the files the bot attaches (charts, exports) in this folder,
        /// as NNNN-name (NNNN: the reply's index in the output).
        #[arg(long)]
        attachments: Option<PathBuf>,
        /// After the script, write the commands the sandbox server's members
        /// see (global and the server's own, as Discord lists them) to FILE
        /// as a JSON array.
        #[arg(long, value_name = "FILE")]
        commands: Option<PathBuf>,
    },
    /// Exact odds, as JSON.
    Odds(kismet::odds_cli::OddsArgs),
    /// Tests and measurements only (hidden): run a fake Discord on
    /// 127.0.0.1, print its base URL (for `kismet run --api-base`) and
    /// serve until killed.
    #[command(hide = true)]
    FakeDiscord {
        /// The shard count it announces (`GET /gateway/bot`).
        #[arg(long, default_value_t = 1)]
        shards: u32,
    },
    /// Exit 0 when the bot is healthy: its database answers and its gateway
    /// connection beat within the last minute (Docker's HEALTHCHECK). Give
    /// it the `--heartbeat` (or `KISMET_HEARTBEAT`), `--shards` and
    /// `--shard-count` that `kismet run` got, to find its heartbeat.
    Health {
        /// The heartbeat file `kismet run --heartbeat FILE` writes (also
        /// `KISMET_HEARTBEAT=FILE`).
        #[arg(long, value_name = "FILE")]
        heartbeat: Option<PathBuf>,
        /// The `--shards` of the process to check (PostgreSQL: its
        /// heartbeat file is named after them).
        #[arg(long, value_name = "N|FIRST-LAST", requires = "shard_count")]
        shards: Option<String>,
        /// The `--shard-count` of the process to check.
        #[arg(long, value_name = "COUNT")]
        shard_count: Option<u32>,
    },
}

/// Logs to standard error at `RUST_LOG` (else `default`), with `secret`
/// (the bot token) redacted from every line at every level, and the raw
/// WebSocket frames (which carry the token) never logged.
fn init_tracing(default: &str, secret: &str) {
    use tracing_subscriber::prelude::*;
    // `Targets` reads `RUST_LOG`'s usual `level,target=level` form; the
    // span and field filters of `EnvFilter` would compile a regex engine
    // into the binary for nothing the bot's logs need.
    use tracing_subscriber::filter::Targets;
    let filter = std::env::var("RUST_LOG")
        .ok()
        .and_then(|v| v.parse::<Targets>().ok())
        .or_else(|| default.parse::<Targets>().ok())
        .unwrap_or_default();
    let note = compiled_out(&filter, tracing::level_filters::STATIC_MAX_LEVEL);
    let layer = tracing_subscriber::fmt::layer()
        .with_writer(kismet::redact::RedactingStderr::new(secret))
        .with_filter(filter)
        .with_filter(tracing_subscriber::filter::filter_fn(|m| {
            !kismet::redact::frame_logger(m.target(), m.level())
        }));
    let _ = tracing_subscriber::registry().with(layer).try_init();
    if let Some(note) = note {
        tracing::warn!("{note}");
    }
}

/// What `filter` asks for that this build cannot log: a release build
/// compiles out every line below `compiled` (info: the `tracing` crate's
/// `release_max_level_info`), so `RUST_LOG=debug` or `trace` would
/// silently log as `info`. `None` when the build logs all it asks for.
fn compiled_out(
    filter: &tracing_subscriber::filter::Targets,
    compiled: tracing::level_filters::LevelFilter,
) -> Option<String> {
    let asked = filter
        .iter()
        .map(|(_, level)| level)
        .chain(filter.default_level())
        .max()?;
    (asked > compiled).then(|| {
        format!(
            "RUST_LOG asks for {asked} lines, but this build logs at most {compiled}: \
             a release build leaves finer lines out (see README, Logs); \
             run a debug build (`cargo run -- run`) for them"
        )
    })
}

fn main() -> ExitCode {
    let _ = dotenvy::dotenv();
    let cli = Cli::parse();
    let default = Command::Run {
        api_base: None,
        shards: None,
        shard_count: None,
        heartbeat: None,
    };
    match cli.command.unwrap_or(default) {
        Command::Odds(args) => kismet::odds_cli::run(&args),
        Command::Health {
            heartbeat,
            shards,
            shard_count,
        } => health(heartbeat, shards, shard_count),
        Command::Sandbox {
            db,
            seed,
            json,
            fc,
            attachments,
            commands,
        } => sandbox(SandboxArgs {
            db,
            seed,
            json,
            fc,
            attachments,
            commands,
        }),
        Command::FakeDiscord { shards } => fake_discord(shards),
        Command::Run {
            api_base,
            shards,
            shard_count,
            heartbeat,
        } => run(api_base, shards, shard_count, heartbeat),
    }
}

/// `kismet health`: whether the running bot's heartbeat is fresh.
fn health(
    heartbeat: Option<PathBuf>,
    shards: Option<String>,
    shard_count: Option<u32>,
) -> ExitCode {
    let shards = match shard_range(shards.as_deref(), shard_count) {
        Ok(r) => r,
        Err(e) => return usage_error(e),
    };
    let config = match Config::from_env() {
        Ok(c) => c,
        Err(e) => return usage_error(e),
    };
    let url = &config.database.url;
    let beat_file = heartbeat_file(url, heartbeat, shards);
    let rt = tokio::runtime::Runtime::new().expect("tokio runtime");
    match rt.block_on(lifecycle::health(url, &beat_file)) {
        Ok(()) => {
            println!("healthy");
            ExitCode::SUCCESS
        }
        Err(e) => {
            eprintln!("kismet health: {e}");
            ExitCode::FAILURE
        }
    }
}

/// `kismet run`: the bot, until it is stopped.
fn run(
    api_base: Option<String>,
    shards: Option<String>,
    shard_count: Option<u32>,
    heartbeat: Option<PathBuf>,
) -> ExitCode {
    let shards = match shard_range(shards.as_deref(), shard_count) {
        Ok(r) => r,
        Err(e) => return usage_error(e),
    };
    let Some(secrets) = Secrets::from_env() else {
        eprintln!(
            "kismet: DISCORD_TOKEN is not set. Copy .env.example to .env and put your bot token in it \
             (Discord developer portal → your application → Bot → Reset Token). \
             To try Kismet without a token, run `kismet sandbox`."
        );
        return ExitCode::from(2);
    };
    init_tracing("info,serenity=warn", secrets.token());
    let config = match Config::from_env() {
        Ok(c) => c,
        Err(e) => return usage_error(e),
    };
    let beat_file = heartbeat_file(&config.database.url, heartbeat, shards);
    let rt = tokio::runtime::Runtime::new().expect("tokio runtime");
    match rt.block_on(run_bot(config, secrets, api_base, shards, beat_file)) {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("kismet: {e}");
            ExitCode::FAILURE
        }
    }
}

/// The sandbox's options, as the command line gave them.
struct SandboxArgs {
    db: Option<PathBuf>,
    seed: Option<u64>,
    json: bool,
    fc: Vec<String>,
    attachments: Option<PathBuf>,
    commands: Option<PathBuf>,
}

/// `kismet sandbox`: the real bot against the fake Discord.
#[cfg(feature = "fake")]
fn sandbox(args: SandboxArgs) -> ExitCode {
    use kismet::sandbox::{self, SandboxOptions};
    init_tracing("warn,serenity=error,poise=error", "");
    let config = match Config::from_env() {
        Ok(c) => c,
        Err(e) => return usage_error(e),
    };
    let rt = tokio::runtime::Runtime::new().expect("tokio runtime");
    let code = rt.block_on(sandbox::run(
        SandboxOptions {
            db: args.db,
            seed: args.seed,
            json: args.json,
            fc: args.fc,
            attachments: args.attachments,
            commands: args.commands,
        },
        config,
    ));
    rt.shutdown_timeout(std::time::Duration::from_secs(1));
    ExitCode::from(code as u8)
}

/// The message of a build without the fake Discord.
#[cfg(not(feature = "fake"))]
const NO_FAKE: &str =
    "this build of Kismet has no sandbox: it is a production build, made without \
     the `fake` feature. Build with the default features (`cargo run -- sandbox`) to play the bot \
     from the terminal.";

/// `kismet sandbox` in a production build: says there is none.
#[cfg(not(feature = "fake"))]
fn sandbox(args: SandboxArgs) -> ExitCode {
    let _ = (
        args.db,
        args.seed,
        args.json,
        args.fc,
        args.attachments,
        args.commands,
    );
    eprintln!("kismet: {NO_FAKE}");
    ExitCode::from(2)
}

/// `kismet fake-discord`: a fake Discord on 127.0.0.1 until killed.
#[cfg(feature = "fake")]
fn fake_discord(shards: u32) -> ExitCode {
    let rt = tokio::runtime::Runtime::new().expect("tokio runtime");
    rt.block_on(async {
        let fake = match kismet::fake::FakeDiscord::start(None).await {
            Ok(f) => f,
            Err(e) => {
                eprintln!("kismet: fake Discord: {e}");
                return ExitCode::FAILURE;
            }
        };
        fake.set_shard_count(shards.max(1));
        println!("{}", fake.base_url());
        // Keep about the last thousand requests, then wait to be killed.
        fake.set_retention(Some(1000));
        std::future::pending::<()>().await;
        ExitCode::SUCCESS
    })
}

/// `kismet fake-discord` in a production build.
#[cfg(not(feature = "fake"))]
fn fake_discord(shards: u32) -> ExitCode {
    let _ = shards;
    eprintln!("kismet: {NO_FAKE}");
    ExitCode::from(2)
}

/// Says what was wrong with the command line or the configuration and
/// gives the exit code for it (2).
fn usage_error(e: impl std::fmt::Display) -> ExitCode {
    eprintln!("kismet: {e}");
    ExitCode::from(2)
}

/// The shards `kismet run` runs: `--shards` of `--shard-count`, all of
/// `--shard-count` without `--shards`, `None` (one shard, today's
/// default) without either.
fn shard_range(
    shards: Option<&str>,
    count: Option<u32>,
) -> Result<Option<ShardRange>, kismet::config::ConfigError> {
    match (shards, count) {
        (None, None) => Ok(None),
        (Some(spec), Some(count)) => ShardRange::parse(spec, count).map(Some),
        (None, Some(count)) => ShardRange::parse("0", count).map(|_| Some(ShardRange::all(count))),
        (Some(_), None) => Err(kismet::config::ConfigError(
            "--shards needs --shard-count (the bot's total number of shards)".into(),
        )),
    }
}

/// The heartbeat file of `kismet run` and `kismet health`: `--heartbeat`,
/// else `KISMET_HEARTBEAT`, else the default of the database and shards
/// ([`lifecycle::heartbeat_file`]).
fn heartbeat_file(url: &str, option: Option<PathBuf>, shards: Option<ShardRange>) -> PathBuf {
    let explicit = option.or_else(|| {
        std::env::var_os(lifecycle::HEARTBEAT_VAR)
            .filter(|v| !v.is_empty())
            .map(PathBuf::from)
    });
    lifecycle::heartbeat_file(url, explicit.as_deref(), shards)
}

/// Accepts only `http://` URLs on the loopback interface (127.0.0.1,
/// localhost, ::1), with an optional port and no path.
fn loopback_api_base(s: &str) -> Result<String, String> {
    let refuse =
        || format!("`{s}`: only a fake Discord on this machine is allowed (http://127.0.0.1:PORT)");
    let rest = s.strip_prefix("http://").ok_or_else(refuse)?;
    let rest = rest.strip_suffix('/').unwrap_or(rest);
    let host = match rest.strip_prefix('[') {
        Some(v6) => {
            let (host, port) = v6.split_once(']').ok_or_else(refuse)?;
            if !(port.is_empty() || port.strip_prefix(':').is_some_and(is_port)) {
                return Err(refuse());
            }
            host
        }
        None => match rest.split_once(':') {
            Some((host, port)) if is_port(port) => host,
            Some(_) => return Err(refuse()),
            None => rest,
        },
    };
    let loopback = match host {
        "localhost" => true,
        h => h
            .parse::<std::net::IpAddr>()
            .is_ok_and(|ip| ip.is_loopback()),
    };
    if loopback {
        Ok(format!("http://{rest}"))
    } else {
        Err(refuse())
    }
}

fn is_port(p: &str) -> bool {
    !p.is_empty() && p.len() <= 5 && p.bytes().all(|b| b.is_ascii_digit())
}

async fn run_bot(
    config: Config,
    secrets: Secrets,
    api_base: Option<String>,
    shards: Option<ShardRange>,
    beat_file: PathBuf,
) -> Result<(), Box<dyn std::error::Error>> {
    let registration = config.registration()?;
    let url = config.database.url.clone();
    let db = Db::open(&url, config.database.max_connections).await?;
    tracing::info!(database = %config.database.url, "database ready");
    let app = App::new(
        db.clone(),
        config,
        RngSource::Os,
        kismet::systems::registry(),
    );
    let stopping = app.stopping.clone();
    let inflight = InFlight::default();
    if let Some(r) = shards {
        tracing::info!(%r, "running a range of the gateway shards");
    }
    let mut client = bot::client_sharded(
        app,
        &secrets,
        BotOptions {
            api_base,
            registration,
            done: None,
            inflight: inflight.clone(),
        },
        kismet::systems::commands(),
        shards,
    )
    .await?;
    let range = shards;
    let shards = client.shard_manager.clone();
    tracing::debug!(heartbeat = %beat_file.display(), "heartbeat file");
    let beating = tokio::spawn(heartbeat(shards.clone(), beat_file.clone()));
    let signal = tokio::select! {
        ended = bot::start(&mut client, range) => {
            ended.map(|()| None)
        }
        signal = lifecycle::stop_signal() => Ok(Some(signal)),
    };
    // Stopping or stopped: no more beats, and none left behind for
    // `kismet health` to take for a running bot.
    beating.abort();
    let _ = beating.await;
    lifecycle::stop_beating(&beat_file);
    match signal? {
        Some(signal) => {
            // Odds in flight end at their next step rather than hold the
            // drain.
            stopping.store(true, std::sync::atomic::Ordering::Relaxed);
            stop(signal, &shards, &inflight, &db).await
        }
        None => db.close().await,
    }
    Ok(())
}

/// A clean stop, every step bounded (about 10 s in all, also when Discord
/// cannot be reached): close the gateway so no new interaction arrives,
/// let the ones in flight finish, checkpoint the write-ahead log, close
/// the database.
async fn stop(
    signal: &str,
    shards: &std::sync::Arc<serenity::all::ShardManager>,
    inflight: &InFlight,
    db: &Db,
) {
    use std::time::Duration;
    tracing::info!(signal, in_flight = inflight.count(), "stopping");
    if tokio::time::timeout(Duration::from_secs(2), shards.shutdown_all())
        .await
        .is_err()
    {
        tracing::warn!("the gateway did not close within 2 s; going on");
    }
    if !inflight.drained(lifecycle::DRAIN).await {
        tracing::warn!(
            in_flight = inflight.count(),
            "interactions still in flight after 5 s"
        );
    }
    match tokio::time::timeout(Duration::from_secs(2), db.checkpoint_truncate()).await {
        Ok(Ok(true)) => {}
        Ok(Ok(false)) => tracing::warn!("the write-ahead log could not be emptied"),
        Ok(Err(e)) => tracing::warn!(error = %e, "checkpoint at shutdown failed"),
        Err(_) => tracing::warn!("checkpoint at shutdown took over 2 s"),
    }
    let _ = tokio::time::timeout(Duration::from_secs(1), db.close()).await;
    tracing::info!("stopped");
}

/// Writes the heartbeat file while a gateway shard is connected.
async fn heartbeat(shards: std::sync::Arc<serenity::all::ShardManager>, path: PathBuf) {
    let mut tick = tokio::time::interval(lifecycle::BEAT_EVERY);
    loop {
        tick.tick().await;
        let connected = shards
            .runners
            .lock()
            .await
            .values()
            .any(|r| r.stage == serenity::all::ConnectionStage::Connected);
        if connected {
            if let Err(e) = lifecycle::beat(&path) {
                tracing::warn!(error = %e, path = %path.display(), "could not write the heartbeat");
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_hidden_api_base_accepts_only_loopback() {
        for ok in [
            "http://127.0.0.1:8080",
            "http://127.0.0.1",
            "http://localhost:9",
            "http://[::1]:443/",
            "http://127.1.2.3:1",
        ] {
            assert!(loopback_api_base(ok).is_ok(), "{ok}");
        }
        for bad in [
            "https://discord.com",
            "http://discord.com",
            "http://10.0.0.1:80",
            "http://127.0.0.1.evil.com:80",
            "http://127.0.0.1:80/api",
            "http://127.0.0.1:abc",
            "http://user@127.0.0.1:80",
            "127.0.0.1:80",
            "http://[::2]:80",
            "http://0.0.0.0:80",
        ] {
            assert!(loopback_api_base(bad).is_err(), "{bad}");
        }
    }

    #[test]
    fn shard_flags_are_read_together() {
        assert_eq!(shard_range(None, None).unwrap(), None);
        let r = shard_range(Some("0-3"), Some(8)).unwrap().unwrap();
        assert_eq!((r.first, r.last, r.count), (0, 3, 8));
        let all = shard_range(None, Some(4)).unwrap().unwrap();
        assert_eq!((all.first, all.last, all.count), (0, 3, 4));
        for (spec, count) in [
            (Some("5"), None),
            (Some("2-9"), Some(8)),
            (None, Some(0)),
            (None, Some(100_000)),
        ] {
            assert!(shard_range(spec, count).is_err(), "{spec:?} {count:?}");
        }
        // clap refuses --shards without --shard-count, before any of it.
        let parsed = Cli::try_parse_from(["kismet", "run", "--shards", "1"]);
        assert!(parsed.is_err());
        let parsed = Cli::try_parse_from(["kismet", "run", "--shards", "1", "--shard-count", "2"]);
        assert!(parsed.is_ok());
        // `kismet health` takes the same shard options and a heartbeat file.
        let parsed = Cli::try_parse_from(["kismet", "health", "--shards", "1"]);
        assert!(parsed.is_err());
        let parsed = Cli::try_parse_from([
            "kismet",
            "health",
            "--shards",
            "4-7",
            "--shard-count",
            "8",
            "--heartbeat",
            "/run/k.beat",
        ]);
        let Ok(Cli {
            command:
                Some(Command::Health {
                    heartbeat,
                    shards,
                    shard_count,
                }),
        }) = parsed
        else {
            panic!("health's options are read");
        };
        assert_eq!(heartbeat, Some(PathBuf::from("/run/k.beat")));
        assert_eq!((shards.as_deref(), shard_count), (Some("4-7"), Some(8)));
    }

    #[test]
    fn a_level_the_build_left_out_is_named() {
        use tracing::level_filters::LevelFilter;
        let targets = |s: &str| s.parse::<tracing_subscriber::filter::Targets>().unwrap();
        let note = compiled_out(&targets("trace"), LevelFilter::INFO).unwrap();
        assert!(note.contains("asks for trace"), "{note}");
        assert!(note.contains("at most info"), "{note}");
        let note = compiled_out(&targets("warn,kismet=debug"), LevelFilter::INFO).unwrap();
        assert!(note.contains("asks for debug"), "{note}");
        assert_eq!(
            compiled_out(&targets("info,serenity=warn"), LevelFilter::INFO),
            None
        );
        assert_eq!(compiled_out(&targets("trace"), LevelFilter::TRACE), None);
    }

    #[test]
    fn the_api_base_is_hidden_from_help() {
        use clap::CommandFactory;
        let mut cmd = Cli::command();
        let run = cmd.find_subcommand_mut("run").unwrap();
        let help = run.render_long_help().to_string();
        assert!(!help.contains("api-base"), "{help}");
    }
}
