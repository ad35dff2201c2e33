//! Discord's written rules that its OpenAPI schema cannot express, checked
//! on every request the bot sends to the fake (a broken rule fails the test
//! as a schema violation does). From Discord's documentation:
//! `interactions/application-commands` (names, descriptions, option order
//! and counts, 8,000 characters per command, 100 commands; autocomplete
//! answers), `components/reference` (unique custom_ids, unique select
//! option values, min/max values within the options, 5 rows of 5 buttons)
//! and `resources/message` (2,000 characters of content).

use serde_json::Value;

/// Most commands of one kind an application may register.
pub const MAX_COMMANDS: usize = 100;
/// Most options (or subcommands) and choices at one level.
pub const MAX_OPTIONS: usize = 25;
/// Combined characters of a command's names, descriptions and choices.
pub const MAX_COMMAND_CHARS: usize = 8000;
/// Most autocomplete choices.
pub const MAX_CHOICES: usize = 25;
/// Longest choice name, and longest string choice value.
pub const MAX_CHOICE_LEN: usize = 100;
/// Longest message content.
pub const MAX_CONTENT: usize = 2000;

fn len(v: Option<&Value>) -> usize {
    v.and_then(Value::as_str).map_or(0, |s| s.chars().count())
}

/// Whether `name` is a valid command or option name: 1-32 characters,
/// letters (lower case where they have a case), digits, `-` and `_`.
pub fn valid_name(name: &str) -> bool {
    let n = name.chars().count();
    (1..=32).contains(&n)
        && name.chars().all(|c| {
            (c.is_alphanumeric() || c == '-' || c == '_') && c.to_lowercase().eq(std::iter::once(c))
        })
}

/// The rules a bulk command registration breaks.
pub fn registration(body: &Value) -> Vec<String> {
    let mut out = Vec::new();
    let Some(commands) = body.as_array() else {
        return out;
    };
    if commands.len() > MAX_COMMANDS {
        out.push(format!(
            "{} commands registered; Discord allows {MAX_COMMANDS}",
            commands.len()
        ));
    }
    let mut seen = std::collections::HashSet::new();
    for c in commands {
        let name = c.get("name").and_then(Value::as_str).unwrap_or("");
        if !seen.insert(name.to_string()) {
            out.push(format!("command `{name}` registered twice"));
        }
        let mut chars = 0;
        check_level(c, name, true, &mut chars, &mut out);
        if chars > MAX_COMMAND_CHARS {
            out.push(format!(
                "command `{name}` has {chars} characters of names, descriptions and choices; Discord allows {MAX_COMMAND_CHARS}"
            ));
        }
    }
    out
}

fn check_level(node: &Value, path: &str, top: bool, chars: &mut usize, out: &mut Vec<String>) {
    let name = node.get("name").and_then(Value::as_str).unwrap_or("");
    if !valid_name(name) {
        out.push(format!(
            "`{path}`: `{name}` is not a valid name (1-32 lower-case letters, digits, - or _)"
        ));
    }
    *chars += name.chars().count();
    let d = len(node.get("description"));
    // Slash commands, subcommands and options all need a description.
    if !(1..=100).contains(&d) {
        out.push(format!("`{path}`: description of {d} characters (1-100)"));
    }
    *chars += d;
    let _ = top;
    if let Some(choices) = node.get("choices").and_then(Value::as_array) {
        if choices.len() > MAX_OPTIONS {
            out.push(format!(
                "`{path}`: {} choices (at most {MAX_OPTIONS})",
                choices.len()
            ));
        }
        for ch in choices {
            let n = len(ch.get("name"));
            if !(1..=MAX_CHOICE_LEN).contains(&n) {
                out.push(format!("`{path}`: a choice name of {n} characters (1-100)"));
            }
            *chars += n;
            if let Some(v) = ch.get("value").and_then(Value::as_str) {
                *chars += v.chars().count();
            }
        }
    }
    let Some(options) = node.get("options").and_then(Value::as_array) else {
        return;
    };
    if options.len() > MAX_OPTIONS {
        out.push(format!(
            "`{path}`: {} options (at most {MAX_OPTIONS})",
            options.len()
        ));
    }
    let mut seen_optional = false;
    let mut names = std::collections::HashSet::new();
    for o in options {
        let oname = o.get("name").and_then(Value::as_str).unwrap_or("");
        if !names.insert(oname) {
            out.push(format!("`{path}`: option `{oname}` twice"));
        }
        let kind = o.get("type").and_then(Value::as_u64).unwrap_or(0);
        let sub = kind == 1 || kind == 2;
        if !sub {
            let required = o.get("required").and_then(Value::as_bool).unwrap_or(false);
            if required && seen_optional {
                out.push(format!(
                    "`{path}`: required option `{oname}` after an optional one"
                ));
            }
            seen_optional |= !required;
        }
        check_level(o, &format!("{path} {oname}"), false, chars, out);
    }
}

