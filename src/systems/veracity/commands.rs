//! The `/vr` slash commands (thin: options in, application call, view out).
//! Descriptions are terse: Discord caps a command's total text.

use poise::serenity_prelude as serenity;

use super::changes::{self, Rest, Reveal, StressCause};
use super::combat::{self, Marks, Move};
use super::{conventions, saves, sheets};
use crate::app::characters::Pick;
use crate::kit::{caller_of, respond, slash_choice, Context, Data, Error};
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

fn uid(u: &Option<serenity::User>) -> Option<i64> {
    u.as_ref().map(|u| u.id.get() as i64)
}

async fn kinds(_ctx: Context<'_>, partial: &str) -> serenity::CreateAutocompleteResponse {
    let p = partial.trim().to_lowercase();
    let choices = ["secret", "ruse", "evidence", "means"]
        .into_iter()
        .filter(|k| k.starts_with(&p))
        .map(serenity::AutocompleteChoice::from)
        .collect();
    serenity::CreateAutocompleteResponse::new().set_choices(choices)
}

async fn dice(_ctx: Context<'_>, partial: &str) -> serenity::CreateAutocompleteResponse {
    let p = partial.trim().to_lowercase();
    let choices = ["d4", "d6", "d8", "d10", "d12"]
        .into_iter()
        .filter(|k| k.contains(&p))
        .map(serenity::AutocompleteChoice::from)
        .collect();
    serenity::CreateAutocompleteResponse::new().set_choices(choices)
}

