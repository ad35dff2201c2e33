//! Guild settings: the shared rows (FC role, GM channel, active system,
//! session timeout, dice cap) and each system's typed settings, stored as
//! JSON per guild and scope.

use serde::{de::DeserializeOwned, Deserialize, Serialize};

use super::games::Place;
use super::AppError;
use crate::storage::{self, Tx};

/// Settings every system shares.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(default)]
pub struct GuildSettings {
    /// The role whose members are the FC (besides Manage Server holders).
    pub fc_role: Option<i64>,
    /// Where secret rolls go.
    pub gm_channel: Option<i64>,
    /// The guild's active system (a registered system's id).
    pub system: Option<String>,
    /// Interactive rolls expire after this many minutes untouched.
    pub session_timeout_minutes: u32,
    /// Most dice a system roll may request.
    pub max_dice_per_roll: u32,
    /// What happens when a player changes a value the rules leave to the
    /// game master (the house rule `player_edits`): `free` unless the
    /// guild chose otherwise (issue 31: routine play never waits; a guild
    /// that stored `approval` or `fc_only` keeps it).
    pub player_edits: PlayerEdits,
}

/// The house rule `player_edits`: what a player's change to a value the
/// rules put in the game master's hands does.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum PlayerEdits {
    /// Applied, and announced in one public line (the default).
    #[default]
    Free,
    /// Not applied: a request waits for the game master's Approve.
    Approval,
    /// Refused: only the game master can make it.
    FcOnly,
}

impl PlayerEdits {
    /// Every value, as `/fc set` takes it.
    pub const WORDS: [&'static str; 3] = ["free", "approval", "fc_only"];

    /// The value as `/fc set` takes it.
    pub fn word(self) -> &'static str {
        match self {
            PlayerEdits::Free => "free",
            PlayerEdits::Approval => "approval",
            PlayerEdits::FcOnly => "fc_only",
        }
    }

    /// Reads a value as typed (any case, `-` or space for `_`).
    pub fn parse(text: &str) -> Option<Self> {
        match text
            .trim()
            .to_ascii_lowercase()
            .replace(['-', ' '], "_")
            .as_str()
        {
            "free" => Some(PlayerEdits::Free),
            "approval" | "approve" => Some(PlayerEdits::Approval),
            "fc_only" | "fc" => Some(PlayerEdits::FcOnly),
            _ => None,
        }
    }
}

impl Default for GuildSettings {
    fn default() -> Self {
        Self {
            fc_role: None,
            gm_channel: None,
            system: None,
            session_timeout_minutes: 15,
            max_dice_per_roll: 50,
            player_edits: PlayerEdits::Free,
        }
    }
}

/// The scope of the shared settings.
pub const GUILD_SCOPE: &str = "guild";

/// A guild's shared settings (defaults when never set).
pub async fn guild(tx: &mut Tx, guild_id: i64) -> Result<GuildSettings, AppError> {
    scoped(tx, guild_id, GUILD_SCOPE).await
}

/// Stores a guild's shared settings.
pub async fn save_guild(tx: &mut Tx, guild_id: i64, s: &GuildSettings) -> Result<(), AppError> {
    save_scoped(tx, guild_id, GUILD_SCOPE, s).await
}

/// Typed settings of a scope (a system name, usually); defaults when unset.
pub async fn scoped<S: Default + DeserializeOwned>(
    tx: &mut Tx,
    guild_id: i64,
    scope: &str,
) -> Result<S, AppError> {
    match storage::settings::get(tx, guild_id, scope).await? {
        Some(json) => Ok(serde_json::from_str(&json)?),
        None => Ok(S::default()),
    }
}

/// The settings scope of `system`'s house rules where the caller acts: in
/// a live game that plays it, the game's own (`game:<id>:<system>`, issue
/// 32); elsewhere the server's (the system id).
pub async fn system_scope(
    tx: &mut Tx,
    caller: &super::Caller,
    system: &str,
) -> Result<String, AppError> {
    system_scope_at(tx, caller.guild_id, caller.place(), system).await
}

/// [`system_scope`] at `place` of `guild_id` (where a stored session's
/// message lives).
pub async fn system_scope_at(
    tx: &mut Tx,
    guild_id: i64,
    place: Place,
    system: &str,
) -> Result<String, AppError> {
    Ok(match super::games::at(tx, guild_id, place).await? {
        Some(g) if g.live() && g.system == system => format!("game:{}:{system}", g.id),
        _ => system.to_string(),
    })
}

/// `system`'s stored house rules where the caller acts (JSON): a game's
/// own once it set one, else the server's, which a game starts from.
pub async fn stored_here(
    tx: &mut Tx,
    caller: &super::Caller,
    system: &str,
) -> Result<Option<String>, AppError> {
    stored_at(tx, caller.guild_id, caller.place(), system).await
}

/// [`stored_here`] at `place` of `guild_id`.
pub async fn stored_at(
    tx: &mut Tx,
    guild_id: i64,
    place: Place,
    system: &str,
) -> Result<Option<String>, AppError> {
    let scope = system_scope_at(tx, guild_id, place, system).await?;
    if scope != system {
        if let Some(json) = storage::settings::get(tx, guild_id, &scope).await? {
            return Ok(Some(json));
        }
    }
    Ok(storage::settings::get(tx, guild_id, system).await?)
}

