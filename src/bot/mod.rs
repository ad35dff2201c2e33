//! The Discord adapter: the poise framework around the application layer.
//!
//! Thin by design: the framework is built around the command list it is
//! given ([`client`]; the systems' commands are gathered in `main`), a
//! global component handler routes every button click to
//! [`crate::app::component::dispatch`], and `on_error` turns framework
//! errors into ephemeral messages. The API base is injected
//! ([`BotOptions::api_base`]), `None` in production; tests and the sandbox
//! point it at the fake Discord on 127.0.0.1. Answers are delivered through
//! the command kit ([`crate::kit`]).

use poise::serenity_prelude as serenity;
use serenity::{
    ClientBuilder, ComponentInteraction, ComponentInteractionDataKind, CreateInteractionResponse,
    FullEvent, GatewayIntents, HttpBuilder, Interaction,
};
use tokio::sync::mpsc::UnboundedSender;

use crate::app::present::present;
use crate::app::view::View;
use crate::app::{component, departures, expiry, App, AppError, AppResult, Reply};
use crate::config::{Registration, Secrets, ShardRange};
use crate::kit::game_commands::GameCommands;
use crate::kit::{caller, deliver, render, secret, signal_done, stage, Data, Error};

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
    /// See [`Data::inflight`].
    pub inflight: crate::lifecycle::InFlight,
}

/// Builds the serenity client with the poise framework in it.
pub async fn client(
    app: App,
    secrets: &Secrets,
    opts: BotOptions,
    commands: Vec<poise::Command<Data, Error>>,
) -> Result<serenity::Client, serenity::Error> {
    client_sharded(app, secrets, opts, commands, None).await
}

/// [`client`] for a process that runs `shards` of the bot's gateway shards
/// (start it with [`start`] and the same range): its background work (the
/// expiry sweeper) handles only the guilds those shards own. `None`: every
/// guild (one process).
pub async fn client_sharded(
    app: App,
    secrets: &Secrets,
    opts: BotOptions,
    commands: Vec<poise::Command<Data, Error>>,
    shards: Option<ShardRange>,
) -> Result<serenity::Client, serenity::Error> {
    let mut http = HttpBuilder::new(secrets.token());
    if let Some(base) = &opts.api_base {
        http = http.proxy(base.clone()).ratelimiter_disabled(true);
    }
    let http = http.build();
    let registration = opts.registration;
    opts.inflight.set_cap(app.config.load.max_in_flight);
    // Globally: the shared commands; each game's root per server, for the
    // games it plays. In one server (development) every command there.
    let definitions = poise::builtins::create_application_commands(&commands);
    let (definitions, game_commands) = match registration {
        Registration::Global => {
            let roots: Vec<&str> = app
                .registry
                .playable()
                .filter_map(|g| g.command_root())
                .collect();
            GameCommands::split(definitions, &roots)
        }
        Registration::Guild(_) => (definitions, GameCommands::default()),
    };
    let data = Data {
        app,
        done: opts.done,
        inflight: opts.inflight,
        watches: Default::default(),
        game_commands,
    };
    let framework = poise::Framework::builder()
        .options(poise::FrameworkOptions {
            commands,
            on_error: |e| Box::pin(on_error(e)),
            command_check: Some(|ctx| Box::pin(channel_check(ctx))),
            // Every reply sets its own; this is the net under it.
            allowed_mentions: Some(render::mentions(&[])),
            pre_command: |ctx| {
                Box::pin(async move {
                    // Counted in by `channel_check` already, unless
                    // that check did not run; counting twice is harmless.
                    ctx.data().inflight.start(crate::kit::invocation_id(ctx));
                    crate::kit::deliver::watch(ctx);
                    stage(crate::kit::invocation_id(ctx), "start")
                })
            },
            event_handler: |ctx, event| Box::pin(event_handler(ctx, event)),
            initialize_owners: false,
            ..Default::default()
        })
        .setup(move |ctx, _ready, _framework| {
            Box::pin(async move {
                // Register in the background: interactions wait for this
                // setup, so it must not wait on Discord. A failed
                // registration is retried, then the commands Discord
                // already has stay in use.
                tokio::spawn(register(ctx.http.clone(), definitions, registration));
                let every =
                    std::time::Duration::from_secs(data.app.config.sessions.sweep_seconds.max(1));
                tokio::spawn(sweeper(ctx.http.clone(), data.app.clone(), every, shards));
                tokio::spawn(departure_sweeper(ctx.http.clone(), data.app.clone()));
                Ok(data)
            })
        })
        .build();
    // `GUILDS` (not privileged) only for GUILD_CREATE and GUILD_DELETE:
    // the bot learns it was removed from a server, or is back.
    ClientBuilder::new_with_http(http, GatewayIntents::GUILDS)
        .framework(Literal(framework))
        .await
}

