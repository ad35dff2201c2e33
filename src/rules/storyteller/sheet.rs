//! The Storyteller character sheet (spec §4.1) and trait-name lookup (A-S12).
//!
//! A sheet holds attributes (0..5 dots), abilities (0..5 dots, with a
//! Talent / Skill / Knowledge category and any number of General or Advanced
//! specialties), willpower (permanent 1..10, current 0..permanent), the free
//! wound-penalty modifier (A-S7) and the per-turn willpower flags (ST-12).
//! Names are looked up case-insensitively through a [`TraitCatalog`]: the
//! canonical lists, the built-in aliases (Brawling→Melee, Drive→Driving,
//! Artistry→Crafting, and three-letter attribute abbreviations such as
//! "str"→Strength), the guild's custom traits and aliases, and unique prefixes.

use serde::{Deserialize, Serialize};
use std::fmt;

use crate::rules::entries::Entry;
use crate::rules::error::ensure;
use crate::rules::RuleError;

/// The most dots an attribute or ability can have.
pub const MAX_DOTS: u8 = 5;
/// The highest permanent willpower (ST-10).
pub const MAX_WILLPOWER: u8 = 10;
/// The most specialties one ability may hold (a sanity limit; the source sets none).
pub const MAX_SPECIALTIES_PER_ABILITY: usize = 20;
/// The most custom traits one sheet may add on its own.
pub const MAX_SHEET_CUSTOM_TRAITS: usize = 20;
/// The longest trait or specialty name, in characters.
pub const MAX_NAME_CHARS: usize = 40;
/// The largest wound penalty in dice (A-S7).
pub const MAX_WOUND_DICE: u8 = 10;
/// The largest wound penalty in difficulty (A-S7).
pub const MAX_WOUND_DIFFICULTY: u8 = 8;

/// The six canonical attributes: Physical (Strength, Precision, Reflexes),
/// then Mental (Perception, Intelligence, Wits).
pub const ATTRIBUTES: [&str; 6] = [
    "Strength",
    "Precision",
    "Reflexes",
    "Perception",
    "Intelligence",
    "Wits",
];

/// The canonical talents (§4.1).
pub const TALENTS: [&str; 6] = [
    "Alertness",
    "Athletics",
    "Firearms",
    "Melee",
    "Stealth",
    "Streetwise",
];

/// The canonical skills (§4.1).
pub const SKILLS: [&str; 8] = [
    "Driving",
    "Crafting",
    "Heavy Weapons",
    "Investigation",
    "Piloting",
    "Remote Weapons",
    "Survival",
    "Tradecraft",
];

/// The canonical knowledges (§4.1).
pub const KNOWLEDGES: [&str; 8] = [
    "Academics",
    "Computer Systems",
    "Engineering",
    "Law",
    "Linguistics",
    "Manufacturing",
    "Medicine",
    "Science",
];

/// Built-in aliases (A-S12 and the usual abbreviations), alias → canonical name.
pub const BUILTIN_ALIASES: [(&str, &str); 9] = [
    ("Brawling", "Melee"),
    ("Drive", "Driving"),
    ("Artistry", "Crafting"),
    ("Str", "Strength"),
    ("Pre", "Precision"),
    ("Ref", "Reflexes"),
    ("Per", "Perception"),
    ("Int", "Intelligence"),
    ("Wit", "Wits"),
];

