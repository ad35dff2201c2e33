//! The custom_id of a button or menu: `kind:session:version:action[:arg]`,
//! with the session id and version in base 36 (e.g. `roll:1z:3:reroll`),
//! the [`Action`] trait a system's typed buttons implement, and a
//! [`Click`] as the owning system receives it. Views draw buttons with it,
//! the click dispatcher ([`super::component`]) reads them back, and the
//! registry ([`super::registry`]) hands them on.

use super::{AppError, Caller};

/// A click, after the session was found and checked.
pub struct Click<'a> {
    /// The parsed custom_id.
    pub id: &'a ButtonId,
    /// Values picked in a select menu (empty for buttons).
    pub values: &'a [String],
    /// Who clicked.
    pub caller: &'a Caller,
}

impl Click<'_> {
    /// The clicked action, typed; a click that is not one of `A`'s is
    /// refused with a clear message (and changes nothing).
    pub fn action<A: Action>(&self) -> Result<A, AppError> {
        A::read(&self.id.action, self.id.arg.as_deref())
    }
}

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

    /// What the refusal of a word that is none of these actions calls
    /// their message (`a roll`: "Unknown action `x` for a roll."); `None`:
    /// the refusal of a button from an older version of the bot.
    const OF: Option<&'static str> = None;

    /// The refusal of `word`, which is none of these actions ([`Action::OF`]).
    fn unknown(word: &str) -> AppError {
        AppError::user(match Self::OF {
            Some(of) => format!("Unknown action `{word}` for {of}."),
            None => {
                "That button is not one I recognise; it may belong to an older version of the bot."
                    .into()
            }
        })
    }

    /// Reads a clicked action word and argument, refusing any that is none
    /// of these actions ([`Action::unknown`]). A set whose refusals say
    /// more (an argument out of range) overrides it, and its
    /// [`Action::parse`] is then `Self::read(action, arg).ok()`.
    fn read(action: &str, arg: Option<&str>) -> Result<Self, AppError> {
        Self::parse(action, arg).ok_or_else(|| Self::unknown(action))
    }

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

    /// Two made-up button sets: one that names its message, one that does not.
    #[derive(Debug, PartialEq)]
    enum Named {
        Go,
    }
    #[derive(Debug, PartialEq)]
    enum Plain {
        Go,
    }

    impl Action for Named {
        const OF: Option<&'static str> = Some("a toy");
        fn encode(&self) -> (&'static str, Option<String>) {
            ("go", None)
        }
        fn parse(action: &str, _arg: Option<&str>) -> Option<Self> {
            (action == "go").then_some(Named::Go)
        }
    }

    impl Action for Plain {
        fn encode(&self) -> (&'static str, Option<String>) {
            ("go", None)
        }
        fn parse(action: &str, _arg: Option<&str>) -> Option<Self> {
            (action == "go").then_some(Plain::Go)
        }
    }

    #[test]
    fn a_click_reads_its_action_or_is_refused_in_its_sets_words() {
        let caller = Caller::default();
        let click = |id: &ButtonId| {
            let (named, plain) = (
                Click {
                    id,
                    values: &[],
                    caller: &caller,
                }
                .action::<Named>(),
                Click {
                    id,
                    values: &[],
                    caller: &caller,
                }
                .action::<Plain>(),
            );
            (
                named.map_err(|e| e.user_message()),
                plain.map_err(|e| e.user_message()),
            )
        };
        let go = ButtonId::new("toy", 1, 1, "go");
        assert_eq!(click(&go), (Ok(Named::Go), Ok(Plain::Go)));
        let (named, plain) = click(&ButtonId::new("toy", 1, 1, "stop"));
        assert_eq!(named, Err("Unknown action `stop` for a toy.".to_string()));
        assert_eq!(
            plain,
            Err(
                "That button is not one I recognise; it may belong to an older version of the bot."
                    .to_string()
            )
        );
        assert_eq!(Named::read("go", None).ok(), Some(Named::Go));
        assert!(Named::read("go", Some("x")).is_ok() && Plain::read("", None).is_err());
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
