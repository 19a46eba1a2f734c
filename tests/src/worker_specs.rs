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

/// `planAt`: `plan` at `now`, leased for `lease` seconds (none: the config's length, if any).
fn plan_at(n: u32, now: f64, lease: Option<f64>) -> Value {
    let mut op = json!({"op": "planAt", "n": n, "frozen": [], "boosted": [], "now": now});
    if let Some(lease) = lease {
        op["leaseSeconds"] = json!(lease);
    }
    op
}

fn heartbeat(item: &str, token: &str, now: f64, lease: Option<f64>) -> Value {
    let mut op = json!({"op": "heartbeat", "item": item, "token": token, "now": now});
    if let Some(lease) = lease {
        op["leaseSeconds"] = json!(lease);
    }
    op
}

fn leases(now: f64) -> Value {
    json!({"op": "leases", "now": now})
}

/// The items `ops` (adds, then one `planAt`) hand out on a database of `config` (seed 7, as
/// every vector's): each item's name and first parent, so a vector can answer them by name.
fn handed_out(config: &Value, ops: &[Value]) -> Vec<(String, String)> {
    let config = evodb_core::Config::from_json(&config.to_string()).expect("a valid config");
    let mut db = evodb_core::Database::new(config, 7).expect("a database");
    let mut items = Vec::new();
    for op in ops {
        match op["op"].as_str() {
            Some("add") => {
                let request = evodb_core::AddRequest::from_json(&op["request"].to_string()).expect("a request");
                db.add(request, op["now"].as_f64().unwrap()).expect("the add applies");
            }
            Some("planAt") => {
                let n = op["n"].as_u64().unwrap() as u32;
                let plan = db.plan_at(n, &[], &[], op["now"].as_f64().unwrap(), op["leaseSeconds"].as_f64()).unwrap();
                items = plan.items.into_iter().map(|item| (item.name, item.parent_ids[0].clone())).collect();
            }
            _ => {}
        }
    }
    items
}

/// An answer to plan item `item` (with its parent) under `token`.
fn answer(id: &str, (item, parent): &(String, String), token: Option<&str>, score: f64) -> Value {
    let request = with(req(id, parent, score), "planItem", json!(item));
    match token {
        Some(token) => with(request, "token", json!(token)),
        None => request,
    }
}