/// The source's suggested specialties per ability: (ability, general, advanced).
/// The lists are not exhaustive; players may name others.
pub const SUGGESTED_SPECIALTIES: [(&str, &[&str], &[&str]); 19] = [
    (
        "Alertness",
        &["Terrain", "Followers", "Ambushes"],
        &["Night Vision", "Vacuum"],
    ),
    (
        "Athletics",
        &["Run", "Jump", "Dodge", "Thrown Weapons"],
        &[
            "Grenades",
            "Power Armor",
            "Zero-G",
            "Acrobatics",
            "Parkour",
            "Specific Exotic Thrown Weapon",
        ],
    ),
    (
        "Firearms",
        &[
            "Pistols",
            "Shotguns",
            "PDWs",
            "Battle Rifles",
            "Sniper Rifles",
        ],
        &[
            "Power Armor",
            "Energy Weapons",
            "Extreme Range",
            "Advanced Maintenance",
        ],
    ),
    (
        "Melee",
        &[
            "Clubs",
            "Grapple",
            "Shields",
            "Spears",
            "Unarmed",
            "Specific Martial Art",
        ],
        &[
            "Power Armor",
            "Energy Weapons",
            "Swords",
            "Specific Exotic Melee Weapon",
        ],
    ),
    (
        "Stealth",
        &["Terrain", "Armored", "Unarmored"],
        &["Power Armor"],
    ),
    (
        "Streetwise",
        &[
            "Colonies",
            "Outposts",
            "Research Stations",
            "Industrial Stations",
            "Docks",
            "Shipyards",
        ],
        &["Black Markets", "Criminal Networks", "Megacities"],
    ),
    (
        "Driving",
        &["Gravitic Vehicles", "Cars", "Trucks", "Buses"],
        &["Motorcycles", "Transport Trucks"],
    ),
    (
        "Crafting",
        &["Sketching", "Painting", "Sculpting", "Photography"],
        &["Document Forgery", "Art Forgery", "Metalwork"],
    ),
    (
        "Heavy Weapons",
        &["Grenade Launchers", "Missile Launchers"],
        &[
            "Power Armor",
            "Mortars",
            "Artillery",
            "Advanced Maintenance",
        ],
    ),
    (
        "Investigation",
        &[
            "Computer Records",
            "Forensics",
            "Crime Scenes",
            "Surveillance",
        ],
        &["Missing Persons", "Undercover"],
    ),
    (
        "Piloting",
        &["Space Flight", "Shuttles", "Frigates", "Cruisers"],
        &[
            "Atmospheric Flight",
            "Close Quarters",
            "Fighters",
            "Freighters",
            "Power Armor",
        ],
    ),
    (
        "Remote Weapons",
        &["PDCs", "Missiles", "Torpedoes", "Rail Guns"],
        &[
            "Defensive Fire",
            "Power Armor",
            "Mining Equipment",
            "Advanced Maintenance",
        ],
    ),
    (
        "Survival",
        &["Terrain", "Space Stations", "Spacecraft"],
        &[
            "Vacuum",
            "Non-Breathable Atmosphere",
            "Extreme Temperatures",
            "Radiation",
        ],
    ),
    (
        "Tradecraft",
        &[
            "Weapon Concealment",
            "Dead Drops",
            "Traps",
            "Surveillance Devices",
        ],
        &["Lockpick", "Pickpocket", "Alarms"],
    ),
    (
        "Computer Systems",
        &[
            "Programming",
            "Security",
            "Navigation Systems",
            "Targeting Systems",
            "Reactor Control",
        ],
        &[
            "Artificial Intelligence",
            "Quantum Computing",
            "Data Recovery",
        ],
    ),
    (
        "Engineering",
        &[
            "Spacecraft",
            "Aircraft",
            "Stations",
            "Ground Vehicles",
            "Life Support",
            "Electrical",
            "Mining Equipment",
        ],
        &[
            "Jury Rigging",
            "Power Armor",
            "Weapon Systems",
            "Reactors",
            "Gravitics",
        ],
    ),
    (
        "Manufacturing",
        &[
            "Autofabrication",
            "Manual Machining",
            "Metals",
            "Plastics",
            "Ceramics",
        ],
        &[
            "Mechanical Design",
            "Explosives",
            "Composite Materials",
            "Textiles",
        ],
    ),
    (
        "Medicine",
        &["First Aid", "Wound Management", "Poisons", "Radiation"],
        &["Surgery", "Battlefield Medicine", "Zero-G", "Prosthetic"],
    ),
    (
        "Science",
        &["Physics", "Chemistry", "Biology", "Psychology", "Astronomy"],
        &["Quantum Theory", "Gravitics", "Jump Technology"],
    ),
];

/// An ability's category, which decides what 0 dots means (ST-2).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Category {
    /// Comes naturally: 0 dots carry no penalty.
    Talent,
    /// Learned by practice: 0 dots give difficulty +1.
    Skill,
    /// Learned by study: 0 dots forbid the roll unless the storyteller allows
    /// "figuring it out" (A-S4).
    Knowledge,
}

impl Category {
    /// The category's name, capitalised.
    pub fn name(self) -> &'static str {
        match self {
            Category::Talent => "Talent",
            Category::Skill => "Skill",
            Category::Knowledge => "Knowledge",
        }
    }
}

impl fmt::Display for Category {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// What a trait name refers to: an attribute, or an ability of a category.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum TraitKind {
    /// An attribute.
    Attribute,
    /// A talent (ability).
    Talent,
    /// A skill (ability).
    Skill,
    /// A knowledge (ability).
    Knowledge,
}

impl TraitKind {
    /// The ability category, or `None` for an attribute.
    pub fn category(self) -> Option<Category> {
        match self {
            TraitKind::Attribute => None,
            TraitKind::Talent => Some(Category::Talent),
            TraitKind::Skill => Some(Category::Skill),
            TraitKind::Knowledge => Some(Category::Knowledge),
        }
    }

    /// The kind for an ability category.
    pub fn from_category(category: Category) -> Self {
        match category {
            Category::Talent => TraitKind::Talent,
            Category::Skill => TraitKind::Skill,
            Category::Knowledge => TraitKind::Knowledge,
        }
    }

    /// The lower-case name used in settings values: attribute, talent, skill, knowledge.
    pub fn key(self) -> &'static str {
        match self {
            TraitKind::Attribute => "attribute",
            TraitKind::Talent => "talent",
            TraitKind::Skill => "skill",
            TraitKind::Knowledge => "knowledge",
        }
    }

    /// Parses attribute / talent / skill / knowledge (any case).
    pub fn parse(s: &str) -> Result<Self, RuleError> {
        match s.trim().to_ascii_lowercase().as_str() {
            "attribute" => Ok(TraitKind::Attribute),
            "talent" => Ok(TraitKind::Talent),
            "skill" => Ok(TraitKind::Skill),
            "knowledge" => Ok(TraitKind::Knowledge),
            other => Err(RuleError::new(format!(
                "`{other}` is not a kind of trait: use attribute, talent, skill or knowledge."
            ))),
        }
    }
}

/// A specialty's type (§4.1): General, or Advanced (ST-8).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum SpecialtyType {
    /// A general specialty.
    General,
    /// An advanced specialty: actions that require it get +1 threshold without it.
    Advanced,
}

impl SpecialtyType {
    /// The type a yes/no "advanced?" answer names.
    pub fn advanced_if(advanced: bool) -> Self {
        if advanced {
            SpecialtyType::Advanced
        } else {
            SpecialtyType::General
        }
    }

    /// The lower-case name, as stored: general, advanced.
    pub fn key(self) -> &'static str {
        match self {
            SpecialtyType::General => "general",
            SpecialtyType::Advanced => "advanced",
        }
    }
}

