//! `kismet odds`: exact odds for every roll the bot offers, printed as one
//! JSON object (or a table with `--pretty`).

use clap::Args;
use std::process::ExitCode;

/// The arguments of `kismet odds`.
#[derive(Debug, Args)]
pub struct OddsArgs {
    /// Print a human table instead of JSON.
    #[arg(long, global = true)]
    pub pretty: bool,
    /// The question and its parameters.
    #[arg(trailing_var_arg = true, allow_hyphen_values = true)]
    pub rest: Vec<String>,
}

/// Runs `kismet odds`.
pub fn run(_args: &OddsArgs) -> ExitCode {
    eprintln!("kismet odds: not available yet");
    ExitCode::from(2)
}
