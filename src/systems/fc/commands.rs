//! The `/fc` slash commands (thin: options in, view out) and their
//! autocomplete callbacks.

use poise::serenity_prelude as serenity;

use super::catalog::Scope;
use crate::app::registry::Registry;
use crate::app::verbosity::Verbosity;
use crate::app::AppError;
use crate::kit::suggest::option_text;
use crate::kit::{
    caller_of, respond, root_name, set_choices, slash_choice, subcommand, Context, Data, Error,
};

/// Every command of the FC controls.
pub fn all() -> Vec<poise::Command<Data, Error>> {
    vec![fc()]
}

/// What `/fc settings show scope:` offers: the registry's scopes.
pub fn scope_choices(reg: &Registry) -> Vec<Scope> {
    Scope::all(reg)
}

/// What `/fc channel-system system:` offers: the playable systems, then
/// none (follow the server's).
pub fn channel_choices(reg: &Registry) -> Vec<Option<&'static str>> {
    let mut v: Vec<Option<&'static str>> = reg.playable().map(|s| Some(s.id())).collect();
    v.push(None);
    v
}

/// Fills the choice lists of `/fc` from the registry.
pub fn finish(fc: &mut poise::Command<Data, Error>, reg: &Registry) {
    if let Some(c) = subcommand(fc, &["settings", "show"]) {
        let names = scope_choices(reg).into_iter().map(|s| match s {
            Scope::Shared => "Every system (shared)".to_string(),
            s => s.title().to_string(),
        });
        set_choices(c, "scope", names);
    }
    if let Some(c) = subcommand(fc, &["channel-system"]) {
        let names = channel_choices(reg)
            .into_iter()
            .map(|s| s.map_or_else(|| "none".to_string(), |id| reg.display(id).to_string()));
        set_choices(c, "system", names);
    }
}

// `/<system>-gm settings set`: one system's house rules, through the
// same flow and reply as `/fc set`. Grafted onto every playable system's
// root command by `crate::systems::commands` (and moved to its game
// master's root). Players read the house rules in force with `/game`
// (issue 31 item 1: `/<system> settings show` is gone from their picker);
// the game master keeps `/fc settings show`.
/// This system's house rules
#[poise::command(
    slash_command,
    guild_only,
    rename = "settings",
    subcommands("system_settings_set"),
    subcommand_required
)]
pub async fn system_settings(_: Context<'_>) -> Result<(), Error> {
    Ok(())
}

/// The system of a grafted `/<root> settings …` command.
fn scope_here(ctx: Context<'_>) -> Result<Scope, Error> {
    let root = root_name(ctx);
    ctx.data()
        .app
        .registry
        .by_root(&root)
        .map(Scope::of_system)
        .ok_or_else(|| AppError::Internal(format!("no system has the root /{root}")).into())
}

async fn ac_system_name(ctx: Context<'_>, partial: &str) -> serenity::CreateAutocompleteResponse {
    let choices = match scope_here(ctx) {
        Ok(scope) => super::name_choices(&ctx.data().app.registry, Some(scope), partial),
        Err(_) => Vec::new(),
    };
    serenity::CreateAutocompleteResponse::new().set_choices(
        choices
            .into_iter()
            .map(serenity::AutocompleteChoice::from)
            .collect(),
    )
}

/// Change one of this system's house rules (game master only)
#[poise::command(
    default_member_permissions = "MANAGE_GUILD",
    slash_command,
    guild_only,
    rename = "set"
)]
pub async fn system_settings_set(
    ctx: Context<'_>,
    #[description = "The setting"]
    #[autocomplete = "ac_system_name"]
    #[max_length = 100]
    name: String,
    #[description = "Its new value"]
    #[autocomplete = "ac_value"]
    #[max_length = 1000]
    value: String,
) -> Result<(), Error> {
    let caller = caller_of(ctx)?;
    let scope = scope_here(ctx)?;
    let r = super::set(&ctx.data().app, &caller, Some(scope), &name, &value).await;
    respond(ctx, r).await
}

async fn ac_name(ctx: Context<'_>, partial: &str) -> serenity::CreateAutocompleteResponse {
    let choices = super::name_choices(&ctx.data().app.registry, None, partial)
        .into_iter()
        .map(serenity::AutocompleteChoice::from)
        .collect();
    serenity::CreateAutocompleteResponse::new().set_choices(choices)
}

async fn ac_value(ctx: Context<'_>, partial: &str) -> serenity::CreateAutocompleteResponse {
    let (Ok(caller), Some(name)) = (caller_of(ctx), option_text(ctx, "name")) else {
        return serenity::CreateAutocompleteResponse::new();
    };
    let choices = super::value_choices(&ctx.data().app, &caller, &name, partial)
        .await
        .into_iter()
        .map(|(label, value)| serenity::AutocompleteChoice::new(label, value))
        .collect();
    serenity::CreateAutocompleteResponse::new().set_choices(choices)
}

/// FC: house rules, the FC role, channel systems, the GM channel, undo, forget
#[poise::command(
    default_member_permissions = "MANAGE_GUILD",
    slash_command,
    guild_only,
    subcommands(
        "role",
        "settings",
        "set",
        "channel_system",
        "gm_channel",
        "verbosity",
        "undo",
        "forget"
    ),
    subcommand_required
)]
pub async fn fc(_: Context<'_>) -> Result<(), Error> {
    Ok(())
}

