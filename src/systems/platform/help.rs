//! `/help`: what each system does, in the bot's own words, and its
//! commands as registered (so the list is never out of date).

use crate::app::view::{colour, Embed, View};
use crate::app::{AppResult, Response};

/// A help topic.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Topic {
    /// `/roll` and friends.
    Dice,
    /// Venus Engine, 1st Playtest Rules.
    Ve1,
    /// Venus Engine Playsheet.
    Ve2,
    /// Veracity.
    Veracity,
    /// The Storyteller d10 rules.
    Storyteller,
    /// Virtual Veil (One-Roll Engine).
    VirtualVeil,
}

/// A registered command: its full usage (`/ve check`) and description.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CommandLine {
    /// `/name sub`.
    pub usage: String,
    /// What it does.
    pub description: String,
}

impl Topic {
    /// The topic's title.
    pub fn title(self) -> &'static str {
        match self {
            Topic::Dice => "Generic dice",
            Topic::Ve1 => "Venus Engine · 1st Playtest Rules",
            Topic::Ve2 => "Venus Engine · Playsheet",
            Topic::Veracity => "Veracity",
            Topic::Storyteller => "Storyteller d10 rules",
            Topic::VirtualVeil => "Virtual Veil · One-Roll Engine",
        }
    }

    /// The top-level commands that belong to the topic.
    fn roots(self) -> &'static [&'static str] {
        match self {
            Topic::Dice => &["roll"],
            Topic::Ve1 | Topic::Ve2 => &["ve"],
            Topic::Veracity => &["vr"],
            Topic::Storyteller => &["st"],
            Topic::VirtualVeil => &["vv"],
        }
    }

    /// The `/odds` subcommands that match the topic.
    fn odds(self) -> &'static [&'static str] {
        match self {
            Topic::Dice => &[],
            Topic::Ve1 => &["ve1-check", "ve1-task"],
            Topic::Ve2 => &["ve2-check", "ve2-task"],
            Topic::Veracity => &["veracity-save"],
            Topic::Storyteller => &["st"],
            Topic::VirtualVeil => &["ore"],
        }
    }

    /// The procedure, summarised.
    fn summary(self) -> &'static [(&'static str, &'static str)] {
        match self {
            Topic::Dice => &[
                ("How to write dice", "`NdS` rolls N dice of S sides (`d20` is one die); add or subtract dice and numbers: `3d6+2`, `d20-1`, `2d8+1d6`. `kh3`/`kl1` keep the highest three / lowest one (`4d6kh3`), and `!` makes a die that shows its highest face add another die (`2d10!`)."),
                ("What you see", "Every face is shown (dropped dice struck through, added dice marked ↯) with the total. The roller or the FC can press **Reroll** to throw the same expression again in place; every throw is logged and counted in `/stats`."),
            ],
            Topic::Ve1 => &[
                ("Checks (d20)", "The FC sets a target: absolute difficulty 5, 10, 15, 20 or 25 plus 0-4 factors of +1 (5-29). Roll d20 + your score. A natural 1 fails outright unless your rank is Platinum; Silver passes automatically on a natural 20, Gold and Platinum on 19-20. Otherwise you pass when the sum reaches the target. If you are short by 6 or less, claim up to 4 approved bonus factors (spending a Lot counts as one): roll one d6 per factor and add only the highest."),
                ("Tasks (d6 pool)", "Roll job level × d6 (a job still being learned rolls the ability score instead) against a threshold of 1 plus 0-4 factors (1-5; learning a job adds one). A die strikes a beat on 5+ for Bronze, 4+ Silver, 3+ Gold, 2+ Platinum. Up to 2 allies with the job at level 1+ add one die each at their own rank."),
                ("KISS, Ego and spending", "One re-roll round: KISS dice with Lots (1 each), insights, one stunt and up to 4 specialties; each die at most once, and the new face stands even if worse. Ego either re-rolls every die without a beat or makes every 6 strike two beats. Then spend beats: the primary consequence costs the threshold and buying it succeeds; four secondary and four tertiary consequences cost 1 beat each; the FC may turn one unbought secondary against you."),
                ("Exp", "A failed task gives +1 exp to the job; a job being learned gains +1 after every task and reaches its level at 16 exp; each ally gets +1 exp in the job they aided with."),
            ],
            Topic::Ve2 => &[
                ("Checks (d20)", "The GM sets a target: 5 × difficulty 1-4 plus 0-4 factors of +1 or +2 (5-28). Roll d20 + your score. A natural 1 always fails. Automatic passes: natural 20 for Bronze, 19-20 Silver, 18-20 Gold, 17-20 Platinum (the FC may switch to the Playsheet table's narrower ranges). When short, up to 4 approved bonus factors add a flat +1 each (+2 for multiples, +8 at most). Lots and Ego cannot be spent on checks."),
                ("Tasks (d10 pool)", "Roll (job level + ability score) d10 against a threshold of difficulty 1-4 plus factors of +1 or +2 (1-12). A die passes on 7+ for Bronze, 6+ Silver, 5+ Gold, 4+ Platinum. Up to 3 allies add one die each at their rank. On a magic or advanced-technology task, 10s explode into another die. Passes ≥ threshold succeed at once."),
                ("When short", "One re-roll round (Lots, insights, stunts, specialties; allies re-roll only their own dice; new faces stand), then Ego as a last resort: every 10 on the table counts as two passes."),
                ("Exp", "A failure gives +1 exp to your job and to each ally's aiding job. A job levels up when its exp reaches twice its level; a job being learned gains +1 after every task and reaches the tier minimum at 16 exp."),
            ],
            Topic::Veracity => &[
                ("Inventories", "Two inventories of up to 18 numbered slots: **Light** holds Secrets, Ruses and Stress; **Flesh** holds Evidence, Means and Wounds. Slots unlock in order, and a new item goes into the lowest empty unlocked slot."),
                ("Saves", "Roll d20 + modifiers (a positive modifier makes it harder; a fitting tool is −5). Mental efforts read Light, physical ones Flesh; the defender always saves. A total of 0 or less succeeds, 19 or more fails; otherwise look at slot number *total*: it succeeds only if that slot is unlocked and empty. With no modifier, that is (unlocked − filled) in 20."),
                ("Facets and Stress", "A Facet (d4-d12) rolled when someone acts on it shifts the save in its owner's favour; acting against it gains that die in Stress. Stress fills the lowest free Light slots and any extra is discarded; with no free slot you **Break**: the first Break stops levelling, any later one is a heart attack (d20 Wounds). All Stress then clears."),
                ("Wounds and levelling", "Damage lowers HP, or becomes Wounds when the target is at 0 HP, immobilised, unsuspecting or surprised. You die when every unlocked Flesh slot holds a Wound. Shocking an NPC with revealed Secrets unlocks one more slot."),
            ],
            Topic::Storyteller => &[
                ("The pool", "Usually one attribute + one ability (never more than two traits) in d10s, against a difficulty 2-10 (default 6). An ability at 0: Talents roll the attribute alone, Skills do so at +1 difficulty, Knowledges need the storyteller's leave."),
                ("Reading the dice", "Each die at or above the difficulty is a success; each 1 is a botch. A threshold first removes that many successes; each botch then cancels one. Net above 0 succeeds with that many successes, exactly 0 is a simple failure, below 0 is a botch."),
                ("Specialties", "At most one specialty per dot of the ability. For each specialty in use, every 10 adds a bonus die: bonus dice count successes, their 1s are ignored, and their 10s add more."),
                ("Willpower", "A willpower roll uses current willpower alone; its botches cost willpower. After a willpower roll that did not botch, you may spend 1 (keeping at least 1) to make it an automatic success. Once per turn, spend 1 to ignore wound penalties. At 0 you are incapacitated."),
            ],
            Topic::VirtualVeil => &[
                ("Sets", "Roll as many d10s as the Called Stat (10 at most by default). Matching faces form sets: the **width** is how many match (dub 2, trip 3, quad 4 …), the **height** is the face. An action needs at least a dub, some need wider; to compare rolls, a set is worth 10 × width + height."),
                ("Actions", "A basic action uses one set; a minor action spends a single unused die; a special action needs an exact pattern such as 777 or a run 789; combos and strings use further sets of the same roll. Each die is used once per round. A running COMP keeps cache dice (rolled at boot or loaded from the register) that can join your sets."),
                ("Combat", "Wit rolls set Outthink, Agility (Precision inside cosmOS) sets Initiative. Each round everyone calls a stat and rolls it in ascending Outthink order, then acts in Initiative order. Damage to Vitality, Confidence or Cyber adds a Fault die; matching Fault dice become an Injury that adds Error Dice to every action."),
            ],
        }
    }
}

