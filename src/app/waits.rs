//! Whom a play-by-post game waits on (issue 32 item 3). An action's
//! [`Outcome`](super::pipeline::Outcome) says whom its session now waits
//! on ([`Outcome::waits_on`](super::pipeline::Outcome::waits_on): an
//! offered aid on the roller, a willpower choice on the roller); a
//! tracker's turn waits on the member whose turn it is without asking
//! ([`super::turn_ping`]). In a play-by-post game the pipeline records the
//! waits ([`settle`], `storage::waits`), pings each waited-on member once,
//! in the game's channel, with one short line that mentions nobody else,
//! and clears the waits when the session closes or moves on; `/game
//! waiting` lists them. Live games and channels in no game record nothing
//! and ping nobody.

use super::{AppError, Caller, Reply, View};
use crate::storage::games::Gm;
use crate::storage::waits::GAME_MASTERS;
use crate::storage::{self, Tx};

/// Whom a session waits on.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Waiter {
    /// A member (user id).
    Member(i64),
    /// The game's game masters (an approval request).
    GameMasters,
}

impl Waiter {
    /// Its `member_id` as stored.
    fn id(self) -> i64 {
        match self {
            Waiter::Member(id) => id,
            Waiter::GameMasters => GAME_MASTERS,
        }
    }
}

/// One wait of a session: whom on, what for.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Wait {
    /// Whom it waits on.
    pub who: Waiter,
    /// What for ("Bea's willpower choice").
    pub what: String,
    /// Its ping is made elsewhere (a tracker's turn ping).
    pinged: bool,
}

impl Wait {
    /// A wait on `who` for `what`, pinged when first recorded.
    pub fn on(who: Waiter, what: impl Into<String>) -> Self {
        Wait {
            who,
            what: what.into(),
            pinged: false,
        }
    }

    /// A tracker's turn, whose ping is the turn's own
    /// ([`super::turn_ping`]).
    pub fn turn(member: i64, what: impl Into<String>) -> Self {
        Wait {
            pinged: true,
            ..Wait::on(Waiter::Member(member), what)
        }
    }
}

/// Records that session `session` now waits on `waits` (none when it is
/// not `open`) in the play-by-post game the caller acts in, and returns
/// the pings of the waits that are new: one public line per member (or
/// the game masters), mentioning them only. Waits the session no longer
/// has are dropped. Outside a live play-by-post game: nothing.
pub async fn settle(
    tx: &mut Tx,
    caller: &Caller,
    session: i64,
    open: bool,
    waits: Vec<Wait>,
) -> Result<Vec<Reply>, AppError> {
    let Some(game) = super::games::live_here(tx, caller)
        .await?
        .filter(|g| g.pace == "post")
    else {
        return Ok(Vec::new());
    };
    if !open {
        storage::waits::clear(tx, session).await?;
        return Ok(Vec::new());
    }
    let stored = storage::waits::members(tx, session).await?;
    let mut wanted: Vec<Wait> = Vec::with_capacity(waits.len());
    for w in waits {
        if !wanted.iter().any(|o| o.who == w.who) {
            wanted.push(w);
        }
    }
    for &m in &stored {
        if !wanted.iter().any(|w| w.who.id() == m) {
            storage::waits::remove(tx, session, m).await?;
        }
    }
    let now = tx.now_ms();
    let mut pings = Vec::new();
    for w in wanted.iter().filter(|w| !stored.contains(&w.who.id())) {
        storage::waits::add(
            tx,
            caller.guild_id,
            game.id,
            session,
            w.who.id(),
            &w.what,
            now,
        )
        .await?;
        if w.pinged {
            continue;
        }
        let line = format!(
            "⏳ {} waits on you: {}.",
            super::games::bold(&game.name),
            w.what
        );
        let view = match w.who {
            Waiter::Member(id) => Some(View::default().ping(id, &line)),
            Waiter::GameMasters => {
                let gms = storage::games::gms(tx, game.id).await?;
                gm_ping(&gms, &line)
            }
        };
        pings.extend(view.map(Reply::Message));
    }
    Ok(pings)
}

/// One line pinging every game master of a game (its members and roles),
/// nobody else; `None` when it names none.
fn gm_ping(gms: &[Gm], line: &str) -> Option<View> {
    if gms.is_empty() {
        return None;
    }
    let mut view = View::default();
    let mut mentions = Vec::with_capacity(gms.len());
    for gm in gms {
        match *gm {
            Gm::Member(id) => {
                mentions.push(format!("<@{id}>"));
                view.pings.push(id);
            }
            Gm::Role(id) => {
                mentions.push(format!("<@&{id}>"));
                view.ping_roles.push(id);
            }
        }
    }
    view.content = Some(format!("{} {line}", mentions.join(" ")));
    Some(view)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_game_masters_ping_names_them_only() {
        let v = gm_ping(&[Gm::Member(7), Gm::Role(9)], "⏳ x").expect("a ping");
        assert_eq!(v.content.as_deref(), Some("<@7> <@&9> ⏳ x"));
        assert_eq!(v.pings, [7]);
        assert_eq!(v.ping_roles, [9]);
        assert!(gm_ping(&[], "x").is_none());
    }
}
