//! `/st sheet …`: creating and editing Storyteller sheets (§4.1), the card
//! the shared `/st sheet show` posts, and the sheet card's "Ignore wound
//! penalty" button (ST-12).
//!
//! Players edit their own sheets; the storyteller edits any sheet in the guild (by
//! name, or a member's active one). Edits answer privately; creating and
//! showing a sheet post its card, whose button works until the character
//! is gone (it acts on the sheet as it is when clicked).

use super::record;

use crate::app::characters::{Access, Loaded, Pick};
use crate::app::component::{Action, Click};
use crate::app::pipeline::{Record, Shown};
use crate::app::view::{colour, escape, Button, Embed, Style};
use crate::app::{sessions, Act, App, AppError, AppResult, Caller, Response, View};
use crate::kit::controls::shown;
use crate::rules::entries;
use crate::rules::storyteller::willpower::{can_spend_to_ignore_wounds, spend_to_ignore_wounds};
use crate::rules::storyteller::{
    Category, SpecialtyType, StorytellerSettings, StorytellerSheet, TraitKind,
};
use crate::storage::sessions::Status;
use crate::storage::{self, sessions::Session, Tx};

use super::buttons::SheetButton;
use super::context::{check_len, Outcome, Turn};
use super::roll_view::event_text;
use super::sheet_view::{dots, sheet_embed, willpower_change, wound_text};
use super::{GM, SHEET_KIND};

pub use super::state::CardState;

/// The card of a sheet: the embed, and the ST-12 button when it may be used.
pub fn card(id: i64, version: i64, c: &Loaded<StorytellerSheet>) -> View {
    let mut view = View::embed(sheet_embed(c.name(), c.row.owner_id, &c.sheet));
    // The message shows the session even without its button, so a change
    // of the sheet can redraw it (`app::pipeline`).
    view.shows = Some(id);
    view.buttons(shown([(
        can_spend_to_ignore_wounds(&c.sheet),
        Button::new(
            SheetButton::Ignore.button(SHEET_KIND, id, version).encode(),
            "Ignore wound penalty (1 willpower)",
            Style::Primary,
        ),
    )]))
}

/// `/st sheet create`: a new character (attributes at 1, abilities at 0,
/// willpower full), made the owner's active one, and its card posted (a
/// session, so its button survives restarts). The storyteller may create
/// one for another member.
pub async fn create(
    app: &App,
    caller: &Caller,
    name: &str,
    willpower: u8,
    player: Option<i64>,
) -> AppResult {
    check_len(name, app.config.limits.max_text_len, "name")?;
    let mut turn = Turn::begin(app, caller).await?;
    let owner = player.unwrap_or(caller.user_id);
    if owner != caller.user_id {
        turn.require_gm(GM, "create a character for another player")?;
    }
    let sheet = StorytellerSheet::new(willpower)?;
    let c = turn.create(owner, name, sheet).await?;
    let entry = Record::new(
        "sheet_create",
        &record::Created {
            name: name.to_string(),
            willpower,
            owner,
        },
        &record::NewSheet {
            sheet: c.sheet.clone(),
        },
    )
    .character(c.row.id);
    let state = CardState {
        character_id: c.row.id,
    };
    let out = Outcome::new(move |s: &Shown| {
        let mut view = card(s.id, 0, &c);
        // A new sheet's card leaves the legend to `/st sheet show`.
        if let Some(e) = view.embeds.first_mut() {
            e.footer = None;
        }
        Response::message(view)
    })
    .start(SHEET_KIND, &state, Status::Open, None)
    .log(entry);
    turn.finish(out).await
}

/// Edits the character `target` names with `edit` (the sheet is saved and
/// logged by the pipeline); answers privately with the text `edit`
/// returns.
async fn edit(
    turn: &mut Turn<'_>,
    target: Pick<'_>,
    action: &str,
    inputs: impl serde::Serialize,
    edit: impl FnOnce(&StorytellerSettings, &mut StorytellerSheet) -> Result<String, AppError>,
) -> Result<Outcome, AppError> {
    edit_drawn(turn, target, action, inputs, edit, |name, text| {
        View::embed(
            Embed::new(format!("📜 {name}"))
                .description(text)
                .colour(colour::NEUTRAL),
        )
    })
    .await
}

