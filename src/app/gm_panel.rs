//! The game master's tools, kept out of the players' sight.
//!
//! A system draws its game-master buttons (void, force close, veto,
//! subvert, adjust …) in a roll's view like any other, marked
//! [`Button::gm_only`]. Before any view leaves the application layer,
//! [`fold`] takes them out and puts one **⚙ <GM>** button in their place
//! (each system's word: FC, Referee, Storyteller, Compiler). Pressing it
//! opens a private panel, to the game master only, with those tools acting
//! on that roll; a red (destructive) one asks "Really …?" first. A tool
//! pressed in the panel runs as the same click would have on the roll, and
//! the roll's public message is redrawn in place ([`Reply::Edit`]) while
//! the panel updates to the roll's new state.
//!
//! Panel buttons carry the roll's own custom_id with a prefixed action
//! word (`__gp_void`), so they need no state of their own and keep working
//! after a restart like every other button.

use super::custom_id::ButtonId;
use super::registry::Registry;
use super::view::{Button, Embed, Row, Style, View};
use super::{Reply, Response};

/// The action word of the ⚙ button on a roll: opens the panel.
pub const OPEN: &str = "__gm";
/// Back to the panel's tools (from a confirmation).
const BACK: &str = "__gb";
/// Prefix of a destructive tool's first press: asks to confirm.
const CONFIRM: &str = "__gc_";
/// Prefix of a tool pressed in the panel: runs it.
const RUN: &str = "__gp_";

/// What a panel button asks for.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Panel {
    /// The ⚙ button on the roll: open a new private panel.
    Open,
    /// Back from a confirmation to the tools.
    Back,
    /// A destructive tool's first press: ask to confirm it.
    Confirm,
    /// Run the tool (the inner id is the roll's own button).
    Run,
}

/// Recognises a panel button; returns what it asks for and the roll's own
/// button id (with the panel's prefix taken off the action word).
pub fn split(id: &ButtonId) -> Option<(Panel, ButtonId)> {
    let mut inner = id.clone();
    let panel = if id.action == OPEN {
        Panel::Open
    } else if id.action == BACK {
        Panel::Back
    } else if let Some(a) = id.action.strip_prefix(CONFIRM) {
        inner.action = a.to_string();
        Panel::Confirm
    } else if let Some(a) = id.action.strip_prefix(RUN) {
        inner.action = a.to_string();
        Panel::Run
    } else {
        return None;
    };
    Some((panel, inner))
}

/// The label of the ⚙ button: `⚙ FC`, `⚙ Referee`.
pub fn label(gm: &str) -> String {
    format!("⚙ {}", super::view::capitalised(gm))
}

/// Takes the game-master buttons out of a view and, when an enabled one
/// was there, adds one ⚙ button that opens them privately. `gm_of_kind`
/// names the game master of a session kind. A panel is left as it is.
pub fn fold(mut view: View, gm_of_kind: &dyn Fn(&str) -> String) -> View {
    if view.panel {
        return view;
    }
    let mut opener: Option<ButtonId> = None;
    for row in &mut view.rows {
        if let Row::Buttons(buttons) = row {
            buttons.retain(|b| {
                if !b.gm {
                    return true;
                }
                if !b.disabled && opener.is_none() {
                    opener = ButtonId::parse(&b.custom_id);
                }
                false
            });
        }
    }
    view.rows
        .retain(|r| !matches!(r, Row::Buttons(b) if b.is_empty()));
    let Some(id) = opener else {
        return view;
    };
    let gm = view.gm_word.clone().unwrap_or_else(|| gm_of_kind(&id.kind));
    let open = Button::new(
        ButtonId::new(&id.kind, id.session, id.version, OPEN).encode(),
        label(&gm),
        Style::Secondary,
    );
    // Into the last row when it is a row of buttons with room, else a row
    // of its own.
    match view.rows.last_mut() {
        Some(Row::Buttons(last)) if last.len() < super::view::limits::BUTTONS_PER_ROW => {
            last.push(open)
        }
        _ => view.rows.push(Row::Buttons(vec![open])),
    }
    view
}

/// [`fold`] on every view of a response.
pub fn fold_response(reg: &Registry, r: Response) -> Response {
    let gm = |kind: &str| reg.gm_of_kind(kind);
    let one = |reply: Reply| match reply {
        Reply::Message(v) => Reply::Message(fold(v, &gm)),
        Reply::Ephemeral(v) => Reply::Ephemeral(fold(v, &gm)),
        Reply::Update(v) => Reply::Update(fold(v, &gm)),
        Reply::Edit(v) => Reply::Edit(fold(v, &gm)),
    };
    Response {
        reply: one(r.reply),
        followups: r.followups.into_iter().map(one).collect(),
    }
}

/// The enabled game-master buttons of a (not yet folded) view.
pub fn tools(view: &View) -> Vec<Button> {
    view.all_buttons()
        .filter(|b| b.gm && !b.disabled)
        .cloned()
        .collect()
}

/// Prefixes a button's action word.
fn prefixed(button: &Button, prefix: &str) -> Option<String> {
    let mut id = ButtonId::parse(&button.custom_id)?;
    id.action = format!("{prefix}{}", id.action);
    let encoded = id.encode();
    (encoded.len() <= super::view::limits::CUSTOM_ID).then_some(encoded)
}

