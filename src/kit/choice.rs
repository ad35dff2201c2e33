//! Slash-command choices taken straight from the rules' own enums: one
//! list of a type's values and the names Discord shows for them, and
//! [`slash_choice!`] implements [`poise::ChoiceParameter`] for the type
//! itself. A command then takes the rules' value (`stat: Option<Stat>`)
//! with no mirrored enum and no conversion beside it, and the rules core
//! stays free of poise.
//!
//! The list's order is the order Discord shows and the index it sends
//! back: append new values, never reorder, or commands registered before
//! read the wrong value.

/// Implements [`poise::ChoiceParameter`] for a type from one list of its
/// values and their names (matched in any case when typed).
///
/// For an enum of plain variants:
/// `slash_choice!(Stat { Agility => "Agility", Wit => "Wit" });`
/// for any `Copy + PartialEq` values:
/// `slash_choice!(NoteKind ["Insight" => NoteKind::Insight]);`
macro_rules! slash_choice {
    ($ty:ident { $($variant:ident => $name:literal),+ $(,)? }) => {
        $crate::kit::choice::slash_choice!($ty [$($name => $ty::$variant),+]);
    };
    ($ty:ty [ $($name:literal => $value:expr),+ $(,)? ]) => {
        impl ::poise::ChoiceParameter for $ty {
            fn list() -> ::std::borrow::Cow<'static, [::poise::CommandParameterChoice]> {
                use ::std::borrow::Cow;
                Cow::Borrowed(&[$(::poise::CommandParameterChoice {
                    __non_exhaustive: (),
                    name: Cow::Borrowed($name),
                    localizations: Cow::Borrowed(&[]),
                },)+])
            }

            fn from_index(index: usize) -> Option<Self> {
                [$($value),+].get(index).copied()
            }

            fn from_name(name: &str) -> Option<Self> {
                [$(($name, $value)),+]
                    .into_iter()
                    .find(|(n, _)| name.eq_ignore_ascii_case(n))
                    .map(|(_, v)| v)
            }

            fn name(&self) -> &'static str {
                [$(($name, $value)),+]
                    .into_iter()
                    .find(|(_, v)| v == self)
                    .map_or("", |(n, _)| n)
            }

            fn localized_name(&self, _locale: &str) -> Option<&'static str> {
                None
            }
        }
    };
}

pub(crate) use slash_choice;

#[cfg(test)]
mod tests {
    use poise::ChoiceParameter;

    #[derive(Debug, Clone, Copy, PartialEq)]
    enum Plain {
        First,
        Second,
    }

    slash_choice!(Plain { First => "first", Second => "the second" });

    #[derive(Debug, Clone, Copy, PartialEq)]
    enum Nested {
        Leaf(Plain),
        Other,
    }

    slash_choice!(Nested ["leaf" => Nested::Leaf(Plain::Second), "other" => Nested::Other]);

    #[test]
    fn a_listed_type_offers_its_values_in_order_and_reads_them_back() {
        let names: Vec<String> = Plain::list().iter().map(|c| c.name.to_string()).collect();
        assert_eq!(names, ["first", "the second"]);
        assert_eq!(Plain::from_index(0), Some(Plain::First));
        assert_eq!(Plain::from_index(1), Some(Plain::Second));
        assert_eq!(Plain::from_index(2), None);
        assert_eq!(Plain::from_name("THE SECOND"), Some(Plain::Second));
        assert_eq!(Plain::from_name("third"), None);
        assert_eq!(Plain::Second.name(), "the second");
        assert_eq!(Plain::First.localized_name("fr"), None);
    }

    #[test]
    fn values_may_carry_data_and_unlisted_values_have_no_name() {
        assert_eq!(Nested::from_index(0), Some(Nested::Leaf(Plain::Second)));
        assert_eq!(Nested::from_name("leaf"), Some(Nested::Leaf(Plain::Second)));
        assert_eq!(Nested::Other.name(), "other");
        assert_eq!(Nested::Leaf(Plain::First).name(), "");
    }
}
