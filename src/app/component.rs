//! Buttons and selects: the custom_id format and the global dispatcher.
//!
//! A custom_id reads `kind:session:version:action[:arg]`, with the session
//! id and version in base 36, e.g. `roll:1z:3:reroll`. The kind names the
//! system that owns the session ([`crate::systems`]); the version lets a
//! stale or double click be recognised and answered with the current state
//! instead of being applied twice.

use crate::app::Act;
use crate::app::{App, AppError, AppResult, Caller, Reply, Response, View};
use crate::storage::sessions::Status;
use crate::storage::{self, sessions::Session};

/// A parsed custom_id.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ButtonId {
    /// The owning system's session kind.
    pub kind: String,
    /// The session id.
    pub session: i64,
    /// The session version the button was drawn for.
    pub version: i64,
    /// What the button does.
    pub action: String,
    /// An optional argument.
    pub arg: Option<String>,
}

impl ButtonId {
    /// A button id for `session` at `version`.
    pub fn new(kind: &str, session: i64, version: i64, action: &str) -> Self {
        Self {
            kind: kind.to_string(),
            session,
            version,
            action: action.to_string(),
            arg: None,
        }
    }

    /// The same id with an argument.
    pub fn with_arg(mut self, arg: impl Into<String>) -> Self {
        self.arg = Some(arg.into());
        self
    }

    /// The custom_id text.
    pub fn encode(&self) -> String {
        let mut s = format!(
            "{}:{}:{}:{}",
            self.kind,
            to_base36(self.session),
            to_base36(self.version),
            self.action
        );
        if let Some(a) = &self.arg {
            s.push(':');
            s.push_str(a);
        }
        s
    }

    /// Parses a custom_id; `None` for anything malformed.
    pub fn parse(s: &str) -> Option<Self> {
        if s.len() > 100 {
            return None;
        }
        let mut parts = s.splitn(5, ':');
        let kind = parts.next()?;
        let session = from_base36(parts.next()?)?;
        let version = from_base36(parts.next()?)?;
        let action = parts.next()?;
        let arg = parts.next().map(str::to_string);
        let word =
            |w: &str| !w.is_empty() && w.bytes().all(|b| b.is_ascii_alphanumeric() || b == b'_');
        if !word(kind) || !word(action) {
            return None;
        }
        Some(Self {
            kind: kind.to_string(),
            session,
            version,
            action: action.to_string(),
            arg,
        })
    }
}

/// A system's buttons and menus as one typed enum, encoded into and parsed
/// from a custom_id side by side (the `action[:arg]` part of
/// `kind:session:version:action[:arg]`). The words are part of every
/// message already posted: keep them when renaming a variant, so old
/// buttons keep working after an upgrade.
pub trait Action: Sized {
    /// The action word and its optional argument.
    fn encode(&self) -> (&'static str, Option<String>);

    /// Reads an action word and argument back; `None` when they are not
    /// one of this system's actions.
    fn parse(action: &str, arg: Option<&str>) -> Option<Self>;

    /// The button id of this action on `session` at `version`.
    fn button(&self, kind: &str, session: i64, version: i64) -> ButtonId {
        let (action, arg) = self.encode();
        let id = ButtonId::new(kind, session, version, action);
        match arg {
            Some(a) => id.with_arg(a),
            None => id,
        }
    }
}

impl Click<'_> {
    /// The clicked action, typed; a click that is not one of `A`'s is
    /// refused with a clear message (and changes nothing).
    pub fn action<A: Action>(&self) -> Result<A, AppError> {
        A::parse(&self.id.action, self.id.arg.as_deref()).ok_or_else(|| {
            AppError::user(
                "That button is not one I recognise; it may belong to an older version of the bot.",
            )
        })
    }
}

/// `n` in base 36 (lower case).
pub fn to_base36(mut n: i64) -> String {
    if n <= 0 {
        return "0".into();
    }
    let mut digits = Vec::new();
    while n > 0 {
        let d = (n % 36) as u8;
        digits.push(if d < 10 { b'0' + d } else { b'a' + d - 10 });
        n /= 36;
    }
    digits.reverse();
    String::from_utf8(digits).unwrap_or_default()
}

/// Parses base 36; `None` on anything else or overflow.
pub fn from_base36(s: &str) -> Option<i64> {
    if s.is_empty() || s.len() > 12 {
        return None;
    }
    i64::from_str_radix(s, 36).ok().filter(|n| *n >= 0)
}

/// A click, after the session was found and checked.
pub struct Click<'a> {
    /// The parsed custom_id.
    pub id: &'a ButtonId,
    /// Values picked in a select menu (empty for buttons).
    pub values: &'a [String],
    /// Who clicked.
    pub caller: &'a Caller,
}

