//! Slash commands of Virtual Veil: `/vv …` (thin: options in, view out).

use super::comp::CompAction;
use super::damage::Who as Whom;
use super::governed::{What, Who};
use super::record::{CompSet, SpecialSet, StatusSet};
use super::sheet::CreateArgs;
use crate::kit::ranged::Ranged;
use crate::kit::{command, slash_choice, Context, Data, Error};
use crate::rules::ore::combat::OrderKind;
use crate::rules::ore::sets::CacheCost;
use crate::rules::ore::sheet::{Damageable, Stat, World};
use crate::systems::table::approval;

/// A sheet's stat: 0 to the rules' maximum.
type StatValue = Ranged<0, { super::sheet::MAX_STAT }>;
/// A quick-added NPC's stat.
type NpcStat = Ranged<0, { super::combat::MAX_STAT }>;
/// A quick-added NPC's Vitality (a mob's Health), Confidence or Cyber.
type NpcTrack = Ranged<1, { super::combat::MAX_TRACK }>;

/// Every command of this system.
pub fn all() -> Vec<poise::Command<Data, Error>> {
    vec![vv()]
}

slash_choice!(Stat {
    Agility => "Agility",
    Physique => "Physique",
    Precision => "Precision",
    Vitality => "Vitality",
    Cyber => "Cyber",
    Engineering => "Engineering",
    Ingenuity => "Ingenuity",
    Wit => "Wit",
    Charisma => "Charisma",
    Confidence => "Confidence",
    Performance => "Performance",
    Stealth => "Stealth",
});

slash_choice!(Damageable {
    Vitality => "Vitality",
    Confidence => "Confidence",
    Cyber => "Cyber",
});

slash_choice!(OrderKind {
    Outthink => "Outthink",
    Initiative => "Initiative",
});

slash_choice!(CacheCost {
    None => "none",
    One => "one",
    All => "all",
});

slash_choice!(World {
    Physical => "Physical",
    Veil => "Veil",
    CosmOS => "cosmOS",
});

/// Virtual Veil (One-Roll Engine): sheets, rolls, the COMP, damage and combat.
#[poise::command(
    slash_command,
    guild_only,
    subcommands(
        "sheet",
        "vv_roll",
        "boot",
        "logout",
        "battery",
        "damage",
        "endround",
        "endcombat",
        "heal_days",
        "heal_gm",
        "repair",
        "order",
        "combat"
    ),
    subcommand_required
)]
pub async fn vv(_: Context<'_>) -> Result<(), Error> {
    Ok(())
}

/// Virtual Veil sheets.
#[poise::command(
    slash_command,
    guild_only,
    subcommands(
        "sheet_create",
        "sheet_set",
        "sheet_comp",
        "sheet_special",
        "sheet_status"
    ),
    subcommand_required
)]
pub async fn sheet(_: Context<'_>) -> Result<(), Error> {
    Ok(())
}

command! {
    /// Create a sheet (stats default to 0); the Compiler may create one for a member.
    #[allow(clippy::too_many_arguments)]
    #[poise::command(slash_command, guild_only, rename = "create")]
    pub async fn sheet_create(
        ctx,
        caller,
        #[description = "Character name"]
        #[max_length = 64]
        name: String,
        #[description = "Agility"] agility: Option<StatValue>,
        #[description = "Physique"] physique: Option<StatValue>,
        #[description = "Precision"] precision: Option<StatValue>,
        #[description = "Vitality (also the track)"] vitality: Option<StatValue>,
        #[description = "Cyber (also the track)"] cyber: Option<StatValue>,
        #[description = "Engineering"] engineering: Option<StatValue>,
        #[description = "Ingenuity"] ingenuity: Option<StatValue>,
        #[description = "Wit"] wit: Option<StatValue>,
        #[description = "Charisma"] charisma: Option<StatValue>,
        #[description = "Confidence (also the track)"] confidence: Option<StatValue>,
        #[description = "Performance"] performance: Option<StatValue>,
        #[description = "Stealth"] stealth: Option<StatValue>,
        #[description = "A mob: one Health track, no Fault dice"] mob: Option<bool>,
        #[description = "A mob's Health (default: its Vitality)"]
        #[min = 0]
        #[max = 999]
        health: Option<i64>,
        #[player = "Create it for this member (Compiler)"] player,
    ) {
        let args = CreateArgs {
            name,
            stats: [
                agility,
                physique,
                precision,
                vitality,
                cyber,
                engineering,
                ingenuity,
                wit,
                charisma,
                confidence,
                performance,
                stealth,
            ]
            .map(StatValue::of),
            mob: mob.unwrap_or(false),
            health,
            player,
        };
        super::sheet::create(&ctx.data().app, &caller, args).await
    }
}

