//! The menus a task message offers, worked out from the task's state and
//! the sheets: the KISS payments by name ([`names_menu`], [`pay_menu`]).
//! The click steps ([`super::turn`]) refresh them
//! after every change; the KISS round ([`super::kiss`]) reads the same
//! unused names.

use std::collections::BTreeMap;

use crate::rules::venus::VenusCtx;
use crate::systems::venus::state::{PayOption, TaskSession};
use crate::systems::venus::task_view::KISS_VALUE_TEXT;

/// The "KISS" menu's named payments: for each participant, their unused
/// attributes and insights (values as the menu sends them back).
pub fn names_menu(st: &TaskSession, ctx: &VenusCtx) -> BTreeMap<i64, Vec<PayOption>> {
    let mut out = BTreeMap::new();
    for who in st.task.participants() {
        let mut opts = Vec::new();
        for specialty in [true, false] {
            let kind = if specialty { "specialty" } else { "insight" };
            for text in free_names(st, ctx, who, specialty).unwrap_or_default() {
                opts.push(PayOption {
                    value: value_of(&text, specialty, KISS_VALUE_TEXT),
                    label: text.clone(),
                    description: format!("{}'s {kind}", st.name_of(who)),
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
        for specialty in [true, false] {
            let kind = if specialty { "attribute" } else { "insight" };
            for text in free_names(st, ctx, payer, specialty).unwrap_or_default() {
                let value = value_of(&text, specialty, VALUE_TEXT);
                match out.iter_mut().find(|o| o.value == value) {
                    Some(o) => {
                        if !o.description.contains(&name) {
                            o.description.push_str(&format!(", {name}"));
                        }
                    }
                    None => out.push(PayOption {
                        value,
                        label: crate::systems::venus::format::cut(&text, 100),
                        description: format!("{kind} · {name}"),
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
    specialty: bool,
) -> Result<Vec<String>, String> {
    let sheet = ctx.sheet(by).map_err(|e| e.message)?;
    Ok(st.task.unused_kiss_names(sheet, by, specialty))
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
pub(super) fn value_of(text: &str, specialty: bool, max: usize) -> String {
    let cut: String = text.trim().chars().take(max).collect();
    format!("{}:{cut}", if specialty { "sp" } else { "in" })
}
