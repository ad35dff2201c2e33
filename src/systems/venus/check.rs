//! The check flow on buttons: a player's own `/ve check` throws the d20 at
//! once ([`throw_at_start`]); a check the FC called waits for Roll d20
//! (roller or FC, as do checks posted by older versions). Then, when short by
//! no more than the best bonus, bonus factors picked from a menu (or named
//! with `/ve bonus`), rolled (edition 1: one d6 each, the highest added) or
//! added flat (edition 2); accept the failure, cancel, or (FC) approve,
//! void and force-close.
//!
//! The d20's throw (`check/roll`) and the bonus-factor menu's picks
//! (`check/bonus`) are small files of their own; [`press`] turns every
//! other button into its one rules-core action itself, and applies them;
//! the action pipeline saves, logs and answers (one transaction).

mod bonus;
mod roll;

use super::buttons::CheckButton;
use super::context::{actor, minutes, Outcome, Turn};
use super::party::Party;
use super::record::{CheckDice, CheckInputs, CheckOutcome};
use super::state::{BonusOption, CheckSession, VeState};
use super::{changes, GM};

use crate::app::component::{Action, Click};
use crate::app::pipeline::Record;
use crate::app::Act;
use crate::app::{App, AppError, AppResult, Caller, Response};
use crate::rules::venus::check::{CheckAction, CheckEvent, CheckPhase, CheckResult, FactorKind};
use crate::rules::venus::sheet::SheetEvent;
use crate::rules::venus::{CheckState, Edition, VenusSheet};
use crate::rules::Actor;
use crate::storage::sessions::Session;
use crate::storage::sessions::Status;

/// The most options in a select menu.
const MENU_MAX: usize = 25;

/// Stores a freshly rolled check and, if it waits for bonus factors, the
/// menu built from the roller's sheet.
pub fn after_roll(st: &mut CheckSession, state: CheckState, sheet: Option<&VenusSheet>) {
    if state.phase == CheckPhase::AwaitingBonus {
        st.menu = menu(&state, sheet);
    }
    st.check = Some(state);
}

/// A check thrown by its command (issue 31 item 3: a player's own check is
/// one interaction; the FC's NPC check too): the d20 at once (VE1-C2,
/// VE2-C2), with the menu of bonus factors when it falls short within
/// reach (VE1-C6, VE2-C6). The status to store it with, and its log entry
/// (`check_<action>`: `check_roll` for a player's, as the **Roll d20**
/// click logs it; `check_npc` for an NPC's, whose `party` is empty).
pub fn throw_at_start(
    action: &str,
    set: &crate::rules::venus::VenusSettings,
    st: &mut CheckSession,
    party: &Party,
    a: Actor,
    caller: &Caller,
    rng: &mut rand::rngs::StdRng,
) -> Result<(Status, Record), AppError> {
    let events = roll::throw(set, st, party, a, caller, rng)?;
    // Thrown with the command: no footer note of who threw it.
    st.note = None;
    let entry = record(action, st, &events, st.roller.character);
    Ok((status_of(st), entry))
}

/// The session status a check session should be stored with.
pub fn status_of(st: &CheckSession) -> Status {
    if let Some(w) = &st.ended_before_roll {
        return if w.starts_with("Voided") {
            Status::Voided
        } else {
            Status::Closed
        };
    }
    match &st.check {
        Some(c) if c.phase == CheckPhase::Closed => {
            if c.result == Some(CheckResult::Voided) {
                Status::Voided
            } else {
                Status::Closed
            }
        }
        _ => Status::Open,
    }
}

/// The bonus-factor menu: the factors the rules let the roller claim
/// ([`CheckState::claims`]), worded: environment, an ally's help, Lots
/// (edition 1) and every attribute on the sheet; edition 2 offers each at
/// +1 and, side by side, at +2 (multiples).
pub fn menu(state: &CheckState, sheet: Option<&VenusSheet>) -> Vec<BonusOption> {
    // The sheet's attributes in menu order: (value, label, name).
    let attributes: Vec<(String, String, String)> = sheet
        .into_iter()
        .flat_map(|s| {
            super::sheet_view::ATTRIBUTE_LISTS
                .iter()
                .flat_map(move |&(kind, singular, _)| {
                    s.attributes
                        .list(kind)
                        .iter()
                        .enumerate()
                        .map(move |(i, t)| {
                            let value = format!("{}{}", singular.to_lowercase(), i + 1);
                            (value, format!("{singular}: {t}"), t.clone())
                        })
                })
        })
        .collect();
    let count = u32::try_from(attributes.len()).unwrap_or(u32::MAX);
    let claims = state.claims(sheet.map_or(0, |s| s.lots), count);
    let options = claims.into_iter().filter_map(|c| {
        let (value, label, name) = match c.kind {
            FactorKind::Lot => {
                let label = match c.nth {
                    1 => "Spend a Lot".to_string(),
                    j => format!("Spend a Lot ({j})"),
                };
                (format!("lot{}", c.nth), label, "A Lot".to_string())
            }
            FactorKind::Attribute => {
                let i = usize::try_from(c.nth).ok()?.checked_sub(1)?;
                attributes.get(i)?.clone()
            }
            kind => {
                let &(value, label, _) = FIXED.iter().find(|f| f.2 == kind)?;
                (value.to_string(), label.to_string(), label.to_string())
            }
        };
        let (value, label) = match (state.edition, c.points) {
            (Edition::One, _) => (value, label),
            (Edition::Two, 1) => (value, format!("{label} (+1)")),
            _ => (format!("{value}_x2"), format!("{label} (+2, multiples)")),
        };
        let (kind, points) = (c.kind, c.points);
        Some(BonusOption {
            value,
            label,
            kind,
            name,
            points,
        })
    });
    options.take(MENU_MAX).collect()
}

