//! Veracity's `/help`: its topics as data (the summary in the bot's own
//! words and a first session's commands), read by the registry through
//! its [`crate::systems::game::Feature::HELP`].

use crate::app::registry::HelpTopic;

/// Veracity's help topics, in menu order.
pub const TOPICS: &[HelpTopic] = &[
    HelpTopic {
        label: "Veracity",
        title: "Veracity",
        odds: &["veracity-save"],
        start: &[
            ("/vr sheet create name:Ada light:6 flesh:6 facet:Cruel", "make your character (Light + Flesh = 12)"),
            ("/vr sheet show", "your character sheet"),
            ("/vr save inventory:light", "a save: the d20 against your filled slots"),
            ("/vr damage amount:2", "the referee deals damage: HP first, then Wounds"),
            ("/help", "every system, and the table's commands"),
        ],
        summary: &[
            ("Inventories", "Two inventories of up to 18 numbered slots: **Light** holds Secrets, Ruses and Stress; **Flesh** holds Evidence, Means and Wounds. Slots unlock in order, and a new item goes into the lowest empty unlocked slot."),
            ("Saves", "Roll d20 + modifiers (a positive modifier makes it harder; a fitting tool is −5). Mental efforts read Light, physical ones Flesh; the defender always saves. A total of 0 or less succeeds, 19 or more fails; otherwise look at slot number *total*: it succeeds only if that slot is unlocked and empty. With no modifier, that is (unlocked − filled) in 20."),
            ("Facets and Stress", "A Facet (d4-d12) rolled when someone acts on it shifts the save in its owner's favour; acting against it gains that die in Stress. Stress fills the lowest free Light slots and any extra is discarded; with no free slot you **Break**: the first Break stops levelling, any later one is a heart attack (d20 Wounds). All Stress then clears."),
            ("Combat", "`/vr-gm combat start` opens a tracker: players press **Join the fight**; the leader's Light save (**Roll initiative**, or `/vr save fight:true` with a modifier) sets which side acts first; each turn a combatant moves 20 ft and spends AP (its Flesh slots: attack 4, fall/stand 2); the surprise turn's damage bypasses HP; flee with a Flesh save (**Flee**)."),
            ("Wounds and levelling", "Damage lowers HP, or becomes Wounds when the target is at 0 HP, immobilised, unsuspecting or surprised. You die when every unlocked Flesh slot holds a Wound. Shocking an NPC with revealed Secrets unlocks one more slot."),
        ],
    },
];
