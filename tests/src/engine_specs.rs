//! Vectors for the engine beyond the seed skill (seeds 002–004): feature cells, the archive,
//! the four operators, statuses, dedupe, stopping, lineage exports, validate, plans, the
//! policy check, events and the population markdown.

use serde_json::{Value, json};

use crate::Vector;
use crate::specs::{T0, add, evolve, op, req, samples, score, then, vector, with};

/// A request with its own code and metrics.
fn cand(id: &str, parent: &str, metrics: Value, lines: usize) -> Value {
    let body: String = (0..lines).map(|i| format!("    x{i} = {i}\n")).collect();
    with(
        with(req(id, parent, 0.0), "metrics", metrics),
        "targetCode",
        json!(format!("def f():\n{body}    return '{id}'\n")),
    )
}

fn scored(id: &str, parent: &str, score: f64, speed: f64) -> Value {
    cand(id, parent, json!({"score": score, "speed": speed}), 1)
}

fn plan(n: u32, frozen: &[u32], boosted: &[u32]) -> Value {
    json!({"op": "plan", "n": n, "frozen": frozen, "boosted": boosted})
}

fn export(format: &str) -> Value {
    json!({"op": "export", "format": format})
}

fn lineage(id: &str) -> Value {
    json!({"op": "lineage", "id": id})
}

fn policy(changed: &[&str], target: &str, protected: Option<&[&str]>) -> Value {
    json!({"op": "policy", "changed": changed, "target": target, "protected": protected})
}

fn validate(text: &str) -> Value {
    json!({"op": "validate", "text": text})
}

fn rejected(request: Value) -> Value {
    with(request, "status", json!("rejected"))
}

/// Adds with a status each, starting from a two-program population on three islands.
fn statuses(statuses: &[&str]) -> Vec<Value> {
    let mut ops = vec![add(req("p0", "0", 0.5), T0), add(req("p1", "p0", 0.6), T0 + 1.0)];
    for (i, status) in statuses.iter().enumerate() {
        let id = format!("r{i}");
        ops.push(add(with(req(&id, "p1", 0.1 + i as f64 / 100.0), "status", json!(status)), T0 + 2.0 + i as f64));
    }
    ops
}

const SPEED_CELLS: &str = r#"[{"kind": "metric", "metric": "speed", "min": 0, "max": 1, "bins": 3}]"#;

fn speed_cells() -> Value {
    serde_json::from_str(SPEED_CELLS).unwrap()
}

