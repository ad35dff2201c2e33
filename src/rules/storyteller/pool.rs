//! Building a Storyteller roll (spec §4.2): the pool from at most two traits
//! (ST-1), unskilled abilities (ST-2, A-S4), the difficulty (ST-3, A-S2),
//! thresholds and advanced specialties (ST-5, ST-8), specialties in use
//! (ST-7, A-S8), the wound penalty (A-S7) and zero-dice pools (A-S1).
//!
//! Every parameter is fixed here, before any die is rolled (ST-3: "the
//! difficulty never changes after the dice are rolled"). The result is a
//! [`RollSpec`], which [`super::roll::roll`] resolves and
//! [`super::odds::spec_odds`] prices.

use serde::{Deserialize, Serialize};

use super::settings::{StorytellerSettings, ZeroPool};
use super::sheet::{clean_name, name_key, Category, StorytellerSheet, TraitCatalog, TraitKind};
use crate::rules::error::ensure;
use crate::rules::RuleError;

/// The largest pool the core ever rolls, whatever the guild's `max_dice_per_roll`.
pub const HARD_MAX_POOL: u32 = 100;
/// The largest threshold a storyteller may set (before ST-8 additions).
pub const MAX_THRESHOLD: u32 = 30;
/// The largest dice or difficulty modifier, either way.
pub const MAX_MODIFIER: i32 = 10;
/// The most advanced specialties one action may require (ST-8).
pub const MAX_ADVANCED_REQUIRED: usize = 5;
/// The most specialties an ad-hoc roll may use (an ability has at most 5 dots).
pub const MAX_SPECIALTIES_IN_USE: u32 = 5;
/// The difficulty of the active-rest willpower roll (ST-14).
pub const REST_DIFFICULTY: u32 = 8;

/// What kind of roll a spec describes.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum RollKind {
    /// An action: traits from a sheet (ST-1).
    Action,
    /// A willpower roll: current willpower alone (ST-10).
    Willpower,
    /// The active-rest willpower roll at difficulty 8 (ST-14).
    Rest,
    /// A roll of a given number of dice, with no sheet (NPCs on the fly).
    AdHoc,
}

/// A trait that went into the pool.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct TraitUse {
    /// The trait's canonical name.
    pub name: String,
    /// Attribute or ability category.
    pub kind: TraitKind,
    /// Its dots on the sheet.
    pub dots: u8,
}

/// A rule that changed or explained the roll's parameters (spec §1.3: every
/// special rule that fired is shown).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "note", rename_all = "snake_case")]
pub enum PoolNote {
    /// No difficulty was given, so the guild default was used (ST-3, A-S5).
    DefaultDifficulty {
        /// The default used.
        difficulty: u32,
    },
    /// A talent at 0 dots: the attribute alone, no penalty (ST-2).
    UntrainedTalent {
        /// The talent.
        ability: String,
    },
    /// A skill at 0 dots: the attribute alone at difficulty +1 (ST-2).
    UnskilledSkill {
        /// The skill.
        ability: String,
    },
    /// A knowledge at 0 dots, allowed by the storyteller: difficulty +penalty (ST-2, A-S4).
    FigureItOut {
        /// The knowledge.
        ability: String,
        /// The extra difficulty (`st_unskilled_knowledge_penalty`).
        penalty: u32,
    },
    /// The wound penalty was applied (A-S7).
    WoundPenalty {
        /// Dice removed.
        dice: u8,
        /// Difficulty added.
        difficulty: u8,
    },
    /// The wound penalty was ignored thanks to spent willpower (ST-12).
    WoundPenaltyIgnored {
        /// Dice not removed.
        dice: u8,
        /// Difficulty not added.
        difficulty: u8,
    },
    /// A storyteller modifier (A-S7).
    Modifier {
        /// Dice added (negative: removed).
        dice: i32,
        /// Difficulty added (negative: lowered).
        difficulty: i32,
    },
    /// Modifiers took the pool below zero; it is zero.
    PoolFloored {
        /// The pool before flooring.
        from: i64,
    },
    /// The difficulty fell below 2 and was raised to 2 (A-S2).
    DifficultyRaised {
        /// The difficulty before raising.
        from: i64,
    },
    /// The difficulty went past 10 and was capped at 10 (A-S2, setting on).
    DifficultyCapped {
        /// The difficulty before capping.
        from: i64,
    },
    /// The difficulty is past 10: no success is possible, 1s still botch (A-S2).
    SuccessImpossible {
        /// The difficulty.
        difficulty: u32,
    },
    /// A required advanced specialty is missing: +1 threshold (ST-8).
    AdvancedSpecialtyMissing {
        /// The specialty required.
        specialty: String,
    },
    /// A required advanced specialty is used: no extra threshold (ST-8).
    AdvancedSpecialtyUsed {
        /// The specialty.
        specialty: String,
        /// True when the bot added it to the specialties in use by itself.
        added_automatically: bool,
    },
    /// The pool is zero dice; the guild's `st_zero_pool` rule applies (A-S1).
    ZeroPool {
        /// The rule applied.
        rule: ZeroPool,
    },
    /// Specialties cannot add dice to a zero-dice pool's chance die (A-S1).
    SpecialtiesUnused,
    /// The pool is current willpower (ST-10).
    WillpowerPool {
        /// Current willpower.
        current: u8,
    },
}

