//! Characters for every system: create, find (active, by name, of another
//! member), save; the sheet itself is the system's typed struct.

use serde::{de::DeserializeOwned, Serialize};

use super::{AppError, Caller};
use crate::storage::{self, characters::Character, Tx};

/// Longest character name.
pub const MAX_NAME: usize = 64;

/// A stored character with its sheet decoded.
#[derive(Debug, Clone)]
pub struct Loaded<S> {
    /// The stored row (its `sheet` is the JSON as loaded).
    pub row: Character,
    /// The sheet.
    pub sheet: S,
}

impl<S> Loaded<S> {
    /// The character's name.
    pub fn name(&self) -> &str {
        &self.row.name
    }
}

fn decode<S: DeserializeOwned>(row: Character) -> Result<Loaded<S>, AppError> {
    let sheet = serde_json::from_str(&row.sheet)?;
    Ok(Loaded { row, sheet })
}

/// Checks a new character name.
pub fn check_name(name: &str) -> Result<String, AppError> {
    let n = name.trim();
    if n.is_empty() {
        return Err(AppError::user("A character needs a name."));
    }
    if n.chars().count() > MAX_NAME {
        return Err(AppError::user(format!(
            "Character names are at most {MAX_NAME} characters."
        )));
    }
    if n.chars().any(|c| c.is_control()) {
        return Err(AppError::user(
            "Character names cannot contain control characters.",
        ));
    }
    if super::view::plain(n) != n {
        return Err(AppError::user(
            "Character names cannot contain mentions (`@everyone`, `@here`, `<@…>`, `<#…>`).",
        ));
    }
    Ok(n.to_string())
}

/// Creates a character for the caller and makes it their active one.
pub async fn create<S: Serialize>(
    tx: &mut Tx,
    caller: &Caller,
    system: &str,
    name: &str,
    sheet: &S,
) -> Result<Character, AppError> {
    create_for(tx, caller.guild_id, caller.user_id, system, name, sheet).await
}

/// Creates a character for any member (the FC creating an NPC or a sheet
/// for a player) and makes it that member's active one.
pub async fn create_for<S: Serialize>(
    tx: &mut Tx,
    guild_id: i64,
    owner_id: i64,
    system: &str,
    name: &str,
    sheet: &S,
) -> Result<Character, AppError> {
    let name = check_name(name)?;
    let json = serde_json::to_string(sheet)?;
    let id = storage::characters::insert(
        tx,
        guild_id,
        owner_id,
        system,
        &name,
        &json,
        storage::now_ms(),
    )
    .await?
    .ok_or_else(|| AppError::user(format!("There is already a character named {name}.")))?;
    let row = storage::characters::get(tx, guild_id, id)
        .await?
        .ok_or_else(|| AppError::Internal("character vanished after insert".into()))?;
    storage::characters::set_active(tx, &row).await?;
    Ok(Character {
        active: true,
        ..row
    })
}

/// The caller's active character in a system; `hint` tells them how to make
/// one ("/ve sheet create").
pub async fn active<S: DeserializeOwned>(
    tx: &mut Tx,
    caller: &Caller,
    system: &str,
    hint: &str,
) -> Result<Loaded<S>, AppError> {
    of_member(tx, caller.guild_id, system, caller.user_id, hint).await
}

/// Another member's active character (an ally, a target).
pub async fn of_member<S: DeserializeOwned>(
    tx: &mut Tx,
    guild_id: i64,
    system: &str,
    user_id: i64,
    hint: &str,
) -> Result<Loaded<S>, AppError> {
    let row = storage::characters::active(tx, guild_id, system, user_id)
        .await?
        .ok_or_else(|| {
            AppError::user(format!(
                "<@{user_id}> has no active character here yet: {hint}"
            ))
        })?;
    decode(row)
}

/// A character by name: the caller's own, or (for the FC, `any_owner`)
/// anyone's in the guild when the name is unique.
pub async fn named<S: DeserializeOwned>(
    tx: &mut Tx,
    caller: &Caller,
    system: &str,
    name: &str,
    any_owner: bool,
) -> Result<Loaded<S>, AppError> {
    if let Some(row) =
        storage::characters::by_name(tx, caller.guild_id, system, caller.user_id, name).await?
    {
        return decode(row);
    }
    if any_owner {
        let mut rows =
            storage::characters::by_name_any_owner(tx, caller.guild_id, system, name).await?;
        match rows.len() {
            0 => {}
            1 => return decode(rows.remove(0)),
            _ => {
                return Err(AppError::user(format!(
                    "Several members have a character named {name}; ask its owner to act."
                )))
            }
        }
    }
    Err(AppError::user(format!("No character named `{name}` here.")))
}

/// The named character if a name is given, else the caller's active one.
pub async fn named_or_active<S: DeserializeOwned>(
    tx: &mut Tx,
    caller: &Caller,
    system: &str,
    name: Option<&str>,
    any_owner: bool,
    hint: &str,
) -> Result<Loaded<S>, AppError> {
    match name.map(str::trim).filter(|n| !n.is_empty()) {
        Some(n) => named(tx, caller, system, n, any_owner).await,
        None => active(tx, caller, system, hint).await,
    }
}

/// Stores the sheet (and name) back.
pub async fn save<S: Serialize>(tx: &mut Tx, c: &mut Loaded<S>) -> Result<(), AppError> {
    c.row.sheet = serde_json::to_string(&c.sheet)?;
    storage::characters::update(tx, &c.row, storage::now_ms()).await?;
    c.row.version += 1;
    Ok(())
}

/// Names of the caller's characters (all of the guild's for the FC) that
/// start with or contain `partial`, for autocomplete.
pub async fn autocomplete(
    db: &storage::Db,
    caller: &Caller,
    system: &str,
    partial: &str,
    all_owners: bool,
) -> Vec<String> {
    let Ok(mut tx) = db.read().await else {
        return Vec::new();
    };
    let owner = (!all_owners).then_some(caller.user_id);
    let rows = storage::characters::list(&mut tx, caller.guild_id, system, owner, 200)
        .await
        .unwrap_or_default();
    let p = partial.trim().to_lowercase();
    let mut names: Vec<String> = rows
        .into_iter()
        .map(|c| c.name)
        .filter(|n| n.to_lowercase().contains(&p))
        .collect();
    names.sort_by_key(|n| !n.to_lowercase().starts_with(&p));
    names.dedup();
    names.truncate(25);
    names
}