/// As [`edit`], the answer drawn by `draw` from the character's name and
/// the edit's text.
async fn edit_drawn(
    turn: &mut Turn<'_>,
    target: Pick<'_>,
    action: &str,
    inputs: impl serde::Serialize,
    edit: impl FnOnce(&StorytellerSettings, &mut StorytellerSheet) -> Result<String, AppError>,
    draw: impl FnOnce(&str, String) -> View,
) -> Result<Outcome, AppError> {
    let mut c = turn.character(target, Access::Owner).await?;
    let text = edit(&turn.settings, &mut c.sheet)?;
    let entry =
        Record::new(action, &inputs, &record::Edited { text: text.clone() }).character(c.row.id);
    let view = draw(&c.shown(), text);
    Ok(Outcome::answer(Response::ephemeral(view))
        .sheet(c)
        .log(entry))
}

/// `/st sheet set`: a trait's dots (0..5).
pub async fn set(
    app: &App,
    caller: &Caller,
    trait_name: &str,
    value: u8,
    target: Pick<'_>,
) -> AppResult {
    check_len(trait_name, app.config.limits.max_text_len, "trait name")?;
    let mut turn = Turn::begin(app, caller).await?;
    let out = edit(
        &mut turn,
        target,
        "sheet_set",
        record::TraitSet {
            name: trait_name.to_string(),
            dots: value,
        },
        |settings, sheet| {
            let catalog = settings.catalog();
            let before = sheet.lookup(&catalog, trait_name).map(|(_, d)| d).ok();
            let t = sheet.set_trait(&catalog, trait_name, value)?;
            let kind = t.kind.category().map_or("Attribute", Category::name);
            Ok(match before {
                Some(b) if b != value => format!(
                    "{} ({kind}): {} → {} ({value})",
                    escape(&t.name),
                    dots(b),
                    dots(value)
                ),
                _ => format!("{} ({kind}): {} ({value})", escape(&t.name), dots(value)),
            })
        },
    )
    .await?;
    turn.finish(out).await
}

/// `/st sheet set traits:"Wits 3, Alertness 2"`: every trait of a list
/// at once (issue 31). Each entry is checked as `/st sheet set` checks one
/// (the name resolved on this sheet with its nearest names as hints, the
/// dots in range); one bad entry refuses the whole list, naming every bad
/// one, and nothing is saved. Otherwise one save, one history entry, and
/// one line of what changed ("Bo: Wits 1 → 3, Alertness 0 → 2").
pub async fn set_list(app: &App, caller: &Caller, list: &str, target: Pick<'_>) -> AppResult {
    let entries = entries::parse(list, "Wits 3")?;
    let mut turn = Turn::begin(app, caller).await?;
    let out = edit_drawn(
        &mut turn,
        target,
        "sheet_traits",
        record::TraitsSet {
            traits: list.to_string(),
        },
        |settings, sheet| {
            let set = sheet
                .set_traits(&settings.catalog(), &entries)
                .map_err(|bad| {
                    let sep = if bad.len() == 1 { " " } else { "\n" };
                    AppError::user(format!("Nothing saved.{sep}{}", bad.join("\n")))
                })?;
            let (changed, kept): (Vec<_>, Vec<_>) = set.iter().partition(|s| s.before != s.dots);
            if changed.is_empty() {
                let kept: Vec<String> = kept
                    .iter()
                    .map(|s| format!("{} {}", escape(&s.name), s.dots))
                    .collect();
                return Err(AppError::user(format!(
                    "Nothing to change: the sheet already has {}.",
                    kept.join(", ")
                )));
            }
            let changed: Vec<String> = changed
                .iter()
                .map(|s| format!("{} {} → {}", escape(&s.name), s.before, s.dots))
                .collect();
            Ok(changed.join(", "))
        },
        |name, text| View::text(format!("{name}: {text}")),
    )
    .await?;
    turn.finish(out).await
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
    target: Pick<'_>,
) -> AppResult {
    let max = app.config.limits.max_text_len;
    check_len(ability, max, "ability name")?;
    check_len(name, max, "specialty name")?;
    let mut turn = Turn::begin(app, caller).await?;
    let out = edit(
        &mut turn,
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
        |settings, sheet| {
            let catalog = settings.catalog();
            if remove {
                let s = sheet.remove_specialty(&catalog, ability, name)?;
                let t = catalog.resolve_with(ability, sheet.custom_traits())?;
                return Ok(format!(
                    "{}: specialty {} removed.",
                    escape(&t.name),
                    escape(&s.name)
                ));
            }
            let kind = advanced.map(SpecialtyType::advanced_if);
            let s = sheet.add_specialty(&catalog, ability, name, kind)?;
            let t = catalog.resolve_with(ability, sheet.custom_traits())?;
            Ok(format!(
                "{}: new {} specialty **{}**. Use it on a roll with `specialties:{}` (one per dot of {}).",
                escape(&t.name),
                s.kind.key(),
                escape(&s.name),
                s.name,
                escape(&t.name)
            ))
        },
    )
    .await?;
    turn.finish(out).await
}

