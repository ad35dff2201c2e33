//! The command kit: what a system's thin slash commands need from the
//! Discord adapter, in a leaf module below both [`crate::systems`] and
//! [`crate::bot`] so that neither imports the other the wrong way.
//!
//! It holds the poise [`Data`], [`Context`] and [`Error`] types, turns a
//! command's invoker into an application [`Caller`], and delivers an
//! application [`Response`](crate::app::Response) as Discord replies:
//! [`respond`] for ordinary actions, [`respond_as`] for actions that may be
//! secret. Every answer goes through [`deliver`] (retries of transient
//! Discord failures; deferred answers) and is drawn by [`render`].

pub mod choice;
pub mod command;
pub mod complete;
pub mod controls;
pub mod deliver;
pub mod download;
pub mod game_commands;
pub mod ranged;
pub mod render;
pub mod secret;
pub mod suggest;
pub mod words;

pub(crate) use choice::slash_choice;
pub(crate) use command::command;
pub use complete::complete_character;
pub use deliver::defer;
pub use secret::{respond_as, secret_caller};

use poise::serenity_prelude as serenity;
use tokio::sync::mpsc::UnboundedSender;

use crate::app::{expiry, App, AppError, AppResult, Caller, Reply};

/// The error type of every command.
pub type Error = Box<dyn std::error::Error + Send + Sync>;
/// The poise context.
pub type Context<'a> = poise::Context<'a, Data, Error>;

/// The id of one command invocation: its interaction's id (poise's own
/// `Context::id` needs its `chrono` feature, which the bot leaves out).
pub fn invocation_id(ctx: Context<'_>) -> u64 {
    match ctx {
        poise::Context::Application(a) => a.interaction.id.get(),
        poise::Context::Prefix(p) => p.msg.id.get(),
    }
}

/// What every command and handler can reach.
pub struct Data {
    /// The application layer.
    pub app: App,
    /// Told the id of every interaction once it is fully answered (tests and
    /// the sandbox wait on it; `None` in production).
    pub done: Option<UnboundedSender<u64>>,
    /// Interactions being answered now (a clean stop waits for them).
    pub inflight: crate::lifecycle::InFlight,
    /// The first-answer turn of each slash command being answered.
    pub watches: deliver::Watches,
    /// The games' root commands, registered per server
    /// ([`game_commands::sync`]).
    pub game_commands: game_commands::GameCommands,
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
    let parent = match ctx {
        poise::Context::Application(a) => a.interaction.channel.as_ref(),
        poise::Context::Prefix(_) => None,
    };
    Ok(caller(
        guild_id,
        ctx.channel_id(),
        parent,
        ctx.author(),
        member,
    ))
}

/// A member option's member, by id (`None` when the option is not given).
pub fn user_id(user: &Option<serenity::User>) -> Option<i64> {
    user.as_ref().map(|u| u.id.get() as i64)
}

/// The caller of an interaction in `channel_id`; `channel` is the
/// interaction's partial channel, whose `parent_id` (a thread's channel or
/// a channel's category) tells which game it is in.
pub fn caller(
    guild_id: serenity::GuildId,
    channel_id: serenity::ChannelId,
    channel: Option<&serenity::PartialChannel>,
    user: &serenity::User,
    member: Option<&serenity::Member>,
) -> Caller {
    Caller {
        guild_id: guild_id.get() as i64,
        channel_id: channel_id.get() as i64,
        parent_id: channel.and_then(|c| c.parent_id).map(|p| p.get() as i64),
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
        secret: false,
    }
}

/// Sends an application result as the command's answer: the view on
/// success, an ephemeral explanation on refusal or failure.
pub async fn respond(ctx: Context<'_>, result: AppResult) -> Result<(), Error> {
    // What every answer goes through (`app::present`): the game master's
    // tools fold behind one ⚙ button, a channel whose house rule
    // `verbosity` is compact shows results in one line, and an answer that
    // shows a secret session (the FC adjusting, voiding or closing it, a
    // bonus claimed on it) goes out as that roll went, privately with the
    // GM channel's copy, whoever asked.
    let app = &ctx.data().app;
    let result = match (result, caller_of(ctx)) {
        (Ok(r), Ok(caller)) => {
            let p = crate::app::present::present(app, &caller, r).await;
            if p.secret {
                return Box::pin(respond_as(ctx, &caller.secretly(true), Ok(p.response))).await;
            }
            Ok(p.response)
        }
        (result, _) => result.map(|r| crate::app::gm_panel::fold_response(&app.registry, r)),
    };
    let sent = send(ctx, result).await;
    signal_done(ctx.data(), invocation_id(ctx));
    sent
}

