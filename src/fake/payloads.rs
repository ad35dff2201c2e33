//! JSON payloads the fake Discord sends to the bot: gateway frames, users,
//! members, interactions and messages, with the fields serenity requires.

use serde_json::{json, Value};

/// Permission bits members get: view channel, send messages, use
/// application commands.
pub const BASE_PERMISSIONS: u64 = (1 << 10) | (1 << 11) | (1 << 31);
/// Manage Server.
pub const MANAGE_GUILD: u64 = 1 << 5;

/// A user object.
pub fn user(id: u64, name: &str) -> Value {
    json!({
        "id": id.to_string(),
        "username": name,
        "discriminator": "0",
        "global_name": name,
        "avatar": null,
        "bot": false,
    })
}

/// The bot's own user.
pub fn bot_user(id: u64) -> Value {
    json!({
        "id": id.to_string(),
        "username": "Kismet",
        "discriminator": "0",
        "global_name": null,
        "avatar": null,
        "bot": true,
    })
}

/// A guild member as sent inside interactions.
pub fn member(id: u64, name: &str, roles: &[u64], permissions: u64) -> Value {
    json!({
        "user": user(id, name),
        "nick": null,
        "roles": roles.iter().map(u64::to_string).collect::<Vec<_>>(),
        "joined_at": "2026-01-01T00:00:00.000000+00:00",
        "deaf": false,
        "mute": false,
        "flags": 0,
        "permissions": permissions.to_string(),
    })
}

/// The READY dispatch's `d`.
pub fn ready(bot_id: u64, app_id: u64, resume_url: &str) -> Value {
    json!({
        "v": 10,
        "user": {
            "id": bot_id.to_string(),
            "username": "Kismet",
            "discriminator": "0",
            "global_name": null,
            "avatar": null,
            "bot": true,
            "verified": true,
            "mfa_enabled": false,
            "flags": 0,
        },
        "guilds": [],
        "session_id": "fake-session",
        "resume_gateway_url": resume_url,
        "application": { "id": app_id.to_string(), "flags": 0 },
    })
}

/// Fields every interaction carries.
pub struct Envelope {
    /// Interaction id.
    pub id: u64,
    /// Application id.
    pub app_id: u64,
    /// Interaction token.
    pub token: String,
    /// Guild.
    pub guild_id: u64,
    /// Channel.
    pub channel_id: u64,
    /// The member acting.
    pub member: Value,
}

fn base(env: &Envelope, kind: u8, data: Value) -> Value {
    json!({
        "id": env.id.to_string(),
        "application_id": env.app_id.to_string(),
        "type": kind,
        "token": env.token,
        "version": 1,
        "guild_id": env.guild_id.to_string(),
        "channel_id": env.channel_id.to_string(),
        "channel": { "id": env.channel_id.to_string(), "type": 0 },
        "member": env.member,
        "locale": "en-US",
        "guild_locale": "en-US",
        "entitlements": [],
        "authorizing_integration_owners": {},
        "attachment_size_limit": 10485760,
        "app_permissions": "2147483647",
        "data": data,
    })
}

/// A slash command (type 2): `data` holds `id`, `name`, `type`, `options`
/// and `resolved`.
pub fn command(env: &Envelope, data: Value) -> Value {
    base(env, 2, data)
}

/// An autocomplete request (type 4).
pub fn autocomplete(env: &Envelope, data: Value) -> Value {
    base(env, 4, data)
}

/// A component click (type 3) on `message`.
pub fn component(
    env: &Envelope,
    message: Value,
    custom_id: &str,
    values: Option<&[String]>,
) -> Value {
    let data = match values {
        Some(v) => json!({ "custom_id": custom_id, "component_type": 3, "values": v }),
        None => json!({ "custom_id": custom_id, "component_type": 2 }),
    };
    let mut v = base(env, 3, data);
    v["message"] = message;
    v
}

/// A full message object as Discord returns it.
pub fn message(id: u64, channel_id: u64, author: Value, body: &Value, app_id: u64) -> Value {
    json!({
        "id": id.to_string(),
        "channel_id": channel_id.to_string(),
        "author": author,
        "content": body.get("content").cloned().unwrap_or(json!("")),
        "timestamp": "2026-01-01T00:00:00.000000+00:00",
        "edited_timestamp": null,
        "tts": false,
        "mention_everyone": false,
        "mentions": [],
        "mention_roles": [],
        "attachments": body.get("attachments").cloned().unwrap_or(json!([])),
        "embeds": body.get("embeds").cloned().unwrap_or(json!([])),
        "pinned": false,
        "type": 0,
        "flags": body.get("flags").cloned().unwrap_or(json!(0)),
        "components": body.get("components").cloned().unwrap_or(json!([])),
        "application_id": app_id.to_string(),
    })
}
