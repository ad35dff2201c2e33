//! Secret rolls: only the roller and the FC see them.
//!
//! A roll-starting command with `secret:true` runs with
//! [`Caller::secret`] set. Before anything is rolled, [`check`] refuses
//! unless the FC set a GM channel (nothing may leak into the table's
//! channel). The action then runs as usual: its log entries are marked
//! secret ([`super::log::record_id`]), and every session it starts is
//! marked secret here ([`mark`], called by [`super::sessions::create`] in
//! the action's transaction). The adapter sends the roller a private copy
//! and posts another in the GM channel, and records where that copy is and
//! which token edits the roller's copy ([`update`]); clicks on either copy
//! are checked against the same session version, are logged as secret too
//! (the click dispatcher sets [`Caller::secret`] for a marked session), and
//! the adapter mirrors each change onto the other copy.
//!
//! Secrecy is a column: the session's `secret` (and each log entry's
//! `secret`, see [`super::log`]). Where the two copies are lives beside it
//! in `channel_state` under the session's channel, key
//! `secret_session:<id>`, as JSON ([`SecretSession`]). (Before migration
//! 0060 that row alone marked a session secret; the migration filled the
//! column from it.)

use serde::{Deserialize, Serialize};

use super::{settings, App, AppError, Caller};
use crate::app::Act;
use crate::storage::{self, sessions::Session, Tx};

/// What is known about a secret session's two copies.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default)]
pub struct SecretSession {
    /// The GM channel its copy goes to (as set when it started).
    pub gm_channel: Option<i64>,
    /// The copy's message in the GM channel, once posted.
    pub gm_message: Option<i64>,
    /// The latest interaction token that can edit the roller's private copy.
    pub token: Option<String>,
    /// When that token was issued (ms; tokens last 15 minutes).
    pub token_at: Option<i64>,
}

/// The note above the roller's private copy (`gm`: the system's word for
/// the game master).
pub fn roller_note(gm: &str) -> String {
    format!("🤫 **Secret roll**: only you and the {gm} see it.")
}

/// The note above the copy in the GM channel; the roller's display name
/// reads as typed (escaped, never a mention).
pub fn gm_note(caller_name: &str, channel_id: i64) -> String {
    let name = super::view::escape(&super::view::plain(caller_name));
    format!("🤫 Secret roll by **{name}** in <#{channel_id}>")
}

fn key(session_id: i64) -> String {
    format!("secret_session:{session_id}")
}

/// The GM channel a secret action of `caller` goes to: the caller's
/// game's own (issue 32), else the server's; refuses (nothing is rolled)
/// when neither is set.
pub async fn gm_channel(tx: &mut Tx, caller: &Caller) -> Result<i64, AppError> {
    gm_channel_here(tx, caller).await?.ok_or_else(|| {
        AppError::user(
            "No GM channel is set, so a secret roll has nowhere to go and nothing was rolled. \
                 The FC can set one with `/fc gm-channel`; or roll without `secret`.",
        )
    })
}

/// The GM channel of `caller`'s channel: its live game's own, else the
/// server's (`None`: neither is set).
async fn gm_channel_here(tx: &mut Tx, caller: &Caller) -> Result<Option<i64>, AppError> {
    let game = super::games::live_here(tx, caller).await?;
    if let Some(own) = game.and_then(|g| g.gm_channel) {
        return Ok(Some(own));
    }
    Ok(settings::guild(tx, caller.guild_id).await?.gm_channel)
}

/// Refuses a secret action when no GM channel is set; allows everything else.
pub async fn check(app: &App, caller: &Caller) -> Result<Option<i64>, AppError> {
    if !caller.secret {
        return Ok(None);
    }
    let mut tx = app.db.glance().await?;
    gm_channel(&mut tx, caller).await.map(Some)
}

/// Marks a session started by a secret caller as secret (in the caller's
/// transaction).
pub async fn mark(tx: &mut Tx, caller: &Caller, session_id: i64) -> Result<(), AppError> {
    storage::sessions::mark_secret(tx, caller.guild_id, session_id).await?;
    let gm = gm_channel_here(tx, caller).await?;
    let s = SecretSession {
        gm_channel: gm,
        ..SecretSession::default()
    };
    storage::settings::channel_put(
        tx,
        caller.guild_id,
        caller.channel_id,
        &key(session_id),
        &serde_json::to_string(&s)?,
        storage::now_ms(),
    )
    .await?;
    Ok(())
}