/// `system`'s typed house rules where the caller acts ([`stored_here`]);
/// defaults when unset.
pub async fn scoped_here<S: Default + DeserializeOwned>(
    tx: &mut Tx,
    caller: &super::Caller,
    system: &str,
) -> Result<S, AppError> {
    scoped_at(tx, caller.guild_id, caller.place(), system).await
}

/// `system`'s typed house rules at `place` of `guild_id` ([`stored_at`]):
/// what a stored session's redraw reads, wherever the action that
/// redraws it happens (`Place::of(session)`); defaults when unset.
pub async fn scoped_at<S: Default + DeserializeOwned>(
    tx: &mut Tx,
    guild_id: i64,
    place: Place,
    system: &str,
) -> Result<S, AppError> {
    match stored_at(tx, guild_id, place, system).await? {
        Some(json) => Ok(serde_json::from_str(&json)?),
        None => Ok(S::default()),
    }
}

/// Stores typed settings of a scope.
pub async fn save_scoped<S: Serialize>(
    tx: &mut Tx,
    guild_id: i64,
    scope: &str,
    s: &S,
) -> Result<(), AppError> {
    let json = serde_json::to_string(s)?;
    storage::settings::put(tx, guild_id, scope, &json, storage::now_ms()).await?;
    Ok(())
}

/// Settings of one channel (scope `channel:<id>`).
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(default)]
pub struct ChannelSettings {
    /// The system this channel plays, overriding the guild's `system`.
    pub system: Option<String>,
    /// How much a result says here (the house rule `verbosity`).
    pub verbosity: Verbosity,
}

/// How much a result says in a channel.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Verbosity {
    /// Everything: the dice, the derivation, the odds.
    #[default]
    Full,
    /// One line per result.
    Compact,
}

impl Verbosity {
    /// Every value, as `/fc verbosity` offers it.
    pub const WORDS: [&'static str; 2] = ["full", "compact"];

    /// The value's word.
    pub fn word(self) -> &'static str {
        match self {
            Verbosity::Full => "full",
            Verbosity::Compact => "compact",
        }
    }

    /// Reads a word (any case).
    pub fn parse(text: &str) -> Option<Self> {
        match text.trim().to_ascii_lowercase().as_str() {
            "full" => Some(Verbosity::Full),
            "compact" | "short" => Some(Verbosity::Compact),
            _ => None,
        }
    }
}

/// The settings scope of a channel.
pub fn channel_scope(channel_id: i64) -> String {
    format!("channel:{channel_id}")
}

/// A channel's settings (defaults when never set).
pub async fn channel(
    tx: &mut Tx,
    guild_id: i64,
    channel_id: i64,
) -> Result<ChannelSettings, AppError> {
    scoped(tx, guild_id, &channel_scope(channel_id)).await
}

/// Stores a channel's settings.
pub async fn save_channel(
    tx: &mut Tx,
    guild_id: i64,
    channel_id: i64,
    s: &ChannelSettings,
) -> Result<(), AppError> {
    save_scoped(tx, guild_id, &channel_scope(channel_id), s).await
}

/// Tells `tx` that the guild's settings and the caller's channel's are
/// likely read (rights, the channel's system, house rules): the first read
/// of either reads both in one query.
pub fn hint_caller(tx: &mut Tx, caller: &super::Caller) {
    storage::settings::hint(
        tx,
        caller.guild_id,
        &[GUILD_SCOPE, &channel_scope(caller.channel_id)],
    );
}

/// The system played where the caller acts: in a live game's channels
/// the game's (issue 32), else the channel's override, else the guild's
/// `system`, else none (a scope name such as `storyteller`).
pub async fn active_system(
    tx: &mut Tx,
    caller: &super::Caller,
) -> Result<Option<String>, AppError> {
    if let Some(game) = super::games::live_here(tx, caller).await? {
        return Ok(Some(game.system));
    }
    if let Some(s) = channel(tx, caller.guild_id, caller.channel_id)
        .await?
        .system
    {
        return Ok(Some(s));
    }
    Ok(guild(tx, caller.guild_id).await?.system)
}

/// Whether a command of the system whose slash-command root is `root` may
/// run where the caller acts: refused, naming the system played there,
/// when the channel (or, without a channel choice, the server) plays
/// another registered system. In a live game's channels the game's system
/// is played ([`active_system`]; another's command is refused first,
/// naming the game, by [`super::games::allows_here`]). Commands of no
/// playable system always may.
pub async fn allows_here(
    app: &super::App,
    caller: &super::Caller,
    root: &str,
) -> Result<(), AppError> {
    let Some(system) = app.registry.by_root(root).filter(|s| s.playable()) else {
        return Ok(());
    };
    // Before every system command (the game here, then the channel's and
    // the server's settings in one read): no transaction around it.
    let mut tx = app.db.glance().await?;
    hint_caller(&mut tx, caller);
    let here = active_system(&mut tx, caller).await?;
    drop(tx);
    match here {
        Some(id) if id != system.id() => {
            let plays = app.registry.display(&id);
            let how = match app.registry.get(&id).and_then(|s| s.command_root()) {
                Some(r) => format!(" Use `/{r}` here,"),
                None => String::new(),
            };
            Err(AppError::user(format!(
                "This channel plays **{plays}**, so `/{root}` ({}) is not played here.{how} or ask the game master (FC) to change it with `/fc channel-system`.",
                system.name()
            )))
        }
        _ => Ok(()),
    }
}