/// Connects the client's gateway shards and runs until they stop: with
/// `shards`, that range of the bot's shard count (serenity's shard range),
/// else one shard, as a bot in fewer than 2,500 guilds needs.
pub async fn start(
    client: &mut serenity::Client,
    shards: Option<ShardRange>,
) -> Result<(), serenity::Error> {
    match shards {
        // serenity 0.12 runs `range.start..=range.end` (its end is
        // inclusive, unlike a Rust range's): `first..last` starts `first`
        // to `last`. tests/e2e/multiprocess.rs checks which shards connect.
        Some(r) => client.start_shard_range(r.first..r.last, r.count).await,
        None => client.start().await,
    }
}

/// Registers the slash commands (with [`deliver::retry`]).
async fn register(
    http: std::sync::Arc<serenity::Http>,
    commands: Vec<serenity::CreateCommand>,
    registration: Registration,
) {
    let registered = deliver::retry("command registration", || async {
        match registration {
            Registration::Global => serenity::Command::set_global_commands(&http, commands.clone())
                .await
                .map(drop),
            Registration::Guild(g) => serenity::GuildId::new(g)
                .set_commands(&http, commands.clone())
                .await
                .map(drop),
        }
    })
    .await;
    match registered {
        Ok(()) => {
            tracing::info!("commands registered ({registration:?})");
            crate::lifecycle::release_freed_memory();
        }
        Err(e) => tracing::error!(
            %e,
            "could not register the commands; the ones Discord has stay in use"
        ),
    }
}

/// The poise framework behind one door: every command's string options
/// are made literal ([`render::literal_options`]) before poise reads them,
/// so no user text reaches a reply as a mention or a masked link.
struct Literal(poise::Framework<Data, Error>);

#[serenity::async_trait]
impl serenity::Framework for Literal {
    async fn init(&mut self, client: &serenity::Client) {
        self.0.init(client).await;
    }

    async fn dispatch(&self, ctx: serenity::Context, mut event: FullEvent) {
        if let FullEvent::InteractionCreate {
            interaction: Interaction::Command(ci),
        } = &mut event
        {
            render::literal_options(&mut ci.data.options);
        }
        self.0.dispatch(ctx, event).await;
    }
}

/// Refuses a system's command in a channel that plays another system
/// ([`crate::app::settings::allows_here`]) or in an ended game's channels
/// ([`crate::app::games::allows_here`]), and any command whose text
/// holds a NUL character ([`has_nul`]).
async fn channel_check(ctx: crate::kit::Context<'_>) -> Result<bool, Error> {
    // Autocomplete only suggests; the command itself is checked when run.
    if let poise::Context::Application(a) = ctx {
        if a.interaction_type == poise::CommandInteractionType::Autocomplete {
            return Ok(true);
        }
    }
    // Admission first: a bot at its most in-flight work waits its turn,
    // or answers "busy" before it reads anything.
    if !crate::kit::admit(ctx.data(), crate::kit::invocation_id(ctx)).await {
        return Err(Box::new(AppError::user(crate::kit::BUSY)));
    }
    if let poise::Context::Application(a) = ctx {
        if has_nul(&a.interaction.data.options) {
            return Err(Box::new(AppError::user(NUL_REFUSED)));
        }
    }
    let caller = crate::kit::caller_of(ctx)?;
    let root = crate::kit::root_name(ctx);
    let qualified = crate::kit::command_path(ctx);
    crate::app::games::allows_here(&ctx.data().app, &caller, &root, &qualified).await?;
    crate::app::settings::allows_here(&ctx.data().app, &caller, &root).await?;
    Ok(true)
}

/// The refusal of a command whose text holds a NUL character.
const NUL_REFUSED: &str =
    "Text cannot contain the NUL character (U+0000). Please remove it and try again.";

