//! Many games on one server (issue 32): which game an action is in, and
//! who its game masters are.
//!
//! A game holds channels (a channel, a category, or a thread's parent).
//! An action is in the game that holds its channel, else the one that
//! holds the channel's parent (`Caller::parent_id`, from the interaction:
//! a thread's channel or a channel's category); a live game wins over an
//! archived one. Outside every game nothing changes: the server's FC role
//! and settings rule as before. In a live game its game masters (members
//! and roles it names, and server managers) are the game master
//! ([`super::rights`]), its player's character in it is their active
//! character ([`super::characters`]), and its log entries carry its id
//! ([`super::log`]). In an archived game nothing rolls any more
//! ([`allows_here`]); its log and sheets stay readable.

use super::{AppError, Caller};
pub use crate::storage::games::{Game, Gm, Player};
use crate::storage::Tx;

/// The longest game name.
pub const MAX_NAME: usize = 50;

/// A game's name in bold, shown as typed in prose and field values
/// (`Iron_Crown*` reads "**Iron\_Crown\***" in markdown): it is user-typed
/// text ([`super::view::escape`]). Plain-text places (embed authors and
/// footers, labels, select options, autocomplete choices) and code spans
/// show the name raw.
pub fn bold(name: &str) -> String {
    format!("**{}**", super::view::escape(name))
}

/// The most live games a server may have.
pub const MAX_GAMES: i64 = 25;
/// The most channels a game may hold.
pub const MAX_CHANNELS: usize = 25;
/// The most game masters (members and roles) a game may name.
pub const MAX_GMS: usize = 25;
/// The longest a play-by-post game's rolls wait (days).
pub const MAX_POST_DAYS: i64 = 30;

/// How long (minutes) a session started where the caller acts waits: in
/// a live play-by-post game its days; `None` elsewhere (the server's
/// `session_timeout_minutes` applies).
pub async fn post_minutes(tx: &mut Tx, caller: &Caller) -> Result<Option<u32>, AppError> {
    Ok(live_here(tx, caller)
        .await?
        .filter(|g| g.pace == "post")
        .map(|g| {
            let days = g.post_days.clamp(1, MAX_POST_DAYS);
            u32::try_from(days * 24 * 60).unwrap_or(u32::MAX)
        }))
}

/// Where an action happens: a channel and its parent as the interaction
/// told them, which decide the game it is in ([`here`]), and so its game
/// masters and house rules. Kept with what is answered later elsewhere
/// (an approval request), to act where it was asked.
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct Place {
    /// The channel.
    pub channel_id: i64,
    /// Its parent (a thread's channel, a channel's category), if any.
    pub parent_id: Option<i64>,
}

/// The game the caller's channel is in (live or archived), if any: the
/// channel's own game first, then its parent's; live games before
/// archived ones.
pub async fn here(tx: &mut Tx, caller: &Caller) -> Result<Option<Game>, AppError> {
    at(tx, caller.guild_id, caller.place()).await
}

/// The game `place` of `guild_id` is in (live or archived), if any, as
/// [`here`] finds it: a stored session's place redraws in its game.
pub async fn at(tx: &mut Tx, guild_id: i64, place: Place) -> Result<Option<Game>, AppError> {
    if place.channel_id == 0 {
        return Ok(None);
    }
    let channels = place.channels();
    let found = crate::storage::games::holding(tx, guild_id, &channels).await?;
    let live = found.iter().position(|(g, _)| g.live());
    let mut found = found;
    Ok(match live {
        Some(i) => Some(found.swap_remove(i).0),
        None => found.into_iter().next().map(|(g, _)| g),
    })
}

/// The channels that may put the caller in a game: their channel, then
/// its parent.
pub fn channels_of(caller: &Caller) -> Vec<i64> {
    caller.place().channels()
}

impl Place {
    /// Where a stored session's message lives (its parent unknown on
    /// sessions from before it was kept).
    pub fn of(session: &crate::storage::sessions::Session) -> Place {
        Place {
            channel_id: session.channel_id,
            parent_id: session.parent_id,
        }
    }

    /// The channels that may put this place in a game: the channel, then
    /// its parent.
    pub fn channels(self) -> Vec<i64> {
        let mut channels = vec![self.channel_id];
        if let Some(p) = self.parent_id.filter(|&p| p != 0 && p != self.channel_id) {
            channels.push(p);
        }
        channels
    }
}

/// The live game the caller's channel is in, if any.
pub async fn live_here(tx: &mut Tx, caller: &Caller) -> Result<Option<Game>, AppError> {
    Ok(here(tx, caller).await?.filter(Game::live))
}

/// The character member `user_id` plays in the live game the caller acts
/// in, if that game plays `system` and the member joined it with one
/// (`/game character:`); `None` otherwise: their server-wide active
/// character is theirs here.
pub async fn character_of(
    tx: &mut Tx,
    caller: &Caller,
    system: &str,
    user_id: i64,
) -> Result<Option<crate::storage::characters::Character>, AppError> {
    let Some(game) = live_here(tx, caller).await? else {
        return Ok(None);
    };
    if game.system != system {
        return Ok(None);
    }
    let Some(id) = crate::storage::games::player(tx, game.id, user_id)
        .await?
        .and_then(|p| p.character_id)
    else {
        return Ok(None);
    };
    Ok(crate::storage::characters::get(tx, caller.guild_id, id)
        .await?
        .filter(|c| c.owner_id == user_id && c.system == system))
}

