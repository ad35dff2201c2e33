//! Revelations wait for the referee (issue 14, VR-24, VR-5): whether the NPC
//! is shocked and whether the revelation is greater than the last are the
//! referee's judgement. A player's `/vr reveal` posts a request with the
//! referee's three buttons (**Shocked**, **Not shocked**, **Not greater**);
//! only **Shocked** gains the slot (and prompts the NPC's +d6 Stress). Either
//! way the Secrets are out: they go into the guild's record of revealed
//! Secrets, so they level nobody up again, and every holder (the revealer
//! too) is told how to drop their copy. The referee's own `/vr reveal` is their judgement
//! already: it applies at once as shocked.

use super::buttons::VrButton;
use super::context::{Outcome, Turn};
use super::state::{Judgement, VrState};
use super::target;
use super::{render, GM, SYSTEM};
use crate::app::characters::{Access, Loaded, Pick};
use crate::app::component::{Action as _, Click};
use crate::app::pipeline::{Record, Writing};
use crate::app::view::{clean, escape, Button, Embed, Style, View};
use crate::app::{sessions, Act, App, AppError, AppResult, Caller, Reply, Response};
use crate::rules::veracity::level::RevelationInput;
use crate::rules::veracity::sheet::normalize_text;
use crate::rules::veracity::{Action, Event, Sheet};
use crate::storage::sessions::{Session, Status};
use crate::storage::{self, Tx};
use crate::systems::table::look;

/// The Secrets' texts a revelation names, checked against the sheet's
/// rules and the guild's record (nothing changes).
async fn check(
    tx: &mut Tx,
    guild_id: i64,
    sheet: &Sheet,
    input: &RevelationInput,
) -> Result<Vec<String>, AppError> {
    let (secrets, _) = sheet.check_revelation(input)?;
    let keys: Vec<String> = secrets.texts.iter().map(|t| normalize_text(t)).collect();
    let out = storage::veracity::revealed(tx, guild_id, &keys).await?;
    if let Some(k) = out.first() {
        let text = keys
            .iter()
            .zip(&secrets.texts)
            .find(|(key, _)| *key == k)
            .map_or(k.as_str(), |(_, t)| t.as_str());
        return Err(AppError::user(format!(
            "The Secret \"{text}\" has already been revealed at this table: it is just news now and levels nobody up (VR-5)."
        )));
    }
    Ok(secrets.texts)
}

/// `/vr reveal`: a player's revelation waits for the referee; the
/// referee's own applies at once.
pub async fn ask(
    app: &App,
    caller: &Caller,
    player: Pick<'_>,
    input: RevelationInput,
) -> AppResult {
    let mut turn = Turn::begin(app, caller).await?;
    // This action's dice, drawn first as every sheet action does (so the
    // table's seeded dice stay in step whatever the answer).
    let mut rng = turn.rng();
    let c = turn.character(player, Access::Owner).await?;
    let secrets = check(turn.tx(), caller.guild_id, &c.sheet, &input).await?;
    if turn.fc {
        let j = (input, secrets, Judgement::Shocked);
        let out = judge(&mut turn, &mut rng, None, c, j).await?;
        return turn.finish(out).await;
    }
    let timeout = Some(turn.guild.session_timeout_minutes);
    let state = VrState::Reveal {
        character: c.row.id,
        input,
        requester: caller.user_id,
        outcome: None,
        secrets,
    };
    let name = c.name().to_string();
    let shown = state.clone();
    let out = Outcome::new(move |s| Response::message(view(s.id, s.version, true, &name, &shown)))
        .start(super::KIND, &state, Status::Open, timeout);
    turn.finish(out).await
}

/// A click on a revelation request: only the referee judges.
pub async fn click(
    app: &App,
    tx: Act,
    session: Session,
    click: &Click<'_>,
    judgement: Judgement,
) -> AppResult {
    let mut turn = Turn::click(app, tx, click.caller).await?;
    turn.require_gm(GM, "judge a revelation")?;
    let VrState::Reveal {
        character,
        input,
        secrets,
        requester,
        ..
    } = sessions::load(&session)?
    else {
        return Err(VrButton::unknown(VrButton::Reveal(judgement).encode().0));
    };
    let c = target::sheet_by_id(&mut turn, character).await?;
    // The sheet may have changed since the ask: the same Secrets must still
    // be where they were.
    let now = check(turn.tx(), session.guild_id, &c.sheet, &input).await?;
    if now != secrets {
        return Err(AppError::user(
            "The revealer's Light slots changed since this was asked: ask again with `/vr reveal`.",
        ));
    }
    let mut rng = turn.rng();
    let j = (input, secrets, judgement);
    let out = judge(&mut turn, &mut rng, Some((session, requester)), c, j).await?;
    turn.finish(out).await
}