/// Issue 41 (leases, vectors 85–88): items handed out under leases carry `{token, expires,
/// attempt}`; the next plan hands an expired, unanswered item out again first (same item, a new
/// token, the next attempt, counted toward `n`); an answer under a stale or missing token is
/// refused and changes nothing; a heartbeat extends a lease; every step replays from the events.
pub(crate) fn leases_vectors() -> Vec<Vector> {
    let token = |item: &(String, String), attempt: u32| evodb_core::lease_token(7, &item.0, attempt);

    let config = json!({"numIslands": 2});
    let seeded = vec![add(req("p0", "0", 0.5), T0), add(req("p1", "p0", 0.6), T0 + 1.0)];
    let first = plan_at(3, T0 + 10.0, Some(60.0));
    let items = handed_out(&config, &[seeded.clone(), vec![first.clone()]].concat());
    let mut ops = seeded;
    ops.extend([
        first,
        leases(T0 + 50.0),
        leases(T0 + 100.0),
        // Expired but not handed out again: nobody else holds it, its answer counts.
        add(answer("c0", &items[0], Some(&token(&items[0], 1)), 0.7), T0 + 90.0),
        plan_at(2, T0 + 100.0, None),
        leases(T0 + 100.0),
        add(answer("c1", &items[1], Some(&token(&items[1], 2)), 0.65), T0 + 110.0),
        add(answer("c2", &items[2], Some(&token(&items[2], 2)), 0.4), T0 + 120.0),
        leases(T0 + 200.0),
        op("events"),
        op("snapshot"),
    ]);
    let expiry = vector(
        "leases-expiry-and-reissue",
        "plan --leaseSeconds: items carry {token, expires, attempt}; leases lists them live, then expired; the \
         next plan hands the expired, unanswered items out again first (new token, attempt 2, counted toward n)",
        config,
        ops,
    );

    let config = json!({"numIslands": 2, "leaseSeconds": 30});
    let seeded = vec![add(req("p0", "0", 0.5), T0)];
    let first = plan_at(2, T0, None);
    let items = handed_out(&config, &[seeded.clone(), vec![first.clone()]].concat());
    let mut ops = seeded;
    ops.extend([
        first,
        plan_at(1, T0 + 40.0, None),
        add(answer("late", &items[0], Some(&token(&items[0], 1)), 0.9), T0 + 41.0),
        add(answer("bare", &items[0], None, 0.9), T0 + 41.0),
        add(answer("wrong", &items[0], Some("not-a-token"), 0.9), T0 + 41.0),
        heartbeat(&items[0].0, &token(&items[0], 1), T0 + 41.0, None),
        add(with(req("loose", "p0", 0.9), "token", json!(token(&items[0], 2))), T0 + 41.0),
        op("snapshot"),
        add(answer("c1", &items[1], Some(&token(&items[1], 1)), 0.6), T0 + 42.0),
        add(answer("c0", &items[0], Some(&token(&items[0], 2)), 0.7), T0 + 43.0),
        add(answer("again", &items[0], Some(&token(&items[0], 2)), 0.7), T0 + 44.0),
        leases(T0 + 50.0),
        op("events"),
        op("snapshot"),
    ]);
    let stale = vector(
        "leases-stale-answer-refused",
        "config leaseSeconds: once an item is handed out again, its old token's answer and heartbeat are refused, \
         as are an answer without a token, with a wrong one, and a token without a plan item; nothing changes; \
         the new token's answer applies once",
        config,
        ops,
    );

    let config = json!({"numIslands": 2});
    let seeded = vec![add(req("p0", "0", 0.5), T0)];
    let first = plan_at(1, T0, Some(60.0));
    let items = handed_out(&config, &[seeded.clone(), vec![first.clone()]].concat());
    let live = token(&items[0], 1);
    let mut ops = seeded;
    ops.extend([
        first,
        heartbeat(&items[0].0, &live, T0 + 50.0, None),
        heartbeat(&items[0].0, &live, T0 + 100.0, Some(200.0)),
        plan_at(1, T0 + 200.0, Some(60.0)),
        leases(T0 + 200.0),
        heartbeat(&items[0].0, "not-a-token", T0 + 201.0, None),
        heartbeat("gen-9/island-0/exploration-0", &live, T0 + 201.0, None),
        heartbeat(&items[0].0, &live, T0 + 201.0, Some(0.0)),
        op("reload"),
        leases(T0 + 280.0),
        add(answer("c0", &items[0], Some(&live), 0.7), T0 + 290.0),
        op("events"),
        op("snapshot"),
    ]);
    let beats = vector(
        "leases-heartbeat-extends",
        "heartbeat moves a lease's expiry to now + its length (or the length given), so the next plan does not \
         hand the item out again; a wrong token, an unknown item or a bad length is refused; leases survive a reload",
        config,
        ops,
    );

    let config = json!({"numIslands": 2, "operators": {}});
    let seeded = vec![add(req("p0", "0", 0.5), T0), add(req("p1", "p0", 0.6), T0 + 1.0)];
    let first = plan_at(2, T0 + 10.0, Some(60.0));
    let items = handed_out(&config, &[seeded.clone(), vec![first.clone()]].concat());
    let mut ops = seeded;
    ops.extend([
        first,
        sample_at(None, T0 + 30.0),
        sample_at(None, T0 + 100.0),
        add(answer("killed", &items[0], Some(&token(&items[0], 1)), 0.9), T0 + 101.0),
        add(answer("c0", &items[0], Some(&token(&items[0], 2)), 0.7), T0 + 102.0),
        sample_at(Some("nope"), T0 + 103.0),
        sample_at(None, T0 + 103.0),
        sample_at(None, T0 + 104.0),
        leases(T0 + 104.0),
        add(answer("c1", &items[1], Some(&token(&items[1], 2)), 0.65), T0 + 105.0),
        op("events"),
        op("snapshot"),
    ]);
    let sampled = vector(
        "leases-sample-reissues-expired",
        "sample at a time: while every lease is live it draws; once an item's lease expired unanswered it hands \
         that item out again instead (planItem, the same parent, island and operator, a new token, attempt 2) and \
         records the time; the old token's answer is refused; with none expired it draws again",
        config,
        ops,
    );
    vec![expiry, stale, beats, sampled]
}

