//! Tests for the Storyteller rules core: every ST-n rule and the A-S
//! ambiguities implemented, seeded rolls with exact faces, the §7 table,
//! exact-odds cross-checks, the §1.7 bonus-dice figures and a statistical
//! test of the real rolling code against the exact odds.

use rand::rngs::StdRng;
use rand::{RngCore, SeedableRng};

use super::odds::{
    bonus_dice_at_least, bonus_dice_distribution, roll_odds, roll_odds_per_ten, roll_odds_with,
    spec_odds, Outcome3,
};
use super::pool::{
    build_action, build_ad_hoc, build_rest, build_willpower, AdHocRequest, PoolNote, RollKind,
    RollRequest, RollSpec, WillpowerRequest,
};
use super::roll::{resolve, roll, DieMark, FaceCounts, Outcome, GENERATED_DICE_CAP};
use super::settings::{BonusDicePerTen, StorytellerSettings, ZeroPool};
use super::sheet::{Category, SpecialtyType, StorytellerSheet, TraitCatalog, TraitKind};
use super::willpower::{
    active_rest_rolls, can_spend_to_ignore_wounds, recover, recover_daily, recover_first_dot,
    revive, spend_to_ignore_wounds, start_turn, Action, ActionKind, Event, GainReason, Phase,
    RollSession, SpendPurpose,
};
use crate::rules::Actor;

const OWNER: Actor = Actor { id: 7, gm: false };
const OTHER: Actor = Actor { id: 8, gm: false };
const GM: Actor = Actor { id: 1, gm: true };
const MAX: u32 = 50;

fn rng(seed: u64) -> StdRng {
    StdRng::seed_from_u64(seed)
}

fn settings() -> StorytellerSettings {
    StorytellerSettings::default()
}

fn cat() -> TraitCatalog {
    TraitCatalog::canonical()
}

/// Strength 3, Precision 2, Reflexes 2, Perception 4, Intelligence 2, Wits 2;
/// Firearms 3 (Sniper Rifles, Pistols, Power Armor [advanced]); Medicine 2
/// (Surgery [advanced]); Melee, Driving, Engineering at 0; willpower 5/5.
fn sheet() -> StorytellerSheet {
    let c = cat();
    let mut s = StorytellerSheet::new(5).unwrap();
    for (t, d) in [
        ("Strength", 3),
        ("Precision", 2),
        ("Reflexes", 2),
        ("Perception", 4),
        ("Intelligence", 2),
        ("Wits", 2),
        ("Firearms", 3),
        ("Medicine", 2),
    ] {
        s.set_trait(&c, t, d).unwrap();
    }
    s.add_specialty(&c, "Firearms", "Sniper Rifles", None)
        .unwrap();
    s.add_specialty(&c, "Firearms", "Pistols", None).unwrap();
    s.add_specialty(&c, "Firearms", "Power Armor", None)
        .unwrap();
    s.add_specialty(&c, "Medicine", "Surgery", None).unwrap();
    s
}

fn req(traits: &[&str]) -> RollRequest {
    RollRequest {
        traits: traits.iter().map(|t| t.to_string()).collect(),
        ..RollRequest::default()
    }
}

fn ad_hoc(dice: u32, difficulty: u32, threshold: u32, specialties: u32) -> RollSpec {
    build_ad_hoc(
        &AdHocRequest {
            dice,
            difficulty: Some(difficulty),
            threshold,
            specialties,
        },
        &settings(),
        MAX,
    )
    .unwrap()
}

fn faces(v: &[u32]) -> Vec<u32> {
    v.to_vec()
}

/// An RNG whose every d10 shows 10.
struct AllTens;

impl RngCore for AllTens {
    fn next_u32(&mut self) -> u32 {
        u32::MAX
    }
    fn next_u64(&mut self) -> u64 {
        u64::MAX
    }
    fn fill_bytes(&mut self, dst: &mut [u8]) {
        dst.fill(0xff);
    }
}

// ---------------------------------------------------------------- §4.1 sheet

#[test]
fn sheet_new_has_canonical_traits_and_full_willpower() {
    let s = StorytellerSheet::new(6).unwrap();
    assert_eq!(s.attributes().len(), 6);
    assert!(s.attributes().iter().all(|a| a.dots == 1));
    assert_eq!(s.abilities().len(), 22);
    assert_eq!(
        s.ability("heavy weapons").unwrap().category,
        Category::Skill
    );
    assert_eq!(s.ability("Law").unwrap().category, Category::Knowledge);
    assert_eq!(s.ability("Streetwise").unwrap().category, Category::Talent);
    assert_eq!(s.willpower().permanent, 6);
    assert_eq!(s.willpower().current, 6);
    assert!(!s.incapacitated());
    assert!(StorytellerSheet::new(0).is_err());
    assert!(StorytellerSheet::new(11).is_err());
}

#[test]
fn sheet_dots_limits_and_willpower_invariants() {
    let c = cat();
    let mut s = sheet();
    let err = s.set_trait(&c, "Strength", 6).unwrap_err();
    assert_eq!(err.message, "Strength must be between 0 and 5 dots.");
    assert_eq!(
        s.attribute("strength").unwrap().dots,
        3,
        "unchanged on error"
    );
    s.set_trait(&c, "Strength", 0).unwrap();
    assert!(s.set_willpower_current(6).is_err());
    s.set_willpower_current(2).unwrap();
    s.set_willpower_permanent(1).unwrap();
    assert_eq!(s.willpower().current, 1, "current lowered to permanent");
    assert!(s.set_willpower_permanent(11).is_err());
    assert!(s.set_wound_penalty(11, 0).is_err());
    assert!(s.set_wound_penalty(0, 9).is_err());
    s.set_willpower_current(0).unwrap();
    assert!(
        s.incapacitated(),
        "incapacitated is derived from willpower 0"
    );
}

#[test]
fn sheet_validate_rejects_bad_stored_json() {
    let s = sheet();
    let json = serde_json::to_string(&s).unwrap();
    let back: StorytellerSheet = serde_json::from_str(&json).unwrap();
    assert_eq!(back, s);
    back.validate().unwrap();
    let bad = json.replace("\"current\":5", "\"current\":9");
    let bad: StorytellerSheet = serde_json::from_str(&bad).unwrap();
    assert!(bad.validate().is_err());
}

#[test]
fn sheet_specialties_types_and_duplicates() {
    let c = cat();
    let mut s = sheet();
    let fa = s.ability("Firearms").unwrap();
    assert_eq!(
        fa.specialty("power armor").unwrap().kind,
        SpecialtyType::Advanced,
        "the source lists Power Armor as advanced"
    );
    assert_eq!(
        fa.specialty("PISTOLS").unwrap().kind,
        SpecialtyType::General
    );
    let err = s
        .add_specialty(&c, "Firearms", "pistols", None)
        .unwrap_err();
    assert_eq!(err.message, "Firearms already has the specialty pistols.");
    let custom = s
        .add_specialty(&c, "Firearms", "Trick Shots", Some(SpecialtyType::Advanced))
        .unwrap();
    assert_eq!(custom.kind, SpecialtyType::Advanced);
    assert!(s.add_specialty(&c, "Strength", "Lifting", None).is_err());
    let removed = s.remove_specialty(&c, "firearms", "trick shots").unwrap();
    assert_eq!(removed.name, "Trick Shots");
    assert!(s.remove_specialty(&c, "firearms", "trick shots").is_err());
}

// ------------------------------------------------------- §4.2 building pools

#[test]
fn st_1_pool_is_attribute_plus_ability_dots() {
    let spec = build_action(
        &sheet(),
        &cat(),
        &req(&["Precision", "Firearms"]),
        &settings(),
        MAX,
    )
    .unwrap();
    assert_eq!(spec.kind, RollKind::Action);
    assert_eq!(spec.dice, 5);
    assert_eq!(spec.traits.len(), 2);
    assert_eq!(spec.traits[0].name, "Precision");
    assert_eq!(spec.traits[1].kind, TraitKind::Talent);
    assert_eq!(spec.difficulty, 6);
    assert_eq!(spec.threshold, 0);
}

#[test]
fn st_1_never_more_than_two_traits() {
    let s = sheet();
    let err = build_action(
        &s,
        &cat(),
        &req(&["Strength", "Wits", "Melee"]),
        &settings(),
        MAX,
    )
    .unwrap_err();
    assert_eq!(err.message, "A pool never uses more than two traits.");
    assert!(build_action(&s, &cat(), &req(&[]), &settings(), MAX).is_err());
}

#[test]
fn st_1_one_trait_alone_two_abilities_or_a_repeat_refused() {
    let s = sheet();
    let one = build_action(&s, &cat(), &req(&["Perception"]), &settings(), MAX).unwrap();
    assert_eq!(one.dice, 4);
    let err = build_action(
        &s,
        &cat(),
        &req(&["Firearms", "Medicine"]),
        &settings(),
        MAX,
    )
    .unwrap_err();
    assert!(err.message.starts_with("A pool holds at most one ability"));
    let err = build_action(&s, &cat(), &req(&["Wits", "wit"]), &settings(), MAX).unwrap_err();
    assert_eq!(
        err.message,
        "Wits is named twice; name two different traits."
    );
}

