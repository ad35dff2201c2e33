//! Turns an [`app::View`](crate::app::View) into serenity builders. No
//! decisions here: the view is clamped to Discord's limits, then copied.

use poise::serenity_prelude as serenity;
use serenity::{
    ButtonStyle, CreateActionRow, CreateAttachment, CreateButton, CreateEmbed, CreateEmbedFooter,
    CreateInteractionResponseFollowup, CreateInteractionResponseMessage, CreateSelectMenu,
    CreateSelectMenuKind, CreateSelectMenuOption,
};

use crate::app::view::{Row, Style, View};

/// The parts of a message, ready for any serenity builder.
pub struct Parts {
    /// Text, if any.
    pub content: Option<String>,
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
    let embeds = view
        .embeds
        .into_iter()
        .map(|e| {
            let mut b = CreateEmbed::new().title(e.title);
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
            b
        })
        .collect();
    let components = view
        .rows
        .into_iter()
        .map(|row| match row {
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
        })
        .collect();
    let attachments = view
        .files
        .into_iter()
        .map(|f| CreateAttachment::bytes(f.bytes, f.name))
        .collect();
    Parts {
        content: view.content,
        embeds,
        components,
        attachments,
    }
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
        .components(p.components);
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
        .components(p.components);
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
    fn refusals_fit_in_a_message() {
        assert_eq!(refusal("No."), "⚠️ No.");
        let long = refusal(&format!("`{}` is not a name", "Z".repeat(5000)));
        assert_eq!(long.chars().count(), crate::app::view::limits::CONTENT);
        assert!(long.ends_with('…'));
    }
}
