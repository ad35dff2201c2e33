//! The shared `/<root> sheet show|rename|import` slash commands (thin:
//! options in, view out), and the game master's `/<root>-gm sheet
//! show|rename` with `player:` (character names are unique per owner only,
//! so the game master names the owner where two members share a name).
//! A shown sheet's controls replaced `sheet list|use|delete|export`
//! ([`super::card`]). Written once; [`all`] hands fresh copies to
//! [`crate::systems::commands`], which grafts them onto every playable
//! system's `/<root> sheet` that keeps sheets (the marked ones move to
//! `/<root>-gm sheet`). Descriptions are terse: Discord caps a command's
//! total text.

use poise::serenity_prelude as serenity;

use super::system_of;
use crate::app::characters::Pick;
use crate::kit::{caller_of, defer, download, respond, root_name, Context, Data, Error};

/// The shared sheet subcommands, to graft.
pub fn all() -> Vec<poise::Command<Data, Error>> {
    vec![
        sheet_show(),
        sheet_rename(),
        sheet_import(),
        gm_sheet_show(),
        gm_sheet_rename(),
    ]
}

fn uid(u: &serenity::User) -> Option<i64> {
    Some(u.id.get() as i64)
}

/// Show a sheet (default: your active one)
#[poise::command(slash_command, guild_only, rename = "show")]
pub async fn sheet_show(
    ctx: Context<'_>,
    #[description = "Character"]
    #[autocomplete = "crate::kit::complete_character"]
    #[max_length = 64]
    character: Option<String>,
    #[description = "Only you see it"] private: Option<bool>,
) -> Result<(), Error> {
    show(ctx, Pick::new(character.as_deref(), None), private).await
}

/// Show a member's sheet (Play as, Delete, Export)
#[poise::command(
    slash_command,
    guild_only,
    rename = "show",
    default_member_permissions = "MANAGE_GUILD"
)]
pub async fn gm_sheet_show(
    ctx: Context<'_>,
    #[description = "Whose (their active one unless named)"] player: serenity::User,
    #[description = "Character"]
    #[autocomplete = "crate::kit::complete_character"]
    #[max_length = 64]
    character: Option<String>,
    #[description = "Only you see it"] private: Option<bool>,
) -> Result<(), Error> {
    show(ctx, Pick::new(character.as_deref(), uid(&player)), private).await
}

async fn show(ctx: Context<'_>, pick: Pick<'_>, private: Option<bool>) -> Result<(), Error> {
    let caller = caller_of(ctx)?;
    let app = &ctx.data().app;
    let r = match system_of(app, &root_name(ctx)) {
        Ok(s) => super::show(app, &caller, s, pick, private.unwrap_or(false)).await,
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
) -> Result<(), Error> {
    rename(ctx, Pick::new(Some(&character), None), &name).await
}

/// Rename a member's character
#[poise::command(
    slash_command,
    guild_only,
    rename = "rename",
    default_member_permissions = "MANAGE_GUILD"
)]
pub async fn gm_sheet_rename(
    ctx: Context<'_>,
    #[description = "Whose"] player: serenity::User,
    #[description = "Character"]
    #[autocomplete = "crate::kit::complete_character"]
    #[max_length = 64]
    character: String,
    #[description = "New name"]
    #[max_length = 64]
    name: String,
) -> Result<(), Error> {
    rename(ctx, Pick::new(Some(&character), uid(&player)), &name).await
}

async fn rename(ctx: Context<'_>, pick: Pick<'_>, name: &str) -> Result<(), Error> {
    let caller = caller_of(ctx)?;
    let app = &ctx.data().app;
    let r = match system_of(app, &root_name(ctx)) {
        Ok(s) => super::rename(app, &caller, s, pick, name).await,
        Err(e) => Err(e),
    };
    respond(ctx, r).await
}

/// Load a character from a file
#[poise::command(slash_command, guild_only, rename = "import")]
pub async fn sheet_import(
    ctx: Context<'_>,
    #[description = "A file from a sheet's Export (64 kB at most)"] file: serenity::Attachment,
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
