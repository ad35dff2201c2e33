//! The menus a task message offers, worked out from the task's state and
//! the sheets: the KISS payments by name ([`names_menu`], [`pay_menu`]).
//! The click steps ([`super::turn`]) refresh them
//! after every change; the KISS round ([`super::kiss`]) reads the same
//! unused names.

use std::collections::BTreeMap;

use crate::rules::venus::task::Named;
use crate::rules::venus::VenusCtx;
use crate::systems::venus::state::{PayOption, TaskSession};
use crate::systems::venus::task_view::KISS_VALUE_TEXT;

/// The "KISS" menu's named payments: for each participant, their unused
/// attributes and insights (values as the menu sends them back).
pub fn names_menu(st: &TaskSession, ctx: &VenusCtx) -> BTreeMap<i64, Vec<PayOption>> {
    let mut out = BTreeMap::new();
    for who in st.task.participants() {
        let mut opts = Vec::new();
        for kind in Named::BOTH {
            for text in free_names(st, ctx, who, kind).unwrap_or_default() {
                opts.push(PayOption {
                    value: value_of(&text, kind, KISS_VALUE_TEXT),
                    label: text.clone(),
                    description: format!("{}'s {}", st.name_of(who), words(kind).one),
                });
            }
        }
        out.insert(who, opts);
    }
    out
}

/// The "Pay with a specialty or insight" menu: for everyone with dice
/// picked and not paid for, their unused attributes and insights (the FC's
/// pick pays with the roller's). One entry per value: an attribute two of
/// them share is listed once, and each pays with their own.
pub fn pay_menu(st: &TaskSession, ctx: &VenusCtx) -> Vec<PayOption> {
    let mut out: Vec<PayOption> = Vec::new();
    for (who, dice) in &st.drafts {
        if dice.is_empty() {
            continue;
        }
        let payer = if st.who(*who).is_some() {
            *who
        } else {
            st.task.roller
        };
        let name = st.name_of(payer);
        for kind in Named::BOTH {
            for text in free_names(st, ctx, payer, kind).unwrap_or_default() {
                let value = value_of(&text, kind, VALUE_TEXT);
                match out.iter_mut().find(|o| o.value == value) {
                    Some(o) => {
                        if !o.description.contains(&name) {
                            o.description.push_str(&format!(", {name}"));
                        }
                    }
                    None => out.push(PayOption {
                        value,
                        label: crate::systems::venus::format::cut(&text, 100),
                        description: format!("{} · {name}", words(kind).sort),
                    }),
                }
            }
        }
    }
    out
}

/// The attributes or insights of `by` not yet used for a KISS in this task
/// ([`crate::rules::venus::TaskState::unused_kiss_names`]); why not, when
/// `by` has no sheet.
pub(super) fn free_names(
    st: &TaskSession,
    ctx: &VenusCtx,
    by: i64,
    kind: Named,
) -> Result<Vec<String>, String> {
    let sheet = ctx.sheet(by).map_err(|e| e.message)?;
    Ok(st.task.unused_kiss_names(sheet, by, kind))
}

/// How names are compared: trimmed, in lower case.
pub(super) fn key_of(text: &str) -> String {
    text.trim().to_lowercase()
}

/// The longest text kept in a "Pay with a specialty or insight" menu value
/// (Discord allows 100 characters).
pub(super) const VALUE_TEXT: usize = 96;

/// The menu value of an attribute (`sp:`) or insight (`in:`), its text
/// trimmed and cut to `max` characters.
pub(super) fn value_of(text: &str, kind: Named, max: usize) -> String {
    let cut: String = text.trim().chars().take(max).collect();
    format!("{}:{cut}", words(kind).prefix)
}

/// The kind and text a menu value names (`sp:…`, `in:…`); `None` for
/// anything else.
pub(super) fn named_kind(value: &str) -> Option<(Named, &str)> {
    let (prefix, text) = value.split_once(':')?;
    let kind = Named::BOTH
        .into_iter()
        .find(|k| words(*k).prefix == prefix)?;
    Some((kind, text))
}

/// How the table writes one kind of [`Named`] payment.
pub(super) struct Words {
    /// The menu value's prefix.
    pub prefix: &'static str,
    /// One, in the KISS menu and in `/ve sheet note kind:`.
    pub one: &'static str,
    /// Its sort, in the "Pay with a specialty or insight" menu.
    pub sort: &'static str,
    /// One, in full.
    pub full: &'static str,
    /// Several, in full.
    pub many: &'static str,
}

/// The [`Words`] of `kind`.
pub(super) fn words(kind: Named) -> Words {
    match kind {
        Named::Specialty => Words {
            prefix: "sp",
            one: "specialty",
            sort: "attribute",
            full: "specialty, discipline, asset or merit",
            many: "specialties, disciplines, assets or merits",
        },
        Named::Insight => Words {
            prefix: "in",
            one: "insight",
            sort: "insight",
            full: "insight",
            many: "insights",
        },
    }
}
