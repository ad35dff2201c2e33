//! Slash commands of the generic roller (thin: options in, view out).

use crate::kit::{respond_as, secret_caller, Context, Data, Error};

/// Every command of this system.
pub fn all() -> Vec<poise::Command<Data, Error>> {
    vec![roll()]
}

/// Roll dice: 3d6+2, 4d6kh3, 5d10>=8, 1d20+5>=15, 6#4d6kh3 … (/help system:Generic dice)
#[poise::command(slash_command, guild_only)]
pub async fn roll(
    ctx: Context<'_>,
    #[description = "Dice like 3d6+2, 4d6dl1, 2d10!, 5d10>=8f1, 1d20+5 >= 15, 2*1d8 [fire], 6#4d6kh3"]
    #[max_length = 200]
    expression: String,
    #[description = "Only you and the FC see it"] secret: Option<bool>,
) -> Result<(), Error> {
    let Some(caller) = secret_caller(ctx, secret).await? else {
        return Ok(());
    };
    let result = super::roll(&ctx.data().app, &caller, &expression).await;
    respond_as(ctx, &caller, result).await
}
