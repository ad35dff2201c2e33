//! How a Storyteller sheet looks: attributes, the abilities by category
//! (0-dot ones listed compactly), specialties, willpower, the wound
//! penalty and the willpower flags. Pure; every field stays under Discord's
//! limits however many custom traits and specialties a sheet holds.

use crate::app::view::{clean, colour, escape, Embed};
use crate::rules::storyteller::sheet::{Ability, SpecialtyType, Willpower};
use crate::rules::storyteller::{Category, StorytellerSheet};

/// Characters one field may use (Discord allows 1024).
const FIELD_BUDGET: usize = 1000;
/// Characters of specialties listed per ability before "+N more".
const SPECIALTY_BUDGET: usize = 160;

/// `n` of 5 dots, e.g. `●●●○○`.
pub fn dots(n: u8) -> String {
    let n = usize::from(n.min(5));
    format!("{}{}", "●".repeat(n), "○".repeat(5 - n))
}

/// Willpower as boxes, e.g. `■■■■□□□ 4/7`.
pub fn willpower_track(w: Willpower) -> String {
    let Willpower { current, permanent } = w;
    let p = usize::from(permanent.min(10));
    let c = usize::from(current).min(p);
    format!(
        "{}{} {current}/{permanent}",
        "■".repeat(c),
        "□".repeat(p - c)
    )
}

/// A change of willpower, e.g. `■■■□□□□ 3/7 → ■■■■□□□ 4/7`.
pub fn willpower_change(was: Willpower, now: Willpower) -> String {
    format!("{} → {}", willpower_track(was), willpower_track(now))
}

/// The wound penalty in words.
pub fn wound_text(dice: u8, difficulty: u8) -> String {
    match (dice, difficulty) {
        (0, 0) => "none".to_string(),
        (d, 0) => format!("−{}", count(u32::from(d), "die", "dice")),
        (0, f) => format!("+{f} difficulty"),
        (d, f) => format!("−{}, +{f} difficulty", count(u32::from(d), "die", "dice")),
    }
}

/// `n` and what it counts (the shared [`crate::app::view::count`]).
pub use crate::app::view::count;

/// Joins lines within `budget` characters, "…and N more" on its own line
/// for those left out; "—" for no lines.
pub fn fit(lines: &[String], budget: usize) -> String {
    let text = crate::app::view::join_capped(lines, budget);
    if text.is_empty() {
        "—".to_string()
    } else {
        text
    }
}

fn specialty_list(a: &Ability) -> String {
    let mut out = String::new();
    for (i, s) in a.specialties.iter().enumerate() {
        let item = match s.kind {
            SpecialtyType::Advanced => format!("{} (adv.)", escape(&s.name)),
            SpecialtyType::General => escape(&s.name),
        };
        let sep = if out.is_empty() { "" } else { ", " };
        if out.chars().count() + sep.len() + item.chars().count() > SPECIALTY_BUDGET {
            out.push_str(&format!(" +{} more", a.specialties.len() - i));
            return out;
        }
        out.push_str(sep);
        out.push_str(&item);
    }
    out
}

fn category_field(sheet: &StorytellerSheet, category: Category) -> String {
    let mut lines = Vec::new();
    let mut zero = Vec::new();
    for a in sheet.abilities().iter().filter(|a| a.category == category) {
        if a.dots == 0 {
            zero.push(escape(&a.name));
        } else {
            lines.push(format!("{} {}", escape(&a.name), dots(a.dots)));
        }
    }
    if !zero.is_empty() {
        lines.push(format!("*0 dots:* {}", zero.join(", ")));
    }
    fit(&lines, FIELD_BUDGET)
}

/// The status lines: incapacitation and the willpower-for-wounds flags.
pub fn status_lines(sheet: &StorytellerSheet) -> Vec<String> {
    let mut out = Vec::new();
    if sheet.incapacitated() {
        out.push(
            "💤 **Incapacitated** (0 willpower): no actions, only passive self-preservation."
                .to_string(),
        );
    } else if sheet.incapacitation_deferred() {
        out.push("⚠️ Willpower is 0: incapacitated once the next action is done.".to_string());
    }
    if sheet.ignores_wounds_next_action() {
        out.push("🩹 The next action ignores the wound penalty.".to_string());
    } else if sheet.wp_wound_ignore_used_this_turn() {
        out.push(
            "Willpower was already spent to ignore wounds this turn (`/st turn` starts a new one)."
                .to_string(),
        );
    }
    out
}