command! {
    /// Set a stat, a track's current value or maximum, or the defenses.
    #[allow(clippy::too_many_arguments)]
    #[poise::command(slash_command, guild_only, rename = "set")]
    pub async fn sheet_set(
        ctx,
        caller,
        #[description = "Stat (Vitality, Confidence and Cyber are tracks too)"] stat: Option<Stat>,
        #[description = "The stat's new value (a track's also sets its maximum)"]
        #[min = 0]
        #[max = 99]
        value: Option<i64>,
        #[description = "The track's current value (Vitality, Confidence, Cyber)"]
        #[min = 0]
        #[max = 999]
        current: Option<i64>,
        #[description = "The track's maximum (Vitality, Confidence, Cyber)"]
        #[min = 0]
        #[max = 999]
        max: Option<i64>,
        #[description = "Defense (physical)"]
        #[min = 0]
        #[max = 999]
        defense: Option<i64>,
        #[description = "Integrity (digital)"]
        #[min = 0]
        #[max = 999]
        integrity: Option<i64>,
        #[description = "Resolve (psychic)"]
        #[min = 0]
        #[max = 999]
        resolve: Option<i64>,
        #[character = "Character (default: your active one)"] name,
        #[player = "Whose (Compiler)"] player,
    ) {
        let args = super::governed::SetArgs {
            stat,
            value,
            current,
            max,
            defenses: [defense, integrity, resolve],
            who: Who::new(name.as_deref(), player),
        };
        super::governed::set(&ctx.data().app, &caller, args).await
    }
}

command! {
    /// Set COMP stats: cache size, battery, Thread Count, Processing Power, Chips.
    #[allow(clippy::too_many_arguments)]
    #[poise::command(slash_command, guild_only, rename = "comp")]
    pub async fn sheet_comp(
        ctx,
        caller,
        #[description = "Cache size (dice rolled at boot, most kept)"]
        #[min = 0]
        #[max = 50]
        cache_size: Option<i64>,
        #[description = "Battery life when full"]
        #[min = 0]
        #[max = 999]
        battery_max: Option<i64>,
        #[description = "Battery left"]
        #[min = 0]
        #[max = 999]
        battery: Option<i64>,
        #[description = "Plugged in (no battery drain)"] plugged_in: Option<bool>,
        #[description = "Thread Count (skills at once)"]
        #[min = 1]
        #[max = 999]
        thread_count: Option<i64>,
        #[description = "Processing Power (most Chips)"]
        #[min = 0]
        #[max = 100]
        processing_power: Option<i64>,
        #[description = "Distribution"]
        #[max_length = 100]
        distribution: Option<String>,
        #[description = "Install a Chip"]
        #[max_length = 100]
        add_chip: Option<String>,
        #[description = "Remove a Chip"]
        #[max_length = 100]
        remove_chip: Option<String>,
        #[character = "Character (default: your active one)"] name,
        #[player = "Whose (Compiler)"] player,
    ) {
        let asked = CompSet {
            processing_power,
            thread_count,
            cache_size,
            battery_max,
            battery,
            plugged_in,
            add_chip,
            remove_chip,
        };
        let app = &ctx.data().app;
        let args = (asked, distribution);
        super::sheet::set_comp(app, &caller, args, name.as_deref(), player).await
    }
}