/// `/st sheet set trait: kind:`: a custom trait on this sheet only (A-S12).
pub async fn custom_trait(
    app: &App,
    caller: &Caller,
    name: &str,
    kind: TraitKind,
    value: Option<u8>,
    target: Pick<'_>,
) -> AppResult {
    check_len(name, app.config.limits.max_text_len, "trait name")?;
    let mut turn = Turn::begin(app, caller).await?;
    let out = edit(
        &mut turn,
        target,
        "sheet_trait",
        record::CustomTrait {
            name: name.to_string(),
            kind,
            dots: value,
        },
        |settings, sheet| {
            let catalog = settings.catalog();
            let t = sheet.add_custom_trait(&catalog, name, kind)?;
            let d = value.unwrap_or(0);
            if d > 0 {
                sheet.set_trait(&catalog, &t.name, d)?;
            }
            Ok(format!(
                "New custom {} **{}**: {} ({d}).",
                kind.key(),
                escape(&t.name),
                dots(d)
            ))
        },
    )
    .await?;
    turn.finish(out).await
}

/// `/st sheet willpower`: sets permanent (1..10) and/or current
/// (0..permanent) willpower. Current 0 means incapacitated (ST-13).
pub async fn willpower(
    app: &App,
    caller: &Caller,
    current: Option<u8>,
    permanent: Option<u8>,
    target: Pick<'_>,
) -> AppResult {
    if current.is_none() && permanent.is_none() {
        return Err(AppError::user("Give `current`, `permanent` or both."));
    }
    let mut turn = Turn::begin(app, caller).await?;
    let out = willpower_set(&mut turn, current, permanent, target).await?;
    turn.finish(out).await
}

/// The outcome of `/st sheet willpower` (also an approved change's).
pub async fn willpower_set(
    turn: &mut Turn<'_>,
    current: Option<u8>,
    permanent: Option<u8>,
    target: Pick<'_>,
) -> Result<Outcome, AppError> {
    edit(
        turn,
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
            let mut text = format!("Willpower {}", willpower_change(was, sheet.willpower()));
            if sheet.incapacitated() {
                text.push_str("\n💤 At 0 willpower the character is incapacitated: no actions.");
            }
            Ok(text)
        },
    )
    .await
}

/// `/st sheet wounds`: the wound penalty (A-S7), dice removed from and
/// difficulty added to every action (governed: run through the approval).
pub async fn wounds_set(
    turn: &mut Turn<'_>,
    dice: u8,
    difficulty: u8,
    target: Pick<'_>,
) -> Result<Outcome, AppError> {
    edit(
        turn,
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
pub async fn click(app: &App, act: Act, session: Session, click: &Click<'_>) -> AppResult {
    let caller = click.caller;
    let state: CardState = sessions::load(&session)?;
    let mut turn = Turn::click(app, act, caller).await?;
    let c = turn
        .character_by_id(state.character_id)
        .await?
        .ok_or_else(|| AppError::user("That character no longer exists."))?;
    if c.row.owner_id != caller.user_id && !turn.fc {
        return Err(AppError::user(format!(
            "Only {}'s player or the {GM} can spend their willpower.",
            c.shown()
        )));
    }
    let button = click.action::<SheetButton>()?;
    let out = match button {
        SheetButton::Ignore => ignore_wounds(session, state, c)?,
    };
    turn.finish(out).await
}

/// The sheet card's `ignore` button: spends 1 willpower so the next action
/// ignores the wound penalty (ST-12).
fn ignore_wounds(
    session: Session,
    state: CardState,
    mut c: Loaded<StorytellerSheet>,
) -> Result<Outcome, AppError> {
    let events = spend_to_ignore_wounds(&mut c.sheet)?;
    let note: Vec<String> = events
        .iter()
        .filter_map(|e| event_text(e, c.name()))
        .collect();
    let entry = Record::new(
        "ignore_wounds",
        &record::ChoiceInputs {
            button: SheetButton::Ignore.word().to_string(),
            fc: false,
        },
        &record::Events { events },
    )
    .character(c.row.id);
    let drawn = c.clone();
    Ok(Outcome::new(move |s: &Shown| {
        let mut response = Response::update(card(s.id, s.version, &drawn));
        if !note.is_empty() {
            response = response.then(crate::app::Reply::Message(View::text(format!(
                "🩹 {}: {} The next action ignores the wound penalty.",
                drawn.shown(),
                note.join(" ")
            ))));
        }
        response
    })
    .save(session, &state, Status::Open, None)
    .sheet(c)
    .log(entry))
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
