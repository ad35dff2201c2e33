//! The lexer: the text as typed into tokens, each with its byte span in
//! that text (spaces kept), so errors can point at the place as typed.

use super::ast::CmpOp;
use super::{MAX_CONSTANT, MAX_LABEL};
use crate::rules::RuleError;

/// A token's kind.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Tok {
    /// A whole number (at most [`MAX_CONSTANT`]).
    Num(u32),
    /// `d` (dice).
    D,
    /// `%` (as in `d%`).
    Percent,
    /// `!` (explode).
    Bang,
    /// `kh`.
    Kh,
    /// `kl`.
    Kl,
    /// `dh`.
    Dh,
    /// `dl`.
    Dl,
    /// `rr`.
    Rr,
    /// `ro`.
    Ro,
    /// `f` (failures).
    F,
    /// `>=`, `>`, `<=`, `<`, `=`/`==`.
    Cmp(CmpOp),
    /// `+`.
    Plus,
    /// `-` (or the minus sign `−`).
    Minus,
    /// `*` (or `×`).
    Star,
    /// `/`.
    Slash,
    /// `(`.
    LParen,
    /// `)`.
    RParen,
    /// `#`.
    Hash,
    /// `[text]`: the text, trimmed.
    Label(String),
}

/// A token and where it is in the text as typed.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Token {
    /// What it is.
    pub tok: Tok,
    /// Byte offset of its first character.
    pub start: usize,
    /// Byte offset just past it.
    pub end: usize,
}

/// The 1-based character position of a byte offset (always on a char
/// boundary: offsets come from `char_indices`).
pub fn position(input: &str, byte: usize) -> usize {
    input
        .get(..byte)
        .map_or(byte, |s| s.chars().count())
        .saturating_add(1)
}

/// `Unexpected `x` at position N` with the character as typed.
pub fn unexpected(input: &str, byte: usize, hint: &str) -> RuleError {
    match input.get(byte..).and_then(|s| s.chars().next()) {
        Some(c) => RuleError::new(format!(
            "Unexpected `{c}` at position {}: {hint}",
            position(input, byte)
        )),
        None => RuleError::new(format!("The expression ends too soon: {hint}")),
    }
}

/// The characters still to read, with their byte offsets.
type Chars<'a> = std::iter::Peekable<std::str::CharIndices<'a>>;

/// Splits the text into tokens; spaces separate tokens and are otherwise
/// ignored (`1 0d6` is two numbers, not `10d6`).
pub fn lex(input: &str) -> Result<Vec<Token>, RuleError> {
    let mut out = Vec::new();
    let mut it = input.char_indices().peekable();
    while let Some((start, c)) = it.next() {
        let mut end = start + c.len_utf8();
        let lower = c.to_ascii_lowercase();
        let tok = match lower {
            c if c.is_whitespace() => continue,
            '0'..='9' => number(input, &mut it, start, c, &mut end)?,
            'k' | 'd' | 'r' => dice_letter(input, &mut it, start, lower, &mut end)?,
            'f' => Tok::F,
            '%' => Tok::Percent,
            '!' => Tok::Bang,
            '+' => Tok::Plus,
            '-' | '−' => Tok::Minus,
            '*' | '×' => Tok::Star,
            '/' => Tok::Slash,
            '(' => Tok::LParen,
            ')' => Tok::RParen,
            '#' => Tok::Hash,
            '>' | '<' | '=' | '≥' | '≤' => comparison(&mut it, lower, &mut end),
            '[' => label(input, &mut it, start, &mut end)?,
            _ => {
                return Err(unexpected(
                    input,
                    start,
                    "expected a number, dice like `2d6`, an operator or a `[label]`.",
                ))
            }
        };
        out.push(Token { tok, start, end });
    }
    Ok(out)
}

/// A number starting with the digit `first` at `start`, up to
/// [`MAX_CONSTANT`]; `end` moves past its last digit.
fn number(
    input: &str,
    it: &mut Chars<'_>,
    start: usize,
    first: char,
    end: &mut usize,
) -> Result<Tok, RuleError> {
    let mut value: u64 = u64::from(first as u8 - b'0');
    let mut too_big = false;
    while let Some(&(i, d)) = it.peek() {
        if !d.is_ascii_digit() {
            break;
        }
        it.next();
        *end = i + 1;
        value = match value
            .checked_mul(10)
            .and_then(|v| v.checked_add(u64::from(d as u8 - b'0')))
        {
            Some(v) => v,
            None => {
                too_big = true;
                u64::MAX
            }
        };
    }
    if too_big || value > MAX_CONSTANT as u64 {
        return Err(RuleError::new(format!(
            "Numbers go up to {MAX_CONSTANT}: `{}` at position {} is larger.",
            &input[start..*end],
            position(input, start)
        )));
    }
    Ok(Tok::Num(value as u32))
}

