//! What an autocomplete callback answers with, and what it reads besides
//! the text being completed: the choices from (label, value) pairs, and
//! the text already typed in another option of the same command (the
//! traits a specialty belongs to, the setting a value is for).

use poise::serenity_prelude as serenity;

use super::Context;

/// The autocomplete answer offering `pairs`, each (what is shown, what is
/// filled in), in order.
pub fn choices(
    pairs: impl IntoIterator<Item = (String, String)>,
) -> serenity::CreateAutocompleteResponse {
    serenity::CreateAutocompleteResponse::new().set_choices(
        pairs
            .into_iter()
            .map(|(label, value)| serenity::AutocompleteChoice::new(label, value))
            .collect(),
    )
}

/// The text typed so far in option `name` of the command being completed
/// (`None` when it is empty or not text).
pub fn option_text(ctx: Context<'_>, name: &str) -> Option<String> {
    let poise::Context::Application(a) = ctx else {
        return None;
    };
    a.args
        .iter()
        .find(|o| o.name == name)
        .and_then(|o| match &o.value {
            serenity::ResolvedValue::String(s) => Some((*s).to_string()),
            serenity::ResolvedValue::Autocomplete { value, .. } => Some((*value).to_string()),
            _ => None,
        })
}
