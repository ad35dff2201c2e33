//! Validates request bodies against Discord's OpenAPI description
//! (`tests/data/discord/openapi.json`, MIT, from Discord), route by route, with a
//! JSON-Schema 2020-12 validator, plus the limits the schema cannot state
//! (6000 characters of embed text per message).

use serde_json::{json, Value};
use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex};

/// The repository's copy of Discord's OpenAPI file, from the crate root.
pub const REPO_COPY: &str = "tests/data/discord/openapi.json";

/// Compiled validators, one per route, made on first use.
pub struct Schemas {
    doc: Value,
    compiled: Mutex<HashMap<(String, String), Arc<jsonschema::Validator>>>,
}

impl Schemas {
    /// Where the OpenAPI file is looked for: `$KISMET_DISCORD_OPENAPI`, then
    /// the copy in the repository (`tests/data/discord/openapi.json`), then
    /// the same path under the working directory.
    pub fn find() -> Option<PathBuf> {
        let mut candidates = Vec::new();
        if let Ok(p) = std::env::var("KISMET_DISCORD_OPENAPI") {
            candidates.push(PathBuf::from(p));
        }
        candidates.push(Path::new(env!("CARGO_MANIFEST_DIR")).join(REPO_COPY));
        candidates.push(PathBuf::from(REPO_COPY));
        candidates.into_iter().find(|p| p.is_file())
    }

    /// Loads the OpenAPI document.
    pub fn load(path: &Path) -> Result<Self, String> {
        let text = std::fs::read_to_string(path).map_err(|e| format!("{}: {e}", path.display()))?;
        let doc: Value =
            serde_json::from_str(&text).map_err(|e| format!("{}: {e}", path.display()))?;
        if doc.get("paths").is_none() || doc.get("components").is_none() {
            return Err(format!("{} is not an OpenAPI document", path.display()));
        }
        Ok(Self {
            doc,
            compiled: Mutex::new(HashMap::new()),
        })
    }

    fn validator(&self, method: &str, route: &str) -> Result<Arc<jsonschema::Validator>, String> {
        let pointer = format!(
            "/paths/{}/{}/requestBody/content/application~1json/schema",
            route.replace('~', "~0").replace('/', "~1"),
            method.to_ascii_lowercase()
        );
        self.compile(&pointer)
            .ok_or_else(|| format!("no request schema for {method} {route}"))?
    }

    /// The validator of the schema at `pointer` in the document (compiled
    /// once), `None` when the document has no schema there.
    fn compile(&self, pointer: &str) -> Option<Result<Arc<jsonschema::Validator>, String>> {
        let key = (pointer.to_string(), String::new());
        if let Some(v) = self
            .compiled
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .get(&key)
        {
            return Some(Ok(v.clone()));
        }
        let schema = self.doc.pointer(pointer)?;
        let mut full = schema.clone();
        if let Value::Object(map) = &mut full {
            map.insert("components".into(), self.doc["components"].clone());
        } else {
            full = json!({ "allOf": [schema], "components": self.doc["components"] });
        }
        let v = match jsonschema::draft202012::new(&full) {
            Ok(v) => Arc::new(v),
            Err(e) => return Some(Err(format!("schema at {pointer}: {e}"))),
        };
        self.compiled
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .insert(key, v.clone());
        Some(Ok(v))
    }

    /// Every violation of the fake's own answer `body` (status `status`) to
    /// `method route` against the schema Discord documents for that answer.
    /// Only the answers Kismet or the sandbox reads the shape of are
    /// checked: the interaction callback's (`with_response=true`) and the
    /// command listings (`GET …/commands`, `kismet sandbox --commands`).
    pub fn check_response(
        &self,
        method: &str,
        route: &str,
        status: u16,
        body: &Value,
    ) -> Vec<String> {
        let listing = method == "GET" && route.ends_with("/commands");
        if !route.ends_with("/callback") && !listing {
            return Vec::new();
        }
        let pointer = format!(
            "/paths/{}/{}/responses/{status}/content/application~1json/schema",
            route.replace('~', "~0").replace('/', "~1"),
            method.to_ascii_lowercase()
        );
        let validator = match self.compile(&pointer) {
            Some(Ok(v)) => v,
            Some(Err(e)) => return vec![e],
            None => {
                return vec![format!(
                    "no schema for the {status} answer to {method} {route}"
                )]
            }
        };
        validator
            .iter_errors(body)
            .take(10)
            .map(|e| {
                format!(
                    "the fake's answer to {method} {route}: {e} at `{}`",
                    e.instance_path()
                )
            })
            .collect()
    }

