//! Every house-rule setting of spec §6 in one catalogue: which scope owns a
//! name (the shared guild settings, or one registered system's house
//! rules), its current value, the values it accepts and a validated change.
//!
//! The systems' rules cores own their settings ([`crate::rules::HouseRules`])
//! and describe themselves to the registry ([`System::house_rules`]); this
//! module only routes a name to its owner, stored per guild under the
//! system's id. It names no system.

use crate::app::pipeline::Writing;
use crate::app::registry::{Registry, System};
use crate::app::settings::{self as app_settings, GuildSettings};
use crate::app::{AppError, Caller};
use crate::storage::{self, Tx};

/// Where a setting lives.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Scope {
    /// The shared guild settings ([`GuildSettings`]).
    Shared,
    /// A registered system's house rules: its id and display name.
    System {
        /// The system's id (its settings scope).
        id: &'static str,
        /// Its display name.
        name: &'static str,
        /// What it calls its game master ([`System::gm`]).
        gm: &'static str,
        /// Its command root ([`System::command_root`]), if it has one.
        root: Option<&'static str>,
    },
}

impl Scope {
    /// The scope of a system's house rules.
    pub fn of_system(s: &dyn System) -> Scope {
        Scope::System {
            id: s.id(),
            name: s.name(),
            gm: s.gm(),
            root: s.command_root(),
        }
    }

    /// How the game master changes one of the scope's settings, for an
    /// embed's footer (plain text): a system's with its own
    /// `/<root>-gm settings set`, which its game masters have, the shared
    /// ones with `/fc set`.
    pub fn how_to_set(self) -> String {
        match self {
            Scope::System {
                gm,
                root: Some(root),
                ..
            } => format!(
                "The {gm} changes one with /{} settings set name:<setting> value:<value>.",
                crate::kit::gm_root(root)
            ),
            _ => "The FC changes one with /fc set name:<setting> value:<value>.".into(),
        }
    }

    /// Every scope, in display order: the shared settings, then each
    /// registered system with house rules.
    pub fn all(reg: &Registry) -> Vec<Scope> {
        let mut v = vec![Scope::Shared];
        v.extend(
            reg.all()
                .filter(|s| s.house_rules().is_some())
                .map(Scope::of_system),
        );
        v
    }

    /// The settings scope it is stored under (also the log's system name).
    pub fn key(self) -> &'static str {
        match self {
            Scope::Shared => app_settings::GUILD_SCOPE,
            Scope::System { id, .. } => id,
        }
    }

    /// Its heading.
    pub fn title(self) -> &'static str {
        match self {
            Scope::Shared => "Every system",
            Scope::System { name, .. } => name,
        }
    }

    /// The scope owning a setting name (any case), if any.
    pub fn of(reg: &Registry, name: &str) -> Option<Scope> {
        let n = name.trim().to_ascii_lowercase();
        if SHARED_NAMES.contains(&n.as_str()) {
            return Some(Scope::Shared);
        }
        reg.owner_of_setting(&n).map(Scope::of_system)
    }
}

/// The shared settings `/fc set` changes (the FC role has its own command).
pub const SHARED_NAMES: [&str; 5] = [
    "system",
    "session_timeout_minutes",
    "max_dice_per_roll",
    "gm_channel",
    "player_edits",
];

/// The longest session timeout, in minutes (a day).
pub const MAX_TIMEOUT_MINUTES: u32 = 1440;
/// The largest `max_dice_per_roll`.
pub const MAX_DICE_PER_ROLL: u32 = 500;

/// One setting as shown.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Info {
    /// Its name, as `/fc set` takes it.
    pub name: String,
    /// The current value, as `/fc set` takes it.
    pub value: String,
    /// The accepted values (`a | b`, `1-30`, …).
    pub allowed: String,
    /// What it changes.
    pub help: String,
}

/// Every setting name `/fc set` accepts, in display order.
pub fn all_names(reg: &Registry) -> Vec<&'static str> {
    let mut v: Vec<&'static str> = SHARED_NAMES.to_vec();
    for s in reg.all() {
        if let Some(c) = s.house_rules() {
            v.extend(c.names());
        }
    }
    v
}

