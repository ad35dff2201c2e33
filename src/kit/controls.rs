//! A message's controls within Discord's limits and as data: a select
//! option's label and description are cut (between words, with an
//! ellipsis) to the 100 characters Discord lets them hold, in one place,
//! so a view hands over whole names and sentences and never cuts each text
//! itself; and a row whose buttons each show under their own condition is
//! written as one table of (shown, button) instead of a ladder of `if`s.

use crate::app::view::{limits, truncate, Button, SelectOption};

/// An option showing `label` (and `description` below it, when given) and
/// sending back `value`; both texts cut to [`limits::OPTION_TEXT`]. The
/// value is the view's own code and is kept as given.
pub fn option(label: &str, value: impl Into<String>, description: Option<&str>) -> SelectOption {
    let cut = |text: &str| {
        let mut text = text.to_string();
        truncate(&mut text, limits::OPTION_TEXT);
        text
    };
    SelectOption {
        label: cut(label),
        value: value.into(),
        description: description.map(cut),
    }
}

/// The buttons of `table` whose condition holds, in the table's order.
pub fn shown<const N: usize>(table: [(bool, Button); N]) -> Vec<Button> {
    table
        .into_iter()
        .filter_map(|(show, button)| show.then_some(button))
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn long_texts_are_cut_to_the_option_limit_and_the_value_is_kept() {
        let long = "word ".repeat(40);
        let o = option(&long, long.clone(), Some(&long));
        assert_eq!(o.label.chars().count(), 100);
        assert!(o.label.ends_with('…'));
        assert_eq!(o.description.as_deref(), Some(o.label.as_str()));
        assert_eq!(o.value, long);
        let short = option("Thief", "thief", None);
        assert_eq!(
            short,
            SelectOption {
                label: "Thief".into(),
                value: "thief".into(),
                description: None,
            }
        );
    }

    #[test]
    fn only_the_buttons_whose_condition_holds_are_shown_in_order() {
        let b = |label: &str| Button::new(label, label, crate::app::view::Style::Primary);
        let row = shown([(true, b("a")), (false, b("b")), (true, b("c"))]);
        let labels: Vec<&str> = row.iter().map(|b| b.label.as_str()).collect();
        assert_eq!(labels, ["a", "c"]);
    }
}
