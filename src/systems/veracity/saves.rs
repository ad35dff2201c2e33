//! The save (VR-7..VR-11): d20 + modifier (+ is harder), optionally shifted
//! by one of the saver's Facet dice in their favour, read against a slot of
//! the Light or Flesh inventory. The chance is computed before rolling.

use crate::app::characters::Pick;
use serde_json::json;

use super::render;
use super::target::{self, facet_index, sheet_for};
use crate::app::{App, AppResult, Caller, Response};
use crate::rules::veracity::save::{FacetBonus, SaveRequest};
use crate::rules::veracity::InventoryKind;
use crate::app::Act;

/// `/vr save`: rolls a save for the active sheet of `player` (or the caller's).
pub async fn save(
    app: &App,
    caller: &Caller,
    inventory: InventoryKind,
    modifier: i32,
    facet: Option<&str>,
    player: Pick<'_>,
) -> AppResult {
    let mut tx = Act::begin(app, caller).await?;
    let c = sheet_for(&mut tx, caller, player).await?;
    let settings = target::settings(&mut tx, caller.guild_id).await?;
    let mut labels = Vec::new();
    let mut facets = Vec::new();
    if let Some(f) = facet.map(str::trim).filter(|f| !f.is_empty()) {
        let i = facet_index(&c.sheet, f)?;
        let f = &c.sheet.facets()[i];
        labels.push(f.phrase.clone());
        facets.push(FacetBonus::owner_saving(f.die));
    }
    let request = SaveRequest {
        inventory,
        modifier,
        facets,
    };
    let result = c.sheet.save(&request, &settings, &mut app.rng.fork())?;
    let mut faces = vec![(20, result.d20)];
    faces.extend(result.facets.iter().map(|f| (f.bonus.die.sides(), f.roll)));
    crate::app::log::record_rolled(
        &mut tx,
        caller,
        crate::app::log::What {
            system: super::SYSTEM,
            action: "save",
            session: None,
            character: Some(c.row.id),
        },
        &request,
        &json!({"d20": result.d20, "facets": result.facets}),
        &result,
        &faces,
    )
    .await?;
    tx.commit().await?;
    Ok(Response::message(render::save_view(
        c.name(),
        c.sheet.inventory(inventory),
        &labels,
        &result,
    )))
}
