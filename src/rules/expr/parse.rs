//! The parser: tokens into an [`Expr`], checking every cap on the way.
//!
//! ```text
//! expr    := [N '#'] sum [cmp ['-'] N]          repeat, body, target
//! sum     := product (('+' | '-') product)*
//! product := unary (('*' | '/') unary)*
//! unary   := '-' unary | atom
//! atom    := (N | dice | '(' sum ')') ['[' label ']']
//! dice    := [N] 'd' (N | '%') modifier*
//! modifier:= ('rr' | 'ro') cond | '!' [cmp N] | ('kh'|'kl'|'dh'|'dl') N
//!          | cmp N | 'f' cond                   success count, failures
//! cond    := [cmp] N                            a bare N means `=N`
//! ```
//!
//! A comparison straight after a dice term counts successes (`5d10>=8`);
//! after anything else it is the target (`1d20+5 >= 15`, `(1d20) >= 15`).

use super::ast::{CmpOp, Cond, Dice, Expr, Keep, Node, Op, Reroll, Target};
use super::lex::{lex, position, unexpected, Tok, Token};
use super::{Caps, MAX_DEPTH, MAX_REPEAT, MAX_TERMS};
use crate::rules::RuleError;

struct Parser<'a> {
    input: &'a str,
    toks: Vec<Token>,
    i: usize,
    caps: Caps,
    dice: u64,
    atoms: usize,
    depth: usize,
}

/// Parses and validates an expression such as `3d6+2`, `4d6dl1`,
/// `5d10>=8f1`, `1d20+5 >= 15` or `6#4d6kh3`.
pub fn parse(input: &str, caps: Caps) -> Result<Expr, RuleError> {
    let len = input.chars().count();
    if len > caps.max_len {
        return Err(RuleError::new(format!(
            "That expression is {len} characters long; the most is {}.",
            caps.max_len
        )));
    }
    if input.trim().is_empty() {
        return Err(RuleError::new(
            "The expression is empty: try something like `3d6+2`.",
        ));
    }
    let toks = lex(input)?;
    let mut p = Parser {
        input,
        toks,
        i: 0,
        caps,
        dice: 0,
        atoms: 0,
        depth: 0,
    };
    p.expr()
}

