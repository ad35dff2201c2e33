//! The game master's commands under roots of their own (issue 31 item 1),
//! so a player's command picker never shows them.
//!
//! A command is declared once, where it lives: a subcommand (or a group)
//! that only the game master may run carries `default_member_permissions`
//! in its declaration (`#[poise::command(…, default_member_permissions =
//! "MANAGE_GUILD")]`). Discord reads that field on top-level commands only,
//! so [`split`] moves every marked subcommand of a root `/x` into the game
//! master's root `/x-gm` ([`crate::kit::gm_root`]), which carries the
//! permission: a member without Manage Server does not see it, and a
//! server may grant it to its game master role in Discord's Integrations
//! settings. The marked command keeps its place below the root (`/vr
//! convention add` becomes `/vr-gm convention add`), and its action stays
//! the same function, which still checks the caller's rights (Discord's
//! permissions are advisory: a server may grant the root to anyone).

use super::Command;
use poise::serenity_prelude as serenity;

/// Whether a declared command is the game master's.
fn marked(c: &Command) -> bool {
    !c.default_member_permissions.is_empty()
}

/// The commands as registered: `players` and `gms`, two assemblies of the
/// same declarations in the same order. Each root with game master's
/// subcommands gives the player's root (without them) followed by the
/// game master's root (the marked ones, in their groups) built from the
/// second copy. A root that is the game master's as a whole (`/fc`) and a
/// command without subcommands stay as they are.
pub fn split(players: Vec<Command>, gms: Vec<Command>) -> Vec<Command> {
    let mut out = Vec::new();
    for (mut player, mut gm) in players.into_iter().zip(gms) {
        if marked(&player) || player.subcommands.is_empty() {
            out.push(player);
            continue;
        }
        let mut permissions = gm_only(&mut gm.subcommands);
        if permissions.is_empty() {
            permissions = serenity::Permissions::MANAGE_GUILD;
        }
        for_players(&mut player.subcommands);
        out.push(player);
        if !gm.subcommands.is_empty() {
            gm.name = crate::kit::gm_root(&gm.name).into();
            gm.default_member_permissions = permissions;
            let about = gm.description.as_deref().unwrap_or_default();
            gm.description = Some(
                format!("Game master: {about}")
                    .chars()
                    .take(100)
                    .collect::<String>()
                    .into(),
            );
            out.push(gm);
        }
    }
    out
}

/// Keeps the player's part of `commands`: no marked command, no group left
/// empty.
fn for_players(commands: &mut Vec<Command>) {
    commands.retain_mut(|c| {
        if marked(c) {
            return false;
        }
        if c.subcommands.is_empty() {
            return true;
        }
        for_players(&mut c.subcommands);
        !c.subcommands.is_empty()
    });
}

/// Keeps the game master's part of `commands`: the marked commands whole
/// and the groups holding one. Gives the permissions the kept ones were
/// marked with.
fn gm_only(commands: &mut Vec<Command>) -> serenity::Permissions {
    let mut permissions = serenity::Permissions::empty();
    commands.retain_mut(|c| {
        if marked(c) {
            permissions |= c.default_member_permissions;
            return true;
        }
        if !c.subcommands.is_empty() {
            permissions |= gm_only(&mut c.subcommands);
            return !c.subcommands.is_empty();
        }
        false
    });
    permissions
}

#[cfg(test)]
mod tests {
    use super::*;

    fn leaves(c: &Command, path: &str, out: &mut Vec<String>) {
        let here = format!("{path} {}", c.name);
        if c.subcommands.is_empty() {
            out.push(here.trim().to_string());
        }
        for s in &c.subcommands {
            leaves(s, &here, out);
        }
    }

    /// The game master's subcommands sit under `/<root>-gm`, which carries
    /// Manage Server, once each; the player's roots carry no permission
    /// and hold none of them; `/fc` is the game master's as a whole.
    #[test]
    fn the_game_masters_commands_have_roots_of_their_own() {
        let all = crate::systems::commands();
        let find = |name: &str| all.iter().find(|c| c.name == name);
        let gm = serenity::Permissions::MANAGE_GUILD;
        for (root, player_has, gm_has) in [
            ("vr", "vr convention list", "vr-gm convention add"),
            ("ve", "ve spotlight show", "ve-gm fc call"),
            ("st", "st odds st", "st-gm settings set"),
            ("vv", "vv combat show", "vv-gm combat start"),
            ("game", "game", "game-gm channel add"),
            ("history", "history show", "history-gm export"),
        ] {
            let player = find(root).expect(root);
            let gm_root = find(&crate::kit::gm_root(root)).expect("a game master's root");
            assert!(player.default_member_permissions.is_empty(), "{root}");
            assert_eq!(gm_root.default_member_permissions, gm, "{root}");
            let (mut p, mut g) = (Vec::new(), Vec::new());
            leaves(player, "", &mut p);
            leaves(gm_root, "", &mut g);
            assert!(p.iter().any(|l| l == player_has), "{p:?}");
            assert!(g.iter().any(|l| l == gm_has), "{g:?}");
            assert!(!p
                .iter()
                .any(|l| l.ends_with(&gm_has[gm_has.find(' ').unwrap()..])));
        }
        assert_eq!(find("fc").unwrap().default_member_permissions, gm);
        assert!(find("fc-gm").is_none() && find("roll-gm").is_none());
        let mut names: Vec<&str> = all.iter().map(|c| &*c.name).collect();
        names.dedup();
        assert_eq!(names.len(), all.len());
    }
}
