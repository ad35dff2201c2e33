//! The embeds of `/fc settings show`: an overview of every scope (one embed
//! each, one line per setting, within Discord's 6000-character budget per
//! message) and the detailed view of one scope (a field per setting with
//! its help).

use super::catalog::{Info, Scope};
use crate::app::view::{colour, escape, truncate, Embed, View};

/// Longest value shown in the overview (custom trait lists can be long).
const OVERVIEW_VALUE: usize = 60;
/// Longest value shown in a detailed view.
const DETAIL_VALUE: usize = 300;
/// Characters a detailed view's fields may use in all (of Discord's 6000).
const DETAIL_BUDGET: usize = 5200;

/// Who the FC is, where secret rolls go and what this channel plays.
pub struct Table {
    /// The FC role, if named.
    pub fc_role: Option<i64>,
    /// The GM channel, if set.
    pub gm_channel: Option<i64>,
    /// This channel's system override (its display name).
    pub channel_system: Option<String>,
    /// The server's system (its display name).
    pub guild_system: Option<String>,
    /// The live game the channel belongs to, if any: its game masters take
    /// the FC role's place there and its system is what the channel plays.
    pub game: Option<GameTable>,
}

/// What a live game makes of the table in its channels (issue 32).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct GameTable {
    /// The game's name.
    pub name: String,
    /// The system it plays (its display name).
    pub system: String,
    /// Its game masters, as mentions ([`crate::app::games::gm_mentions`]).
    pub gms: String,
}

/// Longest list of a game's game masters shown.
const GMS_SHOWN: usize = 300;

fn system_text(name: Option<&str>) -> String {
    name.map_or_else(|| "none chosen".to_string(), str::to_string)
}

/// Who the FC is, in words.
pub fn fc_text(role: Option<i64>) -> String {
    match role {
        Some(r) => format!("members with the <@&{r}> role or the Manage Server permission"),
        None => "members with the Manage Server permission (no FC role named)".into(),
    }
}

fn table_lines(t: &Table) -> String {
    let (fc, plays) = match (&t.game, &t.channel_system, &t.guild_system) {
        (Some(g), _, _) => {
            let mut gms = g.gms.clone();
            truncate(&mut gms, GMS_SHOWN);
            (
                format!(
                    "in the game {}, its game masters ({gms}) or a server manager",
                    crate::app::games::bold(&g.name)
                ),
                format!(
                    "{} (the game {} plays it)",
                    g.system,
                    crate::app::games::bold(&g.name)
                ),
            )
        }
        (None, Some(c), _) => (
            fc_text(t.fc_role),
            format!("{} (this channel's choice)", system_text(Some(c))),
        ),
        (None, None, g) => (
            fc_text(t.fc_role),
            format!("{} (the server's)", system_text(g.as_deref())),
        ),
    };
    format!(
        "**FC**: {fc}\n**GM channel** (secret rolls): {}\n**This channel plays**: {plays}",
        t.gm_channel
            .map_or_else(|| "none set".to_string(), |c| format!("<#{c}>")),
    )
}

