//! `/st sheet …`: creating and editing Storyteller sheets (§4.1), the card
//! the shared `/st sheet show` posts, and the sheet card's "Ignore wound
//! penalty" button (ST-12).
//!
//! Players edit their own sheets; the storyteller edits any sheet in the guild (by
//! name, or a member's active one). Edits answer privately; creating and
//! showing a sheet post its card, whose button works until the character
//! is gone (it acts on the sheet as it is when clicked).

use super::record;
use serde::{Deserialize, Serialize};

use crate::app::characters::{self, Loaded};
use crate::app::component::{Action, Click};
use crate::app::log::{self, What};
use crate::app::view::{colour, Button, Embed, Style};
use crate::app::{sessions, App, AppError, AppResult, Caller, Response, View};
use crate::rules::storyteller::willpower::{can_spend_to_ignore_wounds, spend_to_ignore_wounds};
use crate::rules::storyteller::{SpecialtyType, StorytellerSheet, TraitKind};
use crate::storage::{self, sessions::Session, Tx};

use super::buttons::SheetButton;
use super::context::{self, check_len, Ctx, Target};
use super::roll_view::event_text;
use super::sheet_view::{dots, sheet_embed, willpower_track, wound_text};
use super::{GM, SHEET_KIND, SYSTEM};
use crate::app::Act;
use crate::storage::sessions::Status;

/// What a sheet card's session keeps.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct CardState {
    /// The character shown.
    pub character_id: i64,
}

/// The card of a sheet: the embed, and the ST-12 button when it may be used.
pub fn card(id: i64, version: i64, c: &Loaded<StorytellerSheet>) -> View {
    let view = View::embed(sheet_embed(c.name(), c.row.owner_id, &c.sheet));
    if can_spend_to_ignore_wounds(&c.sheet) {
        view.buttons(vec![Button::new(
            SheetButton::Ignore.button(SHEET_KIND, id, version).encode(),
            "Ignore wound penalty (1 willpower)",
            Style::Primary,
        )])
    } else {
        view
    }
}

async fn record(
    tx: &mut Tx,
    caller: &Caller,
    action: &str,
    c: &Loaded<StorytellerSheet>,
    inputs: impl serde::Serialize,
    outcome: impl serde::Serialize,
) -> Result<(), AppError> {
    log::record(
        tx,
        caller,
        What {
            system: SYSTEM,
            action,
            session: None,
            character: Some(c.row.id),
        },
        &inputs,
        &(),
        &outcome,
    )
    .await
}

/// Posts a character's card (a session, so its button survives restarts).
async fn post_card(mut tx: Act, caller: &Caller, c: &Loaded<StorytellerSheet>) -> AppResult {
    let id = sessions::create(
        &mut tx,
        caller,
        SHEET_KIND,
        &CardState {
            character_id: c.row.id,
        },
        None,
    )
    .await?;
    tx.commit().await?;
    let mut view = card(id, 0, c);
    // A new sheet's card leaves the legend to `/st sheet show`.
    if let Some(e) = view.embeds.first_mut() {
        e.footer = None;
    }
    Ok(Response::message(view))
}

/// `/st sheet create`: a new character (attributes at 1, abilities at 0,
/// willpower full), made the owner's active one. The storyteller may create one for
/// another member.
pub async fn create(
    app: &App,
    caller: &Caller,
    name: &str,
    willpower: u8,
    player: Option<i64>,
) -> AppResult {
    check_len(name, app.config.limits.max_text_len, "name")?;
    let mut tx = Act::begin(app, caller).await?;
    let ctx = Ctx::load(&mut tx, caller).await?;
    let owner = player.unwrap_or(caller.user_id);
    if owner != caller.user_id && !ctx.fc {
        return Err(AppError::user(
            "Only the storyteller can create a character for another player.",
        ));
    }
    let sheet = StorytellerSheet::new(willpower)?;
    let row = characters::create_for(&mut tx, caller.guild_id, owner, SYSTEM, name, &sheet).await?;
    let c = Loaded { row, sheet };
    record(
        &mut tx,
        caller,
        "sheet_create",
        &c,
        record::Created {
            name: name.to_string(),
            willpower,
            owner,
        },
        record::NewSheet {
            sheet: c.sheet.clone(),
        },
    )
    .await?;
    post_card(tx, caller, &c).await
}

/// The card the shared `/st sheet show` posts (a session opened in the
/// action's transaction, so its button survives restarts).
pub async fn card_of(
    act: &mut Act,
    row: &storage::characters::Character,
) -> Result<View, AppError> {
    let c = context::checked(Loaded {
        sheet: serde_json::from_str(&row.sheet)?,
        row: row.clone(),
    })?;
    let caller = act.caller().clone();
    let id = sessions::create(
        act,
        &caller,
        SHEET_KIND,
        &CardState {
            character_id: c.row.id,
        },
        None,
    )
    .await?;
    Ok(card(id, 0, &c))
}

