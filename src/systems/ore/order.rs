//! `/vv-gm order`: Outthink (Wit) or Initiative (Agility, Precision in
//! cosmOS) for several entities at once (VV-10), ranked with the tie-break
//! of `vv_tie_break` (A-O14), with the Call order or the Resolution order
//! (A-O15). For the Compiler; values are recorded on the sheets that took part.

use std::collections::BTreeSet;

use super::context::{checked, Outcome as Step, Turn};
use super::{decode, record, text, SYSTEM};
use crate::app::characters::{self, Loaded};
use crate::app::pipeline::Record;
use crate::app::view::{clean, truncate, Embed, View};
use crate::app::{App, AppError, AppResult, Caller, Response};
use crate::rules::ore::combat::{roll_order, Entrant, OrderKind, OrderRoll, TieBreakRecord};
use crate::rules::ore::settings::{InitiativeOrder, OreSettings};
use crate::rules::ore::sheet::World;
use crate::rules::ore::OreSheet;
use crate::storage::{self, Tx};
use crate::systems::table::look::Outcome;

/// The most entities one order roll takes here.
pub const MAX_ORDER: usize = 50;
/// The longest ad-hoc entity name.
const MAX_NAME: usize = 64;
/// Faces listed per entity up to this many dice.
const LIST_FACES: usize = 12;

/// One entity as typed.
struct Entry {
    name: String,
    sheet: Option<Loaded<OreSheet>>,
    entrant: Entrant,
    stat_name: &'static str,
}

/// Names joined by " → " in at most `max` characters, cut between names
/// (never inside one) with "…and N more".
fn chain(names: &[String], max: usize) -> String {
    let mut shown: Vec<String> = Vec::new();
    let mut len = 0usize;
    for n in names {
        len += n.chars().count() + if shown.is_empty() { 0 } else { 3 };
        if len > max.saturating_sub(24) {
            shown.push(format!("…and {} more", names.len() - shown.len()));
            break;
        }
        shown.push(n.clone());
    }
    shown.join(" → ")
}

/// `/vv-gm order`: rolls and ranks. `entities` is a comma-separated list of
/// `Name:stat` (ad hoc), sheet names, or member mentions (their active sheet).
pub async fn order(
    app: &App,
    caller: &Caller,
    kind: OrderKind,
    entities: &str,
    record: bool,
) -> AppResult {
    let mut turn = Turn::begin(app, caller).await?;
    turn.require_gm(
        super::GM,
        "roll Outthink or Initiative for several entities",
    )?;
    let items = split_items(entities)?;
    let mut entries: Vec<Entry> = Vec::with_capacity(items.len());
    let mut listed = BTreeSet::new();
    for (k, item) in items.iter().enumerate() {
        let entry = entry_of(turn.tx(), caller, k as i64 + 1, item, kind).await?;
        if let Some(ch) = &entry.sheet {
            if !listed.insert(ch.row.id) {
                return Err(AppError::user(format!("{} is listed twice.", ch.shown())));
            }
        }
        entries.push(entry);
    }
    let entrants: Vec<Entrant> = entries.iter().map(|e| e.entrant).collect();
    let settings = turn.settings.clone();
    let result = roll_order(kind, &entrants, &settings, &mut turn.rng())?;
    let generated = result.dice_generated();
    if generated > super::MAX_GENERATED {
        return Err(AppError::user(format!(
            "That would roll {generated} dice; at most {} per command.",
            super::MAX_GENERATED
        )));
    }
    let mut recorded = Vec::new();
    let mut saved = Vec::new();
    if record {
        for e in entries.iter_mut() {
            if let Some(ch) = e.sheet.as_mut() {
                if result.record_on(e.entrant.id, &mut ch.sheet) {
                    saved.push(checked(ch.clone())?);
                    recorded.push(ch.name().to_string());
                }
            }
        }
    }
    let inputs = record::OrderInputs {
        entities: items.iter().map(|i| i.to_string()).collect(),
        kind: Some(kind),
    };
    let entry = Record::new("order", &inputs, &record::OrderOutcome::of(&result))
        .dice(&result.entries, super::faces::of_order(&result));
    let embed = order_embed(kind, &settings, &result, &entries, &recorded);
    let out = Step::answer(Response::message(View::embed(embed))).log(entry);
    turn.finish(saved.into_iter().fold(out, Step::sheet)).await
}