/// Everything fixed before a roll: the pool, difficulty, threshold and
/// specialties, plus the notes explaining them.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct RollSpec {
    /// Action, willpower, rest or ad-hoc.
    pub kind: RollKind,
    /// The traits in the pool (empty for willpower, rest and ad-hoc rolls).
    pub traits: Vec<TraitUse>,
    /// The number of base dice, after modifiers (0 → the zero-pool rule).
    pub dice: u32,
    /// The effective difficulty: 2..=10, or above 10 when unclamped (success impossible).
    pub difficulty: u32,
    /// The effective threshold, ST-8 additions included.
    pub threshold: u32,
    /// The names of the specialties in use (ad-hoc rolls: empty).
    pub specialties: Vec<String>,
    /// How many specialties are in use (ST-7).
    pub specialties_in_use: u32,
    /// Bonus dice each 10 adds (0 with no specialties; A-S3 setting).
    pub bonus_dice_per_ten: u32,
    /// The zero-pool rule in force (A-S1).
    pub zero_pool: ZeroPool,
    /// True when this roll uses up the sheet's "ignore wounds" spend (ST-12).
    pub consumes_wound_ignore: bool,
    /// Every rule that fired while building, in order.
    pub notes: Vec<PoolNote>,
}

impl RollSpec {
    /// True unless the difficulty is past 10 (A-S2).
    pub fn success_possible(&self) -> bool {
        self.difficulty <= 10
    }

    /// True when the pool is zero dice and the guild rolls a chance die (A-S1).
    pub fn uses_chance_die(&self) -> bool {
        self.dice == 0 && self.zero_pool == ZeroPool::ChanceDie
    }

    /// True when the pool is zero dice and the guild fails it automatically (A-S1).
    pub fn is_auto_fail(&self) -> bool {
        self.dice == 0 && self.zero_pool == ZeroPool::AutoFail
    }
}

