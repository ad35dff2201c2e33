//! Who may do what: the FC (game master) is anyone with Manage Server, or
//! with the role the server named as FC role. In a live game's channels
//! ([`super::games`]) the game's own game masters take the FC role's place:
//! the members and roles the game names, and server managers.

use super::games::{self, Gm};
use super::settings::{self, GuildSettings};
use super::{AppError, Caller};
use crate::storage::Tx;

/// Who is the game master where an action happens.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Authority {
    /// Outside every game: server managers and the server's FC role.
    Server {
        /// The server's FC role, if it named one.
        fc_role: Option<i64>,
    },
    /// In a live game's channels: its game masters and server managers.
    Game {
        /// The game's name.
        name: String,
        /// Its game masters.
        gms: Vec<Gm>,
    },
}

impl Authority {
    /// Whether the caller is the game master here.
    pub fn admits(&self, caller: &Caller) -> bool {
        match self {
            Authority::Server { fc_role } => {
                caller.manage_guild || fc_role.is_some_and(|r| caller.roles.contains(&r))
            }
            Authority::Game { gms, .. } => games::admits(gms, caller),
        }
    }

    /// The refusal of a game-master action: "Only the {gm} can {what}: that
    /// is {who holds the role}."
    pub fn refusal(&self, gm: &str, what: &str) -> AppError {
        let who = match self {
            Authority::Server { fc_role: Some(r) } => {
                format!("members with the <@&{r}> role or the Manage Server permission")
            }
            Authority::Server { fc_role: None } => "members with the Manage Server permission (a server manager can name an FC role with `/fc role`)".into(),
            Authority::Game { name, gms } => format!(
                "in the game {}, its game masters ({}) or a server manager",
                games::bold(name),
                games::gm_mentions(gms)
            ),
        };
        AppError::user(format!("Only the {gm} can {what}: that is {who}."))
    }
}

/// Who is the game master where the caller acts, under the guild's
/// settings `s` (read already).
pub async fn authority(
    tx: &mut Tx,
    caller: &Caller,
    s: &GuildSettings,
) -> Result<Authority, AppError> {
    Ok(match games::live_here(tx, caller).await? {
        Some(game) => Authority::Game {
            gms: crate::storage::games::gms(tx, game.id).await?,
            name: game.name,
        },
        None => Authority::Server { fc_role: s.fc_role },
    })
}

/// Who is the game master where the caller acts, the guild's settings
/// read here.
async fn authority_here(tx: &mut Tx, caller: &Caller) -> Result<Authority, AppError> {
    let s = settings::guild(tx, caller.guild_id).await?;
    authority(tx, caller, &s).await
}

/// The refusal of the game-master action `what` where the caller acts
/// ([`Authority::refusal`]), for a caller found not to be the game master
/// (`gm`: the system's word for them).
pub async fn refusal(tx: &mut Tx, caller: &Caller, gm: &str, what: &str) -> AppError {
    match authority_here(tx, caller).await {
        Ok(a) => a.refusal(gm, what),
        Err(e) => e,
    }
}

/// Whether the caller is the game master where they act, under the
/// guild's settings `s` (read already).
pub async fn is_fc_in(tx: &mut Tx, caller: &Caller, s: &GuildSettings) -> Result<bool, AppError> {
    Ok(authority(tx, caller, s).await?.admits(caller))
}

/// Whether the caller is the FC where they act.
pub async fn is_fc(tx: &mut Tx, caller: &Caller) -> Result<bool, AppError> {
    Ok(authority_here(tx, caller).await?.admits(caller))
}

/// Refuses unless the caller is the FC; `what` completes "Only the FC can …".
/// Systems whose rules name the game master otherwise use [`require_gm`].
pub async fn require_fc(tx: &mut Tx, caller: &Caller, what: &str) -> Result<(), AppError> {
    require_gm(tx, caller, "FC", what).await
}

/// Refuses unless the caller is the game master, named `gm` as the system's
/// rules call them (`referee`, `storyteller`, `Compiler`, `FC`: see
/// [`System::gm`](super::registry::System::gm)); `what` completes
/// "Only the {gm} can …".
pub async fn require_gm(
    tx: &mut Tx,
    caller: &Caller,
    gm: &str,
    what: &str,
) -> Result<(), AppError> {
    let a = authority_here(tx, caller).await?;
    if a.admits(caller) {
        return Ok(());
    }
    Err(a.refusal(gm, what))
}

/// Refuses unless the caller is the FC of the whole server (a server
/// manager or the server's FC role), wherever they act: for what reaches
/// beyond one game (the GM channel, a channel's system, the shared
/// settings, erasing a member's data). A game's game masters manage
/// their own game only. `what` completes "Only the FC can …".
pub async fn require_server_fc(tx: &mut Tx, caller: &Caller, what: &str) -> Result<(), AppError> {
    let s = settings::guild(tx, caller.guild_id).await?;
    let server = Authority::Server { fc_role: s.fc_role };
    if server.admits(caller) {
        return Ok(());
    }
    let AppError::User(text) = server.refusal("FC", what) else {
        return Err(server.refusal("FC", what));
    };
    Err(AppError::user(format!(
        "{text} A game's game masters manage their own game only."
    )))
}