/// The typed list, one entity a piece (split at `,`, `;` or a line
/// break), between 1 and [`MAX_ORDER`] of them.
fn split_items(entities: &str) -> Result<Vec<&str>, AppError> {
    let items: Vec<&str> = entities
        .split([',', ';', '\n'])
        .map(str::trim)
        .filter(|s| !s.is_empty())
        .collect();
    if items.is_empty() {
        return Err(AppError::user(
            "List the entities, e.g. `Ann, Bob, goblin:3` (sheet names, @members, or Name:stat).",
        ));
    }
    if items.len() > MAX_ORDER {
        return Err(AppError::user(format!(
            "At most {MAX_ORDER} entities can roll together."
        )));
    }
    Ok(items)
}

/// One typed entity, with the id `id`: a member mention (their active
/// sheet), `Name:stat` (ad hoc) or a sheet name.
async fn entry_of(
    tx: &mut Tx,
    caller: &Caller,
    id: i64,
    item: &str,
    kind: OrderKind,
) -> Result<Entry, AppError> {
    if let Some(uid) = item
        .strip_prefix("<@")
        .and_then(|r| r.strip_suffix('>'))
        // Typed mentions arrive made literal (a zero-width space after
        // `@`, `kit::render::literal_options`).
        .map(|r| r.trim_start_matches(['\u{200B}', '!']))
    {
        let uid: i64 = uid
            .parse()
            .map_err(|_| AppError::user(format!("`{item}` is not a member mention.")))?;
        let ch: Loaded<OreSheet> =
            characters::of_member(tx, caller.guild_id, SYSTEM, uid, super::HINT).await?;
        Ok(sheet_entry(id, ch, kind))
    } else if let Some((name, value)) = item.rsplit_once(':') {
        ad_hoc_entry(id, item, name, value, kind)
    } else {
        let ch = named_sheet(tx, caller, item).await?;
        Ok(sheet_entry(id, ch, kind))
    }
}

/// An ad-hoc entity typed `name:value` (the value is its stat).
fn ad_hoc_entry(
    id: i64,
    item: &str,
    name: &str,
    value: &str,
    kind: OrderKind,
) -> Result<Entry, AppError> {
    // An ad-hoc entity stands in the physical world.
    let default_stat = kind.stat(World::Physical).name();
    let name = name.trim();
    if name.is_empty() || name.chars().count() > MAX_NAME || name.chars().any(char::is_control) {
        return Err(AppError::user(format!(
            "`{item}`: a name needs 1 to {MAX_NAME} characters."
        )));
    }
    let stat: u32 = value
        .trim()
        .parse()
        .ok()
        .filter(|v| *v <= 99)
        .ok_or_else(|| {
            AppError::user(format!(
                "`{item}`: the value after `:` is the {default_stat} stat, 0 to 99."
            ))
        })?;
    Ok(Entry {
        name: name.to_string(),
        sheet: None,
        entrant: Entrant {
            id,
            stat,
            power_penalty: false,
        },
        stat_name: default_stat,
    })
}

/// The sheet named `item`, of any owner: the caller's own when several
/// members have one of that name.
async fn named_sheet(
    tx: &mut Tx,
    caller: &Caller,
    item: &str,
) -> Result<Loaded<OreSheet>, AppError> {
    let mut rows =
        storage::characters::by_name_any_owner(tx, caller.guild_id, SYSTEM, item).await?;
    let row = match rows.len() {
        0 => {
            return Err(AppError::user(format!(
                "No sheet named `{item}`; give its stat instead, like `{item}:3`."
            )))
        }
        1 => rows.remove(0),
        _ => rows
            .into_iter()
            .find(|r| r.owner_id == caller.user_id)
            .ok_or_else(|| {
                AppError::user(format!(
                    "Several members have a sheet named `{item}`; mention the member instead."
                ))
            })?,
    };
    decode(row)
}