/// One trait of a list as [`StorytellerSheet::set_traits`] set it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TraitSetting {
    /// The trait's name (canonical spelling).
    pub name: String,
    /// Its dots before the list.
    pub before: u8,
    /// Its dots now.
    pub dots: u8,
}

/// One specialty of an ability.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Specialty {
    /// The specialty's name, as the player wrote it.
    pub name: String,
    /// General or Advanced.
    #[serde(rename = "type")]
    pub kind: SpecialtyType,
}

/// An attribute on a sheet.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct AttributeEntry {
    /// The attribute's name (canonical spelling).
    pub name: String,
    /// Dots, 0..=5.
    pub dots: u8,
}

/// An ability on a sheet.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Ability {
    /// The ability's name (canonical spelling).
    pub name: String,
    /// Dots, 0..=5.
    pub dots: u8,
    /// Talent, Skill or Knowledge.
    pub category: Category,
    /// The specialties bought (only possible with at least one dot, A-S8).
    #[serde(default)]
    pub specialties: Vec<Specialty>,
}

impl Ability {
    /// Finds one of this ability's specialties by name, case-insensitively.
    pub fn specialty(&self, name: &str) -> Option<&Specialty> {
        let key = name_key(name);
        self.specialties.iter().find(|s| name_key(&s.name) == key)
    }
}

/// Willpower (ST-10): permanent 1..=10, current 0..=permanent.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct Willpower {
    /// The permanent rating, 1..=10.
    pub permanent: u8,
    /// The current dots, 0..=permanent; rolled and spent.
    pub current: u8,
}

/// The free wound-penalty modifier (A-S7): −dice and +difficulty on actions.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize)]
pub struct WoundPenalty {
    /// Dice removed from action pools, 0..=10.
    pub dice: u8,
    /// Difficulty added to actions, 0..=8.
    pub difficulty: u8,
}

impl WoundPenalty {
    /// True when the penalty changes nothing.
    pub fn is_none(&self) -> bool {
        self.dice == 0 && self.difficulty == 0
    }
}

/// A guild-wide custom trait (A-S12), kept in the settings.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct CustomTrait {
    /// The trait's name.
    pub name: String,
    /// Attribute, or the ability's category.
    pub kind: TraitKind,
}

/// A guild-wide alias (A-S12): `alias` means the trait `target`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct TraitAlias {
    /// The alternative name.
    pub alias: String,
    /// The trait it stands for (canonical or custom).
    pub target: String,
}

/// A name resolved to a trait.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct ResolvedTrait {
    /// The trait's canonical spelling.
    pub name: String,
    /// What it is.
    pub kind: TraitKind,
}

/// The lookup key of a name: lower-case letters and digits only, so
/// "Heavy Weapons", "heavy-weapons" and "HEAVYWEAPONS" are the same name.
pub fn name_key(name: &str) -> String {
    name.chars()
        .filter(|c| c.is_alphanumeric())
        .flat_map(char::to_lowercase)
        .collect()
}

/// Checks and tidies a trait or specialty name: trimmed, inner spaces
/// collapsed, 1..=40 characters, at least one letter or digit, and none of
/// the characters that separate settings lists (`,` `:` `=` `;`) unless
/// `allow_commas` (specialty names such as "Terrain (Urban, Forest)").
pub fn clean_name(raw: &str, allow_commas: bool) -> Result<String, RuleError> {
    let name = raw.split_whitespace().collect::<Vec<_>>().join(" ");
    ensure(!name_key(&name).is_empty(), || {
        "A name needs at least one letter or digit.".to_string()
    })?;
    ensure(name.chars().count() <= MAX_NAME_CHARS, || {
        format!("Names can be at most {MAX_NAME_CHARS} characters long.")
    })?;
    let forbidden: &[char] = if allow_commas {
        &[':', '=', ';']
    } else {
        &[',', ':', '=', ';']
    };
    ensure(!name.contains(forbidden), || {
        format!("`{name}` contains a character that names cannot use (, : = ;).")
    })?;
    ensure(!name.chars().any(char::is_control), || {
        "Names cannot contain control characters.".to_string()
    })?;
    Ok(name)
}

/// The canonical kind of a canonical trait name (exact key match), if any.
pub fn canonical_kind(name: &str) -> Option<ResolvedTrait> {
    let key = name_key(name);
    let lists: [(&[&str], TraitKind); 4] = [
        (&ATTRIBUTES, TraitKind::Attribute),
        (&TALENTS, TraitKind::Talent),
        (&SKILLS, TraitKind::Skill),
        (&KNOWLEDGES, TraitKind::Knowledge),
    ];
    lists.iter().find_map(|(list, kind)| {
        list.iter()
            .find(|n| name_key(n) == key)
            .map(|n| ResolvedTrait {
                name: (*n).to_string(),
                kind: *kind,
            })
    })
}

/// The suggested specialty type for `specialty` under `ability`, when the
/// source lists it (Advanced wins where a name is listed as both).
pub fn suggested_specialty_type(ability: &str, specialty: &str) -> Option<SpecialtyType> {
    let a = name_key(ability);
    let s = name_key(specialty);
    let (_, general, advanced) = SUGGESTED_SPECIALTIES
        .iter()
        .find(|(name, _, _)| name_key(name) == a)?;
    if advanced.iter().any(|n| name_key(n) == s) {
        Some(SpecialtyType::Advanced)
    } else if general.iter().any(|n| name_key(n) == s) {
        Some(SpecialtyType::General)
    } else {
        None
    }
}

