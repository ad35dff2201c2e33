//! The `/st` slash commands (thin: options in, application call, reply out)
//! and their autocomplete callbacks.

use poise::serenity_prelude as serenity;

use super::complete;
use super::governed::Edit;
use super::rolls::RollArgs;
use super::{recovery, rolls, sheets};
use crate::app::characters::{Pick, Who};
use crate::app::AppError;
use crate::kit::suggest::{choices, option_text};
use crate::kit::{caller_of, command, slash_choice, Context, Data, Error};
use crate::rules::storyteller::{AdHocRequest, TraitKind, WillpowerRequest};
use crate::systems::table::approval;

/// Every command of this system.
pub fn all() -> Vec<poise::Command<Data, Error>> {
    vec![st()]
}

async fn ac_traits(ctx: Context<'_>, partial: &str) -> serenity::CreateAutocompleteResponse {
    let Ok(c) = caller_of(ctx) else {
        return choices(Vec::new());
    };
    choices(complete::traits(&ctx.data().app, &c, partial, true, false).await)
}

async fn ac_trait(ctx: Context<'_>, partial: &str) -> serenity::CreateAutocompleteResponse {
    let Ok(c) = caller_of(ctx) else {
        return choices(Vec::new());
    };
    choices(complete::traits(&ctx.data().app, &c, partial, false, false).await)
}

async fn ac_ability(ctx: Context<'_>, partial: &str) -> serenity::CreateAutocompleteResponse {
    let Ok(c) = caller_of(ctx) else {
        return choices(Vec::new());
    };
    choices(complete::traits(&ctx.data().app, &c, partial, false, true).await)
}

async fn ac_specialties(ctx: Context<'_>, partial: &str) -> serenity::CreateAutocompleteResponse {
    let Ok(c) = caller_of(ctx) else {
        return choices(Vec::new());
    };
    let traits = option_text(ctx, "traits");
    choices(complete::specialties(&ctx.data().app, &c, traits.as_deref(), partial).await)
}

async fn ac_new_specialty(ctx: Context<'_>, partial: &str) -> serenity::CreateAutocompleteResponse {
    let ability = option_text(ctx, "ability");
    choices(complete::suggested_specialties(ability.as_deref(), partial))
}

async fn ac_any_character(ctx: Context<'_>, partial: &str) -> serenity::CreateAutocompleteResponse {
    let Ok(c) = caller_of(ctx) else {
        return choices(Vec::new());
    };
    choices(complete::any_character_names(&ctx.data().app, &c, partial).await)
}

/// The character a command's `character:` and `player:` options pick.
fn target(character: &Option<String>, player: Option<i64>) -> Pick<'_> {
    Pick::new(character.as_deref(), player)
}

slash_choice!(TraitKind {
    Attribute => "attribute",
    Talent => "talent",
    Skill => "skill",
    Knowledge => "knowledge",
});

/// Storyteller d10 rules: sheets, rolls, willpower.
#[poise::command(
    slash_command,
    guild_only,
    subcommand_required,
    subcommands(
        "sheet",
        "roll",
        "pool",
        "willpower",
        "turn",
        "rest",
        "recover",
        "revive"
    )
)]
pub async fn st(_ctx: Context<'_>) -> Result<(), Error> {
    Ok(())
}

/// Character sheets: create, show and edit.
#[poise::command(
    slash_command,
    guild_only,
    subcommand_required,
    subcommands(
        "sheet_create",
        "sheet_set",
        "sheet_specialty",
        "sheet_willpower",
        "sheet_wounds"
    )
)]
pub async fn sheet(_ctx: Context<'_>) -> Result<(), Error> {
    Ok(())
}

command! {
    /// Create a character: attributes at 1, abilities at 0, willpower full.
    #[poise::command(slash_command, guild_only, rename = "create")]
    pub async fn sheet_create(
        ctx,
        caller,
        #[description = "The character's name"]
        #[max_length = 64]
        name: String,
        #[description = "Permanent willpower, 1 to 10"]
        #[min = 1]
        #[max = 10]
        willpower: u8,
        #[player = "Storyteller only: for this member"] player,
    ) {
        sheets::create(&ctx.data().app, &caller, &name, willpower, player).await
    }
}