/// The menu's first entries, anyone's to claim: (value, label and name,
/// kind).
const FIXED: [(&str, &str, FactorKind); 2] = [
    ("env", "Environmental benefit", FactorKind::Environment),
    ("ally", "Help from an ally", FactorKind::Ally),
];

/// A check action's log entry (`check_<action>`) for the action pipeline,
/// on the session the outcome writes: the setup asked for, the dice thrown
/// (with every die's faces for `/stats`), and what happened.
pub fn record(
    action: &str,
    st: &CheckSession,
    events: &[CheckEvent],
    character: Option<i64>,
) -> Record {
    let dice = st.check.as_ref().map(|c| CheckDice {
        d20: c.natural,
        bonus_dice: c.bonus_dice.clone(),
    });
    let mut faces = Vec::new();
    for e in events {
        match e {
            CheckEvent::Rolled { natural, .. } => faces.push((20, *natural)),
            CheckEvent::BonusRolled { dice, .. } => faces.extend(dice.iter().map(|f| (6, *f))),
            _ => {}
        }
    }
    let inputs = CheckInputs {
        setup: Some(st.setup.clone()),
    };
    let outcome = CheckOutcome {
        events: events.to_vec(),
        result: st.check.as_ref().and_then(|c| c.result),
    };
    Record::new(&format!("check_{action}"), &inputs, &outcome)
        .dice(&dice, faces)
        .on_session()
        .character(character)
}

/// A click on a check's button or menu.
pub async fn click(
    app: &App,
    act: Act,
    session: Session,
    st: CheckSession,
    click: &Click<'_>,
) -> AppResult {
    let button = click.action::<CheckButton>()?;
    let turn = Turn::click(app, act, click.caller).await?;
    press(turn, session, st, button, click.values).await
}

/// Presses `button` on a check (from a click, or from a command acting on
/// the roll in progress), with the values picked in a menu, in `turn`.
/// Only the roller and the FC may; a check whose roller's sheet is gone
/// can only be cancelled, voided or force-closed.
pub async fn press(
    mut turn: Turn<'_>,
    session: Session,
    mut st: CheckSession,
    button: CheckButton,
    values: &[String],
) -> AppResult {
    let a = actor(&turn);
    let caller = turn.caller().clone();
    if !(a.gm || caller.user_id == st.roller.user) {
        return Err(AppError::user(format!(
            "Only {} (the roller) and the FC can use this check's buttons.",
            st.roller.shown()
        )));
    }
    let mut party = Party::load(turn.tx(), caller.guild_id, [&st.roller]).await?;
    let ends = matches!(
        button,
        CheckButton::Void | CheckButton::Force | CheckButton::Cancel
    );
    if st.roller.character.is_some() && !party.has(st.roller.user) && !ends {
        return Err(AppError::user(format!(
            "{}'s character sheet is gone, so this check cannot go on: the FC can void it.",
            st.roller.shown()
        )));
    }
    let mut rng = turn.rng();
    match button {
        CheckButton::Void => turn.require_gm(GM, "void a roll")?,
        CheckButton::Force => turn.require_gm(GM, "force-close a roll")?,
        _ => {}
    }
    let events = match st.check.clone() {
        None => match &button {
            CheckButton::Roll => {
                roll::throw(&turn.settings, &mut st, &party, a, &caller, &mut rng)?
            }
            CheckButton::Cancel | CheckButton::Void | CheckButton::Force => {
                st.ended_before_roll = Some(ended_before_roll(&button).into());
                Vec::new()
            }
            _ => return Err(AppError::user("Throw the d20 first.")),
        },
        Some(state) => {
            let actions = rolled(&st, &state, a, &button, values)?;
            if actions.is_empty() {
                return Err(AppError::user("There is nothing to do for that now."));
            }
            let (state, ev) = state
                .apply_all(&mut party.ctx, actions, &mut rng)
                .map_err(super::fc_words)?;
            st.check = Some(state);
            st.note = Some(note_for(&button, &clicker(&st, &caller)));
            ev
        }
    };
    let out = settle(&turn, session, st, party, &events, &button);
    turn.finish(out).await
}

