//! The Venus Engine changes the house rule `player_edits` governs
//! ([`crate::systems::table::approval`]): Lots and Ego are Kismet the FC
//! grants and takes (the seed puts them in the FC's hands), so a player's
//! `/ve sheet set lots:` or `ego:` asks first. Spending one's own Lots or
//! Ego on a roll is never governed.

use serde::{Deserialize, Serialize};

use crate::app::characters::{self, Access, Pick};
use crate::app::registry::{BoxFuture, Governed};
use crate::app::{rights, App, AppError, AppResult, Caller};
use crate::rules::venus::VenusSheet;
use crate::systems::table::approval::{Change, Prepared};

use super::sheets::{self, SetEdits};
use super::{HINT, SYSTEM};

/// Every governed change, in `/help` order.
pub const LIST: &[Governed] = &[Governed {
    what: "Kismet: Lots and Ego",
    command: "/ve sheet set lots: ego:",
}];

/// One governed Venus Engine change.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "edit", rename_all = "snake_case")]
pub enum Edit {
    /// `/ve sheet set` with `lots:` and/or `ego:`.
    Kismet {
        /// New Lots.
        lots: Option<u32>,
        /// Ego held.
        ego: Option<bool>,
        /// A character name.
        character: Option<String>,
        /// A member.
        player: Option<i64>,
    },
}

impl Edit {
    /// An example of each governed change, on the caller's active character.
    pub fn examples() -> Vec<Edit> {
        vec![Edit::Kismet {
            lots: Some(1),
            ego: Some(true),
            character: None,
            player: None,
        }]
    }

    async fn prepared(self, app: &App, caller: &Caller) -> Result<Prepared<Self>, AppError> {
        let Edit::Kismet {
            lots,
            ego,
            character,
            player,
        } = self;
        let mut tx = app.db.read().await?;
        let fc = rights::is_fc(&mut tx, caller).await?;
        let pick = Pick::new(character.as_deref(), player);
        let c: characters::Loaded<VenusSheet> =
            characters::resolve(&mut tx, caller, fc, SYSTEM, pick, Access::Owner, HINT).await?;
        let mut after = c.sheet.clone();
        let mut parts = Vec::new();
        if let Some(l) = lots {
            after.set_lots(l)?;
            parts.push(format!("Lots {} → {l}", c.sheet.lots));
        }
        if let Some(e) = ego {
            let yn = |b: bool| if b { "held" } else { "none" };
            parts.push(format!("Ego {} → {}", yn(c.sheet.ego), yn(e)));
        }
        Ok(Prepared {
            what: format!("{}'s {}", c.row.name, parts.join(", ")),
            change: Edit::Kismet {
                lots,
                ego,
                character: Some(c.row.name.clone()),
                player: Some(c.row.owner_id),
            },
        })
    }

    async fn run(self, app: &App, caller: &Caller) -> AppResult {
        let Edit::Kismet {
            lots,
            ego,
            character,
            player,
        } = self;
        let edits = SetEdits {
            lots,
            ego,
            ..SetEdits::default()
        };
        sheets::set(app, caller, edits, Pick::new(character.as_deref(), player)).await
    }
}

impl Change for Edit {
    const SYSTEM: &'static str = SYSTEM;

    fn governed(&self) -> Governed {
        LIST[0]
    }

    fn prepare<'a>(
        self,
        app: &'a App,
        caller: &'a Caller,
    ) -> BoxFuture<'a, Result<Prepared<Self>, AppError>> {
        Box::pin(self.prepared(app, caller))
    }

    fn apply<'a>(self, app: &'a App, caller: &'a Caller) -> BoxFuture<'a, AppResult> {
        Box::pin(self.run(app, caller))
    }
}
