//! `/ve spotlight …`: the spotlight tracker (turns passed around the table,
//! rounds and scenes; see [`crate::systems::venus::spotlight`]). Players
//! join, leave and pass with the tracker's own buttons; `scene` and `show`
//! are theirs here, `start`, `seat` and `end` the FC's (under `/ve-gm`).

use crate::kit::{command, slash_choice, Context, Error};
use crate::systems::venus::spotlight::{self, SeatState};

/// The spotlight: turns, rounds and scenes.
#[poise::command(
    slash_command,
    guild_only,
    subcommands("start", "seat", "scene", "show", "end"),
    subcommand_required
)]
pub async fn spotlight(_ctx: Context<'_>) -> Result<(), Error> {
    Ok(())
}

command! {
    /// Start the spotlight in this channel (FC)
    #[poise::command(default_member_permissions = "MANAGE_GUILD", slash_command, guild_only)]
    pub async fn start(
        ctx,
        caller,
        #[description = "The first scene's title (or set it later with /ve spotlight scene)"]
        #[max_length = 100]
        scene: Option<String>,
    ) {
        spotlight::start(&ctx.data().app, &caller, scene.as_deref()).await
    }
}

slash_choice!(SeatState {
    Seated => "Seated",
    Held => "Held",
    Removed => "Removed",
});

command! {
    /// Seat anyone's character, put it on hold or back in the turns, or remove it (FC)
    #[poise::command(default_member_permissions = "MANAGE_GUILD", slash_command, guild_only)]
    pub async fn seat(
        ctx,
        caller,
        #[description = "The character"]
        #[autocomplete = "crate::kit::complete_character"]
        #[max_length = 64]
        character: String,
        #[description = "Seated (default), on hold, or removed"] state: Option<SeatState>,
        #[player = "Whose character, when seating it (default: yours)"] player,
    ) {
        let state = state.unwrap_or(SeatState::Seated);
        spotlight::seat(&ctx.data().app, &caller, &character, player, state).await
    }
}

command! {
    /// A new scene (FC), or offer to introduce the next scene (a player; the FC allows it)
    #[poise::command(slash_command, guild_only)]
    pub async fn scene(
        ctx,
        caller,
        #[description = "The scene's title"]
        #[max_length = 100]
        title: String,
        #[description = "FC: the character whose player introduced it (earns Ego if not held)"]
        #[autocomplete = "crate::kit::complete_character"]
        #[max_length = 64]
        introduced_by: Option<String>,
    ) {
        let introduced_by = introduced_by.as_deref();
        spotlight::scene(&ctx.data().app, &caller, &title, introduced_by).await
    }
}

command! {
    /// Post the spotlight again at the bottom of the channel
    #[poise::command(slash_command, guild_only)]
    pub async fn show(ctx, caller) {
        spotlight::show(&ctx.data().app, &caller).await
    }
}

command! {
    /// End the spotlight (FC)
    #[poise::command(default_member_permissions = "MANAGE_GUILD", slash_command, guild_only)]
    pub async fn end(ctx, caller) {
        spotlight::end(&ctx.data().app, &caller).await
    }
}