/// Every trait name the bot knows in a guild, with aliases (A-S12).
///
/// Build it with [`TraitCatalog::canonical`] or from the settings
/// ([`crate::rules::storyteller::StorytellerSettings::catalog`]).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct TraitCatalog {
    traits: Vec<ResolvedTrait>,
    aliases: Vec<TraitAlias>,
}

impl Default for TraitCatalog {
    fn default() -> Self {
        Self::canonical()
    }
}

impl TraitCatalog {
    /// The canonical traits of §4.1 and the built-in aliases.
    pub fn canonical() -> Self {
        let mut traits = Vec::new();
        let lists: [(&[&str], TraitKind); 4] = [
            (&ATTRIBUTES, TraitKind::Attribute),
            (&TALENTS, TraitKind::Talent),
            (&SKILLS, TraitKind::Skill),
            (&KNOWLEDGES, TraitKind::Knowledge),
        ];
        for (list, kind) in lists {
            for name in list {
                traits.push(ResolvedTrait {
                    name: (*name).to_string(),
                    kind,
                });
            }
        }
        let aliases = BUILTIN_ALIASES
            .iter()
            .map(|(a, t)| TraitAlias {
                alias: (*a).to_string(),
                target: (*t).to_string(),
            })
            .collect();
        Self { traits, aliases }
    }

    /// The canonical catalog plus a guild's custom traits and aliases.
    /// Fails if a custom name clashes with another trait or alias, or an alias
    /// points at nothing.
    pub fn with_custom(custom: &[CustomTrait], aliases: &[TraitAlias]) -> Result<Self, RuleError> {
        let mut cat = Self::canonical();
        for c in custom {
            cat.add_trait(&c.name, c.kind)?;
        }
        for a in aliases {
            cat.add_alias(&a.alias, &a.target)?;
        }
        Ok(cat)
    }

    /// Adds a custom trait. Fails on a name clash.
    pub fn add_trait(&mut self, name: &str, kind: TraitKind) -> Result<(), RuleError> {
        let name = clean_name(name, false)?;
        ensure(!self.knows_exactly(&name), || {
            format!("`{name}` is already a trait or an alias.")
        })?;
        self.traits.push(ResolvedTrait { name, kind });
        Ok(())
    }

    /// Adds an alias for an existing trait. Fails on a clash or an unknown target.
    pub fn add_alias(&mut self, alias: &str, target: &str) -> Result<(), RuleError> {
        let alias = clean_name(alias, false)?;
        ensure(!self.knows_exactly(&alias), || {
            format!("`{alias}` is already a trait or an alias.")
        })?;
        let key = name_key(target);
        let target = self
            .traits
            .iter()
            .find(|t| name_key(&t.name) == key)
            .ok_or_else(|| {
                RuleError::new(format!(
                    "An alias must point at a trait, and `{}` is not one.",
                    target.trim()
                ))
            })?
            .name
            .clone();
        self.aliases.push(TraitAlias { alias, target });
        Ok(())
    }

    /// Every trait, canonical ones first.
    pub fn traits(&self) -> &[ResolvedTrait] {
        &self.traits
    }

    /// Every alias, built-in ones first.
    pub fn aliases(&self) -> &[TraitAlias] {
        &self.aliases
    }

    /// True when `name` is exactly (by key) a trait or an alias.
    pub fn knows_exactly(&self, name: &str) -> bool {
        let key = name_key(name);
        self.traits.iter().any(|t| name_key(&t.name) == key)
            || self.aliases.iter().any(|a| name_key(&a.alias) == key)
    }

    /// Resolves a name, case-insensitively: an exact name, then an alias, then
    /// a unique prefix of at least three letters ("alert" → Alertness).
    pub fn resolve(&self, input: &str) -> Result<ResolvedTrait, RuleError> {
        self.resolve_with(input, &[])
    }

    /// As [`TraitCatalog::resolve`], also searching `extra` (a sheet's own custom traits).
    pub fn resolve_with(
        &self,
        input: &str,
        extra: &[ResolvedTrait],
    ) -> Result<ResolvedTrait, RuleError> {
        let key = name_key(input);
        let shown = input.trim();
        ensure(!key.is_empty(), || "Name a trait.".to_string())?;
        let all = || self.traits.iter().chain(extra.iter());
        if let Some(t) = all().find(|t| name_key(&t.name) == key) {
            return Ok(t.clone());
        }
        if let Some(a) = self.aliases.iter().find(|a| name_key(&a.alias) == key) {
            let target = name_key(&a.target);
            if let Some(t) = all().find(|t| name_key(&t.name) == target) {
                return Ok(t.clone());
            }
        }
        if key.chars().count() >= 3 {
            let mut hits: Vec<&ResolvedTrait> = Vec::new();
            for t in all().filter(|t| name_key(&t.name).starts_with(&key)) {
                if !hits.iter().any(|h| name_key(&h.name) == name_key(&t.name)) {
                    hits.push(t);
                }
            }
            match hits.len() {
                1 => return Ok(hits[0].clone()),
                0 => {}
                _ => {
                    let names: Vec<&str> = hits.iter().map(|t| t.name.as_str()).collect();
                    return Err(RuleError::new(format!(
                        "`{shown}` could mean {}; say which.",
                        names.join(" or ")
                    )));
                }
            }
        }
        Err(RuleError::new(format!(
            "There is no trait called `{shown}`."
        )))
    }
}

