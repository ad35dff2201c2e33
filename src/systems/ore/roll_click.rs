//! Clicks on a roll message: who may press, which button it was
//! ([`VvButton`]), and for the buttons that act on the dice (a set's
//! Basic action, a split set, a named Special action, picks in a select
//! (a face modifier among them), a discard, Close) the rules core's
//! answer, logged and shown. The selects themselves are in [`super::menu`].

use super::buttons::{Picker, VvButton};
use super::context::{Outcome as Step, Turn};
use super::held::Held;
use super::roll::{shown, RollState};
use super::{discard, menu, record, text};
use crate::app::component::{Action, Click};
use crate::app::pipeline::Record;
use crate::app::view::{clean, escape};
use crate::app::{Act, App, AppError, AppResult, Caller};
use crate::rules::ore::sets::CacheCost;
use crate::rules::ore::{OreSheet, RollAction};
use crate::rules::Actor;
use crate::storage::sessions::Session;

/// A click on a roll message.
pub async fn click(
    app: &App,
    act: Act,
    session: Session,
    mut state: RollState,
    click: &Click<'_>,
) -> AppResult {
    let caller = click.caller;
    let mut turn = Turn::click(app, act, caller).await?;
    let ch = Held::load(turn.tx(), caller.guild_id, state.whose).await?;
    let who = may_press(turn.fc, &session, &state, &ch, caller)?;
    // A discard made elsewhere may already have settled an overflow.
    state.roll.settle_overflow(ch.sheet());
    let button = click.action::<VvButton>()?;
    // A register in a running fight acts on its entity's turn or as its
    // Reaction (seed 004); opening a menu and an overflow's discard (a
    // cache rule, not an action) wait for no turn.
    if !matches!(button, VvButton::Pick(_) | VvButton::Discard) {
        super::combat::require_register_turn(turn.tx(), &session).await?;
    }
    // Opening a menu or turning its page changes no dice.
    match button {
        VvButton::Pick(p) => {
            let out = menu::toggle(&turn, &session, state, ch.sheet(), p)?;
            return turn.finish(out).await;
        }
        VvButton::Select(p) if !matches!(p, Picker::Special) => {
            if let Some(page) = crate::app::view::page_of(click.values) {
                let out = menu::turn_page(&turn, &session, state, ch.sheet(), page);
                return turn.finish(out).await;
            }
        }
        _ => {}
    }
    let action = rules_action(button, click.values, &state, ch.sheet(), who)?;
    let (word, arg) = button.encode();
    let inputs = record::ClickInputs {
        action: word.to_string(),
        arg,
        values: click.values.to_vec(),
    };
    let out = apply(&turn, &session, state, ch, action, &inputs)?;
    turn.finish(out).await
}

/// The rules action a press of `button` asks for (menus handled before).
fn rules_action(
    button: VvButton,
    values: &[String],
    state: &RollState,
    sheet: &OreSheet,
    who: Actor,
) -> Result<RollAction, AppError> {
    Ok(match button {
        VvButton::Pick(_) => {
            return Err(AppError::Internal(
                "a menu press has no rules action".into(),
            ))
        }
        // A named Special action picked in the select that holds them when
        // they do not fit on the buttons (issue 16).
        VvButton::Select(Picker::Special) => {
            let id = match values {
                [v] => v.parse::<u32>().ok(),
                _ => None,
            }
            .ok_or_else(|| AppError::user("Pick one Special action."))?;
            special(state, sheet, id, who)?
        }
        VvButton::Select(p) => menu::picked(p, values, sheet, &state.roll, who)?,
        VvButton::Basic(height) | VvButton::Split(height) => RollAction::Basic {
            actor: who,
            height,
            // A split uses the narrowest set the action accepts, split off
            // a wider set (A-O7): the rules core refuses unless
            // `vv_allow_split_sets` is on.
            width: matches!(button, VvButton::Split(_))
                .then_some(state.requirement.min_width.max(2)),
            requirement: state.requirement,
            cache_cost: CacheCost::None,
            label: None,
        },
        VvButton::Discard => RollAction::Discard {
            actor: who,
            die: Some(discard::parse_discard(values, sheet, &state.roll.settings)?),
        },
        VvButton::Close => RollAction::Close { actor: who },
        VvButton::Special(id) => special(state, sheet, id, who)?,
    })
}