/// The private panel of a roll's game-master tools (`tools` from
/// [`tools`] of the roll's current view), with an optional note on top;
/// it says so when no tool is left.
pub fn panel(tools: &[Button], gm: &str, note: Option<&str>) -> View {
    let mut text = String::new();
    if let Some(n) = note {
        text.push_str(n);
        text.push_str("\n\n");
    }
    let buttons: Vec<Button> = tools
        .iter()
        .filter_map(|b| {
            let prefix = if b.style == Style::Danger {
                CONFIRM
            } else {
                RUN
            };
            prefixed(b, prefix).map(|id| Button::new(id, b.label.clone(), b.style))
        })
        .collect();
    let body = if buttons.is_empty() {
        "Nothing is left to do on this roll.".to_string()
    } else {
        "Only you see this. What you press here acts on the roll above and redraws it.".to_string()
    };
    text.push_str(&body);
    let mut view = View::embed(
        Embed::new(format!("{} tools for this roll", label(gm)))
            .description(text)
            .colour(super::view::colour::INFO),
    );
    for chunk in buttons.chunks(super::view::limits::BUTTONS_PER_ROW) {
        view = view.buttons(chunk.to_vec());
    }
    view.panel = true;
    view
}

/// The confirmation a destructive tool asks for.
pub fn confirm(tool: &Button, gm: &str) -> View {
    let yes = prefixed(tool, RUN)
        .map(|id| Button::new(id, format!("Yes, {}", tool.label), Style::Danger));
    let back = ButtonId::parse(&tool.custom_id).map(|mut id| {
        id.action = BACK.to_string();
        id.arg = None;
        Button::new(id.encode(), "Back", Style::Secondary)
    });
    let mut view = View::embed(
        Embed::new(format!("{} · {}?", label(gm), tool.label))
            .description("This cannot be taken back by pressing again. Are you sure?")
            .colour(super::view::colour::FAILURE),
    )
    .buttons(yes.into_iter().chain(back).collect());
    view.panel = true;
    view
}

/// Turns the answer of a tool pressed in the panel into: the panel
/// updated to the roll's new state (with `done` as its note), and the
/// roll's public message redrawn. Answers other than an update of the
/// clicked message pass through unchanged.
pub fn after_run(r: Response, session: i64, gm: &str, done: &str) -> Response {
    match r.reply {
        Reply::Update(mut public) => {
            let left = tools(&public);
            public.shows = Some(session);
            let mut followups = vec![Reply::Edit(public)];
            followups.extend(r.followups);
            Response {
                reply: Reply::Update(panel(&left, gm, Some(done))),
                followups,
            }
        }
        other => Response {
            reply: other,
            followups: r.followups,
        },
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn roll(version: i64) -> View {
        let id = |a: &str| ButtonId::new("roll", 7, version, a).encode();
        View::text("roll")
            .buttons(vec![
                Button::new(id("kiss"), "KISS", Style::Primary),
                Button::new(id("finish"), "Finish", Style::Success),
                Button::new(id("void"), "Void", Style::Danger).gm_only(),
            ])
            .buttons(vec![Button::new(
                id("force"),
                "Force close",
                Style::Secondary,
            )
            .gm_only()])
    }

    fn gm(_: &str) -> String {
        "FC".into()
    }

    #[test]
    fn gm_tools_fold_behind_one_button() {
        let folded = fold(roll(3), &gm);
        let labels: Vec<&str> = folded.all_buttons().map(|b| b.label.as_str()).collect();
        assert_eq!(labels, ["KISS", "Finish", "⚙ FC"]);
        assert_eq!(folded.rows.len(), 1, "the emptied row is dropped");
        let open = folded.all_buttons().last().unwrap();
        assert_eq!(open.custom_id, "roll:7:3:__gm");
        assert_eq!(folded.session(), Some(7));
        // Folding again changes nothing.
        assert_eq!(fold(folded.clone(), &gm), folded);
    }

    #[test]
    fn disabled_tools_leave_no_opener() {
        let folded = fold(roll(3).disable_all(), &gm);
        assert!(folded.all_buttons().all(|b| !b.gm && b.label != "⚙ FC"));
    }

    #[test]
    fn the_panel_confirms_destructive_tools_and_runs_the_rest() {
        let p = panel(&tools(&roll(4)), "FC", None);
        let ids: Vec<&str> = p.all_buttons().map(|b| b.custom_id.as_str()).collect();
        assert_eq!(ids, ["roll:7:4:__gc_void", "roll:7:4:__gp_force"]);
        assert_eq!(p.session(), None, "a panel is never the roll's message");
        let (what, inner) = split(&ButtonId::parse(ids[0]).unwrap()).unwrap();
        assert_eq!((what, inner.action.as_str()), (Panel::Confirm, "void"));
        let c = confirm(&tools(&roll(4))[0], "FC");
        let ids: Vec<&str> = c.all_buttons().map(|b| b.custom_id.as_str()).collect();
        assert_eq!(ids, ["roll:7:4:__gp_void", "roll:7:4:__gb"]);
        assert_eq!(
            split(&ButtonId::parse("roll:7:4:kiss").unwrap()),
            None,
            "a roll's own button is not a panel button"
        );
    }

    #[test]
    fn a_run_redraws_the_roll_and_updates_the_panel() {
        let r = after_run(Response::update(roll(5)), 7, "FC", "✅ Done: Force close.");
        let Reply::Update(p) = &r.reply else {
            panic!("the panel is updated")
        };
        assert!(p.panel);
        assert!(matches!(&r.followups[0], Reply::Edit(v) if v.session() == Some(7)));
        assert_eq!(label("referee"), "⚙ Referee");
    }
}