/// [`respond`] without telling the tests the interaction is done (the
/// caller has more to send, such as a secret roll's GM copy).
pub(crate) async fn send(ctx: Context<'_>, result: AppResult) -> Result<(), Error> {
    stage(invocation_id(ctx), "app done");
    // The application is done: its place goes to the next interaction.
    ctx.data().inflight.release(invocation_id(ctx));
    let response = match result {
        Ok(r) => r,
        Err(e) => {
            if e.is_fault() {
                tracing::error!(error = %e.report(), command = %ctx.command().qualified_name, "command failed");
            }
            deliver::send_first(ctx, error_reply(&e), true, deliver::Want::Nothing).await?;
            return Ok(());
        }
    };
    let guild = ctx.guild_id().map_or(0, |g| g.get() as i64);
    let mut edits = Vec::new();
    let (first, ephemeral) = match response.reply {
        Reply::Message(v) | Reply::Update(v) => (v, false),
        Reply::Ephemeral(v) => (v, true),
        Reply::Edit(v) => {
            edits.push(v);
            (crate::app::view::View::text("✅ Done."), true)
        }
    };
    let session = first.session();
    // A session shown anew: its older message, greyed out once this is sent.
    let moved = match (first.repost, session) {
        (true, Some(s)) => crate::app::sessions::posted(&ctx.data().app, guild, s)
            .await
            .ok()
            .flatten()
            .map(|old| (old, first.clone().moved_below())),
        _ => None,
    };
    let want = match (session, first.files.is_empty()) {
        (None, _) => deliver::Want::Nothing,
        (Some(_), true) => deliver::Want::Message,
        (Some(_), false) => deliver::Want::MessageWithFiles,
    };
    let sent = deliver::send_first(ctx, render::reply(first, ephemeral), ephemeral, want).await?;
    stage(invocation_id(ctx), "sent");
    if let (Some(session), Some(msg), poise::Context::Application(a)) = (session, sent, ctx) {
        // Remember which message shows the session, so an expiry can disable its buttons.
        let guild = a.interaction.guild_id.map_or(0, |g| g.get() as i64);
        let token = &a.interaction.token;
        let mid = msg.id.get() as i64;
        if let Err(e) = expiry::attach_as(
            &ctx.data().app,
            guild,
            session,
            mid,
            Some(token),
            expiry::Posting::New,
        )
        .await
        {
            tracing::warn!(error = %e, "could not record a session's message");
        }
    }
    if let Some((old, view)) = moved {
        deliver::redraw(ctx.http(), &old, view).await;
    }
    for v in edits {
        deliver::edit_posted(ctx.http(), &ctx.data().app, guild, v).await;
    }
    for f in response.followups {
        let (v, eph) = match f {
            Reply::Message(v) | Reply::Update(v) => (v, false),
            Reply::Ephemeral(v) => (v, true),
            Reply::Edit(v) => {
                deliver::edit_posted(ctx.http(), &ctx.data().app, guild, v).await;
                continue;
            }
        };
        let reply = render::reply(v, eph);
        deliver::retry("follow-up", || ctx.send(reply.clone())).await?;
    }
    Ok(())
}

fn error_reply(e: &AppError) -> poise::CreateReply {
    render::note_reply(render::refusal(&e.user_message()), true)
}