/// Every topic, in menu order.
pub const TOPICS: [Topic; 6] = [
    Topic::Dice,
    Topic::Ve1,
    Topic::Ve2,
    Topic::Veracity,
    Topic::Storyteller,
    Topic::VirtualVeil,
];

/// The characters of an embed's text (what Discord's 6000 limit counts).
fn embed_len(e: &Embed) -> usize {
    e.title.chars().count()
        + e.description.as_deref().map_or(0, |d| d.chars().count())
        + e.footer.as_deref().map_or(0, |d| d.chars().count())
        + e.fields
            .iter()
            .map(|f| f.name.chars().count() + f.value.chars().count())
            .sum::<usize>()
}

/// Room left for command lists, keeping `reserve` for what comes after.
fn room(e: &Embed, reserve: usize) -> usize {
    crate::app::view::limits::EMBED_TOTAL.saturating_sub(embed_len(e) + reserve)
}

/// Commands listed in fields of at most ~1000 characters, within `budget`
/// characters in all (the rest is counted, not listed).
fn command_fields(mut embed: Embed, name: &str, lines: &[String], budget: usize) -> Embed {
    let mut used = 0;
    let mut chunk = String::new();
    let mut fields = 0;
    let mut listed = 0;
    let label = |n: usize| {
        if n == 0 {
            name.to_string()
        } else {
            format!("{name} (more)")
        }
    };
    for line in lines {
        let len = line.chars().count() + 1;
        if used + len + 40 + label(fields).len() > budget {
            break;
        }
        if chunk.chars().count() + len > 1000 {
            embed = embed.field(label(fields), std::mem::take(&mut chunk), false);
            fields += 1;
            used += label(fields).len();
        }
        if !chunk.is_empty() {
            chunk.push('\n');
        }
        chunk.push_str(line);
        used += len;
        listed += 1;
    }
    if listed < lines.len() {
        if !chunk.is_empty() {
            chunk.push('\n');
        }
        chunk.push_str(&format!(
            "…and {} more: type `/` in Discord to browse them.",
            lines.len() - listed
        ));
    }
    if !chunk.is_empty() {
        embed = embed.field(label(fields), chunk, false);
    }
    embed
}