/// The sheet as an embed, titled with the name without markdown.
pub fn sheet_embed(name: &str, owner_id: i64, sheet: &StorytellerSheet) -> Embed {
    let wp = sheet.willpower();
    let w = sheet.wound_penalty();
    let mut description = vec![
        format!("Player: <@{owner_id}>"),
        format!("**Willpower** {}", willpower_track(wp)),
        format!("**Wound penalty** {}", wound_text(w.dice, w.difficulty)),
    ];
    description.extend(status_lines(sheet));
    let attributes: Vec<String> = sheet
        .attributes()
        .iter()
        .map(|a| format!("{} {}", escape(&a.name), dots(a.dots)))
        .collect();
    let specialties: Vec<String> = sheet
        .abilities()
        .iter()
        .filter(|a| !a.specialties.is_empty())
        .map(|a| format!("**{}**: {}", escape(&a.name), specialty_list(a)))
        .collect();
    let colour_now = if sheet.incapacitated() {
        colour::FAILURE
    } else {
        colour::NEUTRAL
    };
    let mut e = Embed::new(format!("📜 {}", clean(name)))
        .description(description.join("\n"))
        .colour(colour_now)
        .field("Attributes", fit(&attributes, FIELD_BUDGET), true);
    // One field per ability category, named in the plural: Talents, Skills,
    // Knowledges.
    for c in [Category::Talent, Category::Skill, Category::Knowledge] {
        e = e.field(format!("{}s", c.name()), category_field(sheet, c), true);
    }
    if !specialties.is_empty() {
        e = e.field("Specialties", fit(&specialties, FIELD_BUDGET), false);
    }
    e.footer(LEGEND)
}

/// The sheet card's legend, shown by `/st sheet show` only (issue 16:
/// legends live in `/help` and the sheet).
pub const LEGEND: &str =
    "At 0 dots: a talent rolls the attribute alone; a skill does too, at difficulty +1; \
         a knowledge only with figure_it_out.";

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::storyteller::{TraitCatalog, TraitKind};

    #[test]
    fn dots_and_tracks() {
        assert_eq!(dots(3), "●●●○○");
        assert_eq!(dots(0), "○○○○○");
        let w = Willpower {
            current: 4,
            permanent: 7,
        };
        assert_eq!(willpower_track(w), "■■■■□□□ 4/7");
        assert_eq!(wound_text(1, 0), "−1 die");
        assert_eq!(wound_text(2, 1), "−2 dice, +1 difficulty");
        assert_eq!(wound_text(0, 0), "none");
        assert_eq!(count(1, "die", "dice"), "1 die");
        assert_eq!(count(0, "success", "successes"), "0 successes");
    }

    #[test]
    fn fit_says_how_many_were_left_out() {
        let lines: Vec<String> = (0..100).map(|i| format!("line number {i}")).collect();
        let s = fit(&lines, 100);
        assert!(s.chars().count() <= 100, "{s}");
        assert!(s.ends_with("more"), "{s}");
        assert_eq!(fit(&[], 100), "—");
    }

    #[test]
    fn a_crowded_sheet_stays_within_discord_limits() {
        let cat = TraitCatalog::canonical();
        let mut s = StorytellerSheet::new(7).unwrap();
        for i in 0..20 {
            let name = format!("Very Long Custom Ability Number {i:02}");
            s.add_custom_trait(&cat, &name, TraitKind::Talent).unwrap();
            s.set_trait(&cat, &name, 3).unwrap();
        }
        s.set_trait(&cat, "Alertness", 5).unwrap();
        for i in 0..20 {
            s.add_specialty(
                &cat,
                "Alertness",
                &format!("A rather long specialty {i:02}"),
                None,
            )
            .unwrap();
        }
        let e = sheet_embed("Ada", 1, &s);
        for f in &e.fields {
            assert!(f.value.chars().count() <= 1024, "{}", f.name);
        }
        let total: usize = e.title.chars().count()
            + e.description.as_deref().unwrap_or("").chars().count()
            + e.footer.as_deref().unwrap_or("").chars().count()
            + e.fields
                .iter()
                .map(|f| f.name.chars().count() + f.value.chars().count())
                .sum::<usize>();
        assert!(total <= 6000, "{total}");
    }
}
