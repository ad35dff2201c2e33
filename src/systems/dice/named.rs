//! Named rolls: a member saves expressions under names in a guild
//! (`/roll expression: save:`, at most [`MAX_NAMED`]) and rolls one with
//! `/roll name:` (autocompleted). `/rolls` lists them on a private card
//! (a session of its own kind, [`KIND`]) with a **Roll a saved roll…**
//! and a **Forget a saved roll…** select, paged past 25; only the member
//! whose card it is may pick in them (issue 31 item 1: in place of
//! `/rolls save|list|forget`).

use serde::{Deserialize, Serialize};

use crate::app::component::{Action, Click};
use crate::app::pipeline::{Outcome, Turn};
use crate::app::view::{colour, page_of, paged_options, Embed, Row, View};
use crate::app::{Act, App, AppError, AppResult, Caller, Response};
use crate::kit::controls::option;
use crate::rules::expr;
use crate::storage::sessions::{Session, Status};
use crate::storage::{self, named_rolls};

/// The session kind of `/rolls` cards.
pub const KIND: &str = "rolls";

/// Most saved rolls per member per guild.
pub const MAX_NAMED: i64 = 50;
/// Longest name, in characters.
pub const MAX_NAME: usize = 32;

fn check_name(name: &str) -> Result<&str, AppError> {
    let name = name.trim();
    let len = name.chars().count();
    if len == 0 || len > MAX_NAME {
        return Err(AppError::user(format!(
            "A roll's name has 1 to {MAX_NAME} characters."
        )));
    }
    if name.contains(['`', '\n', '*', '_', '~', '|']) {
        return Err(AppError::user(
            "A roll's name may not contain backticks, line breaks or `* _ ~ |`.",
        ));
    }
    Ok(name)
}

/// `/roll expression: save:`: checks the expression and saves it in its
/// canonical form (replacing a roll of the same name), before it is rolled.
pub async fn save(app: &App, caller: &Caller, name: &str, expression: &str) -> AppResult {
    let name = check_name(name)?;
    let e = expr::parse(expression, super::caps(app))?;
    let canonical = e.to_string();
    let mut turn = Turn::<super::Dice>::begin(app, caller).await?;
    let (guild, user) = (caller.guild_id, caller.user_id);
    let existing = named_rolls::get(turn.tx(), guild, user, name).await?;
    if existing.is_none() && named_rolls::count(turn.tx(), guild, user).await? >= MAX_NAMED {
        return Err(AppError::user(format!(
            "You have {MAX_NAMED} saved rolls here, the most: forget one first with `/rolls`."
        )));
    }
    let verb = if existing.is_some() {
        "Replaced"
    } else {
        "Saved"
    };
    let answer = Response::ephemeral(View::embed(
        Embed::new(format!("💾 {verb} **{name}**"))
            .description(format!("`{canonical}` — roll it with `/roll name:{name}`."))
            .colour(colour::SUCCESS),
    ));
    let name = name.to_string();
    let out = Outcome::answer(answer).also(move |tx| {
        Box::pin(async move {
            let now = storage::now_ms();
            named_rolls::save(tx, guild, user, &name, &canonical, now).await?;
            Ok(())
        })
    });
    turn.finish(out).await
}

/// What a `/rolls` card keeps: the page of each select.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Card {
    /// The page of the Roll select.
    pub roll_page: usize,
    /// The page of the Forget select.
    pub forget_page: usize,
}

/// A `/rolls` card's selects (in posted custom_ids: never rename the
/// words); the picked value is the roll's name.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Pick {
    /// Roll the picked saved roll, publicly (`roll`).
    Roll,
    /// Forget the picked saved roll (`forget`).
    Forget,
}

impl Action for Pick {
    fn encode(&self) -> (&'static str, Option<String>) {
        match self {
            Pick::Roll => ("roll", None),
            Pick::Forget => ("forget", None),
        }
    }

    fn parse(action: &str, _arg: Option<&str>) -> Option<Self> {
        match action {
            "roll" => Some(Pick::Roll),
            "forget" => Some(Pick::Forget),
            _ => None,
        }
    }
}

/// The card of `rolls` (with a note on top, after a Forget).
fn card_view(
    id: i64,
    version: i64,
    card: Card,
    rolls: &[named_rolls::NamedRoll],
    note: Option<&str>,
) -> View {
    let mut description = if rolls.is_empty() {
        "None yet: save one while rolling, e.g. `/roll expression:8d6 save:Fireball`.".to_string()
    } else {
        rolls
            .iter()
            .map(|r| format!("**{}**: `{}`", r.name, r.expression))
            .collect::<Vec<_>>()
            .join("\n")
    };
    if let Some(n) = note {
        description = format!("{n}\n\n{description}");
    }
    crate::app::view::truncate(&mut description, crate::app::view::limits::DESCRIPTION);
    let mut v = View::embed(
        Embed::new(format!(
            "💾 Your saved rolls ({} of {MAX_NAMED})",
            rolls.len()
        ))
        .description(description)
        .colour(colour::NEUTRAL),
    );
    if rolls.is_empty() {
        return v;
    }
    let options = |page: usize| {
        let all = rolls
            .iter()
            .map(|r| option(&format!("{} — {}", r.name, r.expression), &r.name, None))
            .collect();
        paged_options(all, page)
    };
    for (pick, page, placeholder) in [
        (Pick::Roll, card.roll_page, "Roll a saved roll…"),
        (Pick::Forget, card.forget_page, "Forget a saved roll…"),
    ] {
        v.rows.push(Row::pick(
            pick.button(KIND, id, version).encode(),
            placeholder,
            options(page),
        ));
    }
    v
}

