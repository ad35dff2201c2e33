//! The character sheet as an embed: abilities with rank colours, each job
//! with its exp bar (`▰▰▰▱▱▱ 3/6`, 16 pips while learning), Lots as pips,
//! Ego held or not, tier, the free-text lists, insights and special
//! consequences; tier warnings in the footer.

use super::format::{ego_text, exp_bar, fields_within, level_text, lot_pips, rank_mark, Room};
use crate::app::view::{clean, colour, escape, limits, Embed};
use crate::rules::venus::sheet::{AttributeKind, Job};
use crate::rules::venus::{VenusSettings, VenusSheet};

/// Every free-text list: its kind, one entry's name ("Specialty") and its
/// heading, in display order.
pub const ATTRIBUTE_LISTS: [(AttributeKind, &str, &str); 7] = [
    (AttributeKind::Asset, "Asset", "Assets"),
    (AttributeKind::Feature, "Feature", "Features"),
    (AttributeKind::Merit, "Merit", "Merits"),
    (AttributeKind::Discipline, "Discipline", "Disciplines"),
    (AttributeKind::Specialty, "Specialty", "Specialties"),
    (AttributeKind::Lifepath, "Lifepath", "Lifepaths"),
    (AttributeKind::Principle, "Principle", "Principles"),
];

/// One job as a line: name, level or learning, exp bar, inherited abilities.
pub fn job_line(name: &str, job: &Job, settings: &VenusSettings) -> String {
    let bar = exp_bar(job.exp, VenusSheet::exp_needed(job, settings));
    let level = level_text(job.level, job.learning);
    let inherits: Vec<String> = job.inherits.iter().map(|a| escape(a)).collect();
    let mut s = format!(
        "**{}** · {level} · {bar} · {}",
        escape(name),
        inherits.join(", ")
    );
    if !job.qualifications_met {
        s.push_str(" · ⛔ qualifications unmet: no exp");
    }
    s
}

/// The sheet's embed, titled with the name without markdown. `owner` is
/// the member who plays it.
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
    let mut e = Embed::new(format!("📜 {}", clean(name)))
        .description(desc)
        .colour(colour::NEUTRAL)
        .field("Lots", lot_pips(sheet.lots), true)
        .field("Ego", ego_text(sheet.ego), true);
    if let Some(t) = sheet.tier {
        e = e.field("Tier", t.name(), true);
    }
    let warnings = sheet.tier_warnings();
    if !warnings.is_empty() {
        e = e.footer(format!("⚠ {}", warnings.join(" ")));
    }
    // Every section gets its place within Discord's limits for the whole
    // embed: what does not fit is counted ("… and N more"), never dropped
    // unsaid. Each later section keeps room for at least its heading.
    let sections = sections(sheet, settings);
    let mut room = Room {
        chars: limits::EMBED_TOTAL.saturating_sub(e.text_len()),
        fields: limits::FIELDS.saturating_sub(e.fields.len()),
    };
    for (i, (heading, lines, max_fields)) in sections.iter().enumerate() {
        let rest = &sections[i + 1..];
        let later = Room {
            chars: rest.iter().map(|(h, _, _)| Room::least(h).chars).sum(),
            fields: rest.len(),
        };
        let mut mine = room.less(later);
        let before = mine;
        let fields = fields_within(heading, lines, *max_fields, &mut mine);
        room = room.less(before.less(mine));
        for (title, value) in fields {
            e = e.field(title, value, false);
        }
    }
    e
}