/// The ranked roll's message: the order as its title, one line per
/// entity, how ties were broken, who was capped, what was recorded.
fn order_embed(
    kind: OrderKind,
    settings: &OreSettings,
    result: &OrderRoll,
    entries: &[Entry],
    recorded: &[String],
) -> Embed {
    let name_of = |id: i64| -> String {
        usize::try_from(id - 1)
            .ok()
            .and_then(|k| entries.get(k))
            .map(|e| clean(&e.name))
            .unwrap_or_default()
    };
    let (author, order_name, order_ids) = match kind {
        OrderKind::Outthink => (
            "Outthink (Wit)",
            "Call order (lowest Outthink first)",
            result.call_order(),
        ),
        OrderKind::Initiative => (
            "Initiative",
            match settings.initiative_order {
                InitiativeOrder::Descending => "Resolution order (highest first)",
                InitiativeOrder::Ascending => "Resolution order (lowest first)",
            },
            result.resolution_order(settings),
        ),
    };
    let order_text: Vec<String> = order_ids.iter().map(|id| name_of(*id)).collect();
    // The outcome is the order: it is the title (issue 16); what the
    // order means ("lowest Outthink first") is in the footer.
    let short = order_name.split(" (").next().unwrap_or(order_name);
    let mut heading = format!("{short}: {}", chain(&order_text, 200));
    truncate(&mut heading, 200);
    let lines = rank_lines(result, entries, settings.max_pool);
    let mut embed = Embed::new(Outcome::Info.title(&heading))
        .author(author)
        .description(text::join_capped(&lines, 3500))
        .colour(Outcome::Info.colour());
    if !result.ties.is_empty() {
        let ties: Vec<String> = result.ties.iter().map(|t| tie_line(t, &name_of)).collect();
        embed = embed.field("Ties", text::join_capped(&ties, 1000), false);
    }
    let cap = settings.max_pool;
    let capped: Vec<String> = entries
        .iter()
        .filter(|e| e.entrant.stat > cap)
        .map(|e| clean(&e.name))
        .collect();
    if !capped.is_empty() {
        let why = format!(" rolled at most {cap} dice (vv_max_pool).");
        let mut names = capped.join(", ");
        truncate(&mut names, 1000 - why.chars().count());
        embed = embed.field("Capped", names + &why, false);
    }
    let mut foot = order_name.to_string();
    if !recorded.is_empty() {
        foot += &format!(" · recorded on the sheets of {}.", recorded.join(", "));
    }
    truncate(&mut foot, 2000);
    embed.footer(foot)
}

/// One line per entity, best first: its value, stat and faces.
fn rank_lines(result: &OrderRoll, entries: &[Entry], cap: u32) -> Vec<String> {
    let mut lines = Vec::new();
    for (rank, id) in result.ranking.iter().enumerate() {
        let Some(entry) = result.entries.iter().find(|e| e.id == *id) else {
            continue;
        };
        let Some(e) = usize::try_from(*id - 1).ok().and_then(|k| entries.get(k)) else {
            continue;
        };
        let best = match entry.best {
            Some(b) if b.is_set() => format!("**{b}**"),
            Some(b) => format!("**{}** (loose {})", entry.value, b.height),
            None => "**0** (no dice)".into(),
        };
        let mut l = format!(
            "{}. **{}** — {best} · {} {}",
            rank + 1,
            clean(&e.name),
            e.stat_name,
            entry.stat
        );
        if entry.faces.len() <= LIST_FACES && !entry.faces.is_empty() {
            l.push_str(&format!(": {}", text::grouped(&entry.faces)));
        }
        if entry.pool < entry.stat.min(cap) {
            l.push_str(" (−1 Power)");
        }
        lines.push(l);
    }
    lines
}

/// How one tie was broken, in a line.
fn tie_line(t: &TieBreakRecord, name_of: &impl Fn(i64) -> String) -> String {
    let names: Vec<String> = t.ids.iter().map(|id| name_of(*id)).collect();
    let mut s = format!("{} tied at {}", names.join(", "), t.value);
    if t.by_stat {
        s.push_str(": higher stat first");
    }
    for round in &t.rerolls {
        let r: Vec<String> = round
            .iter()
            .map(|r| format!("{} {}", name_of(r.id), r.value))
            .collect();
        s.push_str(&format!("; re-roll: {}", r.join(", ")));
    }
    if t.fell_back_to_input_order {
        s.push_str("; still tied: listed order");
    }
    s
}

fn sheet_entry(id: i64, ch: Loaded<OreSheet>, kind: OrderKind) -> Entry {
    let entrant = Entrant::from_sheet(id, &ch.sheet, kind);
    Entry {
        name: ch.name().to_string(),
        stat_name: kind.stat(ch.sheet.world).name(),
        entrant,
        sheet: Some(ch),
    }
}

#[cfg(test)]
mod tests {
    use super::chain;

    #[test]
    fn a_long_order_is_cut_between_names() {
        let names: Vec<String> = (0..200).map(|i| format!("Alexandria{i}")).collect();
        let c = chain(&names, 1000);
        assert!(c.chars().count() <= 1000);
        let (kept, more) = c.rsplit_once(" → ").unwrap();
        assert!(more.starts_with("…and "), "{more}");
        for part in kept.split(" → ") {
            assert!(names.contains(&part.to_string()), "cut name {part}");
        }
        assert_eq!(chain(&names[..2], 1000), "Alexandria0 → Alexandria1");
    }
}
