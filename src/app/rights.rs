//! Who may do what: the FC (game master) is anyone with Manage Server, or
//! with the role the server named as FC role.

use super::settings::{self, GuildSettings};
use super::{AppError, Caller};
use crate::storage::Tx;

/// Whether the caller is the FC under these settings.
pub fn is_fc_with(s: &GuildSettings, caller: &Caller) -> bool {
    caller.manage_guild || s.fc_role.is_some_and(|r| caller.roles.contains(&r))
}

/// Whether the caller is the FC in their guild.
pub async fn is_fc(tx: &mut Tx, caller: &Caller) -> Result<bool, AppError> {
    Ok(is_fc_with(
        &settings::guild(tx, caller.guild_id).await?,
        caller,
    ))
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
    let s = settings::guild(tx, caller.guild_id).await?;
    if is_fc_with(&s, caller) {
        return Ok(());
    }
    Err(refusal(&s, gm, what))
}

/// The refusal of a game-master action: "Only the {gm} can {what}: that is
/// {who holds the role}."
pub fn refusal(s: &GuildSettings, gm: &str, what: &str) -> AppError {
    let who = match s.fc_role {
        Some(r) => format!("members with the <@&{r}> role or the Manage Server permission"),
        None => "members with the Manage Server permission (a server manager can name an FC role with `/fc role`)".into(),
    };
    AppError::user(format!("Only the {gm} can {what}: that is {who}."))
}