impl Parser<'_> {
    fn peek(&self) -> Option<&Tok> {
        self.toks.get(self.i).map(|t| &t.tok)
    }

    fn peek_at(&self, k: usize) -> Option<&Tok> {
        self.toks.get(self.i + k).map(|t| &t.tok)
    }

    /// The byte offset of the current token (the end of the text at the end).
    fn here(&self) -> usize {
        self.toks.get(self.i).map_or(self.input.len(), |t| t.start)
    }

    /// The text of tokens `from..self.i` as typed.
    fn typed(&self, from: usize) -> &str {
        let start = self.toks.get(from).map_or(self.input.len(), |t| t.start);
        let end = self
            .i
            .checked_sub(1)
            .and_then(|k| self.toks.get(k))
            .map_or(start, |t| t.end);
        self.input.get(start..end.max(start)).unwrap_or("")
    }

    fn err_here(&self, hint: &str) -> RuleError {
        unexpected(self.input, self.here(), hint)
    }

    fn expr(&mut self) -> Result<Expr, RuleError> {
        let mut repeat = 1;
        let mut repeat_written = false;
        if let (Some(Tok::Num(n)), Some(Tok::Hash)) = (self.peek(), self.peek_at(1)) {
            let n = *n;
            if n == 0 || n > MAX_REPEAT {
                return Err(RuleError::new(format!(
                    "`{n}#` repeats the roll {n} times: repeats go from 1 to {MAX_REPEAT}."
                )));
            }
            repeat = n;
            repeat_written = true;
            self.i += 2;
        }
        let body = self.sum()?;
        let mut target = None;
        if let Some(Tok::Cmp(op)) = self.peek() {
            let op = *op;
            self.i += 1;
            let negative = if self.peek() == Some(&Tok::Minus) {
                self.i += 1;
                true
            } else {
                false
            };
            let Some(Tok::Num(n)) = self.peek() else {
                return Err(self.err_here("a target is a whole number, like `1d20+5 >= 15`."));
            };
            let n = i64::from(*n);
            self.i += 1;
            target = Some(Target {
                op,
                value: if negative { -n } else { n },
            });
        }
        if self.i < self.toks.len() {
            let hint = match self.peek() {
                Some(Tok::Cmp(_)) => "only one target per roll, like `1d20+5 >= 15`.",
                Some(Tok::RParen) => "this `)` closes no `(`.",
                Some(Tok::Hash) => "a repeat goes first, like `6#4d6kh3`.",
                Some(Tok::Num(_)) | Some(Tok::D) | Some(Tok::LParen) => {
                    "terms are joined with `+`, `-`, `*` or `/`."
                }
                Some(Tok::Label(_)) => "one label per term, like `1d20+5 [fire]`.",
                _ => "it does not belong here.",
            };
            return Err(self.err_here(hint));
        }
        let total = self.dice.saturating_mul(u64::from(repeat));
        if total > u64::from(self.caps.max_dice) {
            return Err(RuleError::new(format!(
                "Too many dice: at most {} in one roll, and this asks for {total}.",
                self.caps.max_dice
            )));
        }
        Ok(Expr {
            repeat,
            repeat_written,
            body,
            target,
        })
    }

    fn sum(&mut self) -> Result<Node, RuleError> {
        let mut left = self.product()?;
        loop {
            let op = match self.peek() {
                Some(Tok::Plus) => Op::Add,
                Some(Tok::Minus) => Op::Sub,
                _ => return Ok(left),
            };
            self.i += 1;
            let right = self.product()?;
            left = Node::Bin(op, Box::new(left), Box::new(right));
        }
    }

    fn product(&mut self) -> Result<Node, RuleError> {
        let mut left = self.unary()?;
        loop {
            let op = match self.peek() {
                Some(Tok::Star) => Op::Mul,
                Some(Tok::Slash) => Op::Div,
                _ => return Ok(left),
            };
            self.i += 1;
            let right = self.unary()?;
            left = Node::Bin(op, Box::new(left), Box::new(right));
        }
    }

    fn enter(&mut self) -> Result<(), RuleError> {
        self.depth += 1;
        if self.depth > MAX_DEPTH {
            return Err(RuleError::new(format!(
                "Too deeply nested at position {}: at most {MAX_DEPTH} levels of brackets and signs.",
                position(self.input, self.here())
            )));
        }
        Ok(())
    }

    fn unary(&mut self) -> Result<Node, RuleError> {
        if self.peek() == Some(&Tok::Minus) {
            self.i += 1;
            self.enter()?;
            let inner = self.unary()?;
            self.depth -= 1;
            return Ok(Node::Neg(Box::new(inner)));
        }
        self.atom()
    }

    fn atom(&mut self) -> Result<Node, RuleError> {
        self.atoms += 1;
        if self.atoms > MAX_TERMS {
            return Err(RuleError::new(format!(
                "Too many terms: at most {MAX_TERMS} numbers and dice in one roll."
            )));
        }
        let from = self.i;
        let node = match self.peek() {
            Some(Tok::LParen) => {
                let open = self.here();
                self.i += 1;
                self.enter()?;
                let inner = self.sum()?;
                self.depth -= 1;
                if self.peek() != Some(&Tok::RParen) {
                    return Err(match self.peek() {
                        None => RuleError::new(format!(
                            "The `(` at position {} is never closed: add a `)`.",
                            position(self.input, open)
                        )),
                        Some(_) => self.err_here("expected `)` or an operator."),
                    });
                }
                self.i += 1;
                inner
            }
            Some(Tok::Num(_)) if self.peek_at(1) == Some(&Tok::D) => self.dice(from)?,
            Some(Tok::D) => self.dice(from)?,
            Some(Tok::Num(n)) => {
                let n = i64::from(*n);
                self.i += 1;
                Node::Num(n)
            }
            None => {
                return Err(RuleError::new(
                    "The expression ends with an operator: add a term after it.",
                ))
            }
            Some(_) => return Err(self.err_here("expected a number, dice like `2d6`, or `(`.")),
        };
        if let Some(Tok::Label(text)) = self.peek() {
            let text = text.clone();
            self.i += 1;
            return Ok(Node::Labelled(Box::new(node), text));
        }
        Ok(node)
    }

    /// A number after a modifier such as `kh`.
    fn number(&mut self, what: &str) -> Result<u32, RuleError> {
        match self.peek() {
            Some(Tok::Num(n)) => {
                let n = *n;
                self.i += 1;
                Ok(n)
            }
            _ => Err(self.err_here(what)),
        }
    }

    /// `N`, `=N`, `<N`, `>=N` …
    fn cond(&mut self, what: &str) -> Result<Cond, RuleError> {
        let op = match self.peek() {
            Some(Tok::Cmp(op)) => {
                let op = *op;
                self.i += 1;
                op
            }
            _ => CmpOp::Eq,
        };
        let value = self.number(what)?;
        Ok(Cond { op, value })
    }

    /// A dice term from token `from`: its size, then its modifiers in any
    /// order, each at most once.
    fn dice(&mut self, from: usize) -> Result<Node, RuleError> {
        let (count, sides) = self.dice_size(from)?;
        let mut d = Dice::plain(count, sides);
        while self.dice_modifier(&mut d, from)? {}
        Ok(Node::Dice(d))
    }

    /// `NdM`: the count (one when left out) and the sides (`d%` a
    /// hundred), within the caps, the roll's dice so far included.
    fn dice_size(&mut self, from: usize) -> Result<(u32, u32), RuleError> {
        let count = match self.peek() {
            Some(Tok::Num(n)) => {
                let n = *n;
                self.i += 1;
                n
            }
            _ => 1,
        };
        self.i += 1; // the `d`
        let sides = match self.peek() {
            Some(Tok::Percent) => {
                self.i += 1;
                100
            }
            Some(Tok::Num(n)) => {
                let n = *n;
                self.i += 1;
                n
            }
            _ => {
                return Err(RuleError::new(format!(
                    "`d` at position {} needs a number of sides, like `d6`.",
                    position(self.input, self.toks[self.i - 1].start)
                )))
            }
        };
        if count > self.caps.max_dice {
            return Err(RuleError::new(format!(
                "Too many dice: at most {} in one roll (`{}` asks for {count}).",
                self.caps.max_dice,
                self.typed(from)
            )));
        }
        if sides < 1 || sides > self.caps.max_sides {
            return Err(RuleError::new(format!(
                "`{}`: dice have 1 to {} sides.",
                self.typed(from),
                self.caps.max_sides
            )));
        }
        self.dice = self.dice.saturating_add(u64::from(count));
        if self.dice > u64::from(self.caps.max_dice) {
            return Err(RuleError::new(format!(
                "Too many dice: at most {} in one roll (`{}` goes over).",
                self.caps.max_dice,
                self.typed(from)
            )));
        }
        Ok((count, sides))
    }

    /// Reads the modifier at hand into the dice term `d` (from token
    /// `from`): a reroll rule, an explosion, a keep or drop, a success or
    /// failure count; false when none follows.
    fn dice_modifier(&mut self, d: &mut Dice, from: usize) -> Result<bool, RuleError> {
        let at = self.i;
        match self.peek() {
            Some(Tok::Rr) | Some(Tok::Ro) => self.reroll_rule(d, at)?,
            Some(Tok::Bang) => self.explode_rule(d, at)?,
            Some(Tok::Kh) | Some(Tok::Kl) | Some(Tok::Dh) | Some(Tok::Dl) => {
                self.keep_rule(d, at, from)?
            }
            Some(Tok::Cmp(_)) if d.success.is_none() => {
                d.success = Some(self.cond("count dice against a face, e.g. `>=8`.")?);
            }
            Some(Tok::F) => {
                if d.success.is_none() {
                    return Err(RuleError::new(format!(
                        "`f` at position {} subtracts failures from successes: put it after a success count, like `5d10>=8f1`.",
                        position(self.input, self.here())
                    )));
                }
                if d.failure.is_some() {
                    return Err(self.twice(at, "one `f`"));
                }
                self.i += 1;
                d.failure = Some(self.cond("say which faces are failures, e.g. `f1`.")?);
            }
            _ => return Ok(false),
        }
        Ok(true)
    }

    /// The refusal of a dice term's second modifier of a kind (`what`),
    /// the one at token `at`.
    fn twice(&self, at: usize, what: &str) -> RuleError {
        RuleError::new(format!(
            "`{}` at position {}: a dice term takes {what} once.",
            self.input
                .get(self.toks[at].start..self.toks[at].end)
                .unwrap_or(""),
            position(self.input, self.toks[at].start)
        ))
    }

    /// `rr…` (reroll until it stops meeting) or `ro…` (once), at token
    /// `at`; an `rr` on every face would never stop.
    fn reroll_rule(&mut self, d: &mut Dice, at: usize) -> Result<(), RuleError> {
        let repeat = self.peek() == Some(&Tok::Rr);
        if d.reroll.is_some() {
            return Err(self.twice(at, "one reroll rule"));
        }
        self.i += 1;
        let cond = self.cond("say which faces to reroll, e.g. `rr1` or `ro<3`.")?;
        // `ro` rerolls once, so it always ends; only `rr` on every face
        // would go on for ever.
        let sides = d.sides;
        if repeat && cond.faces_meeting(sides) == sides {
            return Err(RuleError::new(format!(
                "`{}` rerolls every face of a d{sides}: it would never stop.",
                self.typed(at)
            )));
        }
        d.reroll = Some(Reroll { repeat, cond });
        Ok(())
    }

    /// `!` (on the highest face) or `!>N`, at token `at`; exploding on
    /// every face would never stop.
    fn explode_rule(&mut self, d: &mut Dice, at: usize) -> Result<(), RuleError> {
        if d.explode.is_some() {
            return Err(self.twice(at, "one `!`"));
        }
        self.i += 1;
        let sides = d.sides;
        let cond = match self.peek() {
            Some(Tok::Cmp(_)) => self.cond("say which faces explode, e.g. `!>5`.")?,
            _ => Cond {
                op: CmpOp::Eq,
                value: sides,
            },
        };
        if cond.faces_meeting(sides) == sides {
            return Err(RuleError::new(format!(
                "`{}` explodes on every face of a d{sides}: it would never stop.",
                self.typed(at)
            )));
        }
        d.explode = Some(cond);
        Ok(())
    }

    /// `khN`, `klN`, `dhN` or `dlN` at token `at`, keeping or dropping 1
    /// to all of the term's dice (the term typed from token `from`).
    fn keep_rule(&mut self, d: &mut Dice, at: usize, from: usize) -> Result<(), RuleError> {
        let tok = self.peek().cloned();
        if d.keep.is_some() {
            return Err(self.twice(at, "one keep or drop"));
        }
        self.i += 1;
        let keeping = matches!(tok, Some(Tok::Kh) | Some(Tok::Kl));
        let n = self.number(if keeping {
            "say how many dice to keep, e.g. `kh3`."
        } else {
            "say how many dice to drop, e.g. `dl1`."
        })?;
        let count = d.count;
        if n == 0 || n > count {
            let verb = if keeping { "keep" } else { "drop" };
            return Err(RuleError::new(format!(
                "`{}` {verb}s {n} of {count} dice: {verb} between 1 and {count}.",
                self.typed(from)
            )));
        }
        d.keep = Some(match tok {
            Some(Tok::Kh) => Keep::Highest(n),
            Some(Tok::Kl) => Keep::Lowest(n),
            Some(Tok::Dh) => Keep::DropHighest(n),
            _ => Keep::DropLowest(n),
        });
        Ok(())
    }
}
