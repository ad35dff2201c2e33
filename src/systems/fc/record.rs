//! The log records of the FC's table controls: what `/fc role`, `/fc
//! gm-channel`, `/fc channel-system`, `/fc verbosity` and `/fc set` were
//! asked (`inputs`) and the value before and after (`outcome`). Written by
//! [`super`]'s actions through the action pipeline; `/history` and the
//! CSV export read them as any entry's fields. The JSON is what earlier
//! versions wrote with `json!`, key for key (fields in name order, as
//! `json!` sorted them), so their rows still read as these types.

use serde::{Deserialize, Serialize};

/// `/fc role`'s inputs: the role named, or `clear`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct RoleAsked {
    /// The role was forgotten.
    pub clear: bool,
    /// The role named (none when cleared).
    pub role: Option<i64>,
}

/// A setting's change as asked: its name, the channel it applies to (a
/// channel's own setting), and the value.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct SettingAsked<V> {
    /// The channel, for a channel's own setting (`channel_system`,
    /// `verbosity`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub channel: Option<i64>,
    /// The setting's name.
    pub name: String,
    /// The value asked for.
    pub value: V,
}

/// A setting's value before and after a change.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Changed<V> {
    /// The value after.
    pub after: V,
    /// The value before.
    pub before: V,
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::app::log::column;

    /// Rows written by earlier versions (with `json!`) read as the typed
    /// records, and today's records write the same JSON, key for key.
    #[test]
    fn older_rows_read_and_the_json_is_unchanged() {
        fn same<T: Serialize + serde::de::DeserializeOwned>(old: &str) -> T {
            let typed: T = column(old).unwrap_or_else(|| panic!("{old} reads"));
            assert_eq!(serde_json::to_string(&typed).unwrap(), old);
            typed
        }
        let r: RoleAsked = same(r#"{"clear":false,"role":42}"#);
        assert_eq!(r.role, Some(42));
        let c: Changed<Option<i64>> = same(r#"{"after":42,"before":null}"#);
        assert_eq!(c.before, None);
        let gm: SettingAsked<Option<i64>> = same(r#"{"name":"gm_channel","value":5}"#);
        assert_eq!(gm.channel, None);
        let sys: SettingAsked<Option<String>> =
            same(r#"{"channel":9,"name":"channel_system","value":"ore"}"#);
        assert_eq!(sys.value.as_deref(), Some("ore"));
        let v: Changed<String> = same(r#"{"after":"compact","before":"full"}"#);
        assert_eq!(v.after, "compact");
        let set: SettingAsked<String> = same(r#"{"name":"player_edits","value":"free"}"#);
        assert_eq!(set.name, "player_edits");
        // A row of another action is not a role change.
        assert!(column::<RoleAsked>(r#"{"name":"gm_channel","value":5}"#).is_none());
    }
}
