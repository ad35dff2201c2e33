//! `/game`: one private look at the game of the caller's channel (issue 31
//! item 1, in place of `/game join|leave|show|waiting` and each system's
//! `/<root> settings show`): its system, pace, channels, game masters and
//! players ([`super::show`]), whom it waits on ([`super::waiting`]), and
//! the house rules in force here, with a **Join** or **Leave** button for
//! the caller. Outside every game it lists the server's live games, with a
//! select to join one, and the house rules of the channel.
//!
//! The card is a session of its own kind ([`KIND`], owned by the
//! [`crate::systems::table::TableFeature`]'s dispatch) that holds which
//! game it shows; only the member who asked may press its buttons, and
//! each press joins or leaves through [`super::players`] (the same rules
//! as `/game character:`) and redraws the card.

use serde::{Deserialize, Serialize};

use super::players::{self, Which};
use crate::app::component::{Action, Click};
use crate::app::games::{self, Game};
use crate::app::pipeline::{Outcome, Table, Turn};
use crate::app::view::{colour, limits, Button, Embed, Row, SelectOption, Style, View};
use crate::app::{settings, Act, App, AppError, AppResult, Caller, Response};
use crate::storage::games as stored;
use crate::storage::sessions::{Session, Status};
use crate::systems::fc::catalog::Scope;

/// The session kind of `/game` cards.
pub const KIND: &str = "gamecard";

/// What a card keeps: the game it shows (`None`: the server's games).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct Card {
    /// The game shown.
    pub game: Option<i64>,
}

/// A card's buttons and select (in posted custom_ids: never rename the
/// words).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum CardButton {
    /// Join the card's game (`join`).
    Join,
    /// Leave the card's game (`leave`).
    Leave,
    /// Join the game picked in the select (`pick`).
    Pick,
}

impl Action for CardButton {
    fn encode(&self) -> (&'static str, Option<String>) {
        match self {
            CardButton::Join => ("join", None),
            CardButton::Leave => ("leave", None),
            CardButton::Pick => ("pick", None),
        }
    }

    fn parse(action: &str, _arg: Option<&str>) -> Option<Self> {
        match action {
            "join" => Some(CardButton::Join),
            "leave" => Some(CardButton::Leave),
            "pick" => Some(CardButton::Pick),
            _ => None,
        }
    }
}

/// A card's contents, read; drawn once its session is known.
struct Drawn {
    embeds: Vec<Embed>,
    /// `Some(true)`: the owner plays the (live) game: Leave; `Some(false)`:
    /// Join; `None`: no button (no game, or an ended one).
    member: Option<bool>,
    /// The live games the owner could join (outside a game's channels).
    joinable: Vec<Game>,
}

impl Drawn {
    fn view(self, id: i64, version: i64) -> View {
        let mut v = View {
            embeds: self.embeds,
            ..View::default()
        };
        let b = |a: CardButton| a.button(KIND, id, version).encode();
        match self.member {
            Some(true) => {
                v = v.buttons(vec![Button::new(
                    b(CardButton::Leave),
                    "Leave",
                    Style::Secondary,
                )]);
            }
            Some(false) => {
                v = v.buttons(vec![Button::new(
                    b(CardButton::Join),
                    "Join",
                    Style::Primary,
                )]);
            }
            None => {}
        }
        if !self.joinable.is_empty() {
            let options = self
                .joinable
                .iter()
                .take(25)
                .map(|g| SelectOption {
                    label: g.name.chars().take(100).collect(),
                    value: g.id.to_string(),
                    description: None,
                })
                .collect();
            v.rows
                .push(Row::pick(b(CardButton::Pick), "Join a game…", options));
        }
        v
    }
}

/// `/game`: the card, privately.
pub async fn card(app: &App, caller: &Caller) -> AppResult {
    let mut rtx = app.db.read().await?;
    let game = crate::app::games::here(&mut rtx, caller).await?;
    drop(rtx);
    let state = Card {
        game: game.map(|g| g.id),
    };
    let drawn = read(app, caller, caller.user_id, state).await?;
    let turn = Turn::<Table>::begin(app, caller).await?;
    let timeout = Some(turn.guild.session_timeout_minutes);
    let out = Outcome::new(move |s| Response::ephemeral(drawn.view(s.id, s.version))).start(
        KIND,
        &state,
        Status::Open,
        timeout,
    );
    turn.finish(out).await
}

