//! The `/vr` slash commands (thin: options in, application call, view out).
//! Descriptions are terse: Discord caps a command's total text.

use poise::serenity_prelude as serenity;

use super::changes::{self, Rest, Reveal, StressCause};
use super::combat::{self, Marks, Move};
use super::{conventions, saves, sheets, target};
use crate::app::characters::Pick;
use crate::kit::suggest::choices;
use crate::kit::{caller_of, command, respond, slash_choice, user_id, Context, Data, Error};
use crate::rules::veracity::initiative::Side;
use crate::rules::veracity::stress::DamageMode;
use crate::rules::veracity::InventoryKind;

/// Every command of this system.
pub fn all() -> Vec<poise::Command<Data, Error>> {
    vec![vr()]
}

slash_choice!(InventoryKind {
    Light => "light",
    Flesh => "flesh",
});

slash_choice!(DamageMode {
    Auto => "auto",
    Hp => "hp",
    Wounds => "wounds",
});

slash_choice!(Rest {
    Stress => "stress",
    Wound => "wound",
});

/// A Facet die step.
#[derive(Debug, Clone, Copy, poise::ChoiceParameter)]
pub enum Step {
    /// Larger.
    #[name = "up"]
    Up,
    /// Smaller.
    #[name = "down"]
    Down,
}

/// Each of `words` as its own label and value.
fn words<'a>(words: impl Iterator<Item = &'a str>) -> serenity::CreateAutocompleteResponse {
    choices(words.map(|w| (w.to_string(), w.to_string())))
}

async fn kinds(_ctx: Context<'_>, partial: &str) -> serenity::CreateAutocompleteResponse {
    let p = partial.trim().to_lowercase();
    let kinds = ["secret", "ruse", "evidence", "means"];
    words(kinds.into_iter().filter(|k| k.starts_with(&p)))
}

async fn dice(_ctx: Context<'_>, partial: &str) -> serenity::CreateAutocompleteResponse {
    let p = partial.trim().to_lowercase();
    words(
        ["d4", "d6", "d8", "d10", "d12"]
            .into_iter()
            .filter(|k| k.contains(&p)),
    )
}

async fn facets(ctx: Context<'_>, partial: &str) -> serenity::CreateAutocompleteResponse {
    let Ok(caller) = caller_of(ctx) else {
        return choices([]);
    };
    choices(sheets::facet_choices(&ctx.data().app, &caller, partial).await)
}

/// Veracity: slot sheets, saves, Stress, Wounds, Conventions
#[poise::command(
    slash_command,
    guild_only,
    subcommands(
        "sheet",
        "item",
        "facet",
        "save",
        "stress",
        "wound",
        "damage",
        "rest",
        "reveal",
        "convention",
        "scene",
        "combat"
    ),
    subcommand_required
)]
pub async fn vr(_: Context<'_>) -> Result<(), Error> {
    Ok(())
}

/// Sheets
#[poise::command(
    slash_command,
    subcommands("sheet_create", "sheet_edit"),
    subcommand_required
)]
pub async fn sheet(_: Context<'_>) -> Result<(), Error> {
    Ok(())
}

command! {
    /// New sheet: 4 Light + 4 Flesh + 4 free slots, one d6 Facet
    #[poise::command(slash_command, rename = "create")]
    pub async fn sheet_create(
        ctx,
        caller,
        #[description = "Name"]
        #[max_length = 64]
        name: String,
        #[description = "Light slots (light+flesh=12)"]
        #[min = 0]
        #[max = 18]
        light: u32,
        #[description = "Flesh slots"]
        #[min = 0]
        #[max = 18]
        flesh: u32,
        #[description = "First Facet (d6)"]
        #[max_length = 100]
        facet: Option<String>,
        #[player = "Referee: for this member"] player,
        #[description = "Referee: an NPC, any slots"] npc: Option<bool>,
    ) {
        let sheet = sheets::NewSheet {
            name: &name,
            light,
            flesh,
            facet: facet.as_deref(),
            player,
            npc: npc.unwrap_or(false),
        };
        sheets::create(&ctx.data().app, &caller, sheet).await
    }
}

command! {
    /// Set HP (gear, magic) or unlock a slot: the referee's call
    #[poise::command(slash_command, rename = "edit")]
    pub async fn sheet_edit(
        ctx,
        caller,
        #[description = "Current HP (with max)"]
        #[min = 0]
        #[max = 1000]
        current: Option<u32>,
        #[description = "Maximum HP (with current)"]
        #[min = 0]
        #[max = 1000]
        max: Option<u32>,
        #[description = "One more slot, outside a revelation"] unlock: Option<InventoryKind>,
        #[pick(character = "Character", player = "Referee: another member")] pick,
    ) {
        let edit = sheets::SheetEdit {
            hp: (current, max),
            unlock,
        };
        sheets::edit(&ctx.data().app, &caller, edit, pick).await
    }
}

