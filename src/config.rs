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
    /// What happens to a server's data.
    pub data: DataConfig,
    /// Admission control under overload.
    pub load: LoadConfig,
    /// Input limits.
    pub limits: Limits,
}

/// Session housekeeping.
#[derive(Debug, Clone, Deserialize)]
pub struct SessionsConfig {
    /// Seconds between expiry sweeps.
    pub sweep_seconds: u64,
}

/// What happens to a server's data.
#[derive(Debug, Clone, Deserialize)]
pub struct DataConfig {
    /// Days after the bot is removed from a server before that server's
    /// data is deleted (cancelled if the bot is added back meanwhile),
    /// [`GRACE_DAYS`]; `KISMET_REMOVED_GUILD_GRACE_DAYS`.
    pub removed_guild_grace_days: u32,
}

/// The grace periods [`DataConfig::removed_guild_grace_days`] accepts: at
/// least a day (a kick by mistake can be undone), at most a year.
pub const GRACE_DAYS: std::ops::RangeInclusive<u32> = 1..=365;

impl DataConfig {
    /// The grace period.
    pub fn grace(&self) -> std::time::Duration {
        std::time::Duration::from_secs(u64::from(self.removed_guild_grace_days) * 86_400)
    }
}

/// Admission control under overload.
#[derive(Debug, Clone, Deserialize)]
pub struct LoadConfig {
    /// Most interactions the application works on at once (0: no cap);
    /// more wait their turn ([`crate::admission`]), and one not let in in
    /// time is answered "busy" and nothing is done.
    pub max_in_flight: usize,
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
        if let Some(n) = get("KISMET_MAX_IN_FLIGHT").filter(|s| !s.is_empty()) {
            self.load.max_in_flight = n.parse().map_err(|_| {
                ConfigError(format!(
                    "KISMET_MAX_IN_FLIGHT `{n}` is not a count (0 means no cap)"
                ))
            })?;
        }
        if let Some(d) = get("KISMET_REMOVED_GUILD_GRACE_DAYS").filter(|s| !s.is_empty()) {
            self.data.removed_guild_grace_days = d.trim().parse().map_err(|_| {
                ConfigError(format!(
                    "KISMET_REMOVED_GUILD_GRACE_DAYS `{d}` is not a number of days"
                ))
            })?;
        }
        let days = self.data.removed_guild_grace_days;
        if !GRACE_DAYS.contains(&days) {
            return Err(ConfigError(format!(
                "removed_guild_grace_days (KISMET_REMOVED_GUILD_GRACE_DAYS) must be {} to {} days, not {days}",
                GRACE_DAYS.start(),
                GRACE_DAYS.end()
            )));
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

/// The most gateway shards `--shard-count` accepts. Discord asks for one
/// shard per 2,500 guilds; 4,096 shards serve ten million guilds.
pub const MAX_SHARD_COUNT: u32 = 4096;

/// The gateway shards one process runs: `first..=last` of `count`
/// (`kismet run --shards 0-3 --shard-count 8`). A guild belongs to the
/// shard `(guild_id >> 22) % count`, as Discord routes its events; the
/// process's background work (session expiry) handles only the guilds its
/// shards own ([`ShardRange::owns`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ShardRange {
    /// The first shard this process runs.
    pub first: u32,
    /// The last shard this process runs (inclusive).
    pub last: u32,
    /// The bot's total shard count (over every process).
    pub count: u32,
}

impl ShardRange {
    /// Reads `--shards` (`5`, or `0-3`, inclusive) against `--shard-count`;
    /// the error says what is wrong and what is allowed.
    pub fn parse(shards: &str, count: u32) -> Result<Self, ConfigError> {
        if count == 0 || count > MAX_SHARD_COUNT {
            return Err(ConfigError(format!(
                "--shard-count must be between 1 and {MAX_SHARD_COUNT}, not {count}"
            )));
        }
        let bad = || {
            ConfigError(format!(
                "--shards `{shards}` is not a shard or a range of shards (write `5` or `0-3`)"
            ))
        };
        let number = |s: &str| -> Result<u32, ConfigError> {
            let s = s.trim();
            if s.is_empty() || s.len() > 10 || !s.bytes().all(|b| b.is_ascii_digit()) {
                return Err(bad());
            }
            s.parse().map_err(|_| bad())
        };
        let (first, last) = match shards.split_once('-') {
            Some((a, b)) => (number(a)?, number(b)?),
            None => {
                let n = number(shards)?;
                (n, n)
            }
        };
        if first > last {
            return Err(ConfigError(format!(
                "--shards `{shards}`: the range runs backwards (write the lower shard first)"
            )));
        }
        if last >= count {
            return Err(ConfigError(format!(
                "--shards `{shards}`: shards are numbered 0 to {} of --shard-count {count}",
                count - 1
            )));
        }
        Ok(Self { first, last, count })
    }

