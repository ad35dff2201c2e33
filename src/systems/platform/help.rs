//! `/help`: what each system does, in the bot's own words, and its
//! commands as registered (so the list is never out of date).

use crate::app::registry::{HelpTopic, Registry, System};
use crate::app::view::{colour, Embed, View};
use crate::app::{AppResult, Response};

/// The commands a new player needs, as `/help` opens with them:
/// usage (`<system>` stands for a system's root) and what it does
/// (`{example}` becomes a real root).
pub const START: &[(&str, &str)] = &[
    (
        "/roll expression:2d6+1",
        "any dice, with a Reroll button (`/odds roll` gives the odds)",
    ),
    (
        "/<system> sheet create",
        "make your character, e.g. `/{example} sheet create`",
    ),
    ("/<system> sheet show", "your character sheet"),
    ("/history show", "your latest rolls"),
    (
        "/help system:<name>",
        "how your system plays, and all its commands",
    ),
];

/// Every help topic, in menu order: each registered system's topics.
pub fn topics(reg: &Registry) -> Vec<(&dyn System, &'static HelpTopic)> {
    reg.help_topics().collect()
}

/// A registered command: its full usage (`/ve check`) and description.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CommandLine {
    /// `/name sub`.
    pub usage: String,
    /// What it does.
    pub description: String,
}

/// The characters of an embed's text (what Discord's 6000 limit counts).
fn embed_len(e: &Embed) -> usize {
    e.title.chars().count()
        + e.description.as_deref().map_or(0, |d| d.chars().count())
        + e.footer.as_deref().map_or(0, |d| d.chars().count())
        + e.fields
            .iter()
            .map(|f| f.name.chars().count() + f.value.chars().count())
            .sum::<usize>()
}

/// Room left for command lists, keeping `reserve` for what comes after.
fn room(e: &Embed, reserve: usize) -> usize {
    crate::app::view::limits::EMBED_TOTAL.saturating_sub(embed_len(e) + reserve)
}

/// Commands listed in fields of at most ~1000 characters, within `budget`
/// characters in all (the rest is counted, not listed).
fn command_fields(mut embed: Embed, name: &str, lines: &[String], budget: usize) -> Embed {
    let mut used = 0;
    let mut chunk = String::new();
    let mut fields = 0;
    let mut listed = 0;
    let label = |n: usize| {
        if n == 0 {
            name.to_string()
        } else {
            format!("{name} (more)")
        }
    };
    for line in lines {
        let len = line.chars().count() + 1;
        if used + len + 40 + label(fields).len() > budget {
            break;
        }
        if chunk.chars().count() + len > 1000 {
            embed = embed.field(label(fields), std::mem::take(&mut chunk), false);
            fields += 1;
            used += label(fields).len();
        }
        if !chunk.is_empty() {
            chunk.push('\n');
        }
        chunk.push_str(line);
        used += len;
        listed += 1;
    }
    if listed < lines.len() {
        if !chunk.is_empty() {
            chunk.push('\n');
        }
        chunk.push_str(&format!(
            "…and {} more: type `/` in Discord to browse them.",
            lines.len() - listed
        ));
    }
    if !chunk.is_empty() {
        embed = embed.field(label(fields), chunk, false);
    }
    embed
}

fn line(c: &CommandLine) -> String {
    let mut d = c.description.clone();
    crate::app::view::truncate(&mut d, 90);
    format!("`{}` {d}", c.usage)
}

fn starts_with_root(usage: &str, root: &str) -> bool {
    let first = usage
        .trim_start_matches('/')
        .split(' ')
        .next()
        .unwrap_or("");
    crate::kit::game_root_of(first) == root
}

/// Whether `usage` asks for odds: `/odds roll`, or a game's `/ve odds st`.
fn is_odds(usage: &str) -> bool {
    let mut words = usage.trim_start_matches('/').split(' ');
    words.next() == Some("odds") || words.next() == Some("odds")
}