/// The secret marker of a session, if it is secret (its `secret` column,
/// read with the row; where its copies are comes from its `channel_state`
/// row, empty when it has none). `session` must have been read in `tx`.
pub async fn of_session(tx: &mut Tx, session: &Session) -> Result<Option<SecretSession>, AppError> {
    if !session.secret {
        return Ok(None);
    }
    match storage::settings::channel_get(tx, session.guild_id, session.channel_id, &key(session.id))
        .await?
    {
        Some(json) => Ok(Some(serde_json::from_str(&json)?)),
        None => Ok(Some(SecretSession::default())),
    }
}

/// Whether `caller` may see `session` at all: anyone a public one, a
/// secret one only its roller and the game master. Checked before
/// anything about a session is shown or done (a click's answer, even a
/// stale one's); `session` must have been read in `tx` or before it.
pub async fn may_see(tx: &mut Tx, session: &Session, caller: &Caller) -> Result<bool, AppError> {
    Ok(!session.secret || is_reader(tx, session, caller).await?)
}

/// Whether `caller` is the one `session` was made for or the game master:
/// who may see a secret session, or a private one (a `/history` list, an
/// undo prompt) drawn again for a click.
pub async fn is_reader(tx: &mut Tx, session: &Session, caller: &Caller) -> Result<bool, AppError> {
    Ok(caller.user_id == session.owner_id || super::rights::is_fc(tx, caller).await?)
}

/// A session's number as the readers of its message see it (a roll's
/// "Roll #N"): a public session's place among the guild's public sessions
/// of its kind, a secret one's among its roller's own secret ones. Its id
/// would leave gaps where hidden sessions (and other servers') started.
pub async fn number(tx: &mut Tx, session: &Session) -> Result<i64, AppError> {
    let secret_of = session.secret.then_some(session.owner_id);
    Ok(
        storage::sessions::count_seen(tx, session.guild_id, &session.kind, session.id, secret_of)
            .await?,
    )
}

/// Whether the session `session_id` of the guild is secret (in the
/// caller's transaction).
pub async fn is_secret(tx: &mut Tx, guild_id: i64, session_id: i64) -> Result<bool, AppError> {
    Ok(storage::sessions::is_secret(tx, guild_id, session_id).await?)
}

/// The secret marker of a session by id (in the guild), if it is secret.
pub async fn lookup(
    app: &App,
    guild_id: i64,
    session_id: i64,
) -> Result<Option<SecretSession>, AppError> {
    let mut tx = app.db.glance().await?;
    lookup_in(&mut tx, guild_id, session_id).await
}

/// [`lookup`] in a transaction the caller holds. Most sessions are not
/// secret: that is one query (the session's row), and only a secret one
/// reads the rest.
pub async fn lookup_in(
    tx: &mut Tx,
    guild_id: i64,
    session_id: i64,
) -> Result<Option<SecretSession>, AppError> {
    let Some(session) = storage::sessions::get(tx, guild_id, session_id).await? else {
        return Ok(None);
    };
    of_session(tx, &session).await
}

/// Changes a secret session's marker (where its copies are); does nothing
/// for a session that is not secret.
pub async fn update(
    app: &App,
    guild_id: i64,
    session_id: i64,
    change: impl FnOnce(&mut SecretSession),
) -> Result<(), AppError> {
    let mut tx = Act::housekeeping(app, guild_id).await?;
    let Some(session) = storage::sessions::get(&mut tx, guild_id, session_id).await? else {
        return Ok(());
    };
    let Some(mut s) = of_session(&mut tx, &session).await? else {
        return Ok(());
    };
    change(&mut s);
    storage::settings::channel_put(
        &mut tx,
        guild_id,
        session.channel_id,
        &key(session_id),
        &serde_json::to_string(&s)?,
        storage::now_ms(),
    )
    .await?;
    tx.commit().await?;
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_gm_note_shows_the_display_name_as_typed() {
        assert_eq!(
            gm_note("bo_b*", 5),
            r"🤫 Secret roll by **bo\_b\*** in <#5>"
        );
        assert_eq!(
            gm_note("<@1>", 5),
            "🤫 Secret roll by **<@\u{200B}1>** in <#5>"
        );
    }
}