/// Loads, edits with `edit`, saves and logs a sheet; answers privately
/// with the text `edit` returns.
async fn edit(
    app: &App,
    caller: &Caller,
    target: Target<'_>,
    action: &str,
    inputs: impl serde::Serialize,
    edit: impl FnOnce(&Ctx, &mut StorytellerSheet) -> Result<String, AppError>,
) -> AppResult {
    let mut tx = Act::begin(app, caller).await?;
    let ctx = Ctx::load(&mut tx, caller).await?;
    let mut c = context::character(&mut tx, caller, &ctx, target).await?;
    let text = edit(&ctx, &mut c.sheet)?;
    characters::save(&mut tx, &mut c).await?;
    record(
        &mut tx,
        caller,
        action,
        &c,
        inputs,
        record::Edited { text: text.clone() },
    )
    .await?;
    tx.commit().await?;
    Ok(Response::ephemeral(View::embed(
        Embed::new(format!("📜 {}", c.name()))
            .description(text)
            .colour(colour::NEUTRAL),
    )))
}

/// `/st sheet set`: a trait's dots (0..5).
pub async fn set(
    app: &App,
    caller: &Caller,
    trait_name: &str,
    value: u8,
    target: Target<'_>,
) -> AppResult {
    check_len(trait_name, app.config.limits.max_text_len, "trait name")?;
    edit(
        app,
        caller,
        target,
        "sheet_set",
        record::TraitSet {
            name: trait_name.to_string(),
            dots: value,
        },
        |ctx, sheet| {
            let catalog = ctx.catalog();
            let before = sheet.lookup(&catalog, trait_name).map(|(_, d)| d).ok();
            let t = sheet.set_trait(&catalog, trait_name, value)?;
            let kind = match t.kind.category() {
                Some(c) => c.name(),
                None => "Attribute",
            };
            Ok(match before {
                Some(b) if b != value => format!(
                    "{} ({kind}): {} → {} ({value})",
                    t.name,
                    dots(b),
                    dots(value)
                ),
                _ => format!("{} ({kind}): {} ({value})", t.name, dots(value)),
            })
        },
    )
    .await
}

/// `/st sheet specialty`: adds (or with `remove`, removes) a specialty of
/// an ability; `advanced` picks its type (default: the source's suggestion,
/// else general).
pub async fn specialty(
    app: &App,
    caller: &Caller,
    ability: &str,
    name: &str,
    advanced: Option<bool>,
    remove: bool,
    target: Target<'_>,
) -> AppResult {
    let max = app.config.limits.max_text_len;
    check_len(ability, max, "ability name")?;
    check_len(name, max, "specialty name")?;
    edit(
        app,
        caller,
        target,
        if remove {
            "sheet_specialty_remove"
        } else {
            "sheet_specialty"
        },
        record::SpecialtySet {
            ability: ability.to_string(),
            specialty: name.to_string(),
            advanced,
            remove,
        },
        |ctx, sheet| {
            let catalog = ctx.catalog();
            if remove {
                let s = sheet.remove_specialty(&catalog, ability, name)?;
                let t = catalog.resolve_with(ability, sheet.custom_traits())?;
                return Ok(format!("{}: specialty {} removed.", t.name, s.name));
            }
            let kind = advanced.map(|a| {
                if a {
                    SpecialtyType::Advanced
                } else {
                    SpecialtyType::General
                }
            });
            let s = sheet.add_specialty(&catalog, ability, name, kind)?;
            let t = catalog.resolve_with(ability, sheet.custom_traits())?;
            let kind = match s.kind {
                SpecialtyType::Advanced => "advanced",
                SpecialtyType::General => "general",
            };
            Ok(format!(
                "{}: new {kind} specialty **{}**. Use it on a roll with `specialties:{}` (one per dot of {}).",
                t.name, s.name, s.name, t.name
            ))
        },
    )
    .await
}

/// `/st sheet trait`: a custom trait on this sheet only (A-S12).
pub async fn custom_trait(
    app: &App,
    caller: &Caller,
    name: &str,
    kind: TraitKind,
    value: Option<u8>,
    target: Target<'_>,
) -> AppResult {
    check_len(name, app.config.limits.max_text_len, "trait name")?;
    edit(
        app,
        caller,
        target,
        "sheet_trait",
        record::CustomTrait {
            name: name.to_string(),
            kind,
            dots: value,
        },
        |ctx, sheet| {
            let catalog = ctx.catalog();
            let t = sheet.add_custom_trait(&catalog, name, kind)?;
            let d = value.unwrap_or(0);
            if d > 0 {
                sheet.set_trait(&catalog, &t.name, d)?;
            }
            Ok(format!(
                "New custom {} **{}**: {} ({d}).",
                kind.key(),
                t.name,
                dots(d)
            ))
        },
    )
    .await
}

