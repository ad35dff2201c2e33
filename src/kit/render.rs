//! Turns an [`app::View`](crate::app::View) into serenity builders. No
//! decisions here: the view is clamped to Discord's limits, then copied.

use poise::serenity_prelude as serenity;
use serenity::{
    ButtonStyle, CreateActionRow, CreateAllowedMentions, CreateAttachment, CreateButton,
    CreateEmbed, CreateEmbedFooter, CreateInteractionResponseFollowup,
    CreateInteractionResponseMessage, CreateSelectMenu, CreateSelectMenuKind,
    CreateSelectMenuOption,
};

use crate::app::view::{Embed, Row, Style, View};

/// The parts of a message, ready for any serenity builder.
pub struct Parts {
    /// Text, if any (mentions other than the deliberate pings neutralised).
    pub content: Option<String>,
    /// Who may be pinged: exactly the view's deliberate pings, nothing
    /// parsed from the text. Every builder below sets it.
    pub mentions: CreateAllowedMentions,
    /// Embeds.
    pub embeds: Vec<CreateEmbed>,
    /// Component rows.
    pub components: Vec<CreateActionRow>,
    /// Files.
    pub attachments: Vec<CreateAttachment>,
}

/// Clamps and converts a view.
pub fn parts(view: View) -> Parts {
    let view = view.clamp();
    let attachments = view
        .files
        .into_iter()
        .map(|f| CreateAttachment::bytes(f.bytes, f.name))
        .collect();
    Parts {
        content: view.content.map(|c| neutralise(&c)),
        mentions: mentions(&view.pings).roles(
            view.ping_roles
                .iter()
                .map(|r| serenity::RoleId::new((*r).max(1) as u64)),
        ),
        embeds: view.embeds.into_iter().map(embed).collect(),
        components: view.rows.into_iter().map(action_row).collect(),
        attachments,
    }
}

/// One embed as serenity builds it (an image names its attachment).
fn embed(e: Embed) -> CreateEmbed {
    let mut b = CreateEmbed::new();
    if !e.title.is_empty() {
        b = b.title(e.title);
    }
    if let Some(d) = e.description {
        b = b.description(d);
    }
    if let Some(c) = e.colour {
        b = b.colour(c);
    }
    for f in e.fields {
        b = b.field(f.name, f.value, f.inline);
    }
    if let Some(f) = e.footer {
        b = b.footer(CreateEmbedFooter::new(f));
    }
    if let Some(img) = e.image {
        b = b.image(format!("attachment://{img}"));
    }
    if let Some(a) = e.author {
        b = b.author(serenity::CreateEmbedAuthor::new(a));
    }
    b
}

/// One row of components: buttons, or a select menu.
fn action_row(row: Row) -> CreateActionRow {
    match row {
        Row::Buttons(buttons) => CreateActionRow::Buttons(
            buttons
                .into_iter()
                .map(|b| {
                    CreateButton::new(b.custom_id)
                        .label(b.label)
                        .style(style(b.style))
                        .disabled(b.disabled)
                })
                .collect(),
        ),
        Row::Select(s) => {
            let options = s
                .options
                .into_iter()
                .map(|o| {
                    let mut opt = CreateSelectMenuOption::new(o.label, o.value);
                    if let Some(d) = o.description {
                        opt = opt.description(d);
                    }
                    opt
                })
                .collect();
            CreateActionRow::SelectMenu(
                CreateSelectMenu::new(s.custom_id, CreateSelectMenuKind::String { options })
                    .placeholder(s.placeholder)
                    .min_values(s.min)
                    .max_values(s.max),
            )
        }
    }
}

/// What a message may ping: the listed members, nothing parsed from text
/// (no `@everyone`/`@here`, no roles, no user mention typed by anyone); a
/// view's deliberate role pings are added to it ([`View::ping_roles`]).
pub fn mentions(pings: &[i64]) -> CreateAllowedMentions {
    CreateAllowedMentions::new().users(
        pings
            .iter()
            .map(|u| serenity::UserId::new((*u).max(1) as u64)),
    )
}