/// The rules an interaction callback breaks (autocomplete answers and
/// messages).
pub fn callback(body: &Value) -> Vec<String> {
    match body.get("type").and_then(Value::as_u64) {
        Some(8) => autocomplete(body.get("data").unwrap_or(&Value::Null)),
        Some(4 | 7) => message(body.get("data").unwrap_or(&Value::Null)),
        _ => Vec::new(),
    }
}

/// The rules an autocomplete answer breaks.
pub fn autocomplete(data: &Value) -> Vec<String> {
    let mut out = Vec::new();
    let Some(choices) = data.get("choices").and_then(Value::as_array) else {
        return out;
    };
    if choices.len() > MAX_CHOICES {
        out.push(format!(
            "autocomplete offers {} choices; Discord allows {MAX_CHOICES}",
            choices.len()
        ));
    }
    for c in choices {
        let n = len(c.get("name"));
        if !(1..=MAX_CHOICE_LEN).contains(&n) {
            out.push(format!(
                "autocomplete choice name of {n} characters (1-{MAX_CHOICE_LEN}): Discord refuses the whole answer"
            ));
        }
        if let Some(v) = c.get("value").and_then(Value::as_str) {
            if v.chars().count() > MAX_CHOICE_LEN {
                out.push(format!(
                    "autocomplete choice value of {} characters (at most {MAX_CHOICE_LEN})",
                    v.chars().count()
                ));
            }
        }
    }
    out
}

/// The rules a message (new or edited) breaks.
pub fn message(m: &Value) -> Vec<String> {
    let mut out = Vec::new();
    let content = len(m.get("content"));
    if content > MAX_CONTENT {
        out.push(format!(
            "content of {content} characters (at most {MAX_CONTENT})"
        ));
    }
    let Some(rows) = m.get("components").and_then(Value::as_array) else {
        return out;
    };
    if rows.len() > 5 {
        out.push(format!("{} component rows (at most 5)", rows.len()));
    }
    let mut ids = std::collections::HashSet::new();
    for row in rows {
        let items = row
            .get("components")
            .and_then(Value::as_array)
            .cloned()
            .unwrap_or_default();
        if items.len() > 5 {
            out.push(format!("a row of {} components (at most 5)", items.len()));
        }
        for c in &items {
            if let Some(id) = c.get("custom_id").and_then(Value::as_str) {
                if !ids.insert(id.to_string()) {
                    out.push(format!("custom_id `{id}` twice in one message"));
                }
            }
            if c.get("type").and_then(Value::as_u64) == Some(3) {
                out.extend(select(c));
            }
        }
    }
    out
}