/// Name the FC role (server managers only), or see who the FC is
#[poise::command(slash_command)]
pub async fn role(
    ctx: Context<'_>,
    #[description = "Members with this role are the FC (besides Manage Server)"] role: Option<
        serenity::RoleId,
    >,
    #[description = "Forget the FC role: only Manage Server holders are the FC"] clear: Option<
        bool,
    >,
) -> Result<(), Error> {
    let caller = caller_of(ctx)?;
    let r = super::role(
        &ctx.data().app,
        &caller,
        role.map(|r| r.get() as i64),
        clear.unwrap_or(false),
    )
    .await;
    respond(ctx, r).await
}

/// House rules of every system
#[poise::command(slash_command, subcommands("settings_show"), subcommand_required)]
pub async fn settings(_: Context<'_>) -> Result<(), Error> {
    Ok(())
}

/// Show every house rule (or one system's, with help)
#[poise::command(slash_command, rename = "show")]
pub async fn settings_show(
    ctx: Context<'_>,
    #[description = "Only this system's settings, with help"] scope: Option<u32>,
) -> Result<(), Error> {
    let caller = caller_of(ctx)?;
    let app = &ctx.data().app;
    let scope = match scope {
        Some(i) => Some(
            scope_choices(&app.registry)
                .get(i as usize)
                .copied()
                .ok_or_else(|| AppError::user("That is not one of the listed systems."))?,
        ),
        None => None,
    };
    let r = super::show(app, &caller, scope).await;
    respond(ctx, r).await
}

/// FC: change a house rule of any system
#[poise::command(slash_command)]
pub async fn set(
    ctx: Context<'_>,
    #[description = "The setting"]
    #[autocomplete = "ac_name"]
    #[max_length = 100]
    name: String,
    #[description = "Its new value"]
    #[autocomplete = "ac_value"]
    #[max_length = 1000]
    value: String,
) -> Result<(), Error> {
    let caller = caller_of(ctx)?;
    let r = super::set(&ctx.data().app, &caller, None, &name, &value).await;
    let r = crate::kit::game_commands::after_change(ctx, caller.guild_id, r).await;
    respond(ctx, r).await
}

/// FC: the system this channel plays
#[poise::command(slash_command, rename = "channel-system")]
pub async fn channel_system(
    ctx: Context<'_>,
    #[description = "The system here, or none to follow the server's"] system: u32,
) -> Result<(), Error> {
    let caller = caller_of(ctx)?;
    let app = &ctx.data().app;
    let system = *channel_choices(&app.registry)
        .get(system as usize)
        .ok_or_else(|| AppError::user("That is not one of the listed systems."))?;
    let r = super::channel_system(app, &caller, system).await;
    let r = crate::kit::game_commands::after_change(ctx, caller.guild_id, r).await;
    respond(ctx, r).await
}

slash_choice!(Verbosity {
    Full => "full",
    Compact => "compact",
});

/// FC: full results here, or one line per result
#[poise::command(slash_command)]
pub async fn verbosity(
    ctx: Context<'_>,
    #[description = "full (the default) or compact: one line per result"] level: Verbosity,
) -> Result<(), Error> {
    let caller = caller_of(ctx)?;
    let r = super::verbosity(&ctx.data().app, &caller, level).await;
    respond(ctx, r).await
}

/// FC: where secret rolls go
#[poise::command(slash_command, rename = "gm-channel")]
pub async fn gm_channel(
    ctx: Context<'_>,
    #[description = "A channel only the FC reads"]
    #[channel_types("Text", "PrivateThread", "PublicThread")]
    channel: Option<serenity::ChannelId>,
    #[description = "No GM channel: secret rolls are refused"] clear: Option<bool>,
) -> Result<(), Error> {
    let caller = caller_of(ctx)?;
    let r = super::gm_channel(
        &ctx.data().app,
        &caller,
        channel.map(|c| c.get() as i64),
        clear.unwrap_or(false),
    )
    .await;
    respond(ctx, r).await
}

/// FC: see a character's last changes and undo the newest
#[poise::command(slash_command)]
pub async fn undo(
    ctx: Context<'_>,
    #[description = "The character (in this channel's system)"]
    #[autocomplete = "crate::kit::complete_character"]
    #[max_length = 64]
    character: String,
    #[description = "Whose character, when two members share the name"] player: Option<
        serenity::UserId,
    >,
) -> Result<(), Error> {
    let caller = caller_of(ctx)?;
    let pick = crate::app::characters::Pick::new(Some(&character), player.map(|u| u.get() as i64));
    let r = crate::systems::table::undo::ask(&ctx.data().app, &caller, pick).await;
    respond(ctx, r).await
}

/// FC: erase a member's data here (asks first)
#[poise::command(slash_command)]
pub async fn forget(
    ctx: Context<'_>,
    #[description = "The member"] member: Option<serenity::UserId>,
    #[description = "Or their id, for a member who left"]
    #[max_length = 40]
    user_id: Option<String>,
) -> Result<(), Error> {
    let caller = caller_of(ctx)?;
    let target = match (member, user_id.as_deref()) {
        (Some(m), None) => Ok(m.get() as i64),
        (None, Some(raw)) => crate::systems::platform::me::parse_user_id(raw),
        (Some(_), Some(_)) => Err(AppError::user("Give `member` or `user_id`, not both.")),
        (None, None) => Err(AppError::user(
            "Whose data? Give `member` (or `user_id` for a member who left).",
        )),
    };
    let r = match target {
        Ok(t) => crate::systems::platform::me::ask(&ctx.data().app, &caller, Some(t)).await,
        Err(e) => Err(e),
    };
    respond(ctx, r).await
}
