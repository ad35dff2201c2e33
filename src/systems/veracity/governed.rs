//! The Veracity changes the house rule `player_edits` governs
//! ([`crate::systems::table::approval`]): what seed 002 leaves to the
//! referee. A Facet above d6 (a new Facet is the referee's to grant, VR-13,
//! and a player's own starts at d6), stepping or removing a Facet, Stress or
//! a Wound leaving outside rest (VR-17, VR-18: only rest or the referee), a
//! slot unlocked outside a revelation (VR-24), and HP (VR-19: from gear and
//! magic, entered by the referee). Rolls, saves, rest and a player's own
//! Secrets, Ruses, Evidence and Means are never governed.
//!
//! Some of these never apply on a player's word, even under `free` (issue
//! 29): a Stress or a Wound leaves only by rest or a Break, and only a d4
//! Facet may be replaced ([`Edit::rules_way`] names the way); under
//! `approval` they still wait for the referee, who may always correct a
//! sheet.

use serde::{Deserialize, Serialize};

use super::context::Veracity;
use super::context::{Outcome, Turn};
use super::target::{applied, facet_index, Words};
use crate::app::change::{Change, Trial, Whose};
use crate::app::characters::Pick;
use crate::app::registry::Governed;
use crate::app::settings::PlayerEdits;
use crate::app::{App, AppError};
use crate::rules::veracity::sheet::FacetDie;
use crate::rules::veracity::{Action, InventoryKind, ItemKind, Sheet};

/// Every governed change, in `/help` order.
pub const LIST: &[Governed] = &[
    Governed {
        what: "a Facet above d6",
        command: "/vr facet add die:",
    },
    Governed {
        what: "a Facet's die",
        command: "/vr facet step",
    },
    Governed {
        what: "a Facet removed",
        command: "/vr facet remove",
    },
    Governed {
        what: "Stress or a Wound removed outside rest",
        command: "/vr item remove",
    },
    Governed {
        what: "a slot outside a revelation",
        command: "/vr sheet edit unlock:",
    },
    Governed {
        what: "HP",
        command: "/vr sheet edit current: max:",
    },
];

pub use crate::app::characters::Who;

/// One governed Veracity change: what, of whom (stored flat, `{"edit":
/// "facet_step", …, "who": {…}}`).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Edit {
    /// Whose.
    pub who: Who,
    /// What.
    #[serde(flatten)]
    pub what: What,
}

/// What a governed Veracity change does.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "edit", rename_all = "snake_case")]
pub enum What {
    /// `/vr facet add` with a die above d6.
    FacetAdd {
        /// The phrase.
        phrase: String,
        /// The die.
        die: FacetDie,
    },
    /// `/vr facet step`.
    FacetStep {
        /// The Facet (number or words).
        facet: String,
        /// Up or down.
        up: bool,
    },
    /// `/vr facet remove`.
    FacetRemove {
        /// The Facet (number or words).
        facet: String,
    },
    /// `/vr item remove` of a Stress or a Wound.
    ItemRemove {
        /// Which inventory.
        inventory: InventoryKind,
        /// The slot.
        slot: u32,
    },
    /// `/vr sheet edit unlock:`: one more slot outside a revelation.
    Unlock {
        /// Which inventory.
        inventory: InventoryKind,
    },
    /// `/vr sheet edit current: max:`.
    Hp {
        /// Current HP.
        current: u32,
        /// Maximum HP.
        max: u32,
    },
}

impl What {
    /// This change of the character `player` picks.
    pub fn of(self, player: Pick<'_>) -> Edit {
        Edit {
            who: Who::of(player),
            what: self,
        }
    }
}

impl Edit {
    /// An example of each governed change, in [`LIST`] order, acting on `who`.
    pub fn examples(who: Who) -> Vec<Edit> {
        [
            What::FacetAdd {
                phrase: "Bold".into(),
                die: FacetDie::D8,
            },
            What::FacetStep {
                facet: "1".into(),
                up: true,
            },
            What::FacetRemove { facet: "2".into() },
            What::ItemRemove {
                inventory: InventoryKind::Light,
                slot: 1,
            },
            What::Unlock {
                inventory: InventoryKind::Flesh,
            },
            What::Hp { current: 2, max: 3 },
        ]
        .into_iter()
        .map(|what| what.of(who.pick()))
        .collect()
    }