#[test]
fn st_1_an_ability_alone_is_refused_unless_the_storyteller_allows_it() {
    let s = sheet();
    let err = build_action(&s, &cat(), &req(&["Firearms"]), &settings(), MAX).unwrap_err();
    assert_eq!(
        err.message,
        "Firearms is an ability: roll it with an attribute, as in `Wits + Firearms`. A pool is an attribute plus an ability, or one or two attributes; the storyteller can allow abilities alone (house rule `st_ability_alone`)."
    );
    let mut st = settings();
    st.set("st_ability_alone", "on").unwrap();
    assert!(st.st_ability_alone);
    let alone = build_action(&s, &cat(), &req(&["Firearms"]), &st, MAX).unwrap();
    assert_eq!(alone.traits.len(), 1);
    assert_eq!(alone.traits[0].kind, TraitKind::Talent);
    // An attribute alone, two attributes, an attribute and an ability: always.
    for traits in [&["Wits"][..], &["Wits", "Reflexes"], &["Wits", "Firearms"]] {
        assert!(
            build_action(&s, &cat(), &req(traits), &settings(), MAX).is_ok(),
            "{traits:?}"
        );
    }
    assert_eq!(
        st.set("st_ability_alone", "maybe").unwrap_err().message,
        "st_ability_alone must be on or off."
    );
}

#[test]
fn st_10_willpower_is_not_a_trait_and_unknown_traits_get_near_names() {
    let s = sheet();
    for traits in [&["Willpower"][..], &["Wits", "will power"]] {
        let err = build_action(&s, &cat(), &req(traits), &settings(), MAX).unwrap_err();
        assert_eq!(
            err.message,
            "Willpower is not a trait for `/st roll`: use `/st willpower` for a willpower roll (current willpower alone, ST-10)."
        );
    }
    // A table that made Willpower a trait rolls it.
    let mut st = settings();
    st.set("st_custom_traits", "Willpower:attribute").unwrap();
    assert!(build_action(&s, &st.catalog(), &req(&["Willpower"]), &st, MAX).is_ok());
    let err = build_action(&s, &cat(), &req(&["Wits", "Alertnez"]), &settings(), MAX).unwrap_err();
    assert_eq!(
        err.message,
        "There is no trait called `Alertnez`. Did you mean Alertness?"
    );
    let (t, _) = s.lookup(&cat(), "Medicin").unwrap();
    assert_eq!(t.name, "Medicine", "a unique prefix still resolves");
    let err = s.lookup(&cat(), "Reflxes").unwrap_err();
    assert_eq!(
        err.message,
        "There is no trait called `Reflxes`. Did you mean Reflexes?"
    );
    assert_eq!(s.nearest_names("Stealht", 3), vec!["Stealth".to_string()],);
    let err = s.lookup(&cat(), "Zzzzzzzzzzzz").unwrap_err();
    assert_eq!(
        err.message,
        "There is no trait called `Zzzzzzzzzzzz`. This sheet's traits, closest first: Strength, Precision, Reflexes, Perception, Intelligence, Wits, Alertness, Athletics and 20 more; add one of its own with `/st sheet set trait:… kind:…`."
    );
    // An ambiguous prefix says so, without guesses.
    let err = s.lookup(&cat(), "Stre").unwrap_err();
    assert!(
        err.message.starts_with("`Stre` could mean"),
        "{}",
        err.message
    );
    assert!(!err.message.contains("Did you mean"), "{}", err.message);
}

#[test]
fn a_s13_two_attributes_are_a_valid_pool() {
    let spec = build_action(
        &sheet(),
        &cat(),
        &req(&["reflex", "strength"]),
        &settings(),
        MAX,
    )
    .unwrap();
    assert_eq!(spec.dice, 5);
    assert!(spec.traits.iter().all(|t| t.kind == TraitKind::Attribute));
}

#[test]
fn st_2_talent_at_zero_dots_rolls_the_attribute_without_penalty() {
    let spec = build_action(
        &sheet(),
        &cat(),
        &req(&["Strength", "Melee"]),
        &settings(),
        MAX,
    )
    .unwrap();
    assert_eq!(spec.dice, 3);
    assert_eq!(spec.difficulty, 6);
    assert!(spec.notes.contains(&PoolNote::UntrainedTalent {
        ability: "Melee".into()
    }));
}

#[test]
fn st_2_skill_at_zero_dots_adds_one_difficulty() {
    let spec = build_action(
        &sheet(),
        &cat(),
        &req(&["Precision", "Driving"]),
        &settings(),
        MAX,
    )
    .unwrap();
    assert_eq!(spec.dice, 2);
    assert_eq!(spec.difficulty, 7);
    assert!(spec.notes.contains(&PoolNote::UnskilledSkill {
        ability: "Driving".into()
    }));
}

#[test]
fn st_2_knowledge_at_zero_dots_cannot_be_attempted_unless_figured_out() {
    let s = sheet();
    let err = build_action(
        &s,
        &cat(),
        &req(&["Intelligence", "Engineering"]),
        &settings(),
        MAX,
    )
    .unwrap_err();
    assert_eq!(
        err.message,
        "Engineering is a knowledge with no dots, so it cannot be attempted unless the storyteller allows figuring it out."
    );
    let mut r = req(&["Intelligence", "Engineering"]);
    r.figure_it_out = true;
    let spec = build_action(&s, &cat(), &r, &settings(), MAX).unwrap();
    assert_eq!(spec.dice, 2);
    assert_eq!(spec.difficulty, 7);
    assert!(spec.notes.contains(&PoolNote::FigureItOut {
        ability: "Engineering".into(),
        penalty: 1
    }));
}

#[test]
fn a_s4_figure_it_out_penalty_follows_the_setting() {
    let mut st = settings();
    st.set("st_unskilled_knowledge_penalty", "+3").unwrap();
    let mut r = req(&["Intelligence", "Engineering"]);
    r.figure_it_out = true;
    let spec = build_action(&sheet(), &cat(), &r, &st, MAX).unwrap();
    assert_eq!(spec.difficulty, 9);
}

#[test]
fn st_3_default_difficulty_when_none_is_given() {
    let s = sheet();
    let spec = build_action(&s, &cat(), &req(&["Wits"]), &settings(), MAX).unwrap();
    assert_eq!(spec.difficulty, 6);
    assert!(spec
        .notes
        .contains(&PoolNote::DefaultDifficulty { difficulty: 6 }));
    let mut st = settings();
    st.set("st_default_difficulty", "8").unwrap();
    let spec = build_action(&s, &cat(), &req(&["Wits"]), &st, MAX).unwrap();
    assert_eq!(spec.difficulty, 8);
    let mut r = req(&["Wits"]);
    r.difficulty = Some(4);
    let spec = build_action(&s, &cat(), &r, &st, MAX).unwrap();
    assert_eq!(spec.difficulty, 4);
    assert!(spec.notes.is_empty());
}

#[test]
fn st_3_difficulty_must_be_two_to_ten() {
    for d in [0, 1, 11] {
        let mut r = req(&["Wits"]);
        r.difficulty = Some(d);
        let err = build_action(&sheet(), &cat(), &r, &settings(), MAX).unwrap_err();
        assert_eq!(err.message, "The difficulty must be between 2 and 10.");
    }
}

#[test]
fn st_3_parameters_are_fixed_before_the_dice_are_rolled() {
    let mut s = sheet();
    let r = req(&["Precision", "Firearms"]);
    let spec = build_action(&s, &cat(), &r, &settings(), MAX).unwrap();
    let (session, _) =
        RollSession::action(OWNER.id, &mut s, &cat(), &r, &settings(), MAX, &mut rng(4)).unwrap();
    assert_eq!(
        session.result.spec, spec,
        "the roll carries the spec it was built with"
    );
}

#[test]
fn max_pool_refused_with_a_clear_error() {
    let err = build_ad_hoc(
        &AdHocRequest {
            dice: 51,
            ..AdHocRequest::default()
        },
        &settings(),
        50,
    )
    .unwrap_err();
    assert_eq!(
        err.message,
        "That roll needs 51 dice; this server allows at most 50."
    );
    // The guild limit never lifts the core's hard ceiling.
    assert!(build_ad_hoc(
        &AdHocRequest {
            dice: 101,
            ..AdHocRequest::default()
        },
        &settings(),
        1000
    )
    .is_err());
    assert!(build_ad_hoc(
        &AdHocRequest {
            dice: 50,
            ..AdHocRequest::default()
        },
        &settings(),
        50
    )
    .is_ok());
}

// ------------------------------------------------------ §4.3 resolving rolls

#[test]
fn st_4_seeded_base_dice_successes_and_botches() {
    let spec = ad_hoc(5, 6, 0, 0);
    let r = roll(&spec, &mut rng(4));
    assert_eq!(r.base, faces(&[7, 6, 1, 7, 7]));
    assert!(r.bonus.is_empty());
    assert_eq!(r.base_successes, 4, "7, 6, 7, 7 are at or above 6");
    assert_eq!(r.botches, 1, "the 1 botches");
    assert_eq!(r.mark(6, false), DieMark::Success);
    assert_eq!(r.mark(5, false), DieMark::Failure);
    assert_eq!(r.mark(1, false), DieMark::Botch);
    assert_eq!(r.mark(1, true), DieMark::Ignored);
    assert_eq!(r.outcome, Outcome::Success { successes: 3 });
}

#[test]
fn st_4_difficulty_two_faces_two_to_ten_succeed_and_one_botches() {
    let spec = ad_hoc(4, 2, 0, 0);
    let r = resolve(&spec, faces(&[1, 2, 3, 10]), Vec::new(), false);
    assert_eq!(r.base_successes, 3);
    assert_eq!(r.botches, 1);
    assert_eq!(r.outcome, Outcome::Success { successes: 2 });
}

#[test]
fn st_5_threshold_removed_successes_do_not_cancel_botches() {
    // Without a threshold, seed 3 gives 2 successes and a botch: 1 success.
    let plain = roll(&ad_hoc(5, 6, 0, 0), &mut rng(3));
    assert_eq!(plain.base, faces(&[7, 1, 10, 4, 2]));
    assert_eq!(plain.outcome, Outcome::Success { successes: 1 });
    // Threshold 2 removes both successes; the botch stands (the source's example).
    let r = roll(&ad_hoc(5, 6, 2, 0), &mut rng(3));
    assert_eq!(r.base, faces(&[7, 1, 10, 4, 2]));
    assert_eq!(r.threshold_removed, 2);
    assert_eq!(r.cancelled, 0, "removed successes never happened");
    assert_eq!(r.outcome, Outcome::Botch { botches: 1 });
}

