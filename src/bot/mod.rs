//! The Discord adapter: the poise framework around the application layer.
//!
//! Thin by design: commands turn options into an application call and the
//! [`Response`] into Discord replies; a global component handler routes every
//! button click to [`crate::app::component::dispatch`]; `on_error` turns
//! framework errors into ephemeral messages. The API base is injected
//! ([`BotOptions::api_base`]), `None` in production; tests and the sandbox
//! point it at the fake Discord on 127.0.0.1.

pub mod render;

use poise::serenity_prelude as serenity;
use serenity::{
    ClientBuilder, ComponentInteraction, ComponentInteractionDataKind, CreateInteractionResponse,
    FullEvent, GatewayIntents, HttpBuilder, Interaction,
};
use tokio::sync::mpsc::UnboundedSender;

use crate::app::{component, App, AppError, AppResult, Caller, Reply};
use crate::config::{Registration, Secrets};
use crate::systems;

/// The error type of every command.
pub type Error = Box<dyn std::error::Error + Send + Sync>;
/// The poise context.
pub type Context<'a> = poise::Context<'a, Data, Error>;

/// What every command and handler can reach.
pub struct Data {
    /// The application layer.
    pub app: App,
    /// Told the id of every interaction once it is fully answered (tests and
    /// the sandbox wait on it; `None` in production).
    pub done: Option<UnboundedSender<u64>>,
}

/// How to start the bot.
pub struct BotOptions {
    /// Where Discord's API is; `None` means the real Discord. Setting it
    /// also disables serenity's rate limiter, which would otherwise bypass
    /// the proxy (see `shared/fake-discord.md`).
    pub api_base: Option<String>,
    /// Global or per-guild command registration.
    pub registration: Registration,
    /// See [`Data::done`].
    pub done: Option<UnboundedSender<u64>>,
}

/// Builds the serenity client with the poise framework in it.
pub async fn client(
    app: App,
    secrets: &Secrets,
    opts: BotOptions,
) -> Result<serenity::Client, serenity::Error> {
    let mut http = HttpBuilder::new(secrets.token());
    if let Some(base) = &opts.api_base {
        http = http.proxy(base.clone()).ratelimiter_disabled(true);
    }
    let http = http.build();
    let registration = opts.registration;
    let data = Data {
        app,
        done: opts.done,
    };
    let framework = poise::Framework::builder()
        .options(poise::FrameworkOptions {
            commands: systems::commands(),
            on_error: |e| Box::pin(on_error(e)),
            event_handler: |ctx, event| Box::pin(event_handler(ctx, event)),
            initialize_owners: false,
            ..Default::default()
        })
        .setup(move |ctx, _ready, framework| {
            Box::pin(async move {
                let commands = &framework.options().commands;
                match registration {
                    Registration::Global => {
                        poise::builtins::register_globally(ctx, commands).await?
                    }
                    Registration::Guild(g) => {
                        poise::builtins::register_in_guild(ctx, commands, serenity::GuildId::new(g))
                            .await?
                    }
                }
                tracing::info!("commands registered ({registration:?})");
                Ok(data)
            })
        })
        .build();
    ClientBuilder::new_with_http(http, GatewayIntents::empty())
        .framework(framework)
        .await
}

/// The caller of a slash command.
pub fn caller_of(ctx: Context<'_>) -> Result<Caller, Error> {
    let guild_id = ctx
        .guild_id()
        .ok_or_else(|| AppError::user("Kismet's commands work in a server channel, not in DMs."))?;
    let member = match ctx {
        poise::Context::Application(a) => a.interaction.member.as_deref(),
        poise::Context::Prefix(p) => p.msg.member.as_ref().map(|_| None).unwrap_or(None),
    };
    Ok(caller(guild_id, ctx.channel_id(), ctx.author(), member))
}

fn caller(
    guild_id: serenity::GuildId,
    channel_id: serenity::ChannelId,
    user: &serenity::User,
    member: Option<&serenity::Member>,
) -> Caller {
    Caller {
        guild_id: guild_id.get() as i64,
        channel_id: channel_id.get() as i64,
        user_id: user.id.get() as i64,
        name: member
            .map(|m| m.display_name().to_string())
            .unwrap_or_else(|| user.display_name().to_string()),
        manage_guild: member
            .and_then(|m| m.permissions)
            .is_some_and(|p| p.manage_guild() || p.administrator()),
        roles: member
            .map(|m| m.roles.iter().map(|r| r.get() as i64).collect())
            .unwrap_or_default(),
    }
}

