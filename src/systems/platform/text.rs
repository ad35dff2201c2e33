//! Small text helpers shared by the platform commands: compact summaries of
//! logged JSON, dice faces as text, system names, percentages and UTC
//! timestamps.

use serde_json::Value;
use std::collections::BTreeMap;

use crate::app::registry::Registry;
use crate::app::view::truncate;
use crate::storage::faces::FaceCount;

/// The registered system a log entry names (by id, alias or command
/// root): `generic` is the dice system, whose id is `roll`.
pub fn logged_system<'a>(
    reg: &'a Registry,
    system: &str,
) -> Option<&'a dyn crate::app::registry::System> {
    reg.get(system).or_else(|| {
        reg.all().find(|s| {
            s.aliases().iter().any(|a| a.eq_ignore_ascii_case(system))
                || s.command_root() == Some(system)
        })
    })
}

/// The display name of a system as stored in the log: the registered
/// system's name (by id or alias), else the word capitalised.
pub fn system_name(reg: &Registry, system: &str) -> String {
    match logged_system(reg, system) {
        Some(s) => s.name().to_string(),
        None if system.is_empty() => "?".into(),
        None => crate::app::view::capitalised(system),
    }
}

/// A logged JSON value as short readable text (`key: value, …`), at most
/// `max` characters. Text that is not JSON is shown as it is.
pub fn compact_json(raw: &str, max: usize) -> String {
    let mut s = match serde_json::from_str::<Value>(raw) {
        Ok(v) => compact(&v, 0),
        Err(_) => raw.to_string(),
    };
    s = s.replace('`', "'");
    truncate(&mut s, max);
    if s.is_empty() {
        "–".into()
    } else {
        s
    }
}

fn compact(v: &Value, depth: usize) -> String {
    match v {
        Value::Null => "–".into(),
        Value::Bool(b) => if *b { "yes" } else { "no" }.into(),
        Value::Number(n) => n.to_string(),
        Value::String(s) => s.clone(),
        Value::Array(items) => {
            let inner: Vec<String> = items.iter().map(|i| compact(i, depth + 1)).collect();
            format!("[{}]", inner.join(", "))
        }
        Value::Object(map) => {
            // A die written as {value, kept, …}: its value says it all.
            if let Some(val @ Value::Number(_)) = map.get("value") {
                if map
                    .iter()
                    .all(|(k, x)| k == "value" || x.is_boolean() || x.is_null())
                {
                    return compact(val, depth);
                }
            }
            let inner: Vec<String> = map
                .iter()
                .filter(|(_, x)| !x.is_null())
                .map(|(k, x)| format!("{}: {}", k.replace('_', " "), compact(x, depth + 1)))
                .collect();
            if depth == 0 {
                inner.join(", ")
            } else {
                format!("{{{}}}", inner.join(", "))
            }
        }
    }
}

/// Dice faces as text, per die size: `d6: 1 3 3 · d20: 17`; sizes with
/// more than `list_max` dice as counts per face (`d10 ×40: 1×4 2×3 …`).
pub fn faces_text(counts: &[FaceCount], list_max: u64) -> String {
    let mut by_size: BTreeMap<u32, Vec<(u32, u64)>> = BTreeMap::new();
    for c in counts {
        by_size.entry(c.sides).or_default().push((c.face, c.n));
    }
    let parts: Vec<String> = by_size
        .iter()
        .map(|(sides, faces)| {
            let n: u64 = faces.iter().map(|f| f.1).sum();
            if n <= list_max {
                let list: Vec<String> = faces
                    .iter()
                    .flat_map(|(face, k)| std::iter::repeat_n(face.to_string(), *k as usize))
                    .collect();
                format!("d{sides}: {}", list.join(" "))
            } else {
                let list: Vec<String> = faces.iter().map(|(f, k)| format!("{f}×{k}")).collect();
                format!("d{sides} ×{n}: {}", list.join(" "))
            }
        })
        .collect();
    parts.join(" · ")
}

