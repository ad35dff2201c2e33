//! Names: how prose shows a character's or a seat's name ([`unmarked`]),
//! and the names a refusal can offer: when a player names something a sheet
//! does not have (an ability, a job, a Facet), the refusal lists what the
//! sheet does have, the closest names first, so the fix is in sight.

/// A character's or a seat's name as prose shows it: the characters
/// Discord reads as markdown (asterisk, underscore, backtick, tilde, bar) taken out, so
/// `A*d_a` reads `Ada` and never pairs with a message's own bold. Text
/// Discord shows as plain (an embed's author, a button's label) and a
/// command a text suggests keep the name as typed.
pub fn unmarked(name: &str) -> String {
    name.replace(['*', '_', '`', '~', '|'], "")
}

/// At most this many names are listed; the rest are counted.
pub const MAX_LISTED: usize = 8;

/// The longest input compared (longer input is cut), which bounds the work.
const MAX_KEY: usize = 40;

/// Levenshtein distance between two strings, by characters.
pub fn edit_distance(a: &str, b: &str) -> usize {
    let b: Vec<char> = b.chars().collect();
    let mut prev: Vec<usize> = (0..=b.len()).collect();
    for (i, ca) in a.chars().enumerate() {
        let mut cur = Vec::with_capacity(b.len() + 1);
        cur.push(i + 1);
        for (j, cb) in b.iter().enumerate() {
            let cost = usize::from(ca != *cb);
            let best = (prev[j] + cost).min(prev[j + 1] + 1).min(cur[j] + 1);
            cur.push(best);
        }
        prev = cur;
    }
    prev[b.len()]
}

/// `names` ordered closest to `input` first (edit distance on the
/// lower-cased names; a name that starts with or contains the input counts
/// as closest; ties keep the given order), as a list of at most
/// [`MAX_LISTED`] names and "and N more": `Finesse, Wits and 3 more`.
/// Empty when there are no names.
pub fn closest_first<'a>(input: &str, names: impl IntoIterator<Item = &'a str>) -> String {
    let key: String = input.trim().to_lowercase().chars().take(MAX_KEY).collect();
    let mut scored: Vec<(usize, usize, &str)> = names
        .into_iter()
        .enumerate()
        .map(|(i, name)| {
            let other: String = name.to_lowercase().chars().take(MAX_KEY).collect();
            let d = if !key.is_empty() && other.contains(&key) {
                0
            } else {
                edit_distance(&key, &other)
            };
            (d, i, name)
        })
        .collect();
    scored.sort_unstable();
    let total = scored.len();
    let shown: Vec<&str> = scored.iter().take(MAX_LISTED).map(|(_, _, n)| *n).collect();
    let rest = total - shown.len();
    match (shown.as_slice(), rest) {
        ([], _) => String::new(),
        ([one], 0) => (*one).to_string(),
        (all, 0) => {
            let (last, head) = all.split_last().unwrap_or((&"", &[]));
            format!("{} and {last}", head.join(", "))
        }
        (all, n) => format!("{} and {n} more", all.join(", ")),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_name_for_prose_loses_its_markdown() {
        assert_eq!(unmarked("A*d_a"), "Ada");
        assert_eq!(unmarked("*Ace* `x` ~~y~~ ||z||"), "Ace x y z");
        assert_eq!(unmarked("Lady Vane"), "Lady Vane");
    }

    #[test]
    fn the_closest_come_first_and_the_list_is_capped() {
        assert_eq!(closest_first("Strength", []), "");
        assert_eq!(closest_first("Strength", ["Wits"]), "Wits");
        assert_eq!(
            closest_first("Wit", ["Finesse", "Charm", "Wits"]),
            "Wits, Charm and Finesse"
        );
        let many = ["A1", "A2", "A3", "A4", "A5", "A6", "A7", "A8", "A9", "B"];
        assert_eq!(
            closest_first("B", many),
            "B, A1, A2, A3, A4, A5, A6, A7 and 2 more"
        );
    }

    #[test]
    fn distance_counts_edits() {
        assert_eq!(edit_distance("kitten", "sitting"), 3);
        assert_eq!(edit_distance("", "abc"), 3);
    }
}
