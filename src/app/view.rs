//! The transport-neutral view: what a reply looks like (embeds, buttons,
//! selects, files), with Discord's size limits applied by [`View::clamp`].
//!
//! The application layer builds these; the adapter turns them into Discord
//! payloads without deciding anything.

use serde::Serialize;

/// Discord's limits on what a message may carry.
pub mod limits {
    /// Message content.
    pub const CONTENT: usize = 2000;
    /// Embed title.
    pub const TITLE: usize = 256;
    /// Embed description.
    pub const DESCRIPTION: usize = 4096;
    /// Fields per embed.
    pub const FIELDS: usize = 25;
    /// Field name.
    pub const FIELD_NAME: usize = 256;
    /// Field value.
    pub const FIELD_VALUE: usize = 1024;
    /// Footer text.
    pub const FOOTER: usize = 2048;
    /// An embed author's name.
    pub const AUTHOR: usize = 256;
    /// All text of all embeds of one message.
    pub const EMBED_TOTAL: usize = 6000;
    /// Embeds per message.
    pub const EMBEDS: usize = 10;
    /// Action rows per message.
    pub const ROWS: usize = 5;
    /// Buttons per row.
    pub const BUTTONS_PER_ROW: usize = 5;
    /// Button label.
    pub const LABEL: usize = 80;
    /// A component's custom_id.
    pub const CUSTOM_ID: usize = 100;
    /// Options in a select menu.
    pub const SELECT_OPTIONS: usize = 25;
    /// Select placeholder.
    pub const PLACEHOLDER: usize = 150;
    /// Select option label, value and description.
    pub const OPTION_TEXT: usize = 100;
}

/// Embed colours.
pub mod colour {
    /// Neutral.
    pub const NEUTRAL: u32 = 0x5865F2;
    /// Success.
    pub const SUCCESS: u32 = 0x57F287;
    /// Failure.
    pub const FAILURE: u32 = 0xED4245;
    /// A partial success (some of what was needed).
    pub const PARTIAL: u32 = 0xF0B232;
    /// Information with no outcome (a sheet, a list, odds).
    pub const INFO: u32 = 0x4F545C;
    /// Waiting for a choice.
    pub const PENDING: u32 = 0xFEE75C;
    /// Closed or expired.
    pub const CLOSED: u32 = 0x99AAB5;
}

/// A reply's content.
#[derive(Debug, Clone, Default, PartialEq, Serialize)]
pub struct View {
    /// Plain text above the embeds.
    pub content: Option<String>,
    /// Embeds, in order.
    pub embeds: Vec<Embed>,
    /// Component rows.
    pub rows: Vec<Row>,
    /// Attached files.
    pub files: Vec<File>,
    /// The session this message shows, when it has no button that says so
    /// (a finished roll): secrecy follows the session ([`View::session`]).
    pub shows: Option<i64>,
    /// Members this message deliberately pings (their `<@id>` in
    /// `content`). Nothing else in a message ever pings: no role, no
    /// `@everyone`, no mention typed by a user (see `kit::render`).
    pub pings: Vec<i64>,
    /// A game master's private tool panel ([`crate::app::gm_panel`]): its
    /// buttons act on a session, but it is not that session's message, so
    /// [`View::session`] is `None` and no redraw ever targets it.
    #[serde(skip)]
    pub panel: bool,
    /// The game master's word for this message's tools when it is not the
    /// owning session kind's (a table-wide request answered by the
    /// referee of the system it concerns).
    #[serde(skip)]
    pub gm_word: Option<String>,
    /// Roles this message deliberately pings (their `<@&id>` in
    /// `content`): only the server's game-master role, called to a
    /// player's request ([`View::ping_role`]).
    pub ping_roles: Vec<i64>,
    /// The action that drew this view knows the session it shows is not
    /// secret: it created that session just now for a caller acting
    /// openly ([`View::opened_by`]). The answer then skips reading whether
    /// the session is secret (one database round trip per `/roll`).
    #[serde(skip)]
    pub opened: bool,
    /// This message shows its session anew, at the bottom of the channel
    /// (a tracker's `show`, issue 31 item 5): the session's older message
    /// keeps its text, loses its buttons and points below
    /// ([`View::reposted`]).
    #[serde(skip)]
    pub repost: bool,
}