/// Items in slots
#[poise::command(
    slash_command,
    subcommands("item_add", "item_remove"),
    subcommand_required
)]
pub async fn item(_: Context<'_>) -> Result<(), Error> {
    Ok(())
}

command! {
    /// Add to the lowest empty slot, or rewrite the item in a slot
    #[allow(clippy::too_many_arguments)] // one per slash-command option
    #[poise::command(slash_command, rename = "add")]
    pub async fn item_add(
        ctx,
        caller,
        #[description = "What it is"]
        #[max_length = 200]
        text: String,
        #[description = "secret, ruse, evidence, means (to add)"]
        #[autocomplete = "kinds"]
        #[max_length = 20]
        kind: Option<String>,
        #[description = "Rewrite the item in this inventory..."] inventory: Option<InventoryKind>,
        #[description = "...and slot"]
        #[min = 1]
        #[max = 18]
        slot: Option<u32>,
        #[pick(character = "Character", player = "Referee: another member")] pick,
    ) {
        let app = &ctx.data().app;
        let at = (inventory, slot);
        sheets::add_or_edit_item(app, &caller, kind.as_deref(), &text, at, pick).await
    }
}

command! {
    /// Empty a slot
    #[poise::command(slash_command, rename = "remove")]
    pub async fn item_remove(
        ctx,
        caller,
        #[description = "Inventory"] inventory: InventoryKind,
        #[description = "Slot"]
        #[min = 1]
        #[max = 18]
        slot: u32,
        #[pick(character = "Character", player = "Referee: another member")] pick,
    ) {
        sheets::remove_item(&ctx.data().app, &caller, inventory, slot, pick).await
    }
}

/// Facets (at most 4, d4..d12)
#[poise::command(
    slash_command,
    subcommands("facet_add", "facet_step", "facet_remove"),
    subcommand_required
)]
pub async fn facet(_: Context<'_>) -> Result<(), Error> {
    Ok(())
}

command! {
    /// Add a Facet
    #[poise::command(slash_command, rename = "add")]
    pub async fn facet_add(
        ctx,
        caller,
        #[description = "Phrase"]
        #[max_length = 100]
        phrase: String,
        #[description = "Die (d6)"]
        #[autocomplete = "dice"]
        #[max_length = 10]
        die: Option<String>,
        #[pick(character = "Character", player = "Referee: another member")] pick,
    ) {
        sheets::add_facet(&ctx.data().app, &caller, &phrase, die.as_deref(), pick).await
    }
}

command! {
    /// Step a Facet die after an extreme action
    #[poise::command(slash_command, rename = "step")]
    pub async fn facet_step(
        ctx,
        caller,
        #[description = "Facet"]
        #[autocomplete = "facets"]
        #[max_length = 100]
        facet: String,
        #[description = "Direction"] direction: Step,
        #[pick(character = "Character", player = "Referee: another member")] pick,
    ) {
        let up = matches!(direction, Step::Up);
        sheets::step_facet(&ctx.data().app, &caller, &facet, up, pick).await
    }
}

command! {
    /// Remove a Facet
    #[poise::command(slash_command, rename = "remove")]
    pub async fn facet_remove(
        ctx,
        caller,
        #[description = "Facet"]
        #[autocomplete = "facets"]
        #[max_length = 100]
        facet: String,
        #[pick(character = "Character", player = "Referee: another member")] pick,
    ) {
        sheets::remove_facet(&ctx.data().app, &caller, &facet, pick).await
    }
}