async fn facets(ctx: Context<'_>, partial: &str) -> serenity::CreateAutocompleteResponse {
    let mut choices = Vec::new();
    if let Ok(caller) = caller_of(ctx) {
        choices = sheets::facet_choices(&ctx.data().app, &caller, partial)
            .await
            .into_iter()
            .map(|(name, value)| serenity::AutocompleteChoice::new(name, value))
            .collect();
    }
    serenity::CreateAutocompleteResponse::new().set_choices(choices)
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

/// New sheet: 4 Light + 4 Flesh + 4 free slots, one d6 Facet
#[poise::command(slash_command, rename = "create")]
pub async fn sheet_create(
    ctx: Context<'_>,
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
    #[description = "Referee: for this member"] player: Option<serenity::User>,
    #[description = "Referee: an NPC, any slots"] npc: Option<bool>,
) -> Result<(), Error> {
    let caller = caller_of(ctx)?;
    let r = sheets::create(
        &ctx.data().app,
        &caller,
        sheets::NewSheet {
            name: &name,
            light,
            flesh,
            facet: facet.as_deref(),
            player: uid(&player),
            npc: npc.unwrap_or(false),
        },
    )
    .await;
    respond(ctx, r).await
}

/// Set HP (gear, magic) or unlock a slot: the referee's call
#[poise::command(slash_command, rename = "edit")]
pub async fn sheet_edit(
    ctx: Context<'_>,
    #[description = "Current HP (with max)"]
    #[min = 0]
    #[max = 1000]
    current: Option<u32>,
    #[description = "Maximum HP (with current)"]
    #[min = 0]
    #[max = 1000]
    max: Option<u32>,
    #[description = "One more slot, outside a revelation"] unlock: Option<InventoryKind>,
    #[description = "Character"]
    #[autocomplete = "crate::kit::complete_character"]
    #[max_length = 64]
    character: Option<String>,
    #[description = "Referee: another member"] player: Option<serenity::User>,
) -> Result<(), Error> {
    let caller = caller_of(ctx)?;
    let r = sheets::edit(
        &ctx.data().app,
        &caller,
        sheets::SheetEdit {
            hp: (current, max),
            unlock,
        },
        Pick::new(character.as_deref(), uid(&player)),
    )
    .await;
    respond(ctx, r).await
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

/// Add to the lowest empty slot, or rewrite the item in a slot
#[allow(clippy::too_many_arguments)] // one per slash-command option
#[poise::command(slash_command, rename = "add")]
pub async fn item_add(
    ctx: Context<'_>,
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
    #[description = "Character"]
    #[autocomplete = "crate::kit::complete_character"]
    #[max_length = 64]
    character: Option<String>,
    #[description = "Referee: another member"] player: Option<serenity::User>,
) -> Result<(), Error> {
    let caller = caller_of(ctx)?;
    let r = sheets::add_or_edit_item(
        &ctx.data().app,
        &caller,
        kind.as_deref(),
        &text,
        (inventory, slot),
        Pick::new(character.as_deref(), uid(&player)),
    )
    .await;
    respond(ctx, r).await
}

/// Empty a slot
#[poise::command(slash_command, rename = "remove")]
pub async fn item_remove(
    ctx: Context<'_>,
    #[description = "Inventory"] inventory: InventoryKind,
    #[description = "Slot"]
    #[min = 1]
    #[max = 18]
    slot: u32,
    #[description = "Character"]
    #[autocomplete = "crate::kit::complete_character"]
    #[max_length = 64]
    character: Option<String>,
    #[description = "Referee: another member"] player: Option<serenity::User>,
) -> Result<(), Error> {
    let caller = caller_of(ctx)?;
    let r = sheets::remove_item(
        &ctx.data().app,
        &caller,
        inventory,
        slot,
        Pick::new(character.as_deref(), uid(&player)),
    )
    .await;
    respond(ctx, r).await
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

/// Add a Facet
#[poise::command(slash_command, rename = "add")]
pub async fn facet_add(
    ctx: Context<'_>,
    #[description = "Phrase"]
    #[max_length = 100]
    phrase: String,
    #[description = "Die (d6)"]
    #[autocomplete = "dice"]
    #[max_length = 10]
    die: Option<String>,
    #[description = "Character"]
    #[autocomplete = "crate::kit::complete_character"]
    #[max_length = 64]
    character: Option<String>,
    #[description = "Referee: another member"] player: Option<serenity::User>,
) -> Result<(), Error> {
    let caller = caller_of(ctx)?;
    let r = sheets::add_facet(
        &ctx.data().app,
        &caller,
        &phrase,
        die.as_deref(),
        Pick::new(character.as_deref(), uid(&player)),
    )
    .await;
    respond(ctx, r).await
}

/// Step a Facet die after an extreme action
#[poise::command(slash_command, rename = "step")]
pub async fn facet_step(
    ctx: Context<'_>,
    #[description = "Facet"]
    #[autocomplete = "facets"]
    #[max_length = 100]
    facet: String,
    #[description = "Direction"] direction: Step,
    #[description = "Character"]
    #[autocomplete = "crate::kit::complete_character"]
    #[max_length = 64]
    character: Option<String>,
    #[description = "Referee: another member"] player: Option<serenity::User>,
) -> Result<(), Error> {
    let caller = caller_of(ctx)?;
    let up = matches!(direction, Step::Up);
    let r = sheets::step_facet(
        &ctx.data().app,
        &caller,
        &facet,
        up,
        Pick::new(character.as_deref(), uid(&player)),
    )
    .await;
    respond(ctx, r).await
}

/// Remove a Facet
#[poise::command(slash_command, rename = "remove")]
pub async fn facet_remove(
    ctx: Context<'_>,
    #[description = "Facet"]
    #[autocomplete = "facets"]
    #[max_length = 100]
    facet: String,
    #[description = "Character"]
    #[autocomplete = "crate::kit::complete_character"]
    #[max_length = 64]
    character: Option<String>,
    #[description = "Referee: another member"] player: Option<serenity::User>,
) -> Result<(), Error> {
    let caller = caller_of(ctx)?;
    let r = sheets::remove_facet(
        &ctx.data().app,
        &caller,
        &facet,
        Pick::new(character.as_deref(), uid(&player)),
    )
    .await;
    respond(ctx, r).await
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
    if fight == Some(true) {
        let given = [
            (secret.is_some(), "secret"),
            (player.is_some(), "player"),
            (facet_of.is_some(), "facet_of"),
            (their_facet.is_some(), "their_facet"),
            (on_fail.is_some(), "on_fail"),
        ];
        let not_here = given.iter().filter(|(g, _)| *g).map(|(_, n)| *n).collect();
        let save = combat::FightSave {
            inventory,
            modifier: modifier.unwrap_or(0),
            facet: facet.as_deref(),
            name: character.as_deref(),
            not_here,
        };
        return fight_save(ctx, save).await;
    }
    let Some(caller) = crate::kit::secret_caller(ctx, secret).await? else {
        return Ok(());
    };
    let other = match (uid(&facet_of), their_facet.as_deref()) {
        (Some(owner), Some(facet)) => Some(saves::OtherFacet {
            owner: Pick::new(None, Some(owner)),
            facet,
        }),
        (None, None) => None,
        _ => {
            let r = Err(crate::app::AppError::user(
                "Give both `facet_of` (whose Facet) and `their_facet` (which one).",
            ));
            return crate::kit::respond_as(ctx, &caller, r).await;
        }
    };
    let r = saves::save_with_help(
        &ctx.data().app,
        &caller,
        inventory,
        modifier.unwrap_or(0),
        facet.as_deref(),
        Pick::new(character.as_deref(), uid(&player)),
        other,
        on_fail.as_deref(),
    )
    .await;
    crate::kit::respond_as(ctx, &caller, r).await
}

/// `/vr save fight:true`: the fight's save (the leader's initiative, or
/// fleeing), which takes none of a plain save's referee options.
async fn fight_save(ctx: Context<'_>, save: combat::FightSave<'_>) -> Result<(), Error> {
    let caller = caller_of(ctx)?;
    let r = combat::save_in_fight(&ctx.data().app, &caller, save).await;
    respond(ctx, r).await
}

slash_choice!(StressCause {
    SocialAttack => "social attack",
    FledConflict => "fled a social conflict",
    Shocked => "shocked by a Secret",
    OwnSecret => "own Secret revealed",
});

/// Gain Stress (Break if no Light slot is free)
#[poise::command(slash_command)]
pub async fn stress(
    ctx: Context<'_>,
    #[description = "3, d4, 2d6"]
    #[max_length = 20]
    amount: Option<String>,
    #[description = "Why"] cause: Option<StressCause>,
    #[description = "Acted against this Facet: Stress = its die"]
    #[autocomplete = "facets"]
    #[max_length = 100]
    against: Option<String>,
    #[description = "Character"]
    #[autocomplete = "crate::kit::complete_character"]
    #[max_length = 64]
    character: Option<String>,
    #[description = "Referee: another member"] player: Option<serenity::User>,
) -> Result<(), Error> {
    let caller = caller_of(ctx)?;
    let r = changes::stress_for(
        &ctx.data().app,
        &caller,
        amount.as_deref(),
        cause,
        against.as_deref(),
        Pick::new(character.as_deref(), uid(&player)),
    )
    .await;
    respond(ctx, r).await
}

/// Take Wounds (death when every Flesh slot holds one)
#[poise::command(slash_command)]
pub async fn wound(
    ctx: Context<'_>,
    #[description = "1, d4, 2d6"]
    #[max_length = 20]
    amount: String,
    #[description = "Flesh slots to lose first: 3,5"]
    #[max_length = 60]
    displace: Option<String>,
    #[description = "Character"]
    #[autocomplete = "crate::kit::complete_character"]
    #[max_length = 64]
    character: Option<String>,
    #[description = "Referee: another member"] player: Option<serenity::User>,
) -> Result<(), Error> {
    let caller = caller_of(ctx)?;
    let r = changes::wound(
        &ctx.data().app,
        &caller,
        &amount,
        displace.as_deref(),
        Pick::new(character.as_deref(), uid(&player)),
    )
    .await;
    respond(ctx, r).await
}

/// Take damage: HP, or Wounds at 0 HP
#[poise::command(slash_command)]
pub async fn damage(
    ctx: Context<'_>,
    #[description = "3, d6, 2d6"]
    #[max_length = 20]
    amount: String,
    #[description = "auto, hp or wounds"] to: Option<DamageMode>,
    #[description = "Flesh slots to lose first: 3,5"]
    #[max_length = 60]
    displace: Option<String>,
    #[description = "Character"]
    #[autocomplete = "crate::kit::complete_character"]
    #[max_length = 64]
    character: Option<String>,
    #[description = "Referee: another member"] player: Option<serenity::User>,
) -> Result<(), Error> {
    let caller = caller_of(ctx)?;
    let mode = to.unwrap_or(DamageMode::Auto);
    let r = changes::damage(
        &ctx.data().app,
        &caller,
        &amount,
        mode,
        displace.as_deref(),
        Pick::new(character.as_deref(), uid(&player)),
    )
    .await;
    respond(ctx, r).await
}

/// A day of rest removes a Stress or a Wound
#[poise::command(slash_command)]
pub async fn rest(
    ctx: Context<'_>,
    #[description = "stress or wound"] what: Rest,
    #[description = "Slot (else the highest)"]
    #[min = 1]
    #[max = 18]
    slot: Option<u32>,
    #[description = "Character"]
    #[autocomplete = "crate::kit::complete_character"]
    #[max_length = 64]
    character: Option<String>,
    #[description = "Referee: another member"] player: Option<serenity::User>,
) -> Result<(), Error> {
    let caller = caller_of(ctx)?;
    let r = changes::rest(
        &ctx.data().app,
        &caller,
        what,
        slot,
        Pick::new(character.as_deref(), uid(&player)),
    )
    .await;
    respond(ctx, r).await
}

/// Shock an NPC with Secrets: gain a slot
#[allow(clippy::too_many_arguments)]
#[poise::command(slash_command)]
pub async fn reveal(
    ctx: Context<'_>,
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
    #[description = "Character"]
    #[autocomplete = "crate::kit::complete_character"]
    #[max_length = 64]
    character: Option<String>,
    #[description = "Referee: another member"] player: Option<serenity::User>,
) -> Result<(), Error> {
    let caller = caller_of(ctx)?;
    let r = changes::reveal(
        &ctx.data().app,
        &caller,
        Reveal {
            target: &target,
            secrets: &secrets,
            evidence: evidence.as_deref(),
            gain,
            note: note.as_deref(),
            player: Pick::new(character.as_deref(), uid(&player)),
        },
    )
    .await;
    respond(ctx, r).await
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

/// Referee: declare a Convention
#[poise::command(
    default_member_permissions = "MANAGE_GUILD",
    slash_command,
    rename = "add"
)]
pub async fn conv_add(
    ctx: Context<'_>,
    #[description = "The Convention"]
    #[max_length = 200]
    text: String,
    #[description = "+1 or +d4"]
    #[max_length = 10]
    cost: String,
    #[description = "Once per scene"] once: Option<bool>,
) -> Result<(), Error> {
    let caller = caller_of(ctx)?;
    let r = conventions::add(
        &ctx.data().app,
        &caller,
        &text,
        &cost,
        once.unwrap_or(false),
    )
    .await;
    respond(ctx, r).await
}

/// Referee: change a Convention
#[poise::command(
    default_member_permissions = "MANAGE_GUILD",
    slash_command,
    rename = "edit"
)]
pub async fn conv_edit(
    ctx: Context<'_>,
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
) -> Result<(), Error> {
    let caller = caller_of(ctx)?;
    let r = conventions::edit(
        &ctx.data().app,
        &caller,
        number as usize,
        text.as_deref(),
        cost.as_deref(),
        once,
    )
    .await;
    respond(ctx, r).await
}

