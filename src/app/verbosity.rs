//! The per-channel house rule `verbosity`: `full` (the default) shows a
//! result with its derivation and odds; `compact` shows each result in one
//! line, as the plainest dice bots do: the outcome, who rolled what, and
//! the dice. Buttons stay, so nothing a player could do is lost; sheets,
//! lists, odds and help are not results and are left whole.
//!
//! A result is an embed with an author line ("Ada · Wits + Alertness", see
//! `systems::table::look`); [`compact`] shortens exactly those.

use super::settings;
use super::view::{Embed, View};
use super::{App, Caller, Reply, Response};
use crate::storage::Tx;

pub use super::settings::Verbosity;

/// A result in one line: `✅ Success · 3 successes · Ada · Wits +
/// Alertness · **8** **7** 3`, in the result's colour, with its buttons.
/// Views that are not results (no author line) are returned unchanged.
pub fn compact(mut view: View) -> View {
    for e in &mut view.embeds {
        let Some(author) = e.author.take() else {
            continue;
        };
        let mut parts = Vec::new();
        if !e.title.is_empty() {
            parts.push(format!("**{}**", e.title));
        }
        parts.push(author);
        if let Some(first) = e
            .description
            .as_deref()
            .and_then(|d| d.lines().map(str::trim).find(|l| !l.is_empty()))
        {
            parts.push(first.to_string());
        }
        let mut one = Embed::new("").description(parts.join(" · "));
        one.colour = e.colour;
        *e = one;
    }
    view
}

/// Shortens every result of a response when the caller's channel is
/// `compact` (one read of the channel's settings, only when the response
/// carries a result).
pub async fn apply(app: &App, caller: &Caller, r: Response) -> Response {
    if !has_result(&r) {
        return r;
    }
    match app.db.glance().await {
        Ok(mut tx) => apply_in(&mut tx, caller, r).await,
        Err(_) => r,
    }
}

/// [`apply`] to one view: an expired roll's redraw keeps the one line its
/// channel showed it in.
pub async fn apply_view(app: &App, caller: &Caller, view: View) -> View {
    match apply(app, caller, Response::update(view)).await.reply {
        Reply::Message(v) | Reply::Update(v) | Reply::Ephemeral(v) | Reply::Edit(v) => v,
    }
}

/// Whether a response carries a result (an embed with an author line), so
/// the channel's verbosity matters to it.
pub fn has_result(r: &Response) -> bool {
    let is_result = |reply: &Reply| {
        let (Reply::Message(v) | Reply::Update(v) | Reply::Ephemeral(v) | Reply::Edit(v)) = reply;
        v.embeds.iter().any(|e| e.author.is_some())
    };
    is_result(&r.reply) || r.followups.iter().any(is_result)
}

/// [`apply`] reading the channel's settings in a transaction the caller
/// holds (one read for everything said after an action).
pub async fn apply_in(tx: &mut Tx, caller: &Caller, r: Response) -> Response {
    if !has_result(&r) {
        return r;
    }
    let verbosity = settings::channel(tx, caller.guild_id, caller.channel_id)
        .await
        .map(|c| c.verbosity)
        .unwrap_or_default();
    if verbosity == Verbosity::Full {
        return r;
    }
    let one = |reply: Reply| match reply {
        Reply::Message(v) => Reply::Message(compact(v)),
        Reply::Ephemeral(v) => Reply::Ephemeral(compact(v)),
        Reply::Update(v) => Reply::Update(compact(v)),
        Reply::Edit(v) => Reply::Edit(compact(v)),
    };
    Response {
        reply: one(r.reply),
        followups: r.followups.into_iter().map(one).collect(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::app::view::{Button, Style};

    #[test]
    fn a_result_shrinks_to_one_line_and_keeps_its_buttons() {
        let full = View::embed(
            Embed::new("✅ Success · 3 successes")
                .author("Ada · Wits + Alertness")
                .description("**8** **7** **6** 3\nDifficulty 6")
                .field("Odds", "45.00%", true)
                .footer("legend")
                .colour(0x57F287),
        )
        .buttons(vec![Button::new("st:1:0:wp", "Willpower", Style::Primary)]);
        let short = compact(full.clone());
        let e = &short.embeds[0];
        assert_eq!(
            e.description.as_deref(),
            Some("**✅ Success · 3 successes** · Ada · Wits + Alertness · **8** **7** **6** 3")
        );
        assert!(e.title.is_empty() && e.fields.is_empty() && e.footer.is_none());
        assert_eq!(e.colour, Some(0x57F287));
        assert_eq!(short.rows, full.rows);
        // Not a result (no author line): unchanged.
        let sheet = View::embed(Embed::new("📜 Ada").field("Wits", "3", true));
        assert_eq!(compact(sheet.clone()), sheet);
        assert_eq!(Verbosity::parse("Compact"), Some(Verbosity::Compact));
        assert_eq!(Verbosity::parse("loud"), None);
    }
}
