//! Characters for every system: create, find (active, by name, of another
//! member), save; the sheet itself is the system's typed struct.
//!
//! One way to name a character, the same in every system: a [`Pick`] (the
//! `character:` and `player:` options of a command) resolved by
//! [`resolve`] with an [`Access`]. A player acts on their own characters;
//! acting on another member's needs the FC wherever it changes it; a name
//! two members share is ambiguous for the FC until `player:` says whose.

use serde::{de::DeserializeOwned, Deserialize, Serialize};

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

    /// The character's name for prose, without markdown
    /// ([`super::view::clean`]): `A*d_a` reads `Ada`. Embed authors,
    /// labels and suggested commands keep [`Loaded::name`] as typed.
    pub fn shown(&self) -> String {
        super::view::clean(&self.row.name)
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
    let json = serde_json::to_string(sheet)?;
    create_stored(tx, guild_id, owner_id, system, name, &json).await
}

/// [`create_for`] with the sheet as the JSON to store (an imported sheet,
/// already checked by its system).
pub async fn create_stored(
    tx: &mut Tx,
    guild_id: i64,
    owner_id: i64,
    system: &str,
    name: &str,
    json: &str,
) -> Result<Character, AppError> {
    let name = check_name(name)?;
    let id = storage::characters::insert(
        tx,
        guild_id,
        owner_id,
        system,
        &name,
        json,
        storage::now_ms(),
    )
    .await?
    .ok_or_else(|| {
        AppError::user(format!(
            "There is already a character named {}.",
            super::view::clean(&name)
        ))
    })?;
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
    if let Some(row) = super::games::character_of(tx, caller, system, caller.user_id).await? {
        return decode(row);
    }
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
                    "Several members have a character named {}; ask its owner to act.",
                    super::view::clean(name)
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

/// Which character a command means: its `character:` and `player:`
/// options. Neither means the caller's active character; `player:` alone
/// that member's active one; `character:` alone the caller's character of
/// that name (for the FC, anyone's, when only one member has that name);
/// both, that member's character of that name.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Pick<'a> {
    /// A character name, as typed (any case).
    pub character: Option<&'a str>,
    /// A member (their user id).
    pub player: Option<i64>,
}

impl<'a> Pick<'a> {
    /// A pick from a command's two options (blank names count as none).
    pub fn new(character: Option<&'a str>, player: Option<i64>) -> Self {
        Self {
            character: character.map(str::trim).filter(|n| !n.is_empty()),
            player,
        }
    }

    /// The caller's active character.
    pub fn active() -> Self {
        Self::default()
    }

    /// A character by name only.
    pub fn named(name: &'a str) -> Self {
        Self::new(Some(name), None)
    }
}

/// A [`Pick`] kept for later, owned and serialisable (`{character,
/// player}`): the character a change waiting for the game master's
/// approval is about.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Who {
    /// A character name.
    pub character: Option<String>,
    /// A member.
    pub player: Option<i64>,
}

impl Who {
    /// From a command's two options, as given.
    pub fn new(character: Option<&str>, player: Option<i64>) -> Self {
        Who {
            character: character.map(str::to_string),
            player,
        }
    }

    /// From a pick.
    pub fn of(p: Pick<'_>) -> Self {
        Self::new(p.character, p.player)
    }

    /// Exactly `c`: its name and its owner (so an approval later reaches
    /// the same character, whoever approves it).
    pub fn pinned(c: &Character) -> Self {
        Who {
            character: Some(c.name.clone()),
            player: Some(c.owner_id),
        }
    }

    /// The pick it keeps.
    pub fn pick(&self) -> Pick<'_> {
        Pick::new(self.character.as_deref(), self.player)
    }
}

/// What the caller may reach through a [`Pick`].
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Access {
    /// Their own characters (the FC: anyone's). For anything that changes
    /// or reveals a sheet.
    Owner,
    /// Any member's character (an ally, a target): naming one is no right.
    Anyone,
}

/// What only a character's owner or the game master may do; completes
/// "Only the {gm} can …" in the game master's refusal.
pub const NOT_YOURS: &str = "act on another player's sheet";