#[test]
fn st_5_a_ten_whose_success_is_removed_still_adds_bonus_dice() {
    let r = roll(&ad_hoc(5, 8, 3, 1), &mut rng(8));
    assert_eq!(r.base, faces(&[7, 4, 10, 8, 6]));
    assert_eq!(r.bonus, vec![faces(&[10]), faces(&[7])]);
    assert_eq!(r.successes_rolled(), 3, "10, 8 and the bonus 10");
    assert_eq!(r.threshold_removed, 3);
    assert_eq!(r.outcome, Outcome::Failure);
}

#[test]
fn st_6_net_successes_decide_success_failure_or_botch() {
    let spec = ad_hoc(5, 6, 0, 0);
    let win = roll(&spec, &mut rng(0));
    assert_eq!(win.base, faces(&[9, 8, 6, 8, 9]));
    assert_eq!(win.outcome, Outcome::Success { successes: 5 });
    let botch = roll(&spec, &mut rng(2));
    assert_eq!(botch.base, faces(&[1, 3, 10, 1, 3]));
    assert_eq!(botch.cancelled, 1, "one botch cancels the 10");
    assert_eq!(botch.net, -1);
    assert_eq!(botch.outcome, Outcome::Botch { botches: 1 });
    let big = roll(&spec, &mut rng(7));
    assert_eq!(big.base, faces(&[5, 1, 2, 4, 1]));
    assert_eq!(big.outcome, Outcome::Botch { botches: 2 }, "size = -net");
}

#[test]
fn a_s9_botches_equal_to_successes_are_a_simple_failure() {
    let r = roll(&ad_hoc(5, 6, 0, 0), &mut rng(5));
    assert_eq!(r.base, faces(&[2, 4, 2, 1, 6]));
    assert_eq!(r.cancelled, 1);
    assert_eq!(r.net, 0);
    assert_eq!(r.outcome, Outcome::Failure);
}

#[test]
fn st_7_bonus_dice_explode_and_bonus_ones_are_ignored() {
    // The source's worked check, seeded: difficulty 8, one specialty.
    let r = roll(&ad_hoc(5, 8, 0, 1), &mut rng(825));
    assert_eq!(r.base, faces(&[9, 10, 1, 6, 10]));
    assert_eq!(
        r.bonus,
        vec![faces(&[1, 10]), faces(&[7])],
        "two 10s, then one"
    );
    assert_eq!(r.base_successes, 3);
    assert_eq!(r.bonus_successes, 1, "only the bonus 10; the 7 misses 8");
    assert_eq!(r.ignored_bonus_ones, 1);
    assert_eq!(r.botches, 1, "only the base 1 botches");
    assert_eq!(r.outcome, Outcome::Success { successes: 3 });
}

#[test]
fn st_9_source_worked_check_resolves_to_four_successes() {
    // Spec §4.3: [1, 4, 8, 10, 10], bonus [1, 10] then [8], difficulty 8.
    let spec = ad_hoc(5, 8, 0, 1);
    let r = resolve(
        &spec,
        faces(&[1, 4, 8, 10, 10]),
        vec![faces(&[1, 10]), faces(&[8])],
        false,
    );
    assert_eq!(r.successes_rolled(), 5);
    assert_eq!(r.botches, 1);
    assert_eq!(r.cancelled, 1);
    assert_eq!(r.outcome, Outcome::Success { successes: 4 });
}

#[test]
fn st_7_each_specialty_adds_a_bonus_die_per_ten() {
    let r = roll(&ad_hoc(6, 6, 0, 2), &mut rng(8));
    assert_eq!(r.base, faces(&[7, 4, 10, 8, 6, 10]));
    assert_eq!(
        r.bonus,
        vec![faces(&[7, 5, 8, 7])],
        "2 tens × 2 specialties"
    );
    assert_eq!(r.outcome, Outcome::Success { successes: 8 });
}

#[test]
fn a_s3_setting_one_gives_one_bonus_die_per_ten() {
    let mut st = settings();
    st.set("st_bonus_dice_per_ten", "one").unwrap();
    let spec = build_ad_hoc(
        &AdHocRequest {
            dice: 6,
            difficulty: Some(6),
            threshold: 0,
            specialties: 2,
        },
        &st,
        MAX,
    )
    .unwrap();
    assert_eq!(spec.bonus_dice_per_ten, 1);
    let r = roll(&spec, &mut rng(8));
    assert_eq!(r.base, faces(&[7, 4, 10, 8, 6, 10]));
    assert_eq!(r.bonus, vec![faces(&[7, 5])]);
    assert_eq!(r.outcome, Outcome::Success { successes: 6 });
}

#[test]
fn a_s3_two_specialties_odds_per_specialty_against_one() {
    let per = roll_odds(5, 6, 0, 2);
    let one = roll_odds_with(5, 6, 0, 2, BonusDicePerTen::One);
    assert_eq!(format!("{:.2}", per.success * 100.0), "86.39");
    assert_eq!(format!("{:.2}", one.success * 100.0), "85.64");
}

#[test]
fn st_7_at_most_one_specialty_per_dot() {
    let c = cat();
    let mut s = sheet();
    s.add_specialty(&c, "Firearms", "Shotguns", None).unwrap();
    let mut r = req(&["Precision", "Firearms"]);
    r.specialties = vec![
        "Sniper Rifles".into(),
        "Pistols".into(),
        "Shotguns".into(),
        "Power Armor".into(),
    ];
    let err = build_action(&s, &c, &r, &settings(), MAX).unwrap_err();
    assert_eq!(
        err.message,
        "With 3 dots in Firearms you can use at most 3 specialties on one roll."
    );
    r.specialties.pop();
    let spec = build_action(&s, &c, &r, &settings(), MAX).unwrap();
    assert_eq!(spec.specialties_in_use, 3);
    assert_eq!(spec.bonus_dice_per_ten, 3);
}

#[test]
fn st_7_specialties_need_an_ability_and_must_exist() {
    let s = sheet();
    let mut r = req(&["Strength", "Wits"]);
    r.specialties = vec!["Pistols".into()];
    let err = build_action(&s, &cat(), &r, &settings(), MAX).unwrap_err();
    assert_eq!(err.message, "Specialties need an ability in the pool.");
    let mut r = req(&["Precision", "Firearms"]);
    r.specialties = vec!["Lasers".into()];
    let err = build_action(&s, &cat(), &r, &settings(), MAX).unwrap_err();
    assert_eq!(err.message, "Firearms has no specialty called Lasers.");
    let spec = build_willpower(&s, &WillpowerRequest::default(), &settings(), MAX).unwrap();
    assert_eq!(spec.specialties_in_use, 0, "willpower uses no specialties");
}

#[test]
fn a_s8_specialties_need_a_dot_and_zero_dots_allow_none() {
    let c = cat();
    let mut s = sheet();
    let err = s.add_specialty(&c, "Melee", "Swords", None).unwrap_err();
    assert_eq!(
        err.message,
        "You need at least one dot in Melee before taking a specialty in it."
    );
    s.set_trait(&c, "Firearms", 0).unwrap();
    let mut r = req(&["Precision", "Firearms"]);
    r.specialties = vec!["Pistols".into()];
    let err = build_action(&s, &c, &r, &settings(), MAX).unwrap_err();
    assert_eq!(
        err.message,
        "With 0 dots in Firearms you can use at most 0 specialties on one roll."
    );
}

#[test]
fn st_8_a_s10_required_advanced_specialty_adds_threshold_unless_used() {
    let c = cat();
    let s = sheet();
    // Required and owned: used automatically, no threshold, counts under ST-7.
    let mut r = req(&["Precision", "Firearms"]);
    r.advanced_required = vec!["power armor".into()];
    let spec = build_action(&s, &c, &r, &settings(), MAX).unwrap();
    assert_eq!(spec.threshold, 0);
    assert_eq!(spec.specialties, vec!["Power Armor".to_string()]);
    assert_eq!(spec.bonus_dice_per_ten, 1);
    assert!(spec.notes.contains(&PoolNote::AdvancedSpecialtyUsed {
        specialty: "Power Armor".into(),
        added_automatically: true
    }));
    // Required but not owned: +1 threshold each.
    let mut r = req(&["Precision", "Firearms"]);
    r.threshold = 1;
    r.advanced_required = vec!["Energy Weapons".into(), "Extreme Range".into()];
    let spec = build_action(&s, &c, &r, &settings(), MAX).unwrap();
    assert_eq!(spec.threshold, 3);
    // Owned but no room left under the per-dot limit: threshold stays.
    let mut s2 = s.clone();
    s2.add_specialty(&c, "Firearms", "Shotguns", None).unwrap();
    let mut r = req(&["Precision", "Firearms"]);
    r.specialties = vec!["Sniper Rifles".into(), "Pistols".into(), "Shotguns".into()];
    r.advanced_required = vec!["Power Armor".into()];
    let spec = build_action(&s2, &c, &r, &settings(), MAX).unwrap();
    assert_eq!(spec.threshold, 1);
    assert!(spec.notes.contains(&PoolNote::AdvancedSpecialtyMissing {
        specialty: "Power Armor".into()
    }));
    // Listed explicitly: used, not added automatically.
    let mut r = req(&["Precision", "Firearms"]);
    r.specialties = vec!["Power Armor".into()];
    r.advanced_required = vec!["Power Armor".into()];
    let spec = build_action(&s, &c, &r, &settings(), MAX).unwrap();
    assert_eq!(spec.threshold, 0);
    assert_eq!(spec.specialties_in_use, 1);
}