/// Referee: remove a Convention
#[poise::command(
    default_member_permissions = "MANAGE_GUILD",
    slash_command,
    rename = "remove"
)]
pub async fn conv_remove(
    ctx: Context<'_>,
    #[description = "Number"]
    #[min = 1]
    #[max = 25]
    number: u32,
) -> Result<(), Error> {
    let caller = caller_of(ctx)?;
    let r = conventions::remove(&ctx.data().app, &caller, number as usize).await;
    respond(ctx, r).await
}

/// Post the Conventions
#[poise::command(slash_command, rename = "list")]
pub async fn conv_list(ctx: Context<'_>) -> Result<(), Error> {
    let caller = caller_of(ctx)?;
    let r = conventions::list(&ctx.data().app, &caller).await;
    respond(ctx, r).await
}

/// Mark a violation: the violator gains the Stress
#[poise::command(slash_command, rename = "violate")]
pub async fn conv_violate(
    ctx: Context<'_>,
    #[description = "Number"]
    #[min = 1]
    #[max = 25]
    number: u32,
    #[description = "Character"]
    #[autocomplete = "crate::kit::complete_character"]
    #[max_length = 64]
    character: Option<String>,
    #[description = "Referee: the violator"] player: Option<serenity::User>,
) -> Result<(), Error> {
    let caller = caller_of(ctx)?;
    let r = conventions::violate(
        &ctx.data().app,
        &caller,
        number as usize,
        Pick::new(character.as_deref(), uid(&player)),
    )
    .await;
    respond(ctx, r).await
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

/// Referee: end the scene (reset Conventions, restore HP)
#[poise::command(slash_command, rename = "end")]
pub async fn scene_end(ctx: Context<'_>) -> Result<(), Error> {
    let caller = caller_of(ctx)?;
    let r = conventions::end_scene(&ctx.data().app, &caller).await;
    respond(ctx, r).await
}

slash_choice!(Side {
    Players => "players",
    Npcs => "enemies",
});

/// An action priced in AP.
#[derive(Debug, Clone, Copy, poise::ChoiceParameter)]
pub enum ActChoice {
    /// 4 AP.
    #[name = "attack"]
    Attack,
    /// 4 AP.
    #[name = "reveal"]
    Reveal,
    /// 4 AP.
    #[name = "pickup"]
    PickUp,
    /// 4 AP.
    #[name = "drop"]
    Drop,
    /// 2 AP.
    #[name = "fall"]
    Fall,
    /// 2 AP.
    #[name = "stand"]
    Stand,
    /// 0 AP.
    #[name = "draw"]
    Draw,
    /// 0 AP.
    #[name = "stow"]
    Stow,
    /// The referee's price.
    #[name = "other"]
    Other,
}

async fn seats(ctx: Context<'_>, partial: &str) -> serenity::CreateAutocompleteResponse {
    let mut choices = Vec::new();
    if let Ok(caller) = caller_of(ctx) {
        choices = combat::seat_names(&ctx.data().app, &caller, partial)
            .await
            .into_iter()
            .map(serenity::AutocompleteChoice::from)
            .collect();
    }
    serenity::CreateAutocompleteResponse::new().set_choices(choices)
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

/// Referee: open a fight
#[poise::command(
    default_member_permissions = "MANAGE_GUILD",
    slash_command,
    rename = "start"
)]
pub async fn combat_start(
    ctx: Context<'_>,
    #[description = "Party leader"]
    #[autocomplete = "crate::kit::complete_character"]
    #[max_length = 64]
    leader: String,
    #[description = "Their player"] player: Option<serenity::User>,
) -> Result<(), Error> {
    let caller = caller_of(ctx)?;
    let r = combat::start(
        &ctx.data().app,
        &caller,
        Pick::new(Some(&leader), uid(&player)),
    )
    .await;
    respond(ctx, r).await
}