pub(crate) fn all() -> Vec<Vector> {
    let operators = json!({"numIslands": 3, "operators": {}});
    vec![
        vector(
            "cells-from-a-metric",
            "a metric dimension (3 bins over [0, 1]): values outside the range clip to the edge cells; stats count cells",
            json!({"features": speed_cells()}),
            vec![
                add(scored("a", "0", 0.5, 0.1), T0),
                add(scored("b", "a", 0.6, 0.5), T0 + 1.0),
                add(scored("c", "a", 0.7, 0.99), T0 + 2.0),
                add(scored("d", "a", 0.4, -3.0), T0 + 3.0),
                add(scored("e", "a", 0.3, 42.0), T0 + 4.0),
                add(cand("no-speed", "a", json!({"score": 0.9}), 1), T0 + 5.0),
                op("stats"),
            ],
        ),
        vector(
            "cells-from-code-size-and-island",
            "code lines (<3 / 3–5 / ≥6 lines) × approach family = island",
            json!({"features": [{"kind": "codeLines", "thresholds": [3, 6]}, {"kind": "island"}]}),
            vec![
                add(cand("s", "0", json!({"score": 0.1}), 0), T0),
                add(cand("m", "s", json!({"score": 0.2}), 2), T0 + 1.0),
                add(cand("l", "s", json!({"score": 0.3}), 8), T0 + 2.0),
                add(cand("l2", "l", json!({"score": 0.4}), 4), T0 + 3.0),
                op("stats"),
                export("markdown"),
            ],
        ),
        vector(
            "crowded-cell-eviction",
            "over capacity, the worst member of the most crowded cell goes, not the worst overall",
            json!({"numIslands": 1, "maxIslandSize": 4, "archiveSize": 0, "features": speed_cells()}),
            vec![
                add(scored("lonely-slow", "0", 0.05, 0.1), T0),
                add(scored("fast-1", "0", 0.5, 0.9), T0 + 1.0),
                add(scored("fast-2", "0", 0.6, 0.9), T0 + 2.0),
                add(scored("fast-3", "0", 0.7, 0.95), T0 + 3.0),
                add(scored("fast-4", "0", 0.8, 0.92), T0 + 4.0),
                add(scored("mid", "0", 0.01, 0.5), T0 + 5.0),
                op("stats"),
            ],
        ),
        vector(
            "cell-bests-survive",
            "more cells than room: every cell keeps its best while any cell has two; then the worst goes",
            json!({"numIslands": 1, "maxIslandSize": 2, "archiveSize": 0, "features": speed_cells()}),
            vec![
                add(scored("a", "0", 0.9, 0.1), T0),
                add(scored("a-worse", "0", 0.2, 0.1), T0 + 1.0),
                add(scored("b", "0", 0.1, 0.5), T0 + 2.0),
                add(scored("c", "0", 0.3, 0.9), T0 + 3.0),
                op("stats"),
            ],
        ),
        vector(
            "elite-archive-kept",
            "archive members stay even in the most crowded cell; the next worst goes instead",
            json!({"numIslands": 1, "maxIslandSize": 3, "archiveSize": 2, "features": speed_cells()}),
            vec![
                add(scored("top", "0", 0.9, 0.9), T0),
                add(scored("second", "0", 0.8, 0.9), T0 + 1.0),
                add(scored("third", "0", 0.7, 0.9), T0 + 2.0),
                add(scored("other-cell", "0", 0.1, 0.1), T0 + 3.0),
                add(scored("fourth", "0", 0.75, 0.92), T0 + 4.0),
                op("stats"),
            ],
        ),
        vector(
            "operators-small-population",
            "operators on: an empty or one-member population forces exploration",
            operators.clone(),
            then(
                vec![op("sample"), add(req("p0", "0", 0.5), T0), op("sample")],
                [add(req("p1", "p0", 0.4), T0 + 1.0), op("sample")],
            ),
        ),
        vector(
            "operators-weighted-draw",
            "the four operators drawn with seed 004's weights over a 3-island population",
            operators.clone(),
            then(evolve(12, 0), samples(16)),
        ),
        vector(
            "operators-three-rejected",
            "three rejected in a row force exploration on an island the last three did not use",
            json!({"numIslands": 4, "operators": {}}),
            then(statuses(&["accepted", "rejected", "rejected", "rejected"]), [op("sample"), op("stats")]),
        ),
        vector(
            "operators-five-rejected",
            "five rejected in a row force migration; an accepted one ends the streak",
            operators.clone(),
            then(
                statuses(&["rejected", "rejected", "rejected", "rejected", "rejected"]),
                [op("sample"), add(req("ok", "p1", 0.7), T0 + 20.0), op("sample")],
            ),
        ),
        vector(
            "operators-crossover",
            "crossover only: an elite and a diverse parent from another island, in another cell when there is one",
            json!({"numIslands": 3, "features": speed_cells(),
                   "operators": {"exploitation": 0, "exploration": 0, "crossover": 1, "migration": 0}}),
            then(
                (0..9)
                    .map(|i| add(scored(&format!("c{i}"), "0", score(i), (i % 3) as f64 / 3.0 + 0.1), T0 + i as f64))
                    .collect(),
                samples(6),
            ),
        ),
        vector(
            "operators-migration",
            "migration only: the donor is the best program's island, the parent the recipient's best",
            json!({"numIslands": 3, "operators": {"exploitation": 0, "exploration": 0, "crossover": 0, "migration": 1}}),
            then(evolve(7, 0), samples(5)),
        ),
        vector(
            "exploitation-ties-most-recent",
            "exploitation picks the island's best, the most recently added among exact ties",
            json!({"numIslands": 1, "operators": {"exploitation": 1, "exploration": 0, "crossover": 0, "migration": 0}}),
            vec![
                add(req("old", "0", 0.5), T0),
                add(req("new", "old", 0.5), T0),
                add(req("worse", "old", 0.4), T0 + 1.0),
                op("sample"),
            ],
        ),
        vector(
            "candidate-statuses",
            "rejected candidates join the population; errors are counted, keep their reason and join no island",
            json!({}),
            vec![
                add(
                    with(with(req("err-first", "0", 0.0), "status", json!("error")), "reason", json!("ImportError")),
                    T0,
                ),
                add(req("p0", "0", 0.5), T0 + 1.0),
                add(rejected(with(req("r1", "p0", 0.4), "reason", json!("slower than the parent"))), T0 + 2.0),
                add(
                    with(with(req("e1", "p0", 0.0), "status", json!("error")), "reason", json!("timeout after 60 s")),
                    T0 + 3.0,
                ),
                add(with(req("no-reason", "p0", 0.0), "status", json!("error")), T0 + 4.0),
                add(req("p2", "r1", 0.7), T0 + 6.0),
                op("stats"),
                op("info"),
            ],
        ),
        vector(
            "dedupe-fitness-cache",
            "dedupe on: the same code (line endings and trailing blanks aside) answers with the first result and spends an evaluation",
            json!({"dedupe": true}),
            vec![
                add(req("p0", "0", 0.5), T0),
                add(
                    with(req("p0-again", "0", 0.9), "targetCode", json!("def f():\r\n    return 'p0'   \r\n\r\n")),
                    T0 + 1.0,
                ),
                add(req("p1", "p0", 0.6), T0 + 2.0),
                add(with(req("p1-again", "p0", 0.1), "targetCode", json!("def f():\n    return 'p1'")), T0 + 3.0),
                op("stats"),
            ],
        ),
        vector(
            "stop-threshold-and-budget",
            "should-stop: the threshold first, then the evaluation budget",
            json!({"stopping": {"scoreThreshold": 0.95, "maxEvaluations": 4}}),
            vec![
                op("shouldStop"),
                add(req("p0", "0", 0.5), T0),
                add(req("p1", "p0", 0.6), T0 + 1.0),
                op("shouldStop"),
                add(with(with(req("e", "p1", 0.0), "status", json!("error")), "reason", json!("crash")), T0 + 2.0),
                add(req("p2", "p1", 0.55), T0 + 3.0),
                op("shouldStop"),
                add(req("p3", "p1", 0.97), T0 + 4.0),
                op("shouldStop"),
            ],
        ),
        vector(
            "stop-stagnation-and-rounds",
            "should-stop: patience evaluations without a new best, and max rounds of plans",
            json!({"stopping": {"patience": 3, "maxRounds": 2}}),
            vec![
                add(req("p0", "0", 0.5), T0),
                add(req("p1", "p0", 0.4), T0 + 1.0),
                add(req("p2", "p0", 0.5), T0 + 2.0),
                op("shouldStop"),
                add(req("p3", "p0", 0.3), T0 + 3.0),
                op("shouldStop"),
                add(req("p4", "p0", 0.8), T0 + 4.0),
                plan(2, &[], &[]),
                op("shouldStop"),
                plan(2, &[], &[]),
                op("shouldStop"),
            ],
        ),
        vector(
            "lineage-and-trees",
            "ancestors to the seed or the first pruned one, live descendants; ASCII and Mermaid trees",
            json!({"maxIslandSize": 3}),
            then(
                evolve(9, 0),
                [lineage("p9"), lineage("p4"), lineage("p1"), lineage("nope"), export("tree"), export("mermaid")],
            ),
        ),
        vector(
            "validate-lists-every-problem",
            "validate reports each broken invariant of a file, not just the first; a sound file has none",
            json!({}),
            vec![
                validate(&broken_database()),
                validate(&evodb_core::json_text::to_pretty_js(&crate::specs::seed_written_database())),
                validate("{\"numIslands\": 3"),
                validate("[]"),
            ],
        ),
        vector(
            "plan-a-batch",
            "plan 5 items over 3 islands; adds naming their item land on its island; an answer that comes before an \
             earlier item's is held and applied in plan order; an item answers once",
            json!({"numIslands": 3, "placement": "roundRobin"}),
            vec![
                add(req("p0", "0", 0.5), T0),
                add(req("p1", "p0", 0.6), T0 + 1.0),
                plan(5, &[], &[]),
                add(with(req("w4", "p0", 0.4), "planItem", json!("gen-0/island-1/exploration-4")), T0 + 2.0),
                add(with(req("w0", "p0", 0.7), "planItem", json!("gen-0/island-0/exploitation-0")), T0 + 3.0),
                add(with(req("w0-again", "p0", 0.7), "planItem", json!("gen-0/island-0/exploitation-0")), T0 + 4.0),
                add(
                    with(
                        with(req("w2", "p0", 0.7), "planItem", json!("gen-0/island-2/exploration-2")),
                        "island",
                        json!(0),
                    ),
                    T0 + 5.0,
                ),
                add(with(req("w2", "p0", 0.3), "planItem", json!("gen-0/island-2/exploration-2")), T0 + 6.0),
                plan(3, &[], &[]),
                op("snapshot"),
            ],
        ),
        vector(
            "plan-frozen-and-boosted",
            "frozen islands get no items, boosted ones twice the share; bad island numbers and freezing all are refused",
            json!({"numIslands": 4, "operators": {}}),
            then(
                evolve(6, 0),
                [
                    plan(6, &[1], &[2]),
                    plan(4, &[0, 1, 2, 3], &[]),
                    plan(2, &[7], &[]),
                    plan(0, &[], &[]),
                    plan(3, &[], &[0, 3]),
                ],
            ),
        ),
        vector(
            "policy-check",
            "changed files against the target file and protected globs (seed 003's defaults, or the caller's)",
            json!({}),
            vec![
                policy(&["src/model.py"], "src/model.py", None),
                policy(&["./src/model.py", "benchmark_speed.py"], "src/model.py", None),
                policy(&["src/model.py", "tools/eval_all.py"], "src/model.py", None),
                policy(&["src/model.py", "run.sh"], "src/model.py", None),
                policy(&["src/model.py", "src/utils.py"], "src/model.py", None),
                policy(&[], "src/model.py", None),
                policy(&["src/model.py", "data/train.csv"], "src/model.py", Some(&["data/*.csv"])),
                policy(&["run.sh"], "run.sh", Some(&[])),
            ],
        ),
        vector(
            "events-of-a-run",
            "the events of a run with statuses, migration, eviction, archive changes, samples and a plan",
            json!({"numIslands": 2, "maxIslandSize": 3, "migrationInterval": 3, "archiveSize": 2, "operators": {}}),
            then(
                then(evolve(7, 3), [add(rejected(req("rj", "p7", 0.2)), T0 + 8.0), plan(2, &[], &[])]),
                [op("events"), add(req("late", "p0", 0.99), T0 + 9.0), op("events")],
            ),
        ),
        vector(
            "population-markdown",
            "seed 004's population section: newest first, operator, parents, cell, status and notes, code in <details>",
            json!({"numIslands": 2, "features": [{"kind": "island"}, {"kind": "codeLines", "thresholds": [2, 4], "labels": ["tiny", "short", "long"]}], "operators": {}}),
            vec![
                add(cand("seed", "0", json!({"score": 0.3}), 0), T0),
                add(with(cand("child", "seed", json!({"score": 0.4}), 3), "operator", json!("exploration")), T0 + 1.0),
                add(
                    rejected(with(cand("bad", "child", json!({"score": 0.1}), 5), "reason", json!("fails the tests"))),
                    T0 + 2.0,
                ),
                add(with(req("fenced", "child", 0.5), "targetCode", json!("s = '''```'''\n")), T0 + 3.0),
                export("markdown"),
            ],
        ),
        vector(
            "qd-score-offset",
            "coverage and QD score with an offset (pyribs subtracts it) and a min-direction fitness",
            json!({"numIslands": 2, "qdOffset": -1, "directions": {"score": "min"}, "fitness": {"kind": "primary", "metric": "score"},
                   "features": [{"kind": "island"}, {"kind": "metric", "metric": "speed", "min": 0, "max": 1, "bins": 2}]}),
            vec![
                op("stats"),
                add(scored("a", "0", 0.2, 0.1), T0),
                add(scored("b", "a", 0.4, 0.9), T0 + 1.0),
                add(scored("c", "a", 0.1, 0.8), T0 + 2.0),
                add(scored("d", "a", 0.3, 0.2), T0 + 3.0),
                op("stats"),
            ],
        ),
        vector(
            "retried-add-answered-again",
            "an add repeating a live program's id and fields (a retry after a lost answer) gets its answer again and adds nothing",
            json!({}),
            vec![
                add(req("a", "0", 0.5), T0),
                add(req("b", "a", 0.7), T0 + 1.0),
                add(req("a", "0", 0.5), T0 + 2.0),
                add(req("a", "0", 0.6), T0 + 3.0),
                op("events"),
                op("info"),
            ],
        ),
        vector(
            "invalid-engine-config",
            "feature dimensions with an empty range are refused at creation, naming the field",
            json!({"features": [{"kind": "metric", "metric": "speed", "min": 1, "max": 1, "bins": 3}]}),
            vec![op("info")],
        ),
        vector(
            "git-branch-and-commit-kept",
            "git mode's branch and commit are kept with the program and in every save; a bad commit hash is refused, \
             naming the field",
            json!({}),
            vec![
                add(req("p0", "0", 0.5), T0),
                add(
                    with(
                        with(req("c1", "p0", 0.7), "branch", json!("evo/r/gen-0/island-1/exploration-1")),
                        "commit",
                        json!("0123abcd"),
                    ),
                    T0 + 1.0,
                ),
                add(with(req("c2", "p0", 0.6), "commit", json!("not-a-hash")), T0 + 2.0),
                add(with(req("c3", "p0", 0.6), "branch", json!(" ")), T0 + 3.0),
                op("snapshot"),
            ],
        ),
        vector(
            "plan-answers-in-any-order",
            "answers without ids arriving in the order 3, 1, 0, 2 are held, then applied in plan order with ids made \
             from their items: the same database as answered in plan order",
            json!({"numIslands": 2, "maxIslandSize": 3, "migrationInterval": 2}),
            then(
                evolve(4, 0),
                [
                    plan(4, &[], &[]),
                    add(answer("gen-0/island-1/exploitation-3", 0.9), T0 + 10.0),
                    add(answer("gen-0/island-1/exploration-1", 0.2), T0 + 11.0),
                    op("info"),
                    add(answer("gen-0/island-0/exploitation-0", 0.8), T0 + 12.0),
                    add(answer("gen-0/island-0/exploration-2", 0.1), T0 + 13.0),
                    op("events"),
                    op("snapshot"),
                ],
            ),
        ),
    ]
}