/// `/st sheet willpower`: sets permanent (1..10) and/or current
/// (0..permanent) willpower. Current 0 means incapacitated (ST-13).
pub async fn willpower(
    app: &App,
    caller: &Caller,
    current: Option<u8>,
    permanent: Option<u8>,
    target: Target<'_>,
) -> AppResult {
    if current.is_none() && permanent.is_none() {
        return Err(AppError::user("Give `current`, `permanent` or both."));
    }
    edit(
        app,
        caller,
        target,
        "sheet_willpower",
        record::WillpowerSet { current, permanent },
        |_, sheet| {
            let was = sheet.willpower();
            if let Some(p) = permanent {
                sheet.set_willpower_permanent(p)?;
            }
            if let Some(c) = current {
                sheet.set_willpower_current(c)?;
            }
            let now = sheet.willpower();
            let mut text = format!(
                "Willpower {} → {}",
                willpower_track(was.current, was.permanent),
                willpower_track(now.current, now.permanent)
            );
            if sheet.incapacitated() {
                text.push_str("\n💤 At 0 willpower the character is incapacitated: no actions.");
            }
            Ok(text)
        },
    )
    .await
}

/// `/st sheet wounds`: the wound penalty (A-S7): dice removed from and
/// difficulty added to every action.
pub async fn wounds(
    app: &App,
    caller: &Caller,
    dice: u8,
    difficulty: u8,
    target: Target<'_>,
) -> AppResult {
    edit(
        app,
        caller,
        target,
        "sheet_wounds",
        record::WoundsSet { dice, difficulty },
        |_, sheet| {
            sheet.set_wound_penalty(dice, difficulty)?;
            Ok(format!(
                "Wound penalty: {} on every action.{}",
                wound_text(dice, difficulty),
                if dice > 0 || difficulty > 0 {
                    " Once per turn, 1 willpower ignores it for the next action (the button on `/st sheet show`, or `ignore_wounds:true` on `/st roll`)."
                } else {
                    ""
                }
            ))
        },
    )
    .await
}

/// A click on a sheet card: `ignore` spends 1 willpower so the next action
/// ignores the wound penalty (ST-12).
pub async fn click(_app: &App, mut tx: Act, session: Session, click: &Click<'_>) -> AppResult {
    let caller = click.caller;
    let state: CardState = sessions::load(&session)?;
    let ctx = Ctx::load(&mut tx, caller).await?;
    let row = storage::characters::get(&mut tx, caller.guild_id, state.character_id)
        .await?
        .ok_or_else(|| AppError::user("That character no longer exists."))?;
    let sheet: StorytellerSheet = serde_json::from_str(&row.sheet)?;
    let c = context::checked(Loaded { row, sheet })?;
    if c.row.owner_id != caller.user_id && !ctx.fc {
        return Err(AppError::user(format!(
            "Only {}'s player or the {GM} can spend their willpower.",
            c.name()
        )));
    }
    let button = SheetButton::read(&click.id.action, click.id.arg.as_deref())?;
    match button {
        SheetButton::Ignore => ignore_wounds(tx, &session, state, caller, c).await,
    }
}

/// The sheet card's `ignore` button: spends 1 willpower so the next action
/// ignores the wound penalty (ST-12).
async fn ignore_wounds(
    mut tx: Act,
    session: &Session,
    state: CardState,
    caller: &Caller,
    mut c: Loaded<StorytellerSheet>,
) -> AppResult {
    let events = spend_to_ignore_wounds(&mut c.sheet)?;
    characters::save(&mut tx, &mut c).await?;
    let version = sessions::save(&mut tx, session, &state, Status::Open, None).await?;
    record(
        &mut tx,
        caller,
        "ignore_wounds",
        &c,
        record::ChoiceInputs {
            button: SheetButton::Ignore.word().to_string(),
            fc: false,
        },
        record::Events {
            events: events.clone(),
        },
    )
    .await?;
    tx.commit().await?;
    let note: Vec<String> = events
        .iter()
        .filter_map(|e| event_text(e, c.name()))
        .collect();
    let mut response = Response::update(card(session.id, version, &c));
    if !note.is_empty() {
        response = response.then(crate::app::Reply::Message(View::text(format!(
            "🩹 {}: {} The next action ignores the wound penalty.",
            c.name(),
            note.join(" ")
        ))));
    }
    Ok(response)
}

/// A sheet card as it stands now.
pub async fn render(tx: &mut Tx, session: &Session) -> Result<View, AppError> {
    let state: CardState = sessions::load(session)?;
    match storage::characters::get(tx, session.guild_id, state.character_id).await? {
        Some(row) => {
            let sheet: StorytellerSheet = serde_json::from_str(&row.sheet)?;
            Ok(card(session.id, session.version, &Loaded { row, sheet }))
        }
        None => Ok(View::embed(
            Embed::new("📜 Character gone")
                .description("This character no longer exists.")
                .colour(colour::CLOSED),
        )),
    }
}