fn unknown(reg: &Registry, name: &str) -> AppError {
    let prefixes: Vec<String> = reg
        .all()
        .filter_map(|s| s.house_rules())
        .filter_map(|c| c.names().first().copied())
        .filter_map(|n| n.split_once('_'))
        .map(|(p, _)| format!("`{p}_…`"))
        .collect();
    AppError::user(format!(
        "There is no setting called `{}`. Start typing in `name` to pick one: shared settings \
         ({}) or a system's ({}).",
        name.trim(),
        SHARED_NAMES.join(", "),
        prefixes.join(", ")
    ))
}

fn info_of(i: crate::rules::SettingInfo) -> Info {
    Info {
        name: i.name.to_string(),
        value: i.value,
        allowed: i.allowed.to_string(),
        help: i.help.to_string(),
    }
}

/// The settings of one scope with their current values where the caller
/// acts (a system's house rules in a game's channel are the game's).
pub async fn describe(
    tx: &mut Tx,
    reg: &Registry,
    caller: &Caller,
    scope: Scope,
) -> Result<Vec<Info>, AppError> {
    match scope {
        Scope::Shared => Ok(shared_infos(
            reg,
            &app_settings::guild(tx, caller.guild_id).await?,
        )),
        Scope::System { id, .. } => {
            let Some(c) = reg.get(id).and_then(|s| s.house_rules()) else {
                return Ok(Vec::new());
            };
            let stored = app_settings::stored_here(tx, caller, id).await?;
            Ok(c.describe(stored.as_deref())?
                .into_iter()
                .map(info_of)
                .collect())
        }
    }
}

/// One setting with its current value where the caller acts.
pub async fn info(
    tx: &mut Tx,
    reg: &Registry,
    caller: &Caller,
    name: &str,
) -> Result<Info, AppError> {
    let scope = Scope::of(reg, name).ok_or_else(|| unknown(reg, name))?;
    let key = canonical(name);
    describe(tx, reg, caller, scope)
        .await?
        .into_iter()
        .find(|i| i.name == key)
        .ok_or_else(|| unknown(reg, name))
}

/// A setting name as listed (lower case, with the `vv_` prefix the Virtual
/// Veil rules also accept without).
fn canonical(name: &str) -> String {
    name.trim().to_ascii_lowercase()
}

/// What a change did.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Change {
    /// Where the setting lives.
    pub scope: Scope,
    /// The setting before.
    pub before: Info,
    /// The setting after.
    pub after: Info,
}

/// A validated change to one setting, not written yet: what it does, and
/// the write that stores it ([`Planned::write`], run by the action
/// pipeline in the caller's transaction).
pub struct Planned {
    /// What the change does.
    pub change: Change,
    store: Store,
}

/// Where a planned change is stored.
enum Store {
    /// The shared guild settings, as they will be.
    Guild(GuildSettings),
    /// A system's house rules under their settings scope (the server's,
    /// or a game's in its channels), as JSON.
    Scoped { scope: String, json: String },
}

impl Planned {
    /// Stores the change in `tx`.
    pub fn write(self, tx: &mut Tx, guild: i64) -> Writing<'_> {
        Box::pin(async move {
            match self.store {
                Store::Guild(g) => app_settings::save_guild(tx, guild, &g).await,
                Store::Scoped { scope, json } => {
                    storage::settings::put(tx, guild, &scope, &json, storage::now_ms()).await?;
                    Ok(())
                }
            }
        })
    }
}