/// Save: d20 + modifier read against a slot (in a fight: initiative, flee)
#[allow(clippy::too_many_arguments)] // one per slash-command option
#[poise::command(slash_command)]
pub async fn save(
    ctx: Context<'_>,
    #[description = "Light (mental) or Flesh (physical)"] inventory: InventoryKind,
    #[description = "+ is harder, tools -5"]
    #[min = -100]
    #[max = 100]
    modifier: Option<i32>,
    #[description = "Your Facet, in your favour"]
    #[autocomplete = "facets"]
    #[max_length = 100]
    facet: Option<String>,
    #[description = "Character"]
    #[autocomplete = "crate::kit::complete_character"]
    #[max_length = 64]
    character: Option<String>,
    #[description = "Referee: another member"] player: Option<serenity::User>,
    #[description = "Only you and the referee see it"] secret: Option<bool>,
    #[description = "Referee: whose Facet also bears on this save"] facet_of: Option<
        serenity::User,
    >,
    #[description = "Referee: that member's Facet (number or words)"]
    #[max_length = 100]
    their_facet: Option<String>,
    #[description = "What a failure fills: Stress (Light) or Wounds (Flesh), 1 or d4"]
    #[max_length = 20]
    on_fail: Option<String>,
    #[description = "The fight's: Light = the leader's initiative, Flesh = flee"] fight: Option<
        bool,
    >,
) -> Result<(), Error> {
    let app = &ctx.data().app;
    let asked = target::Save {
        inventory,
        modifier: modifier.unwrap_or(0),
        facet: facet.as_deref(),
        pick: Pick::new(character.as_deref(), user_id(&player)),
    };
    if fight == Some(true) {
        let given = [
            (secret.is_some(), "secret"),
            (player.is_some(), "player"),
            (facet_of.is_some(), "facet_of"),
            (their_facet.is_some(), "their_facet"),
            (on_fail.is_some(), "on_fail"),
        ];
        let not_here: Vec<&str> = given.iter().filter(|(g, _)| *g).map(|(_, n)| *n).collect();
        let r = combat::save_in_fight(app, &caller_of(ctx)?, asked, &not_here).await;
        return respond(ctx, r).await;
    }
    let Some(caller) = crate::kit::secret_caller(ctx, secret).await? else {
        return Ok(());
    };
    let other = (user_id(&facet_of), their_facet.as_deref());
    let r = saves::save_with_help(app, &caller, asked, other, on_fail.as_deref()).await;
    crate::kit::respond_as(ctx, &caller, r).await
}

slash_choice!(StressCause {
    SocialAttack => "social attack",
    FledConflict => "fled a social conflict",
    Shocked => "shocked by a Secret",
    OwnSecret => "own Secret revealed",
});

command! {
    /// Gain Stress (Break if no Light slot is free)
    #[poise::command(slash_command)]
    pub async fn stress(
        ctx,
        caller,
        #[description = "3, d4, 2d6"]
        #[max_length = 20]
        amount: Option<String>,
        #[description = "Why"] cause: Option<StressCause>,
        #[description = "Acted against this Facet: Stress = its die"]
        #[autocomplete = "facets"]
        #[max_length = 100]
        against: Option<String>,
        #[pick(character = "Character", player = "Referee: another member")] pick,
    ) {
        let (amount, against) = (amount.as_deref(), against.as_deref());
        changes::stress_for(&ctx.data().app, &caller, amount, cause, against, pick).await
    }
}

command! {
    /// Take Wounds (death when every Flesh slot holds one)
    #[poise::command(slash_command)]
    pub async fn wound(
        ctx,
        caller,
        #[description = "1, d4, 2d6"]
        #[max_length = 20]
        amount: String,
        #[description = "Flesh slots to lose first: 3,5"]
        #[max_length = 60]
        displace: Option<String>,
        #[pick(character = "Character", player = "Referee: another member")] pick,
    ) {
        changes::wound(&ctx.data().app, &caller, &amount, displace.as_deref(), pick).await
    }
}

command! {
    /// Take damage: HP, or Wounds at 0 HP
    #[poise::command(slash_command)]
    pub async fn damage(
        ctx,
        caller,
        #[description = "3, d6, 2d6"]
        #[max_length = 20]
        amount: String,
        #[description = "auto, hp or wounds"] to: Option<DamageMode>,
        #[description = "Flesh slots to lose first: 3,5"]
        #[max_length = 60]
        displace: Option<String>,
        #[pick(character = "Character", player = "Referee: another member")] pick,
    ) {
        let mode = to.unwrap_or(DamageMode::Auto);
        let displace = displace.as_deref();
        changes::damage(&ctx.data().app, &caller, &amount, mode, displace, pick).await
    }
}

command! {
    /// A day of rest removes a Stress or a Wound
    #[poise::command(slash_command)]
    pub async fn rest(
        ctx,
        caller,
        #[description = "stress or wound"] what: Rest,
        #[description = "Slot (else the highest)"]
        #[min = 1]
        #[max = 18]
        slot: Option<u32>,
        #[pick(character = "Character", player = "Referee: another member")] pick,
    ) {
        changes::rest(&ctx.data().app, &caller, what, slot, pick).await
    }
}