/// `/help` for a topic, or the overview without one. `commands` are every
/// registered command, flattened to their leaves.
pub fn help(
    reg: &Registry,
    topic: Option<(&dyn System, &HelpTopic)>,
    commands: &[CommandLine],
) -> AppResult {
    let embed = match topic {
        None => overview(reg, commands),
        Some((system, t)) => {
            let mut e = Embed::new(format!("📖 {}", t.title)).colour(colour::NEUTRAL);
            if !t.start.is_empty() {
                e = e.description(start_here(t.start));
            }
            for (name, text) in t.summary {
                e = e.field(*name, *text, false);
            }
            let governed: Vec<String> = system
                .governed()
                .iter()
                .map(|g| format!("{} (`{}`)", g.what, g.command))
                .collect();
            if !governed.is_empty() {
                let text = format!(
                    "A player's change to these goes by the house rule `player_edits` (free, approval or fc_only): {}.",
                    governed.join("; ")
                );
                e = e.field(format!("The {}'s to change", system.gm()), text, false);
            }
            let root = system.command_root();
            let own: Vec<String> = commands
                .iter()
                .filter(|c| root.is_some_and(|r| starts_with_root(&c.usage, r)))
                .filter(|c| !is_odds(&c.usage))
                .map(line)
                .collect();
            if own.is_empty() {
                e = e.field("Commands", "Not installed on this bot yet.", false);
            } else {
                let budget = room(&e, 600);
                e = command_fields(e, "Commands", &own, budget);
            }
            let odds: Vec<String> = t
                .odds
                .iter()
                .filter_map(|s| {
                    // "" names a game's one `/<root> odds` leaf.
                    let game = root.map(|r| format!("/{r} odds {s}").trim_end().to_string());
                    let shared = format!("/odds {s}");
                    commands
                        .iter()
                        .find(|c| Some(&c.usage) == game.as_ref() || c.usage == shared)
                        .map(line)
                })
                .collect();
            if !odds.is_empty() {
                e = e.field("Odds before you roll", odds.join("\n"), false);
            }
            e.footer(format!("A summary in Kismet's words; the rulebook and your {}'s house rules decide. /help alone lists every system.", system.gm()))
        }
    };
    Ok(Response::ephemeral(View::embed(embed)))
}

/// The most lines a topic's "start here" takes, its heading included.
pub const MAX_START_LINES: usize = 8;

/// A topic's "start here": a heading and one line per command of a first
/// session, at most [`MAX_START_LINES`] lines in all.
fn start_here(start: &[(&str, &str)]) -> String {
    let mut lines = vec!["**Start here**, a first session:".to_string()];
    lines.extend(
        start
            .iter()
            .take(MAX_START_LINES - 1)
            .map(|(usage, what)| format!("`{usage}` {what}")),
    );
    lines.join("\n")
}