/// A Storyteller character sheet (§4.1).
///
/// Fields are private so every change goes through a validating method; read
/// them with the accessors. After deserialising stored JSON, call
/// [`StorytellerSheet::validate`].
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct StorytellerSheet {
    attributes: Vec<AttributeEntry>,
    abilities: Vec<Ability>,
    willpower: Willpower,
    #[serde(default)]
    wp_wound_ignore_used_this_turn: bool,
    #[serde(default)]
    ignore_wounds_next_action: bool,
    #[serde(default)]
    incapacitation_deferred: bool,
    #[serde(default)]
    wound_penalty: WoundPenalty,
    #[serde(default)]
    custom_traits: Vec<ResolvedTrait>,
}

impl StorytellerSheet {
    /// A new sheet: the six attributes at 1 dot (the source: "all characters
    /// have at least one dot in all attributes"), every canonical ability at
    /// 0 dots, willpower `permanent`/`permanent`, no wound penalty.
    pub fn new(willpower_permanent: u8) -> Result<Self, RuleError> {
        check_willpower_permanent(willpower_permanent)?;
        let attributes = ATTRIBUTES
            .iter()
            .map(|n| AttributeEntry {
                name: (*n).to_string(),
                dots: 1,
            })
            .collect();
        let mut abilities = Vec::new();
        let lists: [(&[&str], Category); 3] = [
            (&TALENTS, Category::Talent),
            (&SKILLS, Category::Skill),
            (&KNOWLEDGES, Category::Knowledge),
        ];
        for (list, category) in lists {
            for n in list {
                abilities.push(Ability {
                    name: (*n).to_string(),
                    dots: 0,
                    category,
                    specialties: Vec::new(),
                });
            }
        }
        Ok(Self {
            attributes,
            abilities,
            willpower: Willpower {
                permanent: willpower_permanent,
                current: willpower_permanent,
            },
            wp_wound_ignore_used_this_turn: false,
            ignore_wounds_next_action: false,
            incapacitation_deferred: false,
            wound_penalty: WoundPenalty::default(),
            custom_traits: Vec::new(),
        })
    }

    /// Checks every invariant (use after deserialising stored JSON, or an
    /// imported sheet): the same checks as the sheet commands, each error
    /// naming its field ([`RuleError::field`], e.g. `abilities[3].dots`).
    pub fn validate(&self) -> Result<(), RuleError> {
        check_willpower_permanent(self.willpower.permanent)
            .map_err(|e| e.at("willpower.permanent"))?;
        ensure(self.willpower.current <= self.willpower.permanent, || {
            "Current willpower cannot exceed permanent willpower.".to_string()
        })
        .map_err(|e| e.at("willpower.current"))?;
        for (i, a) in self.attributes.iter().enumerate() {
            clean_name(&a.name, false).map_err(|e| e.at(format!("attributes[{i}].name")))?;
            check_dots(&a.name, a.dots).map_err(|e| e.at(format!("attributes[{i}].dots")))?;
        }
        for (i, a) in self.abilities.iter().enumerate() {
            let at = |field: &str| format!("abilities[{i}].{field}");
            clean_name(&a.name, false).map_err(|e| e.at(at("name")))?;
            check_dots(&a.name, a.dots).map_err(|e| e.at(at("dots")))?;
            ensure(a.specialties.len() <= MAX_SPECIALTIES_PER_ABILITY, || {
                format!(
                    "{} has too many specialties ({}; at most {MAX_SPECIALTIES_PER_ABILITY}).",
                    a.name,
                    a.specialties.len()
                )
            })
            .map_err(|e| e.at(at("specialties")))?;
            for (j, sp) in a.specialties.iter().enumerate() {
                clean_name(&sp.name, true)
                    .map_err(|e| e.at(at(&format!("specialties[{j}].name"))))?;
            }
        }
        ensure(self.custom_traits.len() <= MAX_SHEET_CUSTOM_TRAITS, || {
            format!("This sheet has too many custom traits (at most {MAX_SHEET_CUSTOM_TRAITS}).")
        })
        .map_err(|e| e.at("custom_traits"))?;
        for (i, t) in self.custom_traits.iter().enumerate() {
            clean_name(&t.name, false).map_err(|e| e.at(format!("custom_traits[{i}].name")))?;
        }
        ensure(self.wound_penalty.dice <= MAX_WOUND_DICE, || {
            format!("A wound penalty can remove at most {MAX_WOUND_DICE} dice.")
        })
        .map_err(|e| e.at("wound_penalty.dice"))?;
        ensure(
            self.wound_penalty.difficulty <= MAX_WOUND_DIFFICULTY,
            || format!("A wound penalty can add at most {MAX_WOUND_DIFFICULTY} to the difficulty."),
        )
        .map_err(|e| e.at("wound_penalty.difficulty"))
    }

    /// The attributes, canonical ones first.
    pub fn attributes(&self) -> &[AttributeEntry] {
        &self.attributes
    }

    /// The abilities: talents, skills, knowledges, then custom ones.
    pub fn abilities(&self) -> &[Ability] {
        &self.abilities
    }

    /// Willpower, permanent and current.
    pub fn willpower(&self) -> Willpower {
        self.willpower
    }

    /// The wound-penalty field (A-S7).
    pub fn wound_penalty(&self) -> WoundPenalty {
        self.wound_penalty
    }

    /// True once willpower was spent this turn to ignore wounds (ST-12).
    pub fn wp_wound_ignore_used_this_turn(&self) -> bool {
        self.wp_wound_ignore_used_this_turn
    }

    /// True when the next action will ignore the wound penalty (ST-12).
    pub fn ignores_wounds_next_action(&self) -> bool {
        self.ignore_wounds_next_action
    }

    /// True when willpower is 0 but incapacitation waits until the next
    /// action is done (ST-12: the last dot spent to ignore wounds).
    pub fn incapacitation_deferred(&self) -> bool {
        self.incapacitation_deferred
    }