/// The referee's judgement: the slot when shocked, the guild's record of
/// revealed Secrets always; closes the request if any (`asked`: its
/// session and who asked).
async fn judge(
    turn: &mut Turn<'_>,
    rng: &mut rand::rngs::StdRng,
    asked: Option<(Session, i64)>,
    mut c: Loaded<Sheet>,
    (input, secrets, judgement): (RevelationInput, Vec<String>, Judgement),
) -> Result<Outcome, AppError> {
    let caller = turn.caller().clone();
    let (events, log, mut lines) = apply_judgement(turn, rng, &mut c, &input, judgement)?;
    lines.extend(holders(turn.tx(), caller.guild_id, &c, &secrets).await?);
    let requester = asked.as_ref().map_or(caller.user_id, |(_, by)| *by);
    let state = VrState::Reveal {
        character: c.row.id,
        input: input.clone(),
        requester,
        outcome: Some(judgement),
        secrets: secrets.clone(),
    };
    let main = if judgement == Judgement::Shocked {
        render::change_view(
            c.name(),
            "shocks an NPC with a revelation",
            &c.sheet,
            &events,
        )
    } else {
        view(0, 0, false, c.name(), &state)
    };
    let (name, shown, request) = (c.name().to_string(), state.clone(), asked.is_some());
    let mut out = Outcome::new(move |s| {
        let mut out = if request {
            let r = Response::update(view(s.id, s.version, false, &name, &shown));
            if judgement == Judgement::Shocked {
                r.then(Reply::Message(main))
            } else {
                r
            }
        } else {
            Response::message(main)
        };
        if !lines.is_empty() {
            out = out.then(Reply::Message(View::text(lines.join("\n"))));
        }
        out
    });
    if let Some((s, _)) = asked {
        out = out.save(s, &state, Status::Closed, None);
    }
    if judgement == Judgement::Shocked {
        out = out.sheet(c.clone());
    }
    let revealed = record_revealed(&caller, c.row.id, input.target, secrets);
    Ok(out.log(log).also(revealed))
}

/// The referee's judgement applied: when shocked, the revealer's level up
/// (its events, its log entry, and how to give the NPC its Stress); else
/// only its log entry.
fn apply_judgement(
    turn: &mut Turn<'_>,
    rng: &mut rand::rngs::StdRng,
    c: &mut Loaded<Sheet>,
    input: &RevelationInput,
    judgement: Judgement,
) -> Result<(Vec<Event>, Record, Vec<String>), AppError> {
    if judgement == Judgement::Shocked {
        let action = Action::RevealToShock(input.clone());
        let events = c.sheet.apply(&action, &turn.settings, rng)?;
        let log = target::entry("reveal", &action, &events)
            .character(c.row.id)
            .on_session();
        // The named cause rolls the d6 itself and logs why (VR-16).
        let name = if input.target.contains(char::is_whitespace) {
            format!("\"{}\"", input.target)
        } else {
            input.target.clone()
        };
        let line = format!(
            "😱 *{}* is shocked: +d6 Stress (VR-16). Referee: `/vr stress cause:\"shocked by a Secret\" character:{name}` if they have a sheet.",
            clean(&input.target)
        );
        Ok((events, log, vec![line]))
    } else {
        let judged = super::record::Judged {
            judgement,
            input: input.clone(),
        };
        let log = target::entry("reveal_judged", &judged, &[])
            .character(c.row.id)
            .on_session();
        Ok((Vec::new(), log, Vec::new()))
    }
}

/// Keeps the guild's record of the Secrets revealed (VR-5: news from now
/// on), written with the outcome ([`Outcome::also`]).
fn record_revealed(
    caller: &Caller,
    character: i64,
    target: String,
    secrets: Vec<String>,
) -> impl for<'t> FnOnce(&'t mut Tx) -> Writing<'t> + Send + 'static {
    let (guild, by) = (caller.guild_id, caller.user_id);
    move |tx| {
        Box::pin(async move {
            for s in &secrets {
                let revealed = storage::veracity::Revealed {
                    key: &normalize_text(s),
                    secret: s,
                    character_id: character,
                    revealed_by: by,
                    target: &target,
                };
                storage::veracity::record(tx, guild, &revealed).await?;
            }
            Ok(())
        })
    }
}

