//! The embeds of `/fc settings show`: an overview of every scope (one embed
//! each, one line per setting, within Discord's 6000-character budget per
//! message) and the detailed view of one scope (a field per setting with
//! its help).

use super::catalog::{Info, Scope};
use crate::app::view::{colour, truncate, Embed, View};

/// Longest value shown in the overview (custom trait lists can be long).
const OVERVIEW_VALUE: usize = 60;
/// Longest value shown in a detailed view.
const DETAIL_VALUE: usize = 300;

/// Who the FC is, where secret rolls go and what this channel plays.
pub struct Table {
    /// The FC role, if named.
    pub fc_role: Option<i64>,
    /// The GM channel, if set.
    pub gm_channel: Option<i64>,
    /// This channel's system override.
    pub channel_system: Option<String>,
    /// The server's system.
    pub guild_system: Option<String>,
}

fn system_text(scope: Option<&str>) -> String {
    scope.map_or_else(
        || "none chosen".to_string(),
        |s| crate::app::settings::system_display(s).to_string(),
    )
}

/// Who the FC is, in words.
pub fn fc_text(role: Option<i64>) -> String {
    match role {
        Some(r) => format!("members with the <@&{r}> role or the Manage Server permission"),
        None => "members with the Manage Server permission (no FC role named)".into(),
    }
}

fn table_lines(t: &Table) -> String {
    let plays = match (&t.channel_system, &t.guild_system) {
        (Some(c), _) => format!("{} (this channel's choice)", system_text(Some(c))),
        (None, g) => format!("{} (the server's)", system_text(g.as_deref())),
    };
    format!(
        "**FC**: {}\n**GM channel** (secret rolls): {}\n**This channel plays**: {plays}",
        fc_text(t.fc_role),
        t.gm_channel
            .map_or_else(|| "none set".to_string(), |c| format!("<#{c}>")),
    )
}

/// The overview: every scope's settings with their values.
pub fn overview(table: &Table, scopes: &[(Scope, Vec<Info>)]) -> View {
    let mut embeds = Vec::new();
    for (scope, infos) in scopes {
        let mut lines = Vec::new();
        if *scope == Scope::Shared {
            lines.push(table_lines(table));
            lines.push(String::new());
        }
        for i in infos {
            let mut value = i.value.clone();
            truncate(&mut value, OVERVIEW_VALUE);
            let allowed = if i.allowed.chars().count() <= 45 {
                format!(" · {}", i.allowed)
            } else {
                String::new()
            };
            lines.push(format!("`{}` **{value}**{allowed}", i.name));
        }
        let mut e = Embed::new(format!("⚙️ House rules · {}", scope.title()))
            .description(lines.join("\n"))
            .colour(colour::NEUTRAL);
        if scope == &Scope::Ore {
            e = e.footer(
                "The FC changes one with /fc set name:<setting> value:<value>. \
                 Help on each: /fc settings show scope:<system>.",
            );
        }
        embeds.push(e);
    }
    View {
        embeds,
        ..View::default()
    }
}

/// One scope in detail: a field per setting with its help and values.
pub fn detail(table: &Table, scope: Scope, infos: &[Info]) -> View {
    let mut e = Embed::new(format!("⚙️ House rules · {}", scope.title())).colour(colour::NEUTRAL);
    if scope == Scope::Shared {
        e = e.description(table_lines(table));
    }
    for i in infos {
        let mut value = i.value.clone();
        truncate(&mut value, DETAIL_VALUE);
        e = e.field(
            format!("{} = {value}", i.name),
            format!("{}\n*Values: {}*", i.help, i.allowed),
            false,
        );
    }
    View::embed(e.footer("The FC changes one with /fc set name:<setting> value:<value>."))
}

/// The public note of a change.
pub fn changed(who: &str, scope: Scope, before: &Info, after: &Info) -> View {
    let mut b = before.value.clone();
    truncate(&mut b, 300);
    let mut a = after.value.clone();
    truncate(&mut a, 600);
    View::embed(
        Embed::new(format!("⚙️ House rule changed · {}", scope.title()))
            .description(format!(
                "**{}**: {b} → **{a}**\n{}\n*Applies from the next roll on.*",
                after.name, after.help
            ))
            .footer(format!("Changed by {who}"))
            .colour(colour::SUCCESS),
    )
}
