//! The `kismet` binary: a thin command line over the library.
//!
//! - `kismet run` (the default): the bot, token from `.env`/`DISCORD_TOKEN`.
//! - `kismet sandbox`: the real bot against a fake Discord, no token.
//! - `kismet odds …`: exact odds as JSON.

use clap::{Parser, Subcommand};
use std::path::PathBuf;
use std::process::ExitCode;

use kismet::app::{App, RngSource};
use kismet::bot::{self, BotOptions};
use kismet::config::{Config, Secrets};
use kismet::sandbox::{self, SandboxOptions};
use kismet::storage::Db;

#[derive(Parser)]
#[command(
    name = "kismet",
    version,
    about = "A Discord bot for five indie tabletop-RPG systems"
)]
struct Cli {
    #[command(subcommand)]
    command: Option<Command>,
}

#[derive(Subcommand)]
enum Command {
    /// Run the bot (needs DISCORD_TOKEN; see README).
    Run,
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
    },
    /// Exact odds, as JSON.
    Odds(kismet::odds_cli::OddsArgs),
}

fn init_tracing(default: &str) {
    let filter = tracing_subscriber::EnvFilter::try_from_default_env()
        .unwrap_or_else(|_| tracing_subscriber::EnvFilter::new(default));
    let _ = tracing_subscriber::fmt()
        .with_env_filter(filter)
        .with_writer(std::io::stderr)
        .try_init();
}

fn main() -> ExitCode {
    let _ = dotenvy::dotenv();
    let cli = Cli::parse();
    match cli.command.unwrap_or(Command::Run) {
        Command::Odds(args) => kismet::odds_cli::run(&args),
        Command::Sandbox { db, seed, json, fc } => {
            init_tracing("warn,serenity=error,poise=error");
            let config = match Config::from_env() {
                Ok(c) => c,
                Err(e) => {
                    eprintln!("kismet: {e}");
                    return ExitCode::from(2);
                }
            };
            let rt = tokio::runtime::Runtime::new().expect("tokio runtime");
            let code = rt.block_on(sandbox::run(SandboxOptions { db, seed, json, fc }, config));
            rt.shutdown_timeout(std::time::Duration::from_secs(1));
            ExitCode::from(code as u8)
        }
        Command::Run => {
            init_tracing("info,serenity=warn");
            let Some(secrets) = Secrets::from_env() else {
                eprintln!(
                    "kismet: DISCORD_TOKEN is not set. Copy .env.example to .env and put your bot token in it \
                     (Discord developer portal → your application → Bot → Reset Token). \
                     To try Kismet without a token, run `kismet sandbox`."
                );
                return ExitCode::from(2);
            };
            let config = match Config::from_env() {
                Ok(c) => c,
                Err(e) => {
                    eprintln!("kismet: {e}");
                    return ExitCode::from(2);
                }
            };
            let rt = tokio::runtime::Runtime::new().expect("tokio runtime");
            match rt.block_on(run_bot(config, secrets)) {
                Ok(()) => ExitCode::SUCCESS,
                Err(e) => {
                    eprintln!("kismet: {e}");
                    ExitCode::FAILURE
                }
            }
        }
    }
}

async fn run_bot(config: Config, secrets: Secrets) -> Result<(), Box<dyn std::error::Error>> {
    let registration = config.registration()?;
    let db = Db::open(&config.database.url, config.database.max_connections).await?;
    tracing::info!(database = %config.database.url, "database ready");
    let app = App::new(db.clone(), config, RngSource::Os);
    let mut client = bot::client(
        app,
        &secrets,
        BotOptions {
            api_base: None,
            registration,
            done: None,
        },
    )
    .await?;
    let shards = client.shard_manager.clone();
    tokio::spawn(async move {
        let _ = tokio::signal::ctrl_c().await;
        tracing::info!("shutting down");
        shards.shutdown_all().await;
    });
    client.start().await?;
    db.close().await;
    Ok(())
}