/// An action roll as the storyteller calls it.
#[derive(Debug, Clone, PartialEq, Eq, Default, Serialize, Deserialize)]
#[serde(default)]
pub struct RollRequest {
    /// One or two trait names (ST-1); aliases and unique prefixes work.
    pub traits: Vec<String>,
    /// The difficulty, 2..=10; `None` uses `st_default_difficulty`.
    pub difficulty: Option<u32>,
    /// The threshold, 0..=30 (ST-5).
    pub threshold: u32,
    /// Specialties of the pool's ability to use (ST-7), at most one per dot.
    pub specialties: Vec<String>,
    /// Advanced specialties the action requires (ST-8): each adds +1
    /// threshold unless the character uses it (it is used automatically
    /// when the character has it and the per-dot limit leaves room).
    pub advanced_required: Vec<String>,
    /// The storyteller allows "figuring out" a knowledge at 0 dots (A-S4).
    pub figure_it_out: bool,
    /// Extra dice (negative: fewer), −10..=10 (A-S7).
    pub dice_modifier: i32,
    /// Extra difficulty (negative: easier), −10..=10 (A-S7).
    pub difficulty_modifier: i32,
}

/// A willpower roll as the storyteller calls it (ST-10, A-S5, A-S6).
#[derive(Debug, Clone, PartialEq, Eq, Default, Serialize, Deserialize)]
#[serde(default)]
pub struct WillpowerRequest {
    /// The difficulty, 2..=10; `None` uses `st_default_difficulty`.
    pub difficulty: Option<u32>,
    /// The threshold, 0..=30 (A-S6: thresholds apply to willpower rolls).
    pub threshold: u32,
    /// Extra dice (negative: fewer), −10..=10.
    pub dice_modifier: i32,
    /// Extra difficulty (negative: easier), −10..=10.
    pub difficulty_modifier: i32,
}

/// A roll of a given number of dice with no sheet (an NPC on the fly).
#[derive(Debug, Clone, PartialEq, Eq, Default, Serialize, Deserialize)]
#[serde(default)]
pub struct AdHocRequest {
    /// Dice to roll (0 → the zero-pool rule).
    pub dice: u32,
    /// The difficulty, 2..=10; `None` uses `st_default_difficulty`.
    pub difficulty: Option<u32>,
    /// The threshold, 0..=30.
    pub threshold: u32,
    /// Specialties in use, 0..=5.
    pub specialties: u32,
}

fn check_threshold(t: u32) -> Result<(), RuleError> {
    ensure(t <= MAX_THRESHOLD, || {
        format!("The threshold must be between 0 and {MAX_THRESHOLD}.")
    })
}

fn check_modifier(m: i32, what: &str) -> Result<(), RuleError> {
    ensure((-MAX_MODIFIER..=MAX_MODIFIER).contains(&m), || {
        format!("A {what} modifier must be between -{MAX_MODIFIER} and +{MAX_MODIFIER}.")
    })
}

/// The starting difficulty: the given one (2..=10) or the guild default.
fn base_difficulty(
    given: Option<u32>,
    settings: &StorytellerSettings,
    notes: &mut Vec<PoolNote>,
) -> Result<i64, RuleError> {
    match given {
        Some(d) => {
            ensure((2..=10).contains(&d), || {
                "The difficulty must be between 2 and 10.".to_string()
            })?;
            Ok(i64::from(d))
        }
        None => {
            let d = settings.default_difficulty();
            notes.push(PoolNote::DefaultDifficulty { difficulty: d });
            Ok(i64::from(d))
        }
    }
}

/// Applies A-S2 to a raw difficulty.
fn final_difficulty(raw: i64, settings: &StorytellerSettings, notes: &mut Vec<PoolNote>) -> u32 {
    if raw < 2 {
        notes.push(PoolNote::DifficultyRaised { from: raw });
        2
    } else if raw > 10 {
        if settings.st_clamp_difficulty_high {
            notes.push(PoolNote::DifficultyCapped { from: raw });
            10
        } else {
            let d = u32::try_from(raw.min(99)).unwrap_or(99);
            notes.push(PoolNote::SuccessImpossible { difficulty: d });
            d
        }
    } else {
        u32::try_from(raw).unwrap_or(10)
    }
}