/// The refusal when a player names another member's character of
/// `system` where only its owner or the game master may act: the game
/// master's refusal where the caller acts, naming who counts as one
/// ([`super::rights::refusal`]), in the system's word for the game master.
pub async fn not_yours(tx: &mut Tx, caller: &Caller, system: &str) -> AppError {
    let gm = super::registry::gm_of(system);
    super::rights::refusal(tx, caller, gm, NOT_YOURS).await
}

/// Finds the character a [`Pick`] means, with the rights of `access`;
/// `fc` tells whether the caller is the game master and `hint` how to
/// make a character ("/ve sheet create"). Refusals: another member's
/// character without the FC (under [`Access::Owner`]), an unknown name, a
/// name two members share (the FC must add `player:`), a member without
/// an active character.
pub async fn resolve_row(
    tx: &mut Tx,
    caller: &Caller,
    fc: bool,
    system: &str,
    pick: Pick<'_>,
    access: Access,
    hint: &str,
) -> Result<Character, AppError> {
    let name = pick.character.map(str::trim).filter(|n| !n.is_empty());
    let wide = fc || access == Access::Anyone;
    if pick.player.is_some_and(|p| p != caller.user_id) && !wide {
        return Err(not_yours(tx, caller, system).await);
    }
    let row = match (name, pick.player) {
        (Some(n), Some(p)) => storage::characters::by_name(tx, caller.guild_id, system, p, n)
            .await?
            .ok_or_else(|| AppError::user(format!("<@{p}> has no character named `{n}` here.")))?,
        (Some(n), None) => {
            match storage::characters::by_name(tx, caller.guild_id, system, caller.user_id, n)
                .await?
            {
                Some(row) => row,
                None if wide => {
                    let mut rows =
                        storage::characters::by_name_any_owner(tx, caller.guild_id, system, n)
                            .await?;
                    match rows.len() {
                        0 => return Err(unknown(n)),
                        1 => rows.remove(0),
                        _ => {
                            return Err(AppError::user(format!(
                                "Several members have a character named `{n}`: add `player:` to say whose."
                            )))
                        }
                    }
                }
                None => return Err(unknown(n)),
            }
        }
        (None, player) => {
            let uid = player.unwrap_or(caller.user_id);
            let in_game = super::games::character_of(tx, caller, system, uid).await?;
            let row = match in_game {
                Some(row) => Some(row),
                None => storage::characters::active(tx, caller.guild_id, system, uid).await?,
            };
            row.ok_or_else(|| {
                AppError::user(format!("<@{uid}> has no active character here yet: {hint}"))
            })?
        }
    };
    if access == Access::Owner && row.owner_id != caller.user_id && !fc {
        return Err(not_yours(tx, caller, system).await);
    }
    Ok(row)
}

fn unknown(name: &str) -> AppError {
    AppError::user(format!("No character named `{name}` here."))
}