/// `/rolls`: the caller's saved rolls here, privately, with a select to
/// roll one and one to forget one.
pub async fn list(app: &App, caller: &Caller) -> AppResult {
    let mut turn = Turn::<super::Dice>::begin(app, caller).await?;
    let rolls = named_rolls::list(turn.tx(), caller.guild_id, caller.user_id).await?;
    let timeout = Some(turn.guild.session_timeout_minutes);
    let card = Card::default();
    let out =
        Outcome::new(move |s| Response::ephemeral(card_view(s.id, s.version, card, &rolls, None)))
            .start(KIND, &card, Status::Open, timeout);
    turn.finish(out).await
}

/// A pick on a `/rolls` card: only its owner may pick. Roll throws the
/// saved roll as `/roll name:` does (a new public message); Forget forgets
/// it and draws the card again; "more"/"earlier" turn the select's page.
pub async fn click(app: &App, mut act: Act, session: Session, click: &Click<'_>) -> AppResult {
    let caller = click.caller;
    if caller.user_id != session.owner_id {
        return Err(AppError::user(
            "These saved rolls are another member's: `/rolls` shows yours.",
        ));
    }
    let mut card: Card = serde_json::from_str(&session.state)?;
    let pick: Pick = click.action()?;
    let (guild, user) = (caller.guild_id, caller.user_id);
    let mut note = None;
    if let Some(page) = page_of(click.values) {
        match pick {
            Pick::Roll => card.roll_page = page,
            Pick::Forget => card.forget_page = page,
        }
    } else {
        let name = click
            .values
            .first()
            .ok_or_else(|| AppError::user("Pick one of your saved rolls."))?
            .clone();
        if named_rolls::get(&mut act, guild, user, &name)
            .await?
            .is_none()
        {
            return Err(AppError::user(format!(
                "You have no saved roll named `{}` any more: `/rolls` shows yours.",
                name.replace('`', "'")
            )));
        }
        match pick {
            Pick::Roll => {
                drop(act);
                return roll(app, caller, &name).await;
            }
            Pick::Forget => {
                named_rolls::forget(&mut act, guild, user, &name).await?;
                note = Some(format!("🗑️ Forgot **{}**.", name.replace('`', "'")));
            }
        }
    }
    let rolls = named_rolls::list(&mut act, guild, user).await?;
    // The card keeps its expiry: picking in it moves nothing on.
    let now = act.now_ms();
    let version = storage::sessions::update(
        &mut act,
        session.id,
        session.version,
        &serde_json::to_string(&card)?,
        Status::Open,
        session.expires_at,
        now,
    )
    .await?
    .ok_or_else(|| AppError::user("This card changed meanwhile: `/rolls` shows it anew."))?;
    act.commit().await?;
    Ok(Response::update(card_view(
        session.id,
        version,
        card,
        &rolls,
        note.as_deref(),
    )))
}

/// Draws a `/rolls` card as it stands.
pub async fn render(app: &App, session: &Session) -> Result<View, AppError> {
    let card: Card = serde_json::from_str(&session.state)?;
    let mut tx = app.db.read().await?;
    let rolls = named_rolls::list(&mut tx, session.guild_id, session.owner_id).await?;
    drop(tx);
    let v = card_view(session.id, session.version, card, &rolls, None);
    Ok(if session.status == Status::Open {
        v
    } else {
        v.disable_all()
    })
}

/// `/roll name:`: rolls a saved expression like `/roll expression:`.
pub async fn roll(app: &App, caller: &Caller, name: &str) -> AppResult {
    let mut tx = app.db.read().await?;
    let found = named_rolls::get(&mut tx, caller.guild_id, caller.user_id, name).await?;
    drop(tx);
    let Some(r) = found else {
        return Err(AppError::user(format!(
            "You have no saved roll named `{}`: `/rolls` shows yours.",
            name.trim().replace('`', "'")
        )));
    };
    super::roll(app, caller, &r.expression).await
}

/// Autocomplete for `name:`: the caller's rolls whose name contains `partial`.
pub async fn choices(app: &App, caller: &Caller, partial: &str) -> Vec<(String, String)> {
    let Ok(mut tx) = app.db.read().await else {
        return Vec::new();
    };
    let rolls = named_rolls::list(&mut tx, caller.guild_id, caller.user_id)
        .await
        .unwrap_or_default();
    let p = partial.trim().to_lowercase();
    rolls
        .into_iter()
        .filter(|r| r.name.to_lowercase().contains(&p))
        .take(25)
        .map(|r| {
            let mut label = format!("{} — {}", r.name, r.expression);
            crate::app::view::truncate(&mut label, 100);
            (label, r.name)
        })
        .collect()
}