#[test]
fn st_9_output_keeps_every_step_and_events_describe_them() {
    let spec = ad_hoc(5, 8, 0, 1);
    let (session, events) = RollSession::ad_hoc(
        OWNER.id,
        &AdHocRequest {
            dice: 5,
            difficulty: Some(8),
            threshold: 0,
            specialties: 1,
        },
        &settings(),
        MAX,
        &mut rng(825),
    )
    .unwrap();
    assert_eq!(session.result.spec, spec);
    assert_eq!(session.phase(), Phase::Closed);
    assert_eq!(
        events,
        vec![
            Event::PoolBuilt {
                kind: RollKind::AdHoc,
                dice: 5,
                difficulty: 8,
                threshold: 0,
                specialties: vec![],
                bonus_dice_per_ten: 1
            },
            Event::BaseDice {
                faces: faces(&[9, 10, 1, 6, 10]),
                successes: 3,
                botches: 1
            },
            Event::BonusDice {
                generation: 1,
                faces: faces(&[1, 10]),
                successes: 1
            },
            Event::BonusDice {
                generation: 2,
                faces: faces(&[7]),
                successes: 0
            },
            Event::BotchesCancelled { pairs: 1 },
            Event::Rolled {
                outcome: Outcome::Success { successes: 3 }
            },
            Event::Closed,
        ]
    );
    assert_eq!(session.log, events);
    let json = serde_json::to_string(&session).unwrap();
    let back: RollSession = serde_json::from_str(&json).unwrap();
    assert_eq!(back, session);
    // Threshold removals are reported too.
    let r = roll(&ad_hoc(5, 6, 2, 0), &mut rng(3));
    assert!(super::willpower::roll_events(&r).contains(&Event::ThresholdRemoved { successes: 2 }));
}

#[test]
fn st_9_long_lists_are_summarised_per_face() {
    let r = roll(&ad_hoc(30, 6, 0, 5), &mut rng(0));
    assert!(r.is_long());
    assert_eq!(r.bonus_dice(), 50);
    assert_eq!(r.bonus.len(), 4);
    assert_eq!(r.base_counts().total(), 30);
    assert_eq!(r.bonus_counts().total(), 50);
    assert_eq!(
        r.base_counts().compact(),
        "10×4, 9×4, 8×6, 7×2, 6×3, 3×4, 2×3, 1×4"
    );
    assert_eq!(r.outcome, Outcome::Success { successes: 43 });
    assert!(r.summary().contains("4 pairs cancelled"));
    assert_eq!(FaceCounts::of(&[]).compact(), "no dice");
}

// --------------------------------------------------------- §4.4 willpower

fn wp_sheet(permanent: u8, current: u8) -> StorytellerSheet {
    let mut s = sheet();
    s.set_willpower_permanent(permanent).unwrap();
    s.set_willpower_current(current).unwrap();
    s
}

#[test]
fn st_10_willpower_roll_uses_current_willpower_alone() {
    let s = wp_sheet(7, 5);
    let spec = build_willpower(&s, &WillpowerRequest::default(), &settings(), MAX).unwrap();
    assert_eq!(spec.kind, RollKind::Willpower);
    assert_eq!(spec.dice, 5, "current, not permanent");
    assert!(spec.traits.is_empty());
    assert_eq!(spec.bonus_dice_per_ten, 0);
}

#[test]
fn st_10_botched_willpower_roll_costs_one_dot_per_net_botch() {
    let mut s = wp_sheet(5, 5);
    let (session, events) = RollSession::willpower(
        OWNER.id,
        &mut s,
        &WillpowerRequest::default(),
        &settings(),
        MAX,
        &mut rng(7),
    )
    .unwrap();
    assert_eq!(session.result.base, faces(&[5, 1, 2, 4, 1]));
    assert_eq!(session.outcome, Outcome::Botch { botches: 2 });
    assert_eq!(s.willpower().current, 3);
    assert!(events.contains(&Event::WillpowerLost {
        amount: 2,
        current: 3
    }));
    assert_eq!(
        session.phase(),
        Phase::Closed,
        "a botch cannot be bought off"
    );
    assert_eq!(session.willpower_before, Some(5));
    assert_eq!(session.willpower_after, Some(3));
}

#[test]
fn st_10_st_13_botch_to_zero_incapacitates() {
    let mut s = wp_sheet(5, 1);
    let (session, events) = RollSession::willpower(
        OWNER.id,
        &mut s,
        &WillpowerRequest::default(),
        &settings(),
        MAX,
        &mut rng(2),
    )
    .unwrap();
    assert_eq!(session.result.base, faces(&[1]));
    assert_eq!(s.willpower().current, 0);
    assert!(s.incapacitated());
    assert!(events.contains(&Event::Incapacitated));
}

#[test]
fn a_s5_willpower_difficulty_given_or_guild_default() {
    let s = wp_sheet(5, 5);
    let mut st = settings();
    st.set("st_default_difficulty", "7").unwrap();
    let spec = build_willpower(&s, &WillpowerRequest::default(), &st, MAX).unwrap();
    assert_eq!(spec.difficulty, 7);
    let spec = build_willpower(
        &s,
        &WillpowerRequest {
            difficulty: Some(9),
            ..WillpowerRequest::default()
        },
        &st,
        MAX,
    )
    .unwrap();
    assert_eq!(spec.difficulty, 9);
}

#[test]
fn a_s6_threshold_applies_to_willpower_rolls() {
    let mut s = wp_sheet(5, 5);
    let (session, _) = RollSession::willpower(
        OWNER.id,
        &mut s,
        &WillpowerRequest {
            threshold: 2,
            ..WillpowerRequest::default()
        },
        &settings(),
        MAX,
        &mut rng(3),
    )
    .unwrap();
    assert_eq!(session.result.base, faces(&[7, 1, 10, 4, 2]));
    assert_eq!(session.result.threshold_removed, 2);
    assert_eq!(session.outcome, Outcome::Botch { botches: 1 });
    assert_eq!(s.willpower().current, 4);
}

#[test]
fn st_11_spend_one_willpower_for_an_automatic_success() {
    let mut s = wp_sheet(5, 5);
    let (session, events) = RollSession::willpower(
        OWNER.id,
        &mut s,
        &WillpowerRequest::default(),
        &settings(),
        MAX,
        &mut rng(16),
    )
    .unwrap();
    // Two successes: buying (current − 1 = 4) raises the result.
    assert_eq!(session.result.base, faces(&[10, 9, 5, 2, 3]));
    assert_eq!(session.outcome, Outcome::Success { successes: 2 });
    assert_eq!(session.phase(), Phase::WillpowerChoice);
    assert!(events.contains(&Event::BuyOffered { successes: 4 }));
    assert_eq!(
        session.available_actions(OWNER, &s),
        vec![ActionKind::SpendWillpower, ActionKind::Keep]
    );
    assert!(session.available_actions(OTHER, &s).is_empty());
    assert_eq!(
        session.available_actions(GM, &s),
        vec![
            ActionKind::SpendWillpower,
            ActionKind::Keep,
            ActionKind::Void,
            ActionKind::ForceClose
        ]
    );
    let (done, ev) = session
        .apply(&mut s, Action::SpendWillpower { actor: OWNER }, &mut rng(0))
        .unwrap();
    assert_eq!(s.willpower().current, 4);
    assert_eq!(
        done.outcome,
        Outcome::Success { successes: 4 },
        "= willpower after spending"
    );
    assert!(done.automatic);
    assert_eq!(done.phase(), Phase::Closed);
    assert_eq!(
        ev,
        vec![
            Event::WillpowerSpent {
                purpose: SpendPurpose::BuySuccess,
                current: 4
            },
            Event::AutomaticSuccess { successes: 4 },
            Event::Closed
        ]
    );
    assert_eq!(
        done.result.outcome,
        Outcome::Success { successes: 2 },
        "the dice stay shown"
    );
}

#[test]
fn st_11_the_last_dot_cannot_be_spent() {
    // With 1 willpower nothing is offered: the session closes at once.
    let mut s = wp_sheet(5, 1);
    let (session, events) = RollSession::willpower(
        OWNER.id,
        &mut s,
        &WillpowerRequest::default(),
        &settings(),
        MAX,
        &mut rng(0),
    )
    .unwrap();
    assert_eq!(session.result.base, faces(&[9]));
    assert_eq!(session.phase(), Phase::Closed);
    assert!(!events.iter().any(|e| matches!(e, Event::BuyOffered { .. })));
    // With 2 (and a failed roll) it is offered; if willpower drops to 1 before the click, it is refused.
    let mut s = wp_sheet(5, 2);
    let (session, _) = RollSession::willpower(
        OWNER.id,
        &mut s,
        &WillpowerRequest::default(),
        &settings(),
        MAX,
        &mut rng(3),
    )
    .unwrap();
    assert_eq!(session.outcome, Outcome::Failure);
    assert_eq!(session.phase(), Phase::WillpowerChoice);
    s.set_willpower_current(1).unwrap();
    assert_eq!(session.available_actions(OWNER, &s), vec![ActionKind::Keep]);
    let before = s.clone();
    let err = session
        .clone()
        .apply(&mut s, Action::SpendWillpower { actor: OWNER }, &mut rng(0))
        .unwrap_err();
    assert_eq!(
        err.message,
        "You need at least 2 willpower to buy a success: the last dot cannot be spent this way."
    );
    assert_eq!(s, before, "nothing changes on error");
}