/// Where [`stage`] marks go: the pipeline benchmark sets it (builds with
/// the fake Discord only; production has no listener and no cost).
#[cfg(feature = "fake")]
pub static STAGE_SINK: std::sync::OnceLock<fn(u64, &'static str)> = std::sync::OnceLock::new();

/// Marks a stage of answering an interaction (`arrived` at admission,
/// `admitted`, `start` of a command, `app done`, `sent`)
/// for the pipeline benchmark ([`STAGE_SINK`]); does nothing otherwise.
pub fn stage(interaction_id: u64, stage: &'static str) {
    #[cfg(feature = "fake")]
    if let Some(sink) = STAGE_SINK.get() {
        sink(interaction_id, stage);
    }
    #[cfg(not(feature = "fake"))]
    let _ = (interaction_id, stage);
}

/// What an interaction turned away by [`admit`] is told (privately).
pub const BUSY: &str = "Kismet has too many requests to answer at this moment, so it did nothing with this one. Please try again in a few seconds.";

/// Counts an interaction in once one of the bot's places is free (`[load]
/// max_in_flight`, waiting its turn as [`crate::admission`] says, for at
/// most [`crate::admission::ADMISSION_WAIT`]); false when none came: the
/// interaction must then be answered with [`BUSY`] at once, and nothing
/// done. A burst is worked off in order; a bot overloaded for longer turns
/// the excess away and keeps answering at its capacity, instead of slowing
/// every answer past Discord's 3-second deadline. Logs a warning at most
/// once a second while it turns interactions away.
pub async fn admit(data: &Data, interaction_id: u64) -> bool {
    use std::sync::atomic::{AtomicI64, Ordering};
    static WARNED_AT: AtomicI64 = AtomicI64::new(0);
    stage(interaction_id, "arrived");
    if data
        .inflight
        .admit(interaction_id, crate::admission::ADMISSION_WAIT)
        .await
    {
        stage(interaction_id, "admitted");
        return true;
    }
    let now = crate::storage::now_ms();
    let last = WARNED_AT.load(Ordering::Relaxed);
    if now - last >= 1000
        && WARNED_AT
            .compare_exchange(last, now, Ordering::Relaxed, Ordering::Relaxed)
            .is_ok()
    {
        tracing::warn!(
            in_flight = data.inflight.count(),
            "busy: turning interactions away (max_in_flight)"
        );
    }
    false
}

/// An interaction is fully answered: it no longer counts as in flight, and
/// the tests and the sandbox hear of it.
pub fn signal_done(data: &Data, interaction_id: u64) {
    data.inflight.finish(interaction_id);
    data.watches.forget(interaction_id);
    if let Some(tx) = &data.done {
        let _ = tx.send(interaction_id);
    }
}

/// Choices of an integer option filled in at start-up from a list (the
/// registry's systems, say): poise registers choice `i` with the value `i`,
/// so the command reads the index back and looks it up in the same list.
pub fn set_choices(
    command: &mut poise::Command<Data, Error>,
    param: &str,
    names: impl IntoIterator<Item = String>,
) {
    let choices: Vec<poise::CommandParameterChoice> = names
        .into_iter()
        .map(|name| poise::CommandParameterChoice {
            name: name.into(),
            localizations: std::borrow::Cow::Borrowed(&[]),
            __non_exhaustive: (),
        })
        .collect();
    if let Some(p) = command.parameters.iter_mut().find(|p| p.name == param) {
        p.choices = choices.into();
    }
}

/// The subcommand at `path` below `command` (`["settings", "show"]`).
pub fn subcommand<'c>(
    command: &'c mut poise::Command<Data, Error>,
    path: &[&str],
) -> Option<&'c mut poise::Command<Data, Error>> {
    match path.split_first() {
        None => Some(command),
        Some((first, rest)) => command
            .subcommands
            .iter_mut()
            .find(|c| c.name == *first)
            .and_then(|c| subcommand(c, rest)),
    }
}

/// The root command's name of the running command (`ve` for `/ve sheet
/// show`), which tells a shared table command which system it serves; a
/// game master's root names its game's (`vr` for `/vr-gm scene end`).
pub fn root_name(ctx: Context<'_>) -> String {
    game_root_of(
        ctx.command()
            .qualified_name
            .split(' ')
            .next()
            .unwrap_or_default(),
    )
    .to_string()
}

/// The running command's whole name with its root as [`root_name`] gives
/// it (`vr scene end` for `/vr-gm scene end`).
pub fn command_path(ctx: Context<'_>) -> String {
    let qualified = &ctx.command().qualified_name;
    match qualified.split_once(' ') {
        Some((root, rest)) => format!("{} {rest}", game_root_of(root)),
        None => game_root_of(qualified).to_string(),
    }
}

/// What the name of a root's game-master root adds to it (`/vr` → `/vr-gm`).
pub const GM_ROOT_SUFFIX: &str = "-gm";

/// The game master's root of `root` (`vr-gm` for `vr`).
pub fn gm_root(root: &str) -> String {
    format!("{root}{GM_ROOT_SUFFIX}")
}

/// The root a command name belongs to: `root` for itself and for its game
/// master's root ([`gm_root`]).
pub fn game_root_of(name: &str) -> &str {
    name.strip_suffix(GM_ROOT_SUFFIX).unwrap_or(name)
}