/// What the older copy of a session shown anew says ([`View::moved_below`]).
pub const MOVED_BELOW: &str = "⬇️ Shown again below: its buttons work there";

/// One embed.
#[derive(Debug, Clone, Default, PartialEq, Serialize)]
pub struct Embed {
    /// Title.
    pub title: String,
    /// Body text (markdown).
    pub description: Option<String>,
    /// Side colour.
    pub colour: Option<u32>,
    /// Fields.
    pub fields: Vec<Field>,
    /// Footer text.
    pub footer: Option<String>,
    /// An attached image's file name, shown in the embed.
    pub image: Option<String>,
    /// The small line above the title: who did what ("Ada rolls Wits +
    /// Alertness"), so the title can state the outcome.
    pub author: Option<String>,
}

/// An embed field.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Field {
    /// Name.
    pub name: String,
    /// Value (markdown).
    pub value: String,
    /// Shown side by side with its neighbours.
    pub inline: bool,
}

/// A row of components.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub enum Row {
    /// Up to five buttons.
    Buttons(Vec<Button>),
    /// One select menu.
    Select(Select),
}

impl Row {
    /// A select menu of `options` where one is picked.
    pub fn pick(
        custom_id: impl Into<String>,
        placeholder: impl Into<String>,
        options: Vec<SelectOption>,
    ) -> Self {
        Self::Select(Select {
            custom_id: custom_id.into(),
            placeholder: placeholder.into(),
            options,
            min: 1,
            max: 1,
        })
    }
}

/// Button colours.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub enum Style {
    /// Blurple: the main action.
    Primary,
    /// Grey.
    Secondary,
    /// Green.
    Success,
    /// Red.
    Danger,
}

/// A button.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Button {
    /// The custom_id (see [`crate::app::custom_id::ButtonId`]).
    pub custom_id: String,
    /// The label.
    pub label: String,
    /// Its colour.
    pub style: Style,
    /// Greyed out.
    pub disabled: bool,
    /// A game-master tool (void, force close, veto, adjust …): never shown
    /// in a message to players; [`crate::app::gm_panel`] folds such buttons
    /// behind one "⚙ <GM>" button that opens them in a private panel.
    #[serde(skip)]
    pub gm: bool,
}

/// A string select menu.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Select {
    /// The custom_id.
    pub custom_id: String,
    /// Text shown when nothing is chosen.
    pub placeholder: String,
    /// The options.
    pub options: Vec<SelectOption>,
    /// Fewest choices.
    pub min: u8,
    /// Most choices.
    pub max: u8,
}

/// One option of a select menu.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct SelectOption {
    /// Shown text.
    pub label: String,
    /// Value sent back.
    pub value: String,
    /// Smaller text below.
    pub description: Option<String>,
}

/// An attached file.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct File {
    /// File name, e.g. `odds.png`.
    pub name: String,
    /// Contents.
    #[serde(skip)]
    pub bytes: Vec<u8>,
}

impl Button {
    /// A button.
    pub fn new(custom_id: impl Into<String>, label: impl Into<String>, style: Style) -> Self {
        Self {
            custom_id: custom_id.into(),
            label: label.into(),
            style,
            disabled: false,
            gm: false,
        }
    }

    /// The same button, greyed out.
    pub fn disabled(mut self) -> Self {
        self.disabled = true;
        self
    }

    /// The same button marked as a game-master tool: it is moved out of
    /// the public message into the game master's private panel (a red
    /// one asks for confirmation there).
    pub fn gm_only(mut self) -> Self {
        self.gm = true;
        self
    }
}

impl Embed {
    /// An embed with a title.
    pub fn new(title: impl Into<String>) -> Self {
        Self {
            title: title.into(),
            ..Self::default()
        }
    }

    /// Sets the description.
    pub fn description(mut self, text: impl Into<String>) -> Self {
        self.description = Some(text.into());
        self
    }

    /// Sets the colour.
    pub fn colour(mut self, colour: u32) -> Self {
        self.colour = Some(colour);
        self
    }

