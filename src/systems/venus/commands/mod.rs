//! The `/ve` slash commands (thin: options in, application call, view
//! out). Sub-modules: [`sheet`] (`/ve sheet …`), [`roll`] (`/ve check`,
//! `/ve task`, `/ve bonus`), [`fc`] (`/ve-gm fc …`), [`spotlight`] (`/ve spotlight scene|show`, its start/seat/end under `/ve-gm`), [`complete`] (autocomplete) and [`choices`] (the
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::venus::sheet::MAX_NOTE_LEN;

    /// Every (command name, option name, registered max_length) under `c`.
    fn lengths(c: &poise::Command<Data, Error>, out: &mut Vec<(String, String, Option<u64>)>) {
        for p in &c.parameters {
            let Some(o) = p.create_as_slash_command_option() else {
                continue;
            };
            let json = serde_json::to_value(o).unwrap();
            let max = json.get("max_length").and_then(|v| v.as_u64());
            out.push((c.name.to_string(), p.name.to_string(), max));
        }
        for s in &c.subcommands {
            lengths(s, out);
        }
    }

    #[test]
    fn note_text_and_factors_are_registered_with_the_limit_the_rules_check() {
        let mut all_options = Vec::new();
        for c in all() {
            lengths(&c, &mut all_options);
        }
        let limited: Vec<_> = all_options
            .iter()
            .filter(|(c, o, _)| o == "factors" || (c == "note" && o == "text"))
            .collect();
        // note text; factors of check, task, fc call, fc npc, fc adjust.
        assert_eq!(limited.len(), 6, "{limited:?}");
        for (c, o, max) in limited {
            assert_eq!(*max, Some(MAX_NOTE_LEN as u64), "/ve … {c} {o}:");
        }
    }
}
