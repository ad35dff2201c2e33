//! The `/ve` slash commands (thin: options in, application call, view
//! out). Sub-modules: [`sheet`] (`/ve sheet …`), [`roll`] (`/ve check`,
//! `/ve task`, `/ve bonus`), [`fc`] (`/ve fc …`), [`spotlight`] (`/ve spotlight …`), [`complete`] (autocomplete) and [`choices`] (the
//! fixed option lists).

pub mod choices;
pub mod complete;
pub mod fc;
pub mod roll;
pub mod sheet;
pub mod spotlight;

use crate::kit::{Data, Error};

/// Every command of the Venus Engine.
pub fn all() -> Vec<poise::Command<Data, Error>> {
    vec![ve()]
}

/// Venus Engine: sheets, checks, tasks, the FC's controls.
#[poise::command(
    slash_command,
    guild_only,
    subcommands(
        "sheet::sheet",
        "roll::check",
        "roll::task",
        "roll::bonus",
        "fc::fc",
        "spotlight::spotlight"
    ),
    subcommand_required
)]
pub async fn ve(_ctx: crate::kit::Context<'_>) -> Result<(), Error> {
    Ok(())
}