    /// Incapacitated (ST-13): current willpower 0, unless the ST-12 deferral
    /// still lets the character finish one action.
    pub fn incapacitated(&self) -> bool {
        self.willpower.current == 0 && !self.incapacitation_deferred
    }

    /// This sheet's own custom traits (beyond the guild catalog).
    pub fn custom_traits(&self) -> &[ResolvedTrait] {
        &self.custom_traits
    }

    /// An attribute by exact name (case-insensitive).
    pub fn attribute(&self, name: &str) -> Option<&AttributeEntry> {
        let key = name_key(name);
        self.attributes.iter().find(|a| name_key(&a.name) == key)
    }

    /// An ability by exact name (case-insensitive).
    pub fn ability(&self, name: &str) -> Option<&Ability> {
        let key = name_key(name);
        self.abilities.iter().find(|a| name_key(&a.name) == key)
    }

    /// Resolves a trait name against the catalog and this sheet's own custom
    /// traits, and returns it with this sheet's dots (0 when the sheet does
    /// not list it yet).
    pub fn lookup(
        &self,
        catalog: &TraitCatalog,
        name: &str,
    ) -> Result<(ResolvedTrait, u8), RuleError> {
        let t = catalog
            .resolve_with(name, &self.custom_traits)
            .map_err(|e| {
                // An unknown name (not an ambiguous one) gets the nearest
                // names on this sheet.
                // Far from every name, it lists this sheet's traits (closest
                // first, capped) and the command that adds one of its own.
                let near = self.nearest_names(name, 3);
                if !e.message.starts_with("There is no trait") {
                    e
                } else if !near.is_empty() {
                    RuleError::new(format!("{} Did you mean {}?", e.message, or_list(&near)))
                } else {
                    let have = crate::rules::names::closest_first(
                        name,
                        self.attributes
                            .iter()
                            .map(|a| a.name.as_str())
                            .chain(self.abilities.iter().map(|a| a.name.as_str())),
                    );
                    RuleError::new(format!(
                        "{} This sheet's traits, closest first: {have}; add one of its own with `/st sheet set trait:… kind:…`.",
                        e.message
                    ))
                }
            })?;
        let dots = match t.kind {
            TraitKind::Attribute => self.attribute(&t.name).map_or(0, |a| a.dots),
            _ => self.ability(&t.name).map_or(0, |a| a.dots),
        };
        Ok((t, dots))
    }

    /// Up to `n` trait names on this sheet nearest to `input` (edit distance
    /// on the name keys, then sheet order), for "did you mean" hints. A name
    /// more than half its length away is not suggested.
    pub fn nearest_names(&self, input: &str, n: usize) -> Vec<String> {
        let key: String = name_key(input).chars().take(MAX_HINT_KEY).collect();
        if key.is_empty() {
            return Vec::new();
        }
        let mut scored: Vec<(usize, usize, &str)> = self
            .attributes
            .iter()
            .map(|a| a.name.as_str())
            .chain(self.abilities.iter().map(|a| a.name.as_str()))
            .enumerate()
            .filter_map(|(i, name)| {
                let other = name_key(name);
                let d = crate::rules::names::edit_distance(&key, &other);
                let limit = (other.chars().count().max(key.chars().count()) / 2).max(1);
                (d <= limit).then_some((d, i, name))
            })
            .collect();
        scored.sort_unstable();
        let mut out: Vec<String> = Vec::new();
        for (_, _, name) in scored {
            if out.len() < n && !out.iter().any(|o| o == name) {
                out.push(name.to_string());
            }
        }
        out
    }

    /// Adds a trait to this sheet only (an NPC's odd ability, say).
    /// Fails if the name is already a trait or alias.
    pub fn add_custom_trait(
        &mut self,
        catalog: &TraitCatalog,
        name: &str,
        kind: TraitKind,
    ) -> Result<ResolvedTrait, RuleError> {
        let name = clean_name(name, false)?;
        let key = name_key(&name);
        ensure(
            !catalog.knows_exactly(&name)
                && !self.custom_traits.iter().any(|t| name_key(&t.name) == key),
            || format!("`{name}` is already a trait or an alias."),
        )?;
        ensure(self.custom_traits.len() < MAX_SHEET_CUSTOM_TRAITS, || {
            format!("A sheet can have at most {MAX_SHEET_CUSTOM_TRAITS} custom traits.")
        })?;
        let t = ResolvedTrait { name, kind };
        self.custom_traits.push(t.clone());
        self.insert_entry(&t, 0);
        Ok(t)
    }

    /// Sets a trait's dots (0..=5), adding it to the sheet if needed.
    /// Returns the resolved trait.
    pub fn set_trait(
        &mut self,
        catalog: &TraitCatalog,
        name: &str,
        dots: u8,
    ) -> Result<ResolvedTrait, RuleError> {
        let t = catalog.resolve_with(name, &self.custom_traits)?;
        check_dots(&t.name, dots)?;
        self.insert_entry(&t, dots);
        Ok(t)
    }

