//! Reading a Virtual Veil roll (spec §5.2, VV-1..VV-6): sets, loose dice,
//! set values, difficulties, face modifiers and Special-action patterns.
//!
//! A **set** is two or more dice showing the same face: its width is how many
//! dice, its height the face. Sets are listed widest first, then highest. A set
//! is worth 10 × width + height (A-O4), shown as "3×7 (37)"; a roll with no
//! set is worth 10 + its highest face (A-O5).

use super::settings::FaceBounds;
use crate::rules::RuleError;
use serde::{Deserialize, Serialize};
use std::fmt;

/// The number of faces on an ORE die (a "digit").
pub const FACES: u32 = 10;

/// A group of dice showing the same face: `width` dice of face `height`.
///
/// Ordering (derived: width, then height) is the comparison order of VV-4.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
pub struct Set {
    /// How many dice (2 = dub, 3 = trip, 4 = quad, 5 = quint; 1 = a loose die).
    pub width: u32,
    /// The shared face, 1-10.
    pub height: u32,
}

impl Set {
    /// The value used to compare rolls: 10 × width + height (VV-4, A-O4).
    pub fn value(&self) -> u32 {
        self.width.saturating_mul(10).saturating_add(self.height)
    }

    /// True for a real set (width ≥ 2), false for a loose die.
    pub fn is_set(&self) -> bool {
        self.width >= 2
    }

    /// The set's name by width: "dub", "trip", "quad", "quint", "6-wide set"…
    pub fn width_name(&self) -> String {
        match self.width {
            0 => "nothing".into(),
            1 => "loose die".into(),
            2 => "dub".into(),
            3 => "trip".into(),
            4 => "quad".into(),
            5 => "quint".into(),
            w => format!("{w}-wide set"),
        }
    }
}

impl fmt::Display for Set {
    /// Shows the set as "width×height (value)", e.g. "3×7 (37)".
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}×{} ({})", self.width, self.height, self.value())
    }
}

/// What a roll shows once read: its sets and its loose dice (VV-2).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, Default)]
pub struct Reading {
    /// Every set, widest first, then highest.
    pub sets: Vec<Set>,
    /// The faces that match no other die, highest first.
    pub loose: Vec<u32>,
}

/// How many dice show each face; index 0 is unused. Faces outside 1-10 are
/// clamped into range.
pub fn face_counts(faces: &[u32]) -> [u32; 11] {
    let mut counts = [0u32; 11];
    for &f in faces {
        let f = f.clamp(1, FACES) as usize;
        counts[f] = counts[f].saturating_add(1);
    }
    counts
}

/// Reads a roll: groups the dice by face into sets and loose dice (VV-2).
///
/// Faces should be 1-10; anything else is clamped into that range.
pub fn read(faces: &[u32]) -> Reading {
    let counts = face_counts(faces);
    let mut sets = Vec::new();
    let mut loose = Vec::new();
    for height in (1..=FACES).rev() {
        let width = counts[height as usize];
        if width >= 2 {
            sets.push(Set { width, height });
        } else if width == 1 {
            loose.push(height);
        }
    }
    sets.sort_by(|a, b| b.cmp(a));
    Reading { sets, loose }
}

impl Reading {
    /// The best set (widest, then highest), if there is one.
    pub fn best(&self) -> Option<Set> {
        self.sets.first().copied()
    }

    /// The highest face in the roll, if it has any dice.
    pub fn highest_face(&self) -> Option<u32> {
        let from_sets = self.sets.iter().map(|s| s.height).max();
        let from_loose = self.loose.first().copied();
        from_sets.max(from_loose)
    }

    /// The width of the widest set; 1 when there is no set, 0 for no dice.
    pub fn widest(&self) -> u32 {
        match self.best() {
            Some(s) => s.width,
            None if self.loose.is_empty() => 0,
            None => 1,
        }
    }

    /// The roll's value (VV-4, A-O5): the best set's value, or 10 + the
    /// highest face when there is no set; 0 for a roll with no dice.
    pub fn value(&self) -> u32 {
        match (self.best(), self.highest_face()) {
            (Some(s), _) => s.value(),
            (None, Some(h)) => 10 + h,
            (None, None) => 0,
        }
    }