/// Whether any text option of a command (in its subcommands too) holds a
/// NUL character. Checked here, once for every command, before any of
/// them runs: SQLite would store it, PostgreSQL refuses it in text
/// ("invalid byte sequence"), and a name or a note with it shows as
/// nothing in Discord; so both refuse it alike, with a clear message.
fn has_nul(options: &[serenity::CommandDataOption]) -> bool {
    use serenity::CommandDataOptionValue as V;
    options.iter().any(|o| match &o.value {
        V::String(s) => s.contains('\0'),
        V::Autocomplete { value, .. } => value.contains('\0'),
        V::SubCommand(inner) | V::SubCommandGroup(inner) => has_nul(inner),
        _ => false,
    })
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
        poise::FrameworkError::CommandCheckFailed { error, .. } => match error {
            Some(e) => match e.downcast_ref::<AppError>() {
                Some(app) => app.user_message(),
                None => {
                    tracing::error!(%e, "command check error");
                    "Something went wrong on our side, and nothing was changed. Please try again."
                        .into()
                }
            },
            None => "That command is not available here.".into(),
        },
        poise::FrameworkError::GuildOnly { .. } => {
            "Kismet's commands work in a server channel, not in DMs.".into()
        }
        // Options that do not fit the command (an out-of-range number, a
        // stale registration): poise only logs these, so answer here.
        poise::FrameworkError::CommandStructureMismatch { description, .. } => {
            tracing::warn!(description, "options do not match the command");
            format!(
                "I could not read those options ({description}). Please check them; if Kismet was just updated, try again in a minute."
            )
        }
        poise::FrameworkError::UnknownInteraction {
            framework,
            interaction,
            ..
        } => {
            let msg = render::note_message(
                "⚠️ Kismet no longer has that command; Discord may still be updating the list. Please try again in a minute.".into(),
                true,
            );
            let http = &framework.serenity_context.http;
            if let Err(e) = deliver::retry("unknown command answer", || {
                interaction.create_response(http, CreateInteractionResponse::Message(msg.clone()))
            })
            .await
            {
                tracing::warn!(%e, "could not answer an unknown command");
            }
            signal_done(framework.user_data, interaction.id.get());
            return;
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
        let reply = render::note_reply(render::refusal(&text), true);
        if let Err(e) = deliver::send_first(ctx, reply, true, deliver::Want::Nothing).await {
            tracing::error!(%e, "could not send an error reply");
        }
        signal_done(ctx.data(), crate::kit::invocation_id(ctx));
    }
}

async fn event_handler(
    ctx: poise::FrameworkContext<'_, Data, Error>,
    event: &FullEvent,
) -> Result<(), Error> {
    match event {
        FullEvent::InteractionCreate {
            interaction: Interaction::Component(ci),
        } => handle_component(ctx.serenity_context, ctx.user_data, ci).await,
        // Removed from a server (no `unavailable`: an outage is not a
        // removal): its data goes after the grace period.
        FullEvent::GuildDelete { incomplete, .. } if !incomplete.unavailable => {
            let guild = incomplete.id.get() as i64;
            if let Err(e) = departures::left(&ctx.user_data.app, guild).await {
                tracing::error!(guild, error = %e.report(), "could not record a removal from a server");
            }
        }
        // In the server (at every connection, after an outage, or added
        // back): a pending deletion is cancelled.
        FullEvent::GuildCreate { guild, .. } => {
            let guild = guild.id.get() as i64;
            let app = &ctx.user_data.app;
            match departures::returned(app, guild).await {
                // Back after a removal: its game commands went with the
                // bot, so they are registered again.
                Ok(true) => {
                    if let Err(e) = crate::app::game_commands::forget_registered(app, guild).await {
                        tracing::error!(guild, error = %e.report(), "could not forget a server's game commands");
                    }
                }
                Ok(false) => {}
                Err(e) => {
                    tracing::error!(guild, error = %e.report(), "could not cancel a server's deletion")
                }
            }
            // The games it plays: registered unless they already are.
            if let Err(e) =
                crate::kit::game_commands::sync(ctx.user_data, &ctx.serenity_context.http, guild)
                    .await
            {
                tracing::error!(guild, %e, "could not register a server's game commands");
            }
        }
        _ => {}
    }
    Ok(())
}

