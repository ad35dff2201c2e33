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
        "public_flags": 0,
        "flags": 0,
        "primary_guild": null,
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

/// The READY dispatch's `d` for shard `shard` (`[id, count]`), listing
/// `guilds` (the guilds on that shard) as unavailable, as Discord does
/// before their GUILD_CREATE. The session id names the shard (see
/// [`session_shard`]).
pub fn ready_shard(
    bot_id: u64,
    app_id: u64,
    resume_url: &str,
    shard: [u32; 2],
    guilds: &[u64],
) -> Value {
    let mut d = ready(bot_id, app_id, resume_url);
    d["shard"] = json!(shard);
    d["session_id"] = json!(format!("fake-session-{}", shard[0]));
    d["guilds"] = guilds
        .iter()
        .map(|g| json!({"id": g.to_string(), "unavailable": true}))
        .collect();
    d
}

/// The shard a session id of [`ready_shard`] names.
pub fn session_shard(session_id: &str) -> Option<u32> {
    session_id.strip_prefix("fake-session-")?.parse().ok()
}

/// A GUILD_CREATE's `d`: a small guild with the fields serenity requires.
pub fn guild(id: u64, owner_id: u64) -> Value {
    json!({
        "id": id.to_string(),
        "name": format!("guild {id}"),
        "icon": null,
        "splash": null,
        "discovery_splash": null,
        "owner_id": owner_id.to_string(),
        "verification_level": 0,
        "default_message_notifications": 0,
        "explicit_content_filter": 0,
        "roles": [],
        "emojis": [],
        "features": [],
        "mfa_level": 0,
        "application_id": null,
        "system_channel_id": null,
        "system_channel_flags": 0,
        "rules_channel_id": null,
        "vanity_url_code": null,
        "description": null,
        "banner": null,
        "premium_tier": 0,
        "preferred_locale": "en-US",
        "public_updates_channel_id": null,
        "nsfw_level": 0,
        "stickers": [],
        "premium_progress_bar_enabled": false,
        "joined_at": "2026-01-01T00:00:00.000000+00:00",
        "large": false,
        "unavailable": false,
        "member_count": 1,
        "voice_states": [],
        "members": [],
        "channels": [],
        "threads": [],
        "presences": [],
        "stage_instances": [],
        "guild_scheduled_events": [],
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
    /// The channel's parent (a thread's channel, a channel's category), if
    /// it has one: sent as the interaction channel's `parent_id`.
    pub parent_id: Option<u64>,
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
        "channel": match env.parent_id {
            Some(p) => json!({ "id": env.channel_id.to_string(), "type": 0, "parent_id": p.to_string() }),
            None => json!({ "id": env.channel_id.to_string(), "type": 0 }),
        },
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
        "components": response_components(body.get("components")),
        "application_id": app_id.to_string(),
    })
}

/// Components as Discord answers them: what the bot sent, each numbered
/// with an `id` (Discord numbers components it was sent without one, in
/// order, from 1), a string select with its `min_values`/`max_values`
/// defaults written out.
fn response_components(sent: Option<&Value>) -> Value {
    fn number(v: &mut Value, next: &mut u64) {
        let Some(list) = v.as_array_mut() else {
            return;
        };
        for c in list {
            let Some(map) = c.as_object_mut() else {
                continue;
            };
            if !map.contains_key("id") {
                map.insert("id".into(), json!(*next));
            }
            *next += 1;
            if map.get("type").and_then(Value::as_u64) == Some(3) {
                map.entry("min_values").or_insert(json!(1));
                map.entry("max_values").or_insert(json!(1));
            }
            if let Some(inner) = map.get_mut("components") {
                number(inner, next);
            }
        }
    }
    let mut out = sent.cloned().unwrap_or(json!([]));
    if out.is_null() {
        out = json!([]);
    }
    number(&mut out, &mut 1);
    out
}