    /// Adds a field.
    pub fn field(
        mut self,
        name: impl Into<String>,
        value: impl Into<String>,
        inline: bool,
    ) -> Self {
        self.fields.push(Field {
            name: name.into(),
            value: value.into(),
            inline,
        });
        self
    }

    /// Sets the footer.
    pub fn footer(mut self, text: impl Into<String>) -> Self {
        self.footer = Some(text.into());
        self
    }

    /// Sets the author line (who did what), shown above the title.
    pub fn author(mut self, text: impl Into<String>) -> Self {
        self.author = Some(text.into());
        self
    }

    /// The characters Discord counts toward an embed's total
    /// ([`limits::EMBED_TOTAL`]): title, author, description, footer and
    /// every field's name and value.
    pub fn text_len(&self) -> usize {
        self.title.chars().count()
            + self.author.as_deref().map_or(0, |a| a.chars().count())
            + self.description.as_deref().map_or(0, |d| d.chars().count())
            + self.footer.as_deref().map_or(0, |d| d.chars().count())
            + self
                .fields
                .iter()
                .map(|f| f.name.chars().count() + f.value.chars().count())
                .sum::<usize>()
    }
}

/// The value of a menu's "more" and "back" options (`page:N`); a click that
/// picks one only turns the page ([`page_of`]).
pub const PAGE_PREFIX: &str = "page:";

/// A page of a long menu, so that no choice is ever out of reach: Discord
/// shows at most 25 options, so a longer list shows 23 (fewer on inner
/// pages) with "◂ earlier" and "more ▸" options around them. `page` is
/// clamped to the last page.
pub fn paged_options(all: Vec<SelectOption>, page: usize) -> Vec<SelectOption> {
    const MAX: usize = 25;
    if all.len() <= MAX {
        return all;
    }
    // Every page shows 23 choices; the first lacks "earlier", the last
    // lacks "more", and neither slot is given to a choice, so each page's
    // range is simple to state.
    let per = MAX - 2;
    let pages = all.len().div_ceil(per);
    let page = page.min(pages - 1);
    let start = page * per;
    let mut out = Vec::with_capacity(MAX);
    if page > 0 {
        out.push(SelectOption {
            label: format!("◂ Earlier choices ({}–{})", start + 1 - per, start),
            value: format!("{PAGE_PREFIX}{}", page - 1),
            description: Some(format!("page {} of {pages}", page)),
        });
    }
    let n = all.len();
    out.extend(all.into_iter().skip(start).take(per));
    if page + 1 < pages {
        let next = start + per;
        out.push(SelectOption {
            label: format!("More choices ({}–{}) ▸", next + 1, (next + per).min(n)),
            value: format!("{PAGE_PREFIX}{}", page + 1),
            description: Some(format!("page {} of {pages}", page + 2)),
        });
    }
    out
}

/// The page a menu click asks for, when it picked a "more"/"earlier"
/// option (the other picks of that click are then ignored: turning the page
/// picks nothing).
pub fn page_of(values: &[String]) -> Option<usize> {
    values
        .iter()
        .find_map(|v| v.strip_prefix(PAGE_PREFIX)?.parse().ok())
}

/// A name with the characters Discord reads as markdown taken out, for
/// prose that names a character or a seat (`A*d_a` shows as `Ada`).
pub fn clean(name: &str) -> String {
    crate::rules::names::unmarked(name)
}

/// `n` and what it counts, `one` for 1 and `many` otherwise: "1 die",
/// "3 dice", "0 successes".
pub fn count(n: u32, one: &str, many: &str) -> String {
    format!("{n} {}", if n == 1 { one } else { many })
}

/// User-typed prose (an item, a Facet phrase, a Convention) shown as
/// typed: each character Discord reads as emphasis or code (asterisk,
/// underscore, tilde, backtick, bar, backslash) gets a backslash before
/// it, so `Room_5` shows as `Room_5`, not as the start of italics, and
/// nothing typed pairs with the message's own bold. Masked links and
/// mentions are already broken where commands are read ([`literal`]).
/// Escape after shortening, so a cut never splits a backslash from its
/// character.
pub fn escape(text: &str) -> String {
    let mut out = String::with_capacity(text.len() + 8);
    for c in text.chars() {
        if matches!(c, '\\' | '*' | '_' | '~' | '`' | '|') {
            out.push('\\');
        }
        out.push(c);
    }
    out
}