command! {
    /// Set a trait's dots (0 to 5), or many: traits:"Wits 3, Alertness 2"; kind: adds a new one.
    #[poise::command(slash_command, guild_only, rename = "set")]
    pub async fn sheet_set(
        ctx,
        caller,
        #[description = "Attribute or ability (aliases like Brawling or Str work)"]
        #[autocomplete = "ac_trait"]
        #[max_length = 100]
        #[rename = "trait"]
        trait_name: Option<String>,
        #[description = "Dots, 0 to 5"]
        #[min = 0]
        #[max = 5]
        dots: Option<u8>,
        #[description = "Many at once, e.g. \"Wits 3, Alertness 2\" (instead of trait and dots)"]
        #[max_length = 3000]
        traits: Option<String>,
        #[description = "Add `trait` as a trait of this sheet's own, of this kind"]
        kind: Option<TraitKind>,
        #[character = "Character (default: active)"] character,
        #[player = "Whose (storyteller)"] player,
    ) {
        let app = &ctx.data().app;
        let who = target(&character, player);
        match (trait_name, dots, traits, kind) {
            // A new trait of the sheet's own (issue 31: was `/st sheet trait`).
            (Some(name), dots, None, Some(kind)) => {
                sheets::custom_trait(app, &caller, &name, kind, dots, who).await
            }
            (_, _, _, Some(_)) => Err(AppError::user(
                "`kind` adds one trait of the sheet's own: name it in `trait` (with its `dots`), not in a list.",
            )),
            (None, None, Some(list), None) => sheets::set_list(app, &caller, &list, who).await,
            (Some(name), Some(dots), None, None) => sheets::set(app, &caller, &name, dots, who).await,
            (_, _, Some(_), None) => Err(AppError::user(
                "Give `traits` (a list) or `trait` and `dots`, not both.",
            )),
            _ => Err(AppError::user(
                "Give `trait` and `dots`, or a list in `traits` (e.g. `traits:Wits 3, Alertness 2`).",
            )),
        }
    }
}

command! {
    /// Add (or remove) a specialty of an ability with at least one dot.
    #[poise::command(slash_command, guild_only, rename = "specialty")]
    pub async fn sheet_specialty(
        ctx,
        caller,
        #[description = "The ability"]
        #[autocomplete = "ac_ability"]
        #[max_length = 100]
        ability: String,
        #[description = "The specialty's name"]
        #[autocomplete = "ac_new_specialty"]
        #[max_length = 40]
        name: String,
        #[description = "Advanced specialty? (default: the source's, else general)"]
        advanced: Option<bool>,
        #[description = "Remove this specialty instead"] remove: Option<bool>,
        #[character = "Character (default: active)"] character,
        #[player = "Whose (storyteller)"] player,
    ) {
        let (remove, who) = (remove.unwrap_or(false), target(&character, player));
        let app = &ctx.data().app;
        sheets::specialty(app, &caller, &ability, &name, advanced, remove, who).await
    }
}

command! {
    /// Set willpower: permanent (1 to 10) and/or current (0 to permanent).
    #[poise::command(slash_command, guild_only, rename = "willpower")]
    pub async fn sheet_willpower(
        ctx,
        caller,
        #[description = "Current willpower, 0-permanent (0: incapacitated)"]
        #[min = 0]
        #[max = 10]
        current: Option<u8>,
        #[description = "Permanent willpower, 1 to 10"]
        #[min = 1]
        #[max = 10]
        permanent: Option<u8>,
        #[character = "Character (default: active)"] character,
        #[player = "Whose (storyteller)"] player,
    ) {
        let app = &ctx.data().app;
        let t = target(&character, player);
        match current {
            Some(current) => {
                let who = Who::of(t);
                let edit = Edit::Willpower {
                    current,
                    permanent,
                    who,
                };
                approval::govern(app, &caller, edit).await
            }
            None => sheets::willpower(app, &caller, current, permanent, t).await,
        }
    }
}

command! {
    /// Set the wound penalty: dice removed and difficulty added to actions.
    #[poise::command(slash_command, guild_only, rename = "wounds")]
    pub async fn sheet_wounds(
        ctx,
        caller,
        #[description = "Dice removed from every action, 0-10"]
        #[min = 0]
        #[max = 10]
        dice: u8,
        #[description = "Difficulty added to every action, 0-8"]
        #[min = 0]
        #[max = 8]
        difficulty: Option<u8>,
        #[character = "Character (default: active)"] character,
        #[player = "Whose (storyteller)"] player,
    ) {
        let edit = Edit::Wounds {
            dice,
            difficulty: difficulty.unwrap_or(0),
            who: Who::of(target(&character, player)),
        };
        approval::govern(&ctx.data().app, &caller, edit).await
    }
}

command! {
    /// Roll traits from a sheet, e.g. traits:"Wits + Alertness".
    #[poise::command(slash_command, guild_only)]
    #[allow(clippy::too_many_arguments)]
    pub async fn roll(
        ctx,
        caller,
        #[description = "One or two traits, e.g. Wits + Alertness"]
        #[autocomplete = "ac_traits"]
        #[max_length = 200]
        traits: String,
        #[description = "Difficulty 2-10 (default: the server's, usually 6)"]
        #[min = 2]
        #[max = 10]
        difficulty: Option<u32>,
        #[description = "Threshold: successes removed first, 0-30"]
        #[min = 0]
        #[max = 30]
        threshold: Option<u32>,
        #[description = "Specialties in use, comma-separated (at most one per dot)"]
        #[autocomplete = "ac_specialties"]
        #[max_length = 200]
        specialties: Option<String>,
        #[description = "Advanced specialties the action requires (+1 threshold each unless used)"]
        #[max_length = 200]
        advanced: Option<String>,
        #[description = "Storyteller allows figuring out a 0-dot knowledge"]
        figure_it_out: Option<bool>,
        #[description = "Extra dice, -10 to 10"]
        #[min = -10]
        #[max = 10]
        dice_modifier: Option<i32>,
        #[description = "Extra difficulty, -10 to 10"]
        #[min = -10]
        #[max = 10]
        difficulty_modifier: Option<i32>,
        #[description = "Spend 1 willpower to ignore the wound penalty (once per turn)"]
        ignore_wounds: Option<bool>,
        #[character = "Character (default: active)"] character,
        #[player = "Whose (storyteller)"] player,
        #[secret = "Only you and the storyteller see it"] secret,
    ) {
        let args = RollArgs {
            traits: &traits,
            difficulty,
            threshold,
            specialties: specialties.as_deref(),
            advanced: advanced.as_deref(),
            figure_it_out: figure_it_out.unwrap_or(false),
            dice_modifier,
            difficulty_modifier,
            ignore_wounds: ignore_wounds.unwrap_or(false),
            target: target(&character, player),
        };
        rolls::roll(&ctx.data().app, &caller, args).await
    }
}