/// `d`, or a two-letter modifier starting with `k`, `d` or `r` (`kh`,
/// `kl`, `dh`, `dl`, `rr`, `ro`) at `start`; a lone `k` or `r` is refused.
fn dice_letter(
    input: &str,
    it: &mut Chars<'_>,
    start: usize,
    lower: char,
    end: &mut usize,
) -> Result<Tok, RuleError> {
    let next = it.peek().map(|&(_, n)| n.to_ascii_lowercase());
    let two = match (lower, next) {
        ('k', Some('h')) => Some(Tok::Kh),
        ('k', Some('l')) => Some(Tok::Kl),
        ('d', Some('h')) => Some(Tok::Dh),
        ('d', Some('l')) => Some(Tok::Dl),
        ('r', Some('r')) => Some(Tok::Rr),
        ('r', Some('o')) => Some(Tok::Ro),
        _ => None,
    };
    match two {
        Some(t) => {
            it.next();
            *end += 1;
            Ok(t)
        }
        None if lower == 'd' => Ok(Tok::D),
        None if lower == 'k' => Err(RuleError::new(format!(
            "`k` at position {} must be followed by `h` (keep highest) or `l` (keep lowest), e.g. `4d6kh3`.",
            position(input, start)
        ))),
        None => Err(RuleError::new(format!(
            "`r` at position {} must be followed by `r` (reroll again while it holds) or `o` (reroll once), e.g. `2d6rr1`.",
            position(input, start)
        ))),
    }
}

/// A comparison starting with `lower` (`>`, `>=`, `<`, `<=`, `=`, `==`,
/// `≥`, `≤`); `end` moves past a second `=`.
fn comparison(it: &mut Chars<'_>, lower: char, end: &mut usize) -> Tok {
    let eq_next = it.peek().map(|&(_, n)| n) == Some('=');
    let op = match (lower, eq_next) {
        ('>', true) => CmpOp::Ge,
        ('>', false) => CmpOp::Gt,
        ('<', true) => CmpOp::Le,
        ('<', false) => CmpOp::Lt,
        ('≥', _) => CmpOp::Ge,
        ('≤', _) => CmpOp::Le,
        _ => CmpOp::Eq,
    };
    if eq_next && matches!(lower, '>' | '<' | '=') {
        it.next();
        *end += 1;
    }
    Tok::Cmp(op)
}

/// A `[label]` opened at `start`: closed, not empty, at most
/// [`MAX_LABEL`] characters, with no `[`, backtick or line break; `end`
/// moves past its `]`.
fn label(input: &str, it: &mut Chars<'_>, start: usize, end: &mut usize) -> Result<Tok, RuleError> {
    let mut text = None;
    for (i, d) in it.by_ref() {
        if d == ']' {
            text = Some(&input[start + 1..i]);
            *end = i + 1;
            break;
        }
    }
    let Some(text) = text else {
        return Err(RuleError::new(format!(
            "The label at position {} is not closed: end it with `]`.",
            position(input, start)
        )));
    };
    let text = text.trim();
    let len = text.chars().count();
    if len > MAX_LABEL {
        return Err(RuleError::new(format!(
            "The label at position {} is {len} characters long; the most is {MAX_LABEL}.",
            position(input, start)
        )));
    }
    if text.is_empty() || text.contains(['[', '`', '\n']) {
        return Err(RuleError::new(format!(
            "The label at position {} must be some text without `[`, backticks or line breaks, like `[fire]`.",
            position(input, start)
        )));
    }
    Ok(Tok::Label(text.to_string()))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn spans_are_bytes_of_the_text_as_typed() {
        let t = lex("é 1d6").unwrap_err();
        assert!(
            t.message.contains("Unexpected `é` at position 1"),
            "{}",
            t.message
        );
        let t = lex("1d6 + é").unwrap_err();
        assert!(
            t.message.contains("Unexpected `é` at position 7"),
            "{}",
            t.message
        );
        let toks = lex("1 0d6").unwrap();
        assert_eq!(toks[0].tok, Tok::Num(1));
        assert_eq!(toks[1].tok, Tok::Num(0));
        assert_eq!((toks[1].start, toks[1].end), (2, 3));
        let toks = lex("[feu de forêt] 2").unwrap();
        assert_eq!(toks[0].tok, Tok::Label("feu de forêt".into()));
        assert_eq!(toks[1].start, "[feu de forêt] ".len());
    }

    #[test]
    fn words_and_comparisons() {
        let kinds: Vec<Tok> = lex("4D6KH3dl1rr<2ro>=5!f1 ≥ ==")
            .unwrap()
            .into_iter()
            .map(|t| t.tok)
            .collect();
        use CmpOp::*;
        assert_eq!(
            kinds,
            vec![
                Tok::Num(4),
                Tok::D,
                Tok::Num(6),
                Tok::Kh,
                Tok::Num(3),
                Tok::Dl,
                Tok::Num(1),
                Tok::Rr,
                Tok::Cmp(Lt),
                Tok::Num(2),
                Tok::Ro,
                Tok::Cmp(Ge),
                Tok::Num(5),
                Tok::Bang,
                Tok::F,
                Tok::Num(1),
                Tok::Cmp(Ge),
                Tok::Cmp(Eq),
            ]
        );
    }
}