    /// Sets every trait of a list typed in one line (issue 31), each
    /// resolved by [`StorytellerSheet::lookup`] (whose refusal names the
    /// nearest traits) and checked as [`StorytellerSheet::set_trait`] checks
    /// one, none named twice: what was set, in order, or why each refused
    /// entry was refused (the sheet is then to be dropped).
    pub fn set_traits(
        &mut self,
        catalog: &TraitCatalog,
        list: &[Entry],
    ) -> Result<Vec<TraitSetting>, Vec<String>> {
        let (mut set, mut seen, mut bad) = (Vec::new(), Vec::new(), Vec::new());
        for e in list {
            let checked = self.lookup(catalog, &e.name).and_then(|(t, before)| {
                ensure(!seen.contains(&t.name), || {
                    format!("{} is already in the list.", t.name)
                })?;
                seen.push(t.name.clone());
                let dots = u8::try_from(e.value).unwrap_or(u8::MAX);
                self.set_trait(catalog, &t.name, dots)?;
                Ok(TraitSetting {
                    name: t.name,
                    before,
                    dots,
                })
            });
            match checked {
                Ok(s) => set.push(s),
                Err(err) => bad.push(format!("`{}`: {}", e.text(), err.message)),
            }
        }
        if bad.is_empty() {
            Ok(set)
        } else {
            Err(bad)
        }
    }

    fn insert_entry(&mut self, t: &ResolvedTrait, dots: u8) {
        let key = name_key(&t.name);
        match t.kind.category() {
            None => match self
                .attributes
                .iter_mut()
                .find(|a| name_key(&a.name) == key)
            {
                Some(a) => a.dots = dots,
                None => self.attributes.push(AttributeEntry {
                    name: t.name.clone(),
                    dots,
                }),
            },
            Some(category) => match self.abilities.iter_mut().find(|a| name_key(&a.name) == key) {
                Some(a) => a.dots = dots,
                None => self.abilities.push(Ability {
                    name: t.name.clone(),
                    dots,
                    category,
                    specialties: Vec::new(),
                }),
            },
        }
    }

    /// Adds a specialty to an ability. Needs at least one dot in the ability
    /// (A-S8). `kind` defaults to the source's suggestion for that name, else
    /// General. There is no limit on how many are bought (up to 20 for sanity);
    /// the per-roll limit is one per dot (ST-7).
    pub fn add_specialty(
        &mut self,
        catalog: &TraitCatalog,
        ability: &str,
        name: &str,
        kind: Option<SpecialtyType>,
    ) -> Result<Specialty, RuleError> {
        let t = catalog.resolve_with(ability, &self.custom_traits)?;
        ensure(t.kind != TraitKind::Attribute, || {
            format!(
                "{} is an attribute; only abilities have specialties.",
                t.name
            )
        })?;
        let name = clean_name(name, true)?;
        let key = name_key(&t.name);
        let idx = self
            .abilities
            .iter()
            .position(|a| name_key(&a.name) == key && a.dots > 0)
            .ok_or_else(|| {
                RuleError::new(format!(
                    "You need at least one dot in {} before taking a specialty in it.",
                    t.name
                ))
            })?;
        let ab = &self.abilities[idx];
        ensure(ab.specialty(&name).is_none(), || {
            format!("{} already has the specialty {name}.", ab.name)
        })?;
        ensure(ab.specialties.len() < MAX_SPECIALTIES_PER_ABILITY, || {
            format!(
                "{} already has {MAX_SPECIALTIES_PER_ABILITY} specialties, the most the bot keeps.",
                ab.name
            )
        })?;
        let kind = kind
            .or_else(|| suggested_specialty_type(&t.name, &name))
            .unwrap_or(SpecialtyType::General);
        let s = Specialty { name, kind };
        self.abilities[idx].specialties.push(s.clone());
        Ok(s)
    }

    /// Removes a specialty from an ability.
    pub fn remove_specialty(
        &mut self,
        catalog: &TraitCatalog,
        ability: &str,
        name: &str,
    ) -> Result<Specialty, RuleError> {
        let t = catalog.resolve_with(ability, &self.custom_traits)?;
        let key = name_key(&t.name);
        let skey = name_key(name);
        let (ai, si) = self
            .abilities
            .iter()
            .enumerate()
            .filter(|(_, a)| name_key(&a.name) == key)
            .find_map(|(ai, a)| {
                a.specialties
                    .iter()
                    .position(|s| name_key(&s.name) == skey)
                    .map(|si| (ai, si))
            })
            .ok_or_else(|| {
                RuleError::new(format!(
                    "{} has no specialty called {}.",
                    t.name,
                    name.trim()
                ))
            })?;
        Ok(self.abilities[ai].specialties.remove(si))
    }

    /// Sets permanent willpower (1..=10); current is lowered to fit.
    pub fn set_willpower_permanent(&mut self, permanent: u8) -> Result<(), RuleError> {
        check_willpower_permanent(permanent)?;
        self.willpower.permanent = permanent;
        self.willpower.current = self.willpower.current.min(permanent);
        Ok(())
    }

    /// Sets current willpower (0..=permanent), a storyteller's correction.
    /// Clears any ST-12 deferral, so 0 means incapacitated at once.
    pub fn set_willpower_current(&mut self, current: u8) -> Result<(), RuleError> {
        ensure(current <= self.willpower.permanent, || {
            format!(
                "Current willpower must be between 0 and the permanent rating ({}).",
                self.willpower.permanent
            )
        })?;
        self.willpower.current = current;
        self.incapacitation_deferred = false;
        Ok(())
    }

    /// Sets the wound penalty (A-S7): dice 0..=10, difficulty 0..=8.
    pub fn set_wound_penalty(&mut self, dice: u8, difficulty: u8) -> Result<(), RuleError> {
        ensure(dice <= MAX_WOUND_DICE, || {
            format!("A wound penalty can remove at most {MAX_WOUND_DICE} dice.")
        })?;
        ensure(difficulty <= MAX_WOUND_DIFFICULTY, || {
            format!("A wound penalty can add at most {MAX_WOUND_DIFFICULTY} to the difficulty.")
        })?;
        self.wound_penalty = WoundPenalty { dice, difficulty };
        Ok(())
    }