command! {
    /// Record a named Special action (a pattern such as 777 or 789, any cache cost), or remove one.
    #[allow(clippy::too_many_arguments)]
    #[poise::command(slash_command, guild_only, rename = "special")]
    pub async fn sheet_special(
        ctx,
        caller,
        #[description = "Record a Special action of this name"]
        #[max_length = 40]
        add: Option<String>,
        #[description = "Its dice as one set: 777, 789, 10,10,9, run 3, run 3 from 7"]
        #[max_length = 100]
        pattern: Option<String>,
        #[description = "Dice of the set that must come from the cache (default none)"]
        cache: Option<CacheCost>,
        #[description = "Remove the Special action of this name"]
        #[max_length = 40]
        remove: Option<String>,
        #[character = "Character (default: your active one)"] name,
        #[player = "Whose (Compiler)"] player,
    ) {
        let args = SpecialSet {
            add,
            pattern,
            cache,
            remove,
        };
        let app = &ctx.data().app;
        super::sheet::set_special(app, &caller, args, name.as_deref(), player).await
    }
}

command! {
    /// Set world, mob mode, living or digital; the Compiler may clear a glitch.
    #[allow(clippy::too_many_arguments)]
    #[poise::command(slash_command, guild_only, rename = "status")]
    pub async fn sheet_status(
        ctx,
        caller,
        #[description = "Where the entity is (picks the Initiative stat)"] world: Option<World>,
        #[description = "Mob mode (one Health track, no Fault dice)"] mob: Option<bool>,
        #[description = "A living creature"] living: Option<bool>,
        #[description = "A natively digital entity"] digital: Option<bool>,
        #[description = "Clear the glitch of more than 3 Injuries (Compiler)"]
        clear_glitch: Option<bool>,
        #[character = "Character (default: your active one)"] name,
        #[player = "Whose (Compiler)"] player,
    ) {
        let args = StatusSet {
            world,
            mob,
            living,
            digital,
            clear_glitch: clear_glitch.unwrap_or(false),
        };
        let app = &ctx.data().app;
        super::sheet::set_status(app, &caller, args, name.as_deref(), player).await
    }
}

command! {
    /// Roll a stat: the register as sets, with buttons for cache, load, Minor and sets.
    #[poise::command(slash_command, guild_only, rename = "roll")]
    #[allow(clippy::too_many_arguments)]
    pub async fn vv_roll(
        ctx,
        caller,
        #[description = "The Called Stat"] stat: Option<Stat>,
        #[description = "Narrowest set the action accepts (2 = a dub)"]
        #[min = 2]
        #[max = 30]
        min_width: Option<i64>,
        #[description = "Lowest height accepted (off unless the Compiler asks)"]
        #[min = 1]
        #[max = 10]
        min_height: Option<i64>,
        #[description = "What the roll is for"]
        #[max_length = 200]
        label: Option<String>,
        #[description = "Roll this many dice instead of a stat"]
        #[min = 1]
        #[max = 100]
        dice: Option<i64>,
        #[character = "Character (default: your active one)"] name,
        #[secret = "Only you and the Compiler see it"] secret,
    ) {
        // A number of dice instead of the stat rolls at once, shown on the roll
        // as overridden: a roll is never governed by `player_edits` (issue 31).
        let args = super::roll::RollArgs {
            stat,
            dice,
            min_width,
            min_height,
            label,
            name,
            player: None,
        };
        super::roll::start(&ctx.data().app, &caller, args).await
    }
}

command! {
    /// Boot the COMP: roll cache-size dice into the cache.
    #[poise::command(slash_command, guild_only)]
    pub async fn boot(
        ctx,
        caller,
        #[character = "Character (default: your active one)"] name,
        #[player = "Whose (Compiler)"] player,
    ) {
        let (app, boot) = (&ctx.data().app, CompAction::Boot);
        super::comp::act(app, &caller, boot, name.as_deref(), player).await
    }
}

command! {
    /// Log out of the COMP: the cache is lost.
    #[poise::command(slash_command, guild_only)]
    pub async fn logout(
        ctx,
        caller,
        #[character = "Character (default: your active one)"] name,
        #[player = "Whose (Compiler)"] player,
    ) {
        let (app, logout) = (&ctx.data().app, CompAction::Logout);
        super::comp::act(app, &caller, logout, name.as_deref(), player).await
    }
}

