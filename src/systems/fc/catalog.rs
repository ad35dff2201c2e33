//! Every house-rule setting of spec §6 in one catalogue: which scope owns a
//! name (the shared guild settings, or one system's rules settings), its
//! current value, the values it accepts and a validated change.
//!
//! The systems' rules cores own their settings (`set`/`describe`); this
//! module only routes a name to the right struct, stored per guild with
//! [`crate::app::settings::scoped`] under the system's scope name.

use serde::{de::DeserializeOwned, Serialize};

use crate::app::settings::{self as app_settings, GuildSettings};
use crate::app::AppError;
use crate::rules::ore::OreSettings;
use crate::rules::storyteller::StorytellerSettings;
use crate::rules::venus::VenusSettings;
use crate::rules::veracity::VeracitySettings;
use crate::rules::RuleError;
use crate::storage::Tx;

/// Where a setting lives.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Scope {
    /// The shared guild settings ([`GuildSettings`]).
    Shared,
    /// Venus Engine (`ve_*`, `ve1_*`, `ve2_*`).
    Venus,
    /// Veracity (`vr_*`).
    Veracity,
    /// Storyteller (`st_*`).
    Storyteller,
    /// Virtual Veil (`vv_*`).
    Ore,
}

impl Scope {
    /// Every scope, in display order.
    pub const ALL: [Scope; 5] = [
        Scope::Shared,
        Scope::Venus,
        Scope::Veracity,
        Scope::Storyteller,
        Scope::Ore,
    ];

    /// The settings scope it is stored under (also the log's system name).
    pub fn key(self) -> &'static str {
        match self {
            Scope::Shared => app_settings::GUILD_SCOPE,
            Scope::Venus => "venus",
            Scope::Veracity => "veracity",
            Scope::Storyteller => "storyteller",
            Scope::Ore => "ore",
        }
    }

    /// Its heading.
    pub fn title(self) -> &'static str {
        match self {
            Scope::Shared => "Every system",
            Scope::Venus => "Venus Engine",
            Scope::Veracity => "Veracity",
            Scope::Storyteller => "Storyteller",
            Scope::Ore => "Virtual Veil",
        }
    }

    /// The scope owning a setting name (any case), if any.
    pub fn of(name: &str) -> Option<Scope> {
        let n = name.trim().to_ascii_lowercase();
        if SHARED_NAMES.contains(&n.as_str()) {
            return Some(Scope::Shared);
        }
        let (prefix, _) = n.split_once('_')?;
        match prefix {
            "ve" | "ve1" | "ve2" => Some(Scope::Venus),
            "vr" => Some(Scope::Veracity),
            "st" => Some(Scope::Storyteller),
            "vv" => Some(Scope::Ore),
            _ => None,
        }
    }
}

/// The shared settings `/fc set` changes (the FC role has its own command).
pub const SHARED_NAMES: [&str; 4] = [
    "system",
    "session_timeout_minutes",
    "max_dice_per_roll",
    "gm_channel",
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

/// A rules settings struct of one system, as stored per guild.
trait RulesSettings: Default + Serialize + DeserializeOwned {
    fn change(&mut self, name: &str, value: &str) -> Result<(), RuleError>;
    fn infos(&self) -> Vec<Info>;
}

macro_rules! rules_settings {
    ($t:ty) => {
        impl RulesSettings for $t {
            fn change(&mut self, name: &str, value: &str) -> Result<(), RuleError> {
                self.set(name, value)
            }
            fn infos(&self) -> Vec<Info> {
                self.describe()
                    .into_iter()
                    .map(|i| Info {
                        name: i.name.to_string(),
                        value: i.value,
                        allowed: i.allowed.to_string(),
                        help: i.help.to_string(),
                    })
                    .collect()
            }
        }
    };
}

rules_settings!(VenusSettings);
rules_settings!(VeracitySettings);
rules_settings!(StorytellerSettings);
rules_settings!(OreSettings);

/// Every setting name `/fc set` accepts, in display order.
pub fn all_names() -> Vec<&'static str> {
    let mut v: Vec<&'static str> = SHARED_NAMES.to_vec();
    v.extend(crate::rules::venus::settings::SETTING_NAMES);
    v.extend(crate::rules::veracity::settings::SETTING_NAMES);
    v.extend(crate::rules::storyteller::settings::SETTING_NAMES);
    v.extend(crate::rules::ore::settings::SETTING_NAMES);
    v
}

fn unknown(name: &str) -> AppError {
    AppError::user(format!(
        "There is no setting called `{}`. Start typing in `name` to pick one: shared settings \
         ({}) or a system's (`ve_…`, `vr_…`, `st_…`, `vv_…`).",
        name.trim(),
        SHARED_NAMES.join(", ")
    ))
}