/// `text` with its first letter upper-cased (`"referee"` → `"Referee"`);
/// empty stays empty.
pub fn capitalised(text: &str) -> String {
    let mut chars = text.chars();
    match chars.next() {
        Some(c) => c.to_uppercase().chain(chars).collect(),
        None => String::new(),
    }
}

/// User text (a name, a nickname) made plain for a message's content:
/// `@everyone`, `@here` and anything shaped like a mention (`<@…>`,
/// `<@!…>`, `<@&…>`, `<#…>`) get a zero-width space after `@`/`#`, so Discord
/// shows them as typed and they can never look like, or be, a mention.
pub fn plain(text: &str) -> String {
    const ZWSP: char = '\u{200B}';
    let mut out = String::with_capacity(text.len() + 8);
    let mut prev = None;
    let chars: Vec<char> = text.chars().collect();
    for (i, &c) in chars.iter().enumerate() {
        out.push(c);
        let rest: String = chars[i + 1..].iter().take(8).collect();
        let mention_open = prev == Some('<') && (c == '@' || c == '#');
        let broadcast = c == '@' && (rest.starts_with("everyone") || rest.starts_with("here"));
        if mention_open || broadcast {
            out.push(ZWSP);
        }
        prev = Some(c);
    }
    out
}

/// User text as every reply shows it: [`plain`] (no mention, no
/// `@everyone`) and no masked link (a zero-width space between `]` and `(`
/// keeps `[text](url)` as typed). Every string option of every command
/// passes through it on its way in ([`crate::kit::render::literal_options`]),
/// so no command has to remember it.
pub fn literal(text: &str) -> String {
    plain(text).replace("](", "]\u{200B}(")
}

impl View {
    /// A view with one embed.
    pub fn embed(embed: Embed) -> Self {
        Self {
            embeds: vec![embed],
            ..Self::default()
        }
    }

    /// A view with text only.
    pub fn text(content: impl Into<String>) -> Self {
        Self {
            content: Some(content.into()),
            ..Self::default()
        }
    }

    /// Marks the view as showing a session the action has just created
    /// for `caller`: when the caller acts openly, the session is not
    /// secret and the answer need not look that up ([`View::opened_by`]).
    /// A secret caller's view is left unmarked (its answer goes its own
    /// way, `kit::secret`).
    pub fn opened_by(mut self, caller: &super::Caller) -> Self {
        self.opened = !caller.secret;
        self
    }

    /// Pings `user` with `text` in front of the content (a deliberate
    /// mention, e.g. the player the game master calls on).
    pub fn ping(mut self, user: i64, text: &str) -> Self {
        let line = format!("<@{user}> {text}");
        self.content = Some(match self.content.take() {
            Some(c) => format!("{line}\n{c}"),
            None => line,
        });
        if !self.pings.contains(&user) {
            self.pings.push(user);
        }
        self
    }

    /// Pings the role `role` with `text` in front of the content (the game
    /// master's role, called to answer a request).
    pub fn ping_role(mut self, role: i64, text: &str) -> Self {
        let line = format!("<@&{role}> {text}");
        self.content = Some(match self.content.take() {
            Some(c) => format!("{line}\n{c}"),
            None => line,
        });
        if !self.ping_roles.contains(&role) {
            self.ping_roles.push(role);
        }
        self
    }

    /// Adds a row of buttons (ignored when empty).
    pub fn buttons(mut self, buttons: Vec<Button>) -> Self {
        if !buttons.is_empty() {
            self.rows.push(Row::Buttons(buttons));
        }
        self
    }

    /// Marks the message as showing its session anew ([`View::repost`]).
    pub fn reposted(mut self) -> Self {
        self.repost = true;
        self
    }

    /// The older copy of a session shown anew below: its text, no working
    /// button, and a line that says where it went.
    pub fn moved_below(self) -> Self {
        let mut old = self.disable_all();
        old.repost = false;
        // An edit keeps a message's text: the note goes in an embed, first.
        if old.embeds.len() >= limits::EMBEDS {
            old.embeds.pop();
        }
        old.embeds.insert(0, Embed::new(MOVED_BELOW));
        old
    }