#[test]
fn st_11_buying_is_not_offered_when_it_would_not_raise_the_result() {
    // Willpower 5: buying gives 4 successes. A roll of 5 (seed 0) would
    // lose one, a roll of 4 (seed 1) gain nothing: the roll closes at once.
    for (seed, had) in [(0, 5), (1, 4)] {
        let mut s = wp_sheet(5, 5);
        let (session, events) = RollSession::willpower(
            OWNER.id,
            &mut s,
            &WillpowerRequest::default(),
            &settings(),
            MAX,
            &mut rng(seed),
        )
        .unwrap();
        assert_eq!(session.outcome, Outcome::Success { successes: had });
        assert_eq!(session.phase(), Phase::Closed, "seed {seed}");
        assert!(!events.iter().any(|e| matches!(e, Event::BuyOffered { .. })));
        assert!(session.available_actions(OWNER, &s).is_empty());
        assert_eq!(s.willpower().current, 5);
    }
    // Seed 4 rolls 3: buying (4) raises it, so it is offered. If willpower
    // drops to 4 before the click (buying would give 3), it is withdrawn
    // and refused, and nothing changes.
    let mut s = wp_sheet(5, 5);
    let (session, events) = RollSession::willpower(
        OWNER.id,
        &mut s,
        &WillpowerRequest::default(),
        &settings(),
        MAX,
        &mut rng(4),
    )
    .unwrap();
    assert_eq!(session.outcome, Outcome::Success { successes: 3 });
    assert!(events.contains(&Event::BuyOffered { successes: 4 }));
    assert_eq!(
        session.available_actions(OWNER, &s),
        vec![ActionKind::SpendWillpower, ActionKind::Keep]
    );
    s.set_willpower_current(4).unwrap();
    assert_eq!(session.available_actions(OWNER, &s), vec![ActionKind::Keep]);
    let before = s.clone();
    let err = session
        .apply(&mut s, Action::SpendWillpower { actor: OWNER }, &mut rng(0))
        .unwrap_err();
    assert_eq!(
        err.message,
        "Spending willpower would give 3 successes, no more than the roll already has: keep the roll."
    );
    assert_eq!(s, before);
    // The rule itself: never on a botch, never the last dot, only upwards.
    use super::willpower::buying_raises;
    assert!(!buying_raises(Outcome::Botch { botches: 1 }, 10));
    assert!(!buying_raises(Outcome::Failure, 1));
    assert!(buying_raises(Outcome::Failure, 2));
    assert!(!buying_raises(Outcome::Success { successes: 1 }, 2));
    assert!(buying_raises(Outcome::Success { successes: 8 }, 10));
    assert!(!buying_raises(Outcome::Success { successes: 9 }, 10));
}

#[test]
fn st_11_the_purchase_on_offer_is_current_willpower_less_one() {
    // Seed 16 rolls 2 successes on willpower 5: 4 automatic ones on offer,
    // to the roller, as the sheet stands when asked.
    let mut s = wp_sheet(5, 5);
    let (session, _) = RollSession::willpower(
        OWNER.id,
        &mut s,
        &WillpowerRequest::default(),
        &settings(),
        MAX,
        &mut rng(16),
    )
    .unwrap();
    assert_eq!(session.purchase_offer(&s), Some(4));
    s.set_willpower_current(4).unwrap();
    assert_eq!(session.purchase_offer(&s), Some(3));
    // Buying 1 would not raise 2 successes; the last dot is never spent.
    s.set_willpower_current(2).unwrap();
    assert_eq!(session.purchase_offer(&s), None);
    s.set_willpower_current(1).unwrap();
    assert_eq!(session.purchase_offer(&s), None);
    // Once decided, nothing is on offer.
    s.set_willpower_current(5).unwrap();
    let (kept, _) = session
        .apply(&mut s, Action::Keep { actor: OWNER }, &mut rng(0))
        .unwrap();
    assert_eq!(kept.purchase_offer(&s), None);
}

#[test]
fn st_11_a_purchase_withheld_says_what_it_would_have_given() {
    // Willpower 5: seeds 0 and 1 roll 5 and 4 successes, so buying 4 is
    // withheld; seed 4 rolls 3 and is offered; seed 2 botches.
    let willpower_roll = |seed| {
        let mut s = wp_sheet(5, 5);
        RollSession::willpower(
            OWNER.id,
            &mut s,
            &WillpowerRequest::default(),
            &settings(),
            MAX,
            &mut rng(seed),
        )
        .unwrap()
        .0
    };
    assert_eq!(willpower_roll(0).purchase_withheld(), Some(4));
    assert_eq!(willpower_roll(1).purchase_withheld(), Some(4));
    assert_eq!(willpower_roll(4).purchase_withheld(), None);
    assert!(willpower_roll(2).outcome.is_botch());
    assert_eq!(willpower_roll(2).purchase_withheld(), None);
    // The last dot is never spent: nothing withheld at willpower 1.
    let mut s = wp_sheet(5, 1);
    let (one, _) = RollSession::willpower(
        OWNER.id,
        &mut s,
        &WillpowerRequest::default(),
        &settings(),
        MAX,
        &mut rng(0),
    )
    .unwrap();
    assert_eq!(one.purchase_withheld(), None);
}

#[test]
fn st_11_a_botched_roll_cannot_be_bought_off() {
    let mut s = wp_sheet(5, 5);
    let (session, _) = RollSession::willpower(
        OWNER.id,
        &mut s,
        &WillpowerRequest::default(),
        &settings(),
        MAX,
        &mut rng(2),
    )
    .unwrap();
    assert!(session.outcome.is_botch());
    let err = session
        .apply(&mut s, Action::SpendWillpower { actor: OWNER }, &mut rng(0))
        .unwrap_err();
    assert_eq!(err.message, "This roll is already closed.");
}

#[test]
fn st_11_only_owner_or_gm_decide_and_gm_may_void() {
    let mut s = wp_sheet(5, 5);
    let (session, _) = RollSession::willpower(
        OWNER.id,
        &mut s,
        &WillpowerRequest::default(),
        &settings(),
        MAX,
        &mut rng(16),
    )
    .unwrap();
    let err = session
        .clone()
        .apply(&mut s, Action::Keep { actor: OTHER }, &mut rng(0))
        .unwrap_err();
    assert_eq!(
        err.message,
        "Only the roller or the storyteller can decide this roll."
    );
    let err = session
        .clone()
        .apply(&mut s, Action::Void { actor: OWNER }, &mut rng(0))
        .unwrap_err();
    assert_eq!(err.message, "Only the storyteller can do that.");
    let (kept, _) = session
        .clone()
        .apply(&mut s, Action::Keep { actor: OWNER }, &mut rng(0))
        .unwrap();
    assert_eq!(kept.outcome, Outcome::Success { successes: 2 });
    let (voided, ev) = session
        .apply(&mut s, Action::Void { actor: GM }, &mut rng(0))
        .unwrap();
    assert_eq!(voided.phase(), Phase::Voided);
    assert_eq!(ev, vec![Event::Voided { by: GM.id }]);
    assert_eq!(s.willpower().current, 5);
}

#[test]
fn st_12_ignore_wound_penalty_once_per_turn() {
    let c = cat();
    let mut s = wp_sheet(5, 5);
    s.set_wound_penalty(2, 1).unwrap();
    let r = req(&["Precision", "Firearms"]);
    let hurt = build_action(&s, &c, &r, &settings(), MAX).unwrap();
    assert_eq!((hurt.dice, hurt.difficulty), (3, 7));
    assert!(can_spend_to_ignore_wounds(&s));
    let ev = spend_to_ignore_wounds(&mut s).unwrap();
    assert!(!can_spend_to_ignore_wounds(&s));
    assert_eq!(
        ev,
        vec![Event::WillpowerSpent {
            purpose: SpendPurpose::IgnoreWounds,
            current: 4
        }]
    );
    let err = spend_to_ignore_wounds(&mut s).unwrap_err();
    assert_eq!(
        err.message,
        "Willpower can ignore wounds only once per turn."
    );
    let (session, events) =
        RollSession::action(OWNER.id, &mut s, &c, &r, &settings(), MAX, &mut rng(1)).unwrap();
    assert_eq!(
        (session.result.spec.dice, session.result.spec.difficulty),
        (5, 6)
    );
    assert!(events.contains(&Event::WoundIgnoreUsed));
    assert!(!s.ignores_wounds_next_action(), "only the next action");
    let again = build_action(&s, &c, &r, &settings(), MAX).unwrap();
    assert_eq!((again.dice, again.difficulty), (3, 7));
    assert!(
        spend_to_ignore_wounds(&mut s).is_err(),
        "still the same turn"
    );
    assert_eq!(start_turn(&mut s), vec![Event::TurnStarted]);
    spend_to_ignore_wounds(&mut s).unwrap();
    assert_eq!(s.willpower().current, 3);
}

#[test]
fn st_12_nothing_to_ignore_without_a_wound_penalty() {
    let mut s = wp_sheet(5, 5);
    let err = spend_to_ignore_wounds(&mut s).unwrap_err();
    assert_eq!(err.message, "There is no wound penalty to ignore.");
    assert_eq!(s.willpower().current, 5);
}

#[test]
fn st_12_last_dot_incapacitates_only_after_the_action() {
    let c = cat();
    let mut s = wp_sheet(5, 1);
    s.set_wound_penalty(1, 0).unwrap();
    let ev = spend_to_ignore_wounds(&mut s).unwrap();
    assert!(ev.contains(&Event::IncapacitationDeferred));
    assert_eq!(s.willpower().current, 0);
    assert!(!s.incapacitated(), "the action still happens");
    let r = req(&["Strength"]);
    let (_, events) =
        RollSession::action(OWNER.id, &mut s, &c, &r, &settings(), MAX, &mut rng(0)).unwrap();
    assert!(events.contains(&Event::Incapacitated));
    assert!(s.incapacitated());
    let err = build_action(&s, &c, &r, &settings(), MAX).unwrap_err();
    assert_eq!(
        err.message,
        "The character is incapacitated (0 willpower) and cannot act."
    );
}

