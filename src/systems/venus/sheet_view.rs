//! The character sheet as an embed: abilities with rank colours, each job
//! with its exp bar (`▰▰▰▱▱▱ 3/6`, 16 pips while learning), Lots as pips,
//! Ego held or not, tier, the free-text lists, insights and special
//! consequences; tier warnings in the footer.

use super::format::{ego_text, exp_bar, fields_of, lot_pips, rank_mark};
use crate::app::view::{colour, Embed};
use crate::rules::venus::sheet::{AttributeKind, Job};
use crate::rules::venus::{VenusSettings, VenusSheet};

/// Every free-text list with its heading, in display order.
pub const ATTRIBUTE_LISTS: [(AttributeKind, &str); 7] = [
    (AttributeKind::Asset, "Assets"),
    (AttributeKind::Feature, "Features"),
    (AttributeKind::Merit, "Merits"),
    (AttributeKind::Discipline, "Disciplines"),
    (AttributeKind::Specialty, "Specialties"),
    (AttributeKind::Lifepath, "Lifepaths"),
    (AttributeKind::Principle, "Principles"),
];

/// The singular name of an attribute kind ("Asset", "Specialty").
pub fn singular(kind: AttributeKind) -> &'static str {
    match kind {
        AttributeKind::Asset => "Asset",
        AttributeKind::Feature => "Feature",
        AttributeKind::Merit => "Merit",
        AttributeKind::Discipline => "Discipline",
        AttributeKind::Specialty => "Specialty",
        AttributeKind::Lifepath => "Lifepath",
        AttributeKind::Principle => "Principle",
    }
}

/// One job as a line: name, level or learning, exp bar, inherited abilities.
pub fn job_line(name: &str, job: &Job, settings: &VenusSettings) -> String {
    let bar = exp_bar(job.exp, VenusSheet::exp_needed(job, settings));
    let level = if job.learning || job.level == 0 {
        "learning".to_string()
    } else {
        format!("level {}", job.level)
    };
    let mut s = format!("**{name}** · {level} · {bar} · {}", job.inherits.join(", "));
    if !job.qualifications_met {
        s.push_str(" · ⛔ qualifications unmet: no exp");
    }
    s
}

/// The sheet's embed. `owner` is the member who plays it.
pub fn embed(
    name: &str,
    owner: i64,
    active: bool,
    sheet: &VenusSheet,
    settings: &VenusSettings,
) -> Embed {
    let mut desc = format!(
        "<@{owner}>'s character · Venus Engine, edition {}",
        settings.ve_edition
    );
    if active {
        desc.push_str(" · active");
    }
    let mut e = Embed::new(format!("📜 {name}"))
        .description(desc)
        .colour(colour::NEUTRAL)
        .field("Lots", lot_pips(sheet.lots), true)
        .field("Ego", ego_text(sheet.ego), true);
    if let Some(t) = sheet.tier {
        e = e.field("Tier", t.name(), true);
    }
    let abilities: Vec<String> = sheet
        .abilities
        .iter()
        .map(|(n, a)| format!("{} **{n}** — {} {}", rank_mark(a.rank), a.rank, a.score))
        .collect();
    if abilities.is_empty() {
        e = e.field("Abilities", "none yet: `/ve sheet ability`", false);
    }
    for (title, value) in fields_of("Abilities", &abilities, 3) {
        e = e.field(title, value, false);
    }
    let jobs: Vec<String> = sheet
        .jobs
        .iter()
        .map(|(n, j)| job_line(n, j, settings))
        .collect();
    if jobs.is_empty() {
        e = e.field("Jobs", "none yet: `/ve sheet job`", false);
    }
    for (title, value) in fields_of("Jobs", &jobs, 4) {
        e = e.field(title, value, false);
    }
    for (kind, heading) in ATTRIBUTE_LISTS {
        let list = sheet.attributes.list(kind);
        let lines: Vec<String> = list
            .iter()
            .enumerate()
            .map(|(i, t)| format!("{}. {t}", i + 1))
            .collect();
        for (title, value) in fields_of(heading, &lines, 1) {
            e = e.field(title, value, false);
        }
    }
    let insights: Vec<String> = sheet
        .insights
        .iter()
        .map(|i| format!("#{} {}{}", i.id, i.text, if i.approved { " ✔" } else { "" }))
        .collect();
    for (title, value) in fields_of("Insights", &insights, 2) {
        e = e.field(title, value, false);
    }
    let special: Vec<String> = sheet
        .custom_consequences
        .iter()
        .enumerate()
        .map(|(i, t)| format!("{}. {t}", i + 1))
        .collect();
    for (title, value) in fields_of("Special consequences", &special, 1) {
        e = e.field(title, value, false);
    }
    let warnings = sheet.tier_warnings();
    if !warnings.is_empty() {
        e = e.footer(format!("⚠ {}", warnings.join(" ")));
    }
    e
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::venus::{Edition, Rank};

    #[test]
    fn the_sheet_shows_exp_bars_lots_pips_and_ego() {
        let set = VenusSettings {
            ve_edition: Edition::One,
            ..VenusSettings::default()
        };
        let mut s = VenusSheet::new("Ada", &set).unwrap();
        s.set_ability("Finesse", Rank::Gold, 4, &set).unwrap();
        s.set_ability("Wits", Rank::Silver, 3, &set).unwrap();
        s.add_job("Thief", &["Finesse".into(), "Wits".into()], 3)
            .unwrap();
        s.set_job_exp("Thief", 2).unwrap();
        s.start_learning("Sailor", &["Wits".into()]).unwrap();
        s.set_job_exp("Sailor", 3).unwrap();
        s.lots = 7;
        let e = embed("Ada", 42, true, &s, &set);
        let field = |n: &str| {
            e.fields
                .iter()
                .find(|f| f.name == n)
                .map(|f| f.value.clone())
                .unwrap()
        };
        assert_eq!(field("Lots"), "●●●●●●●○○○ 7/10");
        assert_eq!(field("Ego"), "not held");
        let jobs = field("Jobs");
        assert!(
            jobs.contains("**Thief** · level 3 · ▰▰▱▱▱▱ 2/6 · Finesse, Wits"),
            "{jobs}"
        );
        assert!(
            jobs.contains(&format!(
                "**Sailor** · learning · ▰▰▰{} 3/16",
                "▱".repeat(13)
            )),
            "{jobs}"
        );
        assert!(field("Abilities").contains("🟡 **Finesse** — Gold 4"));
    }
}
