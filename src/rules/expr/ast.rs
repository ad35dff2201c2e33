//! The syntax tree of a dice expression and its canonical printing.
//!
//! [`Expr`]'s `Display` prints the canonical form (`4d6kh3`, `1d20 + 5 >= 15`,
//! `6#4d6kh3`, `(1d20) >= 15`): parsing that text again gives the same tree.
//! Brackets are not kept in the tree; the printer adds them where the
//! precedence needs them.

use std::fmt;

/// A comparison, as in `>=8`, `<3`, `=1`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum CmpOp {
    /// `>=`.
    Ge,
    /// `>`.
    Gt,
    /// `<=`.
    Le,
    /// `<`.
    Lt,
    /// `=` (also written `==`).
    Eq,
}

impl CmpOp {
    /// Whether `x` compared with `t` holds.
    pub fn holds(self, x: i64, t: i64) -> bool {
        match self {
            CmpOp::Ge => x >= t,
            CmpOp::Gt => x > t,
            CmpOp::Le => x <= t,
            CmpOp::Lt => x < t,
            CmpOp::Eq => x == t,
        }
    }

    /// The operator as typed (`>=`, `=`).
    pub fn symbol(self) -> &'static str {
        match self {
            CmpOp::Ge => ">=",
            CmpOp::Gt => ">",
            CmpOp::Le => "<=",
            CmpOp::Lt => "<",
            CmpOp::Eq => "=",
        }
    }

    /// The operator for people (`≥`, `=`).
    pub fn pretty(self) -> &'static str {
        match self {
            CmpOp::Ge => "≥",
            CmpOp::Gt => ">",
            CmpOp::Le => "≤",
            CmpOp::Lt => "<",
            CmpOp::Eq => "=",
        }
    }
}

/// A condition on one die's face: `>=8`, `=1`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Cond {
    /// The comparison.
    pub op: CmpOp,
    /// The face compared with.
    pub value: u32,
}

impl Cond {
    /// Whether a face meets the condition.
    pub fn holds(self, face: u32) -> bool {
        self.op.holds(i64::from(face), i64::from(self.value))
    }

    /// How many of the faces `1..=sides` meet it.
    pub fn faces_meeting(self, sides: u32) -> u32 {
        (1..=sides).filter(|f| self.holds(*f)).count() as u32
    }

    /// `1` for `=1` (the bare number), else `<3`, `>=8`.
    fn write_short(self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.op {
            CmpOp::Eq => write!(f, "{}", self.value),
            op => write!(f, "{}{}", op.symbol(), self.value),
        }
    }
}

/// Keep or drop some dice of a pool.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Keep {
    /// `khN`: keep the highest N.
    Highest(u32),
    /// `klN`: keep the lowest N.
    Lowest(u32),
    /// `dhN`: drop the highest N.
    DropHighest(u32),
    /// `dlN`: drop the lowest N.
    DropLowest(u32),
}

impl Keep {
    /// `(kept, from the top)`: how many of `len` dice are kept, and whether
    /// the kept ones are the highest.
    pub fn kept_of(self, len: usize) -> (usize, bool) {
        match self {
            Keep::Highest(n) => ((n as usize).min(len), true),
            Keep::Lowest(n) => ((n as usize).min(len), false),
            Keep::DropHighest(n) => (len.saturating_sub(n as usize), false),
            Keep::DropLowest(n) => (len.saturating_sub(n as usize), true),
        }
    }
}

/// Rerolling dice whose face meets a condition.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Reroll {
    /// `rr` (again while it holds, capped) rather than `ro` (once).
    pub repeat: bool,
    /// Which faces are rerolled.
    pub cond: Cond,
}

/// A dice term: `4d6kh3`, `5d10>=8f1`, `2d6rr1`, `3d6!`.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct Dice {
    /// How many dice (0 allowed: the term is 0).
    pub count: u32,
    /// Sides per die (`d%` is 100).
    pub sides: u32,
    /// `rr`/`ro`.
    pub reroll: Option<Reroll>,
    /// `!` (on the highest face) or `!>N`: a die meeting it adds a die.
    pub explode: Option<Cond>,
    /// `kh`/`kl`/`dh`/`dl`.
    pub keep: Option<Keep>,
    /// `>=T` etc.: count the dice meeting it instead of adding faces.
    pub success: Option<Cond>,
    /// `fN`: dice meeting it count as −1 (needs `success`).
    pub failure: Option<Cond>,
}

impl Dice {
    /// Plain `NdM`.
    pub fn plain(count: u32, sides: u32) -> Self {
        Dice {
            count,
            sides,
            reroll: None,
            explode: None,
            keep: None,
            success: None,
            failure: None,
        }
    }
}

/// An arithmetic operator.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Op {
    /// `+`.
    Add,
    /// `-`.
    Sub,
    /// `*`.
    Mul,
    /// `/`: integer division rounded down (towards minus infinity).
    Div,
}

impl Op {
    fn precedence(self) -> u8 {
        match self {
            Op::Add | Op::Sub => 1,
            Op::Mul | Op::Div => 2,
        }
    }