/// A probability as a percentage to read at a glance: two decimals, so
/// columns line up (`38.75%`, `45.00%`, `8.33%`); what would round to 0 or
/// 100 says so (`<0.01%`, `>99.99%`), so only a certainty reads 0 % or
/// 100 %. `kismet odds` prints the full figures.
pub fn pct(p: f64) -> String {
    if !p.is_finite() {
        return "–".into();
    }
    if p <= 0.0 {
        return "0%".into();
    }
    if p >= 1.0 {
        return "100%".into();
    }
    let v = p * 100.0;
    if v >= 99.995 {
        return ">99.99%".into();
    }
    if v < 0.005 {
        return "<0.01%".into();
    }
    format!("{v:.2}%")
}

/// Milliseconds since the epoch as `YYYY-MM-DDTHH:MM:SSZ` (UTC).
pub fn iso_utc(ms: i64) -> String {
    let secs = ms.div_euclid(1000);
    let days = secs.div_euclid(86_400);
    let sod = secs.rem_euclid(86_400);
    let (y, m, d) = civil_from_days(days);
    format!(
        "{y:04}-{m:02}-{d:02}T{:02}:{:02}:{:02}Z",
        sod / 3600,
        sod % 3600 / 60,
        sod % 60
    )
}

/// The proleptic Gregorian date of a day count since 1970-01-01 (Howard
/// Hinnant's algorithm).
fn civil_from_days(z: i64) -> (i64, u32, u32) {
    let z = z + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z.rem_euclid(146_097);
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let d = (doy - (153 * mp + 2) / 5 + 1) as u32;
    let m = if mp < 10 { mp + 3 } else { mp - 9 } as u32;
    let y = yoe + era * 400 + i64::from(m <= 2);
    (y, m, d)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn iso_times() {
        assert_eq!(iso_utc(0), "1970-01-01T00:00:00Z");
        assert_eq!(iso_utc(951_782_400_000), "2000-02-29T00:00:00Z");
        assert_eq!(iso_utc(1_700_000_000_123), "2023-11-14T22:13:20Z");
        assert_eq!(iso_utc(-1000), "1969-12-31T23:59:59Z");
    }

    #[test]
    fn json_is_summarised() {
        assert_eq!(
            compact_json(r#"{"expression":"3d6 + 2"}"#, 100),
            "expression: 3d6 + 2"
        );
        assert_eq!(
            compact_json(
                r#"{"faces":[{"value":1,"kept":true},{"value":4,"kept":false}],"total":5}"#,
                100
            ),
            "faces: [1, 4], total: 5"
        );
        assert_eq!(compact_json("plain text", 100), "plain text");
        assert_eq!(compact_json("null", 100), "–");
        let long = compact_json(&format!("\"{}\"", "x".repeat(50)), 10);
        assert_eq!(long.chars().count(), 10);
    }

    #[test]
    fn faces_are_listed_or_counted() {
        let c = |sides, face, n| FaceCount { sides, face, n };
        assert_eq!(
            faces_text(&[c(6, 1, 1), c(6, 3, 2), c(20, 17, 1)], 10),
            "d6: 1 3 3 · d20: 17"
        );
        assert_eq!(
            faces_text(&[c(10, 1, 8), c(10, 10, 4)], 10),
            "d10 ×12: 1×8 10×4"
        );
    }

    #[test]
    fn percentages() {
        assert_eq!(pct(0.3875), "38.75%");
        assert_eq!(pct(0.45), "45.00%");
        assert_eq!(pct(0.8488), "84.88%");
        assert_eq!(pct(0.0833333), "8.33%");
        assert_eq!(pct(0.0001), "0.01%");
        assert_eq!(pct(0.00004), "<0.01%");
        assert_eq!(pct(0.99999), ">99.99%");
        assert_eq!(pct(1.0), "100%");
        assert_eq!(pct(0.0), "0%");
        assert_eq!(pct(2.5e-9), "<0.01%");
        let reg = crate::systems::registry();
        assert_eq!(system_name(&reg, "storyteller"), "Storyteller");
        assert_eq!(system_name(&reg, "ore"), "Virtual Veil");
        assert_eq!(system_name(&reg, "generic"), "Dice");
        assert_eq!(system_name(&reg, "fc"), "Fc");
    }
}
