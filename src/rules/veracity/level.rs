//! Levelling up by shocking an NPC with Secrets (VR-24): one new slot, each
//! Secret and piece of Evidence counted once, nothing after the first Break.

use serde::{Deserialize, Serialize};

use super::event::Event;
use super::sheet::{
    normalize_text, InventoryKind, ItemKind, Revelation, Sheet, MAX_NOTE, MAX_SLOTS,
};
use crate::rules::RuleError;

/// What a PC revealed to shock an NPC, and where the new slot goes (VR-24).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct RevelationInput {
    /// The shocked NPC.
    pub target: String,
    /// Light slots holding the Secrets revealed (at least one).
    pub secret_slots: Vec<u32>,
    /// Flesh slots holding the Evidence shown (optional).
    pub evidence_slots: Vec<u32>,
    /// The referee's note, e.g. why this revelation is greater than the last.
    pub note: String,
    /// The inventory that gains a slot (the player's choice).
    pub gain: InventoryKind,
}

/// The items a revelation names: their texts and identities, in order.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Named {
    /// The texts.
    pub texts: Vec<String>,
    /// The identities (0 for an item the sheet has not numbered yet).
    pub ids: Vec<u64>,
}

fn texts_in(
    sheet: &Sheet,
    inventory: InventoryKind,
    kind: ItemKind,
    slots: &[u32],
) -> Result<Named, RuleError> {
    if slots.len() > MAX_SLOTS as usize {
        return Err(RuleError::new("Too many slots listed for one revelation."));
    }
    let mut out = Named::default();
    for (i, &n) in slots.iter().enumerate() {
        if slots[..i].contains(&n) {
            return Err(RuleError::new(format!(
                "{inventory} slot {n} is listed twice."
            )));
        }
        match sheet.inventory(inventory).get(n) {
            Some(item) if item.kind == kind => {
                out.texts.push(item.text.clone());
                out.ids.push(item.id);
            }
            _ => {
                return Err(RuleError::new(format!(
                    "{inventory} slot {n} does not hold {}.",
                    kind.with_article()
                )))
            }
        }
    }
    Ok(out)
}

impl Sheet {
    /// Checks a revelation without changing anything; `Ok` means
    /// [`Sheet::reveal_to_shock`] would succeed.
    pub fn check_revelation(&self, input: &RevelationInput) -> Result<(Named, Named), RuleError> {
        self.ensure_alive()?;
        if !self.can_level_up {
            return Err(RuleError::new(
                "This character has Broken and lost the will to seek: they can no longer level up.",
            ));
        }
        let target = input.target.trim();
        if target.is_empty() {
            return Err(RuleError::new("Name the NPC who was shocked."));
        }
        if target.chars().count() > MAX_NOTE || input.note.chars().count() > MAX_NOTE {
            return Err(RuleError::new(format!(
                "The target and the note can be at most {MAX_NOTE} characters each."
            )));
        }
        if input.secret_slots.is_empty() {
            return Err(RuleError::new(
                "Levelling up needs at least one Secret revealed.",
            ));
        }
        let secrets = texts_in(
            self,
            InventoryKind::Light,
            ItemKind::Secret,
            &input.secret_slots,
        )?;
        let evidence = texts_in(
            self,
            InventoryKind::Flesh,
            ItemKind::Evidence,
            &input.evidence_slots,
        )?;
        // An item counts once by its identity, whatever it is called now;
        // log entries written before identities existed match by text.
        type Pick = fn(&Revelation) -> (&Vec<String>, &Vec<u64>);
        let used = |text: &str, id: u64, pick: Pick| {
            let t = normalize_text(text);
            self.revelation_log.iter().any(|r| {
                let (texts, ids) = pick(r);
                if ids.is_empty() || id == 0 {
                    texts.iter().any(|u| normalize_text(u) == t)
                } else {
                    ids.contains(&id)
                }
            })
        };
        for (s, &id) in secrets.texts.iter().zip(&secrets.ids) {
            if used(s, id, |r| (&r.secrets, &r.secret_ids)) {
                return Err(RuleError::new(format!(
                    "The Secret \"{s}\" was already used to level up: each Secret counts once, whatever its wording."
                )));
            }
        }
        for (e, &id) in evidence.texts.iter().zip(&evidence.ids) {
            if used(e, id, |r| (&r.evidence, &r.evidence_ids)) {
                return Err(RuleError::new(format!(
                    "The Evidence \"{e}\" was already used to level up: each piece counts once, whatever its wording."
                )));
            }
        }
        let secret_texts = &secrets.texts;
        for (i, s) in secret_texts.iter().enumerate() {
            if secret_texts[..i]
                .iter()
                .any(|o| normalize_text(o) == normalize_text(s))
            {
                return Err(RuleError::new(format!(
                    "The Secret \"{s}\" is listed twice."
                )));
            }
        }
        if self.inventory(input.gain).unlocked() >= MAX_SLOTS {
            return Err(RuleError::new(format!(
                "Your {} inventory already has all {MAX_SLOTS} slots: choose the other one.",
                input.gain
            )));
        }
        Ok((secrets, evidence))
    }

    /// A PC shocked an NPC by revealing Secrets (VR-24): the chosen inventory
    /// gains one slot and the revelation is logged. Refused after the first
    /// Break, when a Secret or Evidence was used before, or at 18 slots.
    /// The Secrets stay on the sheet; the application may then offer to
    /// remove them as "just news" (VR-5) with [`Sheet::remove_secret_text`].
    pub fn reveal_to_shock(&mut self, input: &RevelationInput) -> Result<Vec<Event>, RuleError> {
        self.number_items();
        let (secrets, evidence) = self.check_revelation(input)?;
        let slot = match input.gain {
            InventoryKind::Light => self.light.unlock()?,
            InventoryKind::Flesh => self.flesh.unlock()?,
        };
        let target = input.target.trim().to_string();
        self.revelation_log.push(Revelation {
            target: target.clone(),
            secrets: secrets.texts,
            evidence: evidence.texts,
            secret_ids: secrets.ids,
            evidence_ids: evidence.ids,
            note: input.note.trim().to_string(),
            gained: input.gain,
            slot,
        });
        Ok(vec![
            Event::RevelationLogged {
                index: self.revelation_log.len() - 1,
                target,
            },
            Event::LevelledUp {
                inventory: input.gain,
                slot,
            },
        ])
    }
}