fn line(c: &CommandLine) -> String {
    let mut d = c.description.clone();
    crate::app::view::truncate(&mut d, 90);
    format!("`{}` {d}", c.usage)
}

fn starts_with_root(usage: &str, root: &str) -> bool {
    let first = usage
        .trim_start_matches('/')
        .split(' ')
        .next()
        .unwrap_or("");
    first == root
}

/// `/help` for a topic, or the overview without one. `commands` are every
/// registered command, flattened to their leaves.
pub fn help(topic: Option<Topic>, commands: &[CommandLine]) -> AppResult {
    let embed = match topic {
        None => overview(commands),
        Some(t) => {
            let mut e = Embed::new(format!("📖 {}", t.title())).colour(colour::NEUTRAL);
            for (name, text) in t.summary() {
                e = e.field(*name, *text, false);
            }
            let own: Vec<String> = commands
                .iter()
                .filter(|c| t.roots().iter().any(|r| starts_with_root(&c.usage, r)))
                .map(line)
                .collect();
            if own.is_empty() {
                e = e.field("Commands", "Not installed on this bot yet.", false);
            } else {
                let budget = room(&e, 600);
                e = command_fields(e, "Commands", &own, budget);
            }
            let odds: Vec<String> = t
                .odds()
                .iter()
                .map(|s| format!("/odds {s}"))
                .filter_map(|u| commands.iter().find(|c| c.usage == u).map(line))
                .collect();
            if !odds.is_empty() {
                e = e.field("Odds before you roll", odds.join("\n"), false);
            }
            e.footer("A summary in Kismet's words; the rulebook and your FC's house rules decide. /help alone lists every system.")
        }
    };
    Ok(Response::ephemeral(View::embed(embed)))
}