command! {
    /// Use or charge the COMP's battery, or plug it in (empty: logged out).
    #[poise::command(slash_command, guild_only)]
    pub async fn battery(
        ctx,
        caller,
        #[description = "Battery used"]
        #[rename = "use"]
        #[min = 1]
        #[max = 999]
        used: Option<i64>,
        #[description = "Battery charged"]
        #[min = 1]
        #[max = 999]
        charge: Option<i64>,
        #[description = "Plugged in (no drain) or not"] plugged_in: Option<bool>,
        #[character = "Character (default: your active one)"] name,
        #[player = "Whose (Compiler)"] player,
    ) {
        let to_u32 = |v: Option<i64>| v.map(|v| u32::try_from(v).unwrap_or(0));
        let action = CompAction::Battery {
            used: to_u32(used),
            charged: to_u32(charge),
            plugged: plugged_in,
        };
        super::comp::act(&ctx.data().app, &caller, action, name.as_deref(), player).await
    }
}

command! {
    /// Deal damage: a Fault die each time; matching Fault dice become Injuries.
    #[poise::command(slash_command, guild_only)]
    pub async fn damage(
        ctx,
        caller,
        #[description = "Vitality (physical), Confidence (mental) or Cyber (digital)"]
        target: Damageable,
        #[description = "Damage"]
        #[min = 1]
        #[max = 999]
        amount: i64,
        #[player = "Whose (Compiler)"] player,
        #[character = "Character (default: your active one)"] name,
    ) {
        let edit = What::Damage {
            track: target,
            amount,
        }
        .of(Who::new(name.as_deref(), player));
        approval::govern(&ctx.data().app, &caller, edit).await
    }
}

command! {
    /// End phase outside a tracker: Fault check, incapacitation, −1 Power ends (Compiler).
    #[poise::command(default_member_permissions = "MANAGE_GUILD", slash_command, guild_only)]
    pub async fn endround(
        ctx,
        caller,
        #[description = "Every Virtual Veil sheet of the server (Compiler)"] all: Option<bool>,
        #[character = "Character (default: your active one)"] name,
        #[player = "Whose (Compiler)"] player,
    ) {
        let who = whom(all, name.as_deref(), player);
        super::damage::end_round(&ctx.data().app, &caller, who).await
    }
}

command! {
    /// End combat outside a tracker; a stable place clears Fault dice (Compiler).
    #[poise::command(default_member_permissions = "MANAGE_GUILD", slash_command, guild_only)]
    pub async fn endcombat(
        ctx,
        caller,
        #[description = "They reached a stable place (Fault dice are removed)"]
        stable: Option<bool>,
        #[description = "Every Virtual Veil sheet of the server (Compiler)"] all: Option<bool>,
        #[character = "Character (default: your active one)"] name,
        #[player = "Whose (Compiler)"] player,
    ) {
        let who = whom(all, name.as_deref(), player);
        let stable = stable.unwrap_or(false);
        super::damage::end_combat(&ctx.data().app, &caller, who, stable).await
    }
}

/// Every sheet of the server (`all:`), or the one the character and
/// player options pick.
fn whom(all: Option<bool>, name: Option<&str>, player: Option<i64>) -> Whom<'_> {
    if all.unwrap_or(false) {
        Whom::All
    } else {
        Whom::One(name, player)
    }
}

command! {
    /// Rest: Vitality and Confidence +1 per day (with an Injury only if tended).
    #[poise::command(slash_command, guild_only, rename = "heal")]
    pub async fn heal_days(
        ctx,
        caller,
        #[description = "Days of rest"]
        #[min = 1]
        #[max = 10000]
        days: i64,
        #[description = "A professional tended them (needed with an Injury)"]
        tended: Option<bool>,
        #[character = "Character (default: your active one)"] name,
        #[player = "Whose (Compiler)"] player,
    ) {
        let edit = What::HealDays {
            days,
            tended: tended.unwrap_or(false),
        }
        .of(Who::new(name.as_deref(), player));
        approval::govern(&ctx.data().app, &caller, edit).await
    }
}