    /// The rules' way a player must take instead of this change, when the
    /// player's own word is never enough for it (even under `free`): Stress
    /// leaves by a day relaxing in daylight or a Break (VR-18, VR-15), a
    /// Wound by a day of rest with medical care (VR-17), and only a d4 Facet
    /// may be replaced (VR-13). `None`: the change is the house rule's.
    pub fn rules_way(&self, name: &str, sheet: &Sheet) -> Result<Option<String>, AppError> {
        const REFEREE: &str = "the referee can still correct a sheet.";
        Ok(match &self.what {
            What::ItemRemove {
                inventory, slot
            } => match sheet.rest_only(*inventory, *slot) {
                Some(ItemKind::Stress) => Some(format!(
                    "Stress leaves {name}'s Light slot {slot} only the rules' ways: a full day relaxing in daylight removes one (`/vr rest what:stress slot:{slot}`), and a Break removes it all (VR-18, VR-15). A player's word does not empty it; {REFEREE}"
                )),
                Some(ItemKind::Wound) => Some(format!(
                    "A Wound leaves {name}'s Flesh slot {slot} only by rest: a full day resting in a safe area with medical treatment removes one (`/vr rest what:wound slot:{slot}`, VR-17). A player's word does not empty it; {REFEREE}"
                )),
                _ => None,
            },
            What::FacetRemove { facet } => {
                let f = &sheet.facets()[facet_index(sheet, facet)?];
                (!f.replaceable()).then(|| {
                    format!(
                        "Only a d4 Facet can be replaced, given appropriate fictional positioning (VR-13): {name}'s \"{}\" is a {}. Its die moves a step when {name} takes an extreme action for or against it (`/vr facet step`); {REFEREE}",
                        f.phrase, f.die
                    )
                })
            }
            _ => None,
        })
    }

    /// The rules action on this sheet.
    fn action(&self, s: &Sheet) -> Result<Action, AppError> {
        Ok(match &self.what {
            What::FacetAdd { phrase, die } => Action::AddFacet {
                phrase: phrase.clone(),
                die: *die,
            },
            What::FacetStep { facet, up } => Action::StepFacet {
                index: facet_index(s, facet)?,
                up: *up,
            },
            What::FacetRemove { facet } => Action::RemoveFacet {
                index: facet_index(s, facet)?,
            },
            What::ItemRemove { inventory, slot } => Action::RemoveItem {
                inventory: *inventory,
                slot: *slot,
            },
            What::Unlock { inventory } => Action::UnlockSlot {
                inventory: *inventory,
            },
            What::Hp { current, max } => Action::SetHp {
                current: *current,
                max: *max,
            },
        })
    }

    /// The log's action word and the answer's headline.
    fn words(&self) -> (&'static str, String) {
        match &self.what {
            What::FacetAdd { .. } => ("facet_add", "gains a Facet".into()),
            What::FacetStep { up: true, .. } => ("facet_step", "steps a Facet up".into()),
            What::FacetStep { up: false, .. } => ("facet_step", "steps a Facet down".into()),
            What::FacetRemove { .. } => ("facet_remove", "loses a Facet".into()),
            What::ItemRemove { inventory, slot } => {
                ("item_remove", format!("empties {inventory} slot {slot}"))
            }
            What::Unlock { inventory } => ("unlock_slot", format!("unlocks a {inventory} slot")),
            What::Hp { .. } => ("set_hp", "has new HP".into()),
        }
    }

