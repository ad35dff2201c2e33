//! Venus Engine's `/help`: its topics as data (the summary in the bot's own
//! words and a first session's commands), read by the registry through
//! its [`crate::systems::game::Feature::HELP`].

use crate::app::registry::HelpTopic;

/// Venus Engine's help topics, in menu order.
pub const TOPICS: &[HelpTopic] = &[
    HelpTopic {
        label: "Venus Engine (1st Playtest)",
        title: "Venus Engine · 1st Playtest Rules",
        odds: &[""],
        start: &[
            ("/ve sheet create name:Ada", "make your character, then `/ve sheet ability` and `/ve sheet job`"),
            ("/ve sheet show", "your character sheet"),
            ("/ve check ability:Finesse difficulty:10", "a check: the d20 against a difficulty"),
            ("/ve-gm fc call", "the FC calls for a check or a task"),
            ("/help", "every system, and the table's commands"),
        ],
        summary: &[
            ("Checks (d20)", "The FC sets a target: absolute difficulty 5, 10, 15, 20 or 25 plus 0-4 factors of +1 (5-29). Roll d20 + your score. A natural 1 fails outright unless your rank is Platinum; Silver passes automatically on a natural 20, Gold and Platinum on 19-20. Otherwise you pass when the sum reaches the target. If you are short by 6 or less, claim up to 4 approved bonus factors (spending a Lot counts as one): roll one d6 per factor and add only the highest."),
            ("Tasks (d6 pool)", "Roll job level × d6 (a job still being learned rolls the ability score instead) against a threshold of 1 plus 0-4 factors (1-5; learning a job adds one). A die strikes a beat on 5+ for Bronze, 4+ Silver, 3+ Gold, 2+ Platinum. Up to 2 allies with the job at level 1+ add one die each at their own rank. House rule `ve1_explosions` (off by default; the seed's note allows magic or advanced technology that makes dice explode): on a task the FC flags `magic:true`, each 6 strikes a beat and adds another die."),
            ("KISS, Ego and spending", "One re-roll round: KISS dice with Lots (1 each), insights, one stunt and up to 4 specialties; each die at most once, and the new face stands even if worse. Ego either re-rolls every die without a beat or makes every 6 strike two beats. Then spend beats: the primary consequence costs the threshold and buying it succeeds; four secondary and four tertiary consequences cost 1 beat each; the FC may turn one unbought secondary against you."),
            ("Exp", "A failed task gives +1 exp to the job; a job being learned gains +1 after every task and reaches its level at 16 exp; each ally gets +1 exp in the job they aided with."),
            ("Spotlight", "`/ve spotlight`: players **Join** the tracker, the FC sets scenes and the turn passes clockwise (**Pass**); a round ends when everyone has had a turn. A player may offer to introduce the next scene: if the FC allows it, they start its rounds and earn Ego if they do not hold it."),
        ],
    },
    HelpTopic {
        label: "Venus Engine (Playsheet)",
        title: "Venus Engine · Playsheet",
        odds: &[""],
        start: &[
            ("/ve sheet create name:Ada", "make your character, then `/ve sheet ability` and `/ve sheet job`"),
            ("/ve sheet show", "your character sheet"),
            ("/ve check ability:Finesse difficulty:10", "a check: the d20 against a difficulty"),
            ("/ve-gm fc call", "the FC calls for a check or a task"),
            ("/help", "every system, and the table's commands"),
        ],
        summary: &[
            ("Checks (d20)", "The GM sets a target: 5 × difficulty 1-4 plus 0-4 factors of +1 or +2 (5-28). Roll d20 + your score. A natural 1 always fails. Automatic passes: natural 20 for Bronze, 19-20 Silver, 18-20 Gold, 17-20 Platinum (the FC may switch to the Playsheet table's narrower ranges). When short, up to 4 approved bonus factors add a flat +1 each (+2 for multiples, +8 at most). Lots and Ego cannot be spent on checks."),
            ("Tasks (d10 pool)", "Roll (job level + ability score) d10 against a threshold of difficulty 1-4 plus factors of +1 or +2 (1-12). A die passes on 7+ for Bronze, 6+ Silver, 5+ Gold, 4+ Platinum. Up to 3 allies add one die each at their rank. On a magic or advanced-technology task, 10s explode into another die. Passes ≥ threshold succeed at once."),
            ("When short", "One re-roll round (Lots, insights, stunts, specialties; allies re-roll only their own dice; new faces stand), then Ego as a last resort: every 10 on the table counts as two passes."),
            ("Exp", "A failure gives +1 exp to your job and to each ally's aiding job. A job levels up when its exp reaches twice its level; a job being learned gains +1 after every task and reaches the tier minimum at 16 exp."),
            ("Spotlight", "`/ve spotlight`: turns passed around the table, rounds and scenes, as in edition 1 (a player who introduces a scene the FC allows earns Ego)."),
        ],
    },
];