/// The final pool size: floored at 0, refused above the cap.
fn final_dice(raw: i64, max_dice: u32, notes: &mut Vec<PoolNote>) -> Result<u32, RuleError> {
    let limit = max_dice.min(HARD_MAX_POOL);
    if raw < 0 {
        notes.push(PoolNote::PoolFloored { from: raw });
        return Ok(0);
    }
    ensure(raw <= i64::from(limit), || {
        format!("That roll needs {raw} dice; this server allows at most {limit}.")
    })?;
    Ok(u32::try_from(raw).unwrap_or(0))
}

struct Parts {
    kind: RollKind,
    traits: Vec<TraitUse>,
    dice: i64,
    difficulty: i64,
    threshold: u32,
    specialties: Vec<String>,
    specialties_in_use: u32,
    consumes_wound_ignore: bool,
    notes: Vec<PoolNote>,
}

fn finish(
    mut p: Parts,
    settings: &StorytellerSettings,
    max_dice: u32,
) -> Result<RollSpec, RuleError> {
    let dice = final_dice(p.dice, max_dice, &mut p.notes)?;
    let difficulty = final_difficulty(p.difficulty, settings, &mut p.notes);
    let mut bonus = settings
        .st_bonus_dice_per_ten
        .dice_per_ten(p.specialties_in_use);
    if dice == 0 {
        p.notes.push(PoolNote::ZeroPool {
            rule: settings.st_zero_pool,
        });
        if p.specialties_in_use > 0 {
            p.notes.push(PoolNote::SpecialtiesUnused);
        }
        bonus = 0;
    }
    Ok(RollSpec {
        kind: p.kind,
        traits: p.traits,
        dice,
        difficulty,
        threshold: p.threshold,
        specialties: p.specialties,
        specialties_in_use: p.specialties_in_use,
        bonus_dice_per_ten: bonus,
        zero_pool: settings.st_zero_pool,
        consumes_wound_ignore: p.consumes_wound_ignore,
        notes: p.notes,
    })
}

fn ensure_can_act(sheet: &StorytellerSheet) -> Result<(), RuleError> {
    ensure(!sheet.incapacitated(), || {
        "The character is incapacitated (0 willpower) and cannot act.".to_string()
    })
}

/// Builds an action roll from a sheet (ST-1, ST-2, ST-3, ST-5, ST-7, ST-8,
/// A-S1, A-S2, A-S4, A-S7, A-S8). Does not change the sheet: the session
/// that rolls it consumes the ST-12 "ignore wounds" spend.
///
/// `max_dice` is the guild's `max_dice_per_roll` (never more than
/// [`HARD_MAX_POOL`]).
pub fn build_action(
    sheet: &StorytellerSheet,
    catalog: &TraitCatalog,
    req: &RollRequest,
    settings: &StorytellerSettings,
    max_dice: u32,
) -> Result<RollSpec, RuleError> {
    ensure_can_act(sheet)?;
    check_action_request(req)?;
    let mut notes = Vec::new();
    let traits = pool_traits(sheet, catalog, req, settings)?;
    let ability = traits
        .iter()
        .find(|t| t.kind != TraitKind::Attribute)
        .cloned();
    let mut difficulty = base_difficulty(req.difficulty, settings, &mut notes)?;
    if let Some(ab) = ability.as_ref().filter(|a| a.dots == 0) {
        difficulty += untrained(ab, req, settings, &mut notes)?;
    }
    let used = specialties_used(sheet, ability.as_ref(), req, &mut notes)?;
    let mut dice: i64 = traits.iter().map(|t| i64::from(t.dots)).sum();
    let ignoring = wounds_and_modifiers(sheet, req, &mut dice, &mut difficulty, &mut notes);
    finish(
        Parts {
            kind: RollKind::Action,
            traits,
            dice,
            difficulty,
            threshold: req.threshold + used.threshold_added,
            specialties_in_use: used.names.len() as u32,
            specialties: used.names,
            consumes_wound_ignore: ignoring,
            notes,
        },
        settings,
        max_dice,
    )
}