    /// The roll's best group as a [`Set`]: the best set, or the highest loose
    /// die as a width-1 group; `None` for no dice.
    pub fn best_group(&self) -> Option<Set> {
        self.best().or_else(|| {
            self.loose.first().map(|&h| Set {
                width: 1,
                height: h,
            })
        })
    }

    /// The sets that meet a difficulty, best first.
    pub fn qualifying(&self, req: &SetRequirement) -> Vec<Set> {
        self.sets.iter().copied().filter(|s| req.meets(s)).collect()
    }

    /// True if some set meets the difficulty (VV-3).
    pub fn succeeds(&self, req: &SetRequirement) -> bool {
        self.sets.iter().any(|s| req.meets(s))
    }
}

impl fmt::Display for Reading {
    /// "3×7 (37), 2×10 (30); loose 9 5", or "no set; loose 9 5 1".
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.sets.is_empty() {
            f.write_str("no set")?;
        } else {
            let parts: Vec<String> = self.sets.iter().map(|s| s.to_string()).collect();
            f.write_str(&parts.join(", "))?;
        }
        if !self.loose.is_empty() {
            let parts: Vec<String> = self.loose.iter().map(|d| d.to_string()).collect();
            write!(f, "; loose {}", parts.join(" "))?;
        }
        Ok(())
    }
}

/// The value of a roll (VV-4, A-O5): best set value, else 10 + highest face.
pub fn roll_value(faces: &[u32]) -> u32 {
    read(faces).value()
}

/// The difficulty an action sets for the set it uses (VV-3, A-O3).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct SetRequirement {
    /// The narrowest set accepted; 2 (a dub) by default, never below 2.
    pub min_width: u32,
    /// An optional lowest face accepted (A-O3: off unless the GM sets it).
    pub min_height: Option<u32>,
}

impl Default for SetRequirement {
    fn default() -> Self {
        Self {
            min_width: 2,
            min_height: None,
        }
    }
}

impl SetRequirement {
    /// A requirement of at least `min_width` dice (values below 2 mean a dub).
    pub fn width(min_width: u32) -> Self {
        Self {
            min_width: min_width.max(2),
            min_height: None,
        }
    }

    /// Checks the numbers are possible: width 2 or more, height 1-10.
    pub fn validate(&self) -> Result<(), RuleError> {
        if self.min_width < 2 {
            return Err(RuleError::new(
                "A set needs at least two matching dice, so the minimum width is 2 or more.",
            ));
        }
        if self.min_width > 100 {
            return Err(RuleError::new("The minimum width can be at most 100."));
        }
        if let Some(h) = self.min_height {
            if !(1..=FACES).contains(&h) {
                return Err(RuleError::new("The minimum height must be from 1 to 10."));
            }
        }
        Ok(())
    }

    /// True if `set` is wide and high enough.
    pub fn meets(&self, set: &Set) -> bool {
        set.width >= self.min_width.max(2) && self.min_height.is_none_or(|h| set.height >= h)
    }

    /// Short text for display, e.g. "a dub or better" or "a trip or better, height 6+".
    pub fn describe(&self) -> String {
        let w = Set {
            width: self.min_width.max(2),
            height: 0,
        }
        .width_name();
        let a = article(&w);
        match self.min_height {
            Some(h) => format!("{a} {w} or better, height {h}+"),
            None => format!("{a} {w} or better"),
        }
    }
}

/// "an" before a word read with a vowel sound ("an 8-wide set", "an
/// 11-wide set", "an 18-wide set"), "a" otherwise.
pub fn article(word: &str) -> &'static str {
    let digits: String = word.chars().take_while(char::is_ascii_digit).collect();
    let vowel = match digits.len() {
        0 => word.starts_with(['a', 'e', 'i', 'o', 'u']),
        _ => digits.starts_with('8') || digits == "11" || digits == "18",
    };
    if vowel {
        "an"
    } else {
        "a"
    }
}