async fn handle_component(ctx: &serenity::Context, data: &Data, ci: &ComponentInteraction) {
    if !crate::kit::admit(data, ci.id.get()).await {
        let msg = render::note_message(render::refusal(crate::kit::BUSY), true);
        if let Err(e) = answer_click(ctx, ci, CreateInteractionResponse::Message(msg), false).await
        {
            tracing::warn!(%e, "could not answer a click turned away");
        }
        signal_done(data, ci.id.get());
        return;
    }
    let work = async {
        match ci.guild_id {
            None => Err(AppError::user(
                "Kismet's buttons work in a server channel, not in DMs.",
            )),
            Some(g) => {
                let caller = caller(
                    g,
                    ci.channel_id,
                    ci.channel.as_ref(),
                    &ci.user,
                    ci.member.as_ref(),
                );
                let values: Vec<String> = match &ci.data.kind {
                    ComponentInteractionDataKind::StringSelect { values } => values.clone(),
                    _ => Vec::new(),
                };
                match component::dispatch(&data.app, &caller, &ci.data.custom_id, &values).await {
                    Ok(r) => Ok(present(&data.app, &caller, r).await.response),
                    Err(e) => Err(e),
                }
            }
        }
    };
    tokio::pin!(work);
    let mut secret_plan = None;
    // Under a burst of clicks the answer may be late: acknowledge in time
    // (Discord allows 3 s) and edit the answer in when it is ready.
    let sent = match tokio::time::timeout(deliver::DEFER_CLICK_AFTER, &mut work).await {
        Ok(result) => {
            let (result, plan) = secret::plan_click(&data.app, ci, result).await;
            secret_plan = plan;
            stage(ci.id.get(), "app done");
            send_component_response(ctx, data, ci, result, false).await
        }
        Err(_) => match deliver::retry("click deferral", || ci.defer(&ctx.http)).await {
            Ok(()) => {
                let (result, plan) = secret::plan_click(&data.app, ci, work.await).await;
                secret_plan = plan;
                send_component_response(ctx, data, ci, result, true).await
            }
            Err(e) => {
                // Let the action finish (or not) whole; it cannot be answered.
                let _ = work.await;
                Err(e)
            }
        },
    };
    if let Err(e) = sent {
        tracing::error!(%e, custom_id = %ci.data.custom_id, "could not answer a click");
    }
    secret::finish_click(ctx, data, ci, secret_plan).await;
    signal_done(data, ci.id.get());
}

/// Answers a click with its result; `deferred` when the click was already
/// acknowledged (the answer then edits the message or follows up).
async fn send_component_response(
    ctx: &serenity::Context,
    data: &Data,
    ci: &ComponentInteraction,
    result: AppResult,
    deferred: bool,
) -> Result<(), serenity::Error> {
    // The application is done: its place goes to the next interaction.
    data.inflight.release(ci.id.get());
    let response = match result {
        Ok(r) => r,
        Err(e) => return refuse_click(ctx, ci, &e, deferred).await,
    };
    // Which session the reply shows, and whether it replaced the clicked message.
    let (session, updated) = match &response.reply {
        Reply::Update(v) => (v.session(), true),
        Reply::Message(v) => (v.session(), false),
        Reply::Ephemeral(_) | Reply::Edit(_) => (None, false),
    };
    // A new message showing a session: learn its id from the answer itself
    // (one request), unless it carries files (see `answer_with_message`).
    let with_message = match &response.reply {
        Reply::Message(v) => v.session().is_some() && v.files.is_empty(),
        _ => false,
    };
    let mut edits = Vec::new();
    if let Reply::Edit(v) = &response.reply {
        edits.push(v.clone());
    }
    let shown = if deferred {
        answer_deferred_click(ctx, ci, response.reply).await?
    } else {
        answer_click(ctx, ci, first_answer(response.reply), with_message).await?
    };
    stage(ci.id.get(), "sent");
    if let Some(session) = session {
        let shown = Shown {
            session,
            updated,
            deferred,
            message: shown,
        };
        record_shown(ctx, data, ci, shown).await;
    }
    let guild = ci.guild_id.map_or(0, |g| g.get() as i64);
    for v in edits {
        deliver::edit_posted(&ctx.http, &data.app, guild, v).await;
    }
    for f in response.followups {
        let (v, eph) = match f {
            Reply::Message(v) | Reply::Update(v) => (v, false),
            Reply::Ephemeral(v) => (v, true),
            Reply::Edit(v) => {
                deliver::edit_posted(&ctx.http, &data.app, guild, v).await;
                continue;
            }
        };
        let followup = render::followup(v, eph);
        deliver::retry("click follow-up", || {
            ci.create_followup(&ctx.http, followup.clone())
        })
        .await?;
    }
    Ok(())
}

