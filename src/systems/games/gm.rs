//! `/game-gm gm add|remove member:|role:`: a game's game masters, members or
//! roles (at most 25). In the game's channels they are the game master,
//! as server managers always are.

use super::Turn;
use crate::app::games::{self, Gm, MAX_GMS};
use crate::app::{App, AppError, AppResult, Caller};
use crate::storage::games as stored;

/// The one member or role a command names.
pub fn named(member: Option<i64>, role: Option<i64>) -> Result<Gm, AppError> {
    match (member, role) {
        (Some(m), None) => Ok(Gm::Member(m)),
        (None, Some(r)) => Ok(Gm::Role(r)),
        _ => Err(AppError::user("Name either a `member` or a `role`.")),
    }
}

fn mention(gm: Gm) -> String {
    match gm {
        Gm::Member(id) => format!("<@{id}>"),
        Gm::Role(id) => format!("the <@&{id}> role"),
    }
}

/// Makes `gm` a game master of the game of the caller's channel.
pub async fn add(app: &App, caller: &Caller, gm: Gm) -> AppResult {
    let mut turn = Turn::begin(app, caller).await?;
    let act = turn.act();
    let game = super::live_here(act, caller).await?;
    super::require_manager(act, caller, &game, "name its game masters").await?;
    let gms = stored::gms(act, game.id).await?;
    if gms.contains(&gm) {
        return Err(AppError::user(format!(
            "{} is a game master of {} already.",
            mention(gm),
            games::bold(&game.name)
        )));
    }
    if gms.len() >= MAX_GMS {
        return Err(AppError::user(format!(
            "{} has {MAX_GMS} game masters, the most a game may: remove one first, or name a role.",
            games::bold(&game.name)
        )));
    }
    let text = format!(
        "{} is now a game master of {}: in its channels, the game master.",
        mention(gm),
        games::bold(&game.name)
    );
    let (guild, id) = (caller.guild_id, game.id);
    let out = super::change("game_gm_add", "Game master added", text, move |tx| {
        Box::pin(async move {
            stored::add_gm(tx, guild, id, gm).await?;
            Ok(())
        })
    });
    turn.finish(out).await
}

/// Takes `gm` off the game masters of the game of the caller's channel.
pub async fn remove(app: &App, caller: &Caller, gm: Gm) -> AppResult {
    let mut turn = Turn::begin(app, caller).await?;
    let act = turn.act();
    let game = super::live_here(act, caller).await?;
    super::require_manager(act, caller, &game, "name its game masters").await?;
    if !stored::gms(act, game.id).await?.contains(&gm) {
        return Err(AppError::user(format!(
            "{} is not a game master of {}.",
            mention(gm),
            games::bold(&game.name)
        )));
    }
    let text = format!(
        "{} is no longer a game master of {}.",
        mention(gm),
        games::bold(&game.name)
    );
    let id = game.id;
    let out = super::change("game_gm_remove", "Game master removed", text, move |tx| {
        Box::pin(async move {
            stored::remove_gm(tx, id, gm).await?;
            Ok(())
        })
    });
    turn.finish(out).await
}