    /// Every violation of `body` against the schema of `method route`
    /// (`route` as written in the OpenAPI paths, e.g.
    /// `/interactions/{interaction_id}/{interaction_token}/callback`).
    pub fn check(&self, method: &str, route: &str, body: &Value) -> Vec<String> {
        let validator = match self.validator(method, route) {
            Ok(v) => v,
            Err(e) => return vec![e],
        };
        let body = &permission_strings_as_integers(&integer_attachment_ids_as_strings(body));
        let mut out: Vec<String> = validator
            .iter_errors(body)
            .take(10)
            .map(|e| format!("{method} {route}: {} at `{}`", e, e.instance_path()))
            .collect();
        out.extend(extra_limits(body));
        out.extend(mention_rules(method, route, body));
        let written = if route.ends_with("/commands") {
            super::rules::registration(body)
        } else if route.ends_with("/callback") {
            super::rules::callback(body)
        } else {
            super::rules::message(body)
        };
        out.extend(
            written
                .into_iter()
                .map(|e| format!("{method} {route}: {e}")),
        );
        out
    }
}

/// No message may let Discord parse mentions out of its text: every
/// message the bot creates or edits (interaction answers of type 4 and 7,
/// follow-ups, edits, channel messages) carries `allowed_mentions` whose
/// `parse` is empty; deliberate pings are listed by id in `users`.
pub fn mention_rules(method: &str, route: &str, body: &Value) -> Vec<String> {
    let message = if route.ends_with("/callback") {
        match body.get("type").and_then(Value::as_u64) {
            Some(4 | 7) => body.get("data"),
            _ => None,
        }
    } else if route.starts_with("/webhooks/") || route.starts_with("/channels/") {
        (method.eq_ignore_ascii_case("post") || method.eq_ignore_ascii_case("patch"))
            .then_some(body)
    } else {
        None
    };
    let Some(m) = message else {
        return Vec::new();
    };
    match m.get("allowed_mentions") {
        None | Some(Value::Null) => vec![format!(
            "{method} {route}: no `allowed_mentions`, so Discord would ping whatever the text mentions"
        )],
        Some(a) => match a.get("parse").and_then(Value::as_array) {
            Some(p) if !p.is_empty() => vec![format!(
                "{method} {route}: `allowed_mentions.parse` is {p:?}: mentions in the text would ping"
            )],
            _ => Vec::new(),
        },
    }
}

/// Discord's own file-upload documentation numbers new attachments with
/// integers (`"attachments": [{"id": 0, "filename": "a.png"}]`, matching the
/// `files[0]` part), and serenity sends them that way; the OpenAPI file
/// types every attachment id as a snowflake string. Integer ids are turned
/// into strings before validation so that valid uploads are not flagged;
/// everything else about them is still checked.
fn integer_attachment_ids_as_strings(body: &Value) -> Value {
    let mut body = body.clone();
    let target = if body.get("data").is_some() {
        &mut body["data"]
    } else {
        &mut body
    };
    if let Some(list) = target.get_mut("attachments").and_then(Value::as_array_mut) {
        for a in list {
            if let Some(id) = a.get("id").and_then(Value::as_u64) {
                a["id"] = Value::String(id.to_string());
            }
        }
    }
    body
}

/// Discord's documentation types a command's `default_member_permissions`
/// as a string ("set of permissions represented as a bit set", like every
/// permission field), and serenity sends it that way (`"32"`); the OpenAPI
/// file types it in requests as an integer. A string of digits is turned
/// into that integer before validation, so a valid registration is not
/// flagged; anything else (a word, a negative or too large number) still
/// is.
fn permission_strings_as_integers(body: &Value) -> Value {
    let mut body = body.clone();
    for command in body.as_array_mut().into_iter().flatten() {
        let Some(bits) = command.get("default_member_permissions") else {
            continue;
        };
        if let Some(n) = bits.as_str().and_then(|b| b.parse::<u64>().ok()) {
            command["default_member_permissions"] = json!(n);
        }
    }
    body
}