#[test]
fn st_13_zero_willpower_means_no_actions() {
    let c = cat();
    let mut s = wp_sheet(5, 0);
    assert!(s.incapacitated());
    assert!(build_action(&s, &c, &req(&["Wits"]), &settings(), MAX).is_err());
    assert!(RollSession::willpower(
        OWNER.id,
        &mut s,
        &WillpowerRequest::default(),
        &settings(),
        MAX,
        &mut rng(0)
    )
    .is_err());
    assert!(spend_to_ignore_wounds(&mut s).is_err());
}

#[test]
fn st_13_revive_by_another_character_and_first_dot_alone() {
    let mut helper = wp_sheet(5, 3);
    let mut target = wp_sheet(5, 0);
    let ev = revive(&mut helper, &mut target).unwrap();
    assert_eq!(helper.willpower().current, 2);
    assert_eq!(target.willpower().current, 1);
    assert!(!target.incapacitated());
    assert!(ev.contains(&Event::WillpowerGained {
        amount: 1,
        current: 1,
        reason: GainReason::Revived
    }));
    assert!(ev.contains(&Event::NoLongerIncapacitated));
    let err = revive(&mut helper, &mut target).unwrap_err();
    assert_eq!(
        err.message,
        "Only an incapacitated character (0 willpower) can be brought back."
    );
    // The helper's last dot.
    let mut helper = wp_sheet(5, 1);
    let mut target = wp_sheet(5, 0);
    let ev = revive(&mut helper, &mut target).unwrap();
    assert!(ev.contains(&Event::HelperIncapacitated));
    // First dot alone.
    let mut alone = wp_sheet(5, 0);
    recover_first_dot(&mut alone).unwrap();
    assert_eq!(alone.willpower().current, 1);
    assert!(recover_first_dot(&mut alone).is_err());
}

#[test]
fn st_13_st_14_recover_takes_the_first_dot_or_a_days_rest_by_choice() {
    let mut s = wp_sheet(5, 3);
    assert_eq!(
        recover(&mut s, false).unwrap(),
        recover_daily(&mut wp_sheet(5, 3))
    );
    assert_eq!(s.willpower().current, 4);
    assert!(recover(&mut s, true).is_err());
    let mut out = wp_sheet(5, 0);
    assert_eq!(
        recover(&mut out, true).unwrap(),
        recover_first_dot(&mut wp_sheet(5, 0)).unwrap()
    );
    assert_eq!(out.willpower().current, 1);
}

#[test]
fn st_14_daily_recovery_never_exceeds_permanent() {
    let mut s = wp_sheet(5, 3);
    let ev = recover_daily(&mut s);
    assert_eq!(
        ev,
        vec![Event::WillpowerGained {
            amount: 1,
            current: 4,
            reason: GainReason::Daily
        }]
    );
    recover_daily(&mut s);
    let ev = recover_daily(&mut s);
    assert_eq!(s.willpower().current, 5);
    assert!(ev.contains(&Event::WillpowerGained {
        amount: 0,
        current: 5,
        reason: GainReason::Daily
    }));
}

#[test]
fn st_14_the_day_comes_first_and_a_full_track_does_not_roll() {
    // 3 of 5: the day's +1 (4), then the roll may still add.
    let mut s = wp_sheet(5, 3);
    recover_daily(&mut s);
    assert!(active_rest_rolls(&s));
    // 4 of 5: the day's +1 fills the track; the roll could only lose.
    let mut s = wp_sheet(5, 4);
    recover_daily(&mut s);
    assert_eq!(s.willpower().current, 5);
    assert!(!active_rest_rolls(&s));
    // Already full.
    assert!(!active_rest_rolls(&wp_sheet(5, 5)));
    // At 0 the day brings the first dot back, then the roll is made.
    let mut s = wp_sheet(5, 0);
    recover_daily(&mut s);
    assert_eq!(s.willpower().current, 1);
    assert!(active_rest_rolls(&s));
}

#[test]
fn st_14_active_rest_roll_at_difficulty_eight() {
    let st = settings();
    let mut s = wp_sheet(5, 3);
    let spec = build_rest(&s, &st, MAX).unwrap();
    assert_eq!(
        (spec.kind, spec.difficulty, spec.dice),
        (RollKind::Rest, 8, 3)
    );
    let (session, events) = RollSession::rest(OWNER.id, &mut s, &st, MAX, &mut rng(0)).unwrap();
    assert_eq!(session.result.base, faces(&[9, 8, 6]));
    assert_eq!(session.outcome, Outcome::Success { successes: 2 });
    assert_eq!(s.willpower().current, 5);
    assert!(events.contains(&Event::WillpowerGained {
        amount: 2,
        current: 5,
        reason: GainReason::ActiveRest
    }));
    assert_eq!(
        session.phase(),
        Phase::Closed,
        "no purchase on the rest roll"
    );
    // Capped at permanent.
    let mut s = wp_sheet(5, 4);
    RollSession::rest(OWNER.id, &mut s, &st, MAX, &mut rng(0)).unwrap();
    assert_eq!(s.willpower().current, 5);
    // Botches cost willpower as usual.
    let mut s = wp_sheet(5, 3);
    let (session, _) = RollSession::rest(OWNER.id, &mut s, &st, MAX, &mut rng(7)).unwrap();
    assert_eq!(session.result.base, faces(&[5, 1, 2]));
    assert_eq!(session.outcome, Outcome::Botch { botches: 1 });
    assert_eq!(s.willpower().current, 2);
}

// ------------------------------------------------------------- ambiguities

#[test]
fn a_s1_zero_pool_is_an_automatic_simple_failure() {
    let c = cat();
    let mut s = sheet();
    s.set_trait(&c, "Strength", 0).unwrap();
    let spec = build_action(&s, &c, &req(&["Strength", "Melee"]), &settings(), MAX).unwrap();
    assert_eq!(spec.dice, 0);
    assert!(spec.notes.contains(&PoolNote::ZeroPool {
        rule: ZeroPool::AutoFail
    }));
    let r = roll(&spec, &mut rng(2));
    assert!(r.auto_fail);
    assert!(r.base.is_empty());
    assert_eq!(r.outcome, Outcome::Failure);
    let o = spec_odds(&spec);
    assert_eq!((o.success, o.failure, o.botch), (0.0, 1.0, 0.0));
}

#[test]
fn a_s1_chance_die_ten_succeeds_one_botches() {
    let mut st = settings();
    st.set("st_zero_pool", "chance_die").unwrap();
    let spec = build_ad_hoc(
        &AdHocRequest {
            dice: 0,
            difficulty: Some(4),
            ..AdHocRequest::default()
        },
        &st,
        MAX,
    )
    .unwrap();
    let ten = roll(&spec, &mut rng(16));
    assert!(ten.chance_die);
    assert_eq!(ten.base, faces(&[10]));
    assert_eq!(ten.outcome, Outcome::Success { successes: 1 });
    let nine = roll(&spec, &mut rng(0));
    assert_eq!(nine.base, faces(&[9]));
    assert_eq!(
        nine.outcome,
        Outcome::Failure,
        "only a 10 succeeds, whatever the difficulty"
    );
    let one = roll(&spec, &mut rng(2));
    assert_eq!(one.outcome, Outcome::Botch { botches: 1 });
    let o = spec_odds(&spec);
    assert!((o.success - 0.1).abs() < 1e-15 && (o.botch - 0.1).abs() < 1e-15);
}

#[test]
fn a_s2_difficulty_raised_to_two_and_past_ten_is_impossible_or_capped() {
    let c = cat();
    let s = sheet();
    let mut r = req(&["Wits"]);
    r.difficulty = Some(3);
    r.difficulty_modifier = -5;
    let spec = build_action(&s, &c, &r, &settings(), MAX).unwrap();
    assert_eq!(spec.difficulty, 2);
    assert!(spec
        .notes
        .contains(&PoolNote::DifficultyRaised { from: -2 }));
    // Unskilled +1 at difficulty 10: success impossible, 1s still botch.
    let mut r = req(&["Precision", "Driving"]);
    r.difficulty = Some(10);
    let spec = build_action(&s, &c, &r, &settings(), MAX).unwrap();
    assert_eq!(spec.difficulty, 11);
    assert!(!spec.success_possible());
    assert!(spec
        .notes
        .contains(&PoolNote::SuccessImpossible { difficulty: 11 }));
    let res = resolve(&spec, faces(&[10, 1]), Vec::new(), false);
    assert_eq!(res.outcome, Outcome::Botch { botches: 1 });
    let o = spec_odds(&spec);
    assert_eq!(o.success, 0.0);
    assert!((o.failure - 0.81).abs() < 1e-15);
    let mut st = settings();
    st.set("st_clamp_difficulty_high", "on").unwrap();
    let spec = build_action(&s, &c, &r, &st, MAX).unwrap();
    assert_eq!(spec.difficulty, 10);
    assert!(spec
        .notes
        .contains(&PoolNote::DifficultyCapped { from: 11 }));
}

#[test]
fn a_s7_wound_penalty_and_modifiers() {
    let c = cat();
    let mut s = sheet();
    s.set_wound_penalty(2, 1).unwrap();
    let mut r = req(&["Precision", "Firearms"]);
    r.dice_modifier = 1;
    r.difficulty_modifier = -2;
    let spec = build_action(&s, &c, &r, &settings(), MAX).unwrap();
    assert_eq!(spec.dice, 5 - 2 + 1);
    assert_eq!(spec.difficulty, 6 + 1 - 2);
    assert!(spec.notes.contains(&PoolNote::WoundPenalty {
        dice: 2,
        difficulty: 1
    }));
    r.dice_modifier = -10;
    let spec = build_action(&s, &c, &r, &settings(), MAX).unwrap();
    assert_eq!(spec.dice, 0);
    assert!(spec.notes.contains(&PoolNote::PoolFloored { from: -7 }));
    r.dice_modifier = 11;
    assert!(build_action(&s, &c, &r, &settings(), MAX).is_err());
}