command! {
    /// Roll a bare pool of d10s, no sheet (an NPC on the fly).
    #[poise::command(slash_command, guild_only)]
    pub async fn pool(
        ctx,
        caller,
        #[description = "Number of dice (the server's cap applies)"]
        #[min = 0]
        #[max = 100]
        dice: u32,
        #[description = "Difficulty 2-10 (default: the server's, usually 6)"]
        #[min = 2]
        #[max = 10]
        difficulty: Option<u32>,
        #[description = "Threshold: successes removed first, 0-30"]
        #[min = 0]
        #[max = 30]
        threshold: Option<u32>,
        #[description = "Specialties in use, 0-5 (each 10 adds bonus dice)"]
        #[min = 0]
        #[max = 5]
        specialties: Option<u32>,
        #[secret = "Only you and the storyteller see it"] secret,
    ) {
        let req = AdHocRequest {
            dice,
            difficulty,
            threshold: threshold.unwrap_or(0),
            specialties: specialties.unwrap_or(0),
        };
        rolls::pool(&ctx.data().app, &caller, req).await
    }
}

command! {
    /// Roll willpower; then you may spend 1 for an automatic success.
    #[poise::command(slash_command, guild_only)]
    pub async fn willpower(
        ctx,
        caller,
        #[description = "Difficulty 2-10 (default: the server's, usually 6)"]
        #[min = 2]
        #[max = 10]
        difficulty: Option<u32>,
        #[description = "Threshold: successes removed first, 0-30"]
        #[min = 0]
        #[max = 30]
        threshold: Option<u32>,
        #[character = "Character (default: active)"] character,
        #[player = "Whose (storyteller)"] player,
        #[secret = "Only you and the storyteller see it"] secret,
    ) {
        let req = WillpowerRequest {
            difficulty,
            threshold: threshold.unwrap_or(0),
            ..WillpowerRequest::default()
        };
        let who = target(&character, player);
        rolls::willpower(&ctx.data().app, &caller, req, who).await
    }
}

command! {
    /// A new turn: willpower may again ignore wound penalties.
    #[poise::command(slash_command, guild_only)]
    pub async fn turn(
        ctx,
        caller,
        #[description = "Storyteller only: every character in the server"] everyone: Option<bool>,
        #[character = "Character (default: active)"] character,
        #[player = "Whose (storyteller)"] player,
    ) {
        let (who, everyone) = (target(&character, player), everyone.unwrap_or(false));
        recovery::turn(&ctx.data().app, &caller, who, everyone).await
    }
}

command! {
    /// A day of active rest: +1 willpower, then +1 per success at difficulty 8.
    #[poise::command(slash_command, guild_only)]
    pub async fn rest(
        ctx,
        caller,
        #[character = "Character (default: active)"] character,
        #[player = "Whose (storyteller)"] player,
    ) {
        rolls::rest(&ctx.data().app, &caller, target(&character, player)).await
    }
}

command! {
    /// Recover willpower: a day of rest (+1), or the first dot back at 0.
    #[poise::command(slash_command, guild_only)]
    pub async fn recover(
        ctx,
        caller,
        #[description = "At 0 willpower: the first dot, out of danger a full turn"]
        first_dot: Option<bool>,
        #[character = "Character (default: active)"] character,
        #[player = "Whose (storyteller)"] player,
    ) {
        let edit = Edit::Recover {
            first_dot: first_dot.unwrap_or(false),
            who: Who::of(target(&character, player)),
        };
        approval::govern(&ctx.data().app, &caller, edit).await
    }
}

command! {
    /// Spend 1 willpower to bring an incapacitated character back to 1.
    #[poise::command(slash_command, guild_only)]
    pub async fn revive(
        ctx,
        caller,
        #[description = "The incapacitated character"]
        #[autocomplete = "ac_any_character"]
        #[max_length = 64]
        character: Option<String>,
        #[player = "Whose"] player,
        #[description = "Who spends willpower (default: your active character)"]
        #[autocomplete = "crate::kit::complete_character"]
        #[max_length = 64]
        helper: Option<String>,
    ) {
        let edit = Edit::Revive {
            helper,
            who: Who::of(target(&character, player)),
        };
        approval::govern(&ctx.data().app, &caller, edit).await
    }
}
