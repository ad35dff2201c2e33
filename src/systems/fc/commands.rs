//! The `/fc` slash commands (thin: options in, view out) and their
//! autocomplete callbacks.

use poise::serenity_prelude as serenity;

use super::catalog::Scope;
use crate::kit::{caller_of, respond, Context, Data, Error};

/// Every command of the FC controls.
pub fn all() -> Vec<poise::Command<Data, Error>> {
    vec![fc()]
}

/// A system, for `/fc channel-system`.
#[derive(Debug, Clone, Copy, poise::ChoiceParameter)]
pub enum SystemChoice {
    /// Venus Engine.
    #[name = "Venus Engine"]
    Venus,
    /// Veracity.
    #[name = "Veracity"]
    Veracity,
    /// Storyteller.
    #[name = "Storyteller"]
    Storyteller,
    /// Virtual Veil.
    #[name = "Virtual Veil"]
    Ore,
    /// No choice here: the channel follows the server's system.
    #[name = "none"]
    None,
}

impl SystemChoice {
    fn scope(self) -> Option<&'static str> {
        match self {
            SystemChoice::Venus => Some("venus"),
            SystemChoice::Veracity => Some("veracity"),
            SystemChoice::Storyteller => Some("storyteller"),
            SystemChoice::Ore => Some("ore"),
            SystemChoice::None => None,
        }
    }
}

/// Whose settings `/fc settings show` details.
#[derive(Debug, Clone, Copy, poise::ChoiceParameter)]
pub enum ScopeChoice {
    /// Shared.
    #[name = "Every system (shared)"]
    Shared,
    /// Venus Engine.
    #[name = "Venus Engine"]
    Venus,
    /// Veracity.
    #[name = "Veracity"]
    Veracity,
    /// Storyteller.
    #[name = "Storyteller"]
    Storyteller,
    /// Virtual Veil.
    #[name = "Virtual Veil"]
    Ore,
}

impl From<ScopeChoice> for Scope {
    fn from(s: ScopeChoice) -> Self {
        match s {
            ScopeChoice::Shared => Scope::Shared,
            ScopeChoice::Venus => Scope::Venus,
            ScopeChoice::Veracity => Scope::Veracity,
            ScopeChoice::Storyteller => Scope::Storyteller,
            ScopeChoice::Ore => Scope::Ore,
        }
    }
}

fn option_text(ctx: Context<'_>, name: &str) -> Option<String> {
    let poise::Context::Application(a) = ctx else {
        return None;
    };
    a.args
        .iter()
        .find(|o| o.name == name)
        .and_then(|o| match &o.value {
            serenity::ResolvedValue::String(s) => Some((*s).to_string()),
            serenity::ResolvedValue::Autocomplete { value, .. } => Some((*value).to_string()),
            _ => None,
        })
}

async fn ac_name(_ctx: Context<'_>, partial: &str) -> serenity::CreateAutocompleteResponse {
    let choices = super::name_choices(partial)
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

/// FC: house rules, the FC role, channel systems and the GM channel
#[poise::command(
    slash_command,
    guild_only,
    subcommands("role", "settings", "set", "channel_system", "gm_channel"),
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
    #[description = "Only this system's settings, with help"] scope: Option<ScopeChoice>,
) -> Result<(), Error> {
    let caller = caller_of(ctx)?;
    let r = super::show(&ctx.data().app, &caller, scope.map(Into::into)).await;
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
    let r = super::set(&ctx.data().app, &caller, &name, &value).await;
    respond(ctx, r).await
}

/// FC: the system this channel plays
#[poise::command(slash_command, rename = "channel-system")]
pub async fn channel_system(
    ctx: Context<'_>,
    #[description = "The system here, or none to follow the server's"] system: SystemChoice,
) -> Result<(), Error> {
    let caller = caller_of(ctx)?;
    let r = super::channel_system(&ctx.data().app, &caller, system.scope()).await;
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