#[test]
fn a_s11_generated_dice_cap_stops_and_counts_as_success() {
    let spec = ad_hoc(1, 6, 0, 5);
    let r = roll(&spec, &mut AllTens);
    assert!(r.cap_hit);
    assert_eq!(r.bonus_dice(), GENERATED_DICE_CAP);
    assert_eq!(r.bonus[0].len(), 5);
    assert!(r.outcome.is_success());
    let events = super::willpower::roll_events(&r);
    assert!(events.contains(&Event::BonusCapReached { generated: 2000 }));
    assert!(r.summary().contains("stopped at the 2000-dice cap"));
    // When success is impossible (difficulty past 10), the cap does not make one.
    let mut hopeless = spec.clone();
    hopeless.difficulty = 11;
    let r = resolve(&hopeless, faces(&[10]), vec![vec![10; 5]], true);
    assert_eq!(r.outcome, Outcome::Failure);
}

#[test]
fn a_s11_cap_is_too_rare_to_move_the_odds() {
    let p = bonus_dice_at_least(100, 5, BonusDicePerTen::PerSpecialty, 2000);
    assert!(p < 1e-30, "P(cap) = {p:e}");
    assert!(p > 0.0);
}

#[test]
fn a_s12_aliases_abbreviations_and_prefixes() {
    let c = cat();
    let name = |s: &str| c.resolve(s).unwrap().name;
    assert_eq!(name("str"), "Strength");
    assert_eq!(name("STR"), "Strength");
    assert_eq!(name("Brawling"), "Melee");
    assert_eq!(name("drive"), "Driving");
    assert_eq!(name("Artistry"), "Crafting");
    assert_eq!(name("heavy-weapons"), "Heavy Weapons");
    assert_eq!(name("computer systems"), "Computer Systems");
    assert_eq!(name("alert"), "Alertness");
    assert_eq!(name("per"), "Perception");
    assert_eq!(name("pre"), "Precision");
    let err = c.resolve("stre").unwrap_err();
    assert_eq!(
        err.message,
        "`stre` could mean Strength or Streetwise; say which."
    );
    let err = c.resolve("Charisma").unwrap_err();
    assert_eq!(err.message, "There is no trait called `Charisma`.");
    assert!(c.resolve("st").is_err(), "prefixes need three letters");
}

#[test]
fn a_s12_custom_traits_and_aliases_from_settings() {
    let mut st = settings();
    st.set("st_custom_traits", "Charisma:attribute, Hacking:skill")
        .unwrap();
    st.set("st_trait_aliases", "cha=Charisma, hack=Hacking")
        .unwrap();
    let c = st.catalog();
    let mut s = sheet();
    s.set_trait(&c, "cha", 3).unwrap();
    let spec = build_action(&s, &c, &req(&["Charisma", "hack"]), &st, MAX).unwrap();
    assert_eq!(spec.dice, 3);
    assert_eq!(spec.difficulty, 7, "Hacking is a skill at 0 dots");
    let err = st.set("st_custom_traits", "Brawling:talent").unwrap_err();
    assert_eq!(err.message, "`Brawling` is already a trait or an alias. (Custom aliases must keep pointing at existing traits.)");
    let err = st.set("st_custom_traits", "none").unwrap_err();
    assert!(err.message.contains("Charisma"), "{}", err.message);
    let err = st.set("st_trait_aliases", "x=Nothing").unwrap_err();
    assert_eq!(
        err.message,
        "An alias must point at a trait, and `Nothing` is not one."
    );
    st.set("st_trait_aliases", "none").unwrap();
    st.set("st_custom_traits", "none").unwrap();
    assert_eq!(st, settings());
}

#[test]
fn a_s12_sheet_only_custom_trait() {
    let c = cat();
    let mut s = sheet();
    s.add_custom_trait(&c, "Xenology", TraitKind::Knowledge)
        .unwrap();
    s.set_trait(&c, "xeno", 2).unwrap();
    let spec = build_action(
        &s,
        &c,
        &req(&["Intelligence", "Xenology"]),
        &settings(),
        MAX,
    )
    .unwrap();
    assert_eq!(spec.dice, 4);
    assert!(s.add_custom_trait(&c, "Melee", TraitKind::Talent).is_err());
}

// ------------------------------------------------------------------ settings

#[test]
fn settings_defaults_follow_section_6() {
    let st = settings();
    assert_eq!(st.st_default_difficulty, 6);
    assert_eq!(st.st_zero_pool, ZeroPool::AutoFail);
    assert!(!st.st_clamp_difficulty_high);
    assert_eq!(st.st_bonus_dice_per_ten, BonusDicePerTen::PerSpecialty);
    assert_eq!(st.st_unskilled_knowledge_penalty, 1);
    let d = st.describe();
    let names: Vec<&str> = d.iter().map(|i| i.name).collect();
    assert_eq!(names, super::settings::SETTING_NAMES.to_vec());
    assert_eq!(d[0].value, "6");
    assert_eq!(d[4].value, "+1");
    assert_eq!(d[5].value, "none");
    let json = serde_json::to_string(&st).unwrap();
    assert_eq!(
        serde_json::from_str::<StorytellerSettings>(&json).unwrap(),
        st
    );
    assert_eq!(
        serde_json::from_str::<StorytellerSettings>("{}").unwrap(),
        st,
        "missing fields take defaults"
    );
    st.validate().unwrap();
}

#[test]
fn settings_set_validates_and_names_allowed_values() {
    let mut st = settings();
    let before = st.clone();
    let cases = [
        (
            "st_default_difficulty",
            "11",
            "st_default_difficulty must be a whole number from 2 to 10.",
        ),
        (
            "st_default_difficulty",
            "1",
            "st_default_difficulty must be a whole number from 2 to 10.",
        ),
        (
            "st_zero_pool",
            "maybe",
            "st_zero_pool must be auto_fail or chance_die.",
        ),
        (
            "st_clamp_difficulty_high",
            "perhaps",
            "st_clamp_difficulty_high must be on or off.",
        ),
        (
            "st_bonus_dice_per_ten",
            "two",
            "st_bonus_dice_per_ten must be per_specialty or one.",
        ),
        (
            "st_unskilled_knowledge_penalty",
            "+9",
            "st_unskilled_knowledge_penalty must be +N difficulty, with N from 0 to 8.",
        ),
    ];
    for (name, value, msg) in cases {
        assert_eq!(st.set(name, value).unwrap_err().message, msg);
    }
    assert!(st
        .set("nope", "1")
        .unwrap_err()
        .message
        .starts_with("There is no Storyteller setting called `nope`"));
    assert_eq!(st, before);
    st.set("st_unskilled_knowledge_penalty", "+2 difficulty")
        .unwrap();
    assert_eq!(st.st_unskilled_knowledge_penalty, 2);
    st.set("st_clamp_difficulty_high", "ON").unwrap();
    assert!(st.st_clamp_difficulty_high);
    assert_eq!(st.describe()[2].value, "on");
}

// ---------------------------------------------------------------- exact odds

fn close(a: f64, b: f64, tol: f64) -> bool {
    (a - b).abs() <= tol
}

fn pct(x: f64) -> String {
    format!("{:.2}", x * 100.0)
}

#[test]
fn section_7_table_pool_5_difficulty_6_reproduced_cell_by_cell() {
    let rows = [
        ((0, 0), ["84.40", "10.42", "5.18"]),
        ((2, 0), ["38.75", "33.42", "27.83"]),
        ((0, 1), ["85.64", "9.47", "4.88"]),
        ((2, 1), ["44.98", "29.96", "25.06"]),
    ];
    for ((t, s), want) in rows {
        let o = roll_odds(5, 6, t, s);
        assert_eq!(
            [pct(o.success), pct(o.failure), pct(o.botch)],
            want,
            "T{t} s{s}"
        );
    }
}

#[test]
fn odds_cli_example_threshold_two_success_is_0_3875() {
    // `kismet odds st --pool 5 --difficulty 6 --threshold 2`
    let o = roll_odds(5, 6, 2, 0);
    assert!(close(o.success, 0.3875, 1e-15), "{}", o.success);
    assert!(close(o.failure, 0.33424, 1e-15));
    assert!(close(o.botch, 0.27826, 1e-15));
}

#[test]
fn odds_match_exact_rationals_within_1e_12() {
    // Exact values from rational arithmetic (Python fractions), rounded to f64.
    type Case = ((u32, u32, u32, u32), [f64; 3]);
    let cases: [Case; 6] = [
        ((5, 6, 2, 1), [0.44983234025, 0.29960881225, 0.2505588475]),
        (
            (10, 8, 2, 5),
            [0.6226969907136537, 0.14804076901672428, 0.22926224026962203],
        ),
        (
            (7, 10, 1, 3),
            [0.18077544799577774, 0.3968404647773256, 0.4223840872268967],
        ),
        ((3, 2, 0, 1), [0.97227, 0.00243, 0.0253]),
        (
            (30, 6, 0, 5),
            [
                0.999703376256349,
                0.00016411973489698366,
                0.00013250400875407538,
            ],
        ),
        (
            (12, 7, 3, 1),
            [0.59665907345567, 0.1566103086873248, 0.24673061785700515],
        ),
    ];
    for ((n, d, t, k), [s, f, b]) in cases {
        let o = roll_odds_per_ten(n, d, t, k);
        assert!(close(o.success, s, 1e-12), "{n} {d} {t} {k}: {o:?}");
        assert!(close(o.failure, f, 1e-12), "{n} {d} {t} {k}: {o:?}");
        assert!(close(o.botch, b, 1e-12), "{n} {d} {t} {k}: {o:?}");
    }
}