/// Referee: seat an NPC, or a character on either side
#[allow(clippy::too_many_arguments)] // one per slash-command option
#[poise::command(
    default_member_permissions = "MANAGE_GUILD",
    slash_command,
    rename = "add"
)]
pub async fn combat_add(
    ctx: Context<'_>,
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
    #[description = "Or a character with a sheet"]
    #[autocomplete = "crate::kit::complete_character"]
    #[max_length = 64]
    character: Option<String>,
    #[description = "That character's player"] player: Option<serenity::User>,
) -> Result<(), Error> {
    let caller = caller_of(ctx)?;
    let seat = combat::Seating {
        name: name.as_deref(),
        hp,
        flesh,
        character: Pick::new(character.as_deref(), uid(&player)),
        side,
    };
    let r = combat::add(&ctx.data().app, &caller, seat).await;
    respond(ctx, r).await
}

/// Referee: mark a combatant
#[poise::command(
    default_member_permissions = "MANAGE_GUILD",
    slash_command,
    rename = "mark"
)]
pub async fn combat_mark(
    ctx: Context<'_>,
    #[description = "Combatant"]
    #[autocomplete = "seats"]
    #[max_length = 60]
    name: String,
    #[description = "Seen by the enemy"] visible: Option<bool>,
    #[description = "Immobilised"] immobilised: Option<bool>,
    #[description = "Unsuspecting"] unsuspecting: Option<bool>,
    #[description = "Out of the fight"] out: Option<bool>,
) -> Result<(), Error> {
    let caller = caller_of(ctx)?;
    let marks = Marks {
        visible,
        immobilised,
        unsuspecting,
        out,
    };
    let r = combat::mark(&ctx.data().app, &caller, &name, marks).await;
    respond(ctx, r).await
}