/// A database.json with several independent problems at once.
fn broken_database() -> String {
    let mut db = crate::specs::seed_written_database();
    db["currentIsland"] = json!(5);
    db["islands"][1] = json!(["s-1", "s-1", "ghost"]);
    db["programs"]["s-3"]["generation"] = json!(7);
    db["bestProgramId"] = json!("s-2");
    db["programs"]["s-2"]["id"] = json!("s-two");
    evodb_core::json_text::to_pretty_js(&db)
}

/// An answer to plan item `item` without an id (it gets one made from the item).
fn answer(item: &str, score: f64) -> Value {
    let mut request = with(req("unused", "p2", score), "planItem", json!(item));
    request.as_object_mut().expect("a request is an object").remove("id");
    request["codePath"] = json!(format!("/run/candidates/{}.py", item.replace('/', "_")));
    request
}

/// Issue 37's repro (vector 69): with operators on, each add without an island joins the island
/// its sample named (`sampled_island`), where round-robin would have put c3 and c8 elsewhere.
/// A reload between a sample and its add keeps the unanswered sample; c3's add names no
/// operator; the last sample stays unanswered in the file; the children of migration samples
/// record the donor program (`secondParentId`), which the tree and Mermaid exports show.
pub(crate) fn sampled_placement() -> Vec<Vector> {
    let answers = [
        ("c1", "p0", Some("exploration")),
        ("c2", "c1", Some("exploitation")),
        ("c3", "c1", None),
        ("c4", "c1", Some("exploitation")),
        ("c5", "c2", Some("exploitation")),
        ("c6", "p0", Some("migration")),
        ("c7", "c4", Some("exploitation")),
        ("c8", "c6", Some("migration")),
    ];
    let mut ops = vec![add(req("p0", "0", score(0)), T0)];
    for (i, (id, parent, operator)) in answers.into_iter().enumerate() {
        ops.push(op("sample"));
        match id {
            "c3" => ops.push(op("reload")),
            "c8" => ops.push(op("snapshot")),
            _ => {}
        }
        let request = req(id, parent, score(i + 1));
        let request = match operator {
            Some(operator) => with(request, "operator", json!(operator)),
            None => request,
        };
        ops.push(add(request, T0 + (i + 1) as f64));
    }
    ops.extend([op("sample"), export("tree"), export("mermaid")]);
    vec![Vector {
        seed: 3,
        ..vector(
            "operators-children-join-sampled-island",
            "operators on: an add without an island joins the island its sample named, across a reload; \
             migration's donor program is recorded as secondParentId and shown in the lineage",
            json!({"operators": {"exploitation": 0.5, "exploration": 0, "crossover": 0, "migration": 0.5}}),
            ops,
        )
    }]
}