/// The overview: every scope's settings with their values.
pub fn overview(table: &Table, scopes: &[(Scope, Vec<Info>)]) -> View {
    let mut embeds = Vec::new();
    let last = scopes.len().saturating_sub(1);
    for (n, (scope, infos)) in scopes.iter().enumerate() {
        let mut lines = Vec::new();
        if *scope == Scope::Shared {
            lines.push(table_lines(table));
            lines.push(String::new());
        }
        for i in infos {
            let value = shown(&i.value, OVERVIEW_VALUE);
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
        if n == last {
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

/// One scope in detail: a field per setting with its value, help and
/// accepted values; long values are cut to share the message's budget.
pub fn detail(table: &Table, scope: Scope, infos: &[Info]) -> View {
    let mut e = Embed::new(format!("⚙️ House rules · {}", scope.title())).colour(colour::NEUTRAL);
    if scope == Scope::Shared {
        e = e.description(table_lines(table));
    }
    let fixed: usize = infos
        .iter()
        .map(|i| i.name.chars().count() + i.help.chars().count() + i.allowed.chars().count() + 20)
        .sum();
    let budget = DETAIL_BUDGET.saturating_sub(fixed) / infos.len().max(1);
    let budget = budget.clamp(20, DETAIL_VALUE);
    for i in infos {
        let value = shown(&i.value, budget);
        e = e.field(
            i.name.clone(),
            format!("**{value}**\n{}\n*Values: {}*", i.help, i.allowed),
            false,
        );
    }
    View::embed(e.footer(scope.how_to_set()))
}

/// A setting's value as typed (a custom trait list may hold `_` or `*`),
/// its markdown escaped, in at most `max` characters: the typed text is
/// cut first (never between a backslash and its character), shorter
/// again while its escapes overflow.
fn shown(value: &str, max: usize) -> String {
    let mut keep = max;
    loop {
        let mut v = value.to_string();
        truncate(&mut v, keep);
        let out = escape(&v);
        let over = out.chars().count().saturating_sub(max);
        if over == 0 || keep <= 1 {
            return out;
        }
        // Each typed character takes at most two: halve the overflow.
        keep = keep.saturating_sub(over.div_ceil(2)).max(1);
    }
}

/// The public note of a change.
pub fn changed(who: &str, scope: Scope, before: &Info, after: &Info) -> View {
    let (b, a) = (shown(&before.value, 300), shown(&after.value, 600));
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::app::settings::GuildSettings;
    use crate::systems::fc::catalog::{all_names, shared_infos};

    #[test]
    fn a_value_reads_as_typed_within_its_length() {
        assert_eq!(shown("Sh_ad*=Stealth", 60), "Sh\\_ad\\*=Stealth");
        let stars = shown(&"*".repeat(100), 60);
        assert!(stars.chars().count() <= 60, "{stars}");
        assert!(stars.ends_with("\\*…"), "{stars}");
    }

    /// Every setting with a value and help as long as they can get.
    fn worst() -> Vec<(Scope, Vec<Info>)> {
        let reg = crate::systems::registry();
        let mut scopes: Vec<(Scope, Vec<Info>)> =
            Scope::all(&reg).iter().map(|s| (*s, Vec::new())).collect();
        for name in all_names(&reg) {
            let scope = Scope::of(&reg, name).unwrap();
            let slot = scopes.iter_mut().find(|(s, _)| *s == scope).unwrap();
            slot.1.push(Info {
                name: name.into(),
                value: "x".repeat(1000),
                allowed: "a | b | c | d".into(),
                help: "h".repeat(150),
            });
        }
        scopes
    }

    #[test]
    fn the_overview_and_every_detail_fit_discord_without_clamping() {
        let table = Table {
            fc_role: Some(i64::MAX),
            gm_channel: Some(i64::MAX),
            channel_system: Some("Storyteller".into()),
            guild_system: Some("Venus Engine".into()),
            game: Some(GameTable {
                name: "n".repeat(100),
                system: "Venus Engine".into(),
                gms: format!("<@{}>, ", i64::MAX).repeat(40),
            }),
        };
        let v = overview(&table, &worst());
        assert_eq!(v.clone().clamp(), v);
        let total: usize = v
            .embeds
            .iter()
            .map(|e| {
                e.title.chars().count()
                    + e.description.as_deref().map_or(0, |d| d.chars().count())
                    + e.footer.as_deref().map_or(0, |f| f.chars().count())
                    + e.fields
                        .iter()
                        .map(|f| f.name.chars().count() + f.value.chars().count())
                        .sum::<usize>()
            })
            .sum();
        assert!(total <= crate::app::view::limits::EMBED_TOTAL, "{total}");
        for (scope, infos) in worst() {
            let v = detail(&table, scope, &infos);
            assert_eq!(v.clone().clamp(), v, "{scope:?}");
        }
        let g = shared_infos(&crate::systems::registry(), &GuildSettings::default());
        let v = changed("someone", Scope::Shared, &g[0], &g[0]);
        assert_eq!(v.clone().clamp(), v);
    }
}