/// A click's refusal, private: logged first when it is a fault.
async fn refuse_click(
    ctx: &serenity::Context,
    ci: &ComponentInteraction,
    e: &AppError,
    deferred: bool,
) -> Result<(), serenity::Error> {
    if e.is_fault() {
        tracing::error!(error = %e.report(), custom_id = %ci.data.custom_id, "click failed");
    }
    let text = render::refusal(&e.user_message());
    if deferred {
        let note = render::note_followup(text, true);
        return deliver::retry("late click refusal", || {
            ci.create_followup(&ctx.http, note.clone())
        })
        .await
        .map(drop);
    }
    let msg = render::note_message(text, true);
    answer_click(ctx, ci, CreateInteractionResponse::Message(msg), false)
        .await
        .map(drop)
}

/// The answer to a click not yet acknowledged.
fn first_answer(reply: Reply) -> CreateInteractionResponse {
    match reply {
        Reply::Update(v) => {
            CreateInteractionResponse::UpdateMessage(render::response_message(v, false))
        }
        Reply::Message(v) => CreateInteractionResponse::Message(render::response_message(v, false)),
        Reply::Ephemeral(v) => {
            CreateInteractionResponse::Message(render::response_message(v, true))
        }
        Reply::Edit(_) => {
            CreateInteractionResponse::Message(render::response_message(View::text(DONE), true))
        }
    }
}

/// A session a click's answer shows, and how it was shown.
struct Shown {
    session: i64,
    /// The answer replaced the clicked message.
    updated: bool,
    /// The click was acknowledged before the answer.
    deferred: bool,
    /// The new message's id, when the answer told it.
    message: Option<u64>,
}

/// Records the message that shows a session after a click, so that it
/// expires and is redrawn in place.
async fn record_shown(ctx: &serenity::Context, data: &Data, ci: &ComponentInteraction, s: Shown) {
    let Some(guild) = ci.guild_id else {
        return;
    };
    let message_id = if s.updated {
        Some(ci.message.id.get())
    } else if s.message.is_some() {
        s.message
    } else {
        ci.get_response(&ctx.http).await.ok().map(|m| m.id.get())
    };
    let Some(mid) = message_id else {
        return;
    };
    let guild = guild.get() as i64;
    // The click's token edits the clicked message (@original): it can edit
    // a new message only when that message is the click's own answer, not
    // a follow-up after a deferred update.
    let token = (s.updated || !s.deferred).then_some(ci.token.as_str());
    // Only the clicked message may be on file already.
    let posting = if s.updated {
        expiry::Posting::Maybe
    } else {
        expiry::Posting::New
    };
    if let Err(e) = expiry::attach_as(&data.app, guild, s.session, mid as i64, token, posting).await
    {
        tracing::warn!(error = %e, "could not record a session's message");
    }
}

/// The answer to a click acknowledged earlier: an update edits the clicked
/// The private answer to an action whose reply only redraws a message
/// posted earlier ([`Reply::Edit`]).
const DONE: &str = "✅ Done.";

/// message, anything else follows up. Returns the id of a new message.
async fn answer_deferred_click(
    ctx: &serenity::Context,
    ci: &ComponentInteraction,
    reply: Reply,
) -> Result<Option<u64>, serenity::Error> {
    let (view, ephemeral) = match reply {
        Reply::Update(v) => {
            let edit = render::edit(v);
            deliver::retry("late click update", || {
                ci.edit_response(&ctx.http, edit.clone())
            })
            .await?;
            return Ok(None);
        }
        Reply::Message(v) => (v, false),
        Reply::Ephemeral(v) => (v, true),
        // The edit itself is made by the caller.
        Reply::Edit(_) => (View::text(DONE), true),
    };
    let followup = render::followup(view, ephemeral);
    let msg = deliver::retry("late click answer", || {
        ci.create_followup(&ctx.http, followup.clone())
    })
    .await?;
    Ok(Some(msg.id.get()))
}