fn select(c: &Value) -> Vec<String> {
    let mut out = Vec::new();
    let options = c
        .get("options")
        .and_then(Value::as_array)
        .cloned()
        .unwrap_or_default();
    let mut values = std::collections::HashSet::new();
    for o in &options {
        let v = o.get("value").and_then(Value::as_str).unwrap_or("");
        if !values.insert(v.to_string()) {
            out.push(format!("select option value `{v}` twice"));
        }
    }
    let n = options.len() as u64;
    let min = c.get("min_values").and_then(Value::as_u64).unwrap_or(1);
    let max = c.get("max_values").and_then(Value::as_u64).unwrap_or(1);
    if max > n || min > n || min > max {
        out.push(format!(
            "select with min_values {min} and max_values {max} over {n} options"
        ));
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn cmd(options: Value) -> Value {
        json!([{"name": "roll", "description": "Roll", "type": 1, "options": options}])
    }

    #[test]
    fn command_names_and_descriptions() {
        assert!(valid_name("channel-system") && valid_name("ve1_check") && valid_name("é"));
        assert!(!valid_name("Roll") && !valid_name("two words") && !valid_name(""));
        assert!(!valid_name(&"a".repeat(33)));
        assert!(registration(&cmd(json!([]))).is_empty());
        let bad = json!([{"name": "Roll", "description": "x", "type": 1}]);
        assert_eq!(registration(&bad).len(), 1);
        let no_desc = json!([{"name": "roll", "description": "", "type": 1}]);
        assert_eq!(registration(&no_desc).len(), 1);
        let long = json!([{"name": "roll", "description": "d".repeat(101), "type": 1}]);
        assert_eq!(registration(&long).len(), 1);
    }

    #[test]
    fn required_options_come_first() {
        let opt =
            |n: &str, r: bool| json!({"name": n, "description": "x", "type": 3, "required": r});
        assert!(registration(&cmd(json!([opt("a", true), opt("b", false)]))).is_empty());
        let v = registration(&cmd(json!([opt("a", false), opt("b", true)])));
        assert!(
            v[0].contains("required option `b` after an optional one"),
            "{v:?}"
        );
    }

    #[test]
    fn counts_and_sizes_of_commands() {
        let opts: Vec<Value> = (0..26)
            .map(|i| json!({"name": format!("o{i}"), "description": "x", "type": 3}))
            .collect();
        assert!(registration(&cmd(json!(opts)))[0].contains("26 options"));
        let many: Vec<Value> = (0..101)
            .map(|i| json!({"name": format!("c{i}"), "description": "x", "type": 1}))
            .collect();
        assert!(registration(&json!(many))[0].contains("101 commands"));
        let big: Vec<Value> = (0..25)
            .map(|i| {
                json!({"name": format!("o{i}"), "description": "d".repeat(100), "type": 3,
                    "choices": (0..25).map(|j| json!({"name": format!("{j}{}", "n".repeat(20)), "value": j})).collect::<Vec<_>>()})
            })
            .collect();
        assert!(registration(&cmd(json!(big)))
            .iter()
            .any(|v| v.contains("characters of names")));
        let twice = json!([{"name": "a", "description": "x", "type": 1}, {"name": "a", "description": "x", "type": 1}]);
        assert!(registration(&twice)[0].contains("twice"));
    }

    #[test]
    fn autocomplete_answers() {
        let ok = json!({"type": 8, "data": {"choices": [{"name": "Ada", "value": "Ada"}]}});
        assert!(callback(&ok).is_empty());
        let long =
            json!({"type": 8, "data": {"choices": [{"name": "n".repeat(101), "value": "v"}]}});
        assert_eq!(callback(&long).len(), 1);
        let value =
            json!({"type": 8, "data": {"choices": [{"name": "n", "value": "v".repeat(101)}]}});
        assert_eq!(callback(&value).len(), 1);
        let many: Vec<Value> = (0..26)
            .map(|i| json!({"name": i.to_string(), "value": "v"}))
            .collect();
        assert_eq!(
            callback(&json!({"type": 8, "data": {"choices": many}})).len(),
            1
        );
    }

    #[test]
    fn messages_and_components() {
        let button = |id: &str| json!({"type": 2, "style": 1, "label": "x", "custom_id": id});
        let row = |items: Vec<Value>| json!({"type": 1, "components": items});
        let ok = json!({"content": "x", "components": [row(vec![button("a"), button("b")])]});
        assert!(message(&ok).is_empty());
        let dup = json!({"components": [row(vec![button("a")]), row(vec![button("a")])]});
        assert!(message(&dup)[0].contains("twice in one message"));
        let six: Vec<Value> = (0..6)
            .map(|i| row(vec![button(&format!("b{i}"))]))
            .collect();
        assert!(message(&json!({"components": six}))[0].contains("6 component rows"));
        let wide = json!({"components": [row((0..6).map(|i| button(&format!("b{i}"))).collect())]});
        assert!(message(&wide)[0].contains("a row of 6"));
        assert!(message(&json!({"content": "x".repeat(2001)}))[0].contains("2001"));
        let sel = |opts: Vec<&str>, min: u64, max: u64| {
            json!({"components": [row(vec![json!({"type": 3, "custom_id": "s", "min_values": min, "max_values": max,
                "options": opts.iter().map(|v| json!({"label": v, "value": v})).collect::<Vec<_>>()})])]})
        };
        assert!(message(&sel(vec!["a", "b"], 1, 2)).is_empty());
        assert!(message(&sel(vec!["a", "a"], 1, 1))[0].contains("value `a` twice"));
        assert!(message(&sel(vec!["a", "b"], 1, 3))[0].contains("max_values 3 over 2"));
        // Through the callback route, a message answer is checked too.
        assert_eq!(callback(&json!({"type": 4, "data": dup})).len(), 1);
    }
}
