//! The two answers of the table's prompts (delete or keep a character,
//! undo or keep a change, approve or reject a request), written once: each
//! prompt names its two action words, which are in posted buttons and must
//! never change.

use std::marker::PhantomData;

use crate::app::component::Action;

/// The two action words of one kind of prompt.
pub trait Words: 'static {
    /// The word of the answer that acts (`del`, `undo`, `approve`).
    const YES: &'static str;
    /// The word of the answer that leaves things as they are (`keep`,
    /// `reject`).
    const NO: &'static str;
}

/// One answer to a prompt whose words are `W`.
pub struct Answer<W> {
    /// Whether it is the answer that acts.
    pub yes: bool,
    words: PhantomData<W>,
}

impl<W> Answer<W> {
    /// The answer that acts.
    pub const YES: Self = Answer {
        yes: true,
        words: PhantomData,
    };
    /// The answer that leaves things as they are.
    pub const NO: Self = Answer {
        yes: false,
        words: PhantomData,
    };
}

impl<W> Clone for Answer<W> {
    fn clone(&self) -> Self {
        *self
    }
}

impl<W> Copy for Answer<W> {}

impl<W> PartialEq for Answer<W> {
    fn eq(&self, other: &Self) -> bool {
        self.yes == other.yes
    }
}

impl<W> Eq for Answer<W> {}

impl<W> std::fmt::Debug for Answer<W> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(if self.yes { "Yes" } else { "No" })
    }
}

impl<W: Words> Action for Answer<W> {
    fn encode(&self) -> (&'static str, Option<String>) {
        (if self.yes { W::YES } else { W::NO }, None)
    }

    fn parse(action: &str, arg: Option<&str>) -> Option<Self> {
        match arg {
            Some(_) => None,
            None if action == W::YES => Some(Self::YES),
            None if action == W::NO => Some(Self::NO),
            None => None,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    struct Test;
    impl Words for Test {
        const YES: &'static str = "go";
        const NO: &'static str = "stay";
    }

    #[test]
    fn both_answers_round_trip_and_nothing_else_parses() {
        for a in [Answer::<Test>::YES, Answer::NO] {
            let (w, arg) = a.encode();
            assert_eq!(Answer::<Test>::parse(w, arg.as_deref()), Some(a));
        }
        assert_eq!(Answer::<Test>::YES.encode().0, "go");
        assert_eq!(Answer::<Test>::NO.encode().0, "stay");
        assert_eq!(Answer::<Test>::parse("go", Some("1")), None);
        assert_eq!(Answer::<Test>::parse("Go", None), None);
    }
}