/// Applies a face modifier to one die (VV-5): ±`delta`, then clamped to 1-10
/// or wrapped around, as the `vv_face_modifier_bounds` house rule says
/// (A-O6; clamp by default).
pub fn modify_face(face: u32, delta: i32, bounds: FaceBounds) -> u32 {
    let raw = i64::from(face.clamp(1, FACES)) + i64::from(delta);
    let out = match bounds {
        FaceBounds::Clamp => raw.clamp(1, i64::from(FACES)),
        FaceBounds::Wrap => (raw - 1).rem_euclid(i64::from(FACES)) + 1,
    };
    // `out` is in 1..=10 either way.
    u32::try_from(out).unwrap_or(1)
}

/// The dice a Special action needs, used together as one set (VV-6).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case", tag = "kind")]
pub enum Pattern {
    /// Exactly these faces (a multiset), e.g. "777" = three 7s, "789" = 7, 8, 9.
    Exact {
        /// The faces, each 1-10, in any order.
        faces: Vec<u32>,
    },
    /// A run of `length` consecutive faces, starting at `start` if given.
    Run {
        /// How many consecutive faces, 2-10.
        length: u32,
        /// The lowest face of the run, if the ability fixes it.
        start: Option<u32>,
    },
}

/// The most dice a Special-action pattern may name.
pub const MAX_PATTERN_DICE: usize = 30;

impl Pattern {
    /// Reads a pattern as a player types it.
    ///
    /// * digits: `777`, `789` (`0` stands for 10), or faces separated by commas
    ///   or spaces: `10,10,9`;
    /// * runs: `run 3` (any three consecutive faces) or `run 3 from 7`.
    pub fn parse(text: &str) -> Result<Pattern, RuleError> {
        let t = text.trim().to_ascii_lowercase();
        if let Some(rest) = t.strip_prefix("run") {
            let words: Vec<&str> = rest.split_whitespace().collect();
            let bad = || {
                RuleError::new(
                    "Write a run as \"run 3\" or \"run 3 from 7\" (3 consecutive faces from 7).",
                )
            };
            let length: u32 = words.first().ok_or_else(bad)?.parse().map_err(|_| bad())?;
            let start = match words.get(1..) {
                Some([]) | None => None,
                Some(["from", s]) => Some(s.parse::<u32>().map_err(|_| bad())?),
                Some(_) => return Err(bad()),
            };
            let p = Pattern::Run { length, start };
            p.validate()?;
            return Ok(p);
        }
        let faces: Vec<u32> = if t.contains(',') || t.contains(' ') {
            t.split([',', ' '])
                .filter(|s| !s.is_empty())
                .map(|s| s.parse::<u32>())
                .collect::<Result<_, _>>()
                .map_err(|_| {
                    RuleError::new("A pattern lists faces from 1 to 10, such as 777 or 10,10,9.")
                })?
        } else {
            t.chars()
                .map(|c| match c.to_digit(10) {
                    Some(0) => Ok(10),
                    Some(d) => Ok(d),
                    None => Err(RuleError::new(
                        "A pattern lists faces from 1 to 10, such as 777 or 10,10,9.",
                    )),
                })
                .collect::<Result<_, _>>()?
        };
        let p = Pattern::Exact { faces };
        p.validate()?;
        Ok(p)
    }

    /// Checks the pattern can be rolled at all.
    pub fn validate(&self) -> Result<(), RuleError> {
        match self {
            Pattern::Exact { faces } => {
                if faces.is_empty() {
                    return Err(RuleError::new("A pattern needs at least one face."));
                }
                if faces.len() > MAX_PATTERN_DICE {
                    return Err(RuleError::new(format!(
                        "A pattern can name at most {MAX_PATTERN_DICE} dice."
                    )));
                }
                if faces.iter().any(|f| !(1..=FACES).contains(f)) {
                    return Err(RuleError::new(
                        "Every face in a pattern must be from 1 to 10.",
                    ));
                }
            }
            Pattern::Run { length, start } => {
                if !(2..=FACES).contains(length) {
                    return Err(RuleError::new("A run must be 2 to 10 faces long."));
                }
                if let Some(s) = start {
                    if *s < 1 || s.saturating_add(*length - 1) > FACES {
                        return Err(RuleError::new(format!(
                            "A run of {length} starting at {s} would go past 10."
                        )));
                    }
                }
            }
        }
        Ok(())
    }