/// The first answer to a click, retried on transient failures (a retry
/// that finds the click already answered counts as answered). With
/// `with_message`, returns the id of the message it made, from Discord's
/// answer ([`deliver::answer_with_message`]).
async fn answer_click(
    ctx: &serenity::Context,
    ci: &ComponentInteraction,
    response: CreateInteractionResponse,
    with_message: bool,
) -> Result<Option<u64>, serenity::Error> {
    if with_message {
        let shown = deliver::answer_with_message_retried(
            &ctx.http,
            ci.id,
            &ci.token,
            &response,
            "click answer",
        )
        .await?;
        return Ok(shown.map(|m| m.id.get()));
    }
    let mut tries = 0;
    let result = deliver::retry("click answer", || {
        tries += 1;
        ci.create_response(&ctx.http, response.clone())
    })
    .await;
    match result {
        Err(e) if tries > 1 && deliver::already_acknowledged(&e) => Ok(None),
        other => other.map(|()| None),
    }
}

/// Expires idle sessions every `every` and disables their buttons: every
/// guild's, or with `shards` only those of the guilds its shards own (the
/// first sweep, at start, also catches what expired while it was down).
async fn sweeper(
    http: std::sync::Arc<serenity::Http>,
    app: App,
    every: std::time::Duration,
    shards: Option<ShardRange>,
) {
    let mut ticker = tokio::time::interval(every);
    ticker.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
    loop {
        ticker.tick().await;
        let swept = expiry::sweep_shards(&app, app.clock.now_ms(), 100, shards).await;
        let expired = match swept {
            Ok(list) => list,
            Err(e) => {
                tracing::warn!(error = %e, "expiry sweep failed");
                continue;
            }
        };
        for e in expired {
            secret::edit_expired_copies(&http, &e).await;
            edit_expired(&http, e).await;
        }
    }
}

/// Deletes the data of the servers that removed the bot longer than the
/// grace period ago ([`departures::sweep`], asking Discord first whether
/// the bot is there after all, [`presence`]): at start-up, then every
/// [`departures::SWEEP_EVERY`] by the application's clock. It stops with
/// the bot: between servers once the bot is stopping or its database is
/// closed, and a sweep cut off mid-server rolls that server's transaction
/// back whole.
async fn departure_sweeper(http: std::sync::Arc<serenity::Http>, app: App) {
    let every = i64::try_from(departures::SWEEP_EVERY.as_millis()).unwrap_or(i64::MAX);
    loop {
        if app.stopping.load(std::sync::atomic::Ordering::Relaxed) || app.db.is_closed() {
            return;
        }
        let now = app.clock.now_ms();
        if let Err(e) = departures::sweep(&app, now, |g| presence(&http, g)).await {
            tracing::warn!(error = %e.report(), "departed servers' sweep failed");
        }
        // From the time the sweep read: a clock moved meanwhile (a test's)
        // past the next sweep's time starts it at once.
        app.clock.sleep_until(now.saturating_add(every)).await;
    }
}

/// Whether the bot is in server `guild`, asking Discord (`GET
/// /guilds/{id}`, retried on transient failures): 404 (unknown guild) or
/// 403 (no access) mean it is not.
async fn presence(http: &serenity::Http, guild: i64) -> departures::Presence {
    use departures::Presence;
    let Some(id) = u64::try_from(guild).ok().filter(|g| *g != 0) else {
        return Presence::Gone;
    };
    let id = serenity::GuildId::new(id);
    match deliver::retry("guild presence", || http.get_guild(id)).await {
        Ok(_) => Presence::Member,
        Err(serenity::Error::Http(serenity::HttpError::UnsuccessfulRequest(r)))
            if matches!(r.status_code.as_u16(), 403 | 404) =>
        {
            Presence::Gone
        }
        Err(e) => {
            tracing::warn!(guild, %e, "could not ask Discord whether the bot is in a server; its deletion waits");
            Presence::Unknown
        }
    }
}

async fn edit_expired(http: &serenity::Http, e: expiry::Expired) {
    let posted = crate::app::sessions::Posted {
        channel_id: e.channel_id,
        message_id: e.message_id,
        token: e.token,
    };
    if !deliver::redraw(http, &posted, e.view).await && posted.message_id.is_some() {
        tracing::warn!(
            session = e.session,
            "could not disable an expired session's buttons"
        );
    }
}