/// Referee: spend AP for a combatant (the players' buttons are on the tracker)
#[poise::command(
    default_member_permissions = "MANAGE_GUILD",
    slash_command,
    rename = "act"
)]
pub async fn combat_act(
    ctx: Context<'_>,
    #[description = "Action"] action: ActChoice,
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
) -> Result<(), Error> {
    let caller = caller_of(ctx)?;
    let what = match action {
        ActChoice::Attack => Move::Attack,
        ActChoice::Reveal => Move::Reveal,
        ActChoice::PickUp => Move::PickUp,
        ActChoice::Drop => Move::Drop,
        ActChoice::Fall => Move::Fall,
        ActChoice::Stand => Move::Stand,
        ActChoice::Draw => Move::Draw,
        ActChoice::Stow => Move::Stow,
        ActChoice::Other => match cost {
            Some(n) => Move::Other(n),
            None => {
                let r = Err(crate::app::AppError::user(
                    "Give the `cost` the referee sets for this action.",
                ));
                return respond(ctx, r).await;
            }
        },
    };
    let r = combat::act(
        &ctx.data().app,
        &caller,
        what,
        name.as_deref(),
        note.as_deref(),
    )
    .await;
    respond(ctx, r).await
}

/// Post the fight's tracker again at the bottom of the channel
#[poise::command(slash_command, rename = "show")]
pub async fn combat_show(ctx: Context<'_>) -> Result<(), Error> {
    let caller = caller_of(ctx)?;
    let r = crate::systems::veracity::combat::show(&ctx.data().app, &caller).await;
    respond(ctx, r).await
}