fn overview(reg: &Registry, commands: &[CommandLine]) -> Embed {
    let systems: Vec<String> = topics(reg)
        .iter()
        .map(|(s, t)| match s.command_root() {
            Some(r) => format!("**{}** `/{r}`", t.title),
            None => format!("**{}**", t.title),
        })
        .collect();
    let roots: Vec<String> = reg
        .all()
        .filter(|s| s.has_sheets())
        .filter_map(|s| s.command_root())
        .map(|r| format!("`/{r}`"))
        .collect();
    let example = reg
        .all()
        .filter(|s| s.has_sheets())
        .find_map(|s| s.command_root())
        .unwrap_or("st");
    let start = START
        .iter()
        .map(|(usage, what)| {
            let what = what.replace("{example}", example);
            format!("`{usage}` {what}")
        })
        .collect::<Vec<_>>()
        .join("\n");
    let mut e = Embed::new("📖 Kismet help")
        .description(format!(
            "Kismet rolls the dice of your tabletop role-playing game, keeps your character sheet and a log of every roll, and shows the exact odds before you roll.\nEach system has its own command ({}); your game master sets which one a channel plays.\nNew here? These {} commands are all you need to begin.",
            roots.join(" "),
            START.len()
        ))
        .colour(colour::NEUTRAL)
        .field("Start here", start, false)
        .field("Reading a roll", crate::systems::table::look::LEGEND, false)
        .field("Systems", systems.join("\n"), false);
    let system_roots: Vec<&str> = reg.all().filter_map(|s| s.command_root()).collect();
    let table: Vec<String> = commands
        .iter()
        .filter(|c| !system_roots.iter().any(|r| starts_with_root(&c.usage, r)))
        .filter(|c| !is_odds(&c.usage))
        .map(line)
        .collect();
    let budget = room(&e, 900);
    e = command_fields(e, "Table commands", &table, budget);
    let odds: Vec<String> = commands
        .iter()
        .filter(|c| is_odds(&c.usage))
        .map(|c| format!("`{}`", c.usage))
        .collect();
    if !odds.is_empty() {
        e = e.field("Exact odds", odds.join(" · "), false);
    }
    e
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::app::Reply;

    fn cmds() -> Vec<CommandLine> {
        [
            "/roll",
            "/ve check",
            "/ve task",
            "/ve odds",
            "/ve-gm fc call",
            "/vr odds veracity-save",
            "/history show",
            "/stats",
        ]
        .iter()
        .map(|u| CommandLine {
            usage: u.to_string(),
            description: format!("does {u}"),
        })
        .collect()
    }

    fn topic(label: &str) -> Option<(&'static dyn System, &'static HelpTopic)> {
        let reg: &'static Registry = Box::leak(Box::new(crate::systems::registry()));
        topics(reg).into_iter().find(|(_, t)| t.label == label)
    }

    fn embed(r: AppResult) -> Embed {
        match r.unwrap().reply {
            Reply::Ephemeral(v) => v.embeds[0].clone(),
            other => panic!("{other:?}"),
        }
    }

    #[test]
    fn a_topic_lists_its_own_commands_and_odds() {
        let reg = crate::systems::registry();
        let e = embed(help(&reg, topic("Venus Engine (1st Playtest)"), &cmds()));
        let text: Vec<String> = e
            .fields
            .iter()
            .map(|f| format!("{}: {}", f.name, f.value))
            .collect();
        let text = text.join("\n");
        assert!(text.contains("`/ve check`"));
        assert_eq!(text.matches("`/ve odds`").count(), 1, "{text}");
        assert!(text.contains("`/ve-gm fc call`"));
        assert!(!text.contains("/roll"));
        let st = embed(help(&reg, topic("Storyteller"), &cmds()));
        assert!(st
            .fields
            .iter()
            .any(|f| f.value == "Not installed on this bot yet."));
    }

    #[test]
    fn every_topic_fits_discord() {
        let many: Vec<CommandLine> = (0..80)
            .map(|i| CommandLine {
                usage: format!("/vv sub{i}"),
                description: "x".repeat(100),
            })
            .collect();
        let reg = crate::systems::registry();
        let all = topics(&reg);
        assert_eq!(all.len(), 6);
        for t in all {
            let v = View::embed(embed(help(&reg, Some(t), &many)));
            assert_eq!(v.clone().clamp(), v, "{}", t.1.title);
        }
        let v = View::embed(embed(help(&reg, None, &cmds())));
        assert_eq!(v.clone().clamp(), v);
    }

    #[test]
    fn each_topic_opens_with_a_first_session_and_cuts_no_word() {
        let reg = crate::systems::registry();
        let long = vec![CommandLine {
            usage: "/vv roll".into(),
            description:
                "Roll a stat: the register as sets, with buttons for cache, load, Minor actions, sets and specials too."
                    .into(),
        }];
        let e = embed(help(&reg, topic("Virtual Veil"), &long));
        assert_eq!(
            e.description.as_deref().unwrap(),
            "**Start here**, a first session:\n\
             `/vv sheet create name:Ann agility:4 wit:6` make your character (a stat left out is 0)\n\
             `/vv sheet show` your character sheet\n\
             `/vv roll stat:Agility` roll a stat: matching faces make sets\n\
             `/vv-gm combat start` the Compiler opens a fight: one message runs the round\n\
             `/help` every system, and the table's commands"
        );
        let commands = e.fields.iter().find(|f| f.name == "Commands").unwrap();
        assert_eq!(
            commands.value,
            "`/vv roll` Roll a stat: the register as sets, with buttons for cache, load, Minor actions, sets and…"
        );
        for t in topics(&reg) {
            let e = embed(help(&reg, Some(t), &cmds()));
            let d = e.description.unwrap_or_default();
            assert!(
                (2..=MAX_START_LINES).contains(&d.lines().count()),
                "{}: {d}",
                t.1.label
            );
        }
    }

    #[test]
    fn help_opens_with_where_to_start() {
        let reg = crate::systems::registry();
        let e = embed(help(&reg, None, &cmds()));
        assert_eq!(e.description.as_deref().unwrap().lines().count(), 3);
        let start = &e.fields[0];
        assert_eq!(start.name, "Start here");
        let lines: Vec<&str> = start.value.lines().collect();
        assert_eq!(lines.len(), 5, "{}", start.value);
        assert!(lines[1].contains("e.g. `/ve sheet create`"), "{}", lines[1]);
        assert_eq!(e.fields[1].name, "Reading a roll");
        assert!(e.fields[1].value.contains("1✗ counts against you"));
        assert_eq!(e.fields[2].name, "Systems");
    }
}