/// A line for every character holding one of these Secrets, the
/// revealer's first (their slot still holds it; their sheet as it now
/// stands): it is just news now (VR-5: "once a Secret is revealed by
/// anyone, it's just news"), and how to drop it.
async fn holders(
    tx: &mut Tx,
    guild_id: i64,
    revealer: &Loaded<Sheet>,
    secrets: &[String],
) -> Result<Vec<String>, AppError> {
    let mut out = Vec::new();
    let mut rows = storage::characters::list(tx, guild_id, SYSTEM, None, 1000).await?;
    rows.sort_by_key(|r| r.id != revealer.row.id);
    for row in rows {
        let sheet = if row.id == revealer.row.id {
            revealer.sheet.clone()
        } else {
            match serde_json::from_str::<Sheet>(&row.sheet) {
                Ok(sheet) => sheet,
                Err(_) => continue,
            }
        };
        for s in secrets {
            if let Some(slot) = sheet.holds_secret(s) {
                out.push(format!(
                    "📰 <@{}>: {}'s Secret \"{s}\" (Light slot {slot}) is just news now and levels nobody up. Drop it with `/vr item remove inventory:light slot:{slot} character:{}`.",
                    row.owner_id,
                    clean(&row.name),
                    row.name
                ));
            }
        }
    }
    Ok(out)
}

/// What a revelation request says: who reveals which Secrets to whom,
/// with which Evidence, and the slot asked for.
fn request_text(requester: i64, name: &str, input: &RevelationInput, secrets: &[String]) -> String {
    format!(
        "<@{requester}> — **{}** reveals to *{}*: {}{}\nSlot asked for: {}.",
        clean(name),
        clean(&input.target),
        secrets
            .iter()
            .map(|s| format!("\"{}\"", escape(s)))
            .collect::<Vec<_>>()
            .join(", "),
        if input.evidence_slots.is_empty() {
            String::new()
        } else {
            format!(
                " (with the Evidence in Flesh slot {})",
                render::list(&input.evidence_slots)
            )
        },
        input.gain
    )
}

/// The referee's buttons on a revelation request: each judgement's label
/// and style.
const JUDGE: [(Judgement, &str, Style); 3] = [
    (Judgement::Shocked, "Confirm — shocked", Style::Success),
    (
        Judgement::NotShocked,
        "Confirm — not shocked",
        Style::Secondary,
    ),
    (Judgement::NotGreater, "Not greater", Style::Danger),
];

/// A revelation request as it stands.
pub fn view(id: i64, version: i64, open: bool, name: &str, state: &VrState) -> View {
    let VrState::Reveal {
        input,
        requester,
        outcome,
        secrets,
        ..
    } = state
    else {
        return View::text("Not a revelation.");
    };
    let what = request_text(*requester, name, input, secrets);
    let (look_outcome, title, text) = match outcome {
        Some(Judgement::Shocked) => (
            look::Outcome::Success,
            format!("Shocked · one {} slot", input.gain),
            format!("{what}\nThe referee judged it shocking and greater than the last."),
        ),
        Some(Judgement::NotShocked) => (
            look::Outcome::Failure,
            "Not shocked · no slot".to_string(),
            format!("{what}\nThe Secrets are news now."),
        ),
        Some(Judgement::NotGreater) => (
            look::Outcome::Failure,
            "Not greater than the last · no slot".to_string(),
            format!("{what}\nThe Secrets are news now."),
        ),
        None if !open => (
            look::Outcome::Closed,
            "Not judged · the request timed out".to_string(),
            format!("{what}\nNothing changed."),
        ),
        None => (
            look::Outcome::Pending,
            "Waiting for the referee".to_string(),
            format!("{what}\nIs the NPC shocked, and is it greater than the last?"),
        ),
    };
    let v = View::embed(
        Embed::new(look_outcome.title(&title))
            .author(format!("{name} · revelation to {}", input.target))
            .description(text)
            .colour(look_outcome.colour()),
    );
    if outcome.is_some() || !open {
        return v;
    }
    // The referee's judgement: tools for the referee's private panel.
    let judge = |(j, label, style): (Judgement, &str, Style)| {
        let custom_id = VrButton::Reveal(j)
            .button(super::KIND, id, version)
            .encode();
        Button::new(custom_id, label, style).gm_only()
    };
    v.buttons(JUDGE.map(judge).to_vec())
}
