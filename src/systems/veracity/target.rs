//! Whose sheet an action touches and whether the caller may touch it, the
//! option parsers shared by every command, and the one-transaction "apply
//! a rules action to a sheet" helper.

use crate::app::characters::Pick;
use serde::Serialize;

use super::context::{Outcome, Turn};
use super::{render, HINT, SYSTEM};
use crate::app::characters::{self, Access, Loaded};
use crate::app::pipeline::Record;
use crate::app::{rights, App, AppError, AppResult, Caller, Response, View};
use crate::rules::veracity::save::{FacetBonus, SaveResult};
use crate::rules::veracity::{Action, Amount, Event, InventoryKind, Sheet};
use crate::storage::sessions::Status;
use crate::storage::Tx;

/// The sheet a command picks (`character:` and `player:`; neither: the
/// caller's active one), with the rights and refusals every system shares.
pub async fn sheet_for(
    tx: &mut Tx,
    caller: &Caller,
    player: Pick<'_>,
) -> Result<Loaded<Sheet>, AppError> {
    let fc = rights::is_fc(tx, caller).await?;
    characters::resolve(
        tx,
        caller,
        fc,
        SYSTEM,
        player,
        characters::Access::Owner,
        HINT,
    )
    .await
}

/// A sheet by its row id, if the caller owns it or is the FC.
pub async fn sheet_by_id(turn: &mut Turn<'_>, id: i64) -> Result<Loaded<Sheet>, AppError> {
    let c = turn
        .character_by_id(id)
        .await?
        .ok_or_else(|| AppError::user("That sheet no longer exists."))?;
    if c.row.owner_id != turn.caller().user_id && !turn.fc {
        return Err(AppError::user(format!(
            "Only {}'s owner (or the referee) can change this sheet.",
            super::combat_view::clean(c.name())
        )));
    }
    Ok(c)
}

/// Refuses an action of the dead (`cannot`: what they cannot do, e.g.
/// "make saves"), naming them without markdown.
pub fn refuse_dead(name: &str, sheet: &Sheet, cannot: &str) -> Result<(), AppError> {
    if sheet.is_dead() {
        return Err(AppError::user(format!(
            "{} is dead and cannot {cannot}.",
            super::combat_view::clean(name)
        )));
    }
    Ok(())
}

/// Parses `3`, `d4`, `2d6` (the guild's dice cap is applied with the action).
pub fn amount(text: &str) -> Result<Amount, AppError> {
    Ok(text.parse()?)
}

/// Refuses an action whose amount rolls more dice than the guild allows
/// (`cap`).
pub fn check_dice_cap(cap: u32, action: &Action) -> Result<(), AppError> {
    match action.amount() {
        Some(Amount::Dice { count, .. }) if count > cap => Err(AppError::user(format!(
            "This server allows at most {cap} dice per roll, not {count}."
        ))),
        _ => Ok(()),
    }
}

/// Parses a list of slot numbers such as `1, 3 5` (at most 18, each 1..=18).
pub fn slots(text: Option<&str>) -> Result<Vec<u32>, AppError> {
    let Some(text) = text else {
        return Ok(Vec::new());
    };
    let mut out = Vec::new();
    for part in text
        .split(|c: char| c == ',' || c.is_whitespace())
        .filter(|p| !p.is_empty())
    {
        let n: u32 = part
            .trim_start_matches('#')
            .parse()
            .ok()
            .filter(|n| (1..=18).contains(n))
            .ok_or_else(|| {
                AppError::user(format!(
                    "`{part}` is not a slot number: write slots 1 to 18 like `1, 3`."
                ))
            })?;
        if out.len() >= 18 {
            return Err(AppError::user("List at most 18 slots."));
        }
        out.push(n);
    }
    Ok(out)
}

/// A Facet by its number (`1`) or its phrase, as a 0-based index
/// ([`Sheet::facet_named`]); when none matches, the refusal lists the
/// Facets and says how to add one.
pub fn facet_index(sheet: &Sheet, text: &str) -> Result<usize, AppError> {
    sheet.facet_named(text)?.ok_or_else(|| {
        let t = text.trim();
        let have =
            crate::rules::names::closest_first(t, sheet.facets().iter().map(|f| f.phrase.as_str()));
        let listed = if have.is_empty() {
            "It has no Facets yet".to_string()
        } else {
            format!("Its Facets: {have}")
        };
        AppError::user(format!(
            "This character has no Facet `{t}`. {listed}; add one with `/vr facet add`."
        ))
    })
}

/// Checks a free text against the configured limit.
pub fn text(app: &App, what: &str, s: &str) -> Result<String, AppError> {
    let max = app.config.limits.max_text_len;
    if s.chars().count() > max {
        return Err(AppError::user(format!(
            "{what} can be at most {max} characters long."
        )));
    }
    Ok(s.trim().to_string())
}

/// Every dice roll among the events (for the log's `dice` column).
pub fn dice_of(events: &[Event]) -> Vec<&Event> {
    events
        .iter()
        .filter(|e| matches!(e, Event::Rolled { .. }))
        .collect()
}

/// Every die thrown among the events, as (sides, face), for `/stats`.
pub fn faces_of(events: &[Event]) -> Vec<(u32, u32)> {
    events
        .iter()
        .flat_map(|e| match e {
            Event::Rolled { sides, faces, .. } => faces.iter().map(|f| (*sides, *f)).collect(),
            _ => Vec::new(),
        })
        .collect()
}

