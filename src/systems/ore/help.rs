//! Virtual Veil's `/help`: its topics as data (the summary in the bot's own
//! words and a first session's commands), read by the registry through
//! its [`crate::systems::game::Feature::HELP`].

use crate::app::registry::HelpTopic;

/// Virtual Veil's help topics, in menu order.
pub const TOPICS: &[HelpTopic] = &[
    HelpTopic {
        label: "Virtual Veil",
        title: "Virtual Veil · One-Roll Engine",
        odds: &["ore"],
        start: &[
            ("/vv sheet create name:Ann agility:4 wit:6", "make your character (a stat left out is 0)"),
            ("/vv sheet show", "your character sheet"),
            ("/vv roll stat:Agility", "roll a stat: matching faces make sets"),
            ("/vv-gm combat start", "the Compiler opens a fight: one message runs the round"),
            ("/help", "every system, and the table's commands"),
        ],
        summary: &[
            ("Sets", "Roll as many d10s as the Called Stat (10 at most by default). Matching faces form sets: the **width** is how many match (dub 2, trip 3, quad 4 …), the **height** is the face. An action needs at least a dub, some need wider; to compare rolls, a set is worth 10 × width + height."),
            ("Actions", "A basic action uses one set; a minor action spends a single unused die; a special action needs an exact pattern such as 777 or a run 789 as one set, sometimes with one or all of its dice from the cache: record yours with `/vv sheet special` and the roll offers **Special: NAME** when the register holds it; combos and strings use further sets of the same roll. Each die is used once per round. A running COMP keeps cache dice (rolled at boot or loaded from the register) that can join your sets."),
            ("Modifiers, combos", "A bonus or penalty changes one die: **± Modify a die** on the roll lists each unused die with ±1 to ±3 (\"7 → 8 (+1)\") and what it makes or breaks; faces stop at 1 and 10 unless `vv_face_modifier_bounds` is wrap. Sets used after the first are Combos or Strings; with `vv_allow_split_sets` on, **Split** uses a dub of a wider set and keeps the rest. The COMP's Thread Count caps the different special actions (skills) one roll runs."),
            ("Combat", "Wit rolls set Outthink, Agility (Precision inside cosmOS) sets Initiative. Each round everyone calls a stat and rolls it in ascending Outthink order, then acts in Initiative order. Damage to Vitality, Confidence or Cyber adds a Fault die; matching Fault dice become an Injury that adds Error Dice to every action."),
            ("Combat tracker", "The Compiler runs a fight with `/vv-gm combat start`: players press **Join**, NPCs and mobs are `add`ed, **Begin** rolls Outthink and Initiative, then each round's Call, Resolution (turns, reactions, movement) and End phases run on one message."),
        ],
    },
];