/// `sampleAt`: `sample` (of `target`) at `now`.
fn sample_at(target: Option<&str>, now: f64) -> Value {
    let mut op = json!({"op": "sampleAt", "now": now});
    if let Some(target) = target {
        op["target"] = json!(target);
    }
    op
}

/// Issue 41 (admission by the caller's own embedding, vectors 89–90): adds keep their
/// `embedding`; `admit` with an embedding finds an exact duplicate by the code, else a
/// near-duplicate of the live program whose stored embedding is closest by cosine similarity
/// (at least `embeddingThreshold`), else `evaluate`; programs added without one are compared by
/// code only; an embedding that is empty, all zeros or of another length than the run's is
/// refused (add and admit alike) and changes nothing.
pub(crate) fn admission_by_embedding() -> Vec<Vector> {
    let admit =
        |code: &str, embedding: Value| json!({"op": "admit", "code": code, "codePath": "c.py", "embedding": embedding});
    let embedded = |request: Value, embedding: Value| with(request, "embedding", embedding);
    let body = "def f(items):\n    total = 0\n    for x in items:\n        total += x * x\n    return total\n";
    let other = "def g(items):\n    return sorted(set(items))\n";
    let ops = vec![
        admit(body, json!([1, 0, 0])),
        add(embedded(with(req("p0", "0", 0.5), "targetCode", json!(body)), json!([1, 0, 0])), T0),
        add(req("p1", "p0", 0.6), T0 + 1.0),
        admit(
            "def f(items):  # the same code\n    total = 0\n    for x in items:\n        total += x * x\n    return total\n",
            json!([0, 1, 0]),
        ),
        admit(other, json!([0.99, 0.05, 0])),
        admit(other, json!([0.6, 0.8, 0])),
        add(embedded(req("p2", "p1", 0.7), json!([0, 2, 0])), T0 + 2.0),
        admit(other, json!([0.1, 0.99, 0])),
        admit(other, json!([-1, 0, 0])),
        op("events"),
        op("snapshot"),
    ];
    let verdicts = vector(
        "admission-by-embedding",
        "admit with the caller's embedding: duplicate by the code, else near-duplicate of the closest stored \
         embedding by cosine similarity from embeddingThreshold, else evaluate; adds keep their embedding",
        json!({"numIslands": 2, "embeddingThreshold": 0.95}),
        ops,
    );
    let ops = vec![
        add(embedded(req("p0", "0", 0.5), json!([0.5, 0.5])), T0),
        add(embedded(req("p1", "p0", 0.6), json!([0.5, 0.5, 0.5])), T0 + 1.0),
        add(embedded(req("p2", "p0", 0.6), json!([])), T0 + 2.0),
        add(embedded(req("p3", "p0", 0.6), json!([0, 0])), T0 + 3.0),
        admit(body, json!([1, 2, 3])),
        admit(body, json!([0, 0])),
        admit(body, json!([])),
        add(embedded(req("p4", "p0", 0.6), json!([0.25, -1])), T0 + 4.0),
        op("snapshot"),
    ];
    let refused = vector(
        "embedding-bad-input-changes-nothing",
        "an embedding of another length than the run's, empty or all zeros is refused by add and admit alike, \
         naming embedding; nothing changes",
        json!({"numIslands": 1}),
        ops,
    );
    vec![verdicts, refused]
}
