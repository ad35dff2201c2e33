//! Storyteller rolls: `/st roll` (traits from a sheet), `/st pool` (a bare
//! number of dice), `/st willpower` (with the Spend willpower choice, ST-11)
//! and `/st rest` (a day of active rest, ST-14). The willpower roll's
//! buttons are in [`super::decide`].
//!
//! Every roll is stored as a session (closed at once unless a willpower
//! choice is pending), so its message can be re-rendered and its log entry
//! points at it. Each is one action of the pipeline (`app::pipeline`): the
//! turn loads, the roll is its outcome.

use crate::app::characters::{Access, Loaded, Pick};
use crate::app::pipeline::{Record, Shown, Waiter};
use crate::app::view::Embed;
use crate::app::App;
use crate::app::{sessions, AppError, AppResult, Caller, Response, View};
use crate::rules::storyteller::willpower::{
    active_rest_rolls, recover_daily, spend_to_ignore_wounds,
};
use crate::rules::storyteller::{
    AdHocRequest, Event, Phase, RollRequest, RollSession, StorytellerSheet, WillpowerRequest,
};
use crate::storage::sessions::Status;
use crate::storage::{self, sessions::Session, Tx};
use crate::systems::table::look;

use super::context::{self, check_len, split_list, Outcome, Turn};
use super::record;
use super::roll_view::{event_text, roll_view};
pub use super::state::RollState;
use super::KIND;

/// The options of `/st roll`.
#[derive(Debug, Clone, Default)]
pub struct RollArgs<'a> {
    /// One or two traits, `Wits + Alertness`.
    pub traits: &'a str,
    /// 2..=10; the guild default when `None`.
    pub difficulty: Option<u32>,
    /// 0..=30.
    pub threshold: Option<u32>,
    /// Specialties in use, comma-separated.
    pub specialties: Option<&'a str>,
    /// Advanced specialties the action requires (ST-8), comma-separated.
    pub advanced: Option<&'a str>,
    /// The storyteller allows figuring out a 0-dot knowledge (A-S4).
    pub figure_it_out: bool,
    /// Extra dice (−10..=10).
    pub dice_modifier: Option<i32>,
    /// Extra difficulty (−10..=10).
    pub difficulty_modifier: Option<i32>,
    /// Spend 1 willpower first so this action ignores wounds (ST-12).
    pub ignore_wounds: bool,
    /// Whose character.
    pub target: Pick<'a>,
}

pub(super) fn status_of(phase: Phase) -> Status {
    match phase {
        Phase::WillpowerChoice => Status::Open,
        Phase::Closed => Status::Closed,
        Phase::Voided => Status::Voided,
    }
}

/// Every d10 a roll threw (base dice, the chance die, every bonus
/// generation), as (sides, face), for `/stats`.
fn thrown(s: &RollSession) -> Vec<(u32, u32)> {
    s.result
        .base
        .iter()
        .chain(s.result.bonus.iter().flatten())
        .map(|&f| (10, f))
        .collect()
}

/// An open roll waits on its roller's willpower choice (pinged once in
/// a play-by-post game, [`crate::app::waits`]); a closed one on nobody.
pub fn waiting(out: Outcome, state: &RollState, status: Status) -> Outcome {
    if status != Status::Open {
        return out;
    }
    let what = format!("{}'s willpower choice", state.shown());
    out.waits_on(Waiter::Member(state.session.owner), what)
}

/// The outcome of a fresh roll: its session (closed at once unless a
/// choice is pending), its log entry (with the dice thrown), the sheet it
/// changed, and its message.
fn rolled(
    turn: &Turn<'_>,
    action: &str,
    inputs: &impl serde::Serialize,
    state: RollState,
    events: &[Event],
    sheet: Option<Loaded<StorytellerSheet>>,
) -> Outcome {
    let status = status_of(state.session.phase);
    let timeout = (status == Status::Open).then(|| turn.timeout()).flatten();
    let offer = sheet
        .as_ref()
        .and_then(|c| state.session.purchase_offer(&c.sheet));
    let mut entry = Record::new(
        action,
        inputs,
        &record::RollOutcome::of(&state.session, events),
    )
    .dice(&record::Dice::of(&state.session), thrown(&state.session))
    .on_session();
    if let Some(c) = &sheet {
        entry = entry.character(c.row.id);
    }
    let drawn = state.clone();
    let out = Outcome::new(move |s: &Shown| {
        Response::message(roll_view(
            s.id, s.number, s.version, s.status, &drawn, offer,
        ))
    })
    .start(KIND, &state, status, timeout)
    .log(entry);
    let out = waiting(out, &state, status);
    match sheet {
        Some(c) => out.sheet(c),
        None => out,
    }
}

