//! Veracity at the table: sheets, saves, Stress and Breaks, Wounds and
//! death, Facets, revelations, Conventions, rights, bad input, restart.

use crate::common::{assert_schema_clean, table};
use serde_json::Value;

/// Discord's cap on a command's combined name, description and choice text.
fn command_chars(v: &Value) -> usize {
    let s = |k: &str| v.get(k).and_then(Value::as_str).map_or(0, |s| s.chars().count());
    let mut n = s("name") + s("description");
    for c in v.get("choices").and_then(Value::as_array).into_iter().flatten() {
        n += s_of(c, "name") + c.get("value").map_or(0, |x| x.to_string().trim_matches('"').chars().count());
    }
    for o in v.get("options").and_then(Value::as_array).into_iter().flatten() {
        n += command_chars(o);
    }
    n
}

fn s_of(v: &Value, k: &str) -> usize {
    v.get(k).and_then(Value::as_str).map_or(0, |s| s.chars().count())
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn vr_registers_within_discord_size_limits() {
    let t = table("vr-register", 1).await;
    let reg = t.registered();
    let vr = reg
        .as_array()
        .unwrap()
        .iter()
        .find(|c| c["name"] == "vr")
        .expect("/vr registered")
        .clone();
    let n = command_chars(&vr);
    println!("/vr uses {n} characters");
    assert!(n <= 4000, "/vr uses {n} characters");
    assert_schema_clean(&t);
    t.stop().await;
}
