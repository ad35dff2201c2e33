//! Autocomplete suggestions for the Storyteller commands: trait names from
//! the guild's catalog and the caller's active sheet (also the second trait
//! of `Wits + Al…`), specialties, the source's suggested specialties,
//! setting names and characters. Each suggestion is `(label, value)`; both
//! stay within Discord's 100 characters. Failures give no suggestions.

use crate::app::characters::Loaded;
use crate::app::settings::scoped_here;
use crate::app::{characters, App, Caller};
use crate::rules::storyteller::sheet::{name_key, ResolvedTrait, SUGGESTED_SPECIALTIES};
use crate::rules::storyteller::{StorytellerSettings, StorytellerSheet, TraitKind};

use super::SYSTEM;

/// Most suggestions Discord shows.
const MAX: usize = 25;
/// Longest label or value Discord takes.
const MAX_LEN: usize = 100;

/// A suggestion: what is shown, and what is filled in.
pub type Choice = (String, String);

async fn load(app: &App, caller: &Caller) -> (StorytellerSettings, Option<StorytellerSheet>) {
    let Ok(mut tx) = app.db.read().await else {
        return (StorytellerSettings::default(), None);
    };
    let settings: StorytellerSettings = scoped_here(&mut tx, caller, SYSTEM)
        .await
        .unwrap_or_default();
    let sheet = characters::active::<StorytellerSheet>(&mut tx, caller, SYSTEM, "")
        .await
        .ok()
        .map(|l: Loaded<StorytellerSheet>| l.sheet);
    (settings, sheet)
}

/// Splits `Wits + Al` into (`Wits + `, `Al`) at the last separator.
fn split_last<'a>(partial: &'a str, seps: &[char]) -> (String, &'a str) {
    match partial.rfind(|c| seps.contains(&c)) {
        Some(i) => {
            let head = partial[..i].trim_end();
            let sep = &partial[i..i + 1];
            let joiner = if sep == "," { ", " } else { " + " };
            (format!("{head}{joiner}"), partial[i + 1..].trim())
        }
        None => (String::new(), partial.trim()),
    }
}

fn rank(name: &str, key: &str) -> Option<u8> {
    let k = name_key(name);
    if k.starts_with(key) {
        Some(0)
    } else if k.contains(key) {
        Some(1)
    } else {
        None
    }
}

fn finish(mut v: Vec<(u8, Choice)>) -> Vec<Choice> {
    v.sort_by_key(|(r, _)| *r);
    v.into_iter()
        .map(|(_, c)| c)
        .filter(|(l, val)| l.chars().count() <= MAX_LEN && val.chars().count() <= MAX_LEN)
        .take(MAX)
        .collect()
}

/// Trait names. With `multi`, the partial text is a `+` list and the last
/// item is completed; with `abilities_only`, attributes are left out.
pub async fn traits(
    app: &App,
    caller: &Caller,
    partial: &str,
    multi: bool,
    abilities_only: bool,
) -> Vec<Choice> {
    let (settings, sheet) = load(app, caller).await;
    let catalog = settings.catalog();
    let extra: Vec<ResolvedTrait> = sheet
        .as_ref()
        .map(|s| s.custom_traits().to_vec())
        .unwrap_or_default();
    let (prefix, last) = if multi {
        split_last(partial, &['+', ','])
    } else {
        (String::new(), partial.trim())
    };
    let key = name_key(last);
    let mut out = Vec::new();
    for t in catalog.traits().iter().chain(extra.iter()) {
        if abilities_only && t.kind == TraitKind::Attribute {
            continue;
        }
        let Some(r) = rank(&t.name, &key) else {
            continue;
        };
        let dots = sheet
            .as_ref()
            .and_then(|s| s.lookup(&catalog, &t.name).ok())
            .map(|(_, d)| format!(", {d} dots"))
            .unwrap_or_default();
        let value = format!("{prefix}{}", t.name);
        out.push((r, (format!("{value} ({}{dots})", t.kind.key()), value)));
    }
    if !key.is_empty() {
        for a in catalog.aliases() {
            if name_key(&a.alias).starts_with(&key) {
                let value = format!("{prefix}{}", a.alias);
                out.push((2, (format!("{value} (= {})", a.target), value)));
            }
        }
    }
    finish(out)
}

/// Specialties on the caller's active sheet, of the ability in `traits`
/// when one is named (a comma list: the last item is completed).
pub async fn specialties(
    app: &App,
    caller: &Caller,
    traits: Option<&str>,
    partial: &str,
) -> Vec<Choice> {
    let (settings, sheet) = load(app, caller).await;
    let Some(sheet) = sheet else {
        return Vec::new();
    };
    let catalog = settings.catalog();
    let wanted: Vec<String> = traits
        .unwrap_or("")
        .split(['+', ','])
        .filter_map(|t| sheet.lookup(&catalog, t).ok())
        .filter(|(t, _)| t.kind != TraitKind::Attribute)
        .map(|(t, _)| name_key(&t.name))
        .collect();
    let (prefix, last) = split_last(partial, &[',']);
    let key = name_key(last);
    let mut out = Vec::new();
    for a in sheet.abilities() {
        if !wanted.is_empty() && !wanted.contains(&name_key(&a.name)) {
            continue;
        }
        for s in &a.specialties {
            let Some(r) = rank(&s.name, &key) else {
                continue;
            };
            let value = format!("{prefix}{}", s.name);
            out.push((r, (format!("{value} ({})", a.name), value)));
        }
    }
    finish(out)
}

/// The source's suggested specialties for `ability` (any name is allowed).
pub fn suggested_specialties(ability: Option<&str>, partial: &str) -> Vec<Choice> {
    let key = name_key(partial);
    let ab = ability.map(name_key).unwrap_or_default();
    let mut out = Vec::new();
    for (name, general, advanced) in SUGGESTED_SPECIALTIES {
        if !ab.is_empty() && !name_key(name).starts_with(&ab) {
            continue;
        }
        let lists: [(&[&str], &str); 2] = [(general, "general"), (advanced, "advanced")];
        for (list, kind) in lists {
            for s in list {
                let Some(r) = rank(s, &key) else { continue };
                out.push((r, (format!("{s} ({name}, {kind})"), (*s).to_string())));
            }
        }
    }
    finish(out)
}

/// Any character name in the guild (for naming whom to revive).
pub async fn any_character_names(app: &App, caller: &Caller, partial: &str) -> Vec<Choice> {
    characters::autocomplete(&app.db, caller, SYSTEM, partial, true)
        .await
        .into_iter()
        .map(|n| (n.clone(), n))
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_last_item_is_completed() {
        assert_eq!(split_last("Wits + al", &['+']), ("Wits + ".into(), "al"));
        assert_eq!(split_last("Wits+al", &['+']), ("Wits + ".into(), "al"));
        assert_eq!(split_last("wi", &['+']), (String::new(), "wi"));
        assert_eq!(
            split_last("Terrain, Amb", &[',']),
            ("Terrain, ".into(), "Amb")
        );
    }

    #[test]
    fn suggested_specialties_follow_the_source() {
        let s = suggested_specialties(Some("Alertness"), "night");
        assert_eq!(s[0].1, "Night Vision");
        assert!(s[0].0.contains("advanced"));
    }
}