/// `/st roll`: an action from the traits on a sheet (ST-1 to ST-9).
pub async fn roll(app: &App, caller: &Caller, args: RollArgs<'_>) -> AppResult {
    let max = app.config.limits.max_text_len;
    check_len(args.traits, max, "list of traits")?;
    let traits = split_list(args.traits, true, 5, "traits")?;
    let names = |list: Option<&str>, what: &str| match list {
        Some(s) => {
            check_len(s, max, &format!("list of {what}"))?;
            split_list(s, false, 5, what)
        }
        None => Ok(Vec::new()),
    };
    let specialties = names(args.specialties, "specialties")?;
    let advanced = names(args.advanced, "advanced specialties")?;
    let req = RollRequest {
        traits,
        difficulty: args.difficulty,
        threshold: args.threshold.unwrap_or(0),
        specialties,
        advanced_required: advanced,
        figure_it_out: args.figure_it_out,
        dice_modifier: args.dice_modifier.unwrap_or(0),
        difficulty_modifier: args.difficulty_modifier.unwrap_or(0),
    };
    let mut turn = Turn::begin(app, caller).await?;
    let mut ch = turn.character(args.target, Access::Owner).await?;
    let mut before = Vec::new();
    let mut events = Vec::new();
    if args.ignore_wounds {
        let spent = spend_to_ignore_wounds(&mut ch.sheet)?;
        before.extend(spent.iter().filter_map(|e| event_text(e, ch.name())));
        events.extend(spent);
    }
    let (session, rolled_events) = RollSession::action(
        ch.row.owner_id,
        &mut ch.sheet,
        &turn.settings.catalog(),
        &req,
        &turn.settings,
        turn.max_dice(),
        &mut turn.rng(),
    )?;
    events.extend(rolled_events);
    let label = session
        .result
        .spec
        .traits
        .iter()
        .map(|t| t.name.as_str())
        .collect::<Vec<_>>()
        .join(" + ");
    let state = RollState::new(
        &caller.name,
        Some((ch.row.id, ch.name())),
        label,
        session,
        before,
    );
    let inputs = record::RollInputs {
        request: req,
        ignore_wounds: args.ignore_wounds,
        character: ch.name().to_string(),
    };
    let out = rolled(&turn, "roll", &inputs, state, &events, Some(ch));
    turn.finish(out).await
}

/// `/st pool`: a bare number of dice, no sheet (an NPC on the fly).
pub async fn pool(app: &App, caller: &Caller, req: AdHocRequest) -> AppResult {
    let turn = Turn::begin(app, caller).await?;
    let (session, events) = RollSession::ad_hoc(
        caller.user_id,
        &req,
        &turn.settings,
        turn.max_dice(),
        &mut turn.rng(),
    )?;
    let state = RollState::new(
        &caller.name,
        None,
        super::sheet_view::count(req.dice, "die", "dice"),
        session,
        Vec::new(),
    );
    let inputs = record::PoolInputs { request: req };
    let out = rolled(&turn, "pool", &inputs, state, &events, None);
    turn.finish(out).await
}

/// `/st willpower`: a willpower roll (ST-10); if it did not botch and
/// buying an automatic success would raise it (ST-11: current willpower at
/// least 2 and more than one above the successes rolled), it waits for
/// Spend willpower or Keep.
pub async fn willpower(
    app: &App,
    caller: &Caller,
    req: WillpowerRequest,
    target: Pick<'_>,
) -> AppResult {
    let mut turn = Turn::begin(app, caller).await?;
    let mut ch = turn.character(target, Access::Owner).await?;
    let (session, events) = RollSession::willpower(
        ch.row.owner_id,
        &mut ch.sheet,
        &req,
        &turn.settings,
        turn.max_dice(),
        &mut turn.rng(),
    )?;
    let state = RollState::new(
        &caller.name,
        Some((ch.row.id, ch.name())),
        "willpower".to_string(),
        session,
        Vec::new(),
    );
    let inputs = record::WillpowerInputs {
        request: req,
        character: ch.name().to_string(),
    };
    let out = rolled(&turn, "willpower", &inputs, state, &events, Some(ch));
    turn.finish(out).await
}