    // ---- crate-internal mutation used by the willpower rules ----

    pub(crate) fn willpower_mut(&mut self) -> &mut Willpower {
        &mut self.willpower
    }

    pub(crate) fn set_wound_flags(&mut self, used_this_turn: bool, next_action: bool) {
        self.wp_wound_ignore_used_this_turn = used_this_turn;
        self.ignore_wounds_next_action = next_action;
    }

    pub(crate) fn set_incapacitation_deferred(&mut self, deferred: bool) {
        self.incapacitation_deferred = deferred;
    }
}

fn check_dots(name: &str, dots: u8) -> Result<(), RuleError> {
    ensure(dots <= MAX_DOTS, || {
        format!("{name} must be between 0 and {MAX_DOTS} dots.")
    })
}

fn check_willpower_permanent(permanent: u8) -> Result<(), RuleError> {
    ensure((1..=MAX_WILLPOWER).contains(&permanent), || {
        format!("Permanent willpower must be between 1 and {MAX_WILLPOWER}.")
    })
}

/// The longest name key "did you mean" hints compare (longer input is cut).
const MAX_HINT_KEY: usize = 40;

/// `A`, `A or B`, `A, B or C`.
fn or_list(names: &[String]) -> String {
    match names {
        [] => String::new(),
        [one] => one.clone(),
        [rest @ .., last] => format!("{} or {last}", rest.join(", ")),
    }
}

#[cfg(test)]
mod field_tests {
    use super::*;

    #[test]
    fn issue_31_a_list_of_traits_is_set_in_order_or_every_bad_entry_is_named() {
        let cat = TraitCatalog::canonical();
        let entry = |name: &str, value: u32| Entry {
            name: name.to_string(),
            value,
        };
        let mut s = StorytellerSheet::new(5).unwrap();
        let set = s
            .set_traits(&cat, &[entry("Wits", 3), entry("Alertness", 0)])
            .unwrap();
        let setting = |name: &str, before: u8, dots: u8| TraitSetting {
            name: name.to_string(),
            before,
            dots,
        };
        assert_eq!(set, [setting("Wits", 1, 3), setting("Alertness", 0, 0)]);
        assert_eq!(s.lookup(&cat, "Wits").unwrap().1, 3);
        // A trait named twice is refused even when its first entry was.
        let bad = s
            .set_traits(
                &cat,
                &[entry("Wits", 9), entry("wits", 2), entry("Alertness", 1)],
            )
            .unwrap_err();
        assert_eq!(bad.len(), 2, "{bad:?}");
        assert!(bad[0].starts_with("`Wits 9`: "), "{}", bad[0]);
        assert_eq!(bad[1], "`wits 2`: Wits is already in the list.");
    }

    #[test]
    fn a_specialty_type_from_the_advanced_answer_and_its_stored_name() {
        for (advanced, kind) in [
            (true, SpecialtyType::Advanced),
            (false, SpecialtyType::General),
        ] {
            assert_eq!(SpecialtyType::advanced_if(advanced), kind);
            let stored = serde_json::to_string(&kind).unwrap();
            assert_eq!(stored, format!("\"{}\"", kind.key()));
        }
    }

    #[test]
    fn validate_names_the_field_of_each_broken_check() {
        let good = StorytellerSheet::new(5).unwrap();
        assert!(good.validate().is_ok());
        let alert = good
            .abilities
            .iter()
            .position(|a| a.name == "Alertness")
            .unwrap();

        let mut s = good.clone();
        s.abilities[alert].dots = 7;
        let e = s.validate().unwrap_err();
        assert_eq!(
            e.field.as_deref(),
            Some(format!("abilities[{alert}].dots").as_str())
        );
        assert_eq!(e.message, "Alertness must be between 0 and 5 dots.");
        assert_eq!(
            e.to_string(),
            format!("abilities[{alert}].dots: Alertness must be between 0 and 5 dots.")
        );

        let mut s = good.clone();
        s.willpower.current = 6;
        assert_eq!(
            s.validate().unwrap_err().field.as_deref(),
            Some("willpower.current")
        );

        let mut s = good.clone();
        s.willpower.permanent = 11;
        s.willpower.current = 11;
        assert_eq!(
            s.validate().unwrap_err().field.as_deref(),
            Some("willpower.permanent")
        );

        let mut s = good.clone();
        s.abilities[alert].specialties = (0..=MAX_SPECIALTIES_PER_ABILITY)
            .map(|i| Specialty {
                name: format!("S{i}"),
                kind: SpecialtyType::General,
            })
            .collect();
        let field = format!("abilities[{alert}].specialties");
        assert_eq!(s.validate().unwrap_err().field, Some(field));

        let mut s = good.clone();
        s.abilities[alert].specialties = vec![Specialty {
            name: "x".repeat(MAX_NAME_CHARS + 1),
            kind: SpecialtyType::General,
        }];
        let field = format!("abilities[{alert}].specialties[0].name");
        assert_eq!(s.validate().unwrap_err().field, Some(field));

        let mut s = good.clone();
        s.attributes[2].name = "Wits: and more".into();
        assert_eq!(
            s.validate().unwrap_err().field.as_deref(),
            Some("attributes[2].name")
        );

        let mut s = good;
        s.wound_penalty.difficulty = MAX_WOUND_DIFFICULTY + 1;
        assert_eq!(
            s.validate().unwrap_err().field.as_deref(),
            Some("wound_penalty.difficulty")
        );
    }
}
