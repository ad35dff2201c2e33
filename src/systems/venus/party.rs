//! The sheets a roll reads and changes: loaded by character id inside the
//! action's transaction into a [`VenusCtx`], and handed to the action's
//! outcome afterwards (only those that changed).

use std::collections::BTreeMap;

use super::state::Who;
use super::SYSTEM;
use crate::app::characters::Loaded;
use crate::app::AppError;
use crate::rules::venus::{VenusCtx, VenusSheet};
use crate::storage::{self, Tx};

/// Loaded sheets, by participant (user) id, and the rules' context.
pub struct Party {
    loaded: BTreeMap<i64, Loaded<VenusSheet>>,
    /// The sheets as the rules core sees them.
    pub ctx: VenusCtx,
}

impl Party {
    /// An empty party.
    pub fn new() -> Self {
        Self {
            loaded: BTreeMap::new(),
            ctx: VenusCtx::new(),
        }
    }

    /// Loads the characters of `whos` (those still stored; a deleted
    /// character is simply missing, which the rules report when it matters).
    pub async fn load<'a>(
        tx: &mut Tx,
        guild_id: i64,
        whos: impl IntoIterator<Item = &'a Who>,
    ) -> Result<Self, AppError> {
        let mut party = Self::new();
        for w in whos {
            if let Some(id) = w.character {
                party.add(tx, guild_id, w.user, id).await?;
            }
        }
        Ok(party)
    }

    /// Adds character `id` as participant `user`.
    pub async fn add(
        &mut self,
        tx: &mut Tx,
        guild_id: i64,
        user: i64,
        id: i64,
    ) -> Result<(), AppError> {
        if self.loaded.contains_key(&user) {
            return Ok(());
        }
        if let Some(row) = storage::characters::get(tx, guild_id, id).await? {
            if row.system == SYSTEM {
                let sheet: VenusSheet = serde_json::from_str(&row.sheet)?;
                self.ctx.insert(user, sheet.clone());
                self.loaded.insert(user, Loaded { row, sheet });
            }
        }
        Ok(())
    }

    /// Adds an already loaded character as participant `user`, and
    /// returns who takes part (the member and their character).
    pub fn add_loaded(&mut self, user: i64, c: Loaded<VenusSheet>) -> Who {
        let who = Who {
            user,
            character: Some(c.row.id),
            name: c.row.name.clone(),
        };
        self.ctx.insert(user, c.sheet.clone());
        self.loaded.insert(user, c);
        who
    }

    /// Whether participant `user`'s sheet is here.
    pub fn has(&self, user: i64) -> bool {
        self.loaded.contains_key(&user)
    }

    /// Every sheet the rules changed, as it now stands, for the action's
    /// outcome to save.
    pub fn changed(&self) -> Vec<Loaded<VenusSheet>> {
        let mut out = Vec::new();
        for (user, c) in &self.loaded {
            match self.ctx.sheets.get(user) {
                Some(now) if *now != c.sheet => out.push(Loaded {
                    row: c.row.clone(),
                    sheet: now.clone(),
                }),
                _ => {}
            }
        }
        out
    }
}

impl Default for Party {
    fn default() -> Self {
        Self::new()
    }
}