/// Handles any click: finds the session (in the caller's guild only),
/// answers stale clicks with the current state, and hands the rest to the
/// owning system inside one write transaction.
pub async fn dispatch(app: &App, caller: &Caller, custom_id: &str, values: &[String]) -> AppResult {
    let id = ButtonId::parse(custom_id).ok_or_else(|| {
        AppError::user(
            "That button is not one I recognise; it may belong to an older version of the bot.",
        )
    })?;
    if values.len() > 25 || values.iter().any(|v| v.len() > 100) {
        return Err(AppError::user("That selection is not valid."));
    }
    // Unknown and stale clicks (double clicks, old messages) are answered
    // from a read, without queueing for the write lock: under a burst of
    // clicks most are stale. Versions only grow, so a stale read is final.
    let known = {
        let mut rtx = app.db.read().await?;
        storage::sessions::get(&mut rtx, caller.guild_id, id.session).await?
    };
    match known.filter(|s| s.kind == id.kind) {
        None => return Err(AppError::user("That roll no longer exists (or never did).")),
        Some(s) if s.version != id.version => return stale(app, &s, caller).await,
        Some(_) => {}
    }
    let mut tx = Act::begin(app, caller).await?;
    let session = storage::sessions::get(&mut tx, caller.guild_id, id.session)
        .await?
        .filter(|s| s.kind == id.kind)
        .ok_or_else(|| AppError::user("That roll no longer exists (or never did)."))?;
    // Clicks on a secret roll stay secret (logged as such, new sessions marked).
    let secret_caller;
    let caller = if !caller.secret
        && super::secret::of_session(&mut tx, &session)
            .await?
            .is_some()
    {
        secret_caller = caller.clone().secretly(true);
        &secret_caller
    } else {
        caller
    };
    let click = Click {
        id: &id,
        values,
        caller,
    };
    if session.version != id.version {
        // A double click or an old message: show the current state, change nothing.
        drop(tx);
        return stale(app, &session, caller).await;
    }
    let now = storage::now_ms();
    if session.status == Status::Open && session.expires_at.is_some_and(|t| t <= now) {
        let mut expired = session.clone();
        if let Some(v) = storage::sessions::update(
            &mut tx,
            session.id,
            session.version,
            &session.state,
            Status::Expired,
            session.expires_at,
            now,
        )
        .await?
        {
            expired.version = v;
            expired.status = Status::Expired;
        }
        tx.commit().await?;
        let view = app.registry.render(app, &expired, caller).await?;
        return Ok(Response::update(view).then(Reply::Ephemeral(View::text(
            "That roll timed out, so its buttons no longer do anything.",
        ))));
    }
    if session.status != Status::Open {
        drop(tx);
        let view = app.registry.render(app, &session, caller).await?;
        let note = closed_note(session.status).unwrap_or("That roll is already finished.");
        return Ok(Response::update(view).then(Reply::Ephemeral(View::text(note))));
    }
    app.registry.click(app, tx, session, &click).await
}

async fn stale(app: &App, session: &Session, caller: &Caller) -> AppResult {
    let view = app.registry.render(app, session, caller).await?;
    let response = Response::update(view);
    // A double click on a button that finished the roll needs no note; a
    // timeout or a void the clicker may not have seen does.
    Ok(match session.status {
        Status::Expired | Status::Voided => match closed_note(session.status) {
            Some(note) => response.then(Reply::Ephemeral(View::text(note))),
            None => response,
        },
        _ => response,
    })
}

/// Why a closed session's buttons do nothing.
fn closed_note(status: Status) -> Option<&'static str> {
    match status {
        Status::Open => None,
        Status::Expired => Some("That roll timed out, so its buttons no longer do anything."),
        Status::Voided => Some("The FC voided that roll."),
        _ => Some("That roll is already finished."),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn custom_ids_round_trip() {
        let id = ButtonId::new("roll", 123456, 7, "reroll");
        assert_eq!(id.encode(), "roll:2n9c:7:reroll");
        assert_eq!(ButtonId::parse(&id.encode()), Some(id.clone()));
        let with = id.with_arg("3,4");
        assert_eq!(
            ButtonId::parse(&with.encode()).unwrap().arg.as_deref(),
            Some("3,4")
        );
    }

    #[test]
    fn forged_custom_ids_are_refused() {
        for bad in [
            "",
            "roll",
            "roll:zz",
            "roll:1:1",
            "ro ll:1:1:x",
            "roll:-1:0:x",
            "roll:1:1:",
            "roll:zzzzzzzzzzzzz:0:x",
        ] {
            assert_eq!(ButtonId::parse(bad), None, "{bad}");
        }
        assert_eq!(ButtonId::parse(&"a".repeat(101)), None);
    }
}