    /// The operator as printed.
    pub fn symbol(self) -> &'static str {
        match self {
            Op::Add => "+",
            Op::Sub => "-",
            Op::Mul => "*",
            Op::Div => "/",
        }
    }
}

/// A node of the tree.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub enum Node {
    /// A whole number.
    Num(i64),
    /// A dice term.
    Dice(Dice),
    /// Unary minus.
    Neg(Box<Node>),
    /// `a op b`.
    Bin(Op, Box<Node>, Box<Node>),
    /// `node [label]`.
    Labelled(Box<Node>, String),
}

/// A pass/fail target: `>= 15`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Target {
    /// The comparison.
    pub op: CmpOp,
    /// The number compared with.
    pub value: i64,
}

/// A whole expression: an optional repeat, the body, an optional target.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct Expr {
    /// `N#`: how many separate results (1 without `#`).
    pub repeat: u32,
    /// Written with `N#` (so `1#d6` prints back as typed).
    pub repeat_written: bool,
    /// The expression rolled.
    pub body: Node,
    /// `expr >= T` turns each result into pass/fail.
    pub target: Option<Target>,
}

impl Node {
    fn precedence(&self) -> u8 {
        match self {
            Node::Bin(op, ..) => op.precedence(),
            Node::Neg(_) => 3,
            _ => 4,
        }
    }

    /// Whether the text of this node ends with a dice term that has no
    /// success condition (a comparison after it would count successes).
    fn ends_with_open_dice(&self) -> bool {
        match self {
            Node::Dice(d) => d.success.is_none(),
            Node::Bin(op, _, r) => r.precedence() > op.precedence() && r.ends_with_open_dice(),
            Node::Neg(x) => x.precedence() >= 3 && x.ends_with_open_dice(),
            Node::Num(_) | Node::Labelled(..) => false,
        }
    }

    /// Every dice term, left to right.
    pub fn dice(&self) -> Vec<&Dice> {
        let mut out = Vec::new();
        self.collect_dice(&mut out);
        out
    }

    fn collect_dice<'a>(&'a self, out: &mut Vec<&'a Dice>) {
        match self {
            Node::Dice(d) => out.push(d),
            Node::Num(_) => {}
            Node::Neg(x) | Node::Labelled(x, _) => x.collect_dice(out),
            Node::Bin(_, a, b) => {
                a.collect_dice(out);
                b.collect_dice(out);
            }
        }
    }
}

fn paren(f: &mut fmt::Formatter<'_>, n: &Node, wrap: bool) -> fmt::Result {
    if wrap {
        write!(f, "({n})")
    } else {
        write!(f, "{n}")
    }
}

impl fmt::Display for Dice {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}d{}", self.count, self.sides)?;
        if let Some(r) = self.reroll {
            f.write_str(if r.repeat { "rr" } else { "ro" })?;
            r.cond.write_short(f)?;
        }
        if let Some(e) = self.explode {
            f.write_str("!")?;
            let default = e
                == Cond {
                    op: CmpOp::Eq,
                    value: self.sides,
                };
            // A success condition right after `!` would be read as the
            // explosion's: spell the default out then.
            let next_is_cmp = self.keep.is_none() && self.success.is_some();
            if !default || next_is_cmp {
                write!(f, "{}{}", e.op.symbol(), e.value)?;
            }
        }
        match self.keep {
            Some(Keep::Highest(n)) => write!(f, "kh{n}")?,
            Some(Keep::Lowest(n)) => write!(f, "kl{n}")?,
            Some(Keep::DropHighest(n)) => write!(f, "dh{n}")?,
            Some(Keep::DropLowest(n)) => write!(f, "dl{n}")?,
            None => {}
        }
        if let Some(s) = self.success {
            write!(f, "{}{}", s.op.symbol(), s.value)?;
        }
        if let Some(x) = self.failure {
            f.write_str("f")?;
            x.write_short(f)?;
        }
        Ok(())
    }
}

impl fmt::Display for Node {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Node::Num(n) => write!(f, "{n}"),
            Node::Dice(d) => write!(f, "{d}"),
            Node::Neg(x) => {
                f.write_str("-")?;
                paren(f, x, x.precedence() < 3)
            }
            Node::Bin(op, a, b) => {
                let p = op.precedence();
                paren(f, a, a.precedence() < p)?;
                write!(f, " {} ", op.symbol())?;
                paren(f, b, b.precedence() <= p)
            }
            Node::Labelled(x, label) => {
                paren(
                    f,
                    x,
                    x.precedence() < 4 || matches!(**x, Node::Labelled(..)),
                )?;
                write!(f, " [{label}]")
            }
        }
    }
}

impl fmt::Display for Expr {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.repeat_written {
            write!(f, "{}#", self.repeat)?;
        }
        match self.target {
            None => write!(f, "{}", self.body),
            Some(t) => {
                paren(f, &self.body, self.body.ends_with_open_dice())?;
                write!(f, " {} {}", t.op.symbol(), t.value)
            }
        }
    }
}
