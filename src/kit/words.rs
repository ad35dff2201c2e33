//! Words as data: a type's values listed once, each with the word that
//! stands for it in a custom_id (a button's action word, a select's
//! argument), and read both ways from that one list. A game then keeps
//! one `const` table instead of a `match` that writes the words and a
//! second `match` that reads them back.
//!
//! The words are in messages already posted: a table only ever grows.

/// The word `value` stands for in `words` (`""` when it is not listed; a
/// round-trip test over the table's values keeps every value listed).
pub fn word_of<T: PartialEq>(words: &[(&'static str, T)], value: &T) -> &'static str {
    words
        .iter()
        .find(|(_, v)| v == value)
        .map_or("", |(w, _)| w)
}

/// The value `word` names in `words`, if any (matched exactly).
pub fn by_word<T: Clone>(words: &[(&'static str, T)], word: &str) -> Option<T> {
    words
        .iter()
        .find(|(w, _)| *w == word)
        .map(|(_, v)| v.clone())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[derive(Debug, Clone, Copy, PartialEq)]
    enum Dir {
        Up,
        Down,
        Left,
    }

    const WORDS: [(&str, Dir); 2] = [("up", Dir::Up), ("down", Dir::Down)];

    #[test]
    fn words_read_both_ways_and_unknown_ones_are_none() {
        for (w, d) in WORDS {
            assert_eq!(word_of(&WORDS, &d), w);
            assert_eq!(by_word(&WORDS, w), Some(d));
        }
        assert_eq!(word_of(&WORDS, &Dir::Left), "");
        assert_eq!(by_word(&WORDS, "Up"), None);
        assert_eq!(by_word(&WORDS, ""), None);
    }
}
