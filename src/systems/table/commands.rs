//! The shared `/<root> sheet list|show|use|rename|delete|export|import` slash
//! commands (thin: options in, view out). Written once; [`all`] hands fresh copies
//! to [`crate::systems::commands`], which grafts them onto every playable
//! system's `/<root> sheet` that keeps sheets. Descriptions are terse:
//! Discord caps a command's total text.

use poise::serenity_prelude as serenity;

use super::system_of;
use crate::app::characters::Pick;
use crate::kit::{caller_of, defer, download, respond, root_name, Context, Data, Error};

/// The shared sheet subcommands, to graft.
pub fn all() -> Vec<poise::Command<Data, Error>> {
    vec![
        sheet_list(),
        sheet_show(),
        sheet_use(),
        sheet_rename(),
        sheet_delete(),
        sheet_export(),
        sheet_import(),
    ]
}

fn uid(u: &Option<serenity::User>) -> Option<i64> {
    u.as_ref().map(|u| u.id.get() as i64)
}

/// Your characters (FC: everyone's)
#[poise::command(slash_command, guild_only, rename = "list")]
pub async fn sheet_list(ctx: Context<'_>) -> Result<(), Error> {
    let caller = caller_of(ctx)?;
    let app = &ctx.data().app;
    let r = match system_of(app, &root_name(ctx)) {
        Ok(s) => super::list(app, &caller, s).await,
        Err(e) => Err(e),
    };
    respond(ctx, r).await
}

/// Show a sheet (default: your active one)
#[poise::command(slash_command, guild_only, rename = "show")]
pub async fn sheet_show(
    ctx: Context<'_>,
    #[description = "Character"]
    #[autocomplete = "crate::kit::complete_character"]
    #[max_length = 64]
    character: Option<String>,
    #[description = "Whose (game master only)"] player: Option<serenity::User>,
    #[description = "Only you see it"] private: Option<bool>,
) -> Result<(), Error> {
    let caller = caller_of(ctx)?;
    let app = &ctx.data().app;
    let pick = Pick::new(character.as_deref(), uid(&player));
    let r = match system_of(app, &root_name(ctx)) {
        Ok(s) => super::show(app, &caller, s, pick, private.unwrap_or(false)).await,
        Err(e) => Err(e),
    };
    respond(ctx, r).await
}

/// Make a character the active one
#[poise::command(slash_command, guild_only, rename = "use")]
pub async fn sheet_use(
    ctx: Context<'_>,
    #[description = "Character"]
    #[autocomplete = "crate::kit::complete_character"]
    #[max_length = 64]
    character: String,
    #[description = "Whose (game master only)"] player: Option<serenity::User>,
) -> Result<(), Error> {
    let caller = caller_of(ctx)?;
    let app = &ctx.data().app;
    let pick = Pick::new(Some(&character), uid(&player));
    let r = match system_of(app, &root_name(ctx)) {
        Ok(s) => super::use_character(app, &caller, s, pick).await,
        Err(e) => Err(e),
    };
    respond(ctx, r).await
}

/// Rename a character
#[poise::command(slash_command, guild_only, rename = "rename")]
pub async fn sheet_rename(
    ctx: Context<'_>,
    #[description = "Character"]
    #[autocomplete = "crate::kit::complete_character"]
    #[max_length = 64]
    character: String,
    #[description = "New name"]
    #[max_length = 64]
    name: String,
    #[description = "Whose (game master only)"] player: Option<serenity::User>,
) -> Result<(), Error> {
    let caller = caller_of(ctx)?;
    let app = &ctx.data().app;
    let pick = Pick::new(Some(&character), uid(&player));
    let r = match system_of(app, &root_name(ctx)) {
        Ok(s) => super::rename(app, &caller, s, pick, &name).await,
        Err(e) => Err(e),
    };
    respond(ctx, r).await
}

/// Delete a character (asks first)
#[poise::command(slash_command, guild_only, rename = "delete")]
pub async fn sheet_delete(
    ctx: Context<'_>,
    #[description = "Character"]
    #[autocomplete = "crate::kit::complete_character"]
    #[max_length = 64]
    character: String,
    #[description = "Whose (game master only)"] player: Option<serenity::User>,
) -> Result<(), Error> {
    let caller = caller_of(ctx)?;
    let app = &ctx.data().app;
    let pick = Pick::new(Some(&character), uid(&player));
    let r = match system_of(app, &root_name(ctx)) {
        Ok(s) => super::delete::ask(app, &caller, s, pick).await,
        Err(e) => Err(e),
    };
    respond(ctx, r).await
}

/// Save a character as a file
#[poise::command(slash_command, guild_only, rename = "export")]
pub async fn sheet_export(
    ctx: Context<'_>,
    #[description = "Character"]
    #[autocomplete = "crate::kit::complete_character"]
    #[max_length = 64]
    character: Option<String>,
    #[description = "Whose (game master only)"] player: Option<serenity::User>,
) -> Result<(), Error> {
    let caller = caller_of(ctx)?;
    let app = &ctx.data().app;
    let pick = Pick::new(character.as_deref(), uid(&player));
    let r = match system_of(app, &root_name(ctx)) {
        Ok(s) => super::travel::export(app, &caller, s, pick).await,
        Err(e) => Err(e),
    };
    respond(ctx, r).await
}

/// Load a character from a file
#[poise::command(slash_command, guild_only, rename = "import")]
pub async fn sheet_import(
    ctx: Context<'_>,
    #[description = "A file from sheet export (64 kB at most)"] file: serenity::Attachment,
) -> Result<(), Error> {
    let caller = caller_of(ctx)?;
    let app = &ctx.data().app;
    let r = match system_of(app, &root_name(ctx)) {
        Ok(s) => {
            // A download may take longer than Discord waits for a first answer.
            defer(ctx, true).await?;
            match download::attachment(
                &ctx.serenity_context().http,
                &file,
                super::travel::MAX_BYTES,
            )
            .await
            {
                Ok(bytes) => super::travel::import(app, &caller, s, &bytes).await,
                Err(e) => Err(e),
            }
        }
        Err(e) => Err(e),
    };
    respond(ctx, r).await
}