/// Issue 35's last defect (vector 70): `add --id X` retried after X was pruned is answered with
/// a warning and changes nothing (`answered_pruned_retry`), across a reload; the id with other
/// fields is a new program.
pub(crate) fn pruned_retry() -> Vec<Vector> {
    let weak = req("weak", "p0", 0.1);
    let ops = vec![
        add(req("p0", "0", 0.5), T0),
        add(req("good", "p0", 0.9), T0 + 1.0),
        add(weak.clone(), T0 + 2.0),
        op("reload"),
        add(weak.clone(), T0 + 3.0),
        op("info"),
        add(with(weak, "metrics", json!({"score": 0.95})), T0 + 4.0),
        op("info"),
    ];
    vec![vector(
        "pruned-retry-is-answered",
        "one island of two: `weak` is pruned at once; its retried add (same id and fields) is answered, not \
         added, after a reload; the id with other metrics is a new program",
        json!({"numIslands": 1, "maxIslandSize": 2}),
        ops,
    )]
}

/// Issue 37 (noise, vector 71): with `stopping.noiseMargin` 0.05, new bests within the margin
/// (0.52, then 0.54 over 0.52) do not reset patience, so the run stops for stagnation where the
/// seed-exact rule (vector 50) would go on; a gain beyond the margin (0.7) resets it. The best
/// itself still moves on every gain.
pub(crate) fn noise_margin() -> Vec<Vector> {
    let config = json!({"stopping": {"patience": 3, "noiseMargin": 0.05}});
    let ops = vec![
        add(req("p0", "0", 0.5), T0),
        add(req("p1", "p0", 0.52), T0 + 1.0),
        op("shouldStop"),
        add(req("p2", "p1", 0.54), T0 + 2.0),
        op("shouldStop"),
        op("reload"),
        add(req("p3", "p2", 0.7), T0 + 3.0),
        op("shouldStop"),
        add(req("p4", "p3", 0.71), T0 + 4.0),
        add(req("p5", "p3", 0.6), T0 + 5.0),
        add(req("p6", "p3", 0.72), T0 + 6.0),
        op("shouldStop"),
        op("best"),
    ];
    vec![vector(
        "stop-patience-ignores-noise",
        "should-stop: a new best within stopping.noiseMargin of the old does not reset patience; one beyond it \
         does; the best moves either way",
        config,
        ops,
    )]
}