/// Plans a change of one setting in the caller's transaction (validated by
/// its owner; nothing is written): a system's house rule in a game's
/// channel changes the game's (starting from the server's). Rights are the
/// caller's business.
pub async fn plan(
    tx: &mut Tx,
    reg: &Registry,
    caller: &Caller,
    name: &str,
    value: &str,
) -> Result<Planned, AppError> {
    let guild = caller.guild_id;
    let before = info(tx, reg, caller, name).await?;
    let scope = Scope::of(reg, name).ok_or_else(|| unknown(reg, name))?;
    let key = before.name.clone();
    let (after, store) = match scope {
        Scope::Shared => {
            let mut g = app_settings::guild(tx, guild).await?;
            set_shared(reg, &mut g, &key, value)?;
            (shared_infos(reg, &g), Store::Guild(g))
        }
        Scope::System { id, .. } => {
            let c = reg
                .get(id)
                .and_then(|s| s.house_rules())
                .ok_or_else(|| unknown(reg, name))?;
            let stored = app_settings::stored_here(tx, caller, id).await?;
            let json = c.change(stored.as_deref(), &key, value)?;
            let after = c.describe(Some(&json))?.into_iter().map(info_of).collect();
            let scope = app_settings::system_scope(tx, caller, id).await?;
            (after, Store::Scoped { scope, json })
        }
    };
    let after = after
        .into_iter()
        .find(|i| i.name == key)
        .ok_or_else(|| unknown(reg, name))?;
    Ok(Planned {
        change: Change {
            scope,
            before,
            after,
        },
        store,
    })
}

/// The shared settings as listed (the FC role is shown, not set, here).
pub fn shared_infos(reg: &Registry, g: &GuildSettings) -> Vec<Info> {
    let systems: Vec<&str> = reg.playable().map(|s| s.id()).collect();
    let systems = format!("{} | none", systems.join(" | "));
    let info = |name: &str, value: String, allowed: &str, help: &str| Info {
        name: name.into(),
        value,
        allowed: allowed.into(),
        help: help.into(),
    };
    vec![
        info(
            "system",
            g.system.clone().unwrap_or_else(|| "none".into()),
            &systems,
            "The server's system (channels may override it with /fc channel-system).",
        ),
        info(
            "session_timeout_minutes",
            g.session_timeout_minutes.to_string(),
            &format!("1-{MAX_TIMEOUT_MINUTES}"),
            "Interactive rolls left untouched this long expire and lose their buttons.",
        ),
        info(
            "max_dice_per_roll",
            g.max_dice_per_roll.to_string(),
            &format!("1-{MAX_DICE_PER_ROLL}"),
            "The most dice one system roll may ask for.",
        ),
        info(
            "gm_channel",
            g.gm_channel
                .map_or_else(|| "none".into(), |c| format!("<#{c}>")),
            "#channel | none",
            "Where secret rolls are copied for the FC (also /fc gm-channel).",
        ),
        info(
            "player_edits",
            g.player_edits.word().into(),
            "free | approval | fc_only",
            "A player's change to what the rules leave to the game master (see /help): free (the default) = applied and announced, with the FC's Undo; approval = waits for the FC's Approve; fc_only = refused.",
        ),
    ]
}

fn whole(name: &str, value: &str, max: u32) -> Result<u32, AppError> {
    value
        .trim()
        .parse::<u32>()
        .ok()
        .filter(|n| (1..=max).contains(n))
        .ok_or_else(|| {
            AppError::user(format!(
                "`{name}` must be a whole number from 1 to {max}, not `{}`.",
                value.trim()
            ))
        })
}

/// Reads a channel given as `<#id>`, `#id` or a bare id.
pub fn parse_channel(value: &str) -> Option<i64> {
    let v = value.trim();
    let v = v
        .strip_prefix("<#")
        .and_then(|r| r.strip_suffix('>'))
        .unwrap_or(v);
    let v = v.strip_prefix('#').unwrap_or(v);
    v.parse::<i64>().ok().filter(|c| *c > 0)
}

fn is_none(value: &str) -> bool {
    matches!(
        value.trim().to_ascii_lowercase().as_str(),
        "none" | "off" | "clear" | "unset"
    )
}