/// Sends an application result as the command's answer: the view on
/// success, an ephemeral explanation on refusal or failure.
pub async fn respond(ctx: Context<'_>, result: AppResult) -> Result<(), Error> {
    let response = match result {
        Ok(r) => r,
        Err(e) => {
            if !matches!(e, AppError::User(_)) {
                tracing::error!(error = %e, command = %ctx.command().qualified_name, "command failed");
            }
            ctx.send(error_reply(&e)).await?;
            signal_done(ctx.data(), ctx.id());
            return Ok(());
        }
    };
    let (first, ephemeral) = match response.reply {
        Reply::Message(v) | Reply::Update(v) => (v, false),
        Reply::Ephemeral(v) => (v, true),
    };
    ctx.send(render::reply(first, ephemeral)).await?;
    for f in response.followups {
        let (v, eph) = match f {
            Reply::Message(v) | Reply::Update(v) => (v, false),
            Reply::Ephemeral(v) => (v, true),
        };
        ctx.send(render::reply(v, eph)).await?;
    }
    signal_done(ctx.data(), ctx.id());
    Ok(())
}

fn error_reply(e: &AppError) -> poise::CreateReply {
    poise::CreateReply::default()
        .content(format!("⚠️ {}", e.user_message()))
        .ephemeral(true)
}

fn signal_done(data: &Data, interaction_id: u64) {
    if let Some(tx) = &data.done {
        let _ = tx.send(interaction_id);
    }
}

async fn on_error(error: poise::FrameworkError<'_, Data, Error>) {
    let ctx = error.ctx();
    let text = match &error {
        poise::FrameworkError::Command { error, .. } => match error.downcast_ref::<AppError>() {
            Some(app) => app.user_message(),
            None => {
                tracing::error!(%error, "command error");
                "Something went wrong on our side, and nothing was changed. Please try again."
                    .into()
            }
        },
        poise::FrameworkError::ArgumentParse { error, input, .. } => match input {
            Some(i) => format!("I could not read `{i}`: {error}"),
            None => format!("I could not read the options: {error}"),
        },
        poise::FrameworkError::GuildOnly { .. } => {
            "Kismet's commands work in a server channel, not in DMs.".into()
        }
        poise::FrameworkError::CommandPanic { payload, .. } => {
            tracing::error!(?payload, "command panicked");
            "Something went wrong on our side, and nothing was changed. Please try again.".into()
        }
        other => {
            tracing::warn!(error = %other, "framework error");
            if let Err(e) = poise::builtins::on_error(error).await {
                tracing::error!(%e, "while handling a framework error");
            }
            return;
        }
    };
    if let Some(ctx) = ctx {
        let reply = poise::CreateReply::default()
            .content(format!("⚠️ {text}"))
            .ephemeral(true);
        if let Err(e) = ctx.send(reply).await {
            tracing::error!(%e, "could not send an error reply");
        }
        signal_done(ctx.data(), ctx.id());
    }
}

async fn event_handler(
    ctx: poise::FrameworkContext<'_, Data, Error>,
    event: &FullEvent,
) -> Result<(), Error> {
    if let FullEvent::InteractionCreate {
        interaction: Interaction::Component(ci),
    } = event
    {
        handle_component(ctx.serenity_context, ctx.user_data, ci).await;
    }
    Ok(())
}

async fn handle_component(ctx: &serenity::Context, data: &Data, ci: &ComponentInteraction) {
    let result = match ci.guild_id {
        None => Err(AppError::user(
            "Kismet's buttons work in a server channel, not in DMs.",
        )),
        Some(g) => {
            let caller = caller(g, ci.channel_id, &ci.user, ci.member.as_ref());
            let values: Vec<String> = match &ci.data.kind {
                ComponentInteractionDataKind::StringSelect { values } => values.clone(),
                _ => Vec::new(),
            };
            component::dispatch(&data.app, &caller, &ci.data.custom_id, &values).await
        }
    };
    if let Err(e) = send_component_response(ctx, ci, result).await {
        tracing::error!(%e, custom_id = %ci.data.custom_id, "could not answer a click");
    }
    signal_done(data, ci.id.get());
}

async fn send_component_response(
    ctx: &serenity::Context,
    ci: &ComponentInteraction,
    result: AppResult,
) -> Result<(), serenity::Error> {
    let response = match result {
        Ok(r) => r,
        Err(e) => {
            if !matches!(e, AppError::User(_)) {
                tracing::error!(error = %e, custom_id = %ci.data.custom_id, "click failed");
            }
            let msg = serenity::CreateInteractionResponseMessage::new()
                .content(format!("⚠️ {}", e.user_message()))
                .ephemeral(true);
            return ci
                .create_response(&ctx.http, CreateInteractionResponse::Message(msg))
                .await;
        }
    };
    let first = match response.reply {
        Reply::Update(v) => {
            CreateInteractionResponse::UpdateMessage(render::response_message(v, false))
        }
        Reply::Message(v) => CreateInteractionResponse::Message(render::response_message(v, false)),
        Reply::Ephemeral(v) => {
            CreateInteractionResponse::Message(render::response_message(v, true))
        }
    };
    ci.create_response(&ctx.http, first).await?;
    for f in response.followups {
        let (v, eph) = match f {
            Reply::Message(v) | Reply::Update(v) => (v, false),
            Reply::Ephemeral(v) => (v, true),
        };
        ci.create_followup(&ctx.http, render::followup(v, eph))
            .await?;
    }
    Ok(())
}
