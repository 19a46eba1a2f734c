//! Vectors for what a worker is handed and what it reports back (issues 37 and 41): plan items
//! and samples that carry their parents, `add --decide`, `admit` before an evaluation, and the
//! cost an add reports.

use serde_json::{Value, json};

use crate::Vector;
use crate::specs::{T0, add, op, req, vector, with};

/// `plan` with no frozen or boosted islands.
fn plan(n: u32) -> Value {
    json!({"op": "plan", "n": n, "frozen": [], "boosted": []})
}

/// Issue 37 (the tool does the bookkeeping, vector 73): with the operators on, a sample carries
/// its parent's fitness and a plan item carries what a sample carries (the parent with its
/// fitness, the second parent, the island's best as inspirations); an add with `decide` is
/// accepted when fitter than its parent and rejected (the reason naming both fitnesses) when
/// not; `decide` with a status is refused and changes nothing; the history replays the rule.
pub(crate) fn decide() -> Vec<Vector> {
    let decided = |request: Value| with(request, "decide", json!(true));
    let ops = vec![
        add(req("p0", "0", 0.5), T0),
        add(req("p1", "p0", 0.6), T0 + 1.0),
        add(req("p2", "p0", 0.7), T0 + 2.0),
        add(req("p3", "p1", 0.55), T0 + 3.0),
        op("sample"),
        add(decided(req("c1", "p2", 0.9)), T0 + 4.0),
        add(decided(req("c2", "p2", 0.7)), T0 + 5.0),
        add(decided(req("c3", "p1", 0.2)), T0 + 6.0),
        add(decided(with(with(req("c4", "p1", 0.2), "status", json!("error")), "reason", json!("crashed"))), T0 + 7.0),
        plan(3),
        op("events"),
        op("snapshot"),
    ];
    vec![vector(
        "decide-and-handouts",
        "add --decide: accepted when fitter than the parent, else rejected with both fitnesses; samples and plan \
         items carry the parent's fitness, plan items the parents and inspirations",
        json!({"numIslands": 2, "operators": {}}),
        ops,
    )]
}

/// Issue 41 (a check before evaluation and what a run cost, vector 74): `admit` answers
/// `duplicate` for code equal once comments and blanks are set aside, `near-duplicate` above the
/// config's `nearDuplicate`, else `evaluate`, and changes nothing; adds report a model, tokens,
/// a price and an evaluation time, `stats` totals them per operator × model × island (errors
/// and improvements counted), and `stopping.maxCostUsd` stops the run; a bad cost is refused.
pub(crate) fn admission_and_cost() -> Vec<Vector> {
    let admit = |code: &str, path: &str| json!({"op": "admit", "code": code, "codePath": path});
    let body = "def f(items):\n    total = 0\n    for x in items:\n        total += x * x\n    return total\n";
    let costed = |request: Value, model: &str, cost: f64| {
        with(
            with(with(with(request, "model", json!(model)), "costUsd", json!(cost)), "tokensIn", json!(1000)),
            "evalSeconds",
            json!(1.5),
        )
    };
    let ops = vec![
        admit(body, "c.py"),
        add(with(req("p0", "0", 0.5), "targetCode", json!(body)), T0),
        admit(
            "def f(items):  # same\n\n    total = 0\n    for x in items:\n        total +=  x * x\n    return total\n",
            "c.py",
        ),
        admit(
            "def f(items):\n    total = 0\n    for x in items:\n        total += x * x\n    return total + 0\n",
            "c.py",
        ),
        admit("class Cache:\n    def __init__(self):\n        self.store = {}\n", "c.py"),
        add(with(costed(req("p1", "p0", 0.6), "small", 0.02), "operator", json!("exploitation")), T0 + 1.0),
        add(with(costed(req("p2", "p0", 0.4), "large", 0.05), "operator", json!("exploration")), T0 + 2.0),
        add(
            with(
                with(costed(req("p3", "p1", 0.0), "small", 0.01), "status", json!("error")),
                "reason",
                json!("crashed"),
            ),
            T0 + 3.0,
        ),
        add(with(req("p4", "p1", 0.7), "costUsd", json!(-1)), T0 + 4.0),
        op("stats"),
        op("shouldStop"),
        add(costed(req("p5", "p1", 0.8), "large", 0.03), T0 + 5.0),
        op("shouldStop"),
        op("snapshot"),
    ];
    vec![vector(
        "admission-and-cost",
        "admit: duplicate, near-duplicate or evaluate, reading only; adds' cost totalled per operator × model × \
         island in stats; maxCostUsd stops the run; a negative cost is refused",
        json!({"numIslands": 2, "nearDuplicate": 0.7, "stopping": {"maxCostUsd": 0.1}}),
        ops,
    )]
}

/// Issue 41 (in-flight-aware sampling, vector 77): with `pending: "aware"`, four samples taken
/// before any answer go to four islands, and exploitation on an island skips a top parent that
/// is already being worked on; `database.json` keeps the open work (`evodb.inFlight`); an add
/// naming a parent settles one entry; the history replays it.
pub(crate) fn in_flight() -> Vec<Vector> {
    let ops = vec![
        add(req("p0", "0", 0.5), T0),
        add(req("p1", "p0", 0.6), T0 + 1.0),
        add(req("p2", "p0", 0.7), T0 + 2.0),
        add(req("p3", "p1", 0.55), T0 + 3.0),
        add(req("p4", "p2", 0.65), T0 + 4.0),
        op("sample"),
        op("sample"),
        op("sample"),
        op("sample"),
        op("snapshot"),
        add(req("c1", "p2", 0.8), T0 + 5.0),
        op("sample"),
        plan(2),
        op("events"),
        op("snapshot"),
    ];
    vec![vector(
        "in-flight-aware-sampling",
        "pending aware: concurrent samples spread over islands and parents; open work is saved and settled by \
         the add that answers it",
        json!({"numIslands": 4, "operators": {}, "pending": "aware"}),
        ops,
    )]
}

/// Issue 41 (the adaptive operator policy, vectors 78–79): with `operatorPolicy: "ucb"`, an
/// operator not yet tried is chosen first, then the one with the best improvement rate plus
/// its exploration bonus; no PRNG draw, so the history replays it; `ucb` without the operators
/// is refused, naming `operatorPolicy`.
pub(crate) fn operator_policy() -> Vec<Vector> {
    let by = |request: Value, operator: &str| with(request, "operator", json!(operator));
    vec![
        vector(
            "operator-policy-ucb",
            "operatorPolicy ucb: untried operators first, then the best improvement rate plus its bonus; replayable",
            json!({"numIslands": 2, "operators": {}, "operatorPolicy": "ucb"}),
            vec![
                add(req("p0", "0", 0.5), T0),
                add(by(req("p1", "p0", 0.6), "exploitation"), T0 + 1.0),
                op("sample"),
                add(by(req("p2", "p0", 0.4), "exploration"), T0 + 2.0),
                add(by(req("p3", "p1", 0.3), "crossover"), T0 + 3.0),
                add(by(req("p4", "p1", 0.2), "migration"), T0 + 4.0),
                op("sample"),
                add(by(req("p5", "p1", 0.9), "exploitation"), T0 + 5.0),
                op("sample"),
                op("stats"),
                op("events"),
                op("snapshot"),
            ],
        ),
        vector(
            "operator-policy-needs-operators",
            "operatorPolicy ucb without the operators: the error names operatorPolicy and the fix",
            json!({"numIslands": 2, "operatorPolicy": "ucb"}),
            vec![],
        ),
    ]
}