/// An independent check: push probability mass through the bonus chains one
/// die at a time (state: pending bonus dice, successes so far capped, base
/// botches) until less than 1e-15 is still pending.
fn odds_by_mass_pushing(n: usize, d: u32, t: usize, k: usize) -> Outcome3 {
    let cap = t + n + 1; // successes above t + n all count as "more"
    let max_pending = 600;
    let p = f64::from(10 - d) / 10.0;
    let q = f64::from(d - 1) / 10.0;
    let idx = |pending: usize, s: usize, b: usize| (pending * (cap + 1) + s) * (n + 1) + b;
    let mut m = vec![0.0f64; (max_pending + 1) * (cap + 1) * (n + 1)];
    m[idx(0, 0, 0)] = 1.0;
    // Base dice: state (tens so far as pending/k, s, b).
    for _ in 0..n {
        let mut next = vec![0.0f64; m.len()];
        for pending in 0..=max_pending {
            for s in 0..=cap {
                for b in 0..=n {
                    let x = m[idx(pending, s, b)];
                    if x == 0.0 {
                        continue;
                    }
                    let s1 = (s + 1).min(cap);
                    next[idx((pending + k).min(max_pending), s1, b)] += 0.1 * x;
                    next[idx(pending, s1, b)] += p * x;
                    next[idx(pending, s, b)] += (f64::from(d) - 2.0) / 10.0 * x;
                    next[idx(pending, s, (b + 1).min(n))] += 0.1 * x;
                }
            }
        }
        m = next;
    }
    // Bonus dice: every state with pending dice rolls one.
    loop {
        let mut pending_mass = 0.0;
        let mut next = vec![0.0f64; m.len()];
        for pending in 0..=max_pending {
            for s in 0..=cap {
                for b in 0..=n {
                    let x = m[idx(pending, s, b)];
                    if x == 0.0 {
                        continue;
                    }
                    if pending == 0 {
                        next[idx(0, s, b)] += x;
                        continue;
                    }
                    pending_mass += x;
                    let s1 = (s + 1).min(cap);
                    next[idx((pending - 1 + k).min(max_pending), s1, b)] += 0.1 * x;
                    next[idx(pending - 1, s1, b)] += p * x;
                    next[idx(pending - 1, s, b)] += q * x;
                }
            }
        }
        m = next;
        if pending_mass < 1e-15 {
            break;
        }
    }
    let mut o = Outcome3 {
        success: 0.0,
        failure: 0.0,
        botch: 0.0,
    };
    for s in 0..=cap {
        for b in 0..=n {
            let x: f64 = (0..=max_pending).map(|pd| m[idx(pd, s, b)]).sum();
            let net = s.saturating_sub(t) as i64 - b as i64;
            match net.cmp(&0) {
                std::cmp::Ordering::Greater => o.success += x,
                std::cmp::Ordering::Equal => o.failure += x,
                std::cmp::Ordering::Less => o.botch += x,
            }
        }
    }
    o
}

#[test]
fn odds_agree_with_an_independent_mass_pushing_computation() {
    for (n, d, t, k) in [
        (5usize, 6u32, 2usize, 1usize),
        (4, 8, 1, 5),
        (6, 10, 0, 3),
        (3, 2, 2, 2),
        (8, 7, 0, 4),
        (2, 9, 1, 0),
    ] {
        let a = roll_odds_per_ten(n as u32, d, t as u32, k as u32);
        let b = odds_by_mass_pushing(n, d, t, k);
        for (x, y) in [
            (a.success, b.success),
            (a.failure, b.failure),
            (a.botch, b.botch),
        ] {
            assert!(close(x, y, 1e-12), "{n} {d} {t} {k}: {a:?} vs {b:?}");
        }
    }
}

#[test]
fn odds_without_specialties_match_brute_force_enumeration() {
    for n in 1..=4u32 {
        for d in [2u32, 5, 6, 9, 10] {
            for t in 0..=2u32 {
                let mut counts = [0u64; 3];
                let total = 10u64.pow(n);
                for code in 0..total {
                    let mut c = code;
                    let (mut s, mut b) = (0i64, 0i64);
                    for _ in 0..n {
                        let face = (c % 10) as u32 + 1;
                        c /= 10;
                        if face == 1 {
                            b += 1;
                        } else if face >= d {
                            s += 1;
                        }
                    }
                    let net = (s - i64::from(t)).max(0) - b;
                    counts[if net > 0 {
                        0
                    } else if net == 0 {
                        1
                    } else {
                        2
                    }] += 1;
                }
                let o = roll_odds(n, d, t, 0);
                let exact = counts.map(|c| c as f64 / total as f64);
                assert!(close(o.success, exact[0], 1e-13), "{n} {d} {t}");
                assert!(close(o.failure, exact[1], 1e-13), "{n} {d} {t}");
                assert!(close(o.botch, exact[2], 1e-13), "{n} {d} {t}");
            }
        }
    }
}

#[test]
fn odds_sum_to_one_everywhere() {
    for n in [1u32, 2, 5, 10, 25, 50] {
        for d in 2..=11u32 {
            for t in [0u32, 1, 3, 10] {
                for s in 0..=5u32 {
                    let o = roll_odds(n, d, t, s);
                    let sum = o.success + o.failure + o.botch;
                    assert!(close(sum, 1.0, 1e-12), "{n} {d} {t} {s}: {sum}");
                    assert!(o.success >= 0.0 && o.failure >= 0.0 && o.botch >= 0.0);
                }
            }
        }
    }
}

#[test]
fn odds_of_a_built_spec_follow_its_settings() {
    let mut st = settings();
    st.set("st_bonus_dice_per_ten", "one").unwrap();
    let spec = build_ad_hoc(
        &AdHocRequest {
            dice: 5,
            difficulty: Some(6),
            threshold: 0,
            specialties: 2,
        },
        &st,
        MAX,
    )
    .unwrap();
    assert_eq!(pct(spec_odds(&spec).success), "85.64");
    assert_eq!(pct(spec_odds(&ad_hoc(5, 6, 0, 2)).success), "86.39");
}

#[test]
fn section_1_7_bonus_dice_figures_for_five_specialties_on_ten_dice() {
    let per = BonusDicePerTen::PerSpecialty;
    let p50 = bonus_dice_at_least(10, 5, per, 50);
    let p200 = bonus_dice_at_least(10, 5, per, 200);
    let p1000 = bonus_dice_at_least(10, 5, per, 1000);
    assert_eq!(format!("{:.1}", p50 * 100.0), "2.4", "{p50}");
    assert!((6e-6..7e-6).contains(&p200), "about 6×10⁻⁶: {p200:e}");
    assert_eq!(format!("{p1000:.1e}"), "2.5e-22");
    // The distribution function agrees with the tail function.
    let dist = bonus_dice_distribution(10, 5, per, 250);
    let below_50: f64 = dist[..50].iter().sum();
    assert!(close(1.0 - below_50, p50, 1e-13));
    let below_200: f64 = dist[..200].iter().sum();
    assert!(close(1.0 - below_200, p200, 1e-13));
    assert!(dist
        .iter()
        .enumerate()
        .all(|(i, &p)| i % 5 == 0 || p == 0.0));
    assert!(close(dist[0], 0.9f64.powi(10), 1e-15));
    // Mean bonus dice: each die spawns 0.5 on average, so 10 dice make 10 bonus dice.
    let long = bonus_dice_distribution(10, 5, per, 4000);
    let mean: f64 = long.iter().enumerate().map(|(i, p)| i as f64 * p).sum();
    assert!(close(mean, 10.0, 1e-9), "{mean}");
    assert_eq!(bonus_dice_at_least(10, 0, per, 1), 0.0);
}

#[test]
fn odds_at_the_largest_pools_are_fast() {
    use std::time::Instant;
    let start = Instant::now();
    let runs = 20;
    let mut acc = 0.0;
    for _ in 0..runs {
        acc += roll_odds(50, 6, 0, 5).success;
    }
    let per_call = start.elapsed() / runs;
    assert!(acc > 0.0);
    eprintln!("roll_odds(50, 6, 0, 5): {per_call:?} per call (this build)");
    // Unoptimised test builds are ~20x slower than release; this bound only
    // catches an algorithmic regression.
    assert!(per_call.as_millis() < 50, "{per_call:?}");
}

#[test]
fn statistical_check_of_real_rolls_against_exact_odds() {
    for (n, d, t, s, seed) in [(5u32, 6u32, 1u32, 2u32, 2024u64), (10, 8, 2, 5, 7)] {
        let spec = ad_hoc(n, d, t, s);
        let exact = spec_odds(&spec);
        let trials = 100_000u32;
        let mut r = rng(seed);
        let mut counts = [0u32; 3];
        for _ in 0..trials {
            match roll(&spec, &mut r).outcome {
                Outcome::Success { .. } => counts[0] += 1,
                Outcome::Failure => counts[1] += 1,
                Outcome::Botch { .. } => counts[2] += 1,
            }
        }
        for (c, p) in counts
            .iter()
            .zip([exact.success, exact.failure, exact.botch])
        {
            let freq = f64::from(*c) / f64::from(trials);
            let sigma = (p * (1.0 - p) / f64::from(trials)).sqrt();
            assert!(
                (freq - p).abs() < 5.0 * sigma,
                "{n}d{d} T{t} s{s}: {freq} vs {p} (sigma {sigma})"
            );
        }
    }
}

#[test]
fn outcome3_is_serde() {
    let o = roll_odds(5, 6, 0, 0);
    let json = serde_json::to_string(&o).unwrap();
    assert!(json.contains("\"success\""));
    let back: Outcome3 = serde_json::from_str(&json).unwrap();
    assert!(close(back.success, o.success, 1e-15));
    assert!(close(back.failure, o.failure, 1e-15));
    assert!(close(back.botch, o.botch, 1e-15));
}