/// Refuses an action request whose counts are out of bounds: no trait or
/// more than two, a threshold or modifier out of range, too many
/// specialties in use or advanced specialties required.
fn check_action_request(req: &RollRequest) -> Result<(), RuleError> {
    ensure(!req.traits.is_empty(), || {
        "Name the traits to roll: usually an attribute and an ability.".to_string()
    })?;
    ensure(req.traits.len() <= 2, || {
        "A pool never uses more than two traits.".to_string()
    })?;
    check_threshold(req.threshold)?;
    check_modifier(req.dice_modifier, "dice")?;
    check_modifier(req.difficulty_modifier, "difficulty")?;
    ensure(
        req.specialties.len() <= MAX_SPECIALTIES_IN_USE as usize,
        || format!("At most {MAX_SPECIALTIES_IN_USE} specialties can be used on one roll."),
    )?;
    ensure(req.advanced_required.len() <= MAX_ADVANCED_REQUIRED, || {
        format!("An action can require at most {MAX_ADVANCED_REQUIRED} advanced specialties.")
    })
}

/// The traits of an action's pool, looked up on the sheet (ST-1): an
/// attribute plus an ability, or one or two attributes; an ability alone
/// only by the storyteller's house rule; never willpower (ST-10) unless
/// the table made a trait of that name.
fn pool_traits(
    sheet: &StorytellerSheet,
    catalog: &TraitCatalog,
    req: &RollRequest,
    settings: &StorytellerSettings,
) -> Result<Vec<TraitUse>, RuleError> {
    let mut traits: Vec<TraitUse> = Vec::new();
    for name in &req.traits {
        ensure(
            name_key(name) != "willpower" || sheet.lookup(catalog, name).is_ok(),
            || {
                "Willpower is not a trait for `/st roll`: use `/st willpower` for a willpower roll (current willpower alone, ST-10).".to_string()
            },
        )?;
        let (t, dots) = sheet.lookup(catalog, name)?;
        ensure(!traits.iter().any(|u| u.name == t.name), || {
            format!("{} is named twice; name two different traits.", t.name)
        })?;
        traits.push(TraitUse {
            name: t.name,
            kind: t.kind,
            dots,
        });
    }
    let abilities = traits
        .iter()
        .filter(|t| t.kind != TraitKind::Attribute)
        .count();
    ensure(abilities <= 1, || {
        "A pool holds at most one ability: an attribute plus an ability, or one or two attributes."
            .to_string()
    })?;
    if let [alone] = traits.as_slice() {
        ensure(
            alone.kind == TraitKind::Attribute || settings.st_ability_alone,
            || {
                format!(
                    "{} is an ability: roll it with an attribute, as in `Wits + {}`. A pool is an attribute plus an ability, or one or two attributes; the storyteller can allow abilities alone (house rule `st_ability_alone`).",
                    alone.name, alone.name
                )
            },
        )?;
    }
    Ok(traits)
}

/// ST-2: what an ability at 0 dots costs, as difficulty added (noted): an
/// untrained talent nothing, an unskilled skill +1, a knowledge only when
/// the storyteller allows figuring it out, at the house rule's penalty.
fn untrained(
    ab: &TraitUse,
    req: &RollRequest,
    settings: &StorytellerSettings,
    notes: &mut Vec<PoolNote>,
) -> Result<i64, RuleError> {
    let ability = ab.name.clone();
    match ab.kind.category() {
        Some(Category::Talent) | None => {
            notes.push(PoolNote::UntrainedTalent { ability });
            Ok(0)
        }
        Some(Category::Skill) => {
            notes.push(PoolNote::UnskilledSkill { ability });
            Ok(1)
        }
        Some(Category::Knowledge) => {
            ensure(req.figure_it_out, || {
                format!(
                    "{} is a knowledge with no dots, so it cannot be attempted unless the storyteller allows figuring it out.",
                    ab.name
                )
            })?;
            let penalty = settings.knowledge_penalty();
            notes.push(PoolNote::FigureItOut { ability, penalty });
            Ok(i64::from(penalty))
        }
    }
}