    /// Greys out every button and removes select menus (a closed or
    /// expired session).
    pub fn disable_all(mut self) -> Self {
        self.rows.retain(|r| matches!(r, Row::Buttons(_)));
        for row in &mut self.rows {
            if let Row::Buttons(b) = row {
                for button in b {
                    button.disabled = true;
                }
            }
        }
        self
    }

    /// The session id of the first button, if the view carries any.
    pub fn session(&self) -> Option<i64> {
        if self.panel {
            return None;
        }
        if self.shows.is_some() {
            return self.shows;
        }
        self.rows
            .iter()
            .find_map(|r| match r {
                Row::Buttons(b) => b
                    .first()
                    .and_then(|b| crate::app::custom_id::ButtonId::parse(&b.custom_id)),
                Row::Select(s) => crate::app::custom_id::ButtonId::parse(&s.custom_id),
            })
            .map(|id| id.session)
    }

    /// Every button in the view, in order.
    pub fn all_buttons(&self) -> impl Iterator<Item = &Button> {
        self.rows.iter().flat_map(|r| match r {
            Row::Buttons(b) => b.as_slice(),
            Row::Select(_) => &[],
        })
    }

    /// Makes the view fit Discord's limits: long text is cut with an
    /// ellipsis, surplus fields, embeds, rows and buttons are dropped. The
    /// application layer should summarise before this; this is the net.
    pub fn clamp(mut self) -> Self {
        if let Some(c) = self.content.as_mut() {
            truncate(c, limits::CONTENT);
        }
        self.embeds.truncate(limits::EMBEDS);
        let mut budget = limits::EMBED_TOTAL;
        for e in &mut self.embeds {
            truncate(&mut e.title, limits::TITLE);
            // An embed needs something to show; an image alone will do.
            if e.title.is_empty()
                && e.image.is_none()
                && e.description.is_none()
                && e.fields.is_empty()
            {
                e.title.push('\u{200b}');
            }
            if let Some(d) = e.description.as_mut() {
                truncate(d, limits::DESCRIPTION);
            }
            if let Some(f) = e.footer.as_mut() {
                truncate(f, limits::FOOTER);
            }
            if let Some(a) = e.author.as_mut() {
                truncate(a, limits::AUTHOR);
            }
            e.fields.truncate(limits::FIELDS);
            for f in &mut e.fields {
                truncate(&mut f.name, limits::FIELD_NAME);
                truncate(&mut f.value, limits::FIELD_VALUE);
                if f.name.is_empty() {
                    f.name.push('\u{200b}');
                }
                if f.value.is_empty() {
                    f.value.push('\u{200b}');
                }
            }
            while e.text_len() > budget && !e.fields.is_empty() {
                e.fields.pop();
            }
            if e.text_len() > budget {
                if let Some(d) = e.description.as_mut() {
                    let keep = budget.saturating_sub(e.title.chars().count() + 2).max(1);
                    truncate(d, keep);
                }
            }
            budget = budget.saturating_sub(e.text_len());
        }
        self.rows.truncate(limits::ROWS);
        for row in &mut self.rows {
            match row {
                Row::Buttons(b) => {
                    b.truncate(limits::BUTTONS_PER_ROW);
                    for button in b {
                        truncate(&mut button.label, limits::LABEL);
                    }
                }
                Row::Select(s) => {
                    truncate(&mut s.placeholder, limits::PLACEHOLDER);
                    s.options.truncate(limits::SELECT_OPTIONS);
                    for o in &mut s.options {
                        truncate(&mut o.label, limits::OPTION_TEXT);
                        truncate(&mut o.value, limits::OPTION_TEXT);
                        if let Some(d) = o.description.as_mut() {
                            truncate(d, limits::OPTION_TEXT);
                        }
                    }
                    let n = s.options.len().max(1) as u8;
                    s.max = s.max.clamp(1, n);
                    s.min = s.min.min(s.max);
                }
            }
        }
        self.rows.retain(|r| match r {
            Row::Buttons(b) => !b.is_empty(),
            Row::Select(s) => !s.options.is_empty(),
        });
        self
    }
}

