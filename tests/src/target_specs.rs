//! Vectors for several-target runs (issue 20, seed 003's evo-anything): each target on its own
//! group of islands, plan items spread by weight, synergy items naming each target's best, and
//! best, stats and should-stop per target.

use serde_json::{Value, json};

use crate::Vector;
use crate::specs::{T0, add, op, req, vector, with};

fn on(target: &str, request: Value) -> Value {
    with(request, "target", json!(target))
}

fn scoped(name: &str, target: &str) -> Value {
    json!({"op": name, "target": target})
}

fn plan(n: u32) -> Value {
    json!({"op": "plan", "n": n, "frozen": [], "boosted": []})
}

fn answer(id: &str, parent: &str, score: f64, item: &str) -> Value {
    with(req(id, parent, score), "planItem", json!(item))
}

pub(crate) fn all() -> Vec<Vector> {
    let two = json!({
        "numIslands": 4,
        "targets": [
            {"id": "parse", "description": "the tokenizer and parser", "weight": 2},
            {"id": "render"}
        ],
        "synergyEvery": 2,
        "operators": {"exploitation": 1, "exploration": 1, "crossover": 1, "migration": 1},
        "stopping": {"patience": 3, "scoreThreshold": 0.9}
    });
    vec![
        vector(
            "targets-plan-spread-and-synergy",
            "two targets on two islands each: a candidate names its target or takes its parent's; plan spreads \
             items 2:1 by weight, each within its target's islands; every second round carries a synergy item \
             naming each target's best, whose answer (held until the round's items are in) counts for both \
             targets; best, should-stop and stats per target; an unknown target, a missing one, an island of \
             another target and a target other than the plan item's are refused",
            two,
            vec![
                add(on("parse", req("a0", "0", 0.3)), T0),
                add(on("render", req("b0", "0", 0.5)), T0 + 1.0),
                add(req("a1", "a0", 0.4), T0 + 2.0),
                add(req("b1", "b0", 0.45), T0 + 3.0),
                add(req("x", "0", 0.2), T0 + 4.0),
                add(on("render", with(req("y", "a0", 0.2), "island", json!(0))), T0 + 5.0),
                scoped("sample", "parse"),
                scoped("sample", "render"),
                scoped("sample", "nope"),
                plan(6),
                plan(3),
                add(answer("s0", "0", 0.7, "gen-1/synergy"), T0 + 6.0),
                add(answer("c1", "b0", 0.95, "gen-1/island-2/exploitation-1"), T0 + 7.0),
                add(on("render", answer("c0", "a1", 0.5, "gen-1/island-0/exploitation-0")), T0 + 8.0),
                add(answer("c0", "a1", 0.5, "gen-1/island-0/exploitation-0"), T0 + 8.0),
                add(answer("c2", "a0", 0.35, "gen-1/island-1/exploration-2"), T0 + 9.0),
                scoped("best", "parse"),
                scoped("best", "render"),
                op("best"),
                scoped("shouldStop", "parse"),
                scoped("shouldStop", "render"),
                op("stats"),
                op("events"),
                op("reload"),
                op("snapshot"),
            ],
        ),
        vector(
            "targets-rings-and-samples-stay-home",
            "three targets on two islands each, seed sampling: a sample for a target draws only its programs, \
             ring migration moves programs only between the islands of one target, and the archive keeps each \
             target's best",
            json!({"numIslands": 6, "maxIslandSize": 3, "migrationInterval": 2, "archiveSize": 1,
                   "targets": [{"id": "a"}, {"id": "b"}, {"id": "c"}]}),
            vec![
                add(on("a", req("a0", "0", 0.1)), T0),
                add(on("b", req("b0", "0", 0.2)), T0 + 1.0),
                add(on("c", req("c0", "0", 0.3)), T0 + 2.0),
                add(req("a1", "a0", 0.4), T0 + 3.0),
                add(req("b1", "b0", 0.5), T0 + 4.0),
                add(req("c1", "c0", 0.6), T0 + 5.0),
                add(req("a2", "a1", 0.7), T0 + 6.0),
                add(req("b2", "b1", 0.8), T0 + 7.0),
                add(req("c2", "c1", 0.9), T0 + 8.0),
                add(req("a3", "a2", 0.05), T0 + 9.0),
                scoped("sample", "a"),
                scoped("sample", "b"),
                scoped("sample", "c"),
                op("sample"),
                op("stats"),
                op("snapshot"),
            ],
        ),
        vector(
            "targets-bad-config",
            "two targets cannot share three islands: the error names numIslands",
            json!({"numIslands": 3, "targets": [{"id": "a"}, {"id": "b"}]}),
            vec![],
        ),
    ]
}
