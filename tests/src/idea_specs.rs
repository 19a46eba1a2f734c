//! Vectors for idea runs (issue 39, evoidea): ideas stored as canonical compact JSON with the
//! eight criteria as metrics, the memetic plan (generate, then refine the elite with only its
//! brief), origin and merged parents, stopping counted in rounds, the evoidea export, and bad
//! ideas refused without a change.

use serde_json::{Value, json};

use crate::Vector;
use crate::specs::{T0, add, op, vector};

const CRITERIA: [&str; 8] =
    ["feasibility", "speed_to_value", "differentiation", "market_size", "distribution", "moats", "risk", "clarity"];

/// An idea add: the idea (facets in a scrambled order, a list for `risks`) and scores from
/// `base` upward, the first criterion the weakest.
fn idea(id: &str, title: &str, base: f64) -> Value {
    let scores: serde_json::Map<String, Value> =
        CRITERIA.iter().enumerate().map(|(i, c)| (c.to_string(), json!(base + i as f64 * 0.25))).collect();
    let idea = json!({
        "summary": format!("{title} for solo developers. "),
        "title": title,
        "facets": {"risks": ["churn", "copycats"], "audience": "solo developers", "jtbd": "ship"},
    });
    json!({"id": id, "codePath": "idea.json", "targetCode": idea.to_string(), "parentId": "0", "metrics": scores})
}

fn with(mut request: Value, key: &str, value: Value) -> Value {
    request[key] = value;
    request
}

fn plan() -> Value {
    json!({"op": "plan", "n": 1, "frozen": [], "boosted": []})
}

fn config() -> Value {
    json!({
        "kind": "ideas", "ideas": {"population": 3, "elite": 2}, "numIslands": 1,
        "stopping": {"scoreThreshold": 9.0, "patience": 2, "maxRounds": 4},
    })
}

pub(crate) fn all() -> Vec<Vector> {
    let loop_ops = vec![
        plan(),
        add(with(idea("i0", "Changelog bot", 4.0), "planItem", json!("round-1/generate-0")), T0),
        add(with(idea("i1", "Uptime pager", 6.0), "planItem", json!("round-1/generate-1")), T0 + 1.0),
        add(with(idea("i2", "Invoice CLI", 5.0), "planItem", json!("round-1/generate-2")), T0 + 2.0),
        op("shouldStop"),
        plan(),
        add(
            with(
                with(idea("r1", "Uptime pager for indie SaaS", 7.0), "parents", json!(["i1"])),
                "planItem",
                json!("round-2/refine-0"),
            ),
            T0 + 3.0,
        ),
        add(
            with(
                with(idea("m1", "Pager plus invoices", 6.5), "parents", json!(["r1", "i2"])),
                "origin",
                json!("merged"),
            ),
            T0 + 4.0,
        ),
        op("shouldStop"),
        op("reload"),
        plan(),
        op("shouldStop"),
        plan(),
        op("shouldStop"),
        json!({"op": "export", "format": "evoidea"}),
        op("events"),
        op("snapshot"),
    ];
    let bad = |request: Value| add(request, T0 + 9.0);
    let refused_ops = vec![
        add(idea("i0", "First", 5.0), T0),
        bad(with(idea("x1", "t", 5.0), "targetCode", json!(r#"{"summary":"no title"}"#))),
        bad(with(idea("x2", "t", 5.0), "targetCode", json!(r#"{"title":"t","facets":"all"}"#))),
        bad(with(idea("x3", "t", 5.0), "targetCode", json!(format!(r#"{{"title":"{}"}}"#, "x".repeat(201))))),
        bad(with(idea("x4", "t", 5.0), "metrics", json!({"feasibility": 11}))),
        bad(with(idea("x5", "t", 5.0), "metrics", json!({"score": 0.5}))),
        bad(with(idea("x6", "t", 5.0), "origin", json!("refined"))),
        bad(with(idea("x7", "t", 5.0), "parents", json!(["i0", "i0"]))),
        bad(with(with(idea("x8", "t", 5.0), "parentId", json!("i0")), "parents", json!(["zz", "i0"]))),
        op("snapshot"),
    ];
    vec![
        vector(
            "ideas-memetic-loop",
            "idea runs: round 1 plans the population's generate items, round 2 one refine item per elite idea \
             carrying only its idea, its weakest criteria and the best's summary; ideas are stored as canonical \
             compact JSON with origin and merged parents; stagnation counts rounds; the evoidea export",
            config(),
            loop_ops,
        ),
        vector(
            "ideas-bad-input-changes-nothing",
            "idea runs refuse an idea without a title, facets of the wrong type, an oversized title, a score \
             outside 0-10, metrics that are not the eight criteria, an origin that does not fit the parents, a \
             parent named twice and a parentId that is not the first parent; nothing changes",
            config(),
            refused_ops,
        ),
    ]
}
