//! `kismet odds roll --expression …`: the exact distribution of any `/roll`
//! expression as JSON (the numbers come from [`crate::rules::expr::odds`]).
//!
//! `{"expression", "repeat", "min", "pmf": [P(min), P(min+1), …], "mean",
//! "sd", "tail"}` plus `"pass"` when the expression has a target.

use serde_json::{json, Value};

use crate::rules::expr::{self, odds, Caps};

/// Answers one expression, or says why not.
pub fn answer(expression: &str) -> Result<Value, String> {
    let e = expr::parse(expression, Caps::default()).map_err(|e| e.message)?;
    let o = odds::odds(&e).map_err(|e| e.message)?;
    let mut v = json!({
        "expression": e.to_string(),
        "repeat": e.repeat,
        "min": o.dist.min,
        "pmf": o.dist.p,
        "mean": o.dist.mean(),
        "sd": o.dist.sd(),
        "tail": o.tail,
    });
    if let Some(p) = o.pass {
        v["pass"] = json!(p);
    }
    Ok(v)
}