// The player's `/vv heal` (rest days) is a leaf of the same name (issue 31).
/// The Compiler's healing.
#[poise::command(
    default_member_permissions = "MANAGE_GUILD",
    slash_command,
    guild_only,
    rename = "heal",
    subcommands("heal_injury"),
    subcommand_required
)]
pub async fn heal_gm(_: Context<'_>) -> Result<(), Error> {
    Ok(())
}

command! {
    /// Mark an Injury healed (Compiler).
    #[poise::command(
        default_member_permissions = "MANAGE_GUILD",
        slash_command,
        guild_only,
        rename = "injury"
    )]
    pub async fn heal_injury(
        ctx,
        caller,
        #[description = "The Injury's number on the sheet"]
        #[min = 1]
        #[max = 1000]
        number: i64,
        #[character = "Character (default: your active one)"] name,
        #[player = "Whose (Compiler)"] player,
    ) {
        let app = &ctx.data().app;
        super::damage::heal_injury(app, &caller, number, name.as_deref(), player).await
    }
}

command! {
    /// Cyber repair check: Engineering against the value restored to (1 point).
    #[poise::command(slash_command, guild_only)]
    pub async fn repair(
        ctx,
        caller,
        #[description = "Engineering dice (default: the engineer's or your own Engineering)"]
        #[min = 0]
        #[max = 100]
        engineering: Option<i64>,
        #[description = "Who makes the check (a character's name)"]
        #[autocomplete = "crate::kit::complete_character"]
        #[max_length = 64]
        engineer: Option<String>,
        #[character = "Character repaired (default: your active one)"] name,
        #[player = "Whose (Compiler)"] player,
    ) {
        let engineer = engineer
            .map(|e| e.trim().to_string())
            .filter(|e| !e.is_empty());
        let edit = What::Repair {
            engineering,
            engineer,
        }
        .of(Who::new(name.as_deref(), player));
        approval::govern(&ctx.data().app, &caller, edit).await
    }
}

command! {
    /// Outthink or Initiative for several entities, in order (Compiler).
    #[poise::command(default_member_permissions = "MANAGE_GUILD", slash_command, guild_only)]
    pub async fn order(
        ctx,
        caller,
        #[description = "Outthink (Wit) or Initiative (Agility; Precision in cosmOS)"]
        kind: OrderKind,
        #[description = "Sheet names, @members or Name:stat, comma-separated"]
        #[max_length = 1500]
        entities: String,
        #[description = "Record the values on the sheets (default: yes)"] record: Option<bool>,
    ) {
        let record = record.unwrap_or(true);
        super::order::order(&ctx.data().app, &caller, kind, &entities, record).await
    }
}

/// The combat tracker: one message runs the fight.
#[poise::command(
    slash_command,
    guild_only,
    subcommands(
        "combat_start",
        "combat_join",
        "combat_add",
        "combat_remove",
        "combat_damage",
        "combat_show",
        "combat_end"
    ),
    subcommand_required
)]
pub async fn combat(_: Context<'_>) -> Result<(), Error> {
    Ok(())
}

command! {
    /// Start a fight in this channel (Compiler).
    #[poise::command(
        default_member_permissions = "MANAGE_GUILD",
        slash_command,
        guild_only,
        rename = "start"
    )]
    pub async fn combat_start(
        ctx,
        caller,
        #[description = "Where (Initiative: Agility; Precision in cosmOS)"] world: Option<World>,
    ) {
        let world = world.unwrap_or(World::Physical);
        super::combat::start(&ctx.data().app, &caller, world).await
    }
}

command! {
    /// Seat a character in the fight (Compiler; players press **Join**).
    #[poise::command(
        default_member_permissions = "MANAGE_GUILD",
        slash_command,
        guild_only,
        rename = "join"
    )]
    pub async fn combat_join(
        ctx,
        caller,
        #[character = "Character, anyone's (default: your active one)"] name,
    ) {
        super::combat::join(&ctx.data().app, &caller, name.as_deref()).await
    }
}

