//! The systems at the table, registered in one line.
//!
//! Each system lives in one folder here (its application logic, its thin
//! slash commands, and how it describes itself to the application layer:
//! a game's `impl` of [`game::Game`], a shared feature's `system.rs`)
//! on top of its pure core in [`crate::rules`]. Shared table features
//! (`/fc`, `/history`, `/stats`, `/odds`, `/help`, and the [`table`]'s
//! `/<root> sheet` commands) register the same way.
//! Adding a system means one new folder and one word in the
//! [`entries`] list below (and its `pub mod` line); `docs/architecture.md`
//! has the steps.

use std::sync::Arc;

use crate::app::registry::{Registry, System};
use crate::kit::{Data, Error};

/// A slash command of this bot.
pub type Command = poise::Command<Data, Error>;

/// One registered folder: the system it describes to the application
/// layer (if it owns sessions or house rules) and its slash commands.
pub struct Entry {
    /// The system, as the application layer sees it.
    pub system: Option<Arc<dyn System>>,
    /// Its slash commands.
    pub commands: fn() -> Vec<poise::Command<Data, Error>>,
    /// Fills in what its commands take from the registry (choice lists),
    /// once every system is known.
    pub finish: Option<fn(&mut Command, &Registry)>,
    /// Its odds questions: `/odds` subcommands and `kismet odds` questions.
    pub odds: Option<platform::odds::Odds>,
}

pub mod dice;
pub mod fc;
pub mod game;
pub mod games;
pub mod gm_roots;
pub mod ore;
pub mod platform;
pub mod storyteller;
pub mod table;
pub mod venus;
pub mod veracity;

/// Every registered folder, in display order: the one registry line of
/// each system or shared table feature.
pub fn entries() -> Vec<Entry> {
    vec![
        game::entry::<dice::DiceSystem>(),
        game::entry::<venus::Venus>(),
        game::entry::<veracity::Veracity>(),
        game::entry::<storyteller::Storyteller>(),
        game::entry::<ore::Ore>(),
        game::entry::<platform::HistoryFeature>(),
        fc::entry(),
        games::system::entry(),
        game::entry::<table::TableFeature>(),
    ]
}

/// The registry of every system, for the application layer.
pub fn registry() -> Registry {
    Registry::new(entries().into_iter().filter_map(|e| e.system).collect())
}

/// Every slash command of every registered folder, with the shared table
/// commands grafted onto each playable system's root (`/<root> settings`,
/// and `/<root> sheet show|rename|import` where it keeps sheets),
/// each playable system's odds questions grafted onto its root (`/<root>
/// odds …`, so a server sees only its games' questions) and the others'
/// onto `/odds`, and choice lists filled from the registry; the game
/// master's subcommands then move to the game master's roots
/// ([`gm_roots`]).
pub fn commands() -> Vec<poise::Command<Data, Error>> {
    gm_roots::split(assembled(), assembled())
}

/// [`commands`] as declared, before the game master's roots are split off.
fn assembled() -> Vec<poise::Command<Data, Error>> {
    let reg = registry();
    let mut all = Vec::new();
    for e in entries() {
        for mut c in (e.commands)() {
            if let Some(finish) = e.finish {
                finish(&mut c, &reg);
            }
            all.push(c);
        }
    }
    for e in entries() {
        let questions = e.odds.map(|o| (o.slash)()).unwrap_or_default();
        if questions.is_empty() {
            continue;
        }
        let root = e
            .system
            .as_ref()
            .filter(|s| s.playable())
            .and_then(|s| s.command_root());
        match root {
            Some(root) => {
                if let Some(cmd) = all.iter_mut().find(|c| c.name == root) {
                    graft(cmd, platform::odds::group(questions));
                }
            }
            None => {
                if let Some(odds) = all.iter_mut().find(|c| c.name == "odds") {
                    for question in questions {
                        graft(odds, question);
                    }
                }
            }
        }
    }
    for system in reg.playable() {
        let Some(root) = system.command_root() else {
            continue;
        };
        let Some(cmd) = all.iter_mut().find(|c| c.name == root) else {
            continue;
        };
        if system.house_rules().is_some() {
            graft(cmd, fc::commands::system_settings());
        }
        if system.has_sheets() {
            if let Some(sheet) = crate::kit::subcommand(cmd, &["sheet"]) {
                for shared in table::commands::all() {
                    graft(sheet, shared);
                }
            }
        }
    }
    all
}

/// Every registered system's `kismet odds` questions.
pub fn odds_questions() -> Vec<platform::odds::CliOdds> {
    entries()
        .into_iter()
        .filter_map(|e| e.odds)
        .map(|o| o.cli)
        .collect()
}

/// Puts a shared subcommand (group) under `root`, replacing one of the
/// same name and for the same members the system may have had, at the
/// same place (a player's `show` and the game master's `show`, which
/// [`gm_roots::split`] moves to `/<root>-gm`, stand side by side).
fn graft(root: &mut poise::Command<Data, Error>, shared: poise::Command<Data, Error>) {
    let same = |c: &poise::Command<Data, Error>| {
        c.name == shared.name && c.default_member_permissions == shared.default_member_permissions
    };
    match root.subcommands.iter().position(same) {
        Some(i) => root.subcommands[i] = shared,
        None => root.subcommands.push(shared),
    }
}

#[cfg(test)]
mod tests {
    /// `/odds` and each game's `/<root> odds` offer every registered
    /// system's questions, as `kismet odds` does, under the same names;
    /// `/odds` itself keeps only the questions of no game (`roll`).
    #[test]
    fn odds_subcommands_come_from_the_registered_systems() {
        let all = super::commands();
        let odds = all.iter().find(|c| c.name == "odds").expect("/odds");
        let shared: Vec<&str> = odds.subcommands.iter().map(|c| &*c.name).collect();
        assert_eq!(shared, ["roll"]);
        let mut slash: Vec<&str> = shared.clone();
        for root in ["ve", "vr", "st", "vv"] {
            let game = all.iter().find(|c| c.name == root).expect("a game root");
            let group = game.subcommands.iter().find(|c| c.name == "odds");
            let group = group.expect("its odds");
            if group.subcommands.is_empty() {
                // Venus asks its four questions with one `/ve odds` (issue
                // 31 item 1); `kismet odds` keeps them apart.
                assert_eq!(root, "ve", "only Venus's odds is one leaf");
                slash.extend(["ve1-check", "ve1-task", "ve2-check", "ve2-task"]);
                continue;
            }
            assert!(group.subcommand_required);
            slash.extend(group.subcommands.iter().map(|c| &*c.name));
        }
        slash.sort_unstable();
        let mut cli: Vec<String> = Vec::new();
        for q in super::odds_questions() {
            let cmd = (q.augment)(clap::Command::new("odds"));
            cli.extend(cmd.get_subcommands().map(|c| c.get_name().to_string()));
        }
        cli.sort_unstable();
        assert!(!cli.is_empty());
        assert_eq!(slash, cli);
        assert!(odds.subcommand_required);
    }
}