/// Changes one shared setting (validated; nothing changes on error).
pub fn set_shared(
    reg: &Registry,
    g: &mut GuildSettings,
    name: &str,
    value: &str,
) -> Result<(), AppError> {
    match name {
        "system" => {
            g.system = if is_none(value) {
                None
            } else {
                Some(
                    reg.parse(value)
                        .ok_or_else(|| {
                            let names: Vec<String> = reg
                                .playable()
                                .map(|s| match s.command_root() {
                                    Some(r) => format!("{} ({})", s.id(), r.to_uppercase()),
                                    None => s.id().to_string(),
                                })
                                .collect();
                            AppError::user(format!(
                                "`system` must be one of {} or none, not `{}`.",
                                names.join(", "),
                                value.trim()
                            ))
                        })?
                        .id()
                        .to_string(),
                )
            }
        }
        "session_timeout_minutes" => {
            g.session_timeout_minutes = whole(name, value, MAX_TIMEOUT_MINUTES)?
        }
        "max_dice_per_roll" => g.max_dice_per_roll = whole(name, value, MAX_DICE_PER_ROLL)?,
        "gm_channel" => {
            g.gm_channel = if is_none(value) {
                None
            } else {
                Some(parse_channel(value).ok_or_else(|| {
                    AppError::user(format!(
                        "`gm_channel` must be a channel (use /fc gm-channel to pick one) or none, not `{}`.",
                        value.trim()
                    ))
                })?)
            }
        }
        "player_edits" => {
            g.player_edits = app_settings::PlayerEdits::parse(value).ok_or_else(|| {
                AppError::user(format!(
                    "`player_edits` must be free, approval or fc_only, not `{}`.",
                    value.trim()
                ))
            })?
        }
        other => return Err(unknown(reg, other)),
    }
    Ok(())
}

/// Setting names containing `partial` (any case), at most `limit`.
pub fn complete_names(reg: &Registry, partial: &str, limit: usize) -> Vec<&'static str> {
    let p = partial.trim().to_ascii_lowercase();
    all_names(reg)
        .into_iter()
        .filter(|n| n.contains(&p))
        .take(limit)
        .collect()
}

