//! Generic dice expressions for `/roll`: `NdM`, `+`/`-` constants and
//! several dice terms, `khN`/`klN` to keep the highest/lowest N, and `!` to
//! explode dice that show their maximum.
//!
//! Parsing and rolling are separate: [`parse`] validates against [`Caps`]
//! and yields an [`Expr`]; [`Expr::roll`] throws the dice.

use rand::Rng;
use serde::{Deserialize, Serialize};

use super::{dice, RuleError};

/// Limits a parsed expression must respect.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Caps {
    /// Longest expression, in characters.
    pub max_len: usize,
    /// Most dice requested over all terms.
    pub max_dice: u32,
    /// Most sides on one die.
    pub max_sides: u32,
}

impl Default for Caps {
    fn default() -> Self {
        Self {
            max_len: 200,
            max_dice: 500,
            max_sides: 1000,
        }
    }
}

/// Explosions stop adding dice once a roll has generated this many in all.
pub const MAX_GENERATED_DICE: usize = 2000;
/// Largest constant accepted in an expression.
const MAX_CONSTANT: i64 = 1_000_000;
/// Most terms in one expression.
const MAX_TERMS: usize = 50;

/// Keep the highest or lowest dice of a term.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub enum Keep {
    /// `khN`.
    Highest(u32),
    /// `klN`.
    Lowest(u32),
}

/// One term of an expression.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub enum Term {
    /// `NdM` with its options.
    Dice {
        /// How many dice.
        count: u32,
        /// Sides per die.
        sides: u32,
        /// `!`: a die showing `sides` adds another die.
        explode: bool,
        /// `khN` / `klN`.
        keep: Option<Keep>,
    },
    /// A whole number.
    Constant(i64),
}

/// A validated expression: signed terms.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Expr {
    /// `(negative, term)` pairs, in the order written.
    pub terms: Vec<(bool, Term)>,
}

/// One die as thrown.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct Face {
    /// The face shown.
    pub value: u32,
    /// Counted in the total (false when dropped by keep).
    pub kept: bool,
    /// Added by an explosion.
    pub exploded: bool,
}

/// A rolled term.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct TermRoll {
    /// Subtracted rather than added.
    pub negative: bool,
    /// The term as parsed.
    pub term: Term,
    /// The dice thrown (empty for constants).
    pub faces: Vec<Face>,
    /// The term's value before its sign.
    pub value: i64,
}

/// A whole rolled expression.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Roll {
    /// Every term with its dice.
    pub terms: Vec<TermRoll>,
    /// The sum.
    pub total: i64,
    /// True when explosions stopped at [`MAX_GENERATED_DICE`].
    pub capped: bool,
}

impl Term {
    /// The term in the expression syntax, e.g. `4d6kh3`.
    pub fn notation(&self) -> String {
        match self {
            Term::Constant(c) => c.to_string(),
            Term::Dice {
                count,
                sides,
                explode,
                keep,
            } => {
                let mut s = format!("{count}d{sides}");
                if *explode {
                    s.push('!');
                }
                match keep {
                    Some(Keep::Highest(n)) => s.push_str(&format!("kh{n}")),
                    Some(Keep::Lowest(n)) => s.push_str(&format!("kl{n}")),
                    None => {}
                }
                s
            }
        }
    }
}

impl Expr {
    /// The expression in canonical form, e.g. `3d6 + 2`.
    pub fn notation(&self) -> String {
        let mut out = String::new();
        for (i, (neg, term)) in self.terms.iter().enumerate() {
            match (i, neg) {
                (0, true) => out.push('-'),
                (0, false) => {}
                (_, true) => out.push_str(" - "),
                (_, false) => out.push_str(" + "),
            }
            out.push_str(&term.notation());
        }
        out
    }