/// A log entry of a sheet change: what was asked, the dice its events
/// threw (with their faces, for `/stats`) and the events.
pub fn entry(action: &str, inputs: &impl Serialize, events: &[Event]) -> Record {
    Record::new(action, inputs, &events).dice(&dice_of(events), faces_of(events))
}

/// Applies one rules action to the picked sheet (by default the
/// caller's active one) in one transaction, and answers with what happened and the
/// slots afterwards. `headline` names the change, e.g. "gains Stress".
pub async fn apply(
    app: &App,
    caller: &Caller,
    player: Pick<'_>,
    action: Action,
    log_action: &str,
    headline: &str,
) -> AppResult {
    apply_as(app, caller, player, None, log_action, headline, |_| {
        Ok(action)
    })
    .await
}

/// Like [`apply`], with the action built from the loaded sheet (to resolve
/// a Facet by name, say); with `fc_only`, refuses unless the caller is the
/// FC (the text completes "Only the FC can …").
pub async fn apply_as(
    app: &App,
    caller: &Caller,
    player: Pick<'_>,
    fc_only: Option<&str>,
    log_action: &str,
    headline: &str,
    build: impl FnOnce(&Sheet) -> Result<Action, AppError>,
) -> AppResult {
    let mut turn = Turn::begin(app, caller).await?;
    let words = Words {
        fc_only,
        log_action,
        headline,
    };
    let out = applied(&mut turn, player, words, build).await?;
    turn.finish(out).await
}

/// What a sheet change is called: the refusal unless the caller is the
/// referee (`fc_only`, completing "Only the referee can …"), the log's
/// action word and the answer's headline.
#[derive(Debug, Clone, Copy)]
pub struct Words<'a> {
    /// The referee's alone: what they do.
    pub fc_only: Option<&'a str>,
    /// The log's action word.
    pub log_action: &'a str,
    /// The answer's headline, e.g. "gains Stress".
    pub headline: &'a str,
}

/// The outcome of [`apply_as`] (also an approved change's): the rules
/// action `build` makes applied to the picked sheet; heart-attack Wounds
/// waiting for the owner's choice come with the buttons to choose (a sheet
/// session, so they survive).
pub async fn applied(
    turn: &mut Turn<'_>,
    player: Pick<'_>,
    words: Words<'_>,
    build: impl FnOnce(&Sheet) -> Result<Action, AppError>,
) -> Result<Outcome, AppError> {
    if let Some(what) = words.fc_only {
        turn.require_gm(super::GM, what)?;
    }
    let mut c = turn.character(player, Access::Owner).await?;
    let action = build(&c.sheet)?;
    check_dice_cap(turn.max_dice(), &action)?;
    let events = c.sheet.apply(&action, &turn.settings, &mut turn.rng())?;
    let log = entry(words.log_action, &action, &events).character(c.row.id);
    let v = render::change_view(c.name(), words.headline, &c.sheet, &events);
    Ok(answer_change(turn, &c, v).sheet(c).log(log))
}

/// The answer `view` to a change of `c`'s sheet: while heart-attack Wounds
/// wait for room, in a session of its own that carries the owner's choice
/// of what each displaces ([`render::displace_rows`]).
pub fn answer_change(turn: &Turn<'_>, c: &Loaded<Sheet>, view: View) -> Outcome {
    if c.sheet.pending_wounds() == 0 {
        return Outcome::answer(Response::message(view));
    }
    let sheet = c.sheet.clone();
    let state = super::state::VrState::Sheet {
        character: c.row.id,
    };
    let timeout = Some(turn.guild.session_timeout_minutes);
    Outcome::new(move |s| {
        Response::message(render::displace_rows(view, s.id, s.version, &sheet, true))
    })
    .start(super::KIND, &state, Status::Open, timeout)
}

/// A log entry of a save: its inputs, the d20 and each Facet die.
pub fn save_entry(what: &str, inputs: &impl Serialize, r: &SaveResult) -> Record {
    let mut faces = vec![(20, r.d20)];
    faces.extend(r.facets.iter().map(|f| (f.bonus.die.sides(), f.roll)));
    let dice = super::record::SaveDice {
        d20: r.d20,
        facets: r.facets.clone(),
    };
    Record::new(what, inputs, r).dice(&dice, faces)
}

/// What every `/vr save` asks, in a fight or out of one: the inventory
/// read, the modifier (+ is harder), the saver's own Facet (by number or
/// words) and whose save it is.
#[derive(Debug, Clone, Copy)]
pub struct Save<'a> {
    /// Light or Flesh.
    pub inventory: InventoryKind,
    /// The modifier.
    pub modifier: i32,
    /// The saver's own Facet, if it bears on the save.
    pub facet: Option<&'a str>,
    /// The saver (in a fight: who flees).
    pub pick: Pick<'a>,
}

/// The saver's own Facet on a save (VR-12: rolled and taken off the
/// total), by number or words: its label and bonus.
pub fn own_facet(
    sheet: &Sheet,
    facet: Option<&str>,
) -> Result<(Vec<String>, Vec<FacetBonus>), AppError> {
    match facet.map(str::trim).filter(|f| !f.is_empty()) {
        None => Ok((Vec::new(), Vec::new())),
        Some(text) => {
            let f = &sheet.facets()[facet_index(sheet, text)?];
            Ok((
                vec![f.phrase.clone()],
                vec![FacetBonus::owner_saving(f.die)],
            ))
        }
    }
}