/// How a check ended by `button` (**Cancel**, or the FC's **Void** or
/// **Force close**) before its d20 was thrown reads.
fn ended_before_roll(button: &CheckButton) -> &'static str {
    match button {
        CheckButton::Void => "Voided by the FC",
        CheckButton::Force => "Closed by the FC before the roll",
        _ => "Cancelled before the roll",
    }
}

/// The rules-core actions of `button` on a thrown check (only the FC
/// reaches **Void** and **Force close**, [`press`]).
fn rolled(
    st: &CheckSession,
    state: &CheckState,
    a: Actor,
    button: &CheckButton,
    values: &[String],
) -> Result<Vec<CheckAction>, AppError> {
    Ok(match button {
        CheckButton::Bonus => bonus::picked(st, a, values)?,
        CheckButton::Named { name, kind, value } => vec![CheckAction::AddFactor {
            actor: a,
            name: name.clone(),
            kind: *kind,
            value: *value,
        }],
        CheckButton::Clear => bonus::clear(state, a),
        CheckButton::Approve => bonus::approve(state, a),
        CheckButton::Resolve => vec![CheckAction::Resolve { actor: a }],
        CheckButton::Fail => vec![CheckAction::AcceptFailure { actor: a }],
        CheckButton::Cancel => vec![CheckAction::Cancel { actor: a }],
        CheckButton::Void => vec![CheckAction::Void { actor: a }],
        CheckButton::Force => vec![CheckAction::ForceClose { actor: a }],
        CheckButton::Roll => {
            return Err(AppError::user(format!(
                "`{}` does nothing on a check at this point.",
                button.encode().0
            )))
        }
    })
}

/// Records the sheet changes; the outcome saves the sheets and the
/// session, logs the click as `check_<action word>` and redraws the
/// message.
fn settle(
    turn: &Turn<'_>,
    session: Session,
    mut st: CheckSession,
    party: Party,
    events: &[CheckEvent],
    button: &CheckButton,
) -> Outcome {
    let named: Vec<(String, SheetEvent)> = events
        .iter()
        .filter_map(|e| match e {
            CheckEvent::Sheet { event, .. } => Some((st.roller.name.clone(), event.clone())),
            _ => None,
        })
        .collect();
    st.changes.extend(changes::lines(&named));
    let status = status_of(&st);
    let (word, _) = button.encode();
    let entry = record(word, &st, events, st.roller.character);
    let state = VeState::Check(Box::new(st.clone()));
    let id = session.id;
    let mut out = Outcome::new(move |s| {
        Response::update(super::check_view::view(
            id, s.number, s.version, status, &st,
        ))
    })
    .save(session, &state, status, minutes(turn))
    .log(entry);
    for c in party.changed() {
        out = out.sheet(c);
    }
    out
}

/// The clicker's name: the character for the roller, else the member.
fn clicker(st: &CheckSession, caller: &Caller) -> String {
    if caller.user_id == st.roller.user {
        st.roller.name.clone()
    } else {
        caller.name.clone()
    }
}

