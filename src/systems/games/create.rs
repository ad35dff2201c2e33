//! `/game-gm create name: system:`: a server manager or the server's FC role
//! starts a game in the channel it runs in, which becomes the game's first
//! channel; the creator becomes its first game master.

use super::Turn;
use crate::app::games::{self, Gm, MAX_GAMES, MAX_NAME};
use crate::app::rights::Authority;
use crate::app::{settings, App, AppError, AppResult, Caller};
use crate::storage::games as stored;

/// Creates the game `name` playing `system` (a registry id) here.
pub async fn create(app: &App, caller: &Caller, name: &str, system: &str) -> AppResult {
    let name = name.trim();
    if name.is_empty() {
        return Err(AppError::user("A game needs a name."));
    }
    if name.chars().count() > MAX_NAME {
        return Err(AppError::user(format!(
            "A game's name is at most {MAX_NAME} characters."
        )));
    }
    if name.chars().any(char::is_control) {
        return Err(AppError::user(
            "A game's name cannot contain control characters (a line break, a tab).",
        ));
    }
    let Some(sys) = app.registry.get(system).filter(|s| s.playable()) else {
        return Err(AppError::user("That is not one of the listed systems."));
    };
    let mut turn = Turn::begin(app, caller).await?;
    let act = turn.act();
    let s = settings::guild(act, caller.guild_id).await?;
    let server = Authority::Server { fc_role: s.fc_role };
    if !server.admits(caller) {
        return Err(server.refusal("FC", "create a game"));
    }
    if let Some(other) = games::live_here(act, caller).await? {
        return Err(AppError::user(format!(
            "This channel belongs to the game {} already: create the new game in another channel, or `/game-gm channel remove` this one from it first.",
            games::bold(&other.name)
        )));
    }
    if stored::count_live(act, caller.guild_id).await? >= MAX_GAMES {
        return Err(AppError::user(format!(
            "This server has {MAX_GAMES} games running, the most it may: end one with `/game-gm end` first."
        )));
    }
    let now = app.clock.now_ms();
    let text = format!(
        "{} plays **{}** in <#{}>, with <@{}> as its game master. Add channels with `/game-gm channel add`, game masters with `/game-gm gm add`; players join with `/game` here.",
        games::bold(name),
        sys.name(),
        caller.channel_id,
        caller.user_id
    );
    let (guild, channel, creator) = (caller.guild_id, caller.channel_id, caller.user_id);
    let (name, shown, system) = (name.to_string(), games::bold(name), sys.id());
    let out = super::change("game_create", "Game created", text, move |tx| {
        Box::pin(async move {
            let Some(id) = stored::create(tx, guild, &name, system, now).await? else {
                return Err(AppError::user(format!(
                    "This server has a game named {shown} already (names are compared in any case): choose another name."
                )));
            };
            stored::add_channel(tx, guild, id, channel).await?;
            stored::add_gm(tx, guild, id, Gm::Member(creator)).await?;
            Ok(())
        })
    });
    turn.finish(out).await
}