/// The values a setting accepts, as suggestions: the owner's own list
/// where it has one, else the listed words, small ranges in full, larger
/// ones as a few landmarks.
pub fn suggestions(reg: &Registry, info: &Info) -> Vec<String> {
    let mut out: Vec<String> = Vec::new();
    let mut push = |v: String| {
        if !out.contains(&v) {
            out.push(v);
        }
    };
    let own: Option<&[&str]> = match info.name.as_str() {
        "session_timeout_minutes" => {
            Some(&["5", "10", "15", "30", "60", "120", "240", "720", "1440"])
        }
        "max_dice_per_roll" => Some(&["10", "20", "30", "50", "100", "200", "500"]),
        "gm_channel" => Some(&["none"]),
        "player_edits" => Some(&app_settings::PlayerEdits::WORDS),
        name => reg
            .owner_of_setting(name)
            .and_then(|s| s.house_rules())
            .and_then(|c| c.suggest(name)),
    };
    if let Some(list) = own {
        for v in list {
            push(v.to_string());
        }
        return out;
    }
    for part in info.allowed.split('|').map(str::trim) {
        if let Some((lo, hi)) = part.split_once('-') {
            if let (Ok(lo), Ok(hi)) = (lo.trim().parse::<u32>(), hi.trim().parse::<u32>()) {
                if hi >= lo && hi - lo < 25 {
                    for v in lo..=hi {
                        push(v.to_string());
                    }
                } else {
                    for v in [lo, (lo + hi) / 2, hi] {
                        push(v.to_string());
                    }
                }
                continue;
            }
        }
        if !part.is_empty()
            && part
                .chars()
                .all(|c| c.is_ascii_alphanumeric() || c == '_' || c == '×')
        {
            push(part.to_string());
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn reg() -> Registry {
        crate::systems::registry()
    }

    #[test]
    fn every_name_has_one_scope_and_names_are_unique() {
        let reg = reg();
        let names = all_names(&reg);
        let mut seen = std::collections::HashSet::new();
        for n in &names {
            assert!(Scope::of(&reg, n).is_some(), "{n}");
            assert!(seen.insert(*n), "{n} twice");
            assert!(n.len() <= 100);
        }
        assert_eq!(
            Scope::of(&reg, "VR_LOCKED_SLOT").map(Scope::key),
            Some("veracity")
        );
        assert_eq!(Scope::of(&reg, "ve2_crits").map(Scope::key), Some("venus"));
        assert_eq!(Scope::of(&reg, "gm_channel"), Some(Scope::Shared));
        assert_eq!(Scope::of(&reg, "nope"), None);
        assert_eq!(Scope::of(&reg, "xx_nope"), None);
        assert!(names.len() > 40);
    }

    #[test]
    fn settings_no_command_reaches_are_not_offered() {
        let reg = reg();
        let names = all_names(&reg);
        // vr_ap_basis is back with Veracity's combat tracker (issue 15).
        let dormant = "vv_diagonal_adjacency";
        assert!(!names.contains(&dormant), "{dormant}");
        assert_eq!(Scope::of(&reg, dormant), None, "{dormant}");
        let c = reg.get("ore").unwrap().house_rules().unwrap();
        assert!(c.change(None, dormant, "on").is_err(), "{dormant}");
        assert!(c.describe(None).unwrap().iter().all(|i| i.name != dormant));
        assert!(names.contains(&"vr_ap_basis"));
    }

    #[test]
    fn shared_settings_are_validated() {
        let reg = reg();
        let mut g = GuildSettings::default();
        let set = |g: &mut GuildSettings, n: &str, v: &str| set_shared(&reg, g, n, v);
        set(&mut g, "session_timeout_minutes", "30").unwrap();
        assert_eq!(g.session_timeout_minutes, 30);
        assert!(set(&mut g, "session_timeout_minutes", "0").is_err());
        assert!(set(&mut g, "session_timeout_minutes", "1441").is_err());
        assert!(set(&mut g, "max_dice_per_roll", "501").is_err());
        set(&mut g, "max_dice_per_roll", "500").unwrap();
        set(&mut g, "system", "VV").unwrap();
        assert_eq!(g.system.as_deref(), Some("ore"));
        assert!(set(&mut g, "system", "gurps").is_err());
        // The generic roller is registered but is no system to play.
        assert!(set(&mut g, "system", "roll").is_err());
        set(&mut g, "system", "none").unwrap();
        assert_eq!(g.system, None);
        set(&mut g, "gm_channel", "<#123>").unwrap();
        assert_eq!(g.gm_channel, Some(123));
        assert!(set(&mut g, "gm_channel", "general").is_err());
        assert!(set(&mut g, "gm_channel", "0").is_err());
        set(&mut g, "gm_channel", "none").unwrap();
        assert_eq!(g.gm_channel, None);
        assert_eq!(g.session_timeout_minutes, 30);
    }

    #[test]
    fn suggestions_cover_words_and_ranges() {
        let reg = reg();
        let s = |name: &str, allowed: &str| {
            suggestions(
                &reg,
                &Info {
                    name: name.into(),
                    value: String::new(),
                    allowed: allowed.into(),
                    help: String::new(),
                },
            )
        };
        assert_eq!(
            s("vr_locked_slot", "fail | success"),
            vec!["fail", "success"]
        );
        assert_eq!(s("st_default_difficulty", "2-10").len(), 9);
        assert_eq!(s("vv_max_pool", "1-30"), vec!["1", "15", "30"]);
        assert_eq!(s("ve_edition", "1 | 2"), vec!["1", "2"]);
        assert!(s("ve1_levelup_rule", "2×level | fixed:N | manual").contains(&"2×level".into()));
    }

    #[test]
    fn every_suggestion_of_every_setting_is_accepted_by_its_owner() {
        let reg = reg();
        let mut g = GuildSettings::default();
        let mut checked = 0;
        for scope in Scope::all(&reg) {
            let infos: Vec<Info> = match scope {
                Scope::Shared => shared_infos(&reg, &g),
                Scope::System { id, .. } => {
                    let c = reg.get(id).unwrap().house_rules().unwrap();
                    c.describe(None).unwrap().into_iter().map(info_of).collect()
                }
            };
            for i in infos {
                for v in suggestions(&reg, &i) {
                    let ok = match scope {
                        Scope::Shared => set_shared(&reg, &mut g, &i.name, &v).is_ok(),
                        Scope::System { id, .. } => {
                            let c = reg.get(id).unwrap().house_rules().unwrap();
                            c.change(None, &i.name, &v).is_ok()
                        }
                    };
                    assert!(ok, "{} = {v}", i.name);
                    checked += 1;
                }
            }
        }
        assert!(checked > 100, "{checked}");
    }
}