/// Issue 37 (noise, vector 72): `remeasure` folds a new measurement into a live program's metrics
/// (their running mean, `measurements` counted in the file): a lucky first measurement of p1
/// made it the best; measured again it falls behind p0, so the best and the one-program elite
/// archive move to p0, and the dedupe cache answers with the mean. The budget and patience do
/// not count it; an unknown id and other metric names are refused and change nothing; the
/// count survives a reload; the `remeasured` event is an input the history replays.
pub(crate) fn remeasure() -> Vec<Vector> {
    let remeasure = |id: &str, metrics: Value| json!({"op": "remeasure", "request": {"id": id, "metrics": metrics}});
    let ops = vec![
        add(req("p0", "0", 0.5), T0),
        add(req("p1", "p0", 0.6), T0 + 1.0),
        op("events"),
        remeasure("p1", json!({"score": 0.3})),
        op("events"),
        op("best"),
        remeasure("ghost", json!({"score": 0.3})),
        remeasure("p0", json!({"speed": 0.3})),
        op("reload"),
        remeasure("p1", json!({"score": 0.3})),
        add(with(req("p2", "p0", 0.6), "targetCode", json!("def f():\n    return 'p1'\n")), T0 + 2.0),
        op("shouldStop"),
        op("stats"),
        op("snapshot"),
    ];
    vec![vector(
        "remeasure-folds-the-running-mean",
        "remeasure: a program measured again keeps the mean of its measurements; fitness, best, archive and \
         dedupe cache follow; budget and patience do not count it; bad requests change nothing",
        json!({"numIslands": 2, "archiveSize": 1, "dedupe": true, "stopping": {"patience": 5}}),
        ops,
    )]
}