/// `/st rest`: a day of active rest (ST-14), in the spec's order: the day's
/// +1 willpower first, then a difficulty-8 willpower roll adding 1 per
/// success (a botch costs willpower as usual); never above permanent. When
/// the +1 leaves willpower at permanent the roll is not made: it could only
/// lose.
pub async fn rest(app: &App, caller: &Caller, target: Pick<'_>) -> AppResult {
    let mut turn = Turn::begin(app, caller).await?;
    let mut ch = turn.character(target, Access::Owner).await?;
    let start = ch.sheet.willpower().current;
    let mut events = recover_daily(&mut ch.sheet);
    let mut before: Vec<String> = events
        .iter()
        .filter_map(|e| event_text(e, ch.name()))
        .collect();
    if before.is_empty() || ch.sheet.willpower().current == start {
        before = vec![format!(
            "A day of rest: willpower is already at its permanent {}.",
            ch.sheet.willpower().permanent
        )];
    }
    let inputs = record::RestInputs {
        character: ch.name().to_string(),
        willpower_at_start: start,
    };
    if !active_rest_rolls(&ch.sheet) {
        return turn
            .finish(rest_without_roll(ch, &inputs, before, &events))
            .await;
    }
    let (session, rolled_events) = RollSession::rest(
        ch.row.owner_id,
        &mut ch.sheet,
        &turn.settings,
        turn.max_dice(),
        &mut turn.rng(),
    )?;
    events.extend(rolled_events);
    let state = RollState::new(
        &caller.name,
        Some((ch.row.id, ch.name())),
        "active rest".to_string(),
        session,
        before,
    );
    let out = rolled(&turn, "rest", &inputs, state, &events, Some(ch));
    turn.finish(out).await
}

/// `/st rest` when willpower is at permanent after the day's +1: the day
/// is saved and logged, and no dice are thrown (successes could add
/// nothing, a botch could only take away).
fn rest_without_roll(
    ch: Loaded<StorytellerSheet>,
    inputs: &record::RestInputs,
    mut lines: Vec<String>,
    events: &[Event],
) -> Outcome {
    lines.push(
        "No active-rest roll: willpower is at its permanent rating, so the roll could only lose some."
            .to_string(),
    );
    let w = ch.sheet.willpower();
    let view = View::embed(
        Embed::new(
            look::Outcome::Success
                .title(&format!("Rested · willpower {}/{}", w.current, w.permanent)),
        )
        .author(format!("{} · Active rest", ch.name()))
        .description(lines.join("\n"))
        .colour(look::Outcome::Success.colour()),
    );
    let entry = Record::new("rest", inputs, &record::NoRoll::new(events)).character(ch.row.id);
    Outcome::answer(Response::message(view))
        .log(entry)
        .sheet(ch)
}

pub(super) async fn load_character(
    tx: &mut Tx,
    guild_id: i64,
    id: Option<i64>,
) -> Result<Option<Loaded<StorytellerSheet>>, AppError> {
    let Some(id) = id else { return Ok(None) };
    let Some(row) = storage::characters::get(tx, guild_id, id).await? else {
        return Ok(None);
    };
    let sheet: StorytellerSheet = serde_json::from_str(&row.sheet)?;
    context::checked(Loaded { row, sheet }).map(Some)
}

/// A roll's message as it stands.
pub async fn render(tx: &mut Tx, session: &Session) -> Result<View, AppError> {
    let state: RollState = sessions::load(session)?;
    let ch = load_character(tx, session.guild_id, state.character_id).await?;
    let offer = ch.and_then(|c| state.session.purchase_offer(&c.sheet));
    Ok(roll_view(
        session.id,
        crate::app::secret::number(tx, session).await?,
        session.version,
        session.status,
        &state,
        offer,
    ))
}
