//! Generic dice's `/help`: its topic as data (the notation in the bot's
//! own words and a first session's commands), read by the registry through
//! its [`crate::systems::game::Feature::HELP`].

use crate::app::registry::HelpTopic;

/// Generic dice's help topic.
pub const TOPICS: &[HelpTopic] = &[
    HelpTopic {
        label: "Generic dice",
        title: "Generic dice",
        odds: &["roll"],
        start: &[
            ("/roll expression:2d6+1", "any dice, with a Reroll button"),
            ("/odds roll expression:2d6+1", "its exact odds before you roll"),
            ("/roll expression:8d6 save:Fireball", "roll and keep it under a name"),
            ("/history show", "your latest rolls"),
            ("/help", "every system, and the table's commands"),
        ],
        summary: &[
            ("Dice", "`NdM` rolls N dice of M sides: `3d6`, `d20` (one die), `d%` (a d100), `0d6` (0). Add, subtract, multiply and divide dice and numbers with brackets: `3d6+2`, `2*1d8`, `(1d6+1)*2`, `-1d4`. Division rounds down: `7/2` is 3, `-7/2` is -4."),
            ("Keep, drop, reroll, explode", "`4d6kh3` keeps the highest 3, `2d20kl1` the lowest one; `4d6dl1` drops the lowest, `2d20dh1` the highest. `2d6rr1` rerolls 1s until they stop (at most 100 times a die), `rr<3` rerolls below 3; `ro1`/`ro<3` reroll once. `3d6!` adds a die for every 6 (on the highest face), `3d6!>4` for every 5 or 6; exploded dice join the pool (marked ↯), at most 100 rounds and 2000 dice in one roll."),
            ("Successes and targets", "Straight after dice, a comparison counts the dice meeting it: `5d10>=8` (also `>`, `<=`, `<`, `=`); `f1` (or `f<3`) counts failures subtracted from successes: `5d10>=8f1`. After anything else it is a target and the roll passes or fails: `1d20+5 >= 15`, `(1d20) >= 12`, `2d6+0 == 7`."),
            ("Labels and repeats", "`1d20+5 [fire] + 2d6 [cold]` labels each term. `6#4d6kh3` rolls six separate results (at most 20). Caps: 500 dice and 1000 sides in one roll, numbers up to 1000000, 50 terms, 200 characters; an error names the limit and points at the place as you typed it."),
            ("Saved rolls", "`/roll expression:8d6 [fire] save:Fireball` rolls and saves it under a name (yours, in this server, at most 50); `/roll name:Fireball` rolls it (the name is suggested as you type); `/rolls` lists yours, to roll or forget one from the list. `/odds roll expression:` gives the exact chances of any expression."),
            ("What you see", "The title states the total (or the successes, or pass/fail against a target); the first line shows every face (successes in **bold**, counted failures and a d20's natural 1 as `1✗`, a natural 20 as **20**★, dropped dice in brackets `(1)`, exploded ones marked ↯, rerolled ones as `5⟲1`). The roller or the FC can press **Reroll** to throw the same expression again in place; every throw is logged and counted in `/stats`."),
        ],
    },
];