command! {
    /// Shock an NPC with Secrets: gain a slot
    #[allow(clippy::too_many_arguments)]
    #[poise::command(slash_command)]
    pub async fn reveal(
        ctx,
        caller,
        #[description = "The NPC"]
        #[max_length = 200]
        target: String,
        #[description = "Light slots of the Secrets: 1,2"]
        #[max_length = 60]
        secrets: String,
        #[description = "Slot gained"] gain: InventoryKind,
        #[description = "Flesh slots of Evidence: 3"]
        #[max_length = 60]
        evidence: Option<String>,
        #[description = "Note"]
        #[max_length = 200]
        note: Option<String>,
        #[pick(character = "Character", player = "Referee: another member")] pick,
    ) {
        let reveal = Reveal {
            target: &target,
            secrets: &secrets,
            evidence: evidence.as_deref(),
            gain,
            note: note.as_deref(),
            player: pick,
        };
        changes::reveal(&ctx.data().app, &caller, reveal).await
    }
}

/// The scene's Conventions
#[poise::command(
    slash_command,
    subcommands("conv_add", "conv_edit", "conv_remove", "conv_list", "conv_violate"),
    subcommand_required
)]
pub async fn convention(_: Context<'_>) -> Result<(), Error> {
    Ok(())
}

command! {
    /// Referee: declare a Convention
    #[poise::command(
        default_member_permissions = "MANAGE_GUILD",
        slash_command,
        rename = "add"
    )]
    pub async fn conv_add(
        ctx,
        caller,
        #[description = "The Convention"]
        #[max_length = 200]
        text: String,
        #[description = "+1 or +d4"]
        #[max_length = 10]
        cost: String,
        #[description = "Once per scene"] once: Option<bool>,
    ) {
        let once = once.unwrap_or(false);
        conventions::add(&ctx.data().app, &caller, &text, &cost, once).await
    }
}

command! {
    /// Referee: change a Convention
    #[poise::command(
        default_member_permissions = "MANAGE_GUILD",
        slash_command,
        rename = "edit"
    )]
    pub async fn conv_edit(
        ctx,
        caller,
        #[description = "Number"]
        #[min = 1]
        #[max = 25]
        number: u32,
        #[description = "New text"]
        #[max_length = 200]
        text: Option<String>,
        #[description = "+1 or +d4"]
        #[max_length = 10]
        cost: Option<String>,
        #[description = "Once per scene"] once: Option<bool>,
    ) {
        let (number, text, cost) = (number as usize, text.as_deref(), cost.as_deref());
        conventions::edit(&ctx.data().app, &caller, number, text, cost, once).await
    }
}

command! {
    /// Referee: remove a Convention
    #[poise::command(
        default_member_permissions = "MANAGE_GUILD",
        slash_command,
        rename = "remove"
    )]
    pub async fn conv_remove(
        ctx,
        caller,
        #[description = "Number"]
        #[min = 1]
        #[max = 25]
        number: u32,
    ) {
        conventions::remove(&ctx.data().app, &caller, number as usize).await
    }
}

command! {
    /// Post the Conventions
    #[poise::command(slash_command, rename = "list")]
    pub async fn conv_list(ctx, caller) {
        conventions::list(&ctx.data().app, &caller).await
    }
}

command! {
    /// Mark a violation: the violator gains the Stress
    #[poise::command(slash_command, rename = "violate")]
    pub async fn conv_violate(
        ctx,
        caller,
        #[description = "Number"]
        #[min = 1]
        #[max = 25]
        number: u32,
        #[pick(character = "Character", player = "Referee: the violator")] pick,
    ) {
        conventions::violate(&ctx.data().app, &caller, number as usize, pick).await
    }
}

/// Scenes
#[poise::command(
    default_member_permissions = "MANAGE_GUILD",
    slash_command,
    subcommands("scene_end"),
    subcommand_required
)]
pub async fn scene(_: Context<'_>) -> Result<(), Error> {
    Ok(())
}

command! {
    /// Referee: end the scene (reset Conventions, restore HP)
    #[poise::command(slash_command, rename = "end")]
    pub async fn scene_end(ctx, caller) {
        conventions::end_scene(&ctx.data().app, &caller).await
    }
}

slash_choice!(Side {
    Players => "players",
    Npcs => "enemies",
});

