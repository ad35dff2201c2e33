//! Reports of COMP and damage actions, and the cache-overflow prompt.
//!
//! Booting, damage (with `vv_fault_counts_toward_cache`) or a battery change
//! can leave the cache over its maximum; VV-8 says one die must go at once
//! and the owner chooses. Such a report is posted with a "Discard which?"
//! select backed by a session; the same select appears on a roll whose
//! register overflowed the cache.

use serde::{Deserialize, Serialize};

use super::buttons::VvButton;
use super::context::{Outcome, Turn};
use super::{text, VvState, KIND};
use crate::app::characters::Loaded;
use crate::app::component::Action;
use crate::app::pipeline::Shown;
use crate::app::view::{Embed, Row, View};
use crate::app::Response;
use crate::kit::controls::option;
use crate::rules::ore::{OreSettings, OreSheet};
use crate::storage::sessions::Status;
use crate::systems::table::look::Outcome as Look;

/// The placeholder of the discard select.
pub const DISCARD_PLACEHOLDER: &str = "Discard which?";

/// A report message that waits for a discard.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct ReportState {
    /// The character's id.
    pub character: i64,
    /// Its name.
    pub name: String,
    /// Its owner (who chooses the discard, besides the Compiler).
    pub owner: i64,
    /// The author line, who and what (issue 16; none on reports posted
    /// before it).
    #[serde(default)]
    pub author: Option<String>,
    /// The embed title.
    pub title: String,
    /// What happened, one line each.
    pub lines: Vec<String>,
    /// The embed colour.
    pub colour: u32,
}

/// A report about `ch` as an outcome: posted closed, or, when its cache
/// is now over the maximum, as a session that waits for the owner's
/// discard. `head` is the author line (who · what) and the title.
pub fn outcome(
    turn: &Turn<'_>,
    ch: &Loaded<OreSheet>,
    head: (Option<String>, String),
    lines: Vec<String>,
    colour: u32,
) -> Outcome {
    let (author, title) = head;
    let state = ReportState {
        character: ch.row.id,
        name: ch.name().to_string(),
        owner: ch.row.owner_id,
        author,
        title,
        lines,
        colour,
    };
    let (sheet, settings) = (ch.sheet.clone(), turn.settings.clone());
    // Posted closed (no session) unless a discard must wait.
    let waits = sheet.cache_excess(&settings) > 0;
    let stored = VvState::Report(state.clone());
    let out = Outcome::new(move |s: &Shown| {
        let status = if waits { s.status } else { Status::Closed };
        let v = view(s.id, s.version, status, &state, Some(&sheet), &settings);
        Response::message(v)
    });
    if !waits {
        return out;
    }
    let minutes = turn.guild.session_timeout_minutes;
    out.start(KIND, &stored, Status::Open, Some(minutes))
}

/// The report's message.
pub fn view(
    id: i64,
    version: i64,
    status: Status,
    s: &ReportState,
    sheet: Option<&OreSheet>,
    settings: &OreSettings,
) -> View {
    let mut embed = Embed::new(s.title.clone())
        .description(text::join_capped(&s.lines, 4000))
        .colour(s.colour);
    if let Some(a) = &s.author {
        embed = embed.author(a.clone());
    }
    let mut rows = Vec::new();
    if let Some(sheet) = sheet {
        let excess = sheet.cache_excess(settings);
        if excess > 0 {
            if status == Status::Open {
                embed = embed
                    .footer(format!(
                        "The cache is {excess} over its maximum ({}): {}'s player or the Compiler picks the die to discard.",
                        sheet.comp.cache_max, s.name
                    ))
                    .colour(Look::Pending.colour());
                rows.extend(discard_row(id, version, sheet, settings));
            } else if status == Status::Expired {
                embed = embed.footer("Timed out: the lowest die goes at the next action (A-O10).");
            }
        }
    }
    View {
        rows,
        ..View::embed(embed)
    }
}

/// The "Discard which?" select for a sheet over its cache maximum: one
/// option per kind and face ([`OreSheet::discard_choices`]: dice of the
/// same face are alike), lowest first.
pub fn discard_row(id: i64, version: i64, sheet: &OreSheet, settings: &OreSettings) -> Option<Row> {
    let choices = sheet.discard_choices(settings);
    if choices.is_empty() {
        return None;
    }
    let options = choices
        .into_iter()
        .take(25)
        .map(|c| {
            let (what, word) = if c.fault {
                ("Fault die", "f")
            } else {
                ("Cache die", "c")
            };
            let count = format!("{} in the cache", c.count);
            option(
                &format!("{what} {}", c.face),
                format!("{word}:{}", c.face),
                Some(&count),
            )
        })
        .collect();
    Some(Row::pick(
        VvButton::Discard.button(KIND, id, version).encode(),
        DISCARD_PLACEHOLDER,
        options,
    ))
}