    /// Every shard of `count` (one process running them all).
    pub fn all(count: u32) -> Self {
        let count = count.clamp(1, MAX_SHARD_COUNT);
        Self {
            first: 0,
            last: count - 1,
            count,
        }
    }

    /// The shard Discord sends `guild_id`'s events on.
    pub fn shard_of(&self, guild_id: i64) -> u32 {
        let id = guild_id as u64;
        ((id >> 22) % u64::from(self.count.max(1))) as u32
    }

    /// Whether one of this range's shards owns `guild_id`.
    pub fn owns(&self, guild_id: i64) -> bool {
        (self.first..=self.last).contains(&self.shard_of(guild_id))
    }

    /// How many shards the range holds.
    pub fn len(&self) -> u32 {
        self.last - self.first + 1
    }

    /// Always false: a range holds at least one shard.
    pub fn is_empty(&self) -> bool {
        false
    }
}

impl std::fmt::Display for ShardRange {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        if self.first == self.last {
            write!(f, "shard {} of {}", self.first, self.count)
        } else {
            write!(f, "shards {}-{} of {}", self.first, self.last, self.count)
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
        assert_eq!(c.load.max_in_flight, 32, "the default");
    }

    #[test]
    fn the_in_flight_cap_is_read_and_checked() {
        let with = |v: &'static str| {
            Config::defaults()
                .with_overrides(move |k| (k == "KISMET_MAX_IN_FLIGHT").then(|| v.into()))
        };
        assert_eq!(with("40").unwrap().load.max_in_flight, 40);
        assert_eq!(with("0").unwrap().load.max_in_flight, 0);
        let e = with("lots").unwrap_err().to_string();
        assert!(e.contains("KISMET_MAX_IN_FLIGHT `lots`"), "{e}");
    }

    #[test]
    fn the_grace_period_is_read_and_checked() {
        let with = |v: &'static str| {
            Config::defaults()
                .with_overrides(move |k| (k == "KISMET_REMOVED_GUILD_GRACE_DAYS").then(|| v.into()))
        };
        let c = Config::defaults();
        assert_eq!(c.data.removed_guild_grace_days, 30, "the default");
        assert_eq!(c.data.grace(), std::time::Duration::from_secs(30 * 86_400));
        assert_eq!(with("7").unwrap().data.removed_guild_grace_days, 7);
        assert_eq!(with("365").unwrap().data.removed_guild_grace_days, 365);
        for bad in ["0", "366", "-1", "a week"] {
            let e = with(bad).unwrap_err().to_string();
            assert!(e.contains("KISMET_REMOVED_GUILD_GRACE_DAYS"), "{bad}: {e}");
        }
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

    #[test]
    fn shard_ranges_are_read_and_checked() {
        let r = ShardRange::parse("0-3", 8).unwrap();
        assert_eq!((r.first, r.last, r.count, r.len()), (0, 3, 8, 4));
        assert_eq!(r.to_string(), "shards 0-3 of 8");
        let one = ShardRange::parse("5", 8).unwrap();
        assert_eq!((one.first, one.last), (5, 5));
        assert_eq!(one.to_string(), "shard 5 of 8");
        assert_eq!(ShardRange::parse(" 7 - 7 ", 8).unwrap().len(), 1);
        for (spec, count, says) in [
            ("0-8", 8, "numbered 0 to 7"),
            ("8", 8, "numbered 0 to 7"),
            ("3-1", 8, "backwards"),
            ("0", 0, "between 1 and 4096"),
            ("0", 4097, "between 1 and 4096"),
            ("", 2, "not a shard"),
            ("a-b", 2, "not a shard"),
            ("-1", 2, "not a shard"),
            ("1-", 2, "not a shard"),
            ("0-1-2", 4, "not a shard"),
            ("99999999999", 4, "not a shard"),
            ("+1", 4, "not a shard"),
        ] {
            let e = ShardRange::parse(spec, count).unwrap_err().to_string();
            assert!(e.contains(says), "{spec} of {count}: {e}");
        }
    }

    #[test]
    fn a_range_owns_the_guilds_discord_routes_to_its_shards() {
        let r = ShardRange::parse("1-2", 4).unwrap();
        // Discord's formula: the id's timestamp bits (above 22) modulo count.
        let on = |shard: i64| ((shard + 4 * 1000) << 22) | 0x2a;
        assert!(!r.owns(on(0)));
        assert!(r.owns(on(1)));
        assert!(r.owns(on(2)));
        assert!(!r.owns(on(3)));
        assert_eq!(
            r.shard_of(41_771_983_423_143_937),
            ((41_771_983_423_143_937u64 >> 22) % 4) as u32
        );
        let all = ShardRange::all(1);
        assert!(all.owns(on(3)) && all.owns(0));
    }
}
