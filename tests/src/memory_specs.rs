//! Vectors for what agents read beside the population (issue 20): named islands (seed 004's
//! families of approaches) and run memory (seed 003's lessons and failures), in samples, plan
//! items, stats and saves.

use serde_json::{Value, json};

use crate::Vector;
use crate::specs::{T0, add, op, req, vector, with};

fn note(kind: &str, text: &str) -> Value {
    json!({"op": "note", "request": {"kind": kind, "text": text}})
}

fn notes(target: Option<&str>, kind: Option<&str>, limit: Option<u32>) -> Value {
    json!({"op": "notes", "target": target, "kind": kind, "limit": limit})
}

fn failed(id: &str, reason: &str) -> Value {
    with(with(with(req(id, "p0", 0.0), "metrics", json!({})), "status", json!("error")), "reason", json!(reason))
}

pub(crate) fn all() -> Vec<Vector> {
    let named = json!({
        "islands": [
            {"name": "vectorise", "description": "numpy and array tricks"},
            {"name": "algorithms", "description": "better asymptotics: sieves, caches"},
            {"name": "wild"}
        ],
        "operators": {"exploitation": 1, "exploration": 0, "crossover": 0, "migration": 1}
    });
    vec![
        vector(
            "named-islands-in-samples-plans-and-stats",
            "named islands: the count comes from the list; samples and plan items name their island and its \
             description (none when it has none) and the donor island; stats and the markdown and tree exports \
             name each island",
            named,
            vec![
                add(req("p0", "0", 0.5), T0),
                add(req("p1", "p0", 0.6), T0 + 1.0),
                add(req("p2", "p0", 0.7), T0 + 2.0),
                op("sample"),
                op("sample"),
                op("sample"),
                json!({"op": "plan", "n": 6, "frozen": [], "boosted": []}),
                op("stats"),
                json!({"op": "export", "format": "markdown"}),
                json!({"op": "export", "format": "tree"}),
                op("reload"),
                op("snapshot"),
            ],
        ),
        vector(
            "named-islands-bad-config",
            "a numIslands that disagrees with the island list is refused, naming numIslands",
            json!({"numIslands": 2, "islands": [{"name": "a"}, {"name": "b"}, {"name": "c"}]}),
            vec![],
        ),
        vector(
            "notes-in-samples-bounded",
            "notes and error reasons (as failure notes) come with samples and plan items, newest first, at most \
             perSample of them within maxBytes (a long note is skipped for older short ones); notes lists them by \
             kind; an empty note is refused; notes survive a reload",
            json!({"notes": {"perSample": 3, "maxBytes": 60}}),
            vec![
                add(req("p0", "0", 0.5), T0),
                note("lesson", "a set beats a list for membership"),
                add(failed("e1", "SyntaxError: line 3"), T0 + 1.0),
                note("idea", "precompute the primes below 1000 once; the table is small and the sieve is hot"),
                note("idea", "try bit arrays"),
                op("sample"),
                json!({"op": "plan", "n": 1, "frozen": [], "boosted": []}),
                notes(None, Some("failure"), None),
                notes(None, None, Some(2)),
                json!({"op": "note", "request": {"kind": "lesson", "text": "  "}}),
                op("events"),
                op("reload"),
                op("sample"),
                op("snapshot"),
            ],
        ),
    ]
}
