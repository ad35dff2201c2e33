//! Whom a game waits on (issue 32 item 3), for the `/game` card
//! ([`super::card`]): each open roll, prompt, turn or request that waits
//! on a member (or the game masters), what for, since when, with a link
//! to its message. Only a play-by-post game records waits
//! ([`crate::app::waits`]).

use crate::app::games::{self, Game};
use crate::app::view::limits;
use crate::app::AppError;
use crate::storage::waits::{self, Listed, GAME_MASTERS};
use crate::storage::Tx;

/// The most waits listed.
const MAX_LISTED: i64 = 25;

/// Whom `game` waits on at `now`, one line each (or why nobody), short
/// enough for an embed field.
pub async fn text(tx: &mut Tx, guild_id: i64, game: &Game, now: i64) -> Result<String, AppError> {
    let listed = waits::open_in(tx, guild_id, game.id, now, MAX_LISTED).await?;
    let mut text = if listed.is_empty() {
        if game.pace == "post" {
            format!("{} waits on nobody.", games::bold(&game.name))
        } else {
            format!(
                "{} plays live: nobody is waited on between sessions. A game master sets `/game-gm pace pace:post` for play by post.",
                games::bold(&game.name)
            )
        }
    } else {
        listed
            .iter()
            .map(|w| line(guild_id, w))
            .collect::<Vec<_>>()
            .join("\n")
    };
    crate::app::view::truncate(&mut text, limits::FIELD_VALUE);
    Ok(text)
}

/// One wait: whom on, what for, since when, and where.
fn line(guild_id: i64, w: &Listed) -> String {
    let who = if w.member_id == GAME_MASTERS {
        "the game masters".to_string()
    } else {
        format!("<@{}>", w.member_id)
    };
    let since = format!("<t:{}:R>", w.since.div_euclid(1000));
    let place = match w.message_id {
        Some(m) => format!(
            "[the message](https://discord.com/channels/{guild_id}/{}/{m})",
            w.channel_id
        ),
        None => format!("<#{}>", w.channel_id),
    };
    format!("• {who}: {} · since {since} · {place}", w.what)
}
#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_wait_links_its_message() {
        let w = Listed {
            session_id: 1,
            member_id: 7,
            what: "Bea's willpower choice".into(),
            since: 1_800_000_000_123,
            channel_id: 5,
            message_id: Some(9),
        };
        assert_eq!(
            line(3, &w),
            "• <@7>: Bea's willpower choice · since <t:1800000000:R> · [the message](https://discord.com/channels/3/5/9)"
        );
        let gms = Listed {
            member_id: GAME_MASTERS,
            message_id: None,
            ..w
        };
        assert_eq!(
            line(3, &gms),
            "• the game masters: Bea's willpower choice · since <t:1800000000:R> · <#5>"
        );
    }
}