    /// Throws every die of the expression.
    pub fn roll<R: Rng + ?Sized>(&self, rng: &mut R) -> Roll {
        let mut generated = 0usize;
        let mut capped = false;
        let mut terms = Vec::with_capacity(self.terms.len());
        let mut total: i64 = 0;
        for (negative, term) in &self.terms {
            let (faces, value) = match term {
                Term::Constant(c) => (Vec::new(), *c),
                Term::Dice {
                    count,
                    sides,
                    explode,
                    keep,
                } => {
                    let mut faces = Vec::with_capacity(*count as usize);
                    let mut pending = *count as usize;
                    let mut from_explosion = false;
                    while pending > 0 {
                        let mut next = 0;
                        for _ in 0..pending {
                            if generated >= MAX_GENERATED_DICE {
                                capped = true;
                                break;
                            }
                            generated += 1;
                            let value = dice::d(rng, *sides);
                            if *explode && value == *sides {
                                next += 1;
                            }
                            faces.push(Face {
                                value,
                                kept: true,
                                exploded: from_explosion,
                            });
                        }
                        if capped {
                            break;
                        }
                        pending = next;
                        from_explosion = true;
                    }
                    apply_keep(&mut faces, *keep);
                    let value = faces
                        .iter()
                        .filter(|f| f.kept)
                        .map(|f| i64::from(f.value))
                        .sum();
                    (faces, value)
                }
            };
            // Terms are capped (constants at MAX_CONSTANT, dice by count and
            // sides), so the total cannot overflow; saturate all the same.
            total = if *negative {
                total.saturating_sub(value)
            } else {
                total.saturating_add(value)
            };
            terms.push(TermRoll {
                negative: *negative,
                term: term.clone(),
                faces,
                value,
            });
        }
        Roll {
            terms,
            total,
            capped,
        }
    }
}

fn apply_keep(faces: &mut [Face], keep: Option<Keep>) {
    let (n, highest) = match keep {
        None => return,
        Some(Keep::Highest(n)) => (n as usize, true),
        Some(Keep::Lowest(n)) => (n as usize, false),
    };
    let mut order: Vec<usize> = (0..faces.len()).collect();
    // Stable: among equal faces the earlier die is kept.
    order.sort_by(|&a, &b| {
        let (x, y) = (faces[a].value, faces[b].value);
        if highest {
            y.cmp(&x)
        } else {
            x.cmp(&y)
        }
    });
    for (rank, &i) in order.iter().enumerate() {
        faces[i].kept = rank < n;
    }
}

/// Parses and validates an expression such as `3d6+2`, `4d6kh3`, `d20 - 1`
/// or `2d10! + 1d4`.
pub fn parse(input: &str, caps: Caps) -> Result<Expr, RuleError> {
    let len = input.chars().count();
    if len > caps.max_len {
        return Err(RuleError::new(format!(
            "That expression is {len} characters long; the most is {}.",
            caps.max_len
        )));
    }
    let text: String = input
        .chars()
        .filter(|c| !c.is_whitespace())
        .collect::<String>()
        .to_ascii_lowercase();
    if text.is_empty() {
        return Err(RuleError::new(
            "The expression is empty: try something like `3d6+2`.",
        ));
    }
    let bytes = text.as_bytes();
    let mut pos = 0;
    let mut terms = Vec::new();
    let mut total_dice: u32 = 0;
    loop {
        let negative = match bytes.get(pos) {
            Some(b'+') => {
                pos += 1;
                false
            }
            Some(b'-') => {
                pos += 1;
                true
            }
            _ if terms.is_empty() => false,
            Some(&c) => {
                return Err(RuleError::new(format!(
                    "Unexpected `{}` at position {}: terms are joined with `+` or `-`.",
                    c as char,
                    pos + 1
                )))
            }
            None => break,
        };
        let start = pos;
        let term = parse_term(bytes, &mut pos, caps)?;
        let shown = &text[start..pos];
        if let Term::Dice { count, .. } = term {
            total_dice = total_dice.saturating_add(count);
            if total_dice > caps.max_dice {
                return Err(RuleError::new(format!(
                    "Too many dice: at most {} in one roll (`{shown}` goes over).",
                    caps.max_dice
                )));
            }
        }
        terms.push((negative, term));
        if terms.len() > MAX_TERMS {
            return Err(RuleError::new(format!(
                "Too many terms: at most {MAX_TERMS}."
            )));
        }
        if pos >= bytes.len() {
            break;
        }
    }
    Ok(Expr { terms })
}