/// The footer's note after `button` on a thrown check.
fn note_for(button: &CheckButton, who: &str) -> String {
    match button {
        CheckButton::Bonus | CheckButton::Named { .. } => format!("{who} claimed bonus factors"),
        CheckButton::Clear => format!("{who} cleared the bonus factors"),
        CheckButton::Approve => "the FC approved the bonus factors".into(),
        CheckButton::Resolve => format!("{who} took the bonus"),
        CheckButton::Fail => format!("{who} accepted the failure"),
        CheckButton::Cancel => format!("{who} cancelled the check"),
        CheckButton::Void => "the FC voided the check".into(),
        CheckButton::Force => "the FC force-closed the check".into(),
        CheckButton::Roll => format!("{who} acted"),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::venus::check::{CheckSetup, CheckSubject};
    use crate::rules::venus::sheet::AttributeKind;
    use crate::rules::venus::{Rank, VenusCtx, VenusSettings};
    use rand::{rngs::StdRng, SeedableRng};

    /// Ada's sheet with two Lots and `assets` assets, a specialty, and a
    /// check of hers thrown in `edition`.
    fn thrown(edition: Edition, assets: usize) -> (CheckState, VenusSheet) {
        let set = VenusSettings {
            ve_edition: edition,
            ..VenusSettings::default()
        };
        let mut s = VenusSheet::new("Ada", &set).unwrap();
        s.set_ability("Finesse", Rank::Silver, 4, &set).unwrap();
        s.lots = 2;
        for i in 1..=assets {
            s.add_attribute(AttributeKind::Asset, &format!("Hook {i}"))
                .unwrap();
        }
        s.add_attribute(AttributeKind::Specialty, "Lockpicks")
            .unwrap();
        let mut ctx = VenusCtx::new();
        ctx.insert(1, s.clone());
        let setup = CheckSetup {
            actor: Actor { id: 1, gm: false },
            roller: 1,
            subject: CheckSubject::Sheet {
                ability: "Finesse".into(),
            },
            difficulty: 10,
            factors: Vec::new(),
            consequence: String::new(),
        };
        let mut rng = StdRng::seed_from_u64(1);
        let state = CheckState::start(setup, &set, &ctx, &mut rng).unwrap().0;
        (state, s)
    }

    fn rows(menu: &[BonusOption]) -> Vec<(String, String, FactorKind, String, u32)> {
        menu.iter()
            .map(|o| {
                let o = o.clone();
                (o.value, o.label, o.kind, o.name, o.points)
            })
            .collect()
    }

    fn row(
        value: &str,
        label: &str,
        kind: FactorKind,
        name: &str,
        points: u32,
    ) -> (String, String, FactorKind, String, u32) {
        (value.into(), label.into(), kind, name.into(), points)
    }

    #[test]
    fn edition_1_menu_offers_the_lots_after_the_allys_help() {
        let (state, sheet) = thrown(Edition::One, 1);
        use FactorKind as K;
        assert_eq!(
            rows(&menu(&state, Some(&sheet))),
            [
                row(
                    "env",
                    "Environmental benefit",
                    K::Environment,
                    "Environmental benefit",
                    1
                ),
                row("ally", "Help from an ally", K::Ally, "Help from an ally", 1),
                row("lot1", "Spend a Lot", K::Lot, "A Lot", 1),
                row("lot2", "Spend a Lot (2)", K::Lot, "A Lot", 1),
                row("asset1", "Asset: Hook 1", K::Attribute, "Hook 1", 1),
                row(
                    "specialty1",
                    "Specialty: Lockpicks",
                    K::Attribute,
                    "Lockpicks",
                    1
                ),
            ]
        );
        // Without a sheet: the two entries anyone may claim.
        assert_eq!(menu(&state, None).len(), 2);
    }

    #[test]
    fn edition_2_menu_offers_each_entry_at_plus_1_and_plus_2() {
        let (state, sheet) = thrown(Edition::Two, 1);
        use FactorKind as K;
        assert_eq!(
            rows(&menu(&state, Some(&sheet))),
            [
                row(
                    "env",
                    "Environmental benefit (+1)",
                    K::Environment,
                    "Environmental benefit",
                    1
                ),
                row(
                    "env_x2",
                    "Environmental benefit (+2, multiples)",
                    K::Environment,
                    "Environmental benefit",
                    2
                ),
                row(
                    "ally",
                    "Help from an ally (+1)",
                    K::Ally,
                    "Help from an ally",
                    1
                ),
                row(
                    "ally_x2",
                    "Help from an ally (+2, multiples)",
                    K::Ally,
                    "Help from an ally",
                    2
                ),
                row("asset1", "Asset: Hook 1 (+1)", K::Attribute, "Hook 1", 1),
                row(
                    "asset1_x2",
                    "Asset: Hook 1 (+2, multiples)",
                    K::Attribute,
                    "Hook 1",
                    2
                ),
                row(
                    "specialty1",
                    "Specialty: Lockpicks (+1)",
                    K::Attribute,
                    "Lockpicks",
                    1
                ),
                row(
                    "specialty1_x2",
                    "Specialty: Lockpicks (+2, multiples)",
                    K::Attribute,
                    "Lockpicks",
                    2
                ),
            ]
        );
    }

    #[test]
    fn a_long_menu_stops_at_discords_25_options() {
        let (state, sheet) = thrown(Edition::Two, 30);
        let m = menu(&state, Some(&sheet));
        assert_eq!(m.len(), 25);
        assert_eq!(m[23].value, "asset10_x2");
        assert_eq!(m[24].value, "asset11");
        let (state, sheet) = thrown(Edition::One, 30);
        let m = menu(&state, Some(&sheet));
        assert_eq!(m.len(), 25);
        assert_eq!(m[24].value, "asset21");
    }
}