/// The sheet's sections after its header: (heading, lines, most fields).
fn sections(
    sheet: &VenusSheet,
    settings: &VenusSettings,
) -> Vec<(&'static str, Vec<String>, usize)> {
    // An empty list of abilities or jobs says how to add one.
    let or_hint = |lines: Vec<String>, hint: &str| {
        if lines.is_empty() {
            vec![hint.to_string()]
        } else {
            lines
        }
    };
    let numbered = |list: &[String]| -> Vec<String> {
        list.iter()
            .enumerate()
            .map(|(i, t)| format!("{}. {}", i + 1, escape(t)))
            .collect()
    };
    let abilities: Vec<String> = sheet
        .abilities
        .iter()
        .map(|(n, a)| {
            let n = escape(n);
            format!("{} **{n}** — {} {}", rank_mark(a.rank), a.rank, a.score)
        })
        .collect();
    let jobs: Vec<String> = sheet
        .jobs
        .iter()
        .map(|(n, j)| job_line(n, j, settings))
        .collect();
    let mut out = vec![
        (
            "Abilities",
            or_hint(abilities, "none yet: `/ve sheet ability`"),
            3,
        ),
        ("Jobs", or_hint(jobs, "none yet: `/ve sheet job`"), 4),
    ];
    for (kind, _, heading) in ATTRIBUTE_LISTS {
        out.push((heading, numbered(sheet.attributes.list(kind)), 1));
    }
    let insights: Vec<String> = sheet
        .insights
        .iter()
        .map(|i| {
            let mark = if i.approved { " ✔" } else { "" };
            format!("#{} {}{mark}", i.id, escape(&i.text))
        })
        .collect();
    out.push(("Insights", insights, 2));
    out.push((
        "Special consequences",
        numbered(&sheet.custom_consequences),
        1,
    ));
    out.retain(|(_, lines, _)| !lines.is_empty());
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::venus::{Edition, Rank};

    /// What a player typed (names, notes, insights, consequences) shows as
    /// typed: a `*` or `_` neither vanishes nor runs into the sheet's bold.
    #[test]
    fn typed_names_and_notes_show_as_typed() {
        let set = VenusSettings::default();
        let mut s = VenusSheet::new("Ada", &set).unwrap();
        s.set_ability("Fin*esse", Rank::Gold, 4, &set).unwrap();
        s.add_job("Cut_purse", &["Fin*esse".into()], 1).unwrap();
        s.add_attribute(AttributeKind::Asset, "Key to room_5")
            .unwrap();
        s.add_insight("2*3 is **six**", true).unwrap();
        s.add_custom_consequence("Lose a ~~friend~~").unwrap();
        let e = embed("Ada", 42, true, &s, &set);
        let field = |n: &str| e.fields.iter().find(|f| f.name == n).unwrap().value.clone();
        assert_eq!(field("Abilities"), r"🟡 **Fin\*esse** — Gold 4");
        assert!(
            field("Jobs").starts_with(r"**Cut\_purse** · level 1 · "),
            "{}",
            field("Jobs")
        );
        assert!(
            field("Jobs").ends_with(r" · Fin\*esse"),
            "{}",
            field("Jobs")
        );
        assert_eq!(field("Assets"), r"1. Key to room\_5");
        assert_eq!(field("Insights"), r"#1 2\*3 is \*\*six\*\* ✔");
        assert_eq!(field("Special consequences"), r"1. Lose a \~\~friend\~\~");
    }

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

    /// How many entries a section shows and how many it says are left out
    /// ("… and N more"), over all its fields.
    fn shown_and_more(e: &Embed, heading: &str) -> (usize, usize) {
        let mut shown = 0;
        let mut more = 0;
        for f in e
            .fields
            .iter()
            .filter(|f| f.name == heading || f.name.starts_with(&format!("{heading} (")))
        {
            for line in f.value.lines() {
                match line.strip_prefix("… and ") {
                    Some(n) => more += n.trim_end_matches(" more").parse::<usize>().unwrap(),
                    None => shown += 1,
                }
            }
        }
        (shown, more)
    }

    #[test]
    fn a_sheet_past_the_embed_budget_says_how_many_more_instead_of_dropping_them() {
        let set = VenusSettings::default();
        let mut s = VenusSheet::new("Ada", &set).unwrap();
        let abilities: Vec<String> = (0..40)
            .map(|i| format!("Ability {i:02} {}", "a".repeat(40)))
            .collect();
        for a in &abilities {
            s.set_ability(a, Rank::Gold, 4, &set).unwrap();
        }
        for j in 0..60 {
            let name = format!("Job {j:02} {}", "j".repeat(50));
            s.add_job(&name, &abilities[..2], 3).unwrap();
        }
        for i in 0..30 {
            s.add_attribute(
                AttributeKind::Asset,
                &format!("Asset {i} {}", "s".repeat(150)),
            )
            .unwrap();
            s.add_attribute(AttributeKind::Specialty, &format!("Specialty {i}"))
                .unwrap();
            s.add_insight(&format!("Insight {i} {}", "i".repeat(100)), false)
                .unwrap();
        }
        let e = embed("Ada", 42, true, &s, &set);
        // Nothing is left for the last-resort clamp to drop or cut.
        let view = crate::app::view::View::embed(e.clone());
        assert_eq!(view.clone().clamp(), view);
        assert!(e.fields.len() <= 25);
        for (heading, total) in [
            ("Abilities", 40),
            ("Jobs", 60),
            ("Assets", 30),
            ("Specialties", 30),
            ("Insights", 30),
        ] {
            let (shown, more) = shown_and_more(&e, heading);
            assert_eq!(shown + more, total, "{heading}: {shown} shown, {more} more");
        }
        assert!(shown_and_more(&e, "Jobs").1 > 0, "the jobs did not all fit");
        assert!(
            shown_and_more(&e, "Insights").1 > 0,
            "the insights did not all fit"
        );
    }
}