/// Limits Discord enforces that the schema does not express.
fn extra_limits(body: &Value) -> Vec<String> {
    let data = body.get("data").unwrap_or(body);
    let mut out = Vec::new();
    if let Some(embeds) = data.get("embeds").and_then(Value::as_array) {
        let mut total = 0;
        for e in embeds {
            let len = |p: &str| {
                e.pointer(p)
                    .and_then(Value::as_str)
                    .map_or(0, |s| s.chars().count())
            };
            total +=
                len("/title") + len("/description") + len("/footer/text") + len("/author/name");
            if let Some(fields) = e.get("fields").and_then(Value::as_array) {
                for f in fields {
                    total += f
                        .get("name")
                        .and_then(Value::as_str)
                        .map_or(0, |s| s.chars().count());
                    total += f
                        .get("value")
                        .and_then(Value::as_str)
                        .map_or(0, |s| s.chars().count());
                }
            }
        }
        if total > 6000 {
            out.push(format!(
                "embeds carry {total} characters; Discord allows 6000 per message"
            ));
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_message_that_could_ping_from_its_text_is_refused() {
        let cb = "/interactions/{interaction_id}/{interaction_token}/callback";
        let bare = json!({"type": 4, "data": {"content": "@everyone"}});
        assert_eq!(mention_rules("post", cb, &bare).len(), 1);
        let parses = json!({"type": 7, "data": {"content": "x", "allowed_mentions": {"parse": ["everyone"]}}});
        assert_eq!(mention_rules("post", cb, &parses).len(), 1);
        let safe = json!({"type": 4, "data": {"content": "x", "allowed_mentions": {"parse": [], "users": ["7"]}}});
        assert!(mention_rules("post", cb, &safe).is_empty());
        // Deferrals and autocomplete carry no message.
        assert!(mention_rules("post", cb, &json!({"type": 5})).is_empty());
        assert!(mention_rules("post", cb, &json!({"type": 8, "data": {"choices": []}})).is_empty());
        let hook = "/webhooks/{webhook_id}/{webhook_token}";
        assert_eq!(
            mention_rules("post", hook, &json!({"content": "x"})).len(),
            1
        );
        let chan = "/channels/{channel_id}/messages";
        assert_eq!(mention_rules("post", chan, &json!({"embeds": []})).len(), 1);
        assert!(
            mention_rules("post", chan, &json!({"allowed_mentions": {"parse": []}})).is_empty()
        );
    }

    #[test]
    fn the_repository_carries_the_openapi_file() {
        // Found without `../shared` or any variable: a lone clone tests.
        let path = Path::new(env!("CARGO_MANIFEST_DIR")).join(REPO_COPY);
        let s = Schemas::load(&path).expect("the repository's copy loads");
        assert!(s.doc["info"]["license"]["name"] == "MIT");
        assert!(path.with_file_name("LICENSE").is_file());
        if std::env::var_os("KISMET_DISCORD_OPENAPI").is_none() {
            assert_eq!(Schemas::find(), Some(path));
        }
    }

    #[test]
    fn integer_attachment_ids_are_validated_as_snowflakes() {
        let callback = json!({"type": 4, "data": {"attachments": [{"id": 0, "filename": "a.png"}, {"id": "1"}]}});
        let fixed = integer_attachment_ids_as_strings(&callback);
        assert_eq!(fixed["data"]["attachments"][0]["id"], "0");
        assert_eq!(fixed["data"]["attachments"][1]["id"], "1");
        assert_eq!(fixed["data"]["attachments"][0]["filename"], "a.png");
        let webhook = json!({"content": "x", "attachments": [{"id": 2}]});
        assert_eq!(
            integer_attachment_ids_as_strings(&webhook)["attachments"][0]["id"],
            "2"
        );
        let plain = json!({"type": 4, "data": {"content": "x"}});
        assert_eq!(integer_attachment_ids_as_strings(&plain), plain);
    }

    #[test]
    fn permission_strings_are_validated_as_integers() {
        let path = Schemas::find().expect("the OpenAPI file");
        let s = Schemas::load(&path).unwrap();
        let route = "/applications/{application_id}/commands";
        let registration = |bits: Value| json!([{"name": "fc-gm", "description": "d", "default_member_permissions": bits}]);
        assert!(s.check("PUT", route, &registration(json!("32"))).is_empty());
        assert!(s.check("PUT", route, &registration(Value::Null)).is_empty());
        assert!(!s
            .check("PUT", route, &registration(json!("manage")))
            .is_empty());
        assert!(!s
            .check("PUT", route, &registration(json!("-32")))
            .is_empty());
    }
}