slash_choice!(Move [
    "attack" => Move::Attack,
    "reveal" => Move::Reveal,
    "pickup" => Move::PickUp,
    "drop" => Move::Drop,
    "fall" => Move::Fall,
    "stand" => Move::Stand,
    "draw" => Move::Draw,
    "stow" => Move::Stow,
    // The referee's price, given in `cost`.
    "other" => Move::Other(0),
]);

async fn seats(ctx: Context<'_>, partial: &str) -> serenity::CreateAutocompleteResponse {
    let Ok(caller) = caller_of(ctx) else {
        return choices([]);
    };
    let names = combat::seat_names(&ctx.data().app, &caller, partial).await;
    words(names.iter().map(String::as_str))
}

/// Fights: side turns, AP, surprise
#[poise::command(
    slash_command,
    subcommands(
        "combat_start",
        "combat_add",
        "combat_mark",
        "combat_act",
        "combat_show"
    ),
    subcommand_required
)]
pub async fn combat(_: Context<'_>) -> Result<(), Error> {
    Ok(())
}

command! {
    /// Referee: open a fight
    #[poise::command(
        default_member_permissions = "MANAGE_GUILD",
        slash_command,
        rename = "start"
    )]
    pub async fn combat_start(
        ctx,
        caller,
        #[description = "Party leader"]
        #[autocomplete = "crate::kit::complete_character"]
        #[max_length = 64]
        leader: String,
        #[player = "Their player"] player,
    ) {
        let leader = Pick::new(Some(&leader), player);
        combat::start(&ctx.data().app, &caller, leader).await
    }
}

command! {
    /// Referee: seat an NPC, or a character on either side
    #[allow(clippy::too_many_arguments)] // one per slash-command option
    #[poise::command(
        default_member_permissions = "MANAGE_GUILD",
        slash_command,
        rename = "add"
    )]
    pub async fn combat_add(
        ctx,
        caller,
        #[description = "A quick NPC's name"]
        #[max_length = 60]
        name: Option<String>,
        #[description = "HP"]
        #[min = 0]
        #[max = 1000]
        hp: Option<u32>,
        #[description = "Flesh slots: AP (4)"]
        #[min = 1]
        #[max = 18]
        flesh: Option<u32>,
        #[description = "Side (an NPC: enemies; a character: players)"] side: Option<Side>,
        #[pick(character = "Or a character with a sheet", player = "That character's player")]
        pick,
    ) {
        let seat = combat::Seating {
            name: name.as_deref(),
            hp,
            flesh,
            character: pick,
            side,
        };
        combat::add(&ctx.data().app, &caller, seat).await
    }
}

command! {
    /// Referee: mark a combatant
    #[poise::command(
        default_member_permissions = "MANAGE_GUILD",
        slash_command,
        rename = "mark"
    )]
    pub async fn combat_mark(
        ctx,
        caller,
        #[description = "Combatant"]
        #[autocomplete = "seats"]
        #[max_length = 60]
        name: String,
        #[description = "Seen by the enemy"] visible: Option<bool>,
        #[description = "Immobilised"] immobilised: Option<bool>,
        #[description = "Unsuspecting"] unsuspecting: Option<bool>,
        #[description = "Out of the fight"] out: Option<bool>,
    ) {
        let marks = Marks {
            visible,
            immobilised,
            unsuspecting,
            out,
        };
        combat::mark(&ctx.data().app, &caller, &name, marks).await
    }
}

command! {
    /// Referee: spend AP for a combatant (the players' buttons are on the tracker)
    #[poise::command(
        default_member_permissions = "MANAGE_GUILD",
        slash_command,
        rename = "act"
    )]
    pub async fn combat_act(
        ctx,
        caller,
        #[description = "Action"] action: Move,
        #[description = "AP of other"]
        #[min = 0]
        #[max = 36]
        cost: Option<u32>,
        #[description = "Who acts (else whose turn it is)"]
        #[autocomplete = "seats"]
        #[max_length = 60]
        name: Option<String>,
        #[description = "What"]
        #[max_length = 80]
        note: Option<String>,
    ) {
        let what = match action {
            Move::Other(_) => cost.map(Move::Other),
            action => Some(action),
        };
        let (name, note) = (name.as_deref(), note.as_deref());
        match what {
            Some(what) => combat::act(&ctx.data().app, &caller, what, name, note).await,
            None => Err(crate::app::AppError::user(
                "Give the `cost` the referee sets for this action.",
            )),
        }
    }
}

command! {
    /// Post the fight's tracker again at the bottom of the channel
    #[poise::command(slash_command, rename = "show")]
    pub async fn combat_show(ctx, caller) {
        combat::show(&ctx.data().app, &caller).await
    }
}