/// Cuts `s` to at most `max` characters, ending with `…` when cut. The
/// cut falls between words (or lines) when a space lies in the last fifth
/// of what is kept, so no word is cut in the middle; a single long word
/// is cut where the room ends.
pub fn truncate(s: &mut String, max: usize) {
    if s.chars().count() > max {
        let keep = max.saturating_sub(1);
        let cut: String = s.chars().take(keep).collect();
        let next_is_space = s.chars().nth(keep).is_some_and(char::is_whitespace);
        let cut = if next_is_space {
            cut.trim_end().to_string()
        } else {
            match cut.rfind(char::is_whitespace) {
                Some(at) if cut[..at].chars().count() >= keep - keep / 5 && at > 0 => {
                    cut[..at].trim_end().to_string()
                }
                _ => cut,
            }
        };
        *s = cut + "…";
    }
}

/// Joins `lines` with newlines within `max` characters: when they do not
/// all fit, the last ones are left out and a line "…and N more" says how
/// many. A list that fits is kept whole; an empty list gives "". Only a
/// `max` shorter than the "…and N more" line itself is exceeded by it.
pub fn join_capped(lines: &[String], max: usize) -> String {
    let all = lines.join("\n");
    if all.chars().count() <= max {
        return all;
    }
    let more = |n: usize| format!("…and {n} more");
    let mut out = String::new();
    let mut used = 0usize;
    for (i, line) in lines.iter().enumerate() {
        let after = used + usize::from(i > 0) + line.chars().count();
        // Not all fit, so room stays for the count of those after this one.
        if after + 1 + more(lines.len() - i - 1).chars().count() > max {
            if i > 0 {
                out.push('\n');
            }
            out.push_str(&more(lines.len() - i));
            return out;
        }
        if i > 0 {
            out.push('\n');
        }
        out.push_str(line);
        used = after;
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn capitalised_upper_cases_the_first_letter_only() {
        assert_eq!(capitalised("referee"), "Referee");
        assert_eq!(capitalised("élan vital"), "Élan vital");
        assert_eq!(capitalised("FC"), "FC");
        assert_eq!(capitalised(""), "");
    }

    #[test]
    fn a_count_names_one_or_many() {
        assert_eq!(count(1, "die", "dice"), "1 die");
        assert_eq!(count(0, "success", "successes"), "0 successes");
        assert_eq!(count(3, "hour", "hours"), "3 hours");
    }

    #[test]
    fn typed_prose_is_escaped_character_by_character() {
        assert_eq!(escape("Room_5 is 2*3"), "Room\\_5 is 2\\*3");
        assert_eq!(
            escape("**[a](b)** `c` ~~d~~ |e| \\"),
            "\\*\\*[a](b)\\*\\* \\`c\\` \\~\\~d\\~\\~ \\|e\\| \\\\"
        );
        assert_eq!(escape("The mayor is a ghoul"), "The mayor is a ghoul");
    }

    #[test]
    fn a_capped_join_keeps_what_fits_and_counts_the_rest() {
        let lines: Vec<String> = (0..10).map(|i| format!("line {i}")).collect();
        assert_eq!(join_capped(&lines[..2], 100), "line 0\nline 1");
        assert_eq!(join_capped(&[], 100), "");
        // "line 0\nline 1\n…and 8 more" is 25 characters.
        assert_eq!(join_capped(&lines, 25), "line 0\nline 1\n…and 8 more");
        assert_eq!(join_capped(&lines, 24), "line 0\n…and 9 more");
        // The last line needs no room for a tail: a list that fits is whole.
        let two = ["a".to_string(), "b".to_string()];
        assert_eq!(join_capped(&two, 3), "a\nb");
        assert_eq!(join_capped(&two, 2), "…and 2 more");
        for max in 12..80 {
            let s = join_capped(&lines, max);
            assert!(s.chars().count() <= max, "{max}: {s}");
            assert!(
                s.lines()
                    .last()
                    .is_some_and(|l| l.starts_with("line 9") || l.starts_with("…and ")),
                "{s}"
            );
        }
    }

    #[test]
    fn a_cut_falls_between_words() {
        let mut s = "Roll a stat: the register as sets, with buttons for cache".to_string();
        truncate(&mut s, 30);
        assert_eq!(s, "Roll a stat: the register as…");
        let mut s = "one two".to_string();
        truncate(&mut s, 7);
        assert_eq!(s, "one two", "what fits is kept whole");
        let mut s = "a".repeat(40);
        truncate(&mut s, 10);
        assert_eq!(s, format!("{}…", "a".repeat(9)), "one long word is cut");
        let mut s = "abc defghijklmnop".to_string();
        truncate(&mut s, 12);
        assert_eq!(s, "abc defghij…", "a space too far back is not used");
    }

    #[test]
    fn an_author_line_is_cut_to_discords_limit_and_counted() {
        let e = Embed::new("✅ Success").author("a".repeat(300));
        let v = View::embed(e).clamp();
        let e = &v.embeds[0];
        assert_eq!(
            e.author.as_deref().map(|a| a.chars().count()),
            Some(limits::AUTHOR)
        );
        assert_eq!(e.text_len(), "✅ Success".chars().count() + limits::AUTHOR);
        // An image alone needs no title.
        let bare = Embed {
            image: Some("odds-2.png".into()),
            ..Embed::default()
        };
        assert_eq!(View::embed(bare).clamp().embeds[0].title, "");
    }

    #[test]
    fn a_long_menu_pages_and_every_choice_is_reachable() {
        let all: Vec<SelectOption> = (0..60)
            .map(|i| SelectOption {
                label: format!("o{i}"),
                value: i.to_string(),
                description: None,
            })
            .collect();
        let mut seen = Vec::new();
        let mut page = 0;
        loop {
            let shown = paged_options(all.clone(), page);
            assert!(shown.len() <= 25);
            let values: Vec<String> = shown.iter().map(|o| o.value.clone()).collect();
            let mut uniq = values.clone();
            uniq.dedup();
            assert_eq!(uniq.len(), values.len());
            seen.extend(
                values
                    .iter()
                    .filter(|v| !v.starts_with(PAGE_PREFIX))
                    .cloned(),
            );
            match values.last().and_then(|v| page_of(std::slice::from_ref(v))) {
                Some(next) if next > page => page = next,
                _ => break,
            }
        }
        let expected: Vec<String> = (0..60).map(|i| i.to_string()).collect();
        assert_eq!(seen, expected, "every choice shows on exactly one page");
        assert_eq!(
            paged_options(all[..25].to_vec(), 3).len(),
            25,
            "short lists do not page"
        );
        assert_eq!(page_of(&["3".into(), "page:2".into()]), Some(2));
        assert_eq!(page_of(&["3".into()]), None);
    }

    #[test]
    fn user_text_is_made_plain() {
        let z = '\u{200B}';
        assert_eq!(
            plain("@everyone <@111> <@!2> <@&3> <#4> @here a@b"),
            format!("@{z}everyone <@{z}111> <@{z}!2> <@{z}&3> <#{z}4> @{z}here a@b")
        );
        assert_eq!(plain("Ada"), "Ada");
    }

    #[test]
    fn user_text_is_made_literal() {
        let z = '\u{200B}';
        assert_eq!(
            literal("<@1> <@&2> <#3> [x](http://e.com) [fire] (2)"),
            format!("<@{z}1> <@{z}&2> <#{z}3> [x]{z}(http://e.com) [fire] (2)")
        );
        assert_eq!(literal("1d20+5 [fire] >= 15"), "1d20+5 [fire] >= 15");
    }

    #[test]
    fn clamp_enforces_discord_limits() {
        let mut e = Embed::new("t".repeat(300)).description("d".repeat(5000));
        for i in 0..30 {
            e = e.field(format!("f{i}"), "v".repeat(2000), true);
        }
        let v = View::embed(e)
            .buttons(
                (0..7)
                    .map(|i| Button::new(format!("x{i}"), "l".repeat(100), Style::Primary))
                    .collect(),
            )
            .clamp();
        let e = &v.embeds[0];
        assert_eq!(e.title.chars().count(), 256);
        assert!(e.fields.len() <= 25);
        assert!(e.fields.iter().all(|f| f.value.chars().count() <= 1024));
        assert!(e.text_len() <= limits::EMBED_TOTAL);
        assert_eq!(v.all_buttons().count(), 5);
        assert!(v.all_buttons().all(|b| b.label.chars().count() <= 80));
    }
}
