//! Configuration: `config/default.toml` (compiled in), then environment
//! variables (also read from `.env` via dotenvy by the binary).

use serde::Deserialize;

/// The defaults file, compiled into the binary so it runs from anywhere.
const DEFAULTS: &str = include_str!("../config/default.toml");

/// Everything the bot reads at start-up.
#[derive(Debug, Clone, Deserialize)]
pub struct Config {
    /// Database settings.
    pub database: DatabaseConfig,
    /// Discord settings (never the token: that stays in [`Secrets`]).
    pub discord: DiscordConfig,
    /// Session housekeeping.
    pub sessions: SessionsConfig,
    /// Input limits.
    pub limits: Limits,
}

/// Session housekeeping.
#[derive(Debug, Clone, Deserialize)]
pub struct SessionsConfig {
    /// Seconds between expiry sweeps.
    pub sweep_seconds: u64,
}

/// Database settings.
#[derive(Debug, Clone, Deserialize)]
pub struct DatabaseConfig {
    /// An sqlx URL: `sqlite://data/kismet.db` (one process), or
    /// `postgres://user:password@host/db` (several processes sharing it).
    pub url: String,
    /// Pool size (on PostgreSQL, of each of the writers' and the readers'
    /// pools).
    pub max_connections: u32,
}

/// Where slash commands are registered.
#[derive(Debug, Clone, Deserialize)]
pub struct DiscordConfig {
    /// `global` or `guild`.
    pub register: String,
    /// The guild used when `register = "guild"`.
    pub dev_guild_id: u64,
}

/// Caps on user input.
#[derive(Debug, Clone, Deserialize)]
pub struct Limits {
    /// Longest `/roll` expression, in characters.
    pub max_expression_len: usize,
    /// Most dice one `/roll` may throw.
    pub max_dice: u32,
    /// Most sides on one die.
    pub max_sides: u32,
    /// Longest free-text field.
    pub max_text_len: usize,
}

/// How commands are registered with Discord.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Registration {
    /// For every guild.
    Global,
    /// In one guild only (instant; for development).
    Guild(u64),
}

/// A configuration problem, explained.
#[derive(Debug)]
pub struct ConfigError(pub String);

impl std::fmt::Display for ConfigError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for ConfigError {}

impl Config {
    /// The compiled-in defaults, untouched by the environment.
    pub fn defaults() -> Self {
        toml::from_str(DEFAULTS).expect("config/default.toml is valid")
    }

    /// The defaults with environment overrides applied.
    pub fn from_env() -> Result<Self, ConfigError> {
        Self::defaults().with_overrides(|k| std::env::var(k).ok())
    }

    /// Applies overrides read through `get` (the environment, in production).
    pub fn with_overrides(
        mut self,
        get: impl Fn(&str) -> Option<String>,
    ) -> Result<Self, ConfigError> {
        if let Some(url) = get("DATABASE_URL").filter(|s| !s.is_empty()) {
            self.database.url = url;
        }
        if let Some(r) = get("KISMET_REGISTER").filter(|s| !s.is_empty()) {
            self.discord.register = r;
        }
        if let Some(g) = get("KISMET_DEV_GUILD_ID").filter(|s| !s.is_empty()) {
            self.discord.dev_guild_id = g
                .parse()
                .map_err(|_| ConfigError(format!("KISMET_DEV_GUILD_ID `{g}` is not a guild id")))?;
        }
        self.registration()?;
        Ok(self)
    }

    /// Where commands are registered, validated.
    pub fn registration(&self) -> Result<Registration, ConfigError> {
        match self.discord.register.as_str() {
            "global" => Ok(Registration::Global),
            "guild" if self.discord.dev_guild_id != 0 => {
                Ok(Registration::Guild(self.discord.dev_guild_id))
            }
            "guild" => Err(ConfigError(
                "KISMET_REGISTER=guild needs KISMET_DEV_GUILD_ID".into(),
            )),
            other => Err(ConfigError(format!(
                "KISMET_REGISTER must be `global` or `guild`, not `{other}`"
            ))),
        }
    }
}

/// The bot token, kept apart from [`Config`] so it is never logged.
#[derive(Clone)]
pub struct Secrets {
    token: String,
}

impl Secrets {
    /// Reads `DISCORD_TOKEN`; `None` when missing or empty.
    pub fn from_env() -> Option<Self> {
        std::env::var("DISCORD_TOKEN")
            .ok()
            .filter(|t| !t.trim().is_empty())
            .map(|token| Self { token })
    }

    /// Wraps a token (tests and the sandbox use a fake one).
    pub fn new(token: impl Into<String>) -> Self {
        Self {
            token: token.into(),
        }
    }

    /// The token itself.
    pub fn token(&self) -> &str {
        &self.token
    }
}

impl std::fmt::Debug for Secrets {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("Secrets(<redacted>)")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn defaults_parse_and_env_overrides_apply() {
        let c = Config::defaults();
        assert_eq!(c.database.url, "sqlite://data/kismet.db");
        assert_eq!(c.registration().unwrap(), Registration::Global);
        let c = c
            .with_overrides(|k| match k {
                "DATABASE_URL" => Some("sqlite://x.db".into()),
                "KISMET_REGISTER" => Some("guild".into()),
                "KISMET_DEV_GUILD_ID" => Some("42".into()),
                _ => None,
            })
            .unwrap();
        assert_eq!(c.database.url, "sqlite://x.db");
        assert_eq!(c.registration().unwrap(), Registration::Guild(42));
    }

    #[test]
    fn guild_registration_without_guild_is_refused() {
        let r =
            Config::defaults().with_overrides(|k| (k == "KISMET_REGISTER").then(|| "guild".into()));
        assert!(r.is_err());
    }

    #[test]
    fn secrets_never_print_the_token() {
        let s = Secrets::new("abc.def");
        assert!(!format!("{s:?}").contains("abc"));
    }
}