fn overview(commands: &[CommandLine]) -> Embed {
    let systems: Vec<String> = TOPICS
        .iter()
        .map(|t| {
            let roots: Vec<String> = t.roots().iter().map(|r| format!("`/{r}`")).collect();
            format!("**{}** {}", t.title(), roots.join(" "))
        })
        .collect();
    let mut e = Embed::new("📖 Kismet help")
        .description("Kismet rolls dice for five tabletop systems, keeps sheets and a log of every roll, and shows exact odds. Pick a system with `/help system:<name>` for its procedure and commands.")
        .colour(colour::NEUTRAL)
        .field("Systems", systems.join("\n"), false);
    let system_roots: Vec<&str> = TOPICS
        .iter()
        .flat_map(|t| t.roots().iter().copied())
        .collect();
    let table: Vec<String> = commands
        .iter()
        .filter(|c| !system_roots.iter().any(|r| starts_with_root(&c.usage, r)))
        .filter(|c| !c.usage.starts_with("/odds "))
        .map(line)
        .collect();
    let budget = room(&e, 900);
    e = command_fields(e, "Table commands", &table, budget);
    let odds: Vec<String> = commands
        .iter()
        .filter(|c| c.usage.starts_with("/odds "))
        .map(|c| format!("`{}`", c.usage))
        .collect();
    if !odds.is_empty() {
        e = e.field("Exact odds", odds.join(" · "), false);
    }
    e
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::app::Reply;

    fn cmds() -> Vec<CommandLine> {
        [
            "/roll",
            "/ve check",
            "/ve task",
            "/odds ve1-check",
            "/odds st",
            "/history show",
            "/stats",
        ]
        .iter()
        .map(|u| CommandLine {
            usage: u.to_string(),
            description: format!("does {u}"),
        })
        .collect()
    }

    fn embed(r: AppResult) -> Embed {
        match r.unwrap().reply {
            Reply::Ephemeral(v) => v.embeds[0].clone(),
            other => panic!("{other:?}"),
        }
    }

    #[test]
    fn a_topic_lists_its_own_commands_and_odds() {
        let e = embed(help(Some(Topic::Ve1), &cmds()));
        let text: Vec<String> = e
            .fields
            .iter()
            .map(|f| format!("{}: {}", f.name, f.value))
            .collect();
        let text = text.join("\n");
        assert!(text.contains("`/ve check`"));
        assert!(text.contains("`/odds ve1-check`"));
        assert!(!text.contains("/roll"));
        let st = embed(help(Some(Topic::Storyteller), &cmds()));
        assert!(st
            .fields
            .iter()
            .any(|f| f.value == "Not installed on this bot yet."));
    }

    #[test]
    fn every_topic_fits_discord() {
        let many: Vec<CommandLine> = (0..80)
            .map(|i| CommandLine {
                usage: format!("/vv sub{i}"),
                description: "x".repeat(100),
            })
            .collect();
        for t in TOPICS {
            let v = View::embed(embed(help(Some(t), &many)));
            assert_eq!(v.clone().clamp(), v, "{t:?}");
        }
        let v = View::embed(embed(help(None, &cmds())));
        assert_eq!(v.clone().clamp(), v);
    }
}