/// Message text as sent: `@everyone` and `@here` never read as mentions
/// (the bot never means them), and user-typed mentions were already made
/// plain where user text is echoed ([`crate::app::view::plain`]). Mentions
/// the bot writes itself (`<@id>`, `<@&role>`) stay readable; none of them
/// pings unless listed in the view's `pings` ([`mentions`]).
pub fn neutralise(text: &str) -> String {
    text.replace("@everyone", "@\u{200B}everyone")
        .replace("@here", "@\u{200B}here")
}

/// Every string option of a command, in its subcommands too, made
/// [`literal`](crate::app::view::literal): user text reaches the application,
/// and so any reply or embed, as text only, never as a mention chip or a
/// masked link. The bot calls it on each command before poise reads it.
pub fn literal_options(options: &mut [serenity::CommandDataOption]) {
    for o in options {
        match &mut o.value {
            serenity::CommandDataOptionValue::String(s) => *s = crate::app::view::literal(s),
            serenity::CommandDataOptionValue::SubCommand(inner)
            | serenity::CommandDataOptionValue::SubCommandGroup(inner) => literal_options(inner),
            _ => {}
        }
    }
}

/// A text-only note (refusals, errors) as a poise reply.
pub fn note_reply(text: String, ephemeral: bool) -> poise::CreateReply {
    reply(View::text(text), ephemeral)
}

/// A text-only note as an interaction response message.
pub fn note_message(text: String, ephemeral: bool) -> CreateInteractionResponseMessage {
    response_message(View::text(text), ephemeral)
}

/// A text-only note as a follow-up.
pub fn note_followup(text: String, ephemeral: bool) -> CreateInteractionResponseFollowup {
    followup(View::text(text), ephemeral)
}

/// A new channel message (the GM channel's copy of a secret roll).
pub fn channel_message(view: View) -> serenity::CreateMessage {
    let p = parts(view);
    let mut m = serenity::CreateMessage::new()
        .embeds(p.embeds)
        .components(p.components)
        .allowed_mentions(p.mentions);
    if let Some(c) = p.content {
        m = m.content(c);
    }
    for a in p.attachments {
        m = m.add_file(a);
    }
    m
}

/// An edit of a channel message's embeds and buttons (its text stays).
pub fn channel_edit(view: View) -> serenity::EditMessage {
    let p = parts(view);
    serenity::EditMessage::new()
        .embeds(p.embeds)
        .components(p.components)
        .allowed_mentions(p.mentions)
}

/// An edit of an interaction's message, embeds and buttons only (its text
/// stays): expiry and mirrored copies.
pub fn token_edit(view: View) -> serenity::EditInteractionResponse {
    let p = parts(view);
    serenity::EditInteractionResponse::new()
        .embeds(p.embeds)
        .components(p.components)
        .allowed_mentions(p.mentions)
}

fn style(s: Style) -> ButtonStyle {
    match s {
        Style::Primary => ButtonStyle::Primary,
        Style::Secondary => ButtonStyle::Secondary,
        Style::Success => ButtonStyle::Success,
        Style::Danger => ButtonStyle::Danger,
    }
}

/// The text of a refusal or error note: `⚠️` and the reason, cut to fit a
/// message (a reason may quote a long input back).
pub fn refusal(reason: &str) -> String {
    let mut text = format!("⚠️ {reason}");
    let max = crate::app::view::limits::CONTENT;
    if text.chars().count() > max {
        text = text.chars().take(max - 1).collect();
        text.push('…');
    }
    text
}

/// A poise reply (slash-command answers and their follow-ups).
pub fn reply(view: View, ephemeral: bool) -> poise::CreateReply {
    let p = parts(view);
    let mut r = poise::CreateReply::default()
        .ephemeral(ephemeral)
        .allowed_mentions(p.mentions)
        .components(p.components);
    for e in p.embeds {
        r = r.embed(e);
    }
    if let Some(c) = p.content {
        r = r.content(c);
    }
    for a in p.attachments {
        r = r.attachment(a);
    }
    r
}