async fn infos_in<S: RulesSettings>(
    tx: &mut Tx,
    guild: i64,
    scope: Scope,
) -> Result<Vec<Info>, AppError> {
    let s: S = app_settings::scoped(tx, guild, scope.key()).await?;
    Ok(s.infos())
}

/// The settings of one scope with their current values.
pub async fn describe(tx: &mut Tx, guild: i64, scope: Scope) -> Result<Vec<Info>, AppError> {
    match scope {
        Scope::Shared => Ok(shared_infos(&app_settings::guild(tx, guild).await?)),
        Scope::Venus => infos_in::<VenusSettings>(tx, guild, scope).await,
        Scope::Veracity => infos_in::<VeracitySettings>(tx, guild, scope).await,
        Scope::Storyteller => infos_in::<StorytellerSettings>(tx, guild, scope).await,
        Scope::Ore => infos_in::<OreSettings>(tx, guild, scope).await,
    }
}

/// One setting with its current value.
pub async fn info(tx: &mut Tx, guild: i64, name: &str) -> Result<Info, AppError> {
    let scope = Scope::of(name).ok_or_else(|| unknown(name))?;
    let key = canonical(name);
    describe(tx, guild, scope)
        .await?
        .into_iter()
        .find(|i| i.name == key)
        .ok_or_else(|| unknown(name))
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

async fn set_in<S: RulesSettings>(
    tx: &mut Tx,
    guild: i64,
    scope: Scope,
    name: &str,
    value: &str,
) -> Result<(), AppError> {
    let mut s: S = app_settings::scoped(tx, guild, scope.key()).await?;
    s.change(name, value)?;
    app_settings::save_scoped(tx, guild, scope.key(), &s).await
}

/// Changes one setting in the caller's transaction (validated by its owner;
/// nothing changes on error). Rights are the caller's business.
pub async fn set(tx: &mut Tx, guild: i64, name: &str, value: &str) -> Result<Change, AppError> {
    let before = info(tx, guild, name).await?;
    let scope = Scope::of(name).ok_or_else(|| unknown(name))?;
    let key = before.name.clone();
    match scope {
        Scope::Shared => {
            let mut g = app_settings::guild(tx, guild).await?;
            set_shared(&mut g, &key, value)?;
            app_settings::save_guild(tx, guild, &g).await?;
        }
        Scope::Venus => set_in::<VenusSettings>(tx, guild, scope, &key, value).await?,
        Scope::Veracity => set_in::<VeracitySettings>(tx, guild, scope, &key, value).await?,
        Scope::Storyteller => set_in::<StorytellerSettings>(tx, guild, scope, &key, value).await?,
        Scope::Ore => set_in::<OreSettings>(tx, guild, scope, &key, value).await?,
    }
    let after = info(tx, guild, &key).await?;
    Ok(Change {
        scope,
        before,
        after,
    })
}

/// The shared settings as listed (the FC role is shown, not set, here).
pub fn shared_infos(g: &GuildSettings) -> Vec<Info> {
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
            "venus | veracity | storyteller | ore | none",
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
pub fn set_shared(g: &mut GuildSettings, name: &str, value: &str) -> Result<(), AppError> {
    match name {
        "system" => {
            g.system = if is_none(value) {
                None
            } else {
                Some(
                    app_settings::parse_system(value)
                        .ok_or_else(|| {
                            AppError::user(format!(
                                "`system` must be venus, veracity, storyteller, ore (or VE, VR, ST, VV) or none, not `{}`.",
                                value.trim()
                            ))
                        })?
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
        other => return Err(unknown(other)),
    }
    Ok(())
}

/// Setting names containing `partial` (any case), at most `limit`.
pub fn complete_names(partial: &str, limit: usize) -> Vec<&'static str> {
    let p = partial.trim().to_ascii_lowercase();
    all_names()
        .into_iter()
        .filter(|n| n.contains(&p))
        .take(limit)
        .collect()
}

/// The values a setting accepts, as suggestions: the listed words, small
/// ranges in full, larger ones as a few landmarks.
pub fn suggestions(info: &Info) -> Vec<String> {
    let mut out: Vec<String> = Vec::new();
    let mut push = |v: String| {
        if !out.contains(&v) {
            out.push(v);
        }
    };
    match info.name.as_str() {
        "session_timeout_minutes" => {
            for v in [5, 10, 15, 30, 60, 120, 240, 720, 1440] {
                push(v.to_string());
            }
            return out;
        }
        "max_dice_per_roll" => {
            for v in [10, 20, 30, 50, 100, 200, 500] {
                push(v.to_string());
            }
            return out;
        }
        "gm_channel" => {
            push("none".into());
            return out;
        }
        "st_unskilled_knowledge_penalty" => {
            for v in 0..=8 {
                push(format!("+{v}"));
            }
            return out;
        }
        "ve1_levelup_rule" => {
            for v in ["2×level", "manual", "fixed:10"] {
                push(v.into());
            }
            return out;
        }
        "ve2_autopass_ranges" => {
            for v in ["text", "table", "custom:none,20,19-20,18-20"] {
                push(v.into());
            }
            return out;
        }
        "st_custom_traits" | "st_trait_aliases" => {
            push("none".into());
            return out;
        }
        _ => {}
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

    #[test]
    fn every_name_has_one_scope_and_names_are_unique() {
        let names = all_names();
        let mut seen = std::collections::HashSet::new();
        for n in &names {
            assert!(Scope::of(n).is_some(), "{n}");
            assert!(seen.insert(*n), "{n} twice");
            assert!(n.len() <= 100);
        }
        assert_eq!(Scope::of("VR_LOCKED_SLOT"), Some(Scope::Veracity));
        assert_eq!(Scope::of("ve2_crits"), Some(Scope::Venus));
        assert_eq!(Scope::of("nope"), None);
        assert_eq!(Scope::of("xx_nope"), None);
        assert!(names.len() > 40);
    }

    #[test]
    fn shared_settings_are_validated() {
        let mut g = GuildSettings::default();
        set_shared(&mut g, "session_timeout_minutes", "30").unwrap();
        assert_eq!(g.session_timeout_minutes, 30);
        assert!(set_shared(&mut g, "session_timeout_minutes", "0").is_err());
        assert!(set_shared(&mut g, "session_timeout_minutes", "1441").is_err());
        assert!(set_shared(&mut g, "max_dice_per_roll", "501").is_err());
        set_shared(&mut g, "max_dice_per_roll", "500").unwrap();
        set_shared(&mut g, "system", "VV").unwrap();
        assert_eq!(g.system.as_deref(), Some("ore"));
        assert!(set_shared(&mut g, "system", "gurps").is_err());
        set_shared(&mut g, "system", "none").unwrap();
        assert_eq!(g.system, None);
        set_shared(&mut g, "gm_channel", "<#123>").unwrap();
        assert_eq!(g.gm_channel, Some(123));
        assert!(set_shared(&mut g, "gm_channel", "general").is_err());
        assert!(set_shared(&mut g, "gm_channel", "0").is_err());
        set_shared(&mut g, "gm_channel", "none").unwrap();
        assert_eq!(g.gm_channel, None);
        assert_eq!(g.session_timeout_minutes, 30);
    }

    #[test]
    fn suggestions_cover_words_and_ranges() {
        let s = |name: &str, allowed: &str| {
            suggestions(&Info {
                name: name.into(),
                value: String::new(),
                allowed: allowed.into(),
                help: String::new(),
            })
        };
        assert_eq!(
            s("vr_locked_slot", "fail | success"),
            vec!["fail", "success"]
        );
        assert_eq!(s("st_default_difficulty", "2-10").len(), 9);
        assert_eq!(s("vv_max_pool", "1-30"), vec!["1", "15", "30"]);
        assert_eq!(s("ve_edition", "1 | 2"), vec!["1", "2"]);
        assert!(s("ve1_levelup_rule", "2×level | fixed:N | manual").contains(&"2×level".into()));
        // Every suggestion of every real setting is accepted by its owner.
        let mut venus = VenusSettings::default();
        let mut vr = VeracitySettings::default();
        let mut st = StorytellerSettings::default();
        let mut vv = OreSettings::default();
        let mut g = GuildSettings::default();
        let mut all: Vec<Info> = shared_infos(&g);
        all.extend(venus.infos());
        all.extend(vr.infos());
        all.extend(st.infos());
        all.extend(vv.infos());
        for i in all {
            for v in suggestions(&i) {
                let ok = match Scope::of(&i.name).unwrap() {
                    Scope::Shared => set_shared(&mut g, &i.name, &v).is_ok(),
                    Scope::Venus => venus.change(&i.name, &v).is_ok(),
                    Scope::Veracity => vr.change(&i.name, &v).is_ok(),
                    Scope::Storyteller => st.change(&i.name, &v).is_ok(),
                    Scope::Ore => vv.change(&i.name, &v).is_ok(),
                };
                assert!(ok, "{} = {v}", i.name);
            }
        }
    }
}