/// The action of a "Special: NAME" button: the sheet's Special action with
/// this id, if the register still holds its pattern with its cache cost met;
/// otherwise a refusal, and nothing is spent.
fn special(
    state: &RollState,
    sheet: &OreSheet,
    id: u32,
    who: Actor,
) -> Result<RollAction, AppError> {
    let sp = sheet.special(id).ok_or_else(|| {
        AppError::user(format!(
            "That Special action is no longer on {}'s sheet; nothing was spent.",
            clean(&state.name)
        ))
    })?;
    if state
        .roll
        .special_dice(&sp.pattern, sp.cache_cost)
        .is_none()
    {
        return Err(AppError::user(format!(
            "The register does not hold {} for {}{} now; nothing was spent.",
            sp.pattern,
            escape(&sp.name),
            match sp.cache_cost {
                CacheCost::None => "",
                CacheCost::One => " (one die from the cache)",
                CacheCost::All => " (all dice from the cache)",
            }
        )));
    }
    Ok(RollAction::Special {
        actor: who,
        pattern: sp.pattern.clone(),
        cache_cost: sp.cache_cost,
        label: Some(sp.name.clone()),
        skill: Some(sp.id),
    })
}

/// The roller's player, whoever posted the roll, or the Compiler may press its
/// buttons (only the Compiler an NPC's); returns who acts (as the GM when
/// not the roller's player).
fn may_press(
    fc: bool,
    session: &Session,
    state: &RollState,
    held: &Held,
    caller: &Caller,
) -> Result<Actor, AppError> {
    if held.gm_only() && !fc {
        return Err(AppError::user(format!(
            "Only the Compiler can use {}'s register.",
            clean(&state.name)
        )));
    }
    if caller.user_id != state.roll.owner && caller.user_id != session.owner_id && !fc {
        return Err(AppError::user(format!(
            "Only {}'s player (or the Compiler) can use this roll.",
            clean(&state.name)
        )));
    }
    Ok(Actor {
        id: caller.user_id,
        gm: fc || caller.user_id == session.owner_id,
    })
}

/// Applies a rules-core action to the roll and the sheet: the outcome
/// saves and logs it and shows the register.
fn apply(
    turn: &Turn<'_>,
    session: &Session,
    mut state: RollState,
    mut ch: Held,
    action: RollAction,
    inputs: &record::ClickInputs,
) -> Result<Step, AppError> {
    let kind = action_name(&action);
    let (roll, events) = state
        .roll
        .clone()
        .apply(ch.sheet_mut(), action, &mut turn.rng())?;
    if roll.dice_generated() > super::MAX_GENERATED {
        return Err(AppError::user(format!(
            "This roll has generated {} dice in all; no more can be rolled for it.",
            super::MAX_GENERATED
        )));
    }
    state.roll = roll;
    state.picker = None;
    state.notes = text::events(&events, ch.sheet())
        .into_iter()
        .filter(|l| !l.starts_with("Error dice") && l != "Register cleared.")
        .collect();
    let sheet = ch.sheet().clone();
    let dice = record::RegisterDice {
        cache: sheet.cache.clone(),
        register: state.roll.register.clone(),
    };
    let entry = Record::new(kind, inputs, &events)
        .dice(&dice, super::faces::thrown(&events))
        .character(ch.character())
        .on_session();
    let (name, notes) = (state.name.clone(), state.notes.clone());
    let out = shown(turn, session, state, &sheet).log(entry);
    ch.saved(out, &name, &notes)
}

fn action_name(a: &RollAction) -> &'static str {
    match a {
        RollAction::AddCache { .. } => "add_cache",
        RollAction::Load { .. } => "load",
        RollAction::Discard { .. } => "discard",
        RollAction::ModifyFace { .. } => "modify_face",
        RollAction::Basic { .. } => "basic",
        RollAction::Special { .. } => "special",
        RollAction::Minor { .. } => "minor",
        RollAction::Free { .. } => "free",
        RollAction::Close { .. } => "close",
    }
}
