//! Lists of named numbers typed in one option (`Wits 3, Alertness 2`): the
//! pure parser shared by the commands that build a sheet in one go. It
//! only reads the text; what a name means and which numbers are valid is
//! the game's own check, run on each entry afterwards.

use super::RuleError;

/// The most entries one list may hold.
pub const MAX_ENTRIES: usize = 40;

/// The longest name (in characters) one entry may have.
pub const MAX_NAME: usize = 64;

/// One entry of a list: a name as typed (trimmed) and its number.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Entry {
    /// The name, trimmed, as typed.
    pub name: String,
    /// The number after it.
    pub value: u32,
}

impl Entry {
    /// The entry as it reads in a list (`Wits 3`).
    pub fn text(&self) -> String {
        format!("{} {}", self.name, self.value)
    }
}

/// Reads `Name N, Name N, …`: entries separated by commas, semicolons or
/// new lines, each a name then a whole number (`Animal Ken 2`, `Wits: 3`
/// and `Wits=3` read alike); an empty piece (a trailing comma) is skipped.
/// `example` is one entry of the game's own (`Wits 3`), quoted in errors.
pub fn parse(input: &str, example: &str) -> Result<Vec<Entry>, RuleError> {
    let pieces: Vec<&str> = input
        .split([',', ';', '\n'])
        .map(str::trim)
        .filter(|p| !p.is_empty())
        .collect();
    if pieces.is_empty() {
        return Err(RuleError::new(format!(
            "The list is empty: write entries like `{example}`, separated by commas."
        )));
    }
    if pieces.len() > MAX_ENTRIES {
        return Err(RuleError::new(format!(
            "A list holds at most {MAX_ENTRIES} entries; this one has {}.",
            pieces.len()
        )));
    }
    pieces.into_iter().map(|p| entry(p, example)).collect()
}

/// One piece of the list: the name, then the number at its end.
fn entry(piece: &str, example: &str) -> Result<Entry, RuleError> {
    let shown = cut(piece);
    let digits_at = piece
        .char_indices()
        .rev()
        .take_while(|(_, c)| c.is_ascii_digit())
        .last()
        .map(|(i, _)| i);
    let (name, digits) = match digits_at {
        Some(i) => (&piece[..i], &piece[i..]),
        None => (piece, ""),
    };
    let name = name.trim_end().trim_end_matches([':', '=']).trim();
    if name.is_empty() || digits.is_empty() {
        return Err(RuleError::new(format!(
            "`{shown}`: write a name then a number, like `{example}`."
        )));
    }
    if name.chars().count() > MAX_NAME {
        return Err(RuleError::new(format!(
            "`{shown}`: a name has at most {MAX_NAME} characters."
        )));
    }
    let value = digits
        .parse::<u32>()
        .map_err(|_| RuleError::new(format!("`{shown}`: {} is too large.", cut(digits))))?;
    Ok(Entry {
        name: name.to_string(),
        value,
    })
}

/// A piece of input as quoted in an error: at most 40 characters, without
/// backticks (which would end the quote).
fn cut(text: &str) -> String {
    let clean: String = text.chars().filter(|c| *c != '`').collect();
    if clean.chars().count() > 40 {
        let head: String = clean.chars().take(39).collect();
        format!("{head}…")
    } else {
        clean
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn e(name: &str, value: u32) -> Entry {
        Entry {
            name: name.to_string(),
            value,
        }
    }

    fn err(input: &str) -> String {
        parse(input, "Wits 3").unwrap_err().message
    }

    #[test]
    fn reads_names_with_spaces_and_the_usual_separators() {
        assert_eq!(
            parse("Wits 3, Animal Ken 2; Firearms:1\nDodge=0,", "Wits 3").unwrap(),
            vec![
                e("Wits", 3),
                e("Animal Ken", 2),
                e("Firearms", 1),
                e("Dodge", 0)
            ]
        );
        assert_eq!(parse("  Wits3 ", "Wits 3").unwrap(), vec![e("Wits", 3)]);
        assert_eq!(e("Animal Ken", 2).text(), "Animal Ken 2");
    }

    #[test]
    fn names_the_bad_entry_in_exact_words() {
        assert_eq!(
            err(" , "),
            "The list is empty: write entries like `Wits 3`, separated by commas."
        );
        assert_eq!(
            err("Wits 3, Alertness"),
            "`Alertness`: write a name then a number, like `Wits 3`."
        );
        assert_eq!(
            err("Wits 3, 2"),
            "`2`: write a name then a number, like `Wits 3`."
        );
        assert_eq!(
            err("Wits 99999999999"),
            "`Wits 99999999999`: 99999999999 is too large."
        );
        let long = format!("{} 1", "x".repeat(MAX_NAME + 1));
        assert_eq!(
            err(&long),
            format!("`{}…`: a name has at most 64 characters.", "x".repeat(39))
        );
        assert_eq!(
            err("`@everyone` 1x"),
            "`@everyone 1x`: write a name then a number, like `Wits 3`."
        );
    }

    #[test]
    fn caps_the_number_of_entries() {
        let ok = vec!["Wits 1"; MAX_ENTRIES].join(", ");
        assert_eq!(parse(&ok, "Wits 3").unwrap().len(), MAX_ENTRIES);
        let over = vec!["Wits 1"; MAX_ENTRIES + 1].join(", ");
        assert_eq!(
            err(&over),
            "A list holds at most 40 entries; this one has 41."
        );
    }
}