/// Reads what the card of `owner` shows where `caller` acts.
async fn read(app: &App, caller: &Caller, owner: i64, state: Card) -> Result<Drawn, AppError> {
    let mut tx = app.db.read().await?;
    let game = match state.game {
        Some(id) => stored::get(&mut tx, caller.guild_id, id).await?,
        None => None,
    };
    let mut embeds = Vec::new();
    let (member, joinable, scope) = match &game {
        Some(g) => {
            let waits =
                super::waiting::text(&mut tx, caller.guild_id, g, app.clock.now_ms()).await?;
            let embed = super::show::embed(&mut tx, app, caller.guild_id, g)
                .await?
                .field("Waiting on", waits, false);
            embeds.push(embed);
            let plays = stored::player(&mut tx, g.id, owner).await?.is_some();
            let scope = app.registry.get(&g.system).map(Scope::of_system);
            (g.live().then_some(plays), Vec::new(), scope)
        }
        None => {
            let games =
                stored::list_live(&mut tx, caller.guild_id, crate::app::games::MAX_GAMES).await?;
            let mut lines = Vec::with_capacity(games.len());
            let mut joinable = Vec::new();
            for g in games {
                let channels = stored::channels(&mut tx, g.id).await?;
                let at = channels
                    .iter()
                    .map(|c| format!("<#{c}>"))
                    .collect::<Vec<_>>()
                    .join(", ");
                let plays = stored::player(&mut tx, g.id, owner).await?.is_some();
                let mark = if plays { " · you play" } else { "" };
                lines.push(format!(
                    "{} · {} · {at}{mark}",
                    games::bold(&g.name),
                    app.registry.display(&g.system)
                ));
                if !plays {
                    joinable.push(g);
                }
            }
            let mut text = String::from(
                "This channel belongs to no game. A server manager or the FC can start one here with `/game-gm create`.",
            );
            if lines.is_empty() {
                text.push_str("\nThis server has no game yet.");
            } else {
                text.push_str("\n\n**The server's games**\n");
                text.push_str(&lines.join("\n"));
            }
            crate::app::view::truncate(&mut text, limits::DESCRIPTION);
            embeds.push(
                Embed::new("Games")
                    .description(text)
                    .colour(colour::NEUTRAL),
            );
            let here = settings::active_system(&mut tx, caller).await?;
            let scope = here
                .and_then(|id| app.registry.get(&id))
                .filter(|s| s.house_rules().is_some())
                .map(Scope::of_system);
            (None, joinable, scope)
        }
    };
    drop(tx);
    let rules = crate::systems::fc::settings_view(app, caller, scope).await?;
    embeds.extend(rules.embeds);
    embeds.truncate(limits::EMBEDS);
    Ok(Drawn {
        embeds,
        member,
        joinable,
    })
}

/// A click on a card: only the member who asked may press; Join, Leave or
/// a picked game join or leave as `/game character:` would, then the card
/// is drawn again and the table told in a public note.
pub async fn click(app: &App, mut act: Act, session: Session, click: &Click<'_>) -> AppResult {
    let state: Card = serde_json::from_str(&session.state)?;
    let caller = click.caller;
    if caller.user_id != session.owner_id {
        return Err(AppError::user(
            "This card is another member's: run `/game` for your own.",
        ));
    }
    let pressed: CardButton = click.action()?;
    let joining = match (pressed, state.game) {
        (CardButton::Join, Some(id)) => Some(id),
        (CardButton::Pick, _) => Some(
            click
                .values
                .first()
                .and_then(|v| v.parse::<i64>().ok())
                .ok_or_else(|| AppError::user("Pick one of the listed games."))?,
        ),
        _ => None,
    };
    if let Some(id) = joining {
        // A stale card's Join must not reset the character a member plays.
        if stored::player(&mut act, id, caller.user_id)
            .await?
            .is_some()
        {
            return Err(AppError::user(
                "You already play that game: `/game character:NAME` in its channel changes your character.",
            ));
        }
    }
    drop(act);
    let done = match (pressed, joining, state.game) {
        (CardButton::Leave, _, Some(id)) => players::leave(app, caller, Which::Id(id)).await?,
        (_, Some(id), _) => players::join(app, caller, Which::Id(id), None).await?,
        _ => return Err(AppError::user("This card shows no game to join or leave.")),
    };
    let drawn = read(app, caller, session.owner_id, state).await?;
    let mut out = Response::update(drawn.view(session.id, session.version)).then(done.reply);
    out.followups.extend(done.followups);
    Ok(out)
}

/// Draws a card as it stands now.
pub async fn render(app: &App, session: &Session, caller: &Caller) -> Result<View, AppError> {
    let state: Card = serde_json::from_str(&session.state)?;
    let drawn = read(app, caller, session.owner_id, state).await?;
    let v = drawn.view(session.id, session.version);
    Ok(if session.status == Status::Open {
        v
    } else {
        v.disable_all()
    })
}