command! {
    /// Add an NPC or a mob with its stats (Compiler).
    #[allow(clippy::too_many_arguments)]
    #[poise::command(
        default_member_permissions = "MANAGE_GUILD",
        slash_command,
        guild_only,
        rename = "add"
    )]
    pub async fn combat_add(
        ctx,
        caller,
        #[description = "Name"]
        #[max_length = 60]
        name: String,
        #[description = "Wit (Outthink)"] wit: NpcStat,
        #[description = "Agility"] agility: NpcStat,
        #[description = "Vitality (a mob's Health)"] vitality: NpcTrack,
        #[description = "Precision"] precision: Option<NpcStat>,
        #[description = "A mob: one Health, no Fault dice"] mob: Option<bool>,
        #[description = "Confidence"] confidence: Option<NpcTrack>,
        #[description = "Cyber"] cyber: Option<NpcTrack>,
        #[description = "Living: down at the End phase (NPC yes, mob no)"] living: Option<bool>,
        #[description = "Natively digital: wiped at Cyber 0"] digital: Option<bool>,
        #[description = "Every stat not given here (default 0)"] others: Option<NpcStat>,
        #[description = "Physique"] physique: Option<NpcStat>,
        #[description = "Engineering"] engineering: Option<NpcStat>,
        #[description = "Ingenuity"] ingenuity: Option<NpcStat>,
        #[description = "Charisma"] charisma: Option<NpcStat>,
        #[description = "Performance"] performance: Option<NpcStat>,
        #[description = "Stealth"] stealth: Option<NpcStat>,
    ) {
        let more = [
            (Stat::Physique, physique),
            (Stat::Engineering, engineering),
            (Stat::Ingenuity, ingenuity),
            (Stat::Charisma, charisma),
            (Stat::Performance, performance),
            (Stat::Stealth, stealth),
        ]
        .into_iter()
        .filter_map(|(s, v)| v.map(|v| (s, v.0)))
        .collect();
        let args = super::combat::NpcArgs {
            name,
            wit: wit.0,
            agility: agility.0,
            precision: NpcStat::of(precision),
            vitality: vitality.0,
            confidence: NpcTrack::of(confidence),
            cyber: NpcTrack::of(cyber),
            mob: mob.unwrap_or(false),
            living,
            digital,
            others: NpcStat::of(others),
            more,
        };
        super::combat::add(&ctx.data().app, &caller, args).await
    }
}

command! {
    /// Take a combatant out of the fight (Compiler).
    #[poise::command(
        default_member_permissions = "MANAGE_GUILD",
        slash_command,
        guild_only,
        rename = "remove"
    )]
    pub async fn combat_remove(
        ctx,
        caller,
        #[description = "Combatant"]
        #[max_length = 64]
        name: String,
    ) {
        super::combat::remove(&ctx.data().app, &caller, &name).await
    }
}

command! {
    /// Damage a combatant: Fault dice, incapacitation (Compiler).
    #[poise::command(
        default_member_permissions = "MANAGE_GUILD",
        slash_command,
        guild_only,
        rename = "damage"
    )]
    pub async fn combat_damage(
        ctx,
        caller,
        #[description = "Combatant"]
        #[max_length = 64]
        name: String,
        #[description = "Track"] target: Damageable,
        #[description = "Damage"]
        #[min = 1]
        #[max = 999]
        amount: i64,
    ) {
        super::combat::damage(&ctx.data().app, &caller, &name, target, amount).await
    }
}

command! {
    /// End the fight (Compiler).
    #[poise::command(
        default_member_permissions = "MANAGE_GUILD",
        slash_command,
        guild_only,
        rename = "end"
    )]
    pub async fn combat_end(
        ctx,
        caller,
        #[description = "A stable place: Fault dice are removed"] stable: Option<bool>,
    ) {
        let stable = stable.unwrap_or(false);
        super::combat::end(&ctx.data().app, &caller, stable).await
    }
}

command! {
    /// Post the fight's tracker again at the bottom of the channel
    #[poise::command(slash_command, rename = "show")]
    pub async fn combat_show(ctx, caller) {
        super::combat::show(&ctx.data().app, &caller).await
    }
}