    /// How many dice the pattern uses.
    pub fn len(&self) -> usize {
        match self {
            Pattern::Exact { faces } => faces.len(),
            Pattern::Run { length, .. } => *length as usize,
        }
    }

    /// True for a pattern of no dice (never valid).
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }
}

impl fmt::Display for Pattern {
    /// "777", "10 10 9", "run of 3", "run of 3 from 7".
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Pattern::Exact { faces } => {
                if faces.contains(&10) {
                    let parts: Vec<String> = faces.iter().map(|x| x.to_string()).collect();
                    f.write_str(&parts.join(" "))
                } else {
                    faces.iter().try_for_each(|x| write!(f, "{x}"))
                }
            }
            Pattern::Run {
                length,
                start: None,
            } => write!(f, "run of {length}"),
            Pattern::Run {
                length,
                start: Some(s),
            } => write!(f, "run of {length} from {s}"),
        }
    }
}

/// Which of a set's dice must come from the cache (VV-6 "cache cost").
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize, Default)]
#[serde(rename_all = "snake_case")]
pub enum CacheCost {
    /// No cache die needed (default).
    #[default]
    None,
    /// At least one die of the set from the cache.
    One,
    /// Every die of the set from the cache.
    All,
}

/// A die offered to [`pick`]: its position, face and whether it came from the cache.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Candidate {
    /// The die's position in the register.
    pub index: usize,
    /// Its current face.
    pub face: u32,
    /// True if it was added from the cache.
    pub from_cache: bool,
}

/// Chooses dice for the given faces (a multiset), honouring a cache cost.
///
/// Rolled dice are preferred over cache dice (unused cache dice go back to
/// the cache), except where the cost needs cache dice. Returns the chosen
/// positions in the order of `faces`, or `None` if the dice are not there.
pub fn pick(candidates: &[Candidate], faces: &[u32], cost: CacheCost) -> Option<Vec<usize>> {
    let pool: Vec<Candidate> = match cost {
        CacheCost::All => candidates
            .iter()
            .copied()
            .filter(|c| c.from_cache)
            .collect(),
        _ => candidates.to_vec(),
    };
    // Which face (if any) gets a forced cache die for CacheCost::One.
    let forced: Option<u32> = match cost {
        CacheCost::One => {
            let face = faces
                .iter()
                .copied()
                .find(|&f| pool.iter().any(|c| c.from_cache && c.face == f))?;
            Some(face)
        }
        _ => None,
    };
    let mut taken = vec![false; pool.len()];
    let mut out = Vec::with_capacity(faces.len());
    let mut forced_done = forced.is_none();
    for &f in faces {
        let want_cache_first = !forced_done && Some(f) == forced;
        let choice = pool
            .iter()
            .enumerate()
            .filter(|(i, c)| !taken[*i] && c.face == f)
            .min_by_key(|(i, c)| (c.from_cache != want_cache_first, *i))
            .map(|(i, _)| i)?;
        if want_cache_first {
            forced_done = true;
        }
        taken[choice] = true;
        out.push(pool[choice].index);
    }
    Some(out)
}