/// An interaction response message (new message or update).
pub fn response_message(view: View, ephemeral: bool) -> CreateInteractionResponseMessage {
    let p = parts(view);
    let mut m = CreateInteractionResponseMessage::new()
        .embeds(p.embeds)
        .components(p.components)
        .allowed_mentions(p.mentions);
    if ephemeral {
        m = m.ephemeral(true);
    }
    if let Some(c) = p.content {
        m = m.content(c);
    }
    for a in p.attachments {
        m = m.add_file(a);
    }
    m
}

/// An edit of a message already sent (a deferred answer).
pub fn edit(view: View) -> serenity::EditInteractionResponse {
    let p = parts(view);
    let mut e = serenity::EditInteractionResponse::new()
        .embeds(p.embeds)
        .components(p.components)
        .allowed_mentions(p.mentions);
    if let Some(c) = p.content {
        e = e.content(c);
    }
    for a in p.attachments {
        e = e.new_attachment(a);
    }
    e
}

/// A follow-up message.
pub fn followup(view: View, ephemeral: bool) -> CreateInteractionResponseFollowup {
    let p = parts(view);
    let mut m = CreateInteractionResponseFollowup::new()
        .embeds(p.embeds)
        .components(p.components)
        .allowed_mentions(p.mentions)
        .ephemeral(ephemeral);
    if let Some(c) = p.content {
        m = m.content(c);
    }
    for a in p.attachments {
        m = m.add_file(a);
    }
    m
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn everyone_and_here_never_read_as_mentions() {
        let z = '\u{200B}';
        assert_eq!(
            neutralise("@everyone look @here, <@42>"),
            format!("@{z}everyone look @{z}here, <@42>")
        );
    }

    #[test]
    fn every_builder_parses_no_mention() {
        let v = View::text("@everyone").ping(7, "hi");
        let p = parts(v.clone());
        let json = serde_json::to_value(&p.mentions).unwrap();
        assert_eq!(json["parse"], serde_json::json!([]));
        assert_eq!(json["users"], serde_json::json!(["7"]));
        let m = serde_json::to_value(response_message(v.clone(), false)).unwrap();
        assert_eq!(m["allowed_mentions"]["parse"], serde_json::json!([]));
        let f = serde_json::to_value(followup(v.clone(), true)).unwrap();
        assert_eq!(f["allowed_mentions"]["users"], serde_json::json!(["7"]));
        let c = serde_json::to_value(channel_message(View::text("@here"))).unwrap();
        assert_eq!(c["allowed_mentions"]["parse"], serde_json::json!([]));
        assert!(c["content"].as_str().unwrap().contains('\u{200B}'));
    }

    #[test]
    fn string_options_are_made_literal_in_subcommands_too() {
        let mut options: Vec<serenity::CommandDataOption> =
            serde_json::from_value(serde_json::json!([
                {"name": "sheet", "type": 2, "options": [
                    {"name": "note", "type": 1, "options": [
                        {"name": "text", "type": 3, "value": "<@1> [x](http://e.com)"},
                        {"name": "count", "type": 4, "value": 3}
                    ]}
                ]}
            ]))
            .unwrap();
        literal_options(&mut options);
        let back = serde_json::to_value(&options).unwrap();
        let inner = &back[0]["options"][0]["options"];
        assert_eq!(inner[0]["value"], "<@\u{200B}1> [x]\u{200B}(http://e.com)");
        assert_eq!(inner[1]["value"], 3);
    }

    #[test]
    fn refusals_fit_in_a_message() {
        assert_eq!(refusal("No."), "⚠️ No.");
        let long = refusal(&format!("`{}` is not a name", "Z".repeat(5000)));
        assert_eq!(long.chars().count(), crate::app::view::limits::CONTENT);
        assert!(long.ends_with('…'));
    }
}