/// Makes `row` its owner's character in the live game the caller acts in,
/// if that game plays its system and the owner plays in it (`/<root> sheet
/// use` in a game's channel); returns that game, or `None` when the
/// character is for the server-wide active one instead.
pub async fn use_here(
    tx: &mut Tx,
    caller: &Caller,
    row: &crate::storage::characters::Character,
) -> Result<Option<Game>, AppError> {
    let Some(game) = live_here(tx, caller).await? else {
        return Ok(None);
    };
    if game.system != row.system
        || crate::storage::games::player(tx, game.id, row.owner_id)
            .await?
            .is_none()
    {
        return Ok(None);
    }
    crate::storage::games::join(
        tx,
        caller.guild_id,
        game.id,
        row.owner_id,
        Some(row.id),
        crate::storage::now_ms(),
    )
    .await?;
    Ok(Some(game))
}

/// Whether `gms` (a game's game masters) name the caller, or the caller
/// manages the server.
pub fn admits(gms: &[Gm], caller: &Caller) -> bool {
    caller.manage_guild
        || gms.iter().any(|g| match *g {
            Gm::Member(id) => id == caller.user_id,
            Gm::Role(id) => caller.roles.contains(&id),
        })
}

/// The game masters as a mention list (`<@1>, <@&2>`), or "nobody yet".
pub fn gm_mentions(gms: &[Gm]) -> String {
    if gms.is_empty() {
        return "nobody yet".into();
    }
    gms.iter()
        .map(|g| match *g {
            Gm::Member(id) => format!("<@{id}>"),
            Gm::Role(id) => format!("<@&{id}>"),
        })
        .collect::<Vec<_>>()
        .join(", ")
}

/// The part of a command's qualified name (`ve sheet show`) that may still
/// run in an archived game's channels: reading sheets (its house rules
/// show on `/game`, which no game refuses).
fn reads_only(qualified: &str) -> bool {
    let rest: Vec<&str> = qualified.split_whitespace().skip(1).collect();
    matches!(rest.as_slice(), ["sheet", "show" | "list" | "export"])
}

/// Whether a command may run in the caller's channel as far as games go:
/// in an archived game's channels nothing of a playable system runs but
/// reading sheets (refused, naming the game); in a live
/// game's channels a playable system's command other than the game's own
/// is refused, naming the game and its system. `root` is the command's
/// root, `qualified` its whole name (`ve sheet show`).
pub async fn allows_here(
    app: &super::App,
    caller: &Caller,
    root: &str,
    qualified: &str,
) -> Result<(), AppError> {
    let Some(system) = app.registry.by_root(root).filter(|s| s.playable()) else {
        return Ok(());
    };
    let mut tx = app.db.glance().await?;
    let game = here(&mut tx, caller).await?;
    drop(tx);
    let Some(game) = game else {
        return Ok(());
    };
    if !game.live() {
        if reads_only(qualified) {
            return Ok(());
        }
        return Err(ended(&game));
    }
    if game.system != system.id() {
        let plays = app.registry.display(&game.system);
        let how = match app
            .registry
            .get(&game.system)
            .and_then(|s| s.command_root())
        {
            Some(r) => format!(" Use `/{r}` here."),
            None => String::new(),
        };
        return Err(AppError::user(format!(
            "This channel belongs to the game {}, which plays **{plays}**, so `/{root}` ({}) is not played here.{how}",
            bold(&game.name),
            system.name()
        )));
    }
    Ok(())
}

/// The refusal of play in an ended game's channels.
fn ended(game: &Game) -> AppError {
    AppError::user(format!(
        "The game {} has ended: nothing is rolled in its channels any more. Its log (`/history`) and sheets stay readable.",
        bold(&game.name)
    ))
}

/// Whether a click on a session of `kind` may run in the caller's channel
/// as far as games go: in an ended game's channels a playable system's
/// sessions (rolls, prompts, trackers) no longer move on.
pub async fn allows_click(app: &super::App, caller: &Caller, kind: &str) -> Result<(), AppError> {
    if !app.registry.by_kind(kind).is_some_and(|s| s.playable()) {
        return Ok(());
    }
    let mut tx = app.db.glance().await?;
    let game = here(&mut tx, caller).await?;
    drop(tx);
    match game {
        Some(g) if !g.live() => Err(ended(&g)),
        _ => Ok(()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A game's game masters are its named members, the holders of its
    /// named roles, and server managers; nobody else.
    #[test]
    fn the_named_members_and_roles_and_managers_are_admitted() {
        let gms = [Gm::Member(7), Gm::Role(9)];
        let who = |user_id, roles: Vec<i64>, manage_guild| Caller {
            user_id,
            roles,
            manage_guild,
            ..Caller::default()
        };
        assert!(admits(&gms, &who(7, vec![], false)));
        assert!(admits(&gms, &who(8, vec![9], false)));
        assert!(admits(&gms, &who(8, vec![], true)));
        assert!(!admits(&gms, &who(8, vec![10], false)));
        assert!(!admits(&[], &who(7, vec![9], false)));
    }

    /// In an archived game only reading sheets runs.
    #[test]
    fn an_archived_game_reads_only() {
        assert!(reads_only("ve sheet show"));
        assert!(reads_only("vr sheet export"));
        assert!(!reads_only("ve task"));
        assert!(!reads_only("ve sheet create"));
        assert!(!reads_only("roll"));
    }
}