/// The specialties an action uses and what missing ones cost.
struct SpecialtiesUsed {
    /// The specialties in use, as the sheet names them.
    names: Vec<String>,
    /// Added to the threshold for each required advanced specialty the
    /// character lacks (A-S8).
    threshold_added: u32,
}

/// ST-7 / ST-8 / A-S8: the specialties named (each the pool's ability's,
/// once) and the advanced ones the action requires (used when the
/// character has them and a dot to spare, else +1 threshold each); never
/// more in use than the ability's dots.
fn specialties_used(
    sheet: &StorytellerSheet,
    ability: Option<&TraitUse>,
    req: &RollRequest,
    notes: &mut Vec<PoolNote>,
) -> Result<SpecialtiesUsed, RuleError> {
    let mut threshold_added = 0;
    let mut in_use: Vec<String> = Vec::new();
    let sheet_ability = ability.and_then(|a| sheet.ability(&a.name));
    if !req.specialties.is_empty() {
        let ab_name = ability
            .map(|a| a.name.clone())
            .ok_or_else(|| RuleError::new("Specialties need an ability in the pool."))?;
        let ab = sheet_ability.ok_or_else(|| {
            RuleError::new(format!(
                "{ab_name} has no specialty called {}.",
                req.specialties[0].trim()
            ))
        })?;
        for s in &req.specialties {
            let found = ab.specialty(s).ok_or_else(|| {
                RuleError::new(format!("{} has no specialty called {}.", ab.name, s.trim()))
            })?;
            ensure(!in_use.contains(&found.name), || {
                format!("{} is listed twice.", found.name)
            })?;
            in_use.push(found.name.clone());
        }
    }
    let dots = ability.map_or(0, |a| u32::from(a.dots));
    for req_name in &req.advanced_required {
        let wanted = clean_name(req_name, true)?;
        let has = sheet_ability.and_then(|ab| ab.specialty(&wanted));
        match has {
            Some(s) if in_use.iter().any(|u| name_key(u) == name_key(&s.name)) => {
                notes.push(PoolNote::AdvancedSpecialtyUsed {
                    specialty: s.name.clone(),
                    added_automatically: false,
                });
            }
            Some(s) if (in_use.len() as u32) < dots => {
                in_use.push(s.name.clone());
                notes.push(PoolNote::AdvancedSpecialtyUsed {
                    specialty: s.name.clone(),
                    added_automatically: true,
                });
            }
            _ => {
                threshold_added += 1;
                notes.push(PoolNote::AdvancedSpecialtyMissing { specialty: wanted });
            }
        }
    }
    ensure(in_use.len() as u32 <= dots, || match ability {
        Some(a) => format!(
            "With {} dots in {} you can use at most {} specialties on one roll.",
            a.dots, a.name, a.dots
        ),
        None => "Specialties need an ability in the pool.".to_string(),
    })?;
    Ok(SpecialtiesUsed {
        names: in_use,
        threshold_added,
    })
}

/// A-S7 / ST-12: the wound penalty (unless the character spent willpower
/// to ignore it for this action: then only noted) and the request's
/// modifiers, applied to `dice` and `difficulty`; whether the ignore-wounds
/// spend is consumed.
fn wounds_and_modifiers(
    sheet: &StorytellerSheet,
    req: &RollRequest,
    dice: &mut i64,
    difficulty: &mut i64,
    notes: &mut Vec<PoolNote>,
) -> bool {
    let wp = sheet.wound_penalty();
    let ignoring = sheet.ignores_wounds_next_action();
    if !wp.is_none() {
        if ignoring {
            notes.push(PoolNote::WoundPenaltyIgnored {
                dice: wp.dice,
                difficulty: wp.difficulty,
            });
        } else {
            *dice -= i64::from(wp.dice);
            *difficulty += i64::from(wp.difficulty);
            notes.push(PoolNote::WoundPenalty {
                dice: wp.dice,
                difficulty: wp.difficulty,
            });
        }
    }
    if req.dice_modifier != 0 || req.difficulty_modifier != 0 {
        *dice += i64::from(req.dice_modifier);
        *difficulty += i64::from(req.difficulty_modifier);
        notes.push(PoolNote::Modifier {
            dice: req.dice_modifier,
            difficulty: req.difficulty_modifier,
        });
    }
    ignoring
}