    /// What it does, before → after, of the character.
    fn describe(&self, before: &Sheet, after: &Sheet) -> String {
        let facets = |s: &Sheet| {
            s.facets()
                .iter()
                .map(|f| format!("{} {}", f.phrase, f.die))
                .collect::<Vec<_>>()
                .join(", ")
        };
        match &self.what {
            What::FacetAdd { .. } | What::FacetStep { .. } | What::FacetRemove { .. } => {
                format!("Facets {} → {}", facets(before), facets(after))
            }
            What::ItemRemove { inventory, slot } => {
                let what = before
                    .inventory(*inventory)
                    .get(*slot)
                    .map_or("nothing".to_string(), |i| i.kind.name().to_string());
                format!("{inventory} slot {slot}: {what} → empty")
            }
            What::Unlock { inventory } => format!(
                "{inventory} slots {} → {}",
                before.inventory(*inventory).unlocked(),
                after.inventory(*inventory).unlocked()
            ),
            What::Hp { .. } => format!(
                "HP {}/{} → {}/{}",
                before.hp_current(),
                before.hp_max(),
                after.hp_current(),
                after.hp_max()
            ),
        }
    }
}

impl Change for Edit {
    type Scope = super::context::Veracity;

    fn governed(&self) -> Governed {
        LIST[match &self.what {
            What::FacetAdd { .. } => 0,
            What::FacetStep { .. } => 1,
            What::FacetRemove { .. } => 2,
            What::ItemRemove { .. } => 3,
            What::Unlock { .. } => 4,
            What::Hp { .. } => 5,
        }]
    }

    fn whose(&mut self) -> Whose<'_> {
        (&mut self.who).into()
    }

    fn try_on(&mut self, t: &mut Trial<'_, Veracity>) -> Result<String, AppError> {
        // None of these changes rolls: the throwaway generator is never
        // drawn from.
        t.after
            .apply(&self.action(t.before)?, &t.settings, &mut t.rng)?;
        // Under `free` a player's word still does not empty Stress or a
        // Wound, nor drop a Facet above d4: only the rules' ways do (the
        // referee, who never comes here, may always correct a sheet).
        if t.rule == PlayerEdits::Free {
            if let Some(way) = self.rules_way(t.name, t.before)? {
                return Err(AppError::user(way));
            }
        }
        Ok(self.describe(t.before, &t.after))
    }

    /// The change's outcome: the rules action applied to the picked sheet,
    /// as the command's own (the command's path once the house rule allows
    /// it, and the approving referee's).
    async fn outcome(self, _app: &App, turn: &mut Turn<'_>) -> Result<Outcome, AppError> {
        let (log_action, headline) = self.words();
        let words = Words {
            fc_only: None,
            log_action,
            headline: &headline,
        };
        applied(turn, self.who.pick(), words, |s| self.action(s)).await
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::app::change::read_back;

    /// Each governed change as an approval row stores it today (written by
    /// `/vr facet step` … `/vr sheet edit` under `player_edits = approval`).
    const STORED: [(&str, usize); 6] = [
        (
            r#"{"die":"d10","edit":"facet_add","phrase":"Blacksmith","who":{"character":"Ada","player":303779529149266183}}"#,
            0,
        ),
        (
            r#"{"edit":"facet_step","facet":"Cruel","up":true,"who":{"character":"Ada","player":303779529149266183}}"#,
            1,
        ),
        (
            r#"{"edit":"facet_remove","facet":"1","who":{"character":"Ada","player":303779529149266183}}"#,
            2,
        ),
        (
            r#"{"edit":"item_remove","inventory":"light","slot":1,"who":{"character":"Ada","player":303779529149266183}}"#,
            3,
        ),
        (
            r#"{"edit":"unlock","inventory":"flesh","who":{"character":"Ada","player":303779529149266183}}"#,
            4,
        ),
        (
            r#"{"current":2,"edit":"hp","max":3,"who":{"character":"Ada","player":303779529149266183}}"#,
            5,
        ),
    ];

    #[test]
    fn a_stored_approval_reads_and_writes_back_the_same() {
        let ada = Who::new(Some("Ada"), Some(303779529149266183));
        for (json, governed) in STORED {
            let edit: Edit = read_back(json, &ada);
            assert_eq!(edit.governed().what, LIST[governed].what, "{json}");
        }
    }

    #[test]
    fn every_example_writes_and_reads_back() {
        for (i, edit) in Edit::examples(Who::new(Some("Ada"), None))
            .into_iter()
            .enumerate()
        {
            let json = serde_json::to_value(&edit).unwrap();
            assert_eq!(serde_json::from_value::<Edit>(json).unwrap(), edit);
            assert_eq!(edit.governed().what, LIST[i].what);
        }
    }
}
