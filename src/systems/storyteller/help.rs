//! Storyteller's `/help`: its topics as data (the summary in the bot's own
//! words and a first session's commands), read by the registry through
//! its [`crate::systems::game::Feature::HELP`].

use crate::app::registry::HelpTopic;

/// Storyteller's help topics, in menu order.
pub const TOPICS: &[HelpTopic] = &[
    HelpTopic {
        label: "Storyteller",
        title: "Storyteller d10 rules",
        odds: &["st"],
        start: &[
            ("/st sheet create name:Ada willpower:5", "make your character, then `/st sheet set` its traits"),
            ("/st sheet show", "your character sheet"),
            ("/st roll traits:\"Wits + Alertness\"", "roll a pool against a difficulty"),
            ("/st sheet wounds", "the storyteller marks wounds and their penalty"),
            ("/help", "every system, and the table's commands"),
        ],
        summary: &[
            ("The pool", "An attribute + an ability, or one or two attributes (never more than two traits), in d10s, against a difficulty 2-10 (default 6). An ability alone only if the storyteller turns on the house rule `st_ability_alone`. An ability at 0: Talents roll the attribute alone, Skills do so at +1 difficulty, Knowledges need the storyteller's leave."),
            ("Reading the dice", "Each die at or above the difficulty is a success; each 1 is a botch. A threshold first removes that many successes; each botch then cancels one. Net above 0 succeeds with that many successes, exactly 0 is a simple failure, below 0 is a botch."),
            ("Specialties", "At most one specialty per dot of the ability. For each specialty in use, every 10 adds a bonus die: bonus dice count successes, their 1s are ignored, and their 10s add more."),
            ("Willpower", "A willpower roll uses current willpower alone; its botches cost willpower. After a willpower roll that did not botch, you may spend 1 (keeping at least 1) to make it an automatic success with as many successes as willpower left, offered when that beats the roll. Once per turn, spend 1 to ignore wound penalties. At 0 you are incapacitated."),
        ],
    },
];