fn read_number(bytes: &[u8], pos: &mut usize) -> Option<u64> {
    let start = *pos;
    let mut value: u64 = 0;
    while let Some(c) = bytes.get(*pos).filter(|c| c.is_ascii_digit()) {
        value = value.saturating_mul(10).saturating_add(u64::from(c - b'0'));
        *pos += 1;
    }
    (*pos > start).then_some(value)
}

fn parse_term(bytes: &[u8], pos: &mut usize, caps: Caps) -> Result<Term, RuleError> {
    let start = *pos;
    let count = read_number(bytes, pos);
    if bytes.get(*pos) != Some(&b'd') {
        return match count {
            Some(c) => i64::try_from(c)
                .ok()
                .filter(|c| *c <= MAX_CONSTANT)
                .map(Term::Constant)
                .ok_or_else(|| {
                    RuleError::new(format!(
                        "Numbers go up to {MAX_CONSTANT}: `{}` at position {} is larger.",
                        String::from_utf8_lossy(&bytes[start..*pos]),
                        start + 1
                    ))
                }),
            None => Err(match bytes.get(*pos) {
                Some(&c) => RuleError::new(format!(
                    "Unexpected `{}` at position {}: expected a number or dice like `2d6`.",
                    c as char,
                    *pos + 1
                )),
                None => {
                    RuleError::new("The expression ends with an operator: add a term after it.")
                }
            }),
        };
    }
    *pos += 1;
    let count = count.unwrap_or(1);
    let sides = if bytes.get(*pos) == Some(&b'%') {
        *pos += 1;
        100
    } else {
        read_number(bytes, pos).ok_or_else(|| {
            RuleError::new(format!(
                "`d` at position {} needs a number of sides, like `d6`.",
                *pos
            ))
        })?
    };
    let shown = |end: usize| String::from_utf8_lossy(&bytes[start..end]).into_owned();
    if count == 0 {
        return Err(RuleError::new(format!(
            "`{}` rolls no dice: use at least 1.",
            shown(*pos)
        )));
    }
    if count > u64::from(caps.max_dice) {
        return Err(RuleError::new(format!(
            "Too many dice: at most {} in one roll.",
            caps.max_dice
        )));
    }
    if sides < 1 || sides > u64::from(caps.max_sides) {
        return Err(RuleError::new(format!(
            "`{}`: dice have 1 to {} sides.",
            shown(*pos),
            caps.max_sides
        )));
    }
    let (count, sides) = (count as u32, sides as u32);
    let mut explode = false;
    let mut keep = None;
    loop {
        match bytes.get(*pos) {
            Some(b'!') if !explode => {
                *pos += 1;
                if sides < 2 {
                    return Err(RuleError::new(
                        "A one-sided die cannot explode: it would never stop.",
                    ));
                }
                explode = true;
            }
            Some(b'k') if keep.is_none() => {
                *pos += 1;
                let highest = match bytes.get(*pos) {
                    Some(b'h') => true,
                    Some(b'l') => false,
                    _ => {
                        return Err(RuleError::new(
                            "`k` must be followed by `h` (keep highest) or `l` (keep lowest), e.g. `4d6kh3`.",
                        ))
                    }
                };
                *pos += 1;
                let n = read_number(bytes, pos)
                    .ok_or_else(|| RuleError::new("Say how many dice to keep, e.g. `kh3`."))?;
                if n == 0 || n > u64::from(count) {
                    return Err(RuleError::new(format!(
                        "`{}` keeps {n} of {count} dice: keep between 1 and {count}.",
                        shown(*pos)
                    )));
                }
                keep = Some(if highest {
                    Keep::Highest(n as u32)
                } else {
                    Keep::Lowest(n as u32)
                });
            }
            _ => break,
        }
    }
    Ok(Term::Dice {
        count,
        sides,
        explode,
        keep,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use rand::{rngs::StdRng, SeedableRng};

    fn p(s: &str) -> Result<Expr, RuleError> {
        parse(s, Caps::default())
    }

    #[test]
    fn numbers_beyond_the_cap_are_refused_not_wrapped() {
        let caps = Caps::default();
        for input in [
            "99999999999999999999",
            "9223372036854775808+9223372036854775808",
            "-9223372036854775808",
            "18446744073709551616",
            "1d6+1000001",
        ] {
            let e = parse(input, caps).unwrap_err();
            assert!(
                e.message.contains("Numbers go up to 1000000"),
                "{input}: {}",
                e.message
            );
        }
        let e = parse("2+99999999999999999999", caps).unwrap_err();
        assert!(e.message.contains("position 3"), "{}", e.message);
        // At the cap, sums are exact (no wrapping in any build).
        let x = parse("1000000+1000000-3", caps).unwrap();
        let r = x.roll(&mut StdRng::seed_from_u64(1));
        assert_eq!(r.total, 1_999_997);
        let x = parse("-1000000-1000000", caps).unwrap();
        assert_eq!(x.roll(&mut StdRng::seed_from_u64(1)).total, -2_000_000);
    }

    #[test]
    fn parses_the_usual_forms() {
        assert_eq!(p("3d6+2").unwrap().notation(), "3d6 + 2");
        assert_eq!(p(" d20 - 1 ").unwrap().notation(), "1d20 - 1");
        assert_eq!(p("4D6KH3").unwrap().notation(), "4d6kh3");
        assert_eq!(p("2d10!+1d4-3").unwrap().notation(), "2d10! + 1d4 - 3");
        assert_eq!(p("-2+d%").unwrap().notation(), "-2 + 1d100");
    }

    #[test]
    fn refuses_bad_input_with_reasons() {
        for (input, needle) in [
            ("", "empty"),
            ("3d", "sides"),
            ("0d6", "no dice"),
            ("501d6", "at most 500"),
            ("300d6+300d6", "at most 500"),
            ("1d1001", "1 to 1000"),
            ("1d0", "1 to 1000"),
            ("4d6kh5", "keep between 1 and 4"),
            ("4d6k3", "`k` must be followed"),
            ("1d1!", "cannot explode"),
            ("3d6+", "ends with an operator"),
            ("3d6*2", "Unexpected `*`"),
            ("2000000", "up to"),
        ] {
            let err = p(input).unwrap_err().message;
            assert!(err.contains(needle), "{input:?}: {err}");
        }
        let long = "1".repeat(201);
        assert!(p(&long).unwrap_err().message.contains("201 characters"));
    }

    #[test]
    fn seeded_roll_is_exact_and_sums() {
        let e = p("3d6+2").unwrap();
        let a = e.roll(&mut StdRng::seed_from_u64(7));
        let b = e.roll(&mut StdRng::seed_from_u64(7));
        assert_eq!(a, b);
        let faces: i64 = a.terms[0].faces.iter().map(|f| f.value as i64).sum();
        assert_eq!(a.terms[0].faces.len(), 3);
        assert_eq!(a.total, faces + 2);
    }

    #[test]
    fn keep_highest_drops_the_lowest() {
        let e = p("4d6kh3").unwrap();
        for seed in 0..50 {
            let r = e.roll(&mut StdRng::seed_from_u64(seed));
            let faces = &r.terms[0].faces;
            let min = faces.iter().map(|f| f.value).min().unwrap();
            let dropped: Vec<_> = faces.iter().filter(|f| !f.kept).collect();
            assert_eq!(dropped.len(), 1);
            assert_eq!(dropped[0].value, min);
            let sum: u32 = faces.iter().map(|f| f.value).sum();
            assert_eq!(r.total, i64::from(sum - min));
        }
    }

    #[test]
    fn explosions_add_dice_for_every_maximum() {
        let e = p("20d2!").unwrap();
        let r = e.roll(&mut StdRng::seed_from_u64(3));
        let faces = &r.terms[0].faces;
        let maxes = faces.iter().filter(|f| f.value == 2).count();
        let extra = faces.iter().filter(|f| f.exploded).count();
        assert_eq!(extra, maxes, "each 2 added exactly one die");
        assert_eq!(faces.len(), 20 + extra);
    }

    #[test]
    fn explosion_chains_are_capped() {
        // d2! on 500 dice explodes about 500 more; the cap still holds.
        let e = p("500d2!").unwrap();
        let r = e.roll(&mut StdRng::seed_from_u64(1));
        assert!(r.terms[0].faces.len() <= MAX_GENERATED_DICE);
    }
}