/// [`resolve_row`] with the sheet decoded.
pub async fn resolve<S: DeserializeOwned>(
    tx: &mut Tx,
    caller: &Caller,
    fc: bool,
    system: &str,
    pick: Pick<'_>,
    access: Access,
    hint: &str,
) -> Result<Loaded<S>, AppError> {
    decode(resolve_row(tx, caller, fc, system, pick, access, hint).await?)
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::app::{Act, App, Registry, RngSource};
    use crate::config::Config;

    const GUILD: i64 = 7;
    const SYS: &str = "test";
    /// A player's refusal on another member's character: the game
    /// master's, naming who counts as one.
    const NOT_THEIRS: &str = "Only the game master (FC) can act on another player's sheet: that is members with the Manage Server permission (a server manager can name an FC role with `/fc role`).";

    fn who(id: i64, fc: bool) -> Caller {
        Caller {
            guild_id: GUILD,
            user_id: id,
            manage_guild: fc,
            ..Caller::default()
        }
    }

    async fn app() -> App {
        let dir = std::env::temp_dir().join(format!("kismet-pick-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let path = dir.join("pick.db");
        for ext in ["", "-wal", "-shm"] {
            let _ = std::fs::remove_file(format!("{}{ext}", path.display()));
        }
        let db = storage::Db::open(&format!("sqlite://{}", path.display()), 2)
            .await
            .unwrap();
        App::new(
            db,
            Config::defaults(),
            RngSource::seeded(1),
            Registry::default(),
        )
    }

    /// Alice (1) owns Ann and Zed (active); Bob (2) owns Ann (active).
    async fn table(app: &App) {
        let mut act = Act::housekeeping(app, GUILD).await.unwrap();
        for (owner, name) in [(1, "Ann"), (1, "Zed"), (2, "Ann")] {
            create_for(&mut act, GUILD, owner, SYS, name, &serde_json::json!({}))
                .await
                .unwrap();
        }
        act.commit().await.unwrap();
    }

    async fn pick(
        app: &App,
        caller: &Caller,
        fc: bool,
        character: Option<&str>,
        player: Option<i64>,
        access: Access,
    ) -> Result<(i64, String), String> {
        let mut tx = app.db.read().await.unwrap();
        resolve_row(
            &mut tx,
            caller,
            fc,
            SYS,
            Pick::new(character, player),
            access,
            "make one.",
        )
        .await
        .map(|r| (r.owner_id, r.name))
        .map_err(|e| e.user_message())
    }

    #[tokio::test]
    async fn a_pick_means_the_same_thing_with_the_same_rights_everywhere() {
        let app = app().await;
        table(&app).await;
        let (alice, bob, fc) = (who(1, false), who(2, false), who(3, true));
        let own = Access::Owner;
        // Nothing named: the caller's active character.
        assert_eq!(
            pick(&app, &alice, false, None, None, own).await,
            Ok((1, "Zed".into()))
        );
        // A name: the caller's own, in any case.
        assert_eq!(
            pick(&app, &alice, false, Some(" ann "), None, own).await,
            Ok((1, "Ann".into()))
        );
        assert_eq!(
            pick(&app, &bob, false, Some("Ann"), None, own).await,
            Ok((2, "Ann".into()))
        );
        // Another's character: refused to a player, wherever it changes it.
        let err = pick(&app, &bob, false, Some("Zed"), None, own)
            .await
            .unwrap_err();
        assert!(err.contains("No character named `Zed`"), "{err}");
        let err = pick(&app, &bob, false, None, Some(1), own)
            .await
            .unwrap_err();
        assert_eq!(err, NOT_THEIRS);
        let err = pick(&app, &bob, false, Some("Zed"), Some(1), own)
            .await
            .unwrap_err();
        assert_eq!(err, NOT_THEIRS);
        // ...allowed where naming it is no right (an ally, a target).
        assert_eq!(
            pick(&app, &bob, false, Some("Zed"), None, Access::Anyone).await,
            Ok((1, "Zed".into()))
        );
        // The FC: a unique name is anyone's; a shared one needs `player:`.
        assert_eq!(
            pick(&app, &fc, true, Some("zed"), None, own).await,
            Ok((1, "Zed".into()))
        );
        let err = pick(&app, &fc, true, Some("Ann"), None, own)
            .await
            .unwrap_err();
        assert!(err.contains("add `player:`"), "{err}");
        assert_eq!(
            pick(&app, &fc, true, Some("Ann"), Some(2), own).await,
            Ok((2, "Ann".into()))
        );
        assert_eq!(
            pick(&app, &fc, true, None, Some(2), own).await,
            Ok((2, "Ann".into()))
        );
        // Unknown names and members without characters: clear refusals.
        let err = pick(&app, &fc, true, Some("Nobody"), None, own)
            .await
            .unwrap_err();
        assert!(err.contains("No character named `Nobody`"), "{err}");
        let err = pick(&app, &fc, true, Some("Zed"), Some(2), own)
            .await
            .unwrap_err();
        assert!(err.contains("<@2> has no character named `Zed`"), "{err}");
        let err = pick(&app, &fc, true, None, None, own).await.unwrap_err();
        assert!(
            err.contains("has no active character here yet: make one."),
            "{err}"
        );
        // `player:` naming oneself is one's own.
        assert_eq!(
            pick(&app, &alice, false, Some("Ann"), Some(1), own).await,
            Ok((1, "Ann".into()))
        );
    }
}