/// Finds dice matching a Special-action pattern (VV-6), honouring a cache
/// cost. A run with no fixed start takes the highest run available.
pub fn match_pattern(
    candidates: &[Candidate],
    pattern: &Pattern,
    cost: CacheCost,
) -> Option<Vec<usize>> {
    match pattern {
        Pattern::Exact { faces } => pick(candidates, faces, cost),
        Pattern::Run { length, start } => {
            let length = (*length).clamp(1, FACES);
            let starts: Vec<u32> = match start {
                Some(s) => vec![*s],
                None => (1..=FACES + 1 - length).rev().collect(),
            };
            starts.into_iter().find_map(|s| {
                let faces: Vec<u32> = (s..s.saturating_add(length)).collect();
                if faces.iter().any(|f| !(1..=FACES).contains(f)) {
                    return None;
                }
                pick(candidates, &faces, cost)
            })
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn requirements_take_the_right_article() {
        let d = |w| {
            SetRequirement {
                min_width: w,
                min_height: None,
            }
            .describe()
        };
        assert_eq!(d(2), "a dub or better");
        assert_eq!(d(8), "an 8-wide set or better");
        assert_eq!(d(11), "an 11-wide set or better");
        assert_eq!(d(12), "a 12-wide set or better");
        assert_eq!(d(18), "an 18-wide set or better");
    }

    #[test]
    fn vv_2_sets_are_listed_widest_then_highest_with_loose_dice() {
        let r = read(&[7, 3, 7, 10, 3, 7, 10, 1, 9]);
        assert_eq!(
            r.sets,
            vec![
                Set {
                    width: 3,
                    height: 7
                },
                Set {
                    width: 2,
                    height: 10
                },
                Set {
                    width: 2,
                    height: 3
                },
            ]
        );
        assert_eq!(r.loose, vec![9, 1]);
        assert_eq!(r.to_string(), "3×7 (37), 2×10 (30), 2×3 (23); loose 9 1");
        assert_eq!(r.widest(), 3);
    }

    #[test]
    fn vv_3_success_needs_a_dub_or_the_required_width() {
        let r = read(&[4, 4, 9, 1]);
        assert!(r.succeeds(&SetRequirement::default()));
        assert!(!r.succeeds(&SetRequirement::width(3)));
        assert!(!read(&[1, 2, 3, 4]).succeeds(&SetRequirement::default()));
        // width(1) still means a dub: a loose die is never a success.
        assert_eq!(SetRequirement::width(1).min_width, 2);
        assert!(read(&[5, 5, 5]).succeeds(&SetRequirement::width(3)));
        assert_eq!(SetRequirement::width(3).describe(), "a trip or better");
    }

    #[test]
    fn a_o3_min_height_is_optional_and_validated() {
        let r = read(&[4, 4, 9]);
        let req = SetRequirement {
            min_width: 2,
            min_height: Some(5),
        };
        assert!(!r.succeeds(&req));
        assert!(read(&[6, 6, 1]).succeeds(&req));
        assert_eq!(req.describe(), "a dub or better, height 5+");
        assert!(SetRequirement {
            min_width: 2,
            min_height: Some(11)
        }
        .validate()
        .is_err());
        assert!(SetRequirement {
            min_width: 1,
            min_height: None
        }
        .validate()
        .is_err());
        assert!(SetRequirement::default().validate().is_ok());
    }

    #[test]
    fn vv_4_a_o4_value_is_ten_times_width_plus_height() {
        let trip7 = Set {
            width: 3,
            height: 7,
        };
        assert_eq!(trip7.value(), 37);
        assert_eq!(trip7.to_string(), "3×7 (37)");
        let dub10 = Set {
            width: 2,
            height: 10,
        };
        let trip1 = Set {
            width: 3,
            height: 1,
        };
        assert_eq!(dub10.value(), 30);
        assert_eq!(trip1.value(), 31);
        assert!(dub10 < trip1, "a pair of 10s is beaten by a trip of 1s");
        assert_eq!(roll_value(&[10, 10, 9]), 30);
        assert_eq!(roll_value(&[1, 1, 1, 10, 10]), 31);
    }

    #[test]
    fn a_o5_no_set_is_worth_ten_plus_highest_face() {
        assert_eq!(roll_value(&[3, 9, 1]), 19);
        assert_eq!(roll_value(&[10]), 20);
        assert_eq!(roll_value(&[]), 0);
        // Any dub (at least 21) beats any loose die (at most 20).
        assert!(roll_value(&[1, 1]) > roll_value(&[10, 9, 8]));
        assert_eq!(
            read(&[3, 9, 1]).best_group(),
            Some(Set {
                width: 1,
                height: 9
            })
        );
    }

    #[test]
    fn vv_5_a_o6_face_modifiers_clamp_or_wrap() {
        assert_eq!(modify_face(9, 3, FaceBounds::Clamp), 10);
        assert_eq!(modify_face(2, -5, FaceBounds::Clamp), 1);
        assert_eq!(modify_face(9, 3, FaceBounds::Wrap), 2);
        assert_eq!(modify_face(2, -5, FaceBounds::Wrap), 7);
        assert_eq!(modify_face(10, 0, FaceBounds::Wrap), 10);
        assert_eq!(modify_face(1, -1, FaceBounds::Wrap), 10);
        assert_eq!(modify_face(5, i32::MAX, FaceBounds::Clamp), 10);
        assert_eq!(modify_face(5, i32::MIN, FaceBounds::Clamp), 1);
        let w = modify_face(5, i32::MIN, FaceBounds::Wrap);
        assert!((1..=10).contains(&w));
        // A modifier can make a set: 6 + 1 = 7 matches the other 7.
        let faces = [7, modify_face(6, 1, FaceBounds::Clamp)];
        assert!(read(&faces).succeeds(&SetRequirement::default()));
    }

    fn cands(faces: &[(u32, bool)]) -> Vec<Candidate> {
        faces
            .iter()
            .enumerate()
            .map(|(index, &(face, from_cache))| Candidate {
                index,
                face,
                from_cache,
            })
            .collect()
    }

    #[test]
    fn vv_6_special_patterns_match_exact_faces_and_runs() {
        let c = cands(&[
            (7, false),
            (8, false),
            (7, false),
            (9, false),
            (7, true),
            (3, false),
        ]);
        let p = Pattern::parse("777").unwrap();
        assert_eq!(match_pattern(&c, &p, CacheCost::None), Some(vec![0, 2, 4]));
        let p = Pattern::parse("789").unwrap();
        assert_eq!(match_pattern(&c, &p, CacheCost::None), Some(vec![0, 1, 3]));
        // A run with no start takes the highest one.
        let p = Pattern::parse("run 3").unwrap();
        assert_eq!(match_pattern(&c, &p, CacheCost::None), Some(vec![0, 1, 3]));
        let p = Pattern::parse("run 2 from 2").unwrap();
        assert_eq!(match_pattern(&c, &p, CacheCost::None), None);
        let p = Pattern::parse("7777").unwrap();
        assert_eq!(match_pattern(&c, &p, CacheCost::None), None);
        // Cache costs: one die from the cache, or all of them.
        let p = Pattern::parse("77").unwrap();
        assert_eq!(match_pattern(&c, &p, CacheCost::None), Some(vec![0, 2]));
        assert_eq!(match_pattern(&c, &p, CacheCost::One), Some(vec![4, 0]));
        assert_eq!(match_pattern(&c, &p, CacheCost::All), None);
        let p = Pattern::parse("7").unwrap();
        assert_eq!(match_pattern(&c, &p, CacheCost::All), Some(vec![4]));
    }

    #[test]
    fn vv_6_patterns_parse_and_reject_nonsense() {
        assert_eq!(
            Pattern::parse("10,10,9").unwrap(),
            Pattern::Exact {
                faces: vec![10, 10, 9]
            }
        );
        assert_eq!(
            Pattern::parse("900").unwrap(),
            Pattern::Exact {
                faces: vec![9, 10, 10]
            }
        );
        assert_eq!(Pattern::parse("10 10 9").unwrap().to_string(), "10 10 9");
        assert_eq!(Pattern::parse("789").unwrap().to_string(), "789");
        assert_eq!(
            Pattern::parse("run 3 from 7").unwrap().to_string(),
            "run of 3 from 7"
        );
        for bad in [
            "",
            "7a7",
            "11,2",
            "run",
            "run x",
            "run 1",
            "run 3 from 9",
            "run 3 to 4",
        ] {
            assert!(Pattern::parse(bad).is_err(), "{bad:?} should be rejected");
        }
        assert!(Pattern::parse(&"7".repeat(31)).is_err());
    }
}