/// Builds a willpower roll (ST-10): current willpower alone, no traits and no
/// specialties; the storyteller's difficulty or the guild default (A-S5); a
/// threshold is allowed (A-S6). The wound penalty does not apply (it is a
/// penalty on actions, and willpower is what resists wounds).
pub fn build_willpower(
    sheet: &StorytellerSheet,
    req: &WillpowerRequest,
    settings: &StorytellerSettings,
    max_dice: u32,
) -> Result<RollSpec, RuleError> {
    build_willpower_kind(sheet, req, settings, max_dice, RollKind::Willpower)
}

/// Builds the active-rest roll (ST-14): a difficulty-8 willpower roll.
pub fn build_rest(
    sheet: &StorytellerSheet,
    settings: &StorytellerSettings,
    max_dice: u32,
) -> Result<RollSpec, RuleError> {
    let req = WillpowerRequest {
        difficulty: Some(REST_DIFFICULTY),
        ..WillpowerRequest::default()
    };
    build_willpower_kind(sheet, &req, settings, max_dice, RollKind::Rest)
}

fn build_willpower_kind(
    sheet: &StorytellerSheet,
    req: &WillpowerRequest,
    settings: &StorytellerSettings,
    max_dice: u32,
    kind: RollKind,
) -> Result<RollSpec, RuleError> {
    ensure_can_act(sheet)?;
    let current = sheet.willpower().current;
    ensure(current > 0, || {
        "With 0 willpower there is nothing to roll.".to_string()
    })?;
    check_threshold(req.threshold)?;
    check_modifier(req.dice_modifier, "dice")?;
    check_modifier(req.difficulty_modifier, "difficulty")?;
    let mut notes = vec![PoolNote::WillpowerPool { current }];
    let mut difficulty = base_difficulty(req.difficulty, settings, &mut notes)?;
    let mut dice = i64::from(current);
    if req.dice_modifier != 0 || req.difficulty_modifier != 0 {
        dice += i64::from(req.dice_modifier);
        difficulty += i64::from(req.difficulty_modifier);
        notes.push(PoolNote::Modifier {
            dice: req.dice_modifier,
            difficulty: req.difficulty_modifier,
        });
    }
    finish(
        Parts {
            kind,
            traits: Vec::new(),
            dice,
            difficulty,
            threshold: req.threshold,
            specialties: Vec::new(),
            specialties_in_use: 0,
            consumes_wound_ignore: false,
            notes,
        },
        settings,
        max_dice,
    )
}

/// Builds a roll of a given number of dice with no sheet (NPCs on the fly).
pub fn build_ad_hoc(
    req: &AdHocRequest,
    settings: &StorytellerSettings,
    max_dice: u32,
) -> Result<RollSpec, RuleError> {
    check_threshold(req.threshold)?;
    ensure(req.specialties <= MAX_SPECIALTIES_IN_USE, || {
        format!("At most {MAX_SPECIALTIES_IN_USE} specialties can be used on one roll.")
    })?;
    let mut notes = Vec::new();
    let difficulty = base_difficulty(req.difficulty, settings, &mut notes)?;
    finish(
        Parts {
            kind: RollKind::AdHoc,
            traits: Vec::new(),
            dice: i64::from(req.dice),
            difficulty,
            threshold: req.threshold,
            specialties: Vec::new(),
            specialties_in_use: req.specialties,
            consumes_wound_ignore: false,
            notes,
        },
        settings,
        max_dice,
    )
}
